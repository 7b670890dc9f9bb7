//! Headless app tests of files: nothing a person made is lost. A game is
//! saved only as a game record, never over a scenario or another kind of
//! file, and over another saved game only when the person says so, keeping
//! backups; leaving a game with unsaved moves asks first; a saved game opens
//! from any folder with its seats and its own file, says when its scenario
//! has changed, and a damaged one opens up to its last good line.

mod common;
use common::notice;

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use sandtable::cache::layout::draft::Edit;
use sandtable::cache::layout::{EditorRequest, LayoutMode, LayoutTool, SetLayoutMode};
use sandtable::cache::picking::click_plugin;
use sandtable::cache::play::{ActiveGame, CommandRequest};
use sandtable::session::{
    Dialog, DialogAnswer, FileField, Leaving, LoadRequest, NewGameRequest, OpenFailure,
    SaveRequest, ScenarioSource, Seat, Seats,
};
use sandtable_cache::Command;
use sandtable_scenario::files::backup_path;

const DUEL: &str = r#"(name: "duel", rules: ConflictAtCache, board: (columns: 8, rows: 8),
    players: [
        (name: "Red", factors: [(base: "C2", units: [(at: "D4", facing: N), (at: "B3", facing: E)])]),
        (name: "Blue", factors: [(base: "E6", units: [(at: "D5", facing: N), (at: "F7", facing: S)])]),
    ])"#;

fn headless() -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins((sandtable::logic_plugin, click_plugin));
    app.update();
    app
}

/// An app with `path` opened as a person would, the hand-over confirmed.
fn app_opening(path: &Path) -> App {
    let mut app = headless();
    open(&mut app, path);
    assert!(
        app.world().get_resource::<ActiveGame>().is_some(),
        "{} opens: {}",
        path.display(),
        notice(&app)
    );
    app
}

fn open(app: &mut App, path: &Path) {
    app.world_mut().write_message(LoadRequest::new(path));
    app.update();
    if let Some(mut active) = app.world_mut().get_resource_mut::<ActiveGame>() {
        active.handover = None;
    }
}

fn play(app: &mut App, commands: &[&str]) {
    for c in commands {
        let command: Command = c.parse().expect("notation");
        app.world_mut().write_message(CommandRequest(command));
        app.update();
    }
}

fn save(app: &mut App, request: SaveRequest) {
    app.world_mut().write_message(request);
    app.update();
}

fn answer(app: &mut App, answer: DialogAnswer) {
    app.world_mut().write_message(answer);
    app.update();
}

fn active(app: &App) -> &ActiveGame {
    app.world().resource::<ActiveGame>()
}

fn dialog(app: &App) -> Option<Dialog> {
    app.world().get_resource::<Dialog>().cloned()
}

/// Switches layout mode on and renames the layout: an edit saved nowhere.
fn rename_in_layout_mode(app: &mut App, name: &str) {
    app.world_mut().write_message(SetLayoutMode::ON);
    // The change of mode takes effect at the start of the next frame.
    app.update();
    app.update();
    app.world_mut().resource_mut::<LayoutMode>().tool = LayoutTool::Edit;
    app.world_mut()
        .write_message(EditorRequest::Edit(Edit::Rename(name.to_owned())));
    app.update();
}

fn write_duel(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, DUEL).expect("written");
    path
}

#[test]
fn a_game_is_saved_only_as_a_game_record_and_replaces_another_only_when_asked() {
    let dir = common::temp_dir("files-app", "save");
    let scenario = write_duel(&dir, "duel.ron");
    let mut app = app_opening(&scenario);
    play(&mut app, &["activate D4", "advance"]);
    assert!(active(&app).has_unsaved_work(), "two moves are not saved");

    // Over the scenario: refused, whatever was typed.
    save(&mut app, SaveRequest::to(&scenario));
    assert!(notice(&app).contains("not saved"), "{}", notice(&app));
    assert_eq!(
        std::fs::read_to_string(&scenario).expect("read"),
        DUEL,
        "untouched"
    );
    // Over a file that is not a game record, even one ending in .moves.
    let notes = dir.join("notes.moves");
    std::fs::write(&notes, "my notes on the duel").expect("written");
    save(&mut app, SaveRequest::to(&notes));
    assert!(
        notice(&app).contains("not a Sandtable game record"),
        "{}",
        notice(&app)
    );
    assert_eq!(
        std::fs::read_to_string(&notes).expect("read"),
        "my notes on the duel"
    );

    // Save: a new file beside the scenario, which becomes the game's own.
    save(&mut app, SaveRequest::own_file());
    let own = dir.join("duel.moves");
    assert_eq!(notice(&app), format!("saved to {}", own.display()));
    assert_eq!(active(&app).file.as_deref(), Some(own.as_path()));
    assert!(!active(&app).has_unsaved_work(), "saved");
    // Saving again replaces the game's own file without asking, keeping a backup.
    play(&mut app, &["right"]);
    save(&mut app, SaveRequest::own_file());
    assert_eq!(dialog(&app), None, "no question for the game's own file");
    let backup = std::fs::read_to_string(backup_path(&own, 1)).expect("a backup");
    assert!(backup.ends_with("activate D4\nadvance\n"), "{backup}");

    // Another game's record: asked first, and kept as a backup if replaced.
    let other = dir.join("other.moves");
    std::fs::write(&other, "[Scenario \"duel.ron\"]\nactivate B3\n").expect("written");
    save(&mut app, SaveRequest::to(&other));
    assert_eq!(dialog(&app), Some(Dialog::Replace(other.clone())), "asked");
    assert_eq!(
        std::fs::read_to_string(&other).expect("read"),
        "[Scenario \"duel.ron\"]\nactivate B3\n",
        "untouched while asking"
    );
    answer(&mut app, DialogAnswer::Cancel);
    assert_eq!(dialog(&app), None);
    save(&mut app, SaveRequest::to(&other));
    answer(&mut app, DialogAnswer::Replace);
    assert_eq!(notice(&app), format!("saved to {}", other.display()));
    assert_eq!(
        std::fs::read_to_string(backup_path(&other, 1)).expect("a backup"),
        "[Scenario \"duel.ron\"]\nactivate B3\n",
        "the game it replaced is kept"
    );
    assert_eq!(
        active(&app).file.as_deref(),
        Some(other.as_path()),
        "now its own file"
    );
}

#[test]
fn leaving_a_game_with_unsaved_moves_asks_first() {
    let dir = common::temp_dir("files-app", "leave");
    let scenario = write_duel(&dir, "duel.ron");
    let mut app = app_opening(&scenario);
    play(&mut app, &["activate D4"]);

    // Opening another file: asked; cancelled, nothing changes.
    let field = "typed by the person".to_owned();
    app.world_mut().resource_mut::<FileField>().0 = Some(field.clone());
    open(&mut app, Path::new("scenarios/open-field.ron"));
    assert_eq!(
        dialog(&app),
        Some(Dialog::UnsavedMoves(Leaving::Open(
            "scenarios/open-field.ron".into(),
            None
        )))
    );
    assert_eq!(active(&app).record.len(), 1, "the game is still there");
    answer(&mut app, DialogAnswer::Cancel);
    assert_eq!(active(&app).record.len(), 1, "cancel keeps it");
    assert_eq!(
        app.world().resource::<FileField>().0,
        Some(field),
        "and the field"
    );

    // A new game: asked; discarded, the new game starts.
    app.world_mut().write_message(NewGameRequest::default());
    app.update();
    assert_eq!(dialog(&app), Some(Dialog::UnsavedMoves(Leaving::NewGame)));
    answer(&mut app, DialogAnswer::Discard);
    assert!(active(&app).record.is_empty(), "a new game");
    assert_eq!(dialog(&app), None);

    // Playing an edited layout: asked; saved first, then played.
    if let Some(mut a) = app.world_mut().get_resource_mut::<ActiveGame>() {
        a.handover = None;
    }
    play(&mut app, &["activate B3", "advance"]);
    rename_in_layout_mode(&mut app, "duel, edited");
    app.world_mut().write_message(SetLayoutMode::OFF);
    app.update();
    app.update();
    assert_eq!(
        dialog(&app),
        Some(Dialog::UnsavedMoves(Leaving::PlayLayout))
    );
    assert_eq!(
        active(&app).record.len(),
        2,
        "the game waits for the answer"
    );
    answer(&mut app, DialogAnswer::SaveFirst);
    let saved = dir.join("duel.moves");
    assert_eq!(
        notice(&app),
        format!(
            "saved to {}; a new game starts on the edited layout",
            saved.display()
        ),
        "both are said"
    );
    let text = std::fs::read_to_string(&saved).expect("the moves were saved first");
    assert!(text.ends_with("activate B3\nadvance\n"), "{text}");
    assert_eq!(
        active(&app).setup.name,
        "duel, edited",
        "then the layout is played"
    );
    assert!(active(&app).record.is_empty());

    // A game on a layout never saved is unsaved work too.
    open(&mut app, &saved);
    assert_eq!(
        dialog(&app),
        Some(Dialog::UnsavedMoves(Leaving::Open(saved.clone(), None))),
        "the edited layout would be lost"
    );
    answer(&mut app, DialogAnswer::Discard);
    assert_eq!(dialog(&app), None, "{}", notice(&app));
    assert_eq!(active(&app).record.len(), 2, "the saved game");
    assert_eq!(
        app.world().resource::<FileField>().0,
        None,
        "the file field starts again from the game opened"
    );
}

#[test]
fn closing_the_window_on_unsaved_moves_asks_first() {
    let dir = common::temp_dir("files-app", "quit");
    let scenario = write_duel(&dir, "duel.ron");
    // Nothing played: the window closes at once.
    let mut app = app_opening(&scenario);
    common::close_window(&mut app);
    assert_eq!(dialog(&app), None);
    assert_eq!(app.should_exit(), Some(AppExit::Success));

    let mut app = app_opening(&scenario);
    play(&mut app, &["activate D4"]);
    common::close_window(&mut app);
    assert_eq!(dialog(&app), Some(Dialog::UnsavedMoves(Leaving::Quit)));
    assert_eq!(app.should_exit(), None, "the window waits for the answer");
    answer(&mut app, DialogAnswer::Cancel);
    assert_eq!(dialog(&app), None);
    assert_eq!(app.should_exit(), None, "cancel keeps it open");
    assert_eq!(active(&app).record.len(), 1, "and the game");

    // Saved first, then closed.
    common::close_window(&mut app);
    answer(&mut app, DialogAnswer::SaveFirst);
    let saved = dir.join("duel.moves");
    let text = std::fs::read_to_string(&saved).expect("saved before closing");
    assert!(text.ends_with("activate D4\n"), "{text}");
    assert_eq!(app.should_exit(), Some(AppExit::Success));

    // Discarded: closed without writing anything.
    let mut app = app_opening(&saved);
    play(&mut app, &["advance"]);
    common::close_window(&mut app);
    answer(&mut app, DialogAnswer::Discard);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
    assert_eq!(
        std::fs::read_to_string(&saved).expect("still there"),
        text,
        "the saved game is as it was"
    );
}

#[test]
fn a_saved_game_opens_from_any_folder_with_its_seats_and_its_own_file() {
    let dir = common::temp_dir("files-app", "reopen");
    std::fs::create_dir_all(dir.join("scenarios")).expect("folder");
    std::fs::create_dir_all(dir.join("games")).expect("folder");
    let scenario = write_duel(&dir.join("scenarios"), "duel.ron");
    let mut app = app_opening(&scenario);
    app.world_mut().resource_mut::<Seats>().0 = vec![Seat::Person, Seat::Bot(3)];
    play(&mut app, &["activate D4", "advance", "left"]);
    let game = dir.join("games").join("g.moves");
    save(&mut app, SaveRequest::to(&game));
    let text = std::fs::read_to_string(&game).expect("saved");
    assert!(
        text.starts_with("[Scenario \"../scenarios/duel.ron\"]\n"),
        "named from the record's own folder: {text}"
    );
    assert!(text.contains("[Seats \"person, bot 3\"]\n"), "{text}");
    assert!(text.contains("[Engine \"sandtable "), "{text}");

    // Opened again (the tests run in another folder than the record's).
    let mut again = headless();
    open(&mut again, &game);
    assert_eq!(
        again.world().resource::<Seats>().0,
        vec![Seat::Person, Seat::Bot(3)],
        "the seats come back"
    );
    assert_eq!(
        active(&again).file.as_deref(),
        Some(game.as_path()),
        "its own file"
    );
    assert_eq!(active(&again).record, active(&app).record);
    assert!(!active(&again).has_unsaved_work());
    assert_eq!(active(&again).game.summary(), active(&app).game.summary());

    // A record written before scenarios were named from the record's folder
    // names it from the folder Sandtable runs in: still read.
    let old = dir.join("games").join("old.moves");
    std::fs::write(
        &old,
        "[Scenario \"scenarios/open-field.ron\"]\n[Seed \"42\"]\n",
    )
    .expect("written");
    open(&mut again, &old);
    assert_eq!(
        active(&again).setup.name,
        "Open field",
        "{}",
        notice(&again)
    );

    // The scenario changed since: said when the game is opened.
    std::fs::write(&scenario, DUEL.replace("\"duel\"", "\"duel, renamed\"")).expect("written");
    open(&mut again, &game);
    assert!(
        notice(&again).contains("has changed since this game was recorded"),
        "{}",
        notice(&again)
    );
    assert_eq!(active(&again).record.len(), 3, "and the game still opens");
}

#[test]
fn a_record_played_with_real_dice_and_a_turn_limit_opens_and_saves_with_both() {
    let dir = common::temp_dir("files-app", "dice");
    std::fs::create_dir_all(&dir).expect("folder");
    write_duel(&dir, "duel.ron");
    let record = dir.join("real-dice.moves");
    // No first player in the scenario: the first roll draws it (R5, R30).
    std::fs::write(
        &record,
        "[Scenario \"duel.ron\"]\n[Seed \"9\"]\n[TurnLimit \"7\"]\n[Dice \"2 6 5\"]\npass\n",
    )
    .expect("written");
    let app = app_opening(&record);
    let game = &active(&app).game;
    assert_eq!(game.turn_limit(), Some(7), "the record's turn limit");
    assert_eq!(
        active(&app).dice.rolled,
        [2],
        "the record's dice, not the generator: the first player's draw took one roll"
    );
    // Two people at the table: real dice go on from here (R30).
    assert!(active(&app).dice.real);
    assert!(game.dice().script().is_some_and(|s| s.used().is_empty()));
    // The same game as the rules play it from those dice.
    let scenario = sandtable_scenario::parse(DUEL, "duel.ron").expect("valid");
    let mut setup = scenario.setup.clone();
    setup.seed = 9;
    setup.turn_limit = Some(7);
    let mut direct = sandtable_cache::Game::with_dice(
        &setup,
        sandtable_core::dice::Dice::scripted(vec![2, 6, 5]),
    )
    .expect("valid");
    direct.apply(Command::Pass).expect("legal");
    // Its real dice go on from a fresh script, as the table's do.
    sandtable_core::game::GameState::set_dice(
        &mut direct,
        sandtable_core::dice::Dice::scripted(Vec::new()),
    );
    assert_eq!(game.state_hash(), direct.state_hash());

    let mut app = app;
    let again = dir.join("again.moves");
    save(&mut app, SaveRequest::to(&again));
    let text = std::fs::read_to_string(&again).expect("saved");
    assert!(text.contains("[TurnLimit \"7\"]\n"), "{text}");
    assert!(
        text.contains("[Dice \"2\"]\n"),
        "the rolls it used, so that it replays roll for roll: {text}"
    );

    // A header that is not rolls leaves the game as it was and says where.
    let bad = dir.join("bad-dice.moves");
    std::fs::write(&bad, "[Scenario \"duel.ron\"]\n[Dice \"2 seven\"]\npass\n").expect("written");
    let before = active(&app).game.state_hash();
    open(&mut app, &bad);
    assert!(
        notice(&app).contains("bad-dice.moves: the [Dice] header:"),
        "{}",
        notice(&app)
    );
    assert_eq!(active(&app).game.state_hash(), before, "nothing changed");
}

#[test]
fn names_with_quotes_and_hashes_are_saved_and_read_back() {
    let dir = common::temp_dir("files-app", "names");
    let folder = dir.join("my \"best\" #1 games");
    std::fs::create_dir_all(&folder).expect("folder");
    let scenario = write_duel(&folder, "duel #2 \"final\".ron");
    let mut app = app_opening(&scenario);
    play(&mut app, &["activate B3", "advance"]);
    save(&mut app, SaveRequest::own_file());
    let own = active(&app).file.clone().expect("saved");
    assert!(notice(&app).starts_with("saved to"), "{}", notice(&app));
    let mut again = headless();
    open(&mut again, &own);
    assert_eq!(
        active(&again).record,
        active(&app).record,
        "{}",
        notice(&again)
    );
    assert_eq!(
        active(&again).source,
        ScenarioSource::File(folder.join("duel #2 \"final\".ron"))
    );
}

#[test]
fn a_damaged_saved_game_says_which_line_and_opens_up_to_the_line_before() {
    let dir = common::temp_dir("files-app", "damaged");
    write_duel(&dir, "duel.ron");
    let game = dir.join("duel.moves");
    std::fs::write(
        &game,
        "[Scenario \"duel.ron\"]\nactivate D4\nadvance\nadvance C9\nend\n",
    )
    .expect("written");
    let mut app = headless();
    open(&mut app, &game);
    assert!(
        app.world().get_resource::<ActiveGame>().is_none(),
        "not opened whole"
    );
    assert!(
        notice(&app).starts_with(&format!("{}:4: `advance C9`", game.display())),
        "says which line: {}",
        notice(&app)
    );
    assert_eq!(
        app.world().resource::<OpenFailure>().0,
        Some((game.clone(), 4)),
        "the panel offers to open it up to line 3"
    );
    app.world_mut().write_message(LoadRequest {
        path: game.clone(),
        until_line: Some(3),
        discard_unsaved: false,
    });
    app.update();
    let a = active(&app);
    assert_eq!(a.record.len(), 2, "the two good moves");
    assert_eq!(
        a.file, None,
        "saving writes a new file, not over the damaged one"
    );
    assert!(
        a.has_unsaved_work(),
        "the moves are not saved anywhere as they stand"
    );
    assert_eq!(app.world().resource::<OpenFailure>().0, None);
}

#[test]
fn a_sheet_replaces_only_a_pdf_and_a_layout_is_saved_only_as_a_scenario() {
    let dir = common::temp_dir("files-app", "sheet");
    let notes = dir.join("notes.pdf");
    std::fs::write(&notes, "not a pdf at all").expect("written");
    let err = sandtable::cache::files::print_sheet(&sandtable_scenario::standard(), &notes)
        .expect_err("refused");
    assert!(err.contains("not a PDF"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&notes).expect("read"),
        "not a pdf at all"
    );

    let scenario = write_duel(&dir, "duel.ron");
    let mut app = app_opening(&scenario);
    app.world_mut().write_message(SetLayoutMode::ON);
    // The change of mode takes effect at the start of the next frame.
    app.update();
    app.update();
    let game = dir.join("duel.moves");
    std::fs::write(&game, "[Scenario \"duel.ron\"]\n").expect("written");
    app.world_mut()
        .write_message(EditorRequest::Save(game.clone()));
    app.update();
    assert!(
        notice(&app).contains("a file ending in .ron"),
        "{}",
        notice(&app)
    );
    assert_eq!(
        std::fs::read_to_string(&game).expect("read"),
        "[Scenario \"duel.ron\"]\n",
        "the game record is untouched"
    );
}

#[test]
fn a_file_that_cannot_be_opened_leaves_the_game_and_says_why() {
    let mut app = headless();
    open(&mut app, Path::new("/dev/zero"));
    assert!(
        notice(&app).contains("it is a device, not a file"),
        "{}",
        notice(&app)
    );
    // Nothing is on the table: there is no layout to show.
    app.world_mut()
        .write_message(sandtable::mode::SetLayoutMode::ON);
    app.update();
    app.update();
    assert_eq!(
        notice(&app),
        "no game is open to show the layout of",
        "{}",
        notice(&app)
    );
    assert_eq!(
        *app.world().resource::<State<sandtable::Mode>>().get(),
        sandtable::Mode::Play
    );
    open(&mut app, Path::new(sandtable::session::files::EMBEDDED));
    assert_eq!(active(&app).setup.name, "Conflict at Cache: standard table");
    let before = active(&app).id;
    open(&mut app, Path::new("no/such/file.moves"));
    assert_eq!(active(&app).id, before, "the game in play stays");
}

#[test]
fn closing_the_window_on_layout_edits_saved_nowhere_asks_first() {
    let dir = common::temp_dir("files-app", "quit-layout");
    let scenario = write_duel(&dir, "duel.ron");
    let mut app = app_opening(&scenario);
    rename_in_layout_mode(&mut app, "duel, edited");
    common::close_window(&mut app);
    assert_eq!(
        dialog(&app),
        Some(Dialog::UnsavedLayout),
        "saving the game would not save the layout"
    );
    assert_eq!(app.should_exit(), None);
    answer(&mut app, DialogAnswer::Cancel);
    assert_eq!(dialog(&app), None);
    assert_eq!(app.should_exit(), None, "cancel keeps the edits");
    common::close_window(&mut app);
    answer(&mut app, DialogAnswer::Discard);
    assert_eq!(app.should_exit(), Some(AppExit::Success));
}

#[test]
fn a_saved_game_that_ended_opens_with_its_result_and_is_handed_to_nobody() {
    // A whole game of greedy against mcts on the standard table, to Blue's
    // win on turn 8, as `sandtable-cli play --save` wrote it.
    let dir = common::temp_dir("files-app", "ended");
    std::fs::create_dir_all(dir.join("scenarios")).expect("made");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/standard.ron"),
        dir.join("scenarios/standard.ron"),
    )
    .expect("copied");
    let record = dir.join("ended.moves");
    std::fs::write(&record, ENDED).expect("written");
    let mut app = headless();
    app.world_mut().write_message(LoadRequest::new(&record));
    app.update();
    let active = app.world().resource::<ActiveGame>();
    assert!(active.game.is_over(), "{}", notice(&app));
    assert_eq!(
        sandtable::cache::play::outcome_text(&active.game).as_deref(),
        Some("Blue wins")
    );
    assert_eq!(active.handover, None, "no hand-over to a game that is over");
}

const ENDED: &str = include_str!("data/ended.moves");
