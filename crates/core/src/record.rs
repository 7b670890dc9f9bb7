//! Game records, one format for every rule system: header lines
//! `[Key "value"]` (the scenario, its hash, the engine, the seed, the turn
//! limit, scripted dice, seats), then one command a line in the system's
//! move notation, with `#` comments.

use std::fmt;
use std::str::FromStr;

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
                record
                    .headers
                    .push(parse_header(trimmed).ok_or_else(|| ParseRecordError {
                        line,
                        reason: format!(
                            "`{trimmed}` is not a header: write [Key \"value\"], with \\\" for a quote in the value"
                        ),
                    })?);
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
