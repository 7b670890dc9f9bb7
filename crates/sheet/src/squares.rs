//! The setup sheet of a Conflict at Cache table: its squares at 1:1, each
//! with its name and its ground by colour, the bases, units and stashes
//! where they start, and the listing of every piece with its square and its
//! distance from the table's edges. The grid stands where the app and the
//! layout put it ([`Physical::square_centre_mm`]).

use sandtable_cache::{Facing, Game, Ground, Occupant, Place, Square};
use sandtable_core::game::Spot;
use sandtable_scenario::{Physical, Scenario};

use crate::{
    Cell, Contents, Laid, MIN_NAMED_SQUARE_MM, Mark, Paint, Paper, PlanSheetError, Rgbf, Sheet,
};

/// Square names a listing line holds.
const SQUARES_A_LINE: usize = 24;

/// What a Cache sheet draws: the game's opening position on its table, and
/// the scenario's own models for the listing.
#[derive(Debug, Clone)]
struct CacheTable {
    game: Game,
    physical: Physical,
    /// One line for each of the scenario's models.
    models: Vec<String>,
}

/// Plans the setup sheet of a scenario on a paper: the table at 1:1 scale
/// (Table A's 30 mm squares on 762 x 508 mm when the scenario gives no
/// `physical`), in whichever orientation needs fewer pages. A sheet of more
/// than [`crate::MAX_PAGES`] pages is refused before any page is made.
pub fn plan(scenario: &Scenario, paper: Paper) -> Result<Sheet, PlanSheetError> {
    let physical = scenario.table();
    let game = scenario.game();
    let laid = Laid::new(
        sandtable_core::game::GameState::surface(&game),
        physical.square_mm,
        physical.table_mm,
    );
    let sides: Vec<String> = game.players().iter().map(|p| p.name.clone()).collect();
    let sides: Vec<&str> = sides.iter().map(String::as_str).collect();
    // The scenario's own models, so that the right figures are set out.
    let models = crate::model_lines(&scenario.models);
    let title = scenario.name.clone();
    let contents = CacheTable {
        game,
        physical,
        models,
    };
    crate::plan_surface(title, laid, &sides, &scenario.colours, contents, paper)
}

impl Contents for CacheTable {
    fn name(&self, spot: Spot) -> String {
        Square::from_spot(spot).map_or_else(String::new, |sq| sq.to_string())
    }

    fn fill(&self, spot: Spot) -> Option<Rgbf> {
        ground_colour(self.game.ground(Square::from_spot(spot)?))
    }

    /// A base, a unit with its front, and a stash on the square.
    fn over_name(&self, cell: &Cell, paint: &Paint, marks: &mut Vec<Mark>) {
        let Some(sq) = Square::from_spot(cell.spot) else {
            return;
        };
        let game = &self.game;
        let s = cell.size_mm;
        let (x, y) = cell.corner;
        match game.occupant(sq) {
            Some(Occupant::Base(f)) => {
                let factor = &game.factors()[usize::from(f.0)];
                marks.push(Mark::Rect {
                    x: x + s * 0.15,
                    y: y + s * 0.15,
                    w: s * 0.7,
                    h: s * 0.7,
                    fill: Some(paint.colour(usize::from(factor.player.0))),
                    stroke: Some(0.4),
                });
                marks.push(Mark::Text {
                    x: x + s * 0.22,
                    y: y + s * 0.42,
                    size: 6.0,
                    text: format!("BASE {}", paint.letter(usize::from(factor.player.0))),
                });
            }
            Some(Occupant::Unit(u)) => {
                let Some((_, facing)) = game.position(u) else {
                    return;
                };
                let player = game.units()[usize::from(u.0)].player;
                let (cx, cy) = (x + s / 2.0, y + s / 2.0);
                marks.push(Mark::Rect {
                    x: x + s * 0.25,
                    y: y + s * 0.25,
                    w: s * 0.5,
                    h: s * 0.5,
                    fill: Some(paint.colour(usize::from(player.0))),
                    stroke: None,
                });
                // The front: a thick line from the centre to the facing edge.
                let (dx, dy) = match facing {
                    Facing::N => (0.0, 1.0),
                    Facing::E => (1.0, 0.0),
                    Facing::S => (0.0, -1.0),
                    Facing::W => (-1.0, 0.0),
                };
                marks.push(Mark::Line {
                    from: (cx, cy),
                    to: (cx + dx * s * 0.45, cy + dy * s * 0.45),
                    width: 1.2,
                });
                if s >= MIN_NAMED_SQUARE_MM {
                    marks.push(Mark::Text {
                        x: cx - s * 0.2,
                        y: cy - s * 0.2,
                        size: 7.0,
                        text: paint.letter(usize::from(player.0)).to_string(),
                    });
                }
            }
            None => {}
        }
        if game.stash_at(sq) {
            marks.push(Mark::Rect {
                x: x + s * 0.35,
                y: y + s * 0.08,
                w: s * 0.3,
                h: s * 0.12,
                fill: Some([0.95, 0.78, 0.25]),
                stroke: Some(0.2),
            });
        }
    }

    fn listing_len(&self) -> usize {
        let game = &self.game;
        let units_on_board = (0..game.units().len())
            .filter(|i| {
                matches!(
                    game.place(sandtable_cache::UnitId(*i as u16)),
                    Place::Board { .. }
                )
            })
            .count();
        let terrain_lines_count: usize = game.terrain_pieces().iter().map(terrain_line_count).sum();
        game.factors().len()
            + units_on_board
            + game.stashes().count()
            + terrain_lines_count
            + self.models.len()
    }

    /// Each base, each unit on the board with its facing, each stash, each
    /// terrain piece, then the scenario's models.
    fn listing(&self, paint: &Paint) -> Vec<String> {
        let game = &self.game;
        let physical = &self.physical;
        let board = game.board();
        let from_edges = |sq: Square| {
            let (x, y) = physical.square_centre_mm(board, sq);
            format!("{x:.1} mm from the left edge, {y:.1} mm from the near edge")
        };
        let owners: Vec<String> = game
            .players()
            .iter()
            .enumerate()
            .map(|(i, p)| crate::pdf::sheet_name(&p.name, "Player", paint.letter(i)))
            .collect();
        let mut listing = Vec::with_capacity(self.listing_len());
        for factor in game.factors() {
            let owner = &owners[usize::from(factor.player.0)];
            listing.push(format!(
                "{owner} base (Factor {}) on {}: {}",
                factor.index + 1,
                factor.base,
                from_edges(factor.base)
            ));
        }
        for (i, unit) in game.units().iter().enumerate() {
            let Place::Board { square, facing } = game.place(sandtable_cache::UnitId(i as u16))
            else {
                continue;
            };
            let owner = &owners[usize::from(unit.player.0)];
            let name = unit
                .name
                .as_deref()
                .map(|n| format!(" \"{n}\""))
                .unwrap_or_default();
            listing.push(format!(
                "{owner} unit{name} on {square} facing {facing}: {}",
                from_edges(square)
            ));
        }
        for sq in game.stashes() {
            listing.push(format!("stash on {sq}: {}", from_edges(sq)));
        }
        for (i, piece) in game.terrain_pieces().iter().enumerate() {
            let mut lines = terrain_lines(i, piece);
            if let Some(first) = piece.squares.first() {
                lines[0].push_str(&format!(" (first square {})", from_edges(*first)));
            }
            listing.extend(lines);
        }
        listing.extend(self.models.iter().cloned());
        listing
    }
}

fn ground_colour(g: Ground) -> Option<Rgbf> {
    Some(match g {
        Ground::Open => return None,
        Ground::LowWall => [0.62, 0.48, 0.33],
        Ground::HighWall | Ground::BuildingWall => [0.35, 0.35, 0.38],
        Ground::Mountain => [0.55, 0.50, 0.45],
        Ground::Woods => [0.45, 0.70, 0.45],
        Ground::Water => [0.60, 0.78, 0.95],
        Ground::Road => [0.90, 0.84, 0.70],
        Ground::Bridge { .. } => [0.75, 0.60, 0.45],
        Ground::BuildingFloor | Ground::BuildingEntrance => [0.92, 0.88, 0.80],
    })
}

/// The corners of a terrain piece that covers a whole rectangle of more
/// than one square, with its width and height.
fn rectangle_of(piece: &sandtable_cache::TerrainPiece) -> Option<(Square, Square, usize, usize)> {
    let squares = &piece.squares;
    let c0 = squares.iter().map(|q| q.col).min()?;
    let c1 = squares.iter().map(|q| q.col).max()?;
    let r0 = squares.iter().map(|q| q.row).min()?;
    let r1 = squares.iter().map(|q| q.row).max()?;
    // A valid piece lists no square twice: as many squares as its bounding
    // rectangle holds make that rectangle.
    let (width, height) = (usize::from(c1 - c0) + 1, usize::from(r1 - r0) + 1);
    (squares.len() > 1 && width * height == squares.len()).then_some((
        Square::new(c0, r0),
        Square::new(c1, r1),
        width,
        height,
    ))
}

/// How many listing lines a terrain piece takes (see [`terrain_lines`]).
fn terrain_line_count(piece: &sandtable_cache::TerrainPiece) -> usize {
    match rectangle_of(piece) {
        Some(_) => 1,
        None => piece.squares.len().div_ceil(SQUARES_A_LINE).max(1),
    }
}

/// The listing lines of a terrain piece: its kind and its squares, a
/// rectangle by its corners, other shapes by their squares over as many
/// lines as they need.
fn terrain_lines(index: usize, piece: &sandtable_cache::TerrainPiece) -> Vec<String> {
    let kind = piece.kind.name();
    if let Some((lo, hi, width, height)) = rectangle_of(piece) {
        return vec![format!(
            "terrain {}: {kind} on the {width} x {height} squares from {lo} to {hi}",
            index + 1
        )];
    }
    piece
        .squares
        .chunks(SQUARES_A_LINE)
        .enumerate()
        .map(|(k, chunk)| {
            let names: Vec<String> = chunk.iter().map(|s| s.to_string()).collect();
            if k == 0 {
                format!("terrain {}: {kind} on {}", index + 1, names.join(" "))
            } else {
                format!("    {}", names.join(" "))
            }
        })
        .collect()
}
