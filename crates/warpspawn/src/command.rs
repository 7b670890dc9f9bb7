//! Commands of the battle and their move notation (docs/move-notation.md):
//! `fire C4 F6`, `march C4 D4 D5 inf 8`, `attack F6 from E5 E6`,
//! `lose C4 inf 2 cav 1`, `advance F6 from E5 inf 4`, `rally D4 with E5`,
//! `rout D4 D3`, `end`. Every command is a small `Copy` value.

use std::fmt;
use std::str::FromStr;

use crate::hex::Hex;
use crate::men::{Men, Pick};
use crate::off_map::OffMap;
use crate::words::{PIECE_NAMES, Words, parse_pieces};

/// Up to six hexes (a hex has six neighbours).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Hexes {
    len: u8,
    hexes: [Hex; 6],
}

impl Hexes {
    /// Whether hexes read back are at most six, each on `map`.
    pub(crate) fn fits(&self, map: crate::hex::Map) -> bool {
        usize::from(self.len) <= self.hexes.len()
            && self.hexes[..usize::from(self.len)]
                .iter()
                .all(|h| map.contains(*h))
    }

    /// One hex.
    pub const fn one(hex: Hex) -> Hexes {
        let mut hexes = [Hex::new(0, 0); 6];
        hexes[0] = hex;
        Hexes { len: 1, hexes }
    }

    /// Two hexes.
    pub const fn two(a: Hex, b: Hex) -> Hexes {
        let mut hexes = [Hex::new(0, 0); 6];
        hexes[0] = a;
        hexes[1] = b;
        Hexes { len: 2, hexes }
    }

    /// The hexes given, at most six.
    pub fn from_slice(hexes: &[Hex]) -> Option<Hexes> {
        if hexes.len() > 6 {
            return None;
        }
        let mut out = Hexes::default();
        for h in hexes {
            out.hexes[usize::from(out.len)] = *h;
            out.len += 1;
        }
        Some(out)
    }

    /// The hexes, in order.
    pub fn as_slice(&self) -> &[Hex] {
        &self.hexes[..usize::from(self.len)]
    }

    /// The same hexes in map order.
    pub fn sorted(mut self) -> Hexes {
        self.hexes[..usize::from(self.len)].sort_unstable();
        self
    }
}

/// Up to six hexes, each with men: the hexes a free advance comes from.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub struct Parts {
    len: u8,
    parts: [(Hex, Men); 6],
}

impl Parts {
    /// The parts given, at most six.
    pub fn from_slice(parts: &[(Hex, Men)]) -> Option<Parts> {
        if parts.len() > 6 {
            return None;
        }
        let mut out = Parts::default();
        for p in parts {
            out.parts[usize::from(out.len)] = *p;
            out.len += 1;
        }
        Some(out)
    }

    /// The parts, in order.
    pub fn as_slice(&self) -> &[(Hex, Men)] {
        &self.parts[..usize::from(self.len)]
    }

    /// Men of every part together.
    pub fn men(&self) -> Men {
        self.as_slice()
            .iter()
            .fold(Men::NONE, |a, (_, m)| a.plus(*m))
    }
}

/// Where a rout move goes (R80).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum RoutTo {
    /// Into this hex.
    Hex(Hex),
    /// Off the map across the routers' home edge.
    Off,
    /// Surrendering to the enemy formation in this hex.
    Surrender(Hex),
}

/// A command of the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(bound = "")]
pub enum Command<G: OffMap> {
    /// The cannon in `cannon` fires at `target` (R65-R68): at its routing
    /// group when `routers`, with the named crew or the first four men,
    /// infantry first.
    Fire {
        /// The cannon's hex.
        cannon: Hex,
        /// The target hex.
        target: Hex,
        /// At the routers there, not the formation.
        routers: bool,
        /// The crew named, if any.
        crew: Option<Men>,
    },
    /// Pieces of `from` march along `path` (R69-R71): every piece that may
    /// march when `pick` is `None`.
    March {
        /// The hex they leave.
        from: Hex,
        /// The hexes entered, in order: one or two.
        path: Hexes,
        /// What marches.
        pick: Option<Pick>,
    },
    /// The formations of `from` attack the enemy formation of `target`
    /// (R72).
    Attack {
        /// The defender's hex.
        target: Hex,
        /// The attackers' hexes.
        from: Hexes,
    },
    /// The owner names which of its men die in `hex` (R67, R68, R76).
    Lose {
        /// The hex.
        hex: Hex,
        /// Who dies.
        men: Men,
    },
    /// The winner's free advance into `into` (R77).
    Advance {
        /// The losers' hex.
        into: Hex,
        /// Who comes from where.
        from: Parts,
    },
    /// The routers of `routers` roll to rally against the formation of
    /// `with` (R79).
    Rally {
        /// The routers' hex.
        routers: Hex,
        /// The friendly formation's hex.
        with: Hex,
    },
    /// A rout move of the routers of `from`, chosen by their enemy (R80).
    Rout {
        /// The routers' hex.
        from: Hex,
        /// Where they go.
        to: RoutTo,
    },
    /// Ends the phase.
    End,
    /// A command of the off-board grid (R45-R54): an order, a split, a
    /// merge, a commit, forces, cancelled dice or a fall-back.
    Grid(G::Command),
    /// `enter 5 C1 [pieces]`: pieces of counter `counter`, ordered to
    /// enter, come onto `hex`, a hex its square faces (R48); all of them
    /// when `pieces` is `None`.
    Enter {
        /// The counter.
        counter: u16,
        /// The hex entered.
        hex: Hex,
        /// What enters.
        pieces: Option<G::Pieces>,
    },
    /// `march C1 off [2E] [pieces]`: pieces in an edge hex march off the
    /// map into the edge square facing it, named where a corner hex faces
    /// two (R48); everything that may march when `pick` is `None`.
    MarchOff {
        /// The hex left.
        from: Hex,
        /// The edge square entered, where it must be named.
        square: Option<G::Place>,
        /// What marches off.
        pick: Option<Pick>,
    },
    /// `fire F2 2H 5 [crew ...]`: the cannon in `cannon` fires at counter
    /// `counter` in edge square `square` (R56).
    FireAtCounter {
        /// The cannon's hex.
        cannon: Hex,
        /// The counter's square.
        square: G::Place,
        /// The enemy counter's number.
        counter: u16,
        /// The crew named, if any.
        crew: Option<Men>,
    },
    /// `lose 5 inf 2`: the owner names which of counter `counter`'s men die
    /// from a shot (R56, R67).
    LoseInRing {
        /// The counter.
        counter: u16,
        /// Who dies.
        men: Men,
    },
}

/// Men as the notation reads them back: `inf 0` for none, where the
/// words say `none` (a command of no men is refused by the rules, and its
/// refusal quotes it as it was typed).
struct Written(Men);

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            f.write_str("inf 0")
        } else {
            fmt::Display::fmt(&self.0, f)
        }
    }
}

impl<G: OffMap> fmt::Display for Command<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Fire {
                cannon,
                target,
                routers,
                crew,
            } => {
                write!(f, "fire {cannon} {target}")?;
                if *routers {
                    f.write_str(" routers")?;
                }
                if let Some(crew) = crew {
                    write!(f, " crew {}", Written(*crew))?;
                }
                Ok(())
            }
            Command::March { from, path, pick } => {
                write!(f, "march {from}")?;
                for h in path.as_slice() {
                    write!(f, " {h}")?;
                }
                if let Some(pick) = pick {
                    write!(f, " {pick}")?;
                }
                Ok(())
            }
            Command::Attack { target, from } => {
                write!(f, "attack {target} from")?;
                for h in from.as_slice() {
                    write!(f, " {h}")?;
                }
                Ok(())
            }
            Command::Lose { hex, men } => write!(f, "lose {hex} {}", Written(*men)),
            Command::Advance { into, from } => {
                write!(f, "advance {into}")?;
                for (h, men) in from.as_slice() {
                    write!(f, " from {h} {}", Written(*men))?;
                }
                Ok(())
            }
            Command::Rally { routers, with } => write!(f, "rally {routers} with {with}"),
            Command::Rout { from, to } => write_rout(f, *from, *to),
            Command::End => f.write_str("end"),
            Command::Grid(grid) => fmt::Display::fmt(grid, f),
            Command::Enter {
                counter,
                hex,
                pieces,
            } => {
                write!(f, "enter {counter} {hex}")?;
                if let Some(p) = pieces {
                    write!(f, " {}", G::pieces_words(p))?;
                }
                Ok(())
            }
            Command::MarchOff { from, square, pick } => {
                write!(f, "march {from} off")?;
                if let Some(sq) = square {
                    write!(f, " {sq}")?;
                }
                if let Some(pick) = pick {
                    write!(f, " {pick}")?;
                }
                Ok(())
            }
            Command::FireAtCounter {
                cannon,
                square,
                counter,
                crew,
            } => {
                write!(f, "fire {cannon} {square} {counter}")?;
                if let Some(crew) = crew {
                    write!(f, " crew {}", Written(*crew))?;
                }
                Ok(())
            }
            Command::LoseInRing { counter, men } => write!(f, "lose {counter} {}", Written(*men)),
        }
    }
}

/// A rout move in the notation: `rout D4 D3`, `rout D4 off`, `rout D4
/// surrender E5`.
pub(crate) fn write_rout(f: &mut impl fmt::Write, from: Hex, to: RoutTo) -> fmt::Result {
    match to {
        RoutTo::Hex(h) => write!(f, "rout {from} {h}"),
        RoutTo::Off => write!(f, "rout {from} off"),
        RoutTo::Surrender(h) => write!(f, "rout {from} surrender {h}"),
    }
}

/// Why a command could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseCommandError {
    /// The text given.
    pub text: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for ParseCommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` is not a command: {} (see docs/move-notation.md)",
            self.text, self.reason
        )
    }
}

impl std::error::Error for ParseCommandError {}

impl<G: OffMap> FromStr for Command<G> {
    type Err = ParseCommandError;

    fn from_str(text: &str) -> Result<Command<G>, ParseCommandError> {
        parse(text).map_err(|reason| ParseCommandError {
            text: text.to_owned(),
            reason,
        })
    }
}

fn parse<G: OffMap>(text: &str) -> Result<Command<G>, String> {
    let mut w = Words::new(text);
    let verb = w.next().ok_or("it is empty")?.to_ascii_lowercase();
    let command = match verb.as_str() {
        "fire" => {
            let cannon = w.hex("the cannon's hex")?;
            if let Some(square) = w.peek().and_then(|word| word.parse::<G::Place>().ok()) {
                // At a counter on the off-board grid (R56).
                w.next();
                let counter = crate::words::number(&mut w, "fire")?;
                let crew = match w.next() {
                    None => None,
                    Some(word) if word.eq_ignore_ascii_case("crew") => {
                        Some(w.men()?.ok_or("`crew` needs men: crew inf 2 cav 2")?)
                    }
                    Some(word) => return Err(format!("`{word}` was not expected there")),
                };
                w.done()?;
                return Ok(Command::FireAtCounter {
                    cannon,
                    square,
                    counter,
                    crew,
                });
            }
            let target = w.hex("the target hex")?;
            let mut routers = false;
            let mut crew = None;
            while let Some(word) = w.next() {
                match word.to_ascii_lowercase().as_str() {
                    "routers" if !routers => routers = true,
                    "crew" if crew.is_none() => {
                        crew = Some(w.men()?.ok_or("`crew` needs men: crew inf 2 cav 2")?);
                    }
                    _ => return Err(format!("`{word}` was not expected there")),
                }
            }
            Command::Fire {
                cannon,
                target,
                routers,
                crew,
            }
        }
        "march" | "move" => {
            let from = w.hex("the hex to march from")?;
            if w.peek()
                .is_some_and(|word| word.eq_ignore_ascii_case("off"))
            {
                // Off the map onto the off-board grid (R48).
                w.next();
                let square = match w.peek().and_then(|word| word.parse::<G::Place>().ok()) {
                    Some(sq) => {
                        w.next();
                        Some(sq)
                    }
                    None => None,
                };
                let pick = if w.peek().is_some() {
                    Some(parse_pick(&mut w)?)
                } else {
                    None
                };
                return Ok(Command::MarchOff { from, square, pick });
            }
            let mut path = Vec::new();
            while w.is_hex() {
                path.push(w.hex("a hex")?);
            }
            if path.is_empty() {
                return Err("name the hexes entered, in order: march C4 D4 D5".into());
            }
            if path.len() > 2 {
                return Err("a march enters at most two hexes (R61)".into());
            }
            let path = Hexes::from_slice(&path).expect("two hexes at most");
            let pick = if w.peek().is_some() {
                Some(parse_pick(&mut w)?)
            } else {
                None
            };
            Command::March { from, path, pick }
        }
        "attack" => {
            let target = w.hex("the hex attacked")?;
            match w.next() {
                Some(word) if word.eq_ignore_ascii_case("from") => {}
                _ => return Err("name the attackers: attack F6 from E5 E6".into()),
            }
            let mut from = Vec::new();
            while w.is_hex() {
                from.push(w.hex("a hex")?);
            }
            if from.is_empty() {
                return Err("name the attackers' hexes after `from`".into());
            }
            let from = Hexes::from_slice(&from)
                .ok_or("a hex has at most six neighbours to attack from (R72)")?;
            Command::Attack { target, from }
        }
        "lose" if w.peek().is_some_and(|word| word.parse::<u16>().is_ok()) => {
            let counter = crate::words::number(&mut w, "lose")?;
            let men = w.men()?.ok_or("name who dies: lose 5 inf 2 cav 1")?;
            Command::LoseInRing { counter, men }
        }
        "enter" => {
            let counter = crate::words::number(&mut w, "enter")?;
            let hex = w.hex("the hex entered")?;
            let pieces = if w.peek().is_some() {
                Some(G::parse_pieces(&mut w)?)
            } else {
                None
            };
            Command::Enter {
                counter,
                hex,
                pieces,
            }
        }
        "lose" => {
            let hex = w.hex("the hex")?;
            let men = w.men()?.ok_or("name who dies: lose C4 inf 2 cav 1")?;
            Command::Lose { hex, men }
        }
        "advance" => {
            let into = w.hex("the hex advanced into")?;
            let mut parts = Vec::new();
            while let Some(word) = w.next() {
                if !word.eq_ignore_ascii_case("from") {
                    return Err(format!(
                        "`{word}` was not expected there: advance F6 from E5 inf 4"
                    ));
                }
                let hex = w.hex("the hex advanced from")?;
                let men = w.men()?.ok_or("name who advances: from E5 inf 4")?;
                parts.push((hex, men));
            }
            if parts.is_empty() {
                return Err("name who advances: advance F6 from E5 inf 4".into());
            }
            let from =
                Parts::from_slice(&parts).ok_or("an advance comes from at most six hexes (R77)")?;
            Command::Advance { into, from }
        }
        "rally" => {
            let routers = w.hex("the routers' hex")?;
            match w.next() {
                Some(word) if word.eq_ignore_ascii_case("with") => {}
                _ => return Err("name the friendly formation: rally D4 with E5".into()),
            }
            let with = w.hex("the friendly formation's hex")?;
            Command::Rally { routers, with }
        }
        "rout" => {
            let from = w.hex("the routers' hex")?;
            let to = match w.peek().map(str::to_ascii_lowercase).as_deref() {
                Some("off") => {
                    w.next();
                    RoutTo::Off
                }
                Some("surrender") => {
                    w.next();
                    RoutTo::Surrender(w.hex("the enemy formation's hex")?)
                }
                Some(_) => RoutTo::Hex(w.hex("the hex routed into")?),
                None => {
                    return Err(
                        "name where they go: rout D4 D3, rout D4 off or rout D4 surrender E5"
                            .into(),
                    );
                }
            };
            Command::Rout { from, to }
        }
        "end" => Command::End,
        verb if G::VERBS.contains(&verb) => {
            return G::parse_command(text).map(Command::Grid);
        }
        other => {
            return Err(format!(
                "`{other}` is not a verb: fire, march, attack, lose, advance, rally, rout or end; {}",
                G::VERBS_WORDS
            ));
        }
    };
    w.done()?;
    Ok(command)
}

fn parse_pick(w: &mut Words<'_>) -> Result<Pick, String> {
    parse_pieces(
        w,
        &PIECE_NAMES,
        "is not something that marches",
        "nothing is named to march",
    )
}

/// A refused command: the reason in plain words and the ruling it
/// enforces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandError {
    /// The ruling.
    pub ruling: u16,
    /// Why, in plain words.
    pub reason: String,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (R{})", self.reason, self.ruling)
    }
}

impl std::error::Error for CommandError {}

/// A refusal under a ruling, in words.
pub(crate) fn refuse<T>(ruling: u16, reason: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        ruling,
        reason: reason.into(),
    })
}

/// The hexes in map order.
pub(crate) fn sorted(hexes: Hexes) -> Hexes {
    hexes.sorted()
}

#[cfg(test)]
mod tests {
    use crate::offboard::plug::Command;

    #[test]
    fn every_documented_form_reads_and_prints_back() {
        for text in [
            "fire C4 F6",
            "fire C4 F6 routers",
            "fire C4 F6 crew inf 2 cav 2",
            "march C4 D4 D5",
            "march C4 D4 inf 8 cav 2 officer 1 cannon baggage flag prisoners 3 unarmed 2",
            "attack F6 from E5 E6",
            "lose C4 inf 2 cav 1",
            "advance F6 from E5 inf 4 from E6 cav 2",
            "rally D4 with E5",
            "rout D4 D3",
            "rout D4 off",
            "rout D4 surrender E5",
            "end",
            // No men: illegal to play, but quoted in its refusal as typed.
            "advance D3 from E3 inf 0",
            "lose C4 inf 0",
            "fire C4 F6 crew inf 0",
            // The off-board grid (R45-R56).
            "order 5 2E 2F",
            "order 5 hold scout",
            "split 5 inf 10 cav 2",
            "merge 5 7",
            "commit",
            "forces 5 all",
            "cancel 2",
            "fallback 2B",
            "enter 5 C1",
            "enter 5 C1 inf 6 cannon",
            "march C1 off",
            "march A1 off 3B",
            "march C1 off inf 8 cannon",
            "fire F2 2H 5",
            "fire F2 2H 5 crew inf 4",
            "lose 5 inf 2",
        ] {
            let command: Command = text.parse().unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(command.to_string(), text);
        }
    }

    #[test]
    fn aliases_and_any_order_read_the_same() {
        let a: Command = "fire C4 F6 crew cav 2 inf 2".parse().unwrap();
        let b: Command = "FIRE c4 f6 crew infantry 2 cavalry 2".parse().unwrap();
        assert_eq!(a, b);
        let m: Command = "move C4 D4 cavalry 2 officers 1".parse().unwrap();
        assert_eq!(m.to_string(), "march C4 D4 cav 2 officer 1");
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let err = |t: &str| t.parse::<Command>().unwrap_err().reason;
        assert_eq!(err(""), "it is empty");
        assert!(err("charge F6").contains("not a verb"));
        assert!(err("march C4").contains("name the hexes"));
        assert!(err("march C4 D4 D5 E5").contains("at most two hexes"));
        assert!(err("march C4 D4 horses 2").contains("not something that marches"));
        assert!(err("march C4 D4 inf 2 inf 3").contains("named twice"));
        assert!(err("attack F6 E5").contains("from"));
        assert!(err("lose C4").contains("name who dies"));
        assert!(err("fire C4 F6 now").contains("not expected"));
        assert!(err("rally D4 E5").contains("with"));
        assert!(err("fire C4 Q").contains("not a hex name"));
        assert!(err("lose C4 inf x").contains("not a number"));
    }
}
