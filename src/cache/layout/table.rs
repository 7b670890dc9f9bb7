//! The layout's table: while layout mode is on the table shows the layout
//! being edited, built anew after every edit, each entity marked with the
//! piece of the layout it shows; pieces that break a ruling are marked
//! [`Offending`] and the editor's selection [`Selected`].

use std::collections::BTreeSet;

use bevy::prelude::*;
use sandtable_cache::PlayerId;

use super::LayoutEditor;
use super::draft::{Draft, PieceRef};
use crate::cache::table::{Contents, TableBuilder};
use crate::mode::{Mode, mode_change_pending};
use crate::schedule::AppSystems;
use crate::session::GameLoaded;
use crate::table::{Offending, Selected, TableRebuild};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            spawn_layout_table.run_if(not(mode_change_pending)),
            mark_selected_piece,
        )
            .chain()
            .in_set(AppSystems::SyncTable)
            .run_if(in_state(Mode::Layout)),
    );
}

/// The piece of the edited layout an entity shows (layout mode only).
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct LayoutPiece(pub PieceRef);

/// The layout's pieces in the order the table is built from them.
struct Marks {
    terrain: Vec<PieceRef>,
    bases: Vec<PieceRef>,
    units: Vec<PieceRef>,
    stashes: Vec<PieceRef>,
    offending: BTreeSet<PieceRef>,
}

/// What the table shows of a layout, and which piece of the layout each
/// of its entities is.
fn of_draft(draft: &Draft) -> (Contents, Marks) {
    let setup = &draft.scenario().setup;
    let mut bases = Vec::new();
    let mut units = Vec::new();
    let mut marks = Marks {
        terrain: (0..setup.terrain.len()).map(PieceRef::Terrain).collect(),
        bases: Vec::new(),
        units: Vec::new(),
        stashes: (0..setup.stashes.len()).map(PieceRef::Stash).collect(),
        offending: draft.errors().iter().filter_map(|f| f.at).collect(),
    };
    for (p, player) in setup.players.iter().enumerate() {
        let owner = PlayerId(p as u16);
        for (f, factor) in player.factors.iter().enumerate() {
            bases.push((owner, factor.base));
            marks.bases.push(PieceRef::Base {
                player: p,
                factor: f,
            });
            for (u, unit) in factor.units.iter().enumerate() {
                units.push((owner, Some((unit.at, unit.facing))));
                marks.units.push(PieceRef::Unit {
                    player: p,
                    factor: f,
                    unit: u,
                });
            }
        }
    }
    let contents = Contents {
        board: setup.board,
        terrain: setup.preview_terrain(),
        bases,
        units,
        stashes: setup.stashes.clone(),
    };
    (contents, marks)
}

/// Builds the table of the layout anew when layout mode begins, after an
/// edit, and when another file is opened in layout mode.
pub fn spawn_layout_table(
    mut loaded: MessageReader<GameLoaded>,
    mut rebuild: MessageReader<TableRebuild>,
    editor: Option<Res<LayoutEditor>>,
    mut builder: TableBuilder,
) {
    let game_loaded = loaded.read().count() > 0;
    if !game_loaded && rebuild.read().count() == 0 {
        return;
    }
    let Some(editor) = editor else {
        return;
    };
    let (contents, marks) = of_draft(&editor.draft);
    // Models are looked for beside the file the layout was read from or
    // last saved to.
    let file = editor.draft.last_file();
    let index = builder
        .build(&contents, editor.draft.scenario(), file, game_loaded)
        .clone();
    let pairs = [
        (&index.terrain, &marks.terrain),
        (&index.bases, &marks.bases),
        (&index.units, &marks.units),
        (&index.stashes, &marks.stashes),
    ];
    for (entities, pieces) in pairs {
        for (e, piece) in entities.iter().zip(pieces) {
            let mut e = builder.commands.entity(*e);
            e.insert(LayoutPiece(*piece));
            if marks.offending.contains(piece) {
                e.insert(Offending);
            }
        }
    }
}

/// Keeps the `Selected` marker on the entity of the editor's selected piece.
pub fn mark_selected_piece(
    mut commands: Commands,
    editor: Option<Res<LayoutEditor>>,
    pieces: Query<(Entity, &LayoutPiece, Has<Selected>)>,
) {
    let want = editor.and_then(|e| e.selected);
    for (e, piece, has) in &pieces {
        let should = want == Some(piece.0);
        if should && !has {
            commands.entity(e).insert(Selected);
        } else if has && !should {
            commands.entity(e).remove::<Selected>();
        }
    }
}
