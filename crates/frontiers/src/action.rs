//! An action checked and resolved (R109, R113-R144): which rules a
//! command of a unit answers to, a refusal that changes nothing, the dice
//! it rolls, what it does, and the game's end when a side has no unit
//! standing (R145). Whose action it is, is [`crate::turn`]'s.

use sandtable_core::game::{Ending, Seat};

use crate::attack::sniper;
use crate::command::{Command, Special};
use crate::data::Ability;
use crate::event::{CommandError, Event, PendingDrop, refuse};
use crate::game::{GRENADE_BONUS, Game, Shot, X_STANDING};
use crate::setup::DropRule;
use crate::smoke::Cloud;
use crate::templates::{LARGE_MM, SMALL_MM, drop_landing};

impl Game {
    /// Checks an action of `side` in space, whoever's turn it is: a
    /// pick or a drop owed first, then the unit's own rules.
    pub fn check_action(&self, side: u8, command: &Command) -> Result<(), CommandError> {
        if self.over.is_some() {
            return refuse(145, "the game is over");
        }
        if let Some(&v) = self.picks.first() {
            let owner = self.units[v].side;
            if side != owner {
                return refuse(
                    125,
                    format!(
                        "{} owes the pick of the unit aboard {} that takes a step",
                        self.table.setup.sides[usize::from(owner)].name,
                        self.units[v].tag
                    ),
                );
            }
            return match command {
                Command::Pick { unit } => match self.find(*unit) {
                    Some(k) if self.units[k].alive && self.units[k].aboard == Some(v as u8) => {
                        Ok(())
                    }
                    _ => refuse(125, format!("{unit} is not aboard {}", self.units[v].tag)),
                },
                _ => refuse(
                    125,
                    format!(
                        "the pick of a unit aboard {} is owed first: pick X",
                        self.units[v].tag
                    ),
                ),
            };
        }
        if let Command::Pick { .. } = command {
            return refuse(125, "no pick is owed");
        }
        if let Some(p) = self.pending {
            let firer = self.units[p.shooter].side;
            if side != firer {
                return refuse(
                    129,
                    format!(
                        "{} owes where the drop fell",
                        self.table.setup.sides[usize::from(firer)].name
                    ),
                );
            }
            return match command {
                Command::Land { at } => self.check_land(at.pt()),
                _ => refuse(129, "the drop's template is awaited: land X,Y"),
            };
        }
        // A unit aboard leaves before anything else (R140).
        if !matches!(command, Command::Move { .. })
            && let Some(i) = command.unit().and_then(|t| self.find(t))
            && let Some(v) = self.units[i].aboard
            && self.units[i].side == side
        {
            return refuse(
                140,
                format!(
                    "{} is aboard {}: it leaves before it does anything else",
                    self.units[i].tag,
                    self.units[usize::from(v)].tag
                ),
            );
        }
        match command {
            Command::Move { unit, legs, face } => {
                let i = self.actor(side, *unit)?;
                self.check_move(i, legs, *face).map(|_| ())
            }
            Command::Charge { unit, target, legs } => {
                let i = self.actor(side, *unit)?;
                let t = self.enemy(side, *target)?;
                self.check_charge(i, t, legs).map(|_| ())
            }
            Command::Shoot {
                unit,
                target,
                weapon,
            } => {
                let i = self.actor(side, *unit)?;
                let t = self.enemy(side, *target)?;
                self.plan_shot(i, t, *weapon).map(|_| ())
            }
            Command::Grenade { unit, target } => {
                let i = self.actor(side, *unit)?;
                let t = self.enemy(side, *target)?;
                self.check_grenade(i, t)
            }
            Command::Window {
                unit,
                element,
                window,
            } => {
                let i = self.actor(side, *unit)?;
                self.check_window(i, *element, *window).map(|_| ())
            }
            Command::Rapid { unit, parts, n } => {
                let i = self.actor(side, *unit)?;
                self.check_rapid(i, &parts[..usize::from(*n).min(parts.len())])
                    .map(|_| ())
            }
            Command::Smoke { unit, at } => {
                let i = self.actor(side, *unit)?;
                self.check_smoke(i, at.pt())
            }
            Command::Heal {
                unit,
                patient,
                legs,
            } => {
                let i = self.actor(side, *unit)?;
                self.check_care(i, *patient, None, legs, Ability::Medic)
                    .map(|_| ())
            }
            Command::Repair {
                unit,
                patient,
                location,
                legs,
            } => {
                let i = self.actor(side, *unit)?;
                self.check_care(i, *patient, Some(*location), legs, Ability::Mechanic)
                    .map(|_| ())
            }
            Command::Special { unit, what } => {
                let i = self.actor(side, *unit)?;
                self.check_special(i, *what)
            }
            Command::Land { .. } => refuse(129, "no drop is awaited"),
            Command::Pick { .. } => refuse(125, "no pick is owed"),
            Command::Open { unit, legs } => {
                let i = self.actor(side, *unit)?;
                self.check_open(i, legs).map(|_| ())
            }
            Command::Hand { unit, to } => {
                let i = self.actor(side, *unit)?;
                self.check_hand(i, *to).map(|_| ())
            }
            Command::Toss { unit, to } => {
                let i = self.actor(side, *unit)?;
                self.check_toss(i, *to).map(|_| ())
            }
            Command::Transform { unit } => {
                let i = self.actor(side, *unit)?;
                let u = &self.units[i];
                if !u.data.has(Ability::Transformation) {
                    return refuse(137, format!("{unit} has no Transformation"));
                }
                if u.transformed {
                    return refuse(
                        137,
                        format!("{unit} has transformed this turn: once a turn"),
                    );
                }
                Ok(())
            }
            Command::Card { .. } => refuse(132, "a card is played in its window"),
            Command::Deploy { .. } => refuse(146, "units are deployed before the first turn"),
            Command::Discard { .. }
            | Command::Orders { .. }
            | Command::Name { .. }
            | Command::Pass { .. } => refuse(109, format!("`{command}` is no action of a unit")),
        }
    }

    /// Resolves an action of a unit of `side` now, in space, outside the
    /// turn's order (a pick or a drop owed still comes first): what the
    /// turn calls once it has checked whose action it is, and what the
    /// tests of the rules in space call directly. Whether dice were
    /// rolled. A refused action changes nothing: scripted dice that run
    /// out part way are found on a copy first.
    pub fn act(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<bool, CommandError> {
        self.check_action(side, command)?;
        self.all_or_nothing(events, |g, events| g.execute(side, command, events))
    }

    /// An action checked and resolved, on the game itself: for the turn,
    /// which works on a copy already where it must.
    pub(crate) fn resolve(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<bool, CommandError> {
        self.check_action(side, command)?;
        self.execute(side, command, events)
    }

    /// Runs `f` so that a refusal changes nothing: on a copy first where
    /// scripted dice may run out part way (R30).
    pub(crate) fn all_or_nothing<T>(
        &mut self,
        events: &mut Vec<Event>,
        f: impl FnOnce(&mut Game, &mut Vec<Event>) -> Result<T, CommandError>,
    ) -> Result<T, CommandError> {
        if self.dice.left().is_none() {
            return f(self, events);
        }
        let mut copy = self.clone();
        let mut evs = Vec::new();
        let done = f(&mut copy, &mut evs)?;
        *self = copy;
        events.extend(evs);
        Ok(done)
    }

    pub(crate) fn d6(&mut self) -> Result<u8, CommandError> {
        self.dice.d6().map_err(|out| CommandError {
            ruling: 30,
            reason: out.reason(),
        })
    }

    /// Applies a checked action: whether dice were rolled.
    fn execute(
        &mut self,
        side: u8,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<bool, CommandError> {
        let position = self.dice.position();
        self.show_if_used(command, events);
        match *command {
            Command::Move { unit, legs, face } => {
                let i = self.find(unit).expect("checked");
                self.move_unit(i, &legs, face, events)?;
            }
            Command::Charge { unit, target, legs } => {
                let i = self.find(unit).expect("checked");
                let t = self.find(target).expect("checked");
                self.move_unit(i, &legs, None, events)?;
                let armor = self.units[t].armor();
                let bonus = self.units[i].bonus(0, armor).expect("checked");
                self.attack_at(t, bonus, 0, events)?;
                self.drop_shield(i, events);
            }
            Command::Shoot {
                unit,
                target,
                weapon,
            } => {
                let i = self.find(unit).expect("checked");
                let t = self.find(target).expect("checked");
                let shot = self.plan_shot(i, t, weapon)?;
                let w = usize::from(weapon);
                match shot {
                    Shot::Direct(aim) => {
                        events.push(Event::Sighted {
                            shooter: i,
                            target: t,
                            to: crate::geometry::round_mm(aim.to),
                            modifiers: aim.modifiers.clone(),
                        });
                        let bonus = self.units[i]
                            .bonus(w, self.units[t].armor())
                            .expect("checked");
                        let m = aim.total() + self.flow.card_mod(i);
                        self.attack_at(t, bonus, m, events)?;
                    }
                    Shot::Sniper(aim) => {
                        events.push(Event::Sighted {
                            shooter: i,
                            target: t,
                            to: crate::geometry::round_mm(aim.to),
                            modifiers: Vec::new(),
                        });
                        let roll = self.d6()?;
                        let defense = self.units[t].defense();
                        let outcome = sniper(roll, defense, aim.sniper_penalties);
                        let need = if defense <= 4 { 2 } else { 3 } + aim.sniper_penalties;
                        events.push(Event::Sniped {
                            target: t,
                            roll,
                            need,
                            penalties: aim.sniper_penalties,
                            outcome,
                        });
                        self.land(t, outcome, events)?;
                    }
                    Shot::Template { diameter } => {
                        let at = self.units[t].at;
                        self.template(i, w, None, at, diameter, events)?;
                    }
                    Shot::Drop => {
                        let aim = self.units[t].at;
                        match self.table.setup.switches.drop {
                            DropRule::Scatter => {
                                let direction = self.d6()?;
                                let distance = self.d6()?;
                                let (tw, td) = self.table.setup.table;
                                let at = drop_landing(aim, direction, distance, LARGE_MM, tw, td);
                                events.push(Event::Scattered {
                                    aim,
                                    direction,
                                    distance,
                                    at,
                                });
                                self.template(i, w, None, at, LARGE_MM, events)?;
                            }
                            DropRule::Placed => {
                                self.pending = Some(PendingDrop {
                                    shooter: i,
                                    weapon,
                                    aim,
                                });
                                events.push(Event::AwaitingDrop { aim });
                                // The activation ends when the template lands.
                                return Ok(self.dice.position() != position);
                            }
                        }
                    }
                }
                self.drop_shield(i, events);
            }
            Command::Window {
                unit,
                element,
                window,
            } => {
                let i = self.find(unit).expect("checked");
                let (e, o) = self.check_window(i, element, window)?;
                events.push(Event::ThroughWindow {
                    unit: i,
                    element: e,
                    window,
                });
                let behind = self.table.setup.elements[e].openings[o].behind.clone();
                for k in behind {
                    if let Some(t) = self.occupant(e as u8, k, usize::MAX) {
                        self.attack_at(t, GRENADE_BONUS, self.flow.card_mod(i), events)?;
                    }
                }
                if self.elements[e] != X_STANDING && self.elements[e] > 0 {
                    let left = self.elements[e] - 1;
                    self.elements[e] = left;
                    events.push(Event::ElementStep { element: e, left });
                    if left == 0 {
                        self.ruin(e, events)?;
                    }
                }
                self.drop_shield(i, events);
            }
            Command::Rapid { unit, parts, n } => {
                let i = self.find(unit).expect("checked");
                let parts = &parts[..usize::from(n).min(parts.len())];
                // Every line and its modifiers are taken before any roll:
                // the targets are named before the first shot (R141).
                let aims = self.check_rapid(i, parts)?;
                for ((t, aim), part) in aims.into_iter().zip(parts) {
                    if !self.units[t].alive {
                        continue;
                    }
                    events.push(Event::Sighted {
                        shooter: i,
                        target: t,
                        to: crate::geometry::round_mm(aim.to),
                        modifiers: aim.modifiers.clone(),
                    });
                    let m = aim.total() + self.flow.card_mod(i);
                    self.attack_at(t, part.bonus as i8, m, events)?;
                }
                self.drop_shield(i, events);
            }
            Command::Grenade { unit, target } => {
                let i = self.find(unit).expect("checked");
                let t = self.find(target).expect("checked");
                let at = self.units[t].at;
                // An experimental grenade: +4, once (R144).
                let bonus = match self.units[i].gear {
                    Some((_, crate::crates::Content::ExperimentalGrenade)) => 4,
                    _ => GRENADE_BONUS,
                };
                self.template(i, 0, Some(bonus), at, SMALL_MM, events)?;
                self.drop_shield(i, events);
            }
            Command::Heal {
                unit,
                patient,
                legs,
            } => {
                let i = self.find(unit).expect("checked");
                let care = self.check_care(i, patient, None, &legs, Ability::Medic)?;
                self.give_care(i, &legs, care, events)?;
            }
            Command::Repair {
                unit,
                patient,
                location,
                legs,
            } => {
                let i = self.find(unit).expect("checked");
                let care = self.check_care(i, patient, Some(location), &legs, Ability::Mechanic)?;
                self.give_care(i, &legs, care, events)?;
            }
            Command::Smoke { unit, at } => {
                let i = self.find(unit).expect("checked");
                self.clouds.push(Cloud {
                    at: at.pt(),
                    owner: u16::from(side),
                    thrown: self.turn,
                });
                events.push(Event::Smoked {
                    unit: i,
                    at: at.pt(),
                });
            }
            Command::Special {
                unit,
                what: Special::Explosives,
            } => {
                // An element in contact takes 1d6 steps (R144).
                let i = self.find(unit).expect("checked");
                let k = self.element_in_contact(i).expect("checked");
                let roll = self.d6()?;
                let left = self.elements[k].saturating_sub(roll);
                self.elements[k] = left;
                events.push(Event::ElementStep { element: k, left });
                self.spend_if(i, crate::crates::Content::Explosives, events);
                if left == 0 {
                    self.ruin(k, events)?;
                }
            }
            Command::Special {
                unit,
                what: Special::Reserve,
            } => {
                // Set now, for the Reserve of a later turn: the unit is
                // flipped over, its Reserve side up (R137).
                let i = self.find(unit).expect("checked");
                self.units[i].readied = self.turn;
                self.units[i].back = true;
                events.push(Event::Flipped {
                    unit: i,
                    back: true,
                    why: "sets its Reserve action (R137)",
                });
            }
            Command::Special { unit, what } => {
                let i = self.find(unit).expect("checked");
                self.units[i].back = true;
                events.push(Event::Flipped {
                    unit: i,
                    back: true,
                    why: match what {
                        Special::Shield => "raises its energy shield (R135)",
                        _ => "sets its tripod (R136)",
                    },
                });
            }
            Command::Land { at } => {
                let p = self.pending.take().expect("checked");
                self.template(
                    p.shooter,
                    usize::from(p.weapon),
                    None,
                    at.pt(),
                    LARGE_MM,
                    events,
                )?;
                self.drop_shield(p.shooter, events);
            }
            Command::Pick { unit } => {
                // The owner's pick takes the step (R125); no activation.
                let k = self.find(unit).expect("checked");
                self.picks.remove(0);
                self.step(k, events)?;
                self.end_if_gone(events);
            }
            Command::Open { unit, legs } => {
                let i = self.find(unit).expect("checked");
                self.open_crate(i, &legs, events)?;
            }
            Command::Hand { unit, to } => {
                let i = self.find(unit).expect("checked");
                self.hand_over(i, to, events)?;
            }
            Command::Toss { unit, to } => {
                let i = self.find(unit).expect("checked");
                self.toss(i, to, events)?;
            }
            Command::Transform { unit } => {
                // Its other form, or back: the shifter shows Transformation
                // on both sides (R137, R151).
                let i = self.find(unit).expect("checked");
                let back = !self.units[i].back;
                self.units[i].back = back;
                self.units[i].transformed = true;
                events.push(Event::Flipped {
                    unit: i,
                    back,
                    why: "transforms (R137)",
                });
            }
            Command::Discard { .. }
            | Command::Orders { .. }
            | Command::Name { .. }
            | Command::Card { .. }
            | Command::Deploy { .. }
            | Command::Pass { .. } => unreachable!("checked: no action of a unit"),
        }
        // A crate used once is gone (R144).
        use crate::crates::Content;
        match *command {
            Command::Shoot { unit, .. } | Command::Rapid { unit, .. } => {
                if let Some(i) = self.find(unit) {
                    self.spend_if(i, Content::ExplosiveAmmunition, events);
                    self.spend_if(i, Content::SpecialAmmunition, events);
                }
            }
            Command::Grenade { unit, .. } => {
                if let Some(i) = self.find(unit) {
                    self.spend_if(i, Content::ExperimentalGrenade, events);
                }
            }
            Command::Smoke { unit, .. } => {
                if let Some(i) = self.find(unit)
                    && !self.units[i].data.has(Ability::SmokeBomb)
                {
                    self.spend_if(i, Content::SmokeBomb, events);
                }
            }
            _ => {}
        }
        // AP destroyed is checked after each resolution (R145).
        self.end_if_gone(events);
        Ok(self.dice.position() != position || matches!(command, Command::Land { .. }))
    }

    /// Ends the game when a side has no unit standing (R145); whether it
    /// did.
    pub(crate) fn end_if_gone(&mut self, events: &mut Vec<Event>) -> bool {
        if self.over.is_some() {
            return true;
        }
        let standing = |side: u8| {
            self.units
                .iter()
                .any(|u| (u.alive || u.waiting) && u.side == side)
        };
        let (a, b) = (standing(0), standing(1));
        if a && b {
            // Attack/Defense: the attacker below 3 units loses (R148).
            if self.table.setup.victory == crate::setup::Victory::AttackDefense {
                let attacker = self.table.setup.attacker;
                let left = self
                    .units
                    .iter()
                    .filter(|u| u.side == attacker && (u.alive || u.waiting))
                    .count();
                if left < 3 {
                    self.end(Ending::Won(Seat(u16::from(1 - attacker))), events);
                    return true;
                }
            }
            // Confrontation: 80% of the enemy list's AP destroyed (R146).
            if self.table.setup.victory == crate::setup::Victory::Confrontation {
                let list = |side: u8| -> u32 {
                    self.units
                        .iter()
                        .filter(|u| u.side == side)
                        .map(|u| u32::from(u.data.ap))
                        .sum()
                };
                let ap = [u32::from(self.ap[0]), u32::from(self.ap[1])];
                if let Some(ending) = crate::victory::confrontation(ap, [list(0), list(1)]) {
                    self.end(ending, events);
                    return true;
                }
            }
            return false;
        }
        let ending = match (a, b) {
            (false, false) => Ending::Draw("both sides destroyed at once (R145)"),
            (true, false) => Ending::Won(Seat(0)),
            _ => Ending::Won(Seat(1)),
        };
        self.end(ending, events);
        true
    }

    pub(crate) fn end(&mut self, ending: Ending, events: &mut Vec<Event>) {
        self.over = Some(ending);
        events.push(Event::Ended {
            ending,
            ap: self.ap,
        });
    }
}
