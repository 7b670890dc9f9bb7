//! Conflict at Cache's looks on the table: the squares, terrain pieces,
//! bases, miniatures and stashes drawn in code or from the scenario's own
//! model files, the lights, and the marks of reachable squares, of the
//! acting unit and of a stash's choice. The entities they dress are the
//! shared table's (`crate::table`).

pub mod builtin;
pub mod looks;
pub mod models;
