//! What each side knows of the ring (R46, R55, R57), and a deal of what it
//! does not know for a bot's copy (R57: a search samples what it cannot
//! know and never peeks).
//!
//! An enemy counter outside its own reserve shows its number and square
//! (R46); in its reserve it shows only that it exists, until the viewer
//! sees it: from the map in an edge square seen this game turn, or from a
//! counter of the viewer's within three squares (R55). Only sight from the
//! map shows what a counter holds. What a fight reveals (R51) comes with
//! the fights.

use std::collections::BTreeSet;

use rand::Rng;

use super::counter::{Composition, Counter};
use super::orders::Writing;
use super::ring::{Ring, Square};
use super::sight::counter_sees;

/// What a counter the viewer has not seen may hold, for a deal (R57): a
/// column of foot, a large one, a body of horse with its officer, a few
/// horsemen scouting.
pub const GUESSES: [Composition; 4] = [
    Composition {
        infantry: 10,
        cavalry: 0,
        officers: 0,
        cannon: false,
        baggage: false,
        flag: false,
    },
    Composition {
        infantry: 20,
        cavalry: 0,
        officers: 0,
        cannon: false,
        baggage: false,
        flag: false,
    },
    Composition {
        infantry: 0,
        cavalry: 8,
        officers: 1,
        cannon: false,
        baggage: false,
        flag: false,
    },
    Composition {
        infantry: 0,
        cavalry: 4,
        officers: 0,
        cannon: false,
        baggage: false,
        flag: false,
    },
];

/// The ring with its counters, each side's reserve squares, and what each
/// side saw from the map this game turn.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Grid {
    /// The ring.
    pub ring: Ring,
    /// Each side's reserve squares (R42).
    pub reserves: [BTreeSet<Square>; 2],
    /// Every counter.
    pub counters: Vec<Counter>,
    /// For each side, the edge squares its formations saw from the map
    /// this game turn (R55).
    pub seen_from_map: [BTreeSet<Square>; 2],
}

/// A counter as a side knows it: always its side; its number and square
/// once located; its pieces once seen from the map (or its own).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct KnownCounter {
    /// Its side.
    pub side: usize,
    /// Its number.
    pub number: u16,
    /// Its square.
    pub at: Square,
    /// What it holds, where the viewer knows it.
    pub pieces: Option<Composition>,
}

/// The ring as one side sees it (R57), or as the referee does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridView {
    /// The counters it knows the number and square of, sorted.
    pub counters: Vec<KnownCounter>,
    /// For each side, its counters in its reserve that the viewer has not
    /// located: "Blue reserve: 3 counters" (R46).
    pub unlocated: [usize; 2],
}

impl Grid {
    /// Whether `viewer` knows where `c` is and its number (R46, R55).
    /// A viewer of no side (an onlooker) locates only what is out of its
    /// reserve.
    pub fn located_by(&self, viewer: usize, c: &Counter) -> bool {
        c.id.side == viewer
            || !self.reserves[c.id.side].contains(&c.at)
            || self.seen_by(viewer, c.at)
            || self
                .counters
                .iter()
                .any(|own| own.id.side == viewer && counter_sees(own.at, c.at))
    }

    /// The side whose reserve `sq` is, as `viewer` may know it (`None`:
    /// the referee, who knows both): a side knows its own reserve squares,
    /// never the enemy's (R42, R57).
    pub fn reserve_known(&self, viewer: Option<usize>, sq: Square) -> Option<usize> {
        (0..2).find(|&s| viewer.is_none_or(|v| v == s) && self.reserves[s].contains(&sq))
    }

    /// Squares `side` sees holding enemy counters (R49, R57).
    pub fn enemy_of(&self, side: usize) -> BTreeSet<Square> {
        self.view(Some(side))
            .counters
            .iter()
            .filter(|c| c.side != side)
            .map(|c| c.at)
            .collect()
    }

    /// What `side` knows when it writes its orders (R57): the ring, its
    /// reserve, the squares it sees held by the enemy (`enemy`, from
    /// [`Grid::enemy_of`]) and the most points a scout may have.
    pub fn writing<'a>(
        &'a self,
        side: usize,
        enemy: &'a BTreeSet<Square>,
        scout_max_points: u32,
    ) -> Writing<'a> {
        Writing {
            ring: &self.ring,
            reserve: &self.reserves[side],
            enemy,
            scout_max_points,
        }
    }

    /// Whether `viewer` knows what `c` holds (its own, or seen from the map
    /// this game turn, R55).
    pub fn composed_for(&self, viewer: usize, c: &Counter) -> bool {
        c.id.side == viewer || self.seen_by(viewer, c.at)
    }

    /// Whether `viewer`'s side sees `sq` from the map this game turn; an
    /// onlooker of no side sees nothing.
    fn seen_by(&self, viewer: usize, sq: Square) -> bool {
        self.seen_from_map
            .get(viewer)
            .is_some_and(|seen| seen.contains(&sq))
    }

    /// The first square of the ring, in the ring's order, that `viewer`
    /// (a side, or an onlooker past the two) neither sees from the map
    /// nor from a counter of its own, that is not its own reserve's, and
    /// that is not in `taken`: where a masked copy stands the counters
    /// `viewer` does not locate (R46, R55, R57). `None` where it sees
    /// every square, and so locates every counter.
    pub fn hiding_square(&self, viewer: usize, taken: &[Square]) -> Option<Square> {
        self.ring.squares().find(|sq| {
            !self.seen_by(viewer, *sq)
                && !self
                    .counters
                    .iter()
                    .any(|own| own.id.side == viewer && counter_sees(own.at, *sq))
                && !self.reserves.get(viewer).is_some_and(|r| r.contains(sq))
                && !taken.contains(sq)
        })
    }

    /// The ring as `viewer` sees it; `None` is the referee, who sees all.
    pub fn view(&self, viewer: Option<usize>) -> GridView {
        let mut counters = Vec::new();
        let mut unlocated = [0; 2];
        for c in &self.counters {
            let located = viewer.is_none_or(|v| self.located_by(v, c));
            if !located {
                unlocated[c.id.side] += 1;
                continue;
            }
            let composed = viewer.is_none_or(|v| self.composed_for(v, c));
            counters.push(KnownCounter {
                side: c.id.side,
                number: c.id.number,
                at: c.at,
                pieces: composed.then_some(c.pieces),
            });
        }
        counters.sort_unstable();
        GridView {
            counters,
            unlocated,
        }
    }

    /// A copy in which everything `viewer` does not know of the enemy is
    /// dealt again (R57): the counters it has not located stand anywhere in
    /// their reserve where it would still not locate them, and the counters
    /// it has not seen hold pieces drawn from [`GUESSES`]. The copy looks
    /// the same to `viewer`, and depends only on what `viewer` sees.
    pub fn redeal<R: Rng + ?Sized>(&self, viewer: usize, rng: &mut R) -> Grid {
        let mut out = self.clone();
        let enemy = 1 - viewer;
        // Squares of the enemy's reserve where a counter stays unlocated.
        let hidden_squares: Vec<Square> = self.reserves[enemy]
            .iter()
            .copied()
            .filter(|sq| {
                !self.seen_from_map[viewer].contains(sq)
                    && !self
                        .counters
                        .iter()
                        .any(|own| own.id.side == viewer && counter_sees(own.at, *sq))
            })
            .collect();
        let unlocated: Vec<usize> = (0..self.counters.len())
            .filter(|&i| {
                let c = &self.counters[i];
                c.id.side == enemy && !self.located_by(viewer, c)
            })
            .collect();
        if !hidden_squares.is_empty() {
            for &i in &unlocated {
                out.counters[i].at = hidden_squares[rng.random_range(0..hidden_squares.len())];
            }
        }
        let unseen: Vec<usize> = (0..self.counters.len())
            .filter(|&i| {
                let c = &self.counters[i];
                c.id.side == enemy && !self.composed_for(viewer, c)
            })
            .collect();
        // Drawn from guesses that owe nothing to what the counters hold:
        // the deal reads the view alone, so a bot that decides on it
        // learns nothing of the enemy's real forces.
        for &i in &unseen {
            out.counters[i].pieces = GUESSES[rng.random_range(0..GUESSES.len())];
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{ring, sq};
    use super::*;
    use crate::hex::Edge;
    use crate::offboard::ticks::CounterId;
    use rand::SeedableRng;

    fn counter(side: usize, number: u16, at: &str, infantry: u16, cavalry: u16) -> Counter {
        Counter {
            id: CounterId { side, number },
            at: sq(at),
            pieces: Composition {
                infantry,
                cavalry,
                ..Composition::default()
            },
        }
    }

    /// Red (0) holds the south, Blue (1) the north, each with its default
    /// reserve; Blue's 1 is out on the east edge, Blue's 2, 3 and 4 in its
    /// reserve; Red's 5 stands within three squares of Blue's 3.
    fn grid() -> Grid {
        let ring = ring();
        Grid {
            reserves: [
                ring.default_reserve(Edge::S).into_iter().collect(),
                ring.default_reserve(Edge::N).into_iter().collect(),
            ],
            counters: vec![
                counter(1, 1, "8S", 10, 0),
                counter(1, 2, "16J", 0, 8),
                counter(1, 3, "15B", 12, 0),
                counter(1, 4, "16P", 5, 5),
                counter(0, 5, "12B", 6, 0),
            ],
            seen_from_map: [BTreeSet::from([sq("15H")]), BTreeSet::new()],
            ring,
        }
    }

    #[test]
    fn r46_r55_red_locates_what_is_out_of_reserve_or_near_and_sees_pieces_only_from_the_map() {
        let mut g = grid();
        let red = g.view(Some(0));
        // Blue's 1 is out of its reserve (R46); Blue's 3 is within three
        // squares of Red's 5 (R55); Blue's 2 and 4 are hidden in reserve.
        let blue: Vec<u16> = red
            .counters
            .iter()
            .filter(|c| c.side == 1)
            .map(|c| c.number)
            .collect();
        assert_eq!(blue, [1, 3]);
        assert_eq!(red.unlocated, [0, 2]);
        // Neither is in a square Red saw from the map: no pieces.
        assert!(
            red.counters
                .iter()
                .filter(|c| c.side == 1)
                .all(|c| c.pieces.is_none())
        );
        // Red's own counter, with its pieces.
        assert!(
            red.counters
                .iter()
                .any(|c| c.side == 0 && c.pieces.is_some())
        );
        // Seen from the map, a counter shows its pieces (R55).
        g.counters[1].at = sq("15H");
        let red = g.view(Some(0));
        let two = red
            .counters
            .iter()
            .find(|c| c.side == 1 && c.number == 2)
            .expect("located");
        assert_eq!(
            two.pieces,
            Some(Composition {
                cavalry: 8,
                ..Composition::default()
            })
        );
        // The referee sees everything.
        assert_eq!(g.view(None).unlocated, [0, 0]);
        assert!(g.view(None).counters.iter().all(|c| c.pieces.is_some()));
    }

    #[test]
    fn r57_a_redeal_changes_only_what_the_viewer_does_not_know() {
        let g = grid();
        let mut changed = false;
        for seed in 0..64 {
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            let dealt = g.redeal(0, &mut rng);
            assert_eq!(dealt.view(Some(0)), g.view(Some(0)), "seed {seed}");
            // Red's own counter is never touched.
            assert_eq!(dealt.counters[4], g.counters[4]);
            changed |= dealt.view(None) != g.view(None);
        }
        // The control: the deals did move and reshuffle Blue's secrets, so
        // the check above could have failed.
        assert!(changed, "no deal changed anything hidden");
    }
}
