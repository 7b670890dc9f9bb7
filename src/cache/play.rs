//! Conflict at Cache's game in play: the rules crate's game with its
//! scenario, record and log; its command requests sent to the rules crate,
//! its events published for the looks, the hot-seat hand-over and undo;
//! and its words for a square, a stash choice and the outcome.

use bevy::prelude::*;
use sandtable_cache::{Command, Event, Game, Outcome};
use sandtable_core::game::Seat;
use sandtable_scenario::Scenario;

use crate::schedule::AppSystems;
use crate::session::game::{TableSystem, start_turn};
use crate::session::{
    GameInPlay, GameLoaded, Leaving, Notice, ScenarioSource, Seats, answer_dialogs, closing_plugin,
    files::SaveError, may_leave_unsaved, save_game,
};

pub(super) fn plugin(app: &mut App) {
    app.add_message::<CommandRequest>()
        .add_message::<PlayEvent>()
        .add_systems(
            Update,
            (
                (
                    super::keys::read_play_keys,
                    crate::session::keys::read_undo_keys::<Cache>,
                )
                    .in_set(AppSystems::RecordInput)
                    .run_if(in_state(crate::mode::Mode::Play)),
                answer_dialogs::<ActiveGame>.in_set(crate::schedule::FlowSteps::Answers),
                (
                    start_turn::<Cache>,
                    use_real_dice,
                    apply_commands,
                    crate::session::game::undo_commands::<Cache>,
                    save_game::<ActiveGame>,
                )
                    .chain()
                    .in_set(crate::schedule::FlowSteps::Play),
                crate::session::game::real_dice_for_people::<Cache>
                    .in_set(crate::schedule::FlowSteps::Follow),
            ),
        );
    app.add_message::<RealDiceRequest>();
    closing_plugin::<ActiveGame>(app);
}

impl GameInPlay for ActiveGame {
    fn has_unsaved_work(&self) -> bool {
        ActiveGame::has_unsaved_work(self)
    }

    fn save(
        &mut self,
        seats: &Seats,
        to: Option<&std::path::Path>,
        replace: bool,
    ) -> Result<String, SaveError> {
        let was_unsaved = self.source == ScenarioSource::Unsaved;
        let path = super::files::save_game(self, &seats.0, to, replace)?;
        let mut text = format!("saved to {}", path.display());
        if let (true, ScenarioSource::File(layout)) = (was_unsaved, &self.source) {
            text.push_str(&format!("; its layout to {}", layout.display()));
        }
        Ok(text)
    }
}

/// Conflict at Cache (and The Snyder Skirmish) as a rule system of the
/// table.
pub struct Cache;

/// What the table keeps beside a game of Cache.
#[derive(Debug, Clone, Default)]
pub struct CacheExtra {
    /// The last stash roll: the two dice, the row and its result (R21).
    pub last_roll: Option<([u8; 2], u8, String)>,
}

impl TableSystem for Cache {
    const KEY: &'static str = "cache";
    type Game = Game;
    type Setup = Scenario;
    type Extra = CacheExtra;
    type BotRequest = CommandRequest;

    fn bot_request(command: Command) -> CommandRequest {
        CommandRequest(command)
    }

    /// The game's seed, as the CLI seeds Cache's bots.
    fn bot_seed(active: &crate::session::game::ActiveGame<Self>) -> u64 {
        active.game.game().seed()
    }

    fn loaded(world: &mut World) {
        world.write_message(GameLoaded);
    }

    /// A phase is a unit's activation (R6).
    fn phase(game: &Game) -> u32 {
        u32::from(game.activations_left())
    }

    fn seat_colour(active: &crate::session::game::ActiveGame<Self>, seat: Seat) -> Option<[u8; 3]> {
        active.setup.colours.get(seat.index()).map(|c| c.0)
    }

    /// A command stepped through in review floats its capture bonus, as
    /// in play.
    fn shown_in_review(world: &mut World, _: u64, stepped: Option<Vec<Event>>) {
        for event in stepped.into_iter().flatten() {
            world.write_message(PlayEvent(event));
        }
    }

    /// A Cache table opened in Cache's layout mode is edited from then on
    /// (`layout::editor`).
    fn keeps_layout_on_open() -> bool {
        true
    }

    /// The last stash roll is shown beside the game (R21).
    fn after_play(
        active: &mut crate::session::game::ActiveGame<Self>,
        _: Seat,
        _: &sandtable_core::dice::Dice,
        events: &[Event],
    ) {
        for event in events {
            if let Event::StashRolled {
                dice, roll, result, ..
            } = event
            {
                active.extra.last_roll = Some((*dice, *roll, result.to_string()));
            }
        }
    }

    /// A turn passed hands the table to the next player (a bot's seat
    /// takes it at once: `confirm_bot_handover`).
    fn hand_over(
        _: &crate::session::game::ActiveGame<Self>,
        _: Seat,
        events: &[Event],
    ) -> Option<Seat> {
        events.iter().rev().find_map(|e| match e {
            Event::TurnPassed { player, .. } => Some(Seat(player.0)),
            _ => None,
        })
    }
}

/// The game in play: the rules crate's `Game`, its scenario and its
/// history, as every system's game in play is held.
pub type ActiveGame = crate::session::game::ActiveGame<Cache>;

impl ActiveGame {
    /// A new game of a scenario.
    pub fn new(scenario: Scenario, source: ScenarioSource) -> ActiveGame {
        let dice = sandtable_core::dice::Dice::seeded(scenario.setup.seed);
        let game = scenario.game();
        crate::session::game::ActiveGame::started(game, scenario, source, CacheExtra::default())
            .rolled_from(&dice)
    }
}

/// Real dice on or off, from the panel's switch (R30,
/// [`crate::session::dice`]).
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct RealDiceRequest(pub bool);

/// Turns real dice on or off as the panel asks: refused, saying why, while
/// a bot sits at the table (R30).
fn use_real_dice(
    mut requests: MessageReader<RealDiceRequest>,
    mut active: Option<ResMut<ActiveGame>>,
    seats: Res<crate::session::Seats>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active.as_deref_mut() else {
        requests.clear();
        return;
    };
    for RealDiceRequest(on) in requests.read().copied() {
        let seed = active.game.game().seed();
        match active.use_real_dice(on, &seats, seed) {
            Ok(words) => notice.info(words),
            Err(why) => notice.error(why),
        }
    }
}

/// A command for the rules crate, from a click, a key or a button.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct CommandRequest(pub Command);

/// An event the rules crate returned, for the visuals.
#[derive(Message, Debug, Clone, PartialEq, Eq)]
pub struct PlayEvent(pub Event);

/// Sends each request to the rules crate. A refused command changes nothing
/// and its reason, with the ruling, goes to the notice.
pub fn apply_commands(
    mut requests: MessageReader<CommandRequest>,
    mut active: Option<ResMut<ActiveGame>>,
    mut notice: ResMut<Notice>,
    mut events: MessageWriter<PlayEvent>,
    mut loaded: MessageReader<GameLoaded>,
    mut typed: ResMut<crate::session::dice::TypedRolls>,
) {
    let Some(active) = active.as_deref_mut() else {
        requests.clear();
        return;
    };
    // Requests made before another game was opened were meant for the old one.
    if loaded.read().count() > 0 {
        requests.clear();
        return;
    }
    for CommandRequest(command) in requests.read().copied() {
        if active.handover.is_some() {
            notice.info("confirm the hand-over first");
            continue;
        }
        // With real dice, the rolls typed in decide (R30).
        match active.play_typed(command, &mut typed) {
            Ok(applied) => {
                for event in applied {
                    events.write(PlayEvent(event));
                }
                notice.text = None;
            }
            Err(e) => notice.error(e),
        }
    }
}

/// Asks first when going on would lose unsaved moves: `true` when the
/// caller may go on now.
pub fn may_leave(
    commands: &mut Commands,
    active: Option<&ActiveGame>,
    discard_unsaved: bool,
    leaving: Leaving,
) -> bool {
    may_leave_unsaved(
        commands,
        active.is_some_and(ActiveGame::has_unsaved_work),
        discard_unsaved,
        leaving,
    )
}

/// What an awaited stash choice asks of the person at the table, in plain
/// words: what to click (the lit squares or units) and what follows (R23).
pub fn choice_prompt(choice: sandtable_cache::Choice) -> String {
    use sandtable_cache::Choice;
    match choice {
        Choice::PlaceAnywhere { .. } => "Pick a facing below, then click a lit square to put the unit that found the stash there.".to_owned(),
        Choice::ExtraActions { actions } => format!(
            "Click one of your lit units: it takes up to {actions} more actions now."
        ),
        Choice::PickUnfriendly => "Click a lit enemy unit: it goes back within 2 squares of its base, or is captured if there is no room.".to_owned(),
        Choice::ReturnUnfriendly { .. } => "Pick a facing below, then click a lit square within 2 of its base to put the picked unit there.".to_owned(),
        Choice::ReturnFriend => "Pick a facing below, then click a lit square within 2 of your base to bring a captured unit back.".to_owned(),
        Choice::ReturnThisUnit { .. } => "Pick a facing below, then click a lit square within 2 of your base to put the unit that found the stash there.".to_owned(),
    }
}

/// The outcome in words, for the victory screen.
pub fn outcome_text(game: &Game) -> Option<String> {
    match game.outcome()? {
        Outcome::Won(p) => Some(format!("{} wins", game.player(p).name)),
        Outcome::Draw(why) => Some(format!("a draw: {why}")),
    }
}
