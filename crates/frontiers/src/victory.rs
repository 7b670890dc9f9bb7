//! The scenarios' victory conditions that are counts (R145, R146, R148):
//! the AP destroyed at the end, Confrontation's 80% of the enemy list,
//! Treasure hunt's banked crates, and Attack/Defense's points for the
//! attacker. Each is checked after every resolution by the turn that
//! plays the scenarios; both sides reaching one at once is a draw.

use sandtable_core::game::{Ending, Seat};

/// The side ahead on AP destroyed after the last turn (R145): more wins,
/// equal is a draw.
pub fn on_ap(ap: [u32; 2]) -> Ending {
    match ap[0].cmp(&ap[1]) {
        std::cmp::Ordering::Greater => Ending::Won(Seat(0)),
        std::cmp::Ordering::Less => Ending::Won(Seat(1)),
        std::cmp::Ordering::Equal => Ending::Draw("equal AP destroyed after the last turn (R145)"),
    }
}

/// Confrontation (R146): a side wins with 80% of the enemy list's AP
/// destroyed (the seed's examples are exactly 80%, so 80% counts); both
/// at once, a draw; `None` while neither has.
pub fn confrontation(ap_destroyed: [u32; 2], list_ap: [u32; 2]) -> Option<Ending> {
    // 80% exactly, in whole numbers: destroyed x 5 at least list x 4.
    let reached = |side: usize| ap_destroyed[side] * 5 >= list_ap[1 - side] * 4;
    match (reached(0), reached(1)) {
        (true, true) => Some(Ending::Draw(
            "both sides destroyed 80% of the other's list at once (R145, R146)",
        )),
        (true, false) => Some(Ending::Won(Seat(0))),
        (false, true) => Some(Ending::Won(Seat(1))),
        (false, false) => None,
    }
}

/// Treasure hunt's end (R148): the side with more crates banked wins,
/// then the one with more AP destroyed; else a draw.
pub fn treasure_hunt(banked: [u32; 2], ap_destroyed: [u32; 2]) -> Ending {
    match banked[0].cmp(&banked[1]) {
        std::cmp::Ordering::Greater => Ending::Won(Seat(0)),
        std::cmp::Ordering::Less => Ending::Won(Seat(1)),
        std::cmp::Ordering::Equal => match on_ap(ap_destroyed) {
            Ending::Draw(_) => Ending::Draw("equal crates banked and equal AP destroyed (R148)"),
            won => won,
        },
    }
}

/// Attack/Defense's `mode` (R148): the attacker's points as a multiple
/// of the defender's.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Mode {
    /// x1.
    Even,
    /// x1.5 (the default).
    #[default]
    HalfAgain,
    /// x2.
    Double,
}

/// The attacker's points in Attack/Defense against a defender of
/// `defender` AP (R148), rounded down.
pub fn attacker_ap(defender: u32, mode: Mode) -> u32 {
    match mode {
        Mode::Even => defender,
        Mode::HalfAgain => defender * 3 / 2,
        Mode::Double => defender * 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r145_after_the_last_turn_more_ap_destroyed_wins() {
        assert_eq!(on_ap([60, 45]), Ending::Won(Seat(0)));
        assert_eq!(on_ap([10, 45]), Ending::Won(Seat(1)));
        assert!(matches!(on_ap([30, 30]), Ending::Draw(_)));
    }

    #[test]
    fn r146_confrontation_is_won_at_80_percent_exactly_and_drawn_when_both_reach_it() {
        // 250 AP lists: 200 destroyed is 80%.
        assert_eq!(confrontation([199, 0], [250, 250]), None);
        assert_eq!(
            confrontation([200, 0], [250, 250]),
            Some(Ending::Won(Seat(0)))
        );
        assert_eq!(
            confrontation([0, 200], [250, 250]),
            Some(Ending::Won(Seat(1)))
        );
        assert!(matches!(
            confrontation([200, 200], [250, 250]),
            Some(Ending::Draw(_))
        ));
        // Against a 245 AP list, 196 is 80%.
        assert_eq!(
            confrontation([196, 0], [250, 245]),
            Some(Ending::Won(Seat(0)))
        );
        assert_eq!(confrontation([195, 0], [250, 245]), None);
    }

    #[test]
    fn r148_treasure_hunt_and_attack_defense() {
        assert_eq!(treasure_hunt([2, 1], [0, 90]), Ending::Won(Seat(0)));
        assert_eq!(treasure_hunt([1, 1], [0, 90]), Ending::Won(Seat(1)));
        assert!(matches!(treasure_hunt([1, 1], [40, 40]), Ending::Draw(_)));
        assert_eq!(attacker_ap(250, Mode::default()), 375);
        assert_eq!(attacker_ap(250, Mode::Even), 250);
        assert_eq!(attacker_ap(251, Mode::HalfAgain), 376);
        assert_eq!(attacker_ap(250, Mode::Double), 500);
    }
}
