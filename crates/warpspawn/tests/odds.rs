//! The odds the rules give before a shot, a melee or a rally roll, against
//! an exhaustive enumeration of the dice: every roll (or pair of rolls) is
//! played with scripted dice and what happened is counted.

mod common;

use std::collections::BTreeMap;

use common::*;
use sandtable_core::game::Odds;
use sandtable_warpspawn::{Event, Game, MeleeResult, Phase, PiecesSetup, Terrain};

/// The odds as a map from outcome to its chance in `den`ths.
fn as_counts(odds: &Odds, den: u64) -> BTreeMap<String, u64> {
    let total: u64 = odds.outcomes.iter().map(|(_, c)| c.num * den / c.den).sum();
    assert_eq!(total, den, "{}: the chances add up to 1", odds.what);
    odds.outcomes
        .iter()
        .map(|(label, c)| {
            assert_eq!((c.num * den) % c.den, 0);
            (label.clone(), c.num * den / c.den)
        })
        .collect()
}

fn men(n: u16) -> String {
    format!("{n} {}", if n == 1 { "man" } else { "men" })
}

#[test]
fn a_shots_casualties_and_the_risk_to_friends_match_every_roll() {
    // (target men, range, target terrain, a friend on the line): several
    // sets of modifiers, natural 6 and the floor at 0 among them.
    for (target_men, range, terrain, friend) in [
        (11u16, 2u16, Terrain::Fields, false),
        (3, 6, Terrain::Fields, false),
        (18, 1, Terrain::Fields, false),
        (8, 4, Terrain::Fort, true),
        (2, 3, Terrain::Trees, true),
    ] {
        let target = format!("C{}", 1 + range);
        let mut pieces = vec![gun(0, "C1", 4), p(1, &target, target_men, 0, 0)];
        if friend {
            pieces.push(p(0, "C2", 3, 0, 0));
        }
        let s = setup(8, 10, pieces, &[(target.as_str(), terrain)]);
        let command = format!("fire C1 {target}");
        let before = start(&s, &[]);
        let odds = before.odds_of(RED, &command.parse().unwrap());
        assert_eq!(odds.len(), 1 + usize::from(friend));
        let mut shot: BTreeMap<String, u64> = BTreeMap::new();
        let mut risk: BTreeMap<String, u64> = BTreeMap::new();
        for roll in 1..=6u8 {
            for hit in 1..=6u8 {
                for loss in 1..=6u8 {
                    let mut game = start(&s, &[roll, hit, loss]);
                    let said = events(&mut game, &command);
                    let killed = said.iter().find_map(|e| match e {
                        Event::Fired { casualties, .. } => Some(*casualties),
                        _ => None,
                    });
                    *shot
                        .entry(format!("{} killed", men(killed.unwrap())))
                        .or_default() += 1;
                    if friend {
                        let lost = said.iter().find_map(|e| match e {
                            Event::FriendlyFire { loss_roll, .. } => Some(*loss_roll),
                            _ => None,
                        });
                        let key = match lost.unwrap() {
                            None => "no loss".to_owned(),
                            Some(k) => format!("loses {}", men(u16::from(k).min(3))),
                        };
                        *risk.entry(key).or_default() += 1;
                    }
                }
            }
        }
        // Each roll of the shot was counted 36 times; each roll pair of the
        // friend 6 times.
        let shot: BTreeMap<String, u64> = shot.into_iter().map(|(k, n)| (k, n / 36)).collect();
        assert_eq!(
            as_counts(&odds[0], 6),
            shot,
            "{command} at {target_men} men in {terrain}"
        );
        if friend {
            let risk: BTreeMap<String, u64> = risk.into_iter().map(|(k, n)| (k, n / 6)).collect();
            assert_eq!(as_counts(&odds[1], 36), risk, "{command}: the friend in C2");
        }
    }
}

fn melee_label(
    game: &Game,
    result: MeleeResult,
    winner: Option<sandtable_warpspawn::Side>,
    half: u16,
) -> String {
    match (winner, result) {
        (None, _) => format!("stalemate (B): both lose {} (R76)", men(half)),
        (Some(w), MeleeResult::V) => format!("{} wins and loses no men (V)", game.name(w)),
        (Some(w), r) => format!("{} wins ({r:?})", game.name(w)),
    }
}

#[test]
fn a_melees_result_and_the_losers_fate_match_every_pair_of_rolls() {
    // Every row of the table, with cover, an officer's weaker attack and
    // the reconstructed even row (R73-R76).
    for (attackers, officer, defenders, terrain) in [
        (20u16, 0u16, 5u16, Terrain::Fields),
        (12, 0, 4, Terrain::Fields),
        (16, 0, 8, Terrain::Fields),
        (15, 0, 10, Terrain::Fields),
        (10, 0, 10, Terrain::Fields),
        (6, 1, 10, Terrain::Fields),
        (9, 0, 6, Terrain::Trees),
        (12, 1, 10, Terrain::Fort),
    ] {
        let s = setup(
            8,
            8,
            vec![
                p(0, "C3", attackers, 0, officer),
                p(1, "C4", defenders, 0, 0),
            ],
            &[("C4", terrain)],
        );
        let mut before = start(&s, &[]);
        to_phase(&mut before, Phase::Melee);
        let command = "attack C4 from C3".parse().unwrap();
        let odds = before.odds_of(RED, &command);
        assert_eq!(odds.len(), 2);
        let mut results: BTreeMap<String, u64> = BTreeMap::new();
        let mut fates: BTreeMap<String, u64> = BTreeMap::new();
        for r1 in 1..=6u8 {
            for r2 in 1..=6u8 {
                let mut game = start(&s, &[r1, r2]);
                to_phase(&mut game, Phase::Melee);
                let said = events(&mut game, "attack C4 from C3");
                let (result, winner, half) = said
                    .iter()
                    .find_map(|e| match e {
                        Event::Attacked {
                            result,
                            winner,
                            half,
                            ..
                        } => Some((*result, *winner, *half)),
                        _ => None,
                    })
                    .unwrap();
                *results
                    .entry(melee_label(&game, result, winner, half))
                    .or_default() += 1;
                let fate = said.iter().find_map(|e| match e {
                    Event::FateRolled { fate, .. } => Some(*fate),
                    _ => None,
                });
                let key = match fate {
                    None => "no casualty roll: stalemate".to_owned(),
                    Some(sandtable_warpspawn::Fate::Surrender) => format!(
                        "surrender (1-2): both lose {}, the losers' rest taken prisoner",
                        men(half)
                    ),
                    Some(sandtable_warpspawn::Fate::Rout) => {
                        format!("rout (3-4): both lose {}, the losers' rest rout", men(half))
                    }
                    Some(sandtable_warpspawn::Fate::Slaughter) => format!(
                        "slaughter (5-6): the winner loses {}, every loser is killed",
                        men(half)
                    ),
                };
                *fates.entry(key).or_default() += 1;
            }
        }
        let results: BTreeMap<String, u64> = results.into_iter().map(|(k, n)| (k, n / 6)).collect();
        let case = format!("{attackers} (officer {officer}) against {defenders} in {terrain}");
        assert_eq!(as_counts(&odds[0], 6), results, "{case}");
        assert_eq!(as_counts(&odds[1], 36), fates, "{case}");
    }
}

#[test]
fn a_rally_rolls_results_match_every_roll() {
    for friend in [1u16, 5, 6] {
        let s = routed_setup(p(0, "E2", friend, 0, 0));
        let reach = |rolls: &[u8]| route(&s, rolls);
        let before = reach(&[]);
        let odds = before.odds_of(RED, &"rally D2 with E2".parse().unwrap());
        let mut seen: BTreeMap<String, u64> = BTreeMap::new();
        for roll in 1..=6u8 {
            let mut game = reach(&[roll]);
            let said = common::play(&mut game, &["rally D2 with E2"]);
            let key = if said.iter().any(|s| s.contains("rally and are armed")) {
                "the routers in D2 rally"
            } else if said.iter().any(|s| s.contains("panics")) {
                "the formation in E2 panics and routs"
            } else {
                "the routers in D2 flee on"
            };
            *seen.entry(key.to_owned()).or_default() += 1;
        }
        assert_eq!(as_counts(&odds[0], 6), seen, "routers against {friend}");
    }
}

#[test]
fn no_dice_no_odds() {
    let s = setup(
        8,
        8,
        vec![
            PiecesSetup {
                cannon: true,
                ..p(0, "C1", 4, 0, 0)
            },
            p(1, "C8", 4, 0, 0),
        ],
        &[],
    );
    let game = start(&s, &[]);
    assert!(game.odds_of(RED, &"end".parse().unwrap()).is_empty());
    assert!(
        game.odds_of(RED, &"fire C1 C8".parse().unwrap()).is_empty(),
        "out of range: refused"
    );
}
