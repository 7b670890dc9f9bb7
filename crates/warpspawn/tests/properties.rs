//! Properties of the battle over many random games (as for Cache): every
//! listed command is accepted and stands for its own family, and so does
//! every member the contract draws of it (`sample_into`); every command
//! the rules accept, among many tried in each position, is one of a listed
//! command's family (`listed_as`); a refused command changes nothing; undo
//! restores a position exactly; a game replayed from its commands and
//! dice ends in the same state; every game ends.

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat};
use sandtable_core::undo::Undoable;
use sandtable_warpspawn::{
    Command, Game, Hex, Hexes, Men, Parts, Pick, RoutTo, Side, Step, samples,
};

fn sides(game: &Game) -> Side {
    game.decider().expect("a game not over has a decider")
}

/// Commands worth trying in a position: every kind of command near the
/// pieces, legal or not, with counts around those in play.
fn candidates(game: &Game, rng: &mut ChaCha8Rng) -> Vec<Command> {
    let side = sides(game);
    let map = game.battle().map;
    let mut out = vec![Command::End];
    let near =
        |hex: Hex, d: u16| -> Vec<Hex> { map.hexes().filter(|h| h.distance(hex) <= d).collect() };
    let own: Vec<_> = game
        .stacks()
        .iter()
        .filter(|s| s.side == side)
        .copied()
        .collect();
    let foes: Vec<_> = game
        .stacks()
        .iter()
        .filter(|s| s.side != side)
        .copied()
        .collect();
    for st in &own {
        for foe in &foes {
            for routers in [false, true] {
                out.push(Command::Fire {
                    cannon: st.hex,
                    target: foe.hex,
                    routers,
                    crew: None,
                });
            }
            let cav = rng.random_range(0..=4);
            out.push(Command::Fire {
                cannon: st.hex,
                target: foe.hex,
                routers: false,
                crew: Some(Men::new(4 - cav, cav)),
            });
        }
        // A march that goes nowhere: its refusal must not offer an
        // example that is refused too.
        out.push(Command::March {
            from: st.hex,
            path: Hexes::one(st.hex),
            pick: None,
        });
        for d in near(st.hex, 2) {
            let mut paths = Vec::new();
            if st.hex.distance(d) == 1 {
                paths.push(Hexes::from_slice(&[d]).unwrap());
            }
            for mid in near(st.hex, 1) {
                if mid != st.hex && mid.touches(d) && d != st.hex {
                    paths.push(Hexes::from_slice(&[mid, d]).unwrap());
                }
            }
            for path in paths {
                out.push(Command::March {
                    from: st.hex,
                    path,
                    pick: None,
                });
                for _ in 0..3 {
                    let a = st.armed;
                    out.push(Command::March {
                        from: st.hex,
                        path,
                        pick: Some(Pick {
                            men: Men::new(
                                rng.random_range(0..=a.men.inf + 1),
                                rng.random_range(0..=a.men.cav),
                            ),
                            officers: rng.random_range(0..=a.officers),
                            cannon: st.cannon && rng.random_bool(0.5),
                            baggage: st.baggage && rng.random_bool(0.5),
                            flag: st.flags > 0 && rng.random_bool(0.5),
                            prisoners: rng.random_range(0..=st.prisoners.heads()),
                            unarmed: rng.random_range(0..=st.unarmed.heads()),
                        }),
                    });
                }
            }
        }
        for h in near(st.hex, 1) {
            out.push(Command::Rally {
                routers: st.hex,
                with: h,
            });
        }
    }
    for foe in &foes {
        let ring: Vec<Hex> = near(foe.hex, 1)
            .into_iter()
            .filter(|h| *h != foe.hex)
            .collect();
        for mask in 1u32..(1 << ring.len()) {
            if rng.random_bool(0.3) {
                let hexes: Vec<Hex> = ring
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, h)| *h)
                    .collect();
                out.push(Command::Attack {
                    target: foe.hex,
                    from: Hexes::from_slice(&hexes).unwrap(),
                });
            }
        }
    }
    match game.owed() {
        Some(Step::Lose { hexes, count, .. }) => {
            for hex in hexes.as_slice() {
                for inf in 0..=count + 1 {
                    for cav in 0..=count + 1 {
                        out.push(Command::Lose {
                            hex: *hex,
                            men: Men::new(inf, cav),
                        });
                    }
                }
            }
        }
        Some(Step::Advance { into, from, .. }) => {
            for into in into.as_slice() {
                for _ in 0..40 {
                    let mut parts: Vec<(Hex, Men)> = Vec::new();
                    for h in from.as_slice() {
                        if rng.random_bool(0.7) {
                            let m = game.stack(*h, side).map_or(Men::NONE, |s| s.fighting());
                            parts.push((
                                *h,
                                Men::new(rng.random_range(0..=m.inf), rng.random_range(0..=m.cav)),
                            ));
                        }
                    }
                    if let Some(parts) = Parts::from_slice(&parts)
                        && !parts.as_slice().is_empty()
                    {
                        out.push(Command::Advance {
                            into: *into,
                            from: parts,
                        });
                    }
                }
            }
        }
        Some(Step::Rout { from, .. }) => {
            out.push(Command::Rout {
                from: *from,
                to: RoutTo::Off,
            });
            for h in near(*from, 1) {
                out.push(Command::Rout {
                    from: *from,
                    to: RoutTo::Hex(h),
                });
                out.push(Command::Rout {
                    from: *from,
                    to: RoutTo::Surrender(h),
                });
            }
        }
        _ => {}
    }
    out
}

/// A random listed command, `end` only one time in five when there is
/// another, so that the armies meet.
fn pick(listed: &[sandtable_core::game::Legal<Command>], rng: &mut ChaCha8Rng) -> Command {
    let others: Vec<Command> = listed
        .iter()
        .map(|l| l.command)
        .filter(|c| *c != Command::End)
        .collect();
    if others.is_empty() || rng.random_bool(0.2) {
        listed[rng.random_range(0..listed.len())].command
    } else {
        others[rng.random_range(0..others.len())]
    }
}

fn setups() -> Vec<(&'static str, sandtable_warpspawn::Setup)> {
    vec![
        ("skirmish", samples::skirmish()),
        ("brawl", samples::brawl(1)),
        ("brawl with other rules", {
            let mut s = samples::brawl(2);
            s.switches.even_row = sandtable_warpspawn::EvenRow::Refused;
            s.switches.half_round = sandtable_warpspawn::HalfRound::Up;
            s.switches.rally_low = sandtable_warpspawn::RallyLow::Flee;
            s
        }),
        ("battle", samples::battle(11)),
        ("battle with other rules", {
            let mut s = samples::battle(12);
            s.switches.half_round = sandtable_warpspawn::HalfRound::Up;
            s.switches.rally_low = sandtable_warpspawn::RallyLow::Flee;
            s.switches.capture_the_flag = true;
            s.switches.cannon_range = 4;
            s
        }),
    ]
}

#[test]
fn listed_commands_are_exactly_the_families_of_the_accepted_ones() {
    let (mut accepted, mut in_family, mut refused) = (0u64, 0u64, 0u64);
    let mut examples = 0u64;
    let mut kinds = std::collections::BTreeSet::new();
    for (name, setup) in setups() {
        for seed in 0..6u64 {
            let mut game = Game::new(&setup, Dice::seeded(seed)).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut steps = 0;
            while let Some(side) = game.decider() {
                steps += 1;
                assert!(steps < 20_000, "{name}: the game does not end");
                let listed = game.legal_commands(side);
                assert!(
                    !listed.is_empty(),
                    "{name}: {side:?} owes a decision with nothing listed\n{}",
                    sandtable_warpspawn::draw_text(&game)
                );
                let commands: Vec<Command> = listed.iter().map(|l| l.command).collect();
                for (i, c) in commands.iter().enumerate() {
                    assert!(
                        game.check_as(side, c).is_ok(),
                        "{name}: listed `{c}` is refused: {}\n{}",
                        game.check_as(side, c).unwrap_err(),
                        sandtable_warpspawn::draw_text(&game)
                    );
                    assert_eq!(
                        game.listed_as(c),
                        *c,
                        "{name}: listed `{c}` stands for another"
                    );
                    assert!(!commands[..i].contains(c), "{name}: `{c}` is listed twice");
                    // Every member the contract draws of its family is
                    // accepted and of that family.
                    if steps % 7 == 0 {
                        let mut members = Vec::new();
                        GameState::sample_into(
                            &game,
                            Seat(u16::from(side.0)),
                            c,
                            3,
                            &mut rng,
                            &mut members,
                        );
                        assert!(!members.is_empty(), "{name}: `{c}` has no member");
                        for m in &members {
                            assert!(
                                game.check_as(side, m).is_ok(),
                                "{name}: member `{m}` of `{c}`"
                            );
                            assert_eq!(game.listed_as(m), *c, "{name}: member `{m}` of `{c}`");
                        }
                    }
                }
                if steps % 3 == 0 {
                    for c in candidates(&game, &mut rng) {
                        if game.check_as(side, &c).is_ok() {
                            accepted += 1;
                            kinds.insert(c.to_string().split(' ').next().unwrap().to_owned());
                            let as_listed = game.listed_as(&c);
                            if as_listed != c {
                                in_family += 1;
                            }
                            assert!(
                                commands.contains(&as_listed),
                                "{name}: `{c}` is accepted, but its family's `{as_listed}` is not listed; listed: {}\n{}",
                                commands
                                    .iter()
                                    .map(|c| c.to_string())
                                    .collect::<Vec<_>>()
                                    .join(", "),
                                sandtable_warpspawn::draw_text(&game)
                            );
                        } else {
                            refused += 1;
                            // An example a refusal offers is one that is played.
                            let why = game.check_as(side, &c).unwrap_err().to_string();
                            if let Some((_, rest)) = why.split_once("as in `") {
                                let text = rest.split('`').next().unwrap_or_default();
                                let example: Command = text.parse().unwrap_or_else(|e| {
                                    panic!("{name}: the refusal of `{c}` offers `{text}`: {e}")
                                });
                                assert!(
                                    game.check_as(side, &example).is_ok(),
                                    "{name}: the refusal of `{c}` ({why}) offers `{example}`, which is refused: {}\n{}",
                                    game.check_as(side, &example).unwrap_err(),
                                    sandtable_warpspawn::draw_text(&game)
                                );
                                examples += 1;
                            }
                            let before = game.clone();
                            let mut probe = game.clone();
                            assert!(probe.apply(&c).is_err());
                            assert_eq!(probe, before, "{name}: refused `{c}` changed the game");
                        }
                    }
                }
                let pick = pick(&listed, &mut rng);
                game.apply(&pick)
                    .unwrap_or_else(|e| panic!("{name}: `{pick}`: {e}"));
            }
        }
    }
    println!(
        "accepted {accepted}, of them {in_family} unlisted members of a family; refused {refused}, {examples} offering an example; kinds {kinds:?}"
    );
    // The candidates reach every kind of command, and families beyond their
    // listed members.
    assert_eq!(
        kinds.into_iter().collect::<Vec<_>>(),
        [
            "advance", "attack", "end", "fire", "lose", "march", "rally", "rout"
        ]
    );
    assert!(in_family > 100 && refused > 1000, "{in_family} {refused}");
}

#[test]
fn undo_restores_the_position_exactly() {
    let mut undone = 0;
    for (name, setup) in setups() {
        for seed in 0..4 {
            let mut game = Undoable::new(Game::new(&setup, Dice::seeded(seed)).unwrap());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while let Some(side) = game.decider() {
                let seat = Seat(side.0.into());
                let listed = game.legal_commands(side);
                let pick = pick(&listed, &mut rng);
                let before = game.clone();
                let applied = game.apply_into(seat, &pick, &mut Vec::new()).unwrap();
                if applied.barrier.is_none() && rng.random_bool(0.3) {
                    let back = game
                        .undo()
                        .unwrap_or_else(|e| panic!("{name}: undo after `{pick}`: {e}"));
                    assert_eq!(back, pick);
                    assert_eq!(game.state(), before.state(), "{name}: undo of `{pick}`");
                    assert_eq!(game.state_hash(), before.state_hash());
                    undone += 1;
                    game.apply(seat, &pick).unwrap();
                }
                if applied.barrier.is_some() {
                    let after = game.clone();
                    let err = game.undo().unwrap_err();
                    assert!(err.contains("R31"), "{err}");
                    assert_eq!(game, after, "a refused undo changes nothing");
                }
            }
        }
    }
    assert!(undone > 100, "only {undone} undos tried");
}

#[test]
fn a_game_replayed_from_its_commands_and_dice_ends_in_the_same_state() {
    for (name, setup) in setups() {
        let mut game = Game::new(&setup, Dice::seeded(5)).unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut played = Vec::new();
        while let Some(side) = game.decider() {
            let listed = game.legal_commands(side);
            let pick = pick(&listed, &mut rng);
            game.apply(&pick).unwrap();
            played.push(pick.to_string());
        }
        let mut again = Game::new(&setup, Dice::seeded(5)).unwrap();
        for text in &played {
            let command: Command = text.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
            again
                .apply(&command)
                .unwrap_or_else(|e| panic!("{name}: `{text}`: {e}"));
        }
        assert_eq!(again.state(), game.state(), "{name}");
        assert_eq!(again.state_hash(), game.state_hash());
        assert!(game.ending().is_some());
    }
}

#[test]
fn only_the_deciding_seat_acts_through_the_contract() {
    let mut game = Game::new(&samples::skirmish(), Dice::seeded(1)).unwrap();
    let mut list = Vec::new();
    GameState::legal_into(&game, Seat(1), &mut list);
    assert!(list.is_empty(), "Blue owes nothing in Red's turn");
    let before = game.clone();
    let err =
        GameState::apply_into(&mut game, Seat(1), &Command::End, &mut Vec::new()).unwrap_err();
    assert_eq!(err.to_string(), "it is Red's turn (R64)");
    assert_eq!(game, before);
}
