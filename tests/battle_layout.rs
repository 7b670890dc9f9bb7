//! A battle's layout in the editor: painting terrain and placing pieces
//! make the same battle as the same file written by hand, each side's
//! points are added up live against its limit (R61) and a layout over it
//! is not saved, every problem is marked on its hex with its ruling, and
//! undo and redo restore exactly.

mod common;

use sandtable::warpspawn::draft::{BattleDraft, BattleEdit, EditBattleError, empty_battle};
use sandtable_scenario::battle::{Battle, parse};
use sandtable_warpspawn::{Hex, PiecesSetup, Terrain};

fn hex(name: &str) -> Hex {
    name.parse().expect("a hex name")
}

fn pieces(at: &str, side: usize, infantry: u16, cavalry: u16, officers: u16) -> PiecesSetup {
    PiecesSetup {
        at: hex(at),
        side,
        infantry,
        cavalry,
        officers,
        ..PiecesSetup::default()
    }
}

/// Both battles as the loader reads them back from their files.
fn reloaded(battle: &Battle) -> Battle {
    parse(&battle.to_ron(), "layout").expect("it loads")
}

#[test]
fn painting_and_placing_make_the_battle_the_same_file_written_by_hand_makes() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    // A new map is a battle file as it is: nothing to put right first.
    assert!(draft.errors().is_empty(), "{:?}", draft.errors());
    let edits = [
        BattleEdit::Rename("A small fight".to_owned()),
        // A drag across three hexes paints them as one edit.
        BattleEdit::Paint {
            hexes: vec![hex("C3"), hex("D3"), hex("D4")],
            terrain: Terrain::Trees,
        },
        BattleEdit::Paint {
            hexes: vec![hex("F3"), hex("F4")],
            terrain: Terrain::River,
        },
        // Painted over, then cleared back to fields.
        BattleEdit::Paint {
            hexes: vec![hex("D4")],
            terrain: Terrain::Buildings,
        },
        BattleEdit::Paint {
            hexes: vec![hex("C3")],
            terrain: Terrain::Fields,
        },
        BattleEdit::SetPieces(PiecesSetup {
            flag: true,
            ..pieces("B1", 0, 12, 0, 1)
        }),
        BattleEdit::SetPieces(pieces("C2", 0, 0, 6, 0)),
        BattleEdit::SetPieces(PiecesSetup {
            cannon: true,
            ..pieces("E6", 1, 8, 0, 0)
        }),
        BattleEdit::SetPieces(pieces("G6", 1, 10, 0, 1)),
        BattleEdit::MovePieces {
            side: 1,
            from: hex("G6"),
            to: hex("F6"),
        },
        BattleEdit::SetPoints {
            side: 1,
            points: 80,
        },
    ];
    for edit in &edits {
        draft
            .apply(edit)
            .unwrap_or_else(|e| panic!("{edit:?}: {e}"));
    }
    assert_eq!(draft.history(), (edits.len(), 0));
    let by_hand = r#"(
        name: "A small fight",
        rules: Warpspawn,
        map: (columns: 8, rows: 6),
        terrain: [
            (kind: Trees, hexes: ["D3"]),
            (kind: Buildings, hexes: ["D4"]),
            (kind: River, hexes: ["F3", "F4"]),
        ],
        sides: [
            (name: "Red", colour: "COLOUR0", home: S, points: 100, deployment: ["A1:H2"]),
            (name: "Blue", colour: "COLOUR1", home: N, points: 80, deployment: ["A5:H6"]),
        ],
        pieces: [
            (at: "B1", side: "Red", infantry: 12, officers: 1, flag: true),
            (at: "C2", side: "Red", cavalry: 6),
            (at: "E6", side: "Blue", infantry: 8, cannon: true),
            (at: "F6", side: "Blue", infantry: 10, officers: 1),
        ],
        turns: 10,
        seed: 1,
        physical: (hex_mm: 40.0, table_mm: (TABLE_W, TABLE_D), figure_scale_mm: 15.0),
    )"#;
    let made = draft.battle();
    let table = made.table().table_mm;
    let by_hand = by_hand
        .replace("COLOUR0", &made.colours[0].to_string())
        .replace("COLOUR1", &made.colours[1].to_string())
        .replace("TABLE_W", &format!("{:?}", table.0))
        .replace("TABLE_D", &format!("{:?}", table.1));
    let written = parse(&by_hand, "by hand").expect("the hand-written battle loads");
    assert!(draft.errors().is_empty(), "{:?}", draft.errors());
    assert_eq!(reloaded(made), written);
    // The points, as the panel adds them up (R61): 12 + 3 + 9 and a flag.
    let points = draft.points();
    assert_eq!(points[1].limit, 80);
    assert!(!points[0].over && !points[1].over, "{points:?}");
}

#[test]
fn a_side_over_its_points_limit_is_marked_and_the_layout_is_not_saved() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    // Six hexes of 20 infantry: 120 points against Red's 100 (R61).
    for at in ["A1", "B1", "C1", "D1", "E1", "F1"] {
        draft
            .apply(&BattleEdit::SetPieces(pieces(at, 0, 20, 0, 0)))
            .expect("placed");
    }
    draft
        .apply(&BattleEdit::SetPieces(pieces("D6", 1, 20, 0, 0)))
        .expect("placed");
    let points = draft.points();
    assert_eq!(points[0].spent, "120");
    assert!(points[0].over, "Red's total is over its limit");
    assert!(!points[1].over, "Blue's is not");
    let over: Vec<String> = draft.errors().iter().map(|f| f.line()).collect();
    assert!(
        over.iter().any(|l| l.contains("R61") && l.contains("Red")),
        "{over:?}"
    );
    let dir = common::temp_dir("battle-layout", "over");
    let file = dir.join("fight.ron");
    let refused = draft.save(&file, None).expect_err("refused");
    assert!(refused.contains("not saved"), "{refused}");
    assert!(!file.exists(), "nothing is written");
    // Raised to 120 points, it saves, and the file loads as the battle.
    draft
        .apply(&BattleEdit::SetPoints {
            side: 0,
            points: 120,
        })
        .expect("set");
    assert!(!draft.points()[0].over);
    assert!(draft.errors().is_empty(), "{:?}", draft.errors());
    draft.save(&file, None).expect("saved");
    let loaded = match sandtable_scenario::load_any(&file) {
        Ok(sandtable_scenario::Loaded::Warpspawn(b)) => b,
        other => panic!("a battle: {other:?}"),
    };
    assert_eq!(loaded, reloaded(draft.battle()));
}

#[test]
fn every_problem_is_marked_on_its_hex_with_its_ruling() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    draft
        .apply(&BattleEdit::SetPieces(pieces("B1", 0, 10, 0, 0)))
        .expect("placed");
    draft
        .apply(&BattleEdit::SetPieces(pieces("C6", 1, 10, 0, 0)))
        .expect("placed");
    assert!(draft.problem_hexes().is_empty(), "{:?}", draft.errors());
    // Red's men in the middle of the map: outside its deployment hexes.
    draft
        .apply(&BattleEdit::MovePieces {
            side: 0,
            from: hex("B1"),
            to: hex("B4"),
        })
        .expect("moved");
    assert_eq!(draft.problem_hexes(), vec![hex("B4")]);
    let finding = &draft.errors()[0];
    assert!(finding.problem.ruling.is_some(), "{}", finding.line());
    // Made a deployment hex of Red's, the problem is gone.
    draft
        .apply(&BattleEdit::ToggleDeployment {
            side: 0,
            hex: hex("B4"),
        })
        .expect("toggled");
    assert!(draft.problem_hexes().is_empty(), "{:?}", draft.errors());
    // Pieces on water cannot be.
    draft
        .apply(&BattleEdit::Paint {
            hexes: vec![hex("B4")],
            terrain: Terrain::Water,
        })
        .expect("painted");
    assert_eq!(draft.problem_hexes(), vec![hex("B4")]);
}

#[test]
fn undo_and_redo_restore_exactly_and_a_refused_edit_changes_nothing() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    let mut states = vec![draft.battle().clone()];
    for edit in [
        BattleEdit::Paint {
            hexes: vec![hex("A3"), hex("B3")],
            terrain: Terrain::Bocage,
        },
        BattleEdit::SetPieces(pieces("A1", 0, 5, 5, 1)),
        BattleEdit::SetPieces(pieces("A1", 0, 6, 5, 1)),
        BattleEdit::ToggleDeployment {
            side: 1,
            hex: hex("A4"),
        },
        BattleEdit::SetHexMm(30.0),
        BattleEdit::SetPieces(pieces("A1", 0, 0, 0, 0)),
    ] {
        draft.apply(&edit).expect("applied");
        states.push(draft.battle().clone());
    }
    for want in states.iter().rev().skip(1) {
        draft.undo().expect("undone");
        assert_eq!(draft.battle(), want);
    }
    assert_eq!(draft.undo(), Err(EditBattleError::NoHistory("undo")));
    for want in states.iter().skip(1) {
        draft.redo().expect("redone");
        assert_eq!(draft.battle(), want);
    }
    // A name typed letter by letter is one edit.
    let before = draft.history().0;
    for name in ["F", "Fi", "Fig", "Fight"] {
        draft
            .apply(&BattleEdit::Rename(name.to_owned()))
            .expect("renamed");
    }
    assert_eq!(draft.history().0, before + 1);
    // Refused edits change nothing and say why.
    let now = draft.battle().clone();
    for (edit, words) in [
        (
            BattleEdit::Paint {
                hexes: vec![hex("A1"), hex("J9")],
                terrain: Terrain::Trees,
            },
            "off the 8 x 6 map (R60)",
        ),
        (
            BattleEdit::MovePieces {
                side: 0,
                from: hex("C1"),
                to: hex("C2"),
            },
            "Red has no pieces in C1",
        ),
        (
            BattleEdit::New {
                columns: 0,
                rows: 5,
            },
            "1 to 100",
        ),
        (BattleEdit::SetHexMm(-3.0), "above 0"),
    ] {
        let e = draft.apply(&edit).expect_err("refused");
        assert!(e.to_string().contains(words), "{e}");
        assert_eq!(*draft.battle(), now, "{edit:?} changed nothing");
    }
}
