//! The turn through the contract (rulings/frontiers.md, R105-R112,
//! R145, R149): Preparation, sealed orders, steps named and resolved,
//! two shots together, the Reserve; and what each seat may see of it.
//! Decks are given in order (R104's `deck_order`) so that the scripted
//! dice are the turn's own.

use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Seat, Seats, Viewer};
use sandtable_frontiers::attack::Outcome;
use sandtable_frontiers::data::Faction;
use sandtable_frontiers::event::{Event, Struck};
use sandtable_frontiers::flow::Phase;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{SideSetup, UnitSetup};
use sandtable_frontiers::{Command, Game, Setup};

/// A deck of 25 within the limits, in the order it is drawn (R104, R152).
const DECK: [&str; 25] = [
    "aim",
    "jam",
    "cover",
    "rally",
    "sprint",
    "reinforce",
    "resupply",
    "aim",
    "jam",
    "cover",
    "sprint",
    "reinforce",
    "resupply",
    "aim",
    "jam",
    "cover",
    "sprint",
    "reinforce",
    "resupply",
    "aim",
    "rally",
    "sprint",
    "reinforce",
    "aim",
    "rally",
];

fn side(faction: Faction) -> SideSetup {
    SideSetup {
        deck: Some(DECK.iter().map(|c| (*c).to_owned()).collect()),
        deck_order: true,
        ..SideSetup::of(faction)
    }
}

fn setup(units: &[(&str, &str, u8, i32, i32)]) -> Setup {
    Setup {
        sides: vec![side(Faction::Legion), side(Faction::Zirl)],
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
        turns: 3,
        ..Setup::default()
    }
}

fn game(setup: &Setup, rolls: &[u8]) -> Game {
    Game::new(setup, Dice::scripted(rolls.to_vec())).unwrap_or_else(|e| panic!("{e}"))
}

fn cmd(text: &str) -> Command {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Applies `text` as `seat` through the contract, or panics.
fn play(g: &mut Game, seat: u16, text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    g.apply_into(Seat(seat), &cmd(text), &mut events)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    events
}

/// The refusal of `text` as `seat`, checked to change nothing.
fn refused(g: &Game, seat: u16, text: &str) -> String {
    let mut copy = g.clone();
    let mut events = Vec::new();
    let e = copy
        .apply_into(Seat(seat), &cmd(text), &mut events)
        .expect_err(text);
    assert!(copy == *g, "a refused command changes nothing: {text}");
    e.to_string()
}

/// Both Preparations kept, then both sides' orders.
fn orders(g: &mut Game, first: &str, second: &str) -> Vec<Event> {
    if matches!(g.flow().phase, Phase::Prepare(_)) {
        play(g, 0, "discard");
        play(g, 1, "discard");
    }
    play(g, 0, first);
    play(g, 1, second)
}

/// Each side passes while a card window is open (R132): the window's
/// events.
fn windows(g: &mut Game) -> Vec<Event> {
    let mut events = Vec::new();
    while g.flow().phase == Phase::Window {
        let side = g.flow().window.expect("open").side;
        events.extend(play(g, u16::from(side), "pass"));
    }
    events
}

fn one(seat: u16) -> Decision {
    Decision::One(Seat(seat))
}

#[test]
fn r105_each_preparation_discards_any_then_draws_up_to_four_first_seat_first() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 500),
    ]);
    let mut g = game(&s, &[]);
    assert_eq!(g.decision(), one(0));
    assert_eq!(
        refused(&g, 1, "discard"),
        "it is Legion's Preparation (R105)"
    );
    assert!(refused(&g, 0, "orders T1:1").contains("the Preparation comes first"));
    // The first hand: nothing to let go; the deck's top four.
    let ev = play(&mut g, 0, "discard");
    assert_eq!(
        g.describe(&ev[0]),
        "Legion keeps its hand and draws aim, jam, cover, rally (R105)"
    );
    play(&mut g, 1, "discard");
    assert_eq!(g.flow().phase, Phase::Order);
    // Next turn: the named cards out, up to four drawn from the top.
    orders(&mut g, "orders T1:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    play(&mut g, 0, "pass T1");
    assert_eq!(g.turn(), 2);
    assert_eq!(
        refused(&g, 0, "discard sprint"),
        "the hand holds no sprint to discard (R105)"
    );
    let ev = play(&mut g, 0, "discard jam rally");
    assert_eq!(
        g.describe(&ev[0]),
        "Legion discards jam, rally and draws sprint, reinforce (R105)"
    );
    let c = &g.flow().cards[0];
    assert_eq!(c.hand.len(), 4);
    assert_eq!(c.deck.len(), 25 - 6);
    assert_eq!(c.discards.len(), 2);
}

#[test]
fn r106_r107_orders_with_a_gap_are_refused_and_sealed_until_both_are_placed() {
    let s = setup(&[
        ("CP", "lg_captain", 0, 100, 100),
        ("T1", "lg_trooper", 0, 200, 100),
        ("T2", "lg_trooper", 0, 300, 100),
        ("T3", "lg_trooper", 0, 400, 100),
        ("K1", "zr_cluster", 1, 100, 500),
        ("K2", "zr_cluster", 1, 200, 500),
        ("K3", "zr_cluster", 1, 300, 500),
    ]);
    let mut g = game(&s, &[]);
    // 70 AP: 2, and the captain's +2 (R106).
    assert_eq!(g.markers_owed(0), 4);
    assert_eq!(g.markers_owed(1), 2);
    play(&mut g, 0, "discard");
    play(&mut g, 1, "discard");
    let both = Seats::default().with(Seat(0)).with(Seat(1));
    assert_eq!(g.decision(), Decision::Sealed(both));
    assert_eq!(
        refused(&g, 0, "orders CP:1 T1:3 T2:decoy T3:decoy"),
        "marker 3 is placed without marker 2: markers run from 1 with no gap (R107)"
    );
    assert_eq!(
        refused(&g, 1, "orders K1:1 K2:2 K3:3"),
        "3 numbered markers: the side has 2 this turn, as R106 counts them (R107)"
    );
    assert!(refused(&g, 0, "orders CP:1 K1:decoy").contains("K1 is Zirl's (R107)"));
    let ev = play(&mut g, 0, "orders CP:1 T1:2 T2:decoy T3:decoy");
    assert_eq!(
        g.describe(&ev[0]),
        "Legion places its markers face down (R107)"
    );
    // Sealed: the Zirl owe theirs, and read no number of the Legion's.
    assert_eq!(
        g.decision(),
        Decision::Sealed(Seats::default().with(Seat(1)))
    );
    let c = cmd("orders CP:1 T1:2 T2:decoy T3:decoy");
    assert_eq!(g.command_for(Seat(0), &c, Viewer::Player(Seat(1))), None);
    assert_eq!(
        g.command_for(Seat(0), &c, Viewer::Player(Seat(0))),
        Some(c.to_string())
    );
    assert!(refused(&g, 0, "orders CP:1 T1:2 T2:decoy T3:decoy").contains("placed already"));
    let ev = play(&mut g, 1, "orders K1:1 K2:decoy K3:decoy");
    // Both placed: each sees where the other's lie (R107).
    let lie: Vec<String> = ev
        .iter()
        .filter(|e| matches!(e, Event::MarkersLie { .. }))
        .map(|e| g.describe(e))
        .collect();
    assert_eq!(
        lie,
        [
            "Legion's markers lie on CP, T1, T2, T3 (R107)",
            "Zirl's markers lie on K1, K2, K3 (R107)"
        ]
    );
}

#[test]
fn r108_markers_turn_up_in_order_the_other_going_on_alone_and_one_on_a_destroyed_unit_is_lost() {
    let s = setup(&[
        ("CP", "lg_captain", 0, 100, 100),
        ("T1", "lg_trooper", 0, 200, 100),
        ("T2", "lg_trooper", 0, 300, 100),
        ("K1", "zr_cluster", 1, 200, 300),
        ("K2", "zr_cluster", 1, 900, 500),
    ]);
    // K1's shot at T1: 6 + 3 = 9 against 5, then 6 again: destroyed.
    let mut g = game(&s, &[6, 6, 6]);
    orders(&mut g, "orders CP:1 T1:2 T2:3", "orders K1:1 K2:decoy");
    // Step 1: CP (Movement 4) is slower than K1 (5): the Legion names
    // first (R110).
    assert_eq!(g.flow().step, 1);
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "name CP move");
    play(&mut g, 1, "name K1 shoot");
    windows(&mut g);
    play(&mut g, 0, "move CP");
    let ev = play(&mut g, 1, "shoot K1 T1");
    let ev = [ev, windows(&mut g)].concat();
    assert!(ev.contains(&Event::Damaged { unit: 1 }));
    // Step 2 holds T1's marker, and the Zirl have none: the Legion goes
    // on alone.
    assert_eq!(g.flow().step, 2);
    assert_eq!(g.flow().active.len(), 1);
    play(&mut g, 0, "name T1 move");
    // The Step window, the Legion first (R132).
    assert_eq!(refused(&g, 1, "pass"), "it is Legion's card or pass (R132)");
    windows(&mut g);
    assert_eq!(refused(&g, 1, "pass"), "it is Legion's action now (R108)");
    play(&mut g, 0, "pass");
    assert_eq!(g.flow().step, 3);
    // A marker turned up on a destroyed unit is lost: none here; T2's
    // marker 3 is its own.
    play(&mut g, 0, "name T2 move");
    windows(&mut g);
    let ev = play(&mut g, 0, "move T2 300,140");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::DecoysGone { side: 1, .. })),
        "after the last step, the Reserve"
    );
    // Next turn, T1 holds marker 1 and is destroyed before its step: the
    // step holds nobody of the Legion.
    play(&mut g, 1, "pass K2");
    assert_eq!(g.turn(), 2);
    let mut g2 = g.clone();
    orders(&mut g2, "orders T1:1 CP:2 T2:decoy", "orders K1:1 K2:decoy");
    // T1 (4) slower than K1 (5): the Legion names first.
    play(&mut g2, 0, "name T1 move");
    play(&mut g2, 1, "name K1 shoot");
    windows(&mut g2);
    play(&mut g2, 0, "move T1");
    let ev = play(&mut g2, 1, "shoot K1 T1");
    let ev = [ev, windows(&mut g2)].concat();
    assert!(ev.contains(&Event::Destroyed {
        unit: 1,
        carcass: false
    }));
    assert_eq!(g2.flow().step, 2, "marker 2 next");
    assert_eq!(g2.units()[g2.flow().active[0].unit].tag.as_str(), "CP");
}

#[test]
fn r109_a_vehicle_s_marker_on_l_moves_and_on_a_weapon_shoots_with_that_weapon() {
    let s = setup(&[
        ("O1", "lg_orion", 0, 300, 100),
        ("K1", "zr_cluster", 1, 300, 400),
        ("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[6, 6]);
    play(&mut g, 0, "discard");
    play(&mut g, 1, "discard");
    assert!(refused(&g, 0, "orders O1:1").contains("its markers lie on L or a weapon"));
    orders(&mut g, "orders O1.L:1 O1.A2:2", "orders K2:decoy K1:decoy");
    assert_eq!(
        refused(&g, 0, "name O1 shoot"),
        "O1's marker lies on L: it moves or acts, it does not shoot (R109)"
    );
    play(&mut g, 0, "name O1 move");
    windows(&mut g);
    assert!(refused(&g, 0, "shoot O1 K1").contains("O1's action is named move"));
    play(&mut g, 0, "move O1 300,120 face 90");
    assert_eq!(
        refused(&g, 0, "name O1 move"),
        "O1's marker lies on its weapon A2: it shoots with it (R109)"
    );
    play(&mut g, 0, "name O1 shoot");
    windows(&mut g);
    assert_eq!(
        refused(&g, 0, "shoot O1 K1"),
        "O1's marker lies on A2: it shoots with that weapon (R109)"
    );
    let ev = play(&mut g, 0, "shoot O1 K1 A2");
    let ev = [ev, windows(&mut g)].concat();
    assert!(ev.iter().any(|e| matches!(e, Event::Attacked { .. })));
}

#[test]
fn r110_the_slower_unit_s_owner_names_first_and_a_coin_breaks_a_tie() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 200, 100),
        ("K1", "zr_cluster", 1, 100, 500),
        ("P1", "zr_processor", 1, 300, 500),
        ("SP", "zr_spitter", 1, 500, 500),
    ]);
    // Step 1: T1 (4) against SP (3): the Zirl first. Step 2: T2 (4)
    // against P1 (4): a coin, 5: the Zirl.
    let mut g = game(&s, &[5]);
    orders(&mut g, "orders T1:1 T2:2", "orders SP:1 P1:2 K1:decoy");
    assert_eq!(g.decision(), one(1));
    assert_eq!(refused(&g, 0, "name T1 move"), "it is Zirl's naming (R110)");
    play(&mut g, 1, "name SP move");
    play(&mut g, 0, "name T1 move");
    windows(&mut g);
    // Two moves: the faster first (R111).
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "move T1");
    let ev = play(&mut g, 1, "move SP");
    assert!(ev.contains(&Event::Coin {
        roll: 5,
        side: 1,
        why: "names first"
    }));
    assert_eq!(g.decision(), one(1));
}

#[test]
fn r111_a_move_resolves_before_a_shot_named_first() {
    let s = setup(&[
        ("M1", "lg_mortar", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 500),
    ]);
    let mut g = game(&s, &[1, 1, 1]);
    orders(&mut g, "orders M1:1", "orders K1:1");
    // M1 (3) names first, a shot; K1 a move: the move resolves first.
    play(&mut g, 0, "name M1 shoot");
    play(&mut g, 1, "name K1 move");
    windows(&mut g);
    assert_eq!(g.decision(), one(1));
    assert!(refused(&g, 0, "shoot M1 K1").contains("it is Zirl's action now"));
    play(&mut g, 1, "move K1 100,450");
    play(&mut g, 0, "shoot M1 K1");
    windows(&mut g);
}

#[test]
fn r111_two_shots_are_named_sealed_both_roll_and_their_damage_lands_together() {
    let s = setup(&[
        ("MD", "lg_medic", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 300),
    ]);
    // The medic (bonus 1, defense 4) at K1: 5 + 1 = 6 against 5, a
    // step; K1 at it: 6 + 3 = 9 against 4, a double (R123). The medic
    // fires all the same: the damage lands together.
    let mut g = game(&s, &[5, 6]);
    orders(&mut g, "orders MD:1", "orders K1:1");
    play(&mut g, 0, "name MD shoot");
    play(&mut g, 1, "name K1 shoot");
    windows(&mut g);
    let both = Seats::default().with(Seat(0)).with(Seat(1));
    assert_eq!(g.decision(), Decision::Sealed(both));
    let ev = play(&mut g, 1, "shoot K1 MD");
    let ev = [ev, windows(&mut g)].concat();
    assert_eq!(
        g.describe(&ev[0]),
        "Zirl names its shot, sealed until both are named (R111)"
    );
    // Hidden from the Legion until both are named.
    assert_eq!(
        g.command_for(Seat(1), &cmd("shoot K1 MD"), Viewer::Player(Seat(0))),
        None
    );
    let ev = play(&mut g, 0, "shoot MD K1");
    let ev = [ev, windows(&mut g)].concat();
    // Both rolled, the first seat first, before any damage landed.
    let order: Vec<&str> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Attacked {
                struck: Struck::Unit(0),
                ..
            } => Some("at MD"),
            Event::Attacked {
                struck: Struck::Unit(1),
                ..
            } => Some("at K1"),
            Event::Damaged { .. } => Some("damage"),
            Event::Destroyed { .. } => Some("destroyed"),
            _ => None,
        })
        .collect();
    assert_eq!(order, ["at K1", "at MD", "damage", "destroyed"]);
    let outcomes: Vec<Outcome> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Attacked { outcome, .. } => Some(*outcome),
            _ => None,
        })
        .collect();
    assert_eq!(outcomes, [Outcome::Step, Outcome::Double]);
    assert!(g.units()[1].damaged() && !g.units()[0].alive);
    assert_eq!(g.ending(), Some(Ending::Won(Seat(1))));
}

#[test]
fn r111_an_action_let_go_or_its_unit_destroyed_before_it_is_lost() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("W1", "zr_weaver", 1, 100, 300),
        ("K1", "zr_cluster", 1, 900, 500),
    ]);
    // T1 (4) and W1 (4) tie: a coin, 1, the Legion names first. T1 at
    // W1: 6 + 2 = 8 against 4, a double.
    let mut g = game(&s, &[1, 6]);
    orders(&mut g, "orders T1:1", "orders W1:1 K1:decoy");
    play(&mut g, 0, "name T1 shoot");
    play(&mut g, 1, "name W1 special");
    windows(&mut g);
    // Shoot before Special: W1 falls before its smoke (R111).
    let ev = play(&mut g, 0, "shoot T1 W1");
    let ev = [ev, windows(&mut g)].concat();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Destroyed { unit: 1, .. }))
    );
    assert!(
        matches!(g.flow().phase, Phase::Reserve(_)),
        "W1's action is lost: the Reserve follows"
    );
    // In the Reserve K1 may shoot (reserve_shoot) or let its Reserve go.
    play(&mut g, 1, "pass K1");
    assert_eq!(g.turn(), 2);
}

#[test]
fn r112_the_reserve_removes_decoys_then_the_fastest_act_a_coin_starting_a_tie() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("CM", "lg_commando", 0, 200, 100),
        ("M1", "lg_mortar", 0, 300, 100),
        ("K1", "zr_stalker", 1, 100, 500),
        ("P1", "zr_processor", 1, 300, 500),
    ]);
    // The Reserve: CM and K1 (5) tie: a coin, 2: the Legion starts;
    // K1's sniper shot rolls a 3; T1 and P1 (4) tie: a coin, 5, the Zirl.
    let mut g = game(&s, &[2, 3, 5]);
    let ev = orders(
        &mut g,
        "orders T1:decoy CM:decoy",
        "orders P1:decoy K1:decoy",
    );
    let gone: Vec<String> = ev
        .iter()
        .filter(|e| matches!(e, Event::DecoysGone { .. }))
        .map(|e| g.describe(e))
        .collect();
    assert_eq!(
        gone,
        [
            "the Reserve: Legion's decoys on T1, CM are removed (R112)",
            "the Reserve: Zirl's decoys on P1, K1 are removed (R112)"
        ]
    );
    assert!(ev.contains(&Event::Coin {
        roll: 2,
        side: 0,
        why: "starts the Reserve of its Movement"
    }));
    assert_eq!(g.decision(), one(0));
    assert!(refused(&g, 0, "move T1").contains("T1 is not among the units that act now"));
    // A commando shoots only with reserve_shoot; a stalker has it (R112,
    // the ruling "Balance").
    assert!(refused(&g, 0, "shoot CM K1").contains("it shoots only with reserve_shoot"));
    play(&mut g, 0, "move CM 200,140");
    // Alternating in the group: the Zirl's K1.
    assert_eq!(g.decision(), one(1));
    let ev = play(&mut g, 1, "shoot K1 CM");
    let ev = [ev, windows(&mut g)].concat();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Sniped { roll: 3, .. }))
    );
    // Movement 4: T1 and P1, a coin again; then M1 (3) alone.
    assert_eq!(g.flow().group, Some((4, 1)));
    assert_eq!(g.decision(), one(1));
    play(&mut g, 1, "pass P1");
    play(&mut g, 0, "pass T1");
    assert_eq!(g.flow().group, Some((3, 0)));
    play(&mut g, 0, "pass M1");
    assert_eq!(g.turn(), 2, "then all markers go: the next turn");
    assert_eq!(g.flow().phase, Phase::Prepare(0));
}

/// The ruling "Balance": `zr_cluster` has no `reserve_shoot` (it moves or
/// lets its Reserve go), `lg_sniper` and `zr_stalker` have it (R112,
/// R150, R151).
#[test]
fn balance_a_cluster_does_not_shoot_in_the_reserve_a_sniper_does() {
    let s = setup(&[
        ("S1", "lg_sniper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 500),
    ]);
    // The Reserve: K1 (5) first; then S1 (4) alone, its shot rolls a 4.
    let mut g = game(&s, &[4]);
    orders(&mut g, "orders S1:decoy", "orders K1:decoy");
    assert_eq!(g.flow().phase, Phase::Reserve(1));
    assert!(
        refused(&g, 1, "shoot K1 S1").contains("it shoots only with reserve_shoot"),
        "a cluster does not shoot in the Reserve"
    );
    play(&mut g, 1, "pass K1");
    assert_eq!(g.flow().phase, Phase::Reserve(0));
    let ev = play(&mut g, 0, "shoot S1 K1");
    let ev = [ev, windows(&mut g)].concat();
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Sniped { roll: 4, .. })),
        "the sniper shoots in the Reserve: {ev:?}"
    );
}

#[test]
fn r145_the_game_ends_after_its_turns_on_ap_destroyed() {
    let s = Setup {
        turns: 1,
        ..setup(&[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 100, 500),
        ])
    };
    let mut g = game(&s, &[]);
    orders(&mut g, "orders T1:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    let ev = play(&mut g, 0, "pass T1");
    assert!(
        ev.iter().any(|e| matches!(e, Event::Ended { .. })),
        "{ev:?}"
    );
    assert_eq!(
        g.ending(),
        Some(Ending::Draw(
            "equal AP destroyed after the last turn (R145)"
        ))
    );
}

/// A JSON view's text with its hand, and each unit's markers.
fn views(g: &Game, seat: u16) -> (String, String) {
    let v = Viewer::Player(Seat(seat));
    (g.view_json(v), g.draw_text(v))
}

/// Two troopers against two clusters, both hands kept in the first
/// Preparation.
fn two_a_side_prepared() -> Game {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 200, 100),
        ("K1", "zr_cluster", 1, 100, 500),
        ("K2", "zr_cluster", 1, 200, 500),
    ]);
    let mut g = game(&s, &[]);
    play(&mut g, 0, "discard");
    play(&mut g, 1, "discard");
    g
}

#[test]
fn r149_a_hand_and_marker_numbers_are_their_owner_s_until_revealed() {
    let mut g = two_a_side_prepared();
    // The hand: the Legion's own; the Zirl read its size; the referee all.
    let (json, text) = views(&g, 0);
    assert!(
        text.contains("Legion: hand [aim, jam, cover, rally]"),
        "{text}"
    );
    assert!(json.contains("\"hand\": [\n    \"aim\""), "{json}");
    let (json, text) = views(&g, 1);
    assert!(text.contains("Legion: 4 cards in hand"), "{text}");
    assert!(!text.contains("Legion: hand"), "{text}");
    assert!(json.contains("\"hand_size\": 4"));
    assert!(
        g.draw_text(Viewer::Referee)
            .contains("Legion: hand [aim, jam, cover, rally]")
    );
    // The deck's order is nobody's: no view lists it.
    for v in [
        Viewer::Referee,
        Viewer::Player(Seat(0)),
        Viewer::Player(Seat(1)),
    ] {
        assert!(!g.view_json(v).contains("sprint"), "the deck's fifth card");
    }
    // The other's draw reads as a count in its log.
    let drew = Event::Prepared {
        side: 0,
        discarded: Vec::new(),
        drew: vec![1, 2],
    };
    assert_eq!(
        g.describe_for(&drew, Viewer::Player(Seat(1))).as_deref(),
        Some("Legion keeps its hand and draws 2 cards (R105)")
    );
    // Markers: numbers and decoys their owner's; where they lie, both's.
    orders(&mut g, "orders T1:2 T2:1", "orders K1:1 K2:decoy");
    let (_, text) = views(&g, 1);
    assert!(
        text.contains(
            "T1 trooper (Legion) at 100,100, front side, defense 5, Movement 4, a face-down marker"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "T2 trooper (Legion) at 200,100, front side, defense 5, Movement 4, marker 1"
        ),
        "turned up in step 1: {text}"
    );
    assert!(
        text.contains("K2 cluster (Zirl) at 200,500, front side, defense 5, Movement 5, decoy")
    );
    let (_, text) = views(&g, 0);
    assert!(
        text.contains(
            "T1 trooper (Legion) at 100,100, front side, defense 5, Movement 4, marker 2"
        )
    );
    assert!(text.contains(
        "K2 cluster (Zirl) at 200,500, front side, defense 5, Movement 5, a face-down marker"
    ));
    // A control: the referee sees the decoy.
    assert!(g.draw_text(Viewer::Referee).contains("Movement 5, decoy"));
    // In the JSON too: T1's marker 2 is the Legion's and the referee's,
    // a face-down marker to the Zirl; marker 1 turned up is everyone's.
    let (json, _) = views(&g, 1);
    assert!(!json.contains("\"marker 2\""), "{json}");
    assert!(json.contains("\"a face-down marker\""));
    assert!(json.contains("\"marker 1\""));
    assert!(views(&g, 0).0.contains("\"marker 2\""));
    assert!(g.view_json(Viewer::Referee).contains("\"marker 2\""));
    assert!(g.view_json(Viewer::Referee).contains("\"decoy\""));
    // K2's decoy: the Zirl's, never the Legion's before the Reserve.
    assert!(!views(&g, 0).0.contains("\"decoy\""));
}

#[test]
fn r149_the_public_reads_no_hand_and_no_face_down_marker() {
    let mut g = two_a_side_prepared();
    let public = |g: &Game| (g.view_json(Viewer::Public), g.draw_text(Viewer::Public));
    let (json, text) = public(&g);
    assert!(text.contains("Legion: 4 cards in hand"), "{text}");
    assert!(text.contains("Zirl: 4 cards in hand"), "{text}");
    let view: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert!(view["hand"].is_null(), "{json}");
    assert!(!json.contains("\"aim\""), "no card of either hand: {json}");
    let drew = Event::Prepared {
        side: 1,
        discarded: Vec::new(),
        drew: vec![1, 2],
    };
    assert_eq!(
        g.describe_for(&drew, Viewer::Public).as_deref(),
        Some("Zirl keeps its hand and draws 2 cards (R105)")
    );
    let legion = "orders T1:2 T2:1".parse().expect("orders");
    orders(&mut g, "orders T1:2 T2:1", "orders K1:1 K2:decoy");
    assert_eq!(g.command_for(Seat(0), &legion, Viewer::Public), None);
    let (json, text) = public(&g);
    for face_down in [
        "T1 trooper (Legion) at 100,100, front side, defense 5, Movement 4, a face-down marker",
        "K2 cluster (Zirl) at 200,500, front side, defense 5, Movement 5, a face-down marker",
    ] {
        assert!(text.contains(face_down), "{text}");
    }
    // Marker 1, turned up in step 1, is everyone's.
    assert!(text.contains("Movement 4, marker 1"), "{text}");
    assert!(
        !json.contains("\"marker 2\"") && !json.contains("\"decoy\""),
        "{json}"
    );
    // The control: each side reads its own.
    assert!(views(&g, 0).0.contains("\"marker 2\""));
    assert!(views(&g, 1).0.contains("\"decoy\""));
}

#[test]
fn r149_redeal_keeps_what_a_seat_sees_and_deals_the_rest_again() {
    let s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 200, 100),
        ("T3", "lg_trooper", 0, 300, 100),
        ("K1", "zr_cluster", 1, 100, 500),
        ("K2", "zr_cluster", 1, 200, 500),
        ("K3", "zr_cluster", 1, 300, 500),
    ]);
    let mut g = game(&s, &[]);
    orders(
        &mut g,
        "orders T1:2 T2:1 T3:decoy",
        "orders K1:1 K2:2 K3:decoy",
    );
    let mut changed = [false; 2];
    for seed in 0..40 {
        let mut copy = g.clone();
        copy.redeal(Seat(1), seed);
        // The Zirl's own view, its legal list, and a refusal: the same.
        assert_eq!(
            copy.view_json(Viewer::Player(Seat(1))),
            g.view_json(Viewer::Player(Seat(1)))
        );
        assert_eq!(
            copy.draw_text(Viewer::Player(Seat(1))),
            g.draw_text(Viewer::Player(Seat(1)))
        );
        let (mut a, mut b) = (Vec::new(), Vec::new());
        copy.legal_into(Seat(1), &mut a);
        g.legal_into(Seat(1), &mut b);
        assert_eq!(a, b);
        assert_eq!(
            copy.check(Seat(1), &cmd("name K2 move"))
                .map_err(|e| e.to_string()),
            g.check(Seat(1), &cmd("name K2 move"))
                .map_err(|e| e.to_string())
        );
        // What it cannot see is dealt again: the Legion's hand, T1's and
        // T3's markers.
        changed[0] |= copy.flow().cards[0].hand != g.flow().cards[0].hand;
        changed[1] |= copy.flow().placed[0] != g.flow().placed[0];
        // Still a hand of the Legion's own cards, and markers 2 and a decoy.
        let mut pool: Vec<u8> = copy.flow().cards[0]
            .hand
            .iter()
            .chain(&copy.flow().cards[0].deck)
            .copied()
            .collect();
        let mut was: Vec<u8> = g.flow().cards[0]
            .hand
            .iter()
            .chain(&g.flow().cards[0].deck)
            .copied()
            .collect();
        pool.sort_unstable();
        was.sort_unstable();
        assert_eq!(pool, was);
    }
    assert_eq!(changed, [true, true], "the unknowns are dealt again");
}

/// A deck of 25 with `first` on top, then the rest of the faction's 30
/// in a fixed order (R104, R152).
fn deck_from(first: &[&str]) -> Vec<String> {
    let mut rest: Vec<&str> = Vec::new();
    for c in sandtable_frontiers::data::CARDS {
        rest.extend(std::iter::repeat_n(c.id, usize::from(c.limit)));
    }
    for c in first {
        let k = rest.iter().position(|r| r == c).expect("within the limit");
        rest.remove(k);
    }
    first
        .iter()
        .copied()
        .chain(rest)
        .take(25)
        .map(str::to_owned)
        .collect()
}

/// A game whose first hands are `legion` and `zirl`.
fn dealt(
    units: &[(&str, &str, u8, i32, i32)],
    legion: &[&str],
    zirl: &[&str],
    rolls: &[u8],
) -> Game {
    let mut s = setup(units);
    s.sides[0].deck = Some(deck_from(legion));
    s.sides[1].deck = Some(deck_from(zirl));
    game(&s, rolls)
}

#[test]
fn r132_a_card_outside_its_window_is_refused_and_cards_alternate_until_both_pass() {
    let mut g = dealt(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 100, 300),
        ],
        &["aim", "sprint", "reinforce", "cover"],
        &["jam", "rally", "cover", "aim"],
        &[5],
    );
    play(&mut g, 0, "discard");
    play(&mut g, 1, "discard");
    assert_eq!(
        refused(&g, 0, "card aim T1"),
        "aim is played once a shot's target is named, before its roll (R132)"
    );
    assert_eq!(
        refused(&g, 1, "card reinforce"),
        "Zirl holds no reinforce (R132)"
    );
    orders(&mut g, "orders T1:1", "orders K1:1");
    play(&mut g, 0, "name T1 shoot");
    play(&mut g, 1, "name K1 move");
    // The Step window: the first namer first, then the other, until both
    // pass in a row.
    assert_eq!(g.decision(), one(0));
    assert!(refused(&g, 0, "card reinforce").contains("reinforce is played in the Order phase"));
    assert_eq!(
        refused(&g, 0, "card sprint T1"),
        "T1 is not about to move in this step (R152)"
    );
    play(&mut g, 0, "pass");
    assert_eq!(g.decision(), one(1));
    play(&mut g, 1, "pass");
    // Moves first: K1, then T1's shot; the Shot window, the Legion first.
    play(&mut g, 1, "move K1 100,280");
    play(&mut g, 0, "shoot T1 K1");
    assert_eq!(g.flow().phase, Phase::Window);
    assert_eq!(
        refused(&g, 0, "card aim K1"),
        "K1 is not the shooter of this shot (R152)"
    );
    assert_eq!(
        refused(&g, 1, "card jam T1"),
        "it is Legion's card or pass (R132)"
    );
    play(&mut g, 0, "card aim T1");
    // The other answers: a jam.
    assert_eq!(g.decision(), one(1));
    play(&mut g, 1, "card jam T1");
    play(&mut g, 0, "pass");
    let ev = play(&mut g, 1, "pass");
    // 5 + 3 + 2 - 2 = 8 against 5: a step; K1's side holds cards: its Hit
    // window.
    let rolled: Vec<(i8, i8)> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Attacked {
                bonus, modifiers, ..
            } => Some((*bonus, *modifiers)),
            _ => None,
        })
        .collect();
    assert_eq!(rolled, [(3, 0)], "aim +2 and jam -2 (R152)");
    assert_eq!(g.decision(), one(1));
    let ev = play(&mut g, 1, "card cover K1");
    assert!(ev.contains(&Event::Covered { unit: 1 }));
    assert!(!g.units()[1].damaged(), "the step is cancelled");
    assert_eq!(g.flow().cards[0].discards.len(), 1);
    assert_eq!(g.flow().cards[1].discards.len(), 2);
}

#[test]
fn r133_a_bonus_reaches_only_a_marked_unit_and_a_rally_activates_an_unmarked_one() {
    let mut g = dealt(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("T2", "lg_trooper", 0, 200, 100),
            ("T3", "lg_trooper", 0, 300, 100),
            ("T4", "lg_trooper", 0, 400, 100),
            ("K1", "zr_cluster", 1, 100, 500),
        ],
        &["rally", "sprint", "aim", "jam"],
        &["jam", "rally", "cover", "aim"],
        &[],
    );
    orders(&mut g, "orders T1:1 T2:decoy T3:decoy", "orders K1:1");
    play(&mut g, 0, "name T1 move");
    play(&mut g, 1, "name K1 move");
    assert!(refused(&g, 0, "card rally T2").contains("T2 holds a marker"));
    play(&mut g, 0, "card rally T4");
    play(&mut g, 1, "pass");
    // After a card, both pass in a row again.
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "card sprint T1");
    assert_eq!(g.units()[0].movement(), 6, "sprint: +2 (R152)");
    play(&mut g, 1, "pass");
    play(&mut g, 0, "pass");
    // Two moves, the faster first: T1 sprints at 6 against K1's 5.
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "move T1 100,280");
    play(&mut g, 1, "move K1");
    // The rallied T4's action, after the step's own: named, then taken.
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "name T4 move");
    let ev = play(&mut g, 0, "move T4 400,200");
    // In the Reserve T4 acts no more: an over marker is a turned-up one.
    assert!(ev.iter().any(|e| matches!(e, Event::DecoysGone { .. })));
    assert!(g.units()[3].acted);
    assert!(
        !g.units()[1].acted,
        "T2's decoy went: it acts in the Reserve"
    );
}

#[test]
fn r152_reinforce_adds_a_marker_and_resupply_draws_two_and_discards_two() {
    let mut g = dealt(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 100, 500),
        ],
        &["reinforce", "resupply", "aim", "jam"],
        &["jam", "rally", "cover", "aim"],
        &[],
    );
    play(&mut g, 0, "discard");
    play(&mut g, 1, "discard");
    assert_eq!(g.markers_owed(0), 2);
    play(&mut g, 0, "card reinforce");
    assert_eq!(g.markers_owed(0), 3);
    orders(&mut g, "orders T1:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    play(&mut g, 0, "pass T1");
    assert_eq!(g.markers_owed(0), 2, "a card's marker is this turn's");
    // A resupply: two drawn, then two more go with the discards.
    let ev = play(&mut g, 0, "card resupply");
    assert_eq!(
        g.describe_for(&ev[1], Viewer::Player(Seat(1))).as_deref(),
        Some("Legion draws 2 cards (R152)")
    );
    assert_eq!(g.flow().cards[0].hand.len(), 2 + 2);
    assert_eq!(
        refused(&g, 0, "discard aim"),
        "a resupply owes 2 cards to the discards: name them (R152)"
    );
    play(&mut g, 0, "discard aim jam");
    assert_eq!(g.flow().cards[0].hand.len(), 4);
}

#[test]
fn r152_a_smoke_screen_is_a_card_action_within_a_ruler_and_needs_no_sight() {
    let mut g = dealt(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 900, 500),
        ],
        &["smoke_screen", "field_repair", "aim", "jam"],
        &["jam", "rally", "cover", "aim"],
        &[],
    );
    orders(&mut g, "orders T1:1", "orders K1:decoy");
    play(&mut g, 0, "name T1 card");
    windows(&mut g);
    // A ruler is 240 mm from T1's edge (R152).
    assert!(
        refused(&g, 0, "card smoke_screen T1 100,356")
            .contains("a smoke screen reaches a ruler, 240 mm")
    );
    assert!(refused(&g, 0, "card field_repair T1 K1").contains("(R139)"));
    let ev = play(&mut g, 0, "card smoke_screen T1 100,355");
    assert!(ev.contains(&Event::Smoked {
        unit: 0,
        at: Pt::new(100, 355)
    }));
    assert_eq!(g.clouds().len(), 1);
}

#[test]
fn r103_a_list_over_the_scenario_s_points_is_refused_with_its_side() {
    let mut s = setup(&[
        ("CP", "lg_captain", 0, 100, 100),
        ("C2", "lg_captain", 0, 200, 100),
        ("K1", "zr_cluster", 1, 100, 500),
    ]);
    s.ap = Some(60);
    let e = Game::new(&s, Dice::scripted(Vec::new()))
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("Legion's list: the list is 80 AP, over the scenario's 60 (R103)"),
        "{e}"
    );
    assert!(
        e.contains("Legion's list: 2 lg_captains: a list has one (R103)"),
        "{e}"
    );
    s.ap = Some(250);
    s.units.remove(1);
    assert!(Game::new(&s, Dice::scripted(Vec::new())).is_ok());
}

#[test]
fn r138_r146_units_deploy_in_turn_at_their_edge_a_coin_first_infiltrators_last() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 0, 0),
        ("CM", "lg_commando", 0, 0, 0),
        ("K1", "zr_cluster", 1, 0, 0),
    ]);
    for u in &mut s.units {
        u.deploy = true;
    }
    s.elements = vec![sandtable_frontiers::setup::Element {
        name: "Hut".into(),
        id: "H".into(),
        corners: vec![
            Pt::new(500, 250),
            Pt::new(600, 250),
            Pt::new(600, 330),
            Pt::new(500, 330),
        ],
        defense: 6,
        steps: 2,
        spaces: vec![Pt::new(550, 290)],
        ..Default::default()
    }];
    // A coin, 5: the Zirl deploy first (R146).
    let mut g = game(&s, &[5]);
    assert_eq!(g.decision(), one(1));
    assert_eq!(
        refused(&g, 1, "deploy K1 100,590"),
        "K1 at 100,590 does not touch Zirl's edge, the far long edge (R146)"
    );
    let ev = play(&mut g, 1, "deploy K1 100,594");
    assert_eq!(g.describe(&ev[0]), "K1 is deployed at 100,594 (R146)");
    // The Legion: its commando infiltrates last (R138).
    assert_eq!(g.decision(), one(0));
    assert_eq!(
        refused(&g, 0, "deploy CM H.1"),
        "CM has Infiltration: it deploys last (R138)"
    );
    assert!(refused(&g, 0, "deploy T1 H.1").contains("only Infiltration deploys in a building"));
    play(&mut g, 0, "deploy T1 300,16");
    // The Zirl have none left: the Legion goes on; CM into the hut.
    assert_eq!(g.decision(), one(0));
    let ev = play(&mut g, 0, "deploy CM H.1");
    assert_eq!(g.describe(&ev[0]), "CM is deployed in H.1 (R138)");
    assert!(ev.contains(&Event::TurnBegan { turn: 1 }));
    assert_eq!(g.flow().phase, Phase::Prepare(0));
    assert!(g.units().iter().all(|u| u.alive && !u.waiting));
}

#[test]
fn r146_confrontation_is_won_with_80_percent_of_the_enemy_list_destroyed() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("W1", "zr_weaver", 1, 100, 200),
        ("D1", "zr_drone", 1, 200, 200),
        ("MM", "zr_memory", 1, 300, 200),
        ("K1", "zr_cluster", 1, 1000, 500),
    ]);
    s.victory = sandtable_frontiers::setup::Victory::Confrontation;
    // Three doubles: 6 + 2 against defense 4, each destroys (R123).
    let mut g = game(&s, &[6, 6, 6]);
    let act = |g: &mut Game, text: &str| {
        let mut events = Vec::new();
        g.act(0, &cmd(text), &mut events)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        events
    };
    act(&mut g, "shoot T1 W1");
    act(&mut g, "shoot T1 D1");
    // 40 of the Zirl list's 75: not yet.
    assert_eq!(g.ending(), None);
    let ev = act(&mut g, "shoot T1 MM");
    // 60 of 75 is 80% exactly: it counts (R146).
    assert_eq!(g.ending(), Some(Ending::Won(Seat(0))));
    assert!(ev.iter().any(|e| matches!(e, Event::Ended { .. })));
}

/// Resolves `text` as an action of `side` in space, or panics.
fn act(g: &mut Game, side: u8, text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    g.act(side, &cmd(text), &mut events)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    events
}

fn refused_act(g: &Game, side: u8, text: &str) -> String {
    let mut copy = g.clone();
    let e = copy.act(side, &cmd(text), &mut Vec::new()).expect_err(text);
    assert!(copy == *g, "a refused command changes nothing: {text}");
    e.to_string()
}

fn with_crates(units: &[(&str, &str, u8, i32, i32)], crates: &[(i32, i32)], rolls: &[u8]) -> Game {
    let mut s = setup(units);
    s.crates = crates.iter().map(|(x, y)| Pt::new(*x, *y)).collect();
    game(&s, rolls)
}

#[test]
fn r143_a_move_ending_on_a_crate_opens_it_its_content_dealt_by_the_dice_infantry_only() {
    // Two dice read as one of 36, three faces a content: 3 and 4 give
    // 15, the sixth of the ten: a jump jet (R143).
    let mut g = with_crates(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("O1", "lg_orion", 0, 400, 100),
            ("K1", "zr_cluster", 1, 1000, 500),
        ],
        &[(100, 160), (400, 175)],
        &[3, 4],
    );
    assert!(
        g.draw_text(Viewer::Player(Seat(1)))
            .contains("crate 1 at 100,160: unopened")
    );
    assert!(
        refused_act(&g, 0, "open T1 100,120").contains("T1 ends its move touching no crate (R143)")
    );
    assert!(refused_act(&g, 0, "open O1").contains("only infantry opens a crate (R143)"));
    let ev = act(&mut g, 0, "open T1 100,134");
    assert_eq!(
        g.describe(&ev[1]),
        "T1 takes crate 1: jump jet (R143, R144)"
    );
    // Kept: +2 Movement, at most 6 (R144).
    assert_eq!(g.units()[0].movement(), 6);
    assert!(
        g.draw_text(Viewer::Player(Seat(1)))
            .contains("crate 1: jump jet, carried by T1")
    );
    // One crate a carrier (R148).
    assert!(refused_act(&g, 0, "open T1 400,145").contains("carries crate 1 already"));
}

#[test]
fn r144_a_trap_attacks_its_opener_and_leaves() {
    // 5 and 4: 27, the tenth content: a trap; its attack at +0 rolls 6
    // against 5, a step.
    let mut g = with_crates(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 1000, 500),
        ],
        &[(100, 160), (600, 300)],
        &[5, 4, 6],
    );
    let ev = act(&mut g, 0, "open T1 100,134");
    assert_eq!(
        g.describe(&ev[1]),
        "T1 opens crate 1: a trap, which leaves (R144)"
    );
    assert!(g.units()[0].damaged());
    assert_eq!(
        g.crates()[0].state,
        sandtable_frontiers::crates::CrateState::Gone
    );
    assert!(g.units()[0].gear.is_none());
}

#[test]
fn r144_contents_kept_and_used_once_and_a_crate_handed_over() {
    // An anti-tank weapon (1, 1: the first content): a "-" at heavy
    // armor is +0, then +2 (R144).
    let mut g = with_crates(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("T2", "lg_trooper", 0, 131, 134),
            ("K1", "zr_cluster", 1, 100, 300),
        ],
        &[(100, 160), (600, 300)],
        &[1, 1, 6],
    );
    assert_eq!(g.units()[0].bonus(0, 1), None);
    act(&mut g, 0, "open T1 100,134");
    assert_eq!(g.units()[0].bonus(0, 1), Some(2));
    // Handed to T2 in contact: neither shoots this turn (R144).
    let ev = act(&mut g, 0, "hand T1 T2");
    assert_eq!(
        g.describe(&ev[0]),
        "T1 hands its crate to T2: neither shoots this turn (R144)"
    );
    assert!(g.units()[0].handed && g.units()[1].handed);
    assert_eq!(g.units()[1].bonus(0, 1), Some(2));
    assert_eq!(g.units()[0].bonus(0, 1), None);
    // A medi-kit (4, 1: 18, the seventh): the next step is ignored, then
    // it is gone; K1's shot at T1 rolls 6: 9 against 5, a step.
    let mut g = with_crates(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 100, 300),
        ],
        &[(100, 160), (600, 300)],
        &[4, 1, 6],
    );
    act(&mut g, 0, "open T1 100,134");
    let ev = act(&mut g, 1, "shoot K1 T1");
    assert!(
        ev.iter().any(|e| matches!(e, Event::CrateSpent { .. })),
        "{ev:?}"
    );
    assert!(!g.units()[0].damaged(), "the step ignored");
    assert!(g.units()[0].gear.is_none(), "used once");
}

#[test]
fn r148_a_crate_carried_to_the_own_edge_is_banked_at_the_turn_s_end_and_wins_the_hunt() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 20),
        ("K1", "zr_cluster", 1, 1000, 500),
    ]);
    s.crates = vec![Pt::new(100, 60), Pt::new(1000, 300)];
    s.victory = sandtable_frontiers::setup::Victory::TreasureHunt;
    s.turns = 1;
    // An anti-tank weapon (1, 1).
    let mut g = game(&s, &[1, 1]);
    act(&mut g, 0, "open T1 100,35");
    // The rest of the turn: T1 ends it within 1 LNS of the near edge.
    let ev = orders(&mut g, "orders T1:decoy", "orders K1:decoy");
    assert!(ev.iter().any(|e| matches!(e, Event::DecoysGone { .. })));
    play(&mut g, 1, "pass K1");
    let ev = play(&mut g, 0, "pass T1");
    assert!(ev.contains(&Event::Banked { unit: 0 }), "{ev:?}");
    assert_eq!(g.banked(), [1, 0]);
    // The last turn: more crates banked wins (R148).
    assert_eq!(g.ending(), Some(Ending::Won(Seat(0))));
}

#[test]
fn r148_an_attack_holds_every_objective_at_a_turn_s_end_or_loses_below_three_units() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 300, 300),
        ("T2", "lg_trooper", 0, 600, 300),
        ("T3", "lg_trooper", 0, 900, 100),
        ("K1", "zr_cluster", 1, 1000, 550),
    ]);
    s.victory = sandtable_frontiers::setup::Victory::AttackDefense;
    s.attacker = 0;
    s.objectives = vec![Pt::new(300, 300), Pt::new(600, 320)];
    // T2 stands 20 mm off its objective's centre: not over it.
    let mut g = game(&s, &[]);
    assert!(!g.objectives_held());
    act(&mut g, 0, "move T2 600,320");
    assert!(
        g.objectives_held(),
        "both centres under the attacker's units"
    );
    // The turn's end: the attack holds (R148).
    orders(&mut g, "orders T1:decoy T2:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    play(&mut g, 0, "pass T1");
    play(&mut g, 0, "pass T2");
    play(&mut g, 0, "pass T3");
    assert_eq!(g.ending(), Some(Ending::Won(Seat(0))));
    // Below 3 units standing the attacker loses: K1's two doubles... a
    // step then a kill on T3 (6 + 3 against 5, then again).
    let mut g = game(&s, &[6, 6]);
    act(&mut g, 1, "shoot K1 T3");
    assert_eq!(g.ending(), None);
    act(&mut g, 1, "shoot K1 T3");
    assert_eq!(
        g.ending(),
        Some(Ending::Won(Seat(1))),
        "2 units left (R148)"
    );
}

#[test]
fn r147_the_diskette_is_picked_up_tossed_and_carried_onto_the_teleprinter_to_win() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 250, 260),
        ("K1", "zr_cluster", 1, 1000, 550),
    ]);
    s.victory = sandtable_frontiers::setup::Victory::DataRecovery;
    s.diskette = Some(Pt::new(100, 200));
    s.elements = vec![sandtable_frontiers::setup::Element {
        name: "Hut".into(),
        id: "H".into(),
        corners: vec![
            Pt::new(300, 250),
            Pt::new(400, 250),
            Pt::new(400, 330),
            Pt::new(300, 330),
        ],
        defense: 6,
        steps: 2,
        spaces: vec![Pt::new(350, 290)],
        openings: vec![sandtable_frontiers::setup::Opening {
            kind: sandtable_frontiers::setup::OpeningKind::Door,
            a: Pt::new(300, 275),
            b: Pt::new(300, 305),
            behind: vec![0],
        }],
        ..Default::default()
    }];
    s.teleprinter = Some((0, 0));
    let mut g = game(&s, &[]);
    // T1's path passes the diskette: picked up on the way (R147).
    let ev = act(&mut g, 0, "move T1 100,175");
    assert!(ev.contains(&Event::DisketteTaken { unit: 0 }), "{ev:?}");
    // A toss beyond 3 LNS is refused; within, it always arrives.
    assert!(refused_act(&g, 0, "toss T1 T2").contains("a toss reaches 90 mm (3 LNS)"));
    act(&mut g, 0, "move T1 160,200");
    let ev = act(&mut g, 0, "toss T1 T2");
    assert!(ev.contains(&Event::Tossed { from: 0, to: 1 }));
    // T2 carries it into the teleprinter's space, and ends the turn there.
    act(&mut g, 0, "move T2 285,290 H.1");
    orders(&mut g, "orders T1:decoy T2:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    play(&mut g, 0, "pass T1");
    play(&mut g, 0, "pass T2");
    assert_eq!(g.ending(), Some(Ending::Won(Seat(0))));
}

#[test]
fn r137_a_reserve_action_set_in_one_turn_shoots_in_a_later_reserve_then_is_unset() {
    let s = setup(&[
        ("G1", "lg_gunner", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 300),
    ]);
    let mut g = game(&s, &[]);
    // Turn 1: G1 sets it (a Special); in this turn's Reserve it may not
    // shoot yet.
    orders(&mut g, "orders G1:1", "orders K1:decoy");
    play(&mut g, 0, "name G1 special");
    windows(&mut g);
    play(&mut g, 0, "special G1 reserve");
    assert_eq!(g.units()[0].readied, 1);
    play(&mut g, 1, "pass K1");
    assert_eq!(g.turn(), 2);
    // Turn 2: no marker on G1; in the Reserve it shoots (R137).
    let mut g2 = g.clone();
    g2.set_dice(Dice::scripted(vec![1, 1, 1, 1]));
    orders(&mut g2, "orders G1:decoy", "orders K1:decoy");
    // K1 (Movement 5) acts first: it passes; then G1.
    play(&mut g2, 1, "pass K1");
    let ev = play(&mut g2, 0, "shoot G1 K1");
    let ev = [ev, windows(&mut g2)].concat();
    assert!(ev.iter().any(|e| matches!(e, Event::Attacked { .. })));
    assert_eq!(g2.units()[0].readied, 0, "taken, then unset");
    // Without it, a gunner in the Reserve does not shoot.
    let mut g3 = game(&s, &[]);
    orders(&mut g3, "orders G1:decoy", "orders K1:decoy");
    play(&mut g3, 1, "pass K1");
    assert!(
        refused(&g3, 0, "shoot G1 K1").contains("a Reserve action set in an earlier turn (R137)")
    );
}

#[test]
fn r137_setting_a_reserve_action_flips_the_unit_and_taking_it_turns_it_face_up() {
    use sandtable_core::game::{GameState, Viewer};
    let s = setup(&[
        ("G1", "lg_gunner", 0, 100, 100),
        ("K1", "zr_cluster", 1, 100, 300),
    ]);
    let mut g = game(&s, &[]);
    let shown = |g: &Game| {
        let v: serde_json::Value =
            serde_json::from_str(&g.view_json(Viewer::Player(Seat(1)))).expect("json");
        v["units"][0]["shown"].as_str().expect("shown").to_owned()
    };
    assert_eq!(shown(&g), "front");
    orders(&mut g, "orders G1:1", "orders K1:decoy");
    play(&mut g, 0, "name G1 special");
    windows(&mut g);
    // "Must have been activated in the previous turn (the unit is
    // therefore flipped over)": its back shows, to both sides (R137).
    let ev = play(&mut g, 0, "special G1 reserve");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Flipped {
            unit: 0,
            back: true,
            ..
        }
    )));
    assert!(g.units()[0].back);
    assert_eq!(shown(&g), "reserve");
    // The Reserve's side is no damaged side: Defense and bonuses stay.
    assert_eq!(g.units()[0].defense(), 6);
    play(&mut g, 1, "pass K1");
    assert_eq!(g.turn(), 2);
    assert!(g.units()[0].back, "still flipped in the next turn");
    g.set_dice(Dice::scripted(vec![1, 1, 1, 1]));
    orders(&mut g, "orders G1:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    let ev = play(&mut g, 0, "shoot G1 K1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Flipped {
            unit: 0,
            back: false,
            ..
        }
    )));
    assert!(!g.units()[0].back, "taken and unset: face up again (R137)");
    assert_eq!(shown(&g), "front");
}

#[test]
fn r148_a_cameron_defender_standing_after_the_last_turn_wins_its_game() {
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 1000, 500),
    ]);
    s.victory = sandtable_frontiers::setup::Victory::Cameron;
    s.attacker = 1;
    s.turns = 1;
    let mut g = game(&s, &[]);
    orders(&mut g, "orders T1:decoy", "orders K1:decoy");
    play(&mut g, 1, "pass K1");
    play(&mut g, 0, "pass T1");
    assert_eq!(
        g.ending(),
        Some(Ending::Won(Seat(0))),
        "the Legion defended"
    );
    // Destroyed before it, the defender loses: a side with none standing.
    s.units[1].at = Pt::new(100, 300);
    let mut g = game(&s, &[6, 6]);
    act(&mut g, 1, "shoot K1 T1");
    act(&mut g, 1, "shoot K1 T1");
    assert_eq!(g.ending(), Some(Ending::Won(Seat(1))));
}

#[test]
fn r111_r133_rallied_shooters_name_a_second_sealed_pair_after_the_step_s_own() {
    let mut g = dealt(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("T2", "lg_trooper", 0, 200, 100),
            ("K1", "zr_cluster", 1, 100, 300),
            ("K2", "zr_cluster", 1, 200, 300),
            ("T3", "lg_trooper", 0, 900, 100),
            ("T4", "lg_trooper", 0, 1000, 100),
            ("K3", "zr_cluster", 1, 900, 500),
            ("K4", "zr_cluster", 1, 1000, 500),
        ],
        &["rally", "aim", "jam", "cover"],
        &["rally", "aim", "jam", "cover"],
        // Four attacks, each a 1: missed.
        &[1, 1, 1, 1],
    );
    orders(
        &mut g,
        "orders T1:1 T3:decoy T4:decoy",
        "orders K1:1 K3:decoy K4:decoy",
    );
    play(&mut g, 0, "name T1 shoot");
    play(&mut g, 1, "name K1 shoot");
    play(&mut g, 0, "card rally T2");
    play(&mut g, 1, "card rally K2");
    windows(&mut g);
    // The step's own pair, sealed.
    play(&mut g, 0, "shoot T1 K1");
    play(&mut g, 1, "shoot K1 T1");
    windows(&mut g);
    // Then the rallied units, named in the order they were rallied.
    assert_eq!(g.decision(), one(0));
    play(&mut g, 0, "name T2 shoot");
    play(&mut g, 1, "name K2 shoot");
    let both = Seats::default().with(Seat(0)).with(Seat(1));
    assert_eq!(g.decision(), Decision::Sealed(both));
    // T1 has shot: only T2 may now (R111).
    assert!(refused(&g, 0, "shoot T1 K2").contains("T1 holds no marker turned up"));
    play(&mut g, 0, "shoot T2 K2");
    play(&mut g, 1, "shoot K2 T2");
    let ev = windows(&mut g);
    assert_eq!(
        ev.iter()
            .filter(|e| matches!(e, Event::Attacked { .. }))
            .count(),
        2
    );
}

#[test]
fn r137_a_shifter_transforms_with_its_action_once_a_turn_and_back() {
    let s = setup(&[
        ("SH", "zr_shifter", 1, 100, 300),
        ("T1", "lg_trooper", 0, 100, 100),
    ]);
    let mut g = game(&s, &[]);
    assert!(refused(&g, 1, "transform SH").contains("transforms with its action"));
    orders(&mut g, "orders T1:decoy", "orders SH:1");
    play(&mut g, 1, "name SH move");
    windows(&mut g);
    // Movement 6 on its front; its other form: Movement 3, Defense 6.
    assert_eq!(g.units()[0].movement(), 6);
    play(&mut g, 1, "transform SH");
    assert_eq!((g.units()[0].movement(), g.units()[0].defense()), (3, 6));
    assert!(refused(&g, 1, "transform SH").contains("once a turn"));
    // Its action is still its own: a move at its new Movement.
    assert!(refused(&g, 1, "move SH 100,400").contains("over the 90 mm"));
    play(&mut g, 1, "move SH 100,380");
    // Next turn it may turn back: both its sides show Transformation.
    play(&mut g, 0, "pass T1");
    assert_eq!(g.turn(), 2);
    orders(&mut g, "orders T1:decoy", "orders SH:1");
    play(&mut g, 1, "name SH move");
    windows(&mut g);
    play(&mut g, 1, "transform SH");
    assert_eq!(g.units()[0].movement(), 6);
}

#[test]
fn r143_r149_crates_allotted_before_the_game_are_their_side_s_secret_until_used() {
    use sandtable_frontiers::crates::Content;
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 300, 100),
        ("K1", "zr_cluster", 1, 300, 300),
    ]);
    s.units[0].gear = Some(Content::JumpJet);
    s.units[1].gear = Some(Content::MediKit);
    // What an allotment may not be: on a vehicle, a trap, a content twice,
    // more crates than a skirmish has (R143, R144).
    let mut bad = s.clone();
    bad.units.push(UnitSetup {
        id: "O1".into(),
        data: "lg_orion".into(),
        at: Pt::new(600, 100),
        gear: Some(Content::SmokeBomb),
        ..bad.units[0].clone()
    });
    bad.units[2].gear = Some(Content::Trap);
    bad.units[1].gear = Some(Content::JumpJet);
    bad.crates = (0..6).map(|k| Pt::new(100 + 150 * k, 400)).collect();
    let e = Game::new(&bad, Dice::scripted(Vec::new()))
        .expect_err("refused")
        .to_string();
    for want in [
        "units[3].gear: O1 is a vehicle: only infantry carries a crate (R143)",
        "units[2].gear: a trap springs on whoever opens it: it is not allotted to a unit (R144)",
        "units[1].gear: the jump jet is also units[0]'s: the ten contents are one each (R143)",
        "units: 6 crates lie on the table and 4 are allotted to units: a skirmish has at most 8 (R143)",
    ] {
        assert!(e.contains(want), "{want} in {e}");
    }
    // K1's shot at T2 rolls 6: 9 against 5, a step, which the medi-kit
    // takes.
    let mut g = game(&s, &[6]);
    // The Legion's own: what each crate holds, and T1's Movement with it.
    let (json, text) = views(&g, 0);
    assert!(
        text.contains("crate 1: jump jet, allotted, hidden from the other side, carried by T1"),
        "{text}"
    );
    assert!(text.contains("T1 trooper (Legion) at 100,100, front side, defense 5, Movement 6"));
    assert!(json.contains("medi-kit"), "{json}");
    // The Zirl's: a crate carried, nothing of what it holds; T1's
    // Movement without it.
    let (json, text) = views(&g, 1);
    assert!(
        text.contains("crate 1: allotted, its content hidden, carried by T1"),
        "{text}"
    );
    assert!(text.contains("T1 trooper (Legion) at 100,100, front side, defense 5, Movement 4"));
    for secret in ["jump jet", "medi-kit"] {
        assert!(!json.contains(secret) && !text.contains(secret), "{secret}");
    }
    // A control: the referee sees both.
    let referee = g.draw_text(Viewer::Referee);
    assert!(referee.contains("crate 1: jump jet") && referee.contains("crate 2: medi-kit"));
    // The Zirl's copy deals the hidden contents again: its view the same,
    // the contents still one each, never a trap, each carrier's its
    // crate's.
    let mut dealt = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let mut copy = g.clone();
        copy.redeal(Seat(1), seed);
        assert_eq!(
            copy.draw_text(Viewer::Player(Seat(1))),
            g.draw_text(Viewer::Player(Seat(1)))
        );
        assert_eq!(
            copy.view_json(Viewer::Player(Seat(1))),
            g.view_json(Viewer::Player(Seat(1)))
        );
        let held: Vec<Content> = copy.crates().iter().filter_map(|c| c.content).collect();
        assert_eq!(held.len(), 2);
        assert_ne!(held[0], held[1]);
        assert!(!held.contains(&Content::Trap));
        for (k, u) in [(0u8, 0usize), (1, 1)] {
            assert_eq!(copy.units()[u].gear, Some((k, held[usize::from(k)])));
        }
        dealt.insert(held[0]);
        // The Legion's own copy keeps what it knows.
        let mut own = g.clone();
        own.redeal(Seat(0), seed);
        assert_eq!(own.units()[0].gear, g.units()[0].gear);
    }
    assert!(dealt.len() > 3, "dealt again: {dealt:?}");
    // T1 moves: the jump jet shows itself, to both.
    let ev = act(&mut g, 0, "move T1 100,250");
    assert_eq!(
        g.describe(&ev[0]),
        "T1's allotted crate 1 shows: jump jet (R143)"
    );
    let (_, text) = views(&g, 1);
    assert!(text.contains("crate 1: jump jet, carried by T1"), "{text}");
    assert!(text.contains("T1 trooper (Legion) at 100,250, front side, defense 5, Movement 6"));
    assert!(!text.contains("medi-kit"));
    // The medi-kit shows as it is spent.
    let ev = act(&mut g, 1, "shoot K1 T2");
    let words: Vec<String> = ev.iter().map(|e| g.describe(e)).collect();
    assert!(
        words.contains(&"T2's allotted crate 2 shows: medi-kit (R143)".to_owned()),
        "{words:?}"
    );
    assert!(!g.units()[1].damaged(), "the step ignored (R144)");
    assert!(
        g.draw_text(Viewer::Player(Seat(1)))
            .contains("crate 2: medi-kit, gone")
    );
}

#[test]
fn r31_r143_an_allotted_crate_shown_in_the_turn_is_a_reveal_undo_stops_at() {
    use sandtable_core::game::Barrier;
    use sandtable_frontiers::crates::Content;
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("K1", "zr_cluster", 1, 300, 500),
    ]);
    s.units[0].gear = Some(Content::JumpJet);
    let mut g = game(&s, &[]);
    orders(&mut g, "orders T1:1", "orders K1:1");
    // T1 with its jet (6) is faster than K1 (5): the Zirl name first
    // (R110).
    play(&mut g, 1, "name K1 move");
    play(&mut g, 0, "name T1 move");
    windows(&mut g);
    // Two moves: the faster first (R111).
    assert_eq!(g.decision(), one(0));
    let mut events = Vec::new();
    let applied = g
        .apply_into(Seat(0), &cmd("move T1 100,250"), &mut events)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(applied.barrier, Some(Barrier::Reveal));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::CrateShown { unit: 0, .. })),
        "{events:?}"
    );
}

#[test]
fn r144_a_unit_handed_a_crate_earlier_in_the_turn_lists_no_shot() {
    use sandtable_frontiers::crates::Content;
    let mut s = setup(&[
        ("T1", "lg_trooper", 0, 100, 100),
        ("T2", "lg_trooper", 0, 131, 100),
        ("K1", "zr_cluster", 1, 100, 300),
    ]);
    s.units[0].gear = Some(Content::AutomaticWeapon);
    let mut g = game(&s, &[]);
    orders(&mut g, "orders T1:1 T2:2", "orders K1:1");
    // Step 1: T1 (Movement 4) is slower than K1 (5): the Legion name
    // first; K1 moves first, letting it go; T1 hands its crate to T2.
    play(&mut g, 0, "name T1 move");
    play(&mut g, 1, "name K1 move");
    windows(&mut g);
    play(&mut g, 1, "pass");
    play(&mut g, 0, "hand T1 T2");
    // Step 2: T2 named to shoot, K1 in its sight; but it took a crate
    // this turn: no shot is listed, and one given is refused.
    play(&mut g, 0, "name T2 shoot");
    windows(&mut g);
    assert_eq!(g.decision(), one(0));
    let mut legal = Vec::new();
    g.legal_into(Seat(0), &mut legal);
    assert!(
        !legal
            .iter()
            .any(|l| matches!(l.command, Command::Shoot { .. })),
        "{:?}",
        legal
            .iter()
            .map(|l| l.command.to_string())
            .collect::<Vec<_>>()
    );
    assert!(legal.iter().any(|l| l.command == cmd("pass")));
    assert!(
        refused(&g, 0, "shoot T2 K1")
            .contains("T2 handed a crate over or took one this turn: it does not shoot (R144)")
    );
}
