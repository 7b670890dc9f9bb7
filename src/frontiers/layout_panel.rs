//! The panel of a skirmish's layout mode: the tools (select and drag,
//! terrain, buildings, units, crates, objectives, delete), each side's AP
//! added up against the limit (red when over, R103), the table's size and
//! the deployment zone, the piece selected, every problem with its ruling
//! (its piece red on the table), undo and redo, saving and printing; and
//! the corners being laid, marked on the table.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::TerrainKind;

use super::draft::{Building, Piece, SkirmishEdit, side_ap, unit_types};
use super::layout::{SkirmishLayout, SkirmishLayoutRequest, SkirmishTool};
use crate::hud::{HudStage, PanelWidth, TableLabels};
use crate::mode::{Mode, SetLayoutMode};
use crate::session::Notice;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<SkirmishLayoutPanel>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (
            draw_skirmish_layout_panel.in_set(HudStage::Panels),
            mark_drawing.in_set(HudStage::Labels),
        )
            .distributive_run_if(resource_exists::<SkirmishLayout>)
            .distributive_run_if(in_state(Mode::Layout)),
    );
}

/// The panel's own fields: the file to save to.
#[derive(Resource, Debug, Clone, Default)]
pub struct SkirmishLayoutPanel {
    /// The path typed for saving the layout.
    pub file: Option<String>,
    /// The width and depth of a new table, in mm.
    pub new_size: Option<(u16, u16)>,
    /// The layout the fields belong to (`SkirmishLayout::opened`).
    pub layout: Option<u64>,
}

const KINDS: [(TerrainKind, &str); 4] = [
    (TerrainKind::Vegetation, "vegetation"),
    (TerrainKind::Hill, "hill"),
    (TerrainKind::LightStructure, "light structure"),
    (TerrainKind::Crater, "crater"),
];

/// A piece in words, for the panel.
fn piece_words(layout: &SkirmishLayout, piece: Piece) -> String {
    let s = layout.setup();
    match piece {
        Piece::Terrain(i) => s.terrain.get(i).map_or_else(String::new, |t| {
            let kind = KINDS.iter().find(|k| k.0 == t.kind).map_or("", |k| k.1);
            format!("terrain {}: {kind}, {} corners", i + 1, t.corners.len())
        }),
        Piece::Element(i) => s.elements.get(i).map_or_else(String::new, |e| {
            format!(
                "{} {}: {} spaces, defense {}",
                sandtable_frontiers::setup::element_id(&s.elements, i),
                e.name,
                e.spaces.len(),
                e.defense
            )
        }),
        Piece::Unit(i) => s.units.get(i).map_or_else(String::new, |u| {
            format!(
                "{} ({}): {} at {}, {}",
                u.id,
                s.sides[usize::from(u.side)].name,
                u.data,
                u.at.x,
                u.at.y
            )
        }),
        Piece::Crate(i) => format!("crate {}", i + 1),
        Piece::Objective(i) => format!("objective {}", i + 1),
    }
}

#[allow(clippy::too_many_lines)]
fn draw_skirmish_layout_panel(
    mut contexts: EguiContexts,
    layout: ResMut<SkirmishLayout>,
    mut panel: ResMut<SkirmishLayoutPanel>,
    notice: Res<Notice>,
    mut requests: MessageWriter<SkirmishLayoutRequest>,
    mut set_layout: MessageWriter<SetLayoutMode>,
    mut width: ResMut<PanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if panel.layout != Some(layout.opened) {
        *panel = SkirmishLayoutPanel {
            layout: Some(layout.opened),
            ..default()
        };
    }
    let mut tracked = layout;
    let layout = tracked.bypass_change_detection();
    let skirmish = layout.draft.layout().clone();
    let setup = &skirmish.setup;
    let mut out: Vec<SkirmishLayoutRequest> = Vec::new();
    crate::hud::side_panel(ctx, "skirmish-layout-panel", &mut width, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
            let (renamed, back) = crate::hud::layout_head(
                ui,
                &skirmish.name,
                "Back to the skirmish",
                "after edits, a new skirmish starts on the edited layout",
                &notice,
            );
            if let Some(name) = renamed {
                out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::Rename(name)));
            }
            if back {
                set_layout.write(SetLayoutMode::OFF);
            }
            // Each side's AP against the limit (R103).
            for (k, side) in setup.sides.iter().enumerate() {
                let ap = side_ap(&skirmish, k as u8);
                let limit = setup.ap_limit(k);
                let over = limit.is_some_and(|limit| ap > limit);
                let words = match (limit, setup.ap) {
                    (Some(limit), _) => format!("{}: {ap} AP of {limit} (R103)", side.name),
                    // Cameron's attacker brings its whole box (R148).
                    (None, Some(_)) => format!("{}: {ap} AP, its whole box (R148)", side.name),
                    (None, None) => format!("{}: {ap} AP, no limit", side.name),
                };
                if over {
                    ui.colored_label(egui::Color32::from_rgb(230, 80, 70), words);
                } else {
                    ui.label(words);
                }
            }
            ui.horizontal(|ui| {
                let mut limited = setup.ap.is_some();
                let mut limit = setup.ap.unwrap_or(250);
                let a = ui.checkbox(&mut limited, "AP limit");
                let b = ui.add_enabled(limited, egui::DragValue::new(&mut limit).range(0..=5000));
                if a.changed() || b.changed() {
                    out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::SetAp(
                        limited.then_some(limit),
                    )));
                }
            });
            ui.horizontal(|ui| {
                let (mut w, mut d) = setup.table;
                ui.label("Table (mm):");
                let a = ui.add(egui::DragValue::new(&mut w).range(100..=6000));
                ui.label("x");
                let b = ui.add(egui::DragValue::new(&mut d).range(100..=6000));
                if (a.changed() || b.changed()) && (w, d) != setup.table {
                    out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::SetTable(w, d)));
                }
            });
            ui.horizontal(|ui| {
                let mut zone = setup.deploy_mm.is_some();
                let mut mm = setup.deploy_mm.unwrap_or(120);
                let a = ui
                    .checkbox(&mut zone, "Deploy within")
                    .on_hover_text("off: a unit deploys touching its edge (R146)");
                let b = ui.add_enabled(zone, egui::DragValue::new(&mut mm).range(30..=3000));
                ui.label("mm of the edge");
                if a.changed() || b.changed() {
                    out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::SetDeployMm(
                        zone.then_some(mm),
                    )));
                }
            });
            ui.separator();
            ui.horizontal_wrapped(|ui| {
                for t in SkirmishTool::ALL {
                    ui.selectable_value(&mut layout.tool, t, t.name());
                }
            });
            match layout.tool {
                SkirmishTool::Select => {
                    ui.label("Press a piece and drag it where it goes; press near a corner of a terrain piece or a building to drag the corner.");
                }
                SkirmishTool::Terrain => {
                    egui::ComboBox::from_id_salt("skirmish-terrain")
                        .selected_text(KINDS.iter().find(|k| k.0 == layout.terrain).map_or("", |k| k.1))
                        .show_ui(ui, |ui| {
                            for (kind, words) in KINDS {
                                ui.selectable_value(&mut layout.terrain, kind, words);
                            }
                        });
                    ui.label(format!(
                        "Click each corner in turn ({} laid); Enter or Done lays the piece, Escape forgets the corners.",
                        layout.drawing.len()
                    ));
                    ui.horizontal(|ui| {
                        if ui
                            .add_enabled(layout.drawing.len() >= 3, egui::Button::new("Done"))
                            .clicked()
                        {
                            out.push(SkirmishLayoutRequest::FinishTerrain);
                        }
                        if ui
                            .add_enabled(!layout.drawing.is_empty(), egui::Button::new("Cancel"))
                            .clicked()
                        {
                            out.push(SkirmishLayoutRequest::Cancel);
                        }
                    });
                }
                SkirmishTool::Building => {
                    egui::ComboBox::from_id_salt("skirmish-building")
                        .selected_text(layout.building.name())
                        .show_ui(ui, |ui| {
                            for b in Building::ALL {
                                ui.selectable_value(&mut layout.building, b, b.name());
                            }
                        });
                    ui.label("Click where its near-left corner stands: its spaces, doors and windows come with it (R117).");
                }
                SkirmishTool::Unit => {
                    ui.horizontal(|ui| {
                        for (k, side) in setup.sides.iter().enumerate() {
                            ui.selectable_value(&mut layout.side, k as u8, &side.name);
                        }
                    });
                    if let Some(side) = setup.sides.get(usize::from(layout.side)) {
                        let types: Vec<&str> = unit_types(side.faction).collect();
                        if !types.contains(&layout.unit.as_str()) {
                            layout.unit = types.first().map_or_else(String::new, |t| (*t).to_owned());
                        }
                        egui::ComboBox::from_id_salt("skirmish-unit")
                            .selected_text(&layout.unit)
                            .show_ui(ui, |ui| {
                                for t in types {
                                    let ap = sandtable_frontiers::data::unit_data(t).map_or(0, |d| d.ap);
                                    ui.selectable_value(&mut layout.unit, t.to_owned(), format!("{t} ({ap} AP)"));
                                }
                            });
                    }
                    ui.label("Click where the unit stands, or:");
                    if ui
                        .button("Add it to deploy before the first turn (R146)")
                        .clicked()
                    {
                        out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::PlaceUnit {
                            data: layout.unit.clone(),
                            side: layout.side,
                            at: None,
                        }));
                    }
                }
                SkirmishTool::Crate => {
                    ui.label("Click where a crate lies (R143).");
                }
                SkirmishTool::Objective => {
                    ui.label("Click where an objective lies (R148).");
                }
                SkirmishTool::Opening => {
                    ui.horizontal(|ui| {
                        use sandtable_frontiers::setup::OpeningKind;
                        ui.selectable_value(&mut layout.opening, OpeningKind::Door, "Door");
                        ui.selectable_value(&mut layout.opening, OpeningKind::Window, "Window");
                    });
                    ui.label(format!(
                        "Click a building's wall: a {} {} mm wide lies there, the nearest space behind it (R117). Delete takes one away.",
                        match layout.opening {
                            sandtable_frontiers::setup::OpeningKind::Door => "door",
                            sandtable_frontiers::setup::OpeningKind::Window => "window",
                        },
                        super::draft::opening_width(layout.opening)
                    ));
                }
                SkirmishTool::Measure => {
                    ui.label(match layout.measure_from {
                        Some(from) => format!("From {from}: click where the measure ends; Escape lets go."),
                        None => "Click two points: the distance between them.".to_owned(),
                    });
                    if let Some(reading) = &layout.reading {
                        ui.label(egui::RichText::new(reading).strong());
                    }
                }
                SkirmishTool::Delete => {
                    ui.label("Click a piece to take it off the layout, or a door or a window on its wall.");
                }
            }
            ui.checkbox(&mut layout.inches, "Rulers and readings in inches");
            if let Some(piece) = layout.selected {
                ui.separator();
                ui.label(format!("Selected: {}", piece_words(layout, piece)));
                ui.horizontal(|ui| {
                    if let Piece::Unit(i) = piece
                        && let Some(u) = setup.units.get(i)
                    {
                        let mut facing = u.facing;
                        ui.label("facing");
                        if ui
                            .add(egui::DragValue::new(&mut facing).range(-360..=720).suffix("°"))
                            .changed()
                        {
                            out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::FaceUnit {
                                unit: i,
                                facing,
                            }));
                        }
                    }
                    if ui.button("Delete").clicked() {
                        out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::DeletePiece(piece)));
                        layout.selected = None;
                    }
                });
                // A corner pressed: another after it, half way to the next,
                // or this one taken away (a polygon keeps three).
                let corners = match piece {
                    Piece::Terrain(i) => setup.terrain.get(i).map(|t| &t.corners),
                    Piece::Element(i) => setup.elements.get(i).map(|e| &e.corners),
                    _ => None,
                };
                if let (Some(corners), Some(k)) = (corners, layout.corner)
                    && k < corners.len()
                {
                    let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
                    ui.horizontal(|ui| {
                        ui.label(format!("corner {} at {}, {}", k + 1, a.x, a.y));
                        if ui.button("Add a corner after it").clicked() {
                            out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::AddCorner {
                                piece,
                                after: k,
                                at: sandtable_frontiers::geometry::Pt::new(
                                    (a.x + b.x) / 2,
                                    (a.y + b.y) / 2,
                                ),
                            }));
                        }
                        if ui
                            .add_enabled(corners.len() > 3, egui::Button::new("Delete the corner"))
                            .clicked()
                        {
                            out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::DeleteCorner {
                                piece,
                                corner: k,
                            }));
                        }
                    });
                }
            }
            ui.separator();
            ui.horizontal(|ui| {
                let (w, d) = panel.new_size.get_or_insert((1219, 610));
                ui.label("New, empty:");
                ui.add(egui::DragValue::new(w).range(100..=6000));
                ui.label("x");
                ui.add(egui::DragValue::new(d).range(100..=6000));
                ui.label("mm");
                if ui
                    .button("New")
                    .on_hover_text("an empty table: the Legion against the Zirl, nothing on it (an edit: Undo brings the layout back)")
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Edit(SkirmishEdit::New(*w, *d)));
                }
            });
            let (undo, redo) = layout.draft.history();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(undo > 0, egui::Button::new("Undo"))
                    .on_hover_text("Ctrl+Z")
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Undo);
                }
                if ui
                    .add_enabled(redo > 0, egui::Button::new("Redo"))
                    .on_hover_text("Ctrl+Y")
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Redo);
                }
                if ui
                    .add_enabled(layout.draft.edited(), egui::Button::new("Revert"))
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Revert);
                }
            });
            let file = panel.file.get_or_insert_with(|| {
                crate::session::files::layout_file(layout.draft.last_file(), "layout.ron")
            });
            ui.horizontal(|ui| {
                ui.label("File:");
                ui.text_edit_singleline(file);
            });
            let errors = layout.draft.errors();
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(errors.is_empty(), egui::Button::new("Save"))
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Save(file.as_str().into()));
                }
                if ui
                    .add_enabled(errors.is_empty(), egui::Button::new("Print sheet"))
                    .on_hover_text("the table at 1:1, the pieces and the play aids, as a PDF beside the file")
                    .clicked()
                {
                    out.push(SkirmishLayoutRequest::Print(file.as_str().into()));
                }
            });
            ui.separator();
            if errors.is_empty() {
                ui.label("The layout loads: it may be saved, printed and played.");
            } else {
                ui.colored_label(
                    egui::Color32::from_rgb(230, 80, 70),
                    format!("{} problem{} (red on the table):", errors.len(), if errors.len() == 1 { "" } else { "s" }),
                );
                for f in errors {
                    let line = ui.label(egui::RichText::new(f.line()).small());
                    if let Some(at) = f.at
                        && line.clicked()
                    {
                        layout.selected = Some(at);
                    }
                }
            }
            for w in layout.draft.warnings() {
                ui.colored_label(egui::Color32::GOLD, egui::RichText::new(w.line()).small());
            }
        });
    });
    for r in out {
        requests.write(r);
    }
    Ok(())
}

/// The corners of the terrain piece being laid, joined on the table, and
/// the units' ids over them; the rulers along the near and left edges,
/// the measure being taken from its first point to the pointer, and the
/// ghost of what a click or a drag would lay: the building under the
/// pointer, the piece or corner being dragged.
fn mark_drawing(
    mut contexts: EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    layout: Res<SkirmishLayout>,
    units: Query<(&super::table::UnitPiece, &Transform)>,
    pointer: Res<super::hand::PointerAt>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    let table = layout.setup().table;
    crate::hud::rulers::draw_edge_rulers(
        &labels,
        (f64::from(table.0), f64::from(table.1)),
        f64::from(super::UNIT_MM),
        layout.inches,
    );
    let screen = |p: Pt| labels.screen(super::world_pt(table, p));
    let ghost = egui::Color32::from_rgba_unmultiplied(250, 250, 250, 150);
    let outline = |corners: &[Pt]| -> Vec<egui::Pos2> {
        corners
            .iter()
            .chain(corners.first())
            .filter_map(|p| screen(*p))
            .collect()
    };
    if let Some(at) = pointer.0 {
        match layout.tool {
            // The measure from its first point to the pointer.
            SkirmishTool::Measure => {
                if let Some(from) = layout.measure_from {
                    let line: Vec<egui::Pos2> =
                        [from, at].iter().filter_map(|p| screen(*p)).collect();
                    labels.line(line, egui::Color32::from_rgb(255, 240, 150));
                    labels.pointer_bar(layout.measure(from, at));
                }
            }
            SkirmishTool::Building => {
                labels.line(outline(&layout.building.outline(at)), ghost);
            }
            SkirmishTool::Select => {
                if let Some((piece, corner, from)) = layout.grabbed {
                    let (dx, dy) = (at.x - from.x, at.y - from.y);
                    let moved = |q: &Pt| Pt::new(q.x + dx, q.y + dy);
                    let setup = layout.setup();
                    let corners: Option<Vec<Pt>> = match piece {
                        Piece::Terrain(i) => setup.terrain.get(i).map(|t| t.corners.clone()),
                        Piece::Element(i) => setup.elements.get(i).map(|e| e.corners.clone()),
                        _ => None,
                    };
                    match (corners, corner) {
                        // A corner dragged: the polygon with it moved.
                        (Some(mut c), Some(k)) if k < c.len() => {
                            c[k] = moved(&c[k]);
                            labels.line(outline(&c), ghost);
                        }
                        (Some(c), _) => {
                            let c: Vec<Pt> = c.iter().map(moved).collect();
                            labels.line(outline(&c), ghost);
                        }
                        // A unit, crate or objective: a ring where it goes.
                        (None, _) if at != from => {
                            if let Some(p) = screen(at) {
                                labels.painter.circle_stroke(
                                    p,
                                    10.0,
                                    egui::Stroke::new(2.0, ghost),
                                );
                            }
                        }
                        (None, _) => {}
                    }
                }
            }
            _ => {}
        }
    }
    for (u, at) in &units {
        if let Some(p) = labels.screen(at.translation + Vec3::Y * 0.9) {
            labels.boxed(p, u.tag.clone(), 12.0, egui::Color32::from_black_alpha(170));
        }
    }
    // Each deployment strip's inner edge, across the table (R146).
    for (side, depth) in layout.setup().deploy_strips() {
        let (d, w) = (i32::from(table.1), i32::from(table.0));
        let y = if side == 0 { depth } else { d - depth };
        let ends: Vec<egui::Pos2> = [Pt::new(0, y), Pt::new(w, y)]
            .iter()
            .filter_map(|p| labels.screen(super::world_pt(table, *p)))
            .collect();
        labels.line(ends, egui::Color32::from_rgb(240, 200, 80));
        // The words inside the strip, beside its edge.
        let inside = if side == 0 { y - 25 } else { y + 25 };
        if let Some(mid) = labels.screen(super::world_pt(table, Pt::new(w / 2, inside))) {
            labels.boxed(
                mid,
                format!(
                    "{} deploys within {depth} mm of its edge (R146)",
                    layout.setup().sides[usize::from(side)].name
                ),
                12.0,
                egui::Color32::from_black_alpha(170),
            );
        }
    }
    if layout.drawing.is_empty() {
        return Ok(());
    }
    let points: Vec<egui::Pos2> = layout
        .drawing
        .iter()
        .filter_map(|p| labels.screen(super::world_pt(table, *p)))
        .collect();
    labels.line(points.clone(), egui::Color32::YELLOW);
    for p in points {
        labels.painter.circle_filled(p, 4.0, egui::Color32::YELLOW);
    }
    Ok(())
}
