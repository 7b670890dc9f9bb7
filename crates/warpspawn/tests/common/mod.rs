//! Helpers for the battle's tests: a field set up in a line, scripted dice,
//! commands by their notation, and refusals that change nothing.

#![allow(dead_code)]

use sandtable_core::dice::Dice;
use sandtable_warpspawn::{
    Band, CommandError, Event, Game, Hex, Men, PiecesSetup, Setup, Side, Stack, Terrain, samples,
};

pub const RED: Side = Side(0);
pub const BLUE: Side = Side(1);

pub fn h(name: &str) -> Hex {
    name.parse().unwrap()
}

/// Pieces of a side: infantry, cavalry, officers.
pub fn p(side: usize, at: &str, inf: u16, cav: u16, officers: u16) -> PiecesSetup {
    samples::pieces(side, at, inf, cav, officers)
}

/// The same with a cannon.
pub fn gun(side: usize, at: &str, inf: u16) -> PiecesSetup {
    PiecesSetup {
        cannon: true,
        ..p(side, at, inf, 0, 0)
    }
}

/// A setup of an open `columns` x `rows` field with these pieces and
/// terrain: Red (home S) first against Blue (home N).
pub fn setup(
    columns: u16,
    rows: u16,
    pieces: Vec<PiecesSetup>,
    terrain: &[(&str, Terrain)],
) -> Setup {
    samples::field(
        columns,
        rows,
        pieces,
        terrain.iter().map(|(n, t)| (h(n), *t)).collect(),
    )
}

/// A game of the setup with these rolls of the dice.
pub fn start(setup: &Setup, rolls: &[u8]) -> Game {
    Game::new(setup, Dice::scripted(rolls.to_vec())).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays commands in the notation, each by the side that decides; returns
/// the events in words.
pub fn play(game: &mut Game, commands: &[&str]) -> Vec<String> {
    let mut said = Vec::new();
    for text in commands {
        let command = text.parse().unwrap_or_else(|e| panic!("{e}"));
        let events: Vec<Event> = game.apply(&command).unwrap_or_else(|e| {
            panic!(
                "`{text}` refused: {e}\n{}",
                sandtable_warpspawn::draw_text(game)
            )
        });
        said.extend(events.iter().map(|e| game.describe(e)));
    }
    said
}

/// The events of one command.
pub fn events(game: &mut Game, command: &str) -> Vec<Event> {
    game.apply(&command.parse().unwrap())
        .unwrap_or_else(|e| panic!("`{command}` refused: {e}"))
}

/// A command's refusal, checked to change nothing.
pub fn refused(game: &mut Game, command: &str) -> CommandError {
    let before = game.clone();
    let err = game
        .apply(&command.parse().unwrap_or_else(|e| panic!("{e}")))
        .expect_err(command);
    assert_eq!(*game, before, "refused `{command}` changed the game");
    err
}

/// A side's stack in a hex (empty when there is none).
pub fn at(game: &Game, hex: &str, side: Side) -> Stack {
    game.stack(h(hex), side)
        .copied()
        .unwrap_or_else(|| Stack::new(h(hex), side))
}

pub fn men(inf: u16, cav: u16) -> Men {
    Men::new(inf, cav)
}

pub fn band(inf: u16, cav: u16, officers: u16) -> Band {
    Band {
        men: Men::new(inf, cav),
        officers,
    }
}

/// Ends phases until the active side's `phase` begins.
pub fn to_phase(game: &mut Game, phase: sandtable_warpspawn::Phase) {
    while game.phase() != phase {
        play(game, &["end"]);
    }
}

/// Red's 6 with an officer in C3 against Blue's 10 in C4, with Red's
/// `friend` beside them and a Blue formation far off in H8.
pub fn routed_setup(friend: PiecesSetup) -> Setup {
    setup(
        8,
        8,
        vec![
            p(0, "C3", 6, 0, 1),
            friend,
            p(1, "C4", 10, 0, 0),
            p(1, "H8", 2, 0, 0),
        ],
        &[],
    )
}

/// Red attacks C4 and loses (3:2, a 1 is H for Blue; fate 3: rout); Red's
/// 3 routers and the officer flee to D2; Blue advances 4 into C3; Red's
/// Rally phase begins. `rolls` are the dice after those two.
pub fn route(setup: &Setup, rolls: &[u8]) -> Game {
    let mut dice = vec![1, 3];
    dice.extend_from_slice(rolls);
    let mut game = start(setup, &dice);
    let said = play(
        &mut game,
        &[
            "end",
            "end",
            "attack C4 from C3",
            "advance C3 from C4 inf 4",
            "end",
        ],
    );
    assert!(
        said.contains(
            &"Red's routers in C3 (3 infantry and 1 officer) rout to D2 (R80)".to_owned()
        ),
        "{said:?}"
    );
    assert_eq!(game.phase(), sandtable_warpspawn::Phase::Rally);
    game
}
