//! The off-board grid's ring of squares round the map (R40-R42): its
//! lattice, the names of its squares, what each square is (an edge square
//! facing some of the map's edge hexes, the second row, an inner corner),
//! its steps, and each side's default reserve.

use std::fmt;
use std::str::FromStr;

use sandtable_core::game::Spot;
use sandtable_core::grid;

use crate::hex::{Edge, Hex, MAX_MAP_SIDE, Map};

/// A square of the ring's lattice, by 0-based column and row from the
/// lattice's bottom-left corner (R40). The lattice counts the map's
/// columns too: at span 1, square `2E` (column 4, row 1) faces hex `C1`.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Square {
    /// Column from the lattice's left edge.
    pub col: u16,
    /// Row from the lattice's bottom edge.
    pub row: u16,
}

impl Square {
    /// The square at 0-based column and row of the lattice.
    pub const fn new(col: u16, row: u16) -> Square {
        Square { col, row }
    }

    /// The square as the game contract names places.
    pub fn spot(self) -> Spot {
        Spot::Ring {
            col: self.col,
            row: self.row,
        }
    }

    /// The square a contract's place names, if it is a grid square.
    pub fn from_spot(spot: Spot) -> Option<Square> {
        match spot {
            Spot::Ring { col, row } => Some(Square::new(col, row)),
            _ => None,
        }
    }

    /// Steps between two squares: a step goes to any of the 8 neighbours
    /// and a diagonal step costs 1 (R41), so the larger of the column and
    /// row distances (R55's "within 3 squares").
    pub fn distance(self, other: Square) -> u16 {
        self.col
            .abs_diff(other.col)
            .max(self.row.abs_diff(other.row))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        grid::write_row_first(f, self.col, self.row)
    }
}

/// Why a text is not a grid square's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text read.
    pub text: String,
    /// What is wrong with it.
    pub why: &'static str,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a grid square's name: {} (row number first, then column letters: `2E`)",
            self.text, self.why
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Square, ParseSquareError> {
        grid::parse_row_first(text)
            .map(|(col, row)| Square::new(col, row))
            .map_err(|why| ParseSquareError {
                text: text.to_owned(),
                why,
            })
    }
}

/// What a square of the lattice is (R41).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Place {
    /// The map's rectangle: not a square of the ring.
    Map,
    /// An edge square: it shares a side with the map along that edge and
    /// faces its edge hexes.
    Edge(Edge),
    /// The outer ring, the second row from the map, its corners included.
    SecondRow,
    /// One of the four inner corner squares, which touch the map only at a
    /// point: neither edge squares nor second row for entering, sight and
    /// fire (R48, R55, R56).
    InnerCorner,
}

/// Why a ring cannot be laid round a map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RingError {
    /// A map of no hexes, or larger than any map may be (R60).
    NoMap,
    /// A span of 0 hexes.
    NoSpan,
    /// The span does not divide the map's columns or rows (R40).
    SpanDoesNotDivide {
        /// The span.
        span: u16,
        /// The map's columns.
        columns: u16,
        /// The map's rows.
        rows: u16,
    },
}

impl RingError {
    /// What is wrong, without the ruling's number.
    pub fn words(&self) -> String {
        match self {
            RingError::NoMap => {
                format!("the ring lies round a map of 1 to {MAX_MAP_SIDE} hexes each way")
            }
            RingError::NoSpan => "a grid square faces at least 1 hex".to_owned(),
            RingError::SpanDoesNotDivide {
                span,
                columns,
                rows,
            } => format!(
                "a span of {span} hexes does not divide the map's {columns} columns and {rows} rows"
            ),
        }
    }
}

impl fmt::Display for RingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (R40)", self.words())
    }
}

impl std::error::Error for RingError {}

/// The ring round a map: two squares deep, each square facing `span` map
/// hexes along the edge it borders (R40).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Ring {
    map: Map,
    span: u16,
}

impl Ring {
    /// The ring round `map` with squares of `span` hexes, when the span
    /// divides the map's columns and rows (R40).
    pub fn new(map: Map, span: u16) -> Result<Ring, RingError> {
        let side = 1..=MAX_MAP_SIDE;
        if !side.contains(&map.columns) || !side.contains(&map.rows) {
            return Err(RingError::NoMap);
        }
        if span == 0 {
            return Err(RingError::NoSpan);
        }
        if !map.columns.is_multiple_of(span) || !map.rows.is_multiple_of(span) {
            return Err(RingError::SpanDoesNotDivide {
                span,
                columns: map.columns,
                rows: map.rows,
            });
        }
        Ok(Ring { map, span })
    }

    /// The map the ring lies round.
    pub fn map(&self) -> Map {
        self.map
    }

    /// Hexes a square faces along its edge.
    pub fn span(&self) -> u16 {
        self.span
    }

    /// The lattice's columns: the map's in squares, and two either side.
    pub fn width(&self) -> u16 {
        self.map.columns / self.span + 4
    }

    /// The lattice's rows: the map's in squares, and two below and above.
    pub fn height(&self) -> u16 {
        self.map.rows / self.span + 4
    }

    /// What a square of the lattice is; `None` off the lattice.
    pub fn place(&self, sq: Square) -> Option<Place> {
        let (w, h) = (self.width(), self.height());
        if sq.col >= w || sq.row >= h {
            return None;
        }
        let outer = |v: u16, n: u16| v == 0 || v == n - 1;
        let inner = |v: u16, n: u16| v == 1 || v == n - 2;
        Some(if outer(sq.col, w) || outer(sq.row, h) {
            Place::SecondRow
        } else if inner(sq.col, w) && inner(sq.row, h) {
            Place::InnerCorner
        } else if sq.row == 1 {
            Place::Edge(Edge::S)
        } else if sq.row == h - 2 {
            Place::Edge(Edge::N)
        } else if sq.col == 1 {
            Place::Edge(Edge::W)
        } else if sq.col == w - 2 {
            Place::Edge(Edge::E)
        } else {
            Place::Map
        })
    }

    /// Whether the square is one of the ring's.
    pub fn holds(&self, sq: Square) -> bool {
        self.place(sq).is_some_and(|p| p != Place::Map)
    }

    /// Every square of the ring, a row at a time from the bottom.
    pub fn squares(&self) -> impl Iterator<Item = Square> + '_ {
        (0..self.height())
            .flat_map(move |row| (0..self.width()).map(move |col| Square::new(col, row)))
            .filter(|sq| self.holds(*sq))
    }

    /// The ring's squares a step from `sq`: its 8 neighbours, less the
    /// map's and the lattice's outside (R41).
    pub fn neighbours(&self, sq: Square) -> impl Iterator<Item = Square> + '_ {
        (-1i32..=1)
            .flat_map(|dr| (-1i32..=1).map(move |dc| (dc, dr)))
            .filter(|&(dc, dr)| (dc, dr) != (0, 0))
            .filter_map(move |(dc, dr)| {
                let col = u16::try_from(i32::from(sq.col) + dc).ok()?;
                let row = u16::try_from(i32::from(sq.row) + dr).ok()?;
                Some(Square::new(col, row))
            })
            .filter(|n| self.holds(*n))
    }

    /// The map's hexes an edge square faces, along its edge (R40); none for
    /// any other square.
    pub fn faces(&self, sq: Square) -> Vec<Hex> {
        let span = self.span;
        let along = |first: u16| first * span..(first + 1) * span;
        let hex = |col: u16, row: u16| {
            // The map's sides are at most `MAX_MAP_SIDE`, within a u8.
            Hex::new(col as u8, row as u8)
        };
        match self.place(sq) {
            Some(Place::Edge(Edge::S)) => along(sq.col - 2).map(|c| hex(c, 0)).collect(),
            Some(Place::Edge(Edge::N)) => along(sq.col - 2)
                .map(|c| hex(c, self.map.rows - 1))
                .collect(),
            Some(Place::Edge(Edge::W)) => along(sq.row - 2).map(|r| hex(0, r)).collect(),
            Some(Place::Edge(Edge::E)) => along(sq.row - 2)
                .map(|r| hex(self.map.columns - 1, r))
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The edge squares a hex faces: one for a hex on one edge of the map,
    /// two for a corner hex, none inside (R40, R48).
    pub fn edge_squares(&self, hex: Hex) -> Vec<Square> {
        let (col, row) = (u16::from(hex.col), u16::from(hex.row));
        let (w, h, span) = (self.width(), self.height(), self.span);
        let mut out = Vec::new();
        if !self.map.contains(hex) {
            return out;
        }
        if row == 0 {
            out.push(Square::new(2 + col / span, 1));
        }
        if row == self.map.rows - 1 {
            out.push(Square::new(2 + col / span, h - 2));
        }
        if col == 0 {
            out.push(Square::new(1, 2 + row / span));
        }
        if col == self.map.columns - 1 {
            out.push(Square::new(w - 2, 2 + row / span));
        }
        out
    }

    /// A side's reserve squares by default: both rows of the ring beyond
    /// its home edge, corners included (R42).
    pub fn default_reserve(&self, home: Edge) -> Vec<Square> {
        let (w, h) = (self.width(), self.height());
        self.squares()
            .filter(|sq| match home {
                Edge::S => sq.row <= 1,
                Edge::N => sq.row >= h - 2,
                Edge::W => sq.col <= 1,
                Edge::E => sq.col >= w - 2,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{hex, open_field, sq};
    use super::*;

    #[test]
    fn r40_squares_are_named_row_first_over_the_whole_lattice() {
        let ring = Ring::new(open_field(), 1).expect("span 1 divides");
        assert_eq!((ring.width(), ring.height()), (20, 16));
        // At span 1, square 2E faces hex C1: the lattice counts the map's
        // columns too.
        assert_eq!(ring.place(sq("2E")), Some(Place::Edge(Edge::S)));
        assert_eq!(ring.faces(sq("2E")), vec![hex("C1")]);
        assert_eq!(sq("2E"), Square::new(4, 1));
        assert_eq!(Square::new(4, 1).to_string(), "2E");
        // The contract names it as a ring square, never as a hex.
        assert_eq!(Square::from_spot(sq("2E").spot()), Some(sq("2E")));
        assert_eq!(Hex::from_spot(sq("2E").spot()), None);
        assert_eq!(Square::from_spot(hex("C1").spot()), None);
        let wrong = "E2".parse::<Square>().expect_err("a hex's spelling");
        assert_eq!(
            wrong.to_string(),
            "`E2` is not a grid square's name: it does not start with a row number (row number first, then column letters: `2E`)"
        );
    }

    #[test]
    fn r40_a_span_faces_that_many_hexes_and_must_divide_the_map() {
        let ring = Ring::new(open_field(), 2).expect("2 divides 16 and 12");
        assert_eq!((ring.width(), ring.height()), (12, 10));
        // The bottom edge's third square faces hexes E1 and F1.
        assert_eq!(ring.faces(Square::new(4, 1)), vec![hex("E1"), hex("F1")]);
        // The right edge's first square faces P1 and P2.
        assert_eq!(ring.faces(Square::new(10, 2)), vec![hex("P1"), hex("P2")]);
        assert_eq!(
            Ring::new(open_field(), 3),
            Err(RingError::SpanDoesNotDivide {
                span: 3,
                columns: 16,
                rows: 12
            })
        );
        assert_eq!(
            Ring::new(open_field(), 3)
                .expect_err("3 leaves 1")
                .to_string(),
            "a span of 3 hexes does not divide the map's 16 columns and 12 rows (R40)"
        );
        assert_eq!(Ring::new(open_field(), 0), Err(RingError::NoSpan));
        // No ring round a map that is none, or too large to be one.
        for (columns, rows) in [(0, 12), (16, u16::MAX)] {
            assert_eq!(Ring::new(Map { columns, rows }, 1), Err(RingError::NoMap));
        }
    }

    #[test]
    fn r41_edge_squares_second_row_and_inner_corners() {
        let ring = Ring::new(open_field(), 1).expect("a ring");
        // 20 x 16 less the 16 x 12 map.
        assert_eq!(ring.squares().count(), 20 * 16 - 16 * 12);
        assert_eq!(ring.place(sq("2B")), Some(Place::InnerCorner));
        assert_eq!(ring.place(sq("15S")), Some(Place::InnerCorner));
        assert_eq!(ring.place(sq("1A")), Some(Place::SecondRow));
        assert_eq!(ring.place(sq("1E")), Some(Place::SecondRow));
        assert_eq!(ring.place(sq("5A")), Some(Place::SecondRow));
        assert_eq!(ring.place(sq("5B")), Some(Place::Edge(Edge::W)));
        assert_eq!(ring.place(sq("5S")), Some(Place::Edge(Edge::E)));
        assert_eq!(ring.place(sq("15E")), Some(Place::Edge(Edge::N)));
        assert_eq!(ring.place(sq("5E")), Some(Place::Map));
        assert_eq!(ring.place(Square::new(20, 0)), None);
        // Inner corners face nothing; the second row faces nothing.
        assert!(ring.faces(sq("2B")).is_empty());
        assert!(ring.faces(sq("1E")).is_empty());
        // A step goes to any of the 8 neighbours on the ring, never onto
        // the map; a diagonal step costs 1.
        let mut steps: Vec<String> = ring.neighbours(sq("2E")).map(|s| s.to_string()).collect();
        steps.sort();
        assert_eq!(steps, ["1D", "1E", "1F", "2D", "2F"]);
        assert_eq!(ring.neighbours(sq("1A")).count(), 3);
        assert_eq!(sq("1A").distance(sq("3C")), 2);
        assert_eq!(sq("3I").distance(sq("5J")), 2);
    }

    #[test]
    fn r48_a_corner_hex_faces_two_edge_squares_and_an_inner_hex_none() {
        let ring = Ring::new(open_field(), 1).expect("a ring");
        assert_eq!(ring.edge_squares(hex("A1")), vec![sq("2C"), sq("3B")]);
        assert_eq!(ring.edge_squares(hex("P12")), vec![sq("15R"), sq("14S")]);
        assert_eq!(ring.edge_squares(hex("C1")), vec![sq("2E")]);
        assert!(ring.edge_squares(hex("E5")).is_empty());
        // Each edge square faces back the hexes that face it.
        for square in ring.squares() {
            for h in ring.faces(square) {
                assert!(ring.edge_squares(h).contains(&square), "{square} {h}");
            }
        }
    }

    #[test]
    fn r42_a_default_reserve_is_both_rows_beyond_the_home_edge() {
        let ring = Ring::new(open_field(), 1).expect("a ring");
        let south = ring.default_reserve(Edge::S);
        // Both rows, corners included: 2 x 20 squares.
        assert_eq!(south.len(), 40);
        assert!(south.contains(&sq("1A")) && south.contains(&sq("2T")));
        assert!(!south.contains(&sq("3A")));
        let east = ring.default_reserve(Edge::E);
        assert_eq!(east.len(), 2 * 16);
        assert!(east.contains(&sq("16T")) && east.contains(&sq("8S")));
    }
}
