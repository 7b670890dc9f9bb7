//! Conflict at Cache and the Warpspawn battle on the table through the same
//! generic path, headless: one function plays a game of either system by
//! its requests (a command through the system's own flow, undo, save, open
//! a file of the other system, and back), and the table's entities follow
//! whichever game is on it.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use sandtable::cache::play::Cache;
use sandtable::session::game::{ActiveGame, CommandOf, TableSystem};
use sandtable::session::open::OnTable;
use sandtable::session::{LoadRequest, Notice, SaveRequest, StartTurn, UndoRequest};
use sandtable::table::{TablePiece, TableShown};
use sandtable::warpspawn::table::Warpspawn;
use sandtable_core::game::{GameState, Surface};

fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins).add_plugins((
        sandtable::logic_plugin,
        sandtable::cache::picking::click_plugin,
    ));
    app.update();
    app
}

fn scenario(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name)
}

fn notice(app: &App) -> String {
    app.world()
        .resource::<Notice>()
        .text
        .clone()
        .unwrap_or_default()
}

/// Opens a file of any system, as the Open button does, and takes the
/// table (the hand-over confirmed).
fn open(app: &mut App, path: &Path) {
    app.world_mut().write_message(LoadRequest::new(path));
    app.update();
    app.world_mut().write_message(StartTurn);
    app.update();
    app.update();
}

/// The game of `S` on the table.
fn game<S: TableSystem>(app: &App) -> &ActiveGame<S> {
    app.world()
        .get_resource::<ActiveGame<S>>()
        .unwrap_or_else(|| panic!("a game of {} is on the table: {}", S::KEY, notice(app)))
}

/// Plays `text` on the game of `S` through the system's own flow: the
/// request a bot's command goes by, the same for every system.
fn play<S: TableSystem>(app: &mut App, text: &str) {
    let command: CommandOf<S> = text
        .parse()
        .unwrap_or_else(|_| panic!("`{text}` is {}'s notation", S::KEY));
    let before = game::<S>(app).record.len();
    app.world_mut().write_message(S::bot_request(command));
    app.update();
    assert_eq!(
        game::<S>(app).record.len(),
        before + 1,
        "`{text}` played: {}",
        notice(app)
    );
}

fn undo<S: TableSystem>(app: &mut App) {
    let before = game::<S>(app).record.len();
    app.world_mut().write_message(UndoRequest);
    app.update();
    assert_eq!(game::<S>(app).record.len(), before - 1, "{}", notice(app));
}

/// The table shows the game of `S` and nothing else: the system on the
/// table is `S`, the surface is the game's, the other system's game is
/// gone, and there are pieces on it.
fn table_follows<S: TableSystem, Other: TableSystem>(app: &mut App) {
    app.update();
    assert_eq!(
        app.world().resource::<State<OnTable>>().get().0,
        Some(S::KEY)
    );
    assert!(app.world().get_resource::<ActiveGame<Other>>().is_none());
    let surface = game::<S>(app).game.game().surface();
    assert_eq!(app.world().resource::<TableShown>().surface, Some(surface));
    let mut pieces = app.world_mut().query_filtered::<(), With<TablePiece>>();
    assert!(
        pieces.iter(app.world()).count() > 0,
        "{}: no pieces",
        S::KEY
    );
}

/// The record of the game of `S` on the table, in its notation.
fn record<S: TableSystem>(app: &App) -> Vec<String> {
    game::<S>(app)
        .record
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// One path for any system: a command, undone, played again, saved to
/// `saved`; returns the record as saved.
fn play_and_save<S: TableSystem>(app: &mut App, command: &str, saved: &Path) -> Vec<String> {
    play::<S>(app, command);
    undo::<S>(app);
    play::<S>(app, command);
    app.world_mut().write_message(SaveRequest {
        to: Some(saved.to_path_buf()),
        replace: false,
    });
    app.update();
    assert!(saved.exists(), "{} saved: {}", saved.display(), notice(app));
    assert!(!game::<S>(app).has_unsaved_work());
    record::<S>(app)
}

#[test]
fn cache_and_the_battle_play_undo_save_and_open_each_other_through_one_path() {
    let dir = std::env::temp_dir().join(format!("sandtable-any-system-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    let mut app = headless();

    open(&mut app, &scenario("standard.ron"));
    table_follows::<Cache, Warpspawn>(&mut app);
    assert!(matches!(
        app.world().resource::<TableShown>().surface,
        Some(Surface::Squares { .. })
    ));
    let cache_saved = dir.join("cache.moves");
    let cache_record = play_and_save::<Cache>(&mut app, "activate E9", &cache_saved);

    open(&mut app, &scenario("warpspawn/open-field.ron"));
    table_follows::<Warpspawn, Cache>(&mut app);
    assert!(matches!(
        app.world().resource::<TableShown>().surface,
        Some(Surface::Hexes { .. })
    ));
    let battle_saved = dir.join("battle.moves");
    let battle_record = play_and_save::<Warpspawn>(&mut app, "end", &battle_saved);

    // And back: each saved game opens with its record on its own table.
    open(&mut app, &cache_saved);
    table_follows::<Cache, Warpspawn>(&mut app);
    assert_eq!(record::<Cache>(&app), cache_record);
    open(&mut app, &battle_saved);
    table_follows::<Warpspawn, Cache>(&mut app);
    assert_eq!(record::<Warpspawn>(&app), battle_record);
    let _ = std::fs::remove_dir_all(&dir);
}

/// One path for any system: `commands` end a player's turn and hand the
/// table to the other person; that person has not taken it yet when the
/// one still at it asks to undo. The request reaches the rules, whose
/// reason is told (R31: undo stops at the turn's start), and the table
/// still waits for the next person. Returns the notice.
fn undo_asked_while_handed_over<S: TableSystem>(app: &mut App, commands: &[&str]) -> String {
    for command in commands {
        play::<S>(app, command);
    }
    let waiting = game::<S>(app).handover;
    assert!(
        waiting.is_some(),
        "{}: the table waits to be handed over",
        S::KEY
    );
    let before = record::<S>(app);
    app.world_mut().write_message(UndoRequest);
    app.update();
    assert_eq!(record::<S>(app), before, "{}: nothing undone", S::KEY);
    assert_eq!(
        game::<S>(app).handover,
        waiting,
        "{}: still waiting",
        S::KEY
    );
    assert!(app.world().resource::<Notice>().error, "{}", notice(app));
    notice(app)
}

#[test]
fn undo_during_a_hand_over_is_asked_of_the_rules_on_every_system() {
    let mut app = headless();
    open(&mut app, &scenario("standard.ron"));
    let cache = undo_asked_while_handed_over::<Cache>(&mut app, &["pass"]);
    // The person lets the unsaved pass go.
    app.world_mut().write_message(LoadRequest {
        discard_unsaved: true,
        ..LoadRequest::new(scenario("warpspawn/open-field.ron"))
    });
    app.update();
    app.world_mut().write_message(StartTurn);
    app.update();
    let battle = undo_asked_while_handed_over::<Warpspawn>(&mut app, &["end"; 4]);
    for said in [&cache, &battle] {
        assert!(
            !said.contains("hand-over first"),
            "the rules' reason: {said}"
        );
    }
    // Once the next person takes the table, the turn is theirs to undo in.
    app.world_mut().write_message(StartTurn);
    app.update();
    assert_eq!(game::<Warpspawn>(&app).handover, None);
    play::<Warpspawn>(&mut app, "end");
    undo::<Warpspawn>(&mut app);
}
