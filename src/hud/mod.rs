//! The panels' frame (egui), shared by every system's panels: their camera,
//! text sizes and width, the order of their work in a frame (`HudStage`),
//! the table's viewport left of them, the notice, the files' row, the
//! dialogs, the log view, slots of fixed height, and labels drawn over the
//! table (`TableLabels`, the bar under the pointer). A system draws its
//! own panel with these (`crate::cache::panel`, `crate::warpspawn::panel`);
//! with no game on the table, a window offers to open one.

pub mod review;
pub mod rulers;

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};

use crate::mode::Mode;
use crate::session::game::{ActiveGame, TableSystem};
use crate::session::keys::KeyboardTaken;
use crate::session::open::nothing_on_table;
use crate::session::{
    Dialog, DialogAnswer, FileField, Leaving, LoadRequest, Notice, OpenFailure, SaveRequest,
};

pub(super) fn plugin(app: &mut App) {
    review::plugin(app);
    app.add_plugins(EguiPlugin::default())
        // The panels get a camera of their own, so that the table's camera can
        // be narrowed to the space left of the side panel.
        .insert_resource(bevy_egui::EguiGlobalSettings {
            auto_create_primary_context: false,
            ..default()
        })
        .add_systems(Startup, spawn_panel_camera)
        .add_systems(EguiPrimaryContextPass, set_text_sizes.before(HudSystems))
        .init_resource::<PanelWidth>()
        .init_resource::<HoverLabel>()
        .configure_sets(
            EguiPrimaryContextPass,
            (HudStage::Panels, HudStage::Viewport, HudStage::Labels)
                .chain()
                .in_set(HudSystems),
        )
        .add_systems(
            EguiPrimaryContextPass,
            (
                // Before any panel: the window is placed on the whole
                // screen, as the panels leave it.
                draw_waiting_dialog
                    .in_set(HudSystems)
                    .before(HudStage::Panels),
                // A system on the table draws its own panel.
                draw_empty_table
                    .in_set(HudStage::Panels)
                    .run_if(nothing_on_table),
                fit_table_viewport.in_set(HudStage::Viewport),
            ),
        )
        .add_systems(PreUpdate, note_keyboard_use)
        // Labels on the table are placed with the camera as it is this
        // frame: after it has moved and its transform has propagated.
        .configure_sets(
            PostUpdate,
            bevy_egui::EguiPostUpdateSet::EndPass
                .after(bevy::transform::TransformSystems::Propagate)
                .after(bevy::camera::CameraUpdateSystems),
        );
}

/// The panels' text sizes, in points: none below 12, so that every line
/// reads on a window 720 pixels high (egui's own smallest is 9).
pub(crate) const TEXT_SIZES: [(egui::TextStyle, f32); 5] = [
    (egui::TextStyle::Small, 12.0),
    (egui::TextStyle::Body, 14.0),
    (egui::TextStyle::Button, 14.0),
    (egui::TextStyle::Monospace, 13.0),
    (egui::TextStyle::Heading, 18.0),
];

/// Sets [`TEXT_SIZES`] once, when the panels' context is first drawn.
fn set_text_sizes(mut contexts: EguiContexts, mut done: Local<bool>) -> Result {
    if *done {
        return Ok(());
    }
    let ctx = contexts.ctx_mut()?;
    ctx.all_styles_mut(|style| {
        for (text, size) in &TEXT_SIZES {
            if let Some(font) = style.text_styles.get_mut(text) {
                font.size = *size;
            }
        }
    });
    *done = true;
    Ok(())
}

fn spawn_panel_camera(mut commands: Commands) {
    commands.spawn((
        bevy_egui::PrimaryEguiContext,
        Camera3d::default(),
        bevy::camera::visibility::RenderLayers::none(),
        Camera {
            order: 1,
            output_mode: bevy::camera::CameraOutputMode::Write {
                blend_state: Some(bevy::render::render_resource::BlendState::ALPHA_BLENDING),
                clear_color: ClearColorConfig::None,
            },
            clear_color: ClearColorConfig::Custom(Color::NONE),
            ..default()
        },
    ));
}

/// The panel systems, for timing them.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct HudSystems;

/// The order of the panels' work in a frame, for every mode's panels: the
/// side panel (which sets [`PanelWidth`]), then the table's viewport left
/// of it, then the labels drawn over the table with that viewport.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HudStage {
    /// Side panels and windows.
    Panels,
    /// The table's camera fits the space the panels leave.
    Viewport,
    /// Labels over the table.
    Labels,
}

/// In play the place under the pointer is described by the game on the
/// table, as the table's viewer may know it ([`ActiveGame::describe`]).
pub fn describe_hovered<S: TableSystem>(
    hovered: Res<crate::picking::Hovered>,
    active: Option<Res<ActiveGame<S>>>,
    mut label: ResMut<HoverLabel>,
) {
    let wanted = hovered.0.and_then(|spot| active.as_deref()?.describe(spot));
    label.set_if_neq(HoverLabel(wanted));
}

/// What the bar below the table says about the hovered place, as the
/// mode in force describes it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct HoverLabel(pub Option<String>);

/// Labels drawn over the table, placed through the table's camera.
pub struct TableLabels<'a> {
    /// The painter of the labels' layer.
    pub painter: egui::Painter,
    cam: &'a Camera,
    at: &'a GlobalTransform,
    /// The boxes drawn so far this frame, which a later box keeps clear of.
    taken: std::cell::RefCell<Vec<egui::Rect>>,
}

impl<'a> TableLabels<'a> {
    /// Labels over the table seen by `cam` at `at`.
    pub fn new(ctx: &egui::Context, cam: &'a Camera, at: &'a GlobalTransform) -> TableLabels<'a> {
        TableLabels {
            painter: ctx.layer_painter(egui::LayerId::new(
                egui::Order::Foreground,
                "table-labels".into(),
            )),
            cam,
            at,
            taken: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// The table's part of the window (beside the panel).
    pub fn bounds(&self) -> egui::Rect {
        self.cam
            .logical_viewport_rect()
            .map(|r| {
                egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y), egui::pos2(r.max.x, r.max.y))
            })
            .unwrap_or_else(|| self.painter.clip_rect())
    }

    /// What the pointer is over, in words: in a bar along the bottom of the
    /// table's part of the window, where it covers none of the pieces near
    /// the pointer and no label of the table, and wrapped to the bar's width.
    pub fn pointer_bar(&self, words: String) {
        let bounds = self.bounds();
        let galley = self.painter.layout(
            words,
            egui::FontId::proportional(HOVER_TEXT),
            egui::Color32::WHITE,
            (bounds.width() - 24.0).max(100.0),
        );
        let rect = egui::Rect::from_min_size(
            egui::pos2(
                bounds.left() + 8.0,
                bounds.bottom() - 8.0 - galley.size().y - 8.0,
            ),
            galley.size() + egui::vec2(8.0, 8.0),
        );
        self.painter
            .rect_filled(rect, 4.0, egui::Color32::from_black_alpha(210));
        self.painter.galley(
            rect.min + egui::vec2(4.0, 4.0),
            galley,
            egui::Color32::WHITE,
        );
    }

    /// Where a point of the table is on the screen.
    pub fn screen(&self, p: Vec3) -> Option<egui::Pos2> {
        self.cam
            .world_to_viewport(self.at, p)
            .ok()
            .map(|v| egui::pos2(v.x, v.y))
    }

    /// Text centred on a point.
    pub fn text(&self, at: egui::Pos2, s: &str, size: f32, colour: egui::Color32) {
        self.painter.text(
            at,
            egui::Align2::CENTER_CENTER,
            s,
            egui::FontId::proportional(size),
            colour,
        );
    }

    /// Text centred on a point that the boxes drawn after it keep clear
    /// of ([`clear_of`]): a square's name under the tokens on it.
    pub fn text_kept(&self, at: egui::Pos2, s: &str, size: f32, colour: egui::Color32) {
        let galley =
            self.painter
                .layout_no_wrap(s.to_owned(), egui::FontId::proportional(size), colour);
        let rect = egui::Align2::CENTER_CENTER.anchor_size(at, galley.size());
        self.taken.borrow_mut().push(rect.expand(1.0));
        self.painter.galley(rect.min, galley, colour);
    }

    /// Marks the line through `points` as taken: the boxes drawn after it
    /// step aside rather than cover it ([`clear_of`]), as the labels of
    /// the units along a selected unit's path do.
    pub fn keep_clear(&self, points: &[egui::Pos2]) {
        let mut taken = self.taken.borrow_mut();
        for w in points.windows(2) {
            let (a, b) = (w[0], w[1]);
            let n = ((b - a).length() / 6.0).ceil().max(1.0) as usize;
            for k in 0..=n {
                let p = a + (b - a) * (k as f32 / n as f32);
                taken.push(egui::Rect::from_center_size(p, egui::vec2(4.0, 4.0)));
            }
        }
    }

    /// A line through points on the screen, with a dark edge so that it
    /// reads over any ground.
    pub fn line(&self, points: Vec<egui::Pos2>, colour: egui::Color32) {
        self.painter.add(egui::Shape::line(
            points.clone(),
            egui::Stroke::new(5.0, egui::Color32::from_black_alpha(160)),
        ));
        self.painter
            .add(egui::Shape::line(points, egui::Stroke::new(2.5, colour)));
    }

    /// Where `rect`, a label of the point `at`, is drawn: moved whole inside
    /// the table's part of the window (beside the panel), as far as it
    /// fits, so that a label of a hex at the edge is moved in, not cut off;
    /// `None` for a point out of sight (off the window or behind the
    /// panel), whose label would only lie over something else.
    fn placed(&self, at: egui::Pos2, rect: egui::Rect) -> Option<egui::Rect> {
        let bounds = self.bounds();
        if !bounds.contains(at) {
            return None;
        }
        Some(rect.translate(egui::vec2(
            shift_into(rect.left(), rect.right(), bounds.left(), bounds.right()),
            shift_into(rect.top(), rect.bottom(), bounds.top(), bounds.bottom()),
        )))
    }

    /// Text on a box of its own, readable over any square or figure, kept
    /// inside the table's part of the window ([`TableLabels::placed`]) and
    /// clear of the boxes drawn before it ([`clear_of`]): drawn while the
    /// point it labels is in sight.
    pub fn boxed(&self, at: egui::Pos2, words: String, size: f32, back: egui::Color32) {
        let galley = self.painter.layout_no_wrap(
            words,
            egui::FontId::proportional(size),
            egui::Color32::WHITE,
        );
        let rect = egui::Align2::CENTER_CENTER
            .anchor_size(at, galley.size())
            .expand(3.0);
        let Some(rect) = self.placed(at, rect) else {
            return;
        };
        let rect = {
            let mut taken = self.taken.borrow_mut();
            let rect = clear_of(rect, &taken);
            taken.push(rect);
            rect
        };
        self.painter.rect_filled(rect, 3.0, back);
        self.painter.galley(
            rect.min + egui::vec2(3.0, 3.0),
            galley,
            egui::Color32::WHITE,
        );
    }
}

/// The size of the text that says what the pointer is over.
const HOVER_TEXT: f32 = 14.0;

/// Where a box goes so that it covers none of the boxes `taken` before it:
/// where it is when it overlaps none, else the nearest free place up to a
/// box's height above or below (labels of neighbouring pieces, or of the
/// hexes a march reaches, stack instead of hiding each other, and stay by
/// what they label), else half its width aside (off a path that runs up
/// the screen); where none is free, the place that covers least.
fn clear_of(rect: egui::Rect, taken: &[egui::Rect]) -> egui::Rect {
    let step = rect.height() + 1.0;
    // Only the boxes within reach of the five places can cover one: found
    // once, so that a table of hundreds of labels stays cheap.
    let side = rect.width() / 2.0 + 4.0;
    let reach = rect.expand2(egui::vec2(side, step));
    let near: Vec<egui::Rect> = taken
        .iter()
        .copied()
        .filter(|t| t.intersects(reach))
        .collect();
    let covered = |r: &egui::Rect| -> f32 {
        near.iter()
            .map(|t| t.intersect(*r))
            .filter(|i| i.is_positive())
            .map(|i| i.area())
            .sum()
    };
    // Up or down first; then aside, off a path that runs up the screen.
    let places = [0.0, -0.5, 0.5, -1.0, 1.0]
        .map(|k| rect.translate(egui::vec2(0.0, k * step)))
        .into_iter()
        .chain([-1.0, 1.0].map(|k| rect.translate(egui::vec2(k * side, 0.0))))
        .collect::<Vec<_>>();
    if let Some(free) = places.iter().find(|r| covered(r) == 0.0) {
        return *free;
    }
    places
        .into_iter()
        .min_by(|a, b| covered(a).total_cmp(&covered(b)))
        .unwrap_or(rect)
}

/// How far to move a span from `lo` to `hi` to have it inside `min` to
/// `max`; one longer than the room keeps its start at `min`.
fn shift_into(lo: f32, hi: f32, min: f32, max: f32) -> f32 {
    if lo < min {
        min - lo
    } else if hi > max {
        (max - hi).max(min - lo)
    } else {
        0.0
    }
}

/// The files panel's requests and the state they depend on.
#[derive(bevy::ecs::system::SystemParam)]
pub struct FilePanel<'w> {
    field: ResMut<'w, FileField>,
    failure: Res<'w, OpenFailure>,
    pub(crate) save: MessageWriter<'w, SaveRequest>,
    pub(crate) load: MessageWriter<'w, LoadRequest>,
    remote: Option<Res<'w, crate::session::remote::Remote>>,
    network: ResMut<'w, crate::session::remote::NetworkField>,
    net: MessageWriter<'w, crate::session::remote::NetworkRequest>,
    review: MessageWriter<'w, crate::session::review::ReviewRequest>,
    reviewing: Option<Res<'w, crate::session::review::ReviewPanel>>,
    served_record: Option<Res<'w, crate::session::remote::ServedRecord>>,
}

impl FilePanel<'_> {
    /// The server this table follows, when the game is served: then the
    /// server keeps the record, and the seats are the server's.
    pub(crate) fn served(&self) -> Option<&crate::session::remote::Remote> {
        self.remote.as_deref()
    }

    /// The field, starting from the game's own file.
    fn text(&mut self, file: Option<&std::path::Path>) -> &mut String {
        self.field
            .0
            .get_or_insert_with(|| file.map(|f| f.display().to_string()).unwrap_or_default())
    }

    /// Joining a game served elsewhere, and (while a game is in play)
    /// hosting this one.
    fn network_rows(&mut self, ui: &mut egui::Ui, in_play: bool) {
        egui::CollapsingHeader::new("Play over the network")
            .default_open(false)
            .show(ui, |ui| {
                let field = &mut *self.network;
                ui.horizontal(|ui| {
                    ui.label("Invitation:");
                    ui.add(
                        egui::TextEdit::singleline(&mut field.invitation)
                            .hint_text("sandtable://join/… or its file")
                            .desired_width(170.0),
                    );
                    let join = ui
                        .button("Join")
                        .on_hover_text("join the game with the invitation its host gave (paste its link, or type its file's path): it is for one seat, or for a spectator");
                    if join.clicked() {
                        self.net
                            .write(crate::session::remote::NetworkRequest::JoinTyped);
                    }
                });
                if !in_play {
                    return;
                }
                ui.horizontal(|ui| {
                    ui.label("Port:");
                    ui.add(egui::TextEdit::singleline(&mut field.port).desired_width(44.0));
                    ui.label("Seat:");
                    ui.add(egui::TextEdit::singleline(&mut field.host_seat).desired_width(24.0));
                    let host = ui.button("Host this scenario").on_hover_text(
                        "serve it from this table, for this machine's tables; the panel's bots play on the server. This machine holds every secret of the game: for players who do not trust the host, run sandtable-serve on a machine none of them plays at",
                    );
                    if host.clicked() {
                        self.net
                            .write(crate::session::remote::NetworkRequest::HostTyped);
                    }
                });
            });
    }

    /// The field and the Open button (and Save game as, while a game is in
    /// play: `file` is its own file, if it has one), and the offer to open a
    /// damaged saved game up to its last good line. A file of any rule
    /// system opens (`crate::open`).
    pub(crate) fn open_row(
        &mut self,
        ui: &mut egui::Ui,
        in_play: bool,
        file: Option<&std::path::Path>,
    ) {
        if let Some(remote) = self.remote.as_deref() {
            ui.small("The server keeps this game's record.");
            if self
                .served_record
                .as_deref()
                .is_some_and(|r| r.0.is_ok())
                && ui
                    .button("Review the game")
                    .on_hover_text("leave the game, over, and look back at it from its record, which the server sent every seat: as its referee, or either side")
                    .clicked()
            {
                self.net
                    .write(crate::session::remote::NetworkRequest::ReviewRecord);
            } else if self.served_record.is_none()
                && self.reviewing.is_none()
                && ui
                    .button("Review what this table saw")
                    .on_hover_text("step back through the views the server sent this table, as they came: your seat's alone; the game goes on meanwhile, and its record comes at the end")
                    .clicked()
            {
                self.review
                    .write(crate::session::review::ReviewRequest::Open);
            }
            let hover = match &remote.hosting {
                Some(_) => {
                    "stops the server this table runs: the other players' tables lose the game; its record stays"
                }
                None => "the server keeps your seat for its code: join again to play on",
            };
            if ui.button("Leave the game").on_hover_text(hover).clicked() {
                self.net
                    .write(crate::session::remote::NetworkRequest::Leave);
            }
            return;
        }
        let text = self.text(file).clone();
        let mut edited = text.clone();
        ui.horizontal(|ui| {
            ui.label("File:");
            ui.add(
                egui::TextEdit::singleline(&mut edited).hint_text("path of a .ron or .moves file"),
            );
        });
        if edited != text {
            self.field.0 = Some(edited.clone());
        }
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!edited.trim().is_empty(), egui::Button::new("Open"))
                .on_hover_text("a scenario (.ron) or a saved game (.moves)")
                .clicked()
            {
                self.load.write(LoadRequest::new(edited.trim()));
            }
            if in_play
                && ui
                    .add_enabled(!edited.trim().is_empty(), egui::Button::new("Save game as"))
                    .on_hover_text("a game record, a file ending in .moves")
                    .clicked()
            {
                self.save.write(SaveRequest::to(edited.trim()));
            }
            if in_play
                && self.reviewing.is_none()
                && ui
                    .button("Review")
                    .on_hover_text("step through the game from its start, from either side's eyes, with the turning points the search finds; nothing is played")
                    .clicked()
            {
                self.review
                    .write(crate::session::review::ReviewRequest::Open);
            }
        });
        self.network_rows(ui, in_play);
        if let Some((path, line)) = &self.failure.0
            && ui
                .button(format!("Open it up to line {}", line - 1))
                .on_hover_text("the moves before the damaged line; Save then writes a new file")
                .clicked()
        {
            self.load.write(LoadRequest {
                path: path.clone(),
                until_line: Some(line - 1),
                discard_unsaved: false,
            });
        }
    }
}

/// The height of the notice's slot, in points: three lines; a longer
/// notice scrolls inside it.
pub(crate) const NOTICE_HEIGHT: f32 = 54.0;

/// A player's or side's button in a layout panel: a swatch of its colour,
/// then its name, in that colour, or in white on the selection's blue
/// when it is the one chosen (red text on blue is hard to read).
pub(crate) fn side_button(
    ui: &mut egui::Ui,
    selected: bool,
    name: &str,
    colour: egui::Color32,
) -> egui::Response {
    ui.colored_label(colour, "■");
    let text = if selected {
        egui::RichText::new(name)
            .strong()
            .color(egui::Color32::WHITE)
    } else {
        egui::RichText::new(name).color(colour)
    };
    ui.selectable_label(selected, text)
}

/// The side panels' width, in points: the Cache panel's buttons in three
/// rows at the panels' text sizes ([`TEXT_SIZES`]).
pub(crate) const PANEL_WIDTH: f32 = 340.0;

/// A slot of fixed height: its contents scroll when they are taller, and
/// what follows it never moves when they change.
pub(crate) fn fixed_slot(
    ui: &mut egui::Ui,
    id: &str,
    height: f32,
    add_contents: impl FnOnce(&mut egui::Ui),
) {
    let slot = egui::Rect::from_min_size(ui.cursor().min, egui::vec2(ui.available_width(), height));
    // The scope takes the whole slot, however little its contents fill.
    ui.scope_builder(egui::UiBuilder::new().max_rect(slot), |ui| {
        ui.set_min_size(slot.size());
        egui::ScrollArea::vertical()
            .id_salt(id)
            .max_height(height)
            // However low the slot (egui's least is 64 points).
            .min_scrolled_height(height)
            .show(ui, add_contents);
    });
}

/// A game's log as `viewer` may read it, to the bottom of the panel:
/// commands in monospace, the events under each in small type, one row a
/// line (a line too long for the panel is cut short, and shown whole on
/// hover); a line the viewer may not know is left out. Only the rows in
/// view are laid out, so that a long game's log costs no more a frame
/// than a short one's.
pub fn log_view(
    ui: &mut egui::Ui,
    id: &str,
    log: &[crate::session::LogLine],
    viewer: sandtable_core::game::Viewer,
) {
    let row = ui
        .text_style_height(&egui::TextStyle::Monospace)
        .max(ui.text_style_height(&egui::TextStyle::Small));
    let shown = shown_lines(log, viewer);
    let count = shown.as_ref().map_or(log.len(), Vec::len);
    egui::ScrollArea::vertical()
        .id_salt(id)
        .stick_to_bottom(true)
        .auto_shrink([false, true])
        .show_rows(ui, row, count, |ui, rows| {
            // In review, a line clicked jumps to its command.
            let jumps = review::log_jumps(ui.ctx());
            for i in rows {
                let index = shown.as_ref().map_or(i, |s| s[i]);
                let line = &log[index];
                let Some(words) = line.shown_to(viewer) else {
                    continue;
                };
                let text = if line.command {
                    egui::RichText::new(words).monospace()
                } else {
                    egui::RichText::new(format!("   {words}")).small()
                };
                let label = egui::Label::new(text).truncate();
                if jumps {
                    if ui.add(label.sense(egui::Sense::click())).clicked() {
                        review::log_clicked(ui.ctx(), index);
                    }
                } else {
                    ui.add(label);
                }
            }
        });
}

/// The lines of `log` that `viewer` may read, by index; `None` where that
/// is every line (the referee's view, and any view of a game that hides
/// nothing), so that such a log is not gone through every frame.
pub fn shown_lines(
    log: &[crate::session::LogLine],
    viewer: sandtable_core::game::Viewer,
) -> Option<Vec<usize>> {
    if viewer == sandtable_core::game::Viewer::Referee || log.iter().all(|l| l.players.is_empty()) {
        return None;
    }
    Some(
        (0..log.len())
            .filter(|&i| log[i].shown_to(viewer).is_some())
            .collect(),
    )
}

/// Adds the curtain of the rule system `S`'s games: while a game that
/// hides anything is handed to another person ([`ActiveGame::curtain`]),
/// it covers the whole window, the table, its labels and every panel, and
/// shows only whose turn it is and a button for that person to take the
/// table. A system's panels and labels are drawn under it, and each stays
/// off while it is up ([`curtain_down`]).
///
/// [`ActiveGame::curtain`]: crate::session::game::ActiveGame::curtain
pub fn add_curtain<S: TableSystem>(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        draw_curtain::<S>
            .after(HudStage::Labels)
            .in_set(HudSystems)
            .run_if(resource_exists::<ActiveGame<S>>)
            // Layout mode edits the scenario, which is the referee's.
            .run_if(in_state(crate::mode::Mode::Play)),
    );
}

/// A run condition: no curtain hides the system `S`'s game.
pub fn curtain_down<S: TableSystem>(active: Option<Res<ActiveGame<S>>>) -> bool {
    active.is_none_or(|a| !a.curtain())
}

/// The curtain: an opaque layer over everything, in front of every panel
/// and label, with the name of the person the table goes to.
fn draw_curtain<S: TableSystem>(
    mut contexts: EguiContexts,
    active: Res<ActiveGame<S>>,
    mut start: MessageWriter<crate::session::StartTurn>,
) -> Result {
    let Some(next) = active.handover.filter(|_| active.curtain()) else {
        return Ok(());
    };
    let ctx = contexts.ctx_mut()?;
    let screen = ctx.content_rect();
    let name = sandtable_core::game::GameState::seat_name(active.game.game(), next).to_owned();
    egui::Area::new(egui::Id::new("curtain"))
        .order(egui::Order::Foreground)
        .fixed_pos(screen.min)
        .show(ctx, |ui| {
            ui.painter()
                .rect_filled(screen, 0.0, egui::Color32::from_rgb(24, 22, 28));
            ui.scope_builder(egui::UiBuilder::new().max_rect(screen), |ui| {
                ui.vertical_centered(|ui| {
                    ui.add_space(screen.height() / 3.0);
                    ui.heading(format!("Hand the table to {name}"));
                    ui.label(
                        "The game is hidden until they take the table: nothing of it shows here.",
                    );
                    ui.add_space(12.0);
                    if ui
                        .button(
                            egui::RichText::new(format!("I am {name}: show my view")).size(18.0),
                        )
                        .clicked()
                    {
                        start.write(crate::session::StartTurn);
                    }
                });
            });
        });
    Ok(())
}

/// The notice in a slot of fixed height ([`NOTICE_HEIGHT`]).
pub(crate) fn notice_slot(ui: &mut egui::Ui, notice: Option<(&str, bool)>) {
    fixed_slot(ui, "notice", NOTICE_HEIGHT, |ui| {
        notice_text(ui, notice);
    });
}

/// A notice's words: an error's in red. Its slot is of a fixed height (so
/// that the buttons below never move), so a long notice is never only cut
/// off: a click on it opens it whole in a window of its own, until that
/// window is closed or another notice comes. Whether it is open whole.
pub(crate) fn notice_text(ui: &mut egui::Ui, notice: Option<(&str, bool)>) -> bool {
    let whole_id = egui::Id::new("notice-whole");
    let Some((text, error)) = notice else {
        ui.data_mut(|d| d.remove::<String>(whole_id));
        return false;
    };
    let colour = if error {
        egui::Color32::from_rgb(255, 120, 110)
    } else {
        egui::Color32::LIGHT_GRAY
    };
    let words = ui
        .add(egui::Label::new(egui::RichText::new(text).color(colour)).sense(egui::Sense::click()))
        .on_hover_text("click to read it whole");
    if words.clicked() {
        ui.data_mut(|d| d.insert_temp(whole_id, text.to_owned()));
    }
    // Open for this notice only: another one closes it.
    let whole = ui
        .data(|d| d.get_temp::<String>(whole_id))
        .filter(|w| w == text);
    let Some(whole) = whole else {
        ui.data_mut(|d| d.remove::<String>(whole_id));
        return false;
    };
    let mut open = true;
    egui::Window::new("Notice")
        .id(egui::Id::new("notice-whole-window"))
        .open(&mut open)
        .collapsible(false)
        .default_width(480.0)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ui.ctx(), |ui| {
            ui.colored_label(colour, whole);
        });
    if !open {
        ui.data_mut(|d| d.remove::<String>(whole_id));
    }
    open
}

/// The question the table waits on (unsaved work, a file to replace),
/// over everything else, whatever is on the table and in either mode: one
/// system for every system's panels.
fn draw_waiting_dialog(
    mut contexts: EguiContexts,
    dialog: Option<Res<Dialog>>,
    mut answers: MessageWriter<DialogAnswer>,
) -> Result {
    if let Some(dialog) = dialog.as_deref() {
        draw_dialog(contexts.ctx_mut()?, dialog, &mut answers);
    }
    Ok(())
}

/// A question the table waits on, as a window.
fn draw_dialog(ctx: &egui::Context, dialog: &Dialog, answers: &mut MessageWriter<DialogAnswer>) {
    let (title, question, choices): (&str, String, &[(&str, DialogAnswer)]) = match dialog {
        Dialog::UnsavedMoves(leaving) => (
            "Unsaved moves",
            format!(
                "The game in play has moves, or an edited layout, that are not saved. {}",
                match leaving {
                    Leaving::Open(path, _) => format!("Open {} anyway?", path.display()),
                    Leaving::NewGame => "Start a new game anyway?".to_owned(),
                    Leaving::PlayLayout => "Play the edited layout anyway?".to_owned(),
                    Leaving::Quit => "Quit anyway?".to_owned(),
                }
            ),
            if *leaving == Leaving::Quit {
                &[
                    ("Save the game, then quit", DialogAnswer::SaveFirst),
                    ("Quit without saving", DialogAnswer::Discard),
                    ("Cancel", DialogAnswer::Cancel),
                ]
            } else {
                &[
                    ("Save the game, then go on", DialogAnswer::SaveFirst),
                    ("Discard the moves", DialogAnswer::Discard),
                    ("Cancel", DialogAnswer::Cancel),
                ]
            },
        ),
        Dialog::UnsavedLayout => (
            "Unsaved layout",
            "The layout has edits that are saved nowhere: quitting loses them. Save it from the layout panel, or quit anyway?".to_owned(),
            &[
                ("Quit without saving", DialogAnswer::Discard),
                ("Cancel", DialogAnswer::Cancel),
            ],
        ),
        Dialog::Replace(path) => (
            "Replace?",
            format!(
                "{} is another saved game. Replace it? It is kept as {}.",
                path.display(),
                sandtable_scenario::files::backup_path(path, 1).display()
            ),
            &[
                ("Replace", DialogAnswer::Replace),
                ("Cancel", DialogAnswer::Cancel),
            ],
        ),
    };
    egui::Window::new(title)
        .collapsible(false)
        .resizable(false)
        .order(egui::Order::Foreground)
        .anchor(egui::Align2::CENTER_CENTER, [-150.0, 0.0])
        .show(ctx, |ui| {
            ui.set_max_width(360.0);
            ui.label(question);
            ui.horizontal_wrapped(|ui| {
                for (label, answer) in choices {
                    if ui.button(*label).clicked() {
                        answers.write(*answer);
                    }
                }
            });
        });
}

/// The table with no game on it (none could be opened): the dialog it
/// waits on, and a window to open a file or the built-in table.
fn draw_empty_table(
    mut contexts: EguiContexts,
    notice: Res<Notice>,
    mut files: FilePanel,
    mode: Res<State<Mode>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if *mode.get() == Mode::Layout {
        // The layout panel takes the side instead.
        return Ok(());
    }
    egui::Window::new("Sandtable")
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.set_max_width(480.0);
            if let Some(remote) = files.served() {
                // Joined: the server's game is on its way, or the notice
                // says why it is not.
                let server = remote
                    .server
                    .map_or("the server".to_owned(), |s| s.to_string());
                ui.label(format!("Waiting for the game served at {server}."));
                notice_text(ui, notice.text.as_deref().map(|t| (t, notice.error)));
                files.open_row(ui, false, None);
                return;
            }
            ui.label("No game is open.");
            if let Some(text) = &notice.text {
                ui.colored_label(egui::Color32::LIGHT_RED, text);
            }
            ui.separator();
            ui.label("Open another scenario (.ron) or saved game (.moves):");
            files.open_row(ui, false, None);
            if ui.button("Play the standard table").clicked() {
                files
                    .load
                    .write(LoadRequest::new(crate::session::files::EMBEDDED));
            }
        });
    Ok(())
}

/// A system's side panel, right of the table, at [`PANEL_WIDTH`]: its
/// contents drawn by `add`, and [`PanelWidth`] set to what it took, for
/// the table's viewport; with where it was drawn.
pub fn side_panel<R>(
    ctx: &egui::Context,
    id: &str,
    width: &mut PanelWidth,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    let mut root = egui::Ui::new(
        ctx.clone(),
        format!("{id}-root").into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let shown = egui::Panel::right(id.to_owned())
        .resizable(false)
        .exact_size(PANEL_WIDTH)
        .show(&mut root, add);
    width.0 = shown.response.rect.width();
    shown
}

/// The width of the side panel drawn this frame, in logical pixels.
#[derive(Resource, Default)]
pub struct PanelWidth(pub f32);

/// The table is drawn left of the panel, so nothing of it hides behind it.
fn fit_table_viewport(
    panel: Res<PanelWidth>,
    mut cameras: Query<&mut Camera, Without<bevy_egui::PrimaryEguiContext>>,
    window: Query<&Window, With<PrimaryWindow>>,
) {
    let Ok(window) = window.single() else {
        return;
    };
    let panel_px = (panel.0 * window.scale_factor()) as u32;
    let size = UVec2::new(
        window.physical_width().saturating_sub(panel_px).max(1),
        window.physical_height().max(1),
    );
    for mut camera in &mut cameras {
        let current = camera
            .viewport
            .as_ref()
            .map(|v| (v.physical_position, v.physical_size));
        if current != Some((UVec2::ZERO, size)) {
            camera.viewport = Some(Viewport {
                physical_position: UVec2::ZERO,
                physical_size: size,
                ..default()
            });
        }
    }
}

fn note_keyboard_use(egui: Option<Res<EguiWantsInput>>, mut taken: ResMut<KeyboardTaken>) {
    taken.0 = egui.is_some_and(|e| e.wants_any_keyboard_input());
}

/// The head of a system's layout panel: the heading, the layout's name
/// field, the button back to play (`back`, its `hover`), and the notice.
/// Returns the name when it was changed, and whether the button was
/// clicked.
pub fn layout_head(
    ui: &mut egui::Ui,
    name: &str,
    back: &str,
    hover: &str,
    notice: &crate::session::Notice,
) -> (Option<String>, bool) {
    ui.heading("Layout");
    let mut typed = name.to_owned();
    let mut renamed = None;
    ui.horizontal(|ui| {
        ui.label("Name:");
        if ui.text_edit_singleline(&mut typed).changed() {
            renamed = Some(typed.clone());
        }
    });
    let clicked = ui.button(back).on_hover_text(hover).clicked();
    notice_slot(ui, notice.text.as_deref().map(|t| (t, notice.error)));
    ui.separator();
    (renamed, clicked)
}

/// The players and who sits at each seat, chosen from a list (a person,
/// or a bot of a strength), and **New game**: the scenario again from its
/// setup with these seats. Whether New game was clicked. A served game's
/// seats are the server's: then who sits where, as it says
/// ([`served_seats`]).
pub fn seat_chooser(
    ui: &mut egui::Ui,
    players: &[(String, egui::Color32)],
    seats: &mut crate::session::Seats,
    served: Option<&crate::session::remote::Remote>,
) -> bool {
    if let Some(remote) = served {
        served_seats(ui, players, remote);
        return false;
    }
    let mut new_game = false;
    egui::CollapsingHeader::new("Players")
        .default_open(true)
        .show(ui, |ui| {
            for (i, (name, colour)) in players.iter().enumerate() {
                ui.horizontal(|ui| {
                    ui.colored_label(*colour, name);
                    if seats.0.len() <= i {
                        seats.0.resize(i + 1, crate::session::Seat::Person);
                    }
                    let seat = &mut seats.0[i];
                    egui::ComboBox::from_id_salt(("seat", i))
                        .selected_text(seat.describe())
                        .show_ui(ui, |ui| {
                            for choice in crate::session::Seat::choices() {
                                ui.selectable_value(seat, choice, choice.describe());
                            }
                        });
                });
            }
            new_game = ui
                .button("New game")
                .on_hover_text("this scenario again from its setup, with these players")
                .clicked();
        });
    new_game
}

/// The bots' pace and pause, for a panel: shown while a bot holds a seat.
#[derive(bevy::ecs::system::SystemParam)]
pub struct BotControls<'w> {
    pace: ResMut<'w, crate::session::BotPace>,
    paused: ResMut<'w, crate::session::BotsPaused>,
}

impl BotControls<'_> {
    /// A row under the players while a bot holds a seat: **Pause** (or
    /// **Go on**) and the pace the bots play at, so that a person watching
    /// a game of bots may stop to look.
    pub fn row(&mut self, ui: &mut egui::Ui, seats: &crate::session::Seats) {
        if !seats
            .0
            .iter()
            .any(|s| matches!(s, crate::session::Seat::Bot(_)))
        {
            return;
        }
        ui.horizontal(|ui| {
            let label = if self.paused.0 { "Go on" } else { "Pause" };
            if ui
                .button(label)
                .on_hover_text("the bots stop after the command under way, until they go on")
                .clicked()
            {
                self.paused.0 = !self.paused.0;
            }
            let now = crate::session::BOT_PACES
                .iter()
                .find(|(_, d)| *d == self.pace.0)
                .map_or("its own pace", |(words, _)| *words);
            egui::ComboBox::from_id_salt("bot-pace")
                .selected_text(format!("bots: {now}"))
                .show_ui(ui, |ui| {
                    for (words, pace) in crate::session::BOT_PACES {
                        ui.selectable_value(&mut self.pace.0, pace, words);
                    }
                });
        });
    }
}

/// What the panel says of a seat of a served game: who plays it, whether
/// they are there, and what they owe (a sealed decision's content never).
/// While the table is not connected to its server (`heard` false: joining
/// again, or the server silent) another seat is unknown: what the server
/// last said of it may no longer hold.
pub fn seat_words(
    status: &sandtable_net::SeatStatus,
    mine: bool,
    sealed: bool,
    heard: bool,
) -> (String, Option<String>) {
    use sandtable_net::Owing;
    if !heard && !mine {
        return ("unknown: no word from the server".to_owned(), None);
    }
    let who = match (mine, status.bot, status.held) {
        (true, _, true) => "you".to_owned(),
        (true, _, false) => "you, not seated yet".to_owned(),
        (false, true, _) => "a bot on the server".to_owned(),
        (false, false, true) => "connected".to_owned(),
        (false, false, false) => "gone: the seat waits for its code".to_owned(),
    };
    let owes = match (status.owing, sealed) {
        (Owing::Nothing, _) => None,
        (Owing::Decision, false) if mine => Some("your move".to_owned()),
        (Owing::Decision, false) if status.bot => Some("to move: thinking".to_owned()),
        (Owing::Decision, false) => Some("to move".to_owned()),
        (Owing::Decision, true) if mine => Some("your sealed orders are owed".to_owned()),
        (Owing::Decision, true) => Some("owes its sealed orders".to_owned()),
        (Owing::Committed, _) => Some("committed (sealed)".to_owned()),
    };
    (who, owes)
}

/// A served game's players as the server says: for each seat, its name
/// in its colour, who plays it and whether they are connected, and what
/// it owes; the connection; and on the host's table, the warning that
/// this machine holds every secret, the address and the codes to give.
pub fn served_seats(
    ui: &mut egui::Ui,
    players: &[(String, egui::Color32)],
    remote: &crate::session::remote::Remote,
) {
    use crate::session::remote::Connection;
    egui::CollapsingHeader::new("Players")
        .default_open(true)
        .show(ui, |ui| {
            let server = remote
                .server
                .map_or("the server".to_owned(), |s| s.to_string());
            match &remote.connection {
                Connection::Joining => {
                    ui.label(format!("Joining {server}..."));
                }
                Connection::Connected => {
                    ui.small(format!("Connected to {server}"));
                }
                Connection::Silent => {
                    ui.colored_label(
                        egui::Color32::LIGHT_RED,
                        format!(
                            "Nothing heard from {server} for {} s: it may have stopped. The table waits for it.",
                            sandtable_net::udp::SERVER_SILENCE.as_secs()
                        ),
                    );
                }
                Connection::Lost => {
                    ui.colored_label(
                        egui::Color32::LIGHT_RED,
                        format!(
                            "The connection to {server} dropped: connecting again. The server keeps the seat."
                        ),
                    );
                }
                Connection::Failed(why) => {
                    ui.colored_label(egui::Color32::LIGHT_RED, why);
                }
            }
            let sealed = remote
                .seats
                .iter()
                .any(|s| s.owing == sandtable_net::Owing::Committed)
                || remote
                    .seats
                    .iter()
                    .filter(|s| s.owing == sandtable_net::Owing::Decision)
                    .count()
                    > 1;
            for (k, status) in remote.seats.iter().enumerate() {
                let colour = players
                    .get(k)
                    .map_or(egui::Color32::WHITE, |(_, c)| *c);
                                let mine = remote.seated_at() == Some(k as u16);
                let heard = remote.connection == Connection::Connected;
                let (who, owes) = seat_words(status, mine, sealed, heard);
                ui.horizontal_wrapped(|ui| {
                    ui.colored_label(colour, &status.name);
                    ui.label(who);
                    if !mine && remote.seat == Some(k as u16) {
                        ui.label("(your claim waits for the server)");
                    }
                    if let Some(owes) = owes {
                        ui.label(egui::RichText::new(owes).strong());
                    }
                });
            }
            if remote.seat.is_none() {
                ui.small("Watching: the public view, no seat's secrets.");
            }
            if let Some(hosting) = &remote.hosting {
                ui.separator();
                ui.colored_label(
                    egui::Color32::GOLD,
                    "This machine serves the game and holds every secret of it: its player could read the other side's. For players who do not trust the host, run sandtable-serve on a machine none of them plays at.",
                );
                                if hosting.local_only {
                    ui.small(format!(
                        "Served at {} for this machine's tables alone; for other machines, host with `sandtable --host FILE --port {} --public IP:{}`.",
                        hosting.address,
                        hosting.address.port(),
                        hosting.address.port()
                    ));
                } else {
                    ui.label(format!("Players join {}", hosting.address));
                }
                ui.small("Each player joins with their seat's invitation (encrypted): give each to its player alone.");
                for (k, (name, bot, invitation)) in hosting.seats.iter().enumerate() {
                    if remote.seat == Some(k as u16) {
                        continue;
                    }
                    match (bot, invitation) {
                        (Some(level), _) => {
                            ui.small(format!("{name}: a bot of strength {level}"));
                        }
                        (None, Some((invitation, file))) => {
                            ui.horizontal_wrapped(|ui| {
                                ui.label(format!("{name}:"));
                                if ui
                                    .button("Copy invitation")
                                    .on_hover_text("copy the seat's sandtable://join/ link, to paste into the player's Join field")
                                    .clicked()
                                {
                                    ui.ctx().copy_text(invitation.to_link());
                                }
                                ui.add(
                                    egui::Label::new(egui::RichText::new(file.display().to_string()).small())
                                        .selectable(true),
                                );
                            });
                        }
                        (None, None) => {
                            ui.small(format!("{name}: no invitation"));
                        }
                    }
                }
                ui.horizontal_wrapped(|ui| {
                    ui.label("Spectators:");
                    if ui
                        .button("Copy a spectator invitation")
                        .on_hover_text("a new invitation each time: each lets one spectator in")
                        .clicked()
                    {
                        match hosting.minter.invite(
                            sandtable_net::invite::Place::Watch,
                            &hosting.spectator_code,
                            sandtable_net::udp::since_epoch(),
                        ) {
                            Ok(invitation) => ui.ctx().copy_text(invitation.to_link()),
                            Err(why) => error!("{why}"),
                        }
                    }
                    if let Some((_, file)) = hosting.spectators.first()
                        && let Some(folder) = file.parent()
                    {
                        ui.small(format!("or a file of {}", folder.display()));
                    }
                });
                ui.small(format!("Record: {}", hosting.record.display()));
            }
        });
}

#[cfg(test)]
pub(crate) mod egui_frames {
    //! Panels drawn by egui without a window, for the tests: one frame at
    //! a time, with the pointer's events.
    use bevy_egui::egui;

    /// One frame of `ctx` on a screen of `size`, with `events`: `add`
    /// draws it.
    pub(crate) fn frame(
        ctx: &egui::Context,
        size: egui::Vec2,
        events: Vec<egui::Event>,
        add: impl FnMut(&mut egui::Ui),
    ) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, size)),
            events,
            ..Default::default()
        };
        let mut output = ctx.run_ui(input, add);
        // No renderer takes the font textures: they are let go.
        output.textures_delta.clear();
    }

    /// A click of the primary button at `at`: pressed in one frame,
    /// released in the next.
    pub(crate) fn click(at: egui::Pos2) -> [Vec<egui::Event>; 2] {
        let button = |pressed| egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        };
        [
            vec![egui::Event::PointerMoved(at), button(true)],
            vec![button(false)],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_notice_opens_whole_on_a_click_and_closes_with_another() {
        let ctx = egui::Context::default();
        let long = "`move T1 900,300` is refused: the path touches the building element Relay hut at 614,245, and a unit's base may not overlap a building or another unit on any leg of its path (R114)";
        let draw = |events: Vec<egui::Event>, text: &str| {
            let mut open = false;
            egui_frames::frame(&ctx, egui::vec2(320.0, 720.0), events, |ui| {
                open = notice_text(ui, Some((text, true)));
            });
            open
        };
        assert!(!draw(Vec::new(), long), "not open before a click");
        let [press, release] = egui_frames::click(egui::pos2(20.0, 6.0));
        draw(press, long);
        assert!(draw(release, long), "a click opens it whole");
        assert!(draw(Vec::new(), long), "and it stays open");
        // Another notice closes it.
        assert!(!draw(Vec::new(), "played `pass`"));
        assert!(!draw(Vec::new(), long), "closed for good");
    }

    #[test]
    fn a_served_seat_says_who_plays_it_and_what_it_owes_never_the_content() {
        use sandtable_net::{Owing, SeatStatus};
        let seat = |bot, held, owing| SeatStatus {
            name: "Blue".into(),
            bot,
            held,
            owing,
        };
        let words = |s: &SeatStatus, mine, sealed| seat_words(s, mine, sealed, true);
        assert_eq!(
            words(&seat(false, false, Owing::Nothing), false, false).0,
            "gone: the seat waits for its code"
        );
        // A person to move is not said to think; a bot is.
        assert_eq!(
            words(&seat(false, true, Owing::Decision), false, false),
            ("connected".into(), Some("to move".into()))
        );
        assert_eq!(
            words(&seat(true, true, Owing::Decision), false, false),
            (
                "a bot on the server".into(),
                Some("to move: thinking".into())
            )
        );
        assert_eq!(
            words(&seat(false, true, Owing::Decision), false, true).1,
            Some("owes its sealed orders".into())
        );
        assert_eq!(
            words(&seat(false, true, Owing::Committed), false, true).1,
            Some("committed (sealed)".into())
        );
        assert_eq!(
            words(&seat(true, true, Owing::Decision), false, false).0,
            "a bot on the server"
        );
        assert_eq!(
            words(&seat(false, true, Owing::Decision), true, false),
            ("you".into(), Some("your move".into()))
        );
        // Not heard from the server: another seat is unknown, one's own
        // still one's own.
        assert_eq!(
            seat_words(&seat(false, true, Owing::Decision), false, false, false),
            ("unknown: no word from the server".into(), None)
        );
        assert_eq!(
            seat_words(&seat(false, true, Owing::Decision), true, false, false),
            ("you".into(), Some("your move".into()))
        );
    }

    #[test]
    fn a_label_at_the_edge_moves_in_whole_and_one_inside_stays() {
        // Inside: not moved.
        assert_eq!(shift_into(10.0, 50.0, 0.0, 960.0), 0.0);
        // Over the left edge by 30: moved right by 30.
        assert_eq!(shift_into(-30.0, 170.0, 0.0, 960.0), 30.0);
        // Over the right edge (the panel's side) by 40: moved left by 40.
        assert_eq!(shift_into(800.0, 1000.0, 0.0, 960.0), -40.0);
        // Wider than the room: its start at the left edge.
        assert_eq!(shift_into(-100.0, 1100.0, 0.0, 960.0), 100.0);
        assert_eq!(shift_into(100.0, 1300.0, 0.0, 960.0), -100.0);
    }

    #[test]
    fn a_label_steps_clear_of_the_labels_before_it() {
        let a = egui::Rect::from_min_size(egui::pos2(100.0, 100.0), egui::vec2(60.0, 18.0));
        assert_eq!(clear_of(a, &[]), a, "alone: where it is");
        let far = a.translate(egui::vec2(200.0, 0.0));
        assert_eq!(clear_of(a, &[far]), a, "beside one it does not touch");
        // Over another: a box's height up, clear of it.
        let moved = clear_of(a, &[a]);
        assert!(!moved.intersects(a), "{moved:?}");
        assert_eq!((moved.left(), moved.width()), (a.left(), a.width()));
        assert!((moved.top() - (a.top() - 19.0)).abs() < 1e-3, "{moved:?}");
        // Over one half a box below: half a box up is enough.
        let lower = a.translate(egui::vec2(0.0, 12.0));
        let half = clear_of(a, &[lower]);
        assert!((half.top() - (a.top() - 9.5)).abs() < 1e-3, "{half:?}");
        // With the place above taken too: below.
        let below = clear_of(a, &[a, moved]);
        assert!((below.top() - (a.top() + 19.0)).abs() < 1e-3, "{below:?}");
        // Boxed in above and below: it stays near, where it covers least.
        let ring = [a, moved, below];
        let least = clear_of(a, &ring);
        assert!((least.top() - a.top()).abs() <= 19.0, "{least:?}");
        assert!(
            ring.iter().all(|t| t.intersect(least).area() < a.area()),
            "{least:?} is not wholly under another"
        );
        // Across a path running up the screen, marked taken: aside.
        let path: Vec<egui::Rect> = (0..40)
            .map(|k| {
                egui::Rect::from_center_size(
                    egui::pos2(a.center().x, a.top() - 40.0 + k as f32 * 3.0),
                    egui::vec2(4.0, 4.0),
                )
            })
            .collect();
        let aside = clear_of(a, &path);
        assert!(path.iter().all(|t| !t.intersects(aside)), "{aside:?}");
        assert_eq!(aside.top(), a.top(), "{aside:?}");
        // Three labels on one spot: three places, none over another.
        let mut taken = Vec::new();
        for _ in 0..3 {
            let r = clear_of(a, &taken);
            assert!(taken.iter().all(|t: &egui::Rect| !t.intersects(r)));
            taken.push(r);
        }
    }

    #[test]
    fn what_follows_a_fixed_slot_stays_put_however_much_it_holds() {
        // The notice's slot, lower than egui's least scrolled height (64
        // points), and the Cache panel's block about the acting unit.
        for height in [NOTICE_HEIGHT, 150.0] {
            follows_a_slot_of(height);
        }
    }

    fn follows_a_slot_of(height: f32) {
        let ctx = egui::Context::default();
        let place_after = |lines: usize| {
            let mut place = egui::Rect::NOTHING;
            for _ in 0..2 {
                let input = egui::RawInput {
                    screen_rect: Some(egui::Rect::from_min_size(
                        egui::Pos2::ZERO,
                        egui::vec2(300.0, 720.0),
                    )),
                    ..Default::default()
                };
                let mut output = ctx.run_ui(input, |ui| {
                    fixed_slot(ui, "test", height, |ui| {
                        for k in 0..lines {
                            ui.label(format!("line {k}"));
                        }
                    });
                    place = ui.button("New game").rect;
                });
                output.textures_delta.clear();
            }
            place
        };
        let empty = place_after(0);
        for lines in [1, 3, 40] {
            assert_eq!(place_after(lines), empty, "{lines} lines in {height}");
        }
    }
}
