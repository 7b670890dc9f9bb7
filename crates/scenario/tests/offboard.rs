//! A battle's `offboard` block (R40-R57): read with its defaults, written
//! back the same, and every mistake reported at its field with its ruling.

use std::path::PathBuf;

use sandtable_scenario::battle::parse;
use sandtable_warpspawn::offboard::counter::Composition;
use sandtable_warpspawn::offboard::fight::{StandoffRule, SuperiorNumbers};
use sandtable_warpspawn::offboard::ring::Square;

fn open_field() -> String {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/warpspawn/open-field.ron");
    std::fs::read_to_string(path).expect("the open field")
}

/// The open field with room for counters (200 points a side) and `block`
/// after its last field.
fn with_block(block: &str) -> String {
    let text = open_field().replace("points: 100", "points: 200");
    let end = text.rfind(')').expect("the file's closing bracket");
    format!("{}{block}\n{}", &text[..end], &text[end..])
}

fn problems(text: &str) -> String {
    parse(text, "flank.ron").expect_err("refused").to_string()
}

/// Whether one line of the problems ends with exactly `wanted`.
fn says(said: &str, wanted: &str) -> bool {
    said.lines()
        .any(|line| line.ends_with(&format!(": {wanted}")))
}

const BLOCK: &str = r#"    offboard: (
        reserves: [(side: "Blue", squares: ["15A", "16A", "16B"])],
        counters: [
            (number: 5, side: "Red", at: "2E", cavalry: 10, officers: 1),
            (number: 7, side: "Red", at: "1A", infantry: 8, cannon: true),
            (number: 1, side: "Blue", at: "16A", infantry: 6),
        ],
    ),"#;

#[test]
fn a_block_is_read_with_its_defaults_and_written_back_the_same() {
    let battle = parse(&with_block(BLOCK), "flank.ron").unwrap_or_else(|e| panic!("{e}"));
    let o = battle.setup.offboard.as_ref().expect("the grid");
    // R40's span 1, R55's sight 2, R54's nine points.
    assert_eq!((o.span, o.sight, o.scout_max_points), (1, 2, 9));
    // Red's reserve is left out: R42's default; Blue's is listed.
    assert_eq!(o.reserves.len(), 2);
    assert_eq!(o.reserves[0], None);
    assert_eq!(
        o.reserves[1].as_deref(),
        Some(
            &[
                "15A".parse::<Square>().unwrap(),
                "16A".parse().unwrap(),
                "16B".parse().unwrap()
            ][..]
        )
    );
    assert_eq!(o.counters.len(), 3);
    assert_eq!(o.counters[0].number, 5);
    assert_eq!(o.counters[0].at, Square::new(4, 1));
    assert_eq!(
        o.counters[0].pieces,
        Composition {
            cavalry: 10,
            officers: 1,
            ..Composition::default()
        }
    );
    assert_eq!(o.counters[2].side, 1);
    // The points count the counters (R61).
    let notes: Vec<String> = battle
        .warnings
        .iter()
        .map(|w| w.display_in("flank.ron").to_string())
        .collect();
    assert_eq!(
        notes,
        [
            // Red's points count its counters: 100 on the map, 18 for
            // counter 5 and 18 for counter 7 (R61).
            "flank.ron: sides: Red spends 136 of its 200 points, under 90% (R61)",
            "flank.ron: sides: Blue spends 106 of its 200 points, under 90% (R61)",
        ]
    );
    // Written back, it reads the same.
    let again = parse(&battle.to_ron(), "again").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, battle);
    // The switches of R52 and R53 go with the battle's others.
    let switched = with_block(BLOCK).replace(
        "    turns: 10,",
        "    turns: 10,\n    house_rules: (superior_numbers: excess, standoff: reroll),",
    );
    let battle = parse(&switched, "flank.ron").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        battle.setup.switches.off_map.superior_numbers,
        SuperiorNumbers::Excess
    );
    assert_eq!(battle.setup.switches.off_map.standoff, StandoffRule::Reroll);
    assert_eq!(parse(&battle.to_ron(), "again").unwrap(), battle);
}

#[test]
fn a_battle_without_the_block_is_written_as_before() {
    let battle = parse(&open_field(), "open-field.ron").expect("the open field");
    assert_eq!(battle.setup.offboard, None);
    assert!(!battle.to_ron().contains("offboard"));
}

#[test]
fn each_mistake_is_reported_at_its_field_with_its_ruling() {
    let said = problems(&with_block(
        r#"    offboard: (
        counters: [
            (number: 2, side: "Red", at: "4C", infantry: 5),
            (number: 2, side: "Red", at: "2E", infantry: 5),
            (number: 3, side: "Red", at: "1A", infantry: 3, cannon: true),
        ],
        reserves: [(side: "Blue", squares: ["6F"])],
    ),"#,
    ));
    for wanted in [
        "offboard.counters[0].at: 4C is on the map, not the ring (R40)",
        "offboard.counters[1].number: side 0 has counter 2 already (counters[0]); a number is one counter's within its side (R43)",
        "offboard.counters[2]: a cannon goes with its crew of 4 armed men; counter 3 has 3 (R43)",
        "offboard.reserves[1][0]: 6F is on the map, not the ring (R42)",
    ] {
        assert!(says(&said, wanted), "{wanted}\nin:\n{said}");
    }
    let said = problems(&with_block(
        r#"    offboard: (counters: [(number: 1, side: "Green", at: "E2", infantry: 1)]),"#,
    ));
    assert!(
        says(
            &said,
            "offboard.counters[0].side: there is no side named \"Green\"; the sides are \"Red\", \"Blue\""
        ),
        "{said}"
    );
    assert!(
        says(
            &said,
            "offboard.counters[0].at: `E2` is not a grid square's name: it does not start with a row number (row number first, then column letters: `2E`) (R40)"
        ),
        "{said}"
    );
    let said = problems(&with_block("    offboard: (span: 5),"));
    assert!(
        says(
            &said,
            "offboard.span: a span of 5 hexes does not divide the map's 16 columns and 12 rows (R40)"
        ),
        "{said}"
    );
}

#[test]
fn a_side_s_counters_count_against_its_points() {
    // At 100 points a side the open field is full: Red's counter of 10
    // cavalry takes it over its limit (R61).
    let text = open_field();
    let end = text.rfind(')').expect("the closing bracket");
    let text = format!(
        "{}    offboard: (counters: [(number: 1, side: \"Red\", at: \"2E\", cavalry: 10)]),\n{}",
        &text[..end],
        &text[end..]
    );
    let said = problems(&text);
    assert!(
        says(
            &said,
            "sides[0]: Red spends 115 points, over its limit of 100 (R61)"
        ),
        "{said}"
    );
}

#[test]
fn a_switch_of_the_grid_without_the_block_is_refused() {
    let text = open_field().replace(
        "    turns: 10,",
        "    turns: 10,\n    house_rules: (standoff: reroll),",
    );
    let said = problems(&text);
    assert!(
        says(
            &said,
            "house_rules.standoff: the standoff switches the off-board grid's fights; this battle has no `offboard` block (R53)"
        ),
        "{said}"
    );
}
