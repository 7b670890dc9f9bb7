//! `show`, and what `play` shares with it: load a scenario, apply a game record
//! line by line, and print the board, the log or the JSON state summary.

use std::fmt::Write as _;
use std::path::Path;

use sandtable_cache::{Command, CommandError, Event, Game, MAX_TURN_LIMIT, Record, Setup};
use sandtable_cli::Seeing;
use sandtable_scenario::{Scenario, records};

use crate::Failure;
use crate::render;

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

pub(crate) fn header_number<T: std::str::FromStr>(
    record: &Record,
    key: &str,
    path: &Path,
) -> Result<Option<T>, Failure> {
    record
        .header(key)
        .map(|v| {
            v.parse().map_err(|_| {
                Failure::new(
                    2,
                    format!(
                        "{}: the [{key}] header `{v}` is not a number",
                        path.display()
                    ),
                )
            })
        })
        .transpose()
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
    if let Some(limit) = turn_limit.or(header_number::<u32>(record, "TurnLimit", path)?) {
        setup.turn_limit = Some(limit);
    }
    new_game(seeing, &setup, Some((record, path)), path)
}

/// Applies every command, appending each with its events to `log` when
/// there is one to show. An illegal command stops with its line, the command
/// and the rules crate's reason.
pub(crate) fn apply_all(
    game: &mut Game,
    record: &Record,
    path: &Path,
    mut log: Option<&mut String>,
) -> Result<(), Failure> {
    let mut events: Vec<Event> = Vec::new();
    for (line, command) in &record.commands {
        events.clear();
        game.apply_into(*command, &mut events).map_err(|e| {
            let why = match e {
                CommandError::DiceOut(_) => {
                    format!("cannot be played: {e}; give more rolls with --dice")
                }
                _ => format!("is illegal: {e}"),
            };
            Failure::new(2, format!("{}:{line}: `{command}` {why}", path.display()))
        })?;
        let Some(log) = log.as_deref_mut() else {
            continue;
        };
        let _ = writeln!(log, "{line:>4}  {command}");
        for e in &events {
            if !matches!(command, Command::Activate(_)) || !matches!(e, Event::Activated { .. }) {
                let _ = writeln!(log, "        {}", game.describe(e));
            }
        }
    }
    Ok(())
}

pub(crate) fn show(file: &Path, record: Option<&Path>, seeing: &Seeing) -> Result<String, Failure> {
    let scenario = load_scenario(file)?;
    let game = match record {
        Some(path) => {
            let rec = load_record(path, &scenario)?;
            let mut game = start(&scenario, &rec, path, None, None, seeing)?;
            apply_all(&mut game, &rec, path, None)?;
            game
        }
        None => new_game(seeing, &scenario.setup, None, file)?,
    };
    // A Cache game hides nothing from its players: every view is the board.
    seeing.viewer(&game)?;
    let mut out = format!("{}\n\n", scenario.name);
    out.push_str(&render::board(&game));
    out.push('\n');
    out.push_str(&render::status(&game));
    Ok(out)
}
