//! Shooting and attacks (R120-R129, R134, R141, R142): a shot's aim and
//! modifiers, how a Shoot resolves (a roll, a sniper's, a template or a
//! drop), a rapid fire's split, a grenade and one through a window, a
//! charge, and what an attack does: the roll, its outcome landing now or
//! after both of two shots (R111), a step and a unit destroyed, an
//! element's steps.

use crate::attack::{Outcome, attack};
use crate::building::Way;
use crate::command::{Legs, Part, Tag};
use crate::data::{Ability, Back, Location, Missile, location};
use crate::event::{CommandError, Event, Struck, refuse};
use crate::game::{ARMOR, Aim, Crossed, GRAZE_MM, GRENADE_LNS, Game, Shot, weapon_name};
use crate::geometry::{EPS, Pt, V, blocks_segment, gap};
use crate::setup::{LightStacking, PenaltySymbol, TerrainKind};
use crate::sight::{Arc as SightArc, Obstacle, sight_lines_in};
use crate::smoke::SmokeStacking;
use crate::templates::{LARGE_MM, SMALL_MM};

impl Game {
    /// The best line from unit `from` to unit `to` within the arc of its
    /// weapon `weapon` (R120-R122, R131), with its modifiers; `None` where
    /// no line is clear.
    pub fn aim(&self, from: usize, to: usize, weapon: usize, sniper: bool) -> Option<Aim> {
        let s = &self.units[from];
        let t = &self.units[to];
        let sw = self.table.setup.switches;
        let ways = self.sight_ways(from, to);
        let near = self.sight_corridors(from, to, &ways);
        let obstacles = self.sight_obstacles(from, to, sniper, &near);
        let list: Vec<Obstacle> = obstacles
            .iter()
            .map(|(shape, c)| Obstacle {
                shape,
                blocks: *c == Crossed::Block,
            })
            .collect();
        let arc = s
            .data
            .weapons
            .get(weapon)
            .map_or(360, |w| w.arc_deg)
            .min(360);
        let arc = (arc < 360).then(|| SightArc {
            facing: dir(f64::from(s.facing)),
            half: (f64::from(arc) / 2.0).to_radians(),
        });
        let mut lines: Vec<(i8, Pt, crate::sight::Sight)> = Vec::new();
        let mut clear = false;
        for way in &ways {
            match way {
                Way::Clear => clear = true,
                Way::Through {
                    from: p,
                    to: shape,
                    modifier,
                } => lines.extend(
                    sight_lines_in(*p, shape, &list, GRAZE_MM, arc)
                        .into_iter()
                        .map(|l| (*modifier, *p, l)),
                ),
            }
        }
        if clear {
            // Centre to centre, within the weapon's arc, paying for the
            // enemy's clouds it crosses (R121, R131).
            let (a, b) = (s.at.v(), t.at.v());
            let d = b.sub(a);
            let in_arc = arc.is_none_or(|arc| {
                d.len() < EPS || d.dot(arc.facing) / d.len() >= arc.half.cos() - 1e-9
            });
            lines = if in_arc {
                let crossed = obstacles
                    .iter()
                    .enumerate()
                    .filter(|(_, (shape, c))| {
                        matches!(c, Crossed::Smoke(_)) && blocks_segment(shape, a, b, GRAZE_MM)
                    })
                    .map(|(k, _)| k)
                    .collect();
                vec![(0, s.at, crate::sight::Sight { to: b, crossed })]
            } else {
                Vec::new()
            };
        }
        let light_penalty = match sw.penalty_symbol {
            PenaltySymbol::Shooter => s
                .data
                .abilities
                .iter()
                .find_map(|a| match a {
                    Ability::PenaltySymbol(n) => Some(*n as i8),
                    _ => None,
                })
                .unwrap_or(1),
            PenaltySymbol::Off => 1,
        };
        let oval_target = t.data.base == crate::data::Base::Oval;
        let price = |crossed: &[usize]| -> (i8, u8, i8) {
            let lights = crossed
                .iter()
                .filter(|k| obstacles[**k].1 == Crossed::Light)
                .count() as i8;
            let light = if oval_target || lights == 0 {
                0
            } else {
                match sw.light_stacking {
                    LightStacking::Once => -light_penalty,
                    LightStacking::Each => -light_penalty * lights,
                }
            };
            let smokes = crossed.iter().filter_map(|k| match obstacles[*k].1 {
                Crossed::Smoke(p) => Some(p),
                _ => None,
            });
            let smoke = match sw.smoke_stacking {
                SmokeStacking::Each => smokes.sum(),
                SmokeStacking::Worst => smokes.min().unwrap_or(0),
            };
            (light, lights as u8, smoke)
        };
        let best = lines
            .into_iter()
            .map(|(building, from, l)| {
                let (light, lights, smoke) = price(&l.crossed);
                ((light, lights, smoke, building), (from, l))
            })
            .reduce(|a, b| {
                let cost = |p: &(i8, u8, i8, i8)| {
                    if sniper {
                        -(i16::from(p.1))
                    } else {
                        i16::from(p.0) + i16::from(p.2) + i16::from(p.3)
                    }
                };
                if cost(&b.0) > cost(&a.0) { b } else { a }
            })?;
        let ((light, lights, smoke, building), (line_from, line)) = best;
        let mut modifiers = Vec::new();
        let mut penalties = 0u8;
        if building != 0 {
            modifiers.push((
                "in a building, seen through an opening (R118)".to_owned(),
                building,
            ));
        }
        if t.inside.is_some() {
            // A sniper's target in a building (R142, `sniper_building`).
            penalties += match sw.sniper_building {
                crate::setup::SniperBuilding::Table => 1,
                crate::setup::SniperBuilding::Example => 2,
            };
        }
        // Long range (R122): beyond a ruler, two from a hill.
        let ruler = f64::from(sw.ruler_mm());
        let on_hill = self.standing_in(s.at, TerrainKind::Hill).is_some();
        let reach = if on_hill { 2.0 * ruler } else { ruler };
        let armor = t.armor();
        // A black Missile at heavy armor or structure (R136); the
        // anti-tank weapon of a crate is one, used at heavy armor, where
        // its +2 works (R144).
        let black = (s
            .data
            .weapons
            .get(weapon)
            .is_some_and(|w| w.missile == Some(Missile::Black))
            && armor >= 1)
            || (matches!(s.gear, Some((_, crate::crates::Content::AntiTank))) && armor == 1);
        let no_long = s.data.has(Ability::TargetingComputer) || s.tripod_set() || black;
        if gap(&s.shape(), &t.shape()) > reach + EPS && !no_long {
            modifiers.push((
                format!(
                    "long range, beyond {} (R122)",
                    if on_hill {
                        "two rulers from a hill"
                    } else {
                        "a ruler"
                    }
                ),
                -1,
            ));
            penalties += 1;
        }
        if light != 0 {
            modifiers.push((
                format!(
                    "crossed {} light structure{} (R122)",
                    lights,
                    if lights == 1 { "" } else { "s" }
                ),
                light,
            ));
        }
        penalties += if oval_target { 0 } else { lights };
        let sv = self.standing_in(s.at, TerrainKind::Vegetation);
        let tv = self.standing_in(t.at, TerrainKind::Vegetation);
        match (sv, tv) {
            (Some(a), Some(b)) if a == b => {
                modifiers.push(("both in the same vegetation (R122)".into(), -1));
            }
            (None, None) => {}
            _ => modifiers.push(("vegetation (R122)".into(), -2)),
        }
        if smoke != 0 {
            modifiers.push(("enemy smoke crossed (R131)".into(), smoke));
        }
        if t.data.has(Ability::Camouflage) {
            modifiers.push(("camouflage (R122, R134)".into(), -1));
            penalties += 1;
        }
        if t.shield_up() || t.data.has(Ability::PermanentShield) {
            penalties += 1;
        }
        if t.movement() >= 6 {
            penalties += 1;
        }
        Some(Aim {
            from: line_from,
            to: line.to,
            modifiers,
            sniper_penalties: penalties,
        })
    }

    /// How unit `i`'s Shoot at `t` with weapon `w` resolves, or why it is
    /// refused (R120-R129, R134, R142).
    pub fn plan_shot(&self, i: usize, t: usize, w: u8) -> Result<Shot, CommandError> {
        let s = &self.units[i];
        let target = &self.units[t];
        // A unit aboard is no target; a sniper's but aboard an open
        // vehicle (R140, R142).
        if let Some(v) = target.aboard {
            let open = self.units[usize::from(v)].data.has(Ability::Open);
            let sniper = s.data.weapons.is_empty() && s.data.has(Ability::Sniper);
            if !(open && sniper) {
                return refuse(
                    140,
                    format!(
                        "{} is aboard {}: a carried unit is no target{}",
                        target.tag,
                        self.units[usize::from(v)].tag,
                        if open { " but a sniper's" } else { "" }
                    ),
                );
            }
        }
        if s.data.has(Ability::DoesNotShoot) {
            return refuse(134, format!("{} does not shoot", s.tag));
        }
        let w = usize::from(w);
        if s.data.weapons.is_empty() {
            if !s.data.has(Ability::Sniper) {
                return refuse(123, format!("{} has no weapon", s.tag));
            }
            if w > 0 {
                return refuse(123, format!("{} has one weapon", s.tag));
            }
            if target.vehicle() {
                return refuse(
                    142,
                    format!("{} is a vehicle: a sniper shoots infantry", target.tag),
                );
            }
            return match self.aim(i, t, 0, true) {
                Some(aim) => Ok(Shot::Sniper(aim)),
                None => refuse(
                    120,
                    format!("{} has no line of sight to {}", s.tag, target.tag),
                ),
            };
        }
        let Some(weapon) = s.data.weapons.get(w) else {
            return refuse(109, format!("{} has no weapon A{}", s.tag, w + 1));
        };
        if s.hits & Location::Weapon(w as u8).bit() != 0 {
            return refuse(
                125,
                format!("{}'s weapon {} is destroyed", s.tag, weapon_name(s.data, w)),
            );
        }
        let armor = target.armor();
        if s.bonus(w, armor).is_none() {
            return refuse(
                123,
                format!(
                    "{} has no bonus (\"-\") at {}'s {}",
                    s.tag, target.tag, ARMOR[armor]
                ),
            );
        }
        let aim = self.aim(i, t, w, false);
        let templated = s.data.has(Ability::Indirect) || weapon.missile == Some(Missile::Blue);
        if templated && target.inside.is_some() {
            return refuse(
                126,
                format!(
                    "{} stands in a building: a template does not hit units inside an element",
                    target.tag
                ),
            );
        }
        if s.data.has(Ability::Indirect) {
            return Ok(match aim {
                Some(_) => Shot::Template { diameter: LARGE_MM },
                None => Shot::Drop,
            });
        }
        let Some(aim) = aim else {
            return refuse(
                120,
                format!(
                    "{} has no line of sight to {}{}",
                    s.tag,
                    target.tag,
                    if weapon.arc_deg < 360 {
                        format!(" within its weapon's {}° arc", weapon.arc_deg)
                    } else {
                        String::new()
                    }
                ),
            );
        };
        if weapon.missile == Some(Missile::Blue) {
            return Ok(Shot::Template { diameter: SMALL_MM });
        }
        Ok(Shot::Direct(aim))
    }

    /// Checks a rapid-fire shot of unit `i` split into `parts` (R141):
    /// each target's line and modifiers, in the parts' order.
    pub fn check_rapid(&self, i: usize, parts: &[Part]) -> Result<Vec<(usize, Aim)>, CommandError> {
        let s = &self.units[i];
        if !s.data.has(Ability::RapidFire) {
            return refuse(
                141,
                format!("{} has no rapid-fire: one target a shot", s.tag),
            );
        }
        if parts.len() < 2 {
            return refuse(141, "a split shot has 2 or more parts");
        }
        let side = s.side;
        let mut out: Vec<(usize, Aim)> = Vec::new();
        for p in parts {
            let t = self.enemy(side, p.target)?;
            if out.iter().any(|(o, _)| *o == t) {
                return refuse(
                    141,
                    format!("{} is named twice: one part a target", p.target),
                );
            }
            if p.bonus == 0 {
                return refuse(
                    141,
                    format!("{}'s part is +0: each part is +1 or more", p.target),
                );
            }
            match self.plan_shot(i, t, 0)? {
                Shot::Direct(aim) => out.push((t, aim)),
                _ => return refuse(141, format!("{} shoots no split at {}", s.tag, p.target)),
            }
        }
        let armor = self.units[out[0].0].armor();
        if let Some((t, _)) = out.iter().find(|(t, _)| self.units[*t].armor() != armor) {
            return refuse(
                141,
                format!(
                    "{} has {} and {} {}: a split shot's targets share one defense type",
                    self.units[out[0].0].tag,
                    ARMOR[armor],
                    self.units[*t].tag,
                    ARMOR[self.units[*t].armor()]
                ),
            );
        }
        let whole = s.bonus(0, armor).unwrap_or(0);
        let sum: i16 = parts.iter().map(|p| i16::from(p.bonus)).sum();
        if sum != i16::from(whole) {
            return refuse(
                141,
                format!(
                    "the parts add up to +{sum}: {}'s bonus at {} is +{whole}",
                    s.tag, ARMOR[armor]
                ),
            );
        }
        let reach = 2.0 * self.lns();
        for (a, (ta, _)) in out.iter().enumerate() {
            for (tb, _) in &out[a + 1..] {
                let d = gap(&self.units[*ta].shape(), &self.units[*tb].shape());
                if d > reach + EPS {
                    return refuse(
                        141,
                        format!(
                            "{} and {} are {d:.1} mm apart: a split shot's targets are within 2 LNS ({reach:.0} mm) of each other",
                            self.units[*ta].tag, self.units[*tb].tag
                        ),
                    );
                }
            }
        }
        Ok(out)
    }

    /// Checks a grenade of unit `i` through window `window` (from 1) of
    /// element `element` (R127): grenades, outdoors, within 1 LNS of the
    /// window. The element and the opening, by index.
    pub fn check_window(
        &self,
        i: usize,
        element: Tag,
        window: u8,
    ) -> Result<(usize, usize), CommandError> {
        let s = &self.units[i];
        if !s.data.has(Ability::Grenades) {
            return refuse(127, format!("{} has no grenades", s.tag));
        }
        if s.data.has(Ability::DoesNotShoot) {
            return refuse(134, format!("{} does not shoot", s.tag));
        }
        let Some(e) = self.element_index(element) else {
            return refuse(117, format!("no building element is {element}"));
        };
        if self.ruined(e) {
            return refuse(119, format!("{element} is a ruin: it has no windows"));
        }
        let windows: Vec<usize> = self.table.setup.elements[e]
            .openings
            .iter()
            .enumerate()
            .filter(|(_, o)| o.kind == crate::setup::OpeningKind::Window)
            .map(|(k, _)| k)
            .collect();
        let Some(&o) = windows.get(usize::from(window).wrapping_sub(1)) else {
            return refuse(
                117,
                format!(
                    "{element} has {} window{}",
                    windows.len(),
                    if windows.len() == 1 { "" } else { "s" }
                ),
            );
        };
        if s.inside.is_some() {
            return refuse(
                127,
                format!("{} throws through a window from outdoors", s.tag),
            );
        }
        let op = &self.table.setup.elements[e].openings[o];
        let d = gap(&s.shape(), &crate::building::opening_shape(op.a, op.b));
        if d > self.lns() + EPS {
            return refuse(
                127,
                format!(
                    "{} is {d:.1} mm from {element}.w{window}: a grenade goes through a window from within 1 LNS ({:.0} mm)",
                    s.tag,
                    self.lns()
                ),
            );
        }
        Ok((e, o))
    }

    /// Checks a grenade of unit `i` at `t` (R127): Grenades, sight, within
    /// 3 LNS.
    pub fn check_grenade(&self, i: usize, t: usize) -> Result<(), CommandError> {
        let s = &self.units[i];
        let target = &self.units[t];
        if target.aboard.is_some() {
            return refuse(
                140,
                format!("{} is aboard a transport: no target", target.tag),
            );
        }
        let experimental = matches!(
            s.gear,
            Some((_, crate::crates::Content::ExperimentalGrenade))
        );
        if !s.data.has(Ability::Grenades) && !experimental {
            return refuse(127, format!("{} has no grenades", s.tag));
        }
        if s.data.has(Ability::DoesNotShoot) {
            return refuse(134, format!("{} does not shoot: no grenade", s.tag));
        }
        let reach = f64::from(GRENADE_LNS) * self.lns();
        let d = gap(&s.shape(), &target.shape());
        if d > reach + EPS {
            return refuse(
                127,
                format!(
                    "{} is {d:.1} mm from {}: a grenade reaches {reach:.0} mm (3 LNS)",
                    target.tag, s.tag
                ),
            );
        }
        if target.inside.is_some() {
            return refuse(
                126,
                format!(
                    "{} stands in a building: a grenade's template does not hit units inside an element",
                    target.tag
                ),
            );
        }
        if self.aim(i, t, 0, false).is_none() {
            return refuse(
                127,
                format!("{} has no line of sight to {}", s.tag, target.tag),
            );
        }
        Ok(())
    }

    /// Checks a charge of unit `i` at `t` along `legs` (R134).
    pub fn check_charge(&self, i: usize, t: usize, legs: &Legs) -> Result<Pt, CommandError> {
        let s = &self.units[i];
        if self.units[t].aboard.is_some() {
            return refuse(
                140,
                format!("{} is aboard a transport: no target", self.units[t].tag),
            );
        }
        if !s.data.has(Ability::Charge) {
            return refuse(134, format!("{} has no Charge", s.tag));
        }
        if s.data.has(Ability::DoesNotShoot) {
            return refuse(134, format!("{} does not shoot: no charge", s.tag));
        }
        let target = &self.units[t];
        if s.bonus(0, target.armor()).is_none() {
            return refuse(
                123,
                format!(
                    "{} has no bonus (\"-\") at {}'s {}",
                    s.tag,
                    target.tag,
                    ARMOR[target.armor()]
                ),
            );
        }
        let (_, place) = self.check_move(i, legs, None)?;
        // In contact where it ends (R102): within contact outdoors; in a
        // space linked to the target's indoors.
        let mut moved = self.clone();
        moved.set_place(i, place);
        if moved.touching(i, t) {
            return Ok(moved.units[i].at);
        }
        let end = moved.units[i].at;
        let placed = moved.units[i].shape();
        if target.inside.is_some() || moved.units[i].inside.is_some() {
            return refuse(
                134,
                format!(
                    "{} ends out of contact with {}: indoors, contact is a linked space (R102)",
                    s.tag, target.tag
                ),
            );
        }
        refuse(
            134,
            format!(
                "{} ends at {end}, {:.1} mm from {}: a charge ends in contact (within {} mm, R102)",
                s.tag,
                gap(&placed, &target.shape()),
                target.tag,
                self.table.setup.switches.contact_mm
            ),
        )
    }

    /// An attack on unit `t` (R123): a die, the bonus and modifiers against
    /// its defense (a crater's +1 for infantry in one).
    pub(crate) fn attack_at(
        &mut self,
        t: usize,
        bonus: i8,
        modifiers: i8,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let roll = self.d6()?;
        let u = &self.units[t];
        let crater = !u.vehicle() && self.standing_in(u.at, TerrainKind::Crater).is_some();
        let defense = u.defense();
        let outcome = attack(roll, bonus, modifiers, defense, crater);
        events.push(Event::Attacked {
            struck: Struck::Unit(t),
            roll,
            bonus,
            modifiers,
            defense: defense + u8::from(crater),
            outcome,
        });
        self.land(t, outcome, events)
    }

    /// An attack's outcome on unit `t`: now, or after both of two shots
    /// resolving together have rolled (R111).
    pub(crate) fn land(
        &mut self,
        t: usize,
        outcome: Outcome,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if outcome == Outcome::Miss || !self.units[t].alive {
            return Ok(());
        }
        if let Some(later) = &mut self.deferred {
            later.push((t, outcome));
            return Ok(());
        }
        // A medi-kit ignores the next step, not a double (R144).
        if outcome == Outcome::Step
            && let Some((k, crate::crates::Content::MediKit)) = self.units[t].gear
        {
            self.spend(t, k, events);
            return Ok(());
        }
        match outcome {
            Outcome::Miss => Ok(()),
            Outcome::Step => self.step(t, events),
            Outcome::Double => self.destroy_unit(t, true, events),
        }
    }

    /// A step on unit `t` (R124, R125).
    pub(crate) fn step(&mut self, t: usize, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let (data, back, hits) = (self.units[t].data, self.units[t].back, self.units[t].hits);
        match data.back() {
            Back::Damaged if !back => {
                self.units[t].back = true;
                self.units[t].hurt = self.turn;
                events.push(Event::Damaged { unit: t });
            }
            Back::Damaged | Back::Ability => self.destroy_unit(t, false, events)?,
            Back::Vehicle => {
                let roll = self.d6()?;
                let column = data.location_type.unwrap_or(1);
                let location = location(column, roll);
                let again = hits & location.bit() != 0;
                events.push(Event::LocationHit {
                    unit: t,
                    roll,
                    location,
                    again,
                });
                if again {
                    self.destroy_unit(t, false, events)?;
                } else if location == Location::Carried {
                    // C: a unit aboard takes a step, the owner's pick
                    // where several are; with nobody aboard, nothing and
                    // no mark (R125).
                    let carried = self.carried(t);
                    self.units[t].hurt = self.turn;
                    match carried.as_slice() {
                        [] => {}
                        [one] => self.step(*one, events)?,
                        _ => {
                            self.units[t].hits |= location.bit();
                            self.picks.push(t);
                            events.push(Event::PickOwed { vehicle: t });
                        }
                    }
                    if !carried.is_empty() {
                        self.units[t].hits |= location.bit();
                    }
                } else {
                    self.units[t].hits |= location.bit();
                    self.units[t].hurt = self.turn;
                }
            }
        }
        Ok(())
    }

    pub(crate) fn destroy_unit(
        &mut self,
        t: usize,
        double: bool,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let turn = self.turn;
        let u = &mut self.units[t];
        if !u.alive {
            return Ok(());
        }
        u.alive = false;
        u.fell = Some((turn, double));
        u.carcass = u.data.leaves_carcass();
        let (side, ap, carcass) = (u.side, u.data.ap, u.carcass);
        self.drop_gear(t, events);
        self.drop_diskette(t, events);
        self.ap[usize::from(1 - side)] += ap;
        events.push(Event::Destroyed { unit: t, carcass });
        // Its passengers set down in contact, attacked at +0 (R125); a
        // pick it owed is gone with it.
        self.picks.retain(|v| *v != t);
        self.unload(t, events)
    }

    /// An attack on building element `k` (R119, R123): a step takes one of
    /// its steps, a double two; at none it is a ruin.
    pub(crate) fn attack_element(
        &mut self,
        k: usize,
        bonus: i8,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let roll = self.d6()?;
        let defense = self.table.setup.elements[k].defense;
        let outcome = attack(roll, bonus, 0, defense, false);
        events.push(Event::Attacked {
            struck: Struck::Element(k),
            roll,
            bonus,
            modifiers: 0,
            defense,
            outcome,
        });
        // A double destroys (R123): the element is a ruin at once.
        let steps = match outcome {
            Outcome::Miss => 0,
            Outcome::Step => 1,
            Outcome::Double => self.elements[k],
        };
        if steps > 0 {
            let left = self.elements[k].saturating_sub(steps);
            self.elements[k] = left;
            events.push(Event::ElementStep { element: k, left });
            if left == 0 {
                self.ruin(k, events)?;
            }
        }
        Ok(())
    }
}

fn dir(deg: f64) -> V {
    let r = deg.to_radians();
    V::new(r.cos(), r.sin())
}
