//! Conflict at Cache's bots at the table: a bot thinks for its seat off the
//! main thread and its command is played when it is still the bot's turn
//! of the same game; a hint is a bot's command shown, not played.

use bevy::prelude::*;
use bevy::tasks::{Task, futures::check_ready};
use sandtable_cache::CacheLegal;
use sandtable_cache::{Command, Game};

use super::play::{ActiveGame, Cache, may_leave};
pub use crate::session::bots::Thinking;
use crate::session::bots::think;
use crate::session::{
    GameLoaded, HINT_STRENGTH, HintRequest, Leaving, NewGameRequest, Notice, Seat, Seats,
};

pub(super) fn plugin(app: &mut App) {
    crate::session::bots::add_bots::<Cache>(app);
    app.init_resource::<Hint>()
        .add_systems(Update, think_of_hint.in_set(crate::AppSystems::RecordInput))
        .add_systems(
            Update,
            (
                start_new_game.in_set(crate::FlowSteps::NewGame),
                // After every way a game can be loaded, and the commands.
                (
                    crate::session::game::settle_handover::<Cache>,
                    fit_seats_to_game,
                )
                    .in_set(crate::FlowSteps::Follow),
            ),
        );
}

/// Whether the player to move is a bot.
pub fn bot_to_move(seats: &Seats, game: &Game) -> bool {
    matches!(seats.of(usize::from(game.current_player().0)), Seat::Bot(_))
}

/// The last hint: the command a bot would play, for one revision of the game.
#[derive(Resource, Default)]
pub struct Hint {
    /// Waiting for the bot, for a game and a revision of it.
    task: Option<(Task<Option<Command>>, (u64, u64))>,
    /// The command, and the game and revision it is for.
    pub shown: Option<(Command, (u64, u64))>,
}

impl Hint {
    /// Whether a hint is being thought of.
    pub fn thinking(&self) -> bool {
        self.task.is_some()
    }

    /// The square a hint points at, as the rules crate lists its command:
    /// the unit to activate or pick, the square an advance lands on (beyond
    /// a low wall when it crosses one, R13), the square to be placed on.
    /// `None` for turns, end and pass.
    pub fn square(command: Command, game: &Game) -> Option<sandtable_cache::Square> {
        game.legal_commands()
            .into_iter()
            .find(|l| l.command == command)
            .and_then(|l| l.lands())
    }

    /// The hint for the game in play as it stands, if one was given.
    pub fn for_game(&self, active: &ActiveGame) -> Option<Command> {
        self.shown
            .filter(|(_, at)| *at == (active.id, active.revision))
            .map(|(command, _)| command)
    }
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
) {
    let Some(request) = requests.read().last().copied() else {
        return;
    };
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
    if requests.read().count() > 0 && hint.task.is_none() && !active.game.is_over() {
        hint.task = Some((think(&active, HINT_STRENGTH), (active.id, active.revision)));
    }
    let ready = match hint.task.as_mut() {
        Some((task, revision)) => check_ready(task).map(|c| (c, *revision)),
        None => None,
    };
    if let Some((command, revision)) = ready {
        hint.task = None;
        match command {
            Some(command) if revision == (active.id, active.revision) => {
                hint.shown = Some((command, revision));
            }
            // The game moved on while the bot thought: the hint is stale.
            Some(_) => notice.info("the game moved on: ask for a new hint"),
            None => {}
        }
    }
}
