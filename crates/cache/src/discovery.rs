//! Stashes of The Snyder Skirmish (R20 to R23): discovery and its roll, and the
//! choices some results wait for. While a choice waits, only the `pick` or
//! `place` commands it allows are legal (R22).

use crate::choice::Choice;
use crate::command::{Captive, Command, CommandError, LegalCommand, Plan, free};
use crate::event::Event;
use crate::game::{Game, State, Table};
use crate::geometry::{Facing, Square};
use crate::pieces::{FactorId, Occupant, Place, PlayerId, UnitId};
use crate::stash::StashResult;

/// Whether `sq` lies within 2 of the unit's own Base (R23).
fn fits_base(table: &Table, unit: UnitId, sq: Square) -> bool {
    table.factors[table.units[unit.index()].factor.index()]
        .base
        .chebyshev(sq)
        <= 2
}

/// The player's unit a captive names, if the player has it.
fn captive_unit(table: &Table, player: PlayerId, c: Captive) -> Option<UnitId> {
    let factors = &table.players[player.index()].factors;
    let factor = factors
        .start
        .checked_add(c.factor)
        .filter(|f| *f < factors.end)?;
    let units = &table.factors[usize::from(factor)].units;
    let unit = units.start.checked_add(c.unit).filter(|u| *u < units.end)?;
    Some(UnitId(unit))
}

/// How a unit is named as a captive.
fn captive_name(table: &Table, unit: UnitId) -> Captive {
    let factor = &table.factors[table.units[unit.index()].factor.index()];
    Captive {
        factor: factor.index,
        unit: unit.0 - factor.units.start,
    }
}

fn bad(reason: String) -> CommandError {
    CommandError::BadChoice { reason }
}

impl State {
    /// Whether `mover` may be put on `sq`: a square a unit may stand on, empty
    /// or already its own (R12, R23).
    pub(crate) fn free_for(&self, table: &Table, sq: Square, mover: Option<UnitId>) -> bool {
        table.board.contains(sq)
            && table.ground[table.board.index(sq)].can_hold_unit()
            && match self.occupant(table.board, sq) {
                None => true,
                Some(Occupant::Unit(u)) => Some(u) == mover,
                Some(Occupant::Base(_)) => false,
            }
    }

    /// Squares within 2 of a Factor's base where `mover` may be put (R23).
    pub(crate) fn return_squares<'a>(
        &'a self,
        table: &'a Table,
        factor: FactorId,
        mover: Option<UnitId>,
    ) -> impl Iterator<Item = Square> + 'a {
        let base = table.factors[factor.index()].base;
        let rows = base.row.saturating_sub(2)..=base.row.saturating_add(2);
        rows.flat_map(move |row| {
            (base.col.saturating_sub(2)..=base.col.saturating_add(2))
                .map(move |col| Square::new(col, row))
        })
        .filter(move |sq| self.free_for(table, *sq, mover))
    }

    /// The player's units in an opponent's custody whose base is still active (R23).
    pub(crate) fn returnable_friends<'a>(
        &'a self,
        table: &'a Table,
        player: PlayerId,
    ) -> impl Iterator<Item = UnitId> + 'a {
        let units = &table.players[player.index()].units;
        (units.start..units.end).map(UnitId).filter(move |u| {
            matches!(self.places[u.index()], Place::Custody { holder } if holder != player)
                && self.base_active[table.units[u.index()].factor.index()]
        })
    }

    /// The returnable friends that may be put on `sq`, in setup order (R23).
    fn friends_for<'a>(
        &'a self,
        table: &'a Table,
        player: PlayerId,
        sq: Square,
    ) -> impl Iterator<Item = UnitId> + 'a {
        let free = self.free_for(table, sq, None);
        self.returnable_friends(table, player)
            .filter(move |u| free && fits_base(table, *u, sq))
    }

    /// R21: a unit ended an Advance on a stash. Rolls two d6, removes the stash
    /// and carries out the result, or sets the choice it waits for.
    pub(crate) fn discover(
        &mut self,
        table: &Table,
        events: &mut Vec<Event>,
        unit: UnitId,
        square: Square,
    ) {
        let Some(k) = table.stash_index(square) else {
            return;
        };
        if !self.stash_present[k] {
            return;
        }
        // `Game::plan` refuses an Advance onto a stash while fewer than two
        // scripted dice are left (R30), so both rolls are there.
        let tens = self.dice.d6().expect("planned: two dice are left");
        let units = self.dice.d6().expect("planned: two dice are left");
        let roll = tens * 10 + units;
        let result = table
            .stash_list
            .result(roll)
            .expect("two d6 read as tens and units give 11 to 66");
        self.emit(
            table,
            events,
            Event::StashRolled {
                unit,
                square,
                dice: [tens, units],
                roll,
                result,
            },
        );
        let player = table.units[unit.index()].player;
        let choice = match result {
            StashResult::Nothing => None,
            StashResult::PlaceAnywhere => Some(Choice::PlaceAnywhere { unit }),
            StashResult::ExtraActions(actions) => Some(Choice::ExtraActions { actions }),
            StashResult::ReturnUnfriendly => {
                let any = table.units.iter().enumerate().any(|(i, u)| {
                    u.player != player && matches!(self.places[i], Place::Board { .. })
                });
                any.then_some(Choice::PickUnfriendly)
            }
            StashResult::ReturnCapturedFriend => {
                let any = self.returnable_friends(table, player).any(|u| {
                    let factor = table.units[u.index()].factor;
                    self.return_squares(table, factor, None).next().is_some()
                });
                any.then_some(Choice::ReturnFriend)
            }
            StashResult::ReturnThisUnit => {
                let factor = table.units[unit.index()].factor;
                if self
                    .return_squares(table, factor, Some(unit))
                    .next()
                    .is_some()
                {
                    Some(Choice::ReturnThisUnit { unit })
                } else {
                    // No free square near its base: the unit leaves the game.
                    self.emit(table, events, Event::UnitDiscarded { unit, square });
                    self.close_activation(table, events);
                    if !self.any_unit_on_board() {
                        // R28: with no unit on the board nothing can change again.
                        self.emit(table, events, Event::NoUnitsLeft);
                    }
                    None
                }
            }
        };
        if let Some(choice) = choice {
            self.emit(table, events, Event::ChoiceAwaited { choice });
        }
    }
}

impl Game {
    /// Checks a `pick` or `place` against the awaited choice (R22, R23).
    pub(crate) fn plan_choice(
        &self,
        choice: Choice,
        command: Command,
    ) -> Result<Plan, CommandError> {
        let table = &*self.table;
        let s = &self.state;
        let player = s.current;
        let wrong = || CommandError::ChoicePending {
            awaited: choice.awaited(),
        };
        match (choice, command) {
            (Choice::ExtraActions { actions }, Command::Pick(sq)) => match self.occupant(sq) {
                Some(Occupant::Unit(u)) if table.units[u.index()].player == player => {
                    Ok(Plan::PickForActions { unit: u, actions })
                }
                _ => Err(bad(format!(
                    "{sq} holds no unit of yours to take the additional actions"
                ))),
            },
            (Choice::PickUnfriendly, Command::Pick(sq)) => match self.occupant(sq) {
                Some(Occupant::Unit(u)) if table.units[u.index()].player != player => {
                    Ok(Plan::PickUnfriendly { unit: u })
                }
                _ => Err(bad(format!("{sq} holds no unfriendly unit"))),
            },
            (Choice::PlaceAnywhere { unit }, Command::Place(sq, facing)) => {
                if s.free_for(table, sq, Some(unit)) {
                    Ok(Plan::Place {
                        unit,
                        to: sq,
                        facing,
                    })
                } else {
                    Err(bad(format!(
                        "{sq} is not an empty square a unit may stand on"
                    )))
                }
            }
            (
                Choice::ReturnUnfriendly { unit } | Choice::ReturnThisUnit { unit },
                Command::Place(sq, facing),
            ) => {
                let factor = table.units[unit.index()].factor;
                let base = table.factors[factor.index()].base;
                if base.chebyshev(sq) <= 2 && s.free_for(table, sq, Some(unit)) {
                    Ok(Plan::Place {
                        unit,
                        to: sq,
                        facing,
                    })
                } else {
                    Err(bad(format!(
                        "{sq} is not an empty square within 2 of the unit's base {base}"
                    )))
                }
            }
            (Choice::ReturnFriend, Command::Place(sq, facing)) => {
                let mut fits = s.friends_for(table, player, sq);
                match (fits.next(), fits.next()) {
                    (Some(unit), None) => Ok(Plan::Place {
                        unit,
                        to: sq,
                        facing,
                    }),
                    (Some(_), Some(_)) => {
                        let names: Vec<String> = s
                            .friends_for(table, player, sq)
                            .map(|u| {
                                let holder = match s.places[u.index()] {
                                    Place::Custody { holder } => {
                                        &table.players[holder.index()].name
                                    }
                                    _ => unreachable!("a returnable friend is in custody"),
                                };
                                format!(
                                    "`place {sq} {facing} {}` (held by {holder})",
                                    captive_name(table, u)
                                )
                            })
                            .collect();
                        Err(bad(format!(
                            "more than one captive of yours can return to {sq}: name the one to return, as in {}",
                            names.join(" or ")
                        )))
                    }
                    (None, _) => Err(bad(format!(
                        "{sq} is not an empty square within 2 of the base of a captured unit of yours"
                    ))),
                }
            }
            (Choice::ReturnFriend, Command::PlaceCaptive(sq, facing, c)) => {
                let Some(unit) = captive_unit(table, player, c) else {
                    return Err(bad(format!(
                        "you have no unit {c}: a captive is named by its Factor among yours and its unit in that Factor, from 0"
                    )));
                };
                if !s.returnable_friends(table, player).any(|u| u == unit) {
                    return Err(bad(format!(
                        "your unit {c} is not a captive that may return: an opponent must hold it and its Base must be on the board"
                    )));
                }
                let mut fits = s.friends_for(table, player, sq);
                if !fits.any(|u| u == unit) {
                    let base = table.factors[table.units[unit.index()].factor.index()].base;
                    return Err(bad(format!(
                        "{sq} is not an empty square within 2 of your unit {c}'s base {base}"
                    )));
                }
                if s.friends_for(table, player, sq).nth(1).is_none() {
                    return Err(bad(format!(
                        "only one captive of yours can return to {sq}: write `place {sq} {facing}`"
                    )));
                }
                Ok(Plan::Place {
                    unit,
                    to: sq,
                    facing,
                })
            }
            _ => Err(wrong()),
        }
    }

    /// The commands that answer the awaited choice.
    pub(crate) fn legal_choices(&self, choice: Choice, out: &mut Vec<LegalCommand>) {
        let table = &*self.table;
        let s = &self.state;
        let on_board = |unit: UnitId| match s.places[unit.index()] {
            Place::Board { square, .. } => Some(square),
            _ => None,
        };
        let mut places = |squares: &mut dyn Iterator<Item = Square>, piece: Option<Square>| {
            for sq in squares {
                for f in Facing::ALL {
                    out.push(free(Command::Place(sq, f), piece));
                }
            }
        };
        match choice {
            Choice::PlaceAnywhere { unit } => {
                places(
                    &mut table
                        .board
                        .squares()
                        .filter(|sq| s.free_for(table, *sq, Some(unit))),
                    on_board(unit),
                );
            }
            Choice::ReturnUnfriendly { unit } | Choice::ReturnThisUnit { unit } => {
                let factor = table.units[unit.index()].factor;
                places(
                    &mut s.return_squares(table, factor, Some(unit)),
                    on_board(unit),
                );
            }
            Choice::ReturnFriend => {
                // A square one captive may return to is answered by `place`;
                // where several may, each is named (R23).
                for sq in table.board.squares() {
                    let mut fits = s.friends_for(table, s.current, sq);
                    match (fits.next(), fits.next()) {
                        (None, _) => {}
                        (Some(_), None) => {
                            for f in Facing::ALL {
                                out.push(free(Command::Place(sq, f), None));
                            }
                        }
                        (Some(_), Some(_)) => {
                            for unit in s.friends_for(table, s.current, sq) {
                                let captive = captive_name(table, unit);
                                for f in Facing::ALL {
                                    out.push(free(Command::PlaceCaptive(sq, f, captive), None));
                                }
                            }
                        }
                    }
                }
            }
            Choice::ExtraActions { .. } | Choice::PickUnfriendly => {
                let mine = matches!(choice, Choice::ExtraActions { .. });
                for (i, u) in table.units.iter().enumerate() {
                    if (u.player == s.current) == mine
                        && let Place::Board { square, .. } = s.places[i]
                    {
                        out.push(free(Command::Pick(square), Some(square)));
                    }
                }
            }
        }
    }
}
