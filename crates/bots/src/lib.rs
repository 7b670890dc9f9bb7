//! Computer players for Sandtable: given a [`Game`], a bot picks one of its
//! `legal_commands()`. Three kinds: [`BotKind::Random`] (uniform, the
//! baseline), [`BotKind::Greedy`] (one activation ahead) and [`BotKind::Mcts`]
//! (Monte Carlo tree search). No Bevy, no IO: the app and the CLI call
//! [`choose`] for any rule system that [`Plays`] and apply the command
//! themselves.
//!
//! The functions at the crate's root play Conflict at Cache with its own
//! search and evaluation, described below. [`search`] is the tree search
//! over the game contract, for any rule system that says how to value a
//! position ([`search::Judge`]); [`warpspawn`] is the Warpspawn battle's
//! judge, greedy bot and mcts on it; [`contract`] keeps a random player and
//! a plain search with random playouts for systems with no judge yet.
//!
//! ```
//! use sandtable_bots::{BotConfig, BotKind, Budget, choose};
//! use sandtable_cache::{Game, samples};
//!
//! let mut game = Game::new(&samples::table_a_skirmish(7, Some(200))).unwrap();
//! let config = BotConfig::new(BotKind::Mcts, 1).with_budget(Budget::Iterations(20));
//! let seat = sandtable_core::game::next_seat(&game).expect("a seat to decide");
//! let command = choose(&game, seat, &config).expect("a game that is not over has a legal command");
//! assert!(game.check(&command).is_ok());
//! game.apply(command).unwrap();
//! ```
//!
//! # The bots
//! - **random**: uniform among the legal commands. It almost never ends a
//!   game: it rarely walks a unit all the way to an enemy Base.
//! - **greedy**: tries every sequence of commands that the acting unit (at a
//!   turn's start: each unit it may activate) can give before its activation
//!   ends, and scores where each leaves the game: units on the board (captures
//!   count; a Base is worth ten units and its capture wins), actions earned by
//!   the facing of a capture (R9), the exposure of its own units and Bases to
//!   the opponent's next activation, and progress toward the enemy Bases (a
//!   distance map with terrain costs, R12, R13). It passes when no activation
//!   improves the score.
//! - **mcts**: UCT over whole activations. A move of the tree is a line of
//!   commands from a unit's `activate` to the end of its activation: the ten
//!   best lines by the greedy scoring (over every unit it may activate, or
//!   the rest of the activation in progress), plus a pass; a stash result's
//!   choice (R22) is a move of one command. Children are added best-first as
//!   a node's visits grow (progressive widening). A playout lets both sides
//!   play the best line of each activation (the greedy bot's play, among the
//!   four most promising units) until the end of the turn after the root's,
//!   so the opponent's reply is played out. The position is then valued for
//!   every player by the greedy evaluation with two changes for a position
//!   where the reply has been played: a threat on a Base is counted with the
//!   Base's capture costs (turns, terrain, road runs and bridges on an
//!   otherwise empty board, R8, R12 to R15), and a threat on a Base that the
//!   player to move cannot take away by capturing the threatening unit weighs
//!   in full. The root line of the best mean
//!   value (among those with at least a quarter of the most visits) is
//!   chosen and its first command played; the next call searches again.
//!   Under a time budget the rest of the chosen line is followed without a
//!   new search while the game goes where the line expected.
//!
//! # Chance and determinism
//! The game's generator lives inside the [`Game`] (R30), so a copy of the game
//! would roll the real future dice. Every bot therefore thinks on copies given
//! a generator of their own ([`Game::reseed`]): the greedy bot with one seed
//! per decision, the tree search with a fresh seed every iteration, so that
//! stash rolls (R21) are sampled, never peeked at.
//!
//! A decision depends only on the position (its [`Game::state_hash`]), the
//! config's seed, and for mcts its iteration budget and number of trees: the
//! same inputs give the same command every time. A time budget
//! ([`Budget::Time`]) trades that for a fixed thinking time, and follows the
//! line it chose (kept per thread, keyed by the config's seed and the
//! positions the line passes through) without thinking again. Iterations
//! within a time ([`Budget::Within`]) decide as the iterations alone
//! wherever they take less than the time.
//!
//! # Threads
//! With [`BotConfig::threads`] above 1, mcts grows one tree per thread from
//! different seeds (root parallelism) and adds their root visits and values
//! line by line in tree order. An iteration budget is split between the trees; a time budget
//! applies to each.
//!
//! # Strength
//! [`BotConfig::strength`] maps a level from 1 to [`MAX_STRENGTH`] to a bot
//! for the app's menu:
//!
//! | level | bot |
//! | --- | --- |
//! | 1 | random |
//! | 2 | greedy |
//! | 3 | mcts, 25 iterations a decision, within 1 s |
//! | 4 | mcts, 100 iterations a decision, within 2 s |
//! | 5 | mcts, 300 iterations a decision, within 4 s |
//!
//! # Speed
//! `cargo bench -p sandtable-bots` (benches/mcts.rs) times mcts at the start
//! of `scenarios/standard.ron`; the playout rate and the tournament figures
//! are in docs/bots.md.

pub mod contract;
mod eval;
pub mod frontiers;
mod greedy;
mod lines;
mod mcts;
pub mod review;
pub mod search;
pub mod warpspawn;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_cache::{Command, Game};
use sandtable_core::game::{GameState, Seat, next_seat};

/// Which bot plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BotKind {
    /// Uniform among the legal commands.
    Random,
    /// One activation ahead, by the shared evaluation.
    Greedy,
    /// Monte Carlo tree search over whole activations.
    Mcts,
}

impl BotKind {
    /// Every kind, weakest first.
    pub const ALL: [BotKind; 3] = [BotKind::Random, BotKind::Greedy, BotKind::Mcts];

    /// The name used on the command line and in menus: `random`, `greedy`, `mcts`.
    pub const fn name(self) -> &'static str {
        match self {
            BotKind::Random => "random",
            BotKind::Greedy => "greedy",
            BotKind::Mcts => "mcts",
        }
    }
}

impl fmt::Display for BotKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A bot name that is not one of `random`, `greedy`, `mcts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBotKindError(pub String);

impl fmt::Display for ParseBotKindError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` is not a bot: use random, greedy or mcts", self.0)
    }
}

impl std::error::Error for ParseBotKindError {}

impl FromStr for BotKind {
    type Err = ParseBotKindError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BotKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| ParseBotKindError(text.to_owned()))
    }
}

/// How long mcts thinks about one decision (random and greedy ignore it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Budget {
    /// This many iterations (playouts) in all, split between the trees:
    /// deterministic.
    Iterations(u32),
    /// Iterations until this much time has passed, on every tree: not
    /// deterministic.
    Time(Duration),
    /// This many iterations in all, as [`Budget::Iterations`], but no
    /// longer than `time`: the same choice as the iterations alone
    /// wherever they take less, and an answer in time on a battle of
    /// thousands of formations, where they would not.
    Within {
        /// The iterations.
        iterations: u32,
        /// The most time the decision takes.
        time: Duration,
    },
}

/// Iterations of mcts when no budget is given.
pub const DEFAULT_ITERATIONS: u32 = 300;

/// The highest level of [`BotConfig::strength`].
pub const MAX_STRENGTH: u8 = 5;

/// A bot and how it thinks. `Send + 'static`: it can go to a background task
/// with a clone of the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BotConfig {
    /// Which bot.
    pub kind: BotKind,
    /// Seed of the bot's own choices (tie-breaks, playouts, sampled dice).
    pub seed: u64,
    /// Thinking budget of mcts.
    pub budget: Budget,
    /// Trees grown in parallel by mcts, one per thread (1 to 255; 0 counts as 1).
    pub threads: u8,
    /// What the bot has seen of the other seats' play so far.
    pub seen: Seen,
    /// What mcts may know of the position: its seat's view at the table,
    /// or every secret when a finished game is looked back at
    /// ([`search::Sight`]).
    pub sight: search::Sight,
}

/// What a bot has seen of the other seats' play: of their commands where
/// more than one was legal, how many were the greedy bot's choice
/// ([`Plays::as_greedy`]). A search
/// that plays the other side's replies in its playouts models them on it
/// (the Warpspawn battle's does: [`Seen::careless`]); other bots ignore it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Seen {
    /// Commands watched.
    pub commands: u32,
    /// Of them, those the greedy bot would have given.
    pub as_greedy: u32,
}

impl Seen {
    /// Counts a command seen ([`Plays::as_greedy`]); `None` counts nothing.
    pub fn add(&mut self, as_greedy: Option<bool>) {
        if let Some(matched) = as_greedy {
            self.commands += 1;
            self.as_greedy += u32::from(matched);
        }
    }

    /// The share of the other side's commands that greedy would not have
    /// given, counting one of each kind before any is seen (Laplace's
    /// rule): 0.5 before the first command, near 0 against the greedy bot,
    /// near 1 against the random one.
    pub fn careless(&self) -> f32 {
        (self.commands - self.as_greedy.min(self.commands) + 1) as f32 / (self.commands + 2) as f32
    }
}

impl BotConfig {
    /// A bot with [`DEFAULT_ITERATIONS`] and one thread.
    pub fn new(kind: BotKind, seed: u64) -> BotConfig {
        BotConfig {
            kind,
            seed,
            budget: Budget::Iterations(DEFAULT_ITERATIONS),
            threads: 1,
            seen: Seen::default(),
            sight: search::Sight::Own,
        }
    }

    /// The same bot, knowing what `sight` says.
    pub fn with_sight(self, sight: search::Sight) -> BotConfig {
        BotConfig { sight, ..self }
    }

    /// The same bot, having seen `seen` of the other seats' play.
    pub fn with_seen(self, seen: Seen) -> BotConfig {
        BotConfig { seen, ..self }
    }

    /// The same bot with another budget.
    pub fn with_budget(self, budget: Budget) -> BotConfig {
        BotConfig { budget, ..self }
    }

    /// The same bot with another number of threads.
    pub fn with_threads(self, threads: u8) -> BotConfig {
        BotConfig { threads, ..self }
    }

    /// A bot for a strength level from 1 (random) to [`MAX_STRENGTH`] (mcts
    /// with 300 iterations within 4 s); levels outside are clamped. See the
    /// crate docs.
    pub fn strength(level: u8, seed: u64) -> BotConfig {
        let (kind, iterations, secs) = match level.clamp(1, MAX_STRENGTH) {
            1 => (BotKind::Random, DEFAULT_ITERATIONS, 1),
            2 => (BotKind::Greedy, DEFAULT_ITERATIONS, 1),
            3 => (BotKind::Mcts, 25, 1),
            4 => (BotKind::Mcts, 100, 2),
            _ => (BotKind::Mcts, 300, 4),
        };
        BotConfig::new(kind, seed).with_budget(Budget::Within {
            iterations,
            time: Duration::from_secs(secs),
        })
    }
}

/// What a bot decided, with the work it took.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision<C> {
    /// The command, always legal for the seat.
    pub command: C,
    /// Playouts run by mcts (0 for the other bots, when only one command was
    /// legal, and when a time budget follows the line it chose before).
    pub playouts: u64,
    /// The tree search's estimate of the seat's chances, from 0 (lost) to
    /// 1 (won): its chosen line's mean value ([`search::Searched::value`]).
    /// `None` for the other bots and where nothing was searched.
    pub value: Option<f32>,
}

/// A rule system the bots play: the same three bots, each with the
/// system's own evaluation where it has one. Conflict at Cache and the
/// Warpspawn battle play here; a system without a judge of its own plays
/// with [`contract`]'s random player and plain search.
pub trait Plays: GameState {
    /// The decision of `config`'s bot for `seat`, or `None` when the seat
    /// owes no decision. Never changes the game.
    fn decide(&self, seat: Seat, config: &BotConfig) -> Option<Decision<Self::Command>>;

    /// Whether `command`, which `seat` is about to play in this position,
    /// is the one the greedy bot would give: what a bot of another seat
    /// sees of it ([`Seen::add`]). `None` where nothing was to choose, the
    /// position is too large to weigh each command seen, or the system's
    /// bots model no one (the default).
    fn as_greedy(&self, seat: Seat, command: &Self::Command) -> Option<bool> {
        let _ = (seat, command);
        None
    }
}

/// The bot's command for `seat` in the current position, or `None` when
/// the seat owes no decision (the game is over, or another seat decides).
/// Never changes the game.
pub fn choose<G: Plays>(game: &G, seat: Seat, config: &BotConfig) -> Option<G::Command> {
    game.decide(seat, config).map(|d| d.command)
}

/// As [`choose`], with the playouts it ran.
pub fn decide<G: Plays>(game: &G, seat: Seat, config: &BotConfig) -> Option<Decision<G::Command>> {
    game.decide(seat, config)
}

impl Plays for Game {
    fn decide(&self, seat: Seat, config: &BotConfig) -> Option<Decision<Command>> {
        if next_seat(self) != Some(seat) {
            return None;
        }
        let game = self;
        // One seed per decision: the same position and config give the same choice.
        let seed = mix(config.seed, game.state_hash());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        match config.kind {
            BotKind::Random => {
                let legal = game.legal_commands();
                (!legal.is_empty()).then(|| Decision {
                    command: legal[rng.random_range(0..legal.len())].command,
                    playouts: 0,
                    value: None,
                })
            }
            BotKind::Greedy => {
                // R30: think on a copy whose dice are the bot's own.
                let mut own = game.clone();
                own.reseed(mix(seed, 1));
                greedy::choose(&own, &mut rng).map(|command| Decision {
                    command,
                    playouts: 0,
                    value: None,
                })
            }
            BotKind::Mcts => {
                mcts::choose(game, seed, config).map(|(command, playouts, value)| Decision {
                    command,
                    playouts,
                    value,
                })
            }
        }
    }
}

impl Plays for sandtable_warpspawn::Game {
    /// Every bot mixes the position into the config's seed, as Cache's do:
    /// the same position and config give the same choice, and a random
    /// bot's draws differ from decision to decision (drawn with the
    /// config's seed alone, each decision of a game would take the same
    /// first draw, in lists of every length: no longer uniform).
    fn decide(
        &self,
        seat: Seat,
        config: &BotConfig,
    ) -> Option<Decision<sandtable_warpspawn::Command>> {
        let (command, playouts, value) = match config.kind {
            BotKind::Mcts => warpspawn::mcts_seeing(self, seat, config, config.seen.careless())
                .map(|s| (s.command, s.playouts, s.value))?,
            BotKind::Greedy => (warpspawn::greedy(self, seat, config.seed)?, 0, None),
            BotKind::Random => {
                let mut rng = ChaCha8Rng::seed_from_u64(mix(
                    config.seed,
                    self.seen_hash(sandtable_warpspawn::Side(seat.0 as u8)),
                ));
                (contract::random(self, seat, &mut rng)?, 0, None)
            }
        };
        Some(Decision {
            command,
            playouts,
            value,
        })
    }

    /// Greedy's choice is worked out with a seed of its own (0): with its
    /// rolls weighed over every value and its ties to the first listed, it
    /// is the greedy bot's whatever that bot's seed, but where more than 96
    /// commands are legal (the candidates are drawn) or further dice are
    /// drawn (R68). Battles of more than [`warpspawn::WATCHED_STACKS`]
    /// stacks are not watched: a greedy decision there costs more than a
    /// person should wait for between two commands at the table.
    fn as_greedy(&self, seat: Seat, command: &sandtable_warpspawn::Command) -> Option<bool> {
        if self.state().stacks.len() > warpspawn::WATCHED_STACKS {
            return None;
        }
        let mut legal = Vec::new();
        self.legal_into(seat, &mut legal);
        if legal.len() < 2 {
            return None;
        }
        Some(warpspawn::greedy(self, seat, 0).as_ref() == Some(command))
    }
}

impl Plays for sandtable_frontiers::Game {
    /// Every bot mixes what its seat sees of the position into the
    /// config's seed ([`frontiers::view_hash`], R149): the same position
    /// and config give the same choice, and no choice turns on a secret.
    fn decide(
        &self,
        seat: Seat,
        config: &BotConfig,
    ) -> Option<Decision<sandtable_frontiers::Command>> {
        if next_seat(self) != Some(seat) {
            return None;
        }
        let (command, playouts, value) = match config.kind {
            BotKind::Mcts => {
                frontiers::mcts_seeing(self, seat, config.budget, config.seed, config.sight)?
            }
            BotKind::Greedy => (frontiers::greedy(self, seat, config.seed)?, 0, None),
            BotKind::Random => {
                let mut rng =
                    ChaCha8Rng::seed_from_u64(mix(config.seed, frontiers::view_hash(self, seat)));
                let mut own = self.clone();
                own.redeal(seat, rng.random());
                (contract::random(&own, seat, &mut rng)?, 0, None)
            }
        };
        Some(Decision {
            command,
            playouts,
            value,
        })
    }
}

/// Mixes two words into a seed (SplitMix64's finaliser over their sum).
pub(crate) fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_add(b.wrapping_mul(0x9e37_79b9_7f4a_7c15))
        .wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_names_read_back() {
        for kind in BotKind::ALL {
            assert_eq!(kind.to_string().parse::<BotKind>(), Ok(kind), "{kind}");
        }
        assert_eq!("MCTS".parse::<BotKind>(), Ok(BotKind::Mcts), "any case");
        assert_eq!(
            "minimax".parse::<BotKind>().unwrap_err().to_string(),
            "`minimax` is not a bot: use random, greedy or mcts",
            "unknown names are refused with the list"
        );
    }

    #[test]
    fn strength_levels_grow_and_clamp() {
        assert_eq!(
            BotConfig::strength(0, 1).kind,
            BotKind::Random,
            "clamped up"
        );
        assert_eq!(BotConfig::strength(2, 1).kind, BotKind::Greedy, "level 2");
        assert_eq!(
            BotConfig::strength(9, 1),
            BotConfig::strength(MAX_STRENGTH, 1),
            "clamped down"
        );
        let iterations = |level| match BotConfig::strength(level, 1).budget {
            Budget::Iterations(n) | Budget::Within { iterations: n, .. } => n,
            Budget::Time(_) => 0,
        };
        assert!(
            iterations(3) < iterations(4) && iterations(4) < iterations(5),
            "mcts levels think longer"
        );
    }
}
