//! One side's orders in the Orders phase (R45, R47, R48, R54): written in
//! secret over the side's own copy of its counters (a split makes a new
//! counter, a merge joins two), each counter ordered once, split or merged
//! at most once, until the side commits. What the other side may see of
//! them is decided when both have committed.

use std::collections::{BTreeMap, BTreeSet};

use super::command::{GridCommand, MAX_PATH, Order, Path};
use super::counter::{CREW, Composition, Counter};
use super::moves::{PathError, check_path};
use super::ring::{Place, Ring, Square};
use super::ticks::CounterId;

/// What the writer's side knows when it writes (R57): the ring, its own
/// reserve, the squares it sees held by the enemy, and the scenario's
/// most points for a scout.
#[derive(Debug, Clone, Copy)]
pub struct Writing<'a> {
    /// The ring.
    pub ring: &'a Ring,
    /// The side's own reserve squares (R42).
    pub reserve: &'a BTreeSet<Square>,
    /// Squares the side sees holding enemy counters (R49, R57).
    pub enemy: &'a BTreeSet<Square>,
    /// The most points a scout may have (R54).
    pub scout_max_points: u32,
}

/// Why an order is refused. Each names its ruling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrderError {
    /// The side has committed its orders (R47).
    Committed,
    /// The side has no counter of that number.
    NoCounter(u16),
    /// The counter has its order already: one a phase (R47).
    Ordered(u16),
    /// The counter was split or merged this phase already (R45).
    Reshaped(u16),
    /// The path breaks R41, R44 or R49.
    Path(PathError),
    /// `enter` from a square that is not an edge square (R48).
    NotAtTheEdge(Square),
    /// `scout` on a counter of more points than a scout may have (R54).
    TooStrongToScout {
        /// Its points.
        points: u32,
        /// The most a scout may have.
        most: u32,
    },
    /// A split that takes pieces the counter lacks, all of them, or
    /// none (R45).
    BadSplit(String),
    /// A merge of counters in different squares (R45).
    Apart(u16, u16),
    /// A command of the fights, not of the Orders phase.
    NotAnOrder,
}

impl std::fmt::Display for OrderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OrderError::Committed => {
                write!(
                    f,
                    "your orders are committed: they are sealed until both sides have (R47)"
                )
            }
            OrderError::NoCounter(n) => write!(f, "you have no counter {n} (R43)"),
            OrderError::Ordered(n) => {
                write!(
                    f,
                    "counter {n} has its order: a counter is ordered once a phase (R47)"
                )
            }
            OrderError::Reshaped(n) => write!(
                f,
                "counter {n} was split or merged this phase: once a phase (R45)"
            ),
            OrderError::Path(e) => write!(f, "{e}"),
            OrderError::NotAtTheEdge(sq) => write!(
                f,
                "{sq} is not an edge square: only a counter beside the map enters it (R48)"
            ),
            OrderError::TooStrongToScout { points, most } => write!(
                f,
                "a scout has at most {most} points; this counter has {points} (R54)"
            ),
            OrderError::BadSplit(why) => write!(f, "{why} (R45)"),
            OrderError::Apart(a, b) => write!(
                f,
                "counters {a} and {b} stand in different squares: only counters in one square merge (R45)"
            ),
            OrderError::NotAnOrder => {
                write!(f, "that command is a fight's, not an order (R47, R51)")
            }
        }
    }
}

impl std::error::Error for OrderError {}

/// What an order did, for the log of the side that wrote it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Written {
    /// The counter has its order.
    Ordered(u16),
    /// A split made a new counter, with the lowest free number (R45).
    Split {
        /// The counter split.
        from: u16,
        /// The new counter's number.
        new: u16,
    },
    /// A counter joined another.
    Merged {
        /// The counter that stays.
        into: u16,
        /// The counter that joined it.
        joined: u16,
    },
    /// The side's orders are sealed.
    Committed,
}

/// One side's orders being written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Orders {
    /// The side.
    pub side: usize,
    /// The side's counters, as split and merged this phase.
    pub counters: Vec<Counter>,
    /// Each counter's order and whether it scouts.
    pub orders: BTreeMap<u16, (Order, bool)>,
    /// Counters split or merged this phase, the new ones too.
    reshaped: BTreeSet<u16>,
    /// The side has committed.
    pub committed: bool,
}

/// `whole` less `part`.
pub(crate) fn less(whole: &Composition, part: &Composition) -> Composition {
    Composition {
        infantry: whole.infantry - part.infantry,
        cavalry: whole.cavalry - part.cavalry,
        officers: whole.officers - part.officers,
        cannon: whole.cannon && !part.cannon,
        baggage: whole.baggage && !part.baggage,
        flag: whole.flag && !part.flag,
    }
}

/// `a` and `b` together.
pub(crate) fn together(a: &Composition, b: &Composition) -> Composition {
    Composition {
        infantry: a.infantry.saturating_add(b.infantry),
        cavalry: a.cavalry.saturating_add(b.cavalry),
        officers: a.officers.saturating_add(b.officers),
        cannon: a.cannon || b.cannon,
        baggage: a.baggage || b.baggage,
        flag: a.flag || b.flag,
    }
}

/// A cannon goes with its crew (R43): whether `p` has one without four
/// armed men.
fn uncrewed(p: &Composition) -> bool {
    p.cannon && p.infantry + p.cavalry < CREW
}

impl Orders {
    /// Whether orders read back are a side's, on `ring`'s squares.
    pub(crate) fn fits(&self, ring: &super::ring::Ring) -> bool {
        self.side < 2
            && self
                .counters
                .iter()
                .all(|c| c.id.side == self.side && ring.holds(c.at))
            && self.orders.values().all(|(o, _)| o.fits(ring))
    }

    /// A side's orders at the start of the Orders phase.
    pub fn new(side: usize, counters: Vec<Counter>) -> Orders {
        Orders {
            side,
            counters,
            orders: BTreeMap::new(),
            reshaped: BTreeSet::new(),
            committed: false,
        }
    }

    fn counter(&self, number: u16) -> Result<&Counter, OrderError> {
        self.counters
            .iter()
            .find(|c| c.id.number == number)
            .ok_or(OrderError::NoCounter(number))
    }

    /// Whether `command` may be written now, and why not.
    pub fn check(&self, w: &Writing<'_>, command: &GridCommand) -> Result<(), OrderError> {
        if self.committed {
            return Err(OrderError::Committed);
        }
        match command {
            GridCommand::Order {
                counter,
                order,
                scout,
            } => {
                let c = self.counter(*counter)?;
                if self.orders.contains_key(counter) {
                    return Err(OrderError::Ordered(*counter));
                }
                match order {
                    Order::Hold => {}
                    Order::Enter => {
                        if !matches!(w.ring.place(c.at), Some(Place::Edge(_))) {
                            return Err(OrderError::NotAtTheEdge(c.at));
                        }
                    }
                    Order::Path(path) => {
                        check_path(w.ring, &c.pieces, c.at, path, w.reserve, w.enemy)
                            .map_err(OrderError::Path)?;
                    }
                }
                if *scout && !c.pieces.may_scout(w.scout_max_points) {
                    return Err(OrderError::TooStrongToScout {
                        points: c.pieces.points(),
                        most: w.scout_max_points,
                    });
                }
                Ok(())
            }
            GridCommand::Split { counter, pieces } => {
                let c = self.counter(*counter)?;
                if self.orders.contains_key(counter) {
                    return Err(OrderError::Ordered(*counter));
                }
                if self.reshaped.contains(counter) {
                    return Err(OrderError::Reshaped(*counter));
                }
                if !c.pieces.holds(pieces) {
                    return Err(OrderError::BadSplit(format!(
                        "counter {counter} does not hold all of that"
                    )));
                }
                let rest = less(&c.pieces, pieces);
                if rest.is_empty() {
                    return Err(OrderError::BadSplit(format!(
                        "that is all of counter {counter}: a split leaves something behind"
                    )));
                }
                if uncrewed(pieces) || uncrewed(&rest) {
                    return Err(OrderError::BadSplit(format!(
                        "a cannon goes with its crew of {CREW} armed men"
                    )));
                }
                Ok(())
            }
            GridCommand::Merge { counter, joining } => {
                let (a, b) = (self.counter(*counter)?, self.counter(*joining)?);
                for n in [counter, joining] {
                    if self.orders.contains_key(n) {
                        return Err(OrderError::Ordered(*n));
                    }
                    if self.reshaped.contains(n) {
                        return Err(OrderError::Reshaped(*n));
                    }
                }
                if a.at != b.at {
                    return Err(OrderError::Apart(*counter, *joining));
                }
                Ok(())
            }
            GridCommand::Commit => Ok(()),
            _ => Err(OrderError::NotAnOrder),
        }
    }

    /// Writes `command`, after [`Orders::check`]; changes nothing when it
    /// is refused.
    pub fn apply(&mut self, w: &Writing<'_>, command: &GridCommand) -> Result<Written, OrderError> {
        self.check(w, command)?;
        Ok(match command {
            GridCommand::Order {
                counter,
                order,
                scout,
            } => {
                self.orders.insert(*counter, (*order, *scout));
                Written::Ordered(*counter)
            }
            GridCommand::Split { counter, pieces } => {
                let new = (1..=u16::MAX)
                    .find(|n| self.counters.iter().all(|c| c.id.number != *n))
                    .expect("fewer counters than numbers");
                let i = self
                    .counters
                    .iter()
                    .position(|c| c.id.number == *counter)
                    .expect("checked");
                let at = self.counters[i].at;
                self.counters[i].pieces = less(&self.counters[i].pieces, pieces);
                self.counters.push(Counter {
                    id: CounterId {
                        side: self.side,
                        number: new,
                    },
                    at,
                    pieces: *pieces,
                });
                self.reshaped.extend([*counter, new]);
                Written::Split {
                    from: *counter,
                    new,
                }
            }
            GridCommand::Merge { counter, joining } => {
                let j = self
                    .counters
                    .iter()
                    .position(|c| c.id.number == *joining)
                    .expect("checked");
                let joined = self.counters.remove(j);
                let into = self
                    .counters
                    .iter_mut()
                    .find(|c| c.id.number == *counter)
                    .expect("checked");
                into.pieces = together(&into.pieces, &joined.pieces);
                self.reshaped.insert(*counter);
                Written::Merged {
                    into: *counter,
                    joined: *joining,
                }
            }
            GridCommand::Commit => {
                self.committed = true;
                Written::Committed
            }
            _ => unreachable!("refused by check"),
        })
    }

    /// The listed split of a counter, its family's one (every split of
    /// the counter is of it): one man or officer off, infantry first.
    pub fn split_rep(&self, w: &Writing<'_>, counter: u16) -> Option<GridCommand> {
        [
            Composition {
                infantry: 1,
                ..Composition::default()
            },
            Composition {
                cavalry: 1,
                ..Composition::default()
            },
            Composition {
                officers: 1,
                ..Composition::default()
            },
        ]
        .into_iter()
        .map(|pieces| GridCommand::Split { counter, pieces })
        .find(|c| self.check(w, c).is_ok())
    }

    /// The orders the side may write now, a counter at a time: for each
    /// counter without an order, `hold`, `enter` beside the map, every path
    /// it may take, each with `scout` where it may; a split of each counter
    /// (one a family: [`Orders::split_rep`]); each merge; and `commit`
    /// (counters left without an order hold).
    pub fn legal(&self, w: &Writing<'_>) -> Vec<GridCommand> {
        if self.committed {
            return Vec::new();
        }
        let mut out = Vec::new();
        for c in &self.counters {
            if self.orders.contains_key(&c.id.number) {
                continue;
            }
            let mut orders = vec![Order::Hold];
            if matches!(w.ring.place(c.at), Some(Place::Edge(_))) {
                orders.push(Order::Enter);
            }
            // Every path by the ring's steps that the counter's rate allows,
            // grown a step at a time and judged as `check_path` judges it
            // (R44, R49): a path too long for its rate has no longer one
            // that is not, and nothing goes on from an enemy-held square.
            let behind = w.reserve.contains(&c.at);
            let mut frontier: Vec<(Option<Path>, bool)> = vec![(None, behind)];
            for len in 1..=MAX_PATH {
                let mut next = Vec::new();
                for (path, behind) in &frontier {
                    let (squares, last) = match path {
                        Some(p) => (p.as_slice(), *p.last().expect("a path has a square")),
                        None => (&[][..], c.at),
                    };
                    if path.is_some() && w.enemy.contains(&last) {
                        continue;
                    }
                    for step in w.ring.neighbours(last) {
                        let behind = *behind && w.reserve.contains(&step);
                        if len > usize::from(c.pieces.rate(behind)) {
                            continue;
                        }
                        let mut longer = [Square::default(); MAX_PATH];
                        longer[..squares.len()].copy_from_slice(squares);
                        longer[squares.len()] = step;
                        let longer =
                            Path::from_slice(&longer[..len]).expect("one to three squares");
                        orders.push(Order::Path(longer));
                        next.push((Some(longer), behind));
                    }
                }
                frontier = next;
            }
            // Whether it may scout is its pieces' alone (R54).
            let scouts = c.pieces.may_scout(w.scout_max_points);
            for order in orders {
                for scout in [false, true] {
                    if scout && !scouts {
                        continue;
                    }
                    out.push(GridCommand::Order {
                        counter: c.id.number,
                        order,
                        scout,
                    });
                }
            }
        }
        for c in &self.counters {
            out.extend(self.split_rep(w, c.id.number));
            for other in self.counters.iter().filter(|o| o.id.number > c.id.number) {
                let merge = GridCommand::Merge {
                    counter: c.id.number,
                    joining: other.id.number,
                };
                if self.check(w, &merge).is_ok() {
                    out.push(merge);
                }
            }
        }
        out.push(GridCommand::Commit);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{ring, sq};
    use super::*;
    use crate::hex::Edge;

    fn counter(number: u16, at: &str, infantry: u16, cavalry: u16) -> Counter {
        Counter {
            id: CounterId { side: 0, number },
            at: sq(at),
            pieces: Composition {
                infantry,
                cavalry,
                ..Composition::default()
            },
        }
    }

    fn cmd(text: &str) -> GridCommand {
        text.parse().unwrap_or_else(|e| panic!("{e}"))
    }

    /// Red's orders on the open field: foot in 2E (an edge square), horse
    /// and a scout in its reserve's second row.
    fn red() -> Orders {
        Orders::new(
            0,
            vec![
                counter(1, "2E", 12, 0),
                counter(2, "1H", 0, 8),
                counter(3, "1H", 0, 4),
            ],
        )
    }

    fn writing<'a>(
        ring: &'a Ring,
        reserve: &'a BTreeSet<Square>,
        enemy: &'a BTreeSet<Square>,
    ) -> Writing<'a> {
        Writing {
            ring,
            reserve,
            enemy,
            scout_max_points: 9,
        }
    }

    #[test]
    fn r47_each_counter_is_ordered_once_and_commit_seals_them() {
        let ring = ring();
        let reserve = ring.default_reserve(Edge::S).into_iter().collect();
        let enemy = BTreeSet::new();
        let w = writing(&ring, &reserve, &enemy);
        let mut orders = red();
        assert_eq!(
            orders.apply(&w, &cmd("order 1 hold")),
            Ok(Written::Ordered(1))
        );
        assert_eq!(
            orders.apply(&w, &cmd("order 1 enter")),
            Err(OrderError::Ordered(1))
        );
        assert_eq!(
            orders.apply(&w, &cmd("order 9 hold")),
            Err(OrderError::NoCounter(9))
        );
        assert_eq!(orders.apply(&w, &cmd("commit")), Ok(Written::Committed));
        assert_eq!(
            orders.apply(&w, &cmd("order 2 hold")),
            Err(OrderError::Committed)
        );
        assert!(orders.legal(&w).is_empty());
        assert_eq!(
            OrderError::Committed.to_string(),
            "your orders are committed: they are sealed until both sides have (R47)"
        );
    }

    #[test]
    fn r48_only_a_counter_beside_the_map_enters_it() {
        let ring = ring();
        let reserve = BTreeSet::new();
        let enemy = BTreeSet::new();
        let w = writing(&ring, &reserve, &enemy);
        let orders = red();
        assert_eq!(orders.check(&w, &cmd("order 1 enter")), Ok(()));
        assert_eq!(
            orders.check(&w, &cmd("order 2 enter")),
            Err(OrderError::NotAtTheEdge(sq("1H")))
        );
    }

    #[test]
    fn r44_r49_a_path_is_checked_against_the_rate_and_the_enemy_seen() {
        let ring = ring();
        let reserve = BTreeSet::new();
        let enemy: BTreeSet<Square> = [sq("1I")].into();
        let w = writing(&ring, &reserve, &enemy);
        let orders = red();
        // Horse: 2 squares forward; not through the enemy seen in 1I.
        assert_eq!(orders.check(&w, &cmd("order 2 1G 1F")), Ok(()));
        assert_eq!(orders.check(&w, &cmd("order 2 1I")), Ok(()), "ending there");
        assert_eq!(
            orders.check(&w, &cmd("order 2 1I 1J")),
            Err(OrderError::Path(PathError::ThroughTheEnemy(sq("1I"))))
        );
        assert!(matches!(
            orders.check(&w, &cmd("order 1 2F 2G")),
            Err(OrderError::Path(PathError::TooLong { .. }))
        ));
    }

    #[test]
    fn r54_only_a_weak_counter_scouts() {
        let ring = ring();
        let (reserve, enemy) = (BTreeSet::new(), BTreeSet::new());
        let w = writing(&ring, &reserve, &enemy);
        let orders = red();
        assert_eq!(
            orders.check(&w, &cmd("order 3 hold scout")),
            Ok(()),
            "8 points"
        );
        assert_eq!(
            orders.check(&w, &cmd("order 2 hold scout")),
            Err(OrderError::TooStrongToScout {
                points: 16,
                most: 9
            })
        );
    }

    #[test]
    fn r45_a_split_takes_the_lowest_free_number_and_a_merge_joins_one_square() {
        let ring = ring();
        let (reserve, enemy) = (BTreeSet::new(), BTreeSet::new());
        let w = writing(&ring, &reserve, &enemy);
        let mut orders = red();
        assert_eq!(
            orders.apply(&w, &cmd("split 1 inf 4")),
            Ok(Written::Split { from: 1, new: 4 })
        );
        assert_eq!(orders.counter(1).unwrap().pieces.infantry, 8);
        assert_eq!(orders.counter(4).unwrap().pieces.infantry, 4);
        assert_eq!(orders.counter(4).unwrap().at, sq("2E"));
        // Once a phase, the new counter too.
        assert_eq!(
            orders.check(&w, &cmd("split 1 inf 2")),
            Err(OrderError::Reshaped(1))
        );
        assert_eq!(
            orders.check(&w, &cmd("merge 1 4")),
            Err(OrderError::Reshaped(1))
        );
        // Splits that take too much, all, or leave a gun without its crew.
        assert!(matches!(
            orders.check(&w, &cmd("split 2 cav 9")),
            Err(OrderError::BadSplit(_))
        ));
        assert!(matches!(
            orders.check(&w, &cmd("split 2 cav 8")),
            Err(OrderError::BadSplit(_))
        ));
        // A merge: 3 joins 2 in 1H.
        assert_eq!(
            orders.apply(&w, &cmd("merge 2 3")),
            Ok(Written::Merged { into: 2, joined: 3 })
        );
        assert_eq!(orders.counter(2).unwrap().pieces.cavalry, 12);
        assert_eq!(
            orders.check(&w, &cmd("order 3 hold")),
            Err(OrderError::NoCounter(3))
        );
        // Counters apart do not merge.
        let mut apart = red();
        assert_eq!(
            apart.apply(&w, &cmd("merge 1 2")),
            Err(OrderError::Apart(1, 2))
        );
        assert_eq!(apart, red(), "a refusal changes nothing");
    }

    #[test]
    fn r47_every_listed_order_is_accepted_and_commit_is_always_listed() {
        let ring = ring();
        let reserve = ring.default_reserve(Edge::S).into_iter().collect();
        let enemy: BTreeSet<Square> = [sq("1I")].into();
        let w = writing(&ring, &reserve, &enemy);
        let orders = red();
        let legal = orders.legal(&w);
        assert_eq!(legal.last(), Some(&GridCommand::Commit));
        for command in &legal {
            assert_eq!(orders.check(&w, command), Ok(()), "{command}");
        }
        // Forward (no reserve), foot in 2E has hold, enter and its five
        // one-step paths, never onto the map; behind the lines it has more.
        let none = BTreeSet::new();
        let foot = |legal: &[GridCommand]| {
            legal
                .iter()
                .filter(|c| matches!(c, GridCommand::Order { counter: 1, .. }))
                .count()
        };
        assert_eq!(foot(&orders.legal(&writing(&ring, &none, &enemy))), 2 + 5);
        assert!(foot(&legal) > 2 + 5);
        // Horse behind the lines ride up to three squares.
        assert!(
            legal.contains(&cmd("order 2 1G 1F 1E")),
            "three squares in its reserve"
        );
        assert!(
            !legal.contains(&cmd("order 2 1I 1J")),
            "not through the enemy"
        );
        assert!(legal.contains(&cmd("order 3 1I scout")));
    }
}
