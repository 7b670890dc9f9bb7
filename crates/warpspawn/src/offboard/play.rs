//! The grid in the battle (R47-R56): each game turn's Orders phase before
//! the first Cannonade, sealed; the ring's ticks and fights with their
//! sealed forces, cancelled dice and fall-backs; the look step; and a
//! counter's ring state for the views.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use sandtable_core::game::Barrier;

use super::command::{GridCommand, Order};
use super::counter::Composition;
use super::event::RingEvent;
use super::fight::{After, Engaged, Outcome, Party, cancel, settle};
use super::forces::Forces;
use super::movement::Movement;
use super::moves::fall_backs;
use super::orders::{OrderError, Orders, Writing, Written};
use super::ring::{Ring, Square};
use super::setup::OffboardSetup;
use super::sight::seen_from_map;
use super::ticks::{Contest, CounterId, Kind};
use super::view::{Counter, Grid};
use crate::event::Event;
use crate::game::{Game, Side};
use crate::hex::Edge;
use crate::play::CommandError;

/// Where the ring is in a game turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stage {
    /// Both sides write their orders, sealed (R47).
    Orders(Box<[Orders; 2]>),
    /// The ring moves tick by tick (R49).
    Moving(Box<Movement>),
    /// The ring has moved this game turn: the table's phases.
    Table,
}

/// What a fight waits for.
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
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
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridState {
    /// The ring, its counters, the reserves and what each side saw.
    pub grid: Grid,
    /// Where the ring is in the game turn.
    pub stage: Stage,
    /// The fight in progress.
    pub fight: Option<Box<Fight>>,
    /// This game turn's orders once revealed, by counter (R47).
    pub revealed: BTreeMap<CounterId, (Order, bool)>,
    /// Counters that may still enter the map this game turn (R48).
    pub entering: BTreeSet<CounterId>,
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

    /// The counters as they stand now: while orders are written, the
    /// side's own as it has split and merged them are its secret; every
    /// view reads the counters as they were when the phase began.
    pub fn counters(&self) -> &[Counter] {
        &self.grid.counters
    }

    /// Mixes everything that changes on the ring into a state hash.
    pub(crate) fn hash_into(&self, h: &mut sandtable_core::hash::Mix) {
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
        for (id, (o, scout)) in &self.revealed {
            order(h, *id, o, *scout);
        }
        for id in &self.entering {
            h.u64(id.side as u64 | u64::from(id.number) << 8 | 1 << 32);
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

    /// Squares `side` sees holding enemy counters (R49, R57).
    pub fn enemy_squares(&self, side: usize) -> BTreeSet<Square> {
        self.grid
            .view(Some(side))
            .counters
            .iter()
            .filter(|c| c.side != side)
            .map(|c| c.at)
            .collect()
    }
}

/// A refusal from the grid's words, which end with their rulings:
/// `... (R47)`, `... (R55, R56)`. The last ruling is the refusal's; the
/// words keep the others.
pub(crate) fn refusal(words: String) -> CommandError {
    let Some(open) = words.rfind(" (R") else {
        return CommandError {
            ruling: 47,
            reason: words,
        };
    };
    let inner = words[open + 2..].trim_end_matches(')');
    let rulings: Vec<u16> = inner
        .split(", ")
        .filter_map(|r| r.trim_start_matches('R').parse().ok())
        .collect();
    let Some((&last, rest)) = rulings.split_last() else {
        return CommandError {
            ruling: 47,
            reason: words,
        };
    };
    let mut reason = words[..open].to_owned();
    if !rest.is_empty() {
        let rest: Vec<String> = rest.iter().map(|r| format!("R{r}")).collect();
        reason.push_str(&format!(" ({})", rest.join(", ")));
    }
    CommandError {
        ruling: last,
        reason,
    }
}

impl Game {
    /// The grid's state, in a battle with one.
    pub fn grid(&self) -> Option<&GridState> {
        self.state.grid.as_deref()
    }

    fn grid_mut(&mut self) -> &mut GridState {
        self.state
            .grid
            .as_deref_mut()
            .expect("a battle with a grid")
    }

    /// The grid's block of the battle's setup: its span, sight and most
    /// points for a scout (R40, R54, R55).
    fn offboard(&self) -> &OffboardSetup {
        self.battle
            .setup
            .offboard
            .as_ref()
            .expect("a battle with a grid")
    }

    /// A game turn's Orders phase begins (R47): what was seen last turn is
    /// forgotten, and both sides write orders for their counters.
    pub(crate) fn begin_orders(&mut self, events: &mut Vec<Event>) {
        let turn = self.state.turn;
        let Some(g) = self.state.grid.as_deref_mut() else {
            return;
        };
        g.grid.seen_from_map = [BTreeSet::new(), BTreeSet::new()];
        g.revealed.clear();
        g.entering.clear();
        let mine = |s: usize| {
            g.grid
                .counters
                .iter()
                .filter(|c| c.id.side == s)
                .copied()
                .collect::<Vec<_>>()
        };
        g.stage = Stage::Orders(Box::new([Orders::new(0, mine(0)), Orders::new(1, mine(1))]));
        events.push(Event::Ring(RingEvent::OrdersBegan { turn }));
    }

    /// Checks a grid command of `side`.
    pub(crate) fn check_grid(&self, side: Side, command: &GridCommand) -> Result<(), CommandError> {
        let Some(g) = self.grid() else {
            return Err(refusal(format!(
                "`{command}` is a command of the off-board grid; this battle has none (R40)"
            )));
        };
        let s = side.index();
        if g.fight.is_none()
            && let Stage::Orders(orders) = &g.stage
        {
            let enemy = g.enemy_squares(s);
            let w = Writing {
                ring: &g.grid.ring,
                reserve: &g.grid.reserves[s],
                enemy: &enemy,
                scout_max_points: self.offboard().scout_max_points,
            };
            return orders[s].check(&w, command).map_err(order_refusal);
        }
        let Some(fight) = &g.fight else {
            return Err(refusal(format!(
                "`{command}` is for the Orders phase and the ring's fights; the ring has moved this game turn (R47)"
            )));
        };
        match (&fight.step, command) {
            (FightStep::Forces, _) => fight.forces[s]
                .check(command)
                .map_err(|e| refusal(e.to_string())),
            (FightStep::Cancel { side: by, most }, GridCommand::Cancel(n)) => {
                if *by != s {
                    Err(refusal(format!(
                        "{} has the more dice and decides what to cancel (R52)",
                        self.battle.names[*by]
                    )))
                } else if n > most {
                    Err(refusal(format!(
                        "you may cancel at most {most} enemy dice (R52)"
                    )))
                } else {
                    Ok(())
                }
            }
            (FightStep::Fallback { id, options }, GridCommand::Fallback(to)) => {
                if id.side != s {
                    Err(refusal(format!(
                        "{} picks where its counter falls back (R50)",
                        self.battle.names[id.side]
                    )))
                } else if !options.contains(to) {
                    let names: Vec<String> = options.iter().map(ToString::to_string).collect();
                    Err(refusal(format!(
                        "counter {} may fall back to {} only: a square beside it without enemy counters, not where the winner came from (R50)",
                        id.number,
                        names.join(", ")
                    )))
                } else {
                    Ok(())
                }
            }
            (step, _) => Err(refusal(format!(
                "the fight waits for {} (R50, R52)",
                self.fight_step_words(step)
            ))),
        }
    }

    /// What the grid waits for, in words.
    pub(crate) fn grid_owed_words(&self) -> String {
        let Some(g) = self.grid() else {
            return String::new();
        };
        if let Some(fight) = &g.fight {
            return self.fight_step_words(&fight.step);
        }
        match &g.stage {
            Stage::Orders(_) => {
                "its orders for the ring: `order 5 2E 2F`, `order 5 hold`, then `commit`".to_owned()
            }
            _ => String::new(),
        }
    }

    /// What a fight waits for, in words.
    pub(crate) fn fight_step_words(&self, step: &FightStep) -> String {
        match step {
            FightStep::Forces => "both sides' forces: `forces 5 all`, then `commit`".to_owned(),
            FightStep::Cancel { side, most } => format!(
                "{} to cancel up to {most} enemy dice: `cancel {most}`",
                self.battle.names[*side]
            ),
            FightStep::Fallback { id, options } => format!(
                "{} to pick where counter {} falls back: `fallback {}`",
                self.battle.names[id.side],
                id.number,
                options.first().map(ToString::to_string).unwrap_or_default()
            ),
        }
    }

    /// Applies a grid command of `side`, after [`Game::check_grid`]; the
    /// barrier says where undo now stops: a commit reveals or seals (R31,
    /// R47, R51), a fight rolls.
    pub(crate) fn apply_grid(
        &mut self,
        side: Side,
        command: &GridCommand,
        events: &mut Vec<Event>,
    ) -> Result<Option<Barrier>, CommandError> {
        self.check_grid(side, command)?;
        let s = side.index();
        let scout_max_points = self.offboard().scout_max_points;
        let g = self.grid_mut();
        if g.fight.is_none()
            && let Stage::Orders(orders) = &mut g.stage
        {
            let enemy = {
                let view = g.grid.view(Some(s));
                view.counters
                    .iter()
                    .filter(|c| c.side != s)
                    .map(|c| c.at)
                    .collect::<BTreeSet<_>>()
            };
            let w = Writing {
                ring: &g.grid.ring,
                reserve: &g.grid.reserves[s],
                enemy: &enemy,
                scout_max_points,
            };
            let written = orders[s].apply(&w, command).map_err(order_refusal)?;
            let event = match written {
                Written::Ordered(n) => {
                    let (order, scout) = orders[s].orders[&n];
                    RingEvent::Ordered {
                        id: CounterId { side: s, number: n },
                        order,
                        scout,
                    }
                }
                Written::Split { from, new } => RingEvent::Split {
                    id: CounterId {
                        side: s,
                        number: from,
                    },
                    new,
                    pieces: orders[s]
                        .counters
                        .iter()
                        .find(|c| c.id.number == new)
                        .expect("the new counter")
                        .pieces,
                },
                Written::Merged { into, joined } => RingEvent::Merged {
                    into: CounterId {
                        side: s,
                        number: into,
                    },
                    joined,
                },
                Written::Committed => RingEvent::OrdersSealed { side: s },
            };
            events.push(Event::Ring(event));
            if !orders.iter().all(|o| o.committed) {
                // A side's commit is final: undo never reopens it (R47).
                return Ok(matches!(command, GridCommand::Commit).then_some(Barrier::Reveal));
            }
            self.reveal_orders(events);
            self.run_ring(events)?;
            return Ok(Some(Barrier::Reveal));
        }
        let fight = g.fight.as_deref_mut().expect("checked: a fight");
        match command {
            GridCommand::Forces { counter, .. } => {
                fight.forces[s]
                    .apply(command)
                    .map_err(|e| refusal(e.to_string()))?;
                let pieces = fight.forces[s].committed(*counter).expect("in the fight");
                events.push(Event::Ring(RingEvent::ForcesPicked {
                    id: CounterId {
                        side: s,
                        number: *counter,
                    },
                    pieces,
                }));
                Ok(None)
            }
            GridCommand::Commit => {
                fight.forces[s]
                    .apply(command)
                    .map_err(|e| refusal(e.to_string()))?;
                events.push(Event::Ring(RingEvent::ForcesSealed { side: s }));
                if fight.forces.iter().all(|f| f.committed) {
                    self.reveal_forces(events)?;
                    self.run_ring(events)?;
                }
                Ok(Some(Barrier::Reveal))
            }
            GridCommand::Cancel(n) => {
                let n = *n;
                events.push(Event::Ring(RingEvent::Cancelled { side: s, dice: n }));
                self.throw_fight(Some(n), events)?;
                self.run_ring(events)?;
                Ok(Some(Barrier::Roll))
            }
            GridCommand::Fallback(to) => {
                let FightStep::Fallback { id, .. } = fight.step.clone() else {
                    unreachable!("checked: a fall-back owed");
                };
                self.fall_back(id, *to, events);
                self.next_fall_back(events);
                self.run_ring(events)?;
                Ok(None)
            }
            _ => unreachable!("refused by check"),
        }
    }

    /// Both sides have committed: the orders are revealed together and the
    /// ring's movement starts (R47, R49).
    fn reveal_orders(&mut self, events: &mut Vec<Event>) {
        let g = self.grid_mut();
        let Stage::Orders(orders) = std::mem::replace(&mut g.stage, Stage::Table) else {
            unreachable!("revealed from the Orders phase");
        };
        let mut all = Vec::new();
        for side in orders.iter() {
            for c in &side.counters {
                let (order, scout) = side
                    .orders
                    .get(&c.id.number)
                    .copied()
                    .unwrap_or((Order::Hold, false));
                all.push((c.id, c.at, order, scout));
                g.revealed.insert(c.id, (order, scout));
                if order == Order::Enter {
                    g.entering.insert(c.id);
                }
            }
        }
        g.grid.counters = orders.iter().flat_map(|o| o.counters.clone()).collect();
        g.grid.counters.sort_by_key(|c| c.id);
        let movement = Movement::start(&orders);
        g.stage = Stage::Moving(Box::new(movement));
        events.push(Event::Ring(RingEvent::OrdersRevealed { orders: all }));
    }

    /// Runs the ring's movement until a fight needs a decision or every
    /// path is walked; then the look step (R47, R49, R55).
    fn run_ring(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        loop {
            let g = self.grid_mut();
            if g.fight.is_some() {
                return Ok(());
            }
            let Stage::Moving(movement) = &mut g.stage else {
                return Ok(());
            };
            let contest = movement.next_contest();
            // Every tick taken on the way, for the log.
            for (tick, moves) in movement.take_log() {
                events.push(Event::Ring(RingEvent::Stepped { tick, moves }));
            }
            g.grid.counters.clone_from(&movement.counters);
            match contest {
                Some(contest) => {
                    let from = contest
                        .counters
                        .iter()
                        .map(|id| (*id, movement.started(*id).unwrap_or_default()))
                        .collect();
                    self.open_fight(contest, from, events);
                }
                None => {
                    self.grid_mut().stage = Stage::Table;
                    events.push(Event::Ring(RingEvent::RingMoved));
                    for side in [Side(0), Side(1)] {
                        self.look(side, events);
                    }
                    return Ok(());
                }
            }
        }
    }

    /// A fight opens: both sides pick their forces (R51).
    pub(crate) fn open_fight(
        &mut self,
        contest: Contest,
        from: Vec<(CounterId, Square)>,
        events: &mut Vec<Event>,
    ) {
        let g = self.grid_mut();
        let forces = [0, 1].map(|s| {
            Forces::new(
                g.grid
                    .counters
                    .iter()
                    .filter(|c| c.id.side == s && contest.counters.contains(&c.id))
                    .copied()
                    .collect(),
            )
        });
        events.push(Event::Ring(RingEvent::FightBegan {
            square: contest.square,
            kind: contest.kind,
            counters: contest.counters.clone(),
        }));
        g.fight = Some(Box::new(Fight {
            contest,
            from,
            forces,
            step: FightStep::Forces,
            falling: VecDeque::new(),
            barred: BTreeSet::new(),
        }));
    }

    /// Both sides' forces are revealed (R51); the side with more dice may
    /// cancel (R52), or the dice are thrown.
    fn reveal_forces(&mut self, events: &mut Vec<Event>) -> Result<(), CommandError> {
        let rule = self.battle.switches.superior_numbers;
        let g = self.grid_mut();
        let fight = g.fight.as_deref_mut().expect("a fight");
        let mut forces = Vec::new();
        let mut points = [0u32; 2];
        for (side, points) in fight.forces.iter().zip(&mut points) {
            for c in &side.counters {
                let committed = side.committed(c.id.number).expect("in it");
                let scout = g.revealed.get(&c.id).is_some_and(|(_, scout)| *scout);
                if !scout {
                    *points += committed.points();
                }
                forces.push((c.id, committed, scout));
            }
        }
        events.push(Event::Ring(RingEvent::ForcesRevealed { forces, points }));
        let dice = points.map(super::counter::dice_for);
        let (a, b) = cancel(dice[0], dice[1], rule, None);
        let most = (dice[0] - a).max(dice[1] - b);
        if most > 0 {
            let side = usize::from(dice[1] > dice[0]);
            fight.step = FightStep::Cancel { side, most };
            return Ok(());
        }
        self.throw_fight(None, events)
    }

    /// The fight's dice are thrown and it is settled (R50-R54).
    fn throw_fight(
        &mut self,
        cancelled: Option<u32>,
        events: &mut Vec<Event>,
    ) -> Result<(), CommandError> {
        let rules = (
            self.battle.switches.superior_numbers,
            self.battle.switches.standoff,
        );
        let mut dice = self.state.dice.clone();
        let g = self.state.grid.as_deref_mut().expect("a grid");
        let fight = g.fight.as_deref_mut().expect("a fight");
        let engaged: Vec<Engaged> = fight
            .contest
            .counters
            .iter()
            .filter_map(|id| {
                let c = g.grid.counters.iter().find(|c| c.id == *id)?;
                let from = fight
                    .from
                    .iter()
                    .find(|(f, _)| f == id)
                    .map_or(c.at, |(_, sq)| *sq);
                Some(Engaged {
                    id: *id,
                    from,
                    at: c.at,
                    committed: fight.forces[id.side].committed(id.number)?,
                    scout: g.revealed.get(id).is_some_and(|(_, scout)| *scout),
                })
            })
            .collect();
        // Pass the cancelled dice as the side with more gave them.
        let settled =
            settle(fight.contest.kind, &engaged, rules, cancelled, &mut dice).map_err(|out| {
                CommandError {
                    ruling: 30,
                    reason: out.reason(),
                }
            })?;
        self.state.dice = dice;
        let g = self.state.grid.as_deref_mut().expect("a grid");
        let fight = g.fight.as_deref_mut().expect("a fight");
        let defender = match fight.contest.kind {
            Kind::Meet { defender } => defender,
            Kind::Swap => None,
            Kind::Breakthrough { defender } => Some(defender),
        };
        events.push(Event::Ring(RingEvent::Fought {
            square: fight.contest.square,
            defender,
            dice: settled.resolved.dice,
            throws: settled.resolved.throws.clone(),
            outcome: settled.resolved.outcome.clone(),
            after: settled.after.clone(),
        }));
        // The winners' starting squares are barred to a falling defender.
        let winner = match settled.resolved.outcome {
            Outcome::Won(Party::A) => Some(0),
            Outcome::Won(Party::B) => Some(1),
            Outcome::Standoff => None,
        };
        fight.barred = engaged
            .iter()
            .filter(|e| Some(e.id.side) == winner && e.from != e.at)
            .map(|e| e.from)
            .collect();
        let mut falling = VecDeque::new();
        let mut back = Vec::new();
        for (id, after) in &settled.after {
            match after {
                After::Holds => {}
                After::Back(sq) => back.push((*id, *sq)),
                After::FallsBack => falling.push_back(*id),
            }
        }
        fight.falling = falling;
        for (id, sq) in back {
            self.fall_back(id, sq, events);
        }
        self.next_fall_back(events);
        Ok(())
    }

    /// Puts a counter where a fight sent it (R50).
    fn fall_back(&mut self, id: CounterId, to: Square, events: &mut Vec<Event>) {
        let g = self.grid_mut();
        if let Stage::Moving(movement) = &mut g.stage {
            movement.place(id, to);
        }
        if let Some(c) = g.grid.counters.iter_mut().find(|c| c.id == id) {
            c.at = to;
        }
        events.push(Event::Ring(RingEvent::FellBack { id, to }));
    }

    /// The next losing counter to fall back: its owner picks where when it
    /// has a choice; otherwise it goes (R50). The fight is over once none
    /// is left.
    fn next_fall_back(&mut self, events: &mut Vec<Event>) {
        loop {
            let g = self.grid_mut();
            let fight = g.fight.as_deref_mut().expect("a fight");
            let Some(id) = fight.falling.pop_front() else {
                g.fight = None;
                return;
            };
            let Some(at) = g.grid.counters.iter().find(|c| c.id == id).map(|c| c.at) else {
                continue;
            };
            let enemy: BTreeSet<Square> = g
                .grid
                .counters
                .iter()
                .filter(|c| c.id.side != id.side)
                .map(|c| c.at)
                .collect();
            let options = fall_backs(&g.grid.ring, at, &enemy, &fight.barred);
            match options.as_slice() {
                [] => {}
                [only] => {
                    let only = *only;
                    self.fall_back(id, only, events);
                }
                _ => {
                    fight.step = FightStep::Fallback { id, options };
                    return;
                }
            }
        }
    }

    /// The look step, and sight after a march or an entry (R55): the edge
    /// squares `side`'s formations see; the enemy counters there show it
    /// their pieces for the rest of the game turn.
    pub(crate) fn look(&mut self, side: Side, events: &mut Vec<Event>) {
        if self.state.grid.is_none() {
            return;
        }
        let sight = self.offboard().sight;
        let hexes: Vec<crate::hex::Hex> = self
            .stacks()
            .iter()
            .filter(|st| st.side == side && st.is_formation())
            .map(|st| st.hex)
            .collect();
        let Some(g) = self.state.grid.as_deref_mut() else {
            return;
        };
        let s = side.index();
        let seen = seen_from_map(&g.grid.ring, &hexes, sight);
        let before = g.grid.seen_from_map[s].clone();
        g.grid.seen_from_map[s].extend(seen);
        let newly: Vec<(CounterId, Square, Composition)> = g
            .grid
            .counters
            .iter()
            .filter(|c| {
                c.id.side != s && g.grid.seen_from_map[s].contains(&c.at) && !before.contains(&c.at)
            })
            .map(|c| (c.id, c.at, c.pieces))
            .collect();
        if !newly.is_empty() {
            events.push(Event::Ring(RingEvent::Sighted {
                side: s,
                counters: newly,
            }));
        }
    }

    /// Every grid command `side` may give now, one a family: orders for
    /// each counter without one and `commit` (splits and merges are not
    /// listed); a counter's forces, all of it, and `commit`; the most dice
    /// to cancel and none; each square to fall back to.
    pub(crate) fn grid_legal(&self, side: Side) -> Vec<GridCommand> {
        let Some(g) = self.grid() else {
            return Vec::new();
        };
        let s = side.index();
        if !g.owes(s) {
            return Vec::new();
        }
        if let Some(fight) = &g.fight {
            return match &fight.step {
                FightStep::Forces => fight.forces[s].legal(),
                FightStep::Cancel { most, .. } => {
                    vec![GridCommand::Cancel(*most), GridCommand::Cancel(0)]
                }
                FightStep::Fallback { options, .. } => options
                    .iter()
                    .map(|sq| GridCommand::Fallback(*sq))
                    .collect(),
            };
        }
        match &g.stage {
            Stage::Orders(orders) => {
                let enemy = g.enemy_squares(s);
                let w = Writing {
                    ring: &g.grid.ring,
                    reserve: &g.grid.reserves[s],
                    enemy: &enemy,
                    scout_max_points: self.offboard().scout_max_points,
                };
                orders[s].legal(&w)
            }
            _ => Vec::new(),
        }
    }
}

/// A refusal of the Orders phase.
fn order_refusal(e: OrderError) -> CommandError {
    refusal(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_keeps_its_words_and_takes_its_last_ruling() {
        let e = refusal("counter 5 has its order (R47)".to_owned());
        assert_eq!(
            (e.ruling, e.reason.as_str()),
            (47, "counter 5 has its order")
        );
        let e = refusal("your side does not see 2E (R55, R56)".to_owned());
        assert_eq!(e.ruling, 56);
        assert_eq!(e.to_string(), "your side does not see 2E (R55) (R56)");
    }
}
