//! `show`, and what `play` shares with it: a game started from a scenario
//! through its system's front door ([`Front`]), and a record read for it.
//! Replaying the record, the log and the views go through the game
//! contract, in the CLI's library.

use sandtable_core::text::path_shown;
use std::path::Path;

use crate::{Front, Seeing, apply_record, header_number, show_text};
use sandtable_core::game::GameState;
use sandtable_core::record::{Record, header};
use sandtable_scenario::records;

use crate::Failure;

/// A system's command, as its records hold it.
pub type CommandOf<F> = <<F as Front>::Game as GameState>::Command;

/// Loads a scenario file of any rule system, every problem listed (exit
/// code 1).
pub fn load_any(file: &Path) -> Result<sandtable_scenario::Loaded, Failure> {
    sandtable_scenario::load_any(file).map_err(|e| Failure::new(1, e.to_string()))
}

/// Reads a record for a scenario, telling on stderr what differs from what it
/// was recorded with (the scenario's content, the engine).
pub fn load_record<F: Front>(path: &Path, front: &F) -> Result<Record<CommandOf<F>>, Failure> {
    let record = records::read(path).map_err(|e| {
        let code = if e.line().is_some() { 2 } else { 1 };
        Failure::new(code, e.to_string())
    })?;
    for note in front.check_pins(&record) {
        eprintln!(
            "{}: note: {}",
            path_shown(path),
            sandtable_scenario::files::printable(&note)
        );
    }
    Ok(record)
}

/// Refuses a turn limit the system does not allow (R11 for Cache).
pub fn check_turn_limit<F: Front>(front: &F, limit: Option<u32>) -> Result<(), Failure> {
    match limit {
        Some(n) => front.check_turn_limit(n).map_err(|e| Failure::new(1, e)),
        None => Ok(()),
    }
}

/// The headers of a record written to `record_path` for a game of the
/// scenario in `scenario_file`: the scenario relative to the record's folder,
/// what pins it (content hash, engine), the seed and the turn limit.
pub fn record_headers<F: Front>(
    front: &F,
    scenario_file: &Path,
    record_path: &Path,
    seed: u64,
    turn_limit: Option<u32>,
) -> Vec<(String, String)> {
    let mut headers = vec![(
        header::SCENARIO.to_owned(),
        records::scenario_header(record_path, scenario_file),
    )];
    headers.extend(front.pins());
    headers.push((header::SEED.to_owned(), seed.to_string()));
    if let Some(limit) = turn_limit {
        headers.push((header::TURN_LIMIT.to_owned(), limit.to_string()));
    }
    headers
}

/// A game of the scenario with the dice `seeing` asks for (`--dice`, else
/// the record's `[Dice]` header, else the seeded generator).
pub fn new_game<F: Front>(
    front: &F,
    seeing: &Seeing,
    seed: u64,
    turn_limit: Option<u32>,
    record: Option<(&Record<CommandOf<F>>, &Path)>,
    source: &Path,
) -> Result<F::Game, Failure> {
    let dice = seeing.dice(seed, record)?;
    front
        .start(seed, turn_limit, dice)
        .map_err(|e| Failure::new(2, format!("{}: {e}", path_shown(source))))
}

/// The game a record starts from: the scenario, with the seed from the
/// command line, else the record's `[Seed]` header, else the scenario's
/// own; the turn limit from the command line, else the record's
/// `[TurnLimit]` header, else the scenario's; and the dice `seeing` names.
pub fn start<F: Front>(
    front: &F,
    record: &Record<CommandOf<F>>,
    path: &Path,
    seed: Option<u64>,
    turn_limit: Option<u32>,
    seeing: &Seeing,
) -> Result<(F::Game, u64), Failure> {
    let seed = seed
        .or(header_number(record, header::SEED, path)?)
        .unwrap_or(front.seed());
    let limit = turn_limit
        .or(header_number::<_, u32>(record, header::TURN_LIMIT, path)?)
        .or(front.turn_limit());
    let game = new_game(front, seeing, seed, limit, Some((record, path)), path)?;
    Ok((game, seed))
}

/// `show`: the scenario's title and the text drawing of the game, after
/// the record if one is given, as `seeing` names the viewer.
pub fn show<F: Front>(
    front: &F,
    file: &Path,
    record: Option<&Path>,
    seeing: &Seeing,
    cell_mm: Option<u16>,
) -> Result<String, Failure> {
    let game = match record {
        Some(path) => {
            let rec = load_record(path, front)?;
            let (mut game, _) = start(front, &rec, path, None, None, seeing)?;
            apply_record(&mut game, &rec, path, None)?;
            game
        }
        None => new_game(front, seeing, front.seed(), front.turn_limit(), None, file)?,
    };
    let viewer = seeing.viewer(&game)?;
    match cell_mm {
        None => Ok(show_text(front.title(), &game, viewer)),
        Some(cell) => front
            .draw_at_scale(&game, viewer, cell)
            .map(|board| format!("{}\n\n{board}", front.title()))
            .ok_or_else(|| {
                Failure::new(
                    1,
                    format!(
                        "--cell-mm {cell}: {} is not played on an open plane; its board has no scale to choose",
                        front.title()
                    ),
                )
            }),
    }
}
