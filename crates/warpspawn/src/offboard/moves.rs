//! Paths and fall-backs on the ring: whether a written path may be ordered
//! (R44, R49), and where a loser may fall back to (R50).

use std::collections::{BTreeSet, VecDeque};

use super::counter::Composition;
use super::ring::{Ring, Square};

/// Why a path may not be ordered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathError {
    /// A path enters at least one square.
    Empty,
    /// A step is not to one of the 8 neighbouring squares of the ring
    /// (R41).
    NotAStep {
        /// The square stepped from.
        from: Square,
        /// The square named next.
        to: Square,
    },
    /// Longer than the counter's rate (R44).
    TooLong {
        /// Squares entered.
        steps: usize,
        /// The rate that applies.
        rate: u16,
        /// Whether it was the behind-the-lines rate.
        behind_the_lines: bool,
    },
    /// It passes through a square the enemy holds, as the writer's side
    /// sees the ring (R49).
    ThroughTheEnemy(Square),
}

impl std::fmt::Display for PathError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PathError::Empty => write!(f, "a path enters at least one square (R47)"),
            PathError::NotAStep { from, to } => write!(
                f,
                "{to} is not a step from {from}: a step goes to one of the 8 squares round it on the ring (R41)"
            ),
            PathError::TooLong {
                steps,
                rate,
                behind_the_lines,
            } => write!(
                f,
                "{steps} squares is over the counter's rate of {rate}{} (R44)",
                if *behind_the_lines {
                    " behind the lines"
                } else {
                    " forward; every square of the path in its own reserve, the start too, moves it at its rate behind the lines"
                }
            ),
            PathError::ThroughTheEnemy(sq) => write!(
                f,
                "the path passes through {sq}, which the enemy holds: a path may end there, not go on (R49)"
            ),
        }
    }
}

impl std::error::Error for PathError {}

/// Checks a path written for a counter of `pieces` in `start` (R44, R49):
/// each square a step from the last on the ring, no longer than the rate
/// (behind the lines when the start and every square are in `reserve`),
/// and through no square in `enemy` (what the writer's side sees held by
/// the enemy) but the last.
pub fn check_path(
    ring: &Ring,
    pieces: &Composition,
    start: Square,
    path: &[Square],
    reserve: &BTreeSet<Square>,
    enemy: &BTreeSet<Square>,
) -> Result<(), PathError> {
    if path.is_empty() {
        return Err(PathError::Empty);
    }
    let mut from = start;
    for &to in path {
        if !ring.holds(to) || from.distance(to) != 1 {
            return Err(PathError::NotAStep { from, to });
        }
        from = to;
    }
    let behind_the_lines = reserve.contains(&start) && path.iter().all(|sq| reserve.contains(sq));
    let rate = pieces.rate(behind_the_lines);
    if path.len() > usize::from(rate) {
        return Err(PathError::TooLong {
            steps: path.len(),
            rate,
            behind_the_lines,
        });
    }
    // Every square entered before the last, by its place in the path: a
    // path that passes an enemy square and comes back to it passes it.
    let before_last = &path[..path.len() - 1];
    if let Some(held) = before_last.iter().find(|sq| enemy.contains(sq)) {
        return Err(PathError::ThroughTheEnemy(*held));
    }
    Ok(())
}

/// Where a losing defender in `at` may fall back to (R50): a square next
/// to it without enemy counters, never one a winner came from (`barred`);
/// if there is none, the nearest such squares of the ring, row from the
/// near edge first. The owner picks among them; empty only when the ring
/// has no square free of the enemy.
pub fn fall_backs(
    ring: &Ring,
    at: Square,
    enemy: &BTreeSet<Square>,
    barred: &BTreeSet<Square>,
) -> Vec<Square> {
    let free = |sq: &Square| !enemy.contains(sq) && !barred.contains(sq) && *sq != at;
    let by_row = |a: &Square| (a.row, a.col);
    let mut near: Vec<Square> = ring.neighbours(at).filter(free).collect();
    if !near.is_empty() {
        near.sort_unstable_by_key(by_row);
        return near;
    }
    // The nearest free squares, by steps over the ring.
    let mut seen = BTreeSet::from([at]);
    let mut queue = VecDeque::from([(at, 0u16)]);
    let mut found: Vec<Square> = Vec::new();
    let mut found_at = None;
    while let Some((sq, d)) = queue.pop_front() {
        if found_at.is_some_and(|f| d > f) {
            break;
        }
        if free(&sq) {
            found_at = Some(d);
            found.push(sq);
            continue;
        }
        for next in ring.neighbours(sq) {
            if seen.insert(next) {
                queue.push_back((next, d + 1));
            }
        }
    }
    found.sort_unstable_by_key(by_row);
    found
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{ring, sq};
    use super::*;

    fn set(names: &[&str]) -> BTreeSet<Square> {
        names.iter().map(|n| sq(n)).collect()
    }

    fn foot(infantry: u16) -> Composition {
        Composition {
            infantry,
            ..Composition::default()
        }
    }

    fn horse(cavalry: u16) -> Composition {
        Composition {
            cavalry,
            ..Composition::default()
        }
    }

    fn path(names: &[&str]) -> Vec<Square> {
        names.iter().map(|n| sq(n)).collect()
    }

    #[test]
    fn r44_a_path_is_at_most_the_rate_forward_or_behind_the_lines() {
        let ring = ring();
        let none = BTreeSet::new();
        // Foot: 1 forward.
        assert_eq!(
            check_path(&ring, &foot(10), sq("2E"), &path(&["2F"]), &none, &none),
            Ok(())
        );
        let long = check_path(
            &ring,
            &foot(10),
            sq("2E"),
            &path(&["2F", "2G"]),
            &none,
            &none,
        );
        assert_eq!(
            long,
            Err(PathError::TooLong {
                steps: 2,
                rate: 1,
                behind_the_lines: false
            })
        );
        // Behind the lines, every square its own reserve with the start: 2.
        let reserve = set(&["1D", "1E", "1F", "2E"]);
        assert_eq!(
            check_path(
                &ring,
                &foot(10),
                sq("2E"),
                &path(&["1E", "1F"]),
                &reserve,
                &none
            ),
            Ok(())
        );
        // One square out of the reserve: the forward rate.
        assert!(
            check_path(
                &ring,
                &foot(10),
                sq("2E"),
                &path(&["1E", "1G"]),
                &reserve,
                &none
            )
            .is_err()
        );
        // Horse: 2 forward, 3 behind the lines, a diagonal costing 1.
        assert_eq!(
            check_path(
                &ring,
                &horse(6),
                sq("2E"),
                &path(&["1F", "1G"]),
                &none,
                &none
            ),
            Ok(())
        );
        assert!(
            check_path(
                &ring,
                &horse(6),
                sq("2E"),
                &path(&["1F", "1G", "1H"]),
                &none,
                &none
            )
            .is_err()
        );
    }

    #[test]
    fn r41_a_path_steps_to_neighbours_on_the_ring_only() {
        let ring = ring();
        let none = BTreeSet::new();
        assert_eq!(
            check_path(&ring, &horse(6), sq("2E"), &path(&["2G"]), &none, &none),
            Err(PathError::NotAStep {
                from: sq("2E"),
                to: sq("2G")
            })
        );
        // Never onto the map.
        assert!(check_path(&ring, &horse(6), sq("2E"), &path(&["3E"]), &none, &none).is_err());
        assert_eq!(
            check_path(&ring, &horse(6), sq("2E"), &[], &none, &none),
            Err(PathError::Empty)
        );
    }

    #[test]
    fn r49_a_path_may_end_in_but_not_pass_through_an_enemy_square() {
        let ring = ring();
        let none = BTreeSet::new();
        let enemy = set(&["1F"]);
        assert_eq!(
            check_path(&ring, &horse(6), sq("2E"), &path(&["1F"]), &none, &enemy),
            Ok(())
        );
        assert_eq!(
            check_path(
                &ring,
                &horse(6),
                sq("2E"),
                &path(&["1F", "1G"]),
                &none,
                &enemy
            ),
            Err(PathError::ThroughTheEnemy(sq("1F")))
        );
        // Passing it and coming back to it is passing it.
        let fast = Composition {
            cavalry: 6,
            ..Composition::default()
        };
        let reserve = set(&["2E", "1F", "1G"]);
        assert_eq!(
            check_path(
                &ring,
                &fast,
                sq("2E"),
                &path(&["1F", "1G", "1F"]),
                &reserve,
                &enemy
            ),
            Err(PathError::ThroughTheEnemy(sq("1F")))
        );
        assert_eq!(
            PathError::ThroughTheEnemy(sq("1F")).to_string(),
            "the path passes through 1F, which the enemy holds: a path may end there, not go on (R49)"
        );
    }

    #[test]
    fn r50_a_losing_defender_falls_back_beside_it_never_where_the_winner_came_from() {
        let ring = ring();
        // In 1E; the winner came from 1D; the enemy holds 2F.
        let backs = fall_backs(&ring, sq("1E"), &set(&["2F", "1E"]), &set(&["1D"]));
        assert_eq!(backs, path(&["1F", "2D", "2E"]));
        // Hemmed in: the nearest free squares of the ring.
        let corner = fall_backs(&ring, sq("1A"), &set(&["1B", "2B"]), &set(&["2A"]));
        assert_eq!(corner, path(&["1C", "2C", "3A", "3B"]));
    }
}
