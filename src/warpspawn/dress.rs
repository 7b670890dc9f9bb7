//! The battle's looks: hexes coloured and raised by their terrain, bodies
//! of men as blocks of small figures in their side's colour (foot standing,
//! mounted larger), cannon, officers, baggage wagons and flags as small
//! models, routers, prisoners and unarmed men as chits.

use bevy::prelude::*;

use super::HEX;
use sandtable_warpspawn::{Hex, Terrain};

use super::looks::{Pattern, Slot, figure_places, terrain_look};
use super::play::{BattleChoices, BattlePick};
use super::table::{ActiveBattle, BattlePiece, Formation, HexTile};
use crate::table::{TableBuilt, TablePiece, TableShown, matte, shaped, side_colour};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            dress_table_top,
            dress_hexes,
            dress_formations,
            dress_pieces,
            light_hexes,
        )
            .after(crate::schedule::AppSystems::SyncTable),
    );
}

/// The wooden table under the map, as large as the battle's physical table.
fn dress_table_top(
    mut commands: Commands,
    mut built: MessageReader<TableBuilt>,
    battle: Option<Res<ActiveBattle>>,
    shown: Res<TableShown>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if built.read().count() == 0
        || matches!(
            shown.surface,
            Some(sandtable_core::game::Surface::Squares { .. })
        )
    {
        return;
    }
    let (Some(_), Some(extent)) = (battle, shown.extent) else {
        return;
    };
    commands.spawn((
        Mesh3d(meshes.add(Cuboid::new(extent.x + 0.6, 0.2, extent.y + 0.6))),
        MeshMaterial3d(matte(&mut materials, Color::srgb(0.36, 0.25, 0.16))),
        Transform::from_xyz(0.0, -0.1, 0.0),
        Pickable::IGNORE,
        TablePiece,
    ));
}

/// The meshes and materials the battle's pieces share: one a terrain and
/// one a side, not one an entity, so that a map of thousands of hexes
/// draws in a few batches.
#[derive(Default)]
struct Shared {
    tile: Option<Handle<Mesh>>,
    terrain: std::collections::HashMap<
        Terrain,
        (
            Handle<StandardMaterial>,
            Option<(Handle<Mesh>, Handle<StandardMaterial>)>,
        ),
    >,
}

/// Each hex: a flat-topped tile in its terrain's colour, with what stands on
/// it (trees, buildings, walls, peaks) as a raised inner hex of the same
/// colour, darker.
fn dress_hexes(
    mut commands: Commands,
    hexes: Query<(Entity, &HexTile), Added<HexTile>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut shared: Local<Shared>,
) {
    if hexes.is_empty() {
        return;
    }
    let side = HEX / 3f32.sqrt();
    let shared = &mut *shared;
    let tile = shared
        .tile
        .get_or_insert_with(|| meshes.add(shaped(6, side * 0.97, 0.05)))
        .clone();
    for (e, hex) in &hexes {
        let look = terrain_look(hex.terrain);
        let (flat, raised) = shared
            .terrain
            .entry(hex.terrain)
            .or_insert_with(|| {
                let [r, g, b] = look.colour;
                let flat = matte(&mut materials, Color::srgb_u8(r, g, b));
                let raised = (look.height > 0.0).then(|| {
                    let dark = Color::srgb_u8(r / 4 * 3, g / 4 * 3, b / 4 * 3);
                    let (radius, sides) = match look.pattern {
                        Pattern::Dots | Pattern::Peaks => (side * 0.55, 6),
                        Pattern::Blocks => (side * 0.6, 4),
                        _ => (side * 0.8, 6),
                    };
                    (
                        meshes.add(shaped(sides, radius, look.height)),
                        matte(&mut materials, dark),
                    )
                });
                (flat, raised)
            })
            .clone();
        let mut entity = commands.entity(e);
        crate::picking::track_hover::<HexTile>(&mut entity);
        crate::picking::track_clicks::<HexTile>(&mut entity, false);
        crate::picking::track_drags::<HexTile>(&mut entity);
        entity.insert((Mesh3d(tile.clone()), MeshMaterial3d(flat)));
        if let Some((mesh, material)) = raised {
            entity.with_children(|c| {
                c.spawn((
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    Transform::from_xyz(0.0, look.height / 2.0, 0.0),
                    Pickable::IGNORE,
                ));
            });
        }
    }
}

/// A body of men: one figure a man in its side's colour, foot as small
/// standing figures, mounted larger and lower-slung.
fn dress_formations(
    mut commands: Commands,
    formations: Query<(Entity, &Formation), Added<Formation>>,
    shown: Res<TableShown>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if formations.is_empty() {
        return;
    }
    // A foot figure stands 0.17 of a hex, a mounted one is as long as the
    // files are apart.
    let foot = meshes.add(Capsule3d::new(0.032 * HEX, 0.1 * HEX));
    let horse = meshes.add(Cuboid::new(0.06 * HEX, 0.09 * HEX, 0.12 * HEX));
    // One material a side for this table's colours.
    let mut sides: Vec<(u8, Handle<StandardMaterial>)> = Vec::new();
    for (e, f) in &formations {
        let material = match sides.iter().find(|(s, _)| *s == f.side.0) {
            Some((_, m)) => m.clone(),
            None => {
                let m = matte(&mut materials, side_colour(&shown, f.side.0));
                sides.push((f.side.0, m.clone()));
                m
            }
        };
        let men = sandtable_warpspawn::Men {
            inf: f.infantry,
            cav: f.cavalry,
        };
        commands.entity(e).with_children(|c| {
            for (at, mounted) in figure_places(men) {
                let (mesh, lift) = if mounted {
                    (horse.clone(), 0.095)
                } else {
                    (foot.clone(), 0.115)
                };
                c.spawn((
                    Mesh3d(mesh),
                    MeshMaterial3d(material.clone()),
                    Transform::from_translation(at + Vec3::Y * lift * HEX),
                    Pickable::IGNORE,
                ));
            }
        });
    }
}

/// Cannon, officers, baggage and flags as small models in their side's
/// colour; routers, prisoners and unarmed men as flat chits.
fn dress_pieces(
    mut commands: Commands,
    mut pieces: Query<(Entity, &BattlePiece, &mut Transform), Added<BattlePiece>>,
    shown: Res<TableShown>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (e, p, mut transform) in &mut pieces {
        let colour = side_colour(&shown, p.side.0);
        let (mut mesh, material, lift): (Mesh, Color, f32) = match p.slot {
            Slot::Cannon => (
                Cylinder::new(0.03, 0.16).into(),
                Color::srgb(0.15, 0.15, 0.15),
                0.05,
            ),
            Slot::Officer => (Cone::new(0.04, 0.16).into(), colour, 0.08),
            Slot::Baggage => (
                Cuboid::new(0.12, 0.08, 0.08).into(),
                Color::srgb(0.55, 0.4, 0.25),
                0.05,
            ),
            Slot::Flag => (Cuboid::new(0.08, 0.05, 0.01).into(), colour, 0.2),
            Slot::Routers | Slot::Prisoners | Slot::Unarmed => {
                let tint = match p.slot {
                    Slot::Routers => Color::srgb(0.95, 0.8, 0.2),
                    Slot::Prisoners => Color::srgb(0.6, 0.6, 0.6),
                    _ => Color::srgb(0.95, 0.95, 0.9),
                };
                (Cylinder::new(0.07, 0.02).into(), tint, 0.02)
            }
        };
        if p.slot == Slot::Cannon {
            mesh.rotate_by(Quat::from_rotation_x(std::f32::consts::FRAC_PI_2));
        }
        let mut entity = commands.entity(e);
        crate::picking::track_hover::<BattlePiece>(&mut entity);
        crate::picking::track_clicks::<BattlePiece>(&mut entity, true);
        crate::picking::track_drags::<BattlePiece>(&mut entity);
        entity.insert((
            Mesh3d(meshes.add(mesh)),
            MeshMaterial3d(matte(&mut materials, material)),
        ));
        transform.translation.y += lift * HEX;
    }
}

/// A lit hex: what may act, the selection, or where the selection may go.
#[derive(Component)]
struct LitHex;

/// The three lights' materials and their one mesh.
#[derive(Default)]
struct Lights(Option<(Handle<Mesh>, [Handle<StandardMaterial>; 3])>);

/// Lights the hexes the rules allow now: with nothing selected, those whose
/// cannon, formation or routers may act (gold); the selected hex (white);
/// the hexes it may reach, fire at, attack or rally on (blue). Built again
/// when the choices change.
fn light_hexes(
    mut commands: Commands,
    choices: Res<BattleChoices>,
    pick: Res<BattlePick>,
    battle: Option<Res<ActiveBattle>>,
    old: Query<Entity, With<LitHex>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut lights: Local<Lights>,
    mode: Option<Res<State<crate::mode::Mode>>>,
) {
    let layout = mode
        .as_ref()
        .is_some_and(|m| *m.get() == crate::mode::Mode::Layout);
    if !choices.is_changed() && !pick.is_changed() && !mode.is_some_and(|m| m.is_changed()) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    // In layout mode the layout lights its own hexes.
    let Some(battle) = battle.filter(|_| !layout) else {
        return;
    };
    let (mesh, [mover, selected, target]) = lights
        .0
        .get_or_insert_with(|| {
            let light = |materials: &mut Assets<StandardMaterial>, r: f32, g: f32, b: f32| {
                materials.add(StandardMaterial {
                    base_color: Color::srgba(r, g, b, 0.45),
                    emissive: LinearRgba::rgb(r * 0.3, g * 0.3, b * 0.3),
                    alpha_mode: AlphaMode::Blend,
                    unlit: true,
                    ..default()
                })
            };
            (
                meshes.add(shaped(6, HEX / 3f32.sqrt() * 0.8, 0.01)),
                [
                    light(&mut materials, 1.0, 0.8, 0.1),
                    light(&mut materials, 1.0, 1.0, 1.0),
                    light(&mut materials, 0.2, 0.6, 1.0),
                ],
            )
        })
        .clone();
    let map = battle.game.battle().map;
    let mut lit: Vec<(Hex, Handle<StandardMaterial>)> = Vec::new();
    match pick.from {
        None => {
            lit.extend(choices.movers.iter().map(|h| (*h, mover.clone())));
            // Nothing on the map selected: the targets are a counter's,
            // picked to enter (R48).
            lit.extend(choices.targets.iter().map(|t| (t.hex, target.clone())));
        }
        Some(from) => {
            lit.push((from, selected.clone()));
            lit.extend(
                choices
                    .targets
                    .iter()
                    .filter(|t| t.hex != from)
                    .map(|t| (t.hex, target.clone())),
            );
        }
    }
    if let Some(to) = pick.to {
        lit.push((to, selected.clone()));
    }
    for (hex, material) in lit {
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(super::hex_center(map, hex) + Vec3::Y * 0.06),
            Pickable::IGNORE,
            LitHex,
        ));
    }
}
