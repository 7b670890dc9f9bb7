//! Sheets planned from the contract's surface: a system draws only its own
//! contents, the sheet lays its squares, hexes or plane on the table where
//! the app and the layout put them, and a plane with pieces on it prints
//! with no system-specific code in the sheet.

use sandtable_core::game::{GameState, Spot, Surface};
use sandtable_sheet::{Cell, Contents, Laid, Mark, Paint, Paper, plan_surface, render_pdf};

/// A test-only system on an open table: pieces at points, in mm from the
/// table's edges.
#[derive(Debug)]
struct Skirmish {
    pieces: Vec<(usize, Spot, &'static str)>,
}

impl Contents for Skirmish {
    fn name(&self, _: Spot) -> String {
        unreachable!("a plane has no places to name")
    }

    fn over_name(&self, _: &Cell, _: &Paint, _: &mut Vec<Mark>) {
        unreachable!("a plane has no places to draw")
    }

    fn over_all(
        &self,
        area: (f64, f64, f64, f64),
        _: &dyn Fn(Spot) -> bool,
        paint: &Paint,
        marks: &mut Vec<Mark>,
    ) {
        for (side, spot, name) in &self.pieces {
            let Spot::Point { x_mm, y_mm } = *spot else {
                continue;
            };
            let (x, y) = (f64::from(x_mm), f64::from(y_mm));
            if x < area.0 || x > area.2 || y < area.1 || y > area.3 {
                continue;
            }
            marks.push(Mark::Rect {
                x: x - 12.5,
                y: y - 12.5,
                w: 25.0,
                h: 25.0,
                fill: Some(paint.colour(*side)),
                stroke: None,
            });
            marks.push(Mark::Text {
                x,
                y,
                size: 6.0,
                text: format!("{} {name}", paint.letter(*side)),
            });
        }
    }

    fn listing_len(&self) -> usize {
        self.pieces.len()
    }

    fn listing(&self, paint: &Paint) -> Vec<String> {
        self.pieces
            .iter()
            .map(|(side, spot, name)| format!("{} {name} at {spot:?}", paint.letter(*side)))
            .collect()
    }
}

fn plane_sheet() -> sandtable_sheet::Sheet {
    let laid = Laid::new(
        Surface::Plane {
            width_mm: 1200,
            depth_mm: 1200,
        },
        0.0,
        (1200.0, 1200.0),
    );
    let contents = Skirmish {
        pieces: vec![
            (
                0,
                Spot::Point {
                    x_mm: 100,
                    y_mm: 150,
                },
                "leader",
            ),
            (
                1,
                Spot::Point {
                    x_mm: 1100,
                    y_mm: 1150,
                },
                "walker",
            ),
        ],
    };
    plan_surface(
        "Open table".to_owned(),
        laid,
        &["Raiders", "Guards"],
        &[],
        contents,
        Paper::A4,
    )
    .expect("a 4 foot table fits")
}

#[test]
fn a_plane_prints_its_pieces_where_they_stand_and_no_places() {
    let sheet = plane_sheet();
    assert_eq!(sheet.table_mm, (1200.0, 1200.0));
    // 1200 mm over 277 mm of print, 262 a step: 5 tiles; over 190, 175 a
    // step: 7 tiles; the same either way round.
    assert_eq!(sheet.grid.0 * sheet.grid.1, 35, "{:?}", sheet.grid);
    let mut seen = Vec::new();
    for tile in &sheet.tiles {
        let marks = sheet.marks_in(tile);
        // The table's outline, then only the pieces that fall on the tile.
        assert!(matches!(
            marks[0],
            Mark::Rect {
                w: 1200.0,
                h: 1200.0,
                ..
            }
        ));
        for mark in &marks[1..] {
            if let Mark::Text { text, .. } = mark {
                seen.push((tile.col, tile.row, text.clone()));
            }
        }
    }
    assert!(seen.contains(&(0, 0, "R leader".to_owned())), "{seen:?}");
    let (far_col, far_row) = (sheet.grid.0 - 1, sheet.grid.1 - 1);
    assert!(
        seen.contains(&(far_col, far_row, "G walker".to_owned())),
        "{seen:?}"
    );
    // Neither stands where two tiles overlap.
    assert_eq!(seen.len(), 2, "each piece on the one tile it falls on");
    assert_eq!(sheet.listing.len(), 2);
    assert!(
        sheet.listing[0].starts_with("R leader"),
        "{:?}",
        sheet.listing
    );
    let pdf = render_pdf(&sheet, false);
    let text = String::from_utf8_lossy(&pdf);
    assert!(
        text.contains(r"Every piece, measured from the table's edges \(1200 x 1200 mm table\)"),
        "the listing says what a plane's distances are"
    );
}

#[test]
fn squares_and_hexes_are_laid_where_the_scenario_s_sizes_put_them() {
    let scenario = sandtable_scenario::standard();
    let physical = scenario.table();
    let game = scenario.game();
    let laid = Laid::new(game.surface(), physical.square_mm, physical.table_mm);
    let board = game.board();
    for col in 0..board.columns {
        for row in 0..board.rows {
            let square = sandtable_cache::Square::new(col, row);
            assert_eq!(
                laid.centre_mm(square.spot()),
                Some(physical.square_centre_mm(board, square)),
                "{square}"
            );
        }
    }
    assert_eq!(laid.offset_mm(), physical.grid_offset_mm(board));
    assert_eq!(
        laid.centre_mm(Spot::Hex { col: 0, row: 0 }),
        None,
        "a hex is no place on squares"
    );

    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/warpspawn/river-bridge.ron");
    let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path)
    else {
        panic!("the river bridge is a battle");
    };
    let physical = battle.table();
    let game = sandtable_warpspawn::Game::new(&battle.setup, sandtable_core::dice::Dice::seeded(1))
        .expect("a valid battle");
    let laid = Laid::new(game.surface(), physical.hex_mm, physical.table_mm);
    let map = battle.setup.map;
    for hex in map.hexes() {
        let (x, y) = physical.hex_centre_mm(map, hex);
        let (lx, ly) = laid.centre_mm(hex.spot()).expect("a hex of the map");
        assert!((x - lx).abs() < 1e-9 && (y - ly).abs() < 1e-9, "{hex}");
    }
    assert_eq!(laid.surface_mm(), physical.map_mm(map));
}
