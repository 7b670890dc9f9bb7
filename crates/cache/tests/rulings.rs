//! One or more tests for every ruling R1 to R16, R25 to R27 and R30, R31 of RULINGS.md,
//! each named after the ruling it covers.

mod common;

use common::{board, cmd, left, play, play_undoable, refuse, sq};
use sandtable_cache::CacheLegal;
use sandtable_cache::{
    CaptureSide, Command, Event, Game, Ground, MoveKind, Occupant, Outcome, Place, PlayerId,
    Ruling, TerrainKind, UnitId,
};
use sandtable_core::game::Seat;
use sandtable_core::undo::Undoable;

fn problems(table: &common::Table) -> Vec<String> {
    let err = Game::new(&table.0).expect_err("the setup breaks a ruling");
    err.problems.iter().map(|p| p.to_string()).collect()
}

/// Red at the bottom left, Blue at the top right of a 10 x 10 board.
fn duel() -> common::Table {
    board(10, 10)
        .player("Red", "B2", &[("C3", 'N'), ("D3", 'N'), ("D4", 'E')])
        .player("Blue", "H8", &[("G7", 'S'), ("H7", 'S')])
}

// ---------------------------------------------------------------- R1

#[test]
fn r1_a_square_holds_at_most_one_unit() {
    let table = board(10, 10)
        .player("Red", "C3", &[("C4", 'N'), ("C4", 'E')])
        .player("Blue", "H8", &[("G7", 'S')]);
    assert_eq!(
        problems(&table),
        [
            "players[0].factors[0].units[1]: C4 already holds players[0].factors[0].units[0]; a square holds at most one unit (R1)"
        ]
    );
}

#[test]
fn r1_the_board_edge_stops_an_advance_and_squares_off_the_board_are_refused() {
    let mut game = board(10, 10)
        .player("Red", "B2", &[("A1", 'S')])
        .player("Blue", "H8", &[("G7", 'S')])
        .game();
    refuse(&mut game, "activate K1", Ruling::R1);
    play(&mut game, &["activate A1"]);
    let msg = refuse(&mut game, "advance", Ruling::R1);
    assert!(msg.contains("faces S toward the board edge"), "{msg}");
}

#[test]
fn r1_pieces_off_the_board_are_refused_at_setup() {
    let table = board(10, 10)
        .player("Red", "B2", &[("K1", 'S')])
        .player("Blue", "H8", &[("G7", 'S')])
        .terrain(TerrainKind::Woods, &["E11"]);
    assert_eq!(
        problems(&table),
        [
            "players[0].factors[0].units[0]: K1 is off the board of 10 x 10 squares (R1)",
            "terrain[0]: E11 is off the board of 10 x 10 squares (R1)",
        ]
    );
}

// ---------------------------------------------------------------- R2

#[test]
fn r2_every_player_commands_a_factor_and_odd_factor_sizes_are_warned() {
    let mut table = duel();
    table.0.players[1].factors.clear();
    assert_eq!(
        problems(&table),
        ["players[1].factors: a player commands at least one Factor (R2)"]
    );
    let game = duel().game();
    let warnings: Vec<String> = game.warnings().iter().map(|w| w.to_string()).collect();
    assert_eq!(
        warnings,
        [
            "players[0].factors[0].units: this Factor has 3 units; a standard Factor has 10 (R2)",
            "players[1].factors[0].units: this Factor has 2 units; a standard Factor has 10 (R2)",
        ]
    );
}

// ---------------------------------------------------------------- R3

#[test]
fn r3_bases_keep_off_the_edge_and_off_terrain_every_problem_listed() {
    let table = board(12, 12)
        .player("Red", "A5", &[("B5", 'N')])
        .factor("E5", &[("E6", 'N')])
        .factor("H5", &[("H6", 'N')])
        .player("Blue", "E9", &[("E10", 'S')])
        .factor("E9", &[("F10", 'S')])
        .terrain(TerrainKind::Water, &["E5"])
        .terrain(TerrainKind::Road, &["H5"]);
    assert_eq!(
        problems(&table),
        [
            "players[0].factors[0].base: base A5 borders the board edge (R3)",
            "players[0].factors[1].base: base E5 stands on water (T120): a base may stand only on open ground (R3)",
            "players[0].factors[2].base: base H5 stands on road (T130): a base may stand only on open ground (R3)",
            "players[1].factors[1].base: base E9 stands on the base of players[1].factors[0].base (R3)",
        ]
    );
    for kind in [TerrainKind::LowWall, TerrainKind::Woods] {
        let table = duel().terrain(kind, &["B2"]);
        let found = problems(&table);
        assert!(
            found[0].starts_with("players[0].factors[0].base: base B2 stands on"),
            "{kind:?}: {found:?}"
        );
    }
}

// ---------------------------------------------------------------- R4

#[test]
fn r4_units_start_within_two_squares_of_their_base_diagonals_allowed() {
    let ok = board(12, 12)
        .player("Red", "D8", &[("F10", 'N'), ("B6", 'N')])
        .player("Blue", "J3", &[("J2", 'S')]);
    assert!(
        Game::new(&ok.0).is_ok(),
        "two squares diagonally is allowed"
    );
    let table = board(12, 12)
        .player("Red", "D8", &[("G9", 'N'), ("D8", 'N'), ("D9", 'N')])
        .player("Blue", "J3", &[("J2", 'S')])
        .terrain(TerrainKind::Woods, &["D9"]);
    assert_eq!(
        problems(&table),
        [
            "players[0].factors[0].units[0]: G9 is 3 squares from its base D8, at most 2 allowed (R4)",
            "players[0].factors[0].units[1]: D8 holds the base of players[0].factors[0].base; a unit may not start on a base (R4)",
            "players[0].factors[0].units[2]: D9 is woods (T190), where no unit may stand (R12) (R4)",
        ]
    );
}

// ---------------------------------------------------------------- R5

#[test]
fn r5_turns_pass_clockwise_from_the_first_player() {
    let mut game = board(12, 12)
        .player("Red", "C3", &[("C4", 'N')])
        .player("Green", "J3", &[("J4", 'N')])
        .player("Blue", "F9", &[("F8", 'S')])
        .first(Some(1))
        .game();
    let order: Vec<u16> = (0..4)
        .map(|_| {
            let p = game.current_player().0;
            play(&mut game, &["pass"]);
            p
        })
        .collect();
    assert_eq!(
        order,
        [1, 2, 0, 1],
        "R5: list order, starting with first_player"
    );
    assert_eq!(game.turn(), 5);
}

#[test]
fn r5_players_without_an_active_base_are_skipped() {
    // Red captures Green's base; the turn then passes straight to Blue.
    let mut game = board(12, 12)
        .player("Red", "C3", &[("D4", 'E')])
        .player("Green", "F4", &[("F6", 'N')])
        .player("Blue", "J9", &[("J8", 'S')])
        .game();
    play(&mut game, &["activate D4", "advance", "advance"]);
    assert!(!game.in_game(PlayerId(1)), "Green lost its only base");
    play(&mut game, &["pass"]);
    assert_eq!(game.current_player(), PlayerId(2), "Green is skipped");
}

#[test]
fn r5_a_units_owner_alone_may_activate_it() {
    let mut game = duel().game();
    let msg = refuse(&mut game, "activate G7", Ruling::R5);
    assert_eq!(msg, "the unit on G7 belongs to Blue (R5)");
}

#[test]
fn r5_r30_a_missing_first_player_is_drawn_with_the_seed() {
    let first = |seed| duel().first(None).seed(seed).game().current_player();
    let drawn: Vec<u16> = (0..32).map(|s| first(s).0).collect();
    assert!(
        drawn.contains(&0) && drawn.contains(&1),
        "both players can be drawn: {drawn:?}"
    );
    for seed in 0..32 {
        assert_eq!(
            first(seed),
            first(seed),
            "R30: the same seed draws the same player"
        );
    }
}

// ---------------------------------------------------------------- R6

#[test]
fn r6_half_the_units_rounded_up_may_act_each_once() {
    let mut game = board(12, 12)
        .player(
            "Red",
            "D4",
            &[
                ("C3", 'N'),
                ("D3", 'N'),
                ("E3", 'N'),
                ("C5", 'N'),
                ("D5", 'N'),
            ],
        )
        .player(
            "Blue",
            "J9",
            &[("J8", 'S'), ("I8", 'S'), ("H8", 'S'), ("K8", 'S')],
        )
        .game();
    assert_eq!(game.activations_left(), 3, "R6: ceil(5 / 2) = 3");
    play(&mut game, &["activate C3", "end"]);
    let msg = refuse(&mut game, "activate C3", Ruling::R6);
    assert!(msg.contains("already been activated this turn"), "{msg}");
    play(&mut game, &["activate D3", "end", "activate E3", "end"]);
    assert_eq!(game.activations_left(), 0);
    let msg = refuse(&mut game, "activate C5", Ruling::R6);
    assert!(msg.contains("3 units may act this turn"), "{msg}");
    refuse(&mut game, "activate F5", Ruling::R6);
    play(&mut game, &["pass"]);
    assert_eq!(game.activations_left(), 2, "R6: ceil(4 / 2) = 2 for Blue");
    play(&mut game, &["pass"]);
    assert_eq!(game.activations_left(), 3, "a new turn, a new limit");
    play(&mut game, &["activate C3"]);
}

// ---------------------------------------------------------------- R7

#[test]
fn r7_an_activation_gets_four_actions_and_no_other_unit_acts_meanwhile() {
    let mut game = duel().game();
    refuse(&mut game, "left", Ruling::R7);
    refuse(&mut game, "advance", Ruling::R7);
    refuse(&mut game, "end", Ruling::R7);
    let events = game.apply(cmd("activate C3")).unwrap();
    assert!(
        matches!(events[..], [Event::Activated { given, .. }] if given.0 == 4),
        "AG+4: {events:?}"
    );
    assert_eq!(left(&game), 4);
    let msg = refuse(&mut game, "activate D3", Ruling::R7);
    assert!(msg.contains("the unit on C3 is still acting"), "{msg}");
    play(&mut game, &["left"]);
    let events = game.apply(cmd("end")).unwrap();
    assert!(
        matches!(events[..], [Event::ActivationEnded { unspent, .. }] if unspent.0 == 3),
        "unspent actions are lost: {events:?}"
    );
    assert!(game.activation().is_none());
}

#[test]
fn r7_the_activation_ends_by_itself_at_budget_zero() {
    let mut game = duel().game();
    play(&mut game, &["activate C3", "left", "left", "left"]);
    let events = game.apply(cmd("left")).unwrap();
    assert!(
        matches!(events.last(), Some(Event::ActivationEnded { unspent, .. }) if unspent.0 == 0),
        "{events:?}"
    );
    assert!(game.activation().is_none());
    assert_eq!(
        game.position(UnitId(0)).unwrap().1.to_string(),
        "N",
        "four lefts"
    );
}

#[test]
fn r7_pass_ends_an_activation_in_progress() {
    let mut game = duel().game();
    play(&mut game, &["activate C3"]);
    let events = game.apply(Command::Pass).unwrap();
    assert!(
        matches!(events[0], Event::ActivationEnded { .. }),
        "{events:?}"
    );
    assert!(
        matches!(events[1], Event::TurnPassed { turn: 2, .. }),
        "{events:?}"
    );
}

// ---------------------------------------------------------------- R8

#[test]
fn r8_turns_cost_one_action_a_half_turn_two() {
    let mut game = duel().game();
    play(&mut game, &["activate C3", "right", "right"]);
    assert_eq!(left(&game), 2);
    assert_eq!(game.position(UnitId(0)).unwrap().1.to_string(), "S");
}

#[test]
fn r8_friendly_units_and_bases_block_the_way() {
    let mut game = board(10, 10)
        .player("Red", "C3", &[("B3", 'E'), ("C4", 'E'), ("D4", 'S')])
        .player("Blue", "H8", &[("G7", 'S')])
        .game();
    play(&mut game, &["activate B3"]);
    let msg = refuse(&mut game, "advance", Ruling::R8);
    assert_eq!(
        msg,
        "C3 is held by a friendly base: a unit may not enter it (R8)"
    );
    play(&mut game, &["end", "activate C4"]);
    let msg = refuse(&mut game, "advance", Ruling::R8);
    assert_eq!(
        msg,
        "D4 is held by a friendly unit: a unit may not enter it (R8)"
    );
}

#[test]
fn r8_an_action_the_budget_cannot_pay_in_full_is_illegal() {
    let mut game = duel().terrain(TerrainKind::Water, &["C5"]).game();
    play(&mut game, &["activate C3", "advance", "left"]);
    play(&mut game, &["right"]);
    assert_eq!(left(&game), 1);
    let msg = refuse(&mut game, "advance", Ruling::R8);
    assert_eq!(
        msg,
        "advancing costs 3 actions and only 1 action is left (R8)"
    );
}

// ---------------------------------------------------------------- R9

#[test]
fn r9_seed_worked_example_behind_then_side_leaves_three_actions() {
    // Two Blue units side by side on E5 and F5, both facing north. Red comes
    // from behind: its fourth action captures E5 (+3), one action turns it to
    // face F5, the next captures F5 from the side (+2): three actions left.
    let mut game = board(10, 10)
        .player("Red", "C2", &[("E1", 'N')])
        .player("Blue", "G6", &[("E5", 'N'), ("F5", 'N')])
        .game();
    play(&mut game, &["activate E1", "advance", "advance", "advance"]);
    assert_eq!(left(&game), 1);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(events[0], Event::Captured { side: CaptureSide::Behind, earned, .. } if earned.0 == 3),
        "AE+3 from behind: {events:?}"
    );
    assert_eq!(left(&game), 3, "the fourth action spent, three earned");
    play(&mut game, &["right"]);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(events[0], Event::Captured { side: CaptureSide::Side, earned, .. } if earned.0 == 2),
        "AE+2 from the side: {events:?}"
    );
    assert_eq!(left(&game), 3, "the seed: 3 earned actions left");
    assert_eq!(game.occupant(sq("F5")), Some(Occupant::Unit(UnitId(0))));
}

#[test]
fn r9_a_capture_into_the_face_earns_nothing_nor_does_a_base() {
    let mut game = board(10, 10)
        .player("Red", "C2", &[("E3", 'N')])
        .player("Blue", "G6", &[("E4", 'S')])
        .factor("C4", &[("C6", 'S')])
        .game();
    let events = {
        play(&mut game, &["activate E3"]);
        game.apply(cmd("advance")).unwrap()
    };
    assert!(
        matches!(events[0], Event::Captured { side: CaptureSide::Front, earned, .. } if earned.0 == 0),
        "{events:?}"
    );
    assert_eq!(left(&game), 3);
    play(&mut game, &["left", "advance"]);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(events[0], Event::BaseCaptured { .. }),
        "{events:?}"
    );
    assert!(
        events.iter().all(|e| !matches!(e, Event::Captured { .. })),
        "a base earns no bonus: {events:?}"
    );
    assert_eq!(
        game.activation().map(|a| a.earned),
        None,
        "budget spent: activation over"
    );
}

// ---------------------------------------------------------------- R10

#[test]
fn r10_captured_units_go_to_custody_and_a_base_takes_its_factor_with_it() {
    let mut game = board(12, 12)
        .player("Red", "C3", &[("E4", 'E'), ("D5", 'N')])
        .player("Blue", "G4", &[("F4", 'N'), ("H5", 'S'), ("G6", 'S')])
        .factor("G9", &[("G10", 'S')])
        .game();
    play(&mut game, &["activate E4", "advance"]);
    assert_eq!(
        game.place(UnitId(2)),
        Place::Custody {
            holder: PlayerId(0)
        }
    );
    let events = game.apply(cmd("advance")).unwrap();
    let Event::BaseCaptured { removed, .. } = &events[0] else {
        panic!("a base capture: {events:?}")
    };
    assert_eq!(removed.len(), 2, "H5 and G6 leave with their base");
    assert_eq!(game.place(UnitId(3)), Place::Removed);
    assert_eq!(game.place(UnitId(4)), Place::Removed);
    assert_eq!(game.occupant(sq("H5")), None);
    assert_eq!(
        game.place(UnitId(2)),
        Place::Custody {
            holder: PlayerId(0)
        },
        "custody stays"
    );
    assert!(game.in_game(PlayerId(1)), "Blue still has the base on G9");
    assert!(!game.is_over());
    let summary = game.summary();
    assert_eq!(summary.custody.len(), 1);
    assert_eq!(summary.removed.len(), 2);
    assert_eq!(summary.bases.iter().filter(|b| !b.active).count(), 1);
}

// ---------------------------------------------------------------- R11

#[test]
fn r11_the_last_player_with_an_active_base_wins_and_play_stops() {
    let mut game = board(10, 10)
        .player("Red", "C3", &[("E4", 'E')])
        .player("Blue", "F4", &[("G6", 'S')])
        .game();
    play(&mut game, &["activate E4"]);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(
            events.last(),
            Some(Event::GameWon {
                winner: PlayerId(0)
            })
        ),
        "{events:?}"
    );
    assert!(events.iter().any(|e| matches!(
        e,
        Event::PlayerEliminated {
            player: PlayerId(1)
        }
    )));
    assert_eq!(game.outcome(), Some(Outcome::Won(PlayerId(0))));
    assert!(
        game.legal_commands().is_empty(),
        "nothing is legal once the game is over"
    );
    let msg = refuse(&mut game, "pass", Ruling::R11);
    assert_eq!(msg, "the game is over (R11)");
    let summary = game.summary();
    assert!(summary.over);
    assert_eq!(summary.winner.as_deref(), Some("Red"));
}

#[test]
fn r11_a_turn_limit_ends_the_game_in_a_draw() {
    let mut game = duel().turn_limit(3).game();
    play(&mut game, &["pass", "pass"]);
    assert!(!game.is_over());
    let events = game.apply(Command::Pass).unwrap();
    assert_eq!(events, [Event::GameDrawn { turn_limit: 3 }]);
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(sandtable_cache::DrawReason::TurnLimit))
    );
    refuse(&mut game, "pass", Ruling::R11);
    assert_eq!(game.summary().winner, None);
}

// ---------------------------------------------------------------- R12

#[test]
fn r12_water_costs_three_and_two_squares_of_it_take_seven_to_cross() {
    let mut game = board(10, 10)
        .player("Red", "B3", &[("C3", 'E')])
        .player("Blue", "H8", &[("G7", 'S')])
        .terrain(TerrainKind::Water, &["D3", "E3"])
        .game();
    let mut spent = 0;
    play(&mut game, &["activate C3", "advance"]);
    assert_eq!(left(&game), 1, "entering water costs 1 + 2");
    spent += 3;
    refuse(&mut game, "advance", Ruling::R8);
    play(&mut game, &["end", "pass", "pass"]);
    assert_eq!(
        game.ground(sq("D3")),
        Ground::Water,
        "the unit may stay in water"
    );
    play(&mut game, &["activate D3", "advance"]);
    spent += 3;
    play(&mut game, &["advance"]);
    spent += 1;
    assert!(game.activation().is_none(), "budget spent exactly");
    assert_eq!(spent, 7, "the seed's example: 3 + 3 + 1");
    assert_eq!(game.unit_at(sq("F3")), Some(UnitId(0)));
}

#[test]
fn r12_high_walls_mountains_woods_and_building_walls_cannot_be_entered() {
    for kind in [
        TerrainKind::HighWall,
        TerrainKind::Mountain,
        TerrainKind::Woods,
    ] {
        let mut game = duel().terrain(kind, &["C4"]).game();
        play(&mut game, &["activate C3"]);
        let msg = refuse(&mut game, "advance", Ruling::R12);
        assert!(
            msg.starts_with("C4 is ") && msg.contains("(T190): no unit may enter it"),
            "{msg}"
        );
    }
}

// ---------------------------------------------------------------- R13

#[test]
fn r13_crossing_a_low_wall_costs_three_or_two_from_a_standing_start() {
    let table = board(12, 10)
        .player("Red", "B5", &[("C3", 'E'), ("B3", 'E'), ("B4", 'N')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::LowWall, &["D3", "D4"]);
    let mut game = table.game();
    play(&mut game, &["activate C3"]);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(events[0], Event::Moved { kind: MoveKind::Crossing { .. }, cost, .. } if cost.0 == 2),
        "next to the wall and facing it when the activation began: 2, {events:?}"
    );
    assert_eq!(
        game.unit_at(sq("E3")),
        Some(UnitId(0)),
        "over the wall, never on it"
    );

    let mut game = table.game();
    play(&mut game, &["activate B3", "left", "right"]);
    refuse(&mut game, "advance", Ruling::R8);
    play(&mut game, &["end", "activate C3", "left", "right"]);
    assert_eq!(
        game.check(&Command::Advance).unwrap().0,
        2,
        "same square and facing as at the start"
    );

    // B3 first steps up to the wall, then crosses: 1 + 3.
    let mut game = board(12, 10)
        .player("Red", "B5", &[("B3", 'E')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::LowWall, &["D3"])
        .game();
    play(&mut game, &["activate B3", "advance"]);
    assert_eq!(
        game.check(&Command::Advance).unwrap().0,
        3,
        "A+1 for the crossing"
    );
    play(&mut game, &["advance"]);
    assert!(game.activation().is_none(), "1 + 3 = 4 actions");
    assert_eq!(game.unit_at(sq("E3")), Some(UnitId(0)));
}

#[test]
fn r13_the_square_beyond_must_be_enterable() {
    let mut game = board(12, 10)
        .player(
            "Red",
            "D5",
            &[
                ("C3", 'E'),
                ("E3", 'N'),
                ("C6", 'E'),
                ("C7", 'E'),
                ("C5", 'N'),
                ("E5", 'N'),
            ],
        )
        .player("Blue", "J8", &[("J7", 'S'), ("K8", 'E')])
        .terrain(TerrainKind::LowWall, &["D3", "D6", "E6", "D7", "L8"])
        .terrain(TerrainKind::Woods, &["E7"])
        .game();
    play(&mut game, &["activate C3"]);
    let msg = refuse(&mut game, "advance", Ruling::R13);
    assert_eq!(
        msg,
        "cannot cross the low wall on D3: the square beyond, E3, is held by a friendly unit (R8) (R13)"
    );
    play(&mut game, &["end", "activate C6"]);
    let msg = refuse(&mut game, "advance", Ruling::R13);
    assert!(
        msg.contains("E6, is a low wall (T110), where no unit may stand"),
        "{msg}"
    );
    play(&mut game, &["end", "activate C7"]);
    let msg = refuse(&mut game, "advance", Ruling::R13);
    assert!(msg.contains("E7, is woods (T190)"), "{msg}");
    play(&mut game, &["end", "pass", "activate K8"]);
    let msg = refuse(&mut game, "advance", Ruling::R13);
    assert!(msg.contains("the board ends beyond it"), "{msg}");
}

#[test]
fn r13_a_crossing_may_capture_beyond_the_wall() {
    let mut game = board(12, 10)
        .player("Red", "B5", &[("C3", 'E')])
        .player("Blue", "G5", &[("E3", 'E')])
        .terrain(TerrainKind::LowWall, &["D3"])
        .game();
    play(&mut game, &["activate C3"]);
    let events = game.apply(cmd("advance")).unwrap();
    assert!(
        matches!(
            events[0],
            Event::Captured {
                side: CaptureSide::Behind,
                ..
            }
        ),
        "{events:?}"
    );
    assert_eq!(left(&game), 4 - 2 + 3);
}

// ---------------------------------------------------------------- R14

#[test]
fn r14_a_road_run_crosses_many_squares_for_one_action() {
    let mut game = board(12, 10)
        .player("Red", "B6", &[("A4", 'E')])
        .player("Blue", "I6", &[("H4", 'W'), ("J7", 'S')])
        .terrain(
            TerrainKind::Road,
            &["B4", "C4", "D4", "E4", "F4", "G4", "H4", "I4"],
        )
        .game();
    play(&mut game, &["activate A4", "advance"]);
    assert_eq!(left(&game), 3, "a step onto the road costs 1");
    let legal: Vec<String> = game
        .legal_commands()
        .iter()
        .map(|l| format!("{} ({})", l.command, l.actions()))
        .collect();
    assert_eq!(
        legal,
        [
            "left (1 action)",
            "right (1 action)",
            "advance (1 action)",
            "advance D4 (1 action)",
            "advance E4 (1 action)",
            "advance F4 (1 action)",
            "advance G4 (1 action)",
            "advance H4 (1 action)",
            "end (0 actions)",
            "pass (0 actions)",
        ]
    );
    let msg = refuse(&mut game, "advance I4", Ruling::R14);
    assert!(
        msg.contains("H4 is occupied; a run stops before an occupied square"),
        "{msg}"
    );
    refuse(&mut game, "advance C4", Ruling::R14);
    let msg = refuse(&mut game, "advance B6", Ruling::R14);
    assert!(msg.contains("not straight ahead"), "{msg}");
    let events = game.apply(cmd("advance H4")).unwrap();
    assert!(
        matches!(
            events[0],
            Event::Captured {
                side: CaptureSide::Front,
                ..
            }
        ),
        "a run ends on its capture: {events:?}"
    );
    assert!(matches!(events[1], Event::Moved { kind: MoveKind::Run, cost, .. } if cost.0 == 1));
    assert_eq!(left(&game), 2);
}

#[test]
fn r14_every_square_of_a_run_must_be_road() {
    let mut game = board(12, 10)
        .player("Red", "B6", &[("A4", 'E')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::Road, &["B4", "C4", "E4"])
        .game();
    play(&mut game, &["activate A4"]);
    play(&mut game, &["advance C4"]);
    let msg = refuse(&mut game, "advance E4", Ruling::R14);
    assert_eq!(
        msg,
        "cannot run to E4: D4 is open ground; every square entered in a run must be T130 (R14)"
    );
}

// ---------------------------------------------------------------- R15

#[test]
fn r15_stepping_onto_and_off_an_elevated_bridge_costs_one_more() {
    let table = board(12, 10)
        .player("Red", "B6", &[("B4", 'E')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::Water, &["D4", "E4"])
        .terrain(TerrainKind::Bridge { elevated: true }, &["D4", "E4"])
        .terrain(TerrainKind::Road, &["C4"]);
    let mut game = table.game();
    assert_eq!(
        game.ground(sq("D4")),
        Ground::Bridge { elevated: true },
        "a bridge over water"
    );
    play(&mut game, &["activate B4", "advance"]);
    assert_eq!(
        game.check(&Command::Advance).unwrap().0,
        2,
        "R15: onto the bridge, 1 + 1"
    );
    play(&mut game, &["advance"]);
    assert_eq!(
        game.check(&Command::Advance).unwrap().0,
        1,
        "along the bridge"
    );
    play(
        &mut game,
        &["end", "pass", "pass", "activate D4", "advance"],
    );
    assert_eq!(
        game.check(&Command::Advance).unwrap().0,
        2,
        "R15: off the bridge, 1 + 1"
    );

    let mut game = table.game();
    play(&mut game, &["activate B4"]);
    assert_eq!(
        game.check(&cmd("advance E4")).unwrap().0,
        2,
        "a run from the road onto the bridge pays the climb"
    );
    let flat = board(12, 10)
        .player("Red", "B6", &[("C4", 'E')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::Bridge { elevated: false }, &["D4", "E4"])
        .game();
    assert_eq!(
        {
            let mut g = flat;
            play(&mut g, &["activate C4"]);
            g.check(&Command::Advance).unwrap().0
        },
        1,
        "a flat bridge is plain T130"
    );
}

// ---------------------------------------------------------------- R16

#[test]
fn r16_a_building_is_entered_only_by_its_entrance() {
    let mut game = board(12, 10)
        .player("Red", "C2", &[("E3", 'N'), ("D3", 'N'), ("B3", 'N')])
        .player("Blue", "J8", &[("J7", 'S')])
        .area(TerrainKind::Building { entrance: sq("E4") }, "C4", "G7")
        .game();
    assert_eq!(game.ground(sq("C4")), Ground::BuildingWall);
    assert_eq!(game.ground(sq("E4")), Ground::BuildingEntrance);
    assert_eq!(game.ground(sq("E5")), Ground::BuildingFloor);
    play(&mut game, &["activate D3"]);
    let msg = refuse(&mut game, "advance", Ruling::R12);
    assert_eq!(
        msg,
        "D4 is a building wall (T190): no unit may enter it (R12)"
    );
    play(&mut game, &["end", "activate E3"]);
    assert_eq!(
        game.check(&cmd("advance E6")).unwrap().0,
        1,
        "entrance and floor are T130"
    );
    play(&mut game, &["advance E6"]);
    refuse(&mut game, "advance", Ruling::R12);
}

#[test]
fn r16_a_building_is_a_walled_rectangle_with_one_entrance_off_the_corners() {
    let table = duel()
        .area(TerrainKind::Building { entrance: sq("E5") }, "E5", "G7")
        .area(TerrainKind::Building { entrance: sq("B9") }, "A8", "B9");
    let found = problems(&table);
    assert_eq!(
        found,
        [
            "terrain[0]: the entrance E5 must be on the building's wall ring from E5 to G7, not at a corner (R16)",
            "terrain[1]: a building is at least 3 x 3 squares (a wall ring round a floor); A8 to B9 is 2 x 2 (R16)",
        ]
    );
}

#[test]
fn r16_preview_lays_a_valid_building_as_the_game_does_and_a_broken_one_as_wall() {
    let good = duel().area(TerrainKind::Building { entrance: sq("F4") }, "E4", "G6");
    let game = good.game();
    let preview = good.0.preview_terrain();
    assert_eq!(preview.len(), 1, "one piece, one list");
    assert_eq!(preview[0].len(), 9, "every square of the 3 x 3 building");
    for &(square, ground) in &preview[0] {
        assert_eq!(
            ground,
            game.ground(square),
            "the preview of {square} must be what the game lays"
        );
    }
    // A 2 x 2 building breaks R16: validation refuses it, the preview still shows it.
    let broken = duel().area(TerrainKind::Building { entrance: sq("B9") }, "A8", "B9");
    assert!(broken.0.validate().is_err(), "a 2 x 2 building breaks R16");
    let preview = broken.0.preview_terrain();
    assert_eq!(
        preview[0],
        ["A8", "B8", "A9", "B9"]
            .iter()
            .map(|s| (sq(s), Ground::BuildingWall))
            .collect::<Vec<_>>(),
        "a broken building shows as wall on each of its squares"
    );
}

#[test]
fn terrain_pieces_may_overlap_only_as_a_bridge_over_water() {
    let table = duel()
        .terrain(TerrainKind::Woods, &["F5", "F6"])
        .terrain(TerrainKind::LowWall, &["F6"]);
    assert_eq!(
        problems(&table),
        [
            "terrain[1]: low wall at F6 overlaps terrain[0] (woods); pieces may not overlap, except a bridge laid over water"
        ]
    );
}

#[test]
fn overlaps_are_told_once_a_pair_of_pieces_with_their_extent_and_duplicates_once_a_piece() {
    let table = duel()
        .area(TerrainKind::Woods, "A5", "J6")
        .area(TerrainKind::Water, "C5", "F10")
        .terrain(TerrainKind::Road, &["A10", "B10", "A10", "B10", "A10"]);
    assert_eq!(
        problems(&table),
        [
            "terrain[1]: water overlaps terrain[0] (woods) on 8 squares, from C5 to F6; pieces may not overlap, except a bridge laid over water",
            "terrain[2]: 3 squares are listed more than once, the first A10",
        ],
        "two problems for 8 overlapping squares and 3 repeats"
    );
}

#[test]
fn the_engine_s_limits_are_refused_at_setup_with_the_limit_named() {
    use sandtable_cache::{MAX_STASHES, MAX_TURN_LIMIT, Setup};
    let mut setup: Setup = duel().0;
    setup.turn_limit = Some(MAX_TURN_LIMIT);
    assert!(Game::new(&setup).is_ok(), "the longest turn limit");
    setup.turn_limit = Some(MAX_TURN_LIMIT + 1);
    let err = Game::new(&setup).expect_err("one turn past");
    assert_eq!(
        err.problems[0].to_string(),
        format!(
            "turn_limit: a turn limit is 1 to {MAX_TURN_LIMIT} turns, not {} (R11)",
            MAX_TURN_LIMIT + 1
        )
    );
    setup.turn_limit = None;
    // More stashes than the engine numbers: refused before anything is laid.
    setup.stashes = (0..=MAX_STASHES as u16)
        .map(|i| sandtable_cache::Square::new(i % 10, i / 10))
        .collect();
    let err = Game::new(&setup).expect_err("one stash past the limit");
    assert_eq!(
        err.to_string(),
        format!(
            "the setup has 1 problem\n  stashes: {} stashes: at most {MAX_STASHES} are supported (R20)",
            MAX_STASHES + 1
        )
    );
}

#[test]
fn a_setup_with_thousands_of_problems_keeps_a_thousand_and_counts_the_rest() {
    let mut setup = duel().0;
    setup.terrain = (0..3000)
        .map(|_| sandtable_cache::TerrainPiece {
            kind: TerrainKind::Woods,
            squares: vec![sq("K11")],
        })
        .collect();
    let err = Game::new(&setup).expect_err("every piece is off the board");
    assert_eq!(err.problems.len(), sandtable_cache::MAX_PROBLEMS_KEPT);
    assert_eq!(err.more, 2000);
    assert!(err.to_string().ends_with("\n  and 2000 more"), "{err}");
}

// ---------------------------------------------------------------- R28

#[test]
fn r28_a_game_with_no_unit_on_the_board_is_drawn_at_once() {
    let game = board(10, 10)
        .player("Red", "B2", &[])
        .player("Blue", "H8", &[])
        .game();
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(sandtable_cache::DrawReason::NoUnits)),
        "nothing can ever change"
    );
    assert!(game.legal_commands().is_empty(), "no command is legal");
    let summary = game.summary();
    assert!(summary.over && summary.winner.is_none(), "a draw");
    // One side without units is not a draw: the other can still take its Base.
    let game = board(10, 10)
        .player("Red", "B2", &[("C3", 'N')])
        .player("Blue", "H8", &[])
        .game();
    assert!(!game.is_over());
}

// ---------------------------------------------------------------- R31

#[test]
fn r31_undo_steps_back_one_command_and_restores_budgets_exactly() {
    let mut game = Undoable::new(
        board(10, 10)
            .player("Red", "C2", &[("E1", 'N')])
            .player("Blue", "G6", &[("E5", 'N'), ("F5", 'N')])
            .game(),
    );
    let start = game.game().clone();
    let mut snapshots = vec![game.game().clone()];
    for text in [
        "activate E1",
        "advance",
        "advance",
        "advance",
        "advance",
        "right",
        "advance",
    ] {
        play_undoable(&mut game, &[text]);
        snapshots.push(game.game().clone());
    }
    assert_eq!(left(&game), 3);
    snapshots.pop();
    while let Some(expected) = snapshots.pop() {
        let undone = game.undo().expect("within the turn");
        assert_eq!(*game.game(), expected, "after undoing {undone}");
        assert_eq!(
            game.activation(),
            expected.activation(),
            "budget restored exactly"
        );
        assert_eq!(game.state_hash(), expected.state_hash());
    }
    assert_eq!(*game.game(), start);
    let err = game.undo().unwrap_err();
    assert_eq!(
        err,
        "nothing to undo in this turn: undo never goes back past the start of the turn (R31)"
    );
}

#[test]
fn r31_undo_never_goes_back_past_a_pass() {
    let mut game = Undoable::new(duel().game());
    play_undoable(&mut game, &["activate C3", "advance", "pass"]);
    let before = game.clone();
    assert_eq!(
        game.undo(),
        Err(
            "nothing to undo in this turn: undo never goes back past the start of the turn (R31)"
                .to_owned()
        ),
        "the pass began a new turn"
    );
    assert_eq!(game, before, "a refused undo changes nothing");
    play_undoable(&mut game, &["activate G7"]);
    assert_eq!(game.undo(), Ok(cmd("activate G7")));
    assert_eq!(game.game(), before.game());
}

// ---------------------------------------------------------------- R25

#[test]
fn r25_a_building_s_entrance_opens_onto_the_board() {
    // The entrance A5 lies on the ring's west side, on the board's edge: the
    // square outside it is off the board.
    let table = duel().area(TerrainKind::Building { entrance: sq("A5") }, "A4", "C6");
    assert_eq!(
        problems(&table),
        [
            "terrain[0]: the entrance A5 opens off the board: the square outside it must be on the board (R25)"
        ]
    );
    // The same building with its entrance on the east side opens onto D5.
    let table = duel().area(TerrainKind::Building { entrance: sq("C5") }, "A4", "C6");
    let game = Game::new(&table.0).expect("the entrance opens onto D5");
    assert_eq!(game.ground(sq("C5")), Ground::BuildingEntrance);
    // On the board's top row, an entrance on the north side opens off it.
    let table = duel().area(
        TerrainKind::Building {
            entrance: sq("E10"),
        },
        "D8",
        "F10",
    );
    assert_eq!(
        problems(&table),
        [
            "terrain[0]: the entrance E10 opens off the board: the square outside it must be on the board (R25)"
        ]
    );
}

// ---------------------------------------------------------------- R26

#[test]
fn r26_a_turn_limit_not_a_multiple_of_three_or_more_players_is_warned() {
    let three = |limit: u32| {
        board(12, 12)
            .player("Red", "B2", &[("C3", 'N')])
            .player("Blue", "K11", &[("J10", 'S')])
            .player("Green", "B11", &[("C10", 'S')])
            .turn_limit(limit)
    };
    let warnings = |table: common::Table| -> Vec<String> {
        Game::new(&table.0)
            .expect("valid")
            .warnings()
            .iter()
            .filter(|w| w.ruling == Some(Ruling::R26.into()))
            .map(|w| w.to_string())
            .collect()
    };
    assert_eq!(
        warnings(three(10)),
        [
            "turn_limit: a limit of 10 player turns is not a multiple of the 3 players: the last round stops after 1 of them (R26)"
        ]
    );
    assert!(warnings(three(12)).is_empty(), "four full rounds");
    // Two players: any limit ends on a player's turn; nothing to say.
    assert!(warnings(duel().turn_limit(7)).is_empty());
}

// ---------------------------------------------------------------- R27

#[test]
fn r27_a_wall_crossing_costs_two_plus_entering_the_square_beyond() {
    // Red's units face low walls with open ground, water and an elevated
    // bridge beyond.
    let table = |facing: char| {
        board(12, 10)
            .player(
                "Red",
                "E2",
                &[("C3", facing), ("E3", facing), ("G3", facing)],
            )
            .player("Blue", "K9", &[("J8", 'S')])
            .terrain(TerrainKind::LowWall, &["C4", "E4", "G4"])
            .terrain(TerrainKind::Water, &["E5"])
            .terrain(TerrainKind::Bridge { elevated: true }, &["G5"])
    };
    let cost = |unit: &str, facing_the_wall: bool| {
        let mut game = table(if facing_the_wall { 'N' } else { 'E' }).game();
        play(&mut game, &[&format!("activate {unit}")]);
        if !facing_the_wall {
            // It began its activation facing away: no discount (R13).
            play(&mut game, &["left"]);
        }
        // After the turn too few actions may be left: the refusal names the cost.
        match game.check(&Command::Advance) {
            Ok(cost) => cost.0,
            Err(sandtable_cache::CommandError::NotEnoughActions { cost, .. }) => cost.0,
            Err(e) => panic!("{unit}: {e}"),
        }
    };
    // With R13's discount (the activation began facing the wall): 1 plus
    // entering the square beyond.
    assert_eq!(cost("C3", true), 1 + 1, "onto open ground");
    assert_eq!(cost("E3", true), 1 + 3, "into water");
    assert_eq!(
        cost("G3", true),
        1 + 1 + 1,
        "onto an elevated bridge, R15's +1"
    );
    // Without it: 2 plus entering.
    assert_eq!(cost("C3", false), 2 + 1, "3 onto open ground");
    assert_eq!(cost("E3", false), 2 + 3, "5 into water");
    assert_eq!(cost("G3", false), 2 + 1 + 1);
}

#[test]
fn r27_bonus_actions_begin_anew_and_do_not_count_as_an_activation() {
    use sandtable_cache::StashResult;
    // Red's D4 finds a stash on D5 and gives four extra actions to C3,
    // which has already been activated this turn and faces a low wall.
    let mut game = board(10, 10)
        .player("Red", "E3", &[("D4", 'N'), ("C3", 'N'), ("G3", 'N')])
        .player("Blue", "H8", &[("G7", 'S')])
        .terrain(TerrainKind::LowWall, &["C5"])
        .stashes(&["D5"])
        .every_roll(StashResult::ExtraActions(4))
        .game();
    play(&mut game, &["activate C3", "left", "right", "end"]);
    assert!(game.activated_this_turn(UnitId(1)));
    play(&mut game, &["activate D4", "advance"]);
    // A bonus may go to a unit that has acted this turn.
    play(&mut game, &["pick C3"]);
    assert_eq!(game.activation().map(|a| a.unit), Some(UnitId(1)));
    play(&mut game, &["advance"]);
    // C3 now stands before the wall on C4, facing it: the bonus began here,
    // so R13's discount applies to the crossing as its first command.
    play(&mut game, &["end"]);
    let mut game2 = board(10, 10)
        .player("Red", "E3", &[("D4", 'N'), ("C4", 'N'), ("G3", 'N')])
        .player("Blue", "H8", &[("G7", 'S')])
        .terrain(TerrainKind::LowWall, &["C5"])
        .stashes(&["D5"])
        .every_roll(StashResult::ExtraActions(4))
        .game();
    play(&mut game2, &["activate D4", "advance", "pick C4"]);
    assert_eq!(
        game2.check(&Command::Advance).expect("crossing").0,
        1 + 1,
        "the discount of a bonus's first command (R13 as R27 reads it)"
    );
    // The bonus was no activation (R6): the limit of activations is untouched.
    let before = game2.activations_left();
    play(&mut game2, &["end"]);
    assert_eq!(game2.activations_left(), before);
    assert!(
        !game2.activated_this_turn(UnitId(1)),
        "a unit given a bonus may still be activated this turn"
    );
}

// ---------------------------------------------------------------- R24

#[test]
fn r24_a_player_who_resigns_leaves_as_if_its_last_base_were_captured_and_play_goes_on() {
    let mut game = Undoable::new(
        board(12, 12)
            .player("Red", "C3", &[("D4", 'N'), ("B4", 'E')])
            .player("Blue", "J10", &[("I9", 'S')])
            .player("Green", "C10", &[("D9", 'E')])
            .game(),
    );
    play_undoable(&mut game, &["activate D4", "advance"]);
    let events = game.apply(Seat(0), &cmd("resign")).unwrap();
    let said: Vec<String> = events.iter().map(|e| game.describe(e)).collect();
    assert_eq!(
        said,
        [
            // Described after the unit has left the board, so without its square.
            "the activation of the unit ends (3 actions unspent)",
            "Red resigns: 1 base and 2 units leave the game (R24)",
            "Red has no active base left and is out of the game",
            "turn 2: Blue may activate 1 unit",
        ]
    );
    assert!(!game.in_game(PlayerId(0)));
    assert_eq!(game.occupant(sq("C3")), None, "the base leaves the board");
    assert_eq!(game.occupant(sq("D5")), None);
    assert_eq!(game.place(UnitId(0)), Place::Removed);
    assert_eq!(game.current_player(), PlayerId(1));
    // R31: undo stops at the resignation, as at a pass.
    let before = game.clone();
    assert!(game.undo().is_err());
    assert_eq!(game, before);
    // With two players left, the next resignation ends the game.
    play_undoable(&mut game, &["resign"]);
    assert_eq!(game.outcome(), Some(Outcome::Won(PlayerId(2))));
}

#[test]
fn r24_a_draw_is_agreed_when_every_other_remaining_player_accepts_at_its_next_decision() {
    let table = board(12, 12)
        .player("Red", "C3", &[("D4", 'N')])
        .player("Blue", "J10", &[("I9", 'S')])
        .player("Green", "C10", &[("D9", 'E')]);
    let mut game = table.game();
    let msg = refuse(&mut game, "accept draw", Ruling::R24);
    assert_eq!(msg, "no draw is offered (R24)");
    play(&mut game, &["offer draw"]);
    assert_eq!(game.summary().draw_offer.as_deref(), Some("Red"));
    assert_eq!(
        refuse(&mut game, "accept draw", Ruling::R24),
        "the draw is your own offer: the other players accept it (R24)"
    );
    assert_eq!(
        refuse(&mut game, "offer draw", Ruling::R24),
        "Red has offered a draw already: accept it, or play on to decline it (R24)"
    );
    // The offerer plays on; the offer stands.
    play(&mut game, &["activate D4", "pass", "accept draw"]);
    assert_eq!(
        refuse(&mut game, "accept draw", Ruling::R24),
        "you have accepted the draw already (R24)"
    );
    play(&mut game, &["activate I9", "pass"]);
    assert_eq!(game.outcome(), None, "Green has not decided yet");
    let events = game.apply(cmd("accept draw")).unwrap();
    assert_eq!(
        events.iter().map(|e| game.describe(e)).collect::<Vec<_>>(),
        [
            "Green accepts the draw",
            "the game is drawn by agreement (R24)"
        ]
    );
    assert_eq!(
        game.outcome(),
        Some(Outcome::Draw(sandtable_cache::DrawReason::Agreed))
    );

    // Any other command at a player's next decision declines the offer.
    let mut game = table.game();
    play(&mut game, &["offer draw", "pass"]);
    let events = game.apply(cmd("activate I9")).unwrap();
    assert_eq!(
        game.describe(&events[0]),
        "Blue plays on, which declines the draw (R24)"
    );
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.summary().draw_offer, None);
    // Bots never see resigning or draws among the legal commands.
    assert!(game.legal_commands().iter().all(|l| !matches!(
        l.command,
        Command::Resign | Command::OfferDraw | Command::AcceptDraw
    )));
}

#[test]
fn r24_the_notation_reads_and_writes_resign_and_draws() {
    for text in ["resign", "offer draw", "accept draw"] {
        assert_eq!(cmd(text).to_string(), text);
    }
    assert_eq!(cmd("Offer Draw"), Command::OfferDraw);
    let err = "offer peace".parse::<Command>().unwrap_err();
    assert_eq!(err.to_string(), "`offer peace`: write `offer draw`");
}
