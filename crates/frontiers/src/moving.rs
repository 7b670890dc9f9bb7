//! Moving (R113-R116): what stands in a move's way and the refusal that
//! names it, a path checked in space, the units an oval pushes aside and
//! where they go, a unit set down where its move ends, and what a move
//! undoes (a tripod, a raised shield, R135, R136). The path's geometry is
//! [`crate::moves`]'s; doors and spaces are [`crate::building`]'s.

use crate::building::Place;
use crate::command::{Legs, Step};
use crate::data::Ability;
use crate::event::{CommandError, Event, from_path, refuse};
use crate::game::{Game, Named};
use crate::geometry::{EPS, Footprint, Pt, Shape, V, overlaps, round_mm};
use crate::moves::{Kind, Mover, check_path};
use crate::setup::{TerrainKind, footprint, on_table, point_in};
use crate::templates::LARGE_MM;

impl Game {
    /// What may stand in the way of a move of unit `mover` from `start`
    /// along the leg ends `legs` (R114): building elements not ruined, the
    /// other standing units, vegetation, in that order, each with what
    /// names it in a refusal ([`Game::obstacle_name`]). Only those near
    /// the path are given (the table's index, then each unit's reach):
    /// what lies farther than the mover's own reach from every leg can
    /// neither meet the footprint it sweeps nor where it ends.
    pub(crate) fn obstacles_for_move(
        &self,
        mover: usize,
        start: Pt,
        legs: &[Pt],
    ) -> (Vec<(Shape, Kind)>, Vec<Named>) {
        self.obstacles_but(mover, &[], start, legs)
    }

    /// As [`Game::obstacles_for_move`], leaving out the units of `skip`
    /// (those an oval pushes off a light structure, R115).
    fn obstacles_but(
        &self,
        mover: usize,
        skip: &[usize],
        start: Pt,
        legs: &[Pt],
    ) -> (Vec<(Shape, Kind)>, Vec<Named>) {
        // The path's corridor: each leg, and where it starts, within the
        // mover's reach from its centre (an oval at any facing), and a
        // millimetre more.
        let (len, wide) = self.units[mover].data.base.size_mm();
        let reach = f64::from(len.max(wide)) / 2.0 + 1.0;
        let mut path: Vec<(V, V)> = Vec::with_capacity(legs.len().max(1));
        let mut at = start.v();
        for end in legs {
            path.push((at, end.v()));
            at = end.v();
        }
        if path.is_empty() {
            path.push((at, at));
        }
        let mut near = Vec::new();
        for (p, q) in &path {
            self.table.index.near_segment(*p, *q, reach, &mut near);
        }
        crate::index::Grid::finish(&mut near);
        let elements = self.table.elements.len() as u32;
        let mut things = Vec::new();
        let mut names = Vec::new();
        for &n in near.iter().take_while(|n| **n < elements) {
            let k = n as usize;
            if self.elements[k] > 0 {
                things.push((self.table.elements[k].clone(), Kind::Building));
                names.push(Named::Element(k));
            }
        }
        for (i, u) in self.units.iter().enumerate() {
            // A unit in a building is within its element, which stands in
            // the way already.
            if i != mover
                && u.alive
                && u.inside.is_none()
                && u.aboard.is_none()
                && !skip.contains(&i)
            {
                let (l, w) = u.data.base.size_mm();
                let r = f64::from(l.max(w)) / 2.0;
                let c = u.at.v();
                if path
                    .iter()
                    .all(|(p, q)| crate::geometry::point_segment(c, *p, *q) > r + reach)
                {
                    continue;
                }
                things.push((
                    u.shape(),
                    Kind::Unit {
                        vehicle: u.vehicle(),
                    },
                ));
                names.push(Named::Unit(i));
            }
        }
        for &n in near.iter().skip_while(|n| **n < elements) {
            let k = (n - elements) as usize;
            if self.table.setup.terrain[k].kind == TerrainKind::Vegetation {
                things.push((self.table.terrain[k].clone(), Kind::Vegetation));
                names.push(Named::Terrain(k));
            }
        }
        (things, names)
    }

    /// What names an obstacle in a refusal.
    pub(crate) fn obstacle_name(&self, named: Named) -> String {
        match named {
            Named::Element(k) => {
                format!("the building element {}", self.table.setup.elements[k].name)
            }
            Named::Unit(i) => {
                let u = &self.units[i];
                format!("{} ({})", u.tag, u.data.short_name())
            }
            Named::Terrain(k) => format!("vegetation (terrain[{k}])"),
        }
    }

    /// Checks unit `i`'s path; its length in mm and where it ends.
    pub fn check_move(
        &self,
        i: usize,
        legs: &Legs,
        face: Option<i16>,
    ) -> Result<(f64, Place), CommandError> {
        let u = &self.units[i];
        if face.is_some() && u.data.base != crate::data::Base::Oval {
            return refuse(
                113,
                format!("{} is round: only an oval picks a facing", u.tag),
            );
        }
        if !legs.is_empty() && u.movement() == 0 {
            return refuse(
                125,
                format!("{}'s locomotion is hit: its Movement is 0", u.tag),
            );
        }
        if legs.steps().iter().any(|s| matches!(s, Step::Drop(..))) {
            return self
                .check_deploy_path(i, legs, face)
                .map(|(length, place, _)| (length, place));
        }
        let boards = matches!(legs.steps().last(), Some(Step::Board(_)));
        if u.aboard.is_some() || boards {
            return self.check_transport_path(i, legs);
        }
        let points = match legs.points() {
            Some(points) if u.inside.is_none() => points,
            _ => return self.check_building_path(i, legs),
        };
        // An oval may end on circular units standing on a light
        // structure: it pushes them off (R115).
        let pushable = self.pushable(i);
        let (things, names) = self.obstacles_but(i, &pushable, u.at, &points);
        let mover = Mover {
            at: u.footprint(),
            movement: u.movement(),
            vehicle: u.vehicle(),
            flight: u.data.has(Ability::Flight),
        };
        let length = check_path(
            &mover,
            &points,
            face,
            &things,
            self.table.setup.switches.lns_mm,
            self.table.setup.table,
        )
        .map_err(|e| from_path(e, &|k| self.obstacle_name(names[k])))?;
        let end = points.last().copied().unwrap_or(u.at);
        if !pushable.is_empty() {
            let mut moved = self.clone();
            moved.set_place(i, Place::Out(end));
            if let Some(f) = face {
                moved.units[i].facing = f;
            }
            moved.pushes(i)?;
        }
        Ok((length, Place::Out(end)))
    }

    /// The circular units an oval `i` may end on: standing on a light
    /// structure (R115), outdoors.
    fn pushable(&self, i: usize) -> Vec<usize> {
        let u = &self.units[i];
        if u.data.base != crate::data::Base::Oval || u.data.has(Ability::Flight) {
            return Vec::new();
        }
        (0..self.units.len())
            .filter(|k| {
                let o = &self.units[*k];
                *k != i
                    && o.alive
                    && o.inside.is_none()
                    && o.aboard.is_none()
                    && o.data.base == crate::data::Base::Round
                    && self.on_light_structure(o.at)
            })
            .collect()
    }

    /// Whether `p` stands on a light structure: a wall, a ruin (R115,
    /// R119).
    fn on_light_structure(&self, p: Pt) -> bool {
        self.standing_in(p, TerrainKind::LightStructure).is_some()
            || self
                .table
                .setup
                .elements
                .iter()
                .enumerate()
                .any(|(k, e)| self.elements[k] == 0 && point_in(p, &e.corners))
    }

    /// Where oval `i`, standing where it ends, pushes each circular unit
    /// it overlaps (R115): straight away from its axis until it touches;
    /// where that spot is taken, the free spot in contact with the oval
    /// nearest where the unit stood (ties to the first bearing from the
    /// oval's facing round). Refused where no spot is free.
    pub(crate) fn pushes(&self, i: usize) -> Result<Vec<(usize, Pt)>, CommandError> {
        let oval = self.units[i].shape();
        let mut out: Vec<(usize, Pt)> = Vec::new();
        for k in self.pushable(i) {
            let u = &self.units[k];
            if !overlaps(&u.shape(), &oval) {
                continue;
            }
            let c = u.at.v();
            let (a, b) = (oval.core[0], oval.core[oval.core.len() - 1]);
            let ab = b.sub(a);
            let len2 = ab.dot(ab);
            let t = if len2 > 0.0 {
                (c.sub(a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let mut away = c.sub(a.add(ab.scale(t)));
            if away.len() < EPS {
                away = V::new(-ab.y, ab.x);
            }
            let away = away.scale(1.0 / away.len().max(EPS));
            let free = |p: Pt, out: &[(usize, Pt)]| {
                let base = footprint(u.data, p, u.facing).shape();
                on_table(&base, self.table.setup.table)
                    && !overlaps(&base, &oval)
                    && !self.units.iter().enumerate().any(|(m, o)| {
                        let at = out.iter().find(|(n, _)| *n == m).map_or(o.at, |x| x.1);
                        m != k
                            && m != i
                            && o.alive
                            && o.inside.is_none()
                            && o.aboard.is_none()
                            && overlaps(&base, &footprint(o.data, at, o.facing).shape())
                    })
                    && !self
                        .table
                        .elements
                        .iter()
                        .enumerate()
                        .any(|(e, shape)| self.elements[e] > 0 && overlaps(&base, shape))
            };
            let straight = (0..400)
                .map(|r| round_mm(c.add(away.scale(f64::from(r)))))
                .find(|p| !overlaps(&footprint(u.data, *p, u.facing).shape(), &oval));
            let spot = match straight {
                Some(p) if free(p, &out) => Some(p),
                _ => (0..72)
                    .filter_map(|n| {
                        self.contact_spot(
                            k,
                            i,
                            f64::from(self.units[i].facing) + f64::from(n) * 5.0,
                        )
                    })
                    .filter(|p| free(*p, &out))
                    .min_by_key(|p| {
                        i64::from(p.x - u.at.x).pow(2) + i64::from(p.y - u.at.y).pow(2)
                    }),
            };
            match spot {
                Some(p) => out.push((k, p)),
                None => {
                    return refuse(
                        115,
                        format!(
                            "{} would push {} off the light structure, and no spot in contact is free",
                            self.units[i].tag, u.tag
                        ),
                    );
                }
            }
        }
        Ok(out)
    }

    /// Sets unit `i` down where a move ends.
    pub(crate) fn set_place(&mut self, i: usize, place: Place) {
        match place {
            Place::Out(p) => {
                self.units[i].at = p;
                self.units[i].inside = None;
            }
            Place::In(e, k) => {
                self.units[i].at = self.space_at(e, k);
                self.units[i].inside = Some((e, k));
            }
            Place::Aboard(v) => {
                self.units[i].at = self.units[usize::from(v)].at;
                self.units[i].inside = None;
            }
        }
        self.units[i].aboard = match place {
            Place::Aboard(v) => Some(v),
            _ => None,
        };
        // Those it carries go with it (R140).
        let at = self.units[i].at;
        for k in self.carried(i) {
            self.units[k].at = at;
        }
    }

    /// Whether `p` stands in a terrain piece of `kind`: the piece's index.
    pub(crate) fn standing_in(&self, p: Pt, kind: TerrainKind) -> Option<usize> {
        // A point in a piece lies within its bounding disc: the index's
        // pieces near it hold every one it stands in, the first first.
        let mut near = Vec::new();
        self.table.index.near_segment(p.v(), p.v(), 0.0, &mut near);
        crate::index::Grid::finish(&mut near);
        let elements = self.table.elements.len() as u32;
        near.iter()
            .skip_while(|n| **n < elements)
            .map(|n| (n - elements) as usize)
            .find(|k| {
                let t = &self.table.setup.terrain[*k];
                t.kind == kind && point_in(p, &t.corners)
            })
    }

    pub(crate) fn check_land(&self, at: Pt) -> Result<(), CommandError> {
        let shape = Footprint::disc(at, LARGE_MM).shape();
        if !on_table(&shape, self.table.setup.table) {
            return refuse(
                129,
                format!("a large template at {at} is not wholly on the table"),
            );
        }
        Ok(())
    }

    /// Moves unit `i` along `legs` to its end, turned to `face` (R113):
    /// a tripod is unset by any move (R136).
    pub(crate) fn move_unit(
        &mut self,
        i: usize,
        legs: &Legs,
        face: Option<i16>,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let (length, place) = self.check_move(i, legs, face)?;
        let drops = if legs.steps().iter().any(|s| matches!(s, Step::Drop(..))) {
            self.check_deploy_path(i, legs, face)?.2
        } else {
            Vec::new()
        };
        let from = self.units[i].at;
        for (k, p) in drops {
            // Set down along the path (R140): it acts later, if it has
            // not acted this turn.
            self.units[k].aboard = None;
            self.units[k].at = p;
            events.push(Event::Deployed { unit: k, at: p });
        }
        self.set_place(i, place);
        if let Some(f) = face {
            self.units[i].facing = f;
        }
        // The units it ends on pushed off their light structure (R115).
        for (k, p) in self.pushes(i)? {
            self.units[k].at = p;
            events.push(Event::Pushed { unit: k, to: p });
        }
        let u = &self.units[i];
        events.push(Event::Moved {
            unit: i,
            from,
            to: u.at,
            facing: u.facing,
            length,
            into: u.inside,
        });
        if let Some(v) = u.aboard {
            events.push(Event::Boarded {
                unit: i,
                vehicle: usize::from(v),
            });
        }
        if !legs.is_empty() {
            self.unset_tripod(i, events);
        }
        // Infantry picks the diskette up as its path touches it (R147).
        let mut path = vec![from];
        path.extend(legs.steps().iter().filter_map(|s| match s {
            Step::At(p) => Some(p.pt()),
            _ => None,
        }));
        path.push(self.units[i].at);
        self.pick_diskette(i, &path, events);
        Ok(())
    }

    fn unset_tripod(&mut self, i: usize, events: &mut Vec<Event>) {
        if self.units[i].tripod_set() {
            self.units[i].back = false;
            events.push(Event::Flipped {
                unit: i,
                back: false,
                why: "moves: its tripod is unset (R136)",
            });
        }
    }

    pub(crate) fn drop_shield(&mut self, i: usize, events: &mut Vec<Event>) {
        if self.units[i].alive && self.units[i].shield_up() {
            self.units[i].back = false;
            events.push(Event::Flipped {
                unit: i,
                back: false,
                why: "has fought: its shield drops (R135)",
            });
        }
    }
}
