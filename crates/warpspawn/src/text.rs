//! The battle drawn for a terminal: the hex map with the 2nd, 4th ... columns
//! half a hex higher (R60), each hex its terrain and what stands there, then
//! every occupied hex in words, and a status line.

use std::fmt::Write as _;

use sandtable_core::game::player_marks;

use crate::event::band_words;
use crate::game::Stack;
use crate::hex::Hex;
use crate::offboard::plug::Game;
use crate::setup::Terrain;
use crate::terms::{Outcome, Side};

/// The letter of a terrain on the map.
pub fn terrain_mark(t: Terrain) -> char {
    match t {
        Terrain::Fields => '.',
        Terrain::Road => '=',
        Terrain::Bridge => '#',
        Terrain::Trees => 'T',
        Terrain::Buildings => 'B',
        Terrain::Bocage => '%',
        Terrain::LowWall => '_',
        Terrain::Fort => 'F',
        Terrain::Trench => 'U',
        Terrain::Water => '~',
        Terrain::River => '-',
        Terrain::Mountain => '^',
    }
}

const CELL: usize = 7;

/// Draws the battle: map, legend, pieces in words, status.
pub fn draw(game: &Game) -> String {
    draw_for(game, None)
}

/// The board as `viewer` sees it (`None`: the referee): the map, and in a
/// battle with the off-board grid the ring as the viewer may know it
/// (R57).
pub fn draw_for(game: &Game, viewer: Option<usize>) -> String {
    let b = game.battle();
    let map = b.map;
    let marks = player_marks(b.names.iter().map(String::as_str));
    let mark = |s: Side| marks[s.index()];
    let lines = usize::from(map.rows) * 2 + 1;
    let width = 4 + usize::from(map.columns) * CELL;
    let mut grid: Vec<Vec<char>> = vec![vec![' '; width]; lines];
    for hex in map.hexes() {
        let line =
            usize::from(map.rows - 1 - u16::from(hex.row)) * 2 + usize::from(hex.col % 2 == 0);
        let x = 4 + usize::from(hex.col) * CELL;
        let mut cell = String::new();
        cell.push(terrain_mark(b.terrain(hex)));
        cell.push_str(&content(game, hex, &mark));
        for (i, ch) in cell.chars().take(CELL - 1).enumerate() {
            grid[line][x + i] = ch;
        }
    }
    let mut out = String::new();
    let header: String = map
        .hexes()
        .filter(|h| h.row == 0)
        .map(|h| {
            let name = h.to_string();
            let letters = name
                .trim_end_matches(|ch: char| ch.is_ascii_digit())
                .to_owned();
            format!("{letters:<CELL$}")
        })
        .collect();
    let _ = writeln!(out, "    {}", header.trim_end());
    for (i, row) in grid.iter().enumerate() {
        // The line of a row's unraised columns carries the row number.
        let label = if i % 2 == 1 {
            format!("{:>3} ", usize::from(map.rows) - i / 2)
        } else {
            "    ".to_owned()
        };
        let text: String = row[4..].iter().collect();
        let line = format!("{label}{}", text.trim_end());
        if !line.trim().is_empty() {
            let _ = writeln!(out, "{}", line.trim_end());
        }
    }
    let _ = writeln!(out, "    {}", header.trim_end());
    out.push('\n');
    let _ = writeln!(
        out,
        "terrain: . fields  = road  # bridge  T trees  B buildings  % bocage  _ low wall  F fort  U trench  ~ water  - river  ^ mountain"
    );
    let _ = writeln!(
        out,
        "pieces: {} men of the side; c cannon, g baggage, f flag, * officer, ! routers, p prisoners held, u unarmed",
        [Side(0), Side(1)]
            .iter()
            .map(|s| format!("{} {}", mark(*s), game.name(*s)))
            .collect::<Vec<_>>()
            .join(", ")
    );
    out.push('\n');
    for st in game.stacks() {
        let _ = writeln!(out, "{}", stack_words(game, st));
    }
    out.push('\n');
    if let Some(ring) = game.ring_text(viewer) {
        out.push_str(&ring);
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{}",
        game.ring_status(viewer).unwrap_or_else(|| status(game))
    );
    out
}

/// What stands in a hex, in a few letters: the side's mark and its armed
/// men, then marks for the rest.
fn content(game: &Game, hex: Hex, mark: &dyn Fn(Side) -> char) -> String {
    let mut s = String::new();
    for side in [Side(0), Side(1)] {
        let Some(st) = game.stack(hex, side) else {
            continue;
        };
        s.push(mark(side));
        if st.armed.men.total() > 0 {
            let _ = write!(s, "{}", st.armed.men.total());
        }
        if st.cannon {
            s.push('c');
        }
        if st.baggage {
            s.push('g');
        }
        if st.flags > 0 {
            s.push('f');
        }
        if st.armed.officers > 0 {
            s.push('*');
        }
        if !st.routing.is_empty() {
            s.push('!');
        }
        if !st.prisoners.is_empty() {
            s.push('p');
        }
        if !st.unarmed.is_empty() {
            s.push('u');
        }
    }
    s
}

/// A stack in words.
pub fn stack_words(game: &Game, st: &Stack) -> String {
    let mut parts = Vec::new();
    if !st.armed.is_empty() {
        parts.push(band_words(st.armed));
    }
    if st.cannon {
        parts.push(if st.marks.fired {
            "a cannon (fired)".to_owned()
        } else {
            "a cannon".to_owned()
        });
    }
    if st.baggage {
        parts.push("baggage".to_owned());
    }
    if st.flags > 0 {
        parts.push(if st.flags == 1 {
            "a flag".to_owned()
        } else {
            format!("{} flags", st.flags)
        });
    }
    if !st.marks.crew.is_empty() {
        parts.push(format!("crew marked: {}", st.marks.crew));
    }
    if !st.routing.is_empty() {
        parts.push(format!("routing: {}", band_words(st.routing)));
    }
    if !st.prisoners.is_empty() {
        parts.push(format!(
            "holding prisoner: {} of {}",
            band_words(st.prisoners),
            game.name(st.side.other())
        ));
    }
    if !st.unarmed.is_empty() {
        parts.push(format!("unarmed: {}", band_words(st.unarmed)));
    }
    format!(
        "{:<4} {} ({}): {}",
        st.hex.to_string(),
        game.name(st.side),
        game.battle().terrain(st.hex),
        parts.join("; ")
    )
}

/// Whose decision it is, the turn, phase and victory points.
pub fn status(game: &Game) -> String {
    let vp = format!(
        "victory points: {} {}, {} {}",
        game.name(Side(0)),
        game.vp(Side(0)),
        game.name(Side(1)),
        game.vp(Side(1))
    );
    match game.ending() {
        Some((Outcome::Won(side), _)) => {
            format!("the battle is over: {} wins; {vp}", game.name(side))
        }
        Some((Outcome::Draw, _)) => format!("the battle is over: a draw; {vp}"),
        None => {
            let mut text = format!(
                "game turn {} of {}: {}'s {} phase; {vp}",
                game.turn(),
                game.battle().turns,
                game.name(game.active()),
                game.phase()
            );
            if let Some(step) = game.owed() {
                let _ = write!(text, "; waiting: {}", game.owed_words(step));
            }
            text
        }
    }
}
