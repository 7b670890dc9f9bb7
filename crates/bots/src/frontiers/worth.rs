//! What a Frontiers position is worth to the bots: each unit's best shot
//! and what it is expected to destroy (the attack's odds from the rules'
//! own numbers, R123-R129, R142), the shots kept from one position to the
//! next, a side's threat, the scenario's goals (R147, R148) and the
//! balance of AP (R145).

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use sandtable_core::game::Seat;
use sandtable_frontiers::attack::{attack_odds, sniper_odds};
use sandtable_frontiers::crates::CrateState;
use sandtable_frontiers::data::{Ability, Back, Missile};
use sandtable_frontiers::event::Struck;
use sandtable_frontiers::game::Shot;
use sandtable_frontiers::geometry::{Pt, gap};
use sandtable_frontiers::setup::{TerrainKind, Victory, point_in};
use sandtable_frontiers::templates::LARGE_MM;
use sandtable_frontiers::unit::Unit;
use sandtable_frontiers::{Command, Game};

use super::{THREAT, scale};
use crate::search::result_for;

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

pub(crate) fn side_of(seat: Seat) -> u8 {
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
pub(crate) fn attack_loss(game: &Game, t: usize, bonus: i8, modifiers: i8) -> f32 {
    let u = &game.units()[t];
    let [_, step, double] = attack_odds(bonus, modifiers, u.defense(), in_crater(game, u));
    loss(u, f32::from(step) / 6.0, f32::from(double) / 6.0)
}

/// The AP a template at `at` is expected to destroy of the side other
/// than `side`, less what it destroys of `side`'s own (R126): `bonus`
/// gives the attack's bonus at each unit struck.
pub(crate) fn template_take(
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
pub(crate) enum Plan {
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
pub(crate) struct Plans {
    /// A copy of a game on the table the plans are of: holding it keeps
    /// that table from being freed and another built in its place.
    anchor: Option<Game>,
    pub(crate) map: HashMap<(u64, u64, u64, u8), Option<Plan>>,
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
    pub(crate) static PLANS: RefCell<Plans> = RefCell::new(Plans {
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
pub(crate) fn plan(game: &Game, i: usize, t: usize, w: u8) -> Option<Plan> {
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
pub(crate) fn fresh_plan(game: &Game, i: usize, t: usize, w: u8) -> Option<Plan> {
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
pub(crate) fn nearest_enemy(game: &Game, i: usize) -> Option<(f64, usize)> {
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
    pub(crate) take: Vec<Cell<f32>>,
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
    pub(crate) fn of_by(game: &Game, deadline: Option<std::time::Instant>) -> Option<Shots> {
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
    pub(crate) fn fresh(game: &Game, deadline: Option<std::time::Instant>) -> Option<Shots> {
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
    pub(crate) fn bests(&self, game: &Game) -> Vec<f32> {
        (0..self.n).map(|i| self.best(game, i)).collect()
    }

    /// Each unit's best shot in `after`, from these shots of `before`:
    /// the shots from and at each unit that changed worked out again, the
    /// rest kept, or all worked out again where more than three changed
    /// or a cloud came or went: then `None` where `deadline` passes
    /// before that table is worked out.
    pub(crate) fn bests_after(
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
    pub(crate) fn best(&self, game: &Game, i: usize) -> f32 {
        self.best_of(game, i).0
    }

    /// The best shot at unit `i` in `game` (the table's).
    pub(crate) fn worst_at(&self, game: &Game, i: usize) -> f32 {
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
pub(crate) fn pair_take(game: &Game, i: usize, t: usize) -> f32 {
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
pub(crate) fn pair_bound(game: &Game, i: usize, t: usize) -> f32 {
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
pub(crate) fn mm(a: Pt, b: Pt) -> f32 {
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
pub(crate) fn teleprinter(game: &Game) -> Option<Pt> {
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
pub(crate) fn balance_with(game: &Game, bests: &[f32], side: u8) -> f32 {
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
