//! Playing a skirmish at the table: the person whose decision it is types
//! a command in the move notation, or picks one of the legal commands the
//! panel lists (filtered by what is typed), and the game contract checks
//! and plays it; a refusal is shown with its ruling and changes nothing.
//! Each seat's play is seen only as that seat may see it (R149): the
//! table is handed over behind the curtain. Bots play a seat through
//! [`BotMove`], as for every system.

use bevy::prelude::*;
use sandtable_core::game::{GameState, Legal, Seat, Viewer, next_seat};
use sandtable_frontiers::Command;

use super::table::{ActiveSkirmish, Frontiers};
use crate::session::game::{settle_handover, start_turn};
use crate::session::{Notice, Seat as TableSeat, Seats};

pub(super) fn plugin(app: &mut App) {
    crate::session::bots::add_bots::<Frontiers>(app);
    app.add_message::<SkirmishInput>()
        .add_message::<BotMove>()
        .init_resource::<SkirmishHint>()
        .init_resource::<AutoPass>()
        .add_systems(
            Update,
            (
                crate::session::keys::read_undo_keys::<Frontiers>
                    .in_set(crate::schedule::AppSystems::RecordInput),
                think_of_skirmish_hint.in_set(crate::schedule::AppSystems::RecordInput),
                (
                    start_turn::<Frontiers>,
                    play_bot_moves,
                    skirmish_input,
                    crate::session::game::undo_commands::<Frontiers>,
                    pass_empty_windows,
                    crate::session::save_game::<ActiveSkirmish>,
                )
                    .chain()
                    .in_set(crate::schedule::FlowSteps::Play),
                settle_handover::<Frontiers>.in_set(crate::schedule::FlowSteps::Follow),
                crate::session::game::start_new_game::<Frontiers>
                    .in_set(crate::schedule::FlowSteps::NewGame),
            )
                // Each asks on its own: a file opened in between takes
                // the skirmish away in the middle of a frame.
                .distributive_run_if(resource_exists::<ActiveSkirmish>)
                .distributive_run_if(in_state(crate::mode::Mode::Play)),
        )
        .add_systems(
            Update,
            forget_the_last_skirmish
                .run_if(
                    on_message::<super::SkirmishLoaded>
                        .or_eager(resource_removed::<ActiveSkirmish>),
                )
                .in_set(crate::schedule::AppSystems::SyncTable),
        )
        .add_systems(
            Update,
            crate::session::answer_dialogs::<ActiveSkirmish>
                .in_set(crate::schedule::FlowSteps::Answers),
        );
    crate::session::closing_plugin::<ActiveSkirmish>(app);
}

impl crate::session::GameInPlay for ActiveSkirmish {
    fn has_unsaved_work(&self) -> bool {
        ActiveSkirmish::has_unsaved_work(self)
    }

    fn save(
        &mut self,
        seats: &crate::session::Seats,
        to: Option<&std::path::Path>,
        replace: bool,
    ) -> Result<String, crate::session::files::SaveError> {
        let path = super::files::save_skirmish(self, &seats.0, to, replace)?;
        Ok(format!("saved to {}", path.display()))
    }
}

/// What the person does at the skirmish's table: the panel's buttons and
/// the command line come here, so that the panel only asks.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub enum SkirmishInput {
    /// Play a command typed in the move notation.
    Text(String),
    /// Play a command the panel lists.
    Command(Command),
    /// The table was clicked at this point (mm): a unit of the person's
    /// is selected, or the selected unit moves or shoots there
    /// ([`super::hand::click_means`]).
    Click(sandtable_frontiers::geometry::Pt),
    /// Let go of the selected unit.
    Cancel,
    /// Choose this unit, by its index, as the one to act or deploy (the
    /// panel's list of units waiting to deploy).
    Choose(usize),
    /// A point the selected unit's move passes through before its end
    /// (Shift-click: a leg added, R113).
    Waypoint(sandtable_frontiers::geometry::Pt),
    /// Seal the order markers laid by clicks, the decoys filled in
    /// (R107).
    SealOrders,
    /// Take back the order markers laid by clicks.
    ClearOrders,
    /// Offer these commands to choose among (a choice on the table with
    /// several ways).
    Offer(Vec<Command>),
    /// Wait for the click that says where this command's point lies (a
    /// smoke screen's cloud, R152).
    Place(Command),
    /// Real dice on or off (R30, [`crate::session::dice`]).
    RealDice(bool),
    /// Print the skirmish's setup sheet (A4 PDF) beside its file.
    PrintSheet,
}

/// A bot's command for the seat that decides, played through the same
/// flow as the person's.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotMove(pub Command);

/// The skirmish's hint: the command a bot of
/// [`HINT_STRENGTH`](crate::session::HINT_STRENGTH) would play for the
/// person, thought of on the person's own view (the bot's redeal, R149).
pub type SkirmishHint = crate::session::bots::Hint<Frontiers>;

/// Starts a hint when asked, while a person decides, and tells it once
/// the bot has thought; the panel offers to play it. A hint for a game
/// that moved on meanwhile is dropped.
fn think_of_skirmish_hint(
    mut requests: MessageReader<crate::session::HintRequest>,
    mut hint: ResMut<SkirmishHint>,
    active: Res<ActiveSkirmish>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
) {
    crate::session::bots::ask_hint(
        requests.read().count() > 0,
        &mut hint,
        &active,
        || person_may_not_play(&active, &seats),
        &mut notice,
    );
    match hint.ready(&active) {
        None => {}
        Some(Err(_)) => notice.info("the skirmish moved on: ask for a new hint"),
        Some(Ok(command)) => notice.info(format!(
            "hint: `{command}`, as a bot of strength {} would play",
            crate::session::HINT_STRENGTH
        )),
    }
}

/// A skirmish was opened, or it left the table: a bot's thought about the
/// one before goes with it.
fn forget_the_last_skirmish(mut commands: Commands, mut hint: ResMut<SkirmishHint>) {
    *hint = SkirmishHint::default();
    commands.remove_resource::<crate::session::bots::Thinking<Frontiers>>();
    commands.remove_resource::<crate::session::bots::LastBotMove<Frontiers>>();
}

/// Why no person may play now: the hand-over not yet taken, the game
/// over, or a bot's decision; `None` when a person decides.
pub fn person_may_not_play(active: &ActiveSkirmish, seats: &Seats) -> Option<String> {
    if active.handover.is_some() {
        return Some("confirm the hand-over first".to_owned());
    }
    let game = active.game.game();
    // A served game: the table plays its own seat when that seat owes the
    // decision (a sealed one at every owing table at once); the server
    // seats the bots.
    if active.outbox.is_some() {
        return match (active.deciding_seat(), next_seat(game)) {
            (Some(_), _) => None,
            (None, None) => Some("the skirmish is over".to_owned()),
            (None, Some(seat)) => Some(format!(
                "it is {}'s decision",
                game.setup().sides[seat.index().min(1)].name
            )),
        };
    }
    match next_seat(game) {
        None => Some("the skirmish is over".to_owned()),
        Some(seat) if seats.of(seat.index()) != TableSeat::Person => Some(format!(
            "it is {}'s decision, and a bot plays it",
            game.setup().sides[seat.index().min(1)].name
        )),
        // Behind the table's view: a person plays only the seat they see
        // as (R149).
        Some(seat) if !matches!(active.viewer, Viewer::Player(v) if v == seat) => Some(format!(
            "it is {}'s decision: hand the table over",
            game.setup().sides[seat.index().min(1)].name
        )),
        Some(_) => None,
    }
}

/// The seat a person decides for now, without its legal list; `None`
/// when no person may play now.
pub fn person_seat(active: &ActiveSkirmish, seats: &Seats) -> Option<Seat> {
    person_may_not_play(active, seats)
        .is_none()
        .then(|| active.deciding_seat())
        .flatten()
}

/// The seat a person decides for now and its legal list, or why no
/// person may play now.
pub fn person_legal(
    active: &ActiveSkirmish,
    seats: &Seats,
) -> Result<(Seat, Vec<Legal<Command>>), String> {
    if let Some(why) = person_may_not_play(active, seats) {
        return Err(why);
    }
    let seat = active.deciding_seat().expect("a person decides");
    let mut legal = Vec::new();
    active.game.game().legal_into(seat, &mut legal);
    Ok((seat, legal))
}

/// Whether a card window passes by itself for a person at the table who
/// holds no card of it that they may play (R132): a pass that carries no
/// choice is not asked for. On by default; the panel turns it off.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct AutoPass(pub bool);

impl Default for AutoPass {
    fn default() -> AutoPass {
        AutoPass(true)
    }
}

/// A card window owed by a person at this table who may play no card of
/// it passes by itself ([`AutoPass`]). The pass is the same command as one
/// chosen, and reads alike in every log; only the passing seat's own log
/// says it passed by itself, since the other side may not learn that its
/// hand holds no card it may play (R149). After an undo the window waits
/// for the person, who went back to it.
fn pass_empty_windows(
    mut active: ResMut<ActiveSkirmish>,
    seats: Res<Seats>,
    auto: Res<AutoPass>,
    mut undone: MessageReader<crate::session::game::Undone>,
    mut held_at: Local<Option<usize>>,
    mut weighed: Local<Option<(u64, u64, bool, Viewer, Vec<TableSeat>)>>,
) {
    if undone.read().count() > 0 {
        *held_at = Some(active.record.len());
    }
    if !auto.0 || held_at.is_some_and(|at| active.record.len() <= at) {
        return;
    }
    // A window is weighed once for a position, a hand-over and seats: a
    // window the person may play a card in waits without its legal list
    // worked out again every frame.
    let now = (
        active.id,
        active.revision,
        active.handover.is_some(),
        active.viewer,
    );
    if weighed
        .as_ref()
        .is_some_and(|w| (w.0, w.1, w.2, w.3) == now && w.4 == seats.0)
    {
        return;
    }
    *weighed = Some((now.0, now.1, now.2, now.3, seats.0.clone()));
    let game = active.game.game();
    let Some(open) = game
        .flow()
        .window
        .filter(|_| game.flow().phase == sandtable_frontiers::flow::Phase::Window)
    else {
        return;
    };
    let Ok((seat, legal)) = person_legal(&active, &seats) else {
        return;
    };
    let pass = match legal.as_slice() {
        [only] if matches!(only.command, Command::Pass { .. }) => only.command,
        _ => return,
    };
    if active.play(pass).is_ok() {
        let text = format!(
            "the {:?} window passed by itself: no card of it to play (R132)",
            open.kind
        );
        let mut players: Vec<Option<String>> = vec![None; GameState::seats(active.game.game()) + 1];
        players[seat.index()] = Some(text.clone());
        active.log.push(crate::session::LogLine {
            text,
            command: false,
            players,
        });
    }
}

/// Plays what the person asked for, through the contract: a typed
/// command that does not parse, or that the rules refuse, is told in the
/// notice with its ruling and changes nothing.
pub fn skirmish_input(
    mut inputs: MessageReader<SkirmishInput>,
    mut active: ResMut<ActiveSkirmish>,
    seats: Res<Seats>,
    mut notice: ResMut<Notice>,
    mut pick: ResMut<super::hand::SkirmishPick>,
    mut draft: ResMut<super::hand::OrdersDraft>,
    mut typed: ResMut<crate::session::dice::TypedRolls>,
) {
    use super::hand::ClickMeans;
    for input in inputs.read() {
        // A new click asks afresh: the ways the last one offered go.
        if matches!(input, SkirmishInput::Click(_) | SkirmishInput::Waypoint(_)) {
            pick.ways.clear();
        }
        match input {
            SkirmishInput::PrintSheet => {
                let out = crate::session::files::sheet_path(&active.source);
                match super::files::print_skirmish_sheet(&active.setup, &out) {
                    Ok(out) => notice.info(format!("sheet written to {}", out.display())),
                    Err(e) => notice.error(e),
                }
                continue;
            }
            SkirmishInput::RealDice(on) => {
                let seed = active.setup.setup.seed;
                match active.use_real_dice(*on, &seats, seed) {
                    Ok(words) => notice.info(words),
                    Err(why) => notice.error(why),
                }
                continue;
            }
            SkirmishInput::Cancel => {
                *pick = super::hand::SkirmishPick::default();
                continue;
            }
            SkirmishInput::ClearOrders => {
                draft.0.clear();
                continue;
            }
            SkirmishInput::Choose(i) => {
                *pick = super::hand::SkirmishPick::of(*i);
                continue;
            }
            SkirmishInput::Offer(ways) => {
                pick.ways = ways.clone();
                notice.info(format!("{} ways: choose one on the table", ways.len()));
                continue;
            }
            SkirmishInput::Place(c) => {
                pick.placing = Some(*c);
                notice.info(format!("`{c}`: click where it lies; Escape lets go"));
                continue;
            }
            _ => {}
        }
        if let Some(why) = person_may_not_play(&active, &seats) {
            notice.error(format!("nothing played: {why}"));
            continue;
        }
        let seat = active.deciding_seat().expect("a person decides");
        let game = active.game.game();
        let side = seat.index().min(1) as u8;
        let command = match input {
            SkirmishInput::Cancel
            | SkirmishInput::ClearOrders
            | SkirmishInput::Choose(_)
            | SkirmishInput::Offer(_)
            | SkirmishInput::Place(_)
            | SkirmishInput::RealDice(_)
            | SkirmishInput::PrintSheet => {
                continue;
            }
            // A leg's end: the move so far must be one the rules take
            // (R113, R114), and the path goes on from there.
            SkirmishInput::Waypoint(p) => {
                match super::hand::move_through(game, seat, &pick, *p) {
                    Ok(_) => {
                        pick.legs.push(*p);
                        notice.info(format!(
                            "a leg to {p}; click where the move ends, Shift-click for another leg"
                        ));
                    }
                    Err(why) => notice.error(format!("no leg to {p}: {why}")),
                }
                continue;
            }
            SkirmishInput::SealOrders => match game.orders_with(side, &draft.0) {
                Some(c) => c,
                None => {
                    notice.error("the markers laid are not all on units of yours (R107)");
                    continue;
                }
            },
            // A card chosen on the table lies where the click is (R152).
            SkirmishInput::Click(p) if pick.placing.is_some() => {
                let placing = pick.placing.expect("a command to place");
                let at = sandtable_frontiers::command::P16::of(*p);
                match (placing, at) {
                    (
                        Command::Card {
                            card,
                            unit,
                            patient,
                            location,
                            legs,
                            ..
                        },
                        Some(at),
                    ) => Command::Card {
                        card,
                        unit,
                        patient,
                        location,
                        at: Some(at),
                        legs,
                    },
                    _ => {
                        notice.error(format!("`{placing}` cannot lie at {p}: off the table"));
                        continue;
                    }
                }
            }
            // In the Order phase a click on a unit of one's own lays the
            // next numbered marker on it (R107).
            SkirmishInput::Click(p) if super::hand::owes_orders(game, seat) => {
                match super::hand::unit_at(game, *p).filter(|i| game.units()[*i].side == side) {
                    Some(i) => match draft.lay(game, side, i) {
                        Ok(()) => notice.info(format!(
                            "orders laid: {} of {} numbered markers; Seal orders when done",
                            draft.words(),
                            game.markers_owed(side)
                        )),
                        Err(why) => notice.error(why),
                    },
                    None => {
                        notice.error("click a unit of yours to lay the next order marker on it")
                    }
                }
                continue;
            }
            SkirmishInput::Click(p) => match super::hand::click_means(game, seat, &pick, *p) {
                ClickMeans::Select(i) => {
                    pick.unit = Some(i);
                    notice.info(format!(
                            "{} selected: click where it moves, or an enemy to shoot at; Escape lets go",
                            game.units()[i].tag
                        ));
                    continue;
                }
                ClickMeans::Refused(why) => {
                    notice.error(format!("at {p}: {why}"));
                    continue;
                }
                ClickMeans::Ways(ways) => {
                    let names: Vec<String> = ways.iter().map(|w| format!("`{w}`")).collect();
                    notice.info(format!("{}: choose one in the panel", names.join(" or ")));
                    pick.ways = ways;
                    continue;
                }
                ClickMeans::Play(c) => c,
            },
            SkirmishInput::Command(c) => *c,
            SkirmishInput::Text(text) => match text.trim().parse::<Command>() {
                Ok(c) => c,
                Err(e) => {
                    notice.error(format!("`{}` is not a command: {e}", text.trim()));
                    continue;
                }
            },
        };
        match active.play_typed(command, &mut typed) {
            Ok(_) => {
                // A sealed command stays sealed in the notice, which the
                // next person behind the curtain sees too (R107, R149).
                let game = active.game.game();
                let sealed = (0..GameState::seats(game)).any(|s| {
                    GameState::command_for(game, seat, &command, Viewer::Player(Seat(s as u16)))
                        .is_none()
                });
                notice.info(if sealed {
                    "your sealed command is given (R107, R111)".to_owned()
                } else {
                    format!("played `{command}`")
                });
                // The unit acted: the next decision picks afresh.
                *pick = super::hand::SkirmishPick::default();
                draft.0.clear();
            }
            Err(why) => notice.error(format!("`{command}` is refused: {why}")),
        }
    }
}

/// Plays the bots' commands.
fn play_bot_moves(
    mut moves: MessageReader<BotMove>,
    mut active: ResMut<ActiveSkirmish>,
    mut notice: ResMut<Notice>,
) {
    for BotMove(command) in moves.read().copied() {
        let seat = next_seat(active.game.game()).unwrap_or(Seat(0));
        // The command as the person at the table may read it (R149).
        let words = GameState::command_for(active.game.game(), seat, &command, active.viewer)
            .map_or_else(|| "sealed command".to_owned(), |c| format!("`{c}`"));
        if let Err(why) = active.play(command) {
            notice.error(format!("the bot's {words} was refused: {why}"));
        }
    }
}
