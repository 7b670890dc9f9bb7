//! A game record's positions, any of them at once: the start and the
//! position after each command, for looking back at a game. Every
//! [`Positions::every`]th position is kept as it stands, so that reaching
//! any one replays at most that many commands from the kept one before it
//! (rather than the whole record from the start), and the memory held is
//! a kept position for that many commands. The commands are played through
//! the contract, each by the seat it was the decision of, as a record is.

use crate::game::{GameState, Seat, next_seat};

/// How many commands apart the kept positions are by default.
pub const DEFAULT_EVERY: usize = 32;

/// A record's positions (see the module doc).
#[derive(Debug, Clone)]
pub struct Positions<G: GameState> {
    /// Each command with the seat whose decision it was.
    commands: Vec<(Seat, G::Command)>,
    /// The position after `k * every` commands, for each `k`.
    kept: Vec<G>,
    /// How many commands apart the kept positions are.
    every: usize,
}

/// Why a record's positions could not be made: its `index`th command (from
/// 0) came after the game's end or was refused, said in the rules' words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayError {
    /// The command's index in the record, from 0.
    pub index: usize,
    /// Why.
    pub reason: String,
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "command {}: {}", self.index + 1, self.reason)
    }
}

impl std::error::Error for ReplayError {}

impl<G: GameState> Positions<G> {
    /// The positions of `commands` played from `start`, one kept every
    /// `every` commands (at least 1).
    pub fn new(start: G, commands: &[G::Command], every: usize) -> Result<Self, ReplayError> {
        let every = every.max(1);
        let mut kept = vec![start.clone()];
        let mut game = start;
        let mut played = Vec::with_capacity(commands.len());
        let mut events = Vec::new();
        for (index, command) in commands.iter().enumerate() {
            let seat = next_seat(&game).ok_or_else(|| ReplayError {
                index,
                reason: format!("`{command}` comes after the game's end"),
            })?;
            events.clear();
            game.apply_into(seat, command, &mut events)
                .map_err(|e| ReplayError {
                    index,
                    reason: format!("`{command}` is refused: {e}"),
                })?;
            played.push((seat, *command));
            if (index + 1) % every == 0 {
                kept.push(game.clone());
            }
        }
        Ok(Positions {
            commands: played,
            kept,
            every,
        })
    }

    /// How many commands the record holds: the positions are 0 (the start)
    /// to this.
    pub fn len(&self) -> usize {
        self.commands.len()
    }

    /// Whether the record holds no command.
    pub fn is_empty(&self) -> bool {
        self.commands.is_empty()
    }

    /// How many commands apart the kept positions are.
    pub fn every(&self) -> usize {
        self.every
    }

    /// How many positions are kept.
    pub fn kept(&self) -> usize {
        self.kept.len()
    }

    /// The `k`th command (from 0) and the seat that gave it.
    pub fn command(&self, k: usize) -> Option<(Seat, G::Command)> {
        self.commands.get(k).copied()
    }

    /// The position after the first `k` commands (0: the start; past the
    /// end: the last), and the events of its last command.
    pub fn at(&self, k: usize) -> (G, Vec<G::Event>) {
        let k = k.min(self.commands.len());
        // From the kept position before the last command, so that its
        // events are the replay's own: at most `every` commands played.
        let from = k.saturating_sub(1) / self.every;
        let mut game = self.kept[from].clone();
        let mut events = Vec::new();
        for (seat, command) in &self.commands[from * self.every..k] {
            events.clear();
            // Played once already from the same position: accepted again.
            let _ = game.apply_into(*seat, command, &mut events);
        }
        (game, events)
    }
}
