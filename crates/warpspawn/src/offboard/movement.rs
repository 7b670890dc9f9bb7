//! The ring's movement once both sides have committed their orders (R49):
//! tick after tick every counter with a path takes its next step; each
//! tick's contests are fought in order before the next tick; a counter
//! that fought stops for the rest of the phase.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::command::Order;
use super::counter::Counter;
use super::orders::Orders;
use super::ring::Square;
use super::ticks::{Contest, CounterId, Step, contests};

/// A tick of the ring's movement, for the log: its number from 1 and the
/// counters that stepped, each from and to.
pub type Tick = (usize, Vec<(CounterId, Square, Square)>);

/// The ring moving through the ticks of one Orders phase.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Movement {
    /// Every counter of both sides, where it stands now.
    pub counters: Vec<Counter>,
    /// The steps each counter has still to take.
    paths: BTreeMap<CounterId, VecDeque<Square>>,
    /// Where each counter stood at the start of the tick being fought.
    started: BTreeMap<CounterId, Square>,
    /// Counters that fought: they stop for the rest of the phase.
    fought: BTreeSet<CounterId>,
    /// The tick's contests still to fight, in order.
    pending: VecDeque<Contest>,
    /// Ticks taken.
    pub tick: usize,
    /// Each tick's steps not yet read by [`Movement::take_log`]: the tick
    /// and the counters that stepped, from and to.
    log: Vec<Tick>,
}

impl Movement {
    /// Both sides' committed orders, ready to move: paths are walked; a
    /// counter that holds or enters stays in its square. Opposing counters
    /// that stand in one square as the phase begins (a beaten counter sent
    /// back, last phase, to a square an enemy had entered) fight first,
    /// neither defending (R49).
    pub fn start(orders: &[Orders; 2]) -> Movement {
        let mut counters = Vec::new();
        let mut paths = BTreeMap::new();
        for side in orders {
            for c in &side.counters {
                counters.push(*c);
                if let Some((Order::Path(path), _)) = side.orders.get(&c.id.number) {
                    paths.insert(c.id, path.iter().copied().collect());
                }
            }
        }
        let standing: Vec<Step> = counters
            .iter()
            .map(|c| Step {
                id: c.id,
                from: c.at,
                to: c.at,
            })
            .collect();
        let started = counters.iter().map(|c| (c.id, c.at)).collect();
        Movement {
            counters,
            paths,
            started,
            fought: BTreeSet::new(),
            pending: contests(&standing).into(),
            tick: 0,
            log: Vec::new(),
        }
    }

    /// A word for a state hash: the steps still to take and who fought.
    pub fn hash_word(&self) -> u64 {
        let mut word = self.tick as u64;
        for (id, path) in &self.paths {
            for sq in path {
                word = word.wrapping_mul(1_000_003).wrapping_add(
                    id.side as u64
                        ^ u64::from(id.number) << 8
                        ^ u64::from(sq.col) << 24
                        ^ u64::from(sq.row) << 40,
                );
            }
        }
        for id in &self.fought {
            word = word
                .wrapping_mul(1_000_033)
                .wrapping_add(id.side as u64 ^ u64::from(id.number) << 8);
        }
        word
    }

    /// Where a counter stood at the start of the tick being fought.
    pub fn started(&self, id: CounterId) -> Option<Square> {
        self.started.get(&id).copied()
    }

    /// Whether a counter has fought this phase.
    pub fn has_fought(&self, id: CounterId) -> bool {
        self.fought.contains(&id)
    }

    /// The next contest to fight, running ticks until one comes; `None`
    /// once every path is walked without one. A contest whose counters of
    /// one side have all fought already this tick is passed over.
    pub fn next_contest(&mut self) -> Option<Contest> {
        loop {
            while let Some(mut contest) = self.pending.pop_front() {
                contest.counters.retain(|id| !self.fought.contains(id));
                let sides: BTreeSet<usize> = contest.counters.iter().map(|id| id.side).collect();
                if sides.len() == 2 {
                    for id in &contest.counters {
                        self.fought.insert(*id);
                        self.paths.remove(id);
                    }
                    return Some(contest);
                }
            }
            if self.paths.values().all(VecDeque::is_empty) {
                return None;
            }
            self.step();
        }
    }

    /// One tick: every counter with a step left takes it, all at once, and
    /// the tick's contests wait to be fought.
    fn step(&mut self) {
        self.tick += 1;
        let mut steps = Vec::with_capacity(self.counters.len());
        self.started.clear();
        for c in &mut self.counters {
            let from = c.at;
            self.started.insert(c.id, from);
            if let Some(next) = self.paths.get_mut(&c.id).and_then(VecDeque::pop_front) {
                c.at = next;
            }
            steps.push(Step {
                id: c.id,
                from,
                to: c.at,
            });
        }
        self.pending = contests(&steps).into();
        let moved: Vec<(CounterId, Square, Square)> = steps
            .iter()
            .filter(|s| s.from != s.to)
            .map(|s| (s.id, s.from, s.to))
            .collect();
        if !moved.is_empty() {
            self.log.push((self.tick, moved));
        }
    }

    /// The ticks taken since last asked, each with the counters that
    /// stepped, from and to.
    pub fn take_log(&mut self) -> Vec<Tick> {
        std::mem::take(&mut self.log)
    }

    /// Drops the steps a counter has still to take: for a bot's copy, in
    /// which a counter its side does not locate stands where it was dealt
    /// (R57).
    pub fn halt(&mut self, id: CounterId) {
        self.paths.remove(&id);
    }

    /// Whether a movement read back stands on `ring`: its counters, paths,
    /// starts and contests on its squares, of the two sides.
    pub(crate) fn fits(&self, ring: &super::ring::Ring) -> bool {
        let held = |sq: &Square| ring.holds(*sq);
        let id_ok = |id: &CounterId| id.side < 2;
        self.counters.iter().all(|c| id_ok(&c.id) && held(&c.at))
            && self
                .paths
                .iter()
                .all(|(id, p)| id_ok(id) && p.iter().all(held))
            && self.started.iter().all(|(id, sq)| id_ok(id) && held(sq))
            && self.fought.iter().all(id_ok)
            && self
                .pending
                .iter()
                .all(|c| held(&c.square) && c.counters.iter().all(id_ok))
            && self.log.iter().all(|(_, moves)| {
                moves
                    .iter()
                    .all(|(id, a, b)| id_ok(id) && held(a) && held(b))
            })
    }

    /// Stands a counter at `at` with no steps left, as if it had started
    /// the tick there: for a masked copy, in which a counter its viewer
    /// does not locate stands in a square of the viewer's view (R57).
    pub fn hide(&mut self, id: CounterId, at: Square) {
        self.paths.remove(&id);
        self.place(id, at);
        if let Some(from) = self.started.get_mut(&id) {
            *from = at;
        }
    }

    /// Puts every counter where `counters` has it, by its side and number.
    pub fn place_all(&mut self, counters: &[Counter]) {
        for c in &mut self.counters {
            if let Some(dealt) = counters.iter().find(|d| d.id == c.id) {
                *c = *dealt;
            }
        }
    }

    /// Puts a counter where a fight sent it (R50): back to where it started
    /// the tick, or the square its owner picked to fall back to.
    pub fn place(&mut self, id: CounterId, at: Square) {
        if let Some(c) = self.counters.iter_mut().find(|c| c.id == id) {
            c.at = at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::counter::Composition;
    use super::super::fixtures::{ring, sq};
    use super::super::orders::Writing;
    use super::super::ticks::Kind;
    use super::*;

    fn counter(side: usize, number: u16, at: &str, cavalry: u16) -> Counter {
        Counter {
            id: CounterId { side, number },
            at: sq(at),
            pieces: Composition {
                cavalry,
                ..Composition::default()
            },
        }
    }

    fn id(side: usize, number: u16) -> CounterId {
        CounterId { side, number }
    }

    /// Both sides' orders, written and committed.
    fn orders(red: &[(Counter, &str)], blue: &[(Counter, &str)]) -> [Orders; 2] {
        let ring = ring();
        let none = BTreeSet::new();
        let w = Writing {
            ring: &ring,
            reserve: &none,
            enemy: &none,
            scout_max_points: 9,
        };
        let write = |side: usize, list: &[(Counter, &str)]| {
            let mut o = Orders::new(side, list.iter().map(|(c, _)| *c).collect());
            for (c, order) in list {
                let text = format!("order {} {order}", c.id.number);
                o.apply(&w, &text.parse().expect("an order"))
                    .expect("a legal order");
            }
            o.apply(&w, &"commit".parse().expect("commit"))
                .expect("commit");
            o
        };
        [write(0, red), write(1, blue)]
    }

    #[test]
    fn r49_opposing_counters_sharing_a_square_fight_before_the_first_tick() {
        // Red 1 was sent back last phase to 1F, where Blue 1 stands.
        let o = orders(
            &[(counter(0, 1, "1F", 6), "1E")],
            &[(counter(1, 1, "1F", 6), "hold")],
        );
        let mut m = Movement::start(&o);
        let fight = m.next_contest().expect("a standing fight");
        assert_eq!(m.tick, 0, "before any step");
        assert_eq!(fight.square, sq("1F"));
        assert_eq!(fight.kind, Kind::Meet { defender: None });
        // Both fought: Red's path is dropped, and nothing else meets.
        assert_eq!(m.next_contest(), None);
        assert_eq!(m.counters[0].at, sq("1F"));
    }

    #[test]
    fn r49_paths_are_walked_a_tick_at_a_time_until_they_meet() {
        // Red's horse rides 1D to 1F; Blue's rides 1H to 1F: they meet in
        // 1F at the second tick, both moving.
        let o = orders(
            &[(counter(0, 1, "1D", 6), "1E 1F")],
            &[(counter(1, 1, "1H", 6), "1G 1F")],
        );
        let mut m = Movement::start(&o);
        let fight = m.next_contest().expect("a meeting");
        assert_eq!(m.tick, 2);
        assert_eq!(fight.square, sq("1F"));
        assert_eq!(fight.kind, Kind::Meet { defender: None });
        assert_eq!(m.started(id(0, 1)), Some(sq("1E")));
        assert!(m.has_fought(id(0, 1)) && m.has_fought(id(1, 1)));
        // Red lost and goes back where it started the tick.
        m.place(id(0, 1), sq("1E"));
        assert_eq!(m.next_contest(), None);
        assert_eq!(m.counters[0].at, sq("1E"));
        assert_eq!(m.counters[1].at, sq("1F"));
    }

    #[test]
    fn r49_a_counter_that_fought_stops_for_the_rest_of_the_phase() {
        // Red's horse would ride on to 1G after fighting in 1F at the first
        // tick; having fought, it stops.
        let o = orders(
            &[(counter(0, 1, "1E", 6), "1F 1G")],
            &[(counter(1, 1, "1F", 6), "hold")],
        );
        let mut m = Movement::start(&o);
        let fight = m.next_contest().expect("a fight in 1F");
        assert_eq!(fight.kind, Kind::Meet { defender: Some(1) });
        assert_eq!(m.tick, 1);
        // Red won: it holds 1F, and goes no further.
        m.place(id(1, 1), sq("2F"));
        assert_eq!(m.next_contest(), None);
        assert_eq!(m.counters[0].at, sq("1F"));
    }

    #[test]
    fn r49_fights_of_one_tick_come_in_order_and_no_counter_fights_twice() {
        // Two meetings at the first tick, in 1B and 1E: 1B first.
        let o = orders(
            &[
                (counter(0, 1, "1D", 6), "1E"),
                (counter(0, 2, "1A", 6), "1B"),
            ],
            &[
                (counter(1, 1, "1E", 6), "hold"),
                (counter(1, 2, "1B", 6), "hold"),
            ],
        );
        let mut m = Movement::start(&o);
        let first = m.next_contest().expect("a fight");
        let second = m.next_contest().expect("another");
        assert_eq!((first.square, second.square), (sq("1B"), sq("1E")));
        assert_eq!(m.tick, 1, "both fought before any further tick");
        assert_eq!(m.next_contest(), None);
    }
}
