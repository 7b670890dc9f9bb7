//! Armies, order markers and decks (R103-R106, R152): what a side brings
//! to the table before the turn begins. An army's list is checked
//! against the scenario's points and the officers' limits, each problem
//! with its field path and ruling; the numbered markers a side places
//! each turn are counted from its list, its officers standing and its
//! automatic-order units; a deck is 25 of the faction's 30 cards, dealt
//! and shuffled by the dice (R30).
//!
//! The turn that uses them (sealed markers, steps, the Reserve, cards in
//! their windows) is built on these.

use sandtable_core::dice::{Dice, DiceOut};
use sandtable_core::game::Ruling;
use sandtable_core::setup::SetupProblem;

use crate::data::{Ability, CARDS, CardData, Faction, UnitData};

/// Cards in a deck (R104).
pub const DECK_CARDS: usize = 25;
/// The most numbered markers a side places (R106).
pub const MAX_MARKERS: u8 = 10;
/// Decoys placed besides (R106).
pub const DECOYS: u8 = 2;

fn problem(path: String, ruling: u16, message: String) -> SetupProblem {
    SetupProblem {
        path,
        ruling: Some(Ruling(ruling)),
        message,
    }
}

/// An army list's AP: the sum of its units' (R103).
pub fn list_ap(list: &[&UnitData]) -> u32 {
    list.iter().map(|u| u32::from(u.ap)).sum()
}

/// How many started 500s of AP a list has: 1 for 1 to 500, 2 for 501 to
/// 1000 ... (R103).
fn started_500s(ap: u32) -> u32 {
    ap.div_ceil(500).max(1)
}

/// The officers a faction fields: its commander (one in any list) and
/// its juniors (so many each started 500 AP of the list), by data id
/// (R103).
fn officers(faction: Faction) -> (&'static str, &'static str, u32) {
    match faction {
        Faction::Legion => ("lg_captain", "lg_lieutenant", 2),
        Faction::Zirl => ("zr_processor", "zr_memory", 3),
    }
}

/// The problems of a side's army list (`path` its field, each unit
/// `path[i]`) against the scenario's `ap` (R103): over the points, a
/// unit of the other faction, more than one commander, more juniors
/// than its started 500s allow, a starred unit twice.
pub fn list_problems(
    path: &str,
    faction: Faction,
    list: &[&UnitData],
    ap: u32,
) -> Vec<SetupProblem> {
    let mut out = Vec::new();
    let total = list_ap(list);
    if total > ap {
        out.push(problem(
            path.to_owned(),
            103,
            format!("the list is {total} AP, over the scenario's {ap}"),
        ));
    }
    for (i, u) in list.iter().enumerate() {
        if u.faction != faction {
            out.push(problem(
                format!("{path}[{i}]"),
                103,
                format!("{} is a {:?} unit in a {faction:?} list", u.id, u.faction),
            ));
        }
    }
    let (commander, junior, per_500) = officers(faction);
    let count = |id: &str| list.iter().filter(|u| u.id == id).count() as u32;
    if count(commander) > 1 {
        out.push(problem(
            path.to_owned(),
            103,
            format!("{} {commander}s: a list has one", count(commander)),
        ));
    }
    let most = per_500 * started_500s(total);
    if count(junior) > most {
        out.push(problem(
            path.to_owned(),
            103,
            format!(
                "{} {junior}s: a list of {total} AP has at most {most} ({per_500} each started 500 AP)",
                count(junior)
            ),
        ));
    }
    for (i, u) in list.iter().enumerate() {
        if u.has(Ability::Starred) && list[..i].iter().any(|o| o.id == u.id) {
            out.push(problem(
                format!("{path}[{i}]"),
                103,
                format!("{} is starred: a list holds it once", u.id),
            ));
        }
    }
    out
}

/// The numbered order markers a side places this turn (R106): 2 for a
/// list of up to 500 AP, 4 up to 1000, else 6; plus each officer's
/// printed bonus while it stands (`standing`: the list's units still on
/// the table), 1 for each automatic-order unit standing, and `cards`
/// more; at most 10.
pub fn order_markers(list_ap: u32, standing: &[&UnitData], cards: u8) -> u8 {
    let base: u32 = match list_ap {
        0..=500 => 2,
        501..=1000 => 4,
        _ => 6,
    };
    let officers: u32 = standing
        .iter()
        .flat_map(|u| u.abilities.iter())
        .map(|a| match a {
            Ability::Orders(n) => u32::from(*n),
            Ability::AutomaticOrder => 1,
            _ => 0,
        })
        .sum();
    (base + officers + u32::from(cards)).min(u32::from(MAX_MARKERS)) as u8
}

/// Why a deck cannot be dealt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeckError {
    /// A card named that the faction's deck has none of (R152).
    Unknown(String),
    /// More copies of a card than its limit (R104).
    OverLimit {
        /// The card.
        card: &'static str,
        /// Copies named.
        named: usize,
        /// Its limit.
        limit: u8,
    },
    /// Not 25 cards (R104).
    Size(usize),
    /// The scripted dice ran out while dealing (R30).
    Dice(DiceOut),
}

impl std::fmt::Display for DeckError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeckError::Unknown(id) => write!(f, "no card is {id:?} (R152)"),
            DeckError::OverLimit { card, named, limit } => {
                write!(
                    f,
                    "{named} {card} cards: a deck holds at most {limit} (R104)"
                )
            }
            DeckError::Size(n) => write!(f, "{n} cards: a deck holds {DECK_CARDS} (R104)"),
            DeckError::Dice(out) => write!(f, "{out}"),
        }
    }
}

impl std::error::Error for DeckError {}

/// The card of id `id` (R152).
pub fn card(id: &str) -> Option<&'static CardData> {
    CARDS.iter().find(|c| c.id == id)
}

/// A side's deck (R104): the `list` given (25 cards within each card's
/// limit), else the faction's 30 less 5 drawn by the dice; shuffled by
/// the dice, top first, unless `in_order` (the scenario's `deck_order`).
pub fn deal(
    list: Option<&[&str]>,
    in_order: bool,
    dice: &mut Dice,
) -> Result<Vec<&'static CardData>, DeckError> {
    let mut deck: Vec<&'static CardData> = match list {
        Some(ids) => {
            let mut deck = Vec::with_capacity(ids.len());
            for id in ids {
                deck.push(card(id).ok_or_else(|| DeckError::Unknown((*id).to_owned()))?);
            }
            for c in CARDS {
                let named = deck.iter().filter(|d| d.id == c.id).count();
                if named > usize::from(c.limit) {
                    return Err(DeckError::OverLimit {
                        card: c.id,
                        named,
                        limit: c.limit,
                    });
                }
            }
            if deck.len() != DECK_CARDS {
                return Err(DeckError::Size(deck.len()));
            }
            deck
        }
        None => {
            let mut all: Vec<&'static CardData> = CARDS
                .iter()
                .flat_map(|c| std::iter::repeat_n(c, usize::from(c.limit)))
                .collect();
            while all.len() > DECK_CARDS {
                let k = dice.draw(all.len()).map_err(DeckError::Dice)?;
                all.remove(k);
            }
            all
        }
    };
    if !in_order {
        // Fisher and Yates, each place drawn by the dice.
        for k in (1..deck.len()).rev() {
            let j = dice.draw(k + 1).map_err(DeckError::Dice)?;
            deck.swap(k, j);
        }
    }
    Ok(deck)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::unit_data;

    fn list(ids: &[&str]) -> Vec<&'static UnitData> {
        ids.iter()
            .map(|id| unit_data(id).unwrap_or_else(|| panic!("{id}")))
            .collect()
    }

    #[test]
    fn r103_a_list_keeps_to_its_points_and_its_officers_limits() {
        let ok = list(&["lg_captain", "lg_lieutenant", "lg_trooper", "lg_trooper"]);
        assert!(list_problems("armies[0].units", Faction::Legion, &ok, 250).is_empty());
        // 95 AP against 90.
        let e = list_problems("armies[0].units", Faction::Legion, &ok, 90);
        assert_eq!(
            e[0].to_string(),
            "armies[0].units: the list is 95 AP, over the scenario's 90 (R103)"
        );
        // Three lieutenants in a list of up to 500 AP: 2 allowed.
        let three = list(&["lg_lieutenant", "lg_lieutenant", "lg_lieutenant"]);
        let e = list_problems("u", Faction::Legion, &three, 1000);
        assert!(
            e.iter().any(|p| p.message
                == "3 lg_lieutenants: a list of 75 AP has at most 2 (2 each started 500 AP)"),
            "{e:?}"
        );
        // 501 AP allows 4 (R103's own example).
        let mut big = list(&["lg_lieutenant"; 4]);
        big.extend(list(&["lg_orion"; 4]));
        big.extend(list(&["lg_trooper"; 1]));
        assert_eq!(list_ap(&big), 515);
        assert!(
            !list_problems("u", Faction::Legion, &big, 1000)
                .iter()
                .any(|p| p.message.contains("lieutenant"))
        );
        // Two heroes, a Zirl unit, two captains.
        let bad = list(&["lg_hero", "lg_hero", "zr_brute", "lg_captain", "lg_captain"]);
        let said: Vec<String> = list_problems("u", Faction::Legion, &bad, 1000)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert!(said.contains(&"u[1]: lg_hero is starred: a list holds it once (R103)".to_owned()));
        assert!(said.contains(&"u[2]: zr_brute is a Zirl unit in a Legion list (R103)".to_owned()));
        assert!(said.contains(&"u: 2 lg_captains: a list has one (R103)".to_owned()));
        // The Zirl: three memories a started 500.
        let zirl = list(&["zr_processor", "zr_memory", "zr_memory", "zr_memory"]);
        assert!(list_problems("u", Faction::Zirl, &zirl, 500).is_empty());
    }

    #[test]
    fn r106_markers_by_list_size_officers_automatic_orders_and_cards_at_most_ten() {
        let captain = list(&["lg_captain", "lg_lieutenant"]);
        assert_eq!(order_markers(250, &captain, 0), 2 + 2 + 1);
        assert_eq!(order_markers(501, &[], 0), 4);
        assert_eq!(order_markers(1001, &[], 0), 6);
        // A dead officer's markers are lost: it is not standing.
        assert_eq!(order_markers(250, &captain[1..], 0), 3);
        // A drone's automatic order, and a card's.
        let drones = list(&["zr_drone", "zr_drone"]);
        assert_eq!(order_markers(250, &drones, 1), 2 + 2 + 1);
        let many = list(&["lg_captain", "lg_lieutenant", "lg_lieutenant"]);
        assert_eq!(order_markers(1500, &many, 3), MAX_MARKERS);
    }

    #[test]
    fn r104_r152_a_deck_is_25_cards_within_their_limits_dealt_and_shuffled_by_the_dice() {
        let mut dice = Dice::seeded(7);
        let deck = deal(None, false, &mut dice).expect("a deck");
        assert_eq!(deck.len(), DECK_CARDS);
        for c in CARDS {
            assert!(deck.iter().filter(|d| d.id == c.id).count() <= usize::from(c.limit));
        }
        // The same dice deal the same deck; others another.
        let again = deal(None, false, &mut Dice::seeded(7)).expect("a deck");
        assert_eq!(deck, again);
        let other = deal(None, false, &mut Dice::seeded(8)).expect("a deck");
        assert_ne!(deck, other);
        // A list of its own, in its order with `deck_order`.
        let mut ids: Vec<&str> = Vec::new();
        for c in CARDS {
            ids.extend(std::iter::repeat_n(c.id, usize::from(c.limit)));
        }
        ids.truncate(DECK_CARDS);
        let kept = deal(Some(&ids), true, &mut Dice::scripted(Vec::new())).expect("no dice");
        assert_eq!(kept.iter().map(|c| c.id).collect::<Vec<_>>(), ids);
        // Over a card's limit, the wrong size, an unknown card.
        let mut six_aims = ids.clone();
        six_aims.retain(|id| *id != "aim");
        six_aims.splice(0..1, ["aim"; 6]);
        six_aims.truncate(DECK_CARDS);
        assert!(matches!(
            deal(Some(&six_aims), true, &mut Dice::seeded(1)),
            Err(DeckError::OverLimit { card: "aim", .. })
        ));
        assert_eq!(
            deal(Some(&ids[..24]), true, &mut Dice::seeded(1))
                .unwrap_err()
                .to_string(),
            "24 cards: a deck holds 25 (R104)"
        );
        let mut odd = ids.clone();
        odd[0] = "joker";
        assert_eq!(
            deal(Some(&odd), true, &mut Dice::seeded(1))
                .unwrap_err()
                .to_string(),
            "no card is \"joker\" (R152)"
        );
        // Scripted dice that run out refuse (R30).
        assert!(matches!(
            deal(None, false, &mut Dice::scripted(vec![1, 2])),
            Err(DeckError::Dice(_))
        ));
    }
}

/// An order marker (R106): a number from 1, or a decoy.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Marker {
    /// Turned up in step `n` (R108).
    Numbered(u8),
    /// Placed to mislead; removed at the Reserve (R112).
    Decoy,
}

/// Where on a unit a marker lies (R107): on infantry, the unit; on a
/// vehicle, its L slot or a weapon's.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Slot {
    /// On the unit (infantry).
    Unit,
    /// A vehicle's L slot: it moves.
    Locomotion,
    /// A vehicle's weapon slot, by the weapon's index: it shoots with it.
    Weapon(u8),
}

/// A marker placed face down in the Order phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Placed {
    /// The unit, by index in the game.
    pub unit: usize,
    /// Where on it.
    pub slot: Slot,
    /// The marker.
    pub marker: Marker,
}

/// Why a Preparation's discards are refused (R105).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiscardError(pub String);

impl std::fmt::Display for DiscardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} (R105)", self.0)
    }
}

impl std::error::Error for DiscardError {}

/// Cards a hand holds after a Preparation (R105).
pub const HAND: usize = 4;

/// A side's Preparation (R105): the cards of `hand` at the places
/// `discard` names go to `discards`, then the hand draws from the top of
/// `deck` up to 4; an empty deck is not reshuffled. Refused, changing
/// nothing, for a place named twice or past the hand.
pub fn prepare<C: Clone>(
    hand: &mut Vec<C>,
    deck: &mut Vec<C>,
    discards: &mut Vec<C>,
    discard: &[usize],
) -> Result<(), DiscardError> {
    let mut places = discard.to_vec();
    places.sort_unstable();
    if let Some(w) = places.windows(2).find(|w| w[0] == w[1]) {
        return Err(DiscardError(format!(
            "card {} is discarded twice",
            w[0] + 1
        )));
    }
    if let Some(p) = places.iter().find(|p| **p >= hand.len()) {
        return Err(DiscardError(format!(
            "the hand holds {} cards, not a card {}",
            hand.len(),
            p + 1
        )));
    }
    for p in places.iter().rev() {
        discards.push(hand.remove(*p));
    }
    while hand.len() < HAND && !deck.is_empty() {
        hand.push(deck.remove(0));
    }
    Ok(())
}

#[cfg(test)]
mod preparation_tests {
    use super::*;

    #[test]
    fn r105_a_preparation_discards_any_and_draws_up_to_four_without_reshuffling() {
        let mut hand = vec!["aim", "jam", "cover"];
        let mut deck = vec!["rally", "sprint"];
        let mut discards = Vec::new();
        // Card 2 out; draw to 4.
        prepare(&mut hand, &mut deck, &mut discards, &[1]).expect("legal");
        assert_eq!(hand, ["aim", "cover", "rally", "sprint"]);
        assert_eq!(discards, ["jam"]);
        assert!(deck.is_empty());
        // An empty deck is not reshuffled: the hand stays short.
        prepare(&mut hand, &mut deck, &mut discards, &[0, 3]).expect("legal");
        assert_eq!(hand, ["cover", "rally"]);
        // Refusals change nothing.
        let before = (hand.clone(), deck.clone(), discards.clone());
        let e = prepare(&mut hand, &mut deck, &mut discards, &[0, 0]).unwrap_err();
        assert_eq!(e.to_string(), "card 1 is discarded twice (R105)");
        let e = prepare(&mut hand, &mut deck, &mut discards, &[5]).unwrap_err();
        assert_eq!(e.to_string(), "the hand holds 2 cards, not a card 6 (R105)");
        assert_eq!((hand, deck, discards), before);
    }
}
