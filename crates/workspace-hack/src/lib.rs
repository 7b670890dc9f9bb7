//! Nothing but dependencies: see this crate's `Cargo.toml`. The app depends
//! on it so that `cargo build` and `cargo test --workspace` resolve the same
//! features and share one build; nothing links against it.
