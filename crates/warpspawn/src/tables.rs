//! The rules' tables as functions: a shot's casualties with its density
//! and range modifiers (R67), a melee's ratio row (R74) and a rally's
//! result (R79). The battle's fire and melee, the grid's fire
//! at a counter and the odds are all read from them.

use crate::setup::RallyLow;

/// Men a shot kills for a roll (R67): the roll and the modifiers, at least
/// 0, at least 1 on a natural 6, and no more than the target has.
pub fn casualties(roll: u8, modifier: i8, target_men: u16) -> u16 {
    let mut n = (i16::from(roll) + i16::from(modifier)).max(0) as u16;
    if roll == 6 {
        n = n.max(1);
    }
    n.min(target_men)
}

/// The melee table's row for two doubled strengths (R74).
pub fn ratio_row(a2: u32, b2: u32) -> usize {
    let (hi, lo) = (u64::from(a2.max(b2)), u64::from(a2.min(b2)));
    if hi >= 4 * lo {
        0
    } else if hi >= 3 * lo {
        1
    } else if hi >= 2 * lo {
        2
    } else if 2 * hi >= 3 * lo {
        3
    } else {
        4
    }
}

/// The density modifier of R67: the men in the target.
pub fn density_modifier(men: u16) -> i8 {
    match men {
        0..=5 => -2,
        6..=10 => -1,
        11..=15 => 0,
        _ => 1,
    }
}

/// The range modifier of R67.
pub fn range_modifier(range: u16) -> i8 {
    match range {
        1 => 1,
        2 | 3 => 0,
        4 => -1,
        5 => -2,
        _ => -3,
    }
}

/// The rally table's reading of a modified roll (R79).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RallyResult {
    /// The routers are armed again.
    Rally,
    /// They flee on.
    Flee,
    /// The friendly formation panics.
    Panic,
}

/// Reads a modified rally roll (R79, switch `rally_low`).
pub fn rally_result(total: i16, low: RallyLow) -> RallyResult {
    match total {
        i16::MIN..=2 => match low {
            RallyLow::Rally => RallyResult::Rally,
            RallyLow::Flee => RallyResult::Flee,
        },
        3 | 4 => RallyResult::Flee,
        _ => RallyResult::Panic,
    }
}
