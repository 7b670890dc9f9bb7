//! The legal list as families (R109-R148 on the contract): each unit's
//! kinds of action (a move, a charge, a shot, a care, a crate opened or
//! handed, the diskette tossed ...) as a family, its members drawn over
//! the unit's reach (turning points round what stands in the way,
//! detours, doors and spaces, a transport's sides) and a member snapped
//! to a wanted point. The contract's `legal_into`, `random_command`,
//! `sample_into` and `nearest` are built on them.

use rand::Rng;
use sandtable_core::game::{Legal, Seat, Spot};

use crate::command::{Command, Kind, Legs, MAX_PARTS, P16, Part, Special, Step, Tag};
use crate::data::{Ability, Location};
use crate::flow::Phase;
use crate::game::{Game, Shot};
use crate::geometry::{EPS, Pt, V, gap, round_mm};
use crate::setup::TerrainKind;
use crate::turn::kind_of;

/// A kind of care a medic or mechanic gives (R139): the ability, and
/// for a mechanic the marker it takes off (`None`: a return).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CareOf {
    pub(crate) ability: Ability,
    location: Option<Option<Location>>,
}

impl CareOf {
    /// Every kind, in a fixed order.
    pub(crate) const ALL: [CareOf; 6] = [
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
    pub(crate) fn of(command: &Command) -> Option<CareOf> {
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
    pub(crate) fn command(self, unit: Tag, patient: Tag, legs: Legs) -> Command {
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

/// Tries per member drawn before a draw gives up (a crowded table refuses
/// most points).
pub(crate) const TRIES: usize = 12;

/// The most paths round an obstacle or through a building tried for one
/// charge's or care's family: the nearest first (R134, R139).
pub(crate) const DETOURS_TRIED: usize = 48;

/// The distance between two points, in mm.
pub(crate) fn apart(a: Pt, b: Pt) -> f64 {
    f64::from(a.x - b.x).hypot(f64::from(a.y - b.y))
}

pub(crate) fn spot(p: Pt) -> Option<Spot> {
    Some(Spot::Point {
        x_mm: i16::try_from(p.x).ok()?,
        y_mm: i16::try_from(p.y).ok()?,
    })
}

impl Game {
    pub(crate) fn side_of(&self, seat: Seat) -> Option<u8> {
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
    pub(crate) fn charge_paths(&self, i: usize, t: usize) -> Vec<Legs> {
        self.approach_paths(i, t, |legs| self.check_charge(i, t, legs).is_ok())
    }

    /// Paths of a medic or mechanic `i` to care for unit `t` (R139), as
    /// a charge's: none where `ok` takes it as it stands, else straight
    /// approaches to contact.
    pub(crate) fn care_paths(&self, i: usize, t: usize, care: CareOf) -> Vec<Legs> {
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
    pub(crate) fn point_near<R: Rng + ?Sized>(c: Pt, r: f64, rng: &mut R) -> Pt {
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
    pub(crate) fn sample_moves<R: Rng + ?Sized>(
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
    pub(crate) fn sample_splits<R: Rng + ?Sized>(
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
    pub(crate) fn nearest_move(&self, i: usize, wanted: Pt, face: Option<i16>) -> Option<Command> {
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
}
