//! `play` (a record, then bots for the seats given) and `tournament` (every
//! pairing of bots, seats swapped, a win-rate table with Wilson intervals).
//! The bots themselves live in `sandtable-bots`.

use sandtable_core::text::path_shown;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::{Front, apply_record_until, header_number, no_command, output, play_seats, record_of};
use indicatif::{ProgressBar, ProgressStyle};
use sandtable_bots::{BotConfig, BotKind, Budget, DEFAULT_ITERATIONS, Seen};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Seat, next_seat, seat_seed};
use sandtable_core::record::header;

use crate::Failure;
use crate::replay::{check_turn_limit, load_record, new_game, record_headers, start};

/// Turn limit of bot games whose scenario and record set none.
pub(crate) const DEFAULT_TURN_LIMIT: u32 = 200;

/// How mcts thinks, and the seed of the bots' own choices.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct Thinking {
    /// Iterations (playouts) of mcts a decision [default: 300]
    #[arg(long, conflicts_with = "mcts_ms")]
    mcts_iterations: Option<u32>,
    /// Milliseconds of mcts a decision, instead of iterations (then not deterministic)
    #[arg(long)]
    mcts_ms: Option<u64>,
    /// Trees mcts grows at once, one a thread
    #[arg(long, default_value_t = 1)]
    mcts_trees: u8,
    /// Seed of the bots' own choices (default: the game's seed)
    #[arg(long)]
    bot_seed: Option<u64>,
}

impl Thinking {
    /// `iterations` of mcts a decision on one tree, and the bots' own seed
    /// (else the game's), as `--mcts-iterations` and `--bot-seed` give them.
    pub fn iterations(iterations: u32, bot_seed: Option<u64>) -> Thinking {
        Thinking {
            mcts_iterations: Some(iterations),
            mcts_ms: None,
            mcts_trees: 1,
            bot_seed,
        }
    }

    fn budget(&self) -> Budget {
        match (self.mcts_ms, self.mcts_iterations) {
            (Some(ms), _) => Budget::Time(Duration::from_millis(ms)),
            (None, n) => Budget::Iterations(n.unwrap_or(DEFAULT_ITERATIONS)),
        }
    }

    pub(crate) fn config(&self, kind: BotKind, seed: u64) -> BotConfig {
        BotConfig::new(kind, seed)
            .with_budget(self.budget())
            .with_threads(self.mcts_trees)
    }

    /// Refuses a budget of nothing and no trees.
    pub fn check(&self) -> Result<(), Failure> {
        if self.mcts_iterations == Some(0) || self.mcts_ms == Some(0) {
            return Err(Failure::new(1, "the mcts budget must be at least 1"));
        }
        if self.mcts_trees == 0 {
            return Err(Failure::new(1, "--mcts-trees must be at least 1"));
        }
        Ok(())
    }

    pub(crate) fn describe(&self) -> String {
        let trees = match self.mcts_trees {
            1 => "one tree".to_owned(),
            n => format!("{n} trees"),
        };
        match self.budget() {
            Budget::Iterations(n) => format!("{n} iterations a decision, {trees}"),
            Budget::Time(t) => format!("{} ms a decision, {trees}", t.as_millis()),
            Budget::Within { iterations, time } => format!(
                "{iterations} iterations a decision within {} ms, {trees}",
                time.as_millis()
            ),
        }
    }
}

/// Reads `PLAYER=BOT` seat assignments for a game of `players` players.
fn seats(specs: &[String], players: usize) -> Result<Vec<Option<BotKind>>, Failure> {
    let mut seats = vec![None; players];
    for spec in specs {
        let bad = |why: String| Failure::new(1, format!("--bot {spec}: {why}"));
        let (player, kind) = spec
            .split_once('=')
            .ok_or_else(|| bad("write PLAYER=BOT, for example 1=mcts".to_owned()))?;
        let player: usize = player
            .trim()
            .parse()
            .map_err(|_| bad(format!("`{player}` is not a player index")))?;
        let kind: BotKind = kind.parse().map_err(|e| bad(format!("{e}")))?;
        let seat = seats.get_mut(player).ok_or_else(|| {
            bad(format!(
                "the scenario has {players} players, numbered 0 to {}",
                players - 1
            ))
        })?;
        if seat.is_some() {
            return Err(bad(format!("player {player} already has a bot")));
        }
        *seat = Some(kind);
    }
    Ok(seats)
}

/// Options of `play`.
pub struct PlayOptions<'a> {
    /// The record to apply first.
    pub record: Option<&'a Path>,
    /// The seed, over the record's and the scenario's.
    pub seed: Option<u64>,
    /// Print the JSON view instead of the log and the board.
    pub json: bool,
    /// `PLAYER=BOT` seats.
    pub bots: &'a [String],
    /// The turn limit, over the record's and the scenario's.
    pub turn_limit: Option<u32>,
    /// Where to write the whole game's record.
    pub save: Option<&'a Path>,
    /// The dice and the viewer.
    pub seeing: crate::Seeing,
    /// How mcts thinks.
    pub thinking: Thinking,
}

/// `play`: apply the record if one is given, let the bots play their seats
/// until the game ends or a seat without a bot is to play, then print the log
/// and the board, or the JSON summary.
pub fn play<F: Front>(front: &F, file: &Path, o: PlayOptions<'_>) -> Result<String, Failure> {
    check_turn_limit(front, o.turn_limit)?;
    let seats = seats(o.bots, front.seats())?;
    let fallback_limit = (!o.bots.is_empty()).then_some(DEFAULT_TURN_LIMIT);
    let mut log = String::new();
    let mut commands = Vec::new();
    let mut record_stopped = None;
    let (mut game, seed, limit) = match o.record {
        Some(path) => {
            let record = load_record(path, front)?;
            let limit = o
                .turn_limit
                .or(header_number(&record, header::TURN_LIMIT, path)?)
                .or(front.turn_limit())
                .or(fallback_limit);
            let (mut game, seed) = start(front, &record, path, o.seed, limit, &o.seeing)?;
            let viewer = o.seeing.viewer(&game)?;
            // The log is shown only without --json. A record whose dice
            // run out stops there, as a bot's command would, and the game
            // so far is saved (R30); any other refusal is a broken record.
            commands = record.command_list();
            match apply_record_until(
                &mut game,
                &record,
                path,
                (!o.json).then_some((&mut log, viewer)),
            ) {
                Ok(()) => {}
                Err(stop) if stop.dice_out => {
                    commands.truncate(stop.applied);
                    record_stopped = Some(stop.failure);
                }
                Err(stop) => return Err(stop.failure),
            }
            (game, seed, limit)
        }
        None => {
            let seed = o.seed.unwrap_or(front.seed());
            let limit = o.turn_limit.or(front.turn_limit()).or(fallback_limit);
            (
                new_game(front, &o.seeing, seed, limit, None, file)?,
                seed,
                limit,
            )
        }
    };
    let viewer = o.seeing.viewer(&game)?;
    let bot_seed = o.thinking.bot_seed.unwrap_or(seed);
    let mut stuck = None;
    let mut watching = Watching::new(&seats);
    let no_bots: Vec<Option<BotKind>> = vec![None; seats.len()];
    // Stopped in the record: no bot plays on.
    let seats = if record_stopped.is_some() {
        &no_bots
    } else {
        &seats
    };
    let played = play_seats(
        &mut game,
        &mut commands,
        (&mut log, viewer),
        |game, seat| {
            watching.catch_up(front);
            let kind = seats[seat.index()]?;
            let config = o
                .thinking
                .config(kind, seat_seed(bot_seed, seat))
                .with_seen(watching.seen[seat.index()]);
            let decided = front.decide(game, seat, &config);
            if decided.is_none() {
                stuck = Some(seat);
            }
            let command = decided?.command;
            watching.about_to_play(game, seat, command);
            Some((command, kind))
        },
    );
    // Play that stops early (scripted dice run out, R30) stops as it would
    // for a person, and the game so far is still saved, with the rolls used.
    let stopped = match (record_stopped, played, stuck) {
        (Some(failure), _, _) | (None, Err(failure), _) => Some(failure),
        (None, Ok(()), Some(seat)) => Some(no_command(&game, seat)),
        (None, Ok(()), None) => None,
    };
    if let Some(path) = o.save {
        let headers = record_headers(front, file, path, seed, limit);
        // With scripted dice, the rolls the game used: it replays roll for roll.
        let record = record_of(&game, headers, commands);
        let text = sandtable_scenario::records::text_to_write(&record)
            .map_err(|e| Failure::new(1, format!("{}: not written: {e}", path_shown(path))))?;
        sandtable_scenario::files::write_atomically(
            path,
            text.as_bytes(),
            sandtable_scenario::files::Backups::Keep,
        )
        .map_err(|e| {
            Failure::new(
                1,
                format!("{}: cannot write the record: {e}", path_shown(path)),
            )
        })?;
    }
    if let Some(mut failure) = stopped {
        if let Some(path) = o.save {
            let _ = write!(
                failure.message,
                "\nthe game so far is saved to {}",
                path_shown(path)
            );
        }
        return Err(failure);
    }
    Ok(output(&game, viewer, o.json, &log))
}

/// What each seat's bot has seen of the others' play (`Seen`): the
/// search models its opponents' replies on it. Only the bots that model
/// anyone (mcts) watch; `play` watches the commands the bots give, not
/// those of the record it starts from.
struct Watching<G: GameState> {
    /// The seats whose bots watch.
    watchers: Vec<Seat>,
    seen: Vec<Seen>,
    /// The last command given, with the position it was given in, until
    /// it is watched.
    pending: Option<(G, Seat, G::Command)>,
}

impl<G: GameState> Watching<G> {
    fn new(seats: &[Option<BotKind>]) -> Watching<G> {
        Watching {
            watchers: (0..seats.len())
                .filter(|&s| seats[s] == Some(BotKind::Mcts))
                .map(|s| Seat(s as u16))
                .collect(),
            seen: vec![Seen::default(); seats.len()],
            pending: None,
        }
    }

    /// Keeps `command` of `seat` in `game` to be watched (a copy of the
    /// game, only where a bot watches).
    fn about_to_play(&mut self, game: &G, seat: Seat, command: G::Command) {
        if !self.watchers.is_empty() {
            self.pending = Some((game.clone(), seat, command));
        }
    }

    /// Lets every watching bot see the command kept last.
    fn catch_up<F: Front<Game = G>>(&mut self, front: &F) {
        if let Some((game, seat, command)) = self.pending.take() {
            self.watch(front, &game, seat, &command);
        }
    }

    /// Lets every watching bot but `seat`'s see `command` of `seat` in
    /// `game`.
    fn watch<F: Front<Game = G>>(&mut self, front: &F, game: &G, seat: Seat, command: &G::Command) {
        if self.watchers.iter().all(|&bot| bot == seat) {
            return;
        }
        let seen = front.as_greedy(game, seat, command);
        for &bot in &self.watchers {
            if bot != seat {
                self.seen[bot.index()].add(seen);
            }
        }
    }
}

/// What `play` checks before it loads anything: the thinking asked for, and
/// that the record it saves would not overwrite an input.
pub fn check_play(file: &Path, o: &PlayOptions<'_>) -> Result<(), Failure> {
    o.thinking.check()?;
    if let Some(out) = o.save {
        let inputs = std::iter::once(file).chain(o.record);
        sandtable_scenario::files::refuse_output_over_input(out, inputs)
            .map_err(|e| Failure::new(1, e))?;
    }
    Ok(())
}

/// Options of `tournament`.
pub struct TournamentOptions {
    /// Games a pairing.
    pub games: u32,
    /// The seed of the first deal.
    pub seed: Option<u64>,
    /// The turn limit of every game.
    pub turn_limit: Option<u32>,
    /// Games played at once.
    pub threads: Option<usize>,
    /// How mcts thinks.
    pub thinking: Thinking,
}

/// One game of a tournament, as the first bot of its pairing saw it.
#[derive(Clone, Copy, Default)]
pub(crate) struct Played {
    /// 1: the first bot won; -1: the second did; 0: a draw.
    result: i8,
    /// The first bot's seat (player index).
    seat: usize,
    /// The turns played.
    pub(crate) turns: u32,
    mcts_decisions: u64,
    playouts: u64,
    mcts_seconds: f64,
}

impl Played {
    /// Two games' figures as one (a match's).
    pub(crate) fn and(self, other: Played) -> Played {
        Played {
            result: 0,
            seat: 0,
            turns: self.turns + other.turns,
            mcts_decisions: self.mcts_decisions + other.mcts_decisions,
            playouts: self.playouts + other.playouts,
            mcts_seconds: self.mcts_seconds + other.mcts_seconds,
        }
    }
}

/// The games of one pairing so far, as running sums.
#[derive(Clone, Copy, Default)]
struct PairingTotals {
    games: u32,
    wins: u32,
    losses: u32,
    /// The first bot's wins on seat 0 and on seat 1.
    seat_wins: [u32; 2],
    turns: u64,
    mcts_decisions: u64,
    playouts: u64,
    mcts_seconds: f64,
}

impl PairingTotals {
    fn add(&mut self, game: &Played) {
        self.games += 1;
        match game.result {
            1 => {
                self.wins += 1;
                self.seat_wins[game.seat.min(1)] += 1;
            }
            -1 => self.losses += 1,
            _ => {}
        }
        self.turns += u64::from(game.turns);
        self.mcts_decisions += game.mcts_decisions;
        self.playouts += game.playouts;
        self.mcts_seconds += game.mcts_seconds;
    }
}

/// Plays one game with `bots[p]` on seat p, to its end (the turn limit is
/// set), through the contract: the winner's seat, if any, and the figures.
pub(crate) fn play_game<F: Front>(
    front: &F,
    game: F::Game,
    bots: [BotConfig; 2],
) -> (Option<Seat>, Played) {
    let (winner, played, _) = play_game_watched(front, game, bots, |_, _| {});
    (winner, played)
}

/// [`play_game`], `watch` given each command's events with the game
/// they left; the game at its end too.
pub(crate) fn play_game_watched<F: Front>(
    front: &F,
    mut game: F::Game,
    bots: [BotConfig; 2],
    mut watch: impl FnMut(&F::Game, &[<F::Game as GameState>::Event]),
) -> (Option<Seat>, Played, F::Game) {
    let mut played = Played::default();
    let mut events = Vec::new();
    let mut watching = Watching::new(&bots.map(|b| Some(b.kind)));
    while let Some(seat) = next_seat(&game) {
        let config = &bots[seat.index()].with_seen(watching.seen[seat.index()]);
        let started = Instant::now();
        let sandtable_bots::Decision {
            command, playouts, ..
        } = front
            .decide(&game, seat, config)
            .expect("seeded dice always leave a seat to act a legal command");
        if config.kind == BotKind::Mcts && playouts > 0 {
            played.mcts_decisions += 1;
            played.playouts += playouts;
            played.mcts_seconds += started.elapsed().as_secs_f64();
        }
        watching.watch(front, &game, seat, &command);
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("bots give legal commands");
        watch(&game, &events);
    }
    played.turns = game.turn();
    let winner = match game.decision() {
        Decision::Over(Ending::Won(seat)) => Some(seat),
        _ => None,
    };
    (winner, played, game)
}

/// The Wilson score interval of `wins` in `n` at 95% (z = 1.96).
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `tournament`: every pairing of the bots, `games` games each, each deal
/// played from both seats; a table of wins, draws and losses with the first
/// bot's win rate and its Wilson 95% interval.
pub fn tournament<F: Front>(
    front: &F,
    file: &Path,
    bots: &[BotKind],
    o: TournamentOptions,
) -> Result<String, Failure> {
    let players = front.seats();
    if players != 2 {
        return Err(Failure::new(
            1,
            format!(
                "{}: a tournament needs a scenario with two players, this one has {players}",
                path_shown(file)
            ),
        ));
    }
    check_turn_limit(front, o.turn_limit)?;
    let limit = o
        .turn_limit
        .or(front.turn_limit())
        .unwrap_or(DEFAULT_TURN_LIMIT);
    let first_seed = o.seed.unwrap_or(front.seed());
    let head = format!(
        "tournament on \"{}\": {} games a pairing, deals from seed {first_seed} each played from both seats, turn limit {limit}",
        front.title(),
        o.games
    );
    let words = Words {
        played: "games",
        draw: "a draw is a game still going at the turn limit (R11)",
    };
    run_tournament(bots, &o, first_seed, head, words, |seed, kinds| {
        let game = front
            .start(seed, Some(limit), Dice::seeded(seed))
            .expect("a loaded scenario is valid with any seed");
        let configs = [0, 1].map(|seat| {
            o.thinking
                .config(kinds[seat], seed.wrapping_mul(2).wrapping_add(seat as u64))
        });
        play_game(front, game, configs)
    })
}

/// What a tournament's table calls what it plays, and a draw.
pub(crate) struct Words {
    /// What one deal played is: games, or matches.
    pub(crate) played: &'static str,
    /// What a draw is.
    pub(crate) draw: &'static str,
}

/// Runs `job(0)` to `job(jobs - 1)` on `threads` threads (the machine's
/// cores by default, never more than the jobs), each taking the next job
/// left, with a progress bar of `what` on the terminal; the threads used
/// and the seconds taken.
pub(crate) fn run_jobs(
    jobs: u64,
    threads: Option<usize>,
    what: &str,
    job: impl Fn(u64) + Sync,
) -> (usize, f64) {
    let threads = threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |t| t.get()))
        .min(usize::try_from(jobs).unwrap_or(usize::MAX))
        .max(1);
    let bar = ProgressBar::new(jobs);
    bar.set_style(
        ProgressStyle::with_template(&format!("{{bar:40}} {{pos}}/{{len}} {what}, eta {{eta}}"))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicU64::new(0);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let j = next.fetch_add(1, Ordering::Relaxed);
                    if j >= jobs {
                        break;
                    }
                    job(j);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    (threads, started.elapsed().as_secs_f64())
}

/// The games of a tournament: every pairing of `bots`, `o.games` deals
/// each from `first_seed`, each deal played twice, the first bot on seat
/// 0 then on seat 1. `play(seed, kinds)` plays one deal with `kinds[p]`
/// on seat p: the winning seat, if any, and the figures. The table comes
/// after `head`.
pub(crate) fn run_tournament(
    bots: &[BotKind],
    o: &TournamentOptions,
    first_seed: u64,
    head: String,
    words: Words,
    play: impl Fn(u64, [BotKind; 2]) -> (Option<Seat>, Played) + Sync,
) -> Result<String, Failure> {
    if bots.len() < 2 {
        return Err(Failure::new(1, "--bots needs at least two bots"));
    }
    if let Some((_, b)) = bots
        .iter()
        .enumerate()
        .find(|(i, b)| bots[..*i].contains(b))
    {
        return Err(Failure::new(1, format!("--bots lists {b} twice")));
    }
    if o.games == 0 {
        return Err(Failure::new(1, "--games must be at least 1"));
    }
    if o.threads == Some(0) {
        return Err(Failure::new(1, "--threads must be at least 1"));
    }
    // Later bots first: with the default order, the stronger bot of each pairing.
    let pairings: Vec<(BotKind, BotKind)> = (0..bots.len())
        .flat_map(|j| (0..j).map(move |i| (bots[j], bots[i])))
        .collect();
    // Job j is game j % games of pairing j / games: worked out, not listed,
    // so that memory does not grow with the number of games.
    let jobs = pairings.len() as u64 * u64::from(o.games);
    let job = |j: u64| {
        (
            (j / u64::from(o.games)) as usize,
            (j % u64::from(o.games)) as u32,
        )
    };
    let results: Mutex<Vec<PairingTotals>> =
        Mutex::new(vec![PairingTotals::default(); pairings.len()]);
    let (threads, seconds) = run_jobs(jobs, o.threads, words.played, |j| {
        let (p, k) = job(j);
        let (a, b) = pairings[p];
        let seed = first_seed.wrapping_add(u64::from(k / 2));
        // Deal k/2 is played twice: the first bot on seat 0, then on seat 1.
        let a_seat = (k % 2) as usize;
        let mut kinds = [b, b];
        kinds[a_seat] = a;
        let (winner, mut played) = play(seed, kinds);
        played.seat = a_seat;
        played.result = match winner {
            Some(w) if w.index() == a_seat => 1,
            Some(_) => -1,
            None => 0,
        };
        results.lock().expect("no panics hold this lock")[p].add(&played);
    });
    let results = results.into_inner().expect("threads are done");

    let mut out = String::new();
    out.push_str(&head);
    out.push('\n');
    if bots.contains(&BotKind::Mcts) {
        let _ = writeln!(out, "mcts: {}", o.thinking.describe());
    }
    let w = words.played.len().max(5);
    let _ = writeln!(
        out,
        "{:<18} {:>w$} {:>5} {:>5} {:>6}  {:>8}  {:<17} {:>6}  {:>11}",
        "pairing",
        words.played,
        "wins",
        "draws",
        "losses",
        "win rate",
        "95% CI (Wilson)",
        "turns",
        "wins as 0/1"
    );
    let (mut decisions, mut playouts, mut mcts_seconds) = (0u64, 0u64, 0f64);
    for ((a, b), t) in pairings.iter().zip(&results) {
        let n = t.games;
        let (wins, losses) = (t.wins, t.losses);
        let draws = n - wins - losses;
        let turns = t.turns as f64 / f64::from(n);
        let (lo, hi) = wilson(wins, n);
        let _ = writeln!(
            out,
            "{:<18} {n:>w$} {wins:>5} {draws:>5} {losses:>6}  {:>7.1}%  {:>5.1}% to {:>5.1}%  {turns:>6.1}  {:>11}",
            format!("{a} vs {b}"),
            100.0 * f64::from(wins) / f64::from(n),
            100.0 * lo,
            100.0 * hi,
            format!("{}/{}", t.seat_wins[0], t.seat_wins[1]),
        );
        decisions += t.mcts_decisions;
        playouts += t.playouts;
        mcts_seconds += t.mcts_seconds;
    }
    let _ = writeln!(
        out,
        "wins, draws and losses are the first bot's, and its wins as player 0 and as player 1; {}",
        words.draw
    );
    if decisions > 0 {
        let _ = writeln!(
            out,
            "mcts: {decisions} decisions, {:.0} playouts a decision, {:.0} playouts a second a game",
            playouts as f64 / decisions as f64,
            playouts as f64 / mcts_seconds.max(1e-9)
        );
    }
    let _ = writeln!(
        out,
        "{jobs} {} in {seconds:.1} s on {threads} thread{}",
        words.played,
        if threads == 1 { "" } else { "s" }
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_intervals_match_known_values() {
        let (lo, hi) = wilson(8, 10);
        assert!(
            (lo - 0.490).abs() < 0.002 && (hi - 0.943).abs() < 0.002,
            "8 of 10: {lo} to {hi}"
        );
        let (lo, hi) = wilson(10, 10);
        assert!(
            (lo - 0.722).abs() < 0.002 && hi == 1.0,
            "10 of 10: {lo} to {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0), "no games: no knowledge");
    }

    #[test]
    fn seats_read_player_equals_bot() {
        let specs = vec!["1=mcts".to_owned(), "0=Greedy".to_owned()];
        assert_eq!(
            seats(&specs, 2).ok(),
            Some(vec![Some(BotKind::Greedy), Some(BotKind::Mcts)]),
            "both seats"
        );
        let err = |spec: &str| {
            seats(&[spec.to_owned()], 2)
                .err()
                .map(|f| f.message)
                .unwrap_or_default()
        };
        assert_eq!(
            err("2=random"),
            "--bot 2=random: the scenario has 2 players, numbered 0 to 1",
            "seat out of range"
        );
        assert_eq!(
            err("0=minimax"),
            "--bot 0=minimax: `minimax` is not a bot: use random, greedy or mcts",
            "unknown bot"
        );
        assert_eq!(
            err("mcts"),
            "--bot mcts: write PLAYER=BOT, for example 1=mcts",
            "no seat"
        );
    }
}
