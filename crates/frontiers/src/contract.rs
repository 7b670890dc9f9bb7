//! The skirmish on the game contract ([`GameState`]): the legal list as
//! families (a unit's move, charge, shot ...), their members drawn over
//! the unit's reach and snapped to a wanted point, the odds of every shot
//! from the rules' own numbers, and what the CLI prints.

use std::fmt::Write as _;

use rand::Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{
    Applied, Barrier, Chance, Decision, Ending, GameState, Legal, MASK_SEED, Mark, Odds, Refusal,
    Ruling, Seat, Seats, Spot, Surface, Viewer, no_dice,
};
use sandtable_core::hash::Mix;

use crate::attack::sniper_odds;
use crate::command::{Command, Kind, Legs, P16, Special, Tag};
use crate::data::{Ability, Back};
use crate::event::{CommandError, Event, Struck};
use crate::families::{CareOf, TRIES};
use crate::flow::{Owing, Phase};
use crate::game::{Game, Shot};
use crate::geometry::{Footprint, Pt, gap};
use crate::templates::{LARGE_MM, SMALL_MM};
use crate::turn::{card_ids, kind_of};

impl Refusal for CommandError {
    fn ruling(&self) -> Ruling {
        Ruling(self.ruling)
    }
}

impl GameState for Game {
    type Command = Command;
    type Refusal = CommandError;
    type Event = Event;

    fn system(&self) -> &'static str {
        "Frontiers"
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &str {
        &self.setup().sides[seat.index().min(1)].name
    }

    fn decision(&self) -> Decision {
        match self.owing() {
            Owing::Over(ending) => Decision::Over(ending),
            Owing::One(side) => Decision::One(Seat(u16::from(side))),
            Owing::Sealed(owed) => {
                let mut seats = Seats::default();
                for side in 0..2u16 {
                    if owed[usize::from(side)] {
                        seats = seats.with(Seat(side));
                    }
                }
                Decision::Sealed(seats)
            }
        }
    }

    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Command>>) {
        out.clear();
        if let Some(side) = self.side_of(seat) {
            self.legal_for(side, out);
        }
    }

    /// Draws a family without listing them all: a candidate drawn
    /// uniformly among every (unit, action, target) the list could hold,
    /// kept if it is listed and drawn again if not, gives each listed
    /// family the same chance (the list's own checks decide); then one of
    /// its members. Far cheaper than the list, which traces every line of
    /// sight.
    fn random_command<R: Rng + ?Sized>(&self, seat: Seat, rng: &mut R) -> Option<Command> {
        let side = self.side_of(seat)?;
        if self.over.is_some() {
            return None;
        }
        if !self.picks.is_empty() {
            let mut legal = Vec::new();
            self.legal_for(side, &mut legal);
            return (!legal.is_empty()).then(|| legal[rng.random_range(0..legal.len())].command);
        }
        if self.pending.is_some() {
            let mut legal = Vec::new();
            self.legal_for(side, &mut legal);
            let listed = legal.first()?.command;
            let mut member = Vec::with_capacity(1);
            self.sample_into(seat, &listed, 1, rng, &mut member);
            return member.pop();
        }
        let from_list = |rng: &mut R| {
            let mut legal = Vec::new();
            self.legal_for(side, &mut legal);
            if legal.is_empty() {
                return None;
            }
            let listed = legal[rng.random_range(0..legal.len())].command;
            let mut member = Vec::with_capacity(1);
            self.sample_into(seat, &listed, 1, rng, &mut member);
            Some(member.pop().unwrap_or(listed))
        };
        match self.flow.phase {
            Phase::Deploy(_)
            | Phase::Order
            | Phase::Prepare(_)
            | Phase::Name(_)
            | Phase::Window => {
                return from_list(rng);
            }
            Phase::Act | Phase::Shots | Phase::Reserve(_) => {}
        }
        let actors = self.actors(side);
        if actors.is_empty() {
            return None;
        }
        if actors.iter().any(|a| a.1.contains(&Kind::Card)) {
            // A Card action: its few families listed.
            return from_list(rng);
        }
        let reserve = matches!(self.flow.phase, Phase::Reserve(_));
        let ready: Vec<usize> = actors.iter().map(|a| a.0).collect();
        let enemies: Vec<usize> = (0..self.units.len())
            .filter(|i| self.units[*i].alive && self.units[*i].side != side)
            .collect();
        // Each ready unit's candidates: its move, smoke and two specials,
        // and for each enemy a shot a weapon, a grenade and a charge.
        // A medic's or mechanic's care of each friend, standing or fallen
        // (R139): a kind of care each.
        let carer = |i: usize| {
            let d = self.units[i].data;
            d.has(Ability::Medic) || d.has(Ability::Mechanic)
        };
        let friends = |i: usize| -> Vec<usize> {
            (0..self.units.len())
                .filter(|t| {
                    let f = &self.units[*t];
                    *t != i && f.side == side && (f.alive || f.fell.is_some())
                })
                .collect()
        };
        // A grenade through each window of the table (R127).
        let windows: Vec<(usize, u8)> = self
            .setup()
            .elements
            .iter()
            .enumerate()
            .flat_map(|(e, el)| {
                let n = el
                    .openings
                    .iter()
                    .filter(|o| o.kind == crate::setup::OpeningKind::Window)
                    .count();
                (1..=n as u8).map(move |w| (e, w))
            })
            .collect();
        let per_unit: Vec<usize> = ready
            .iter()
            .map(|i| {
                4 + enemies.len() * (self.units[*i].data.weapons.len().max(1) + 2)
                    + if carer(*i) {
                        friends(*i).len() * CareOf::ALL.len()
                    } else {
                        0
                    }
                    + windows.len()
                    // A crate opened, a crate handed and the diskette
                    // tossed to each unit, a transformation.
                    + self.crates.len()
                    + 2 * self.units.len()
                    + 1
                    // Its pass: `pass T3` in the Reserve, `pass` else.
                    + 1
            })
            .collect();
        let total: usize = per_unit.iter().sum();
        if total == 0 {
            return None;
        }
        // A listed move exists for every ready unit: the draw ends.
        loop {
            let mut k = rng.random_range(0..total);
            let mut pick = 0;
            while k >= per_unit[pick] {
                k -= per_unit[pick];
                pick += 1;
            }
            let i = ready[pick];
            let u = &self.units[i];
            if k == per_unit[pick] - 1 {
                return Some(Command::Pass {
                    unit: reserve.then_some(u.tag),
                });
            }
            if k > 0 && u.aboard.is_some() {
                // Aboard, only its move is listed (R140).
                continue;
            }
            // The candidate's kind and weapon, against what the unit may
            // take now (R109, R111, R112).
            let (_, kinds, weapon) = &actors[pick];
            let extras = self.crates.len() + 2 * self.units.len() + 1;
            if k == per_unit[pick] - 2 {
                let c = Command::Transform { unit: u.tag };
                if self.check_as(side, &c).is_ok() {
                    return Some(c);
                }
                continue;
            }
            if k >= per_unit[pick] - 1 - extras {
                let x = k - (per_unit[pick] - 1 - extras);
                let tossing = x >= self.crates.len() + self.units.len();
                let kind = if tossing { Kind::Shoot } else { Kind::Move };
                if !kinds.contains(&kind) {
                    continue;
                }
                let c = if x < self.crates.len() {
                    self.open_listed(i, x)
                } else if !tossing {
                    self.hand_listed(i, x - self.crates.len())
                } else {
                    self.toss_listed(i, x - self.crates.len() - self.units.len())
                };
                match c {
                    Some(c) => return Some(c),
                    None => continue,
                }
            }
            let per_enemy = u.data.weapons.len().max(1) + 2;
            let (kind, fires) = match k {
                0 => (Kind::Move, None),
                1..=3 => (Kind::Special, None),
                k if k - 4 < enemies.len() * per_enemy => match (k - 4) % per_enemy {
                    0 => (Kind::Move, None),
                    1 => (Kind::Shoot, Some(0)),
                    w => (Kind::Shoot, Some((w - 2) as u8)),
                },
                k if k - 4 - enemies.len() * per_enemy
                    < if carer(i) {
                        friends(i).len() * CareOf::ALL.len()
                    } else {
                        0
                    } =>
                {
                    (Kind::Special, None)
                }
                _ => (Kind::Shoot, Some(0)),
            };
            if !kinds.contains(&kind) || weapon.is_some_and(|w| fires.is_some_and(|f| f != w)) {
                continue;
            }
            let listed = match k {
                0 => Some(Command::Move {
                    unit: u.tag,
                    legs: Legs::default(),
                    face: None,
                }),
                1 => self.check_smoke(i, u.at).is_ok().then_some(Command::Smoke {
                    unit: u.tag,
                    at: Game::p16(u.at),
                }),
                2 | 3 => {
                    let what = if k == 2 {
                        Special::Shield
                    } else {
                        Special::Tripod
                    };
                    let c = Command::Special { unit: u.tag, what };
                    self.check_action(side, &c).is_ok().then_some(c)
                }
                _ => {
                    let k = k - 4;
                    let per_enemy = u.data.weapons.len().max(1) + 2;
                    let cares = if carer(i) {
                        friends(i).len() * CareOf::ALL.len()
                    } else {
                        0
                    };
                    if k >= enemies.len() * per_enemy + cares {
                        let (e, w) = windows[k - enemies.len() * per_enemy - cares];
                        let c = Command::Window {
                            unit: u.tag,
                            element: self.element_tag(e),
                            window: w,
                        };
                        if self.check_window(i, self.element_tag(e), w).is_ok() {
                            return Some(c);
                        }
                        continue;
                    }
                    if k >= enemies.len() * per_enemy {
                        let k = k - enemies.len() * per_enemy;
                        let t = friends(i)[k / CareOf::ALL.len()];
                        let care = CareOf::ALL[k % CareOf::ALL.len()];
                        let listed = if u.data.has(care.ability) {
                            self.care_paths(i, t, care)
                                .into_iter()
                                .next()
                                .map(|legs| care.command(u.tag, self.units[t].tag, legs))
                        } else {
                            None
                        };
                        if let Some(listed) = listed {
                            let mut member = Vec::with_capacity(1);
                            self.sample_into(seat, &listed, 1, rng, &mut member);
                            return Some(member.pop().unwrap_or(listed));
                        }
                        continue;
                    }
                    let t = enemies[k / per_enemy];
                    let e = &self.units[t];
                    match k % per_enemy {
                        0 if u.data.has(Ability::Charge) => self
                            .charge_paths(i, t)
                            .into_iter()
                            .next()
                            .map(|legs| Command::Charge {
                                unit: u.tag,
                                target: e.tag,
                                legs,
                            }),
                        0 => None,
                        1 => self
                            .check_grenade(i, t)
                            .is_ok()
                            .then_some(Command::Grenade {
                                unit: u.tag,
                                target: e.tag,
                            }),
                        w => {
                            let weapon = (w - 2) as u8;
                            self.plan_shot(i, t, weapon)
                                .is_ok()
                                .then_some(Command::Shoot {
                                    unit: u.tag,
                                    target: e.tag,
                                    weapon,
                                })
                        }
                    }
                }
            };
            if let Some(listed) = listed {
                let mut member = Vec::with_capacity(1);
                self.sample_into(seat, &listed, 1, rng, &mut member);
                return Some(member.pop().unwrap_or(listed));
            }
        }
    }

    fn sample_into<R: Rng + ?Sized>(
        &self,
        seat: Seat,
        listed: &Command,
        count: usize,
        rng: &mut R,
        out: &mut Vec<Command>,
    ) {
        if count == 0 {
            return;
        }
        let side = self.side_of(seat);
        if let (Command::Orders { .. }, Some(side)) = (listed, side) {
            for _ in 0..count {
                out.push(self.random_orders(side, rng));
            }
            return;
        }
        if let (
            Command::Card {
                at: Some(_),
                unit: Some(u),
                ..
            },
            Some(side),
        ) = (listed, side)
            && let Some(i) = self.find(*u)
        {
            // A smoke screen's points, within its ruler (R152).
            let reach = f64::from(self.setup().switches.ruler_mm()) + 15.0;
            for _ in 0..count {
                let mut drawn = *listed;
                for _ in 0..TRIES {
                    let p = Game::point_near(self.units[i].at, reach, rng);
                    let Some(at) = P16::of(p) else { continue };
                    let Command::Card { card, .. } = *listed else {
                        unreachable!("a card")
                    };
                    let c = Command::Card {
                        card,
                        unit: Some(*u),
                        patient: None,
                        location: None,
                        at: Some(at),
                        legs: Legs::default(),
                    };
                    if self.check_card(side, &c).is_ok() {
                        drawn = c;
                        break;
                    }
                }
                out.push(drawn);
            }
            return;
        }
        if let Command::Deploy { unit, .. } = listed
            && let Some(i) = self.find(*unit)
        {
            for _ in 0..count {
                out.push(self.random_deploy(i, rng).unwrap_or(*listed));
            }
            return;
        }
        let unit = listed.unit().and_then(|t| self.find(t));
        match (*listed, unit) {
            (Command::Move { .. }, Some(i)) => self.sample_moves(i, count, rng, out),
            (Command::Charge { target, .. }, Some(i)) => {
                let Some(t) = self.find(target) else {
                    out.push(*listed);
                    return;
                };
                let paths = self.charge_paths(i, t);
                if paths.is_empty() {
                    out.push(*listed);
                    return;
                }
                for _ in 0..count {
                    out.push(Command::Charge {
                        unit: self.units[i].tag,
                        target,
                        legs: paths[rng.random_range(0..paths.len())],
                    });
                }
            }
            (Command::Heal { patient, .. } | Command::Repair { patient, .. }, Some(i)) => {
                let care = CareOf::of(listed).expect("care");
                let paths = self
                    .find(patient)
                    .map_or(Vec::new(), |t| self.care_paths(i, t, care));
                if paths.is_empty() {
                    out.push(*listed);
                    return;
                }
                for _ in 0..count {
                    out.push(care.command(
                        self.units[i].tag,
                        patient,
                        paths[rng.random_range(0..paths.len())],
                    ));
                }
            }
            (Command::Smoke { unit, .. }, Some(i)) => {
                let u = &self.units[i];
                let reach = if u.vehicle() {
                    f64::from(self.setup().switches.ruler_mm())
                } else {
                    f64::from(crate::game::GRENADE_LNS * u32::from(self.setup().switches.lns_mm))
                } + f64::from(u.data.base.size_mm().0) / 2.0;
                let start = out.len();
                for _ in 0..count * TRIES {
                    if out.len() - start >= count {
                        break;
                    }
                    let p = Game::point_near(u.at, reach, rng);
                    if self.check_smoke(i, p).is_ok() {
                        out.push(Command::Smoke {
                            unit,
                            at: Game::p16(p),
                        });
                    }
                }
                if out.len() == start {
                    out.push(*listed);
                }
            }
            (
                Command::Shoot {
                    target, weapon: 0, ..
                },
                Some(i),
            ) if self.units[i].data.has(Ability::RapidFire) => {
                self.sample_splits(i, target, count, rng, out);
                if out.is_empty() {
                    out.push(*listed);
                }
            }
            (Command::Land { .. }, _) => {
                let (w, d) = self.setup().table;
                let r = i32::from(LARGE_MM / 2);
                for _ in 0..count {
                    let p = Pt::new(
                        rng.random_range(r..=i32::from(w) - r),
                        rng.random_range(r..=i32::from(d) - r),
                    );
                    out.push(Command::Land { at: Game::p16(p) });
                }
            }
            _ => {
                let _ = side;
                out.push(*listed);
            }
        }
    }

    fn nearest(&self, seat: Seat, listed: &Command, wanted: Spot) -> Option<Command> {
        let Spot::Point { x_mm, y_mm } = wanted else {
            return None;
        };
        let wanted = Pt::new(i32::from(x_mm), i32::from(y_mm));
        let _ = self.side_of(seat)?;
        match *listed {
            Command::Move { unit, face, .. } => self.nearest_move(self.find(unit)?, wanted, face),
            Command::Charge { unit, target, .. } => {
                let (i, t) = (self.find(unit)?, self.find(target)?);
                self.charge_paths(i, t)
                    .into_iter()
                    .min_by_key(|legs| {
                        let end = legs.end_point().unwrap_or(self.units[i].at);
                        i64::from(end.x - wanted.x).pow(2) + i64::from(end.y - wanted.y).pow(2)
                    })
                    .map(|legs| Command::Charge { unit, target, legs })
            }
            Command::Smoke { unit, .. } => {
                let i = self.find(unit)?;
                let u = &self.units[i];
                let (dx, dy) = (f64::from(wanted.x - u.at.x), f64::from(wanted.y - u.at.y));
                let d = dx.hypot(dy);
                let mut r = d.floor();
                while r >= 0.0 {
                    let k = if d > 0.0 { r / d } else { 0.0 };
                    let p = Pt::new(
                        u.at.x + (dx * k).round() as i32,
                        u.at.y + (dy * k).round() as i32,
                    );
                    if self.check_smoke(i, p).is_ok() {
                        return Some(Command::Smoke {
                            unit,
                            at: Game::p16(p),
                        });
                    }
                    r -= 1.0;
                }
                None
            }
            Command::Land { .. } => Some(Command::Land {
                at: Game::p16(self.drop_onto_table(wanted)),
            }),
            Command::Deploy { unit, .. } => self.nearest_deploy(self.find(unit)?, wanted),
            _ => None,
        }
    }

    fn listed_as(&self, command: &Command) -> Command {
        match *command {
            // A crate's family: every move that ends touching it (R143).
            Command::Open { unit, legs } => self
                .find(unit)
                .and_then(|i| {
                    let k = self.check_open(i, &legs).ok()?;
                    self.open_listed(i, k)
                })
                .unwrap_or(*command),
            // One family a unit deployed: everywhere it may go (R146).
            Command::Deploy { unit, .. } => self
                .find(unit)
                .and_then(|i| self.listed_deploy(i))
                .unwrap_or(*command),
            // A smoke screen's family: its points; a field repair's: its
            // moves (R152).
            Command::Card {
                card,
                unit: Some(unit),
                patient,
                location,
                at,
                ..
            } => Command::Card {
                card,
                unit: Some(unit),
                patient,
                location,
                at: at.and(
                    self.find(unit)
                        .and_then(|i| crate::command::P16::of(self.units[i].at)),
                ),
                legs: Legs::default(),
            },
            // One family of every placing of a side's markers (R107).
            Command::Orders { orders, n } => {
                let side = orders[..usize::from(n)]
                    .iter()
                    .find_map(|o| self.find(o.unit))
                    .map_or(0, |i| self.units[i].side);
                self.canonical_orders(side)
            }
            Command::Move { unit, .. } => Command::Move {
                unit,
                legs: Legs::default(),
                face: None,
            },
            // A charge is named as a Move (R134): one whose path none of
            // the system's approaches finds is of its unit's moves.
            Command::Charge { unit, target, .. } => match (self.find(unit), self.find(target)) {
                (Some(i), Some(t)) => match self.charge_paths(i, t).into_iter().next() {
                    Some(legs) => Command::Charge { unit, target, legs },
                    None => Command::Move {
                        unit,
                        legs: Legs::default(),
                        face: None,
                    },
                },
                _ => *command,
            },
            Command::Heal { unit, patient, .. } | Command::Repair { unit, patient, .. } => {
                let care = CareOf::of(command).expect("care");
                match (self.find(unit), self.find(patient)) {
                    (Some(i), Some(t)) => care.command(
                        unit,
                        patient,
                        self.care_paths(i, t, care)
                            .into_iter()
                            .next()
                            .unwrap_or_default(),
                    ),
                    _ => *command,
                }
            }
            Command::Rapid { unit, parts, .. } => Command::Shoot {
                unit,
                target: parts[0].target,
                weapon: 0,
            },
            Command::Smoke { unit, .. } => match self.find(unit) {
                Some(i) => Command::Smoke {
                    unit,
                    at: Game::p16(self.units[i].at),
                },
                None => *command,
            },
            Command::Land { .. } => match self.pending {
                Some(p) => Command::Land {
                    at: Game::p16(self.drop_onto_table(p.aim)),
                },
                None => *command,
            },
            _ => *command,
        }
    }

    fn check(&self, seat: Seat, command: &Command) -> Result<(), CommandError> {
        let Some(side) = self.side_of(seat) else {
            return Err(CommandError {
                ruling: 103,
                reason: format!("seat {} has no side: a skirmish has 2", seat.0),
            });
        };
        self.check_as(side, command)
    }

    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Command,
        events: &mut Vec<Event>,
    ) -> Result<Applied, CommandError> {
        self.check(seat, command)?;
        let side = seat.0 as u8;
        let secrets = |g: &Game| g.crates.iter().filter(|c| c.secret_of.is_some()).count();
        let hidden = secrets(self);
        let done = self.apply_as(side, command, events)?;
        // An allotted crate shown is a reveal too (R143, R149).
        let shown = secrets(self) < hidden;
        Ok(Applied {
            barrier: if done.began {
                Some(Barrier::TurnStart)
            } else if done.revealed || shown {
                Some(Barrier::Reveal)
            } else if done.rolled {
                Some(Barrier::Roll)
            } else {
                None
            },
        })
    }

    fn describe(&self, event: &Event) -> String {
        self.words(event)
    }

    fn odds(&self, seat: Seat, command: &Command) -> Vec<Odds> {
        if self.check(seat, command).is_err() {
            return Vec::new();
        }
        let mut out = Vec::new();
        match *command {
            Command::Shoot {
                unit,
                target,
                weapon,
            } => {
                let (i, t) = (
                    self.find(unit).expect("checked"),
                    self.find(target).expect("checked"),
                );
                let w = usize::from(weapon);
                match self.plan_shot(i, t, weapon) {
                    Ok(Shot::Direct(aim)) => {
                        let bonus = self.units[i].bonus(w, self.units[t].armor()).unwrap_or(0);
                        out.push(Odds {
                            what: format!("{unit}'s shot at {target} (R123)"),
                            outcomes: self.attack_outcomes(Struck::Unit(t), bonus, aim.total()),
                        });
                    }
                    Ok(Shot::Sniper(aim)) => {
                        let [miss, step, _] =
                            sniper_odds(self.units[t].defense(), aim.sniper_penalties);
                        let after =
                            if self.units[t].data.back() == Back::Damaged && !self.units[t].back {
                                "damaged"
                            } else {
                                "destroyed"
                            };
                        out.push(Odds {
                            what: format!("{unit}'s sniper shot at {target} (R142)"),
                            outcomes: [
                                (format!("{target}: missed"), miss),
                                (format!("{target}: a step, {after}"), step),
                            ]
                            .into_iter()
                            .filter(|o| o.1 > 0)
                            .map(|(w, n)| {
                                (
                                    w,
                                    Chance {
                                        num: u64::from(n),
                                        den: 6,
                                    },
                                )
                            })
                            .collect(),
                        });
                    }
                    Ok(Shot::Template { diameter }) => {
                        self.template_odds(i, w, None, self.units[t].at, diameter, &mut out);
                    }
                    Ok(Shot::Drop) => {
                        out.push(Odds {
                            what: "the drop's scatter from its aim (R129)".into(),
                            outcomes: (1..=6u8)
                                .map(|d| {
                                    let mm = u32::from(d - 1) * 15;
                                    (
                                        if mm == 0 {
                                            "on its aim".to_owned()
                                        } else {
                                            format!("{mm} mm off")
                                        },
                                        Chance { num: 1, den: 6 },
                                    )
                                })
                                .collect(),
                        });
                    }
                    Err(_) => {}
                }
            }
            Command::Window {
                unit,
                element,
                window,
            } => {
                let i = self.find(unit).expect("checked");
                if let Ok((e, o)) = self.check_window(i, element, window) {
                    for k in &self.setup().elements[e].openings[o].behind {
                        if let Some(t) = self.occupant(e as u8, *k, usize::MAX) {
                            out.push(Odds {
                                what: format!(
                                    "{unit}'s grenade through {element}.w{window} at {} (R127)",
                                    self.units[t].tag
                                ),
                                outcomes: self.attack_outcomes(
                                    Struck::Unit(t),
                                    crate::game::GRENADE_BONUS,
                                    0,
                                ),
                            });
                        }
                    }
                }
            }
            Command::Rapid { unit, parts, n } => {
                let i = self.find(unit).expect("checked");
                let parts = &parts[..usize::from(n).min(parts.len())];
                if let Ok(aims) = self.check_rapid(i, parts) {
                    for ((t, aim), part) in aims.into_iter().zip(parts) {
                        out.push(Odds {
                            what: format!(
                                "{unit}'s part +{} at {} (R141)",
                                part.bonus, part.target
                            ),
                            outcomes: self.attack_outcomes(
                                Struck::Unit(t),
                                part.bonus as i8,
                                aim.total(),
                            ),
                        });
                    }
                }
            }
            Command::Grenade { unit, target } => {
                let (i, t) = (
                    self.find(unit).expect("checked"),
                    self.find(target).expect("checked"),
                );
                self.template_odds(
                    i,
                    0,
                    Some(crate::game::GRENADE_BONUS),
                    self.units[t].at,
                    SMALL_MM,
                    &mut out,
                );
            }
            Command::Charge { unit, target, .. } => {
                let (i, t) = (
                    self.find(unit).expect("checked"),
                    self.find(target).expect("checked"),
                );
                let bonus = self.units[i].bonus(0, self.units[t].armor()).unwrap_or(0);
                out.push(Odds {
                    what: format!("{unit}'s charge on {target} (R134)"),
                    outcomes: self.attack_outcomes(Struck::Unit(t), bonus, 0),
                });
            }
            Command::Land { at } => {
                let p = self.pending.expect("checked");
                self.template_odds(
                    p.shooter,
                    usize::from(p.weapon),
                    None,
                    at.pt(),
                    LARGE_MM,
                    &mut out,
                );
            }
            _ => {}
        }
        out
    }

    fn dice(&self) -> &Dice {
        &self.dice
    }

    fn set_dice(&mut self, dice: Dice) {
        self.dice = dice;
    }

    fn reseed(&mut self, seed: u64) {
        self.dice = Dice::seeded(seed);
    }

    fn state_hash(&self) -> u64 {
        let mut h = Mix::new();
        for u in &self.units {
            h.u64(u64::from(u32::from_le_bytes(tag_bytes(u.tag))));
            h.u64(u64::from(u.at.x as u32) | u64::from(u.at.y as u32) << 32);
            h.u64(
                u64::from(u.facing as u16)
                    | u64::from(u.back) << 16
                    | u64::from(u.alive) << 17
                    | u64::from(u.carcass) << 18
                    | u64::from(u.acted) << 19
                    | u64::from(u.hits) << 24
                    | u64::from(u.side) << 32
                    | u64::from(
                        u.inside
                            .map_or(0, |(e, k)| 1 + u16::from(e) * 256 + u16::from(k)),
                    ) << 40,
            );
            h.u64(
                u64::from(u.hurt)
                    | u.fell
                        .map_or(0, |(t, d)| (1 + u64::from(t)) << 32 | u64::from(d) << 63),
            );
            h.u64(u.aboard.map_or(0, |v| 1 + u64::from(v)));
            h.u64(
                u.gear
                    .map_or(0, |(k, c)| 1 + u64::from(k) + ((c as u64) << 8))
                    | u64::from(u.handed) << 16
                    | u64::from(u.waiting) << 17
                    | u64::from(u.boost) << 24
                    | u64::from(u.readied) << 32,
            );
        }
        for c in &self.crates {
            h.u64(u64::from(c.at.x as u32) | u64::from(c.at.y as u32) << 32);
            h.u64(
                c.content.map_or(0, |c| 1 + c as u64)
                    | c.secret_of.map_or(0, |s| 1 + u64::from(s)) << 40
                    | match c.state {
                        crate::crates::CrateState::Lying => 0,
                        crate::crates::CrateState::Carried(u) => 1 + u64::from(u),
                        crate::crates::CrateState::Banked(s) => 512 + u64::from(s),
                        crate::crates::CrateState::Gone => 1024,
                    } << 8,
            );
        }
        h.u64(u64::from(self.banked[0]) | u64::from(self.banked[1]) << 8);
        if let Some(d) = self.diskette {
            h.u64(u64::from(d.at.x as u32) | u64::from(d.at.y as u32) << 32);
            h.u64(d.carrier.map_or(0, |c| 1 + u64::from(c)));
        }
        h.u64(self.picks.len() as u64);
        for v in &self.picks {
            h.u64(*v as u64);
        }
        for s in &self.elements {
            h.u64(u64::from(*s));
        }
        h.u64(self.clouds.len() as u64);
        for c in &self.clouds {
            h.u64(u64::from(c.at.x as u32) | u64::from(c.at.y as u32) << 32);
            h.u64(u64::from(c.owner) | u64::from(c.thrown) << 16);
        }
        h.u64(u64::from(self.turn));
        self.hash_flow(&mut h);
        match self.pending {
            Some(p) => {
                h.u64((1 + p.shooter as u64) | (u64::from(p.weapon) << 32));
                h.u64(u64::from(p.aim.x as u32) | u64::from(p.aim.y as u32) << 32);
            }
            None => h.u64(0),
        }
        h.u64(u64::from(self.ap[0]) | u64::from(self.ap[1]) << 16);
        h.u64(match self.over {
            None => 0,
            Some(Ending::Won(s)) => 1 + u64::from(s.0),
            Some(Ending::Draw(_)) => 1 << 20,
        });
        h.u128(self.dice.position());
        h.finish()
    }

    fn turn(&self) -> u32 {
        self.turn
    }

    fn surface(&self) -> Surface {
        let (width_mm, depth_mm) = self.setup().table;
        Surface::Plane { width_mm, depth_mm }
    }

    fn describe_spot(&self, spot: Spot, viewer: Viewer) -> Option<String> {
        let Spot::Point { x_mm, y_mm } = spot else {
            return None;
        };
        let p = Pt::new(i32::from(x_mm), i32::from(y_mm));
        let probe = Footprint::disc(p, 0).shape();
        let mut parts = Vec::new();
        for u in self.units.iter().filter(|u| u.alive || u.carcass) {
            if gap(&u.shape(), &probe) <= 0.0 {
                parts.push(crate::text::unit_line(self, u, viewer_side(viewer)));
            }
        }
        for (k, t) in self.setup().terrain.iter().enumerate() {
            if crate::setup::point_in(p, &t.corners) {
                parts.push(format!("{} (terrain[{k}])", t.kind.name()));
            }
        }
        for (k, e) in self.setup().elements.iter().enumerate() {
            if crate::setup::point_in(p, &e.corners) {
                parts.push(match self.elements[k] {
                    0 => format!("{}: a ruin, a light structure (R119)", e.name),
                    crate::game::X_STANDING => {
                        format!("{}: falls with the element it is tied to (R119)", e.name)
                    }
                    left => format!("{}: defense {}, {left} steps left", e.name, e.defense),
                });
            }
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    fn marks(&self, seat: Seat, command: &Command, viewer: Viewer) -> Vec<Mark> {
        let _ = viewer;
        self.marks_of(seat, command)
    }

    fn view_json(&self, viewer: Viewer) -> String {
        crate::text::json(self, viewer_side(viewer))
    }

    fn draw_text(&self, viewer: Viewer) -> String {
        crate::text::draw(self, crate::text::DEFAULT_CELL_MM, viewer_side(viewer))
    }

    /// The hands, the markers' numbers, the decks' order (R149).
    fn hides(&self) -> bool {
        true
    }

    /// A Preparation's draw as the other side may read it: how many
    /// cards, not which (R149).
    fn describe_for(&self, event: &Event, viewer: Viewer) -> Option<String> {
        match (event, viewer_side(viewer)) {
            (
                Event::Prepared {
                    side,
                    discarded,
                    drew,
                },
                Some(v),
            ) if v != *side => Some(self.prepared_words(*side, discarded, None, drew.len())),
            (Event::Resupplied { side, drew }, Some(v)) if v != *side => Some(format!(
                "{} draws {} (R152)",
                self.setup().sides[usize::from(*side)].name,
                match drew.len() {
                    1 => "a card".to_owned(),
                    n => format!("{n} cards"),
                }
            )),
            _ => Some(self.describe(event)),
        }
    }

    /// Another side's orders are its secret; so is its sealed shot until
    /// both are named (R107, R111, R149).
    fn command_for(&self, seat: Seat, command: &Command, viewer: Viewer) -> Option<String> {
        let other = match viewer {
            Viewer::Referee => false,
            Viewer::Player(v) => v != seat,
            Viewer::Public => true,
        };
        let sealed_shot = self.flow.phase == Phase::Shots
            && self.flow.sealed[seat.index().min(1)].is_some()
            && kind_of(command).is_some();
        if other && (matches!(command, Command::Orders { .. }) || sealed_shot) {
            return None;
        }
        Some(command.to_string())
    }

    /// A bot's copy (R30, R149): the dice reseeded, and everything of the
    /// turn `viewer` may not know dealt again from what it may.
    fn redeal(&mut self, viewer: Seat, seed: u64) {
        self.reseed(seed);
        if let Some(side) = self.side_of(viewer) {
            self.redeal_for(side, seed ^ 0x9e37_79b9_7f4a_7c15);
        }
    }

    /// What `viewer` may not see dealt again from its view (R149): the
    /// public's holds neither side's hand, face-down markers or sealed
    /// command, a side's holds its own; the crates' hidden contents and
    /// the decks' order are drawn again, and the dice are none.
    fn masked(&self, viewer: Viewer) -> Game {
        let mut copy = self.clone();
        if let Some(side) = viewer_side(viewer) {
            copy.redeal_for(side, MASK_SEED);
            // The setup's allotted crates are their side's (R143): left
            // out of the copy's setup, the game's crates saying what the
            // viewer knows of them.
            if self
                .setup()
                .units
                .iter()
                .any(|u| u.gear.is_some() && u.side != side)
            {
                let mut table = (*self.table).clone();
                for u in table.setup.units.iter_mut().filter(|u| u.side != side) {
                    u.gear = None;
                }
                copy.table = std::sync::Arc::new(table);
            }
        }
        copy.dice = no_dice();
        // The setup's seed would tell every roll to come (R30).
        if copy.table.setup.seed != 0 {
            std::sync::Arc::make_mut(&mut copy.table).setup.seed = 0;
        }
        copy
    }

    fn undo_stop(&self, barrier: Option<Barrier>) -> String {
        match barrier {
            Some(Barrier::Roll) => "dice were rolled, or a drop landed (R31)".into(),
            other => sandtable_core::game::default_stop(other),
        }
    }

    fn warnings(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut w = String::new();
        for side in 0..2u8 {
            let any = self.units.iter().any(|u| u.side == side);
            if !any {
                let _ = write!(w, "side {side} has no unit");
                out.push(std::mem::take(&mut w));
            }
        }
        out
    }
}

/// The side a viewer sees as; `None` for the referee, [`ONLOOKER`] for
/// the public, who holds no side's secrets (R149).
pub fn viewer_side(viewer: Viewer) -> Option<u8> {
    match viewer {
        Viewer::Referee => None,
        Viewer::Player(s) => Some(s.0.min(1) as u8),
        Viewer::Public => Some(ONLOOKER),
    }
}

/// The side index of an onlooker: no side's.
pub const ONLOOKER: u8 = 2;

impl Game {
    /// The turn's state into the hash.
    fn hash_flow(&self, h: &mut Mix) {
        let f = &self.flow;
        h.u64(match f.phase {
            Phase::Prepare(s) => u64::from(s),
            Phase::Order => 2,
            Phase::Name(s) => 3 + u64::from(s),
            Phase::Act => 5,
            Phase::Shots => 6,
            Phase::Reserve(s) => 7 + u64::from(s),
            Phase::Window => 9,
            Phase::Deploy(s) => 10 + u64::from(s),
        });
        if let Some(o) = f.window {
            h.u64(
                (1 + o.kind as u64)
                    | u64::from(o.side) << 8
                    | u64::from(o.passes) << 16
                    | o.unit.map_or(0, |u| 1 + u as u64) << 24,
            );
        }
        for (t, o) in &f.landing {
            h.u64(*t as u64 | (*o as u64) << 32);
        }
        for (t, m) in &f.mods {
            h.u64(*t as u64 | u64::from(*m as u8) << 32);
        }
        for t in &f.over {
            h.u64(*t as u64);
        }
        h.u64(
            u64::from(f.asked)
                | u64::from(f.windowed) << 1
                | u64::from(f.extra[0]) << 8
                | u64::from(f.extra[1]) << 16
                | u64::from(f.owed[0]) << 24
                | u64::from(f.owed[1]) << 32,
        );
        h.u64(u64::from(f.step) | u64::from(f.first) << 8);
        let slot = |s: crate::army::Slot| match s {
            crate::army::Slot::Unit => 0,
            crate::army::Slot::Locomotion => 1,
            crate::army::Slot::Weapon(w) => 2 + u64::from(w),
        };
        for placed in &f.placed {
            h.u64(placed.len() as u64);
            for p in placed {
                let m = match p.marker {
                    crate::army::Marker::Numbered(n) => u64::from(n),
                    crate::army::Marker::Decoy => 0xff,
                };
                h.u64(p.unit as u64 | slot(p.slot) << 32 | m << 40);
            }
        }
        for sealed in &f.sealed {
            match sealed {
                Some(c) => {
                    for b in c.to_string().bytes() {
                        h.u64(u64::from(b));
                    }
                }
                None => h.u64(0),
            }
        }
        h.u64(f.active.len() as u64);
        for a in &f.active {
            h.u64(
                a.unit as u64
                    | u64::from(a.side) << 32
                    | slot(a.slot) << 36
                    | a.kind.map_or(0, |k| 1 + k as u64) << 44
                    | u64::from(a.done) << 48,
            );
        }
        h.u64(
            f.group
                .map_or(0, |(m, s)| 1 + u64::from(m) * 4 + u64::from(s)),
        );
        h.u64(f.queue.len() as u64);
        for c in &f.cards {
            h.u64(u64::from(c.dealt) | (c.deck.len() as u64) << 8);
            for k in c.deck.iter().chain(&c.hand).chain(&c.discards) {
                h.u64(u64::from(*k));
            }
            h.u64(c.hand.len() as u64 | (c.discards.len() as u64) << 8);
        }
        h.u64(self.deferred.as_ref().map_or(0, |d| 1 + d.len() as u64));
    }

    /// A Preparation in words: what was discarded, and what was drawn
    /// (`drew`) or how many (for the other side, R149).
    pub(crate) fn prepared_words(
        &self,
        side: u8,
        discarded: &[u8],
        drew: Option<&[u8]>,
        n: usize,
    ) -> String {
        let name = &self.setup().sides[usize::from(side)].name;
        let out = if discarded.is_empty() {
            "keeps its hand".to_owned()
        } else {
            format!("discards {}", card_ids(discarded).join(", "))
        };
        let drawn = match drew {
            Some([]) | None if n == 0 => "draws nothing".to_owned(),
            Some(cards) => format!("draws {}", card_ids(cards).join(", ")),
            None if n == 1 => "draws a card".to_owned(),
            None => format!("draws {n} cards"),
        };
        format!("{name} {out} and {drawn} (R105)")
    }
}

fn tag_bytes(t: Tag) -> [u8; 4] {
    let mut b = [0; 4];
    b[..t.as_str().len()].copy_from_slice(t.as_str().as_bytes());
    b
}
