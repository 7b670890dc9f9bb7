//! Layout mode for a battle, on the table's shared mode state: the battle's
//! hex map at its real size, edited with the mouse. A tool says what a
//! left click does: measure between two hexes, paint terrain (a drag paints
//! every hex it crosses), set one side's pieces in a hex (a drag moves
//! them), or make a hex one of a side's deployment hexes. The table shows
//! the [`BattleDraft`], rebuilt after every edit; leaving layout mode after
//! edits starts a new battle of the edited layout, which must pass the
//! rulings first.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_scenario::battle::Battle;
use sandtable_warpspawn::{Hex, Men, PiecesSetup, Side, Terrain};

use super::draft::{BattleDraft, BattleEdit};
use super::looks::Slot;
use super::play::BattleInput;
use super::table::{ActiveBattle, BattleLoaded, Warpspawn, spawn_hex_table, spawn_stack};
use crate::mode::Mode;
use crate::schedule::AppSystems;
use crate::session::layout::{LayoutEditing, keep_unsaved_layout_open, switch_layout};
use crate::session::open::on_table;
use crate::session::{Notice, ScenarioSource};
use crate::table::{TableBuilt, TablePiece, TableShown};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<BattleLayoutRequest>()
        .add_systems(OnExit(Mode::Layout), put_battle_layout_away)
        .add_systems(
            Update,
            (
                switch_layout::<Warpspawn>.run_if(on_table::<Warpspawn>),
                (
                    read_battle_layout_keys,
                    battle_layout_input,
                    paint_across,
                    apply_battle_layout_requests,
                    keep_unsaved_layout_open::<Warpspawn>,
                )
                    .chain()
                    .distributive_run_if(resource_exists::<BattleLayout>)
                    .distributive_run_if(in_state(Mode::Layout)),
            )
                .chain()
                .in_set(crate::schedule::FlowSteps::Follow),
        )
        .add_systems(
            Update,
            show_battle_draft
                .run_if(resource_exists::<BattleLayout>)
                // After the battle's own table, which it replaces.
                .after(super::table::sync_battle_pieces)
                .in_set(AppSystems::SyncTable),
        );
}

/// What a left click on the battle's table does in layout mode.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum BattleTool {
    /// Two clicks read the distance between two hexes' centres.
    #[default]
    Measure,
    /// A click or a drag paints the brush's terrain.
    Paint,
    /// A click sets the side's pieces in a hex to the brush's; a drag moves
    /// the side's pieces.
    Pieces,
    /// A click makes a hex one of the side's deployment hexes, or no longer
    /// (R60).
    Deploy,
    /// A click on a square of the off-board grid makes it one of the side's
    /// reserve squares, or no longer (R42).
    Reserve,
    /// A click on a square of the off-board grid sets the side's counter
    /// there to the counter brush's pieces (a new counter, with the lowest
    /// free number, where the side has none there; nothing at all takes it
    /// off, R43).
    Counters,
}

/// The editing of a battle's layout; present only while layout mode is on
/// for a battle.
#[derive(Resource, Debug, Clone)]
pub struct BattleLayout {
    /// The layout and its history.
    pub draft: BattleDraft,
    /// What clicks do.
    pub tool: BattleTool,
    /// The side whose pieces and deployment hexes the tools work on.
    pub side: usize,
    /// The terrain the paint tool lays.
    pub terrain: Terrain,
    /// What the pieces tool puts in a hex (its `at` and `side` are the
    /// click's).
    pub brush: PiecesSetup,
    /// What the counters tool puts on a square of the ring (R43).
    pub counter_brush: sandtable_warpspawn::offboard::counter::Composition,
    /// Readings in inches rather than millimetres, and the rulers too.
    pub inches: bool,
    /// The first hex of a measurement, waiting for the second.
    pub from: Option<Hex>,
    /// The last reading.
    pub reading: Option<String>,
    /// A drag of the paint brush is under way.
    pub painting: bool,
    /// The hex a drag of the pieces tool began on.
    pub grabbed: Option<Hex>,
    /// Bumped at every change of the draft, for the table to follow.
    pub revision: u64,
    /// A number no other layout of this run has: the panel's fields (the
    /// file to save to) start again for each.
    pub opened: u64,
    /// The revision the table shows.
    shown: Option<u64>,
}

static NEXT_LAYOUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl BattleLayout {
    /// Starts editing a battle; `file` is where it was read from, if anywhere.
    pub fn new(battle: Battle, file: Option<PathBuf>) -> BattleLayout {
        BattleLayout {
            draft: BattleDraft::opened(battle, file),
            tool: BattleTool::Measure,
            side: 0,
            terrain: Terrain::Trees,
            brush: PiecesSetup {
                infantry: 10,
                ..PiecesSetup::default()
            },
            counter_brush: sandtable_warpspawn::offboard::counter::Composition {
                infantry: 10,
                ..Default::default()
            },
            inches: false,
            from: None,
            reading: None,
            painting: false,
            grabbed: None,
            revision: 0,
            opened: NEXT_LAYOUT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            shown: None,
        }
    }

    /// The distance between two hexes' centres on the table, as a person
    /// says it: mm, inches and hexes.
    pub fn measure(&self, from: Hex, to: Hex) -> String {
        let battle = self.draft.battle();
        let physical = battle.table();
        let map = battle.setup.map;
        let (a, b) = (
            physical.hex_centre_mm(map, from),
            physical.hex_centre_mm(map, to),
        );
        let mm = (a.0 - b.0).hypot(a.1 - b.1);
        format!(
            "{from} to {to}: {mm:.1} mm, {:.2} in, {} hex{} apart",
            mm / crate::hud::rulers::MM_PER_INCH,
            from.distance(to),
            if from.distance(to) == 1 { "" } else { "es" }
        )
    }
}

/// A request to the battle's layout editor, from its panel.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum BattleLayoutRequest {
    /// Change the layout.
    Edit(BattleEdit),
    /// Step back one edit.
    Undo,
    /// Make the last undone edit again.
    Redo,
    /// Write the layout as a battle file.
    Save(PathBuf),
    /// Write the layout's setup sheet as a PDF beside this path
    /// ([`crate::session::files::sheet_beside`]).
    Print(PathBuf),
    /// Go back to the battle as it was when layout mode was switched on (an
    /// edit itself, so it can be undone).
    Revert,
}

/// Layout mode ends: the battle's editing is put away.
fn put_battle_layout_away(mut commands: Commands) {
    commands.remove_resource::<BattleLayout>();
}

/// Keys of a battle's layout: Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes,
/// Escape lets go of a measurement. Ignored while a panel has the keyboard.
fn read_battle_layout_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<crate::session::keys::KeyboardTaken>>,
    mut requests: MessageWriter<BattleLayoutRequest>,
    mut inputs: MessageWriter<BattleInput>,
) {
    let Some(keys) = keys else {
        return;
    };
    if taken.is_some_and(|t| t.0) {
        return;
    }
    let ctrl = keys.any_pressed([KeyCode::ControlLeft, KeyCode::ControlRight]);
    let shift = keys.any_pressed([KeyCode::ShiftLeft, KeyCode::ShiftRight]);
    if ctrl && (keys.just_pressed(KeyCode::KeyY) || (shift && keys.just_pressed(KeyCode::KeyZ))) {
        requests.write(BattleLayoutRequest::Redo);
    } else if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        requests.write(BattleLayoutRequest::Undo);
    } else if keys.just_pressed(KeyCode::Escape) {
        inputs.write(BattleInput::Cancel);
    }
}

/// The table's clicks and drags in layout mode, by the tool: a measure, a
/// stroke of paint, a side's pieces set or moved, a deployment hex. A right
/// click lets go of a measurement.
fn battle_layout_input(
    mut inputs: MessageReader<BattleInput>,
    mut squares: MessageReader<super::ring_play::RingInput>,
    mut layout: ResMut<BattleLayout>,
    mut requests: MessageWriter<BattleLayoutRequest>,
    mut notice: ResMut<Notice>,
) {
    let layout = &mut *layout;
    // A square of the off-board grid, clicked with a tool of the ring.
    for input in squares.read().copied() {
        let super::ring_play::RingInput::Square(square) = input else {
            continue;
        };
        let side = layout.side;
        match layout.tool {
            BattleTool::Reserve => {
                requests.write(BattleLayoutRequest::Edit(BattleEdit::ToggleReserve {
                    side,
                    square,
                }));
            }
            BattleTool::Counters => {
                let number = layout
                    .draft
                    .counter_at(square, side)
                    .map_or_else(|| layout.draft.free_counter_number(side), |c| c.number);
                requests.write(BattleLayoutRequest::Edit(BattleEdit::SetCounter(
                    sandtable_warpspawn::offboard::setup::CounterSetup {
                        number,
                        side,
                        at: square,
                        pieces: layout.counter_brush,
                    },
                )));
            }
            _ => notice.info(format!(
                "{square}: pick the reserve or counters tool to change the ring (R42, R43)"
            )),
        }
    }
    if inputs.is_empty() {
        return;
    }
    for input in inputs.read().copied() {
        let side = layout.side;
        match (input, layout.tool) {
            (BattleInput::Cancel, _) => {
                layout.from = None;
                layout.reading = None;
            }
            (BattleInput::Click(hex), BattleTool::Measure) => match layout.from.take() {
                None => layout.from = Some(hex),
                Some(from) => layout.reading = Some(layout.measure(from, hex)),
            },
            (BattleInput::Click(hex), BattleTool::Pieces) => {
                requests.write(BattleLayoutRequest::Edit(BattleEdit::SetPieces(
                    PiecesSetup {
                        at: hex,
                        side,
                        ..layout.brush
                    },
                )));
            }
            (BattleInput::Click(hex), BattleTool::Deploy) => {
                requests.write(BattleLayoutRequest::Edit(BattleEdit::ToggleDeployment {
                    side,
                    hex,
                }));
            }
            (BattleInput::Click(hex), BattleTool::Paint) if !layout.painting => {
                match layout.draft.paint_stroke(hex, layout.terrain) {
                    Ok(()) => layout.revision += 1,
                    Err(e) => notice.error(e.to_string()),
                }
                layout.draft.end_stroke();
            }
            (BattleInput::Grab(hex), BattleTool::Paint) => {
                layout.painting = true;
                match layout.draft.paint_stroke(hex, layout.terrain) {
                    Ok(()) => layout.revision += 1,
                    Err(e) => notice.error(e.to_string()),
                }
            }
            (BattleInput::Grab(hex), BattleTool::Pieces) => {
                layout.grabbed = layout.draft.pieces_at(hex, side).map(|p| p.at);
            }
            (BattleInput::Drop(to), BattleTool::Pieces) => {
                if let Some(from) = layout.grabbed.take()
                    && from != to
                {
                    requests.write(BattleLayoutRequest::Edit(BattleEdit::MovePieces {
                        side,
                        from,
                        to,
                    }));
                }
            }
            (BattleInput::Release, _) => {
                if layout.painting {
                    layout.painting = false;
                    layout.draft.end_stroke();
                }
                layout.grabbed = None;
            }
            _ => {}
        }
    }
}

/// While the paint brush is dragged, every hex the pointer comes over is
/// painted, the whole stroke one edit. The stroke ends when the button is
/// up, whatever became of the hex it began on (the table is built again
/// after each hex painted, so the drag's own end may never be heard of).
fn paint_across(
    mut layout: ResMut<BattleLayout>,
    hovered: Res<crate::picking::Hovered>,
    buttons: Option<Res<ButtonInput<MouseButton>>>,
) {
    if layout.painting && buttons.is_some_and(|b| !b.pressed(MouseButton::Left)) {
        layout.painting = false;
        layout.draft.end_stroke();
        return;
    }
    if !layout.painting || !hovered.is_changed() {
        return;
    }
    let Some(hex) = super::table::hovered_hex(&hovered) else {
        return;
    };
    let terrain = layout.terrain;
    if layout.draft.terrain_at(hex) != terrain && layout.draft.paint_stroke(hex, terrain).is_ok() {
        layout.revision += 1;
    }
}

/// Carries out the panel's requests; a refused edit changes nothing and
/// says why.
fn apply_battle_layout_requests(
    mut requests: MessageReader<BattleLayoutRequest>,
    mut layout: ResMut<BattleLayout>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let layout = &mut *layout;
        let done = match request {
            BattleLayoutRequest::Edit(edit) => layout.draft.apply(edit).map_err(|e| e.to_string()),
            BattleLayoutRequest::Undo => layout.draft.undo().map_err(|e| e.to_string()),
            BattleLayoutRequest::Redo => layout.draft.redo().map_err(|e| e.to_string()),
            BattleLayoutRequest::Revert => {
                layout.draft.revert();
                Ok(())
            }
            BattleLayoutRequest::Save(path) => match layout.draft.save(path) {
                Ok(backup) => {
                    notice.info(match backup {
                        Some(b) => format!(
                            "saved to {}; the file it replaced is kept as {}",
                            path.display(),
                            b.display()
                        ),
                        None => format!("saved to {}", path.display()),
                    });
                    Ok(())
                }
                Err(e) => Err(e),
            },
            BattleLayoutRequest::Print(path) => {
                match crate::warpspawn::files::print_battle_sheet(
                    layout.draft.battle(),
                    &crate::session::files::sheet_beside(path),
                ) {
                    Ok(out) => {
                        notice.info(format!("sheet written to {}", out.display()));
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            }
        };
        match done {
            Ok(()) => {
                if matches!(
                    request,
                    BattleLayoutRequest::Edit(_)
                        | BattleLayoutRequest::Undo
                        | BattleLayoutRequest::Redo
                        | BattleLayoutRequest::Revert
                ) {
                    layout.revision += 1;
                    layout.from = None;
                    layout.reading = None;
                }
            }
            Err(e) => notice.error(e),
        }
    }
}

/// The table follows the draft: the map and every side's pieces built
/// again after each edit, the camera framed again when the map's size
/// changed.
fn show_battle_draft(
    mut commands: Commands,
    mut layout: ResMut<BattleLayout>,
    old: Query<Entity, With<TablePiece>>,
    mut shown: ResMut<TableShown>,
    mut built: MessageWriter<TableBuilt>,
    mut size: Local<Option<(sandtable_warpspawn::Map, Option<u16>)>>,
) {
    if layout.shown == Some(layout.revision) {
        return;
    }
    layout.shown = Some(layout.revision);
    for e in &old {
        commands.entity(e).despawn();
    }
    let draft = &layout.draft;
    let battle = draft.battle();
    let map = battle.setup.map;
    spawn_hex_table(
        &mut commands,
        battle,
        |hex| draft.terrain_at(hex),
        &mut shown,
    );
    for p in &battle.setup.pieces {
        spawn_stack(
            &mut commands,
            map,
            p.at,
            Side(p.side as u8),
            Men::new(p.infantry, p.cavalry),
            &[
                (Slot::Cannon, u16::from(p.cannon)),
                (Slot::Officer, p.officers),
                (Slot::Baggage, u16::from(p.baggage)),
                (Slot::Flag, u16::from(p.flag)),
            ],
        );
    }
    // The off-board grid's ring, as the referee sees it, framed with the
    // map (R40).
    super::ring::spawn_layout_ring(&mut commands, &battle.setup);
    if let Some(ring) = battle
        .setup
        .offboard
        .as_ref()
        .and_then(|g| sandtable_warpspawn::offboard::ring::Ring::new(map, g.span).ok())
        && let Some(extent) = shown.extent.as_mut()
    {
        *extent = extent.max(super::ring::ring_extent(&ring));
    }
    let span = battle.setup.offboard.as_ref().map(|g| g.span);
    built.write(TableBuilt {
        reframe: *size != Some((map, span)),
    });
    *size = Some((map, span));
}

/// The battle's layout editor behind the shared switch.
impl LayoutEditing for Warpspawn {
    type Editor = BattleLayout;
    type Layout = Battle;
    const NEW_GAME: &'static str = "a new battle starts on the edited layout";

    fn edit(active: &ActiveBattle, file: Option<PathBuf>) -> BattleLayout {
        BattleLayout::new(active.setup.clone(), file)
    }

    fn draft(editor: &BattleLayout) -> &BattleDraft {
        &editor.draft
    }

    /// The edited battle, read back through the battle loader.
    fn played(editor: &BattleLayout, source: ScenarioSource) -> Result<ActiveBattle, String> {
        sandtable_scenario::battle::parse(&editor.draft.battle().to_ron(), "layout")
            .map_err(|e| e.to_string())
            .and_then(|b| ActiveBattle::new(b).map_err(|e| e.to_string()))
            .map(|battle| battle.with_source(source))
    }

    /// The table shows the battle again.
    fn back_unedited(commands: &mut Commands) {
        commands.queue(|world: &mut World| {
            world.write_message(BattleLoaded);
        });
    }
}
