//! Small battles for examples, tests and benches, built in code.

use crate::hex::{Edge, Hex, Map};
use crate::offboard::plug::{Setup, Switches};
use crate::setup::{PiecesSetup, SideSetup, Terrain};

fn h(name: &str) -> Hex {
    name.parse().expect("a sample names its hexes rightly")
}

/// Pieces of a side in a hex: infantry, cavalry, officers, with nothing
/// else.
pub fn pieces(side: usize, at: &str, infantry: u16, cavalry: u16, officers: u16) -> PiecesSetup {
    PiecesSetup {
        at: h(at),
        side,
        infantry,
        cavalry,
        officers,
        ..PiecesSetup::default()
    }
}

/// Every hex of the map: any side may deploy anywhere.
pub fn everywhere(map: Map) -> Vec<Hex> {
    map.hexes().collect()
}

/// An 8 x 8 field: Red (home S) with a cannon and 6 infantry in C3 and 4
/// cavalry with an officer in D2; Blue (home N) with 8 infantry in C6 and 4
/// cavalry in E6. Red plays first; 4 game turns.
pub fn skirmish() -> Setup {
    let map = Map {
        columns: 8,
        rows: 8,
    };
    Setup {
        map,
        terrain: vec![(h("F4"), Terrain::Trees), (h("A5"), Terrain::Water)],
        sides: vec![
            SideSetup {
                name: "Red".into(),
                home: Edge::S,
                deployment: everywhere(map),
                points: 100,
            },
            SideSetup {
                name: "Blue".into(),
                home: Edge::N,
                deployment: everywhere(map),
                points: 100,
            },
        ],
        pieces: vec![
            PiecesSetup {
                cannon: true,
                ..pieces(0, "C3", 6, 0, 0)
            },
            pieces(0, "D2", 0, 4, 1),
            pieces(1, "C6", 8, 0, 0),
            pieces(1, "E6", 0, 4, 0),
        ],
        turns: 4,
        seed: 1,
        first_player: Some(0),
        switches: Switches::default(),
        offboard: None,
    }
}

/// A battle of the given pieces on an open `columns` x `rows` field, Red
/// (home S) against Blue (home N), Red first, 10 game turns; for tests that
/// set up one situation.
pub fn field(
    columns: u16,
    rows: u16,
    pieces: Vec<PiecesSetup>,
    terrain: Vec<(Hex, Terrain)>,
) -> Setup {
    let map = Map { columns, rows };
    Setup {
        map,
        terrain,
        sides: vec![
            SideSetup {
                name: "Red".into(),
                home: Edge::S,
                deployment: everywhere(map),
                points: 1000,
            },
            SideSetup {
                name: "Blue".into(),
                home: Edge::N,
                deployment: everywhere(map),
                points: 1000,
            },
        ],
        pieces,
        turns: 10,
        seed: 7,
        first_player: Some(0),
        switches: Switches::default(),
        offboard: None,
    }
}

/// A 16 x 12 battle of 100 points a side, with woods, a farm, a fort, a
/// trench, a stream with a bridge and a hill: Red (home S) against Blue
/// (home N), the first player tossed for; 6 game turns.
pub fn battle(seed: u64) -> Setup {
    let map = Map {
        columns: 16,
        rows: 12,
    };
    let mut terrain = Vec::new();
    for name in ["F6", "F7", "G6", "G7", "E6"] {
        terrain.push((h(name), Terrain::Trees));
    }
    for name in ["K6", "L6"] {
        terrain.push((h(name), Terrain::Buildings));
    }
    terrain.push((h("K7"), Terrain::LowWall));
    terrain.push((h("C9"), Terrain::Fort));
    for name in ["B8", "D8", "E9"] {
        terrain.push((h(name), Terrain::Trench));
    }
    for name in ["A6", "B6", "C6", "D6"] {
        terrain.push((h(name), Terrain::River));
    }
    terrain.push((h("N7"), Terrain::Mountain));
    terrain.push((h("O6"), Terrain::Bocage));
    terrain.push((h("H5"), Terrain::Road));
    terrain.push((h("H6"), Terrain::Road));
    terrain.push((h("H7"), Terrain::Road));
    let south: Vec<Hex> = map.hexes().filter(|x| x.row < 4).collect();
    let north: Vec<Hex> = map.hexes().filter(|x| x.row >= 8).collect();
    let mut red = vec![
        PiecesSetup {
            flag: true,
            ..pieces(0, "B3", 16, 0, 1)
        },
        PiecesSetup {
            cannon: true,
            ..pieces(0, "E2", 6, 0, 0)
        },
        pieces(0, "G3", 0, 12, 1),
        pieces(0, "J3", 15, 0, 0),
        PiecesSetup {
            baggage: true,
            ..pieces(0, "D2", 8, 0, 0)
        },
        pieces(0, "H2", 0, 8, 0),
        pieces(0, "L3", 7, 0, 0),
    ];
    let mut blue = vec![
        PiecesSetup {
            flag: true,
            ..pieces(1, "C9", 14, 0, 1)
        },
        PiecesSetup {
            cannon: true,
            ..pieces(1, "F10", 8, 0, 0)
        },
        PiecesSetup {
            cannon: true,
            ..pieces(1, "J10", 5, 0, 0)
        },
        pieces(1, "E9", 12, 0, 0),
        pieces(1, "H9", 0, 10, 1),
        pieces(1, "L9", 10, 2, 0),
    ];
    red.append(&mut blue);
    Setup {
        map,
        terrain,
        sides: vec![
            SideSetup {
                name: "Red".into(),
                home: Edge::S,
                deployment: south,
                points: 100,
            },
            SideSetup {
                name: "Blue".into(),
                home: Edge::N,
                deployment: north,
                points: 100,
            },
        ],
        pieces: red,
        turns: 6,
        seed,
        first_player: None,
        switches: Switches::default(),
        offboard: None,
    }
}

/// A 9 x 7 brawl: both sides' formations start a hex or two apart, with
/// cannon, baggage, flags, officers and cover among them, so that fire,
/// melee, routs, surrenders and rallies come at once. Red (home S) plays
/// first; 5 game turns.
pub fn brawl(seed: u64) -> Setup {
    let mut setup = field(
        9,
        7,
        vec![
            PiecesSetup {
                cannon: true,
                ..pieces(0, "B2", 5, 0, 0)
            },
            PiecesSetup {
                flag: true,
                ..pieces(0, "C3", 12, 0, 1)
            },
            pieces(0, "D3", 6, 6, 0),
            PiecesSetup {
                baggage: true,
                ..pieces(0, "E2", 4, 0, 0)
            },
            pieces(0, "F3", 0, 8, 1),
            pieces(0, "H3", 9, 0, 0),
            PiecesSetup {
                cannon: true,
                ..pieces(1, "G6", 6, 0, 0)
            },
            PiecesSetup {
                flag: true,
                ..pieces(1, "C5", 10, 0, 0)
            },
            pieces(1, "D5", 8, 3, 1),
            pieces(1, "E4", 7, 0, 0),
            pieces(1, "F5", 0, 6, 0),
            PiecesSetup {
                baggage: true,
                ..pieces(1, "H5", 4, 2, 1)
            },
        ],
        vec![
            ("E4".parse().expect("a hex"), Terrain::Trees),
            ("C5".parse().expect("a hex"), Terrain::Fort),
            ("G4".parse().expect("a hex"), Terrain::Water),
            ("A4".parse().expect("a hex"), Terrain::Buildings),
        ],
    );
    setup.seed = seed;
    setup.turns = 5;
    setup
}

/// Hexes of the rectangle between two corners, as scenario files write
/// `A1:P3`.
fn area(a: &str, b: &str) -> Vec<Hex> {
    let (a, b) = (h(a), h(b));
    (a.col.min(b.col)..=a.col.max(b.col))
        .flat_map(|c| (a.row.min(b.row)..=a.row.max(b.row)).map(move |r| Hex::new(c, r)))
        .collect()
}

/// The shipped open-field battle (`scenarios/warpspawn/open-field.ron`),
/// built in code for benches and tests; the scenario crate's tests check
/// that the file loads to exactly this.
pub fn open_field() -> Setup {
    let map = Map {
        columns: 16,
        rows: 12,
    };
    let mut terrain: Vec<(Hex, Terrain)> = area("H1", "H12")
        .into_iter()
        .map(|x| (x, Terrain::Road))
        .collect();
    for (names, kind) in [
        (&["D6", "D7", "E6", "E7", "F7"][..], Terrain::Trees),
        (&["K6", "L6"][..], Terrain::Buildings),
        (&["K7", "L7", "M6"][..], Terrain::LowWall),
        (&["J5", "M5"][..], Terrain::Bocage),
    ] {
        terrain.extend(names.iter().map(|n| (h(n), kind)));
    }
    terrain.sort();
    let side = |name: &str, home, deployment| SideSetup {
        name: name.into(),
        home,
        deployment,
        points: 100,
    };
    let army = |s: usize, row: &str| {
        let at = |c: &str| format!("{c}{row}");
        vec![
            PiecesSetup {
                flag: true,
                ..pieces(s, &at("C"), 16, 0, 1)
            },
            PiecesSetup {
                cannon: true,
                ..pieces(s, &at("F"), 8, 0, 0)
            },
            pieces(s, &at("H"), 14, 0, 0),
            pieces(s, &at("J"), 0, 10, 1),
            PiecesSetup {
                baggage: true,
                ..pieces(s, &at("L"), 10, 0, 0)
            },
            pieces(s, &at("N"), 19, 0, 0),
        ]
    };
    let mut all = army(0, "2");
    all.extend(army(1, "11"));
    Setup {
        map,
        terrain,
        sides: vec![
            side("Red", Edge::S, area("A1", "P3")),
            side("Blue", Edge::N, area("A10", "P12")),
        ],
        pieces: all,
        turns: 10,
        seed: 42,
        first_player: None,
        switches: Switches::default(),
        offboard: None,
    }
}

/// `scenarios/warpspawn/flank-march.ron`: the open field with the
/// off-board grid (R40-R57). Each side's cannon stands at L, its horse
/// (10 cavalry and an officer) waits as counter 1 beyond the right flank
/// (Red in 1S, Blue in 16S), Red's foot and baggage as counter 2 beside L1
/// (2N), and Blue's column of foot and baggage as counter 2 round the
/// flank in 5S, out of its reserve. Red plays first.
pub fn flank_march() -> Setup {
    use crate::offboard::counter::Composition;
    use crate::offboard::setup::{CounterSetup, OffboardSetup};
    let mut setup = open_field();
    setup.pieces.retain(|p| p.cavalry == 0 && !p.baggage);
    for p in &mut setup.pieces {
        if p.cannon {
            p.at = h(if p.side == 0 { "L2" } else { "L11" });
        }
    }
    setup.pieces.sort_by_key(|p| (p.side, p.at.col, p.at.row));
    let counter = |number: u16, side: usize, at: &str, pieces: Composition| CounterSetup {
        number,
        side,
        at: at.parse().expect("a sample names its squares rightly"),
        pieces,
    };
    let horse = Composition {
        cavalry: 10,
        officers: 1,
        ..Composition::default()
    };
    let foot = Composition {
        infantry: 10,
        baggage: true,
        ..Composition::default()
    };
    setup.offboard = Some(OffboardSetup {
        counters: vec![
            counter(1, 0, "1S", horse),
            counter(2, 0, "2N", foot),
            counter(1, 1, "16S", horse),
            counter(2, 1, "5S", foot),
        ],
        ..OffboardSetup::default()
    });
    setup.first_player = Some(0);
    setup
}
