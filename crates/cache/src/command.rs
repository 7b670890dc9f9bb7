//! Commands a player gives and their check (R5 to R16): `plan` works out what a
//! command would do, or why it is refused, without changing anything. Carrying
//! a plan out is left to `event`.

use std::fmt;

use sandtable_core::dice::DiceOut;
use sandtable_core::game::Legal;

use crate::geometry::{Facing, Square};
use crate::pieces::{Actions, Occupant, PlayerId, UnitId};
use crate::ruling::Ruling;
use crate::terrain::Ground;

/// A command in the move notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Command {
    /// `activate C7`: start the activation of the current player's unit on that square (R6, R7).
    Activate(Square),
    /// `left`: turn the acting unit 90 degrees counter-clockwise (R8).
    TurnLeft,
    /// `right`: turn the acting unit 90 degrees clockwise (R8).
    TurnRight,
    /// `advance`: one step straight ahead, or a crossing of a low wall (R8, R13).
    Advance,
    /// `advance F7`: a road run straight ahead to that square, at least 2 squares away (R14).
    AdvanceTo(Square),
    /// `end`: end the acting unit's activation (R7).
    End,
    /// `pass`: end the turn, and any activation in progress (R5).
    Pass,
    /// `pick C7`: answer a stash result's choice with the unit on that square (R22, R23).
    Pick(Square),
    /// `place D5 N`: answer a stash result's choice with a square and a facing (R22, R23).
    Place(Square, Facing),
    /// `resign`: the player to move leaves the game as if its last Base were
    /// captured (R24).
    Resign,
    /// `offer draw`: the player to move offers a draw (R24).
    OfferDraw,
    /// `accept draw`: accept the draw offered, at one's next decision (R24).
    AcceptDraw,
    /// `place D5 N 0:3`: return the named captive of the player's to a square
    /// with a facing, where more than one captive could go there (R23).
    PlaceCaptive(Square, Facing, Captive),
}

/// One of the player's own units, named by its Factor (counted among the
/// player's Factors, as the JSON summary counts them) and its place in that
/// Factor, both from 0: written `0:3`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Captive {
    /// The Factor, among the player's Factors.
    pub factor: u16,
    /// The unit, among the Factor's units.
    pub unit: u16,
}

impl fmt::Display for Captive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.factor, self.unit)
    }
}

/// A legal command of Cache, in the contract's shape ([`Legal`]): its cost
/// in actions (0 for activate, end and pass); `piece`, the square of the
/// unit it acts on (the unit activated, acting, picked or placed, when it
/// stands on the board); `at`, the square it ends on or names (the unit
/// activated or picked, the square an advance lands on, beyond a low wall
/// when it crosses one (R13), the square of a placement; `None` for turns,
/// end and pass).
pub type LegalCommand = Legal<Command>;

/// Cache's reading of a [`LegalCommand`]'s places and cost.
pub trait CacheLegal {
    /// The square it ends on or names, as `at` holds it.
    fn lands(&self) -> Option<Square>;
    /// Its cost in actions.
    fn actions(&self) -> Actions;
}

impl CacheLegal for LegalCommand {
    fn lands(&self) -> Option<Square> {
        self.at.and_then(Square::from_spot)
    }

    fn actions(&self) -> Actions {
        Actions(self.cost)
    }
}

/// A command that costs nothing, acting on the unit on `piece`.
pub(crate) fn free(command: Command, piece: Option<Square>) -> LegalCommand {
    let at = match command {
        Command::Activate(sq)
        | Command::Pick(sq)
        | Command::Place(sq, _)
        | Command::PlaceCaptive(sq, ..) => Some(sq),
        Command::AdvanceTo(sq) => Some(sq),
        _ => None,
    };
    Legal {
        command,
        cost: 0,
        piece: piece.map(Square::spot),
        at: at.map(Square::spot),
    }
}

/// Why a step ahead or a road run is refused, as a plain value: the list of
/// legal commands refuses many steps, and the words are made only when a
/// refused command is given (`From` into [`CommandError`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StepRefusal {
    /// [`CommandError::EdgeAhead`].
    Edge { from: Square, facing: Facing },
    /// [`CommandError::Impassable`].
    Impassable { square: Square, ground: Ground },
    /// [`CommandError::Friendly`].
    Friendly { square: Square, what: &'static str },
    /// [`CommandError::NotEnoughActions`].
    NotEnough {
        action: &'static str,
        cost: u16,
        left: u16,
    },
    /// A low wall with the board's edge beyond it (R13).
    WallAtEdge { wall: Square },
    /// A low wall with ground beyond where no unit may stand (R13).
    WallOnto {
        wall: Square,
        land: Square,
        ground: Ground,
    },
    /// A low wall with a friendly piece beyond (R8, R13).
    WallFriendly {
        wall: Square,
        square: Square,
        what: &'static str,
    },
    /// [`CommandError::OffBoard`], for a road run's target.
    RunOffBoard { square: Square },
    /// A road run's target not straight ahead (R14).
    RunNotAhead {
        target: Square,
        from: Square,
        facing: Facing,
    },
    /// A road run of fewer than 2 squares (R14).
    RunTooShort { target: Square },
    /// A road run over a square that is not T130 (R14).
    RunOffRoad {
        target: Square,
        square: Square,
        ground: Ground,
    },
    /// A road run through an occupied square (R14).
    RunBlocked { target: Square, square: Square },
}

impl From<StepRefusal> for CommandError {
    fn from(refusal: StepRefusal) -> CommandError {
        match refusal {
            StepRefusal::Edge { from, facing } => CommandError::EdgeAhead { from, facing },
            StepRefusal::Impassable { square, ground } => {
                CommandError::Impassable { square, ground }
            }
            StepRefusal::Friendly { square, what } => CommandError::Friendly { square, what },
            StepRefusal::NotEnough { action, cost, left } => CommandError::NotEnoughActions {
                action,
                cost: Actions(cost),
                left: Actions(left),
            },
            StepRefusal::WallAtEdge { wall } => CommandError::BadCrossing {
                wall,
                reason: "the board ends beyond it".to_owned(),
            },
            StepRefusal::WallOnto { wall, land, ground } => CommandError::BadCrossing {
                wall,
                reason: format!(
                    "the square beyond, {land}, is {}, where no unit may stand",
                    ground.describe()
                ),
            },
            StepRefusal::WallFriendly { wall, square, what } => CommandError::BadCrossing {
                wall,
                reason: format!("the square beyond, {square}, is held by a friendly {what} (R8)"),
            },
            StepRefusal::RunOffBoard { square } => CommandError::OffBoard { square },
            StepRefusal::RunNotAhead {
                target,
                from,
                facing,
            } => CommandError::BadRun {
                target,
                reason: format!("it is not straight ahead of {from} facing {facing}"),
            },
            StepRefusal::RunTooShort { target } => CommandError::BadRun {
                target,
                reason:
                    "a road run names a square at least 2 squares ahead; for one step write `advance`"
                        .to_owned(),
            },
            StepRefusal::RunOffRoad {
                target,
                square,
                ground,
            } => CommandError::BadRun {
                target,
                reason: format!(
                    "{square} is {}; every square entered in a run must be T130",
                    ground.describe()
                ),
            },
            StepRefusal::RunBlocked { target, square } => CommandError::BadRun {
                target,
                reason: format!(
                    "{square} is occupied; a run stops before an occupied square or on a capture"
                ),
            },
        }
    }
}

/// Why a command is refused. The game is unchanged by a refused command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CommandError {
    /// The game has ended (R11).
    GameOver,
    /// A unit command with no unit acting (R7).
    NoActivation,
    /// Another unit is still acting (R7).
    StillActing {
        /// Square of the acting unit.
        square: Square,
    },
    /// The square is off the board (R1).
    OffBoard {
        /// The square named.
        square: Square,
    },
    /// No unit stands on the square (R6).
    NoUnit {
        /// The square named.
        square: Square,
    },
    /// The unit belongs to another player (R5).
    NotYours {
        /// The square named.
        square: Square,
        /// Name of the unit's owner.
        owner: String,
    },
    /// The unit has already been activated this turn (R6).
    AlreadyActivated {
        /// The square named.
        square: Square,
    },
    /// The player has used every activation of this turn (R6).
    NoActivationsLeft {
        /// The player's limit this turn.
        limit: u16,
    },
    /// The action costs more than the budget left (R8).
    NotEnoughActions {
        /// What the action would be.
        action: &'static str,
        /// What it costs.
        cost: Actions,
        /// What is left.
        left: Actions,
    },
    /// Straight ahead is the board edge (R1, R8).
    EdgeAhead {
        /// Where the unit stands.
        from: Square,
        /// The way it faces.
        facing: Facing,
    },
    /// The square ahead is T190 (R12).
    Impassable {
        /// The square.
        square: Square,
        /// Its ground.
        ground: Ground,
    },
    /// The square is held by a friendly unit or Base (R8).
    Friendly {
        /// The square.
        square: Square,
        /// What holds it.
        what: &'static str,
    },
    /// A low wall cannot be crossed here (R13).
    BadCrossing {
        /// The wall square.
        wall: Square,
        /// Why not.
        reason: String,
    },
    /// The road run is not possible (R14).
    BadRun {
        /// The target square.
        target: Square,
        /// Why not.
        reason: String,
    },
    /// A stash result waits for a choice; nothing else is legal (R22).
    ChoicePending {
        /// What is awaited, in plain words.
        awaited: String,
    },
    /// `pick` or `place` with no choice awaited (R22).
    NoChoicePending,
    /// The pick or place does not answer the awaited choice (R23).
    BadChoice {
        /// Why not.
        reason: String,
    },
    /// The scripted dice cannot give the rolls the command needs (R30).
    DiceOut(DiceOut),
    /// A draw offer or acceptance that does not apply now (R24).
    BadDraw {
        /// Why not.
        reason: String,
    },
    /// A command from a player whose turn it is not (R5).
    NotYourTurn {
        /// The player whose turn it is.
        current: String,
        /// The player who gave the command.
        seat: String,
    },
}

impl CommandError {
    /// The ruling the refusal enforces.
    pub fn ruling(&self) -> Ruling {
        match self {
            CommandError::GameOver => Ruling::R11,
            CommandError::NoActivation | CommandError::StillActing { .. } => Ruling::R7,
            CommandError::OffBoard { .. } | CommandError::EdgeAhead { .. } => Ruling::R1,
            CommandError::NoUnit { .. }
            | CommandError::AlreadyActivated { .. }
            | CommandError::NoActivationsLeft { .. } => Ruling::R6,
            CommandError::NotYours { .. } => Ruling::R5,
            CommandError::NotEnoughActions { .. } | CommandError::Friendly { .. } => Ruling::R8,
            CommandError::Impassable { .. } => Ruling::R12,
            CommandError::BadCrossing { .. } => Ruling::R13,
            CommandError::BadRun { .. } => Ruling::R14,
            CommandError::ChoicePending { .. } | CommandError::NoChoicePending => Ruling::R22,
            CommandError::BadChoice { .. } => Ruling::R23,
            CommandError::DiceOut(_) => Ruling::R30,
            CommandError::NotYourTurn { .. } => Ruling::R5,
            CommandError::BadDraw { .. } => Ruling::R24,
        }
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::GameOver => write!(f, "the game is over"),
            CommandError::NoActivation => {
                write!(f, "no unit is acting: activate a unit first")
            }
            CommandError::StillActing { square } => write!(
                f,
                "the unit on {square} is still acting: no other unit acts until it ends its activation"
            ),
            CommandError::OffBoard { square } => write!(f, "{square} is off the board"),
            CommandError::NoUnit { square } => write!(f, "there is no unit on {square}"),
            CommandError::NotYours { square, owner } => {
                write!(f, "the unit on {square} belongs to {owner}")
            }
            CommandError::AlreadyActivated { square } => write!(
                f,
                "the unit on {square} has already been activated this turn: each unit acts at most once a turn"
            ),
            CommandError::NoActivationsLeft { limit } => write!(
                f,
                "no activations left: {limit} unit{} may act this turn, half the player's units rounded up",
                if *limit == 1 { "" } else { "s" }
            ),
            CommandError::NotEnoughActions { action, cost, left } => write!(
                f,
                "{action} costs {cost} and only {left} {} left",
                if left.0 == 1 { "is" } else { "are" }
            ),
            CommandError::EdgeAhead { from, facing } => write!(
                f,
                "the unit on {from} faces {facing} toward the board edge: there is no square ahead"
            ),
            CommandError::Impassable { square, ground } => {
                write!(f, "{square} is {}: no unit may enter it", ground.describe())
            }
            CommandError::Friendly { square, what } => {
                write!(
                    f,
                    "{square} is held by a friendly {what}: a unit may not enter it"
                )
            }
            CommandError::BadCrossing { wall, reason } => {
                write!(f, "cannot cross the low wall on {wall}: {reason}")
            }
            CommandError::BadRun { target, reason } => {
                write!(f, "cannot run to {target}: {reason}")
            }
            CommandError::ChoicePending { awaited } => {
                write!(f, "a stash result waits for a choice: {awaited}")
            }
            CommandError::NoChoicePending => {
                write!(
                    f,
                    "no choice is awaited: `pick` and `place` answer stash results"
                )
            }
            CommandError::BadChoice { reason } => f.write_str(reason),
            CommandError::DiceOut(out) => f.write_str(&out.reason()),
            CommandError::BadDraw { reason } => f.write_str(reason),
            CommandError::NotYourTurn { current, seat } => {
                write!(f, "it is {current}'s turn, not {seat}'s")
            }
        }?;
        write!(f, " ({})", self.ruling())
    }
}

impl std::error::Error for CommandError {}

/// How a unit moves in one Advance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// One square straight ahead.
    Step,
    /// Over a low wall onto the square beyond it (R13).
    Crossing {
        /// The wall square crossed.
        wall: Square,
    },
    /// Several T130 squares in one action (R14).
    Run,
}

/// What a checked command will do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Plan {
    Activate(UnitId),
    Turn {
        unit: UnitId,
        to: Facing,
    },
    Advance {
        unit: UnitId,
        to: Square,
        kind: MoveKind,
        cost: u16,
        target: Option<Occupant>,
    },
    End,
    Pass,
    /// Put a unit on a square with a facing (R23).
    Place {
        unit: UnitId,
        to: Square,
        facing: Facing,
    },
    /// The unit picked to take additional actions (R23).
    PickForActions {
        unit: UnitId,
        actions: u8,
    },
    /// The unfriendly unit picked to be returned or captured (R23).
    PickUnfriendly {
        unit: UnitId,
    },
    /// The player to move resigns (R24).
    Resign,
    /// The player to move offers a draw (R24).
    OfferDraw,
    /// The player to move accepts the draw offered (R24).
    AcceptDraw,
}

impl Plan {
    pub(crate) fn cost(&self) -> Actions {
        match self {
            Plan::Turn { .. } => Actions(1),
            Plan::Advance { cost, .. } => Actions(*cost),
            _ => Actions(0),
        }
    }
}

/// The acting unit's id, square, facing and actions left.
pub(crate) struct Acting {
    pub(crate) unit: UnitId,
    pub(crate) player: PlayerId,
    pub(crate) square: Square,
    pub(crate) facing: Facing,
    pub(crate) left: u16,
    pub(crate) start_square: Square,
    pub(crate) start_facing: Facing,
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Activate(sq) => write!(f, "activate {sq}"),
            Command::TurnLeft => f.write_str("left"),
            Command::TurnRight => f.write_str("right"),
            Command::Advance => f.write_str("advance"),
            Command::AdvanceTo(sq) => write!(f, "advance {sq}"),
            Command::End => f.write_str("end"),
            Command::Pass => f.write_str("pass"),
            Command::Pick(sq) => write!(f, "pick {sq}"),
            Command::Place(sq, facing) => write!(f, "place {sq} {facing}"),
            Command::PlaceCaptive(sq, facing, captive) => {
                write!(f, "place {sq} {facing} {captive}")
            }
            Command::Resign => f.write_str("resign"),
            Command::OfferDraw => f.write_str("offer draw"),
            Command::AcceptDraw => f.write_str("accept draw"),
        }
    }
}
