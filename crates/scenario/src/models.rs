//! A scenario's own models: which pieces are drawn with which glTF file, at
//! what scale. The table reads the files; this module only checks the
//! entries and picks the entry that applies to a piece.
//!
//! Entries are keyed by the kind of piece (every unit, a Factor's units, a
//! named unit, bases, stashes, one kind of ground; in a Frontiers skirmish
//! every unit, one unit type, a unit by its id, crates and objectives) and
//! optionally by player (a skirmish's side). Where several entries fit a
//! piece the most specific wins: a named unit over a Factor or a unit type
//! over all units, and an entry for the piece's player over one for every
//! player. Each rule system takes the kinds of piece it has (see
//! [`ModelPiece::of_cache`], [`ModelPiece::of_frontiers`]).

use std::path::Path;

use sandtable_cache::Ground;
use serde::{Deserialize, Serialize};

use crate::Problem;

/// At most this many model entries in one scenario.
pub const MAX_MODELS: usize = 256;

/// The longest model path accepted, in bytes.
pub const MAX_MODEL_PATH_BYTES: usize = 1024;

/// The smallest and largest scale accepted: one unit of a model is at least
/// a thousandth of a millimetre and at most ten metres on the table.
pub const UNIT_MM_RANGE: std::ops::RangeInclusive<f64> = 0.001..=10_000.0;

/// The kind of piece a model entry draws.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ModelPiece {
    /// Every unit (of the entry's player, or of all players).
    Units,
    /// The units of one Factor, numbered from 1 in its player's list.
    Factor(u16),
    /// The unit with this name.
    Unit(String),
    /// Factor bases.
    Base,
    /// Stashes (The Snyder Skirmish).
    Stash,
    /// Every square of one kind of ground.
    Terrain(ModelTerrain),
    /// Every unit of one unit type, by its id in the data (Frontiers:
    /// `lg_trooper`, `zr_walker`).
    Kind(String),
    /// Equipment crates (Frontiers).
    Crate,
    /// Objectives (Frontiers).
    Objective,
}

impl ModelPiece {
    /// Whether a Conflict at Cache scenario has pieces of this kind.
    pub fn of_cache(&self) -> bool {
        matches!(
            self,
            ModelPiece::Units
                | ModelPiece::Factor(_)
                | ModelPiece::Unit(_)
                | ModelPiece::Base
                | ModelPiece::Stash
                | ModelPiece::Terrain(_)
        )
    }

    /// Whether a Frontiers skirmish has pieces of this kind.
    pub fn of_frontiers(&self) -> bool {
        matches!(
            self,
            ModelPiece::Units
                | ModelPiece::Unit(_)
                | ModelPiece::Kind(_)
                | ModelPiece::Crate
                | ModelPiece::Objective
        )
    }

    /// Whether the pieces belong to no player, so that an entry may not
    /// name one.
    fn unowned(&self) -> bool {
        matches!(
            self,
            ModelPiece::Stash | ModelPiece::Terrain(_) | ModelPiece::Crate | ModelPiece::Objective
        )
    }
}

/// The kinds of ground a model can draw: one square of each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ModelTerrain {
    /// A low wall or fence square; the model runs front to back and is
    /// turned to follow the wall.
    LowWall,
    /// A high wall square.
    HighWall,
    /// A mountain square.
    Mountain,
    /// A woods square.
    Woods,
    /// A water square.
    Water,
    /// A road square.
    Road,
    /// A bridge square at ground level.
    Bridge,
    /// A raised bridge square.
    ElevatedBridge,
    /// A building's wall square.
    BuildingWall,
    /// A building's floor square.
    BuildingFloor,
    /// A building's entrance square.
    BuildingEntrance,
}

impl ModelTerrain {
    /// Every kind, in the order above.
    pub const ALL: [ModelTerrain; 11] = [
        ModelTerrain::LowWall,
        ModelTerrain::HighWall,
        ModelTerrain::Mountain,
        ModelTerrain::Woods,
        ModelTerrain::Water,
        ModelTerrain::Road,
        ModelTerrain::Bridge,
        ModelTerrain::ElevatedBridge,
        ModelTerrain::BuildingWall,
        ModelTerrain::BuildingFloor,
        ModelTerrain::BuildingEntrance,
    ];

    /// The kind of a square's ground; open ground has no model.
    pub fn of(ground: Ground) -> Option<ModelTerrain> {
        Some(match ground {
            Ground::Open => return None,
            Ground::LowWall => ModelTerrain::LowWall,
            Ground::HighWall => ModelTerrain::HighWall,
            Ground::Mountain => ModelTerrain::Mountain,
            Ground::Woods => ModelTerrain::Woods,
            Ground::Water => ModelTerrain::Water,
            Ground::Road => ModelTerrain::Road,
            Ground::Bridge { elevated: false } => ModelTerrain::Bridge,
            Ground::Bridge { elevated: true } => ModelTerrain::ElevatedBridge,
            Ground::BuildingWall => ModelTerrain::BuildingWall,
            Ground::BuildingFloor => ModelTerrain::BuildingFloor,
            Ground::BuildingEntrance => ModelTerrain::BuildingEntrance,
        })
    }

    /// The name of its default look's file, without the folder or extension.
    pub fn file_stem(self) -> &'static str {
        match self {
            ModelTerrain::LowWall => "low-wall",
            ModelTerrain::HighWall => "high-wall",
            ModelTerrain::Mountain => "mountain",
            ModelTerrain::Woods => "woods",
            ModelTerrain::Water => "water",
            ModelTerrain::Road => "road",
            ModelTerrain::Bridge => "bridge",
            ModelTerrain::ElevatedBridge => "elevated-bridge",
            ModelTerrain::BuildingWall => "building-wall",
            ModelTerrain::BuildingFloor => "building-floor",
            ModelTerrain::BuildingEntrance => "building-entrance",
        }
    }
}

/// One entry of a scenario's `models` list.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelChoice {
    /// The pieces it draws.
    pub piece: ModelPiece,
    /// Only this player's pieces (by name); every player's when `None`.
    pub player: Option<String>,
    /// The glTF file (`.gltf` or `.glb`), relative to the scenario's folder
    /// or, where it is not there, to the `assets/` folder.
    pub file: String,
    /// The length on the table, in mm, of one unit of the model: 1 for a
    /// model made in millimetres, 1000 for one in metres (glTF's own unit).
    pub unit_mm: f64,
}

/// The entry as written in a scenario file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "model")]
pub(crate) struct FileModel {
    piece: ModelPiece,
    #[serde(default)]
    player: Option<String>,
    file: String,
    unit_mm: f64,
}

/// A piece on the table, described as the model entries key it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PieceOf<'a> {
    /// A unit: its player and Factor (indices from 0) and its name.
    Unit {
        /// Its player, in turn order from 0.
        player: usize,
        /// Its Factor in its player's list, from 0.
        factor: usize,
        /// Its name, if the scenario gives one.
        name: Option<&'a str>,
    },
    /// A Factor's base.
    Base {
        /// Its player, in turn order from 0.
        player: usize,
    },
    /// A stash.
    Stash,
    /// One square of ground.
    Terrain(ModelTerrain),
    /// A Frontiers unit: its side (from 0), its unit type's id and its
    /// own id.
    Figure {
        /// Its side, from 0.
        side: usize,
        /// Its unit type's id in the data, as `lg_trooper`.
        kind: &'a str,
        /// Its id, as `T1`.
        id: &'a str,
    },
    /// A crate.
    Crate,
    /// An objective.
    Objective,
}

/// The pieces a scenario's model entries are checked against: which
/// kinds it has, and which names and ids its pieces carry.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Subjects<'a> {
    /// A Conflict at Cache scenario.
    Cache(&'a sandtable_cache::Setup),
    /// A Frontiers skirmish.
    Frontiers(&'a sandtable_frontiers::Setup),
}

/// Why a model path is refused, or `None` when it is fine.
pub fn path_problem(file: &str) -> Option<String> {
    if file.is_empty() {
        return Some("the model's file is empty: give a .gltf or .glb path".to_owned());
    }
    if file.len() > MAX_MODEL_PATH_BYTES {
        return Some(format!(
            "the model's path is {} bytes long; at most {MAX_MODEL_PATH_BYTES} are allowed",
            file.len()
        ));
    }
    if file.chars().any(char::is_control) {
        return Some("the model's path holds control characters".to_owned());
    }
    if !(file.ends_with(".gltf") || file.ends_with(".glb")) {
        return Some(format!(
            "`{file}` is not a glTF file: the name must end in .gltf or .glb, in lower case"
        ));
    }
    let path = Path::new(file);
    if path.is_absolute() || file.starts_with('/') || file.starts_with('\\') {
        return Some(format!(
            "`{file}` is an absolute path: give it relative to the scenario's folder or to assets/"
        ));
    }
    if !crate::files::stays_inside(path) || file.contains('\\') || file.contains(':') {
        return Some(format!(
            "`{file}` leaves its folder: a model must lie inside the scenario's folder or assets/ (no `..`, `\\` or `:`)"
        ));
    }
    if file.contains('#') {
        return Some(format!(
            "`{file}` holds a `#`, which glTF loading reads as a part of the file: rename it"
        ));
    }
    None
}

/// Checks the entries: malformed ones are problems that stop loading;
/// entries that fit no piece (an unknown player or unit name, a Factor past
/// the player's last) are warnings, so that edits of the layout never make
/// its file unloadable.
pub(crate) fn convert(
    file: Vec<FileModel>,
    subjects: Subjects<'_>,
    problems: &mut Vec<Problem>,
    warnings: &mut Vec<Problem>,
) -> Vec<ModelChoice> {
    let mut models: Vec<ModelChoice> = Vec::new();
    for (i, m) in file.into_iter().enumerate() {
        let path = format!("models[{i}]");
        let before = problems.len();
        if let Some(message) = path_problem(&m.file) {
            problems.push(Problem::field(format!("{path}.file"), message));
        }
        if !(m.unit_mm.is_finite() && UNIT_MM_RANGE.contains(&m.unit_mm)) {
            problems.push(Problem::field(
                format!("{path}.unit_mm"),
                format!(
                    "{} is not a scale: unit_mm is the length in mm of one unit of the model, from {} to {}",
                    m.unit_mm,
                    UNIT_MM_RANGE.start(),
                    UNIT_MM_RANGE.end()
                ),
            ));
        }
        let (has, which) = match subjects {
            Subjects::Cache(_) => (m.piece.of_cache(), "a Conflict at Cache scenario"),
            Subjects::Frontiers(_) => (m.piece.of_frontiers(), "a Frontiers skirmish"),
        };
        if !has {
            problems.push(Problem::field(
                format!("{path}.piece"),
                format!(
                    "{which} has no such pieces: its pieces are {}",
                    match subjects {
                        Subjects::Cache(_) =>
                            "Units, Factor(n), Unit(name), Base, Stash and Terrain(kind)",
                        Subjects::Frontiers(_) =>
                            "Units, Kind(unit type), Unit(id), Crate and Objective",
                    }
                ),
            ));
        } else if m.piece.unowned() && m.player.is_some() {
            problems.push(Problem::field(
                format!("{path}.player"),
                "stashes, terrain, crates and objectives belong to no player: remove `player`",
            ));
        }
        if matches!(m.piece, ModelPiece::Factor(0)) {
            problems.push(Problem::field(
                format!("{path}.piece"),
                "Factors are numbered from 1 in their player's list",
            ));
        }
        if let Some(earlier) = models
            .iter()
            .position(|o| o.piece == m.piece && o.player == m.player)
        {
            problems.push(Problem::field(
                &path,
                format!("models[{earlier}] already gives a model for these pieces"),
            ));
        }
        if problems.len() > before {
            continue;
        }
        let unfit = match subjects {
            Subjects::Cache(setup) => fits_nothing(&m, setup),
            Subjects::Frontiers(setup) => fits_no_figure(&m, setup),
        };
        if let Some(reason) = unfit {
            warnings.push(Problem::field(
                &path,
                format!("{reason}: this model is not used"),
            ));
        }
        models.push(ModelChoice {
            piece: m.piece,
            player: m.player,
            file: m.file,
            unit_mm: m.unit_mm,
        });
    }
    models
}

/// Why an entry fits no piece of the setup, if it fits none.
fn fits_nothing(m: &FileModel, setup: &sandtable_cache::Setup) -> Option<String> {
    let players: Vec<(usize, &sandtable_cache::PlayerSetup)> = match &m.player {
        None => setup.players.iter().enumerate().collect(),
        Some(name) => {
            let found: Vec<_> = setup
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| &p.name == name)
                .collect();
            if found.is_empty() {
                return Some(format!("no player is named {name:?}"));
            }
            found
        }
    };
    match &m.piece {
        ModelPiece::Factor(n) => {
            let n = usize::from(*n);
            (!players.iter().any(|(_, p)| p.factors.len() >= n)).then(|| match &m.player {
                Some(name) => format!("{name} has no Factor {n}"),
                None => format!("no player has a Factor {n}"),
            })
        }
        ModelPiece::Unit(name) => {
            let found = players
                .iter()
                .flat_map(|(_, p)| &p.factors)
                .flat_map(|f| &f.units)
                .any(|u| u.name.as_deref() == Some(name.as_str()));
            (!found).then(|| format!("no unit is named {name:?}"))
        }
        _ => None,
    }
}

/// Why an entry fits no piece of a skirmish, if it fits none.
fn fits_no_figure(m: &FileModel, setup: &sandtable_frontiers::Setup) -> Option<String> {
    let sides: Vec<u8> = match &m.player {
        None => (0..setup.sides.len() as u8).collect(),
        Some(name) => {
            let found: Vec<u8> = (0..setup.sides.len() as u8)
                .filter(|k| &setup.sides[usize::from(*k)].name == name)
                .collect();
            if found.is_empty() {
                return Some(format!("no side is named {name:?}"));
            }
            found
        }
    };
    let units = || setup.units.iter().filter(|u| sides.contains(&u.side));
    match &m.piece {
        ModelPiece::Kind(kind) => {
            (!units().any(|u| &u.data == kind)).then(|| format!("no unit is of the type {kind:?}"))
        }
        ModelPiece::Unit(id) => {
            (!units().any(|u| &u.id == id)).then(|| format!("no unit has the id {id:?}"))
        }
        ModelPiece::Crate => (setup.crates.is_empty()
            && !setup.units.iter().any(|u| u.gear.is_some()))
        .then(|| "the skirmish has no crates".to_owned()),
        ModelPiece::Objective => setup
            .objectives
            .is_empty()
            .then(|| "the skirmish has no objectives".to_owned()),
        _ => None,
    }
}

impl ModelChoice {
    /// How well the entry fits a piece: `None` when it does not, higher for
    /// a more specific fit. `names` are the players' names in turn order.
    pub fn fit(&self, piece: PieceOf<'_>, names: &[&str]) -> Option<u8> {
        let own = |player: usize| match &self.player {
            None => Some(0),
            Some(name) => (names.get(player) == Some(&name.as_str())).then_some(1),
        };
        match (&self.piece, piece) {
            (ModelPiece::Units, PieceOf::Unit { player, .. }) => Some(2 + own(player)?),
            (ModelPiece::Factor(n), PieceOf::Unit { player, factor, .. })
                if usize::from(*n) == factor + 1 =>
            {
                Some(4 + own(player)?)
            }
            (ModelPiece::Unit(wanted), PieceOf::Unit { player, name, .. })
                if name == Some(wanted.as_str()) =>
            {
                Some(6 + own(player)?)
            }
            (ModelPiece::Units, PieceOf::Figure { side, .. }) => Some(2 + own(side)?),
            (ModelPiece::Kind(wanted), PieceOf::Figure { side, kind, .. }) if wanted == kind => {
                Some(4 + own(side)?)
            }
            (ModelPiece::Unit(wanted), PieceOf::Figure { side, id, .. }) if wanted == id => {
                Some(6 + own(side)?)
            }
            (ModelPiece::Crate, PieceOf::Crate) | (ModelPiece::Objective, PieceOf::Objective) => {
                Some(2)
            }
            (ModelPiece::Base, PieceOf::Base { player }) => Some(2 + own(player)?),
            (ModelPiece::Stash, PieceOf::Stash) => Some(2),
            (ModelPiece::Terrain(a), PieceOf::Terrain(b)) if *a == b => Some(2),
            _ => None,
        }
    }

    /// The entry as a line of a scenario file, without indentation.
    pub fn to_ron(&self) -> String {
        let piece = match &self.piece {
            ModelPiece::Unit(name) => format!("Unit({})", crate::quoted(name)),
            ModelPiece::Kind(kind) => format!("Kind({})", crate::quoted(kind)),
            other => format!("{other:?}"),
        };
        let player = self
            .player
            .as_deref()
            .map(|p| format!(", player: {}", crate::quoted(p)))
            .unwrap_or_default();
        format!(
            "(piece: {piece}{player}, file: {}, unit_mm: {:?})",
            crate::quoted(&self.file),
            self.unit_mm
        )
    }

    /// What the entry draws, for people: "Red's Factor 2", "every base".
    pub fn describe(&self) -> String {
        let whose = |what: &str, all: &str| match &self.player {
            Some(p) => format!("{p}'s {what}"),
            None => all.to_owned(),
        };
        match &self.piece {
            ModelPiece::Units => whose("units", "every unit"),
            ModelPiece::Factor(n) => whose(&format!("Factor {n}"), &format!("every Factor {n}")),
            ModelPiece::Unit(name) => format!("the unit {name}"),
            ModelPiece::Base => whose("bases", "every base"),
            ModelPiece::Stash => "every stash".to_owned(),
            ModelPiece::Terrain(t) => format!("every {} square", t.file_stem().replace('-', " ")),
            ModelPiece::Kind(kind) => {
                whose(&format!("{kind} units"), &format!("every {kind} unit"))
            }
            ModelPiece::Crate => "every crate".to_owned(),
            ModelPiece::Objective => "every objective".to_owned(),
        }
    }
}

/// Writes a scenario's `models` field, one entry a line; nothing when
/// there are none.
pub(crate) fn write_list(out: &mut String, models: &[ModelChoice]) {
    if models.is_empty() {
        return;
    }
    out.push_str("    models: [\n");
    for m in models {
        out.push_str("        ");
        out.push_str(&m.to_ron());
        out.push_str(",\n");
    }
    out.push_str("    ],\n");
}

/// The index of the entry that draws a piece: the best fit, the first of
/// equals; `None` when no entry fits.
pub fn model_for(models: &[ModelChoice], piece: PieceOf<'_>, names: &[&str]) -> Option<usize> {
    let mut best: Option<(u8, usize)> = None;
    for (i, m) in models.iter().enumerate() {
        if let Some(score) = m.fit(piece, names)
            && best.is_none_or(|(s, _)| score > s)
        {
            best = Some((score, i));
        }
    }
    best.map(|(_, i)| i)
}
