//! What a battle's off-board grid starts from (its scenario's `offboard`
//! block) and its checks: the ring's span (R40), sight (R55), the most
//! points a scout may have (R54), each side's reserve squares (R42) and
//! starting counters (R43), and each side's points with its counters
//! counted (R61).

use super::counter::{CREW, Composition, SCOUT_MAX_POINTS};
use super::ring::{Ring, Square};
use crate::hex::Map;
use crate::off_map::Problem;
use crate::pieces::PiecesSetup;

/// The default hexes a ring square faces (R40).
pub const DEFAULT_SPAN: u16 = 1;
/// The default sight from the map, in hexes (R55).
pub const DEFAULT_SIGHT: u16 = 2;
/// The longest sight a scenario may give, in hexes.
pub const MAX_SIGHT: u16 = 20;
/// The most points a scenario may let a scout have (R54): fewer than ten
/// dice.
pub const MAX_SCOUT_POINTS: u32 = 99;
/// The most counters a battle may start with.
pub const MAX_COUNTERS: usize = 500;

/// A counter a side starts with (R43).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct CounterSetup {
    /// Its number, unique within its side.
    pub number: u16,
    /// The side, by its index in the setup's sides.
    pub side: usize,
    /// Its square of the ring.
    pub at: Square,
    /// What it holds.
    pub pieces: Composition,
}

/// A battle's off-board grid, before validation.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct OffboardSetup {
    /// Hexes a square faces along its edge (R40, default 1).
    pub span: u16,
    /// How far formations on the map see into the edge squares, in hexes
    /// (R55, default 2).
    pub sight: u16,
    /// The most points a scout may have (R54, default 9).
    pub scout_max_points: u32,
    /// Each side's reserve squares, by side; `None` (or a side left out)
    /// takes R42's default: both rows beyond its home edge.
    pub reserves: Vec<Option<Vec<Square>>>,
    /// The counters on the ring at the start.
    pub counters: Vec<CounterSetup>,
}

impl Default for OffboardSetup {
    fn default() -> OffboardSetup {
        OffboardSetup {
            span: DEFAULT_SPAN,
            sight: DEFAULT_SIGHT,
            scout_max_points: SCOUT_MAX_POINTS,
            reserves: Vec::new(),
            counters: Vec::new(),
        }
    }
}

impl CounterSetup {
    /// The counter's pieces as a map entry, for their cost (R61).
    pub fn as_pieces(&self) -> PiecesSetup {
        let p = self.pieces;
        PiecesSetup {
            side: self.side,
            infantry: p.infantry,
            cavalry: p.cavalry,
            officers: p.officers,
            cannon: p.cannon,
            baggage: p.baggage,
            flag: p.flag,
            ..PiecesSetup::default()
        }
    }
}

/// The problems of an `offboard` block laid round `map` for `sides` sides:
/// everything but the points, which the setup counts with the map's
/// pieces.
pub(crate) fn problems(offboard: &OffboardSetup, map: Map, sides: usize) -> Vec<Problem> {
    let mut out: Vec<Problem> = Vec::new();
    let ring = match Ring::new(map, offboard.span) {
        Ok(ring) => Some(ring),
        // The map's own problem is reported at `map`.
        Err(super::ring::RingError::NoMap) => None,
        Err(e) => {
            out.push(("offboard.span".to_owned(), Some(40), e.words()));
            None
        }
    };
    if offboard.scout_max_points > MAX_SCOUT_POINTS {
        out.push((
            "offboard.scout_max_points".to_owned(),
            Some(54),
            format!(
                "a scout has at most {MAX_SCOUT_POINTS} points (a scout rolls nothing), not {}",
                offboard.scout_max_points
            ),
        ));
    }
    if offboard.sight > MAX_SIGHT {
        out.push((
            "offboard.sight".to_owned(),
            Some(55),
            format!("sight is 0 to {MAX_SIGHT} hexes, not {}", offboard.sight),
        ));
    }
    // Where a square lies, in words; `None` on the ring.
    let off_ring = |sq: Square| -> Option<String> {
        let ring = ring.as_ref()?;
        match ring.place(sq) {
            Some(super::ring::Place::Map) => Some(format!("{sq} is on the map, not the ring")),
            None => Some(format!(
                "{sq} is off the grid of {} x {} squares",
                ring.width(),
                ring.height()
            )),
            Some(_) => None,
        }
    };
    if offboard.reserves.len() > sides {
        out.push((
            "offboard.reserves".to_owned(),
            Some(42),
            format!(
                "{} sides' reserves given for {sides} sides",
                offboard.reserves.len()
            ),
        ));
    }
    for (s, reserve) in offboard.reserves.iter().enumerate() {
        for (i, sq) in reserve.iter().flatten().enumerate() {
            if let Some(why) = off_ring(*sq) {
                out.push((format!("offboard.reserves[{s}][{i}]"), Some(42), why));
            }
        }
    }
    if offboard.counters.len() > MAX_COUNTERS {
        out.push((
            "offboard.counters".to_owned(),
            None,
            format!(
                "{} counters, over the limit of {MAX_COUNTERS}",
                offboard.counters.len()
            ),
        ));
    }
    for (i, counter) in offboard.counters.iter().enumerate() {
        let path = format!("offboard.counters[{i}]");
        if counter.side >= sides {
            out.push((
                format!("{path}.side"),
                Some(64),
                format!("there is no side {} (sides count from 0)", counter.side),
            ));
        }
        if let Some(why) = off_ring(counter.at) {
            out.push((format!("{path}.at"), Some(40), why));
        }
        if let Some(first) = offboard.counters[..i]
            .iter()
            .position(|c| c.side == counter.side && c.number == counter.number)
        {
            out.push((
                format!("{path}.number"),
                Some(43),
                format!(
                    "side {} has counter {} already (counters[{first}]); a number is one counter's within its side",
                    counter.side, counter.number
                ),
            ));
        }
        let p = counter.pieces;
        if p.is_empty() {
            out.push((
                path.clone(),
                Some(43),
                "a counter holds at least one piece".to_owned(),
            ));
        }
        if p.cannon && p.infantry + p.cavalry < CREW {
            out.push((
                path.clone(),
                Some(43),
                format!(
                    "a cannon goes with its crew of {CREW} armed men; counter {} has {}",
                    counter.number,
                    p.infantry + p.cavalry
                ),
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::open_field;
    use super::*;

    fn counter(number: u16, side: usize, at: &str, infantry: u16) -> CounterSetup {
        CounterSetup {
            number,
            side,
            at: at.parse().expect("a square"),
            pieces: Composition {
                infantry,
                ..Composition::default()
            },
        }
    }

    fn said(problems: &[Problem]) -> Vec<String> {
        problems
            .iter()
            .map(|(path, ruling, why)| match ruling {
                Some(r) => format!("{path}: {why} (R{r})"),
                None => format!("{path}: {why}"),
            })
            .collect()
    }

    #[test]
    fn a_block_with_counters_on_the_ring_passes() {
        let block = OffboardSetup {
            counters: vec![counter(1, 0, "2E", 10), counter(1, 1, "15E", 8)],
            ..OffboardSetup::default()
        };
        assert!(problems(&block, open_field(), 2).is_empty());
    }

    #[test]
    fn each_problem_names_its_field_and_ruling() {
        let gun = CounterSetup {
            pieces: Composition {
                infantry: 3,
                cannon: true,
                ..Composition::default()
            },
            ..counter(3, 0, "1A", 0)
        };
        let block = OffboardSetup {
            sight: 30,
            reserves: vec![
                Some(vec!["2A".parse().expect("a square")]),
                Some(vec!["4C".parse().expect("a square")]),
            ],
            counters: vec![
                counter(2, 0, "4C", 5),
                counter(2, 0, "2E", 5),
                counter(2, 1, "2E", 5),
                gun,
                counter(4, 0, "30A", 0),
                counter(5, 2, "2E", 1),
            ],
            ..OffboardSetup::default()
        };
        assert_eq!(
            said(&problems(&block, open_field(), 2)),
            [
                "offboard.sight: sight is 0 to 20 hexes, not 30 (R55)",
                "offboard.reserves[1][0]: 4C is on the map, not the ring (R42)",
                "offboard.counters[0].at: 4C is on the map, not the ring (R40)",
                "offboard.counters[1].number: side 0 has counter 2 already (counters[0]); a number is one counter's within its side (R43)",
                "offboard.counters[3]: a cannon goes with its crew of 4 armed men; counter 3 has 3 (R43)",
                "offboard.counters[4].at: 30A is off the grid of 20 x 16 squares (R40)",
                "offboard.counters[4]: a counter holds at least one piece (R43)",
                "offboard.counters[5].side: there is no side 2 (sides count from 0) (R64)",
            ]
        );
    }

    #[test]
    fn a_span_that_does_not_divide_the_map_is_refused() {
        let block = OffboardSetup {
            span: 5,
            ..OffboardSetup::default()
        };
        assert_eq!(
            said(&problems(&block, open_field(), 2)),
            [
                "offboard.span: a span of 5 hexes does not divide the map's 16 columns and 12 rows (R40)"
            ]
        );
    }
}
