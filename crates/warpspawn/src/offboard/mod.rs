//! The off-board movement grid round the battle (`../shared/rulings/offboard.md`,
//! R40-R57): a ring of squares two deep round the map where forces move as
//! numbered counters whose composition only their owner knows, on sealed
//! orders, and fight by dice when they meet.
//!
//! Built so far, pure and seeded: the ring and the names of its squares
//! ([`ring`], R40-R42), a counter's points, dice, rate and scouting
//! ([`counter`], R43, R44, R54), a fight's dice ([`fight`], R52, R53),
//! a battle's `offboard` block with its checks ([`setup`]), and who sees
//! what on the ring ([`sight`], R55), and the contests each tick of the
//! ring's movement makes, in fighting order ([`ticks`], R49); whether a
//! path may be ordered and where a loser falls back ([`moves`], R44, R49,
//! R50).

pub mod counter;
pub mod fight;
pub mod moves;
pub mod ring;
pub mod setup;
pub mod sight;
pub mod ticks;
