//! A battle's layout being edited: a battle that may break the setup
//! rulings while a person works on it, the edits that change it (terrain
//! painted hex by hex, each side's pieces placed, counted and moved, its
//! deployment hexes, points limits and the table's size, the off-board
//! grid's span, reserve squares and starting counters), undo and redo,
//! and the live check that names every hex breaking a ruling, with each
//! side's points against its limit (R61). No Bevy here: the battle's
//! layout systems and panel drive a [`BattleDraft`].

use std::fmt;

use sandtable_scenario::battle::{Battle, HexPhysical};

use crate::session::draft::Layout;
use sandtable_scenario::{DEFAULT_COLOURS, Location, Problem};
use sandtable_warpspawn::offboard::ring::{Ring, Square};
use sandtable_warpspawn::offboard::setup::{CounterSetup, OffboardSetup};
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
    /// Lay the off-board grid round the map with squares of this span
    /// (R40), keeping its counters and reserves; `None` takes it away.
    SetGrid(Option<u16>),
    /// Set a counter a side starts with (R43): its number, square and
    /// pieces; nothing at all takes it off the ring.
    SetCounter(CounterSetup),
    /// Make a square of the ring one of a side's reserve squares, or no
    /// longer (R42): the first change writes out the default reserve.
    ToggleReserve {
        /// The side.
        side: usize,
        /// The square.
        square: Square,
    },
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
    /// A change to the off-board grid of a battle without one.
    NoGrid,
    /// A span the map cannot have a ring of (R40).
    Span(String),
    /// A square that is not one of the ring's (R40).
    OffRing(Square),
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
            EditBattleError::NoGrid => {
                write!(f, "the battle has no off-board grid: lay one first (R40)")
            }
            EditBattleError::Span(why) => write!(f, "{why} (R40)"),
            EditBattleError::OffRing(sq) => {
                write!(f, "{sq} is not a square of the ring round the map (R40)")
            }
        }
    }
}

impl std::error::Error for EditBattleError {}

/// A problem of the layout, with the hex it lies in when it has one.
pub type HexFinding = crate::session::draft::Finding<Hex>;

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

/// A battle being edited, with its history and its live check
/// ([`crate::session::draft::Draft`]).
pub type BattleDraft = crate::session::draft::Draft<Battle>;

/// A battle's layout is the battle; its loader checks it.
impl Layout for Battle {
    type Edit = BattleEdit;
    type Error = EditBattleError;
    type At = Hex;

    fn change(&mut self, edit: &BattleEdit) -> Result<(), EditBattleError> {
        change(self, edit)
    }

    /// A name typed, a width or a points limit dragged.
    fn merges(edit: &BattleEdit) -> bool {
        matches!(
            edit,
            BattleEdit::Rename(_) | BattleEdit::SetHexMm(_) | BattleEdit::SetPoints { .. }
        )
    }

    fn no_history(what: &'static str) -> EditBattleError {
        EditBattleError::NoHistory(what)
    }

    fn text(&self) -> String {
        self.to_ron()
    }

    fn load(text: &str) -> Result<Vec<Problem>, Vec<Problem>> {
        sandtable_scenario::battle::parse(text, "layout")
            .map(|loaded| loaded.warnings)
            .map_err(|e| e.problems)
    }

    /// The hex of the pieces whose field the problem names.
    fn at(&self, problem: &Problem) -> Option<Hex> {
        let Location::Field(path) = &problem.location else {
            return None;
        };
        let pieces: Vec<Hex> = self.setup.pieces.iter().map(|p| p.at).collect();
        piece_hex(path, &pieces)
    }
}

impl BattleDraft {
    /// Paints one more hex of a drag across hexes: the first begins the
    /// stroke, and every hex of it undoes as one edit, until
    /// [`BattleDraft::end_stroke`].
    pub fn paint_stroke(&mut self, hex: Hex, terrain: Terrain) -> Result<(), EditBattleError> {
        if self.stroke_going() && self.terrain_at(hex) == terrain {
            return Ok(());
        }
        self.apply_in_stroke(&BattleEdit::Paint {
            hexes: vec![hex],
            terrain,
        })
    }

    /// The layout as it stands.
    pub fn battle(&self) -> &Battle {
        self.layout()
    }

    /// The hexes some problem lies in, for the table to mark red.
    pub fn problem_hexes(&self) -> Vec<Hex> {
        let mut hexes: Vec<Hex> = self.errors().iter().filter_map(|f| f.at).collect();
        hexes.sort_unstable();
        hexes.dedup();
        hexes
    }

    /// Each side's points against its limit (R61), added up live.
    pub fn points(&self) -> Vec<SidePoints> {
        let setup = &self.battle().setup;
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
        self.battle()
            .setup
            .pieces
            .iter()
            .find(|p| p.at == hex && p.side == side)
    }

    /// The side's starting counter in a square of the ring, if it has one
    /// there.
    pub fn counter_at(&self, square: Square, side: usize) -> Option<&CounterSetup> {
        self.battle()
            .setup
            .offboard
            .as_ref()?
            .counters
            .iter()
            .find(|c| c.at == square && c.side == side)
    }

    /// The lowest number none of the side's starting counters has (R43).
    pub fn free_counter_number(&self, side: usize) -> u16 {
        let taken: Vec<u16> = self
            .battle()
            .setup
            .offboard
            .iter()
            .flat_map(|g| g.counters.iter())
            .filter(|c| c.side == side)
            .map(|c| c.number)
            .collect();
        (1..).find(|n| !taken.contains(n)).unwrap_or(1)
    }

    /// The terrain of a hex (fields where none is set).
    pub fn terrain_at(&self, hex: Hex) -> Terrain {
        self.battle()
            .setup
            .terrain
            .iter()
            .rev()
            .find(|(h, _)| *h == hex)
            .map_or(Terrain::Fields, |(_, t)| *t)
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
            offboard: None,
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
        BattleEdit::SetGrid(span) => match span {
            None => setup.offboard = None,
            Some(span) => {
                let ring =
                    Ring::new(map, *span).map_err(|e| EditBattleError::Span(e.to_string()))?;
                let grid = setup.offboard.get_or_insert_with(OffboardSetup::default);
                grid.span = *span;
                // Counters and reserve squares off the new ring go with it.
                grid.counters.retain(|c| ring.holds(c.at));
                for squares in grid.reserves.iter_mut().flatten() {
                    squares.retain(|sq| ring.holds(*sq));
                }
            }
        },
        BattleEdit::SetCounter(c) => {
            side_name(setup, c.side)?;
            let grid = setup.offboard.as_mut().ok_or(EditBattleError::NoGrid)?;
            let ring =
                Ring::new(map, grid.span).map_err(|e| EditBattleError::Span(e.to_string()))?;
            if !ring.holds(c.at) {
                return Err(EditBattleError::OffRing(c.at));
            }
            let at = grid
                .counters
                .iter()
                .position(|o| o.side == c.side && o.number == c.number);
            match (at, c.pieces.is_empty()) {
                (Some(i), true) => {
                    grid.counters.remove(i);
                }
                (Some(i), false) => grid.counters[i] = *c,
                (None, true) => {}
                (None, false) => grid.counters.push(*c),
            }
        }
        BattleEdit::ToggleReserve { side, square } => {
            side_name(setup, *side)?;
            let homes: Vec<Edge> = setup.sides.iter().map(|s| s.home).collect();
            let grid = setup.offboard.as_mut().ok_or(EditBattleError::NoGrid)?;
            let ring =
                Ring::new(map, grid.span).map_err(|e| EditBattleError::Span(e.to_string()))?;
            if !ring.holds(*square) {
                return Err(EditBattleError::OffRing(*square));
            }
            if grid.reserves.len() <= *side {
                grid.reserves.resize(*side + 1, None);
            }
            let squares =
                grid.reserves[*side].get_or_insert_with(|| ring.default_reserve(homes[*side]));
            match squares.iter().position(|s| s == square) {
                Some(i) => {
                    squares.remove(i);
                }
                None => {
                    squares.push(*square);
                    squares.sort_unstable_by_key(|s| (s.row, s.col));
                }
            }
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
