//! The off-board grid's parts together, over many seeded random phases:
//! both sides write random listed orders and commit, the ring moves tick by
//! tick, every fight is settled with the rules' dice and its losers go back
//! or fall back. Whatever is ordered, the phase ends within three ticks,
//! every fight has both sides in it, no counter fights twice, every counter
//! stays on the ring, and no composition changes (R50).

use std::collections::BTreeSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_warpspawn::offboard::counter::Composition;
use sandtable_warpspawn::offboard::counter::Counter;
use sandtable_warpspawn::offboard::fight::{After, Engaged, StandoffRule, SuperiorNumbers, settle};
use sandtable_warpspawn::offboard::movement::Movement;
use sandtable_warpspawn::offboard::moves::fall_backs;
use sandtable_warpspawn::offboard::orders::{Orders, Writing};
use sandtable_warpspawn::offboard::ring::{Ring, Square};
use sandtable_warpspawn::offboard::ticks::CounterId;
use sandtable_warpspawn::{Edge, Map};

fn ring() -> Ring {
    Ring::new(
        Map {
            columns: 16,
            rows: 12,
        },
        2,
    )
    .expect("2 divides 16 and 12")
}

/// A side's random counters on random squares of the ring.
fn counters(ring: &Ring, side: usize, rng: &mut ChaCha8Rng) -> Vec<Counter> {
    let squares: Vec<Square> = ring.squares().collect();
    (1..=rng.random_range(1..=6u16))
        .map(|number| Counter {
            id: CounterId { side, number },
            at: squares[rng.random_range(0..squares.len())],
            pieces: Composition {
                infantry: rng.random_range(0..12),
                cavalry: rng.random_range(1..8),
                officers: rng.random_range(0..2),
                ..Composition::default()
            },
        })
        .collect()
}

#[test]
fn random_phases_end_fight_fairly_and_keep_every_composition() {
    let ring = ring();
    let reserves: [BTreeSet<Square>; 2] = [
        ring.default_reserve(Edge::S).into_iter().collect(),
        ring.default_reserve(Edge::N).into_iter().collect(),
    ];
    let mut fights = 0;
    for seed in 0..300u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut sides = [0, 1].map(|side| Orders::new(side, counters(&ring, side, &mut rng)));
        // Each side writes a random listed order for each counter, as it
        // sees the enemy (here: every enemy square), then commits.
        for side in 0..2 {
            let enemy: BTreeSet<Square> = sides[1 - side].counters.iter().map(|c| c.at).collect();
            let w = Writing {
                ring: &ring,
                reserve: &reserves[side],
                enemy: &enemy,
                scout_max_points: 9,
            };
            loop {
                let listed = sides[side].legal(&w);
                let command = &listed[rng.random_range(0..listed.len())];
                sides[side]
                    .apply(&w, command)
                    .unwrap_or_else(|e| panic!("seed {seed}: listed `{command}` refused: {e}"));
                if sides[side].committed {
                    break;
                }
            }
        }
        let before: BTreeSet<(CounterId, Composition)> = sides
            .iter()
            .flat_map(|s| &s.counters)
            .map(|c| (c.id, c.pieces))
            .collect();
        let mut moving = Movement::start(&sides);
        let mut dice = Dice::seeded(seed);
        let mut fought: BTreeSet<CounterId> = BTreeSet::new();
        while let Some(contest) = moving.next_contest() {
            fights += 1;
            let in_it: BTreeSet<usize> = contest.counters.iter().map(|id| id.side).collect();
            assert_eq!(in_it.len(), 2, "seed {seed}: {contest:?}");
            for id in &contest.counters {
                assert!(fought.insert(*id), "seed {seed}: {id:?} fought twice");
            }
            let engaged: Vec<Engaged> = contest
                .counters
                .iter()
                .map(|id| {
                    let c = moving
                        .counters
                        .iter()
                        .find(|c| c.id == *id)
                        .expect("a counter");
                    Engaged {
                        id: *id,
                        from: moving.started(*id).expect("a start"),
                        at: c.at,
                        committed: c.pieces,
                        scout: false,
                    }
                })
                .collect();
            let settled = settle(
                contest.kind,
                &engaged,
                (SuperiorNumbers::OneForOne, StandoffRule::Bounce),
                None,
                &mut dice,
            )
            .expect("seeded dice never run out");
            for (id, after) in settled.after {
                let at = moving
                    .counters
                    .iter()
                    .find(|c| c.id == id)
                    .expect("a counter")
                    .at;
                match after {
                    After::Holds => {}
                    After::Back(square) => moving.place(id, square),
                    After::FallsBack => {
                        let enemy: BTreeSet<Square> = moving
                            .counters
                            .iter()
                            .filter(|c| c.id.side != id.side)
                            .map(|c| c.at)
                            .collect();
                        let barred: BTreeSet<Square> = engaged
                            .iter()
                            .filter(|e| e.id.side != id.side)
                            .map(|e| e.from)
                            .collect();
                        let choices = fall_backs(&ring, at, &enemy, &barred);
                        if !choices.is_empty() {
                            moving.place(id, choices[rng.random_range(0..choices.len())]);
                        }
                    }
                }
            }
        }
        assert!(moving.tick <= 3, "seed {seed}: {} ticks", moving.tick);
        for c in &moving.counters {
            assert!(ring.holds(c.at), "seed {seed}: {c:?} left the ring");
        }
        let after: BTreeSet<(CounterId, Composition)> =
            moving.counters.iter().map(|c| (c.id, c.pieces)).collect();
        assert_eq!(
            after, before,
            "seed {seed}: compositions never change in the ring (R50)"
        );
    }
    // The control: the random phases did fight.
    assert!(fights > 50, "only {fights} fights in 300 phases");
}
