//! The attack roll (R123, R142): a die, the weapon's bonus at the
//! target's type and the shot's modifiers, against the target's defense;
//! a sniper's own numbers; and the odds of each result, from the same
//! rules over the six faces of the die.

/// What an attack does (R123, R124).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Outcome {
    /// Nothing.
    Miss,
    /// One step.
    Step,
    /// At least twice the defense: a double, destroyed.
    Double,
}

/// The result of `roll` (1 to 6) with `bonus` at the target's type and the
/// shot's summed `modifiers` against `defense` (R123): at least the
/// defense is a step, at least twice it a double. An infantry target in a
/// crater defends at 1 more (`in_crater`). No roll hits or misses by
/// itself (R122).
pub fn attack(roll: u8, bonus: i8, modifiers: i8, defense: u8, in_crater: bool) -> Outcome {
    let total = i16::from(roll) + i16::from(bonus) + i16::from(modifiers);
    let defense = i16::from(defense) + i16::from(in_crater);
    if total >= 2 * defense {
        Outcome::Double
    } else if total >= defense {
        Outcome::Step
    } else {
        Outcome::Miss
    }
}

/// A sniper's shot (R142): it hits on 2+ at a defense of 0 to 4, 3+ at 5
/// or more, one more for each of the seed's penalties (`penalties`: a
/// shield, camouflage, long range, each light structure, in a building,
/// Movement 6 or more); a hit is one step, never a double.
pub fn sniper(roll: u8, defense: u8, penalties: u8) -> Outcome {
    let need = if defense <= 4 { 2 } else { 3 } + u16::from(penalties);
    if u16::from(roll) >= need {
        Outcome::Step
    } else {
        Outcome::Miss
    }
}

/// How many of the die's six faces give each result, miss, step and
/// double, of an attack as [`attack`] rolls it.
pub fn attack_odds(bonus: i8, modifiers: i8, defense: u8, in_crater: bool) -> [u8; 3] {
    let mut out = [0; 3];
    for roll in 1..=6 {
        out[attack(roll, bonus, modifiers, defense, in_crater) as usize] += 1;
    }
    out
}

/// How many of the die's six faces give each result of a sniper's shot.
pub fn sniper_odds(defense: u8, penalties: u8) -> [u8; 3] {
    let mut out = [0; 3];
    for roll in 1..=6 {
        out[sniper(roll, defense, penalties) as usize] += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r123_at_least_the_defense_is_a_step_and_twice_it_a_double() {
        // Bonus 2, modifiers -1, defense 5: 1+1 = 2 misses ... 4+1 = 5 a
        // step; 6+1 = 7 a step; a double needs 10.
        let results: Vec<Outcome> = (1..=6).map(|r| attack(r, 2, -1, 5, false)).collect();
        use Outcome::{Double, Miss, Step};
        assert_eq!(results, [Miss, Miss, Miss, Step, Step, Step]);
        // Defense 2: 4 or more is a double.
        assert_eq!(attack(1, 3, 0, 2, false), Double);
        assert_eq!(attack(1, 2, 0, 2, false), Step);
        // A crater makes infantry's 5 a 6.
        assert_eq!(attack(3, 2, 0, 5, false), Step);
        assert_eq!(attack(3, 2, 0, 5, true), Miss);
        // No roll hits by itself (R122): a six short of the defense misses.
        assert_eq!(attack(6, 0, -3, 9, false), Miss);
    }

    #[test]
    fn r142_a_sniper_hits_on_two_or_three_up_one_a_penalty_and_never_doubles() {
        assert_eq!(sniper_odds(4, 0), [1, 5, 0]);
        assert_eq!(sniper_odds(5, 0), [2, 4, 0]);
        assert_eq!(sniper_odds(5, 2), [4, 2, 0]);
        assert_eq!(sniper_odds(9, 4), [6, 0, 0]);
        assert_eq!(sniper(6, 0, 0), Outcome::Step);
    }

    #[test]
    fn r123_the_odds_are_the_rolls_counted() {
        for bonus in -2..=4i8 {
            for modifiers in -5..=2i8 {
                for defense in 0..=9u8 {
                    for crater in [false, true] {
                        let odds = attack_odds(bonus, modifiers, defense, crater);
                        assert_eq!(odds.iter().map(|n| u32::from(*n)).sum::<u32>(), 6);
                        let doubles = (1..=6u8)
                            .filter(|r| {
                                i16::from(*r) + i16::from(bonus) + i16::from(modifiers)
                                    >= 2 * (i16::from(defense) + i16::from(crater))
                            })
                            .count();
                        assert_eq!(usize::from(odds[2]), doubles);
                    }
                }
            }
        }
    }
}
