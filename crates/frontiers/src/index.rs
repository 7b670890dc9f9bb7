//! A spatial index of the table's fixed shapes (terrain pieces and
//! building elements): a uniform grid, each shape filed in the cells its
//! bounding disc's box covers, so that a line of sight or a move asks only
//! about what lies near it, not about everything on the table.
//!
//! The index only narrows: every question it answers is a superset of the
//! shapes the exact predicates of [`crate::sight`] and
//! [`crate::moves`] could find meeting a line or a path, in the table's
//! own order, so that what the rules decide (R114, R120-R122) is the same
//! with it as without it. The bounding disc is the one the sight search
//! itself uses (about a shape's first core point, reaching its farthest
//! corner and its radius), so a shape the search would consider is always
//! among those the index gives.

use crate::geometry::{Shape, V};

/// The most cells a side: a table's grid is at most this many cells
/// across and deep, its cells grown to fit (the table's sides are at most
/// 65,535 mm).
const MOST_CELLS: usize = 96;

/// A table of at most this many fixed shapes is not filed: each
/// question gets them all, which costs less than the grid.
const FEW: usize = 16;

/// The smallest cell, in mm: a little more than a base's width.
const LEAST_CELL_MM: f64 = 40.0;

/// An axis-aligned box, in mm.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Its lowest corner.
    pub lo: V,
    /// Its highest corner.
    pub hi: V,
}

impl Bounds {
    /// The box of a shape, its core's grown by its radius.
    pub fn of(shape: &Shape) -> Bounds {
        let mut b = Bounds {
            lo: V::new(f64::INFINITY, f64::INFINITY),
            hi: V::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        };
        for p in &shape.core {
            b.lo = V::new(b.lo.x.min(p.x), b.lo.y.min(p.y));
            b.hi = V::new(b.hi.x.max(p.x), b.hi.y.max(p.y));
        }
        b.grown(shape.radius)
    }

    /// The box of a disc.
    pub fn disc(centre: V, radius: f64) -> Bounds {
        Bounds {
            lo: V::new(centre.x - radius, centre.y - radius),
            hi: V::new(centre.x + radius, centre.y + radius),
        }
    }

    /// The box of a segment.
    pub fn segment(p: V, q: V) -> Bounds {
        Bounds {
            lo: V::new(p.x.min(q.x), p.y.min(q.y)),
            hi: V::new(p.x.max(q.x), p.y.max(q.y)),
        }
    }

    /// The box grown by `d` on every side.
    pub fn grown(self, d: f64) -> Bounds {
        Bounds {
            lo: V::new(self.lo.x - d, self.lo.y - d),
            hi: V::new(self.hi.x + d, self.hi.y + d),
        }
    }

    /// Whether two boxes share a point (touching counts).
    pub fn meets(&self, other: &Bounds) -> bool {
        self.lo.x <= other.hi.x
            && other.lo.x <= self.hi.x
            && self.lo.y <= other.hi.y
            && other.lo.y <= self.hi.y
    }
}

/// The bounding disc the sight search uses for a shape (about its first
/// core point, to its farthest core point, grown by its radius).
pub fn bounding_disc(shape: &Shape) -> (V, f64) {
    let Some(first) = shape.core.first().copied() else {
        return (V::new(0.0, 0.0), 0.0);
    };
    let half = shape
        .core
        .iter()
        .map(|p| p.sub(first).len())
        .fold(0.0, f64::max)
        + shape.radius;
    (first, half)
}

/// The grid: shapes by number (the caller's), each filed in the cells its
/// bounding disc's box covers. Cells at the grid's edges reach on without
/// end (a point beyond the table falls in the nearest), so a shape off
/// the table is still found.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    cell: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
    /// How many shapes it holds.
    shapes: usize,
}

impl Grid {
    /// The grid over a table of `table` mm of `shapes`, numbered from 0
    /// in the order given.
    pub fn new(table: (u16, u16), shapes: &[&Shape]) -> Grid {
        let (w, d) = (f64::from(table.0.max(1)), f64::from(table.1.max(1)));
        let cell = (w.max(d) / MOST_CELLS as f64).max(LEAST_CELL_MM);
        let cols = ((w / cell).ceil() as usize).clamp(1, MOST_CELLS);
        let rows = ((d / cell).ceil() as usize).clamp(1, MOST_CELLS);
        let mut grid = Grid {
            cell,
            cols,
            rows,
            cells: vec![Vec::new(); cols * rows],
            shapes: shapes.len(),
        };
        for (n, shape) in shapes.iter().enumerate() {
            let (centre, half) = bounding_disc(shape);
            let b = Bounds::disc(centre, half);
            let (c0, r0) = grid.cell_of(b.lo);
            let (c1, r1) = grid.cell_of(b.hi);
            for r in r0..=r1 {
                for c in c0..=c1 {
                    grid.cells[r * cols + c].push(n as u32);
                }
            }
        }
        grid
    }

    /// The cell holding `p`, clamped to the grid.
    fn cell_of(&self, p: V) -> (usize, usize) {
        let at = |x: f64, n: usize| {
            if x.is_nan() || x < 0.0 {
                0
            } else {
                ((x / self.cell) as usize).min(n - 1)
            }
        };
        (at(p.x, self.cols), at(p.y, self.rows))
    }

    /// Appends to `out` the shapes filed in the cells within `reach` of
    /// the segment `p`-`q` (a point where `p` is `q`): every shape whose
    /// bounding disc comes within `reach` of it, and some beside. A table
    /// of few shapes gives them all. The caller sorts and dedups
    /// ([`Grid::finish`]).
    pub fn near_segment(&self, p: V, q: V, reach: f64, out: &mut Vec<u32>) {
        if self.shapes <= FEW {
            out.extend(0..self.shapes as u32);
            return;
        }
        // A millimetre's slack for rounding.
        let reach = reach + 1.0;
        let b = Bounds::segment(p, q).grown(reach);
        let (_, r0) = self.cell_of(b.lo);
        let (_, r1) = self.cell_of(b.hi);
        let d = q.sub(p);
        for r in r0..=r1 {
            // The row's band, widened by the reach (the edge rows without
            // end), and the part of the segment within it.
            let y0 = if r == 0 {
                f64::NEG_INFINITY
            } else {
                r as f64 * self.cell - reach
            };
            let y1 = if r + 1 == self.rows {
                f64::INFINITY
            } else {
                (r + 1) as f64 * self.cell + reach
            };
            let (t0, t1) = if d.y == 0.0 {
                if p.y < y0 || p.y > y1 {
                    continue;
                }
                (0.0, 1.0)
            } else {
                let (a, b) = ((y0 - p.y) / d.y, (y1 - p.y) / d.y);
                (a.min(b).max(0.0), a.max(b).min(1.0))
            };
            if t0 > t1 {
                continue;
            }
            let (xa, xb) = (p.x + d.x * t0, p.x + d.x * t1);
            let (c0, _) = self.cell_of(V::new(xa.min(xb) - reach, 0.0));
            let (c1, _) = self.cell_of(V::new(xa.max(xb) + reach, 0.0));
            for c in c0..=c1 {
                out.extend_from_slice(&self.cells[r * self.cols + c]);
            }
        }
    }

    /// The shapes gathered in `out`, in their own order, each once.
    pub fn finish(out: &mut Vec<u32>) {
        out.sort_unstable();
        out.dedup();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Footprint, Pt, point_segment};

    fn blob(x: i32, y: i32, r: i32) -> Shape {
        Footprint::Polygon(vec![
            Pt::new(x - r, y - r),
            Pt::new(x + r, y - r),
            Pt::new(x + r, y + r),
            Pt::new(x - r, y + r),
        ])
        .shape()
    }

    #[test]
    fn a_segment_finds_every_shape_whose_bounding_disc_comes_near_it() {
        // A grid of squares over a 2,400 x 1,200 table, and segments all
        // over it: the index's answer holds every shape the brute force
        // finds, in order.
        let shapes: Vec<Shape> = (0..200)
            .map(|k| blob(60 + 120 * (k % 20), 60 + 110 * (k / 20), 30))
            .collect();
        let refs: Vec<&Shape> = shapes.iter().collect();
        let grid = Grid::new((2400, 1200), &refs);
        let mut seed = 7u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % n) as f64
        };
        let mut found = Vec::new();
        for _ in 0..500 {
            let p = V::new(next(2600) - 100.0, next(1400) - 100.0);
            let q = V::new(next(2600) - 100.0, next(1400) - 100.0);
            let reach = next(60);
            found.clear();
            grid.near_segment(p, q, reach, &mut found);
            Grid::finish(&mut found);
            for (n, s) in shapes.iter().enumerate() {
                let (c, half) = bounding_disc(s);
                if point_segment(c, p, q) <= half + reach {
                    assert!(found.contains(&(n as u32)), "{n} near {p:?}-{q:?}");
                }
            }
            assert!(found.windows(2).all(|w| w[0] < w[1]));
        }
        // And it narrows: a short segment finds few of the 200.
        found.clear();
        grid.near_segment(V::new(600.0, 600.0), V::new(700.0, 600.0), 2.0, &mut found);
        Grid::finish(&mut found);
        assert!(!found.is_empty() && found.len() < 12, "{}", found.len());
    }
}
