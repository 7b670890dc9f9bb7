//! Scenario files in RON: the file schema, loading with located errors, and
//! validation through the rules crate. A scenario that loads is a table the
//! rules accept; rules and play are left to `sandtable-cache`.
//!
//! Every problem is reported, each with the file and either the line and
//! column that the RON parser gives or the field path of the offending value
//! (`players[1].factors[0].units[3]`), and the ruling it breaks. The format is
//! documented in `docs/scenario-format.md`.

use sandtable_core::text::path_shown;
use std::fmt;
use std::path::Path;

use sandtable_cache::{
    Board, Facing, FactorSetup, Game, MAX_BOARD_SIDE, PlayerSetup, Ruling, Setup, Square,
    TerrainKind, TerrainPiece, UnitSetup,
};
use sandtable_cache::{StashList, StashRow};
use serde::{Deserialize, Serialize};

pub mod battle;
pub mod models;
pub mod skirmish;
/// The file rules, shared by every crate that touches the disk.
pub use sandtable_core::files;
pub use sandtable_core::text;
use sandtable_core::text::{MAX_NAME_CHARS, name_problem};
pub mod records;

pub use models::{ModelChoice, ModelPiece, ModelTerrain, PieceOf};

/// Scenario files larger than this are refused; the limit holds on the bytes
/// read, whatever the file claims.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Stash list files larger than this are refused (a full list is about 1.5 KB).
pub const MAX_STASH_LIST_BYTES: u64 = 64 * 1024;

/// At most this many problems of a scenario are listed; the rest are counted
/// ("and 4,400,000 more").
pub const MAX_PROBLEMS_LISTED: usize = 100;

/// The default table: `scenarios/standard.ron`, embedded in the binaries.
pub const STANDARD: &str = include_str!("../../../scenarios/standard.ron");

/// The rule system a scenario is played with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum RuleSystem {
    /// Conflict at Cache (V100).
    ConflictAtCache,
    /// The Snyder Skirmish (V101): Conflict at Cache with stashes.
    SnyderSkirmish,
    /// The Warpspawn set-piece battle on hexes (seed 003, R60-R81).
    Warpspawn,
    /// Frontiers, the skirmish on the open table (seed 004, R100-R152).
    Frontiers,
}

/// A loaded scenario of any rule system: its `rules:` field picks which.
#[derive(Debug, Clone, PartialEq)]
pub enum Loaded {
    /// Conflict at Cache or The Snyder Skirmish.
    Cache(Scenario),
    /// A Warpspawn battle.
    Warpspawn(battle::Battle),
    /// A Frontiers skirmish.
    Frontiers(skirmish::Skirmish),
}

impl Loaded {
    /// Its name, for people.
    pub fn name(&self) -> &str {
        match self {
            Loaded::Cache(s) => &s.name,
            Loaded::Warpspawn(b) => &b.name,
            Loaded::Frontiers(s) => &s.name,
        }
    }

    /// Things worth telling a person that do not stop play.
    pub fn warnings(&self) -> &[Problem] {
        match self {
            Loaded::Cache(s) => &s.warnings,
            Loaded::Warpspawn(b) => &b.warnings,
            Loaded::Frontiers(s) => &s.warnings,
        }
    }
}

/// Only the `rules:` field of a scenario file, to pick the system's schema.
#[derive(Deserialize)]
struct Probe {
    rules: RuleSystem,
}

/// The rule system a scenario's text names, when the text reads that far
/// (a file with mistakes further on still names its system). Where the
/// reader gives up on the file (nesting past ron's limit, a value that is
/// not RON), the top level of the text is scanned for `rules: System`, so
/// that a broken battle is told about a battle's format.
pub fn probe_rules(text: &str) -> Option<RuleSystem> {
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    match options.from_str::<Probe>(text) {
        Ok(probe) => Some(probe.rules),
        Err(_) => scan_rules(text),
    }
}

/// `rules: System` among the fields of the outermost value, read past
/// strings, characters and comments, whatever comes after it.
fn scan_rules(text: &str) -> Option<RuleSystem> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    // The last two tokens at the outermost value's level: `rules` then `:`.
    let mut seen_rules = false;
    let mut seen_colon = false;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                // Block comments nest in RON.
                let mut nested = 0usize;
                while i < bytes.len() {
                    if bytes[i..].starts_with(b"/*") {
                        nested += 1;
                        i += 2;
                    } else if bytes[i..].starts_with(b"*/") {
                        nested -= 1;
                        i += 2;
                        if nested == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
                seen_rules = false;
                seen_colon = false;
                continue;
            }
            b'r' if matches!(bytes.get(i + 1), Some(b'"' | b'#')) => {
                let hashes = bytes[i + 1..].iter().take_while(|&&c| c == b'#').count();
                let open = i + 1 + hashes;
                if bytes.get(open) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    i = text[open + 1..]
                        .find(&close)
                        .map_or(bytes.len(), |n| open + 1 + n + close.len());
                    seen_rules = false;
                    seen_colon = false;
                    continue;
                }
            }
            b'\'' => {
                // A character: 'x', 'é' or '\''.
                let mut j = i + if bytes.get(i + 1) == Some(&b'\\') {
                    3
                } else {
                    2
                };
                while j < bytes.len() && bytes[j] != b'\'' {
                    j += 1;
                }
                i = j + 1;
                continue;
            }
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b':' if depth == 1 && seen_rules => {
                seen_colon = true;
                i += 1;
                continue;
            }
            _ if b == b'_' || b.is_ascii_alphabetic() => {
                let end = bytes[i..]
                    .iter()
                    .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(bytes.len(), |n| i + n);
                let word = &text[i..end];
                if depth == 1 && seen_colon {
                    return match word {
                        "ConflictAtCache" => Some(RuleSystem::ConflictAtCache),
                        "SnyderSkirmish" => Some(RuleSystem::SnyderSkirmish),
                        "Warpspawn" => Some(RuleSystem::Warpspawn),
                        "Frontiers" => Some(RuleSystem::Frontiers),
                        _ => None,
                    };
                }
                seen_rules = depth == 1 && word == "rules";
                i = end;
                continue;
            }
            _ if b.is_ascii_whitespace() => {
                i += 1;
                continue;
            }
            _ => {}
        }
        if !b.is_ascii_whitespace() {
            seen_rules = false;
            seen_colon = false;
        }
        i += 1;
    }
    None
}

/// Reads and validates a scenario file of any rule system: a regular file
/// of at most [`MAX_FILE_BYTES`].
pub fn load_any(path: &Path) -> Result<Loaded, LoadScenarioError> {
    let origin = path_shown(path);
    let text = files::read_text(path, MAX_FILE_BYTES)
        .map_err(|e| LoadScenarioError::file(&origin, format!("cannot read the scenario: {e}")))?;
    parse_any_in(&text, &origin, path.parent())
}

/// As [`load_any`], for text; `origin` names it in messages, and a Cache
/// stash list named by file is read relative to `dir`.
pub fn parse_any_in(
    text: &str,
    origin: &str,
    dir: Option<&Path>,
) -> Result<Loaded, LoadScenarioError> {
    match probe_rules(text) {
        Some(RuleSystem::Warpspawn) => battle::parse(text, origin).map(Loaded::Warpspawn),
        Some(RuleSystem::Frontiers) => skirmish::parse(text, origin).map(Loaded::Frontiers),
        _ => parse_in(text, origin, dir).map(Loaded::Cache),
    }
}

/// A player's colour, `#rrggbb` in files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Colour(pub [u8; 3]);

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

impl std::str::FromStr for Colour {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let hex = text
            .strip_prefix('#')
            .filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| format!("`{text}` is not a colour: write #rrggbb, like #b03a2e"))?;
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
        Ok(Colour([byte(0), byte(2), byte(4)]))
    }
}

/// Colours given to players whose entry names none, in turn order:
/// Okabe and Ito's set, told apart by people who cannot tell red from
/// green (blue, orange, bluish green, reddish purple, vermillion, sky blue).
pub const DEFAULT_COLOURS: [Colour; 6] = [
    Colour([0x00, 0x72, 0xb2]),
    Colour([0xe6, 0x9f, 0x00]),
    Colour([0x00, 0x9e, 0x73]),
    Colour([0xcc, 0x79, 0xa7]),
    Colour([0xd5, 0x5e, 0x00]),
    Colour([0x56, 0xb4, 0xe9]),
];

/// A mark for each player that is not a colour, for the table, the sheet
/// and the terminal (the contract's, shared by every rule system).
pub use sandtable_core::game::player_marks;

/// The physical table a layout is set up on (all lengths in millimetres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Physical {
    /// Side of one square, in mm (30 on the seed's Table A).
    pub square_mm: f64,
    /// The table's width (left to right) and depth (near to far edge), in mm.
    pub table_mm: (f64, f64),
    /// Figure scale: foot to eye of a man-sized figure, in mm (28 is common).
    pub figure_scale_mm: f64,
}

impl Physical {
    /// The seed's Table A: 30 mm squares on a 30 x 20 inch table, 28 mm figures.
    pub const TABLE_A: Physical = Physical {
        square_mm: 30.0,
        table_mm: (762.0, 508.0),
        figure_scale_mm: 28.0,
    };

    /// The table assumed for a board whose scenario gives none: Table A when
    /// the grid fits on it, else Table A's squares and figures on a table
    /// with a one-square rim round the grid.
    pub fn assumed(board: Board) -> Physical {
        let a = Physical::TABLE_A;
        let (gw, gd) = a.grid_mm(board);
        if gw <= a.table_mm.0 && gd <= a.table_mm.1 {
            a
        } else {
            Physical {
                table_mm: (gw + 2.0 * a.square_mm, gd + 2.0 * a.square_mm),
                ..a
            }
        }
    }

    /// The base a figure of this scale stands on, in mm: 25 mm for 28 mm
    /// figures, in proportion for other scales.
    pub fn figure_base_mm(&self) -> f64 {
        self.figure_scale_mm * 25.0 / 28.0
    }

    /// The grid's width and depth on the table, in mm.
    pub fn grid_mm(&self, board: Board) -> (f64, f64) {
        (
            f64::from(board.columns) * self.square_mm,
            f64::from(board.rows) * self.square_mm,
        )
    }

    /// Where the grid's near-left corner lies on the table: centred, in mm
    /// from the table's left and near edges.
    pub fn grid_offset_mm(&self, board: Board) -> (f64, f64) {
        let (w, d) = self.grid_mm(board);
        ((self.table_mm.0 - w) / 2.0, (self.table_mm.1 - d) / 2.0)
    }

    /// The centre of a square, in mm from the table's left and near edges.
    pub fn square_centre_mm(&self, board: Board, sq: Square) -> (f64, f64) {
        let (ox, oy) = self.grid_offset_mm(board);
        (
            ox + (f64::from(sq.col) + 0.5) * self.square_mm,
            oy + (f64::from(sq.row) + 0.5) * self.square_mm,
        )
    }
}

/// A loaded, valid scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Its name, for people.
    pub name: String,
    /// The rule system it is played with.
    pub rules: RuleSystem,
    /// The setup the rules crate validated.
    pub setup: Setup,
    /// Each player's colour, in turn order.
    pub colours: Vec<Colour>,
    /// The physical table, if the scenario gives one.
    pub physical: Option<Physical>,
    /// Things worth telling a person that do not stop play (R2).
    pub warnings: Vec<Problem>,
    /// The scenario's own models for its pieces; pieces without one keep
    /// their default looks.
    pub models: Vec<ModelChoice>,
}

impl Scenario {
    /// A hash of what the scenario holds (not of its file's comments or
    /// layout): 16 hex digits, the same on every system. Game records pin
    /// the scenario they were played on with it.
    pub fn content_hash(&self) -> String {
        text_hash(&self.to_ron())
    }

    /// The physical table: the scenario's own, or the one [`Physical::assumed`]
    /// for its board.
    pub fn table(&self) -> Physical {
        self.physical
            .unwrap_or_else(|| Physical::assumed(self.setup.board))
    }

    /// Starts a game of this scenario with its own seed.
    pub fn game(&self) -> Game {
        Game::new(&self.setup).expect("a loaded scenario passed the rules crate's validation")
    }

    /// Starts a game of this scenario with another seed (R30).
    pub fn game_with_seed(&self, seed: u64) -> Game {
        let mut setup = self.setup.clone();
        setup.seed = seed;
        Game::new(&setup).expect("the seed does not affect validation")
    }
}

/// FNV-1a of a scenario's text as [`Scenario::to_ron`] writes it: 16 hex
/// digits, the same on every system.
fn text_hash(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Reads a file's schema from RON text, or the problem with ron's line and
/// column.
fn read_ron<T: serde::de::DeserializeOwned>(
    text: &str,
    origin: &str,
) -> Result<T, LoadScenarioError> {
    // IMPLICIT_SOME: optional fields read `name: "Vance"` as well as `Some("Vance")`.
    let options =
        ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    options.from_str(text).map_err(|e| {
        LoadScenarioError::new(
            origin,
            vec![Problem {
                location: Location::At {
                    line: e.span.start.line,
                    col: e.span.start.col,
                },
                message: e.code.to_string(),
                ruling: None,
            }],
            0,
        )
    })
}

/// The embedded default scenario, `scenarios/standard.ron`.
pub fn standard() -> Scenario {
    parse(STANDARD, "scenarios/standard.ron").expect("the embedded standard scenario is valid")
}

/// Where in a file a problem lies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// The file as a whole (it cannot be read).
    File,
    /// A 1-based line and column, as the RON parser gives them.
    At {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        col: usize,
    },
    /// The path of a field: `players[1].factors[0].units[3]`.
    Field(String),
}

/// One problem found in a scenario file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where it lies.
    pub location: Location,
    /// What is wrong, in plain words.
    pub message: String,
    /// The ruling it breaks, if any.
    pub ruling: Option<sandtable_core::game::Ruling>,
}

impl Problem {
    fn field(path: impl Into<String>, message: impl Into<String>) -> Problem {
        Problem {
            location: Location::Field(path.into()),
            message: message.into(),
            ruling: None,
        }
    }

    fn with_ruling(mut self, ruling: impl Into<sandtable_core::game::Ruling>) -> Problem {
        self.ruling = Some(ruling.into());
        self
    }

    /// The problem as one line, after the file's name: a line break or a
    /// bidirectional control that a message quotes from the file is shown
    /// as `\u{a}`, so that a problem never reads as two.
    pub fn display_in<'a>(&'a self, origin: &'a str) -> impl fmt::Display + 'a {
        struct D<'a>(&'a Problem, &'a str);
        impl fmt::Display for D<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let (p, origin) = (self.0, self.1);
                let message = text::shown(&p.message);
                match &p.location {
                    Location::File => write!(f, "{origin}: {message}")?,
                    Location::At { line, col } => write!(f, "{origin}:{line}:{col}: {message}")?,
                    Location::Field(path) => write!(f, "{origin}: {path}: {message}")?,
                }
                if let Some(r) = p.ruling {
                    write!(f, " ({r})")?;
                }
                Ok(())
            }
        }
        D(self, origin)
    }
}

/// A scenario that could not be loaded, with the problems found: the first
/// [`MAX_PROBLEMS_LISTED`] in file order, and the count of the rest.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadScenarioError {
    /// The file's path or another name for where the text came from.
    pub origin: String,
    /// The problems listed, in file order.
    pub problems: Vec<Problem>,
    /// How many more problems were found and not listed.
    pub more: usize,
}

impl LoadScenarioError {
    fn new(origin: &str, mut problems: Vec<Problem>, more: usize) -> LoadScenarioError {
        let cut = problems.len().saturating_sub(MAX_PROBLEMS_LISTED);
        problems.truncate(MAX_PROBLEMS_LISTED);
        LoadScenarioError {
            origin: origin.to_owned(),
            problems,
            more: more + cut,
        }
    }

    /// A file that cannot be read at all.
    fn file(origin: &str, message: String) -> LoadScenarioError {
        LoadScenarioError::new(
            origin,
            vec![Problem {
                location: Location::File,
                message,
                ruling: None,
            }],
            0,
        )
    }
}

impl fmt::Display for LoadScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{}", p.display_in(&self.origin))?;
        }
        if self.more > 0 {
            write!(
                f,
                "\n{}: the first {} problems are listed, and {} more",
                self.origin,
                self.problems.len(),
                self.more
            )?;
        }
        Ok(())
    }
}

impl std::error::Error for LoadScenarioError {}

// ---------------------------------------------------------------- file schema

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "scenario")]
struct FileScenario {
    name: String,
    rules: RuleSystem,
    board: FileBoard,
    players: Vec<FilePlayer>,
    #[serde(default)]
    terrain: Vec<FileTerrain>,
    #[serde(default)]
    stashes: Vec<String>,
    #[serde(default)]
    stash_list: Option<FileStashList>,
    #[serde(default = "default_first_player")]
    first_player: Option<usize>,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default)]
    turn_limit: Option<u32>,
    #[serde(default)]
    physical: Option<FilePhysical>,
    #[serde(default)]
    models: Vec<models::FileModel>,
    #[serde(default)]
    house_rules: std::collections::BTreeMap<String, ron::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "physical")]
struct FilePhysical {
    square_mm: f64,
    table_mm: (f64, f64),
    #[serde(default = "default_figure_scale")]
    figure_scale_mm: f64,
}

fn default_figure_scale() -> f64 {
    28.0
}

fn default_first_player() -> Option<usize> {
    None
}

/// The seed a scenario gets when it names none.
pub const DEFAULT_SEED: u64 = 42;

fn default_seed() -> u64 {
    DEFAULT_SEED
}

/// A stash list: the path of a RON file (relative to the scenario's folder)
/// or the rows themselves.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum FileStashList {
    File(String),
    Rows(Vec<StashRow>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "board")]
struct FileBoard {
    columns: u64,
    rows: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "player")]
struct FilePlayer {
    name: String,
    #[serde(default)]
    colour: Option<String>,
    factors: Vec<FileFactor>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "factor")]
struct FileFactor {
    base: String,
    units: Vec<FileUnit>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "unit")]
struct FileUnit {
    at: String,
    facing: Facing,
    #[serde(default)]
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "terrain")]
struct FileTerrain {
    kind: FileTerrainKind,
    #[serde(default)]
    squares: Option<Vec<String>>,
    #[serde(default)]
    area: Option<(String, String)>,
}

/// The file's own copy of `TerrainKind`: the entrance is read as text so that
/// a bad square name is collected with its field path, not a parse stop.
#[derive(Debug, Deserialize)]
#[serde(rename = "kind")]
enum FileTerrainKind {
    LowWall,
    HighWall,
    Mountain,
    Woods,
    Water,
    Road,
    Bridge {
        #[serde(default)]
        elevated: bool,
    },
    Building {
        entrance: String,
    },
}

// ---------------------------------------------------------------- loading

/// Reads and validates a scenario file: a regular file of at most
/// [`MAX_FILE_BYTES`].
pub fn load(path: &Path) -> Result<Scenario, LoadScenarioError> {
    let origin = path_shown(path);
    let text = files::read_text(path, MAX_FILE_BYTES)
        .map_err(|e| LoadScenarioError::file(&origin, format!("cannot read the scenario: {e}")))?;
    parse_in(&text, &origin, path.parent())
}

/// Parses and validates scenario text; `origin` names it in messages. A stash
/// list named by file needs [`load`] or [`parse_in`].
pub fn parse(text: &str, origin: &str) -> Result<Scenario, LoadScenarioError> {
    parse_in(text, origin, None)
}

/// As [`parse`], reading a stash list file relative to `dir`.
pub fn parse_in(
    text: &str,
    origin: &str,
    dir: Option<&Path>,
) -> Result<Scenario, LoadScenarioError> {
    let error = |problems, more| LoadScenarioError::new(origin, problems, more);
    if probe_rules(text) == Some(RuleSystem::Warpspawn) {
        return Err(LoadScenarioError::file(
            origin,
            "this is a Warpspawn battle (rules: Warpspawn), not a Conflict at Cache table: the 3D table does not play Warpspawn battles yet; `sandtable-cli` validates, shows and plays them".to_owned(),
        ));
    }
    let file: FileScenario = read_ron(text, origin)?;
    // Counts past the engine's limits stop here, before areas are expanded;
    // names past theirs, before any message quotes them.
    let too_many = count_problems(&file);
    if !too_many.is_empty() {
        return Err(error(too_many, 0));
    }
    let bad_text = file_text_problems(&file);
    if !bad_text.is_empty() {
        return Err(error(bad_text, 0));
    }
    let (scenario, mut problems) = convert(file, dir);
    if !problems.is_empty() {
        return Err(error(problems, 0));
    }
    match scenario.setup.validate() {
        Ok(warnings) => {
            let mut scenario = scenario;
            scenario
                .warnings
                .extend(warnings.into_iter().map(from_setup_problem));
            Ok(scenario)
        }
        Err(e) => {
            problems.extend(e.problems.into_iter().map(from_setup_problem));
            Err(error(problems, e.more))
        }
    }
}

fn from_setup_problem(p: sandtable_cache::SetupProblem) -> Problem {
    Problem {
        location: Location::Field(p.path),
        message: p.message,
        ruling: p.ruling,
    }
}

/// The squares an area covers, worked out from its corners' names without
/// expanding it (0 when a name is not a square).
fn area_size(from: &str, to: &str) -> usize {
    match (from.parse::<Square>(), to.parse::<Square>()) {
        (Ok(a), Ok(b)) => {
            (usize::from(a.col.abs_diff(b.col)) + 1) * (usize::from(a.row.abs_diff(b.row)) + 1)
        }
        _ => 0,
    }
}

/// Names within the name rules of [`sandtable_core::text`] (at most
/// [`MAX_NAME_CHARS`] characters, no control characters or bidirectional
/// controls), and every other text of a file (square and hex names,
/// colours, a side named by a piece) no longer than a name: checked before
/// anything quotes them in a message, each problem with its field path.
pub(crate) fn text_problems<'a>(
    names: impl IntoIterator<Item = (String, &'a str)>,
    texts: impl IntoIterator<Item = (String, &'a str)>,
) -> Vec<Problem> {
    let mut problems: Vec<Problem> = names
        .into_iter()
        .filter_map(|(path, name)| name_problem(name).map(|m| Problem::field(path, m)))
        .collect();
    for (path, text) in texts {
        let count = text.chars().count();
        if count > MAX_NAME_CHARS {
            problems.push(Problem::field(
                path,
                format!(
                    "{} is {count} characters long; this field holds at most {MAX_NAME_CHARS}",
                    sandtable_core::text::quoted(text)
                ),
            ));
        }
    }
    problems
}

/// [`text_problems`] of a Cache scenario file.
fn file_text_problems(file: &FileScenario) -> Vec<Problem> {
    let mut names = vec![("name".to_owned(), file.name.as_str())];
    let mut texts = Vec::new();
    for (p, player) in file.players.iter().enumerate() {
        let path = format!("players[{p}]");
        names.push((format!("{path}.name"), player.name.as_str()));
        if let Some(colour) = &player.colour {
            texts.push((format!("{path}.colour"), colour.as_str()));
        }
        for (f, factor) in player.factors.iter().enumerate() {
            let path = format!("{path}.factors[{f}]");
            texts.push((format!("{path}.base"), factor.base.as_str()));
            for (u, unit) in factor.units.iter().enumerate() {
                let path = format!("{path}.units[{u}]");
                texts.push((format!("{path}.at"), unit.at.as_str()));
                if let Some(name) = &unit.name {
                    names.push((format!("{path}.name"), name.as_str()));
                }
            }
        }
    }
    for (t, terrain) in file.terrain.iter().enumerate() {
        let path = format!("terrain[{t}]");
        for (k, square) in terrain.squares.iter().flatten().enumerate() {
            texts.push((format!("{path}.squares[{k}]"), square.as_str()));
        }
        if let Some((a, b)) = &terrain.area {
            texts.push((format!("{path}.area.0"), a.as_str()));
            texts.push((format!("{path}.area.1"), b.as_str()));
        }
        if let FileTerrainKind::Building { entrance } = &terrain.kind {
            texts.push((format!("{path}.kind.entrance"), entrance.as_str()));
        }
    }
    for (k, stash) in file.stashes.iter().enumerate() {
        texts.push((format!("stashes[{k}]"), stash.as_str()));
    }
    text_problems(names, texts)
}

/// Refuses a file whose counts pass the engine's limits (units and Factors,
/// stashes, terrain squares with areas counted from their corners), each
/// problem naming its limit, before anything is expanded or allocated.
fn count_problems(file: &FileScenario) -> Vec<Problem> {
    let counts = sandtable_cache::Counts {
        factors: file.players.iter().map(|p| p.factors.len()).sum(),
        units: file
            .players
            .iter()
            .flat_map(|p| &p.factors)
            .map(|f| f.units.len())
            .sum(),
        stashes: file.stashes.len(),
        terrain_squares: file.terrain.iter().fold(0usize, |sum, t| {
            let n = t.squares.as_ref().map_or(0, Vec::len)
                + t.area.as_ref().map_or(0, |(a, b)| area_size(a, b));
            sum.saturating_add(n)
        }),
    };
    sandtable_cache::count_problems(counts)
        .into_iter()
        .map(from_setup_problem)
        .collect()
}

/// Reads square names and colours, expands areas and checks what the rules
/// crate cannot see (the board's size before anything is allocated, stashes
/// outside The Snyder Skirmish), collecting every problem.
fn convert(file: FileScenario, dir: Option<&Path>) -> (Scenario, Vec<Problem>) {
    let mut problems = Vec::new();
    let side = 1..=u64::from(MAX_BOARD_SIDE);
    let board = if side.contains(&file.board.columns) && side.contains(&file.board.rows) {
        Board {
            columns: file.board.columns as u16,
            rows: file.board.rows as u16,
        }
    } else {
        problems.push(
            Problem::field(
                "board",
                format!(
                    "a board of {} x {} squares is not allowed: columns and rows must each be 1 to {MAX_BOARD_SIDE}",
                    file.board.columns, file.board.rows
                ),
            )
            .with_ruling(Ruling::R1),
        );
        Board {
            columns: 0,
            rows: 0,
        }
    };
    let mut square = |text: &str, path: String| -> Square {
        match text.parse::<Square>() {
            Ok(sq) => sq,
            Err(e) => {
                problems.push(Problem::field(path, e.to_string()));
                Square::new(0, 0)
            }
        }
    };
    let mut players = Vec::new();
    let mut colour_texts = Vec::new();
    for (p, player) in file.players.iter().enumerate() {
        let mut factors = Vec::new();
        for (f, factor) in player.factors.iter().enumerate() {
            let fpath = format!("players[{p}].factors[{f}]");
            let base = square(&factor.base, format!("{fpath}.base"));
            let units = factor
                .units
                .iter()
                .enumerate()
                .map(|(u, unit)| UnitSetup {
                    at: square(&unit.at, format!("{fpath}.units[{u}].at")),
                    facing: unit.facing,
                    name: unit.name.clone(),
                })
                .collect();
            factors.push(FactorSetup { base, units });
        }
        players.push(PlayerSetup {
            name: player.name.clone(),
            factors,
        });
        colour_texts.push(player.colour.clone());
    }
    let mut terrain = Vec::new();
    let mut area_problems = Vec::new();
    for (i, piece) in file.terrain.iter().enumerate() {
        let path = format!("terrain[{i}]");
        let kind = match &piece.kind {
            FileTerrainKind::LowWall => TerrainKind::LowWall,
            FileTerrainKind::HighWall => TerrainKind::HighWall,
            FileTerrainKind::Mountain => TerrainKind::Mountain,
            FileTerrainKind::Woods => TerrainKind::Woods,
            FileTerrainKind::Water => TerrainKind::Water,
            FileTerrainKind::Road => TerrainKind::Road,
            FileTerrainKind::Bridge { elevated } => TerrainKind::Bridge {
                elevated: *elevated,
            },
            FileTerrainKind::Building { entrance } => TerrainKind::Building {
                entrance: square(entrance, format!("{path}.kind.entrance")),
            },
        };
        let squares = match (&piece.squares, &piece.area) {
            (Some(list), None) => list
                .iter()
                .enumerate()
                .map(|(k, s)| square(s, format!("{path}.squares[{k}]")))
                .collect(),
            (None, Some((from, to))) => {
                let a = square(from, format!("{path}.area.0"));
                let b = square(to, format!("{path}.area.1"));
                if board.contains(a) && board.contains(b) {
                    rectangle(a, b)
                } else {
                    let off = if board.contains(a) { b } else { a };
                    area_problems.push(
                        Problem::field(
                            format!("{path}.area"),
                            format!(
                                "corner {off} is off the board of {} x {} squares",
                                board.columns, board.rows
                            ),
                        )
                        .with_ruling(Ruling::R1),
                    );
                    Vec::new()
                }
            }
            (Some(_), Some(_)) => {
                area_problems.push(Problem::field(
                    &path,
                    "give either `squares` or `area`, not both",
                ));
                Vec::new()
            }
            (None, None) => {
                area_problems.push(Problem::field(
                    &path,
                    "a terrain entry needs `squares: [...]` or `area: (corner, corner)`",
                ));
                Vec::new()
            }
        };
        terrain.push(TerrainPiece { kind, squares });
    }
    let stashes: Vec<Square> = file
        .stashes
        .iter()
        .enumerate()
        .map(|(k, s)| square(s, format!("stashes[{k}]")))
        .collect();
    problems.extend(area_problems);
    let mut colours = Vec::new();
    for (p, text) in colour_texts.iter().enumerate() {
        match text.as_deref().map(str::parse::<Colour>) {
            None => colours.push(DEFAULT_COLOURS[p % DEFAULT_COLOURS.len()]),
            Some(Ok(c)) => colours.push(c),
            Some(Err(message)) => {
                problems.push(Problem::field(format!("players[{p}].colour"), message));
            }
        }
    }
    match file.rules {
        RuleSystem::ConflictAtCache if !stashes.is_empty() => problems.push(Problem::field(
            "stashes",
            "stashes belong to The Snyder Skirmish: set `rules: SnyderSkirmish` or remove them",
        )),
        RuleSystem::ConflictAtCache if file.stash_list.is_some() => problems.push(Problem::field(
            "stash_list",
            "a stash list belongs to The Snyder Skirmish: set `rules: SnyderSkirmish` or remove it",
        )),
        _ => {}
    }
    // The switches a system's rulings name (a reading chosen among several)
    // are set in `house_rules`; Conflict at Cache's rulings name none.
    for switch in file.house_rules.keys() {
        problems.push(Problem::field(
            format!("house_rules.{switch}"),
            format!(
                "`{switch}` is not a house rule of {}: its rulings name no switches, so `house_rules` stays empty",
                match file.rules {
                    RuleSystem::SnyderSkirmish => "The Snyder Skirmish",
                    _ => "Conflict at Cache",
                }
            ),
        ));
    }
    let mut warnings = Vec::new();
    let physical = file.physical.as_ref().and_then(|p| {
        let physical = Physical {
            square_mm: p.square_mm,
            table_mm: p.table_mm,
            figure_scale_mm: p.figure_scale_mm,
        };
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let (tw, td) = physical.table_mm;
        if ![physical.square_mm, tw, td, physical.figure_scale_mm].into_iter().all(positive) {
            problems.push(Problem::field(
                "physical",
                "square_mm, table_mm and figure_scale_mm must all be positive lengths in millimetres",
            ));
            return None;
        }
        if board.columns > 0 {
            let (gw, gd) = physical.grid_mm(board);
            let mut short = Vec::new();
            if gw > tw {
                short.push(format!("{:.1} mm too wide ({gw:.1} mm of squares on a {tw:.1} mm table)", gw - tw));
            }
            if gd > td {
                short.push(format!("{:.1} mm too deep ({gd:.1} mm of squares on a {td:.1} mm table)", gd - td));
            }
            if !short.is_empty() {
                problems.push(Problem::field(
                    "physical",
                    format!("the grid does not fit on the table: it is {}", short.join(" and ")),
                ));
            }
        }
        let base = physical.figure_base_mm();
        if physical.square_mm < base {
            warnings.push(Problem::field(
                "physical.square_mm",
                format!(
                    "squares of {:.1} mm are smaller than the {base:.1} mm base of a {:.0} mm figure: unit bases must fit within squares",
                    physical.square_mm, physical.figure_scale_mm
                ),
            ));
        }
        Some(physical)
    });
    let stash_list = match file.stash_list {
        None => StashList::seed_default(),
        Some(list) => read_stash_list(list, dir).unwrap_or_else(|mut found| {
            problems.append(&mut found);
            StashList::seed_default()
        }),
    };
    let setup = Setup {
        board,
        players,
        terrain,
        first_player: file.first_player,
        seed: file.seed,
        turn_limit: file.turn_limit,
        stashes,
        stash_list,
    };
    let models = if file.models.len() > models::MAX_MODELS {
        problems.push(Problem::field(
            "models",
            format!(
                "{} model entries are listed; at most {} are allowed",
                file.models.len(),
                models::MAX_MODELS
            ),
        ));
        Vec::new()
    } else {
        models::convert(
            file.models,
            models::Subjects::Cache(&setup),
            &mut problems,
            &mut warnings,
        )
    };
    let scenario = Scenario {
        name: file.name,
        rules: file.rules,
        setup,
        colours,
        physical,
        warnings,
        models,
    };
    (scenario, problems)
}

/// Reads a stash list given inline or by file, validated in full (R21).
fn read_stash_list(list: FileStashList, dir: Option<&Path>) -> Result<StashList, Vec<Problem>> {
    let (rows, origin) = match list {
        FileStashList::Rows(rows) => (rows, "stash_list".to_owned()),
        FileStashList::File(name) => {
            let Some(dir) = dir else {
                return Err(vec![Problem::field(
                    "stash_list",
                    format!(
                        "the stash list file `{name}` can only be read for a scenario loaded from a file"
                    ),
                )]);
            };
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            let path = dir.join(&name);
            let origin = format!("stash_list ({})", path_shown(&path));
            let outside = || {
                vec![Problem::field(
                    "stash_list",
                    format!(
                        "`{name}` is outside the scenario's folder: a stash list file is named relative to the scenario and lies in its folder or below"
                    ),
                )]
            };
            // Named inside the folder, and still inside once links are followed.
            if !files::stays_inside(Path::new(&name)) {
                return Err(outside());
            }
            if let (Ok(real), Ok(folder)) =
                (std::fs::canonicalize(&path), std::fs::canonicalize(dir))
                && !real.starts_with(folder)
            {
                return Err(outside());
            }
            let text = files::read_text(&path, MAX_STASH_LIST_BYTES).map_err(|e| {
                vec![Problem::field(
                    "stash_list",
                    format!("cannot read `{}`: {e}", path_shown(&path)),
                )]
            })?;
            let rows: Vec<StashRow> = ron::from_str(&text).map_err(|e| {
                vec![Problem::field(
                    &origin,
                    format!("{}:{}: {}", e.span.start.line, e.span.start.col, e.code),
                )]
            })?;
            (rows, origin)
        }
    };
    StashList::from_rows(&rows).map_err(|found| {
        found
            .into_iter()
            .map(|m| Problem::field(&origin, m).with_ruling(Ruling::R21))
            .collect()
    })
}

/// Every square of the rectangle between two corners, corners included.
fn rectangle(a: Square, b: Square) -> Vec<Square> {
    (a.row.min(b.row)..=a.row.max(b.row))
        .flat_map(|row| (a.col.min(b.col)..=a.col.max(b.col)).map(move |col| Square::new(col, row)))
        .collect()
}

// ---------------------------------------------------------------- writing

fn quoted(text: &str) -> String {
    ron::to_string(text).unwrap_or_else(|_| format!("{text:?}"))
}

fn kind_ron(kind: TerrainKind) -> String {
    match kind {
        TerrainKind::LowWall => "LowWall".to_owned(),
        TerrainKind::HighWall => "HighWall".to_owned(),
        TerrainKind::Mountain => "Mountain".to_owned(),
        TerrainKind::Woods => "Woods".to_owned(),
        TerrainKind::Water => "Water".to_owned(),
        TerrainKind::Road => "Road".to_owned(),
        TerrainKind::Bridge { elevated } => format!("Bridge(elevated: {elevated})"),
        TerrainKind::Building { entrance } => format!("Building(entrance: \"{entrance}\")"),
    }
}

fn square_list(squares: &[Square]) -> String {
    let names: Vec<String> = squares.iter().map(|s| format!("\"{s}\"")).collect();
    format!("[{}]", names.join(", "))
}

impl Scenario {
    /// The scenario as a RON file in the documented format; reading it back
    /// gives the same scenario.
    pub fn to_ron(&self) -> String {
        use std::fmt::Write as _;
        let s = &self.setup;
        let mut out = String::from("(\n");
        let _ = writeln!(out, "    name: {},", quoted(&self.name));
        let _ = writeln!(out, "    rules: {:?},", self.rules);
        let _ = writeln!(
            out,
            "    board: (columns: {}, rows: {}),",
            s.board.columns, s.board.rows
        );
        out.push_str("    players: [\n");
        for (p, player) in s.players.iter().enumerate() {
            let _ = writeln!(
                out,
                "        (\n            name: {},",
                quoted(&player.name)
            );
            if let Some(c) = self.colours.get(p) {
                let _ = writeln!(out, "            colour: \"{c}\",");
            }
            out.push_str("            factors: [\n");
            for factor in &player.factors {
                let _ = writeln!(
                    out,
                    "                (\n                    base: \"{}\",\n                    units: [",
                    factor.base
                );
                for unit in &factor.units {
                    let name = unit
                        .name
                        .as_deref()
                        .map(|n| format!(", name: {}", quoted(n)))
                        .unwrap_or_default();
                    let _ = writeln!(
                        out,
                        "                        (at: \"{}\", facing: {}{name}),",
                        unit.at, unit.facing
                    );
                }
                out.push_str("                    ],\n                ),\n");
            }
            out.push_str("            ],\n        ),\n");
        }
        out.push_str("    ],\n    terrain: [\n");
        for piece in &s.terrain {
            // A filled rectangle listed row by row is written as its corners.
            let lo = piece.squares.iter().copied().min_by_key(|q| (q.row, q.col));
            let hi = piece.squares.iter().copied().max_by_key(|q| (q.row, q.col));
            let place = match (lo, hi) {
                (Some(lo), Some(hi))
                    if piece.squares.len() > 1 && rectangle(lo, hi) == piece.squares =>
                {
                    format!("area: (\"{lo}\", \"{hi}\")")
                }
                _ => format!("squares: {}", square_list(&piece.squares)),
            };
            let _ = writeln!(out, "        (kind: {}, {place}),", kind_ron(piece.kind));
        }
        out.push_str("    ],\n");
        if !s.stashes.is_empty() {
            let _ = writeln!(out, "    stashes: {},", square_list(&s.stashes));
        }
        if s.stash_list != StashList::seed_default() {
            let rows: Vec<String> = s
                .stash_list
                .rows()
                .map(|r| format!("(roll: {}, result: {:?})", r.roll, r.result))
                .collect();
            let _ = writeln!(out, "    stash_list: [{}],", rows.join(", "));
        }
        let _ = writeln!(out, "    first_player: {:?},", s.first_player);
        let _ = writeln!(out, "    seed: {},", s.seed);
        let _ = writeln!(out, "    turn_limit: {:?},", s.turn_limit);
        if let Some(p) = self.physical {
            let _ = writeln!(
                out,
                "    physical: (square_mm: {:?}, table_mm: ({:?}, {:?}), figure_scale_mm: {:?}),",
                p.square_mm, p.table_mm.0, p.table_mm.1, p.figure_scale_mm
            );
        }
        crate::models::write_list(&mut out, &self.models);
        out.push_str(")\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_field_is_found_at_the_top_level_past_strings_comments_and_nesting() {
        let deep = format!("{}1{}", "[".repeat(300), "]".repeat(300));
        for (text, found) in [
            ("(rules: Warpspawn)", Some(RuleSystem::Warpspawn)),
            (
                "Scenario( // rules: Warpspawn\n name: \"rules: Warpspawn\", /* rules: /* nested */ Warpspawn */ rules : SnyderSkirmish)",
                Some(RuleSystem::SnyderSkirmish),
            ),
            (
                "(name: r#\"a \"rules: Warpspawn\" b\"#, c: 'r', rules: ConflictAtCache)",
                Some(RuleSystem::ConflictAtCache),
            ),
            ("(map: (rules: Warpspawn), name: \"x\")", None),
            ("(name: \"é\", rules: Checkers)", None),
            ("(rules: \"Warpspawn\")", None),
        ] {
            assert_eq!(scan_rules(text), found, "{text}");
        }
        // Past ron's nesting limit the reader gives up; the scan does not.
        let text = format!("(name: \"x\", rules: Warpspawn, map: {deep})");
        assert_eq!(probe_rules(&text), Some(RuleSystem::Warpspawn));
        let text = format!("(name: \"x\", map: {deep}, rules: Warpspawn)");
        assert_eq!(probe_rules(&text), Some(RuleSystem::Warpspawn));
    }
}
