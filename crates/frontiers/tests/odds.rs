//! The odds a shot shows before it is played, checked against every roll
//! of scripted dice played out (R123-R126, R142).

use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat};
use sandtable_frontiers::army::Slot;
use sandtable_frontiers::data::{Faction, Location};
use sandtable_frontiers::event::Event;
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{SideSetup, UnitSetup};
use sandtable_frontiers::{Command, Game, Setup};

fn setup(units: &[(&str, &str, u8, i32, i32)]) -> Setup {
    Setup {
        sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
        units: units
            .iter()
            .map(|(id, data, side, x, y)| UnitSetup {
                id: (*id).into(),
                data: (*data).into(),
                side: *side,
                at: Pt::new(*x, *y),
                facing: 90,
                back: false,
                deploy: false,
                gear: None,
            })
            .collect(),
        ..Setup::default()
    }
}

/// What one play of `command` did to the units, in the odds' words: for
/// each unit attacked, missed, damaged, destroyed, or a location hit.
fn result_words(game: &Game, events: &[Event]) -> Vec<String> {
    let mut out = Vec::new();
    for e in events {
        let tag = |u: &usize| game.units()[*u].tag.to_string();
        match e {
            Event::Attacked {
                struck: sandtable_frontiers::event::Struck::Unit(u),
                outcome: sandtable_frontiers::attack::Outcome::Miss,
                ..
            }
            | Event::Sniped {
                target: u,
                outcome: sandtable_frontiers::attack::Outcome::Miss,
                ..
            } => out.push(format!("{}: missed", tag(u))),
            Event::Damaged { unit } => out.push(format!("{}: damaged", tag(unit))),
            Event::Destroyed { unit, .. } => out.push(format!("{}: destroyed", tag(unit))),
            Event::LocationHit { unit, location, .. } => out.push(format!(
                "{}: {}",
                tag(unit),
                match location {
                    Location::Weapon(_) => "weapon",
                    Location::Carried => "a carried unit",
                    Location::Locomotion => "locomotion",
                    Location::Equipment => "equipment",
                }
            )),
            _ => {}
        }
    }
    out
}

/// The outcome an odds line names, in the words of [`result_words`].
fn odds_words(line: &str) -> String {
    let (who, what) = line.split_once(": ").expect("who: what");
    let what = if what == "missed" {
        "missed"
    } else if what.ends_with("destroyed") {
        "destroyed"
    } else if what.ends_with("damaged") {
        "damaged"
    } else if what.starts_with("weapon") {
        "weapon"
    } else if what.starts_with("locomotion") {
        "locomotion"
    } else if what.starts_with("equipment") {
        "equipment"
    } else if what.starts_with("a carried unit") {
        "a carried unit"
    } else {
        panic!("an odds line of no known outcome: {line}")
    };
    format!("{who}: {what}")
}

/// Both sides pass while a card window is open (R132).
fn passes(g: &mut Game, events: &mut Vec<Event>) {
    while g.flow().phase == Phase::Window {
        let side = g.flow().window.expect("open").side;
        g.apply_into(
            Seat(u16::from(side)),
            &"pass".parse().expect("notation"),
            events,
        )
        .unwrap_or_else(|e| panic!("pass: {e}"));
    }
}

/// Plays `command` on every script of `rolls` dice (6^rolls of them) and
/// checks each attack's shown odds against how often each result came.
/// The turn is played up to the shot through the contract: the shooter
/// holds marker 1 (on `slot`), names a shot, both pass the Step window,
/// and it shoots; both pass the Shot window and the Hit windows; the dice
/// before it from a generator, the script after, with ones to spare for
/// the Reserve's coins.
fn check(setup: &Setup, seat: u16, slot: Slot, command: &str, rolls: u32) {
    let c: Command = command.parse().expect("notation");
    let shooter = c.unit().expect("a shot's unit");
    let before = |dice: Vec<u8>| {
        let mut g = Game::new(setup, Dice::seeded(5)).expect("valid");
        let side = seat as u8;
        let play = |g: &mut Game, s: u8, c: Command| {
            let mut ev = Vec::new();
            g.apply_into(Seat(u16::from(s)), &c, &mut ev)
                .unwrap_or_else(|e| panic!("{c}: {e}"));
        };
        play(&mut g, 0, "discard".parse().expect("notation"));
        play(&mut g, 1, "discard".parse().expect("notation"));
        let mine = g.orders_with(side, &[(shooter, slot)]).expect("orders");
        let theirs = g.orders_with(1 - side, &[]).expect("orders");
        play(&mut g, side, mine);
        play(&mut g, 1 - side, theirs);
        play(
            &mut g,
            side,
            format!("name {shooter} shoot").parse().expect("notation"),
        );
        passes(&mut g, &mut Vec::new());
        let mut dice = dice;
        dice.extend([1; 40]);
        g.set_dice(Dice::scripted(dice));
        g
    };
    let shown = before(Vec::new()).odds(Seat(seat), &c);
    assert!(!shown.is_empty(), "{command} shows odds");
    let total = 6u64.pow(rolls);
    // Tally every result of every script.
    let mut counted: std::collections::BTreeMap<String, u64> = Default::default();
    for k in 0..total {
        let dice: Vec<u8> = (0..rolls)
            .map(|i| (k / 6u64.pow(i) % 6) as u8 + 1)
            .collect();
        let mut g = before(dice);
        let mut ev = Vec::new();
        g.apply_into(Seat(seat), &c, &mut ev)
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        passes(&mut g, &mut ev);
        for w in result_words(&g, &ev) {
            *counted.entry(w).or_default() += 1;
        }
    }
    for odds in &shown {
        let sum: f64 = odds.outcomes.iter().map(|o| o.1.value()).sum();
        assert!((sum - 1.0).abs() < 1e-9, "{} adds up to {sum}", odds.what);
        for (line, chance) in &odds.outcomes {
            let key = odds_words(line);
            // A location hit again reads "destroyed" on the vehicle.
            let seen = counted.get(&key).copied().unwrap_or(0);
            let expected = chance.num as f64 / chance.den as f64;
            let got = seen as f64 / total as f64;
            let merged: f64 = odds
                .outcomes
                .iter()
                .filter(|(l, _)| odds_words(l) == key)
                .map(|o| o.1.value())
                .sum();
            assert!(
                (got - merged).abs() < 1e-9,
                "{}: {line} shown {expected:.4} ({merged:.4} with its like), played {got:.4}",
                odds.what
            );
        }
    }
}

#[test]
fn r123_r124_a_shot_s_odds_are_its_dice_played_out() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 400),
    ]);
    // Long range -1: miss, damaged, no double possible.
    check(&s, 0, Slot::Unit, "shoot T1 K1", 1);
    let s = setup(&[
        ("O1", "lg_orion", 0, 100, 100),
        ("M1", "zr_memory", 1, 100, 200),
        ("K1", "zr_cluster", 1, 900, 500),
    ]);
    // A2 3 at body against defense 4: steps and doubles, one step a
    // memory's damaged side.
    check(&s, 0, Slot::Weapon(1), "shoot O1 M1 A2", 1);
}

#[test]
fn r125_a_vehicle_s_odds_roll_its_locations() {
    let s = setup(&[
        ("W1", "lg_walker", 0, 300, 100),
        ("CR", "zr_crawler", 1, 300, 300),
    ]);
    check(&s, 0, Slot::Weapon(0), "shoot W1 CR", 2);
}

#[test]
fn r126_a_template_s_odds_are_each_unit_s_attack() {
    // The spitter's large template on T1 catches T2 beside it.
    let s = setup(&[
        ("T1", "lg_trooper", 0, 300, 100),
        ("T2", "lg_trooper", 0, 335, 100),
        ("SP", "zr_spitter", 1, 300, 400),
    ]);
    check(&s, 1, Slot::Unit, "shoot SP T1", 2);
}

#[test]
fn r142_a_sniper_s_odds_are_its_own_numbers() {
    let s = setup(&[
        ("S1", "lg_sniper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 500),
    ]);
    check(&s, 0, Slot::Unit, "shoot S1 K1", 1);
}

#[test]
fn r141_a_split_shot_s_odds_are_each_part_s_roll() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 150, 100),
        ("K1", "zr_cluster", 1, 120, 300),
    ]);
    check(&s, 1, Slot::Unit, "shoot K1 T1+1 T2+1", 2);
}
