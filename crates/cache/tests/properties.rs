//! Property test: random games from a few setups, checking after every command
//! that `legal_commands()` agrees with `check`, that other commands are refused
//! without touching the state, that undo steps back exactly (R31), and that no
//! two pieces share a square (R1).

mod common;

use std::collections::BTreeSet;

use common::{board, sq};
use proptest::prelude::*;
use sandtable_cache::CacheLegal;
use sandtable_cache::{
    Command, Game, Occupant, Place, Setup, Square, TerrainKind, UnitId, samples,
};
use sandtable_core::undo::Undoable;

fn setups() -> Vec<Setup> {
    let three = board(14, 12)
        .player(
            "Red",
            "C3",
            &[("C4", 'N'), ("D4", 'E'), ("B4", 'W'), ("D2", 'E')],
        )
        .player("Green", "L3", &[("L4", 'N'), ("K4", 'W'), ("M2", 'S')])
        .factor("G9", &[("G8", 'S'), ("F8", 'W')])
        .player("Blue", "G5", &[("G6", 'N'), ("F5", 'W'), ("H4", 'S')])
        .terrain(TerrainKind::LowWall, &["E5", "E6", "J5"])
        .terrain(TerrainKind::Water, &["F3", "G3", "H3"])
        .terrain(TerrainKind::Bridge { elevated: true }, &["G3"])
        .terrain(TerrainKind::Road, &["A7", "B7", "C7", "D7", "E7", "F7"])
        .area(
            TerrainKind::Building {
                entrance: sq("J10"),
            },
            "I10",
            "K12",
        )
        .turn_limit(60)
        .first(None)
        .seed(3);
    let small = board(6, 6)
        .player("Red", "B2", &[("A1", 'N'), ("C3", 'E'), ("B3", 'N')])
        .player("Blue", "E5", &[("D4", 'W'), ("F6", 'S'), ("E4", 'S')])
        .terrain(TerrainKind::LowWall, &["C4", "D3"])
        .turn_limit(40);
    // The Snyder Skirmish: stashes everywhere, the seed's stash list.
    let snyder = board(8, 8)
        .player(
            "Red",
            "C2",
            &[("B3", 'N'), ("C3", 'E'), ("D3", 'N'), ("D1", 'E')],
        )
        .player(
            "Blue",
            "F7",
            &[("E6", 'S'), ("F6", 'W'), ("G6", 'S'), ("G8", 'W')],
        )
        .terrain(TerrainKind::LowWall, &["A5", "H5"])
        .stashes(&[
            "B4", "C4", "D4", "E4", "F4", "G4", "B5", "C5", "D5", "E5", "F5", "G5", "A6", "H3",
            "C6", "E3",
        ])
        .turn_limit(40)
        .seed(17);
    vec![
        samples::table_a_skirmish(11, Some(80)),
        three.0,
        small.0,
        snyder.0,
    ]
}

/// Commands worth probing: every fixed word, activation of every square with a
/// unit or base, and runs to every square in line with the acting unit.
fn candidates(game: &Game, extra: &[Square]) -> Vec<Command> {
    let mut out = vec![
        Command::TurnLeft,
        Command::TurnRight,
        Command::Advance,
        Command::End,
        Command::Pass,
    ];
    let b = game.board();
    for s in b.squares() {
        if game.occupant(s).is_some() {
            out.push(Command::Activate(s));
        }
    }
    if let Some(a) = game.activation()
        && let Some((at, _)) = game.position(a.unit)
    {
        for s in b.squares() {
            if s.col == at.col || s.row == at.row {
                out.push(Command::AdvanceTo(s));
            }
        }
    }
    for s in extra {
        out.push(Command::Activate(*s));
        out.push(Command::AdvanceTo(*s));
        out.push(Command::Pick(*s));
        out.push(Command::Place(*s, sandtable_cache::Facing::N));
    }
    if game.pending().is_some() {
        for s in b.squares() {
            out.push(Command::Pick(s));
            for f in sandtable_cache::Facing::ALL {
                out.push(Command::Place(s, f));
            }
            // Every unit of the first Factor named as a captive (R23).
            for unit in 0..3 {
                let captive = sandtable_cache::Captive { factor: 0, unit };
                out.push(Command::PlaceCaptive(
                    s,
                    sandtable_cache::Facing::N,
                    captive,
                ));
            }
        }
    }
    out
}

fn assert_board_consistent(game: &Game) {
    let mut seen = BTreeSet::new();
    for (i, _) in game.units().iter().enumerate() {
        let id = UnitId(i as u16);
        if let Place::Board { square, .. } = game.place(id) {
            assert!(seen.insert(square), "R1: two pieces on {square}");
            assert_eq!(
                game.occupant(square),
                Some(Occupant::Unit(id)),
                "grid agrees on {square}"
            );
        }
    }
    for (i, f) in game.factors().iter().enumerate() {
        if game.base_active(sandtable_cache::FactorId(i as u16)) {
            assert!(seen.insert(f.base), "R1: a base shares {}", f.base);
        }
    }
    let occupied = game
        .board()
        .squares()
        .filter(|s| game.occupant(*s).is_some())
        .count();
    assert_eq!(occupied, seen.len(), "no stale pieces in the grid");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn legal_commands_are_exactly_the_commands_check_accepts(
        which in 0usize..4,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 50..400),
        probes in prop::collection::vec((0u16..30, 0u16..30), 4),
    ) {
        let mut setup = setups().swap_remove(which);
        setup.seed = seed;
        let mut game = Undoable::new(Game::new(&setup).expect("valid setup"));
        let extra: Vec<Square> = probes.iter().map(|(c, r)| Square::new(*c, *r)).collect();
        for choice in choices {
            let legal = game.legal_commands();
            for l in &legal {
                prop_assert_eq!(game.check(&l.command), Ok(l.actions()), "listed {} passes check", l.command);
                // An advance lands where its listing says (R13: beyond a low
                // wall), and where `advance_landing` says.
                if matches!(l.command, Command::Advance | Command::AdvanceTo(_)) {
                    let unit = game.activation().expect("an advance needs a unit acting").unit;
                    let (from, facing) = game.position(unit).expect("on the board");
                    if l.command == Command::Advance {
                        prop_assert_eq!(l.lands(), game.advance_landing(from, facing));
                    }
                    let mut after = game.game().clone();
                    after.apply(l.command).expect("listed commands apply");
                    prop_assert_eq!(after.position(unit).map(|(sq, _)| sq), l.lands(), "{}", l.command);
                } else if let Command::Activate(sq) | Command::Pick(sq) | Command::Place(sq, _) | Command::PlaceCaptive(sq, ..) = l.command {
                    prop_assert_eq!(l.lands(), Some(sq));
                } else {
                    prop_assert_eq!(l.lands(), None);
                }
                // The piece it acts on: the unit acting, activated or picked,
                // or the unit to be placed while it stands on the board.
                let piece = l.piece.map(|spot| Square::from_spot(spot).expect("a square"));
                let acting = game.activation().and_then(|a| game.position(a.unit)).map(|(sq, _)| sq);
                match l.command {
                    Command::Activate(sq) | Command::Pick(sq) => prop_assert_eq!(piece, Some(sq)),
                    Command::Place(..) | Command::PlaceCaptive(..) => {
                        if let Some(sq) = piece {
                            prop_assert!(game.unit_at(sq).is_some(), "{} places the unit on {}", l.command, sq);
                        }
                    }
                    _ => prop_assert_eq!(piece, acting, "{}", l.command),
                }
            }
            for c in candidates(&game, &extra) {
                if legal.iter().any(|l| l.command == c) {
                    continue;
                }
                let before = game.clone();
                let err = game.apply(game.seat_to_move(), &c);
                prop_assert!(err.is_err(), "{} is not listed, so it is refused", c);
                prop_assert!(game == before, "refused {} changed the state", c);
            }
            if legal.is_empty() {
                prop_assert!(game.is_over(), "only a finished game has no legal command");
                break;
            }
            let pick = legal[choice as usize % legal.len()].command;
            let before = game.clone();
            let events = game.apply(game.seat_to_move(), &pick).expect("listed commands apply");
            assert_board_consistent(&game);
            let rolled = events.iter().any(|e| matches!(e, sandtable_cache::Event::StashRolled { .. }));
            if rolled {
                prop_assert!(game.undo().is_err(), "R31: no undo past a roll");
            } else if pick != Command::Pass && choice % 5 == 0 {
                prop_assert_eq!(game.undo(), Ok(pick));
                prop_assert!(game == before, "R31: undo of {} restores the state exactly", pick);
                game.apply(game.seat_to_move(), &pick).expect("it applies again");
            }
        }
    }
}

/// What the summary says agrees with the game, and every unit, Base and
/// stash is counted exactly once: on the board, in custody or removed;
/// active or captured; present or discovered.
fn assert_summary_consistent(game: &Game, stashes_at_start: usize, discovered: usize) {
    let s = game.summary();
    let n = game.units().len();
    let on_board = (0..n)
        .filter(|i| matches!(game.place(UnitId(*i as u16)), Place::Board { .. }))
        .count();
    assert_eq!(s.units.len(), on_board, "units on the board");
    assert_eq!(
        s.units.len() + s.custody.len() + s.removed.len(),
        n,
        "every unit is on the board, in custody or removed"
    );
    assert_eq!(s.bases.len(), game.factors().len(), "every Base is listed");
    let active = (0..game.factors().len())
        .filter(|f| game.base_active(sandtable_cache::FactorId(*f as u16)))
        .count();
    assert_eq!(
        s.bases.iter().filter(|b| b.active).count(),
        active,
        "active Bases"
    );
    assert_eq!(
        s.stashes.len() + discovered,
        stashes_at_start,
        "R21: every stash is present or was discovered once"
    );
    assert_eq!(s.over, game.is_over(), "over");
    assert_eq!(
        s.activation.is_some(),
        game.activation().is_some(),
        "the acting unit"
    );
    assert!(
        s.activations_left <= game.turn_activation_limit(),
        "R6: activations left ({}) within the turn's limit ({})",
        s.activations_left,
        game.turn_activation_limit()
    );
    if let Some(a) = game.activation() {
        assert!(
            a.spent <= a.given + a.earned,
            "R8: no more actions spent than given and earned"
        );
    }
    match game.outcome() {
        Some(sandtable_cache::Outcome::Won(p)) => {
            assert_eq!(s.winner.as_deref(), Some(game.player(p).name.as_str()));
            let alive = (0..game.players().len())
                .filter(|p| game.in_game(sandtable_cache::PlayerId(*p as u16)))
                .count();
            assert_eq!(alive, 1, "R11: the winner is the last with an active Base");
        }
        Some(sandtable_cache::Outcome::Draw(sandtable_cache::DrawReason::NoUnits)) => {
            assert_eq!(
                on_board, 0,
                "R28: a draw for want of units has none on the board"
            );
        }
        _ => assert_eq!(s.winner, None, "no winner"),
    }
    if !game.is_over() {
        assert!(
            on_board > 0,
            "R28: a game with no unit on the board is over"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_their_summary_and_counts_consistent(
        which in 0usize..4,
        seed in any::<u64>(),
        choices in prop::collection::vec(any::<u32>(), 100..600),
    ) {
        let mut setup = setups().swap_remove(which);
        setup.seed = seed;
        let stashes = setup.stashes.len();
        let mut game = Game::new(&setup).expect("valid setup");
        let mut discovered = 0;
        assert_summary_consistent(&game, stashes, discovered);
        for choice in choices {
            let legal = game.legal_commands();
            let Some(pick) = legal.get(choice as usize % legal.len().max(1)) else {
                break;
            };
            let events = game.apply(pick.command).expect("listed commands apply");
            discovered += events
                .iter()
                .filter(|e| matches!(e, sandtable_cache::Event::StashRolled { .. }))
                .count();
            assert_summary_consistent(&game, stashes, discovered);
        }
    }
}
