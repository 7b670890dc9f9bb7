//! The panel of a battle's layout mode and what it marks on the table: the
//! tools (measure, paint terrain, set pieces, deployment hexes), each
//! side's points added up live against its limit (red when over, R61),
//! every problem with its ruling (its hex lit red on the map), undo and
//! redo, the map's size and the hexes' width, saving and printing; the
//! rulers along the table's edges in mm or inches, and the measuring line.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_warpspawn::{Hex, Terrain};

use super::HEX;
use super::draft::BattleEdit;
use super::layout::{BattleLayout, BattleLayoutRequest, BattleTool};
use super::table::{BattlePiece, Formation};
use crate::hud::{HudStage, PanelWidth, TableLabels};
use crate::mode::{Mode, SetLayoutMode};
use crate::session::Notice;
use crate::table::shaped;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<BattleLayoutPanel>()
        .add_systems(
            bevy_egui::EguiPrimaryContextPass,
            (
                draw_battle_layout_panel.in_set(HudStage::Panels),
                label_battle_layout.in_set(HudStage::Labels),
            )
                .distributive_run_if(resource_exists::<BattleLayout>)
                .distributive_run_if(in_state(Mode::Layout)),
        )
        .add_systems(
            Update,
            light_layout_hexes.after(crate::schedule::AppSystems::SyncTable),
        );
}

/// The panel's own fields: the file to save to and the size of a new map.
#[derive(Resource, Debug, Clone, Default)]
pub struct BattleLayoutPanel {
    /// The path typed for saving the layout.
    pub file: Option<String>,
    /// Columns and rows of a new map.
    pub new_size: Option<(u16, u16)>,
    /// The layout the fields belong to (`BattleLayout::opened`).
    pub layout: Option<u64>,
}

fn side_colour(layout: &BattleLayout, side: usize) -> egui::Color32 {
    let [r, g, b] = layout
        .draft
        .battle()
        .colours
        .get(side)
        .map_or([200, 200, 200], |c| c.0);
    egui::Color32::from_rgb(r, g, b)
}

#[allow(clippy::too_many_lines)]
fn draw_battle_layout_panel(
    mut contexts: EguiContexts,
    layout: ResMut<BattleLayout>,
    mut panel: ResMut<BattleLayoutPanel>,
    notice: Res<Notice>,
    mut requests: MessageWriter<BattleLayoutRequest>,
    mut set_layout: MessageWriter<SetLayoutMode>,
    mut width: ResMut<PanelWidth>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if panel.layout != Some(layout.opened) {
        *panel = BattleLayoutPanel {
            layout: Some(layout.opened),
            ..default()
        };
    }
    // The panel's own choices (tool, side, brush) mark the layout changed
    // only when one of them changes, so that the lights are not rebuilt
    // every frame.
    let choices = |l: &BattleLayout| {
        (
            l.tool,
            l.side,
            l.terrain,
            l.brush,
            l.counter_brush,
            l.inches,
        )
    };
    let before = choices(&layout);
    let mut tracked = layout;
    let layout = tracked.bypass_change_detection();
    let battle = layout.draft.battle().clone();
    let mut out: Vec<BattleLayoutRequest> = Vec::new();
    crate::hud::side_panel(ctx, "battle-layout-panel", &mut width, |ui| {
        egui::ScrollArea::vertical().show(ui, |ui| {
                let (renamed, back) = crate::hud::layout_head(
                    ui,
                    &battle.name,
                    "Back to the battle",
                    "after edits, a new battle starts on the edited layout",
                    &notice,
                );
                if let Some(name) = renamed {
                    out.push(BattleLayoutRequest::Edit(BattleEdit::Rename(name)));
                }
                if back {
                    set_layout.write(SetLayoutMode::OFF);
                }

                // The tools.
                ui.horizontal(|ui| {
                    for (tool, words) in [
                        (BattleTool::Measure, "Measure"),
                        (BattleTool::Paint, "Paint"),
                        (BattleTool::Pieces, "Pieces"),
                        (BattleTool::Deploy, "Deploy"),
                    ] {
                        ui.selectable_value(&mut layout.tool, tool, words);
                    }
                });
                if battle.setup.offboard.is_some() {
                    ui.horizontal(|ui| {
                        for (tool, words) in [
                            (BattleTool::Reserve, "Reserve squares"),
                            (BattleTool::Counters, "Counters"),
                        ] {
                            ui.selectable_value(&mut layout.tool, tool, words);
                        }
                    });
                }
                ui.checkbox(&mut layout.inches, "Rulers and readings in inches");
                let sides: Vec<String> =
                    battle.setup.sides.iter().map(|s| s.name.clone()).collect();
                match layout.tool {
                    BattleTool::Measure => {
                        ui.label("Click two hexes: the distance between their centres.");
                        if let Some(reading) = &layout.reading {
                            ui.label(reading);
                        }
                    }
                    BattleTool::Paint => {
                        ui.label("Click a hex, or drag across hexes, to paint (R60):");
                        egui::ComboBox::from_id_salt("battle-terrain")
                            .selected_text(layout.terrain.name())
                            .show_ui(ui, |ui| {
                                for t in Terrain::ALL {
                                    ui.selectable_value(&mut layout.terrain, t, t.name());
                                }
                            });
                    }
                    BattleTool::Reserve | BattleTool::Counters => {
                        side_picker(ui, layout, &sides);
                        if layout.tool == BattleTool::Reserve {
                            ui.label(
                                "Click a square of the ring to make it one of the side's reserve squares, or no longer (R42); a reserve is tinted in its side's colour.",
                            );
                        } else {
                            ui.label(
                                "Click a square of the ring to give the side a counter of these pieces there, or its counter there these pieces; none takes it off (R43):",
                            );
                            let most = sandtable_warpspawn::offboard::counter::Composition {
                                infantry: 200,
                                cavalry: 200,
                                officers: 9,
                                cannon: true,
                                baggage: true,
                                flag: true,
                            };
                            super::ring_panel::pieces_form(ui, &mut layout.counter_brush, &most);
                            ui.small(format!(
                                "{} force points (R43)",
                                layout.counter_brush.points()
                            ));
                        }
                    }
                    BattleTool::Pieces | BattleTool::Deploy => {
                        side_picker(ui, layout, &sides);
                        if layout.tool == BattleTool::Deploy {
                            ui.label(
                                "Click a hex to make it one of the side's deployment hexes, or no longer (R60); the side's are lit.",
                            );
                        } else {
                            ui.label(
                                "Click a hex to give the side these pieces there (none takes them off); drag the side's pieces to move them (R61, R62):",
                            );
                            let brush = &mut layout.brush;
                            ui.horizontal(|ui| {
                                ui.label("inf");
                                ui.add(egui::DragValue::new(&mut brush.infantry).range(0..=20));
                                ui.label("cav");
                                ui.add(egui::DragValue::new(&mut brush.cavalry).range(0..=20));
                                ui.label("officers");
                                ui.add(egui::DragValue::new(&mut brush.officers).range(0..=9));
                            });
                            ui.horizontal(|ui| {
                                ui.checkbox(&mut brush.cannon, "cannon");
                                ui.checkbox(&mut brush.baggage, "baggage");
                                ui.checkbox(&mut brush.flag, "flag");
                            });
                        }
                    }
                }
                ui.separator();

                // Each side's points, added up live (R61).
                ui.label(egui::RichText::new("Points (R61)").strong());
                for (i, points) in layout.draft.points().iter().enumerate() {
                    ui.horizontal(|ui| {
                        let words = format!(
                            "{}: {} of",
                            sides.get(i).map_or("?", String::as_str),
                            points.spent
                        );
                        if points.over {
                            ui.colored_label(egui::Color32::LIGHT_RED, words)
                                .on_hover_text("over the side's limit (R61): the layout is not saved or played so");
                        } else {
                            ui.colored_label(side_colour(layout, i), words);
                        }
                        let mut limit = points.limit;
                        if ui
                            .add(egui::DragValue::new(&mut limit).range(0..=10_000))
                            .changed()
                        {
                            out.push(BattleLayoutRequest::Edit(BattleEdit::SetPoints {
                                side: i,
                                points: limit,
                            }));
                        }
                    });
                }
                ui.separator();

                // The off-board grid (R40-R57).
                let mut grid = battle.setup.offboard.is_some();
                ui.horizontal(|ui| {
                    if ui
                        .checkbox(&mut grid, "Off-board grid")
                        .on_hover_text("a ring of squares two deep round the map, where forces march as hidden counters (R40-R57)")
                        .changed()
                    {
                        out.push(BattleLayoutRequest::Edit(BattleEdit::SetGrid(
                            grid.then_some(sandtable_warpspawn::offboard::setup::DEFAULT_SPAN),
                        )));
                    }
                });
                if let Some(g) = &battle.setup.offboard {
                    ui.horizontal(|ui| {
                        let mut span = g.span;
                        ui.label("Span (hexes a square faces, R40):");
                        if ui.add(egui::DragValue::new(&mut span).range(1..=10)).changed() {
                            out.push(BattleLayoutRequest::Edit(BattleEdit::SetGrid(Some(span))));
                        }
                    });
                }
                if let Some(g) = &battle.setup.offboard {
                    ui.small(
                        "The layout is the referee's: both sides' starting counters and reserve squares show here (R57).",
                    );
                    for (i, name) in sides.iter().enumerate() {
                        let counters: Vec<String> = g
                            .counters
                            .iter()
                            .filter(|c| c.side == i)
                            .map(|c| {
                                format!(
                                    "{} in {}: {}",
                                    c.number,
                                    c.at,
                                    super::ring_panel::pieces_words(&c.pieces)
                                )
                            })
                            .collect();
                        if !counters.is_empty() {
                            ui.small(format!("{name}'s counters: {}", counters.join("; ")));
                        }
                    }
                }
                ui.separator();

                // The map and the table.
                let map = battle.setup.map;
                let (mut columns, mut rows) =
                    panel.new_size.unwrap_or((map.columns, map.rows));
                ui.horizontal(|ui| {
                    ui.label("Map:");
                    ui.add(egui::DragValue::new(&mut columns).range(1..=100));
                    ui.label("x");
                    ui.add(egui::DragValue::new(&mut rows).range(1..=100));
                    if ui
                        .button("New map")
                        .on_hover_text("an empty battle of this size: all fields, no pieces")
                        .clicked()
                    {
                        out.push(BattleLayoutRequest::Edit(BattleEdit::New { columns, rows }));
                    }
                });
                panel.new_size = Some((columns, rows));
                let physical = battle.table();
                let mut hex_mm = physical.hex_mm;
                ui.horizontal(|ui| {
                    ui.label("Hex (mm between flat sides):");
                    if ui
                        .add(egui::DragValue::new(&mut hex_mm).range(5.0..=500.0).speed(0.5))
                        .changed()
                    {
                        out.push(BattleLayoutRequest::Edit(BattleEdit::SetHexMm(hex_mm)));
                    }
                });
                ui.small(format!(
                    "table {:.0} x {:.0} mm ({:.1} x {:.1} in)",
                    physical.table_mm.0,
                    physical.table_mm.1,
                    physical.table_mm.0 / crate::hud::rulers::MM_PER_INCH,
                    physical.table_mm.1 / crate::hud::rulers::MM_PER_INCH
                ));
                ui.separator();

                // History.
                let (undo, redo) = layout.draft.history();
                ui.horizontal(|ui| {
                    if ui.add_enabled(undo > 0, egui::Button::new("Undo")).clicked() {
                        out.push(BattleLayoutRequest::Undo);
                    }
                    if ui.add_enabled(redo > 0, egui::Button::new("Redo")).clicked() {
                        out.push(BattleLayoutRequest::Redo);
                    }
                    if ui
                        .add_enabled(layout.draft.edited(), egui::Button::new("Revert"))
                        .on_hover_text("back to the battle as it was when layout mode began")
                        .clicked()
                    {
                        out.push(BattleLayoutRequest::Revert);
                    }
                });

                // Saving and printing.
                let file = panel.file.get_or_insert_with(|| {
                    crate::session::files::layout_file(layout.draft.last_file(), "battle.ron")
                });
                ui.horizontal(|ui| {
                    ui.label("File:");
                    ui.text_edit_singleline(file);
                });
                let path = std::path::PathBuf::from(file.trim());
                ui.horizontal(|ui| {
                    let errors = layout.draft.errors().len();
                    let save = ui.add_enabled(errors == 0, egui::Button::new("Save layout"));
                    let save = if errors > 0 {
                        save.on_disabled_hover_text("fix the problems below first")
                    } else {
                        save.on_hover_text("as a battle file (.ron)")
                    };
                    if save.clicked() {
                        out.push(BattleLayoutRequest::Save(path.clone()));
                    }
                    if ui
                        .button("Print sheet")
                        .on_hover_text("the hex map at 1:1 on A4, beside the file")
                        .clicked()
                    {
                        out.push(BattleLayoutRequest::Print(path.clone()));
                    }
                });
                ui.separator();

                // Problems, each with its ruling; their hexes are lit red.
                let errors = layout.draft.errors();
                if errors.is_empty() {
                    ui.label("No problems: the layout may be saved and played.");
                } else {
                    ui.colored_label(
                        egui::Color32::LIGHT_RED,
                        format!("{} problem{}:", errors.len(), if errors.len() == 1 { "" } else { "s" }),
                    );
                    for f in errors {
                        ui.colored_label(egui::Color32::LIGHT_RED, f.line());
                    }
                }
                for f in layout.draft.warnings() {
                    ui.colored_label(egui::Color32::GOLD, f.line());
                }
            });
    });
    for request in out {
        requests.write(request);
    }
    if choices(layout) != before {
        tracked.set_changed();
    }
    Ok(())
}

/// The side the pieces, deployment, reserve and counters tools work on.
fn side_picker(ui: &mut egui::Ui, layout: &mut BattleLayout, sides: &[String]) {
    ui.horizontal(|ui| {
        ui.label("Side:");
        for (i, name) in sides.iter().enumerate() {
            let colour = side_colour(layout, i);
            if crate::hud::side_button(ui, layout.side == i, name, colour).clicked() {
                layout.side = i;
            }
        }
    });
}

/// The ring's entities, for the labels.
#[derive(bevy::ecs::system::SystemParam)]
struct RingParts<'w, 's> {
    tiles: Query<'w, 's, (&'static super::ring::RingTile, &'static Transform)>,
    tokens: Query<'w, 's, (&'static super::ring::CounterToken, &'static Transform)>,
    trays: Query<'w, 's, (&'static super::ring::ReserveTray, &'static Transform)>,
}

/// The rulers along the table's edges, the measuring line, the count of
/// men on each formation, the ring's squares and counters, and what the
/// hovered hex holds in the layout.
fn label_battle_layout(
    mut contexts: EguiContexts,
    layout: Res<BattleLayout>,
    hovered: Res<crate::picking::Hovered>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    formations: Query<(&Formation, &Transform)>,
    pieces: Query<(&BattlePiece, &Transform)>,
    ring: RingParts,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    super::panel::label_pieces(&labels, &formations, &pieces);
    let battle = layout.draft.battle();
    let names: Vec<String> = battle.setup.sides.iter().map(|s| s.name.clone()).collect();
    super::ring_panel::label_ring_parts(&labels, &names, &ring.tiles, &ring.tokens, &ring.trays);
    let physical = battle.table();
    let map = battle.setup.map;
    crate::hud::rulers::draw_edge_rulers(
        &labels,
        physical.table_mm,
        physical.hex_mm / f64::from(HEX),
        layout.inches,
    );
    if let Some(from) = layout.from
        && let (Some(a), Some(to)) = (
            labels.screen(super::hex_center(map, from) + Vec3::Y * 0.1),
            super::table::hovered_hex(&hovered),
        )
        && let Some(b) = labels.screen(super::hex_center(map, to) + Vec3::Y * 0.1)
    {
        let ink = egui::Color32::from_rgb(255, 240, 150);
        labels.line(vec![a, b], ink);
        labels.boxed(
            a + (b - a) / 2.0 - egui::vec2(0.0, 14.0),
            layout.measure(from, to),
            13.0,
            egui::Color32::from_black_alpha(200),
        );
    }
    if let Some(hex) = super::table::hovered_hex(&hovered) {
        labels.pointer_bar(describe_layout_hex(&layout, hex));
    }
    Ok(())
}

/// What a hex of the layout holds, in words: its terrain, each side's
/// pieces there and its deployment, and its problems.
pub fn describe_layout_hex(layout: &BattleLayout, hex: Hex) -> String {
    let draft = &layout.draft;
    let battle = draft.battle();
    let terrain = draft.terrain_at(hex);
    let mut parts = vec![format!(
        "{hex}: {terrain} ({})",
        format!("{:?}", terrain.cover()).to_lowercase()
    )];
    for (i, side) in battle.setup.sides.iter().enumerate() {
        if let Some(p) = draft.pieces_at(hex, i) {
            let mut what = vec![format!("{} inf {} cav", p.infantry, p.cavalry)];
            if p.officers > 0 {
                what.push(format!("{} officers", p.officers));
            }
            for (on, name) in [
                (p.cannon, "cannon"),
                (p.baggage, "baggage"),
                (p.flag, "flag"),
            ] {
                if on {
                    what.push(name.to_owned());
                }
            }
            parts.push(format!("{}: {}", side.name, what.join(", ")));
        }
        if side.deployment.contains(&hex) {
            parts.push(format!("{}'s deployment (R60)", side.name));
        }
    }
    for f in draft.errors().iter().filter(|f| f.at == Some(hex)) {
        parts.push(f.line());
    }
    parts.join("; ")
}

/// A hex lit in layout mode.
#[derive(Component)]
struct LayoutLit;

/// Lights the layout's hexes: every hex with a problem red; the chosen
/// side's deployment hexes in its colour while the pieces or deployment
/// tool is on; the first hex of a measurement white.
fn light_layout_hexes(
    mut commands: Commands,
    layout: Option<Res<BattleLayout>>,
    old: Query<Entity, With<LayoutLit>>,
    mut meshes: ResMut<Assets<Mesh>>,
    mut materials: ResMut<Assets<StandardMaterial>>,
    mut mesh: Local<Option<Handle<Mesh>>>,
    mut made: Local<std::collections::HashMap<[u8; 4], Handle<StandardMaterial>>>,
) {
    // Out of layout mode nothing is lit; in it, the lights follow the layout.
    let changed = layout.as_ref().is_none_or(|l| l.is_changed());
    if !changed {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let Some(layout) = layout else {
        return;
    };
    let mesh = mesh
        .get_or_insert_with(|| meshes.add(shaped(6, HEX / 3f32.sqrt() * 0.85, 0.012)))
        .clone();
    // One material a colour, made once for the run.
    let mut light = |r: f32, g: f32, b: f32, a: f32| {
        let key = [r, g, b, a].map(|v| (v * 255.0).round() as u8);
        made.entry(key)
            .or_insert_with(|| {
                materials.add(StandardMaterial {
                    base_color: Color::srgba(r, g, b, a),
                    alpha_mode: AlphaMode::Blend,
                    unlit: true,
                    ..default()
                })
            })
            .clone()
    };
    let battle = layout.draft.battle();
    let map = battle.setup.map;
    let mut lit: Vec<(Hex, Handle<StandardMaterial>)> = Vec::new();
    if matches!(layout.tool, BattleTool::Pieces | BattleTool::Deploy)
        && let Some(side) = battle.setup.sides.get(layout.side)
    {
        let [r, g, b] = battle
            .colours
            .get(layout.side)
            .map_or([200, 200, 200], |c| c.0);
        let tint = light(
            f32::from(r) / 255.0,
            f32::from(g) / 255.0,
            f32::from(b) / 255.0,
            0.35,
        );
        lit.extend(side.deployment.iter().map(|h| (*h, tint.clone())));
    }
    let red = light(1.0, 0.1, 0.1, 0.6);
    lit.extend(
        layout
            .draft
            .problem_hexes()
            .into_iter()
            .map(|h| (h, red.clone())),
    );
    if let Some(from) = layout.from {
        lit.push((from, light(1.0, 1.0, 1.0, 0.5)));
    }
    for (hex, material) in lit {
        if !map.contains(hex) {
            continue;
        }
        commands.spawn((
            Mesh3d(mesh.clone()),
            MeshMaterial3d(material),
            Transform::from_translation(super::hex_center(map, hex) + Vec3::Y * 0.07),
            Pickable::IGNORE,
            LayoutLit,
        ));
    }
}
