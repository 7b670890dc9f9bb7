//! The plane's predicates against a brute-force sampler, on random
//! layouts: discs, ovals at any facing, and simple polygons (convex or not)
//! of whole millimetres. The sampler walks each outline and each segment
//! in steps of a twentieth of a millimetre; a case closer than the
//! sampler can tell (within `SLACK` of the line between two answers) is
//! not judged.

use proptest::prelude::*;
use sandtable_frontiers::geometry::{
    Footprint, Pt, Shape, V, blocks, gap, inside, overlaps, point_segment, swept,
};

/// How far apart the sampler's answer and the predicate's may be.
const SLACK: f64 = 0.2;

/// Points along a segment, `step` mm apart, both ends included.
fn along(a: V, b: V, step: f64) -> Vec<V> {
    let d = ((b.x - a.x).powi(2) + (b.y - a.y).powi(2)).sqrt();
    let n = (d / step).ceil().max(1.0) as usize;
    (0..=n)
        .map(|i| {
            let t = i as f64 / n as f64;
            V {
                x: a.x + (b.x - a.x) * t,
                y: a.y + (b.y - a.y) * t,
            }
        })
        .collect()
}

/// The outline of a core: its edges, or the point itself.
fn outline(core: &[V]) -> Vec<(V, V)> {
    match core.len() {
        1 => vec![(core[0], core[0])],
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// The distance from a point to a core as a filled region.
fn to_core(p: V, core: &[V]) -> f64 {
    if core.len() >= 3 && inside(p, core) {
        return 0.0;
    }
    outline(core)
        .iter()
        .map(|(a, b)| point_segment(p, *a, *b))
        .fold(f64::INFINITY, f64::min)
}

/// The sampler's edge-to-edge distance between two shapes, less than 0
/// where they overlap by their radii.
fn sampled_gap(a: &Shape, b: &Shape) -> f64 {
    let mut best = f64::INFINITY;
    for (p, q) in outline(&a.core) {
        for s in along(p, q, 0.05) {
            best = best.min(to_core(s, &b.core));
        }
    }
    for (p, q) in outline(&b.core) {
        for s in along(p, q, 0.05) {
            best = best.min(to_core(s, &a.core));
        }
    }
    best - a.radius - b.radius
}

fn pt() -> impl Strategy<Value = Pt> {
    (0i32..400, 0i32..300).prop_map(|(x, y)| Pt::new(x, y))
}

/// A simple polygon: corners at increasing angles round a centre, each at
/// its own distance (star-shaped, so never self-crossing; convex or not).
fn polygon() -> impl Strategy<Value = Footprint> {
    (pt(), prop::collection::vec((10i32..80, 0u32..1000), 3..7)).prop_map(|(c, spokes)| {
        let n = spokes.len();
        let corners = spokes
            .iter()
            .enumerate()
            .map(|(i, (r, jitter))| {
                let turn =
                    (i as f64 + f64::from(*jitter) / 2000.0) / n as f64 * std::f64::consts::TAU;
                Pt::new(
                    c.x + (f64::from(*r) * turn.cos()).round() as i32,
                    c.y + (f64::from(*r) * turn.sin()).round() as i32,
                )
            })
            .collect();
        Footprint::Polygon(corners)
    })
}

fn footprint() -> impl Strategy<Value = Footprint> {
    prop_oneof![
        (pt(), prop_oneof![Just(30u16), Just(40), Just(60), Just(90)])
            .prop_map(|(c, d)| Footprint::disc(c, d)),
        (pt(), -180i16..180).prop_map(|(c, f)| Footprint::stadium(c, 60, 36, f)),
        polygon(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// R102: the distance edge to edge, and overlap, as the sampler finds
    /// them.
    #[test]
    fn the_gap_between_two_footprints_is_the_sampler_s(a in footprint(), b in footprint()) {
        let (sa, sb) = (a.shape(), b.shape());
        let sampled = sampled_gap(&sa, &sb);
        let g = gap(&sa, &sb);
        prop_assert!((g - sampled.max(0.0)).abs() <= SLACK, "gap {g}, sampled {sampled}");
        if sampled < -SLACK {
            prop_assert!(overlaps(&sa, &sb), "sampled {sampled}");
        }
        if sampled > SLACK {
            prop_assert!(!overlaps(&sa, &sb), "sampled {sampled}");
        }
    }

    /// R120: a segment blocked by a shape has a point inside it deeper than
    /// the graze, as the sampler walks it.
    #[test]
    fn a_line_is_blocked_where_the_sampler_finds_it_deep_inside(
        shape in footprint(),
        p in pt(),
        q in pt(),
    ) {
        let s = shape.shape();
        let depth_at = |v: V| {
            let edge = outline(&s.core)
                .iter()
                .map(|(a, b)| point_segment(v, *a, *b))
                .fold(f64::INFINITY, f64::min);
            if s.core.len() >= 3 {
                if inside(v, &s.core) { edge } else { -edge }
            } else {
                s.radius - edge
            }
        };
        let deepest = along(V { x: f64::from(p.x), y: f64::from(p.y) }, V { x: f64::from(q.x), y: f64::from(q.y) }, 0.05)
            .into_iter()
            .map(depth_at)
            .fold(f64::NEG_INFINITY, f64::max);
        let blocked = blocks(&s, p, q, 0.5);
        if deepest > 0.5 + SLACK {
            prop_assert!(blocked, "deepest {deepest}");
        }
        if deepest < 0.5 - SLACK {
            prop_assert!(!blocked, "deepest {deepest}");
        }
    }

    /// R113, R114: what a disc or an oval sweeps along a leg overlaps an
    /// obstacle exactly where the footprint, set down along the leg, does.
    #[test]
    fn a_swept_footprint_overlaps_where_the_footprint_does_along_its_leg(
        mover in prop_oneof![
            pt().prop_map(|c| Footprint::disc(c, 30)),
            (pt(), -180i16..180).prop_map(|(c, f)| Footprint::stadium(c, 60, 36, f)),
        ],
        to in pt(),
        obstacle in footprint(),
    ) {
        let from = mover.centre();
        let by = V { x: f64::from(to.x - from.x), y: f64::from(to.y - from.y) };
        let s = mover.shape();
        let o = obstacle.shape();
        let path = swept(&s, by);
        let n = 400;
        let mut least = f64::INFINITY;
        for i in 0..=n {
            let t = i as f64 / n as f64;
            let moved = Shape {
                core: s.core.iter().map(|c| V { x: c.x + by.x * t, y: c.y + by.y * t }).collect(),
                radius: s.radius,
            };
            least = least.min(sampled_gap(&moved, &o));
        }
        // The steps along the leg add their own slack: at most half a step.
        let step = (by.x * by.x + by.y * by.y).sqrt() / f64::from(n) / 2.0;
        if least < -SLACK {
            prop_assert!(overlaps(&path, &o), "least {least}");
        }
        if least > SLACK + step {
            prop_assert!(!overlaps(&path, &o), "least {least}");
        }
    }
}

mod sight {
    use super::*;
    use sandtable_frontiers::geometry::{blocks_segment, signed_gap};
    use sandtable_frontiers::sight::{Obstacle, best_sight, sight_lines};

    /// Points round a circle, a twentieth of a millimetre apart.
    fn circle(c: V, r: f64) -> Vec<V> {
        let n = (std::f64::consts::TAU * r / 0.05).ceil() as usize;
        (0..n)
            .map(|i| {
                let a = i as f64 / n as f64 * std::f64::consts::TAU;
                V {
                    x: c.x + r * a.cos(),
                    y: c.y + r * a.sin(),
                }
            })
            .collect()
    }

    /// The sampler's lines: to every point of the target's outline, a
    /// twentieth of a millimetre apart; each judged with the graze made
    /// `SLACK` stricter and looser, and kept only where both agree.
    fn sampled_best(
        from: Pt,
        target: &Shape,
        obstacles: &[(Shape, bool)],
        price: &dyn Fn(&[usize]) -> i64,
    ) -> Option<i64> {
        let s = V {
            x: f64::from(from.x),
            y: f64::from(from.y),
        };
        let mut points = Vec::new();
        match target.core.as_slice() {
            [c] => points.extend(circle(*c, target.radius)),
            [a, b] => {
                // The stadium's outline: its two sides and its two ends.
                let d = V {
                    x: b.x - a.x,
                    y: b.y - a.y,
                };
                let len = (d.x * d.x + d.y * d.y).sqrt().max(1e-9);
                let n = V {
                    x: -d.y / len * target.radius,
                    y: d.x / len * target.radius,
                };
                for (p, q) in [
                    (
                        V {
                            x: a.x + n.x,
                            y: a.y + n.y,
                        },
                        V {
                            x: b.x + n.x,
                            y: b.y + n.y,
                        },
                    ),
                    (
                        V {
                            x: a.x - n.x,
                            y: a.y - n.y,
                        },
                        V {
                            x: b.x - n.x,
                            y: b.y - n.y,
                        },
                    ),
                ] {
                    points.extend(along(p, q, 0.05));
                }
                for c in [a, b] {
                    points.extend(circle(*c, target.radius));
                }
            }
            _ => return None,
        }
        let mut best: Option<i64> = None;
        'points: for x in points {
            let mut crossed = Vec::new();
            for (i, (shape, blocking)) in obstacles.iter().enumerate() {
                let strict = blocks_segment(shape, s, x, 0.5 - SLACK);
                let loose = blocks_segment(shape, s, x, 0.5 + SLACK);
                if strict != loose {
                    continue 'points;
                }
                if strict {
                    if *blocking {
                        continue 'points;
                    }
                    crossed.push(i);
                }
            }
            let p = price(&crossed);
            best = Some(best.map_or(p, |b: i64| b.min(p)));
        }
        best
    }

    /// The footprint with its centre (a polygon: its first corner) at `to`.
    fn moved(f: &Footprint, to: Pt) -> Footprint {
        let from = f.centre();
        let (dx, dy) = (to.x - from.x, to.y - from.y);
        match f {
            Footprint::Disc { diameter, .. } => Footprint::disc(to, *diameter),
            Footprint::Stadium {
                length,
                width,
                facing,
                ..
            } => Footprint::stadium(to, *length, *width, *facing),
            Footprint::Polygon(corners) => Footprint::Polygon(
                corners
                    .iter()
                    .map(|c| Pt::new(c.x + dx, c.y + dy))
                    .collect(),
            ),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// R120, R121: the search finds a clear line wherever the sampler
        /// does, and one at least as cheap; and every line it gives is
        /// clear.
        #[test]
        fn the_best_line_of_sight_is_at_least_the_sampler_s_best(
            from in pt(),
            target in prop_oneof![
                pt().prop_map(|c| Footprint::disc(c, 30)),
                (pt(), -180i16..180).prop_map(|(c, f)| Footprint::stadium(c, 60, 36, f)),
            ],
            obstacles in prop::collection::vec(
                (footprint(), any::<bool>(), 0.15f64..0.85, -40i32..40, -40i32..40),
                1..7,
            ),
        ) {
            let t = target.shape();
            let shooter = Footprint::disc(from, 1).shape();
            prop_assume!(gap(&shooter, &t) > 5.0);
            // Each obstacle set down near the line from the shooter to the
            // target, where it may matter.
            let to = target.centre();
            let shapes: Vec<(Shape, bool)> = obstacles
                .iter()
                .map(|(f, b, k, dx, dy)| {
                    let at = Pt::new(
                        from.x + (f64::from(to.x - from.x) * k).round() as i32 + dx,
                        from.y + (f64::from(to.y - from.y) * k).round() as i32 + dy,
                    );
                    (moved(f, at).shape(), *b)
                })
                .collect();
            // Nothing stands on the shooter or the target (R101).
            for (shape, _) in &shapes {
                prop_assume!(signed_gap(shape, &shooter) > 1.0 && signed_gap(shape, &t) > 1.0);
            }
            let list: Vec<Obstacle> = shapes.iter().map(|(shape, blocks)| Obstacle { shape, blocks: *blocks }).collect();
            // Odd obstacles cost 2, even 1.
            let price = |c: &[usize]| c.iter().map(|i| 1 + (*i as i64 % 2)).sum::<i64>();
            let found = best_sight(from, &t, &list, 0.5, price);
            let sampled = sampled_best(from, &t, &shapes, &price);

            if let Some(b) = sampled {
                let f = found.as_ref().map(|s| price(&s.crossed));
                prop_assert!(f.is_some_and(|f| f <= b), "found {f:?}, sampled {b}");
            }
            for line in sight_lines(from, &t, &list, 0.5) {
                let s = V { x: f64::from(from.x), y: f64::from(from.y) };
                for (i, (shape, blocking)) in shapes.iter().enumerate() {
                    let through = blocks_segment(shape, s, line.to, 0.5);
                    prop_assert!(!(through && *blocking), "line {line:?} through {i}");
                    prop_assert_eq!(through, line.crossed.contains(&i));
                }
                // It ends on the target.
                let end = Shape { core: vec![line.to], radius: 0.0 };
                prop_assert!(gap(&end, &t) < 1e-3);
            }
        }
    }
}
