//! A battle's layout being edited: a battle that may break the setup
//! rulings while a person works on it, the edits that change it (terrain
//! painted hex by hex, each side's pieces placed, counted and moved, its
//! deployment hexes, points limits and the table's size), undo and redo,
//! and the live check that names every hex breaking a ruling, with each
//! side's points against its limit (R61). No Bevy here: the battle's
//! layout systems and panel drive a [`BattleDraft`].

use std::fmt;
use std::path::{Path, PathBuf};

use sandtable_scenario::battle::{Battle, HexPhysical};

use crate::layout::draft::History;
use sandtable_scenario::{DEFAULT_COLOURS, Location, Problem};
use sandtable_warpspawn::{
    Edge, Hex, MAX_MAP_SIDE, Map, PiecesSetup, Setup, SideSetup, Switches, Terrain, points_doubled,
    points_text,
};

/// One change to a battle's layout. Every edit can be undone.
#[derive(Debug, Clone, PartialEq)]
pub enum BattleEdit {
    /// Paint hexes with a terrain (a drag across hexes paints them all, as
    /// one edit).
    Paint {
        /// The hexes.
        hexes: Vec<Hex>,
        /// The terrain (fields clears a hex).
        terrain: Terrain,
    },
    /// Set what one side has in one hex: its men by kind, officers, cannon,
    /// baggage and flag. Nothing at all takes the side's pieces off the hex.
    SetPieces(PiecesSetup),
    /// Move a side's pieces from one hex to another where it has none.
    MovePieces {
        /// The side.
        side: usize,
        /// Where they stand.
        from: Hex,
        /// Where they go.
        to: Hex,
    },
    /// Make a hex one of a side's deployment hexes, or no longer (R60).
    ToggleDeployment {
        /// The side.
        side: usize,
        /// The hex.
        hex: Hex,
    },
    /// Rename the battle.
    Rename(String),
    /// Set a side's points limit (R61).
    SetPoints {
        /// The side.
        side: usize,
        /// Its limit.
        points: u32,
    },
    /// Set the width of a hex between its flat sides, in mm, on the same
    /// table.
    SetHexMm(f64),
    /// Start an empty battle on a map of this many columns and rows.
    New {
        /// Columns.
        columns: u16,
        /// Rows.
        rows: u16,
    },
}

/// Why an edit was refused; the layout is left as it was.
#[derive(Debug, Clone, PartialEq)]
pub enum EditBattleError {
    /// The hex is off the map (R60).
    OffMap {
        /// The hex.
        hex: Hex,
        /// The map.
        map: Map,
    },
    /// The battle has no such side.
    NoSide(usize),
    /// The side has no pieces in the hex.
    NoPieces {
        /// The side's name.
        side: String,
        /// The hex.
        hex: Hex,
    },
    /// The side already has pieces in the hex a move would go to.
    Occupied {
        /// The side's name.
        side: String,
        /// The hex.
        hex: Hex,
    },
    /// A new map's size is out of range.
    MapSize {
        /// Columns asked for.
        columns: u16,
        /// Rows asked for.
        rows: u16,
    },
    /// A hex's width that cannot be.
    HexMm(f64),
    /// Nothing to undo or redo.
    NoHistory(&'static str),
}

impl fmt::Display for EditBattleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditBattleError::OffMap { hex, map } => write!(
                f,
                "{hex} is off the {} x {} map (R60)",
                map.columns, map.rows
            ),
            EditBattleError::NoSide(i) => write!(f, "the battle has no side {}", i + 1),
            EditBattleError::NoPieces { side, hex } => {
                write!(f, "{side} has no pieces in {hex}")
            }
            EditBattleError::Occupied { side, hex } => write!(
                f,
                "{side} already has pieces in {hex}: change their counts instead (R62)"
            ),
            EditBattleError::MapSize { columns, rows } => write!(
                f,
                "a map of {columns} x {rows} hexes cannot be made: each side is 1 to {MAX_MAP_SIDE} (R60)"
            ),
            EditBattleError::HexMm(mm) => write!(
                f,
                "a hex of {mm} mm cannot be printed: give its width between the flat sides, above 0"
            ),
            EditBattleError::NoHistory(what) => write!(f, "there is nothing to {what}"),
        }
    }
}

impl std::error::Error for EditBattleError {}

/// A problem of the layout, with the hex it lies in when it has one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HexFinding {
    /// The hex at fault, when the problem belongs to one.
    pub hex: Option<Hex>,
    /// The problem as the battle loader reports it.
    pub problem: Problem,
}

impl HexFinding {
    /// The finding as one line for the panel: field, message, ruling.
    pub fn line(&self) -> String {
        crate::layout::draft::problem_line(&self.problem)
    }
}

/// A side's points as the panel shows them (R61).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SidePoints {
    /// What its pieces cost, in words (`41.5`).
    pub spent: String,
    /// Its limit.
    pub limit: u32,
    /// Whether it spends more than its limit.
    pub over: bool,
}

/// A battle being edited, with its history and its live check.
#[derive(Debug, Clone)]
pub struct BattleDraft {
    battle: Battle,
    /// The last edit made, so that a run of changes to one field (a name
    /// typed, a width or a points limit dragged) undoes as one.
    last: Option<std::mem::Discriminant<BattleEdit>>,
    history: History<Battle>,
    errors: Vec<HexFinding>,
    warnings: Vec<HexFinding>,
    /// A drag of the paint brush is under way: its hexes undo as one edit.
    stroke: bool,
}

impl BattleDraft {
    /// Starts editing a battle.
    pub fn new(battle: Battle) -> BattleDraft {
        let mut draft = BattleDraft {
            battle,
            last: None,
            history: History::default(),
            errors: Vec::new(),
            warnings: Vec::new(),
            stroke: false,
        };
        draft.check();
        draft
    }

    /// Paints one more hex of a drag across hexes: the first begins the
    /// stroke, and every hex of it undoes as one edit, until
    /// [`BattleDraft::end_stroke`].
    pub fn paint_stroke(&mut self, hex: Hex, terrain: Terrain) -> Result<(), EditBattleError> {
        let going = self.stroke;
        if going && self.terrain_at(hex) == terrain {
            return Ok(());
        }
        let edit = BattleEdit::Paint {
            hexes: vec![hex],
            terrain,
        };
        let mut next = self.battle.clone();
        change(&mut next, &edit)?;
        if next == self.battle {
            return Ok(());
        }
        self.stroke = true;
        let before = std::mem::replace(&mut self.battle, next);
        self.history.record(before, going);
        self.last = Some(std::mem::discriminant(&edit));
        self.check();
        Ok(())
    }

    /// The drag of the paint brush is over.
    pub fn end_stroke(&mut self) {
        self.stroke = false;
    }

    /// The layout as it stands.
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// Problems that stop the layout from being played or saved.
    pub fn errors(&self) -> &[HexFinding] {
        &self.errors
    }

    /// Things worth knowing that do not stop play.
    pub fn warnings(&self) -> &[HexFinding] {
        &self.warnings
    }

    /// Whether there is an edit to undo, and one to redo.
    pub fn history(&self) -> (usize, usize) {
        self.history.counts()
    }

    /// The hexes some problem lies in, for the table to mark red.
    pub fn problem_hexes(&self) -> Vec<Hex> {
        let mut hexes: Vec<Hex> = self.errors.iter().filter_map(|f| f.hex).collect();
        hexes.sort_unstable();
        hexes.dedup();
        hexes
    }

    /// Each side's points against its limit (R61), added up live.
    pub fn points(&self) -> Vec<SidePoints> {
        let setup = &self.battle.setup;
        setup
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| {
                let doubled = points_doubled(setup, i);
                SidePoints {
                    spent: points_text(doubled),
                    limit: side.points,
                    over: doubled > 2 * u64::from(side.points),
                }
            })
            .collect()
    }

    /// What a side has in a hex, if anything.
    pub fn pieces_at(&self, hex: Hex, side: usize) -> Option<&PiecesSetup> {
        self.battle
            .setup
            .pieces
            .iter()
            .find(|p| p.at == hex && p.side == side)
    }

    /// The terrain of a hex (fields where none is set).
    pub fn terrain_at(&self, hex: Hex) -> Terrain {
        self.battle
            .setup
            .terrain
            .iter()
            .rev()
            .find(|(h, _)| *h == hex)
            .map_or(Terrain::Fields, |(_, t)| *t)
    }

    /// Runs the battle loader on the layout as it would be saved, so what
    /// the editor reports is exactly what loading the file would report.
    fn check(&mut self) {
        self.errors.clear();
        self.warnings.clear();
        let pieces: Vec<Hex> = self.battle.setup.pieces.iter().map(|p| p.at).collect();
        let findings = |problems: Vec<Problem>| -> Vec<HexFinding> {
            problems
                .into_iter()
                .map(|problem| HexFinding {
                    hex: match &problem.location {
                        Location::Field(path) => piece_hex(path, &pieces),
                        _ => None,
                    },
                    problem,
                })
                .collect()
        };
        match sandtable_scenario::battle::parse(&self.battle.to_ron(), "layout") {
            Ok(loaded) => self.warnings = findings(loaded.warnings),
            Err(e) => self.errors = findings(e.problems),
        }
    }

    /// Makes an edit. A refused edit changes nothing.
    pub fn apply(&mut self, edit: &BattleEdit) -> Result<(), EditBattleError> {
        self.stroke = false;
        let mut next = self.battle.clone();
        change(&mut next, edit)?;
        // An edit that changes nothing is no step to undo.
        if next == self.battle {
            return Ok(());
        }
        let before = std::mem::replace(&mut self.battle, next);
        let kind = std::mem::discriminant(edit);
        let merges = matches!(
            edit,
            BattleEdit::Rename(_) | BattleEdit::SetHexMm(_) | BattleEdit::SetPoints { .. }
        ) && self.last == Some(kind)
            && self.history.nothing_undone();
        self.history.record(before, merges);
        self.last = Some(kind);
        self.check();
        Ok(())
    }

    /// Steps back one edit.
    pub fn undo(&mut self) -> Result<(), EditBattleError> {
        self.stroke = false;
        if !self.history.undo(&mut self.battle) {
            return Err(EditBattleError::NoHistory("undo"));
        }
        self.last = None;
        self.check();
        Ok(())
    }

    /// Makes the last undone edit again.
    pub fn redo(&mut self) -> Result<(), EditBattleError> {
        if !self.history.redo(&mut self.battle) {
            return Err(EditBattleError::NoHistory("redo"));
        }
        self.last = None;
        self.check();
        Ok(())
    }

    /// Replaces the whole layout, as one edit that can be undone.
    pub fn revert_to(&mut self, battle: Battle) {
        self.stroke = false;
        let before = std::mem::replace(&mut self.battle, battle);
        self.history.record(before, false);
        self.last = None;
        self.check();
    }

    /// Writes the layout as a battle file (`.ron`), by the rules every
    /// layout is saved by ([`crate::layout::draft::save_layout`]): refused
    /// while it has problems; the file it replaces kept as a backup unless
    /// it holds `ours`. Returns the backup's path when one was made.
    pub fn save(&self, path: &Path, ours: Option<&str>) -> Result<Option<PathBuf>, String> {
        crate::layout::draft::save_layout(
            path,
            &self.battle.to_ron(),
            self.errors.len(),
            self.errors.first().map(HexFinding::line),
            ours,
        )
    }
}

/// The hex of the pieces entry a field path names (`pieces[3].infantry`).
fn piece_hex(path: &str, pieces: &[Hex]) -> Option<Hex> {
    let rest = path.strip_prefix("pieces[")?;
    let index: usize = rest.split(']').next()?.parse().ok()?;
    pieces.get(index).copied()
}

/// An empty battle on a map of this size: two sides of 100 points with
/// the two rows at their home edges to deploy on, no pieces, all fields,
/// 40 mm hexes on a table with a hex's rim round the map (to the whole mm).
pub fn empty_battle(columns: u16, rows: u16) -> Battle {
    let map = Map { columns, rows };
    let rows_of = |range: std::ops::Range<u16>| -> Vec<Hex> {
        map.hexes()
            .filter(|h| range.contains(&u16::from(h.row)))
            .collect()
    };
    let depth = rows.min(2);
    let side = |name: &str, home: Edge, deployment: Vec<Hex>| SideSetup {
        name: name.to_owned(),
        home,
        deployment,
        points: 100,
    };
    Battle {
        name: format!("New battle {columns} x {rows}"),
        setup: Setup {
            map,
            terrain: Vec::new(),
            sides: vec![
                side("Red", Edge::S, rows_of(0..depth)),
                side("Blue", Edge::N, rows_of(rows - depth..rows)),
            ],
            pieces: Vec::new(),
            turns: 10,
            seed: 1,
            first_player: None,
            switches: Switches::default(),
        },
        // Red in vermillion and Blue in blue, as the shipped battles are,
        // from the set told apart by people who cannot tell red from green.
        colours: vec![DEFAULT_COLOURS[4], DEFAULT_COLOURS[0]],
        physical: Some({
            // The assumed table, to the whole millimetre above.
            let mut table = HexPhysical::assumed(map);
            table.table_mm = (table.table_mm.0.ceil(), table.table_mm.1.ceil());
            table
        }),
        warnings: Vec::new(),
    }
}

fn on_map(map: Map, hex: Hex) -> Result<(), EditBattleError> {
    if map.contains(hex) {
        Ok(())
    } else {
        Err(EditBattleError::OffMap { hex, map })
    }
}

fn side_name(setup: &Setup, side: usize) -> Result<String, EditBattleError> {
    setup
        .sides
        .get(side)
        .map(|s| s.name.clone())
        .ok_or(EditBattleError::NoSide(side))
}

/// Whether a pieces entry holds nothing at all.
fn is_empty(p: &PiecesSetup) -> bool {
    p.infantry == 0 && p.cavalry == 0 && p.officers == 0 && !p.cannon && !p.baggage && !p.flag
}

fn change(b: &mut Battle, edit: &BattleEdit) -> Result<(), EditBattleError> {
    let map = b.setup.map;
    let setup = &mut b.setup;
    match edit {
        BattleEdit::Paint { hexes, terrain } => {
            for hex in hexes {
                on_map(map, *hex)?;
            }
            setup.terrain.retain(|(h, _)| !hexes.contains(h));
            if *terrain != Terrain::Fields {
                setup.terrain.extend(hexes.iter().map(|h| (*h, *terrain)));
            }
        }
        BattleEdit::SetPieces(p) => {
            on_map(map, p.at)?;
            side_name(setup, p.side)?;
            let at = setup
                .pieces
                .iter()
                .position(|q| q.at == p.at && q.side == p.side);
            match (at, is_empty(p)) {
                (Some(i), true) => {
                    setup.pieces.remove(i);
                }
                (Some(i), false) => setup.pieces[i] = *p,
                (None, true) => {}
                (None, false) => setup.pieces.push(*p),
            }
        }
        BattleEdit::MovePieces { side, from, to } => {
            on_map(map, *to)?;
            let name = side_name(setup, *side)?;
            if setup.pieces.iter().any(|q| q.at == *to && q.side == *side) {
                return Err(EditBattleError::Occupied {
                    side: name,
                    hex: *to,
                });
            }
            let p = setup
                .pieces
                .iter_mut()
                .find(|q| q.at == *from && q.side == *side)
                .ok_or(EditBattleError::NoPieces {
                    side: name,
                    hex: *from,
                })?;
            p.at = *to;
        }
        BattleEdit::ToggleDeployment { side, hex } => {
            on_map(map, *hex)?;
            side_name(setup, *side)?;
            let deployment = &mut setup.sides[*side].deployment;
            match deployment.iter().position(|h| h == hex) {
                Some(i) => {
                    deployment.remove(i);
                }
                None => {
                    deployment.push(*hex);
                    deployment.sort_unstable();
                }
            }
        }
        BattleEdit::Rename(name) => b.name = name.clone(),
        BattleEdit::SetPoints { side, points } => {
            side_name(setup, *side)?;
            setup.sides[*side].points = *points;
        }
        BattleEdit::SetHexMm(mm) => {
            if !(mm.is_finite() && *mm > 0.0) {
                return Err(EditBattleError::HexMm(*mm));
            }
            let mut physical = b.table();
            physical.hex_mm = *mm;
            b.physical = Some(physical);
        }
        BattleEdit::New { columns, rows } => {
            let fits = |n: u16| (1..=MAX_MAP_SIDE).contains(&n);
            if !fits(*columns) || !fits(*rows) {
                return Err(EditBattleError::MapSize {
                    columns: *columns,
                    rows: *rows,
                });
            }
            *b = empty_battle(*columns, *rows);
        }
    }
    Ok(())
}
