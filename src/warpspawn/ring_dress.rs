//! The ring's looks: its squares as a flat mat round the map, grey-green,
//! a reserve the viewer knows tinted in its side's colour and an edge
//! square the viewer's side sees from the map (R55) lighter, the path
//! being written blue and a square it was refused at red; counters as
//! round tokens in their side's colour; each side's general reserve as a
//! tray in its colour, darker.

use bevy::prelude::*;

use super::ring::{CounterToken, ReserveTray, RingTile};
use super::ring_play::RingPick;
use crate::table::TableShown;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (dress_ring_tiles, dress_tokens, dress_trays).after(crate::schedule::AppSystems::SyncTable),
    );
}

fn side_rgb(shown: &TableShown, side: usize) -> [u8; 3] {
    shown.colours.get(side).map_or([200, 200, 200], |c| c.0)
}

/// A colour lightened toward white by `by` (0 to 1).
fn lighter([r, g, b]: [u8; 3], by: f32) -> Color {
    let up = |c: u8| (f32::from(c) + (255.0 - f32::from(c)) * by) / 255.0;
    Color::srgb(up(r), up(g), up(b))
}

/// The materials of the ring's squares, one a look.
#[derive(Default)]
struct TileLooks {
    mesh: Option<Handle<Mesh>>,
    materials:
        std::collections::HashMap<(Option<usize>, bool, bool, bool), Handle<StandardMaterial>>,
}

/// Each square as a flat tile a little inside its rectangle: its mesh once,
/// its colour whenever what the viewer knows of it changes, or it joins or
/// leaves the path being written.
fn dress_ring_tiles(
    mut commands: Commands,
    added: Query<Entity, Added<RingTile>>,
    mut tiles: Query<(
        Entity,
        Ref<RingTile>,
        &mut Transform,
        Option<&mut MeshMaterial3d<StandardMaterial>>,
    )>,
    shown: Res<TableShown>,
    pick: Option<Res<RingPick>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut looks: Local<TileLooks>,
) {
    let picked = pick.as_ref().is_some_and(|p| p.is_changed());
    let mesh = looks
        .mesh
        .get_or_insert_with(|| meshes.add(Cuboid::new(1.0, 0.03, 1.0)))
        .clone();
    for e in &added {
        let mut entity = commands.entity(e);
        crate::picking::track_hover::<RingTile>(&mut entity);
        crate::picking::track_clicks::<RingTile>(&mut entity, false);
        crate::picking::track_drags::<RingTile>(&mut entity);
        entity.insert(Mesh3d(mesh.clone()));
    }
    for (e, tile, mut transform, material) in &mut tiles {
        if !(tile.is_changed() || picked || material.is_none()) {
            continue;
        }
        transform.scale = Vec3::new(tile.size.x * 0.94, 1.0, tile.size.y * 0.94);
        let on_path = pick.as_ref().is_some_and(|p| p.path.contains(&tile.square));
        let refused = pick
            .as_ref()
            .is_some_and(|p| p.refused == Some(tile.square));
        let key = (tile.reserve, tile.seen, on_path, refused);
        let handle = looks
            .materials
            .entry(key)
            .or_insert_with(|| {
                let base = match tile.reserve {
                    Some(s) => lighter(side_rgb(&shown, s), 0.55),
                    None => Color::srgb(0.45, 0.5, 0.42),
                };
                let colour = if refused {
                    Color::srgb(0.85, 0.2, 0.15)
                } else if on_path {
                    Color::srgb(0.35, 0.55, 0.95)
                } else if tile.seen {
                    base.mix(&Color::srgb(1.0, 0.95, 0.6), 0.45)
                } else {
                    base
                };
                materials.add(StandardMaterial {
                    base_color: colour,
                    perceptual_roughness: 0.95,
                    ..default()
                })
            })
            .clone();
        match material {
            Some(mut m) => {
                if m.0 != handle {
                    m.0 = handle;
                }
            }
            None => {
                commands.entity(e).insert(MeshMaterial3d(handle));
            }
        }
    }
}

/// A counter: a round token in its side's colour.
fn dress_tokens(
    mut commands: Commands,
    tokens: Query<(Entity, &CounterToken), Added<CounterToken>>,
    shown: Res<TableShown>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if tokens.is_empty() {
        return;
    }
    let mesh = meshes.add(Cylinder::new(0.2, 0.06));
    for (e, t) in &tokens {
        let mut entity = commands.entity(e);
        crate::picking::track_hover::<CounterToken>(&mut entity);
        crate::picking::track_clicks::<CounterToken>(&mut entity, true);
        crate::picking::track_drags::<CounterToken>(&mut entity);
        entity.insert((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: lighter(side_rgb(&shown, t.side), 0.0),
                perceptual_roughness: 0.6,
                ..default()
            })),
        ));
    }
}

/// A side's general reserve: a low tray in its colour, darker.
fn dress_trays(
    mut commands: Commands,
    trays: Query<(Entity, &ReserveTray), Added<ReserveTray>>,
    shown: Res<TableShown>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (e, t) in &trays {
        let [r, g, b] = side_rgb(&shown, t.side);
        commands.entity(e).insert((
            Mesh3d(meshes.add(Cuboid::new(t.size.x, 0.05, t.size.y))),
            MeshMaterial3d(materials.add(StandardMaterial {
                base_color: Color::srgb_u8(r / 2, g / 2, b / 2),
                perceptual_roughness: 0.8,
                ..default()
            })),
            Pickable::IGNORE,
        ));
    }
}
