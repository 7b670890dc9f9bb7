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

use crate::attack::{attack_odds, sniper_odds};
use crate::command::Kind;
use crate::command::{Command, Legs, MAX_PARTS, P16, Part, Special, Step, Tag};
use crate::data::{Ability, Back, LOCATIONS, Location};
use crate::event::{CommandError, Event, Struck};
use crate::flow::{Owing, Phase};
use crate::game::{Game, Shot, weapon_name};
use crate::geometry::{EPS, Footprint, Pt, V, gap, round_mm};
use crate::setup::TerrainKind;
use crate::templates::{LARGE_MM, SMALL_MM};
use crate::turn::{card_ids, kind_of};

/// A kind of care a medic or mechanic gives (R139): the ability, and
/// for a mechanic the marker it takes off (`None`: a return).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CareOf {
    ability: Ability,
    location: Option<Option<Location>>,
}

impl CareOf {
    /// Every kind, in a fixed order.
    const ALL: [CareOf; 6] = [
        CareOf {
            ability: Ability::Medic,
            location: None,
        },
        CareOf {
            ability: Ability::Mechanic,
            location: Some(None),
        },
        CareOf {
            ability: Ability::Mechanic,
            location: Some(Some(Location::Weapon(0))),
        },
        CareOf {
            ability: Ability::Mechanic,
            location: Some(Some(Location::Weapon(1))),
        },
        CareOf {
            ability: Ability::Mechanic,
            location: Some(Some(Location::Carried)),
        },
        CareOf {
            ability: Ability::Mechanic,
            location: Some(Some(Location::Locomotion)),
        },
    ];

    /// The kind of a command's care.
    fn of(command: &Command) -> Option<CareOf> {
        match command {
            Command::Heal { .. } => Some(CareOf::ALL[0]),
            Command::Repair { location, .. } => Some(CareOf {
                ability: Ability::Mechanic,
                location: Some(*location),
            }),
            _ => None,
        }
    }

    /// The command giving this care.
    fn command(self, unit: Tag, patient: Tag, legs: Legs) -> Command {
        match self.location {
            None => Command::Heal {
                unit,
                patient,
                legs,
            },
            Some(location) => Command::Repair {
                unit,
                patient,
                location,
                legs,
            },
        }
    }
}

impl Refusal for CommandError {
    fn ruling(&self) -> Ruling {
        Ruling(self.ruling)
    }
}

/// Tries per member drawn before a draw gives up (a crowded table refuses
/// most points).
const TRIES: usize = 12;

/// The most paths round an obstacle or through a building tried for one
/// charge's or care's family: the nearest first (R134, R139).
const DETOURS_TRIED: usize = 48;

/// The distance between two points, in mm.
fn apart(a: Pt, b: Pt) -> f64 {
    f64::from(a.x - b.x).hypot(f64::from(a.y - b.y))
}

fn spot(p: Pt) -> Option<Spot> {
    Some(Spot::Point {
        x_mm: i16::try_from(p.x).ok()?,
        y_mm: i16::try_from(p.y).ok()?,
    })
}

impl Game {
    fn side_of(&self, seat: Seat) -> Option<u8> {
        (seat.0 < 2).then_some(seat.0 as u8)
    }

    /// The listed commands of unit `i`: one a family.
    fn unit_families(&self, i: usize, out: &mut Vec<Legal<Command>>) {
        let u = &self.units[i];
        let piece = spot(u.at);
        let mut push = |command: Command, at: Option<Pt>| {
            out.push(Legal {
                command,
                cost: 0,
                piece,
                at: at.and_then(spot),
            });
        };
        push(
            Command::Move {
                unit: u.tag,
                legs: Legs::default(),
                face: None,
            },
            Some(u.at),
        );
        // Aboard a transport, a unit moves off it or stays (R140).
        if u.aboard.is_some() {
            return;
        }
        // A crate opened or picked up, a crate handed over (R143, R144).
        for k in 0..self.crates.len() {
            if let Some(c) = self.open_listed(i, k) {
                let at = self.crates[k].at;
                push(c, Some(at));
            }
        }
        for t in 0..self.units.len() {
            if let Some(c) = self.hand_listed(i, t) {
                push(c, Some(self.units[t].at));
            }
        }
        for t in 0..self.units.len() {
            if let Some(c) = self.toss_listed(i, t) {
                push(c, Some(self.units[t].at));
            }
        }
        let transform = Command::Transform { unit: u.tag };
        if self.check_action(u.side, &transform).is_ok() {
            push(transform, Some(u.at));
        }
        let side = u.side;
        for (t, e) in self.units.iter().enumerate() {
            if !e.alive || e.side == side {
                continue;
            }
            for w in 0..u.data.weapons.len().max(1) {
                if self.plan_shot(i, t, w as u8).is_ok() {
                    push(
                        Command::Shoot {
                            unit: u.tag,
                            target: e.tag,
                            weapon: w as u8,
                        },
                        Some(e.at),
                    );
                }
            }
            if self.check_grenade(i, t).is_ok() {
                push(
                    Command::Grenade {
                        unit: u.tag,
                        target: e.tag,
                    },
                    Some(e.at),
                );
            }
            if u.data.has(Ability::Charge)
                && let Some(legs) = self.charge_paths(i, t).into_iter().next()
            {
                let end = legs.end_point().unwrap_or(u.at);
                push(
                    Command::Charge {
                        unit: u.tag,
                        target: e.tag,
                        legs,
                    },
                    Some(end),
                );
            }
        }
        for (e, el) in self.setup().elements.iter().enumerate() {
            let windows = el
                .openings
                .iter()
                .filter(|o| o.kind == crate::setup::OpeningKind::Window)
                .count();
            for w in 1..=windows as u8 {
                let c = Command::Window {
                    unit: u.tag,
                    element: self.element_tag(e),
                    window: w,
                };
                if self.check_window(i, self.element_tag(e), w).is_ok() {
                    push(c, Some(u.at));
                }
            }
        }
        if u.data.has(Ability::Medic) || u.data.has(Ability::Mechanic) {
            for (t, f) in self.units.iter().enumerate() {
                if t == i || f.side != side || !(f.alive || f.fell.is_some()) {
                    continue;
                }
                for (command, legs) in self.care_families(i, t) {
                    push(command, Some(legs.end_point().unwrap_or(u.at)));
                }
            }
        }
        if self.check_smoke(i, u.at).is_ok() {
            push(
                Command::Smoke {
                    unit: u.tag,
                    at: Game::p16(u.at),
                },
                Some(u.at),
            );
        }
        for what in [Special::Shield, Special::Tripod] {
            let c = Command::Special { unit: u.tag, what };
            if self.check_action(side, &c).is_ok() {
                push(c, Some(u.at));
            }
        }
    }

    /// Paths of unit `i` that charge unit `t` (R134), the system's own
    /// candidates: none where they touch already, else one straight leg to
    /// contact from each of 16 sides of the target, the nearest first.
    fn charge_paths(&self, i: usize, t: usize) -> Vec<Legs> {
        self.approach_paths(i, t, |legs| self.check_charge(i, t, legs).is_ok())
    }

    /// Paths of a medic or mechanic `i` to care for unit `t` (R139), as
    /// a charge's: none where `ok` takes it as it stands, else straight
    /// approaches to contact.
    fn care_paths(&self, i: usize, t: usize, care: CareOf) -> Vec<Legs> {
        if !self.care_may_apply(i, t, care) {
            return Vec::new();
        }
        let tag = self.units[t].tag;
        self.approach_paths(i, t, |legs| {
            self.check_care(i, tag, care.location, legs, care.ability)
                .is_ok()
        })
    }

    /// Whether `care` of unit `i` could apply to unit `t` at all, before
    /// any path is tried (R139): the cheap half of `check_care`, which
    /// decides.
    fn care_may_apply(&self, i: usize, t: usize, care: CareOf) -> bool {
        let (u, p) = (&self.units[i], &self.units[t]);
        let reach = f64::from(u.movement()) * f64::from(self.setup().switches.lns_mm)
            + f64::from(self.setup().switches.contact_mm);
        if !u.data.has(care.ability) || gap(&u.shape(), &p.shape()) > reach + 1.0 {
            return false;
        }
        let this_turn = |t: u32| t == self.turn;
        match (care.location, p.vehicle(), p.alive) {
            (None, false, true) => p.damaged() && this_turn(p.hurt),
            (None, true, true) => p.hits & Location::Equipment.bit() != 0,
            (None, false, false) => p.fell.is_some_and(|(turn, double)| {
                this_turn(turn) || (p.data.has(Ability::Starred) && !double)
            }),
            (Some(Some(loc)), true, true) => p.hits & loc.bit() != 0,
            (Some(None), true, false) => p.fell.is_some_and(|(turn, _)| this_turn(turn)),
            _ => false,
        }
    }

    /// Paths of unit `i` to contact with unit `t` that `ok` accepts: none
    /// at all where it accepts standing still, else one straight leg to
    /// contact from each of 16 sides of `t`, the nearest first, at most 4;
    /// where no straight leg is accepted, the ways round what stands
    /// between ([`Game::detour_paths`]) and into or out of a building by
    /// its doors ([`Game::building_paths`]), the shortest first. So a
    /// charge or a care of several legs, or indoors, is listed as one of
    /// one straight leg is (R113, R117, R134, R139).
    fn approach_paths(&self, i: usize, t: usize, ok: impl Fn(&Legs) -> bool) -> Vec<Legs> {
        let u = &self.units[i];
        let target = &self.units[t];
        if ok(&Legs::default()) {
            return vec![Legs::default()];
        }
        let reach = f64::from(u.movement()) * f64::from(self.setup().switches.lns_mm);
        if u.inside.is_none() && target.inside.is_none() {
            if gap(&u.shape(), &target.shape()) > reach {
                return Vec::new();
            }
            let mut ends: Vec<(f64, Pt)> = (0..16)
                .filter_map(|k| self.contact_spot(i, t, f64::from(k) * 22.5))
                .map(|p| {
                    let d = apart(p, u.at);
                    (d, p)
                })
                .filter(|(d, _)| *d <= reach)
                .collect();
            ends.sort_by(|a, b| a.0.total_cmp(&b.0));
            let straight: Vec<Legs> = ends
                .into_iter()
                .filter_map(|(_, p)| {
                    let legs = Legs::of(&[Game::p16(p)])?;
                    ok(&legs).then_some(legs)
                })
                .take(4)
                .collect();
            if !straight.is_empty() {
                return straight;
            }
            return self.detour_paths(i, t, reach, &ok);
        }
        self.building_paths(i, t, reach, &ok)
    }

    /// The spots in contact with unit `t` where unit `i` may end, at 16
    /// bearings, within `reach` of `from` (straight).
    fn contact_ends(&self, i: usize, t: usize, from: Pt, reach: f64) -> Vec<Pt> {
        (0..16)
            .filter_map(|k| self.contact_spot(i, t, f64::from(k) * 22.5))
            .filter(|p| apart(*p, from) <= reach)
            .collect()
    }

    /// Points unit `i` may turn at to pass round what stands near the
    /// line from `from` to `to`: beside each corner of a building element
    /// (off it along the corner's bisector by the unit's half-width and 3
    /// mm) and round each other unit (8 points, as far off), within
    /// `reach` of `from`.
    fn turning_points(&self, i: usize, from: Pt, to: Pt, reach: f64) -> Vec<Pt> {
        let u = &self.units[i];
        let (len, wide) = u.data.base.size_mm();
        let r = f64::from(len.max(wide)) / 2.0 + 3.0;
        let (a, b) = (from.v(), to.v());
        let near = |p: V| crate::geometry::point_segment(p, a, b) <= reach;
        let mut out = Vec::new();
        for (k, shape) in self.table.elements.iter().enumerate() {
            if self.ruined(k) {
                continue;
            }
            let c = &shape.core;
            let n = c.len();
            for j in 0..n {
                let (prev, at, next) = (c[(j + n - 1) % n], c[j], c[(j + 1) % n]);
                let out_dir = |p: V| {
                    let d = at.sub(p);
                    let l = d.len().max(EPS);
                    V::new(d.x / l, d.y / l)
                };
                let (d1, d2) = (out_dir(prev), out_dir(next));
                let bis = V::new(d1.x + d2.x, d1.y + d2.y);
                let l = bis.len();
                if l < EPS {
                    continue;
                }
                // Off the corner, away from the element's inside.
                let scale = r / (l / 2.0).max(0.2);
                for sign in [1.0, -1.0] {
                    let p = V::new(
                        at.x + sign * bis.x / l * scale,
                        at.y + sign * bis.y / l * scale,
                    );
                    if !crate::setup::point_in(round_mm(p), &self.table.setup.elements[k].corners)
                        && near(p)
                    {
                        out.push(round_mm(p));
                        break;
                    }
                }
            }
        }
        for (k, o) in self.units.iter().enumerate() {
            if k == i || !o.alive || o.inside.is_some() || o.aboard.is_some() {
                continue;
            }
            let (l2, w2) = o.data.base.size_mm();
            let d = f64::from(l2.max(w2)) / 2.0 + r;
            for n in 0..8 {
                let ang = f64::from(n) * std::f64::consts::FRAC_PI_4;
                let p = V::new(o.at.v().x + d * ang.cos(), o.at.v().y + d * ang.sin());
                if near(p) {
                    out.push(round_mm(p));
                }
            }
        }
        out.retain(|p| apart(*p, from) <= reach);
        out
    }

    /// Paths of two legs round what stands between unit `i` and unit `t`,
    /// both outdoors: by a turning point to a spot in contact, within
    /// `reach`, the shortest first, at most 4 of those `ok` accepts; a
    /// bounded number tried.
    fn detour_paths(
        &self,
        i: usize,
        t: usize,
        reach: f64,
        ok: &impl Fn(&Legs) -> bool,
    ) -> Vec<Legs> {
        let start = self.units[i].at;
        let target = self.units[t].at;
        let mut tries: Vec<(f64, Pt, Pt)> = Vec::new();
        for w in self.turning_points(i, start, target, reach) {
            let first = apart(start, w);
            for c in self.contact_ends(i, t, w, reach - first) {
                tries.push((first + apart(w, c), w, c));
            }
        }
        tries.sort_by(|a, b| a.0.total_cmp(&b.0));
        tries
            .into_iter()
            .take(DETOURS_TRIED)
            .filter_map(|(_, w, c)| {
                let legs = Legs::of(&[Game::p16(w), Game::p16(c)])?;
                ok(&legs).then_some(legs)
            })
            .take(4)
            .collect()
    }

    /// Paths into, within or out of a building to contact (R102, R117):
    /// to a unit indoors, into a free space linked to its own, through a
    /// door from outdoors (a straight leg to before the door, or two legs
    /// round what stands between) or through linked spaces from within;
    /// to a unit outdoors from indoors, out by a door behind the mover's
    /// space to a spot in contact. The fewest spaces and shortest first,
    /// at most 4 of those `ok` accepts.
    fn building_paths(
        &self,
        i: usize,
        t: usize,
        reach: f64,
        ok: &impl Fn(&Legs) -> bool,
    ) -> Vec<Legs> {
        let u = &self.units[i];
        if u.vehicle() || u.data.base != crate::data::Base::Round {
            return Vec::new();
        }
        let lns = f64::from(self.setup().switches.lns_mm);
        let els = &self.setup().elements;
        let mut tries: Vec<(f64, Vec<Step>)> = Vec::new();
        match (u.inside, self.units[t].inside) {
            (_, Some((e, k))) => {
                let e = usize::from(e);
                let tag = self.element_tag(e);
                // Each free space linked to the target's, by the fewest
                // spaces from where the mover comes in.
                let goal = |j: u8| j != k && self.linked(e, j, k);
                let starts: Vec<(f64, Vec<Step>, u8)> = match u.inside {
                    Some((e0, j0)) if usize::from(e0) == e => vec![(0.0, Vec::new(), j0)],
                    Some(_) => Vec::new(),
                    None => (0..els[e].openings.len())
                        .filter(|o| self.passable(e, *o))
                        .flat_map(|o| {
                            let before = self.before_door(i, e, o);
                            els[e].openings[o]
                                .behind
                                .iter()
                                .filter_map(move |b| Some((before?, *b)))
                                .collect::<Vec<_>>()
                        })
                        .flat_map(|(before, b)| {
                            let mut ways =
                                vec![(apart(u.at, before), vec![Step::At(Game::p16(before))])];
                            // Round what stands between, to the door.
                            let first = apart(u.at, before);
                            if first > 0.0 {
                                for w in self.turning_points(i, u.at, before, reach) {
                                    let d = apart(u.at, w) + apart(w, before);
                                    if d <= reach {
                                        ways.push((
                                            d,
                                            vec![
                                                Step::At(Game::p16(w)),
                                                Step::At(Game::p16(before)),
                                            ],
                                        ));
                                    }
                                }
                            }
                            ways.into_iter().map(move |(d, mut steps)| {
                                steps.push(Step::Space(tag, b + 1));
                                (d + lns, steps, b)
                            })
                        })
                        .collect(),
                };
                for (cost, steps, first) in starts {
                    if goal(first) {
                        tries.push((cost, steps.clone()));
                    }
                    // Breadth first through free linked spaces.
                    let mut seen = vec![first];
                    let mut frontier = std::collections::VecDeque::from([(cost, steps, first)]);
                    while let Some((c, path, at)) = frontier.pop_front() {
                        if c + lns > reach + EPS {
                            continue;
                        }
                        for n in 0..els[e].spaces.len() as u8 {
                            if seen.contains(&n) || !self.linked(e, at, n) || n == k {
                                continue;
                            }
                            if self.occupant(e as u8, n, i).is_some() {
                                continue;
                            }
                            seen.push(n);
                            let mut p = path.clone();
                            p.push(Step::Space(tag, n + 1));
                            if goal(n) {
                                tries.push((c + lns, p.clone()));
                            }
                            frontier.push_back((c + lns, p, n));
                        }
                    }
                }
            }
            (Some((e, j)), None) => {
                let e = usize::from(e);
                for o in self.doors_of(e, j) {
                    let Some(before) = self.before_door(i, e, o) else {
                        continue;
                    };
                    for c in self.contact_ends(i, t, before, reach) {
                        tries.push((
                            apart(before, c),
                            vec![Step::At(Game::p16(before)), Step::At(Game::p16(c))],
                        ));
                    }
                }
            }
            (None, None) => {}
        }
        tries.retain(|(c, _)| *c <= reach + EPS);
        tries.sort_by(|a, b| a.0.total_cmp(&b.0));
        tries
            .into_iter()
            .take(DETOURS_TRIED)
            .filter_map(|(_, steps)| {
                let legs = Legs::of_steps(&steps)?;
                ok(&legs).then_some(legs)
            })
            .take(4)
            .collect()
    }

    /// The listed care of unit `i` for unit `t` of each kind it may give
    /// (R139), with its first path.
    fn care_families(&self, i: usize, t: usize) -> Vec<(Command, Legs)> {
        let u = &self.units[i];
        let mut out = Vec::new();
        for care in CareOf::ALL {
            if !u.data.has(care.ability) {
                continue;
            }
            if let Some(legs) = self.care_paths(i, t, care).into_iter().next() {
                out.push((care.command(u.tag, self.units[t].tag, legs), legs));
            }
        }
        out
    }

    /// The listed `open` of unit `i` at crate `k`: a straight leg to 1 mm
    /// from it along the line between their centres, none where they
    /// touch already (R143).
    pub(crate) fn open_listed(&self, i: usize, k: usize) -> Option<Command> {
        let u = &self.units[i];
        let c = self.crates.get(k)?;
        if c.state != crate::crates::CrateState::Lying || u.vehicle() || u.gear.is_some() {
            return None;
        }
        let none = Legs::default();
        let legs = if self.check_open(i, &none) == Ok(k) {
            none
        } else {
            let (dx, dy) = (f64::from(u.at.x - c.at.x), f64::from(u.at.y - c.at.y));
            let d = dx.hypot(dy).max(1.0);
            let r = f64::from(u.data.base.size_mm().0) / 2.0
                + f64::from(crate::crates::CRATE_MM) / 2.0
                + 1.0;
            let p = Pt::new(
                c.at.x + (dx / d * r).round() as i32,
                c.at.y + (dy / d * r).round() as i32,
            );
            Legs::of(&[P16::of(p)?])?
        };
        let command = Command::Open { unit: u.tag, legs };
        (self.check_open(i, &legs) == Ok(k)).then_some(command)
    }

    /// The listed handing over of unit `i`'s crate to unit `t` (R144).
    pub(crate) fn hand_listed(&self, i: usize, t: usize) -> Option<Command> {
        let to = self.units[t].tag;
        self.check_hand(i, to).is_ok().then_some(Command::Hand {
            unit: self.units[i].tag,
            to,
        })
    }

    /// The listed toss of the diskette from unit `i` to unit `t` (R147).
    pub(crate) fn toss_listed(&self, i: usize, t: usize) -> Option<Command> {
        let to = self.units[t].tag;
        self.check_toss(i, to).is_ok().then_some(Command::Toss {
            unit: self.units[i].tag,
            to,
        })
    }

    /// All listed commands of `side`.
    pub fn legal_for(&self, side: u8, out: &mut Vec<Legal<Command>>) {
        out.clear();
        if self.over.is_some() || side > 1 {
            return;
        }
        if let Some(&v) = self.picks.first() {
            if self.units[v].side == side {
                for k in self.carried(v) {
                    out.push(Legal {
                        command: Command::Pick {
                            unit: self.units[k].tag,
                        },
                        cost: 0,
                        piece: spot(self.units[v].at),
                        at: None,
                    });
                }
            }
            return;
        }
        if let Some(p) = self.pending {
            if self.units[p.shooter].side == side {
                let at = self.drop_onto_table(p.aim);
                out.push(Legal {
                    command: Command::Land { at: Game::p16(at) },
                    cost: 0,
                    piece: spot(self.units[p.shooter].at),
                    at: spot(at),
                });
            }
            return;
        }
        let piece = |i: usize| spot(self.units[i].at);
        let plain = |command: Command, piece: Option<Spot>| Legal {
            command,
            cost: 0,
            piece,
            at: None,
        };
        match self.flow.phase {
            Phase::Deploy(s) if s == side => {
                let room = !self.no_room(side);
                for i in self.deployable(side) {
                    if !room {
                        out.push(plain(
                            Command::Pass {
                                unit: Some(self.units[i].tag),
                            },
                            None,
                        ));
                    } else if let Some(c) = self.listed_deploy(i) {
                        out.push(plain(c, None));
                    }
                }
            }
            Phase::Prepare(s) if s == side => {
                // Every set of cards to let go, each set once.
                let hand = &self.flow.cards[usize::from(side)].hand;
                let mut seen: Vec<Vec<u8>> = Vec::new();
                for mask in 0..1u32 << hand.len() {
                    let mut cards: Vec<u8> = (0..hand.len())
                        .filter(|k| mask & 1 << k != 0)
                        .map(|k| hand[k])
                        .collect();
                    cards.sort_unstable();
                    if seen.contains(&cards) {
                        continue;
                    }
                    let mut c = [0; crate::command::MAX_DISCARD];
                    c[..cards.len()].copy_from_slice(&cards);
                    out.push(plain(
                        Command::Discard {
                            cards: c,
                            n: cards.len() as u8,
                        },
                        None,
                    ));
                    seen.push(cards);
                }
                if self.flow.owed[usize::from(side)] > 0 {
                    // A resupply played: at least its two go.
                    let owed = self.flow.owed[usize::from(side)];
                    out.retain(|l| !matches!(l.command, Command::Discard { n, .. } if n < owed));
                }
                self.card_families(side, out);
            }
            Phase::Order if self.flow.sealed[usize::from(side)].is_none() => {
                out.push(plain(self.canonical_orders(side), None));
                self.card_families(side, out);
            }
            Phase::Window if self.flow.window.is_some_and(|o| o.side == side) => {
                out.push(plain(Command::Pass { unit: None }, None));
                self.card_families(side, out);
            }
            Phase::Name(s) if s == side => {
                if let Some(a) = self
                    .flow
                    .active
                    .iter()
                    .find(|a| a.side == side && a.kind.is_none() && !a.done)
                {
                    for kind in Kind::ALL {
                        if self.may_name(a, kind).is_ok() {
                            out.push(plain(
                                Command::Name {
                                    unit: self.units[a.unit].tag,
                                    kind,
                                },
                                piece(a.unit),
                            ));
                        }
                    }
                }
            }
            Phase::Act | Phase::Shots | Phase::Reserve(_) => {
                let reserve = matches!(self.flow.phase, Phase::Reserve(_));
                let actors = self.actors(side);
                for (i, kinds, weapon) in &actors {
                    self.actor_families(side, *i, kinds, *weapon, out);
                }
                if !reserve && !actors.is_empty() {
                    out.push(plain(Command::Pass { unit: None }, None));
                }
            }
            _ => {}
        }
    }

    /// The part of [`Game::legal_for`]'s list that is unit `i`'s, where
    /// it is among the units that may act now for `side` (in the Reserve
    /// every unit of the group is: R112): its families, the cards it may
    /// play and, in the Reserve, its pass. Empty where it may not act. A
    /// player who picks the unit first lists no other's.
    pub fn legal_of_unit(&self, side: u8, i: usize, out: &mut Vec<Legal<Command>>) {
        out.clear();
        if self.over.is_some()
            || side > 1
            || !self.picks.is_empty()
            || self.pending.is_some()
            || !matches!(
                self.flow.phase,
                Phase::Act | Phase::Shots | Phase::Reserve(_)
            )
        {
            return;
        }
        if let Some((i, kinds, weapon)) = self.actors(side).into_iter().find(|a| a.0 == i) {
            self.actor_families(side, i, &kinds, weapon, out);
        }
    }

    /// Unit `i`'s families as an actor that may take `kinds` (with weapon
    /// `weapon` only, where its marker names one), appended to `out`.
    fn actor_families(
        &self,
        side: u8,
        i: usize,
        kinds: &[Kind],
        weapon: Option<u8>,
        out: &mut Vec<Legal<Command>>,
    ) {
        let from = out.len();
        self.unit_families(i, out);
        let mut k = from;
        while k < out.len() {
            let c = &out[k].command;
            // A transformation goes with any action (R137);
            // a unit that handed a crate over or took one
            // does not shoot this turn (R144).
            let fits = matches!(c, Command::Transform { .. })
                || kind_of(c).is_some_and(|kind| {
                    kinds.contains(&kind)
                        && (kind != Kind::Shoot
                            || !self.units[i].handed
                                && weapon.is_none_or(|w| crate::turn::weapon_of(c) == w))
                });
            if fits {
                k += 1;
            } else {
                out.remove(k);
            }
        }
        if kinds.contains(&Kind::Card) {
            self.card_families(side, out);
        }
        if matches!(self.flow.phase, Phase::Reserve(_)) {
            out.push(Legal {
                command: Command::Pass {
                    unit: Some(self.units[i].tag),
                },
                cost: 0,
                piece: spot(self.units[i].at),
                at: None,
            });
        }
    }

    /// The listed `orders` of `side`: its markers in the order of its
    /// units, each on the first place it may lie, the automatic-order
    /// units' first; as many numbered ones as it has places for, then the
    /// decoys (R107). Every `orders` command is of its family.
    pub fn canonical_orders(&self, side: u8) -> Command {
        let mut places: Vec<(usize, crate::army::Slot)> = Vec::new();
        for auto in [true, false] {
            for (i, u) in self.units.iter().enumerate() {
                if u.alive && u.side == side && u.data.has(Ability::AutomaticOrder) == auto {
                    let mut slots = crate::orders::marker_places(u);
                    slots.truncate(crate::orders::marker_room(u));
                    places.extend(slots.into_iter().map(|s| (i, s)));
                }
            }
        }
        let k = usize::from(self.markers_owed(side)).min(places.len());
        let decoys = usize::from(crate::army::DECOYS).min(places.len() - k);
        let mut orders = [crate::command::Order::default(); crate::command::MAX_ORDERS];
        for (j, (i, slot)) in places.iter().take(k + decoys).enumerate() {
            orders[j] = crate::command::Order {
                unit: self.units[*i].tag,
                slot: *slot,
                marker: if j < k {
                    crate::army::Marker::Numbered(j as u8 + 1)
                } else {
                    crate::army::Marker::Decoy
                },
            };
        }
        Command::Orders {
            orders,
            n: (k + decoys) as u8,
        }
    }

    /// A random point within `r` mm of `c`, uniform over the disc.
    fn point_near<R: Rng + ?Sized>(c: Pt, r: f64, rng: &mut R) -> Pt {
        let d = r * rng.random::<f64>().sqrt();
        let a = rng.random::<f64>() * std::f64::consts::TAU;
        Pt::new(
            c.x + (d * a.cos()).round() as i32,
            c.y + (d * a.sin()).round() as i32,
        )
    }

    /// Members of a move family: one straight leg to a point drawn
    /// uniformly over the unit's reach, an oval's facing drawn too, and
    /// the system's own candidates (contact with each enemy, the edges of
    /// cover).
    fn sample_moves<R: Rng + ?Sized>(
        &self,
        i: usize,
        count: usize,
        rng: &mut R,
        out: &mut Vec<Command>,
    ) {
        let u = &self.units[i];
        let reach = f64::from(u.movement()) * f64::from(self.setup().switches.lns_mm);
        let oval = u.data.base == crate::data::Base::Oval;
        let start = out.len();
        let mut tries = 0;
        while out.len() - start < count && tries < count * TRIES {
            tries += 1;
            // Indoors, or one time in four: a candidate of the system's
            // own (through a door, contact with cover or an enemy); else a
            // point uniform over the reach.
            let legs = if u.aboard.is_some() || rng.random_range(0..8) == 0 {
                // Leaving a transport, or boarding one (R140).
                match self.transport_candidate(i, rng) {
                    Some(legs) => legs,
                    None if u.aboard.is_some() => continue,
                    None => match P16::of(Game::point_near(u.at, reach, rng)) {
                        Some(p) => Legs::of(&[p]).expect("one leg"),
                        None => continue,
                    },
                }
            } else if u.inside.is_some() || rng.random_range(0..4) == 0 {
                let building = rng.random_range(0..2) == 0;
                match (building, self.building_candidate(i, rng)) {
                    (true, Some(legs)) => legs,
                    _ if u.inside.is_some() => continue,
                    _ => match self.move_candidate(i, rng).and_then(P16::of) {
                        Some(p) => Legs::of(&[p]).expect("one leg"),
                        None => continue,
                    },
                }
            } else {
                match P16::of(Game::point_near(u.at, reach, rng)) {
                    Some(p) => Legs::of(&[p]).expect("one leg"),
                    None => continue,
                }
            };
            let face = oval.then(|| rng.random_range(0..360) as i16);
            if self.check_move(i, &legs, face).is_ok() {
                out.push(Command::Move {
                    unit: u.tag,
                    legs,
                    face,
                });
            }
        }
        if out.len() == start && count > 0 {
            out.push(Command::Move {
                unit: u.tag,
                legs: Legs::default(),
                face: None,
            });
        }
    }

    /// A path through a door (R117): outdoors, to the point before a door
    /// and into the space behind it; indoors, to a linked space, or out by
    /// a door behind which it stands to the point before it.
    fn building_candidate<R: Rng + ?Sized>(&self, i: usize, rng: &mut R) -> Option<Legs> {
        let u = &self.units[i];
        if u.vehicle() {
            return None;
        }
        let els = &self.setup().elements;
        match u.inside {
            None => {
                let doors: Vec<(usize, usize)> = (0..els.len())
                    .filter(|e| !self.ruined(*e))
                    .flat_map(|e| (0..els[e].openings.len()).map(move |o| (e, o)))
                    .filter(|(e, o)| self.passable(*e, *o))
                    .collect();
                if doors.is_empty() {
                    return None;
                }
                let (e, o) = doors[rng.random_range(0..doors.len())];
                let op = &els[e].openings[o];
                let k = op.behind[rng.random_range(0..op.behind.len())];
                let before = self.before_door(i, e, o)?;
                Legs::of_steps(&[
                    Step::At(P16::of(before)?),
                    Step::Space(self.element_tag(e), k + 1),
                ])
            }
            Some((e, j)) => {
                let e = usize::from(e);
                if rng.random::<bool>() {
                    let next: Vec<u8> = els[e]
                        .links
                        .iter()
                        .filter_map(|(a, b)| {
                            if *a == j {
                                Some(*b)
                            } else if *b == j {
                                Some(*a)
                            } else {
                                None
                            }
                        })
                        .collect();
                    let k = *next.get(rng.random_range(0..next.len().max(1)))?;
                    Legs::of_steps(&[Step::Space(self.element_tag(e), k + 1)])
                } else {
                    let doors = self.doors_of(e, j);
                    let o = *doors.get(rng.random_range(0..doors.len().max(1)))?;
                    Legs::of_steps(&[Step::At(P16::of(self.before_door(i, e, o)?)?)])
                }
            }
        }
    }

    /// A path on or off a transport (R140): aboard, to a spot in contact
    /// with it drawn at a random bearing; outdoors, to contact with a
    /// friendly transport with room and aboard.
    fn transport_candidate<R: Rng + ?Sized>(&self, i: usize, rng: &mut R) -> Option<Legs> {
        let u = &self.units[i];
        let deg = f64::from(rng.random_range(0..72u8)) * 5.0;
        if let Some(v) = u.aboard {
            let p = self.contact_spot(i, usize::from(v), deg)?;
            return Legs::of(&[P16::of(p)?]);
        }
        if u.vehicle() || u.inside.is_some() {
            return None;
        }
        let ferries: Vec<usize> = (0..self.units.len())
            .filter(|v| {
                let t = &self.units[*v];
                *v != i
                    && t.alive
                    && t.side == u.side
                    && self.carried(*v).len() < usize::from(self.capacity(*v))
            })
            .collect();
        let v = *ferries.get(rng.random_range(0..ferries.len().max(1)))?;
        let p = self.contact_spot(i, v, deg)?;
        Legs::of_steps(&[Step::At(P16::of(p)?), Step::Board(self.units[v].tag)])
    }

    /// The point outside element `e`'s opening `o` where unit `i`'s base
    /// stands 1 mm from its middle.
    fn before_door(&self, i: usize, e: usize, o: usize) -> Option<Pt> {
        let op = &self.setup().elements[e].openings[o];
        let r = f64::from(self.units[i].data.base.size_mm().1) / 2.0 + 1.0;
        let (dx, dy) = (f64::from(op.b.x - op.a.x), f64::from(op.b.y - op.a.y));
        let len = dx.hypot(dy);
        if len == 0.0 {
            return None;
        }
        let (nx, ny) = (-dy / len, dx / len);
        let mid = (
            f64::from(op.a.x + op.b.x) / 2.0,
            f64::from(op.a.y + op.b.y) / 2.0,
        );
        [1.0, -1.0]
            .into_iter()
            .map(|side| {
                Pt::new(
                    (mid.0 + side * nx * r).round() as i32,
                    (mid.1 + side * ny * r).round() as i32,
                )
            })
            .find(|p| !crate::setup::point_in(*p, &self.setup().elements[e].corners))
    }

    /// Members of a rapid-fire unit's shot at `first` (R141): the whole
    /// bonus at it, or split with other enemies of its defense type in
    /// sight and within 2 LNS of each other, the parts drawn.
    fn sample_splits<R: Rng + ?Sized>(
        &self,
        i: usize,
        first: Tag,
        count: usize,
        rng: &mut R,
        out: &mut Vec<Command>,
    ) {
        let u = &self.units[i];
        let Some(t0) = self.find(first) else {
            return;
        };
        let whole = u.bonus(0, self.units[t0].armor()).unwrap_or(0).max(0) as u8;
        let lns = f64::from(self.setup().switches.lns_mm);
        let others: Vec<usize> = (0..self.units.len())
            .filter(|t| {
                let e = &self.units[*t];
                *t != t0
                    && e.alive
                    && e.side != u.side
                    && e.armor() == self.units[t0].armor()
                    && gap(&e.shape(), &self.units[t0].shape()) <= 2.0 * lns
                    && matches!(self.plan_shot(i, *t, 0), Ok(Shot::Direct(_)))
            })
            .collect();
        for _ in 0..count {
            let whole_shot = Command::Shoot {
                unit: u.tag,
                target: first,
                weapon: 0,
            };
            if whole < 2 || others.is_empty() || rng.random_range(0..3) == 0 {
                out.push(whole_shot);
                continue;
            }
            // Up to whole - 1 others, each within 2 LNS of those taken.
            let mut taken = vec![t0];
            let want = rng.random_range(1..=usize::from(whole - 1).min(MAX_PARTS - 1));
            for _ in 0..want {
                let near: Vec<usize> = others
                    .iter()
                    .copied()
                    .filter(|t| {
                        !taken.contains(t)
                            && taken.iter().all(|k| {
                                gap(&self.units[*t].shape(), &self.units[*k].shape()) <= 2.0 * lns
                            })
                    })
                    .collect();
                let Some(t) = near.get(rng.random_range(0..near.len().max(1))) else {
                    break;
                };
                taken.push(*t);
            }
            // The bonus cut into as many parts, each +1 or more.
            let k = taken.len();
            let mut bonus = vec![1u8; k];
            for _ in 0..usize::from(whole) - k {
                bonus[rng.random_range(0..k)] += 1;
            }
            let mut parts = [Part::default(); MAX_PARTS];
            for (n, (t, b)) in taken.iter().zip(&bonus).enumerate() {
                parts[n] = Part {
                    target: self.units[*t].tag,
                    bonus: *b,
                };
            }
            out.push(if k >= 2 {
                Command::Rapid {
                    unit: u.tag,
                    parts,
                    n: k as u8,
                }
            } else {
                whole_shot
            });
        }
    }

    /// A point worth moving to: in contact with a light structure, a
    /// building element or an enemy, at a bearing drawn at random.
    fn move_candidate<R: Rng + ?Sized>(&self, i: usize, rng: &mut R) -> Option<Pt> {
        let u = &self.units[i];
        let enemies: Vec<usize> = (0..self.units.len())
            .filter(|t| self.units[*t].alive && self.units[*t].side != u.side)
            .collect();
        let covers: Vec<usize> = self
            .setup()
            .terrain
            .iter()
            .enumerate()
            .filter(|(_, t)| t.kind == TerrainKind::LightStructure)
            .map(|(k, _)| k)
            .collect();
        let pick = rng.random_range(0..enemies.len() + covers.len() + 1);
        if pick < enemies.len() {
            let deg = f64::from(rng.random_range(0..16u8)) * 22.5;
            return self.contact_spot(i, enemies[pick], deg);
        }
        let k = *covers.get(pick - enemies.len())?;
        let corners = &self.setup().terrain[k].corners;
        let a = corners[rng.random_range(0..corners.len())];
        let b = corners[(corners.iter().position(|p| *p == a)? + 1) % corners.len()];
        let t = rng.random::<f64>();
        let on = Pt::new(
            a.x + (f64::from(b.x - a.x) * t).round() as i32,
            a.y + (f64::from(b.y - a.y) * t).round() as i32,
        );
        // Beside the edge, away from the piece's first corner's side:
        // a base's radius and 1 mm off, either side drawn.
        let (dx, dy) = (f64::from(b.y - a.y), -f64::from(b.x - a.x));
        let len = dx.hypot(dy).max(1.0);
        let r = f64::from(u.data.base.size_mm().1) / 2.0 + 1.0;
        let s = if rng.random::<bool>() { r } else { -r };
        Some(Pt::new(
            on.x + (dx / len * s).round() as i32,
            on.y + (dy / len * s).round() as i32,
        ))
    }

    /// The member of a move family nearest `wanted`: one straight leg
    /// there, else as far along the line to it as the rules allow.
    fn nearest_move(&self, i: usize, wanted: Pt, face: Option<i16>) -> Option<Command> {
        let u = &self.units[i];
        let reach = f64::from(u.movement()) * f64::from(self.setup().switches.lns_mm);
        let (dx, dy) = (f64::from(wanted.x - u.at.x), f64::from(wanted.y - u.at.y));
        let d = dx.hypot(dy);
        let mut r = d.min(reach).floor();
        while r >= 0.0 {
            let k = if d > 0.0 { r / d } else { 0.0 };
            let p = Pt::new(
                u.at.x + (dx * k).round() as i32,
                u.at.y + (dy * k).round() as i32,
            );
            let legs = if p == u.at {
                Legs::default()
            } else {
                Legs::of(&[P16::of(p)?])?
            };
            if self.check_move(i, &legs, face).is_ok() {
                return Some(Command::Move {
                    unit: u.tag,
                    legs,
                    face,
                });
            }
            r -= 1.0;
        }
        None
    }

    /// The odds of one attack on a unit or an element, as the rules roll
    /// it (R123-R125), in words.
    fn attack_outcomes(&self, struck: Struck, bonus: i8, modifiers: i8) -> Vec<(String, Chance)> {
        let (defense, crater, name) = match struck {
            Struck::Unit(t) => {
                let u = &self.units[t];
                let crater = !u.vehicle() && self.standing_in_pub(u.at, TerrainKind::Crater);
                (u.defense(), crater, u.tag.to_string())
            }
            Struck::Element(k) => {
                let e = &self.setup().elements[k];
                (e.defense, false, e.name.clone())
            }
        };
        let [miss, step, double] = attack_odds(bonus, modifiers, defense, crater);
        let mut out = vec![(
            format!("{name}: missed"),
            Chance {
                num: u64::from(miss),
                den: 6,
            },
        )];
        match struck {
            Struck::Unit(t) if self.units[t].data.back() == Back::Vehicle => {
                // Each location on the second die (R125).
                let u = &self.units[t];
                let column = usize::from(u.data.location_type.unwrap_or(1).clamp(1, 3) - 1);
                let mut by: Vec<(String, u64)> = Vec::new();
                for row in LOCATIONS {
                    let loc = row[column];
                    let words = if loc == Location::Carried && self.carried(t).is_empty() {
                        format!("{name}: a carried unit's location, none aboard: nothing")
                    } else if loc == Location::Carried && u.hits & loc.bit() == 0 {
                        format!("{name}: a carried unit hit, one aboard takes a step")
                    } else if u.hits & loc.bit() != 0 {
                        format!(
                            "{name}: {} hit again, destroyed",
                            location_words(u.data, loc)
                        )
                    } else {
                        format!("{name}: {} hit", location_words(u.data, loc))
                    };
                    match by.iter_mut().find(|(w, _)| *w == words) {
                        Some(e) => e.1 += 1,
                        None => by.push((words, 1)),
                    }
                }
                for o in &mut out {
                    o.1 = Chance {
                        num: o.1.num * 6,
                        den: 36,
                    };
                }
                for (words, n) in by {
                    out.push((
                        words,
                        Chance {
                            num: u64::from(step) * n,
                            den: 36,
                        },
                    ));
                }
                out.push((
                    format!("{name}: a double, destroyed"),
                    Chance {
                        num: u64::from(double) * 6,
                        den: 36,
                    },
                ));
            }
            Struck::Unit(t) => {
                let u = &self.units[t];
                let step_words = if u.data.back() == Back::Damaged && !u.back {
                    format!("{name}: a step, damaged")
                } else {
                    format!("{name}: a step, destroyed")
                };
                out.push((
                    step_words,
                    Chance {
                        num: u64::from(step),
                        den: 6,
                    },
                ));
                out.push((
                    format!("{name}: a double, destroyed"),
                    Chance {
                        num: u64::from(double),
                        den: 6,
                    },
                ));
            }
            Struck::Element(_) => {
                out.push((
                    format!("{name}: a step"),
                    Chance {
                        num: u64::from(step),
                        den: 6,
                    },
                ));
                out.push((
                    format!("{name}: a double, a ruin"),
                    Chance {
                        num: u64::from(double),
                        den: 6,
                    },
                ));
            }
        }
        out.retain(|o| o.1.num > 0);
        out
    }

    pub(crate) fn standing_in_pub(&self, p: Pt, kind: TerrainKind) -> bool {
        self.setup()
            .terrain
            .iter()
            .any(|t| t.kind == kind && crate::setup::point_in(p, &t.corners))
    }

    /// What a template at `at` would hit, with each attack's odds.
    fn template_odds(
        &self,
        i: usize,
        w: usize,
        fixed: Option<i8>,
        at: Pt,
        diameter: u16,
        out: &mut Vec<Odds>,
    ) {
        for struck in self.template_targets(at, diameter) {
            let (bonus, name) = match struck {
                Struck::Unit(t) => (
                    fixed.or_else(|| self.units[i].bonus(w, self.units[t].armor())),
                    self.units[t].tag.to_string(),
                ),
                Struck::Element(k) => (
                    fixed.or_else(|| self.units[i].bonus(w, 2)),
                    self.setup().elements[k].name.clone(),
                ),
            };
            if let Some(bonus) = bonus {
                out.push(Odds {
                    what: format!("the template's attack on {name} (R126)"),
                    outcomes: self.attack_outcomes(struck, bonus, 0),
                });
            }
        }
    }

    /// An event in words.
    pub fn words(&self, event: &Event) -> String {
        let tag = |i: &usize| self.units[*i].tag;
        let struck = |s: &Struck| match s {
            Struck::Unit(t) => self.units[*t].tag.to_string(),
            Struck::Element(k) => self.setup().elements[*k].name.clone(),
        };
        match event {
            Event::Moved {
                unit,
                from,
                to,
                length,
                into: Some((e, k)),
                ..
            } => format!(
                "{} moves {length:.1} mm from {from} into {}, at {to} (R113, R117)",
                tag(unit),
                self.space_name(*e, *k)
            ),
            Event::ThroughWindow {
                unit,
                element,
                window,
            } => format!(
                "{} throws a grenade through {}.w{window}, no template (R127)",
                tag(unit),
                self.element_tag(*element)
            ),
            Event::Deployed { unit, at } => format!(
                "{} is set down at {at} along its transport's path (R140)",
                tag(unit)
            ),
            Event::Pushed { unit, to } => format!(
                "{} is pushed off its light structure to {to} (R115)",
                tag(unit)
            ),
            Event::Boarded { unit, vehicle } => {
                format!("{} boards {} (R140)", tag(unit), tag(vehicle))
            }
            Event::Unloaded { unit, at } => format!(
                "{} is set down at {at} by its destroyed transport (R125)",
                tag(unit)
            ),
            Event::PickOwed { vehicle } => format!(
                "{}'s C location is hit: its owner picks the unit aboard that takes a step (R125)",
                tag(vehicle)
            ),
            Event::Cared {
                carer,
                patient,
                done,
            } => format!("{} cares for {}: {done} (R139)", tag(carer), tag(patient)),
            Event::Outdoors { unit } => format!(
                "{} stands outdoors in the ruin, where it was (R119)",
                tag(unit)
            ),
            Event::Moved {
                unit,
                from,
                to,
                facing,
                length,
                into: None,
            } => {
                let u = &self.units[*unit];
                if from == to && u.data.base == crate::data::Base::Oval {
                    format!("{} stays at {to}, facing {facing}", tag(unit))
                } else if from == to {
                    format!("{} stays at {to}", tag(unit))
                } else {
                    let oval = self.units[*unit].data.base == crate::data::Base::Oval;
                    format!(
                        "{} moves {length:.1} mm from {from} to {to}{} (R113)",
                        tag(unit),
                        if oval {
                            format!(", facing {facing}")
                        } else {
                            String::new()
                        }
                    )
                }
            }
            Event::Sighted {
                shooter,
                target,
                to,
                modifiers,
            } => {
                let mods = if modifiers.is_empty() {
                    "no modifier".to_owned()
                } else {
                    modifiers
                        .iter()
                        .map(|(w, m)| format!("{m:+}: {w}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let sniper = self.units[*shooter].data.weapons.is_empty();
                if sniper {
                    format!(
                        "{} sees {} at {to}, no unit blocking a sniper (R120, R121, R142)",
                        tag(shooter),
                        tag(target)
                    )
                } else {
                    format!(
                        "{} sees {} at {to} (R120, R121): {mods}",
                        tag(shooter),
                        tag(target)
                    )
                }
            }
            Event::Attacked {
                struck: s,
                roll,
                bonus,
                modifiers,
                defense,
                outcome,
            } => format!(
                "attack on {}: {roll} {bonus:+} {modifiers:+} = {} against {defense}: {} (R123)",
                struck(s),
                i16::from(*roll) + i16::from(*bonus) + i16::from(*modifiers),
                outcome_words(*outcome)
            ),
            Event::Sniped {
                target,
                roll,
                need,
                penalties,
                outcome,
            } => format!(
                "sniper's shot at {}: {roll}, needing {need} ({}+ and {penalties} for the seed's penalties): {} (R142)",
                tag(target),
                need - penalties,
                outcome_words(*outcome)
            ),
            Event::Damaged { unit } => format!("{} turns to its damaged side (R124)", tag(unit)),
            Event::LocationHit {
                unit,
                roll,
                location,
                again,
            } => format!(
                "{}'s location roll {roll}: {}{} (R125)",
                tag(unit),
                location_words(self.units[*unit].data, *location),
                if *again { ", hit again: destroyed" } else { "" }
            ),
            Event::Destroyed { unit, carcass } => format!(
                "{} is destroyed{} (R124, R145)",
                tag(unit),
                if *carcass {
                    ", its carcass a light structure (R125)"
                } else {
                    ""
                }
            ),
            Event::ElementStep { element, left } => format!(
                "{} takes a step, {left} left (R119)",
                self.setup().elements[*element].name
            ),
            Event::Ruined { element } => format!(
                "{} is a ruin, a light structure (R119)",
                self.setup().elements[*element].name
            ),
            Event::Template { at, diameter } => format!(
                "a {} template at {at} (R126)",
                if *diameter == SMALL_MM {
                    "small"
                } else {
                    "large"
                }
            ),
            Event::Scattered {
                aim,
                direction,
                distance,
                at,
            } => format!(
                "the drop aimed at {aim} scatters: direction {direction}, distance {distance}, landing at {at} (R129)"
            ),
            Event::AwaitingDrop { aim } => {
                format!("the drop aimed at {aim}: where did the template fall? (R129)")
            }
            Event::Smoked { unit, at } => format!("{} throws a cloud at {at} (R130)", tag(unit)),
            Event::Flipped { unit, why, .. } => format!("{} {why}", tag(unit)),
            Event::TurnBegan { turn } => format!("turn {turn} begins"),
            Event::Prepared {
                side,
                discarded,
                drew,
            } => self.prepared_words(*side, discarded, Some(drew), drew.len()),
            Event::OrdersSealed { side } => format!(
                "{} places its markers face down (R107)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::MarkersLie { side, places } => {
                let at: Vec<String> = places
                    .iter()
                    .map(|(i, slot)| match slot {
                        crate::army::Slot::Unit => tag(i).to_string(),
                        crate::army::Slot::Locomotion => format!("{}.L", tag(i)),
                        crate::army::Slot::Weapon(w) => format!("{}.A{}", tag(i), w + 1),
                    })
                    .collect();
                format!(
                    "{}'s markers lie on {} (R107)",
                    self.setup().sides[usize::from(*side)].name,
                    if at.is_empty() {
                        "nothing".to_owned()
                    } else {
                        at.join(", ")
                    }
                )
            }
            Event::MarkerUp { unit, slot, n } => format!(
                "step {n}: marker {n} turns up on {}{} (R108)",
                tag(unit),
                match slot {
                    crate::army::Slot::Unit => String::new(),
                    crate::army::Slot::Locomotion => " on L".to_owned(),
                    crate::army::Slot::Weapon(w) => format!(" on A{}", w + 1),
                }
            ),
            Event::Coin { roll, side, why } => format!(
                "a coin rolls {roll}: {} {why} (R110, R112)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::Named { unit, kind } => {
                format!(
                    "{} names {} for {} (R110)",
                    self.setup().sides[usize::from(self.units[*unit].side)].name,
                    kind.word(),
                    tag(unit)
                )
            }
            Event::ShotSealed { side } => format!(
                "{} names its shot, sealed until both are named (R111)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::LetGo { unit } => format!("{} lets its action go (R111, R112)", tag(unit)),
            Event::Passed { side } => format!(
                "{} passes (R132)",
                self.setup().sides[usize::from(*side)].name
            ),
            Event::CardPlayed { side, card, unit } => format!(
                "{} plays {}{} (R132)",
                self.setup().sides[usize::from(*side)].name,
                crate::cards::card_id(*card),
                unit.map_or(String::new(), |i| format!(" on {}", tag(&i)))
            ),
            Event::Resupplied { side, drew } => format!(
                "{} draws {} (R152)",
                self.setup().sides[usize::from(*side)].name,
                if drew.is_empty() {
                    "nothing".to_owned()
                } else {
                    card_ids(drew).join(", ")
                }
            ),
            Event::Covered { unit } => format!("{}'s step is cancelled (R152)", tag(unit)),
            Event::CrateOpened {
                unit,
                crate_k,
                content,
            } => match content {
                crate::crates::Content::Trap => format!(
                    "{} opens crate {}: a trap, which leaves (R144)",
                    tag(unit),
                    crate_k + 1
                ),
                c => format!(
                    "{} takes crate {}: {} (R143, R144)",
                    tag(unit),
                    crate_k + 1,
                    c.name()
                ),
            },
            Event::HandedOver { from, to } => format!(
                "{} hands its crate to {}: neither shoots this turn (R144)",
                tag(from),
                tag(to)
            ),
            Event::CrateSpent { unit, content } => {
                format!(
                    "{} uses its {}, which is gone (R144)",
                    tag(unit),
                    content.name()
                )
            }
            Event::CrateShown {
                unit,
                crate_k,
                content,
            } => format!(
                "{}'s allotted crate {} shows: {} (R143)",
                tag(unit),
                crate_k + 1,
                content.name()
            ),
            Event::CrateDropped { unit, crate_k } => format!(
                "crate {} falls with {} and lies there (R143)",
                crate_k + 1,
                tag(unit)
            ),
            Event::DisketteTaken { unit } => format!("{} picks the diskette up (R147)", tag(unit)),
            Event::Tossed { from, to } => format!(
                "{} tosses the diskette to {}: it arrives (R147)",
                tag(from),
                tag(to)
            ),
            Event::DisketteDropped { unit } => {
                format!(
                    "the diskette falls with {} and lies there (R147)",
                    tag(unit)
                )
            }
            Event::Banked { unit } => format!(
                "{} banks its crate for {} (R148)",
                tag(unit),
                self.setup().sides[usize::from(self.units[*unit].side)].name
            ),
            Event::Withheld { unit } => format!(
                "{} has no room to deploy and stays off the table (R146)",
                tag(unit)
            ),
            Event::Placed { unit, at } => match self.units[*unit].inside {
                Some((e, k)) => format!(
                    "{} is deployed in {} (R138)",
                    tag(unit),
                    self.space_name(e, k)
                ),
                None => format!("{} is deployed at {at} (R146)", tag(unit)),
            },
            Event::DecoysGone { side, units } => format!(
                "the Reserve: {}'s decoys on {} are removed (R112)",
                self.setup().sides[usize::from(*side)].name,
                units
                    .iter()
                    .map(|i| tag(i).to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Event::Ended { ending, ap } => {
                let names = &self.setup().sides;
                let score = crate::text::destroyed_words([&names[0].name, &names[1].name], *ap);
                match ending {
                    Ending::Won(s) => {
                        format!("{} wins (R145); {score}", names[s.index()].name)
                    }
                    Ending::Draw(why) => format!("a draw: {why}; {score}"),
                }
            }
        }
    }
}

fn outcome_words(o: crate::attack::Outcome) -> &'static str {
    match o {
        crate::attack::Outcome::Miss => "missed",
        crate::attack::Outcome::Step => "a step",
        crate::attack::Outcome::Double => "a double",
    }
}

fn location_words(data: &crate::data::UnitData, loc: Location) -> String {
    match loc {
        Location::Weapon(w) => format!("weapon {}", weapon_name(data, usize::from(w))),
        Location::Carried => "a carried unit (none)".into(),
        Location::Locomotion => "locomotion, Movement 0".into(),
        Location::Equipment => "equipment and crew, no smoke".into(),
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
    fn prepared_words(&self, side: u8, discarded: &[u8], drew: Option<&[u8]>, n: usize) -> String {
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
