//! Who sees what on the ring (R55): formations on the map see into the
//! edge squares near them, and counters see enemy counters near them.

use std::collections::BTreeSet;

use super::ring::{Place, Ring, Square};
use crate::hex::Hex;

/// How far a counter sees enemy counters, in squares, reserve included
/// (R55).
pub const COUNTER_SIGHT: u16 = 3;

/// The edge squares seen from the map by formations standing on `hexes`
/// (R55): an edge square is seen when a hex it faces is within `sight`
/// hexes of one of them. The second row and the inner corners are never
/// seen from the map.
pub fn seen_from_map(ring: &Ring, hexes: &[Hex], sight: u16) -> BTreeSet<Square> {
    ring.squares()
        .filter(|sq| matches!(ring.place(*sq), Some(Place::Edge(_))))
        .filter(|sq| {
            ring.faces(*sq)
                .iter()
                .any(|faced| hexes.iter().any(|h| h.distance(*faced) <= sight))
        })
        .collect()
}

/// Whether a counter in `from` sees an enemy counter in `to`: within
/// [`COUNTER_SIGHT`] squares, the larger of the column and row distances
/// (R55). It sees the counter's number and square, not what it holds.
pub fn counter_sees(from: Square, to: Square) -> bool {
    from.distance(to) <= COUNTER_SIGHT
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{hex, ring, sq};
    use super::*;

    #[test]
    fn r55_a_formation_sees_the_edge_squares_whose_hexes_are_within_sight() {
        let ring = ring();
        // A formation on C3 sees the bottom edge's square facing C1, 2
        // hexes away.
        let seen = seen_from_map(&ring, &[hex("C3")], 2);
        let names: Vec<String> = seen.iter().map(|s| s.to_string()).collect();
        assert!(names.contains(&"2E".to_owned()), "{names:?}");
        assert!(!names.contains(&"1E".to_owned()), "never the second row");
        assert!(!names.contains(&"2B".to_owned()), "never an inner corner");
        // Every square seen faces a hex within 2 of C3, and every edge
        // square facing such a hex is seen.
        for square in ring.squares() {
            let near = ring
                .faces(square)
                .iter()
                .any(|h| h.distance(hex("C3")) <= 2);
            assert_eq!(seen.contains(&square), near, "{square}");
        }
        // From the middle of the map nothing of the ring is seen.
        assert!(seen_from_map(&ring, &[hex("H6")], 2).is_empty());
        // A longer sight reaches further.
        assert!(!seen_from_map(&ring, &[hex("H6")], 6).is_empty());
    }

    #[test]
    fn r55_a_counter_sees_enemy_counters_within_three_squares() {
        // The squares of the seed's example, 3I to 5J, all lie within 3
        // squares of 2I.
        for seen in ["3I", "3J", "4I", "4J", "5I", "5J"] {
            assert!(counter_sees(sq("2I"), sq(seen)), "{seen}");
        }
        assert!(!counter_sees(sq("2I"), sq("6I")));
        assert!(counter_sees(sq("1A"), sq("4D")), "diagonally too");
        assert!(!counter_sees(sq("1A"), sq("5A")));
    }
}
