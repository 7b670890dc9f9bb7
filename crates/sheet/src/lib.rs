//! Printable setup sheets: a scenario's table drawn at 1:1 scale and tiled
//! over as many pages as needed, with overlap, registration marks and a
//! 100 mm check ruler on every page, then pages listing every piece with its
//! place and its distance from the table's left and near edges. A sheet is
//! planned in table millimetres from the game's surface as the contract
//! gives it (squares, hexes or a plane), laid on the table by [`Laid`], and
//! from what a rule system puts on it ([`Contents`]): [`plan_surface`] for
//! any system, [`plan`] for a Conflict at Cache table and [`plan_battle`]
//! for a Warpspawn hex map. A sheet past [`MAX_PAGES`] is refused;
//! [`write_pdf`] streams it as a PDF a page at a time, drawing on each page
//! only what falls on it. Reading scenarios is left to `sandtable-scenario`.

use sandtable_scenario::text::path_shown;
use std::fmt;
use std::io::{self, Write};
use std::str::FromStr;

use std::sync::Arc;

use sandtable_core::game::{Spot, Surface};

mod hexes;
mod pdf;
mod skirmish;
mod squares;

pub use hexes::{MIN_NAMED_HEX_MM, plan_battle, ring_rects, terrain_colour, terrain_pattern};
pub use skirmish::{plan_skirmish, play_aids, terrain_paint};
pub use squares::plan;

/// The listing's lines for a scenario's own models, so that the right
/// figures are set out.
pub(crate) fn model_lines(models: &[sandtable_scenario::ModelChoice]) -> Vec<String> {
    models
        .iter()
        .map(|m| {
            format!(
                "model for {}: {} (one unit of the model is {} mm)",
                m.describe(),
                m.file,
                m.unit_mm
            )
        })
        .collect()
}

/// Words on the table at a point, in points.
pub(crate) fn words(x: f64, y: f64, size: f32, text: impl Into<String>) -> Mark {
    Mark::Text {
        x,
        y,
        size,
        text: text.into(),
    }
}

/// A page of play aids at true size: marks in mm from the lower-left
/// corner of the page's printable area.
#[derive(Debug, Clone, PartialEq)]
pub struct AidPage {
    /// What the page draws.
    pub marks: Vec<Mark>,
}

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
    /// The surface on the table.
    pub laid: Laid,
    /// What the system draws on it.
    contents: Arc<dyn Contents>,
    colours: Vec<Rgbf>,
    /// Each player's letter: a cue besides colour, for black-and-white
    /// prints and people who cannot tell the colours apart.
    marks: Vec<char>,
    /// Pages of play aids at true size, after the listing.
    pub aids: Vec<AidPage>,
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
    /// Pages in all: tiles, then the listing, then the play aids.
    pub fn page_count(&self) -> usize {
        self.tiles.len()
            + self.listing.len().div_ceil(lines_per_page(self.page_mm.1))
            + self.aids.len()
    }

    /// The printable area of a page, width and height in mm.
    pub fn printable_mm(&self) -> (f64, f64) {
        (
            self.page_mm.0 - 2.0 * MARGIN_MM,
            self.page_mm.1 - 2.0 * MARGIN_MM,
        )
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
        match self.laid.surface {
            Surface::Squares { .. } => format!(
                "Every piece, with the centre of its square measured from the table's edges ({w:.0} x {d:.0} mm table, {:.1} mm squares)",
                self.laid.cell_mm
            ),
            Surface::Hexes { .. } => format!(
                "Every piece, with the centre of its hex measured from the table's edges ({w:.0} x {d:.0} mm table, {:.1} mm hexes between their flat sides)",
                self.laid.cell_mm
            ),
            Surface::Plane { .. } => {
                format!("Every piece, measured from the table's edges ({w:.0} x {d:.0} mm table)")
            }
        }
    }

    /// The part of the table a tile prints, as (x0, y0, x1, y1) in mm.
    pub fn tile_area(&self, tile: &Tile) -> (f64, f64, f64, f64) {
        let (w, h) = self.page_mm;
        let (x0, y0) = tile.origin_mm;
        (x0, y0, x0 + w - 2.0 * MARGIN_MM, y0 + h - 2.0 * MARGIN_MM)
    }

    /// Everything drawn on the part of the table a tile prints: the table's
    /// outline; the places of the surface that reach into the tile, each
    /// filled with its ground, with what the system draws under its name,
    /// its name, and what stands on it; then what the system draws over
    /// them all. Places further off are not visited.
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
        let paint = Paint {
            colours: &self.colours,
            letters: &self.marks,
        };
        let contents = self.contents.as_ref();
        let reach = self.laid.reaching(area);
        for cell in reach.iter().flat_map(|r| self.laid.cells(*r)) {
            marks.push(self.laid.outline(&cell, contents.fill(cell.spot)));
            contents.under_name(&cell, &mut marks);
            if let Some(name) = self.laid.name_at(&cell, contents.name(cell.spot)) {
                marks.push(name);
            }
            contents.over_name(&cell, &paint, &mut marks);
        }
        let reached = |spot: Spot| reach.is_some_and(|r| r.holds(spot));
        contents.over_all(area, &reached, &paint, &mut marks);
        marks
    }
}

/// A rule system's surface laid on its table at 1:1: where each of its
/// places stands, in mm from the table's near-left corner. Made from the
/// contract's `surface()` and the scenario's sizes; the surface is centred
/// on the table, as the app and the layout put it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Laid {
    /// The surface of the game (squares, hexes or a plane).
    pub surface: Surface,
    /// A square's side, or a hex's width between its flat sides; not used
    /// on a plane.
    pub cell_mm: f64,
    /// The table's width and depth.
    pub table_mm: (f64, f64),
}

/// The places of a surface that reach into an area: the columns and rows
/// from the first to the last.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Reach {
    columns: (u16, u16),
    rows: (u16, u16),
}

impl Reach {
    fn holds(&self, spot: Spot) -> bool {
        let (col, row) = match spot {
            Spot::Square { col, row } | Spot::Hex { col, row } => (col, row),
            Spot::Ring { .. } | Spot::Point { .. } => return false,
        };
        (self.columns.0..=self.columns.1).contains(&col)
            && (self.rows.0..=self.rows.1).contains(&row)
    }
}

/// A place of the surface as the sheet draws it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Cell {
    /// Which place.
    pub spot: Spot,
    /// A square's corner nearest the table's near-left corner; for a hex,
    /// the corner of the box round it.
    pub corner: (f64, f64),
    /// Its centre.
    pub centre: (f64, f64),
    /// A square's side, or a hex's width between its flat sides.
    pub size_mm: f64,
}

impl Laid {
    /// The surface with its places `cell_mm` wide on a table of `table_mm`.
    pub fn new(surface: Surface, cell_mm: f64, table_mm: (f64, f64)) -> Laid {
        Laid {
            surface,
            cell_mm,
            table_mm,
        }
    }

    /// A hex's side: its width between flat sides over the square root of 3.
    fn hex_side(&self) -> f64 {
        self.cell_mm / 3f64.sqrt()
    }

    /// The surface's width and depth on the table: squares side by side;
    /// flat-topped hexes in columns 1.5 sides apart, the 2nd, 4th ...
    /// columns half a hex higher (R60); a plane as it is measured.
    pub fn surface_mm(&self) -> (f64, f64) {
        match self.surface {
            Surface::Squares { columns, rows } => (
                f64::from(columns) * self.cell_mm,
                f64::from(rows) * self.cell_mm,
            ),
            Surface::Hexes { columns, rows } => {
                let side = self.hex_side();
                let width = side * (1.5 * f64::from(columns) + 0.5);
                let raised = if columns > 1 { 0.5 } else { 0.0 };
                (width, self.cell_mm * (f64::from(rows) + raised))
            }
            Surface::Plane { width_mm, depth_mm } => (f64::from(width_mm), f64::from(depth_mm)),
        }
    }

    /// Where the surface's near-left corner stands: centred on the table.
    pub fn offset_mm(&self) -> (f64, f64) {
        let (w, d) = self.surface_mm();
        ((self.table_mm.0 - w) / 2.0, (self.table_mm.1 - d) / 2.0)
    }

    /// The centre of a place, in mm from the table's left and near edges;
    /// `None` for a spot of another kind of surface.
    pub fn centre_mm(&self, spot: Spot) -> Option<(f64, f64)> {
        let (ox, oy) = self.offset_mm();
        match (self.surface, spot) {
            (Surface::Squares { .. }, Spot::Square { col, row }) => Some((
                ox + (f64::from(col) + 0.5) * self.cell_mm,
                oy + (f64::from(row) + 0.5) * self.cell_mm,
            )),
            (Surface::Hexes { .. }, Spot::Hex { col, row }) => {
                let side = self.hex_side();
                let x = side + 1.5 * side * f64::from(col);
                let raised = if col % 2 == 1 { 0.5 } else { 0.0 };
                let y = self.cell_mm * (0.5 + f64::from(row) + raised);
                Some((ox + x, oy + y))
            }
            // A point is measured from the table's edges already.
            (Surface::Plane { .. }, Spot::Point { x_mm, y_mm }) => {
                Some((f64::from(x_mm), f64::from(y_mm)))
            }
            _ => None,
        }
    }

    /// The columns and rows of places that reach into the table area
    /// `(x0, y0, x1, y1)`; `None` when none does, and on a plane, which has
    /// no places.
    fn reaching(&self, area: (f64, f64, f64, f64)) -> Option<Reach> {
        let (x0, y0, x1, y1) = area;
        let (ox, oy) = self.offset_mm();
        let s = self.cell_mm;
        let (columns, rows) = match self.surface {
            Surface::Squares { columns, rows } => {
                // The columns and rows of squares that reach into [lo, hi].
                let span = |lo: f64, hi: f64, origin: f64, n: u16| -> Option<(u16, u16)> {
                    let first = ((lo - origin) / s).floor().max(0.0);
                    let last = ((hi - origin) / s).floor().min(f64::from(n) - 1.0);
                    (first <= last).then_some((first as u16, last as u16))
                };
                (span(x0, x1, ox, columns)?, span(y0, y1, oy, rows)?)
            }
            Surface::Hexes { columns, rows } => {
                // Column c spans x from ox + 1.5 side c to 2 sides further;
                // row r from oy + h r (half a hex higher in a raised
                // column) to h further.
                let side = self.hex_side();
                let c0 = ((x0 - ox - 2.0 * side) / (1.5 * side)).ceil().max(0.0);
                let c1 = ((x1 - ox) / (1.5 * side))
                    .floor()
                    .min(f64::from(columns) - 1.0);
                let r0 = ((y0 - oy) / s - 1.5).ceil().max(0.0);
                let r1 = ((y1 - oy) / s).floor().min(f64::from(rows) - 1.0);
                if c0 > c1 || r0 > r1 {
                    return None;
                }
                ((c0 as u16, c1 as u16), (r0 as u16, r1 as u16))
            }
            Surface::Plane { .. } => return None,
        };
        Some(Reach { columns, rows })
    }

    /// The places of a reach in drawing order: squares a row at a time from
    /// the near edge, hexes a column at a time from the left.
    fn cells(&self, reach: Reach) -> Vec<Cell> {
        let (ox, oy) = self.offset_mm();
        let s = self.cell_mm;
        let mut cells = Vec::new();
        match self.surface {
            Surface::Squares { .. } => {
                for row in reach.rows.0..=reach.rows.1 {
                    for col in reach.columns.0..=reach.columns.1 {
                        let spot = Spot::Square { col, row };
                        cells.push(Cell {
                            spot,
                            corner: (ox + f64::from(col) * s, oy + f64::from(row) * s),
                            centre: self.centre_mm(spot).unwrap_or_default(),
                            size_mm: s,
                        });
                    }
                }
            }
            Surface::Hexes { .. } => {
                for col in reach.columns.0..=reach.columns.1 {
                    for row in reach.rows.0..=reach.rows.1 {
                        let spot = Spot::Hex { col, row };
                        let centre = self.centre_mm(spot).unwrap_or_default();
                        cells.push(Cell {
                            spot,
                            corner: (centre.0 - self.hex_side(), centre.1 - s / 2.0),
                            centre,
                            size_mm: s,
                        });
                    }
                }
            }
            Surface::Plane { .. } => {}
        }
        cells
    }

    /// A place's outline, filled with its ground where it has one.
    fn outline(&self, cell: &Cell, fill: Option<Rgbf>) -> Mark {
        match self.surface {
            Surface::Hexes { .. } => Mark::Polygon {
                points: hexes::ring(cell.centre, self.hex_side(), 6, 0.0),
                fill,
                stroke: Some(0.15),
            },
            _ => Mark::Rect {
                x: cell.corner.0,
                y: cell.corner.1,
                w: cell.size_mm,
                h: cell.size_mm,
                fill,
                stroke: Some(0.15),
            },
        }
    }

    /// A place's name, in its near-left corner (a square) or under its
    /// centre (a hex); none where the places are too small to hold it.
    fn name_at(&self, cell: &Cell, name: String) -> Option<Mark> {
        let s = cell.size_mm;
        match self.surface {
            Surface::Squares { .. } => (s >= MIN_NAMED_SQUARE_MM).then_some(Mark::Text {
                x: cell.corner.0 + 0.8,
                y: cell.corner.1 + s - 3.0,
                size: 5.0,
                text: name,
            }),
            Surface::Hexes { .. } => (s >= MIN_NAMED_HEX_MM).then_some(Mark::Text {
                x: cell.centre.0 - 0.35 * self.hex_side(),
                y: cell.centre.1 + 0.3 * s,
                size: 5.0,
                text: name,
            }),
            Surface::Plane { .. } => None,
        }
    }
}

/// The sides' colours and letters, for a system's marks and listing.
#[derive(Debug, Clone, Copy)]
pub struct Paint<'a> {
    colours: &'a [Rgbf],
    letters: &'a [char],
}

impl Paint<'_> {
    /// A side's colour on paper (grey for a side without one).
    pub fn colour(&self, side: usize) -> Rgbf {
        self.colours
            .get(side)
            .copied()
            .unwrap_or([0.35, 0.35, 0.35])
    }

    /// A side's letter: a cue besides colour.
    pub fn letter(&self, side: usize) -> char {
        self.letters.get(side).copied().unwrap_or('?')
    }
}

/// What a rule system puts on its sheet, over the places of its surface
/// that [`Laid`] draws: each place's ground and what stands on it, and the
/// listing of its pieces. The sheet asks only for what falls on the page
/// being written.
pub trait Contents: fmt::Debug + Send + Sync {
    /// A place's name, printed in it where it fits.
    fn name(&self, spot: Spot) -> String;

    /// A place's ground on paper; `None` leaves it white.
    fn fill(&self, _spot: Spot) -> Option<Rgbf> {
        None
    }

    /// What is drawn on a place before its name: a terrain's pattern.
    fn under_name(&self, _cell: &Cell, _marks: &mut Vec<Mark>) {}

    /// What is drawn on a place after its name: what stands on it.
    fn over_name(&self, _cell: &Cell, _paint: &Paint, _marks: &mut Vec<Mark>) {}

    /// What is drawn after every place reaching the table area `area`:
    /// pieces drawn over their neighbours' places (those on a place
    /// `reached`), and everything on a plane, which has no places.
    fn over_all(
        &self,
        _area: (f64, f64, f64, f64),
        _reached: &dyn Fn(Spot) -> bool,
        _paint: &Paint,
        _marks: &mut Vec<Mark>,
    ) {
    }

    /// How many lines [`Contents::listing`] makes, counted without making
    /// them, so that a sheet too long is refused first.
    fn listing_len(&self) -> usize;

    /// The listing: a line for every piece, with where it stands.
    fn listing(&self, paint: &Paint) -> Vec<String>;

    /// Pages of play aids at true size for a printable area of this width
    /// and height (mm); none by default.
    fn aids(&self, _printable: (f64, f64)) -> Vec<AidPage> {
        Vec::new()
    }
}

/// Plans a sheet from a system's surface laid on its table and what it
/// puts there: the table at 1:1, tiled in whichever orientation of the
/// paper needs fewer pages, then the listing. `sides` are the sides' names,
/// whose letters mark their pieces; `colours` their colours. A sheet of more
/// than [`MAX_PAGES`] pages is refused before any page is made.
pub fn plan_surface(
    title: String,
    laid: Laid,
    sides: &[&str],
    colours: &[sandtable_scenario::Colour],
    contents: impl Contents + 'static,
    paper: Paper,
) -> Result<Sheet, PlanSheetError> {
    let (page_mm, grid, tiles) = lay_out(laid.table_mm, contents.listing_len(), paper)?;
    let marks = sandtable_scenario::player_marks(sides.iter().copied());
    let colours = print_colours(colours);
    let listing = contents.listing(&Paint {
        colours: &colours,
        letters: &marks,
    });
    let aids = contents.aids((page_mm.0 - 2.0 * MARGIN_MM, page_mm.1 - 2.0 * MARGIN_MM));
    Ok(Sheet {
        title,
        page_mm,
        table_mm: laid.table_mm,
        tiles,
        grid,
        listing,
        laid,
        contents: Arc::new(contents),
        colours,
        marks,
        aids,
    })
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

/// Draws the marks that meet `area` (x0, y0, x1, y1), each point placed
/// on the page by `to_page`.
fn draw(
    page: &mut pdf::Page,
    marks: Vec<Mark>,
    area: (f64, f64, f64, f64),
    to_page: impl Fn(f64, f64) -> (f64, f64),
) {
    let (x0, y0, x1, y1) = area;
    for mark in marks {
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
}

/// The drawing of the `k`th page of play aids.
fn aid_page(sheet: &Sheet, k: usize, aid: &AidPage) -> pdf::Page {
    let mut page = pdf::Page::default();
    let (w, h) = sheet.printable_mm();
    draw(&mut page, aid.marks.clone(), (0.0, 0.0, w, h), |x, y| {
        (x + MARGIN_MM, y + MARGIN_MM)
    });
    let label = format!(
        "play aids at true size, page {} of {}: measure the check ruler first",
        sheet.page_count() - sheet.aids.len() + k + 1,
        sheet.page_count()
    );
    furniture(&mut page, sheet, &label);
    page
}

/// The drawing of one tile's page.
fn tile_page(sheet: &Sheet, tile: &Tile) -> pdf::Page {
    let (x0, y0, x1, y1) = sheet.tile_area(tile);
    let to_page = |x: f64, y: f64| (x - x0 + MARGIN_MM, y - y0 + MARGIN_MM);
    let mut page = pdf::Page::default();
    draw(&mut page, sheet.marks_in(tile), (x0, y0, x1, y1), to_page);
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
    for (k, aid) in sheet.aids.iter().enumerate() {
        doc.page(&aid_page(sheet, k, aid))?;
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
