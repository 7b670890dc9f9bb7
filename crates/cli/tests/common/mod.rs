//! What the end-to-end tests of the `sandtable-cli` binary share: the
//! repository's root, a run of the binary from it, and a fresh folder.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The repository's root, where the shipped scenarios are.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A run of the binary from the repository's root.
pub fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the binary runs")
}

/// Output as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A new empty folder for one test of this process.
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sandtable-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}
