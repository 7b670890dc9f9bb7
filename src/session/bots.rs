//! The bots at the table, for any rule system: when a bot's seat is to
//! decide, it thinks off the main thread (`sandtable_bots::choose` through
//! the contract), and its command is played through the system's own flow
//! ([`TableSystem::bot_request`]) when it is still that seat's decision of
//! the same game and revision, in play mode; otherwise the thought is
//! dropped. A bot waits [`BotPace`] after the last bot command, so that a
//! person can follow the game.

use std::marker::PhantomData;
use std::time::Duration;

use bevy::prelude::*;
use bevy::tasks::{AsyncComputeTaskPool, Task, futures::check_ready};
use sandtable_bots::{BotConfig, Seen};
use sandtable_core::game::{GameState, Seat as GameSeat, next_seat, seat_seed};

use super::game::{ActiveGame, TableSystem};
use super::{BotPace, HINT_STRENGTH, Seat, Seats};
use crate::mode::Mode;

/// A system's command, through the contract.
type Cmd<S> = <<S as TableSystem>::Game as GameState>::Command;

/// Adds the bots' systems of the rule system `S`, in
/// [`crate::schedule::AppSystems::RecordInput`]: a finished thought is played before
/// a new one starts.
pub fn add_bots<S: TableSystem>(app: &mut App) {
    app.add_systems(
        Update,
        (finish_bot_thinking::<S>, start_bot_thinking::<S>)
            .chain()
            .in_set(crate::schedule::AppSystems::RecordInput),
    )
    .add_systems(
        Update,
        forget_bot_thinking::<S>.run_if(resource_removed::<ActiveGame<S>>),
    );
}

/// A bot thinking for the seat to decide, for one game and revision.
#[derive(Resource)]
pub struct Thinking<S: TableSystem> {
    task: Task<Option<Cmd<S>>>,
    game: u64,
    revision: u64,
    /// The seat it thinks for.
    pub seat: GameSeat,
}

/// The time the last bot command of the system `S` was played, for the
/// pace.
#[derive(Resource, Debug, Clone, Copy)]
pub struct LastBotMove<S: TableSystem>(Duration, PhantomData<S>);

/// The bot of `level`'s choice for `seat` in `game`, having seen `seen` of
/// the other seats' play, its own choices drawn from `seed` with the seat
/// mixed in (as the CLI seeds its bots), so that a replayed game with the
/// same seats plays the same.
pub fn bot_command<G: sandtable_bots::Plays>(
    game: &G,
    seat: GameSeat,
    level: u8,
    seed: u64,
    seen: Seen,
) -> Option<G::Command> {
    sandtable_bots::choose(
        game,
        seat,
        &BotConfig::strength(level, seat_seed(seed, seat)).with_seen(seen),
    )
}

/// Thinks of the command of a bot of `level` for the seat to decide, off
/// the main thread.
pub fn think<S: TableSystem>(active: &ActiveGame<S>, level: u8) -> Task<Option<Cmd<S>>> {
    let game = active.game.game().clone();
    let seed = S::bot_seed(active);
    let seen = next_seat(&game)
        .map(|seat| active.seen_by(seat))
        .unwrap_or_default();
    AsyncComputeTaskPool::get().spawn(async move {
        let seat = next_seat(&game)?;
        bot_command(&game, seat, level, seed, seen)
    })
}

/// Bots wait while the table plays something out for the person at it
/// (the ring's move a tick at a time): set by the system that shows it.
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BotsWait(pub bool);

/// Starts a bot thinking when a bot's seat is to decide, no hand-over
/// waits, and the last bot command has been on the table long enough (in
/// play only: not in layout mode).
fn start_bot_thinking<S: TableSystem>(
    mut commands: Commands,
    active: Option<Res<ActiveGame<S>>>,
    seats: Res<Seats>,
    thinking: Option<Res<Thinking<S>>>,
    pace: Res<BotPace>,
    paused: Option<Res<super::BotsPaused>>,
    last: Option<Res<LastBotMove<S>>>,
    mode: Res<State<Mode>>,
    time: Res<Time<Real>>,
    wait: Option<Res<BotsWait>>,
) {
    let Some(active) = active else {
        return;
    };
    // A served game's bots are the server's.
    if thinking.is_some()
        || active.outbox.is_some()
        || active.reviewing.is_some()
        || *mode.get() != Mode::Play
        || active.handover.is_some()
        || wait.is_some_and(|w| w.0)
        || paused.is_some_and(|p| p.0)
        || last.is_some_and(|l| time.elapsed() < l.0 + pace.0)
    {
        return;
    }
    let Some(seat) = next_seat(active.game.game()) else {
        return;
    };
    if let Seat::Bot(level) = seats.of(usize::from(seat.0)) {
        commands.insert_resource(Thinking::<S> {
            task: think(&active, level),
            game: active.id,
            revision: active.revision,
            seat,
        });
    }
}

/// Plays a bot's command once it is ready, if the game has not changed
/// meanwhile (another game, an undo, the seat given to a person) and
/// layout mode is off; otherwise the thought is dropped.
fn finish_bot_thinking<S: TableSystem>(
    mut commands: Commands,
    thinking: Option<ResMut<Thinking<S>>>,
    active: Option<Res<ActiveGame<S>>>,
    seats: Res<Seats>,
    mode: Res<State<Mode>>,
    time: Res<Time<Real>>,
    mut requests: MessageWriter<S::BotRequest>,
) {
    let Some(mut thinking) = thinking else {
        return;
    };
    let Some(result) = check_ready(&mut thinking.task) else {
        return;
    };
    commands.remove_resource::<Thinking<S>>();
    let Some(active) = active else {
        return;
    };
    // Layout mode hides the game: the bot thinks again when it is back.
    let still = (active.id, active.revision) == (thinking.game, thinking.revision)
        && next_seat(active.game.game()) == Some(thinking.seat)
        && matches!(seats.of(usize::from(thinking.seat.0)), Seat::Bot(_))
        && *mode.get() == Mode::Play;
    if let (true, Some(command)) = (still, result) {
        requests.write(S::bot_request(command));
        commands.insert_resource(LastBotMove::<S>(time.elapsed(), PhantomData));
    }
}

/// The system's game left the table: its bot's thought and pace go too.
fn forget_bot_thinking<S: TableSystem>(mut commands: Commands) {
    commands.remove_resource::<Thinking<S>>();
    commands.remove_resource::<LastBotMove<S>>();
}

/// A hint for the person to decide: the command a bot of
/// [`HINT_STRENGTH`] would play, for one game and revision of it.
#[derive(Resource)]
pub struct Hint<S: TableSystem> {
    /// Waiting for the bot, for a game and a revision of it.
    task: Option<(Task<Option<Cmd<S>>>, (u64, u64))>,
    /// The command, and the game and revision it is for.
    pub shown: Option<(Cmd<S>, (u64, u64))>,
}

impl<S: TableSystem> Default for Hint<S> {
    fn default() -> Self {
        Hint {
            task: None,
            shown: None,
        }
    }
}

/// Asks for a hint when `asked`, unless one is being thought of: the
/// notice says it is being thought of, or what `why_not` says (why no
/// person may play now).
pub fn ask_hint<S: TableSystem>(
    asked: bool,
    hint: &mut Hint<S>,
    active: &ActiveGame<S>,
    why_not: impl FnOnce() -> Option<String>,
    notice: &mut super::Notice,
) {
    if asked && !hint.thinking() {
        match why_not() {
            Some(why) => notice.info(format!("no hint: {why}")),
            None => {
                hint.ask(active);
                notice.info("thinking of a hint...");
            }
        }
    }
}

/// A hint thought of for a game that has moved on since it was asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MovedOn;

impl<S: TableSystem> Hint<S> {
    /// Whether a hint is being thought of.
    pub fn thinking(&self) -> bool {
        self.task.is_some()
    }

    /// Starts thinking of a hint for the game as it stands, unless one is
    /// being thought of already.
    pub fn ask(&mut self, active: &ActiveGame<S>) {
        if self.task.is_none() {
            self.task = Some((think(active, HINT_STRENGTH), (active.id, active.revision)));
        }
    }

    /// The hint once thought of, shown from then on when it is for the
    /// game as it stands, or [`MovedOn`] when the game has changed since;
    /// `None` while thinking, with nothing asked, or with no decision to
    /// hint at.
    pub fn ready(&mut self, active: &ActiveGame<S>) -> Option<Result<Cmd<S>, MovedOn>> {
        let (task, at) = self.task.as_mut()?;
        let command = check_ready(task)?;
        let at = *at;
        self.task = None;
        let command = command?;
        if at != (active.id, active.revision) {
            return Some(Err(MovedOn));
        }
        self.shown = Some((command, at));
        Some(Ok(command))
    }

    /// The hint for the game in play as it stands, if one was given.
    pub fn for_game(&self, active: &ActiveGame<S>) -> Option<Cmd<S>> {
        self.shown
            .filter(|(_, at)| *at == (active.id, active.revision))
            .map(|(command, _)| command)
    }
}
