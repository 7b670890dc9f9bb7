//! Lines of sight (R120, R121): the clear segments from a shooter's centre
//! to any point of a target's footprint, and the best of them by the
//! penalties they cross.
//!
//! Which obstacles block and which only cost a penalty is the rules' to
//! say (a building but through R118's openings, a wood neither stands in,
//! a light structure, a cloud); here an obstacle is a [`Shape`] that
//! either blocks or is counted as crossed, both only where a line passes
//! through it deeper than the graze (R120: 0.5 mm).
//!
//! The search is exact at its joints. Seen from the shooter, what a line
//! to the target crosses changes only at the angles where a line touches
//! a shape (each corner of a core, each tangent to a grown core, both at
//! the shape's own reach and at its reach less the graze): between two
//! neighbouring such angles every line to the target crosses the same
//! shapes. So the lines tried are one at each such angle within the
//! target's reach and one between each two, each to the first point of the
//! target it meets (a point further in crosses all the nearer one does,
//! and more); the best clear one by the rules' price wins, ties to the
//! first tried, in a fixed order.

use crate::geometry::{
    EPS, Pt, Shape, V, blocks_segment, capsule_interval, crossing, disc_interval, edges, inside,
    point_segment,
};

/// An obstacle to a line of sight: a shape that blocks it, or one it is
/// counted as crossing (R120, R122).
#[derive(Debug, Clone, Copy)]
pub struct Obstacle<'a> {
    /// Its shape.
    pub shape: &'a Shape,
    /// Whether it blocks (else a line only crosses it).
    pub blocks: bool,
}

/// A clear line of sight: where it ends on the target, and the obstacles
/// it crosses (their indices in the list given), in order of index.
#[derive(Debug, Clone, PartialEq)]
pub struct Sight {
    /// The point of the target it ends at.
    pub to: V,
    /// The crossed obstacles' indices.
    pub crossed: Vec<usize>,
}

/// The farthest any point of a shape lies from `from`.
fn reach(shape: &Shape, from: V) -> f64 {
    shape
        .core
        .iter()
        .map(|p| p.sub(from).len())
        .fold(0.0, f64::max)
        + shape.radius
}

/// The angles, from `from` and relative to the direction `ahead`, at which
/// a line touches `shape` grown or shrunk to `radius`: each core corner's,
/// and each tangent to it. `None` for a shape `from` stands in.
fn touching_angles(shape: &Shape, radius: f64, from: V, ahead: V, out: &mut Vec<f64>) {
    // The angle from `ahead` to `v`, counterclockwise.
    let angle = |v: V| ahead.cross(v).atan2(ahead.dot(v));
    for p in &shape.core {
        let v = p.sub(from);
        let d = v.len();
        let a = angle(v);
        if radius > 0.0 {
            if d > radius {
                let half = (radius / d).asin();
                out.push(a - half);
                out.push(a + half);
            }
        } else {
            out.push(a);
        }
    }
}

/// Where a line from `from` in direction `dir` (unit) first meets `shape`,
/// within `far` of it: the distance along it, if it meets it.
fn entry(shape: &Shape, from: V, dir: V, far: f64) -> Option<f64> {
    let to = from.add(dir.scale(far));
    // A hair more than the radius, so that a line at a tangent finds the
    // point it touches.
    let r = shape.radius + EPS;
    let t = match shape.core.as_slice() {
        [c] => disc_interval(from, to, *c, r).map(|i| i.0),
        [a, b] => capsule_interval(from, to, *a, *b, r).map(|i| i.0),
        corners => {
            if inside(from, corners) {
                Some(0.0)
            } else {
                edges(corners)
                    .iter()
                    .filter_map(|(a, b)| crossing(from, to, *a, *b))
                    .min_by(f64::total_cmp)
            }
        }
    }?;
    Some(t * far)
}

/// A shape's centre (its core points' mean) and how far it reaches from
/// there: where the sight search aims at a target, and how wide the
/// corridor to it is.
pub(crate) fn centre_and_half(shape: &Shape) -> (V, f64) {
    let centre = shape
        .core
        .iter()
        .fold(V::new(0.0, 0.0), |a, p| a.add(*p))
        .scale(1.0 / shape.core.len().max(1) as f64);
    let half = shape
        .core
        .iter()
        .map(|p| p.sub(centre).len())
        .fold(0.0, f64::max)
        + shape.radius;
    (centre, half)
}

/// Every clear line of sight from `from` to `target` worth telling apart:
/// one for each set of obstacles crossed that some clear line crosses,
/// the first found of each (see the module doc), in a fixed order.
pub fn sight_lines(from: Pt, target: &Shape, obstacles: &[Obstacle], graze: f64) -> Vec<Sight> {
    sight_lines_in(from, target, obstacles, graze, None)
}

/// A weapon's arc (R121): the lines it may fire along, within `half` (in
/// radians) either side of `facing` (a unit vector).
#[derive(Debug, Clone, Copy)]
pub struct Arc {
    /// The direction the arc is centred on, a unit vector.
    pub facing: V,
    /// Half the arc, in radians (below pi).
    pub half: f64,
}

/// As [`sight_lines`], keeping only lines within `arc` where one is given:
/// the arc's edges are joints too, so that a target straddling them is
/// seen along the best line inside it (R121).
pub fn sight_lines_in(
    from: Pt,
    target: &Shape,
    obstacles: &[Obstacle],
    graze: f64,
    arc: Option<Arc>,
) -> Vec<Sight> {
    let s = from.v();
    let (centre, target_half) = centre_and_half(target);
    let to_centre = centre.sub(s);
    let d = to_centre.len();
    if d == 0.0 {
        return vec![Sight {
            to: centre,
            crossed: Vec::new(),
        }];
    }
    let ahead = to_centre.scale(1.0 / d);
    // The target's reach in angle.
    let mut own = Vec::new();
    touching_angles(target, target.radius, s, ahead, &mut own);
    if target.radius == 0.0 && target.core.len() >= 3 && inside(s, &target.core) {
        return vec![Sight {
            to: s,
            crossed: Vec::new(),
        }];
    }
    let lo = own.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = own.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    // No angle at all (a target of no core): nothing to see.
    if own.is_empty() || lo > hi {
        return Vec::new();
    }
    let target_far = reach(target, s);
    // The obstacles a line to the target may pass through: nearer than
    // the target's far side and within its cone, roughly (a disc round
    // each, against the segment to the target's centre widened by its
    // reach); the exact test comes later.
    let relevant: Vec<usize> = obstacles
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            // A circle round the obstacle, about its first core point.
            let (first, half) = crate::index::bounding_disc(o.shape);
            first.sub(s).len() - half <= target_far
                && point_segment(first, s, centre) <= half + target_half + 1.0
        })
        .map(|(i, _)| i)
        .collect();
    // A blocking disc nearer than every point of the target whose shadow
    // covers the target's whole reach in angle blocks each line tried
    // (each passes it closer than its radius less the graze, before its
    // end): none is clear, decided without trying them (R120).
    let nearest = match target.core.as_slice() {
        [c] => c.sub(s).len(),
        [a, b] => point_segment(s, *a, *b),
        corners => (0..corners.len())
            .map(|k| point_segment(s, corners[k], corners[(k + 1) % corners.len()]))
            .fold(f64::INFINITY, f64::min),
    } - target.radius;
    for &i in &relevant {
        let o = obstacles[i];
        if let ([c], true) = (o.shape.core.as_slice(), o.blocks) {
            let v = c.sub(s);
            let d = v.len();
            // Its reach less the graze, and a hair for rounding.
            let r = o.shape.radius - graze - 2.0 * EPS;
            if r > 0.0 && d > r && d <= nearest {
                let half = (r / d).asin() - 1e-9;
                let at = ahead.cross(v).atan2(ahead.dot(v));
                if at - half < lo && hi < at + half {
                    return Vec::new();
                }
            }
        }
    }
    let mut angles = vec![lo, hi];
    for &i in &relevant {
        let shape = obstacles[i].shape;
        touching_angles(shape, shape.radius, s, ahead, &mut angles);
        if shape.radius > graze {
            touching_angles(shape, shape.radius - graze, s, ahead, &mut angles);
        }
    }
    // The arc's edges, and the test of a line against it.
    let within = |dir: V| arc.is_none_or(|arc| dir.dot(arc.facing) >= arc.half.cos() - 1e-9);
    if let Some(arc) = arc {
        let centre_angle = ahead.cross(arc.facing).atan2(ahead.dot(arc.facing));
        angles.push(centre_angle - arc.half);
        angles.push(centre_angle + arc.half);
    }
    angles.retain(|a| *a >= lo && *a <= hi);
    angles.sort_by(f64::total_cmp);
    angles.dedup();
    let mut tried: Vec<f64> = Vec::with_capacity(angles.len() * 2);
    for w in angles.windows(2) {
        tried.push(w[0]);
        tried.push((w[0] + w[1]) / 2.0);
    }
    tried.extend(angles.last().copied());
    // Each relevant obstacle's box: a line whose box misses it is neither
    // blocked nor crossed by it, so the exact test is spared.
    let boxes: Vec<crate::index::Bounds> = relevant
        .iter()
        .map(|&i| crate::index::Bounds::of(obstacles[i].shape).grown(EPS))
        .collect();
    let mut out: Vec<Sight> = Vec::new();
    let mut last_blocker: Option<usize> = None;
    for a in tried {
        let (sin, cos) = (a.sin(), a.cos());
        let dir = V::new(ahead.x * cos - ahead.y * sin, ahead.x * sin + ahead.y * cos);
        if !within(dir) {
            continue;
        }
        let Some(t) = entry(target, s, dir, target_far + 1.0) else {
            continue;
        };
        let to = s.add(dir.scale(t));
        let mut crossed = Vec::new();
        let mut blocked = false;
        let line = crate::index::Bounds::segment(s, to);
        // The obstacle that blocked the last line tried first: its
        // neighbour is most often blocked by it too, and a blocked line
        // is dropped whatever else it crosses.
        if let Some(k) = last_blocker
            && boxes[k].meets(&line)
            && blocks_segment(obstacles[relevant[k]].shape, s, to, graze)
        {
            continue;
        }
        for (k, &i) in relevant.iter().enumerate() {
            let o = obstacles[i];
            if !boxes[k].meets(&line) {
                continue;
            }
            if blocks_segment(o.shape, s, to, graze) {
                if o.blocks {
                    blocked = true;
                    last_blocker = Some(k);
                    break;
                }
                crossed.push(i);
            }
        }
        if !blocked && !out.iter().any(|x| x.crossed == crossed) {
            out.push(Sight { to, crossed });
        }
    }
    out
}

/// The clear line of sight from `from` to `target` whose crossed
/// obstacles `price` finds cheapest (R121), the first tried of equals;
/// `None` where no line is clear (R120).
pub fn best_sight(
    from: Pt,
    target: &Shape,
    obstacles: &[Obstacle],
    graze: f64,
    price: impl Fn(&[usize]) -> i64,
) -> Option<Sight> {
    sight_lines(from, target, obstacles, graze)
        .into_iter()
        .map(|s| (price(&s.crossed), s))
        .reduce(|best, next| if next.0 < best.0 { next } else { best })
        .map(|(_, s)| s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Footprint;
    use crate::geometry::square;

    #[test]
    fn r120_a_target_hidden_whole_behind_a_nearer_unit_has_no_line_and_one_half_hidden_has() {
        let shooter = Pt::new(0, 0);
        let target = Footprint::disc(Pt::new(400, 0), 30).shape();
        let blocks = |at: Pt| {
            let unit = Footprint::disc(at, 30).shape();
            sight_lines(
                shooter,
                &target,
                &[Obstacle {
                    shape: &unit,
                    blocks: true,
                }],
                0.5,
            )
        };
        // Right in front: its shadow (about 8.6 degrees either side) holds
        // the target's (about 2.1).
        assert!(blocks(Pt::new(100, 0)).is_empty());
        // Off to one side by 16 mm: the target's edge shows past it.
        let lines = blocks(Pt::new(100, 16));
        assert!(!lines.is_empty());
        assert!(lines.iter().all(|l| l.to.y < 0.0), "{lines:?}");
        // Behind the target's nearest point: it hides nothing of the
        // lines, which end first.
        assert!(!blocks(Pt::new(430, 0)).is_empty());
    }

    #[test]
    fn r120_r121_a_target_half_behind_a_wall_is_seen_past_its_edge_and_the_cheapest_line_wins() {
        let shooter = Pt::new(0, 0);
        let target = Footprint::disc(Pt::new(400, 0), 30).shape();
        // A wall hiding the target's lower half and more: its top edge at
        // y = 5, so lines to the target's top still pass.
        let wall = square(190, -100, 105);
        let wall = Shape {
            core: wall.core,
            radius: 0.0,
        };
        let lines = sight_lines(
            shooter,
            &target,
            &[Obstacle {
                shape: &wall,
                blocks: true,
            }],
            0.5,
        );
        assert!(!lines.is_empty(), "the target's top shows over the wall");
        assert!(lines.iter().all(|l| l.to.y > 4.0), "{lines:?}");
        // A wall over all of it: no line (R120).
        let whole = square(190, -100, 200);
        assert!(
            sight_lines(
                shooter,
                &target,
                &[Obstacle {
                    shape: &whole,
                    blocks: true
                }],
                0.5
            )
            .is_empty()
        );
        // A light structure across the middle and one below: the shooter
        // takes the line that crosses none where there is one (R121).
        let hedge = square(190, -3, 6);
        let crossed_only = [Obstacle {
            shape: &hedge,
            blocks: false,
        }];
        let lines = sight_lines(shooter, &target, &crossed_only, 0.5);
        assert!(lines.iter().any(|l| l.crossed.is_empty()));
        assert!(lines.iter().any(|l| l.crossed == vec![0]));
        let best =
            best_sight(shooter, &target, &crossed_only, 0.5, |c| c.len() as i64).expect("seen");
        assert!(best.crossed.is_empty());
    }
}
