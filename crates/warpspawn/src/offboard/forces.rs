//! One side's forces in a fight (R51): it picks in secret which pieces of
//! each of its counters there take part, then commits; both sides' picks
//! are revealed together with their points, the rest staying private.

use std::collections::BTreeMap;

use super::command::GridCommand;
use super::counter::{Composition, Counter};

/// Why a pick of forces is refused. Each names its ruling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForcesError {
    /// The side has committed its forces (R51).
    Committed,
    /// No counter of that number of the side is in the fight.
    NotInTheFight(u16),
    /// The counter's forces are picked already.
    Picked(u16),
    /// It names pieces the counter lacks.
    NotHeld(u16),
    /// A command of the Orders phase, not of a fight.
    NotAFight,
}

impl std::fmt::Display for ForcesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ForcesError::Committed => write!(
                f,
                "your forces are committed: they are revealed when both sides have (R51)"
            ),
            ForcesError::NotInTheFight(n) => {
                write!(f, "counter {n} of yours is not in this fight (R51)")
            }
            ForcesError::Picked(n) => write!(f, "counter {n}'s forces are picked already (R51)"),
            ForcesError::NotHeld(n) => {
                write!(f, "counter {n} does not hold all of that (R51)")
            }
            ForcesError::NotAFight => {
                write!(f, "that command is an order, not a fight's (R47, R51)")
            }
        }
    }
}

impl std::error::Error for ForcesError {}

/// One side's forces being picked for a fight.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Forces {
    /// The side's counters in the fight.
    pub counters: Vec<Counter>,
    /// The pieces picked, by counter number.
    picked: BTreeMap<u16, Composition>,
    /// The side has committed.
    pub committed: bool,
}

impl Forces {
    /// A side's counters in a fight, nothing picked yet.
    pub fn new(counters: Vec<Counter>) -> Forces {
        Forces {
            counters,
            picked: BTreeMap::new(),
            committed: false,
        }
    }

    /// Whether `command` may be given now, and why not.
    pub fn check(&self, command: &GridCommand) -> Result<(), ForcesError> {
        if self.committed {
            return Err(ForcesError::Committed);
        }
        match command {
            GridCommand::Forces { counter, pieces } => {
                let c = self
                    .counters
                    .iter()
                    .find(|c| c.id.number == *counter)
                    .ok_or(ForcesError::NotInTheFight(*counter))?;
                if self.picked.contains_key(counter) {
                    return Err(ForcesError::Picked(*counter));
                }
                if pieces.is_some_and(|p| !c.pieces.holds(&p)) {
                    return Err(ForcesError::NotHeld(*counter));
                }
                Ok(())
            }
            GridCommand::Commit => Ok(()),
            _ => Err(ForcesError::NotAFight),
        }
    }

    /// Gives `command`, after [`Forces::check`]; changes nothing when it is
    /// refused.
    pub fn apply(&mut self, command: &GridCommand) -> Result<(), ForcesError> {
        self.check(command)?;
        match command {
            GridCommand::Forces { counter, pieces } => {
                let all = self
                    .counters
                    .iter()
                    .find(|c| c.id.number == *counter)
                    .expect("checked")
                    .pieces;
                self.picked.insert(*counter, pieces.unwrap_or(all));
            }
            _ => self.committed = true,
        }
        Ok(())
    }

    /// What a counter takes into the fight: the pieces picked, or, for a
    /// counter its side did not pick for, all of them.
    pub fn committed(&self, number: u16) -> Option<Composition> {
        let c = self.counters.iter().find(|c| c.id.number == number)?;
        Some(self.picked.get(&number).copied().unwrap_or(c.pieces))
    }

    /// Whether the counter's forces are picked.
    pub fn is_picked(&self, number: u16) -> bool {
        self.picked.contains_key(&number)
    }

    /// The side's points in the fight, its picks revealed (R51).
    pub fn points(&self) -> u32 {
        self.counters
            .iter()
            .filter_map(|c| self.committed(c.id.number))
            .map(|p| p.points())
            .sum()
    }

    /// What the side may give now: every counter not yet picked for, with
    /// all its pieces, and `commit`.
    pub fn legal(&self) -> Vec<GridCommand> {
        if self.committed {
            return Vec::new();
        }
        let mut out: Vec<GridCommand> = self
            .counters
            .iter()
            .filter(|c| !self.picked.contains_key(&c.id.number))
            .map(|c| GridCommand::Forces {
                counter: c.id.number,
                pieces: None,
            })
            .collect();
        out.push(GridCommand::Commit);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::sq;
    use super::super::ticks::CounterId;
    use super::*;

    fn red() -> Forces {
        Forces::new(vec![
            Counter {
                id: CounterId { side: 0, number: 5 },
                at: sq("2E"),
                pieces: Composition {
                    infantry: 10,
                    cavalry: 4,
                    officers: 1,
                    ..Composition::default()
                },
            },
            Counter {
                id: CounterId { side: 0, number: 7 },
                at: sq("2E"),
                pieces: Composition {
                    infantry: 6,
                    ..Composition::default()
                },
            },
        ])
    }

    fn cmd(text: &str) -> GridCommand {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn r51_a_side_picks_its_pieces_in_secret_and_the_rest_stay_out() {
        let mut forces = red();
        forces.apply(&cmd("forces 5 inf 10")).expect("held");
        // Counter 7, not picked for, fights with all it has.
        assert_eq!(forces.points(), 10 + 6);
        assert_eq!(forces.committed(5).map(|p| p.cavalry), Some(0));
        assert_eq!(
            forces.apply(&cmd("forces 5 all")),
            Err(ForcesError::Picked(5))
        );
        assert_eq!(
            forces.apply(&cmd("forces 7 inf 7")),
            Err(ForcesError::NotHeld(7))
        );
        assert_eq!(
            forces.apply(&cmd("forces 9 all")),
            Err(ForcesError::NotInTheFight(9))
        );
        assert_eq!(
            forces.apply(&cmd("order 7 hold")),
            Err(ForcesError::NotAFight)
        );
        assert_eq!(forces.legal(), [cmd("forces 7 all"), cmd("commit")]);
        forces.apply(&cmd("commit")).expect("commit");
        assert_eq!(
            forces.apply(&cmd("forces 7 all")),
            Err(ForcesError::Committed)
        );
        assert!(forces.legal().is_empty());
        assert_eq!(
            ForcesError::NotHeld(7).to_string(),
            "counter 7 does not hold all of that (R51)"
        );
    }

    #[test]
    fn r51_all_is_every_piece_of_the_counter() {
        let mut forces = red();
        forces.apply(&cmd("forces 5 all")).expect("all");
        // 10 infantry, 4 cavalry at 2, an officer at 2; and counter 7's 6.
        assert_eq!(forces.points(), 10 + 8 + 2 + 6);
    }
}
