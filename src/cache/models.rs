//! Models on the table: the default looks in `assets/looks/` and a
//! scenario's own glTF models, read under the file rules, placed at their
//! scale, given their players' colours, and replaced by the next look down
//! (the scenario's model, the default file, the built-in parts) when one
//! cannot be read, with a notice.
//!
//! Every model is read through one asset source, [`SOURCE`], whose paths
//! start with the number of a folder Sandtable allows (`assets/`, a
//! scenario's folder): a file is read only when it lies inside that folder,
//! is a regular file and holds at most [`MAX_MODEL_BYTES`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use bevy::asset::io::AssetReaderError;
use bevy::asset::{AssetLoadError, AssetPath, LoadState, RecursiveDependencyLoadState};
use bevy::gltf::{GltfAssetLabel, GltfLoaderSettings, GltfMaterialName};
use bevy::prelude::*;
use bevy::world_serialization::{WorldAsset, WorldAssetRoot, WorldInstanceReady};
use sandtable_scenario::{ModelTerrain, PieceOf, models::model_for};

use super::builtin::{DefaultLook, PLAYER_DARK_MATERIAL, PLAYER_MATERIAL, gltf_turn};
use crate::cache::table::{
    BasePiece, Owner, SQUARE, StashToken, TerrainPiece, UnitPiece, square_center,
};
use crate::session::Notice;
use crate::table::{Offending, TableShown};

pub use crate::table::files::{
    AssetsFolder, MAX_MODEL_BYTES, MAX_MODEL_REFERENCES, ModelFolders, SOURCE, asset_source,
    assets_folder,
};

/// The folder of the default looks inside the assets folder.
pub const LOOKS_FOLDER: &str = "looks";

/// The models in use and what became of them.
#[derive(Resource, Default)]
pub struct Models {
    /// The default looks, read from `assets/looks/`.
    pub defaults: HashMap<DefaultLook, Handle<WorldAsset>>,
    /// The scenario's entries, in its order; `None` where the file was not
    /// found.
    pub custom: Vec<Option<Handle<WorldAsset>>>,
    /// The entries and folder `custom` was read for.
    made_for: Option<(Vec<sandtable_scenario::ModelChoice>, Option<PathBuf>)>,
    /// Models that could not be read or understood.
    pub failed: HashSet<AssetId<WorldAsset>>,
    /// Models still loading (or whose textures are), with the file they
    /// come from and what is drawn when one fails.
    pending: Vec<(Handle<WorldAsset>, String, &'static str)>,
}

impl Models {
    fn usable(&self, handle: &Handle<WorldAsset>) -> bool {
        !self.failed.contains(&handle.id())
    }

    /// Watches a model being loaded (once, however many entries name it);
    /// one that failed before is tried again.
    fn watch(&mut self, handle: &Handle<WorldAsset>, file: String, instead: &'static str) {
        self.failed.remove(&handle.id());
        if !self.pending.iter().any(|(h, ..)| h.id() == handle.id()) {
            self.pending.push((handle.clone(), file, instead));
        }
    }
}

/// A piece's figure: the model, or the built-in parts, as one child.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Figure {
    /// The model drawn; `None` for the built-in parts.
    pub model: Option<AssetId<WorldAsset>>,
    /// The scale the model is drawn at, in world units per model unit.
    pub scale: f32,
}

/// A piece whose figure is to be placed (again).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsFigure;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<Models>()
        .init_resource::<ModelFolders>()
        .init_resource::<AssetsFolder>()
        .add_systems(Startup, load_default_looks)
        .add_observer(paint_model);
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
        models.defaults.insert(look, handle);
    }
}

/// Loads the first scene of a glTF file in an allowed folder; cameras and
/// lights in the file are left out (the table has its own).
fn load(server: &AssetServer, folder: &str, file: &str) -> Handle<WorldAsset> {
    let path = AssetPath::from_path_buf(Path::new(folder).join(file))
        .with_source(SOURCE)
        .with_label(GltfAssetLabel::Scene(0).to_string());
    server
        .load_builder()
        .with_settings(|settings: &mut GltfLoaderSettings| {
            settings.load_cameras = false;
            settings.load_lights = false;
        })
        .load(path)
}

/// Reads the scenario's models when the table shows other entries or
/// another folder: each file is looked for in the scenario's folder, then
/// in the assets folder.
pub(crate) fn load_scenario_models(
    shown: Res<TableShown>,
    server: Res<AssetServer>,
    folders: Res<ModelFolders>,
    assets: Res<AssetsFolder>,
    mut models: ResMut<Models>,
    mut notice: ResMut<Notice>,
) {
    if !shown.is_changed() {
        return;
    }
    let wanted = (shown.models.clone(), shown.folder.clone());
    if models.made_for.as_ref() == Some(&wanted) {
        return;
    }
    let assets = &assets.0;
    let mut missing = Vec::new();
    let custom: Vec<Option<Handle<WorldAsset>>> = shown
        .models
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let found = shown
                .folder
                .iter()
                .chain([assets])
                .find(|dir| dir.join(&m.file).exists());
            match found {
                Some(dir) => {
                    let handle = load(&server, &folders.allow(dir), &m.file);
                    let file_path = dir.join(&m.file).display().to_string();
                    models.watch(&handle, file_path, "the default look");
                    Some(handle)
                }
                None => {
                    let places = match &shown.folder {
                        Some(f) => format!("{} or {}", f.display(), assets.display()),
                        None => assets.display().to_string(),
                    };
                    // One unit keeps its look; pieces keep theirs.
                    let keep = match m.piece {
                        sandtable_scenario::ModelPiece::Unit(_) => "keeps its",
                        _ => "keep their",
                    };
                    missing.push(format!(
                        "models[{i}]: {} is not in {places}; {} {keep} default look",
                        m.file,
                        m.describe()
                    ));
                    None
                }
            }
        })
        .collect();
    models.custom = custom;
    models.made_for = Some(wanted);
    // Models of a scenario no longer shown are not watched: their failure
    // would be news of nothing on the table.
    let Models {
        pending,
        defaults,
        custom,
        ..
    } = &mut *models;
    pending.retain(|(h, ..)| {
        defaults
            .values()
            .chain(custom.iter().flatten())
            .any(|d| d.id() == h.id())
    });
    for line in missing {
        let line = sandtable_scenario::files::printable(&line).into_owned();
        warn!("{line}");
        add_notice(&mut notice, line);
    }
}

/// A notice after any other text already shown, which keeps its colour.
fn add_notice(notice: &mut Notice, text: String) {
    match notice.text.as_mut() {
        Some(before) if !before.is_empty() => {
            before.push('\n');
            before.push_str(&text);
        }
        _ => notice.info(text),
    }
}

/// Watches models that are loading: one that fails is marked so, said in a
/// notice, and every figure drawn with it is placed again with the next
/// look down.
pub(crate) fn watch_model_loads(
    mut commands: Commands,
    server: Res<AssetServer>,
    mut models: ResMut<Models>,
    mut notice: ResMut<Notice>,
    figures: Query<(Entity, &Figure, &ChildOf)>,
) {
    if models.pending.is_empty() {
        return;
    }
    let mut failed_now = Vec::new();
    let mut lines = Vec::new();
    models.pending.retain(
        |(handle, file, instead)| match server.load_state(handle.id()) {
            LoadState::Failed(error) => {
                failed_now.push(handle.id());
                lines.push(format!(
                    "model not drawn: {file}: {}; {instead} is drawn instead",
                    why(&error)
                ));
                false
            }
            // A model read whose textures could not be: drawn without them.
            LoadState::Loaded => match server.recursive_dependency_load_state(handle.id()) {
                RecursiveDependencyLoadState::Failed(error) => {
                    lines.push(format!(
                        "model drawn without some of its files: {file}: {}",
                        why(&error)
                    ));
                    false
                }
                RecursiveDependencyLoadState::Loaded => false,
                _ => true,
            },
            LoadState::NotLoaded | LoadState::Loading => true,
        },
    );
    for line in lines {
        let line = sandtable_scenario::files::printable(&line).into_owned();
        warn!("{line}");
        add_notice(&mut notice, line);
    }
    if failed_now.is_empty() {
        return;
    }
    models.failed.extend(failed_now);
    // A piece with a failed figure gets all its figures again (a terrain
    // piece has one a square).
    let pieces: HashSet<Entity> = figures
        .iter()
        .filter(|(_, figure, _)| figure.model.is_some_and(|m| models.failed.contains(&m)))
        .map(|(_, _, parent)| parent.parent())
        .collect();
    for (e, _, parent) in &figures {
        if pieces.contains(&parent.parent()) {
            commands.entity(e).despawn();
        }
    }
    for piece in pieces {
        commands.entity(piece).insert(NeedsFigure);
    }
}

/// Why a model could not be read, in one line: the loader's or the file
/// rules' own words, without the asset source's inner names or a backtrace.
fn why(error: &AssetLoadError) -> String {
    let text = match error {
        AssetLoadError::AssetLoaderError(e) => e.error().to_string(),
        AssetLoadError::AssetReaderError(AssetReaderError::NotFound(_)) => "not found".to_owned(),
        AssetLoadError::AssetReaderError(AssetReaderError::Io(e)) => e.to_string(),
        AssetLoadError::MissingLabel { .. } => "it holds no scene to draw".to_owned(),
        AssetLoadError::AssetLoaderPanic { .. } => "the glTF loader could not read it".to_owned(),
        AssetLoadError::MissingAssetLoaderForExtension(_)
        | AssetLoadError::MissingAssetLoaderForTypeName(_)
        | AssetLoadError::MissingAssetLoaderForTypeIdError(_)
        | AssetLoadError::MissingAssetLoader { .. } => {
            "no loader reads files of this kind".to_owned()
        }
        other => other.to_string(),
    };
    text.lines().next().unwrap_or_default().to_owned()
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
    match models.defaults.get(&look) {
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

/// When a model's figure has been spawned: its `player` materials take the
/// player's colours, a piece that breaks a ruling is all red, and only the
/// figures of units and bases can be picked (clicks on the rest go to the
/// square below).
fn paint_model(
    ready: On<WorldInstanceReady>,
    mut commands: Commands,
    figures: Query<&ChildOf, With<Figure>>,
    pieces: Query<(
        Option<&Owner>,
        Has<Offending>,
        Has<UnitPiece>,
        Has<BasePiece>,
    )>,
    children: Query<&Children>,
    names: Query<&GltfMaterialName>,
    meshes: Query<(), With<Mesh3d>>,
    looks: Option<Res<super::looks::Looks>>,
    players: Option<Res<super::looks::PlayerLooks>>,
) {
    let figure = ready.event().entity;
    let Ok(parent) = figures.get(figure) else {
        return;
    };
    let (owner, offending, unit, base) = pieces
        .get(parent.parent())
        .unwrap_or((None, false, false, false));
    let look = owner.and_then(|o| players.as_deref()?.0.get(usize::from(o.0.0)));
    for e in children.iter_descendants(figure) {
        let mut entity = commands.entity(e);
        if !(unit || base) {
            entity.insert(Pickable::IGNORE);
        }
        if meshes.get(e).is_err() {
            continue;
        }
        let material = if offending {
            looks.as_deref().map(|l| l.offending_material())
        } else {
            match (names.get(e).map(|n| n.0.as_str()), look) {
                (Ok(PLAYER_MATERIAL), Some(look)) => Some(look.colour_material()),
                (Ok(PLAYER_DARK_MATERIAL), Some(look)) => Some(look.dark_material()),
                _ => None,
            }
        };
        if let Some(material) = material {
            entity.insert(MeshMaterial3d(material));
        }
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
