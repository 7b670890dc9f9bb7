//! The grid in the battle (R47-R56): each game turn's Orders phase before
//! the first Cannonade, sealed; the ring's ticks and fights with their
//! sealed forces, cancelled dice and fall-backs; the look step; and a
//! counter's ring state for the views.

use std::collections::{BTreeSet, VecDeque};

use sandtable_core::game::{Barrier, Legal};

use super::command::{GridCommand, Order};
use super::counter::{Composition, Counter};
use super::event::RingEvent;
use super::fight::{After, Engaged, Outcome, Party, cancel, settle};
use super::fire::plan_shot;
use super::forces::Forces;
use super::movement::Movement;
use super::moves::fall_backs;
use super::orders::{OrderError, Orders, Written};
use super::plug::{Command, Event, Game};
use super::ring::Square;
use super::setup::OffboardSetup;
use super::sight::seen_from_map;
use super::ticks::{Contest, CounterId, Kind};
use crate::command::CommandError;
use crate::game::Stack;
use crate::hex::Hex;
use crate::men::{Men, Pick};
use crate::offboard::state::{
    CounterFirePlan, EnterPlan, Fight, FightStep, GridState, MarchOffPlan, Stage,
};
use crate::terms::{Band, Group, Phase, Side, Step};

/// An event of the ring, as the battle's events carry it.
pub(crate) fn ring_event(event: RingEvent) -> Event {
    Event::Ring(Box::new(event))
}

/// A refusal from the words of the grid's parts (an order's, a pick of
/// forces', a shot's refusal), which end with their rulings:
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
    /// forgotten, and both sides write orders for their counters; a side
    /// with none has sealed its orders already, and with no counter on the
    /// ring the phase is only its look step.
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
        let mut orders = [Orders::new(0, mine(0)), Orders::new(1, mine(1))];
        if orders.iter().all(|o| o.counters.is_empty()) {
            // Nothing on the ring: nothing to write, nothing moves; the
            // look step alone (R47, R55).
            g.stage = Stage::Table;
            for side in [Side(0), Side(1)] {
                self.look(side, events);
            }
            return;
        }
        events.push(ring_event(RingEvent::OrdersBegan { turn }));
        // A side with no counter has nothing to write, and the enemy
        // knows it (R46): its orders are sealed at once.
        for o in &mut orders {
            if o.counters.is_empty() {
                o.committed = true;
                events.push(ring_event(RingEvent::OrdersSealed { side: o.side }));
            }
        }
        g.stage = Stage::Orders(Box::new(orders));
    }

    /// Checks a grid command of `side`.
    pub(crate) fn check_grid(&self, side: Side, command: &GridCommand) -> Result<(), CommandError> {
        let Some(g) = self.grid() else {
            return Err(grid_refusal(
                40,
                format!("`{command}` is a command of the off-board grid; this battle has none"),
            ));
        };
        let s = side.index();
        if g.fight.is_none()
            && let Stage::Orders(orders) = &g.stage
        {
            let enemy = g.grid.enemy_of(s);
            let w = g.grid.writing(s, &enemy, self.offboard().scout_max_points);
            return orders[s].check(&w, command).map_err(order_refusal);
        }
        let Some(fight) = &g.fight else {
            return Err(grid_refusal(
                47,
                format!(
                    "`{command}` is for the Orders phase and the ring's fights; the ring has moved this game turn"
                ),
            ));
        };
        match (&fight.step, command) {
            (FightStep::Forces, _) => fight.forces[s]
                .check(command)
                .map_err(|e| refusal(e.to_string())),
            (FightStep::Cancel { side: by, most }, GridCommand::Cancel(n)) => {
                if *by != s {
                    Err(grid_refusal(
                        52,
                        format!(
                            "{} has the more dice and decides what to cancel",
                            self.battle.names[*by]
                        ),
                    ))
                } else if n > most {
                    Err(grid_refusal(
                        52,
                        format!("you may cancel at most {most} enemy dice"),
                    ))
                } else {
                    Ok(())
                }
            }
            (FightStep::Fallback { id, options }, GridCommand::Fallback(to)) => {
                if id.side != s {
                    Err(grid_refusal(
                        50,
                        format!(
                            "{} picks where its counter falls back",
                            self.battle.names[id.side]
                        ),
                    ))
                } else if !options.contains(to) {
                    let names: Vec<String> = options.iter().map(ToString::to_string).collect();
                    Err(grid_refusal(
                        50,
                        format!(
                            "counter {} may fall back to {} only: a square beside it without enemy counters, not where the winner came from",
                            id.number,
                            names.join(", ")
                        ),
                    ))
                } else {
                    Ok(())
                }
            }
            (step, _) => Err(grid_refusal(
                52,
                format!("the fight waits for {} (R50)", self.fight_step_words(step)),
            )),
        }
    }

    /// What the grid waits for from `side`, in words as `viewer` may read
    /// them (`None`: the referee): the example of an order names a counter of
    /// the writer's only to the writer (R57).
    pub(crate) fn grid_owed_words(&self, side: usize, viewer: Option<usize>) -> String {
        let Some(g) = self.grid() else {
            return String::new();
        };
        if let Some(fight) = &g.fight {
            // What the side that owes it owes, its name said before these.
            return match &fight.step {
                FightStep::Forces => {
                    "its forces for the fight: `forces 5 all`, then `commit` (R51)".to_owned()
                }
                FightStep::Cancel { most, .. } => {
                    format!("how many enemy dice it cancels, up to {most}: `cancel {most}` (R52)")
                }
                FightStep::Fallback { id, options } => format!(
                    "where counter {} falls back: `fallback {}` (R50)",
                    id.number,
                    options.first().map(ToString::to_string).unwrap_or_default()
                ),
            };
        }
        match &g.stage {
            Stage::Orders(orders) => {
                if viewer.is_some_and(|v| v != side) {
                    return "its orders for the ring, sealed (R47)".to_owned();
                }
                let unordered = orders[side]
                    .counters
                    .iter()
                    .find(|c| !orders[side].orders.contains_key(&c.id.number));
                match unordered {
                    Some(c) => format!(
                        "its orders for the ring: an order for each counter, as in `order {} hold`, then `commit`",
                        c.id.number
                    ),
                    None => "its orders for the ring: `commit` seals them".to_owned(),
                }
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
            let enemy = g.grid.enemy_of(s);
            let w = g.grid.writing(s, &enemy, scout_max_points);
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
            events.push(ring_event(event));
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
                events.push(ring_event(RingEvent::ForcesPicked {
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
                events.push(ring_event(RingEvent::ForcesSealed { side: s }));
                if fight.forces.iter().all(|f| f.committed) {
                    self.reveal_forces(events)?;
                    self.run_ring(events)?;
                }
                Ok(Some(Barrier::Reveal))
            }
            GridCommand::Cancel(n) => {
                let n = *n;
                events.push(ring_event(RingEvent::Cancelled { side: s, dice: n }));
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
                g.revealed.insert(c.id, (c.at, order, scout));
                if order == Order::Enter {
                    g.entering.insert(c.id);
                }
            }
        }
        g.grid.counters = orders.iter().flat_map(|o| o.counters.clone()).collect();
        g.grid.counters.sort_by_key(|c| c.id);
        let movement = Movement::start(&orders);
        g.stage = Stage::Moving(Box::new(movement));
        events.push(ring_event(RingEvent::OrdersRevealed { orders: all }));
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
                events.push(ring_event(RingEvent::Stepped { tick, moves }));
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
                    events.push(ring_event(RingEvent::RingMoved));
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
        events.push(ring_event(RingEvent::FightBegan {
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
        let rule = self.battle.switches.off_map.superior_numbers;
        let g = self.grid_mut();
        let fight = g.fight.as_deref_mut().expect("a fight");
        let mut forces = Vec::new();
        let mut points = [0u32; 2];
        for (side, points) in fight.forces.iter().zip(&mut points) {
            for c in &side.counters {
                let committed = side.committed(c.id.number).expect("in it");
                let scout = g.revealed.get(&c.id).is_some_and(|(_, _, scout)| *scout);
                if !scout {
                    *points += committed.points();
                }
                forces.push((c.id, committed, scout));
            }
        }
        events.push(ring_event(RingEvent::ForcesRevealed { forces, points }));
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
            self.battle.switches.off_map.superior_numbers,
            self.battle.switches.off_map.standoff,
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
                    scout: g.revealed.get(id).is_some_and(|(_, _, scout)| *scout),
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
        events.push(ring_event(RingEvent::Fought {
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
        events.push(ring_event(RingEvent::FellBack { id, to }));
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
            events.push(ring_event(RingEvent::Sighted {
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
                    (0..=*most).rev().map(GridCommand::Cancel).collect()
                }
                FightStep::Fallback { options, .. } => options
                    .iter()
                    .map(|sq| GridCommand::Fallback(*sq))
                    .collect(),
            };
        }
        match &g.stage {
            Stage::Orders(orders) => {
                let enemy = g.grid.enemy_of(s);
                let w = g.grid.writing(s, &enemy, self.offboard().scout_max_points);
                orders[s].legal(&w)
            }
            _ => Vec::new(),
        }
    }
}

/// A group's pieces as a counter holds them: never prisoners or unarmed
/// men (R43).
fn composition_of(group: &Group, flags: bool) -> Composition {
    Composition {
        infantry: group.armed.men.inf,
        cavalry: group.armed.men.cav,
        officers: group.armed.officers,
        cannon: group.cannon,
        baggage: group.baggage,
        flag: flags,
    }
}

impl Game {
    /// The armed men of a side's counter.
    pub(crate) fn ring_men(&self, side: Side, number: u16) -> Men {
        self.grid()
            .and_then(|g| {
                g.grid
                    .counters
                    .iter()
                    .find(|c| c.id.side == side.index() && c.id.number == number)
            })
            .map_or(Men::NONE, |c| Men::new(c.pieces.infantry, c.pieces.cavalry))
    }

    /// Checks an entry (R48): in the side's March phase, a counter ordered
    /// to enter this game turn comes onto a hex its square faces, where no
    /// enemy stands, within the hex's limits (R62).
    pub(crate) fn plan_enter(
        &self,
        number: u16,
        hex: Hex,
        pieces: Option<Composition>,
    ) -> Result<EnterPlan, CommandError> {
        self.in_phase(Phase::March, "entering the map")?;
        let side = self.state.active;
        let Some(g) = self.grid() else {
            return Err(no_grid());
        };
        let id = CounterId {
            side: side.index(),
            number,
        };
        let Some(c) = g.grid.counters.iter().find(|c| c.id == id) else {
            return Err(CommandError {
                ruling: 43,
                reason: format!("{} has no counter {number}", self.name(side)),
            });
        };
        if !g.entering.contains(&id) {
            return Err(CommandError {
                ruling: 48,
                reason: format!(
                    "counter {number} was not ordered to enter this game turn: only `order {number} enter`, written in the Orders phase, brings it on"
                ),
            });
        }
        if g.grid.ring.faces(c.at).is_empty() {
            return Err(CommandError {
                ruling: 48,
                reason: format!(
                    "counter {number} in {} is not beside the map: only a counter in an edge square enters",
                    c.at
                ),
            });
        }
        if !g.grid.ring.faces(c.at).contains(&hex) {
            let faced: Vec<String> = g
                .grid
                .ring
                .faces(c.at)
                .iter()
                .map(ToString::to_string)
                .collect();
            return Err(CommandError {
                ruling: 48,
                reason: format!(
                    "counter {number} in {} faces {}, not {hex}",
                    c.at,
                    faced.join(", ")
                ),
            });
        }
        let pieces = pieces.unwrap_or(c.pieces);
        if pieces.is_empty() {
            return Err(CommandError {
                ruling: 48,
                reason: "name what enters".to_owned(),
            });
        }
        if !c.pieces.holds(&pieces) {
            return Err(CommandError {
                ruling: 48,
                reason: format!(
                    "counter {number} does not hold all of that: it holds {}",
                    super::event::pieces_words(&c.pieces)
                ),
            });
        }
        if self.battle.impassable_at(self.battle.map.index(hex)) {
            return Err(CommandError {
                ruling: 69,
                reason: format!("{hex} is impassable: nothing enters it"),
            });
        }
        if self.stack(hex, side.other()).is_some() {
            return Err(CommandError {
                ruling: 48,
                reason: format!(
                    "{} stands in {hex}: a counter enters only where no enemy stands (no charging onto the board)",
                    self.name(side.other())
                ),
            });
        }
        let here = self.stack(hex, side);
        let items = u8::from(pieces.cannon) + u8::from(pieces.baggage) + self.state.items(hex);
        if items > 1 {
            return Err(CommandError {
                ruling: 62,
                reason: format!("a hex holds one cannon or baggage; {hex} would hold {items}"),
            });
        }
        let limit = if items > 0 { 10 } else { 20 };
        let men = here.map_or(0, |st| st.armed.men.total()) + pieces.infantry + pieces.cavalry;
        if men > limit {
            return Err(CommandError {
                ruling: 62,
                reason: format!(
                    "{hex} would hold {men} armed men, over its limit of {limit}: name what enters, the rest stays in the counter (R48)"
                ),
            });
        }
        if pieces.cannon && pieces.infantry + pieces.cavalry < super::counter::CREW {
            return Err(CommandError {
                ruling: 43,
                reason: "a cannon enters with its crew of 4 armed men".to_owned(),
            });
        }
        Ok(EnterPlan { id, hex, pieces })
    }

    /// Pieces of a counter come onto the map as their march for the turn,
    /// and may not attack this Melee phase (R48).
    pub(crate) fn enter(&mut self, plan: &EnterPlan, events: &mut Vec<Event>) {
        let side = self.state.active;
        let p = plan.pieces;
        let st = self.state.stack_mut(plan.hex, side);
        let band = Band {
            men: Men::new(p.infantry, p.cavalry),
            officers: p.officers,
        };
        st.armed = st.armed.plus(band);
        st.marks.marched = st.marks.marched.plus(band);
        if p.cannon {
            st.cannon = true;
            st.marks.cannon_marched = true;
        }
        if p.baggage {
            st.baggage = true;
            st.marks.baggage_marched = true;
        }
        if p.flag {
            st.flags += 1;
            st.marks.flag_hexes = 2;
        }
        let g = self.grid_mut();
        g.entered.insert(plan.hex);
        let i = g
            .grid
            .counters
            .iter()
            .position(|c| c.id == plan.id)
            .expect("checked");
        let left = super::orders::less(&g.grid.counters[i].pieces, &p);
        let emptied = left.is_empty();
        if emptied {
            g.grid.counters.remove(i);
            g.entering.remove(&plan.id);
        } else {
            g.grid.counters[i].pieces = left;
        }
        events.push(ring_event(RingEvent::Entered {
            id: plan.id,
            hex: plan.hex,
            pieces: p,
            emptied,
        }));
        let hex = plan.hex;
        if self.stack(hex, side.other()).is_some_and(Stack::capturable) {
            self.capture(hex, side, events);
        }
    }

    /// Checks a march off the map (R48): in the side's March phase, pieces
    /// free to march in an edge hex leave across that edge into the edge
    /// square facing it, named where a corner hex faces two.
    pub(crate) fn plan_march_off(
        &self,
        from: Hex,
        square: Option<Square>,
        pick: Option<Pick>,
    ) -> Result<MarchOffPlan, CommandError> {
        self.in_phase(Phase::March, "marching off the map")?;
        let side = self.state.active;
        let Some(g) = self.grid() else {
            return Err(no_grid());
        };
        let faces = g.grid.ring.edge_squares(from);
        let square = match (square, faces.as_slice()) {
            (_, []) => {
                return Err(CommandError {
                    ruling: 48,
                    reason: format!(
                        "{from} is not on the map's edge: only an edge hex marches off"
                    ),
                });
            }
            (None, [only]) => *only,
            (None, several) => {
                let names: Vec<String> = several.iter().map(ToString::to_string).collect();
                return Err(CommandError {
                    ruling: 48,
                    reason: format!(
                        "{from} is a corner hex facing {}: name the square, as in `march {from} off {}`",
                        names.join(" and "),
                        several[0]
                    ),
                });
            }
            (Some(sq), faced) if faced.contains(&sq) => sq,
            (Some(sq), faced) => {
                let names: Vec<String> = faced.iter().map(ToString::to_string).collect();
                return Err(CommandError {
                    ruling: 48,
                    reason: format!("{from} faces {}, not {sq}", names.join(" and ")),
                });
            }
        };
        let Some(st) = self.stack(from, side) else {
            return Err(CommandError {
                ruling: 69,
                reason: format!("{} has no pieces in {from}", self.name(side)),
            });
        };
        let pick = match pick {
            Some(p) if p.prisoners > 0 || p.unarmed > 0 => {
                return Err(CommandError {
                    ruling: 43,
                    reason: "prisoners and unarmed men never leave the map: a counter holds armed men, officers, cannon, baggage and flags".to_owned(),
                });
            }
            Some(p) => p,
            None => {
                // Everything that may march, prisoners and unarmed men
                // staying behind.
                let free = st.free();
                Pick {
                    men: free.men,
                    officers: free.officers,
                    cannon: free.cannon,
                    baggage: free.baggage,
                    flag: st.flags > 0,
                    ..Pick::default()
                }
            }
        };
        let group = self.march_group(side, from, st, Some(pick), &[])?;
        if group.armed.men.is_empty() {
            return Err(CommandError {
                ruling: 48,
                reason: "a formation marches off: armed men go with whatever leaves".to_owned(),
            });
        }
        if group.cannon && group.armed.men.total() < super::counter::CREW {
            return Err(CommandError {
                ruling: 43,
                reason: "a cannon leaves with its crew of 4 armed men".to_owned(),
            });
        }
        Ok(MarchOffPlan {
            from,
            square,
            group,
        })
    }

    /// Pieces leave the map and become a counter in the edge square, or
    /// join a friendly one there; enemy counters there, seen or not, are
    /// fought at once, the new counter moving (R48).
    pub(crate) fn march_off(&mut self, plan: &MarchOffPlan, events: &mut Vec<Event>) {
        let side = self.state.active;
        let s = side.index();
        let group = plan.group;
        let src = self.state.stack_mut(plan.from, side);
        src.armed = src.armed.minus(group.armed).expect("checked");
        if group.cannon {
            src.cannon = false;
        }
        if group.baggage {
            src.baggage = false;
        }
        let flags = if group.flag { src.flags } else { 0 };
        src.flags -= flags;
        self.state.tidy(plan.from, side);
        let pieces = composition_of(&group, flags > 0);
        let g = self.grid_mut();
        let friend = g
            .grid
            .counters
            .iter()
            .filter(|c| c.id.side == s && c.at == plan.square)
            .map(|c| c.id.number)
            .min();
        let (id, joined) = match friend {
            Some(number) => {
                let c = g
                    .grid
                    .counters
                    .iter_mut()
                    .find(|c| c.id.side == s && c.id.number == number)
                    .expect("found");
                c.pieces = super::orders::together(&c.pieces, &pieces);
                (c.id, true)
            }
            None => {
                let number = (1..=u16::MAX)
                    .find(|n| {
                        g.grid
                            .counters
                            .iter()
                            .all(|c| c.id.side != s || c.id.number != *n)
                    })
                    .expect("fewer counters than numbers");
                let id = CounterId { side: s, number };
                g.grid.counters.push(Counter {
                    id,
                    at: plan.square,
                    pieces,
                });
                g.grid.counters.sort_by_key(|c| c.id);
                (id, false)
            }
        };
        events.push(ring_event(RingEvent::MarchedOff {
            from: plan.from,
            id,
            square: plan.square,
            pieces,
            joined,
        }));
        let mut enemies: Vec<CounterId> = g
            .grid
            .counters
            .iter()
            .filter(|c| c.id.side != s && c.at == plan.square)
            .map(|c| c.id)
            .collect();
        if !enemies.is_empty() {
            enemies.push(id);
            enemies.sort_unstable();
            let from = enemies.iter().map(|e| (*e, plan.square)).collect();
            self.open_fight(
                Contest {
                    square: plan.square,
                    kind: Kind::Meet {
                        defender: Some(1 - s),
                    },
                    counters: enemies,
                },
                from,
                events,
            );
        }
    }

    /// Checks a shot at a counter (R56): in the side's Cannonade, a cannon
    /// free to fire, with its crew, at an enemy counter in an edge square
    /// its side sees, within range less the step off the map.
    pub(crate) fn plan_fire_at_counter(
        &self,
        cannon: Hex,
        square: Square,
        number: u16,
        crew: Option<Men>,
    ) -> Result<CounterFirePlan, CommandError> {
        self.in_phase(Phase::Cannonade, "cannon fire")?;
        let side = self.state.active;
        let Some(g) = self.grid() else {
            return Err(no_grid());
        };
        let crew = self.crew_for(side, cannon, crew)?;
        let id = CounterId {
            side: side.other().index(),
            number,
        };
        let located = g
            .grid
            .counters
            .iter()
            .find(|c| c.id == id && c.at == square && g.grid.located_by(side.index(), c));
        let Some(c) = located else {
            // Said the same whether or not it stands there unseen (R57).
            return Err(CommandError {
                ruling: 56,
                reason: format!(
                    "your side sees no counter {number} of {} in {square}",
                    self.name(side.other())
                ),
            });
        };
        let target_men = c.pieces.infantry + c.pieces.cavalry;
        let shot = plan_shot(
            &g.grid.ring,
            cannon,
            square,
            &g.grid.seen_from_map[side.index()],
            self.battle.switches.cannon_range,
            target_men,
        )
        .map_err(|e| refusal(e.to_string()))?;
        Ok(CounterFirePlan {
            cannon,
            id,
            square,
            crew,
            target_men,
            shot,
        })
    }

    /// The cannon fires at the counter: its owner names who dies; victory
    /// points as R81 (R56, R67).
    pub(crate) fn fire_at_counter(
        &mut self,
        plan: &CounterFirePlan,
        roll: u8,
        events: &mut Vec<Event>,
    ) {
        let side = self.state.active;
        let st = self.state.stack_mut(plan.cannon, side);
        st.marks.fired = true;
        st.marks.crew = plan.crew;
        let modifier = plan.shot.modifier();
        let n = crate::tables::casualties(roll, modifier, plan.target_men);
        events.push(ring_event(RingEvent::ShotAt {
            cannon: plan.cannon,
            square: plan.square,
            id: plan.id,
            roll,
            modifier,
            casualties: n,
        }));
        if n > 0 {
            self.state.steps.push_back(Step::LoseInRing {
                side: side.other(),
                counter: plan.id.number,
                count: n,
            });
        }
    }

    /// Checks the owner's choice of a counter's dead (R56, R67).
    pub(crate) fn plan_lose_in_ring(&self, number: u16, men: Men) -> Result<(), CommandError> {
        let Some(Step::LoseInRing {
            side,
            counter,
            count,
        }) = self.state.steps.front()
        else {
            return Err(CommandError {
                ruling: 56,
                reason: "no counter's losses are owed".to_owned(),
            });
        };
        if *counter != number {
            return Err(CommandError {
                ruling: 56,
                reason: format!("the losses are counter {counter}'s, not counter {number}'s"),
            });
        }
        let pool = self.ring_men(*side, number);
        let want = (*count).min(pool.total());
        if men.total() != want {
            return Err(CommandError {
                ruling: 67,
                reason: format!("counter {number} loses {want} men, not {}", men.total()),
            });
        }
        if !pool.covers(men) {
            return Err(CommandError {
                ruling: 67,
                reason: format!("counter {number} has {pool}, not {men}"),
            });
        }
        Ok(())
    }

    /// Kills `men` of a counter; an empty counter leaves the ring.
    pub(crate) fn kill_in_ring(
        &mut self,
        side: Side,
        number: u16,
        men: Men,
        events: &mut Vec<Event>,
    ) {
        let g = self.grid_mut();
        let Some(i) = g
            .grid
            .counters
            .iter()
            .position(|c| c.id.side == side.index() && c.id.number == number)
        else {
            return;
        };
        let c = &mut g.grid.counters[i];
        c.pieces.infantry -= men.inf;
        c.pieces.cavalry -= men.cav;
        let officers = if c.pieces.infantry + c.pieces.cavalry == 0 {
            std::mem::take(&mut c.pieces.officers)
        } else {
            0
        };
        let id = c.id;
        let emptied = c.pieces.is_empty();
        if emptied {
            g.grid.counters.remove(i);
            g.entering.remove(&id);
        }
        events.push(ring_event(RingEvent::CounterLost { id, men, emptied }));
        self.state.vp[side.other().index()] += u32::from(men.total()) + 3 * u32::from(officers);
    }
}

impl Game {
    /// The side's commands between the map and the ring in this phase (R48,
    /// R56): in the Cannonade each ready cannon's shot at each enemy
    /// counter it may reach; in the March each entry of a whole counter
    /// onto each hex it faces, and each march off of everything that may
    /// go from each edge hex into each square it faces.
    pub(crate) fn ring_commands_into(&self, side: Side, out: &mut Vec<Legal<Command>>) {
        let Some(g) = self.grid() else {
            return;
        };
        let mut push = |game: &Game, command: Command, piece: Option<Hex>, at: Option<Hex>| {
            if game.plan(side, &command).is_ok() {
                out.push(Legal {
                    command,
                    cost: 0,
                    piece: piece.map(Hex::spot),
                    at: at.map(Hex::spot),
                });
            }
        };
        match self.state.phase {
            Phase::Cannonade => {
                let cannon: Vec<Hex> = self
                    .stacks()
                    .iter()
                    .filter(|st| st.side == side && st.cannon && !st.marks.fired)
                    .map(|st| st.hex)
                    .collect();
                for hex in cannon {
                    for c in g.grid.counters.iter().filter(|c| {
                        c.id.side != side.index()
                            && g.grid.seen_from_map[side.index()].contains(&c.at)
                    }) {
                        push(
                            self,
                            Command::FireAtCounter {
                                cannon: hex,
                                square: c.at,
                                counter: c.id.number,
                                crew: None,
                            },
                            Some(hex),
                            None,
                        );
                    }
                }
            }
            Phase::March => {
                for c in g
                    .grid
                    .counters
                    .iter()
                    .filter(|c| g.entering.contains(&c.id) && c.id.side == side.index())
                {
                    for hex in g.grid.ring.faces(c.at) {
                        let whole = Command::Enter {
                            counter: c.id.number,
                            hex,
                            pieces: None,
                        };
                        let listed = self.ring_listed_as(&whole).unwrap_or(whole);
                        push(self, listed, None, Some(hex));
                    }
                }
                let edge: Vec<Hex> = self
                    .stacks()
                    .iter()
                    .filter(|st| st.side == side && st.is_formation())
                    .map(|st| st.hex)
                    .filter(|hex| !g.grid.ring.edge_squares(*hex).is_empty())
                    .collect();
                for hex in edge {
                    for sq in g.grid.ring.edge_squares(hex) {
                        push(
                            self,
                            Command::MarchOff {
                                from: hex,
                                square: Some(sq),
                                pick: None,
                            },
                            Some(hex),
                            None,
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

impl Game {
    /// The listed command of a command of the grid's family, or `None` for
    /// a command listed one by one: a split's family is its counter's
    /// splits, forces are listed as `all`, an entry's family is its
    /// counter and hex (the whole counter, or as many men as fit), a march
    /// off's is its hex and square (everything that may go), and a shot at
    /// a counter with a named crew is of the shot with the crew the rules
    /// would mark.
    pub(crate) fn ring_listed_as(&self, command: &Command) -> Option<Command> {
        let g = self.grid()?;
        match *command {
            Command::Grid(GridCommand::Split { counter, .. }) => {
                let Stage::Orders(orders) = &g.stage else {
                    return None;
                };
                let s = g.decider()?;
                let enemy = g.grid.enemy_of(s);
                let w = g.grid.writing(s, &enemy, self.offboard().scout_max_points);
                orders[s].split_rep(&w, counter).map(Command::Grid)
            }
            Command::Grid(GridCommand::Forces { counter, .. }) => {
                Some(Command::Grid(GridCommand::Forces {
                    counter,
                    pieces: None,
                }))
            }
            Command::Enter { counter, hex, .. } => {
                let whole = Command::Enter {
                    counter,
                    hex,
                    pieces: None,
                };
                if self.plan(self.state.active, &whole).is_ok() {
                    return Some(whole);
                }
                self.enter_fitting(counter, hex)
            }
            Command::MarchOff { from, square, .. } => {
                let square = square.or_else(|| g.grid.ring.edge_squares(from).first().copied());
                Some(Command::MarchOff {
                    from,
                    square,
                    pick: None,
                })
            }
            Command::FireAtCounter {
                cannon,
                square,
                counter,
                ..
            } => Some(Command::FireAtCounter {
                cannon,
                square,
                counter,
                crew: None,
            }),
            _ => None,
        }
    }

    /// The entry of as many of a counter's men as fit in `hex`, infantry
    /// first, with its officers (R48, R62), where that may be played.
    fn enter_fitting(&self, counter: u16, hex: Hex) -> Option<Command> {
        let side = self.state.active;
        let c = self
            .grid()?
            .grid
            .counters
            .iter()
            .find(|c| c.id.side == side.index() && c.id.number == counter)?;
        let limit = if self.state.items(hex) > 0 { 10 } else { 20 };
        let room = limit
            - self
                .stack(hex, side)
                .map_or(0, |st| st.armed.men.total())
                .min(limit);
        let men = Men::new(c.pieces.infantry, c.pieces.cavalry)
            .take_infantry_first(room.min(c.pieces.infantry + c.pieces.cavalry));
        let command = Command::Enter {
            counter,
            hex,
            pieces: Some(Composition {
                infantry: men.inf,
                cavalry: men.cav,
                officers: c.pieces.officers,
                ..Composition::default()
            }),
        };
        self.plan(side, &command).is_ok().then_some(command)
    }
}

/// The refusal of a grid command in a battle without the grid.
fn no_grid() -> CommandError {
    CommandError {
        ruling: 40,
        reason: "this battle has no off-board grid".to_owned(),
    }
}

/// A refusal of the grid's own, with its ruling.
fn grid_refusal(ruling: u16, reason: String) -> CommandError {
    CommandError { ruling, reason }
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
