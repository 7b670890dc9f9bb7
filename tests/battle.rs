//! Headless tests of a Warpspawn battle on the table: `MinimalPlugins` with
//! Sandtable's logic, no window and no renderer.

use bevy::prelude::*;
use sandtable::warpspawn::table::{BattlePiece, Formation, HexTile};
use sandtable::warpspawn::{ActiveBattle, BattleLoaded, looks::Slot};
use sandtable_scenario::Loaded;
use sandtable_warpspawn::{Hex, Side, Terrain};

fn battle_app(name: &str) -> App {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn")
        .join(name);
    let Ok(Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path) else {
        panic!("{name} is a battle");
    };
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin);
    app.insert_resource(ActiveBattle::new(battle).expect("it starts"));
    app.world_mut().write_message(BattleLoaded);
    app.update();
    app
}

fn all<T: Component + Copy>(app: &mut App) -> Vec<T> {
    app.world_mut()
        .query::<&T>()
        .iter(app.world())
        .copied()
        .collect()
}

#[test]
fn a_hex_map_spawns_one_entity_per_hex_formation_and_piece() {
    // Every kind of piece is met somewhere, so that no count below is of nothing.
    let mut seen = std::collections::BTreeSet::new();
    for name in [
        "open-field.ron",
        "river-bridge.ron",
        "capture-the-flag.ron",
        "stress-60x40.ron",
    ] {
        let mut app = battle_app(name);
        let game = app.world().resource::<ActiveBattle>().game.clone();
        let map = game.battle().map;
        let hexes: Vec<HexTile> = all(&mut app);
        assert_eq!(
            hexes.len(),
            usize::from(map.columns) * usize::from(map.rows),
            "{name}: one a hex"
        );
        for tile in &hexes {
            assert_eq!(tile.terrain, game.battle().terrain(tile.hex), "{name}");
        }
        let mut formations: Vec<(Hex, u8, u16, u16)> = all::<Formation>(&mut app)
            .iter()
            .map(|f| (f.hex, f.side.0, f.infantry, f.cavalry))
            .collect();
        formations.sort();
        let mut wanted: Vec<(Hex, u8, u16, u16)> = game
            .stacks()
            .iter()
            .filter(|s| !s.armed.men.is_empty())
            .map(|s| (s.hex, s.side.0, s.armed.men.inf, s.armed.men.cav))
            .collect();
        wanted.sort();
        assert_eq!(formations, wanted, "{name}: one a body of armed men");
        let pieces: Vec<BattlePiece> = all(&mut app);
        let count = |slot: Slot| -> u32 {
            pieces
                .iter()
                .filter(|p| p.slot == slot)
                .map(|p| u32::from(p.count))
                .sum()
        };
        let stacks = game.stacks();
        let sum = |f: &dyn Fn(&sandtable_warpspawn::Stack) -> u16| -> u32 {
            stacks.iter().map(|s| u32::from(f(s))).sum()
        };
        assert_eq!(count(Slot::Cannon), sum(&|s| u16::from(s.cannon)), "{name}");
        assert_eq!(
            count(Slot::Baggage),
            sum(&|s| u16::from(s.baggage)),
            "{name}"
        );
        assert_eq!(count(Slot::Flag), sum(&|s| u16::from(s.flags)), "{name}");
        assert_eq!(count(Slot::Officer), sum(&|s| s.armed.officers), "{name}");
        seen.extend(pieces.iter().map(|p| format!("{:?}", p.slot)));
    }
    for slot in ["Cannon", "Officer", "Baggage", "Flag"] {
        assert!(seen.contains(slot), "some battle has a {slot}");
    }
}

#[test]
fn the_stress_map_has_its_200_formations_on_the_table() {
    let mut app = battle_app("stress-60x40.ron");
    let formations: Vec<Formation> = all(&mut app);
    assert_eq!(formations.len(), 200);
    for side in [Side(0), Side(1)] {
        assert_eq!(formations.iter().filter(|f| f.side == side).count(), 100);
    }
    let hexes: Vec<HexTile> = all(&mut app);
    assert!(
        hexes.iter().any(|h| h.terrain == Terrain::River)
            && hexes.iter().any(|h| h.terrain == Terrain::Bridge),
        "a river with bridges"
    );
}

#[test]
fn nothing_is_hovered_until_the_pointer_comes_over_a_hex() {
    let app = battle_app("open-field.ron");
    assert_eq!(
        app.world()
            .resource::<sandtable::warpspawn::table::HoveredHex>()
            .0,
        None
    );
}

#[test]
fn the_camera_frames_the_whole_physical_table() {
    let app = battle_app("open-field.ron");
    let shown = app.world().resource::<sandtable::table::TableShown>();
    let extent = shown.extent.expect("a table was built");
    // 762 x 508 mm of table at 40 mm a hex.
    assert!((extent.x - 762.0 / 40.0).abs() < 1e-3, "{extent}");
    assert!((extent.y - 508.0 / 40.0).abs() < 1e-3, "{extent}");
    assert_eq!(shown.board, None, "no squares");
}
