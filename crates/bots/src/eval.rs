//! The scoring shared by the greedy bot and the tree search: distance maps to
//! the enemy Bases, a static evaluation of a position for every player, and a
//! quick score of one legal command for guided playouts. Choosing among
//! commands is left to `greedy` and `mcts`.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use sandtable_cache::CacheLegal;
use sandtable_cache::{
    Board, CaptureSide, Command, Facing, Game, LegalCommand, Occupant, Outcome, PlayerId, Square,
    TerrainClass, UnitId,
};

/// Value of one unit on the board, the unit of every score.
pub(crate) const UNIT: f32 = 10.0;
/// Value of an active Base beyond its units (R10).
const BASE: f32 = 100.0;
/// Score per action of progress toward the nearest enemy Base.
const PROGRESS: f32 = 0.4;
/// Distances beyond this many actions count as this many.
const FAR: u16 = 40;
/// Actions an attacker has in one activation (AG+4, R7).
const REACH: u16 = 4;
/// Loss feared for a unit an enemy can capture next activation, in units.
const UNIT_AT_RISK: f32 = 0.6;
/// Loss feared for a Base an enemy can capture next activation.
const BASE_AT_RISK: f32 = 80.0;
/// Loss feared for a Base an enemy can capture within two activations.
const BASE_NEAR_RISK: f32 = 20.0;
/// Weight of threats by the player who moves next, and by any other.
const NEXT_MOVER: f32 = 1.0;
const LATER_MOVER: f32 = 0.3;
/// Score of a won (or lost) game.
pub(crate) const WIN: f32 = 10_000.0;

/// Unreachable in a distance map.
const NO_WAY: u16 = u16::MAX;

/// Distance maps fixed when a bot starts thinking: for every player, the
/// actions a unit needs from every square to reach the nearest enemy Base
/// (R12, R13 costs; turns, roads and other units ignored).
#[derive(Debug, Clone)]
pub(crate) struct Maps {
    board: Board,
    to_enemy_base: Vec<Vec<u16>>,
    /// For every Factor whose Base is active, when asked for: the actions a
    /// unit needs from each square and facing to capture that Base.
    base_reach: Vec<Option<BaseReach>>,
}

impl Maps {
    /// Maps for the Bases active in `game` now.
    pub(crate) fn new(game: &Game) -> Maps {
        let board = game.board();
        let to_enemy_base = (0..game.players().len())
            .map(|p| {
                let me = PlayerId(p as u16);
                let targets: Vec<Square> = game
                    .factors()
                    .iter()
                    .enumerate()
                    .filter(|(f, factor)| {
                        factor.player != me
                            && game.base_active(sandtable_cache::FactorId(*f as u16))
                    })
                    .map(|(_, factor)| factor.base)
                    .collect();
                distances_to(game, &targets)
            })
            .collect();
        Maps {
            board,
            to_enemy_base,
            base_reach: Vec::new(),
        }
    }

    /// The same maps with the capture costs of every active Base, for
    /// `settled_scores`.
    pub(crate) fn with_base_reach(mut self, game: &Game) -> Maps {
        self.base_reach = game
            .factors()
            .iter()
            .enumerate()
            .map(|(f, factor)| {
                game.base_active(sandtable_cache::FactorId(f as u16))
                    .then(|| BaseReach {
                        board: self.board,
                        costs: capture_costs(game, factor.base, 2 * REACH),
                    })
            })
            .collect();
        self
    }

    /// Actions from `sq` to the nearest enemy Base of `player`, capped at `FAR`.
    pub(crate) fn distance(&self, player: PlayerId, sq: Square) -> u16 {
        self.to_enemy_base[usize::from(player.0)][self.board.index(sq)].min(FAR)
    }

    /// The capture costs of the Base of Factor `f`, when asked for.
    fn base_reach(&self, f: usize) -> Option<&BaseReach> {
        self.base_reach.get(f)?.as_ref()
    }
}

/// The actions a unit needs from each square and facing to capture one Base
/// (`capture_costs`).
#[derive(Debug, Clone)]
struct BaseReach {
    board: Board,
    costs: Vec<u8>,
}

impl BaseReach {
    /// Actions from `sq` facing `facing`; more than two activations' worth
    /// when the Base is farther.
    fn cost(&self, sq: Square, facing: Facing) -> u16 {
        u16::from(self.costs[self.board.index(sq) * 4 + facing as usize])
    }
}

/// Cost of entering a square (R12), `None` for squares no unit can stop on.
fn entry_cost(game: &Game, sq: Square) -> Option<u16> {
    match game.ground(sq).class() {
        TerrainClass::Open | TerrainClass::T130 => Some(1),
        TerrainClass::T120 => Some(3),
        TerrainClass::T110 | TerrainClass::T190 => None,
    }
}

/// Backward Dijkstra from the targets: for every square, the cheapest actions
/// to advance from it onto a target, with low walls crossed for 3 (R13).
fn distances_to(game: &Game, targets: &[Square]) -> Vec<u16> {
    let board = game.board();
    let mut dist = vec![NO_WAY; board.len()];
    let mut heap = BinaryHeap::new();
    for t in targets {
        dist[board.index(*t)] = 0;
        heap.push(Reverse((0u16, t.col, t.row)));
    }
    while let Some(Reverse((d, col, row))) = heap.pop() {
        let to = Square::new(col, row);
        if d > dist[board.index(to)] {
            continue;
        }
        // Entering `to` costs its ground; a Base stands on open ground (R3).
        let enter = if targets.contains(&to) {
            1
        } else {
            match entry_cost(game, to) {
                Some(c) => c,
                None => continue,
            }
        };
        for facing in Facing::ALL {
            // A unit on `from` facing back toward `to` advances onto it.
            let Some(from) = to.step(facing, board) else {
                continue;
            };
            let mut relax = |from: Square, cost: u16| {
                if game.ground(from).can_hold_unit() {
                    let nd = d.saturating_add(cost);
                    let k = board.index(from);
                    if nd < dist[k] {
                        dist[k] = nd;
                        heap.push(Reverse((nd, from.col, from.row)));
                    }
                }
            };
            match game.ground(from).class() {
                TerrainClass::T110 => {
                    if let Some(beyond) = from.step(facing, board) {
                        relax(beyond, 3);
                    }
                }
                _ => relax(from, enter),
            }
        }
    }
    dist
}

/// Beyond the cap in `capture_costs`.
const FAR_BEYOND: u8 = u8::MAX;

/// For every square and facing (index `square * 4 + facing`), the actions a
/// unit standing there at the start of its activation needs to advance onto
/// `target` on an otherwise empty board: quarter turns (R8), steps by terrain
/// (R12), low-wall crossings (R13, one action less as the activation's first
/// command when the unit faces the wall), road runs (R14) and the steps on
/// and off elevated bridges (R15). `FAR_BEYOND` where more than `cap`.
pub(crate) fn capture_costs(game: &Game, target: Square, cap: u16) -> Vec<u8> {
    let board = game.board();
    let n = board.len();
    let state = |sq: Square, f: Facing| board.index(sq) * 4 + f as usize;
    let elev =
        |a: Square, b: Square| u16::from(game.ground(a).elevated() != game.ground(b).elevated());
    // Forward moves of each state: their cost and the state they reach, `None`
    // for the target; and the low-wall crossings among them.
    let mut moves: Vec<Vec<(u16, Option<usize>)>> = vec![Vec::new(); n * 4];
    let mut crossings: Vec<(usize, u16, Option<usize>)> = Vec::new();
    for s in board.squares() {
        if s == target || !game.ground(s).can_hold_unit() {
            continue;
        }
        for f in Facing::ALL {
            let k = state(s, f);
            let to = |sq: Square| (sq != target).then(|| state(sq, f));
            let out = &mut moves[k];
            out.push((1, Some(state(s, f.left()))));
            out.push((1, Some(state(s, f.right()))));
            let Some(next) = s.step(f, board) else {
                continue;
            };
            if game.ground(next).class() == TerrainClass::T110 {
                if let Some(land) = next.step(f, board)
                    && let Some(enter) = entry_cost(game, land)
                {
                    let cost = 2 + enter + elev(s, land);
                    out.push((cost, to(land)));
                    crossings.push((k, cost - 1, to(land)));
                }
                continue;
            }
            let Some(enter) = entry_cost(game, next) else {
                continue;
            };
            out.push((enter + elev(s, next), to(next)));
            // A road run (R14): any number of T130 squares for one action.
            let (mut from, mut sq, mut cost) = (s, next, 1);
            while game.ground(sq).class() == TerrainClass::T130 {
                cost += elev(from, sq);
                if sq != next {
                    out.push((cost, to(sq)));
                }
                let Some(after) = sq.step(f, board).filter(|_| sq != target) else {
                    break;
                };
                (from, sq) = (sq, after);
            }
        }
    }
    let mut dist = vec![u16::MAX; n * 4];
    let through = |dist: &[u16], cost: u16, to: Option<usize>| match to {
        None => cost,
        Some(t) => dist[t].saturating_add(cost),
    };
    loop {
        let mut changed = false;
        for (k, out) in moves.iter().enumerate() {
            let best = out
                .iter()
                .map(|&(cost, to)| through(&dist, cost, to))
                .min()
                .unwrap_or(u16::MAX);
            if best < dist[k] && best <= cap {
                dist[k] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut first = dist.clone();
    for (k, cost, to) in crossings {
        let d = through(&dist, cost, to);
        if d <= cap && d < first[k] {
            first[k] = d;
        }
    }
    first
        .into_iter()
        .map(|d| if d <= cap { d as u8 } else { FAR_BEYOND })
        .collect()
}

/// Quarter turns from one facing to another.
fn turns_between(from: Facing, to: Facing) -> u16 {
    if from == to {
        0
    } else if from.opposite() == to {
        2
    } else {
        1
    }
}

/// Actions a unit on `from` facing `facing` needs to advance onto `to` on open
/// ground: the steps plus the quarter turns (terrain ignored).
pub(crate) fn reach_cost(from: Square, facing: Facing, to: Square) -> u16 {
    let steps = from.col.abs_diff(to.col) + from.row.abs_diff(to.row);
    let h = match to.col.cmp(&from.col) {
        std::cmp::Ordering::Greater => Some(Facing::E),
        std::cmp::Ordering::Less => Some(Facing::W),
        std::cmp::Ordering::Equal => None,
    };
    let v = match to.row.cmp(&from.row) {
        std::cmp::Ordering::Greater => Some(Facing::N),
        std::cmp::Ordering::Less => Some(Facing::S),
        std::cmp::Ordering::Equal => None,
    };
    let turns = match (h, v) {
        (Some(a), None) | (None, Some(a)) => turns_between(facing, a),
        (Some(a), Some(b)) => 1 + u16::from(facing != a && facing != b),
        (None, None) => 0,
    };
    steps + turns
}

/// A unit on the board, as the evaluation sees it.
#[derive(Clone, Copy)]
struct Piece {
    player: PlayerId,
    square: Square,
    facing: Facing,
}

/// The player who acts next: the current one, unless all it can do is pass.
pub(crate) fn next_mover(game: &Game) -> PlayerId {
    let current = game.current_player();
    if game.activation().is_some() || game.pending().is_some() || game.activations_left() > 0 {
        return current;
    }
    following(game, current)
}

/// The next player after `player` in turn order who still has a Base (R5).
pub(crate) fn following(game: &Game, player: PlayerId) -> PlayerId {
    let n = game.players().len() as u16;
    (1..=n)
        .map(|k| PlayerId((player.0 + k) % n))
        .find(|p| game.in_game(*p))
        .unwrap_or(player)
}

/// Scores of every player in a position, each its own material, progress and
/// safety minus the mean of the others'; `to_move` is the player whose threats
/// weigh most. A won game scores `WIN` for the winner, `-WIN` for the others.
pub(crate) fn scores(game: &Game, maps: &Maps, to_move: PlayerId, out: &mut Vec<f32>) {
    score_game(game, maps, to_move, false, out);
}

/// Scores of every player where a playout of the tree search stops, after the
/// opponent's reply has been played: as `scores`, with two differences. A
/// Base's threats are counted with the capture costs of `maps` (terrain,
/// roads, bridges and facing, R8, R12 to R15; see `Maps::with_base_reach`)
/// instead of steps and turns on open ground. And a threat on a Base that the
/// player to move cannot take away by capturing the threatening unit weighs
/// in full, as if the threatening player moved next: a Base threatened that
/// way is as good as lost.
pub(crate) fn settled_scores(game: &Game, maps: &Maps, to_move: PlayerId, out: &mut Vec<f32>) {
    score_game(game, maps, to_move, true, out);
}

fn score_game(game: &Game, maps: &Maps, to_move: PlayerId, settled: bool, out: &mut Vec<f32>) {
    let n = game.players().len();
    out.clear();
    match game.outcome() {
        Some(Outcome::Won(w)) => {
            out.extend((0..n).map(|p| if p == usize::from(w.0) { WIN } else { -WIN }));
            return;
        }
        Some(Outcome::Draw(_)) => {
            out.resize(n, 0.0);
            return;
        }
        None => {}
    }
    PIECES.with_borrow_mut(|pieces| {
        gather(game, pieces);
        score_pieces(game, maps, to_move, settled, pieces, out);
    });
}

/// The units on the board, in unit order, into `pieces`.
fn gather(game: &Game, pieces: &mut Vec<Piece>) {
    pieces.clear();
    for (i, unit) in game.units().iter().enumerate() {
        if let Some((square, facing)) = game.position(UnitId(i as u16)) {
            pieces.push(Piece {
                player: unit.player,
                square,
                facing,
            });
        }
    }
}

/// Weight of a threat by `by`'s units: full from the player who moves next.
fn weight(by: PlayerId, to_move: PlayerId) -> f32 {
    if by == to_move {
        NEXT_MOVER
    } else {
        LATER_MOVER
    }
}

thread_local! {
    /// The units on the board, gathered anew by every evaluation.
    static PIECES: std::cell::RefCell<Vec<Piece>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The cheapest capture of a piece of `player` on `target` by an enemy unit
/// within `limit` actions, and whose unit it is. Units farther than `limit`
/// steps away are passed over without counting their turns: they cannot be
/// the answer. Of equal costs the first unit in the list counts.
fn cheapest_threat(
    pieces: &[Piece],
    player: PlayerId,
    target: Square,
    limit: u16,
) -> Option<(u16, PlayerId)> {
    threat_skipping(pieces, player, target, limit, usize::MAX).map(|(cost, _, by)| (cost, by))
}

fn score_pieces(
    game: &Game,
    maps: &Maps,
    to_move: PlayerId,
    settled: bool,
    pieces: &[Piece],
    out: &mut Vec<f32>,
) {
    let n = game.players().len();
    let weight = |by: PlayerId| weight(by, to_move);
    let mut raw = vec![0.0f32; n];
    for a in pieces {
        let own = &mut raw[usize::from(a.player.0)];
        *own += UNIT + PROGRESS * f32::from(FAR - maps.distance(a.player, a.square));
        // The cheapest capture of this unit by any enemy unit.
        if let Some((_, by)) = cheapest_threat(pieces, a.player, a.square, REACH) {
            *own -= UNIT * UNIT_AT_RISK * weight(by);
        }
    }
    for (f, factor) in game.factors().iter().enumerate() {
        if !game.base_active(sandtable_cache::FactorId(f as u16)) {
            continue;
        }
        let own = &mut raw[usize::from(factor.player.0)];
        *own += BASE;
        let costs = if settled { maps.base_reach(f) } else { None };
        let threat = match costs {
            Some(costs) => base_threat(costs, factor.player, pieces),
            None => cheapest_threat(pieces, factor.player, factor.base, 2 * REACH),
        };
        if let Some((cost, by)) = threat {
            let mut weight = weight(by);
            if settled
                && by != to_move
                && cost <= REACH
                && unanswered(costs, factor.player, factor.base, to_move, pieces)
            {
                weight = NEXT_MOVER;
            }
            *own -= base_risk(cost) * weight;
        }
    }
    let total: f32 = raw.iter().sum();
    let others = (n.max(2) - 1) as f32;
    out.extend(raw.iter().map(|r| r - (total - r) / others));
}

/// The cheapest capture of a Base of `player` within two activations by an
/// enemy unit, by the Base's capture costs, and whose unit it is; of equal
/// costs the first unit in the list counts.
fn base_threat(costs: &BaseReach, player: PlayerId, pieces: &[Piece]) -> Option<(u16, PlayerId)> {
    let mut best: Option<(u16, PlayerId)> = None;
    for e in pieces.iter().filter(|e| e.player != player) {
        let cost = costs.cost(e.square, e.facing);
        if cost <= 2 * REACH && best.is_none_or(|(b, _)| cost < b) {
            best = Some((cost, e.player));
        }
    }
    best
}

/// Whether an enemy unit can capture the Base of `player` on `base` in its
/// next activation while no unit of `to_move` can capture that unit in its
/// own.
fn unanswered(
    costs: Option<&BaseReach>,
    player: PlayerId,
    base: Square,
    to_move: PlayerId,
    pieces: &[Piece],
) -> bool {
    pieces.iter().any(|e| {
        let cost = match costs {
            Some(costs) => costs.cost(e.square, e.facing),
            None => reach_cost(e.square, e.facing, base),
        };
        e.player != player
            && cost <= REACH
            && !pieces.iter().any(|d| {
                d.player == to_move
                    && d.square.col.abs_diff(e.square.col) + d.square.row.abs_diff(e.square.row)
                        <= REACH
                    && reach_cost(d.square, d.facing, e.square) <= REACH
            })
    })
}

/// A capture cost, the index of the capturing unit among the pieces, and its
/// player.
type Threat = (u16, usize, PlayerId);

/// The cheapest capture of a piece of `player` on `target` within `limit`
/// actions by an enemy unit other than the one at index `skip`; of equal costs
/// the unit first in the list.
fn threat_skipping(
    pieces: &[Piece],
    player: PlayerId,
    target: Square,
    limit: u16,
    skip: usize,
) -> Option<Threat> {
    let mut best: Option<Threat> = None;
    for (i, e) in pieces.iter().enumerate() {
        if i == skip
            || e.player == player
            || e.square.col.abs_diff(target.col) + e.square.row.abs_diff(target.row) > limit
        {
            continue;
        }
        let cost = reach_cost(e.square, e.facing, target);
        if cost <= limit && best.is_none_or(|(b, ..)| cost < b) {
            best = Some((cost, i, e.player));
        }
    }
    best
}

/// A unit or Base of another player whose safety depends on where the
/// moving unit stands.
struct Watched {
    player: PlayerId,
    target: Square,
    base: bool,
    /// Its cheapest threat by every other unit.
    others: Option<Threat>,
}

/// The evaluation of the positions one unit's activation passes through,
/// for as long as only that unit moves: everything that does not depend on
/// where it stands is added up once, when the activation starts, and each
/// position then costs a few reach counts instead of one for every pair of
/// units. Gives the same scores as `scores` (up to the order of additions).
pub(crate) struct Frozen {
    /// The moving unit, its index among the pieces and its player.
    unit: UnitId,
    index: usize,
    player: PlayerId,
    to_move: PlayerId,
    /// Every player's material, progress and safety, less the moving unit's
    /// own and less the safety of the `watched` pieces.
    fixed: Vec<f32>,
    watched: Vec<Watched>,
    /// The enemy units, in list order, that may capture the moving unit.
    enemies: Vec<Piece>,
    raw: Vec<f32>,
}

impl Frozen {
    /// Frozen at `game`, with `unit` (on the board) the one that moves.
    pub(crate) fn new(game: &Game, maps: &Maps, to_move: PlayerId, unit: UnitId) -> Frozen {
        let n = game.players().len();
        let mut pieces = Vec::with_capacity(game.units().len());
        gather(game, &mut pieces);
        // The moving unit's place among the pieces: the units before it on
        // the board.
        let index = (0..unit.0)
            .filter(|u| game.position(UnitId(*u)).is_some())
            .count();
        let player = game.units()[usize::from(unit.0)].player;
        let weight = |by: PlayerId| weight(by, to_move);
        let mut fixed = vec![0.0f32; n];
        let mut watched = Vec::new();
        for (i, a) in pieces.iter().enumerate() {
            if i == index {
                continue;
            }
            fixed[usize::from(a.player.0)] +=
                UNIT + PROGRESS * f32::from(FAR - maps.distance(a.player, a.square));
            let others = threat_skipping(&pieces, a.player, a.square, REACH, index);
            if a.player == player {
                // The moving unit never threatens its own side.
                if let Some((_, _, by)) = others {
                    fixed[usize::from(a.player.0)] -= UNIT * UNIT_AT_RISK * weight(by);
                }
            } else {
                watched.push(Watched {
                    player: a.player,
                    target: a.square,
                    base: false,
                    others,
                });
            }
        }
        for (f, factor) in game.factors().iter().enumerate() {
            if !game.base_active(sandtable_cache::FactorId(f as u16)) {
                continue;
            }
            fixed[usize::from(factor.player.0)] += BASE;
            let others = threat_skipping(&pieces, factor.player, factor.base, 2 * REACH, index);
            if factor.player == player {
                if let Some((cost, _, by)) = others {
                    fixed[usize::from(factor.player.0)] -= base_risk(cost) * weight(by);
                }
            } else {
                watched.push(Watched {
                    player: factor.player,
                    target: factor.base,
                    base: true,
                    others,
                });
            }
        }
        let enemies = pieces.into_iter().filter(|e| e.player != player).collect();
        Frozen {
            unit,
            index,
            player,
            to_move,
            fixed,
            watched,
            enemies,
            raw: Vec::with_capacity(n),
        }
    }

    /// The score of `me` in `game`, which must differ from the frozen game
    /// only in where the moving unit stands and faces (no capture made, no
    /// stash rolled, the game not over).
    pub(crate) fn score(&mut self, game: &Game, maps: &Maps, me: PlayerId) -> f32 {
        let Some((square, facing)) = game.position(self.unit) else {
            unreachable!("the moving unit stays on the board while nothing is captured");
        };
        let to_move = self.to_move;
        let weight = |by: PlayerId| weight(by, to_move);
        self.raw.clear();
        self.raw.extend_from_slice(&self.fixed);
        let mine = usize::from(self.player.0);
        self.raw[mine] += UNIT + PROGRESS * f32::from(FAR - maps.distance(self.player, square));
        if let Some((_, by)) = cheapest_threat(&self.enemies, self.player, square, REACH) {
            self.raw[mine] -= UNIT * UNIT_AT_RISK * weight(by);
        }
        for w in &self.watched {
            let limit = if w.base { 2 * REACH } else { REACH };
            let mut best = w.others;
            if square.col.abs_diff(w.target.col) + square.row.abs_diff(w.target.row) <= limit {
                let cost = reach_cost(square, facing, w.target);
                if cost <= limit
                    && best.is_none_or(|(b, i, _)| cost < b || (cost == b && self.index < i))
                {
                    best = Some((cost, self.index, self.player));
                }
            }
            if let Some((cost, _, by)) = best {
                self.raw[usize::from(w.player.0)] -= if w.base {
                    base_risk(cost)
                } else {
                    UNIT * UNIT_AT_RISK
                } * weight(by);
            }
        }
        let total: f32 = self.raw.iter().sum();
        let others = (self.raw.len().max(2) - 1) as f32;
        let r = self.raw[usize::from(me.0)];
        r - (total - r) / others
    }
}

/// Loss feared for a Base whose cheapest capture costs `cost` actions (at
/// most two activations' worth).
fn base_risk(cost: u16) -> f32 {
    if cost <= REACH {
        BASE_AT_RISK
    } else {
        BASE_NEAR_RISK
    }
}

/// What entering `to`, advancing in `facing`, is worth to `me` right now: a
/// capture (Bases far above units, the facing bonus counted, R9) or progress.
fn entry_value(
    game: &Game,
    maps: &Maps,
    me: PlayerId,
    from: Square,
    facing: Facing,
    to: Square,
) -> f32 {
    match game.occupant(to) {
        Some(Occupant::Base(f)) if game.factors()[usize::from(f.0)].player != me => 1000.0,
        Some(Occupant::Unit(u)) if game.units()[usize::from(u.0)].player != me => {
            let bonus = game
                .position(u)
                .map_or(0, |(_, theirs)| CaptureSide::of(facing, theirs).bonus().0);
            20.0 + 3.0 * f32::from(bonus)
        }
        Some(_) => -1.0,
        None => {
            let gain = f32::from(maps.distance(me, from)) - f32::from(maps.distance(me, to));
            gain + if game.stash_at(to) { 0.5 } else { 0.0 }
        }
    }
}

/// What facing `facing` on `from` promises: the value of advancing next.
fn facing_value(game: &Game, maps: &Maps, me: PlayerId, from: Square, facing: Facing) -> f32 {
    match game.advance_landing(from, facing) {
        Some(to) if entry_cost(game, to).is_some() || game.occupant(to).is_some() => {
            entry_value(game, maps, me, from, facing, to)
        }
        _ => -2.0,
    }
}

/// A quick score of one legal command for the playout policy, without applying
/// it: captures first, then steps and turns that bring the unit closer to an
/// enemy Base; activations before ending the turn.
pub(crate) fn quick_score(game: &Game, maps: &Maps, legal: &LegalCommand) -> f32 {
    let me = game.current_player();
    let acting = game.activation().and_then(|a| game.position(a.unit));
    match legal.command {
        Command::Activate(sq) => {
            let facing = game
                .unit_at(sq)
                .and_then(|u| game.position(u))
                .map_or(Facing::N, |(_, f)| f);
            let best = Facing::ALL
                .iter()
                .map(|f| {
                    facing_value(game, maps, me, sq, *f)
                        - 0.3 * f32::from(turns_between(facing, *f))
                })
                .fold(f32::MIN, f32::max);
            3.0 + best.clamp(-2.0, 50.0) * 0.1
        }
        Command::Advance => match (acting, legal.lands()) {
            (Some((sq, f)), Some(to)) => entry_value(game, maps, me, sq, f, to),
            _ => 0.0,
        },
        Command::AdvanceTo(to) => match acting {
            Some((sq, f)) => entry_value(game, maps, me, sq, f, to) + 0.2,
            None => 0.0,
        },
        Command::TurnLeft | Command::TurnRight => match acting {
            Some((sq, f)) => {
                let to = if legal.command == Command::TurnLeft {
                    f.left()
                } else {
                    f.right()
                };
                facing_value(game, maps, me, sq, to) - facing_value(game, maps, me, sq, f) - 0.3
            }
            None => 0.0,
        },
        Command::End => 0.0,
        Command::Pass => {
            if game.activation().is_some() || game.activations_left() > 0 {
                -1.0
            } else {
                0.0
            }
        }
        Command::Pick(_) | Command::Place(..) | Command::PlaceCaptive(..) => 0.0,
        // Never listed: bots neither resign nor offer draws (R24).
        Command::Resign | Command::OfferDraw | Command::AcceptDraw => 0.0,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().expect("square name")
    }

    #[test]
    fn reach_cost_counts_steps_and_quarter_turns() {
        assert_eq!(
            reach_cost(sq("C3"), Facing::N, sq("C5")),
            2,
            "straight ahead"
        );
        assert_eq!(
            reach_cost(sq("C3"), Facing::S, sq("C5")),
            4,
            "half turn first"
        );
        assert_eq!(
            reach_cost(sq("C3"), Facing::E, sq("C5")),
            3,
            "quarter turn first"
        );
        assert_eq!(
            reach_cost(sq("C3"), Facing::N, sq("E5")),
            5,
            "one turn on the way"
        );
        assert_eq!(reach_cost(sq("C3"), Facing::W, sq("E5")), 6, "two turns");
    }

    /// The evaluation as first written: every enemy unit's reach counted
    /// in full, for every unit and Base.
    fn reference_scores(game: &Game, maps: &Maps, to_move: PlayerId) -> Vec<f32> {
        let n = game.players().len();
        let pieces: Vec<Piece> = (0..game.units().len())
            .filter_map(|i| {
                let (square, facing) = game.position(UnitId(i as u16))?;
                Some(Piece {
                    player: game.units()[i].player,
                    square,
                    facing,
                })
            })
            .collect();
        let weight = |by: PlayerId| {
            if by == to_move {
                NEXT_MOVER
            } else {
                LATER_MOVER
            }
        };
        let threat = |player: PlayerId, target: Square| {
            pieces
                .iter()
                .filter(|e| e.player != player)
                .map(|e| (reach_cost(e.square, e.facing, target), e.player))
                .min_by_key(|(c, _)| *c)
        };
        let mut raw = vec![0.0f32; n];
        for a in &pieces {
            let own = &mut raw[usize::from(a.player.0)];
            *own += UNIT + PROGRESS * f32::from(FAR - maps.distance(a.player, a.square));
            if let Some((cost, by)) = threat(a.player, a.square)
                && cost <= REACH
            {
                *own -= UNIT * UNIT_AT_RISK * weight(by);
            }
        }
        for (f, factor) in game.factors().iter().enumerate() {
            if !game.base_active(sandtable_cache::FactorId(f as u16)) {
                continue;
            }
            let own = &mut raw[usize::from(factor.player.0)];
            *own += BASE;
            if let Some((cost, by)) = threat(factor.player, factor.base) {
                if cost <= REACH {
                    *own -= BASE_AT_RISK * weight(by);
                } else if cost <= 2 * REACH {
                    *own -= BASE_NEAR_RISK * weight(by);
                }
            }
        }
        let total: f32 = raw.iter().sum();
        raw.iter()
            .map(|r| r - (total - r) / (n.max(2) - 1) as f32)
            .collect()
    }

    /// The fewest actions the activation just begun in `game` needs, by the
    /// rules' own commands, to capture the Base of each Factor, capturing
    /// nothing before it; `None` where it cannot with the actions it has.
    fn engine_base_captures(game: &Game, factors: usize) -> Vec<Option<u16>> {
        let mut best = vec![None::<u16>; factors];
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![game.clone()];
        while let Some(g) = stack.pop() {
            let Some(act) = g.activation() else { continue };
            if !seen.insert((g.place(act.unit), act.spent)) {
                continue;
            }
            for l in g.legal_commands() {
                if !matches!(
                    l.command,
                    Command::TurnLeft
                        | Command::TurnRight
                        | Command::Advance
                        | Command::AdvanceTo(_)
                ) {
                    continue;
                }
                let mut next = g.clone();
                let mut events = Vec::new();
                next.apply_into(l.command, &mut events).expect("legal");
                let spent = act.spent + l.cost;
                let mut go_on = true;
                for e in &events {
                    match e {
                        sandtable_cache::Event::BaseCaptured { factor, .. } => {
                            let b = &mut best[usize::from(factor.0)];
                            *b = Some(b.map_or(spent, |b| b.min(spent)));
                            go_on = false;
                        }
                        sandtable_cache::Event::Captured { .. } => go_on = false,
                        _ => {}
                    }
                }
                if go_on && !next.is_over() {
                    stack.push(next);
                }
            }
        }
        best
    }

    /// The start of `scenarios/standard.ron`.
    fn standard_game() -> Game {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/standard.ron");
        let standard = sandtable_scenario::load(&path).expect("the standard table loads");
        Game::new(&standard.setup).expect("the standard table is valid")
    }

    #[test]
    fn base_capture_costs_match_the_rules() {
        use rand::SeedableRng;
        // R12-R15: the capture costs on an empty board are never more than
        // what the rules need on the real one, and mostly equal them (other
        // units can force a longer way).
        let game = standard_game();
        let blue = game
            .factors()
            .iter()
            .position(|f| f.base == sq("U8"))
            .expect("Blue's Base");
        let costs = capture_costs(&game, sq("U8"), 8);
        let at = |s: &str, f: Facing| costs[game.board().index(sq(s)) * 4 + f as usize];
        assert_eq!(at("U9", Facing::S), 1, "one step");
        assert_eq!(at("U9", Facing::N), 3, "a half turn and a step");
        assert_eq!(at("U12", Facing::S), 4, "four steps");
        assert_eq!(
            at("K11", Facing::N),
            8,
            "onto the road, a run along it (R14), down"
        );
        assert_eq!(at("A12", Facing::E), 6, "a run, a turn, four steps");
        assert_eq!(at("K8", Facing::E), FAR_BEYOND, "ten columns away");
        let to_d8 = capture_costs(&game, sq("D8"), 8);
        assert_eq!(
            to_d8[game.board().index(sq("I7")) * 4 + Facing::W as usize],
            7,
            "over the low wall H7 first, facing it (2 actions, R13), three steps, a turn, a step"
        );
        let to_k8 = capture_costs(&game, sq("K8"), 8);
        assert_eq!(
            to_k8[game.board().index(sq("N8")) * 4 + Facing::W as usize],
            4,
            "a run onto the elevated bridge (+1, R15) and a step off it (+1)"
        );
        assert_eq!(at("R7", Facing::E), 5, "turn, step, turn, three steps");
        let maps = Maps::new(&game).with_base_reach(&game);
        assert_eq!(
            maps.base_reach(blue).map(|c| c.cost(sq("K11"), Facing::N)),
            Some(8)
        );

        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut checked, mut exact, mut captures) = (0, 0, 0);
        for seed in [0u64, 2, 4, 6] {
            for start in [sample_game(seed), game.clone()] {
                let mut g = start;
                while !g.is_over() && g.turn() < 40 {
                    if g.activation().is_none() && g.pending().is_none() {
                        let tables: Vec<Option<Vec<u8>>> = g
                            .factors()
                            .iter()
                            .enumerate()
                            .map(|(f, factor)| {
                                g.base_active(sandtable_cache::FactorId(f as u16))
                                    .then(|| capture_costs(&g, factor.base, 8))
                            })
                            .collect();
                        for l in g.legal_commands() {
                            let Command::Activate(from) = l.command else {
                                continue;
                            };
                            let mut active = g.clone();
                            active.apply(l.command).expect("legal");
                            let unit = active.activation().expect("activated").unit;
                            let sandtable_cache::Place::Board { square, facing } =
                                active.place(unit)
                            else {
                                unreachable!("an activated unit is on the board")
                            };
                            assert_eq!(square, from);
                            let engine = engine_base_captures(&active, g.factors().len());
                            for (f, table) in tables.iter().enumerate() {
                                let Some(table) = table else { continue };
                                if g.factors()[f].player == g.current_player() {
                                    continue;
                                }
                                let model =
                                    u16::from(table[g.board().index(square) * 4 + facing as usize]);
                                checked += 1;
                                if let Some(actions) = engine[f] {
                                    captures += 1;
                                    assert!(
                                        model <= actions,
                                        "seed {seed}, turn {}: {from} facing {facing:?} captures the Base of Factor {f} with {actions} actions, the map says {model}",
                                        g.turn()
                                    );
                                    exact += usize::from(model == actions);
                                }
                            }
                        }
                    }
                    let maps = Maps::new(&g);
                    let command = next_command(&g, &maps, &mut rng);
                    g.apply(command).expect("a legal command applies");
                }
            }
        }
        assert!(checked > 1000, "activations compared: {checked}");
        assert!(captures > 20, "Base captures within reach: {captures}");
        assert!(
            exact * 10 >= captures * 9,
            "the map gave the rules' cost in {exact} of {captures}"
        );
    }

    #[test]
    fn settled_scores_see_roads_and_unanswered_threats_on_a_base() {
        let game = standard_game();
        let maps = Maps::new(&game).with_base_reach(&game);
        let (red, blue) = (PlayerId(0), PlayerId(1));
        let piece = |player, at: &str, facing| Piece {
            player,
            square: sq(at),
            facing,
        };
        // Blue (to move) against one Red unit; what Blue loses to the threat
        // on its Base U8, plain and settled.
        let loss = |pieces: &[Piece]| {
            let (mut plain, mut settled) = (Vec::new(), Vec::new());
            score_pieces(&game, &maps, blue, false, pieces, &mut plain);
            score_pieces(&game, &maps, blue, true, pieces, &mut settled);
            plain[1] - settled[1]
        };
        let far_blue = piece(blue, "A1", Facing::N);
        // Four steps down from U12: Blue has nothing that can capture the
        // unit, so the threat weighs in full instead of 0.3.
        let threat = [piece(red, "U12", Facing::S), far_blue];
        assert_eq!(loss(&threat), BASE_AT_RISK * (NEXT_MOVER - LATER_MOVER));
        // Blue's unit on U10 facing N captures it in two actions: answered.
        let answered = [threat[0], piece(blue, "U10", Facing::N)];
        assert_eq!(loss(&answered), 0.0);
        // From K11 the road brings the Base within two activations (R14),
        // which steps and turns on open ground do not see.
        let by_road = [piece(red, "K11", Facing::N), far_blue];
        assert_eq!(loss(&by_road), BASE_NEAR_RISK * LATER_MOVER);
        // Facing away, the same unit needs six actions: no threat this activation.
        let away = [piece(red, "U12", Facing::N), far_blue];
        assert_eq!(loss(&away), 0.0);
    }

    #[test]
    fn the_evaluation_passes_over_far_units_without_changing_a_score() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        let mut threatened = 0;
        for seed in 0..20 {
            let mut game = sample_game(seed);
            let maps = Maps::new(&game);
            let mut out = Vec::new();
            while !game.is_over() {
                for p in 0..game.players().len() {
                    let to_move = PlayerId(p as u16);
                    scores(&game, &maps, to_move, &mut out);
                    let expected = reference_scores(&game, &maps, to_move);
                    assert_eq!(out, expected, "turn {}, to move {p}", game.turn());
                    checked += 1;
                }
                if expected_risk(&game) {
                    threatened += 1;
                }
                let command = next_command(&game, &maps, &mut rng);
                game.apply(command).expect("a legal command applies");
            }
        }
        assert!(checked > 5000, "enough positions compared: {checked}");
        assert!(threatened > 100, "units came within reach: {threatened}");
    }

    #[test]
    fn the_frozen_evaluation_of_an_activation_matches_the_full_one() {
        use rand::SeedableRng;
        use sandtable_cache::Event;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        let mut compared = 0;
        let mut at_risk = 0;
        for seed in 0..20 {
            let mut game = sample_game(seed);
            let maps = Maps::new(&game);
            let mut full = Vec::new();
            let mut frozen: Option<(Frozen, PlayerId)> = None;
            let mut pure = false;
            for _ in 0..1500 {
                if game.is_over() {
                    break;
                }
                if frozen.is_none()
                    && let Some(a) = game.activation()
                {
                    let to_move = following(&game, game.current_player());
                    frozen = Some((Frozen::new(&game, &maps, to_move, a.unit), to_move));
                    pure = true;
                }
                if let Some((f, to_move)) = frozen.as_mut()
                    && pure
                {
                    scores(&game, &maps, *to_move, &mut full);
                    for (p, expected) in full.iter().enumerate() {
                        let got = f.score(&game, &maps, PlayerId(p as u16));
                        assert!(
                            (got - expected).abs() < 1e-3,
                            "turn {}, player {p}: frozen {got}, full {expected}",
                            game.turn(),
                        );
                        compared += 1;
                    }
                    if expected_risk(&game) {
                        at_risk += 1;
                    }
                }
                let command = next_command(&game, &maps, &mut rng);
                let events = game.apply(command).expect("a legal command applies");
                pure &= events.iter().all(|e| {
                    matches!(
                        e,
                        Event::Activated { .. } | Event::Turned { .. } | Event::Moved { .. }
                    )
                });
                if game.activation().is_none() {
                    frozen = None;
                }
            }
        }
        assert!(compared > 5000, "enough positions compared: {compared}");
        assert!(at_risk > 100, "positions with something at risk: {at_risk}");
    }

    /// Sample game `seed`: Conflict at Cache on even seeds, The Snyder
    /// Skirmish on odd ones.
    pub(crate) fn sample_game(seed: u64) -> Game {
        let setup = if seed.is_multiple_of(2) {
            sandtable_cache::samples::table_a_skirmish(seed, Some(60))
        } else {
            sandtable_cache::samples::table_a_snyder(seed, Some(60))
        };
        Game::new(&setup).expect("sample setup is valid")
    }

    /// Mostly the playout policy's best command, so that units close in on
    /// each other; sometimes any legal command.
    pub(crate) fn next_command(
        game: &Game,
        maps: &Maps,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Command {
        use rand::Rng;
        let legal = game.legal_commands();
        let pick = if rng.random_bool(0.7) {
            legal
                .iter()
                .max_by(|a, b| quick_score(game, maps, a).total_cmp(&quick_score(game, maps, b)))
                .expect("a game not over has a legal command")
        } else {
            &legal[rng.random_range(0..legal.len())]
        };
        pick.command
    }

    /// Whether some unit can be captured within one activation.
    fn expected_risk(game: &Game) -> bool {
        let on_board: Vec<(PlayerId, Square, Facing)> = (0..game.units().len())
            .filter_map(|i| {
                let (sq, f) = game.position(UnitId(i as u16))?;
                Some((game.units()[i].player, sq, f))
            })
            .collect();
        on_board.iter().any(|a| {
            on_board
                .iter()
                .any(|e| e.0 != a.0 && reach_cost(e.1, e.2, a.1) <= REACH)
        })
    }

    #[test]
    fn distance_maps_follow_terrain_costs() {
        let game = Game::new(&sandtable_cache::samples::table_a_skirmish(1, None))
            .expect("sample setup is valid");
        let maps = Maps::new(&game);
        // Red's target is Blue's Base on U8; Blue's is Red's on D8.
        assert_eq!(maps.distance(PlayerId(0), sq("T8")), 1, "next to the base");
        assert_eq!(maps.distance(PlayerId(1), sq("E8")), 1, "next to the base");
        assert!(
            maps.distance(PlayerId(0), sq("C8")) > maps.distance(PlayerId(0), sq("P8")),
            "farther from the enemy base is farther"
        );
    }
}
