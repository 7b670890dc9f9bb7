//! Setup descriptions and their validation (R1 to R5, R12, R16): the raw state a
//! scenario states, checked in full before a `Game` can exist. Reading files is
//! left to the scenario crate.

use std::collections::BTreeMap;

use crate::geometry::{Board, Facing, MAX_BOARD_SIDE, Square};
use crate::ruling::Ruling;
use crate::stash::StashList;
use crate::terrain::{Ground, TerrainKind, TerrainPiece};

/// The number of units in a standard Factor (R2).
pub const STANDARD_FACTOR_UNITS: usize = 10;

/// The largest number of units, and of Factors, a game may hold. Units and
/// Factors are numbered in 15 bits of the occupancy grid, and an action
/// budget of 16 bits must hold every capture one activation can make (R9).
pub const MAX_PIECES: usize = 16_383;

/// The largest number of stash tokens a game may hold (R20): their index is
/// 16 bits wide, and every stash may add to one activation's budget (R23).
pub const MAX_STASHES: usize = 1_000;

/// The largest number of terrain squares a setup may lay, counting every
/// square of every piece: enough to cover the largest board twice (a bridge
/// laid over water covers a square twice).
pub const MAX_TERRAIN_SQUARES: usize = 1_000_000;

/// The longest turn limit a game may have, in player turns (R11, R26).
pub const MAX_TURN_LIMIT: u32 = 10_000;

pub use sandtable_core::setup::{MAX_PROBLEMS_KEPT, SetupError, SetupProblem};

// One activation's budget (R7) is 16 bits: the 4 given actions, +3 for every
// capture it can make (each unit once, and once more after every stash that
// returns an unfriendly unit, R23) and up to 9 from every stash it discovers.
const _: () = assert!(
    4 + 3 * (MAX_PIECES + MAX_STASHES) + 9 * MAX_STASHES <= u16::MAX as usize,
    "an activation's budget must fit in 16 bits"
);

/// Everything needed to start a game: the result of setup, before validation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setup {
    /// The board's size in squares.
    pub board: Board,
    /// Players in turn order (R5).
    pub players: Vec<PlayerSetup>,
    /// Terrain pieces, laid in order.
    pub terrain: Vec<TerrainPiece>,
    /// Index of the player who takes the first turn; `None` draws one with the seed (R5).
    pub first_player: Option<usize>,
    /// Seed of the game's random generator (R30).
    pub seed: u64,
    /// Number of turns after which the game is a draw (R11); a turn is one player's turn.
    pub turn_limit: Option<u32>,
    /// Squares of stash tokens (The Snyder Skirmish, R20); empty for Conflict at Cache.
    pub stashes: Vec<Square>,
    /// The stash list rolled on when a stash is discovered (R21).
    pub stash_list: StashList,
}

/// One player and the Factors it commands (R2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerSetup {
    /// The player's name, unique in the game.
    pub name: String,
    /// The player's Factors.
    pub factors: Vec<FactorSetup>,
}

/// A Factor: one Base and its Units (R2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FactorSetup {
    /// The square of the Factor's Base.
    pub base: Square,
    /// The Factor's Units.
    pub units: Vec<UnitSetup>,
}

/// A Unit as placed at setup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnitSetup {
    /// Its square.
    pub at: Square,
    /// The way it faces.
    pub facing: Facing,
    /// An optional name for the miniature.
    pub name: Option<String>,
}

/// A setup that passed validation, with the ground of every square.
#[derive(Debug, Clone)]
pub(crate) struct ValidSetup {
    pub(crate) ground: Vec<Ground>,
    pub(crate) warnings: Vec<SetupProblem>,
}

/// How many pieces a setup holds, counted before anything is laid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    /// Factors of every player.
    pub factors: usize,
    /// Units of every Factor.
    pub units: usize,
    /// Stash tokens.
    pub stashes: usize,
    /// Squares of every terrain piece, each counted as often as it is listed.
    pub terrain_squares: usize,
}

/// The counts past what the engine holds, each named with its limit: units
/// and Factors ([`MAX_PIECES`]), stashes ([`MAX_STASHES`], R20) and terrain
/// squares ([`MAX_TERRAIN_SQUARES`]). The scenario loader asks before it
/// expands a file's areas; validation asks again of every setup.
pub fn count_problems(counts: Counts) -> Vec<SetupProblem> {
    let mut problems = Vec::new();
    let Counts {
        factors,
        units,
        stashes,
        terrain_squares,
    } = counts;
    if units > MAX_PIECES || factors > MAX_PIECES {
        problems.push(SetupProblem {
            path: "players".to_owned(),
            ruling: None,
            message: format!(
                "{units} units in {factors} Factors: at most {MAX_PIECES} of each are supported"
            ),
        });
    }
    if stashes > MAX_STASHES {
        problems.push(SetupProblem {
            path: "stashes".to_owned(),
            ruling: Some(Ruling::R20.into()),
            message: format!("{stashes} stashes: at most {MAX_STASHES} are supported"),
        });
    }
    if terrain_squares > MAX_TERRAIN_SQUARES {
        problems.push(SetupProblem {
            path: "terrain".to_owned(),
            ruling: None,
            message: format!(
                "the terrain pieces cover {terrain_squares} squares in all: at most {MAX_TERRAIN_SQUARES} are supported"
            ),
        });
    }
    problems
}

/// Problems as they are found: the first [`MAX_PROBLEMS_KEPT`] kept, the
/// rest counted, so that a setup with millions of problems costs no more
/// memory than one with a thousand.
#[derive(Default)]
struct Problems {
    kept: Vec<SetupProblem>,
    more: usize,
}

impl Problems {
    fn add(&mut self, path: impl Into<String>, ruling: Option<Ruling>, message: impl Into<String>) {
        self.keep(SetupProblem {
            path: path.into(),
            ruling: ruling.map(Into::into),
            message: message.into(),
        });
    }

    fn keep(&mut self, problem: SetupProblem) {
        if self.kept.len() < MAX_PROBLEMS_KEPT {
            self.kept.push(problem);
        } else {
            self.more += 1;
        }
    }

    fn is_empty(&self) -> bool {
        self.kept.is_empty()
    }

    fn into_error(mut self) -> SetupError {
        self.kept.sort_by_key(|p| path_order(&p.path));
        SetupError {
            problems: self.kept,
            more: self.more,
        }
    }
}

impl Setup {
    /// Checks the setup against R1 to R5, R12 and R16, collecting every problem.
    /// A valid setup gives the warnings a person should still hear about, such
    /// as a Factor without the standard ten Units (R2).
    pub fn validate(&self) -> Result<Vec<SetupProblem>, SetupError> {
        self.check_all().map(|v| v.warnings)
    }

    pub(crate) fn check_all(&self) -> Result<ValidSetup, SetupError> {
        let mut problems = Problems::default();
        let mut warnings = Problems::default();
        let board = self.board;
        let side = 1..=MAX_BOARD_SIDE;
        if !side.contains(&board.columns) || !side.contains(&board.rows) {
            problems.add(
                "board",
                Some(Ruling::R1),
                format!(
                    "a board of {} x {} squares is not allowed: columns and rows must each be 1 to {MAX_BOARD_SIDE}",
                    board.columns, board.rows
                ),
            );
            // Nothing else can be placed on a board that does not exist.
            return Err(problems.into_error());
        }
        // Counts past the engine's limits are refused before anything is laid.
        self.check_counts(&mut problems);
        if !problems.is_empty() {
            return Err(problems.into_error());
        }

        let ground = self.lay_terrain(&mut problems);

        if self.players.len() < 2 {
            problems.add(
                "players",
                Some(Ruling::R5),
                format!(
                    "a game needs at least 2 players, this setup has {}",
                    self.players.len()
                ),
            );
        }
        let mut names: BTreeMap<&str, usize> = BTreeMap::new();
        let mut structures: BTreeMap<Square, String> = BTreeMap::new();
        let mut unit_squares: BTreeMap<Square, String> = BTreeMap::new();
        for (p, player) in self.players.iter().enumerate() {
            let ppath = format!("players[{p}]");
            if player.name.trim().is_empty() {
                problems.add(
                    format!("{ppath}.name"),
                    Some(Ruling::R5),
                    "a player needs a name",
                );
            } else if let Some(first) = names.insert(&player.name, p) {
                problems.add(
                    format!("{ppath}.name"),
                    Some(Ruling::R5),
                    format!(
                        "the name `{}` is already used by players[{first}]",
                        player.name
                    ),
                );
                names.insert(&self.players[first].name, first);
            }
            if player.factors.is_empty() {
                problems.add(
                    format!("{ppath}.factors"),
                    Some(Ruling::R2),
                    "a player commands at least one Factor",
                );
            }
            for (f, factor) in player.factors.iter().enumerate() {
                let fpath = format!("{ppath}.factors[{f}]");
                let base = factor.base;
                let bpath = format!("{fpath}.base");
                if !board.contains(base) {
                    problems.add(&bpath, Some(Ruling::R1), off_board(base, board));
                } else {
                    let g = ground[board.index(base)];
                    if board.on_edge(base) {
                        problems.add(
                            &bpath,
                            Some(Ruling::R3),
                            format!("base {base} borders the board edge"),
                        );
                    }
                    if g != Ground::Open {
                        problems.add(
                            &bpath,
                            Some(Ruling::R3),
                            format!(
                                "base {base} stands on {}: a base may stand only on open ground",
                                g.describe()
                            ),
                        );
                    }
                    if let Some(other) = structures.insert(base, bpath.clone()) {
                        problems.add(
                            &bpath,
                            Some(Ruling::R3),
                            format!("base {base} stands on the base of {other}"),
                        );
                    }
                }
                if factor.units.len() != STANDARD_FACTOR_UNITS {
                    warnings.add(
                        format!("{fpath}.units"),
                        Some(Ruling::R2),
                        format!(
                            "this Factor has {} units; a standard Factor has {STANDARD_FACTOR_UNITS}",
                            factor.units.len()
                        ),
                    );
                }
                for (u, unit) in factor.units.iter().enumerate() {
                    let upath = format!("{fpath}.units[{u}]");
                    let at = unit.at;
                    if !board.contains(at) {
                        problems.add(&upath, Some(Ruling::R1), off_board(at, board));
                        continue;
                    }
                    let distance = at.chebyshev(base);
                    if distance > 2 {
                        problems.add(
                            &upath,
                            Some(Ruling::R4),
                            format!(
                                "{at} is {distance} squares from its base {base}, at most 2 allowed"
                            ),
                        );
                    }
                    let g = ground[board.index(at)];
                    if !g.can_hold_unit() {
                        problems.add(
                            &upath,
                            Some(Ruling::R4),
                            format!("{at} is {}, where no unit may stand (R12)", g.describe()),
                        );
                    }
                    if let Some(other) = unit_squares.insert(at, upath.clone()) {
                        problems.add(
                            &upath,
                            Some(Ruling::R1),
                            format!("{at} already holds {other}; a square holds at most one unit"),
                        );
                    }
                }
            }
        }
        // Units on bases are checked once every base is known.
        for (at, upath) in &unit_squares {
            if let Some(bpath) = structures.get(at) {
                problems.add(
                    upath,
                    Some(Ruling::R4),
                    format!("{at} holds the base of {bpath}; a unit may not start on a base"),
                );
            }
        }
        // R20: stashes lie flat where a unit may stand, one a square, off bases.
        let mut stash_squares: BTreeMap<Square, usize> = BTreeMap::new();
        for (k, &sq) in self.stashes.iter().enumerate() {
            let path = format!("stashes[{k}]");
            if !board.contains(sq) {
                problems.add(&path, Some(Ruling::R1), off_board(sq, board));
                continue;
            }
            if let Some(first) = stash_squares.insert(sq, k) {
                problems.add(
                    &path,
                    Some(Ruling::R20),
                    format!("{sq} already has stashes[{first}]; at most one stash a square"),
                );
            }
            let g = ground[board.index(sq)];
            if !g.can_hold_unit() {
                problems.add(
                    &path,
                    Some(Ruling::R20),
                    format!("a stash may not lie on {}, at {sq}", g.describe()),
                );
            }
            if let Some(bpath) = structures.get(&sq) {
                problems.add(
                    &path,
                    Some(Ruling::R20),
                    format!("{sq} holds the base of {bpath}; a stash may not lie on a base"),
                );
            }
        }
        if let Some(first) = self.first_player
            && first >= self.players.len()
        {
            problems.add(
                "first_player",
                Some(Ruling::R5),
                format!(
                    "player {first} does not exist: players are numbered 0 to {}",
                    self.players.len().saturating_sub(1)
                ),
            );
        }
        if let Some(limit) = self.turn_limit
            && !(1..=MAX_TURN_LIMIT).contains(&limit)
        {
            problems.add(
                "turn_limit",
                Some(Ruling::R11),
                format!("a turn limit is 1 to {MAX_TURN_LIMIT} turns, not {limit}"),
            );
        }
        // R26: the limit counts player turns; with three or more players one
        // that is not a multiple of their number ends the game part of the
        // way round the table.
        let n = self.players.len() as u32;
        if let Some(limit) = self.turn_limit
            && n >= 3
            && (1..=MAX_TURN_LIMIT).contains(&limit)
            && !limit.is_multiple_of(n)
        {
            warnings.add(
                "turn_limit",
                Some(Ruling::R26),
                format!(
                    "a limit of {limit} player turns is not a multiple of the {n} players: the last round stops after {} of them",
                    limit % n
                ),
            );
        }
        if problems.is_empty() {
            Ok(ValidSetup {
                ground,
                warnings: warnings.kept,
            })
        } else {
            Err(problems.into_error())
        }
    }

    /// Refuses counts past what the engine holds (see [`count_problems`]).
    fn check_counts(&self, problems: &mut Problems) {
        let counts = Counts {
            factors: self.players.iter().map(|p| p.factors.len()).sum(),
            units: self
                .players
                .iter()
                .flat_map(|p| &p.factors)
                .map(|f| f.units.len())
                .sum(),
            stashes: self.stashes.len(),
            terrain_squares: self.terrain.iter().map(|t| t.squares.len()).sum(),
        };
        for p in count_problems(counts) {
            problems.keep(p);
        }
    }

    /// Lays the terrain pieces in order, reporting pieces off the board, broken
    /// buildings (R16) and overlaps (only a bridge over water may overlap).
    fn lay_terrain(&self, problems: &mut Problems) -> Vec<Ground> {
        let board = self.board;
        let mut ground = vec![Ground::Open; board.len()];
        // Which piece last covered each square, to name both pieces of an
        // overlap, and which piece last listed it, to find squares listed twice.
        // Pieces are fewer than `MAX_TERRAIN_SQUARES`, so their index fits.
        let mut owner: Vec<u32> = vec![u32::MAX; board.len()];
        let mut laid_by: Vec<u32> = vec![u32::MAX; board.len()];
        for (i, piece) in self.terrain.iter().enumerate() {
            let path = format!("terrain[{i}]");
            if piece.squares.is_empty() {
                problems.add(&path, None, "a terrain piece covers at least one square");
                continue;
            }
            if let Some(sq) = piece.squares.iter().find(|s| !board.contains(**s)) {
                problems.add(&path, Some(Ruling::R1), off_board(*sq, board));
                continue;
            }
            let building = match piece.kind {
                TerrainKind::Building { entrance } => {
                    match building_shape(&piece.squares, entrance) {
                        Ok(rect) => {
                            // R25: the entrance opens onto a square of the board.
                            if entrance_outside(rect, entrance, board).is_none() {
                                problems.add(
                                    &path,
                                    Some(Ruling::R25),
                                    format!(
                                        "the entrance {entrance} opens off the board: the square outside it must be on the board"
                                    ),
                                );
                            }
                            Some(rect)
                        }
                        Err(message) => {
                            problems.add(&path, Some(Ruling::R16), message);
                            continue;
                        }
                    }
                }
                _ => None,
            };
            // Squares listed twice, and overlaps with each earlier piece, are
            // told once a piece, as a count and the rectangle they lie in.
            let mut twice: Option<(usize, Square)> = None;
            let mut overlaps: BTreeMap<u32, Overlap> = BTreeMap::new();
            for &sq in &piece.squares {
                let idx = board.index(sq);
                if std::mem::replace(&mut laid_by[idx], i as u32) == i as u32 {
                    twice.get_or_insert((0, sq)).0 += 1;
                    continue;
                }
                let laid = match (piece.kind, building) {
                    (TerrainKind::Building { entrance }, Some(rect)) => {
                        building_ground(sq, rect, entrance)
                    }
                    (kind, _) => ground_of(kind),
                };
                let before = ground[idx];
                let prior = owner[idx];
                if prior != u32::MAX {
                    let bridge_over_water = matches!(
                        (before, laid),
                        (Ground::Water, Ground::Bridge { .. })
                            | (Ground::Bridge { .. }, Ground::Water)
                    );
                    if !bridge_over_water {
                        overlaps
                            .entry(prior)
                            .and_modify(|o| o.add(sq))
                            .or_insert_with(|| Overlap::new(sq));
                        continue;
                    }
                    if let Ground::Bridge { .. } = before {
                        // Water under an earlier bridge: the square stays a bridge.
                        continue;
                    }
                }
                ground[idx] = laid;
                owner[idx] = i as u32;
            }
            match twice {
                Some((1, sq)) => problems.add(&path, None, format!("{sq} is listed twice")),
                Some((n, sq)) => problems.add(
                    &path,
                    None,
                    format!("{n} squares are listed more than once, the first {sq}"),
                ),
                None => {}
            }
            for (prior, o) in overlaps {
                let prior_kind = self.terrain[prior as usize].kind.name();
                let kind = piece.kind.name();
                let what = if o.count == 1 {
                    format!(
                        "{kind} at {} overlaps terrain[{prior}] ({prior_kind})",
                        o.first
                    )
                } else {
                    format!(
                        "{kind} overlaps terrain[{prior}] ({prior_kind}) on {} squares, from {} to {}",
                        o.count,
                        Square::new(o.lo.0, o.lo.1),
                        Square::new(o.hi.0, o.hi.1)
                    )
                };
                problems.add(
                    &path,
                    None,
                    format!("{what}; pieces may not overlap, except a bridge laid over water"),
                );
            }
        }
        ground
    }
}

impl Setup {
    /// The ground each terrain piece lays on each of its squares that lie on
    /// the board, with every problem ignored: for showing a setup that is
    /// still being edited and may break the rulings. A building whose shape
    /// breaks R16 shows all its squares as wall. Only [`Setup::validate`]
    /// says whether the setup can be played.
    pub fn preview_terrain(&self) -> Vec<Vec<(Square, Ground)>> {
        self.terrain
            .iter()
            .map(|piece| {
                let shape = match piece.kind {
                    TerrainKind::Building { entrance } => {
                        building_shape(&piece.squares, entrance).ok()
                    }
                    _ => None,
                };
                piece
                    .squares
                    .iter()
                    .filter(|sq| self.board.contains(**sq))
                    .map(|&sq| {
                        let ground = match (piece.kind, shape) {
                            (TerrainKind::Building { entrance }, Some(rect)) => {
                                building_ground(sq, rect, entrance)
                            }
                            (TerrainKind::Building { .. }, None) => Ground::BuildingWall,
                            (kind, _) => ground_of(kind),
                        };
                        (sq, ground)
                    })
                    .collect()
            })
            .collect()
    }
}

/// The squares where a terrain piece overlaps one earlier piece: how many,
/// the first, and the corners of the rectangle round them (column, row).
struct Overlap {
    count: usize,
    first: Square,
    lo: (u16, u16),
    hi: (u16, u16),
}

impl Overlap {
    fn new(sq: Square) -> Overlap {
        Overlap {
            count: 1,
            first: sq,
            lo: (sq.col, sq.row),
            hi: (sq.col, sq.row),
        }
    }

    fn add(&mut self, sq: Square) {
        self.count += 1;
        self.lo = (self.lo.0.min(sq.col), self.lo.1.min(sq.row));
        self.hi = (self.hi.0.max(sq.col), self.hi.1.max(sq.row));
    }
}

/// The ground of a square of a building whose shape passed R16: the
/// entrance, the wall ring, or the floor inside.
fn building_ground(sq: Square, (lo, hi): (Square, Square), entrance: Square) -> Ground {
    if sq == entrance {
        Ground::BuildingEntrance
    } else if sq.col == lo.col || sq.col == hi.col || sq.row == lo.row || sq.row == hi.row {
        Ground::BuildingWall
    } else {
        Ground::BuildingFloor
    }
}

fn ground_of(kind: TerrainKind) -> Ground {
    match kind {
        TerrainKind::LowWall => Ground::LowWall,
        TerrainKind::HighWall => Ground::HighWall,
        TerrainKind::Mountain => Ground::Mountain,
        TerrainKind::Woods => Ground::Woods,
        TerrainKind::Water => Ground::Water,
        TerrainKind::Road => Ground::Road,
        TerrainKind::Bridge { elevated } => Ground::Bridge { elevated },
        TerrainKind::Building { .. } => Ground::BuildingFloor,
    }
}

/// Checks that a building covers a filled rectangle of at least 3 x 3 squares and
/// that its entrance is on the ring but not at a corner (R16). Returns the corners.
fn building_shape(squares: &[Square], entrance: Square) -> Result<(Square, Square), String> {
    let lo = Square::new(
        squares.iter().map(|s| s.col).min().unwrap_or(0),
        squares.iter().map(|s| s.row).min().unwrap_or(0),
    );
    let hi = Square::new(
        squares.iter().map(|s| s.col).max().unwrap_or(0),
        squares.iter().map(|s| s.row).max().unwrap_or(0),
    );
    let width = usize::from(hi.col - lo.col) + 1;
    let height = usize::from(hi.row - lo.row) + 1;
    let distinct: std::collections::BTreeSet<_> = squares.iter().collect();
    if distinct.len() != width * height {
        return Err(format!(
            "a building covers a whole rectangle; {lo} to {hi} has {} squares but {} are given",
            width * height,
            distinct.len()
        ));
    }
    if width < 3 || height < 3 {
        return Err(format!(
            "a building is at least 3 x 3 squares (a wall ring round a floor); {lo} to {hi} is {width} x {height}"
        ));
    }
    let on_ring = distinct.contains(&entrance)
        && (entrance.col == lo.col
            || entrance.col == hi.col
            || entrance.row == lo.row
            || entrance.row == hi.row);
    let corner = (entrance.col == lo.col || entrance.col == hi.col)
        && (entrance.row == lo.row || entrance.row == hi.row);
    if !on_ring || corner {
        return Err(format!(
            "the entrance {entrance} must be on the building's wall ring from {lo} to {hi}, not at a corner"
        ));
    }
    Ok((lo, hi))
}

/// The square outside a building's entrance, beyond the wall ring it lies
/// on; `None` when that square is off the board (R25).
fn entrance_outside((lo, hi): (Square, Square), entrance: Square, board: Board) -> Option<Square> {
    let facing = if entrance.col == lo.col {
        crate::Facing::W
    } else if entrance.col == hi.col {
        crate::Facing::E
    } else if entrance.row == lo.row {
        crate::Facing::S
    } else {
        crate::Facing::N
    };
    entrance.step(facing, board)
}

fn off_board(sq: Square, board: Board) -> String {
    format!(
        "{sq} is off the board of {} x {} squares",
        board.columns, board.rows
    )
}

/// Sort key that orders field paths as they appear in the file, with indices
/// compared as numbers (`units[10]` after `units[9]`).
fn path_order(path: &str) -> (u8, Vec<(String, usize)>) {
    let rank = match path.split(['.', '[']).next().unwrap_or("") {
        "board" => 0,
        "players" => 1,
        "terrain" => 2,
        "stashes" => 3,
        "first_player" => 4,
        _ => 5,
    };
    let parts = path
        .split('.')
        .map(|part| match part.split_once('[') {
            Some((name, rest)) => (
                name.to_owned(),
                rest.trim_end_matches(']').parse().unwrap_or(usize::MAX),
            ),
            None => (part.to_owned(), usize::MAX),
        })
        .collect();
    (rank, parts)
}
