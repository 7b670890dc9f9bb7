//! Bots for any rule system, over the game contract alone: a random player
//! and the shared tree search ([`crate::search`]) with random playouts. They play
//! whole decisions of any kind: a player's move, an answer owed to another
//! player, a sealed order among several. What a seat may not see is never
//! read: every iteration searches a private copy redealt from the seat's
//! own view (`GameState::redeal`: hidden hands and unrevealed orders dealt
//! again, dice reseeded; R30, R57).
//!
//! A system with a judge of its own plays better: Cache's (`crate::choose`)
//! and the Warpspawn battle's (`crate::warpspawn`) run the same search with
//! their evaluations.

use rand::Rng;
use sandtable_core::game::{GameState, Seat};

use crate::Budget;
use crate::search::{Judge, result_for, search};

/// A legal command of `seat`, chosen uniformly with `rng`; `None` when the
/// seat owes no decision.
pub fn random<G: GameState>(game: &G, seat: Seat, rng: &mut impl Rng) -> Option<G::Command> {
    game.random_command(seat, rng)
}

/// The judge of a system that has none of its own: every legal command a
/// line, random playouts to the end, valued by the results alone.
#[derive(Debug, Clone, Copy, Default)]
pub struct Playouts;

impl<G: GameState> Judge<G> for Playouts {
    /// The results of a finished game; a playout cut off at its limit is a
    /// draw for everyone.
    fn values(&mut self, game: &G, out: &mut Vec<f32>) {
        out.clear();
        out.extend((0..game.seats()).map(|s| result_for(game, Seat(s as u16)).unwrap_or(0.5)));
    }

    fn exploration(&self) -> f32 {
        std::f32::consts::SQRT_2
    }

    fn playout_limit(&self) -> usize {
        1_000
    }

    fn widening(&self) -> bool {
        false
    }
}

/// Chooses a command for `seat` by the shared search ([`crate::search`])
/// with random playouts to the end ([`Playouts`]), over `iterations`
/// playouts, each on a copy of the game redealt from the seat's view; the
/// same game, seat, iterations and seed give the same command. `None` when
/// the seat owes no decision.
pub fn mcts<G: GameState>(game: &G, seat: Seat, iterations: u32, seed: u64) -> Option<G::Command> {
    search(game, seat, Playouts, Budget::Iterations(iterations), seed).map(|s| s.command)
}
