//! Saving a battle as a game record (`.moves`) and opening one, by the
//! rules every game is saved by ([`crate::session::files`]): never over the
//! battle file or anything that is not a game record, over another game's
//! record only when the person says so, crash-safe with a backup. The
//! record names its battle file, pins its content and the engine, and
//! carries the seed, the seats and, for a battle played with real dice,
//! every die rolled (R30), so that `sandtable-cli play --record` replays it
//! too.

use std::path::{Path, PathBuf};

use sandtable_core::dice::{self, Dice};
use sandtable_core::record::{Record, SeatPlayer, header, read_seats, write_seats};
use sandtable_scenario::{Loaded, records};
use sandtable_warpspawn::Command;

use super::table::ActiveBattle;
use crate::session::files::{
    OpenError, SaveError, dice_header, read_record, save_target, scenario_header_for, write_record,
};
use crate::session::{ScenarioSource, Seat};

/// Saves the battle: to `to`, else its own file, else a new name beside its
/// battle file ([`save_target`]). Returns where it went.
pub fn save_battle(
    active: &mut ActiveBattle,
    seats: &[Seat],
    to: Option<&Path>,
    replace: bool,
) -> Result<PathBuf, SaveError> {
    let target = save_target(to, active.file.as_deref(), &active.source, replace)?;
    let scenario = scenario_header_for(&target, &mut active.source, || active.setup.to_ron())?;
    let record = record_of(active, scenario, seats);
    write_record(&target, &record)?;
    active.file = Some(target.clone());
    active.saved = active.record.clone();
    Ok(target)
}

/// The record of a battle: its battle file, the pins, the seed, every die
/// rolled when real dice were used (R30), the seats, then its commands.
pub fn record_of(active: &ActiveBattle, scenario: String, seats: &[Seat]) -> Record<Command> {
    let mut record = Record::from_commands(active.record.iter().copied());
    record.headers = vec![(header::SCENARIO.to_owned(), scenario)];
    record
        .headers
        .extend(records::pins_of(&active.setup.content_hash()));
    // The game's seed: a saved game may have been played with another
    // seed than its battle file's.
    record.headers.push((
        header::SEED.to_owned(),
        active.game.battle().setup.seed.to_string(),
    ));
    let turns = active.game.battle().turns;
    if turns != active.setup.setup.turns {
        record
            .headers
            .push((header::TURN_LIMIT.to_owned(), turns.to_string()));
    }
    if active.extra.real_dice || !active.extra.typed.is_empty() {
        // The generator's rolls and the real ones, in the order rolled: the
        // battle replays roll for roll.
        record.headers.push((
            header::DICE.to_owned(),
            dice::write_rolls(&active.extra.rolled),
        ));
    }
    let seats: Vec<SeatPlayer> = (0..2)
        .map(|k| seats.get(k).copied().unwrap_or_default().into())
        .collect();
    record
        .headers
        .push((header::SEATS.to_owned(), write_seats(&seats)));
    record
}

/// A battle opened from a saved game, with what differs from when it was
/// saved (the battle file, the engine).
pub struct OpenedBattle {
    /// The battle, its commands played again.
    pub active: ActiveBattle,
    /// Who plays each side: a battle file's two people, or the seats its
    /// record names (people where it names none).
    pub seats: Vec<Seat>,
    /// Notes on the battle file or the engine having changed.
    pub notes: Vec<String>,
}

/// Opens a saved battle, reading it up to the line `last_line` when given
/// (the way to open a record whose later lines are damaged): its battle
/// file, seed, turns, dice and seats, and its commands played again through
/// the contract. A bad line or an illegal command names its line.
pub fn open_battle(path: &Path, last_line: Option<usize>) -> Result<OpenedBattle, OpenError> {
    let record: Record<Command> = read_record(path, last_line)?;
    let Some(name) = record.header(header::SCENARIO) else {
        return Err(OpenError::plain(format!(
            "{}: a saved battle names its battle file in a [{}] header",
            path.display(),
            header::SCENARIO
        )));
    };
    let scenario_path = records::scenario_path(path, name);
    let battle = match sandtable_scenario::load_any(&scenario_path) {
        Ok(Loaded::Warpspawn(battle)) => battle,
        Ok(Loaded::Cache(_)) => {
            return Err(OpenError::plain(format!(
                "{}: {} is a Conflict at Cache table, not a Warpspawn battle",
                path.display(),
                scenario_path.display()
            )));
        }
        Err(e) => {
            return Err(OpenError::plain(format!(
                "{}: the battle of this game cannot be opened: {e}",
                path.display()
            )));
        }
    };
    let notes = records::check_pins_of(&record, &battle.name, &battle.content_hash());
    let number_error = |e: String| OpenError::plain(format!("{}: {e}", path.display()));
    let mut setup = battle.setup.clone();
    if let Some(seed) = record
        .header_number::<u64>(header::SEED)
        .map_err(number_error)?
    {
        setup.seed = seed;
    }
    if let Some(turns) = record
        .header_number::<u32>(header::TURN_LIMIT)
        .map_err(number_error)?
    {
        setup.turns = turns;
    }
    let rolls = dice_header(&record, path)?;
    let seats = match record.header(header::SEATS) {
        Some(text) => read_seats(text, 2, sandtable_bots::MAX_STRENGTH).map_err(|e| {
            OpenError::plain(format!("{}: [{}]: {e}", path.display(), header::SEATS))
        })?,
        None => vec![SeatPlayer::Person; 2],
    };
    let seats: Vec<Seat> = seats.into_iter().map(Seat::from).collect();
    let persons = seats.iter().all(|s| *s == Seat::Person);
    let real_dice = rolls.is_some();
    let dice = rolls.map_or_else(|| Dice::seeded(setup.seed), Dice::scripted);
    let mut active = ActiveBattle::start(battle, &setup, dice)
        .map_err(|e| OpenError::plain(format!("{}: {e}", path.display())))?
        .with_source(ScenarioSource::File(scenario_path));
    for (line, command) in &record.commands {
        active
            .play(*command)
            .map_err(|e| OpenError::illegal(path, *line, command, &e, &notes))?;
    }
    if real_dice {
        if persons {
            // Played with real dice: they go on (R30).
            active.extra.real_dice = true;
        } else {
            // A bot cannot read real dice: the generator rolls from here.
            let seed = setup
                .seed
                .wrapping_add(1 + active.extra.rolled.len() as u64);
            active.game.reseed(seed);
        }
    }
    active.handover = if persons {
        sandtable_core::game::next_seat(active.game.game())
    } else {
        None
    };
    active.extra.rolls.clear();
    if last_line.is_none() {
        // The file holds these moves: the battle is saved as it stands.
        active.file = Some(path.to_path_buf());
        active.saved = active.record.clone();
    }
    Ok(OpenedBattle {
        active,
        seats,
        notes,
    })
}

/// As [`print_sheet`], for a Warpspawn battle: its hex map at 1:1.
pub fn print_battle_sheet(
    battle: &sandtable_scenario::battle::Battle,
    out: &Path,
) -> Result<PathBuf, String> {
    crate::session::files::write_sheet(
        sandtable_sheet::plan_battle(battle, sandtable_sheet::Paper::A4),
        out,
    )
}
