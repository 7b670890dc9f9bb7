//! The default looks in `assets/looks/` are the built-in parts written as
//! glTF: the table draws the same thing whether it reads the files or falls
//! back on the parts. `SANDTABLE_WRITE_LOOKS=1 cargo test --test looks`
//! writes the files again after the parts change.

use sandtable::cache::builtin::{DefaultLook, glb};

#[test]
fn the_default_look_files_are_the_built_in_parts() {
    let folder = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/assets/looks"));
    let write = std::env::var_os("SANDTABLE_WRITE_LOOKS").is_some();
    let mut stale = Vec::new();
    for look in DefaultLook::all() {
        let bytes = glb(look);
        let path = folder.join(look.file_name());
        if write {
            sandtable_scenario::files::write_atomically(
                &path,
                &bytes,
                sandtable_scenario::files::Backups::None,
            )
            .expect("write a default look");
        }
        match std::fs::read(&path) {
            Ok(on_disk) if on_disk == bytes => {}
            _ => stale.push(look.file_name()),
        }
    }
    assert!(
        stale.is_empty(),
        "assets/looks/ differs from the built-in parts in {stale:?}: run \
         SANDTABLE_WRITE_LOOKS=1 cargo test --test looks"
    );
}

#[test]
fn a_default_look_file_is_binary_gltf_with_its_materials_named() {
    let bytes = glb(DefaultLook::Unit);
    assert_eq!(&bytes[0..4], b"glTF");
    assert_eq!(u32::from_le_bytes(bytes[4..8].try_into().unwrap()), 2);
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize,
        bytes.len()
    );
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    let json: serde_json::Value = serde_json::from_slice(&bytes[20..20 + json_len]).expect("JSON");
    let names: Vec<&str> = json["materials"]
        .as_array()
        .expect("materials")
        .iter()
        .map(|m| m["name"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(
        names,
        ["player", "white"],
        "the body takes the player's colour"
    );
    // One root node turns the figure to face +Z, glTF's front; a node per part.
    assert_eq!(json["nodes"].as_array().map(Vec::len), Some(4));
    assert_eq!(json["scenes"][0]["nodes"], serde_json::json!([0]));
}
