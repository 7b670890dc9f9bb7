//! Whole activations as moves: every line of commands an activation can give,
//! from its `activate` (or from where the acting unit stands now) to its end,
//! scored like the greedy bot scores them (the evaluation of where the line
//! leaves the game, actions earned by the facing of captures, R9, and a small
//! cost a command). The tree search uses the best lines as its moves and plays
//! the best line of each activation in its playouts.
//!
//! A line ends where the activation ends (an explicit `end`, a budget spent,
//! R7), where a stash is rolled (R21: what follows depends on the dice) or a
//! choice awaited (R22), or where the game ends.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sandtable_cache::CacheLegal;
use sandtable_cache::{Activation, Command, Event, Game, LegalCommand, Place, PlayerId, UnitId};

use crate::eval::{self, Frozen, Maps};
use crate::mix;

/// Most positions searched for one unit's activation; a budget swollen by
/// earned actions (R9) is cut short here.
pub(crate) const NODE_LIMIT: usize = 4000;
/// Score of an earned action (R9), on top of what the actions achieve.
pub(crate) const EARNED: f32 = 0.3;
/// Cost of one more command in a line: of two lines to the same result, the
/// shorter is preferred.
pub(crate) const STEP: f32 = 0.01;
/// A gain over passing below this is not worth an activation.
pub(crate) const MIN_GAIN: f32 = 0.05;

/// Hashes a key that is already a mixed 64-bit word by taking it as it is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

type KeyBuild = BuildHasherDefault<KeyHasher>;

/// Keys of the positions of one activation. While a unit acts, only it moves
/// and turns, its actions are spent and earned (R7, R9), and the units and
/// Bases it captures leave the board (R10); everything else stays as it was
/// when the activation began (a stash roll, R21, or a choice, R22, ends a
/// line). So a position of the activation is known by the acting unit's
/// place and actions and by what it has captured: the key mixes the place and
/// the actions and takes the exclusive or of a word for each capture
/// (`capture_key`).
fn key_of(place: Place, spent: u16, earned: u16, captured: u64) -> u64 {
    mix(
        place_word(place),
        1 | u64::from(spent) << 1 | u64::from(earned) << 17,
    ) ^ captured
}

/// The key of the position of `game`, where `activation` is in progress.
fn unit_key(game: &Game, activation: Activation, captured: u64) -> u64 {
    key_of(
        game.place(activation.unit),
        activation.spent,
        activation.earned,
        captured,
    )
}

/// Where a command of the acting unit leads, found without making it: the
/// unit's place and the actions spent after a turn, or after an advance onto
/// an empty square without a stash (no capture, R10, and no roll, R21),
/// where the unit keeps its facing and spends the command's cost. `None` for
/// anything else.
fn predicted(game: &Game, activation: Activation, legal: LegalCommand) -> Option<(Place, u16)> {
    let Place::Board { square, facing } = game.place(activation.unit) else {
        return None;
    };
    let (to, facing) = match legal.command {
        Command::TurnLeft => (square, facing.left()),
        Command::TurnRight => (square, facing.right()),
        // Where the rules crate says the advance lands.
        Command::Advance | Command::AdvanceTo(_) => (legal.lands()?, facing),
        _ => return None,
    };
    if to != square && (game.occupant(to).is_some() || game.stash_at(to)) {
        return None;
    }
    Some((
        Place::Board { square: to, facing },
        activation.spent + legal.cost,
    ))
}

/// A unit's place as one word.
fn place_word(place: Place) -> u64 {
    match place {
        Place::Board { square, facing } => {
            1 | (facing as u64) << 2 | u64::from(square.col) << 5 | u64::from(square.row) << 21
        }
        Place::Custody { holder } => 2 | u64::from(holder.0) << 2,
        Place::Removed => 3,
    }
}

/// The word a capture adds to a key (by exclusive or).
fn capture_key(event: &Event) -> u64 {
    match event {
        Event::Captured { unit, .. } => mix(0xc0, u64::from(unit.0)),
        Event::BaseCaptured { factor, .. } => mix(0xba5e, u64::from(factor.0)),
        _ => 0,
    }
}

/// The key of the position where a line ends: the acting unit's place, what
/// it captured and `how` the line ended (0 when the activation is simply
/// over, whether by `end`, by a spent budget or with the game, and whether or
/// not a paused activation resumes, R23). Lines to the same key are lines to
/// the same position.
fn end_key(game: &Game, unit: UnitId, captured: u64, how: u64) -> u64 {
    mix(place_word(game.place(unit)), how) ^ captured
}

/// The word a stash roll adds to an end key: the stash's square.
fn roll_key(event: &Event) -> u64 {
    match event {
        Event::StashRolled { square, .. } => {
            mix(0x57a5, u64::from(square.col) | u64::from(square.row) << 16)
        }
        _ => 0,
    }
}

/// One activation, command by command, with its score for the player giving it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub(crate) score: f32,
    pub(crate) commands: Vec<Command>,
}

/// Enumerates activation lines; its buffers are reused from call to call.
pub(crate) struct Lines<'a> {
    maps: &'a Maps,
    me: PlayerId,
    opponent: PlayerId,
    seen: HashSet<u64, KeyBuild>,
    ends: HashMap<u64, usize, KeyBuild>,
    nodes: usize,
    scores: Vec<f32>,
    path: Vec<Command>,
    best_only: bool,
    /// Spare games, copied into rather than allocated for every position
    /// (boxed, so that taking one out moves a pointer, not a game), and spare
    /// lists of legal commands, one a level of the search.
    #[allow(clippy::vec_box)] // boxed on purpose: see above
    pool: Vec<Box<Game>>,
    spare_lists: Vec<Vec<LegalCommand>>,
    /// The activations a search tries, with their quick scores.
    starts: Vec<(f32, Command)>,
    events: Vec<Event>,
    /// The evaluation frozen where the activation searched began.
    frozen: Option<Frozen>,
    /// The lines found by the last call, in no particular order.
    pub(crate) out: Vec<Line>,
    /// Every key given to a position of an activation, with the position's
    /// `state_hash` and whether a capture led to it, and the same for the
    /// ends of lines that roll no dice: for the test that keys tell positions
    /// apart.
    #[cfg(test)]
    keyed: Vec<(u64, u64, bool)>,
    #[cfg(test)]
    ended: Vec<(u64, u64)>,
    /// Commands whose position was foreseen (and checked against the rules).
    #[cfg(test)]
    predictions: usize,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(maps: &'a Maps) -> Lines<'a> {
        Lines {
            maps,
            me: PlayerId(0),
            opponent: PlayerId(0),
            seen: HashSet::default(),
            ends: HashMap::default(),
            nodes: 0,
            scores: Vec::new(),
            path: Vec::with_capacity(32),
            best_only: false,
            pool: Vec::new(),
            spare_lists: Vec::new(),
            starts: Vec::new(),
            events: Vec::new(),
            frozen: None,
            out: Vec::new(),
            #[cfg(test)]
            keyed: Vec::new(),
            #[cfg(test)]
            ended: Vec::new(),
            #[cfg(test)]
            predictions: 0,
        }
    }

    /// The evaluation of a position for the player whose lines are searched.
    pub(crate) fn value(&mut self, game: &Game) -> f32 {
        eval::scores(game, self.maps, self.opponent, &mut self.scores);
        self.scores[usize::from(self.me.0)]
    }

    /// The same for a position of the activation searched; `pure` when only
    /// the acting unit has moved or turned since it began, so that the frozen
    /// evaluation applies.
    fn line_value(&mut self, game: &Game, pure: bool) -> f32 {
        match &mut self.frozen {
            Some(frozen) if pure && !game.is_over() => frozen.score(game, self.maps, self.me),
            _ => self.value(game),
        }
    }

    /// Freezes the evaluation where the activation of `game` stands now.
    fn freeze(&mut self, game: &Game) {
        self.frozen = game
            .activation()
            .map(|a| Frozen::new(game, self.maps, self.opponent, a.unit));
    }

    /// Fills `out` with the lines of the current player's activation: the one
    /// in progress, or else one activation of each unit it may activate. With
    /// `best_only`, only the best line is kept; otherwise the best line to
    /// each distinct end position. Lines that activate a unit only to end at
    /// once are left out (a pass does as much).
    pub(crate) fn search(
        &mut self,
        game: &Game,
        best_only: bool,
        units: usize,
        rng: &mut ChaCha8Rng,
    ) {
        self.me = game.current_player();
        self.opponent = eval::following(game, self.me);
        self.best_only = best_only;
        self.out.clear();
        self.ends.clear();
        if game.is_over() || game.pending().is_some() {
            return;
        }
        if game.activation().is_some() {
            self.path.clear();
            self.seen.clear();
            self.nodes = 0;
            self.freeze(game);
            self.walk(game, 0, 0, true, rng);
            return;
        }
        // The units to try: all, or the `units` most promising by the quick
        // score of their activation (captures and progress in reach).
        let mut legal = self.spare_lists.pop().unwrap_or_default();
        legal.clear();
        game.legal_commands_into(&mut legal);
        let mut starts = std::mem::take(&mut self.starts);
        starts.clear();
        starts.extend(
            legal
                .iter()
                .filter(|l| matches!(l.command, Command::Activate(_)))
                .map(|l| (eval::quick_score(game, self.maps, l), l.command)),
        );
        self.spare_lists.push(legal);
        if starts.len() > units {
            starts.sort_by(|a, b| b.0.total_cmp(&a.0));
            starts.truncate(units);
        }
        let mut next = match self.pool.pop() {
            Some(spare) => spare,
            None => Box::new(game.clone()),
        };
        for &(_, command) in &starts {
            next.as_mut().clone_from(game);
            next.apply(command)
                .expect("a command from legal_commands() is legal");
            self.path.clear();
            self.path.push(command);
            self.seen.clear();
            self.nodes = 0;
            self.freeze(&next);
            self.walk(&next, 0, 0, true, rng);
        }
        self.pool.push(next);
        self.starts = starts;
    }

    /// Offers a line (the path, then `last` if any) ending in the position
    /// with key `end` (not used when only the best line is kept).
    fn offer(&mut self, score: f32, end: u64, last: Option<Command>) {
        let make = |path: &[Command]| {
            let mut commands = Vec::with_capacity(path.len() + 1);
            commands.extend_from_slice(path);
            commands.extend(last);
            commands
        };
        if self.best_only {
            match self.out.first_mut() {
                Some(best) if best.score >= score => {}
                Some(best) => {
                    best.score = score;
                    best.commands = make(&self.path);
                }
                None => self.out.push(Line {
                    score,
                    commands: make(&self.path),
                }),
            }
            return;
        }
        match self.ends.get(&end) {
            Some(&k) if self.out[k].score >= score => {}
            Some(&k) => {
                self.out[k] = Line {
                    score,
                    commands: make(&self.path),
                }
            }
            None => {
                self.ends.insert(end, self.out.len());
                self.out.push(Line {
                    score,
                    commands: make(&self.path),
                });
            }
        }
    }

    /// Every line from `game`, where the unit acts with `earned` actions
    /// earned on the way so far and `captured` is the key word of what it has
    /// captured in this activation (see `unit_key`); `pure` while it has only
    /// moved and turned.
    fn walk(&mut self, game: &Game, captured: u64, earned: u16, pure: bool, rng: &mut ChaCha8Rng) {
        let steps = self
            .path
            .iter()
            .filter(|c| !matches!(c, Command::Activate(_)))
            .count();
        let just_activated = matches!(self.path.as_slice(), [Command::Activate(_)]);
        let Some(activation) = game.activation() else {
            return;
        };
        let unit = activation.unit;
        if !just_activated {
            let here = self.line_value(game, pure) + EARNED * f32::from(earned)
                - STEP * steps as f32
                + rng.random_range(0.0..1e-3);
            // Ended here, the activation leaves the unit where it stands.
            let end = if self.best_only {
                0
            } else {
                end_key(game, unit, captured, 0)
            };
            #[cfg(test)]
            if !self.best_only {
                let mut after = game.clone();
                after
                    .apply(Command::End)
                    .expect("an activation may end (R7)");
                self.ended.push((end, after.state_hash()));
            }
            self.offer(here, end, Some(Command::End));
        }
        let mut legal = self.spare_lists.pop().unwrap_or_default();
        legal.clear();
        game.legal_commands_into(&mut legal);
        let mut events = std::mem::take(&mut self.events);
        for &l in &legal {
            let command = l.command;
            if matches!(command, Command::End | Command::Pass | Command::Activate(_)) {
                continue;
            }
            // A position reached before (the same place, actions spent and
            // earned, and captures) was searched already: where the key can
            // be known beforehand, the position is not even made.
            let ahead = predicted(game, activation, l);
            let ahead_key =
                ahead.map(|(place, spent)| key_of(place, spent, activation.earned, captured));
            if let Some(key) = ahead_key
                && !self.seen.insert(key)
            {
                continue;
            }
            if self.nodes >= NODE_LIMIT {
                break;
            }
            self.nodes += 1;
            let mut next = match self.pool.pop() {
                Some(mut spare) => {
                    spare.as_mut().clone_from(game);
                    spare
                }
                None => Box::new(game.clone()),
            };
            events.clear();
            next.apply_into(command, &mut events)
                .expect("a command from legal_commands() is legal");
            let mut gained = 0u16;
            let mut rolled = false;
            let mut still_pure = pure;
            let mut captured_now = captured;
            for e in &events {
                match e {
                    Event::Captured { earned, .. } => gained += earned.0,
                    Event::StashRolled { .. } => rolled = true,
                    _ => {}
                }
                captured_now ^= capture_key(e);
                still_pure &= matches!(
                    e,
                    Event::Activated { .. }
                        | Event::Turned { .. }
                        | Event::Moved { .. }
                        | Event::ActivationEnded { .. }
                        | Event::TurnPassed { .. }
                );
            }
            let earned = earned + gained;
            let acting_now = next.activation().filter(|a| a.unit == unit);
            // The line goes on while the same unit acts, nothing awaits a
            // choice, the game goes on and no dice were rolled.
            let still_acting =
                acting_now.filter(|_| next.pending().is_none() && !next.is_over() && !rolled);
            #[cfg(test)]
            if let Some((place, spent)) = ahead {
                // The prediction is what the rules made of the command.
                assert_eq!(next.place(unit), place, "`{command}` leads elsewhere");
                assert_eq!(captured_now, captured, "`{command}` captured");
                assert!(!rolled, "`{command}` rolled");
                match acting_now {
                    Some(a) => assert_eq!(a.spent, spent, "`{command}` spent otherwise"),
                    None => assert_eq!(
                        spent,
                        activation.given + activation.earned,
                        "`{command}` ended the activation before its budget"
                    ),
                }
                self.predictions += 1;
            }
            self.path.push(command);
            if let Some(now) = still_acting {
                let key = unit_key(&next, now, captured_now);
                #[cfg(test)]
                self.keyed.push((key, next.state_hash(), captured_now != 0));
                if ahead_key.is_some() || self.seen.insert(key) {
                    self.walk(&next, captured_now, earned, still_pure, rng);
                }
            } else {
                let score = self.line_value(&next, still_pure) + EARNED * f32::from(earned)
                    - STEP * (steps + 1) as f32
                    + rng.random_range(0.0..1e-3);
                // Only lines to distinct ends need the end's key.
                let end = if self.best_only {
                    0
                } else {
                    let how = if rolled || next.pending().is_some() {
                        // What follows a roll depends on the dice (R21);
                        // lines to the same stash from the same square end
                        // alike.
                        2 ^ events.iter().map(roll_key).fold(0, |a, b| a ^ b)
                    } else {
                        0
                    };
                    end_key(&next, unit, captured_now, how)
                };
                #[cfg(test)]
                if !self.best_only && !rolled {
                    self.ended.push((end, next.state_hash()));
                }
                self.offer(score, end, None);
            }
            self.path.pop();
            self.pool.push(next);
        }
        self.spare_lists.push(legal);
        self.events = events;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use sandtable_cache::samples;

    use crate::eval::tests::{next_command, sample_game};

    use super::*;

    #[test]
    fn every_line_is_legal_and_ends_its_activation() {
        let game =
            Game::new(&samples::table_a_skirmish(3, Some(50))).expect("sample setup is valid");
        let maps = Maps::new(&game);
        let mut lines = Lines::new(&maps);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        lines.search(&game, false, usize::MAX, &mut rng);
        assert!(!lines.out.is_empty(), "units may act at the start");
        for line in &lines.out {
            assert!(
                matches!(line.commands[0], Command::Activate(_)),
                "a line starts with its activation (R6): {:?}",
                line.commands
            );
            assert!(
                line.commands.len() > 2 || line.commands[1] != Command::End,
                "no activation that only ends: {:?}",
                line.commands
            );
            let mut after = game.clone();
            for &command in &line.commands {
                after
                    .apply(command)
                    .unwrap_or_else(|e| panic!("`{command}` in {:?}: {e}", line.commands));
            }
            assert!(
                after.activation().is_none(),
                "the activation is over at the line's end (R7): {:?}",
                line.commands
            );
        }
        lines.search(&game, true, 3, &mut rng);
        assert_eq!(lines.out.len(), 1, "only the best line is kept");
    }

    /// Asserts that `pairs` of keys and hashes match one to one.
    fn one_to_one(pairs: impl Iterator<Item = (u64, u64)>, what: &str) -> usize {
        let mut by_key = HashMap::new();
        let mut by_hash = HashMap::new();
        let mut n = 0;
        for (key, hash) in pairs {
            assert_eq!(
                *by_key.entry(key).or_insert(hash),
                hash,
                "{what}: one key, two positions"
            );
            assert_eq!(
                *by_hash.entry(hash).or_insert(key),
                key,
                "{what}: one position, two keys"
            );
            n += 1;
        }
        n
    }

    #[test]
    fn keys_tell_the_positions_of_an_activation_apart() {
        // While a unit acts, only it moves, turns and spends or earns actions
        // (R7, R9), and what it captures leaves the board (R10): the key of a
        // position of the activation, and of a line's end, stands for exactly
        // one state of the game.
        let (mut positions, mut after_capture, mut ends, mut foreseen) = (0, 0, 0, 0);
        for seed in 0..16 {
            let mut game = sample_game(seed);
            let maps = Maps::new(&game);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while !game.is_over() {
                if game.activation().is_some() && game.pending().is_none() {
                    let mut lines = Lines::new(&maps);
                    lines.search(&game, false, usize::MAX, &mut rng);
                    positions += one_to_one(
                        lines.keyed.iter().map(|k| (k.0, k.1)),
                        "activation position",
                    );
                    after_capture += lines.keyed.iter().filter(|k| k.2).count();
                    ends += one_to_one(lines.ended.iter().copied(), "line end");
                    // The walk checks every foreseen position against the rules.
                    foreseen += lines.predictions;
                }
                let command = next_command(&game, &maps, &mut rng);
                game.apply(command).expect("a legal command");
            }
        }
        assert!(positions > 25_000, "positions keyed: {positions}");
        assert!(
            after_capture > 200,
            "positions after a capture: {after_capture}"
        );
        assert!(ends > 50_000, "line ends keyed: {ends}");
        assert!(foreseen > 50_000, "positions foreseen: {foreseen}");
    }
}
