//! Layout mode for a skirmish, on the table's shared mode state: the open
//! table at its real size, edited with the mouse. A tool says what a
//! press and a release on the table do: select and drag a piece or a
//! corner, lay a terrain polygon's corners, place a building from the
//! library, a unit by its data id, a crate or an objective, or delete a
//! piece. The table shows the [`SkirmishDraft`], built again after every
//! edit, each piece that breaks a ruling in red; leaving layout mode
//! after edits starts a new skirmish of the edited layout, which must
//! load first.

use std::path::PathBuf;

use bevy::prelude::*;
use sandtable_frontiers::data::unit_data;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{Setup, TerrainKind, point_in};
use sandtable_scenario::skirmish::Skirmish;

use super::draft::{Building, Piece, SkirmishDraft, SkirmishEdit};
use super::table::{
    ActiveSkirmish, ElementPiece, Frontiers, SkirmishLoaded, SkirmishTop, TerrainPiece, Token,
    UnitPiece,
};
use super::{UNIT_MM, world_pt};
use crate::mode::Mode;
use crate::schedule::AppSystems;
use crate::session::layout::{LayoutEditing, keep_unsaved_layout_open, switch_layout};
use crate::session::open::on_table;
use crate::session::{Notice, ScenarioSource};
use crate::table::{Offending, TableBuilt, TablePiece, TableShown};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<SkirmishLayoutRequest>()
        .add_systems(OnExit(Mode::Layout), put_skirmish_layout_away)
        .add_systems(
            Update,
            (
                switch_layout::<Frontiers>.run_if(on_table::<Frontiers>),
                (
                    apply_skirmish_layout_requests,
                    keep_unsaved_layout_open::<Frontiers>,
                )
                    .chain()
                    .distributive_run_if(resource_exists::<SkirmishLayout>)
                    .distributive_run_if(in_state(Mode::Layout)),
            )
                .chain()
                .in_set(crate::schedule::FlowSteps::Follow),
        )
        .add_systems(
            Update,
            read_layout_keys
                .run_if(resource_exists::<SkirmishLayout>)
                .run_if(in_state(Mode::Layout))
                .in_set(AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            show_skirmish_draft
                .run_if(resource_exists::<SkirmishLayout>)
                // After the skirmish's own table, which it replaces.
                .after(super::table::sync_skirmish_pieces)
                .in_set(AppSystems::SyncTable),
        );
}

/// What a press and a release on the table do in layout mode.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum SkirmishTool {
    /// Select the piece pressed; dragged, a piece or a corner moves where
    /// it is let go.
    #[default]
    Select,
    /// Each click lays a corner of a terrain piece of the brush's kind;
    /// Done lays the piece.
    Terrain,
    /// A click places the library's building, its near-left corner there.
    Building,
    /// A click sets down a unit of the chosen type for the side.
    Unit,
    /// A click lays a crate (R143).
    Crate,
    /// A click lays an objective (R148).
    Objective,
    /// A click lays a door or a window of the chosen kind on the wall of
    /// a building element nearest it (R117).
    Opening,
    /// Two clicks: the distance between them, in mm and LNS (R100) or
    /// inches.
    Measure,
    /// A click takes the piece there off the layout: a door or a window
    /// within reach of its wall first.
    Delete,
}

impl SkirmishTool {
    /// Every tool, in the panel's order.
    pub const ALL: [SkirmishTool; 9] = [
        SkirmishTool::Select,
        SkirmishTool::Terrain,
        SkirmishTool::Building,
        SkirmishTool::Opening,
        SkirmishTool::Unit,
        SkirmishTool::Crate,
        SkirmishTool::Objective,
        SkirmishTool::Measure,
        SkirmishTool::Delete,
    ];

    /// Its name on the panel.
    pub fn name(self) -> &'static str {
        match self {
            SkirmishTool::Select => "Select",
            SkirmishTool::Terrain => "Terrain",
            SkirmishTool::Building => "Building",
            SkirmishTool::Unit => "Unit",
            SkirmishTool::Crate => "Crate",
            SkirmishTool::Objective => "Objective",
            SkirmishTool::Opening => "Door/window",
            SkirmishTool::Measure => "Measure",
            SkirmishTool::Delete => "Delete",
        }
    }
}

/// How near a corner a press grabs it rather than the piece (mm).
pub const CORNER_REACH_MM: f64 = 12.0;

/// The editing of a skirmish's layout; present only while layout mode is
/// on for a skirmish.
#[derive(Resource, Debug, Clone)]
pub struct SkirmishLayout {
    /// The layout and its history.
    pub draft: SkirmishDraft,
    /// What presses do.
    pub tool: SkirmishTool,
    /// The kind of terrain the terrain tool lays.
    pub terrain: TerrainKind,
    /// The building the building tool places.
    pub building: Building,
    /// What the opening tool lays: a door or a window.
    pub opening: sandtable_frontiers::setup::OpeningKind,
    /// Rulers and readings in inches rather than millimetres.
    pub inches: bool,
    /// The first point of a measurement, waiting for the second.
    pub measure_from: Option<Pt>,
    /// The last measurement, in words.
    pub reading: Option<String>,
    /// The side units are placed for.
    pub side: u8,
    /// The unit type the unit tool places, by data id.
    pub unit: String,
    /// The corners of the terrain piece being laid.
    pub drawing: Vec<Pt>,
    /// The piece selected, for the panel, and the corner of it pressed
    /// last, if a corner was.
    pub selected: Option<Piece>,
    /// The corner of the selected terrain piece or building pressed last.
    pub corner: Option<usize>,
    /// What a press grabbed, and where: a piece, or one of its corners.
    pub grabbed: Option<(Piece, Option<usize>, Pt)>,
    /// Bumped at every change of the draft, for the table to follow.
    pub revision: u64,
    /// A number no other layout of this run has: the panel's fields start
    /// again for each.
    pub opened: u64,
    /// The revision the table shows.
    shown: Option<u64>,
}

static NEXT_LAYOUT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

impl SkirmishLayout {
    /// Starts editing a skirmish; `file` is where it was read from, if
    /// anywhere.
    pub fn new(skirmish: Skirmish, file: Option<PathBuf>) -> SkirmishLayout {
        SkirmishLayout {
            draft: SkirmishDraft::opened(skirmish, file),
            tool: SkirmishTool::Select,
            terrain: TerrainKind::Vegetation,
            building: Building::Room,
            opening: sandtable_frontiers::setup::OpeningKind::Door,
            inches: false,
            measure_from: None,
            reading: None,
            side: 0,
            unit: "lg_trooper".to_owned(),
            drawing: Vec::new(),
            selected: None,
            corner: None,
            grabbed: None,
            revision: 0,
            opened: NEXT_LAYOUT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            shown: None,
        }
    }

    /// The setup the table shows.
    pub fn setup(&self) -> &Setup {
        &self.draft.layout().setup
    }

    /// The distance from `a` to `b` in words: mm and LNS (R100), or
    /// inches.
    pub fn measure(&self, a: Pt, b: Pt) -> String {
        let mm = f64::from(a.x - b.x).hypot(f64::from(a.y - b.y));
        if self.inches {
            format!(
                "{:.1}\" from {a} to {b}",
                mm / crate::hud::rulers::MM_PER_INCH
            )
        } else {
            let lns = f64::from(self.setup().switches.lns_mm);
            format!("{mm:.0} mm, {:.1} LNS, from {a} to {b} (R100)", mm / lns)
        }
    }
}

/// The piece at a point of the table, the one on top first: a unit, a
/// crate, an objective, a building element, a terrain piece.
pub fn piece_at(setup: &Setup, p: Pt) -> Option<Piece> {
    let near = |q: Pt, r: f64| f64::from(p.x - q.x).hypot(f64::from(p.y - q.y)) <= r;
    let token = f64::from(sandtable_frontiers::crates::CRATE_MM) / 2.0;
    setup
        .units
        .iter()
        .enumerate()
        .rev()
        .find(|(_, u)| {
            !u.deploy
                && unit_data(&u.data)
                    .is_some_and(|d| near(u.at, f64::from(d.base.size_mm().0) / 2.0))
        })
        .map(|(i, _)| Piece::Unit(i))
        .or_else(|| {
            setup
                .crates
                .iter()
                .rposition(|c| near(*c, token))
                .map(Piece::Crate)
        })
        .or_else(|| {
            setup
                .objectives
                .iter()
                .rposition(|c| near(*c, token))
                .map(Piece::Objective)
        })
        .or_else(|| {
            setup
                .elements
                .iter()
                .rposition(|e| point_in(p, &e.corners))
                .map(Piece::Element)
        })
        .or_else(|| {
            setup
                .terrain
                .iter()
                .rposition(|t| point_in(p, &t.corners))
                .map(Piece::Terrain)
        })
}

/// The corner of a terrain piece or an element within
/// [`CORNER_REACH_MM`] of a point, the nearest.
pub fn corner_at(setup: &Setup, p: Pt) -> Option<(Piece, usize)> {
    let polygons = setup
        .elements
        .iter()
        .enumerate()
        .map(|(i, e)| (Piece::Element(i), &e.corners))
        .chain(
            setup
                .terrain
                .iter()
                .enumerate()
                .map(|(i, t)| (Piece::Terrain(i), &t.corners)),
        );
    let mut best: Option<(f64, Piece, usize)> = None;
    for (piece, corners) in polygons {
        for (k, c) in corners.iter().enumerate() {
            let d = f64::from(p.x - c.x).hypot(f64::from(p.y - c.y));
            if d <= CORNER_REACH_MM && best.is_none_or(|(b, ..)| d < b) {
                best = Some((d, piece, k));
            }
        }
    }
    best.map(|(_, piece, k)| (piece, k))
}

/// Where a piece's handle stands: a polygon's first corner, a unit's,
/// crate's or objective's centre.
fn anchor(setup: &Setup, piece: Piece) -> Option<Pt> {
    match piece {
        Piece::Terrain(i) => setup.terrain.get(i).map(|t| t.corners[0]),
        Piece::Element(i) => setup.elements.get(i).map(|e| e.corners[0]),
        Piece::Unit(i) => setup.units.get(i).map(|u| u.at),
        Piece::Crate(i) => setup.crates.get(i).copied(),
        Piece::Objective(i) => setup.objectives.get(i).copied(),
    }
}

/// A request to the skirmish's layout editor, from its panel or the
/// table.
#[derive(Message, Debug, Clone, PartialEq)]
pub enum SkirmishLayoutRequest {
    /// Change the layout.
    Edit(SkirmishEdit),
    /// The left button went down on the table here.
    Press(Pt),
    /// The left button came up on the table here: the click or the end
    /// of a drag.
    Release(Pt),
    /// Lay the terrain piece whose corners were clicked.
    FinishTerrain,
    /// Forget the corners clicked, and let go of the selection.
    Cancel,
    /// Step back one edit.
    Undo,
    /// Make the last undone edit again.
    Redo,
    /// Write the layout as a skirmish file.
    Save(PathBuf),
    /// Write the layout's setup sheet as a PDF beside this path.
    Print(PathBuf),
    /// Go back to the skirmish as it was when layout mode was switched on
    /// (an edit itself, so it can be undone).
    Revert,
}

/// The mouse on the table in layout mode: the left button's press and
/// release where the pointer is. Ignored over a panel.
pub(super) fn read_layout_input(
    buttons: Res<ButtonInput<MouseButton>>,
    egui: Option<Res<bevy_egui::input::EguiWantsInput>>,
    pointer: Res<super::hand::PointerAt>,
    layout: Option<Res<SkirmishLayout>>,
    mut out: MessageWriter<SkirmishLayoutRequest>,
) {
    if layout.is_none() {
        return;
    }
    if !egui.as_ref().is_some_and(|e| e.wants_any_pointer_input())
        && let Some(p) = pointer.0
    {
        if buttons.just_pressed(MouseButton::Left) {
            out.write(SkirmishLayoutRequest::Press(p));
        }
        if buttons.just_released(MouseButton::Left) {
            out.write(SkirmishLayoutRequest::Release(p));
        }
    }
}

/// The keys of layout mode: Enter lays the terrain piece being drawn,
/// Escape lets go; Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes. Ignored
/// while a panel has the keyboard.
fn read_layout_keys(
    keys: Option<Res<ButtonInput<KeyCode>>>,
    taken: Option<Res<crate::session::keys::KeyboardTaken>>,
    mut out: MessageWriter<SkirmishLayoutRequest>,
) {
    let Some(keys) = keys else {
        return;
    };
    if taken.is_some_and(|t| t.0) {
        return;
    }
    let ctrl = keys.pressed(KeyCode::ControlLeft) || keys.pressed(KeyCode::ControlRight);
    let shift = keys.pressed(KeyCode::ShiftLeft) || keys.pressed(KeyCode::ShiftRight);
    if keys.just_pressed(KeyCode::Enter) {
        out.write(SkirmishLayoutRequest::FinishTerrain);
    }
    if keys.just_pressed(KeyCode::Escape) {
        out.write(SkirmishLayoutRequest::Cancel);
    }
    if ctrl && keys.just_pressed(KeyCode::KeyZ) {
        out.write(if shift {
            SkirmishLayoutRequest::Redo
        } else {
            SkirmishLayoutRequest::Undo
        });
    }
    if ctrl && keys.just_pressed(KeyCode::KeyY) {
        out.write(SkirmishLayoutRequest::Redo);
    }
}

/// Layout mode ends: the skirmish's editing is put away.
fn put_skirmish_layout_away(mut commands: Commands) {
    commands.remove_resource::<SkirmishLayout>();
}

/// What a press then a release at `to` make with the tool: an edit, or
/// nothing.
fn tool_edit(layout: &mut SkirmishLayout, to: Pt) -> Option<SkirmishEdit> {
    let grabbed = layout.grabbed.take();
    let setup = layout.setup();
    match layout.tool {
        SkirmishTool::Select => {
            let (piece, corner, from) = grabbed?;
            if from == to {
                return None;
            }
            Some(match corner {
                Some(corner) => SkirmishEdit::MoveCorner { piece, corner, to },
                None => {
                    // The piece keeps where it was held.
                    let handle = anchor(setup, piece)?;
                    SkirmishEdit::MovePiece {
                        piece,
                        to: Pt::new(handle.x + to.x - from.x, handle.y + to.y - from.y),
                    }
                }
            })
        }
        SkirmishTool::Terrain => {
            layout.drawing.push(to);
            None
        }
        SkirmishTool::Building => Some(SkirmishEdit::PlaceBuilding {
            building: layout.building,
            at: to,
        }),
        SkirmishTool::Unit => Some(SkirmishEdit::PlaceUnit {
            data: layout.unit.clone(),
            side: layout.side,
            at: Some(to),
        }),
        SkirmishTool::Crate => Some(SkirmishEdit::AddCrate(to)),
        SkirmishTool::Objective => Some(SkirmishEdit::AddObjective(to)),
        SkirmishTool::Opening => Some(SkirmishEdit::AddOpening {
            kind: layout.opening,
            at: to,
        }),
        SkirmishTool::Measure => {
            match layout.measure_from.take() {
                None => {
                    layout.measure_from = Some(to);
                    layout.reading = None;
                }
                Some(from) => layout.reading = Some(layout.measure(from, to)),
            }
            None
        }
        SkirmishTool::Delete => match super::draft::opening_at(setup, to) {
            Some((element, opening)) => Some(SkirmishEdit::DeleteOpening { element, opening }),
            None => piece_at(setup, to).map(SkirmishEdit::DeletePiece),
        },
    }
}

/// Carries out the requests; a refused edit changes nothing and says why.
fn apply_skirmish_layout_requests(
    mut requests: MessageReader<SkirmishLayoutRequest>,
    mut layout: ResMut<SkirmishLayout>,
    mut notice: ResMut<Notice>,
) {
    for request in requests.read() {
        let layout = &mut *layout;
        let edit = match request {
            SkirmishLayoutRequest::Edit(edit) => Some(edit.clone()),
            SkirmishLayoutRequest::Press(p) => {
                if layout.tool == SkirmishTool::Select {
                    let setup = layout.setup();
                    layout.grabbed = match corner_at(setup, *p) {
                        Some((piece, k)) => Some((piece, Some(k), *p)),
                        None => piece_at(setup, *p).map(|piece| (piece, None, *p)),
                    };
                    layout.selected = layout.grabbed.map(|(piece, ..)| piece);
                    layout.corner = layout.grabbed.and_then(|(_, k, _)| k);
                    notice.info(match layout.grabbed {
                        Some((piece, Some(k), _)) => {
                            format!("corner {} of {piece:?}: drag it where it goes", k + 1)
                        }
                        Some((piece, None, _)) => format!("{piece:?} selected: drag it to move it"),
                        None => "nothing there to select".to_owned(),
                    });
                }
                None
            }
            SkirmishLayoutRequest::Release(p) => tool_edit(layout, *p),
            // Enter with no corner laid: nothing to lay.
            SkirmishLayoutRequest::FinishTerrain if layout.drawing.is_empty() => None,
            SkirmishLayoutRequest::FinishTerrain => Some(SkirmishEdit::AddTerrain {
                kind: layout.terrain,
                corners: std::mem::take(&mut layout.drawing),
            }),
            SkirmishLayoutRequest::Cancel => {
                layout.drawing.clear();
                layout.measure_from = None;
                layout.reading = None;
                layout.selected = None;
                layout.corner = None;
                layout.grabbed = None;
                None
            }
            SkirmishLayoutRequest::Undo => {
                match layout.draft.undo() {
                    Ok(()) => {
                        layout.revision += 1;
                        tell_problems(&layout.draft, &mut notice);
                    }
                    Err(e) => notice.error(e.to_string()),
                }
                None
            }
            SkirmishLayoutRequest::Redo => {
                match layout.draft.redo() {
                    Ok(()) => {
                        layout.revision += 1;
                        tell_problems(&layout.draft, &mut notice);
                    }
                    Err(e) => notice.error(e.to_string()),
                }
                None
            }
            SkirmishLayoutRequest::Revert => {
                layout.draft.revert();
                layout.revision += 1;
                tell_problems(&layout.draft, &mut notice);
                None
            }
            SkirmishLayoutRequest::Save(path) => {
                match layout.draft.save(path) {
                    Ok(Some(b)) => notice.info(format!(
                        "saved to {}; the file it replaced is kept as {}",
                        path.display(),
                        b.display()
                    )),
                    Ok(None) => notice.info(format!("saved to {}", path.display())),
                    Err(e) => notice.error(e),
                }
                None
            }
            SkirmishLayoutRequest::Print(path) => {
                match super::files::print_skirmish_sheet(
                    layout.draft.layout(),
                    &crate::session::files::sheet_beside(path),
                ) {
                    Ok(out) => notice.info(format!("sheet written to {}", out.display())),
                    Err(e) => notice.error(e),
                }
                None
            }
        };
        let Some(edit) = edit else {
            continue;
        };
        match layout.draft.apply(&edit) {
            Ok(()) => {
                // The table shows the edited draft.
                layout.revision += 1;
                // A piece added or moved is the one selected.
                let setup = layout.setup();
                layout.selected = match &edit {
                    SkirmishEdit::MovePiece { piece, .. }
                    | SkirmishEdit::MoveCorner { piece, .. } => Some(*piece),
                    SkirmishEdit::PlaceUnit { .. } => {
                        Some(Piece::Unit(setup.units.len().saturating_sub(1)))
                    }
                    SkirmishEdit::PlaceBuilding { building, .. } if building.is_ruin() => {
                        Some(Piece::Terrain(setup.terrain.len().saturating_sub(1)))
                    }
                    SkirmishEdit::PlaceBuilding { .. } => {
                        Some(Piece::Element(setup.elements.len().saturating_sub(1)))
                    }
                    SkirmishEdit::AddTerrain { .. } => {
                        Some(Piece::Terrain(setup.terrain.len().saturating_sub(1)))
                    }
                    SkirmishEdit::AddCorner { piece, .. }
                    | SkirmishEdit::DeleteCorner { piece, .. } => Some(*piece),
                    _ => None,
                };
                layout.corner = match &edit {
                    SkirmishEdit::MoveCorner { corner, .. } => Some(*corner),
                    SkirmishEdit::AddCorner { after, .. } => Some(after + 1),
                    _ => None,
                };
                tell_problems(&layout.draft, &mut notice);
            }
            Err(e) => notice.error(e.to_string()),
        }
    }
}

/// The notice after the layout changed, by an edit, an undo or a redo:
/// its problems, or that it loads; never what an edit undone had caused.
fn tell_problems(draft: &SkirmishDraft, notice: &mut Notice) {
    notice.info(match draft.problems() {
        Some((n, first)) => format!(
            "{} problem{} to fix; first: {first}",
            n,
            if n == 1 { "" } else { "s" }
        ),
        None => "the layout loads: it may be saved and played".to_owned(),
    });
}

/// The table follows the draft: the table top, terrain, buildings,
/// units set down, crates and objectives built again after each edit,
/// each piece that breaks a ruling marked, the camera framed again when
/// the table's size changed.
fn show_skirmish_draft(
    mut commands: Commands,
    mut layout: ResMut<SkirmishLayout>,
    old: Query<Entity, With<TablePiece>>,
    mut shown: ResMut<TableShown>,
    mut built: MessageWriter<TableBuilt>,
    mut size: Local<Option<(u16, u16)>>,
) {
    if layout.shown == Some(layout.revision) {
        return;
    }
    layout.shown = Some(layout.revision);
    for e in &old {
        commands.entity(e).despawn();
    }
    let setup = layout.setup().clone();
    let table = setup.table;
    shown.surface = Some(sandtable_core::game::Surface::Plane {
        width_mm: table.0,
        depth_mm: table.1,
    });
    shown.extent = Some(Vec2::new(
        f32::from(table.0) / UNIT_MM,
        f32::from(table.1) / UNIT_MM,
    ));
    shown.models.clone_from(&layout.draft.layout().models);
    let offending: Vec<Piece> = layout.draft.errors().iter().filter_map(|f| f.at).collect();
    // A piece of the table, marked when it breaks a ruling.
    let mut spawn = |bundle: (TablePiece, Transform),
                     piece: Option<Piece>,
                     what: Box<dyn FnOnce(&mut EntityCommands)>| {
        let mut e = commands.spawn((bundle, Visibility::default()));
        if piece.is_some_and(|p| offending.contains(&p)) {
            e.insert(Offending);
        }
        what(&mut e);
    };
    let here = |p: Pt| (TablePiece, Transform::from_translation(world_pt(table, p)));
    let flat = || (TablePiece, Transform::default());
    spawn(
        flat(),
        None,
        Box::new(move |e| {
            e.insert(SkirmishTop { table });
        }),
    );
    for k in 0..setup.terrain.len() {
        spawn(
            flat(),
            Some(Piece::Terrain(k)),
            Box::new(move |e| {
                e.insert(TerrainPiece(k));
            }),
        );
    }
    for k in 0..setup.elements.len() {
        spawn(
            flat(),
            Some(Piece::Element(k)),
            Box::new(move |e| {
                e.insert(ElementPiece {
                    index: k,
                    ruined: false,
                });
            }),
        );
    }
    for (i, u) in setup.units.iter().enumerate() {
        let Some(data) = unit_data(&u.data).filter(|_| !u.deploy) else {
            continue;
        };
        let (piece, at) = here(u.at);
        let at = at.with_rotation(Quat::from_rotation_y(f32::from(u.facing).to_radians()));
        let unit = UnitPiece {
            index: i,
            side: u.side,
            tag: u.id.clone(),
            kind: data.id,
            base_mm: data.base.size_mm(),
            carcass: false,
            back: false,
        };
        spawn(
            (piece, at),
            Some(Piece::Unit(i)),
            Box::new(move |e| {
                e.insert(unit);
            }),
        );
    }
    for (k, c) in setup.crates.iter().enumerate() {
        spawn(
            here(*c),
            Some(Piece::Crate(k)),
            Box::new(move |e| {
                e.insert(Token::Crate(k));
            }),
        );
    }
    for (k, c) in setup.objectives.iter().enumerate() {
        spawn(
            here(*c),
            Some(Piece::Objective(k)),
            Box::new(move |e| {
                e.insert(Token::Objective(k));
            }),
        );
    }
    built.write(TableBuilt {
        reframe: *size != Some(table),
    });
    *size = Some(table);
}

/// The skirmish's layout editor behind the shared switch.
impl LayoutEditing for Frontiers {
    type Editor = SkirmishLayout;
    type Layout = Skirmish;
    const NEW_GAME: &'static str = "a new skirmish starts on the edited layout";

    fn edit(active: &ActiveSkirmish, file: Option<PathBuf>) -> SkirmishLayout {
        SkirmishLayout::new(active.setup.clone(), file)
    }

    /// A skirmish's layout is its table: terrain, buildings, crates and
    /// units where both sides see them. What the rules hide (hands,
    /// markers, decks, the crates' contents, R143, R149) is not on it.
    fn layout_hides(_: &ActiveSkirmish) -> bool {
        false
    }

    fn draft(editor: &SkirmishLayout) -> &SkirmishDraft {
        &editor.draft
    }

    /// The edited skirmish, read back through the skirmish loader.
    fn played(editor: &SkirmishLayout, source: ScenarioSource) -> Result<ActiveSkirmish, String> {
        sandtable_scenario::skirmish::parse(&editor.draft.layout().to_ron(), "layout")
            .map_err(|e| e.to_string())
            .and_then(ActiveSkirmish::new)
            .map(|skirmish| skirmish.with_source(source))
    }

    /// The table shows the skirmish again.
    fn back_unedited(commands: &mut Commands) {
        commands.queue(|world: &mut World| {
            world.write_message(SkirmishLoaded);
        });
    }
}
