//! Game records, one format for every rule system: header lines
//! `[Key "value"]` (the scenario, its hash, the engine, the seed, the turn
//! limit, scripted dice, seats), then one command a line in the system's
//! move notation, with `#` comments.

use std::fmt;
use std::str::FromStr;

/// The headers every system's records share, by name.
pub mod header {
    /// The scenario file, relative to the record's folder (from the root
    /// when the two share no folder below it).
    pub const SCENARIO: &str = "Scenario";
    /// The scenario's content hash, that pins the record to it.
    pub const SCENARIO_HASH: &str = "ScenarioHash";
    /// The engine that wrote the record ([`super::ENGINE`]).
    pub const ENGINE: &str = "Engine";
    /// The seed of the game's dice.
    pub const SEED: &str = "Seed";
    /// The turn limit, in the system's turns.
    pub const TURN_LIMIT: &str = "TurnLimit";
    /// Scripted dice (R30): the rolls, as `4 2 5`.
    pub const DICE: &str = "Dice";
    /// What rolls after the rolls of `[Dice]`: `real` dice typed in, or
    /// the `generator`. A record without it goes on with real dice.
    pub const DICE_AFTER: &str = "DiceAfter";
    /// Each seat, `person` or `bot N`, in seat order ([`super::write_seats`]).
    pub const SEATS: &str = "Seats";
}

/// This engine, as the `[Engine]` header names it.
pub const ENGINE: &str = concat!("sandtable ", env!("CARGO_PKG_VERSION"));

/// Who plays a seat, as the `[Seats]` header says it: `person`, or a bot
/// of a strength level from 1 (`bot 3`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SeatPlayer {
    /// A person at the table.
    Person,
    /// A bot of this strength level.
    Bot(u8),
}

/// The `[Seats]` header's value: each seat's player, in seat order.
pub fn write_seats(seats: &[SeatPlayer]) -> String {
    let words: Vec<String> = seats
        .iter()
        .map(|s| match s {
            SeatPlayer::Person => "person".to_owned(),
            SeatPlayer::Bot(level) => format!("bot {level}"),
        })
        .collect();
    words.join(", ")
}

/// Reads a `[Seats]` header for a game of `players` seats whose bots are
/// of strength 1 to `strongest`, saying what is wrong otherwise.
pub fn read_seats(text: &str, players: usize, strongest: u8) -> Result<Vec<SeatPlayer>, String> {
    let seats: Vec<SeatPlayer> = text
        .split(',')
        .map(|word| {
            let word = word.trim();
            let bot = word
                .strip_prefix("bot ")
                .and_then(|n| n.trim().parse::<u8>().ok())
                .filter(|n| (1..=strongest).contains(n));
            match (word, bot) {
                ("person", _) => Ok(SeatPlayer::Person),
                (_, Some(level)) => Ok(SeatPlayer::Bot(level)),
                _ => Err(format!(
                    "`{word}` is not a seat: write person or bot 1 to {strongest}"
                )),
            }
        })
        .collect::<Result<_, _>>()?;
    if seats.len() != players {
        return Err(format!(
            "{} seats named for a game of {players} players",
            seats.len()
        ));
    }
    Ok(seats)
}

/// A game record: headers and commands, each command with its line number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<C> {
    /// Header lines `[Key "value"]`, in order.
    pub headers: Vec<(String, String)>,
    /// Commands with the 1-based line they stand on.
    pub commands: Vec<(usize, C)>,
}

/// Why a record could not be read: the first bad line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseRecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong there.
    pub reason: String,
}

impl fmt::Display for ParseRecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for ParseRecordError {}

impl<C> Default for Record<C> {
    fn default() -> Self {
        Record {
            headers: Vec::new(),
            commands: Vec::new(),
        }
    }
}

impl<C> Record<C> {
    /// A header read as a number, if the record has it; what is wrong with
    /// it otherwise.
    pub fn header_number<T: FromStr>(&self, key: &str) -> Result<Option<T>, String> {
        self.header(key)
            .map(|v| {
                v.parse()
                    .map_err(|_| format!("the [{key}] header `{v}` is not a number"))
            })
            .transpose()
    }

    /// The value of a header, if present.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

impl<C: Copy> Record<C> {
    /// A record of these commands with no headers.
    pub fn from_commands(commands: impl IntoIterator<Item = C>) -> Record<C> {
        Record {
            headers: Vec::new(),
            commands: commands
                .into_iter()
                .enumerate()
                .map(|(i, c)| (i + 1, c))
                .collect(),
        }
    }

    /// The commands alone.
    pub fn command_list(&self) -> Vec<C> {
        self.commands.iter().map(|(_, c)| *c).collect()
    }

    /// Reads a record. Header values may hold any text, escaped as the
    /// printer writes them (`\\` a backslash, `\"` a quote, `\u{a}` a
    /// control character); a backslash before anything else is read as
    /// itself, as records written before values were escaped hold it.
    pub fn parse(text: &str) -> Result<Record<C>, ParseRecordError>
    where
        C: FromStr,
        C::Err: fmt::Display,
    {
        let mut record = Record::default();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let trimmed = raw.trim();
            if trimmed.starts_with('[') {
                if !record.commands.is_empty() {
                    return Err(ParseRecordError {
                        line,
                        reason: "header lines come before the first command".to_owned(),
                    });
                }
                let (key, value) = parse_header(trimmed).ok_or_else(|| ParseRecordError {
                    line,
                    reason: format!(
                        "`{trimmed}` is not a header: write [Key \"value\"], with \\\" for a quote in the value"
                    ),
                })?;
                // A second value for a key would leave it to the reader which
                // one counts.
                if record.headers.iter().any(|(k, _)| *k == key) {
                    return Err(ParseRecordError {
                        line,
                        reason: format!("a second [{key}] header: a record gives each header once"),
                    });
                }
                record.headers.push((key, value));
                continue;
            }
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let command = content.parse().map_err(|e: C::Err| ParseRecordError {
                line,
                reason: e.to_string(),
            })?;
            record.commands.push((line, command));
        }
        Ok(record)
    }
}

/// The headers at the top of a record's `text`, up to its first command,
/// without reading a command: what a record says it is a game of, before
/// its commands are read in some system's notation. A line that is not a
/// header ends them.
pub fn leading_headers(text: &str) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    for raw in text.lines() {
        let trimmed = raw.trim();
        if trimmed.starts_with('[') {
            match parse_header(trimmed) {
                Some(header) => headers.push(header),
                None => break,
            }
        } else if !raw.split('#').next().unwrap_or("").trim().is_empty() {
            break;
        }
    }
    headers
}

/// Reads `[Key "value"]`, with an optional `# comment` after it.
fn parse_header(content: &str) -> Option<(String, String)> {
    let inner = content.strip_prefix('[')?;
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    if key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let mut chars = rest.trim_start().strip_prefix('"')?.chars();
    let mut value = String::new();
    loop {
        match chars.next()? {
            '"' => break,
            '\\' => {
                let after = chars.clone();
                match chars.next() {
                    Some('\\') => value.push('\\'),
                    Some('"') => value.push('"'),
                    Some('u') if chars.as_str().starts_with('{') => {
                        let (hex, _) = chars.as_str()[1..].split_once('}')?;
                        if !(1..=6).contains(&hex.len()) {
                            return None;
                        }
                        value.push(char::from_u32(u32::from_str_radix(hex, 16).ok()?)?);
                        chars.nth(hex.len() + 1);
                    }
                    // A lone backslash, as older records wrote Windows paths.
                    _ => {
                        value.push('\\');
                        chars = after;
                    }
                }
            }
            c => value.push(c),
        }
    }
    let after = chars.as_str().trim_start().strip_prefix(']')?.trim_start();
    (after.is_empty() || after.starts_with('#')).then_some((key.to_owned(), value))
}

/// A header value as the record holds it: backslashes, quotes and control
/// characters escaped, so that every value reads back.
fn escape_header(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
            c => out.push(c),
        }
    }
    out
}

impl<C: fmt::Display> fmt::Display for Record<C> {
    /// Prints headers, then one command a line; parsing the text gives the
    /// same headers and commands.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (key, value) in &self.headers {
            writeln!(f, "[{key} \"{}\"]", escape_header(value))?;
        }
        for (_, command) in &self.commands {
            writeln!(f, "{command}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_read_back_as_written_and_mistakes_say_where() {
        let seats = [SeatPlayer::Person, SeatPlayer::Bot(3)];
        assert_eq!(write_seats(&seats), "person, bot 3");
        assert_eq!(read_seats("person, bot 3", 2, 5), Ok(seats.to_vec()));
        assert_eq!(read_seats(" person ,bot  3 ", 2, 5), Ok(seats.to_vec()));
        assert_eq!(
            read_seats("person, bot 6", 2, 5),
            Err("`bot 6` is not a seat: write person or bot 1 to 5".to_owned())
        );
        assert_eq!(
            read_seats("robot", 1, 5),
            Err("`robot` is not a seat: write person or bot 1 to 5".to_owned())
        );
        assert_eq!(
            read_seats("person", 2, 5),
            Err("1 seats named for a game of 2 players".to_owned())
        );
    }

    #[test]
    fn a_header_given_twice_is_refused_at_its_second_line() {
        let once = Record::<u8>::parse("[Seed \"4\"]\n[Dice \"2 5\"]\n1\n").expect("one of each");
        assert_eq!(once.header("Dice"), Some("2 5"));
        let twice = Record::<u8>::parse("[Dice \"2 5\"]\n# a comment\n[Dice \"6\"]\n1\n");
        assert_eq!(
            twice,
            Err(ParseRecordError {
                line: 3,
                reason: "a second [Dice] header: a record gives each header once".to_owned()
            }),
            "two values for one key must not leave the reader to pick one"
        );
    }
}
