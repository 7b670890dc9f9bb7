//! Frontiers' bots never read a secret (R149): at every decision of a
//! shipped game, their choice is the same on a copy where everything the
//! deciding seat may not see (the other side's hand and face-down
//! markers, a sealed command not yet revealed, crates' hidden contents,
//! the decks' order, the dice to come) was dealt again. And a fixed seed
//! and budget give the same choice.

use std::path::Path;

use sandtable_bots::Budget;
use sandtable_bots::frontiers::{best_shot, greedy, mcts, shot_take, view_hash};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, next_seat};
use sandtable_core::record::Record;
use sandtable_frontiers::{Command, Game};

/// The states of a shipped game in which a seat decides, every `every`th.
fn states(name: &str, every: usize) -> Vec<Game> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join(format!("scenarios/frontiers/{name}.ron")))
        .expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, name).expect("it loads");
    let record: Record<Command> = sandtable_scenario::records::read(
        &root.join(format!("crates/cli/tests/data/frontiers-{name}.moves")),
    )
    .expect("the record");
    let seed: u64 = record
        .header("Seed")
        .map_or(skirmish.setup.seed, |s| s.parse().expect("a seed"));
    let mut game = Game::new(&skirmish.setup, Dice::seeded(seed)).expect("it starts");
    let mut out = Vec::new();
    for (k, (_, c)) in record.commands.iter().enumerate() {
        if k % every == 0 {
            out.push(game.clone());
        }
        let seat = next_seat(&game).expect("a seat decides");
        let mut events = Vec::new();
        game.apply_into(seat, c, &mut events)
            .expect("the record plays");
    }
    out
}

#[test]
fn a_bot_s_choice_is_the_same_whatever_it_may_not_see() {
    let (mut checked, mut hidden_differs) = (0, 0);
    for name in ["confrontation", "cameron-1"] {
        for game in states(name, 37) {
            let Some(seat) = next_seat(&game) else {
                continue;
            };
            let mut other = game.clone();
            other.redeal(seat, 99);
            // What the seat sees is the same; what it does not may differ.
            assert_eq!(view_hash(&game, seat), view_hash(&other, seat));
            hidden_differs += usize::from(game.state_hash() != other.state_hash());
            let random = sandtable_bots::BotConfig::new(sandtable_bots::BotKind::Random, 5);
            assert_eq!(
                sandtable_bots::choose(&game, seat, &random),
                sandtable_bots::choose(&other, seat, &random),
                "{name}: random at {}",
                sandtable_frontiers::text::status(&game)
            );
            assert_eq!(
                greedy(&game, seat, 5),
                greedy(&other, seat, 5),
                "{name}: greedy at {}",
                sandtable_frontiers::text::status(&game)
            );
            assert_eq!(
                mcts(&game, seat, Budget::Iterations(40), 5).map(|c| c.0),
                mcts(&other, seat, Budget::Iterations(40), 5).map(|c| c.0),
                "{name}: mcts at {}",
                sandtable_frontiers::text::status(&game)
            );
            checked += 1;
        }
    }
    assert!(checked >= 10, "{checked} positions");
    assert!(
        hidden_differs * 2 >= checked,
        "{hidden_differs} of {checked} dealt anew"
    );
}

#[test]
fn a_fixed_seed_and_budget_give_the_same_choice() {
    for game in states("confrontation", 53) {
        let Some(seat) = next_seat(&game) else {
            continue;
        };
        assert_eq!(greedy(&game, seat, 3), greedy(&game, seat, 3));
        assert_eq!(
            mcts(&game, seat, Budget::Iterations(60), 3),
            mcts(&game, seat, Budget::Iterations(60), 3)
        );
    }
}

/// Confrontation with every unit deployed by the greedy bot, at the first
/// Order phase.
fn first_orders() -> Game {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("scenarios/frontiers/confrontation.ron"))
        .expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, "confrontation").expect("it loads");
    let mut game = Game::new(&skirmish.setup, Dice::seeded(skirmish.setup.seed)).expect("starts");
    let mut events = Vec::new();
    while !matches!(game.flow().phase, sandtable_frontiers::flow::Phase::Order) {
        let seat = next_seat(&game).expect("a seat decides");
        let c = greedy(&game, seat, 1).expect("a command");
        game.apply_into(seat, &c, &mut events).expect("legal");
    }
    game
}

#[test]
fn greedy_numbers_its_best_shots_first_and_deploys_every_unit() {
    use sandtable_frontiers::army::Marker;
    let game = first_orders();
    assert!(
        game.units().iter().all(|u| !u.waiting),
        "every unit deployed (R146)"
    );
    for seat in [Seat(0), Seat(1)] {
        let side = seat.0 as u8;
        // A reinforce card is played first where it is held (R152).
        let mut game = game.clone();
        let mut events = Vec::new();
        let mut choice = greedy(&game, seat, 1);
        while let Some(c @ Command::Card { .. }) = choice {
            game.apply_into(seat, &c, &mut events).expect("legal");
            choice = greedy(&game, seat, 1);
        }
        let Some(Command::Orders { orders, n }) = choice else {
            panic!("orders in the Order phase, not {choice:?}");
        };
        let orders = &orders[..usize::from(n)];
        assert!(
            game.check(
                seat,
                &Command::Orders {
                    orders: orders_array(orders),
                    n
                }
            )
            .is_ok()
        );
        let numbered: Vec<_> = orders
            .iter()
            .filter(|o| matches!(o.marker, Marker::Numbered(_)))
            .collect();
        assert_eq!(
            numbered.len(),
            usize::from(game.markers_owed(side)),
            "every numbered marker placed (R106)"
        );
        // Marker 1 lies on the unit with the best shot of the side, a
        // unit that shoots in the Reserve anyway counted at 0.3 (R112).
        let one = numbered
            .iter()
            .find(|o| o.marker == Marker::Numbered(1))
            .expect("a marker 1");
        let best = |tag| {
            let i = game.find(tag).expect("a unit");
            let reserve = game.units()[i]
                .data
                .has(sandtable_frontiers::data::Ability::ReserveShoot);
            best_shot(&game, i, None).0 * if reserve { 0.3 } else { 1.0 }
        };
        let most = game
            .units()
            .iter()
            .filter(|u| u.side == side && u.alive)
            .map(|u| best(u.tag))
            .fold(0.0, f32::max);
        assert!(most > 0.0, "a shot across the table at the start");
        assert_eq!(best(one.unit), most, "marker 1 on the best shot");
    }
}

fn orders_array(
    orders: &[sandtable_frontiers::command::Order],
) -> [sandtable_frontiers::command::Order; sandtable_frontiers::command::MAX_ORDERS] {
    let mut out =
        [sandtable_frontiers::command::Order::default(); sandtable_frontiers::command::MAX_ORDERS];
    out[..orders.len()].copy_from_slice(orders);
    out
}

#[test]
fn a_shot_is_worth_the_ap_its_odds_destroy() {
    // Each direct shot across the table at the first Order phase, weighed
    // by the bots and by the rules' odds (R123): a double destroys; a
    // step destroys a unit with no damaged side to flip to, and is half
    // its AP on one that flips (R124: a second step destroys it).
    let game = first_orders();
    let mut checked = [0; 2];
    for (i, u) in game.units().iter().enumerate() {
        for (t, e) in game.units().iter().enumerate() {
            if u.side == e.side || e.vehicle() {
                continue;
            }
            let Ok(sandtable_frontiers::game::Shot::Direct(aim)) = game.plan_shot(i, t, 0) else {
                continue;
            };
            let take = shot_take(&game, i, t, 0).expect("a shot planned is weighed");
            let bonus = u.bonus(0, e.armor()).expect("a bonus at it");
            let [miss, step, double] =
                sandtable_frontiers::attack::attack_odds(bonus, aim.total(), e.defense(), false);
            assert_eq!(u32::from(miss + step + double), 6);
            let flips = e.data.back() == sandtable_frontiers::data::Back::Damaged && !e.back;
            let step_worth = if flips { 0.5 } else { 1.0 };
            let expected =
                f32::from(e.data.ap) * (f32::from(double) + step_worth * f32::from(step)) / 6.0;
            assert!(
                (take - expected).abs() < 1e-4,
                "{} at {}: {take} against {expected}",
                u.tag,
                e.tag
            );
            checked[usize::from(flips)] += 1;
        }
    }
    assert!(
        checked[0] + checked[1] >= 10,
        "{checked:?} shots weighed, at units that do not flip and that do"
    );
}

/// Greedy plays rally (R133) in the Step window on its own unmarked unit
/// with the best shot, worth at least 1 AP, of those that would not shoot
/// in the Reserve anyway (R112): an action more for a unit that would
/// only move.
#[test]
fn greedy_rallies_its_unmarked_unit_with_the_best_shot() {
    use sandtable_frontiers::data::{Ability, CARDS};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("scenarios/frontiers/confrontation.ron"))
        .expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, "confrontation").expect("it loads");
    let mut rallies = 0;
    for seed in 1..=6 {
        let mut game = Game::new(&skirmish.setup, Dice::seeded(seed)).expect("it starts");
        let mut events = Vec::new();
        while let Some(seat) = next_seat(&game) {
            let c = greedy(&game, seat, seed).expect("a command");
            if let Command::Card {
                card,
                unit: Some(tag),
                ..
            } = c
                && CARDS[usize::from(card)].id == "rally"
            {
                let side = game.units()[game.find(tag).expect("a unit")].side;
                let flow = game.flow();
                let unmarked = |i: usize| {
                    !flow.placed[usize::from(side)].iter().any(|p| p.unit == i)
                        && !flow.over.contains(&i)
                };
                let eligible: Vec<usize> = (0..game.units().len())
                    .filter(|&i| {
                        let u = &game.units()[i];
                        u.side == side
                            && u.alive
                            && !u.waiting
                            && unmarked(i)
                            && !u.data.has(Ability::ReserveShoot)
                    })
                    .collect();
                let i = game.find(tag).expect("a unit");
                assert!(eligible.contains(&i), "seed {seed}: {tag} may be rallied");
                let shot = best_shot(&game, i, None).0;
                assert!(shot >= 1.0, "seed {seed}: {tag}'s best shot {shot}");
                for &k in &eligible {
                    assert!(
                        best_shot(&game, k, None).0 <= shot,
                        "seed {seed}: {} has a better shot than {tag}",
                        game.units()[k].tag
                    );
                }
                rallies += 1;
            }
            game.apply_into(seat, &c, &mut events).expect("legal");
        }
    }
    assert!(rallies > 0, "no rally played in six games");
}

/// In the Reserve each unit of the group acts once, in the order its
/// player chooses (R112): greedy weighs one unit a decision, the one with
/// the best shot among those that may shoot, else the first of the
/// group, so its choice is always that unit's, and the group's best
/// shots go first.
#[test]
fn greedy_acts_in_the_reserve_with_the_unit_of_the_best_shot_first() {
    use sandtable_frontiers::command::Kind;
    use sandtable_frontiers::flow::Phase;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = std::fs::read_to_string(root.join("scenarios/frontiers/confrontation.ron"))
        .expect("the scenario");
    let skirmish = sandtable_scenario::skirmish::parse(&text, "confrontation").expect("it loads");
    let (mut groups, mut shooters) = (0, 0);
    for seed in 1..=4 {
        let mut game = Game::new(&skirmish.setup, Dice::seeded(seed)).expect("it starts");
        let mut events = Vec::new();
        while let Some(seat) = next_seat(&game) {
            let c = greedy(&game, seat, seed).expect("a command");
            if let Phase::Reserve(side) = game.flow().phase
                && game.pending().is_none()
                && game.picks().is_empty()
            {
                let actors = game.actors(side);
                if actors.len() > 1 {
                    groups += 1;
                    let shot = |i: usize, kinds: &[Kind]| {
                        if kinds.contains(&Kind::Shoot) {
                            best_shot(&game, i, None).0
                        } else {
                            0.0
                        }
                    };
                    let best = actors
                        .iter()
                        .map(|(i, kinds, _)| shot(*i, kinds))
                        .fold(0.0, f32::max);
                    // The first of the group with that shot.
                    let (first, ..) = actors
                        .iter()
                        .find(|(i, kinds, _)| shot(*i, kinds) >= best)
                        .expect("a unit");
                    let tag = game.units()[*first].tag;
                    let of = match c {
                        Command::Pass { unit } => unit,
                        other => other.unit(),
                    };
                    assert_eq!(
                        of,
                        Some(tag),
                        "seed {seed}: {c:?} is not of {tag}, the unit to act first (best shot {best})"
                    );
                    if best > 0.0 {
                        shooters += 1;
                    }
                }
            }
            game.apply_into(seat, &c, &mut events).expect("legal");
        }
    }
    assert!(groups > 10, "{groups} Reserve decisions of a group");
    assert!(shooters > 0, "no Reserve decision had a shot");
}
