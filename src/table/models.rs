//! Models on the table, for every rule system: a scenario's own glTF
//! models, read under the file rules, watched while they load, and replaced
//! by the next look down (the system's default file, its built-in parts)
//! when one cannot be read, with a notice; and a model's figure painted in
//! its seat's colours once spawned.
//!
//! Every model is read through one asset source, [`SOURCE`], whose paths
//! start with the number of a folder Sandtable allows (`assets/`, a
//! scenario's folder): a file is read only when it lies inside that folder,
//! is a regular file and holds at most [`MAX_MODEL_BYTES`]. Each system
//! places its pieces' figures from [`Models`] after
//! [`load_scenario_models`], and reads its own default looks from
//! [`LOOKS_FOLDER`] with [`load`].

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use bevy::asset::io::AssetReaderError;
use bevy::asset::{AssetLoadError, AssetPath, LoadState, RecursiveDependencyLoadState};
use bevy::gltf::{GltfAssetLabel, GltfLoaderSettings, GltfMaterialName};
use bevy::prelude::*;
use bevy::world_serialization::{WorldAsset, WorldInstanceReady};

use crate::schedule::AppSystems;
use crate::session::Notice;
use crate::table::{Offending, TableBuilt, TableShown};

pub use crate::table::files::{
    AssetsFolder, MAX_MODEL_BYTES, MAX_MODEL_REFERENCES, ModelFolders, SOURCE, asset_source,
    assets_folder,
};

/// The folder of the default looks inside the assets folder.
pub const LOOKS_FOLDER: &str = "looks";

/// The name of the material that takes the player's colour.
pub const PLAYER_MATERIAL: &str = "player";

/// The name of the material that takes a darker shade of the player's colour.
pub const PLAYER_DARK_MATERIAL: &str = "player dark";

/// The models' resources, the painting of a figure once spawned, and the
/// reading of a scenario's models while the table shows it.
pub fn plugin(app: &mut App) {
    app.init_resource::<Models>()
        .init_resource::<ModelFolders>()
        .init_resource::<AssetsFolder>()
        .add_systems(Startup, make_offending)
        .add_systems(
            Update,
            (
                make_seat_paints,
                (load_scenario_models, watch_model_loads).chain(),
            )
                .after(AppSystems::SyncTable)
                .before(AppSystems::Animate),
        )
        .add_observer(paint_model);
}

/// The seat a piece belongs to, by its index in turn order: its figure's
/// `player` materials take that seat's colours.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub u16);

/// A piece clicked on its figure; every other figure lets clicks through
/// to what lies below it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PickedByFigure;

/// The materials every seat's pieces are painted with, in turn order, and
/// the red of a piece that breaks a ruling.
#[derive(Resource, Debug)]
pub struct SeatPaints {
    /// Each seat's colour and its darker shade.
    pub seats: Vec<SeatPaint>,
    /// The red of a piece that breaks a ruling.
    pub offending: Handle<StandardMaterial>,
}

/// One seat's paints.
#[derive(Debug, Clone)]
pub struct SeatPaint {
    /// The seat's colour.
    pub colour: Handle<StandardMaterial>,
    /// A darker shade of it.
    pub dark: Handle<StandardMaterial>,
}

/// Makes the red of a piece that breaks a ruling.
pub fn make_offending(mut commands: Commands, mut materials: ResMut<Assets<StandardMaterial>>) {
    commands.insert_resource(SeatPaints {
        seats: Vec::new(),
        offending: materials.add(StandardMaterial {
            base_color: Color::srgb(0.92, 0.10, 0.08),
            emissive: LinearRgba::rgb(0.5, 0.02, 0.0),
            perceptual_roughness: 0.6,
            ..default()
        }),
    });
}

/// Each seat's paints, made again whenever a table is built: its colour
/// and a shade at half of it.
pub fn make_seat_paints(
    mut built: MessageReader<TableBuilt>,
    shown: Res<TableShown>,
    mut paints: ResMut<SeatPaints>,
    mut materials: ResMut<Assets<StandardMaterial>>,
) {
    if built.read().count() == 0 {
        return;
    }
    paints.seats = shown
        .colours
        .iter()
        .map(|c| {
            let [r, g, b] = c.0;
            let mut paint = |colour| {
                materials.add(StandardMaterial {
                    base_color: colour,
                    perceptual_roughness: 0.85,
                    ..default()
                })
            };
            SeatPaint {
                colour: paint(Color::srgb_u8(r, g, b)),
                dark: paint(Color::srgb_u8(r / 2, g / 2, b / 2)),
            }
        })
        .collect();
}

/// The models in use and what became of them.
#[derive(Resource, Default)]
pub struct Models {
    /// The default looks, read from `assets/looks/`, by their file's name.
    pub defaults: HashMap<String, Handle<WorldAsset>>,
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
    /// Whether a model may be drawn: it did not fail to load.
    pub fn usable(&self, handle: &Handle<WorldAsset>) -> bool {
        !self.failed.contains(&handle.id())
    }

    /// Watches a model being loaded (once, however many entries name it);
    /// one that failed before is tried again.
    pub fn watch(&mut self, handle: &Handle<WorldAsset>, file: String, instead: &'static str) {
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

/// Loads the first scene of a glTF file in an allowed folder; cameras and
/// lights in the file are left out (the table has its own).
pub fn load(server: &AssetServer, folder: &str, file: &str) -> Handle<WorldAsset> {
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
pub fn load_scenario_models(
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
pub fn watch_model_loads(
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

/// When a model's figure has been spawned: its `player` materials take the
/// seat's colours, a piece that breaks a ruling is all red, and only the
/// figures of pieces [`PickedByFigure`] can be picked (clicks on the rest
/// go to what lies below).
fn paint_model(
    ready: On<WorldInstanceReady>,
    mut commands: Commands,
    figures: Query<&ChildOf, With<Figure>>,
    pieces: Query<(Option<&Owner>, Has<Offending>, Has<PickedByFigure>)>,
    children: Query<&Children>,
    names: Query<&GltfMaterialName>,
    meshes: Query<(), With<Mesh3d>>,
    paints: Res<SeatPaints>,
) {
    let figure = ready.event().entity;
    let Ok(parent) = figures.get(figure) else {
        return;
    };
    let (owner, offending, picked) = pieces.get(parent.parent()).unwrap_or((None, false, false));
    let look = owner.and_then(|o| paints.seats.get(usize::from(o.0)));
    for e in children.iter_descendants(figure) {
        let mut entity = commands.entity(e);
        if !picked {
            entity.insert(Pickable::IGNORE);
        }
        if meshes.get(e).is_err() {
            continue;
        }
        let material = if offending {
            Some(paints.offending.clone())
        } else {
            match (names.get(e).map(|n| n.0.as_str()), look) {
                (Ok(PLAYER_MATERIAL), Some(look)) => Some(look.colour.clone()),
                (Ok(PLAYER_DARK_MATERIAL), Some(look)) => Some(look.dark.clone()),
                _ => None,
            }
        };
        if let Some(material) = material {
            entity.insert(MeshMaterial3d(material));
        }
    }
}
