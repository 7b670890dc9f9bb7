//! The JSON summary of a battle, as the CLI's `--json` prints it (the
//! referee's view; nothing of the battle is hidden from a player). Field
//! names are part of the interface: see the crate docs.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::Stack;
use crate::hex::Hex;
use crate::offboard::plug::Game;
use crate::terms::{Band, Outcome, Side, Step};

/// A snapshot of the battle a person or a program can read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    /// The game turn, from 1 (R64).
    pub turn: u32,
    /// The side whose player turn it is.
    pub current_player: String,
    /// `cannonade`, `march`, `melee` or `rally`.
    pub phase: String,
    /// Whether the battle has ended.
    pub over: bool,
    /// The winner; null for a draw or a battle not over.
    pub winner: Option<String>,
    /// Victory points by side name (R81).
    pub vp: BTreeMap<String, u32>,
    /// One entry a hex, side and state.
    pub pieces: Vec<PieceSummary>,
    /// The decision the rules wait for from a player, or null.
    pub awaiting: Option<Awaiting>,
    /// The off-board grid as the viewer sees it, in a battle with one
    /// (R40-R57); left out otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offboard: Option<crate::offboard::report::RingSummary>,
}

/// A side's pieces of one state in one hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceSummary {
    /// The hex, like `"C4"`.
    pub hex: String,
    /// Whose men they are.
    pub player: String,
    /// `armed`, `routing`, `prisoner` or `unarmed`.
    pub state: String,
    /// Infantry men.
    pub infantry: u16,
    /// Cavalry men.
    pub cavalry: u16,
    /// Officers.
    pub officers: u16,
    /// Cannon (0 or 1; only with the armed entry).
    pub cannon: u8,
    /// Baggage (0 or 1; only with the armed entry).
    pub baggage: u8,
    /// Whether a flag is with them (only the armed entry).
    pub flag: bool,
    /// For prisoners, the side holding them; else null.
    pub held_by: Option<String>,
    /// Armed men marked as a cannon's crew this turn (R65).
    pub crew_marked: u16,
}

/// A decision owed by a player (R64).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Awaiting {
    /// Who decides.
    pub player: String,
    /// `casualties`, `advance`, `rout` or `surrender`.
    pub choice: String,
}

impl Game {
    /// The JSON-ready summary, as the referee sees it.
    pub fn summary(&self) -> Summary {
        self.summary_for(None)
    }

    /// The JSON-ready summary as `viewer` sees it (`None`: the referee).
    /// Only the off-board grid hides anything (R57).
    pub fn summary_for(&self, viewer: Option<usize>) -> Summary {
        let name = |s: Side| self.name(s).to_owned();
        let mut pieces = Vec::new();
        for st in &self.state.stacks {
            pieces.extend(entries(st, &name));
        }
        let ring_awaits = self.grid().and_then(|g| {
            let side = g.decider()?;
            let choice = match (&g.fight, &g.stage) {
                (Some(f), _) => match f.step {
                    crate::offboard::state::FightStep::Forces => "forces",
                    crate::offboard::state::FightStep::Cancel { .. } => "cancel",
                    crate::offboard::state::FightStep::Fallback { .. } => "fallback",
                },
                (None, crate::offboard::state::Stage::Orders(_)) => "orders",
                _ => return None,
            };
            Some((side, choice))
        });
        let phase = match ring_awaits {
            Some((_, "orders")) => "orders",
            Some(_) => "ring",
            None => self.state.phase.name(),
        };
        let awaiting = match ring_awaits {
            Some((side, choice)) => Some(Awaiting {
                player: name(Side(side as u8)),
                choice: choice.to_owned(),
            }),
            None => self.awaiting(&name),
        };
        Summary {
            turn: self.state.turn,
            current_player: name(self.state.active),
            phase: phase.to_owned(),
            over: self.state.ending.is_some(),
            winner: match self.state.ending {
                Some((Outcome::Won(side), _)) => Some(name(side)),
                _ => None,
            },
            vp: [Side(0), Side(1)]
                .into_iter()
                .map(|s| (name(s), self.vp(s)))
                .collect(),
            pieces,
            awaiting,
            offboard: self.ring_summary(viewer),
        }
    }

    /// The decision the table's steps wait for, if one.
    fn awaiting(&self, name: &dyn Fn(Side) -> String) -> Option<Awaiting> {
        self.state.steps.front().and_then(|step| {
            let choice = match step {
                Step::Lose { .. } => "casualties",
                Step::LoseInRing { .. } => "counter_casualties",
                Step::Advance { .. } => "advance",
                Step::Rout { side, from, .. } => match self.rout_options(*side, *from).first() {
                    Some(crate::command::RoutTo::Surrender(_)) => "surrender",
                    _ => "rout",
                },
                Step::Fate { .. } | Step::EndTurn => return None,
            };
            Some(Awaiting {
                player: name(self.decider()?),
                choice: choice.to_owned(),
            })
        })
    }
}

fn entries(st: &Stack, name: &dyn Fn(Side) -> String) -> Vec<PieceSummary> {
    let hex = |h: Hex| h.to_string();
    let entry = |band: Band, player: Side, state: &str| PieceSummary {
        hex: hex(st.hex),
        player: name(player),
        state: state.to_owned(),
        infantry: band.men.inf,
        cavalry: band.men.cav,
        officers: band.officers,
        cannon: 0,
        baggage: 0,
        flag: false,
        held_by: None,
        crew_marked: 0,
    };
    let mut out = Vec::new();
    if !st.armed.is_empty() || st.cannon || st.baggage || st.flags > 0 {
        out.push(PieceSummary {
            cannon: u8::from(st.cannon),
            baggage: u8::from(st.baggage),
            flag: st.flags > 0,
            crew_marked: st.marks.crew.total(),
            ..entry(st.armed, st.side, "armed")
        });
    }
    if !st.routing.is_empty() {
        out.push(entry(st.routing, st.side, "routing"));
    }
    if !st.prisoners.is_empty() {
        out.push(PieceSummary {
            held_by: Some(name(st.side)),
            ..entry(st.prisoners, st.side.other(), "prisoner")
        });
    }
    if !st.unarmed.is_empty() {
        out.push(entry(st.unarmed, st.side, "unarmed"));
    }
    out
}
