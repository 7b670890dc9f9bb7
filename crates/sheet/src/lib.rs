//! Printable setup sheets: a scenario's table drawn at 1:1 scale and tiled
//! over as many pages as needed, with overlap, registration marks and a
//! 100 mm check ruler on every page, then pages listing every piece with its
//! square or hex and its distance from the table's left and near edges. The
//! layout is planned in table millimetres ([`plan`] for a Conflict at Cache
//! table, [`plan_battle`] for a Warpspawn hex map), refused past [`MAX_PAGES`];
//! [`write_pdf`] streams it as a PDF a page at a time, drawing on each page
//! only what falls on it. Reading scenarios is left to `sandtable-scenario`.

use sandtable_scenario::text::path_shown;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use sandtable_cache::{Facing, Game, Ground, Occupant, Place, Square};
use sandtable_scenario::battle::Battle;
use sandtable_scenario::{Physical, Scenario};

mod hexes;
mod pdf;

pub use hexes::{MIN_NAMED_HEX_MM, terrain_colour, terrain_pattern};

/// Margin left blank at each page edge, in mm (printers do not print there).
pub const MARGIN_MM: f64 = 10.0;
/// How much neighbouring tiles overlap, in mm, to line pages up.
pub const OVERLAP_MM: f64 = 15.0;
/// The most pages a sheet may have, table and listing together: a 6 x 4 foot
/// table takes 55 pages of A4, and this limit allows twenty times the area.
pub const MAX_PAGES: usize = 1_000;
/// Squares smaller than this, in mm, are drawn without their names, which
/// would not fit in them.
pub const MIN_NAMED_SQUARE_MM: f64 = 10.0;
/// Length of the check ruler on every page, in mm.
pub const RULER_MM: f64 = 100.0;

/// A paper size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    /// ISO A4, 210 x 297 mm.
    A4,
    /// US Letter, 8.5 x 11 inches.
    Letter,
}

impl Paper {
    /// Width and height in portrait, in mm.
    pub fn portrait_mm(self) -> (f64, f64) {
        match self {
            Paper::A4 => (210.0, 297.0),
            Paper::Letter => (215.9, 279.4),
        }
    }
}

impl FromStr for Paper {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "a4" => Ok(Paper::A4),
            "letter" => Ok(Paper::Letter),
            _ => Err(format!("unknown paper `{text}`: use a4 or letter")),
        }
    }
}

impl fmt::Display for Paper {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Paper::A4 => "A4",
            Paper::Letter => "Letter",
        })
    }
}

/// A colour as red, green, blue from 0 to 1.
pub type Rgbf = [f32; 3];

/// Something drawn on the table, in mm from the table's near-left corner
/// (x to the right, y away from the near edge).
#[derive(Debug, Clone, PartialEq)]
pub enum Mark {
    /// A rectangle, filled and/or outlined.
    Rect {
        /// Left edge.
        x: f64,
        /// Near edge.
        y: f64,
        /// Width.
        w: f64,
        /// Depth.
        h: f64,
        /// Fill colour, if filled.
        fill: Option<Rgbf>,
        /// Outline width in mm, if outlined.
        stroke: Option<f64>,
    },
    /// A straight line.
    Line {
        /// Start.
        from: (f64, f64),
        /// End.
        to: (f64, f64),
        /// Width in mm.
        width: f64,
    },
    /// A closed polygon, filled and/or outlined: a hex, a peak.
    Polygon {
        /// Its corners, in order.
        points: Vec<(f64, f64)>,
        /// Fill colour, if filled.
        fill: Option<Rgbf>,
        /// Outline width in mm, if outlined.
        stroke: Option<f64>,
    },
    /// Text, left-aligned at its baseline.
    Text {
        /// Left.
        x: f64,
        /// Baseline.
        y: f64,
        /// Size in points.
        size: f32,
        /// The words.
        text: String,
    },
}

impl Mark {
    /// The area the mark covers, as (x0, y0, x1, y1).
    pub fn bounds(&self) -> (f64, f64, f64, f64) {
        match self {
            Mark::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
            Mark::Line { from, to, .. } => (
                from.0.min(to.0),
                from.1.min(to.1),
                from.0.max(to.0),
                from.1.max(to.1),
            ),
            Mark::Polygon { points, .. } => points.iter().fold(
                (
                    f64::INFINITY,
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                ),
                |(a, b, c, d), (x, y)| (a.min(*x), b.min(*y), c.max(*x), d.max(*y)),
            ),
            Mark::Text { x, y, size, text } => {
                let width = f64::from(*size) * 0.2 * text.len() as f64;
                (*x, *y, x + width, y + f64::from(*size) * 0.35)
            }
        }
    }
}

/// One page of the table: the part of the table whose near-left corner is `origin_mm`.
#[derive(Debug, Clone, PartialEq)]
pub struct Tile {
    /// Column of the tile, from the left.
    pub col: usize,
    /// Row of the tile, from the near edge.
    pub row: usize,
    /// Table point printed at the lower-left corner of the printable area, in mm.
    pub origin_mm: (f64, f64),
}

/// A planned sheet: its pages, the listing, and the game whose table it
/// draws. The marks of a page are made when the page is written.
#[derive(Debug, Clone)]
pub struct Sheet {
    /// Title printed on every page.
    pub title: String,
    /// The paper, as oriented: width and height in mm.
    pub page_mm: (f64, f64),
    /// The table's width and depth, in mm.
    pub table_mm: (f64, f64),
    /// Pages of the table, near row first.
    pub tiles: Vec<Tile>,
    /// Tiles across and along.
    pub grid: (usize, usize),
    /// One line for every piece (a terrain piece of many squares takes
    /// several).
    pub listing: Vec<String>,
    drawn: Drawn,
    colours: Vec<Rgbf>,
    /// Each player's letter: a cue besides colour, for black-and-white
    /// prints and people who cannot tell the colours apart.
    marks: Vec<char>,
}

/// What a sheet's table pages draw.
#[derive(Debug, Clone)]
enum Drawn {
    /// A Conflict at Cache table: squares, bases, units, stashes.
    Squares { game: Box<Game>, physical: Physical },
    /// A Warpspawn battle: hexes and the sides' pieces.
    Hexes(Box<hexes::HexMap>),
}

/// Why a sheet cannot be planned.
#[derive(Debug, Clone, PartialEq)]
pub enum PlanSheetError {
    /// It would take more than [`MAX_PAGES`] pages.
    TooManyPages {
        /// Tiles across and along, as far as they can be counted.
        grid: (f64, f64),
        /// Pages of the listing.
        listing: usize,
        /// The paper.
        paper: Paper,
    },
}

impl fmt::Display for PlanSheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanSheetError::TooManyPages {
                grid,
                listing,
                paper,
            } => write!(
                f,
                "the sheet would take {} pages of {paper} ({} x {} tiles of the table and {listing} of pieces): at most {MAX_PAGES} are printed",
                grid.0 * grid.1 + *listing as f64,
                grid.0,
                grid.1
            ),
        }
    }
}

impl std::error::Error for PlanSheetError {}

/// Lines of the listing a page holds.
fn lines_per_page(page_h: f64) -> usize {
    (((page_h - 2.0 * MARGIN_MM - 20.0) / 5.0).floor() as usize).max(1)
}

impl Sheet {
    /// Pages in all: tiles, then the listing.
    pub fn page_count(&self) -> usize {
        self.tiles.len() + self.listing.len().div_ceil(lines_per_page(self.page_mm.1))
    }

    /// The listing split into pages.
    pub fn listing_pages(&self) -> Vec<&[String]> {
        self.listing
            .chunks(lines_per_page(self.page_mm.1))
            .collect()
    }

    /// The words the listing's header gives for the table and its scale.
    fn scale_words(&self) -> String {
        let (w, d) = self.table_mm;
        match &self.drawn {
            Drawn::Squares { physical, .. } => format!(
                "Every piece, with the centre of its square measured from the table's edges ({w:.0} x {d:.0} mm table, {:.1} mm squares)",
                physical.square_mm
            ),
            Drawn::Hexes(map) => format!(
                "Every piece, with the centre of its hex measured from the table's edges ({w:.0} x {d:.0} mm table, {:.1} mm hexes between their flat sides)",
                map.physical.hex_mm
            ),
        }
    }

    /// The part of the table a tile prints, as (x0, y0, x1, y1) in mm.
    pub fn tile_area(&self, tile: &Tile) -> (f64, f64, f64, f64) {
        let (w, h) = self.page_mm;
        let (x0, y0) = tile.origin_mm;
        (x0, y0, x0 + w - 2.0 * MARGIN_MM, y0 + h - 2.0 * MARGIN_MM)
    }

    /// Everything drawn on the part of the table a tile prints: the table's
    /// outline, and the squares that reach into the tile with their ground,
    /// names, bases, units and stashes. Squares further off are not visited.
    pub fn marks_in(&self, tile: &Tile) -> Vec<Mark> {
        let area = self.tile_area(tile);
        let (tw, td) = self.table_mm;
        let mut marks = vec![Mark::Rect {
            x: 0.0,
            y: 0.0,
            w: tw,
            h: td,
            fill: None,
            stroke: Some(0.6),
        }];
        match &self.drawn {
            Drawn::Squares { game, physical } => {
                self.squares_in(game, physical, area, &mut marks);
            }
            Drawn::Hexes(map) => map.marks_in(
                area,
                &|side| self.colour(side),
                &|side| self.mark(side),
                &mut marks,
            ),
        }
        marks
    }

    /// The squares that reach into `area`, with what stands on them.
    fn squares_in(
        &self,
        game: &Game,
        physical: &Physical,
        area: (f64, f64, f64, f64),
        marks: &mut Vec<Mark>,
    ) {
        let (x0, y0, x1, y1) = area;
        let board = game.board();
        let s = physical.square_mm;
        let (ox, oy) = physical.grid_offset_mm(board);
        // The columns and rows of squares that reach into [lo, hi].
        let span = |lo: f64, hi: f64, origin: f64, n: u16| -> Option<(u16, u16)> {
            let first = ((lo - origin) / s).floor().max(0.0);
            let last = ((hi - origin) / s).floor().min(f64::from(n) - 1.0);
            (first <= last).then_some((first as u16, last as u16))
        };
        let (Some(cols), Some(rows)) = (
            span(x0, x1, ox, board.columns),
            span(y0, y1, oy, board.rows),
        ) else {
            return;
        };
        for row in rows.0..=rows.1 {
            for col in cols.0..=cols.1 {
                self.square_marks(game, physical, Square::new(col, row), marks);
            }
        }
    }

    /// The marks of one square and what stands on it.
    fn square_marks(&self, game: &Game, physical: &Physical, sq: Square, marks: &mut Vec<Mark>) {
        let s = physical.square_mm;
        // The square's corner nearest the table's near-left corner.
        let (x, y) = {
            let (ox, oy) = physical.grid_offset_mm(game.board());
            (ox + f64::from(sq.col) * s, oy + f64::from(sq.row) * s)
        };
        marks.push(Mark::Rect {
            x,
            y,
            w: s,
            h: s,
            fill: ground_colour(game.ground(sq)),
            stroke: Some(0.15),
        });
        if s >= MIN_NAMED_SQUARE_MM {
            marks.push(Mark::Text {
                x: x + 0.8,
                y: y + s - 3.0,
                size: 5.0,
                text: sq.to_string(),
            });
        }
        match game.occupant(sq) {
            Some(Occupant::Base(f)) => {
                let factor = &game.factors()[usize::from(f.0)];
                marks.push(Mark::Rect {
                    x: x + s * 0.15,
                    y: y + s * 0.15,
                    w: s * 0.7,
                    h: s * 0.7,
                    fill: Some(self.colour(usize::from(factor.player.0))),
                    stroke: Some(0.4),
                });
                marks.push(Mark::Text {
                    x: x + s * 0.22,
                    y: y + s * 0.42,
                    size: 6.0,
                    text: format!("BASE {}", self.mark(usize::from(factor.player.0))),
                });
            }
            Some(Occupant::Unit(u)) => {
                let Some((_, facing)) = game.position(u) else {
                    return;
                };
                let player = game.units()[usize::from(u.0)].player;
                let (cx, cy) = (x + s / 2.0, y + s / 2.0);
                marks.push(Mark::Rect {
                    x: x + s * 0.25,
                    y: y + s * 0.25,
                    w: s * 0.5,
                    h: s * 0.5,
                    fill: Some(self.colour(usize::from(player.0))),
                    stroke: None,
                });
                // The front: a thick line from the centre to the facing edge.
                let (dx, dy) = match facing {
                    Facing::N => (0.0, 1.0),
                    Facing::E => (1.0, 0.0),
                    Facing::S => (0.0, -1.0),
                    Facing::W => (-1.0, 0.0),
                };
                marks.push(Mark::Line {
                    from: (cx, cy),
                    to: (cx + dx * s * 0.45, cy + dy * s * 0.45),
                    width: 1.2,
                });
                if s >= MIN_NAMED_SQUARE_MM {
                    marks.push(Mark::Text {
                        x: cx - s * 0.2,
                        y: cy - s * 0.2,
                        size: 7.0,
                        text: self.mark(usize::from(player.0)).to_string(),
                    });
                }
            }
            None => {}
        }
        if game.stash_at(sq) {
            marks.push(Mark::Rect {
                x: x + s * 0.35,
                y: y + s * 0.08,
                w: s * 0.3,
                h: s * 0.12,
                fill: Some([0.95, 0.78, 0.25]),
                stroke: Some(0.2),
            });
        }
    }

    fn mark(&self, player: usize) -> char {
        self.marks.get(player).copied().unwrap_or('?')
    }

    fn colour(&self, player: usize) -> Rgbf {
        self.colours
            .get(player)
            .copied()
            .unwrap_or([0.35, 0.35, 0.35])
    }
}

/// Tiles needed to cover `length` mm with printable `span` mm and overlap,
/// as a float so that no table is too large to count.
fn tiles_along(length: f64, span: f64) -> f64 {
    if length <= span {
        1.0
    } else {
        ((length - span) / (span - OVERLAP_MM)).ceil() + 1.0
    }
}

fn ground_colour(g: Ground) -> Option<Rgbf> {
    Some(match g {
        Ground::Open => return None,
        Ground::LowWall => [0.62, 0.48, 0.33],
        Ground::HighWall | Ground::BuildingWall => [0.35, 0.35, 0.38],
        Ground::Mountain => [0.55, 0.50, 0.45],
        Ground::Woods => [0.45, 0.70, 0.45],
        Ground::Water => [0.60, 0.78, 0.95],
        Ground::Road => [0.90, 0.84, 0.70],
        Ground::Bridge { .. } => [0.75, 0.60, 0.45],
        Ground::BuildingFloor | Ground::BuildingEntrance => [0.92, 0.88, 0.80],
    })
}

/// Square names a listing line holds.
const SQUARES_A_LINE: usize = 24;

/// The corners of a terrain piece that covers a whole rectangle of more
/// than one square, with its width and height.
fn rectangle_of(piece: &sandtable_cache::TerrainPiece) -> Option<(Square, Square, usize, usize)> {
    let squares = &piece.squares;
    let c0 = squares.iter().map(|q| q.col).min()?;
    let c1 = squares.iter().map(|q| q.col).max()?;
    let r0 = squares.iter().map(|q| q.row).min()?;
    let r1 = squares.iter().map(|q| q.row).max()?;
    // A valid piece lists no square twice: as many squares as its bounding
    // rectangle holds make that rectangle.
    let (width, height) = (usize::from(c1 - c0) + 1, usize::from(r1 - r0) + 1);
    (squares.len() > 1 && width * height == squares.len()).then_some((
        Square::new(c0, r0),
        Square::new(c1, r1),
        width,
        height,
    ))
}

/// How many listing lines a terrain piece takes (see [`terrain_lines`]).
fn terrain_line_count(piece: &sandtable_cache::TerrainPiece) -> usize {
    match rectangle_of(piece) {
        Some(_) => 1,
        None => piece.squares.len().div_ceil(SQUARES_A_LINE).max(1),
    }
}

/// The listing lines of a terrain piece: its kind and its squares, a
/// rectangle by its corners, other shapes by their squares over as many
/// lines as they need.
fn terrain_lines(index: usize, piece: &sandtable_cache::TerrainPiece) -> Vec<String> {
    let kind = piece.kind.name();
    if let Some((lo, hi, width, height)) = rectangle_of(piece) {
        return vec![format!(
            "terrain {}: {kind} on the {width} x {height} squares from {lo} to {hi}",
            index + 1
        )];
    }
    piece
        .squares
        .chunks(SQUARES_A_LINE)
        .enumerate()
        .map(|(k, chunk)| {
            let names: Vec<String> = chunk.iter().map(|s| s.to_string()).collect();
            if k == 0 {
                format!("terrain {}: {kind} on {}", index + 1, names.join(" "))
            } else {
                format!("    {}", names.join(" "))
            }
        })
        .collect()
}

/// Plans the setup sheet of a scenario on a paper: the table at 1:1 scale
/// (Table A's 30 mm squares on 762 x 508 mm when the scenario gives no
/// `physical`), in whichever orientation needs fewer pages. A sheet of more
/// than [`MAX_PAGES`] pages is refused before any page is made.
pub fn plan(scenario: &Scenario, paper: Paper) -> Result<Sheet, PlanSheetError> {
    let physical = scenario.table();
    let game = scenario.game();
    let board = game.board();
    let (tw, td) = physical.table_mm;

    // Pages are counted before anything is made: the listing's lines from
    // the counts of pieces, the tiles from the table's size.
    let units_on_board = (0..game.units().len())
        .filter(|i| {
            matches!(
                game.place(sandtable_cache::UnitId(*i as u16)),
                Place::Board { .. }
            )
        })
        .count();
    let terrain_lines_count: usize = game.terrain_pieces().iter().map(terrain_line_count).sum();
    let listing_lines = game.factors().len()
        + units_on_board
        + game.stashes().count()
        + terrain_lines_count
        + scenario.models.len();
    let (page_mm, grid, tiles) = lay_out((tw, td), listing_lines, paper)?;

    let s = physical.square_mm;
    let (ox, oy) = physical.grid_offset_mm(board);
    let from_edges = |sq: Square| {
        let (x, y) = (
            ox + (f64::from(sq.col) + 0.5) * s,
            oy + (f64::from(sq.row) + 0.5) * s,
        );
        format!("{x:.1} mm from the left edge, {y:.1} mm from the near edge")
    };
    let marks = sandtable_scenario::player_marks(game.players().iter().map(|p| p.name.as_str()));
    let owners: Vec<String> = game
        .players()
        .iter()
        .enumerate()
        .map(|(i, p)| pdf::sheet_name(&p.name, "Player", marks[i]))
        .collect();
    let mut listing = Vec::with_capacity(listing_lines);
    for factor in game.factors() {
        let owner = &owners[usize::from(factor.player.0)];
        listing.push(format!(
            "{owner} base (Factor {}) on {}: {}",
            factor.index + 1,
            factor.base,
            from_edges(factor.base)
        ));
    }
    for (i, unit) in game.units().iter().enumerate() {
        let Place::Board { square, facing } = game.place(sandtable_cache::UnitId(i as u16)) else {
            continue;
        };
        let owner = &owners[usize::from(unit.player.0)];
        let name = unit
            .name
            .as_deref()
            .map(|n| format!(" \"{n}\""))
            .unwrap_or_default();
        listing.push(format!(
            "{owner} unit{name} on {square} facing {facing}: {}",
            from_edges(square)
        ));
    }
    for sq in game.stashes() {
        listing.push(format!("stash on {sq}: {}", from_edges(sq)));
    }
    for (i, piece) in game.terrain_pieces().iter().enumerate() {
        let mut lines = terrain_lines(i, piece);
        if let Some(first) = piece.squares.first() {
            lines[0].push_str(&format!(" (first square {})", from_edges(*first)));
        }
        listing.extend(lines);
    }
    // The scenario's own models, so that the right figures are set out.
    for m in &scenario.models {
        listing.push(format!(
            "model for {}: {} (one unit of the model is {} mm)",
            m.describe(),
            m.file,
            m.unit_mm
        ));
    }

    Ok(Sheet {
        title: scenario.name.clone(),
        page_mm,
        table_mm: physical.table_mm,
        tiles,
        grid,
        listing,
        drawn: Drawn::Squares {
            game: Box::new(game),
            physical,
        },
        colours: print_colours(&scenario.colours),
        marks,
    })
}

/// Plans the setup sheet of a Warpspawn battle on a paper: its hex map at
/// 1:1 on its table (40 mm hexes with a hex's rim round the map when the
/// battle gives no `physical`), each hex named with its terrain by colour
/// and by pattern, each side's pieces on their hexes, then the listing:
/// each side's points against its limit (R61), every side's pieces hex by
/// hex with their distances from the table's edges, and each terrain's
/// hexes. Tiled, oriented and bounded as [`plan`] does.
pub fn plan_battle(battle: &Battle, paper: Paper) -> Result<Sheet, PlanSheetError> {
    let map = hexes::of(battle);
    let table_mm = map.physical.table_mm;
    let (page_mm, grid, tiles) = lay_out(table_mm, map.listing_len(), paper)?;
    let names: Vec<&str> = map.setup.sides.iter().map(|s| s.name.as_str()).collect();
    let marks = sandtable_scenario::player_marks(names.iter().copied());
    Ok(Sheet {
        title: battle.name.clone(),
        page_mm,
        table_mm,
        tiles,
        grid,
        listing: map.listing(&marks),
        drawn: Drawn::Hexes(Box::new(map)),
        colours: print_colours(&battle.colours),
        marks,
    })
}

/// The sides' colours on paper.
fn print_colours(colours: &[sandtable_scenario::Colour]) -> Vec<Rgbf> {
    colours
        .iter()
        .map(|c| {
            let [r, g, b] = c.0;
            [
                f32::from(r) / 255.0,
                f32::from(g) / 255.0,
                f32::from(b) / 255.0,
            ]
        })
        .collect()
}

/// A sheet's pages: the paper as oriented (mm), the tiles across and along,
/// and the tiles.
type Pages = ((f64, f64), (usize, usize), Vec<Tile>);

/// The pages of a table of `table_mm` with a listing of `listing_lines`
/// lines on a paper: the orientation that needs fewer pages, the tiles
/// across and along, and the tiles themselves, near row first. Counted
/// before anything is made, and refused past [`MAX_PAGES`].
fn lay_out(
    table_mm: (f64, f64),
    listing_lines: usize,
    paper: Paper,
) -> Result<Pages, PlanSheetError> {
    let (tw, td) = table_mm;
    let (pw, ph) = paper.portrait_mm();
    let count = |w: f64, h: f64| {
        (
            tiles_along(tw, w - 2.0 * MARGIN_MM),
            tiles_along(td, h - 2.0 * MARGIN_MM),
        )
    };
    let portrait = count(pw, ph);
    let landscape = count(ph, pw);
    let (page_mm, grid) = if landscape.0 * landscape.1 < portrait.0 * portrait.1 {
        ((ph, pw), landscape)
    } else {
        ((pw, ph), portrait)
    };
    let listing_pages = listing_lines.div_ceil(lines_per_page(page_mm.1));
    if grid.0 * grid.1 + listing_pages as f64 > MAX_PAGES as f64 {
        return Err(PlanSheetError::TooManyPages {
            grid,
            listing: listing_pages,
            paper,
        });
    }
    let grid = (grid.0 as usize, grid.1 as usize);
    let (step_x, step_y) = (
        page_mm.0 - 2.0 * MARGIN_MM - OVERLAP_MM,
        page_mm.1 - 2.0 * MARGIN_MM - OVERLAP_MM,
    );
    let mut tiles = Vec::with_capacity(grid.0 * grid.1);
    for row in 0..grid.1 {
        for col in 0..grid.0 {
            tiles.push(Tile {
                col,
                row,
                origin_mm: (col as f64 * step_x, row as f64 * step_y),
            });
        }
    }
    Ok((page_mm, grid, tiles))
}

/// Page furniture: title, page name, the 100 mm check ruler, and
/// registration crosses at the corners of the printable area.
fn furniture(page: &mut pdf::Page, sheet: &Sheet, label: &str) {
    let (w, h) = sheet.page_mm;
    page.fill([0.0, 0.0, 0.0]);
    page.stroke_colour([0.0, 0.0, 0.0]);
    page.text(
        MARGIN_MM,
        h - MARGIN_MM + 3.5,
        8.0,
        &format!("{} - {label}", sheet.title),
    );
    // Check ruler: 100 mm with a tick every 10 mm, along the bottom margin.
    let y = 4.0;
    page.line((MARGIN_MM, y), (MARGIN_MM + RULER_MM, y), 0.3);
    for k in 0..=10 {
        let x = MARGIN_MM + f64::from(k) * 10.0;
        let tick = if k % 5 == 0 { 3.0 } else { 1.5 };
        page.line((x, y), (x, y + tick), 0.2);
    }
    page.text(
        MARGIN_MM + RULER_MM + 3.0,
        y,
        7.0,
        "100 mm check ruler: measure it before cutting",
    );
    // Registration crosses at the printable area's corners.
    for (cx, cy) in [
        (MARGIN_MM, MARGIN_MM),
        (w - MARGIN_MM, MARGIN_MM),
        (MARGIN_MM, h - MARGIN_MM),
        (w - MARGIN_MM, h - MARGIN_MM),
    ] {
        page.line((cx - 4.0, cy), (cx + 4.0, cy), 0.2);
        page.line((cx, cy - 4.0), (cx, cy + 4.0), 0.2);
    }
}

/// The drawing of one tile's page.
fn tile_page(sheet: &Sheet, tile: &Tile) -> pdf::Page {
    let (x0, y0, x1, y1) = sheet.tile_area(tile);
    let to_page = |x: f64, y: f64| (x - x0 + MARGIN_MM, y - y0 + MARGIN_MM);
    let mut page = pdf::Page::default();
    for mark in sheet.marks_in(tile) {
        let (a, b, c, d) = mark.bounds();
        if c < x0 || a > x1 || d < y0 || b > y1 {
            continue;
        }
        match mark {
            Mark::Rect {
                x,
                y,
                w,
                h,
                fill,
                stroke,
            } => {
                let (px, py) = to_page(x, y);
                if let Some(f) = fill {
                    page.fill(f);
                }
                if let Some(width) = stroke {
                    page.stroke_colour([0.2, 0.2, 0.2]);
                    page.width(width);
                }
                page.rect(px, py, w, h, fill.is_some(), stroke.is_some());
            }
            Mark::Line { from, to, width } => {
                page.stroke_colour([0.05, 0.05, 0.05]);
                page.line(to_page(from.0, from.1), to_page(to.0, to.1), width);
            }
            Mark::Polygon {
                points,
                fill,
                stroke,
            } => {
                if let Some(f) = fill {
                    page.fill(f);
                }
                if let Some(width) = stroke {
                    page.stroke_colour([0.2, 0.2, 0.2]);
                    page.width(width);
                }
                let points: Vec<(f64, f64)> = points.iter().map(|p| to_page(p.0, p.1)).collect();
                page.polygon(&points, fill.is_some(), stroke.is_some());
            }
            Mark::Text { x, y, size, text } => {
                let (px, py) = to_page(x, y);
                page.fill([0.1, 0.1, 0.1]);
                page.text(px, py, size, &text);
            }
        }
    }
    // White margins hide what runs past the printable area.
    let (pw, ph) = sheet.page_mm;
    page.fill([1.0, 1.0, 1.0]);
    for (x, y, rw, rh) in [
        (0.0, 0.0, pw, MARGIN_MM),
        (0.0, ph - MARGIN_MM, pw, MARGIN_MM),
        (0.0, 0.0, MARGIN_MM, ph),
        (pw - MARGIN_MM, 0.0, MARGIN_MM, ph),
    ] {
        page.rect(x, y, rw, rh, true, false);
    }
    let label = format!(
        "page {} of {} (column {} of {}, row {} of {} from the near edge); pages overlap by {OVERLAP_MM} mm",
        tile.row * sheet.grid.0 + tile.col + 1,
        sheet.page_count(),
        tile.col + 1,
        sheet.grid.0,
        tile.row + 1,
        sheet.grid.1
    );
    furniture(&mut page, sheet, &label);
    page
}

/// The drawing of the `k`th page of the listing.
fn listing_page(sheet: &Sheet, k: usize, lines: &[String]) -> pdf::Page {
    let h = sheet.page_mm.1;
    let mut page = pdf::Page::default();
    let label = format!(
        "pieces, page {} of {}",
        sheet.tiles.len() + k + 1,
        sheet.page_count()
    );
    furniture(&mut page, sheet, &label);
    page.text(MARGIN_MM, h - MARGIN_MM - 8.0, 11.0, &sheet.scale_words());
    for (i, l) in lines.iter().enumerate() {
        page.text(MARGIN_MM, h - MARGIN_MM - 18.0 - 5.0 * i as f64, 8.0, l);
    }
    page
}

/// Writes the sheet as a PDF to `out`, a page at a time: only one page's
/// drawing is held at once. `compress` packs the page streams; tests turn
/// it off to read the drawing back.
pub fn write_pdf(sheet: &Sheet, out: &mut dyn Write, compress: bool) -> io::Result<()> {
    let mut doc = pdf::Document::start(out, sheet.page_mm, compress)?;
    for tile in &sheet.tiles {
        doc.page(&tile_page(sheet, tile))?;
    }
    for (k, lines) in sheet.listing_pages().into_iter().enumerate() {
        doc.page(&listing_page(sheet, k, lines))?;
    }
    doc.finish(&sheet.title)
}

/// Writes the sheet to a PDF file, streamed into a temporary file renamed
/// into place. A file already at `out` is replaced only if it is a PDF: any
/// other file there is someone's work, and is left as it is.
pub fn write_file(sheet: &Sheet, out: &std::path::Path) -> Result<(), String> {
    use sandtable_scenario::files;
    if let Ok(meta) = std::fs::metadata(out) {
        let mut head = [0u8; 5];
        // Only a regular file is opened: a pipe would block.
        let is_pdf = meta.is_file()
            && std::fs::File::open(out)
                .and_then(|mut f| io::Read::read_exact(&mut f, &mut head))
                .is_ok()
            && &head == b"%PDF-";
        if !is_pdf {
            return Err(format!(
                "{}: not written: the file there is not a PDF, and a sheet replaces only a PDF",
                path_shown(out)
            ));
        }
    }
    files::write_with(out, files::Backups::None, |w| write_pdf(sheet, w, true))
        .map(|_| ())
        .map_err(|e| format!("{}: cannot write the sheet: {e}", path_shown(out)))
}

/// The sheet as a PDF in memory.
pub fn render_pdf(sheet: &Sheet, compress: bool) -> Vec<u8> {
    let mut bytes = Vec::new();
    write_pdf(sheet, &mut bytes, compress).expect("writing to memory cannot fail");
    bytes
}
