//! What the ring's commands and its movement did, one thing at a time, in
//! plain words for the log, and as each side may read them (R57): an
//! order, a split, a merge or a pick of forces is its side's secret until
//! revealed; a counter's move is shown to the enemy only where the enemy
//! locates it at both ends (outside its reserve, R46).

use std::collections::BTreeSet;

use super::command::Order;
use super::counter::Composition;
use super::fight::{After, Outcome, Party};
use super::ring::Square;
use super::ticks::{CounterId, Kind};
use crate::hex::Hex;
use crate::men::Men;

/// Something that happened on the ring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RingEvent {
    /// A game turn's Orders phase began (R47).
    OrdersBegan {
        /// The game turn.
        turn: u32,
    },
    /// A counter has its order (secret until revealed, R47).
    Ordered {
        /// The counter.
        id: CounterId,
        /// Its order.
        order: Order,
        /// It scouts (R54).
        scout: bool,
    },
    /// A counter split, the new one taking the lowest free number (R45).
    Split {
        /// The counter split.
        id: CounterId,
        /// The new counter's number.
        new: u16,
        /// What the new counter holds.
        pieces: Composition,
    },
    /// A counter joined another in its square (R45).
    Merged {
        /// The counter that stays.
        into: CounterId,
        /// The counter that joined it.
        joined: u16,
    },
    /// A side sealed its orders (R47).
    OrdersSealed {
        /// The side.
        side: usize,
    },
    /// Both sides' orders are revealed together (R47): every counter's
    /// order, those left without one holding.
    OrdersRevealed {
        /// Each counter's order and whether it scouts, by side and number.
        orders: Vec<(CounterId, Square, Order, bool)>,
    },
    /// A tick of the ring's movement: the counters that stepped (R49).
    Stepped {
        /// The tick, from 1.
        tick: usize,
        /// Each counter that stepped, from and to.
        moves: Vec<(CounterId, Square, Square)>,
    },
    /// A fight began (R49): its square, its kind and its counters.
    FightBegan {
        /// Where.
        square: Square,
        /// Its kind.
        kind: Kind,
        /// Its counters.
        counters: Vec<CounterId>,
    },
    /// A counter's forces are picked (secret until both commit, R51).
    ForcesPicked {
        /// The counter.
        id: CounterId,
        /// What it commits.
        pieces: Composition,
    },
    /// A side sealed its forces (R51).
    ForcesSealed {
        /// The side.
        side: usize,
    },
    /// Both sides' forces are revealed with their points (R51).
    ForcesRevealed {
        /// Each counter's committed pieces and whether it scouts (R54).
        forces: Vec<(CounterId, Composition, bool)>,
        /// Each side's points, scouts left out.
        points: [u32; 2],
    },
    /// The side with more dice cancelled enemy dice (R52).
    Cancelled {
        /// The side.
        side: usize,
        /// Dice cancelled.
        dice: u32,
    },
    /// A fight's throw and result (R52, R53).
    Fought {
        /// Where.
        square: Square,
        /// The side that held the square, none when both were moving.
        defender: Option<usize>,
        /// Each side's dice after cancelling.
        dice: (u32, u32),
        /// The throws, high to low.
        throws: Vec<(Vec<u8>, Vec<u8>)>,
        /// The result.
        outcome: Outcome,
        /// Each counter's fate.
        after: Vec<(CounterId, After)>,
    },
    /// A counter fell back or went back after a fight (R50).
    FellBack {
        /// The counter.
        id: CounterId,
        /// Where it went.
        to: Square,
    },
    /// The ring has moved for this game turn; sight from the map is looked
    /// at (R47, R55).
    RingMoved,
    /// A side's formations saw into edge squares from the map (R55): the
    /// counters there show it their pieces.
    Sighted {
        /// The side that sees.
        side: usize,
        /// The enemy counters it now sees, with their squares and pieces.
        counters: Vec<(CounterId, Square, Composition)>,
    },
    /// Pieces of a counter came onto the map (R48).
    Entered {
        /// The counter.
        id: CounterId,
        /// The hex entered.
        hex: Hex,
        /// What came on.
        pieces: Composition,
        /// Whether the counter is now empty and gone.
        emptied: bool,
    },
    /// Pieces marched off the map into an edge square (R48).
    MarchedOff {
        /// The hex left.
        from: Hex,
        /// The counter they became or joined.
        id: CounterId,
        /// Its square.
        square: Square,
        /// What marched off.
        pieces: Composition,
        /// They joined a counter already there.
        joined: bool,
    },
    /// A cannon fired at a counter (R56).
    ShotAt {
        /// The cannon's hex.
        cannon: Hex,
        /// The counter's square.
        square: Square,
        /// The counter.
        id: CounterId,
        /// The roll.
        roll: u8,
        /// The modifiers together.
        modifier: i8,
        /// Men lost.
        casualties: u16,
    },
    /// The owner named which of a counter's men died (R56, R67).
    CounterLost {
        /// The counter.
        id: CounterId,
        /// Who died.
        men: Men,
        /// The counter is empty and gone.
        emptied: bool,
    },
}

/// A counter as the log names it: `Red 5`.
pub(crate) fn counter_words(names: &[String; 2], id: CounterId) -> String {
    format!("{} {}", names[id.side], id.number)
}

/// A counter's pieces in words, as a march names them.
pub(crate) fn pieces_words(p: &Composition) -> String {
    let mut parts = Vec::new();
    if p.infantry > 0 {
        parts.push(format!("{} infantry", p.infantry));
    }
    if p.cavalry > 0 {
        parts.push(format!("{} cavalry", p.cavalry));
    }
    match p.officers {
        0 => {}
        1 => parts.push("1 officer".to_owned()),
        n => parts.push(format!("{n} officers")),
    }
    if p.cannon {
        parts.push("a cannon".to_owned());
    }
    if p.baggage {
        parts.push("baggage".to_owned());
    }
    if p.flag {
        parts.push("the flag".to_owned());
    }
    if parts.is_empty() {
        "nothing".to_owned()
    } else {
        parts.join(", ")
    }
}

fn order_words(order: &Order, scout: bool) -> String {
    let mut words = match order {
        Order::Hold => "holds".to_owned(),
        Order::Enter => "enters the map".to_owned(),
        Order::Path(path) => format!(
            "moves to {}",
            path.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    if scout {
        words.push_str(", scouting");
    }
    words
}

fn kind_words(kind: &Kind, names: &[String; 2]) -> String {
    match kind {
        Kind::Meet {
            defender: Some(side),
        } => format!("{} defends", names[*side]),
        Kind::Meet { defender: None } => "both moving".to_owned(),
        Kind::Swap => "both moving, swapping squares".to_owned(),
        Kind::Breakthrough { defender } => {
            format!("a breakthrough; {} defends", names[*defender])
        }
    }
}

fn throw_words(throw: &[u8]) -> String {
    if throw.is_empty() {
        "-".to_owned()
    } else {
        throw
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

impl RingEvent {
    /// The event in plain words, as the referee reads it.
    pub fn words(&self, names: &[String; 2]) -> String {
        let c = |id: CounterId| counter_words(names, id);
        match self {
            RingEvent::OrdersBegan { turn } => {
                format!("Game turn {turn}: both sides write orders for the ring (R47)")
            }
            RingEvent::Ordered { id, order, scout } => {
                format!("{}: {} (R47)", c(*id), order_words(order, *scout))
            }
            RingEvent::Split { id, new, pieces } => format!(
                "{} splits: {} leave as {} {new} (R45)",
                c(*id),
                pieces_words(pieces),
                names[id.side]
            ),
            RingEvent::Merged { into, joined } => {
                format!("{} {joined} joins {} (R45)", names[into.side], c(*into))
            }
            RingEvent::OrdersSealed { side } => {
                format!("{} has sealed its orders (R47)", names[*side])
            }
            RingEvent::OrdersRevealed { orders } => {
                let each: Vec<String> = orders
                    .iter()
                    .map(|(id, at, order, scout)| {
                        format!("{} in {at} {}", c(*id), order_words(order, *scout))
                    })
                    .collect();
                format!("Orders revealed (R47): {}", each.join("; "))
            }
            RingEvent::Stepped { tick, moves } => {
                let each: Vec<String> = moves
                    .iter()
                    .map(|(id, from, to)| format!("{} {from}-{to}", c(*id)))
                    .collect();
                format!("Tick {tick} (R49): {}", each.join(", "))
            }
            RingEvent::FightBegan {
                square,
                kind,
                counters,
            } => {
                let who: Vec<String> = counters.iter().map(|id| c(*id)).collect();
                format!(
                    "A fight in {square} ({}): {} (R49)",
                    kind_words(kind, names),
                    who.join(", ")
                )
            }
            RingEvent::ForcesPicked { id, pieces } => {
                format!("{} commits {} (R51)", c(*id), pieces_words(pieces))
            }
            RingEvent::ForcesSealed { side } => {
                format!("{} has sealed its forces (R51)", names[*side])
            }
            RingEvent::ForcesRevealed { forces, points } => {
                let each: Vec<String> = forces
                    .iter()
                    .map(|(id, pieces, scout)| {
                        format!(
                            "{}: {}{}",
                            c(*id),
                            pieces_words(pieces),
                            if *scout {
                                ", scouting: rolls nothing (R54)"
                            } else {
                                ""
                            }
                        )
                    })
                    .collect();
                format!(
                    "Forces revealed (R51): {} {} points, {} {} points; {}",
                    names[0],
                    points[0],
                    names[1],
                    points[1],
                    each.join("; ")
                )
            }
            RingEvent::Cancelled { side, dice } => format!(
                "{} cancels {dice} enemy {} (R52)",
                names[*side],
                if *dice == 1 { "die" } else { "dice" }
            ),
            RingEvent::Fought {
                square,
                dice,
                defender: _,
                throws,
                outcome,
                after,
            } => {
                let dice_words = |n: u32| format!("{n} {}", if n == 1 { "die" } else { "dice" });
                let mut words = format!(
                    "The fight in {square}: {} {}, {} {} (R52, R53)",
                    names[0],
                    dice_words(dice.0),
                    names[1],
                    dice_words(dice.1)
                );
                for (a, b) in throws {
                    words.push_str(&format!(
                        "; {} throws {}, {} throws {}",
                        names[0],
                        throw_words(a),
                        names[1],
                        throw_words(b)
                    ));
                }
                words.push_str(&match outcome {
                    Outcome::Won(Party::A) => format!("; {} wins", names[0]),
                    Outcome::Won(Party::B) => format!("; {} wins", names[1]),
                    Outcome::Standoff => "; a standoff".to_owned(),
                });
                let held: Vec<String> = after
                    .iter()
                    .filter(|(_, a)| *a == After::Holds)
                    .map(|(id, _)| c(*id))
                    .collect();
                if !held.is_empty() {
                    words.push_str(&format!("; {} hold", held.join(", ")));
                }
                words
            }
            RingEvent::FellBack { id, to } => format!("{} falls back to {to} (R50)", c(*id)),
            RingEvent::RingMoved => "The ring has moved (R47)".to_owned(),
            RingEvent::Sighted { side, counters } => {
                let seen: Vec<String> = counters
                    .iter()
                    .map(|(id, at, p)| format!("{} in {at}: {}", c(*id), pieces_words(p)))
                    .collect();
                format!(
                    "{} sees from the map (R55): {}",
                    names[*side],
                    seen.join("; ")
                )
            }
            RingEvent::Entered {
                id,
                hex,
                pieces,
                emptied,
            } => format!(
                "{} enters {hex}: {}{} (R48)",
                c(*id),
                pieces_words(pieces),
                if *emptied {
                    "; the counter is gone"
                } else {
                    ""
                }
            ),
            RingEvent::MarchedOff {
                from,
                id,
                square,
                pieces,
                joined,
            } => format!(
                "{} marches off the map from {from} into {square}: {}, {} {} (R48)",
                names[id.side],
                pieces_words(pieces),
                if *joined { "joining" } else { "as" },
                c(*id)
            ),
            RingEvent::ShotAt {
                cannon,
                square,
                id,
                roll,
                modifier,
                casualties,
            } => format!(
                "The cannon in {cannon} fires at {} in {square}: rolled {roll}, modifier {modifier:+}, {casualties} {} (R56)",
                c(*id),
                if *casualties == 1 {
                    "casualty"
                } else {
                    "casualties"
                }
            ),
            RingEvent::CounterLost { id, men, emptied } => format!(
                "{} loses {men}{} (R56)",
                c(*id),
                if *emptied {
                    "; the counter is gone"
                } else {
                    ""
                }
            ),
        }
    }

    /// A tick's steps that `viewer` may see (`None`: the referee, all of
    /// them): its own counters', and the enemy's outside the enemy's
    /// reserve at both ends (R46, R57); none for any other event.
    pub fn moves_for(
        &self,
        viewer: Option<usize>,
        reserves: &[BTreeSet<Square>; 2],
    ) -> Vec<(CounterId, Square, Square)> {
        let RingEvent::Stepped { moves, .. } = self else {
            return Vec::new();
        };
        let public = |id: &CounterId, sq: &Square| {
            viewer.is_none_or(|v| id.side == v) || !reserves[id.side].contains(sq)
        };
        moves
            .iter()
            .filter(|(id, from, to)| public(id, from) && public(id, to))
            .copied()
            .collect()
    }

    /// The event as `viewer` may read it, `None` where it may not know it
    /// happened (R57): `reserves` are each side's reserve squares, where a
    /// counter shows the enemy nothing (R46).
    pub fn words_for(
        &self,
        names: &[String; 2],
        viewer: usize,
        reserves: &[BTreeSet<Square>; 2],
    ) -> Option<String> {
        let public =
            |id: &CounterId, sq: &Square| id.side == viewer || !reserves[id.side].contains(sq);
        match self {
            RingEvent::Ordered { id, .. } | RingEvent::ForcesPicked { id, .. } => {
                (id.side == viewer).then(|| self.words(names))
            }
            RingEvent::Split { id, .. } => (id.side == viewer).then(|| self.words(names)),
            RingEvent::Merged { into, .. } => (into.side == viewer).then(|| self.words(names)),
            RingEvent::Sighted { side, .. } => (*side == viewer).then(|| self.words(names)),
            RingEvent::FellBack { id, to } => public(id, to).then(|| self.words(names)),
            RingEvent::CounterLost { id, men, emptied } if id.side != viewer => Some(format!(
                "{} loses {} {} (R56){}",
                counter_words(names, *id),
                men.total(),
                if men.total() == 1 { "man" } else { "men" },
                if *emptied {
                    "; the counter is gone"
                } else {
                    ""
                }
            )),
            RingEvent::OrdersRevealed { orders } => {
                let shown: Vec<(CounterId, Square, Order, bool)> = orders
                    .iter()
                    .filter(|(id, at, order, _)| {
                        id.side == viewer || order.shows_enemy(*at, &reserves[id.side])
                    })
                    .cloned()
                    .collect();
                let hidden = orders.len() - shown.len();
                let mut words = RingEvent::OrdersRevealed { orders: shown }.words(names);
                if hidden > 0 {
                    words.push_str(&format!(
                        "; and {hidden} order{} in the enemy's reserve (R46)",
                        if hidden == 1 { "" } else { "s" }
                    ));
                }
                Some(words)
            }
            RingEvent::Stepped { tick, .. } => {
                let shown = self.moves_for(Some(viewer), reserves);
                (!shown.is_empty()).then(|| {
                    RingEvent::Stepped {
                        tick: *tick,
                        moves: shown,
                    }
                    .words(names)
                })
            }
            _ => Some(self.words(names)),
        }
    }
}
