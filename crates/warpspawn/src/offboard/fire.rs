//! A cannon on the map firing at a counter in an edge square (R56): which
//! squares it may reach and the modifiers of its casualties (R67, with the
//! counter's armed men as the density, no terrain and no line of fire).

use std::collections::BTreeSet;

use super::ring::{Place, Ring, Square};
use crate::hex::Hex;
use crate::tables::{density_modifier, range_modifier};

/// Why a cannon may not fire at a square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShotError {
    /// Only counters in edge squares may be fired at: not the second row
    /// nor an inner corner (R41, R56).
    NotAnEdgeSquare(Square),
    /// The firer's side does not see the square this game turn (R55, R56).
    Unseen(Square),
    /// The nearest hex the square faces is beyond the cannon's range less
    /// the step off the map (R56).
    OutOfRange {
        /// The square.
        square: Square,
        /// Hexes from the cannon to the nearest hex it faces.
        to_edge: u16,
        /// The cannon's range (R65).
        range: u8,
    },
}

impl std::fmt::Display for ShotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShotError::NotAnEdgeSquare(sq) => write!(
                f,
                "{sq} is not an edge square: only counters beside the map may be fired at (R56)"
            ),
            ShotError::Unseen(sq) => write!(
                f,
                "your side does not see {sq} this game turn: a cannon fires only at a square its side sees (R55, R56)"
            ),
            ShotError::OutOfRange {
                square,
                to_edge,
                range,
            } => write!(
                f,
                "{square} is out of range: the nearest hex it faces is {to_edge} hexes away, and a cannon of range {range} reaches a square whose hex is within {} (the step off the map, R56)",
                range.saturating_sub(1)
            ),
        }
    }
}

impl std::error::Error for ShotError {}

/// A shot at a counter, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterShot {
    /// The range counted for R67: the hexes to the nearest hex the square
    /// faces, and the step off the map.
    pub range: u16,
    /// R67's modifiers: density by the counter's armed men, and range.
    pub modifiers: Vec<(&'static str, i8)>,
}

impl CounterShot {
    /// All modifiers together.
    pub fn modifier(&self) -> i8 {
        self.modifiers.iter().map(|(_, m)| m).sum()
    }
}

/// Checks a shot by a cannon in `cannon` at a counter of `armed_men` in
/// `square` (R56): an edge square its side sees this game turn (`seen`),
/// whose nearest faced hex is within `range` less 1. No line of fire and no
/// indirect or terrain modifier.
pub fn plan_shot(
    ring: &Ring,
    cannon: Hex,
    square: Square,
    seen: &BTreeSet<Square>,
    range: u8,
    armed_men: u16,
) -> Result<CounterShot, ShotError> {
    if !matches!(ring.place(square), Some(Place::Edge(_))) {
        return Err(ShotError::NotAnEdgeSquare(square));
    }
    if !seen.contains(&square) {
        return Err(ShotError::Unseen(square));
    }
    let to_edge = ring
        .faces(square)
        .iter()
        .map(|h| cannon.distance(*h))
        .min()
        .unwrap_or(u16::MAX);
    if to_edge > u16::from(range.saturating_sub(1)) {
        return Err(ShotError::OutOfRange {
            square,
            to_edge,
            range,
        });
    }
    let range = to_edge + 1;
    Ok(CounterShot {
        range,
        modifiers: vec![
            ("troop density (R67)", density_modifier(armed_men)),
            ("range (R67)", range_modifier(range)),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{hex, ring, sq};
    use super::*;

    #[test]
    fn r56_a_cannon_fires_at_a_seen_edge_square_within_range_less_one() {
        let ring = ring();
        let seen: BTreeSet<Square> = [sq("2E"), sq("1E"), sq("2B")].into();
        // From C3 to C1, the hex 2E faces: 2 hexes, and the step off: 3.
        let shot = plan_shot(&ring, hex("C3"), sq("2E"), &seen, 6, 12).expect("in range");
        assert_eq!(shot.range, 3);
        assert_eq!(
            shot.modifiers,
            [("troop density (R67)", 0), ("range (R67)", 0)],
            "12 armed men: no density modifier; range 3: none"
        );
        // Hexes to the edge must be within range less 1.
        assert!(
            plan_shot(&ring, hex("C6"), sq("2E"), &seen, 6, 12).is_ok(),
            "5 hexes"
        );
        let far = plan_shot(&ring, hex("C7"), sq("2E"), &seen, 6, 12);
        assert_eq!(
            far,
            Err(ShotError::OutOfRange {
                square: sq("2E"),
                to_edge: 6,
                range: 6
            })
        );
        // A range of 1 reaches only from the hex the square faces: the step
        // off the map is the whole range.
        let edge = plan_shot(&ring, hex("C1"), sq("2E"), &seen, 1, 12).expect("a step");
        assert_eq!(edge.range, 1);
        assert!(plan_shot(&ring, hex("C2"), sq("2E"), &seen, 1, 12).is_err());
    }

    #[test]
    fn r56_only_seen_edge_squares_are_fired_at() {
        let ring = ring();
        let seen: BTreeSet<Square> = [sq("1E"), sq("2B")].into();
        assert_eq!(
            plan_shot(&ring, hex("C3"), sq("2E"), &seen, 6, 12),
            Err(ShotError::Unseen(sq("2E")))
        );
        assert_eq!(
            plan_shot(&ring, hex("C3"), sq("1E"), &seen, 6, 12),
            Err(ShotError::NotAnEdgeSquare(sq("1E"))),
            "the second row"
        );
        assert_eq!(
            plan_shot(&ring, hex("A1"), sq("2B"), &seen, 6, 12),
            Err(ShotError::NotAnEdgeSquare(sq("2B"))),
            "an inner corner"
        );
    }

    #[test]
    fn r56_the_counter_s_armed_men_are_the_density() {
        let ring = ring();
        let seen: BTreeSet<Square> = [sq("2E")].into();
        let thin = plan_shot(&ring, hex("C2"), sq("2E"), &seen, 6, 4).expect("in range");
        let dense = plan_shot(&ring, hex("C2"), sq("2E"), &seen, 6, 20).expect("in range");
        // Range 2 (1 hex and the step off): no range modifier.
        assert_eq!(thin.modifier(), -2);
        assert_eq!(dense.modifier(), 1);
        // The casualties follow R67's table: a natural 6 kills at least 1.
        assert_eq!(crate::tables::casualties(6, thin.modifier(), 4), 4);
        assert_eq!(crate::tables::casualties(1, thin.modifier(), 4), 0);
    }
}
