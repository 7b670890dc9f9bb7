//! The skirmish's looks: a green baize table top at the table's real
//! size; terrain pieces as raised polygons by kind (woods dark green,
//! hills olive, light structures low grey walls, craters dark hollows);
//! building elements as a floor with open-topped walls, doors left open
//! and windows as gaps between sill and lintel, so the camera sees in;
//! units as round or oval bases in their side's colour with a figure or a
//! hull on them; crates, objectives, the diskette and smoke clouds.

use bevy::asset::RenderAssetUsages;
use bevy::mesh::{Indices, PrimitiveTopology};
use bevy::prelude::*;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{OpeningKind, TerrainKind};

use bevy::world_serialization::{WorldAsset, WorldAssetRoot};
use sandtable_scenario::PieceOf;
use sandtable_scenario::models::model_for;

use super::table::{ActiveSkirmish, ElementPiece, SkirmishTop, TerrainPiece, Token, UnitPiece};
use super::{UNIT_MM, world_pt};
use crate::table::Offending;
use crate::table::models::{Figure, Models, NeedsFigure, Owner};
use crate::table::{TableShown, matte, side_colour};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            dress_top,
            dress_terrain,
            dress_elements,
            // After the scenario's models are read, which a new table
            // asks for.
            (dress_units, dress_tokens).after(crate::table::models::load_scenario_models),
        )
            .after(crate::schedule::AppSystems::SyncTable),
    );
}

/// The table top: baize the table's size, on a wooden board a little
/// larger.
fn dress_top(
    mut commands: Commands,
    tops: Query<(Entity, &SkirmishTop), Added<SkirmishTop>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    for (e, top) in &tops {
        let w = f32::from(top.table.0) / UNIT_MM;
        let d = f32::from(top.table.1) / UNIT_MM;
        commands.entity(e).with_children(|c| {
            c.spawn((
                Mesh3d(meshes.add(Cuboid::new(w, 0.1, d))),
                MeshMaterial3d(matte(&mut materials, Color::srgb(0.33, 0.45, 0.27))),
                Transform::from_xyz(0.0, -0.05, 0.0),
            ));
            c.spawn((
                Mesh3d(meshes.add(Cuboid::new(w + 0.8, 0.2, d + 0.8))),
                MeshMaterial3d(matte(&mut materials, Color::srgb(0.36, 0.25, 0.16))),
                Transform::from_xyz(0.0, -0.2, 0.0),
                Pickable::IGNORE,
            ));
        });
    }
}

/// A terrain kind's colour and height in world units.
pub fn terrain_look(kind: TerrainKind) -> (Color, f32) {
    match kind {
        TerrainKind::Vegetation => (Color::srgb(0.13, 0.32, 0.12), 0.5),
        TerrainKind::Hill => (Color::srgb(0.48, 0.47, 0.28), 0.25),
        TerrainKind::LightStructure => (Color::srgb(0.55, 0.55, 0.52), 0.35),
        TerrainKind::Crater => (Color::srgb(0.22, 0.17, 0.12), 0.02),
    }
}

/// The setup the table shows: the layout being edited in layout mode,
/// else the skirmish in play's.
fn shown_setup<'a>(
    active: &'a ActiveSkirmish,
    layout: Option<&'a super::layout::SkirmishLayout>,
) -> &'a sandtable_frontiers::Setup {
    layout.map_or_else(|| active.game.game().setup(), |l| l.setup())
}

/// Red, for a piece of a layout that breaks a ruling.
const OFFENDING: Color = Color::srgb(0.85, 0.12, 0.1);

fn dress_terrain(
    mut commands: Commands,
    pieces: Query<(Entity, &TerrainPiece, Has<Offending>), Added<TerrainPiece>>,
    active: Option<Res<ActiveSkirmish>>,
    layout: Option<Res<super::layout::SkirmishLayout>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(active) = active else { return };
    let setup = shown_setup(&active, layout.as_deref());
    for (e, piece, offending) in &pieces {
        let Some(t) = setup.terrain.get(piece.0) else {
            continue;
        };
        let (colour, height) = terrain_look(t.kind);
        let colour = if offending { OFFENDING } else { colour };
        commands.entity(e).insert((
            Mesh3d(meshes.add(prism(&outline(setup.table, &t.corners), height))),
            MeshMaterial3d(matte(&mut materials, colour)),
        ));
    }
}

/// A building element: its floor, and walls round its outline with its
/// doors open and its windows cut between sill and lintel (R117); a ruin
/// keeps a low course of its walls (R119).
fn dress_elements(
    mut commands: Commands,
    pieces: Query<(Entity, &ElementPiece, Has<Offending>), Changed<ElementPiece>>,
    active: Option<Res<ActiveSkirmish>>,
    layout: Option<Res<super::layout::SkirmishLayout>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    let Some(active) = active else { return };
    let setup = shown_setup(&active, layout.as_deref());
    for (e, piece, offending) in &pieces {
        let Some(el) = setup.elements.get(piece.index) else {
            continue;
        };
        let table = setup.table;
        let wall = matte(
            &mut materials,
            if offending {
                OFFENDING
            } else {
                Color::srgb(0.72, 0.68, 0.6)
            },
        );
        let floor = matte(&mut materials, Color::srgb(0.5, 0.47, 0.42));
        let top = if piece.ruined { 0.25 } else { 1.2 };
        let mut entity = commands.entity(e);
        entity.despawn_related::<Children>();
        entity.insert((
            Mesh3d(meshes.add(prism(&outline(table, &el.corners), 0.03))),
            MeshMaterial3d(floor),
        ));
        let n = el.corners.len();
        entity.with_children(|c| {
            for k in 0..n {
                let (a, b) = (el.corners[k], el.corners[(k + 1) % n]);
                for (from, to, low, high) in wall_pieces(a, b, &el.openings, top) {
                    let (p, q) = (world_pt(table, from), world_pt(table, to));
                    let length = p.distance(q);
                    if length < 1e-3 {
                        continue;
                    }
                    let mid = (p + q) / 2.0;
                    let turn = Quat::from_rotation_y(-(q.z - p.z).atan2(q.x - p.x));
                    c.spawn((
                        Mesh3d(meshes.add(Cuboid::new(length, high - low, 0.12))),
                        MeshMaterial3d(wall.clone()),
                        Transform::from_xyz(mid.x, (low + high) / 2.0, mid.z).with_rotation(turn),
                        Pickable::IGNORE,
                    ));
                }
            }
        });
    }
}

/// The pieces of wall along the outline's side from `a` to `b`, each
/// with its ends and its bottom and top heights: a door leaves a gap to
/// the top, a window a gap between sill and lintel.
fn wall_pieces(
    a: Pt,
    b: Pt,
    openings: &[sandtable_frontiers::setup::Opening],
    top: f32,
) -> Vec<(Pt, Pt, f32, f32)> {
    let along = |p: Pt| {
        let (dx, dy) = ((b.x - a.x) as f32, (b.y - a.y) as f32);
        let len2 = dx * dx + dy * dy;
        if len2 == 0.0 {
            return None;
        }
        let t = ((p.x - a.x) as f32 * dx + (p.y - a.y) as f32 * dy) / len2;
        let off = ((p.x - a.x) as f32 * dy - (p.y - a.y) as f32 * dx).abs() / len2.sqrt();
        (off <= 1.5 && (-0.01..=1.01).contains(&t)).then_some(t.clamp(0.0, 1.0))
    };
    let at = |t: f32| {
        Pt::new(
            (a.x as f32 + (b.x - a.x) as f32 * t).round() as i32,
            (a.y as f32 + (b.y - a.y) as f32 * t).round() as i32,
        )
    };
    let mut gaps: Vec<(f32, f32, OpeningKind)> = openings
        .iter()
        .filter_map(|o| {
            let (s, e) = (along(o.a)?, along(o.b)?);
            Some((s.min(e), s.max(e), o.kind))
        })
        .collect();
    gaps.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut out = Vec::new();
    let mut from = 0.0;
    for (s, e, kind) in gaps {
        if s > from {
            out.push((at(from), at(s), 0.0, top));
        }
        if kind == OpeningKind::Window && top > 0.6 {
            out.push((at(s), at(e), 0.0, 0.45));
            out.push((at(s), at(e), 0.95, top));
        }
        from = from.max(e);
    }
    if from < 1.0 {
        out.push((at(from), at(1.0), 0.0, top));
    }
    out
}

/// The meshes and materials of one look of a unit (its colour, side
/// shown, base and whether it is a carcass): made once, shared by every
/// unit that looks so, since the units are built again at each command.
#[derive(Clone)]
struct UnitLook {
    base: (Handle<Mesh>, Handle<StandardMaterial>),
    /// A figure or a hull, then an oval's gun; none on a carcass.
    parts: Vec<(Handle<Mesh>, Handle<StandardMaterial>, Transform)>,
}

/// The scenario's model for a piece, when it has one that was read: the
/// model and its scale in world units per model unit. A model that could
/// not be read leaves the piece its own look (a notice says why).
pub fn scenario_model(
    models: Option<&Models>,
    shown: &TableShown,
    piece: PieceOf<'_>,
    sides: &[&str],
) -> Option<(Handle<WorldAsset>, f32)> {
    let models = models?;
    let i = model_for(&shown.models, piece, sides)?;
    let handle = models.custom.get(i)?.as_ref()?;
    if models.failed.contains(&handle.id()) {
        return None;
    }
    Some((handle.clone(), (shown.models[i].unit_mm as f32) / UNIT_MM))
}

/// A model's figure at `lift` above a piece's origin, its front (glTF's
/// +Z) along the piece's facing (+X before its turn), at `scale`.
fn figure_of(handle: Handle<WorldAsset>, scale: f32, lift: f32) -> impl Bundle {
    let id = handle.id();
    (
        WorldAssetRoot(handle),
        Transform {
            translation: Vec3::Y * lift,
            rotation: Quat::from_rotation_y(std::f32::consts::FRAC_PI_2),
            scale: Vec3::splat(scale),
        },
        Figure {
            model: Some(id),
            scale,
        },
    )
}

/// Each unit: its base in its side's colour, round or oval (R101), with
/// a figure on a round base and a hull on a vehicle's, or the scenario's
/// model for it on the base; a carcass dark. A unit whose model could not
/// be read is dressed again with its own look.
fn dress_units(
    mut commands: Commands,
    units: Query<(Entity, &UnitPiece, Has<Offending>), Or<(Added<UnitPiece>, With<NeedsFigure>)>>,
    shown: Res<TableShown>,
    active: Option<Res<ActiveSkirmish>>,
    layout: Option<Res<super::layout::SkirmishLayout>>,
    models: Option<Res<Models>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut looks: Local<std::collections::HashMap<([u8; 4], bool, bool, (u16, u16)), UnitLook>>,
) {
    let Some(active) = active else { return };
    let sides: Vec<&str> = shown_setup(&active, layout.as_deref())
        .sides
        .iter()
        .map(|s| s.name.as_str())
        .collect();
    for (e, u, offending) in &units {
        let model = (!u.carcass)
            .then(|| {
                let piece = PieceOf::Figure {
                    side: usize::from(u.side),
                    kind: u.kind,
                    id: &u.tag,
                };
                scenario_model(models.as_deref(), &shown, piece, &sides)
            })
            .flatten();
        let colour = if offending {
            OFFENDING
        } else if u.carcass {
            Color::srgb(0.2, 0.2, 0.2)
        } else {
            side_colour(&shown, u.side)
        };
        let key = (
            colour.to_srgba().to_u8_array(),
            u.back,
            u.carcass,
            u.base_mm,
        );
        let look = looks
            .entry(key)
            .or_insert_with(|| unit_look(u, colour, &mut meshes, &mut materials))
            .clone();
        let mut entity = commands.entity(e);
        entity
            .remove::<NeedsFigure>()
            .despawn_related::<Children>()
            // The model's `player` materials take the side's colours.
            .insert(Owner(u16::from(u.side)));
        entity.with_children(|c| {
            // An oval: a disc stretched along its facing (+X before the
            // turn), the stadium's ends rounded.
            let (len, wid) = (f32::from(u.base_mm.0), f32::from(u.base_mm.1));
            c.spawn((
                Mesh3d(look.base.0),
                MeshMaterial3d(look.base.1),
                Transform::from_xyz(0.0, 0.04, 0.0).with_scale(Vec3::new(len / wid, 1.0, 1.0)),
            ));
            match model {
                Some((handle, scale)) => {
                    c.spawn(figure_of(handle, scale, 0.08));
                }
                None => {
                    for (mesh, material, at) in look.parts {
                        c.spawn((Mesh3d(mesh), MeshMaterial3d(material), at));
                    }
                }
            }
        });
    }
}

/// The meshes and materials of unit `u`'s look, in `colour`.
fn unit_look(
    u: &UnitPiece,
    colour: Color,
    meshes: &mut Assets<Mesh>,
    materials: &mut Assets<StandardMaterial>,
) -> UnitLook {
    let (len, wid) = (
        f32::from(u.base_mm.0) / UNIT_MM,
        f32::from(u.base_mm.1) / UNIT_MM,
    );
    let base = matte(materials, colour);
    let body = matte(
        materials,
        if u.back {
            colour.darker(0.15)
        } else {
            colour.lighter(0.1)
        },
    );
    let round = u.base_mm.0 == u.base_mm.1 && u.base_mm.0 <= 30;
    let parts = if u.carcass {
        Vec::new()
    } else if round {
        vec![(
            meshes.add(Capsule3d::new(0.16, 0.45)),
            body,
            Transform::from_xyz(0.0, 0.45, 0.0),
        )]
    } else {
        vec![
            (
                meshes.add(Cuboid::new(len * 0.8, 0.45, wid * 0.7)),
                body,
                Transform::from_xyz(0.0, 0.3, 0.0),
            ),
            // Its front (the facing, +X before the turn): a turret's gun,
            // so the facing reads from any side (R100).
            (
                meshes.add(Cuboid::new(len * 0.45, 0.1, 0.1)),
                base.clone(),
                Transform::from_xyz(len * 0.4, 0.5, 0.0),
            ),
        ]
    };
    UnitLook {
        base: (meshes.add(Cylinder::new(wid / 2.0, 0.08)), base),
        parts,
    }
}

/// Crates as small chests, objectives as gold discs, the diskette as a
/// blue square, smoke as a grey translucent dome (R101, R130): a mesh and
/// material a kind, made once.
fn dress_tokens(
    mut commands: Commands,
    tokens: Query<(Entity, &Token), Or<(Added<Token>, With<NeedsFigure>)>>,
    shown: Res<TableShown>,
    models: Option<Res<Models>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut looks: Local<Vec<(u8, Handle<Mesh>, Handle<StandardMaterial>, f32)>>,
) {
    let small = f32::from(sandtable_frontiers::crates::CRATE_MM) / UNIT_MM;
    for (e, t) in &tokens {
        let kind = match t {
            Token::Crate(_) => 0,
            Token::Objective(_) => 1,
            Token::Diskette => 2,
            Token::Cloud(_) => 3,
        };
        if !looks.iter().any(|l| l.0 == kind) {
            let (mesh, colour, lift): (Mesh, Color, f32) = match t {
                Token::Crate(_) => (
                    Cuboid::new(small, small * 0.6, small * 0.7).into(),
                    Color::srgb(0.55, 0.36, 0.16),
                    small * 0.3,
                ),
                Token::Objective(_) => (
                    Cylinder::new(small / 2.0, 0.04).into(),
                    Color::srgb(0.9, 0.75, 0.15),
                    0.02,
                ),
                Token::Diskette => (
                    Cuboid::new(small * 0.8, 0.05, small * 0.8).into(),
                    Color::srgb(0.2, 0.35, 0.85),
                    0.03,
                ),
                Token::Cloud(_) => (
                    Sphere::new(f32::from(sandtable_frontiers::smoke::CLOUD_MM) / 2.0 / UNIT_MM)
                        .into(),
                    Color::srgba(0.75, 0.75, 0.75, 0.55),
                    0.0,
                ),
            };
            let material = materials.add(StandardMaterial {
                base_color: colour,
                perceptual_roughness: 0.9,
                alpha_mode: if kind == 3 {
                    AlphaMode::Blend
                } else {
                    AlphaMode::Opaque
                },
                ..default()
            });
            looks.push((kind, meshes.add(mesh), material, lift));
        }
        let (_, mesh, material, lift) = looks
            .iter()
            .find(|l| l.0 == kind)
            .cloned()
            .expect("made above");
        // A crate or an objective the scenario gives a model of its own.
        let piece = match t {
            Token::Crate(_) => Some(PieceOf::Crate),
            Token::Objective(_) => Some(PieceOf::Objective),
            Token::Diskette | Token::Cloud(_) => None,
        };
        let model = piece.and_then(|p| scenario_model(models.as_deref(), &shown, p, &[]));
        let mut entity = commands.entity(e);
        entity.remove::<NeedsFigure>().despawn_related::<Children>();
        entity.with_children(|c| match model {
            Some((handle, scale)) => {
                c.spawn(figure_of(handle, scale, 0.0));
            }
            None => {
                c.spawn((
                    Mesh3d(mesh),
                    MeshMaterial3d(material),
                    Transform::from_xyz(0.0, lift, 0.0),
                    Pickable::IGNORE,
                ));
            }
        });
    }
}

/// A polygon of the table's in the world's X and Z, for [`prism`].
fn outline(table: (u16, u16), corners: &[Pt]) -> Vec<Vec2> {
    corners
        .iter()
        .map(|p| {
            let w = world_pt(table, *p);
            Vec2::new(w.x, w.z)
        })
        .collect()
}

/// A flat prism over a simple polygon (`outline` in the world's X and Z,
/// in either winding), `height` thick, its bottom on the table top: its
/// top face by ear clipping, and its sides.
pub fn prism(outline: &[Vec2], height: f32) -> Mesh {
    let mut pts: Vec<Vec2> = outline.to_vec();
    // Counterclockwise seen from above (+Y): in X and Z that is clockwise
    // in the (x, z) plane, as Z points to the viewer.
    if signed_area(&pts) > 0.0 {
        pts.reverse();
    }
    let n = pts.len();
    let mut positions: Vec<[f32; 3]> = Vec::new();
    let mut normals: Vec<[f32; 3]> = Vec::new();
    let mut indices: Vec<u32> = Vec::new();
    for p in &pts {
        positions.push([p.x, height, p.y]);
        normals.push([0.0, 1.0, 0.0]);
    }
    // Clockwise in (x, z) is counterclockwise from above: each triangle
    // as it comes faces up.
    for [a, b, c] in ear_clip(&pts) {
        indices.extend([a as u32, b as u32, c as u32]);
    }
    for k in 0..n {
        let (a, b) = (pts[k], pts[(k + 1) % n]);
        let edge = b - a;
        // Outwards, to the left of a clockwise side in (x, z).
        let normal = Vec3::new(-edge.y, 0.0, edge.x).normalize_or_zero();
        let base = positions.len() as u32;
        for (p, y) in [(a, 0.0), (b, 0.0), (b, height), (a, height)] {
            positions.push([p.x, y, p.y]);
            normals.push(normal.into());
        }
        indices.extend([base, base + 1, base + 2, base, base + 2, base + 3]);
    }
    Mesh::new(
        PrimitiveTopology::TriangleList,
        RenderAssetUsages::default(),
    )
    .with_inserted_attribute(Mesh::ATTRIBUTE_POSITION, positions)
    .with_inserted_attribute(Mesh::ATTRIBUTE_NORMAL, normals)
    .with_inserted_indices(Indices::U32(indices))
}

/// Twice the signed area of a polygon in the plane: positive when its
/// corners run counterclockwise.
fn signed_area(pts: &[Vec2]) -> f32 {
    let n = pts.len();
    (0..n)
        .map(|k| pts[k].perp_dot(pts[(k + 1) % n]))
        .sum::<f32>()
}

/// The triangles of a simple polygon whose corners run clockwise, by ear
/// clipping: each by its corners' indices.
fn ear_clip(pts: &[Vec2]) -> Vec<[usize; 3]> {
    let mut left: Vec<usize> = (0..pts.len()).collect();
    let mut out = Vec::new();
    let inside = |p: Vec2, a: Vec2, b: Vec2, c: Vec2| {
        let s = |u: Vec2, v: Vec2, w: Vec2| (v - u).perp_dot(w - u);
        let (d1, d2, d3) = (s(p, a, b), s(p, b, c), s(p, c, a));
        !((d1 < 0.0 || d2 < 0.0 || d3 < 0.0) && (d1 > 0.0 || d2 > 0.0 || d3 > 0.0))
    };
    let mut guard = 0;
    while left.len() > 3 && guard < 10_000 {
        guard += 1;
        let m = left.len();
        let mut clipped = false;
        for k in 0..m {
            let (i, j, l) = (left[(k + m - 1) % m], left[k], left[(k + 1) % m]);
            let (a, b, c) = (pts[i], pts[j], pts[l]);
            // A convex corner of a clockwise polygon turns right.
            if (b - a).perp_dot(c - b) >= 0.0 {
                continue;
            }
            let ear = left
                .iter()
                .filter(|&&x| x != i && x != j && x != l)
                .all(|&x| !inside(pts[x], a, b, c));
            if ear {
                out.push([i, j, l]);
                left.remove(k);
                clipped = true;
                break;
            }
        }
        if !clipped {
            break;
        }
    }
    if left.len() == 3 {
        out.push([left[0], left[1], left[2]]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_takes_the_most_specific_model_read_at_its_scale_and_else_its_own_look() {
        use sandtable_scenario::{ModelChoice, ModelPiece};
        let entry = |piece, unit_mm| ModelChoice {
            piece,
            player: None,
            file: "m.glb".into(),
            unit_mm,
        };
        let shown = TableShown {
            models: vec![
                entry(ModelPiece::Kind("lg_trooper".into()), 60.0),
                entry(ModelPiece::Units, 1.0),
                entry(ModelPiece::Crate, 30.0),
            ],
            ..TableShown::default()
        };
        let trooper: Handle<WorldAsset> =
            bevy::asset::uuid_handle!("6d1c6a36-8d0e-4a4c-9a57-1f1f0c0e7a01");
        let chest: Handle<WorldAsset> =
            bevy::asset::uuid_handle!("6d1c6a36-8d0e-4a4c-9a57-1f1f0c0e7a02");
        // The second entry's file was not found.
        let mut models = Models::default();
        models.custom = vec![Some(trooper.clone()), None, Some(chest.clone())];
        let sides = ["Legion", "Zirl"];
        let figure = |kind| PieceOf::Figure {
            side: 0,
            kind,
            id: "T1",
        };
        assert_eq!(
            scenario_model(Some(&models), &shown, figure("lg_trooper"), &sides),
            Some((trooper.clone(), 2.0)),
            "60 mm a model unit is two of the table's 30 mm units"
        );
        assert_eq!(
            scenario_model(Some(&models), &shown, figure("lg_captain"), &sides),
            None,
            "its entry's file is missing: its own look"
        );
        assert_eq!(
            scenario_model(Some(&models), &shown, PieceOf::Crate, &[]),
            Some((chest, 1.0))
        );
        assert_eq!(
            scenario_model(Some(&models), &shown, PieceOf::Objective, &[]),
            None
        );
        models.failed.insert(trooper.id());
        assert_eq!(
            scenario_model(Some(&models), &shown, figure("lg_trooper"), &sides),
            None,
            "a model that could not be read: its own look"
        );
        assert_eq!(
            scenario_model(None, &shown, figure("lg_trooper"), &sides),
            None
        );
    }

    fn area(pts: &[Vec2], tris: &[[usize; 3]]) -> f32 {
        tris.iter()
            .map(|[a, b, c]| ((pts[*b] - pts[*a]).perp_dot(pts[*c] - pts[*a])).abs() / 2.0)
            .sum()
    }

    #[test]
    fn a_concave_polygon_is_cut_into_triangles_that_cover_it_once() {
        // An L, clockwise: its area is 3.
        let mut l = vec![
            Vec2::new(0.0, 0.0),
            Vec2::new(2.0, 0.0),
            Vec2::new(2.0, 1.0),
            Vec2::new(1.0, 1.0),
            Vec2::new(1.0, 2.0),
            Vec2::new(0.0, 2.0),
        ];
        l.reverse();
        let tris = ear_clip(&l);
        assert_eq!(tris.len(), 4);
        assert!((area(&l, &tris) - 3.0).abs() < 1e-5);
        // The prism of either winding has the same faces.
        let a = prism(&l, 0.5);
        l.reverse();
        let b = prism(&l, 0.5);
        assert_eq!(a.count_vertices(), b.count_vertices());
        assert_eq!(a.count_vertices(), 6 + 6 * 4);
        // Its top faces up and its sides out, whichever the winding.
        for mesh in [&a, &b] {
            let Some(bevy::mesh::VertexAttributeValues::Float32x3(pos)) =
                mesh.attribute(Mesh::ATTRIBUTE_POSITION)
            else {
                panic!("positions")
            };
            let Some(Indices::U32(idx)) = mesh.indices() else {
                panic!("indices")
            };
            let v = |i: u32| Vec3::from(pos[i as usize]);
            for t in idx.chunks(3) {
                let (p, q, r) = (v(t[0]), v(t[1]), v(t[2]));
                let normal = (q - p).cross(r - p);
                let middle = (p + q + r) / 3.0;
                if p.y == 0.5 && q.y == 0.5 && r.y == 0.5 {
                    assert!(normal.y > 0.0, "the top faces up");
                } else {
                    // An L's sides: every side's face points away from
                    // the inside next to it.
                    let inward = middle - normal.normalize() * 0.1;
                    let out = middle + normal.normalize() * 0.1;
                    let within = |x: Vec3| {
                        (0.0..2.0).contains(&x.x)
                            && (0.0..2.0).contains(&x.z)
                            && !(x.x > 1.0 && x.z > 1.0)
                    };
                    assert!(within(inward) && !within(out), "{t:?} faces out");
                }
            }
        }
    }

    #[test]
    fn a_door_leaves_a_gap_and_a_window_a_sill_and_lintel() {
        use sandtable_frontiers::setup::Opening;
        let door = Opening {
            kind: OpeningKind::Door,
            a: Pt::new(40, 0),
            b: Pt::new(60, 0),
            behind: vec![0],
        };
        let pieces = wall_pieces(
            Pt::new(0, 0),
            Pt::new(100, 0),
            std::slice::from_ref(&door),
            1.2,
        );
        assert_eq!(
            pieces,
            [
                (Pt::new(0, 0), Pt::new(40, 0), 0.0, 1.2),
                (Pt::new(60, 0), Pt::new(100, 0), 0.0, 1.2)
            ]
        );
        let window = Opening {
            kind: OpeningKind::Window,
            ..door
        };
        let pieces = wall_pieces(Pt::new(0, 0), Pt::new(100, 0), &[window], 1.2);
        assert_eq!(pieces.len(), 4);
        assert!(pieces.contains(&(Pt::new(40, 0), Pt::new(60, 0), 0.0, 0.45)));
        // Another side's opening leaves this side whole.
        let far = Opening {
            kind: OpeningKind::Door,
            a: Pt::new(40, 50),
            b: Pt::new(60, 50),
            behind: vec![0],
        };
        assert_eq!(
            wall_pieces(Pt::new(0, 0), Pt::new(100, 0), &[far], 1.2),
            [(Pt::new(0, 0), Pt::new(100, 0), 0.0, 1.2)]
        );
    }
}
