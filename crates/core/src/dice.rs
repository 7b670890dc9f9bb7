//! The dice source every game holds (R30): one seeded generator, or a
//! scripted list of rolls (real dice rolled beside a real table, or a test's
//! forced rolls). Every random result of a rule system comes from here, the
//! first-player draw included, so that the same scenario, seed (or rolls)
//! and commands always give the same game, roll for roll.
//!
//! A die is a number from 1 to 6; a coin is a die read as 1-3 or 4-6 (R30).
//! A scripted list that runs out refuses to go on: the rule system asks
//! [`Dice::left`] before it changes anything, and refuses with [`DiceOut`].
//!
//! ```
//! use sandtable_core::dice::{Dice, parse_rolls};
//!
//! let mut dice = Dice::scripted(parse_rolls("4,2 5").unwrap());
//! assert_eq!(dice.left(), Some(3));
//! assert_eq!(dice.d6(), Ok(4));
//! assert_eq!(dice.coin(), Ok(false)); // 2 reads as 1-3
//! assert_eq!(dice.d6(), Ok(5));
//! let out = dice.d6().unwrap_err();
//! assert_eq!(out.to_string(), "the scripted dice have run out: 1 more roll is needed and none is left (R30)");
//! ```

use std::fmt;
use std::sync::Arc;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Scripted lists longer than this are refused: far more rolls than any
/// game of any system makes.
pub const MAX_SCRIPTED_ROLLS: usize = 100_000;

/// Where a game's random results come from (R30).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Dice {
    /// The game's own generator, seeded from the scenario's or the record's seed.
    Seeded(Stream),
    /// Rolls given in advance, used in order.
    Scripted(Script),
}

/// The seeded generator, kept as its key and its place in the stream: a
/// few words, so that copying a game (which bots do by the million) copies
/// no generator buffer. Each roll picks the stream up where it was, so the
/// rolls are exactly those of one ChaCha8 generator drawn from in turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stream {
    key: [u8; 32],
    word_pos: u128,
}

impl Stream {
    fn draw<T>(&mut self, f: impl FnOnce(&mut ChaCha8Rng) -> T) -> T {
        let mut rng = ChaCha8Rng::from_seed(self.key);
        rng.set_word_pos(self.word_pos);
        let value = f(&mut rng);
        self.word_pos = rng.get_word_pos();
        value
    }
}

/// A list of rolls and how many of them have been used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "ScriptWire", try_from = "ScriptWire")]
pub struct Script {
    /// Shared by copies of a game: the rolls never change, only `next`.
    rolls: Arc<[u8]>,
    next: usize,
}

/// A script as it is written: its rolls and how many were used.
#[derive(Serialize, Deserialize)]
struct ScriptWire {
    rolls: Vec<u8>,
    next: usize,
}

impl From<Script> for ScriptWire {
    fn from(s: Script) -> ScriptWire {
        ScriptWire {
            rolls: s.rolls.to_vec(),
            next: s.next,
        }
    }
}

impl TryFrom<ScriptWire> for Script {
    type Error = String;

    fn try_from(w: ScriptWire) -> Result<Script, String> {
        if w.rolls.len() > MAX_SCRIPTED_ROLLS || w.next > w.rolls.len() {
            return Err(format!(
                "a script of {} rolls, {} used: at most {MAX_SCRIPTED_ROLLS}, and no more used than there are",
                w.rolls.len(),
                w.next
            ));
        }
        if let Some(r) = w.rolls.iter().find(|r| !(1..=6).contains(*r)) {
            return Err(format!("a roll of {r} in a script: rolls are 1 to 6"));
        }
        Ok(Script {
            rolls: w.rolls.into(),
            next: w.next,
        })
    }
}

impl Script {
    /// The rolls used so far, oldest first.
    pub fn used(&self) -> &[u8] {
        &self.rolls[..self.next]
    }

    /// The rolls still to come, next first.
    pub fn remaining(&self) -> &[u8] {
        &self.rolls[self.next..]
    }
}

/// A scripted list ran out: nothing was changed (R30).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiceOut {
    /// Rolls the refused step needs (at least this many, for a draw that
    /// may roll again).
    pub needed: usize,
    /// Rolls left in the list.
    pub left: usize,
}

impl DiceOut {
    /// What ran out, in plain words, without the ruling.
    pub fn reason(&self) -> String {
        let needed = match self.needed {
            1 => "1 more roll is".to_owned(),
            n => format!("{n} more rolls are"),
        };
        let left = match self.left {
            0 => "none is".to_owned(),
            1 => "1 is".to_owned(),
            n => format!("{n} are"),
        };
        format!("the scripted dice have run out: {needed} needed and {left} left")
    }
}

impl fmt::Display for DiceOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (R30)", self.reason())
    }
}

impl std::error::Error for DiceOut {}

impl Dice {
    /// The seeded generator (R30).
    pub fn seeded(seed: u64) -> Dice {
        Dice::Seeded(Stream {
            key: ChaCha8Rng::seed_from_u64(seed).get_seed(),
            word_pos: 0,
        })
    }

    /// A scripted list of rolls, each from 1 to 6 (see [`parse_rolls`]).
    pub fn scripted(rolls: Vec<u8>) -> Dice {
        debug_assert!(rolls.iter().all(|r| (1..=6).contains(r)));
        Dice::Scripted(Script {
            rolls: rolls.into(),
            next: 0,
        })
    }

    /// Rolls left: `None` for the seeded generator, which never runs out.
    pub fn left(&self) -> Option<usize> {
        match self {
            Dice::Seeded(_) => None,
            Dice::Scripted(s) => Some(s.rolls.len() - s.next),
        }
    }

    /// Refuses unless at least `needed` rolls are left.
    pub fn require(&self, needed: usize) -> Result<(), DiceOut> {
        match self.left() {
            Some(left) if left < needed => Err(DiceOut { needed, left }),
            _ => Ok(()),
        }
    }

    /// The script, when the dice are scripted.
    pub fn script(&self) -> Option<&Script> {
        match self {
            Dice::Seeded(_) => None,
            Dice::Scripted(s) => Some(s),
        }
    }

    /// One die, 1 to 6.
    pub fn d6(&mut self) -> Result<u8, DiceOut> {
        match self {
            Dice::Seeded(stream) => Ok(stream.draw(|rng| rng.random_range(1..=6))),
            Dice::Scripted(s) => {
                let roll = *s.rolls.get(s.next).ok_or(DiceOut { needed: 1, left: 0 })?;
                s.next += 1;
                Ok(roll)
            }
        }
    }

    /// A coin: a die read as 1-3 (`false`) or 4-6 (`true`) (R30).
    pub fn coin(&mut self) -> Result<bool, DiceOut> {
        Ok(self.d6()? >= 4)
    }

    /// One of `n` things, each as likely (`n` at least 1), read from dice
    /// as a person would read real ones: as many dice as `n` needs read as
    /// one number (one die up to 6 things, two up to 36 ...), rolled again
    /// when it falls above the largest multiple of `n`. The generator
    /// rolls its dice for it the same way, so that every random result of
    /// every game is a run of dice (R30): a game's rolls, written down,
    /// replay it whether they came from the generator or from real dice
    /// ([`Dice::rolls_since`]). On a scripted list that runs out, the dice
    /// read so far are used up.
    pub fn draw(&mut self, n: usize) -> Result<usize, DiceOut> {
        assert!(n >= 1, "a draw among no things");
        if n == 1 {
            return Ok(0);
        }
        let mut dice = 1;
        let mut faces: usize = 6;
        while faces < n {
            dice += 1;
            faces = faces.saturating_mul(6);
        }
        let band = faces / n;
        loop {
            if let Some(left) = self.left().filter(|l| *l < dice) {
                return Err(DiceOut { needed: dice, left });
            }
            let mut value = 0usize;
            for _ in 0..dice {
                value = value * 6 + usize::from(self.d6()? - 1);
            }
            if value < band * n {
                return Ok(value / band);
            }
        }
    }

    /// The dice rolled from `before` to here, oldest first: `before` rolled
    /// again die by die until it stands where these do. Every draw is made
    /// of dice ([`Dice::draw`]), so scripted dice of these rolls make the
    /// same results as the dice did, generator or not (R30). Empty when
    /// `before` is not an earlier state of these dice.
    pub fn rolls_since(&self, before: &Dice) -> Vec<u8> {
        let same = match (self, before) {
            (Dice::Seeded(a), Dice::Seeded(b)) => a.key == b.key,
            (Dice::Scripted(a), Dice::Scripted(b)) => {
                Arc::ptr_eq(&a.rolls, &b.rolls) || a.rolls == b.rolls
            }
            _ => false,
        };
        if !same {
            return Vec::new();
        }
        let mut before = before.clone();
        let mut rolls = Vec::new();
        let target = self.position();
        // Bounded so that dice of another game never loop.
        while before.position() < target && rolls.len() < MAX_SCRIPTED_ROLLS {
            match before.d6() {
                Ok(roll) => rolls.push(roll),
                Err(_) => return Vec::new(),
            }
        }
        if before.position() == target {
            rolls
        } else {
            Vec::new()
        }
    }

    /// Where the dice stand, for state hashes: the generator's position in
    /// its stream, or the count of rolls used (with a mark apart from any
    /// stream position a game reaches).
    pub fn position(&self) -> u128 {
        match self {
            Dice::Seeded(stream) => stream.word_pos,
            Dice::Scripted(s) => (1u128 << 127) | s.next as u128,
        }
    }
}

/// Why a list of rolls was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadRolls(pub String);

impl fmt::Display for BadRolls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadRolls {}

/// Reads a list of rolls: numbers from 1 to 6 separated by commas or
/// spaces, as `--dice 4,2,5` and the `[Dice "4 2 5"]` header write them.
/// A comma with no roll before or after it is refused, not skipped: a roll
/// left out would shift every roll after it onto another die.
pub fn parse_rolls(text: &str) -> Result<Vec<u8>, BadRolls> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 1
        && let Some(k) = parts.iter().position(|p| p.trim().is_empty())
    {
        let before = parts[..k].iter().flat_map(|p| p.split_whitespace()).count();
        let place = match before {
            0 => "before the first roll".to_owned(),
            n => format!("after roll {n}"),
        };
        return Err(BadRolls(format!(
            "a comma with no roll {place}: each die rolled is written once (R30)"
        )));
    }
    let mut rolls = Vec::new();
    for (k, word) in parts.iter().flat_map(|p| p.split_whitespace()).enumerate() {
        match word.parse::<u8>() {
            Ok(r @ 1..=6) => rolls.push(r),
            _ => {
                return Err(BadRolls(format!(
                    "roll {} is {word:?}: a die reads 1 to 6 (R30)",
                    k + 1
                )));
            }
        }
        if rolls.len() > MAX_SCRIPTED_ROLLS {
            return Err(BadRolls(format!(
                "more than {MAX_SCRIPTED_ROLLS} rolls: far more than any game makes"
            )));
        }
    }
    Ok(rolls)
}

/// Writes rolls as [`parse_rolls`] reads them, separated by spaces.
pub fn write_rolls(rolls: &[u8]) -> String {
    let mut out = String::with_capacity(rolls.len() * 2);
    for (k, r) in rolls.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.push(char::from(b'0' + r));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeded_source_rolls_the_generators_dice() {
        // The streams of every shipped game and record rest on these calls:
        // a die is the generator's own call, and a draw is read from dice.
        let mut dice = Dice::seeded(7);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20 {
            let d: u8 = rng.random_range(1..=6);
            assert_eq!(dice.d6().unwrap(), d);
        }
        assert_eq!(dice.position(), rng.get_word_pos());
        assert_eq!(dice.left(), None);
        assert_eq!(dice.require(1_000_000), Ok(()));
    }

    #[test]
    fn a_seeded_draw_reads_its_dice_as_scripted_dice_of_the_same_rolls_do() {
        // R30: the generator's draws are runs of dice, so the rolls written
        // down replay them.
        let mut dice = Dice::seeded(11);
        let start = dice.clone();
        let ns = [2usize, 3, 5, 1, 9, 40, 7, 36, 37, 250];
        let drawn: Vec<usize> = ns.iter().map(|n| dice.draw(*n).unwrap()).collect();
        let rolls = dice.rolls_since(&start);
        assert!(rolls.len() >= 9, "each draw but the one of one thing rolls");
        let mut scripted = Dice::scripted(rolls.clone());
        let again: Vec<usize> = ns.iter().map(|n| scripted.draw(*n).unwrap()).collect();
        assert_eq!(again, drawn);
        assert_eq!(scripted.left(), Some(0), "every roll was read");
        assert_eq!(
            Dice::scripted(rolls.clone()).rolls_since(&Dice::scripted(rolls.clone())),
            Vec::<u8>::new()
        );
        // Dice that are not an earlier state give nothing.
        assert_eq!(start.rolls_since(&dice), Vec::<u8>::new());
        assert_eq!(dice.rolls_since(&Dice::seeded(12)), Vec::<u8>::new());
    }

    #[test]
    fn seeded_draws_fall_evenly() {
        let mut dice = Dice::seeded(3);
        let mut counts = [0u32; 5];
        for _ in 0..5000 {
            counts[dice.draw(5).unwrap()] += 1;
        }
        for c in counts {
            assert!((850..1150).contains(&c), "{counts:?}");
        }
    }

    #[test]
    fn a_scripted_draw_reads_dice_as_a_person_would_and_rolls_again_above_the_band() {
        // Two things: a coin.
        for (roll, want) in [(1, 0), (3, 0), (4, 1), (6, 1)] {
            assert_eq!(Dice::scripted(vec![roll]).draw(2), Ok(want));
        }
        // Four things: 5 and 6 are rolled again.
        let mut dice = Dice::scripted(vec![6, 5, 3]);
        assert_eq!(dice.draw(4), Ok(2));
        assert_eq!(dice.left(), Some(0));
        // Seven things need two dice, read as 0 to 35; 35 is rolled again.
        let mut dice = Dice::scripted(vec![6, 6, 1, 6]);
        assert_eq!(dice.draw(7), Ok(1)); // (0 * 6 + 5) / 5
        assert_eq!(Dice::scripted(vec![]).draw(1), Ok(0));
    }

    #[test]
    fn every_outcome_of_a_scripted_draw_is_equally_likely() {
        for n in 1..=36usize {
            let dice_for = if n <= 6 { 1 } else { 2 };
            let mut counts = vec![0usize; n];
            let mut rerolls = 0;
            for value in 0..6usize.pow(dice_for) {
                let mut rolls = Vec::new();
                let mut v = value;
                for _ in 0..dice_for {
                    rolls.push((v % 6) as u8 + 1);
                    v /= 6;
                }
                rolls.reverse();
                match Dice::scripted(rolls).draw(n) {
                    Ok(k) => counts[k] += 1,
                    Err(DiceOut { left: 0, .. }) => rerolls += 1,
                    Err(e) => panic!("{n}: {e}"),
                }
            }
            assert!(counts.iter().all(|c| *c == counts[0]), "{n}: {counts:?}");
            assert!(rerolls < n, "{n}: {rerolls} rerolls");
        }
    }

    #[test]
    fn a_scripted_list_that_runs_out_says_so() {
        let mut dice = Dice::scripted(vec![2]);
        assert_eq!(dice.require(2), Err(DiceOut { needed: 2, left: 1 }));
        assert_eq!(
            DiceOut { needed: 2, left: 1 }.to_string(),
            "the scripted dice have run out: 2 more rolls are needed and 1 is left (R30)"
        );
        assert_eq!(dice.d6(), Ok(2));
        assert_eq!(dice.d6(), Err(DiceOut { needed: 1, left: 0 }));
        assert_eq!(dice.script().unwrap().used(), &[2]);
        let mut dice = Dice::scripted(vec![1]);
        assert_eq!(dice.draw(7), Err(DiceOut { needed: 2, left: 1 }));
    }

    #[test]
    fn rolls_read_and_write_back() {
        assert_eq!(parse_rolls("4,2,5").unwrap(), vec![4, 2, 5]);
        assert_eq!(parse_rolls(" 4 2, 5\n").unwrap(), vec![4, 2, 5]);
        assert_eq!(parse_rolls("").unwrap(), Vec::<u8>::new());
        assert_eq!(write_rolls(&[4, 2, 5]), "4 2 5");
        assert_eq!(
            parse_rolls(&write_rolls(&[1, 6, 3])).unwrap(),
            vec![1, 6, 3]
        );
        for (text, why) in [
            ("4,7", "roll 2 is \"7\": a die reads 1 to 6 (R30)"),
            ("0", "roll 1 is \"0\": a die reads 1 to 6 (R30)"),
            ("4,x", "roll 2 is \"x\": a die reads 1 to 6 (R30)"),
            ("-1", "roll 1 is \"-1\": a die reads 1 to 6 (R30)"),
            // A roll left out is refused, not skipped.
            (
                "2,,5",
                "a comma with no roll after roll 1: each die rolled is written once (R30)",
            ),
            (
                " 4 2,, 5\n",
                "a comma with no roll after roll 2: each die rolled is written once (R30)",
            ),
            (
                ",2",
                "a comma with no roll before the first roll: each die rolled is written once (R30)",
            ),
            (
                "4,2,",
                "a comma with no roll after roll 2: each die rolled is written once (R30)",
            ),
        ] {
            assert_eq!(parse_rolls(text).unwrap_err().to_string(), why);
        }
        let long = "1 ".repeat(MAX_SCRIPTED_ROLLS + 1);
        assert!(parse_rolls(&long).unwrap_err().0.contains("more than"));
    }

    #[test]
    fn copies_share_the_script_and_keep_their_own_place() {
        let mut a = Dice::scripted(vec![1, 2, 3]);
        a.d6().unwrap();
        let mut b = Dice::seeded(1);
        b.clone_from(&a);
        assert_eq!(b, a);
        assert_eq!(b.d6(), Ok(2));
        assert_eq!(a.left(), Some(2));
        assert_ne!(a.position(), b.position());
        let mut c = Dice::seeded(3);
        c.clone_from(&Dice::seeded(4));
        assert_eq!(c, Dice::seeded(4));
    }
}
