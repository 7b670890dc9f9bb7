//! `show`, and what `play` shares with it: load a scenario, apply a game record
//! line by line, and print the board, the log or the JSON state summary.

use std::fmt::Write as _;
use std::path::Path;

use sandtable_rules::{Command, Event, Game, Record};
use sandtable_scenario::Scenario;

use crate::Failure;
use crate::render;

pub(crate) fn load_scenario(file: &Path) -> Result<Scenario, Failure> {
    sandtable_scenario::load(file).map_err(|e| Failure::new(1, e.to_string()))
}

pub(crate) fn load_record(path: &Path) -> Result<Record, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Failure::new(
            1,
            format!("{}: cannot read the record: {e}", path.display()),
        )
    })?;
    Record::parse(&text)
        .map_err(|e| Failure::new(2, format!("{}:{}: {}", path.display(), e.line, e.reason)))
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

/// The game a record starts from: the scenario, with the seed from the command
/// line, else the record's `[Seed]` header, else the scenario's own, and the
/// turn limit from the command line, else the record's `[TurnLimit]` header if
/// it has one.
pub(crate) fn start(
    scenario: &Scenario,
    record: &Record,
    path: &Path,
    seed: Option<u64>,
    turn_limit: Option<u32>,
) -> Result<Game, Failure> {
    let mut setup = scenario.setup.clone();
    if let Some(seed) = seed.or(header_number(record, "Seed", path)?) {
        setup.seed = seed;
    }
    if let Some(limit) = turn_limit.or(header_number::<u32>(record, "TurnLimit", path)?) {
        setup.turn_limit = Some(limit);
    }
    Game::new(&setup).map_err(|e| Failure::new(2, format!("{}: {e}", path.display())))
}

/// Applies every command, appending each with its events to `log`. An illegal
/// command stops with its line, the command and the rules crate's reason.
pub(crate) fn apply_all(
    game: &mut Game,
    record: &Record,
    path: &Path,
    log: &mut String,
) -> Result<(), Failure> {
    let mut events: Vec<Event> = Vec::new();
    for (line, command) in &record.commands {
        events.clear();
        game.apply_into(*command, &mut events).map_err(|e| {
            Failure::new(
                2,
                format!("{}:{line}: `{command}` is illegal: {e}", path.display()),
            )
        })?;
        let _ = writeln!(log, "{line:>4}  {command}");
        for e in &events {
            if !matches!(command, Command::Activate(_)) || !matches!(e, Event::Activated { .. }) {
                let _ = writeln!(log, "        {}", game.describe(e));
            }
        }
    }
    Ok(())
}

pub(crate) fn show(file: &Path, record: Option<&Path>) -> Result<String, Failure> {
    let scenario = load_scenario(file)?;
    let mut game = scenario.game();
    if let Some(path) = record {
        let rec = load_record(path)?;
        game = start(&scenario, &rec, path, None, None)?;
        apply_all(&mut game, &rec, path, &mut String::new())?;
    }
    let mut out = format!("{}\n\n", scenario.name);
    out.push_str(&render::board(&game));
    out.push('\n');
    out.push_str(&render::status(&game));
    Ok(out)
}
