//! Bots for the Warpspawn battle: what the shared search ([`crate::search`])
//! needs to know of it, and the greedy bot.
//!
//! - **Evaluation.** A side's score, in victory points: the points it has
//!   (R81), what it stands to lose as points to the enemy (its armed men
//!   1 each, cavalry 1.2, officers 3, a cannon 10, baggage 5, a flag 20, or
//!   60 where capturing one ends the battle; routing and unarmed men 0.5,
//!   being easy to capture), and its threats: the expected casualties of its
//!   best shot (R65-R67), the expected worth of an attack on each enemy
//!   formation next to its own (strengths and the melee row of R73-R76, the
//!   scenario's table; the losers lose their officers, cannon, baggage and
//!   flag to the winner's advance besides their men, R76, R77), and the
//!   points of each enemy stack without armed men, once for each of its
//!   formations within a march of it (R63, R69). Threats count in full for
//!   the side whose phase comes first, half for the other. Further off,
//!   each formation's prospect: its best attack of the next six game turns
//!   (no more than are left), each turn of marching to it, by way round
//!   impassable hexes, taking 30% off. A small pull of each armed man
//!   toward the enemy's home edge keeps a formation from idling where no
//!   attack is in prospect (a pull toward the nearest enemy would pull both
//!   sides alike, and cancel out). A counter on the off-board ring counts
//!   its pieces at 0.7 of their worth (nothing dies there but to cannon
//!   fire, and nothing scores until it enters the map, R48, R50, R56), with
//!   the same pull, from the hex along the map's edge nearest its square.
//!   A counter the bot's side does not see is a guess of its redealt copy
//!   (R57).
//!   The values of a position are a logistic of the score difference.
//! - **Greedy** plays the best single phase by that evaluation: command by
//!   command, the one whose position scores best, until ending the phase
//!   scores best. A command that rolls is weighed over every value of its
//!   dice (never the real ones, R30): a shot over the six of its die, a
//!   melee over the 36 of its result and the losers' fate, each position
//!   played past the decisions the rolls leave owed.
//! - **mcts** is the shared search over whole phases: a move of its tree is
//!   a phase line (the commands of one seat until the phase ends, a roll is
//!   made, or the decision passes to the other side): each of the six first
//!   commands that score best one step ahead, followed by greedy play, and
//!   ending the phase at once; playouts play greedy lines to the end of the
//!   player turn after the root's.

use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{Barrier, GameState, Legal, Seat};
use sandtable_warpspawn::offboard::counter::Composition;
use sandtable_warpspawn::offboard::ring::{Ring, Square};
use sandtable_warpspawn::{
    Command, Cover, Event, Game, Hex, MeleeResult, Phase, Side, Stack, casualties,
    density_modifier, range_modifier, ratio_row,
};

use crate::search::{Judge, Searched, Sight, result_for, search_seeing};
use crate::{Budget, mix};

/// The most of the other side's turns that a playout of mcts answers with
/// one random command instead of that side's greedy line. The share is the
/// part of the other side's commands seen so far that greedy would not have
/// given (`Seen::careless`, 0.5 before any is seen), up to this. Playouts of
/// greedy replies only expect an opponent who always answers well; against
/// one who does not, the search lost games it should have won: on the river
/// crossing every game mcts lost to random at 200 iterations was lost as
/// Blue, 8 of 30 deals; with half its replies random, 4 of the same 30. A
/// fixed half cost against greedy on the open field (66 wins of 100, 75
/// with none); the share followed uncapped won 74 there, but did worse
/// against random than the half on every battle (95, 92 and 91 wins of 100
/// against 98, 94 and 97): a search that expects blunders counts on them.
/// `docs/bots.md`.
pub const MAX_REPLY_MIX: f32 = 0.5;

/// The most stacks of a battle whose commands a bot watches
/// (`Plays::as_greedy`): on the shipped battles of a dozen stacks a greedy
/// decision takes under a millisecond, on the stress map's 200 about 16 ms.
pub const WATCHED_STACKS: usize = 64;

/// Score difference (in points) that moves a value from 0.5 to 0.73.
const SCALE: f32 = 12.0;
/// Rolls scripted for a copy that weighs a command: the two weighed, and
/// more than any command rolls after them.
const SCRIPT: usize = 16;
/// Most owed decisions a weighed command's rolls are followed through.
const SETTLE_LIMIT: usize = 32;
/// Most commands of one phase line.
const LINE_LIMIT: usize = 24;
/// Exploration constant of the search (UCT, values in 0..=1).
const EXPLORATION: f32 = 0.3;
/// Lines a node of the tree tries.
const WIDTH: usize = 6;
/// How many playouts the one-step weighing of a line's first command
/// counts for in the search (its prior). Screened on the river, 40 games
/// at 200 iterations: without a prior mcts won 26 of 40 against greedy;
/// at 8, 29; at 24, 34.
const PRIOR_WEIGHT: u32 = 24;
/// The work one iteration of the search may do, in stacks valued (a
/// command scored costs the battle's stacks): its lines and its playout
/// stop growing past it, and the playout is valued where it stopped. The
/// shipped battles of a dozen stacks never reach it (30 games on them
/// played the same with and without the bound); on one of 10,000
/// formations an iteration takes a few steps of greedy play instead of
/// whole phases of thousands of commands.
const WORK_PER_ITERATION: u64 = 4_000_000;
/// Most commands one step of greedy play scores: where more are legal (a
/// March of a hundred formations lists hundreds), as many drawn from the
/// list, End always among them, so that a step costs the same on a battle
/// of any size. The first March of the open field lists 63.
const CANDIDATES: usize = 96;
/// Pull of a formation toward the enemy's home edge, in points a hex for
/// each of its armed men (a pull a formation would reward splitting and
/// joining for their own sake, and leaving a cannon behind).
const PULL: f32 = 0.03;
/// Weight of the best shot's expected casualties.
const SHOT: f32 = 0.8;
/// Weight of an attack's expected worth.
const ATTACK: f32 = 0.6;
/// Weight of the points of an unguarded enemy piece within reach.
const CAPTURE: f32 = 0.5;
/// Weight of the threats of the side whose phases come second.
const SECOND: f32 = 0.5;
/// Weight of a formation's best attack of the turns ahead.
const PROSPECT: f32 = 0.6;
/// What each game turn of marching takes off an attack ahead.
const DECAY: f32 = 0.7;
/// Game turns ahead a formation's prospects look.
const HORIZON: u16 = 6;
/// The same on a battle of [`LOOKUP_FROM`] stacks or more, whose
/// prospects are looked up hex by hex: the hexes within two turns' march
/// (37 for infantry, 91 for cavalry) cost about what a cannon's range
/// does.
const LARGE_HORIZON: u16 = 2;
fn side_of(seat: Seat) -> Side {
    Side(seat.0 as u8)
}

fn seat_of(side: Side) -> Seat {
    Seat(u16::from(side.0))
}

/// Men of a formation that may fight (crews marked this turn stay out, R72).
fn fighters(st: &Stack) -> u16 {
    st.fighting().total()
}

/// The points a side's pieces are worth, as the enemy would score them.
fn material(st: &Stack, flag: f32) -> f32 {
    let armed = st.armed.men;
    f32::from(armed.inf)
        + 1.2 * f32::from(armed.cav)
        + 3.0 * f32::from(st.armed.officers)
        + 10.0 * f32::from(u8::from(st.cannon))
        + 5.0 * f32::from(u8::from(st.baggage))
        + flag * f32::from(st.flags)
        + 0.5 * f32::from(st.routing.men.total())
        + 1.5 * f32::from(st.routing.officers)
        + 0.5 * f32::from(st.unarmed.men.total())
}

/// How much of its pieces' worth a counter on the off-board ring counts
/// for: nobody dies in the ring (R50) but cannon fire (R56), and nothing it
/// holds takes or scores anything until it enters the map (R48), so a
/// reserve is worth less than the same pieces on the table; entering
/// gains the rest.
const RING: f32 = 0.7;

/// The points a counter's pieces are worth, as [`material`] counts a
/// formation's (R43: armed men, officers, a cannon, baggage, a flag).
fn counter_material(p: &Composition, flag: f32) -> f32 {
    f32::from(p.infantry)
        + 1.2 * f32::from(p.cavalry)
        + 3.0 * f32::from(p.officers)
        + 10.0 * f32::from(u8::from(p.cannon))
        + 5.0 * f32::from(u8::from(p.baggage))
        + flag * f32::from(u8::from(p.flag))
}

/// The marching steps from a counter's square to the enemy's home edge:
/// the squares out to the map (1 from an edge square, 2 from the second
/// row, R41) and the path home of the nearest hex along the edge.
fn ring_path(game: &Game, ring: &Ring, at: Square, side: Side) -> f32 {
    let map = ring.map();
    let span = ring.span();
    let (w, h) = (ring.width(), ring.height());
    let out = |v: u16, n: u16| {
        if v < 2 {
            2 - v
        } else if v + 2 >= n {
            v + 3 - n
        } else {
            0
        }
    };
    let off = out(at.col, w).max(out(at.row, h));
    let along = |v: u16, sides: u16| (v.saturating_sub(2) * span).min(sides - 1);
    // The map's sides are at most `MAX_MAP_SIDE`, within a u8.
    let hex = Hex::new(
        along(at.col, map.columns) as u8,
        along(at.row, map.rows) as u8,
    );
    f32::from(game.battle().path_home(hex, side.other()) + off * span)
}

/// What a flag is worth to its side: its 20 points (R81), or 60 where
/// capturing one ends the battle.
fn flag_worth(game: &Game) -> f32 {
    if game.battle().switches.capture_the_flag {
        60.0
    } else {
        20.0
    }
}

/// What the losers of a melee in `st` lose besides their men (R76, R77):
/// officers taken or killed with them, and the cannon, baggage and flag
/// the winner's advance takes, in points.
fn pieces(game: &Game, st: &Stack) -> f32 {
    let flag = flag_worth(game);
    2.7 * f32::from(st.armed.officers)
        + 10.0 * f32::from(u8::from(st.cannon))
        + 5.0 * f32::from(u8::from(st.baggage))
        + flag * f32::from(st.flags)
}

/// The points capturing `st` scores (R81).
fn capture_points(st: &Stack) -> f32 {
    let band = st.routing.men.total() + st.unarmed.men.total();
    2.0 * f32::from(band)
        + 5.0 * f32::from(st.armed.officers + st.routing.officers + st.unarmed.officers)
        + 10.0 * f32::from(u8::from(st.cannon))
        + 5.0 * f32::from(u8::from(st.baggage))
        + 20.0 * f32::from(st.flags)
}

/// The expected worth to the attacker of attacking `def` with `men` men
/// (an officer among them or not), in points (R73-R76).
fn attack_worth(game: &Game, men: u16, officer: bool, at_stake: f32, def: &Stack) -> f32 {
    let d_men = fighters(def);
    if men == 0 || d_men == 0 {
        return 0.0;
    }
    let cover = game.battle().terrain(def.hex).cover();
    let a2 = 2 * u32::from(men);
    let d2 = match cover {
        Cover::Covered => 3 * u32::from(d_men),
        Cover::Fortified => 4 * u32::from(d_men),
        _ => 2 * u32::from(d_men),
    };
    if a2 < d2 && !officer {
        return 0.0;
    }
    let row = ratio_row(a2, d2);
    let higher = a2 >= d2;
    let half = men.min(d_men) / 2;
    // What the losers lose: half the smaller force killed, then the rest
    // meet their fate (a third surrender, a third rout, a third are
    // slaughtered), about 1.2 points a man.
    let lost = |n: u16| f32::from(half) + 1.2 * f32::from(n.saturating_sub(half));
    let half = f32::from(half);
    let mut worth = 0.0;
    for result in game.battle().switches.melee_rows.0[row] {
        let attackers_win = match result {
            MeleeResult::V | MeleeResult::H => Some(higher),
            MeleeResult::L => Some(!higher),
            MeleeResult::A => Some(true),
            MeleeResult::D => Some(false),
            MeleeResult::B => None,
        };
        // After V the winner loses none (R76).
        let winner_loses = if result == MeleeResult::V { 0.0 } else { half };
        worth += match attackers_win {
            Some(true) => lost(d_men) + pieces(game, def) - winner_loses,
            Some(false) => winner_loses - lost(men) - at_stake,
            None => 0.0,
        } / 6.0;
    }
    worth
}

/// Stacks in a battle from which the threats are looked up hex by hex
/// rather than over every stack: the same values, and on a small battle
/// the walk over a dozen stacks is quicker than the hexes' coordinates.
const LOOKUP_FROM: usize = 64;

/// The expected casualties of the best shot of the cannon in `st` (R65-R67),
/// direct fire assumed.
fn shot_worth(game: &Game, st: &Stack) -> f32 {
    shot_worth_by(game, st, game.stacks().len() >= LOOKUP_FROM)
}

/// [`shot_worth`], over the hexes in range or over every stack.
fn shot_worth_by(game: &Game, st: &Stack, by_hex: bool) -> f32 {
    if !st.cannon || st.armed.men.total() < 4 {
        return 0.0;
    }
    let range = u16::from(game.battle().switches.cannon_range);
    let mut best = 0.0f32;
    for foe in enemies_within(game, st, range, by_hex).filter(|f| f.is_formation()) {
        let d = st.hex.distance(foe.hex);
        if d == 0 {
            continue;
        }
        let men = foe.armed.men.total();
        let cover = match game.battle().terrain(foe.hex).cover() {
            Cover::Covered => -1,
            Cover::Fortified => -2,
            _ => 0,
        };
        let modifier = density_modifier(men) + range_modifier(d) + cover;
        let expected: u16 = (1..=6u8).map(|r| casualties(r, modifier, men)).sum();
        best = best.max(f32::from(expected) / 6.0);
    }
    best
}

/// The enemy's stacks at most `radius` hexes from `st`: looked up hex by
/// hex (the same cost on a map of thousands), or found over every stack
/// (quicker on a battle of a dozen), in stack order.
fn enemies_within<'a>(
    game: &'a Game,
    st: &Stack,
    radius: u16,
    by_hex: bool,
) -> impl Iterator<Item = &'a Stack> + 'a {
    let (hex, enemy) = (st.hex, st.side.other());
    let by_hexes = by_hex.then(|| {
        game.battle()
            .map
            .within(hex, radius)
            .filter_map(move |h| game.stack(h, enemy))
    });
    let by_stacks = (!by_hex).then(|| {
        game.stacks()
            .iter()
            .filter(move |f| f.side == enemy && hex.distance(f.hex) <= radius)
    });
    by_hexes
        .into_iter()
        .flatten()
        .chain(by_stacks.into_iter().flatten())
}

/// The points of the enemy's pieces without armed men within a march of
/// the formation `st` (R63, R69): looked up by hex on a large battle
/// ([`LOOKUP_FROM`]), so that it costs the same a formation on a map of
/// any size.
fn capture_threat(game: &Game, st: &Stack) -> f32 {
    capture_threat_by(game, st, game.stacks().len() >= LOOKUP_FROM)
}

/// [`capture_threat`], over the hexes within reach or over every stack.
fn capture_threat_by(game: &Game, st: &Stack, by_hex: bool) -> f32 {
    let reach = if st.armed.men.cav > 0 { 2 } else { 1 };
    enemies_within(game, st, reach, by_hex)
        .filter(|foe| foe.capturable())
        .map(capture_points)
        .sum()
}

/// The best attack the formation `st` could make on its own in the game
/// turns ahead ([`HORIZON`], [`LARGE_HORIZON`] on a large battle, and no
/// more than the battle has left), each
/// turn of marching taking [`DECAY`] off: the expected worth of attacking
/// each enemy formation it can reach by marching round impassable hexes
/// (R69: over a river only by its bridges), or the points of a stack
/// without armed men it can enter (R63). What it can do in the next turn
/// is counted already, as an attack or a capture in reach.
fn prospect(game: &Game, st: &Stack) -> f32 {
    let men = fighters(st);
    if men == 0 {
        return 0.0;
    }
    let officer = st.armed.officers > 0;
    let stake = pieces(game, st);
    let pace = if st.armed.men.inf == 0 { 2 } else { 1 };
    let large = game.stacks().len() >= LOOKUP_FROM;
    let left = game.battle().turns.saturating_sub(game.turn()) + 1;
    let horizon = if large { LARGE_HORIZON } else { HORIZON };
    let turns_ahead = horizon.min(left as u16);
    let mut best = 0.0f32;
    let mut weigh = |foe: &Stack| {
        if foe.side == st.side {
            return;
        }
        let steps = game.battle().path(st.hex, foe.hex);
        // Turns of marching to stand next to a formation, or onto a
        // stack without armed men; the next turn's are counted already.
        let (turns, most) = if foe.is_formation() {
            let turns = steps.saturating_sub(1).div_ceil(pace);
            (turns, 1.2 * f32::from(fighters(foe)) + pieces(game, foe))
        } else if foe.capturable() {
            // Within a march it is a threat already (`capture_threat`).
            let turns = steps.div_ceil(pace);
            (if turns <= 1 { 0 } else { turns }, capture_points(foe))
        } else {
            return;
        };
        if turns == 0 || turns > turns_ahead {
            return;
        }
        let discount = DECAY.powi(i32::from(turns));
        // No attack is worth more than all the foe has.
        if most * discount <= best {
            return;
        }
        let worth = if foe.is_formation() {
            attack_worth(game, men, officer, stake, foe)
        } else {
            most
        };
        best = best.max(worth * discount);
    };
    if large {
        enemies_within(game, st, pace * turns_ahead + 1, true).for_each(&mut weigh);
    } else {
        game.stacks().iter().for_each(&mut weigh);
    }
    best
}

/// Each side's score (see the module doc).
pub fn scores(game: &Game) -> [f32; 2] {
    let flag = flag_worth(game);
    let stacks = game.stacks();
    let mut out = [game.vp(Side(0)) as f32, game.vp(Side(1)) as f32];
    // Whose threats come first: the active side's, until its Melee is over.
    let first = match game.phase() {
        Phase::Cannonade | Phase::March | Phase::Melee => game.active(),
        Phase::Rally => game.active().other(),
    };
    for st in stacks {
        let s = st.side.index();
        out[s] += material(st, flag);
        if !st.is_formation() {
            continue;
        }
        let weight = if st.side == first { 1.0 } else { SECOND };
        out[s] += SHOT * weight * shot_worth(game, st);
        out[s] += CAPTURE * weight * capture_threat(game, st);
        let path = f32::from(game.battle().path_home(st.hex, st.side.other()));
        out[s] -= PULL * path * f32::from(st.armed.men.total());
        out[s] += PROSPECT * prospect(game, st);
    }
    // Attacks: every enemy formation by all the formations next to it.
    for def in stacks.iter().filter(|d| d.is_formation()) {
        let by = def.side.other();
        let mut men = 0;
        let mut officer = false;
        let mut at_stake = 0.0f32;
        for h in game.battle().neighbours(def.hex) {
            if let Some(a) = game.stack(*h, by).filter(|a| a.is_formation()) {
                men += fighters(a);
                officer |= a.armed.officers > 0;
                at_stake = at_stake.max(pieces(game, a));
            }
        }
        let worth = attack_worth(game, men, officer, at_stake, def);
        if worth > 0.0 {
            let weight = if by == first { ATTACK } else { ATTACK * SECOND };
            out[by.index()] += weight * worth;
        }
    }
    // The off-board ring: each counter's pieces at [`RING`] of their worth,
    // pulled toward the enemy's home edge as the map's formations are.
    if let Some(grid) = game.grid() {
        let ring = &grid.grid.ring;
        for c in grid.counters() {
            let side = Side(c.id.side as u8);
            let men = f32::from(c.pieces.infantry + c.pieces.cavalry);
            out[c.id.side] += RING * counter_material(&c.pieces, flag)
                - PULL * ring_path(game, ring, c.at, side) * men;
        }
    }
    out
}

/// The values of a position not over, for both seats, from the scores.
pub fn values(game: &Game) -> [f32; 2] {
    let [a, b] = scores(game);
    let v = 1.0 / (1.0 + (-(a - b) / SCALE).exp());
    [v, 1.0 - v]
}

/// The worth of `game` for `side`: its value, or its result once over.
fn worth(game: &Game, side: Side) -> f32 {
    match result_for(game, seat_of(side)) {
        Some(r) => r,
        None => values(game)[side.index()],
    }
}

/// The greedy choice and the search's lines, with their reused buffers.
pub struct Judgement {
    legal: Vec<Legal<Command>>,
    /// The one-step weighings of the lines last given, in their order.
    priors: Vec<f32>,
    /// The answers to an owed decision ([`Judgement::settle`]).
    answers: Vec<Legal<Command>>,
    copy: Game,
    events: Vec<Event>,
    /// When the search must answer: lines stop growing there.
    deadline: Option<Instant>,
    /// The work done since the last position was valued (an iteration of
    /// the search), in stacks valued: see [`WORK_PER_ITERATION`].
    work: u64,
    /// The seat the search decides for: its playouts answer it with
    /// `reply_mix` random replies.
    root: Option<Seat>,
    /// How often a playout answers `root` with one random command of the
    /// other side instead of that side's greedy line.
    reply_mix: f32,
}

impl Judgement {
    /// Buffers for games like `game`.
    pub fn new(game: &Game) -> Judgement {
        Judgement {
            legal: Vec::with_capacity(160),
            answers: Vec::with_capacity(16),
            priors: Vec::with_capacity(WIDTH + 1),
            copy: game.clone(),
            events: Vec::with_capacity(16),
            deadline: None,
            work: 0,
            root: None,
            reply_mix: 0.5,
        }
    }

    /// Whether the search's time is up.
    fn past_deadline(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether a line or a playout should stop growing: the search's time
    /// is up, or this iteration's work.
    fn late(&self) -> bool {
        self.work > WORK_PER_ITERATION || self.past_deadline()
    }

    /// Each legal command of `seat` with the worth of where it leaves the
    /// game for the seat, over sampled rolls where it rolls (R30: the
    /// copies' dice are the bot's own, from `rng`); in list order.
    fn ranked(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
    ) -> Vec<(Command, f32, bool)> {
        game.legal_into(seat, &mut self.legal);
        draw_candidates(&mut self.legal, CANDIDATES, rng);
        let base: u64 = rng.random();
        let legals = std::mem::take(&mut self.legal);
        let mut out = Vec::with_capacity(legals.len());
        for (k, legal) in legals.iter().enumerate() {
            // Past the deadline, what is scored so far is what there is.
            if !out.is_empty() && self.past_deadline() {
                break;
            }
            let Some((total, samples, rolled)) =
                self.weigh(game, seat, &legal.command, mix(base, k as u64))
            else {
                continue;
            };
            out.push((legal.command, total / samples as f32, rolled));
        }
        self.legal = legals;
        out
    }

    /// Makes the decisions the copy's last command left owed (casualties,
    /// the losers' fate, rout moves, the free advance: R67, R76, R77, R80)
    /// with the first listed answer, so that the position is weighed with
    /// what the command's rolls did, not before it.
    fn settle(&mut self) {
        for _ in 0..SETTLE_LIMIT {
            if self.copy.state().steps.is_empty() {
                return;
            }
            let Some(owes) = sandtable_core::game::next_seat(&self.copy) else {
                return;
            };
            self.copy.legal_into(owes, &mut self.answers);
            let Some(answer) = self.answers.first().map(|l| l.command) else {
                return;
            };
            self.events.clear();
            if self
                .copy
                .apply_into(owes, &answer, &mut self.events)
                .is_err()
            {
                return;
            }
        }
    }

    /// The worth for `seat` of where `command` leaves `game`, summed over
    /// the rolls it may make, with their count, and whether it rolls; `None`
    /// when it cannot be played. A command that rolls is weighed over every
    /// value of its first two dice, each as likely (six values where it
    /// rolls one die: a shot; 36 where it rolls two: a melee's result and
    /// the losers' fate, R74-R76); further dice (fire over friends, R68)
    /// come from `seed` (R30: the copies' dice are the bot's own).
    fn weigh(
        &mut self,
        game: &Game,
        seat: Seat,
        command: &Command,
        seed: u64,
    ) -> Option<(f32, u32, bool)> {
        let side = side_of(seat);
        let mut fill = ChaCha8Rng::seed_from_u64(seed);
        let play = |this: &mut Self, dice: Dice| {
            this.copy.clone_from(game);
            this.copy.set_dice(dice);
            this.events.clear();
            this.work += game.stacks().len() as u64;
            let applied = this.copy.apply_into(seat, command, &mut this.events).ok()?;
            this.settle();
            Some((
                worth(&this.copy, side),
                applied.barrier == Some(Barrier::Roll),
            ))
        };
        // Dice that roll `first`, then the bot's own.
        let script = |first: &[u8], fill: &mut ChaCha8Rng| {
            let mut rolls = first.to_vec();
            rolls.extend((rolls.len()..SCRIPT).map(|_| fill.random_range(1..=6u8)));
            Dice::scripted(rolls)
        };
        // A probe: most commands roll nothing and are weighed at once.
        let (value, rolled) = play(self, Dice::seeded(fill.random()))?;
        if !rolled {
            return Some((value, 1, false));
        }
        // How many dice it rolls, on a script.
        let used = match play(self, script(&[], &mut fill)) {
            Some(_) => SCRIPT - self.copy.state().dice.left().unwrap_or(0),
            None => 0,
        };
        let (mut total, mut count) = (0.0, 0);
        let faces = if used >= 2 { 36 } else { 6 };
        for i in 0..faces {
            let first: Vec<u8> = if faces == 36 {
                vec![1 + (i / 6) as u8, 1 + (i % 6) as u8]
            } else {
                vec![1 + i as u8]
            };
            let dice = script(&first, &mut fill);
            // A command that needs more dice than scripted is weighed on
            // the generator instead.
            let value = match play(self, dice) {
                Some((v, _)) => v,
                None => match play(self, Dice::seeded(fill.random())) {
                    Some((v, _)) => v,
                    None => continue,
                },
            };
            total += value;
            count += 1;
        }
        (count > 0).then_some((total, count, true))
    }

    /// The best command of `seat` now by one step of the evaluation, ties
    /// to the earliest listed, and whether it rolls.
    fn best(&mut self, game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<(Command, bool)> {
        let ranked = self.ranked(game, seat, rng);
        // `max_by` keeps the last of equals: the earliest listed wins ties
        // when the list is walked from its end.
        ranked
            .into_iter()
            .rev()
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(command, _, rolls)| (command, rolls))
    }

    /// A phase line of `seat` (see the module doc) into `out`.
    fn line(&mut self, game: &Game, seat: Seat, rng: &mut ChaCha8Rng, out: &mut Vec<Command>) {
        out.clear();
        let mut at = game.clone();
        while out.len() < LINE_LIMIT
            && sandtable_core::game::next_seat(&at) == Some(seat)
            && (out.is_empty() || !self.late())
        {
            let Some((command, rolls)) = self.best(&at, seat, rng) else {
                break;
            };
            out.push(command);
            if rolls || command == Command::End {
                break;
            }
            self.events.clear();
            if at.apply_into(seat, &command, &mut self.events).is_err() {
                out.pop();
                break;
            }
        }
    }
}

impl Judge<Game> for Judgement {
    fn values(&mut self, game: &Game, out: &mut Vec<f32>) {
        // The end of an iteration: the next one has its own work.
        self.work = 0;
        out.clear();
        out.extend([worth(game, Side(0)), worth(game, Side(1))]);
    }

    fn lines(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Vec<Command>>,
    ) {
        // The first commands that score best one step ahead, each followed
        // by greedy play to the end of its line: what the search compares
        // is where each first command leads.
        out.clear();
        self.priors.clear();
        let mut ranked = self.ranked(game, seat, rng);
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut line = Vec::new();
        for &(first, value, rolls) in ranked.iter().take(WIDTH) {
            self.priors.push(value);
            line.clear();
            line.push(first);
            if !rolls && first != Command::End && !self.late() {
                let mut at = game.clone();
                self.events.clear();
                if at.apply_into(seat, &first, &mut self.events).is_ok() {
                    let mut rest = Vec::new();
                    self.line(&at, seat, rng, &mut rest);
                    line.extend(rest);
                }
            }
            out.push(line.clone());
        }
        // Ending the phase at once is always among the moves.
        let end = vec![Command::End];
        if game.check(seat, &Command::End).is_ok() && !out.contains(&end) {
            out.push(end);
            // End's own weighing, when it was weighed before the deadline.
            match ranked.iter().find(|r| r.0 == Command::End) {
                Some(r) => self.priors.push(r.1),
                None => self.priors.clear(),
            }
        }
    }

    /// Each line's first command as weighed one step ahead (over every
    /// value of its first dice), counting for [`PRIOR_WEIGHT`] playouts.
    fn priors(&mut self, out: &mut Vec<f32>) -> u32 {
        out.clone_from(&self.priors);
        PRIOR_WEIGHT
    }

    fn deadline(&mut self, at: Option<Instant>) {
        self.deadline = at;
    }

    /// Screened over 80 games against greedy at 300 iterations: 0.1 won
    /// 56, 0.3 and 0.5 won 62, 1.0 won 58.
    fn exploration(&self) -> f32 {
        EXPLORATION
    }

    fn playout_line(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Command>,
    ) {
        // Out of time or work: the playout is valued where it stands.
        if self.late() {
            out.clear();
            return;
        }
        // The other side answers with one random command as often as
        // `reply_mix` says, else with its greedy line.
        if self.root.is_some_and(|r| r != seat) && rng.random::<f32>() < self.reply_mix {
            out.clear();
            out.extend(GameState::random_command(game, seat, rng));
            return;
        }
        self.line(game, seat, rng, out);
    }

    /// A playout stops once the player turn after the root's has ended:
    /// the enemy's reply is played, not guessed.
    fn settled(&mut self, root: &Game, game: &Game) -> bool {
        let turns = |g: &Game| 2 * g.turn() + u32::from(g.active() != g.state().first);
        turns(game) >= turns(root) + 2
    }
}

/// Keeps at most `most` of the commands in `legal`, drawn at random with
/// End always among them, in list order (ties still go to the earliest
/// listed); a list that short already is left as it is.
fn draw_candidates(legal: &mut Vec<Legal<Command>>, most: usize, rng: &mut ChaCha8Rng) {
    if legal.len() <= most {
        return;
    }
    let n = legal.len();
    let mut keep = vec![false; n];
    let mut kept = 0;
    if let Some(end) = legal.iter().position(|l| l.command == Command::End) {
        keep[end] = true;
        kept += 1;
    }
    // A partial shuffle of the rest: each subset as likely as any other.
    let mut order: Vec<usize> = (0..n).filter(|&i| !keep[i]).collect();
    for i in 0..(most - kept) {
        let j = rng.random_range(i..order.len());
        order.swap(i, j);
        keep[order[i]] = true;
    }
    let mut k = 0;
    legal.retain(|_| {
        k += 1;
        keep[k - 1]
    });
}

/// The greedy bot's command for `seat` (see the module doc): the first of
/// its phase line; `None` when the seat owes no decision. Never changes
/// `game`.
pub fn greedy(game: &Game, seat: Seat, seed: u64) -> Option<Command> {
    let side = Side(seat.0 as u8);
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, game.seen_hash(side)));
    // Think on a copy dealt from the seat's own view: its own dice, and
    // anything of the off-board grid it may not see dealt again (R30, R57).
    let mut own = game.clone();
    sandtable_core::game::GameState::redeal(&mut own, seat, rng.random());
    Judgement::new(game)
        .best(&own, seat, &mut rng)
        .map(|(c, _)| c)
}

/// The mcts bot's choice for `seat` under `budget`, `trees` trees at once
/// (one a thread), with the line it chose and the playouts it ran; `None`
/// when the seat owes no decision. Its playouts answer it with one random
/// command of the other side in `careless` of the other side's turns (0
/// to 1: `Seen::careless`; at most [`MAX_REPLY_MIX`]), else with that
/// side's greedy line. Never changes `game`.
pub fn mcts(
    game: &Game,
    seat: Seat,
    budget: Budget,
    seed: u64,
    trees: u8,
    careless: f32,
) -> Option<Searched<Command>> {
    let config = crate::BotConfig::new(crate::BotKind::Mcts, seed)
        .with_budget(budget)
        .with_threads(trees);
    mcts_seeing(game, seat, &config, careless)
}

/// As [`mcts`], with `config`'s budget, seed, trees and sight
/// ([`Sight`]).
pub fn mcts_seeing(
    game: &Game,
    seat: Seat,
    config: &crate::BotConfig,
    careless: f32,
) -> Option<Searched<Command>> {
    let (budget, seed, trees, sight): (Budget, u64, u8, Sight) =
        (config.budget, config.seed, config.threads, config.sight);
    search_seeing(
        game,
        seat,
        || Judgement {
            root: Some(seat),
            reply_mix: careless.clamp(0.0, MAX_REPLY_MIX),
            ..Judgement::new(game)
        },
        budget,
        mix(seed, game.seen_hash(Side(seat.0 as u8))),
        trees,
        sight,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Seen;
    use sandtable_core::dice::Dice;
    use sandtable_core::game::next_seat;
    use sandtable_warpspawn::{Hex, Terrain, samples};

    #[test]
    fn threats_looked_up_by_hex_are_those_over_every_stack() {
        let mut checked = (0, 0);
        for (setup, seed) in [
            (samples::open_field(), 1),
            (samples::battle(7), 2),
            (samples::brawl(3), 3),
            (samples::skirmish(), 4),
        ] {
            let mut game = Game::new(&setup, Dice::seeded(seed)).expect("a valid sample");
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut events = Vec::new();
            for _ in 0..400 {
                for st in game.stacks() {
                    let (a, b) = (
                        shot_worth_by(&game, st, true),
                        shot_worth_by(&game, st, false),
                    );
                    assert_eq!(a, b, "the shot of {st:?}");
                    checked.0 += usize::from(a > 0.0);
                    if st.is_formation() {
                        let (a, b) = (
                            capture_threat_by(&game, st, true),
                            capture_threat_by(&game, st, false),
                        );
                        assert!(
                            (a - b).abs() < 1e-3,
                            "the capture threat of {st:?}: {a} {b}"
                        );
                        checked.1 += usize::from(a > 0.0);
                    }
                }
                let Some(seat) = next_seat(&game) else { break };
                let command = crate::contract::random(&game, seat, &mut rng).expect("a command");
                events.clear();
                game.apply_into(seat, &command, &mut events).expect("legal");
            }
        }
        // The comparison met shots and captures in reach, not only zeros.
        assert!(checked.0 > 50 && checked.1 > 20, "{checked:?}");
    }

    #[test]
    fn a_counter_counts_for_its_pieces_less_than_on_the_table_and_more_nearer_the_enemy() {
        let flank = |change: &dyn Fn(&mut sandtable_warpspawn::offboard::setup::OffboardSetup)| {
            let mut setup = samples::flank_march();
            change(setup.offboard.as_mut().expect("a grid"));
            Game::new(&setup, Dice::seeded(1)).expect("the flank march")
        };
        let shipped = flank(&|_| {});
        // Red's foot and baggage beside L1 (counter 2 in 2N): 10 armed men
        // and a baggage wagon, at RING of their worth, less their pull.
        let without = flank(&|o| o.counters.retain(|c| !(c.side == 0 && c.number == 2)));
        let worth = scores(&shipped)[0] - scores(&without)[0];
        let pieces = 10.0 + 5.0;
        let path = f32::from(shipped.battle().path_home(Hex::new(11, 0), Side(1)) + 1);
        assert!(
            (worth - (RING * pieces - PULL * path * 10.0)).abs() < 1e-3,
            "{worth}"
        );
        assert!(worth > 0.0 && worth < pieces, "{worth}");
        assert_eq!(
            scores(&shipped)[1],
            scores(&without)[1],
            "Blue's score is Blue's"
        );
        // The same counter out on the right flank, beside P12, is nearer
        // Blue's home edge than beside L1, and worth more.
        let up_the_flank = flank(&|o| {
            let c = o
                .counters
                .iter_mut()
                .find(|c| c.side == 0 && c.number == 2)
                .expect("Red's foot");
            c.at = "14S".parse().expect("a square");
        });
        assert!(scores(&up_the_flank)[0] > scores(&shipped)[0]);
    }

    /// A battle of `pieces` on an 8 x 8 field, played on to Red's first
    /// phase of `phase`.
    fn at_phase(
        pieces: Vec<sandtable_warpspawn::PiecesSetup>,
        flags_end: bool,
        phase: Phase,
    ) -> Game {
        let mut setup = samples::field(8, 8, pieces, Vec::new());
        setup.switches.capture_the_flag = flags_end;
        let mut game = Game::new(&setup, Dice::seeded(5)).expect("a valid battle");
        let mut events = Vec::new();
        while game.phase() != phase {
            let seat = next_seat(&game).expect("Red's turn");
            game.apply_into(seat, &Command::End, &mut events)
                .expect("a phase ends");
        }
        assert_eq!(game.active(), Side(0));
        game
    }

    fn command(text: &str) -> Command {
        text.parse().expect("a command")
    }

    #[test]
    fn a_command_that_rolls_is_weighed_over_every_value_of_its_dice() {
        // 10 infantry and 6 cavalry against 8 infantry: the losers' men are
        // chosen (R76), the losers' fate rolled.
        let red = samples::pieces(0, "C3", 10, 6, 0);
        let mut gun = samples::pieces(0, "F2", 6, 0, 0);
        gun.cannon = true;
        let game = at_phase(
            vec![
                red,
                gun,
                samples::pieces(1, "C4", 8, 0, 0),
                samples::pieces(1, "F6", 12, 0, 0),
            ],
            false,
            Phase::Cannonade,
        );
        let mut judge = Judgement::new(&game);
        let red = Seat(0);
        let shot = judge
            .weigh(&game, red, &command("fire F2 F6"), 1)
            .expect("a legal shot");
        assert_eq!((shot.1, shot.2), (6, true), "a shot: one die, six values");
        let end = judge
            .weigh(&game, red, &Command::End, 1)
            .expect("End is legal");
        assert_eq!((end.1, end.2), (1, false), "End rolls nothing");

        let game = at_phase(
            vec![
                samples::pieces(0, "C3", 10, 6, 0),
                samples::pieces(1, "C4", 8, 0, 0),
            ],
            false,
            Phase::Melee,
        );
        let attack = command("attack C4 from C3");
        let (total, count, rolled) = judge.weigh(&game, red, &attack, 1).expect("a legal attack");
        assert_eq!(
            (count, rolled),
            (36, true),
            "a melee: its result and the losers' fate"
        );
        // Every weighed position is played past what the rolls left owed:
        // the losses chosen, the fate met, the advance made.
        assert!(
            judge.copy.state().steps.is_empty(),
            "{:?}",
            judge.copy.state().steps
        );
        // 16 men against 8 at 2:1 (V H H H B L, R74): the attack's worth
        // is its outcomes' mean, better than standing.
        let stand = judge
            .weigh(&game, red, &Command::End, 1)
            .expect("End is legal")
            .0;
        assert!(
            total / count as f32 > stand,
            "{} {stand}",
            total / count as f32
        );
    }

    #[test]
    fn greedy_does_not_stake_its_flag_on_a_melee_it_may_lose() {
        // 16 infantry against 8 at 2:1: one result in six (L) loses, and
        // the winner's advance takes what the losers leave (R76, R77): a
        // flag worth 20 points (R81), or the battle where capturing one
        // ends it. Without the flag the attack is worth making.
        let attack = command("attack C4 from C3");
        let red = Seat(0);
        for (flag_with_them, flags_end, attacks) in [
            (false, true, true),
            (false, false, true),
            (true, false, false),
            (true, true, false),
        ] {
            let mut them = samples::pieces(0, "C3", 16, 0, 0);
            let mut guard = samples::pieces(0, "A1", 4, 0, 0);
            them.flag = flag_with_them;
            guard.flag = !flag_with_them;
            let game = at_phase(
                vec![
                    them,
                    guard,
                    samples::pieces(1, "C4", 8, 0, 0),
                    samples::pieces(1, "H8", 4, 0, 0),
                ],
                flags_end,
                Phase::Melee,
            );
            let chosen = greedy(&game, red, 3).expect("Red owes a decision");
            assert_eq!(
                chosen == attack,
                attacks,
                "the flag with them: {flag_with_them}; capture the flag: {flags_end}; chosen: {chosen}"
            );
        }
    }

    #[test]
    fn a_prospect_of_an_attack_goes_by_the_bridge() {
        // A river along row 4 bridged at F4 only (R60, R69); Blue's 4
        // infantry stand north of it at B6. Red's 16 at B2 are nearer in a
        // straight line but farther by the bridge than at F2.
        let terrain: Vec<(Hex, Terrain)> = (0..9u8)
            .map(|col| {
                let hex = Hex::new(col, 3);
                let kind = if col == 5 {
                    Terrain::Bridge
                } else {
                    Terrain::River
                };
                (hex, kind)
            })
            .collect();
        let prospect_from = |at: &str| {
            let setup = samples::field(
                9,
                7,
                vec![
                    samples::pieces(0, at, 16, 0, 0),
                    samples::pieces(1, "B6", 4, 0, 0),
                ],
                terrain.clone(),
            );
            let game = Game::new(&setup, Dice::seeded(1)).expect("a valid battle");
            let st = game
                .stacks()
                .iter()
                .find(|s| s.side == Side(0))
                .expect("Red");
            let foe: Hex = "B6".parse().expect("a hex");
            (
                prospect(&game, st),
                st.hex.distance(foe),
                game.battle().path(st.hex, foe),
            )
        };
        let (west, west_line, west_path) = prospect_from("B2");
        let (bridge, bridge_line, bridge_path) = prospect_from("F2");
        assert!(west_line < bridge_line && west_path > bridge_path);
        // In a straight line the west one would be within a few turns'
        // march; by the bridge it is beyond the prospects' horizon.
        assert!(west_line <= HORIZON && west_path > HORIZON + 1);
        assert!(
            bridge > 0.0 && west == 0.0,
            "by the bridge {bridge}, west {west}"
        );
    }

    #[test]
    fn playouts_answer_the_searching_side_with_random_replies_as_often_as_it_has_seen_them() {
        // Red's movement on the open field: its greedy line moves several
        // formations, a random reply is one command.
        let mut game = Game::new(&samples::open_field(), Dice::seeded(3)).expect("a valid battle");
        let mut events = Vec::new();
        while game.phase() != Phase::March {
            let seat = next_seat(&game).expect("a seat to move");
            game.apply_into(seat, &Command::End, &mut events)
                .expect("a phase ends");
        }
        let red = next_seat(&game).expect("a seat to march");
        let single = |root: Seat, careless: f32| {
            let mut judge = Judgement {
                root: Some(root),
                reply_mix: careless,
                ..Judgement::new(&game)
            };
            let lengths: Vec<usize> = (0..200u64)
                .map(|seed| {
                    let mut out = Vec::new();
                    judge.playout_line(&game, red, &mut ChaCha8Rng::seed_from_u64(seed), &mut out);
                    out.len()
                })
                .collect();
            assert!(lengths.iter().all(|&n| n > 0), "{lengths:?}");
            lengths.iter().filter(|&&n| n == 1).count() as f32 / 200.0
        };
        // The control: searching for Red, Red's own lines are greedy's, and
        // never a single command here, however careless Blue has been.
        assert_eq!(single(red, 1.0), 0.0);
        // Searching for Blue, Red answers with one random command in about
        // the share of careless commands Blue has seen of it (200 draws: 4
        // standard deviations at a half).
        let blue = Seat(1 - red.0);
        assert_eq!(single(blue, 0.0), 0.0, "a greedy opponent: greedy replies");
        assert_eq!(single(blue, 1.0), 1.0, "a random opponent: random replies");
        let half = single(blue, Seen::default().careless());
        assert!((half - 0.5).abs() < 0.15, "nothing seen yet: {half}");
    }

    #[test]
    fn a_bot_sees_how_often_the_other_side_played_as_greedy_would() {
        let game = Game::new(&samples::open_field(), Dice::seeded(5)).expect("a valid battle");
        let mut game = game;
        let mut events = Vec::new();
        let mut of_greedy = Seen::default();
        let mut of_random = Seen::default();
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        // Each side plays greedy for a few game turns; Blue's bot watches
        // Red's commands, and what a random Red would have played instead.
        use crate::Plays;
        while game.turn() <= 3 {
            let Some(seat) = next_seat(&game) else { break };
            let command = greedy(&game, seat, 17).expect("a seat to act has a command");
            if seat == Seat(0) {
                of_greedy.add(game.as_greedy(seat, &command));
                let drawn = GameState::random_command(&game, seat, &mut rng).expect("a command");
                of_random.add(game.as_greedy(seat, &drawn));
            }
            game.apply_into(seat, &command, &mut events)
                .expect("greedy plays legally");
        }
        assert!(of_greedy.commands >= 10, "{of_greedy:?}");
        assert_eq!(of_greedy.commands, of_random.commands);
        assert!(of_greedy.careless() < 0.2, "{of_greedy:?}");
        assert!(of_random.careless() > 0.6, "{of_random:?}");
    }
}
