//! The layout being edited: a scenario that may break the setup rulings
//! while a person works on it, the edits that change it, undo and redo, and
//! the live check that names every piece breaking a ruling. No Bevy here:
//! the editor's systems and panel drive a [`Draft`].

use std::fmt;

use sandtable_cache::{
    Board, Facing, FactorSetup, Ruling, Setup, Square, StashList, TerrainKind, TerrainPiece,
    UnitSetup,
};
use sandtable_scenario::{DEFAULT_COLOURS, Location, Physical, Problem, RuleSystem, Scenario};

use crate::session::draft::Layout;
pub use crate::session::draft::{History, problem_line, save_layout};

/// The largest side of a board made with [`Edit::New`]: larger tables are
/// written as files (the 3D table of a 100 x 100 board is already slow).
pub const MAX_NEW_SIDE: u16 = 100;

/// One piece of a layout, by its place in the scenario's lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceRef {
    /// `players[player].factors[factor].units[unit]`.
    Unit {
        /// Player index.
        player: usize,
        /// Factor index within the player.
        factor: usize,
        /// Unit index within the Factor.
        unit: usize,
    },
    /// `players[player].factors[factor].base`.
    Base {
        /// Player index.
        player: usize,
        /// Factor index within the player.
        factor: usize,
    },
    /// `stashes[i]`.
    Stash(usize),
    /// `terrain[i]`.
    Terrain(usize),
}

impl PieceRef {
    /// The piece's field path in the scenario file.
    pub fn path(self) -> String {
        match self {
            PieceRef::Unit {
                player,
                factor,
                unit,
            } => format!("players[{player}].factors[{factor}].units[{unit}]"),
            PieceRef::Base { player, factor } => {
                format!("players[{player}].factors[{factor}].base")
            }
            PieceRef::Stash(i) => format!("stashes[{i}]"),
            PieceRef::Terrain(i) => format!("terrain[{i}]"),
        }
    }

    /// The piece a field path points into, if it points at one.
    pub fn from_path(path: &str) -> Option<PieceRef> {
        fn index(text: &str, name: &str) -> Option<(usize, usize)> {
            let rest = text.strip_prefix(name)?.strip_prefix('[')?;
            let end = rest.find(']')?;
            Some((rest[..end].parse().ok()?, name.len() + end + 2))
        }
        if let Some((i, _)) = index(path, "stashes") {
            return Some(PieceRef::Stash(i));
        }
        if let Some((i, _)) = index(path, "terrain") {
            return Some(PieceRef::Terrain(i));
        }
        let (player, n) = index(path, "players")?;
        let (factor, m) = index(path[n..].strip_prefix('.')?, "factors")?;
        let rest = path[n + 1 + m..].strip_prefix('.')?;
        if rest == "base" || rest.starts_with("base.") {
            return Some(PieceRef::Base { player, factor });
        }
        let (unit, _) = index(rest, "units")?;
        Some(PieceRef::Unit {
            player,
            factor,
            unit,
        })
    }
}

/// What the palette places.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A unit of one Factor, facing one way.
    Unit {
        /// Player index.
        player: usize,
        /// Factor index within the player.
        factor: usize,
        /// Its facing.
        facing: Facing,
    },
    /// A base: a new Factor of this player, without units yet.
    Base {
        /// Player index.
        player: usize,
    },
    /// A stash token (The Snyder Skirmish).
    Stash,
    /// One square of terrain of this kind; a building is placed as 3 x 3
    /// squares with the clicked square as its entrance in the middle of its
    /// near wall.
    Terrain(TerrainKind),
}

impl Item {
    /// The item as the palette names it.
    pub fn name(self) -> String {
        match self {
            Item::Unit { .. } => "unit".to_owned(),
            Item::Base { .. } => "base".to_owned(),
            Item::Stash => "stash".to_owned(),
            Item::Terrain(kind) => kind.name().to_owned(),
        }
    }
}

/// A quarter turn, as the Q and E keys give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// Anticlockwise seen from above.
    Left,
    /// Clockwise seen from above.
    Right,
}

/// One change to the layout. Every edit can be undone.
#[derive(Debug, Clone, PartialEq)]
pub enum Edit {
    /// Put a new piece on a square.
    Place {
        /// What to put.
        item: Item,
        /// Where.
        at: Square,
    },
    /// Drag a piece: the square it was grabbed on lands on `to`. Terrain
    /// pieces move all their squares by the same offset.
    Move {
        /// The piece.
        piece: PieceRef,
        /// The square it was grabbed on.
        from: Square,
        /// The square it was dropped on.
        to: Square,
    },
    /// Turn a unit, or a terrain piece about its first square.
    Rotate {
        /// The piece.
        piece: PieceRef,
        /// Which way.
        turn: Turn,
    },
    /// Take a piece off the table; a base takes its Factor's units with it.
    Delete(PieceRef),
    /// Add a square to a terrain piece, or take one away.
    ToggleSquare {
        /// Index of the terrain piece.
        terrain: usize,
        /// The square.
        at: Square,
    },
    /// Add a player with the next free name and colour.
    AddPlayer,
    /// Rename the scenario.
    Rename(String),
    /// Set the rule system.
    SetRules(RuleSystem),
    /// Set or clear the physical table.
    SetPhysical(Option<Physical>),
    /// Start an empty layout of this many columns and rows, on the table
    /// `Physical::assumed` for it (Table A when the grid fits).
    New {
        /// Columns.
        columns: u16,
        /// Rows.
        rows: u16,
    },
}

/// Why an edit was refused; the layout is left as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EditLayoutError {
    /// A piece would leave the board.
    OffBoard {
        /// The square off the board.
        square: String,
        /// The board.
        board: Board,
    },
    /// The square already holds a piece of the same sort.
    Occupied {
        /// The square.
        square: Square,
        /// What is there.
        what: &'static str,
        /// The ruling that allows one a square.
        ruling: Ruling,
    },
    /// The piece no longer exists (it was deleted).
    NoSuchPiece(String),
    /// Bases and stashes do not turn.
    NoFacing(&'static str),
    /// The last square of a terrain piece cannot be taken away.
    LastSquare,
    /// The player has no Factor to put a unit in.
    NoFactor(String),
    /// A new board's size is out of range.
    BoardSize {
        /// Columns asked for.
        columns: u16,
        /// Rows asked for.
        rows: u16,
    },
    /// Nothing to undo or redo.
    NoHistory(&'static str),
}

impl fmt::Display for EditLayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EditLayoutError::OffBoard { square, board } => write!(
                f,
                "{square} is off the {} x {} board (R1)",
                board.columns, board.rows
            ),
            EditLayoutError::Occupied {
                square,
                what,
                ruling,
            } => write!(f, "{square} already holds {what} ({ruling})"),
            EditLayoutError::NoSuchPiece(path) => write!(f, "{path} is no longer in the layout"),
            EditLayoutError::NoFacing(what) => {
                write!(f, "{what} has no facing: only units and terrain turn")
            }
            EditLayoutError::LastSquare => write!(
                f,
                "a terrain piece covers at least one square: delete the piece instead"
            ),
            EditLayoutError::NoFactor(player) => write!(
                f,
                "{player} has no Factor yet: place a base first, a unit belongs to a Factor (R2)"
            ),
            EditLayoutError::BoardSize { columns, rows } => write!(
                f,
                "a board of {columns} x {rows} squares cannot be made here: each side is 1 to {MAX_NEW_SIDE}"
            ),
            EditLayoutError::NoHistory(what) => write!(f, "there is nothing to {what}"),
        }
    }
}

impl std::error::Error for EditLayoutError {}

/// A problem of the layout, with the piece it belongs to if any.
pub type Finding = crate::session::draft::Finding<PieceRef>;

/// A scenario being edited, with its history and its live check
/// ([`crate::session::draft::Draft`]).
pub type Draft = crate::session::draft::Draft<Scenario>;

/// A Cache layout is a scenario; its loader checks it.
impl Layout for Scenario {
    type Edit = Edit;
    type Error = EditLayoutError;
    type At = PieceRef;

    fn change(&mut self, edit: &Edit) -> Result<(), EditLayoutError> {
        change(self, edit)
    }

    /// A name typed, a length dragged in the panel.
    fn merges(edit: &Edit) -> bool {
        matches!(edit, Edit::Rename(_) | Edit::SetPhysical(_))
    }

    fn no_history(what: &'static str) -> EditLayoutError {
        EditLayoutError::NoHistory(what)
    }

    fn text(&self) -> String {
        self.to_ron()
    }

    fn load(text: &str) -> Result<Vec<Problem>, Vec<Problem>> {
        sandtable_scenario::parse(text, "layout")
            .map(|loaded| loaded.warnings)
            .map_err(|e| e.problems)
    }

    /// The piece whose field the problem names.
    fn at(&self, problem: &Problem) -> Option<PieceRef> {
        match &problem.location {
            Location::Field(path) => PieceRef::from_path(path),
            _ => None,
        }
    }
}

impl Draft {
    /// The layout as it stands.
    pub fn scenario(&self) -> &Scenario {
        self.layout()
    }

    /// The problems of one piece.
    pub fn errors_of(&self, piece: PieceRef) -> impl Iterator<Item = &Finding> {
        self.errors().iter().filter(move |f| f.at == Some(piece))
    }

    /// The piece a click on a square means: a unit, else a base, else a
    /// stash, else the terrain piece laid last on it.
    pub fn piece_at(&self, sq: Square) -> Option<PieceRef> {
        let setup = &self.scenario().setup;
        let mut base = None;
        for (player, p) in setup.players.iter().enumerate() {
            for (factor, f) in p.factors.iter().enumerate() {
                if let Some(unit) = f.units.iter().position(|u| u.at == sq) {
                    return Some(PieceRef::Unit {
                        player,
                        factor,
                        unit,
                    });
                }
                if f.base == sq && base.is_none() {
                    base = Some(PieceRef::Base { player, factor });
                }
            }
        }
        base.or_else(|| {
            setup
                .stashes
                .iter()
                .position(|s| *s == sq)
                .map(PieceRef::Stash)
        })
        .or_else(|| {
            setup
                .terrain
                .iter()
                .rposition(|t| t.squares.contains(&sq))
                .map(PieceRef::Terrain)
        })
    }

    /// A piece in words, for the panel: "Red unit at C3 facing N".
    pub fn describe(&self, piece: PieceRef) -> Option<String> {
        let setup = &self.scenario().setup;
        Some(match piece {
            PieceRef::Unit {
                player,
                factor,
                unit,
            } => {
                let p = setup.players.get(player)?;
                let u = p.factors.get(factor)?.units.get(unit)?;
                format!("{} unit at {} facing {}", p.name, u.at, u.facing)
            }
            PieceRef::Base { player, factor } => {
                let p = setup.players.get(player)?;
                format!(
                    "{} base of Factor {} at {}",
                    p.name,
                    factor + 1,
                    p.factors.get(factor)?.base
                )
            }
            PieceRef::Stash(i) => format!("stash at {}", setup.stashes.get(i)?),
            PieceRef::Terrain(i) => {
                let t = setup.terrain.get(i)?;
                let first = t.squares.first()?;
                format!(
                    "{} on {} square{} from {first}",
                    Item::Terrain(t.kind).name(),
                    t.squares.len(),
                    if t.squares.len() == 1 { "" } else { "s" }
                )
            }
        })
    }

    /// The piece an accepted `Place` of this item added: the last of its list.
    pub fn last_placed(&self, item: Item) -> Option<PieceRef> {
        let setup = &self.scenario().setup;
        let last = |n: usize| n.checked_sub(1);
        match item {
            Item::Unit { player, factor, .. } => Some(PieceRef::Unit {
                player,
                factor,
                unit: last(setup.players.get(player)?.factors.get(factor)?.units.len())?,
            }),
            Item::Base { player } => Some(PieceRef::Base {
                player,
                factor: last(setup.players.get(player)?.factors.len())?,
            }),
            Item::Stash => last(setup.stashes.len()).map(PieceRef::Stash),
            Item::Terrain(_) => last(setup.terrain.len()).map(PieceRef::Terrain),
        }
    }
}

/// An empty layout: two players without Factors on a board of this size.
pub fn empty_scenario(columns: u16, rows: u16) -> Scenario {
    let board = Board { columns, rows };
    let physical = Physical::assumed(board);
    Scenario {
        name: format!("New layout {columns} x {rows}"),
        rules: RuleSystem::ConflictAtCache,
        setup: Setup {
            board,
            players: ["Red", "Blue"]
                .iter()
                .map(|name| sandtable_cache::PlayerSetup {
                    name: (*name).to_owned(),
                    factors: Vec::new(),
                })
                .collect(),
            terrain: Vec::new(),
            first_player: Some(0),
            seed: sandtable_scenario::DEFAULT_SEED,
            turn_limit: None,
            stashes: Vec::new(),
            stash_list: StashList::seed_default(),
        },
        colours: DEFAULT_COLOURS[..2].to_vec(),
        physical: Some(physical),
        warnings: Vec::new(),
        models: Vec::new(),
    }
}

fn on_board(board: Board, col: i32, row: i32) -> Result<Square, EditLayoutError> {
    let fits = |v: i32, n: u16| (0..i32::from(n)).contains(&v);
    if fits(col, board.columns) && fits(row, board.rows) {
        Ok(Square::new(col as u16, row as u16))
    } else {
        let name = if col >= 0 && row >= 0 {
            Square::new(col as u16, row as u16).to_string()
        } else {
            "a square".to_owned()
        };
        Err(EditLayoutError::OffBoard {
            square: name,
            board,
        })
    }
}

fn check_on(board: Board, sq: Square) -> Result<(), EditLayoutError> {
    on_board(board, i32::from(sq.col), i32::from(sq.row)).map(|_| ())
}

fn unit_at(setup: &Setup, sq: Square) -> bool {
    setup
        .players
        .iter()
        .flat_map(|p| &p.factors)
        .flat_map(|f| &f.units)
        .any(|u| u.at == sq)
}

fn base_at(setup: &Setup, sq: Square) -> bool {
    setup
        .players
        .iter()
        .flat_map(|p| &p.factors)
        .any(|f| f.base == sq)
}

fn occupied(what: &'static str, square: Square, ruling: Ruling) -> EditLayoutError {
    EditLayoutError::Occupied {
        square,
        what,
        ruling,
    }
}

fn missing(piece: PieceRef) -> EditLayoutError {
    EditLayoutError::NoSuchPiece(piece.path())
}

/// Applies an edit to a scenario, or says why not and leaves it unchanged
/// (the caller works on a copy).
fn change(s: &mut Scenario, edit: &Edit) -> Result<(), EditLayoutError> {
    let board = s.setup.board;
    let setup = &mut s.setup;
    match edit {
        Edit::Place { item, at } => {
            let at = *at;
            check_on(board, at)?;
            match *item {
                Item::Unit {
                    player,
                    factor,
                    facing,
                } => {
                    if unit_at(setup, at) {
                        return Err(occupied("a unit", at, Ruling::R1));
                    }
                    let p = setup.players.get_mut(player).ok_or_else(|| {
                        EditLayoutError::NoSuchPiece(format!("players[{player}]"))
                    })?;
                    let name = p.name.clone();
                    let f = p
                        .factors
                        .get_mut(factor)
                        .ok_or(EditLayoutError::NoFactor(name))?;
                    f.units.push(UnitSetup {
                        at,
                        facing,
                        name: None,
                    });
                }
                Item::Base { player } => {
                    if base_at(setup, at) {
                        return Err(occupied("a base", at, Ruling::R3));
                    }
                    let p = setup.players.get_mut(player).ok_or_else(|| {
                        EditLayoutError::NoSuchPiece(format!("players[{player}]"))
                    })?;
                    p.factors.push(FactorSetup {
                        base: at,
                        units: Vec::new(),
                    });
                }
                Item::Stash => {
                    if setup.stashes.contains(&at) {
                        return Err(occupied("a stash", at, Ruling::R20));
                    }
                    setup.stashes.push(at);
                }
                Item::Terrain(TerrainKind::Building { .. }) => {
                    // A 3 x 3 building with the clicked square as the door in
                    // the middle of its near wall (R16).
                    let (c, r) = (i32::from(at.col), i32::from(at.row));
                    let mut squares = Vec::with_capacity(9);
                    for row in r..r + 3 {
                        for col in c - 1..c + 2 {
                            squares.push(on_board(board, col, row)?);
                        }
                    }
                    setup.terrain.push(TerrainPiece {
                        kind: TerrainKind::Building { entrance: at },
                        squares,
                    });
                }
                Item::Terrain(kind) => setup.terrain.push(TerrainPiece {
                    kind,
                    squares: vec![at],
                }),
            }
        }
        Edit::Move { piece, from, to } => {
            check_on(board, *to)?;
            match *piece {
                PieceRef::Unit { .. } => {
                    if *to != *from && unit_at(setup, *to) {
                        return Err(occupied("a unit", *to, Ruling::R1));
                    }
                    unit_mut(setup, *piece)?.at = *to;
                }
                PieceRef::Base { player, factor } => {
                    if *to != *from && base_at(setup, *to) {
                        return Err(occupied("a base", *to, Ruling::R3));
                    }
                    setup
                        .players
                        .get_mut(player)
                        .and_then(|p| p.factors.get_mut(factor))
                        .ok_or_else(|| missing(*piece))?
                        .base = *to;
                }
                PieceRef::Stash(i) => {
                    if *to != *from && setup.stashes.contains(to) {
                        return Err(occupied("a stash", *to, Ruling::R20));
                    }
                    *setup.stashes.get_mut(i).ok_or_else(|| missing(*piece))? = *to;
                }
                PieceRef::Terrain(i) => {
                    let t = setup.terrain.get_mut(i).ok_or_else(|| missing(*piece))?;
                    let dc = i32::from(to.col) - i32::from(from.col);
                    let dr = i32::from(to.row) - i32::from(from.row);
                    let shift = |sq: Square| {
                        on_board(board, i32::from(sq.col) + dc, i32::from(sq.row) + dr)
                    };
                    remap(t, shift)?;
                }
            }
        }
        Edit::Rotate { piece, turn } => match *piece {
            PieceRef::Unit { .. } => {
                let u = unit_mut(setup, *piece)?;
                u.facing = match turn {
                    Turn::Left => u.facing.left(),
                    Turn::Right => u.facing.right(),
                };
            }
            PieceRef::Base { .. } => return Err(EditLayoutError::NoFacing("a base")),
            PieceRef::Stash(_) => return Err(EditLayoutError::NoFacing("a stash")),
            PieceRef::Terrain(i) => {
                let t = setup.terrain.get_mut(i).ok_or_else(|| missing(*piece))?;
                let pivot = *t.squares.first().ok_or(EditLayoutError::LastSquare)?;
                // Rows grow northward: a right (clockwise) turn takes N to E.
                let spin = |sq: Square| {
                    let dc = i32::from(sq.col) - i32::from(pivot.col);
                    let dr = i32::from(sq.row) - i32::from(pivot.row);
                    let (nc, nr) = match turn {
                        Turn::Right => (dr, -dc),
                        Turn::Left => (-dr, dc),
                    };
                    on_board(board, i32::from(pivot.col) + nc, i32::from(pivot.row) + nr)
                };
                remap(t, spin)?;
            }
        },
        Edit::Delete(piece) => match *piece {
            PieceRef::Unit {
                player,
                factor,
                unit,
            } => {
                let f = setup
                    .players
                    .get_mut(player)
                    .and_then(|p| p.factors.get_mut(factor))
                    .filter(|f| unit < f.units.len())
                    .ok_or_else(|| missing(*piece))?;
                f.units.remove(unit);
            }
            PieceRef::Base { player, factor } => {
                let p = setup
                    .players
                    .get_mut(player)
                    .filter(|p| factor < p.factors.len())
                    .ok_or_else(|| missing(*piece))?;
                p.factors.remove(factor);
            }
            PieceRef::Stash(i) => {
                if i >= setup.stashes.len() {
                    return Err(missing(*piece));
                }
                setup.stashes.remove(i);
            }
            PieceRef::Terrain(i) => {
                if i >= setup.terrain.len() {
                    return Err(missing(*piece));
                }
                setup.terrain.remove(i);
            }
        },
        Edit::ToggleSquare { terrain, at } => {
            check_on(board, *at)?;
            let t = setup
                .terrain
                .get_mut(*terrain)
                .ok_or_else(|| missing(PieceRef::Terrain(*terrain)))?;
            match t.squares.iter().position(|s| s == at) {
                Some(_) if t.squares.len() == 1 => return Err(EditLayoutError::LastSquare),
                Some(k) => {
                    t.squares.remove(k);
                }
                None => t.squares.push(*at),
            }
        }
        Edit::AddPlayer => {
            let n = setup.players.len();
            let mut k = n + 1;
            while setup
                .players
                .iter()
                .any(|p| p.name == format!("Player {k}"))
            {
                k += 1;
            }
            setup.players.push(sandtable_cache::PlayerSetup {
                name: format!("Player {k}"),
                factors: Vec::new(),
            });
            s.colours.push(DEFAULT_COLOURS[n % DEFAULT_COLOURS.len()]);
        }
        Edit::Rename(name) => s.name = name.clone(),
        Edit::SetRules(rules) => s.rules = *rules,
        Edit::SetPhysical(physical) => s.physical = *physical,
        Edit::New { columns, rows } => {
            let side = 1..=MAX_NEW_SIDE;
            if !side.contains(columns) || !side.contains(rows) {
                return Err(EditLayoutError::BoardSize {
                    columns: *columns,
                    rows: *rows,
                });
            }
            *s = empty_scenario(*columns, *rows);
        }
    }
    Ok(())
}

/// Moves every square of a terrain piece (and a building's entrance) by a
/// map that may fail; on failure the piece is left as it was.
fn remap(
    t: &mut TerrainPiece,
    map: impl Fn(Square) -> Result<Square, EditLayoutError>,
) -> Result<(), EditLayoutError> {
    let squares = t
        .squares
        .iter()
        .map(|sq| map(*sq))
        .collect::<Result<Vec<_>, _>>()?;
    if let TerrainKind::Building { entrance } = t.kind {
        t.kind = TerrainKind::Building {
            entrance: map(entrance)?,
        };
    }
    t.squares = squares;
    Ok(())
}

fn unit_mut(setup: &mut Setup, piece: PieceRef) -> Result<&mut UnitSetup, EditLayoutError> {
    let PieceRef::Unit {
        player,
        factor,
        unit,
    } = piece
    else {
        return Err(missing(piece));
    };
    setup
        .players
        .get_mut(player)
        .and_then(|p| p.factors.get_mut(factor))
        .and_then(|f| f.units.get_mut(unit))
        .ok_or_else(|| missing(piece))
}
