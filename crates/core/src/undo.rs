//! Undo for every rule system, written once over the contract (R31): a copy
//! of the game where undo stops, and the commands given since, each with
//! its seat. A system says where undo stops through the barrier its
//! `apply_into` reports (a new turn, a roll, a reveal) and phrases the stop
//! in its own words ([`GameState::undo_stop`]); nothing else of undo lives in
//! a rules crate.
//!
//! Undo steps back by replaying: the stored copy is restored and every
//! command since it but the last is applied again. Replaying reproduces each
//! command exactly, because nothing between two barriers rolls the dice.
//! Only the people at a table undo; a bot's copies of a game are bare games,
//! which carry none of this.

use std::ops::Deref;

use crate::game::{Applied, Barrier, GameState, Seat};

/// A game as the people at a table play it: the game, and what undo needs.
/// It reads as the game it holds (`Deref`); every change goes through it, so
/// that the history cannot fall out of step with the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Undoable<G: GameState> {
    game: G,
    /// The game where undo stops.
    mark: G,
    /// Commands applied since `mark`, oldest first.
    since: Vec<(Seat, G::Command)>,
    /// What set `mark`: `None` for the start of the game.
    stop: Option<Barrier>,
}

impl<G: GameState> Undoable<G> {
    /// Starts the history at `game` as it stands: undo goes back no further.
    pub fn new(game: G) -> Undoable<G> {
        Undoable {
            mark: game.clone(),
            game,
            since: Vec::new(),
            stop: None,
        }
    }

    /// The game.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// Checks and applies a command of `seat`, appending its events, and
    /// keeps what undo needs. A refused command changes nothing.
    pub fn apply_into(
        &mut self,
        seat: Seat,
        command: &G::Command,
        events: &mut Vec<G::Event>,
    ) -> Result<Applied, G::Refusal> {
        let applied = self.game.apply_into(seat, command, events)?;
        match applied.barrier {
            Some(barrier) => self.mark(barrier),
            None => self.since.push((seat, *command)),
        }
        Ok(applied)
    }

    /// As [`Undoable::apply_into`], returning the events.
    pub fn apply(&mut self, seat: Seat, command: &G::Command) -> Result<Vec<G::Event>, G::Refusal> {
        let mut events = Vec::new();
        self.apply_into(seat, command, &mut events)?;
        Ok(events)
    }

    /// The last command applied and its seat, while undo can still take it
    /// back.
    pub fn last(&self) -> Option<(Seat, G::Command)> {
        self.since.last().copied()
    }

    /// Steps back one command, restoring the game exactly as it was before
    /// it, and returns the command; or says in the system's words why undo
    /// stops here (R31), changing nothing.
    pub fn undo(&mut self) -> Result<G::Command, String> {
        let Some((_, undone)) = self.since.pop() else {
            return Err(self.game.undo_stop(self.stop));
        };
        self.game.clone_from(&self.mark);
        let mut events = Vec::new();
        for (seat, command) in &self.since {
            events.clear();
            self.game
                .apply_into(*seat, command, &mut events)
                .expect("a command since the mark replays as it was first applied");
        }
        Ok(undone)
    }

    /// Reseeds the game's dice (R30); undo never goes back past it, as
    /// past a roll (R31).
    pub fn reseed(&mut self, seed: u64) {
        self.game.reseed(seed);
        self.mark(Barrier::Roll);
    }

    /// Replaces the game's dice source (R30), for rolls of real dice typed
    /// in at the table; undo never goes back past it, as past a roll (R31).
    pub fn set_dice(&mut self, dice: crate::dice::Dice) {
        self.game.set_dice(dice);
        self.mark(Barrier::Roll);
    }

    /// Takes the game now as where undo stops.
    fn mark(&mut self, barrier: Barrier) {
        self.mark.clone_from(&self.game);
        self.since.clear();
        self.stop = Some(barrier);
    }
}

impl<G: GameState> Deref for Undoable<G> {
    type Target = G;

    fn deref(&self) -> &G {
        &self.game
    }
}
