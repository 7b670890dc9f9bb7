//! Scenario files of the Warpspawn battle (`rules: Warpspawn`): the file
//! schema, reading with every problem located (ron's line and column, or
//! the field path and the ruling), validation through the rules crate, and
//! writing a battle back in the documented format. The format is in
//! `docs/scenario-format.md#warpspawn-battles`.

use std::fmt::Write as _;

use sandtable_core::game::Ruling;
use sandtable_core::text::quoted;
use sandtable_warpspawn::offboard;
use sandtable_warpspawn::{
    Edge, EvenRow, HalfRound, Hex, MAX_COUNT, MAX_MAP_SIDE, MAX_PIECE_ENTRIES, Map, MeleeResult,
    MeleeRows, PiecesSetup, RallyLow, Setup, SideSetup, Switches, Terrain,
};
use serde::Deserialize;

use crate::{
    Colour, DEFAULT_COLOURS, DEFAULT_SEED, LoadScenarioError, Location, Problem, RuleSystem,
};

/// The most terrain and deployment hexes a file may name, areas counted
/// hex by hex before they are expanded.
pub const MAX_PLACES: usize = 200_000;

/// The most terrain entries, sides' places, or pieces a file may list.
pub const MAX_ENTRIES: usize = MAX_PIECE_ENTRIES;

/// Game turns when a battle names none (R64).
pub const DEFAULT_TURNS: u32 = 10;

/// Points a side may spend when its entry names none (R61).
pub const DEFAULT_POINTS: u32 = 100;

/// The physical table a hex map is set up on (lengths in millimetres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HexPhysical {
    /// A hex's width between opposite flat sides (R60): for flat-topped
    /// hexes, from its top side to its bottom side.
    pub hex_mm: f64,
    /// The table's width (left to right) and depth (near to far edge).
    pub table_mm: (f64, f64),
    /// Figure scale: foot to eye of a man-sized figure (15 is common for
    /// horse-and-musket battles).
    pub figure_scale_mm: f64,
}

impl HexPhysical {
    /// The table assumed when a battle gives none: 40 mm hexes on a table
    /// with one hex's rim round the map, 15 mm figures.
    pub fn assumed(map: Map) -> HexPhysical {
        let mut p = HexPhysical {
            hex_mm: 40.0,
            table_mm: (0.0, 0.0),
            figure_scale_mm: 15.0,
        };
        let (w, d) = p.map_mm(map);
        p.table_mm = (w + 2.0 * p.hex_mm, d + 2.0 * p.hex_mm);
        p
    }

    /// A hex's corner-to-corner width: two of its sides.
    pub fn hex_side_mm(&self) -> f64 {
        self.hex_mm / 3f64.sqrt()
    }

    /// The map's width and depth on the table: flat-topped hexes in columns
    /// 1.5 sides apart, the 2nd, 4th ... columns half a hex higher (R60).
    pub fn map_mm(&self, map: Map) -> (f64, f64) {
        let side = self.hex_side_mm();
        let width = side * (1.5 * f64::from(map.columns) + 0.5);
        let raised = if map.columns > 1 { 0.5 } else { 0.0 };
        (width, self.hex_mm * (f64::from(map.rows) + raised))
    }

    /// Where the map's near-left corner lies: centred on the table, in mm
    /// from the table's left and near edges.
    pub fn map_offset_mm(&self, map: Map) -> (f64, f64) {
        let (w, d) = self.map_mm(map);
        ((self.table_mm.0 - w) / 2.0, (self.table_mm.1 - d) / 2.0)
    }

    /// The centre of a hex, in mm from the table's left and near edges.
    pub fn hex_centre_mm(&self, map: Map, hex: Hex) -> (f64, f64) {
        let (ox, oy) = self.map_offset_mm(map);
        let side = self.hex_side_mm();
        let x = side + 1.5 * side * f64::from(hex.col);
        let raised = if hex.col % 2 == 1 { 0.5 } else { 0.0 };
        let y = self.hex_mm * (0.5 + f64::from(hex.row) + raised);
        (ox + x, oy + y)
    }
}

/// A loaded, valid battle.
#[derive(Debug, Clone, PartialEq)]
pub struct Battle {
    /// Its name, for people.
    pub name: String,
    /// The setup the rules crate validated (terrain in map order,
    /// deployment hexes sorted).
    pub setup: Setup,
    /// Each side's colour.
    pub colours: Vec<Colour>,
    /// The physical table, if the file gives one.
    pub physical: Option<HexPhysical>,
    /// Things worth telling a person that do not stop play (R61).
    pub warnings: Vec<Problem>,
}

impl Battle {
    /// A hash of what the battle holds: 16 hex digits. Game records pin the
    /// battle they were played on with it.
    pub fn content_hash(&self) -> String {
        crate::text_hash(&self.to_ron())
    }

    /// The physical table: the file's own, or [`HexPhysical::assumed`].
    pub fn table(&self) -> HexPhysical {
        self.physical
            .unwrap_or_else(|| HexPhysical::assumed(self.setup.map))
    }

    /// The `offboard` block, every field written out.
    fn write_offboard(&self, out: &mut String, o: &offboard::setup::OffboardSetup) {
        let side_name = |side: usize| crate::quoted(&self.setup.sides[side].name);
        let _ = writeln!(
            out,
            "    offboard: (\n        span: {},\n        sight: {},\n        scout_max_points: {},",
            o.span, o.sight, o.scout_max_points
        );
        out.push_str("        reserves: [\n");
        for (side, squares) in o.reserves.iter().enumerate() {
            if let Some(squares) = squares {
                let names: Vec<String> = squares.iter().map(|q| format!("\"{q}\"")).collect();
                let _ = writeln!(
                    out,
                    "            (side: {}, squares: [{}]),",
                    side_name(side),
                    names.join(", ")
                );
            }
        }
        out.push_str("        ],\n        counters: [\n");
        for c in &o.counters {
            let mut fields = vec![
                format!("number: {}", c.number),
                format!("side: {}", side_name(c.side)),
                format!("at: \"{}\"", c.at),
            ];
            fields.extend(piece_fields(&c.as_pieces()));
            let _ = writeln!(out, "            ({}),", fields.join(", "));
        }
        out.push_str("        ],\n    ),\n");
    }

    /// The battle as a RON file in the documented format; reading it back
    /// gives the same battle.
    pub fn to_ron(&self) -> String {
        let s = &self.setup;
        let mut out = String::from("(\n");
        let _ = writeln!(out, "    name: {},", crate::quoted(&self.name));
        out.push_str("    rules: Warpspawn,\n");
        let _ = writeln!(
            out,
            "    map: (columns: {}, rows: {}),",
            s.map.columns, s.map.rows
        );
        out.push_str("    terrain: [\n");
        for kind in Terrain::ALL {
            let hexes: Vec<Hex> = s
                .terrain
                .iter()
                .filter(|(_, t)| *t == kind)
                .map(|(h, _)| *h)
                .collect();
            if !hexes.is_empty() {
                let _ = writeln!(
                    out,
                    "        (kind: {kind}, hexes: {}),",
                    place_list(&hexes)
                );
            }
        }
        out.push_str("    ],\n    sides: [\n");
        for (i, side) in s.sides.iter().enumerate() {
            let _ = writeln!(
                out,
                "        (name: {}, colour: \"{}\", home: {}, points: {}, deployment: {}),",
                crate::quoted(&side.name),
                self.colours[i],
                side.home,
                side.points,
                place_list(&side.deployment)
            );
        }
        out.push_str("    ],\n    pieces: [\n");
        for p in &s.pieces {
            let mut fields = vec![
                format!("at: \"{}\"", p.at),
                format!("side: {}", crate::quoted(&s.sides[p.side].name)),
            ];
            fields.extend(piece_fields(p));
            let _ = writeln!(out, "        ({}),", fields.join(", "));
        }
        out.push_str("    ],\n");
        let _ = writeln!(out, "    turns: {},", s.turns);
        let _ = writeln!(out, "    seed: {},", s.seed);
        if let Some(first) = s.first_player {
            let _ = writeln!(
                out,
                "    first_player: {},",
                crate::quoted(&s.sides[first].name)
            );
        }
        let sw = s.switches;
        if sw != Switches::default() {
            let mut fields = Vec::new();
            let d = Switches::default();
            if sw.cannon_range != d.cannon_range {
                fields.push(format!("cannon_range: {}", sw.cannon_range));
            }
            if sw.melee_rows != d.melee_rows {
                let rows: Vec<String> = sw
                    .melee_rows
                    .0
                    .iter()
                    .map(|r| {
                        let cells: Vec<String> = r.iter().map(|c| format!("{c:?}")).collect();
                        format!("[{}]", cells.join(", "))
                    })
                    .collect();
                fields.push(format!("melee_rows: [{}]", rows.join(", ")));
            }
            if sw.even_row != d.even_row {
                fields.push("even_row: refused".to_owned());
            }
            if sw.half_round != d.half_round {
                fields.push("half_round: up".to_owned());
            }
            if sw.rally_low != d.rally_low {
                fields.push("rally_low: flee".to_owned());
            }
            if sw.capture_the_flag {
                fields.push("capture_the_flag: true".to_owned());
            }
            if sw.off_map.superior_numbers != d.off_map.superior_numbers {
                fields.push(format!(
                    "superior_numbers: {}",
                    match sw.off_map.superior_numbers {
                        offboard::fight::SuperiorNumbers::OneForOne => "one_for_one",
                        offboard::fight::SuperiorNumbers::Excess => "excess",
                        offboard::fight::SuperiorNumbers::Off => "off",
                    }
                ));
            }
            if sw.off_map.standoff != d.off_map.standoff {
                fields.push(format!(
                    "standoff: {}",
                    match sw.off_map.standoff {
                        offboard::fight::StandoffRule::Bounce => "bounce",
                        offboard::fight::StandoffRule::Reroll => "reroll",
                    }
                ));
            }
            let _ = writeln!(out, "    house_rules: ({}),", fields.join(", "));
        }
        if let Some(p) = self.physical {
            let _ = writeln!(
                out,
                "    physical: (hex_mm: {:?}, table_mm: ({:?}, {:?}), figure_scale_mm: {:?}),",
                p.hex_mm, p.table_mm.0, p.table_mm.1, p.figure_scale_mm
            );
        }
        if let Some(o) = &s.offboard {
            self.write_offboard(&mut out, o);
        }
        out.push_str(")\n");
        out
    }
}

/// Hexes written as a list of names, a run of a column's hexes as `C2:C7`
/// and a whole rectangle as its corners.
fn place_list(hexes: &[Hex]) -> String {
    let mut sorted = hexes.to_vec();
    sorted.sort();
    sorted.dedup();
    if let (Some(lo), Some(hi)) = (sorted.first(), sorted.last()) {
        let rows = (
            sorted.iter().map(|h| h.row).min(),
            sorted.iter().map(|h| h.row).max(),
        );
        if let (Some(r0), Some(r1)) = rows {
            let count = usize::from(hi.col - lo.col + 1) * usize::from(r1 - r0 + 1);
            if sorted.len() > 1 && count == sorted.len() {
                return format!("[\"{}:{}\"]", Hex::new(lo.col, r0), Hex::new(hi.col, r1));
            }
        }
    }
    let mut names = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let start = sorted[i];
        let mut end = start;
        while i + 1 < sorted.len()
            && sorted[i + 1].col == end.col
            && sorted[i + 1].row == end.row + 1
        {
            i += 1;
            end = sorted[i];
        }
        names.push(if end == start {
            format!("\"{start}\"")
        } else {
            format!("\"{start}:{end}\"")
        });
        i += 1;
    }
    format!("[{}]", names.join(", "))
}

/// The fields of a map entry's or a counter's pieces, as a file writes them:
/// only the men there are and the pieces it has.
fn piece_fields(p: &PiecesSetup) -> Vec<String> {
    let mut fields = Vec::new();
    for (name, n) in [
        ("infantry", p.infantry),
        ("cavalry", p.cavalry),
        ("officers", p.officers),
    ] {
        if n > 0 {
            fields.push(format!("{name}: {n}"));
        }
    }
    for (name, b) in [
        ("cannon", p.cannon),
        ("baggage", p.baggage),
        ("flag", p.flag),
    ] {
        if b {
            fields.push(format!("{name}: true"));
        }
    }
    fields
}

// ---------------------------------------------------------------- file schema

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "scenario")]
struct FileBattle {
    name: String,
    rules: RuleSystem,
    map: FileMap,
    #[serde(default)]
    terrain: Vec<FileTerrain>,
    sides: Vec<FileSide>,
    #[serde(default)]
    pieces: Vec<FilePieces>,
    #[serde(default = "default_turns")]
    turns: u32,
    #[serde(default = "default_seed")]
    seed: u64,
    #[serde(default)]
    first_player: Option<String>,
    #[serde(default)]
    house_rules: FileHouseRules,
    #[serde(default)]
    physical: Option<FilePhysical>,
    #[serde(default)]
    offboard: Option<FileOffboard>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "offboard")]
struct FileOffboard {
    #[serde(default = "default_span")]
    span: u64,
    #[serde(default = "default_sight")]
    sight: u64,
    #[serde(default = "default_scout_points")]
    scout_max_points: u64,
    #[serde(default)]
    reserves: Vec<FileReserve>,
    #[serde(default)]
    counters: Vec<FileCounter>,
}

fn default_span() -> u64 {
    u64::from(offboard::setup::DEFAULT_SPAN)
}

fn default_sight() -> u64 {
    u64::from(offboard::setup::DEFAULT_SIGHT)
}

fn default_scout_points() -> u64 {
    u64::from(offboard::counter::SCOUT_MAX_POINTS)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "reserve")]
struct FileReserve {
    side: String,
    squares: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "counter")]
struct FileCounter {
    number: u64,
    side: String,
    at: String,
    #[serde(default)]
    infantry: u64,
    #[serde(default)]
    cavalry: u64,
    #[serde(default)]
    officers: u64,
    #[serde(default)]
    cannon: bool,
    #[serde(default)]
    baggage: bool,
    #[serde(default)]
    flag: bool,
}

fn default_turns() -> u32 {
    DEFAULT_TURNS
}

fn default_seed() -> u64 {
    DEFAULT_SEED
}

fn default_points() -> u32 {
    DEFAULT_POINTS
}

fn default_figure_scale() -> f64 {
    15.0
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "map")]
struct FileMap {
    columns: u64,
    rows: u64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "terrain")]
struct FileTerrain {
    kind: Terrain,
    hexes: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "side")]
struct FileSide {
    name: String,
    #[serde(default)]
    colour: Option<String>,
    home: Edge,
    deployment: Vec<String>,
    #[serde(default = "default_points")]
    points: u32,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "pieces")]
struct FilePieces {
    at: String,
    side: String,
    #[serde(default)]
    infantry: u64,
    #[serde(default)]
    cavalry: u64,
    #[serde(default)]
    officers: u64,
    #[serde(default)]
    cannon: bool,
    #[serde(default)]
    baggage: bool,
    #[serde(default)]
    flag: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename = "house_rules")]
struct FileHouseRules {
    #[serde(default)]
    cannon_range: Option<u64>,
    #[serde(default)]
    melee_rows: Option<Vec<Vec<MeleeResult>>>,
    #[serde(default)]
    even_row: Option<EvenRow>,
    #[serde(default)]
    half_round: Option<HalfRound>,
    #[serde(default)]
    rally_low: Option<RallyLow>,
    #[serde(default)]
    capture_the_flag: Option<bool>,
    #[serde(default)]
    superior_numbers: Option<offboard::fight::SuperiorNumbers>,
    #[serde(default)]
    standoff: Option<offboard::fight::StandoffRule>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "physical")]
struct FilePhysical {
    hex_mm: f64,
    table_mm: (f64, f64),
    #[serde(default = "default_figure_scale")]
    figure_scale_mm: f64,
}

// ---------------------------------------------------------------- loading

/// [`crate::text_problems`] of a battle file.
fn file_text_problems(file: &FileBattle) -> Vec<Problem> {
    let mut names = vec![("name".to_owned(), file.name.as_str())];
    let mut texts = Vec::new();
    for (i, side) in file.sides.iter().enumerate() {
        names.push((format!("sides[{i}].name"), side.name.as_str()));
        if let Some(colour) = &side.colour {
            texts.push((format!("sides[{i}].colour"), colour.as_str()));
        }
        for (k, place) in side.deployment.iter().enumerate() {
            texts.push((format!("sides[{i}].deployment[{k}]"), place.as_str()));
        }
    }
    for (i, terrain) in file.terrain.iter().enumerate() {
        for (k, place) in terrain.hexes.iter().enumerate() {
            texts.push((format!("terrain[{i}].hexes[{k}]"), place.as_str()));
        }
    }
    for (i, p) in file.pieces.iter().enumerate() {
        texts.push((format!("pieces[{i}].at"), p.at.as_str()));
        texts.push((format!("pieces[{i}].side"), p.side.as_str()));
    }
    if let Some(first) = &file.first_player {
        texts.push(("first_player".to_owned(), first.as_str()));
    }
    crate::text_problems(names, texts)
}

/// Parses and validates the text of a battle; `origin` names it in
/// messages.
pub fn parse(text: &str, origin: &str) -> Result<Battle, LoadScenarioError> {
    let error = |problems, more| LoadScenarioError::new(origin, problems, more);
    let file: FileBattle = crate::read_ron(text, origin)?;
    let too_many = count_problems(&file);
    if !too_many.is_empty() {
        return Err(error(too_many, 0));
    }
    let bad_text = file_text_problems(&file);
    if !bad_text.is_empty() {
        return Err(error(bad_text, 0));
    }
    let (battle, problems) = convert(file);
    if !problems.is_empty() {
        return Err(error(problems, 0));
    }
    match sandtable_warpspawn::validate(&battle.setup) {
        Ok(()) => {
            let mut battle = battle;
            battle.warnings.extend(
                sandtable_warpspawn::warnings(&battle.setup)
                    .into_iter()
                    .map(|w| {
                        Problem::field("sides", w.trim_end_matches(" (R61)").to_owned())
                            .with_ruling(Ruling(61))
                    }),
            );
            Ok(battle)
        }
        Err(e) => Err(error(
            e.problems
                .into_iter()
                .map(|p| Problem {
                    location: Location::Field(p.path),
                    message: p.message,
                    ruling: p.ruling,
                })
                .collect(),
            e.more,
        )),
    }
}

/// The hexes a place names without expanding it: 1 for a hex, the
/// rectangle's for `A1:P3`, 0 when it is not a place.
fn place_size(text: &str) -> usize {
    match text.split_once(':') {
        None => 1,
        Some((a, b)) => match (a.parse::<Hex>(), b.parse::<Hex>()) {
            (Ok(a), Ok(b)) => {
                (usize::from(a.col.abs_diff(b.col)) + 1) * (usize::from(a.row.abs_diff(b.row)) + 1)
            }
            _ => 0,
        },
    }
}

fn count_problems(file: &FileBattle) -> Vec<Problem> {
    let mut problems = Vec::new();
    let places: usize = file
        .terrain
        .iter()
        .flat_map(|t| &t.hexes)
        .chain(file.sides.iter().flat_map(|s| &s.deployment))
        .map(|p| place_size(p))
        .fold(0usize, usize::saturating_add);
    if places > MAX_PLACES {
        problems.push(Problem::field(
            "terrain",
            format!("the terrain and deployment places name {places} hexes; at most {MAX_PLACES} are allowed"),
        ));
    }
    for (what, n) in [
        ("terrain", file.terrain.len()),
        ("pieces", file.pieces.len()),
        ("sides", file.sides.len()),
    ] {
        if n > MAX_ENTRIES {
            problems.push(Problem::field(
                what,
                format!("{n} entries are listed; at most {MAX_ENTRIES} are allowed"),
            ));
        }
    }
    problems
}

/// Reads a place: a hex `C4`, or a rectangle `A1:P3` of the hexes whose
/// column and row lie between its corners'.
fn read_place(text: &str, map: Map, path: String, problems: &mut Vec<Problem>) -> Vec<Hex> {
    let hex = |t: &str, problems: &mut Vec<Problem>| match t.trim().parse::<Hex>() {
        Ok(h) if map.contains(h) => Some(h),
        Ok(h) => {
            problems.push(
                Problem::field(
                    &path,
                    format!("{h} is off the map of {} x {} hexes", map.columns, map.rows),
                )
                .with_ruling(Ruling(60)),
            );
            None
        }
        Err(e) => {
            problems.push(Problem::field(&path, e.to_string()));
            None
        }
    };
    match text.split_once(':') {
        None => hex(text, problems).into_iter().collect(),
        Some((a, b)) => match (hex(a, problems), hex(b, problems)) {
            (Some(a), Some(b)) => (a.col.min(b.col)..=a.col.max(b.col))
                .flat_map(|c| (a.row.min(b.row)..=a.row.max(b.row)).map(move |r| Hex::new(c, r)))
                .collect(),
            _ => Vec::new(),
        },
    }
}

fn count(n: u64, path: String, problems: &mut Vec<Problem>) -> u16 {
    if n > u64::from(MAX_COUNT) {
        problems.push(Problem::field(
            path,
            format!("{n} is over the most an entry may hold, {MAX_COUNT}"),
        ));
        0
    } else {
        n as u16
    }
}

/// Largest number a counter may have.
const MAX_COUNTER_NUMBER: u64 = 9_999;

/// Reads the `offboard` block (R40-R57): its squares by name (`2E`), its
/// sides by name; the rest is checked by the rules crate.
fn convert_offboard(
    o: &FileOffboard,
    side_index: &dyn Fn(&str) -> Option<usize>,
    names: &str,
    problems: &mut Vec<Problem>,
) -> offboard::setup::OffboardSetup {
    let small = |n: u64, path: &str, ruling: u16, problems: &mut Vec<Problem>| -> u16 {
        u16::try_from(n).unwrap_or_else(|_| {
            problems.push(
                Problem::field(path, format!("{n} is too large")).with_ruling(Ruling(ruling)),
            );
            0
        })
    };
    let side_of = |name: &str, path: String, problems: &mut Vec<Problem>| {
        let found = side_index(name);
        if found.is_none() {
            problems.push(Problem::field(
                path,
                format!(
                    "there is no side named {}; the sides are {names}",
                    quoted(name)
                ),
            ));
        }
        found
    };
    let square = |text: &str, path: String, problems: &mut Vec<Problem>| {
        text.parse::<offboard::ring::Square>()
            .map_err(|e| problems.push(Problem::field(path, e.to_string()).with_ruling(Ruling(40))))
            .ok()
    };
    let mut reserves: Vec<Option<Vec<offboard::ring::Square>>> = Vec::new();
    for (i, r) in o.reserves.iter().enumerate() {
        let Some(side) = side_of(&r.side, format!("offboard.reserves[{i}].side"), problems) else {
            continue;
        };
        if reserves.len() <= side {
            reserves.resize(side + 1, None);
        }
        if reserves[side].is_some() {
            problems.push(
                Problem::field(
                    format!("offboard.reserves[{i}].side"),
                    format!("{} has its reserve squares given twice", quoted(&r.side)),
                )
                .with_ruling(Ruling(42)),
            );
            continue;
        }
        let squares = r
            .squares
            .iter()
            .enumerate()
            .filter_map(|(k, text)| {
                square(
                    text,
                    format!("offboard.reserves[{i}].squares[{k}]"),
                    problems,
                )
            })
            .collect();
        reserves[side] = Some(squares);
    }
    let mut counters = Vec::new();
    for (i, c) in o.counters.iter().enumerate() {
        let path = format!("offboard.counters[{i}]");
        if c.number == 0 || c.number > MAX_COUNTER_NUMBER {
            problems.push(
                Problem::field(
                    format!("{path}.number"),
                    format!(
                        "a counter's number is 1 to {MAX_COUNTER_NUMBER}, not {}",
                        c.number
                    ),
                )
                .with_ruling(Ruling(43)),
            );
            continue;
        }
        let side = side_of(&c.side, format!("{path}.side"), problems);
        let at = square(&c.at, format!("{path}.at"), problems);
        let (Some(side), Some(at)) = (side, at) else {
            continue;
        };
        counters.push(offboard::setup::CounterSetup {
            number: c.number as u16,
            side,
            at,
            pieces: offboard::counter::Composition {
                infantry: count(c.infantry, format!("{path}.infantry"), problems),
                cavalry: count(c.cavalry, format!("{path}.cavalry"), problems),
                officers: count(c.officers, format!("{path}.officers"), problems),
                cannon: c.cannon,
                baggage: c.baggage,
                flag: c.flag,
            },
        });
    }
    offboard::setup::OffboardSetup {
        span: small(o.span, "offboard.span", 40, problems),
        sight: small(o.sight, "offboard.sight", 55, problems),
        scout_max_points: u32::try_from(o.scout_max_points).unwrap_or(u32::MAX),
        reserves,
        counters,
    }
}

fn convert(file: FileBattle) -> (Battle, Vec<Problem>) {
    let mut problems = Vec::new();
    if file.rules != RuleSystem::Warpspawn {
        problems.push(Problem::field("rules", "a battle's rules are Warpspawn"));
    }
    let side_ok = 1..=u64::from(MAX_MAP_SIDE);
    let map = if side_ok.contains(&file.map.columns) && side_ok.contains(&file.map.rows) {
        Map {
            columns: file.map.columns as u16,
            rows: file.map.rows as u16,
        }
    } else {
        problems.push(
            Problem::field(
                "map",
                format!(
                    "a map of {} x {} hexes is not allowed: columns and rows must each be 1 to {MAX_MAP_SIDE}",
                    file.map.columns, file.map.rows
                ),
            )
            .with_ruling(Ruling(60)),
        );
        Map {
            columns: 0,
            rows: 0,
        }
    };
    let mut terrain: Vec<(Hex, Terrain)> = Vec::new();
    let mut first_at: std::collections::BTreeMap<Hex, String> = std::collections::BTreeMap::new();
    for (i, entry) in file.terrain.iter().enumerate() {
        for (k, place) in entry.hexes.iter().enumerate() {
            let path = format!("terrain[{i}].hexes[{k}]");
            for hex in read_place(place, map, path.clone(), &mut problems) {
                match first_at.get(&hex) {
                    Some(first) => problems.push(
                        Problem::field(
                            &path,
                            format!("{hex} is given a terrain twice (first in {first}); a hex has one terrain"),
                        )
                        .with_ruling(Ruling(60)),
                    ),
                    None => {
                        first_at.insert(hex, path.clone());
                        terrain.push((hex, entry.kind));
                    }
                }
            }
        }
    }
    terrain.sort();
    let mut sides = Vec::new();
    let mut colours = Vec::new();
    for (i, side) in file.sides.iter().enumerate() {
        let mut deployment = Vec::new();
        for (k, place) in side.deployment.iter().enumerate() {
            deployment.extend(read_place(
                place,
                map,
                format!("sides[{i}].deployment[{k}]"),
                &mut problems,
            ));
        }
        deployment.sort();
        deployment.dedup();
        if file.sides[..i].iter().any(|s| s.name == side.name) {
            problems.push(Problem::field(
                format!("sides[{i}].name"),
                format!("two sides are named \"{}\"", side.name),
            ));
        }
        match side.colour.as_deref().map(str::parse::<Colour>) {
            None => colours.push(DEFAULT_COLOURS[i % DEFAULT_COLOURS.len()]),
            Some(Ok(c)) => colours.push(c),
            Some(Err(message)) => {
                problems.push(Problem::field(format!("sides[{i}].colour"), message))
            }
        }
        sides.push(SideSetup {
            name: side.name.clone(),
            home: side.home,
            deployment,
            points: side.points,
        });
    }
    let side_index = |name: &str| file.sides.iter().position(|s| s.name == name);
    let names = file
        .sides
        .iter()
        .map(|s| quoted(&s.name))
        .collect::<Vec<_>>()
        .join(", ");
    let mut pieces = Vec::new();
    for (i, p) in file.pieces.iter().enumerate() {
        let path = format!("pieces[{i}]");
        let at = match p.at.parse::<Hex>() {
            Ok(h) => h,
            Err(e) => {
                problems.push(Problem::field(format!("{path}.at"), e.to_string()));
                continue;
            }
        };
        let Some(side) = side_index(&p.side) else {
            problems.push(Problem::field(
                format!("{path}.side"),
                format!(
                    "there is no side named {}; the sides are {names}",
                    quoted(&p.side)
                ),
            ));
            continue;
        };
        pieces.push(PiecesSetup {
            at,
            side,
            infantry: count(p.infantry, format!("{path}.infantry"), &mut problems),
            cavalry: count(p.cavalry, format!("{path}.cavalry"), &mut problems),
            officers: count(p.officers, format!("{path}.officers"), &mut problems),
            cannon: p.cannon,
            baggage: p.baggage,
            flag: p.flag,
        });
    }
    let first_player = file.first_player.as_deref().and_then(|name| {
        let found = side_index(name);
        if found.is_none() {
            problems.push(
                Problem::field(
                    "first_player",
                    format!(
                        "there is no side named {}; the sides are {names}",
                        quoted(name)
                    ),
                )
                .with_ruling(Ruling(64)),
            );
        }
        found
    });
    let mut switches = Switches::default();
    let h = &file.house_rules;
    if let Some(range) = h.cannon_range {
        if (1..=6).contains(&range) {
            switches.cannon_range = range as u8;
        } else {
            problems.push(
                Problem::field(
                    "house_rules.cannon_range",
                    format!("a cannon's range is 1 to 6 hexes, not {range}"),
                )
                .with_ruling(Ruling(65)),
            );
        }
    }
    if let Some(rows) = &h.melee_rows {
        let shaped = rows.len() == 5 && rows.iter().all(|r| r.len() == 6);
        if shaped {
            let mut table = MeleeRows::default();
            for (i, row) in rows.iter().enumerate() {
                table.0[i].copy_from_slice(row);
            }
            switches.melee_rows = table;
        } else {
            problems.push(
                Problem::field(
                    "house_rules.melee_rows",
                    "the melee table is 5 rows (4:1, 3:1, 2:1, 3:2, even) of 6 results each, for rolls 1 to 6",
                )
                .with_ruling(Ruling(75)),
            );
        }
    }
    if let Some(v) = h.even_row {
        switches.even_row = v;
    }
    if let Some(v) = h.half_round {
        switches.half_round = v;
    }
    if let Some(v) = h.rally_low {
        switches.rally_low = v;
    }
    if let Some(v) = h.capture_the_flag {
        switches.capture_the_flag = v;
    }
    if let Some(v) = h.superior_numbers {
        switches.off_map.superior_numbers = v;
    }
    if let Some(v) = h.standoff {
        switches.off_map.standoff = v;
    }
    let offboard = file
        .offboard
        .as_ref()
        .map(|o| convert_offboard(o, &side_index, &names, &mut problems));
    let physical = file.physical.as_ref().and_then(|p| {
        let physical = HexPhysical {
            hex_mm: p.hex_mm,
            table_mm: p.table_mm,
            figure_scale_mm: p.figure_scale_mm,
        };
        let positive = |v: f64| v.is_finite() && v > 0.0;
        let (tw, td) = physical.table_mm;
        if ![physical.hex_mm, tw, td, physical.figure_scale_mm]
            .into_iter()
            .all(positive)
        {
            problems.push(Problem::field(
                "physical",
                "hex_mm, table_mm and figure_scale_mm must all be positive lengths in millimetres",
            ));
            return None;
        }
        if map.columns > 0 {
            let (w, d) = physical.map_mm(map);
            let mut short = Vec::new();
            if w > tw + 1e-9 {
                short.push(format!(
                    "{:.1} mm too wide ({w:.1} mm of hexes on a {tw:.1} mm table)",
                    w - tw
                ));
            }
            if d > td + 1e-9 {
                short.push(format!(
                    "{:.1} mm too deep ({d:.1} mm of hexes on a {td:.1} mm table)",
                    d - td
                ));
            }
            if !short.is_empty() {
                problems.push(Problem::field(
                    "physical",
                    format!(
                        "the map does not fit on the table: it is {}",
                        short.join(" and ")
                    ),
                ));
            }
        }
        Some(physical)
    });
    let setup = Setup {
        map,
        terrain,
        sides,
        pieces,
        turns: file.turns,
        seed: file.seed,
        first_player,
        switches,
        offboard,
    };
    (
        Battle {
            name: file.name,
            setup,
            colours,
            physical,
            warnings: Vec::new(),
        },
        problems,
    )
}
