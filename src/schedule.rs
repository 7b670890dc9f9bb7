//! The order of Sandtable's work in a frame, for every folder: the sets
//! each system of the app runs in. Every folder orders its systems by
//! these, never by another folder's systems; the registration of the
//! rule systems (`src/lib.rs`) imports the folders, and no folder imports
//! it.

use bevy::prelude::*;

/// The order of Sandtable's work in a frame. Input becomes requests, requests
/// are applied by the rules crate, then the table and the visuals follow.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AppSystems {
    /// Keys, clicks and panel buttons become command requests.
    RecordInput,
    /// Requests go to the rules crate; its events are published.
    ApplyCommands,
    /// Entities follow the game state.
    SyncTable,
    /// Short-lived visuals: floating bonuses, highlights.
    Animate,
}

/// The steps of [`AppSystems::ApplyCommands`], in order: every folder
/// orders its systems by these sets, never by another folder's systems.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FlowSteps {
    /// The answers to the question on show (save first, discard, replace).
    Answers,
    /// The scenario started again.
    NewGame,
    /// A file opened: the game in play may change here.
    Open,
    /// The game's own flow: the hand-over taken, commands, undo, saves.
    Play,
    /// What follows a game opened or played: the seats fitted to it, the
    /// bot's hand-over, the layout editor started again.
    Follow,
}

/// Orders the sets in `Update`.
pub(crate) fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            AppSystems::RecordInput,
            AppSystems::ApplyCommands,
            AppSystems::SyncTable,
            AppSystems::Animate,
        )
            .chain(),
    );
    app.configure_sets(
        Update,
        (
            FlowSteps::Answers,
            FlowSteps::NewGame,
            FlowSteps::Open,
            FlowSteps::Play,
            FlowSteps::Follow,
        )
            .chain()
            .in_set(AppSystems::ApplyCommands),
    );
}
