//! Board geometry: squares named like spreadsheet cells, facings and the board's
//! extent (R1). Pure integer maths; what stands on a square is left to `game`.

use std::fmt;
use std::str::FromStr;

use sandtable_core::game::Spot;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most columns or rows a board may have: column names run from `A` to `ZZ`.
pub const MAX_BOARD_SIDE: u16 = sandtable_core::grid::MAX_SIDE;

/// One square of the board (R1). Columns count from the left and rows from the
/// bottom, both from zero inside the engine; the name `C7` is column 3, row 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// Column index from the left edge, 0-based (`A` is 0).
    pub col: u16,
    /// Row index from the bottom edge, 0-based (`1` is 0).
    pub row: u16,
}

impl Square {
    /// The square as the game contract names places.
    pub fn spot(self) -> Spot {
        Spot::Square {
            col: self.col,
            row: self.row,
        }
    }

    /// The square a contract place names, if it names a square.
    pub fn from_spot(spot: Spot) -> Option<Square> {
        match spot {
            Spot::Square { col, row } => Some(Square { col, row }),
            _ => None,
        }
    }

    /// The square at 0-based column and row indices.
    pub const fn new(col: u16, row: u16) -> Self {
        Self { col, row }
    }

    /// Chebyshev distance in squares (diagonals count as one, R4).
    pub fn chebyshev(self, other: Square) -> u16 {
        self.col
            .abs_diff(other.col)
            .max(self.row.abs_diff(other.row))
    }

    /// The neighbouring square in `facing`, if it lies within `board`.
    pub fn step(self, facing: Facing, board: Board) -> Option<Square> {
        let (col, row) = (self.col, self.row);
        let next = match facing {
            Facing::N => Square::new(col, row.checked_add(1)?),
            Facing::E => Square::new(col.checked_add(1)?, row),
            Facing::S => Square::new(col, row.checked_sub(1)?),
            Facing::W => Square::new(col.checked_sub(1)?, row),
        };
        board.contains(next).then_some(next)
    }

    /// Squares straight ahead from `self` in `facing` reach `target` after this
    /// many steps, or `None` if `target` is not straight ahead.
    pub fn steps_to(self, facing: Facing, target: Square) -> Option<u16> {
        match facing {
            Facing::N if target.col == self.col && target.row > self.row => {
                Some(target.row - self.row)
            }
            Facing::S if target.col == self.col && target.row < self.row => {
                Some(self.row - target.row)
            }
            Facing::E if target.row == self.row && target.col > self.col => {
                Some(target.col - self.col)
            }
            Facing::W if target.row == self.row && target.col < self.col => {
                Some(self.col - target.col)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        sandtable_core::grid::write_cell(f, self.col, self.row)
    }
}

/// Why a square name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a square name: {} (R1: column letters then a row number, like C7 or AA12)",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (col, row) =
            sandtable_core::grid::parse_cell(text).map_err(|reason| ParseSquareError {
                text: text.to_owned(),
                reason,
            })?;
        Ok(Square::new(col, row))
    }
}

impl Serialize for Square {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Square {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// The way a unit faces (R1): N is toward higher rows, E toward higher columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Facing {
    /// Toward higher row numbers.
    N,
    /// Toward later column letters.
    E,
    /// Toward lower row numbers.
    S,
    /// Toward earlier column letters.
    W,
}

impl Facing {
    /// All four facings, clockwise from north.
    pub const ALL: [Facing; 4] = [Facing::N, Facing::E, Facing::S, Facing::W];

    /// The facing after a quarter turn to the left (counter-clockwise).
    pub const fn left(self) -> Facing {
        match self {
            Facing::N => Facing::W,
            Facing::W => Facing::S,
            Facing::S => Facing::E,
            Facing::E => Facing::N,
        }
    }

    /// The facing after a quarter turn to the right (clockwise).
    pub const fn right(self) -> Facing {
        match self {
            Facing::N => Facing::E,
            Facing::E => Facing::S,
            Facing::S => Facing::W,
            Facing::W => Facing::N,
        }
    }

    /// The facing turned half way round.
    pub const fn opposite(self) -> Facing {
        self.left().left()
    }

    /// The letter used in files and records.
    pub const fn letter(self) -> char {
        match self {
            Facing::N => 'N',
            Facing::E => 'E',
            Facing::S => 'S',
            Facing::W => 'W',
        }
    }
}

impl fmt::Display for Facing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why a facing could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFacingError(pub String);

impl fmt::Display for ParseFacingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a facing: use N, E, S or W (R1)", self.0)
    }
}

impl std::error::Error for ParseFacingError {}

impl FromStr for Facing {
    type Err = ParseFacingError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "N" | "n" => Ok(Facing::N),
            "E" | "e" => Ok(Facing::E),
            "S" | "s" => Ok(Facing::S),
            "W" | "w" => Ok(Facing::W),
            _ => Err(ParseFacingError(text.to_owned())),
        }
    }
}

/// The board's extent in squares (R1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// Number of columns (squares from left to right), 1 to 702.
    pub columns: u16,
    /// Number of rows (squares from bottom to top), 1 to 702.
    pub rows: u16,
}

impl Board {
    /// Whether the square lies on the board.
    pub fn contains(self, sq: Square) -> bool {
        sq.col < self.columns && sq.row < self.rows
    }

    /// Whether the square lies on the outer ring of the board (R3).
    pub fn on_edge(self, sq: Square) -> bool {
        sq.col == 0 || sq.row == 0 || sq.col + 1 == self.columns || sq.row + 1 == self.rows
    }

    /// Number of squares.
    pub fn len(self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    /// Whether the board has no squares.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Row-major index of a square on the board.
    pub fn index(self, sq: Square) -> usize {
        usize::from(sq.row) * usize::from(self.columns) + usize::from(sq.col)
    }

    /// Every square, row by row from the bottom, left to right.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        (0..self.rows).flat_map(move |row| (0..self.columns).map(move |col| Square::new(col, row)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn r1_square_names_are_spreadsheet_cells() {
        assert_eq!(sq("C7"), Square::new(2, 6), "R1: C7 is column 3, row 7");
        assert_eq!(sq("A1"), Square::new(0, 0));
        assert_eq!(sq("Z1").col, 25);
        assert_eq!(sq("AA12"), Square::new(26, 11));
        assert_eq!(sq("AZ1").col, 51);
        assert_eq!(sq("BA1").col, 52);
        assert_eq!(sq("ZZ702"), Square::new(701, 701));
        assert_eq!(sq("c7"), sq("C7"), "lower case is accepted");
        for col in 0..MAX_BOARD_SIDE {
            let s = Square::new(col, col);
            assert_eq!(
                s.to_string().parse::<Square>().unwrap(),
                s,
                "round trip of {s}"
            );
        }
        assert_eq!(Square::new(26, 11).to_string(), "AA12");
        assert_eq!(Square::new(701, 0).to_string(), "ZZ1");
    }

    #[test]
    fn r1_bad_square_names_are_refused_with_a_reason() {
        for (text, reason) in [
            ("", "column letter"),
            ("7C", "column letter"),
            ("C", "no row"),
            ("C0", "from 1"),
            ("C07", "leading zero"),
            ("AAA1", "ZZ"),
            ("C703", "702"),
            ("C7x", "number"),
        ] {
            let err = text.parse::<Square>().unwrap_err();
            assert!(
                err.to_string().contains(reason),
                "`{text}` gave `{err}`, expected it to mention `{reason}`"
            );
        }
    }

    #[test]
    fn r1_facings_point_toward_higher_rows_for_north() {
        let board = Board {
            columns: 5,
            rows: 5,
        };
        let c3 = sq("C3");
        assert_eq!(c3.step(Facing::N, board), Some(sq("C4")));
        assert_eq!(c3.step(Facing::E, board), Some(sq("D3")));
        assert_eq!(c3.step(Facing::S, board), Some(sq("C2")));
        assert_eq!(c3.step(Facing::W, board), Some(sq("B3")));
        assert_eq!(sq("A1").step(Facing::S, board), None);
        assert_eq!(sq("E5").step(Facing::E, board), None);
        for f in Facing::ALL {
            assert_eq!(f.left().right(), f);
            assert_eq!(f.opposite().opposite(), f);
            assert_ne!(f.opposite(), f);
        }
        assert_eq!(c3.steps_to(Facing::N, sq("C5")), Some(2));
        assert_eq!(c3.steps_to(Facing::N, sq("C2")), None);
        assert_eq!(c3.steps_to(Facing::E, sq("D4")), None);
    }
}
