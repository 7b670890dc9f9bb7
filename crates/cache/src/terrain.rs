//! Terrain of Table B: the kinds a scenario places (R12 to R16) and the ground
//! each square ends up with. Movement costs are computed in `game`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::geometry::Square;

/// A kind of terrain piece, as a scenario places it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TerrainKind {
    /// Low wall or fence, T110: crossed in one Advance, never stood on (R13).
    LowWall,
    /// High wall, T190: impassable (R12).
    HighWall,
    /// Mountain, T190: impassable (R12).
    Mountain,
    /// Woods, T190: impassable (R12).
    Woods,
    /// Water, T120: entering costs 3 actions (R12).
    Water,
    /// Road, T130: runs of several squares for one action (R14).
    Road,
    /// Bridge, T130 surface; an elevated one costs +1 to step on and off (R15).
    Bridge {
        /// Whether the bridge has stairs or a ramp (R15).
        elevated: bool,
    },
    /// Building or enclosure, T140: a rectangle walled with T190 except for one
    /// entrance square on its ring; inside and entrance are T130 (R16).
    Building {
        /// The one square of the ring that is open.
        entrance: Square,
    },
}

impl TerrainKind {
    /// The short name used in messages.
    pub fn name(self) -> &'static str {
        match self {
            TerrainKind::LowWall => "low wall",
            TerrainKind::HighWall => "high wall",
            TerrainKind::Mountain => "mountain",
            TerrainKind::Woods => "woods",
            TerrainKind::Water => "water",
            TerrainKind::Road => "road",
            TerrainKind::Bridge { elevated: true } => "elevated bridge",
            TerrainKind::Bridge { elevated: false } => "bridge",
            TerrainKind::Building { .. } => "building",
        }
    }
}

/// One terrain piece: a kind laid over a set of squares.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TerrainPiece {
    /// What the piece is.
    pub kind: TerrainKind,
    /// The squares it covers; for a building, the whole rectangle including its ring.
    pub squares: Vec<Square>,
}

/// The ground of one square after all pieces are laid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Ground {
    /// No terrain: entering costs 1 action.
    #[default]
    Open,
    /// T110 low wall or fence.
    LowWall,
    /// T190 high wall.
    HighWall,
    /// T190 mountain.
    Mountain,
    /// T190 woods.
    Woods,
    /// T120 water.
    Water,
    /// T130 road.
    Road,
    /// T130 bridge surface, raised when elevated (R15).
    Bridge {
        /// Stairs or ramp at its ends.
        elevated: bool,
    },
    /// T190 wall on a building's ring (R16).
    BuildingWall,
    /// T130 floor inside a building (R16).
    BuildingFloor,
    /// T130 entrance square on a building's ring (R16).
    BuildingEntrance,
}

/// The movement class of Table B a ground belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TerrainClass {
    /// No terrain.
    Open,
    /// Low wall or fence.
    T110,
    /// Water.
    T120,
    /// Road-like surface.
    T130,
    /// High, no penetration.
    T190,
}

impl fmt::Display for TerrainClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TerrainClass::Open => "open ground",
            TerrainClass::T110 => "T110",
            TerrainClass::T120 => "T120",
            TerrainClass::T130 => "T130",
            TerrainClass::T190 => "T190",
        })
    }
}

impl Ground {
    /// Table B class of this ground.
    pub const fn class(self) -> TerrainClass {
        match self {
            Ground::Open => TerrainClass::Open,
            Ground::LowWall => TerrainClass::T110,
            Ground::HighWall | Ground::Mountain | Ground::Woods | Ground::BuildingWall => {
                TerrainClass::T190
            }
            Ground::Water => TerrainClass::T120,
            Ground::Road
            | Ground::Bridge { .. }
            | Ground::BuildingFloor
            | Ground::BuildingEntrance => TerrainClass::T130,
        }
    }

    /// Whether the square is part of an elevated bridge (R15).
    pub const fn elevated(self) -> bool {
        matches!(self, Ground::Bridge { elevated: true })
    }

    /// Whether a unit may stand here (R12: not on T110 or T190).
    pub const fn can_hold_unit(self) -> bool {
        !matches!(self.class(), TerrainClass::T110 | TerrainClass::T190)
    }

    /// What entering the square costs, in plain words with the ruling
    /// (R12 to R16).
    pub fn movement(self) -> String {
        match self {
            Ground::LowWall => {
                "never stood on: crossed onto the square beyond for 3 actions, 2 if faced from the start (R13)".to_owned()
            }
            Ground::HighWall | Ground::Mountain | Ground::Woods | Ground::BuildingWall => {
                "never entered (R12)".to_owned()
            }
            Ground::Road
            | Ground::Bridge { elevated: false }
            | Ground::BuildingFloor
            | Ground::BuildingEntrance => {
                "1 action to enter; a straight run over road, bridge or floor costs 1 in all (R14)"
                    .to_owned()
            }
            Ground::Bridge { elevated: true } => {
                "1 action to enter, +1 to step on or off the bridge (R15)".to_owned()
            }
            g => {
                let n = enter_cost(g);
                format!(
                    "{n} action{} to enter (R12)",
                    if n == 1 { "" } else { "s" }
                )
            }
        }
    }

    /// A description for messages, with its Table B class.
    pub fn describe(self) -> String {
        let name = match self {
            Ground::Open => return "open ground".to_owned(),
            Ground::LowWall => "a low wall",
            Ground::HighWall => "a high wall",
            Ground::Mountain => "a mountain",
            Ground::Woods => "woods",
            Ground::Water => "water",
            Ground::Road => "road",
            Ground::Bridge { elevated: true } => "an elevated bridge",
            Ground::Bridge { elevated: false } => "a bridge",
            Ground::BuildingWall => "a building wall",
            Ground::BuildingFloor => "a building floor",
            Ground::BuildingEntrance => "a building entrance",
        };
        format!("{name} ({})", self.class())
    }
}

/// Actions to enter a square a unit may stand on (R12): 1, or 3 for water.
pub(crate) fn enter_cost(ground: Ground) -> u16 {
    match ground.class() {
        TerrainClass::T120 => 3,
        _ => 1,
    }
}
