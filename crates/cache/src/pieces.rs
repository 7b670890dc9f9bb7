//! The plain values a game is made of and speaks of: the ids of players,
//! Factors and units (R5), where a unit stands, an activation and its
//! budget (R6, R7), a draw offered (R24) and the outcome. They hold no
//! rules; the state (`game`) and the rules above it are built on them.

use std::ops::Range;

use crate::geometry::{Facing, Square};

/// A player's index in turn order (R5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct PlayerId(pub u16);

/// A Factor's index in the game, counting every player's Factors in order (R2).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct FactorId(pub u16);

/// A unit's index in the game, counting every Factor's units in order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct UnitId(pub u16);

impl PlayerId {
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}
impl FactorId {
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}
impl UnitId {
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// A count of actions (R7): given, earned, spent or left.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Actions(pub u16);

impl std::fmt::Display for Actions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0;
        write!(f, "{n} action{}", if n == 1 { "" } else { "s" })
    }
}

/// A player, as fixed at setup.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Player {
    /// Name shown to people.
    pub name: String,
    /// The player's Factors.
    pub factors: Range<u16>,
    /// The player's units (those of its Factors, in order).
    pub units: Range<u16>,
}

/// A Factor, as fixed at setup (R2).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Factor {
    /// Who commands it.
    pub player: PlayerId,
    /// Its index among its player's Factors.
    pub index: u16,
    /// The square of its Base.
    pub base: Square,
    /// Its units.
    pub units: Range<u16>,
}

/// A unit, as fixed at setup.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// Who commands it.
    pub player: PlayerId,
    /// Its Factor.
    pub factor: FactorId,
    /// An optional name for the miniature.
    pub name: Option<String>,
}

/// Where a unit is now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Place {
    /// On the board.
    Board {
        /// Its square.
        square: Square,
        /// The way it faces.
        facing: Facing,
    },
    /// Captured, in a player's custody (R10).
    Custody {
        /// The player who captured it.
        holder: PlayerId,
    },
    /// Out of the game: its Base was captured (R10).
    Removed,
}

/// What stands on a square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Occupant {
    /// A unit.
    Unit(UnitId),
    /// The Base of a Factor (active: captured bases leave the board).
    Base(FactorId),
}

/// The unit acting now and its action budget (R7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Activation {
    /// The unit acting.
    pub unit: UnitId,
    /// Actions given at activation (AG+4).
    pub given: u16,
    /// Actions earned by captures (R9).
    pub earned: u16,
    /// Actions spent so far.
    pub spent: u16,
    /// Where the unit stood when its activation began (R13).
    pub start_square: Square,
    /// The way it faced when its activation began (R13).
    pub start_facing: Facing,
}

impl Activation {
    /// Actions still to spend.
    pub fn left(&self) -> Actions {
        Actions(self.given + self.earned - self.spent)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// Only this player has an active Base (R11).
    Won(PlayerId),
    /// Nobody won.
    Draw(DrawReason),
}

/// Why a game ended in a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum DrawReason {
    /// The turn limit was reached (R11).
    TurnLimit,
    /// No player has a unit on the board, so nothing can change again (R28).
    NoUnits,
    /// Every other remaining player accepted a draw offered (R24).
    Agreed,
}

impl std::fmt::Display for DrawReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DrawReason::TurnLimit => "the turn limit is reached (R11)",
            DrawReason::NoUnits => "no player has a unit on the board (R28)",
            DrawReason::Agreed => "every player agreed to a draw (R24)",
        })
    }
}

/// A draw offered (R24): by whom, and the last player to accept it so far
/// (the offerer until someone accepts). The others accept in turn order,
/// each at its next decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct DrawOffer {
    /// Who offered it.
    pub by: PlayerId,
    /// The last player to accept it, or `by`.
    pub last: PlayerId,
}

/// The activation limit of a player with `n` units on the board (R6): half, rounded up.
pub fn activation_limit(n: usize) -> u16 {
    u16::try_from(n.div_ceil(2)).unwrap_or(u16::MAX)
}
