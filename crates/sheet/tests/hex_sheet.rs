//! The setup sheet of a Warpspawn battle: page counts and sizes for the
//! shipped battles, every hex printed where `hex_mm` puts it (to within
//! 0.5 mm, read back from the PDF), terrain told apart by pattern as well
//! as colour, and the listing of every piece with its distances.

use sandtable_scenario::Loaded;
use sandtable_scenario::battle::{Battle, HexPhysical};
use sandtable_sheet::{MARGIN_MM, MAX_PAGES, Paper, plan_battle, render_pdf, terrain_pattern};
use sandtable_warpspawn::{Hex, Terrain};

fn shipped(name: &str) -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/warpspawn")
        .join(name);
    match sandtable_scenario::load_any(&path) {
        Ok(Loaded::Warpspawn(battle)) => battle,
        other => panic!("{name} is a battle: {other:?}"),
    }
}

const SHIPPED: [&str; 3] = ["open-field.ron", "river-bridge.ron", "capture-the-flag.ron"];

#[test]
fn the_shipped_battles_take_nine_a4_tiles_and_a_listing_page() {
    for name in SHIPPED {
        let battle = shipped(name);
        assert_eq!(
            battle.table().table_mm,
            (762.0, 508.0),
            "{name}: a 30 x 20 inch table"
        );
        let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
        // Landscape A4 prints 277 x 190 mm, a step of 262 x 175 with the
        // 15 mm overlap: 762 mm takes 3 tiles across, 508 mm 3 along.
        assert_eq!(sheet.page_mm, (297.0, 210.0), "{name}: landscape");
        assert_eq!(sheet.grid, (3, 3), "{name}");
        // Two sides, a line a hex of pieces and a line a terrain: one page.
        assert!(sheet.listing.len() <= 34, "{name}: {}", sheet.listing.len());
        assert_eq!(sheet.page_count(), 10, "{name}");
        let pdf = render_pdf(&sheet, false);
        let text = String::from_utf8_lossy(&pdf);
        assert_eq!(text.matches("/Type/Page/").count(), 10, "{name}");
        assert_eq!(
            text.matches("/MediaBox[0 0 841.89 595.276]").count(),
            10,
            "{name}: A4 landscape in points"
        );
        // Letter prints 259.4 x 195.9 mm in landscape: 4 tiles across.
        let letter = plan_battle(&battle, Paper::Letter).expect("a few pages");
        assert_eq!(letter.page_mm, (279.4, 215.9), "{name}");
        assert_eq!(letter.grid, (4, 3), "{name}");
        assert_eq!(letter.page_count(), 13, "{name}");
    }
}

/// Where R60 and `hex_mm` put a hex's centre on the table, worked out here
/// on its own: flat-topped hexes `hex_mm` between their flats, columns 1.5
/// sides apart, the 2nd, 4th ... columns half a hex further from the near
/// edge, the map centred on the table.
fn expected_centre(physical: &HexPhysical, columns: u16, rows: u16, hex: Hex) -> (f64, f64) {
    let h = physical.hex_mm;
    let side = h / 3f64.sqrt();
    let map_w = side * (1.5 * f64::from(columns) + 0.5);
    let map_d = h * (f64::from(rows) + 0.5);
    let (tw, td) = physical.table_mm;
    let (ox, oy) = ((tw - map_w) / 2.0, (td - map_d) / 2.0);
    let raised = if hex.col % 2 == 1 { 0.5 } else { 0.0 };
    (
        ox + side * (1.0 + 1.5 * f64::from(hex.col)),
        oy + h * (0.5 + f64::from(hex.row) + raised),
    )
}

/// The closed six-cornered paths of a page's drawing, each as its corners
/// in mm from the page's lower-left corner.
fn hexagons(stream: &str) -> Vec<Vec<(f64, f64)>> {
    let mm = |v: &str| v.parse::<f64>().expect("a number") * 25.4 / 72.0;
    let mut out = Vec::new();
    let mut path: Vec<(f64, f64)> = Vec::new();
    for line in stream.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [x, y, "m"] => path = vec![(mm(x), mm(y))],
            [x, y, "l"] => path.push((mm(x), mm(y))),
            [_, _, "l", "S"] => path.clear(),
            ["h", _] => {
                if path.len() == 6 {
                    out.push(std::mem::take(&mut path));
                }
                path.clear();
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_hex_is_printed_within_half_a_millimetre_of_where_hex_mm_puts_it() {
    let mut battles: Vec<Battle> = SHIPPED.iter().map(|n| shipped(n)).collect();
    // And hexes of another size on another table, not centred by chance.
    let mut odd = shipped("open-field.ron");
    odd.physical = Some(HexPhysical {
        hex_mm: 33.3,
        table_mm: (700.0, 520.0),
        figure_scale_mm: 15.0,
    });
    battles.push(odd);
    for battle in battles {
        let physical = battle.table();
        let map = battle.setup.map;
        let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
        let pdf = String::from_utf8_lossy(&render_pdf(&sheet, false)).into_owned();
        // The page streams in order: the tiles first.
        let streams: Vec<&str> = pdf
            .split(">>\nstream\n")
            .skip(1)
            .map(|s| s.split("\nendstream").next().unwrap_or_default())
            .collect();
        let mut printed: Vec<((f64, f64), f64)> = Vec::new();
        for (tile, stream) in sheet.tiles.iter().zip(&streams) {
            for corners in hexagons(stream) {
                // From the page to the table: the printable area's corner is
                // the tile's origin.
                let table: Vec<(f64, f64)> = corners
                    .iter()
                    .map(|(x, y)| {
                        (
                            x - MARGIN_MM + tile.origin_mm.0,
                            y - MARGIN_MM + tile.origin_mm.1,
                        )
                    })
                    .collect();
                let c = (
                    table.iter().map(|p| p.0).sum::<f64>() / 6.0,
                    table.iter().map(|p| p.1).sum::<f64>() / 6.0,
                );
                let radius = table
                    .iter()
                    .map(|p| (p.0 - c.0).hypot(p.1 - c.1))
                    .fold(0.0, f64::max);
                printed.push((c, radius));
            }
        }
        let side = physical.hex_mm / 3f64.sqrt();
        for hex in map.hexes() {
            let want = expected_centre(&physical, map.columns, map.rows, hex);
            let found = printed.iter().any(|(c, radius)| {
                (c.0 - want.0).hypot(c.1 - want.1) < 0.5 && (radius - side).abs() < 0.5
            });
            assert!(
                found,
                "{}: {hex} is printed as a {:.1} mm hex centred at ({:.1}, {:.1}) mm",
                battle.name, physical.hex_mm, want.0, want.1
            );
        }
    }
}

#[test]
fn each_terrain_has_a_pattern_of_its_own_for_a_black_and_white_print() {
    let (c, s, h) = ((100.0, 100.0), 23.0, 40.0);
    for a in Terrain::ALL {
        let pattern = terrain_pattern(a, c, s, h);
        assert_eq!(
            pattern.is_empty(),
            a == Terrain::Fields,
            "{a}: every terrain but fields has a pattern"
        );
        for b in Terrain::ALL {
            if a != b && a != Terrain::Fields {
                assert_ne!(
                    pattern,
                    terrain_pattern(b, c, s, h),
                    "{a} and {b} look alike without colour"
                );
            }
        }
        // The pattern stays inside its hex.
        for mark in &pattern {
            let (x0, y0, x1, y1) = mark.bounds();
            assert!(
                x0 >= c.0 - s && x1 <= c.0 + s && y0 >= c.1 - h / 2.0 && y1 <= c.1 + h / 2.0,
                "{a}: {mark:?}"
            );
        }
    }
}

#[test]
fn the_listing_gives_each_side_s_points_and_every_piece_with_its_distances() {
    let battle = shipped("open-field.ron");
    let physical = battle.table();
    let map = battle.setup.map;
    let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
    for (i, side) in battle.setup.sides.iter().enumerate() {
        let spent = sandtable_warpspawn::points_doubled(&battle.setup, i) / 2;
        assert!(
            sheet.listing.iter().any(|l| l.starts_with(&side.name)
                && l.contains(&format!("{spent} of {} points (R61)", side.points))),
            "{}'s points: {:?}",
            side.name,
            sheet.listing
        );
    }
    for p in &battle.setup.pieces {
        let side = &battle.setup.sides[p.side].name;
        let (x, y) = expected_centre(&physical, map.columns, map.rows, p.at);
        let line = sheet
            .listing
            .iter()
            .find(|l| l.starts_with(&format!("{side} in {}:", p.at)))
            .unwrap_or_else(|| panic!("{side}'s pieces in {} are listed", p.at));
        assert!(
            line.ends_with(&format!(
                "{x:.1} mm from the left edge, {y:.1} mm from the near edge"
            )),
            "{line}"
        );
        if p.infantry > 0 {
            assert!(line.contains(&format!("{} infantry", p.infantry)), "{line}");
        }
        if p.cannon {
            assert!(line.contains("a cannon"), "{line}");
        }
    }
    // The terrain's hexes, kind by kind.
    let trees: Vec<String> = battle
        .setup
        .terrain
        .iter()
        .filter(|(_, t)| *t == Terrain::Trees)
        .map(|(h, _)| h.to_string())
        .collect();
    assert!(!trees.is_empty(), "the open field has its wood");
    assert!(
        sheet
            .listing
            .contains(&format!("Trees: {}", trees.join(" ")))
    );
    // And the listing page says how the table is measured.
    let pdf = String::from_utf8_lossy(&render_pdf(&sheet, false)).into_owned();
    assert!(pdf.contains("40.0 mm hexes between their flat sides"));
}

#[test]
fn a_battle_sheet_past_the_page_limit_is_refused_before_any_page_is_made() {
    let mut battle = shipped("open-field.ron");
    battle.physical = Some(HexPhysical {
        hex_mm: 400.0,
        table_mm: (10_000.0, 8_000.0),
        figure_scale_mm: 15.0,
    });
    let refused = plan_battle(&battle, Paper::A4).expect_err("too many pages");
    assert!(
        refused
            .to_string()
            .contains(&format!("at most {MAX_PAGES}")),
        "{refused}"
    );
}

#[test]
fn sides_named_in_a_script_the_font_lacks_are_told_apart_by_their_marks() {
    let mut battle = shipped("open-field.ron");
    battle.setup.sides[0].name = "日本".to_owned();
    battle.setup.sides[1].name = "中国".to_owned();
    let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
    for (i, mark) in ['1', '2'].into_iter().enumerate() {
        let head = format!("Side {mark} ({mark}): ");
        assert!(
            sheet.listing.iter().any(|l| l.starts_with(&head)),
            "side {i}'s points line: {:?}",
            &sheet.listing[..2]
        );
        let piece = &battle
            .setup
            .pieces
            .iter()
            .find(|p| p.side == i)
            .expect("a piece");
        assert!(
            sheet
                .listing
                .iter()
                .any(|l| l.starts_with(&format!("Side {mark} in {}:", piece.at))),
            "side {i}'s pieces are listed by their mark"
        );
    }
    assert!(
        sheet
            .listing
            .iter()
            .all(|l| !l.contains('日') && !l.contains('中')),
        "nothing the font would print as ?"
    );
    // A name in the font's letters prints as it is.
    let battle = shipped("open-field.ron");
    let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
    assert!(
        sheet.listing[0].starts_with("Red (R): "),
        "{}",
        sheet.listing[0]
    );
}

#[test]
fn r40_the_flank_march_sheet_lays_the_ring_round_the_map_beyond_the_table() {
    let battle = shipped("flank-march.ron");
    let sheet = plan_battle(&battle, Paper::A4).expect("a few pages");
    // The sheet reaches beyond the 762 x 508 mm table to hold two squares
    // round the map, each a 40 mm hex deep.
    assert!(sheet.table_mm.1 > 508.0, "{:?}", sheet.table_mm);
    let pdf = String::from_utf8_lossy(&render_pdf(&sheet, false)).into_owned();
    // Squares by name, and the counters where they start: R1 in 1S, B2 in
    // 5S (R40, R43).
    for text in ["(1A)", "(2E)", "(16T)", "(R1)", "(R2)", "(B1)", "(B2)"] {
        assert!(pdf.contains(text), "{text} is printed");
    }
    // A name that is no square of this ring is not.
    assert!(!pdf.contains("(17A)"));
    // The listing names each counter with its pieces.
    for (side, n, at) in [
        ("Red", 1, "1S"),
        ("Red", 2, "2N"),
        ("Blue", 1, "16S"),
        ("Blue", 2, "5S"),
    ] {
        assert!(
            sheet.listing.iter().any(|l| l.starts_with(side)
                && l.contains(&format!("counter {n} "))
                && l.contains(&format!("in {at}:"))),
            "{side} {n} in {at}: {:?}",
            sheet.listing
        );
    }
    // A battle without the grid keeps its table.
    let open = plan_battle(&shipped("open-field.ron"), Paper::A4).expect("a few pages");
    assert_eq!(open.table_mm, (762.0, 508.0));
    assert!(!String::from_utf8_lossy(&render_pdf(&open, false)).contains("(2E)"));
}
