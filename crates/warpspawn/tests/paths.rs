//! The marching steps to a home edge, and between two hexes, round
//! impassable hexes (R69), which the bots' pull toward the enemy's edge and
//! their prospects of an attack count.

use sandtable_core::dice::Dice;
use sandtable_warpspawn::{Game, Hex, Map, Side, Terrain, samples};

fn battle(columns: u16, rows: u16, terrain: Vec<(Hex, Terrain)>) -> Game {
    let setup = samples::field(
        columns,
        rows,
        vec![
            samples::pieces(0, "A1", 4, 0, 0),
            samples::pieces(1, "B1", 4, 0, 0),
        ],
        terrain,
    );
    Game::new(&setup, Dice::seeded(1)).expect("a valid battle")
}

/// A river along row 4 from A to I, bridged at F4 only.
fn river() -> Vec<(Hex, Terrain)> {
    let bridge: Hex = "F4".parse().expect("a hex");
    (0..9u8)
        .map(|col| {
            let hex = Hex::new(col, 3);
            let kind = if hex == bridge {
                Terrain::Bridge
            } else {
                Terrain::River
            };
            (hex, kind)
        })
        .collect()
}

fn every_hex(map: Map) -> impl Iterator<Item = Hex> {
    map.hexes()
}

#[test]
fn on_an_open_map_the_path_home_is_the_straight_count() {
    let game = battle(9, 7, Vec::new());
    let b = game.battle();
    for hex in every_hex(b.map) {
        for side in [Side(0), Side(1)] {
            assert_eq!(
                b.path_home(hex, side),
                b.to_home(hex, side),
                "{hex} {side:?}"
            );
        }
    }
}

#[test]
fn across_a_river_the_path_home_goes_by_the_bridge() {
    // A river along row 4 from A to I, bridged at F4 only. Red's home is
    // the south edge: north of the river its way lies over F4.
    let bridge: Hex = "F4".parse().expect("a hex");
    let game = battle(9, 7, river());
    let b = game.battle();
    let red = Side(0);
    let mut longer = 0;
    for hex in every_hex(b.map) {
        let path = b.path_home(hex, red);
        match hex.row {
            0..=2 => assert_eq!(path, b.to_home(hex, red), "{hex}: south of the river"),
            3 if hex != bridge => assert!(path > b.to_home(hex, red) + 9, "{hex}: in the river"),
            _ => {
                // Over the bridge, whose own way south is straight.
                let by_bridge = hex.distance(bridge) + b.to_home(bridge, red);
                assert_eq!(path, by_bridge, "{hex}: by the bridge");
                longer += usize::from(path > b.to_home(hex, red));
            }
        }
    }
    // Of the 27 hexes north of the river, the 9 in the cone over the bridge
    // go as straight as ever; the other 18 go round.
    assert_eq!(longer, 18, "hexes north of the river that go round");
    // Blue's home is the north edge: its way south of the river is by the
    // bridge too, and north of it straight.
    let blue = Side(1);
    let g1: Hex = "G1".parse().expect("a hex");
    assert_eq!(
        b.path_home(g1, blue),
        g1.distance(bridge) + b.to_home(bridge, blue)
    );
}

#[test]
fn a_hex_cut_off_from_the_edge_is_farther_than_any_with_a_way() {
    // Water all round D4.
    let centre: Hex = "D4".parse().expect("a hex");
    let game = battle(9, 7, Vec::new());
    let ring: Vec<(Hex, Terrain)> = game
        .battle()
        .neighbours(centre)
        .iter()
        .map(|h| (*h, Terrain::Water))
        .collect();
    let game = battle(9, 7, ring);
    let b = game.battle();
    let far = b
        .map
        .hexes()
        .filter(|h| *h != centre && b.terrain(*h) != Terrain::Water)
        .map(|h| b.path_home(h, Side(0)))
        .max()
        .expect("hexes");
    assert!(b.path_home(centre, Side(0)) > far);
    assert_eq!(
        b.path_home(centre, Side(0)),
        b.to_home(centre, Side(0)) + 9 + 7
    );
}

#[test]
fn on_an_open_map_the_path_between_two_hexes_is_the_straight_count() {
    let game = battle(9, 7, Vec::new());
    let b = game.battle();
    for from in every_hex(b.map) {
        for to in every_hex(b.map) {
            assert_eq!(b.path(from, to), from.distance(to), "{from} to {to}");
        }
    }
}

#[test]
fn across_a_river_the_path_between_two_banks_goes_by_the_bridge() {
    let bridge: Hex = "F4".parse().expect("a hex");
    let game = battle(9, 7, river());
    let b = game.battle();
    // F sits half a hex higher (R60): F4 touches F3 on the south bank and
    // E5, F5 and G5 on the north.
    let south: Hex = "F3".parse().expect("a hex");
    let north: Vec<Hex> = b
        .neighbours(bridge)
        .iter()
        .copied()
        .filter(|h| h.row > 3)
        .collect();
    assert_eq!(north.len(), 3);
    let (mut across, mut round) = (0, 0);
    for from in every_hex(b.map).filter(|h| h.row < 3) {
        for to in every_hex(b.map).filter(|h| h.row > 3) {
            let by_bridge = north
                .iter()
                .map(|n| from.distance(south) + 2 + n.distance(to))
                .min()
                .expect("a way north");
            assert_eq!(b.path(from, to), by_bridge, "{from} to {to}");
            assert_eq!(b.path(to, from), by_bridge, "{to} to {from}");
            across += 1;
            round += usize::from(by_bridge > from.distance(to));
        }
    }
    assert_eq!(across, 27 * 27);
    // Most pairs go round: the river is in the way.
    assert!(round > across / 2, "{round} of {across}");
    // On the same bank the way is straight.
    let (a1, i3): (Hex, Hex) = ("A1".parse().expect("a hex"), "I3".parse().expect("a hex"));
    assert_eq!(b.path(a1, i3), a1.distance(i3));
}

#[test]
fn on_a_map_too_large_for_the_table_the_path_is_the_straight_count() {
    // 40 x 30 hexes are more than the battle works out ways between.
    let terrain: Vec<(Hex, Terrain)> = (0..40u8)
        .map(|c| (Hex::new(c, 10), Terrain::River))
        .collect();
    let game = battle(40, 30, terrain);
    let b = game.battle();
    assert!(b.map.len() > sandtable_warpspawn::PATHS_UP_TO);
    let (a1, a20): (Hex, Hex) = ("A1".parse().expect("a hex"), "A20".parse().expect("a hex"));
    assert_eq!(b.path(a1, a20), a1.distance(a20));
}
