//! Layout mode's switch, for any rule system with a layout editor: on, the
//! layout of the game's setup is edited (its editor made from the game in
//! play); off, the game comes back as it was when nothing was edited, and
//! otherwise a new game of the edited layout starts, read back through the
//! system's loader (asking first if the game in play has unsaved moves). A
//! layout that breaks a ruling keeps layout mode on and says why. While a
//! layout has edits saved nowhere, no other file may be opened
//! ([`super::KeepOpen`]).

use std::path::{Path, PathBuf};

use bevy::prelude::*;

use super::draft::{Draft, Layout};
use super::game::{ActiveGame, TableSystem};
use super::{FileField, KeepOpen, Leaving, Notice, ScenarioSource, may_leave_unsaved};
use crate::mode::{Mode, SetLayoutMode};

/// A rule system's layout editor, as the switch sees it.
pub trait LayoutEditing: TableSystem {
    /// The layout being edited: a resource while layout mode is on.
    type Editor: Resource;
    /// The layout the editor's draft holds.
    type Layout: Layout;

    /// What the notice says when a game of the edited layout starts.
    const NEW_GAME: &'static str;

    /// An editor of the game's setup, saved to `file` (the game's own
    /// scenario file, if it has one).
    fn edit(active: &ActiveGame<Self>, file: Option<PathBuf>) -> Self::Editor;

    /// The editor's draft: the layout, its history, its check and where
    /// it was saved.
    fn draft(editor: &Self::Editor) -> &Draft<Self::Layout>;

    /// A new game of the edited layout, read back through the system's
    /// loader, from `source`.
    fn played(editor: &Self::Editor, source: ScenarioSource) -> Result<ActiveGame<Self>, String>;

    /// Whether the layout shows what the rules hide from the players (an
    /// off-board grid's starting counters and reserves, R57): then it
    /// opens from play only once the game is over, or when the table
    /// was started in layout mode ([`crate::mode::RefereeLayout`]). By
    /// default, whether the game hides anything.
    fn layout_hides(active: &ActiveGame<Self>) -> bool {
        sandtable_core::game::GameState::hides(active.game.game())
    }

    /// What the table does when layout mode is left without an edit
    /// (nothing by default: leaving layout mode builds the table again).
    fn back_unedited(commands: &mut Commands) {
        let _ = commands;
    }
}

/// Why a layout with problems cannot be played, for the notice.
pub fn unplayable(count: usize, first: &str) -> String {
    format!(
        "the layout cannot be played: {count} problem{} to fix, undo or revert; first: {first}",
        if count == 1 { "" } else { "s" }
    )
}

/// The scenario file a game's setup came from, where its layout is saved.
pub fn file_of(source: &ScenarioSource) -> Option<PathBuf> {
    match source {
        ScenarioSource::File(path) => Some(path.clone()),
        _ => None,
    }
}

/// Where a game of an edited layout comes from: the file the layout was
/// saved to, else a layout saved nowhere.
pub fn source_of(saved: Option<&Path>) -> ScenarioSource {
    saved.map_or(ScenarioSource::Unsaved, |p| {
        ScenarioSource::File(p.to_path_buf())
    })
}

/// Decides the requests to switch layout mode while a game of `S` is on
/// the table (see the module doc).
pub fn switch_layout<S: LayoutEditing>(
    mut commands: Commands,
    mut requests: MessageReader<SetLayoutMode>,
    mode: Res<State<Mode>>,
    mut next: ResMut<NextState<Mode>>,
    editor: Option<Res<S::Editor>>,
    active: Option<Res<ActiveGame<S>>>,
    referee: Option<Res<crate::mode::RefereeLayout>>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active else {
        requests.clear();
        return;
    };
    // The start in layout mode is the referee's once.
    let mut referee = referee.is_some();
    if referee {
        commands.remove_resource::<crate::mode::RefereeLayout>();
    }
    for SetLayoutMode {
        on,
        discard_unsaved,
    } in requests.read().copied()
    {
        match (on, *mode.get(), editor.as_deref()) {
            (true, Mode::Play, _) if active.outbox.is_some() => {
                // A served game is the server's: its table is not edited here.
                notice.error(super::SERVED_RECORD);
            }
            (true, Mode::Play, _)
                if S::layout_hides(&active)
                    && !std::mem::take(&mut referee)
                    && sandtable_core::game::next_seat(active.game.game()).is_some() =>
            {
                // The layout is the scenario, both sides' secrets with it:
                // not even before the first command, when the players
                // are at the table already.
                notice.error(
                    "the layout shows both sides' starting forces and reserves, which are the referee's (R57): it opens once the game is over, or for its referee with sandtable FILE --layout",
                );
            }
            (true, Mode::Play, _) => {
                commands.insert_resource(S::edit(&active, file_of(&active.source)));
                // What play said does not belong to the layout.
                notice.text = None;
                next.set(Mode::Layout);
            }
            (false, Mode::Layout, Some(ed)) if !S::draft(ed).edited() => {
                // What the editor said does not belong to play.
                notice.text = None;
                S::back_unedited(&mut commands);
                next.set(Mode::Play);
            }
            (false, Mode::Layout, Some(ed)) => {
                if let Some((count, first)) = S::draft(ed).problems() {
                    notice.error(unplayable(count, &first));
                    continue;
                }
                if !may_leave_unsaved(
                    &mut commands,
                    active.has_unsaved_work(),
                    discard_unsaved,
                    Leaving::PlayLayout,
                ) {
                    continue;
                }
                match S::played(ed, source_of(S::draft(ed).saved_file())) {
                    Ok(game) => {
                        // The same people and bots play it; the file field
                        // starts again from the new game's.
                        commands.insert_resource(game);
                        commands.insert_resource(FileField(None));
                        commands.queue(S::loaded);
                        next.set(Mode::Play);
                        notice.info_after(discard_unsaved, S::NEW_GAME);
                    }
                    Err(e) => notice.error(e),
                }
            }
            // Already so.
            _ => {}
        }
    }
}

/// With no game on the table there is no layout to show.
pub fn no_layout_without_a_game(
    mut requests: MessageReader<SetLayoutMode>,
    mut notice: ResMut<Notice>,
) {
    if requests.read().any(|r| r.on) {
        notice.error("no game is open to show the layout of");
    }
}

/// While the layout has edits saved nowhere, no other file may be opened
/// and closing the window asks first: they would be lost.
pub fn keep_unsaved_layout_open<S: LayoutEditing>(
    editor: Option<Res<S::Editor>>,
    mut keep: ResMut<KeepOpen>,
) {
    let Some(editor) = editor else {
        return;
    };
    let wanted = (S::draft(&editor).edited() && S::draft(&editor).saved_file().is_none())
        .then(|| "the layout has edits that are not saved; save it or revert first".to_owned());
    keep.set_if_neq(KeepOpen(wanted));
}
