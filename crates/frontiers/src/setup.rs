//! A skirmish's setup, checked before anything is played: the table and
//! its switches, the terrain, the building elements, the two sides and
//! their units where they stand (R100, R101, R117, R150-R151). Every
//! problem is collected with the field path a scenario file gives it and
//! its ruling; nothing can hold a [`crate::Game`] that breaks one.

use sandtable_core::game::Ruling;
use sandtable_core::setup::{MAX_PROBLEMS_KEPT, SetupError, SetupProblem};
use sandtable_core::text::name_problem;

use crate::data::{Base, Faction, UnitData, unit_data};
use crate::geometry::{EPS, Footprint, Pt, Shape, V, edges, inside, overlaps, segment_segment};
use crate::smoke::SmokeStacking;

/// The widest or deepest table, in mm: a [`sandtable_core::game::Spot::Point`]
/// holds up to 32 767 mm; 6 m is more than any table in a room.
pub const MAX_TABLE_MM: u16 = 6000;
/// The most units a skirmish holds (both boxes twice over).
pub const MAX_UNITS: usize = 120;
/// The most terrain pieces and building elements, each.
pub const MAX_PIECES: usize = 200;
/// The most corners of a polygon.
pub const MAX_CORNERS: usize = 64;
/// The most game turns (R145).
pub const MAX_TURNS: u32 = 99;

/// How light structures crossed by one line add up (R122).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum LightStacking {
    /// -1 however many are crossed (as written).
    #[default]
    Once,
    /// -1 for each.
    Each,
}

/// Whose penalty symbol a light structure costs (R122).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum PenaltySymbol {
    /// The shooter's printed symbol replaces the 1 (as written).
    #[default]
    Shooter,
    /// Always 1.
    Off,
}

/// A sniper's penalty for a target in a building (R142).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum SniperBuilding {
    /// +1, as the seed's table says.
    #[default]
    Table,
    /// +2, as the seed's contradicting example has it.
    Example,
}

/// How a drop lands (R129).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum DropRule {
    /// Two dice scatter it.
    #[default]
    Scatter,
    /// The firer enters where a real template fell.
    Placed,
}

/// The rulings' switches (R100, R102, R122, R129, R131, R142).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Switches {
    /// Millimetres a LNS (R100).
    pub lns_mm: u16,
    /// LNS a ruler (R100).
    pub ruler_lns: u16,
    /// The widest gap that is contact, in mm (R102).
    pub contact_mm: u16,
    /// R122.
    pub light_stacking: LightStacking,
    /// R122.
    pub penalty_symbol: PenaltySymbol,
    /// R131.
    pub smoke_stacking: SmokeStacking,
    /// R142.
    pub sniper_building: SniperBuilding,
    /// R129.
    pub drop: DropRule,
}

impl Default for Switches {
    fn default() -> Switches {
        Switches {
            lns_mm: 30,
            ruler_lns: 8,
            contact_mm: 2,
            light_stacking: LightStacking::default(),
            penalty_symbol: PenaltySymbol::default(),
            smoke_stacking: SmokeStacking::default(),
            sniper_building: SniperBuilding::default(),
            drop: DropRule::default(),
        }
    }
}

impl Switches {
    /// A ruler's length in mm.
    pub fn ruler_mm(&self) -> u32 {
        u32::from(self.lns_mm) * u32::from(self.ruler_lns)
    }
}

/// A kind of terrain (R114, R120, R122, R123).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum TerrainKind {
    /// Woods and the like: blocks sight unless a unit stands in it, -2 or
    /// -1 to shots, 2 LNS off a vehicle's move.
    Vegetation,
    /// Blocks sight unless a unit stands on it; a shooter on it reaches 2
    /// rulers before long range.
    Hill,
    /// Walls, sandbags, ruins: -1 to a shot crossing it; costs no move.
    LightStructure,
    /// +1 defense for infantry in it; costs nothing.
    Crater,
}

impl TerrainKind {
    /// Its name in scenario files and on the text table.
    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::Vegetation => "vegetation",
            TerrainKind::Hill => "hill",
            TerrainKind::LightStructure => "light structure",
            TerrainKind::Crater => "crater",
        }
    }
}

/// A terrain piece: a polygon of a kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Terrain {
    /// Its kind.
    pub kind: TerrainKind,
    /// Its corners, in order.
    pub corners: Vec<Pt>,
}

/// A door or a window of a building element: a segment of its outline,
/// and the spaces behind it (R117).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Opening {
    /// A door (units pass) or a window (only lines and grenades do).
    pub kind: OpeningKind,
    /// One end, on the outline.
    pub a: Pt,
    /// The other end, on the outline.
    pub b: Pt,
    /// The spaces behind it, by index from 0.
    pub behind: Vec<u8>,
}

/// What an opening is (R117).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum OpeningKind {
    /// Units enter and leave by it; lines pass.
    #[default]
    Door,
    /// Lines and grenades pass.
    Window,
}

/// A building element (R117): a room or corridor, a polygon with a
/// defense (structure) and steps to ruin, its spaces (one unit each,
/// linked to their neighbours), its doors and windows, and the elements
/// whose fall brings it down (an X, R119).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub struct Element {
    /// Its name, for people.
    pub name: String,
    /// Its short id in commands (`RH`: its space 2 is `RH.2`); empty for
    /// the default, `E` and its number from 1 in the list.
    pub id: String,
    /// Its corners, in order.
    pub corners: Vec<Pt>,
    /// Its defense (R123).
    pub defense: u8,
    /// Steps until it is a ruin (R119); 0 for an element with an X, that
    /// falls only with another.
    pub steps: u8,
    /// Its spaces' centres, inside it; numbered from 1 in commands.
    pub spaces: Vec<Pt>,
    /// Linked spaces, by index from 0: a unit steps from one to the other.
    pub links: Vec<(u8, u8)>,
    /// Its doors and windows.
    pub openings: Vec<Opening>,
    /// Elements (by index) whose fall brings this one down (R119).
    pub falls_with: Vec<u8>,
}

/// A space's size: one round base's (R101, R117).
pub const SPACE_MM: u16 = 30;

/// The most spaces, links or openings of an element.
pub const MAX_SPACES: usize = 64;

/// The default id of element `i` (from 0): `E1`, `E2` ...
pub fn element_id(elements: &[Element], i: usize) -> String {
    if elements[i].id.is_empty() {
        format!("E{}", i + 1)
    } else {
        elements[i].id.clone()
    }
}

/// A side (R103).
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SideSetup {
    /// The player's name.
    pub name: String,
    /// The faction.
    pub faction: Faction,
    /// Its deck's 25 cards by id (R104); none: the faction's 30 less 5
    /// drawn by the dice.
    pub deck: Option<Vec<String>>,
    /// Whether the deck is played in the order given, top first, rather
    /// than shuffled by the dice (R104's `deck_order`).
    pub deck_order: bool,
}

impl SideSetup {
    /// A side of `faction`, named after it, its deck dealt by the dice.
    pub fn of(faction: Faction) -> SideSetup {
        SideSetup {
            name: format!("{faction:?}"),
            faction,
            deck: None,
            deck_order: false,
        }
    }
}

/// A unit where it starts.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct UnitSetup {
    /// Its short id in commands (`T1`): unique in the skirmish; empty for
    /// the default, the data's first letter and a number.
    pub id: String,
    /// Its data id (R150, R151).
    pub data: String,
    /// Its side, 0 or 1.
    pub side: u8,
    /// Its centre.
    pub at: Pt,
    /// An oval's facing, whole degrees counterclockwise from +x (R100).
    pub facing: i16,
    /// Whether it starts showing its back: only a unit named on both
    /// sides, whose owner picks (R104).
    pub back: bool,
    /// Whether it waits off the table to be deployed (R146): `at` is
    /// then not read.
    pub deploy: bool,
    /// A crate its side allotted it before the game (R143, Cameron): its
    /// content, known to its side alone until used.
    pub gear: Option<crate::crates::Content>,
}

#[cfg(test)]
impl UnitSetup {
    /// For the crate's tests: unit `id` of `data` for `side`, facing 0,
    /// its front showing, on the table at `x`, 100 mm.
    pub(crate) fn at_x(id: &str, data: &str, side: u8, x: i32) -> UnitSetup {
        UnitSetup {
            id: id.into(),
            data: data.into(),
            side,
            at: Pt::new(x, 100),
            facing: 0,
            back: false,
            deploy: false,
            gear: None,
        }
    }
}

/// How a skirmish is won, besides a side with no unit standing (R145).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Victory {
    /// On AP destroyed after the last turn (R145).
    #[default]
    Skirmish,
    /// 80% of the enemy list's AP destroyed (R146).
    Confrontation,
    /// The most crates banked, then AP destroyed, after the last turn or
    /// once no crate is left (R148).
    TreasureHunt,
    /// The attacker wins ending a turn with units over every objective's
    /// centre; it loses below 3 units standing, or after the last turn
    /// (R148).
    AttackDefense,
    /// Data recovery: a turn ended carrying the diskette on the
    /// teleprinter's space wins; after the last turn, AP destroyed
    /// (R147).
    DataRecovery,
    /// A game of Cameron: the attacker wins destroying the defender; the
    /// defender wins surviving the last turn. A match is two games with
    /// the roles swapped, won by more turns survived (R148).
    Cameron,
}

/// A skirmish as set up: everything [`crate::Game::new`] checks.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Setup {
    /// The table, width and depth in mm (R100).
    pub table: (u16, u16),
    /// The switches.
    pub switches: Switches,
    /// Terrain pieces.
    pub terrain: Vec<Terrain>,
    /// Building elements.
    pub elements: Vec<Element>,
    /// The two sides; the first is the first seat.
    pub sides: Vec<SideSetup>,
    /// The units.
    pub units: Vec<UnitSetup>,
    /// Game turns before the game ends on AP destroyed (R145).
    pub turns: u32,
    /// How it is won.
    pub victory: Victory,
    /// The most AP a side's list holds (R103); none: no limit.
    pub ap: Option<u32>,
    /// Where the equipment crates lie, 2 to 8 of them, or none (R143).
    pub crates: Vec<Pt>,
    /// Objectives' centres, 20 mm discs blocking nothing (R101, R148).
    pub objectives: Vec<Pt>,
    /// Attack/Defense's attacker, a side's index (R148).
    pub attacker: u8,
    /// Attack/Defense's attacker points against the defender's `ap`
    /// (R148).
    pub mode: crate::victory::Mode,
    /// Data recovery's diskette, where it lies (R147).
    pub diskette: Option<Pt>,
    /// Data recovery's teleprinter: an element and its space, from 0
    /// (R147).
    pub teleprinter: Option<(u8, u8)>,
    /// Where units deploy: none, touching their own long edge (R146);
    /// else wholly within this many mm of it (a scenario's own zone).
    pub deploy_mm: Option<u16>,
    /// The seed of the dice (R30).
    pub seed: u64,
}

impl Setup {
    /// The most AP side `side`'s list may hold (R103), `None` for no
    /// limit: the scenario's `ap`; an Attack/Defense attacker's by its
    /// `mode`, and a Cameron attacker's whole box, limited only by its
    /// officers (R148).
    pub fn ap_limit(&self, side: usize) -> Option<u32> {
        let ap = self.ap?;
        let attacking = side == usize::from(self.attacker);
        match self.victory {
            Victory::AttackDefense if attacking => Some(crate::victory::attacker_ap(ap, self.mode)),
            Victory::Cameron if attacking => None,
            _ => Some(ap),
        }
    }

    /// This table with its ground (the terrain and the building elements,
    /// their spaces and openings with them) turned half a turn about the
    /// table's centre, and nothing else moved: the units, the crates, the
    /// objectives, the diskette and each side's edge (R146) stay. So the
    /// two sides fight over each other's ground: the sides' zones
    /// exchanged, the terrain as it is, as a fair measure plays each deal
    /// both ways. Turning twice gives the table back.
    pub fn ground_turned(&self) -> Setup {
        let (w, d) = (i32::from(self.table.0), i32::from(self.table.1));
        let turn = |p: &mut Pt| *p = Pt::new(w - p.x, d - p.y);
        let mut out = self.clone();
        for t in &mut out.terrain {
            t.corners.iter_mut().for_each(turn);
        }
        for e in &mut out.elements {
            e.corners.iter_mut().for_each(turn);
            e.spaces.iter_mut().for_each(turn);
            for o in &mut e.openings {
                turn(&mut o.a);
                turn(&mut o.b);
            }
        }
        out
    }

    /// Each side that has units to deploy, with the depth of its strip
    /// along its edge in mm (R146): the scenario's zone (`deploy_mm`),
    /// else its largest base's depth and the contact distance, as a unit
    /// touching the edge reaches.
    pub fn deploy_strips(&self) -> Vec<(u8, i32)> {
        (0..self.sides.len() as u8)
            .filter_map(|side| {
                let deepest = self
                    .units
                    .iter()
                    .filter(|u| u.side == side && u.deploy)
                    .filter_map(|u| unit_data(&u.data))
                    .map(|d| i32::from(d.base.size_mm().0))
                    .max()?;
                Some((
                    side,
                    self.deploy_mm
                        .map_or(deepest + i32::from(self.switches.contact_mm), i32::from),
                ))
            })
            .collect()
    }
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            table: (1219, 610),
            switches: Switches::default(),
            terrain: Vec::new(),
            elements: Vec::new(),
            sides: Vec::new(),
            units: Vec::new(),
            turns: 12,
            victory: Victory::Skirmish,
            ap: None,
            crates: Vec::new(),
            objectives: Vec::new(),
            attacker: 0,
            mode: crate::victory::Mode::default(),
            diskette: None,
            teleprinter: None,
            deploy_mm: None,
            seed: 0,
        }
    }
}

/// A unit's footprint at a centre and facing (R101).
pub fn footprint(data: &UnitData, at: Pt, facing: i16) -> Footprint {
    match data.base {
        Base::Oval => {
            let (l, w) = data.base.size_mm();
            Footprint::stadium(at, l, w, facing)
        }
        base => Footprint::disc(at, base.size_mm().0),
    }
}

/// The problems found, kept up to [`MAX_PROBLEMS_KEPT`].
struct Problems(Vec<SetupProblem>, usize);

impl Problems {
    fn add(&mut self, path: impl Into<String>, ruling: Option<u16>, message: impl Into<String>) {
        if self.0.len() < MAX_PROBLEMS_KEPT {
            self.0.push(SetupProblem {
                path: path.into(),
                ruling: ruling.map(Ruling),
                message: message.into(),
            });
        } else {
            self.1 += 1;
        }
    }
}

/// Whether a polygon's corners make a simple polygon of some area: at
/// least 3, no two sides crossing but neighbours at their shared corner.
fn polygon_problem(corners: &[Pt]) -> Option<String> {
    if corners.len() < 3 {
        return Some(format!(
            "a polygon needs at least 3 corners, not {}",
            corners.len()
        ));
    }
    if corners.len() > MAX_CORNERS {
        return Some(format!(
            "{} corners: a polygon has at most {MAX_CORNERS}",
            corners.len()
        ));
    }
    let v: Vec<V> = corners.iter().map(|p| p.v()).collect();
    let sides = edges(&v);
    let n = sides.len();
    for i in 0..n {
        for j in i + 1..n {
            let neighbours = j == i + 1 || (i == 0 && j == n - 1);
            if !neighbours && segment_segment(sides[i].0, sides[i].1, sides[j].0, sides[j].1) < EPS
            {
                return Some(format!(
                    "its sides {} and {} cross: a polygon's sides may not",
                    i + 1,
                    j + 1
                ));
            }
        }
    }
    let twice_area: f64 = (0..v.len()).map(|i| v[i].cross(v[(i + 1) % v.len()])).sum();
    if twice_area.abs() < 1.0 {
        return Some("the polygon has no area".into());
    }
    None
}

/// The problems of element `i`'s id, spaces, links, openings and ties.
fn element_problems(setup: &Setup, i: usize, p: &mut Problems) {
    let e = &setup.elements[i];
    let at = format!("buildings[{i}]");
    let id = element_id(&setup.elements, i);
    if !e.id.is_empty() && !id_ok(&e.id) {
        p.add(
            format!("{at}.id"),
            None,
            format!(
                "{:?} is not a short id: 1 to 4 capitals and digits, a capital first",
                e.id
            ),
        );
    } else if let Some(first) = (0..i).find(|k| element_id(&setup.elements, *k) == id) {
        p.add(
            format!("{at}.id"),
            None,
            format!("{id} is also buildings[{first}]'s id"),
        );
    }
    for (what, n) in [
        ("spaces", e.spaces.len()),
        ("links", e.links.len()),
        ("openings", e.openings.len()),
    ] {
        if n > MAX_SPACES {
            p.add(
                format!("{at}.{what}"),
                None,
                format!("{n} entries: at most {MAX_SPACES}"),
            );
            return;
        }
    }
    let simple = polygon_problem(&e.corners).is_none();
    let n = e.spaces.len();
    // A space holds one round base (R101, R117): its 30 mm disc lies
    // wholly inside the element, apart from the others.
    let outline_shape = Footprint::Polygon(e.corners.clone()).shape();
    for (k, sp) in e.spaces.iter().enumerate() {
        let disc = Footprint::disc(*sp, SPACE_MM).shape();
        if simple
            && (!point_in(*sp, &e.corners)
                || edges(&outline_shape.core).iter().any(|(a, b)| {
                    crate::geometry::point_segment(sp.v(), *a, *b) < f64::from(SPACE_MM) / 2.0 - EPS
                }))
        {
            p.add(
                format!("{at}.spaces[{k}]"),
                Some(117),
                format!(
                    "the space at {sp} is not wholly inside the element {}: a space holds a {SPACE_MM} mm base",
                    e.name
                ),
            );
        }
        if let Some(j) = e.spaces[..k]
            .iter()
            .position(|o| overlaps(&disc, &Footprint::disc(*o, SPACE_MM).shape()))
        {
            p.add(
                format!("{at}.spaces[{k}]"),
                Some(117),
                format!("the space at {sp} overlaps space {} of {}", j + 1, e.name),
            );
        }
    }
    for (k, (a, b)) in e.links.iter().enumerate() {
        if usize::from(*a) >= n || usize::from(*b) >= n || a == b {
            p.add(
                format!("{at}.links[{k}]"),
                Some(117),
                format!(
                    "({}, {}) does not link two of its {n} spaces (numbered from 1)",
                    u16::from(*a) + 1,
                    u16::from(*b) + 1
                ),
            );
        }
    }
    let outline: Vec<V> = e.corners.iter().map(|c| c.v()).collect();
    let on_outline = |q: Pt| {
        edges(&outline)
            .iter()
            .any(|(a, b)| crate::geometry::point_segment(q.v(), *a, *b) <= 1.0)
    };
    for (k, o) in e.openings.iter().enumerate() {
        let path = format!("{at}.openings[{k}]");
        if simple && (!on_outline(o.a) || !on_outline(o.b)) {
            p.add(
                path.clone(),
                Some(117),
                format!(
                    "the {} from {} to {} is not on the outline of {}",
                    if o.kind == OpeningKind::Door {
                        "door"
                    } else {
                        "window"
                    },
                    o.a,
                    o.b,
                    e.name
                ),
            );
        }
        if o.a == o.b {
            p.add(path.clone(), Some(117), "an opening has two different ends");
        }
        if (1..o.behind.len()).any(|m| o.behind[..m].contains(&o.behind[m])) {
            p.add(
                format!("{path}.behind"),
                Some(117),
                "a space is listed twice behind one opening",
            );
        }
        if k > 0 && o.kind == OpeningKind::Door && e.openings[k - 1].kind == OpeningKind::Window {
            p.add(
                path.clone(),
                None,
                "an element lists its doors, then its windows",
            );
        }
        if o.behind.is_empty() || o.behind.iter().any(|s| usize::from(*s) >= n) {
            p.add(
                format!("{path}.behind"),
                Some(117),
                format!("an opening has one or more of the element's {n} spaces behind it (numbered from 1)"),
            );
        }
    }
    for (k, f) in e.falls_with.iter().enumerate() {
        if usize::from(*f) >= setup.elements.len() || usize::from(*f) == i {
            p.add(
                format!("{at}.falls_with[{k}]"),
                Some(119),
                "names no other element of the table",
            );
        }
    }
}

/// Whether `shape` lies wholly on a table of `table` mm.
pub fn on_table(shape: &Shape, table: (u16, u16)) -> bool {
    shape.core.iter().all(|p| {
        p.x - shape.radius >= -EPS
            && p.y - shape.radius >= -EPS
            && p.x + shape.radius <= f64::from(table.0) + EPS
            && p.y + shape.radius <= f64::from(table.1) + EPS
    })
}

/// Whether an id is a short id: 1 to 4 ASCII capitals and digits, a
/// capital first.
pub fn id_ok(id: &str) -> bool {
    (1..=4).contains(&id.len())
        && id.starts_with(|c: char| c.is_ascii_uppercase())
        && id
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// The default id of a unit of `data`: its short name's first letter in
/// capitals and the next number free for that letter.
pub(crate) fn default_ids(units: &[UnitSetup]) -> Vec<String> {
    let given: Vec<&str> = units.iter().map(|u| u.id.as_str()).collect();
    let mut out = Vec::with_capacity(units.len());
    let mut taken: Vec<String> = given
        .iter()
        .filter(|g| !g.is_empty())
        .map(|g| (*g).to_owned())
        .collect();
    for u in units {
        if !u.id.is_empty() {
            out.push(u.id.clone());
            continue;
        }
        let letter = unit_data(&u.data)
            .and_then(|d| d.short_name().chars().next())
            .map_or('U', |c| c.to_ascii_uppercase());
        let id = (1..)
            .map(|n| format!("{letter}{n}"))
            .find(|id| !taken.contains(id))
            .expect("a free number");
        taken.push(id.clone());
        out.push(id);
    }
    out
}

impl Setup {
    /// Every problem of the setup, each with its field path and ruling.
    pub fn check(&self) -> Result<(), SetupError> {
        let mut p = Problems(Vec::new(), 0);
        let (w, d) = self.table;
        if !(100..=MAX_TABLE_MM).contains(&w) || !(100..=MAX_TABLE_MM).contains(&d) {
            p.add(
                "table",
                Some(100),
                format!("a table is 100 to {MAX_TABLE_MM} mm each way, not {w} x {d}"),
            );
        }
        let s = &self.switches;
        if !(10..=100).contains(&s.lns_mm) {
            p.add(
                "switches.lns_mm",
                Some(100),
                format!("a LNS is 10 to 100 mm, not {}", s.lns_mm),
            );
        }
        if !(1..=20).contains(&s.ruler_lns) {
            p.add(
                "switches.ruler_lns",
                Some(100),
                format!("a ruler is 1 to 20 LNS, not {}", s.ruler_lns),
            );
        }
        if s.contact_mm > 10 {
            p.add(
                "switches.contact_mm",
                Some(102),
                format!("contact is at most 10 mm apart, not {}", s.contact_mm),
            );
        }
        if !(1..=MAX_TURNS).contains(&self.turns) {
            p.add(
                "turns",
                Some(145),
                format!(
                    "a skirmish lasts 1 to {MAX_TURNS} turns, not {}",
                    self.turns
                ),
            );
        }
        if self.terrain.len() > MAX_PIECES {
            p.add(
                "terrain",
                None,
                format!("{} pieces: at most {MAX_PIECES}", self.terrain.len()),
            );
        }
        for (i, t) in self.terrain.iter().enumerate().take(MAX_PIECES) {
            if let Some(why) = polygon_problem(&t.corners) {
                p.add(format!("terrain[{i}].corners"), Some(101), why);
            }
        }
        if self.elements.len() > MAX_PIECES {
            p.add(
                "buildings",
                None,
                format!("{} elements: at most {MAX_PIECES}", self.elements.len()),
            );
        }
        for (i, e) in self.elements.iter().enumerate().take(MAX_PIECES) {
            if let Some(why) = name_problem(&e.name) {
                p.add(format!("buildings[{i}].name"), None, why);
            }
            if let Some(why) = polygon_problem(&e.corners) {
                p.add(format!("buildings[{i}].corners"), Some(117), why);
            }
            if e.steps == 0 && e.falls_with.is_empty() {
                p.add(
                    format!("buildings[{i}].steps"),
                    Some(119),
                    "an element takes at least 1 step to ruin, unless it falls with another (an X)",
                );
            }
            if e.steps > 0 && e.defense == 0 {
                p.add(
                    format!("buildings[{i}].defense"),
                    Some(123),
                    "an element that takes steps has a defense of 1 or more",
                );
            }
            element_problems(self, i, &mut p);
        }
        if self.sides.len() != 2 {
            p.add(
                "sides",
                Some(103),
                format!("a skirmish has 2 sides, not {}", self.sides.len()),
            );
        }
        for (i, side) in self.sides.iter().enumerate() {
            if let Some(why) = name_problem(&side.name) {
                p.add(format!("sides[{i}].name"), None, why);
            }
        }
        if self.sides.len() == 2 && self.sides[0].name == self.sides[1].name {
            p.add("sides[1].name", None, "both sides have the same name");
        }
        if self.units.len() > MAX_UNITS {
            p.add(
                "units",
                None,
                format!("{} units: at most {MAX_UNITS}", self.units.len()),
            );
        }
        let units = &self.units[..self.units.len().min(MAX_UNITS)];
        let ids = default_ids(units);
        let mut placed: Vec<(usize, Shape, bool)> = Vec::new();
        let mut sides_with_units = [false; 2];
        for (i, u) in units.iter().enumerate() {
            let at = format!("units[{i}]");
            if !u.id.is_empty() && !id_ok(&u.id) {
                p.add(
                    format!("{at}.id"),
                    None,
                    format!(
                        "{:?} is not a short id: 1 to 4 capitals and digits, a capital first",
                        u.id
                    ),
                );
            } else if let Some(first) = ids[..i].iter().position(|o| *o == ids[i]) {
                p.add(
                    format!("{at}.id"),
                    None,
                    format!("{} is also units[{first}]'s id", ids[i]),
                );
            }
            let Some(data) = unit_data(&u.data) else {
                p.add(
                    format!("{at}.data"),
                    Some(150),
                    format!(
                        "no unit has the data id {:?}: the ids are those of R150 and R151, as `lg_trooper`",
                        u.data
                    ),
                );
                continue;
            };
            let side = usize::from(u.side);
            if side >= self.sides.len().max(2) {
                p.add(
                    format!("{at}.side"),
                    Some(103),
                    format!("side {} does not exist: the sides are 0 and 1", u.side),
                );
                continue;
            }
            if let Some(s) = self.sides.get(side) {
                if s.faction != data.faction {
                    p.add(
                        format!("{at}.data"),
                        Some(103),
                        format!(
                            "{} is a {:?} unit, and side {} ({}) is {:?}",
                            data.id, data.faction, u.side, s.name, s.faction
                        ),
                    );
                }
                sides_with_units[side] = true;
            }
            if u.back && data.other_form.is_none() {
                p.add(
                    format!("{at}.back"),
                    Some(104),
                    format!(
                        "{} ({}) starts face up: only a unit named on both sides starts on its back",
                        ids[i], data.id
                    ),
                );
            }
            if let Some(c) = u.gear {
                use crate::crates::Content;
                if data.is_vehicle() {
                    p.add(
                        format!("{at}.gear"),
                        Some(143),
                        format!("{} is a vehicle: only infantry carries a crate", ids[i]),
                    );
                } else if c == Content::Trap {
                    p.add(
                        format!("{at}.gear"),
                        Some(144),
                        "a trap springs on whoever opens it: it is not allotted to a unit",
                    );
                } else if let Some(first) = units[..i].iter().position(|o| o.gear == Some(c)) {
                    p.add(
                        format!("{at}.gear"),
                        Some(143),
                        format!(
                            "the {} is also units[{first}]'s: the ten contents are one each",
                            c.name()
                        ),
                    );
                }
            }
            if !(-360..=360).contains(&u.facing) {
                p.add(
                    format!("{at}.facing"),
                    Some(100),
                    format!("a facing is -360 to 360 degrees, not {}", u.facing),
                );
            }
            if u.deploy {
                // Off the table until deployed (R146).
                continue;
            }
            let shape = footprint(data, u.at, u.facing).shape();
            if !on_table(&shape, self.table) {
                p.add(
                    format!("{at}.at"),
                    Some(101),
                    format!("{} at {} is not wholly on the table", ids[i], u.at),
                );
            }
            for (j, other, _) in &placed {
                if overlaps(&shape, other) {
                    p.add(
                        format!("{at}.at"),
                        Some(101),
                        format!("{} at {} overlaps units[{j}] ({})", ids[i], u.at, ids[*j]),
                    );
                }
            }
            for (k, e) in self.elements.iter().enumerate().take(MAX_PIECES) {
                if polygon_problem(&e.corners).is_none() {
                    let building = Footprint::Polygon(e.corners.clone()).shape();
                    if overlaps(&shape, &building) {
                        p.add(
                            format!("{at}.at"),
                            Some(117),
                            format!(
                                "{} at {} stands in the building element {} (buildings[{k}]); units stand outdoors",
                                ids[i], u.at, e.name
                            ),
                        );
                    }
                }
            }
            placed.push((i, shape, data.is_vehicle()));
        }
        if !self.crates.is_empty() && !crate::crates::CRATES.contains(&(self.crates.len() as u8)) {
            p.add(
                "crates",
                Some(143),
                format!("{} crates: a skirmish has 2 to 8", self.crates.len()),
            );
        }
        let allotted = units.iter().filter(|u| u.gear.is_some()).count();
        if allotted > 0 && self.crates.len() + allotted > usize::from(*crate::crates::CRATES.end())
        {
            p.add(
                "units",
                Some(143),
                format!(
                    "{} crates lie on the table and {allotted} are allotted to units: a skirmish has at most {}",
                    self.crates.len(),
                    crate::crates::CRATES.end()
                ),
            );
        }
        for (k, c) in self.crates.iter().enumerate().take(16) {
            let disc = Footprint::disc(*c, crate::crates::CRATE_MM).shape();
            if !on_table(&disc, self.table) {
                p.add(
                    format!("crates[{k}]"),
                    Some(101),
                    format!("the crate at {c} is not wholly on the table"),
                );
            }
        }
        if self.victory == Victory::TreasureHunt && self.crates.is_empty() {
            p.add("crates", Some(148), "a treasure hunt needs its crates");
        }
        if self.victory == Victory::AttackDefense && self.objectives.is_empty() {
            p.add("objectives", Some(148), "an attack needs its objectives");
        }
        // Read wherever a side is attacked or defended (R148), whatever the
        // victory: side 0 or 1, never another.
        if self.attacker > 1 {
            p.add(
                "attacker",
                Some(148),
                format!(
                    "side {} is no side: the attacker is side 0 or 1",
                    self.attacker
                ),
            );
        }
        if self.objectives.len() > 8 {
            p.add(
                "objectives",
                None,
                format!("{} objectives: at most 8", self.objectives.len()),
            );
        }
        for (k, c) in self.objectives.iter().enumerate().take(16) {
            let disc = Footprint::disc(*c, crate::crates::CRATE_MM).shape();
            if !on_table(&disc, self.table) {
                p.add(
                    format!("objectives[{k}]"),
                    Some(101),
                    format!("the objective at {c} is not wholly on the table"),
                );
            }
        }
        // A diskette, wherever given, lies on the table: the game places
        // it (R101, R147).
        if let Some(c) = self.diskette {
            let disc = Footprint::disc(c, crate::crates::CRATE_MM).shape();
            if !on_table(&disc, self.table) {
                p.add(
                    "diskette",
                    Some(101),
                    format!("the diskette at {c} is not wholly on the table"),
                );
            }
        }
        if self.victory == Victory::DataRecovery {
            if self.diskette.is_none() {
                p.add("diskette", Some(147), "a data recovery needs its diskette");
            }
            if self.teleprinter.is_none() {
                p.add(
                    "teleprinter",
                    Some(147),
                    "a data recovery needs its teleprinter: a space of a building",
                );
            }
        }
        // A teleprinter, wherever given, is a space that exists: it is
        // named and drawn by it (R147).
        if let Some((e, k)) = self.teleprinter {
            let ok = self
                .elements
                .get(usize::from(e))
                .is_some_and(|el| usize::from(k) < el.spaces.len());
            if !ok {
                p.add(
                    "teleprinter",
                    Some(147),
                    format!(
                        "element {} space {} is no building's space (elements and spaces counted from 0 here; {} elements)",
                        e,
                        k,
                        self.elements.len()
                    ),
                );
            }
        }
        // Every list, with `ap` or without, holds its officers and starred
        // units within R103's limits; `ap` caps the total only. A unit of
        // the other faction is refused at its `data` above.
        for (side, s) in self.sides.iter().enumerate().take(2) {
            let list: Vec<&UnitData> = units
                .iter()
                .filter(|u| usize::from(u.side) == side)
                .filter_map(|u| unit_data(&u.data))
                .filter(|d| d.faction == s.faction)
                .collect();
            // Each problem names the side's list, and a unit by its
            // place in that list.
            let limit = self.ap_limit(side).unwrap_or(u32::MAX);
            for problem in
                crate::army::list_problems(&format!("{}'s list", s.name), s.faction, &list, limit)
            {
                p.add(problem.path, problem.ruling.map(|r| r.0), problem.message);
            }
        }
        for (side, has) in sides_with_units.iter().enumerate() {
            if self.sides.len() == 2 && !has {
                p.add(
                    "units",
                    Some(103),
                    format!("side {side} ({}) has no unit", self.sides[side].name),
                );
            }
        }
        if p.0.is_empty() {
            Ok(())
        } else {
            Err(SetupError {
                problems: p.0,
                more: p.1,
            })
        }
    }
}

/// Whether `p` lies inside the polygon `corners`.
pub fn point_in(p: Pt, corners: &[Pt]) -> bool {
    let v: Vec<V> = corners.iter().map(|c| c.v()).collect();
    inside(p.v(), &v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_sides() -> Vec<SideSetup> {
        vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)]
    }

    fn unit(data: &str, side: u8, x: i32, y: i32) -> UnitSetup {
        UnitSetup {
            id: String::new(),
            data: data.into(),
            side,
            at: Pt::new(x, y),
            facing: 0,
            back: false,
            deploy: false,
            gear: None,
        }
    }

    #[test]
    fn r101_units_on_the_table_and_apart_with_default_ids() {
        let setup = Setup {
            sides: two_sides(),
            units: vec![
                unit("lg_trooper", 0, 100, 100),
                unit("lg_trooper", 0, 130, 100), // touching: allowed
                unit("zr_brute", 1, 500, 500),
            ],
            ..Setup::default()
        };
        assert_eq!(setup.check(), Ok(()));
        assert_eq!(default_ids(&setup.units), ["T1", "T2", "B1"]);
        let bad = Setup {
            units: vec![
                unit("lg_trooper", 0, 100, 100),
                unit("lg_trooper", 0, 129, 100),
                unit("zr_brute", 1, 5, 500),
                unit("zr_nobody", 1, 300, 300),
                unit("zr_brute", 0, 400, 300),
            ],
            ..setup
        };
        let e = bad.check().unwrap_err().to_string();
        assert!(
            e.contains("units[1].at: T2 at 129,100 overlaps units[0] (T1) (R101)"),
            "{e}"
        );
        assert!(
            e.contains("units[2].at: B1 at 5,500 is not wholly on the table (R101)"),
            "{e}"
        );
        assert!(e.contains("units[3].data: no unit has the data id \"zr_nobody\""));
        assert!(
            e.contains(
                "units[4].data: zr_brute is a Zirl unit, and side 0 (Legion) is Legion (R103)"
            ),
            "{e}"
        );
    }

    #[test]
    fn r103_officers_and_starred_units_are_limited_in_every_list_ap_caps_the_total_only() {
        // A 480 AP Legion list: troopers to make up the points.
        let list = |extra: &[&str]| {
            let mut units: Vec<UnitSetup> = extra
                .iter()
                .enumerate()
                .map(|(k, d)| unit(d, 0, 60 + 40 * k as i32, 60))
                .collect();
            let mut ap: u32 = extra
                .iter()
                .map(|d| u32::from(unit_data(d).expect("data").ap))
                .sum();
            let mut k = 0;
            while ap + 15 <= 480 {
                units.push(unit(
                    "lg_trooper",
                    0,
                    60 + 40 * (k % 25),
                    120 + 40 * (k / 25),
                ));
                ap += 15;
                k += 1;
            }
            units.push(unit("zr_brute", 1, 600, 550));
            units
        };
        let problems = |units: Vec<UnitSetup>, ap: Option<u32>| {
            Setup {
                sides: two_sides(),
                units,
                ap,
                ..Setup::default()
            }
            .check()
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default()
        };
        for ap in [None, Some(1000)] {
            let e = problems(list(&["lg_captain", "lg_captain"]), ap);
            assert!(
                e.contains("Legion's list: 2 lg_captains: a list has one (R103)"),
                "{ap:?}: {e}"
            );
            let e = problems(list(&["lg_hero", "lg_hero"]), ap);
            assert!(
                e.contains("Legion's list[1]: lg_hero is starred: a list holds it once (R103)"),
                "{ap:?}: {e}"
            );
            let e = problems(
                list(&["lg_lieutenant", "lg_lieutenant", "lg_lieutenant"]),
                ap,
            );
            assert!(
                e.contains("3 lg_lieutenants: a list of 480 AP has at most 2 (2 each started 500 AP) (R103)"),
                "{ap:?}: {e}"
            );
            // Within the limits: valid, with `ap` or without.
            assert_eq!(
                problems(list(&["lg_captain", "lg_lieutenant", "lg_hero"]), ap),
                ""
            );
        }
        // `ap` caps the total.
        let e = problems(list(&[]), Some(400));
        assert!(
            e.contains("Legion's list: the list is 480 AP, over the scenario's 400 (R103)"),
            "{e}"
        );
    }

    #[test]
    fn r147_r148_an_attacker_teleprinter_or_diskette_out_of_range_is_refused_whatever_the_victory()
    {
        let setup = Setup {
            sides: two_sides(),
            units: vec![
                unit("lg_trooper", 0, 100, 100),
                unit("zr_brute", 1, 500, 500),
            ],
            ..Setup::default()
        };
        assert_eq!(setup.check(), Ok(()));
        for victory in [Victory::Skirmish, Victory::Cameron] {
            let bad = Setup {
                victory,
                attacker: 2,
                teleprinter: Some((0, 0)),
                diskette: Some(Pt::new(-50, 100)),
                ..setup.clone()
            };
            let e = bad.check().unwrap_err().to_string();
            assert!(
                e.contains("attacker: side 2 is no side: the attacker is side 0 or 1 (R148)"),
                "{e}"
            );
            assert!(
                e.contains("teleprinter: element 0 space 0 is no building's space"),
                "{e}"
            );
            assert!(
                e.contains("diskette: the diskette at -50,100 is not wholly on the table (R101)"),
                "{e}"
            );
        }
    }

    /// Turning the ground half a turn (a fair measure's second game of a
    /// deal) moves the terrain and the buildings, their spaces and
    /// openings, and nothing of the sides: turned twice it is as set.
    #[test]
    fn the_ground_turned_half_a_turn_moves_the_terrain_and_buildings_only() {
        let setup = Setup {
            table: (1000, 600),
            sides: two_sides(),
            units: vec![unit("lg_trooper", 0, 100, 100)],
            terrain: vec![Terrain {
                kind: TerrainKind::Hill,
                corners: vec![Pt::new(100, 400), Pt::new(300, 400), Pt::new(200, 550)],
            }],
            elements: vec![Element {
                corners: vec![
                    Pt::new(600, 100),
                    Pt::new(700, 100),
                    Pt::new(700, 200),
                    Pt::new(600, 200),
                ],
                spaces: vec![Pt::new(650, 150)],
                openings: vec![Opening {
                    a: Pt::new(640, 100),
                    b: Pt::new(660, 100),
                    behind: vec![0],
                    ..Opening::default()
                }],
                ..Element::default()
            }],
            objectives: vec![Pt::new(500, 80)],
            ..Setup::default()
        };
        let turned = setup.ground_turned();
        assert_eq!(
            turned.terrain[0].corners,
            [Pt::new(900, 200), Pt::new(700, 200), Pt::new(800, 50)]
        );
        let e = &turned.elements[0];
        assert_eq!(e.corners[0], Pt::new(400, 500));
        assert_eq!(e.spaces, [Pt::new(350, 450)]);
        assert_eq!(
            (e.openings[0].a, e.openings[0].b),
            (Pt::new(360, 500), Pt::new(340, 500))
        );
        assert_eq!(turned.units, setup.units, "the units stay");
        assert_eq!(turned.objectives, setup.objectives, "the sides' goals stay");
        assert_eq!(turned.ground_turned(), setup);
    }

    #[test]
    fn polygons_are_simple_and_have_area() {
        let bow = [
            Pt::new(0, 0),
            Pt::new(10, 10),
            Pt::new(10, 0),
            Pt::new(0, 10),
        ];
        assert!(polygon_problem(&bow).unwrap().contains("cross"));
        let flat = [Pt::new(0, 0), Pt::new(10, 0), Pt::new(20, 0)];
        assert!(polygon_problem(&flat).unwrap().contains("no area"));
        let ok = [Pt::new(0, 0), Pt::new(10, 0), Pt::new(10, 10)];
        assert_eq!(polygon_problem(&ok), None);
    }
}
