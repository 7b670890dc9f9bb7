//! The board drawn as text for a terminal (the contract's `draw_text`):
//! three characters a square, north up, column letters and row numbers
//! along the edges, a legend and a status line. A Cache game hides nothing,
//! so every viewer sees the same drawing.

use std::fmt::Write as _;

use crate::game::Game;
use crate::geometry::{Facing, Square};
use crate::pieces::{DrawReason, Occupant, Outcome, PlayerId};
use crate::terrain::Ground;

/// One mark a player, unique: the name's first letter, or its number.
fn marks(game: &Game) -> Vec<char> {
    sandtable_core::game::player_marks(game.players().iter().map(|p| p.name.as_str()))
}

fn glyph(ground: Ground) -> char {
    match ground {
        Ground::Open => '.',
        Ground::LowWall => '+',
        Ground::HighWall => '#',
        Ground::Mountain => '^',
        Ground::Woods => '%',
        Ground::Water => '~',
        Ground::Road => ':',
        Ground::Bridge { elevated: true } => '≡',
        Ground::Bridge { elevated: false } => '=',
        Ground::BuildingWall => 'X',
        Ground::BuildingFloor => '_',
        Ground::BuildingEntrance => 'D',
    }
}

fn arrow(facing: Facing) -> char {
    match facing {
        Facing::N => '↑',
        Facing::E => '→',
        Facing::S => '↓',
        Facing::W => '←',
    }
}

fn column_name(col: u16) -> String {
    let name = Square::new(col, 0).to_string();
    name.trim_end_matches('1').to_owned()
}

/// The board, north up.
fn board(game: &Game) -> String {
    let b = game.board();
    let marks = marks(game);
    let mut out = String::new();
    let header: String = (0..b.columns)
        .map(|c| format!("{:<3}", column_name(c)))
        .collect();
    let _ = writeln!(out, "     {}", header.trim_end());
    for row in (0..b.rows).rev() {
        let _ = write!(out, "{:>4} ", row + 1);
        for col in 0..b.columns {
            let sq = Square::new(col, row);
            let g = glyph(game.ground(sq));
            match game.occupant(sq) {
                Some(Occupant::Unit(u)) => {
                    let (_, facing) = game
                        .position(u)
                        .expect("a unit in the grid is on the board");
                    let owner = game.units()[usize::from(u.0)].player;
                    let _ = write!(out, "{}{}{}", marks[usize::from(owner.0)], arrow(facing), g);
                }
                Some(Occupant::Base(f)) => {
                    let owner = game.factors()[usize::from(f.0)].player;
                    let _ = write!(out, "[{}]", marks[usize::from(owner.0)]);
                }
                None if game.stash_at(sq) => out.push_str(" * "),
                None if g == '.' => out.push_str(" . "),
                None => {
                    for _ in 0..3 {
                        out.push(g);
                    }
                }
            }
        }
        out.push('\n');
    }
    let players: Vec<String> = game
        .players()
        .iter()
        .zip(&marks)
        .map(|(p, m)| format!("{m} {}", p.name))
        .collect();
    let _ = writeln!(out, "\nplayers: {}", players.join(", "));
    let _ = writeln!(
        out,
        "legend: R→ unit and facing, [R] base, + low wall, # high wall, ^ mountain, % woods, ~ water,\n        : road, = bridge, ≡ elevated bridge, X building wall, _ floor, D entrance, * stash"
    );
    out
}

/// One line or two on whose turn it is and what is going on.
fn status(game: &Game) -> String {
    let name = |p: PlayerId| game.player(p).name.clone();
    match game.outcome() {
        Some(Outcome::Won(p)) => {
            return format!("turn {}: game over, {} wins\n", game.turn(), name(p));
        }
        Some(Outcome::Draw(DrawReason::TurnLimit)) => {
            return format!(
                "turn {}: game over, a draw at the turn limit\n",
                game.turn()
            );
        }
        Some(Outcome::Draw(why)) => {
            return format!("turn {}: game over, a draw: {why}\n", game.turn());
        }
        None => {}
    }
    let mut out = format!(
        "turn {}: {} to play, {} activation{} left",
        game.turn(),
        name(game.current_player()),
        game.activations_left(),
        if game.activations_left() == 1 {
            ""
        } else {
            "s"
        }
    );
    if let Some(a) = game.activation()
        && let Some((sq, facing)) = game.position(a.unit)
    {
        let _ = write!(
            out,
            "; the unit on {sq} (facing {facing}) is acting with {} left",
            a.left()
        );
    }
    out.push('\n');
    if let Some(offer) = game.draw_offer() {
        let _ = writeln!(
            out,
            "{} offers a draw: `accept draw`, or play on to decline it (R24)",
            name(offer.by)
        );
    }
    out
}

/// The board, a blank line, then the status line.
pub(crate) fn draw(game: &Game) -> String {
    let mut out = board(game);
    out.push('\n');
    out.push_str(&status(game));
    out
}
