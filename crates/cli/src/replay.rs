//! `show`, and the front door `play` shares with it: a scenario loaded
//! and started as a game, and a record read for it. Everything after the
//! start (replaying the record, the log, the views) goes through the game
//! contract, in the CLI's library.

use std::path::Path;

use sandtable_cache::{Game, MAX_TURN_LIMIT, Record, Setup};
use sandtable_cli::{Seeing, apply_record, header_number, show_text};
use sandtable_scenario::{Scenario, records};

use crate::Failure;

pub(crate) fn load_scenario(file: &Path) -> Result<Scenario, Failure> {
    sandtable_scenario::load(file).map_err(|e| Failure::new(1, e.to_string()))
}

/// Reads a record for a scenario, telling on stderr what differs from what it
/// was recorded with (the scenario's content, the engine).
pub(crate) fn load_record(path: &Path, scenario: &Scenario) -> Result<Record, Failure> {
    let record = records::read(path).map_err(|e| {
        let code = if e.line().is_some() { 2 } else { 1 };
        Failure::new(code, e.to_string())
    })?;
    for note in records::check_pins(&record, scenario) {
        eprintln!(
            "{}: note: {}",
            path.display(),
            sandtable_scenario::files::printable(&note)
        );
    }
    Ok(record)
}

/// Refuses a turn limit outside 1 to [`MAX_TURN_LIMIT`] (R11).
pub(crate) fn check_turn_limit(limit: Option<u32>) -> Result<(), Failure> {
    match limit {
        Some(n) if !(1..=MAX_TURN_LIMIT).contains(&n) => Err(Failure::new(
            1,
            format!("--turn-limit {n}: a turn limit is 1 to {MAX_TURN_LIMIT} turns (R11)"),
        )),
        _ => Ok(()),
    }
}

/// The headers of a record written to `record_path` for a game of the
/// scenario in `scenario_file`: the scenario relative to the record's folder,
/// what pins it (content hash, engine), the seed and the turn limit.
pub(crate) fn record_headers(
    scenario: &Scenario,
    scenario_file: &Path,
    record_path: &Path,
    seed: u64,
    turn_limit: Option<u32>,
) -> Vec<(String, String)> {
    let mut headers = vec![(
        "Scenario".to_owned(),
        records::scenario_header(record_path, scenario_file),
    )];
    headers.extend(records::pins(scenario));
    headers.push(("Seed".to_owned(), seed.to_string()));
    if let Some(limit) = turn_limit {
        headers.push(("TurnLimit".to_owned(), limit.to_string()));
    }
    headers
}

/// Starts a game of the setup with the dice `seeing` asks for (`--dice`,
/// else the record's `[Dice]` header, else the setup's seed).
pub(crate) fn new_game(
    seeing: &Seeing,
    setup: &Setup,
    record: Option<(&Record, &Path)>,
    source: &Path,
) -> Result<Game, Failure> {
    let dice = seeing.dice(setup.seed, record)?;
    Game::with_dice(setup, dice).map_err(|e| Failure::new(2, format!("{}: {e}", source.display())))
}

/// The game a record starts from: the scenario, with the seed from the command
/// line, else the record's `[Seed]` header, else the scenario's own, the
/// turn limit from the command line, else the record's `[TurnLimit]` header if
/// it has one, and the dice `seeing` names.
pub(crate) fn start(
    scenario: &Scenario,
    record: &Record,
    path: &Path,
    seed: Option<u64>,
    turn_limit: Option<u32>,
    seeing: &Seeing,
) -> Result<Game, Failure> {
    let mut setup = scenario.setup.clone();
    if let Some(seed) = seed.or(header_number(record, "Seed", path)?) {
        setup.seed = seed;
    }
    if let Some(limit) = turn_limit.or(header_number::<_, u32>(record, "TurnLimit", path)?) {
        setup.turn_limit = Some(limit);
    }
    new_game(seeing, &setup, Some((record, path)), path)
}

pub(crate) fn show(file: &Path, record: Option<&Path>, seeing: &Seeing) -> Result<String, Failure> {
    let scenario = load_scenario(file)?;
    let game = match record {
        Some(path) => {
            let rec = load_record(path, &scenario)?;
            let mut game = start(&scenario, &rec, path, None, None, seeing)?;
            apply_record(&mut game, &rec, path, None)?;
            game
        }
        None => new_game(seeing, &scenario.setup, None, file)?,
    };
    let viewer = seeing.viewer(&game)?;
    Ok(show_text(&scenario.name, &game, viewer))
}
