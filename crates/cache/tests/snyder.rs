//! The Snyder Skirmish (V101), R20 to R23 and R31: one test per stash result,
//! each in the situation where it bites. Dice are never skipped: a test
//! either gives a stash list whose every row is the result under test, so the
//! real roll from the game's generator leads to it, or reads the roll.

mod common;

use common::{board, cmd, left, play, play_undoable, refuse, sq};
use sandtable_cache::{
    Choice, Command, Event, Facing, Game, Place, PlayerId, Ruling, StashResult, TerrainKind, UnitId,
};
use sandtable_core::dice::Dice;
use sandtable_core::undo::Undoable;

fn rolled(events: &[Event]) -> Option<(u8, StashResult)> {
    events.iter().find_map(|e| match e {
        Event::StashRolled {
            roll, result, dice, ..
        } => {
            assert!(
                (1..=6).contains(&dice[0]) && (1..=6).contains(&dice[1]),
                "{dice:?}"
            );
            assert_eq!(*roll, dice[0] * 10 + dice[1], "tens then units");
            Some((*roll, *result))
        }
        _ => None,
    })
}

/// Red D4 faces a stash on D5; Blue waits far away.
fn red_before_stash(result: StashResult) -> common::Table {
    board(10, 10)
        .player("Red", "C3", &[("D4", 'N'), ("B4", 'E'), ("C5", 'N')])
        .player("Blue", "H8", &[("G7", 'S'), ("I8", 'W')])
        .stashes(&["D5"])
        .every_roll(result)
}

#[test]
fn r20_stashes_lie_where_a_unit_may_stand_one_a_square_off_bases() {
    let table = red_before_stash(StashResult::Nothing)
        .terrain(TerrainKind::LowWall, &["F5"])
        .terrain(TerrainKind::Woods, &["F6"])
        .stashes(&["D5", "D5", "F5", "F6", "C3", "K1"]);
    let err = Game::new(&table.0).expect_err("bad stashes");
    let got: Vec<String> = err.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        got,
        [
            "stashes[1]: D5 already has stashes[0]; at most one stash a square (R20)",
            "stashes[2]: a stash may not lie on a low wall (T110), at F5 (R20)",
            "stashes[3]: a stash may not lie on woods (T190), at F6 (R20)",
            "stashes[4]: C3 holds the base of players[0].factors[0].base; a stash may not lie on a base (R20)",
            "stashes[5]: K1 is off the board of 10 x 10 squares (R1)",
        ]
    );
}

#[test]
fn r21_ending_an_advance_on_a_stash_rolls_removes_it_and_logs_the_row() {
    let mut game = red_before_stash(StashResult::Nothing).game();
    assert!(game.stash_at(sq("D5")));
    play(&mut game, &["activate D4"]);
    let events = game.apply(Command::Advance).unwrap();
    let (roll, result) = rolled(&events).expect("a roll");
    assert_eq!(result, StashResult::Nothing);
    assert!((11..=66).contains(&roll));
    assert!(!game.stash_at(sq("D5")), "the stash is removed");
    assert_eq!(
        game.summary().stashes,
        Vec::<sandtable_cache::Square>::new()
    );
    assert_eq!(left(&game), 3, "sorry, nothing: the activation goes on");
    let text = game.describe(
        events
            .iter()
            .find(|e| matches!(e, Event::StashRolled { .. }))
            .unwrap(),
    );
    assert!(
        text.starts_with("stash on D5: rolled ") && text.ends_with(", sorry, nothing"),
        "{text}"
    );
}

#[test]
fn r21_the_roll_comes_from_the_seeded_generator_and_covers_11_to_66() {
    let roll_with = |seed| {
        let mut game = red_before_stash(StashResult::Nothing).seed(seed).game();
        play(&mut game, &["activate D4"]);
        rolled(&game.apply(Command::Advance).unwrap())
            .expect("a roll")
            .0
    };
    let rolls: std::collections::BTreeSet<u8> = (0..400).map(roll_with).collect();
    assert_eq!(rolls.len(), 36, "every row can come up: {rolls:?}");
    for seed in [3, 99] {
        assert_eq!(
            roll_with(seed),
            roll_with(seed),
            "R30: same seed, same roll"
        );
    }
}

#[test]
fn r21_a_road_run_over_a_stash_does_not_discover_it_but_ending_on_it_does() {
    let mut game = board(12, 10)
        .player("Red", "B6", &[("A4", 'E'), ("B5", 'S')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::Road, &["B4", "C4", "D4", "E4", "F4"])
        .stashes(&["D4", "F4"])
        .every_roll(StashResult::Nothing)
        .game();
    play(&mut game, &["activate A4", "advance"]);
    let events = game.apply(cmd("advance E4")).unwrap();
    assert!(
        rolled(&events).is_none(),
        "passing over D4 discovers nothing"
    );
    assert!(game.stash_at(sq("D4")));
    let events = game.apply(cmd("advance")).unwrap();
    assert!(rolled(&events).is_some(), "ending the Advance on F4 does");
}

#[test]
fn r21_a_capture_or_a_wall_crossing_that_ends_on_a_stash_discovers_it() {
    let mut game = board(10, 10)
        .player("Red", "C3", &[("D4", 'N'), ("B4", 'N'), ("C5", 'N')])
        .player("Blue", "D7", &[("D5", 'W')])
        .terrain(TerrainKind::LowWall, &["B5"])
        .stashes(&["D5", "B6"])
        .every_roll(StashResult::Nothing)
        .game();
    play(&mut game, &["activate D4"]);
    let events = game.apply(Command::Advance).unwrap();
    assert!(matches!(events[0], Event::Captured { .. }), "{events:?}");
    assert!(
        rolled(&events).is_some(),
        "a capture that ends on the stash discovers it"
    );
    play(&mut game, &["end", "activate B4"]);
    let events = game.apply(Command::Advance).unwrap();
    assert!(rolled(&events).is_some(), "so does a crossing: {events:?}");
}

#[test]
fn r22_r23_place_anywhere_waits_for_a_square_and_a_facing() {
    let mut game = red_before_stash(StashResult::PlaceAnywhere).game();
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(
        game.pending(),
        Some(Choice::PlaceAnywhere { unit: UnitId(0) })
    );
    assert_eq!(game.summary().pending.as_deref(), Some("place_anywhere"));
    let legal = game.legal_commands();
    assert!(
        legal
            .iter()
            .all(|l| matches!(l.command, Command::Place(..))),
        "R22: only choices"
    );
    // 100 squares, less two bases and four other units; the unit's own square stays open.
    assert_eq!(legal.len(), (100 - 2 - 4) * 4);
    // R23: a lifted unit leaves its square empty, so placing it back there
    // is a change of facing.
    let mut back = game.clone();
    play(&mut back, &["place D5 E"]);
    assert_eq!(
        back.position(UnitId(0)),
        Some((sq("D5"), "E".parse().unwrap()))
    );
    let msg = refuse(&mut game, "left", Ruling::R22);
    assert!(
        msg.contains("a stash result waits for a choice: `place SQUARE FACING`"),
        "{msg}"
    );
    refuse(&mut game, "pass", Ruling::R22);
    refuse(&mut game, "pick G7", Ruling::R22);
    refuse(&mut game, "place H8 N", Ruling::R23);
    refuse(&mut game, "place G7 N", Ruling::R23);
    play(&mut game, &["place A9 S"]);
    assert_eq!(
        game.position(UnitId(0)),
        Some((sq("A9"), "S".parse().unwrap()))
    );
    assert_eq!(game.pending(), None);
    assert_eq!(left(&game), 3, "its activation goes on");
    refuse(&mut game, "place A8 S", Ruling::R22);
}

#[test]
fn r23_extra_actions_picked_for_the_discovering_unit_join_its_budget() {
    let mut game = red_before_stash(StashResult::ExtraActions(4)).game();
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(game.pending(), Some(Choice::ExtraActions { actions: 4 }));
    let picks: Vec<String> = game
        .legal_commands()
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(
        picks,
        ["pick D5", "pick B4", "pick C5"],
        "only the player's own units"
    );
    refuse(&mut game, "pick G7", Ruling::R23);
    let events = game.apply(cmd("pick D5")).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::ExtraActions { actions, .. } if actions.0 == 4))
    );
    assert_eq!(left(&game), 3 + 4);
    assert_eq!(
        game.activations_left(),
        1,
        "still one of two activations left"
    );
}

#[test]
fn r23_extra_actions_for_another_unit_pause_the_activation_and_do_not_count_against_the_limit() {
    let mut game = board(10, 10)
        .player("Red", "E4", &[("D4", 'N'), ("F6", 'E'), ("C3", 'N')])
        .player("Blue", "H8", &[("G6", 'N'), ("I9", 'S')])
        .stashes(&["D5"])
        .every_roll(StashResult::ExtraActions(4))
        .game();
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(game.activations_left(), 1);
    let events = game.apply(cmd("pick F6")).unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::BonusStarted { actions, .. } if actions.0 == 4)),
        "{events:?}"
    );
    assert_eq!(game.paused_activations().len(), 1, "D5's activation waits");
    assert_eq!(left(&game), 4, "F6 takes up to four actions");
    let events = game.apply(Command::Advance).unwrap();
    assert!(
        matches!(events[0], Event::Captured { earned, .. } if earned.0 == 2),
        "a capture during the bonus earns as usual: {events:?}"
    );
    assert_eq!(left(&game), 4 - 1 + 2);
    let events = game.apply(Command::End).unwrap();
    assert!(matches!(
        events[..],
        [
            Event::ActivationEnded { .. },
            Event::ActivationResumed { unit: UnitId(0) }
        ]
    ));
    assert_eq!(game.activation().map(|a| a.unit), Some(UnitId(0)));
    assert_eq!(left(&game), 3, "D5 resumes with what it had");
    assert_eq!(
        game.activations_left(),
        1,
        "the bonus did not use an activation"
    );
    play(&mut game, &["end", "activate G6"]);
    assert!(
        !game.activated_this_turn(UnitId(2)),
        "C3 has not been activated"
    );
}

#[test]
fn r23_a_stash_discovered_during_bonus_actions_nests_and_unwinds_in_order() {
    let mut game = board(10, 10)
        .player("Red", "E4", &[("D4", 'N'), ("F6", 'E'), ("C3", 'N')])
        .player("Blue", "H8", &[("I9", 'S')])
        .stashes(&["D5", "G6"])
        .every_roll(StashResult::ExtraActions(3))
        .game();
    play(&mut game, &["activate D4", "advance", "pick F6", "advance"]);
    assert_eq!(
        game.pending(),
        Some(Choice::ExtraActions { actions: 3 }),
        "a second stash"
    );
    play(&mut game, &["pick D5"]);
    assert_eq!(
        game.paused_activations().len(),
        2,
        "D5's turn and G6's bonus both wait"
    );
    assert_eq!(
        game.activation().map(|a| (a.unit, a.left().0)),
        Some((UnitId(0), 3))
    );
    play(&mut game, &["left", "left", "left"]);
    assert_eq!(
        game.activation().map(|a| (a.unit, a.left().0)),
        Some((UnitId(1), 2)),
        "the spent bonus ends by itself and G6's bonus resumes"
    );
    play(&mut game, &["end"]);
    assert_eq!(
        game.activation().map(|a| (a.unit, a.left().0)),
        Some((UnitId(0), 3))
    );
    assert!(game.paused_activations().is_empty());
}

#[test]
fn r23_an_unfriendly_unit_returns_to_within_two_of_its_base() {
    let mut game = red_before_stash(StashResult::ReturnUnfriendly).game();
    play(
        &mut game,
        &[
            "pass",
            "activate G7",
            "advance",
            "advance",
            "advance",
            "pass",
        ],
    );
    assert_eq!(game.unit_at(sq("G4")), Some(UnitId(3)));
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(game.pending(), Some(Choice::PickUnfriendly));
    refuse(&mut game, "pick B4", Ruling::R23);
    play(&mut game, &["pick G4"]);
    assert_eq!(
        game.pending(),
        Some(Choice::ReturnUnfriendly { unit: UnitId(3) })
    );
    let msg = refuse(&mut game, "place E4 N", Ruling::R23);
    assert!(msg.contains("within 2 of the unit's base H8"), "{msg}");
    play(&mut game, &["place J10 W"]);
    assert_eq!(
        game.position(UnitId(3)),
        Some((sq("J10"), "W".parse().unwrap()))
    );
    assert_eq!(left(&game), 3);
}

#[test]
fn r23_an_unfriendly_unit_with_no_room_near_its_base_is_captured_without_bonus() {
    let red_ring = [
        ("F6", 'W'),
        ("F7", 'W'),
        ("F8", 'W'),
        ("F9", 'W'),
        ("F10", 'W'),
        ("G6", 'W'),
        ("G7", 'W'),
        ("G8", 'W'),
        ("G9", 'W'),
        ("G10", 'W'),
    ];
    let mut game = board(14, 12)
        .player("Red", "E8", &red_ring)
        .factor("L3", &[("J5", 'N'), ("L5", 'N')])
        .player("Blue", "H8", &[("J6", 'E')])
        .terrain(
            TerrainKind::Woods,
            &[
                "H6", "H7", "H9", "H10", "I6", "I7", "I8", "I9", "I10", "J7", "J8", "J9", "J10",
            ],
        )
        .stashes(&["L6"])
        .every_roll(StashResult::ReturnUnfriendly)
        .game();
    play(&mut game, &["pass", "activate J6", "advance", "pass"]);
    play(
        &mut game,
        &["activate J5", "advance", "end", "activate L5", "advance"],
    );
    let legal: Vec<String> = game
        .legal_commands()
        .iter()
        .map(|l| l.command.to_string())
        .collect();
    assert_eq!(legal, ["pick K6"]);
    let events = game.apply(cmd("pick K6")).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::TakenIntoCustody {
                holder: PlayerId(0),
                ..
            }
        )),
        "{events:?}"
    );
    assert_eq!(
        game.place(UnitId(12)),
        Place::Custody {
            holder: PlayerId(0)
        }
    );
    assert_eq!(left(&game), 3, "no facing bonus for a stash capture");
}

#[test]
fn r23_return_unfriendly_does_nothing_when_no_unfriendly_unit_is_on_the_board() {
    let mut game = board(10, 10)
        .player("Red", "C3", &[("D4", 'N')])
        .player("Blue", "H8", &[])
        .stashes(&["D5"])
        .every_roll(StashResult::ReturnUnfriendly)
        .game();
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(game.pending(), None);
    assert_eq!(left(&game), 3);
}

/// Red's D5 faces Blue's D6, which can capture it; every stash on B5
/// returns a captured friend.
fn red_beside_blue_d6() -> common::Table {
    board(10, 10)
        .player("Red", "C3", &[("D5", 'N'), ("B4", 'N'), ("E3", 'E')])
        .player("Blue", "F7", &[("D6", 'S')])
        .stashes(&["B5"])
        .every_roll(StashResult::ReturnCapturedFriend)
}

#[test]
fn r23_a_captured_friend_returns_to_within_two_of_its_base() {
    let table = red_beside_blue_d6();
    let mut game = table.game();
    play(&mut game, &["pass", "activate D6", "advance", "pass"]);
    assert_eq!(
        game.place(UnitId(0)),
        Place::Custody {
            holder: PlayerId(1)
        }
    );
    play(&mut game, &["activate B4", "advance"]);
    assert_eq!(game.pending(), Some(Choice::ReturnFriend));
    refuse(&mut game, "place H2 N", Ruling::R23);
    let events = game.apply(cmd("place A1 E")).unwrap();
    assert!(
        matches!(events[0], Event::UnitPlaced { from: None, .. }),
        "{events:?}"
    );
    assert_eq!(
        game.position(UnitId(0)),
        Some((sq("A1"), "E".parse().unwrap()))
    );
    assert!(game.summary().custody.is_empty());

    // With no friend in custody, nothing happens.
    let mut game = table.game();
    play(&mut game, &["activate B4", "advance"]);
    assert_eq!(game.pending(), None);
    assert_eq!(left(&game), 3);
}

#[test]
fn r23_this_unit_returns_to_within_two_of_its_base() {
    let mut game = red_before_stash(StashResult::ReturnThisUnit).game();
    play(&mut game, &["activate D4", "advance"]);
    assert_eq!(
        game.pending(),
        Some(Choice::ReturnThisUnit { unit: UnitId(0) })
    );
    refuse(&mut game, "place F6 N", Ruling::R23);
    play(&mut game, &["place A1 N"]);
    assert_eq!(
        game.position(UnitId(0)),
        Some((sq("A1"), "N".parse().unwrap()))
    );
    assert_eq!(left(&game), 3, "its activation goes on");
}

#[test]
fn r23_this_unit_is_discarded_when_its_base_has_no_room() {
    let woods: Vec<String> = ["A", "B", "C", "D", "E"]
        .iter()
        .flat_map(|c| (1..=5).map(move |r| format!("{c}{r}")))
        .filter(|s| s != "C3" && s != "E5")
        .collect();
    let woods: Vec<&str> = woods.iter().map(String::as_str).collect();
    let mut game = board(12, 10)
        .player("Red", "C3", &[("E5", 'N')])
        .factor("H4", &[("F5", 'W')])
        .player("Blue", "J8", &[("J7", 'S')])
        .terrain(TerrainKind::Woods, &woods)
        .stashes(&["E7"])
        .every_roll(StashResult::ReturnThisUnit)
        .game();
    play(&mut game, &["activate E5", "advance", "pass", "pass"]);
    play(&mut game, &["activate F5", "advance", "pass", "pass"]);
    play(&mut game, &["activate E6"]);
    let events = game.apply(Command::Advance).unwrap();
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::UnitDiscarded {
                unit: UnitId(0),
                ..
            }
        )),
        "{events:?}"
    );
    assert!(
        matches!(events.last(), Some(Event::ActivationEnded { .. })),
        "{events:?}"
    );
    assert_eq!(game.place(UnitId(0)), Place::Removed);
    assert_eq!(game.summary().removed.len(), 1);
}

#[test]
fn r31_undo_never_goes_back_past_a_roll() {
    let mut game = Undoable::new(red_before_stash(StashResult::PlaceAnywhere).game());
    play_undoable(&mut game, &["activate D4", "advance"]);
    let before = game.clone();
    let err = game.undo().unwrap_err();
    assert_eq!(
        err,
        "cannot undo further: undo never goes back past a dice roll or a discovered stash (R31)"
    );
    assert_eq!(game, before);
    play_undoable(&mut game, &["place A9 S", "left"]);
    assert_eq!(game.undo(), Ok(cmd("left")));
    assert_eq!(game.undo(), Ok(cmd("place A9 S")));
    assert_eq!(
        game.game(),
        before.game(),
        "back to the choice, stash still gone"
    );
    assert!(game.undo().is_err());
}

#[test]
fn r30_a_reseeded_copy_rolls_its_own_dice_and_the_game_keeps_its_own() {
    let roll_after = |game: &Game| {
        let mut copy = game.clone();
        rolled(&copy.apply(Command::Advance).unwrap())
            .expect("a roll")
            .0
    };
    let mut game = red_before_stash(StashResult::Nothing).seed(7).game();
    play(&mut game, &["activate D4"]);
    let real = roll_after(&game);
    assert_eq!(roll_after(&game), real, "R30: the same game rolls the same");
    let reseeded = |seed| {
        let mut copy = game.clone();
        copy.reseed(seed);
        roll_after(&copy)
    };
    assert_eq!(
        reseeded(5),
        reseeded(5),
        "the same reseed gives the same roll"
    );
    let rolls: std::collections::BTreeSet<u8> = (0..200).map(reseeded).collect();
    assert!(
        rolls.len() > 20,
        "reseeded copies sample rolls of their own: {rolls:?}"
    );
    assert_eq!(
        roll_after(&game),
        real,
        "reseeding a copy leaves the game alone"
    );
    let mut copy = Undoable::new(game.clone());
    play_undoable(&mut copy, &["left"]);
    copy.reseed(1);
    assert_eq!(
        copy.summary(),
        {
            let mut turned = game.clone();
            play(&mut turned, &["left"]);
            turned.summary()
        },
        "reseeding changes no piece, budget or turn"
    );
    assert_eq!(
        copy.undo().unwrap_err(),
        "cannot undo further: undo never goes back past a dice roll or a discovered stash (R31)",
        "R31: undo does not go back past a reseed"
    );
}

#[test]
fn r30_scripted_dice_give_the_stash_roll_tens_then_units() {
    let table = red_before_stash(StashResult::Nothing);
    let mut game = Game::with_dice(&table.0, Dice::scripted(vec![3, 4, 6])).unwrap();
    play(&mut game, &["activate D4"]);
    let events = game.apply(Command::Advance).unwrap();
    assert_eq!(rolled(&events), Some((34, StashResult::Nothing)));
    assert_eq!(game.dice().left(), Some(1), "two of the three rolls used");
    assert_eq!(game.dice().script().unwrap().used(), &[3, 4]);
}

#[test]
fn r30_scripted_dice_that_run_out_refuse_the_advance_onto_a_stash_and_change_nothing() {
    let table = red_before_stash(StashResult::Nothing);
    let mut game = Game::with_dice(&table.0, Dice::scripted(vec![5])).unwrap();
    play(&mut game, &["activate D4"]);
    let msg = refuse(&mut game, "advance", Ruling::R30);
    assert_eq!(
        msg,
        "the scripted dice have run out: 2 more rolls are needed and 1 is left (R30)"
    );
    assert_eq!(game.dice().left(), Some(1), "the refusal used no roll");
    // Commands that roll nothing go on as before: D4 turns and steps to C4.
    play(&mut game, &["left", "advance"]);
    assert_eq!(game.position(UnitId(0)), Some((sq("C4"), Facing::W)));
    assert_eq!(game.dice().left(), Some(1));
}

#[test]
fn r5_r30_a_missing_first_player_is_drawn_with_scripted_dice_as_a_person_would() {
    // Two players: a coin (R30), 1-3 for the first, 4-6 for the second.
    let two = red_before_stash(StashResult::Nothing).first(None);
    for (roll, first) in [(2, 0), (5, 1)] {
        let game = Game::with_dice(&two.0, Dice::scripted(vec![roll])).unwrap();
        assert_eq!(game.current_player(), PlayerId(first), "roll {roll}");
        assert_eq!(game.dice().left(), Some(0), "the draw used the roll");
    }
    // Three players: 1-2, 3-4, 5-6.
    let three = red_before_stash(StashResult::Nothing)
        .player("Green", "B9", &[("B8", 'S')])
        .first(None);
    let game = Game::with_dice(&three.0, Dice::scripted(vec![5])).unwrap();
    assert_eq!(game.current_player(), PlayerId(2));
    // A named first player rolls nothing.
    let named = red_before_stash(StashResult::Nothing).first(Some(1));
    let named = Game::with_dice(&named.0, Dice::scripted(vec![])).unwrap();
    assert_eq!(named.current_player(), PlayerId(1));
    let err = Game::with_dice(&two.0, Dice::scripted(vec![])).unwrap_err();
    assert_eq!(
        err.problems
            .iter()
            .map(|p| p.to_string())
            .collect::<Vec<_>>(),
        [
            "first_player: left out, so it is drawn with the dice, but the scripted dice have run out: 1 more roll is needed and none is left (R5)"
        ]
    );
}

#[test]
fn r21_the_odds_of_a_stash_roll_match_every_roll_of_the_dice_played_out() {
    // The seed's own stash list, so that the rows differ.
    let table = board(10, 10)
        .player("Red", "C3", &[("D4", 'N'), ("B4", 'E'), ("C5", 'N')])
        .player("Blue", "H8", &[("G7", 'S'), ("I8", 'W')])
        .stashes(&["D5"]);
    let mut game = table.game();
    play(&mut game, &["activate D4"]);
    let odds = game
        .odds(&Command::Advance)
        .expect("dice decide this advance");
    assert_eq!(
        odds.what,
        "the stash roll on D5: two d6 read as tens and units (R21)"
    );
    // Every roll of two dice, played out with scripted dice.
    let mut tally: Vec<(String, u64)> = Vec::new();
    for tens in 1..=6 {
        for units in 1..=6 {
            let mut forced = Game::with_dice(&table.0, Dice::scripted(vec![tens, units])).unwrap();
            play(&mut forced, &["activate D4"]);
            let events = forced.apply(Command::Advance).unwrap();
            let words = rolled(&events).expect("a roll").1.to_string();
            match tally.iter_mut().find(|(w, _)| *w == words) {
                Some((_, n)) => *n += 1,
                None => tally.push((words, 1)),
            }
        }
    }
    let from_odds: Vec<(String, u64)> = odds
        .outcomes
        .iter()
        .map(|(w, c)| {
            assert_eq!(c.den, 36);
            (w.clone(), c.num)
        })
        .collect();
    assert_eq!(from_odds, tally);
    assert!(
        tally.len() >= 4,
        "the seed's list has several results: {tally:?}"
    );
    // No dice decide a turn, or an advance onto open ground.
    assert_eq!(game.odds(&Command::TurnLeft), None);
    play(&mut game, &["left"]);
    assert_eq!(game.odds(&Command::Advance), None);
}

#[test]
fn r23_the_player_picks_which_captive_returns_when_two_opponents_hold_one_each() {
    let table = red_beside_blue_d6().player("Green", "H3", &[("F3", 'W')]);
    let mut game = table.game();
    play(
        &mut game,
        &[
            "pass",
            "activate D6",
            "advance",
            "pass",
            "activate F3",
            "advance",
            "pass",
        ],
    );
    assert_eq!(
        game.place(UnitId(0)),
        Place::Custody {
            holder: PlayerId(1)
        }
    );
    assert_eq!(
        game.place(UnitId(2)),
        Place::Custody {
            holder: PlayerId(2)
        }
    );
    play(&mut game, &["activate B4", "advance"]);
    assert_eq!(game.pending(), Some(Choice::ReturnFriend));
    // A1 lies within 2 of Red's base, so either captive may go there.
    let msg = refuse(&mut game, "place A1 E", Ruling::R23);
    assert_eq!(
        msg,
        "more than one captive of yours can return to A1: name the one to return, as in \
         `place A1 E 0:0` (held by Blue) or `place A1 E 0:2` (held by Green) (R23)"
    );
    assert_eq!(
        refuse(&mut game, "place A1 E 0:1", Ruling::R23),
        "your unit 0:1 is not a captive that may return: an opponent must hold it and its Base must be on the board (R23)"
    );
    assert_eq!(
        refuse(&mut game, "place A1 E 0:7", Ruling::R23),
        "you have no unit 0:7: a captive is named by its Factor among yours and its unit in that Factor, from 0 (R23)"
    );
    assert_eq!(
        refuse(&mut game, "place H8 E 0:2", Ruling::R23),
        "H8 is not an empty square within 2 of your unit 0:2's base C3 (R23)"
    );
    let listed: Vec<String> = game
        .legal_commands()
        .iter()
        .map(|l| l.command.to_string())
        .filter(|c| c.starts_with("place A1 E"))
        .collect();
    assert_eq!(listed, ["place A1 E 0:0", "place A1 E 0:2"]);
    // The pick decides whose custody loses a unit: Green's, not Blue's.
    let events = game.apply(cmd("place A1 E 0:2")).unwrap();
    assert!(
        matches!(
            events[0],
            Event::UnitPlaced {
                unit: UnitId(2),
                from: None,
                ..
            }
        ),
        "{events:?}"
    );
    assert_eq!(game.position(UnitId(2)), Some((sq("A1"), Facing::E)));
    assert_eq!(
        game.place(UnitId(0)),
        Place::Custody {
            holder: PlayerId(1)
        }
    );
    let custody = game.summary().custody;
    assert_eq!(custody.len(), 1);
    assert_eq!(custody[0].holder, "Blue");
    // The pick reads back from a record.
    assert_eq!(cmd("place A1 E 0:2").to_string(), "place A1 E 0:2");
}

#[test]
fn r23_with_one_captive_that_fits_the_square_the_place_names_no_captive() {
    let table = red_beside_blue_d6();
    let mut game = table.game();
    play(
        &mut game,
        &[
            "pass",
            "activate D6",
            "advance",
            "pass",
            "activate B4",
            "advance",
        ],
    );
    assert_eq!(
        refuse(&mut game, "place A1 E 0:0", Ruling::R23),
        "only one captive of yours can return to A1: write `place A1 E` (R23)"
    );
    play(&mut game, &["place A1 E"]);
    assert_eq!(game.position(UnitId(0)), Some((sq("A1"), Facing::E)));
}
