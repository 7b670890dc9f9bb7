//! Opening a file on the table, whichever rule system it is of: a Conflict
//! at Cache table or saved game becomes the game in play, a Warpspawn
//! battle or saved battle becomes the battle in play, and the one that was
//! open leaves the table (after asking, when it has unsaved moves). The
//! command line and the panels' Open buttons both come here.

use std::path::Path;

use bevy::prelude::*;
use sandtable_scenario::Loaded;

use crate::cache::files::Opened;
use crate::cache::play::ActiveGame;
use crate::session::files::{OpenError, record_scenario};
use crate::session::{
    FileField, GameLoaded, KeepOpen, Leaving, LoadRequest, Notice, OpenFailure, ScenarioSource,
    files,
};
use crate::warpspawn::files::{OpenedBattle, open_battle};
use crate::warpspawn::{ActiveBattle, BattleLoaded};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        // After the answers that may ask for it, before anything reads
        // what the game was told, in the same frame: a game opened is
        // played on from the next command.
        load_requested_file.in_set(crate::FlowSteps::Open),
    );
}

/// A file opened for the table.
pub enum OpenedFile {
    /// A Conflict at Cache table or saved game.
    Cache(Box<Opened>),
    /// A Warpspawn battle or saved battle.
    Battle(Box<OpenedBattle>),
}

/// Opens a scenario (`.ron`) or a saved game (`.moves`) of any system, a
/// saved game only up to `last_line` when one is given (a damaged record).
pub fn open_any(path: &Path, last_line: Option<usize>) -> Result<OpenedFile, OpenError> {
    if path != Path::new(files::EMBEDDED) {
        if path.extension().is_some_and(|e| e == "ron") {
            match sandtable_scenario::load_any(path) {
                Ok(Loaded::Warpspawn(battle)) => {
                    let active = ActiveBattle::new(battle)
                        .map_err(|e| OpenError::plain(format!("{}: {e}", path.display())))?
                        .with_source(ScenarioSource::File(path.to_path_buf()));
                    return Ok(OpenedFile::Battle(Box::new(OpenedBattle {
                        active,
                        // A battle file is played by two people.
                        seats: vec![crate::session::Seat::Person; 2],
                        notes: Vec::new(),
                    })));
                }
                Ok(Loaded::Cache(_)) => {}
                // The file's own problems, by the loader of the system it
                // names, with their lines and rulings.
                Err(e) => return Err(OpenError::plain(e.to_string())),
            }
        } else if let Some(scenario) = record_scenario(path)
            && is_battle_file(&scenario)
        {
            // A saved battle, its battle file valid or not: `open_battle`
            // says what is wrong with it.
            return open_battle(path, last_line).map(|o| OpenedFile::Battle(Box::new(o)));
        }
    }
    crate::cache::files::open_until(path, last_line).map(|o| OpenedFile::Cache(Box::new(o)))
}

/// Whether a scenario file names the Warpspawn rules, whatever else is
/// wrong with it.
fn is_battle_file(path: &Path) -> bool {
    sandtable_scenario::files::read_text(path, sandtable_scenario::MAX_FILE_BYTES)
        .ok()
        .and_then(|text| sandtable_scenario::probe_rules(&text))
        == Some(sandtable_scenario::RuleSystem::Warpspawn)
}

/// Loads a scenario or a saved game of any system; a bad file leaves the
/// game in play alone, and one with unsaved moves is left only when the
/// person says so.
#[allow(clippy::too_many_arguments)]
pub fn load_requested_file(
    mut commands: Commands,
    mut requests: MessageReader<LoadRequest>,
    active: Option<Res<ActiveGame>>,
    battle: Option<Res<ActiveBattle>>,
    mut seats: ResMut<crate::session::Seats>,
    mut notice: ResMut<Notice>,
    mut failure: ResMut<OpenFailure>,
    mut field: ResMut<FileField>,
    mut loaded: MessageWriter<GameLoaded>,
    mut battle_loaded: MessageWriter<BattleLoaded>,
    keep_open: Res<KeepOpen>,
    mode: Res<State<crate::mode::Mode>>,
    mut next_mode: ResMut<NextState<crate::mode::Mode>>,
) {
    for request in requests.read() {
        let path = &request.path;
        if let Some(why) = &keep_open.0 {
            notice.error(format!("not opening {}: {why}", path.display()));
            continue;
        }
        let unsaved = active.as_deref().is_some_and(ActiveGame::has_unsaved_work)
            || battle
                .as_deref()
                .is_some_and(ActiveBattle::has_unsaved_work);
        if !crate::session::may_leave_unsaved(
            &mut commands,
            unsaved,
            request.discard_unsaved,
            Leaving::Open(path.clone(), request.until_line),
        ) {
            continue;
        }
        let opened = match open_any(path, request.until_line) {
            Ok(opened) => opened,
            Err(e) => {
                eprintln!("{}", sandtable_scenario::files::printable(&e.message));
                failure.0 = e
                    .bad_line
                    .filter(|line| *line > 1)
                    .map(|line| (path.clone(), line));
                notice.error(e.message);
                continue;
            }
        };
        let mut text = match request.until_line {
            Some(line) => format!(
                "opened {} up to line {line}; Save writes it to a new file",
                path.display()
            ),
            None => format!("opened {}", path.display()),
        };
        let notes = match &opened {
            OpenedFile::Cache(o) => &o.notes,
            OpenedFile::Battle(o) => &o.notes,
        };
        for note in notes {
            text.push_str(&format!("\nnote: {note}"));
        }
        notice.info_after(request.discard_unsaved, text);
        failure.0 = None;
        // The file field starts again from the new game's own file.
        field.0 = None;
        // Layout mode edits the game it was entered on: a battle opened, or
        // any file opened over a battle, leaves it (a Cache table opened in a
        // Cache table's layout mode is edited from then on, see
        // `layout::editor`).
        if *mode.get() == crate::mode::Mode::Layout
            && (matches!(opened, OpenedFile::Battle(_)) || battle.is_some())
        {
            next_mode.set(crate::mode::Mode::Play);
        }
        // One game is on the table at a time: the other system's leaves.
        match opened {
            OpenedFile::Cache(opened) => {
                let opened = *opened;
                if let Some(s) = opened.seats {
                    seats.0 = s;
                }
                commands.remove_resource::<ActiveBattle>();
                commands.insert_resource(opened.active);
                loaded.write(GameLoaded);
            }
            OpenedFile::Battle(opened) => {
                seats.0 = opened.seats;
                commands.remove_resource::<ActiveGame>();
                commands.insert_resource(opened.active);
                battle_loaded.write(BattleLoaded);
            }
        }
    }
}
