//! Plain bots for Frontiers: what a move on an open
//! table offers is drawn, not listed, so every family (a unit's move, its
//! shot at one enemy ...) is tried as its listed command and as members
//! drawn over the unit's reach (`GameState::sample_into`); a position is
//! worth its balance of AP destroyed (R145). The greedy bot weighs each
//! candidate over its own rolls of the dice; mcts searches them with
//! random playouts cut off and valued by that balance.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{GameState, Legal, Seat};
use sandtable_frontiers::{Command, Game};

use crate::search::{Judge, result_for, search};
use crate::{Budget, mix};

/// A hash of what `seat` may know of `game` (R149): the game's state as
/// that seat's player reads it (`text::json`), so that two games that
/// differ only in what `seat` may not see hash alike. The bots seed their
/// own choices with it: a choice never turns on a secret, not even by
/// way of a random draw.
pub fn view_hash(game: &Game, seat: Seat) -> u64 {
    let side = u8::try_from(seat.index().min(1)).unwrap_or(0);
    let view = sandtable_frontiers::text::json(game, Some(side));
    // The state hash's own mixer, stable across runs and builds.
    let mut h = sandtable_core::hash::Mix::new();
    for chunk in view.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h.u64(u64::from_le_bytes(word));
    }
    h.u64(view.len() as u64);
    h.finish()
}

/// Members drawn of each family besides its listed command.
pub const DRAWN: usize = 3;
/// Rolls a greedy candidate is weighed over.
pub const ROLLS: u64 = 6;

/// The candidates of `seat`: each family's listed command and [`DRAWN`]
/// members of it.
pub fn candidates(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<Command> {
    let mut legal: Vec<Legal<Command>> = Vec::new();
    game.legal_into(seat, &mut legal);
    let mut out = Vec::new();
    for l in &legal {
        out.push(l.command);
        let mut drawn = Vec::new();
        game.sample_into(seat, &l.command, DRAWN, rng, &mut drawn);
        for c in drawn {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The worth of a position to `seat`, 0 to 1: a finished game's result,
/// else one half plus half the balance of AP destroyed over the AP on the
/// table.
pub fn worth(game: &Game, seat: Seat) -> f32 {
    if let Some(r) = result_for(game, seat) {
        return r;
    }
    let ap = game.ap_destroyed();
    let total: u32 = game.units().iter().map(|u| u32::from(u.data.ap)).sum();
    let mine = f32::from(ap[seat.index().min(1)]);
    let theirs = f32::from(ap[1 - seat.index().min(1)]);
    0.5 + 0.5 * (mine - theirs) / total.max(1) as f32
}

/// The greedy bot's command: the candidate worth most after it, averaged
/// over [`ROLLS`] deals of what it cannot see (its own dice, the other
/// side's hand and face-down markers, a sealed command not yet revealed:
/// R30, R149); ties to the first.
pub fn greedy(game: &Game, seat: Seat, seed: u64) -> Option<Command> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, view_hash(game, seat)));
    let mut best: Option<(f32, Command)> = None;
    for c in candidates(game, seat, &mut rng) {
        let mut sum = 0.0;
        for k in 0..ROLLS {
            let mut copy = game.clone();
            copy.redeal(seat, mix(seed, k));
            let mut events = Vec::new();
            if copy.apply_into(seat, &c, &mut events).is_err() {
                sum = f32::NEG_INFINITY;
                break;
            }
            sum += worth(&copy, seat);
        }
        if best.is_none_or(|(b, _)| sum > b) {
            best = Some((sum, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The judge of Frontiers' search: candidates as lines, playouts cut off
/// and valued by [`worth`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Balance;

impl Judge<Game> for Balance {
    fn values(&mut self, game: &Game, out: &mut Vec<f32>) {
        out.clear();
        out.extend((0..2).map(|s| worth(game, Seat(s))));
    }

    fn lines(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Vec<Command>>,
    ) {
        out.clear();
        out.extend(candidates(game, seat, rng).into_iter().map(|c| vec![c]));
    }

    fn playout_limit(&self) -> usize {
        40
    }
}

/// The mcts bot's command and its playouts.
pub fn mcts(game: &Game, seat: Seat, budget: Budget, seed: u64) -> Option<(Command, u64)> {
    search(
        game,
        seat,
        Balance,
        budget,
        mix(seed, view_hash(game, seat)),
    )
    .map(|s| (s.command, s.playouts))
}
