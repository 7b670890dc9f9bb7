//! Game records on disk: reading one (a regular file of bounded size), the
//! headers that pin what it was played on (the scenario's content hash and
//! the engine's version), and the `[Scenario]` header, written relative to
//! the record's own folder so that a record and its scenario can move
//! together. The notation of the commands is each rule system's; a record
//! is the contract's ([`Record`]), the same for every system.

use sandtable_core::text::path_shown;
use std::fmt;
use std::path::{Path, PathBuf};

use sandtable_core::record::{ParseRecordError, Record};

use crate::Scenario;
use crate::files::{self, ReadFileError};

/// Records larger than this are refused, and never written: a game of the
/// standard table to the longest turn limit (R11) is some 2.5 MB.
pub const MAX_RECORD_BYTES: u64 = 4 * 1024 * 1024;

/// This engine, as the `[Engine]` header names it.
pub use sandtable_core::record::ENGINE;

/// The `[Scenario]` header of games on the embedded default scenario.
pub const EMBEDDED: &str = "embedded:standard";

/// The header of the scenario's content hash ([`Scenario::content_hash`]).
pub const SCENARIO_HASH: &str = sandtable_core::record::header::SCENARIO_HASH;

/// The header of the engine that wrote the record ([`ENGINE`]).
pub const ENGINE_HEADER: &str = sandtable_core::record::header::ENGINE;

/// Why a record could not be read.
#[derive(Debug)]
pub enum ReadRecordError {
    /// The file could not be read.
    File(PathBuf, ReadFileError),
    /// A line is not in the notation.
    Parse(PathBuf, ParseRecordError),
}

impl ReadRecordError {
    /// The bad line, for a record that was read but does not parse.
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadRecordError::Parse(_, e) => Some(e.line),
            ReadRecordError::File(..) => None,
        }
    }
}

impl fmt::Display for ReadRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadRecordError::File(path, e) => {
                write!(f, "{}: cannot read the record: {e}", path_shown(path))
            }
            ReadRecordError::Parse(path, e) => {
                write!(f, "{}:{}: {}", path_shown(path), e.line, e.reason)
            }
        }
    }
}

impl std::error::Error for ReadRecordError {}

/// Reads the text of a record: a regular file of at most [`MAX_RECORD_BYTES`].
pub fn read_text(path: &Path) -> Result<String, ReadRecordError> {
    files::read_text(path, MAX_RECORD_BYTES).map_err(|e| ReadRecordError::File(path.into(), e))
}

/// Reads and parses a record of a rule system's commands.
pub fn read<C>(path: &Path) -> Result<Record<C>, ReadRecordError>
where
    C: Copy + std::str::FromStr,
    C::Err: fmt::Display,
{
    Record::parse(&read_text(path)?).map_err(|e| ReadRecordError::Parse(path.into(), e))
}

/// A record's text, to be written: refused when it would be larger than
/// [`MAX_RECORD_BYTES`], as it could not be read back.
pub fn text_to_write<C: fmt::Display>(record: &Record<C>) -> Result<String, String> {
    let text = record.to_string();
    if text.len() as u64 > MAX_RECORD_BYTES {
        return Err(format!(
            "the record would be {} bytes, and records are read back only up to {MAX_RECORD_BYTES}",
            text.len()
        ));
    }
    Ok(text)
}

/// The headers that pin a record to the scenario and the engine it was
/// played with.
pub fn pins(scenario: &Scenario) -> Vec<(String, String)> {
    pins_of(&scenario.content_hash())
}

/// The pins of a scenario of any system, by its content hash.
pub fn pins_of(hash: &str) -> Vec<(String, String)> {
    vec![
        (SCENARIO_HASH.to_owned(), hash.to_owned()),
        (ENGINE_HEADER.to_owned(), ENGINE.to_owned()),
    ]
}

/// What differs between the pins of a record and the scenario and engine it
/// is replayed with, in words; empty when nothing does (or the record, from
/// before pins, has none).
pub fn check_pins<C>(record: &Record<C>, scenario: &Scenario) -> Vec<String> {
    check_pins_of(record, &scenario.name, &scenario.content_hash())
}

/// As [`check_pins`], for a scenario of any system by its name and content
/// hash.
pub fn check_pins_of<C>(record: &Record<C>, name: &str, now: &str) -> Vec<String> {
    let mut notes = Vec::new();
    if let Some(hash) = record.header(SCENARIO_HASH)
        && hash != now
    {
        notes.push(format!(
            "the scenario \"{name}\" has changed since this game was recorded (content hash {hash}, now {now}): the game may not replay as it was played"
        ));
    }
    if let Some(engine) = record.header(ENGINE_HEADER)
        && engine != ENGINE
    {
        notes.push(format!(
            "this game was recorded by {engine} and is replayed by {ENGINE}: if a command is refused, that may be why"
        ));
    }
    notes
}

/// The `[Scenario]` header of a record to be written at `record_path` for a
/// scenario file: the scenario's path relative to the record's folder, or
/// from the root when the two share no folder below it.
pub fn scenario_header(record_path: &Path, scenario_path: &Path) -> String {
    let folder = match record_path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    files::relative_path(folder, scenario_path)
}

/// The scenario file a record's `[Scenario]` header names: relative to the
/// record's folder, or, for records written before headers were relative,
/// to the folder Sandtable runs in when only that names a file.
pub fn scenario_path(record_path: &Path, header: &str) -> PathBuf {
    let beside = record_path
        .parent()
        .map_or_else(|| PathBuf::from(header), |dir| dir.join(header));
    if !beside.exists() && Path::new(header).exists() {
        PathBuf::from(header)
    } else {
        beside
    }
}
