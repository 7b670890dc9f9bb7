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
    let refused = draft.save(&file).expect_err("refused");
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
    draft.save(&file).expect("saved");
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

#[test]
fn a_drag_of_the_paint_brush_across_hexes_undoes_as_one_edit() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    let before = draft.battle().clone();
    for at in ["B3", "C3", "C3", "D4"] {
        draft
            .paint_stroke(hex(at), Terrain::Trench)
            .expect("painted");
    }
    draft.end_stroke();
    for at in ["B3", "C3", "D4"] {
        assert_eq!(draft.terrain_at(hex(at)), Terrain::Trench, "{at}");
    }
    assert_eq!(draft.history(), (1, 0), "one edit");
    // A second stroke is an edit of its own.
    draft
        .paint_stroke(hex("E4"), Terrain::Fort)
        .expect("painted");
    draft.end_stroke();
    assert_eq!(draft.history(), (2, 0));
    draft.undo().expect("undone");
    draft.undo().expect("undone");
    assert_eq!(*draft.battle(), before);
    // Off the map, nothing is painted.
    assert!(draft.paint_stroke(hex("Z9"), Terrain::Fort).is_err());
    assert_eq!(*draft.battle(), before);
}

// ------------------------------------------------------------ in the app

use bevy::prelude::*;
use sandtable::mode::{Mode, SetLayoutMode};
use sandtable::picking::Hovered;
use sandtable::session::Notice;
use sandtable::warpspawn::layout::{BattleLayout, BattleLayoutRequest, BattleTool};
use sandtable::warpspawn::table::{Formation, HexTile};
use sandtable::warpspawn::{ActiveBattle, BattleInput, BattleLoaded};

fn battle_app(name: &str) -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn")
        .join(name);
    let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path)
    else {
        panic!("{name} is a battle");
    };
    let mut app = App::new();
    // The table's clicks, as the window's picking makes them.
    app.add_plugins(MinimalPlugins).add_plugins((
        sandtable::logic_plugin,
        sandtable::cache::picking::click_plugin,
    ));
    app.insert_resource(
        ActiveBattle::new(battle)
            .expect("it starts")
            .with_source(sandtable::session::ScenarioSource::File(path)),
    );
    app.world_mut().write_message(BattleLoaded);
    app.update();
    app
}

fn send(app: &mut App, input: BattleInput) {
    app.world_mut().write_message(input);
    app.update();
}

fn set_mode(app: &mut App, on: bool) {
    app.world_mut().write_message(SetLayoutMode {
        on,
        discard_unsaved: false,
    });
    // The change of mode takes effect at the start of the next frame.
    app.update();
    app.update();
}

fn layout(app: &mut App) -> Mut<'_, BattleLayout> {
    app.world_mut().resource_mut::<BattleLayout>()
}

fn mode(app: &App) -> Mode {
    *app.world().resource::<State<Mode>>().get()
}

fn tile(app: &mut App, at: &str) -> Terrain {
    let at = hex(at);
    app.world_mut()
        .query::<&HexTile>()
        .iter(app.world())
        .find(|t| t.hex == at)
        .expect("a tile a hex")
        .terrain
}

fn formations(app: &mut App) -> Vec<(Hex, u8, u16, u16)> {
    let mut all: Vec<(Hex, u8, u16, u16)> = app
        .world_mut()
        .query::<&Formation>()
        .iter(app.world())
        .map(|f| (f.hex, f.side.0, f.infantry, f.cavalry))
        .collect();
    all.sort();
    all
}

#[test]
fn layout_mode_edits_the_battle_s_map_with_clicks_and_drags_and_plays_the_result() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    assert_eq!(mode(&app), Mode::Layout);
    let game_before = app.world().resource::<ActiveBattle>().game.game().clone();

    // Paint a fort with a click, and a trench line with a drag across three
    // hexes: one edit.
    layout(&mut app).tool = BattleTool::Paint;
    layout(&mut app).terrain = Terrain::Fort;
    send(&mut app, BattleInput::Click(hex("E5")));
    assert_eq!(
        tile(&mut app, "E5"),
        Terrain::Fort,
        "the table shows the draft"
    );
    layout(&mut app).terrain = Terrain::Trench;
    let before = layout(&mut app).draft.history().0;
    send(&mut app, BattleInput::Grab(hex("A5")));
    for at in ["B5", "C5"] {
        app.insert_resource(Hovered(Some(hex(at).spot())));
        app.update();
    }
    send(&mut app, BattleInput::Release);
    for at in ["A5", "B5", "C5"] {
        assert_eq!(tile(&mut app, at), Terrain::Trench, "{at}");
    }
    assert_eq!(
        layout(&mut app).draft.history().0,
        before + 1,
        "one stroke, one edit"
    );

    // Pieces: N2's 19 infantry made 9, five more in A1, H2's moved by a drag.
    layout(&mut app).tool = BattleTool::Pieces;
    layout(&mut app).side = 0;
    layout(&mut app).brush = PiecesSetup {
        infantry: 9,
        ..PiecesSetup::default()
    };
    send(&mut app, BattleInput::Click(hex("N2")));
    layout(&mut app).brush.infantry = 5;
    send(&mut app, BattleInput::Click(hex("A1")));
    send(&mut app, BattleInput::Grab(hex("H2")));
    app.world_mut().write_message(BattleInput::Drop(hex("H3")));
    send(&mut app, BattleInput::Release);
    let shown = formations(&mut app);
    for want in [
        (hex("N2"), 0, 9, 0),
        (hex("A1"), 0, 5, 0),
        (hex("H3"), 0, 14, 0),
    ] {
        assert!(shown.contains(&want), "{want:?} in {shown:?}");
    }
    assert!(!shown.iter().any(|f| f.0 == hex("H2")), "H2 is empty now");
    assert_eq!(layout(&mut app).draft.points()[0].spent, "95");
    assert!(layout(&mut app).draft.errors().is_empty());

    // Nothing of the battle in play changed meanwhile.
    let active = app.world().resource::<ActiveBattle>();
    assert!(active.record.is_empty());
    assert_eq!(
        sandtable_core::game::GameState::state_hash(active.game.game()),
        sandtable_core::game::GameState::state_hash(&game_before)
    );

    // Back to the battle: a new battle of the edited layout starts.
    let edited = reloaded(layout(&mut app).draft.battle());
    set_mode(&mut app, false);
    assert_eq!(
        mode(&app),
        Mode::Play,
        "{:?}",
        app.world().resource::<Notice>()
    );
    let active = app.world().resource::<ActiveBattle>();
    assert_eq!(active.setup, edited);
    assert_eq!(active.game.battle().terrain(hex("B5")), Terrain::Trench);
    app.update();
    assert!(formations(&mut app).contains(&(hex("H3"), 0, 14, 0)));
    assert!(app.world().get_resource::<BattleLayout>().is_none());
}

#[test]
fn a_layout_over_its_points_limit_is_neither_saved_nor_played_and_says_why() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    layout(&mut app).tool = BattleTool::Pieces;
    layout(&mut app).brush = PiecesSetup {
        infantry: 20,
        ..PiecesSetup::default()
    };
    send(&mut app, BattleInput::Click(hex("A1")));
    assert!(layout(&mut app).draft.points()[0].over, "Red: 120 of 100");
    let dir = common::temp_dir("battle-layout-app", "over");
    let file = dir.join("over.ron");
    app.world_mut()
        .write_message(BattleLayoutRequest::Save(file.clone()));
    app.update();
    assert!(!file.exists(), "not saved");
    let notice = app.world().resource::<Notice>().clone();
    assert!(notice.error, "{notice:?}");
    assert!(notice.text.unwrap_or_default().contains("not saved"));
    // Nor played: layout mode stays on, and the notice names the ruling.
    set_mode(&mut app, false);
    assert_eq!(mode(&app), Mode::Layout);
    let text = common::notice(&app);
    assert!(
        text.contains("cannot be played") && text.contains("R61"),
        "{text}"
    );
    // Undone, it saves, and the file is the battle as it was.
    app.world_mut().write_message(BattleLayoutRequest::Undo);
    app.update();
    app.world_mut()
        .write_message(BattleLayoutRequest::Save(file.clone()));
    app.update();
    let saved = match sandtable_scenario::load_any(&file) {
        Ok(sandtable_scenario::Loaded::Warpspawn(b)) => b,
        other => panic!("saved as a battle: {other:?}"),
    };
    assert_eq!(
        saved,
        reloaded(&app.world().resource::<ActiveBattle>().setup)
    );
    // Its sheet goes beside it as `over.pdf`, by the same rule as a Cache
    // layout's; the battle file is left as it is.
    let text = std::fs::read(&file).expect("read");
    app.world_mut()
        .write_message(BattleLayoutRequest::Print(file.clone()));
    app.update();
    let sheet = dir.join("over.pdf");
    assert!(
        std::fs::read(&sheet)
            .expect("a sheet")
            .starts_with(b"%PDF-"),
        "{}",
        common::notice(&app)
    );
    assert_eq!(
        std::fs::read(&file).expect("read"),
        text,
        "the .ron is untouched"
    );
}

#[test]
fn a_stroke_of_paint_ends_when_the_button_is_up_though_its_drag_end_is_never_heard() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    layout(&mut app).tool = BattleTool::Paint;
    layout(&mut app).terrain = Terrain::Water;
    let mut held = ButtonInput::<MouseButton>::default();
    held.press(MouseButton::Left);
    app.insert_resource(held);
    send(&mut app, BattleInput::Grab(hex("A6")));
    app.insert_resource(Hovered(Some(hex("B6").spot())));
    app.update();
    assert_eq!(tile(&mut app, "B6"), Terrain::Water);
    // The button goes up; the hex the drag began on was built again, so no
    // end of the drag reaches the table.
    app.insert_resource(ButtonInput::<MouseButton>::default());
    app.update();
    assert!(!layout(&mut app).painting, "the stroke is over");
    app.insert_resource(Hovered(Some(hex("C6").spot())));
    app.update();
    assert_eq!(
        tile(&mut app, "C6"),
        Terrain::Fields,
        "the pointer passing paints nothing"
    );
}

#[test]
fn the_measuring_tool_reads_the_distance_between_two_hexes_in_mm_inches_and_hexes() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    assert_eq!(
        layout(&mut app).tool,
        BattleTool::Measure,
        "the tool to begin with"
    );
    send(&mut app, BattleInput::Click(hex("A1")));
    send(&mut app, BattleInput::Click(hex("C1")));
    // Two columns apart are three half-sides of a 40 mm hex each: 3 x 40 /
    // sqrt(3) = 69.28 mm across, no depth (A and C are not raised).
    let mm = 3.0 * 40.0 / 3f64.sqrt();
    assert_eq!(
        layout(&mut app).reading.as_deref(),
        Some(format!("A1 to C1: {mm:.1} mm, {:.2} in, 2 hexes apart", mm / 25.4).as_str())
    );
    // A right click lets go of it.
    send(&mut app, BattleInput::Cancel);
    assert_eq!(layout(&mut app).reading, None);
}

#[test]
fn ctrl_z_undoes_an_edit_of_the_layout_and_ctrl_y_makes_it_again() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    layout(&mut app).tool = BattleTool::Paint;
    layout(&mut app).terrain = Terrain::Mountain;
    send(&mut app, BattleInput::Click(hex("H6")));
    assert_eq!(tile(&mut app, "H6"), Terrain::Mountain);
    let press = |app: &mut App, keys: &[KeyCode]| {
        let mut input = ButtonInput::<KeyCode>::default();
        for k in keys {
            input.press(*k);
        }
        app.insert_resource(input);
        app.update();
        app.insert_resource(ButtonInput::<KeyCode>::default());
        app.update();
    };
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    assert_eq!(
        tile(&mut app, "H6"),
        Terrain::Road,
        "back to the road it was"
    );
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    assert_eq!(tile(&mut app, "H6"), Terrain::Mountain);
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    press(
        &mut app,
        &[KeyCode::ControlLeft, KeyCode::ShiftLeft, KeyCode::KeyZ],
    );
    assert_eq!(tile(&mut app, "H6"), Terrain::Mountain);
    // Nothing of the battle in play was undone.
    assert!(app.world().resource::<ActiveBattle>().record.is_empty());
}

#[test]
fn a_file_opened_in_a_battle_s_layout_mode_leaves_it_for_the_new_battle() {
    let mut app = battle_app("open-field.ron");
    set_mode(&mut app, true);
    let river = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn/river-bridge.ron");
    app.world_mut()
        .write_message(sandtable::session::LoadRequest::new(&river));
    app.update();
    app.update();
    assert_eq!(mode(&app), Mode::Play);
    assert!(app.world().get_resource::<BattleLayout>().is_none());
    let active = app.world().resource::<ActiveBattle>();
    assert_eq!(
        active.source,
        sandtable::session::ScenarioSource::File(river.clone())
    );
    // The table is the river's: its bridge, not the open field's road.
    let bridge = active
        .setup
        .setup
        .terrain
        .iter()
        .find(|(_, t)| *t == Terrain::Bridge)
        .map(|(h, _)| *h)
        .expect("the river has its bridge");
    app.update();
    assert_eq!(tile(&mut app, &bridge.to_string()), Terrain::Bridge);
}

#[test]
fn an_edit_that_changes_nothing_is_no_step_to_undo_and_keeps_the_redo() {
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    draft
        .apply(&BattleEdit::Paint {
            hexes: vec![hex("C3")],
            terrain: Terrain::Trees,
        })
        .expect("painted");
    draft.undo().expect("undone");
    draft
        .apply(&BattleEdit::Paint {
            hexes: vec![hex("D3")],
            terrain: Terrain::Fields,
        })
        .expect("nothing to change");
    draft
        .paint_stroke(hex("D4"), Terrain::Fields)
        .expect("nothing");
    draft.end_stroke();
    assert_eq!(
        draft.history(),
        (0, 1),
        "no step, and the redo is still there"
    );
    // Dragging a points limit is one edit.
    for points in [101, 102, 103] {
        draft
            .apply(&BattleEdit::SetPoints { side: 0, points })
            .expect("set");
    }
    assert_eq!(draft.history(), (1, 0));
}

#[test]
fn the_battle_of_an_edited_layout_keeps_its_seats() {
    use sandtable::session::{Seat, Seats};
    let mut app = battle_app("open-field.ron");
    app.world_mut().resource_mut::<Seats>().0 = vec![Seat::Person, Seat::Bot(2)];
    set_mode(&mut app, true);
    layout(&mut app).tool = BattleTool::Paint;
    send(&mut app, BattleInput::Click(hex("B6")));
    set_mode(&mut app, false);
    assert_eq!(mode(&app), Mode::Play);
    assert_eq!(
        app.world().resource::<Seats>().0,
        vec![Seat::Person, Seat::Bot(2)],
        "the bot still plays Blue"
    );
}

fn square(name: &str) -> sandtable_warpspawn::offboard::ring::Square {
    name.parse().expect("a square name")
}

#[test]
fn the_off_board_grid_is_laid_and_filled_by_edits_each_checked_by_the_loader() {
    use sandtable_warpspawn::offboard::counter::Composition;
    use sandtable_warpspawn::offboard::setup::CounterSetup;
    let mut draft = BattleDraft::new(empty_battle(8, 6));
    let foot = CounterSetup {
        number: 1,
        side: 0,
        at: square("2C"),
        pieces: Composition {
            infantry: 10,
            ..Composition::default()
        },
    };
    // Nothing of a grid the battle does not have.
    assert_eq!(
        draft.apply(&BattleEdit::SetCounter(foot)),
        Err(EditBattleError::NoGrid)
    );
    draft.apply(&BattleEdit::SetGrid(Some(1))).expect("a ring");
    draft
        .apply(&BattleEdit::SetCounter(foot))
        .expect("a counter");
    // A square under the map is no square of the ring, and changes nothing.
    let before = draft.battle().clone();
    let under = CounterSetup {
        at: square("5E"),
        ..foot
    };
    assert_eq!(
        draft.apply(&BattleEdit::SetCounter(under)),
        Err(EditBattleError::OffRing(square("5E")))
    );
    assert_eq!(draft.battle(), &before);
    assert!(
        EditBattleError::OffRing(square("5E"))
            .to_string()
            .ends_with("(R40)")
    );
    // Blue's reserve gains a square beyond Red's edge: written out whole.
    draft
        .apply(&BattleEdit::ToggleReserve {
            side: 1,
            square: square("2C"),
        })
        .expect("a reserve square");
    let grid = draft.battle().setup.offboard.clone().expect("a grid");
    let blue = grid.reserves[1]
        .clone()
        .expect("Blue's reserve written out");
    assert!(
        blue.contains(&square("2C")) && blue.contains(&square("10C")),
        "{blue:?}"
    );
    assert_eq!(grid.counters, vec![foot]);
    // The layout reads back from its file as it is.
    assert_eq!(reloaded(draft.battle()).setup.offboard, Some(grid));
    assert!(draft.errors().is_empty(), "{:?}", draft.errors());
    // A cannon without its crew is the loader's problem, with its ruling,
    // and goes when the counter is mended.
    let gun = CounterSetup {
        number: 2,
        side: 1,
        at: square("10D"),
        pieces: Composition {
            infantry: 2,
            cannon: true,
            ..Composition::default()
        },
    };
    draft
        .apply(&BattleEdit::SetCounter(gun))
        .expect("set, to be checked");
    let lines: Vec<String> = draft.errors().iter().map(|f| f.line()).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("offboard.counters[1]") && l.contains("R43")),
        "{lines:?}"
    );
    let mut crewed = gun;
    crewed.pieces.infantry = 4;
    draft
        .apply(&BattleEdit::SetCounter(crewed))
        .expect("mended");
    assert!(draft.errors().is_empty(), "{:?}", draft.errors());
    // Nothing at all takes a counter off; no grid takes the ring away.
    draft
        .apply(&BattleEdit::SetCounter(CounterSetup {
            pieces: Composition::default(),
            ..crewed
        }))
        .expect("taken off");
    assert_eq!(
        draft
            .battle()
            .setup
            .offboard
            .as_ref()
            .map(|g| g.counters.len()),
        Some(1)
    );
    draft.apply(&BattleEdit::SetGrid(None)).expect("no grid");
    assert_eq!(draft.battle().setup.offboard, None);
    draft.undo().expect("undo");
    assert!(
        draft.battle().setup.offboard.is_some(),
        "undo brings it back"
    );
}

#[test]
fn layout_mode_lays_counters_and_reserve_squares_on_the_ring_by_clicks() {
    use sandtable::warpspawn::ring::{CounterToken, RingTile};
    use sandtable::warpspawn::ring_play::RingInput;
    let mut app = battle_app("flank-march.ron");
    // Its referee's table, started in layout mode (R57).
    app.insert_resource(sandtable::mode::RefereeLayout);
    set_mode(&mut app, true);
    layout(&mut app).tool = BattleTool::Counters;
    layout(&mut app).side = 0;
    app.world_mut()
        .write_message(RingInput::Square(square("3A")));
    app.update();
    app.update();
    let grid = layout(&mut app)
        .draft
        .battle()
        .setup
        .offboard
        .clone()
        .expect("a grid");
    let added = grid
        .counters
        .iter()
        .find(|c| c.at == square("3A"))
        .copied()
        .expect("a counter in 3A");
    // Red has counters 1 and 2: the new one is 3, with the brush's pieces.
    assert_eq!(
        (added.side, added.number, added.pieces.infantry),
        (0, 3, 10)
    );
    let tokens: Vec<CounterToken> = app
        .world_mut()
        .query::<&CounterToken>()
        .iter(app.world())
        .copied()
        .collect();
    assert!(
        tokens
            .iter()
            .any(|t| t.square == square("3A") && t.number == 3)
    );
    // Blue's reserve takes 3A, and the mat shows it in Blue's tint.
    layout(&mut app).tool = BattleTool::Reserve;
    layout(&mut app).side = 1;
    app.world_mut()
        .write_message(RingInput::Square(square("3A")));
    app.update();
    app.update();
    let tile = app
        .world_mut()
        .query::<&RingTile>()
        .iter(app.world())
        .find(|t| t.square == square("3A"))
        .copied()
        .expect("the square's tile");
    assert_eq!(tile.reserve, Some(1));
    // The loader checks after every edit: Red's new counter took it over
    // its points (R61), ...
    let errors: Vec<String> = layout(&mut app)
        .draft
        .errors()
        .iter()
        .map(|f| f.line())
        .collect();
    assert_eq!(
        errors,
        ["sides[0]: Red spends 110 points, over its limit of 100 (R61)"]
    );
    // ... and an empty brush takes the counter off again.
    layout(&mut app).tool = BattleTool::Counters;
    layout(&mut app).side = 0;
    layout(&mut app).counter_brush = Default::default();
    app.world_mut()
        .write_message(RingInput::Square(square("3A")));
    app.update();
    app.update();
    assert!(layout(&mut app).draft.counter_at(square("3A"), 0).is_none());
    assert!(layout(&mut app).draft.errors().is_empty());
}
