//! The shared table: what every rule system's table is made of and tells
//! the camera, the panels and the layout. Every entity of a table is a
//! [`TablePiece`], taken away when another table is built; [`TableShown`]
//! says what is shown (its surface, physical table, colours and models);
//! [`TableBuilt`] tells that a table was built anew and [`TableRebuild`]
//! asks for one. Each system builds and syncs its own entities
//! (`crate::cache::table`, `crate::warpspawn::table`,
//! `crate::frontiers::table`); the scenario's models, the seats' paints and
//! the figures' painting are [`models`]'.

pub mod files;
pub mod models;

use bevy::prelude::*;
use sandtable_core::game::Surface;
use sandtable_scenario::{Colour, ModelChoice, Physical};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<TableShown>()
        .add_message::<TableRebuild>()
        .add_message::<TableBuilt>();
}

/// Every entity of the table, to be despawned when another game is loaded.
#[derive(Component, Debug, Clone, Copy)]
pub struct TablePiece;

/// Build the table anew from what it should show now: the layout being
/// edited while layout mode is on, else the game.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableRebuild;

/// The table was built anew; `reframe` when the board's size changed or a
/// game was loaded, so that the camera frames it again.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableBuilt {
    /// The camera should frame the board again.
    pub reframe: bool,
}

/// What the table shows: its surface, physical table and player colours.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct TableShown {
    /// The surface the table shows: a board of squares, a map of hexes;
    /// `None` until a table is built.
    pub surface: Option<Surface>,
    /// The table's width and depth in world units, the whole physical table
    /// where it is larger than the grid, for the camera to frame; `None`
    /// until a table is built.
    pub extent: Option<Vec2>,
    /// The physical table, if the scenario gives one.
    pub physical: Option<Physical>,
    /// Player colours, in turn order.
    pub colours: Vec<Colour>,
    /// The scenario's own models.
    pub models: Vec<ModelChoice>,
    /// The folder of the scenario's file, where its models are looked for
    /// first; `None` for the embedded or an unsaved scenario.
    pub folder: Option<std::path::PathBuf>,
}

/// The folder a scenario's file lies in, as an absolute path: a bare file
/// name's folder is the working folder.
pub fn scenario_folder(file: &std::path::Path) -> Option<std::path::PathBuf> {
    let dir = file.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        std::path::Path::new(".")
    } else {
        dir
    };
    Some(std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf()))
}

/// A piece that breaks a ruling: it is drawn red. The layout editor marks
/// the pieces of its layout so.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Offending;

/// A piece selected on the table: a glow marks it. The layout editor
/// selects with clicks.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selected;

/// A flat piece: round (`sides` under 3), or a regular polygon with a side
/// facing the front (-Z), `radius` across to its corners, `height` thick.
pub fn shaped(sides: u32, radius: f32, height: f32) -> Mesh {
    if sides < 3 {
        return Cylinder::new(radius, height).into();
    }
    // The polygon lies in the XY plane and is thickened along Z: turned to
    // lie flat, centred on the origin like the cylinder.
    let mut mesh: Mesh = Extrusion::new(RegularPolygon::new(radius, sides), height).into();
    let turn = Quat::from_rotation_x(-std::f32::consts::FRAC_PI_2)
        * Quat::from_rotation_z(std::f32::consts::PI / sides as f32);
    mesh.rotate_by(turn);
    mesh
}

/// A matte material of `colour`, as table pieces are painted.
pub fn matte(materials: &mut Assets<StandardMaterial>, colour: Color) -> Handle<StandardMaterial> {
    materials.add(StandardMaterial {
        base_color: colour,
        perceptual_roughness: 0.9,
        ..default()
    })
}

/// Side or player `side`'s colour on the table shown (grey where it has
/// none).
pub fn side_colour(shown: &TableShown, side: u8) -> Color {
    let [r, g, b] = shown
        .colours
        .get(usize::from(side))
        .map_or([200, 200, 200], |c| c.0);
    Color::srgb_u8(r, g, b)
}
