//! A counter on the ring: where it stands and what it holds, its force
//! points and dice (R43), its rate of march in squares (R44), and whether
//! it may scout (R54).

use super::ring::Square;
use super::ticks::CounterId;
use crate::men::{Men, Pick};
use crate::words::{PIECE_NAMES, Words, parse_pieces};

/// A counter on the ring, as the referee knows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counter {
    /// Its side and number.
    pub id: CounterId,
    /// Its square.
    pub at: Square,
    /// What it holds.
    pub pieces: Composition,
}

/// What a counter holds, known only to its owner (R43): Warpspawn pieces,
/// never routers, prisoners or unarmed men.
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
pub struct Composition {
    /// Armed infantry men.
    pub infantry: u16,
    /// Armed cavalry men.
    pub cavalry: u16,
    /// Officers.
    pub officers: u16,
    /// A cannon.
    pub cannon: bool,
    /// Baggage.
    pub baggage: bool,
    /// The side's flag.
    pub flag: bool,
}

/// Force points a die (R43: points / 10, rounded up).
pub const POINTS_A_DIE: u32 = 10;

/// The default most points a scout may have (R54): fewer than a whole die.
pub const SCOUT_MAX_POINTS: u32 = 9;

/// The points of a cannon and its crew of four, the five together (R43).
pub const CREWED_CANNON_POINTS: u32 = 20;

/// The men a cannon needs as its crew (R43, R65).
pub const CREW: u16 = 4;

impl Composition {
    /// Whether it holds nothing.
    pub fn is_empty(&self) -> bool {
        *self == Composition::default()
    }

    /// Whether it holds at least `part`: no more of anything is named
    /// than it has.
    pub fn holds(&self, part: &Composition) -> bool {
        part.infantry <= self.infantry
            && part.cavalry <= self.cavalry
            && part.officers <= self.officers
            && (!part.cannon || self.cannon)
            && (!part.baggage || self.baggage)
            && (!part.flag || self.flag)
    }

    /// Force points (R43): an infantryman 1, a cavalryman 2, an officer 2,
    /// a cannon with four armed men of the counter as its crew 20 for the
    /// five (its crew infantry first, as R65 marks a crew), a cannon
    /// without a crew 0, baggage and a flag 0.
    pub fn points(&self) -> u32 {
        let men = u32::from(self.infantry) + 2 * u32::from(self.cavalry);
        let officers = 2 * u32::from(self.officers);
        let crewed = self.cannon && self.infantry + self.cavalry >= CREW;
        if !crewed {
            return men + officers;
        }
        // The crew's own points are counted in the cannon's 20.
        let crew_infantry = self.infantry.min(CREW);
        let crew_cavalry = CREW - crew_infantry;
        let crew = u32::from(crew_infantry) + 2 * u32::from(crew_cavalry);
        men - crew + officers + CREWED_CANNON_POINTS
    }

    /// Dice the points roll: points / 10, rounded up (R43).
    pub fn dice(&self) -> u32 {
        dice_for(self.points())
    }

    /// The squares a path may take (R44): at the slowest piece's rate,
    /// forward or behind the lines (every square of the path its own
    /// reserve, the start included). Infantry, cannon and baggage go 1
    /// forward and 2 behind the lines; cavalry and officers 2 and 3; a flag
    /// has no rate and slows nothing. An empty counter has no rate.
    pub fn rate(&self, behind_the_lines: bool) -> u16 {
        let slow = self.infantry > 0 || self.cannon || self.baggage;
        let fast = self.cavalry > 0 || self.officers > 0;
        match (slow, fast, behind_the_lines) {
            (true, _, false) => 1,
            (true, _, true) => 2,
            (false, true, false) => 2,
            (false, true, true) => 3,
            (false, false, _) => 0,
        }
    }

    /// Whether it may carry `scout` (R54): it holds something, of no more
    /// than `max_points` (default [`SCOUT_MAX_POINTS`]: fewer than a whole
    /// die, though rounded up it would still roll one).
    pub fn may_scout(&self, max_points: u32) -> bool {
        !self.is_empty() && self.points() <= max_points
    }
}

/// Dice for a number of force points: points / 10, rounded up (R43, R51).
pub fn dice_for(points: u32) -> u32 {
    points.div_ceil(POINTS_A_DIE)
}

/// The pieces' words, as a march names them: `inf 10 cav 2 officer 1
/// cannon baggage flag`.
pub(crate) fn command_words(p: &Composition) -> String {
    Pick {
        men: Men::new(p.infantry, p.cavalry),
        officers: p.officers,
        cannon: p.cannon,
        baggage: p.baggage,
        flag: p.flag,
        ..Pick::default()
    }
    .to_string()
}

/// Pieces named after a counter: at least one, each once; never
/// prisoners or unarmed men (R43).
pub(crate) fn read_pieces(w: &mut Words<'_>) -> Result<Composition, String> {
    let pick = parse_pieces(
        w,
        &PIECE_NAMES[..6],
        "is not a piece of a counter",
        "name the pieces: inf 10 cav 2 officer 1 cannon baggage flag",
    )?;
    Ok(Composition {
        infantry: pick.men.inf,
        cavalry: pick.men.cav,
        officers: pick.officers,
        cannon: pick.cannon,
        baggage: pick.baggage,
        flag: pick.flag,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn men(infantry: u16, cavalry: u16, officers: u16) -> Composition {
        Composition {
            infantry,
            cavalry,
            officers,
            ..Composition::default()
        }
    }

    #[test]
    fn r43_force_points_and_dice() {
        assert_eq!(men(16, 0, 1).points(), 18);
        assert_eq!(men(16, 0, 1).dice(), 2);
        assert_eq!(men(0, 10, 0).points(), 20);
        assert_eq!(men(0, 10, 0).dice(), 2);
        assert_eq!(men(0, 10, 1).dice(), 3, "22 points: rounded up");
        assert_eq!(men(10, 0, 0).dice(), 1);
        assert_eq!(men(0, 0, 0).dice(), 0);
        // A cannon with its crew of four: 20 for the five, the crew
        // infantry first (R65); the rest count as men.
        let battery = Composition {
            cannon: true,
            ..men(8, 0, 0)
        };
        assert_eq!(battery.points(), 20 + 4);
        let horse_battery = Composition {
            cannon: true,
            ..men(2, 3, 0)
        };
        // Crew: 2 infantry and 2 cavalry; one trooper left over at 2.
        assert_eq!(horse_battery.points(), 20 + 2);
        // A cannon without four men to crew it counts nothing.
        let lone_gun = Composition {
            cannon: true,
            ..men(3, 0, 0)
        };
        assert_eq!(lone_gun.points(), 3);
        // Baggage and a flag count nothing.
        let colours = Composition {
            baggage: true,
            flag: true,
            ..men(1, 0, 0)
        };
        assert_eq!(colours.points(), 1);
    }

    #[test]
    fn r44_the_slowest_piece_sets_the_rate_and_a_flag_slows_nothing() {
        assert_eq!(men(5, 0, 0).rate(false), 1);
        assert_eq!(men(5, 0, 0).rate(true), 2);
        assert_eq!(men(0, 5, 1).rate(false), 2);
        assert_eq!(men(0, 5, 1).rate(true), 3);
        assert_eq!(men(1, 5, 1).rate(false), 1, "one infantryman slows all");
        let wagons = Composition {
            baggage: true,
            ..men(0, 5, 0)
        };
        assert_eq!(wagons.rate(true), 2);
        let gun = Composition {
            cannon: true,
            ..men(0, 4, 0)
        };
        assert_eq!(gun.rate(false), 1, "field guns march at 1");
        let flag = Composition {
            flag: true,
            ..men(0, 3, 1)
        };
        assert_eq!(flag.rate(false), 2, "a flag has no rate (R71)");
        assert_eq!(Composition::default().rate(true), 0);
    }

    #[test]
    fn r54_only_a_counter_of_fewer_points_than_a_die_may_scout() {
        assert!(men(9, 0, 0).may_scout(SCOUT_MAX_POINTS));
        assert!(men(1, 2, 1).may_scout(SCOUT_MAX_POINTS), "7 points");
        assert!(!men(10, 0, 0).may_scout(SCOUT_MAX_POINTS));
        assert!(!men(0, 5, 0).may_scout(SCOUT_MAX_POINTS), "10 points");
        assert!(men(0, 5, 0).may_scout(12), "the scenario's own limit");
        assert!(!Composition::default().may_scout(SCOUT_MAX_POINTS));
    }
}
