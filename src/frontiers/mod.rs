//! Frontiers on the table: the open table at its real size (R100), its
//! terrain, building elements and units as the rules crate holds them,
//! played through the game contract with the move notation, each player
//! seeing only what they may (R149) and the curtain between them. One
//! world unit is 30 mm (one LNS at the default, R100), near the size of
//! a Cache square and a battle's hex, so the camera frames all three
//! alike; the table's centre is the world's origin, its left edge to -X
//! and its near edge (the first seat's) to +Z.

pub mod choices;
pub mod draft;
pub mod dress;
pub mod files;
pub mod hand;
pub mod layout;
pub mod layout_panel;
pub mod panel;
pub mod play;
pub mod table;

use bevy::prelude::*;
use sandtable_frontiers::geometry::Pt;

pub use table::{ActiveSkirmish, Frontiers, SkirmishLoaded};

/// The skirmish's entities and its flow, without rendering (headless
/// tests use it).
pub fn plugin(app: &mut App) {
    app.add_plugins((
        table::plugin,
        play::plugin,
        hand::plugin,
        choices::plugin,
        layout::plugin,
    ));
    crate::session::open::join_table::<table::Frontiers>(app, files::opener());
}

/// The skirmish's looks, panel and labels, for a table with a window.
pub fn window_plugin(app: &mut App) {
    app.add_plugins((
        dress::plugin,
        panel::plugin,
        hand::window_plugin,
        choices::window_plugin,
        layout_panel::plugin,
    ));
}

/// Millimetres in one world unit.
pub const UNIT_MM: f32 = 30.0;

/// Where a point of the table, in mm from its left and near edges, lies
/// in the world, on the table top: the table of `table` mm centred on the
/// origin.
pub fn world(table: (u16, u16), x_mm: f32, y_mm: f32) -> Vec3 {
    Vec3::new(
        (x_mm - f32::from(table.0) / 2.0) / UNIT_MM,
        0.0,
        -(y_mm - f32::from(table.1) / 2.0) / UNIT_MM,
    )
}

/// As [`world`], for a whole-mm point.
pub fn world_pt(table: (u16, u16), p: Pt) -> Vec3 {
    world(table, p.x as f32, p.y as f32)
}

/// The point of the table, in whole mm from its left and near edges, at a
/// place of the world: the inverse of [`world`].
pub fn table_pt(table: (u16, u16), at: Vec3) -> Pt {
    Pt::new(
        (at.x * UNIT_MM + f32::from(table.0) / 2.0).round() as i32,
        (-at.z * UNIT_MM + f32::from(table.1) / 2.0).round() as i32,
    )
}

/// How high the table top stands at a point: on a hill, the hill's
/// height as it is drawn ([`dress::terrain_look`]); else 0.
pub fn ground(setup: &sandtable_frontiers::Setup, p: Pt) -> f32 {
    setup
        .terrain
        .iter()
        .filter(|t| t.kind == sandtable_frontiers::setup::TerrainKind::Hill)
        .filter(|t| sandtable_frontiers::setup::point_in(p, &t.corners))
        .map(|t| dress::terrain_look(t.kind).1)
        .fold(0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_point_and_its_world_place_are_one() {
        let table = (1219, 610);
        // The corners: the near left one at (-x, +z), the far right at
        // (+x, -z), 30 mm a unit.
        let near_left = world(table, 0.0, 0.0);
        assert!((near_left.x + 1219.0 / 60.0).abs() < 1e-4);
        assert!((near_left.z - 610.0 / 60.0).abs() < 1e-4);
        let far_right = world(table, 1219.0, 610.0);
        assert!((far_right.x - 1219.0 / 60.0).abs() < 1e-4);
        assert!((far_right.z + 610.0 / 60.0).abs() < 1e-4);
        for p in [Pt::new(0, 0), Pt::new(150, 90), Pt::new(1219, 610)] {
            assert_eq!(table_pt(table, world_pt(table, p)), p);
        }
        // One LNS (30 mm) is one unit.
        let d = world(table, 100.0, 100.0).distance(world(table, 130.0, 100.0));
        assert!((d - 1.0).abs() < 1e-5);
    }

    #[test]
    fn a_unit_on_a_hill_stands_on_its_top() {
        use sandtable_frontiers::setup::{Terrain, TerrainKind};
        let hill = |corners: Vec<Pt>| Terrain {
            kind: TerrainKind::Hill,
            corners,
        };
        let setup = sandtable_frontiers::Setup {
            terrain: vec![hill(vec![
                Pt::new(100, 100),
                Pt::new(300, 100),
                Pt::new(300, 200),
                Pt::new(200, 150),
                Pt::new(100, 200),
            ])],
            ..sandtable_frontiers::Setup::default()
        };
        let top = dress::terrain_look(TerrainKind::Hill).1;
        assert_eq!(ground(&setup, Pt::new(150, 120)), top);
        // In the notch of the concave hill, and off it: the table top.
        assert_eq!(ground(&setup, Pt::new(200, 190)), 0.0);
        assert_eq!(ground(&setup, Pt::new(50, 50)), 0.0);
    }
}
