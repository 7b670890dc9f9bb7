//! Commands a player gives and their check (R5 to R16): `plan` works out what a
//! command would do, or why it is refused, without changing anything. Carrying
//! a plan out is left to `event`.

use std::fmt;

use sandtable_core::dice::DiceOut;
use sandtable_core::game::Legal;

use crate::game::{Actions, Game, Occupant, Place, PlayerId, UnitId};
use crate::geometry::{Facing, Square};
use crate::ruling::Ruling;
use crate::terrain::{Ground, TerrainClass, enter_cost};

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

impl Game {
    /// Checks a command without changing anything: the actions it would cost, or
    /// why it is refused, naming the ruling.
    pub fn check(&self, command: &Command) -> Result<Actions, CommandError> {
        self.plan(*command).map(|p| p.cost())
    }

    #[inline(always)]
    pub(crate) fn acting(&self) -> Option<Acting> {
        let a = self.state.activation?;
        let Place::Board { square, facing } = self.state.places[a.unit.index()] else {
            return None;
        };
        Some(Acting {
            unit: a.unit,
            player: self.table.units[a.unit.index()].player,
            square,
            facing,
            left: a.left().0,
            start_square: a.start_square,
            start_facing: a.start_facing,
        })
    }

    pub(crate) fn plan(&self, command: Command) -> Result<Plan, CommandError> {
        if self.state.outcome.is_some() {
            return Err(CommandError::GameOver);
        }
        // R24: resigning and draws, at any decision of the player to move.
        let offer = self.state.draw_offer;
        match command {
            Command::Resign => return Ok(Plan::Resign),
            Command::OfferDraw => {
                return match offer {
                    Some(o) => Err(CommandError::BadDraw {
                        reason: format!(
                            "{} has offered a draw already: accept it, or play on to decline it",
                            self.table.players[o.by.index()].name
                        ),
                    }),
                    None => Ok(Plan::OfferDraw),
                };
            }
            Command::AcceptDraw => {
                let current = self.state.current;
                return match offer {
                    None => Err(CommandError::BadDraw {
                        reason: "no draw is offered".to_owned(),
                    }),
                    Some(o) if o.by == current => Err(CommandError::BadDraw {
                        reason: "the draw is your own offer: the other players accept it"
                            .to_owned(),
                    }),
                    Some(o) if o.last == current => Err(CommandError::BadDraw {
                        reason: "you have accepted the draw already".to_owned(),
                    }),
                    Some(_) => Ok(Plan::AcceptDraw),
                };
            }
            _ => {}
        }
        match (self.state.pending, command) {
            (Some(choice), Command::Pick(_) | Command::Place(..) | Command::PlaceCaptive(..)) => {
                return self.plan_choice(choice, command);
            }
            (Some(choice), _) => {
                return Err(CommandError::ChoicePending {
                    awaited: choice.awaited(),
                });
            }
            (None, Command::Pick(_) | Command::Place(..) | Command::PlaceCaptive(..)) => {
                return Err(CommandError::NoChoicePending);
            }
            (None, _) => {}
        }
        match command {
            Command::Activate(square) => self.plan_activate(square),
            Command::TurnLeft | Command::TurnRight => {
                let acting = self.acting().ok_or(CommandError::NoActivation)?;
                let action = if matches!(command, Command::TurnLeft) {
                    "turning left"
                } else {
                    "turning right"
                };
                if acting.left < 1 {
                    return Err(CommandError::NotEnoughActions {
                        action,
                        cost: Actions(1),
                        left: Actions(acting.left),
                    });
                }
                let to = if matches!(command, Command::TurnLeft) {
                    acting.facing.left()
                } else {
                    acting.facing.right()
                };
                Ok(Plan::Turn {
                    unit: acting.unit,
                    to,
                })
            }
            Command::Advance => {
                let acting = self.acting().ok_or(CommandError::NoActivation)?;
                self.plan_step(&acting)
                    .map_err(CommandError::from)
                    .and_then(|p| self.dice_for(p))
            }
            Command::AdvanceTo(target) => {
                let acting = self.acting().ok_or(CommandError::NoActivation)?;
                self.plan_run(&acting, target)
                    .map_err(CommandError::from)
                    .and_then(|p| self.dice_for(p))
            }
            Command::End => match self.state.activation {
                Some(_) => Ok(Plan::End),
                None => Err(CommandError::NoActivation),
            },
            Command::Pass => Ok(Plan::Pass),
            Command::Resign | Command::OfferDraw | Command::AcceptDraw => {
                unreachable!("planned above")
            }
            Command::Pick(_) | Command::Place(..) | Command::PlaceCaptive(..) => {
                Err(CommandError::NoChoicePending)
            }
        }
    }

    /// Refuses an Advance that ends on an undiscovered stash while scripted
    /// dice hold fewer than the two its roll needs (R21, R30).
    pub(crate) fn dice_for(&self, plan: Plan) -> Result<Plan, CommandError> {
        if let Plan::Advance { to, target, .. } = plan
            && self.state.dice.left().is_some()
            && !matches!(target, Some(Occupant::Base(_)))
            && self.stash_at(to)
        {
            self.state.dice.require(2).map_err(CommandError::DiceOut)?;
        }
        Ok(plan)
    }

    fn plan_activate(&self, square: Square) -> Result<Plan, CommandError> {
        if let Some(acting) = self.acting() {
            return Err(CommandError::StillActing {
                square: acting.square,
            });
        }
        if !self.table.board.contains(square) {
            return Err(CommandError::OffBoard { square });
        }
        let Some(Occupant::Unit(unit)) = self.state.occupant(self.table.board, square) else {
            return Err(CommandError::NoUnit { square });
        };
        let owner = self.table.units[unit.index()].player;
        if owner != self.state.current {
            return Err(CommandError::NotYours {
                square,
                owner: self.table.players[owner.index()].name.clone(),
            });
        }
        if self.state.activated_in[unit.index()] == self.state.turn {
            return Err(CommandError::AlreadyActivated { square });
        }
        if self.state.activations_left == 0 {
            return Err(CommandError::NoActivationsLeft {
                limit: self.turn_activation_limit(),
            });
        }
        Ok(Plan::Activate(unit))
    }

    /// The activation limit fixed at the start of this turn (R6).
    pub fn turn_activation_limit(&self) -> u16 {
        self.state.activation_limit
    }

    /// What lies on a square entered by `acting`, refusing friendly pieces (R8).
    #[inline]
    fn target_on(&self, acting: &Acting, square: Square) -> Result<Option<Occupant>, StepRefusal> {
        let occupant = self.state.occupant(self.table.board, square);
        let friendly = match occupant {
            Some(Occupant::Unit(u)) => {
                (self.table.units[u.index()].player == acting.player).then_some("unit")
            }
            Some(Occupant::Base(f)) => {
                (self.table.factors[f.index()].player == acting.player).then_some("base")
            }
            None => None,
        };
        match friendly {
            Some(what) => Err(StepRefusal::Friendly { square, what }),
            None => Ok(occupant),
        }
    }

    /// Cost of changing level between two squares (R15): +1 onto or off an
    /// elevated bridge.
    #[inline(always)]
    fn elevation_cost(&self, from: Square, to: Square) -> u16 {
        let board = self.table.board;
        let a = self.table.ground[board.index(from)].elevated();
        let b = self.table.ground[board.index(to)].elevated();
        u16::from(a != b)
    }

    fn afford(acting: &Acting, action: &'static str, cost: u16) -> Result<(), StepRefusal> {
        if cost > acting.left {
            Err(StepRefusal::NotEnough {
                action,
                cost,
                left: acting.left,
            })
        } else {
            Ok(())
        }
    }

    /// One Advance without a named square: a step, or a low-wall crossing
    /// (R8, R12, R13), refused as a plain value ([`StepRefusal`]).
    #[inline(always)]
    pub(crate) fn plan_step(&self, acting: &Acting) -> Result<Plan, StepRefusal> {
        let board = self.table.board;
        let next = acting
            .square
            .step(acting.facing, board)
            .ok_or(StepRefusal::Edge {
                from: acting.square,
                facing: acting.facing,
            })?;
        let ground = self.table.ground[board.index(next)];
        match ground.class() {
            TerrainClass::T190 => Err(StepRefusal::Impassable {
                square: next,
                ground,
            }),
            TerrainClass::T110 => {
                // R13: over the wall onto the first square beyond it.
                let land = next
                    .step(acting.facing, board)
                    .ok_or(StepRefusal::WallAtEdge { wall: next })?;
                let land_ground = self.table.ground[board.index(land)];
                if !land_ground.can_hold_unit() {
                    return Err(StepRefusal::WallOnto {
                        wall: next,
                        land,
                        ground: land_ground,
                    });
                }
                let target = self.target_on(acting, land).map_err(|e| match e {
                    StepRefusal::Friendly { square, what } => StepRefusal::WallFriendly {
                        wall: next,
                        square,
                        what,
                    },
                    other => other,
                })?;
                // Two to cross the wall, plus entering the square beyond (3 in
                // all onto open ground), one less when the unit began its
                // activation on this square facing the wall.
                let discount = u16::from(
                    acting.start_square == acting.square && acting.start_facing == acting.facing,
                );
                let cost = 2 + enter_cost(land_ground) + self.elevation_cost(acting.square, land)
                    - discount;
                Self::afford(acting, "crossing the low wall", cost)?;
                Ok(Plan::Advance {
                    unit: acting.unit,
                    to: land,
                    kind: MoveKind::Crossing { wall: next },
                    cost,
                    target,
                })
            }
            _ => {
                let target = self.target_on(acting, next)?;
                let cost = enter_cost(ground) + self.elevation_cost(acting.square, next);
                Self::afford(acting, "advancing", cost)?;
                Ok(Plan::Advance {
                    unit: acting.unit,
                    to: next,
                    kind: MoveKind::Step,
                    cost,
                    target,
                })
            }
        }
    }

    /// A road run to a named square (R14, R15).
    pub(crate) fn plan_run(&self, acting: &Acting, target: Square) -> Result<Plan, StepRefusal> {
        let board = self.table.board;
        if !board.contains(target) {
            return Err(StepRefusal::RunOffBoard { square: target });
        }
        let distance =
            acting
                .square
                .steps_to(acting.facing, target)
                .ok_or(StepRefusal::RunNotAhead {
                    target,
                    from: acting.square,
                    facing: acting.facing,
                })?;
        if distance < 2 {
            return Err(StepRefusal::RunTooShort { target });
        }
        let mut cost = 1;
        let mut from = acting.square;
        for i in 1..=distance {
            let Some(sq) = from.step(acting.facing, board) else {
                unreachable!("the target is on the board and straight ahead")
            };
            let ground = self.table.ground[board.index(sq)];
            if ground.class() != TerrainClass::T130 {
                return Err(StepRefusal::RunOffRoad {
                    target,
                    square: sq,
                    ground,
                });
            }
            cost += self.elevation_cost(from, sq);
            if i < distance && self.state.occupant(board, sq).is_some() {
                return Err(StepRefusal::RunBlocked { target, square: sq });
            }
            from = sq;
        }
        let captured = self.target_on(acting, target)?;
        Self::afford(acting, "this road run", cost)?;
        Ok(Plan::Advance {
            unit: acting.unit,
            to: target,
            kind: MoveKind::Run,
            cost,
            target: captured,
        })
    }
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
