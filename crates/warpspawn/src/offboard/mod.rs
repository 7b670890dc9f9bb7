//! The off-board movement grid round the battle (`../shared/rulings/offboard.md`,
//! R40-R57): a ring of squares two deep round the map where forces move as
//! numbered counters whose composition only their owner knows, on sealed
//! orders, and fight by dice when they meet.
//!
//! Built so far, pure and seeded, each part on its own:
//! - [`ring`]: the ring, the names of its squares, what each square is,
//!   and each side's default reserve (R40-R42);
//! - [`counter`]: a counter's points, dice, rate and whether it may scout
//!   (R43, R44, R54);
//! - [`setup`]: a battle's `offboard` block and its checks;
//! - [`moves`]: whether a path may be ordered, and where a loser falls
//!   back (R44, R49, R50);
//! - [`orders`]: one side's orders in the Orders phase, its splits and
//!   merges, checked and listed, until it commits (R45, R47, R48, R54);
//! - [`movement`]: the ring moving tick by tick through both sides'
//!   committed orders, each tick's contests fought in order, a counter
//!   that fought stopping (R49, R50);
//! - [`ticks`]: the contests each tick of the ring's movement makes, in
//!   fighting order (R49);
//! - [`forces`]: one side's forces picked in secret for a fight and
//!   committed (R51);
//! - [`fight`]: a fight settled: its dice, and who holds, goes back or
//!   falls back (R50-R54);
//! - [`sight`]: who sees what on the ring (R55);
//! - [`fire`]: a cannon's shot at a counter (R56);
//! - [`command`]: the notation of the ring's own commands: orders,
//!   splits, merges, commits, forces, cancelled dice and fall-backs;
//! - [`view`]: what each side knows of the ring, and a deal of what it does
//!   not for a bot's copy (R46, R55, R57);
//! - [`play`]: the grid in the battle: the Orders phase before each game
//!   turn's first Cannonade, the ring's ticks and fights, the look step
//!   (R47-R55);
//! - [`report`]: the ring as each viewer sees it, for the JSON summary and
//!   the text board (R46, R51, R55, R57);
//! - [`event`]: what the ring did, in words, as each side may read it
//!   (R57);
//! - [`plug`]: the grid plugged into the battle where the battle asks
//!   (`crate::off_map`), and the battle's types with the grid in them.

pub mod command;
pub mod counter;
pub mod event;
pub mod fight;
pub mod fire;
pub mod forces;
pub mod movement;
pub mod moves;
pub mod orders;
pub mod play;
pub mod plug;
pub mod report;
pub mod ring;
pub mod setup;
pub mod sight;
pub mod state;
pub mod ticks;
pub mod view;

/// What the grid's tests share: the open field's 16 x 12 map, its ring at
/// span 1, and squares and hexes by name.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::ring::{Ring, Square};
    use crate::hex::{Hex, Map};

    /// The open field's map: 16 columns (A to P), 12 rows.
    pub fn open_field() -> Map {
        Map {
            columns: 16,
            rows: 12,
        }
    }

    /// The ring round the open field at span 1: 20 x 16 squares.
    pub fn ring() -> Ring {
        Ring::new(open_field(), 1).expect("span 1 divides any map")
    }

    /// A square by its name (`2E`).
    pub fn sq(name: &str) -> Square {
        name.parse().expect("a square's name")
    }

    /// A hex by its name (`C1`).
    pub fn hex(name: &str) -> Hex {
        name.parse().expect("a hex's name")
    }
}
