//! Opening files (scenarios and saved games) and saving game records, with no
//! Bevy types: errors are plain messages for the window and stderr.

use std::path::Path;

use sandtable_rules::Record;

use super::{ActiveGame, LogLine, ScenarioSource};

/// The `[Scenario]` header of games on the embedded default scenario.
pub const EMBEDDED: &str = "embedded:standard";

/// Opens a scenario (`.ron`) or a saved game (any other file, read as a game
/// record whose `[Scenario]` header names its scenario).
pub fn open(path: &Path) -> Result<ActiveGame, String> {
    if path.extension().is_some_and(|e| e == "ron") {
        let scenario = sandtable_scenario::load(path).map_err(|e| e.to_string())?;
        return Ok(ActiveGame::new(
            scenario,
            ScenarioSource::File(path.to_path_buf()),
        ));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read the saved game: {e}", path.display()))?;
    let record =
        Record::parse(&text).map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.reason))?;
    let (scenario, source) = match record.header("Scenario") {
        None | Some(EMBEDDED) => (sandtable_scenario::standard(), ScenarioSource::Embedded),
        Some(name) => {
            let mut scenario_path = Path::new(name).to_path_buf();
            if !scenario_path.exists()
                && let Some(dir) = path.parent()
            {
                scenario_path = dir.join(name);
            }
            let s = sandtable_scenario::load(&scenario_path).map_err(|e| e.to_string())?;
            (s, ScenarioSource::File(scenario_path))
        }
    };
    let mut active = ActiveGame::new(scenario, source);
    if let Some(seed) = record.header("Seed") {
        let seed: u64 = seed.parse().map_err(|_| {
            format!(
                "{}: the [Seed] header `{seed}` is not a number",
                path.display()
            )
        })?;
        active.game = active.scenario.game_with_seed(seed);
    }
    for (line, command) in &record.commands {
        let events = active
            .game
            .apply(*command)
            .map_err(|e| format!("{}:{line}: `{command}` is illegal: {e}", path.display()))?;
        active.record.push(*command);
        active.log.push(LogLine {
            text: command.to_string(),
            command: true,
        });
        for e in &events {
            active.log.push(LogLine {
                text: active.game.describe(e),
                command: false,
            });
        }
    }
    active.handover = Some(active.game.current_player());
    Ok(active)
}

/// Writes a record to `path` by way of a temporary file renamed into place,
/// so an interrupted save never destroys the previous one.
pub fn save(path: &Path, record: &Record) -> Result<(), String> {
    let tmp = path.with_extension("moves.tmp");
    std::fs::write(&tmp, record.to_string())
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: cannot save: {e}", path.display()))
}

/// Writes the setup sheet of a scenario as a PDF beside `path` (same name,
/// `.pdf`), through a temporary file renamed into place.
pub fn print_sheet(
    scenario: &sandtable_scenario::Scenario,
    path: &Path,
) -> Result<std::path::PathBuf, String> {
    let out = path.with_extension("pdf");
    let sheet = sandtable_sheet::plan(scenario, sandtable_sheet::Paper::A4);
    let tmp = out.with_extension("pdf.tmp");
    std::fs::write(&tmp, sandtable_sheet::render_pdf(&sheet, true))
        .and_then(|()| std::fs::rename(&tmp, &out))
        .map_err(|e| format!("{}: cannot write the sheet: {e}", out.display()))?;
    Ok(out)
}
