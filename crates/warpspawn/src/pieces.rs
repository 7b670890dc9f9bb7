//! The pieces a side starts with in a hex, as a battle's setup and its
//! off-board grid's reserves both give them: plain data, below both.

use crate::hex::Hex;

/// The pieces one side starts with in one hex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct PiecesSetup {
    /// The hex.
    pub at: Hex,
    /// The side, by its index in [`crate::Setup::sides`].
    pub side: usize,
    /// Infantry men.
    pub infantry: u16,
    /// Cavalry men.
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

impl PiecesSetup {
    /// Their cost in points, doubled so that cavalry's 1.5 stays whole
    /// (R61).
    pub fn cost_doubled(&self) -> u64 {
        2 * u64::from(self.infantry)
            + 3 * u64::from(self.cavalry)
            + 6 * u64::from(self.officers)
            + 20 * u64::from(self.cannon)
            + 4 * u64::from(self.baggage)
    }
}
