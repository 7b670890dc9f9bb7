//! Deployment before the first turn (R138, R146): units a scenario leaves
//! off the table are set on it one at a time, the sides alternating from
//! a coin's side, each touching its own long edge (the first seat's the
//! near edge, y = 0; the second seat's the far one); units with
//! Infiltration last, in a free space of a standing building (or at the
//! edge like the others, where no space is free). A side with no unit
//! left to deploy in the stage leaves the rest to the other. Then turn 1
//! begins with its Preparation.

use rand::Rng;

use crate::building::Place;
use crate::command::{Command, P16, Step, Tag};
use crate::data::{Ability, Base};
use crate::event::{CommandError, Event};
use crate::flow::Phase;
use crate::game::Game;
use crate::geometry::{EPS, Footprint, Pt, gap, overlaps};
use crate::setup::{footprint, on_table};

fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

impl Game {
    /// How far `shape` lies from `side`'s own long edge, in mm: the first
    /// seat's the near edge (y = 0), the second's the far one (R146,
    /// R148).
    pub(crate) fn edge_gap(&self, side: u8, shape: &crate::geometry::Shape) -> f64 {
        let (w, d) = self.setup().table;
        let (w, d) = (i32::from(w), i32::from(d));
        let (y0, y1) = if side == 0 { (-1, 0) } else { (d, d + 1) };
        let edge = Footprint::Polygon(vec![
            Pt::new(0, y0),
            Pt::new(w, y0),
            Pt::new(w, y1),
            Pt::new(0, y1),
        ]);
        gap(shape, &edge.shape())
    }

    /// Whether unit `i` deploys last (R138).
    fn infiltrates(&self, i: usize) -> bool {
        self.units[i].data.has(Ability::Infiltration)
    }

    /// Whether `side` has a unit to deploy and nowhere to put any: then
    /// each may be left off the table (`pass T3`), taking no part.
    pub fn no_room(&self, side: u8) -> bool {
        let units = self.deployable(side);
        !units.is_empty() && units.iter().all(|i| self.listed_deploy(*i).is_none())
    }

    /// The units of `side` that may be deployed now: waiting, and of the
    /// stage (others first, infiltrators once no other waits on either
    /// side).
    pub fn deployable(&self, side: u8) -> Vec<usize> {
        let others_wait =
            (0..self.units.len()).any(|i| self.units[i].waiting && !self.infiltrates(i));
        (0..self.units.len())
            .filter(|i| {
                let u = &self.units[*i];
                u.waiting && u.side == side && self.infiltrates(*i) != others_wait
            })
            .collect()
    }

    /// Where a unit deploys, checked: its place, or why not (R101, R117,
    /// R138, R146).
    pub(crate) fn check_deploy(
        &self,
        side: u8,
        unit: Tag,
        to: Step,
        face: Option<i16>,
    ) -> Result<(usize, Place), CommandError> {
        let Some(i) = self.find(unit) else {
            return refuse(101, format!("no unit is {unit}"));
        };
        let u = &self.units[i];
        if u.side != side {
            return refuse(
                146,
                format!(
                    "{unit} is {}'s",
                    self.setup().sides[usize::from(u.side)].name
                ),
            );
        }
        if !u.waiting {
            return refuse(146, format!("{unit} is on the table already"));
        }
        if !self.deployable(side).contains(&i) {
            return refuse(138, format!("{unit} has Infiltration: it deploys last"));
        }
        if face.is_some() && u.data.base != Base::Oval {
            return refuse(113, format!("{unit} is round: only an oval picks a facing"));
        }
        match to {
            Step::Space(tag, n) => {
                if !self.infiltrates(i) {
                    return refuse(
                        138,
                        format!(
                            "{unit} deploys at its edge: only Infiltration deploys in a building"
                        ),
                    );
                }
                if u.vehicle() {
                    return refuse(117, format!("{unit} is a vehicle: it stands outdoors"));
                }
                let Some(e) = self.element_index(tag) else {
                    return refuse(117, format!("no building element is {tag}"));
                };
                let spaces = self.setup().elements[e].spaces.len();
                if self.ruined(e) || n == 0 || usize::from(n) > spaces {
                    return refuse(117, format!("{tag} has no standing space {n}"));
                }
                let k = n - 1;
                if let Some(o) = self.occupant(e as u8, k, i) {
                    return refuse(117, format!("{tag}.{n} holds {}", self.units[o].tag));
                }
                // At least 3 LNS from every objective (R138).
                let at = self.setup().elements[e].spaces[usize::from(k)];
                let shape = footprint(u.data, at, u.facing).shape();
                let far = 3.0 * f64::from(self.setup().switches.lns_mm);
                for o in &self.setup().objectives {
                    let d = gap(&shape, &Footprint::disc(*o, crate::crates::DISC_MM).shape());
                    if d < far - EPS {
                        return refuse(
                            138,
                            format!(
                                "{tag}.{n} is {d:.1} mm from the objective at {o}: an infiltrator deploys 3 LNS from every objective"
                            ),
                        );
                    }
                }
                Ok((i, Place::In(e as u8, k)))
            }
            Step::At(p) => {
                let at = p.pt();
                let shape = footprint(u.data, at, face.unwrap_or(u.facing)).shape();
                if !on_table(&shape, self.setup().table) {
                    return refuse(101, format!("{unit} at {at} is not wholly on the table"));
                }
                let contact = f64::from(self.setup().switches.contact_mm);
                let edge = if side == 0 { "near" } else { "far" };
                let name = &self.setup().sides[usize::from(side)].name;
                match self.setup().deploy_mm {
                    None if self.edge_gap(side, &shape) > contact + EPS => {
                        return refuse(
                            146,
                            format!(
                                "{unit} at {at} does not touch {name}'s edge, the {edge} long edge"
                            ),
                        );
                    }
                    Some(depth) => {
                        let (_, d) = self.setup().table;
                        let from_edge = if side == 0 { at.y } else { i32::from(d) - at.y };
                        if from_edge + reach(u) > i32::from(depth) {
                            return refuse(
                                146,
                                format!(
                                    "{unit} at {at} is not wholly within {depth} mm of {name}'s edge, the {edge} long edge"
                                ),
                            );
                        }
                    }
                    None => {}
                }
                for (k, e) in self.table.elements.iter().enumerate() {
                    if self.elements[k] > 0 && overlaps(&shape, e) {
                        return refuse(
                            117,
                            format!("{unit} at {at} stands in {}", self.setup().elements[k].name),
                        );
                    }
                }
                for (k, o) in self.units.iter().enumerate() {
                    if k != i
                        && o.alive
                        && o.inside.is_none()
                        && o.aboard.is_none()
                        && overlaps(&shape, &o.shape())
                    {
                        return refuse(101, format!("{unit} at {at} overlaps {}", o.tag));
                    }
                }
                Ok((i, Place::Out(at)))
            }
            _ => refuse(146, "a unit deploys at a point or in a space"),
        }
    }

    /// Deploys a checked unit; the next side to deploy, or turn 1's
    /// Preparation.
    pub(crate) fn deploy(
        &mut self,
        side: u8,
        unit: Tag,
        to: Step,
        face: Option<i16>,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let (i, place) = self.check_deploy(side, unit, to, face)?;
        self.units[i].waiting = false;
        self.units[i].alive = true;
        if let Some(f) = face {
            self.units[i].facing = f;
        }
        self.set_place(i, place);
        events.push(Event::Placed {
            unit: i,
            at: self.units[i].at,
        });
        self.next_deployer(side, events);
        Ok(())
    }

    /// A unit with no room to deploy left off the table: it takes no part
    /// (R146, this project's reading where the edge is full).
    pub(crate) fn withhold(&mut self, side: u8, i: usize, events: &mut Vec<Event>) {
        self.units[i].waiting = false;
        events.push(Event::Withheld { unit: i });
        self.next_deployer(side, events);
    }

    /// After `side` deployed: the other side if it has a unit to deploy,
    /// else the same, else turn 1 (R146).
    fn next_deployer(&mut self, side: u8, events: &mut Vec<Event>) {
        let other = 1 - side;
        self.flow.phase = if !self.deployable(other).is_empty() {
            Phase::Deploy(other)
        } else if !self.deployable(side).is_empty() {
            Phase::Deploy(side)
        } else {
            events.push(Event::TurnBegan { turn: 1 });
            Phase::Prepare(0)
        };
    }

    /// A spot where unit `i` deploys at its edge, `x` across (its centre),
    /// touching the edge: `None` where that is taken.
    pub fn edge_spot(&self, i: usize, x: i32) -> Option<Command> {
        let u = &self.units[i];
        let (_, d) = self.setup().table;
        let half = match u.data.base {
            Base::Oval => (i32::from(u.data.base.size_mm().1) + 1) / 2,
            _ => (i32::from(u.data.base.size_mm().0) + 1) / 2,
        };
        let y = if u.side == 0 {
            half
        } else {
            i32::from(d) - half
        };
        let face = (u.data.base == Base::Oval).then_some(0);
        let to = Step::At(P16::of(Pt::new(x, y))?);
        self.check_deploy(u.side, u.tag, to, face)
            .ok()
            .map(|_| Command::Deploy {
                unit: u.tag,
                to,
                face,
            })
    }

    /// The listed deployment of unit `i`: the first spot along its edge
    /// from the left, 5 mm at a time; else the first free space, for an
    /// infiltrator.
    pub fn listed_deploy(&self, i: usize) -> Option<Command> {
        let (w, _) = self.setup().table;
        (0..i32::from(w))
            .step_by(5)
            .find_map(|x| self.edge_spot(i, x))
            .or_else(|| self.free_space_deploy(i, 0))
    }

    /// An infiltrator's deployment in the `skip`-th free space.
    fn free_space_deploy(&self, i: usize, skip: usize) -> Option<Command> {
        let u = &self.units[i];
        let mut spaces = Vec::new();
        for e in 0..self.setup().elements.len() {
            for k in 0..self.setup().elements[e].spaces.len() {
                let to = Step::Space(self.element_tag(e), k as u8 + 1);
                if self.check_deploy(u.side, u.tag, to, None).is_ok() {
                    spaces.push(to);
                }
            }
        }
        let to = *spaces.get(skip % spaces.len().max(1))?;
        Some(Command::Deploy {
            unit: u.tag,
            to,
            face: None,
        })
    }

    /// A deployment of unit `i` drawn: a spot along its edge (within a
    /// scenario's zone, anywhere in it), or for an infiltrator one time
    /// in two a free space.
    pub fn random_deploy<R: Rng + ?Sized>(&self, i: usize, rng: &mut R) -> Option<Command> {
        let (w, d) = self.setup().table;
        if let Some(depth) = self.setup().deploy_mm {
            let u = &self.units[i];
            let r = reach(u);
            let span = (i32::from(depth) - 2 * r).max(0);
            for _ in 0..24 {
                let x = rng.random_range(0..i32::from(w));
                let off = r + rng.random_range(0..=span);
                let y = if u.side == 0 { off } else { i32::from(d) - off };
                let face = (u.data.base == Base::Oval).then_some(0);
                let to = Step::At(P16::of(Pt::new(x, y))?);
                if self.check_deploy(u.side, u.tag, to, face).is_ok() {
                    return Some(Command::Deploy {
                        unit: u.tag,
                        to,
                        face,
                    });
                }
            }
        }
        if self.infiltrates(i)
            && rng.random_bool(0.5)
            && let Some(c) = self.free_space_deploy(i, rng.random_range(0..64))
        {
            return Some(c);
        }
        for _ in 0..24 {
            if let Some(c) = self.edge_spot(i, rng.random_range(0..i32::from(w))) {
                return Some(c);
            }
        }
        self.listed_deploy(i)
    }

    /// The deployment nearest a wanted point: along the edge, its x
    /// clamped and then stepped outward to the first free spot.
    pub fn nearest_deploy(&self, i: usize, wanted: Pt) -> Option<Command> {
        let (w, _) = self.setup().table;
        (0..i32::from(w)).find_map(|d| {
            self.edge_spot(i, wanted.x - d)
                .or_else(|| self.edge_spot(i, wanted.x + d))
        })
    }
}

/// How far a unit's footprint reaches from its centre, at most (R101).
fn reach(u: &crate::unit::Unit) -> i32 {
    let (l, w) = u.data.base.size_mm();
    (i32::from(l.max(w)) + 1) / 2
}
