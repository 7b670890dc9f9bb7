//! The skirmish in text: the table drawn at a scale, every unit listed
//! with its position, facing, side shown and defense, and the JSON
//! summary the CLI's `--json` prints (field names are an interface:
//! `docs/frontiers.md`).

use std::fmt::Write as _;

use sandtable_core::game::Ending;
use serde::Serialize;

use crate::army::{Marker, Slot};
use crate::data::{Back, Base, Location};
use crate::game::Game;
use crate::geometry::{Footprint, Pt, gap};
use crate::setup::{TerrainKind, point_in};
use crate::turn::card_ids;
use crate::unit::Unit;

/// The most characters a text drawing of the table holds (about 500 x
/// 500): a finer cell asked for on a larger table is coarsened to fit,
/// and the drawing says so.
pub const MOST_DRAWN: i64 = 250_000;

/// The cell a drawing of a table of `table` mm uses when `cell_mm` is
/// asked for: that, or the finest whole mm that keeps the drawing within
/// [`MOST_DRAWN`] characters.
pub fn drawn_cell(table: (u16, u16), cell_mm: u16) -> i32 {
    let (w, d) = (i64::from(table.0), i64::from(table.1));
    let chars = |cell: i64| ((w + cell - 1) / cell) * ((d + cell - 1) / cell);
    let mut cell = i64::from(cell_mm.max(1));
    while chars(cell) > MOST_DRAWN {
        cell += 1;
    }
    cell as i32
}

/// The default cell of the text table: 20 mm a character.
pub const DEFAULT_CELL_MM: u16 = 20;

/// The side a unit shows, in words.
pub fn side_shown(u: &Unit) -> &'static str {
    match (u.back, u.data.back()) {
        (false, _) => "front",
        (true, Back::Damaged) => "damaged",
        (true, _) => {
            if u.shield_up() {
                "shield"
            } else if u.tripod_set() {
                "tripod"
            } else if u.readied > 0 {
                "reserve"
            } else {
                "back"
            }
        }
    }
}

/// A vehicle's locations hit, as `L E`.
fn hits_words(u: &Unit) -> String {
    let mut out = Vec::new();
    for (i, w) in u.data.weapons.iter().enumerate() {
        if u.hits & Location::Weapon(i as u8).bit() != 0 {
            out.push(if w.name.is_empty() { "A" } else { w.name });
        }
    }
    for (loc, name) in [
        (Location::Carried, "C"),
        (Location::Locomotion, "L"),
        (Location::Equipment, "E"),
    ] {
        if u.hits & loc.bit() != 0 {
            out.push(name);
        }
    }
    out.join(" ")
}

/// The markers on unit `i` as `viewer` may see them (R149; `None`: the
/// referee): `marker 3`, `marker ? on L`, `decoy` ...
pub fn markers_words(game: &Game, i: usize, viewer: Option<u8>) -> Vec<String> {
    let side = game.units()[i].side;
    game.markers_seen(side, viewer)
        .into_iter()
        .filter(|(u, _, _)| *u == i)
        .map(|(_, slot, m)| {
            let what = match m {
                Some(Marker::Numbered(n)) => format!("marker {n}"),
                Some(Marker::Decoy) => "decoy".to_owned(),
                None => "a face-down marker".to_owned(),
            };
            match slot {
                Slot::Unit => what,
                Slot::Locomotion => format!("{what} on L"),
                Slot::Weapon(w) => format!("{what} on A{}", w + 1),
            }
        })
        .collect()
}

/// A unit's line of the listing, its markers as `viewer` sees them.
pub fn unit_line(game: &Game, u: &Unit, viewer: Option<u8>) -> String {
    let side = &game.setup().sides[usize::from(u.side)].name;
    if u.waiting {
        return format!(
            "{} {} ({side}), waiting to be deployed (R146)",
            u.tag,
            u.data.short_name()
        );
    }
    let mut line = format!("{} {} ({side}) at {}", u.tag, u.data.short_name(), u.at);
    if u.data.base == Base::Oval {
        let _ = write!(line, " facing {}", u.facing);
    }
    if let Some((e, k)) = u.inside {
        let _ = write!(line, " in {}", game.space_name(e, k));
    }
    if let Some(v) = u.aboard {
        let _ = write!(line, " aboard {}", game.units()[usize::from(v)].tag);
    }
    if !u.alive {
        line.push_str(if u.carcass {
            ", destroyed: a carcass"
        } else {
            ", destroyed"
        });
        return line;
    }
    let _ = write!(
        line,
        ", {} side, defense {}, Movement {}",
        side_shown(u),
        u.defense(),
        u.movement_seen(game.crates(), viewer)
    );
    let hits = hits_words(u);
    if !hits.is_empty() {
        let _ = write!(line, ", hit: {hits}");
    }
    if let Some(i) = game.find(u.tag) {
        for m in markers_words(game, i, viewer) {
            let _ = write!(line, ", {m}");
        }
    }
    line
}

/// The table drawn in text, `cell_mm` mm a character, far edge at the
/// top; then the legend, every unit, the clouds and the status.
pub fn draw(game: &Game, cell_mm: u16, viewer: Option<u8>) -> String {
    let asked = i32::from(cell_mm.max(1));
    let (w, d) = game.setup().table;
    let cell = drawn_cell(game.setup().table, cell_mm);
    let cols = (i32::from(w) + cell - 1) / cell;
    let rows = (i32::from(d) + cell - 1) / cell;
    let mut out = String::new();
    let scaled = if cell > asked {
        format!(
            " (not {asked}: a drawing holds at most {MOST_DRAWN} characters, so it is scaled to fit)"
        )
    } else {
        String::new()
    };
    let _ = writeln!(
        out,
        "table {w} x {d} mm, {cell} mm a character{scaled}; the first seat's edge at the bottom"
    );
    for row in (0..rows).rev() {
        out.push('|');
        for col in 0..cols {
            let p = Pt::new(col * cell + cell / 2, row * cell + cell / 2);
            out.push(cell_char(game, p, cell));
        }
        out.push_str("|\n");
    }
    out.push_str(
        "legend: unit ids' first letter, lower case for the second seat; # building, % ruin, \
         = light structure, * vegetation, ^ hill, o crater, ~ smoke, x carcass\n",
    );
    for u in game.units() {
        out.push_str(&unit_line(game, u, viewer));
        out.push('\n');
    }
    for side in 0..2u8 {
        out.push_str(&cards_line(game, side, viewer));
        out.push('\n');
    }
    for (k, c) in game.crates().iter().enumerate() {
        out.push_str(&crate_line(game, k, c, viewer));
        out.push('\n');
    }
    for (k, o) in game.setup().objectives.iter().enumerate() {
        let _ = writeln!(out, "objective {} at {o} (R148)", k + 1);
    }
    if let Some(d) = game.diskette() {
        let _ = match d.carrier {
            Some(u) => writeln!(
                out,
                "the diskette, carried by {} (R147)",
                game.units()[usize::from(u)].tag
            ),
            None => writeln!(out, "the diskette at {} (R147)", d.at),
        };
    }
    if let Some((e, k)) = game.setup().teleprinter {
        let _ = writeln!(out, "the teleprinter in {} (R147)", game.space_name(e, k));
    }
    for c in game.clouds() {
        if let Some(p) = c.penalty(game.turn_number()) {
            let _ = writeln!(
                out,
                "cloud of {} at {}: {p} (R130)",
                game.setup().sides[usize::from(c.owner)].name,
                c.at
            );
        }
    }
    out.push_str(&status(game));
    out.push('\n');
    out
}

/// A crate's line as `viewer` sees it: where it is, and what it holds
/// once opened (R143): an unopened crate's content is nobody's, an
/// allotted crate's its side's until used (R149).
pub fn crate_line(game: &Game, k: usize, c: &crate::crates::Crate, viewer: Option<u8>) -> String {
    use crate::crates::CrateState;
    let what = match c.content {
        None => "unopened".to_owned(),
        Some(x) if c.secret_of.is_some() && c.known_to(viewer) => {
            format!("{}, allotted, hidden from the other side", x.name())
        }
        Some(x) if c.known_to(viewer) => x.name().to_owned(),
        Some(_) => "allotted, its content hidden".to_owned(),
    };
    let sides = &game.setup().sides;
    match c.state {
        CrateState::Lying => format!("crate {} at {}: {what}", k + 1, c.at),
        CrateState::Carried(u) => format!(
            "crate {}: {what}, carried by {}",
            k + 1,
            game.units()[usize::from(u)].tag
        ),
        CrateState::Banked(s) => format!(
            "crate {}: {what}, banked by {} (R148)",
            k + 1,
            sides[usize::from(s)].name
        ),
        CrateState::Gone => format!("crate {}: {what}, gone", k + 1),
    }
}

/// A side's cards as `viewer` may see them (R149): its own hand, of the
/// other side the hand's and deck's sizes; everyone's discards.
pub fn cards_line(game: &Game, side: u8, viewer: Option<u8>) -> String {
    let c = &game.flow().cards[usize::from(side)];
    let name = &game.setup().sides[usize::from(side)].name;
    let hand = if viewer.is_none_or(|v| v == side) {
        format!("hand [{}]", card_ids(&c.hand).join(", "))
    } else {
        format!("{} cards in hand", c.hand.len())
    };
    let deck = if c.dealt {
        format!("{} in the deck", c.deck.len())
    } else {
        "deck dealt at its first draw".to_owned()
    };
    format!(
        "{name}: {hand}; {deck}; discards [{}]",
        card_ids(&c.discards).join(", ")
    )
}

fn cell_char(game: &Game, p: Pt, cell: i32) -> char {
    let centre = Footprint::disc(p, 0).shape();
    // A unit shows in the cell its centre lies in, and in every cell whose
    // centre its base covers: seen at any scale.
    let (lo, hi) = (cell / 2, cell - cell / 2);
    let centred =
        |u: &Unit| (p.x - lo..p.x + hi).contains(&u.at.x) && (p.y - lo..p.y + hi).contains(&u.at.y);
    let standing = || {
        game.units()
            .iter()
            .filter(|u| u.alive && u.aboard.is_none())
    };
    let here = standing()
        .find(|u| centred(u))
        .or_else(|| standing().find(|u| gap(&u.shape(), &centre) <= 0.0));
    if let Some(u) = here {
        let c = u.tag.as_str().chars().next().unwrap_or('?');
        return if u.side == 0 {
            c
        } else {
            c.to_ascii_lowercase()
        };
    }
    if game
        .units()
        .iter()
        .any(|u| u.carcass && gap(&u.shape(), &centre) <= 0.0)
    {
        return 'x';
    }
    // Only the fixed shapes filed near the cell (the table's index): a
    // cell's square lies within a cell's length of its centre.
    let mut near = Vec::new();
    game.table
        .index
        .near_segment(p.v(), p.v(), f64::from(cell), &mut near);
    crate::index::Grid::finish(&mut near);
    let elements = game.setup().elements.len() as u32;
    for &n in near.iter().take_while(|n| **n < elements) {
        let k = n as usize;
        if point_in(p, &game.setup().elements[k].corners) {
            return if game.element_steps()[k] > 0 {
                '#'
            } else {
                '%'
            };
        }
    }
    if game.clouds().iter().any(|c| {
        c.penalty(game.turn_number()).is_some()
            && gap(
                &Footprint::disc(c.at, crate::smoke::CLOUD_MM).shape(),
                &centre,
            ) <= 0.0
    }) {
        return '~';
    }
    let half = cell / 2;
    let square = Footprint::Polygon(vec![
        Pt::new(p.x - half, p.y - half),
        Pt::new(p.x + half, p.y - half),
        Pt::new(p.x + half, p.y + half),
        Pt::new(p.x - half, p.y + half),
    ])
    .shape();
    for &n in near.iter().skip_while(|n| **n < elements) {
        let k = (n - elements) as usize;
        let t = &game.setup().terrain[k];
        let thin = t.kind == TerrainKind::LightStructure
            && crate::geometry::overlaps(&game.table.terrain[k], &square);
        if thin || point_in(p, &t.corners) {
            return match t.kind {
                TerrainKind::Vegetation => '*',
                TerrainKind::Hill => '^',
                TerrainKind::LightStructure => '=',
                TerrainKind::Crater => 'o',
            };
        }
    }
    '.'
}

/// Who destroyed what (R145): "Legion has destroyed 35 AP of Zirl, Zirl
/// 75 of Legion", for sides named `names` that destroyed `ap` each.
pub fn destroyed_words(names: [&str; 2], ap: [u16; 2]) -> String {
    let [a, b] = names;
    format!(
        "{a} has destroyed {} AP of {b}, {b} {} of {a}",
        ap[0], ap[1]
    )
}

/// The status line: the turn, whose activation, the AP destroyed.
pub fn status(game: &Game) -> String {
    let sides = &game.setup().sides;
    let score = destroyed_words([&sides[0].name, &sides[1].name], game.ap_destroyed());
    match game.ending() {
        Some(Ending::Won(s)) => format!("over: {} won; {score}", sides[s.index()].name),
        Some(Ending::Draw(why)) => format!("over: a draw, {why}; {score}"),
        None if !game.picks().is_empty() => {
            let v = &game.units()[game.picks()[0]];
            format!(
                "turn {}: {} owes the pick of the unit aboard {} that takes a step (pick X); {score}",
                game.turn_number(),
                sides[usize::from(v.side)].name,
                v.tag
            )
        }
        None => match game.pending() {
            Some(p) => format!(
                "turn {}: {} owes where the drop aimed at {} fell (land X,Y); {score}",
                game.turn_number(),
                sides[usize::from(game.units()[p.shooter].side)].name,
                p.aim
            ),
            None => format!(
                "turn {} of {}: {}; {score}",
                game.turn_number(),
                game.setup().turns,
                game.phase_words()
            ),
        },
    }
}

/// A unit in the JSON summary.
#[derive(Serialize)]
struct UnitJson<'a> {
    id: &'a str,
    data: &'static str,
    side: &'a str,
    x_mm: i32,
    y_mm: i32,
    facing: i16,
    shown: &'static str,
    defense: u8,
    movement: u8,
    alive: bool,
    carcass: bool,
    markers: Vec<String>,
    hits: String,
    space: Option<String>,
    aboard: Option<&'a str>,
}

#[derive(Serialize)]
struct ElementJson<'a> {
    name: &'a str,
    steps_left: Option<u8>,
}

#[derive(Serialize)]
struct CloudJson<'a> {
    owner: &'a str,
    x_mm: i32,
    y_mm: i32,
    penalty: i8,
}

#[derive(Serialize)]
struct CardsJson<'a> {
    side: &'a str,
    hand_size: usize,
    deck_size: usize,
    discards: Vec<&'static str>,
}

#[derive(Serialize)]
struct Summary<'a> {
    system: &'static str,
    turn: u32,
    turns: u32,
    phase: String,
    owing: Vec<&'a str>,
    hand: Option<Vec<&'static str>>,
    cards: Vec<CardsJson<'a>>,
    crates: Vec<String>,
    banked: std::collections::BTreeMap<&'a str, u8>,
    over: bool,
    winner: Option<&'a str>,
    ap_destroyed: std::collections::BTreeMap<&'a str, u16>,
    awaiting_drop: Option<[i32; 2]>,
    units: Vec<UnitJson<'a>>,
    buildings: Vec<ElementJson<'a>>,
    clouds: Vec<CloudJson<'a>>,
}

/// The JSON summary of the skirmish as `viewer` may see it (R149; `None`:
/// the referee): its own hand and markers; of the other side the sizes
/// of its hand and deck, where its face-down markers lie, its discards.
pub fn json(game: &Game, viewer: Option<u8>) -> String {
    let sides = &game.setup().sides;
    let name = |s: u8| sides[usize::from(s)].name.as_str();
    let summary = Summary {
        system: "Frontiers",
        turn: game.turn_number(),
        turns: game.setup().turns,
        phase: game.phase_words(),
        owing: (0..2u8).filter(|s| game.owes(*s)).map(name).collect(),
        // A side's own hand; none for the referee (every side's is in
        // the text) or an onlooker of no side.
        hand: viewer
            .and_then(|v| game.flow().cards.get(usize::from(v)))
            .map(|c| card_ids(&c.hand)),
        cards: (0..2u8)
            .map(|s| {
                let c = &game.flow().cards[usize::from(s)];
                CardsJson {
                    side: name(s),
                    hand_size: c.hand.len(),
                    deck_size: c.deck.len(),
                    discards: card_ids(&c.discards),
                }
            })
            .collect(),
        crates: game
            .crates()
            .iter()
            .enumerate()
            .map(|(k, c)| crate_line(game, k, c, viewer))
            .collect(),
        banked: [(name(0), game.banked()[0]), (name(1), game.banked()[1])]
            .into_iter()
            .collect(),
        over: game.ending().is_some(),
        winner: match game.ending() {
            Some(Ending::Won(s)) => Some(name(s.0 as u8)),
            _ => None,
        },
        ap_destroyed: [
            (name(0), game.ap_destroyed()[0]),
            (name(1), game.ap_destroyed()[1]),
        ]
        .into_iter()
        .collect(),
        awaiting_drop: game.pending().map(|p| [p.aim.x, p.aim.y]),
        units: game
            .units()
            .iter()
            .enumerate()
            .map(|(i, u)| UnitJson {
                id: u.tag.as_str(),
                data: u.data.id,
                side: name(u.side),
                x_mm: u.at.x,
                y_mm: u.at.y,
                facing: u.facing,
                shown: side_shown(u),
                defense: u.defense(),
                movement: u.movement_seen(game.crates(), viewer),
                alive: u.alive,
                carcass: u.carcass,
                markers: markers_words(game, i, viewer),
                hits: hits_words(u),
                space: u.inside.map(|(e, k)| game.space_name(e, k)),
                aboard: u.aboard.map(|v| game.units()[usize::from(v)].tag.as_str()),
            })
            .collect(),
        buildings: game
            .setup()
            .elements
            .iter()
            .zip(game.element_steps())
            .map(|(e, s)| ElementJson {
                name: &e.name,
                steps_left: (*s != crate::game::X_STANDING).then_some(*s),
            })
            .collect(),
        clouds: game
            .clouds()
            .iter()
            .filter_map(|c| {
                Some(CloudJson {
                    owner: name(c.owner as u8),
                    x_mm: c.at.x,
                    y_mm: c.at.y,
                    penalty: c.penalty(game.turn_number())?,
                })
            })
            .collect(),
    };
    serde_json::to_string_pretty(&summary).expect("a summary is plain data")
}
