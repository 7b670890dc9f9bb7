//! Carrying out a checked command: its plan becomes events, and applying an
//! event is the only place where the state changes (R31: a command reports
//! where undo stops after it). The turn's end and the next player (R5, R6),
//! captures and bases (R9, R10) and the game's end (R11, R24, R28) are here.

use sandtable_core::game::Barrier;

use crate::choice::Choice;
use crate::command::{Command, CommandError, MoveKind, Plan};
use crate::event::{CaptureSide, Event};
use crate::game::{Game, State, Table};
use crate::geometry::Square;
use crate::pieces::{
    Actions, Activation, DrawOffer, DrawReason, FactorId, Occupant, Outcome, Place, PlayerId,
    UnitId, activation_limit,
};

/// Why an activation's budget cannot overflow its 16 bits.
const BUDGET_BOUND: &str =
    "R7: validation bounds units and stashes so that a budget fits in 16 bits";
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
