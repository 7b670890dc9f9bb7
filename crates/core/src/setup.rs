//! What every rule system says of a setup it refuses: each problem with the
//! field it lies in, the ruling it breaks and what is wrong, in plain words.
//! A rule system's crate checks its own setups; the scenario crate turns
//! these problems into a file's located errors.

use std::fmt;

use crate::game::Ruling;

/// At most this many problems of a setup are kept; the rest are counted, so
/// that a setup with millions of problems costs no more memory than one with
/// a thousand.
pub const MAX_PROBLEMS_KEPT: usize = 1_000;

/// One problem with a setup, located by the path of the field that causes it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SetupProblem {
    /// Field path, as in the scenario file: `players[1].factors[0].units[3]`,
    /// `pieces[3].infantry`.
    pub path: String,
    /// The ruling that is broken, if the problem breaks one.
    pub ruling: Option<Ruling>,
    /// What is wrong, in plain words.
    pub message: String,
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)?;
        if let Some(r) = self.ruling {
            write!(f, " ({r})")?;
        }
        Ok(())
    }
}

/// A setup that breaks the rulings, with the problems found: at most
/// [`MAX_PROBLEMS_KEPT`] of them, and the count of the others.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetupError {
    /// The problems kept, in the order of the fields.
    pub problems: Vec<SetupProblem>,
    /// How many more problems were found and not kept.
    pub more: usize,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.problems.len() + self.more;
        write!(
            f,
            "the setup has {n} problem{}",
            if n == 1 { "" } else { "s" }
        )?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        if self.more > 0 {
            write!(f, "\n  and {} more", self.more)?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_error_counts_every_problem_and_lists_those_kept() {
        let problem = |path: &str, ruling| SetupProblem {
            path: path.into(),
            ruling,
            message: "is wrong".into(),
        };
        let one = SetupError {
            problems: vec![problem("map", Some(Ruling(60)))],
            more: 0,
        };
        assert_eq!(
            one.to_string(),
            "the setup has 1 problem\n  map: is wrong (R60)"
        );
        let many = SetupError {
            problems: vec![problem("a", None), problem("b", Some(Ruling(2)))],
            more: 3,
        };
        assert_eq!(
            many.to_string(),
            "the setup has 5 problems\n  a: is wrong\n  b: is wrong (R2)\n  and 3 more"
        );
    }
}
