//! The files a table reads beside its built-in looks: the default looks
//! in the assets folder and a scenario's own models, for any system. Every
//! such file is read through one asset source, [`SOURCE`], whose paths
//! start with the token of a folder Sandtable allows (`assets/`, a
//! scenario's folder): a file is read only when it lies inside that folder,
//! is a regular file and holds at most [`MAX_MODEL_BYTES`]; a glTF file
//! names at most [`MAX_MODEL_REFERENCES`] others, each inside its folder.

use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use bevy::asset::io::{
    AssetReader, AssetReaderError, AssetSourceBuilder, PathStream, Reader, VecReader,
};
use bevy::prelude::*;
use sandtable_scenario::files::{ReadFileError, read_inside, stays_inside};

/// The asset source models are read through.
pub const SOURCE: &str = "sandtable-models";

/// Model files larger than this are refused: 64 MiB, room for a detailed
/// figure with its textures.
pub const MAX_MODEL_BYTES: u64 = 64 * 1024 * 1024;

/// At most this many files named by one glTF model (its buffers and
/// images that are not embedded).
pub const MAX_MODEL_REFERENCES: usize = 256;

/// The folders models may be read from, each under a token drawn at random
/// when it is first allowed, so that no file can name another folder's
/// token (`../TOKEN/x.bin` in a glTF file); shared with the asset source's
/// reader.
#[derive(Resource, Clone, Default)]
pub struct ModelFolders(Arc<RwLock<Vec<(String, PathBuf)>>>);

impl ModelFolders {
    /// The token of a folder, allowing it on first use.
    pub fn allow(&self, folder: &Path) -> String {
        use std::hash::{BuildHasher, Hasher};
        let mut folders = self.0.write().unwrap_or_else(|e| e.into_inner());
        if let Some((token, _)) = folders.iter().find(|(_, f)| f == folder) {
            return token.clone();
        }
        // The standard library seeds each `RandomState` at random.
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(folders.len());
        let token = format!("f{:016x}", h.finish());
        folders.push((token.clone(), folder.to_path_buf()));
        token
    }

    fn get(&self, token: &str) -> Option<PathBuf> {
        let folders = self.0.read().unwrap_or_else(|e| e.into_inner());
        folders
            .iter()
            .find(|(t, _)| t == token)
            .map(|(_, f)| f.clone())
    }
}

/// Reads `TOKEN/relative/path` as `relative/path` inside the folder allowed
/// under `TOKEN`.
struct FolderReader(ModelFolders);

fn io_error(text: impl Into<String>) -> AssetReaderError {
    AssetReaderError::Io(Arc::new(std::io::Error::other(text.into())))
}

impl FolderReader {
    fn bytes(&self, path: &Path) -> Result<Vec<u8>, AssetReaderError> {
        let mut parts = path.components();
        let folder = parts
            .next()
            .and_then(|c| self.0.get(c.as_os_str().to_str()?))
            .ok_or_else(|| AssetReaderError::NotFound(path.to_path_buf()))?;
        let relative = parts.as_path();
        let bytes = read_inside(&folder, relative, MAX_MODEL_BYTES).map_err(|e| match e {
            ReadFileError::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
                AssetReaderError::NotFound(folder.join(relative))
            }
            other => io_error(other.to_string()),
        })?;
        let name = relative.to_string_lossy();
        if name.ends_with(".gltf") || name.ends_with(".glb") {
            let dir = folder.join(relative.parent().unwrap_or(Path::new("")));
            check_references(&bytes, &dir).map_err(io_error)?;
        }
        Ok(bytes)
    }
}

/// Checks the files a glTF model names (buffers and images that are not
/// embedded) before any is read: each lies beside the model or below it
/// (no scheme, no root, no `..`), there are at most
/// [`MAX_MODEL_REFERENCES`], and the model with every file it names, each
/// counted as often as it is named, holds at most [`MAX_MODEL_BYTES`].
fn check_references(bytes: &[u8], dir: &Path) -> Result<(), String> {
    // Binary glTF: a 12-byte header, then the JSON chunk's length and type.
    let json = if bytes.starts_with(b"glTF") {
        bytes
            .get(12..16)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .and_then(|len| bytes.get(20..20usize.saturating_add(len)))
    } else {
        Some(bytes)
    };
    // A file cut short or not JSON: the glTF loader says what is wrong.
    let Some(doc) = json.and_then(|j| serde_json::from_slice::<serde_json::Value>(j).ok()) else {
        return Ok(());
    };
    let uris: Vec<&str> = ["buffers", "images"]
        .iter()
        .filter_map(|key| doc.get(key)?.as_array())
        .flatten()
        .filter_map(|entry| entry.get("uri")?.as_str())
        .filter(|uri| !uri.starts_with("data:"))
        .collect();
    if uris.len() > MAX_MODEL_REFERENCES {
        return Err(format!(
            "it names {} files; at most {MAX_MODEL_REFERENCES} are allowed",
            uris.len()
        ));
    }
    let mut total = bytes.len() as u64;
    for uri in uris {
        let name = percent_decoded(uri)
            .ok_or_else(|| format!("it names {uri:?}, which is not a file name"))?;
        let path = Path::new(&name);
        if name.contains(':') || name.contains('\\') || !stays_inside(path) {
            return Err(format!(
                "it names {name:?}: the files a model names must lie beside it or below it"
            ));
        }
        total = total.saturating_add(std::fs::metadata(dir.join(path)).map_or(0, |m| m.len()));
        if total > MAX_MODEL_BYTES {
            return Err(format!(
                "with the files it names it holds more than {MAX_MODEL_BYTES} bytes, the most a model may"
            ));
        }
    }
    Ok(())
}

/// A URI's `%XX` escapes decoded, or `None` when they are not UTF-8.
fn percent_decoded(uri: &str) -> Option<String> {
    let bytes = uri.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl AssetReader for FolderReader {
    async fn read<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        self.bytes(path).map(VecReader::new)
    }

    async fn read_meta<'a>(&'a self, path: &'a Path) -> Result<impl Reader + 'a, AssetReaderError> {
        // Models carry no Bevy settings files.
        Err::<VecReader, _>(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn read_directory<'a>(
        &'a self,
        path: &'a Path,
    ) -> Result<Box<PathStream>, AssetReaderError> {
        Err(AssetReaderError::NotFound(path.to_path_buf()))
    }

    async fn is_directory<'a>(&'a self, _path: &'a Path) -> Result<bool, AssetReaderError> {
        Ok(false)
    }
}

/// Registers the models' asset source: call it before `AssetPlugin` (that
/// is, before `DefaultPlugins`).
pub fn asset_source(app: &mut App) {
    let folders = ModelFolders::default();
    let shared = folders.clone();
    app.register_asset_source(
        SOURCE,
        AssetSourceBuilder::new(move || Box::new(FolderReader(shared.clone()))),
    );
    app.insert_resource(folders);
}

/// The assets folder the table reads its default looks from, and a
/// scenario's models when they are not beside it.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct AssetsFolder(pub PathBuf);

impl Default for AssetsFolder {
    fn default() -> Self {
        AssetsFolder(assets_folder())
    }
}

/// The assets folder: `SANDTABLE_ASSETS` when set, else `assets/` beside
/// the executable when there is one, else the one a package installed
/// ([`installed_folder`](crate::session::files::installed_folder)), else
/// the source tree's.
pub fn assets_folder() -> PathBuf {
    if let Some(dir) = std::env::var_os("SANDTABLE_ASSETS") {
        return PathBuf::from(dir);
    }
    let beside = std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|d| d.join("assets")))
        .filter(|d| d.is_dir());
    beside
        .or_else(|| {
            crate::session::files::installed_folder()
                .map(|d| d.join("assets"))
                .filter(|d| d.is_dir())
        })
        .unwrap_or_else(|| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/assets")))
}
