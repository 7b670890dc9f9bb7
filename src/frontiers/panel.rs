//! The skirmish's panel and labels: the turn and whose decision it is,
//! each side's seat, AP destroyed against the goal, the hand and deck as
//! the viewer may know them (R149), the command line with the legal
//! commands that fit what is typed, Undo and Save, the dice and the log;
//! over the table, each unit's id and its markers as the viewer sees them.

use bevy::prelude::*;
use bevy_egui::{EguiContexts, egui};
use sandtable_core::game::Viewer;
use sandtable_frontiers::viewer_side;

use super::play::{SkirmishInput, person_legal};
use super::table::{ActiveSkirmish, UnitPiece};
use crate::hud::{HudStage, PanelWidth, TableLabels};
use crate::session::{Notice, SaveRequest, UndoRequest};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<CommandLine>().add_systems(
        bevy_egui::EguiPrimaryContextPass,
        (
            draw_skirmish_panel.in_set(HudStage::Panels),
            label_skirmish.in_set(HudStage::Labels),
        )
            .distributive_run_if(resource_exists::<ActiveSkirmish>)
            .distributive_run_if(in_state(crate::mode::Mode::Play))
            .distributive_run_if(crate::hud::curtain_down::<super::table::Frontiers>),
    );
    crate::hud::add_curtain::<super::table::Frontiers>(app);
}

/// What is typed on the panel's command line.
#[derive(Resource, Debug, Default, Clone, PartialEq, Eq)]
pub struct CommandLine(pub String);

/// The lines of the panel's state as the viewer may read them: the turn,
/// the phase, AP destroyed, the goal, and each side's cards (the
/// viewer's own hand, of the other only the sizes and discards, R149).
pub fn state_lines(active: &ActiveSkirmish) -> Vec<String> {
    let game = active.game.game();
    let viewer = viewer_side(active.viewer);
    let setup = game.setup();
    // Over, the outcome first (R145-R148); else the turn and its phase.
    let first = match game.ending() {
        Some(sandtable_core::game::Ending::Won(s)) => format!(
            "Over after turn {}: {} won",
            game.turn_number(),
            setup.sides[s.index()].name
        ),
        Some(sandtable_core::game::Ending::Draw(why)) => {
            format!("Over after turn {}: a draw, {why}", game.turn_number())
        }
        None => format!(
            "Turn {} of {}: {}",
            game.turn_number(),
            setup.turns,
            game.phase_words()
        ),
    };
    let mut lines = vec![first];
    // Who destroyed what: each side's AP of the other's units (R145).
    lines.push(format!(
        "{} (R145)",
        sandtable_frontiers::text::destroyed_words(
            [&setup.sides[0].name, &setup.sides[1].name],
            game.ap_destroyed()
        )
    ));
    lines.push(goal_line(game));
    for side in 0..2u8 {
        lines.push(sandtable_frontiers::text::cards_line(game, side, viewer));
    }
    lines
}

/// What the decision owed now asks of the person at the table, in a line:
/// what to click or pick, by the turn's phase (R105-R112, R132, R146).
pub fn decision_hint(game: &sandtable_frontiers::Game) -> &'static str {
    use sandtable_frontiers::flow::Phase;
    if game.ending().is_some() {
        return "The skirmish is over: save it, or start a new game.";
    }
    match game.flow().phase {
        Phase::Deploy(_) => {
            "Click where the unit waiting to deploy stands, touching your edge (R146); the list below names it."
        }
        Phase::Prepare(_) => {
            "Your Preparation: discard cards from your hand below, or keep it (R105)."
        }
        Phase::Order => {
            "Lay your order markers: click your units in the order they act, then seal them below (R106, R107)."
        }
        Phase::Name(_) => {
            "Name the action of the unit whose marker turned up, on the table by it or by a key: M move, F shoot, C card, X special (R110)."
        }
        Phase::Window => {
            "A card window is open: play a card of it from your hand, or pass with P (R132)."
        }
        Phase::Act | Phase::Shots | Phase::Reserve(_) => {
            "Click one of your units that may act (the only one is picked for you), then where it moves or an enemy to shoot at: what it would play shows first. Its other choices are on the table by it; P passes."
        }
    }
}

/// What the Preparation's button plays: the cards clicked in the hand
/// discarded, none to keep it (R105).
pub fn discard_input(cards: &[&str]) -> SkirmishInput {
    SkirmishInput::Text(
        std::iter::once("discard")
            .chain(cards.iter().copied())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The crates as the viewer may know them (R143, R149), a line each.
pub fn crate_lines(active: &ActiveSkirmish) -> Vec<String> {
    let game = active.game.game();
    let viewer = viewer_side(active.viewer);
    game.crates()
        .iter()
        .enumerate()
        .map(|(k, c)| sandtable_frontiers::text::crate_line(game, k, c, viewer))
        .collect()
}

/// How the skirmish is won, and how far each side is from it (R145-R148).
pub fn goal_line(game: &sandtable_frontiers::Game) -> String {
    use sandtable_frontiers::setup::Victory;
    let setup = game.setup();
    let name = |s: usize| setup.sides[s].name.as_str();
    let ap = game.ap_destroyed();
    match setup.victory {
        Victory::Skirmish => format!("Goal: more AP destroyed after turn {} (R145)", setup.turns),
        Victory::Confrontation => {
            // 80% of the enemy list, in whole AP (R146).
            let list = |s: u8| -> u32 {
                game.units()
                    .iter()
                    .filter(|u| u.side == s)
                    .map(|u| u32::from(u.data.ap))
                    .sum()
            };
            let need = |s: u8| (list(1 - s) * 4).div_ceil(5);
            format!(
                "Goal: 80% of the enemy list (R146): {} {} of {}, {} {} of {}",
                name(0),
                ap[0],
                need(0),
                name(1),
                ap[1],
                need(1)
            )
        }
        Victory::TreasureHunt => {
            let b = game.banked();
            format!(
                "Goal: the most crates banked (R148): {} {}, {} {}; then AP destroyed",
                name(0),
                b[0],
                name(1),
                b[1]
            )
        }
        Victory::AttackDefense => format!(
            "Goal: {} ends a turn over all {} objectives, and loses below 3 units or after turn {} (R148)",
            name(usize::from(setup.attacker.min(1))),
            setup.objectives.len(),
            setup.turns
        ),
        Victory::DataRecovery => format!(
            "Goal: end a turn carrying the diskette onto the teleprinter{} (R147)",
            setup
                .teleprinter
                .map(|(e, k)| format!(" ({})", game.space_name(e, k)))
                .unwrap_or_default()
        ),
        Victory::Cameron => format!(
            "Goal: {} destroys every defender; {} holds to the end of turn {} (R148)",
            name(usize::from(setup.attacker.min(1))),
            name(usize::from(1 - setup.attacker.min(1))),
            setup.turns
        ),
    }
}

/// The label over unit `i` as `viewer` (`None`: the referee) may read
/// it: its id and its markers (another side's face-down markers without
/// their numbers, R149), and the markers the person is laying on it.
pub fn unit_label(
    game: &sandtable_frontiers::Game,
    i: usize,
    viewer: Option<u8>,
    draft: &super::hand::OrdersDraft,
) -> String {
    let tag = game.units()[i].tag;
    let mut words = tag.to_string();
    for m in sandtable_frontiers::text::markers_words(game, i, viewer) {
        words.push_str(", ");
        words.push_str(&m);
    }
    for (k, (t, _)) in draft.0.iter().enumerate() {
        if *t == tag {
            words.push_str(&format!(", laying {}", k + 1));
        }
    }
    words
}

/// The ways of playing the card `id` now among the legal `commands`
/// (`card aim T1`, `card aim T2` ...; R132).
pub fn card_ways<'a>(commands: &'a [String], id: &str) -> Vec<&'a String> {
    let prefix = format!("card {id}");
    commands
        .iter()
        .filter(|c| **c == prefix || c.starts_with(&format!("{prefix} ")))
        .collect()
}

/// The legal commands that fit what is typed (each word a prefix of the
/// command's), at most `most`.
pub fn fitting(legal: &[String], typed: &str, most: usize) -> Vec<String> {
    let words: Vec<&str> = typed.split_whitespace().collect();
    legal
        .iter()
        .filter(|c| {
            let theirs: Vec<&str> = c.split_whitespace().collect();
            words
                .iter()
                .enumerate()
                .all(|(k, w)| theirs.get(k).is_some_and(|t| t.starts_with(w)))
        })
        .take(most)
        .cloned()
        .collect()
}

/// What a game, revision, hand-over, viewer and seats the list was made
/// for.
type ListedFor = (
    u64,
    u64,
    Option<sandtable_core::game::Seat>,
    Viewer,
    Vec<crate::session::Seat>,
);

/// The person's legal commands in the notation, worked out again only
/// when the game, the hand-over or the seats change (the list of a
/// skirmish traces lines of sight: not a thing to do every frame).
struct Listed {
    seen: Option<ListedFor>,
    /// The seat a person decides for and its commands, or why no person
    /// may play now.
    legal: Result<(sandtable_core::game::Seat, Vec<String>), String>,
    /// Whether that decision is the seat's sealed orders.
    orders: bool,
}

impl Default for Listed {
    fn default() -> Self {
        Listed {
            seen: None,
            legal: Err(String::new()),
            orders: false,
        }
    }
}

impl Listed {
    fn of(active: &ActiveSkirmish, seats: &crate::session::Seats, key: ListedFor) -> Listed {
        let legal = person_legal(active, seats)
            .map(|(seat, list)| (seat, list.iter().map(|l| l.command.to_string()).collect()));
        let orders = legal.as_ref().is_ok_and(|(_, list): &(_, Vec<String>)| {
            list.iter().any(|c| c.starts_with("orders "))
        });
        Listed {
            seen: Some(key),
            legal,
            orders,
        }
    }
}

#[derive(bevy::ecs::system::SystemParam)]
struct SkirmishButtons<'w> {
    files: crate::hud::FilePanel<'w>,
    undo: MessageWriter<'w, UndoRequest>,
    inputs: MessageWriter<'w, SkirmishInput>,
    hints: MessageWriter<'w, crate::session::HintRequest>,
    new_game: MessageWriter<'w, crate::session::NewGameRequest>,
    layout: MessageWriter<'w, crate::mode::SetLayoutMode>,
    bots: crate::hud::BotControls<'w>,
}

/// The skirmish's panel.
fn draw_skirmish_panel(
    mut contexts: EguiContexts,
    skirmish: Res<ActiveSkirmish>,
    mut seats: ResMut<crate::session::Seats>,
    shown: Res<crate::table::TableShown>,
    notice: Res<Notice>,
    mut line: ResMut<CommandLine>,
    mut width: ResMut<PanelWidth>,
    mut buttons: SkirmishButtons,
    pick: Res<super::hand::SkirmishPick>,
    draft: Res<super::hand::OrdersDraft>,
    mut listed: Local<Listed>,
    hint: Res<super::play::SkirmishHint>,
    mut typed: ResMut<crate::session::dice::TypedRolls>,
    mut auto_pass: ResMut<super::play::AutoPass>,
    // The cards of the hand marked for discarding, by place, and the
    // game and position they were marked in.
    mut discards: Local<((u64, u64), Vec<usize>)>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let game = skirmish.game.game();
    let setup = game.setup();
    crate::hud::side_panel(ctx, "skirmish-panel", &mut width, |ui| {
        // Everything above the log scrolls, so that at 1280 x 720 the log
        // keeps its room at the bottom whatever the panel holds.
        let above = (ui.available_height() - LOG_ROOM).max(LOG_ROOM);
        egui::ScrollArea::vertical()
            .id_salt("skirmish-panel-scroll")
            .max_height(above)
            .show(ui, |ui| {
                ui.heading(&skirmish.setup.name);
                let mut on = false;
                if ui
                    .checkbox(&mut on, "Layout mode")
                    .on_hover_text(
                        "the table at its real size: terrain, buildings, units, crates and objectives edited, checked, saved and printed",
                    )
                    .changed()
                {
                    buttons.layout.write(crate::mode::SetLayoutMode::ON);
                }
                let players: Vec<(String, egui::Color32)> = setup
                    .sides
                    .iter()
                    .enumerate()
                    .map(|(s, side)| {
                        let [r, g, b, _] = crate::table::side_colour(&shown, s as u8)
                            .to_srgba()
                            .to_u8_array();
                        (side.name.clone(), egui::Color32::from_rgb(r, g, b))
                    })
                    .collect();
                if crate::hud::seat_chooser(ui, &players, &mut seats, buttons.files.served()) {
                    buttons
                        .new_game
                        .write(crate::session::NewGameRequest::default());
                }
                if buttons.files.served().is_none() {
                    buttons.bots.row(ui, &seats);
                }
                ui.label(match skirmish.viewer {
                    Viewer::Referee => "You see everything (the referee's view).".to_owned(),
                    Viewer::Player(s) => format!(
                        "You see as {}: the other side's hand and marker numbers are hidden (R149).",
                        setup.sides[s.index().min(1)].name
                    ),
                    Viewer::Public => {
                        "You see what both sides see: no hand, no face-down marker (R149).".to_owned()
                    }
                });
                for (k, l) in state_lines(&skirmish).into_iter().enumerate() {
                    // The outcome stands out once the skirmish is over.
                    if k == 0 && game.ending().is_some() {
                        ui.heading(l);
                    } else {
                        ui.label(l);
                    }
                }
                let crates = crate_lines(&skirmish);
                if !crates.is_empty() {
                    egui::CollapsingHeader::new(format!("Crates ({})", crates.len()))
                        .id_salt("skirmish-crates")
                        .show(ui, |ui| {
                            for l in crates {
                                ui.label(egui::RichText::new(l).small());
                            }
                        });
                }
                ui.separator();
                ui.label(egui::RichText::new(decision_hint(game)).small());
                let key = (
                    skirmish.id,
                    skirmish.revision,
                    skirmish.handover,
                    skirmish.viewer,
                    seats.0.clone(),
                );
                if listed.seen.as_ref() != Some(&key) {
                    *listed = Listed::of(&skirmish, &seats, key);
                }
                let legal = &listed.legal;
                // Deployment: the units waiting, one chosen to go where the table
                // is clicked (R146).
                if let Ok((_, list)) = legal
                    && super::hand::deploying(game)
                {
                    let waiting: Vec<String> = list
                        .iter()
                        .filter_map(|c| c.strip_prefix("deploy "))
                        .filter_map(|c| c.split_whitespace().next())
                        .map(str::to_owned)
                        .collect();
                    if !waiting.is_empty() {
                        ui.label(egui::RichText::new("Deployment (R146)").strong());
                        ui.label("Choose a unit, then click where it stands:");
                        ui.horizontal_wrapped(|ui| {
                            for (k, tag) in waiting.iter().enumerate() {
                                let Some(i) = sandtable_frontiers::Tag::new(tag).and_then(|t| game.find(t))
                                else {
                                    continue;
                                };
                                let chosen = pick.unit == Some(i) || (k == 0 && pick.unit.is_none());
                                if ui.selectable_label(chosen, tag).clicked() {
                                    buttons.inputs.write(SkirmishInput::Choose(i));
                                }
                            }
                        });
                    }
                }
                // The Order phase: markers laid by clicking units, then sealed.
                if let Ok((seat, _)) = legal
                    && listed.orders
                {
                    let side = seat.index().min(1) as u8;
                    ui.label(egui::RichText::new("Orders (R106, R107)").strong());
                    ui.label(format!(
                        "Click your units in the order they act: {} of {} numbered markers laid{}; the {} decoys go on the first places left.",
                        draft.0.len(),
                        game.markers_owed(side),
                        if draft.0.is_empty() {
                            String::new()
                        } else {
                            format!(" ({})", draft.words())
                        },
                        sandtable_frontiers::army::DECOYS
                    ));
                    ui.horizontal(|ui| {
                        if ui.button("Seal orders").clicked() {
                            buttons.inputs.write(SkirmishInput::SealOrders);
                        }
                        if ui
                            .add_enabled(!draft.0.is_empty(), egui::Button::new("Clear"))
                            .clicked()
                        {
                            buttons.inputs.write(SkirmishInput::ClearOrders);
                        }
                    });
                }
                let commands: &[String] = match legal {
                    Ok((_, list)) => list,
                    Err(_) => &[],
                };
                if let Err(why) = legal {
                    ui.label(why);
                }
                // The person's hand, a button a card: a card with one way to play
                // it now is played; one with several puts `card <id>` on the line,
                // and the list below offers its ways (R132).
                if let Ok((seat, _)) = legal {
                    let own = &game.flow().cards[seat.index().min(1)].hand;
                    // The Preparation: the cards clicked are the ones
                    // discarded (R105), a button plays it.
                    let preparing = matches!(
                        game.flow().phase,
                        sandtable_frontiers::flow::Phase::Prepare(s) if usize::from(s) == seat.index()
                    );
                    let at = (skirmish.id, skirmish.revision);
                    if discards.0 != at {
                        *discards = (at, Vec::new());
                    }
                    if preparing {
                        let ids = sandtable_frontiers::turn::card_ids(own);
                        ui.horizontal_wrapped(|ui| {
                            ui.label("Your hand, click to discard:");
                            for (k, id) in ids.iter().enumerate() {
                                let chosen = discards.1.contains(&k);
                                if ui
                                    .selectable_label(chosen, *id)
                                    .on_hover_text("discarded at the end of the Preparation, and replaced from the deck (R105)")
                                    .clicked()
                                {
                                    if chosen {
                                        discards.1.retain(|c| *c != k);
                                    } else if discards.1.len() < sandtable_frontiers::command::MAX_DISCARD {
                                        discards.1.push(k);
                                    }
                                }
                            }
                        });
                        let words: Vec<&str> = discards.1.iter().filter_map(|k| ids.get(*k).copied()).collect();
                        let label = if words.is_empty() {
                            "Keep my hand".to_owned()
                        } else {
                            format!("Discard {}", words.join(", "))
                        };
                        if ui.button(label).clicked() {
                            buttons.inputs.write(discard_input(&words));
                            discards.1.clear();
                        }
                    } else if !own.is_empty() {
                        ui.horizontal_wrapped(|ui| {
                            ui.label("Your hand:");
                            for id in sandtable_frontiers::turn::card_ids(own) {
                                let prefix = format!("card {id}");
                                let ways = card_ways(commands, id);
                                let button = ui
                                    .add_enabled(!ways.is_empty(), egui::Button::new(id))
                                    .on_disabled_hover_text("not playable now: not its window (R132)");
                                if button.clicked() {
                                    // Its ways offered on the table; a
                                    // way that lies at a point waits for
                                    // the click there (R152).
                                    let parsed: Vec<sandtable_frontiers::Command> =
                                        ways.iter().filter_map(|w| w.parse().ok()).collect();
                                    match parsed.as_slice() {
                                        [] => line.0 = format!("{prefix} "),
                                        [one @ sandtable_frontiers::Command::Card { at: Some(_), .. }] => {
                                            buttons.inputs.write(SkirmishInput::Place(*one));
                                        }
                                        [one] => {
                                            buttons.inputs.write(SkirmishInput::Command(*one));
                                        }
                                        _ => {
                                            buttons.inputs.write(SkirmishInput::Offer(parsed));
                                        }
                                    }
                                }
                            }
                        });
                    }
                }
                let mut enter = false;
                ui.horizontal(|ui| {
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut line.0)
                            .hint_text("a command, as move T1 150,90")
                            .desired_width(230.0),
                    );
                    enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    if ui
                        .add_enabled(legal.is_ok(), egui::Button::new("Play"))
                        .clicked()
                    {
                        enter = true;
                    }
                });
                if enter && !line.0.trim().is_empty() {
                    buttons
                        .inputs
                        .write(SkirmishInput::Text(std::mem::take(&mut line.0)));
                }
                ui.horizontal(|ui| {
                    if ui
                        .button("Undo")
                        .on_hover_text("U or Ctrl+Z: one command back, to the last reveal or roll (R31)")
                        .clicked()
                    {
                        buttons.undo.write(UndoRequest);
                    }
                    if ui
                        .add_enabled(buttons.files.served().is_none(), egui::Button::new("Save"))
                        .on_disabled_hover_text("the server keeps a served game's record")
                        .clicked()
                    {
                        buttons.files.save.write(SaveRequest::own_file());
                    }
                    if ui
                        .add_enabled(legal.is_ok(), egui::Button::new("Hint"))
                        .on_hover_text("the command a bot would play, from what you see")
                        .clicked()
                    {
                        buttons.hints.write(crate::session::HintRequest);
                    }
                    if let Some(command) = hint.for_game(&skirmish)
                        && ui
                            .button("Play the hint")
                            .on_hover_text(command.to_string())
                            .clicked()
                    {
                        buttons.inputs.write(SkirmishInput::Command(command));
                    }
                    if ui
                        .add_enabled(pick.unit.is_some(), egui::Button::new("Let go"))
                        .on_hover_text("Escape: let go of the selected unit")
                        .clicked()
                    {
                        buttons.inputs.write(SkirmishInput::Cancel);
                    }
                });
                if let Some(on) = crate::session::dice::real_dice_row(ui, &skirmish.dice, &mut typed) {
                    buttons.inputs.write(SkirmishInput::RealDice(on));
                }
                ui.checkbox(&mut auto_pass.0, "Pass a card window with no card to play")
                    .on_hover_text(
                        "a Step, Shot or Hit window you may play no card of passes by itself, said in your own log only (R132, R149)",
                    );
                crate::hud::notice_slot(ui, notice.text.as_deref().map(|t| (t, notice.error)));
                if !commands.is_empty() {
                    ui.label(
                        egui::RichText::new(format!(
                            "{} legal command{}; those fitting what is typed (a move's end, a drop's point: type your own):",
                            commands.len(),
                            if commands.len() == 1 { "" } else { "s" }
                        ))
                        .small(),
                    );
                    egui::ScrollArea::vertical()
                        .id_salt("skirmish-legal")
                        .max_height(150.0)
                        .show(ui, |ui| {
                            for c in fitting(commands, &line.0, 40) {
                                if ui
                                    .add(egui::Button::new(egui::RichText::new(&c).monospace()).small())
                                    .clicked()
                                {
                                    match c.parse() {
                                        Ok(command) => {
                                            buttons.inputs.write(SkirmishInput::Command(command));
                                        }
                                        Err(_) => line.0 = c.clone(),
                                    }
                                }
                            }
                        });
                }
                if !skirmish.extra.rolls.is_empty() {
                    ui.label(egui::RichText::new("Dice").strong());
                    for r in &skirmish.extra.rolls {
                        ui.label(egui::RichText::new(r).small());
                    }
                }
                buttons.files.open_row(ui, true, skirmish.file.as_deref());
                let sheet = crate::session::files::sheet_path(&skirmish.source);
                if ui
                    .button("Print setup sheet (A4 PDF)")
                    .on_hover_text(format!(
                        "the table at 1:1 over several pages, every piece listed, and the play aids at true size, written to {}",
                        sheet.display()
                    ))
                    .clicked()
                {
                    buttons.inputs.write(SkirmishInput::PrintSheet);
                }
            });
        ui.separator();
        crate::hud::log_view(ui, "skirmish-log", &skirmish.log, skirmish.viewer);
    });
    Ok(())
}

/// The least height the log keeps at the panel's bottom, in logical
/// pixels: what is above it scrolls instead.
const LOG_ROOM: f32 = 160.0;

/// Each unit's id over it, and its markers as the viewer sees them
/// (numbers of the other side's face-down markers hidden, R149).
fn label_skirmish(
    mut contexts: EguiContexts,
    camera: Query<(&Camera, &GlobalTransform), Without<bevy_egui::PrimaryEguiContext>>,
    units: Query<(&UnitPiece, &Transform)>,
    skirmish: Res<ActiveSkirmish>,
    preview: Res<super::hand::Preview>,
    pick: Res<super::hand::SkirmishPick>,
    pointer: Res<super::hand::PointerAt>,
    draft: Res<super::hand::OrdersDraft>,
) -> Result {
    let ctx = contexts.ctx_mut()?;
    let Ok((cam, cam_at)) = camera.single() else {
        return Ok(());
    };
    let labels = TableLabels::new(ctx, cam, cam_at);
    let game = skirmish.game.game();
    let viewer = viewer_side(skirmish.viewer);
    draw_marks(&labels, game, &preview, &pick);
    draw_remains(&labels, &skirmish);
    if let Some(p) = pointer.0 {
        if !preview.words.is_empty() {
            labels.pointer_bar(preview.words.clone());
        } else if let Some(what) = skirmish.describe(sandtable_core::game::Spot::Point {
            x_mm: p.x as i16,
            y_mm: p.y as i16,
        }) {
            // What is there, as the viewer may know it (R149).
            labels.pointer_bar(format!("{p}: {what}"));
        }
    }
    for (u, at) in &units {
        let Some(p) = labels.screen(at.translation + Vec3::Y * 1.1) else {
            continue;
        };
        let words = unit_label(game, u.index, viewer, &draft);
        labels.boxed(
            p,
            words,
            12.0,
            egui::Color32::from_rgba_unmultiplied(20, 20, 20, 200),
        );
    }
    Ok(())
}

/// What the last shots left: each template laid in the step under way
/// where it landed (R126), and a faint ring where a unit was destroyed
/// without a carcass (R124; a vehicle's carcass stands as a piece, R125).
fn draw_remains(labels: &TableLabels, skirmish: &ActiveSkirmish) {
    let game = skirmish.game.game();
    let table = game.setup().table;
    for (at, d) in skirmish.extra.templates_now(game, skirmish.record.len()) {
        let c = (at.x as f32, at.y as f32);
        labels.line(
            circle(labels, table, c, f32::from(*d)),
            egui::Color32::from_rgb(250, 150, 40),
        );
        if let Some(p) = screen_of(labels, table, c.0, c.1) {
            labels.boxed(
                p,
                "template (R126)".to_owned(),
                10.0,
                egui::Color32::from_rgba_unmultiplied(120, 60, 10, 190),
            );
        }
    }
    for u in game.units() {
        if u.alive || u.carcass || u.waiting || u.aboard.is_some() {
            continue;
        }
        let d = match u.footprint() {
            sandtable_frontiers::geometry::Footprint::Disc { diameter, .. } => diameter,
            sandtable_frontiers::geometry::Footprint::Stadium { length, .. } => length,
            sandtable_frontiers::geometry::Footprint::Polygon(_) => 60,
        };
        let c = (u.at.x as f32, u.at.y as f32);
        labels.line(
            circle(labels, table, c, f32::from(d)),
            egui::Color32::from_rgba_unmultiplied(200, 200, 200, 90),
        );
        if let Some(p) = screen_of(labels, table, c.0, c.1) {
            labels.boxed(
                p,
                format!("{} destroyed", u.tag),
                10.0,
                egui::Color32::from_rgba_unmultiplied(40, 40, 40, 120),
            );
        }
    }
}

/// A point of the table, in mm, on the screen a little above the top.
fn screen_of(labels: &TableLabels, table: (u16, u16), x: f32, y: f32) -> Option<egui::Pos2> {
    labels.screen(super::world(table, x, y) + Vec3::Y * 0.06)
}

/// A circle of the table, `d` mm across, as a line on the screen.
fn circle(labels: &TableLabels, table: (u16, u16), c: (f32, f32), d: f32) -> Vec<egui::Pos2> {
    (0..=48)
        .filter_map(|k| {
            let a = k as f32 / 48.0 * std::f32::consts::TAU;
            screen_of(
                labels,
                table,
                c.0 + d / 2.0 * a.cos(),
                c.1 + d / 2.0 * a.sin(),
            )
        })
        .collect()
}

/// The selected unit's ring, and what a click would play: its path, its
/// reach, its lines of sight (green clear, red blocked, with their
/// modifiers) and its templates, as the rules worked them out.
fn draw_marks(
    labels: &TableLabels,
    game: &sandtable_frontiers::Game,
    preview: &super::hand::Preview,
    pick: &super::hand::SkirmishPick,
) {
    use sandtable_core::game::{DiscKind, Mark, Spot};
    let table = game.setup().table;
    let xy = |s: &Spot| match *s {
        Spot::Point { x_mm, y_mm } => Some((f32::from(x_mm), f32::from(y_mm))),
        _ => None,
    };
    if let Some(u) = pick
        .unit
        .and_then(|i| game.units().get(i))
        .filter(|u| !u.waiting)
    {
        let size = f32::from(u.data.base.size_mm().0) + 8.0;
        let c = (u.at.x as f32, u.at.y as f32);
        labels.line(
            circle(labels, table, c, size),
            egui::Color32::from_rgb(250, 210, 60),
        );
        // Each weapon's arc about the facing, where it is not all round
        // (R121, the data's arcs).
        for w in u.data.weapons.iter().filter(|w| w.arc_deg < 360) {
            let half = f32::from(w.arc_deg).to_radians() / 2.0;
            let facing = f32::from(u.facing).to_radians();
            let reach = 150.0;
            let at = |a: f32| (c.0 + reach * a.cos(), c.1 + reach * a.sin());
            let mut wedge = vec![c];
            wedge.extend((0..=24).map(|k| at(facing - half + 2.0 * half * k as f32 / 24.0)));
            wedge.push(c);
            let line: Vec<egui::Pos2> = wedge
                .iter()
                .filter_map(|(x, y)| screen_of(labels, table, *x, *y))
                .collect();
            labels.line(line, egui::Color32::from_rgb(190, 140, 250));
        }
    }
    // The legs laid so far, from the unit through each point.
    if let Some(u) = pick.unit.and_then(|i| game.units().get(i))
        && !pick.legs.is_empty()
    {
        let line: Vec<egui::Pos2> = std::iter::once(u.at)
            .chain(pick.legs.iter().copied())
            .filter_map(|p| screen_of(labels, table, p.x as f32, p.y as f32))
            .collect();
        labels.keep_clear(&line);
        labels.line(line, egui::Color32::from_rgb(250, 210, 60));
    }
    for mark in &preview.marks {
        match mark {
            Mark::Path { points } => {
                let line: Vec<egui::Pos2> = points
                    .iter()
                    .filter_map(xy)
                    .filter_map(|(x, y)| screen_of(labels, table, x, y))
                    .collect();
                // The units' labels step aside from the path.
                labels.keep_clear(&line);
                labels.line(line, egui::Color32::from_rgb(90, 200, 250));
            }
            Mark::Sight {
                from,
                to,
                blocked_at,
                modifier,
                words,
            } => {
                let (Some(a), Some(b)) = (xy(from), xy(to)) else {
                    continue;
                };
                let colour = if blocked_at.is_some() {
                    egui::Color32::from_rgb(230, 70, 60)
                } else {
                    egui::Color32::from_rgb(90, 220, 110)
                };
                let line: Vec<egui::Pos2> = [a, b]
                    .iter()
                    .filter_map(|(x, y)| screen_of(labels, table, *x, *y))
                    .collect();
                labels.line(line, colour);
                let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
                if let Some(p) = screen_of(labels, table, mid.0, mid.1) {
                    let text = if words.is_empty() {
                        format!("{modifier:+}")
                    } else {
                        format!("{modifier:+}: {}", words.join(", "))
                    };
                    labels.boxed(
                        p,
                        text,
                        12.0,
                        egui::Color32::from_rgba_unmultiplied(20, 20, 20, 210),
                    );
                }
                if let Some(p) = blocked_at.as_ref().and_then(xy)
                    && let Some(q) = screen_of(labels, table, p.0, p.1)
                {
                    labels.boxed(
                        q,
                        "blocked".to_owned(),
                        12.0,
                        egui::Color32::from_rgb(150, 30, 30),
                    );
                }
            }
            Mark::Disc {
                centre,
                diameter_mm,
                kind,
            } => {
                let Some(c) = xy(centre) else { continue };
                let colour = match kind {
                    DiscKind::Reach => egui::Color32::from_rgba_unmultiplied(90, 200, 250, 160),
                    DiscKind::Template => egui::Color32::from_rgb(250, 150, 40),
                    DiscKind::Cloud => egui::Color32::from_rgb(200, 200, 200),
                    DiscKind::Landing => egui::Color32::from_rgb(250, 110, 40),
                };
                labels.line(circle(labels, table, c, f32::from(*diameter_mm)), colour);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_s_ways_are_the_listed_commands_that_play_it() {
        let legal: Vec<String> = [
            "card aim T1",
            "card aim T2",
            "card reinforce",
            "card aimed T1",
            "pass",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        assert_eq!(card_ways(&legal, "aim"), ["card aim T1", "card aim T2"]);
        assert_eq!(card_ways(&legal, "reinforce"), ["card reinforce"]);
        assert!(card_ways(&legal, "jam").is_empty());
    }

    #[test]
    fn the_legal_list_is_cut_to_what_is_typed_word_by_word() {
        let legal: Vec<String> = ["move T1 100,120", "move T2 90,80", "shoot T1 K1", "pass"]
            .iter()
            .map(|s| (*s).to_owned())
            .collect();
        assert_eq!(fitting(&legal, "", 10).len(), 4);
        assert_eq!(fitting(&legal, "mo T2", 10), ["move T2 90,80"]);
        assert_eq!(fitting(&legal, "s", 10), ["shoot T1 K1"]);
        assert!(fitting(&legal, "move T3", 10).is_empty());
        assert_eq!(fitting(&legal, "", 2).len(), 2);
    }
}
