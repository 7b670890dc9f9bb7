//! Smoke (R130, R131): each player's clouds, 90 mm discs, their penalty by
//! the turns since they were thrown, and what a shot crossing enemy clouds
//! pays.

use crate::geometry::{Footprint, Pt, V, blocks_segment};

/// A cloud's diameter, in mm (R130, project).
pub const CLOUD_MM: u16 = 90;

/// Each player's clouds (R130).
pub const CLOUDS_EACH: usize = 2;

/// A cloud on the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Cloud {
    /// Its centre.
    pub at: Pt,
    /// The seat of the player who threw it.
    pub owner: u16,
    /// The turn it was thrown in.
    pub thrown: u32,
}

impl Cloud {
    /// Its penalty in turn `turn` (R130): -1 the turn it is thrown, -2 the
    /// next, -1 the next; `None` once it is gone (or before it is thrown).
    pub fn penalty(&self, turn: u32) -> Option<i8> {
        match turn.checked_sub(self.thrown)? {
            0 => Some(-1),
            1 => Some(-2),
            2 => Some(-1),
            _ => None,
        }
    }
}

/// How the penalties of several clouds crossed add up (R131,
/// `smoke_stacking`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum SmokeStacking {
    /// Each cloud's penalty counts.
    #[default]
    Each,
    /// Only the worst counts.
    Worst,
}

/// What a shot by `shooter`'s side from `from` to `to` in turn `turn` pays
/// for the enemy clouds it crosses (R131): a line crossing a cloud deeper
/// than `graze` mm crosses it; a player's own clouds never count.
pub fn smoke_penalty(
    clouds: &[Cloud],
    shooter: u16,
    from: V,
    to: V,
    turn: u32,
    graze: f64,
    stacking: SmokeStacking,
) -> i8 {
    let crossed = clouds
        .iter()
        .filter(|c| c.owner != shooter)
        .filter_map(|c| {
            let p = c.penalty(turn)?;
            let shape = Footprint::disc(c.at, CLOUD_MM).shape();
            blocks_segment(&shape, from, to, graze).then_some(p)
        });
    match stacking {
        SmokeStacking::Each => crossed.sum(),
        SmokeStacking::Worst => crossed.min().unwrap_or(0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r130_a_cloud_costs_one_then_two_then_one_and_is_gone() {
        let c = Cloud {
            at: Pt::new(300, 300),
            owner: 1,
            thrown: 4,
        };
        let by_turn: Vec<Option<i8>> = (3..=8).map(|t| c.penalty(t)).collect();
        assert_eq!(by_turn, [None, Some(-1), Some(-2), Some(-1), None, None]);
    }

    #[test]
    fn r131_a_shot_pays_for_enemy_clouds_it_crosses_never_its_own() {
        let enemy = |x: i32, thrown: u32| Cloud {
            at: Pt::new(x, 0),
            owner: 1,
            thrown,
        };
        let clouds = [
            enemy(200, 5),
            enemy(400, 4),
            Cloud {
                at: Pt::new(600, 0),
                owner: 0,
                thrown: 5,
            },
        ];
        let (from, to) = (V::new(0.0, 0.0), V::new(800.0, 0.0));
        // Turn 5: the first enemy cloud -1 (thrown now), the second -2; the
        // shooter's own never counts.
        let each = smoke_penalty(&clouds, 0, from, to, 5, 0.5, SmokeStacking::Each);
        let worst = smoke_penalty(&clouds, 0, from, to, 5, 0.5, SmokeStacking::Worst);
        assert_eq!((each, worst), (-3, -2));
        // The other side shooting the same line pays for the third only.
        assert_eq!(
            smoke_penalty(&clouds, 1, from, to, 5, 0.5, SmokeStacking::Each),
            -1
        );
        // A line passing 45 mm from the clouds' centres grazes them: free.
        let (a, b) = (V::new(0.0, 45.0), V::new(800.0, 45.0));
        assert_eq!(
            smoke_penalty(&clouds, 0, a, b, 5, 0.5, SmokeStacking::Each),
            0
        );
    }
}
