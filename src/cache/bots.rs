//! Conflict at Cache's bots at the table: a bot thinks for its seat off the
//! main thread and its command is played when it is still the bot's turn
//! of the same game; a hint is a bot's command shown, not played.

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use sandtable_bots::BotConfig;
use sandtable_cache::CacheLegal;
use sandtable_cache::{Command, Game, PlayerId};
use sandtable_core::game::seat_seed;

use super::play::{ActiveGame, CommandRequest, may_leave};
use crate::mode::Mode;
use crate::session::{
    BotPace, GameLoaded, HINT_STRENGTH, HintRequest, Leaving, NewGameRequest, Notice, Seat, Seats,
};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Hint>()
        .add_systems(
            Update,
            (
                finish_bot_thinking,
                start_bot_thinking.run_if(in_state(Mode::Play)),
                think_of_hint,
            )
                .chain()
                .in_set(crate::AppSystems::RecordInput),
        )
        .add_systems(
            Update,
            (
                start_new_game.in_set(crate::FlowSteps::NewGame),
                // After every way a game can be loaded, and the commands.
                (
                    crate::session::game::settle_handover::<super::play::Cache>,
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

/// A bot thinking for the player to move, for one revision of the game.
#[derive(Resource)]
pub struct Thinking {
    task: Task<Option<Command>>,
    game: u64,
    revision: u64,
    /// The player it thinks for.
    pub player: PlayerId,
}

/// The time the last bot command was applied, for the pace.
#[derive(Resource, Debug, Clone, Copy)]
struct LastBotMove(std::time::Duration);

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

/// A bot's seed for one game: its own choices depend on the game's seed and
/// the player, so a replayed game with the same seats plays the same.
fn bot_config(level: u8, game: &Game, player: PlayerId) -> BotConfig {
    BotConfig::strength(
        level,
        seat_seed(game.seed(), sandtable_core::game::Seat(player.0)),
    )
}

fn think(game: &Game, config: BotConfig) -> Task<Option<Command>> {
    let game = game.clone();
    AsyncComputeTaskPool::get().spawn(async move {
        let seat = sandtable_core::game::next_seat(&game)?;
        sandtable_bots::choose(&game, seat, &config)
    })
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
        commands.remove_resource::<Thinking>();
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

/// Starts a bot thinking when it is its turn, the last bot command has been
/// on the table long enough (in play only: not in layout mode).
fn start_bot_thinking(
    mut commands: Commands,
    active: Option<Res<ActiveGame>>,
    seats: Res<Seats>,
    thinking: Option<Res<Thinking>>,
    pace: Res<BotPace>,
    last: Option<Res<LastBotMove>>,
    time: Res<Time<Real>>,
) {
    let Some(active) = active else {
        return;
    };
    let game = &active.game;
    if thinking.is_some()
        || game.is_over()
        || active.handover.is_some()
        || last.is_some_and(|l| time.elapsed() < l.0 + pace.0)
    {
        return;
    }
    let player = game.current_player();
    if let Seat::Bot(level) = seats.of(usize::from(player.0)) {
        commands.insert_resource(Thinking {
            task: think(game, bot_config(level, game, player)),
            game: active.id,
            revision: active.revision,
            player,
        });
    }
}

/// Plays a bot's command once it is ready, if the game has not changed
/// meanwhile (a new game, an undo, a seat given to a person) and layout
/// mode is off; otherwise the thought is dropped.
fn finish_bot_thinking(
    mut commands: Commands,
    thinking: Option<ResMut<Thinking>>,
    active: Option<Res<ActiveGame>>,
    seats: Res<Seats>,
    mode: Res<State<Mode>>,
    time: Res<Time<Real>>,
    mut requests: MessageWriter<CommandRequest>,
) {
    let Some(mut thinking) = thinking else {
        return;
    };
    let Some(result) = check_ready(&mut thinking.task) else {
        return;
    };
    commands.remove_resource::<Thinking>();
    let Some(active) = active else {
        return;
    };
    // Layout mode hides the game: the bot thinks again when it is back.
    let still = (active.id, active.revision) == (thinking.game, thinking.revision)
        && active.game.current_player() == thinking.player
        && matches!(seats.of(usize::from(thinking.player.0)), Seat::Bot(_))
        && *mode.get() == Mode::Play;
    if let (true, Some(command)) = (still, result) {
        requests.write(CommandRequest(command));
        commands.insert_resource(LastBotMove(time.elapsed()));
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
        let game = &active.game;
        let config = bot_config(HINT_STRENGTH, game, game.current_player());
        hint.task = Some((think(game, config), (active.id, active.revision)));
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
