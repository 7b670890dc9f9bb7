//! The secrets oracle: what each seat may not know at a position, read
//! from the referee's game by the rulings alone (R46, R51, R55, R57 for
//! the off-board grid; R107, R108, R143, R149 for Frontiers), and where a
//! view would show it. It calls none of the rules crates' view code
//! (their masks, their `located_by`, their text of markers), so that the
//! oracle and the views can disagree: a test checks every view a seat is
//! given (the contract's JSON and text views, its log lines, its masked
//! copy, what a table draws for it) against the oracle.
//!
//! Conflict at Cache and the battle without its grid hide nothing beyond
//! the dice to come, which no view holds; their oracle finds nothing.
//!
//! ```
//! use sandtable_core::game::{GameState, Seat, Viewer};
//! use sandtable_secrets::{Oracle, leaks_of};
//! # fn check<G: Oracle>(game: &G) {
//! for viewer in [Viewer::Player(Seat(0)), Viewer::Player(Seat(1)), Viewer::Public] {
//!     let leaks = leaks_of(game, viewer, &[]);
//!     assert!(leaks.is_empty(), "{viewer:?}: {leaks:?}");
//! }
//! # }
//! ```

mod grid;
mod skirmish;

use sandtable_core::game::{GameState, Spot, Viewer};

/// What a view shows that its viewer may not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Leak {
    /// The fact, in words.
    pub what: String,
    /// The rulings that hide it.
    pub ruling: &'static str,
    /// Where the view shows it: the line, or the JSON entry.
    pub found: String,
}

/// A game the oracle reads.
pub trait Oracle: GameState {
    /// What `viewer`'s JSON view `json` shows that it may not know.
    fn leaks_in_json(&self, viewer: Viewer, json: &serde_json::Value) -> Vec<Leak>;
    /// What lines of text shown to `viewer` (a text board, log lines, a
    /// panel, hover texts) say that it may not know.
    fn leaks_in_lines(&self, viewer: Viewer, lines: &[&str]) -> Vec<Leak>;
    /// The places whose hover text (`GameState::describe_spot`) could
    /// tell a secret: where a piece with a secret stands, and where a
    /// hidden thing lies.
    fn hover_spots(&self) -> Vec<Spot>;
}

/// Every leak of what `game` shows `viewer`: its JSON and text views,
/// its hover texts, the JSON view of its masked copy (what a client of
/// the viewer holds; the copy's text is its JSON's, and
/// `GameState::masked` promises the copy looks the same to its viewer,
/// which `crates/cli/tests/masked.rs` checks), and `lines` shown to it
/// besides (a table's labels, say).
pub fn leaks_of<G: Oracle>(game: &G, viewer: Viewer, lines: &[String]) -> Vec<Leak> {
    let mut leaks = json_leaks_of(game, viewer);
    let text = game.draw_text(viewer);
    leaks.extend(game.leaks_in_lines(viewer, &text.lines().collect::<Vec<_>>()));
    let hovers: Vec<String> = game
        .hover_spots()
        .into_iter()
        .filter_map(|spot| game.describe_spot(spot, viewer))
        .collect();
    let lines: Vec<&str> = lines.iter().chain(&hovers).map(String::as_str).collect();
    leaks.extend(game.leaks_in_lines(viewer, &lines));
    leaks
}

/// The leaks of `viewer`'s JSON view of `game` and of its masked copy:
/// [`leaks_of`] without the text board, which takes far longer to draw
/// on an open table.
pub fn json_leaks_of<G: Oracle>(game: &G, viewer: Viewer) -> Vec<Leak> {
    let masked = game.masked(viewer);
    let mut leaks = Vec::new();
    for shown in [game, &masked] {
        let json: serde_json::Value =
            serde_json::from_str(&shown.view_json(viewer)).unwrap_or(serde_json::Value::Null);
        leaks.extend(game.leaks_in_json(viewer, &json));
    }
    leaks
}

/// The leaks of log lines written when a command took `before` to
/// `after`: a fact the viewer knew on one side of the command (a counter
/// seen before it marched into its reserve, a marker turned up by it) may
/// be told; one it knew neither before nor after may not.
pub fn log_leaks<G: Oracle>(before: &G, after: &G, viewer: Viewer, lines: &[String]) -> Vec<Leak> {
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let earlier = before.leaks_in_lines(viewer, &lines);
    after
        .leaks_in_lines(viewer, &lines)
        .into_iter()
        .filter(|l| earlier.iter().any(|e| e.what == l.what))
        .collect()
}

/// Whether `line` says `words` as words of its own: not inside a longer
/// word or number (`1T 2S` is not said by `11T 2S`).
pub(crate) fn says(line: &str, words: &str) -> bool {
    let edge = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric());
    line.match_indices(words).any(|(at, _)| {
        edge(line[..at].chars().next_back()) && edge(line[at + words.len()..].chars().next())
    })
}

/// Every string of a JSON value, with the path to it: views hold lines
/// of text in their strings too (a crate's line, a unit's markers).
pub(crate) fn strings(value: &serde_json::Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::String(s) => out.push(s.as_str()),
            serde_json::Value::Array(items) => stack.extend(items),
            serde_json::Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    out
}
