//! A choice a stash result of The Snyder Skirmish waits for (R22, R23): while
//! one waits, only the `pick` or `place` commands it allows are legal. The
//! rules that make and settle a choice are `discovery`'s.

use crate::pieces::UnitId;

/// A choice a stash result waits for (R22, R23).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Choice {
    /// `place SQ F`: the discovering unit to any empty square.
    PlaceAnywhere {
        /// The discovering unit.
        unit: UnitId,
    },
    /// `pick SQ`: one of the player's units takes up to N additional actions.
    ExtraActions {
        /// N.
        actions: u8,
    },
    /// `pick SQ`: an unfriendly unit to return to its base, or capture.
    PickUnfriendly,
    /// `place SQ F`: the picked unfriendly unit to within 2 of its base.
    ReturnUnfriendly {
        /// The unit picked.
        unit: UnitId,
    },
    /// `place SQ F`: a captured friendly unit back to within 2 of its base.
    ReturnFriend,
    /// `place SQ F`: the discovering unit to within 2 of its own base.
    ReturnThisUnit {
        /// The discovering unit.
        unit: UnitId,
    },
}

impl Choice {
    /// A short name for the kind of choice, used in the state summary.
    pub fn kind(&self) -> &'static str {
        match self {
            Choice::PlaceAnywhere { .. } => "place_anywhere",
            Choice::ExtraActions { .. } => "pick_for_extra_actions",
            Choice::PickUnfriendly => "pick_unfriendly",
            Choice::ReturnUnfriendly { .. } => "return_unfriendly",
            Choice::ReturnFriend => "return_captured_friend",
            Choice::ReturnThisUnit { .. } => "return_this_unit",
        }
    }

    /// What is awaited, in plain words.
    pub fn awaited(&self) -> String {
        match self {
            Choice::PlaceAnywhere { .. } => {
                "`place SQUARE FACING` for the discovering unit, on any empty square".to_owned()
            }
            Choice::ExtraActions { actions } => format!(
                "`pick SQUARE`: one of your units on the board to take up to {actions} additional actions"
            ),
            Choice::PickUnfriendly => {
                "`pick SQUARE`: an unfriendly unit to return to its base or capture".to_owned()
            }
            Choice::ReturnUnfriendly { .. } => {
                "`place SQUARE FACING` for the picked unit, within 2 squares of its base".to_owned()
            }
            Choice::ReturnFriend => {
                "`place SQUARE FACING` for a captured unit of yours, within 2 squares of its base"
                    .to_owned()
            }
            Choice::ReturnThisUnit { .. } => {
                "`place SQUARE FACING` for the discovering unit, within 2 squares of its base"
                    .to_owned()
            }
        }
    }

    pub(crate) fn code(&self) -> u64 {
        match *self {
            Choice::PlaceAnywhere { unit } => 1 | u64::from(unit.0) << 8,
            Choice::ExtraActions { actions } => 2 | u64::from(actions) << 8,
            Choice::PickUnfriendly => 3,
            Choice::ReturnUnfriendly { unit } => 4 | u64::from(unit.0) << 8,
            Choice::ReturnFriend => 5,
            Choice::ReturnThisUnit { unit } => 6 | u64::from(unit.0) << 8,
        }
    }
}
