//! Inside buildings (R117-R119), the rules: a path through doors and
//! spaces, the lines of sight through openings, contact indoors, and an
//! element's fall to a ruin. The places and ways they work with are
//! [`crate::building`]'s.

use crate::building::{Place, Way, opening_shape};
use crate::command::{Legs, Step, Tag};
use crate::data::Base;
use crate::event::{CommandError, Event, refuse};
use crate::game::Game;
use crate::geometry::{EPS, Pt, V, gap, overlaps, round_mm};
use crate::moves::{Mover, check_path};
use crate::setup::{OpeningKind, footprint, on_table};

impl Game {
    /// The element whose short id is `tag`.
    pub fn element_index(&self, tag: Tag) -> Option<usize> {
        self.table.element_tags.iter().position(|t| *t == tag)
    }

    /// An element's short id.
    pub fn element_tag(&self, e: usize) -> Tag {
        self.table.element_tags[e]
    }

    /// A space's name, as `RH.2`.
    pub fn space_name(&self, e: u8, k: u8) -> String {
        format!("{}.{}", self.element_tag(usize::from(e)), k + 1)
    }

    /// A space's centre.
    pub fn space_at(&self, e: u8, k: u8) -> Pt {
        self.table.setup.elements[usize::from(e)].spaces[usize::from(k)]
    }

    /// The standing unit in a space, but `except`.
    pub fn occupant(&self, e: u8, k: u8, except: usize) -> Option<usize> {
        self.units
            .iter()
            .enumerate()
            .position(|(i, u)| i != except && u.alive && u.inside == Some((e, k)))
    }

    /// Whether element `e` is a ruin (R119).
    pub fn ruined(&self, e: usize) -> bool {
        self.elements[e] == 0
    }

    /// Whether units pass element `e`'s opening `o`: a door, or a breach,
    /// an opening on the outline of a ruin it shared it with (R119).
    pub fn passable(&self, e: usize, o: usize) -> bool {
        let op = &self.table.setup.elements[e].openings[o];
        op.kind == OpeningKind::Door || self.shared_with_ruin(e, op.a, op.b)
    }

    fn shared_with_ruin(&self, e: usize, a: Pt, b: Pt) -> bool {
        self.table
            .setup
            .elements
            .iter()
            .enumerate()
            .any(|(k, other)| {
                k != e
                    && self.ruined(k)
                    && other
                        .openings
                        .iter()
                        .any(|o| (o.a == a && o.b == b) || (o.a == b && o.b == a))
            })
    }

    /// Whether spaces `j` and `k` of element `e` are linked.
    pub(crate) fn linked(&self, e: usize, j: u8, k: u8) -> bool {
        self.table.setup.elements[e]
            .links
            .iter()
            .any(|l| *l == (j, k) || *l == (k, j))
    }

    /// The passable openings of element `e` with space `k` behind them.
    pub fn doors_of(&self, e: usize, k: u8) -> Vec<usize> {
        self.table.setup.elements[e]
            .openings
            .iter()
            .enumerate()
            .filter(|(o, op)| op.behind.contains(&k) && self.passable(e, *o))
            .map(|(o, _)| o)
            .collect()
    }

    /// Whether a base of unit `i` centred at `p` touches opening `o` of
    /// element `e` (within contact, R102).
    fn touches_opening(&self, i: usize, p: Pt, e: usize, o: usize) -> bool {
        let op = &self.table.setup.elements[e].openings[o];
        let u = &self.units[i];
        let base = footprint(u.data, p, u.facing).shape();
        gap(&base, &opening_shape(op.a, op.b))
            <= f64::from(self.table.setup.switches.contact_mm) + EPS
    }

    /// Checks a path of unit `i` that enters, crosses or leaves a
    /// building (R117): its length in mm and where it ends.
    pub(crate) fn check_building_path(
        &self,
        i: usize,
        legs: &Legs,
    ) -> Result<(f64, Place), CommandError> {
        let u = &self.units[i];
        if u.vehicle() || u.data.base != Base::Round {
            return refuse(
                117,
                format!(
                    "{} is a vehicle: only circular units that are not vehicles enter buildings",
                    u.tag
                ),
            );
        }
        let lns = f64::from(self.table.setup.switches.lns_mm);
        let budget = f64::from(u.movement()) * lns;
        let mut place = match u.inside {
            Some((e, k)) => Place::In(e, k),
            None => Place::Out(u.at),
        };
        let mut run_start = u.at;
        let mut run: Vec<Pt> = Vec::new();
        let mut outdoors = 0.0;
        let mut spaces = 0u32;
        for step in legs.steps() {
            match (place, *step) {
                (Place::Out(_), Step::At(q)) => {
                    run.push(q.pt());
                    place = Place::Out(q.pt());
                }
                (Place::Out(p), Step::Space(tag, n)) => {
                    outdoors += self.outdoor_run_from(i, run_start, &run)?;
                    run.clear();
                    let (e, k) = self.space_of(tag, n)?;
                    let door = self
                        .doors_of(e, k)
                        .into_iter()
                        .find(|o| self.touches_opening(i, p, e, *o));
                    if door.is_none() {
                        return refuse(
                            117,
                            format!(
                                "{} at {p} touches no door of {} with {} behind it",
                                u.tag,
                                self.element_tag(e),
                                self.space_name(e as u8, k)
                            ),
                        );
                    }
                    self.free(i, e as u8, k)?;
                    spaces += 1;
                    place = Place::In(e as u8, k);
                }
                (Place::In(e, j), Step::Space(tag, n)) => {
                    let (e2, k) = self.space_of(tag, n)?;
                    let e = usize::from(e);
                    let through = if e2 == e {
                        self.linked(e, j, k)
                    } else {
                        self.shared_door(e, j, e2, k)
                    };
                    if !through {
                        return refuse(
                            117,
                            format!(
                                "{} and {} are not linked",
                                self.space_name(e as u8, j),
                                self.space_name(e2 as u8, k)
                            ),
                        );
                    }
                    self.free(i, e2 as u8, k)?;
                    spaces += 1;
                    place = Place::In(e2 as u8, k);
                }
                (_, Step::Drop(..)) => {
                    return refuse(140, "a transport sets its passengers down outdoors");
                }
                (_, Step::Board(_)) | (Place::Aboard(_), _) => {
                    return refuse(140, "a path boards a transport from outdoors, at its end");
                }
                (Place::In(e, j), Step::At(q)) => {
                    let q = q.pt();
                    let e = usize::from(e);
                    let out = self
                        .doors_of(e, j)
                        .into_iter()
                        .any(|o| self.touches_opening(i, q, e, o));
                    if !out {
                        return refuse(
                            117,
                            format!(
                                "{} leaving {} ends at {q}, touching no door behind which it stands",
                                u.tag,
                                self.space_name(e as u8, j)
                            ),
                        );
                    }
                    self.stands_free_at(i, q)?;
                    run_start = q;
                    place = Place::Out(q);
                }
            }
        }
        if let Place::Out(_) = place {
            outdoors += self.outdoor_run_from(i, run_start, &run)?;
        }
        let length = outdoors + f64::from(spaces) * lns;
        if length > budget + EPS {
            return refuse(
                113,
                format!(
                    "the path is {length:.1} mm ({outdoors:.1} mm outdoors and {spaces} space{} of a LNS), over the {budget:.0} mm the unit moves",
                    if spaces == 1 { "" } else { "s" }
                ),
            );
        }
        Ok((length, place))
    }

    /// The element and space (from 0) a step names.
    fn space_of(&self, tag: Tag, n: u8) -> Result<(usize, u8), CommandError> {
        let Some(e) = self.element_index(tag) else {
            return refuse(117, format!("no building element is {tag}"));
        };
        if self.ruined(e) {
            return refuse(
                119,
                format!("{tag} is a ruin: a light structure, no longer entered by its spaces"),
            );
        }
        let count = self.table.setup.elements[e].spaces.len();
        if n == 0 || usize::from(n) > count {
            return refuse(
                117,
                format!(
                    "{tag} has {count} space{}",
                    if count == 1 { "" } else { "s" }
                ),
            );
        }
        Ok((e, n - 1))
    }

    /// Refuses a space another unit holds (R117).
    fn free(&self, i: usize, e: u8, k: u8) -> Result<(), CommandError> {
        match self.occupant(e, k, i) {
            Some(o) => refuse(
                117,
                format!(
                    "{} is occupied by {}: occupied spaces are never passed",
                    self.space_name(e, k),
                    self.units[o].tag
                ),
            ),
            None => Ok(()),
        }
    }

    /// Whether spaces `j` of `e` and `k` of `e2` lie behind one door of
    /// both, passable from each side.
    fn shared_door(&self, e: usize, j: u8, e2: usize, k: u8) -> bool {
        let els = &self.table.setup.elements;
        self.doors_of(e, j).into_iter().any(|o| {
            let (a, b) = (els[e].openings[o].a, els[e].openings[o].b);
            self.doors_of(e2, k).into_iter().any(|o2| {
                let op = &els[e2].openings[o2];
                (op.a == a && op.b == b) || (op.a == b && op.b == a)
            })
        })
    }

    /// Refuses a unit set down at `q` outdoors on a building, a unit or
    /// off the table (R101, R114).
    pub(crate) fn stands_free_at(&self, i: usize, q: Pt) -> Result<(), CommandError> {
        let u = &self.units[i];
        let base = footprint(u.data, q, u.facing).shape();
        if !on_table(&base, self.table.setup.table) {
            return refuse(101, format!("the move ends off the table at {q}"));
        }
        for (k, e) in self.table.elements.iter().enumerate() {
            if !self.ruined(k) && overlaps(&base, e) {
                return refuse(
                    114,
                    format!(
                        "{} at {q} stands on the building element {}",
                        u.tag, self.table.setup.elements[k].name
                    ),
                );
            }
        }
        for (k, o) in self.units.iter().enumerate() {
            if k != i
                && o.alive
                && o.inside.is_none()
                && o.aboard.is_none()
                && overlaps(&base, &o.shape())
            {
                return refuse(114, format!("the move ends on {}", o.tag));
            }
        }
        Ok(())
    }

    /// The length of an outdoor run of legs from `start`, checked as any
    /// move's (R113-R116), its budget counted by the caller.
    pub(crate) fn outdoor_run_from(
        &self,
        i: usize,
        start: Pt,
        legs: &[Pt],
    ) -> Result<f64, CommandError> {
        if legs.is_empty() {
            return Ok(0.0);
        }
        let u = &self.units[i];
        let (things, names) = self.obstacles_for_move(i, start, legs);
        let mover = Mover {
            at: footprint(u.data, start, u.facing),
            movement: u8::MAX,
            vehicle: false,
            flight: u.data.has(crate::data::Ability::Flight),
        };
        check_path(
            &mover,
            legs,
            None,
            &things,
            self.table.setup.switches.lns_mm,
            self.table.setup.table,
        )
        .map_err(|e| crate::event::from_path(e, &|k| self.obstacle_name(names[k])))
    }

    /// Whether units `a` and `b` are in contact (R102): within contact
    /// outdoors, in linked spaces of one element indoors.
    pub fn touching(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        match (ua.inside, ub.inside) {
            (None, None) => {
                gap(&ua.shape(), &ub.shape())
                    <= f64::from(self.table.setup.switches.contact_mm) + EPS
            }
            (Some((e, j)), Some((e2, k))) => e == e2 && self.linked(usize::from(e), j, k),
            _ => false,
        }
    }

    /// The ways a line may run from unit `s` to unit `t` when either
    /// stands in a building (R118): from where, to what shape, and the
    /// building's modifier; empty where none may.
    pub(crate) fn building_lines(&self, s: usize, t: usize) -> Vec<Way> {
        let (us, ut) = (&self.units[s], &self.units[t]);
        let els = &self.table.setup.elements;
        match (us.inside, ut.inside) {
            (None, Some((e, k))) => {
                let e = usize::from(e);
                // Touching an opening outside: any unit of the element, no
                // modifier.
                let touching =
                    (0..els[e].openings.len()).any(|o| self.touches_opening(s, us.at, e, o));
                if touching {
                    return vec![Way::Clear];
                }
                els[e]
                    .openings
                    .iter()
                    .filter(|op| op.behind.contains(&k))
                    .map(|op| Way::Through {
                        from: us.at,
                        to: opening_shape(op.a, op.b),
                        modifier: -2,
                    })
                    .collect()
            }
            (Some((e, j)), None) => els[usize::from(e)]
                .openings
                .iter()
                .filter(|op| op.behind.contains(&j))
                .map(|op| {
                    let mid = round_mm(V::new(
                        f64::from(op.a.x + op.b.x) / 2.0,
                        f64::from(op.a.y + op.b.y) / 2.0,
                    ));
                    Way::Through {
                        from: mid,
                        to: ut.shape(),
                        modifier: 0,
                    }
                })
                .collect(),
            (Some((e, _)), Some((e2, _))) if e == e2 => vec![Way::Clear],
            _ => Vec::new(),
        }
    }

    /// Element `k` falls to a ruin (R119): units inside stand outdoors
    /// where they were, each infantry attacked at +0; the elements tied
    /// to it by an X fall too; its shared openings are breaches now.
    pub(crate) fn ruin(&mut self, k: usize, events: &mut Vec<Event>) -> Result<(), CommandError> {
        self.elements[k] = 0;
        events.push(Event::Ruined { element: k });
        let inside: Vec<usize> = (0..self.units.len())
            .filter(|t| {
                self.units[*t].alive
                    && self.units[*t]
                        .inside
                        .is_some_and(|(e, _)| usize::from(e) == k)
            })
            .collect();
        for t in inside {
            self.units[t].inside = None;
            events.push(Event::Outdoors { unit: t });
            if !self.units[t].vehicle() {
                self.attack_at(t, 0, 0, events)?;
            }
        }
        let tied: Vec<usize> = (0..self.elements.len())
            .filter(|o| {
                !self.ruined(*o)
                    && self.table.setup.elements[*o]
                        .falls_with
                        .iter()
                        .any(|f| usize::from(*f) == k)
            })
            .collect();
        for o in tied {
            if !self.ruined(o) {
                self.ruin(o, events)?;
            }
        }
        Ok(())
    }
}
