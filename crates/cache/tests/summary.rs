//! The state summary's JSON field names are an interface of the CLI: they are
//! checked here exactly.

mod common;

use common::{board, play};
use serde_json::{Value, json};

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(|s| s.as_str())
        .collect();
    k.sort_unstable();
    k
}

#[test]
fn summary_serializes_with_the_documented_field_names() {
    let mut game = board(10, 10)
        .player("Red", "C3", &[("E4", 'E'), ("D5", 'N')])
        .player("Blue", "G4", &[("F4", 'N'), ("H5", 'S')])
        .factor("G8", &[("G9", 'S')])
        .game();
    play(&mut game, &["activate E4", "advance", "advance"]);
    let v = serde_json::to_value(game.summary()).expect("serializes");
    assert_eq!(
        keys(&v),
        [
            "activation",
            "activations_left",
            "bases",
            "current_player",
            "custody",
            "over",
            "pending",
            "removed",
            "stashes",
            "turn",
            "units",
            "winner"
        ]
    );
    assert_eq!(v["turn"], json!(1));
    assert_eq!(v["current_player"], json!("Red"));
    assert_eq!(v["over"], json!(false));
    assert_eq!(v["winner"], Value::Null);
    // F4 faced N: taken from the side, 4 - 1 + 2, then the base for 1.
    assert_eq!(v["activation"], json!({"square": "G4", "actions_left": 4}));
    assert_eq!(v["activations_left"], json!(0));
    assert_eq!(v["stashes"], json!([]));
    assert_eq!(v["pending"], Value::Null);
    assert_eq!(
        v["units"],
        json!([
            {"player": "Red", "factor": 0, "square": "G4", "facing": "E"},
            {"player": "Red", "factor": 0, "square": "D5", "facing": "N"},
            {"player": "Blue", "factor": 1, "square": "G9", "facing": "S"},
        ])
    );
    assert_eq!(
        v["bases"],
        json!([
            {"player": "Red", "factor": 0, "square": "C3", "active": true},
            {"player": "Blue", "factor": 0, "square": "G4", "active": false},
            {"player": "Blue", "factor": 1, "square": "G8", "active": true},
        ])
    );
    assert_eq!(
        v["custody"],
        json!([{"holder": "Red", "player": "Blue", "factor": 0}])
    );
    assert_eq!(v["removed"], json!([{"player": "Blue", "factor": 0}]));
    let back: sandtable_cache::StateSummary = serde_json::from_value(v).expect("reads back");
    assert_eq!(back, game.summary());
}
