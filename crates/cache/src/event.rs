//! Events: what a command caused. Executing a checked plan emits events, and
//! only applying an event changes the state, so the app and the CLI can follow
//! a game from its events alone. A command reports where undo stops after
//! it (R31); undo itself is the contract's (`sandtable_core::undo`).

use sandtable_core::game::Barrier;

use crate::choice::Choice;
use crate::command::{Command, CommandError, MoveKind, Plan};
use crate::game::{
    Actions, Activation, DrawOffer, DrawReason, FactorId, Game, Occupant, Outcome, Place, PlayerId,
    State, Table, UnitId, activation_limit,
};

/// Why an activation's budget cannot overflow its 16 bits.
const BUDGET_BOUND: &str =
    "R7: validation bounds units and stashes so that a budget fits in 16 bits";
use crate::geometry::{Facing, Square};
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

impl State {
    /// Applies one event: the only place where the state changes.
    pub(crate) fn apply_event(&mut self, table: &Table, event: &Event) {
        let board = table.board;
        match *event {
            Event::Activated {
                unit,
                square,
                given,
            } => {
                let Place::Board { facing, .. } = self.places[unit.index()] else {
                    unreachable!("only units on the board are activated")
                };
                self.activation = Some(Activation {
                    unit,
                    given: given.0,
                    earned: 0,
                    spent: 0,
                    start_square: square,
                    start_facing: facing,
                });
                self.activations_left -= 1;
                self.activated_in[unit.index()] = self.turn;
            }
            Event::Turned {
                unit,
                square,
                to,
                cost,
                ..
            } => {
                self.places[unit.index()] = Place::Board { square, facing: to };
                self.spend(cost);
            }
            Event::Captured {
                unit,
                square,
                earned,
                holder,
                ..
            } => {
                self.set_cell(board, square, None);
                self.places[unit.index()] = Place::Custody { holder };
                if let Some(a) = self.activation.as_mut() {
                    a.earned = a.earned.checked_add(earned.0).expect(BUDGET_BOUND);
                }
            }
            Event::BaseCaptured {
                factor,
                square,
                ref removed,
                ..
            } => {
                self.set_cell(board, square, None);
                self.base_active[factor.index()] = false;
                for &(unit, at) in removed {
                    self.set_cell(board, at, None);
                    self.places[unit.index()] = Place::Removed;
                }
            }
            Event::PlayerEliminated { .. } => {}
            Event::Moved {
                unit,
                from,
                to,
                cost,
                ..
            } => {
                let Place::Board { facing, .. } = self.places[unit.index()] else {
                    unreachable!("only units on the board move")
                };
                self.set_cell(board, from, None);
                self.set_cell(board, to, Some(Occupant::Unit(unit)));
                self.places[unit.index()] = Place::Board { square: to, facing };
                self.spend(cost);
            }
            Event::ActivationEnded { .. } => self.activation = None,
            Event::StashRolled { square, .. } => {
                if let Some(k) = table.stash_index(square) {
                    self.stash_present[k] = false;
                }
            }
            Event::ChoiceAwaited { choice } => self.pending = Some(choice),
            Event::Picked { .. } => self.pending = None,
            Event::UnitPlaced {
                unit,
                from,
                to,
                facing,
            } => {
                self.pending = None;
                if let Some(from) = from {
                    self.set_cell(board, from, None);
                }
                self.set_cell(board, to, Some(Occupant::Unit(unit)));
                self.places[unit.index()] = Place::Board { square: to, facing };
            }
            Event::ExtraActions { actions, .. } => {
                if let Some(a) = self.activation.as_mut() {
                    a.earned = a.earned.checked_add(actions.0).expect(BUDGET_BOUND);
                }
            }
            Event::BonusStarted {
                unit,
                square,
                actions,
            } => {
                let Place::Board { facing, .. } = self.places[unit.index()] else {
                    unreachable!("only units on the board take actions")
                };
                if let Some(paused) = self.activation.take() {
                    self.paused.push(paused);
                }
                self.activation = Some(Activation {
                    unit,
                    given: actions.0,
                    earned: 0,
                    spent: 0,
                    start_square: square,
                    start_facing: facing,
                });
            }
            Event::ActivationResumed { .. } => self.activation = self.paused.pop(),
            Event::TakenIntoCustody {
                unit,
                square,
                holder,
            } => {
                self.set_cell(board, square, None);
                self.places[unit.index()] = Place::Custody { holder };
            }
            Event::UnitDiscarded { unit, square } => {
                self.set_cell(board, square, None);
                self.places[unit.index()] = Place::Removed;
            }
            Event::Resigned {
                player,
                ref bases,
                ref removed,
            } => {
                for &(factor, at) in bases {
                    self.set_cell(board, at, None);
                    self.base_active[factor.index()] = false;
                }
                for &(unit, at) in removed {
                    self.set_cell(board, at, None);
                    self.places[unit.index()] = Place::Removed;
                }
                self.pending = None;
                if self.draw_offer.is_some_and(|o| o.by == player) {
                    self.draw_offer = None;
                }
            }
            Event::DrawOffered { by } => self.draw_offer = Some(DrawOffer { by, last: by }),
            Event::DrawAccepted { by } => {
                if let Some(offer) = self.draw_offer.as_mut() {
                    offer.last = by;
                }
            }
            Event::DrawDeclined { .. } => self.draw_offer = None,
            Event::DrawAgreed => {
                self.draw_offer = None;
                self.outcome = Some(Outcome::Draw(DrawReason::Agreed));
            }
            Event::TurnPassed {
                player,
                turn,
                activation_limit,
            } => {
                self.current = player;
                self.turn = turn;
                self.activations_left = activation_limit;
            }
            Event::GameWon { winner } => self.outcome = Some(Outcome::Won(winner)),
            Event::GameDrawn { .. } => self.outcome = Some(Outcome::Draw(DrawReason::TurnLimit)),
            Event::NoUnitsLeft => self.outcome = Some(Outcome::Draw(DrawReason::NoUnits)),
        }
    }

    fn spend(&mut self, cost: Actions) {
        if let Some(a) = self.activation.as_mut() {
            debug_assert!(cost <= a.left(), "R8: a checked action is paid in full");
            a.spent += cost.0;
        }
    }

    pub(crate) fn emit(&mut self, table: &Table, events: &mut Vec<Event>, event: Event) {
        self.apply_event(table, &event);
        events.push(event);
    }

    fn end_activation(&mut self, table: &Table, events: &mut Vec<Event>) {
        if let Some(a) = self.activation {
            self.emit(
                table,
                events,
                Event::ActivationEnded {
                    unit: a.unit,
                    unspent: a.left(),
                },
            );
        }
    }

    /// Ends the acting unit's activation; a paused one resumes (R23), and ends
    /// too if it has nothing left to spend (R7).
    pub(crate) fn close_activation(&mut self, table: &Table, events: &mut Vec<Event>) {
        self.end_activation(table, events);
        if let Some(a) = self.paused.last() {
            let unit = a.unit;
            self.emit(table, events, Event::ActivationResumed { unit });
            self.end_if_spent(table, events);
        }
    }

    /// Ends the activation in progress and every paused one (a pass, a win).
    fn close_all(&mut self, table: &Table, events: &mut Vec<Event>) {
        self.end_activation(table, events);
        while let Some(a) = self.paused.last() {
            let unit = a.unit;
            self.emit(table, events, Event::ActivationResumed { unit });
            self.end_activation(table, events);
        }
    }

    /// Carries out a checked plan, emitting its events.
    pub(crate) fn execute(&mut self, table: &Table, plan: Plan, events: &mut Vec<Event>) {
        // R24: at a player's next decision after a draw offer, any command
        // but accepting declines it.
        if let Some(offer) = self.draw_offer
            && self.current != offer.by
            && self.current != offer.last
            && plan != Plan::AcceptDraw
        {
            let by = self.current;
            self.emit(table, events, Event::DrawDeclined { by });
        }
        match plan {
            Plan::Activate(unit) => {
                let Place::Board { square, .. } = self.places[unit.index()] else {
                    unreachable!("plan checked the unit is on the board")
                };
                self.emit(
                    table,
                    events,
                    Event::Activated {
                        unit,
                        square,
                        given: Actions(4),
                    },
                );
            }
            Plan::Turn { unit, to } => {
                let Place::Board { square, facing } = self.places[unit.index()] else {
                    unreachable!("plan checked the unit is on the board")
                };
                let event = Event::Turned {
                    unit,
                    square,
                    from: facing,
                    to,
                    cost: Actions(1),
                };
                self.emit(table, events, event);
                self.end_if_spent(table, events);
            }
            Plan::Advance {
                unit,
                to,
                kind,
                cost,
                target,
            } => {
                let Place::Board {
                    square: from,
                    facing,
                } = self.places[unit.index()]
                else {
                    unreachable!("plan checked the unit is on the board")
                };
                let mut won = None;
                match target {
                    Some(Occupant::Unit(victim)) => {
                        let Place::Board {
                            facing: victim_facing,
                            ..
                        } = self.places[victim.index()]
                        else {
                            unreachable!("a unit in the grid is on the board")
                        };
                        let side = CaptureSide::of(facing, victim_facing);
                        let event = Event::Captured {
                            captor: unit,
                            unit: victim,
                            square: to,
                            side,
                            earned: side.bonus(),
                            holder: table.units[unit.index()].player,
                        };
                        self.emit(table, events, event);
                    }
                    Some(Occupant::Base(factor)) => {
                        won = self.capture_base(table, events, unit, factor, to);
                    }
                    None => {}
                }
                let event = Event::Moved {
                    unit,
                    from,
                    to,
                    kind,
                    cost: Actions(cost),
                };
                self.emit(table, events, event);
                if let Some(winner) = won {
                    self.close_all(table, events);
                    self.emit(table, events, Event::GameWon { winner });
                    return;
                }
                // R21: ending an Advance on a stash discovers it (a run that
                // passes over one does not).
                self.discover(table, events, unit, to);
                if self.pending.is_none() {
                    self.end_if_spent(table, events);
                }
            }
            Plan::End => self.close_activation(table, events),
            Plan::Place { unit, to, facing } => {
                let from = match self.places[unit.index()] {
                    Place::Board { square, .. } => Some(square),
                    _ => None,
                };
                self.emit(
                    table,
                    events,
                    Event::UnitPlaced {
                        unit,
                        from,
                        to,
                        facing,
                    },
                );
                self.end_if_spent(table, events);
            }
            Plan::PickForActions { unit, actions } => {
                let Place::Board { square, .. } = self.places[unit.index()] else {
                    unreachable!("only units on the board are picked")
                };
                self.emit(table, events, Event::Picked { unit, square });
                let actions = Actions(u16::from(actions));
                if self.activation.is_some_and(|a| a.unit == unit) {
                    self.emit(table, events, Event::ExtraActions { unit, actions });
                } else {
                    let event = Event::BonusStarted {
                        unit,
                        square,
                        actions,
                    };
                    self.emit(table, events, event);
                }
                self.end_if_spent(table, events);
            }
            Plan::PickUnfriendly { unit } => {
                let Place::Board { square, .. } = self.places[unit.index()] else {
                    unreachable!("only units on the board are picked")
                };
                self.emit(table, events, Event::Picked { unit, square });
                let factor = table.units[unit.index()].factor;
                if self
                    .return_squares(table, factor, Some(unit))
                    .next()
                    .is_some()
                {
                    let choice = Choice::ReturnUnfriendly { unit };
                    self.emit(table, events, Event::ChoiceAwaited { choice });
                } else {
                    let holder = self.current;
                    let event = Event::TakenIntoCustody {
                        unit,
                        square,
                        holder,
                    };
                    self.emit(table, events, event);
                    self.end_if_spent(table, events);
                }
            }
            Plan::Pass => {
                self.close_all(table, events);
                self.next_turn(table, events);
            }
            Plan::Resign => {
                self.close_all(table, events);
                let player = self.current;
                let p = &table.players[player.index()];
                let bases = (p.factors.start..p.factors.end)
                    .map(FactorId)
                    .filter(|f| self.base_active[f.index()])
                    .map(|f| (f, table.factors[f.index()].base))
                    .collect();
                let removed = self.on_board(p.units.clone());
                self.emit(
                    table,
                    events,
                    Event::Resigned {
                        player,
                        bases,
                        removed,
                    },
                );
                self.emit(table, events, Event::PlayerEliminated { player });
                if let Some(winner) = self.last_standing(table) {
                    self.emit(table, events, Event::GameWon { winner });
                } else if !self.any_unit_on_board() {
                    self.emit(table, events, Event::NoUnitsLeft);
                } else {
                    self.next_turn(table, events);
                }
            }
            Plan::OfferDraw => {
                let by = self.current;
                self.emit(table, events, Event::DrawOffered { by });
            }
            Plan::AcceptDraw => {
                let by = self.current;
                self.emit(table, events, Event::DrawAccepted { by });
                let offerer = self.draw_offer.map(|o| o.by);
                if self.next_player(table, by) == offerer {
                    // The last of the others to decide has accepted.
                    self.close_all(table, events);
                    self.emit(table, events, Event::DrawAgreed);
                }
            }
        }
    }

    /// The next player in turn order with an active Base (R5).
    fn next_player(&self, table: &Table, after: PlayerId) -> Option<PlayerId> {
        // Counted round without a division: this runs at every pass.
        let n = table.players.len();
        let mut p = after.index();
        for _ in 0..n {
            p = if p + 1 == n { 0 } else { p + 1 };
            if self.has_active_base(table, PlayerId(p as u16)) {
                return Some(PlayerId(p as u16));
            }
        }
        None
    }

    /// R5, R6, R11: the turn passes to the next player with an active Base,
    /// or the game is drawn at the turn limit.
    fn next_turn(&mut self, table: &Table, events: &mut Vec<Event>) {
        {
            {
                if table.turn_limit == Some(self.turn) {
                    self.emit(
                        table,
                        events,
                        Event::GameDrawn {
                            turn_limit: self.turn,
                        },
                    );
                    return;
                }
                let next = self
                    .next_player(table, self.current)
                    .unwrap_or(self.current);
                let limit = activation_limit(self.units_on_board(table, next));
                self.activation_limit = limit;
                self.emit(
                    table,
                    events,
                    Event::TurnPassed {
                        player: next,
                        // Without a turn limit the count stops at its largest.
                        turn: self.turn.saturating_add(1),
                        activation_limit: limit,
                    },
                );
            }
        }
    }

    /// R7: the activation ends by itself when its budget is spent.
    pub(crate) fn end_if_spent(&mut self, table: &Table, events: &mut Vec<Event>) {
        if self.activation.is_some_and(|a| a.left().0 == 0) {
            self.close_activation(table, events);
        }
    }

    /// R10, R11: the Base and its Factor's units on the board leave the game; a
    /// player without active Bases is out; the last one left wins.
    fn capture_base(
        &mut self,
        table: &Table,
        events: &mut Vec<Event>,
        captor: UnitId,
        factor: FactorId,
        square: Square,
    ) -> Option<PlayerId> {
        let f = &table.factors[factor.index()];
        let removed = self.on_board(f.units.clone());
        self.emit(
            table,
            events,
            Event::BaseCaptured {
                captor,
                factor,
                square,
                removed,
            },
        );
        let loser = f.player;
        if !self.has_active_base(table, loser) {
            self.emit(table, events, Event::PlayerEliminated { player: loser });
        }
        self.last_standing(table)
    }

    /// The units of a range that stand on the board, with their squares.
    fn on_board(&self, units: std::ops::Range<u16>) -> Vec<(UnitId, Square)> {
        units
            .map(UnitId)
            .filter_map(|u| match self.places[u.index()] {
                Place::Board { square, .. } => Some((u, square)),
                _ => None,
            })
            .collect()
    }

    /// The only player with an active Base left, if just one has (R11).
    fn last_standing(&self, table: &Table) -> Option<PlayerId> {
        let mut alive = (0..table.players.len() as u16)
            .map(PlayerId)
            .filter(|p| self.has_active_base(table, *p));
        match (alive.next(), alive.next()) {
            (Some(winner), None) => Some(winner),
            _ => None,
        }
    }
}

impl Game {
    /// Checks and applies a command, returning the events it caused. A refused
    /// command changes nothing.
    pub fn apply(&mut self, command: Command) -> Result<Vec<Event>, CommandError> {
        let mut events = Vec::new();
        self.apply_into(command, &mut events)?;
        Ok(events)
    }

    /// As [`Game::apply`], appending the events to `events` (no allocation when
    /// it has room).
    pub fn apply_into(
        &mut self,
        command: Command,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        self.applied_into(command, events).map(|_| ())
    }

    /// As [`Game::apply_into`], returning where undo now stops, if the
    /// command set a new stopping place (R31): the start of a turn, or a
    /// roll.
    pub(crate) fn applied_into(
        &mut self,
        command: Command,
        events: &mut Vec<Event>,
    ) -> Result<Option<Barrier>, CommandError> {
        let plan = self.plan(command)?;
        let first = events.len();
        self.state.execute(&self.table, plan, events);
        Ok(
            if events[first..]
                .iter()
                .any(|e| matches!(e, Event::StashRolled { .. }))
            {
                Some(Barrier::Roll)
            } else if matches!(command, Command::Pass | Command::Resign) {
                Some(Barrier::TurnStart)
            } else {
                None
            },
        )
    }

    /// A one-line description of an event for logs and the CLI.
    pub fn describe(&self, event: &Event) -> String {
        let player = |p: PlayerId| self.table.players[p.index()].name.as_str();
        let owner = |u: UnitId| player(self.table.units[u.index()].player);
        match event {
            Event::Activated {
                unit,
                square,
                given,
            } => {
                format!(
                    "{} activates the unit on {square} with {given}",
                    owner(*unit)
                )
            }
            Event::Turned {
                square, from, to, ..
            } => format!("the unit on {square} turns from {from} to {to}"),
            Event::Captured {
                unit,
                square,
                side,
                earned,
                ..
            } => format!(
                "captured {}'s unit on {square} {}: +{} earned",
                owner(*unit),
                side.phrase(),
                earned.0
            ),
            Event::BaseCaptured {
                factor,
                square,
                removed,
                ..
            } => {
                let f = &self.table.factors[factor.index()];
                format!(
                    "captured {}'s base on {square}: {} unit{} of its Factor leave the game",
                    player(f.player),
                    removed.len(),
                    if removed.len() == 1 { "" } else { "s" }
                )
            }
            Event::PlayerEliminated { player: p } => {
                format!(
                    "{} has no active base left and is out of the game",
                    player(*p)
                )
            }
            Event::Moved {
                from,
                to,
                kind,
                cost,
                ..
            } => {
                let how = match kind {
                    MoveKind::Step => "advances",
                    MoveKind::Crossing { .. } => "crosses the low wall",
                    MoveKind::Run => "runs along the road",
                };
                format!("the unit on {from} {how} to {to} for {cost}")
            }
            Event::ActivationEnded { unit, unspent } => {
                let at = match self.state.places[unit.index()] {
                    Place::Board { square, .. } => format!(" on {square}"),
                    _ => String::new(),
                };
                format!("the activation of the unit{at} ends ({unspent} unspent)")
            }
            Event::TurnPassed {
                player: p,
                turn,
                activation_limit,
            } => format!(
                "turn {turn}: {} may activate {activation_limit} unit{}",
                player(*p),
                if *activation_limit == 1 { "" } else { "s" }
            ),
            Event::GameWon { winner } => format!(
                "{} wins: the last player with an active base",
                player(*winner)
            ),
            Event::GameDrawn { turn_limit } => {
                format!("the game is drawn: the turn limit of {turn_limit} turns is reached")
            }
            Event::NoUnitsLeft => {
                "the game is drawn: no player has a unit on the board (R28)".to_owned()
            }
            Event::Resigned {
                player: p,
                bases,
                removed,
            } => format!(
                "{} resigns: {} base{} and {} unit{} leave the game (R24)",
                player(*p),
                bases.len(),
                if bases.len() == 1 { "" } else { "s" },
                removed.len(),
                if removed.len() == 1 { "" } else { "s" }
            ),
            Event::DrawOffered { by } => format!("{} offers a draw (R24)", player(*by)),
            Event::DrawAccepted { by } => format!("{} accepts the draw", player(*by)),
            Event::DrawDeclined { by } => {
                format!("{} plays on, which declines the draw (R24)", player(*by))
            }
            Event::DrawAgreed => "the game is drawn by agreement (R24)".to_owned(),
            Event::StashRolled {
                square,
                dice,
                roll,
                result,
                ..
            } => format!(
                "stash on {square}: rolled {} then {}: {roll}, {result}",
                dice[0], dice[1]
            ),
            Event::ChoiceAwaited { choice } => format!("awaiting {}", choice.awaited()),
            Event::Picked { square, .. } => format!("picked the unit on {square}"),
            Event::UnitPlaced {
                unit,
                from,
                to,
                facing,
                ..
            } => match from {
                Some(from) => format!("the unit on {from} is placed on {to} facing {facing}"),
                None => format!(
                    "{}'s captured unit returns to {to} facing {facing}",
                    owner(*unit)
                ),
            },
            Event::ExtraActions { actions, .. } => format!("+{} additional actions", actions.0),
            Event::BonusStarted {
                square, actions, ..
            } => format!(
                "the unit on {square} takes up to {}; the acting unit waits",
                actions
            ),
            Event::ActivationResumed { unit } => {
                let at = match self.state.places[unit.index()] {
                    Place::Board { square, .. } => format!(" on {square}"),
                    _ => String::new(),
                };
                format!("the activation of the unit{at} resumes")
            }
            Event::TakenIntoCustody { unit, square, .. } => format!(
                "{}'s unit on {square} has no room near its base and is captured",
                owner(*unit)
            ),
            Event::UnitDiscarded { square, .. } => {
                format!("the unit on {square} has no room near its base and leaves the game")
            }
        }
    }
}
