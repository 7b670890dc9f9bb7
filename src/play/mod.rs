//! The command flow: the game in play as one resource, requests from clicks,
//! keys and buttons sent to the rules crate, its events published for the
//! visuals, the hot-seat hand-over, undo, and saving and loading games.

use std::path::{Path, PathBuf};

use bevy::prelude::*;
use sandtable_rules::{Command, Event, Game, Outcome, PlayerId, Record};
use sandtable_scenario::Scenario;

use crate::AppSystems;

pub mod bots;
pub mod files;
pub mod keys;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(bots::plugin)
        .add_message::<CommandRequest>()
        .add_message::<UndoRequest>()
        .add_message::<PlayEvent>()
        .add_message::<GameLoaded>()
        .add_message::<SaveRequest>()
        .add_message::<LoadRequest>()
        .init_resource::<Notice>()
        .init_resource::<keys::KeyboardTaken>()
        .add_systems(
            Update,
            (
                keys::read_play_keys.in_set(AppSystems::RecordInput),
                (
                    load_requested_file,
                    apply_commands,
                    undo_commands,
                    save_game,
                )
                    .chain()
                    .in_set(AppSystems::ApplyCommands),
            ),
        );
}

/// Where the scenario of the game in play came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScenarioSource {
    /// The default scenario embedded in the binary.
    Embedded,
    /// A scenario file.
    File(PathBuf),
    /// A layout edited in layout mode and not saved since.
    Unsaved,
}

impl ScenarioSource {
    /// How the source is written in a saved game's `[Scenario]` header.
    pub fn header(&self) -> String {
        match self {
            ScenarioSource::Embedded => files::EMBEDDED.to_owned(),
            ScenarioSource::File(p) => p.display().to_string(),
            ScenarioSource::Unsaved => "unsaved layout".to_owned(),
        }
    }
}

/// One line of the game log: a command in the move notation, or what it caused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogLine {
    /// The text.
    pub text: String,
    /// Whether this is a command (true) or an event under it (false).
    pub command: bool,
}

static NEXT_GAME_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// The game in play: the rules crate's `Game`, its scenario and its history.
#[derive(Resource)]
pub struct ActiveGame {
    /// The game; changed only through `apply` and `undo`.
    pub game: Game,
    /// The scenario it was started from.
    pub scenario: Scenario,
    /// Where that scenario came from, for saved games.
    pub source: ScenarioSource,
    /// Every command applied since the start, for saving.
    pub record: Vec<Command>,
    /// The log shown in the panel.
    pub log: Vec<LogLine>,
    /// The player the table is being handed to, until they confirm (hot-seat).
    pub handover: Option<PlayerId>,
    /// Grows by one at every change of the game, so that visuals know to follow.
    pub revision: u64,
    /// A number no other game of this run has, so that work begun for one
    /// game (a bot's thought, a hint) is never applied to another.
    pub id: u64,
    /// The last stash roll: the two dice, the row and its result (R21).
    pub last_roll: Option<([u8; 2], u8, String)>,
}

impl ActiveGame {
    /// A new game of a scenario.
    pub fn new(scenario: Scenario, source: ScenarioSource) -> ActiveGame {
        let game = scenario.game();
        let first = game.current_player();
        ActiveGame {
            game,
            scenario,
            source,
            record: Vec::new(),
            log: Vec::new(),
            handover: Some(first),
            revision: 0,
            id: NEXT_GAME_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            last_roll: None,
        }
    }

    /// A game record with `[Scenario]` and `[Seed]` headers.
    pub fn to_record(&self) -> Record {
        let mut record = Record::from_commands(self.record.iter().copied());
        record.headers = vec![
            ("Scenario".to_owned(), self.source.header()),
            ("Seed".to_owned(), self.game.seed().to_string()),
        ];
        record
    }
}

/// A command for the rules crate, from a click, a key or a button.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandRequest(pub Command);

/// Step back one command (R31).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoRequest;

/// An event the rules crate returned, for the visuals.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct PlayEvent(pub Event);

/// A new game was loaded: the table is built anew.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameLoaded;

/// Save the game in play to a file.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct SaveRequest(pub PathBuf);

/// Load a scenario (`.ron`) or a saved game (`.moves`).
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct LoadRequest(pub PathBuf);

/// The last refusal or message worth showing, with the time it was set.
#[derive(Resource, Default, Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    /// The text, if any.
    pub text: Option<String>,
    /// Whether it reports a refusal or an error (shown in red).
    pub error: bool,
}

impl Notice {
    /// Shows a refusal or an error.
    pub fn error(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.error = true;
    }

    /// Shows a message.
    pub fn info(&mut self, text: impl Into<String>) {
        self.text = Some(text.into());
        self.error = false;
    }
}

/// Sends each request to the rules crate. A refused command changes nothing
/// and its reason, with the ruling, goes to the notice.
pub fn apply_commands(
    mut requests: MessageReader<CommandRequest>,
    mut active: Option<ResMut<ActiveGame>>,
    mut notice: ResMut<Notice>,
    mut events: MessageWriter<PlayEvent>,
    mut loaded: MessageReader<GameLoaded>,
) {
    let Some(active) = active.as_deref_mut() else {
        requests.clear();
        return;
    };
    // Requests made before another game was opened were meant for the old one.
    if loaded.read().count() > 0 {
        requests.clear();
        return;
    }
    for CommandRequest(command) in requests.read().copied() {
        if active.handover.is_some() {
            notice.info("confirm the hand-over first");
            continue;
        }
        match active.game.apply(command) {
            Ok(applied) => {
                active.record.push(command);
                active.log.push(LogLine {
                    text: command.to_string(),
                    command: true,
                });
                for event in applied {
                    if !matches!(event, Event::Activated { .. }) {
                        active.log.push(LogLine {
                            text: active.game.describe(&event),
                            command: false,
                        });
                    }
                    match &event {
                        Event::TurnPassed { player, .. } => active.handover = Some(*player),
                        Event::StashRolled {
                            dice, roll, result, ..
                        } => active.last_roll = Some((*dice, *roll, result.to_string())),
                        _ => {}
                    }
                    events.write(PlayEvent(event));
                }
                active.revision += 1;
                notice.text = None;
            }
            Err(e) => notice.error(e.to_string()),
        }
    }
}

/// Undo (R31): one command back within the turn, or the reason it cannot.
pub fn undo_commands(
    mut requests: MessageReader<UndoRequest>,
    mut active: Option<ResMut<ActiveGame>>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active.as_deref_mut() else {
        requests.clear();
        return;
    };
    for _ in requests.read() {
        match active.game.undo() {
            Ok(command) => {
                active.record.pop();
                active.log.push(LogLine {
                    text: format!("undo {command}"),
                    command: true,
                });
                active.revision += 1;
                notice.info(format!("undid `{command}`"));
            }
            Err(e) => notice.error(e.to_string()),
        }
    }
}

/// Writes the game record through a temporary file renamed into place.
pub fn save_game(
    mut requests: MessageReader<SaveRequest>,
    active: Option<Res<ActiveGame>>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active else {
        requests.clear();
        return;
    };
    for SaveRequest(path) in requests.read() {
        if active.source == ScenarioSource::Unsaved {
            notice.error(
                "this game is on an edited layout that was never saved: save the layout in layout mode first, so that the game record can name its scenario",
            );
            continue;
        }
        match files::save(path, &active.to_record()) {
            Ok(()) => notice.info(format!("saved to {}", path.display())),
            Err(e) => notice.error(e),
        }
    }
}

/// Loads a scenario or a saved game; a bad file leaves the game in play alone.
pub fn load_requested_file(
    mut commands: Commands,
    mut requests: MessageReader<LoadRequest>,
    mut notice: ResMut<Notice>,
    mut loaded: MessageWriter<GameLoaded>,
    editor: Option<Res<crate::layout::LayoutEditor>>,
) {
    for LoadRequest(path) in requests.read() {
        if let Some(editor) = &editor
            && editor.edited()
            && editor.saved_file().is_none()
        {
            notice.error(format!(
                "not opening {}: the layout has edits that are not saved; save it or revert first",
                path.display()
            ));
            continue;
        }
        match files::open(path) {
            Ok(active) => {
                notice.info(format!("opened {}", path.display()));
                commands.insert_resource(active);
                loaded.write(GameLoaded);
            }
            Err(e) => {
                eprintln!("{e}");
                notice.error(e);
            }
        }
    }
}

/// The outcome in words, for the victory screen.
pub fn outcome_text(game: &Game) -> Option<String> {
    match game.outcome()? {
        Outcome::Won(p) => Some(format!("{} wins", game.player(p).name)),
        Outcome::Draw => Some("a draw: the turn limit is reached".to_owned()),
    }
}

/// The default path offered for saving.
pub fn default_save_path(source: &ScenarioSource) -> PathBuf {
    match source {
        ScenarioSource::File(p) => p.with_extension("moves"),
        ScenarioSource::Embedded | ScenarioSource::Unsaved => Path::new("game.moves").to_path_buf(),
    }
}
