//! Templates and the drop in space (R126, R129).
//!
//! - [`template_hits`]: what a template laid at a point overlaps or
//!   touches, nearest its centre first (R126).
//! - [`drop_landing`]: where an indirect shot's template lands from its
//!   two dice (R129): the direction die's six fixed unit vectors (1 toward
//!   the far edge, each next 60 degrees clockwise seen from above), the
//!   distance die's `(roll - 1) x 15` mm; the point it falls at rounded to
//!   whole mm from the table's edges, halves away from zero
//!   ([`round_mm`]), then slid the least distance to lie wholly on the
//!   table. No trigonometry: the vectors are constants.

use crate::geometry::{EPS, Footprint, Pt, Shape, V, gap, round_mm};

/// The small template's diameter, in mm (R126, project).
pub const SMALL_MM: u16 = 60;
/// The large template's diameter, in mm (R126, project).
pub const LARGE_MM: u16 = 90;
/// How far each pip of the distance die past the first throws a drop, in
/// mm (R129).
pub const DROP_STEP_MM: f64 = 15.0;

/// Half of the square root of 3, to the last bit of an f64: the sine of 60
/// degrees.
const HALF_ROOT_3: f64 = 0.866_025_403_784_438_6;

/// The direction die's six unit vectors (R129), by roll from 1: toward the
/// far edge (+y), then each 60 degrees clockwise seen from above.
pub const DROP_DIRECTIONS: [(f64, f64); 6] = [
    (0.0, 1.0),
    (HALF_ROOT_3, 0.5),
    (HALF_ROOT_3, -0.5),
    (0.0, -1.0),
    (-HALF_ROOT_3, -0.5),
    (-HALF_ROOT_3, 0.5),
];

/// The footprints a template of `diameter` mm laid at `centre` overlaps
/// or touches (R126), by their index in `shapes`, nearest the template's
/// centre first (by the distance from it to each footprint's edge; equals
/// in their order in `shapes`).
pub fn template_hits(centre: Pt, diameter: u16, shapes: &[Shape]) -> Vec<usize> {
    let template = Footprint::disc(centre, diameter).shape();
    let point = Footprint::disc(centre, 0).shape();
    let mut hit: Vec<(f64, usize)> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| gap(&template, s) <= EPS)
        .map(|(i, s)| (gap(&point, s), i))
        .collect();
    hit.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    hit.into_iter().map(|(_, i)| i).collect()
}

/// Where a drop aimed at `aim` lands (R129): `direction` and `distance`
/// are the two dice (1 to 6); the template, `diameter` mm across, ends
/// wholly on a table of `width` by `depth` mm.
pub fn drop_landing(
    aim: Pt,
    direction: u8,
    distance: u8,
    diameter: u16,
    width: u16,
    depth: u16,
) -> Pt {
    let (dx, dy) = DROP_DIRECTIONS[usize::from(direction.clamp(1, 6) - 1)];
    let far = f64::from(distance.clamp(1, 6) - 1) * DROP_STEP_MM;
    let fell = round_mm(V::new(
        f64::from(aim.x) + dx * far,
        f64::from(aim.y) + dy * far,
    ));
    // The least slide onto the table: each coordinate into the band where
    // the whole template lies on it (a template wider than the table sits
    // at its middle).
    let r = i32::from(diameter.div_ceil(2));
    let onto = |v: i32, side: u16| {
        let side = i32::from(side);
        if 2 * r > side {
            side / 2
        } else {
            v.clamp(r, side - r)
        }
    };
    Pt::new(onto(fell.x, width), onto(fell.y, depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r126_a_template_hits_what_it_overlaps_or_touches_nearest_its_centre_first() {
        let shapes: Vec<Shape> = [
            Footprint::disc(Pt::new(100, 140), 30), // 40 mm off: its edge 25 from the centre
            Footprint::disc(Pt::new(100, 100), 30), // under the centre
            Footprint::disc(Pt::new(145, 100), 30), // touching the 60 mm template
            Footprint::disc(Pt::new(146, 100), 30), // 1 mm clear
        ]
        .iter()
        .map(Footprint::shape)
        .collect();
        assert_eq!(
            template_hits(Pt::new(100, 100), SMALL_MM, &shapes),
            vec![1, 0, 2]
        );
        // The large template reaches the fourth too.
        assert_eq!(
            template_hits(Pt::new(100, 100), LARGE_MM, &shapes),
            vec![1, 0, 2, 3]
        );
    }

    #[test]
    fn r129_every_roll_of_the_two_dice_lands_where_the_ruling_says() {
        // The constant is the sine of 60 degrees to the last bit.
        assert_eq!(HALF_ROOT_3, 3f64.sqrt() / 2.0);
        let aim = Pt::new(600, 300);
        for direction in 1..=6u8 {
            for distance in 1..=6u8 {
                let at = drop_landing(aim, direction, distance, SMALL_MM, 1219, 610);
                let far = f64::from(distance - 1) * 15.0;
                let (dx, dy) = (f64::from(at.x - aim.x), f64::from(at.y - aim.y));
                // As far as the die says, to within the rounding of each
                // coordinate (half a mm each).
                assert!(
                    ((dx * dx + dy * dy).sqrt() - far).abs() <= 0.71,
                    "{direction} {distance}: {at}"
                );
                if distance > 1 {
                    // The direction: 1 toward the far edge, each next 60
                    // degrees clockwise seen from above.
                    let turn = (f64::from(direction - 1) * 60.0).to_radians();
                    let (ux, uy) = (turn.sin(), turn.cos());
                    assert!(
                        (dx * ux + dy * uy) / (dx * dx + dy * dy).sqrt() > 0.99,
                        "{direction} {distance}: {at}"
                    );
                }
            }
        }
        // The landing point rounded, halves away from zero: 15 mm at
        // direction 2 is 12.99 across and 7.5 along, to 612.99,307.5; at
        // direction 5 to 587.01,292.5.
        assert_eq!(
            drop_landing(aim, 2, 2, SMALL_MM, 1219, 610),
            Pt::new(613, 308)
        );
        assert_eq!(
            drop_landing(aim, 5, 2, SMALL_MM, 1219, 610),
            Pt::new(587, 293)
        );
        // Near the edge the template slides the least way onto the table.
        let corner = drop_landing(Pt::new(40, 580), 6, 6, LARGE_MM, 1219, 610);
        assert_eq!(corner, Pt::new(45, 565));
    }
}
