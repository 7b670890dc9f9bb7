//! Builders for small hand-made tables, and assertions shared by the suites.
#![allow(dead_code)]

use sandtable_cache::{
    Board, Command, Facing, FactorSetup, Game, PlayerSetup, Ruling, Setup, Square, TerrainKind,
    TerrainPiece, UnitSetup,
};
use sandtable_cache::{StashList, StashResult, StashRow};
use sandtable_core::undo::Undoable;

pub fn sq(name: &str) -> Square {
    name.parse().expect("test squares are valid names")
}

pub fn cmd(text: &str) -> Command {
    text.parse().expect("test commands are valid notation")
}

/// A setup under construction: `board(8, 8).player("Red", "B2", &[("C3", 'N')])`.
pub struct Table(pub Setup);

pub fn board(columns: u16, rows: u16) -> Table {
    Table(Setup {
        board: Board { columns, rows },
        players: Vec::new(),
        terrain: Vec::new(),
        first_player: Some(0),
        seed: 1,
        turn_limit: None,
        stashes: Vec::new(),
        stash_list: StashList::seed_default(),
    })
}

fn facing(letter: char) -> Facing {
    letter.to_string().parse().expect("facing letter")
}

pub fn units(list: &[(&str, char)]) -> Vec<UnitSetup> {
    list.iter()
        .map(|(at, f)| UnitSetup {
            at: sq(at),
            facing: facing(*f),
            name: None,
        })
        .collect()
}

impl Table {
    /// Adds a player with one Factor.
    pub fn player(mut self, name: &str, base: &str, list: &[(&str, char)]) -> Table {
        self.0.players.push(PlayerSetup {
            name: name.to_owned(),
            factors: vec![FactorSetup {
                base: sq(base),
                units: units(list),
            }],
        });
        self
    }

    /// Adds another Factor to the last player.
    pub fn factor(mut self, base: &str, list: &[(&str, char)]) -> Table {
        let player = self.0.players.last_mut().expect("a player first");
        player.factors.push(FactorSetup {
            base: sq(base),
            units: units(list),
        });
        self
    }

    pub fn terrain(mut self, kind: TerrainKind, squares: &[&str]) -> Table {
        self.0.terrain.push(TerrainPiece {
            kind,
            squares: squares.iter().map(|s| sq(s)).collect(),
        });
        self
    }

    /// Adds a piece covering the rectangle between two corners.
    pub fn area(mut self, kind: TerrainKind, from: &str, to: &str) -> Table {
        let (a, b) = (sq(from), sq(to));
        let squares = (a.row.min(b.row)..=a.row.max(b.row))
            .flat_map(|row| {
                (a.col.min(b.col)..=a.col.max(b.col)).map(move |col| Square::new(col, row))
            })
            .collect();
        self.0.terrain.push(TerrainPiece { kind, squares });
        self
    }

    pub fn first(mut self, player: Option<usize>) -> Table {
        self.0.first_player = player;
        self
    }

    pub fn seed(mut self, seed: u64) -> Table {
        self.0.seed = seed;
        self
    }

    pub fn turn_limit(mut self, limit: u32) -> Table {
        self.0.turn_limit = Some(limit);
        self
    }

    /// Lays stash tokens (The Snyder Skirmish).
    pub fn stashes(mut self, squares: &[&str]) -> Table {
        self.0.stashes = squares.iter().map(|s| sq(s)).collect();
        self
    }

    /// A stash list whose every row gives `result`: whatever the dice show,
    /// the real roll path leads to this result.
    pub fn every_roll(mut self, result: StashResult) -> Table {
        let rows: Vec<StashRow> = (1..=6)
            .flat_map(|t| {
                (1..=6).map(move |u| StashRow {
                    roll: t * 10 + u,
                    result,
                })
            })
            .collect();
        self.0.stash_list = StashList::from_rows(&rows).expect("a full list");
        self
    }

    pub fn game(&self) -> Game {
        Game::new(&self.0).unwrap_or_else(|e| panic!("test setup is valid: {e}"))
    }
}

/// Applies commands that must all be legal.
pub fn play(game: &mut Game, commands: &[&str]) {
    for text in commands {
        if let Err(e) = game.apply(cmd(text)) {
            panic!("`{text}` should be legal here: {e}");
        }
    }
}

/// Applies commands that must all be legal, as the player to move, keeping
/// the contract's undo history (R31).
pub fn play_undoable(game: &mut Undoable<Game>, commands: &[&str]) {
    for text in commands {
        let seat = game.seat_to_move();
        if let Err(e) = game.apply(seat, &cmd(text)) {
            panic!("`{text}` should be legal here: {e}");
        }
    }
}

/// Asserts that a command is refused citing `ruling`, that `check` agrees, that
/// `legal_commands()` does not list it, and that the game is unchanged.
/// Returns the message.
pub fn refuse(game: &mut Game, text: &str, ruling: Ruling) -> String {
    let before = game.clone();
    let command = cmd(text);
    let checked = game.check(&command).expect_err("check refuses it too");
    let err = game
        .apply(command)
        .expect_err(&format!("`{text}` should be refused"));
    assert_eq!(checked, err, "check and apply give the same reason");
    assert_eq!(err.ruling(), ruling, "`{text}` refused as `{err}`");
    assert!(
        err.to_string().ends_with(&format!("({ruling})")),
        "the message names the ruling: {err}"
    );
    assert_eq!(*game, before, "a refused `{text}` changes nothing");
    assert!(
        !game.legal_commands().iter().any(|l| l.command == command),
        "`{text}` is refused, so it is not listed as legal"
    );
    err.to_string()
}

/// Actions left to the acting unit.
pub fn left(game: &Game) -> u16 {
    game.activation().expect("a unit is acting").left().0
}
