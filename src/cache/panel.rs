//! Conflict at Cache's play panel: the turn, the command buttons, resigning
//! and draws (R24), the seats and the hint, what the acting unit and the
//! last roll say, the log and the files; and the labels over its squares.
//! The panels' frame, notice, dialogs and log view are the shared hud's
//! (`crate::hud`).

use bevy::prelude::*;
use bevy_egui::{EguiContexts, EguiPrimaryContextPass, egui};
use sandtable_cache::{Choice, Command, Facing, Square};

use super::bots::{Hint, Thinking};
use super::play::{ActiveGame, Cache, CommandRequest, outcome_text};
use crate::cache::picking::{PlaceFacing, hovered_square};
use crate::cache::table::{
    ActionBudget, FloatingText, GridPos, Reachable, SQUARE, SquareTile, square_center,
};
use crate::hud::{
    FilePanel, HoverLabel, HudStage, NOTICE_HEIGHT, PanelWidth, TableLabels, fixed_slot, log_view,
    notice_text,
};
use crate::mode::{Mode, SetLayoutMode};
use crate::picking::Hovered;
use crate::session::open::on_table;
use crate::session::{
    HintRequest, NewGameRequest, Notice, SaveRequest, Seats, StartTurn, UndoRequest,
};
use crate::table::TableShown;

/// Cache's panel and the labels over its squares.
pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        EguiPrimaryContextPass,
        (
            draw_panels
                .in_set(HudStage::Panels)
                .run_if(on_table::<Cache>),
            // Also in layout mode, with the layout's words in the bar.
            label_table.in_set(HudStage::Labels),
        )
            .distributive_run_if(crate::hud::curtain_down::<Cache>),
    )
    .add_systems(
        Update,
        crate::hud::describe_hovered::<Cache>
            .after(crate::schedule::AppSystems::SyncTable)
            .run_if(in_state(Mode::Play))
            .run_if(on_table::<Cache>),
    );
    crate::hud::add_curtain::<Cache>(app);
}

/// The players' seats, the bot thinking and the hint, for the play panel.
#[derive(bevy::ecs::system::SystemParam)]
pub struct BotPanel<'w> {
    seats: ResMut<'w, Seats>,
    hint: Res<'w, Hint>,
    thinking: Option<Res<'w, Thinking<Cache>>>,
    hint_requests: MessageWriter<'w, HintRequest>,
    new_game: MessageWriter<'w, NewGameRequest>,
    typed: ResMut<'w, crate::session::dice::TypedRolls>,
    real_dice: MessageWriter<'w, crate::cache::play::RealDiceRequest>,
    controls: crate::hud::BotControls<'w>,
}

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

/// The height of the panel's block about the acting unit, the last roll and
/// an awaited choice, in points.
const INFO_HEIGHT: f32 = 150.0;

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
    mut over_closed: Local<Option<(String, usize)>>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    if *mode.get() == Mode::Layout {
        // The layout panel takes the side instead.
        return Ok(());
    }
    // The game may have left the table earlier in this frame.
    let Some(active) = active else {
        return Ok(());
    };
    let game = &active.game;
    let current = game.current_player();
    crate::hud::side_panel(ctx, "play-panel", &mut width, |ui| {
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
        let players: Vec<(String, egui::Color32)> = game
            .players()
            .iter()
            .enumerate()
            .map(|(i, player)| (player.name.clone(), player_colour(&active, i)))
            .collect();
        if crate::hud::seat_chooser(ui, &players, &mut bots.seats, files.served()) {
            bots.new_game.write(NewGameRequest::default());
        }
        if files.served().is_none() {
            bots.controls.row(ui, &bots.seats);
        }
        // Real dice rolled beside the table, typed in before each command
        // that rolls (R30).
        if files.served().is_none()
            && let Some(on) = crate::session::dice::real_dice_row(ui, &active.dice, &mut bots.typed)
        {
            bots.real_dice
                .write(crate::cache::play::RealDiceRequest(on));
        }
        ui.separator();
        ui.label(egui::RichText::new("Files").strong());
        let open = match &active.source {
            crate::session::ScenarioSource::File(p) => p.display().to_string(),
            crate::session::ScenarioSource::Embedded => "the standard table (built in)".to_owned(),
            crate::session::ScenarioSource::Unsaved => "an edited layout, not saved".to_owned(),
        };
        match files.served() {
            Some(remote) => {
                let server = remote
                    .server
                    .map_or("a server".to_owned(), |s| s.to_string());
                ui.small(format!("Scenario and game: served by {server}"));
            }
            None => {
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
            }
        }
        if ui
            .add_enabled(files.served().is_none(), egui::Button::new("Save game"))
            .on_disabled_hover_text("the server keeps a served game's record")
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
        log_view(ui, "log", &active.log, active.viewer);
    });

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
        // Closed, the box stays closed for this ending; the panel still
        // says the outcome, and the table shows behind.
        let ending = (text.clone(), active.record.len());
        if over_closed.as_ref() != Some(&ending) && game_over_box(ctx, &text).0 {
            *over_closed = Some(ending);
        }
    }
    Ok(())
}

/// The box that says the game is over, over the middle of the table:
/// whether the person closed it (its Close button or its title's cross),
/// and where its Close button is.
fn game_over_box(ctx: &egui::Context, text: &str) -> (bool, egui::Rect) {
    let mut open = true;
    let (mut close, mut at) = (false, egui::Rect::NOTHING);
    egui::Window::new("Game over")
        .collapsible(false)
        .resizable(false)
        .open(&mut open)
        .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
        .show(ctx, |ui| {
            ui.label(egui::RichText::new(text).size(28.0).strong());
            ui.label("Save the game or open another scenario from the panel.");
            let button = ui
                .button("Close")
                .on_hover_text("look at the table; the panel keeps the outcome");
            close = button.clicked();
            at = button.rect;
        });
    (!open || close, at)
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
    let (Some(board), Ok((cam, cam_at))) =
        (crate::cache::table::board_shown(&shown), camera.single())
    else {
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
    if let (Some(_), Some(label)) = (hovered_square(&hovered), hover_label.0.clone()) {
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
    use crate::hud::egui_frames::click;

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
        let mut out = (ControlsClicked::default(), 0.0);
        crate::hud::egui_frames::frame(ctx, egui::vec2(1280.0, 720.0), events, |ui| {
            out = (play_controls(ui, c), ui.cursor().min.y);
        });
        out
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
    fn the_game_over_box_closes_by_its_button() {
        let ctx = egui::Context::default();
        let draw = |events: Vec<egui::Event>| {
            let mut out = (false, egui::Rect::NOTHING);
            crate::hud::egui_frames::frame(&ctx, egui::vec2(1280.0, 720.0), events, |ui| {
                out = game_over_box(ui.ctx(), "Game over after turn 4: Blue wins");
            });
            out
        };
        // Drawn and settled: open, its button in the middle of the table.
        draw(Vec::new());
        let (closed, button) = draw(Vec::new());
        assert!(!closed);
        assert!(button.is_positive(), "{button:?}");
        let [press, release] = click(button.center());
        assert!(!draw(press).0);
        assert!(draw(release).0, "the Close button closes it");
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
}
