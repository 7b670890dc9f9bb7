//! The greedy bot: one activation ahead. It tries every sequence of commands
//! the acting unit (or each unit it may activate) can give before its
//! activation ends, scores where each sequence leaves the game with the shared
//! evaluation (captures, the facing bonus earned, the exposure of its own units
//! to the opponent's next activation, progress toward enemy Bases), and plays
//! the first command of the best one.

use std::collections::HashSet;

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sandtable_cache::{Command, Event, Game, PlayerId};

use crate::eval::{self, Maps};
use crate::lines::{EARNED, MIN_GAIN, NODE_LIMIT, STEP};

/// Searches one activation ahead from positions of one game.
struct Search<'a> {
    maps: &'a Maps,
    me: PlayerId,
    /// The opponent whose threats the bot fears: the next one in turn order.
    opponent: PlayerId,
    seen: HashSet<u64>,
    nodes: usize,
    scores: Vec<f32>,
    legal: Vec<sandtable_cache::LegalCommand>,
}

impl Search<'_> {
    /// The evaluation of a position for the bot's player.
    fn value(&mut self, game: &Game) -> f32 {
        eval::scores(game, self.maps, self.opponent, &mut self.scores);
        self.scores[usize::from(self.me.0)]
    }

    /// Best score reachable from `game` before the current activation ends,
    /// with `earned` actions earned on the way.
    fn best(&mut self, game: &Game, earned: u16, rng: &mut ChaCha8Rng) -> (f32, Command) {
        let here = self.value(game) + EARNED * f32::from(earned);
        let mut best = (here, Command::End);
        let mut legal = std::mem::take(&mut self.legal);
        game.legal_commands_into(&mut legal);
        let commands: Vec<Command> = legal
            .iter()
            .map(|l| l.command)
            .filter(|c| !matches!(c, Command::End | Command::Pass | Command::Activate(_)))
            .collect();
        self.legal = legal;
        let acting = game.activation().map(|a| a.unit);
        let mut events = Vec::new();
        for command in commands {
            if self.nodes >= NODE_LIMIT {
                break;
            }
            self.nodes += 1;
            let mut next = game.clone();
            events.clear();
            next.apply_into(command, &mut events)
                .expect("a command from legal_commands() is legal");
            let gained: u16 = events
                .iter()
                .map(|e| match e {
                    Event::Captured { earned, .. } => earned.0,
                    _ => 0,
                })
                .sum();
            let earned = earned + gained;
            let still_acting = next.activation().map(|a| a.unit) == acting
                && next.pending().is_none()
                && !next.is_over();
            let score = if still_acting {
                // A position reached before, with the same actions spent,
                // was searched already.
                if !self.seen.insert(next.state_hash()) {
                    continue;
                }
                self.best(&next, earned, rng).0
            } else {
                self.value(&next) + EARNED * f32::from(earned)
            };
            // A hair of noise breaks ties differently from game to game.
            let score = score - STEP + rng.random_range(0.0..1e-3);
            if score > best.0 {
                best = (score, command);
            }
        }
        best
    }
}

/// The greedy bot's command, or `None` when nothing is legal.
pub(crate) fn choose(game: &Game, rng: &mut ChaCha8Rng) -> Option<Command> {
    let legal = game.legal_commands();
    if legal.len() <= 1 {
        return legal.first().map(|l| l.command);
    }
    let maps = Maps::new(game);
    let me = game.current_player();
    let mut search = Search {
        maps: &maps,
        me,
        opponent: eval::following(game, me),
        seen: HashSet::new(),
        nodes: 0,
        scores: Vec::new(),
        legal: Vec::new(),
    };
    if game.pending().is_some() {
        // A stash result's choice (R22): the best position one answer ahead.
        let mut best: Option<(f32, Command)> = None;
        for l in &legal {
            let mut next = game.clone();
            next.apply(l.command)
                .expect("a command from legal_commands() is legal");
            let score = search.value(&next) + rng.random_range(0.0..1e-3);
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, l.command));
            }
        }
        return best.map(|(_, c)| c);
    }
    if game.activation().is_some() {
        return Some(search.best(game, 0, rng).1);
    }
    // Turn start or between activations: the best activation, or pass.
    let stay = search.value(game);
    let mut best = (stay + MIN_GAIN, Command::Pass);
    for l in &legal {
        let Command::Activate(_) = l.command else {
            continue;
        };
        let mut next = game.clone();
        next.apply(l.command)
            .expect("a command from legal_commands() is legal");
        search.seen.clear();
        search.nodes = 0;
        let (score, _) = search.best(&next, 0, rng);
        if score > best.0 {
            best = (score, l.command);
        }
    }
    Some(best.1)
}
