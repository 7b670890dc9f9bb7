//! The layout editor in the app: switching layout mode on and off, clicks,
//! drags and keys turned into edits of the [`Draft`], and the selection.
//! The table shows the draft while layout mode is on (see `table`), rebuilt
//! after every edit; leaving layout mode after edits starts a new game from
//! the edited layout, which must then pass the rulings.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_cache::{Facing, Square};
use sandtable_scenario::Scenario;

use super::draft::{Draft, Edit, Item, PieceRef, Turn};
use super::{LayoutMode, LayoutTool};
use crate::cache::picking::{TableClick, TableDrag};
use crate::cache::play::{ActiveGame, Cache};
use crate::mode::Mode;
use crate::picking::ClickButton;
use crate::schedule::AppSystems;
use crate::session::keys::KeyboardTaken;
use crate::session::layout::{LayoutEditing, file_of, keep_unsaved_layout_open, switch_layout};
use crate::session::open::on_table;
use crate::session::{GameLoaded, KeepOpen, Notice, ScenarioSource};
use crate::table::TableRebuild;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<EditorRequest>()
        .add_systems(OnEnter(Mode::Layout), enter_layout)
        .add_systems(OnExit(Mode::Layout), leave_layout)
        .add_systems(
            Update,
            (edit_with_clicks, move_with_drags, read_editor_keys)
                .chain()
                .after(crate::cache::picking::read_table_drags)
                .in_set(AppSystems::RecordInput)
                .run_if(in_state(Mode::Layout)),
        )
        .add_systems(
            Update,
            (
                restart_editor_on_load.run_if(in_state(Mode::Layout)),
                switch_layout::<Cache>.run_if(on_table::<Cache>),
                (apply_editor_requests, keep_unsaved_layout_open::<Cache>)
                    .run_if(in_state(Mode::Layout)),
            )
                .chain()
                .in_set(crate::schedule::FlowSteps::Follow),
        );
}

/// A request to the editor, from the panel, a click or a key.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum EditorRequest {
    /// Change the layout.
    Edit(Edit),
    /// Step back one edit.
    Undo,
    /// Make the last undone edit again.
    Redo,
    /// Write the layout as a scenario file.
    Save(PathBuf),
    /// Write the layout's setup sheet as a PDF beside this path
    /// ([`crate::session::files::sheet_beside`]).
    Print(PathBuf),
    /// Go back to the layout as it was when layout mode was switched on (an
    /// edit itself, so it can be undone).
    Revert,
}

/// The editing in progress; present only while layout mode is on.
#[derive(Resource, Debug, Clone)]
pub struct LayoutEditor {
    /// The layout and its history.
    pub draft: Draft,
    /// The piece selected by a click: Q and E turn it, Delete removes it.
    pub selected: Option<PieceRef>,
    /// The palette item that left clicks place, until a right click.
    pub armed: Option<Item>,
    /// The palette's facing for new units.
    pub facing: Facing,
    /// The palette's player for new bases and units.
    pub player: usize,
    /// The palette's Factor (of that player) for new units.
    pub factor: usize,
    /// A number no other editor of this run has: the panel's fields (the
    /// file to save to) start again for each.
    pub opened: u64,
}

static NEXT_EDITOR: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl LayoutEditor {
    /// Starts editing a scenario; `file` is where it was read from, if anywhere.
    pub fn new(scenario: Scenario, file: Option<PathBuf>) -> LayoutEditor {
        LayoutEditor {
            draft: Draft::opened(scenario, file),
            selected: None,
            armed: None,
            facing: Facing::N,
            player: 0,
            factor: 0,
            opened: NEXT_EDITOR.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        }
    }

    /// The palette's unit item, for the chosen player's chosen Factor.
    pub fn unit_item(&self) -> Item {
        Item::Unit {
            player: self.player,
            factor: self.factor,
            facing: self.facing,
        }
    }
}

/// Layout mode begins: the layout of the game's scenario is edited from
/// now on, and the table shows it.
pub fn enter_layout(
    mut layout: ResMut<LayoutMode>,
    mut notice: ResMut<Notice>,
    mut rebuild: MessageWriter<TableRebuild>,
) {
    // The editor was made by the switch (`LayoutEditing::edit`).
    // What play said does not belong to the layout.
    notice.text = None;
    layout.from = None;
    layout.pointer = None;
    layout.reading = None;
    rebuild.write(TableRebuild);
}

/// Layout mode ends: the editing is put away and the table shows the game.
pub fn leave_layout(
    mut commands: Commands,
    mut layout: ResMut<LayoutMode>,
    mut keep_open: ResMut<KeepOpen>,
    mut rebuild: MessageWriter<TableRebuild>,
) {
    commands.remove_resource::<LayoutEditor>();
    layout.from = None;
    layout.pointer = None;
    keep_open.0 = None;
    rebuild.write(TableRebuild);
}

/// Another file opened in layout mode: edit that one from now on.
pub fn restart_editor_on_load(
    mut loaded: MessageReader<GameLoaded>,
    editor: Option<ResMut<LayoutEditor>>,
    active: Option<Res<ActiveGame>>,
) {
    if loaded.read().count() > 0
        && let (Some(mut editor), Some(active)) = (editor, active)
    {
        *editor = LayoutEditor::new(active.setup.clone(), file_of(&active.source));
    }
}

/// With the edit tool, a left click places the armed palette item, or with
/// Shift adds a square to (or takes one from) the selected terrain piece, or
/// selects what is on the square; a right click disarms and deselects.
pub fn edit_with_clicks(
    mut clicks: MessageReader<TableClick>,
    layout: Res<LayoutMode>,
    editor: Option<ResMut<LayoutEditor>>,
    keys: Option<Res<ButtonInput<KeyCode>>>,
    mut requests: MessageWriter<EditorRequest>,
) {
    let Some(mut editor) = editor.filter(|_| layout.tool == LayoutTool::Edit) else {
        clicks.clear();
        return;
    };
    let shift = keys.is_some_and(|k| k.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]));
    for click in clicks.read() {
        let Some(square) = Square::from_spot(click.spot) else {
            continue;
        };
        match (click.button, editor.armed, editor.selected) {
            (ClickButton::Secondary, _, _) => {
                editor.armed = None;
                editor.selected = None;
            }
            (ClickButton::Primary, Some(item), _) => {
                requests.write(EditorRequest::Edit(Edit::Place { item, at: square }));
            }
            (ClickButton::Primary, None, Some(PieceRef::Terrain(terrain))) if shift => {
                requests.write(EditorRequest::Edit(Edit::ToggleSquare {
                    terrain,
                    at: square,
                }));
            }
            (ClickButton::Primary, None, _) => {
                editor.selected = editor.draft.piece_at(square);
            }
        }
    }
}

/// With the edit tool, dragging a piece from one square to another moves it.
pub fn move_with_drags(
    mut drags: MessageReader<TableDrag>,
    layout: Res<LayoutMode>,
    editor: Option<ResMut<LayoutEditor>>,
    mut requests: MessageWriter<EditorRequest>,
) {
    let Some(mut editor) = editor.filter(|_| layout.tool == LayoutTool::Edit) else {
        drags.clear();
        return;
    };
    for drag in drags.read() {
        if let Some(piece) = editor.draft.piece_at(drag.from) {
            editor.selected = Some(piece);
            requests.write(EditorRequest::Edit(Edit::Move {
                piece,
                from: drag.from,
                to: drag.to,
            }));
        }
    }
}

/// Keys of the editor: Q and E turn the selected piece, Delete or Backspace
/// removes it, Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes, Escape lets go.
pub fn read_editor_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<KeyboardTaken>>,
    editor: Option<ResMut<LayoutEditor>>,
    mut requests: MessageWriter<EditorRequest>,
) {
    let (Some(keys), Some(mut editor)) = (keys, editor) else {
        return;
    };
    if taken.is_some_and(|t| t.0) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl && (keys.just_pressed(KeyCode::KeyY) || (shift && keys.just_pressed(KeyCode::KeyZ))) {
        requests.write(EditorRequest::Redo);
        return;
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        requests.write(EditorRequest::Undo);
        return;
    }
    if keys.just_pressed(KeyCode::Escape) {
        editor.armed = None;
        editor.selected = None;
        return;
    }
    let Some(piece) = editor.selected else {
        return;
    };
    let edit = if keys.just_pressed(KeyCode::KeyQ) {
        Edit::Rotate {
            piece,
            turn: Turn::Left,
        }
    } else if keys.just_pressed(KeyCode::KeyE) {
        Edit::Rotate {
            piece,
            turn: Turn::Right,
        }
    } else if keys.any_just_pressed([KeyCode::Delete, KeyCode::Backspace]) {
        Edit::Delete(piece)
    } else {
        return;
    };
    requests.write(EditorRequest::Edit(edit));
}

/// Carries out the editor's requests. A refused edit changes nothing and
/// says why; an accepted one rebuilds the table and says which rulings the
/// piece it touched now breaks.
pub fn apply_editor_requests(
    mut requests: MessageReader<EditorRequest>,
    editor: Option<ResMut<LayoutEditor>>,
    mut notice: ResMut<Notice>,
    mut rebuild: MessageWriter<TableRebuild>,
) {
    let Some(mut editor) = editor else {
        requests.clear();
        return;
    };
    let editor = &mut *editor;
    let mut changed = false;
    for request in requests.read() {
        // Indices shift when pieces come and go: the palette's Factor starts
        // again from the first, and the selection is what the edit touched.
        if matches!(
            request,
            EditorRequest::Undo
                | EditorRequest::Redo
                | EditorRequest::Revert
                | EditorRequest::Edit(Edit::Delete(_) | Edit::New { .. })
        ) {
            editor.factor = 0;
            editor.selected = None;
        }
        // The piece an edit touched: it is selected and its problems told.
        let mut touched = None;
        let done = match request {
            EditorRequest::Edit(edit) => editor.draft.apply(edit).map(|()| {
                touched = match edit {
                    Edit::Place { item, .. } => editor.draft.last_placed(*item),
                    Edit::Move { piece, .. } | Edit::Rotate { piece, .. } => Some(*piece),
                    Edit::ToggleSquare { terrain, .. } => Some(PieceRef::Terrain(*terrain)),
                    _ => None,
                };
                if touched.is_some() {
                    editor.selected = touched;
                }
                let what = touched
                    .and_then(|p| editor.draft.describe(p))
                    .unwrap_or_else(|| "the layout".to_owned());
                format!("{}: {what}", verb(edit))
            }),
            EditorRequest::Undo => editor.draft.undo().map(|()| "undid an edit".to_owned()),
            EditorRequest::Redo => editor.draft.redo().map(|()| "redid an edit".to_owned()),
            EditorRequest::Revert => {
                editor.draft.revert();
                Ok("back to the layout as it was opened".to_owned())
            }
            EditorRequest::Print(path) => {
                match editor.draft.errors().first() {
                    Some(first) => notice.error(format!(
                        "no sheet printed: the layout has problems to fix first; first: {}",
                        first.line()
                    )),
                    None => match crate::cache::files::print_sheet(
                        editor.draft.scenario(),
                        &crate::session::files::sheet_beside(path),
                    ) {
                        Ok(out) => notice.info(format!("sheet written to {}", out.display())),
                        Err(e) => notice.error(e),
                    },
                }
                continue;
            }
            EditorRequest::Save(path) => {
                match editor.draft.save(path) {
                    Ok(backup) => {
                        notice.info(match backup {
                            None => format!("layout saved to {}", path.display()),
                            Some(bak) => format!(
                                "layout saved to {}; the file it replaced is kept as {}",
                                path.display(),
                                bak.display()
                            ),
                        });
                    }
                    Err(e) => notice.error(e),
                }
                continue;
            }
        };
        match done {
            Ok(mut text) => {
                changed = true;
                // Say at once which rulings the touched piece now breaks.
                if let Some(piece) = touched {
                    let broken: Vec<String> = editor
                        .draft
                        .errors_of(piece)
                        .map(|f| {
                            let ruling = f
                                .problem
                                .ruling
                                .map(|r| format!(" ({r})"))
                                .unwrap_or_default();
                            format!("{}{ruling}", f.problem.message)
                        })
                        .collect();
                    if !broken.is_empty() {
                        text = format!("{text}; breaks: {}", broken.join("; "));
                        notice.error(text);
                        continue;
                    }
                }
                notice.info(text);
            }
            Err(e) => notice.error(e.to_string()),
        }
    }
    if changed {
        if editor
            .selected
            .is_some_and(|p| editor.draft.describe(p).is_none())
        {
            editor.selected = None;
        }
        rebuild.write(TableRebuild);
    }
}

fn verb(edit: &Edit) -> &'static str {
    match edit {
        Edit::Place { .. } => "placed",
        Edit::Move { .. } => "moved",
        Edit::Rotate { .. } => "turned",
        Edit::Delete(_) => "removed a piece from",
        Edit::ToggleSquare { .. } => "reshaped",
        Edit::AddPlayer => "added a player to",
        Edit::Rename(_) => "renamed",
        Edit::SetRules(_) => "changed the rules of",
        Edit::SetPhysical(_) => "changed the table of",
        Edit::New { .. } => "started",
    }
}

/// Cache's layout editor behind the shared switch.
impl LayoutEditing for Cache {
    type Editor = LayoutEditor;
    type Layout = Scenario;
    const NEW_GAME: &'static str = "a new game starts on the edited layout";

    fn edit(active: &ActiveGame, file: Option<PathBuf>) -> LayoutEditor {
        LayoutEditor::new(active.setup.clone(), file)
    }

    fn draft(editor: &LayoutEditor) -> &Draft {
        &editor.draft
    }

    /// The edited scenario, read back through the scenario loader.
    fn played(editor: &LayoutEditor, source: ScenarioSource) -> Result<ActiveGame, String> {
        sandtable_scenario::parse(&editor.draft.scenario().to_ron(), "layout")
            .map(|scenario| ActiveGame::new(scenario, source))
            .map_err(|e| e.to_string())
    }
}
