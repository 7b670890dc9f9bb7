//! Checking a command against the rules without changing anything: resigning
//! and draws (R24), the activation (R6, R7), turning and moving (R8, R12 to
//! R15) and captures (R9, R10); the `pick` and `place` a stash's choice waits
//! for are `discovery`'s (R22, R23). A checked command becomes a `Plan`,
//! which `apply` carries out.

use crate::command::{Acting, Command, CommandError, MoveKind, Plan, StepRefusal};
use crate::game::Game;
use crate::geometry::Square;
use crate::pieces::{Actions, Occupant, Place};
use crate::terrain::{TerrainClass, enter_cost};

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
