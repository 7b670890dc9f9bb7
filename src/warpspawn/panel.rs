//! The battle's panel and labels: the phase bar, the hand-over, the
//! choices for the selection with their odds, the dice, the victory points
//! and the log; the count of men on each formation and piece, what the lit
//! hexes offer, and the line of fire.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_warpspawn::{Command, Hex, Phase, Side};

use super::looks::Slot;
use super::play::{BattleChoices, BattleInput, BattlePick, march_pick};
use super::table::{ActiveBattle, BattlePiece, Formation};
use crate::hud::{HudStage, PanelWidth, TableLabels};
use crate::session::dice::TypedRolls;
use crate::session::{Notice, SaveRequest, StartTurn, UndoRequest};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (
            draw_battle_panel.in_set(HudStage::Panels),
            label_battle.in_set(HudStage::Labels),
        )
            .distributive_run_if(resource_exists::<ActiveBattle>)
            // Layout mode has a panel and labels of its own.
            .distributive_run_if(in_state(crate::mode::Mode::Play))
            .distributive_run_if(crate::hud::curtain_down::<super::table::Warpspawn>),
    );
    crate::hud::add_curtain::<super::table::Warpspawn>(app);
}

fn side_colour(active: &ActiveBattle, side: Side) -> egui::Color32 {
    let [r, g, b] = active
        .setup
        .colours
        .get(usize::from(side.0))
        .map_or([200, 200, 200], |c| c.0);
    egui::Color32::from_rgb(r, g, b)
}

/// What a click does in each phase, for the person whose decision it is.
fn phase_hint(phase: Phase) -> &'static str {
    match phase {
        Phase::Cannonade => {
            "Click a lit cannon (4 men to fire it, R65), then its target: the odds show before the shot."
        }
        Phase::March => {
            "Click a lit formation, then a lit hex to march to, or drag it there: the wheel while dragging leaves infantry behind (Shift: cavalry). Change what goes below for any other split (R69-R71)."
        }
        Phase::Melee => {
            "Click a lit formation, then the enemy to attack: strengths, row and odds show before the attack (R72-R75)."
        }
        Phase::Rally => "Click lit routers, then the formation to rally on (R79).",
    }
}

/// The battle's panel: the phase bar (the turn, the side to move and its
/// phase, End phase and Undo), the hand-over, what is owed and by whom,
/// the selection's choices with their odds, the last dice with their
/// table rows, the victory-point track (R81) and the log.
fn draw_battle_panel(
    mut contexts: EguiContexts,
    battle: Res<ActiveBattle>,
    mut seats: ResMut<crate::session::Seats>,
    choices: Res<BattleChoices>,
    pick: Res<BattlePick>,
    notice: Res<Notice>,
    mut inputs: MessageWriter<BattleInput>,
    mut undo: MessageWriter<UndoRequest>,
    mut start: MessageWriter<StartTurn>,
    mut typed: ResMut<TypedRolls>,
    mut width: ResMut<PanelWidth>,
    mut files: BattleButtons,
    mut ring: RingParts,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = &*battle.game;
    crate::hud::side_panel(ctx, "battle-panel", &mut width, |ui| {
        ui.heading(&battle.setup.name);
        let mut on = false;
        if ui
            .checkbox(&mut on, "Layout mode")
            .on_hover_text("the battle's map at its real size: rulers, measuring and the editor")
            .changed()
        {
            files.layout.write(crate::mode::SetLayoutMode::ON);
        }
        let side = game.active();
        // Before the table's phases, the ring's Orders phase and moves
        // (R47).
        let ring_waits = game.grid().is_some_and(|g| g.waits());
        ui.horizontal_wrapped(|ui| {
            ui.label(format!(
                "Turn {} of {}:",
                game.turn(),
                battle.setup.setup.turns
            ));
            if ring_waits {
                ui.label("the ring before the table (R47)");
            } else {
                ui.colored_label(side_colour(&battle, side), game.name(side));
                ui.label(format!("{:?} phase", game.phase()));
            }
        });
        let players: Vec<(String, egui::Color32)> = [Side(0), Side(1)]
            .into_iter()
            .map(|s| (game.name(s).to_owned(), side_colour(&battle, s)))
            .collect();
        if crate::hud::seat_chooser(ui, &players, &mut seats, files.files.served()) {
            files
                .new_game
                .write(crate::session::NewGameRequest::default());
        }
        if files.files.served().is_none() {
            files.bots.row(ui, &seats);
        }
        // The phase bar's buttons keep their place whatever is shown below.
        ui.horizontal(|ui| {
                let may_play = battle.handover.is_none() && choices.side.is_some();
                let end = ui.add_enabled(
                    may_play && choices.end_refused.is_none(),
                    egui::Button::new("End phase"),
                );
                let end = match &choices.end_refused {
                    Some(why) => end.on_disabled_hover_text(why),
                    None => end.on_hover_text("Enter"),
                };
                if end.clicked() {
                    inputs.write(BattleInput::Command(Command::End));
                }
                // The person still at the table may take back what handed
                // it over.
                if ui
                    .add_enabled(
                        may_play || battle.handover.is_some(),
                        egui::Button::new("Undo"),
                    )
                    .on_hover_text("U or Ctrl+Z: one command back, within the player turn and since the last roll (R31)")
                    .clicked()
                {
                    undo.write(UndoRequest);
                }
                if ui
                    .add_enabled(pick.from.is_some(), egui::Button::new("Let go"))
                    .on_hover_text("Escape or a right click")
                    .clicked()
                {
                    inputs.write(BattleInput::Cancel);
                }
                                let save = ui.add_enabled(files.files.served().is_none(), egui::Button::new("Save game")).on_disabled_hover_text("the server keeps a served game's record").on_hover_text(match &battle.file {
                    Some(file) => format!("to {}", file.display()),
                    None => "as a game record (.moves) beside the battle file".to_owned(),
                });
                if save.clicked() {
                    files.files.save.write(SaveRequest::own_file());
                }
                let thinking = files.hint.thinking();
                let hint = ui
                    .add_enabled(
                        may_play && !thinking,
                        egui::Button::new(if thinking { "Thinking..." } else { "Hint" }),
                    )
                    .on_hover_text(format!(
                        "what a bot of strength {} would play: selected, with its odds, for you to play or not",
                        crate::session::HINT_STRENGTH
                    ));
                if hint.clicked() {
                    files.hints.write(crate::session::HintRequest);
                }
            });
        if let Some(on) = crate::session::dice::real_dice_row(ui, &battle.dice, &mut typed) {
            inputs.write(BattleInput::RealDice(on));
        }
        crate::hud::notice_slot(ui, notice.text.as_deref().map(|t| (t, notice.error)));
        super::ring_panel::tick_controls(ui, &ring.show, &mut ring.ticks);
        ui.separator();
        if let Some((outcome, why)) = game.ending() {
            let words = match outcome {
                sandtable_warpspawn::Outcome::Won(s) => format!("{} wins", game.name(s)),
                sandtable_warpspawn::Outcome::Draw => "A draw".to_owned(),
            };
            ui.heading(words);
            ui.label(format!("{why:?}"));
        } else if let Some(next) = battle.handover.map(|s| Side(s.0 as u8)) {
            ui.label("Hand the table to");
            ui.colored_label(
                side_colour(&battle, next),
                egui::RichText::new(game.name(next)).heading(),
            );
            if let Some(step) = game.owed() {
                ui.label(format!("who owes a decision: {}", game.owed_words(step)));
            }
            if ui.button("Start turn").clicked() {
                start.write(StartTurn);
            }
        } else if let Some(decider) = choices.side {
            if let Some(step) = game.owed() {
                ui.colored_label(egui::Color32::GOLD, game.owed_words(step));
                ui.label(format!(
                        "{} decides: play one of the answers below, or click a lit hex to see only its own.",
                        game.name(decider)
                    ));
            } else if pick.from.is_none() && !ring_waits {
                ui.label(phase_hint(game.phase()));
            }
            // While the ring waits on the side, its part below is the
            // decision; the table's phases wait.
            if !ring_waits || game.owed().is_some() {
                choices_list(ui, game, &choices, &pick, &mut inputs);
            }
            super::ring_panel::ring_section(
                ui,
                &battle,
                Some(decider),
                &ring.pick,
                &pick,
                &mut ring.form,
                &mut ring.inputs,
                &mut inputs,
            );
        } else if let Some(decider) = game.decider() {
            if battle.outbox.is_some() {
                ui.label(format!("{} is deciding.", game.name(decider)));
            } else {
                ui.label(format!("{} (a bot) is thinking...", game.name(decider)));
            }
        }
        // The ring as the viewer sees it, when no decision of theirs is on
        // show above.
        if choices.side.is_none() || battle.handover.is_some() {
            super::ring_panel::ring_section(
                ui,
                &battle,
                None,
                &ring.pick,
                &pick,
                &mut ring.form,
                &mut ring.inputs,
                &mut inputs,
            );
        }
        ui.separator();
        ui.label(egui::RichText::new("Dice").strong());
        if battle.extra.rolls.is_empty() {
            ui.label("nothing rolled yet");
        }
        for roll in &battle.extra.rolls {
            ui.label(roll);
        }
        ui.separator();
        vp_track(ui, &battle);
        ui.separator();
        // Any file opens here: another battle, or a game of another
        // system, which then takes the table.
        files.files.open_row(ui, true, battle.file.as_deref());
        let sheet = crate::session::files::sheet_path(&battle.source);
        if ui
            .button("Print setup sheet (A4 PDF)")
            .on_hover_text(format!(
                "the hex map at 1:1 over several pages, with every piece listed, written to {}",
                sheet.display()
            ))
            .clicked()
        {
            inputs.write(BattleInput::PrintSheet);
        }
        ui.separator();
        ui.label(egui::RichText::new("Log").strong());
        crate::hud::log_view(ui, "battle-log", &battle.log, battle.viewer);
    });
    Ok(())
}

/// The ring's selection, its forms and its inputs, for the panel.
#[derive(bevy::ecs::system::SystemParam)]
struct RingParts<'w> {
    pick: Res<'w, super::ring_play::RingPick>,
    form: ResMut<'w, super::ring_panel::RingForm>,
    inputs: MessageWriter<'w, super::ring_play::RingInput>,
    show: Res<'w, super::ring::TickShow>,
    ticks: MessageWriter<'w, super::ring::TickInput>,
}

/// The battle panel's files (Save game, Open, Save game as), its Hint
/// button, and the dialog on show (unsaved moves on quitting or opening
/// another file, another game's record to replace).
#[derive(bevy::ecs::system::SystemParam)]
struct BattleButtons<'w> {
    files: crate::hud::FilePanel<'w>,
    layout: MessageWriter<'w, crate::mode::SetLayoutMode>,
    hint: Res<'w, super::play::BattleHint>,
    hints: MessageWriter<'w, crate::session::HintRequest>,
    new_game: MessageWriter<'w, crate::session::NewGameRequest>,
    bots: crate::hud::BotControls<'w>,
}

/// Each side's victory points (R81) as a bar against the larger of the two.
fn vp_track(ui: &mut egui::Ui, battle: &ActiveBattle) {
    let game = &*battle.game;
    ui.label(egui::RichText::new("Victory points (R81)").strong());
    let most = game.vp(Side(0)).max(game.vp(Side(1))).max(1);
    for s in [Side(0), Side(1)] {
        ui.horizontal(|ui| {
            ui.colored_label(side_colour(battle, s), format!("{:>8}", game.name(s)));
            let vp = game.vp(s);
            ui.add(
                egui::ProgressBar::new(vp as f32 / most as f32)
                    .desired_width(150.0)
                    .fill(side_colour(battle, s))
                    .text(vp.to_string()),
            );
        });
    }
}

/// The height the battle panel keeps below the choices' list: the dice,
/// the victory points, the files and five rows of the log, in points.
const BELOW_CHOICES: f32 = 330.0;

/// The choices for the selection, each with its odds and a button; for a
/// march, what goes (a split).
fn choices_list(
    ui: &mut egui::Ui,
    game: &sandtable_warpspawn::Game,
    choices: &BattleChoices,
    pick: &BattlePick,
    inputs: &mut MessageWriter<BattleInput>,
) {
    if let Some(from) = pick.from {
        let what = match pick.to {
            Some(to) => format!("{from} to {to}"),
            None if choices.targets.is_empty() => format!("{from}: choose below"),
            None if choices.targets.iter().all(|t| t.march) => {
                format!(
                    "{from}: click a lit hex ({} lit); each says how many hexes the march goes",
                    choices.targets.len()
                )
            }
            None => format!("{from}: click a lit hex ({} lit)", choices.targets.len()),
        };
        ui.label(egui::RichText::new(what).strong());
    }
    // A march's split: what goes, from what the hex holds.
    if let (Some(from), Some(_)) = (pick.from, pick.to)
        && let Some(first) = choices.choices.first()
        && let Command::March { .. } = first.command
        && let Some(st) = game.stack(from, game.active())
    {
        let mut split = pick
            .split
            .or_else(|| march_pick(game, &first.listed.command))
            .unwrap_or_default();
        let before = split;
        ui.label("What goes:");
        ui.horizontal_wrapped(|ui| {
            ui.label("inf");
            ui.add(egui::DragValue::new(&mut split.men.inf).range(0..=st.armed.men.inf));
            ui.label("cav");
            ui.add(egui::DragValue::new(&mut split.men.cav).range(0..=st.armed.men.cav));
            if st.armed.officers > 0 {
                ui.label("officers");
                ui.add(egui::DragValue::new(&mut split.officers).range(0..=st.armed.officers));
            }
            if st.cannon {
                ui.checkbox(&mut split.cannon, "cannon");
            }
            if st.baggage {
                ui.checkbox(&mut split.baggage, "baggage");
            }
            if st.flags > 0 {
                ui.checkbox(&mut split.flag, "flag");
            }
            if st.prisoners.heads() > 0 {
                ui.label("prisoners");
                ui.add(egui::DragValue::new(&mut split.prisoners).range(0..=st.prisoners.heads()));
            }
            if st.unarmed.heads() > 0 {
                ui.label("unarmed");
                ui.add(egui::DragValue::new(&mut split.unarmed).range(0..=st.unarmed.heads()));
            }
        });
        if split != before {
            inputs.write(BattleInput::Split(split));
        }
    }
    // The list scrolls in what the panel can spare, so that the dice, the
    // points, the files and the log's newest lines below it stay in the
    // window, 720 pixels high included.
    let room = (ui.available_height() - BELOW_CHOICES).clamp(80.0, 260.0);
    egui::ScrollArea::vertical()
        .id_salt("battle-choices")
        .max_height(room)
        .show(ui, |ui| {
            for (index, choice) in choices.choices.iter().enumerate() {
                ui.group(|ui| {
                    ui.horizontal(|ui| {
                        let play =
                            ui.add_enabled(choice.refused.is_none(), egui::Button::new("Play"));
                        if play.clicked() {
                            inputs.write(BattleInput::Play(index));
                        }
                        ui.monospace(choice.command.to_string());
                    });
                    if let Some(why) = &choice.refused {
                        ui.colored_label(egui::Color32::from_rgb(255, 120, 110), why);
                    }
                    if let Some(behind) = &choice.left_behind {
                        ui.colored_label(egui::Color32::from_rgb(255, 190, 80), behind);
                    }
                    if let Some(plan) = &choice.fire {
                        ui.small(format!(
                            "{} fire at {} hex{} (R66); {} men in the target",
                            if plan.direct { "direct" } else { "indirect" },
                            plan.range,
                            if plan.range == 1 { "" } else { "es" },
                            plan.target_men
                        ));
                    }
                    if let Some(plan) = &choice.attack {
                        ui.small(format!(
                            "{} attack {} (strength {} against {}): row {} (R73, R74)",
                            plan.attackers,
                            plan.defenders,
                            f64::from(plan.attack2) / 2.0,
                            f64::from(plan.defence2) / 2.0,
                            sandtable_warpspawn::MeleeRows::NAMES[plan.row]
                        ));
                    }
                    if let Command::Rally { routers, with } = choice.command {
                        for (what, m) in game.rally_modifiers(routers, with) {
                            ui.small(format!("{what} {m:+}"));
                        }
                    }
                    for odds in &choice.odds {
                        ui.small(&odds.what);
                        for (outcome, chance) in &odds.outcomes {
                            ui.horizontal(|ui| {
                                ui.add(
                                    egui::ProgressBar::new(chance.value() as f32)
                                        .desired_width(60.0),
                                );
                                ui.add(
                                    egui::Label::new(
                                        egui::RichText::new(format!("{outcome}: {chance}")).small(),
                                    )
                                    .wrap(),
                                );
                            });
                        }
                    }
                });
            }
            if choices.choices.is_empty() && pick.to.is_none() && pick.from.is_none() {
                let movers = choices.movers.len();
                ui.small(format!(
                    "{movers} lit hex{} may act; {}",
                    if movers == 1 { "" } else { "es" },
                    if choices.end_refused.is_none() {
                        "or End phase"
                    } else {
                        "the phase may not end yet"
                    }
                ));
            }
        });
}

/// The ring's entities and selection, for the labels.
#[derive(bevy::ecs::system::SystemParam)]
struct RingLabels<'w, 's> {
    tiles: Query<'w, 's, (&'static super::ring::RingTile, &'static Transform)>,
    tokens: Query<'w, 's, (&'static super::ring::CounterToken, &'static Transform)>,
    trays: Query<'w, 's, (&'static super::ring::ReserveTray, &'static Transform)>,
    pick: Res<'w, super::ring_play::RingPick>,
}

/// Each formation's men ("16 inf", "8 cav") and each piece's count over it.
fn label_battle(
    mut contexts: EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    formations: Query<(&Formation, &Transform)>,
    pieces: Query<(&BattlePiece, &Transform)>,
    battle: Res<ActiveBattle>,
    hovered: Res<crate::picking::Hovered>,
    choices: Res<BattleChoices>,
    pick: Res<BattlePick>,
    ring: RingLabels,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    label_pieces(&labels, &formations, &pieces);
    super::ring_panel::label_ring(
        &labels,
        &battle,
        &ring.tiles,
        &ring.tokens,
        &ring.trays,
        &ring.pick,
    );
    let map = battle.game.battle().map;
    label_edges(&labels, map);
    // What each lit hex offers the selection: a march's length, a shot's
    // expected casualties, a melee's row.
    if pick.to.is_none() {
        for t in &choices.targets {
            if let Some(p) = labels.screen(super::hex_center(map, t.hex) + Vec3::Y * 0.1)
                && !t.label.is_empty()
            {
                labels.boxed(
                    p,
                    t.label.clone(),
                    13.0,
                    egui::Color32::from_rgba_unmultiplied(20, 60, 140, 220),
                );
            }
        }
    }
    // The line of fire of the shot on show: straight for direct fire, an
    // arc over what is between for indirect fire (R66).
    if let Some(plan) = choices.choices.iter().find_map(|c| c.fire.as_ref()) {
        let a = super::hex_center(map, plan.cannon) + Vec3::Y * 0.15;
        let b = super::hex_center(map, plan.target) + Vec3::Y * 0.15;
        let rise = if plan.direct {
            0.0
        } else {
            0.35 * a.distance(b)
        };
        let points: Vec<egui::Pos2> = (0..=24)
            .filter_map(|i| {
                let t = i as f32 / 24.0;
                labels.screen(a.lerp(b, t) + Vec3::Y * rise * 4.0 * t * (1.0 - t))
            })
            .collect();
        let colour = egui::Color32::from_rgb(255, 80, 40);
        labels.line(points, colour);
    }
    // What the hovered square of the ring holds, as the viewer may know
    // it (R46, R55, R57).
    if let Some(spot) = hovered.0
        && sandtable_warpspawn::offboard::ring::Square::from_spot(spot).is_some()
    {
        labels.pointer_bar(battle.describe(spot).unwrap_or_default());
    }
    // What the hovered hex holds, after what the selection would do there.
    if let Some(hex) = super::table::hovered_hex(&hovered) {
        let holds = battle.describe(hex.spot()).unwrap_or_default();
        let doing = choices
            .targets
            .iter()
            .find(|t| pick.to.is_none() && t.hex == hex && !t.words.is_empty());
        labels.pointer_bar(match doing {
            Some(t) => format!("{}. {holds}", t.words),
            None => holds,
        });
    }
    Ok(())
}

/// The hexes' names along the map's near and left edges, as the Cache
/// board has its letters and numbers: a column's letter below its first
/// hex, a row's number left of it; every few on a large map.
fn label_edges(labels: &TableLabels, map: sandtable_warpspawn::Map) {
    let colour = egui::Color32::from_rgb(240, 230, 200);
    let every = |n: u16| usize::from(n.div_ceil(30).max(1));
    // Map sides are at most 100 hexes (R60): each fits a hex's byte.
    for col in (0..map.columns).step_by(every(map.columns)) {
        let Ok(col) = u8::try_from(col) else { break };
        let hex = Hex::new(col, 0);
        // In one line below the lowest hexes, though odd columns stand half
        // a hex higher.
        let near = super::hex_center(map, Hex::new(0, 0)).z + 0.8 * super::HEX;
        let at = super::hex_center(map, hex).with_z(near);
        if let Some(p) = labels.screen(at) {
            let name = hex.to_string();
            labels.text(
                p,
                name.trim_end_matches(|c: char| c.is_ascii_digit()),
                13.0,
                colour,
            );
        }
    }
    for row in (0..map.rows).step_by(every(map.rows)) {
        let Ok(row) = u8::try_from(row) else { break };
        let at = super::hex_center(map, Hex::new(0, row)) - Vec3::new(0.8 * super::HEX, 0.0, 0.0);
        if let Some(p) = labels.screen(at) {
            labels.text(p, &(u16::from(row) + 1).to_string(), 13.0, colour);
        }
    }
}

/// The count of men on each formation and of each piece that stands for
/// more than one, above it on the table: in play and in layout mode alike.
pub(crate) fn label_pieces(
    labels: &TableLabels,
    formations: &Query<(&Formation, &Transform)>,
    pieces: &Query<(&BattlePiece, &Transform)>,
) {
    for (f, at) in formations {
        let words = match (f.infantry, f.cavalry) {
            (i, 0) => format!("{i} inf"),
            (0, c) => format!("{c} cav"),
            (i, c) => format!("{i} inf {c} cav"),
        };
        // At the hex's far side, clear of the figures.
        if let Some(p) = labels.screen(at.translation + Vec3::new(0.0, 0.05, -0.5)) {
            labels.boxed(p, words, 12.5, egui::Color32::from_black_alpha(170));
        }
    }
    // A hex of officers, a cannon, baggage or a flag without armed men is
    // labelled as a formation is, so that it is not missed.
    let armed: std::collections::HashSet<_> =
        formations.iter().map(|(f, _)| (f.hex, f.side)).collect();
    let lone = |piece: &BattlePiece| !armed.contains(&(piece.hex, piece.side));
    for (piece, at) in pieces {
        let words = match piece.slot {
            Slot::Officer if piece.count > 1 => format!("{} officers", piece.count),
            Slot::Officer if lone(piece) => "officer".to_owned(),
            Slot::Cannon if lone(piece) => "cannon".to_owned(),
            Slot::Baggage if lone(piece) => "baggage".to_owned(),
            Slot::Flag if lone(piece) => "flag".to_owned(),
            Slot::Routers => format!("{} routing", piece.count),
            Slot::Prisoners if piece.count == 1 => "1 prisoner".to_owned(),
            Slot::Prisoners => format!("{} prisoners", piece.count),
            Slot::Unarmed => format!("{} unarmed", piece.count),
            _ => continue,
        };
        if let Some(p) = labels.screen(at.translation + Vec3::Y * 0.2) {
            labels.boxed(p, words, 12.5, egui::Color32::from_black_alpha(170));
        }
    }
}
