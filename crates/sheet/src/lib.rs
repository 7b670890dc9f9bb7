//! Printable setup sheets: a scenario's table drawn at 1:1 scale and tiled
//! over as many pages as needed, with overlap, registration marks and a
//! 100 mm check ruler on every page, then pages listing every piece with its
//! square and its distance from the table's left and near edges. The layout
//! is planned in table millimetres ([`plan`]); [`render_pdf`] writes it with
//! printpdf. Reading scenarios is left to `sandtable-scenario`.

use std::fmt;
use std::str::FromStr;

use printpdf::{
    BuiltinFont, Color, Line, LinePoint, Mm, Op, PaintMode, PdfDocument, PdfFontHandle, PdfPage,
    PdfSaveOptions, Point, Pt, Rect, Rgb, TextItem, WindingOrder,
};
use sandtable_rules::{Ground, Place, Square, UnitId};
use sandtable_scenario::{Physical, Scenario};

/// Margin left blank at each page edge, in mm (printers do not print there).
pub const MARGIN_MM: f64 = 10.0;
/// How much neighbouring tiles overlap, in mm, to line pages up.
pub const OVERLAP_MM: f64 = 15.0;
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
    fn bounds(&self) -> (f64, f64, f64, f64) {
        match self {
            Mark::Rect { x, y, w, h, .. } => (*x, *y, x + w, y + h),
            Mark::Line { from, to, .. } => (
                from.0.min(to.0),
                from.1.min(to.1),
                from.0.max(to.0),
                from.1.max(to.1),
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

/// A planned sheet: the table's marks, its tiles and the listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// Title printed on every page.
    pub title: String,
    /// The paper, as oriented: width and height in mm.
    pub page_mm: (f64, f64),
    /// The physical table.
    pub physical: Physical,
    /// Everything drawn on the table.
    pub marks: Vec<Mark>,
    /// Pages of the table, near row first.
    pub tiles: Vec<Tile>,
    /// Tiles across and along.
    pub grid: (usize, usize),
    /// One line for every piece.
    pub listing: Vec<String>,
}

impl Sheet {
    /// Pages in all: tiles, then the listing.
    pub fn page_count(&self) -> usize {
        self.tiles.len() + self.listing_pages().len()
    }

    /// The listing split into pages.
    pub fn listing_pages(&self) -> Vec<&[String]> {
        let per_page = (((self.page_mm.1 - 2.0 * MARGIN_MM - 20.0) / 5.0).floor() as usize).max(1);
        self.listing.chunks(per_page).collect()
    }
}

/// Tiles needed to cover `length` mm with printable `span` mm and overlap.
fn tiles_along(length: f64, span: f64) -> usize {
    if length <= span {
        1
    } else {
        ((length - span) / (span - OVERLAP_MM)).ceil() as usize + 1
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

/// Plans the setup sheet of a scenario on a paper: the table at 1:1 scale
/// (Table A's 30 mm squares on 762 x 508 mm when the scenario gives no
/// `physical`), in whichever orientation needs fewer pages.
pub fn plan(scenario: &Scenario, paper: Paper) -> Sheet {
    let physical = scenario.table();
    let game = scenario.game();
    let board = game.board();
    let (tw, td) = physical.table_mm;
    let s = physical.square_mm;
    let (ox, oy) = physical.grid_offset_mm(board);
    let corner = |sq: Square| (ox + f64::from(sq.col) * s, oy + f64::from(sq.row) * s);

    let mut marks = vec![Mark::Rect {
        x: 0.0,
        y: 0.0,
        w: tw,
        h: td,
        fill: None,
        stroke: Some(0.6),
    }];
    for sq in board.squares() {
        let (x, y) = corner(sq);
        marks.push(Mark::Rect {
            x,
            y,
            w: s,
            h: s,
            fill: ground_colour(game.ground(sq)),
            stroke: Some(0.15),
        });
        marks.push(Mark::Text {
            x: x + 0.8,
            y: y + s - 3.0,
            size: 5.0,
            text: sq.to_string(),
        });
    }
    let colour = |p: usize| -> Rgbf {
        let [r, g, b] = scenario.colours.get(p).map_or([90, 90, 90], |c| c.0);
        [
            f32::from(r) / 255.0,
            f32::from(g) / 255.0,
            f32::from(b) / 255.0,
        ]
    };
    let mut listing = Vec::new();
    let from_edges = |sq: Square| {
        let (x, y) = physical.square_centre_mm(board, sq);
        format!("{x:.1} mm from the left edge, {y:.1} mm from the near edge")
    };
    for factor in game.factors() {
        let (x, y) = corner(factor.base);
        marks.push(Mark::Rect {
            x: x + s * 0.15,
            y: y + s * 0.15,
            w: s * 0.7,
            h: s * 0.7,
            fill: Some(colour(usize::from(factor.player.0))),
            stroke: Some(0.4),
        });
        marks.push(Mark::Text {
            x: x + s * 0.22,
            y: y + s * 0.42,
            size: 6.0,
            text: "BASE".to_owned(),
        });
        let owner = &game.player(factor.player).name;
        listing.push(format!(
            "{owner} base (Factor {}) on {}: {}",
            factor.index + 1,
            factor.base,
            from_edges(factor.base)
        ));
    }
    for (i, unit) in game.units().iter().enumerate() {
        let Place::Board { square, facing } = game.place(UnitId(i as u16)) else {
            continue;
        };
        let (x, y) = corner(square);
        let (cx, cy) = (x + s / 2.0, y + s / 2.0);
        marks.push(Mark::Rect {
            x: x + s * 0.25,
            y: y + s * 0.25,
            w: s * 0.5,
            h: s * 0.5,
            fill: Some(colour(usize::from(unit.player.0))),
            stroke: None,
        });
        // The front: a thick line from the centre to the facing edge.
        let (dx, dy) = match facing {
            sandtable_rules::Facing::N => (0.0, 1.0),
            sandtable_rules::Facing::E => (1.0, 0.0),
            sandtable_rules::Facing::S => (0.0, -1.0),
            sandtable_rules::Facing::W => (-1.0, 0.0),
        };
        marks.push(Mark::Line {
            from: (cx, cy),
            to: (cx + dx * s * 0.45, cy + dy * s * 0.45),
            width: 1.2,
        });
        let owner = &game.player(unit.player).name;
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
        let (x, y) = corner(sq);
        marks.push(Mark::Rect {
            x: x + s * 0.35,
            y: y + s * 0.08,
            w: s * 0.3,
            h: s * 0.12,
            fill: Some([0.95, 0.78, 0.25]),
            stroke: Some(0.2),
        });
        listing.push(format!("stash on {sq}: {}", from_edges(sq)));
    }
    for (i, piece) in game.terrain_pieces().iter().enumerate() {
        let names: Vec<String> = piece.squares.iter().map(|s| s.to_string()).collect();
        let first = piece.squares.first().copied().unwrap_or(Square::new(0, 0));
        listing.push(format!(
            "terrain {}: {} on {} (first square {})",
            i + 1,
            piece.kind.name(),
            names.join(" "),
            from_edges(first)
        ));
    }

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
    let (step_x, step_y) = (
        page_mm.0 - 2.0 * MARGIN_MM - OVERLAP_MM,
        page_mm.1 - 2.0 * MARGIN_MM - OVERLAP_MM,
    );
    let mut tiles = Vec::new();
    for row in 0..grid.1 {
        for col in 0..grid.0 {
            tiles.push(Tile {
                col,
                row,
                origin_mm: (col as f64 * step_x, row as f64 * step_y),
            });
        }
    }
    Sheet {
        title: scenario.name.clone(),
        page_mm,
        physical,
        marks,
        tiles,
        grid,
        listing,
    }
}

fn rgb(c: Rgbf) -> Color {
    Color::Rgb(Rgb {
        r: c[0],
        g: c[1],
        b: c[2],
        icc_profile: None,
    })
}

fn point(x: f64, y: f64) -> LinePoint {
    LinePoint {
        p: Point::new(Mm(x as f32), Mm(y as f32)),
        bezier: false,
    }
}

fn line(ops: &mut Vec<Op>, from: (f64, f64), to: (f64, f64), width_mm: f64) {
    ops.push(Op::SetOutlineThickness {
        pt: Mm(width_mm as f32).into_pt(),
    });
    ops.push(Op::DrawLine {
        line: Line {
            points: vec![point(from.0, from.1), point(to.0, to.1)],
            is_closed: false,
        },
    });
}

fn text(ops: &mut Vec<Op>, x: f64, y: f64, size: f32, words: &str) {
    ops.extend([
        Op::StartTextSection,
        Op::SetTextCursor {
            pos: Point::new(Mm(x as f32), Mm(y as f32)),
        },
        Op::SetFont {
            font: PdfFontHandle::Builtin(BuiltinFont::Helvetica),
            size: Pt(size),
        },
        Op::ShowText {
            items: vec![TextItem::Text(words.to_owned())],
        },
        Op::EndTextSection,
    ]);
}

/// Page furniture: title, page name, the 100 mm check ruler, and
/// registration crosses at the corners of the printable area.
fn furniture(ops: &mut Vec<Op>, sheet: &Sheet, label: &str) {
    let (w, h) = sheet.page_mm;
    let black = rgb([0.0, 0.0, 0.0]);
    ops.push(Op::SetFillColor { col: black.clone() });
    ops.push(Op::SetOutlineColor { col: black });
    text(
        ops,
        MARGIN_MM,
        h - MARGIN_MM + 3.5,
        8.0,
        &format!("{} - {label}", sheet.title),
    );
    // Check ruler: 100 mm with a tick every 10 mm, along the bottom margin.
    let y = 4.0;
    line(ops, (MARGIN_MM, y), (MARGIN_MM + RULER_MM, y), 0.3);
    for k in 0..=10 {
        let x = MARGIN_MM + k as f64 * 10.0;
        let tick = if k % 5 == 0 { 3.0 } else { 1.5 };
        line(ops, (x, y), (x, y + tick), 0.2);
    }
    text(
        ops,
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
        line(ops, (cx - 4.0, cy), (cx + 4.0, cy), 0.2);
        line(ops, (cx, cy - 4.0), (cx, cy + 4.0), 0.2);
    }
}

/// The operations of one tile's page.
pub fn tile_ops(sheet: &Sheet, tile: &Tile) -> Vec<Op> {
    let (w, h) = sheet.page_mm;
    let (x0, y0) = tile.origin_mm;
    let (x1, y1) = (x0 + w - 2.0 * MARGIN_MM, y0 + h - 2.0 * MARGIN_MM);
    let to_page = |x: f64, y: f64| (x - x0 + MARGIN_MM, y - y0 + MARGIN_MM);
    let mut ops = Vec::new();
    for mark in &sheet.marks {
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
                let (px, py) = to_page(*x, *y);
                if let Some(f) = fill {
                    ops.push(Op::SetFillColor { col: rgb(*f) });
                }
                if let Some(width) = stroke {
                    ops.push(Op::SetOutlineColor {
                        col: rgb([0.2, 0.2, 0.2]),
                    });
                    ops.push(Op::SetOutlineThickness {
                        pt: Mm(*width as f32).into_pt(),
                    });
                }
                let mode = match (fill.is_some(), stroke.is_some()) {
                    (true, true) => PaintMode::FillStroke,
                    (true, false) => PaintMode::Fill,
                    _ => PaintMode::Stroke,
                };
                ops.push(Op::DrawRectangle {
                    rectangle: Rect {
                        x: Mm(px as f32).into_pt(),
                        y: Mm(py as f32).into_pt(),
                        width: Mm(*w as f32).into_pt(),
                        height: Mm(*h as f32).into_pt(),
                        mode: Some(mode),
                        winding_order: Some(WindingOrder::NonZero),
                    },
                });
            }
            Mark::Line { from, to, width } => {
                ops.push(Op::SetOutlineColor {
                    col: rgb([0.05, 0.05, 0.05]),
                });
                line(
                    &mut ops,
                    to_page(from.0, from.1),
                    to_page(to.0, to.1),
                    *width,
                );
            }
            Mark::Text {
                x,
                y,
                size,
                text: t,
            } => {
                let (px, py) = to_page(*x, *y);
                ops.push(Op::SetFillColor {
                    col: rgb([0.1, 0.1, 0.1]),
                });
                text(&mut ops, px, py, *size, t);
            }
        }
    }
    // White margins hide what runs past the printable area.
    let (pw, ph) = sheet.page_mm;
    ops.push(Op::SetFillColor {
        col: rgb([1.0, 1.0, 1.0]),
    });
    for (x, y, rw, rh) in [
        (0.0, 0.0, pw, MARGIN_MM),
        (0.0, ph - MARGIN_MM, pw, MARGIN_MM),
        (0.0, 0.0, MARGIN_MM, ph),
        (pw - MARGIN_MM, 0.0, MARGIN_MM, ph),
    ] {
        ops.push(Op::DrawRectangle {
            rectangle: Rect {
                x: Mm(x as f32).into_pt(),
                y: Mm(y as f32).into_pt(),
                width: Mm(rw as f32).into_pt(),
                height: Mm(rh as f32).into_pt(),
                mode: Some(PaintMode::Fill),
                winding_order: Some(WindingOrder::NonZero),
            },
        });
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
    furniture(&mut ops, sheet, &label);
    ops
}

/// Writes the sheet as a PDF. `compress` packs the page streams; tests turn
/// it off to read the drawing back.
pub fn render_pdf(sheet: &Sheet, compress: bool) -> Vec<u8> {
    let (w, h) = sheet.page_mm;
    let page = |ops| PdfPage::new(Mm(w as f32), Mm(h as f32), ops);
    let mut pages: Vec<PdfPage> = sheet
        .tiles
        .iter()
        .map(|t| page(tile_ops(sheet, t)))
        .collect();
    let listing = sheet.listing_pages();
    for (k, lines) in listing.iter().enumerate() {
        let mut ops = Vec::new();
        let label = format!(
            "pieces, page {} of {}",
            sheet.tiles.len() + k + 1,
            sheet.page_count()
        );
        furniture(&mut ops, sheet, &label);
        text(
            &mut ops,
            MARGIN_MM,
            h - MARGIN_MM - 8.0,
            11.0,
            &format!(
                "Every piece, with the centre of its square measured from the table's edges ({:.0} x {:.0} mm table, {:.1} mm squares)",
                sheet.physical.table_mm.0, sheet.physical.table_mm.1, sheet.physical.square_mm
            ),
        );
        for (i, l) in lines.iter().enumerate() {
            text(
                &mut ops,
                MARGIN_MM,
                h - MARGIN_MM - 18.0 - 5.0 * i as f64,
                8.0,
                l,
            );
        }
        pages.push(page(ops));
    }
    let options = PdfSaveOptions {
        optimize: compress,
        ..PdfSaveOptions::default()
    };
    PdfDocument::new(&sheet.title)
        .with_pages(pages)
        .save(&options, &mut Vec::new())
}
