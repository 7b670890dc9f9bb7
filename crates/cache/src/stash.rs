//! The stash list of The Snyder Skirmish (R21, R23): 36 rows, one for each
//! roll of two d6 read as tens and units. The seed's list is embedded as RON;
//! a scenario may bring its own, validated here. Carrying results out is left
//! to `event`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The seed's stash list, as RON.
pub const DEFAULT_STASH_LIST: &str = include_str!("../data/stash-list.ron");

/// The most additional actions a stash result may grant.
pub const MAX_EXTRA_ACTIONS: u8 = 9;

/// What a stash gives (R23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum StashResult {
    /// Place this unit anywhere on board.
    PlaceAnywhere,
    /// Now, take up to N additional actions with any one unit.
    ExtraActions(u8),
    /// If possible return one unfriendly unit to within 2 areas of its base,
    /// otherwise capture the unit.
    ReturnUnfriendly,
    /// Return one captured friendly unit to the board within 2 areas of its base.
    ReturnCapturedFriend,
    /// Return this unit to within 2 areas of its base or discard this unit.
    ReturnThisUnit,
    /// Sorry, nothing.
    Nothing,
}

impl fmt::Display for StashResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StashResult::PlaceAnywhere => f.write_str("place this unit anywhere on board"),
            StashResult::ExtraActions(n) => {
                let words = [
                    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                ];
                let n = usize::from(*n);
                write!(
                    f,
                    "take up to {} additional action{} with any one unit",
                    words.get(n).copied().unwrap_or("many"),
                    if n == 1 { "" } else { "s" }
                )
            }
            StashResult::ReturnUnfriendly => f.write_str(
                "if possible return one unfriendly unit to within 2 areas of its base, otherwise capture the unit",
            ),
            StashResult::ReturnCapturedFriend => {
                f.write_str("return one captured friendly unit to the board within 2 areas of its base")
            }
            StashResult::ReturnThisUnit => {
                f.write_str("return this unit to within 2 areas of its base or discard this unit")
            }
            StashResult::Nothing => f.write_str("sorry, nothing"),
        }
    }
}

/// One row of a stash list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StashRow {
    /// The roll, 11 to 66: tens and units are each a d6.
    pub roll: u8,
    /// Its result.
    pub result: StashResult,
}

/// A complete stash list: a result for every roll from 11 to 66.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct StashList {
    #[serde(with = "sandtable_core::wire::array")]
    results: [StashResult; 36],
}

/// Index of a roll in the list: tens and units each 1 to 6.
fn slot(roll: u8) -> Option<usize> {
    let (tens, units) = (roll / 10, roll % 10);
    ((1..=6).contains(&tens) && (1..=6).contains(&units))
        .then(|| usize::from(tens - 1) * 6 + usize::from(units - 1))
}

impl StashList {
    /// The seed's list (Table C).
    pub fn seed_default() -> StashList {
        StashList::from_ron(DEFAULT_STASH_LIST).expect("the embedded stash list is valid")
    }

    /// Validates rows: all 36 rolls from 11 to 66 once each, every result a
    /// known kind with N from 1 to 9. Lists every problem.
    pub fn from_rows(rows: &[StashRow]) -> Result<StashList, Vec<String>> {
        let mut problems = Vec::new();
        let mut results: [Option<StashResult>; 36] = [None; 36];
        for (i, row) in rows.iter().enumerate() {
            let Some(k) = slot(row.roll) else {
                problems.push(format!(
                    "row {i}: roll {} is not two d6 read as tens and units (11 to 66, digits 1 to 6)",
                    row.roll
                ));
                continue;
            };
            if let StashResult::ExtraActions(n) = row.result
                && !(1..=MAX_EXTRA_ACTIONS).contains(&n)
            {
                problems.push(format!(
                    "row {i}: roll {}: additional actions must be 1 to {MAX_EXTRA_ACTIONS}, not {n}",
                    row.roll
                ));
            }
            if results[k].replace(row.result).is_some() {
                problems.push(format!("row {i}: roll {} is listed twice", row.roll));
            }
        }
        let missing: Vec<String> = (0..36)
            .filter(|k| results[*k].is_none())
            .map(|k| format!("{}{}", k / 6 + 1, k % 6 + 1))
            .collect();
        if !missing.is_empty() {
            problems.push(format!(
                "a stash list has all 36 rolls from 11 to 66; missing: {}",
                missing.join(", ")
            ));
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(StashList {
            results: results.map(|r| r.unwrap_or(StashResult::Nothing)),
        })
    }

    /// Reads a list from RON text: `[(roll: 11, result: PlaceAnywhere), ...]`.
    pub fn from_ron(text: &str) -> Result<StashList, Vec<String>> {
        let rows: Vec<StashRow> = ron::from_str(text).map_err(|e| vec![e.to_string()])?;
        StashList::from_rows(&rows)
    }

    /// The result of a roll from 11 to 66.
    pub fn result(&self, roll: u8) -> Option<StashResult> {
        slot(roll).map(|k| self.results[k])
    }

    /// Every row, from 11 to 66.
    pub fn rows(&self) -> impl Iterator<Item = StashRow> + '_ {
        self.results.iter().enumerate().map(|(k, r)| StashRow {
            roll: ((k / 6 + 1) * 10 + k % 6 + 1) as u8,
            result: *r,
        })
    }
}

impl Default for StashList {
    fn default() -> Self {
        StashList::seed_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    #[test]
    fn r21_the_default_list_is_the_seeds_table_c() {
        let list = StashList::seed_default();
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for row in list.rows() {
            *counts.entry(format!("{:?}", row.result)).or_default() += 1;
        }
        let expected: BTreeMap<String, usize> = [
            ("PlaceAnywhere", 4),
            ("ExtraActions(3)", 7),
            ("ExtraActions(4)", 7),
            ("ExtraActions(5)", 1),
            ("ReturnUnfriendly", 8),
            ("ReturnCapturedFriend", 2),
            ("ReturnThisUnit", 2),
            ("Nothing", 5),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        assert_eq!(counts, expected);
        assert_eq!(list.result(11), Some(StashResult::PlaceAnywhere));
        assert_eq!(list.result(42), Some(StashResult::ExtraActions(5)));
        assert_eq!(list.result(66), Some(StashResult::ReturnUnfriendly));
        assert_eq!(list.result(24), Some(StashResult::Nothing));
        assert_eq!(list.result(17), None, "7 is not a face of a d6");
        assert_eq!(
            StashResult::ExtraActions(5).to_string(),
            "take up to five additional actions with any one unit"
        );
    }

    #[test]
    fn r21_a_list_missing_rolls_or_with_bad_rows_is_refused_with_every_problem() {
        let mut rows: Vec<StashRow> = StashList::seed_default().rows().collect();
        rows[0].roll = 17;
        rows[1].result = StashResult::ExtraActions(0);
        rows.push(rows[2]);
        let problems = StashList::from_rows(&rows).unwrap_err();
        assert_eq!(
            problems,
            [
                "row 0: roll 17 is not two d6 read as tens and units (11 to 66, digits 1 to 6)",
                "row 1: roll 12: additional actions must be 1 to 9, not 0",
                "row 36: roll 13 is listed twice",
                "a stash list has all 36 rolls from 11 to 66; missing: 11",
            ]
        );
    }
}
