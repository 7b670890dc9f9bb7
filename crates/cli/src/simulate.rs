//! `simulate`: many games with uniformly random legal commands, spread over the
//! machine's cores, with a progress bar on a terminal and a summary at the end.
//! Game `i` uses seed `seed + i`, so every game can be replayed from its record.

use sandtable_core::text::path_shown;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use crate::{Front, Tallies};
use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Legal, Seat, next_seat};
use sandtable_core::record::Record;

use crate::Failure;
use crate::replay::{CommandOf, check_turn_limit, record_headers};

/// Turn limit of simulated games whose scenario sets none.
const DEFAULT_TURN_LIMIT: u32 = 200;

struct GameResult<C> {
    winner: Option<Seat>,
    turns: u32,
    commands: u64,
    /// What the system counts, by name (captures, stash results).
    tallies: Tallies,
    record: Option<Vec<C>>,
}

/// What the games played so far add up to: kept as running sums, so that
/// memory does not grow with the number of games.
#[derive(Default)]
struct Totals {
    /// Each game's seed, the turn it ended in and its winner.
    ends: Vec<End>,
    wins: Vec<u64>,
    draws: u64,
    games: u64,
    turns: u64,
    commands: u64,
    tallies: Tallies,
}

impl Totals {
    fn add<C>(&mut self, r: &GameResult<C>) {
        match r.winner {
            Some(seat) => self.wins[seat.index()] += 1,
            None => self.draws += 1,
        }
        self.games += 1;
        self.turns += u64::from(r.turns);
        self.commands += r.commands;
        for (kind, n) in &r.tallies {
            *self.tallies.entry(kind.clone()).or_default() += n;
        }
    }
}

/// One game of uniformly random legal commands, through the contract.
fn play_one<F: Front>(
    front: &F,
    mut game: F::Game,
    seed: u64,
    keep_record: bool,
) -> GameResult<CommandOf<F>> {
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
    let mut legal: Vec<Legal<CommandOf<F>>> = Vec::with_capacity(64);
    let mut events = Vec::with_capacity(16);
    let mut member = Vec::with_capacity(1);
    let mut result = GameResult {
        winner: None,
        turns: 0,
        commands: 0,
        tallies: Tallies::new(),
        record: keep_record.then(Vec::new),
    };
    while let Some(seat) = next_seat(&game) {
        game.legal_into(seat, &mut legal);
        // A seat that owes a decision has a command (the contract): an
        // empty list is a fault of the rules, not a draw.
        assert!(
            !legal.is_empty(),
            "{} owes a decision and has no legal command",
            game.seat_name(seat)
        );
        // A family, then one of its members (the contract's random player:
        // a system whose list names every command draws nothing more).
        let family = legal[rng.random_range(0..legal.len())].command;
        member.clear();
        game.sample_into(seat, &family, 1, &mut rng, &mut member);
        let command = member.pop().unwrap_or(family);
        events.clear();
        game.apply_into(seat, &command, &mut events)
            .expect("a command from the legal list is legal");
        result.commands += 1;
        for e in &events {
            front.tally(e, &mut result.tallies);
        }
        if let Some(r) = result.record.as_mut() {
            r.push(command);
        }
    }
    if let Decision::Over(Ending::Won(seat)) = game.decision() {
        result.winner = Some(seat);
    }
    result.turns = game.turn();
    result
}

/// `simulate`: `games` games of random legal commands on every core, game
/// `i` with seed `seed + i`, and a summary; each game's record is written
/// into `save` when given.
pub fn run<F: Front>(
    front: &F,
    file: &Path,
    games: u32,
    seed: Option<u64>,
    turn_limit: Option<u32>,
    save: Option<&Path>,
) -> Result<String, Failure> {
    run_with_ends(front, file, games, seed, turn_limit, save).map(|(out, _)| out)
}

/// A game's seed, the turn it ended in, and its winner.
pub type End = (u64, u32, Option<Seat>);

/// [`run`], and each game's [`End`], by seed.
pub fn run_with_ends<F: Front>(
    front: &F,
    file: &Path,
    games: u32,
    seed: Option<u64>,
    turn_limit: Option<u32>,
    save: Option<&Path>,
) -> Result<(String, Vec<End>), Failure> {
    if games == 0 {
        return Err(Failure::new(1, "--games must be at least 1"));
    }
    check_turn_limit(front, turn_limit)?;
    if let Some(dir) = save {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::new(
                1,
                format!("{}: cannot create the folder: {e}", path_shown(dir)),
            )
        })?;
    }
    let first_seed = seed.unwrap_or(front.seed());
    let limit = turn_limit
        .or(front.turn_limit())
        .unwrap_or(DEFAULT_TURN_LIMIT);
    let n = u64::from(games);
    let threads = std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .min(games as usize);
    let bar = ProgressBar::new(u64::from(games));
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicU64::new(0);
    let totals = Mutex::new(Totals {
        wins: vec![0; front.seats()],
        ..Totals::default()
    });
    let save_error: Mutex<Option<String>> = Mutex::new(None);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= n {
                        break;
                    }
                    let game_seed = first_seed.wrapping_add(i);
                    let start = front
                        .start(game_seed, Some(limit), Dice::seeded(game_seed))
                        .expect("a loaded scenario is valid with any seed");
                    let mut result = play_one(front, start, game_seed, save.is_some());
                    if let (Some(dir), Some(commands)) = (save, result.record.take()) {
                        let path: PathBuf = dir.join(format!("game-{:04}.moves", i + 1));
                        let mut record = Record::from_commands(commands);
                        record.headers = record_headers(front, file, &path, game_seed, Some(limit));
                        let written =
                            sandtable_scenario::records::text_to_write(&record).and_then(|text| {
                                sandtable_scenario::files::write_atomically(
                                    &path,
                                    text.as_bytes(),
                                    sandtable_scenario::files::Backups::Keep,
                                )
                                .map_err(|e| e.to_string())
                            });
                        if let Err(e) = written {
                            *save_error.lock().expect("no panics hold this lock") = Some(format!(
                                "{}: cannot write the record: {e}",
                                path_shown(&path)
                            ));
                        }
                    }
                    let mut t = totals.lock().expect("no panics hold this lock");
                    t.add(&result);
                    t.ends.push((game_seed, result.turns, result.winner));
                    drop(t);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let seconds = started.elapsed().as_secs_f64();
    if let Some(e) = save_error.into_inner().expect("threads are done") {
        return Err(Failure::new(1, e));
    }
    let mut t = totals.into_inner().expect("threads are done");
    t.ends.sort_unstable();
    let ends = std::mem::take(&mut t.ends);
    let (wins, draws, turns, commands) = (t.wins, t.draws, t.turns, t.commands);
    let g = t.games as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{games} random games of \"{}\" (seeds {first_seed} to {}, turn limit {limit})",
        front.title(),
        first_seed.wrapping_add(u64::from(games) - 1)
    );
    let win_list: Vec<String> = front
        .seat_names()
        .iter()
        .zip(&wins)
        .map(|(name, w)| format!("{name} {w}"))
        .collect();
    let _ = writeln!(out, "wins: {}; draws: {draws}", win_list.join(", "));
    let _ = writeln!(out, "mean turns: {:.1}", turns as f64 / g);
    out.push_str(&front.report(&t.tallies, t.games));
    let _ = writeln!(
        out,
        "commands: {commands} in {seconds:.2} s on {threads} thread{}, {:.0} a second",
        if threads == 1 { "" } else { "s" },
        commands as f64 / seconds.max(1e-9)
    );
    if let Some(dir) = save {
        let _ = writeln!(out, "records: {} files in {}", t.games, path_shown(dir));
    }
    Ok((out, ends))
}
