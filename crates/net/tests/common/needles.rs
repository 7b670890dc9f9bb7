//! A system's secrets as the bytes a client would receive them in, to
//! search what a client (or a table) holds for the other side's: shared
//! by the server's secrecy test and the table's.

#![allow(dead_code)]

use sandtable_core::dice::Dice;
use sandtable_core::game::GameState;
use sandtable_warpspawn::offboard::state::Stage;

/// The battle.
pub type Battle = sandtable_warpspawn::Game;
/// The skirmish.
pub type Skirmish = sandtable_frontiers::Game;

pub fn pc<T: serde::Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(value).expect("encodes")
}

/// Needles shorter than this could turn up by chance.
pub const SHORTEST: usize = 6;

/// A system's secrets, as byte strings in the forms a client would
/// receive them in (postcard, as in a masked copy).
pub trait Secrets: GameState + sandtable_core::wire::Wire {
    /// The side's secrets in the referee's game, by kind.
    fn secrets(&self, side: usize) -> Vec<(&'static str, Vec<u8>)>;
    /// Every item of the same forms in a masked copy, both sides'.
    fn items(&self) -> Vec<Vec<u8>>;
    /// The dice as the game holds them.
    fn the_dice(&self) -> &Dice;
}

impl Secrets for Battle {
    fn secrets(&self, side: usize) -> Vec<(&'static str, Vec<u8>)> {
        let mut out = Vec::new();
        let grid = self.state().grid.as_deref().expect("the grid");
        for c in grid.grid.counters.iter().filter(|c| c.id.side == side) {
            out.push(("a counter's composition and square", pc(c)));
        }
        out.push(("its reserve squares", pc(&grid.grid.reserves[side])));
        if let Stage::Orders(orders) = &grid.stage
            && !orders[side].orders.is_empty()
        {
            out.push(("its unrevealed orders", pc(&orders[side].orders)));
        }
        if let Some(fight) = &grid.fight {
            out.push(("its uncommitted forces", pc(&fight.forces[side])));
        }
        out
    }

    fn items(&self) -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        let grid = self.state().grid.as_deref().expect("the grid");
        for c in &grid.grid.counters {
            out.push(pc(c));
        }
        for side in 0..2 {
            out.push(pc(&grid.grid.reserves[side]));
            if let Stage::Orders(orders) = &grid.stage {
                out.push(pc(&orders[side].orders));
            }
            if let Some(fight) = &grid.fight {
                out.push(pc(&fight.forces[side]));
            }
        }
        out
    }

    fn the_dice(&self) -> &Dice {
        &self.state().dice
    }
}

impl Secrets for Skirmish {
    fn secrets(&self, side: usize) -> Vec<(&'static str, Vec<u8>)> {
        let flow = self.flow();
        let cards = &flow.cards[side];
        let mut out = vec![("its hand", hand(cards)), ("its deck", pc(&cards.deck))];
        if !flow.placed[side].is_empty() {
            out.push(("its order markers", pc(&flow.placed[side])));
        }
        if let Some(command) = &flow.sealed[side] {
            out.push(("its sealed command", pc(command)));
        }
        out
    }

    fn items(&self) -> Vec<Vec<u8>> {
        let flow = self.flow();
        let mut out = Vec::new();
        for side in 0..2 {
            out.push(hand(&flow.cards[side]));
            out.push(pc(&flow.cards[side].deck));
            out.push(pc(&flow.placed[side]));
            out.push(pc(&flow.sealed[side]));
        }
        out
    }

    fn the_dice(&self) -> &Dice {
        self.dice()
    }
}

/// A hand as a copy holds it, with the public discards after it: a hand
/// of a few cards alone is too short a needle.
pub fn hand(cards: &sandtable_frontiers::flow::Cards) -> Vec<u8> {
    let mut bytes = pc(&cards.hand);
    bytes.extend(pc(&cards.discards));
    bytes
}

/// Whether `needle` is in `hay`.
pub fn found(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}
