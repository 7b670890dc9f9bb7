//! Saving a skirmish as a game record (`.moves`) and opening one, by the
//! rules every game is saved by ([`crate::session::files`]): never over
//! the scenario or anything that is not a game record, over another
//! game's record only when the person says so, crash-safe with a backup.
//! The record names its scenario file, pins its content and the engine,
//! and carries the seed, the turn limit and the seats, so that
//! `sandtable-cli play --record` replays it too.

use std::path::{Path, PathBuf};

use sandtable_core::dice::Dice;
use sandtable_core::record::{Record, SeatPlayer, header, write_seats};
use sandtable_frontiers::Command;
use sandtable_scenario::skirmish::Skirmish;
use sandtable_scenario::{Loaded, records};

use super::table::{ActiveSkirmish, Frontiers};
use crate::session::files::{
    OpenError, SaveError, parse_record, record_seats, save_active, seed_and_turns, warning_notes,
};
use crate::session::open::{OpenedGame, Opener};
use crate::session::{ScenarioSource, Seat};

/// Saves the skirmish: to `to`, else its own file, else a new name beside
/// its scenario. Returns where it went.
pub fn save_skirmish(
    active: &mut ActiveSkirmish,
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

/// The record of a skirmish: its scenario, the pins, the seed, the turn
/// limit where the game's differs, every die rolled when real dice were
/// used (R30), the seats, then its commands.
pub fn record_of(active: &ActiveSkirmish, scenario: String, seats: &[Seat]) -> Record<Command> {
    let mut record = Record::from_commands(active.record.iter().copied());
    record.headers = vec![(header::SCENARIO.to_owned(), scenario)];
    record
        .headers
        .extend(records::pins_of(&active.setup.content_hash()));
    let setup = active.game.game().setup();
    record
        .headers
        .push((header::SEED.to_owned(), setup.seed.to_string()));
    if setup.turns != active.setup.setup.turns {
        record
            .headers
            .push((header::TURN_LIMIT.to_owned(), setup.turns.to_string()));
    }
    // Once real dice were used, every roll, the generator's and the real
    // ones in the order rolled: the game replays roll for roll (R30).
    record.headers.extend(active.dice.headers());
    let seats: Vec<SeatPlayer> = (0..2)
        .map(|k| seats.get(k).copied().unwrap_or_default().into())
        .collect();
    record
        .headers
        .push((header::SEATS.to_owned(), write_seats(&seats)));
    record
}

/// As Cache's `print_sheet`, for a Frontiers skirmish: its
/// open table at 1:1, its pieces and a page of play aids at true size.
pub fn print_skirmish_sheet(skirmish: &Skirmish, out: &Path) -> Result<PathBuf, String> {
    crate::session::files::write_sheet(
        sandtable_sheet::plan_skirmish(skirmish, sandtable_sheet::Paper::A4),
        out,
    )
}

/// A skirmish opened from a file, with what the file said besides it.
pub type OpenedSkirmish = crate::session::open::Opened<Frontiers>;

/// How Frontiers opens its files: the one entry it adds to the table's
/// openers.
pub fn opener() -> Opener {
    Opener::of::<Frontiers>(
        |loaded, source| match loaded {
            Loaded::Frontiers(skirmish) => Ok(start(skirmish, source)),
            other => Err(Box::new(other)),
        },
        |loaded, source, text, path, last_line| match loaded {
            Loaded::Frontiers(skirmish) => Ok(replay(skirmish, source, text, path, last_line)
                .map(|o| Box::new(o) as Box<dyn OpenedGame>)),
            other => Err(Box::new(other)),
        },
        None,
    )
}

/// A new game of a skirmish file, played by two people.
fn start(skirmish: Skirmish, source: ScenarioSource) -> Result<Box<dyn OpenedGame>, OpenError> {
    let name = match &source {
        ScenarioSource::File(p) => p.display().to_string(),
        _ => skirmish.name.clone(),
    };
    let notes = warning_notes(&source, &skirmish.name, &skirmish.warnings);
    let active = ActiveSkirmish::new(skirmish)
        .map_err(|e| OpenError::plain(format!("{name}: {e}")))?
        .with_source(source);
    Ok(Box::new(OpenedSkirmish {
        active,
        seats: Some(vec![Seat::Person; 2]),
        notes,
    }))
}

/// A saved game of `skirmish` (from `source`), its record's text read from
/// `path` up to `last_line`: its seed, turns and seats, and its commands
/// played again through the contract. A bad line or an illegal command
/// names its line.
fn replay(
    skirmish: Skirmish,
    source: ScenarioSource,
    text: &str,
    path: &Path,
    last_line: Option<usize>,
) -> Result<OpenedSkirmish, OpenError> {
    let record: Record<Command> = parse_record(text, path)?;
    let notes = records::check_pins_of(&record, &skirmish.name, &skirmish.content_hash());
    let mut setup = skirmish.setup.clone();
    let (seed, turns) = seed_and_turns(&record, path)?;
    setup.seed = seed.unwrap_or(setup.seed);
    setup.turns = turns.unwrap_or(setup.turns);
    let rolls = crate::session::files::dice_header(&record, path)?;
    let dice = match &rolls {
        Some(rolls) => Dice::scripted(rolls.clone()),
        None => Dice::seeded(setup.seed),
    };
    let seats = record_seats(&record, path, 2)?;
    let persons = seats.iter().all(|s| *s == Seat::Person);
    let mut active = ActiveSkirmish::start(skirmish, &setup, dice)
        .map_err(|e| OpenError::plain(format!("{}: {e}", path.display())))?
        .with_source(source);
    for (line, command) in &record.commands {
        active
            .play(*command)
            .map_err(|e| OpenError::illegal(path, *line, command, &e, &notes))?;
    }
    // Played with real dice, they go on (R30); a bot cannot read them, so
    // with a bot the generator rolls from here.
    active.go_on_after_replay(
        rolls.is_some(),
        crate::session::dice::real_after(&record),
        persons,
        setup.seed,
    );
    active.handover = if persons {
        sandtable_core::game::next_seat(active.game.game())
    } else {
        None
    };
    // A record holds everything (R149): a finished game opens as the
    // referee's; before, behind the curtain for the side that decides.
    if active.game.ending().is_some() {
        active.viewer = sandtable_core::game::Viewer::Referee;
        active.handover = None;
    }
    active.extra.rolls.clear();
    if last_line.is_none() {
        active.file = Some(path.to_path_buf());
        active.saved = active.record.clone();
    }
    Ok(OpenedSkirmish {
        active,
        seats: Some(seats),
        notes,
    })
}
