//! What commands and the steps they set going did, one thing at a time, and
//! each in plain words for logs and the CLI.

use crate::command::{Hexes, Parts, RoutTo};
use crate::game::Game;
use crate::hex::Hex;
use crate::men::Men;
use crate::off_map::OffMap;
use crate::setup::MeleeResult;
use crate::terms::{Band, EndReason, Fate, Outcome, Phase, Side, Which};

/// Something that happened in the battle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<G: OffMap> {
    /// A cannon fired (R65-R67).
    Fired {
        /// The cannon's hex.
        cannon: Hex,
        /// The target's hex.
        target: Hex,
        /// At the routers there.
        which: Which,
        /// Hexes from cannon to target.
        range: u16,
        /// The fire was direct (R66).
        direct: bool,
        /// The die.
        roll: u8,
        /// The modifiers together (R67).
        modifier: i8,
        /// Men the shot kills, before the owner chooses which (R67).
        casualties: u16,
        /// The crew marked (R65).
        crew: Men,
    },
    /// The roll for a friendly formation on the line of fire (R68).
    FriendlyFire {
        /// The formation's hex.
        hex: Hex,
        /// The die: 1 or 2 hits.
        roll: u8,
        /// The second die, men lost, on a hit.
        loss_roll: Option<u8>,
    },
    /// Men (and officers with them) were killed (R63, R67, R68, R76).
    Killed {
        /// Where.
        hex: Hex,
        /// Whose.
        side: Side,
        /// The formation or the routers.
        which: Which,
        /// Who.
        band: Band,
        /// Points the enemy scored (R81).
        points: u32,
    },
    /// Pieces marched (R69-R71).
    Marched {
        /// From.
        from: Hex,
        /// The hexes entered.
        path: Hexes,
        /// Armed men and officers.
        armed: Band,
        /// With the cannon.
        cannon: bool,
        /// With the baggage.
        baggage: bool,
        /// With the flags.
        flags: u8,
        /// Prisoners taken along.
        prisoners: Band,
        /// Unarmed men.
        unarmed: Band,
    },
    /// A formation took what it found in a hex (R63, R69, R77-R80).
    Captured {
        /// Where.
        hex: Hex,
        /// The capturing side.
        by: Side,
        /// Men and officers taken prisoner.
        band: Band,
        /// A cannon taken.
        cannon: bool,
        /// Baggage taken.
        baggage: bool,
        /// Flags taken.
        flags: u8,
        /// Points scored (R81).
        points: u32,
    },
    /// Men held prisoner were freed by their own side and armed again
    /// (R77).
    Freed {
        /// Where.
        hex: Hex,
        /// Whose men.
        side: Side,
        /// Armed again.
        armed: Band,
        /// Left unarmed: over the hex's limit (R62).
        unarmed: Band,
    },
    /// A melee was fought (R72-R75).
    Attacked {
        /// The defender's hex.
        target: Hex,
        /// The attackers' hexes.
        from: Hexes,
        /// The attackers' men (their strength).
        attackers: u16,
        /// The defenders' men.
        defenders: u16,
        /// The defenders' strength, doubled (halves kept, R73).
        defence2: u32,
        /// The melee table's row (R74): 0 for 4:1 ... 4 for the even row.
        row: usize,
        /// The die.
        roll: u8,
        /// The result.
        result: MeleeResult,
        /// The winner, `None` for a stalemate.
        winner: Option<Side>,
        /// Half the smaller force (R76).
        half: u16,
    },
    /// The losers' fate was rolled (R76).
    FateRolled {
        /// The die.
        roll: u8,
        /// The row.
        fate: Fate,
    },
    /// Losers surrendered (R76).
    Surrendered {
        /// Where.
        hex: Hex,
        /// Whose men.
        side: Side,
        /// Who.
        band: Band,
        /// Points the winner scored.
        points: u32,
    },
    /// A formation routed (R76, R79).
    Routed {
        /// Where.
        hex: Hex,
        /// Whose men.
        side: Side,
        /// Who.
        band: Band,
    },
    /// Routers moved (R80).
    RoutMoved {
        /// Whose routers.
        side: Side,
        /// From.
        from: Hex,
        /// Where to, `None` when they had nowhere to go and stayed.
        to: Option<RoutTo>,
        /// Who.
        band: Band,
        /// Points the enemy scored, when they surrendered.
        points: u32,
    },
    /// The winner advanced (R77).
    Advanced {
        /// Into.
        into: Hex,
        /// Who came from where.
        from: Parts,
    },
    /// Prisoners with no escort escaped, unarmed (R78).
    Escaped {
        /// Where.
        hex: Hex,
        /// Whose men.
        side: Side,
        /// Who.
        band: Band,
    },
    /// Routers rolled to rally (R79).
    RallyRolled {
        /// The routers' hex.
        routers: Hex,
        /// The formation's hex.
        with: Hex,
        /// The die.
        roll: u8,
        /// The modifiers together.
        modifier: i8,
    },
    /// Routers were armed again (R79).
    Rallied {
        /// Where.
        hex: Hex,
        /// Who.
        band: Band,
        /// Men over the hex's limit, still routing (R62).
        still_routing: u16,
    },
    /// Routers fled on (R79).
    FledOn {
        /// Where.
        hex: Hex,
    },
    /// A formation panicked (R79).
    Panicked {
        /// Where.
        hex: Hex,
    },
    /// A phase began.
    PhaseBegan {
        /// The phase.
        phase: Phase,
        /// Whose.
        side: Side,
    },
    /// A player turn began (R64).
    TurnBegan {
        /// The game turn.
        turn: u32,
        /// Whose.
        side: Side,
    },
    /// Something on the off-board grid (R40-R57), boxed: it is rare, and
    /// the battle's own events stay small.
    Ring(Box<G::Event>),
    /// The battle ended (R64).
    Ended {
        /// How.
        outcome: Outcome,
        /// Why.
        reason: EndReason,
        /// Victory points of each side (R81).
        vp: [u32; 2],
    },
}

/// What marches, in words, as the log says it and the table shows it before
/// a march is played: `8 infantry, 1 officer, the cannon, 1 prisoner`.
pub fn marching_words(
    armed: Band,
    cannon: bool,
    baggage: bool,
    flag: bool,
    prisoners: u16,
    unarmed: u16,
) -> String {
    let mut what = Vec::new();
    if !armed.is_empty() {
        what.push(band_words(armed));
    }
    for (on, piece) in [
        (cannon, "the cannon"),
        (baggage, "the baggage"),
        (flag, "the flag"),
    ] {
        if on {
            what.push(piece.to_owned());
        }
    }
    match prisoners {
        0 => {}
        1 => what.push("1 prisoner".to_owned()),
        n => what.push(format!("{n} prisoners")),
    }
    if unarmed > 0 {
        what.push(format!("{unarmed} unarmed"));
    }
    what.join(", ")
}

/// A band in words: `8 infantry, 2 cavalry and 1 officer`.
pub fn band_words(band: Band) -> String {
    let mut parts = Vec::new();
    if band.men.inf > 0 {
        parts.push(format!("{} infantry", band.men.inf));
    }
    if band.men.cav > 0 {
        parts.push(format!("{} cavalry", band.men.cav));
    }
    if band.officers > 0 {
        parts.push(format!(
            "{} officer{}",
            band.officers,
            if band.officers == 1 { "" } else { "s" }
        ));
    }
    match parts.len() {
        0 => "nobody".to_owned(),
        1 => parts.remove(0),
        _ => {
            let last = parts.pop().unwrap_or_default();
            format!("{} and {last}", parts.join(", "))
        }
    }
}

fn hex_list(hexes: &[Hex]) -> String {
    let names: Vec<String> = hexes.iter().map(Hex::to_string).collect();
    names.join(" ")
}

fn signed(v: i8) -> String {
    if v >= 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

impl<G: OffMap> Game<G> {
    /// An event in plain words.
    pub fn describe(&self, event: &Event<G>) -> String {
        let name = |s: Side| self.name(s);
        match event {
            Event::Fired {
                cannon,
                target,
                which,
                range,
                direct,
                roll,
                modifier,
                casualties,
                crew,
            } => format!(
                "the cannon in {cannon} fires {} at the {} in {target}, {range} hex{} away: rolls {roll} {} = {casualties} casualt{} (R67); crew marked: {crew} (R65)",
                if *direct { "directly" } else { "indirectly" },
                match which {
                    Which::Armed => "formation",
                    Which::Routing => "routers",
                },
                if *range == 1 { "" } else { "es" },
                signed(*modifier),
                if *casualties == 1 { "y" } else { "ies" }
            ),
            Event::FriendlyFire {
                hex,
                roll,
                loss_roll,
            } => match loss_roll {
                Some(k) => format!(
                    "fire over the formation in {hex}: rolls {roll}, a hit: it loses {k} men (R68)"
                ),
                None => format!("fire over the formation in {hex}: rolls {roll}, no harm (R68)"),
            },
            Event::Killed {
                hex,
                side,
                which,
                band,
                points,
            } => format!(
                "{} of {}{} in {hex} killed; {} scores {points} (R81)",
                band_words(*band),
                name(*side),
                if *which == Which::Routing {
                    "'s routers"
                } else {
                    ""
                },
                name(side.other())
            ),
            Event::Marched {
                from,
                path,
                armed,
                cannon,
                baggage,
                flags,
                prisoners,
                unarmed,
            } => format!(
                "{} march from {from} to {}",
                marching_words(
                    *armed,
                    *cannon,
                    *baggage,
                    *flags > 0,
                    prisoners.heads(),
                    unarmed.heads()
                ),
                hex_list(path.as_slice())
            ),
            Event::Captured {
                hex,
                by,
                band,
                cannon,
                baggage,
                flags,
                points,
            } => {
                let mut what = Vec::new();
                if !band.is_empty() {
                    what.push(format!("{} as prisoners", band_words(*band)));
                }
                if *cannon {
                    what.push("a cannon".to_owned());
                }
                if *baggage {
                    what.push("baggage".to_owned());
                }
                if *flags > 0 {
                    what.push("a flag".to_owned());
                }
                format!(
                    "{} captures {} in {hex}; scores {points} (R81)",
                    name(*by),
                    what.join(", ")
                )
            }
            Event::Freed {
                hex,
                side,
                armed,
                unarmed,
            } => {
                let mut text = format!(
                    "{} of {} held prisoner in {hex} are freed and armed again (R77)",
                    band_words(*armed),
                    name(*side)
                );
                if !unarmed.is_empty() {
                    text.push_str(&format!(
                        "; {} stay unarmed, over the hex's limit (R62)",
                        band_words(*unarmed)
                    ));
                }
                text
            }
            Event::Attacked {
                target,
                from,
                attackers,
                defenders,
                defence2,
                row,
                roll,
                result,
                winner,
                half,
            } => {
                let strength = crate::setup::points_text(u64::from(*defence2));
                format!(
                    "{} men from {} attack {defenders} men in {target} (strength {strength}): row {} (R74), rolls {roll}: {result:?}: {} (R75); half the smaller force is {half} (R76)",
                    attackers,
                    hex_list(from.as_slice()),
                    crate::setup::MeleeRows::NAMES[*row],
                    match winner {
                        Some(w) => format!("{} wins", name(*w)),
                        None => "stalemate".to_owned(),
                    }
                )
            }
            Event::FateRolled { roll, fate } => {
                format!("the losers' fate: rolls {roll}: {} (R76)", fate.name())
            }
            Event::Surrendered {
                hex,
                side,
                band,
                points,
            } => format!(
                "{} of {} in {hex} surrender; {} scores {points} (R76, R81)",
                band_words(*band),
                name(*side),
                name(side.other())
            ),
            Event::Routed { hex, side, band } => format!(
                "{} of {} in {hex} rout, leaving any cannon, baggage and flag (R76)",
                band_words(*band),
                name(*side)
            ),
            Event::RoutMoved {
                side,
                from,
                to,
                band,
                points,
            } => {
                let who = format!(
                    "{}'s routers in {from} ({})",
                    name(*side),
                    band_words(*band)
                );
                match to {
                    Some(RoutTo::Hex(h)) => format!("{who} rout to {h} (R80)"),
                    Some(RoutTo::Off) => {
                        format!("{who} rout off the map across their home edge and are lost (R80)")
                    }
                    Some(RoutTo::Surrender(h)) => format!(
                        "{who} have nowhere to go and surrender to the formation in {h}; {} scores {points} (R80, R81)",
                        name(side.other())
                    ),
                    None => format!("{who} have nowhere to go and stay (R80)"),
                }
            }
            Event::Advanced { into, from } => {
                let parts: Vec<String> = from
                    .as_slice()
                    .iter()
                    .map(|(h, m)| format!("{m} from {h}"))
                    .collect();
                format!(
                    "the winners advance into {into}: {} (R77)",
                    parts.join(", ")
                )
            }
            Event::Escaped { hex, side, band } => format!(
                "{} of {} held in {hex} with no escort escape, unarmed (R78)",
                band_words(*band),
                name(*side)
            ),
            Event::RallyRolled {
                routers,
                with,
                roll,
                modifier,
            } => format!(
                "the routers in {routers} roll to rally on the formation in {with}: {roll} {} = {} (R79)",
                signed(*modifier),
                i16::from(*roll) + i16::from(*modifier)
            ),
            Event::Rallied {
                hex,
                band,
                still_routing,
            } => {
                let mut text = format!(
                    "{} in {hex} rally and are armed again (R79)",
                    band_words(*band)
                );
                if *still_routing > 0 {
                    text.push_str(&format!(
                        "; {still_routing} over the hex's limit keep routing (R62)"
                    ));
                }
                text
            }
            Event::FledOn { hex } => format!("the routers in {hex} flee on (R79)"),
            Event::Panicked { hex } => {
                format!("the formation in {hex} panics and routs (R79)")
            }
            Event::Ring(ring) => G::event_words(ring, &self.battle.names),
            Event::PhaseBegan { phase, side } => {
                format!("{}'s {} phase begins", name(*side), phase.name())
            }
            Event::TurnBegan { turn, side } => {
                format!(
                    "game turn {turn}: {}'s player turn begins (R64)",
                    name(*side)
                )
            }
            Event::Ended {
                outcome,
                reason,
                vp,
            } => {
                let why = match reason {
                    EndReason::Turns => "the last game turn is over".to_owned(),
                    EndReason::NoArmedMen(side) => {
                        format!("{} has no armed men left", name(*side))
                    }
                    EndReason::FlagCaptured => "a flag was captured (capture_the_flag)".to_owned(),
                };
                let result = match outcome {
                    Outcome::Won(side) => format!(
                        "{} wins on victory points, {} to {}",
                        name(*side),
                        vp[side.index()],
                        vp[side.other().index()]
                    ),
                    Outcome::Draw => format!("a draw on victory points, {} each", vp[0]),
                };
                format!("the battle ends: {why}; {result} (R64, R81)")
            }
        }
    }
}
