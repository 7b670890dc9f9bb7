//! The default looks as lists of simple parts: the figure of a unit, the flag
//! of a base, a stash's token and one square of each kind of ground. The
//! files in `assets/looks/` are these parts written as glTF ([`glb`]); the
//! table draws the parts themselves when a file cannot be read.
//!
//! Parts are measured in squares (one unit is one square) from the centre of
//! the square on the table top, +Y up, and face -Z, the table's front of a
//! piece; the files face +Z, glTF's front, and the table turns them.

use bevy::mesh::{Indices, VertexAttributeValues};
use bevy::prelude::*;
use sandtable_scenario::ModelTerrain;

use crate::cache::table::SQUARE;
use crate::table::models::PLAYER_MATERIAL;

/// A look that ships as a file in `assets/looks/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DefaultLook {
    /// A unit's figure (its player-shaped base and facing arrow are marks
    /// the table draws itself).
    Unit,
    /// A base's pole and flag (its player-shaped plinth is a mark).
    Base,
    /// A stash's token.
    Stash,
    /// One square of ground.
    Terrain(ModelTerrain),
}

impl DefaultLook {
    /// Every default look.
    pub fn all() -> impl Iterator<Item = DefaultLook> {
        [DefaultLook::Unit, DefaultLook::Base, DefaultLook::Stash]
            .into_iter()
            .chain(ModelTerrain::ALL.into_iter().map(DefaultLook::Terrain))
    }

    /// Its file's name in `assets/looks/`.
    pub fn file_name(self) -> String {
        let stem = match self {
            DefaultLook::Unit => "unit",
            DefaultLook::Base => "base",
            DefaultLook::Stash => "stash",
            DefaultLook::Terrain(t) => t.file_stem(),
        };
        format!("{stem}.glb")
    }
}

/// A mesh the default looks are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A unit's body.
    Body,
    /// A unit's head.
    Head,
    /// The visor on a unit's head, on its front.
    Nose,
    /// A base's pole.
    Pole,
    /// A base's flag.
    Flag,
    /// A stash's token.
    Token,
    /// A fence post.
    FencePost,
    /// A fence rail, one square long.
    Rail,
    /// A block filling a square: a high wall or a building's wall.
    Block,
    /// A mountain.
    Mountain,
    /// A tree's trunk.
    Trunk,
    /// A tree's crown.
    Canopy,
    /// A flat square: water, road, floor.
    Flat,
    /// A bridge's deck.
    Deck,
    /// A door or bridge post.
    Post,
}

impl Shape {
    /// Every shape.
    pub const ALL: [Shape; 15] = [
        Shape::Body,
        Shape::Head,
        Shape::Nose,
        Shape::Pole,
        Shape::Flag,
        Shape::Token,
        Shape::FencePost,
        Shape::Rail,
        Shape::Block,
        Shape::Mountain,
        Shape::Trunk,
        Shape::Canopy,
        Shape::Flat,
        Shape::Deck,
        Shape::Post,
    ];

    /// The shape's mesh.
    pub fn mesh(self) -> Mesh {
        let s = SQUARE;
        match self {
            Shape::Body => Capsule3d::new(0.13, 0.32).into(),
            Shape::Head => Sphere::new(0.11).into(),
            Shape::Nose => Cuboid::new(0.16, 0.08, 0.22).into(),
            Shape::Pole => Cylinder::new(0.03, 1.0).into(),
            Shape::Flag => Cuboid::new(0.4, 0.26, 0.02).into(),
            Shape::Token => Cylinder::new(0.22 * s, 0.04).into(),
            Shape::FencePost => Cuboid::new(0.13, 0.44, 0.13).into(),
            Shape::Rail => Cuboid::new(0.09, 0.09, s).into(),
            Shape::Block => Cuboid::new(0.98 * s, 0.9, 0.98 * s).into(),
            Shape::Mountain => Cone {
                radius: 0.55 * s,
                height: 1.1,
            }
            .into(),
            Shape::Trunk => Cylinder::new(0.06, 0.35).into(),
            Shape::Canopy => Cone {
                radius: 0.3 * s,
                height: 0.7,
            }
            .into(),
            Shape::Flat => Cuboid::new(s, 0.02, s).into(),
            Shape::Deck => Cuboid::new(s, 0.06, 0.8 * s).into(),
            Shape::Post => Cuboid::new(0.08, 0.3, 0.08).into(),
        }
    }
}

/// A material of the default looks. In a file it is named by
/// [`Paint::name`]; the table gives a part named `player` its player's
/// colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Paint {
    /// The player's colour.
    Player,
    /// Off-white.
    White,
    /// Grey stone.
    Rock,
    /// Dark green leaves.
    Leaf,
    /// Brown bark.
    Bark,
    /// Blue water.
    Water,
    /// Sand-coloured road.
    Road,
    /// Brown planks.
    Plank,
    /// Pale building stone.
    Building,
    /// A building's floor.
    Floor,
    /// Dark wood of a door.
    Door,
    /// Gold.
    Gold,
}

impl Paint {
    /// Every paint.
    pub const ALL: [Paint; 12] = [
        Paint::Player,
        Paint::White,
        Paint::Rock,
        Paint::Leaf,
        Paint::Bark,
        Paint::Water,
        Paint::Road,
        Paint::Plank,
        Paint::Building,
        Paint::Floor,
        Paint::Door,
        Paint::Gold,
    ];

    /// The material's name in a file.
    pub fn name(self) -> &'static str {
        match self {
            Paint::Player => PLAYER_MATERIAL,
            Paint::White => "white",
            Paint::Rock => "rock",
            Paint::Leaf => "leaf",
            Paint::Bark => "bark",
            Paint::Water => "water",
            Paint::Road => "road",
            Paint::Plank => "plank",
            Paint::Building => "building",
            Paint::Floor => "floor",
            Paint::Door => "door",
            Paint::Gold => "gold",
        }
    }

    /// The material; the player's colour is a neutral grey here.
    pub fn material(self) -> StandardMaterial {
        let matte = |r, g, b| StandardMaterial {
            base_color: Color::srgb(r, g, b),
            perceptual_roughness: 0.85,
            ..default()
        };
        match self {
            Paint::Player => matte(0.6, 0.6, 0.6),
            Paint::White => matte(0.96, 0.96, 0.92),
            Paint::Rock => matte(0.45, 0.40, 0.36),
            Paint::Leaf => matte(0.13, 0.38, 0.16),
            Paint::Bark => matte(0.35, 0.24, 0.14),
            Paint::Water => StandardMaterial {
                base_color: Color::srgb(0.17, 0.42, 0.70),
                perceptual_roughness: 0.15,
                reflectance: 0.6,
                ..default()
            },
            Paint::Road => matte(0.72, 0.64, 0.48),
            Paint::Plank => matte(0.50, 0.34, 0.20),
            Paint::Building => matte(0.80, 0.74, 0.62),
            Paint::Floor => matte(0.55, 0.45, 0.35),
            Paint::Door => matte(0.35, 0.22, 0.12),
            Paint::Gold => StandardMaterial {
                base_color: Color::srgb(0.95, 0.78, 0.25),
                metallic: 0.8,
                perceptual_roughness: 0.3,
                ..default()
            },
        }
    }
}

/// One part of a default look.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Part {
    /// Its mesh.
    pub shape: Shape,
    /// Its material.
    pub paint: Paint,
    /// Where it stands, from the look's origin.
    pub at: Transform,
}

fn part(shape: Shape, paint: Paint, x: f32, y: f32, z: f32) -> Part {
    Part {
        shape,
        paint,
        at: Transform::from_xyz(x, y, z),
    }
}

/// The parts of a default look.
pub fn parts(look: DefaultLook) -> Vec<Part> {
    use Paint as P;
    use Shape as S;
    match look {
        DefaultLook::Unit => vec![
            part(S::Body, P::Player, 0.0, 0.35, 0.0),
            part(S::Head, P::Player, 0.0, 0.68, 0.0),
            Part {
                at: Transform::from_xyz(0.0, 0.70, -0.09).with_scale(Vec3::new(0.9, 0.6, 0.5)),
                ..part(S::Nose, P::White, 0.0, 0.0, 0.0)
            },
        ],
        DefaultLook::Base => vec![
            part(S::Pole, P::White, 0.0, 0.6, 0.0),
            part(S::Flag, P::Player, 0.21, 0.95, 0.0),
        ],
        DefaultLook::Stash => vec![part(S::Token, P::Gold, 0.0, 0.07, 0.0)],
        DefaultLook::Terrain(t) => terrain_parts(t),
    }
}

fn terrain_parts(kind: ModelTerrain) -> Vec<Part> {
    use ModelTerrain as T;
    use Paint as P;
    use Shape as S;
    match kind {
        // A fence running front to back: posts and two rails.
        T::LowWall => [-0.4, 0.0, 0.4]
            .into_iter()
            .map(|z| part(S::FencePost, P::Plank, 0.0, 0.22, z))
            .chain([0.18, 0.36].map(|y| part(S::Rail, P::White, 0.0, y, 0.0)))
            .collect(),
        T::HighWall => vec![part(S::Block, P::Rock, 0.0, 0.45, 0.0)],
        T::BuildingWall => vec![part(S::Block, P::Building, 0.0, 0.45, 0.0)],
        T::Mountain => vec![part(S::Mountain, P::Rock, 0.0, 0.55, 0.0)],
        T::Woods => [(-0.2, -0.15), (0.2, 0.1), (-0.05, 0.25)]
            .into_iter()
            .flat_map(|(x, z)| {
                [
                    part(S::Trunk, P::Bark, x, 0.17, z),
                    part(S::Canopy, P::Leaf, x, 0.65, z),
                ]
            })
            .collect(),
        T::Water => vec![part(S::Flat, P::Water, 0.0, 0.04, 0.0)],
        T::Road => vec![part(S::Flat, P::Road, 0.0, 0.06, 0.0)],
        T::BuildingFloor => vec![part(S::Flat, P::Floor, 0.0, 0.06, 0.0)],
        T::BuildingEntrance => vec![
            part(S::Flat, P::Door, 0.0, 0.06, 0.0),
            part(S::Post, P::Building, -0.42, 0.15, 0.0),
            part(S::Post, P::Building, 0.42, 0.15, 0.0),
        ],
        // Water under a bridge stays visible around its deck.
        T::Bridge => vec![
            part(S::Flat, P::Water, 0.0, 0.04, 0.0),
            part(S::Deck, P::Plank, 0.0, 0.09, 0.0),
        ],
        T::ElevatedBridge => {
            let mut parts = vec![
                part(S::Flat, P::Water, 0.0, 0.04, 0.0),
                part(S::Deck, P::Plank, 0.0, 0.32, 0.0),
            ];
            for x in [-0.4, 0.4] {
                for z in [-0.3, 0.3] {
                    parts.push(part(S::Post, P::Plank, x, 0.15, z));
                }
            }
            parts
        }
    }
}

/// The turn between the table's front of a piece (-Z) and glTF's (+Z).
pub fn gltf_turn() -> Quat {
    Quat::from_rotation_y(std::f32::consts::PI)
}

/// A default look as a binary glTF file: one node a part under a root node
/// that turns it to face +Z, positions and normals, one material a paint.
pub fn glb(look: DefaultLook) -> Vec<u8> {
    let parts = parts(look);
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut meshes = Vec::new();
    let mut nodes = vec![serde_json::json!({
        "name": look.file_name().trim_end_matches(".glb"),
        "rotation": gltf_turn().to_array(),
        "children": (1..=parts.len()).collect::<Vec<_>>(),
    })];
    let mut paints: Vec<Paint> = Vec::new();
    for part in &parts {
        let mesh = part.shape.mesh();
        let positions = vec3s(&mesh, Mesh::ATTRIBUTE_POSITION);
        let normals = vec3s(&mesh, Mesh::ATTRIBUTE_NORMAL);
        let indices: Vec<u32> = match mesh.indices() {
            Some(Indices::U16(i)) => i.iter().map(|&k| u32::from(k)).collect(),
            Some(Indices::U32(i)) => i.clone(),
            None => (0..positions.len() as u32).collect(),
        };
        let (lo, hi) =
            positions
                .iter()
                .fold(([f32::MAX; 3], [f32::MIN; 3]), |(mut lo, mut hi), p| {
                    for k in 0..3 {
                        lo[k] = lo[k].min(p[k]);
                        hi[k] = hi[k].max(p[k]);
                    }
                    (lo, hi)
                });
        let mut view = |bytes: Vec<u8>, target: u32| {
            let offset = bin.len();
            bin.extend_from_slice(&bytes);
            views.push(serde_json::json!({
                "buffer": 0, "byteOffset": offset, "byteLength": bytes.len(), "target": target,
            }));
            views.len() - 1
        };
        let floats = |v: &[[f32; 3]]| v.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let p = view(floats(&positions), 34962);
        let n = view(floats(&normals), 34962);
        let i = view(
            indices.iter().flat_map(|k| k.to_le_bytes()).collect(),
            34963,
        );
        let first = accessors.len();
        accessors.push(serde_json::json!({
            "bufferView": p, "componentType": 5126, "count": positions.len(), "type": "VEC3",
            "min": lo, "max": hi,
        }));
        accessors.push(serde_json::json!({
            "bufferView": n, "componentType": 5126, "count": normals.len(), "type": "VEC3",
        }));
        accessors.push(serde_json::json!({
            "bufferView": i, "componentType": 5125, "count": indices.len(), "type": "SCALAR",
        }));
        let material = paints
            .iter()
            .position(|q| *q == part.paint)
            .unwrap_or_else(|| {
                paints.push(part.paint);
                paints.len() - 1
            });
        meshes.push(serde_json::json!({
            "name": format!("{:?}", part.shape).to_lowercase(),
            "primitives": [{
                "attributes": {"POSITION": first, "NORMAL": first + 1},
                "indices": first + 2,
                "material": material,
            }],
        }));
        let t = part.at;
        nodes.push(serde_json::json!({
            "mesh": meshes.len() - 1,
            "translation": t.translation.to_array(),
            "rotation": t.rotation.to_array(),
            "scale": t.scale.to_array(),
        }));
    }
    let materials: Vec<_> = paints
        .iter()
        .map(|paint| {
            let m = paint.material();
            let c = m.base_color.to_linear();
            serde_json::json!({
                "name": paint.name(),
                "pbrMetallicRoughness": {
                    "baseColorFactor": [c.red, c.green, c.blue, c.alpha],
                    "metallicFactor": m.metallic,
                    "roughnessFactor": m.perceptual_roughness,
                },
            })
        })
        .collect();
    let json = serde_json::json!({
        "asset": {"version": "2.0", "generator": "Sandtable's default looks"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": nodes,
        "meshes": meshes,
        "materials": materials,
        "accessors": accessors,
        "bufferViews": views,
        "buffers": [{"byteLength": bin.len()}],
    });
    let mut json = serde_json::to_vec(&json).expect("JSON of plain values");
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + json.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(&bin);
    out
}

fn vec3s(mesh: &Mesh, attribute: bevy::mesh::MeshVertexAttribute) -> Vec<[f32; 3]> {
    match mesh.attribute(attribute) {
        Some(VertexAttributeValues::Float32x3(v)) => v.clone(),
        _ => Vec::new(),
    }
}
