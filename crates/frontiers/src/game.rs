//! The skirmish's state and its rules: what a command may do, and what it
//! does, in space (R113-R131, R134-R136, R142).
//!
//! The turn around them (Preparation, sealed orders, steps, the Reserve,
//! R105-R112) is [`crate::turn`]'s: it decides whose action it is and
//! calls [`Game::act`] to resolve it.

use std::sync::Arc;

use sandtable_core::dice::Dice;
use sandtable_core::game::{Ending, Seat};
use sandtable_core::setup::SetupError;

use crate::attack::{Outcome, attack, sniper};
use crate::building::{Place, Way};
use crate::command::{Command, Legs, P16, Part, Special, Step, Tag};
use crate::data::{Ability, Back, Location, Missile, UnitData, location, unit_data};
use crate::event::{CommandError, Event, PendingDrop, Struck, from_path, refuse};
use crate::geometry::{
    EPS, Footprint, Pt, Shape, V, blocks_segment, gap, in_contact, overlaps, round_mm,
};
use crate::moves::{Kind, Mover, check_path};
use crate::setup::{
    DropRule, LightStacking, PenaltySymbol, Setup, TerrainKind, default_ids, footprint, on_table,
    point_in,
};
use crate::sight::{Arc as SightArc, Obstacle, sight_lines_in};
use crate::smoke::{CLOUD_MM, CLOUDS_EACH, Cloud, SmokeStacking};
use crate::templates::{LARGE_MM, SMALL_MM, drop_landing, template_hits};
use crate::unit::Unit;

/// The steps left of a standing element with an X, which takes no steps
/// and falls only with the element it is tied to (R119).
pub const X_STANDING: u8 = u8::MAX;

/// Grazing within this many mm does not block a line (R120).
pub const GRAZE_MM: f64 = 0.5;
/// A grenade reaches this many LNS (R127).
pub const GRENADE_LNS: u32 = 3;
/// A grenade's bonus at every type (the seed's Grenades).
pub const GRENADE_BONUS: i8 = 2;

/// What never changes in a game: the setup and its shapes.
#[derive(Debug, Clone)]
pub struct Table {
    /// The setup.
    pub setup: Setup,
    /// Each terrain piece's shape.
    pub terrain: Vec<Shape>,
    /// Each element's shape.
    pub elements: Vec<Shape>,
    /// Each element's short id.
    pub element_tags: Vec<Tag>,
    /// The elements' and terrain pieces' shapes filed by where they lie:
    /// element k as number k, terrain piece k after the elements.
    pub index: crate::index::Grid,
}

/// A shot's line and modifiers, worked out before it is fired.
#[derive(Debug, Clone, PartialEq)]
pub struct Aim {
    /// Where the line starts: the shooter's centre, or the midpoint of
    /// the opening it shoots out of (R118).
    pub from: Pt,
    /// The line's end on the target.
    pub to: V,
    /// Each modifier and its reason (R122, R131).
    pub modifiers: Vec<(String, i8)>,
    /// A sniper's penalties (R142).
    pub sniper_penalties: u8,
}

impl Aim {
    /// The modifiers' sum.
    pub fn total(&self) -> i8 {
        self.modifiers.iter().map(|m| m.1).sum()
    }
}

/// What a medic or a mechanic does for its patient (R139).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Care {
    /// A step of this turn undone.
    Undo(usize),
    /// A marker taken off a vehicle.
    Mark(usize, Location),
    /// A unit destroyed returned.
    Return(usize),
}

/// How a Shoot resolves (R120-R129, R142).
#[derive(Debug, Clone, PartialEq)]
pub enum Shot {
    /// An attack roll at the target.
    Direct(Aim),
    /// A sniper's roll (R142).
    Sniper(Aim),
    /// A template on the target's centre: a blue missile (small) or
    /// indirect fire with sight (large) (R126, R128).
    Template {
        /// Its diameter.
        diameter: u16,
    },
    /// Indirect fire without sight: a drop aimed at the target's centre
    /// (R129).
    Drop,
}

/// A skirmish under way.
#[derive(Debug, Clone)]
pub struct Game {
    pub(crate) table: Arc<Table>,
    pub(crate) units: Vec<Unit>,
    /// Each element's steps left; 0 is a ruin (R119).
    pub(crate) elements: Vec<u8>,
    pub(crate) clouds: Vec<Cloud>,
    pub(crate) turn: u32,
    /// Where the turn stands (R105-R112).
    pub(crate) flow: crate::flow::Flow,
    /// The equipment crates (R143).
    pub(crate) crates: Vec<crate::crates::Crate>,
    /// Crates each side banked (R148).
    pub(crate) banked: [u8; 2],
    /// Data recovery's diskette: where it lies, or the unit carrying it
    /// (R147).
    pub(crate) diskette: Option<crate::crates::Diskette>,
    /// While two shots resolve together, the outcomes their attacks
    /// rolled, landed after both (R111).
    pub(crate) deferred: Option<Vec<(usize, Outcome)>>,
    pub(crate) pending: Option<PendingDrop>,
    /// Transports whose C location was hit with several units aboard:
    /// their owner picks which takes the step (R125).
    pub(crate) picks: Vec<usize>,
    /// AP each side destroyed of the other's (R145).
    pub(crate) ap: [u16; 2],
    pub(crate) over: Option<Ending>,
    pub(crate) dice: Dice,
}

impl PartialEq for Game {
    fn eq(&self, o: &Game) -> bool {
        self.table.setup == o.table.setup
            && self.units == o.units
            && self.elements == o.elements
            && self.clouds == o.clouds
            && self.turn == o.turn
            && self.flow == o.flow
            && self.crates == o.crates
            && self.banked == o.banked
            && self.diskette == o.diskette
            && self.deferred == o.deferred
            && self.pending == o.pending
            && self.picks == o.picks
            && self.ap == o.ap
            && self.over == o.over
            && self.dice == o.dice
    }
}

fn dir(deg: f64) -> V {
    let r = deg.to_radians();
    V::new(r.cos(), r.sin())
}

impl Game {
    /// A game of a setup, checked (R100-R103), with its dice (R30).
    pub fn new(setup: &Setup, dice: Dice) -> Result<Game, SetupError> {
        setup.check()?;
        let ids = default_ids(&setup.units);
        let units = setup
            .units
            .iter()
            .zip(&ids)
            .map(|(u, id)| Unit {
                tag: Tag::new(id).expect("checked ids"),
                data: unit_data(&u.data).expect("checked data"),
                side: u.side,
                at: u.at,
                facing: u.facing,
                back: u.back,
                alive: !u.deploy,
                carcass: false,
                acted: false,
                hits: 0,
                inside: None,
                hurt: 0,
                fell: None,
                aboard: None,
                boost: 0,
                waiting: u.deploy,
                gear: None,
                handed: false,
                readied: 0,
                transformed: false,
            })
            .collect();
        let terrain: Vec<Shape> = setup
            .terrain
            .iter()
            .map(|t| Footprint::Polygon(t.corners.clone()).shape())
            .collect();
        let elements: Vec<Shape> = setup
            .elements
            .iter()
            .map(|e| Footprint::Polygon(e.corners.clone()).shape())
            .collect();
        let shapes: Vec<&Shape> = elements.iter().chain(&terrain).collect();
        let index = crate::index::Grid::new(setup.table, &shapes);
        let table = Table {
            index,
            terrain,
            elements,
            element_tags: (0..setup.elements.len())
                .map(|k| {
                    Tag::new(&crate::setup::element_id(&setup.elements, k)).expect("checked ids")
                })
                .collect(),
            setup: setup.clone(),
        };
        let mut game = Game {
            // An element with an X has no steps: it stands until the
            // element it is tied to falls (R119).
            elements: setup
                .elements
                .iter()
                .map(|e| if e.steps == 0 { X_STANDING } else { e.steps })
                .collect(),
            table: Arc::new(table),
            units,
            clouds: Vec::new(),
            turn: 1,
            flow: crate::flow::Flow::new(),
            crates: setup
                .crates
                .iter()
                .map(|at| crate::crates::Crate {
                    at: *at,
                    content: None,
                    state: crate::crates::CrateState::Lying,
                    secret_of: None,
                })
                // Crates allotted before the game, their contents known
                // to their side alone (R143, Cameron).
                .chain(setup.units.iter().enumerate().filter_map(|(i, u)| {
                    Some(crate::crates::Crate {
                        at: u.at,
                        content: Some(u.gear?),
                        state: crate::crates::CrateState::Carried(i as u8),
                        secret_of: Some(u.side),
                    })
                }))
                .collect(),
            banked: [0; 2],
            diskette: setup
                .diskette
                .map(|at| crate::crates::Diskette { at, carrier: None }),
            deferred: None,
            pending: None,
            picks: Vec::new(),
            ap: [0; 2],
            over: None,
            dice,
        };
        for k in 0..game.crates.len() {
            if let (crate::crates::CrateState::Carried(i), Some(c)) =
                (game.crates[k].state, game.crates[k].content)
            {
                game.units[usize::from(i)].gear = Some((k as u8, c));
            }
        }
        // Units waiting to be deployed: a coin picks the side that starts
        // (R146).
        if game.units.iter().any(|u| u.waiting) {
            let roll = game.dice.d6().map_err(|out| SetupError {
                problems: vec![sandtable_core::setup::SetupProblem {
                    path: "units".into(),
                    ruling: Some(sandtable_core::game::Ruling(30)),
                    message: format!("the coin that starts the deployment: {}", out.reason()),
                }],
                more: 0,
            })?;
            // A side with none to deploy leaves it all to the other.
            let mut side = u8::from(roll > 3);
            if game.deployable(side).is_empty() {
                side = 1 - side;
            }
            game.flow.phase = crate::flow::Phase::Deploy(side);
        }
        Ok(game)
    }

    /// The setup.
    pub fn setup(&self) -> &Setup {
        &self.table.setup
    }

    /// The units, standing or not, in the setup's order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The clouds thrown, gone ones included (R130).
    pub fn clouds(&self) -> &[Cloud] {
        &self.clouds
    }

    /// Each element's steps left; 0 is a ruin (R119).
    pub fn element_steps(&self) -> &[u8] {
        &self.elements
    }

    /// The game turn.
    pub fn turn_number(&self) -> u32 {
        self.turn
    }

    /// The side owing a pick or a placed drop, which comes before
    /// anything else, if one does.
    pub(crate) fn interrupt(&self) -> Option<u8> {
        if let Some(v) = self.picks.first() {
            return Some(self.units[*v].side);
        }
        self.pending.map(|p| self.units[p.shooter].side)
    }

    /// The transports whose owner owes the pick of a carried unit to take
    /// a step (R125), first first.
    pub fn picks(&self) -> &[usize] {
        &self.picks
    }

    /// A placed drop awaited (R129).
    pub fn pending(&self) -> Option<PendingDrop> {
        self.pending
    }

    /// AP each side destroyed (R145).
    pub fn ap_destroyed(&self) -> [u16; 2] {
        self.ap
    }

    /// How the game ended, if it has.
    pub fn ending(&self) -> Option<Ending> {
        self.over
    }

    /// The unit tagged `tag`, by index.
    pub fn find(&self, tag: Tag) -> Option<usize> {
        self.units.iter().position(|u| u.tag == tag)
    }

    fn lns(&self) -> f64 {
        f64::from(self.table.setup.switches.lns_mm)
    }

    /// The unit `tag` of `side`, standing: the unit of an action.
    fn actor(&self, side: u8, tag: Tag) -> Result<usize, CommandError> {
        let Some(i) = self.find(tag) else {
            return refuse(101, format!("no unit is {tag}"));
        };
        let u = &self.units[i];
        if u.side != side {
            return refuse(
                109,
                format!(
                    "{tag} is {}'s",
                    self.table.setup.sides[usize::from(u.side)].name
                ),
            );
        }
        if !u.alive {
            return refuse(124, format!("{tag} is destroyed"));
        }
        Ok(i)
    }

    /// The enemy `tag` of `side`'s unit, standing.
    fn enemy(&self, side: u8, tag: Tag) -> Result<usize, CommandError> {
        let Some(i) = self.find(tag) else {
            return refuse(101, format!("no unit is {tag}"));
        };
        let u = &self.units[i];
        if u.side == side {
            return refuse(
                129,
                format!("{tag} is a friend: a shot or charge names an enemy"),
            );
        }
        if !u.alive {
            return refuse(124, format!("{tag} is destroyed"));
        }
        Ok(i)
    }

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
    fn standing_in(&self, p: Pt, kind: TerrainKind) -> Option<usize> {
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
    fn sight_ways(&self, from: usize, to: usize) -> Vec<Way> {
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
    fn sight_corridors(&self, from: usize, to: usize, ways: &[Way]) -> Vec<(V, V, f64)> {
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

    /// Checks a medic's or a mechanic's Special (R139): the move first,
    /// then the patient in contact where it ends, and what is done.
    pub(crate) fn check_care(
        &self,
        i: usize,
        patient: Tag,
        location: Option<Option<Location>>,
        legs: &Legs,
        ability: Ability,
    ) -> Result<Care, CommandError> {
        self.check_care_by(i, patient, location, legs, ability, false)
    }

    /// A care checked, given by the unit's ability or, `by_card`, by a
    /// field repair card that makes any unit a mechanic for its action
    /// (R152).
    pub(crate) fn check_care_by(
        &self,
        i: usize,
        patient: Tag,
        location: Option<Option<Location>>,
        legs: &Legs,
        ability: Ability,
        by_card: bool,
    ) -> Result<Care, CommandError> {
        let u = &self.units[i];
        let (who, what) = match ability {
            Ability::Medic => ("medic", "heal"),
            _ => ("mechanic", "repair"),
        };
        if !by_card && !u.data.has(ability) {
            return refuse(139, format!("{} is no {who}: it does not {what}", u.tag));
        }
        let Some(p) = self.find(patient) else {
            return refuse(101, format!("no unit is {patient}"));
        };
        let pat = &self.units[p];
        if p == i || pat.side != u.side {
            return refuse(139, format!("{patient} is not a friend of {}'s", u.tag));
        }
        if pat.aboard.is_some() {
            return refuse(
                139,
                format!("{patient} is aboard a transport: it leaves to be cared for"),
            );
        }
        let (_, place) = self.check_move(i, legs, None)?;
        let mut moved = self.clone();
        moved.set_place(i, place);
        let contact = if pat.alive {
            moved.touching(i, p)
        } else {
            // Where it fell (R102): outdoors within contact; indoors its
            // space or a space linked to it.
            match (pat.inside, moved.units[i].inside) {
                (None, None) => {
                    gap(&moved.units[i].shape(), &pat.shape())
                        <= f64::from(self.table.setup.switches.contact_mm) + EPS
                }
                (Some((e, k)), Some((e2, j))) => {
                    e == e2 && (j == k || self.linked(usize::from(e), j, k))
                }
                _ => false,
            }
        };
        if !contact {
            return refuse(
                139,
                format!(
                    "{} does not end in contact with {patient}{}",
                    u.tag,
                    if pat.alive { "" } else { " where it fell" }
                ),
            );
        }
        let this_turn = |t: u32| t == self.turn;
        let care = match (ability, location, pat.vehicle(), pat.alive) {
            (Ability::Medic, _, false, true) => {
                if pat.damaged() && this_turn(pat.hurt) {
                    Care::Undo(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} took no step this turn: a medic undoes one of this turn"
                        ),
                    );
                }
            }
            (Ability::Medic, _, true, true) => {
                if pat.hits & Location::Equipment.bit() != 0 {
                    Care::Mark(p, Location::Equipment)
                } else {
                    return refuse(
                        139,
                        format!("{patient} has no E marker for a medic to take off"),
                    );
                }
            }
            (Ability::Medic, _, false, false) => {
                let (turn, double) = pat.fell.unwrap_or((0, true));
                let starred = pat.data.has(Ability::Starred) && !double;
                if this_turn(turn) || starred {
                    Care::Return(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} was destroyed in turn {turn}: a medic returns a unit destroyed this turn{}",
                            if pat.data.has(Ability::Starred) {
                                ", a starred one from any turn unless by a double"
                            } else {
                                ""
                            }
                        ),
                    );
                }
            }
            (Ability::Medic, _, true, false) => {
                return refuse(
                    139,
                    format!("{patient} is a destroyed vehicle: a mechanic's"),
                );
            }
            (_, _, false, _) => {
                return refuse(
                    139,
                    format!("{patient} is no vehicle: a mechanic repairs vehicles"),
                );
            }
            (_, Some(Some(Location::Equipment)), true, _) => {
                return refuse(
                    139,
                    "an E marker is a medic's to take off, not a mechanic's",
                );
            }
            (_, Some(Some(loc)), true, true) => {
                if pat.hits & loc.bit() != 0 {
                    Care::Mark(p, loc)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} has no {} marker",
                            crate::command::location_word(loc)
                        ),
                    );
                }
            }
            (_, _, true, true) => {
                return refuse(
                    139,
                    format!("name the marker to take off {patient}: A, A2, C or L"),
                );
            }
            (_, Some(Some(loc)), true, false) => {
                return refuse(
                    139,
                    format!(
                        "{patient} is destroyed: a mechanic returns it, naming no marker (not {})",
                        crate::command::location_word(loc)
                    ),
                );
            }
            (_, _, true, false) => {
                if pat.fell.is_some_and(|(t, _)| this_turn(t)) {
                    Care::Return(p)
                } else {
                    return refuse(
                        139,
                        format!(
                            "{patient} was not destroyed this turn: a mechanic returns one that was"
                        ),
                    );
                }
            }
        };
        if let Care::Return(p) = care
            && moved.return_spot(i, p).is_none()
        {
            return refuse(
                139,
                format!(
                    "no free spot is left for {patient} where it fell or in contact with {}",
                    u.tag
                ),
            );
        }
        Ok(care)
    }

    /// Moves the carer along `legs` and does `care` (R139).
    pub(crate) fn give_care(
        &mut self,
        i: usize,
        legs: &Legs,
        care: Care,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        if !legs.is_empty() {
            self.move_unit(i, legs, None, events)?;
        }
        match care {
            Care::Undo(p) => {
                self.units[p].back = false;
                self.units[p].hurt = 0;
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: "its step of this turn undone, front side up",
                });
            }
            Care::Mark(p, loc) => {
                self.units[p].hits &= !loc.bit();
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: match loc {
                        Location::Equipment => "its E marker taken off",
                        Location::Locomotion => "its L marker taken off",
                        Location::Carried => "its C marker taken off",
                        Location::Weapon(_) => "its weapon's marker taken off",
                    },
                });
            }
            Care::Return(p) => {
                let spot = self.return_spot(i, p).expect("checked");
                let u = &mut self.units[p];
                u.alive = true;
                u.carcass = false;
                u.at = spot;
                // Returned on its damaged side; a one-step unit on its front.
                u.back = u.data.back() == Back::Damaged;
                u.readied = 0;
                u.fell = None;
                let (side, ap) = (u.side, u.data.ap);
                let ap_side = usize::from(1 - side);
                self.ap[ap_side] = self.ap[ap_side].saturating_sub(ap);
                events.push(Event::Cared {
                    carer: i,
                    patient: p,
                    done: "returned to the table (R145: its AP no longer destroyed)",
                });
            }
        }
        Ok(())
    }

    /// Where a returned unit stands (R139): where it fell, else the free
    /// spot in contact with its carer nearest there.
    fn return_spot(&self, carer: usize, p: usize) -> Option<Pt> {
        let fell = self.units[p].at;
        let free = |at: Pt| {
            let u = &self.units[p];
            let base = footprint(u.data, at, u.facing).shape();
            on_table(&base, self.table.setup.table)
                && !self.units.iter().enumerate().any(|(k, o)| {
                    k != p
                        && o.alive
                        && o.inside.is_none()
                        && o.aboard.is_none()
                        && overlaps(&base, &o.shape())
                })
                && !self
                    .table
                    .elements
                    .iter()
                    .enumerate()
                    .any(|(k, e)| self.elements[k] > 0 && overlaps(&base, e))
        };
        if let Some((e, k)) = self.units[p].inside {
            // Indoors: its space, if nobody stands there now.
            return self.occupant(e, k, p).is_none().then_some(fell);
        }
        if free(fell) {
            return Some(fell);
        }
        let c = self.units[carer].at;
        let reach = (f64::from(self.units[p].data.base.size_mm().0)
            + f64::from(self.units[carer].data.base.size_mm().0))
            / 2.0
            + 1.0;
        (0..36)
            .map(|k| {
                let a = f64::from(k) * 10.0_f64.to_radians();
                Pt::new(
                    c.x + (reach * a.cos()).round() as i32,
                    c.y + (reach * a.sin()).round() as i32,
                )
            })
            .filter(|at| free(*at))
            .min_by_key(|at| i64::from(at.x - fell.x).pow(2) + i64::from(at.y - fell.y).pow(2))
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

    /// Whether `side` may lay a cloud at `at`: on the table, and fewer
    /// than 2 of its clouds down (R130).
    pub(crate) fn check_cloud_room(&self, side: u8, at: Pt) -> Result<(), CommandError> {
        let down = self
            .clouds
            .iter()
            .filter(|c| c.owner == u16::from(side) && c.penalty(self.turn).is_some())
            .count();
        if down >= CLOUDS_EACH {
            return refuse(130, "both of the side's clouds are down");
        }
        let (w, d) = self.table.setup.table;
        if at.x < 0 || at.y < 0 || at.x > i32::from(w) || at.y > i32::from(d) {
            return refuse(130, format!("{at} is off the table"));
        }
        Ok(())
    }

    /// Checks a cloud of unit `i` at `at` (R130, R138).
    pub fn check_smoke(&self, i: usize, at: Pt) -> Result<(), CommandError> {
        let s = &self.units[i];
        if s.inside.is_some() {
            return refuse(
                130,
                format!("{} stands in a building: a cloud is thrown outdoors", s.tag),
            );
        }
        if !s.has_smoke() {
            return refuse(
                138,
                if s.data.has(Ability::SmokeBomb) {
                    format!("{}'s equipment is hit: no smoke (R125)", s.tag)
                } else {
                    format!("{} has no smoke bomb", s.tag)
                },
            );
        }
        self.check_cloud_room(s.side, at)?;
        let reach = if s.vehicle() {
            f64::from(self.table.setup.switches.ruler_mm())
        } else {
            f64::from(GRENADE_LNS) * self.lns()
        };
        let point = Footprint::disc(at, 0).shape();
        let d = gap(&s.shape(), &point);
        if d > reach + EPS {
            return refuse(
                130,
                format!(
                    "{at} is {d:.1} mm from {}: smoke reaches {reach:.0} mm ({})",
                    s.tag,
                    if s.vehicle() { "a ruler" } else { "3 LNS" }
                ),
            );
        }
        if !self.point_seen(i, at) {
            return refuse(130, format!("{} has no line of sight to {at}", s.tag));
        }
        Ok(())
    }

    /// Whether unit `i`'s centre sees the point `p` (R120): no building,
    /// other unit, or vegetation or hill it does not stand in across.
    fn point_seen(&self, i: usize, p: Pt) -> bool {
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

    fn check_special(&self, i: usize, what: Special) -> Result<(), CommandError> {
        let u = &self.units[i];
        match what {
            Special::Shield => {
                if !u.data.has(Ability::EnergyShield(0)) {
                    return refuse(135, format!("{} has no energy shield", u.tag));
                }
                if u.shield_up() {
                    return refuse(135, format!("{}'s shield is up already", u.tag));
                }
            }
            Special::Tripod => {
                if !u.data.has(Ability::Tripod) {
                    return refuse(136, format!("{} has no tripod", u.tag));
                }
                if u.tripod_set() {
                    return refuse(136, format!("{}'s tripod is set already", u.tag));
                }
            }
            Special::Reserve => {
                if !u.data.has(Ability::ReserveAction) {
                    return refuse(137, format!("{} has no Reserve action", u.tag));
                }
                if u.readied > 0 {
                    return refuse(137, format!("{}'s Reserve action is set already", u.tag));
                }
            }
            Special::Explosives => {
                if !matches!(u.gear, Some((_, crate::crates::Content::Explosives))) {
                    return refuse(144, format!("{} carries no explosives", u.tag));
                }
                if self.element_in_contact(i).is_none() {
                    return refuse(
                        144,
                        format!("{} touches no standing building element", u.tag),
                    );
                }
            }
        }
        Ok(())
    }

    /// The first standing building element unit `i` touches (R102).
    pub(crate) fn element_in_contact(&self, i: usize) -> Option<usize> {
        let shape = self.units[i].shape();
        let contact = f64::from(self.table.setup.switches.contact_mm);
        (0..self.table.elements.len()).find(|k| {
            self.elements[*k] > 0
                && self.elements[*k] != X_STANDING
                && gap(&shape, &self.table.elements[*k]) <= contact + EPS
        })
    }

    fn check_land(&self, at: Pt) -> Result<(), CommandError> {
        let shape = Footprint::disc(at, LARGE_MM).shape();
        if !on_table(&shape, self.table.setup.table) {
            return refuse(
                129,
                format!("a large template at {at} is not wholly on the table"),
            );
        }
        Ok(())
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

    fn drop_shield(&mut self, i: usize, events: &mut Vec<Event>) {
        if self.units[i].alive && self.units[i].shield_up() {
            self.units[i].back = false;
            events.push(Event::Flipped {
                unit: i,
                back: false,
                why: "has fought: its shield drops (R135)",
            });
        }
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
    fn step(&mut self, t: usize, events: &mut Vec<Event>) -> Result<(), CommandError> {
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

    /// A template of `diameter` mm at `at` from unit `i`'s weapon `w` (or
    /// a grenade's `fixed` bonus): every unit and element it overlaps or
    /// touches takes an attack at its type, no modifiers, nearest the
    /// centre first (R126).
    fn template(
        &mut self,
        i: usize,
        w: usize,
        fixed: Option<i8>,
        at: Pt,
        diameter: u16,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        events.push(Event::Template { at, diameter });
        for struck in self.template_targets(at, diameter) {
            match struck {
                Struck::Unit(t) => {
                    if !self.units[t].alive {
                        continue;
                    }
                    let bonus = match fixed {
                        Some(b) => Some(b),
                        None => self.units[i].bonus(w, self.units[t].armor()),
                    };
                    if let Some(bonus) = bonus {
                        // A card's modifier reaches every roll of the shot
                        // (R152); the template's own are none (R126).
                        self.attack_at(t, bonus, self.flow.card_mod(i), events)?;
                    }
                }
                Struck::Element(k) => {
                    let bonus = match fixed {
                        Some(b) => Some(b),
                        None => self.units[i].bonus(w, 2),
                    };
                    if let Some(bonus) = bonus {
                        self.attack_element(k, bonus, events)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// What a template of `diameter` mm at `at` overlaps or touches, nearest
    /// its centre first (R126): standing units, then elements not ruined.
    pub fn template_targets(&self, at: Pt, diameter: u16) -> Vec<Struck> {
        let mut who: Vec<Struck> = Vec::new();
        let mut shapes = Vec::new();
        // Units inside an element are not hit (R126).
        for (k, u) in self.units.iter().enumerate() {
            if u.alive && u.inside.is_none() && u.aboard.is_none() {
                who.push(Struck::Unit(k));
                shapes.push(u.shape());
            }
        }
        // An element with an X has no defense to attack (R119).
        for (k, e) in self.table.elements.iter().enumerate() {
            if self.elements[k] > 0 && self.elements[k] != X_STANDING {
                who.push(Struck::Element(k));
                shapes.push(e.clone());
            }
        }
        template_hits(at, diameter, &shapes)
            .into_iter()
            .map(|h| who[h])
            .collect()
    }

    /// An attack on building element `k` (R119, R123): a step takes one of
    /// its steps, a double two; at none it is a ruin.
    fn attack_element(
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

    /// The dice.
    pub fn dice(&self) -> &Dice {
        &self.dice
    }

    /// Replaces the dice (R30).
    pub fn set_dice(&mut self, dice: Dice) {
        self.dice = dice;
    }

    /// The centre where a placed drop lands when aimed at `aim` with no
    /// scatter: the least slide onto the table (R129).
    pub fn drop_onto_table(&self, aim: Pt) -> Pt {
        let (w, d) = self.table.setup.table;
        drop_landing(aim, 1, 1, LARGE_MM, w, d)
    }

    /// A point in `P16`, for commands.
    pub fn p16(p: Pt) -> P16 {
        P16::of(p).unwrap_or_default()
    }

    /// Whether units `a` and `b` overlap.
    pub fn overlapping(&self, a: usize, b: usize) -> bool {
        overlaps(&self.units[a].shape(), &self.units[b].shape())
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

/// What stands in a move's way, for the refusal that names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// A building element, by index.
    Element(usize),
    /// A unit, by index.
    Unit(usize),
    /// A terrain piece, by index.
    Terrain(usize),
}

/// What a crossed obstacle costs a shot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Crossed {
    /// It blocks.
    Block,
    /// A light structure (R122).
    Light,
    /// An enemy cloud, its penalty (R131).
    Smoke(i8),
}

/// The armor types' names, by a weapon's bonus index (R101).
pub const ARMOR: [&str; 3] = ["body armor", "heavy armor", "structure"];

/// A weapon's name for people: `A`, `A1`, `A2`, or `its weapon`.
pub fn weapon_name(data: &UnitData, w: usize) -> String {
    match data.weapons.get(w) {
        Some(weapon) if !weapon.name.is_empty() => weapon.name.to_owned(),
        _ => "its weapon".to_owned(),
    }
}

/// A skirmish as it is written ([`sandtable_core::wire`]): its setup and
/// its state.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct GameForm {
    setup: Setup,
    units: Vec<Unit>,
    elements: Vec<u8>,
    clouds: Vec<Cloud>,
    turn: u32,
    flow: crate::flow::Flow,
    crates: Vec<crate::crates::Crate>,
    banked: [u8; 2],
    diskette: Option<crate::crates::Diskette>,
    deferred: Option<Vec<(usize, Outcome)>>,
    pending: Option<PendingDrop>,
    picks: Vec<usize>,
    ap: [u16; 2],
    over: Option<Ending>,
    dice: Dice,
}

impl sandtable_core::wire::Wire for Game {
    type Form = GameForm;

    fn to_form(&self) -> GameForm {
        GameForm {
            setup: self.table.setup.clone(),
            units: self.units.clone(),
            elements: self.elements.clone(),
            clouds: self.clouds.clone(),
            turn: self.turn,
            flow: self.flow.clone(),
            crates: self.crates.clone(),
            banked: self.banked,
            diskette: self.diskette,
            deferred: self.deferred.clone(),
            pending: self.pending,
            picks: self.picks.clone(),
            ap: self.ap,
            over: self.over,
            dice: self.dice.clone(),
        }
    }

    /// A skirmish read back: its setup checked as a scenario's is (R100 to
    /// R103) and its table built again from it, then its state, refused
    /// where it does not fit the setup (a unit, a crate, an element or a
    /// card that is not there).
    fn from_form(w: GameForm) -> Result<Game, String> {
        // Any dice: the setup's table is what is wanted of it.
        let fresh = Game::new(&w.setup, Dice::seeded(0)).map_err(|e| format!("its setup: {e}"))?;
        let game = Game {
            table: fresh.table.clone(),
            units: w.units,
            elements: w.elements,
            clouds: w.clouds,
            turn: w.turn,
            flow: w.flow,
            crates: w.crates,
            banked: w.banked,
            diskette: w.diskette,
            deferred: w.deferred,
            pending: w.pending,
            picks: w.picks,
            ap: w.ap,
            over: w.over,
            dice: w.dice,
        };
        game.fits(&fresh)?;
        Ok(game)
    }
}

impl Game {
    /// Whether a state read back fits the game `fresh` started from the
    /// same setup, so that no rule indexes out of it: why not.
    fn fits(&self, fresh: &Game) -> Result<(), String> {
        let n = self.units.len();
        if n != fresh.units.len() || self.elements.len() != fresh.elements.len() {
            return Err(format!(
                "{n} units and {} elements where the setup has {} and {}",
                self.elements.len(),
                fresh.units.len(),
                fresh.elements.len()
            ));
        }
        let unit = |k: usize| k < n;
        let side = |s: u8| s < 2;
        let elements = &self.table.setup.elements;
        for (u, f) in self.units.iter().zip(&fresh.units) {
            let inside_ok = u.inside.is_none_or(|(e, k)| {
                elements
                    .get(usize::from(e))
                    .is_some_and(|el| usize::from(k) < el.spaces.len())
            });
            if u.tag != f.tag
                || u.data.id != f.data.id
                || u.side != f.side
                || !inside_ok
                || u.aboard.is_some_and(|a| !unit(usize::from(a)))
                || u.gear
                    .is_some_and(|(k, _)| usize::from(k) >= self.crates.len())
            {
                return Err(format!("unit {} does not fit the setup", f.tag));
            }
        }
        for c in &self.crates {
            let ok = match c.state {
                crate::crates::CrateState::Carried(u) => unit(usize::from(u)),
                crate::crates::CrateState::Banked(s) => side(s),
                _ => true,
            };
            if !ok || c.secret_of.is_some_and(|s| !side(s)) {
                return Err("a crate with a unit or side that is not there".to_owned());
            }
        }
        let f = &self.flow;
        let phase_side = match f.phase {
            crate::flow::Phase::Deploy(s)
            | crate::flow::Phase::Prepare(s)
            | crate::flow::Phase::Name(s)
            | crate::flow::Phase::Reserve(s) => s,
            _ => 0,
        };
        let cards_ok = f.cards.iter().all(|c| {
            c.deck
                .iter()
                .chain(&c.hand)
                .chain(&c.discards)
                .all(|k| usize::from(*k) < crate::data::CARDS.len())
        });
        let units_ok = f.placed.iter().flatten().all(|p| unit(p.unit))
            && f.active.iter().all(|a| unit(a.unit) && side(a.side))
            && f.window
                .is_none_or(|w| side(w.side) && w.unit.is_none_or(unit))
            && f.landing.iter().all(|(k, _)| unit(*k))
            && f.mods.iter().all(|(k, _)| unit(*k))
            && f.over.iter().all(|k| unit(*k))
            && f.queue.iter().all(|(s, _)| side(*s))
            && self.picks.iter().all(|k| unit(*k))
            && self.deferred.iter().flatten().all(|(k, _)| unit(*k))
            && self.pending.is_none_or(|p| {
                unit(p.shooter)
                    && usize::from(p.weapon) < self.units[p.shooter].data.weapons.len().max(1)
            })
            && self
                .diskette
                .is_none_or(|d| d.carrier.is_none_or(|c| unit(usize::from(c))));
        if !side(phase_side) || !side(f.first) || !cards_ok || !units_ok {
            return Err("the turn names a unit, side or card that is not there".to_owned());
        }
        if self.clouds.iter().any(|c| c.owner > 1)
            || matches!(self.over, Some(Ending::Won(s)) if s.0 > 1)
        {
            return Err("a cloud or an ending of a seat that is not there".to_owned());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use sandtable_core::wire::{Wire, WireError, read, write};

    use super::*;
    use crate::data::Faction;
    use crate::setup::{SideSetup, UnitSetup};

    fn game() -> Game {
        let unit = |data: &str, side: u8, x: i32| UnitSetup::at_x("", data, side, x);
        let setup = Setup {
            sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
            units: vec![unit("lg_trooper", 0, 100), unit("zr_cluster", 1, 300)],
            ..Setup::default()
        };
        Game::new(&setup, Dice::seeded(1)).expect("valid")
    }

    #[test]
    fn a_state_that_does_not_fit_its_setup_is_refused_with_its_reason() {
        let g = game();
        // The control: the form reads back.
        assert!(Game::from_form(g.to_form()) == Ok(g.clone()));
        let mut form = g.to_form();
        form.units.pop();
        assert_eq!(
            Game::from_form(form).err().as_deref(),
            Some("1 units and 0 elements where the setup has 2 and 0")
        );
        let mut form = g.to_form();
        form.flow.cards[0].hand.push(200);
        assert_eq!(
            Game::from_form(form).err().as_deref(),
            Some("the turn names a unit, side or card that is not there")
        );
        let mut form = g.to_form();
        form.units[1].aboard = Some(7);
        let why = read::<Game>(&sandtable_core::wire::encode(&form)).err();
        assert!(
            matches!(&why, Some(WireError::Malformed(w)) if w.contains("does not fit the setup")),
            "{why:?}"
        );
        let mut form = g.to_form();
        form.setup.sides.pop();
        assert!(
            Game::from_form(form)
                .err()
                .is_some_and(|w| w.starts_with("its setup: ")),
        );
        assert!(read::<Game>(&write(&g)) == Ok(g));
    }
}
