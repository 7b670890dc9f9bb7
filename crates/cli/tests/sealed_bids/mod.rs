//! Sealed Bids: a small game that exists only in the tests, to show that
//! the game contract carries what the coming rule systems need: sealed
//! decisions revealed together, hidden hands, dice, and an answer owed by
//! the player who did not move.
//!
//! Two players, North and South, are each dealt three cards by dice (a
//! card is a die's number), unseen by the other. Each of three rounds:
//! - both bid one card of their hand at once, sealed (`bid 4`); the bids
//!   are revealed together when both are in (S1);
//! - the higher card wins the round; equal cards are decided by a coin, a
//!   die read 1-3 for North and 4-6 for South (S2, R30);
//! - the winner rolls a die for the prize (S2);
//! - the loser answers: `concede` (the winner scores the prize) or
//!   `challenge` (a die: 5-6 and the loser scores the prize, 1-4 and the
//!   winner scores the prize and one more) (S3).
//!
//! After three rounds the higher score wins; equal scores draw (S4). Undo
//! never goes back past a reveal or a roll (R31). The game's own rules are
//! numbered S1 to S4, as rulings 901 to 904.
//!
//! The CLI's tests (`crates/cli/tests/front.rs`) and the table's
//! (`tests/viewer.rs`) both play it: the table's include this file.

use std::fmt;
use std::str::FromStr;

use rand::{Rng, SeedableRng};
use sandtable_core::dice::{Dice, DiceOut};
use sandtable_core::game::{
    Applied, Barrier, Chance, Decision, Ending, GameState, Legal, Odds, Refusal, Ruling, Seat,
    Seats, Spot, Surface, Viewer,
};

/// The players' names, in seat order.
pub const NAMES: [&str; 2] = ["North", "South"];

/// A command of Sealed Bids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cmd {
    /// `bid 4`: a card of the bidder's hand, sealed until both are in.
    Bid(u8),
    /// `concede`: the round's loser lets the winner score the prize.
    Concede,
    /// `challenge`: the round's loser rolls for the prize.
    Challenge,
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmd::Bid(card) => write!(f, "bid {card}"),
            Cmd::Concede => f.write_str("concede"),
            Cmd::Challenge => f.write_str("challenge"),
        }
    }
}

impl FromStr for Cmd {
    type Err = String;

    fn from_str(text: &str) -> Result<Cmd, String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["bid", card] => match card.parse() {
                Ok(c @ 1..=6) => Ok(Cmd::Bid(c)),
                _ => Err(format!("`{text}`: a card is 1 to 6")),
            },
            ["concede"] => Ok(Cmd::Concede),
            ["challenge"] => Ok(Cmd::Challenge),
            _ => Err(format!("`{text}`: expected bid CARD, concede or challenge")),
        }
    }
}

/// Why a command is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    why: String,
    ruling: u16,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.why, Ruling(self.ruling))
    }
}

impl Refusal for Refused {
    fn ruling(&self) -> Ruling {
        Ruling(self.ruling)
    }
}

fn refuse(ruling: u16, why: impl Into<String>) -> Refused {
    Refused {
        why: why.into(),
        ruling,
    }
}

fn dice_out(out: DiceOut) -> Refused {
    refuse(30, out.reason())
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Happened {
    /// A seat put in its sealed bid (its card is not told).
    Sealed(Seat),
    /// Both bids are shown.
    Revealed([u8; 2]),
    /// A coin decided equal bids.
    Coin(u8, Seat),
    /// The round's winner rolled for the prize.
    Prize(Seat, u8),
    /// The loser conceded; the winner scores.
    Conceded(Seat, u8),
    /// The loser challenged and rolled; this seat scores this much.
    Challenged(u8, Seat, u8),
    /// The game is over.
    Ended,
}

/// The round's loser owes an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Answer {
    winner: Seat,
    prize: u8,
}

/// The state of a game; cards in hand are 1 to 6, 0 once played.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    hands: [[u8; 3]; 2],
    bids: [Option<u8>; 2],
    shown: Vec<[u8; 2]>,
    answer: Option<Answer>,
    scores: [u8; 2],
    dice: Dice,
}

/// A game of Sealed Bids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SealedBids {
    state: State,
}

impl SealedBids {
    /// Deals three cards to each player with the dice: North's, then South's.
    pub fn new(mut dice: Dice) -> Result<SealedBids, String> {
        let mut hands = [[0; 3]; 2];
        for hand in &mut hands {
            for card in hand.iter_mut() {
                *card = dice
                    .d6()
                    .map_err(|out| format!("dealing the hands: {}", out.reason()))?;
            }
        }
        Ok(SealedBids {
            state: State {
                hands,
                bids: [None; 2],
                shown: Vec::new(),
                answer: None,
                scores: [0; 2],
                dice,
            },
        })
    }

    /// The scores, in seat order.
    pub fn scores(&self) -> [u8; 2] {
        self.state.scores
    }

    /// A player's score, hand and bid, as `viewer` may know them.
    fn player_line(&self, k: usize, viewer: Viewer) -> String {
        let s = &self.state;
        let cards: Vec<String> = s.hands[k]
            .iter()
            .filter(|c| **c > 0)
            .map(|c| c.to_string())
            .collect();
        let hand = match viewer {
            Viewer::Player(p) if p.index() != k => format!("{} cards", cards.len()),
            Viewer::Public => format!("{} cards", cards.len()),
            _ => format!("hand {}", cards.join(" ")),
        };
        let bid = match (s.bids[k], viewer) {
            (None, _) => "no bid".to_owned(),
            (Some(b), Viewer::Referee) => format!("bid {b}"),
            (Some(b), Viewer::Player(p)) if p.index() == k => format!("bid {b}"),
            (Some(_), Viewer::Player(_) | Viewer::Public) => "a sealed bid".to_owned(),
        };
        format!("{}: score {}, {hand}, {bid}", NAMES[k], s.scores[k])
    }

    fn over(&self) -> bool {
        self.state.shown.len() == 3 && self.state.answer.is_none()
    }

    fn plan(&self, seat: Seat, command: &Cmd) -> Result<(), Refused> {
        let s = &self.state;
        if self.over() {
            return Err(refuse(904, "the game is over"));
        }
        let name = NAMES[seat.index()];
        match (*command, s.answer) {
            (Cmd::Bid(card), None) => {
                if s.bids[seat.index()].is_some() {
                    return Err(refuse(901, format!("{name} has bid this round already")));
                }
                if !s.hands[seat.index()].contains(&card) {
                    return Err(refuse(901, format!("{name} holds no {card}")));
                }
                if s.bids[1 - seat.index()].is_some() {
                    // The last bid reveals: a coin when equal, then the prize.
                    let equal = s.bids[1 - seat.index()] == Some(card);
                    s.dice
                        .require(if equal { 2 } else { 1 })
                        .map_err(dice_out)?;
                }
                Ok(())
            }
            (Cmd::Bid(_), Some(a)) => Err(refuse(
                903,
                format!(
                    "{} answers the round first: concede or challenge",
                    NAMES[1 - a.winner.index()]
                ),
            )),
            (Cmd::Concede | Cmd::Challenge, Some(a)) => {
                if seat == a.winner {
                    return Err(refuse(
                        903,
                        format!("{name} won the round: the loser answers"),
                    ));
                }
                if *command == Cmd::Challenge {
                    s.dice.require(1).map_err(dice_out)?;
                }
                Ok(())
            }
            (Cmd::Concede | Cmd::Challenge, None) => {
                Err(refuse(903, "no round waits for an answer: bid"))
            }
        }
    }

    fn score(&mut self, seat: Seat, points: u8, events: &mut Vec<Happened>) {
        let s = &mut self.state;
        s.scores[seat.index()] += points;
        s.answer = None;
        s.bids = [None; 2];
        if s.shown.len() == 3 {
            events.push(Happened::Ended);
        }
    }
}

impl GameState for SealedBids {
    type Command = Cmd;
    type Refusal = Refused;
    type Event = Happened;

    fn system(&self) -> &'static str {
        "SealedBids"
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Seat) -> &str {
        NAMES[seat.index()]
    }

    fn decision(&self) -> Decision {
        let s = &self.state;
        if self.over() {
            return Decision::Over(match s.scores[0].cmp(&s.scores[1]) {
                std::cmp::Ordering::Greater => Ending::Won(Seat(0)),
                std::cmp::Ordering::Less => Ending::Won(Seat(1)),
                std::cmp::Ordering::Equal => Ending::Draw("equal scores (S4)"),
            });
        }
        match s.answer {
            Some(a) => Decision::One(Seat(1 - a.winner.0)),
            None => Decision::Sealed(
                (0..2u16)
                    .map(Seat)
                    .filter(|seat| s.bids[seat.index()].is_none())
                    .fold(Seats::default(), Seats::with),
            ),
        }
    }

    fn legal_into(&self, seat: Seat, out: &mut Vec<Legal<Cmd>>) {
        out.clear();
        let mut candidates: Vec<Cmd> = self.state.hands[seat.index()]
            .iter()
            .filter(|c| **c > 0)
            .map(|c| Cmd::Bid(*c))
            .collect();
        candidates.sort_by_key(|c| match c {
            Cmd::Bid(v) => *v,
            _ => 0,
        });
        candidates.dedup();
        candidates.extend([Cmd::Concede, Cmd::Challenge]);
        for command in candidates {
            if self.plan(seat, &command).is_ok() {
                out.push(Legal {
                    command,
                    cost: 0,
                    piece: None,
                    at: None,
                });
            }
        }
    }

    fn check(&self, seat: Seat, command: &Cmd) -> Result<(), Refused> {
        self.plan(seat, command)
    }

    fn apply_into(
        &mut self,
        seat: Seat,
        command: &Cmd,
        events: &mut Vec<Happened>,
    ) -> Result<Applied, Refused> {
        self.plan(seat, command)?;
        let barrier = match *command {
            Cmd::Bid(card) => {
                let s = &mut self.state;
                let hand = &mut s.hands[seat.index()];
                let k = hand.iter().position(|c| *c == card).expect("planned");
                hand[k] = 0;
                s.bids[seat.index()] = Some(card);
                events.push(Happened::Sealed(seat));
                match s.bids {
                    [Some(a), Some(b)] => {
                        s.shown.push([a, b]);
                        events.push(Happened::Revealed([a, b]));
                        let winner = match a.cmp(&b) {
                            std::cmp::Ordering::Greater => Seat(0),
                            std::cmp::Ordering::Less => Seat(1),
                            std::cmp::Ordering::Equal => {
                                let die = s.dice.d6().expect("planned");
                                let seat = if die <= 3 { Seat(0) } else { Seat(1) };
                                events.push(Happened::Coin(die, seat));
                                seat
                            }
                        };
                        let prize = s.dice.d6().expect("planned");
                        events.push(Happened::Prize(winner, prize));
                        s.answer = Some(Answer { winner, prize });
                        Some(Barrier::Reveal)
                    }
                    _ => None,
                }
            }
            Cmd::Concede => {
                let a = self.state.answer.expect("planned");
                events.push(Happened::Conceded(a.winner, a.prize));
                self.score(a.winner, a.prize, events);
                None
            }
            Cmd::Challenge => {
                let a = self.state.answer.expect("planned");
                let die = self.state.dice.d6().expect("planned");
                let (to, points) = if die >= 5 {
                    (Seat(1 - a.winner.0), a.prize)
                } else {
                    (a.winner, a.prize + 1)
                };
                events.push(Happened::Challenged(die, to, points));
                self.score(to, points, events);
                Some(Barrier::Roll)
            }
        };
        Ok(Applied { barrier })
    }

    /// Each hand is its player's own, and a bid until both are in.
    fn hides(&self) -> bool {
        true
    }

    /// A bid is the bidder's own until both are in: the others read that
    /// one is in (`Happened::Sealed`), not the card.
    fn command_for(&self, seat: Seat, command: &Cmd, viewer: Viewer) -> Option<String> {
        // One bid in, the other not: the one in is still sealed.
        let sealed = matches!(command, Cmd::Bid(_))
            && matches!(self.state.bids, [Some(_), None] | [None, Some(_)]);
        match viewer {
            Viewer::Player(v) if v != seat && sealed => None,
            Viewer::Public if sealed => None,
            _ => Some(command.to_string()),
        }
    }

    fn describe(&self, event: &Happened) -> String {
        match event {
            Happened::Sealed(seat) => format!("{} bids, sealed", NAMES[seat.index()]),
            Happened::Revealed([a, b]) => format!("revealed: North {a}, South {b}"),
            Happened::Coin(die, seat) => {
                format!(
                    "equal bids: the coin shows {die}, for {}",
                    NAMES[seat.index()]
                )
            }
            Happened::Prize(seat, prize) => {
                format!(
                    "{} wins the round and rolls {prize} for the prize",
                    NAMES[seat.index()]
                )
            }
            Happened::Conceded(seat, points) => {
                format!("conceded: {} scores {points}", NAMES[seat.index()])
            }
            Happened::Challenged(die, seat, points) => {
                format!(
                    "challenged: rolled {die}, {} scores {points}",
                    NAMES[seat.index()]
                )
            }
            Happened::Ended => "the game is over".to_owned(),
        }
    }

    fn undo_stop(&self, _barrier: Option<Barrier>) -> String {
        "undo never goes back past a reveal or a roll (R31)".to_owned()
    }

    fn odds(&self, seat: Seat, command: &Cmd) -> Vec<Odds> {
        let odds = (*command == Cmd::Challenge && self.plan(seat, command).is_ok()).then(|| Odds {
            what: "the challenge roll (S3)".to_owned(),
            outcomes: vec![
                (
                    "the challenger scores the prize".to_owned(),
                    Chance { num: 2, den: 6 },
                ),
                (
                    "the winner scores the prize and one more".to_owned(),
                    Chance { num: 4, den: 6 },
                ),
            ],
        });
        odds.into_iter().collect()
    }

    fn dice(&self) -> &Dice {
        &self.state.dice
    }

    fn set_dice(&mut self, dice: Dice) {
        self.state.dice = dice;
    }

    fn reseed(&mut self, seed: u64) {
        self.state.dice = Dice::seeded(seed);
    }

    /// The other player's unplayed cards and unrevealed bid are dealt again.
    fn redeal(&mut self, viewer: Seat, seed: u64) {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        let other = 1 - viewer.index();
        let s = &mut self.state;
        for card in s.hands[other].iter_mut().filter(|c| **c > 0) {
            *card = rng.random_range(1..=6);
        }
        if let Some(bid) = s.bids[other].as_mut() {
            *bid = rng.random_range(1..=6);
        }
        self.reseed(rng.random());
    }

    /// The other's hand and sealed bid, for a player, each a 1; both, for
    /// the public; the dice none.
    fn masked(&self, viewer: Viewer) -> SealedBids {
        let mut copy = self.clone();
        for k in 0..2 {
            let sees = match viewer {
                Viewer::Referee => true,
                Viewer::Player(p) => p.index() == k,
                Viewer::Public => false,
            };
            if !sees {
                let s = &mut copy.state;
                for card in s.hands[k].iter_mut().filter(|c| **c > 0) {
                    *card = 1;
                }
                if let Some(bid) = s.bids[k].as_mut() {
                    *bid = 1;
                }
            }
        }
        copy.state.dice = sandtable_core::game::no_dice();
        copy
    }

    fn state_hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let s = &self.state;
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (s.hands, s.bids, &s.shown, s.answer, s.scores).hash(&mut h);
        s.dice.position().hash(&mut h);
        h.finish()
    }

    fn turn(&self) -> u32 {
        self.state.shown.len() as u32 + 1
    }

    fn surface(&self) -> Surface {
        Surface::Plane {
            width_mm: 300,
            depth_mm: 200,
        }
    }

    fn view_json(&self, viewer: Viewer) -> String {
        let s = &self.state;
        let sees = |seat: usize| match viewer {
            Viewer::Referee => true,
            Viewer::Player(p) => p.index() == seat,
            Viewer::Public => false,
        };
        let players: Vec<serde_json::Value> = (0..2)
            .map(|k| {
                let cards: Vec<u8> = s.hands[k].iter().copied().filter(|c| *c > 0).collect();
                let mut player = serde_json::json!({
                    "name": NAMES[k],
                    "score": s.scores[k],
                    "cards": cards.len(),
                    "bid_in": s.bids[k].is_some(),
                });
                if sees(k) {
                    player["hand"] = serde_json::json!(cards);
                    player["bid"] = serde_json::json!(s.bids[k]);
                }
                player
            })
            .collect();
        let view = serde_json::json!({
            "round": s.shown.len() + usize::from(s.answer.is_none() && s.shown.len() < 3),
            "players": players,
            "revealed": s.shown,
            "answer_owed_by": s.answer.map(|a| NAMES[1 - a.winner.index()]),
        });
        serde_json::to_string_pretty(&view).expect("plain data")
    }

    /// A player's place on the table: North's half of the plane on the
    /// left, South's on the right, as `viewer` may know it, with the cards
    /// bid in the rounds revealed.
    fn describe_spot(&self, spot: Spot, viewer: Viewer) -> Option<String> {
        let Spot::Point { x_mm, y_mm } = spot else {
            return None;
        };
        if !(0..300).contains(&x_mm) || !(0..200).contains(&y_mm) {
            return None;
        }
        let k = usize::from(x_mm >= 150);
        let shown: Vec<String> = self.state.shown.iter().map(|b| b[k].to_string()).collect();
        let mut line = self.player_line(k, viewer);
        if !shown.is_empty() {
            line.push_str(&format!("; bids shown {}", shown.join(" ")));
        }
        Some(line)
    }

    fn draw_text(&self, viewer: Viewer) -> String {
        let mut out = String::new();
        for k in 0..NAMES.len() {
            out.push_str(&self.player_line(k, viewer));
            out.push('\n');
        }
        let status = match self.decision() {
            Decision::Over(Ending::Won(seat)) => format!("game over, {} wins", NAMES[seat.index()]),
            Decision::Over(Ending::Draw(why)) => format!("game over, a draw: {why}"),
            Decision::One(seat) => format!("{} to answer", NAMES[seat.index()]),
            Decision::Sealed(seats) => {
                let owed: Vec<&str> = seats.iter().map(|s| NAMES[s.index()]).collect();
                format!("sealed bids owed by {}", owed.join(" and "))
            }
        };
        out.push_str(&status);
        out.push('\n');
        out
    }

    fn warnings(&self) -> Vec<String> {
        Vec::new()
    }
}
