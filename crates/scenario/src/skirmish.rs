//! Frontiers skirmish files (`rules: Frontiers`): a plane table in whole
//! millimetres, terrain polygons by kind, building elements, the two sides
//! and their units by data id, and the rulings' switches, documented in
//! `docs/scenario-format.md`. Every problem is reported with its field
//! path and ruling; the rules crate checks what lies in space (a unit off
//! the table, two units overlapping, an unknown data id ...).

use std::fmt::Write as _;

use serde::Deserialize;

use sandtable_core::game::Ruling;
use sandtable_frontiers::Setup;
use sandtable_frontiers::data::Faction;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{
    DropRule, Element, LightStacking, MAX_CORNERS, MAX_PIECES, MAX_SPACES, MAX_UNITS, Opening,
    OpeningKind, PenaltySymbol, SideSetup, SniperBuilding, Switches, Terrain, TerrainKind,
    UnitSetup, Victory,
};
use sandtable_frontiers::smoke::SmokeStacking;
use sandtable_frontiers::victory::Mode;

use crate::{LoadScenarioError, Location, Problem, RuleSystem};

/// A loaded, valid skirmish.
#[derive(Debug, Clone, PartialEq)]
pub struct Skirmish {
    /// Its name, for people.
    pub name: String,
    /// The setup the rules crate checked.
    pub setup: Setup,
    /// Things worth telling a person that do not stop play.
    pub warnings: Vec<Problem>,
    /// The skirmish's own models for its pieces; pieces without one keep
    /// the table's own look ([`crate::models`]).
    pub models: Vec<crate::ModelChoice>,
}

impl Skirmish {
    /// A hash of what the skirmish holds: 16 hex digits. Game records pin
    /// the skirmish they were played on with it.
    pub fn content_hash(&self) -> String {
        crate::text_hash(&self.to_ron())
    }

    /// The skirmish as a scenario file, every field written out.
    pub fn to_ron(&self) -> String {
        let s = &self.setup;
        let mut out = String::new();
        let _ = writeln!(out, "(\n    name: {},", crate::quoted(&self.name));
        out.push_str("    rules: Frontiers,\n");
        let _ = writeln!(
            out,
            "    table: (width_mm: {}, depth_mm: {}),",
            s.table.0, s.table.1
        );
        let _ = writeln!(out, "    turns: {},\n    seed: {},", s.turns, s.seed);
        if s.victory != Victory::Skirmish {
            let _ = writeln!(out, "    victory: {:?},", s.victory);
        }
        if let Some(ap) = s.ap {
            let _ = writeln!(out, "    ap: {ap},");
        }
        if !s.objectives.is_empty() {
            let at: Vec<String> = s
                .objectives
                .iter()
                .map(|c| format!("({}, {})", c.x, c.y))
                .collect();
            let _ = writeln!(out, "    objectives: [{}],", at.join(", "));
        }
        if s.victory == Victory::Cameron {
            let _ = writeln!(
                out,
                "    attacker: {},",
                crate::quoted(&s.sides[usize::from(s.attacker)].name)
            );
        }
        if s.victory == Victory::AttackDefense {
            let _ = writeln!(
                out,
                "    attacker: {},\n    mode: {:?},",
                crate::quoted(&s.sides[usize::from(s.attacker)].name),
                s.mode
            );
        }
        if let Some(depth) = s.deploy_mm {
            let _ = writeln!(out, "    deploy_mm: {depth},");
        }
        if let Some(d) = s.diskette {
            let _ = writeln!(out, "    diskette: ({}, {}),", d.x, d.y);
        }
        if let Some((e, k)) = s.teleprinter {
            let id = sandtable_frontiers::setup::element_id(&s.elements, usize::from(e));
            let _ = writeln!(out, "    teleprinter: \"{id}.{}\",", k + 1);
        }
        if !s.crates.is_empty() {
            let at: Vec<String> = s
                .crates
                .iter()
                .map(|c| format!("({}, {})", c.x, c.y))
                .collect();
            let _ = writeln!(out, "    crates: [{}],", at.join(", "));
        }
        let sw = s.switches;
        let _ = writeln!(
            out,
            "    switches: (lns_mm: {}, ruler_lns: {}, contact_mm: {}, light_stacking: {}, penalty_symbol: {}, smoke_stacking: {}, sniper_building: {}, drop: {}),",
            sw.lns_mm,
            sw.ruler_lns,
            sw.contact_mm,
            match sw.light_stacking {
                LightStacking::Once => "once",
                LightStacking::Each => "each",
            },
            match sw.penalty_symbol {
                PenaltySymbol::Shooter => "shooter",
                PenaltySymbol::Off => "off",
            },
            match sw.smoke_stacking {
                SmokeStacking::Each => "each",
                SmokeStacking::Worst => "worst",
            },
            match sw.sniper_building {
                SniperBuilding::Table => "table",
                SniperBuilding::Example => "example",
            },
            match sw.drop {
                DropRule::Scatter => "scatter",
                DropRule::Placed => "placed",
            },
        );
        out.push_str("    sides: [\n");
        for side in &s.sides {
            let _ = write!(
                out,
                "        (name: {}, faction: {:?}",
                crate::quoted(&side.name),
                side.faction
            );
            if let Some(deck) = &side.deck {
                let ids: Vec<String> = deck.iter().map(|c| crate::quoted(c)).collect();
                let _ = write!(out, ", deck: [{}]", ids.join(", "));
                if side.deck_order {
                    out.push_str(", deck_order: true");
                }
            }
            out.push_str("),\n");
        }
        out.push_str("    ],\n    terrain: [\n");
        for t in &s.terrain {
            let _ = writeln!(
                out,
                "        (kind: {}, corners: {}),",
                kind_ron(t.kind),
                corners(&t.corners)
            );
        }
        out.push_str("    ],\n    buildings: [\n");
        for e in &s.elements {
            let mut fields = vec![format!("name: {}", crate::quoted(&e.name))];
            if !e.id.is_empty() {
                fields.push(format!("id: {}", crate::quoted(&e.id)));
            }
            fields.push(format!("corners: {}", corners(&e.corners)));
            fields.push(format!("defense: {}, steps: {}", e.defense, e.steps));
            if !e.spaces.is_empty() {
                fields.push(format!("spaces: {}", corners(&e.spaces)));
            }
            if !e.links.is_empty() {
                let links: Vec<String> = e
                    .links
                    .iter()
                    .map(|(a, b)| format!("({}, {})", u16::from(*a) + 1, u16::from(*b) + 1))
                    .collect();
                fields.push(format!("links: [{}]", links.join(", ")));
            }
            for (what, kind) in [
                ("doors", OpeningKind::Door),
                ("windows", OpeningKind::Window),
            ] {
                let list: Vec<String> = e
                    .openings
                    .iter()
                    .filter(|o| o.kind == kind)
                    .map(|o| {
                        let behind: Vec<String> = o
                            .behind
                            .iter()
                            .map(|k| (u16::from(*k) + 1).to_string())
                            .collect();
                        format!(
                            "(from: ({}, {}), to: ({}, {}), behind: [{}])",
                            o.a.x,
                            o.a.y,
                            o.b.x,
                            o.b.y,
                            behind.join(", ")
                        )
                    })
                    .collect();
                if !list.is_empty() {
                    fields.push(format!("{what}: [{}]", list.join(", ")));
                }
            }
            if !e.falls_with.is_empty() {
                let ids: Vec<String> = e
                    .falls_with
                    .iter()
                    .map(|f| {
                        crate::quoted(&sandtable_frontiers::setup::element_id(
                            &s.elements,
                            usize::from(*f),
                        ))
                    })
                    .collect();
                fields.push(format!("falls_with: [{}]", ids.join(", ")));
            }
            let _ = writeln!(out, "        ({}),", fields.join(", "));
        }
        out.push_str("    ],\n    units: [\n");
        for u in &s.units {
            let mut fields = Vec::new();
            if !u.id.is_empty() {
                fields.push(format!("id: {}", crate::quoted(&u.id)));
            }
            fields.push(format!("data: {}", crate::quoted(&u.data)));
            fields.push(format!(
                "side: {}",
                crate::quoted(&s.sides[usize::from(u.side)].name)
            ));
            if !u.deploy {
                fields.push(format!("at: ({}, {})", u.at.x, u.at.y));
            }
            if u.facing != 0 {
                fields.push(format!("facing: {}", u.facing));
            }
            if u.back {
                fields.push("back: true".to_owned());
            }
            if let Some(c) = u.gear {
                fields.push(format!("gear: {}", crate::quoted(c.id())));
            }
            let _ = writeln!(out, "        ({}),", fields.join(", "));
        }
        out.push_str("    ],\n");
        crate::models::write_list(&mut out, &self.models);
        out.push_str(")\n");
        out
    }
}

fn corners(points: &[Pt]) -> String {
    let list: Vec<String> = points
        .iter()
        .map(|p| format!("({}, {})", p.x, p.y))
        .collect();
    format!("[{}]", list.join(", "))
}

fn kind_ron(kind: TerrainKind) -> &'static str {
    match kind {
        TerrainKind::Vegetation => "Vegetation",
        TerrainKind::Hill => "Hill",
        TerrainKind::LightStructure => "LightStructure",
        TerrainKind::Crater => "Crater",
    }
}

// ---------------------------------------------------------------- file schema

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "scenario")]
struct FileSkirmish {
    name: String,
    rules: RuleSystem,
    #[serde(default)]
    table: Option<FileTable>,
    #[serde(default = "default_turns")]
    turns: u32,
    #[serde(default)]
    seed: u64,
    #[serde(default)]
    victory: FileVictory,
    #[serde(default)]
    ap: Option<u32>,
    #[serde(default)]
    crates: Vec<(i32, i32)>,
    #[serde(default)]
    objectives: Vec<(i32, i32)>,
    #[serde(default)]
    attacker: Option<String>,
    #[serde(default)]
    mode: FileMode,
    #[serde(default)]
    diskette: Option<(i32, i32)>,
    #[serde(default)]
    teleprinter: Option<String>,
    #[serde(default)]
    deploy_mm: Option<u16>,
    #[serde(default)]
    switches: FileSwitches,
    sides: Vec<FileSide>,
    #[serde(default)]
    terrain: Vec<FileTerrain>,
    #[serde(default)]
    buildings: Vec<FileElement>,
    units: Vec<FileUnit>,
    #[serde(default)]
    models: Vec<crate::models::FileModel>,
}

fn default_turns() -> u32 {
    12
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
enum FileVictory {
    #[default]
    Skirmish,
    Confrontation,
    TreasureHunt,
    AttackDefense,
    DataRecovery,
    Cameron,
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
enum FileMode {
    Even,
    #[default]
    HalfAgain,
    Double,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "table")]
struct FileTable {
    width_mm: u16,
    depth_mm: u16,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "switches")]
struct FileSwitches {
    #[serde(default = "default_lns")]
    lns_mm: u16,
    #[serde(default = "default_ruler")]
    ruler_lns: u16,
    #[serde(default = "default_contact")]
    contact_mm: u16,
    #[serde(default)]
    light_stacking: FileLight,
    #[serde(default)]
    penalty_symbol: FilePenalty,
    #[serde(default)]
    smoke_stacking: FileSmoke,
    #[serde(default)]
    sniper_building: FileSniper,
    #[serde(default)]
    drop: FileDrop,
}

impl Default for FileSwitches {
    fn default() -> FileSwitches {
        FileSwitches {
            lns_mm: default_lns(),
            ruler_lns: default_ruler(),
            contact_mm: default_contact(),
            light_stacking: FileLight::default(),
            penalty_symbol: FilePenalty::default(),
            smoke_stacking: FileSmoke::default(),
            sniper_building: FileSniper::default(),
            drop: FileDrop::default(),
        }
    }
}

fn default_lns() -> u16 {
    30
}
fn default_ruler() -> u16 {
    8
}
fn default_contact() -> u16 {
    2
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FileLight {
    #[default]
    Once,
    Each,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FilePenalty {
    #[default]
    Shooter,
    Off,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FileSmoke {
    #[default]
    Each,
    Worst,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FileSniper {
    #[default]
    Table,
    Example,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "snake_case")]
enum FileDrop {
    #[default]
    Scatter,
    Placed,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "side")]
struct FileSide {
    name: String,
    faction: FileFaction,
    #[serde(default)]
    deck: Option<Vec<String>>,
    #[serde(default)]
    deck_order: bool,
}

#[derive(Debug, Clone, Copy, Deserialize)]
enum FileFaction {
    Legion,
    Zirl,
}

#[derive(Debug, Clone, Copy, Deserialize)]
enum FileKind {
    Vegetation,
    Hill,
    LightStructure,
    Crater,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "terrain")]
struct FileTerrain {
    kind: FileKind,
    corners: Vec<(i32, i32)>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "building")]
struct FileElement {
    name: String,
    #[serde(default)]
    id: String,
    corners: Vec<(i32, i32)>,
    #[serde(default)]
    defense: u8,
    #[serde(default)]
    steps: u8,
    #[serde(default)]
    spaces: Vec<(i32, i32)>,
    #[serde(default)]
    links: Vec<(u8, u8)>,
    #[serde(default)]
    doors: Vec<FileOpening>,
    #[serde(default)]
    windows: Vec<FileOpening>,
    #[serde(default)]
    falls_with: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "opening")]
struct FileOpening {
    from: (i32, i32),
    to: (i32, i32),
    behind: Vec<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename = "unit")]
struct FileUnit {
    #[serde(default)]
    id: String,
    data: String,
    side: String,
    #[serde(default)]
    at: Option<(i32, i32)>,
    #[serde(default)]
    facing: i16,
    #[serde(default)]
    back: bool,
    #[serde(default)]
    gear: Option<String>,
}

/// Entries and corners beyond these are refused before anything else is
/// read, so that a huge file costs no more than a small one.
fn count_problems(file: &FileSkirmish) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (what, n, most) in [
        ("terrain", file.terrain.len(), MAX_PIECES),
        ("buildings", file.buildings.len(), MAX_PIECES),
        ("units", file.units.len(), MAX_UNITS),
        ("crates", file.crates.len(), 8),
        ("sides", file.sides.len(), 2),
        ("models", file.models.len(), crate::models::MAX_MODELS),
    ] {
        if n > most {
            problems.push(Problem::field(
                what,
                format!("{n} entries are listed; at most {most} are allowed"),
            ));
        }
    }
    let corner_lists = file
        .terrain
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("terrain[{i}].corners"), t.corners.len()))
        .chain(
            file.buildings
                .iter()
                .enumerate()
                .map(|(i, b)| (format!("buildings[{i}].corners"), b.corners.len())),
        );
    for (i, b) in file.buildings.iter().enumerate() {
        for (what, n) in [
            ("spaces", b.spaces.len()),
            ("links", b.links.len()),
            ("doors", b.doors.len() + b.windows.len()),
            ("falls_with", b.falls_with.len()),
        ] {
            if n > MAX_SPACES {
                problems.push(Problem::field(
                    format!("buildings[{i}].{what}"),
                    format!("{n} entries: at most {MAX_SPACES}"),
                ));
            }
        }
        for o in b.doors.iter().chain(&b.windows) {
            if o.behind.len() > MAX_SPACES {
                problems.push(Problem::field(
                    format!("buildings[{i}]"),
                    format!(
                        "an opening lists {} spaces: at most {MAX_SPACES}",
                        o.behind.len()
                    ),
                ));
            }
        }
    }
    for (path, n) in corner_lists {
        if n > MAX_CORNERS {
            problems.push(
                Problem::field(
                    path,
                    format!("{n} corners: a polygon has at most {MAX_CORNERS}"),
                )
                .with_ruling(Ruling(101)),
            );
        }
    }
    problems
}

fn file_text_problems(file: &FileSkirmish) -> Vec<Problem> {
    let mut names = vec![("name".to_owned(), file.name.as_str())];
    let mut texts = Vec::new();
    for (i, side) in file.sides.iter().enumerate() {
        names.push((format!("sides[{i}].name"), side.name.as_str()));
    }
    for (i, b) in file.buildings.iter().enumerate() {
        names.push((format!("buildings[{i}].name"), b.name.as_str()));
        texts.push((format!("buildings[{i}].id"), b.id.as_str()));
        for (k, f) in b.falls_with.iter().enumerate() {
            texts.push((format!("buildings[{i}].falls_with[{k}]"), f.as_str()));
        }
    }
    for (i, u) in file.units.iter().enumerate() {
        texts.push((format!("units[{i}].id"), u.id.as_str()));
        texts.push((format!("units[{i}].data"), u.data.as_str()));
        texts.push((format!("units[{i}].side"), u.side.as_str()));
    }
    crate::text_problems(names, texts)
}

/// A whole-mm point of the file, or the problem with it: within a table's
/// reach ([`sandtable_frontiers::setup::MAX_TABLE_MM`] each way and as far
/// off it).
fn point(p: (i32, i32), path: String, problems: &mut Vec<Problem>) -> Pt {
    let far = i32::from(sandtable_frontiers::setup::MAX_TABLE_MM);
    if !(-far..=2 * far).contains(&p.0) || !(-far..=2 * far).contains(&p.1) {
        problems.push(
            Problem::field(
                path,
                format!(
                    "({}, {}) lies more than a table's width off the table",
                    p.0, p.1
                ),
            )
            .with_ruling(Ruling(100)),
        );
        return Pt::new(0, 0);
    }
    Pt::new(p.0, p.1)
}

fn convert(file: FileSkirmish) -> (Skirmish, Vec<Problem>) {
    let mut problems = Vec::new();
    if file.rules != RuleSystem::Frontiers {
        problems.push(Problem::field(
            "rules",
            "a skirmish file's rules are Frontiers",
        ));
    }
    let sides: Vec<SideSetup> = file
        .sides
        .iter()
        .map(|s| SideSetup {
            name: s.name.clone(),
            faction: match s.faction {
                FileFaction::Legion => Faction::Legion,
                FileFaction::Zirl => Faction::Zirl,
            },
            deck: s.deck.clone(),
            deck_order: s.deck_order,
        })
        .collect();
    for (i, side) in file.sides.iter().enumerate() {
        if let Some(deck) = &side.deck {
            let ids: Vec<&str> = deck.iter().map(String::as_str).collect();
            // In order: the list alone is checked, no dice drawn.
            let mut none = sandtable_core::dice::Dice::scripted(Vec::new());
            if let Err(e) = sandtable_frontiers::army::deal(Some(&ids), true, &mut none) {
                problems.push(Problem::field(format!("sides[{i}].deck"), e.to_string()));
            }
        } else if side.deck_order {
            problems.push(Problem::field(
                format!("sides[{i}].deck_order"),
                "deck_order plays a deck in the order given: it needs the side's deck (R104)",
            ));
        }
    }
    let terrain = file
        .terrain
        .iter()
        .enumerate()
        .map(|(i, t)| Terrain {
            kind: match t.kind {
                FileKind::Vegetation => TerrainKind::Vegetation,
                FileKind::Hill => TerrainKind::Hill,
                FileKind::LightStructure => TerrainKind::LightStructure,
                FileKind::Crater => TerrainKind::Crater,
            },
            corners: t
                .corners
                .iter()
                .enumerate()
                .map(|(k, p)| point(*p, format!("terrain[{i}].corners[{k}]"), &mut problems))
                .collect(),
        })
        .collect();
    let ids: Vec<String> = file
        .buildings
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if b.id.is_empty() {
                format!("E{}", i + 1)
            } else {
                b.id.clone()
            }
        })
        .collect();
    let elements: Vec<Element> = file
        .buildings
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let at = format!("buildings[{i}]");
            // Spaces are numbered from 1 in files, as commands name them.
            let space = |n: u8, path: String, problems: &mut Vec<Problem>| {
                if n == 0 {
                    problems.push(
                        Problem::field(path, "spaces are numbered from 1, as `RH.1` names them")
                            .with_ruling(Ruling(117)),
                    );
                }
                n.saturating_sub(1)
            };
            let mut openings = Vec::new();
            for (what, kind, list) in [
                ("doors", OpeningKind::Door, &b.doors),
                ("windows", OpeningKind::Window, &b.windows),
            ] {
                for (k, o) in list.iter().enumerate() {
                    let path = format!("{at}.{what}[{k}]");
                    openings.push(Opening {
                        kind,
                        a: point(o.from, format!("{path}.from"), &mut problems),
                        b: point(o.to, format!("{path}.to"), &mut problems),
                        behind: o
                            .behind
                            .iter()
                            .enumerate()
                            .map(|(m, n)| space(*n, format!("{path}.behind[{m}]"), &mut problems))
                            .collect(),
                    });
                }
            }
            Element {
                name: b.name.clone(),
                id: b.id.clone(),
                corners: b
                    .corners
                    .iter()
                    .enumerate()
                    .map(|(k, p)| point(*p, format!("{at}.corners[{k}]"), &mut problems))
                    .collect(),
                defense: b.defense,
                steps: b.steps,
                spaces: b
                    .spaces
                    .iter()
                    .enumerate()
                    .map(|(k, p)| point(*p, format!("{at}.spaces[{k}]"), &mut problems))
                    .collect(),
                links: b
                    .links
                    .iter()
                    .enumerate()
                    .map(|(k, (x, y))| {
                        let path = format!("{at}.links[{k}]");
                        (
                            space(*x, path.clone(), &mut problems),
                            space(*y, path, &mut problems),
                        )
                    })
                    .collect(),
                openings,
                falls_with: b
                    .falls_with
                    .iter()
                    .enumerate()
                    .filter_map(|(k, id)| match ids.iter().position(|x| x == id) {
                        Some(e) => Some(e as u8),
                        None => {
                            problems.push(
                                Problem::field(
                                    format!("{at}.falls_with[{k}]"),
                                    format!(
                                        "{} names no building element's id",
                                        sandtable_core::text::quoted(id)
                                    ),
                                )
                                .with_ruling(Ruling(119)),
                            );
                            None
                        }
                    })
                    .collect(),
            }
        })
        .collect();
    let mut units = Vec::new();
    for (i, u) in file.units.iter().enumerate() {
        let Some(side) = sides.iter().position(|s| s.name == u.side) else {
            problems.push(
                Problem::field(
                    format!("units[{i}].side"),
                    format!(
                        "{} names no side; the sides are {}",
                        sandtable_core::text::quoted(&u.side),
                        sides
                            .iter()
                            .map(|s| sandtable_core::text::quoted(&s.name))
                            .collect::<Vec<_>>()
                            .join(" and ")
                    ),
                )
                .with_ruling(Ruling(103)),
            );
            continue;
        };
        units.push(UnitSetup {
            id: u.id.clone(),
            data: u.data.clone(),
            side: side as u8,
            at: u.at.map_or(Pt::new(0, 0), |at| {
                point(at, format!("units[{i}].at"), &mut problems)
            }),
            facing: u.facing,
            back: u.back,
            deploy: u.at.is_none(),
            gear: u.gear.as_deref().and_then(|id| {
                let c = sandtable_frontiers::crates::Content::from_id(id);
                if c.is_none() {
                    let ids: Vec<&str> = sandtable_frontiers::crates::Content::ALL
                        .iter()
                        .map(|c| c.id())
                        .collect();
                    problems.push(
                        Problem::field(
                            format!("units[{i}].gear"),
                            format!(
                                "{} is no crate's content; the ten are {}",
                                sandtable_core::text::quoted(id),
                                ids.join(", ")
                            ),
                        )
                        .with_ruling(Ruling(144)),
                    );
                }
                c
            }),
        });
    }
    let sw = &file.switches;
    let setup = Setup {
        table: file
            .table
            .as_ref()
            .map_or((1219, 610), |t| (t.width_mm, t.depth_mm)),
        switches: Switches {
            lns_mm: sw.lns_mm,
            ruler_lns: sw.ruler_lns,
            contact_mm: sw.contact_mm,
            light_stacking: match sw.light_stacking {
                FileLight::Once => LightStacking::Once,
                FileLight::Each => LightStacking::Each,
            },
            penalty_symbol: match sw.penalty_symbol {
                FilePenalty::Shooter => PenaltySymbol::Shooter,
                FilePenalty::Off => PenaltySymbol::Off,
            },
            smoke_stacking: match sw.smoke_stacking {
                FileSmoke::Each => SmokeStacking::Each,
                FileSmoke::Worst => SmokeStacking::Worst,
            },
            sniper_building: match sw.sniper_building {
                FileSniper::Table => SniperBuilding::Table,
                FileSniper::Example => SniperBuilding::Example,
            },
            drop: match sw.drop {
                FileDrop::Scatter => DropRule::Scatter,
                FileDrop::Placed => DropRule::Placed,
            },
        },
        terrain,
        elements: elements.clone(),
        sides: sides.clone(),
        units,
        turns: file.turns,
        victory: match file.victory {
            FileVictory::Skirmish => Victory::Skirmish,
            FileVictory::Confrontation => Victory::Confrontation,
            FileVictory::TreasureHunt => Victory::TreasureHunt,
            FileVictory::AttackDefense => Victory::AttackDefense,
            FileVictory::DataRecovery => Victory::DataRecovery,
            FileVictory::Cameron => Victory::Cameron,
        },
        objectives: file
            .objectives
            .iter()
            .enumerate()
            .map(|(k, c)| point(*c, format!("objectives[{k}]"), &mut problems))
            .collect(),
        attacker: match &file.attacker {
            None => 0,
            Some(name) => match sides.iter().position(|s| s.name == *name) {
                Some(k) => k as u8,
                None => {
                    problems.push(
                        Problem::field("attacker", format!("{name:?} names no side"))
                            .with_ruling(Ruling(148)),
                    );
                    0
                }
            },
        },
        mode: match file.mode {
            FileMode::Even => Mode::Even,
            FileMode::HalfAgain => Mode::HalfAgain,
            FileMode::Double => Mode::Double,
        },
        deploy_mm: file.deploy_mm,
        diskette: file
            .diskette
            .map(|c| point(c, "diskette".to_owned(), &mut problems)),
        teleprinter: match &file.teleprinter {
            None => None,
            Some(space) => {
                let found = space.split_once('.').and_then(|(id, n)| {
                    let e = (0..elements.len())
                        .find(|k| sandtable_frontiers::setup::element_id(&elements, *k) == id)?;
                    let n: usize = n.parse().ok()?;
                    // Spaces from 1, as commands name them (R117): "RH.0" is
                    // none.
                    let k = n.checked_sub(1).filter(|k| *k < elements[e].spaces.len())?;
                    Some((u8::try_from(e).ok()?, u8::try_from(k).ok()?))
                });
                if found.is_none() {
                    problems.push(
                        Problem::field(
                            "teleprinter",
                            format!("{space:?} is no building's space: an element's id and a space's number from 1, as RH.2"),
                        )
                        .with_ruling(Ruling(147)),
                    );
                }
                found
            }
        },
        ap: file.ap,
        crates: file
            .crates
            .iter()
            .enumerate()
            .map(|(k, c)| point(*c, format!("crates[{k}]"), &mut problems))
            .collect(),
        seed: file.seed,
    };
    let mut warnings = Vec::new();
    let models = crate::models::convert(
        file.models,
        crate::models::Subjects::Frontiers(&setup),
        &mut problems,
        &mut warnings,
    );
    (
        Skirmish {
            name: file.name,
            setup,
            warnings,
            models,
        },
        problems,
    )
}

/// Parses and checks the text of a skirmish; `origin` names it in
/// messages.
pub fn parse(text: &str, origin: &str) -> Result<Skirmish, LoadScenarioError> {
    let error = |problems, more| LoadScenarioError::new(origin, problems, more);
    let file: FileSkirmish = crate::read_ron(text, origin)?;
    let too_many = count_problems(&file);
    if !too_many.is_empty() {
        return Err(error(too_many, 0));
    }
    let bad_text = file_text_problems(&file);
    if !bad_text.is_empty() {
        return Err(error(bad_text, 0));
    }
    let doors: Vec<usize> = file.buildings.iter().map(|b| b.doors.len()).collect();
    let (skirmish, problems) = convert(file);
    if !problems.is_empty() {
        return Err(error(problems, 0));
    }
    match skirmish.setup.check() {
        Ok(()) => Ok(skirmish),
        Err(e) => Err(error(
            e.problems
                .into_iter()
                .map(|p| Problem {
                    location: Location::Field(file_path(&p.path, &doors)),
                    message: p.message,
                    ruling: p.ruling,
                })
                .collect(),
            e.more,
        )),
    }
}

/// A setup's field path as the file names it: an element's openings are
/// its doors, then its windows.
fn file_path(path: &str, doors: &[usize]) -> String {
    let Some(rest) = path.strip_prefix("buildings[") else {
        return path.to_owned();
    };
    let Some((i, rest)) = rest.split_once("].openings[") else {
        return path.to_owned();
    };
    let Some((k, tail)) = rest.split_once(']') else {
        return path.to_owned();
    };
    let (Ok(i), Ok(k)) = (i.parse::<usize>(), k.parse::<usize>()) else {
        return path.to_owned();
    };
    let d = doors.get(i).copied().unwrap_or(0);
    if k < d {
        format!("buildings[{i}].doors[{k}]{tail}")
    } else {
        format!("buildings[{i}].windows[{}]{tail}", k - d)
    }
}
