//! The hex map (R60): flat-topped hexes in columns, named like squares
//! (column letters from the left, row numbers from the bottom), with the
//! 2nd, 4th, 6th ... columns half a hex higher than their neighbours.
//! Distances, neighbours and lines come from `hexx`'s axial coordinates.

use std::fmt;
use std::str::FromStr;

use hexx::{EdgeDirection, HexOrientation, OffsetHexMode};
use sandtable_core::game::{Spot, Surface};
use sandtable_core::grid;

/// The most columns or rows a map may have (a stress map is 60 x 40).
pub const MAX_MAP_SIDE: u16 = 100;

/// A hex of the map by its column and row from 0 (`A1` is column 0, row 0).
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
pub struct Hex {
    /// Column from the left edge.
    pub col: u8,
    /// Row from the bottom edge.
    pub row: u8,
}

impl Hex {
    /// The hex at 0-based column and row.
    pub const fn new(col: u8, row: u8) -> Hex {
        Hex { col, row }
    }

    /// The hex's axial coordinates (R60's odd columns raised: hexx's `Odd`
    /// offset mode on flat hexes, with rows counted upward).
    pub fn axial(self) -> hexx::Hex {
        hexx::Hex::from_offset_coordinates(
            [i32::from(self.col), i32::from(self.row)],
            OffsetHexMode::Odd,
            HexOrientation::Flat,
        )
    }

    /// The hex at axial coordinates, if it has a column and row from 0.
    pub fn from_axial(axial: hexx::Hex) -> Option<Hex> {
        let [col, row] = axial.to_offset_coordinates(OffsetHexMode::Odd, HexOrientation::Flat);
        Some(Hex::new(u8::try_from(col).ok()?, u8::try_from(row).ok()?))
    }

    /// Hexes between the two, counting steps to a neighbour.
    #[inline]
    pub fn distance(self, other: Hex) -> u16 {
        self.axial().unsigned_distance_to(other.axial()) as u16
    }

    /// Whether the two hexes share a side.
    pub fn touches(self, other: Hex) -> bool {
        self.distance(other) == 1
    }

    /// The hex as the game contract names places.
    pub fn spot(self) -> Spot {
        Spot::Hex {
            col: u16::from(self.col),
            row: u16::from(self.row),
        }
    }

    /// The hex a contract place names, if it names a hex.
    pub fn from_spot(spot: Spot) -> Option<Hex> {
        match spot {
            Spot::Hex { col, row } => Some(Hex {
                col: u8::try_from(col).ok()?,
                row: u8::try_from(row).ok()?,
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        grid::write_cell(f, u16::from(self.col), u16::from(self.row))
    }
}

/// Why a hex name could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseHexError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl fmt::Display for ParseHexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a hex name: {} (R60: column letters then a row number, like C4)",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseHexError {}

impl FromStr for Hex {
    type Err = ParseHexError;

    fn from_str(text: &str) -> Result<Hex, ParseHexError> {
        let err = |reason| ParseHexError {
            text: text.to_owned(),
            reason,
        };
        let (col, row) = grid::parse_cell(text).map_err(err)?;
        match (u8::try_from(col), u8::try_from(row)) {
            (Ok(col), Ok(row)) => Ok(Hex::new(col, row)),
            _ => Err(err("a hex map has at most 100 columns and rows")),
        }
    }
}

/// A map edge, a side's home edge (R60).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Edge {
    /// The top edge: the highest rows.
    N,
    /// The right edge: the last column.
    E,
    /// The bottom edge: row 1.
    S,
    /// The left edge: column A.
    W,
}

impl fmt::Display for Edge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Edge::N => "N",
            Edge::E => "E",
            Edge::S => "S",
            Edge::W => "W",
        })
    }
}

/// The map's extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Map {
    /// Columns, left to right.
    pub columns: u16,
    /// Rows, bottom to top.
    pub rows: u16,
}

impl Map {
    /// The map as the contract's surface: a map of hexes.
    pub fn surface(self) -> Surface {
        Surface::Hexes {
            columns: self.columns,
            rows: self.rows,
        }
    }

    /// Whether the hex lies on the map.
    pub fn contains(self, hex: Hex) -> bool {
        u16::from(hex.col) < self.columns && u16::from(hex.row) < self.rows
    }

    /// How many hexes the map has.
    pub fn len(self) -> usize {
        usize::from(self.columns) * usize::from(self.rows)
    }

    /// Whether the map has no hexes.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The hex's index in a column-major list of the map's hexes.
    #[inline]
    pub fn index(self, hex: Hex) -> usize {
        usize::from(hex.col) * usize::from(self.rows) + usize::from(hex.row)
    }

    /// Every hex of the map, column by column.
    pub fn hexes(self) -> impl Iterator<Item = Hex> {
        let side = |n: u16| u8::try_from(n).unwrap_or(u8::MAX);
        (0..side(self.columns)).flat_map(move |c| (0..side(self.rows)).map(move |r| Hex::new(c, r)))
    }

    /// The hexes of the map at most `radius` steps from `hex`, itself
    /// among them, each once.
    pub fn within(self, hex: Hex, radius: u16) -> impl Iterator<Item = Hex> {
        hex.axial()
            .range(u32::from(radius))
            .filter_map(Hex::from_axial)
            .filter(move |h| self.contains(*h))
    }

    /// The neighbours of a hex that lie on the map, in a fixed order
    /// (clockwise from the one above).
    pub fn neighbours(self, hex: Hex) -> impl Iterator<Item = Hex> {
        let axial = hex.axial();
        // hexx's y axis runs down the map and the rows count up it, so its
        // south is the hex above.
        [
            EdgeDirection::FLAT_SOUTH,
            EdgeDirection::FLAT_SOUTH_EAST,
            EdgeDirection::FLAT_NORTH_EAST,
            EdgeDirection::FLAT_NORTH,
            EdgeDirection::FLAT_NORTH_WEST,
            EdgeDirection::FLAT_SOUTH_WEST,
        ]
        .into_iter()
        .filter_map(move |d| Hex::from_axial(axial.neighbor(d)))
        .filter(move |h| self.contains(*h))
    }

    /// Steps from the hex to leaving the map across `edge`: 1 for a hex on
    /// that edge.
    pub fn to_edge(self, hex: Hex, edge: Edge) -> u16 {
        1 + match edge {
            Edge::N => self.rows - 1 - u16::from(hex.row),
            Edge::S => u16::from(hex.row),
            Edge::W => u16::from(hex.col),
            Edge::E => self.columns - 1 - u16::from(hex.col),
        }
    }
}

/// The hexes strictly between two hexes on a line of fire (R66): the line
/// runs from centre to centre, and where it runs along the side between two
/// hexes both count. Nearest to `from` first; the ends are left out.
pub fn between(from: Hex, to: Hex) -> Vec<Hex> {
    let (a, b) = (from.axial(), to.axial());
    let n = a.unsigned_distance_to(b);
    let mut out: Vec<Hex> = Vec::new();
    if n < 2 {
        return out;
    }
    // A centre-to-centre line meets a hex side only at whole steps where the
    // point lies exactly on the side; nudging the line both ways picks each
    // hex of such a pair (Red Blob Games' line drawing, both nudges kept).
    let nudges: [[f32; 2]; 2] = [[1e-4, 2e-4], [-1e-4, -2e-4]];
    for i in 1..n {
        let t = i as f32 / n as f32;
        for [dx, dy] in nudges {
            let x = a.x as f32 + (b.x - a.x) as f32 * t + dx;
            let y = a.y as f32 + (b.y - a.y) as f32 * t + dy;
            if let Some(hex) = Hex::from_axial(hexx::Hex::round([x, y]))
                && hex != from
                && hex != to
                && !out.contains(&hex)
            {
                out.push(hex);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(name: &str) -> Hex {
        name.parse().unwrap()
    }

    fn neighbour_names(map: Map, name: &str) -> Vec<String> {
        let mut names: Vec<String> = map.neighbours(h(name)).map(|x| x.to_string()).collect();
        names.sort();
        names
    }

    #[test]
    fn r60_neighbours_are_the_rulings_lists() {
        let map = Map {
            columns: 10,
            rows: 10,
        };
        assert_eq!(
            neighbour_names(map, "C4"),
            ["B3", "B4", "C3", "C5", "D3", "D4"]
        );
        assert_eq!(
            neighbour_names(map, "B4"),
            ["A4", "A5", "B3", "B5", "C4", "C5"]
        );
        // At the map's corners only the hexes on the map are neighbours.
        // A1 has B1 (half a hex higher) beside it, and no B0 below that.
        assert_eq!(neighbour_names(map, "A1"), ["A2", "B1"]);
        assert_eq!(neighbour_names(map, "B1"), ["A1", "A2", "B2", "C1", "C2"]);
    }

    #[test]
    fn neighbours_are_listed_clockwise_from_the_hex_above() {
        let map = Map {
            columns: 10,
            rows: 10,
        };
        let order: Vec<String> = map.neighbours(h("C3")).map(|x| x.to_string()).collect();
        assert_eq!(order, ["C4", "D3", "D2", "C2", "B2", "B3"]);
        let order: Vec<String> = map.neighbours(h("B3")).map(|x| x.to_string()).collect();
        assert_eq!(order, ["B4", "C4", "C3", "B2", "A3", "A4"]);
    }

    #[test]
    fn neighbours_are_one_step_apart_and_touch_both_ways() {
        let map = Map {
            columns: 7,
            rows: 6,
        };
        for hex in map.hexes() {
            for n in map.neighbours(hex) {
                assert_eq!(hex.distance(n), 1, "{hex} {n}");
                assert!(map.neighbours(n).any(|b| b == hex), "{hex} {n}");
            }
        }
    }

    #[test]
    fn distances_count_steps() {
        assert_eq!(h("C4").distance(h("C7")), 3);
        assert_eq!(h("A1").distance(h("D1")), 3);
        assert_eq!(h("A1").distance(h("B1")), 1);
        assert_eq!(h("A1").distance(h("B2")), 2);
        // Up the columns A1, B1, C2, D2, E3, F3, then F4.
        assert_eq!(h("A1").distance(h("F4")), 6);
    }

    #[test]
    fn r66_a_line_along_a_hex_side_counts_both_hexes() {
        // C4 to C7 runs straight up the column: no side is followed.
        assert_eq!(between(h("C4"), h("C7")), [h("C5"), h("C6")]);
        // C4 to E5 runs through the middle of D4.
        assert_eq!(between(h("C4"), h("E5")), [h("D4")]);
        // C4 to D5 runs along the side between C5 and D4: both are on the
        // line.
        let mut line = between(h("C4"), h("D5"));
        line.sort();
        assert_eq!(line, [h("C5"), h("D4")]);
        // B2 to E5: the middle of the line lies on the side between C4 and
        // D3, both counted, with C3 before and D4 after.
        let mut line = between(h("B2"), h("E5"));
        line.sort();
        assert_eq!(line, [h("C3"), h("C4"), h("D3"), h("D4")]);
        // Neighbours have nothing between them.
        assert!(between(h("C4"), h("D4")).is_empty());
    }

    #[test]
    fn edges_are_counted_from_the_hex() {
        let map = Map {
            columns: 10,
            rows: 8,
        };
        assert_eq!(map.to_edge(h("A1"), Edge::S), 1);
        assert_eq!(map.to_edge(h("A1"), Edge::W), 1);
        assert_eq!(map.to_edge(h("A1"), Edge::N), 8);
        assert_eq!(map.to_edge(h("J8"), Edge::E), 1);
    }
}
