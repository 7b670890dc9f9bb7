//! The setup sheet: page counts for a table and a paper, true 1:1 scale, the
//! check ruler, and the listing of pieces with their distances.

use sandtable_sheet::{MARGIN_MM, MAX_PAGES, Mark, OVERLAP_MM, Paper, plan, render_pdf};

fn standard() -> sandtable_scenario::Scenario {
    sandtable_scenario::standard()
}

fn pdf_pages(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    text.matches("/Type/Page/").count()
}

#[test]
fn table_a_on_a4_takes_nine_landscape_tiles_and_a_listing_page() {
    let sheet = plan(&standard(), Paper::A4).expect("ten pages");
    assert_eq!(sheet.page_mm, (297.0, 210.0), "landscape needs fewer pages");
    // 762 mm across 277 mm of print, 262 mm a step; 508 mm across 190, 175 a step.
    assert_eq!(sheet.grid, (3, 3));
    assert_eq!(sheet.tiles.len(), 9);
    assert_eq!(sheet.page_count(), 10);
    let pdf = render_pdf(&sheet, false);
    assert!(pdf.starts_with(b"%PDF-"), "a PDF file");
    assert_eq!(pdf_pages(&pdf), 10);
    let text = String::from_utf8_lossy(&pdf);
    assert_eq!(
        text.matches("/MediaBox[0 0 841.89 595.276]").count(),
        10,
        "A4 landscape pages: 297 x 210 mm in points"
    );
    assert!(
        text.contains("/Type/Pages/Count 10/"),
        "the page tree counts 10"
    );

    let letter = plan(&standard(), Paper::Letter).expect("a few pages");
    // Letter prints 259.4 x 195.9 mm in landscape: 762 mm needs 4 tiles across.
    assert_eq!(
        letter.grid,
        (4, 3),
        "Letter landscape: 4 x 3 (portrait would need 5 x 3)"
    );
    assert_eq!(letter.page_mm, (279.4, 215.9));
}

#[test]
fn tiles_overlap_and_cover_the_whole_table() {
    let sheet = plan(&standard(), Paper::A4).expect("ten pages");
    let (w, h) = sheet.page_mm;
    let (pw, ph) = (w - 2.0 * MARGIN_MM, h - 2.0 * MARGIN_MM);
    let last = sheet.tiles.last().expect("tiles");
    assert!(
        last.origin_mm.0 + pw >= 762.0 && last.origin_mm.1 + ph >= 508.0,
        "covered"
    );
    let second = &sheet.tiles[1];
    assert!((sheet.tiles[0].origin_mm.0 + pw - second.origin_mm.0 - OVERLAP_MM).abs() < 1e-9);
}

#[test]
fn a_30_mm_square_measures_30_mm_in_the_document() {
    let sheet = plan(&standard(), Paper::A4).expect("ten pages");
    let a1 = sheet
        .marks_in(&sheet.tiles[0])
        .iter()
        .find_map(|m| match m {
            Mark::Rect { x, y, w, h, .. }
                if (*x - 21.0).abs() < 1e-9 && (*y - 29.0).abs() < 1e-9 =>
            {
                Some((*w, *h))
            }
            _ => None,
        })
        .expect("square A1 sits 21 mm from the left and 29 mm from the near edge");
    assert_eq!(a1, (30.0, 30.0));
    // In the PDF, lengths are points: 30 mm is 85.04 pt, and the 100 mm ruler
    // runs from 28.35 pt (the 10 mm margin) to 311.81 pt.
    let text = String::from_utf8_lossy(&render_pdf(&sheet, false)).into_owned();
    assert!(
        text.contains("85.03") || text.contains("85.04"),
        "a 30 mm square is drawn 85.04 pt wide"
    );
    assert!(
        text.contains("311.8"),
        "the ruler ends 110 mm from the page edge"
    );
}

#[test]
fn the_listing_gives_every_piece_with_its_distances_from_the_edges() {
    let sheet = plan(&standard(), Paper::A4).expect("ten pages");
    let scenario = standard();
    let pieces = 2 + 20 + scenario.setup.terrain.len();
    assert_eq!(sheet.listing.len(), pieces);
    assert!(
        sheet.listing.contains(
            &"Red base (Factor 1) on D8: 126.0 mm from the left edge, 254.0 mm from the near edge"
                .to_owned()
        ),
        "{:#?}",
        sheet.listing
    );
    assert!(
        sheet.listing.iter().any(|l| l
            .starts_with("Red unit \"Sergeant Vance\" on C7 facing E: 96.0 mm from the left edge")),
        "{:#?}",
        sheet.listing
    );
}

#[test]
fn paper_names_are_read_in_any_case() {
    assert_eq!("A4".parse::<Paper>(), Ok(Paper::A4));
    assert_eq!("letter".parse::<Paper>(), Ok(Paper::Letter));
    assert!(
        "a3".parse::<Paper>()
            .unwrap_err()
            .contains("use a4 or letter")
    );
}

fn with_table(text_physical: &str, board: (u32, u32)) -> sandtable_scenario::Scenario {
    sandtable_scenario::parse(
        &format!(
            r#"(name: "big", rules: ConflictAtCache, board: (columns: {}, rows: {}),
                players: [
                    (name: "Red", factors: [(base: "B2", units: [(at: "C3", facing: N)])]),
                    (name: "Blue", factors: [(base: "E5", units: [(at: "D4", facing: S)])]),
                ],
                physical: {text_physical})"#,
            board.0, board.1
        ),
        "big",
    )
    .expect("valid")
}

#[test]
fn a_sheet_past_the_page_limit_is_refused_before_any_page_is_made() {
    let wide = with_table(
        "(square_mm: 30.0, table_mm: (10000000.0, 10000000.0))",
        (8, 8),
    );
    let err = plan(&wide, Paper::A4).expect_err("billions of pages");
    assert!(
        err.to_string()
            .ends_with(&format!("at most {MAX_PAGES} are printed")),
        "{err}"
    );
    // 4,700 x 9,600 mm: 990 tiles of A4 landscape and a page of pieces.
    let largest = with_table("(square_mm: 30.0, table_mm: (4700.0, 9600.0))", (8, 8));
    let sheet = plan(&largest, Paper::A4).expect("within the limit");
    assert_eq!((sheet.grid, sheet.page_count()), ((18, 55), 991));
}

#[test]
fn each_page_draws_only_the_squares_that_reach_into_it() {
    // 100 x 100 squares of 30 mm: 3 m of table over 17 x 12 pages.
    let big = with_table("(square_mm: 30.0, table_mm: (3000.0, 3000.0))", (100, 100));
    let sheet = plan(&big, Paper::A4).expect("a few hundred pages");
    // Each square drawn, by its corner in whole mm, with the pages it is on.
    let mut pages_of: std::collections::BTreeMap<(i64, i64), usize> = Default::default();
    // A tile prints 277 x 190 mm: at most 11 x 8 squares of 30 mm reach into it.
    for tile in &sheet.tiles {
        let mut n = 0;
        for m in sheet.marks_in(tile) {
            if let Mark::Rect { x, y, w, .. } = m
                && (w - 30.0).abs() < 1e-9
            {
                *pages_of
                    .entry((x.round() as i64, y.round() as i64))
                    .or_default() += 1;
                n += 1;
            }
        }
        assert!(
            n <= 11 * 8,
            "tile {},{} draws {n} squares",
            tile.col,
            tile.row
        );
    }
    assert_eq!(pages_of.len(), 100 * 100, "every square is on some page");
    assert!(
        pages_of.values().all(|n| (1..=4).contains(n)),
        "a square is on at most the four pages that meet at a corner"
    );
}

#[test]
fn bases_and_units_carry_their_player_s_letter_as_well_as_colour() {
    let sheet = plan(&standard(), Paper::A4).expect("ten pages");
    let texts: Vec<String> = sheet
        .tiles
        .iter()
        .flat_map(|t| sheet.marks_in(t))
        .filter_map(|m| match m {
            Mark::Text { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    for wanted in ["BASE R", "BASE B"] {
        assert!(texts.iter().any(|t| t == wanted), "{wanted}");
    }
    // Each unit's letter, on some page (pages overlap, so at least once).
    for (letter, units) in [("R", 10), ("B", 10)] {
        let n = texts.iter().filter(|t| *t == letter).count();
        assert!(n >= units, "{letter}: {n} marks for {units} units");
    }
}

#[test]
fn the_listing_names_the_scenario_s_own_models() {
    let text = sandtable_scenario::STANDARD
        .trim_end()
        .trim_end_matches(')')
        .to_owned()
        + r#"    models: [
        (piece: Units, player: "Blue", file: "figures/orc.glb", unit_mm: 1.0),
        (piece: Terrain(Woods), file: "trees/oak.gltf", unit_mm: 1000.0),
    ],
)"#;
    let scenario = sandtable_scenario::parse(&text, "own models").expect("valid");
    let sheet = plan(&scenario, Paper::A4).expect("ten pages");
    let plain = plan(&standard(), Paper::A4).expect("ten pages");
    assert_eq!(sheet.listing.len(), plain.listing.len() + 2);
    let tail = &sheet.listing[sheet.listing.len() - 2..];
    assert_eq!(
        tail,
        [
            "model for Blue's units: figures/orc.glb (one unit of the model is 1 mm)",
            "model for every woods square: trees/oak.gltf (one unit of the model is 1000 mm)",
        ]
    );
}
