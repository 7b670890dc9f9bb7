//! The move notation: a plain-text game record, one command a line, `#` starts
//! a comment, optional `[Key "value"]` header lines first. Parsing and printing
//! only; applying the commands is the caller's business.

use std::fmt;
use std::str::FromStr;

use crate::command::Command;
use crate::geometry::Square;

/// Why a command could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCommandError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseCommandError {}

const WORDS: &str = "activate SQUARE, left, right, advance, advance SQUARE, end, pass, pick SQUARE, place SQUARE FACING [CAPTIVE], resign, offer draw or accept draw";

impl FromStr for Command {
    type Err = ParseCommandError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let err = |reason: String| ParseCommandError {
            text: text.trim().to_owned(),
            reason,
        };
        let mut words = text.split_whitespace();
        let Some(word) = words.next() else {
            return Err(err(format!("empty command: expected {WORDS}")));
        };
        let arg = words.next();
        let (third, fourth) = if word.eq_ignore_ascii_case("place") {
            (words.next(), words.next())
        } else {
            (None, None)
        };
        if let Some(extra) = words.next() {
            return Err(err(format!("unexpected `{extra}` at the end")));
        }
        let square = |arg: Option<&str>| -> Result<Square, ParseCommandError> {
            arg.ok_or_else(|| err(format!("`{word}` needs a square, like `{word} C7`")))?
                .parse()
                .map_err(|e: crate::geometry::ParseSquareError| err(e.to_string()))
        };
        let bare = |command: Command| match arg {
            None => Ok(command),
            Some(a) => Err(err(format!("`{word}` takes no square, found `{a}`"))),
        };
        match word.to_ascii_lowercase().as_str() {
            "activate" => Ok(Command::Activate(square(arg)?)),
            "left" => bare(Command::TurnLeft),
            "right" => bare(Command::TurnRight),
            "advance" => match arg {
                None => Ok(Command::Advance),
                Some(_) => Ok(Command::AdvanceTo(square(arg)?)),
            },
            "end" => bare(Command::End),
            "pass" => bare(Command::Pass),
            "pick" => Ok(Command::Pick(square(arg)?)),
            "resign" => bare(Command::Resign),
            "offer" | "accept" => match arg {
                Some(a) if a.eq_ignore_ascii_case("draw") => {
                    Ok(if word.eq_ignore_ascii_case("offer") {
                        Command::OfferDraw
                    } else {
                        Command::AcceptDraw
                    })
                }
                _ => Err(err(format!("write `{} draw`", word.to_ascii_lowercase()))),
            },
            "place" => {
                let sq = square(arg)?;
                let facing = third
                    .ok_or_else(|| {
                        err("`place` needs a square and a facing, like `place D5 N`".to_owned())
                    })?
                    .parse()
                    .map_err(|e: crate::geometry::ParseFacingError| err(e.to_string()))?;
                match fourth {
                    None => Ok(Command::Place(sq, facing)),
                    Some(captive) => Ok(Command::PlaceCaptive(
                        sq,
                        facing,
                        parse_captive(captive).ok_or_else(|| {
                            err(format!(
                                "`{captive}` does not name a captive: write its Factor and its unit in that Factor, from 0, like `0:3`"
                            ))
                        })?,
                    )),
                }
            }
            _ => Err(err(format!("unknown command `{word}`: expected {WORDS}"))),
        }
    }
}

/// Reads `F:U`, a captive named by its Factor and its unit in that Factor.
fn parse_captive(text: &str) -> Option<crate::command::Captive> {
    let (factor, unit) = text.split_once(':')?;
    let number = |t: &str| {
        (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse().ok())
            .flatten()
    };
    Some(crate::command::Captive {
        factor: number(factor)?,
        unit: number(unit)?,
    })
}

/// A game record of Cache: headers and commands in the move notation (the
/// contract's record, [`sandtable_core::record::Record`]).
pub type Record = sandtable_core::record::Record<Command>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_print_and_parse_back() {
        let text = "[Scenario \"standard.ron\"]\n[Seed \"42\"]\nactivate C7\nleft\nright\nadvance\nadvance F7\nend\npass\npick C7\nplace D5 N\n";
        let record = Record::parse(text).unwrap();
        assert_eq!(record.header("Seed"), Some("42"));
        assert_eq!(record.commands.len(), 9);
        assert_eq!(record.to_string(), text, "printing gives the text back");
        let again = Record::parse(&record.to_string()).unwrap();
        assert_eq!(again.command_list(), record.command_list());
    }

    #[test]
    fn comments_blank_lines_and_case_are_accepted() {
        let record =
            Record::parse("# opening\n\n  ACTIVATE c7   # the sergeant\nAdvance\n").unwrap();
        assert_eq!(
            record.commands,
            vec![
                (3, Command::Activate("C7".parse().unwrap())),
                (4, Command::Advance)
            ]
        );
    }

    #[test]
    fn header_values_with_quotes_hashes_backslashes_and_control_characters_read_back() {
        let values = [
            "my \"best\" game #3.ron",
            "C:\\games\\x.ron",
            "line\nbreak\tand\u{1b}[31m escape",
            "",
            "ünïcödé ♞",
        ];
        let record = Record {
            headers: values
                .iter()
                .enumerate()
                .map(|(i, v)| (format!("Key{i}"), (*v).to_owned()))
                .collect(),
            commands: vec![(1, Command::Pass)],
        };
        let text = record.to_string();
        assert_eq!(
            text.lines().count(),
            values.len() + 1,
            "one line a header: {text}"
        );
        let back = Record::parse(&text).expect("what the printer writes reads back");
        assert_eq!(back.headers, record.headers);
        assert_eq!(back.command_list(), record.command_list());
    }

    #[test]
    fn records_written_before_values_were_escaped_still_read() {
        let record = Record::parse("[Scenario \"C:\\users\\new\\x.ron\"]  # where it was\npass\n")
            .expect("reads");
        assert_eq!(record.header("Scenario"), Some("C:\\users\\new\\x.ron"));
        assert_eq!(record.command_list(), vec![Command::Pass]);
    }

    #[test]
    fn bad_lines_are_refused_with_their_number_and_reason() {
        for (text, line, reason) in [
            ("activate C7\njump\n", 2, "unknown command `jump`"),
            ("activate\n", 1, "needs a square"),
            ("left C7\n", 1, "takes no square"),
            ("advance 7C\n", 1, "not a square name"),
            ("pass now please\n", 1, "unexpected"),
            ("pass\n[Seed \"1\"]\n", 2, "before the first command"),
            ("[Seed 1]\n", 1, "not a header"),
            ("[Seed \"1\" extra]\n", 1, "not a header"),
            ("[Seed \"1]\n", 1, "not a header"),
            ("[Seed \"\\u{110000}\"]\n", 1, "not a header"),
            ("place D5\n", 1, "needs a square and a facing"),
            ("place D5 Q\n", 1, "not a facing"),
            ("pick\n", 1, "needs a square"),
        ] {
            let err = Record::parse(text).unwrap_err();
            assert_eq!(err.line, line, "line of the error in {text:?}");
            assert!(
                err.reason.contains(reason),
                "{text:?} gave `{err}`, expected `{reason}`"
            );
        }
    }
}
