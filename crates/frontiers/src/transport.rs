//! Transport (R140): boarding a friendly vehicle at the end of a move,
//! leaving it from any spot in contact, carried units that block nothing
//! and are no targets, a C location's step on a carried unit of the
//! owner's pick, and a destroyed transport's passengers set down in
//! contact under an attack at +0 (R125).

use crate::building::Place;
use crate::command::{Legs, Step, Tag};
use crate::data::{Ability, Base};
use crate::event::{CommandError, Event};
use crate::game::Game;
use crate::geometry::{EPS, Pt, gap};
use crate::setup::footprint;

/// The units a transport sets down along its path, each with its spot.
pub(crate) type SetDown = Vec<(usize, Pt)>;

fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

impl Game {
    /// The standing units vehicle `v` carries, in the setup's order.
    pub fn carried(&self, v: usize) -> Vec<usize> {
        (0..self.units.len())
            .filter(|k| self.units[*k].alive && self.units[*k].aboard == Some(v as u8))
            .collect()
    }

    /// How many units vehicle `v` carries at most (R140, data).
    pub fn capacity(&self, v: usize) -> u8 {
        self.units[v]
            .data
            .abilities
            .iter()
            .find_map(|a| match a {
                Ability::Transport(n) => Some(*n),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// Whether a base of unit `i` centred at `p` touches vehicle `v`.
    fn touches_vehicle(&self, i: usize, p: Pt, v: usize) -> bool {
        let u = &self.units[i];
        gap(
            &footprint(u.data, p, u.facing).shape(),
            &self.units[v].shape(),
        ) <= f64::from(self.table.setup.switches.contact_mm) + EPS
    }

    /// Checks a path of unit `i` that leaves a transport (its first point
    /// a spot in contact with it) or boards one (its last step), R140:
    /// its length in mm and where it ends.
    pub(crate) fn check_transport_path(
        &self,
        i: usize,
        legs: &Legs,
    ) -> Result<(f64, Place), CommandError> {
        let u = &self.units[i];
        if u.vehicle() || u.data.base != Base::Round {
            return refuse(
                140,
                format!(
                    "{} is a vehicle: transports carry circular units that are not",
                    u.tag
                ),
            );
        }
        if u.inside.is_some() {
            return refuse(
                140,
                format!("{} leaves the building before it boards", u.tag),
            );
        }
        let steps = legs.steps();
        let (board, path) = match steps.split_last() {
            Some((Step::Board(v), rest)) => (Some(*v), rest),
            _ => (None, steps),
        };
        let mut points = Vec::with_capacity(path.len());
        for s in path {
            match s {
                Step::At(p) => points.push(p.pt()),
                Step::Space(..) => {
                    return refuse(
                        140,
                        "a path that leaves or boards a transport stays outdoors",
                    );
                }
                Step::Board(_) => return refuse(140, "a path boards a transport at its end"),
                Step::Drop(..) => {
                    return refuse(140, "only a transport sets units down along its path");
                }
            }
        }
        let mut start = u.at;
        if let (Some(v), true, None) = (u.aboard, points.is_empty(), board) {
            // Staying aboard: the activation spent.
            return Ok((0.0, Place::Aboard(v)));
        }
        if let Some(v) = u.aboard {
            // Leaving: set down first at a spot in contact, for nothing.
            let v = usize::from(v);
            let Some((&first, rest)) = points.split_first() else {
                return refuse(
                    140,
                    format!(
                        "{} leaves {} at a spot in contact with it",
                        u.tag, self.units[v].tag
                    ),
                );
            };
            if !self.touches_vehicle(i, first, v) {
                return refuse(
                    140,
                    format!(
                        "{} leaving {} is set down at {first}, not in contact with it",
                        u.tag, self.units[v].tag
                    ),
                );
            }
            self.stands_free_at(i, first)?;
            start = first;
            points = rest.to_vec();
        }
        let length = self.outdoor_run_from(i, start, &points)?;
        let budget = f64::from(u.movement()) * f64::from(self.table.setup.switches.lns_mm);
        if length > budget + EPS {
            return refuse(
                113,
                format!("the path is {length:.1} mm, over the {budget:.0} mm the unit moves"),
            );
        }
        let end = points.last().copied().unwrap_or(start);
        let Some(tag) = board else {
            return Ok((length, Place::Out(end)));
        };
        let v = self.transport(i, tag)?;
        if !self.touches_vehicle(i, end, v) {
            return refuse(
                140,
                format!(
                    "{} ends at {end}, not in contact with {tag}: it boards from contact",
                    u.tag
                ),
            );
        }
        Ok((length, Place::Aboard(v as u8)))
    }

    /// The friendly transport `tag` with room for unit `i` (R140).
    fn transport(&self, i: usize, tag: Tag) -> Result<usize, CommandError> {
        let u = &self.units[i];
        let Some(v) = self.find(tag) else {
            return refuse(140, format!("no unit is {tag}"));
        };
        let t = &self.units[v];
        if !t.alive || t.side != u.side || v == i {
            return refuse(140, format!("{tag} is no friendly transport standing"));
        }
        let cap = self.capacity(v);
        if cap == 0 {
            return refuse(140, format!("{tag} carries nobody"));
        }
        let aboard = self.carried(v).iter().filter(|k| **k != i).count();
        if aboard >= usize::from(cap) {
            return refuse(140, format!("{tag} is full: it carries {cap}"));
        }
        Ok(v)
    }

    /// Checks a transport's move that sets passengers down along its path
    /// (R140, Deployment): its length, where it ends, and each unit set
    /// down with its spot, in contact with the transport where it stands
    /// on its path when it is set down.
    pub(crate) fn check_deploy_path(
        &self,
        i: usize,
        legs: &Legs,
        face: Option<i16>,
    ) -> Result<(f64, Place, SetDown), CommandError> {
        let u = &self.units[i];
        if !u.data.has(Ability::Deployment) {
            return refuse(
                140,
                format!(
                    "{} has no Deployment: its passengers leave by their own moves",
                    u.tag
                ),
            );
        }
        let mut points: Vec<crate::command::P16> = Vec::new();
        let mut drops: Vec<(usize, Tag, Pt)> = Vec::new();
        for s in legs.steps() {
            match s {
                Step::At(p) => points.push(*p),
                Step::Drop(t, p) => drops.push((points.len(), *t, p.pt())),
                _ => return refuse(140, "a transport's path is points and units set down"),
            }
        }
        let path = Legs::of(&points).expect("fewer legs than steps");
        let (length, place) = self.check_move(i, &path, face)?;
        let end = match place {
            Place::Out(p) => p,
            _ => u.at,
        };
        let final_facing = face.unwrap_or(u.facing);
        let mut done: Vec<(usize, Pt)> = Vec::new();
        for (n, t, p) in drops {
            let Some(k) = self.find(t) else {
                return refuse(140, format!("no unit is {t}"));
            };
            if self.units[k].aboard != Some(i as u8) || !self.units[k].alive {
                return refuse(140, format!("{t} is not aboard {}", u.tag));
            }
            if done.iter().any(|(d, _)| *d == k) {
                return refuse(140, format!("{t} is set down twice"));
            }
            let at = if n == 0 { u.at } else { points[n - 1].pt() };
            let facing = if n == points.len() {
                final_facing
            } else {
                u.facing
            };
            let there = footprint(u.data, at, facing).shape();
            let base = footprint(self.units[k].data, p, self.units[k].facing).shape();
            let g = gap(&base, &there);
            if !(-EPS..=f64::from(self.table.setup.switches.contact_mm) + EPS).contains(&g) {
                return refuse(
                    140,
                    format!(
                        "{t} set down at {p} is not in contact with {} at {at}",
                        u.tag
                    ),
                );
            }
            self.stands_free_at(k, p)?;
            let end_shape = footprint(u.data, end, final_facing).shape();
            if crate::geometry::overlaps(&base, &end_shape)
                || done.iter().any(|(d, q)| {
                    crate::geometry::overlaps(
                        &base,
                        &footprint(self.units[*d].data, *q, self.units[*d].facing).shape(),
                    )
                })
            {
                return refuse(140, format!("{t} set down at {p} would stand under a unit"));
            }
            done.push((k, p));
        }
        Ok((length, place, done))
    }

    /// Vehicle `v` destroyed: each unit it carried set down in contact
    /// with it, at the free spot nearest its centre, and attacked at +0
    /// (R125).
    pub(crate) fn unload(&mut self, v: usize, events: &mut Vec<Event>) -> Result<(), CommandError> {
        for k in self.carried(v) {
            let spot = (0..72)
                .filter_map(|n| self.contact_spot(k, v, f64::from(n) * 5.0))
                .find(|p| self.stands_free_at(k, *p).is_ok());
            self.units[k].aboard = None;
            match spot {
                Some(p) => self.units[k].at = p,
                None => {
                    // Nowhere free: it is lost with its transport.
                    self.destroy_unit(k, false, events)?;
                    continue;
                }
            }
            events.push(Event::Unloaded {
                unit: k,
                at: self.units[k].at,
            });
            self.attack_at(k, 0, 0, events)?;
        }
        Ok(())
    }

    /// The point at bearing `deg` from unit `v`'s centre where unit `k`'s
    /// base stands 1 mm from it: in contact (R102).
    pub(crate) fn contact_spot(&self, k: usize, v: usize, deg: f64) -> Option<Pt> {
        let u = &self.units[k];
        let target = self.units[v].shape();
        let c = self.units[v].at;
        let (dx, dy) = (deg.to_radians().cos(), deg.to_radians().sin());
        let mut r = 0.0;
        while r < 200.0 {
            let p = Pt::new(c.x + (dx * r).round() as i32, c.y + (dy * r).round() as i32);
            let g = gap(&footprint(u.data, p, u.facing).shape(), &target);
            if g >= 0.5 {
                return (g <= f64::from(self.table.setup.switches.contact_mm)).then_some(p);
            }
            r += 1.0;
        }
        None
    }
}
