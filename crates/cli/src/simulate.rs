//! `simulate`: many games with uniformly random legal commands, spread over the
//! machine's cores, with a progress bar on a terminal and a summary at the end.
//! Game `i` uses seed `seed + i`, so every game can be replayed from its record.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_cache::{Command, Event, Game, Outcome, Record};

use crate::Failure;
use crate::replay::{check_turn_limit, load_scenario, record_headers};

/// Turn limit of simulated games whose scenario sets none.
const DEFAULT_TURN_LIMIT: u32 = 200;

struct GameResult {
    outcome: Option<Outcome>,
    turns: u32,
    commands: u64,
    unit_captures: u64,
    base_captures: u64,
    /// Stash results rolled, by kind (R21).
    stash_results: BTreeMap<String, u64>,
    record: Option<Vec<Command>>,
}

/// What the games played so far add up to: kept as running sums, so that
/// memory does not grow with the number of games.
#[derive(Default)]
struct Totals {
    wins: Vec<u64>,
    draws: u64,
    games: u64,
    turns: u64,
    commands: u64,
    units: u64,
    bases: u64,
    stash_results: BTreeMap<String, u64>,
}

impl Totals {
    fn add(&mut self, r: &GameResult) {
        match r.outcome {
            Some(Outcome::Won(p)) => self.wins[usize::from(p.0)] += 1,
            _ => self.draws += 1,
        }
        self.games += 1;
        self.turns += u64::from(r.turns);
        self.commands += r.commands;
        self.units += r.unit_captures;
        self.bases += r.base_captures;
        for (kind, n) in &r.stash_results {
            *self.stash_results.entry(kind.clone()).or_default() += n;
        }
    }
}

fn play_one(start: Game, seed: u64, keep_record: bool) -> GameResult {
    let mut game = start;
    let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed_5eed_5eed_5eed);
    let mut legal = Vec::with_capacity(64);
    let mut events = Vec::with_capacity(16);
    let mut result = GameResult {
        outcome: None,
        turns: 0,
        commands: 0,
        unit_captures: 0,
        base_captures: 0,
        stash_results: Default::default(),
        record: keep_record.then(Vec::new),
    };
    loop {
        game.legal_commands_into(&mut legal);
        if legal.is_empty() {
            break;
        }
        let command = legal[rng.random_range(0..legal.len())].command;
        events.clear();
        game.apply_into(command, &mut events)
            .expect("a command from legal_commands() is legal");
        result.commands += 1;
        for e in &events {
            match e {
                Event::Captured { .. } => result.unit_captures += 1,
                Event::BaseCaptured { .. } => result.base_captures += 1,
                Event::StashRolled { result: r, .. } => {
                    *result.stash_results.entry(r.to_string()).or_default() += 1;
                }
                _ => {}
            }
        }
        if let Some(r) = result.record.as_mut() {
            r.push(command);
        }
    }
    result.outcome = game.outcome();
    result.turns = game.turn();
    result
}

pub(crate) fn run(
    file: &Path,
    games: u32,
    seed: Option<u64>,
    turn_limit: Option<u32>,
    save: Option<&Path>,
) -> Result<String, Failure> {
    let scenario = load_scenario(file)?;
    if games == 0 {
        return Err(Failure::new(1, "--games must be at least 1"));
    }
    check_turn_limit(turn_limit)?;
    if let Some(dir) = save {
        std::fs::create_dir_all(dir).map_err(|e| {
            Failure::new(
                1,
                format!("{}: cannot create the folder: {e}", dir.display()),
            )
        })?;
    }
    let first_seed = seed.unwrap_or(scenario.setup.seed);
    let limit = turn_limit
        .or(scenario.setup.turn_limit)
        .unwrap_or(DEFAULT_TURN_LIMIT);
    let mut setup = scenario.setup.clone();
    setup.turn_limit = Some(limit);
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
        wins: vec![0; scenario.setup.players.len()],
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
                    let mut s = setup.clone();
                    s.seed = game_seed;
                    let start = Game::new(&s).expect("a loaded scenario is valid with any seed");
                    let mut result = play_one(start, game_seed, save.is_some());
                    if let (Some(dir), Some(commands)) = (save, result.record.take()) {
                        let path: PathBuf = dir.join(format!("game-{:04}.moves", i + 1));
                        let mut record = Record::from_commands(commands);
                        record.headers =
                            record_headers(&scenario, file, &path, game_seed, Some(limit));
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
                            *save_error.lock().expect("no panics hold this lock") =
                                Some(format!("{}: cannot write the record: {e}", path.display()));
                        }
                    }
                    totals
                        .lock()
                        .expect("no panics hold this lock")
                        .add(&result);
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
    let t = totals.into_inner().expect("threads are done");
    let (wins, draws, turns, commands, units, bases) =
        (t.wins, t.draws, t.turns, t.commands, t.units, t.bases);
    let stash_results = t.stash_results;
    let g = t.games as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{games} random games of \"{}\" (seeds {first_seed} to {}, turn limit {limit})",
        scenario.name,
        first_seed.wrapping_add(u64::from(games) - 1)
    );
    let win_list: Vec<String> = scenario
        .setup
        .players
        .iter()
        .zip(&wins)
        .map(|(p, w)| format!("{} {w}", p.name))
        .collect();
    let _ = writeln!(out, "wins: {}; draws: {draws}", win_list.join(", "));
    let _ = writeln!(out, "mean turns: {:.1}", turns as f64 / g);
    let _ = writeln!(
        out,
        "captures: {units} units and {bases} bases ({:.1} units a game)",
        units as f64 / g
    );
    if !stash_results.is_empty() {
        let rolled: u64 = stash_results.values().sum();
        let _ = writeln!(out, "stashes discovered: {rolled}");
        for (kind, n) in &stash_results {
            let _ = writeln!(out, "  {n:>6}  {kind}");
        }
    }
    let _ = writeln!(
        out,
        "commands: {commands} in {seconds:.2} s on {threads} thread{}, {:.0} a second",
        if threads == 1 { "" } else { "s" },
        commands as f64 / seconds.max(1e-9)
    );
    if let Some(dir) = save {
        let _ = writeln!(out, "records: {} files in {}", t.games, dir.display());
    }
    Ok(out)
}
