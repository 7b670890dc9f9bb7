//! The odds of what dice decide, before a command is played, worked out
//! from the rules' own tables: a shot's casualties (R67), at a formation or
//! at a counter (R56), and the risk to friendly formations on its line
//! (R68), a melee's result (R74, R75) and the losers' fate (R76), a rally
//! roll (R79). Each distribution is exact, in 36ths or 6ths, and adds up
//! to 1.

use sandtable_core::game::{Chance, Odds};

use crate::command::Command;
use crate::game::Game;
use crate::off_map_rules::OffMapRules;
use crate::setup::{MeleeResult, RallyLow};
use crate::tables::{RallyResult, casualties, rally_result};
use crate::terms::{Fate, Side};

fn add(outcomes: &mut Vec<(String, Chance)>, label: String, num: u64, den: u64) {
    match outcomes.iter_mut().find(|(l, _)| *l == label) {
        Some((_, c)) => c.num += num,
        None => outcomes.push((label, Chance { num, den })),
    }
}

/// A shot's casualties over the six rolls of its die (R67).
fn shot_outcomes(modifier: i8, target_men: u16) -> Vec<(String, Chance)> {
    let mut shot = Vec::new();
    for roll in 1..=6u8 {
        let n = casualties(roll, modifier, target_men);
        add(&mut shot, format!("{} killed", men(n)), 1, 6);
    }
    shot
}

/// A shot's modifiers in words: `range -1`.
fn modifier_words(modifiers: &[(&'static str, i8)]) -> Vec<String> {
    modifiers
        .iter()
        .map(|(what, m)| format!("{what} {m:+}"))
        .collect()
}

fn men(n: u16) -> String {
    format!("{n} {}", if n == 1 { "man" } else { "men" })
}

impl<G: OffMapRules> Game<G> {
    /// The odds of a command of `side`, one distribution for each thing
    /// its dice decide; empty when no dice decide it or it is refused.
    pub fn odds_of(&self, side: Side, command: &Command<G>) -> Vec<Odds> {
        let Ok(plan) = self.plan(side, command) else {
            return Vec::new();
        };
        match plan {
            crate::plans::Plan::Fire(fire) => {
                let modifier = fire.modifier();
                let shot = shot_outcomes(modifier, fire.target_men);
                let mods = modifier_words(&fire.modifiers);
                let mut out = vec![Odds {
                    what: format!(
                        "the shot at {}: 1d6 {modifier:+} ({}), at least 0, a natural 6 kills at least 1 (R67)",
                        fire.target,
                        mods.join(", ")
                    ),
                    outcomes: shot,
                }];
                for (hex, held) in &fire.friendly {
                    let mut risk = Vec::new();
                    add(&mut risk, "no loss".to_owned(), 24, 36);
                    for k in 1..=6u16 {
                        add(&mut risk, format!("loses {}", men(k.min(*held))), 2, 36);
                    }
                    out.push(Odds {
                        what: format!(
                            "fire over the own formation in {hex}: on 1-2 it loses 1d6 men (R68)"
                        ),
                        outcomes: risk,
                    });
                }
                out
            }
            crate::plans::Plan::Attack(attack) => {
                let rows = &self.battle.switches.melee_rows.0[attack.row];
                let attacker = self.name(side).to_owned();
                let defender = self.name(side.other()).to_owned();
                let mut result = Vec::new();
                let mut stalemates = 0u64;
                for r in rows {
                    let label = match (attack.attackers_win(*r), r) {
                        (None, _) => {
                            stalemates += 1;
                            format!("stalemate (B): both lose {} (R76)", men(attack.half))
                        }
                        (Some(true), MeleeResult::V) => {
                            format!("{attacker} wins and loses no men (V)")
                        }
                        (Some(false), MeleeResult::V) => {
                            format!("{defender} wins and loses no men (V)")
                        }
                        (Some(true), r) => format!("{attacker} wins ({r:?})"),
                        (Some(false), r) => format!("{defender} wins ({r:?})"),
                    };
                    add(&mut result, label, 1, 6);
                }
                let mut fate = Vec::new();
                if stalemates > 0 {
                    add(
                        &mut fate,
                        "no casualty roll: stalemate".to_owned(),
                        6 * stalemates,
                        36,
                    );
                }
                for f in [Fate::Surrender, Fate::Rout, Fate::Slaughter] {
                    if stalemates < 6 {
                        let label = match f {
                            Fate::Surrender => format!(
                                "surrender (1-2): both lose {}, the losers' rest taken prisoner",
                                men(attack.half)
                            ),
                            Fate::Rout => format!(
                                "rout (3-4): both lose {}, the losers' rest rout",
                                men(attack.half)
                            ),
                            Fate::Slaughter => format!(
                                "slaughter (5-6): the winner loses {}, every loser is killed",
                                men(attack.half)
                            ),
                        };
                        add(&mut fate, label, 2 * (6 - stalemates), 36);
                    }
                }
                vec![
                    Odds {
                        what: format!(
                            "the melee at {}: strengths {} to {}, row {} (R73-R75)",
                            attack.target,
                            attack.attackers,
                            crate::setup::points_text(u64::from(attack.defence2)),
                            crate::setup::MeleeRows::NAMES[attack.row]
                        ),
                        outcomes: result,
                    },
                    Odds {
                        what: "the losers' fate on the casualty table (R76)".to_owned(),
                        outcomes: fate,
                    },
                ]
            }
            crate::plans::Plan::Rally {
                routers,
                with,
                modifier,
            } => {
                let mut out = Vec::new();
                for roll in 1..=6i16 {
                    let label = match rally_result(
                        roll + i16::from(modifier),
                        self.battle.switches.rally_low,
                    ) {
                        RallyResult::Rally => format!("the routers in {routers} rally"),
                        RallyResult::Flee => format!("the routers in {routers} flee on"),
                        RallyResult::Panic => format!("the formation in {with} panics and routs"),
                    };
                    add(&mut out, label, 1, 6);
                }
                let low = match self.battle.switches.rally_low {
                    RallyLow::Rally => "2 or less rallies",
                    RallyLow::Flee => "2 or less flees",
                };
                vec![Odds {
                    what: format!(
                        "the rally roll: 1d6 {modifier:+}; {low}, 3-4 flee, 5 or more panic (R79)"
                    ),
                    outcomes: out,
                }]
            }
            crate::plans::Plan::FireAtCounter(plan) => {
                // The counter is one its side sees (R55, R56): its men are
                // the shooter's to know.
                let plan = G::shot(&plan);
                let modifier = plan.modifier;
                let shot = shot_outcomes(modifier, plan.men);
                let mods = modifier_words(&plan.modifiers);
                vec![Odds {
                    what: format!(
                        "the shot at {}: 1d6 {modifier:+} ({}), at least 0, a natural 6 kills at least 1 (R56, R67)",
                        plan.target,
                        mods.join(", ")
                    ),
                    outcomes: shot,
                }]
            }
            _ => Vec::new(),
        }
    }
}
