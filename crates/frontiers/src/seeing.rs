//! Sight on the table (R118, R120, R121, R131): what may stand in a line
//! from a shooter to its target (buildings, units, light structures and
//! clouds, filed by where they lie), the ways a line runs through a
//! building's openings, and whether a unit sees a point. The lines
//! themselves are [`crate::sight`]'s.

use crate::building::Way;
use crate::data::Ability;
use crate::game::{Crossed, GRAZE_MM, Game};
use crate::geometry::{Footprint, Pt, Shape, V, blocks_segment, in_contact};
use crate::setup::{TerrainKind, point_in};
use crate::smoke::CLOUD_MM;
use crate::unit::Unit;

impl Game {
    /// The obstacles to a line from unit `from` to unit `to` and what each
    /// costs (R120, R122, R131): blocking ones, and crossed ones with the
    /// penalty of each and whether it is a light structure; in a fixed
    /// order (elements, units, terrain, clouds). Only those that may come
    /// near one of the lines of `near` are given (each a segment and how
    /// far from it an obstacle's bounding disc may reach, as
    /// [`crate::sight`] asks): the table's index for the fixed shapes, a
    /// unit's or cloud's own reach for the rest. What is left out is what
    /// no such line could meet, so the rules decide the same.
    pub(crate) fn sight_obstacles(
        &self,
        from: usize,
        to: usize,
        sniper: bool,
        near: &[(V, V, f64)],
    ) -> Vec<(std::borrow::Cow<'_, Shape>, Crossed)> {
        use std::borrow::Cow;
        let s = &self.units[from];
        let t = &self.units[to];
        let sw = self.table.setup.switches;
        let mut out = Vec::new();
        let shooter_shape = s.shape();
        // A light structure the shooter touches costs nothing (R122): a
        // wall, a ruin or a carcass alike.
        let touched = |shape: &Shape| in_contact(&shooter_shape, shape, f64::from(sw.contact_mm));
        // A flier over an element stands on its roof, outdoors (R116).
        let on_roof =
            |u: &Unit, corners: &[Pt]| u.data.has(Ability::Flight) && point_in(u.at, corners);
        let mut fixed = Vec::new();
        for (p, q, reach) in near {
            self.table.index.near_segment(*p, *q, *reach, &mut fixed);
        }
        crate::index::Grid::finish(&mut fixed);
        let elements = self.table.elements.len() as u32;
        for &n in fixed.iter().take_while(|n| **n < elements) {
            let k = n as usize;
            let shape = &self.table.elements[k];
            let corners = &self.table.setup.elements[k].corners;
            if self.elements[k] == 0 {
                if !touched(shape) {
                    out.push((Cow::Borrowed(shape), Crossed::Light));
                }
            } else if !on_roof(s, corners) && !on_roof(t, corners) {
                out.push((Cow::Borrowed(shape), Crossed::Block));
            }
        }
        for (i, u) in self.units.iter().enumerate() {
            if i == from || i == to {
                continue;
            }
            let blocks = u.alive && !sniper && u.inside.is_none() && u.aboard.is_none();
            if !blocks && !u.carcass {
                continue;
            }
            if !self.meets_corridor(u, near) {
                continue;
            }
            if blocks {
                out.push((Cow::Owned(u.shape()), Crossed::Block));
            } else {
                let shape = u.shape();
                if !touched(&shape) {
                    out.push((Cow::Owned(shape), Crossed::Light));
                }
            }
        }
        for &n in fixed.iter().skip_while(|n| **n < elements) {
            let k = (n - elements) as usize;
            let tp = &self.table.setup.terrain[k];
            let shape = &self.table.terrain[k];
            match tp.kind {
                TerrainKind::Vegetation | TerrainKind::Hill => {
                    let in_it = point_in(s.at, &tp.corners) || point_in(t.at, &tp.corners);
                    if !in_it {
                        out.push((Cow::Borrowed(shape), Crossed::Block));
                    }
                }
                TerrainKind::LightStructure => {
                    if !touched(shape) {
                        out.push((Cow::Borrowed(shape), Crossed::Light));
                    }
                }
                TerrainKind::Crater => {}
            }
        }
        for c in &self.clouds {
            if c.owner != u16::from(s.side)
                && let Some(p) = c.penalty(self.turn)
                && may_meet(near, c.at.v(), f64::from(CLOUD_MM) / 2.0)
            {
                out.push((
                    Cow::Owned(Footprint::disc(c.at, CLOUD_MM).shape()),
                    Crossed::Smoke(p),
                ));
            }
        }
        out
    }

    /// The ways a line from unit `from` to unit `to` may run (R118):
    /// straight at the target outdoors; through an opening when either
    /// stands in a building.
    pub(crate) fn sight_ways(&self, from: usize, to: usize) -> Vec<Way> {
        let (s, t) = (&self.units[from], &self.units[to]);
        if s.inside.is_none() && t.inside.is_none() {
            vec![Way::Through {
                from: s.at,
                to: t.shape(),
                modifier: 0,
            }]
        } else {
            self.building_lines(from, to)
        }
    }

    /// Where the lines of `ways` from unit `from` to unit `to` may meet
    /// something: near the segment from where each way starts to its
    /// target's centre, as far as the target reaches and a millimetre (the
    /// sight search's own reach), and near the line from centre to centre
    /// (a clear way's smoke). [`Game::sight_obstacles`] gives what lies
    /// there.
    pub(crate) fn sight_corridors(&self, from: usize, to: usize, ways: &[Way]) -> Vec<(V, V, f64)> {
        let (s, t) = (&self.units[from], &self.units[to]);
        let mut near = vec![(s.at.v(), t.at.v(), GRAZE_MM + 1.0)];
        for way in ways {
            if let Way::Through {
                from: p, to: shape, ..
            } = way
            {
                let (centre, half) = crate::sight::centre_and_half(shape);
                near.push((p.v(), centre, half + 1.0));
            }
        }
        near
    }

    /// Hashes into `h` all that unit `from`'s lines of sight to unit `to`
    /// depend on beyond the two units themselves and the table: every
    /// other unit and enemy cloud that may come near them ([`Game::aim`]'s
    /// own corridors and filter), by index with where and how it stands,
    /// the elements' steps and the turn's smoke. Two positions that hash
    /// alike here, with the same shooter and target, aim alike: a bot may
    /// keep a shot's plan by it, and work out again only what a move
    /// changed.
    pub fn sight_key<H: std::hash::Hasher>(&self, from: usize, to: usize, h: &mut H) {
        use std::hash::Hash;
        let ways = self.sight_ways(from, to);
        let near = self.sight_corridors(from, to, &ways);
        for (i, u) in self.units.iter().enumerate() {
            if i != from && i != to && (u.alive || u.carcass) && self.meets_corridor(u, &near) {
                (
                    i,
                    u.at,
                    u.facing,
                    u.alive,
                    u.carcass,
                    u.inside,
                    u.aboard,
                    u.back,
                    u.transformed,
                )
                    .hash(h);
            }
        }
        u32::MAX.hash(h);
        for c in &self.clouds {
            if may_meet(&near, c.at.v(), f64::from(CLOUD_MM) / 2.0) {
                (c.at, c.owner, c.penalty(self.turn)).hash(h);
            }
        }
        self.elements.hash(h);
    }

    /// Whether unit `u` may come near one of the lines of `near` (see
    /// [`may_meet`]).
    fn meets_corridor(&self, u: &Unit, near: &[(V, V, f64)]) -> bool {
        let (l, w) = u.data.base.size_mm();
        may_meet(near, u.at.v(), f64::from(l.max(w)) / 2.0)
    }

    /// Whether unit `i`'s centre sees the point `p` (R120): no building,
    /// other unit, or vegetation or hill it does not stand in across.
    pub(crate) fn point_seen(&self, i: usize, p: Pt) -> bool {
        let s = &self.units[i];
        let (a, b) = (s.at.v(), p.v());
        let blocked = |shape: &Shape| blocks_segment(shape, a, b, GRAZE_MM);
        let flier = s.data.has(Ability::Flight);
        // The fixed shapes near the line (the table's index): what blocks
        // it lies across it.
        let mut near = Vec::new();
        self.table.index.near_segment(a, b, GRAZE_MM, &mut near);
        crate::index::Grid::finish(&mut near);
        let elements = self.table.elements.len() as u32;
        if near.iter().take_while(|n| **n < elements).any(|n| {
            let k = *n as usize;
            self.elements[k] > 0
                && !(flier && point_in(s.at, &self.table.setup.elements[k].corners))
                && blocked(&self.table.elements[k])
        }) {
            return false;
        }
        if self
            .units
            .iter()
            .enumerate()
            .any(|(k, u)| k != i && u.alive && u.aboard.is_none() && blocked(&u.shape()))
        {
            return false;
        }
        !near.iter().skip_while(|n| **n < elements).any(|n| {
            let k = (n - elements) as usize;
            let t = &self.table.setup.terrain[k];
            matches!(t.kind, TerrainKind::Vegetation | TerrainKind::Hill)
                && !point_in(s.at, &t.corners)
                && !point_in(p, &t.corners)
                && blocked(&self.table.terrain[k])
        })
    }
}

/// Whether a shape reaching at most `r` from `c` may come near one of the
/// lines of `near` (each a segment and how far from it a bounding disc may
/// reach, as [`crate::sight`] asks): its bounding disc (about its first
/// core point, at most 2r across, within r of c) within that reach.
fn may_meet(near: &[(V, V, f64)], c: V, r: f64) -> bool {
    near.iter().any(|(p, q, reach)| {
        let d = 3.0 * r + reach + 1.0;
        // Beyond the segment's box grown by the reach: farther than that
        // from it, decided without a square root.
        let out = c.x < p.x.min(q.x) - d
            || c.x > p.x.max(q.x) + d
            || c.y < p.y.min(q.y) - d
            || c.y > p.y.max(q.y) + d;
        !out && crate::geometry::point_segment(c, *p, *q) <= d
    })
}
