//! The ring moving in ticks (R49): at each tick every counter with a path
//! takes its next step, all at once; then the contests the tick made are
//! found, in the order they are fought.
//!
//! Three kinds (R49): opposing counters in one square (a side that was
//! there at the tick's start defends, otherwise both are moving); opposing
//! counters that swapped squares (both moving); and a diagonal step between
//! two orthogonal neighbours that both held enemy counters at the tick's
//! start (a breakthrough: the mover against the counters of both squares as
//! one defender). A diagonal step that ends in an enemy square and also
//! passes between two is that square's fight, with the counters of all
//! three squares.

use std::collections::BTreeMap;

use super::ring::Square;

/// A counter, by its side and its number within the side (R43).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct CounterId {
    /// The side, by its index.
    pub side: usize,
    /// Its number.
    pub number: u16,
}

/// A counter's square at the start of a tick and after its step (the same
/// square for a counter that holds or has no step left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Step {
    /// The counter.
    pub id: CounterId,
    /// Where it was at the tick's start.
    pub from: Square,
    /// Where it is after the tick.
    pub to: Square,
}

impl Step {
    fn moved(&self) -> bool {
        self.from != self.to
    }
}

/// What kind of contest a tick made (R49).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Kind {
    /// Opposing counters in one square; `defender` is the side that was
    /// there at the tick's start, none when both are moving.
    Meet {
        /// The side that held the square.
        defender: Option<usize>,
    },
    /// Opposing counters swapped squares: both are moving.
    Swap,
    /// A diagonal step between two squares that both held the enemy: the
    /// enemy counters of both defend as one.
    Breakthrough {
        /// The side whose counters held the two squares.
        defender: usize,
    },
}

/// A fight a tick made, for R50-R54.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Contest {
    /// Where it is fought: the square met in; for a swap, the first of the
    /// two squares in fighting order; for a breakthrough, the mover's
    /// square after the step.
    pub square: Square,
    /// Its kind.
    pub kind: Kind,
    /// Every counter in it, in order.
    pub counters: Vec<CounterId>,
}

/// The order fights are resolved in (R49): by square, row from the near
/// edge first, then column (plain text order would put 10A before 2A).
pub fn fighting_order(sq: Square) -> (u16, u16) {
    (sq.row, sq.col)
}

/// The contests of one tick, in the order they are fought (R49).
pub fn contests(steps: &[Step]) -> Vec<Contest> {
    let mut found: BTreeMap<(u16, u16), Contest> = BTreeMap::new();
    // Who stands in each square after the tick, and who held it before.
    let after = |sq: Square| steps.iter().filter(move |s| s.to == sq);
    let before = |sq: Square| steps.iter().filter(move |s| s.from == sq);
    let sides = |it: &mut dyn Iterator<Item = &Step>| {
        let mut sides: Vec<usize> = it.map(|s| s.id.side).collect();
        sides.sort_unstable();
        sides.dedup();
        sides
    };

    // (a) Opposing counters in one square.
    let mut squares: Vec<Square> = steps.iter().map(|s| s.to).collect();
    squares.sort_unstable_by_key(|sq| fighting_order(*sq));
    squares.dedup();
    for sq in squares {
        if sides(&mut after(sq)).len() < 2 {
            continue;
        }
        let held: Vec<usize> = sides(&mut after(sq).filter(|s| !s.moved()));
        let defender = (held.len() == 1).then(|| held[0]);
        let mut counters: Vec<CounterId> = after(sq).map(|s| s.id).collect();
        counters.sort_unstable();
        found.insert(
            fighting_order(sq),
            Contest {
                square: sq,
                kind: Kind::Meet { defender },
                counters,
            },
        );
    }

    for mover in steps.iter().filter(|s| s.moved()) {
        // (b) Opposing counters that swapped squares.
        for other in steps.iter().filter(|o| {
            o.id.side != mover.id.side && o.moved() && o.from == mover.to && o.to == mover.from
        }) {
            let first = if fighting_order(mover.from) < fighting_order(mover.to) {
                mover.from
            } else {
                mover.to
            };
            // Already a fight in either square (a third counter met there,
            // or this swap found from its other counter): the swap is
            // fought there.
            let key = [mover.to, mover.from]
                .into_iter()
                .map(fighting_order)
                .find(|k| found.contains_key(k))
                .unwrap_or(fighting_order(first));
            let contest = found.entry(key).or_insert_with(|| Contest {
                square: first,
                kind: Kind::Swap,
                counters: Vec::new(),
            });
            for id in [mover.id, other.id] {
                if !contest.counters.contains(&id) {
                    contest.counters.push(id);
                }
            }
            contest.counters.sort_unstable();
        }

        // (c) A diagonal step between two squares both held by the enemy
        // at the tick's start.
        let (dc, dr) = (
            i32::from(mover.to.col) - i32::from(mover.from.col),
            i32::from(mover.to.row) - i32::from(mover.from.row),
        );
        if dc.abs() != 1 || dr.abs() != 1 {
            continue;
        }
        let sides_here = [
            Square::new(mover.to.col, mover.from.row),
            Square::new(mover.from.col, mover.to.row),
        ];
        let enemy_in = |sq: Square| {
            before(sq)
                .filter(|s| s.id.side != mover.id.side)
                .map(|s| s.id)
                .collect::<Vec<_>>()
        };
        let (one, two) = (enemy_in(sides_here[0]), enemy_in(sides_here[1]));
        let Some(first) = one.first().copied().filter(|_| !two.is_empty()) else {
            continue;
        };
        let key = fighting_order(mover.to);
        let contest = found.entry(key).or_insert_with(|| Contest {
            square: mover.to,
            kind: Kind::Breakthrough {
                defender: first.side,
            },
            counters: vec![mover.id],
        });
        // Ending in an enemy square too: that square's fight takes in the
        // counters of all three squares.
        for id in one.into_iter().chain(two).chain([mover.id]) {
            if !contest.counters.contains(&id) {
                contest.counters.push(id);
            }
        }
        contest.counters.sort_unstable();
    }
    found.into_values().collect()
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::sq;
    use super::*;

    fn id(side: usize, number: u16) -> CounterId {
        CounterId { side, number }
    }

    fn step(side: usize, number: u16, from: &str, to: &str) -> Step {
        Step {
            id: id(side, number),
            from: sq(from),
            to: sq(to),
        }
    }

    #[test]
    fn r49_a_mover_into_a_held_square_meets_its_defender() {
        let found = contests(&[step(0, 5, "1D", "1E"), step(1, 2, "1E", "1E")]);
        assert_eq!(
            found,
            [Contest {
                square: sq("1E"),
                kind: Kind::Meet { defender: Some(1) },
                counters: vec![id(0, 5), id(1, 2)],
            }]
        );
    }

    #[test]
    fn r49_two_movers_into_one_square_both_move() {
        let found = contests(&[step(0, 5, "1D", "1E"), step(1, 2, "1F", "1E")]);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].kind, Kind::Meet { defender: None });
    }

    #[test]
    fn r49_counters_that_swap_squares_fight_both_moving() {
        let found = contests(&[step(0, 5, "1D", "1E"), step(1, 2, "1E", "1D")]);
        assert_eq!(
            found,
            [Contest {
                square: sq("1D"),
                kind: Kind::Swap,
                counters: vec![id(0, 5), id(1, 2)],
            }]
        );
        // Friends passing each other do not fight.
        assert!(contests(&[step(0, 5, "1D", "1E"), step(0, 6, "1E", "1D")]).is_empty());
    }

    #[test]
    fn r49_a_swap_beside_a_meeting_is_fought_in_that_square() {
        // Red's 5 and Blue's 2 swap 1D and 1E while Blue's 3 also enters
        // 1D: one fight in 1D, with all three.
        let found = contests(&[
            step(0, 5, "1D", "1E"),
            step(1, 2, "1E", "1D"),
            step(1, 3, "1C", "1D"),
            step(0, 6, "1D", "1D"),
        ]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].square, sq("1D"));
        assert_eq!(found[0].kind, Kind::Meet { defender: Some(0) });
        assert_eq!(found[0].counters, [id(0, 5), id(0, 6), id(1, 2), id(1, 3)]);
    }

    #[test]
    fn r49_a_diagonal_step_between_two_held_squares_is_a_breakthrough() {
        // Red's 5 steps from 1A to 2B between Blue's 2A and 1B.
        let found = contests(&[
            step(0, 5, "1A", "2B"),
            step(1, 1, "2A", "2A"),
            step(1, 2, "1B", "1B"),
        ]);
        assert_eq!(
            found,
            [Contest {
                square: sq("2B"),
                kind: Kind::Breakthrough { defender: 1 },
                counters: vec![id(0, 5), id(1, 1), id(1, 2)],
            }]
        );
        // With only one of the two held, the step passes.
        assert!(contests(&[step(0, 5, "1A", "2B"), step(1, 1, "2A", "2A")]).is_empty());
    }

    #[test]
    fn r49_a_diagonal_into_an_enemy_square_between_two_is_that_square_s_fight() {
        let found = contests(&[
            step(0, 5, "1A", "2B"),
            step(1, 1, "2A", "2A"),
            step(1, 2, "1B", "1B"),
            step(1, 3, "2B", "2B"),
        ]);
        assert_eq!(
            found,
            [Contest {
                square: sq("2B"),
                kind: Kind::Meet { defender: Some(1) },
                counters: vec![id(0, 5), id(1, 1), id(1, 2), id(1, 3)],
            }]
        );
    }

    #[test]
    fn r49_fights_go_row_from_the_near_edge_first_then_column() {
        // Fights in 10A, 2B and 2A: resolved 2A, 2B, then 10A.
        let found = contests(&[
            step(0, 1, "9A", "10A"),
            step(1, 1, "10A", "10A"),
            step(0, 2, "2C", "2B"),
            step(1, 2, "2B", "2B"),
            step(0, 3, "1A", "2A"),
            step(1, 3, "2A", "2A"),
        ]);
        let order: Vec<String> = found.iter().map(|c| c.square.to_string()).collect();
        assert_eq!(order, ["2A", "2B", "10A"]);
    }
}
