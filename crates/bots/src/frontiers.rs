//! Bots for Frontiers, on the open table.
//!
//! - **What a position is worth** ([`balance`], in AP): the AP each side
//!   has destroyed (R145), plus half of what each side threatens now: each
//!   standing unit's best shot, worth the AP it is expected to destroy
//!   (the attack's odds from the rules' own numbers, R123-R129, R142: a
//!   step on a unit with a damaged side half its AP, a step on a vehicle
//!   a quarter), the best shots of as many units as the side has
//!   numbered markers (R106) counted. Cover counts through those odds: a
//!   unit behind a light structure or in vegetation is harder to hit.
//!   A unit with no shot at all loses a little for each LNS between it
//!   and the nearest enemy, and a scenario's goals count (crates banked,
//!   the diskette carried, objectives held: R147, R148).
//! - **Candidates** ([`candidates`]): each listed family of the rules
//!   crate, members of each move drawn over the unit's reach
//!   (`GameState::sample_into`), and points worth trying: toward the
//!   nearest enemy, into the nearest vegetation, behind the light
//!   structures between it and the enemy, toward a crate or the diskette.
//! - **Greedy** ([`greedy`]): a shot, a grenade or a charge is worth the
//!   AP it is expected to destroy, any other action what it changes in
//!   the position's worth; the best is played. Its orders give the
//!   numbered markers to the units with the best shots, the best first,
//!   and the decoys to the rest (R107); an active unit names Shoot when it
//!   has a shot worth taking, else Move (R110). Cards are played where
//!   they help: reinforce in the Order phase, aim at its own shot, jam at
//!   the enemy's, cover on a hit, sprint on a move, rally an unmarked
//!   unit with a shot, resupply in the Preparation; the cards it never
//!   plays are discarded (R105, R152).
//! - **Mcts** ([`mcts`]): the shared search, its lines the greedy's
//!   candidates best first (progressive widening), at the orders other
//!   orders made from the greedy's, its playouts short and valued by
//!   [`worth`].
//!
//! Every bot decides on a copy redealt from its seat's view (R149): it
//! never reads the other hand, the marker numbers, the deck or a crate's
//! contents.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::game::{GameState, Legal, Seat, Spot};
use sandtable_frontiers::army::Slot;
use sandtable_frontiers::attack::{attack_odds, sniper_odds};
use sandtable_frontiers::command::{Kind, Part};
use sandtable_frontiers::crates::CrateState;
use sandtable_frontiers::data::{Ability, Back, CARDS, Missile, Window};
use sandtable_frontiers::event::Struck;
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::game::{GRENADE_BONUS, Shot};
use sandtable_frontiers::geometry::{Pt, gap};
use sandtable_frontiers::orders;
use sandtable_frontiers::setup::{TerrainKind, Victory, point_in};
use sandtable_frontiers::templates::{LARGE_MM, SMALL_MM};
use sandtable_frontiers::unit::Unit;
use sandtable_frontiers::{Command, Game};

use crate::search::{Judge, Sight, less_time, result_for, search_seeing};
use crate::{Budget, mix};

/// A hash of what `seat` may know of `game` (R149): the game's state as
/// that seat's player reads it (`text::json`), so that two games that
/// differ only in what `seat` may not see hash alike. The bots seed their
/// own choices with it: a choice never turns on a secret, not even by
/// way of a random draw.
pub fn view_hash(game: &Game, seat: Seat) -> u64 {
    let side = u8::try_from(seat.index().min(1)).unwrap_or(0);
    let view = sandtable_frontiers::text::json(game, Some(side));
    // The state hash's own mixer, stable across runs and builds.
    let mut h = sandtable_core::hash::Mix::new();
    for chunk in view.as_bytes().chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h.u64(u64::from_le_bytes(word));
    }
    h.u64(view.len() as u64);
    h.finish()
}

/// Members drawn of each move family besides its listed command and the
/// points worth trying.
pub const DRAWN: usize = 4;
/// Copies a command that rolls at once (a window's grenade, a smoke
/// bomb, a crate opened) is weighed over.
pub const ROLLS: u64 = 3;
/// The share of what each side threatens that a position counts.
pub const THREAT: f32 = 0.5;
/// What a step on a unit whose back is its damaged side is worth, of
/// its AP (R124: it flips, a second step destroys it).
const FLIP: f32 = 0.5;
/// What a step on a vehicle is worth, of its AP (R125: a location hit,
/// a second hit on it destroys it).
const VEHICLE_STEP: f32 = 0.25;
/// A drop lands on its aim one time in six (R129): its template's worth
/// is counted at this share.
const DROP_SHARE: f32 = 0.4;
/// AP a unit without a shot loses for each LNS to the nearest enemy.
const APPROACH: f32 = 0.15;
/// AP a goal (a lying crate, the diskette, the teleprinter for its
/// carrier, an objective for the attacker) is worth less for each LNS
/// between it and the nearest unit that could take it.
const GOAL_PULL: f32 = 1.0;
/// AP a crate banked (R148), carried, or the diskette carried (R147) is
/// worth.
const GOAL_AP: f32 = 60.0;
/// What a marker on a unit that shoots in the Reserve anyway is worth,
/// of its shot (R112).
const RESERVE_SHARE: f32 = 0.3;
/// The least expected AP for which an active unit names Shoot (R110).
const SHOOT_MIN: f32 = 1.0;

fn side_of(seat: Seat) -> u8 {
    u8::try_from(seat.index().min(1)).unwrap_or(0)
}

/// Whether a unit stands on the table: alive, deployed, not aboard.
fn standing(u: &Unit) -> bool {
    u.alive && !u.waiting && u.aboard.is_none()
}

/// The AP unit `u` is expected to lose to an attack with these chances of
/// a step and of a double (R124, R125).
fn loss(u: &Unit, step: f32, double: f32) -> f32 {
    let step_worth = if u.vehicle() {
        VEHICLE_STEP
    } else if u.data.back() == Back::Damaged && !u.back {
        FLIP
    } else {
        1.0
    };
    f32::from(u.data.ap) * (double + step * step_worth).min(1.0)
}

fn in_crater(game: &Game, u: &Unit) -> bool {
    !u.vehicle()
        && game
            .setup()
            .terrain
            .iter()
            .any(|t| t.kind == TerrainKind::Crater && point_in(u.at, &t.corners))
}

/// The AP unit `t` is expected to lose to an attack of this bonus and
/// these modifiers (R123).
fn attack_loss(game: &Game, t: usize, bonus: i8, modifiers: i8) -> f32 {
    let u = &game.units()[t];
    let [_, step, double] = attack_odds(bonus, modifiers, u.defense(), in_crater(game, u));
    loss(u, f32::from(step) / 6.0, f32::from(double) / 6.0)
}

/// The AP a template at `at` is expected to destroy of the side other
/// than `side`, less what it destroys of `side`'s own (R126): `bonus`
/// gives the attack's bonus at each unit struck.
fn template_take(
    game: &Game,
    side: u8,
    at: Pt,
    diameter: u16,
    bonus: impl Fn(usize) -> Option<i8>,
) -> f32 {
    game.template_targets(at, diameter)
        .into_iter()
        .filter_map(|s| match s {
            Struck::Unit(k) => {
                let b = bonus(k)?;
                let l = attack_loss(game, k, b, 0);
                Some(if game.units()[k].side == side { -l } else { l })
            }
            Struck::Element(_) => None,
        })
        .sum()
}

/// What a bot needs of a shot's plan (`Game::plan_shot`): its
/// modifiers' sum, a sniper's penalties, a template's diameter.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Plan {
    Direct(i8),
    Sniper(u8),
    Template(u16),
    Drop,
}

/// The plans of shots already worked out on this thread (lines of sight
/// are most of a bot's time), by what they depend on: a plan is a
/// function of the table, what the plan reads of the shooter and the
/// target, and their surroundings: where the units and clouds near the
/// lines between them stand and how (alive, aboard, inside, a carcass),
/// and the elements' steps (`Game::sight_key`). A move keeps every plan
/// whose lines it does not come near.
struct Plans {
    /// A copy of a game on the table the plans are of: holding it keeps
    /// that table from being freed and another built in its place.
    anchor: Option<Game>,
    map: HashMap<(u64, u64, u64, u8), Option<Plan>>,
    /// Whole tables of shots ([`Shots::of`]) by [`position_key`]: a
    /// decision that changed nothing they read (a pass, a card named)
    /// finds the last one's.
    shots: HashMap<u64, Shots>,
}

/// Tables of shots kept at most; past it they start again.
const SHOTS_KEPT: usize = 64;

/// Plans kept at most; past it the cache starts again.
const PLANS_KEPT: usize = 1 << 16;

thread_local! {
    static PLANS: RefCell<Plans> = RefCell::new(Plans {
        anchor: None,
        map: HashMap::new(),
        shots: HashMap::new(),
    });
}

/// Forgets the plans this thread keeps: a decision measured after it
/// starts as the first of a game does.
pub fn forget_plans() {
    PLANS.with_borrow_mut(|plans| {
        plans.anchor = None;
        plans.map.clear();
        plans.shots.clear();
    });
}

/// Hashes where unit `u` stands and how (see [`Plans`]): its data by
/// address.
fn hash_place(u: &Unit, h: &mut DefaultHasher) {
    (
        u.tag,
        std::ptr::from_ref(u.data) as usize,
        u.at,
        u.facing,
        u.alive,
        u.carcass,
        u.inside,
        u.aboard,
        u.waiting,
        u.transformed,
    )
        .hash(h);
}

/// The key of all a table of shots reads ([`Shots::of`]): each unit's
/// [`unit_key`] (whether it waits to deploy among it), the clouds, the
/// elements' steps and the turn.
fn position_key(game: &Game) -> u64 {
    let mut h = DefaultHasher::new();
    for u in game.units() {
        unit_key(u).hash(&mut h);
    }
    game.element_steps().hash(&mut h);
    game.clouds().hash(&mut h);
    game.turn_number().hash(&mut h);
    h.finish()
}

/// The key of the state of a shooter or a target that its plans read:
/// where it stands ([`hash_place`]) and every other field but those the
/// rules' shot plan never reads (whether it acted or readied, its hurts
/// and falls, its hand-off), each named so that a new field is not
/// forgotten.
fn unit_key(u: &Unit) -> u64 {
    let Unit {
        tag: _,
        data: _,
        side,
        at: _,
        facing: _,
        back,
        alive: _,
        carcass: _,
        acted: _,
        hits,
        inside: _,
        hurt: _,
        fell: _,
        aboard: _,
        boost,
        waiting: _,
        gear,
        handed: _,
        readied: _,
        transformed: _,
    } = u;
    let mut h = DefaultHasher::new();
    hash_place(u, &mut h);
    (side, back, hits, boost, gear).hash(&mut h);
    h.finish()
}

/// Unit `i`'s plan of a shot with weapon `w` at unit `t`, from the cache
/// where it was worked out before with the same shooter, target and
/// surroundings (see [`Plans`]).
fn plan(game: &Game, i: usize, t: usize, w: u8) -> Option<Plan> {
    let units = game.units();
    // What else the lines between the two depend on: the units and clouds
    // near them, the elements' steps (the rules' own account).
    let mut near = DefaultHasher::new();
    game.sight_key(i, t, &mut near);
    let key = (near.finish(), unit_key(&units[i]), unit_key(&units[t]), w);
    let known = PLANS.with_borrow_mut(|plans| {
        if plans
            .anchor
            .as_ref()
            .is_none_or(|a| !std::ptr::eq(a.setup(), game.setup()))
            || plans.map.len() >= PLANS_KEPT
        {
            plans.anchor = Some(game.clone());
            plans.map.clear();
            plans.shots.clear();
        }
        plans.map.get(&key).copied()
    });
    if let Some(known) = known {
        return known;
    }
    let made = fresh_plan(game, i, t, w);
    PLANS.with_borrow_mut(|plans| plans.map.insert(key, made));
    made
}

/// Unit `i`'s plan of a shot with weapon `w` at unit `t`, as the rules
/// work it out.
fn fresh_plan(game: &Game, i: usize, t: usize, w: u8) -> Option<Plan> {
    game.plan_shot(i, t, w).ok().map(|shot| match shot {
        Shot::Direct(aim) => Plan::Direct(aim.total()),
        Shot::Sniper(aim) => Plan::Sniper(aim.sniper_penalties),
        Shot::Template { diameter } => Plan::Template(diameter),
        Shot::Drop => Plan::Drop,
    })
}

/// The AP unit `i`'s shot with weapon `w` at unit `t` is expected to
/// destroy (of the enemy, less of its own side under a template), or
/// `None` where it may not shoot so (R120-R129, R142). Cards are not
/// counted.
pub fn shot_take(game: &Game, i: usize, t: usize, w: u8) -> Option<f32> {
    take_at(game, i, t, w)
}

/// [`shot_take`] with the key of where the units stand worked out once.
fn take_at(game: &Game, i: usize, t: usize, w: u8) -> Option<f32> {
    let units = game.units();
    let s = &units[i];
    let bonus = |k: usize| s.bonus(usize::from(w), units[k].armor());
    Some(match plan(game, i, t, w)? {
        Plan::Direct(total) => attack_loss(game, t, bonus(t)?, total),
        Plan::Sniper(penalties) => {
            let u = &units[t];
            let [_, step, _] = sniper_odds(u.defense(), penalties);
            loss(u, f32::from(step) / 6.0, 0.0)
        }
        Plan::Template(diameter) => template_take(game, s.side, units[t].at, diameter, bonus),
        Plan::Drop => DROP_SHARE * template_take(game, s.side, units[t].at, LARGE_MM, bonus),
    })
}

/// Unit `i`'s best shot now, with weapon `only` where its marker names
/// one: its expected AP and the shot; 0 and `None` where it has none.
pub fn best_shot(game: &Game, i: usize, only: Option<u8>) -> (f32, Option<Command>) {
    let units = game.units();
    let s = &units[i];
    let mut best = (0.0, None);
    if !standing(s) {
        return best;
    }
    let weapons = u8::try_from(s.data.weapons.len().max(1)).unwrap_or(1);
    for (t, e) in units.iter().enumerate() {
        if !standing(e) || e.side == s.side {
            continue;
        }
        for w in (0..weapons).filter(|w| only.is_none_or(|o| o == *w)) {
            if let Some(v) = take_at(game, i, t, w)
                && v > best.0
            {
                best = (
                    v,
                    Some(Command::Shoot {
                        unit: s.tag,
                        target: e.tag,
                        weapon: w,
                    }),
                );
            }
        }
    }
    best
}

/// The least gap, in LNS, between unit `i` and a standing enemy.
fn nearest_enemy(game: &Game, i: usize) -> Option<(f64, usize)> {
    let units = game.units();
    let u = &units[i];
    let lns = f64::from(game.setup().switches.lns_mm);
    units
        .iter()
        .enumerate()
        .filter(|(_, e)| standing(e) && e.side != u.side)
        .map(|(t, e)| (gap(&u.shape(), &e.shape()) / lns, t))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}

/// Each unit's best shot at each enemy, in AP ([`shot_take`] over its
/// weapons; 0 where it has none): what a position's worth is made of,
/// kept so that a move is weighed by working out again only the shots
/// from and at the units it moved. A shot is worked out only where it
/// may matter: each pair's [`pair_bound`] is known at once, and a shot
/// whose bound is no more than a best already found is left; every best
/// is that of the whole table.
#[derive(Debug, Clone)]
pub struct Shots {
    n: usize,
    /// Each pair's bound, shooter by target.
    bound: Vec<f32>,
    /// Each pair's shot, shooter by target; NaN until worked out.
    take: Vec<Cell<f32>>,
    /// Each unit's best shot and its target, once worked out.
    best: Vec<Cell<Option<(f32, usize)>>>,
    /// The best shot at each unit, once worked out.
    worst: Vec<Cell<Option<f32>>>,
}

/// No target: a best of 0.
const NO_TARGET: usize = usize::MAX;

impl Shots {
    /// Every shot of `game`, from the last tables where one was worked
    /// out at the same [`position_key`].
    pub fn of(game: &Game) -> Shots {
        Shots::of_by(game, None).expect("no deadline")
    }

    /// [`Shots::of`], given up (`None`) where `deadline` passes before the
    /// table is worked out: a search out of time does not wait for it.
    fn of_by(game: &Game, deadline: Option<std::time::Instant>) -> Option<Shots> {
        let key = position_key(game);
        let known = PLANS.with_borrow(|plans| {
            plans
                .anchor
                .as_ref()
                .is_some_and(|a| std::ptr::eq(a.setup(), game.setup()))
                .then(|| plans.shots.get(&key).cloned())
                .flatten()
        });
        if let Some(known) = known {
            return Some(known);
        }
        let made = Shots::fresh(game, deadline)?;
        PLANS.with_borrow_mut(|plans| {
            // Kept only on the table the plans are of (the anchor): a
            // table's address is not reused while it is held.
            if plans
                .anchor
                .as_ref()
                .is_some_and(|a| std::ptr::eq(a.setup(), game.setup()))
            {
                if plans.shots.len() >= SHOTS_KEPT {
                    plans.shots.clear();
                }
                plans.shots.insert(key, made.clone());
            }
        });
        Some(made)
    }

    /// Every unit's best shot in `game`, worked out; `None` where
    /// `deadline` passes first (the clock read at each shooter).
    fn fresh(game: &Game, deadline: Option<std::time::Instant>) -> Option<Shots> {
        let n = game.units().len();
        let mut bound = vec![0.0; n * n];
        for i in 0..n {
            for t in 0..n {
                bound[i * n + t] = pair_bound(game, i, t);
            }
        }
        let shots = Shots {
            n,
            bound,
            take: vec![Cell::new(f32::NAN); n * n],
            best: vec![Cell::new(None); n],
            worst: vec![Cell::new(None); n],
        };
        for i in 0..n {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return None;
            }
            shots.best_of(game, i);
        }
        // The best shot at each unit too: a table kept and looked up
        // again is a copy, which would work them out again each time.
        for i in 0..n {
            if deadline.is_some_and(|d| std::time::Instant::now() >= d) {
                return None;
            }
            shots.worst_at(game, i);
        }
        Some(shots)
    }

    /// Unit `i`'s shot at unit `t` in `game` (the table's), worked out
    /// once.
    fn take(&self, game: &Game, i: usize, t: usize) -> f32 {
        let cell = &self.take[i * self.n + t];
        if cell.get().is_nan() {
            cell.set(pair_take(game, i, t));
        }
        cell.get()
    }

    /// The best of the shots `pairs` gives, each a pair's index into the
    /// table: those of the highest bound first, until no bound is above
    /// the best found; its value and its pair.
    fn best_among(&self, game: &Game, pairs: impl Iterator<Item = usize>) -> (f32, usize) {
        best_by_bound(pairs.map(|p| (self.bound[p], p)), |p| {
            self.take(game, p / self.n, p % self.n)
        })
    }

    /// Unit `i`'s best shot in `game` (the table's) and its target.
    fn best_of(&self, game: &Game, i: usize) -> (f32, usize) {
        if let Some(known) = self.best[i].get() {
            return known;
        }
        let (v, p) = self.best_among(game, (0..self.n).map(|t| i * self.n + t));
        let found = (v, if p == NO_TARGET { p } else { p % self.n });
        self.best[i].set(Some(found));
        found
    }

    /// Each unit's best shot ([`Shots::best`]), by index.
    fn bests(&self, game: &Game) -> Vec<f32> {
        (0..self.n).map(|i| self.best(game, i)).collect()
    }

    /// Each unit's best shot in `after`, from these shots of `before`:
    /// the shots from and at each unit that changed worked out again, the
    /// rest kept, or all worked out again where more than three changed
    /// or a cloud came or went: then `None` where `deadline` passes
    /// before that table is worked out.
    fn bests_after(
        &self,
        before: &Game,
        after: &Game,
        deadline: Option<std::time::Instant>,
    ) -> Option<Vec<f32>> {
        let n = self.n;
        let changed: Vec<usize> = (0..n)
            .filter(|k| before.units()[*k] != after.units()[*k])
            .collect();
        if changed.len() > 3 || before.clouds() != after.clouds() {
            return Shots::of_by(after, deadline).map(|shots| shots.bests(after));
        }
        let bests = (0..n)
            .map(|k| {
                if changed.contains(&k) {
                    // Its row afresh.
                    best_by_bound((0..n).map(|t| (pair_bound(after, k, t), t)), |t| {
                        pair_take(after, k, t)
                    })
                    .0
                } else {
                    // Its row kept but for the changed targets: its best
                    // where that is at none of them.
                    let (kept, at) = self.best_of(before, k);
                    let mut best = if at == NO_TARGET || !changed.contains(&at) {
                        kept
                    } else {
                        self.best_among(
                            before,
                            (0..n).filter(|t| !changed.contains(t)).map(|t| k * n + t),
                        )
                        .0
                    };
                    for &c in &changed {
                        if pair_bound(after, k, c) > best {
                            best = best.max(pair_take(after, k, c));
                        }
                    }
                    best
                }
            })
            .collect();
        Some(bests)
    }

    /// Unit `i`'s best shot in `game` (the table's).
    fn best(&self, game: &Game, i: usize) -> f32 {
        self.best_of(game, i).0
    }

    /// The best shot at unit `i` in `game` (the table's).
    fn worst_at(&self, game: &Game, i: usize) -> f32 {
        if let Some(known) = self.worst[i].get() {
            return known;
        }
        let found = self.best_among(game, (0..self.n).map(|e| e * self.n + i)).0;
        self.worst[i].set(Some(found));
        found
    }
}

/// The best of `shots`, each its bound and what works it out (`take`):
/// the highest bounds tried first, until no bound is above the best found
/// (a shot no more than its bound cannot beat it); the best and its key,
/// 0 and [`NO_TARGET`] where none is above 0.
fn best_by_bound(
    shots: impl Iterator<Item = (f32, usize)>,
    mut take: impl FnMut(usize) -> f32,
) -> (f32, usize) {
    let mut order: Vec<(f32, usize)> = shots.filter(|(b, _)| *b > 0.0).collect();
    order.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = (0.0_f32, NO_TARGET);
    for (bound, key) in order {
        if bound <= best.0 {
            break;
        }
        let v = take(key);
        if v > best.0 {
            best = (v, key);
        }
    }
    best
}

/// Unit `i`'s best shot at unit `t`, over its weapons: 0 where either
/// does not stand, they are friends, or it has none.
fn pair_take(game: &Game, i: usize, t: usize) -> f32 {
    let units = game.units();
    let (s, e) = (&units[i], &units[t]);
    if !standing(s) || !standing(e) || s.side == e.side {
        return 0.0;
    }
    let weapons = u8::try_from(s.data.weapons.len().max(1)).unwrap_or(1);
    (0..weapons)
        .filter_map(|w| take_at(game, i, t, w))
        .fold(0.0, f32::max)
}

/// A bound above unit `i`'s best shot at unit `t` ([`pair_take`]), found
/// without a line of sight: every modifier a shot's plan sums is a
/// penalty (R122; cards are not counted) and a sniper's penalties only
/// raise the roll it needs (R142), so the odds at none are the best. A
/// template's worth follows no line, and a unit that may lay one
/// (indirect fire, a blue missile: R126, R128) has no bound (infinity).
fn pair_bound(game: &Game, i: usize, t: usize) -> f32 {
    let units = game.units();
    let (s, e) = (&units[i], &units[t]);
    if !standing(s) || !standing(e) || s.side == e.side {
        return 0.0;
    }
    if s.data.has(Ability::Indirect)
        || s.data
            .weapons
            .iter()
            .any(|w| w.missile == Some(Missile::Blue))
    {
        return f32::INFINITY;
    }
    if s.data.weapons.is_empty() {
        let [_, step, _] = sniper_odds(e.defense(), 0);
        return loss(e, f32::from(step) / 6.0, 0.0);
    }
    (0..s.data.weapons.len())
        .filter_map(|w| s.bonus(w, e.armor()))
        .map(|b| attack_loss(game, t, b, 0))
        .fold(0.0, f32::max)
}

/// What `side` threatens and where it stands, in AP: the best shots of
/// as many of its units as it has numbered markers (R106) and of every
/// unit that shoots in the Reserve (R112), at [`THREAT`], less [`APPROACH`] for each LNS between a unit with no
/// shot and the nearest enemy, plus its goals.
pub fn standing_worth(game: &Game, bests: &[f32], side: u8) -> f32 {
    let units = game.units();
    let mut best: Vec<f32> = Vec::new();
    let mut reserve = 0.0;
    let mut far = 0.0;
    for (i, u) in units.iter().enumerate() {
        if !standing(u) || u.side != side {
            continue;
        }
        let v = bests[i];
        if v > 0.0 && u.data.has(Ability::ReserveShoot) {
            // It shoots in the Reserve without a marker (R112).
            reserve += v;
        } else if v > 0.0 {
            best.push(v);
        } else if let Some((d, _)) = nearest_enemy(game, i) {
            far += d as f32;
        }
    }
    best.sort_by(|a, b| b.total_cmp(a));
    let m = usize::from(game.markers_owed(side)).max(1);
    let threat: f32 = reserve + best.iter().take(m).sum::<f32>();
    THREAT * threat - APPROACH * far + goals(game, side)
}

/// The distance between two points, in mm.
fn mm(a: Pt, b: Pt) -> f32 {
    f64::from(a.x - b.x).hypot(f64::from(a.y - b.y)) as f32
}

/// The distance from `p` to the nearest centre of a standing unit of
/// `side` that `may` accepts, less `reach(u)`, in mm.
fn nearest_to(
    game: &Game,
    side: u8,
    p: Pt,
    may: impl Fn(&Unit) -> bool,
    reach: impl Fn(&Unit) -> f32,
) -> Option<f32> {
    game.units()
        .iter()
        .filter(|u| standing(u) && u.side == side && may(u))
        .map(|u| (mm(u.at, p) - reach(u)).max(0.0))
        .min_by(f32::total_cmp)
}

/// What `side` holds of its scenario's goals, in AP (R147, R148).
fn goals(game: &Game, side: u8) -> f32 {
    let setup = game.setup();
    let units = game.units();
    let lns = f32::from(setup.switches.lns_mm);
    let mut v = 0.0;
    match setup.victory {
        Victory::TreasureHunt => {
            v += GOAL_AP * f32::from(game.banked()[usize::from(side)]);
            // A crate carried is half banked; a lying one draws the
            // nearest unit.
            for u in units.iter().filter(|u| u.alive && u.side == side) {
                if u.gear.is_some() {
                    v += GOAL_AP / 2.0;
                }
            }
            for c in game
                .crates()
                .iter()
                .filter(|c| c.state == CrateState::Lying)
            {
                if let Some(d) = nearest_to(game, side, c.at, |u| !u.vehicle(), |_| 0.0) {
                    v -= GOAL_PULL * d / lns;
                }
            }
        }
        Victory::DataRecovery => {
            if let Some(disk) = game.diskette() {
                match disk.carrier {
                    Some(c) if units[usize::from(c)].side == side => {
                        let u = &units[usize::from(c)];
                        v += GOAL_AP;
                        if u.inside.is_some() && u.inside == setup.teleprinter {
                            v += GOAL_AP;
                        } else if let Some(t) = teleprinter(game) {
                            v -= GOAL_PULL * mm(u.at, t) / lns;
                        }
                    }
                    Some(_) => {}
                    None => {
                        if let Some(d) = nearest_to(game, side, disk.at, |u| !u.vehicle(), |_| 0.0)
                        {
                            v -= GOAL_PULL * d / lns;
                        }
                    }
                }
            }
        }
        Victory::AttackDefense if setup.attacker == side => {
            // Each objective held is half the goal; else the nearest
            // unit's distance counts (R148).
            for o in &setup.objectives {
                // Over its centre: within the base's half width of it.
                let near = nearest_to(
                    game,
                    side,
                    *o,
                    |u| u.inside.is_none(),
                    |u| f32::from(u.data.base.size_mm().1) / 2.0,
                );
                match near {
                    Some(d) if d <= 0.0 => v += GOAL_AP / 2.0,
                    Some(d) => v -= GOAL_PULL * d / lns,
                    None => {}
                }
            }
            if game.objectives_held() {
                v += GOAL_AP;
            }
        }
        _ => {}
    }
    v
}

/// Where Data recovery's teleprinter stands: its space's point (R147).
fn teleprinter(game: &Game) -> Option<Pt> {
    let (e, k) = game.setup().teleprinter?;
    game.setup()
        .elements
        .get(usize::from(e))?
        .spaces
        .get(usize::from(k))
        .copied()
}

/// The worth of a position to `side` in AP: the balance of AP destroyed
/// (R145) and of what each side threatens and holds.
pub fn balance(game: &Game, side: u8) -> f32 {
    balance_with(game, &Shots::of(game).bests(game), side)
}

/// [`balance`] with each unit's best shot worked out ([`Shots::bests`]).
fn balance_with(game: &Game, bests: &[f32], side: u8) -> f32 {
    let ap = game.ap_destroyed();
    let (me, them) = (usize::from(side), usize::from(1 - side));
    f32::from(ap[me]) - f32::from(ap[them]) + standing_worth(game, bests, side)
        - standing_worth(game, bests, 1 - side)
}

/// The worth of a position to `seat`, 0 to 1: a finished game's result,
/// else one half plus half its [`balance`] over the larger army's AP.
pub fn worth(game: &Game, seat: Seat) -> f32 {
    if let Some(r) = result_for(game, seat) {
        return r;
    }
    (0.5 + 0.5 * balance(game, side_of(seat)) / scale(game)).clamp(0.0, 1.0)
}

/// Points worth trying for unit `i`: toward the nearest enemy, into each
/// vegetation and behind each light structure within its reach (the
/// side away from the enemy), and toward the crates and the diskette.
fn wanted_points(game: &Game, i: usize) -> Vec<Pt> {
    let units = game.units();
    let u = &units[i];
    let setup = game.setup();
    let reach = f64::from(u.movement()) * f64::from(setup.switches.lns_mm);
    let mut out = Vec::new();
    let enemy = nearest_enemy(game, i).map(|(_, t)| units[t].at);
    if let Some(e) = enemy {
        out.push(e);
    }
    let near = |p: Pt| f64::from(mm(p, u.at)) <= reach + 60.0;
    for t in &setup.terrain {
        let n = t.corners.len().max(1) as i32;
        let c = Pt::new(
            t.corners.iter().map(|p| p.x).sum::<i32>() / n,
            t.corners.iter().map(|p| p.y).sum::<i32>() / n,
        );
        if !near(c) {
            continue;
        }
        match t.kind {
            TerrainKind::Vegetation | TerrainKind::Crater => out.push(c),
            TerrainKind::LightStructure => {
                // Behind it: past its centre, away from the enemy.
                if let Some(e) = enemy {
                    let (dx, dy) = (f64::from(c.x - e.x), f64::from(c.y - e.y));
                    let d = dx.hypot(dy).max(1.0);
                    let r = f64::from(u.data.base.size_mm().1) / 2.0 + 8.0;
                    out.push(Pt::new(
                        c.x + (dx / d * r).round() as i32,
                        c.y + (dy / d * r).round() as i32,
                    ));
                }
            }
            _ => {}
        }
    }
    for c in game.crates() {
        if c.state == CrateState::Lying {
            out.push(c.at);
        }
    }
    if setup.victory == Victory::AttackDefense && setup.attacker == u.side {
        out.extend(setup.objectives.iter().copied());
    }
    if let Some(d) = game.diskette() {
        match d.carrier {
            None => out.push(d.at),
            // The carrier heads for the teleprinter's space (R147).
            Some(c) if usize::from(c) == i => out.extend(teleprinter(game)),
            Some(_) => {}
        }
    }
    out
}

fn spot(p: Pt) -> Option<Spot> {
    Some(Spot::Point {
        x_mm: i16::try_from(p.x).ok()?,
        y_mm: i16::try_from(p.y).ok()?,
    })
}

/// The candidates of `seat`: each listed family, [`DRAWN`] members of
/// each move family and of each deployment, a move or a deployment
/// toward each of the unit's [`wanted_points`], and a rapid-fire shot's
/// splits.
pub fn candidates(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<Command> {
    let mut legal: Vec<Legal<Command>> = Vec::new();
    game.legal_into(seat, &mut legal);
    candidates_of(game, seat, &legal, rng)
}

/// [`candidates`] of the listed families `legal`.
fn candidates_of(
    game: &Game,
    seat: Seat,
    legal: &[Legal<Command>],
    rng: &mut ChaCha8Rng,
) -> Vec<Command> {
    let mut out: Vec<Command> = Vec::new();
    let push = |c: Command, out: &mut Vec<Command>| {
        if !out.contains(&c) {
            out.push(c);
        }
    };
    for l in legal {
        push(l.command, &mut out);
        let (drawn, wanted) = match l.command {
            Command::Move { unit, .. } | Command::Deploy { unit, .. } => {
                (DRAWN, game.find(unit).map(|i| wanted_points(game, i)))
            }
            Command::Shoot { .. } => (2, None),
            _ => (0, None),
        };
        let mut members = Vec::new();
        game.sample_into(seat, &l.command, drawn, rng, &mut members);
        for p in wanted.unwrap_or_default() {
            if let Some(c) = spot(p).and_then(|s| game.nearest(seat, &l.command, s)) {
                members.push(c);
            }
        }
        for c in members {
            if game.check(seat, &c).is_ok() {
                push(c, &mut out);
            }
        }
    }
    out
}

/// What `command` is expected to destroy at once, in AP, where it is an
/// attack whose dice roll later (a shot, sealed until its windows close:
/// R111, R132) or at once (a grenade, a charge); `None` for any other.
fn attack_take(game: &Game, command: &Command) -> Option<f32> {
    let units = game.units();
    match *command {
        Command::Shoot {
            unit,
            target,
            weapon,
        } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            Some(shot_take(game, i, t, weapon).unwrap_or(0.0))
        }
        Command::Rapid { unit, parts, n } => {
            let i = game.find(unit)?;
            let parts: &[Part] = &parts[..usize::from(n)];
            let aims = game.check_rapid(i, parts).ok()?;
            Some(
                aims.iter()
                    .zip(parts)
                    .map(|((t, aim), p)| {
                        attack_loss(
                            game,
                            *t,
                            i8::try_from(p.bonus).unwrap_or(i8::MAX),
                            aim.total(),
                        )
                    })
                    .sum(),
            )
        }
        Command::Grenade { unit, target } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            Some(template_take(
                game,
                units[i].side,
                units[t].at,
                SMALL_MM,
                |_| Some(GRENADE_BONUS),
            ))
        }
        Command::Charge { unit, target, .. } => {
            let (i, t) = (game.find(unit)?, game.find(target)?);
            let bonus = units[i].bonus(0, units[t].armor())?;
            Some(attack_loss(game, t, bonus, 0))
        }
        _ => None,
    }
}

/// The worth of `command` to `seat`, in AP: an attack's expected take,
/// plus what it changes in the [`balance`] (the position after a charge's
/// move; the AP destroyed by anything else that rolls at once, over
/// [`ROLLS`] copies); `None` where it is refused, or where `deadline`
/// passes before a table of shots it needs is worked out. `shots` are
/// `game`'s, and `base` its balance.
fn score(
    game: &Game,
    seat: Seat,
    command: &Command,
    (shots, base): (&Shots, f32),
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Option<f32> {
    let side = side_of(seat);
    if matches!(command, Command::Pass { .. }) {
        return Some(0.0);
    }
    let take = attack_take(game, command);
    if let (Some(take), Command::Shoot { .. } | Command::Rapid { .. }) = (take, command) {
        return Some(take);
    }
    let ap = |g: &Game| {
        let ap = g.ap_destroyed();
        f32::from(ap[usize::from(side)]) - f32::from(ap[usize::from(1 - side)])
    };
    let rolls = if take.is_some() { 1 } else { ROLLS };
    let mut sum = 0.0;
    for k in 0..rolls {
        let mut copy = game.clone();
        copy.reseed(mix(seed, k));
        let dice = copy.dice().position();
        let mut events = Vec::new();
        copy.apply_into(seat, command, &mut events).ok()?;
        let after = balance_with(&copy, &shots.bests_after(game, &copy, deadline)?, side);
        // An attack counted by its odds: only the position's change.
        let worth = match take {
            Some(_) => after - ap(&copy) + ap(game),
            None => after,
        };
        sum += worth;
        if copy.dice().position() == dice {
            // No die rolled (a move): every copy ends alike, and is
            // counted as if weighed.
            for _ in k + 1..rolls {
                sum += worth;
            }
            break;
        }
    }
    Some(sum / rolls as f32 - base + take.unwrap_or(0.0))
}

/// What a card is worth kept in hand (R152): the cards the bots play
/// most, most.
fn card_worth(card: u8) -> f32 {
    match CARDS.get(usize::from(card)).map_or("", |c| c.id) {
        "aim" | "cover" => 5.0,
        "jam" | "reinforce" => 4.0,
        "rally" => 3.0,
        "sprint" => 2.0,
        "resupply" => 1.0,
        _ => 0.0,
    }
}

/// A card worth playing now, from the listed commands (R132, R152):
/// reinforce in the Order phase, resupply in the Preparation, rally on
/// the unmarked unit with the best shot worth [`SHOOT_MIN`] that would
/// not shoot in the Reserve, aim at its own shot and jam at the enemy's,
/// cover on its own unit's hit, sprint on its own unit's move.
fn card_to_play(game: &Game, side: u8, legal: &[Legal<Command>]) -> Option<Command> {
    let flow = game.flow();
    let window = flow.window.map(|o| o.kind);
    let units = game.units();
    let mine = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t))
            .is_some_and(|i| units[i].side == side)
    };
    let shooting = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t)).is_some_and(|i| {
            flow.active
                .iter()
                .any(|a| a.unit == i && !a.done && a.kind == Some(Kind::Shoot))
        })
    };
    let moving = |t: Option<sandtable_frontiers::Tag>| {
        t.and_then(|t| game.find(t)).is_some_and(|i| {
            flow.active
                .iter()
                .any(|a| a.unit == i && !a.done && a.kind == Some(Kind::Move))
        })
    };
    // Rally: the unmarked unit with the best shot, where it would not
    // shoot in the Reserve anyway (R112, R133).
    // The position's shots, worked out (or found kept) only where a rally
    // is offered.
    let shots = std::cell::OnceCell::new();
    let rally = legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Card {
                card,
                unit: Some(t),
                ..
            } if window == Some(Window::Step)
                && CARDS
                    .get(usize::from(card))
                    .is_some_and(|c| c.id == "rally") =>
            {
                let i = game.find(t)?;
                let u = &units[i];
                (u.side == side && !u.data.has(Ability::ReserveShoot)).then(|| {
                    (
                        shots.get_or_init(|| Shots::of(game)).best(game, i),
                        l.command,
                    )
                })
            }
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0));
    if let Some((v, c)) = rally
        && v >= SHOOT_MIN
    {
        return Some(c);
    }
    legal.iter().map(|l| l.command).find(|c| {
        let Command::Card { card, unit, .. } = *c else {
            return false;
        };
        match CARDS.get(usize::from(card)).map_or("", |c| c.id) {
            "reinforce" => matches!(flow.phase, Phase::Order),
            "resupply" => matches!(flow.phase, Phase::Prepare(_)),
            "aim" => window == Some(Window::Shot) && mine(unit) && shooting(unit),
            "jam" => window == Some(Window::Shot) && !mine(unit) && shooting(unit),
            "cover" => window == Some(Window::Hit) && mine(unit),
            "sprint" => window == Some(Window::Step) && mine(unit) && moving(unit),
            _ => false,
        }
    })
}

/// The Preparation's discard (R105): the listed set whose cards are
/// worth least kept, each card let go for a draw worth about the deck's
/// middling card.
fn discard(legal: &[Legal<Command>]) -> Option<Command> {
    const DRAW: f32 = 2.5;
    legal
        .iter()
        .filter_map(|l| match l.command {
            Command::Discard { cards, n } => Some((
                cards[..usize::from(n)]
                    .iter()
                    .map(|c| DRAW - card_worth(*c))
                    .sum::<f32>(),
                l.command,
            )),
            _ => None,
        })
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}

/// The orders of `side` (R107): its numbered markers on the places with
/// the best shots (each automatic-order unit's among them), the best
/// first (a vehicle's on the slot of its best
/// weapon, or on L where it has no shot), each automatic-order unit
/// numbered, and its decoys on the places left.
fn orders(game: &Game, side: u8) -> Option<Command> {
    let (numbered, _) = order_places(game, side);
    game.orders_with(side, &numbered)
}

/// Other orders worth weighing against [`orders`]: the first two numbers
/// swapped, the second and third swapped, and the last numbered place
/// (not an automatic-order unit's) given to the best place left.
fn other_orders(game: &Game, side: u8) -> Vec<Command> {
    let (numbered, left) = order_places(game, side);
    let mut out = Vec::new();
    if numbered.len() >= 2 {
        let mut swapped = numbered.clone();
        swapped.swap(0, 1);
        out.extend(game.orders_with(side, &swapped));
    }
    if numbered.len() >= 3 {
        let mut swapped = numbered.clone();
        swapped.swap(1, 2);
        out.extend(game.orders_with(side, &swapped));
    }
    // An automatic-order unit keeps its number (R107).
    let auto = |tag: &sandtable_frontiers::Tag| {
        game.find(*tag)
            .is_some_and(|i| game.units()[i].data.has(Ability::AutomaticOrder))
    };
    let last = numbered.iter().rposition(|(tag, _)| !auto(tag));
    if let (Some(last), Some(next)) = (last, left.first()) {
        let mut other = numbered.clone();
        other[last] = *next;
        out.extend(game.orders_with(side, &other));
    }
    out
}

/// Where a marker lies: a unit and its slot (R107).
type Place = (sandtable_frontiers::Tag, Slot);

/// The places [`orders`] numbers, best first, and the places it may
/// number that it leaves, best first.
fn order_places(game: &Game, side: u8) -> (Vec<Place>, Vec<Place>) {
    let units = game.units();
    let shots = Shots::of(game);
    let mut places: Vec<(f32, f32, usize, Slot)> = Vec::new();
    for (i, u) in units.iter().enumerate() {
        if !u.alive || u.side != side || u.waiting {
            continue;
        }
        let auto = if u.data.has(Ability::AutomaticOrder) {
            1000.0
        } else {
            0.0
        };
        for slot in orders::marker_places(u) {
            let shot = match slot {
                Slot::Weapon(w) => best_shot(game, i, Some(w)).0,
                Slot::Unit => shots.best(game, i),
                Slot::Locomotion => 0.0,
            };
            // A unit that shoots in the Reserve shoots without a marker
            // too (R112): a marker only brings its shot forward.
            let shot = if u.data.has(Ability::ReserveShoot) {
                RESERVE_SHARE * shot
            } else {
                shot
            };
            // A unit without a shot moves first where it is most at risk.
            places.push((auto, shot + 0.01 * shots.worst_at(game, i), i, slot));
        }
    }
    // The automatic-order units' places are taken first, then the best;
    // the numbers go best first.
    places.sort_by(|a, b| (b.0 + b.1).total_cmp(&(a.0 + a.1)));
    let m = usize::from(game.markers_owed(side));
    let mut chosen: Vec<(f32, usize, Slot)> = Vec::new();
    let mut left = Vec::new();
    for (_, worth, i, slot) in places {
        let held = chosen.iter().filter(|c| c.1 == i).count();
        if chosen.len() == m || held >= orders::marker_room(&units[i]) {
            left.push((units[i].tag, slot));
        } else {
            chosen.push((worth, i, slot));
        }
    }
    chosen.sort_by(|a, b| b.0.total_cmp(&a.0));
    let numbered = chosen.iter().map(|c| (units[c.1].tag, c.2)).collect();
    (numbered, left)
}

/// The action an active unit names (R110): Shoot where it has a shot
/// worth [`SHOOT_MIN`], else Move, else what it may.
fn name(game: &Game, side: u8, legal: &[Legal<Command>]) -> Option<Command> {
    let named = |kind: Kind| {
        legal
            .iter()
            .map(|l| l.command)
            .find(|c| matches!(c, Command::Name { kind: k, .. } if *k == kind))
    };
    let a = game
        .flow()
        .active
        .iter()
        .find(|a| a.side == side && a.kind.is_none() && !a.done)?;
    let only = match a.slot {
        Slot::Weapon(w) => Some(w),
        _ => None,
    };
    if best_shot(game, a.unit, only).0 >= SHOOT_MIN
        && let Some(c) = named(Kind::Shoot)
    {
        return Some(c);
    }
    named(Kind::Move)
        .or_else(|| named(Kind::Shoot))
        .or_else(|| named(Kind::Special))
        .or_else(|| legal.first().map(|l| l.command))
}

/// The candidates of `seat` with their worth ([`score`]), best first;
/// ties keep the candidates' order.
pub fn ranked(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Vec<(f32, Command)> {
    ranked_by(game, seat, &listed(game, seat, None), rng, None)
}

/// [`ranked`] of the families `legal` ([`listed`]), its weighing stopped
/// at `deadline` where one is given: the candidates weighed by then,
/// best first.
fn ranked_by(
    game: &Game,
    seat: Seat,
    legal: &[Legal<Command>],
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
) -> Vec<(f32, Command)> {
    let side = side_of(seat);
    let Some(shots) = Shots::of_by(game, deadline) else {
        return Vec::new();
    };
    let base = balance_with(game, &shots.bests(game), side);
    let seed: u64 = rng.random();
    let mut out: Vec<(f32, Command)> = candidates_of(game, seat, legal, rng)
        .into_iter()
        .take_while(|_| deadline.is_none_or(|d| std::time::Instant::now() < d))
        .filter_map(|c| Some((score(game, seat, &c, (&shots, base), seed, deadline)?, c)))
        .collect();
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// What `seat` may do now, as the rules list it; in the Reserve, where
/// every unit of the side acts once in the order its player chooses
/// (R112), only the families of the unit to act first ([`reserve_focus`]).
/// Weighing one unit a decision keeps a Reserve of `n` units to `n`
/// weighings of one unit's candidates, where weighing every unit's each
/// time costs `n` times as much.
fn listed(game: &Game, seat: Seat, deadline: Option<std::time::Instant>) -> Vec<Legal<Command>> {
    let mut legal: Vec<Legal<Command>> = Vec::new();
    match reserve_focus(game, side_of(seat), deadline) {
        Some(i) => game.legal_of_unit(side_of(seat), i, &mut legal),
        None => game.legal_into(seat, &mut legal),
    }
    legal
}

/// In the Reserve, the unit of `side` to act first: the one with the best
/// shot ([`Shots::best`]) among those that may shoot, so that the best
/// shots go first, else the first of the group (the first too where
/// `deadline` passes before the shots are worked out). `None` elsewhere,
/// or where one unit is left to act.
fn reserve_focus(game: &Game, side: u8, deadline: Option<std::time::Instant>) -> Option<usize> {
    let actors = reserve_group(game, side)?;
    let Some(shots) = Shots::of_by(game, deadline) else {
        return Some(actors[0].0);
    };
    actors
        .iter()
        .map(|(i, kinds, _)| {
            let shot = if kinds.contains(&Kind::Shoot) {
                shots.best(game, *i)
            } else {
                0.0
            };
            (*i, shot)
        })
        .fold(None::<(usize, f32)>, |best, (i, v)| match best {
            Some((_, b)) if v <= b => best,
            _ => Some((i, v)),
        })
        .map(|(i, _)| i)
}

/// A unit that may act now, the kinds it may take and the weapon its
/// marker names, as `Game::actors` gives them.
type Actor = (usize, Vec<Kind>, Option<u8>);

/// In a Reserve with no landing or pick owed, the units of `side` that
/// may act now, where they are two or more (R112): each lists a pass, so
/// the list has more than one family. `None` elsewhere.
fn reserve_group(game: &Game, side: u8) -> Option<Vec<Actor>> {
    if !matches!(game.flow().phase, Phase::Reserve(_))
        || game.pending().is_some()
        || !game.picks().is_empty()
    {
        return None;
    }
    let actors = game.actors(side);
    (actors.len() > 1).then_some(actors)
}

/// The greedy bot's command (see the module doc), on a copy redealt from
/// `seat`'s view (R149).
pub fn greedy(game: &Game, seat: Seat, seed: u64) -> Option<Command> {
    greedy_by(game, seat, seed, None)
}

/// [`greedy`], its weighing of an action's candidates stopped at
/// `deadline` where one is given (the best weighed by then, else the
/// listed command).
fn greedy_by(
    game: &Game,
    seat: Seat,
    seed: u64,
    deadline: Option<std::time::Instant>,
) -> Option<Command> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed, view_hash(game, seat)));
    let mut own = game.clone();
    own.redeal(seat, rng.random());
    choose_by(&own, seat, &mut rng, deadline)
}

/// The greedy choice on a copy whose secrets are the bot's own.
fn choose(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Command> {
    choose_by(game, seat, rng, None)
}

/// [`choose`], with [`ranked_by`]'s deadline.
fn choose_by(
    game: &Game,
    seat: Seat,
    rng: &mut ChaCha8Rng,
    deadline: Option<std::time::Instant>,
) -> Option<Command> {
    let side = side_of(seat);
    let legal = listed(game, seat, deadline);
    // One listed command may still be a family of many (the orders, a
    // unit's move or deployment): only a drop's landing or a pick is
    // taken as listed.
    if legal.is_empty() || game.pending().is_some() || !game.picks().is_empty() {
        return legal.first().map(|l| l.command);
    }
    // Under a time budget, the position's shots (which every choice below
    // reads, and keeps) by the deadline, else the listed command.
    if deadline.is_some() && Shots::of_by(game, deadline).is_none() {
        return legal.first().map(|l| l.command);
    }
    if let Some(c) = card_to_play(game, side, &legal) {
        return Some(c);
    }
    match game.flow().phase {
        Phase::Prepare(_) => discard(&legal),
        Phase::Order => orders(game, side)
            .filter(|c| game.check(seat, c).is_ok())
            .or_else(|| legal.first().map(|l| l.command)),
        Phase::Name(_) => name(game, side, &legal),
        Phase::Window => Some(Command::Pass { unit: None }),
        Phase::Deploy(_) | Phase::Act | Phase::Shots | Phase::Reserve(_) => {
            ranked_by(game, seat, &legal, rng, deadline)
                .first()
                .map(|(_, c)| *c)
                .or_else(|| legal.first().map(|l| l.command))
        }
    }
}

/// The judge of Frontiers' search: the greedy's candidates best first as
/// lines, each starting from its greedy score as a prior (its own choice
/// alone first where it follows a policy: orders, names, cards; at the
/// orders, [`other_orders`] after it); short
/// playouts of [`playout_command`]s valued by [`worth`].
#[derive(Debug, Clone, Default)]
pub struct Balance {
    /// The guesses of the last lines, as worths.
    priors: Vec<f32>,
    /// When the search must answer, under a time budget: past it, a
    /// node's lines are the legal list's families unweighed and its value
    /// an even one, so that one iteration does not run on for a whole
    /// weighing of a big army.
    deadline: Option<std::time::Instant>,
}

impl Balance {
    /// The first [`LINES`] of the list's families as lines, unweighed:
    /// each an even guess.
    fn unweighed(&mut self, legal: &[Legal<Command>], out: &mut Vec<Vec<Command>>) {
        for l in legal.iter().take(LINES) {
            out.push(vec![l.command]);
            self.priors.push(0.5);
        }
    }

    /// Whether the search's time is up.
    fn late(&self) -> bool {
        self.deadline
            .is_some_and(|d| std::time::Instant::now() >= d)
    }
}

/// Lines a node of the search tries at most.
const LINES: usize = 8;
/// Commands a playout plays at most.
const PLAYOUT: usize = 30;
/// How much better than the rest a policy's choice is guessed, of a
/// worth.
const POLICY_LEAN: f32 = 0.02;
/// Playouts a line's greedy score counts for.
const PRIOR_WEIGHT: u32 = 24;
/// The exploration constant of UCT: lines' worths differ by hundredths
/// (a few AP of a few hundred), so the search leans on what it measured.
const EXPLORATION: f32 = 0.05;

impl Judge<Game> for Balance {
    fn deadline(&mut self, at: Option<std::time::Instant>) {
        self.deadline = at;
    }

    fn values(&mut self, game: &Game, out: &mut Vec<f32>) {
        out.clear();
        // One side's balance is the other's negated: worked out once.
        // Out of time (before or while the shots are worked out): even.
        let first = match result_for(game, Seat(0)) {
            Some(r) => r,
            None if self.late() => 0.5,
            None => match Shots::of_by(game, self.deadline) {
                Some(shots) => (0.5
                    + 0.5 * balance_with(game, &shots.bests(game), 0) / scale(game))
                .clamp(0.0, 1.0),
                None => 0.5,
            },
        };
        out.extend([first, 1.0 - first]);
    }

    fn lines(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Vec<Command>>,
    ) {
        out.clear();
        self.priors.clear();
        let side = side_of(seat);
        let legal = listed(game, seat, self.deadline);
        // Out of time, or running out while the position's shots (which
        // every weighing below reads, and keeps) are worked out: the
        // list's families, unweighed.
        if self.late() || (self.deadline.is_some() && Shots::of_by(game, self.deadline).is_none()) {
            self.unweighed(&legal, out);
            return;
        }
        let policy = match game.flow().phase {
            Phase::Deploy(_) | Phase::Act | Phase::Shots | Phase::Reserve(_)
                if game.pending().is_none() && game.picks().is_empty() =>
            {
                None
            }
            _ => Some(choose(game, seat, rng)),
        };
        match policy {
            Some(first) => {
                let here = worth(game, seat);
                out.extend(first.map(|c| vec![c]));
                // The other listed commands after it, and other orders.
                if matches!(game.flow().phase, Phase::Order) {
                    out.extend(
                        other_orders(game, side)
                            .into_iter()
                            .filter(|c| Some(*c) != first && game.check(seat, c).is_ok())
                            .map(|c| vec![c]),
                    );
                }
                for l in &legal {
                    if out.len() >= LINES {
                        break;
                    }
                    if first != Some(l.command) {
                        out.push(vec![l.command]);
                    }
                }
                // The policy's choice is guessed a little better than the
                // rest: a few noisy playouts do not overturn it.
                self.priors.extend((0..out.len()).map(|k| {
                    let lean = if k == 0 && first.is_some() {
                        POLICY_LEAN
                    } else {
                        -POLICY_LEAN
                    };
                    (here + lean).clamp(0.0, 1.0)
                }));
            }
            None => {
                let here = worth(game, seat);
                let scale = scale(game);
                for (v, c) in ranked_by(game, seat, &legal, rng, self.deadline)
                    .into_iter()
                    .take(LINES)
                {
                    out.push(vec![c]);
                    self.priors.push((here + 0.5 * v / scale).clamp(0.0, 1.0));
                }
                // Stopped at the deadline before any was weighed: the
                // list's families, unweighed.
                if out.is_empty() && self.late() {
                    self.unweighed(&legal, out);
                }
            }
        }
    }

    fn priors(&mut self, out: &mut Vec<f32>) -> u32 {
        out.clear();
        out.extend(self.priors.iter().copied());
        if out.is_empty() { 0 } else { PRIOR_WEIGHT }
    }

    fn playout_line(
        &mut self,
        game: &Game,
        seat: Seat,
        rng: &mut ChaCha8Rng,
        out: &mut Vec<Command>,
    ) {
        out.clear();
        // Under a time budget, the position's shots (which the orders and
        // the shots of a playout read, and keep) are worked out by the
        // deadline, else the playout stops and is valued as it stands.
        if self.deadline.is_some() && Shots::of_by(game, self.deadline).is_none() {
            return;
        }
        out.extend(playout_command(game, seat, rng));
    }

    fn playout_limit(&self) -> usize {
        PLAYOUT
    }

    fn exploration(&self) -> f32 {
        EXPLORATION
    }
}

/// A playout's command: the greedy's policies where they are cheap
/// (orders, names, cards, discards), an actor's best shot where it has
/// one worth [`SHOOT_MIN`] (any shot where its shot is owed), else its
/// action or Reserve let go; a random command where none of these is
/// legal.
pub fn playout_command(game: &Game, seat: Seat, rng: &mut ChaCha8Rng) -> Option<Command> {
    let side = side_of(seat);
    let phase = game.flow().phase;
    if game.pending().is_none() && game.picks().is_empty() {
        match phase {
            Phase::Prepare(_) | Phase::Order | Phase::Name(_) | Phase::Window => {
                return choose(game, seat, rng);
            }
            Phase::Act | Phase::Shots | Phase::Reserve(_) => {
                let actors = game.actors(side);
                for (i, kinds, weapon) in &actors {
                    if kinds.contains(&Kind::Shoot)
                        && !game.units()[*i].handed
                        && let (v, Some(c)) = best_shot(game, *i, *weapon)
                        && (v >= SHOOT_MIN || phase == Phase::Shots)
                        && game.check(seat, &c).is_ok()
                    {
                        return Some(c);
                    }
                }
                // Else the unit stays where it stands: a playout weighs
                // the shots exchanged from the positions its line made.
                let stay = match (phase, actors.first()) {
                    (Phase::Reserve(_), Some((i, ..))) => Command::Pass {
                        unit: Some(game.units()[*i].tag),
                    },
                    _ => Command::Pass { unit: None },
                };
                if game.check(seat, &stay).is_ok() {
                    return Some(stay);
                }
            }
            Phase::Deploy(_) => {}
        }
    }
    game.random_command(seat, rng)
}

/// The larger army's AP: what a balance is measured against.
fn scale(game: &Game) -> f32 {
    let mut list = [0u32; 2];
    for u in game.units() {
        list[usize::from(u.side.min(1))] += u32::from(u.data.ap);
    }
    list[0].max(list[1]).max(1) as f32
}

/// The search stops at its time budget less the budget over this (a
/// tenth of it): the deadline is checked between steps (a weighing, a playout's
/// command), and the step under way when it passes ends within what is
/// kept, so that the decision is made within its budget.
const OVERRUN_SHARE: u32 = 10;

/// The mcts bot's command and its playouts. A decision of one listed
/// family (the orders with no card to play, a lone unit's move or
/// deployment) is the greedy's: the shared search takes a lone listed
/// command as it stands.
pub fn mcts(
    game: &Game,
    seat: Seat,
    budget: Budget,
    seed: u64,
) -> Option<(Command, u64, Option<f32>)> {
    mcts_seeing(game, seat, budget, seed, Sight::Own)
}

/// As [`mcts`], knowing what `sight` says.
pub fn mcts_seeing(
    game: &Game,
    seat: Seat,
    budget: Budget,
    seed: u64,
    sight: Sight,
) -> Option<(Command, u64, Option<f32>)> {
    let start = std::time::Instant::now();
    // A share of the time kept for the step under way when it runs out.
    let budget = match budget {
        Budget::Iterations(_) => budget,
        Budget::Within { time, .. } | Budget::Time(time) => less_time(budget, time / OVERRUN_SHARE),
    };
    // A Reserve group has more than one family, known without listing
    // every unit's shots.
    let one = reserve_group(game, side_of(seat)).is_none() && {
        let mut legal: Vec<Legal<Command>> = Vec::new();
        game.legal_into(seat, &mut legal);
        legal.len() == 1
    };
    if one && sandtable_core::game::next_seat(game) == Some(seat) {
        // One family: greedy's member of it, weighed within the time
        // budget where there is one.
        let deadline = match budget {
            Budget::Iterations(_) => None,
            Budget::Within { time, .. } | Budget::Time(time) => Some(start + time),
        };
        return greedy_by(game, seat, seed, deadline).map(|c| (c, 0, None));
    }
    // The time budget counts from the call: what the listing took is
    // taken from it.
    let budget = less_time(budget, start.elapsed());
    search_seeing(
        game,
        seat,
        Balance::default,
        budget,
        mix(seed, view_hash(game, seat)),
        1,
        sight,
    )
    .map(|s| (s.command, s.playouts, s.value))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_core::dice::Dice;
    use sandtable_core::game::next_seat;

    /// Confrontation at its start, its dice seeded with 3.
    fn confrontation() -> Game {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../scenarios/frontiers/confrontation.ron");
        let text = std::fs::read_to_string(path).expect("the scenario");
        let skirmish =
            sandtable_scenario::skirmish::parse(&text, "confrontation").expect("it loads");
        Game::new(&skirmish.setup, Dice::seeded(3)).expect("it starts")
    }

    /// Confrontation with every unit deployed by greedy, at the first
    /// Order phase.
    fn first_orders() -> Game {
        let mut game = confrontation();
        let mut events = Vec::new();
        while !matches!(game.flow().phase, Phase::Order) {
            let seat = next_seat(&game).expect("a seat decides");
            let c = greedy(&game, seat, 5).expect("a command");
            game.apply_into(seat, &c, &mut events).expect("legal");
        }
        game
    }

    /// The other orders mcts weighs are legal, each unlike greedy's and
    /// unlike each other, and number as many markers (R106, R107).
    #[test]
    fn other_orders_are_legal_and_differ() {
        let game = first_orders();
        for side in 0..2u8 {
            let seat = Seat(u16::from(side));
            let mine = orders(&game, side).expect("greedy's orders");
            let others = other_orders(&game, side);
            assert_eq!(others.len(), 3, "side {side}: {others:?}");
            let numbered = |c: &Command| match c {
                Command::Orders { orders, n } => orders[..usize::from(*n)]
                    .iter()
                    .filter(|o| matches!(o.marker, sandtable_frontiers::army::Marker::Numbered(_)))
                    .count(),
                _ => panic!("not orders: {c:?}"),
            };
            for (k, c) in others.iter().enumerate() {
                assert!(
                    game.check(seat, c).is_ok(),
                    "side {side}: {c:?}: {:?}",
                    game.check(seat, c)
                );
                assert_ne!(*c, mine, "side {side}: other orders {k} are greedy's");
                assert!(!others[..k].contains(c), "side {side}: {k} twice");
                assert_eq!(numbered(c), numbered(&mine), "side {side}: {c:?}");
            }
        }
    }

    /// A plan from the cache is the plan the rules work out, at every
    /// tenth position of a greedy game on Confrontation: the positions
    /// are visited forward and then backward, so that plans worked out at
    /// one position are looked up at others where units moved, fired,
    /// took hits or fell.
    #[test]
    fn a_cached_plan_is_the_rules_plan() {
        let states = greedy_positions();
        assert!(states.len() > 20, "{} positions", states.len());
        let mut looked_up = 0;
        for g in states.iter().chain(states.iter().rev()) {
            let n = g.units().len();
            for i in 0..n {
                let weapons = u8::try_from(g.units()[i].data.weapons.len().max(1)).unwrap_or(1);
                for t in 0..n {
                    for w in 0..weapons {
                        assert_eq!(
                            plan(g, i, t, w),
                            fresh_plan(g, i, t, w),
                            "unit {i} at {t} with weapon {w}, turn {}",
                            g.turn_number()
                        );
                        looked_up += 1;
                    }
                }
            }
        }
        let kept = PLANS.with_borrow(|p| p.map.len());
        assert!(
            kept < looked_up,
            "{kept} plans kept of {looked_up} looked up"
        );
    }

    /// Positions of a greedy game of Confrontation, one every ten
    /// commands.
    fn greedy_positions() -> Vec<Game> {
        let mut game = confrontation();
        let mut states = Vec::new();
        let mut events = Vec::new();
        let mut k = 0;
        while let Some(seat) = next_seat(&game) {
            if k % 10 == 0 {
                states.push(game.clone());
            }
            let c = greedy(&game, seat, 5).expect("a command");
            game.apply_into(seat, &c, &mut events).expect("legal");
            k += 1;
        }
        states
    }

    /// Every shot of `game` worked out, shooter by target: the table
    /// without bounds.
    fn whole_table(game: &Game) -> Vec<Vec<f32>> {
        let n = game.units().len();
        (0..n)
            .map(|i| (0..n).map(|t| pair_take(game, i, t)).collect())
            .collect()
    }

    fn row_maxima(table: &[Vec<f32>]) -> Vec<f32> {
        table
            .iter()
            .map(|row| row.iter().copied().fold(0.0, f32::max))
            .collect()
    }

    /// No shot is worth more than its bound, so the bests and the best
    /// shots at each unit found by bounds are the whole table's.
    #[test]
    fn a_shot_is_never_above_its_bound_and_the_bests_are_the_whole_table_s() {
        let states = greedy_positions();
        assert!(states.len() > 20, "{} positions", states.len());
        let (mut pairs, mut worked) = (0, 0);
        for g in &states {
            let table = whole_table(g);
            let n = table.len();
            let shots = Shots::fresh(g, None).expect("no deadline");
            for (i, row) in table.iter().enumerate() {
                for (t, v) in row.iter().enumerate() {
                    assert!(
                        *v <= pair_bound(g, i, t),
                        "unit {i} at {t}: {v} above its bound {}, turn {}",
                        pair_bound(g, i, t),
                        g.turn_number()
                    );
                }
            }
            assert_eq!(
                shots.bests(g),
                row_maxima(&table),
                "turn {}",
                g.turn_number()
            );
            for t in 0..n {
                let worst = table.iter().map(|row| row[t]).fold(0.0, f32::max);
                assert_eq!(shots.worst_at(g, t), worst, "at unit {t}");
            }
            pairs += n * n;
            worked += shots.take.iter().filter(|c| !c.get().is_nan()).count();
        }
        // The bounds spare work, or they would be no use.
        assert!(worked < pairs, "{worked} shots worked out of {pairs}");
    }

    /// The bests after a command, from the shots before it, are the
    /// whole table's with the rows and columns of the units it changed
    /// worked out again (all of it where more than three changed or a
    /// cloud came or went).
    #[test]
    fn the_bests_after_a_command_are_those_of_the_table_worked_out_again() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut weighed = 0;
        for g in &greedy_positions() {
            let Some(seat) = next_seat(g) else { continue };
            let shots = Shots::of(g);
            let before = whole_table(g);
            for c in candidates(g, seat, &mut rng).iter().take(12) {
                let mut after = g.clone();
                if after.apply_into(seat, c, &mut Vec::new()).is_err() {
                    continue;
                }
                let n = before.len();
                let changed: Vec<usize> = (0..n)
                    .filter(|k| g.units()[*k] != after.units()[*k])
                    .collect();
                let expected = if changed.len() > 3 || g.clouds() != after.clouds() {
                    row_maxima(&whole_table(&after))
                } else {
                    let mut table = before.clone();
                    for &k in &changed {
                        table[k] = (0..n).map(|t| pair_take(&after, k, t)).collect();
                        for (t, row) in table.iter_mut().enumerate() {
                            row[k] = pair_take(&after, t, k);
                        }
                    }
                    row_maxima(&table)
                };
                assert_eq!(shots.bests_after(g, &after, None), Some(expected), "{c}");
                weighed += 1;
            }
        }
        assert!(weighed > 50, "{weighed} commands weighed");
    }
}
