//! Opening and saving Conflict at Cache's games: a scenario or a saved game
//! becomes the game in play; a game is saved as its record.

use std::path::{Path, PathBuf};

use sandtable_cache::{Game, Record};
use sandtable_core::dice::Dice;
use sandtable_core::record::{SeatPlayer, header, read_seats, write_seats};
use sandtable_core::undo::Undoable;
use sandtable_scenario::records;

use super::play::{ActiveGame, Cache};
use crate::session::files::{
    OpenError, SEATS, SaveError, dice_header, parse_record, save_active, write_sheet,
};
use crate::session::open::{OpenedGame, Opener};
use crate::session::{ScenarioSource, Seat};
use sandtable_scenario::Loaded;

/// A Cache game opened from a file, with what the file said besides the
/// game.
pub type Opened = crate::session::open::Opened<Cache>;

/// How Conflict at Cache opens its files: the one entry it adds to the
/// table's openers.
pub fn opener() -> Opener {
    Opener::of::<Cache>(
        |loaded, source| match loaded {
            Loaded::Cache(scenario) => Ok(Ok(Box::new(Opened {
                active: ActiveGame::new(scenario, source),
                seats: None,
                notes: Vec::new(),
            }))),
            other => Err(Box::new(other)),
        },
        |loaded, source, text, path, last_line| match loaded {
            Loaded::Cache(scenario) => Ok(replay(scenario, source, text, path, last_line)
                .map(|o| Box::new(o) as Box<dyn OpenedGame>)),
            other => Err(Box::new(other)),
        },
        Some(|| Loaded::Cache(sandtable_scenario::standard())),
    )
}

/// Opens a scenario (`.ron`) or a saved game (any other file, read as a game
/// record whose `[Scenario]` header names its scenario) of Conflict at
/// Cache.
pub fn open(path: &Path) -> Result<Opened, OpenError> {
    open_until(path, None)
}

/// As [`open`], reading a saved game only up to the line `last_line`: the
/// way to open a record whose later lines are damaged.
pub fn open_until(path: &Path, last_line: Option<usize>) -> Result<Opened, OpenError> {
    opener().open_alone(path, last_line)
}

/// A saved game of `scenario` (from `source`), its record's text read from
/// `path` up to `last_line`: its seed, turn limit, dice and seats, and its
/// commands played again through the contract. A bad line or an illegal
/// command names its line.
fn replay(
    scenario: sandtable_scenario::Scenario,
    source: ScenarioSource,
    text: &str,
    path: &Path,
    last_line: Option<usize>,
) -> Result<Opened, OpenError> {
    let record: Record = parse_record(text, path)?;
    let notes = records::check_pins(&record, &scenario);
    let mut active = ActiveGame::new(scenario, source);
    let number_error = |e: String| OpenError::plain(format!("{}: {e}", path.display()));
    let seed = record
        .header_number::<u64>(header::SEED)
        .map_err(number_error)?;
    let turn_limit = record
        .header_number::<u32>(header::TURN_LIMIT)
        .map_err(number_error)?;
    let rolls = dice_header(&record, path)?;
    if seed.is_some() || turn_limit.is_some() || rolls.is_some() {
        // The game as it was played: its seed, its turn limit, and the
        // real dice it was played with, if it was (R30).
        let mut setup = active.setup.setup.clone();
        setup.seed = seed.unwrap_or(setup.seed);
        if let Some(limit) = turn_limit {
            setup.turn_limit = Some(limit);
        }
        let dice = rolls
            .clone()
            .map_or_else(|| Dice::seeded(setup.seed), Dice::scripted);
        active.game = Undoable::new(
            Game::with_dice(&setup, dice.clone())
                .map_err(|e| OpenError::plain(format!("{}: {e}", path.display())))?,
        );
        active = active.rolled_from(&dice);
    }
    let players = active.game.players().len();
    let seats = record
        .header(SEATS)
        .map(|text| {
            read_seats(text, players, sandtable_bots::MAX_STRENGTH)
                .map(|seats| seats.into_iter().map(Seat::from).collect::<Vec<_>>())
        })
        .transpose()
        .map_err(|e| OpenError::plain(format!("{}: [{SEATS}]: {e}", path.display())))?;
    for (line, command) in &record.commands {
        active
            .play(*command)
            .map_err(|e| OpenError::illegal(path, *line, command, &e, &notes))?;
    }
    // Played with real dice, they go on (R30) when people hold every seat
    // the file names (none named: the table's people); with a bot the
    // generator rolls from here.
    let persons = seats
        .as_ref()
        .is_none_or(|s| s.iter().all(|s| *s == Seat::Person));
    let seed = active.game.game().seed();
    active.go_on_after_replay(
        rolls.is_some(),
        crate::session::dice::real_after(&record),
        persons,
        seed,
    );
    // What the last command rolled is shown only for rolls made at the
    // table.
    active.extra.last_roll = None;
    // A game that ended is not handed to anyone: the result is shown.
    active.handover = sandtable_core::game::next_seat(active.game.game());
    if last_line.is_none() {
        // The file holds these moves: the game is saved as it stands.
        active.file = Some(path.to_path_buf());
        active.saved = active.record.clone();
    }
    Ok(Opened {
        active,
        seats,
        notes,
    })
}

/// Saves the game: to `to`, else its own file, else a new name beside its
/// scenario, as [`save_target`](crate::session::files::save_target) allows; every file replaced is kept as a
/// backup. A game on a layout that was never saved writes the layout first
/// ([`scenario_header_for`](crate::session::files::scenario_header_for)). Returns where the game went.
pub fn save_game(
    active: &mut ActiveGame,
    seats: &[Seat],
    to: Option<&Path>,
    replace: bool,
) -> Result<PathBuf, SaveError> {
    save_active(
        active,
        to,
        replace,
        |setup| setup.to_ron(),
        |active, scenario| record_of(active, scenario, seats),
    )
}

/// The record of a game: the `[Scenario]` header given, the pins, the seed
/// and the seats, then its commands.
fn record_of(active: &ActiveGame, scenario: String, seats: &[Seat]) -> Record {
    let mut record = Record::from_commands(active.record.iter().copied());
    record.headers = vec![(header::SCENARIO.to_owned(), scenario)];
    record.headers.extend(records::pins(&active.setup));
    record
        .headers
        .push((header::SEED.to_owned(), active.game.seed().to_string()));
    if active.game.turn_limit() != active.setup.setup.turn_limit
        && let Some(limit) = active.game.turn_limit()
    {
        record
            .headers
            .push((header::TURN_LIMIT.to_owned(), limit.to_string()));
    }
    // Once real dice were used, every roll, the generator's and the real
    // ones in the order rolled: the game replays roll for roll (R30).
    record.headers.extend(active.dice.headers());
    let players = active.game.players().len();
    let seats: Vec<SeatPlayer> = (0..players)
        .map(|p| seats.get(p).copied().unwrap_or_default().into())
        .collect();
    record.headers.push((SEATS.to_owned(), write_seats(&seats)));
    record
}

/// Writes the setup sheet of a scenario as a PDF at `out`, streamed into a
/// temporary file renamed into place; only a PDF is replaced.
pub fn print_sheet(scenario: &sandtable_scenario::Scenario, out: &Path) -> Result<PathBuf, String> {
    write_sheet(
        sandtable_sheet::plan(scenario, sandtable_sheet::Paper::A4),
        out,
    )
}
