//! Warpspawn battle files (`rules: Warpspawn`): the shipped battles load and
//! play, the open field is the rules crate's sample, a battle written back
//! reads the same, and every mistake is reported where it lies with its
//! ruling, changing nothing.

use std::path::PathBuf;

use sandtable_core::dice::Dice;
use sandtable_scenario::battle::{Battle, HexPhysical, parse};
use sandtable_scenario::{Loaded, load_any};
use sandtable_warpspawn::{Game, Map, samples};

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn")
}

fn load(name: &str) -> Battle {
    match load_any(&dir().join(name)).unwrap_or_else(|e| panic!("{e}")) {
        Loaded::Warpspawn(b) => b,
        _ => panic!("{name} is a battle"),
    }
}

/// A battle's text with one line replaced, for the error cases.
fn open_field_with(from: &str, to: &str) -> String {
    let text = std::fs::read_to_string(dir().join("open-field.ron")).unwrap();
    assert!(text.contains(from), "{from}");
    text.replacen(from, to, 1)
}

fn problems(text: &str) -> String {
    parse(text, "battle.ron").unwrap_err().to_string()
}

#[test]
fn the_shipped_battles_load_without_warnings_at_100_points_a_side() {
    let mut names: Vec<String> = std::fs::read_dir(dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "capture-the-flag.ron",
            "flank-march.ron",
            "open-field.ron",
            "river-bridge.ron",
            "stress-60x40.ron"
        ]
    );
    // The stress map measures the table, not a battle of 100 points.
    for name in names.iter().filter(|n| !n.starts_with("stress")) {
        let battle = load(name);
        assert!(battle.warnings.is_empty(), "{name}: {:?}", battle.warnings);
        for side in 0..2 {
            assert_eq!(
                sandtable_warpspawn::points_doubled(&battle.setup, side),
                200,
                "{name}: side {side} spends its 100 points (R61)"
            );
        }
        let game = Game::new(&battle.setup, Dice::seeded(battle.setup.seed)).unwrap();
        let side = game.decider().unwrap();
        assert!(!game.legal_commands(side).is_empty(), "{name} is playable");
    }
    assert!(load("capture-the-flag.ron").setup.switches.capture_the_flag);
}

#[test]
fn the_stress_map_is_60_by_40_hexes_with_200_formations() {
    let battle = load("stress-60x40.ron");
    assert!(battle.warnings.is_empty(), "{:?}", battle.warnings);
    let map = battle.setup.map;
    assert_eq!((map.columns, map.rows), (60, 40));
    let game = Game::new(&battle.setup, Dice::seeded(battle.setup.seed)).unwrap();
    let formations = game.stacks().iter().filter(|s| s.is_formation()).count();
    assert_eq!(formations, 200, "100 formations a side");
    let side = game.decider().unwrap();
    assert!(!game.legal_commands(side).is_empty(), "it is playable");
}

#[test]
fn the_open_field_file_is_the_rules_crates_sample() {
    assert_eq!(load("open-field.ron").setup, samples::open_field());
}

#[test]
fn the_flank_march_file_is_the_rules_crates_sample() {
    let mut file = load("flank-march.ron").setup;
    let mut sample = samples::flank_march();
    // The order of the pieces' entries is the file's own.
    for s in [&mut file, &mut sample] {
        s.pieces.sort_by_key(|p| (p.side, p.at.col, p.at.row));
    }
    assert_eq!(file, sample);
}

#[test]
fn a_battle_written_back_reads_the_same() {
    for name in ["open-field.ron", "river-bridge.ron", "capture-the-flag.ron"] {
        let battle = load(name);
        let again = parse(&battle.to_ron(), "written").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(again, battle, "{name}");
        assert_eq!(again.content_hash(), battle.content_hash());
    }
    // Every switch written and read.
    let text = open_field_with(
        "    turns: 10,",
        "    turns: 10,\n    house_rules: (cannon_range: 5, even_row: refused, half_round: up, rally_low: flee, capture_the_flag: true, melee_rows: [[V, V, V, V, V, V], [V, V, H, H, H, B], [V, H, H, H, B, L], [H, H, H, B, L, L], [D, D, B, A, A, A]]),",
    );
    let battle = parse(&text, "switches").unwrap_or_else(|e| panic!("{e}"));
    let sw = battle.setup.switches;
    assert_eq!(sw.cannon_range, 5);
    assert_eq!(sw.even_row, sandtable_warpspawn::EvenRow::Refused);
    assert_eq!(sw.half_round, sandtable_warpspawn::HalfRound::Up);
    assert_eq!(sw.rally_low, sandtable_warpspawn::RallyLow::Flee);
    assert!(sw.capture_the_flag);
    assert_eq!(sw.melee_rows.0[4][0], sandtable_warpspawn::MeleeResult::D);
    assert_eq!(parse(&battle.to_ron(), "again").unwrap(), battle);
}

#[test]
fn every_mistake_is_reported_with_its_place_and_ruling() {
    let cases: [(&str, &str, &str); 12] = [
        (
            "(at: \"C2\", side: \"Red\", infantry: 16, officers: 1, flag: true),",
            "(at: \"C2\", side: \"Red\", infantry: 26, officers: 1, flag: true),",
            "battle.ron: pieces[0]: C2 holds 26 armed men, over its limit of 20 (R62)",
        ),
        (
            "(at: \"F2\", side: \"Red\", infantry: 8, cannon: true),",
            "(at: \"F2\", side: \"Red\", infantry: 3, cannon: true),",
            "battle.ron: pieces[1]: the cannon in F2 has 3 men with it: a cannon moves and fires only with 4 or more (R61)",
        ),
        (
            "(at: \"H2\", side: \"Red\", infantry: 14),",
            "(at: \"H6\", side: \"Red\", infantry: 14),",
            "battle.ron: pieces[2].at: H6 is not one of Red's deployment hexes (R60)",
        ),
        (
            "(at: \"H2\", side: \"Red\", infantry: 14),",
            "(at: \"H2\", side: \"Green\", infantry: 14),",
            "battle.ron: pieces[2].side: there is no side named \"Green\"; the sides are \"Red\", \"Blue\"",
        ),
        (
            "(at: \"N2\", side: \"Red\", infantry: 19),",
            "(at: \"N2\", side: \"Red\", infantry: 20),",
            "battle.ron: sides[0]: Red spends 101 points, over its limit of 100 (R61)",
        ),
        (
            "map: (columns: 16, rows: 12),",
            "map: (columns: 160, rows: 12),",
            "battle.ron: map: a map of 160 x 12 hexes is not allowed: columns and rows must each be 1 to 100 (R60)",
        ),
        (
            "(kind: Trees, hexes: [\"D6\", \"D7\", \"E6\", \"E7\", \"F7\"]),",
            "(kind: Trees, hexes: [\"D6\", \"D7\", \"E6\", \"E7\", \"H7\"]),",
            "battle.ron: terrain[1].hexes[4]: H7 is given a terrain twice (first in terrain[0].hexes[0]); a hex has one terrain (R60)",
        ),
        (
            "(kind: Bocage, hexes: [\"J5\", \"M5\"]),",
            "(kind: Bocage, hexes: [\"J5\", \"M50\"]),",
            "battle.ron: terrain[4].hexes[1]: M50 is off the map of 16 x 12 hexes (R60)",
        ),
        (
            "(kind: Bocage, hexes: [\"J5\", \"M5\"]),",
            "(kind: River, hexes: [\"C2\"]), (kind: Bocage, hexes: [\"J5\", \"M5\"]),",
            "battle.ron: pieces[0].at: C2 is River, impassable: no piece stands there (R69)",
        ),
        (
            "    turns: 10,",
            "    turns: 10,\n    house_rules: (cannon_range: 9),",
            "battle.ron: house_rules.cannon_range: a cannon's range is 1 to 6 hexes, not 9 (R65)",
        ),
        (
            "    turns: 10,",
            "    turns: 10,\n    house_rules: (melee_rows: [[V, V]]),",
            "battle.ron: house_rules.melee_rows: the melee table is 5 rows (4:1, 3:1, 2:1, 3:2, even) of 6 results each, for rolls 1 to 6 (R75)",
        ),
        (
            "    turns: 10,",
            "    turns: 0,\n    first_player: \"Green\",",
            "battle.ron: first_player: there is no side named \"Green\"; the sides are \"Red\", \"Blue\" (R64)",
        ),
    ];
    for (from, to, expected) in cases {
        let said = problems(&open_field_with(from, to));
        assert!(
            said.lines().any(|l| l == expected),
            "expected\n{expected}\ngot\n{said}"
        );
    }
}

#[test]
fn syntax_and_unknown_fields_are_reported_by_line_and_column() {
    let said = problems(&open_field_with(
        "    turns: 10,",
        "    turns: 10,\n    house_rules: (cannon_reach: 5),",
    ));
    assert!(
        said.starts_with("battle.ron:35:19: Unexpected field named `cannon_reach`"),
        "{said}"
    );
    let said = problems(&open_field_with(
        "map: (columns: 16, rows: 12),",
        "map: (columns: 16 rows: 12),",
    ));
    assert_eq!(said, "battle.ron:8:23: Expected comma");
    let said = problems(&open_field_with("home: S", "home: Up"));
    assert!(said.contains("Up"), "{said}");
}

#[test]
fn names_are_bounded_and_plain_and_messages_quote_a_bounded_part() {
    let long = "y".repeat(201);
    let said = problems(&open_field_with(
        "(name: \"Red\",",
        &format!("(name: \"{long}\","),
    ));
    assert_eq!(
        said,
        format!(
            "battle.ron: sides[0].name: \"{}...\" (141 characters more) is 201 characters long; a name holds at most 200",
            "y".repeat(60)
        ),
        "a name past its limit is the one problem told, before anything quotes it"
    );
    let said = problems(&open_field_with(
        "name: \"Open field: the wood and the farm\"",
        "name: \"Open field\\nbattle.ron: ok\"",
    ));
    assert_eq!(
        said,
        "battle.ron: name: \"Open field\\u{a}battle.ron: ok\" holds \\u{a} at character 11: a name holds no control characters or bidirectional controls",
        "a line break in a name cannot forge a line of output"
    );
    let said = problems(&open_field_with(
        "(name: \"Blue\",",
        "(name: \"Bl\u{202e}ue\",",
    ));
    assert!(
        said.contains("sides[1].name: \"Bl\\u{202e}ue\" holds \\u{202e} at character 3"),
        "{said}"
    );
    // Pieces naming a side of a long name that is not there: 2,000
    // messages, each quoting a bounded part, not the whole name.
    let huge = "z".repeat(3_000_000);
    let mut text = open_field_with("(name: \"Red\",", &format!("(name: \"{huge}\","));
    let pieces: Vec<String> = (0..2_000)
        .map(|_| format!("(at: \"C2\", side: \"{}\", infantry: 1),", "w".repeat(150)))
        .collect();
    text = text.replacen("pieces: [", &format!("pieces: [\n{}", pieces.join("\n")), 1);
    let said = problems(&text);
    assert!(
        said.len() < 20_000,
        "the report is bounded: {} bytes",
        said.len()
    );
    assert!(said.contains("sides[0].name: "), "{said}");
}

#[test]
fn a_battle_nested_past_the_readers_limit_is_told_about_a_battles_format() {
    let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
    let said = problems(&open_field_with(
        "    turns: 10,",
        &format!("    turns: 10,\n    extra: {deep},"),
    ));
    assert!(
        !said.contains("`board`") && !said.contains("`players`"),
        "a battle is not told about a Cache table's fields: {said}"
    );
    assert!(said.starts_with("battle.ron:"), "{said}");
}

#[test]
fn the_cache_loader_names_a_battle_for_what_it_is() {
    let err = sandtable_scenario::load(&dir().join("open-field.ron")).unwrap_err();
    assert!(
        err.to_string()
            .contains("this is a Warpspawn battle (rules: Warpspawn)"),
        "{err}"
    );
}

#[test]
fn areas_are_counted_before_they_are_expanded() {
    let mut text = open_field_with("(kind: Road, hexes: [\"H1:H12\"]),", "");
    let many: Vec<String> = (0..20_001).map(|_| "\"A1:P12\"".to_owned()).collect();
    text = text.replacen(
        "deployment: [\"A1:P3\"]",
        &format!("deployment: [{}]", many.join(", ")),
        1,
    );
    let said = problems(&text);
    assert!(said.contains("at most 200000 are allowed"), "{said}");
}

#[test]
fn hexes_lie_at_their_physical_places() {
    // 40 mm between flat sides: 23.09 mm a side; columns 34.64 mm apart.
    let p = HexPhysical {
        hex_mm: 40.0,
        table_mm: (600.0, 600.0),
        figure_scale_mm: 15.0,
    };
    let map = Map {
        columns: 16,
        rows: 12,
    };
    let (w, d) = p.map_mm(map);
    assert!((w - 23.094 * 24.5).abs() < 0.01, "{w}");
    assert!((d - 500.0).abs() < 1e-9, "{d}");
    let (ox, oy) = p.map_offset_mm(map);
    let a1 = p.hex_centre_mm(map, "A1".parse().unwrap());
    let b1 = p.hex_centre_mm(map, "B1".parse().unwrap());
    let a2 = p.hex_centre_mm(map, "A2".parse().unwrap());
    assert!((a1.0 - ox - 23.094).abs() < 0.01 && (a1.1 - oy - 20.0).abs() < 1e-9);
    assert!(
        (b1.0 - a1.0 - 34.641).abs() < 0.01,
        "columns 1.5 sides apart"
    );
    assert!(
        (b1.1 - a1.1 - 20.0).abs() < 1e-9,
        "B half a hex higher (R60)"
    );
    assert!((a2.1 - a1.1 - 40.0).abs() < 1e-9, "rows a hex apart");
    // Neighbours' centres are one hex apart.
    let dist = ((b1.0 - a1.0).powi(2) + (b1.1 - a1.1).powi(2)).sqrt();
    assert!((dist - 40.0).abs() < 1e-9, "{dist}");
    let text = open_field_with("table_mm: (762.0, 508.0)", "table_mm: (500.0, 508.0)");
    assert!(
        problems(&text).contains("the map does not fit on the table: it is 65.8 mm too wide"),
        "{}",
        problems(&text)
    );
}
