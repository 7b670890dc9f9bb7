//! The rulings in space, one test a ruling where it bites, with scripted
//! dice and positions in whole mm (rulings/frontiers.md, R100-R142): each
//! action resolved by `Game::act`, outside the turn's order, which
//! `tests/turn.rs` tests through the contract.

use sandtable_core::dice::Dice;
use sandtable_core::game::{Ending, GameState, Seat};
use sandtable_frontiers::army::Marker;
use sandtable_frontiers::attack::Outcome;
use sandtable_frontiers::data::{Faction, Location};
use sandtable_frontiers::event::{Event, Struck};
use sandtable_frontiers::flow::{Owing, Phase};
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{DropRule, Element, SideSetup, Terrain, TerrainKind, UnitSetup};
use sandtable_frontiers::{Command, Game, Setup};

fn sides() -> Vec<SideSetup> {
    vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)]
}

fn unit(id: &str, data: &str, side: u8, x: i32, y: i32) -> UnitSetup {
    UnitSetup {
        id: id.into(),
        data: data.into(),
        side,
        at: Pt::new(x, y),
        facing: 0,
        back: false,
        deploy: false,
        gear: None,
    }
}

fn rect(kind: TerrainKind, x0: i32, y0: i32, x1: i32, y1: i32) -> Terrain {
    Terrain {
        kind,
        corners: vec![
            Pt::new(x0, y0),
            Pt::new(x1, y0),
            Pt::new(x1, y1),
            Pt::new(x0, y1),
        ],
    }
}

/// A building element of no spaces: a rectangle with a defense and steps.
fn block(name: &str, x0: i32, y0: i32, x1: i32, y1: i32, defense: u8, steps: u8) -> Element {
    Element {
        name: name.into(),
        corners: vec![
            Pt::new(x0, y0),
            Pt::new(x1, y0),
            Pt::new(x1, y1),
            Pt::new(x0, y1),
        ],
        defense,
        steps,
        ..Element::default()
    }
}

fn setup(units: Vec<UnitSetup>) -> Setup {
    Setup {
        sides: sides(),
        units,
        ..Setup::default()
    }
}

fn game(setup: &Setup, rolls: &[u8]) -> Game {
    Game::new(setup, Dice::scripted(rolls.to_vec())).unwrap_or_else(|e| panic!("{e}"))
}

fn cmd(text: &str) -> Command {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Resolves `text` as an action of `side`, or panics with the refusal.
fn play(g: &mut Game, side: u8, text: &str) -> Vec<Event> {
    let mut events = Vec::new();
    g.act(side, &cmd(text), &mut events)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    events
}

/// The refusal of `text` as an action of `side`, checked to change
/// nothing.
fn refused(g: &Game, side: u8, text: &str) -> String {
    let mut copy = g.clone();
    let mut events = Vec::new();
    let e = copy.act(side, &cmd(text), &mut events).expect_err(text);
    assert!(copy == *g, "a refused command changes nothing: {text}");
    assert!(events.is_empty());
    e.to_string()
}

/// Plays the rest of the turn through the contract, nobody acting: both
/// keep their hands, place their decoys alone, and let their Reserve go
/// (R105-R112); the turn's own dice (a coin in the Reserve) from a
/// generator, the scripted dice kept for the test.
fn next_turn(g: &mut Game) {
    let scripted = g.dice().clone();
    g.set_dice(Dice::seeded(7));
    let turn = g.turn_number();
    while g.turn_number() == turn && g.ending().is_none() {
        let side = match g.owing() {
            Owing::One(s) => s,
            Owing::Sealed(owed) => u8::from(!owed[0]),
            Owing::Over(_) => break,
        };
        let text = match g.flow().phase {
            Phase::Prepare(_) => "discard".to_owned(),
            Phase::Order => {
                let Command::Orders { mut orders, n } = g.canonical_orders(side) else {
                    unreachable!("orders")
                };
                let decoys = usize::from(n).min(2);
                for o in &mut orders[..decoys] {
                    o.marker = Marker::Decoy;
                }
                Command::Orders {
                    orders,
                    n: decoys as u8,
                }
                .to_string()
            }
            Phase::Reserve(_) => format!("pass {}", g.units()[g.reserve_units(side)[0]].tag),
            other => panic!("no marker is numbered: no {other:?}"),
        };
        let mut events = Vec::new();
        g.apply_into(Seat(u16::from(side)), &cmd(&text), &mut events)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    g.set_dice(scripted);
}

fn attacks(events: &[Event]) -> Vec<(Struck, u8, i8, i8, u8, Outcome)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Attacked {
                struck,
                roll,
                bonus,
                modifiers,
                defense,
                outcome,
            } => Some((*struck, *roll, *bonus, *modifiers, *defense, *outcome)),
            _ => None,
        })
        .collect()
}

fn modifiers(events: &[Event]) -> Vec<(String, i8)> {
    events
        .iter()
        .find_map(|e| match e {
            Event::Sighted { modifiers, .. } => Some(modifiers.clone()),
            _ => None,
        })
        .expect("a sighted shot")
}

#[test]
fn r100_r113_a_move_is_measured_in_whole_mm_up_to_movement_lns() {
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 1000, 500),
    ]);
    let g = game(&s, &[]);
    // Movement 4 x 30 mm: 120 mm exactly is a move; 121 is not.
    let e = refused(&g, 0, "move T1 221,100");
    assert!(
        e.contains("the path is 121.0 mm, over the 120 mm the unit moves (R113)"),
        "{e}"
    );
    // A dog-leg: 60 + 60 = 120.
    let mut g2 = g.clone();
    play(&mut g2, 0, "move T1 160,100 160,160");
    assert_eq!(g2.units()[0].at, Pt::new(160, 160));
    // 3-4-5: 72 + 48 = 120 along a slant of whole mm.
    let mut g3 = g.clone();
    play(&mut g3, 0, "move T1 172,196");
    assert_eq!(g3.units()[0].at, Pt::new(172, 196));
    // Only an oval picks a facing (R113).
    assert!(refused(&g, 0, "move T1 150,100 face 90").contains("only an oval picks a facing"));
}

#[test]
fn r114_a_path_through_a_building_is_refused_where_it_touches() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 400, 298),
        unit("K1", "zr_cluster", 1, 1000, 500),
    ]);
    s.elements
        .push(block("Relay hut", 497, 250, 600, 350, 7, 3));
    let g = game(&s, &[]);
    let e = refused(&g, 0, "move T1 515,298");
    assert_eq!(
        e,
        "the path touches the building element Relay hut at 482,298 (R114)"
    );
    // A unit in the way too, named.
    let s2 = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("T2", "lg_trooper", 0, 160, 100),
        unit("K1", "zr_cluster", 1, 1000, 500),
    ]);
    let g2 = game(&s2, &[]);
    assert_eq!(
        refused(&g2, 0, "move T1 200,100"),
        "the path touches T2 (trooper) at 130,100 (R114)"
    );
}

#[test]
fn r114_a_path_through_a_gap_exactly_a_base_wide_passes() {
    // Two enemy bases 60 mm apart centre to centre: a 30 mm gap between
    // them, exactly a base wide. Touching is no overlap (R101).
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 160, 70),
        unit("K2", "zr_cluster", 1, 160, 130),
    ]);
    let g = game(&s, &[]);
    let mut g2 = g.clone();
    play(&mut g2, 0, "move T1 215,100");
    assert_eq!(g2.units()[0].at, Pt::new(215, 100));
    // A millimetre off the middle, it touches.
    assert!(refused(&g, 0, "move T1 215,101").contains("(R114)"));
}

#[test]
fn r102_a_charge_ends_in_contact_within_2_mm_and_attacks() {
    // B1 (brute, Charge, 2 at body) charges T1 (defense 5).
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 300, 100),
        unit("B1", "zr_brute", 1, 300, 200),
    ]);
    let mut g = game(&s, &[3, 3]);
    play(&mut g, 0, "move T1");
    // 2 mm apart: contact (R102). 3 mm: not.
    let e = refused(&g, 1, "charge B1 T1 300,133");
    assert!(
        e.contains("a charge ends in contact (within 2 mm, R102)"),
        "{e}"
    );
    let events = play(&mut g, 1, "charge B1 T1 300,132");
    // 3 + 2 = 5 against 5: a step, no modifiers (R134).
    assert_eq!(
        attacks(&events),
        [(Struck::Unit(0), 3, 2, 0, 5, Outcome::Step)]
    );
    assert!(g.units()[0].damaged());
}

#[test]
fn r123_r124_a_step_flips_a_damaged_back_then_destroys_and_a_double_destroys() {
    // Turn 1: T1 at K1 (6 + 3 = 9 against 5: a step); K1 at T1 (1: miss).
    // Turn 2 (the second seat first): K1 misses, T1 at K1 on its damaged
    // side: 4 + 3 = 7 against defense 4, a step (not twice 4): destroyed.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 300),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[6, 1, 1, 4]);
    let ev = play(&mut g, 0, "shoot T1 K1");
    assert_eq!(attacks(&ev)[0].5, Outcome::Step);
    assert!(g.units()[1].damaged());
    assert_eq!(g.units()[1].defense(), 4);
    assert_eq!(
        g.units()[1].bonus(0, 0),
        Some(1),
        "2 less 1 when damaged (R151)"
    );
    play(&mut g, 1, "shoot K1 T1");
    play(&mut g, 1, "move K2");
    next_turn(&mut g);
    assert_eq!(g.turn_number(), 2);
    play(&mut g, 1, "shoot K1 T1");
    let ev = play(&mut g, 0, "shoot T1 K1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Destroyed { unit: 1, .. }))
    );
    assert_eq!(g.ap_destroyed(), [15, 0], "K1's 15 AP (R145)");
    // A double (at least twice the defense) destroys at once: the Orion's
    // A2, 3 at body, and a 5 against a memory's defense 4: 8 (R123).
    let s = setup(vec![
        unit("O1", "lg_orion", 0, 100, 100),
        unit("M1", "zr_memory", 1, 100, 300),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[5]);
    let ev = play(&mut g, 0, "shoot O1 M1 A2");
    assert_eq!(
        attacks(&ev),
        [(Struck::Unit(1), 5, 3, 0, 4, Outcome::Double)]
    );
    assert!(!g.units()[1].alive);
    assert_eq!(g.ap_destroyed(), [20, 0]);
}

#[test]
fn r124_an_ability_back_is_one_step() {
    // The hero's back is its shield: one step destroys it (R124).
    let s = setup(vec![
        unit("H1", "lg_hero", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 300),
    ]);
    let mut g = game(&s, &[6]);
    play(&mut g, 0, "move H1");
    let ev = play(&mut g, 1, "shoot K1 H1");
    // 6 + 3 = 9 against 6: a step, and the hero is gone.
    assert_eq!(attacks(&ev)[0].5, Outcome::Step);
    assert!(!g.units()[0].alive);
    assert_eq!(g.ending(), Some(Ending::Won(Seat(1))));
}

#[test]
fn r120_units_block_sight_and_grazing_within_half_a_mm_does_not() {
    // T2 stands between T1 and K1, hiding all of K1 but a sliver.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("T2", "lg_trooper", 0, 100, 200),
        unit("K1", "zr_cluster", 1, 100, 400),
    ]);
    let g = game(&s, &[]);
    let e = refused(&g, 0, "shoot T1 K1");
    assert_eq!(e, "T1 has no line of sight to K1 (R120)");
    // A wall whose corner the only lines to K1 pass within half a mm of
    // (R120): the tangent from T1 to K1's right side crosses x = 107 at
    // y = 190, 0.23 mm inside a wall ending there; a wall to x = 108
    // takes 1.23 mm and blocks.
    let wall = |right: i32| block("Wall", 0, 190, right, 210, 7, 3);
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 300),
    ]);
    s.elements.push(wall(107));
    let g = game(&s, &[]);
    g.check_action(0, &cmd("shoot T1 K1"))
        .expect("grazing within 0.5 mm does not block (R120)");
    s.elements[0] = wall(108);
    let g = game(&s, &[]);
    assert_eq!(
        refused(&g, 0, "shoot T1 K1"),
        "T1 has no line of sight to K1 (R120)"
    );
}

#[test]
fn r121_r122_the_best_line_and_its_modifiers() {
    // A wall (light structure) across most of the line, woods the target
    // stands in, long range: the shooter takes the line round the wall.
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 50),
        unit("K1", "zr_cluster", 1, 100, 400),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    s.terrain
        .push(rect(TerrainKind::LightStructure, 60, 200, 140, 210));
    let g = game(&s, &[6]);
    let mut g1 = g.clone();
    let ev = play(&mut g1, 0, "shoot T1 K1");
    // 320 mm apart edge to edge: beyond a ruler (240 mm), -1; the wall
    // spans 60..140 across, every line to K1 (85..115) crosses it: -1.
    assert_eq!(
        modifiers(&ev),
        [
            ("long range, beyond a ruler (R122)".to_owned(), -1),
            ("crossed 1 light structure (R122)".to_owned(), -1)
        ]
    );
    // In the same woods: -1; either in woods: -2 (R122).
    let mut s2 = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 200),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    s2.terrain
        .push(rect(TerrainKind::Vegetation, 50, 50, 150, 250));
    let mut g2 = game(&s2, &[6]);
    let ev = play(&mut g2, 0, "shoot T1 K1");
    assert_eq!(
        modifiers(&ev),
        [("both in the same vegetation (R122)".to_owned(), -1)]
    );
    let mut s3 = s2.clone();
    s3.terrain[0] = rect(TerrainKind::Vegetation, 50, 160, 150, 250);
    let mut g3 = game(&s3, &[6]);
    let ev = play(&mut g3, 0, "shoot T1 K1");
    assert_eq!(modifiers(&ev), [("vegetation (R122)".to_owned(), -2)]);
    // Woods neither stands in block (R120).
    let mut s4 = s2.clone();
    s4.terrain[0] = rect(TerrainKind::Vegetation, 0, 130, 300, 160);
    let g4 = game(&s4, &[6]);
    assert!(refused(&g4, 0, "shoot T1 K1").contains("no line of sight"));
    // Camouflage: -1 (R122, R134).
    let s5 = setup(vec![
        unit("CP", "lg_captain", 0, 100, 100),
        unit("ST", "zr_stalker", 1, 100, 200),
    ]);
    let mut g5 = game(&s5, &[6]);
    let ev = play(&mut g5, 0, "shoot CP ST");
    assert_eq!(modifiers(&ev), [("camouflage (R122, R134)".to_owned(), -1)]);
}

#[test]
fn r122_a_hill_doubles_the_reach_before_long_range() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 500),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let g = game(&s, &[6]);
    let mut g1 = g.clone();
    let ev = play(&mut g1, 0, "shoot T1 K1");
    assert_eq!(modifiers(&ev)[0].1, -1, "370 mm: beyond a ruler");
    s.terrain.push(rect(TerrainKind::Hill, 50, 50, 150, 150));
    let mut g2 = game(&s, &[6]);
    let ev = play(&mut g2, 0, "shoot T1 K1");
    assert!(modifiers(&ev).is_empty(), "from a hill: two rulers");
}

#[test]
fn r123_a_crater_adds_one_to_infantry_s_defense() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 200),
    ]);
    s.terrain.push(rect(TerrainKind::Crater, 70, 170, 130, 230));
    let mut g = game(&s, &[2]);
    let ev = play(&mut g, 0, "shoot T1 K1");
    // 2 + 3 = 5 against 5 + 1: a miss (out of the crater, a step).
    assert_eq!(attacks(&ev), [(Struck::Unit(1), 2, 3, 0, 6, Outcome::Miss)]);
}

#[test]
fn r125_a_vehicle_s_step_rolls_its_location_and_a_second_hit_destroys_it() {
    // K1 (cluster, "-" at heavy armor) cannot shoot a walker tank (R123).
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("CR", "zr_crawler", 1, 100, 300),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    let g = game(&s, &[]);
    let e = refused(&g, 0, "shoot T1 CR");
    assert!(
        e.contains("no bonus (\"-\") at CR's heavy armor (R123)"),
        "{e}"
    );
    // A walker's 3 at heavy against the crawler's 7: a 4 is a step, its
    // location die (type 1) 3: L, Movement 0 (R125). Next turn a 5 and a
    // location 4: L again, destroyed; a small vehicle leaves no carcass.
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("CR", "zr_crawler", 1, 300, 300),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[4, 3, 5, 4]);
    let ev = play(&mut g, 0, "shoot W1 CR");
    let hit = |ev: &[Event]| {
        ev.iter().find_map(|e| match e {
            Event::LocationHit {
                location, again, ..
            } => Some((*location, *again)),
            _ => None,
        })
    };
    assert_eq!(hit(&ev), Some((Location::Locomotion, false)));
    assert_eq!(g.units()[1].movement(), 0);
    assert!(refused(&g, 1, "move CR 300,320").contains("Movement is 0 (R125)"));
    play(&mut g, 1, "move CR");
    play(&mut g, 1, "move K1");
    // Turn 2: the second seat first.
    play(&mut g, 1, "move K1");
    let ev = play(&mut g, 0, "shoot W1 CR");
    assert_eq!(hit(&ev), Some((Location::Locomotion, true)));
    assert!(ev.contains(&Event::Destroyed {
        unit: 1,
        carcass: false
    }));
    assert_eq!(g.ap_destroyed(), [50, 0]);
}

#[test]
fn r125_a_destroyed_oval_leaves_a_carcass_that_blocks_no_sight() {
    // The Vega (oval, defense 8) between T1 and K1: destroyed by a
    // double, its carcass a light structure: -1, no block (R120, R122).
    let mut s = setup(vec![
        unit("O1", "lg_orion", 0, 100, 100),
        unit("T1", "lg_trooper", 0, 300, 100),
        unit("V1", "zr_vega", 1, 300, 200),
        unit("K1", "zr_cluster", 1, 300, 300),
    ]);
    s.units[0].facing = 90;
    let mut g = game(&s, &[6, 6, 6, 5, 6]);
    assert!(refused(&g, 0, "shoot T1 K1").contains("no line of sight"));
    // A1: a blue missile, a small template on V1: 6 + 4 = 10 against 8,
    // not 16: a step; its location: 6, E. Not destroyed yet.
    let ev = play(&mut g, 0, "shoot O1 V1");
    assert!(ev.iter().any(|e| matches!(e, Event::Template { .. })));
    assert!(g.units()[2].alive);
    assert_eq!(g.units()[2].hits, Location::Equipment.bit());
    play(&mut g, 1, "move V1");
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "move K1");
    // Turn 2: E again (a 5): destroyed, a carcass (R125).
    play(&mut g, 1, "move V1");
    let ev = play(&mut g, 0, "shoot O1 V1");
    assert!(ev.contains(&Event::Destroyed {
        unit: 2,
        carcass: true
    }));
    play(&mut g, 1, "move K1");
    // T1 now sees K1 across the carcass: -1, as a light structure.
    let ev = play(&mut g, 0, "shoot T1 K1");
    assert_eq!(
        modifiers(&ev),
        [("crossed 1 light structure (R122)".to_owned(), -1)]
    );
}

#[test]
fn r126_r127_a_grenade_s_template_hits_friends_too_nearest_first() {
    // T1 throws at K1 (within 3 LNS: 90 mm edge to edge, the distance
    // included, R102); K2 beside K1 and T2 touching the template.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 220),
        unit("K2", "zr_cluster", 1, 145, 220),
        unit("T2", "lg_trooper", 0, 55, 220),
    ]);
    let mut g = game(&s, &[6, 1, 1]);
    let ev = play(&mut g, 0, "grenade T1 K1");
    let hit: Vec<Struck> = attacks(&ev).iter().map(|a| a.0).collect();
    assert_eq!(hit, [Struck::Unit(1), Struck::Unit(2), Struck::Unit(3)]);
    assert_eq!(attacks(&ev)[0].2, 2, "a grenade's +2");
    // 91 mm: out of reach.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 221),
    ]);
    let g = game(&s, &[]);
    assert!(refused(&g, 0, "grenade T1 K1").contains("a grenade reaches 90 mm (3 LNS) (R127)"));
}

#[test]
fn r129_a_drop_scatters_by_two_dice_and_a_placed_drop_waits_for_its_point() {
    // The mortar (Indirect) cannot see K1 behind the building: a drop.
    let mut s = setup(vec![
        unit("M1", "lg_mortar", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 300, 400),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    s.elements.push(block("Hut", 200, 200, 400, 300, 7, 3));
    // Direction 1 (toward the far edge), distance 3: 30 mm; the attack 6.
    let mut g = game(&s, &[1, 3, 6]);
    let ev = play(&mut g, 0, "shoot M1 K1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Scattered {
            at,
            ..
        } if *at == Pt::new(300, 430)
    )));
    assert_eq!(attacks(&ev).len(), 1, "K1 under the large template");
    // Placed (R129): the firer says where the template fell; a point off
    // the table is refused.
    s.switches.drop = DropRule::Placed;
    let mut g = game(&s, &[6]);
    let ev = play(&mut g, 0, "shoot M1 K1");
    assert!(matches!(ev[..], [Event::AwaitingDrop { .. }]));
    assert!(refused(&g, 0, "land 20,20").contains("not wholly on the table (R129)"));
    assert!(refused(&g, 1, "move K1").contains("owes where the drop fell"));
    let ev = play(&mut g, 0, "land 310,420");
    assert_eq!(attacks(&ev).len(), 1);
}

#[test]
fn r130_r131_a_cloud_costs_enemy_shots_and_two_are_the_most() {
    // E1 (engineer, smoke bomb) throws a cloud between K1 and T1.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("E1", "lg_engineer", 0, 200, 150),
        unit("K1", "zr_cluster", 1, 100, 300),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[6, 6, 6]);
    // 3 LNS from E1's edge: 200,150 + 15 + 90 = 305 across at most.
    assert!(refused(&g, 0, "smoke E1 306,150").contains("smoke reaches 90 mm"));
    play(&mut g, 0, "smoke E1 130,190");
    let ev = play(&mut g, 1, "shoot K1 T1");
    assert_eq!(
        modifiers(&ev),
        [("enemy smoke crossed (R131)".to_owned(), -1)]
    );
    // The own cloud never counts (R131).
    let ev = play(&mut g, 0, "shoot T1 K1");
    assert!(modifiers(&ev).is_empty());
    // Turn 2: a second cloud; then, both down, no third (R130).
    next_turn(&mut g);
    play(&mut g, 0, "smoke E1 230,220");
    next_turn(&mut g);
    assert_eq!(g.turn_number(), 3);
    assert_eq!(
        refused(&g, 0, "smoke E1 250,200"),
        "both of the side's clouds are down (R130)"
    );
}

#[test]
fn r135_a_raised_shield_defends_at_its_own_value_and_drops_after_a_fight() {
    let s = setup(vec![
        unit("H1", "lg_hero", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 100, 300),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[6]);
    play(&mut g, 0, "special H1 shield");
    assert_eq!(g.units()[0].defense(), 8);
    assert!(refused(&g, 1, "special K1 shield").contains("no energy shield (R135)"));
    let ev = play(&mut g, 1, "shoot K1 H1");
    // 6 + 2 = 8 against 8: a step; the hero's back is one step (R124).
    assert_eq!(attacks(&ev), [(Struck::Unit(0), 6, 2, 0, 8, Outcome::Step)]);
    assert!(!g.units()[0].alive);
    // The hero fights with its shield up: the shield drops.
    let mut g = game(&s, &[1, 1]);
    play(&mut g, 0, "special H1 shield");
    play(&mut g, 1, "move K1");
    play(&mut g, 1, "move K2");
    play(&mut g, 1, "move K1");
    let ev = play(&mut g, 0, "shoot H1 K1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Flipped { back: false, .. }))
    );
    assert_eq!(g.units()[0].defense(), 6);
}

#[test]
fn r136_r142_a_sniper_s_tripod_takes_off_long_range_and_a_move_unsets_it() {
    let s = setup(vec![
        unit("S1", "lg_sniper", 0, 100, 50),
        unit("K1", "zr_cluster", 1, 100, 500),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[3, 3]);
    // Long range: one penalty; defense 5: 3+ plus 1 = 4 needed. A 3 misses.
    let ev = play(&mut g, 0, "shoot S1 K1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Sniped {
            need: 4,
            outcome: Outcome::Miss,
            ..
        }
    )));
    play(&mut g, 1, "move K1");
    play(&mut g, 1, "move K2");
    play(&mut g, 1, "move K1");
    play(&mut g, 0, "special S1 tripod");
    assert!(g.units()[0].tripod_set());
    play(&mut g, 1, "move K2");
    // Turn 3: with the tripod set no long range: a 3 is enough (R136).
    let ev = play(&mut g, 0, "shoot S1 K1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Sniped {
            need: 3,
            outcome: Outcome::Step,
            ..
        }
    )));
    play(&mut g, 1, "move K1");
    play(&mut g, 1, "move K2");
    play(&mut g, 1, "move K1");
    // Any move unsets it (R136).
    play(&mut g, 0, "move S1 100,60");
    assert!(!g.units()[0].tripod_set());
}

#[test]
fn r142_a_sniper_sees_past_units_and_shoots_only_infantry() {
    let s = setup(vec![
        unit("S1", "lg_sniper", 0, 100, 100),
        unit("T1", "lg_trooper", 0, 100, 160),
        unit("K1", "zr_cluster", 1, 100, 250),
        unit("CR", "zr_crawler", 1, 300, 250),
    ]);
    let g = game(&s, &[]);
    g.check_action(0, &cmd("shoot S1 K1"))
        .expect("units never block a sniper (R142)");
    assert!(refused(&g, 0, "shoot S1 CR").contains("a sniper shoots infantry (R142)"));
}

#[test]
fn r121_an_arc_keeps_the_best_line_inside_it() {
    // The Orion faces -x; its A1 fires in the front 180°. K1 straight
    // up the table straddles the arc's edge: seen along its inner half.
    let mut s = setup(vec![
        unit("O1", "lg_orion", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 300, 300),
        unit("K2", "zr_cluster", 1, 500, 100),
    ]);
    s.units[0].facing = 180;
    let g = game(&s, &[]);
    g.check_action(0, &cmd("shoot O1 K1"))
        .expect("half of K1 lies in the arc (R121)");
    // K2 behind it: out of A1's arc, in A2's (360°).
    let e = refused(&g, 0, "shoot O1 K2");
    assert_eq!(
        e,
        "O1 has no line of sight to K2 within its weapon's 180° arc (R120)"
    );
    g.check_action(0, &cmd("shoot O1 K2 A2"))
        .expect("all round");
}

#[test]
fn r114_an_oval_may_not_turn_into_a_building_and_leaving_woods_costs_nothing() {
    let mut s = setup(vec![
        unit("O1", "lg_liberation", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    s.elements.push(block("Hut", 320, 60, 400, 90, 7, 3));
    // Facing 0 (along +x) its end reaches 330 and overlaps the hut;
    // at 90 it stands clear.
    s.units[0].facing = 90;
    let g = game(&s, &[]);
    assert_eq!(
        refused(&g, 0, "move O1 face 0"),
        "the move ends on the building element Hut (R114)"
    );
    let mut g2 = g.clone();
    play(&mut g2, 0, "move O1 face 80");
    // A vehicle standing in woods leaves them at full Movement (6 LNS).
    let mut s = setup(vec![
        unit("O1", "lg_liberation", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    s.terrain
        .push(rect(TerrainKind::Vegetation, 40, 40, 160, 160));
    let mut g = game(&s, &[]);
    play(&mut g, 0, "move O1 280,100");
    // Entering woods it does not stand in: 2 LNS less (R114).
    let mut s = setup(vec![
        unit("O1", "lg_liberation", 0, 100, 300),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    s.terrain
        .push(rect(TerrainKind::Vegetation, 200, 250, 300, 350));
    let g = game(&s, &[]);
    assert!(refused(&g, 0, "move O1 280,300").contains("2 LNS less for entering vegetation"));
}

#[test]
fn r119_r123_a_double_on_a_building_element_ruins_it() {
    // A grenade on K1 beside the shed: its small template touches the
    // shed's wall, which takes an attack at structure; +2 and a 6 = 8,
    // twice its defense of 4: a double, a ruin at once (R123, R119).
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 300, 170),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    s.elements.push(block("Shed", 250, 200, 350, 260, 4, 3));
    let mut g = game(&s, &[1, 6]);
    let ev = play(&mut g, 0, "grenade T1 K1");
    assert!(attacks(&ev).contains(&(Struck::Element(0), 6, 2, 0, 4, Outcome::Double)));
    assert!(ev.contains(&Event::Ruined { element: 0 }));
    assert_eq!(g.element_steps(), [0]);
}

#[test]
fn r104_only_a_unit_named_on_both_sides_starts_on_its_back() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 300, 100),
        unit("F1", "zr_shifter", 1, 300, 300),
    ]);
    s.units[0].back = true;
    let e = s.check().unwrap_err().to_string();
    assert!(
        e.contains("units[0].back: T1 (lg_trooper) starts face up: only a unit named on both sides starts on its back (R104)"),
        "{e}"
    );
    s.units[0].back = false;
    s.units[1].back = true;
    let g = game(&s, &[]);
    // The shifter's other form: Movement 3, Defense 6, 3/1/1 (R151).
    let f = &g.units()[1];
    assert_eq!((f.movement(), f.defense(), f.bonus(0, 1)), (3, 6, Some(1)));
}

#[test]
fn r125_a_carried_unit_s_location_with_nobody_aboard_does_nothing() {
    // The walker's 3 at heavy against the Vega's 8: a 5 is a step; the
    // Vega's column (type 2) puts C on a 2: nobody aboard, no mark.
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("V1", "zr_vega", 1, 300, 300),
    ]);
    let mut g = game(&s, &[5, 2]);
    let ev = play(&mut g, 0, "shoot W1 V1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LocationHit {
            location: Location::Carried,
            again: false,
            ..
        }
    )));
    assert_eq!(g.units()[1].hits, 0);
    assert!(g.units()[1].alive);
}

/// A hut of two linked spaces: a door on its near wall behind space 1,
/// a window on its far wall behind space 2.
fn hut() -> Element {
    use sandtable_frontiers::setup::{Opening, OpeningKind};
    Element {
        name: "Relay hut".into(),
        id: "RH".into(),
        corners: vec![
            Pt::new(200, 200),
            Pt::new(320, 200),
            Pt::new(320, 260),
            Pt::new(200, 260),
        ],
        defense: 7,
        steps: 3,
        spaces: vec![Pt::new(230, 230), Pt::new(290, 230)],
        links: vec![(0, 1)],
        openings: vec![
            Opening {
                kind: OpeningKind::Door,
                a: Pt::new(215, 200),
                b: Pt::new(245, 200),
                behind: vec![0],
            },
            Opening {
                kind: OpeningKind::Window,
                a: Pt::new(275, 260),
                b: Pt::new(305, 260),
                behind: vec![1],
            },
        ],
        falls_with: Vec::new(),
    }
}

#[test]
fn r117_a_unit_enters_by_a_door_a_lns_a_space_and_leaves_by_a_door() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 150),
        unit("K1", "zr_cluster", 1, 900, 500),
        unit("W1", "lg_walker", 0, 150, 150),
    ]);
    s.elements.push(hut());
    let g = game(&s, &[]);
    // Not touching the door: refused where it stands.
    assert_eq!(
        refused(&g, 0, "move T1 230,170 RH.1"),
        "T1 at 230,170 touches no door of RH with RH.1 behind it (R117)"
    );
    // The door opens on space 1 only.
    assert!(refused(&g, 0, "move T1 230,184 RH.2").contains("touches no door of RH with RH.2"));
    // A vehicle never enters.
    assert!(
        refused(&g, 0, "move W1 230,184 RH.1")
            .contains("only circular units that are not vehicles enter")
    );
    let mut g1 = g.clone();
    let ev = play(&mut g1, 0, "move T1 230,184 RH.1");
    // 34 mm to the door and a LNS for the space.
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::Moved { length, into: Some((0, 0)), .. } if (*length - 64.0).abs() < 1e-9
    )));
    assert_eq!(g1.units()[0].inside, Some((0, 0)));
    assert_eq!(g1.units()[0].at, Pt::new(230, 230));
    // Too far: 94 mm outdoors and a space, over 120.
    let s2 = {
        let mut s2 = s.clone();
        s2.units[0].at = Pt::new(230, 90);
        s2
    };
    let g2 = game(&s2, &[]);
    assert_eq!(
        refused(&g2, 0, "move T1 230,184 RH.1"),
        "the path is 124.0 mm (94.0 mm outdoors and 1 space of a LNS), over the 120 mm the unit moves (R113)"
    );
    // Next turn: to space 2, then out by the window is refused, out by
    // the door is a move.
    play(&mut g1, 1, "move K1");
    play(&mut g1, 0, "move W1");
    // Turn 2, the second seat first.
    play(&mut g1, 1, "move K1");
    play(&mut g1, 0, "move T1 RH.2");
    assert_eq!(g1.units()[0].inside, Some((0, 1)));
    play(&mut g1, 0, "move W1");
    assert_eq!(
        refused(&g1, 0, "move T1 290,276"),
        "T1 leaving RH.2 ends at 290,276, touching no door behind which it stands (R117)"
    );
    play(&mut g1, 0, "move T1 RH.1 230,184 230,120");
    assert_eq!(g1.units()[0].inside, None);
    assert_eq!(g1.units()[0].at, Pt::new(230, 120));
}

#[test]
fn r117_an_occupied_space_is_never_entered_or_passed() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("T2", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    s.elements.push(hut());
    let mut g = game(&s, &[]);
    play(&mut g, 0, "move T1 RH.1");
    play(&mut g, 1, "move K1");
    let e = refused(&g, 0, "move T2 230,184 RH.1 RH.2");
    assert!(
        e.contains("RH.1 is occupied by T1: occupied spaces are never passed (R117)"),
        "{e}"
    );
}

#[test]
fn r118_lines_into_and_out_of_a_building_run_through_its_openings() {
    // T1 in space 2, behind the window; K1 outdoors beyond it.
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("K1", "zr_cluster", 1, 290, 400),
        unit("K2", "zr_cluster", 1, 900, 500),
    ]);
    s.elements.push(hut());
    let mut g = game(&s, &[6, 6, 6]);
    play(&mut g, 0, "move T1 RH.1 RH.2");
    // Into a building through the window: -2 (R118).
    let ev = play(&mut g, 1, "shoot K1 T1");
    assert_eq!(
        modifiers(&ev),
        [(
            "in a building, seen through an opening (R118)".to_owned(),
            -2
        )]
    );
    play(&mut g, 1, "move K2");
    // Turn 2, the second seat first: K2 cannot see T1 in space 1 (no
    // opening behind it faces K2) ...
    let mut s3 = s.clone();
    s3.units[1].at = Pt::new(290, 276); // K1 touching the window outside
    let mut g3 = game(&s3, &[6]);
    play(&mut g3, 0, "move T1 RH.1");
    // ... a shooter touching an opening shoots any unit of the element,
    // no modifier (R118).
    let ev = play(&mut g3, 1, "shoot K1 T1");
    assert!(modifiers(&ev).is_empty());
    let mut s4 = s.clone();
    s4.units[1].at = Pt::new(290, 420);
    let mut g4 = game(&s4, &[]);
    play(&mut g4, 0, "move T1 RH.1");
    assert!(refused(&g4, 1, "shoot K1 T1").contains("no line of sight"));
    // Out of a building: from the window's midpoint, no modifier.
    let mut g5 = game(&s, &[6, 6]);
    play(&mut g5, 0, "move T1 RH.1 RH.2");
    play(&mut g5, 1, "move K1");
    play(&mut g5, 1, "move K2");
    play(&mut g5, 1, "move K2");
    let ev = play(&mut g5, 0, "shoot T1 K1");
    assert!(ev.iter().any(|e| matches!(e, Event::Sighted { .. })));
    assert!(modifiers(&ev).is_empty());
    // A template does not hit units inside (R126).
    let s6 = {
        let mut s6 = s.clone();
        s6.units.push(unit("SP", "zr_spitter", 1, 600, 500));
        s6
    };
    let mut g6 = game(&s6, &[]);
    play(&mut g6, 0, "move T1 RH.1");
    assert!(
        refused(&g6, 1, "shoot SP T1")
            .contains("a template does not hit units inside an element (R126)")
    );
}

#[test]
fn r119_a_ruin_puts_its_units_outdoors_with_an_attack_and_its_x_falls_too() {
    use sandtable_frontiers::setup::{Opening, OpeningKind};
    let mut h = hut();
    h.defense = 4;
    h.steps = 1;
    // An annex with an X, falling with the hut.
    let annex = Element {
        name: "Annex".into(),
        id: "AX".into(),
        corners: vec![
            Pt::new(320, 200),
            Pt::new(380, 200),
            Pt::new(380, 260),
            Pt::new(320, 260),
        ],
        spaces: vec![Pt::new(350, 230)],
        openings: vec![Opening {
            kind: OpeningKind::Window,
            a: Pt::new(380, 215),
            b: Pt::new(380, 245),
            behind: vec![0],
        }],
        falls_with: vec![0],
        ..Element::default()
    };
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("T2", "lg_trooper", 0, 290, 180),
        unit("B1", "zr_brute", 1, 290, 100),
    ]);
    s.elements.push(h);
    s.elements.push(annex);
    // T2 missed (1), the hut a step (4 + 2 against 4): a ruin; T1 inside
    // attacked at +0 (6 against 5): damaged.
    let mut g = game(&s, &[1, 4, 6]);
    play(&mut g, 0, "move T1 RH.1");
    play(&mut g, 1, "move B1 290,130");
    play(&mut g, 0, "move T2");
    let ev = play(&mut g, 1, "grenade B1 T2");
    assert!(ev.contains(&Event::Ruined { element: 0 }));
    assert!(
        ev.contains(&Event::Ruined { element: 1 }),
        "the X falls too"
    );
    assert!(ev.contains(&Event::Outdoors { unit: 0 }));
    assert!(attacks(&ev).contains(&(Struck::Unit(0), 6, 0, 0, 5, Outcome::Step)));
    assert_eq!(g.units()[0].inside, None);
    assert!(g.units()[0].damaged());
    // The ruin is a light structure: no spaces, crossed for -1.
    assert!(refused(&g, 0, "move T1 RH.1").contains("RH is a ruin"));
}

#[test]
fn r102_r134_indoors_contact_is_a_linked_space() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("B1", "zr_brute", 1, 300, 150),
    ]);
    s.elements.push(hut());
    let mut g = game(&s, &[5]);
    play(&mut g, 0, "move T1 RH.1 RH.2");
    // B1 goes in by the door to space 1, linked to T1's: contact.
    let ev = play(&mut g, 1, "charge B1 T1 230,184 RH.1");
    assert_eq!(attacks(&ev), [(Struck::Unit(0), 5, 2, 0, 5, Outcome::Step)]);
}

#[test]
fn r141_rapid_fire_splits_its_bonus_among_targets_close_together() {
    // K1, a cluster (2 at body, rapid-fire), at T1 and T2 45 mm apart.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("T2", "lg_trooper", 0, 175, 100),
        unit("T3", "lg_trooper", 0, 280, 100),
        unit("W1", "lg_walker", 0, 60, 170),
        unit("K1", "zr_cluster", 1, 150, 300),
        unit("B1", "zr_brute", 1, 600, 500),
    ]);
    let mut g = game(&s, &[5, 3]);
    play(&mut g, 0, "move T3");
    let e = refused(&g, 1, "shoot B1 T1+1 T2+1");
    assert!(e.contains("no rapid-fire"), "{e}");
    for (text, said) in [
        (
            "shoot K1 T1+2 T2+1",
            "the parts add up to +3: K1's bonus at body armor is +2 (R141)",
        ),
        (
            "shoot K1 T1+1 T3+1",
            "within 2 LNS (60 mm) of each other (R141)",
        ),
        (
            "shoot K1 T1+1 W1+1",
            "no bonus (\"-\") at W1's heavy armor (R123)",
        ),
        ("shoot K1 T1+2 T1+0", "(R141)"),
    ] {
        let e = refused(&g, 1, text);
        assert!(e.contains(said), "{text}: {e}");
    }
    // A gunner (3/2/1) may not split between body and heavy armor.
    let s2 = setup(vec![
        unit("G1", "lg_gunner", 0, 400, 100),
        unit("K2", "zr_cluster", 1, 400, 300),
        unit("CR", "zr_crawler", 1, 450, 300),
    ]);
    let g2 = game(&s2, &[]);
    let e = refused(&g2, 0, "shoot G1 K2+2 CR+1");
    assert!(
        e.contains("K2 has body armor and CR heavy armor: a split shot's targets share one defense type (R141)"),
        "{e}"
    );
    let ev = play(&mut g, 1, "shoot K1 T1+1 T2+1");
    // Each its own roll and modifiers: 5 + 1 against 5, 3 + 1 against 5.
    assert_eq!(
        attacks(&ev),
        [
            (Struck::Unit(0), 5, 1, 0, 5, Outcome::Step),
            (Struck::Unit(1), 3, 1, 0, 5, Outcome::Miss)
        ]
    );
}

#[test]
fn r139_a_medic_undoes_a_step_of_this_turn_and_returns_a_unit_destroyed_this_turn() {
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("T2", "lg_trooper", 0, 400, 100),
        unit("M1", "lg_medic", 0, 160, 100),
        unit("K1", "zr_cluster", 1, 100, 300),
        unit("K2", "zr_cluster", 1, 130, 300),
    ]);
    // K1's step and K2's second: T1 destroyed this turn (15 AP).
    let mut g = game(&s, &[6, 6]);
    play(&mut g, 0, "move T2");
    play(&mut g, 1, "shoot K1 T1");
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "shoot K2 T1");
    assert!(!g.units()[0].alive);
    assert_eq!(g.ap_destroyed(), [0, 15]);
    // Out of contact where it fell: refused; moving into contact, healed.
    assert!(
        refused(&g, 0, "heal M1 T1 200,100")
            .contains("does not end in contact with T1 where it fell (R139)")
    );
    let ev = play(&mut g, 0, "heal M1 T1 131,100");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Cared { patient: 0, .. }))
    );
    let t1 = &g.units()[0];
    assert!(t1.alive && t1.damaged(), "returned on its damaged side");
    assert_eq!(t1.at, Pt::new(100, 100));
    assert_eq!(
        g.ap_destroyed(),
        [0, 0],
        "its AP no longer destroyed (R145)"
    );

    // A step of this turn undone; one of an earlier turn is not.
    let mut g = game(&s, &[6, 1, 1]);
    play(&mut g, 0, "move T2");
    play(&mut g, 1, "shoot K1 T1");
    play(&mut g, 0, "move M1");
    play(&mut g, 1, "move K2");
    next_turn(&mut g);
    let e = refused(&g, 0, "heal M1 T1 131,100");
    assert!(
        e.contains("T1 took no step this turn: a medic undoes one of this turn (R139)"),
        "{e}"
    );
    let mut g = game(&s, &[6]);
    play(&mut g, 0, "move T2");
    play(&mut g, 1, "shoot K1 T1");
    play(&mut g, 0, "heal M1 T1 131,100");
    assert!(!g.units()[0].damaged());
    assert!(refused(&g, 1, "heal K2 K1").contains("K2 is no medic"));
}

#[test]
fn r139_a_mechanic_takes_a_marker_off_a_vehicle_in_contact() {
    // The spitter's template on W1: a 6, a step; its location a 3: L. E1
    // beside it is missed (a 1).
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("E1", "lg_engineer", 0, 336, 100),
        unit("SP", "zr_spitter", 1, 300, 400),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    let mut g = game(&s, &[6, 3, 1]);
    play(&mut g, 0, "move W1");
    play(&mut g, 1, "shoot SP W1");
    assert_eq!(g.units()[0].movement(), 0);
    assert!(refused(&g, 0, "repair E1 W1 E").contains("an E marker is a medic's"));
    assert!(refused(&g, 0, "repair E1 W1 A").contains("W1 has no A marker (R139)"));
    assert!(refused(&g, 0, "heal E1 W1").contains("E1 is no medic"));
    let ev = play(&mut g, 0, "repair E1 W1 L");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Cared { patient: 0, .. }))
    );
    assert_eq!(g.units()[0].movement(), 4);
}

#[test]
fn r127_a_grenade_through_a_window_attacks_the_spaces_behind_it_and_steps_the_element() {
    let mut s = setup(vec![
        unit("T2", "lg_trooper", 0, 290, 300),
        unit("T3", "lg_trooper", 0, 290, 400),
        unit("T4", "lg_trooper", 0, 600, 400),
        unit("K1", "zr_cluster", 1, 230, 150),
    ]);
    s.elements.push(hut());
    let mut g = game(&s, &[6]);
    play(&mut g, 0, "move T4");
    play(&mut g, 1, "move K1 230,184 RH.1 RH.2");
    // More than 1 LNS from the window: refused.
    assert!(refused(&g, 0, "grenade T3 RH.w1").contains("from within 1 LNS (30 mm) (R127)"));
    assert!(refused(&g, 0, "grenade T2 RH.w2").contains("RH has 1 window (R117)"));
    let ev = play(&mut g, 0, "grenade T2 RH.w1");
    // No template: K1 behind the window attacked at +2, then a step on
    // the hut.
    assert!(!ev.iter().any(|e| matches!(e, Event::Template { .. })));
    assert_eq!(attacks(&ev), [(Struck::Unit(3), 6, 2, 0, 5, Outcome::Step)]);
    assert!(ev.contains(&Event::ElementStep {
        element: 0,
        left: 2
    }));
}

#[test]
fn r121_r118_a_shooter_at_an_opening_keeps_to_its_arc() {
    // A Zirl walker (front 120°) touching the hut's window outside.
    let mut s = setup(vec![
        unit("T4", "lg_trooper", 0, 600, 400),
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("ZW", "zr_walker", 1, 290, 279),
    ]);
    s.elements.push(hut());
    s.units[2].facing = 0;
    let mut g = game(&s, &[]);
    play(&mut g, 0, "move T1 RH.1 RH.2");
    // Facing along +x, T1 straight below it is out of its arc.
    assert!(refused(&g, 1, "shoot ZW T1").contains("within its weapon's 120° arc (R120)"));
    s.units[2].facing = 270;
    s.units[2].at = Pt::new(290, 291);
    let mut g = game(&s, &[6]);
    play(&mut g, 0, "move T1 RH.1 RH.2");
    let ev = play(&mut g, 1, "shoot ZW T1");
    assert!(
        modifiers(&ev).is_empty(),
        "touching the window: no modifier (R118)"
    );
}

#[test]
fn r139_a_unit_destroyed_indoors_is_returned_to_its_space_from_a_linked_one() {
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 230, 184),
        unit("M1", "lg_medic", 0, 260, 160),
        unit("T4", "lg_trooper", 0, 600, 400),
        unit("K1", "zr_cluster", 1, 290, 300),
        unit("K2", "zr_cluster", 1, 330, 300),
    ]);
    let mut s = s;
    s.elements.push(hut());
    // T1 into space 2 behind the window; K1 and K2 shoot it through the
    // window: two steps. M1 comes in to space 1, linked: T1 returned.
    let mut g = game(&s, &[6, 6]);
    play(&mut g, 0, "move T1 RH.1 RH.2");
    play(&mut g, 1, "shoot K1 T1");
    play(&mut g, 0, "move T4");
    play(&mut g, 1, "shoot K2 T1");
    assert!(!g.units()[0].alive);
    let ev = play(&mut g, 0, "heal M1 T1 230,184 RH.1");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Cared { patient: 0, .. }))
    );
    assert_eq!(g.units()[0].inside, Some((0, 1)));
    assert!(g.units()[0].alive);
}

#[test]
fn r139_a_destroyed_vehicle_is_returned_naming_no_marker() {
    // The walker's two locomotion hits in one turn from two spitters.
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("E1", "lg_engineer", 0, 336, 100),
        unit("S1", "zr_spitter", 1, 300, 400),
        unit("S2", "zr_spitter", 1, 200, 400),
    ]);
    // Each template: W1's attack (6, a step), its location (3: L), then
    // E1's (1, missed); the second L destroys it.
    let mut g = game(&s, &[6, 3, 1, 6, 4, 1]);
    play(&mut g, 0, "move W1");
    play(&mut g, 1, "shoot S1 W1");
    play(&mut g, 0, "move E1");
    play(&mut g, 1, "shoot S2 W1");
    assert!(!g.units()[0].alive);
    // Turn 2: E1, a turn late.
    next_turn(&mut g);
    assert!(refused(&g, 0, "repair E1 W1 L").contains("naming no marker (not L) (R139)"));
    assert!(refused(&g, 0, "repair E1 W1").contains("was not destroyed this turn"));
}

#[test]
fn r117_spaces_hold_a_base_inside_their_element_and_apart() {
    let mut s = setup(vec![
        unit("T1", "lg_trooper", 0, 100, 100),
        unit("K1", "zr_cluster", 1, 900, 500),
    ]);
    let mut h = hut();
    h.spaces = vec![Pt::new(210, 230), Pt::new(230, 230)];
    h.openings[0].behind = vec![0, 0];
    s.elements.push(h);
    let e = s.check().unwrap_err().to_string();
    assert!(e.contains("buildings[0].spaces[0]: the space at 210,230 is not wholly inside the element Relay hut"), "{e}");
    assert!(
        e.contains(
            "buildings[0].spaces[1]: the space at 230,230 overlaps space 1 of Relay hut (R117)"
        ),
        "{e}"
    );
    assert!(
        e.contains(
            "buildings[0].openings[0].behind: a space is listed twice behind one opening (R117)"
        ),
        "{e}"
    );
}

#[test]
fn r140_units_board_a_transport_ride_it_and_leave_from_a_spot_in_contact() {
    // The Vega (Transport 3) at 300,300; K1 and K2 beside it.
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("T1", "lg_trooper", 0, 600, 100),
        unit("V1", "zr_vega", 1, 300, 300),
        unit("K1", "zr_cluster", 1, 300, 400),
        unit("K2", "zr_cluster", 1, 420, 300),
    ]);
    let mut g = game(&s, &[]);
    play(&mut g, 0, "move T1");
    // Not in contact where it ends: refused.
    assert!(refused(&g, 1, "move K1 300,360 V1").contains("not in contact with V1"));
    let ev = play(&mut g, 1, "move K1 300,334 V1");
    assert!(ev.contains(&Event::Boarded {
        unit: 3,
        vehicle: 2
    }));
    assert_eq!(g.units()[3].aboard, Some(2));
    // Aboard, it is no target and blocks nothing (R140).
    let e = refused(&g, 0, "shoot W1 K1");
    assert!(
        e.contains("K1 is aboard V1: a carried unit is no target"),
        "{e}"
    );
    play(&mut g, 0, "move W1");
    play(&mut g, 1, "move K2 346,300 V1");
    // Turn 2: the Vega drives; those aboard go with it.
    play(&mut g, 1, "move V1 300,420");
    assert_eq!(g.units()[3].at, Pt::new(300, 420));
    assert_eq!(g.units()[4].at, Pt::new(300, 420));
    // K1 leaves from a spot in contact, then walks on.
    assert!(refused(&g, 1, "move K1 300,500").contains("not in contact with it"));
    assert!(
        refused(&g, 1, "shoot K1 W1")
            .contains("K1 is aboard V1: it leaves before it does anything else")
    );
    play(&mut g, 1, "move K1 300,454 300,500");
    assert_eq!(g.units()[3].aboard, None);
    assert_eq!(g.units()[3].at, Pt::new(300, 500));
}

#[test]
fn r125_r140_a_carried_unit_s_location_steps_the_owner_s_pick_and_a_wreck_sets_them_down() {
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("T1", "lg_trooper", 0, 600, 100),
        unit("V1", "zr_vega", 1, 300, 300),
        unit("K1", "zr_cluster", 1, 300, 335),
        unit("K2", "zr_cluster", 1, 346, 300),
    ]);
    // W1 at V1: 5 + 3 = 8 against 8, a step; the location a 2: C, with
    // two aboard: the Zirl pick K2, who turns to its damaged side.
    let mut g = game(&s, &[5, 2, 6, 6, 3, 6]);
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "move K1 V1");
    play(&mut g, 0, "move W1");
    play(&mut g, 1, "move K2 V1");
    play(&mut g, 1, "move V1");
    // Turn 2: K1 stays aboard; W1 fires.
    play(&mut g, 1, "move K1");
    let ev = play(&mut g, 0, "shoot W1 V1");
    assert!(ev.contains(&Event::PickOwed { vehicle: 2 }));
    assert_eq!(g.owing(), Owing::One(1), "the Zirl owe the pick");
    assert!(refused(&g, 0, "move T1").contains("Zirl owes the pick of the unit aboard V1"));
    assert!(refused(&g, 1, "pick T1").contains("T1 is not aboard V1"));
    play(&mut g, 1, "pick K2");
    assert!(g.units()[4].damaged());
    // The Orion's A1 lays a blue missile's small template on the Vega:
    // 6 + 4 = 10, a step, its location E (a 6); next turn E again (a 5):
    // a wreck. Its passengers are set down in contact and attacked at +0:
    // K1 a 6 (damaged), K2 a 1.
    let mut s2 = s.clone();
    s2.units[0].data = "lg_orion".into();
    s2.units[0].facing = 90;
    let mut g = game(&s2, &[6, 6, 6, 5, 6, 1]);
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "move K1 V1");
    play(&mut g, 0, "move W1");
    play(&mut g, 1, "move K2 V1");
    play(&mut g, 1, "move V1");
    // Turn 2.
    play(&mut g, 1, "move K1");
    play(&mut g, 0, "shoot W1 V1");
    play(&mut g, 1, "move K2");
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "move V1");
    // Turn 3, the Legion first.
    let ev = play(&mut g, 0, "shoot W1 V1");
    assert!(ev.contains(&Event::Destroyed {
        unit: 2,
        carcass: true
    }));
    let set_down: Vec<usize> = ev
        .iter()
        .filter_map(|e| match e {
            Event::Unloaded { unit, .. } => Some(*unit),
            _ => None,
        })
        .collect();
    assert_eq!(set_down, [3, 4]);
    assert!(g.units()[3].damaged() && !g.units()[4].damaged());
    for k in [3, 4] {
        let u = &g.units()[k];
        assert_eq!(u.aboard, None);
        let gap = sandtable_frontiers::geometry::gap(&u.shape(), &g.units()[2].shape());
        assert!(
            (0.0..=2.0).contains(&gap),
            "in contact with the wreck: {gap}"
        );
    }
}

#[test]
fn r115_an_oval_ends_on_units_on_a_light_structure_and_pushes_them_off() {
    let wall = rect(TerrainKind::LightStructure, 200, 190, 400, 210);
    let mut s = setup(vec![
        unit("L1", "lg_liberation", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 300, 200),
        unit("K3", "zr_cluster", 1, 600, 300),
    ]);
    s.terrain.push(wall);
    let mut g = game(&s, &[]);
    // K1 on the wall is pushed straight away from the oval's axis until
    // it touches: to 300,223.
    let ev = play(&mut g, 0, "move L1 300,190");
    assert!(ev.contains(&Event::Pushed {
        unit: 1,
        to: Pt::new(300, 223)
    }));
    assert_eq!(g.units()[1].at, Pt::new(300, 223));
    // That spot taken by K2: the free spot in contact nearest instead.
    let mut s2 = s.clone();
    s2.units.push(unit("K2", "zr_cluster", 1, 300, 250));
    let mut g2 = game(&s2, &[]);
    play(&mut g2, 0, "move L1 300,190");
    let k1 = &g2.units()[1];
    let gap = sandtable_frontiers::geometry::gap(&k1.shape(), &g2.units()[0].shape());
    assert!(
        (0.0..=2.0).contains(&gap),
        "in contact with the oval: {gap}"
    );
    assert!(!sandtable_frontiers::geometry::overlaps(
        &k1.shape(),
        &g2.units()[3].shape()
    ));
    // Off a light structure, a unit is not ended on (R114).
    let mut s3 = s.clone();
    s3.terrain.clear();
    let g3 = game(&s3, &[]);
    assert!(refused(&g3, 0, "move L1 300,190").contains("the move ends on K1"));
}

#[test]
fn r140_a_transport_with_deployment_sets_its_passengers_down_along_its_path() {
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 900, 100),
        unit("V1", "zr_vega", 1, 300, 300),
        unit("K1", "zr_cluster", 1, 300, 335),
        unit("K2", "zr_cluster", 1, 600, 300),
    ]);
    let mut g = game(&s, &[]);
    play(&mut g, 0, "move T1");
    play(&mut g, 1, "move K1 V1");
    play(&mut g, 1, "move K2");
    // The Vega drives on and sets K1 down on its way.
    assert!(
        refused(&g, 1, "move V1 300,400 K1@300,460 300,470").contains("not in contact with V1")
    );
    assert!(refused(&g, 1, "move V1 300,400 K2@300,434").contains("K2 is not aboard V1"));
    let ev = play(&mut g, 1, "move V1 300,400 K1@300,434 300,470");
    assert!(ev.contains(&Event::Deployed {
        unit: 2,
        at: Pt::new(300, 434)
    }));
    assert_eq!(g.units()[2].aboard, None);
    assert_eq!(g.units()[1].at, Pt::new(300, 470));
    // A transport without Deployment does not.
    let s = setup(vec![
        unit("L1", "lg_orion", 0, 300, 300),
        unit("K1", "zr_cluster", 1, 600, 300),
    ]);
    let g = game(&s, &[]);
    assert!(refused(&g, 0, "move L1 300,400 T9@300,440").contains("has no Deployment"));
}

#[test]
fn r128_a_template_weapon_with_sight_lays_its_template_on_the_target_and_needs_sight() {
    // The spitter (Indirect) sees the Legion's T1: a large template
    // on T1's centre, no drop (R128); T2 beside it is caught too.
    let s = setup(vec![
        unit("T1", "lg_trooper", 0, 300, 100),
        unit("T2", "lg_trooper", 0, 340, 100),
        unit("SP", "zr_spitter", 1, 300, 400),
    ]);
    let mut g = game(&s, &[1, 1]);
    play(&mut g, 0, "move T1");
    let ev = play(&mut g, 1, "shoot SP T1");
    assert!(ev.contains(&Event::Template {
        at: Pt::new(300, 100),
        diameter: 90
    }));
    assert!(!ev.iter().any(|e| matches!(e, Event::Scattered { .. })));
    assert_eq!(attacks(&ev).len(), 2);
    // A blue missile needs sight: the Orion's A1 behind a hut is refused.
    let mut s = setup(vec![
        unit("O1", "lg_orion", 0, 300, 100),
        unit("K1", "zr_cluster", 1, 300, 400),
    ]);
    s.units[0].facing = 90;
    s.elements.push(block("Shed", 200, 200, 400, 300, 7, 3));
    let g = game(&s, &[]);
    assert!(refused(&g, 0, "shoot O1 K1").contains("no line of sight"));
}

#[test]
fn r125_r138_a_smoke_bomb_is_lost_with_an_e_hit() {
    // The engineer's smoke bomb is an infantry's; the Vega's launcher is
    // a vehicle's, gone with its equipment (R125, R138).
    let s = setup(vec![
        unit("W1", "lg_walker", 0, 300, 100),
        unit("T1", "lg_trooper", 0, 900, 100),
        unit("V1", "zr_vega", 1, 300, 300),
    ]);
    // 5 + 3 = 8 against 8: a step; location 5: E.
    let mut g = game(&s, &[5, 5]);
    let ev = play(&mut g, 0, "shoot W1 V1");
    assert!(ev.iter().any(|e| matches!(
        e,
        Event::LocationHit {
            location: Location::Equipment,
            ..
        }
    )));
    let e = refused(&g, 1, "smoke V1 300,350");
    assert!(e.contains("V1's equipment is hit: no smoke (R125)"), "{e}");
}

#[test]
fn r144_r136_r122_an_anti_tank_weapon_takes_no_long_range_at_heavy_armor() {
    use sandtable_frontiers::crates::Content;
    // The trooper's edge at y 115, the crawler's (40 mm) at 415: 300 mm
    // apart, beyond a ruler (240 mm).
    let mut trooper = unit("T1", "lg_trooper", 0, 100, 100);
    trooper.gear = Some(Content::AntiTank);
    let s = setup(vec![trooper, unit("CR", "zr_crawler", 1, 100, 435)]);
    // 5 + 2 (anti-tank, "-" as +0) and no long range: 7 against Def 7, a
    // step; the location die 3.
    let mut g = game(&s, &[5, 3]);
    let ev = play(&mut g, 0, "shoot T1 CR");
    assert!(
        modifiers(&ev)
            .iter()
            .all(|(why, _)| !why.contains("long range")),
        "a black Missile at heavy armor: {:?}",
        modifiers(&ev)
    );
    let a = attacks(&ev);
    assert_eq!(a.len(), 1);
    assert_eq!((a[0].1, a[0].2, a[0].3, a[0].4), (5, 2, 0, 7));
    assert_eq!(a[0].5, Outcome::Step);
    // At infantry the anti-tank weapon is not used: long range stays.
    let mut trooper = unit("T1", "lg_trooper", 0, 100, 100);
    trooper.gear = Some(Content::AntiTank);
    let s = setup(vec![trooper, unit("K1", "zr_cluster", 1, 100, 430)]);
    let mut g = game(&s, &[1]);
    let ev = play(&mut g, 0, "shoot T1 K1");
    assert!(
        modifiers(&ev)
            .iter()
            .any(|(why, m)| why.contains("long range") && *m == -1)
    );
}
