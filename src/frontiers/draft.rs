//! A skirmish's layout being edited: a skirmish that may break the setup
//! rulings while a person works on it, and the edits that change it:
//! terrain polygons drawn, their corners dragged, added and deleted;
//! building elements placed from a small library (a room, a corridor, a
//! hut, each with its spaces, doors and windows); units placed by their
//! data id, set down or left to deploy; crates and objectives; the
//! table's size, the deployment zone and the AP limit. The live check is
//! the skirmish loader's own ([`crate::session::draft::Draft`]). No Bevy
//! here: the layout systems and panel drive a [`SkirmishDraft`].

use std::fmt;

use sandtable_frontiers::data::{Faction, UNITS, unit_data};
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{
    Element, MAX_TABLE_MM, Opening, OpeningKind, SideSetup, Terrain, TerrainKind, UnitSetup,
};
use sandtable_scenario::skirmish::Skirmish;
use sandtable_scenario::{Location, Problem};

use crate::session::draft::{Draft, Layout};

/// A skirmish's layout with its history and its check.
pub type SkirmishDraft = Draft<Skirmish>;

/// A piece of the layout, by its index in its list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Piece {
    /// A terrain piece.
    Terrain(usize),
    /// A building element.
    Element(usize),
    /// A unit.
    Unit(usize),
    /// A crate lying on the table.
    Crate(usize),
    /// An objective.
    Objective(usize),
}

/// A building element the library places: its shape, spaces, doors and
/// windows, with its near-left corner where it is placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Building {
    /// A room of four spaces, 120 by 90 mm, a door and a window.
    Room,
    /// A corridor of three spaces, 150 by 40 mm, a door at each end.
    Corridor,
    /// A hut of one space, 60 by 60 mm, a door and a window.
    Hut,
    /// An L-shaped room of four spaces, 150 by 120 mm over all, a door
    /// and a window.
    LRoom,
    /// A T-shaped corridor of four spaces, 150 by 100 mm over all, a
    /// door at each of its three ends.
    TCorridor,
    /// A ruin: a room fallen to its walls' stumps, a light structure
    /// (R119), 120 by 90 mm.
    Ruin,
}

impl Building {
    /// Every building of the library.
    pub const ALL: [Building; 6] = [
        Building::Room,
        Building::Corridor,
        Building::Hut,
        Building::LRoom,
        Building::TCorridor,
        Building::Ruin,
    ];

    /// Its name, for people.
    pub fn name(self) -> &'static str {
        match self {
            Building::Room => "Room",
            Building::Corridor => "Corridor",
            Building::Hut => "Hut",
            Building::LRoom => "L-shaped room",
            Building::TCorridor => "T-shaped corridor",
            Building::Ruin => "Ruin",
        }
    }

    /// Whether it is laid as terrain, a light structure (R119), rather
    /// than as a building element.
    pub fn is_ruin(self) -> bool {
        self == Building::Ruin
    }

    /// Its outline, its near-left corner at `at`: what the table shows
    /// under the pointer before it is placed.
    pub fn outline(self, at: Pt) -> Vec<Pt> {
        match self {
            Building::Ruin => Building::ruin(at).corners,
            _ => self.element(at).corners,
        }
    }

    /// The ruin's light structure, its near-left corner at `at` (R119):
    /// the room's floor with a wall's corner fallen in.
    pub fn ruin(at: Pt) -> Terrain {
        let p = |x: i32, y: i32| Pt::new(at.x + x, at.y + y);
        Terrain {
            kind: TerrainKind::LightStructure,
            corners: vec![p(0, 0), p(120, 0), p(120, 50), p(85, 90), p(0, 90)],
        }
    }

    /// The element, its near-left corner at `at` (R117).
    pub fn element(self, at: Pt) -> Element {
        let p = |x: i32, y: i32| Pt::new(at.x + x, at.y + y);
        let opening = |kind, a: Pt, b: Pt, behind: u8| Opening {
            kind,
            a,
            b,
            behind: vec![behind],
        };
        let rect = |w: i32, d: i32| vec![p(0, 0), p(w, 0), p(w, d), p(0, d)];
        match self {
            Building::Room => Element {
                name: "Room".into(),
                corners: rect(120, 90),
                defense: 7,
                steps: 3,
                spaces: vec![p(30, 30), p(90, 30), p(30, 65), p(90, 65)],
                links: vec![(0, 1), (0, 2), (1, 3), (2, 3)],
                openings: vec![
                    opening(OpeningKind::Door, p(15, 0), p(45, 0), 0),
                    opening(OpeningKind::Window, p(120, 55), p(120, 75), 3),
                ],
                ..Element::default()
            },
            Building::Corridor => Element {
                name: "Corridor".into(),
                corners: rect(150, 40),
                defense: 6,
                steps: 2,
                spaces: vec![p(30, 20), p(75, 20), p(120, 20)],
                links: vec![(0, 1), (1, 2)],
                openings: vec![
                    opening(OpeningKind::Door, p(0, 5), p(0, 35), 0),
                    opening(OpeningKind::Door, p(150, 5), p(150, 35), 2),
                ],
                ..Element::default()
            },
            Building::LRoom => Element {
                name: "L-shaped room".into(),
                corners: vec![
                    p(0, 0),
                    p(150, 0),
                    p(150, 60),
                    p(60, 60),
                    p(60, 120),
                    p(0, 120),
                ],
                defense: 7,
                steps: 4,
                spaces: vec![p(30, 30), p(75, 30), p(120, 30), p(30, 90)],
                links: vec![(0, 1), (1, 2), (0, 3)],
                openings: vec![
                    opening(OpeningKind::Door, p(105, 0), p(135, 0), 2),
                    opening(OpeningKind::Window, p(0, 80), p(0, 100), 3),
                ],
                ..Element::default()
            },
            Building::TCorridor => Element {
                name: "T-shaped corridor".into(),
                corners: vec![
                    p(55, 0),
                    p(95, 0),
                    p(95, 60),
                    p(150, 60),
                    p(150, 100),
                    p(0, 100),
                    p(0, 60),
                    p(55, 60),
                ],
                defense: 6,
                steps: 3,
                spaces: vec![p(75, 25), p(75, 80), p(25, 80), p(125, 80)],
                links: vec![(0, 1), (1, 2), (1, 3)],
                openings: vec![
                    opening(OpeningKind::Door, p(60, 0), p(90, 0), 0),
                    opening(OpeningKind::Door, p(0, 65), p(0, 95), 2),
                    opening(OpeningKind::Door, p(150, 65), p(150, 95), 3),
                ],
                ..Element::default()
            },
            // Laid as terrain ([`Building::ruin`]); as an element, the
            // room it was.
            Building::Ruin => Building::Room.element(at),
            Building::Hut => Element {
                name: "Hut".into(),
                corners: rect(60, 60),
                defense: 6,
                steps: 2,
                spaces: vec![p(30, 30)],
                links: Vec::new(),
                openings: vec![
                    opening(OpeningKind::Door, p(15, 0), p(45, 0), 0),
                    opening(OpeningKind::Window, p(60, 20), p(60, 40), 0),
                ],
                ..Element::default()
            },
        }
    }
}

/// One change to a skirmish's layout. Every edit can be undone.
#[derive(Debug, Clone, PartialEq)]
pub enum SkirmishEdit {
    /// A terrain piece of this kind with these corners, in order.
    AddTerrain {
        /// Its kind.
        kind: TerrainKind,
        /// Its corners.
        corners: Vec<Pt>,
    },
    /// A terrain piece's or an element's corner moved (a drag undoes as
    /// one edit).
    MoveCorner {
        /// The piece: a terrain piece or an element.
        piece: Piece,
        /// The corner, from 0.
        corner: usize,
        /// Where it goes.
        to: Pt,
    },
    /// A corner added after `after`, at `at`.
    AddCorner {
        /// The piece: a terrain piece or an element.
        piece: Piece,
        /// The corner it follows.
        after: usize,
        /// Where.
        at: Pt,
    },
    /// A corner taken away (a polygon keeps at least 3).
    DeleteCorner {
        /// The piece: a terrain piece or an element.
        piece: Piece,
        /// The corner.
        corner: usize,
    },
    /// A piece moved so that its first corner, or its centre, is at `to`
    /// (a drag undoes as one edit).
    MovePiece {
        /// The piece.
        piece: Piece,
        /// Where its first corner (a polygon) or its centre goes.
        to: Pt,
    },
    /// A piece taken off the layout.
    DeletePiece(Piece),
    /// A door or a window on the wall of a building element nearest
    /// `at`, within [`WALL_REACH_MM`], centred where `at` falls on the
    /// wall; behind it the element's space nearest it (R117).
    AddOpening {
        /// A door or a window.
        kind: OpeningKind,
        /// Where on the wall.
        at: Pt,
    },
    /// An element's door or window taken away, by its index among the
    /// element's openings.
    DeleteOpening {
        /// The element.
        element: usize,
        /// The opening.
        opening: usize,
    },
    /// A building from the library, its near-left corner at `at`.
    PlaceBuilding {
        /// Which.
        building: Building,
        /// Its near-left corner.
        at: Pt,
    },
    /// A unit of a side by its data id, set down at `at`, or waiting to
    /// deploy (R146) when `at` is `None`; its id the next free one of its
    /// letter.
    PlaceUnit {
        /// Its data id, as `lg_trooper`.
        data: String,
        /// Its side, from 0.
        side: u8,
        /// Where it stands, if it is set down.
        at: Option<Pt>,
    },
    /// A unit's facing, whole degrees.
    FaceUnit {
        /// The unit.
        unit: usize,
        /// Its facing.
        facing: i16,
    },
    /// A crate lying at a point (R143).
    AddCrate(Pt),
    /// An objective at a point (R148).
    AddObjective(Pt),
    /// Rename the skirmish.
    Rename(String),
    /// The table's width and depth in mm (R100).
    SetTable(u16, u16),
    /// Units deploy wholly within this many mm of their edge (R146);
    /// `None`: touching it.
    SetDeployMm(Option<u16>),
    /// The most AP a side's list holds (R103); `None`: no limit.
    SetAp(Option<u32>),
    /// An empty skirmish: the Legion against the Zirl on a table of this
    /// size, nothing on it.
    New(u16, u16),
}

/// Why an edit was refused; the layout is left as it was.
#[derive(Debug, Clone, PartialEq)]
pub enum EditSkirmishError {
    /// No such piece.
    NoPiece(Piece),
    /// No such corner.
    NoCorner(Piece, usize),
    /// A polygon keeps at least 3 corners.
    TooFewCorners(Piece),
    /// A terrain piece needs 3 corners or more.
    NotAPolygon(usize),
    /// No unit type of this id.
    NoUnitType(String),
    /// No such side.
    NoSide(u8),
    /// A table of this size cannot be (R100).
    Table(u16, u16),
    /// Nothing to undo or redo.
    NoHistory(&'static str),
    /// No building element's wall within reach of the point.
    NoWall(Pt),
    /// The wall is too short for the opening, or it would overlap another.
    NoRoom(Pt),
    /// No such opening.
    NoOpening(usize, usize),
}

impl fmt::Display for EditSkirmishError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditSkirmishError::NoPiece(p) => write!(f, "the layout has no {p:?}"),
            EditSkirmishError::NoCorner(p, k) => write!(f, "{p:?} has no corner {}", k + 1),
            EditSkirmishError::TooFewCorners(p) => {
                write!(
                    f,
                    "{p:?} keeps at least 3 corners: delete the piece instead"
                )
            }
            EditSkirmishError::NotAPolygon(n) => write!(
                f,
                "a terrain piece needs 3 corners or more, and {n} were laid: click more before Done"
            ),
            EditSkirmishError::NoUnitType(id) => write!(
                f,
                "no unit type is `{id}`: use a data id as `lg_trooper` or `zr_cluster` (R150, R151)"
            ),
            EditSkirmishError::NoSide(s) => write!(f, "the skirmish has no side {s}"),
            EditSkirmishError::Table(w, d) => write!(
                f,
                "a table of {w} x {d} mm cannot be: each side from 100 to {MAX_TABLE_MM} mm (R100)"
            ),
            EditSkirmishError::NoHistory(what) => write!(f, "nothing to {what}"),
            EditSkirmishError::NoWall(p) => write!(
                f,
                "no building element's wall within {WALL_REACH_MM} mm of {p}: click on a wall (R117)"
            ),
            EditSkirmishError::NoRoom(p) => write!(
                f,
                "no room for it on the wall at {p}: the wall is too short there, or another door or window is in the way (R117)"
            ),
            EditSkirmishError::NoOpening(e, k) => {
                write!(f, "element {} has no opening {}", e + 1, k + 1)
            }
        }
    }
}

/// How near a wall a click lays a door or a window on it (mm).
pub const WALL_REACH_MM: f64 = 20.0;

/// A door's width and a window's along the wall (mm): a round base
/// passes a door (R101, R117).
pub fn opening_width(kind: OpeningKind) -> i32 {
    match kind {
        OpeningKind::Door => 30,
        OpeningKind::Window => 20,
    }
}

/// The wall of a building element nearest `p`, within [`WALL_REACH_MM`]:
/// the element and the wall's first corner, with the point of the wall
/// nearest `p` as a share of its length.
fn wall_at(setup: &sandtable_frontiers::setup::Setup, p: Pt) -> Option<(usize, usize, f64)> {
    let mut best: Option<(f64, usize, usize, f64)> = None;
    for (e, el) in setup.elements.iter().enumerate() {
        let n = el.corners.len();
        for k in 0..n {
            let (a, b) = (el.corners[k], el.corners[(k + 1) % n]);
            let (dx, dy) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
            let len2 = dx * dx + dy * dy;
            if len2 == 0.0 {
                continue;
            }
            let t =
                ((f64::from(p.x - a.x) * dx + f64::from(p.y - a.y) * dy) / len2).clamp(0.0, 1.0);
            let (qx, qy) = (f64::from(a.x) + t * dx, f64::from(a.y) + t * dy);
            let d = (f64::from(p.x) - qx).hypot(f64::from(p.y) - qy);
            if d <= WALL_REACH_MM && best.is_none_or(|b| d < b.0) {
                best = Some((d, e, k, t));
            }
        }
    }
    best.map(|(_, e, k, t)| (e, k, t))
}

/// The opening of `kind` that a click at `p` lays: on the nearest wall,
/// centred where `p` falls on it and kept whole on the wall, clear of the
/// element's other openings; behind it the nearest space (R117).
fn opening_on_wall(
    setup: &sandtable_frontiers::setup::Setup,
    kind: OpeningKind,
    p: Pt,
) -> Result<(usize, Opening), EditSkirmishError> {
    let (e, k, t) = wall_at(setup, p).ok_or(EditSkirmishError::NoWall(p))?;
    let el = &setup.elements[e];
    let (a, b) = (el.corners[k], el.corners[(k + 1) % el.corners.len()]);
    let (dx, dy) = (f64::from(b.x - a.x), f64::from(b.y - a.y));
    let len = dx.hypot(dy);
    let half = f64::from(opening_width(kind)) / 2.0;
    if len < 2.0 * half {
        return Err(EditSkirmishError::NoRoom(p));
    }
    let centre = (t * len).clamp(half, len - half);
    let at = |s: f64| {
        Pt::new(
            (f64::from(a.x) + dx * s / len).round() as i32,
            (f64::from(a.y) + dy * s / len).round() as i32,
        )
    };
    let (from, to) = (at(centre - half), at(centre + half));
    // Clear of the other openings on the same wall.
    let on_wall = |q: Pt| sandtable_frontiers::geometry::point_segment(q.v(), a.v(), b.v()) < 1.0;
    let along = |q: Pt| (f64::from(q.x - a.x) * dx + f64::from(q.y - a.y) * dy) / len;
    let (lo, hi) = (centre - half, centre + half);
    if el.openings.iter().any(|o| {
        on_wall(o.a) && on_wall(o.b) && {
            let (s, e) = (along(o.a).min(along(o.b)), along(o.a).max(along(o.b)));
            s < hi && lo < e
        }
    }) {
        return Err(EditSkirmishError::NoRoom(p));
    }
    let mid = Pt::new((from.x + to.x) / 2, (from.y + to.y) / 2);
    let behind = el
        .spaces
        .iter()
        .enumerate()
        .min_by_key(|(_, s)| i64::from(s.x - mid.x).pow(2) + i64::from(s.y - mid.y).pow(2))
        .map_or(Vec::new(), |(i, _)| vec![i as u8]);
    Ok((
        e,
        Opening {
            kind,
            a: from,
            b: to,
            behind,
        },
    ))
}

/// The door or window within [`WALL_REACH_MM`] of `p`: its element and
/// its index among the element's openings.
pub fn opening_at(setup: &sandtable_frontiers::setup::Setup, p: Pt) -> Option<(usize, usize)> {
    setup
        .elements
        .iter()
        .enumerate()
        .flat_map(|(e, el)| {
            el.openings.iter().enumerate().map(move |(k, o)| {
                (
                    sandtable_frontiers::geometry::point_segment(p.v(), o.a.v(), o.b.v()),
                    e,
                    k,
                )
            })
        })
        .filter(|(d, ..)| *d <= WALL_REACH_MM / 2.0)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, e, k)| (e, k))
}

/// The letter a unit's id begins with: its type's name after the
/// faction's prefix (`lg_trooper`: T).
fn letter(data: &str) -> char {
    data.split('_')
        .nth(1)
        .and_then(|w| w.chars().next())
        .map_or('U', |c| c.to_ascii_uppercase())
}

/// The AP of a side's units (R103).
pub fn side_ap(skirmish: &Skirmish, side: u8) -> u32 {
    skirmish
        .setup
        .units
        .iter()
        .filter(|u| u.side == side)
        .filter_map(|u| unit_data(&u.data))
        .map(|d| u32::from(d.ap))
        .sum()
}

/// The unit types of a faction, by their data ids.
pub fn unit_types(faction: Faction) -> impl Iterator<Item = &'static str> {
    UNITS
        .iter()
        .filter(move |u| u.faction == faction)
        .map(|u| u.id)
}

fn polygon(s: &mut Skirmish, piece: Piece) -> Result<&mut Vec<Pt>, EditSkirmishError> {
    let setup = &mut s.setup;
    match piece {
        Piece::Terrain(i) => setup.terrain.get_mut(i).map(|t| &mut t.corners),
        Piece::Element(i) => setup.elements.get_mut(i).map(|e| &mut e.corners),
        _ => None,
    }
    .ok_or(EditSkirmishError::NoPiece(piece))
}

/// Moves every point of an element by (dx, dy): its corners, spaces and
/// openings.
fn shift_element(e: &mut Element, dx: i32, dy: i32) {
    let by = |p: &mut Pt| *p = Pt::new(p.x + dx, p.y + dy);
    e.corners.iter_mut().for_each(by);
    e.spaces.iter_mut().for_each(by);
    for o in &mut e.openings {
        by(&mut o.a);
        by(&mut o.b);
    }
}

impl Layout for Skirmish {
    type Edit = SkirmishEdit;
    type Error = EditSkirmishError;
    type At = Piece;

    fn change(&mut self, edit: &SkirmishEdit) -> Result<(), EditSkirmishError> {
        let setup = &mut self.setup;
        match edit {
            SkirmishEdit::AddTerrain { kind, corners } => {
                if corners.len() < 3 {
                    return Err(EditSkirmishError::NotAPolygon(corners.len()));
                }
                setup.terrain.push(Terrain {
                    kind: *kind,
                    corners: corners.clone(),
                });
            }
            SkirmishEdit::MoveCorner { piece, corner, to } => {
                let corners = polygon(self, *piece)?;
                *corners
                    .get_mut(*corner)
                    .ok_or(EditSkirmishError::NoCorner(*piece, *corner))? = *to;
            }
            SkirmishEdit::AddCorner { piece, after, at } => {
                let corners = polygon(self, *piece)?;
                if *after >= corners.len() {
                    return Err(EditSkirmishError::NoCorner(*piece, *after));
                }
                corners.insert(after + 1, *at);
            }
            SkirmishEdit::DeleteCorner { piece, corner } => {
                let corners = polygon(self, *piece)?;
                if *corner >= corners.len() {
                    return Err(EditSkirmishError::NoCorner(*piece, *corner));
                }
                if corners.len() <= 3 {
                    return Err(EditSkirmishError::TooFewCorners(*piece));
                }
                corners.remove(*corner);
            }
            SkirmishEdit::MovePiece { piece, to } => {
                let missing = EditSkirmishError::NoPiece(*piece);
                match *piece {
                    Piece::Terrain(i) => {
                        let t = setup.terrain.get_mut(i).ok_or(missing)?;
                        let first = t.corners[0];
                        let (dx, dy) = (to.x - first.x, to.y - first.y);
                        for c in &mut t.corners {
                            *c = Pt::new(c.x + dx, c.y + dy);
                        }
                    }
                    Piece::Element(i) => {
                        let e = setup.elements.get_mut(i).ok_or(missing)?;
                        let first = e.corners[0];
                        shift_element(e, to.x - first.x, to.y - first.y);
                    }
                    Piece::Unit(i) => {
                        let u = setup.units.get_mut(i).ok_or(missing)?;
                        u.at = *to;
                        u.deploy = false;
                    }
                    Piece::Crate(i) => *setup.crates.get_mut(i).ok_or(missing)? = *to,
                    Piece::Objective(i) => *setup.objectives.get_mut(i).ok_or(missing)? = *to,
                }
            }
            SkirmishEdit::DeletePiece(piece) => {
                let missing = EditSkirmishError::NoPiece(*piece);
                let (len, i) = match *piece {
                    Piece::Terrain(i) => (setup.terrain.len(), i),
                    Piece::Element(i) => (setup.elements.len(), i),
                    Piece::Unit(i) => (setup.units.len(), i),
                    Piece::Crate(i) => (setup.crates.len(), i),
                    Piece::Objective(i) => (setup.objectives.len(), i),
                };
                if i >= len {
                    return Err(missing);
                }
                match *piece {
                    Piece::Terrain(i) => {
                        setup.terrain.remove(i);
                    }
                    Piece::Element(i) => {
                        setup.elements.remove(i);
                        // Elements named by index follow the removal.
                        let at = i as u8;
                        for e in &mut setup.elements {
                            e.falls_with.retain(|f| *f != at);
                            for f in &mut e.falls_with {
                                if *f > at {
                                    *f -= 1;
                                }
                            }
                        }
                        setup.teleprinter = setup.teleprinter.and_then(|(e, k)| match e {
                            e if e == at => None,
                            e if e > at => Some((e - 1, k)),
                            e => Some((e, k)),
                        });
                    }
                    Piece::Unit(i) => {
                        setup.units.remove(i);
                    }
                    Piece::Crate(i) => {
                        setup.crates.remove(i);
                    }
                    Piece::Objective(i) => {
                        setup.objectives.remove(i);
                    }
                }
            }
            SkirmishEdit::PlaceBuilding { building, at } => {
                if building.is_ruin() {
                    setup.terrain.push(Building::ruin(*at));
                } else {
                    setup.elements.push(building.element(*at));
                }
            }
            SkirmishEdit::AddOpening { kind, at } => {
                let (e, opening) = opening_on_wall(setup, *kind, *at)?;
                setup.elements[e].openings.push(opening);
            }
            SkirmishEdit::DeleteOpening { element, opening } => {
                let el = setup
                    .elements
                    .get_mut(*element)
                    .filter(|el| *opening < el.openings.len())
                    .ok_or(EditSkirmishError::NoOpening(*element, *opening))?;
                el.openings.remove(*opening);
            }
            SkirmishEdit::PlaceUnit { data, side, at } => {
                if unit_data(data).is_none() {
                    return Err(EditSkirmishError::NoUnitType(data.clone()));
                }
                if usize::from(*side) >= setup.sides.len() {
                    return Err(EditSkirmishError::NoSide(*side));
                }
                let l = letter(data);
                let id = (1..)
                    .map(|n| format!("{l}{n}"))
                    .find(|id| !setup.units.iter().any(|u| &u.id == id))
                    .expect("a free id");
                setup.units.push(UnitSetup {
                    id,
                    data: data.clone(),
                    side: *side,
                    at: at.unwrap_or_default(),
                    facing: 0,
                    back: false,
                    deploy: at.is_none(),
                    gear: None,
                });
            }
            SkirmishEdit::FaceUnit { unit, facing } => {
                let u = setup
                    .units
                    .get_mut(*unit)
                    .ok_or(EditSkirmishError::NoPiece(Piece::Unit(*unit)))?;
                u.facing = facing.rem_euclid(360);
            }
            SkirmishEdit::AddCrate(p) => setup.crates.push(*p),
            SkirmishEdit::AddObjective(p) => setup.objectives.push(*p),
            SkirmishEdit::Rename(name) => self.name.clone_from(name),
            SkirmishEdit::SetTable(w, d) => {
                if !(100..=MAX_TABLE_MM).contains(w) || !(100..=MAX_TABLE_MM).contains(d) {
                    return Err(EditSkirmishError::Table(*w, *d));
                }
                setup.table = (*w, *d);
            }
            SkirmishEdit::SetDeployMm(mm) => setup.deploy_mm = *mm,
            SkirmishEdit::SetAp(ap) => setup.ap = *ap,
            SkirmishEdit::New(w, d) => {
                if !(100..=MAX_TABLE_MM).contains(w) || !(100..=MAX_TABLE_MM).contains(d) {
                    return Err(EditSkirmishError::Table(*w, *d));
                }
                *self = Skirmish {
                    name: "New skirmish".into(),
                    setup: sandtable_frontiers::Setup {
                        table: (*w, *d),
                        sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
                        turns: 6,
                        ..sandtable_frontiers::Setup::default()
                    },
                    warnings: Vec::new(),
                    models: Vec::new(),
                };
            }
        }
        Ok(())
    }

    fn merges(edit: &SkirmishEdit) -> bool {
        matches!(
            edit,
            SkirmishEdit::Rename(_) | SkirmishEdit::FaceUnit { .. }
        )
    }

    fn no_history(what: &'static str) -> EditSkirmishError {
        EditSkirmishError::NoHistory(what)
    }

    fn text(&self) -> String {
        self.to_ron()
    }

    fn load(text: &str) -> Result<Vec<Problem>, Vec<Problem>> {
        match sandtable_scenario::skirmish::parse(text, "layout") {
            Ok(s) => Ok(s.warnings),
            Err(e) => Err(e.problems),
        }
    }

    /// The piece a problem's field names: `terrain[3]...`,
    /// `buildings[0]...`, `units[5]...`, `crates[1]`, `objectives[0]`.
    fn at(&self, problem: &Problem) -> Option<Piece> {
        let Location::Field(path) = &problem.location else {
            return None;
        };
        let index = |prefix: &str| -> Option<usize> {
            path.strip_prefix(prefix)?.split(']').next()?.parse().ok()
        };
        index("terrain[")
            .map(Piece::Terrain)
            .or_else(|| index("buildings[").map(Piece::Element))
            .or_else(|| index("units[").map(Piece::Unit))
            .or_else(|| index("crates[").map(Piece::Crate))
            .or_else(|| index("objectives[").map(Piece::Objective))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped() -> Skirmish {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/frontiers/skirmish.ron");
        let text = std::fs::read_to_string(path).expect("the skirmish");
        sandtable_scenario::skirmish::parse(&text, "skirmish.ron").expect("it loads")
    }

    #[test]
    fn every_shipped_skirmish_round_trips_through_the_layout() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/frontiers");
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("the folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_some_and(|e| e == "ron"))
            .collect();
        names.sort();
        assert!(names.len() >= 7, "{names:?}");
        for path in names {
            let text = std::fs::read_to_string(&path).expect("read");
            let name = path.display().to_string();
            let skirmish = sandtable_scenario::skirmish::parse(&text, &name).expect("it loads");
            let draft = SkirmishDraft::opened(skirmish.clone(), Some(path.clone()));
            assert!(draft.errors().is_empty(), "{name}: {:?}", draft.errors());
            // Layout, then its file, then a game: the same setup all through.
            let again = sandtable_scenario::skirmish::parse(&draft.layout().text(), &name)
                .expect("written back, it loads");
            assert_eq!(again.setup, skirmish.setup, "{name}");
            assert_eq!(again.models, skirmish.models, "{name}");
            let game = sandtable_frontiers::Game::new(
                &again.setup,
                sandtable_core::dice::Dice::seeded(again.setup.seed),
            )
            .expect("a game starts");
            assert_eq!(game.setup(), &skirmish.setup, "{name}");
        }
    }

    #[test]
    fn the_limit_shown_is_the_loader_s_a_cameron_attacker_bringing_its_box() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/frontiers/cameron-1.ron");
        let text = std::fs::read_to_string(path).expect("read");
        let s = sandtable_scenario::skirmish::parse(&text, "cameron-1").expect("it loads");
        let attacker = usize::from(s.setup.attacker);
        assert_eq!(s.setup.ap_limit(1 - attacker), Some(250));
        assert_eq!(s.setup.ap_limit(attacker), None, "its whole box (R148)");
        assert!(
            side_ap(&s, s.setup.attacker) > 250,
            "and it loads: the loader agrees"
        );
    }

    #[test]
    fn a_layout_made_from_nothing_loads_and_plays() {
        let mut d = SkirmishDraft::new(shipped());
        d.apply(&SkirmishEdit::New(900, 600)).expect("a table");
        // Empty: each side needs a unit (R103).
        let lines: Vec<String> = d.errors().iter().map(|f| f.line()).collect();
        assert!(
            lines
                .iter()
                .any(|l| l.contains("has no unit") && l.contains("(R103)")),
            "{lines:?}"
        );
        d.apply(&SkirmishEdit::AddTerrain {
            kind: TerrainKind::Vegetation,
            corners: vec![Pt::new(300, 250), Pt::new(420, 250), Pt::new(360, 350)],
        })
        .expect("woods");
        d.apply(&SkirmishEdit::PlaceBuilding {
            building: Building::Room,
            at: Pt::new(600, 250),
        })
        .expect("a room");
        for (data, side, at) in [
            ("lg_trooper", 0, (200, 100)),
            ("lg_trooper", 0, (260, 100)),
            ("zr_cluster", 1, (200, 500)),
        ] {
            d.apply(&SkirmishEdit::PlaceUnit {
                data: data.into(),
                side,
                at: Some(Pt::new(at.0, at.1)),
            })
            .expect("a unit");
        }
        assert!(d.errors().is_empty(), "{:?}", d.errors());
        let ids: Vec<&str> = d
            .layout()
            .setup
            .units
            .iter()
            .map(|u| u.id.as_str())
            .collect();
        assert_eq!(ids, ["T1", "T2", "C1"]);
        // Written, read back, and a game starts on it.
        let text = d.layout().text();
        let again = sandtable_scenario::skirmish::parse(&text, "again").expect("it loads");
        assert_eq!(again.setup, d.layout().setup);
        let game =
            sandtable_frontiers::Game::new(&again.setup, sandtable_core::dice::Dice::seeded(1));
        assert!(game.is_ok());
    }

    /// An empty 900 x 600 table with a unit a side, which loads.
    fn bare() -> SkirmishDraft {
        let mut d = SkirmishDraft::new(shipped());
        d.apply(&SkirmishEdit::New(900, 600)).expect("a table");
        for (data, side, at) in [("lg_trooper", 0, (100, 60)), ("zr_cluster", 1, (100, 540))] {
            d.apply(&SkirmishEdit::PlaceUnit {
                data: data.into(),
                side,
                at: Some(Pt::new(at.0, at.1)),
            })
            .expect("a unit");
        }
        assert!(d.errors().is_empty(), "{:?}", d.errors());
        d
    }

    #[test]
    fn r117_r119_every_building_of_the_library_loads_and_a_ruin_is_a_light_structure() {
        for (k, b) in Building::ALL.into_iter().enumerate() {
            let mut d = bare();
            d.apply(&SkirmishEdit::PlaceBuilding {
                building: b,
                at: Pt::new(300 + 10 * k as i32, 200),
            })
            .expect("placed");
            assert!(d.errors().is_empty(), "{}: {:?}", b.name(), d.errors());
            let setup = &d.layout().setup;
            if b.is_ruin() {
                assert!(setup.elements.is_empty());
                assert_eq!(setup.terrain.len(), 1);
                assert_eq!(setup.terrain[0].kind, TerrainKind::LightStructure);
            } else {
                let el = &setup.elements[0];
                // Every space inside, every opening on the outline.
                for s in &el.spaces {
                    assert!(
                        sandtable_frontiers::setup::point_in(*s, &el.corners),
                        "{}: {s}",
                        b.name()
                    );
                }
                let n = el.corners.len();
                for o in &el.openings {
                    assert!(
                        (0..n).any(|k| {
                            let (a, c) = (el.corners[k], el.corners[(k + 1) % n]);
                            sandtable_frontiers::geometry::point_segment(o.a.v(), a.v(), c.v())
                                < 1.0
                                && sandtable_frontiers::geometry::point_segment(
                                    o.b.v(),
                                    a.v(),
                                    c.v(),
                                ) < 1.0
                        }),
                        "{}: {o:?}",
                        b.name()
                    );
                }
            }
            assert!(b.outline(Pt::new(0, 0)).len() >= 4);
            // Written and read back, a game starts on it.
            let again =
                sandtable_scenario::skirmish::parse(&d.layout().text(), "again").expect("it loads");
            assert!(
                sandtable_frontiers::Game::new(&again.setup, sandtable_core::dice::Dice::seeded(1))
                    .is_ok()
            );
        }
    }

    #[test]
    fn r117_doors_and_windows_are_laid_one_at_a_time_on_any_wall_and_taken_away() {
        use sandtable_frontiers::setup::OpeningKind;
        let mut d = bare();
        d.apply(&SkirmishEdit::PlaceBuilding {
            building: Building::Room,
            at: Pt::new(300, 200),
        })
        .expect("a room");
        // The room: 120 by 90 from 300,200; its far wall (y 290) has none.
        d.apply(&SkirmishEdit::AddOpening {
            kind: OpeningKind::Door,
            at: Pt::new(340, 294),
        })
        .expect("a door on the far wall");
        let el = &d.layout().setup.elements[0];
        let door = el.openings.last().expect("the door");
        assert_eq!(door.kind, OpeningKind::Door);
        let mut ends = [door.a, door.b];
        ends.sort_by_key(|p| p.x);
        assert_eq!(ends, [Pt::new(325, 290), Pt::new(355, 290)]);
        // Behind it the space nearest: 330,265 is the room's third.
        assert_eq!(door.behind, vec![2]);
        assert!(d.errors().is_empty(), "{:?}", d.errors());
        // Near a corner it is kept whole on the wall.
        d.apply(&SkirmishEdit::AddOpening {
            kind: OpeningKind::Window,
            at: Pt::new(416, 292),
        })
        .expect("a window at the corner");
        let w = d.layout().setup.elements[0]
            .openings
            .last()
            .expect("the window")
            .clone();
        assert_eq!(w.kind, OpeningKind::Window);
        let (lo, hi) = (w.a.x.min(w.b.x), w.a.x.max(w.b.x));
        assert!(
            w.a.y == 290 && w.b.y == 290 && hi <= 420 && hi - lo == 20,
            "{w:?}"
        );
        // Over the door: no room; far from any wall: none; nothing changes.
        let before = d.layout().setup.clone();
        let over = d.apply(&SkirmishEdit::AddOpening {
            kind: OpeningKind::Window,
            at: Pt::new(340, 290),
        });
        assert!(
            matches!(over, Err(EditSkirmishError::NoRoom(_))),
            "{over:?}"
        );
        let nowhere = d.apply(&SkirmishEdit::AddOpening {
            kind: OpeningKind::Door,
            at: Pt::new(600, 500),
        });
        assert!(
            matches!(nowhere, Err(EditSkirmishError::NoWall(_))),
            "{nowhere:?}"
        );
        assert!(nowhere.unwrap_err().to_string().contains("(R117)"));
        assert_eq!(d.layout().setup, before);
        // The door found where it is clicked, taken away, and undone.
        let (e, k) = opening_at(&d.layout().setup, Pt::new(340, 291)).expect("the door");
        assert_eq!(
            d.layout().setup.elements[e].openings[k].kind,
            OpeningKind::Door
        );
        d.apply(&SkirmishEdit::DeleteOpening {
            element: e,
            opening: k,
        })
        .expect("deleted");
        assert_eq!(
            d.layout().setup.elements[0].openings.len(),
            before.elements[0].openings.len() - 1
        );
        d.undo().expect("undone");
        assert_eq!(d.layout().setup, before);
    }

    #[test]
    fn a_problem_is_lit_on_its_piece_with_its_ruling() {
        let mut d = SkirmishDraft::new(shipped());
        let units = d.layout().setup.units.len();
        // A trooper of the Legion's set down on the Zirl's side of things,
        // inside the relay hut's wall.
        d.apply(&SkirmishEdit::PlaceUnit {
            data: "lg_trooper".into(),
            side: 0,
            at: Some(Pt::new(560, 300)),
        })
        .expect("placed");
        let lit: Vec<_> = d
            .errors()
            .iter()
            .filter(|f| f.at == Some(Piece::Unit(units)))
            .collect();
        assert!(!lit.is_empty(), "{:?}", d.errors());
        assert!(lit[0].problem.ruling.is_some(), "{:?}", lit[0]);
        d.undo().expect("undone");
        assert!(d.errors().is_empty());
        // A unit type of the wrong faction: refused by the loader with R103.
        d.apply(&SkirmishEdit::PlaceUnit {
            data: "zr_brute".into(),
            side: 0,
            at: Some(Pt::new(100, 60)),
        })
        .expect("placed");
        assert!(
            d.errors().iter().any(|f| f.line().contains("(R103)")),
            "{:?}",
            d.errors()
        );
    }

    #[test]
    fn corners_are_dragged_added_and_deleted_and_a_polygon_keeps_three() {
        let mut d = SkirmishDraft::new(shipped());
        let t = Piece::Terrain(0);
        let before = d.layout().setup.terrain[0].corners.clone();
        d.apply(&SkirmishEdit::MoveCorner {
            piece: t,
            corner: 0,
            to: Pt::new(before[0].x - 10, before[0].y),
        })
        .expect("moved");
        assert_eq!(d.layout().setup.terrain[0].corners[0].x, before[0].x - 10);
        d.apply(&SkirmishEdit::AddCorner {
            piece: t,
            after: 0,
            at: before[0],
        })
        .expect("added");
        assert_eq!(d.layout().setup.terrain[0].corners.len(), before.len() + 1);
        let n = d.layout().setup.terrain[0].corners.len();
        for _ in 3..n {
            d.apply(&SkirmishEdit::DeleteCorner {
                piece: t,
                corner: 0,
            })
            .expect("deleted");
        }
        assert_eq!(
            d.apply(&SkirmishEdit::DeleteCorner {
                piece: t,
                corner: 0
            }),
            Err(EditSkirmishError::TooFewCorners(t))
        );
        assert_eq!(
            d.apply(&SkirmishEdit::AddTerrain {
                kind: TerrainKind::Hill,
                corners: vec![Pt::new(1, 1), Pt::new(2, 2)],
            }),
            Err(EditSkirmishError::NotAPolygon(2))
        );
    }

    #[test]
    fn an_element_moves_with_its_spaces_and_openings_and_the_ap_is_counted() {
        let mut d = SkirmishDraft::new(shipped());
        let hut = d.layout().setup.elements[0].clone();
        d.apply(&SkirmishEdit::MovePiece {
            piece: Piece::Element(0),
            to: Pt::new(hut.corners[0].x + 20, hut.corners[0].y - 10),
        })
        .expect("moved");
        let moved = &d.layout().setup.elements[0];
        assert_eq!(
            moved.spaces[0],
            Pt::new(hut.spaces[0].x + 20, hut.spaces[0].y - 10)
        );
        assert_eq!(
            moved.openings[0].a,
            Pt::new(hut.openings[0].a.x + 20, hut.openings[0].a.y - 10)
        );
        let ap = side_ap(d.layout(), 0);
        d.apply(&SkirmishEdit::PlaceUnit {
            data: "lg_trooper".into(),
            side: 0,
            at: None,
        })
        .expect("waiting to deploy");
        let trooper = u32::from(unit_data("lg_trooper").expect("data").ap);
        assert_eq!(side_ap(d.layout(), 0), ap + trooper);
        // Over the AP limit: the loader says so, with R103.
        d.apply(&SkirmishEdit::SetAp(Some(ap))).expect("a limit");
        assert!(
            d.errors()
                .iter()
                .any(|f| f.line().contains("(R103)") && f.line().contains("AP")),
            "{:?}",
            d.errors()
        );
        assert!(unit_types(Faction::Legion).any(|t| t == "lg_trooper"));
        assert!(!unit_types(Faction::Legion).any(|t| t == "zr_cluster"));
    }
}
