//! The shipped scenarios all load, and the standard table is what the docs
//! promise: Table A, ten units a side, every terrain kind, mirror-symmetric.

use std::collections::BTreeSet;
use std::path::PathBuf;

use sandtable_cache::{Facing, Game, Ground, Place, Square, TerrainKind, UnitId};
use sandtable_scenario::{RuleSystem, load, standard};

fn scenarios_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios")
}

#[test]
fn every_shipped_scenario_loads_without_warnings() {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(scenarios_dir()).expect("scenarios/ exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            scenario.warnings.is_empty(),
            "{}: {:?}",
            path.display(),
            scenario.warnings
        );
        let game = scenario.game();
        assert!(
            !game.legal_commands().is_empty(),
            "{} is playable",
            path.display()
        );
        names.push(
            path.file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned(),
        );
    }
    names.sort();
    assert_eq!(
        names,
        [
            "open-field.ron",
            "river-crossing.ron",
            "snyder-skirmish.ron",
            "standard.ron",
            "stress-100x100.ron",
            "three-players.ron",
            "two-factors.ron"
        ]
    );
}

#[test]
fn the_embedded_standard_scenario_is_the_file() {
    let file = load(&scenarios_dir().join("standard.ron")).expect("loads");
    assert_eq!(standard(), file);
}

fn mirror(sq: Square, columns: u16) -> Square {
    Square::new(columns - 1 - sq.col, sq.row)
}

#[test]
fn the_standard_table_is_table_a_with_every_terrain_kind_and_mirror_symmetric() {
    let scenario = standard();
    assert_eq!(scenario.rules, RuleSystem::ConflictAtCache);
    let b = scenario.setup.board;
    assert_eq!((b.columns, b.rows), (24, 15), "Table A: 24 x 15 squares");
    assert_eq!(scenario.setup.players.len(), 2);
    for p in &scenario.setup.players {
        assert_eq!(p.factors.len(), 1);
        assert_eq!(
            p.factors[0].units.len(),
            10,
            "{} has a standard Factor",
            p.name
        );
    }
    let kinds: BTreeSet<&str> = scenario
        .setup
        .terrain
        .iter()
        .map(|t| match t.kind {
            TerrainKind::Bridge { elevated: true } => "elevated bridge",
            k => k.name(),
        })
        .collect();
    for kind in [
        "low wall",
        "high wall",
        "mountain",
        "woods",
        "water",
        "road",
        "elevated bridge",
        "building",
    ] {
        assert!(kinds.contains(kind), "standard.ron has {kind}: {kinds:?}");
    }
    // Fairness: the table reads the same from either side.
    let game: Game = scenario.game();
    for sq in b.squares() {
        assert_eq!(
            game.ground(sq),
            game.ground(mirror(sq, b.columns)),
            "ground at {sq}"
        );
    }
    let side = |player: u16| -> BTreeSet<(Square, Facing)> {
        (0..game.units().len() as u16)
            .map(UnitId)
            .filter(|u| game.units()[usize::from(u.0)].player.0 == player)
            .filter_map(|u| match game.place(u) {
                Place::Board { square, facing } => Some((square, facing)),
                _ => None,
            })
            .collect()
    };
    let flip = |f: Facing| match f {
        Facing::E => Facing::W,
        Facing::W => Facing::E,
        other => other,
    };
    let red_mirrored: BTreeSet<(Square, Facing)> = side(0)
        .into_iter()
        .map(|(s, f)| (mirror(s, b.columns), flip(f)))
        .collect();
    assert_eq!(red_mirrored, side(1), "Blue's deployment mirrors Red's");
    assert_eq!(
        mirror(game.factors()[0].base, b.columns),
        game.factors()[1].base
    );
    assert_eq!(
        game.ground("L8".parse().expect("square")),
        Ground::Bridge { elevated: true }
    );
}

#[test]
fn optional_fields_take_their_documented_defaults() {
    let text = r#"(
        name: "defaults",
        rules: ConflictAtCache,
        board: (columns: 8, rows: 8),
        players: [
            (name: "Red", factors: [(base: "C3", units: [(at: "C4", facing: N)])]),
            (name: "Blue", factors: [(base: "F6", units: [(at: "F5", facing: S, name: Some("Vance"))])]),
        ],
    )"#;
    let s = sandtable_scenario::parse(text, "inline").expect("valid");
    assert_eq!(s.setup.first_player, None, "drawn with the seed (R5)");
    assert_eq!(s.setup.seed, sandtable_scenario::DEFAULT_SEED);
    assert_eq!(s.setup.turn_limit, None);
    assert!(s.setup.terrain.is_empty() && s.setup.stashes.is_empty());
    assert_eq!(s.colours, sandtable_scenario::DEFAULT_COLOURS[..2]);
    assert_eq!(
        s.setup.players[1].factors[0].units[0].name.as_deref(),
        Some("Vance")
    );
    assert_eq!(
        s.warnings.len(),
        2,
        "R2: factors of one unit are warned: {:?}",
        s.warnings
    );
}

#[test]
fn a_snyder_skirmish_may_bring_its_own_stash_list_by_file_or_inline() {
    use sandtable_cache::{StashList, StashResult};
    let dir = std::env::temp_dir().join(format!("sandtable-stash-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rows: Vec<String> = (1..=6)
        .flat_map(|t| (1..=6).map(move |u| format!("(roll: {t}{u}, result: ExtraActions(5))")))
        .collect();
    std::fs::write(dir.join("generous.ron"), format!("[{}]", rows.join(", "))).expect("write");
    let scenario = std::fs::read_to_string(scenarios_dir().join("snyder-skirmish.ron"))
        .expect("shipped")
        .replace(
            "    first_player:",
            "    stash_list: \"generous.ron\",\n    first_player:",
        );
    std::fs::write(dir.join("game.ron"), &scenario).expect("write");
    let loaded = load(&dir.join("game.ron")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(loaded.rules, RuleSystem::SnyderSkirmish);
    assert_eq!(loaded.setup.stashes.len(), 6);
    assert!(
        loaded
            .setup
            .stash_list
            .rows()
            .all(|r| r.result == StashResult::ExtraActions(5))
    );

    let inline = scenario.replace("\"generous.ron\"", &format!("[{}]", rows.join(", ")));
    let parsed = sandtable_scenario::parse(&inline, "inline").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(parsed.setup.stash_list, loaded.setup.stash_list);
    let err = sandtable_scenario::parse(&scenario, "inline").unwrap_err();
    assert!(
        err.to_string()
            .contains("can only be read for a scenario loaded from a file"),
        "{err}"
    );

    let shipped = load(&scenarios_dir().join("snyder-skirmish.ron")).expect("loads");
    assert_eq!(
        shipped.setup.stash_list,
        StashList::seed_default(),
        "the seed's list by default"
    );
}

#[test]
fn the_standard_table_is_physically_table_a_and_small_squares_are_warned() {
    let physical = standard().physical.expect("standard.ron gives its table");
    assert_eq!(physical, sandtable_scenario::Physical::TABLE_A);
    let board = standard().setup.board;
    assert_eq!(physical.grid_mm(board), (720.0, 450.0));
    assert_eq!(
        physical.grid_offset_mm(board),
        (21.0, 29.0),
        "centred on 762 x 508"
    );
    assert_eq!(
        physical.square_centre_mm(board, "A1".parse().expect("sq")),
        (36.0, 44.0)
    );

    let small = std::fs::read_to_string(scenarios_dir().join("standard.ron"))
        .expect("shipped")
        .replace("square_mm: 30.0", "square_mm: 24.0");
    let s = sandtable_scenario::parse(&small, "small").expect("fits, with a warning");
    let warnings: Vec<String> = s
        .warnings
        .iter()
        .map(|w| w.display_in("small").to_string())
        .collect();
    assert_eq!(
        warnings,
        [
            "small: physical.square_mm: squares of 24.0 mm are smaller than the 25.0 mm base of a 28 mm figure: unit bases must fit within squares"
        ]
    );
}

#[test]
fn every_shipped_scenario_writes_back_to_the_same_scenario() {
    for entry in std::fs::read_dir(scenarios_dir()).expect("scenarios/ exists") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|x| x != "ron") {
            continue;
        }
        let scenario = load(&path).unwrap_or_else(|e| panic!("{e}"));
        let text = scenario.to_ron();
        let again = sandtable_scenario::parse(&text, "written").unwrap_or_else(|e| {
            panic!(
                "{}: the written file is refused: {e}\n{text}",
                path.display()
            )
        });
        assert_eq!(again, scenario, "{} round trip", path.display());
    }
    let written = standard().to_ron();
    for rectangle in [
        r#"(kind: Road, area: ("A12", "X12")),"#,
        r#"(kind: Building(entrance: "G4"), area: ("F2", "H4")),"#,
    ] {
        assert!(
            written.contains(rectangle),
            "a filled rectangle is written as its corners: {rectangle}\n{written}"
        );
    }
    let mut custom = standard();
    custom.setup.stash_list = sandtable_cache::StashList::from_rows(
        &(1..=6)
            .flat_map(|t| {
                (1..=6).map(move |u| sandtable_cache::StashRow {
                    roll: t * 10 + u,
                    result: sandtable_cache::StashResult::Nothing,
                })
            })
            .collect::<Vec<_>>(),
    )
    .expect("full list");
    custom.name = "quote \" and \\ backslash".to_owned();
    custom.rules = RuleSystem::SnyderSkirmish;
    let again = sandtable_scenario::parse(&custom.to_ron(), "custom").expect("reads back");
    assert_eq!(again, custom);
}

#[test]
fn a_scenario_without_a_table_is_laid_on_table_a_or_a_rimmed_table() {
    let open = load(&scenarios_dir().join("open-field.ron")).expect("loads");
    assert_eq!(open.physical, None, "open-field gives no table");
    assert_eq!(
        open.table(),
        sandtable_scenario::Physical::TABLE_A,
        "24 x 15 fits Table A"
    );
    let stress = load(&scenarios_dir().join("stress-100x100.ron")).expect("loads");
    assert_eq!(
        stress.table().table_mm,
        (3060.0, 3060.0),
        "3000 mm of squares with a 30 mm rim each side"
    );
    assert_eq!(
        standard().table(),
        standard().physical.expect("given"),
        "its own"
    );
}

#[test]
fn default_colours_are_okabe_and_ito_s_and_every_player_has_a_mark_besides_colour() {
    let hex: Vec<String> = sandtable_scenario::DEFAULT_COLOURS
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(
        hex,
        [
            "#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9"
        ]
    );
    assert_eq!(
        sandtable_scenario::player_marks(["Red", "Blue", "green"]),
        ['R', 'B', 'G']
    );
    assert_eq!(
        sandtable_scenario::player_marks(["Red", "Blue", "Rose"]),
        ['1', 'B', '3'],
        "a letter two players share gives way to their numbers"
    );
    assert_eq!(
        sandtable_scenario::player_marks(["日本", "中国", "Blue", ""]),
        ['1', '2', 'B', '4'],
        "a name not begun by a letter of plain ASCII is marked by its number"
    );
}

/// R5: a scenario that leaves `first_player` out has it drawn with the
/// game's seed, so that over seeds every player starts some games.
#[test]
fn a_first_player_left_out_is_drawn_with_the_seed() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../scenarios/open-field.ron"
    ))
    .expect("shipped");
    let without: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("first_player"))
        .collect::<Vec<_>>()
        .join("\n");
    let scenario = sandtable_scenario::parse(&without, "open-field").expect("valid");
    assert_eq!(scenario.setup.first_player, None);
    let starters: std::collections::BTreeSet<u16> = (0..40)
        .map(|seed| scenario.game_with_seed(seed).current_player().0)
        .collect();
    assert_eq!(
        starters.len(),
        2,
        "both players start some games: {starters:?}"
    );
    // The same seed draws the same player.
    assert_eq!(
        scenario.game_with_seed(7).current_player(),
        scenario.game_with_seed(7).current_player()
    );
}

/// The lists of every shipped Frontiers scenario are picked to their
/// target (docs/frontiers.md, "Lists to match"): at most the side's limit
/// and within 10 AP of it (R103, R148: an Attack/Defense attacker's `ap`
/// times its `mode`); a Cameron attacker fields its whole box, so its
/// list has no limit; the skirmish, without `ap`, fields lists within 10
/// AP of each other.
#[test]
fn every_shipped_frontiers_list_is_within_10_ap_of_its_target() {
    let dir = scenarios_dir().join("frontiers");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("scenarios/frontiers/ exists") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("readable");
        let s = sandtable_scenario::skirmish::parse(&text, &path.display().to_string())
            .unwrap_or_else(|e| panic!("{e}"));
        let list = |side: usize| -> u32 {
            s.setup
                .units
                .iter()
                .filter(|u| usize::from(u.side) == side)
                .map(|u| {
                    u32::from(
                        sandtable_frontiers::data::unit_data(&u.data)
                            .expect("shipped data")
                            .ap,
                    )
                })
                .sum()
        };
        let lists = [list(0), list(1)];
        let name = path.display();
        if s.setup.ap.is_none() {
            assert!(
                lists[0].abs_diff(lists[1]) <= 10,
                "{name}: lists of {lists:?} AP"
            );
        }
        for (side, &ap) in lists.iter().enumerate() {
            if let Some(limit) = s.setup.ap_limit(side) {
                assert!(
                    ap <= limit && ap + 10 >= limit,
                    "{name}: side {side} fields {ap} AP, its target {limit}"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 9, "the shipped Frontiers scenarios");
}
