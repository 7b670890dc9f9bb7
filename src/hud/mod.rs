//! The panels (egui): whose turn it is, the acting unit's budget, the buttons,
//! the log, undo, save and load, the hot-seat hand-over banner and the
//! victory screen; and labels drawn over the table: square names along the
//! edges, costs on reachable squares, floating capture bonuses.

use bevy::camera::Viewport;
use bevy::prelude::*;
use bevy::window::PrimaryWindow;
use bevy_egui::input::EguiWantsInput;
use bevy_egui::{EguiContexts, EguiPlugin, EguiPrimaryContextPass, egui};
use sandtable_cache::{Choice, Command, Facing, Square};

use crate::cache::bots::{Hint, Thinking};
use crate::cache::play::{ActiveGame, CommandRequest, outcome_text};
use crate::mode::{Mode, SetLayoutMode};
use crate::picking::{Hovered, PlaceFacing};
use crate::session::keys::KeyboardTaken;
use crate::session::open::{nothing_on_table, on_table};
use crate::session::{
    Dialog, DialogAnswer, FileField, HintRequest, Leaving, LoadRequest, NewGameRequest, Notice,
    OpenFailure, SaveRequest, Seat, Seats, StartTurn, UndoRequest,
};
use crate::table::{
    ActionBudget, FloatingText, GridPos, Reachable, SQUARE, SquareTile, TableShown, square_center,
};

pub(super) fn plugin(app: &mut App) {
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
                // Cache's panel, also the table's when no game could be
                // opened; a battle has a panel of its own.
                draw_panels
                    .in_set(HudStage::Panels)
                    .run_if(on_table::<crate::cache::play::Cache>.or_else(nothing_on_table)),
                fit_table_viewport.in_set(HudStage::Viewport),
                label_table.in_set(HudStage::Labels),
            ),
        )
        .add_systems(
            Update,
            describe_hovered_square
                .after(crate::AppSystems::SyncTable)
                .run_if(in_state(Mode::Play)),
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

/// The players' seats, the bot thinking and the hint, for the play panel.
#[derive(bevy::ecs::system::SystemParam)]
pub struct BotPanel<'w> {
    seats: ResMut<'w, Seats>,
    hint: Res<'w, Hint>,
    thinking: Option<Res<'w, Thinking>>,
    hint_requests: MessageWriter<'w, HintRequest>,
    new_game: MessageWriter<'w, NewGameRequest>,
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

/// What the bar below the table says about the hovered square, as the
/// mode in force describes it.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct HoverLabel(pub Option<String>);

/// In play the hovered square is described by the game: what stands there
/// and what entering costs.
fn describe_hovered_square(
    hovered: Res<Hovered>,
    active: Option<Res<ActiveGame>>,
    mut label: ResMut<HoverLabel>,
) {
    let wanted = hovered.0.map(|sq| match active.as_deref() {
        Some(active) => crate::cache::play::describe_square(&active.game, sq),
        None => sq.to_string(),
    });
    label.set_if_neq(HoverLabel(wanted));
}

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
    fn bounds(&self) -> egui::Rect {
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
/// what they label); where none is free, the place that covers least.
fn clear_of(rect: egui::Rect, taken: &[egui::Rect]) -> egui::Rect {
    let covered = |r: &egui::Rect| -> f32 {
        taken
            .iter()
            .map(|t| t.intersect(*r))
            .filter(|i| i.is_positive())
            .map(|i| i.area())
            .sum()
    };
    let step = rect.height() + 1.0;
    let places = [0.0, -0.5, 0.5, -1.0, 1.0].map(|k| rect.translate(egui::vec2(0.0, k * step)));
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
    pub(crate) dialog: Option<Res<'w, Dialog>>,
    pub(crate) answers: MessageWriter<'w, DialogAnswer>,
    pub(crate) save: MessageWriter<'w, SaveRequest>,
    load: MessageWriter<'w, LoadRequest>,
}

impl FilePanel<'_> {
    /// The field, starting from the game's own file.
    fn text(&mut self, file: Option<&std::path::Path>) -> &mut String {
        self.field
            .0
            .get_or_insert_with(|| file.map(|f| f.display().to_string()).unwrap_or_default())
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
        });
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
const NOTICE_HEIGHT: f32 = 54.0;

/// What the top of the play panel shows: the turn, the command buttons and
/// the notice. Its place and size never depend on the notice or the game's
/// state, so a button stays where the person aims at it.
pub(crate) struct Controls<'a> {
    /// The turn number.
    pub turn: u32,
    /// The player to move.
    pub player: &'a str,
    /// That player's colour.
    pub colour: egui::Color32,
    /// Activations left of the turn's limit (R6).
    pub activations: (u16, u16),
    /// A unit is acting: the unit buttons are enabled.
    pub acting: bool,
    /// A bot is to move: nothing is enabled.
    pub bot_turn: bool,
    /// The hint button is enabled.
    pub hint: bool,
    /// Who offered the draw that stands, if one does (R24).
    pub draw_offer: Option<&'a str>,
    /// The player to move may accept that draw.
    pub may_accept: bool,
    /// The notice and whether it is an error.
    pub notice: Option<(&'a str, bool)>,
    /// How the game ended, once it has: then nobody is to play, and only
    /// Undo is left (R24, R31).
    pub outcome: Option<&'a str>,
}

/// Which of the controls may be pressed: none that plays once the game is
/// over, and none while a bot is to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Enabled {
    /// Left, Right, Advance and End: a unit is acting.
    pub unit: bool,
    /// Pass turn and Resign.
    pub turn: bool,
    /// Offer draw.
    pub offer: bool,
    /// Accept draw.
    pub accept: bool,
    /// Hint.
    pub hint: bool,
    /// Undo.
    pub undo: bool,
}

impl Controls<'_> {
    /// What may be pressed now.
    pub(crate) fn enabled(&self) -> Enabled {
        let playing = !self.bot_turn && self.outcome.is_none();
        Enabled {
            unit: playing && self.acting,
            turn: playing,
            offer: playing && self.draw_offer.is_none(),
            accept: playing && self.may_accept,
            hint: playing && self.hint,
            undo: !self.bot_turn,
        }
    }

    /// The panel's first lines: whose turn and what is left of it, or how
    /// the game ended.
    pub(crate) fn status(&self) -> (String, String) {
        match self.outcome {
            Some(result) => (
                format!("Game over after turn {}: {result}", self.turn),
                "Save it, or start a new game".to_owned(),
            ),
            None => (
                format!("Turn {}: {} to play", self.turn, self.player),
                format!(
                    "{} of {} activations left (R6)",
                    self.activations.0, self.activations.1
                ),
            ),
        }
    }
}

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

/// What was clicked in the controls, and where each button is.
#[derive(Debug, Default)]
pub(crate) struct ControlsClicked {
    /// A command button.
    pub command: Option<Command>,
    /// Undo.
    pub undo: bool,
    /// Hint.
    pub hint: bool,
    /// Every button's place, in the order drawn.
    pub buttons: Vec<egui::Rect>,
}

/// Draws the controls (see [`Controls`]).
pub(crate) fn play_controls(ui: &mut egui::Ui, c: &Controls<'_>) -> ControlsClicked {
    let mut out = ControlsClicked::default();
    let enabled = c.enabled();
    let (status, left) = c.status();
    match c.outcome {
        Some(_) => {
            ui.label(egui::RichText::new(status).strong());
        }
        None => {
            ui.horizontal(|ui| {
                ui.label(format!("Turn {}:", c.turn));
                ui.colored_label(c.colour, egui::RichText::new(c.player).strong());
                ui.label("to play");
            });
        }
    }
    ui.label(left);
    ui.horizontal_wrapped(|ui| {
        for (label, command) in [
            ("⟲ Left (Q)", Command::TurnLeft),
            ("Right (E) ⟳", Command::TurnRight),
            ("Advance (F)", Command::Advance),
            ("End (Enter)", Command::End),
        ] {
            let button = ui.add_enabled(enabled.unit, egui::Button::new(label));
            out.buttons.push(button.rect);
            if button.clicked() {
                out.command = Some(command);
            }
        }
        let pass = ui.add_enabled(enabled.turn, egui::Button::new("Pass turn (P)"));
        out.buttons.push(pass.rect);
        if pass.clicked() {
            out.command = Some(Command::Pass);
        }
        let undo = ui.add_enabled(enabled.undo, egui::Button::new("Undo (U)"));
        out.buttons.push(undo.rect);
        out.undo = undo.clicked();
        let hint = ui
            .add_enabled(enabled.hint, egui::Button::new("Hint"))
            .on_hover_text(format!(
                "the move a bot of strength {} would make",
                crate::session::HINT_STRENGTH
            ));
        out.buttons.push(hint.rect);
        out.hint = hint.clicked();
    });
    // R24: resigning and draws, a row apart from the moves.
    ui.horizontal_wrapped(|ui| {
        let offer = ui
            .add_enabled(enabled.offer, egui::Button::new("Offer draw"))
            .on_hover_text("the others accept it at their next decision, or play on (R24)");
        out.buttons.push(offer.rect);
        if offer.clicked() {
            out.command = Some(Command::OfferDraw);
        }
        let accept = ui.add_enabled(enabled.accept, egui::Button::new("Accept draw"));
        out.buttons.push(accept.rect);
        if accept.clicked() {
            out.command = Some(Command::AcceptDraw);
        }
        let resign = ui.add_enabled(enabled.turn, egui::Button::new("Resign…"));
        out.buttons.push(resign.rect);
        if resign.clicked() {
            ui.data_mut(|d| d.insert_temp(resign_id(), true));
        }
    });
    if enabled.turn && ui.data(|d| d.get_temp::<bool>(resign_id()).unwrap_or(false)) {
        let (confirmed, places) = resign_dialog(ui.ctx(), c.player);
        out.buttons.extend(places);
        out.command = out.command.or(confirmed);
    } else {
        ui.data_mut(|d| d.remove::<bool>(resign_id()));
    }
    // A draw on offer is said in the notice's slot, above the notice, so
    // that what follows never moves when a bot offers a draw (a click aimed
    // at a seat's list lands on it).
    fixed_slot(ui, "notice", NOTICE_HEIGHT, |ui| {
        if let Some(by) = c.draw_offer.filter(|_| c.outcome.is_none()) {
            ui.colored_label(egui::Color32::GOLD, format!("{by} offers a draw (R24)"));
        }
        notice_text(ui, c.notice);
    });
    out
}

/// Where the panel keeps whether the resign dialog is open.
fn resign_id() -> egui::Id {
    egui::Id::new("resign-dialog")
}

/// The dialog that asks before a player resigns, over a dimmed table:
/// `Some(Resign)` when the player confirms; Play on, Escape or a click
/// outside close it. With the places of its two buttons.
fn resign_dialog(ctx: &egui::Context, player: &str) -> (Option<Command>, [egui::Rect; 2]) {
    let shown = egui::Modal::new(egui::Id::new("resign-modal")).show(ctx, |ui| {
        ui.set_width(320.0);
        ui.heading(format!("Resign for {player}?"));
        ui.label(
            "You leave the game as if your last Base were captured (R24): play goes on for the others, and ends when one is left.",
        );
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            let resign = ui.button("Resign");
            let stay = ui.button("Play on");
            (resign.clicked(), stay.clicked(), [resign.rect, stay.rect])
        })
        .inner
    });
    let (resign, stay, places) = shown.inner;
    if resign || stay || shown.should_close() {
        ctx.data_mut(|d| d.remove::<bool>(resign_id()));
    }
    (resign.then_some(Command::Resign), places)
}

/// The side panels' width, in points: the Cache panel's buttons in three
/// rows at the panels' text sizes ([`TEXT_SIZES`]).
pub(crate) const PANEL_WIDTH: f32 = 340.0;

/// The height of the panel's block about the acting unit, the last roll and
/// an awaited choice, in points.
const INFO_HEIGHT: f32 = 150.0;

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
            .show(ui, add_contents);
    });
}

/// A game's log, to the bottom of the panel: commands in monospace, the
/// events under each in small type, one row a line (a line too long for
/// the panel is cut short, and shown whole on hover). Only the rows in
/// view are laid out, so that a long game's log costs no more a frame
/// than a short one's.
pub(crate) fn log_view(ui: &mut egui::Ui, id: &str, log: &[crate::session::LogLine]) {
    let row = ui
        .text_style_height(&egui::TextStyle::Monospace)
        .max(ui.text_style_height(&egui::TextStyle::Small));
    egui::ScrollArea::vertical()
        .id_salt(id)
        .stick_to_bottom(true)
        .auto_shrink([false, true])
        .show_rows(ui, row, log.len(), |ui, rows| {
            for line in &log[rows] {
                let text = if line.command {
                    egui::RichText::new(&line.text).monospace()
                } else {
                    egui::RichText::new(format!("   {}", line.text)).small()
                };
                ui.add(egui::Label::new(text).truncate());
            }
        });
}

/// The notice in a slot of fixed height ([`NOTICE_HEIGHT`]).
pub(crate) fn notice_slot(ui: &mut egui::Ui, notice: Option<(&str, bool)>) {
    fixed_slot(ui, "notice", NOTICE_HEIGHT, |ui| notice_text(ui, notice));
}

/// A notice's words: an error's in red.
fn notice_text(ui: &mut egui::Ui, notice: Option<(&str, bool)>) {
    if let Some((text, error)) = notice {
        let colour = if error {
            egui::Color32::from_rgb(255, 120, 110)
        } else {
            egui::Color32::LIGHT_GRAY
        };
        ui.colored_label(colour, text);
    }
}

/// The dialog the table waits on, over everything else.
pub(crate) fn draw_dialog(
    ctx: &egui::Context,
    dialog: &Dialog,
    answers: &mut MessageWriter<DialogAnswer>,
) {
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

fn player_colour(active: &ActiveGame, p: usize) -> egui::Color32 {
    let [r, g, b] = active.setup.colours.get(p).map_or([200, 200, 200], |c| c.0);
    egui::Color32::from_rgb(r, g, b)
}

#[allow(clippy::too_many_lines)]
fn draw_panels(
    mut contexts: EguiContexts,
    active: Option<Res<ActiveGame>>,
    mut notice: ResMut<Notice>,
    budget: Query<&ActionBudget>,
    mut facing: ResMut<PlaceFacing>,
    mut files: FilePanel,
    mut requests: MessageWriter<CommandRequest>,
    mut undo: MessageWriter<UndoRequest>,
    mode: Res<State<Mode>>,
    mut set_layout: MessageWriter<SetLayoutMode>,
    mut width: ResMut<PanelWidth>,
    mut bots: BotPanel,
    mut start_turn: MessageWriter<StartTurn>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if let Some(dialog) = files.dialog.as_deref() {
        draw_dialog(ctx, dialog, &mut files.answers);
    }
    if *mode.get() == Mode::Layout {
        // The layout panel takes the side instead.
        return Ok(());
    }
    let Some(active) = active else {
        egui::Window::new("Sandtable")
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.set_max_width(480.0);
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
        return Ok(());
    };
    let mut root = egui::Ui::new(
        ctx.clone(),
        "table-root".into(),
        egui::UiBuilder::new()
            .layer_id(egui::LayerId::background())
            .max_rect(ctx.viewport_rect()),
    );
    let game = &active.game;
    let current = game.current_player();
    let panel = egui::Panel::right("play-panel")
        .resizable(false)
        .exact_size(PANEL_WIDTH)
        .show(&mut root, |ui| {
            ui.heading(&active.setup.name);
            let mut on = false;
            if ui
                .checkbox(&mut on, "Layout mode")
                .on_hover_text("the layout at its real size: rulers, measuring and the editor")
                .changed()
            {
                set_layout.write(SetLayoutMode::ON);
            }
            // Everything from here to the notice keeps its place, whatever
            // the notice says: a click aimed at a button lands on it.
            let bot_turn = crate::cache::bots::bot_to_move(&bots.seats, game);
            let outcome = outcome_text(game);
            let clicked = play_controls(
                ui,
                &Controls {
                    turn: game.turn(),
                    player: &game.player(current).name,
                    colour: player_colour(&active, usize::from(current.0)),
                    activations: (game.activations_left(), game.turn_activation_limit()),
                    acting: game.activation().is_some(),
                    bot_turn,
                    hint: !bots.hint.thinking() && !game.is_over(),
                    draw_offer: game.draw_offer().map(|o| game.player(o.by).name.as_str()),
                    may_accept: game.check(&Command::AcceptDraw).is_ok(),
                    notice: notice.text.as_deref().map(|t| (t, notice.error)),
                    outcome: outcome.as_deref(),
                },
            );
            if let Some(command) = clicked.command {
                requests.write(CommandRequest(command));
            }
            if clicked.undo {
                undo.write(UndoRequest);
            }
            if clicked.hint {
                bots.hint_requests.write(HintRequest);
            }
            ui.separator();
            // What the acting unit, the last roll and a choice say: a block
            // of fixed height, so that the sections below stay put too.
            fixed_slot(ui, "play-info", INFO_HEIGHT, |ui| {
                if bot_turn && !game.is_over() {
                    let seat = bots.seats.of(usize::from(current.0)).describe();
                    let doing = if bots.thinking.is_some() {
                        "thinking"
                    } else {
                        "playing"
                    };
                    ui.colored_label(
                        egui::Color32::GOLD,
                        format!("{} ({seat}) is {doing}...", game.player(current).name),
                    );
                }
                if let Some(command) = bots.hint.for_game(&active) {
                    ui.colored_label(egui::Color32::GOLD, format!("Hint: `{command}`"));
                }
                match (game.activation(), budget.iter().next()) {
                    (Some(a), Some(b)) => {
                        let at = game
                            .position(a.unit)
                            .map(|(s, f)| format!("{s} facing {f}"))
                            .unwrap_or_default();
                        ui.label(egui::RichText::new(format!("Acting: the unit on {at}")).strong());
                        ui.label(format!(
                            "given {} + earned {} - spent {} = {} left",
                            b.given,
                            b.earned,
                            b.spent,
                            a.left().0
                        ));
                        if !game.paused_activations().is_empty() {
                            ui.label(format!(
                                "{} paused activation(s) resume after this bonus",
                                game.paused_activations().len()
                            ));
                        }
                    }
                    _ if game.is_over() => {}
                    _ => {
                        ui.label("Click one of your miniatures to activate it.");
                    }
                }
                if let Some((dice, roll, result)) = &active.extra.last_roll {
                    ui.separator();
                    ui.horizontal(|ui| {
                        ui.label("Stash roll:");
                        for d in dice {
                            ui.label(
                                egui::RichText::new(format!(" {d} "))
                                    .strong()
                                    .size(18.0)
                                    .background_color(egui::Color32::from_rgb(240, 235, 220))
                                    .color(egui::Color32::BLACK),
                            );
                        }
                        ui.label(egui::RichText::new(roll.to_string()).strong());
                    });
                    ui.label(result);
                }
                if let Some(choice) = game.pending() {
                    ui.separator();
                    ui.colored_label(
                        egui::Color32::GOLD,
                        crate::cache::play::choice_prompt(choice),
                    );
                    if !matches!(choice, Choice::ExtraActions { .. } | Choice::PickUnfriendly) {
                        ui.horizontal(|ui| {
                            ui.label("Facing:");
                            for f in Facing::ALL {
                                ui.selectable_value(&mut facing.0, f, f.to_string());
                            }
                        });
                    }
                }
            });
            ui.separator();
            egui::CollapsingHeader::new("Players")
                .default_open(true)
                .show(ui, |ui| {
                    for (i, player) in game.players().iter().enumerate() {
                        ui.horizontal(|ui| {
                            ui.colored_label(player_colour(&active, i), &player.name);
                            let Some(seat) = bots.seats.0.get_mut(i) else {
                                return;
                            };
                            egui::ComboBox::from_id_salt(("seat", i))
                                .selected_text(seat.describe())
                                .show_ui(ui, |ui| {
                                    for choice in Seat::choices() {
                                        ui.selectable_value(seat, choice, choice.describe());
                                    }
                                });
                        });
                    }
                    if ui
                        .button("New game")
                        .on_hover_text("this scenario again from its setup, with these players")
                        .clicked()
                    {
                        bots.new_game.write(NewGameRequest::default());
                    }
                });
            ui.separator();
            ui.label(egui::RichText::new("Files").strong());
            let open = match &active.source {
                crate::session::ScenarioSource::File(p) => p.display().to_string(),
                crate::session::ScenarioSource::Embedded => {
                    "the standard table (built in)".to_owned()
                }
                crate::session::ScenarioSource::Unsaved => "an edited layout, not saved".to_owned(),
            };
            ui.small(format!("Scenario: {open}"));
            let own = active
                .file
                .as_ref()
                .map_or("not saved yet".to_owned(), |f| f.display().to_string());
            ui.horizontal(|ui| {
                ui.small(format!("Game: {own}"));
                if active.has_unsaved_work() {
                    ui.colored_label(egui::Color32::GOLD, "(not saved)");
                }
            });
            if ui
                .button("Save game")
                .on_hover_text("to the game's own file, or a new .moves file beside its scenario")
                .clicked()
            {
                files.save.write(SaveRequest::own_file());
            }
            files.open_row(ui, true, active.file.as_deref());
            let sheet = crate::session::files::sheet_path(&active.source);
            if ui
                .button("Print setup sheet (A4 PDF)")
                .on_hover_text(format!(
                    "the table at 1:1 over several pages, written to {}",
                    sheet.display()
                ))
                .clicked()
            {
                match crate::cache::files::print_sheet(&active.setup, &sheet) {
                    Ok(out) => notice.info(format!("sheet written to {}", out.display())),
                    Err(e) => notice.error(e),
                }
            }
            ui.separator();
            ui.label(egui::RichText::new("Log").strong());
            log_view(ui, "log", &active.log);
        });
    width.0 = panel.response.rect.width();

    if let Some(next) = active.handover {
        let name = active
            .game
            .player(sandtable_cache::PlayerId(next.0))
            .name
            .clone();
        let colour = player_colour(&active, usize::from(next.0));
        egui::Window::new("Hand over")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_TOP, [-150.0, 16.0])
            .show(ctx, |ui| {
                ui.label(
                    egui::RichText::new(format!("{name}'s turn"))
                        .size(26.0)
                        .color(colour),
                );
                ui.label(format!(
                    "Turn {}. Pass the mouse to {name}.",
                    active.game.turn()
                ));
                if ui
                    .button(egui::RichText::new("Start turn").size(18.0))
                    .clicked()
                {
                    start_turn.write(StartTurn);
                }
            });
    } else if let Some(text) = outcome_text(&active.game) {
        egui::Window::new("Game over")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(egui::RichText::new(text).size(28.0).strong());
                ui.label("Save the game or open another scenario from the panel.");
            });
    }
    Ok(())
}

/// Square names along the near and left edges, costs on reachable squares,
/// what the hovered square holds (in the bar below the table), and floating
/// capture bonuses.
fn label_table(
    mut contexts: EguiContexts,
    shown: Res<TableShown>,
    hover_label: Res<HoverLabel>,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    reachable: Query<(&GridPos, &Reachable), With<SquareTile>>,
    floating: Query<(&FloatingText, &Transform)>,
    hovered: Res<Hovered>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let (Some(board), Ok((cam, cam_at))) = (shown.board, camera.single()) else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    let to_screen = |p: Vec3| labels.screen(p);
    let text = |at, s: &str, size, colour| labels.text(at, s, size, colour);
    let boxed = |at, words, size, back| labels.boxed(at, words, size, back);
    let edge = egui::Color32::from_rgb(240, 230, 200);
    // The part of the window the table is drawn in.
    let view = cam.logical_viewport_rect().map(|r| {
        egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y), egui::pos2(r.max.x, r.max.y))
            .shrink(12.0)
    });
    let on_screen = |p: &egui::Pos2| view.is_none_or(|v| v.contains(*p));
    // On a large board only every few columns and rows are named. A name
    // goes beside the board's edge; when the camera is in close and that
    // edge is off screen, it goes beside the nearest square still on screen.
    let every = |n: u16| n.div_ceil(30).max(1);
    // A name beside the edge is plain; one drawn on a square gets a box.
    let name = |at: (usize, egui::Pos2), words: &str| {
        if at.0 == 0 {
            text(at.1, words, 13.0, edge);
        } else {
            boxed(
                at.1,
                words.to_owned(),
                12.0,
                egui::Color32::from_black_alpha(150),
            );
        }
    };
    for col in (0..board.columns).step_by(usize::from(every(board.columns))) {
        let spot = (0..board.rows)
            .filter_map(|row| {
                let offset = if row == 0 { 0.8 } else { 0.0 };
                let at = square_center(board, Square::new(col, row))
                    + Vec3::new(0.0, 0.0, offset * SQUARE);
                to_screen(at).map(|p| (usize::from(row), p))
            })
            .find(|(_, p)| on_screen(p));
        if let Some(at) = spot {
            let column = Square::new(col, 0).to_string();
            name(at, column.trim_end_matches('1'));
        }
    }
    for row in (0..board.rows).step_by(usize::from(every(board.rows))) {
        let spot = (0..board.columns)
            .filter_map(|col| {
                let offset = if col == 0 { 0.8 } else { 0.0 };
                let at = square_center(board, Square::new(col, row))
                    - Vec3::new(offset * SQUARE, 0.0, 0.0);
                to_screen(at).map(|p| (usize::from(col), p))
            })
            .find(|(_, p)| on_screen(p));
        if let Some(at) = spot {
            name(at, &(row + 1).to_string());
        }
    }
    for (pos, reach) in &reachable {
        match reach.capture {
            // Above the figure on the square, so that the bonus is not hidden.
            Some(capture) => {
                if let Some(p) = to_screen(square_center(board, pos.0) + Vec3::Y * 1.1) {
                    let words = format!("{}, costs {}", capture.label(), reach.cost);
                    boxed(p, words, 15.0, egui::Color32::from_rgb(0xA0, 0x46, 0x00));
                }
            }
            None => {
                if let Some(p) = to_screen(square_center(board, pos.0) + Vec3::Y * 0.15) {
                    text(p, &reach.cost.to_string(), 16.0, egui::Color32::BLACK);
                }
            }
        }
    }
    if let (Some(_), Some(label)) = (hovered.0, hover_label.0.clone()) {
        labels.pointer_bar(label);
    }
    for (float, at) in &floating {
        if let Some(p) = to_screen(at.translation) {
            let alpha = (float.left / 2.5).clamp(0.0, 1.0);
            let colour = egui::Color32::from_rgba_unmultiplied(255, 220, 90, (alpha * 255.0) as u8);
            text(p, &float.text, 22.0, colour);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Controls in the middle of a game, Blue to play.
    fn blue_to_play<'a>(notice: Option<(&'a str, bool)>, acting: bool) -> Controls<'a> {
        Controls {
            turn: 3,
            player: "Blue",
            colour: egui::Color32::BLUE,
            activations: (4, 5),
            acting,
            bot_turn: false,
            hint: true,
            draw_offer: None,
            may_accept: false,
            notice,
            outcome: None,
        }
    }

    /// The controls drawn by egui without a window, one frame: what was
    /// clicked and where the panel goes on below them.
    fn frame(
        ctx: &egui::Context,
        c: &Controls<'_>,
        events: Vec<egui::Event>,
    ) -> (ControlsClicked, f32) {
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 720.0),
            )),
            events,
            ..Default::default()
        };
        let mut out = (ControlsClicked::default(), 0.0);
        let mut output = ctx.run_ui(input, |ui| {
            out = (play_controls(ui, c), ui.cursor().min.y);
        });
        // No renderer takes the font textures: they are let go.
        output.textures_delta.clear();
        out
    }

    /// A click of the primary button at `at`: pressed in one frame,
    /// released in the next.
    fn click(at: egui::Pos2) -> [Vec<egui::Event>; 2] {
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

    /// Draws `c` for two frames (egui settles sizes in the first): its
    /// buttons' places and where the panel goes on below them.
    fn settled(c: &Controls<'_>) -> (Vec<egui::Rect>, f32) {
        let ctx = egui::Context::default();
        frame(&ctx, c, Vec::new());
        let (clicked, below) = frame(&ctx, c, Vec::new());
        (clicked.buttons, below)
    }

    /// The places of the controls' buttons, drawn by egui without a window.
    fn button_places(notice: Option<(&str, bool)>, acting: bool) -> Vec<egui::Rect> {
        settled(&blue_to_play(notice, acting)).0
    }

    #[test]
    fn a_draw_offered_moves_nothing_below_it() {
        let none = settled(&blue_to_play(None, false));
        let offered = settled(&Controls {
            draw_offer: Some("Red"),
            may_accept: true,
            ..blue_to_play(None, false)
        });
        assert_eq!(offered, none, "the seats' lists below stay where they are");
    }

    #[test]
    fn resigning_asks_first_and_play_on_keeps_the_game() {
        let c = blue_to_play(None, false);
        let ctx = egui::Context::default();
        let run = |events| frame(&ctx, &c, events).0;
        let buttons = run(Vec::new()).buttons;
        run(Vec::new());
        let resign = buttons[9];
        let mut clicked = Vec::new();
        for events in click(resign.center()) {
            clicked.push(run(events));
        }
        assert!(
            clicked.iter().all(|c| c.command.is_none()),
            "one click on Resign… only asks"
        );
        let shown = run(Vec::new()).buttons;
        assert_eq!(shown.len(), 12, "the dialog's Resign and Play on follow");
        // Play on: the dialog closes and nothing is played.
        for events in click(shown[11].center()) {
            assert_eq!(run(events).command, None, "Play on");
        }
        assert_eq!(run(Vec::new()).buttons.len(), 10, "the dialog is gone");
        // Asked again and confirmed: the player resigns.
        for events in click(resign.center()) {
            run(events);
        }
        let shown = run(Vec::new()).buttons;
        let mut commands = Vec::new();
        for events in click(shown[10].center()) {
            commands.extend(run(events).command);
        }
        assert_eq!(commands, vec![Command::Resign]);
        assert_eq!(run(Vec::new()).buttons.len(), 10, "and the dialog closes");
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
        // Three labels on one spot: three places, none over another.
        let mut taken = Vec::new();
        for _ in 0..3 {
            let r = clear_of(a, &taken);
            assert!(taken.iter().all(|t: &egui::Rect| !t.intersects(r)));
            taken.push(r);
        }
    }

    #[test]
    fn the_buttons_keep_their_places_whatever_the_notice_says() {
        let none = button_places(None, false);
        assert_eq!(
            none.len(),
            10,
            "seven buttons, then offer, accept and resign"
        );
        let long = "refused: the unit on C4 is still acting: no other unit acts until it ends its activation (R7); ".repeat(6);
        for notice in [
            Some(("undid `advance`", false)),
            Some((long.as_str(), true)),
        ] {
            assert_eq!(button_places(notice, false), none, "{notice:?}");
        }
        assert_eq!(button_places(None, true), none, "nor whether a unit acts");
    }

    #[test]
    fn after_the_game_ends_the_panel_says_how_and_only_undo_is_left() {
        let playing = Controls {
            turn: 1,
            player: "Red",
            colour: egui::Color32::RED,
            activations: (5, 5),
            acting: true,
            bot_turn: false,
            hint: true,
            draw_offer: None,
            may_accept: true,
            notice: None,
            outcome: None,
        };
        assert_eq!(
            playing.status(),
            (
                "Turn 1: Red to play".to_owned(),
                "5 of 5 activations left (R6)".to_owned()
            )
        );
        assert_eq!(
            playing.enabled(),
            Enabled {
                unit: true,
                turn: true,
                offer: true,
                accept: true,
                hint: true,
                undo: true
            }
        );
        let over = Controls {
            outcome: Some("Blue wins"),
            ..playing
        };
        assert_eq!(
            over.status().0,
            "Game over after turn 1: Blue wins",
            "the result, not whose turn"
        );
        assert!(
            !over.status().1.contains("activations"),
            "{:?}",
            over.status()
        );
        assert_eq!(
            over.enabled(),
            Enabled {
                unit: false,
                turn: false,
                offer: false,
                accept: false,
                hint: false,
                undo: true
            },
            "Pass, Offer draw, Resign and the rest cannot be played after the end"
        );
        let bot = Controls {
            bot_turn: true,
            ..playing
        };
        assert!(
            !bot.enabled().turn && !bot.enabled().undo,
            "nothing while a bot moves"
        );
    }

    #[test]
    fn what_follows_a_fixed_slot_stays_put_however_much_it_holds() {
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
                    fixed_slot(ui, "test", INFO_HEIGHT, |ui| {
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
            assert_eq!(place_after(lines), empty, "{lines} lines");
        }
    }
}
