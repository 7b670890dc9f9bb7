//! The serializable state summary used by the CLI's JSON output and by tests
//! that compare games. Field names are part of the interface: see the crate docs.

use serde::{Deserialize, Serialize};

use crate::game::Game;
use crate::geometry::{Facing, Square};
use crate::pieces::{Outcome, Place, UnitId};

/// A snapshot of the game a person or a program can read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateSummary {
    /// 1 for the first player's first turn, +1 at every pass.
    pub turn: u32,
    /// Name of the player whose turn it is.
    pub current_player: String,
    /// Whether the game has ended.
    pub over: bool,
    /// Name of the winner, if the game was won.
    pub winner: Option<String>,
    /// Units on the board.
    pub units: Vec<UnitSummary>,
    /// Every Base, active or captured.
    pub bases: Vec<BaseSummary>,
    /// Captured units and who holds them.
    pub custody: Vec<CustodySummary>,
    /// Units out of the game (their Base was captured).
    pub removed: Vec<RemovedSummary>,
    /// The unit acting now, if any.
    pub activation: Option<ActivationSummary>,
    /// How many more units the current player may activate this turn.
    pub activations_left: u16,
    /// Squares of the stashes not yet discovered (The Snyder Skirmish).
    pub stashes: Vec<Square>,
    /// The kind of choice a stash result waits for, or null (R22).
    pub pending: Option<String>,
    /// The player whose draw offer stands (R24); left out when none does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draw_offer: Option<String>,
}

/// A unit on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitSummary {
    /// Owner's name.
    pub player: String,
    /// Index of its Factor among the owner's Factors.
    pub factor: u16,
    /// Its square.
    pub square: Square,
    /// The way it faces: "N", "E", "S" or "W".
    pub facing: Facing,
}

/// A Base.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaseSummary {
    /// Owner's name.
    pub player: String,
    /// Index of its Factor among the owner's Factors.
    pub factor: u16,
    /// Its square.
    pub square: Square,
    /// False once captured.
    pub active: bool,
}

/// A captured unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustodySummary {
    /// Name of the player holding it.
    pub holder: String,
    /// Name of its owner.
    pub player: String,
    /// Index of its Factor among the owner's Factors.
    pub factor: u16,
}

/// A unit out of the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemovedSummary {
    /// Name of its owner.
    pub player: String,
    /// Index of its Factor among the owner's Factors.
    pub factor: u16,
}

/// The acting unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActivationSummary {
    /// Its square.
    pub square: Square,
    /// Actions it may still spend.
    pub actions_left: u16,
}

impl Game {
    /// The state summary.
    pub fn summary(&self) -> StateSummary {
        let name = |p: crate::pieces::PlayerId| self.player(p).name.clone();
        let mut summary = StateSummary {
            turn: self.turn(),
            current_player: name(self.current_player()),
            over: self.is_over(),
            winner: match self.outcome() {
                Some(Outcome::Won(p)) => Some(name(p)),
                _ => None,
            },
            units: Vec::new(),
            bases: Vec::new(),
            custody: Vec::new(),
            removed: Vec::new(),
            activation: self.activation().and_then(|a| {
                self.position(a.unit).map(|(square, _)| ActivationSummary {
                    square,
                    actions_left: a.left().0,
                })
            }),
            activations_left: self.activations_left(),
            stashes: self.stashes().collect(),
            pending: self.pending().map(|c| c.kind().to_owned()),
            draw_offer: self.draw_offer().map(|o| name(o.by)),
        };
        for (i, unit) in self.units().iter().enumerate() {
            let player = name(unit.player);
            let factor = self.factors()[usize::from(unit.factor.0)].index;
            match self.place(UnitId(i as u16)) {
                Place::Board { square, facing } => summary.units.push(UnitSummary {
                    player,
                    factor,
                    square,
                    facing,
                }),
                Place::Custody { holder } => summary.custody.push(CustodySummary {
                    holder: name(holder),
                    player,
                    factor,
                }),
                Place::Removed => summary.removed.push(RemovedSummary { player, factor }),
            }
        }
        for (i, factor) in self.factors().iter().enumerate() {
            summary.bases.push(BaseSummary {
                player: name(factor.player),
                factor: factor.index,
                square: factor.base,
                active: self.base_active(crate::pieces::FactorId(i as u16)),
            });
        }
        summary
    }
}
