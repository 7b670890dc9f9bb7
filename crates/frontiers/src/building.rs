//! Inside buildings (R117-R119), the values: where a unit stands (outdoors,
//! in a space, aboard), a way a line of sight runs through an opening, and
//! an opening's segment as a shape. The rules (a path through doors and
//! spaces, the lines of sight through openings, contact indoors, an
//! element's fall to a ruin) are `indoors`'.
//!
//! A building element is a polygon with spaces (one unit each, linked to
//! their neighbours), doors and windows on its outline with the spaces
//! behind them, and the elements whose fall brings it down. Only
//! non-vehicle circular units enter, by a door or a breach (an opening it
//! shared with an element now a ruin): their outdoor path runs until the
//! base touches the door, then each space costs 1 LNS; leaving ends in
//! contact outside a door behind which the unit stands. Occupied spaces
//! are never entered or passed.

use crate::geometry::{Pt, Shape};

/// Where a unit stands: outdoors at a point, or in a space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// Outdoors, its centre at a point.
    Out(Pt),
    /// In space `1` (from 0) of element `0`.
    In(u8, u8),
    /// Aboard the transport of this index (R140).
    Aboard(u8),
}

/// A way a line may run when a shooter or its target stands in a
/// building (R118).
#[derive(Debug, Clone, PartialEq)]
pub enum Way {
    /// Clear, no tracing: a shooter touching the element's opening
    /// outside, or both in the same element.
    Clear,
    /// Traced from `from` to `to`, with the building's modifier.
    Through {
        /// Where the line starts: the shooter's centre, or the midpoint
        /// of the opening it shoots out of.
        from: Pt,
        /// What it must reach: an opening's segment, or the target.
        to: Shape,
        /// The building's modifier: -2 into a building (R118), else 0.
        modifier: i8,
    },
}

/// An opening's segment as a shape.
pub fn opening_shape(a: Pt, b: Pt) -> Shape {
    Shape {
        core: vec![a.v(), b.v()],
        radius: 0.0,
    }
}
