//! Conflict at Cache's bots at the table: a bot thinks for its seat off the
//! main thread and its command is played when it is still the bot's turn
//! of the same game; a hint is a bot's command shown, not played.

use bevy::prelude::*;
use sandtable_cache::CacheLegal;
use sandtable_cache::{Command, Game};

use super::play::{ActiveGame, Cache, may_leave};
pub use crate::session::bots::Thinking;
use crate::session::{GameLoaded, HintRequest, Leaving, NewGameRequest, Notice, Seat, Seats};

pub(super) fn plugin(app: &mut App) {
    crate::session::bots::add_bots::<Cache>(app);
    app.init_resource::<Hint>()
        .add_systems(
            Update,
            think_of_hint.in_set(crate::schedule::AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (
                start_new_game.in_set(crate::schedule::FlowSteps::NewGame),
                // After every way a game can be loaded, and the commands.
                (
                    crate::session::game::settle_handover::<Cache>,
                    fit_seats_to_game,
                )
                    .in_set(crate::schedule::FlowSteps::Follow),
            ),
        );
}

/// Whether the player to move is a bot.
pub fn bot_to_move(seats: &Seats, game: &Game) -> bool {
    matches!(seats.of(usize::from(game.current_player().0)), Seat::Bot(_))
}

/// Cache's hint: the command a bot would play, for one revision of the
/// game.
pub type Hint = crate::session::bots::Hint<Cache>;

/// The square a hint points at, as the rules crate lists its command: the
/// unit to activate or pick, the square an advance lands on (beyond a low
/// wall when it crosses one, R13), the square to be placed on. `None` for
/// turns, end and pass.
pub fn hint_square(command: Command, game: &Game) -> Option<sandtable_cache::Square> {
    game.legal_commands()
        .into_iter()
        .find(|l| l.command == command)
        .and_then(|l| l.lands())
}

/// Keeps one seat per player of the game in play; another game drops the
/// thinking and the hint begun for the one before.
fn fit_seats_to_game(
    mut commands: Commands,
    mut loaded: MessageReader<GameLoaded>,
    active: Option<Res<ActiveGame>>,
    mut seats: ResMut<Seats>,
    mut hint: ResMut<Hint>,
) {
    if loaded.read().count() > 0 {
        commands.remove_resource::<Thinking<Cache>>();
        *hint = Hint::default();
    }
    if let Some(active) = active {
        let n = active.game.players().len();
        if seats.0.len() != n {
            seats.0.resize(n, Seat::Person);
        }
    }
}

/// Restarts the scenario in play.
fn start_new_game(
    mut commands: Commands,
    mut requests: MessageReader<NewGameRequest>,
    active: Option<Res<ActiveGame>>,
    mut loaded: MessageWriter<GameLoaded>,
    mut notice: ResMut<Notice>,
    served: Option<Res<crate::session::remote::Remote>>,
) {
    let Some(request) = requests.read().last().copied() else {
        return;
    };
    if served.is_some() {
        notice.error(crate::session::SERVED_RECORD);
        return;
    }
    if !may_leave(
        &mut commands,
        active.as_deref(),
        request.discard_unsaved,
        Leaving::NewGame,
    ) {
        return;
    }
    if let Some(active) = active {
        commands.insert_resource(ActiveGame::new(active.setup.clone(), active.source.clone()));
        loaded.write(GameLoaded);
        notice.info_after(request.discard_unsaved, "a new game of the same scenario");
    }
}

/// Starts and collects hints.
fn think_of_hint(
    mut requests: MessageReader<HintRequest>,
    mut hint: ResMut<Hint>,
    active: Option<Res<ActiveGame>>,
    mut notice: ResMut<Notice>,
) {
    let Some(active) = active else {
        requests.clear();
        return;
    };
    if requests.read().count() > 0 && !active.game.is_over() {
        hint.ask(&active);
    }
    // A hint for a game that moved on while the bot thought is stale.
    if let Some(Err(_)) = hint.ready(&active) {
        notice.info("the game moved on: ask for a new hint");
    }
}
