//! A move's path in space (R101, R113-R116): up to 8 straight legs for the
//! centre, no longer in all than the unit's Movement in LNS (a vehicle
//! whose path enters vegetation 2 LNS less), no footprint swept along it
//! overlapping a building or another unit (a vehicle passes over
//! infantry, not over vehicles; a flier over units and buildings), ending
//! on the table and overlapping no unit. A refused path says where it
//! failed, with its ruling.
//!
//! An oval keeps its facing along its legs and picks its final one freely
//! (R113): the legs sweep it at its facing, and only where it ends is it
//! set down at the new one.

use std::fmt;

use crate::geometry::{EPS, Footprint, Pt, Shape, V, along_leg, first_touch, overlaps, swept};
use crate::index::Bounds;

/// The most legs a move has (R113).
pub const MAX_LEGS: usize = 8;

/// What stands on the table, as a move meets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A building element (R117): only its doors let a unit in, which
    /// the rules of buildings handle; a path may not cross it.
    Building,
    /// Another unit: a vehicle or infantry (R101).
    Unit {
        /// Whether it is a vehicle.
        vehicle: bool,
    },
    /// Vegetation: costs a vehicle 2 LNS (R114).
    Vegetation,
    /// Anything a move ignores: light structures, craters, hills,
    /// carcasses, smoke, crates (R114).
    Open,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Building => "a building",
            Kind::Unit { vehicle: true } => "a vehicle",
            Kind::Unit { vehicle: false } => "a unit",
            Kind::Vegetation => "vegetation",
            Kind::Open => "open ground",
        })
    }
}

/// The unit that moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mover {
    /// Its footprint where it stands.
    pub at: Footprint,
    /// Its Movement, in LNS, bonuses in (R113).
    pub movement: u8,
    /// Whether it is a vehicle (R114).
    pub vehicle: bool,
    /// Whether it flies (R116).
    pub flight: bool,
}

/// Why a path is refused. Each names its ruling.
#[derive(Debug, Clone, PartialEq)]
pub enum PathError {
    /// More than [`MAX_LEGS`] legs (R113).
    TooManyLegs(usize),
    /// Longer than the unit may move (R113, R114).
    TooLong {
        /// The path's length, in mm.
        length: f64,
        /// The most it may be, in mm.
        most: f64,
        /// Whether vegetation took 2 LNS off (R114).
        vegetation: bool,
    },
    /// The footprint swept along a leg overlaps something it may not
    /// cross (R114, R116): where its centre is when it first touches.
    Touches {
        /// What it touches.
        what: Kind,
        /// Its index among the things given.
        index: usize,
        /// The centre's point when it touches, in whole mm.
        at: Pt,
    },
    /// The move ends overlapping a unit (R114).
    EndsOn {
        /// The unit's index among the things given.
        index: usize,
    },
    /// The move ends off the table, or partly off (R101).
    OffTable {
        /// Where it ends.
        at: Pt,
    },
}

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PathError::TooManyLegs(n) => {
                write!(f, "{n} legs: a move has at most {MAX_LEGS} (R113)")
            }
            PathError::TooLong {
                length,
                most,
                vegetation,
            } => write!(
                f,
                "the path is {length:.1} mm, over the {most:.0} mm the unit moves{} (R113, R114)",
                if *vegetation {
                    ", 2 LNS less for entering vegetation"
                } else {
                    ""
                }
            ),
            PathError::Touches { what, at, .. } => {
                write!(f, "the path touches {what} at {at} (R114)")
            }
            PathError::EndsOn { .. } => {
                write!(f, "the move ends on another unit or a building (R114)")
            }
            PathError::OffTable { at } => write!(f, "the move ends off the table at {at} (R101)"),
        }
    }
}

impl std::error::Error for PathError {}

/// The length of a path of leg ends from `start`, in mm.
pub fn path_length(start: Pt, legs: &[Pt]) -> f64 {
    let mut at = start;
    let mut length = 0.0;
    for end in legs {
        let d = V::new(f64::from(end.x - at.x), f64::from(end.y - at.y));
        length += (d.x * d.x + d.y * d.y).sqrt();
        at = *end;
    }
    length
}

/// The mover's footprint with its centre at `at` (and an oval at `facing`
/// where given).
fn placed(f: &Footprint, at: Pt, facing: Option<i16>) -> Footprint {
    match f {
        Footprint::Disc { diameter, .. } => Footprint::disc(at, *diameter),
        Footprint::Stadium {
            length,
            width,
            facing: was,
            ..
        } => Footprint::stadium(at, *length, *width, facing.unwrap_or(*was)),
        Footprint::Polygon(_) => f.clone(),
    }
}

/// Checks a move of `mover` along `legs` (each leg's end point), ending at
/// `facing` for an oval, against what stands on the table (`things`,
/// shapes with their kinds, the mover itself not among them) on a table of
/// `table` mm with `lns_mm` mm a LNS (R100). Returns the path's length.
pub fn check_path(
    mover: &Mover,
    legs: &[Pt],
    facing: Option<i16>,
    things: &[(Shape, Kind)],
    lns_mm: u16,
    table: (u16, u16),
) -> Result<f64, PathError> {
    if legs.len() > MAX_LEGS {
        return Err(PathError::TooManyLegs(legs.len()));
    }
    let start = mover.at.centre();
    let standing = mover.at.shape();
    let mut vegetation = false;
    let mut at = start;
    // Each thing's box: what a leg's swept box misses, it cannot touch.
    let boxes: Vec<Bounds> = things
        .iter()
        .map(|(thing, _)| Bounds::of(thing).grown(EPS))
        .collect();
    for end in legs {
        let by = V::new(f64::from(end.x - at.x), f64::from(end.y - at.y));
        let moved = placed(&mover.at, at, None).shape();
        let area = swept(&moved, by);
        let area_box = Bounds::of(&area);
        // The first thing touched along this leg, if any.
        let mut first: Option<(f64, usize, Kind)> = None;
        for (i, (thing, kind)) in things.iter().enumerate() {
            if !boxes[i].meets(&area_box) {
                continue;
            }
            let stops = match kind {
                Kind::Building => !mover.flight,
                Kind::Unit { vehicle } => !mover.flight && (*vehicle || !mover.vehicle),
                Kind::Vegetation => {
                    // Entering (R114): vegetation it stands in already
                    // costs nothing to leave.
                    if mover.vehicle
                        && !mover.flight
                        && overlaps(&area, thing)
                        && !overlaps(&standing, thing)
                    {
                        vegetation = true;
                    }
                    false
                }
                Kind::Open => false,
            };
            if stops
                && let Some(t) = first_touch(&moved, by, thing)
                && first.is_none_or(|(best, _, _)| t < best)
            {
                first = Some((t, i, *kind));
            }
        }
        if let Some((t, index, what)) = first {
            return Err(PathError::Touches {
                what,
                index,
                at: along_leg(at, by, t),
            });
        }
        at = *end;
    }
    let length = path_length(start, legs);
    let lns = f64::from(lns_mm);
    let most = f64::from(mover.movement) * lns - if vegetation { 2.0 * lns } else { 0.0 };
    if length > most.max(0.0) + EPS {
        return Err(PathError::TooLong {
            length,
            most: most.max(0.0),
            vegetation,
        });
    }
    let end = placed(&mover.at, at, facing).shape();
    if let Some(index) = things
        .iter()
        .position(|(thing, kind)| matches!(kind, Kind::Unit { .. }) && overlaps(&end, thing))
    {
        return Err(PathError::EndsOn { index });
    }
    // An oval turned at the end (or in place) may not swing into a
    // building; a flier ending on one is on its roof (R114, R116).
    if !mover.flight
        && let Some(index) = things
            .iter()
            .position(|(thing, kind)| *kind == Kind::Building && overlaps(&end, thing))
    {
        return Err(PathError::EndsOn { index });
    }
    let on_table = end.core.iter().all(|p| {
        p.x - end.radius >= -EPS
            && p.y - end.radius >= -EPS
            && p.x + end.radius <= f64::from(table.0) + EPS
            && p.y + end.radius <= f64::from(table.1) + EPS
    });
    if !on_table {
        return Err(PathError::OffTable { at });
    }
    Ok(length)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::square;

    fn foot(x: i32, y: i32) -> Mover {
        Mover {
            at: Footprint::disc(Pt::new(x, y), 30),
            movement: 4,
            vehicle: false,
            flight: false,
        }
    }

    const TABLE: (u16, u16) = (1219, 610);

    #[test]
    fn r113_a_move_is_at_most_movement_lns_in_at_most_eight_legs() {
        let m = foot(100, 100);
        // 4 LNS of 30 mm: 120 mm, the 120 included (R102's "within").
        assert_eq!(
            check_path(&m, &[Pt::new(220, 100)], None, &[], 30, TABLE),
            Ok(120.0)
        );
        let long = check_path(&m, &[Pt::new(221, 100)], None, &[], 30, TABLE).unwrap_err();
        assert!(long.to_string().ends_with("(R113, R114)"), "{long}");
        // Two legs, 60 and 60.
        assert!(
            check_path(
                &m,
                &[Pt::new(160, 100), Pt::new(160, 160)],
                None,
                &[],
                30,
                TABLE
            )
            .is_ok()
        );
        let nine: Vec<Pt> = (1..=9).map(|i| Pt::new(100 + i, 100)).collect();
        assert_eq!(
            check_path(&m, &nine, None, &[], 30, TABLE),
            Err(PathError::TooManyLegs(9))
        );
    }

    #[test]
    fn r114_a_path_that_touches_a_building_is_refused_where_it_touches() {
        let m = foot(50, 150);
        let building = (square(120, 100, 100), Kind::Building);
        let e = check_path(&m, &[Pt::new(160, 150)], None, &[building], 30, TABLE).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the path touches a building at 105,150 (R114)"
        );
        // Round it, by the gap below it, a unit of Movement 6 ends clear.
        let round = [Pt::new(50, 80), Pt::new(150, 80)];
        let quick = Mover {
            movement: 6,
            ..foot(50, 150)
        };
        let building = [(square(120, 100, 100), Kind::Building)];
        assert!(check_path(&quick, &round, None, &building, 30, TABLE).is_ok());
    }

    #[test]
    fn r114_r116_vehicles_pass_over_infantry_not_vehicles_and_fliers_over_both() {
        let infantry = (
            Footprint::disc(Pt::new(150, 100), 30).shape(),
            Kind::Unit { vehicle: false },
        );
        let vehicle = (
            Footprint::disc(Pt::new(150, 100), 40).shape(),
            Kind::Unit { vehicle: true },
        );
        let tank = Mover {
            at: Footprint::stadium(Pt::new(60, 100), 60, 36, 0),
            movement: 6,
            vehicle: true,
            flight: false,
        };
        let past = [Pt::new(240, 100)];
        assert!(
            check_path(
                &tank,
                &past,
                None,
                std::slice::from_ref(&infantry),
                30,
                TABLE
            )
            .is_ok()
        );
        assert!(matches!(
            check_path(
                &tank,
                &past,
                None,
                std::slice::from_ref(&vehicle),
                30,
                TABLE
            ),
            Err(PathError::Touches {
                what: Kind::Unit { vehicle: true },
                ..
            })
        ));
        // No move ends on a unit, over it or not.
        assert_eq!(
            check_path(
                &tank,
                &[Pt::new(150, 100)],
                None,
                std::slice::from_ref(&infantry),
                30,
                TABLE
            ),
            Err(PathError::EndsOn { index: 0 })
        );
        let drone = Mover {
            at: Footprint::disc(Pt::new(60, 100), 30),
            movement: 6,
            vehicle: false,
            flight: true,
        };
        let things = [vehicle.clone(), (square(120, 150, 60), Kind::Building)];
        assert!(check_path(&drone, &past, None, &things, 30, TABLE).is_ok());
    }

    #[test]
    fn r114_a_vehicle_entering_vegetation_moves_two_lns_less() {
        let wood = (square(150, 50, 100), Kind::Vegetation);
        let tank = Mover {
            at: Footprint::stadium(Pt::new(60, 100), 60, 36, 0),
            movement: 6,
            vehicle: true,
            flight: false,
        };
        // 150 mm: within 6 LNS (180), not within 4 (120) once in the wood.
        let through = [Pt::new(210, 100)];
        let e = check_path(
            &tank,
            &through,
            None,
            std::slice::from_ref(&wood),
            30,
            TABLE,
        )
        .unwrap_err();
        assert!(
            matches!(
                e,
                PathError::TooLong {
                    vegetation: true,
                    ..
                }
            ),
            "{e}"
        );
        // Infantry pay nothing for it.
        let m = Mover {
            movement: 6,
            ..foot(60, 100)
        };
        assert!(check_path(&m, &through, None, &[wood], 30, TABLE).is_ok());
    }

    #[test]
    fn r101_a_move_ends_wholly_on_the_table_and_an_oval_at_its_new_facing() {
        let m = foot(100, 20);
        assert_eq!(
            check_path(&m, &[Pt::new(100, 14)], None, &[], 30, TABLE),
            Err(PathError::OffTable {
                at: Pt::new(100, 14)
            })
        );
        assert!(check_path(&m, &[Pt::new(100, 15)], None, &[], 30, TABLE).is_ok());
        // An oval turned across the path at its end, beside a unit: its new
        // facing puts it on the unit.
        let tank = Mover {
            at: Footprint::stadium(Pt::new(60, 100), 60, 36, 0),
            movement: 6,
            vehicle: true,
            flight: false,
        };
        let beside = (
            Footprint::disc(Pt::new(100, 140), 30).shape(),
            Kind::Unit { vehicle: false },
        );
        let end = [Pt::new(100, 100)];
        assert!(
            check_path(
                &tank,
                &end,
                Some(0),
                std::slice::from_ref(&beside),
                30,
                TABLE
            )
            .is_ok()
        );
        assert_eq!(
            check_path(
                &tank,
                &end,
                Some(90),
                std::slice::from_ref(&beside),
                30,
                TABLE
            ),
            Err(PathError::EndsOn { index: 0 })
        );
    }
}
