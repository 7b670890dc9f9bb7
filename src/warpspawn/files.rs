//! Saving a battle as a game record (`.moves`) and opening one, by the
//! rules every game is saved by ([`crate::session::files`]): never over the
//! battle file or anything that is not a game record, over another game's
//! record only when the person says so, crash-safe with a backup. The
//! record names its battle file, pins its content and the engine, and
//! carries the seed, the seats and, for a battle played with real dice,
//! every die rolled (R30), so that `sandtable-cli play --record` replays it
//! too.

use std::path::{Path, PathBuf};

use sandtable_core::dice::Dice;
use sandtable_core::game::GameState;
use sandtable_core::record::{Record, SeatPlayer, header, write_seats};
use sandtable_scenario::battle::Battle;
use sandtable_scenario::{Loaded, records};
use sandtable_warpspawn::Command;

use super::table::{ActiveBattle, Warpspawn};
use crate::session::files::{
    OpenError, SaveError, dice_header, parse_record, record_seats, save_active, seed_and_turns,
    warning_notes,
};
use crate::session::open::{OpenedGame, Opener};
use crate::session::{ScenarioSource, Seat};

/// Saves the battle: to `to`, else its own file, else a new name beside its
/// battle file ([`save_target`](crate::session::files::save_target)). Returns where it went.
pub fn save_battle(
    active: &mut ActiveBattle,
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
    // The generator's rolls and the real ones, in the order rolled: the
    // battle replays roll for roll.
    record.headers.extend(active.dice.headers());
    let seats: Vec<SeatPlayer> = (0..2)
        .map(|k| seats.get(k).copied().unwrap_or_default().into())
        .collect();
    record
        .headers
        .push((header::SEATS.to_owned(), write_seats(&seats)));
    record
}

/// A battle opened from a file, with what the file said besides it.
pub type OpenedBattle = crate::session::open::Opened<Warpspawn>;

/// How the Warpspawn battle opens its files: the one entry it adds to the
/// table's openers.
pub fn opener() -> Opener {
    Opener::of::<Warpspawn>(
        |loaded, source| match loaded {
            Loaded::Warpspawn(battle) => Ok(start(battle, source)),
            other => Err(Box::new(other)),
        },
        |loaded, source, text, path, last_line| match loaded {
            Loaded::Warpspawn(battle) => Ok(replay(battle, source, text, path, last_line)
                .map(|o| Box::new(o) as Box<dyn OpenedGame>)),
            other => Err(Box::new(other)),
        },
        None,
    )
}

/// A new game of a battle file, played by two people.
fn start(battle: Battle, source: ScenarioSource) -> Result<Box<dyn OpenedGame>, OpenError> {
    let name = match &source {
        ScenarioSource::File(p) => p.display().to_string(),
        _ => battle.name.clone(),
    };
    // The battle's warnings (a rule it bends) are told when it opens.
    let notes = warning_notes(&source, &battle.name, &battle.warnings);
    let active = ActiveBattle::new(battle)
        .map_err(|e| OpenError::plain(format!("{name}: {e}")))?
        .with_source(source);
    Ok(Box::new(OpenedBattle {
        active,
        seats: Some(vec![Seat::Person; 2]),
        notes,
    }))
}

/// Opens a saved battle, reading it up to the line `last_line` when given
/// (the way to open a record whose later lines are damaged): its battle
/// file, seed, turns, dice and seats, and its commands played again through
/// the contract. A bad line or an illegal command names its line.
pub fn open_battle(path: &Path, last_line: Option<usize>) -> Result<OpenedBattle, OpenError> {
    opener().open_alone(path, last_line)
}

/// A saved game of `battle` (from `source`), its record's text read from
/// `path` up to `last_line`.
fn replay(
    battle: Battle,
    source: ScenarioSource,
    text: &str,
    path: &Path,
    last_line: Option<usize>,
) -> Result<OpenedBattle, OpenError> {
    let record: Record<Command> = parse_record(text, path)?;
    let notes = records::check_pins_of(&record, &battle.name, &battle.content_hash());
    let mut setup = battle.setup.clone();
    let (seed, turns) = seed_and_turns(&record, path)?;
    setup.seed = seed.unwrap_or(setup.seed);
    setup.turns = turns.unwrap_or(setup.turns);
    let rolls = dice_header(&record, path)?;
    let seats = record_seats(&record, path, 2)?;
    let persons = seats.iter().all(|s| *s == Seat::Person);
    let real_dice = rolls.is_some();
    let dice = rolls.map_or_else(|| Dice::seeded(setup.seed), Dice::scripted);
    let mut active = ActiveBattle::start(battle, &setup, dice)
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
        real_dice,
        crate::session::dice::real_after(&record),
        persons,
        setup.seed,
    );
    active.handover = if persons {
        sandtable_core::game::next_seat(active.game.game())
    } else {
        None
    };
    // A record holds everything (R57): a battle that hides anything opens
    // as the referee's only once it is over; before, behind the curtain
    // for the side that decides next.
    if GameState::hides(active.game.game()) && active.game.ending().is_some() {
        active.viewer = sandtable_core::game::Viewer::Referee;
        active.handover = None;
    }
    active.extra.rolls.clear();
    if last_line.is_none() {
        // The file holds these moves: the battle is saved as it stands.
        active.file = Some(path.to_path_buf());
        active.saved = active.record.clone();
    }
    Ok(OpenedBattle {
        active,
        seats: Some(seats),
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
