//! Headless app tests: `MinimalPlugins` with Sandtable's logic and click
//! handling, no window and no renderer. Clicks are sent as the picking layer
//! sends them (`TableClick`), panel buttons as `CommandRequest`s.

mod common;
use common::notice;

use bevy::prelude::*;
use sandtable::cache::layout::draft::{Edit, Item, PieceRef};
use sandtable::cache::layout::{
    EditorRequest, LayoutEditor, LayoutMode, LayoutTool, SetLayoutMode,
};
use sandtable::cache::picking::{TableClick, click_plugin};
use sandtable::cache::play::{ActiveGame, CommandRequest};
use sandtable::cache::table::{
    ActionBudget, BasePiece, FacingDir, FloatingText, GridPos, InCustody, OutOfGame, Reachable,
    SquareTile, StashToken, TableIndex, TerrainPiece, UnitPiece, custody_slot, square_center,
};
use sandtable::picking::ClickButton;
use sandtable::session::{GameLoaded, Notice, ScenarioSource, UndoRequest};
use sandtable::table::Offending;
use sandtable_cache::{Command, Facing, PlayerId, Square, TerrainKind, UnitId};
use sandtable_scenario::{Physical, RuleSystem, Scenario};

fn sq(name: &str) -> Square {
    name.parse().expect("square name")
}

fn app_with(scenario: Scenario) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins((sandtable::logic_plugin, click_plugin));
    let mut active = ActiveGame::new(scenario, ScenarioSource::Embedded);
    active.handover = None;
    app.insert_resource(active);
    app.world_mut().write_message(GameLoaded);
    app.update();
    app
}

fn count<T: Component>(app: &mut App) -> usize {
    app.world_mut()
        .query_filtered::<Entity, With<T>>()
        .iter(app.world())
        .count()
}

fn click(app: &mut App, square: &str, on_unit: bool) {
    app.world_mut().write_message(TableClick {
        spot: sq(square).spot(),
        on_piece: on_unit,
        button: ClickButton::Primary,
        point: None,
    });
    app.update();
}

fn unit_entity(app: &App, id: u16) -> Entity {
    app.world().resource::<TableIndex>().units[usize::from(id)]
}

fn game(app: &App) -> &sandtable_cache::Game {
    &app.world().resource::<ActiveGame>().game
}

fn game_summary(app: &App) -> sandtable_cache::StateSummary {
    game(app).summary()
}

/// A small duel: Red on D4 facing north behind Blue's D5, also facing north.
fn duel() -> Scenario {
    sandtable_scenario::parse(
        r#"(
            name: "duel",
            rules: ConflictAtCache,
            board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "C2", units: [(at: "D4", facing: N), (at: "B3", facing: E)])]),
                (name: "Blue", factors: [(base: "E6", units: [(at: "D5", facing: N), (at: "F7", facing: S)])]),
            ],
            terrain: [(kind: Woods, squares: ["H1"])],
        )"#,
        "duel",
    )
    .expect("valid duel")
}

#[test]
fn loading_spawns_one_entity_per_square_unit_structure_and_stash() {
    let scenario =
        sandtable_scenario::parse(sandtable_scenario::STANDARD, "standard").expect("valid");
    let pieces = scenario.setup.terrain.len();
    let mut app = app_with(scenario);
    assert_eq!(count::<SquareTile>(&mut app), 24 * 15, "one per square");
    assert_eq!(count::<UnitPiece>(&mut app), 20, "one per unit");
    assert_eq!(count::<BasePiece>(&mut app), 2, "one per base");
    assert_eq!(
        count::<TerrainPiece>(&mut app),
        pieces,
        "one per terrain piece"
    );
    assert_eq!(
        count::<StashToken>(&mut app),
        0,
        "no stashes in Conflict at Cache"
    );

    let snyder = sandtable_scenario::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/snyder-skirmish.ron"
    )))
    .expect("valid");
    let mut app = app_with(snyder);
    assert_eq!(count::<StashToken>(&mut app), 6, "one per stash");

    // Loading again rebuilds the table rather than adding to it.
    app.world_mut().write_message(GameLoaded);
    app.update();
    assert_eq!(
        count::<SquareTile>(&mut app),
        24 * 15,
        "the old table is gone"
    );
    assert_eq!(count::<UnitPiece>(&mut app), 20);
}

/// The entities marked reachable now.
fn reachable_entities(app: &mut App) -> Vec<Entity> {
    let mut found: Vec<Entity> = app
        .world_mut()
        .query_filtered::<Entity, With<sandtable::cache::table::Reachable>>()
        .iter(app.world())
        .collect();
    found.sort();
    found
}

#[test]
fn the_table_asks_the_rules_again_only_when_the_game_changed() {
    let mut app = app_with(duel());
    click(&mut app, "B3", true);
    let revision = app.world().resource::<ActiveGame>().revision;
    assert_eq!(
        app.world()
            .resource::<sandtable::cache::table::SyncedRevision>()
            .0,
        Some(revision),
        "the sync chain notes the revision it followed"
    );
    let marks = reachable_entities(&mut app);
    assert!(!marks.is_empty(), "the acting unit can reach squares");
    // A mark taken away behind the table's back stays away while the game
    // stands still: the table does not list the legal commands every frame.
    app.world_mut()
        .entity_mut(marks[0])
        .remove::<sandtable::cache::table::Reachable>();
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(
        reachable_entities(&mut app),
        marks[1..].to_vec(),
        "nothing changed in the game, so the table was not synced again"
    );
    // A change of the game (a turn, undone) syncs it again, mark and all.
    app.world_mut()
        .write_message(CommandRequest(Command::TurnLeft));
    app.update();
    assert_ne!(
        reachable_entities(&mut app),
        marks,
        "turned, it reaches elsewhere"
    );
    app.world_mut().write_message(UndoRequest);
    app.update();
    assert_eq!(
        reachable_entities(&mut app),
        marks,
        "the game changed, so the table followed it"
    );
}

#[test]
fn clicks_activate_and_advance_and_the_miniature_follows() {
    let mut app = app_with(duel());
    click(&mut app, "B3", true);
    assert_eq!(
        game(&app).activation().map(|a| a.unit),
        Some(UnitId(1)),
        "B3 is acting"
    );
    let e = unit_entity(&app, 1);
    assert_eq!(
        app.world().get::<ActionBudget>(e),
        Some(&ActionBudget {
            given: 4,
            earned: 0,
            spent: 0
        }),
        "the acting unit shows its budget"
    );
    let reach: Vec<(Square, u16)> = reachable_marks(&mut app)
        .into_iter()
        .map(|(sq, r)| (sq, r.cost))
        .collect();
    assert_eq!(reach, vec![(sq("C3"), 1)], "one step east, costing 1");

    click(&mut app, "C3", false);
    let board = game(&app).board();
    assert_eq!(app.world().get::<GridPos>(e), Some(&GridPos(sq("C3"))));
    assert_eq!(
        app.world().get::<Transform>(e).map(|t| t.translation),
        Some(square_center(board, sq("C3")))
    );
    app.world_mut()
        .write_message(CommandRequest(Command::TurnLeft));
    app.update();
    assert_eq!(app.world().get::<FacingDir>(e), Some(&FacingDir(Facing::N)));
    assert_eq!(
        app.world().get::<ActionBudget>(e).map(|b| b.spent),
        Some(2),
        "a step and a turn spent"
    );
}

/// The reachable squares, with their cost and capture, in board order.
fn reachable_marks(app: &mut App) -> Vec<(Square, Reachable)> {
    let mut q = app.world_mut().query::<(&GridPos, &Reachable)>();
    let mut marks: Vec<(Square, Reachable)> = q.iter(app.world()).map(|(p, r)| (p.0, *r)).collect();
    marks.sort_by_key(|(sq, _)| (sq.row, sq.col));
    marks
}

#[test]
fn a_capture_square_is_marked_with_the_bonus_the_rules_would_give() {
    use sandtable::cache::table::CaptureMark;
    use sandtable_cache::CaptureSide;
    // Red D4 faces north behind Blue D5, which faces north too; Blue's base
    // E6 and unit F7 (facing south) wait beyond.
    // Red C3 and C5 face east onto Blue D3 (facing north: a side) and D5
    // (facing west: the front).
    let sides = || {
        sandtable_scenario::parse(
            r#"(name: "sides", rules: ConflictAtCache, board: (columns: 8, rows: 8),
                players: [
                    (name: "Red", factors: [(base: "B4", units: [(at: "C3", facing: E), (at: "C5", facing: E)])]),
                    (name: "Blue", factors: [(base: "E4", units: [(at: "D3", facing: N), (at: "D5", facing: W)])]),
                ])"#,
            "sides",
        )
        .expect("valid")
    };
    let cases = [
        // The scenario, Red's unit, the square it captures on, and the side.
        (duel(), "D4", "D5", CaptureSide::Behind, "+3 behind"),
        (sides(), "C3", "D3", CaptureSide::Side, "+2 side"),
        (sides(), "C5", "D5", CaptureSide::Front, "+0 front"),
    ];
    for (scenario, from, target, side, label) in cases {
        let mut app = app_with(scenario);
        click(&mut app, from, true);
        let marks = reachable_marks(&mut app);
        let capture = marks
            .iter()
            .find(|(sq_, _)| *sq_ == sq(target))
            .map(|(_, r)| *r);
        assert_eq!(
            capture,
            Some(Reachable {
                cost: 1,
                capture: Some(CaptureMark::Unit(side))
            }),
            "{target} is marked as a capture: {marks:?}"
        );
        assert_eq!(CaptureMark::Unit(side).label(), label);
        // The rules agree when the capture is made.
        click(&mut app, target, true);
        let earned = app
            .world()
            .resource::<ActiveGame>()
            .game
            .activation()
            .map(|a| a.earned);
        assert_eq!(
            earned,
            Some(side.bonus().0),
            "the bonus shown is the bonus earned"
        );
    }
    // Plain steps are not captures, and a Base is marked as one.
    let scenario = sandtable_scenario::parse(
        r#"(name: "base", rules: ConflictAtCache, board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "D3", units: [(at: "E5", facing: N), (at: "B3", facing: E)])]),
                (name: "Blue", factors: [(base: "E6", units: [(at: "F7", facing: S)])]),
            ])"#,
        "base",
    )
    .expect("valid");
    let mut app = app_with(scenario);
    click(&mut app, "E5", true);
    assert_eq!(
        reachable_marks(&mut app),
        vec![(
            sq("E6"),
            Reachable {
                cost: 1,
                capture: Some(CaptureMark::Base)
            }
        )],
        "the base ahead"
    );
    let mut app = app_with(duel());
    click(&mut app, "B3", true);
    assert!(
        reachable_marks(&mut app)
            .iter()
            .all(|(_, r)| r.capture.is_none()),
        "a step onto an empty square captures nothing"
    );
}

#[test]
fn a_capture_moves_the_captured_miniature_to_custody_and_floats_the_bonus() {
    let mut app = app_with(duel());
    click(&mut app, "D4", true);
    click(&mut app, "D5", true);
    let captured = unit_entity(&app, 2);
    assert_eq!(
        app.world().get::<InCustody>(captured),
        Some(&InCustody(PlayerId(0)))
    );
    let board = game(&app).board();
    assert_eq!(
        app.world()
            .get::<Transform>(captured)
            .map(|t| t.translation),
        Some(custody_slot(board, PlayerId(0), 0)),
        "first slot of Red's tray"
    );
    let floats: Vec<String> = {
        let mut q = app.world_mut().query::<&FloatingText>();
        q.iter(app.world()).map(|f| f.text.clone()).collect()
    };
    assert_eq!(floats, ["+3 from behind"]);
    let budget = app
        .world()
        .get::<ActionBudget>(unit_entity(&app, 0))
        .copied();
    assert_eq!(
        budget,
        Some(ActionBudget {
            given: 4,
            earned: 3,
            spent: 1
        })
    );
}

#[test]
fn a_captured_base_removes_its_factor_from_the_table() {
    let mut app = app_with(duel());
    // Red's D4 walks round to Blue's base on E6: capture D5, turn, step, turn, capture.
    for (square, on_unit) in [("D4", true), ("D5", true)] {
        click(&mut app, square, on_unit);
    }
    for command in [
        Command::TurnRight,
        Command::Advance,
        Command::TurnLeft,
        Command::Advance,
    ] {
        app.world_mut().write_message(CommandRequest(command));
        app.update();
    }
    let game = game(&app);
    assert!(
        game.is_over(),
        "Blue's only base fell: {:?}",
        game.summary()
    );
    let base = app.world().resource::<TableIndex>().bases[1];
    assert_eq!(
        app.world().get::<Visibility>(base),
        Some(&Visibility::Hidden)
    );
    let f7 = unit_entity(&app, 3);
    assert!(
        app.world().get::<OutOfGame>(f7).is_some(),
        "F7 left the game with its base"
    );
    assert_eq!(app.world().get::<Visibility>(f7), Some(&Visibility::Hidden));
}

#[test]
fn undo_puts_the_miniatures_back() {
    let mut app = app_with(duel());
    click(&mut app, "D4", true);
    click(&mut app, "D5", true);
    let before_undo = game_summary(&app);
    app.world_mut().write_message(UndoRequest);
    app.update();
    let board = game(&app).board();
    let red = unit_entity(&app, 0);
    let blue = unit_entity(&app, 2);
    assert_eq!(app.world().get::<GridPos>(red), Some(&GridPos(sq("D4"))));
    assert_eq!(app.world().get::<GridPos>(blue), Some(&GridPos(sq("D5"))));
    assert!(
        app.world().get::<InCustody>(blue).is_none(),
        "back from custody"
    );
    assert_eq!(
        app.world().get::<Transform>(blue).map(|t| t.translation),
        Some(square_center(board, sq("D5")))
    );
    assert_ne!(game_summary(&app), before_undo);
    assert_eq!(
        app.world().resource::<ActiveGame>().record,
        [Command::Activate(sq("D4"))]
    );
}

#[test]
fn an_illegal_click_changes_nothing_and_says_why() {
    let mut app = app_with(duel());
    let before = game_summary(&app);
    let positions = |app: &mut App| -> Vec<Option<GridPos>> {
        let mut q = app.world_mut().query::<(&UnitPiece, Option<&GridPos>)>();
        let mut v: Vec<(u16, Option<GridPos>)> = q
            .iter(app.world())
            .map(|(u, p)| (u.0.0, p.copied()))
            .collect();
        v.sort_by_key(|(u, _)| *u);
        v.into_iter().map(|(_, p)| p).collect()
    };
    let placed = positions(&mut app);
    click(&mut app, "D5", true);
    let notice = app.world().resource::<Notice>().clone();
    assert_eq!(
        notice.text.as_deref(),
        Some("the unit on D5 belongs to Blue (R5)")
    );
    assert!(notice.error);
    assert_eq!(game_summary(&app), before);
    assert_eq!(positions(&mut app), placed);
    assert!(app.world().resource::<ActiveGame>().record.is_empty());

    click(&mut app, "B3", true);
    click(&mut app, "H1", false);
    let notice = app
        .world()
        .resource::<Notice>()
        .text
        .clone()
        .unwrap_or_default();
    assert!(notice.ends_with("(R8)"), "not straight ahead: {notice}");
}

#[test]
fn passing_hands_the_table_over_and_clicks_wait_for_the_next_player() {
    let mut app = app_with(duel());
    app.world_mut().write_message(CommandRequest(Command::Pass));
    app.update();
    assert_eq!(
        app.world().resource::<ActiveGame>().handover,
        Some(sandtable_core::game::Seat(1))
    );
    click(&mut app, "D5", true);
    assert!(
        game(&app).activation().is_none(),
        "nothing happens until Blue takes the table"
    );
    assert_eq!(
        notice(&app),
        "the table is being handed to Blue: press Start turn first",
        "and the click says why"
    );
    // The Start turn button asks; the game flow carries it out.
    app.world_mut().write_message(sandtable::session::StartTurn);
    app.update();
    assert_eq!(app.world().resource::<ActiveGame>().handover, None);
    click(&mut app, "D5", true);
    assert!(
        game(&app).activation().is_some(),
        "once Blue has the table, the click activates D5"
    );
}

#[test]
fn saving_and_opening_a_game_gives_the_same_state() {
    let dir = common::temp_dir("app", "save");
    let scenario_path = dir.join("duel.ron");
    std::fs::write(
        &scenario_path,
        r#"(name: "duel", rules: ConflictAtCache, board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "C2", units: [(at: "D4", facing: N), (at: "B3", facing: E)])]),
                (name: "Blue", factors: [(base: "E6", units: [(at: "D5", facing: N), (at: "F7", facing: S)])]),
            ])"#,
    )
    .expect("write scenario");
    let mut active = sandtable::cache::files::open(&scenario_path)
        .expect("opens")
        .active;
    active.handover = None;
    for command in ["activate D4", "advance", "right"] {
        let seat = active.game.seat_to_move();
        active
            .game
            .apply(seat, &command.parse().expect("notation"))
            .expect("legal");
        active.record.push(command.parse().expect("notation"));
    }
    let saved = dir.join("duel.moves");
    sandtable::cache::files::save_game(&mut active, &[], Some(&saved), false).expect("saves");
    let text = std::fs::read_to_string(&saved).expect("saved");
    assert!(text.starts_with("[Scenario \""), "{text}");
    assert!(text.contains("[Seed \"42\"]"), "{text}");
    let reopened = sandtable::cache::files::open(&saved)
        .expect("reopens")
        .active;
    assert_eq!(reopened.game.summary(), active.game.summary());
    assert_eq!(reopened.record, active.record);

    std::fs::write(&saved, "[Scenario \"duel.ron\"]\nactivate D4\njump\n").expect("write");
    let err = sandtable::cache::files::open(&saved)
        .err()
        .expect("a bad record is refused");
    assert!(
        err.message
            .contains("duel.moves:3: `jump`: unknown command"),
        "{err}"
    );
    assert_eq!(err.bad_line, Some(3), "the bad line, for opening up to it");
}

/// Counts, each frame, the table entities whose transform changed.
#[derive(Resource, Default)]
struct Moved {
    squares: usize,
    units: usize,
}

fn count_moved(
    squares: Query<(), (With<SquareTile>, Changed<Transform>)>,
    units: Query<(), (With<UnitPiece>, Changed<Transform>)>,
    mut moved: ResMut<Moved>,
) {
    moved.squares = squares.iter().count();
    moved.units = units.iter().count();
}

#[test]
fn selecting_and_moving_a_unit_touches_only_that_unit() {
    let stress = sandtable_scenario::load(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/stress-100x100.ron"
    )))
    .expect("valid");
    let mut app = app_with(stress);
    app.init_resource::<Moved>().add_systems(Last, count_moved);
    app.update();
    let squares_before: Vec<Entity> = app.world().resource::<TableIndex>().squares.clone();
    assert_eq!(squares_before.len(), 100 * 100);
    let first = app
        .world()
        .resource::<ActiveGame>()
        .game
        .position(UnitId(0))
        .expect("on board")
        .0;
    click(&mut app, &first.to_string(), true);
    assert!(game(&app).activation().is_some(), "selected");
    assert_eq!(
        app.world().resource::<Moved>().units,
        0,
        "selecting moves no miniature"
    );
    assert_eq!(app.world().resource::<Moved>().squares, 0, "nor any square");
    app.world_mut()
        .write_message(CommandRequest(Command::Advance));
    app.update();
    assert_eq!(
        app.world().resource::<Moved>().units,
        1,
        "a step moves one miniature"
    );
    assert_eq!(
        app.world().resource::<TableIndex>().squares,
        squares_before,
        "the board is not rebuilt"
    );
}

/// A Snyder Skirmish on 8 x 8 with one stash on D5, every roll of which
/// gives `result`: Red's base on C2 with `red_units`, Blue's on F7 with a
/// unit on G6.
fn stash_scenario(result: &str, red_units: &str) -> Scenario {
    sandtable_scenario::parse(&stash_ron(result, red_units), "stash").expect("valid")
}

/// The text of [`stash_scenario`].
fn stash_ron(result: &str, red_units: &str) -> String {
    let rows: Vec<String> = (1..=6)
        .flat_map(|t| (1..=6).map(move |u| format!("(roll: {t}{u}, result: {result})")))
        .collect();
    format!(
        r#"(
            name: "stash", rules: SnyderSkirmish, board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "C2", units: [{red_units}])]),
                (name: "Blue", factors: [(base: "F7", units: [(at: "G6", facing: S)])]),
            ],
            stashes: ["D5"],
            stash_list: [{}],
        )"#,
        rows.join(", ")
    )
}

#[test]
fn a_stash_choice_is_answered_by_clicking_a_square() {
    let mut app = app_with(stash_scenario("PlaceAnywhere", r#"(at: "D4", facing: N)"#));
    click(&mut app, "D4", true);
    click(&mut app, "D5", false);
    let active = app.world().resource::<ActiveGame>();
    assert!(
        active.game.pending().is_some(),
        "the stash waits for a square"
    );
    assert!(active.extra.last_roll.is_some(), "the roll is shown");
    assert_eq!(count::<StashToken>(&mut app), 1);
    let stash = app.world().resource::<TableIndex>().stashes[0];
    assert_eq!(
        app.world().get::<Visibility>(stash),
        Some(&Visibility::Hidden),
        "token taken away"
    );
    // Exactly the squares the rules accept are lit, and the panel says what
    // to do in words, not notation.
    let choice = game(&app).pending().expect("a choice");
    let prompt = sandtable::cache::play::choice_prompt(choice);
    assert!(
        prompt.starts_with("Pick a facing below, then click a lit square") && !prompt.contains('`'),
        "{prompt}"
    );
    let lit: std::collections::BTreeSet<Square> = app
        .world_mut()
        .query::<(&GridPos, &sandtable::cache::table::ChoiceTarget)>()
        .iter(app.world())
        .map(|(p, _)| p.0)
        .collect();
    let accepted: std::collections::BTreeSet<Square> = game(&app)
        .board()
        .squares()
        .filter(|s| {
            Facing::ALL
                .iter()
                .any(|f| game(&app).check(&Command::Place(*s, *f)).is_ok())
                || game(&app).check(&Command::Pick(*s)).is_ok()
        })
        .collect();
    assert_eq!(lit, accepted, "lit: exactly what the rules accept");
    assert_eq!(
        lit.len(),
        8 * 8 - 3,
        "any square but the two bases and Blue's unit"
    );
    assert!(lit.contains(&sq("D5")), "the unit's own square too (R23)");
    app.world_mut()
        .resource_mut::<sandtable::cache::picking::PlaceFacing>()
        .0 = Facing::E;
    click(&mut app, "A8", false);
    let e = unit_entity(&app, 0);
    assert_eq!(app.world().get::<GridPos>(e), Some(&GridPos(sq("A8"))));
    assert_eq!(app.world().get::<FacingDir>(e), Some(&FacingDir(Facing::E)));
    assert!(game(&app).pending().is_none(), "the choice is answered");
    assert_eq!(
        count::<sandtable::cache::table::ChoiceTarget>(&mut app),
        0,
        "nothing is lit once it is answered"
    );

    // A pick: the units that may take the extra actions are ringed.
    let mut app = app_with(stash_scenario(
        "ExtraActions(3)",
        r#"(at: "D4", facing: N), (at: "B3", facing: E)"#,
    ));
    click(&mut app, "D4", true);
    click(&mut app, "D5", false);
    let picks: Vec<(Square, sandtable::cache::table::ChoiceTarget)> = app
        .world_mut()
        .query::<(&GridPos, &sandtable::cache::table::ChoiceTarget)>()
        .iter(app.world())
        .map(|(p, t)| (p.0, *t))
        .collect();
    let mut squares: Vec<Square> = picks.iter().map(|(s, _)| *s).collect();
    squares.sort();
    assert_eq!(
        squares,
        vec![sq("B3"), sq("D5")],
        "Red's two units: {picks:?}"
    );
    assert!(
        picks
            .iter()
            .all(|(s, t)| *t == sandtable::cache::table::ChoiceTarget::Pick
                && game(&app).check(&Command::Pick(*s)).is_ok()),
        "each a pick the rules accept"
    );
    let prompt = sandtable::cache::play::choice_prompt(game(&app).pending().expect("a choice"));
    assert_eq!(
        prompt,
        "Click one of your lit units: it takes up to 3 more actions now."
    );
}

#[test]
fn the_print_button_writes_the_sheet_beside_the_file_field() {
    let dir = common::temp_dir("app", "print");
    let out = sandtable::cache::files::print_sheet(
        &sandtable_scenario::standard(),
        &dir.join("game.pdf"),
    )
    .expect("written");
    assert_eq!(out, dir.join("game.pdf"));
    let pdf = std::fs::read(&out).expect("readable");
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
}

/// Asks for layout mode on or off; the change of mode takes effect at the
/// start of the next frame, so two frames pass.
fn set_layout_mode(app: &mut App, on: bool) {
    app.world_mut().write_message(SetLayoutMode {
        on,
        discard_unsaved: false,
    });
    app.update();
    app.update();
}

fn editor(app: &App) -> &LayoutEditor {
    app.world()
        .get_resource::<LayoutEditor>()
        .expect("layout mode is on, so the editor is there")
}

fn request(app: &mut App, request: EditorRequest) {
    app.world_mut().write_message(request);
    app.update();
}

fn edit(app: &mut App, edit: Edit) {
    request(app, EditorRequest::Edit(edit));
}

/// A drag as the table's picking reports it for any system: grabbed on a
/// square, dropped on another, let go.
fn drag(app: &mut App, from: &str, to: &str) {
    use sandtable::picking::Drag;
    for drag in [
        Drag::Grab(sq(from).spot()),
        Drag::Drop(sq(to).spot()),
        Drag::Release,
    ] {
        app.world_mut().write_message(drag);
    }
    app.update();
}

fn right_click(app: &mut App, square: &str) {
    app.world_mut().write_message(TableClick {
        spot: sq(square).spot(),
        on_piece: false,
        button: ClickButton::Secondary,
        point: None,
    });
    app.update();
}

fn press(app: &mut App, keys: &[KeyCode]) {
    let mut input = ButtonInput::<KeyCode>::default();
    for k in keys {
        input.press(*k);
    }
    app.world_mut().insert_resource(input);
    app.update();
    app.world_mut().remove_resource::<ButtonInput<KeyCode>>();
}

fn error_lines(app: &App) -> Vec<String> {
    editor(app)
        .draft
        .errors()
        .iter()
        .map(|f| f.line())
        .collect()
}

/// Layout mode on the duel, with the edit tool.
fn editing_duel() -> App {
    let mut app = app_with(duel());
    set_layout_mode(&mut app, true);
    app.world_mut().resource_mut::<LayoutMode>().tool = LayoutTool::Edit;
    app
}

fn offending<T: Component>(app: &mut App) -> Vec<Square> {
    let mut found: Vec<Square> = app
        .world_mut()
        .query_filtered::<&GridPos, (With<T>, With<Offending>)>()
        .iter(app.world())
        .map(|p| p.0)
        .collect();
    found.sort();
    found
}

#[test]
fn in_layout_mode_clicks_measure_instead_of_playing() {
    use sandtable::cache::layout::ruler_marks;
    let mut app = app_with(sandtable_scenario::standard());
    set_layout_mode(&mut app, true);
    click(&mut app, "C7", true);
    assert!(
        game(&app).activation().is_none(),
        "nothing is played in layout mode"
    );
    click(&mut app, "F11", false);
    let reading = app
        .world()
        .resource::<LayoutMode>()
        .reading
        .expect("measured");
    // 3 columns and 4 rows apart: 5 squares of 30 mm.
    assert_eq!((reading.squares, reading.mm), (5.0, 150.0));
    assert_eq!(
        reading.describe(),
        "C7 to F11: 150.0 mm, 5.91 in, 5.00 squares"
    );
    // Any two points of the table, not only square centres: the table's
    // centre (381, 254) and a point 2 squares right and 1.5 squares far of it.
    for (square, point) in [("L8", Vec3::ZERO), ("N9", Vec3::new(2.0, 0.0, -1.5))] {
        app.world_mut().write_message(TableClick {
            spot: sq(square).spot(),
            on_piece: false,
            button: ClickButton::Primary,
            point: Some(point),
        });
        app.update();
    }
    let reading = app
        .world()
        .resource::<LayoutMode>()
        .reading
        .expect("measured between points");
    assert!(
        (reading.mm - 75.0).abs() < 1e-3,
        "60 mm across and 45 mm deep make 75 mm, read {}",
        reading.mm
    );
    assert_eq!(
        (reading.from.x_mm, reading.from.y_mm),
        (381.0, 254.0),
        "the world's origin is the middle of a 762 x 508 mm table"
    );
    set_layout_mode(&mut app, false);
    assert!(
        app.world().get_resource::<LayoutEditor>().is_none(),
        "leaving layout mode ends the editing"
    );
    click(&mut app, "C7", true);
    assert!(game(&app).activation().is_some(), "play again");

    let mm = ruler_marks(762.0, false);
    assert_eq!(mm.first(), Some(&(0.0, "0".to_owned())));
    assert_eq!(mm.last(), Some(&(750.0, "750".to_owned())));
    let inches = ruler_marks(762.0, true);
    assert_eq!(inches.len(), 16, "0 to 30 inches every 2");
    assert_eq!(inches.last().map(|m| m.1.as_str()), Some("30\""));
    // A 3 m table is marked every 250 mm, so labels do not run together.
    let long = ruler_marks(3060.0, false);
    assert_eq!((long.len(), long[1].0), (13, 250.0), "0 to 3000 every 250");
}

#[test]
fn the_editor_places_moves_turns_and_deletes_with_undo_and_redo() {
    let mut app = editing_duel();
    let original = editor(&app).draft.scenario().clone();
    assert_eq!(count::<TerrainPiece>(&mut app), 1, "the duel's woods");

    // Place: arm a low wall from the palette and click two squares.
    app.world_mut().resource_mut::<LayoutEditor>().armed =
        Some(Item::Terrain(TerrainKind::LowWall));
    click(&mut app, "D2", false);
    click(&mut app, "G3", false);
    let terrain = &editor(&app).draft.scenario().setup.terrain;
    assert_eq!(terrain.len(), 3, "two walls placed: {terrain:?}");
    assert_eq!(terrain[1].squares, [sq("D2")], "the first wall");
    assert_eq!(
        count::<TerrainPiece>(&mut app),
        3,
        "the table shows both walls"
    );
    right_click(&mut app, "A1");
    assert_eq!(
        editor(&app).armed,
        None,
        "a right click puts the palette item down"
    );

    // Move: drag the wall from D2 to E3.
    drag(&mut app, "D2", "E3");
    assert_eq!(
        editor(&app).draft.scenario().setup.terrain[1].squares,
        [sq("E3")],
        "the wall moved"
    );
    // A drag onto a square of the same sort that is taken is refused.
    drag(&mut app, "D4", "D5");
    assert!(
        notice(&app).contains("D5 already holds a unit (R1)"),
        "refused: {}",
        notice(&app)
    );
    assert_eq!(
        editor(&app).draft.scenario().setup.players[0].factors[0].units[0].at,
        sq("D4"),
        "a refused move changes nothing"
    );

    // Shift+click grows the selected wall by a square; E turns it about its
    // first square, clockwise seen from above.
    click(&mut app, "E3", false);
    assert_eq!(
        editor(&app).selected,
        Some(PieceRef::Terrain(1)),
        "the wall"
    );
    let mut shift = ButtonInput::<KeyCode>::default();
    shift.press(KeyCode::ShiftLeft);
    app.world_mut().insert_resource(shift);
    click(&mut app, "E4", false);
    app.world_mut().remove_resource::<ButtonInput<KeyCode>>();
    assert_eq!(
        editor(&app).draft.scenario().setup.terrain[1].squares,
        [sq("E3"), sq("E4")],
        "the wall grew north"
    );
    press(&mut app, &[KeyCode::KeyE]);
    assert_eq!(
        editor(&app).draft.scenario().setup.terrain[1].squares,
        [sq("E3"), sq("F3")],
        "the wall now runs east"
    );
    request(&mut app, EditorRequest::Undo);
    request(&mut app, EditorRequest::Undo);

    // Select the unit on D4 with a click; E turns it, Delete removes it.
    click(&mut app, "D4", true);
    let unit = PieceRef::Unit {
        player: 0,
        factor: 0,
        unit: 0,
    };
    assert_eq!(editor(&app).selected, Some(unit), "selected by a click");
    press(&mut app, &[KeyCode::KeyE]);
    assert_eq!(
        editor(&app).draft.scenario().setup.players[0].factors[0].units[0].facing,
        Facing::E,
        "E turns the selected unit right"
    );
    let facing = *app
        .world()
        .get::<FacingDir>(unit_entity(&app, 0))
        .expect("the miniature");
    assert_eq!(facing, FacingDir(Facing::E), "the miniature turned too");
    press(&mut app, &[KeyCode::Delete]);
    assert_eq!(
        count::<UnitPiece>(&mut app),
        3,
        "the unit is gone from the table"
    );

    // A road laid under a unit selects the road, not the unit.
    app.world_mut().resource_mut::<LayoutEditor>().armed = Some(Item::Terrain(TerrainKind::Road));
    click(&mut app, "B3", true);
    assert_eq!(
        editor(&app).selected,
        Some(PieceRef::Terrain(3)),
        "the road just laid is selected"
    );
    app.world_mut().resource_mut::<LayoutEditor>().armed = None;
    request(&mut app, EditorRequest::Undo);
    assert_eq!(
        editor(&app).selected,
        None,
        "an undo lets go of the selection"
    );

    // Undo all five edits, one at a time, then redo them.
    let edited = editor(&app).draft.scenario().clone();
    for _ in 0..2 {
        press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyZ]);
    }
    assert_eq!(count::<UnitPiece>(&mut app), 4, "the unit is back");
    request(&mut app, EditorRequest::Undo);
    request(&mut app, EditorRequest::Undo);
    request(&mut app, EditorRequest::Undo);
    assert_eq!(
        editor(&app).draft.scenario(),
        &original,
        "five undos give back the layout as opened"
    );
    request(&mut app, EditorRequest::Undo);
    assert_eq!(
        notice(&app),
        "there is nothing to undo",
        "at the start of history"
    );
    for _ in 0..4 {
        request(&mut app, EditorRequest::Redo);
    }
    press(&mut app, &[KeyCode::ControlLeft, KeyCode::KeyY]);
    assert_eq!(
        editor(&app).draft.scenario(),
        &edited,
        "five redos give back every edit"
    );
}

#[test]
fn a_piece_that_breaks_a_setup_ruling_turns_red_at_once() {
    let mut app = editing_duel();
    assert!(editor(&app).draft.errors().is_empty(), "the duel is valid");
    // R3: Red's base dragged onto the board's edge; its unit on D4 is then
    // 3 squares from it, which breaks R4.
    drag(&mut app, "C2", "A2");
    assert_eq!(
        offending::<BasePiece>(&mut app),
        [sq("A2")],
        "the base is red"
    );
    assert_eq!(
        offending::<UnitPiece>(&mut app),
        [sq("D4")],
        "the far unit is red"
    );
    let said = notice(&app);
    assert!(
        said.contains("breaks: base A2 borders the board edge (R3)"),
        "the panel names the ruling: {said}"
    );
    assert_eq!(
        error_lines(&app),
        [
            "players[0].factors[0].base: base A2 borders the board edge (R3)",
            "players[0].factors[0].units[0]: D4 is 3 squares from its base A2, at most 2 allowed (R4)",
        ]
    );
    // Back where it was: nothing is red.
    drag(&mut app, "A2", "C2");
    assert!(
        offending::<BasePiece>(&mut app).is_empty(),
        "the base is fine again"
    );
    assert!(
        offending::<UnitPiece>(&mut app).is_empty(),
        "the unit is fine again"
    );

    // R20: a stash on the woods of H1 in The Snyder Skirmish.
    edit(&mut app, Edit::SetRules(RuleSystem::SnyderSkirmish));
    edit(
        &mut app,
        Edit::Place {
            item: Item::Stash,
            at: sq("H1"),
        },
    );
    assert_eq!(
        offending::<StashToken>(&mut app),
        [sq("H1")],
        "the stash is red"
    );
    assert!(
        notice(&app).contains("(R20)"),
        "the stash breaks R20: {}",
        notice(&app)
    );
}

#[test]
fn a_saved_layout_loads_back_to_the_same_layout() {
    let dir = common::temp_dir("app", "layout-save");
    let mut app = editing_duel();
    edit(
        &mut app,
        Edit::Place {
            item: Item::Terrain(TerrainKind::Building { entrance: sq("A1") }),
            at: sq("F2"),
        },
    );
    edit(
        &mut app,
        Edit::Place {
            item: Item::Unit {
                player: 1,
                factor: 0,
                facing: Facing::W,
            },
            at: sq("F6"),
        },
    );
    edit(&mut app, Edit::Rename("duel, edited".to_owned()));
    assert!(
        editor(&app).draft.errors().is_empty(),
        "valid: {:?}",
        editor(&app).draft.errors()
    );
    let path = dir.join("edited.ron");
    request(&mut app, EditorRequest::Save(path.clone()));
    assert_eq!(notice(&app), format!("layout saved to {}", path.display()));
    let loaded = sandtable_scenario::load(&path).expect("the saved layout loads");
    let draft = editor(&app).draft.scenario().clone();
    assert_eq!(loaded.setup, draft.setup, "the same setup");
    assert_eq!(
        (&loaded.name, loaded.rules, loaded.physical, &loaded.colours),
        (&draft.name, draft.rules, draft.physical, &draft.colours),
        "the same name, rules, table and colours"
    );
    assert_eq!(
        loaded.setup.terrain[1].kind,
        TerrainKind::Building { entrance: sq("F2") },
        "the building's entrance is the clicked square"
    );

    // The sheet of a layout named `edited.ron` is `edited.pdf` beside it,
    // by the same rule as a battle's; the layout file is left as it is.
    let layout_text = std::fs::read(&path).expect("read");
    request(&mut app, EditorRequest::Print(path.clone()));
    let sheet = dir.join("edited.pdf");
    assert_eq!(
        notice(&app),
        format!("sheet written to {}", sheet.display())
    );
    assert!(
        std::fs::read(&sheet)
            .expect("a sheet")
            .starts_with(b"%PDF-"),
        "a PDF named .pdf"
    );
    assert_eq!(
        std::fs::read(&path).expect("read"),
        layout_text,
        "the .ron is untouched"
    );

    // Saving again over our own file needs no backup.
    drag(&mut app, "B3", "B4");
    request(&mut app, EditorRequest::Save(path.clone()));
    assert_eq!(notice(&app), format!("layout saved to {}", path.display()));
    let bak = dir.join("edited.ron.bak");
    assert!(!bak.exists(), "no backup of what the editor wrote itself");
    // Saving over a person's own file keeps it, and a second save keeps
    // that backup rather than replacing it with the editor's own output.
    let theirs = dir.join("theirs.ron");
    let their_text = format!("// my notes\n{}", sandtable_scenario::STANDARD);
    std::fs::write(&theirs, &their_text).expect("written");
    request(&mut app, EditorRequest::Save(theirs.clone()));
    let their_bak = dir.join("theirs.ron.bak");
    assert!(
        notice(&app).ends_with(&format!("is kept as {}", their_bak.display())),
        "says so: {}",
        notice(&app)
    );
    drag(&mut app, "B4", "B3");
    request(&mut app, EditorRequest::Save(theirs.clone()));
    assert_eq!(
        std::fs::read_to_string(&their_bak).expect("a backup"),
        their_text,
        "the person's file, comments and all, is still the backup"
    );
    drag(&mut app, "B3", "B4");
    assert_eq!(
        sandtable_scenario::load(&path)
            .expect("loads")
            .setup
            .players[0]
            .factors[0]
            .units[1]
            .at,
        sq("B4"),
        "the new layout is in the file"
    );

    // A layout that breaks a ruling is not written: it would not load.
    drag(&mut app, "C2", "A2");
    let bad = dir.join("bad.ron");
    request(&mut app, EditorRequest::Save(bad.clone()));
    assert!(!bad.exists(), "nothing written");
    assert!(
        notice(&app).contains("not saved") && notice(&app).contains("(R3)"),
        "says why: {}",
        notice(&app)
    );
}

#[test]
fn leaving_layout_mode_plays_the_edited_layout_or_says_why_not() {
    let mut app = editing_duel();
    drag(&mut app, "C2", "A2");
    set_layout_mode(&mut app, false);
    assert!(
        app.world().get_resource::<LayoutEditor>().is_some(),
        "a layout that breaks R3 cannot be played"
    );
    assert!(
        notice(&app).starts_with("the layout cannot be played: 2 problems"),
        "says why: {}",
        notice(&app)
    );
    // Opening another file would lose the edits: refused.
    app.world_mut()
        .write_message(sandtable::session::LoadRequest::new(
            "scenarios/open-field.ron",
        ));
    app.update();
    assert!(
        notice(&app).contains("not saved"),
        "refused: {}",
        notice(&app)
    );
    request(&mut app, EditorRequest::Undo);
    drag(&mut app, "D4", "D3");
    set_layout_mode(&mut app, false);
    assert!(
        app.world().get_resource::<LayoutEditor>().is_none(),
        "left layout mode: {}",
        notice(&app)
    );
    let active = app.world().resource::<ActiveGame>();
    assert_eq!(
        active.game.unit_at(sq("D3")),
        Some(UnitId(0)),
        "the new game is on the edited layout"
    );
    assert_eq!(active.source, ScenarioSource::Unsaved);
    let dir = common::temp_dir("app", "layout-unsaved");
    app.world_mut()
        .write_message(sandtable::session::SaveRequest::to(dir.join("g.moves")));
    app.update();
    let layout = dir.join("layout.ron");
    assert_eq!(
        notice(&app),
        format!(
            "saved to {}; its layout to {}",
            dir.join("g.moves").display(),
            layout.display()
        ),
        "a game on an unsaved layout saves its layout beside it, so nothing is lost"
    );
    let reopened = sandtable::cache::files::open(&dir.join("g.moves"))
        .expect("the game and its layout open again")
        .active;
    assert_eq!(
        reopened.game.unit_at(sq("D3")),
        Some(UnitId(0)),
        "on the edited layout"
    );
    assert_eq!(reopened.source, ScenarioSource::File(layout));
    let unit = unit_entity(&app, 0);
    assert_eq!(
        app.world().get::<GridPos>(unit),
        Some(&GridPos(sq("D3"))),
        "the table shows the new game"
    );
}

#[test]
fn a_new_layout_has_the_chosen_size_and_says_what_it_lacks() {
    let mut app = editing_duel();
    edit(
        &mut app,
        Edit::New {
            columns: 10,
            rows: 6,
        },
    );
    assert_eq!(
        app.world().resource::<TableIndex>().squares.len(),
        60,
        "10 x 6 squares on the table"
    );
    let draft = editor(&app).draft.scenario().clone();
    assert_eq!(draft.physical, Some(Physical::TABLE_A), "it fits Table A");
    assert_eq!(
        error_lines(&app),
        [
            "players[0].factors: a player commands at least one Factor (R2)",
            "players[1].factors: a player commands at least one Factor (R2)",
        ]
    );
    edit(
        &mut app,
        Edit::New {
            columns: 0,
            rows: 6,
        },
    );
    assert!(
        notice(&app).contains("each side is 1 to 100"),
        "refused: {}",
        notice(&app)
    );
    assert_eq!(
        editor(&app).draft.scenario(),
        &draft,
        "a refused size changes nothing"
    );
    // Larger than Table A: the table is the grid with a 30 mm rim.
    edit(
        &mut app,
        Edit::New {
            columns: 40,
            rows: 30,
        },
    );
    assert_eq!(
        editor(&app).draft.scenario().physical.map(|p| p.table_mm),
        Some((1260.0, 960.0))
    );
    request(&mut app, EditorRequest::Undo);
    assert_eq!(
        editor(&app).draft.scenario(),
        &draft,
        "undo gives the 10 x 6 back"
    );
}

/// Runs frames until `done` holds (bots think on background tasks).
fn run_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    for _ in 0..4000 {
        if done(app) {
            return;
        }
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("gave up waiting: {what}");
}

#[test]
fn a_bot_plays_its_seat_and_hands_the_table_back() {
    use sandtable::session::{BotPace, Seat, Seats};
    let mut app = app_with(duel());
    assert_eq!(
        app.world().resource::<Seats>().0,
        [Seat::Person, Seat::Person],
        "every seat starts with a person"
    );
    app.world_mut().resource_mut::<Seats>().0[1] = Seat::Bot(2);
    app.world_mut()
        .insert_resource(BotPace(std::time::Duration::ZERO));
    app.world_mut().write_message(CommandRequest(Command::Pass));
    app.update();
    assert_eq!(
        game(&app).current_player(),
        PlayerId(1),
        "Blue, the bot, to play"
    );
    assert_eq!(
        app.world().resource::<ActiveGame>().handover,
        None,
        "nobody confirms a hand-over to a bot"
    );
    // A person's click in the bot's turn plays nothing.
    click(&mut app, "D5", true);
    assert!(
        notice(&app).contains("Blue is played by a bot"),
        "says why: {}",
        notice(&app)
    );
    run_until(&mut app, "the bot's turn to end", |app| {
        game(app).current_player() == PlayerId(0) || game(app).is_over()
    });
    let active = app.world().resource::<ActiveGame>();
    let blue: Vec<String> = active.record[1..].iter().map(|c| c.to_string()).collect();
    assert!(
        blue.len() >= 2,
        "the bot activated a unit and passed: {blue:?}"
    );
    assert!(
        !app.world().resource::<Notice>().error,
        "every bot command was accepted: {}",
        notice(&app)
    );
    // The same game replayed by the rules crate gives the same state.
    let mut replay = duel().game();
    for command in &active.record {
        replay.apply(*command).expect("legal in replay");
    }
    assert_eq!(
        replay.state_hash(),
        active.game.state_hash(),
        "the table's game is the rules' game"
    );
    if !active.game.is_over() {
        assert_eq!(
            active.handover,
            Some(sandtable_core::game::Seat(0)),
            "the table is handed back to the person"
        );
    }
}

#[test]
fn a_hint_shows_a_legal_command_without_playing_it() {
    use sandtable::cache::bots::Hint;
    use sandtable::session::HintRequest;
    let mut app = app_with(sandtable_scenario::standard());
    let before = game_summary(&app);
    app.world_mut().write_message(HintRequest);
    app.update();
    let hint_now = |app: &App| {
        app.world()
            .resource::<Hint>()
            .for_game(app.world().resource::<ActiveGame>())
    };
    run_until(&mut app, "the hint", |app| hint_now(app).is_some());
    let hint = hint_now(&app).expect("a hint");
    assert!(
        game(&app).check(&hint).is_ok(),
        "the hint `{hint}` is legal"
    );
    assert_eq!(game_summary(&app), before, "a hint plays nothing");
    let Command::Activate(unit) = hint else {
        panic!("at the start of a turn the hint activates a unit, not `{hint}`");
    };
    assert_eq!(
        sandtable::cache::bots::hint_square(hint, game(&app)),
        Some(unit),
        "the table lights the unit to activate"
    );
    // Once the game moves on, the hint is no longer shown.
    app.world_mut().write_message(CommandRequest(hint));
    app.update();
    assert_eq!(hint_now(&app), None, "a hint belongs to one position");
    // Nor in a new game at the same revision: a hint at a game's start is
    // not shown at the start of the next one.
    app.world_mut()
        .write_message(sandtable::session::NewGameRequest {
            discard_unsaved: true,
        });
    app.update();
    app.world_mut().write_message(HintRequest);
    run_until(&mut app, "a hint at the start", |app| {
        hint_now(app).is_some()
    });
    assert_eq!(
        app.world().resource::<ActiveGame>().revision,
        0,
        "at the start"
    );
    app.world_mut()
        .write_message(sandtable::session::NewGameRequest::default());
    app.update();
    assert_eq!(
        app.world().resource::<ActiveGame>().revision,
        0,
        "the new game is at the same revision"
    );
    assert_eq!(hint_now(&app), None, "a hint belongs to one game");
}

#[test]
fn a_bot_thought_is_dropped_when_a_new_game_starts_with_a_person_on_its_seat() {
    use sandtable::session::{BotPace, NewGameRequest, Seat, Seats};
    let mut app = app_with(duel());
    app.world_mut().resource_mut::<Seats>().0[0] = Seat::Bot(2);
    app.world_mut()
        .insert_resource(BotPace(std::time::Duration::ZERO));
    // The bot (Red, first to move) starts thinking; a new game is asked for
    // in the same frame, before its command can come back.
    app.update();
    app.world_mut().write_message(NewGameRequest::default());
    app.world_mut().resource_mut::<Seats>().0[0] = Seat::Person;
    app.update();
    for _ in 0..50 {
        app.update();
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(
        app.world().resource::<ActiveGame>().record.is_empty(),
        "the new game, with a person on the seat, has no command: {:?}",
        app.world().resource::<ActiveGame>().record
    );
}

#[test]
fn hovering_a_square_names_what_stands_there_and_what_entering_costs() {
    use sandtable::cache::table::Acted;
    let mut app = app_with(sandtable_scenario::standard());
    // As the table's viewer reads it (the referee: Cache hides nothing).
    let text = |app: &App, square: &str| {
        app.world()
            .resource::<ActiveGame>()
            .describe(sq(square).spot())
            .expect("a square of the board")
    };
    assert_eq!(
        text(&app, "C7"),
        "C7: Red's unit \"Sergeant Vance\" (Factor 1), facing E, may act this turn (4 actions); open ground: 1 action to enter (R12)"
    );
    assert!(
        text(&app, "V7").starts_with("V7: Blue's unit \"Sergeant Okafor\" (Factor 1), facing W;"),
        "{}",
        text(&app, "V7")
    );
    assert!(
        text(&app, "D8").starts_with("D8: Red's Base (Factor 1)"),
        "{}",
        text(&app, "D8")
    );
    let water = game(&app)
        .board()
        .squares()
        .find(|s| game(&app).ground(*s) == sandtable_cache::Ground::Water)
        .expect("the standard table has water");
    assert!(
        text(&app, &water.to_string()).ends_with("3 actions to enter (R12)"),
        "{}",
        text(&app, &water.to_string())
    );
    // Acting, then acted: the label and the mark follow.
    click(&mut app, "C7", true);
    assert!(
        text(&app, "C7").contains("acting with 4 actions left"),
        "{}",
        text(&app, "C7")
    );
    let id = game(&app).unit_at(sq("C7")).expect("Vance");
    let vance = unit_entity(&app, id.0);
    assert!(
        app.world().get::<Acted>(vance).is_none(),
        "acting, not acted"
    );
    app.world_mut().write_message(CommandRequest(Command::End));
    app.update();
    assert!(
        text(&app, "C7").contains("has acted this turn"),
        "{}",
        text(&app, "C7")
    );
    assert!(app.world().get::<Acted>(vance).is_some(), "marked as acted");
    assert_eq!(count::<Acted>(&mut app), 1, "only that unit");
    // The next player's turn starts with nobody marked.
    app.world_mut().write_message(CommandRequest(Command::Pass));
    app.update();
    assert_eq!(count::<Acted>(&mut app), 0, "a new turn");
}

#[test]
fn notices_of_play_do_not_follow_into_layout_mode() {
    let mut app = app_with(duel());
    click(&mut app, "H8", false);
    assert!(
        !notice(&app).is_empty(),
        "play said something: {}",
        notice(&app)
    );
    set_layout_mode(&mut app, true);
    assert_eq!(notice(&app), "", "the layout starts with nothing said");
    set_layout_mode(&mut app, false);
    assert_eq!(notice(&app), "", "nor does play, back from the layout");
}

#[test]
fn the_measuring_line_follows_the_pointer_until_the_second_click() {
    use sandtable::cache::layout::{TablePoint, measuring_line};
    let mut app = editing_duel();
    app.world_mut().resource_mut::<LayoutMode>().tool = LayoutTool::Measure;
    let physical = sandtable::cache::layout::shown_physical(
        app.world().resource::<sandtable::table::TableShown>(),
    );
    let board = game(&app).board();
    click(&mut app, "B2", false);
    let layout = app.world().resource::<LayoutMode>().clone();
    assert_eq!(
        measuring_line(&layout, physical),
        None,
        "nothing to draw until the pointer is on the table"
    );
    // The pointer over F5's centre: the line runs there, 4 x 3 squares away.
    let pointer = TablePoint::centre(physical, board, sq("F5"));
    app.world_mut().resource_mut::<LayoutMode>().pointer = Some(pointer);
    let layout = app.world().resource::<LayoutMode>().clone();
    let line = measuring_line(&layout, physical).expect("a line to the pointer");
    assert_eq!((line.from.square, line.to.square), (sq("B2"), sq("F5")));
    assert!(
        (line.squares - 5.0).abs() < 1e-9,
        "4 and 3 squares make 5: {}",
        line.squares
    );
    // The points are where the table draws them.
    let world = pointer.world(physical);
    let back = TablePoint::at_world(physical, sq("F5"), world);
    assert!(
        (back.x_mm - pointer.x_mm).abs() < 1e-3 && (back.y_mm - pointer.y_mm).abs() < 1e-3,
        "world and table points agree"
    );
    assert_eq!(
        world,
        sandtable::cache::table::square_center(board, sq("F5"))
    );
    // The second click ends it: the line stays as the reading.
    click(&mut app, "D2", false);
    let layout = app.world().resource::<LayoutMode>().clone();
    let reading = measuring_line(&layout, physical).expect("the reading");
    assert_eq!(
        (reading.from.square, reading.to.square),
        (sq("B2"), sq("D2"))
    );
}

/// Where an advance over a low wall lands comes from the rules' legal
/// commands alone (R13): the table's reach, a click and the hint all say
/// the square beyond the wall, never the wall.
#[test]
fn a_wall_crossing_lands_beyond_the_wall_for_the_table_the_click_and_the_hint() {
    let scenario = sandtable_scenario::parse(
        r#"(
            name: "wall",
            rules: ConflictAtCache,
            board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "C2", units: [(at: "D4", facing: N)])]),
                (name: "Blue", factors: [(base: "F7", units: [(at: "G6", facing: S)])]),
            ],
            terrain: [(kind: LowWall, squares: ["D5"])],
        )"#,
        "wall",
    )
    .expect("valid");
    let mut app = app_with(scenario);
    click(&mut app, "D4", true);
    let g = game(&app);
    let reach: Vec<Square> = sandtable::cache::table::reachable(g)
        .into_iter()
        .map(|(s, _)| s)
        .collect();
    assert_eq!(reach, vec![sq("D6")], "the wall is crossed, not stood on");
    assert_eq!(
        sandtable::cache::table::advance_to(g, sq("D6")),
        Some(Command::Advance)
    );
    assert_eq!(sandtable::cache::table::advance_to(g, sq("D5")), None);
    assert_eq!(
        sandtable::cache::bots::hint_square(Command::Advance, g),
        Some(sq("D6"))
    );
    // Clicking the landing square crosses the wall.
    click(&mut app, "D6", false);
    assert_eq!(
        game(&app).position(UnitId(0)).map(|(s, _)| s),
        Some(sq("D6"))
    );
}

/// The duel's table with the camera, in a 1280 x 720 window whose side
/// panel is 320 wide, the pointer at `x`: the camera's distance before
/// and after the wheel turns a line toward the table.
fn camera_after_a_wheel_at(x: f32) -> (f32, f32) {
    use bevy::input::mouse::{AccumulatedMouseMotion, AccumulatedMouseScroll};
    use bevy::window::{PrimaryWindow, WindowResolution};
    use sandtable::camera::OrbitCamera;
    use sandtable::hud::PanelWidth;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins((
        sandtable::logic_plugin,
        click_plugin,
        sandtable::camera::plugin,
    ));
    app.init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<AccumulatedMouseMotion>()
        .init_resource::<AccumulatedMouseScroll>()
        .insert_resource(PanelWidth(320.0));
    let mut window = Window {
        resolution: WindowResolution::new(1280, 720),
        ..default()
    };
    window.set_cursor_position(Some(Vec2::new(x, 300.0)));
    app.world_mut().spawn((window, PrimaryWindow));
    let mut active = ActiveGame::new(duel(), ScenarioSource::Embedded);
    active.handover = None;
    app.insert_resource(active);
    app.world_mut().write_message(GameLoaded);
    app.update();
    app.update();
    let distance = |app: &mut App| {
        app.world_mut()
            .query::<&OrbitCamera>()
            .single(app.world())
            .expect("one camera")
            .distance
    };
    let before = distance(&mut app);
    app.world_mut()
        .resource_mut::<AccumulatedMouseScroll>()
        .delta = Vec2::new(0.0, 1.0);
    app.update();
    (before, distance(&mut app))
}

#[test]
fn the_wheel_over_the_side_panel_scrolls_the_panel_and_leaves_the_camera_where_it_is() {
    // Over the panel (x 960 to 1280): the camera does not move.
    let (before, after) = camera_after_a_wheel_at(1100.0);
    assert_eq!(before, after, "the wheel over the panel zoomed the table");
    // Over the table the same turn zooms in.
    let (before, after) = camera_after_a_wheel_at(400.0);
    assert!(
        after < before,
        "the wheel over the table zooms: {before} to {after}"
    );
}

/// Real dice at Cache's table (R30): switched on, a stash's roll waits
/// for the two dice typed in, refused with how many it needs; the rolls
/// typed decide it; the save keeps every die and opens again with real
/// dice; a bot seated hands the dice back to the generator.
#[test]
fn r30_cache_s_table_rolls_real_dice_typed_in_and_saves_every_die() {
    use sandtable::cache::play::RealDiceRequest;
    use sandtable::session::dice::TypedRolls;
    let dir = common::temp_dir("app", "cache-real-dice");
    let file = dir.join("stash.ron");
    std::fs::write(
        &file,
        stash_ron("ExtraActions(3)", r#"(at: "D4", facing: N)"#),
    )
    .expect("written");
    let mut opened = sandtable::cache::files::open(&file).expect("opens").active;
    opened.handover = None;
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins((sandtable::logic_plugin, click_plugin));
    app.insert_resource(opened);
    app.world_mut().write_message(GameLoaded);
    app.update();
    app.world_mut().write_message(RealDiceRequest(true));
    app.update();
    fn active(app: &App) -> &ActiveGame {
        app.world().resource::<ActiveGame>()
    }
    assert!(active(&app).dice.real, "{}", common::notice(&app));
    click(&mut app, "D4", true);
    assert_eq!(active(&app).record.len(), 1, "{}", common::notice(&app));
    // Onto the stash without its dice: refused, saying how many (R30).
    click(&mut app, "D5", false);
    assert_eq!(active(&app).record.len(), 1);
    let notice = common::notice(&app);
    assert!(
        notice.contains("2 dice") && notice.contains("(R30)"),
        "{notice}"
    );
    app.world_mut().resource_mut::<TypedRolls>().0 = "6 1".into();
    click(&mut app, "D5", false);
    assert_eq!(active(&app).record.len(), 2, "{}", common::notice(&app));
    assert_eq!(
        active(&app).extra.last_roll.as_ref().map(|r| r.0),
        Some([6, 1]),
        "the rolls typed decide"
    );
    assert!(app.world().resource::<TypedRolls>().0.is_empty());
    // Saved with every die, the start's own first.
    let saved = dir.join("stash.moves");
    app.world_mut()
        .write_message(sandtable::session::SaveRequest::to(&saved));
    app.update();
    let text = std::fs::read_to_string(&saved).expect("saved");
    let rolled = sandtable_core::dice::write_rolls(&active(&app).dice.rolled);
    assert!(rolled.ends_with("6 1"), "{rolled}");
    assert!(text.contains(&format!("[Dice \"{rolled}\"]")), "{text}");
    // Opened again: the same game, its dice still real.
    let reopened = sandtable::cache::files::open(&saved)
        .expect("reopens")
        .active;
    assert_eq!(reopened.game.summary(), active(&app).game.summary());
    assert!(reopened.dice.real);
    assert_eq!(reopened.dice.rolled, active(&app).dice.rolled);
    // A bot seated: the generator rolls again, and says so.
    app.world_mut()
        .resource_mut::<sandtable::session::Seats>()
        .0 = vec![
        sandtable::session::Seat::Person,
        sandtable::session::Seat::Bot(1),
    ];
    app.update();
    assert!(!active(&app).dice.real);
    assert!(
        common::notice(&app).contains("(R30)"),
        "{}",
        common::notice(&app)
    );
}
