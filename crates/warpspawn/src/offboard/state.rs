//! The off-board grid's state, as values: the grid and its counters, the
//! stage of its turn (sealed orders, the movement tick by tick), the fight
//! under way and its step, what is revealed and what enters; and the plans
//! of a checked entry, march off and shot at a counter (R42-R57). The rules
//! that change it are `offboard::play`'s.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::hex::{Edge, Hex, Map};
use crate::men::Men;
use crate::off_map::OffMapState;
use crate::offboard::command::Order;
use crate::offboard::counter::{Composition, Counter};
use crate::offboard::fire::CounterShot;
use crate::offboard::forces::Forces;
use crate::offboard::movement::Movement;
use crate::offboard::orders::Orders;
use crate::offboard::ring::{Ring, Square};
use crate::offboard::setup::OffboardSetup;
use crate::offboard::ticks::{Contest, CounterId};
use crate::offboard::view::Grid;
use crate::terms::Group;

/// Where the ring is in a game turn.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Stage {
    /// Both sides write their orders, sealed (R47).
    Orders(Box<[Orders; 2]>),
    /// The ring moves tick by tick (R49).
    Moving(Box<Movement>),
    /// The ring has moved this game turn: the table's phases.
    Table,
}

/// What a fight waits for.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FightStep {
    /// Both sides pick their forces, sealed (R51).
    Forces,
    /// The side with more dice says how many enemy dice it cancels (R52).
    Cancel {
        /// The side.
        side: usize,
        /// The most it may cancel.
        most: u32,
    },
    /// A losing counter's owner picks where it falls back (R50).
    Fallback {
        /// The counter.
        id: CounterId,
        /// The squares it may go to.
        options: Vec<Square>,
    },
}

/// A fight in progress (R49-R54).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Fight {
    /// The contest fought.
    pub contest: Contest,
    /// Where each counter stood at the tick's start.
    pub from: Vec<(CounterId, Square)>,
    /// Each side's forces.
    pub forces: [Forces; 2],
    /// What it waits for.
    pub step: FightStep,
    /// Losing counters still to fall back, after the one asked now.
    pub falling: VecDeque<CounterId>,
    /// Squares a falling counter may not go to: the winners' starts.
    pub barred: BTreeSet<Square>,
}

/// The grid's state in a battle.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GridState {
    /// The ring, its counters, the reserves and what each side saw.
    pub grid: Grid,
    /// Where the ring is in the game turn.
    pub stage: Stage,
    /// The fight in progress.
    pub fight: Option<Box<Fight>>,
    /// This game turn's orders once revealed, by counter, with the square
    /// each counter started from and whether it scouts (R47). An enemy
    /// reads one only where no square of it lies in its side's reserve
    /// ([`Order::shows_enemy`], R46, R57).
    pub revealed: BTreeMap<CounterId, (Square, Order, bool)>,
    /// Counters that may still enter the map this game turn (R48).
    pub entering: BTreeSet<CounterId>,
    /// Hexes pieces entered this player turn: their formation may not
    /// attack in this Melee phase (R48). Kept here, not in the stacks'
    /// marks, so that a battle without the grid carries nothing of it.
    pub entered: BTreeSet<Hex>,
}

impl GridState {
    /// The grid at the start of a battle.
    pub fn new(setup: &OffboardSetup, ring: Ring, homes: [Edge; 2]) -> GridState {
        let reserves = [0, 1].map(|s| match setup.reserves.get(s) {
            Some(Some(squares)) => squares.iter().copied().collect(),
            _ => ring.default_reserve(homes[s]).into_iter().collect(),
        });
        let counters = setup
            .counters
            .iter()
            .map(|c| Counter {
                id: CounterId {
                    side: c.side,
                    number: c.number,
                },
                at: c.at,
                pieces: c.pieces,
            })
            .collect();
        GridState {
            grid: Grid {
                ring,
                reserves,
                counters,
                seen_from_map: [BTreeSet::new(), BTreeSet::new()],
            },
            stage: Stage::Table,
            fight: None,
            revealed: BTreeMap::new(),
            entering: BTreeSet::new(),
            entered: BTreeSet::new(),
        }
    }

    /// The sides that owe a sealed decision now (orders or forces), if the
    /// grid waits on sealed decisions.
    pub fn sealed(&self) -> Option<[bool; 2]> {
        if let Some(fight) = &self.fight {
            return match fight.step {
                FightStep::Forces => Some([0, 1].map(|s| !fight.forces[s].committed)),
                _ => None,
            };
        }
        match &self.stage {
            Stage::Orders(orders) => Some([0, 1].map(|s| !orders[s].committed)),
            _ => None,
        }
    }

    /// The side that owes the grid a decision now: for sealed decisions,
    /// the lowest that still owes one (records write them in side order).
    pub fn decider(&self) -> Option<usize> {
        if let Some(fight) = &self.fight {
            return match &fight.step {
                FightStep::Forces => (0..2).find(|s| !fight.forces[*s].committed),
                FightStep::Cancel { side, .. } => Some(*side),
                FightStep::Fallback { id, .. } => Some(id.side),
            };
        }
        match &self.stage {
            Stage::Orders(orders) => (0..2).find(|s| !orders[*s].committed),
            _ => None,
        }
    }

    /// Whether `side` owes the grid a decision now.
    pub fn owes(&self, side: usize) -> bool {
        match self.sealed() {
            Some(owing) => owing[side],
            None => self.decider() == Some(side),
        }
    }

    /// Whether the grid waits on any decision.
    pub fn waits(&self) -> bool {
        self.decider().is_some()
    }

    /// The counters on the ring: while orders are written, as they were
    /// when the phase began (each side's splits and merges are its own
    /// until revealed, R57).
    pub fn counters(&self) -> &[Counter] {
        &self.grid.counters
    }
}

/// What the battle asks of the grid's state (R40-R57).
impl OffMapState for GridState {
    fn decider(&self) -> Option<usize> {
        GridState::decider(self)
    }

    fn waits(&self) -> bool {
        GridState::waits(self)
    }

    fn entered(&self, hex: Hex) -> bool {
        self.entered.contains(&hex)
    }

    fn end_turn(&mut self) {
        self.entered.clear();
    }

    fn armed_men(&self, side: usize) -> u32 {
        self.counters()
            .iter()
            .filter(|c| c.id.side == side)
            .map(|c| u32::from(c.pieces.infantry) + u32::from(c.pieces.cavalry))
            .sum()
    }

    /// Mixes everything that changes on the ring into a state hash.
    fn hash_into(&self, h: &mut sandtable_core::hash::Mix) {
        let square = |sq: Square| u64::from(sq.col) | u64::from(sq.row) << 16;
        let counter = |h: &mut sandtable_core::hash::Mix, c: &Counter| {
            let p = c.pieces;
            h.u64(c.id.side as u64 | u64::from(c.id.number) << 8 | square(c.at) << 24);
            h.u64(
                u64::from(p.infantry)
                    | u64::from(p.cavalry) << 16
                    | u64::from(p.officers) << 32
                    | u64::from(
                        u8::from(p.cannon) | u8::from(p.baggage) << 1 | u8::from(p.flag) << 2,
                    ) << 48,
            );
        };
        let order = |h: &mut sandtable_core::hash::Mix, id: CounterId, o: &Order, scout: bool| {
            let word = match o {
                Order::Hold => 1,
                Order::Enter => 2,
                Order::Path(path) => path.iter().fold(3u64, |a, sq| {
                    a.wrapping_mul(1_000_003).wrapping_add(square(*sq))
                }),
            };
            h.u64(id.side as u64 | u64::from(id.number) << 8 | u64::from(scout) << 24);
            h.u64(word);
        };
        h.u64(0x6772_6964);
        for c in &self.grid.counters {
            counter(h, c);
        }
        for seen in &self.grid.seen_from_map {
            h.u64(seen.len() as u64);
            for sq in seen {
                h.u64(square(*sq));
            }
        }
        match &self.stage {
            Stage::Orders(orders) => {
                h.u64(1);
                for side in orders.iter() {
                    h.u64(u64::from(side.committed) | (side.counters.len() as u64) << 8);
                    for c in &side.counters {
                        counter(h, c);
                    }
                    for (n, (o, scout)) in &side.orders {
                        order(
                            h,
                            CounterId {
                                side: side.side,
                                number: *n,
                            },
                            o,
                            *scout,
                        );
                    }
                }
            }
            Stage::Moving(movement) => {
                h.u64(2);
                h.u64(movement.hash_word());
            }
            Stage::Table => h.u64(3),
        }
        for (id, (at, o, scout)) in &self.revealed {
            order(h, *id, o, *scout);
            h.u64(square(*at));
        }
        for id in &self.entering {
            h.u64(id.side as u64 | u64::from(id.number) << 8 | 1 << 32);
        }
        for hex in &self.entered {
            h.u64(u64::from(hex.col) | u64::from(hex.row) << 16 | 1 << 40);
        }
        if let Some(fight) = &self.fight {
            h.u64(square(fight.contest.square) | (fight.contest.counters.len() as u64) << 32);
            for f in &fight.forces {
                h.u64(u64::from(f.committed) | u64::from(f.points()) << 8);
            }
            h.u64(match &fight.step {
                FightStep::Forces => 1,
                FightStep::Cancel { side, most } => {
                    2 | (*side as u64) << 8 | u64::from(*most) << 16
                }
                FightStep::Fallback { id, options } => {
                    3 | (id.side as u64) << 8
                        | u64::from(id.number) << 16
                        | (options.len() as u64) << 32
                }
            });
        }
    }

    /// Whether a grid read back fits the ring of `fresh` (the grid a
    /// battle of the same setup starts with) and the map: every square
    /// on the ring, every counter of the two sides, every hex on the map.
    fn fits(&self, fresh: &GridState, map: Map) -> Result<(), String> {
        let ring = &self.grid.ring;
        let held = |sq: &Square| ring.holds(*sq);
        let id_ok = |id: &CounterId| id.side < 2;
        let g = &self.grid;
        let grid_ok = *ring == fresh.grid.ring
            && g.reserves.iter().flatten().all(held)
            && g.seen_from_map.iter().flatten().all(held)
            && g.counters.iter().all(|c| id_ok(&c.id) && held(&c.at));
        let stage_ok = match &self.stage {
            Stage::Orders(orders) => orders
                .iter()
                .enumerate()
                .all(|(s, o)| o.side == s && o.fits(ring)),
            Stage::Moving(movement) => movement.fits(ring),
            Stage::Table => true,
        };
        let fight_ok = self.fight.as_deref().is_none_or(|f| {
            held(&f.contest.square)
                && f.contest.counters.iter().all(id_ok)
                && f.from.iter().all(|(id, sq)| id_ok(id) && held(sq))
                && f.forces
                    .iter()
                    .all(|forces| forces.counters.iter().all(|c| id_ok(&c.id) && held(&c.at)))
                && match &f.step {
                    FightStep::Forces => true,
                    FightStep::Cancel { side, .. } => *side < 2,
                    FightStep::Fallback { id, options } => id_ok(id) && options.iter().all(held),
                }
                && f.falling.iter().all(id_ok)
                && f.barred.iter().all(held)
        });
        let rest_ok = self
            .revealed
            .iter()
            .all(|(id, (at, o, _))| id_ok(id) && held(at) && o.fits(ring))
            && self.entering.iter().all(id_ok)
            && self.entered.iter().all(|h| map.contains(*h));
        if grid_ok && stage_ok && fight_ok && rest_ok {
            Ok(())
        } else {
            Err("the off-board grid holds a square, counter or hex that is not there".to_owned())
        }
    }
}

/// An entry checked (R48): the counter, the hex and what enters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnterPlan {
    /// The counter.
    pub id: CounterId,
    /// The hex entered.
    pub hex: Hex,
    /// What enters.
    pub pieces: Composition,
}

/// A march off the map checked (R48): what leaves, and the square it
/// becomes a counter in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarchOffPlan {
    /// The hex left.
    pub from: Hex,
    /// The edge square entered.
    pub square: Square,
    /// What marches off.
    pub group: Group,
}

/// A shot at a counter checked (R56).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterFirePlan {
    /// The cannon's hex.
    pub cannon: Hex,
    /// The counter.
    pub id: CounterId,
    /// Its square.
    pub square: Square,
    /// The crew marked.
    pub crew: Men,
    /// The counter's armed men: the density (R56).
    pub target_men: u16,
    /// The shot's modifiers.
    pub shot: CounterShot,
}
