//! Computer players at the table: each seat is a person or a bot of some
//! strength. A bot thinks on a background task (the window never waits for
//! it), its command goes through the same request as a click, and its moves
//! come at a readable pace. A hint runs a bot for a person's turn and shows
//! its choice without playing it.

use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use sandtable_bots::{BotConfig, MAX_STRENGTH};
use sandtable_cache::CacheLegal;
use sandtable_cache::{Command, Game, PlayerId};
use sandtable_core::game::seat_seed;
use sandtable_core::record::SeatPlayer;

use super::{ActiveGame, CommandRequest, GameLoaded, Notice};
use crate::mode::Mode;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Seats>()
        .init_resource::<BotPace>()
        .init_resource::<Hint>()
        .add_message::<HintRequest>()
        .add_message::<NewGameRequest>()
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
                (confirm_bot_handover, fit_seats_to_game).in_set(crate::FlowSteps::Follow),
            ),
        );
}

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seat {
    /// A person at the table.
    #[default]
    Human,
    /// A bot of this strength, 1 (random) to [`MAX_STRENGTH`].
    Bot(u8),
}

/// A game record's `[Seats]` header names each seat's player.
impl From<Seat> for SeatPlayer {
    fn from(seat: Seat) -> SeatPlayer {
        match seat {
            Seat::Human => SeatPlayer::Person,
            Seat::Bot(level) => SeatPlayer::Bot(level),
        }
    }
}

impl From<SeatPlayer> for Seat {
    fn from(player: SeatPlayer) -> Seat {
        match player {
            SeatPlayer::Person => Seat::Human,
            SeatPlayer::Bot(level) => Seat::Bot(level),
        }
    }
}

impl Seat {
    /// Every choice of the players panel, weakest bot first.
    pub fn choices() -> impl Iterator<Item = Seat> {
        std::iter::once(Seat::Human).chain((1..=MAX_STRENGTH).map(Seat::Bot))
    }

    /// The seat as the panel names it.
    pub fn describe(self) -> String {
        match self {
            Seat::Human => "person".to_owned(),
            Seat::Bot(level) => {
                let config = BotConfig::strength(level, 0);
                match config.budget {
                    sandtable_bots::Budget::Within { iterations, time }
                        if config.kind == sandtable_bots::BotKind::Mcts =>
                    {
                        format!(
                            "bot {level}: mcts, {iterations} iterations within {} s",
                            time.as_secs()
                        )
                    }
                    _ => format!("bot {level}: {}", config.kind),
                }
            }
        }
    }
}

/// The seat of every player, in turn order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Seats(pub Vec<Seat>);

impl Seats {
    /// The seat of a player (a person when the list is short).
    pub fn of(&self, player: PlayerId) -> Seat {
        self.0
            .get(usize::from(player.0))
            .copied()
            .unwrap_or_default()
    }

    /// Whether the player to move is a bot.
    pub fn bot_to_move(&self, game: &Game) -> bool {
        matches!(self.of(game.current_player()), Seat::Bot(_))
    }
}

/// How long a bot's command stays on the table before its next one.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotPace(pub Duration);

impl Default for BotPace {
    fn default() -> Self {
        BotPace(Duration::from_millis(700))
    }
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
struct LastBotMove(Duration);

/// Ask for a hint for the person to move.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintRequest;

/// Start the scenario in play again from its setup, keeping the seats.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NewGameRequest {
    /// The person said the game in play may go with its unsaved moves.
    pub discard_unsaved: bool,
}

/// The strength a hint thinks with.
pub const HINT_STRENGTH: u8 = 3;

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
            seats.0.resize(n, Seat::Human);
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
    if !super::may_leave(
        &mut commands,
        active.as_deref(),
        request.discard_unsaved,
        super::Leaving::NewGame,
    ) {
        return;
    }
    if let Some(active) = active {
        commands.insert_resource(ActiveGame::new(
            active.scenario.clone(),
            active.source.clone(),
        ));
        loaded.write(GameLoaded);
        notice.info_after(request.discard_unsaved, "a new game of the same scenario");
    }
}

/// A hand-over to a bot needs nobody to confirm it.
fn confirm_bot_handover(mut active: Option<ResMut<ActiveGame>>, seats: Res<Seats>) {
    if let Some(active) = active.as_deref_mut()
        && let Some(next) = active.handover
        && matches!(seats.of(next), Seat::Bot(_))
    {
        active.handover = None;
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
    if let Seat::Bot(level) = seats.of(player) {
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
        && matches!(seats.of(thinking.player), Seat::Bot(_))
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
