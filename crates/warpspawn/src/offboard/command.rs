//! The notation of the ring's own commands, one spelling a command, in
//! the style of `march`: the Orders phase's sealed orders, splits, merges
//! and commit (R45, R47, R54), and a fight's sealed forces, cancelled dice
//! and fall-backs (R50-R52). Written as they are read.

use std::fmt;
use std::str::FromStr;

use super::counter::Composition;
use super::counter::{command_words, read_pieces};
use super::ring::Square;
use crate::words::{Words, number};

/// The longest path an order may name: a horse counter's rate behind the
/// lines (R44).
pub const MAX_PATH: usize = 3;

/// The squares a path enters, in order: one to [`MAX_PATH`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Path {
    len: u8,
    squares: [Square; MAX_PATH],
}

impl Path {
    /// Whether a path read back holds one to [`MAX_PATH`] squares of `ring`.
    pub(crate) fn fits(&self, ring: &super::ring::Ring) -> bool {
        (1..=MAX_PATH).contains(&usize::from(self.len))
            && self.squares[..usize::from(self.len)]
                .iter()
                .all(|sq| ring.holds(*sq))
    }

    /// The path entering `squares`, one to [`MAX_PATH`] of them.
    pub fn from_slice(squares: &[Square]) -> Option<Path> {
        if squares.is_empty() || squares.len() > MAX_PATH {
            return None;
        }
        let mut path = Path {
            len: squares.len() as u8,
            squares: [Square::default(); MAX_PATH],
        };
        path.squares[..squares.len()].copy_from_slice(squares);
        Some(path)
    }

    /// The squares entered, in order.
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..usize::from(self.len)]
    }
}

impl std::ops::Deref for Path {
    type Target = [Square];

    fn deref(&self) -> &[Square] {
        self.as_slice()
    }
}

/// What a counter is ordered to do in the Orders phase (R47).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Order {
    /// Stay where it is.
    Hold,
    /// The squares entered, in order (R44, R49).
    Path(Path),
    /// Come onto the map in its side's March phase (R48).
    Enter,
}

impl Order {
    /// Whether an order read back names only squares of `ring`.
    pub(crate) fn fits(&self, ring: &super::ring::Ring) -> bool {
        match self {
            Order::Path(p) => p.fits(ring),
            Order::Hold | Order::Enter => true,
        }
    }

    /// Whether the enemy reads this order, revealed (R47), of a counter
    /// that started at `at`: only where neither its start nor a square of
    /// its path lies in its side's `reserve`, where a counter shows the
    /// enemy nothing (R46, R57). The log, the views and the masked copies
    /// ask this one question.
    pub fn shows_enemy(
        &self,
        at: super::ring::Square,
        reserve: &std::collections::BTreeSet<super::ring::Square>,
    ) -> bool {
        !reserve.contains(&at)
            && match self {
                Order::Path(path) => path.iter().all(|sq| !reserve.contains(sq)),
                Order::Hold | Order::Enter => true,
            }
    }
}

/// A command of the off-board grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum GridCommand {
    /// `order 5 2E 2F`, `order 5 hold`, `order 5 enter`, each with a
    /// trailing `scout` for a scout (R47, R54); sealed.
    Order {
        /// The counter's number.
        counter: u16,
        /// Its order.
        order: Order,
        /// It scouts (R54).
        scout: bool,
    },
    /// `split 5 inf 10 cav 2`: those pieces leave counter 5 as a new
    /// counter, which takes the lowest free number (R45).
    Split {
        /// The counter split.
        counter: u16,
        /// The pieces of the new counter.
        pieces: Composition,
    },
    /// `merge 5 7`: counter 7 joins counter 5 in its square (R45).
    Merge {
        /// The counter that stays.
        counter: u16,
        /// The counter that joins it.
        joining: u16,
    },
    /// The side's orders, or its forces, are complete and sealed (R47,
    /// R51).
    Commit,
    /// `forces 5 inf 10 cav 2 officer 1 cannon`, or `forces 5 all`: what
    /// counter 5 commits to the fight, sealed (R51).
    Forces {
        /// The counter.
        counter: u16,
        /// The pieces committed; `None` is all of them.
        pieces: Option<Composition>,
    },
    /// `cancel 2`: the side with more dice cancels two enemy dice (R52).
    Cancel(u32),
    /// `fallback 2B`: a losing defender falls back to 2B (R50).
    Fallback(Square),
}

/// Why a text is not one of the grid's commands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseGridCommandError {
    /// The text read.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

impl fmt::Display for ParseGridCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a command of the off-board grid: {}",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseGridCommandError {}

impl fmt::Display for GridCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GridCommand::Order {
                counter,
                order,
                scout,
            } => {
                write!(f, "order {counter}")?;
                match order {
                    Order::Hold => write!(f, " hold")?,
                    Order::Enter => write!(f, " enter")?,
                    Order::Path(path) => {
                        for sq in path.as_slice() {
                            write!(f, " {sq}")?;
                        }
                    }
                }
                if *scout {
                    write!(f, " scout")?;
                }
                Ok(())
            }
            GridCommand::Split { counter, pieces } => {
                write!(f, "split {counter} {}", command_words(pieces))
            }
            GridCommand::Merge { counter, joining } => write!(f, "merge {counter} {joining}"),
            GridCommand::Commit => write!(f, "commit"),
            GridCommand::Forces { counter, pieces } => match pieces {
                Some(p) => write!(f, "forces {counter} {}", command_words(p)),
                None => write!(f, "forces {counter} all"),
            },
            GridCommand::Cancel(n) => write!(f, "cancel {n}"),
            GridCommand::Fallback(sq) => write!(f, "fallback {sq}"),
        }
    }
}

fn parse(text: &str) -> Result<GridCommand, String> {
    let mut w = Words::new(text);
    let verb = w.next().ok_or("it is empty")?.to_ascii_lowercase();
    let command = match verb.as_str() {
        "order" => {
            let counter = number(&mut w, "order")?;
            let order = match w.peek().map(str::to_ascii_lowercase).as_deref() {
                Some("hold") => {
                    w.next();
                    Order::Hold
                }
                Some("enter") => {
                    w.next();
                    Order::Enter
                }
                _ => {
                    let mut path = Vec::new();
                    while let Some(word) = w.peek() {
                        if word.eq_ignore_ascii_case("scout") {
                            break;
                        }
                        w.next();
                        path.push(word.parse::<Square>().map_err(|e| e.to_string())?);
                    }
                    if path.is_empty() {
                        return Err(
                            "an order is `hold`, `enter` or the squares entered: order 5 2E 2F (R47)"
                                .into(),
                        );
                    }
                    if path.len() > MAX_PATH {
                        return Err(format!(
                            "a path enters at most {MAX_PATH} squares, the fastest rate (R44)"
                        ));
                    }
                    Order::Path(Path::from_slice(&path).expect("one to three squares"))
                }
            };
            let scout = w
                .peek()
                .is_some_and(|word| word.eq_ignore_ascii_case("scout"));
            if scout {
                w.next();
            }
            GridCommand::Order {
                counter,
                order,
                scout,
            }
        }
        "split" => {
            let counter = number(&mut w, "split")?;
            GridCommand::Split {
                counter,
                pieces: read_pieces(&mut w)?,
            }
        }
        "merge" => {
            let counter = number(&mut w, "merge")?;
            let joining = number(&mut w, "merge")?;
            if joining == counter {
                return Err("a counter does not merge with itself".into());
            }
            GridCommand::Merge { counter, joining }
        }
        "commit" => GridCommand::Commit,
        "forces" => {
            let counter = number(&mut w, "forces")?;
            let all = w
                .peek()
                .is_some_and(|word| word.eq_ignore_ascii_case("all"));
            if all {
                w.next();
            }
            GridCommand::Forces {
                counter,
                pieces: if all {
                    None
                } else {
                    Some(read_pieces(&mut w)?)
                },
            }
        }
        "cancel" => {
            let word = w
                .next()
                .ok_or("`cancel` needs a number of dice: cancel 2 (R52)")?;
            GridCommand::Cancel(
                word.parse::<u32>()
                    .map_err(|_| format!("`{word}` is not a number of dice"))?,
            )
        }
        "fallback" => {
            let word = w
                .next()
                .ok_or("`fallback` needs a square: fallback 2B (R50)")?;
            GridCommand::Fallback(word.parse::<Square>().map_err(|e| e.to_string())?)
        }
        other => {
            return Err(format!(
                "`{other}` is not a verb of the grid: order, split, merge, commit, forces, cancel or fallback"
            ));
        }
    };
    w.done()?;
    Ok(command)
}

impl FromStr for GridCommand {
    type Err = ParseGridCommandError;

    fn from_str(text: &str) -> Result<GridCommand, ParseGridCommandError> {
        parse(text).map_err(|reason| ParseGridCommandError {
            text: text.to_owned(),
            reason,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_and_prints_back() {
        for text in [
            "order 5 2E 2F",
            "order 5 2E 2F 1G scout",
            "order 5 hold",
            "order 5 hold scout",
            "order 5 enter",
            "split 5 inf 10 cav 2",
            "split 5 inf 4 officer 1 cannon baggage flag",
            "merge 5 7",
            "commit",
            "forces 5 inf 10 cav 2 officer 1 cannon",
            "forces 5 all",
            "cancel 2",
            "fallback 2B",
        ] {
            let command: GridCommand = text.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(command.to_string(), text);
        }
        // Words in any case and either spelling read the same.
        for (typed, read) in [
            ("ORDER 5 HOLD Scout", "order 5 hold scout"),
            ("order 5 2e 2f", "order 5 2E 2F"),
            ("forces 5 All", "forces 5 all"),
        ] {
            assert_eq!(
                typed.parse::<GridCommand>().map(|c| c.to_string()),
                Ok(read.to_owned())
            );
        }
        assert_eq!(
            "split 5 infantry 3"
                .parse::<GridCommand>()
                .map(|c| c.to_string()),
            Ok("split 5 inf 3".to_owned())
        );
    }

    #[test]
    fn mistakes_say_what_is_wrong() {
        let why = |text: &str| text.parse::<GridCommand>().expect_err("refused").reason;
        assert_eq!(
            why("order 5"),
            "an order is `hold`, `enter` or the squares entered: order 5 2E 2F (R47)"
        );
        assert_eq!(
            why("order 5 2E 2F 2G 2H"),
            "a path enters at most 3 squares, the fastest rate (R44)"
        );
        assert!(why("order 5 C1").contains("`C1` is not a grid square's name"));
        assert_eq!(
            why("order 0 hold"),
            "`0` is not a counter's number (1 or more)"
        );
        assert_eq!(why("merge 5 5"), "a counter does not merge with itself");
        assert_eq!(
            why("split 5"),
            "name the pieces: inf 10 cav 2 officer 1 cannon baggage flag"
        );
        assert_eq!(why("split 5 inf 2 inf 3"), "`inf` is named twice");
        assert_eq!(why("forces 5 all inf 2"), "`inf` was not expected there");
        assert_eq!(why("order 5 hold now"), "`now` was not expected there");
        assert_eq!(
            why("split 5 prisoners 2"),
            "`prisoners` is not a piece of a counter: inf, cav, officer, cannon, baggage or flag"
        );
        assert_eq!(
            why("retreat 5"),
            "`retreat` is not a verb of the grid: order, split, merge, commit, forces, cancel or fallback"
        );
    }
}
