//! The Warpspawn battle on the table: where each hex of the map stands in
//! the world, how its terrain reads, and where the figures of a body of men
//! and its pieces stand inside a hex. One world unit is one hex between its
//! flat sides (the scenario's `hex_mm`), as one unit is one square for
//! Cache, so the camera, the rulers and the sheet measure both alike.

pub mod dress;
pub mod looks;
pub mod panel;
pub mod table;

use bevy::prelude::*;
use sandtable_scenario::battle::HexPhysical;
use sandtable_warpspawn::{Hex, Map};

pub use table::{ActiveBattle, BattleLoaded};

/// The battle's entities, without rendering (headless tests use it).
pub fn plugin(app: &mut App) {
    app.add_plugins(table::plugin);
}

/// The battle's looks, panel and labels, for a table with a window.
pub fn window_plugin(app: &mut App) {
    app.add_plugins((dress::plugin, panel::plugin));
}

/// A hex's width between its flat sides, in world units.
pub const HEX: f32 = 1.0;

/// The map's geometry in world units: the physical table's geometry with
/// one unit a hex, the map centred on the world's origin.
fn unit_geometry() -> HexPhysical {
    HexPhysical {
        hex_mm: f64::from(HEX),
        table_mm: (0.0, 0.0),
        figure_scale_mm: 0.0,
    }
}

/// The map's width (along X) and depth (along -Z) in world units.
pub fn map_size(map: Map) -> Vec2 {
    let (w, d) = unit_geometry().map_mm(map);
    Vec2::new(w as f32, d as f32)
}

/// World position of a hex's centre on the table top: columns run to +X,
/// rows away from the near edge (-Z), the 2nd, 4th ... columns half a hex
/// further (R60). The same place as the sheet's `hex_centre_mm`, in hexes.
pub fn hex_center(map: Map, hex: Hex) -> Vec3 {
    let side = HEX / 3f32.sqrt();
    let x = side + 1.5 * side * f32::from(hex.col);
    let raised = if hex.col % 2 == 1 { 0.5 } else { 0.0 };
    let y = HEX * (0.5 + f32::from(hex.row) + raised);
    let size = map_size(map);
    Vec3::new(x - size.x / 2.0, 0.0, -(y - size.y / 2.0))
}

/// The six corners of a flat-topped hex around its centre, counterclockwise
/// from the one on the right, on the table top.
pub fn hex_corners() -> [Vec3; 6] {
    let radius = HEX / 3f32.sqrt();
    std::array::from_fn(|i| {
        let angle = std::f32::consts::FRAC_PI_3 * i as f32;
        Vec3::new(radius * angle.cos(), 0.0, -radius * angle.sin())
    })
}

/// The hex under a point of the table top, if the point is on the map: the
/// nearest hex centre (a point is in the hex whose centre is nearest).
pub fn hex_at(map: Map, at: Vec3) -> Option<Hex> {
    let size = map_size(map);
    let side = HEX / 3f32.sqrt();
    // The column is within one of the one the point's x suggests.
    let col_guess = ((at.x + size.x / 2.0 - side) / (1.5 * side)).round() as i32;
    let mut best: Option<(f32, Hex)> = None;
    for col in col_guess - 1..=col_guess + 1 {
        if col < 0 || col >= i32::from(map.columns) {
            continue;
        }
        let raised = if col % 2 == 1 { 0.5 } else { 0.0 };
        let row_guess = (-at.z + size.y / 2.0 - 0.5 - raised).round() as i32;
        for row in row_guess - 1..=row_guess + 1 {
            if row < 0 || row >= i32::from(map.rows) {
                continue;
            }
            let hex = Hex::new(col as u8, row as u8);
            let d = hex_center(map, hex).distance_squared(Vec3::new(at.x, 0.0, at.z));
            if best.is_none_or(|(b, _)| d < b) {
                best = Some((d, hex));
            }
        }
    }
    // Off the map beyond the outermost hexes' sides.
    best.filter(|(d, _)| *d <= (HEX / 3f32.sqrt()).powi(2))
        .map(|(_, hex)| hex)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map() -> Map {
        Map {
            columns: 16,
            rows: 12,
        }
    }

    #[test]
    fn neighbours_stand_one_hex_apart_and_odd_columns_are_raised() {
        let m = map();
        let a1 = hex_center(m, Hex::new(0, 0));
        let a2 = hex_center(m, Hex::new(0, 1));
        let b1 = hex_center(m, Hex::new(1, 0));
        assert!((a1.distance(a2) - HEX).abs() < 1e-5, "up a column: one hex");
        assert!(
            (a1.distance(b1) - HEX).abs() < 1e-5,
            "A1 and B1 touch (R60)"
        );
        assert!(b1.z < a1.z, "B1 stands half a hex further than A1 (R60)");
        // Every neighbour of every hex is exactly one hex away, and no other
        // hex is that close.
        for hex in m.hexes() {
            for other in m.hexes() {
                let d = hex_center(m, hex).distance(hex_center(m, other));
                let touching = hex.touches(other);
                assert_eq!(
                    (d - HEX).abs() < 1e-4,
                    touching,
                    "{hex} and {other}: {d} apart"
                );
            }
        }
    }

    #[test]
    fn the_map_is_centred_on_the_origin() {
        let m = map();
        let size = map_size(m);
        let first = hex_center(m, Hex::new(0, 0));
        let last = hex_center(m, Hex::new(15, 11));
        let side = HEX / 3f32.sqrt();
        assert!((first.x - side + size.x / 2.0).abs() < 1e-5);
        assert!((last.x + side - size.x / 2.0).abs() < 1e-5);
        assert!((first.z - (size.y / 2.0 - 0.5)).abs() < 1e-5);
        // P12, in a raised column, reaches the far edge.
        assert!((last.z - (-size.y / 2.0 + 0.5)).abs() < 1e-5);
    }

    #[test]
    fn a_hex_centre_is_where_the_physical_table_puts_it() {
        // The sheet and the layout measure in mm from the table's corner;
        // the world is in hexes from its centre: the two agree.
        let m = map();
        let physical = HexPhysical::assumed(m);
        let (tw, td) = physical.table_mm;
        let scale = physical.hex_mm;
        for hex in m.hexes() {
            let (x, y) = physical.hex_centre_mm(m, hex);
            let world = hex_center(m, hex);
            assert!(
                (f64::from(world.x) * scale + tw / 2.0 - x).abs() < 1e-3,
                "{hex}"
            );
            assert!(
                (-f64::from(world.z) * scale + td / 2.0 - y).abs() < 1e-3,
                "{hex}"
            );
        }
    }

    #[test]
    fn corners_lie_one_side_from_the_centre_and_flat_sides_half_a_hex() {
        let corners = hex_corners();
        let side = HEX / 3f32.sqrt();
        for c in corners {
            assert!((c.length() - side).abs() < 1e-5);
        }
        // Corners 1 and 2 make the far flat side, half a hex from the centre.
        assert!((corners[1].z - corners[2].z).abs() < 1e-5);
        assert!((corners[1].z + HEX / 2.0).abs() < 1e-5);
    }

    #[test]
    fn a_point_belongs_to_the_hex_whose_centre_is_nearest() {
        let m = map();
        for hex in m.hexes() {
            let c = hex_center(m, hex);
            assert_eq!(hex_at(m, c), Some(hex), "the centre of {hex}");
            // Just inside each flat side and each corner.
            for corner in hex_corners() {
                assert_eq!(hex_at(m, c + corner * 0.9), Some(hex), "{hex}");
            }
        }
        let size = map_size(m);
        assert_eq!(hex_at(m, Vec3::new(-size.x, 0.0, 0.0)), None, "off the map");
        assert_eq!(
            hex_at(m, Vec3::new(0.0, 0.0, size.y)),
            None,
            "off the near edge"
        );
    }
}
