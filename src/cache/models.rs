//! Cache's models: its default looks read from `assets/looks/` (a unit, a
//! base, a stash, each kind of ground), and the look a piece is drawn
//! with: the scenario's model when it was read, else the default file,
//! else the built-in parts, at a square's scale. Reading, watching and
//! painting models is the shared table's (`crate::table::models`).

use bevy::prelude::*;
use bevy::world_serialization::{WorldAsset, WorldAssetRoot};
use sandtable_scenario::{ModelTerrain, PieceOf, models::model_for};

use super::builtin::{DefaultLook, gltf_turn};
use crate::cache::table::{BasePiece, SQUARE, StashToken, TerrainPiece, UnitPiece, square_center};
use crate::table::TableShown;
use crate::table::models::{AssetsFolder, Figure, LOOKS_FOLDER, ModelFolders, Models, load};

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(Startup, load_default_looks);
}

/// Reads the default looks from `assets/looks/`.
fn load_default_looks(
    server: Res<AssetServer>,
    folders: Res<ModelFolders>,
    assets: Res<AssetsFolder>,
    mut models: ResMut<Models>,
) {
    let assets = &assets.0;
    let id = folders.allow(assets);
    for look in DefaultLook::all() {
        let file = format!("{LOOKS_FOLDER}/{}", look.file_name());
        let handle = load(&server, &id, &file);
        models.watch(
            &handle,
            assets.join(&file).display().to_string(),
            "the built-in look",
        );
        models.defaults.insert(look.file_name(), handle);
    }
}

/// What a piece's figure is drawn with.
pub(crate) enum Pick {
    /// A model at a scale (world units per model unit).
    Model(Handle<WorldAsset>, f32),
    /// The built-in parts of a default look.
    Builtin(DefaultLook),
}

/// The look for a piece: the scenario's model when there is one that was
/// read, else the default file, else the built-in parts.
pub(crate) fn pick(
    models: &Models,
    shown: &TableShown,
    custom: Option<usize>,
    look: DefaultLook,
) -> Pick {
    if let Some(i) = custom
        && let (Some(Some(handle)), Some(entry)) = (models.custom.get(i), shown.models.get(i))
        && models.usable(handle)
    {
        let square_mm = crate::cache::table::shown_physical(shown).square_mm;
        let scale = (entry.unit_mm / square_mm) as f32 * SQUARE;
        return Pick::Model(handle.clone(), scale);
    }
    match models.defaults.get(&look.file_name()) {
        Some(handle) if models.usable(handle) => Pick::Model(handle.clone(), SQUARE),
        _ => Pick::Builtin(look),
    }
}

/// The scenario entry for a square of ground, if any. Terrain belongs to
/// no player (the loader refuses an entry that names one), so no player
/// names are needed to choose.
pub(crate) fn terrain_model(shown: &TableShown, kind: ModelTerrain) -> Option<usize> {
    model_for(&shown.models, PieceOf::Terrain(kind), &[])
}

/// The figure child of a piece drawn with a model, at `at` (the piece's
/// origin for units, bases and stashes; a square for terrain).
pub(crate) fn model_figure(handle: Handle<WorldAsset>, scale: f32, at: Transform) -> impl Bundle {
    let id = handle.id();
    (
        WorldAssetRoot(handle),
        Transform {
            rotation: at.rotation * gltf_turn(),
            scale: Vec3::splat(scale),
            ..at
        },
        Figure {
            model: Some(id),
            scale,
        },
    )
}

/// The default look a piece has, by its kind.
pub(crate) fn default_look(
    unit: Option<&UnitPiece>,
    base: Option<&BasePiece>,
    stash: Option<&StashToken>,
) -> Option<DefaultLook> {
    match (unit, base, stash) {
        (Some(_), _, _) => Some(DefaultLook::Unit),
        (_, Some(_), _) => Some(DefaultLook::Base),
        (_, _, Some(_)) => Some(DefaultLook::Stash),
        _ => None,
    }
}

/// Where a terrain square's figure stands: its square's centre, a low
/// wall turned to run along its neighbours.
pub(crate) fn terrain_spot(
    board: sandtable_cache::Board,
    piece: &TerrainPiece,
    sq: sandtable_cache::Square,
    ground: sandtable_cache::Ground,
) -> Transform {
    let at = Transform::from_translation(square_center(board, sq));
    if ground == sandtable_cache::Ground::LowWall {
        let along_x = piece.squares.iter().any(|(o, g)| {
            *g == sandtable_cache::Ground::LowWall && o.row == sq.row && o.col.abs_diff(sq.col) == 1
        });
        if along_x {
            return at.with_rotation(Quat::from_rotation_y(std::f32::consts::FRAC_PI_2));
        }
    }
    at
}
