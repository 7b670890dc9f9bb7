//! Sample setups for documentation, tests and benchmarks: small, fixed tables
//! built in code. Scenario files are the scenario crate's business.

use crate::geometry::{Board, Facing, Square};
use crate::setup::{FactorSetup, PlayerSetup, Setup, UnitSetup};
use crate::terrain::{TerrainKind, TerrainPiece};

fn sq(name: &str) -> Square {
    name.parse().expect("sample squares are valid names")
}

fn piece(kind: TerrainKind, squares: &[&str]) -> TerrainPiece {
    TerrainPiece {
        kind,
        squares: squares.iter().map(|s| sq(s)).collect(),
    }
}

/// Ten units in two rows of five around a base, all facing `facing`.
fn factor(base: &str, cols: [&str; 5], rows: [u16; 2], facing: Facing) -> FactorSetup {
    let units = rows
        .iter()
        .flat_map(|row| {
            cols.iter().map(move |col| UnitSetup {
                at: sq(&format!("{col}{row}")),
                facing,
                name: None,
            })
        })
        .collect();
    FactorSetup {
        base: sq(base),
        units,
    }
}

/// A 24 x 15 table (the seed's Table A) for two players with one Factor of ten
/// units each, facing each other across low walls, water, woods and a road.
pub fn table_a_skirmish(seed: u64, turn_limit: Option<u32>) -> Setup {
    Setup {
        board: Board {
            columns: 24,
            rows: 15,
        },
        players: vec![
            PlayerSetup {
                name: "Red".to_owned(),
                factors: vec![factor("D8", ["B", "C", "D", "E", "F"], [7, 9], Facing::E)],
            },
            PlayerSetup {
                name: "Blue".to_owned(),
                factors: vec![factor("U8", ["S", "T", "U", "V", "W"], [7, 9], Facing::W)],
            },
        ],
        terrain: vec![
            piece(TerrainKind::LowWall, &["J6", "J7", "J8", "J9", "J10"]),
            piece(TerrainKind::LowWall, &["O6", "O7", "O8", "O9", "O10"]),
            piece(TerrainKind::Woods, &["L2", "L3", "M2", "M3"]),
            piece(TerrainKind::Mountain, &["L12", "L13", "M13"]),
            piece(TerrainKind::Water, &["L7", "M7", "L8", "M8", "L9", "M9"]),
            piece(
                TerrainKind::Road,
                &[
                    "A12", "B12", "C12", "D12", "E12", "F12", "G12", "H12", "I12", "J12", "K12",
                ],
            ),
            piece(TerrainKind::Bridge { elevated: false }, &["L10", "M10"]),
        ],
        first_player: Some(0),
        seed,
        turn_limit,
        stashes: Vec::new(),
        stash_list: Default::default(),
    }
}

/// [`table_a_skirmish`] as The Snyder Skirmish: six stashes between the
/// armies, the seed's stash list.
pub fn table_a_snyder(seed: u64, turn_limit: Option<u32>) -> Setup {
    Setup {
        stashes: ["I8", "P8", "K5", "N5", "K11", "N11"]
            .iter()
            .map(|s| sq(s))
            .collect(),
        ..table_a_skirmish(seed, turn_limit)
    }
}
