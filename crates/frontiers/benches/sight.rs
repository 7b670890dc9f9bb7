//! A line-of-sight query on a crowded table (R120, R121): 60 units (30 mm
//! and 40 mm bases, 60 x 36 mm ovals) and 40 terrain pieces (polygons of
//! 4 to 6 corners, 40 to 120 mm across, half of them blocking, half only
//! crossed) on the seed's 1219 x 610 mm table; each query the best clear
//! line from one unit's centre to another unit, every other unit
//! blocking. The goal: under 5 µs a query.

use criterion::{Criterion, criterion_group, criterion_main};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use sandtable_frontiers::geometry::{Footprint, Pt, Shape, overlaps};
use sandtable_frontiers::sight::{Obstacle, best_sight};
use std::hint::black_box;

struct Table {
    units: Vec<Footprint>,
    shapes: Vec<Shape>,
    terrain: Vec<(Shape, bool)>,
}

fn table() -> Table {
    let mut rng = SmallRng::seed_from_u64(7);
    let mut units: Vec<Footprint> = Vec::new();
    let mut shapes: Vec<Shape> = Vec::new();
    while units.len() < 60 {
        let at = Pt::new(rng.random_range(30..1190), rng.random_range(30..580));
        let f = match rng.random_range(0..6) {
            0 => Footprint::stadium(at, 60, 36, rng.random_range(-180..180)),
            1 => Footprint::disc(at, 40),
            _ => Footprint::disc(at, 30),
        };
        let s = f.shape();
        if shapes.iter().all(|o| !overlaps(o, &s)) {
            units.push(f);
            shapes.push(s);
        }
    }
    let mut terrain = Vec::new();
    while terrain.len() < 40 {
        let c = Pt::new(rng.random_range(60..1160), rng.random_range(60..550));
        let n = rng.random_range(4..7);
        let corners: Vec<Pt> = (0..n)
            .map(|i| {
                let a = f64::from(i) / f64::from(n) * std::f64::consts::TAU;
                let r = f64::from(rng.random_range(20..60));
                Pt::new(
                    c.x + (r * a.cos()).round() as i32,
                    c.y + (r * a.sin()).round() as i32,
                )
            })
            .collect();
        let s = Footprint::Polygon(corners).shape();
        // Units stand outside the terrain, as a layout would have them
        // standing beside buildings and woods.
        if shapes.iter().all(|u| !overlaps(u, &s)) {
            terrain.push((s, terrain.len() % 2 == 0));
        }
    }
    Table {
        units,
        shapes,
        terrain,
    }
}

fn sight(c: &mut Criterion) {
    let t = table();
    let pairs: Vec<(usize, usize)> = (0..100)
        .map(|k| (k % 60, (k * 7 + 13) % 60))
        .filter(|(a, b)| a != b)
        .collect();
    // Each query's obstacles: every other unit, and the terrain.
    let lists: Vec<Vec<Obstacle>> = pairs
        .iter()
        .map(|&(a, b)| {
            t.shapes
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != a && *i != b)
                .map(|(_, s)| Obstacle {
                    shape: s,
                    blocks: true,
                })
                .chain(t.terrain.iter().map(|(s, blocks)| Obstacle {
                    shape: s,
                    blocks: *blocks,
                }))
                .collect()
        })
        .collect();
    let mut seen = 0;
    for (k, &(a, b)) in pairs.iter().enumerate() {
        if best_sight(t.units[a].centre(), &t.shapes[b], &lists[k], 0.5, |c| {
            c.len() as i64
        })
        .is_some()
        {
            seen += 1;
        }
    }
    eprintln!("{seen} of {} pairs see each other", pairs.len());
    c.bench_function(
        "best line of sight, 60 units and 40 terrain pieces",
        |bench| {
            let mut k = 0;
            bench.iter(|| {
                let (a, b) = pairs[k % pairs.len()];
                let line = best_sight(
                    t.units[a].centre(),
                    &t.shapes[b],
                    &lists[k % pairs.len()],
                    0.5,
                    |c| c.len() as i64,
                );
                k += 1;
                black_box(line)
            });
        },
    );
}

criterion_group!(benches, sight);
criterion_main!(benches);
