//! The setup sheet of a Warpspawn battle: its hex map at 1:1, each hex with
//! its name and its terrain by colour and by a pattern that survives a
//! black-and-white printer, each side's pieces where they start, and the
//! listing of every piece with its hex and its distance from the table's
//! edges. The map stands where the app and the layout put it
//! ([`HexPhysical::hex_centre_mm`]).

use sandtable_core::game::Spot;
use sandtable_scenario::battle::{Battle, HexPhysical};
use sandtable_warpspawn::offboard::ring::{Ring, Square};
use sandtable_warpspawn::{Hex, PiecesSetup, Setup, Terrain, points_doubled, points_text};

use crate::{Cell, Contents, Laid, Mark, Paint, Paper, PlanSheetError, Rgbf, Sheet};

/// Hexes narrower than this between their flat sides, in mm, are drawn
/// without their names, which would not fit in them.
pub const MIN_NAMED_HEX_MM: f64 = 10.0;
/// Hexes at least this wide also name their terrain in words.
const TERRAIN_WORDS_HEX_MM: f64 = 20.0;
/// Hex names a terrain line of the listing holds.
const HEXES_A_LINE: usize = 24;

/// What a hex sheet draws: the battle's setup on its table.
#[derive(Debug, Clone)]
struct HexMap {
    setup: Setup,
    physical: HexPhysical,
    /// The terrain of each hex, in map order: looked up for every hex drawn
    /// and each of its neighbours, so not searched for in the setup's list.
    terrain: Vec<Terrain>,
    /// The off-board grid's squares round the map, in a battle with one
    /// (R40): each laid out on the sheet.
    ring: Vec<RingSquare>,
}

/// A square of the off-board grid as the sheet draws it (R40-R43).
#[derive(Debug, Clone)]
struct RingSquare {
    /// Its name, like `2E`.
    name: String,
    /// Its rectangle: left, near, width, depth, in mm.
    rect: (f64, f64, f64, f64),
    /// The side whose reserve it is (R42), if one's.
    reserve: Option<usize>,
    /// The counters starting there: side and number.
    counters: Vec<(usize, u16)>,
}

/// The depth of the ring's squares across their edge: a hex's height
/// times the span, on every edge (R40 gives their length along it).
fn ring_depth_mm(hex_mm: f64, span: u16) -> f64 {
    hex_mm * f64::from(span)
}

/// The ring's squares round a map of hexes `hex_mm` across (R40), each
/// with its rectangle (left, near, width, depth) in mm from the map's
/// near-left corner: along the near and far edges a square is as wide as
/// its hex columns (0.87 of a hex each), along the left and right edges as
/// tall as its rows (1 hex each); across its edge every square is a hex's
/// height times the span deep. The sheet and the table lay the ring alike.
pub fn ring_rects(ring: &Ring, hex_mm: f64) -> Vec<(Square, (f64, f64, f64, f64))> {
    let map = ring.map();
    let h = hex_mm;
    let side = h / 3f64.sqrt();
    let span = f64::from(ring.span());
    let depth = ring_depth_mm(h, ring.span());
    let (cols, rows) = (f64::from(map.columns), f64::from(map.rows));
    // The map's columns and rows, as the lattice's map squares cover them.
    let left = 0.25 * side;
    let col_w = 1.5 * side * span;
    let right = left + 1.5 * side * cols;
    let top = h * rows + 0.5 * h;
    // The first and last map columns reach a quarter side further, to the
    // map's own left and right; the last rows half a hex higher, to the
    // raised columns' tops: the ring meets the map all round.
    let quarter = 0.25 * side;
    let x_of = |col: u16| -> (f64, f64) {
        let w = ring.width();
        match col {
            0 | 1 => (left - quarter - f64::from(2 - col) * depth, depth),
            c if c >= w - 2 => (right + quarter + f64::from(c - (w - 2)) * depth, depth),
            2 if w == 5 => (left - quarter, col_w + 2.0 * quarter),
            2 => (left - quarter, col_w + quarter),
            c if c == w - 3 => (left + f64::from(c - 2) * col_w, col_w + quarter),
            c => (left + f64::from(c - 2) * col_w, col_w),
        }
    };
    let y_of = |row: u16| -> (f64, f64) {
        let hh = ring.height();
        match row {
            0 | 1 => (-f64::from(2 - row) * depth, depth),
            r if r >= hh - 2 => (top + f64::from(r - (hh - 2)) * depth, depth),
            r if r == hh - 3 => (f64::from(r - 2) * h * span, h * span + 0.5 * h),
            r => (f64::from(r - 2) * h * span, h * span),
        }
    };
    ring.squares()
        .map(|sq| {
            let (x, w) = x_of(sq.col);
            let (y, d) = y_of(sq.row);
            (sq, (x, y, w, d))
        })
        .collect()
}

/// The ring's squares laid round the map as `laid` places it
/// ([`ring_rects`]), with the reserves and starting counters.
fn lay_ring(setup: &Setup, laid: &Laid) -> Vec<RingSquare> {
    let Some(offboard) = &setup.offboard else {
        return Vec::new();
    };
    let Ok(ring) = Ring::new(setup.map, offboard.span) else {
        return Vec::new();
    };
    let (ox, oy) = laid.offset_mm();
    let reserve = |sq: Square| {
        (0..setup.sides.len().min(2)).find(|s| match offboard.reserves.get(*s) {
            Some(Some(squares)) => squares.contains(&sq),
            _ => ring.default_reserve(setup.sides[*s].home).contains(&sq),
        })
    };
    ring_rects(&ring, laid.cell_mm)
        .into_iter()
        .map(|(sq, (x, y, w, d))| RingSquare {
            name: sq.to_string(),
            rect: (ox + x, oy + y, w, d),
            reserve: reserve(sq),
            counters: offboard
                .counters
                .iter()
                .filter(|c| c.at == sq)
                .map(|c| (c.side, c.number))
                .collect(),
        })
        .collect()
}

/// A colour lightened towards white: a reserve's tint.
fn tint(colour: Rgbf) -> Rgbf {
    colour.map(|c| c + (1.0 - c) * 0.8)
}

/// A line of the same dark grey as the squares' outlines, for patterns.
fn line(from: (f64, f64), to: (f64, f64), width: f64) -> Mark {
    Mark::Line { from, to, width }
}

/// A regular polygon of `n` corners round `centre`, `radius` to each
/// corner, the first at `turn` radians from the +x axis.
pub(crate) fn ring(centre: (f64, f64), radius: f64, n: usize, turn: f64) -> Vec<(f64, f64)> {
    (0..n)
        .map(|k| {
            let a = turn + std::f64::consts::TAU * k as f64 / n as f64;
            (centre.0 + radius * a.cos(), centre.1 + radius * a.sin())
        })
        .collect()
}

/// A small filled dot (a hexagon, which the PDF draws as simply as a
/// rectangle).
fn dot(centre: (f64, f64), radius: f64) -> Mark {
    Mark::Polygon {
        points: ring(centre, radius, 6, 0.0),
        fill: Some([0.2, 0.2, 0.2]),
        stroke: None,
    }
}

/// A zigzag across `from` to `to` in `n` teeth of height `h`: water, a
/// river, a trench.
fn zigzag(from: (f64, f64), to: (f64, f64), n: usize, h: f64, width: f64) -> Vec<Mark> {
    // The teeth stand across the line, whichever way it runs.
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy).max(1e-9);
    let (nx, ny) = (-dy / length, dx / length);
    let point = |k: usize| {
        let t = k as f64 / (2 * n) as f64;
        let up = if k % 2 == 1 { h } else { 0.0 };
        (from.0 + dx * t + nx * up, from.1 + dy * t + ny * up)
    };
    (0..2 * n)
        .map(|k| line(point(k), point(k + 1), width))
        .collect()
}

/// A road's two edges from a hex's centre `from` to the middle of one of
/// its sides, `to`: a band a fifth of a hex wide, its lines `width` mm.
fn road_edges(from: (f64, f64), to: (f64, f64), h: f64, width: f64) -> Vec<Mark> {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = dx.hypot(dy).max(1e-9);
    let (nx, ny) = (-dy / length * 0.1 * h, dx / length * 0.1 * h);
    [-1.0, 1.0]
        .into_iter()
        .map(|k| {
            line(
                (from.0 + k * nx, from.1 + k * ny),
                (to.0 + k * nx, to.1 + k * ny),
                width,
            )
        })
        .collect()
}

/// A terrain's colour on paper: light, so that names and pieces read over
/// it; fields are left white.
pub fn terrain_colour(t: Terrain) -> Option<Rgbf> {
    Some(match t {
        Terrain::Fields => return None,
        Terrain::Road => [0.90, 0.84, 0.70],
        Terrain::Bridge => [0.80, 0.66, 0.50],
        Terrain::Trees => [0.62, 0.82, 0.56],
        Terrain::Buildings => [0.86, 0.80, 0.72],
        Terrain::Bocage => [0.74, 0.87, 0.62],
        Terrain::LowWall => [0.86, 0.79, 0.66],
        Terrain::Fort => [0.80, 0.80, 0.82],
        Terrain::Trench => [0.80, 0.72, 0.60],
        Terrain::Water => [0.72, 0.86, 0.97],
        Terrain::River => [0.62, 0.79, 0.95],
        Terrain::Mountain => [0.74, 0.70, 0.64],
    })
}

/// A terrain's pattern in a hex of centre `c`, `s` to its corners and `h`
/// between its flats: marks in dark grey that tell the terrains apart
/// without colour. Fields have none.
pub fn terrain_pattern(t: Terrain, c: (f64, f64), s: f64, h: f64) -> Vec<Mark> {
    let (cx, cy) = c;
    match t {
        Terrain::Fields => Vec::new(),
        // A road's two edges across the hex.
        Terrain::Road => vec![
            line(
                (cx - 0.8 * s, cy - 0.1 * h),
                (cx + 0.8 * s, cy - 0.1 * h),
                0.3,
            ),
            line(
                (cx - 0.8 * s, cy + 0.1 * h),
                (cx + 0.8 * s, cy + 0.1 * h),
                0.3,
            ),
        ],
        // The road's edges as the bridge's rails, closed at both ends.
        Terrain::Bridge => {
            let (x0, x1, y0, y1) = (cx - 0.55 * s, cx + 0.55 * s, cy - 0.12 * h, cy + 0.12 * h);
            vec![
                line((x0, y0), (x1, y0), 0.6),
                line((x0, y1), (x1, y1), 0.6),
                line((x0 - 0.1 * s, y0 - 0.06 * h), (x0, y0), 0.6),
                line((x0 - 0.1 * s, y1 + 0.06 * h), (x0, y1), 0.6),
                line((x1, y0), (x1 + 0.1 * s, y0 - 0.06 * h), 0.6),
                line((x1, y1), (x1 + 0.1 * s, y1 + 0.06 * h), 0.6),
            ]
        }
        // Three trees.
        Terrain::Trees => ring(c, 0.38 * s, 3, std::f64::consts::FRAC_PI_2)
            .into_iter()
            .map(|p| dot(p, 0.13 * s))
            .collect(),
        // Two houses.
        Terrain::Buildings => [-1.0, 1.0]
            .into_iter()
            .map(|k| Mark::Rect {
                x: cx + k * 0.3 * s - 0.17 * s,
                y: cy - 0.17 * s,
                w: 0.34 * s,
                h: 0.34 * s,
                fill: Some([0.3, 0.3, 0.3]),
                stroke: None,
            })
            .collect(),
        // Hedges round the field: a ring of small dots.
        Terrain::Bocage => ring(c, 0.62 * s, 12, 0.0)
            .into_iter()
            .map(|p| dot(p, 0.05 * s))
            .collect(),
        // A wall of stones: a thick line with its stones' joints.
        Terrain::LowWall => {
            let y = cy - 0.2 * h;
            let mut marks = vec![line((cx - 0.7 * s, y), (cx + 0.7 * s, y), 0.9)];
            for k in -3..=3 {
                let x = cx + f64::from(k) * 0.2 * s;
                marks.push(line((x, y - 0.06 * h), (x, y + 0.06 * h), 0.3));
            }
            marks
        }
        // Ramparts: a thick inner outline.
        Terrain::Fort => vec![Mark::Polygon {
            points: ring(c, 0.7 * s, 6, 0.0),
            fill: None,
            stroke: Some(0.9),
        }],
        Terrain::Trench => zigzag((cx - 0.7 * s, cy), (cx + 0.7 * s, cy), 4, 0.12 * h, 0.6),
        // Three short waves.
        Terrain::Water => [-0.22, 0.0, 0.22]
            .into_iter()
            .flat_map(|k| {
                let y = cy + k * h;
                zigzag((cx - 0.45 * s, y), (cx + 0.45 * s, y), 3, 0.05 * h, 0.25)
            })
            .collect(),
        // Two long waves: the current.
        Terrain::River => [-0.12, 0.12]
            .into_iter()
            .flat_map(|k| {
                let y = cy + k * h;
                zigzag((cx - 0.85 * s, y), (cx + 0.85 * s, y), 5, 0.05 * h, 0.4)
            })
            .collect(),
        // Two peaks.
        Terrain::Mountain => [(-0.28, 0.5), (0.22, 0.65)]
            .into_iter()
            .map(|(dx, tall)| {
                let base = cy - 0.25 * h;
                Mark::Polygon {
                    points: vec![
                        (cx + dx * s - 0.35 * s, base),
                        (cx + dx * s + 0.35 * s, base),
                        (cx + dx * s, base + tall * h),
                    ],
                    fill: None,
                    stroke: Some(0.5),
                }
            })
            .collect(),
    }
}

/// The short words for what a side has in a hex: `8i 2c`, then its other
/// pieces as letters (O officers, C cannon, B baggage, F flag).
fn piece_words(p: &PiecesSetup) -> (String, String) {
    let mut men = Vec::new();
    if p.infantry > 0 {
        men.push(format!("{}i", p.infantry));
    }
    if p.cavalry > 0 {
        men.push(format!("{}c", p.cavalry));
    }
    let mut rest = Vec::new();
    if p.officers > 0 {
        rest.push(format!("O{}", p.officers));
    }
    for (on, letter) in [(p.cannon, "C"), (p.baggage, "B"), (p.flag, "F")] {
        if on {
            rest.push(letter.to_owned());
        }
    }
    (men.join(" "), rest.join(" "))
}

/// What a side has in a hex, in words, for the listing.
fn piece_listing(p: &PiecesSetup) -> String {
    let mut what = Vec::new();
    let count = |n: u16, one: &str, many: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {many}"),
    };
    if p.infantry > 0 {
        what.push(count(p.infantry, "infantryman", "infantry"));
    }
    if p.cavalry > 0 {
        what.push(count(p.cavalry, "cavalryman", "cavalry"));
    }
    if p.officers > 0 {
        what.push(count(p.officers, "officer", "officers"));
    }
    for (on, name) in [
        (p.cannon, "a cannon"),
        (p.baggage, "baggage"),
        (p.flag, "the flag"),
    ] {
        if on {
            what.push(name.to_owned());
        }
    }
    what.join(", ")
}

impl Contents for HexMap {
    fn name(&self, spot: Spot) -> String {
        Hex::from_spot(spot).map_or_else(String::new, |hex| hex.to_string())
    }

    fn fill(&self, spot: Spot) -> Option<Rgbf> {
        terrain_colour(self.terrain(Hex::from_spot(spot)?))
    }

    /// The terrain's pattern, or a road or a river run on to its
    /// neighbours of the same network: drawn to each shared side, it reads
    /// as the map's own.
    fn under_name(&self, cell: &Cell, marks: &mut Vec<Mark>) {
        let Some(hex) = Hex::from_spot(cell.spot) else {
            return;
        };
        let c = cell.centre;
        let h = cell.size_mm;
        let s = self.physical.hex_side_mm();
        let terrain = self.terrain(hex);
        match self.linked(hex, terrain) {
            Some(ends) if !ends.is_empty() => {
                for end in ends {
                    marks.extend(match terrain {
                        Terrain::River => zigzag(c, end, 2, 0.04 * h, 0.4),
                        // A bridge's rails carry the road's edges over.
                        Terrain::Bridge => road_edges(c, end, h, 0.7),
                        _ => road_edges(c, end, h, 0.3),
                    });
                }
            }
            _ => marks.extend(terrain_pattern(terrain, c, s, h)),
        }
    }

    /// In a large hex, its terrain's name.
    fn over_name(&self, cell: &Cell, _paint: &Paint, marks: &mut Vec<Mark>) {
        let Some(hex) = Hex::from_spot(cell.spot) else {
            return;
        };
        let (c, h) = (cell.centre, cell.size_mm);
        let s = self.physical.hex_side_mm();
        let terrain = self.terrain(hex);
        if h >= TERRAIN_WORDS_HEX_MM && terrain != Terrain::Fields {
            marks.push(Mark::Text {
                x: c.0 - 0.45 * s,
                y: c.1 - 0.42 * h,
                size: 4.5,
                text: terrain.name().to_owned(),
            });
        }
    }

    /// The sides' pieces on the hexes reached, drawn over every hex.
    fn over_all(
        &self,
        _area: (f64, f64, f64, f64),
        reached: &dyn Fn(Spot) -> bool,
        paint: &Paint,
        marks: &mut Vec<Mark>,
    ) {
        for p in &self.setup.pieces {
            if reached(p.at.spot()) {
                self.piece_marks(p, paint.colour(p.side), paint.letter(p.side), marks);
            }
        }
        self.ring_marks(_area, paint, marks);
    }

    fn listing_len(&self) -> usize {
        HexMap::listing_len(self)
    }

    fn listing(&self, paint: &Paint) -> Vec<String> {
        let letters: Vec<char> = (0..self.setup.sides.len())
            .map(|i| paint.letter(i))
            .collect();
        HexMap::listing(self, &letters)
    }
}

impl HexMap {
    /// The ring's squares that reach into `area`: each outlined, tinted in
    /// the colour of the side whose reserve it is, with its name and the
    /// counters starting there (`R5`) (R40-R43).
    fn ring_marks(&self, area: (f64, f64, f64, f64), paint: &Paint, marks: &mut Vec<Mark>) {
        let (x0, y0, x1, y1) = area;
        for sq in &self.ring {
            let (x, y, w, d) = sq.rect;
            if x > x1 || x + w < x0 || y > y1 || y + d < y0 {
                continue;
            }
            marks.push(Mark::Rect {
                x,
                y,
                w,
                h: d,
                fill: sq.reserve.map(|s| tint(paint.colour(s))),
                stroke: Some(0.2),
            });
            marks.push(Mark::Text {
                x: x + 0.08 * w,
                y: y + d - 0.25 * d,
                size: 7.0,
                text: sq.name.clone(),
            });
            let tokens: Vec<String> = sq
                .counters
                .iter()
                .map(|(side, n)| format!("{}{n}", paint.letter(*side)))
                .collect();
            if !tokens.is_empty() {
                marks.push(Mark::Text {
                    x: x + 0.08 * w,
                    y: y + 0.2 * d,
                    size: 9.0,
                    text: tokens.join(" "),
                });
            }
        }
    }

    /// The terrain of a hex (fields where the setup names none).
    fn terrain(&self, hex: Hex) -> Terrain {
        self.terrain
            .get(self.setup.map.index(hex))
            .copied()
            .unwrap_or(Terrain::Fields)
    }

    /// For a road, a river or a bridge: the midpoints of its sides shared
    /// with the hexes its network runs on to (roads to roads and bridges,
    /// rivers to rivers, bridges and water, a bridge to the roads it
    /// carries); `None` for other terrain.
    fn linked(&self, hex: Hex, terrain: Terrain) -> Option<Vec<(f64, f64)>> {
        let joins = |other: Terrain| match terrain {
            Terrain::Road => matches!(other, Terrain::Road | Terrain::Bridge),
            Terrain::River => matches!(other, Terrain::River | Terrain::Bridge | Terrain::Water),
            Terrain::Bridge => other == Terrain::Road,
            _ => false,
        };
        if !matches!(terrain, Terrain::Road | Terrain::River | Terrain::Bridge) {
            return None;
        }
        let map = self.setup.map;
        let c = self.physical.hex_centre_mm(map, hex);
        Some(
            map.neighbours(hex)
                .filter(|n| joins(self.terrain(*n)))
                .map(|n| {
                    let o = self.physical.hex_centre_mm(map, n);
                    ((c.0 + o.0) / 2.0, (c.1 + o.1) / 2.0)
                })
                .collect(),
        )
    }

    /// A side's pieces in a hex: a block in the side's colour with its
    /// letter and its men, and its other pieces as letters under it.
    fn piece_marks(&self, p: &PiecesSetup, colour: Rgbf, letter: char, marks: &mut Vec<Mark>) {
        let c = self.physical.hex_centre_mm(self.setup.map, p.at);
        let h = self.physical.hex_mm;
        // The second side's pieces in the same hex stand above the first's.
        let y = c.1 - 0.2 * h + 0.3 * h * (p.side.min(1) as f64);
        let (w, depth) = (0.7 * h, 0.22 * h);
        marks.push(Mark::Rect {
            x: c.0 - w / 2.0,
            y,
            w,
            h: depth,
            fill: Some(colour),
            stroke: Some(0.3),
        });
        let (men, rest) = piece_words(p);
        if h >= MIN_NAMED_HEX_MM {
            marks.push(Mark::Text {
                x: c.0 - w / 2.0 + 0.6,
                y: y + 0.06 * h,
                size: 6.0,
                text: format!("{letter} {men}"),
            });
            if !rest.is_empty() {
                marks.push(Mark::Text {
                    x: c.0 - w / 2.0 + 0.6,
                    y: y - 0.1 * h,
                    size: 5.0,
                    text: rest,
                });
            }
        }
    }

    /// The listing: each side's points against its limit (R61), each
    /// side's pieces hex by hex with the centre's distances from the
    /// table's edges, and the hexes of each terrain.
    fn listing(&self, letters: &[char]) -> Vec<String> {
        let map = self.setup.map;
        let from_edges = |hex: Hex| {
            let (x, y) = self.physical.hex_centre_mm(map, hex);
            format!("{x:.1} mm from the left edge, {y:.1} mm from the near edge")
        };
        let mut lines = Vec::with_capacity(self.listing_len());
        let mark = |i: usize| letters.get(i).copied().unwrap_or('?');
        let names: Vec<String> = self
            .setup
            .sides
            .iter()
            .enumerate()
            .map(|(i, side)| crate::pdf::sheet_name(&side.name, "Side", mark(i)))
            .collect();
        for (i, side) in self.setup.sides.iter().enumerate() {
            let spent = points_doubled(&self.setup, i);
            lines.push(format!(
                "{} ({}): {} of {} points (R61), home edge {}",
                names[i],
                mark(i),
                points_text(spent),
                side.points,
                side.home
            ));
        }
        for p in &self.setup.pieces {
            let side = &names[p.side];
            lines.push(format!(
                "{side} in {}: {}: {}",
                p.at,
                piece_listing(p),
                from_edges(p.at)
            ));
        }
        if let Some(offboard) = &self.setup.offboard {
            lines.push(format!(
                "Off-board grid (R40): squares of {} hex{} a side round the map, two deep, drawn beyond the table's edges; tinted squares are a side's reserve (R42)",
                offboard.span,
                if offboard.span == 1 { "" } else { "es" }
            ));
            for c in &offboard.counters {
                let p = c.as_pieces();
                lines.push(format!(
                    "{} counter {} ({}{}) in {}: {}",
                    names[c.side],
                    c.number,
                    mark(c.side),
                    c.number,
                    c.at,
                    piece_listing(&p)
                ));
            }
        }
        for kind in Terrain::ALL {
            let hexes: Vec<String> = self
                .setup
                .terrain
                .iter()
                .filter(|(_, t)| *t == kind)
                .map(|(h, _)| h.to_string())
                .collect();
            for (k, chunk) in hexes.chunks(HEXES_A_LINE).enumerate() {
                lines.push(if k == 0 {
                    format!("{}: {}", kind.name(), chunk.join(" "))
                } else {
                    format!("    {}", chunk.join(" "))
                });
            }
        }
        lines
    }

    /// How many lines [`HexMap::listing`] makes, counted without making
    /// them.
    fn listing_len(&self) -> usize {
        let terrain: usize = Terrain::ALL
            .iter()
            .map(|kind| {
                self.setup
                    .terrain
                    .iter()
                    .filter(|(_, t)| t == kind)
                    .count()
                    .div_ceil(HEXES_A_LINE)
            })
            .sum();
        let ring = self
            .setup
            .offboard
            .as_ref()
            .map_or(0, |o| 1 + o.counters.len());
        self.setup.sides.len() + self.setup.pieces.len() + ring + terrain
    }
}

/// Plans the setup sheet of a Warpspawn battle on a paper: its hex map at
/// 1:1 on its table (40 mm hexes with a hex's rim round the map when the
/// battle gives no `physical`), each hex named with its terrain by colour
/// and by pattern, each side's pieces on their hexes, then the listing:
/// each side's points against its limit (R61), every side's pieces hex by
/// hex with their distances from the table's edges, and each terrain's
/// hexes. Tiled, oriented and bounded as [`crate::plan`] does.
pub fn plan_battle(battle: &Battle, paper: Paper) -> Result<Sheet, PlanSheetError> {
    let mut map = of(battle);
    // The game's surface, as its contract gives it; with the off-board
    // grid, the sheet reaches beyond the table to hold the ring round the
    // map, which stays where the table centres it (R40).
    let mut table_mm = map.physical.table_mm;
    if let Some(offboard) = &map.setup.offboard {
        let probe = Laid::new(map.setup.map.surface(), map.physical.hex_mm, table_mm);
        let (w, d) = probe.surface_mm();
        let ring = 4.0 * ring_depth_mm(map.physical.hex_mm, offboard.span) + map.physical.hex_mm;
        table_mm = (table_mm.0.max(w + ring), table_mm.1.max(d + ring));
    }
    let laid = Laid::new(map.setup.map.surface(), map.physical.hex_mm, table_mm);
    map.ring = lay_ring(&map.setup, &laid);
    let names: Vec<String> = map.setup.sides.iter().map(|s| s.name.clone()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    crate::plan_surface(
        battle.name.clone(),
        laid,
        &names,
        &battle.colours,
        map,
        paper,
    )
}

/// The hex map of a battle on its table, for [`plan_battle`].
fn of(battle: &Battle) -> HexMap {
    let map = battle.setup.map;
    let mut terrain = vec![Terrain::Fields; usize::from(map.columns) * usize::from(map.rows)];
    for (hex, kind) in &battle.setup.terrain {
        if let Some(slot) = terrain.get_mut(map.index(*hex)) {
            *slot = *kind;
        }
    }
    HexMap {
        setup: battle.setup.clone(),
        physical: battle.table(),
        terrain,
        ring: Vec::new(),
    }
}
