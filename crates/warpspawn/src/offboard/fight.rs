//! A fight in the ring, once both sides have revealed the pieces they
//! commit (R51): superior numbers cancel dice (R52), then both sides roll
//! and compare pairs, high against high (R53). Nobody dies (R50): the
//! result only says who holds the square.

use sandtable_core::dice::{Dice, DiceOut};

use super::counter::{Composition, dice_for};
use super::ring::Square;
use super::ticks::{CounterId, Kind};

/// The grid's house rules among the battle's switches: how superior
/// numbers cancel dice (R52) and what a standoff does (R53); only with an
/// off-board grid.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct GridSwitches {
    /// How superior numbers cancel dice in the ring (R52).
    pub superior_numbers: SuperiorNumbers,
    /// What a standoff of two movers does in the ring (R53).
    pub standoff: StandoffRule,
}

/// R52's switch: how the side with more dice may cancel enemy dice.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum SuperiorNumbers {
    /// One enemy die for each of its own given up (the default).
    #[default]
    OneForOne,
    /// Up to the difference, keeping its own.
    Excess,
    /// No cancelling.
    Off,
}

/// R53's switch: what a standoff of two movers does.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum StandoffRule {
    /// Both movers go back (the default).
    #[default]
    Bounce,
    /// Both roll again until one side wins.
    Reroll,
}

/// One of the two sides of a fight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Party {
    /// The first side named.
    A,
    /// The second side named.
    B,
}

/// How a fight ended.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Outcome {
    /// One side holds the square; the other falls back (R50).
    Won(Party),
    /// Both were moving and neither won: both go back (R50, R53).
    Standoff,
}

/// A fight's dice and what they did, for its event and the log.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Resolved {
    /// Each side's dice after cancelling (R52).
    pub dice: (u32, u32),
    /// Each roll of both sides, high to low, a throw at a time (more than
    /// one only where a standoff is rolled again).
    pub throws: Vec<(Vec<u8>, Vec<u8>)>,
    /// The result.
    pub outcome: Outcome,
}

/// The dice left to each side once the side with more cancels `cancel` of
/// the other's (R52), as many as the switch allows at most; `None` takes
/// all it can, as the bots do. Equal dice cancel nothing.
pub fn cancel(a: u32, b: u32, rule: SuperiorNumbers, cancel: Option<u32>) -> (u32, u32) {
    if a == b {
        return (a, b);
    }
    let (more, fewer) = (a.max(b), a.min(b));
    let most = match rule {
        SuperiorNumbers::OneForOne => fewer,
        SuperiorNumbers::Excess => fewer.min(more - fewer),
        SuperiorNumbers::Off => 0,
    };
    let taken = cancel.map_or(most, |c| c.min(most));
    let (more, fewer) = match rule {
        SuperiorNumbers::OneForOne => (more - taken, fewer - taken),
        _ => (more, fewer - taken),
    };
    if a > b { (more, fewer) } else { (fewer, more) }
}

/// Compares two sides' rolls, each sorted high to low (R53): as many pairs
/// as the smaller number of dice, high against high. A tied pair goes to
/// the defender, or is thrown out when both are moving; the side winning
/// more pairs wins; equal, the defender wins, or it is a standoff. A side
/// with no dice loses without a roll; none against none is the defender's,
/// or a standoff.
pub fn compare(a: &[u8], b: &[u8], defender: Option<Party>) -> Outcome {
    let tie = || defender.map_or(Outcome::Standoff, Outcome::Won);
    match (a.is_empty(), b.is_empty()) {
        (true, true) => return tie(),
        (true, false) => return Outcome::Won(Party::B),
        (false, true) => return Outcome::Won(Party::A),
        (false, false) => {}
    }
    let (mut won_a, mut won_b) = (0u32, 0u32);
    for (x, y) in a.iter().zip(b) {
        match x.cmp(y) {
            std::cmp::Ordering::Greater => won_a += 1,
            std::cmp::Ordering::Less => won_b += 1,
            std::cmp::Ordering::Equal => match defender {
                Some(Party::A) => won_a += 1,
                Some(Party::B) => won_b += 1,
                None => {}
            },
        }
    }
    match won_a.cmp(&won_b) {
        std::cmp::Ordering::Greater => Outcome::Won(Party::A),
        std::cmp::Ordering::Less => Outcome::Won(Party::B),
        std::cmp::Ordering::Equal => tie(),
    }
}

/// Rolls `n` dice, high to low.
fn throw(n: u32, dice: &mut Dice) -> Result<Vec<u8>, DiceOut> {
    let mut rolls = (0..n).map(|_| dice.d6()).collect::<Result<Vec<u8>, _>>()?;
    rolls.sort_unstable_by(|x, y| y.cmp(x));
    Ok(rolls)
}

/// Resolves a fight of `a` dice against `b` (R51's committed points, as
/// dice), `defender` the side that held the square (none when both were
/// moving): superior numbers first (R52, `cancel` as [`cancel`] takes it),
/// then the throw (R53). A side left with dice against none wins without
/// a roll. Under [`StandoffRule::Reroll`] a standoff is thrown again. Dice
/// that run out (a scripted list, R30) refuse.
pub fn resolve(
    (a, b): (u32, u32),
    defender: Option<Party>,
    rules: (SuperiorNumbers, StandoffRule),
    cancelled: Option<u32>,
    dice: &mut Dice,
) -> Result<Resolved, DiceOut> {
    let (a, b) = cancel(a, b, rules.0, cancelled);
    let mut throws = Vec::new();
    loop {
        if a == 0 || b == 0 {
            return Ok(Resolved {
                dice: (a, b),
                throws,
                outcome: compare(&vec![1; a as usize], &vec![1; b as usize], defender),
            });
        }
        let (x, y) = (throw(a, dice)?, throw(b, dice)?);
        let outcome = compare(&x, &y, defender);
        throws.push((x, y));
        if outcome != Outcome::Standoff || rules.1 == StandoffRule::Bounce {
            return Ok(Resolved {
                dice: (a, b),
                throws,
                outcome,
            });
        }
    }
}

/// A counter in a fight: where it stood at the tick's start and stands
/// now, what it committed (R51), and whether it scouts (R54).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Engaged {
    /// The counter.
    pub id: CounterId,
    /// Its square at the tick's start.
    pub from: Square,
    /// Its square after the tick.
    pub at: Square,
    /// The pieces it committed to the fight, revealed with their points.
    pub committed: Composition,
    /// It scouts: it reveals, rolls nothing and falls back (R54).
    pub scout: bool,
}

/// Where a counter goes after a fight (R50, R54).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum After {
    /// It holds the square it stands in (a winner, or a breakthrough's
    /// defender).
    Holds,
    /// A losing mover, a mover of a standoff, or a scout that moved: back
    /// to where it started the tick.
    Back(Square),
    /// A losing defender, or a scout that held: it falls back beside its
    /// square, its owner picking where (`moves::fall_backs`).
    FallsBack,
}

/// A fight settled: its dice and result, and where each counter goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Settled {
    /// The dice, the throws and the result.
    pub resolved: Resolved,
    /// Each counter's fate, in the order given.
    pub after: Vec<(CounterId, After)>,
}

/// The party of a side: side 0 is [`Party::A`].
fn party(side: usize) -> Party {
    if side == 0 { Party::A } else { Party::B }
}

/// Settles a contest of the ring (R50-R54): each side rolls a die for
/// every ten points it committed, its scouts' left out (R51, R54); then
/// [`resolve`] decides, and each counter holds, goes back where it started
/// the tick, or falls back. A breakthrough's winning mover goes on and its
/// defenders stay (R50).
pub fn settle(
    kind: Kind,
    engaged: &[Engaged],
    rules: (SuperiorNumbers, StandoffRule),
    cancelled: Option<u32>,
    dice: &mut Dice,
) -> Result<Settled, DiceOut> {
    let mut points = [0u32; 2];
    for e in engaged.iter().filter(|e| !e.scout) {
        points[e.id.side.min(1)] += e.committed.points();
    }
    let defender = match kind {
        Kind::Meet { defender } => defender.map(party),
        Kind::Swap => None,
        Kind::Breakthrough { defender } => Some(party(defender)),
    };
    let resolved = resolve(
        (dice_for(points[0]), dice_for(points[1])),
        defender,
        rules,
        cancelled,
        dice,
    )?;
    let moved = |e: &Engaged| e.from != e.at;
    let after = engaged
        .iter()
        .map(|e| {
            let won = resolved.outcome == Outcome::Won(party(e.id.side));
            let fate = if e.scout {
                // A scout falls back after the reveal, whatever the result.
                if moved(e) {
                    After::Back(e.from)
                } else {
                    After::FallsBack
                }
            } else if won {
                After::Holds
            } else if let Kind::Breakthrough { defender } = kind
                && e.id.side == defender
            {
                // A breakthrough's defenders stay, won or lost.
                After::Holds
            } else if moved(e) {
                After::Back(e.from)
            } else {
                After::FallsBack
            };
            (e.id, fate)
        })
        .collect();
    Ok(Settled { resolved, after })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn r52_one_for_one_the_seed_s_example_and_the_other_switches() {
        // Side A has 2 dice, side B 7: B cancels both of A's and keeps 5,
        // at least one die left, so it takes the square without a roll.
        assert_eq!(cancel(2, 7, SuperiorNumbers::OneForOne, None), (0, 5));
        let mut dice = Dice::scripted(Vec::new());
        let fight = resolve(
            (2, 7),
            Some(Party::A),
            (SuperiorNumbers::OneForOne, StandoffRule::Bounce),
            None,
            &mut dice,
        )
        .expect("no roll is needed");
        assert_eq!(fight.outcome, Outcome::Won(Party::B));
        assert!(fight.throws.is_empty());
        // How many is the side's choice.
        assert_eq!(cancel(2, 7, SuperiorNumbers::OneForOne, Some(1)), (1, 6));
        assert_eq!(cancel(7, 2, SuperiorNumbers::OneForOne, Some(9)), (5, 0));
        // Excess: up to the difference, keeping its own.
        assert_eq!(cancel(3, 2, SuperiorNumbers::Excess, None), (3, 1));
        assert_eq!(cancel(2, 7, SuperiorNumbers::Excess, None), (0, 7));
        // Off, and equal dice: nothing cancelled.
        assert_eq!(cancel(2, 7, SuperiorNumbers::Off, None), (2, 7));
        assert_eq!(cancel(3, 3, SuperiorNumbers::OneForOne, None), (3, 3));
    }

    #[test]
    fn r53_pairs_high_against_high_and_ties_to_the_defender() {
        // 6 5 against 5 5: a pair each, the tie to the defender B.
        assert_eq!(
            compare(&[6, 5], &[5, 5], Some(Party::B)),
            Outcome::Won(Party::B)
        );
        // The same with A defending: both pairs to A.
        assert_eq!(
            compare(&[6, 5], &[5, 5], Some(Party::A)),
            Outcome::Won(Party::A)
        );
        // Both moving: the tie is thrown out, A won the other pair.
        assert_eq!(compare(&[6, 5], &[5, 5], None), Outcome::Won(Party::A));
        // As many pairs as the smaller number of dice, with no cap of three.
        assert_eq!(
            compare(&[6, 6, 6, 6, 1], &[5, 5, 5, 5], Some(Party::B)),
            Outcome::Won(Party::A)
        );
        // Equal pairs won: the defender's, or a standoff of two movers.
        assert_eq!(
            compare(&[6, 1], &[5, 2], Some(Party::A)),
            Outcome::Won(Party::A)
        );
        assert_eq!(compare(&[6, 1], &[5, 2], None), Outcome::Standoff);
        // No dice: loses without a roll; none against none.
        assert_eq!(compare(&[], &[3], Some(Party::A)), Outcome::Won(Party::B));
        assert_eq!(compare(&[], &[], Some(Party::A)), Outcome::Won(Party::A));
        assert_eq!(compare(&[], &[], None), Outcome::Standoff);
    }

    #[test]
    fn r53_a_standoff_bounces_or_is_rolled_again() {
        let rules = |standoff| (SuperiorNumbers::Off, standoff);
        // Two movers, a die each: 4 against 4 is thrown out, a standoff.
        let mut dice = Dice::scripted(vec![4, 4, 2, 5]);
        let bounce =
            resolve((1, 1), None, rules(StandoffRule::Bounce), None, &mut dice).expect("two rolls");
        assert_eq!(bounce.outcome, Outcome::Standoff);
        assert_eq!(bounce.throws, vec![(vec![4], vec![4])]);
        // Rolled again: 2 against 5 gives B the square.
        let mut dice = Dice::scripted(vec![4, 4, 2, 5]);
        let reroll = resolve((1, 1), None, rules(StandoffRule::Reroll), None, &mut dice)
            .expect("four rolls");
        assert_eq!(reroll.outcome, Outcome::Won(Party::B));
        assert_eq!(reroll.throws.len(), 2);
        // Dice that run out refuse (R30).
        let mut dice = Dice::scripted(vec![4, 4]);
        assert!(resolve((1, 1), None, rules(StandoffRule::Reroll), None, &mut dice).is_err());
    }

    #[test]
    fn r53_each_side_s_throw_is_sorted_high_to_low_before_pairing() {
        // A rolls 1 then 6, B rolls 5 then 2: 6-5 to A, 2-1 to B, and B,
        // defending, keeps the square on equal pairs.
        let mut dice = Dice::scripted(vec![1, 6, 5, 2]);
        let fight = resolve(
            (2, 2),
            Some(Party::B),
            (SuperiorNumbers::OneForOne, StandoffRule::Bounce),
            None,
            &mut dice,
        )
        .expect("four rolls");
        assert_eq!(fight.throws, vec![(vec![6, 1], vec![5, 2])]);
        assert_eq!(fight.outcome, Outcome::Won(Party::B));
    }

    fn engaged(side: usize, number: u16, from: &str, at: &str, infantry: u16) -> Engaged {
        Engaged {
            id: CounterId { side, number },
            from: from.parse().expect("a square"),
            at: at.parse().expect("a square"),
            committed: Composition {
                infantry,
                ..Composition::default()
            },
            scout: false,
        }
    }

    const RULES: (SuperiorNumbers, StandoffRule) = (SuperiorNumbers::Off, StandoffRule::Bounce);

    #[test]
    fn r50_a_losing_mover_goes_back_and_a_losing_defender_falls_back() {
        // Red's 5 (20 points, 2 dice) moves into Blue's 2 (10, 1 die).
        let fight = [engaged(0, 5, "1D", "1E", 20), engaged(1, 2, "1E", "1E", 10)];
        // Red 6 5 against Blue 6: the pair ties to the defender, Blue wins.
        let mut dice = Dice::scripted(vec![6, 5, 6]);
        let done = settle(
            Kind::Meet { defender: Some(1) },
            &fight,
            RULES,
            None,
            &mut dice,
        )
        .expect("three rolls");
        assert_eq!(done.resolved.dice, (2, 1));
        assert_eq!(
            done.after,
            [
                (fight[0].id, After::Back("1D".parse().unwrap())),
                (fight[1].id, After::Holds)
            ]
        );
        // Red 6 5 against Blue 4: Red wins, Blue falls back.
        let mut dice = Dice::scripted(vec![6, 5, 4]);
        let done = settle(
            Kind::Meet { defender: Some(1) },
            &fight,
            RULES,
            None,
            &mut dice,
        )
        .expect("three rolls");
        assert_eq!(done.after[0].1, After::Holds);
        assert_eq!(done.after[1].1, After::FallsBack);
    }

    #[test]
    fn r50_a_standoff_sends_both_movers_back_and_a_breakthrough_winner_goes_on() {
        let fight = [engaged(0, 5, "1D", "1E", 10), engaged(1, 2, "1F", "1E", 10)];
        let mut dice = Dice::scripted(vec![3, 3]);
        let done = settle(
            Kind::Meet { defender: None },
            &fight,
            RULES,
            None,
            &mut dice,
        )
        .expect("rolls");
        assert_eq!(done.resolved.outcome, Outcome::Standoff);
        assert_eq!(
            done.after,
            [
                (fight[0].id, After::Back("1D".parse().unwrap())),
                (fight[1].id, After::Back("1F".parse().unwrap()))
            ]
        );
        // A breakthrough: Red's 5 steps from 1A to 2B between Blue's 2A and
        // 1B (one defender of 10 points); Red's 6 against Blue's 2 wins,
        // and the defenders stay where they are.
        let fight = [
            engaged(0, 5, "1A", "2B", 10),
            engaged(1, 1, "2A", "2A", 5),
            engaged(1, 2, "1B", "1B", 5),
        ];
        let mut dice = Dice::scripted(vec![6, 2]);
        let done = settle(
            Kind::Breakthrough { defender: 1 },
            &fight,
            RULES,
            None,
            &mut dice,
        )
        .expect("two rolls");
        assert_eq!(
            done.resolved.dice,
            (1, 1),
            "the two squares' 10 points: one die"
        );
        assert!(
            done.after.iter().all(|(_, a)| *a == After::Holds),
            "{:?}",
            done.after
        );
    }

    #[test]
    fn r54_a_scout_rolls_nothing_and_falls_back_while_its_partners_fight_on() {
        let mut scout = engaged(0, 9, "1D", "1E", 9);
        scout.scout = true;
        let fight = [
            scout,
            engaged(0, 5, "1D", "1E", 10),
            engaged(1, 2, "1E", "1E", 10),
        ];
        // Red rolls one die for its 10 points, not two for 19.
        let mut dice = Dice::scripted(vec![6, 1]);
        let done = settle(
            Kind::Meet { defender: Some(1) },
            &fight,
            RULES,
            None,
            &mut dice,
        )
        .expect("two rolls");
        assert_eq!(done.resolved.dice, (1, 1));
        assert_eq!(
            done.after[0].1,
            After::Back("1D".parse().unwrap()),
            "the scout"
        );
        assert_eq!(done.after[1].1, After::Holds, "its partner won");
        assert_eq!(done.after[2].1, After::FallsBack);
        // A scout alone rolls nothing and loses: a defender's win without a
        // roll.
        let mut dice = Dice::scripted(Vec::new());
        let done = settle(
            Kind::Meet { defender: Some(1) },
            &fight[..1]
                .iter()
                .chain(&fight[2..])
                .copied()
                .collect::<Vec<_>>(),
            RULES,
            None,
            &mut dice,
        )
        .expect("no roll");
        assert_eq!(done.resolved.outcome, Outcome::Won(Party::B));
    }
}
