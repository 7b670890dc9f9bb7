//! The Warpspawn battle on the table: where each hex of the map stands in
//! the world, how its terrain reads, and where the figures of a body of men
//! and its pieces stand inside a hex. One world unit is one hex between its
//! flat sides (the scenario's `hex_mm`), as one unit is one square for
//! Cache, so the camera, the rulers and the sheet measure both alike.

pub mod draft;
pub mod dress;
pub mod files;
pub mod layout;
pub mod layout_panel;
pub mod looks;
pub mod panel;
pub mod play;
pub mod ring;
pub mod ring_dress;
pub mod ring_panel;
pub mod ring_play;
pub mod table;

use bevy::prelude::*;
use sandtable_scenario::battle::HexPhysical;
use sandtable_warpspawn::{Hex, Map};

pub use play::{BattleInput, BattlePick};
pub use table::{ActiveBattle, BattleLoaded};

/// The battle's entities, without rendering (headless tests use it).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        table::plugin,
        play::plugin,
        ring::plugin,
        ring_play::plugin,
        layout::plugin,
    ));
    crate::session::open::join_table::<table::Warpspawn>(app, files::opener());
}

/// The battle's looks, panel and labels, for a table with a window.
pub fn window_plugin(app: &mut App) {
    app.add_plugins((
        dress::plugin,
        ring_dress::plugin,
        panel::plugin,
        layout_panel::plugin,
    ));
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
}
