//! Events: what a command caused. Executing a checked plan emits events, and
//! only applying an event changes the state, so the app and the CLI can follow
//! a game from its events alone. A command reports where undo stops after
//! it (R31); undo itself is the contract's (`sandtable_core::undo`).

use crate::choice::Choice;
use crate::command::MoveKind;
use crate::geometry::{Facing, Square};
use crate::pieces::{Actions, FactorId, PlayerId, UnitId};
use crate::stash::StashResult;

/// From which side a capture came (R9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CaptureSide {
    /// Into the captured unit's face: +0.
    Front,
    /// From its left or right: +2.
    Side,
    /// From directly behind: +3.
    Behind,
}

impl CaptureSide {
    /// The side of a capture by a unit advancing in `direction` onto a unit
    /// facing `facing` (R9).
    pub fn of(direction: Facing, facing: Facing) -> CaptureSide {
        if facing == direction {
            CaptureSide::Behind
        } else if facing == direction.opposite() {
            CaptureSide::Front
        } else {
            CaptureSide::Side
        }
    }

    /// Earned actions for this side (R9).
    pub fn bonus(self) -> Actions {
        Actions(match self {
            CaptureSide::Front => 0,
            CaptureSide::Side => 2,
            CaptureSide::Behind => 3,
        })
    }

    /// How the side reads in messages: "from behind".
    pub fn phrase(self) -> &'static str {
        match self {
            CaptureSide::Front => "from the front",
            CaptureSide::Side => "from the side",
            CaptureSide::Behind => "from behind",
        }
    }
}

/// Something that happened in the game.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Event {
    /// A unit began its activation with its given actions (R6, R7).
    Activated {
        /// The unit.
        unit: UnitId,
        /// Its square.
        square: Square,
        /// Actions given (AG+4).
        given: Actions,
    },
    /// A unit turned on its square (R8).
    Turned {
        /// The unit.
        unit: UnitId,
        /// Its square.
        square: Square,
        /// Its facing before.
        from: Facing,
        /// Its facing after.
        to: Facing,
        /// Actions spent.
        cost: Actions,
    },
    /// A unit was captured into custody, and its captor earned actions (R9, R10).
    Captured {
        /// The capturing unit.
        captor: UnitId,
        /// The captured unit.
        unit: UnitId,
        /// Where it stood.
        square: Square,
        /// From which side.
        side: CaptureSide,
        /// Actions earned.
        earned: Actions,
        /// The player who now holds it.
        holder: PlayerId,
    },
    /// A Base was captured: it and its Factor's units on the board leave the game (R10).
    BaseCaptured {
        /// The capturing unit.
        captor: UnitId,
        /// The Factor whose Base fell.
        factor: FactorId,
        /// Where the Base stood.
        square: Square,
        /// Units of that Factor removed from the board, with their squares.
        removed: Vec<(UnitId, Square)>,
    },
    /// A player lost its last Base and is out of the game (R10).
    PlayerEliminated {
        /// The player.
        player: PlayerId,
    },
    /// A unit advanced (R8, R12 to R15).
    Moved {
        /// The unit.
        unit: UnitId,
        /// Where it came from.
        from: Square,
        /// Where it stands now.
        to: Square,
        /// Step, wall crossing or road run.
        kind: MoveKind,
        /// Actions spent.
        cost: Actions,
    },
    /// A unit's activation ended; unspent actions are lost (R7).
    ActivationEnded {
        /// The unit.
        unit: UnitId,
        /// Actions it did not spend.
        unspent: Actions,
    },
    /// The turn passed to the next player in turn order (R5, R6).
    TurnPassed {
        /// The player whose turn it is now.
        player: PlayerId,
        /// The new turn number.
        turn: u32,
        /// How many of its units it may activate (R6).
        activation_limit: u16,
    },
    /// Only this player has an active Base left (R11).
    GameWon {
        /// The winner.
        winner: PlayerId,
    },
    /// The turn limit was reached (R11).
    GameDrawn {
        /// The limit in turns.
        turn_limit: u32,
    },
    /// No player has a unit on the board: nothing can change again, and the
    /// game is drawn (R28).
    NoUnitsLeft,
    /// A unit discovered a stash: two d6 were rolled and the stash removed (R21).
    StashRolled {
        /// The discovering unit.
        unit: UnitId,
        /// The stash's square.
        square: Square,
        /// The two dice, tens first.
        dice: [u8; 2],
        /// The row rolled, 11 to 66.
        roll: u8,
        /// That row's result.
        result: StashResult,
    },
    /// A result waits for the current player's choice (R22).
    ChoiceAwaited {
        /// What is awaited.
        choice: Choice,
    },
    /// A unit was picked to answer a choice (R23).
    Picked {
        /// The unit.
        unit: UnitId,
        /// Its square.
        square: Square,
    },
    /// A unit was put on a square with a facing by a stash result (R23).
    UnitPlaced {
        /// The unit.
        unit: UnitId,
        /// Where it stood, or `None` when it came back from custody.
        from: Option<Square>,
        /// Where it stands now.
        to: Square,
        /// The way it faces now.
        facing: Facing,
    },
    /// The acting unit gained additional actions from a stash (R23).
    ExtraActions {
        /// The unit.
        unit: UnitId,
        /// Actions added to its budget.
        actions: Actions,
    },
    /// The acting unit's activation pauses while another unit takes
    /// additional actions from a stash; not an activation of R6 (R23).
    BonusStarted {
        /// The unit taking the actions.
        unit: UnitId,
        /// Its square.
        square: Square,
        /// Actions it may take.
        actions: Actions,
    },
    /// A paused activation goes on (R23).
    ActivationResumed {
        /// The unit whose activation resumes.
        unit: UnitId,
    },
    /// An unfriendly unit with no room near its base was captured by a stash
    /// result, without a facing bonus (R23).
    TakenIntoCustody {
        /// The unit.
        unit: UnitId,
        /// Where it stood.
        square: Square,
        /// The player who now holds it.
        holder: PlayerId,
    },
    /// The discovering unit found no room near its base and leaves the game (R23).
    UnitDiscarded {
        /// The unit.
        unit: UnitId,
        /// Where it stood.
        square: Square,
    },
    /// The player to move resigned: its Bases and its units on the board
    /// leave the game, as if its last Base were captured (R24).
    Resigned {
        /// The player.
        player: PlayerId,
        /// Its Bases still on the board, with their squares.
        bases: Vec<(FactorId, Square)>,
        /// Its units that were on the board, with their squares.
        removed: Vec<(UnitId, Square)>,
    },
    /// The player to move offered a draw (R24).
    DrawOffered {
        /// Who offered it.
        by: PlayerId,
    },
    /// A player accepted the draw offered (R24).
    DrawAccepted {
        /// Who accepted it.
        by: PlayerId,
    },
    /// A player played on instead of accepting, which declines the draw (R24).
    DrawDeclined {
        /// Who declined it.
        by: PlayerId,
    },
    /// Every other remaining player accepted the draw: the game is drawn (R24).
    DrawAgreed,
}
