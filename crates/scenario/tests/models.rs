//! The `models` list: which pieces a scenario draws with its own glTF
//! files, the checks on each entry, and which entry draws a piece.

use sandtable_scenario::{ModelPiece, ModelTerrain, PieceOf, models::model_for, parse};

fn with_models(models: &str) -> Result<sandtable_scenario::Scenario, String> {
    let text = format!(
        r#"(
            name: "models",
            rules: ConflictAtCache,
            board: (columns: 10, rows: 10),
            players: [
                (name: "Red", factors: [
                    (base: "C3", units: [(at: "C4", facing: N, name: "Vey"), (at: "D4", facing: N)]),
                    (base: "H3", units: [(at: "H4", facing: N)]),
                ]),
                (name: "Blue", factors: [(base: "H8", units: [(at: "H7", facing: S)])]),
            ],
            terrain: [(kind: Woods, squares: ["E6"])],
            models: [{models}],
        )"#
    );
    parse(&text, "models.ron").map_err(|e| e.to_string())
}

#[test]
fn entries_are_read_and_written_back() {
    let s = with_models(
        r#"(piece: Units, file: "figures/soldier.glb", unit_mm: 1.0),
           (piece: Factor(2), player: "Red", file: "figures/archer.gltf", unit_mm: 1000.0),
           (piece: Unit("Vey"), file: "figures/vey.glb", unit_mm: 0.5),
           (piece: Base, player: "Blue", file: "flag.glb", unit_mm: 1.0),
           (piece: Terrain(Woods), file: "trees/oak.glb", unit_mm: 1.0),"#,
    )
    .expect("valid models");
    assert_eq!(s.models.len(), 5);
    assert_eq!(s.models[1].piece, ModelPiece::Factor(2));
    assert_eq!(s.models[1].player.as_deref(), Some("Red"));
    assert_eq!(s.models[2].unit_mm, 0.5);
    assert_eq!(s.models[4].piece, ModelPiece::Terrain(ModelTerrain::Woods));
    let model_warnings = |s: &sandtable_scenario::Scenario| -> Vec<String> {
        s.warnings
            .iter()
            .map(|w| w.display_in("m").to_string())
            .filter(|l| l.contains("models["))
            .collect()
    };
    assert!(model_warnings(&s).is_empty(), "{:?}", s.warnings);
    let again = parse(&s.to_ron(), "again").expect("written back");
    assert_eq!(again.models, s.models);
    assert_eq!(again, s);
}

#[test]
fn the_most_specific_entry_draws_a_piece() {
    let s = with_models(
        r#"(piece: Units, file: "all.glb", unit_mm: 1.0),
           (piece: Units, player: "Blue", file: "blue.glb", unit_mm: 1.0),
           (piece: Factor(2), player: "Red", file: "red2.glb", unit_mm: 1.0),
           (piece: Unit("Vey"), file: "vey.glb", unit_mm: 1.0),
           (piece: Base, file: "base.glb", unit_mm: 1.0),"#,
    )
    .expect("valid");
    let names = ["Red", "Blue"];
    let file = |piece| model_for(&s.models, piece, &names).map(|i| s.models[i].file.as_str());
    let unit = |player, factor, name| PieceOf::Unit {
        player,
        factor,
        name,
    };
    assert_eq!(
        file(unit(0, 0, Some("Vey"))),
        Some("vey.glb"),
        "a name wins"
    );
    assert_eq!(file(unit(0, 0, None)), Some("all.glb"));
    assert_eq!(
        file(unit(0, 1, None)),
        Some("red2.glb"),
        "a Factor beats all units"
    );
    assert_eq!(
        file(unit(1, 0, None)),
        Some("blue.glb"),
        "the player's own entry"
    );
    assert_eq!(
        file(unit(1, 1, None)),
        Some("blue.glb"),
        "Red's Factor 2 is not Blue's"
    );
    assert_eq!(file(PieceOf::Base { player: 1 }), Some("base.glb"));
    assert_eq!(file(PieceOf::Stash), None, "no entry: the default look");
    assert_eq!(file(PieceOf::Terrain(ModelTerrain::Woods)), None);
}

#[test]
fn malformed_entries_are_refused_with_their_field() {
    let cases = [
        (
            r#"(piece: Units, file: "/etc/figure.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "absolute",
        ),
        (
            r#"(piece: Units, file: "../figure.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "leaves its folder",
        ),
        (
            r#"(piece: Units, file: "figures/../../x.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "leaves its folder",
        ),
        (
            r#"(piece: Units, file: "figure.stl", unit_mm: 1.0)"#,
            "models[0].file",
            ".gltf or .glb",
        ),
        (
            r#"(piece: Units, file: "", unit_mm: 1.0)"#,
            "models[0].file",
            "empty",
        ),
        (
            r#"(piece: Units, file: "FIGURE.GLB", unit_mm: 1.0)"#,
            "models[0].file",
            "lower case",
        ),
        (
            r#"(piece: Units, file: "x://0/unit.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "leaves its folder",
        ),
        (
            r#"(piece: Units, file: "figures\\a.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "leaves its folder",
        ),
        (
            r#"(piece: Units, file: "a#Scene1.glb", unit_mm: 1.0)"#,
            "models[0].file",
            "`#`",
        ),
        (
            r#"(piece: Units, file: "a.glb", unit_mm: 0.0)"#,
            "models[0].unit_mm",
            "not a scale",
        ),
        (
            r#"(piece: Units, file: "a.glb", unit_mm: -2.0)"#,
            "models[0].unit_mm",
            "not a scale",
        ),
        (
            r#"(piece: Units, file: "a.glb", unit_mm: 1e9)"#,
            "models[0].unit_mm",
            "not a scale",
        ),
        (
            r#"(piece: Stash, player: "Red", file: "a.glb", unit_mm: 1.0)"#,
            "models[0].player",
            "no player",
        ),
        (
            r#"(piece: Factor(0), file: "a.glb", unit_mm: 1.0)"#,
            "models[0].piece",
            "from 1",
        ),
        (
            r#"(piece: Base, file: "a.glb", unit_mm: 1.0), (piece: Base, file: "b.glb", unit_mm: 2.0)"#,
            "models[1]",
            "models[0] already gives",
        ),
    ];
    for (entry, field, words) in cases {
        let error = with_models(entry).expect_err(entry);
        assert!(
            error.contains(&format!("{field}: ")) && error.contains(words),
            "{entry}: {error}"
        );
    }
    let missing_scale = with_models(r#"(piece: Units, file: "a.glb")"#).expect_err("no scale");
    assert!(missing_scale.contains("unit_mm"), "{missing_scale}");
    let many = "(piece: Units, file: \"a.glb\", unit_mm: 1.0),".repeat(257);
    let error = with_models(&many).expect_err("too many");
    assert!(error.contains("at most 256"), "{error}");
}

#[test]
fn entries_that_fit_no_piece_are_warnings() {
    let s = with_models(
        r#"(piece: Units, player: "Gren", file: "a.glb", unit_mm: 1.0),
           (piece: Unit("Nobody"), file: "b.glb", unit_mm: 1.0),
           (piece: Factor(2), player: "Blue", file: "c.glb", unit_mm: 1.0),
           (piece: Factor(3), file: "d.glb", unit_mm: 1.0),"#,
    )
    .expect("loads");
    let lines: Vec<String> = s
        .warnings
        .iter()
        .map(|w| w.display_in("m").to_string())
        .filter(|l| l.contains("models["))
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert!(lines[0].contains("models[0]") && lines[0].contains("no player is named \"Gren\""));
    assert!(lines[1].contains("no unit is named \"Nobody\""));
    assert!(lines[2].contains("Blue has no Factor 2"));
    assert!(lines[3].contains("no player has a Factor 3"));
    assert!(lines.iter().all(|l| l.contains("this model is not used")));
}

/// The shipped skirmish with `models` added.
fn skirmish_with_models(models: &str) -> Result<sandtable_scenario::skirmish::Skirmish, String> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/frontiers/skirmish.ron"),
    )
    .expect("the skirmish");
    let end = text.rfind(')').expect("the file's end");
    let text = format!("{}    models: [{models}],\n)\n", &text[..end]);
    sandtable_scenario::skirmish::parse(&text, "skirmish.ron").map_err(|e| e.to_string())
}

#[test]
fn a_skirmish_s_entries_are_read_written_back_and_draw_the_most_specific() {
    let s = skirmish_with_models(
        r#"(piece: Units, file: "all.glb", unit_mm: 1.0),
           (piece: Units, player: "Zirl", file: "zirl.glb", unit_mm: 1.0),
           (piece: Kind("lg_trooper"), file: "trooper.glb", unit_mm: 1000.0),
           (piece: Unit("T2"), file: "t2.glb", unit_mm: 1.0),"#,
    )
    .expect("valid models");
    assert_eq!(s.models.len(), 4);
    assert_eq!(s.models[2].piece, ModelPiece::Kind("lg_trooper".into()));
    assert!(
        !s.warnings
            .iter()
            .any(|w| w.display_in("m").to_string().contains("models[")),
        "{:?}",
        s.warnings
    );
    let again = sandtable_scenario::skirmish::parse(&s.to_ron(), "again").expect("written back");
    assert_eq!(again.models, s.models);
    let names = ["Legion", "Zirl"];
    let file = |piece| model_for(&s.models, piece, &names).map(|i| s.models[i].file.as_str());
    let figure = |side, kind, id| PieceOf::Figure { side, kind, id };
    assert_eq!(
        file(figure(0, "lg_trooper", "T2")),
        Some("t2.glb"),
        "an id wins"
    );
    assert_eq!(
        file(figure(0, "lg_trooper", "T1")),
        Some("trooper.glb"),
        "a unit type beats all units"
    );
    assert_eq!(file(figure(0, "lg_captain", "CP")), Some("all.glb"));
    assert_eq!(
        file(figure(1, "zr_cluster", "K1")),
        Some("zirl.glb"),
        "a side's own entry beats every side's"
    );
    assert_eq!(file(PieceOf::Crate), None, "no entry draws crates");
}

#[test]
fn a_skirmish_refuses_cache_pieces_and_warns_of_entries_that_fit_nothing() {
    let e = skirmish_with_models(r#"(piece: Base, file: "b.glb", unit_mm: 1.0),"#)
        .expect_err("no bases in a skirmish");
    assert!(
        e.contains("models[0].piece") && e.contains("a Frontiers skirmish has no such pieces"),
        "{e}"
    );
    let e = skirmish_with_models(r#"(piece: Crate, player: "Zirl", file: "c.glb", unit_mm: 1.0),"#)
        .expect_err("crates are no side's");
    assert!(e.contains("models[0].player"), "{e}");
    let e = skirmish_with_models(r#"(piece: Units, file: "../c.glb", unit_mm: 1.0),"#)
        .expect_err("outside its folder");
    assert!(e.contains("models[0].file"), "{e}");
    let e = with_models(r#"(piece: Kind("lg_trooper"), file: "k.glb", unit_mm: 1.0),"#)
        .expect_err("no unit types in Cache");
    assert!(
        e.contains("a Conflict at Cache scenario has no such pieces"),
        "{e}"
    );
    let s = skirmish_with_models(
        r#"(piece: Kind("zr_walker"), player: "Legion", file: "w.glb", unit_mm: 1.0),
           (piece: Unit("T9"), file: "t9.glb", unit_mm: 1.0),
           (piece: Units, player: "Orcs", file: "o.glb", unit_mm: 1.0),
           (piece: Crate, file: "c.glb", unit_mm: 1.0),"#,
    )
    .expect("warnings only");
    let lines: Vec<String> = s
        .warnings
        .iter()
        .map(|w| w.display_in("m").to_string())
        .collect();
    for want in [
        "models[0]: no unit is of the type \"zr_walker\": this model is not used",
        "models[1]: no unit has the id \"T9\": this model is not used",
        "models[2]: no side is named \"Orcs\": this model is not used",
        "models[3]: the skirmish has no crates: this model is not used",
    ] {
        assert!(lines.iter().any(|l| l.contains(want)), "{want}: {lines:?}");
    }
}
