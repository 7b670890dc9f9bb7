//! The plane's geometry (R100-R102, R113-R114, R120, R126).
//!
//! Everything a game holds is whole millimetres ([`Pt`]) and whole degrees;
//! floats live only inside the predicates here, on values made from those
//! integers, with IEEE arithmetic and `sqrt` (correctly rounded, so the
//! same in debug and release builds). The one place trigonometry enters is
//! an oval's axis from its facing ([`Footprint::stadium`]), inside a
//! predicate: no position a game stores is ever derived from it.
//!
//! Every footprint is a [`Shape`]: a core (a point, a segment, or a simple
//! polygon, filled) grown by a radius. A disc is a grown point, an oval (a
//! stadium) a grown segment, a terrain piece or a building element an
//! ungrown polygon, and what a disc or an oval sweeps moving straight along
//! a leg is its core swept (a segment, a parallelogram) grown by the same
//! radius. So one distance serves every pair: the distance between the
//! cores less both radii.
//!
//! - [`gap`]: the distance between two footprints edge to edge (R102), 0
//!   where they touch or overlap; [`overlaps`]: their insides meet (R101:
//!   touching is allowed); [`within`] and [`in_contact`] with R102's
//!   "within d includes d".
//! - [`swept`]: the area a footprint covers moving along a leg (R113,
//!   R114); [`first_touch`]: where along it it first meets an obstacle,
//!   rounded to whole mm by the one rule of [`round_mm`].
//! - [`blocks`]: whether a shape blocks a line of sight, a segment grazing
//!   it within `graze` mm not blocking (R120: 0.5 mm).

/// A point of the table in whole millimetres from its left (`x`) and near
/// (`y`) edges (R100).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Pt {
    /// From the left edge.
    pub x: i32,
    /// From the near edge.
    pub y: i32,
}

impl Pt {
    /// The point at `x`, `y` mm.
    pub const fn new(x: i32, y: i32) -> Pt {
        Pt { x, y }
    }

    /// The point, for the predicates.
    pub fn v(self) -> V {
        V {
            x: f64::from(self.x),
            y: f64::from(self.y),
        }
    }
}

impl std::fmt::Display for Pt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// How far apart two things may be measured to be and still count as at
/// that distance: float rounding on millimetre inputs stays far below it.
pub const EPS: f64 = 1e-6;

/// A point of the plane inside a predicate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct V {
    /// Across.
    pub x: f64,
    /// Along.
    pub y: f64,
}

impl V {
    /// The point at `x`, `y`.
    pub fn new(x: f64, y: f64) -> V {
        V { x, y }
    }
    pub(crate) fn sub(self, o: V) -> V {
        V::new(self.x - o.x, self.y - o.y)
    }
    pub(crate) fn add(self, o: V) -> V {
        V::new(self.x + o.x, self.y + o.y)
    }
    pub(crate) fn scale(self, k: f64) -> V {
        V::new(self.x * k, self.y * k)
    }
    pub(crate) fn dot(self, o: V) -> f64 {
        self.x * o.x + self.y * o.y
    }
    pub(crate) fn cross(self, o: V) -> f64 {
        self.x * o.y - self.y * o.x
    }
    pub(crate) fn len(self) -> f64 {
        self.dot(self).sqrt()
    }
}

/// A footprint or an area: a core grown by a radius (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// One point, two (a segment), or a simple polygon's corners in order
    /// (filled).
    pub core: Vec<V>,
    /// How far the shape reaches beyond its core, in mm.
    pub radius: f64,
}

/// What stands on the table, by its integer description (R101).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Footprint {
    /// A round base, a template, a cloud, a crate: its centre and
    /// diameter in mm.
    Disc {
        /// The centre.
        centre: Pt,
        /// Across, in mm.
        diameter: u16,
    },
    /// An oval base (a stadium): its centre, length along its facing,
    /// width across it, and facing in whole degrees counterclockwise from
    /// the +x axis.
    Stadium {
        /// The centre.
        centre: Pt,
        /// End to end, in mm.
        length: u16,
        /// Side to side, in mm.
        width: u16,
        /// Whole degrees.
        facing: i16,
    },
    /// A terrain piece or a building element: a simple polygon's corners in
    /// order.
    Polygon(Vec<Pt>),
}

impl Footprint {
    /// A disc of `diameter` mm at `centre`.
    pub fn disc(centre: Pt, diameter: u16) -> Footprint {
        Footprint::Disc { centre, diameter }
    }

    /// An oval of `length` by `width` mm at `centre`, facing `facing`
    /// whole degrees.
    pub fn stadium(centre: Pt, length: u16, width: u16, facing: i16) -> Footprint {
        Footprint::Stadium {
            centre,
            length,
            width,
            facing,
        }
    }

    /// Its shape, for the predicates.
    pub fn shape(&self) -> Shape {
        match self {
            Footprint::Disc { centre, diameter } => Shape {
                core: vec![centre.v()],
                radius: f64::from(*diameter) / 2.0,
            },
            Footprint::Stadium {
                centre,
                length,
                width,
                facing,
            } => {
                let radius = f64::from(*width) / 2.0;
                let half = (f64::from(*length) / 2.0 - radius).max(0.0);
                let turn = f64::from(*facing).to_radians();
                let axis = V::new(turn.cos(), turn.sin()).scale(half);
                let c = centre.v();
                Shape {
                    core: vec![c.sub(axis), c.add(axis)],
                    radius,
                }
            }
            Footprint::Polygon(corners) => Shape {
                core: corners.iter().map(|p| p.v()).collect(),
                radius: 0.0,
            },
        }
    }

    /// Its centre: a disc's or an oval's own; a polygon's first corner.
    pub fn centre(&self) -> Pt {
        match self {
            Footprint::Disc { centre, .. } | Footprint::Stadium { centre, .. } => *centre,
            Footprint::Polygon(corners) => corners.first().copied().unwrap_or_default(),
        }
    }
}

/// The edges of a core: none for a point (see [`edges_or_point`]), one for
/// a segment, every side for a polygon.
pub(crate) fn edges(core: &[V]) -> Vec<(V, V)> {
    match core.len() {
        0 | 1 => Vec::new(),
        2 => vec![(core[0], core[1])],
        n => (0..n).map(|i| (core[i], core[(i + 1) % n])).collect(),
    }
}

/// A core's edges, a point counting as an edge of no length.
fn edges_or_point(core: &[V]) -> Vec<(V, V)> {
    match core {
        [p] => vec![(*p, *p)],
        _ => edges(core),
    }
}

/// The distance from `p` to the segment `a`-`b`.
pub fn point_segment(p: V, a: V, b: V) -> f64 {
    let ab = b.sub(a);
    let len2 = ab.dot(ab);
    let t = if len2 == 0.0 {
        0.0
    } else {
        (p.sub(a).dot(ab) / len2).clamp(0.0, 1.0)
    };
    p.sub(a.add(ab.scale(t))).len()
}

/// Whether the segments `a`-`b` and `c`-`d` meet (touching counts).
fn segments_meet(a: V, b: V, c: V, d: V) -> bool {
    let side = |p: V, q: V, r: V| q.sub(p).cross(r.sub(p));
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    if ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
    {
        return true;
    }
    // Touching or collinear: one end lies on the other segment.
    point_segment(a, c, d) == 0.0
        || point_segment(b, c, d) == 0.0
        || point_segment(c, a, b) == 0.0
        || point_segment(d, a, b) == 0.0
}

/// The distance between two segments.
pub fn segment_segment(a: V, b: V, c: V, d: V) -> f64 {
    if segments_meet(a, b, c, d) {
        return 0.0;
    }
    point_segment(a, c, d)
        .min(point_segment(b, c, d))
        .min(point_segment(c, a, b))
        .min(point_segment(d, a, b))
}

/// Whether `p` lies inside the polygon `corners` (even-odd; a point on
/// its outline may go either way: callers measure the outline apart).
pub fn inside(p: V, corners: &[V]) -> bool {
    if corners.len() < 3 {
        return false;
    }
    let mut odd = false;
    let n = corners.len();
    for i in 0..n {
        let (a, b) = (corners[i], corners[(i + 1) % n]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x);
            if p.x < x {
                odd = !odd;
            }
        }
    }
    odd
}

/// The distance between two cores as filled regions: 0 where they meet.
fn core_distance(a: &[V], b: &[V]) -> f64 {
    if (a.len() >= 3 && b.iter().any(|p| inside(*p, a)))
        || (b.len() >= 3 && a.iter().any(|p| inside(*p, b)))
    {
        return 0.0;
    }
    let mut best = f64::INFINITY;
    for (p, q) in edges_or_point(a) {
        for (r, s) in edges_or_point(b) {
            best = best.min(segment_segment(p, q, r, s));
            if best == 0.0 {
                return 0.0;
            }
        }
    }
    best
}

/// The distance between two shapes edge to edge, less than 0 by as much
/// as their radii overlap where their cores are apart, and 0 where their
/// cores meet (R102).
pub fn signed_gap(a: &Shape, b: &Shape) -> f64 {
    core_distance(&a.core, &b.core) - a.radius - b.radius
}

/// The distance between two shapes edge to edge, 0 where they touch or
/// overlap (R102).
pub fn gap(a: &Shape, b: &Shape) -> f64 {
    signed_gap(a, b).max(0.0)
}

/// Whether the insides of two shapes meet: touching is not overlapping
/// (R101). Two ungrown polygons whose cores meet only along their outlines
/// touch.
pub fn overlaps(a: &Shape, b: &Shape) -> bool {
    let g = signed_gap(a, b);
    if g < -EPS {
        return true;
    }
    if g > EPS || a.radius + b.radius > EPS {
        // Apart, or grown shapes whose cores are exactly their radii apart.
        return g < -EPS;
    }
    // Two cores that meet, neither grown: their insides overlap where a
    // point a little inside one lies inside the other.
    polygons_overlap(&a.core, &b.core)
}

/// Whether two ungrown cores that meet overlap inside: an edge of one
/// crosses the other's inside, or one holds the other.
fn polygons_overlap(a: &[V], b: &[V]) -> bool {
    if a.len() < 3 || b.len() < 3 {
        // A point or a segment has no inside.
        return false;
    }
    // Any sample just inside one, near a point where they meet, inside the
    // other: the midpoints of each edge's pieces cut by the other's
    // outline.
    let probe = |x: &[V], y: &[V]| {
        for (p, q) in edges(x) {
            let mut cuts = vec![0.0, 1.0];
            for (r, s) in edges(y) {
                if let Some(t) = crossing(p, q, r, s) {
                    cuts.push(t);
                }
            }
            cuts.sort_by(f64::total_cmp);
            for w in cuts.windows(2) {
                if w[1] - w[0] < EPS {
                    continue;
                }
                let m = p.add(q.sub(p).scale((w[0] + w[1]) / 2.0));
                if inside(m, y) && !on_outline(m, y) {
                    return true;
                }
            }
        }
        false
    };
    probe(a, b) || probe(b, a) || same_inside(a, b)
}

/// Whether a point lies on a polygon's outline.
fn on_outline(p: V, corners: &[V]) -> bool {
    edges(corners)
        .iter()
        .any(|(a, b)| point_segment(p, *a, *b) < EPS)
}

/// Two polygons with the same outline overlap: their insides are one.
fn same_inside(a: &[V], b: &[V]) -> bool {
    let centroid = |c: &[V]| {
        let n = c.len() as f64;
        c.iter()
            .fold(V::new(0.0, 0.0), |s, p| s.add(*p))
            .scale(1.0 / n)
    };
    let m = centroid(a);
    inside(m, a) && inside(m, b)
}

/// Where on `p`-`q` (0 to 1) it crosses the line of `r`-`s` within that
/// segment, if it does at one point.
pub(crate) fn crossing(p: V, q: V, r: V, s: V) -> Option<f64> {
    let d = q.sub(p);
    let e = s.sub(r);
    let den = d.cross(e);
    if den == 0.0 {
        return None;
    }
    let t = r.sub(p).cross(e) / den;
    let u = r.sub(p).cross(d) / den;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// Whether two footprints stand within `d` mm of each other, edge to
/// edge, `d` included (R102).
pub fn within(a: &Shape, b: &Shape, d: f64) -> bool {
    gap(a, b) <= d + EPS
}

/// Whether two footprints are in contact: at most `contact_mm` apart
/// (R102, 2 mm by default).
pub fn in_contact(a: &Shape, b: &Shape, contact_mm: f64) -> bool {
    within(a, b, contact_mm)
}

/// What `shape` covers moving straight by `by` mm (R113, R114): its core
/// swept (a point to a segment, a segment to a parallelogram) grown by the
/// same radius. Polygons do not move. An oval keeps its facing along its
/// legs and picks its final one freely (R113): turning sweeps nothing, and
/// only where it ends is checked.
pub fn swept(shape: &Shape, by: V) -> Shape {
    let core = match shape.core.as_slice() {
        [p] => vec![*p, p.add(by)],
        [a, b] => {
            let (a2, b2) = (a.add(by), b.add(by));
            // The parallelogram's corners in order round it.
            if b.sub(*a).cross(by) >= 0.0 {
                vec![*a, *b, b2, a2]
            } else {
                vec![*a, a2, b2, *b]
            }
        }
        other => other.to_vec(),
    };
    Shape {
        core,
        radius: shape.radius,
    }
}

/// How far along a move by `by` (0 to 1) `mover` first overlaps
/// `obstacle`, if it does (R114): where a refusal says the path touches
/// it. What a shape sweeps only grows as it goes on, so halving the leg
/// finds the place to within a millionth of it.
pub fn first_touch(mover: &Shape, by: V, obstacle: &Shape) -> Option<f64> {
    if !overlaps(&swept(mover, by), obstacle) {
        return None;
    }
    if overlaps(mover, obstacle) {
        return Some(0.0);
    }
    let (mut clear, mut hit) = (0.0f64, 1.0f64);
    while hit - clear > 1e-7 {
        let mid = (clear + hit) / 2.0;
        if overlaps(&swept(mover, by.scale(mid)), obstacle) {
            hit = mid;
        } else {
            clear = mid;
        }
    }
    Some(clear)
}

/// A derived position in whole millimetres (R100): each coordinate to the
/// nearest mm, halves away from zero (R129's rule, the one rounding of the
/// game).
pub fn round_mm(v: V) -> Pt {
    Pt::new(v.x.round() as i32, v.y.round() as i32)
}

/// The point of `from` moved by `t` of `by`, in whole mm ([`round_mm`]).
pub fn along_leg(from: Pt, by: V, t: f64) -> Pt {
    round_mm(from.v().add(by.scale(t)))
}

/// The interval of `t` in 0..1 where `p + t (q - p)` lies within `r` of
/// the point `c`, if any.
pub(crate) fn disc_interval(p: V, q: V, c: V, r: f64) -> Option<(f64, f64)> {
    let d = q.sub(p);
    let f = p.sub(c);
    let a = d.dot(d);
    if a == 0.0 {
        return (f.len() <= r).then_some((0.0, 1.0));
    }
    let b = 2.0 * f.dot(d);
    let k = f.dot(f) - r * r;
    let disc = b * b - 4.0 * a * k;
    if disc < 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let (t0, t1) = ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a));
    clip(t0, t1)
}

/// An interval cut to 0..1, if anything is left.
fn clip(t0: f64, t1: f64) -> Option<(f64, f64)> {
    let (lo, hi) = (t0.max(0.0), t1.min(1.0));
    (lo <= hi).then_some((lo, hi))
}

/// The interval of `t` where the segment `p`-`q` lies within `r` of the
/// segment `a`-`b` (a capsule, which is convex: one interval), if any.
pub(crate) fn capsule_interval(p: V, q: V, a: V, b: V, r: f64) -> Option<(f64, f64)> {
    let mut parts = vec![disc_interval(p, q, a, r), disc_interval(p, q, b, r)];
    // The rectangle between the end discs: within `r` of the line a-b and
    // between the perpendiculars at a and b.
    let ab = b.sub(a);
    let len = ab.len();
    if len > 0.0 {
        let n = V::new(-ab.y, ab.x).scale(1.0 / len);
        let u = ab.scale(1.0 / len);
        let d = q.sub(p);
        let mut lo = 0.0f64;
        let mut hi = 1.0f64;
        // Each slab: lo_v <= value(t) <= hi_v, value(t) = v0 + t dv.
        for (v0, dv, min, max) in [
            (p.sub(a).dot(n), d.dot(n), -r, r),
            (p.sub(a).dot(u), d.dot(u), 0.0, len),
        ] {
            if dv == 0.0 {
                if v0 < min || v0 > max {
                    lo = 1.0;
                    hi = 0.0;
                }
            } else {
                let (t0, t1) = ((min - v0) / dv, (max - v0) / dv);
                lo = lo.max(t0.min(t1));
                hi = hi.min(t0.max(t1));
            }
        }
        parts.push((lo <= hi).then_some((lo, hi)));
    }
    let parts: Vec<(f64, f64)> = parts.into_iter().flatten().collect();
    let lo = parts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
    let hi = parts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
    (lo <= hi).then_some((lo, hi))
}

/// Whether the segment `p`-`q` passes through `shape` deeper than `graze`
/// mm (R120): some point of it lies inside the shape more than `graze`
/// from its outline. A line grazing a base or a corner within that depth
/// is not blocked.
pub fn blocks(shape: &Shape, p: Pt, q: Pt, graze: f64) -> bool {
    blocks_segment(shape, p.v(), q.v(), graze)
}

/// [`blocks`] for a segment between any two points of the plane.
pub fn blocks_segment(shape: &Shape, p: V, q: V, graze: f64) -> bool {
    match shape.core.as_slice() {
        [] => false,
        [c] => point_segment(*c, p, q) < shape.radius - graze - EPS,
        [a, b] => segment_segment(*a, *b, p, q) < shape.radius - graze - EPS,
        corners => {
            // Far from every corner's circle round the first: nothing to do.
            let first = corners[0];
            let half = corners
                .iter()
                .map(|c| c.sub(first).len())
                .fold(0.0, f64::max);
            if point_segment(first, p, q) > half + shape.radius {
                return false;
            }
            // Grown polygons are not met here: a grown polygon's depth is
            // its core's plus its radius.
            let depth = graze - shape.radius;
            if depth < 0.0 {
                // Deeper than the radius: anything within reach of the core.
                return core_distance(corners, &[p, q]) < shape.radius - graze - EPS;
            }
            polygon_blocks(corners, p, q, depth)
        }
    }
}

/// Whether the segment `p`-`q` has a point inside the polygon more than
/// `depth` mm from its outline: the parts of it inside the polygon, less
/// the parts within `depth` of an edge (each a capsule, so one interval),
/// leave something.
fn polygon_blocks(corners: &[V], p: V, q: V, depth: f64) -> bool {
    let n = corners.len();
    let outline = || (0..n).map(move |i| (corners[i], corners[(i + 1) % n]));
    // Where the segment crosses the outline.
    let mut cuts = vec![0.0, 1.0];
    for (a, b) in outline() {
        if let Some(t) = crossing(p, q, a, b) {
            cuts.push(t);
        }
    }
    cuts.sort_by(f64::total_cmp);
    let inside_parts: Vec<(f64, f64)> = cuts
        .windows(2)
        .filter(|w| w[1] - w[0] > 0.0)
        .filter(|w| inside(p.add(q.sub(p).scale((w[0] + w[1]) / 2.0)), corners))
        .map(|w| (w[0], w[1]))
        .collect();
    if inside_parts.is_empty() {
        return false;
    }
    // A part's middle deeper than `depth` (and rounding) from every edge:
    // the segment around it is covered by no edge's reach, so the walk
    // below would find that gap. Decided at once.
    let deep = inside_parts.iter().any(|&(lo, hi)| {
        let m = p.add(q.sub(p).scale((lo + hi) / 2.0));
        outline()
            .map(|(a, b)| point_segment(m, a, b))
            .fold(f64::INFINITY, f64::min)
            > depth + EPS
    });
    if deep {
        return true;
    }
    let mut near: Vec<(f64, f64)> = outline()
        .filter_map(|(a, b)| capsule_interval(p, q, a, b, depth))
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    // A length of the segment that counts: more than rounding.
    let seg_len = q.sub(p).len();
    let least = if seg_len > 0.0 { EPS / seg_len } else { 0.0 };
    inside_parts.iter().any(|&(lo, hi)| {
        // Walk the covered intervals over lo..hi; any gap left blocks.
        let mut at = lo;
        for &(a, b) in &near {
            if b < at {
                continue;
            }
            if a > at + least {
                return true;
            }
            at = at.max(b);
            if at >= hi - least {
                return false;
            }
        }
        at < hi - least
    })
}

/// A square building of `side` mm with its near-left corner at `x`, `y`,
/// for the tests.
#[cfg(test)]
pub(crate) fn square(x: i32, y: i32, side: i32) -> Shape {
    Footprint::Polygon(vec![
        Pt::new(x, y),
        Pt::new(x + side, y),
        Pt::new(x + side, y + side),
        Pt::new(x, y + side),
    ])
    .shape()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(x: i32, y: i32) -> Pt {
        Pt::new(x, y)
    }

    #[test]
    fn r101_r102_two_bases_touching_are_in_contact_and_do_not_overlap() {
        let a = Footprint::disc(pt(100, 100), 30).shape();
        let b = Footprint::disc(pt(130, 100), 30).shape();
        assert_eq!(gap(&a, &b), 0.0);
        assert!(!overlaps(&a, &b), "touching is allowed (R101)");
        let c = Footprint::disc(pt(129, 100), 30).shape();
        assert!(overlaps(&a, &c));
        // 2 mm apart is contact; 3 is not (R102).
        let d = Footprint::disc(pt(132, 100), 30).shape();
        let e = Footprint::disc(pt(133, 100), 30).shape();
        assert!(in_contact(&a, &d, 2.0) && !in_contact(&a, &e, 2.0));
        // "Within 3" includes 3.
        assert!(within(&a, &e, 3.0) && !within(&a, &e, 2.999));
    }

    #[test]
    fn r101_an_oval_reaches_half_its_length_along_its_facing_and_half_its_width_across() {
        let oval = Footprint::stadium(pt(300, 300), 60, 36, 0).shape();
        let ahead = Footprint::disc(pt(345, 300), 30).shape();
        let beside = Footprint::disc(pt(300, 333), 30).shape();
        assert!(
            (gap(&oval, &ahead) - 0.0).abs() < 1e-9,
            "{}",
            gap(&oval, &ahead)
        );
        assert!(
            (gap(&oval, &beside) - 0.0).abs() < 1e-9,
            "{}",
            gap(&oval, &beside)
        );
        // Turned a quarter, the same disc ahead is now beside it.
        let turned = Footprint::stadium(pt(300, 300), 60, 36, 90).shape();
        assert!(
            (gap(&turned, &ahead) - 12.0).abs() < 1e-9,
            "{}",
            gap(&turned, &ahead)
        );
    }

    #[test]
    fn r113_r114_a_path_through_a_gap_exactly_a_base_wide_passes() {
        // Two buildings 30 mm apart; a 30 mm base goes straight between them.
        let left = square(0, 100, 100);
        let right = square(130, 100, 100);
        let base = Footprint::disc(pt(115, 50), 30).shape();
        let path = swept(&base, V::new(0.0, 250.0));
        assert!(!overlaps(&path, &left) && !overlaps(&path, &right));
        // One mm narrower, it touches both and is stopped.
        let narrow = square(129, 100, 100);
        assert!(overlaps(&path, &narrow));
    }

    #[test]
    fn r114_a_refused_path_says_where_it_first_touches() {
        // A base from 50,150 straight right toward a building whose left
        // side is at x = 200: it touches when its centre is at 185,150.
        let building = square(200, 100, 100);
        let base = Footprint::disc(pt(50, 150), 30).shape();
        let by = V::new(300.0, 0.0);
        let t = first_touch(&base, by, &building).expect("it touches");
        assert_eq!(along_leg(pt(50, 150), by, t), pt(185, 150));
        // A leg that stops short touches nothing.
        assert_eq!(first_touch(&base, V::new(130.0, 0.0), &building), None);
        // An oval side-on to its path, 36 mm wide: its side touches at 182.
        let oval = Footprint::stadium(pt(50, 150), 60, 36, 90).shape();
        let t = first_touch(&oval, by, &building).expect("it touches");
        assert_eq!(along_leg(pt(50, 150), by, t), pt(182, 150));
        // Halves round away from zero.
        assert_eq!(round_mm(V::new(2.5, -2.5)), pt(3, -3));
    }

    #[test]
    fn r120_a_line_grazing_a_corner_within_half_a_mm_is_not_blocked() {
        let wall = square(100, 100, 100);
        // Through the corner at 100,100: clear.
        assert!(!blocks(&wall, pt(0, 200), pt(200, 0), 0.5));
        // Cutting the corner at most 0.29 mm deep: clear; 1 mm deep: blocked.
        assert!(!blocks(&wall, pt(0, 201), pt(201, 0), 0.5));
        assert!(blocks(&wall, pt(0, 202), pt(202, 0), 0.5));
        // Through the middle: blocked.
        assert!(blocks(&wall, pt(0, 150), pt(300, 150), 0.5));
        // Along an edge: clear.
        assert!(!blocks(&wall, pt(0, 100), pt(300, 100), 0.5));
        // 1 mm inside along the edge: blocked.
        assert!(blocks(&wall, pt(0, 101), pt(300, 101), 0.5));
        // A line 15 mm from a 30 mm base's centre touches it; 14 mm cuts 1
        // mm deep.
        let base = Footprint::disc(pt(0, 0), 30).shape();
        assert!(!blocks(&base, pt(-100, 15), pt(100, 15), 0.5));
        assert!(blocks(&base, pt(-100, 14), pt(100, 14), 0.5));
    }
}
