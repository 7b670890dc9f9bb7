//! One test (or more) for every ruling of the battle, R60-R81 in
//! `rulings/warpspawn.md`, and for each house-rule switch with each of its
//! values. Dice are scripted, so each test says which rolls it forces.

mod common;

use common::*;
use sandtable_warpspawn::{
    Command, Cover, EndReason, EvenRow, Event, HalfRound, MeleeResult, MeleeRows, Outcome, Phase,
    PiecesSetup, RallyLow, Side, Step, Terrain, points_doubled, points_text, ratio_row, validate,
};

fn fired(events: &[Event]) -> (i8, u16, bool) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Fired {
                modifier,
                casualties,
                direct,
                ..
            } => Some((*modifier, *casualties, *direct)),
            _ => None,
        })
        .expect("a shot")
}

fn attacked(events: &[Event]) -> (usize, MeleeResult, Option<Side>, u16) {
    events
        .iter()
        .find_map(|e| match e {
            Event::Attacked {
                row,
                result,
                winner,
                half,
                ..
            } => Some((*row, *result, *winner, *half)),
            _ => None,
        })
        .expect("a melee")
}

// ------------------------------------------------------------------ R60

#[test]
fn r60_a_march_goes_only_to_a_touching_hex() {
    let s = setup(8, 8, vec![p(0, "C3", 5, 0, 0), p(1, "H8", 5, 0, 0)], &[]);
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    // C3 touches B2, B3, C2, C4, D2 and D3 (R60's lists, moved down a row).
    let err = refused(&mut game, "march C3 D4");
    assert_eq!(err.ruling, 69);
    assert_eq!(
        err.to_string(),
        "D4 does not touch C3: a march goes hex to adjacent hex (R69)"
    );
    play(&mut game, &["march C3 D3"]);
    assert_eq!(at(&game, "D3", RED).armed, band(5, 0, 0));
}

#[test]
fn r60_terrain_is_clear_covered_fortified_or_impassable() {
    use Terrain::*;
    let classes: Vec<(Terrain, Cover)> = Terrain::ALL.iter().map(|t| (*t, t.cover())).collect();
    assert_eq!(
        classes,
        [
            (Fields, Cover::Clear),
            (Road, Cover::Clear),
            (Bridge, Cover::Clear),
            (Trees, Cover::Covered),
            (Buildings, Cover::Covered),
            (Bocage, Cover::Covered),
            (LowWall, Cover::Covered),
            (Fort, Cover::Fortified),
            (Trench, Cover::Fortified),
            (Water, Cover::Impassable),
            (River, Cover::Impassable),
            (Mountain, Cover::Impassable),
        ]
    );
}

#[test]
fn r60_pieces_start_in_their_sides_deployment_hexes_and_never_on_impassable_ones() {
    let mut s = setup(
        8,
        8,
        vec![p(0, "C3", 5, 0, 0), p(1, "C4", 5, 0, 0)],
        &[("C4", Terrain::River)],
    );
    s.sides[0].deployment = vec![h("A1")];
    let err = validate(&s).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("pieces[0].at: C3 is not one of Red's deployment hexes (R60)"),
        "{text}"
    );
    assert!(
        text.contains("pieces[1].at: C4 is River, impassable: no piece stands there (R69)"),
        "{text}"
    );
}

// ------------------------------------------------------------------ R61

#[test]
fn r61_points_count_cavalry_at_one_and_a_half_and_the_limit_holds() {
    let entry = PiecesSetup {
        cannon: true,
        ..p(0, "C3", 10, 3, 1)
    };
    // 10 + 4.5 + 3 + 10 = 27.5 points (and 13 men with a gun, over R62's 10).
    let mut s = setup(8, 8, vec![entry, p(1, "H8", 5, 0, 0)], &[]);
    assert_eq!(points_text(points_doubled(&s, 0)), "27.5");
    s.sides[0].points = 27;
    let err = validate(&s).unwrap_err().to_string();
    assert_eq!(
        err,
        "the setup has 2 problems\n  sides[0]: Red spends 27.5 points, over its limit of 27 (R61)\n  pieces[0]: C3 holds 13 armed men, over its limit of 10 with a cannon or baggage (R62)"
    );
    s.pieces[0].infantry = 7;
    s.pieces[0].cavalry = 3;
    s.sides[0].points = 24;
    // 7 + 4.5 + 3 + 10 = 24.5.
    assert_eq!(
        validate(&s).unwrap_err().to_string(),
        "the setup has 1 problem\n  sides[0]: Red spends 24.5 points, over its limit of 24 (R61)"
    );
    s.sides[0].points = 25;
    assert!(validate(&s).is_ok());
    // Red spends 24.5 of 25 (over 90%); Blue 5 of 1000.
    assert_eq!(
        sandtable_warpspawn::warnings(&s),
        ["Blue spends 5 of its 1000 points, under 90% (R61)"]
    );
}

#[test]
fn r61_each_piece_moves_at_its_rate_and_a_cannon_only_with_four_men() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C2", 4, 0, 0),
            p(0, "E2", 0, 4, 1),
            PiecesSetup {
                baggage: true,
                ..p(0, "G2", 0, 0, 0)
            },
            gun(0, "A2", 4),
            p(1, "J8", 5, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    assert_eq!(
        refused(&mut game, "march C2 C3 C4").ruling,
        69,
        "infantry moves 1"
    );
    assert_eq!(
        refused(&mut game, "march G2 G3 G4").ruling,
        69,
        "baggage moves 1"
    );
    assert_eq!(
        refused(&mut game, "march A2 A3 A4").ruling,
        69,
        "a cannon moves 1"
    );
    let err = refused(&mut game, "march A2 A3 cannon inf 3");
    assert_eq!(
        err.to_string(),
        "a cannon moves only with 4 or more armed men of its side moving with it, not 3 (R61)"
    );
    play(
        &mut game,
        &[
            "march E2 E3 E4",
            "march G2 G3",
            "march A2 A3",
            "march C2 C3",
        ],
    );
    assert_eq!(
        at(&game, "E4", RED).armed,
        band(0, 4, 1),
        "cavalry and officers move 2"
    );
    assert!(at(&game, "G3", RED).baggage);
    assert!(at(&game, "A3", RED).cannon);
}

// ------------------------------------------------------------------ R62

#[test]
fn r62_a_hex_holds_twenty_armed_men_or_ten_with_a_cannon_or_baggage() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C2", 15, 0, 0),
            p(0, "C3", 8, 0, 0),
            p(0, "D3", 0, 0, 2),
            gun(0, "G2", 4),
            p(0, "G3", 8, 0, 0),
            PiecesSetup {
                baggage: true,
                ..p(0, "I2", 2, 0, 0)
            },
            gun(0, "I3", 4),
            p(1, "J8", 5, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    let err = refused(&mut game, "march C2 C3 inf 13");
    assert_eq!(
        err.to_string(),
        "C3 would hold 21 armed men: a hex holds at most 20 (R62)"
    );
    play(&mut game, &["march C2 C3 inf 12"]);
    assert_eq!(at(&game, "C3", RED).armed.men.total(), 20, "joined");
    assert_eq!(at(&game, "C2", RED).armed.men.total(), 3, "split");
    // Officers are not men: they join a full hex.
    play(&mut game, &["march D3 C3"]);
    assert_eq!(at(&game, "C3", RED).armed, band(20, 0, 2));
    let err = refused(&mut game, "march G2 G3");
    assert_eq!(
        err.to_string(),
        "G3 would hold 12 armed men: a hex holds at most 10 with a cannon or baggage (R62)"
    );
    let err = refused(&mut game, "march I2 I3");
    assert_eq!(
        err.to_string(),
        "I3 would hold 2 cannon and baggage: one cannon or one baggage a hex (R62)"
    );
    // In setup too.
    let mut bad = setup(8, 8, vec![p(0, "C3", 21, 0, 0), gun(1, "C6", 11)], &[]);
    bad.pieces.push(PiecesSetup {
        baggage: true,
        cannon: true,
        ..p(0, "E3", 4, 0, 0)
    });
    let text = validate(&bad).unwrap_err().to_string();
    assert!(
        text.contains("pieces[0]: C3 holds 21 armed men, over its limit of 20 (R62)"),
        "{text}"
    );
    assert!(
        text.contains(
            "pieces[1]: C6 holds 11 armed men, over its limit of 10 with a cannon or baggage (R62)"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "pieces[2]: E3 holds a cannon and baggage: one cannon or one baggage a hex (R62)"
        ),
        "{text}"
    );
}

// ------------------------------------------------------------------ R63

#[test]
fn r63_officers_die_with_the_last_of_their_men() {
    let s = setup(8, 8, vec![gun(0, "C1", 4), p(1, "C3", 2, 0, 1)], &[]);
    // Range 2, 2 men (-2): a 6 kills 4, and there are only 2.
    let mut game = start(&s, &[6]);
    let said = play(&mut game, &["fire C1 C3"]);
    assert_eq!(
        said[1],
        "2 infantry and 1 officer of Blue in C3 killed; Red scores 5 (R81)"
    );
    assert_eq!(game.vp(RED), 5);
    assert!(game.stack(h("C3"), BLUE).is_none());
}

#[test]
fn r63_officers_baggage_and_a_flag_alone_are_captured_when_a_formation_enters() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C3", 5, 0, 0),
            p(0, "E3", 5, 0, 0),
            p(0, "G3", 5, 0, 0),
            p(0, "I3", 0, 0, 1),
            p(1, "C4", 0, 0, 1),
            PiecesSetup {
                baggage: true,
                ..p(1, "E4", 0, 0, 0)
            },
            PiecesSetup {
                flag: true,
                ..p(1, "G4", 0, 0, 0)
            },
            p(1, "I4", 0, 0, 1),
            p(1, "J8", 5, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    let err = refused(&mut game, "march I3 I4");
    assert_eq!(err.ruling, 63, "an officer alone captures nothing: {err}");
    let said = play(&mut game, &["march C3 C4", "march E3 E4", "march G3 G4"]);
    assert!(
        said.contains(&"Red captures 1 officer as prisoners in C4; scores 5 (R81)".to_owned()),
        "{said:?}"
    );
    assert!(
        said.contains(&"Red captures baggage in E4; scores 5 (R81)".to_owned()),
        "{said:?}"
    );
    assert!(
        said.contains(&"Red captures a flag in G4; scores 20 (R81)".to_owned()),
        "{said:?}"
    );
    assert_eq!(game.vp(RED), 30);
    assert_eq!(at(&game, "C4", RED).prisoners, band(0, 0, 1));
    assert!(at(&game, "E4", RED).baggage, "the baggage is Red's now");
    assert_eq!(at(&game, "G4", RED).flags, 1);
}

// ------------------------------------------------------------------ R64

#[test]
fn r64_a_coin_picks_the_first_player_unless_the_scenario_names_one() {
    let mut s = setup(8, 8, vec![p(0, "C3", 5, 0, 0), p(1, "C6", 5, 0, 0)], &[]);
    s.first_player = None;
    assert_eq!(start(&s, &[2]).active(), RED, "1-3 reads as the first side");
    assert_eq!(start(&s, &[5]).active(), BLUE, "4-6 as the second");
    let out = sandtable_warpspawn::Game::new(&s, sandtable_core::dice::Dice::scripted(vec![]))
        .unwrap_err();
    assert!(out.to_string().contains("first_player"), "{out}");
    s.first_player = Some(1);
    assert_eq!(start(&s, &[]).active(), BLUE);
}

#[test]
fn r64_a_player_turn_is_four_phases_then_the_other_side_plays() {
    let s = setup(8, 8, vec![p(0, "C3", 5, 0, 0), p(1, "C6", 5, 0, 0)], &[]);
    let mut game = start(&s, &[]);
    let mut seen = Vec::new();
    for _ in 0..8 {
        seen.push((game.turn(), game.active(), game.phase()));
        play(&mut game, &["end"]);
    }
    use Phase::*;
    assert_eq!(
        seen,
        [
            (1, RED, Cannonade),
            (1, RED, March),
            (1, RED, Melee),
            (1, RED, Rally),
            (1, BLUE, Cannonade),
            (1, BLUE, March),
            (1, BLUE, Melee),
            (1, BLUE, Rally),
        ]
    );
    assert_eq!(
        (game.turn(), game.active(), game.phase()),
        (2, RED, Cannonade)
    );
}

#[test]
fn r64_the_battle_ends_after_its_game_turns_on_victory_points() {
    let mut s = setup(8, 8, vec![gun(0, "C1", 4), p(1, "C3", 6, 0, 0)], &[]);
    s.turns = 1;
    let mut game = start(&s, &[4]);
    // 4 - 1 (6 men) + 0 (range 2) = 3 killed.
    play(&mut game, &["fire C1 C3", "end", "end", "end", "end"]);
    assert!(
        game.ending().is_none(),
        "Blue's turn of game turn 1 is still to come"
    );
    let said = play(&mut game, &["end", "end", "end", "end"]);
    assert_eq!(game.ending(), Some((Outcome::Won(RED), EndReason::Turns)));
    assert_eq!(
        said.last().unwrap(),
        "the battle ends: the last game turn is over; Red wins on victory points, 3 to 0 (R64, R81)"
    );
    assert_eq!(
        refused(&mut game, "end").to_string(),
        "the battle is over (R64)"
    );
}

#[test]
fn r64_a_player_turn_that_leaves_a_side_with_no_armed_men_ends_the_battle() {
    let s = setup(8, 8, vec![p(0, "C3", 5, 0, 0), p(1, "C8", 0, 0, 1)], &[]);
    let mut game = start(&s, &[]);
    play(&mut game, &["end", "end", "end", "end"]);
    assert_eq!(
        game.ending(),
        Some((Outcome::Draw, EndReason::NoArmedMen(BLUE))),
        "equal points are a draw"
    );
}

#[test]
fn r64_the_target_owner_chooses_its_casualties_and_nobody_else_acts_meanwhile() {
    let s = setup(8, 8, vec![gun(0, "C1", 4), p(1, "C3", 5, 6, 0)], &[]);
    // 11 men (0), range 2 (0): a 3 kills 3.
    let mut game = start(&s, &[3]);
    play(&mut game, &["fire C1 C3"]);
    assert_eq!(game.decider(), Some(BLUE), "Blue owes the choice");
    let summary = game.summary();
    let awaiting = summary.awaiting.expect("a choice is awaited");
    assert_eq!(
        (awaiting.player.as_str(), awaiting.choice.as_str()),
        ("Blue", "casualties")
    );
    let err =
        sandtable_core::game::GameState::check(&game, sandtable_core::game::Seat(0), &Command::End)
            .unwrap_err();
    assert!(
        err.to_string().starts_with("Blue owes a decision first"),
        "{err}"
    );
    let listed: Vec<String> = game
        .legal_commands(BLUE)
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(
        listed,
        [
            "lose C3 cav 3",
            "lose C3 inf 1 cav 2",
            "lose C3 inf 2 cav 1",
            "lose C3 inf 3"
        ]
    );
    assert_eq!(
        refused(&mut game, "lose C3 inf 2").ruling,
        64,
        "three die, not two"
    );
    play(&mut game, &["lose C3 cav 3"]);
    assert_eq!(at(&game, "C3", BLUE).armed, band(5, 3, 0));
    assert_eq!(game.decider(), Some(RED));
}

#[test]
fn r64_a_choice_with_one_possible_answer_is_made_without_asking() {
    let s = setup(8, 8, vec![gun(0, "C1", 4), p(1, "C3", 11, 0, 0)], &[]);
    let mut game = start(&s, &[3]);
    play(&mut game, &["fire C1 C3"]);
    assert!(game.owed().is_none(), "only infantry: nothing to choose");
    assert_eq!(at(&game, "C3", BLUE).armed, band(8, 0, 0));
}

// ------------------------------------------------------------------ R65

#[test]
fn r65_a_cannon_fires_once_a_cannonade_with_four_armed_men() {
    let s = setup(
        8,
        10,
        vec![gun(0, "C1", 4), p(1, "C5", 8, 0, 0), p(1, "C9", 8, 0, 0)],
        &[],
    );
    let mut game = start(&s, &[3, 3]);
    assert_eq!(
        refused(&mut game, "fire C1 C9").to_string(),
        "C9 is 8 hexes from C1: a cannon reaches 6 (R65)"
    );
    play(&mut game, &["fire C1 C5"]);
    assert_eq!(
        refused(&mut game, "fire C1 C5").to_string(),
        "the cannon in C1 has fired this turn (R65)"
    );
    // Red marches one man off: the cannon has 3 and does not fire next turn.
    let s = setup(8, 10, vec![gun(0, "C1", 4), p(1, "C5", 8, 0, 0)], &[]);
    let mut game = start(&s, &[]);
    play(&mut game, &["end"]);
    play(
        &mut game,
        &[
            "march C1 C2 inf 1",
            "end",
            "end",
            "end",
            "end",
            "end",
            "end",
            "end",
        ],
    );
    assert_eq!(
        refused(&mut game, "fire C1 C5").to_string(),
        "the cannon in C1 has 3 armed men with it: it fires only with 4 or more (R65)"
    );
}

#[test]
fn r65_cannon_range_is_a_house_rule_from_1_to_6() {
    for range in 1..=6u8 {
        let mut s = setup(8, 10, vec![gun(0, "C1", 4), p(1, "C5", 8, 0, 0)], &[]);
        s.switches.cannon_range = range;
        let game = start(&s, &[3]);
        // C5 is 4 hexes away.
        assert_eq!(
            game.check_as(RED, &"fire C1 C5".parse().unwrap()).is_ok(),
            range >= 4,
            "range {range}"
        );
    }
    let mut s = setup(8, 10, vec![gun(0, "C1", 4), p(1, "C5", 8, 0, 0)], &[]);
    s.switches.cannon_range = 7;
    assert!(
        validate(&s)
            .unwrap_err()
            .to_string()
            .contains("a cannon's range is 1 to 6 hexes, not 7 (R65)")
    );
}

#[test]
fn r65_four_men_infantry_first_or_as_named_are_marked_as_crew_and_stay() {
    let s = setup(
        8,
        10,
        vec![
            PiecesSetup {
                cannon: true,
                ..p(0, "C1", 3, 2, 0)
            },
            p(1, "C5", 8, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[3]);
    play(&mut game, &["fire C1 C5"]);
    assert_eq!(at(&game, "C1", RED).marks.crew, men(3, 1), "infantry first");
    assert_eq!(game.summary().pieces[0].crew_marked, 4);
    play(&mut game, &["end"]);
    let err = refused(&mut game, "march C1 C2 inf 1");
    assert_eq!(err.ruling, 69, "{err}");
    assert_eq!(
        refused(&mut game, "march C1 C2 cannon cav 1").ruling,
        70,
        "the cannon stays"
    );
    play(&mut game, &["march C1 C2 cav 1"]);

    let mut game = start(&s, &[3]);
    assert_eq!(
        refused(&mut game, "fire C1 C5 crew inf 3").ruling,
        65,
        "a crew is four"
    );
    assert_eq!(
        refused(&mut game, "fire C1 C5 crew cav 3 inf 1").ruling,
        65,
        "there are two cavalry"
    );
    play(&mut game, &["fire C1 C5 crew cav 2 inf 2"]);
    assert_eq!(at(&game, "C1", RED).marks.crew, men(2, 2));
    // Marks last until the end of the player turn (R64).
    play(&mut game, &["end", "end", "end", "end"]);
    assert_eq!(at(&game, "C1", RED).marks.crew, men(0, 0));
}

#[test]
fn r65_a_cannon_fires_at_a_formation_or_at_routers_as_the_firer_names() {
    let s = setup(8, 10, vec![gun(0, "C1", 4), p(1, "C5", 8, 0, 0)], &[]);
    let mut game = start(&s, &[3]);
    assert_eq!(
        refused(&mut game, "fire C1 C5 routers").to_string(),
        "Blue has no routers in C5 (R65)"
    );
    assert_eq!(refused(&mut game, "fire C1 C6").ruling, 65, "nobody there");
}

// ------------------------------------------------------------------ R66

fn line_game(terrain: &[(&str, Terrain)], extra: Vec<PiecesSetup>) -> sandtable_warpspawn::Game {
    // C4 to D5 runs along the side between C5 and D4.
    let mut pieces = vec![gun(0, "C4", 4), p(1, "D5", 11, 0, 0)];
    pieces.extend(extra);
    start(&setup(8, 8, pieces, terrain), &[4, 6])
}

#[test]
fn r66_a_line_along_a_hexside_is_blocked_by_either_hex() {
    let mut game = line_game(&[], vec![]);
    assert!(
        fired(&events(&mut game, "fire C4 D5")).2,
        "nothing between: direct"
    );
    for blocker in ["C5", "D4"] {
        let mut game = line_game(&[(blocker, Terrain::Trees)], vec![]);
        let (modifier, _, direct) = fired(&events(&mut game, "fire C4 D5"));
        assert!(!direct, "trees in {blocker}: indirect");
        assert_eq!(modifier, -1, "indirect -1, range 2 and 11 men 0");
    }
}

#[test]
fn r66_only_cover_fortifications_mountains_and_friends_make_fire_indirect() {
    for (terrain, direct) in [
        (Terrain::Water, true),
        (Terrain::River, true),
        (Terrain::Road, true),
        (Terrain::Mountain, false),
        (Terrain::Trench, false),
        (Terrain::Bocage, false),
    ] {
        let mut game = line_game(&[("C5", terrain)], vec![]);
        assert_eq!(
            fired(&events(&mut game, "fire C4 D5")).2,
            direct,
            "{terrain}"
        );
    }
    // An enemy formation on the line does not matter; a friendly one does.
    let mut game = line_game(&[], vec![p(1, "C5", 3, 0, 0)]);
    assert!(fired(&events(&mut game, "fire C4 D5")).2);
    let mut game = line_game(&[], vec![p(0, "C5", 3, 0, 0)]);
    assert!(!fired(&events(&mut game, "fire C4 D5")).2);
    // Into and out of cover is direct.
    let mut game = line_game(
        &[("C4", Terrain::Trees), ("D5", Terrain::Buildings)],
        vec![],
    );
    assert!(fired(&events(&mut game, "fire C4 D5")).2);
}

// ------------------------------------------------------------------ R67

#[test]
fn r67_the_seeds_modifier_list_line_by_line() {
    // (target men, range, target terrain, trees between, modifier): each line
    // of the seed's list, with the others at 0.
    let lines: [(u16, u16, Terrain, bool, i8, &str); 17] = [
        (
            11,
            2,
            Terrain::Fields,
            true,
            -1,
            "-1 indirect fire over terrain that is not clear",
        ),
        (1, 2, Terrain::Fields, false, -2, "-2 troop density 1-5"),
        (5, 2, Terrain::Fields, false, -2, "-2 troop density 1-5"),
        (6, 2, Terrain::Fields, false, -1, "-1 troop density 6-10"),
        (10, 2, Terrain::Fields, false, -1, "-1 troop density 6-10"),
        (
            11,
            2,
            Terrain::Fields,
            false,
            0,
            "troop density 11-15: no modifier",
        ),
        (
            15,
            3,
            Terrain::Fields,
            false,
            0,
            "troop density 11-15, range 3: no modifier",
        ),
        (16, 2, Terrain::Fields, false, 1, "+1 troop density 16-20"),
        (20, 2, Terrain::Fields, false, 1, "+1 troop density 16-20"),
        (11, 1, Terrain::Fields, false, 1, "+1 range 1"),
        (11, 4, Terrain::Fields, false, -1, "-1 range 4"),
        (11, 5, Terrain::Fields, false, -2, "-2 range 5"),
        (11, 6, Terrain::Fields, false, -3, "-3 range 6"),
        (
            11,
            2,
            Terrain::Trees,
            false,
            -1,
            "-1 target in covered terrain",
        ),
        (
            11,
            2,
            Terrain::LowWall,
            false,
            -1,
            "-1 target in covered terrain",
        ),
        (
            11,
            2,
            Terrain::Fort,
            false,
            -2,
            "-2 target in fortified terrain",
        ),
        (
            11,
            2,
            Terrain::Trench,
            false,
            -2,
            "-2 target in fortified terrain",
        ),
    ];
    for (target_men, range, terrain, trees, modifier, line) in lines {
        let target = format!("C{}", 1 + range);
        let mut terrain_list = vec![(target.as_str(), terrain)];
        if trees {
            terrain_list.push(("C2", Terrain::Trees));
        }
        let s = setup(
            8,
            10,
            vec![gun(0, "C1", 4), p(1, &target, target_men, 0, 0)],
            &terrain_list,
        );
        let mut game = start(&s, &[5]);
        let (m, n, _) = fired(&events(&mut game, &format!("fire C1 {target}")));
        assert_eq!(m, modifier, "{line}");
        assert_eq!(
            i32::from(n),
            (5 + i32::from(m)).max(0).min(i32::from(target_men)),
            "{line}"
        );
    }
}

#[test]
fn r67_casualties_are_at_least_0_and_a_natural_6_kills_at_least_one() {
    // 1 man at range 6: -2 -3 = -5.
    for (roll, killed) in [(1, 0), (5, 0), (6, 1)] {
        let s = setup(8, 10, vec![gun(0, "C1", 4), p(1, "C7", 1, 0, 0)], &[]);
        let mut game = start(&s, &[roll]);
        assert_eq!(
            fired(&events(&mut game, "fire C1 C7")).1,
            killed,
            "roll {roll}"
        );
    }
}

#[test]
fn r67_prisoners_are_never_hit() {
    // Red beats Blue in C4 (3:1, roll 1: V; fate 1: surrender), advances with
    // six and holds two prisoners there; Blue's gun in C8 then fires at C4.
    let s = setup(
        8,
        10,
        vec![p(0, "C3", 12, 0, 0), p(1, "C4", 4, 0, 0), gun(1, "C8", 4)],
        &[],
    );
    let mut game = start(&s, &[1, 1, 6]);
    play(
        &mut game,
        &[
            "end",
            "end",
            "attack C4 from C3",
            "advance C4 from C3 inf 6",
            "end",
            "end",
        ],
    );
    assert_eq!(at(&game, "C4", RED).prisoners, band(2, 0, 0));
    // 6 men (-1), range 4 (-1): a 6 kills 4 of Red's six.
    play(&mut game, &["fire C8 C4"]);
    let c4 = at(&game, "C4", RED);
    assert_eq!((c4.armed, c4.prisoners), (band(2, 0, 0), band(2, 0, 0)));
}

// ------------------------------------------------------------------ R68

#[test]
fn r68_fire_over_friends_hits_each_on_1_or_2_nearest_first() {
    let s = setup(
        8,
        10,
        vec![
            gun(0, "C1", 4),
            p(0, "C2", 5, 0, 0),
            p(0, "C3", 5, 0, 0),
            p(1, "C5", 11, 0, 0),
        ],
        &[],
    );
    // Shot 5 -1 (range 4) -1 (indirect) = 3; C2 rolls 1 and loses 2; C3
    // rolls 5, no harm.
    let mut game = start(&s, &[5, 1, 2, 5]);
    let said = play(&mut game, &["fire C1 C5"]);
    assert_eq!(
        said,
        [
            "the cannon in C1 fires indirectly at the formation in C5, 4 hexes away: rolls 5 -2 = 3 casualties (R67); crew marked: inf 4 (R65)",
            "fire over the formation in C2: rolls 1, a hit: it loses 2 men (R68)",
            "fire over the formation in C3: rolls 5, no harm (R68)",
            "3 infantry of Blue in C5 killed; Red scores 3 (R81)",
            "2 infantry of Red in C2 killed; Blue scores 2 (R81)",
        ]
    );
    assert_eq!(
        (game.vp(RED), game.vp(BLUE)),
        (3, 2),
        "friendly fire scores for the enemy (R81)"
    );
    assert_eq!(game.state().dice.left(), Some(0), "four dice rolled");
}

#[test]
fn r68_the_firer_chooses_which_of_its_own_men_die() {
    let s = setup(
        8,
        10,
        vec![gun(0, "C1", 4), p(0, "C2", 3, 3, 0), p(1, "C4", 11, 0, 0)],
        &[],
    );
    let mut game = start(&s, &[4, 2, 4]);
    play(&mut game, &["fire C1 C4"]);
    let Some(Step::Lose { side, count, .. }) = game.owed().copied() else {
        panic!("a loss is owed: {:?}", game.owed());
    };
    assert_eq!((side, count), (RED, 4));
    play(&mut game, &["lose C2 inf 3 cav 1"]);
    assert_eq!(at(&game, "C2", RED).armed, band(0, 2, 0));
}

// ------------------------------------------------------------------ R69

#[test]
fn r69_each_piece_marches_once_never_into_impassable_hexes_or_enemy_men() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C2", 6, 0, 0),
            p(0, "E2", 6, 0, 0),
            p(0, "G2", 6, 0, 0),
            p(1, "G3", 4, 0, 0),
            p(1, "J8", 2, 0, 0),
        ],
        &[("E3", Terrain::Water)],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    assert_eq!(
        refused(&mut game, "march E2 E3").to_string(),
        "E3 is Water: no piece enters impassable terrain (R69)"
    );
    assert_eq!(
        refused(&mut game, "march G2 G3").ruling,
        69,
        "enemy armed men"
    );
    play(&mut game, &["march C2 C3 inf 4"]);
    let err = refused(&mut game, "march C3 C4");
    assert!(
        err.to_string().contains("who marched this phase (R69)"),
        "{err}"
    );
    play(&mut game, &["march C2 C3"]);
    assert_eq!(at(&game, "C3", RED).armed.men.total(), 6);
}

#[test]
fn r69_cavalry_enters_cover_only_as_the_first_hex_and_stops_there() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C2", 0, 4, 0),
            p(0, "E2", 0, 4, 0),
            p(0, "G2", 0, 0, 1),
            p(1, "J8", 2, 0, 0),
        ],
        &[
            ("C3", Terrain::Trees),
            ("E4", Terrain::Fort),
            ("G3", Terrain::Trees),
        ],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    let err = refused(&mut game, "march C2 C3 C4");
    assert_eq!(
        err.to_string(),
        "C3 is Trees: cavalry's move ends on entering covered or fortified terrain (R69)"
    );
    let err = refused(&mut game, "march E2 E3 E4");
    assert_eq!(
        err.to_string(),
        "E4 is Fort: cavalry enters covered or fortified terrain only as the first hex of its move (R69)"
    );
    play(&mut game, &["march C2 C3", "march G2 G3 G4"]);
    assert_eq!(
        at(&game, "G4", RED).armed,
        band(0, 0, 1),
        "an officer is not cavalry"
    );
}

#[test]
fn r69_entering_a_hex_of_lone_enemy_pieces_captures_them_and_ends_the_move() {
    let s = setup(
        10,
        8,
        vec![
            p(0, "C2", 0, 4, 0),
            p(1, "C3", 0, 0, 1),
            p(1, "J8", 2, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    let err = refused(&mut game, "march C2 C3 C4");
    assert_eq!(
        err.to_string(),
        "entering C3 captures what is there and ends the move (R69)"
    );
    play(&mut game, &["march C2 C3"]);
    assert_eq!(at(&game, "C3", RED).prisoners, band(0, 0, 1));
}

// ------------------------------------------------------------------ R70

/// Red's 12 beat Blue's 4 in C4 (3:1, roll 1: V; fate 1: surrender); Red
/// advances six and holds two prisoners in C4; then Blue's turn passes and
/// Red's march begins.
fn red_holds_prisoners() -> sandtable_warpspawn::Game {
    let s = setup(
        8,
        10,
        vec![
            p(0, "C3", 12, 0, 0),
            p(1, "C4", 4, 0, 0),
            p(1, "H9", 5, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[1, 1]);
    play(
        &mut game,
        &[
            "end",
            "end",
            "attack C4 from C3",
            "advance C4 from C3 inf 6",
            "end",
            "end",
        ],
    );
    play(&mut game, &["end", "end", "end", "end", "end"]);
    assert_eq!((game.active(), game.phase()), (RED, Phase::March));
    game
}

#[test]
fn r70_prisoners_move_one_hex_only_with_men_of_their_holders() {
    let mut game = red_holds_prisoners();
    assert_eq!(
        refused(&mut game, "march C4 C5 prisoners 2").to_string(),
        "prisoners move only together with men of the side holding them (R70)"
    );
    assert_eq!(
        refused(&mut game, "march C4 C5 C6 inf 1 prisoners 2").ruling,
        69,
        "1 hex"
    );
    play(&mut game, &["march C4 C5 inf 1 prisoners 2"]);
    assert_eq!(at(&game, "C5", RED).prisoners, band(2, 0, 0));
}

#[test]
fn r70_routers_never_march() {
    let mut game = red_routs();
    // They roll (5 -1: they flee on), and the turn ends.
    play(&mut game, &["rally D2 with E2", "end"]);
    // Blue's turn passes; Red's march: the routers in D2 stay.
    play(&mut game, &["end", "end", "end", "end", "end"]);
    assert_eq!((game.active(), game.phase()), (RED, Phase::March));
    assert_eq!(at(&game, "D2", RED).routing, band(3, 0, 1));
    let err = refused(&mut game, "march D2 D3");
    assert_eq!(err.ruling, 70, "{err}");
}

// ------------------------------------------------------------------ R71

#[test]
fn r71_a_flag_moves_with_a_group_at_most_two_hexes_a_turn() {
    let s = setup(
        10,
        8,
        vec![
            PiecesSetup {
                flag: true,
                ..p(0, "C2", 0, 4, 0)
            },
            p(0, "C4", 3, 0, 0),
            p(1, "J8", 2, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::March);
    assert_eq!(
        refused(&mut game, "march C2 C3 flag").to_string(),
        "a flag has no move of its own: it moves with a group leaving its hex (R71)"
    );
    play(&mut game, &["march C2 C3 C4 cav 4 flag"]);
    assert_eq!(at(&game, "C4", RED).flags, 1);
    let err = refused(&mut game, "march C4 C5 inf 3 flag");
    assert_eq!(
        err.to_string(),
        "the flag in C4 has moved 2 hexes this turn: a flag moves at most 2 (R71)"
    );
    play(&mut game, &["march C4 C5 inf 3"]);
}

// ------------------------------------------------------------------ R72

#[test]
fn r72_attacks_are_declared_one_at_a_time_each_formation_once() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 0),
            p(0, "B3", 6, 0, 0),
            p(0, "D3", 8, 0, 0),
            p(1, "C4", 10, 0, 0),
        ],
        &[],
    );
    // 12 against 10: the even row; roll 3: B, a stalemate, both lose 5.
    let mut game = start(&s, &[3]);
    to_phase(&mut game, Phase::Melee);
    // C3, B3 and D3 each alone are weaker than 10 and have no officer
    // (R73): the four sets of two or three, and end.
    let listed = game.legal_commands(RED).len();
    assert_eq!(listed, 5);
    events(&mut game, "attack C4 from C3 B3");
    play(&mut game, &["lose B3 inf 3"]);
    assert_eq!(
        refused(&mut game, "attack C4 from D3").to_string(),
        "the formation in C4 was attacked this phase: a formation is attacked at most once (R72)"
    );
    assert_eq!(refused(&mut game, "attack C4 from B3").ruling, 72);
}

#[test]
fn r72_crews_marked_this_turn_do_not_fight() {
    let s = setup(
        8,
        8,
        vec![gun(0, "C3", 4), p(1, "C4", 3, 0, 0), p(1, "C8", 3, 0, 0)],
        &[],
    );
    let mut game = start(&s, &[3]);
    play(&mut game, &["fire C3 C8", "end", "end"]);
    assert_eq!(
        refused(&mut game, "attack C4 from C3").to_string(),
        "the men in C3 are all marked crews this turn: crews do not attack (R65) (R72)"
    );
}

// ------------------------------------------------------------------ R73

#[test]
fn r73_defenders_count_half_again_in_cover_double_in_forts_and_the_weaker_needs_an_officer() {
    for (terrain, attackers, allowed) in [
        (Terrain::Fields, 10, true),
        (Terrain::Trees, 14, false),
        (Terrain::Trees, 15, true),
        (Terrain::Fort, 19, false),
        (Terrain::Fort, 20, true),
    ] {
        let s = setup(
            8,
            8,
            vec![p(0, "C3", attackers, 0, 0), p(1, "C4", 10, 0, 0)],
            &[("C4", terrain)],
        );
        let mut game = start(&s, &[]);
        to_phase(&mut game, Phase::Melee);
        let ok = game.check_as(RED, &"attack C4 from C3".parse().unwrap());
        assert_eq!(
            ok.is_ok(),
            allowed,
            "{attackers} against 10 in {terrain}: {ok:?}"
        );
        if let Err(e) = ok {
            assert_eq!(e.ruling, 73);
        }
        let s = setup(
            8,
            8,
            vec![p(0, "C3", attackers, 0, 1), p(1, "C4", 10, 0, 0)],
            &[("C4", terrain)],
        );
        let mut game = start(&s, &[]);
        to_phase(&mut game, Phase::Melee);
        assert!(
            game.check_as(RED, &"attack C4 from C3".parse().unwrap())
                .is_ok(),
            "an officer lets the weaker attack"
        );
    }
}

// ------------------------------------------------------------------ R74

#[test]
fn r74_the_ratio_picks_the_row() {
    // Strengths doubled.
    assert_eq!(ratio_row(40, 10), 0, "4:1");
    assert_eq!(ratio_row(39, 10), 1, "3.9:1 is 3:1");
    assert_eq!(ratio_row(30, 10), 1);
    assert_eq!(ratio_row(29, 10), 2);
    assert_eq!(ratio_row(20, 10), 2, "2:1");
    assert_eq!(ratio_row(15, 10), 3, "3:2");
    assert_eq!(ratio_row(10, 15), 3, "either way up");
    assert_eq!(ratio_row(14, 10), 4, "below 3:2, the even row");
    assert_eq!(ratio_row(10, 10), 4);
}

#[test]
fn r74_h_and_l_name_the_higher_and_the_lower_strength() {
    // Red 6 with an officer attack Blue's 10 in the open: 20:12 is 3:2, H H H
    // B L L: a 1 is H (Blue, the higher, wins); a 5 is L (Red wins).
    for (roll, winner) in [(1, BLUE), (5, RED)] {
        let s = setup(8, 8, vec![p(0, "C3", 6, 0, 1), p(1, "C4", 10, 0, 0)], &[]);
        let mut game = start(&s, &[roll, 5]);
        to_phase(&mut game, Phase::Melee);
        let (row, _, won, _) = attacked(&events(&mut game, "attack C4 from C3"));
        assert_eq!((row, won), (3, Some(winner)), "roll {roll}");
    }
}

#[test]
fn r74_v_the_winner_loses_no_men() {
    // 20 against 5: 4:1, a 1 is V.
    let s = setup(8, 8, vec![p(0, "C3", 20, 0, 0), p(1, "C4", 5, 0, 0)], &[]);
    let mut game = start(&s, &[1, 3]);
    to_phase(&mut game, Phase::Melee);
    let (row, result, won, half) = attacked(&events(&mut game, "attack C4 from C3"));
    assert_eq!((row, result, won, half), (0, MeleeResult::V, Some(RED), 2));
    assert_eq!(at(&game, "C3", RED).armed.men.total(), 20, "V: no losses");
}

// ------------------------------------------------------------------ R75

#[test]
fn r75_the_reconstructed_even_row_reads_a_a_b_d_d_d() {
    assert_eq!(
        MeleeRows::default().0[4],
        [
            MeleeResult::A,
            MeleeResult::A,
            MeleeResult::B,
            MeleeResult::D,
            MeleeResult::D,
            MeleeResult::D
        ]
    );
    for (roll, result, winner) in [
        (1, MeleeResult::A, Some(RED)),
        (2, MeleeResult::A, Some(RED)),
        (3, MeleeResult::B, None),
        (4, MeleeResult::D, Some(BLUE)),
        (6, MeleeResult::D, Some(BLUE)),
    ] {
        let s = setup(8, 8, vec![p(0, "C3", 10, 0, 0), p(1, "C4", 10, 0, 0)], &[]);
        let mut game = start(&s, &[roll, 5]);
        to_phase(&mut game, Phase::Melee);
        let (row, r, won, _) = attacked(&events(&mut game, "attack C4 from C3"));
        assert_eq!((row, r, won), (4, result, winner), "roll {roll}");
    }
}

#[test]
fn r75_switch_even_row_refused_allows_no_attack_below_3_to_2() {
    let mut s = setup(
        8,
        8,
        vec![
            p(0, "C3", 10, 0, 0),
            p(1, "C4", 10, 0, 0),
            p(0, "E3", 15, 0, 0),
            p(1, "E4", 10, 0, 0),
        ],
        &[],
    );
    s.switches.even_row = EvenRow::Refused;
    let mut game = start(&s, &[]);
    to_phase(&mut game, Phase::Melee);
    assert_eq!(
        refused(&mut game, "attack C4 from C3").to_string(),
        "below 3:2 no attack is allowed (house rule even_row: refused) (R75)"
    );
    assert!(
        game.check_as(RED, &"attack E4 from E3".parse().unwrap())
            .is_ok(),
        "3:2 is allowed"
    );
}

#[test]
fn r75_switch_melee_rows_is_the_table_as_data() {
    let mut s = setup(8, 8, vec![p(0, "C3", 10, 0, 0), p(1, "C4", 10, 0, 0)], &[]);
    s.switches.melee_rows = MeleeRows([[MeleeResult::L; 6]; 5]);
    let mut game = start(&s, &[1, 5]);
    to_phase(&mut game, Phase::Melee);
    // Equal strengths: the attackers count as the higher, so L is Blue's.
    let (_, result, won, _) = attacked(&events(&mut game, "attack C4 from C3"));
    assert_eq!((result, won), (MeleeResult::L, Some(BLUE)));
}

// ------------------------------------------------------------------ R76

#[test]
fn r76_half_the_smaller_force_counts_men_not_strength_rounded_by_the_switch() {
    for (round, attackers, defenders, half) in [
        (HalfRound::Down, 20, 9, 4),
        (HalfRound::Up, 20, 9, 5),
        (HalfRound::Down, 9, 20, 4),
        (HalfRound::Up, 8, 20, 4),
    ] {
        // Defenders in a fort: strength doubled, the half still counts men.
        let mut s = setup(
            8,
            8,
            vec![p(0, "C3", attackers, 0, 1), p(1, "C4", defenders, 0, 0)],
            &[("C4", Terrain::Fort)],
        );
        s.switches.half_round = round;
        let mut game = start(&s, &[3, 5]);
        to_phase(&mut game, Phase::Melee);
        assert_eq!(
            attacked(&events(&mut game, "attack C4 from C3")).3,
            half,
            "{round:?} {attackers} {defenders}"
        );
    }
}

#[test]
fn r76_a_stalemate_costs_both_sides_the_half_with_no_roll_and_no_advance() {
    let s = setup(8, 8, vec![p(0, "C3", 10, 0, 0), p(1, "C4", 10, 0, 0)], &[]);
    let mut game = start(&s, &[3]);
    to_phase(&mut game, Phase::Melee);
    play(&mut game, &["attack C4 from C3"]);
    assert_eq!(
        game.state().dice.left(),
        Some(0),
        "one die: no casualty roll"
    );
    assert_eq!(at(&game, "C3", RED).armed.men.total(), 5);
    assert_eq!(at(&game, "C4", BLUE).armed.men.total(), 5);
    assert!(game.owed().is_none(), "no advance");
}

#[test]
fn r76_surrender_takes_the_rest_prisoner_with_their_officers() {
    // 12 against 4 with an officer, 3:1: a 3 is H, Red wins; fate 2: surrender.
    let s = setup(8, 8, vec![p(0, "C3", 12, 0, 0), p(1, "C4", 4, 0, 1)], &[]);
    let mut game = start(&s, &[3, 2]);
    to_phase(&mut game, Phase::Melee);
    let said = play(&mut game, &["attack C4 from C3"]);
    assert_eq!(
        &said[2..],
        [
            "2 infantry of Blue in C4 killed; Red scores 2 (R81)",
            "2 infantry of Red in C3 killed; Blue scores 2 (R81)",
            "2 infantry and 1 officer of Blue in C4 surrender; Red scores 9 (R76, R81)",
        ],
        "losses on both sides, then the surrender (R76's order)"
    );
    assert_eq!(
        game.owed().map(|s| matches!(s, Step::Advance { .. })),
        Some(true),
        "then the advance"
    );
    assert_eq!(at(&game, "C4", RED).prisoners, band(2, 0, 1));
}

#[test]
fn r76_rout_sends_the_rest_off_at_once_leaving_cannon_baggage_and_flag() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 20, 0, 0),
            PiecesSetup {
                cannon: true,
                flag: true,
                ..p(1, "C4", 5, 0, 1)
            },
        ],
        &[],
    );
    // 4:1, a 4 is H; fate 3: rout. Half of 5 is 2.
    let mut game = start(&s, &[4, 3]);
    to_phase(&mut game, Phase::Melee);
    let said = play(&mut game, &["attack C4 from C3"]);
    assert!(said.contains(&"3 infantry and 1 officer of Blue in C4 rout, leaving any cannon, baggage and flag (R76)".to_owned()), "{said:?}");
    // Away from Red in C3, towards Blue's north edge: C5.
    assert!(
        said.contains(
            &"Blue's routers in C4 (3 infantry and 1 officer) rout to C5 (R80)".to_owned()
        ),
        "{said:?}"
    );
    let c4 = at(&game, "C4", BLUE);
    assert!(
        c4.cannon && c4.flags == 1 && c4.armed.is_empty(),
        "left behind"
    );
    // The advance then takes them.
    play(&mut game, &["advance C4 from C3 inf 9"]);
    let c4 = at(&game, "C4", RED);
    assert!(c4.cannon && c4.flags == 1);
    assert_eq!(game.vp(RED), 2 + 10 + 20);
}

#[test]
fn r76_slaughter_kills_every_loser_and_costs_the_winner_the_half() {
    let s = setup(8, 8, vec![p(0, "C3", 12, 0, 0), p(1, "C4", 4, 0, 1)], &[]);
    let mut game = start(&s, &[3, 6]);
    to_phase(&mut game, Phase::Melee);
    play(&mut game, &["attack C4 from C3"]);
    assert_eq!(at(&game, "C3", RED).armed.men.total(), 10);
    assert_eq!(game.vp(RED), 4 + 3, "four men and an officer killed");
    assert!(game.stack(h("C4"), BLUE).is_none());
}

#[test]
fn r76_several_attacking_formations_split_their_losses_as_their_owner_chooses() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 8, 0, 0),
            p(0, "B3", 0, 8, 0),
            p(1, "C4", 8, 0, 0),
        ],
        &[],
    );
    // 16 against 8, 2:1: a 2 is H; fate 3, rout. Red loses 4 of C3 and B3.
    let mut game = start(&s, &[2, 3]);
    to_phase(&mut game, Phase::Melee);
    play(&mut game, &["attack C4 from C3 B3"]);
    assert_eq!(game.decider(), Some(RED));
    assert_eq!(refused(&mut game, "lose C3 inf 5").ruling, 64);
    let said = play(&mut game, &["lose B3 cav 1"]);
    // The other three can only fall in C3: no more is asked (R64).
    assert_eq!(
        said[1],
        "3 infantry of Red in C3 killed; Blue scores 3 (R81)"
    );
    assert_eq!(
        (
            at(&game, "C3", RED).armed.men.total(),
            at(&game, "B3", RED).armed.men.total()
        ),
        (5, 7)
    );
}

#[test]
fn r76_crews_in_the_losing_hex_share_the_losers_fate() {
    let s = setup(
        8,
        8,
        vec![
            PiecesSetup {
                cannon: true,
                ..p(0, "C3", 10, 0, 1)
            },
            p(1, "C4", 10, 0, 0),
            p(1, "C8", 4, 0, 0),
        ],
        &[],
    );
    // The gun fires (a 1: nobody dies); then 6 fight 10: 20:12 3:2, a 1 is H
    // for Blue; fate 1: surrender. Half of 6 is 3.
    let mut game = start(&s, &[1, 1, 1]);
    play(
        &mut game,
        &["fire C3 C8", "end", "end", "attack C4 from C3"],
    );
    // Red's 3 survivors who fought and its 4 crew surrender with the officer.
    let held = at(&game, "C3", BLUE).prisoners;
    assert_eq!(held, band(7, 0, 1));
}

// ------------------------------------------------------------------ R77

#[test]
fn r77_the_winner_advances_at_least_half_of_its_survivors_within_the_limit() {
    let s = setup(8, 8, vec![p(0, "C3", 12, 0, 0), p(1, "C4", 4, 0, 0)], &[]);
    let mut game = start(&s, &[3, 6]);
    to_phase(&mut game, Phase::Melee);
    play(&mut game, &["attack C4 from C3"]);
    // 10 survivors: 5 to 10 advance.
    let listed: Vec<String> = game
        .legal_commands(RED)
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(
        listed.first().map(String::as_str),
        Some("advance C4 from C3 inf 5")
    );
    assert_eq!(listed.len(), 6);
    assert_eq!(
        refused(&mut game, "advance C4 from C3 inf 4").to_string(),
        "the free advance moves 5 to 10 men into C4, not 4: at least half of those who fought, within the hex's limit (R62) (R77)"
    );
    assert_eq!(
        refused(&mut game, "end").ruling,
        64,
        "the advance is not optional"
    );
    play(&mut game, &["advance C4 from C3 inf 7"]);
    assert_eq!(at(&game, "C4", RED).armed.men.total(), 7);
}

#[test]
fn r77_a_defender_that_beat_several_hexes_advances_into_one_of_them() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 5, 0, 1),
            p(0, "B3", 5, 0, 0),
            p(1, "C4", 20, 0, 0),
        ],
        &[],
    );
    // 10 against 20: 2:1 for Blue; a 1 is V, Blue wins and loses none; fate
    // 5: slaughter.
    let mut game = start(&s, &[1, 5]);
    to_phase(&mut game, Phase::Melee);
    play(&mut game, &["attack C4 from C3 B3"]);
    assert_eq!(
        game.decider(),
        Some(BLUE),
        "the defender's advance is Blue's"
    );
    let summary = game.summary();
    assert_eq!(
        summary.awaiting.map(|a| a.choice),
        Some("advance".to_owned())
    );
    play(&mut game, &["advance B3 from C4 inf 12"]);
    assert_eq!(at(&game, "B3", BLUE).armed.men.total(), 12);
}

#[test]
fn r77_the_advance_takes_what_is_left_and_frees_the_winners_own_men() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 12, 0, 0),
            p(0, "C5", 0, 0, 1),
            p(1, "C6", 4, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        &[],
    );
    // Red's turn passes; Blue marches into C5 and takes Red's lone officer.
    // Then Red attacks C5 from C4: 12 against 4, 3:1; a 3 is H, fate 1:
    // surrender.
    let mut game = start(&s, &[3, 1]);
    play(
        &mut game,
        &[
            "end",
            "end",
            "end",
            "end",
            "end",
            "march C6 C5",
            "end",
            "end",
            "end",
        ],
    );
    assert_eq!(at(&game, "C5", BLUE).prisoners, band(0, 0, 1));
    assert_eq!(game.vp(BLUE), 5);
    play(
        &mut game,
        &["end", "march C3 C4", "end", "attack C5 from C4"],
    );
    assert_eq!(game.vp(RED), 2 + 4, "two killed, two taken");
    let said = play(&mut game, &["advance C5 from C4 inf 5"]);
    assert_eq!(
        said,
        [
            "the winners advance into C5: inf 5 from C4 (R77)",
            "1 officer of Red held prisoner in C5 are freed and armed again (R77)",
        ]
    );
    let c5 = at(&game, "C5", RED);
    assert_eq!(
        (c5.armed, c5.prisoners),
        (band(5, 0, 1), band(2, 0, 0)),
        "escorting the prisoners just taken"
    );
    assert_eq!(
        game.vp(RED),
        6,
        "prisoners just taken score once; freed men score nothing"
    );
    assert!(game.stack(h("C5"), BLUE).is_none());
}

// ------------------------------------------------------------------ R78

#[test]
fn r78_prisoners_left_without_escort_escape_unarmed_and_are_taken_again() {
    let mut game = red_holds_prisoners();
    // Red marches every man away from its two prisoners in C4.
    play(&mut game, &["march C4 C5 inf 6", "end"]);
    assert_eq!(
        at(&game, "C4", RED).prisoners,
        band(2, 0, 0),
        "until the Rally phase"
    );
    let said = play(&mut game, &["end"]);
    assert_eq!(
        said[0],
        "2 infantry of Blue held in C4 with no escort escape, unarmed (R78)"
    );
    assert_eq!(at(&game, "C4", BLUE).unarmed, band(2, 0, 0));
    play(&mut game, &["end", "end"]);
    // Blue's march: unarmed men move as infantry, 1 hex; they never attack.
    assert_eq!(refused(&mut game, "march C4 D4 D5").ruling, 69);
    play(&mut game, &["march C4 D4", "end"]);
    assert!(
        game.legal_commands(BLUE)
            .iter()
            .all(|l| !matches!(l.command, Command::Attack { .. })),
        "unarmed men are no formation"
    );
    play(&mut game, &["end", "end"]);
    // Red takes them again: they score again (R81).
    let before = game.vp(RED);
    play(&mut game, &["end", "march C5 D4"]);
    assert_eq!(at(&game, "D4", RED).prisoners, band(2, 0, 0));
    assert_eq!(game.vp(RED), before + 4);
}

// ------------------------------------------------------------------ R79

fn routed_next_to(friend: PiecesSetup, rolls: &[u8]) -> sandtable_warpspawn::Game {
    route(&routed_setup(friend), rolls)
}

fn red_routs() -> sandtable_warpspawn::Game {
    routed_next_to(p(0, "E2", 5, 0, 0), &[5])
}

#[test]
fn r79_routers_next_to_a_friendly_formation_must_roll() {
    let mut game = red_routs();
    assert_eq!(
        refused(&mut game, "end").to_string(),
        "the routers in D2 must roll to rally first: the rolls are not optional (R79)"
    );
    assert_eq!(
        refused(&mut game, "rally D2 with C3").ruling,
        79,
        "not Red's formation"
    );
    let said = play(&mut game, &["rally D2 with E2", "end"]);
    // 5 - 1 (an officer with the routers) = 4: they flee on.
    assert_eq!(
        said[..2],
        [
            "the routers in D2 roll to rally on the formation in E2: 5 -1 = 4 (R79)",
            "the routers in D2 flee on (R79)"
        ]
    );
    // They made their rout move in the melee: it is not made again (R80).
    assert_eq!(at(&game, "D2", RED).routing, band(3, 0, 1));
    assert_eq!(game.active(), BLUE);
}

#[test]
fn r79_the_modifiers_compare_the_routers_with_the_formation_and_count_officers() {
    for (friend_men, roll, modifier) in [(1, 4, 0), (5, 4, -1), (6, 4, -2)] {
        let mut game = routed_next_to(p(0, "E2", friend_men, 0, 0), &[roll]);
        let rolled = events(&mut game, "rally D2 with E2");
        let Event::RallyRolled { modifier: m, .. } = rolled[0] else {
            panic!("{rolled:?}");
        };
        assert_eq!(m, modifier, "3 routers and an officer against {friend_men}");
    }
}

#[test]
fn r79_two_or_less_rallies_or_flees_by_the_switch_and_the_excess_keeps_routing() {
    // The routers flee into D2, where 18 of Red stand; a 3 -2 = 1 rallies 2
    // of them (the hex's limit), the third keeps routing.
    let mut game = routed_next_to(p(0, "D2", 18, 0, 0), &[3]);
    let said = play(&mut game, &["rally D2 with D2"]);
    assert_eq!(
        said[1],
        "2 infantry and 1 officer in D2 rally and are armed again (R79); 1 over the hex's limit keep routing (R62)"
    );
    assert_eq!(
        (at(&game, "D2", RED).armed, at(&game, "D2", RED).routing),
        (band(20, 0, 1), band(1, 0, 0))
    );

    let mut s = routed_setup(p(0, "E2", 5, 0, 0));
    s.switches.rally_low = RallyLow::Flee;
    let mut game = route(&s, &[3]);
    let said = play(&mut game, &["rally D2 with E2"]);
    assert_eq!(
        said[1], "the routers in D2 flee on (R79)",
        "rally_low: flee"
    );
}

#[test]
fn r79_five_or_more_panics_the_formation_which_routs_and_moves_at_once() {
    let mut game = routed_next_to(p(0, "E2", 5, 0, 0), &[6]);
    let said = play(&mut game, &["rally D2 with E2"]);
    assert_eq!(said[1], "the formation in E2 panics and routs (R79)");
    // F2, F1 and E1 are 3 hexes from Blue in C3, the farthest; F1 and E1
    // are nearer home: Blue picks between them.
    assert_eq!(game.decider(), Some(BLUE));
    let listed: Vec<String> = game
        .legal_commands(BLUE)
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(listed, ["rout E2 F1", "rout E2 E1"]);
    let said = play(&mut game, &["rout E2 E1"]);
    assert_eq!(said, ["Red's routers in E2 (5 infantry) rout to E1 (R80)"]);
    assert!(
        game.stack(h("E2"), RED)
            .is_none_or(|s| s.routing.is_empty()),
        "it moved at once"
    );
    // It rolls no rally of its own this phase.
    assert!(game.check_as(RED, &Command::End).is_ok());
}

// ------------------------------------------------------------------ R80

#[test]
fn r80_routers_flee_from_the_enemy_then_home_then_to_friends_and_the_enemy_picks_among_equals() {
    // Without a friend nearby, C2, B2 and D2 rank alike: Blue chooses.
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 1),
            p(1, "C4", 10, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[1, 3]);
    play(&mut game, &["end", "end", "attack C4 from C3"]);
    assert_eq!(game.decider(), Some(BLUE));
    let listed: Vec<String> = game
        .legal_commands(BLUE)
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(listed, ["rout C3 D2", "rout C3 C2", "rout C3 B2"]);
    assert_eq!(
        game.summary().awaiting.map(|a| a.choice),
        Some("rout".to_owned())
    );
    let err = refused(&mut game, "rout C3 B3");
    assert_eq!(
        err.to_string(),
        "the routers in C3 may go only as R80 ranks their choices: rout C3 D2, rout C3 C2, rout C3 B2 (R80)"
    );
    play(&mut game, &["rout C3 B2"]);
    assert_eq!(at(&game, "B2", RED).routing, band(3, 0, 1));
}

#[test]
fn r80_routers_on_their_home_edge_leave_the_map_and_are_lost_for_nothing() {
    let s = setup(
        8,
        8,
        vec![
            p(0, "C1", 6, 0, 1),
            p(1, "C2", 10, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        &[],
    );
    let mut game = start(&s, &[1, 3]);
    let said = play(&mut game, &["end", "end", "attack C2 from C1"]);
    assert!(said.contains(&"Red's routers in C1 (3 infantry and 1 officer) rout off the map across their home edge and are lost (R80)".to_owned()), "{said:?}");
    assert_eq!(game.vp(BLUE), 3, "the three killed; the lost earn nothing");
}

#[test]
fn r80_with_nowhere_to_go_routers_surrender_to_an_adjacent_enemy_formation() {
    let water = [
        ("C2", Terrain::Water),
        ("B2", Terrain::Water),
        ("B3", Terrain::Water),
        ("D2", Terrain::Water),
        ("D3", Terrain::Water),
    ];
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 1),
            p(1, "C4", 10, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        &water,
    );
    let mut game = start(&s, &[1, 3]);
    let said = play(&mut game, &["end", "end", "attack C4 from C3"]);
    assert!(said.contains(&"Red's routers in C3 (3 infantry and 1 officer) have nowhere to go and surrender to the formation in C4; Blue scores 11 (R80, R81)".to_owned()), "{said:?}");
    assert_eq!(at(&game, "C4", BLUE).prisoners, band(3, 0, 1));
    // With two enemy formations next to them, Blue picks.
    let water = [
        ("C2", Terrain::Water),
        ("B2", Terrain::Water),
        ("B3", Terrain::Water),
        ("D2", Terrain::Water),
    ];
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 1),
            p(1, "C4", 10, 0, 0),
            p(1, "D3", 2, 0, 0),
        ],
        &water,
    );
    let mut game = start(&s, &[1, 3]);
    play(&mut game, &["end", "end", "attack C4 from C3"]);
    let summary = game.summary();
    assert_eq!(
        summary.awaiting.map(|a| (a.player, a.choice)),
        Some(("Blue".to_owned(), "surrender".to_owned()))
    );
    play(&mut game, &["rout C3 surrender D3"]);
    assert_eq!(at(&game, "D3", BLUE).prisoners, band(3, 0, 1));
}

// ------------------------------------------------------------------ R81

#[test]
fn r81_capture_the_flag_ends_the_battle_with_the_player_turn_of_the_capture() {
    for switch in [false, true] {
        let mut s = setup(
            10,
            8,
            vec![
                p(0, "G3", 5, 0, 0),
                PiecesSetup {
                    flag: true,
                    ..p(1, "G4", 0, 0, 0)
                },
                p(1, "J8", 5, 0, 0),
            ],
            &[],
        );
        s.switches.capture_the_flag = switch;
        let mut game = start(&s, &[]);
        play(&mut game, &["end", "march G3 G4", "end", "end"]);
        assert!(game.ending().is_none(), "not before the player turn ends");
        play(&mut game, &["end"]);
        if switch {
            assert_eq!(
                game.ending(),
                Some((Outcome::Won(RED), EndReason::FlagCaptured))
            );
        } else {
            assert_eq!(game.ending(), None);
            assert_eq!(game.active(), BLUE);
        }
    }
}

#[test]
fn r81_points_for_every_kill_and_capture() {
    // Men killed 1, officers killed 3 (R63 test); men captured 2, officers
    // captured 5, cannon 10, baggage 5, flag 20 (R63, R76 tests); here all
    // at once: Red takes a hex of Blue routers with a cannon, baggage-free.
    let s = setup(
        8,
        8,
        vec![
            p(0, "C3", 20, 0, 0),
            PiecesSetup {
                cannon: true,
                flag: true,
                ..p(1, "C4", 5, 0, 1)
            },
        ],
        &[],
    );
    let mut game = start(&s, &[4, 3]);
    to_phase(&mut game, Phase::Melee);
    play(
        &mut game,
        &["attack C4 from C3", "advance C4 from C3 inf 9"],
    );
    // 2 killed (2); the gun (10) and the flag (20) taken by the advance.
    assert_eq!(game.vp(RED), 32);
    assert_eq!(game.vp(BLUE), 2, "Red lost two");
}
