//! What a battle starts from (R60-R64, R81's switches): the map and its
//! terrain, the two sides, the pieces of each hex and the house rules,
//! checked in full before a [`crate::Game`] can exist. Reading files is left
//! to the scenario crate.

use std::fmt;

use sandtable_core::game::Ruling;
use serde::{Deserialize, Serialize};

use crate::hex::{Edge, Hex, MAX_MAP_SIDE, Map};
use crate::off_map::OffMap;

pub use crate::pieces::PiecesSetup;

/// The longest battle, in game turns (R64).
pub const MAX_TURNS: u32 = 1_000;

/// The most pieces entries a setup may hold (one entry a hex a side).
pub const MAX_PIECE_ENTRIES: usize = 20_000;

/// The most men of one kind, or officers, an entry may hold: far above
/// R62's limits, so that an entry over them is reported, not cut.
pub const MAX_COUNT: u16 = 10_000;

pub use sandtable_core::setup::{MAX_PROBLEMS_KEPT, SetupError, SetupProblem};

/// What a hex is for movement, fire and melee (R60).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Cover {
    /// Fields, roads, bridges.
    Clear,
    /// Trees, buildings, bocage, low walls.
    Covered,
    /// Forts, trenches.
    Fortified,
    /// Water, rivers, mountains: nothing enters.
    Impassable,
}

/// The terrain of a hex, by the seed's names (R60).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Terrain {
    /// Open fields: clear (the default).
    Fields,
    /// A road: clear.
    Road,
    /// A bridge: clear.
    Bridge,
    /// Trees: covered.
    Trees,
    /// Buildings: covered.
    Buildings,
    /// Bocage: covered.
    Bocage,
    /// A low wall: covered.
    LowWall,
    /// A fort: fortified.
    Fort,
    /// A trench: fortified.
    Trench,
    /// Water: impassable.
    Water,
    /// A river: impassable.
    River,
    /// A mountain: impassable, and it blocks direct fire (R66).
    Mountain,
}

impl Terrain {
    /// The terrain in the rules' words, as the labels say it: "low wall",
    /// not `LowWall`.
    pub fn words(self) -> &'static str {
        match self {
            Terrain::Fields => "fields",
            Terrain::Road => "road",
            Terrain::Bridge => "bridge",
            Terrain::Trees => "trees",
            Terrain::Buildings => "buildings",
            Terrain::Bocage => "bocage",
            Terrain::LowWall => "low wall",
            Terrain::Fort => "fort",
            Terrain::Trench => "trench",
            Terrain::Water => "water",
            Terrain::River => "river",
            Terrain::Mountain => "mountain",
        }
    }

    /// Every terrain, in the order of R60.
    pub const ALL: [Terrain; 12] = [
        Terrain::Fields,
        Terrain::Road,
        Terrain::Bridge,
        Terrain::Trees,
        Terrain::Buildings,
        Terrain::Bocage,
        Terrain::LowWall,
        Terrain::Fort,
        Terrain::Trench,
        Terrain::Water,
        Terrain::River,
        Terrain::Mountain,
    ];

    /// Its class (R60).
    pub const fn cover(self) -> Cover {
        match self {
            Terrain::Fields | Terrain::Road | Terrain::Bridge => Cover::Clear,
            Terrain::Trees | Terrain::Buildings | Terrain::Bocage | Terrain::LowWall => {
                Cover::Covered
            }
            Terrain::Fort | Terrain::Trench => Cover::Fortified,
            Terrain::Water | Terrain::River | Terrain::Mountain => Cover::Impassable,
        }
    }

    /// Whether a line of fire over it is indirect (R66): covered,
    /// fortified and mountains; water and rivers do not block.
    pub const fn blocks_fire(self) -> bool {
        matches!(self.cover(), Cover::Covered | Cover::Fortified)
            || matches!(self, Terrain::Mountain)
    }

    /// Its name as scenario files write it.
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Fields => "Fields",
            Terrain::Road => "Road",
            Terrain::Bridge => "Bridge",
            Terrain::Trees => "Trees",
            Terrain::Buildings => "Buildings",
            Terrain::Bocage => "Bocage",
            Terrain::LowWall => "LowWall",
            Terrain::Fort => "Fort",
            Terrain::Trench => "Trench",
            Terrain::Water => "Water",
            Terrain::River => "River",
            Terrain::Mountain => "Mountain",
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A result of the melee table (R74, R75).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MeleeResult {
    /// The side with the higher strength wins and loses no men.
    V,
    /// The side with the higher strength wins.
    H,
    /// The side with the lower strength wins.
    L,
    /// Stalemate: both lose half the smaller force, no casualty roll.
    B,
    /// The attacker wins.
    A,
    /// The defender wins.
    D,
}

/// The melee table's rows (R74, R75), highest ratio first: 4:1, 3:1, 2:1,
/// 3:2 and the even row, six results each for rolls 1 to 6. Switch
/// `melee_rows`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct MeleeRows(pub [[MeleeResult; 6]; 5]);

impl MeleeRows {
    /// The rows' names, in order.
    pub const NAMES: [&'static str; 5] = ["4:1", "3:1", "2:1", "3:2", "even"];
}

impl Default for MeleeRows {
    /// The seed's table with R75's reconstructed even row.
    fn default() -> MeleeRows {
        use MeleeResult::*;
        MeleeRows([
            [V, V, V, H, H, H],
            [V, V, H, H, H, B],
            [V, H, H, H, B, L],
            [H, H, H, B, L, L],
            [A, A, B, D, D, D],
        ])
    }
}

/// What happens below 3:2 (R75, switch `even_row`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EvenRow {
    /// The even row of `melee_rows` is used.
    #[default]
    Reconstructed,
    /// No attack below 3:2 is allowed.
    Refused,
}

/// How half the smaller force is rounded (R76, switch `half_round`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum HalfRound {
    /// Rounded down.
    #[default]
    Down,
    /// Rounded up.
    Up,
}

/// How a rally roll of 2 or less reads (R79, switch `rally_low`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RallyLow {
    /// The routers rally.
    #[default]
    Rally,
    /// They flee on.
    Flee,
}

/// The house rules a scenario may switch (the rulings' switches), with the
/// rulings' defaults.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub struct Switches<G: OffMap> {
    /// Cannon range in hexes, 1 to 6 (R65).
    pub cannon_range: u8,
    /// The melee table (R74, R75).
    pub melee_rows: MeleeRows,
    /// Below 3:2 (R75).
    pub even_row: EvenRow,
    /// Half the smaller force (R76).
    pub half_round: HalfRound,
    /// A rally roll of 2 or less (R79).
    pub rally_low: RallyLow,
    /// The game ends with the player turn in which a flag is captured (R81).
    pub capture_the_flag: bool,
    /// The house rules of the system off the map; only with one.
    pub off_map: G::Switches,
}

impl<G: OffMap> Default for Switches<G> {
    fn default() -> Switches<G> {
        Switches {
            cannon_range: 6,
            melee_rows: MeleeRows::default(),
            even_row: EvenRow::default(),
            half_round: HalfRound::default(),
            rally_low: RallyLow::default(),
            capture_the_flag: false,
            off_map: Default::default(),
        }
    }
}

/// One side of the battle.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SideSetup {
    /// The side's name.
    pub name: String,
    /// The map edge it came from, where its routers flee (R60, R80).
    pub home: Edge,
    /// Where its pieces may start (R60).
    pub deployment: Vec<Hex>,
    /// The most points it may spend (R61, default 100).
    pub points: u32,
}

/// Everything a battle starts from, before validation.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub struct Setup<G: OffMap> {
    /// The map's size.
    pub map: Map,
    /// Terrain by hex; a hex not listed is fields. A later entry for the
    /// same hex is a problem.
    pub terrain: Vec<(Hex, Terrain)>,
    /// The two sides.
    pub sides: Vec<SideSetup>,
    /// The pieces, an entry a hex a side.
    pub pieces: Vec<PiecesSetup>,
    /// Game turns (R64, default 10).
    pub turns: u32,
    /// The seed of the game's dice (R30).
    pub seed: u64,
    /// The side that plays first; `None` tosses the seeded coin (R64).
    pub first_player: Option<usize>,
    /// House rules.
    pub switches: Switches<G>,
    /// The system off the map, if the battle has one: the off-board grid
    /// round it (R40-R57).
    pub offboard: Option<G::Setup>,
}

struct Problems {
    kept: Vec<SetupProblem>,
    more: usize,
}

impl Problems {
    fn add(&mut self, path: impl Into<String>, ruling: Option<u16>, message: impl Into<String>) {
        if self.kept.len() < MAX_PROBLEMS_KEPT {
            self.kept.push(SetupProblem {
                path: path.into(),
                ruling: ruling.map(Ruling),
                message: message.into(),
            });
        } else {
            self.more += 1;
        }
    }
}

/// The terrain of every hex, column by column, once a setup is valid.
pub(crate) fn terrain_grid<G: OffMap>(setup: &Setup<G>) -> Vec<Terrain> {
    let mut grid = vec![Terrain::Fields; setup.map.len()];
    for (hex, terrain) in &setup.terrain {
        if setup.map.contains(*hex) {
            grid[setup.map.index(*hex)] = *terrain;
        }
    }
    grid
}

/// Points a side spends, doubled (R61): its pieces on the map and those of
/// its counters on the off-board grid.
pub fn points_doubled<G: OffMap>(setup: &Setup<G>, side: usize) -> u64 {
    let on_map: u64 = setup
        .pieces
        .iter()
        .filter(|p| p.side == side)
        .map(PiecesSetup::cost_doubled)
        .sum();
    let off_map = setup
        .offboard
        .as_ref()
        .map_or(0, |o| G::points_doubled(o, side));
    on_map + off_map
}

/// Writes a doubled figure (points, strengths) whole or with its half
/// (`41.5`).
pub fn points_text(doubled: u64) -> String {
    if doubled.is_multiple_of(2) {
        (doubled / 2).to_string()
    } else {
        format!("{}.5", doubled / 2)
    }
}

/// Checks a setup against every ruling, listing every problem.
pub fn validate<G: OffMap>(setup: &Setup<G>) -> Result<(), SetupError> {
    let mut p = Problems {
        kept: Vec::new(),
        more: 0,
    };
    let map = setup.map;
    let map_ok =
        (1..=MAX_MAP_SIDE).contains(&map.columns) && (1..=MAX_MAP_SIDE).contains(&map.rows);
    if !map_ok {
        p.add(
            "map",
            Some(60),
            format!(
                "a map is 1 to {MAX_MAP_SIDE} hexes each way, not {} x {}",
                map.columns, map.rows
            ),
        );
    }
    let on_map = |hex: Hex| map_ok && map.contains(hex);
    let mut seen = vec![false; if map_ok { map.len() } else { 0 }];
    for (i, (hex, _)) in setup.terrain.iter().enumerate() {
        if !on_map(*hex) {
            p.add(
                format!("terrain[{i}]"),
                Some(60),
                format!("{hex} is off the {} x {} map", map.columns, map.rows),
            );
        } else if std::mem::replace(&mut seen[map.index(*hex)], true) {
            p.add(
                format!("terrain[{i}]"),
                Some(60),
                format!("{hex} is given a terrain twice; a hex has one terrain"),
            );
        }
    }
    let grid = if map_ok {
        terrain_grid(setup)
    } else {
        Vec::new()
    };
    let terrain_at = |hex: Hex| grid[map.index(hex)];

    if setup.sides.len() != 2 {
        p.add(
            "sides",
            Some(64),
            format!("a battle has two sides, not {}", setup.sides.len()),
        );
    }
    for (s, side) in setup.sides.iter().enumerate() {
        if side.name.trim().is_empty() {
            p.add(format!("sides[{s}].name"), None, "a side needs a name");
        }
        if side.deployment.is_empty() {
            p.add(
                format!("sides[{s}].deployment"),
                Some(60),
                "a side needs deployment hexes",
            );
        }
        for (i, hex) in side.deployment.iter().enumerate() {
            if !on_map(*hex) {
                p.add(
                    format!("sides[{s}].deployment[{i}]"),
                    Some(60),
                    format!("{hex} is off the {} x {} map", map.columns, map.rows),
                );
            }
        }
        let spent = points_doubled(setup, s);
        if spent > 2 * u64::from(side.points) {
            p.add(
                format!("sides[{s}]"),
                Some(61),
                format!(
                    "{} spends {} points, over its limit of {}",
                    side.name,
                    points_text(spent),
                    side.points
                ),
            );
        }
    }
    if setup.pieces.len() > MAX_PIECE_ENTRIES {
        p.add(
            "pieces",
            None,
            format!(
                "{} entries, over the limit of {MAX_PIECE_ENTRIES}",
                setup.pieces.len()
            ),
        );
    }
    let mut armed_at: Vec<(Hex, usize)> = Vec::new();
    for (i, piece) in setup.pieces.iter().enumerate() {
        let path = format!("pieces[{i}]");
        let Some(side) = setup.sides.get(piece.side) else {
            p.add(
                format!("{path}.side"),
                Some(64),
                format!("there is no side {} (sides count from 0)", piece.side),
            );
            continue;
        };
        for (what, n) in [
            ("infantry", piece.infantry),
            ("cavalry", piece.cavalry),
            ("officers", piece.officers),
        ] {
            if n > MAX_COUNT {
                p.add(
                    format!("{path}.{what}"),
                    None,
                    format!("{n} is over the limit of {MAX_COUNT}"),
                );
            }
        }
        if !on_map(piece.at) {
            p.add(
                format!("{path}.at"),
                Some(60),
                format!("{} is off the {} x {} map", piece.at, map.columns, map.rows),
            );
            continue;
        }
        let terrain = terrain_at(piece.at);
        if terrain.cover() == Cover::Impassable {
            p.add(
                format!("{path}.at"),
                Some(69),
                format!(
                    "{} is {terrain}, impassable: no piece stands there",
                    piece.at
                ),
            );
        }
        if !side.deployment.contains(&piece.at) {
            p.add(
                format!("{path}.at"),
                Some(60),
                format!(
                    "{} is not one of {}'s deployment hexes",
                    piece.at, side.name
                ),
            );
        }
        let men = u32::from(piece.infantry) + u32::from(piece.cavalry);
        if piece.cannon && piece.baggage {
            p.add(
                path.clone(),
                Some(62),
                format!(
                    "{} holds a cannon and baggage: one cannon or one baggage a hex",
                    piece.at
                ),
            );
        }
        let limit = if piece.cannon || piece.baggage {
            10
        } else {
            20
        };
        if men > limit {
            p.add(
                path.clone(),
                Some(62),
                format!(
                    "{} holds {men} armed men, over its limit of {limit}{}",
                    piece.at,
                    if limit == 10 {
                        " with a cannon or baggage"
                    } else {
                        ""
                    }
                ),
            );
        }
        if piece.cannon && men < 4 {
            p.add(
                path.clone(),
                Some(61),
                format!(
                    "the cannon in {} has {men} men with it: a cannon moves and fires only with 4 or more",
                    piece.at
                ),
            );
        }
        if men == 0 && piece.officers == 0 && !piece.cannon && !piece.baggage && !piece.flag {
            p.add(
                path.clone(),
                None,
                format!("the entry for {} holds nothing", piece.at),
            );
        }
        if let Some((_, other)) = armed_at.iter().find(|(h, _)| *h == piece.at) {
            let message = if *other == piece.side {
                format!("{} has two entries for {}: give one", piece.at, side.name)
            } else {
                format!(
                    "{} holds pieces of both sides: no piece enters a hex of enemy men",
                    piece.at
                )
            };
            p.add(
                path.clone(),
                Some(if *other == piece.side { 62 } else { 69 }),
                message,
            );
        } else {
            armed_at.push((piece.at, piece.side));
        }
    }
    if setup.turns == 0 || setup.turns > MAX_TURNS {
        p.add(
            "turns",
            Some(64),
            format!(
                "a battle lasts 1 to {MAX_TURNS} game turns, not {}",
                setup.turns
            ),
        );
    }
    if let Some(first) = setup.first_player
        && first >= setup.sides.len().max(2)
    {
        p.add(
            "first_player",
            Some(64),
            format!("there is no side {first} (sides count from 0)"),
        );
    }
    for (path, ruling, why) in G::problems(
        setup.offboard.as_ref(),
        &setup.switches.off_map,
        map,
        setup.sides.len(),
    ) {
        p.add(path, ruling, why);
    }
    if !(1..=6).contains(&setup.switches.cannon_range) {
        p.add(
            "house_rules.cannon_range",
            Some(65),
            format!(
                "a cannon's range is 1 to 6 hexes, not {}",
                setup.switches.cannon_range
            ),
        );
    }
    if p.kept.is_empty() {
        Ok(())
    } else {
        Err(SetupError {
            problems: p.kept,
            more: p.more,
        })
    }
}

/// Warnings about a valid setup: a side spending under 90 points (R61).
pub fn warnings<G: OffMap>(setup: &Setup<G>) -> Vec<String> {
    setup
        .sides
        .iter()
        .enumerate()
        .filter_map(|(s, side)| {
            let spent = points_doubled(setup, s);
            let floor = u64::from(side.points) * 2 * 9 / 10;
            (spent < floor).then(|| {
                format!(
                    "{} spends {} of its {} points, under 90% (R61)",
                    side.name,
                    points_text(spent),
                    side.points
                )
            })
        })
        .collect()
}
