//! The JSON summary has exactly the documented fields: the full example of
//! `docs/warpspawn.md` is this position's summary.

mod common;

use common::*;
use sandtable_core::game::{GameState, Viewer};

/// Red's gun in B2 fires at Blue's horse in B6 (a 1: nobody dies), then
/// Red's 12 in C3 beat Blue's 4 in C4 (3:1, a 3 is H; fate 1: surrender):
/// two are killed on each side and two of Blue surrender; Red owes its
/// free advance.
fn position() -> sandtable_warpspawn::Game {
    let s = setup(
        8,
        8,
        vec![
            gun(0, "B2", 4),
            p(0, "C3", 12, 0, 1),
            p(1, "C4", 4, 0, 0),
            p(1, "B6", 0, 4, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[1, 3, 1]);
    play(
        &mut game,
        &["fire B2 B6", "end", "end", "attack C4 from C3"],
    );
    game
}

fn documented() -> serde_json::Value {
    let doc = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/warpspawn.md"
    ))
    .expect("docs/warpspawn.md");
    let start = doc.find("```json\n").expect("a JSON example") + "```json\n".len();
    let end = start + doc[start..].find("```").expect("its end");
    serde_json::from_str(&doc[start..end]).expect("the example is JSON")
}

#[test]
fn the_documented_example_is_the_summary_of_its_position() {
    let game = position();
    let now: serde_json::Value = serde_json::from_str(&game.view_json(Viewer::Referee)).unwrap();
    assert_eq!(
        now,
        documented(),
        "docs/warpspawn.md's example\n{}",
        game.view_json(Viewer::Referee)
    );
    let keys: Vec<&str> = now
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "turn",
        "current_player",
        "phase",
        "over",
        "winner",
        "vp",
        "pieces",
        "awaiting",
    ];
    expected.sort();
    let mut keys = keys;
    keys.sort();
    assert_eq!(keys, expected, "exactly these fields");
    let piece_keys: Vec<String> = now["pieces"][0]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let mut piece_keys = piece_keys;
    piece_keys.sort();
    assert_eq!(
        piece_keys,
        [
            "baggage",
            "cannon",
            "cavalry",
            "crew_marked",
            "flag",
            "held_by",
            "hex",
            "infantry",
            "officers",
            "player",
            "state"
        ]
    );
    assert_eq!(
        game.view_json(Viewer::Player(sandtable_core::game::Seat(1))),
        game.view_json(Viewer::Referee),
        "nothing of the battle is hidden"
    );
}
