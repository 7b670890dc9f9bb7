//! The side panel of layout mode: the table's size, rulers in mm or inches,
//! the measuring tool, and the editor's palette, selection, problems, undo
//! and redo, new layout, save and print.

use crate::hud::rulers::draw_edge_rulers;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::{EguiContexts, egui};
use sandtable_cache::{Facing, TerrainKind};
use sandtable_scenario::{Physical, RuleSystem};

use crate::cache::layout::draft::{Edit, Item, MAX_NEW_SIDE, PieceRef, Turn};
use crate::cache::layout::{
    EditorRequest, LayoutEditor, LayoutMode, LayoutTool, MM_PER_INCH, SetLayoutMode,
    measuring_line, shown_physical,
};
use crate::cache::picking::{hovered_square, square_under_cursor};
use crate::cache::table::SQUARE;
use crate::hud::{HoverLabel, HudStage, PanelWidth, TableLabels, notice_slot};
use crate::mode::Mode;
use crate::picking::Hovered;
use crate::session::Notice;
use crate::table::TableShown;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<LayoutPanel>()
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                draw_layout_panel.in_set(HudStage::Panels),
                draw_rulers.in_set(HudStage::Labels),
            )
                .run_if(in_state(Mode::Layout)),
        )
        .add_systems(
            Update,
            describe_hovered_piece
                .after(crate::schedule::AppSystems::SyncTable)
                .run_if(in_state(Mode::Layout)),
        );
}

/// The panel's own fields: the layout file, the size of a new layout, and
/// the palette item being dragged onto the table.
#[derive(Resource, Debug, Clone)]
pub struct LayoutPanel {
    /// The path typed for saving the layout.
    pub file: Option<String>,
    /// Columns and rows of a new layout.
    pub new_size: (u16, u16),
    /// A palette item dragged out of the panel, placed where it is let go.
    pub dragging: Option<Item>,
    /// The editor the fields belong to (`LayoutEditor::opened`).
    pub editor: u64,
}

impl Default for LayoutPanel {
    fn default() -> Self {
        LayoutPanel {
            file: None,
            new_size: (24, 15),
            dragging: None,
            editor: 0,
        }
    }
}

/// The palette's terrain, in the order it is shown.
const TERRAIN: [TerrainKind; 9] = [
    TerrainKind::LowWall,
    TerrainKind::HighWall,
    TerrainKind::Mountain,
    TerrainKind::Woods,
    TerrainKind::Water,
    TerrainKind::Road,
    TerrainKind::Bridge { elevated: false },
    TerrainKind::Bridge { elevated: true },
    TerrainKind::Building {
        entrance: sandtable_cache::Square::new(0, 0),
    },
];

#[allow(clippy::too_many_lines)]
fn draw_layout_panel(
    mut contexts: EguiContexts,
    mut layout: ResMut<LayoutMode>,
    editor: Option<ResMut<LayoutEditor>>,
    mut panel: ResMut<LayoutPanel>,
    notice: Res<Notice>,
    shown: Res<TableShown>,
    mut set_layout: MessageWriter<SetLayoutMode>,
    mut requests: MessageWriter<EditorRequest>,
    mut width: ResMut<PanelWidth>,
    window: Query<&Window, With<PrimaryWindow>>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
) -> Result {
    let Some(mut editor) = editor else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let editor = &mut *editor;
    let scenario = editor.draft.scenario().clone();
    let physical = scenario.table();
    // Another layout opened: its own file is offered for saving.
    if panel.editor != editor.opened {
        panel.editor = editor.opened;
        panel.file = None;
    }
    let file = panel.file.get_or_insert_with(|| {
        crate::session::files::layout_file(editor.draft.last_file(), "layout.ron")
    });
    let mut file = file.clone();
    let mut edit = |e: Edit| {
        requests.write(EditorRequest::Edit(e));
    };
    let mut other = Vec::new();
    let shown_panel = crate::hud::side_panel(ctx, "layout-panel", &mut width, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            let mut name = scenario.name.clone();
            ui.horizontal(|ui| {
                ui.label("Layout:");
                if ui.text_edit_singleline(&mut name).changed() {
                    edit(Edit::Rename(name.clone()));
                }
            });
            ui.horizontal(|ui| {
                let mut on = true;
                if ui.checkbox(&mut on, "Layout mode").changed() {
                    set_layout.write(SetLayoutMode::OFF);
                }
                ui.selectable_value(&mut layout.inches, false, "mm");
                ui.selectable_value(&mut layout.inches, true, "inches");
            });
            let unit = |mm: f64| {
                if layout.inches {
                    format!("{:.1} in", mm / MM_PER_INCH)
                } else {
                    format!("{mm:.0} mm")
                }
            };
            let p = shown_physical(&shown);
            ui.label(format!(
                "Table {} x {}, squares of {}",
                unit(p.table_mm.0),
                unit(p.table_mm.1),
                unit(p.square_mm)
            ));
            if scenario.physical.is_none() {
                ui.small("The scenario gives no table: this one is assumed.");
            }
            ui.collapsing("Table and figures (mm)", |ui| {
                let mut q = physical;
                let mut changed = false;
                egui::Grid::new("physical").show(ui, |ui| {
                    for (label, value) in [
                        ("table width", &mut q.table_mm.0),
                        ("table depth", &mut q.table_mm.1),
                        ("square", &mut q.square_mm),
                        ("figure scale", &mut q.figure_scale_mm),
                    ] {
                        ui.label(label);
                        changed |= ui
                            .add(egui::DragValue::new(value).range(1.0..=10_000.0).speed(1.0))
                            .changed();
                        ui.end_row();
                    }
                });
                if changed {
                    edit(Edit::SetPhysical(Some(q)));
                }
                if ui.button("Table A (30 x 20 in, 30 mm squares)").clicked() {
                    edit(Edit::SetPhysical(Some(Physical::TABLE_A)));
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Tool:");
                ui.selectable_value(&mut layout.tool, LayoutTool::Measure, "Measure");
                ui.selectable_value(&mut layout.tool, LayoutTool::Edit, "Edit");
            });
            match layout.tool {
                LayoutTool::Measure => {
                    ui.label("Click two points of the table to measure; right click clears.");
                    match (&layout.reading, layout.from) {
                        (_, Some(from)) => {
                            ui.label(format!("from {} to ...", from.square));
                        }
                        (Some(m), None) => {
                            ui.label(egui::RichText::new(m.describe()).strong());
                            ui.small(m.points());
                        }
                        _ => {}
                    }
                }
                LayoutTool::Edit => {
                    palette(ui, editor, &scenario, &mut panel.dragging, &mut edit);
                }
            }
            ui.separator();
            if let Some(piece) = editor.selected {
                selection(ui, editor, piece, &mut edit);
                ui.separator();
            }
            ui.horizontal(|ui| {
                let (undo, redo) = editor.draft.history();
                if ui
                    .add_enabled(undo > 0, egui::Button::new(format!("Undo ({undo})")))
                    .on_hover_text("Ctrl+Z")
                    .clicked()
                {
                    other.push(EditorRequest::Undo);
                }
                if ui
                    .add_enabled(redo > 0, egui::Button::new(format!("Redo ({redo})")))
                    .on_hover_text("Ctrl+Y or Ctrl+Shift+Z")
                    .clicked()
                {
                    other.push(EditorRequest::Redo);
                }
                if ui
                    .add_enabled(editor.draft.edited(), egui::Button::new("Revert"))
                    .on_hover_text("back to the layout as it was opened")
                    .clicked()
                {
                    other.push(EditorRequest::Revert);
                }
            });
            notice_slot(ui, notice.text.as_deref().map(|t| (t, notice.error)));
            let errors = editor.draft.errors();
            if errors.is_empty() {
                ui.colored_label(
                    egui::Color32::LIGHT_GREEN,
                    "The layout passes every setup ruling.",
                );
            } else {
                ui.colored_label(
                    egui::Color32::from_rgb(255, 120, 110),
                    format!("{} problem(s), drawn red on the table:", errors.len()),
                );
            }
            let mut pick = None;
            for f in errors {
                let text =
                    egui::RichText::new(f.line()).color(egui::Color32::from_rgb(255, 150, 140));
                if ui
                    .add(egui::Label::new(text).sense(egui::Sense::click()))
                    .clicked()
                {
                    pick = f.at;
                }
            }
            for f in editor.draft.warnings() {
                ui.colored_label(egui::Color32::from_rgb(230, 200, 90), f.line());
            }
            if pick.is_some() {
                editor.selected = pick;
            }
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("Rules:");
                for (rules, name) in [
                    (RuleSystem::ConflictAtCache, "Conflict at Cache"),
                    (RuleSystem::SnyderSkirmish, "Snyder Skirmish"),
                ] {
                    if ui.selectable_label(scenario.rules == rules, name).clicked()
                        && scenario.rules != rules
                    {
                        edit(Edit::SetRules(rules));
                    }
                }
            });
            ui.horizontal(|ui| {
                ui.label("New layout:");
                let side = 1..=MAX_NEW_SIDE;
                ui.add(egui::DragValue::new(&mut panel.new_size.0).range(side.clone()));
                ui.label("x");
                ui.add(egui::DragValue::new(&mut panel.new_size.1).range(side));
                if ui.button("New").clicked() {
                    edit(Edit::New {
                        columns: panel.new_size.0,
                        rows: panel.new_size.1,
                    });
                }
            });
            ui.separator();
            ui.horizontal(|ui| {
                ui.label("File:");
                ui.text_edit_singleline(&mut file);
            });
            ui.horizontal(|ui| {
                if ui.button("Save layout").clicked() {
                    other.push(EditorRequest::Save(file.clone().into()));
                }
                if ui
                    .button("Print sheet")
                    .on_hover_text("an A4 PDF at 1:1 beside the file named above")
                    .clicked()
                {
                    other.push(EditorRequest::Print(file.clone().into()));
                }
            });
            if ui
                .button(egui::RichText::new("Play this layout").strong())
                .on_hover_text("leave layout mode; after edits a new game starts on the layout")
                .clicked()
            {
                set_layout.write(SetLayoutMode::OFF);
            }
            ui.small(
                "Edit: click a palette item, then squares (or drag it onto the table); \
                     drag pieces to move them; Q/E turn, Delete removes, Esc lets go.",
            );
        });
    });
    panel.file = Some(file);
    for r in other {
        requests.write(r);
    }
    // A palette item dragged out of the panel lands where it is let go.
    if let Some(item) = panel.dragging
        && ctx.input(|i| i.pointer.primary_released())
    {
        panel.dragging = None;
        let over_table = ctx
            .pointer_latest_pos()
            .is_some_and(|p| p.x < shown_panel.response.rect.left());
        if over_table
            && let (Ok(window), Ok(camera), Some(board)) = (
                window.single(),
                camera.single(),
                crate::cache::table::board_shown(&shown),
            )
            && let Some(at) = square_under_cursor(window, camera, board)
        {
            requests.write(EditorRequest::Edit(Edit::Place { item, at }));
        }
    }
    Ok(())
}

fn palette(
    ui: &mut egui::Ui,
    editor: &mut LayoutEditor,
    scenario: &sandtable_scenario::Scenario,
    dragging: &mut Option<Item>,
    edit: &mut impl FnMut(Edit),
) {
    let players = &scenario.setup.players;
    ui.horizontal_wrapped(|ui| {
        ui.label("Player:");
        for (i, p) in players.iter().enumerate() {
            let [r, g, b] = scenario.colours.get(i).map_or([200, 200, 200], |c| c.0);
            let colour = egui::Color32::from_rgb(r, g, b);
            if crate::hud::side_button(ui, editor.player == i, &p.name, colour).clicked() {
                editor.player = i;
                editor.factor = 0;
            }
        }
        if ui.small_button("+").on_hover_text("add a player").clicked() {
            edit(Edit::AddPlayer);
        }
    });
    editor.player = editor.player.min(players.len().saturating_sub(1));
    let factors = players
        .get(editor.player)
        .map_or(&[][..], |p| &p.factors[..]);
    editor.factor = editor.factor.min(factors.len().saturating_sub(1));
    ui.horizontal_wrapped(|ui| {
        ui.label("Factor:");
        if factors.is_empty() {
            ui.label("none yet: place a base");
        }
        for (i, f) in factors.iter().enumerate() {
            let label = format!("{} (base {}, {} units)", i + 1, f.base, f.units.len());
            if ui.selectable_label(editor.factor == i, label).clicked() {
                editor.factor = i;
            }
        }
    });
    ui.horizontal(|ui| {
        ui.label("New units face:");
        for f in Facing::ALL {
            ui.selectable_value(&mut editor.facing, f, f.to_string());
        }
    });
    let mut items = vec![
        editor.unit_item(),
        Item::Base {
            player: editor.player,
        },
        Item::Stash,
    ];
    items.extend(TERRAIN.iter().map(|k| Item::Terrain(*k)));
    ui.horizontal_wrapped(|ui| {
        for item in items {
            // Items of one sort (a unit of any Factor, a building anywhere) share a name.
            let armed = editor.armed.is_some_and(|a| a.name() == item.name());
            let response = ui
                .add(
                    egui::Button::selectable(armed, item.name())
                        .sense(egui::Sense::click_and_drag()),
                )
                .on_hover_text("click, then click squares; or drag onto the table");
            if response.clicked() {
                editor.armed = if armed { None } else { Some(item) };
            }
            if response.drag_started() {
                *dragging = Some(item);
            }
        }
    });
    if scenario.rules == RuleSystem::ConflictAtCache {
        ui.small("Stashes belong to The Snyder Skirmish: switch the rules below to use them.");
    }
    match editor.armed {
        Some(item) => {
            // Keep the armed unit's player, Factor and facing in step with the palette.
            if matches!(item, Item::Unit { .. }) {
                editor.armed = Some(editor.unit_item());
            }
            if let Some(Item::Base { .. }) = editor.armed {
                editor.armed = Some(Item::Base {
                    player: editor.player,
                });
            }
            ui.label(format!(
                "Placing: {}. Click squares; right click or Esc stops.",
                item.name()
            ));
        }
        None => {
            ui.label("Click a piece to select it; drag it to move it.");
        }
    }
}

fn selection(
    ui: &mut egui::Ui,
    editor: &LayoutEditor,
    piece: PieceRef,
    edit: &mut impl FnMut(Edit),
) {
    let Some(what) = editor.draft.describe(piece) else {
        return;
    };
    ui.label(egui::RichText::new(format!("Selected: {what}")).strong());
    for f in editor.draft.errors_of(piece) {
        let ruling = f
            .problem
            .ruling
            .map(|r| format!(" ({r})"))
            .unwrap_or_default();
        ui.colored_label(
            egui::Color32::from_rgb(255, 120, 110),
            format!("breaks: {}{ruling}", f.problem.message),
        );
    }
    ui.horizontal(|ui| {
        let turns = matches!(piece, PieceRef::Unit { .. } | PieceRef::Terrain(_));
        if ui.add_enabled(turns, egui::Button::new("⟲ Q")).clicked() {
            edit(Edit::Rotate {
                piece,
                turn: Turn::Left,
            });
        }
        if ui.add_enabled(turns, egui::Button::new("E ⟳")).clicked() {
            edit(Edit::Rotate {
                piece,
                turn: Turn::Right,
            });
        }
        if ui.button("Delete").clicked() {
            edit(Edit::Delete(piece));
        }
    });
    if let PieceRef::Terrain(_) = piece {
        ui.small("Shift+click squares to add them to this piece or take them away.");
    }
}

/// In layout mode the hovered square is described by the layout: the piece
/// of the layout that stands there.
fn describe_hovered_piece(
    hovered: Res<Hovered>,
    editor: Option<Res<LayoutEditor>>,
    mut label: ResMut<HoverLabel>,
) {
    let wanted = hovered_square(&hovered).map(|sq| {
        match editor
            .as_deref()
            .and_then(|e| e.draft.piece_at(sq).and_then(|p| e.draft.describe(p)))
        {
            Some(what) => format!("{sq}: {what}"),
            None => sq.to_string(),
        }
    });
    label.set_if_neq(HoverLabel(wanted));
}

/// The rulers along the table's near and left edges, from its near-left
/// corner, and the measuring line with the distance at its middle.
fn draw_rulers(
    mut contexts: EguiContexts,
    shown: Res<TableShown>,
    layout: Res<LayoutMode>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (Some(_), Ok((cam, cam_at))) = (crate::cache::table::board_shown(&shown), camera.single())
    else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    let to_screen = |p: Vec3| labels.screen(p);
    let boxed = |at, words, size, back| labels.boxed(at, words, size, back);
    // The measuring line on the table, with the distance at its middle.
    let physical = shown_physical(&shown);
    if let Some(m) = measuring_line(&layout, physical)
        && let (Some(a), Some(b)) = (
            to_screen(m.from.world(physical)),
            to_screen(m.to.world(physical)),
        )
    {
        let ink = egui::Color32::from_rgb(255, 240, 150);
        labels
            .painter
            .line_segment([a, b], egui::Stroke::new(2.5, ink));
        for end in [a, b] {
            labels.painter.circle_filled(end, 4.0, ink);
        }
        let words = if layout.inches {
            format!("{:.2} in", m.mm / MM_PER_INCH)
        } else {
            format!("{:.0} mm", m.mm)
        };
        boxed(
            a + (b - a) / 2.0 - egui::vec2(0.0, 14.0),
            format!("{words} ({:.2} squares)", m.squares),
            14.0,
            egui::Color32::from_black_alpha(200),
        );
    }
    let p = shown_physical(&shown);
    draw_edge_rulers(
        &labels,
        p.table_mm,
        p.square_mm / f64::from(SQUARE),
        layout.inches,
    );
    Ok(())
}
