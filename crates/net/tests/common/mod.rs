//! What the server's tests share.

use std::path::Path;

/// A game of Conflict at Cache.
pub type Cache = sandtable_cache::Game;

/// The standard Cache scenario, started.
#[allow(dead_code)]
pub fn cache_game() -> Cache {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/standard.ron");
    match sandtable_scenario::load_any(&path).expect("the standard scenario") {
        sandtable_scenario::Loaded::Cache(s) => s.game(),
        _ => panic!("a Cache scenario"),
    }
}
