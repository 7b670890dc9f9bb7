//! A Frontiers skirmish's 1:1 sheet: its open table tiled at its real
//! size (R100), the listing of every piece with its place, and the play
//! aids at true size: the ruler of the scenario's LNS (R102), the
//! templates (R126), a smoke cloud (R130) and each base (R101), measured
//! here in the marks and again in the PDF's own units (points).

use std::path::Path;

use sandtable_scenario::skirmish::Skirmish;
use sandtable_sheet::{MARGIN_MM, Mark, Paper, plan_skirmish, render_pdf};

const PT_PER_MM: f64 = 72.0 / 25.4;

fn skirmish(name: &str) -> Skirmish {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/frontiers")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("a shipped skirmish");
    sandtable_scenario::skirmish::parse(&text, name).expect("it loads")
}

/// Each page's drawing, from an uncompressed PDF: the page streams in
/// order.
fn page_streams(pdf: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(pdf);
    text.split("stream\n")
        .skip(1)
        .filter_map(|s| s.split("\nendstream").next())
        .filter(|s| s.contains("BT /F1"))
        .map(str::to_owned)
        .collect()
}

/// Every path of a page as its points, in points: `x y m` then `x y l`
/// until the path is painted.
fn paths(stream: &str) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut path: Vec<(f64, f64)> = Vec::new();
    for line in stream.lines() {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [x, y, "m"] => {
                if path.len() > 1 {
                    out.push(std::mem::take(&mut path));
                }
                path = vec![(x.parse().unwrap(), y.parse().unwrap())];
            }
            [x, y, "l", ..] => path.push((x.parse().unwrap(), y.parse().unwrap())),
            _ => {
                if path.len() > 1 {
                    out.push(std::mem::take(&mut path));
                }
                path.clear();
            }
        }
    }
    if path.len() > 1 {
        out.push(path);
    }
    out
}

fn extent(points: &[(f64, f64)]) -> (f64, f64) {
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for (x, y) in points {
        x0 = x0.min(*x);
        y0 = y0.min(*y);
        x1 = x1.max(*x);
        y1 = y1.max(*y);
    }
    (x1 - x0, y1 - y0)
}

#[test]
fn every_shipped_skirmish_prints_its_table_its_pieces_and_its_play_aids() {
    for name in [
        "skirmish.ron",
        "confrontation.ron",
        "treasure-hunt.ron",
        "attack-defense.ron",
        "attack-defense-easy.ron",
        "attack-defense-difficult.ron",
        "data-recovery.ron",
        "cameron-1.ron",
        "cameron-2.ron",
    ] {
        let s = skirmish(name);
        let sheet = plan_skirmish(&s, Paper::A4).expect("a few pages");
        assert_eq!(
            sheet.table_mm,
            (f64::from(s.setup.table.0), f64::from(s.setup.table.1)),
            "{name}: the table at its real size (R100)"
        );
        assert_eq!(sheet.aids.len(), 1, "{name}: one page of play aids");
        let pdf = render_pdf(&sheet, false);
        let pages = page_streams(&pdf);
        assert_eq!(pages.len(), sheet.page_count(), "{name}");
        // Every unit has its line: where it stands, or that it deploys.
        for u in &s.setup.units {
            let line = sheet
                .listing
                .iter()
                .find(|l| l.contains(&format!(" {} (", u.id)))
                .unwrap_or_else(|| panic!("{name}: {} listed", u.id));
            if u.deploy {
                assert!(
                    line.contains("deploys before the first turn (R146)"),
                    "{line}"
                );
            } else {
                assert!(
                    line.contains(&format!("at {}, {}", u.at.x, u.at.y)),
                    "{line}"
                );
            }
        }
    }
}

#[test]
fn the_skirmish_s_pieces_stand_where_the_scenario_puts_them() {
    let s = skirmish("skirmish.ron");
    let sheet = plan_skirmish(&s, Paper::A4).expect("pages");
    let marks: Vec<Mark> = sheet.tiles.iter().flat_map(|t| sheet.marks_in(t)).collect();
    // T1, a round 30 mm base at (480, 150): its outline's extent is 30 mm
    // about its centre.
    let t1 = marks
        .iter()
        .find_map(|m| match m {
            Mark::Polygon { points, .. } => {
                let (w, h) = extent(points);
                let cx = points.iter().map(|p| p.0).sum::<f64>() / points.len() as f64;
                let cy = points.iter().map(|p| p.1).sum::<f64>() / points.len() as f64;
                ((cx - 480.0).abs() < 1e-6 && (cy - 150.0).abs() < 1e-6).then_some((w, h))
            }
            _ => None,
        })
        .expect("T1's base");
    assert!(
        (t1.0 - 30.0).abs() < 1e-9 && (t1.1 - 30.0).abs() < 1e-9,
        "{t1:?}"
    );
    // The relay hut's window is drawn and named as commands name it.
    assert!(
        marks
            .iter()
            .any(|m| matches!(m, Mark::Text { text, .. } if text == "RH.w1"))
    );
    assert!(
        sheet
            .listing
            .iter()
            .any(|l| l.contains("window RH.w1 from (560, 280) to (560, 300)")),
        "{:?}",
        sheet.listing
    );
    // Both sides' letters mark their units, besides their colours.
    assert!(
        marks
            .iter()
            .any(|m| matches!(m, Mark::Text { text, .. } if text == "L T1"))
    );
    assert!(
        marks
            .iter()
            .any(|m| matches!(m, Mark::Text { text, .. } if text == "Z K1"))
    );
}

#[test]
fn the_play_aids_are_true_to_the_millimetre_in_the_pdf() {
    let s = skirmish("confrontation.ron");
    let sheet = plan_skirmish(&s, Paper::A4).expect("pages");
    let pdf = render_pdf(&sheet, false);
    let pages = page_streams(&pdf);
    let aids = &pages[pages.len() - sheet.aids.len()..];
    let all: Vec<Vec<(f64, f64)>> = aids.iter().flat_map(|a| paths(a)).collect();
    let widths: Vec<(f64, f64)> = all.iter().map(|p| extent(p)).collect();
    let has = |w_mm: f64, h_mm: f64| {
        widths.iter().any(|(w, h)| {
            (w / PT_PER_MM - w_mm).abs() < 0.01 && (h / PT_PER_MM - h_mm).abs() < 0.01
        })
    };
    // The templates and the cloud: 60 and 90 mm across, both ways (R126,
    // R130); the bases: 30 and 40 mm discs, the 60 x 36 mm oval (R101).
    for (w, h, what) in [
        (60.0, 60.0, "the small template"),
        (90.0, 90.0, "the large template and the cloud"),
        (30.0, 30.0, "a round base"),
        (40.0, 40.0, "a small base"),
        (60.0, 36.0, "an oval base"),
    ] {
        assert!(has(w, h), "{what}: {w} x {h} mm in {widths:?}");
    }
    // The ruler: 8 LNS of 30 mm, 240 mm long and 12 mm wide (R102).
    let lns = f64::from(s.setup.switches.lns_mm) * f64::from(s.setup.switches.ruler_lns);
    assert_eq!(lns, 240.0);
    assert!(has(240.0, 12.0), "the ruler in {widths:?}");
    // Its ticks every half LNS: 17 lines, the first and last 240 mm apart.
    let ticks: Vec<f64> = paths(&aids[0])
        .iter()
        // Across the ruler's near edge, 2 mm into the printable area
        // (the page's check ruler lies in the margin below it).
        .filter(|p| p.len() == 2 && (p[0].0 - p[1].0).abs() < 1e-6)
        .filter(|p| (p[0].1 / PT_PER_MM - MARGIN_MM - 2.0).abs() < 0.01)
        .filter(|p| {
            let h = (p[0].1 - p[1].1).abs() / PT_PER_MM;
            (h - 6.0).abs() < 0.01 || (h - 3.0).abs() < 0.01
        })
        .map(|p| p[0].0 / PT_PER_MM)
        .collect();
    assert_eq!(ticks.len(), 17, "{ticks:?}");
    let first = ticks.iter().copied().fold(f64::MAX, f64::min);
    let last = ticks.iter().copied().fold(f64::MIN, f64::max);
    assert!((last - first - 240.0).abs() < 0.01, "{first} to {last}");
    // Every page's check ruler: 100 mm from the margin, within 0.5 mm.
    for page in &pages {
        let ruler = paths(page)
            .into_iter()
            .find(|p| {
                p.len() == 2
                    && (p[0].1 - 4.0 * PT_PER_MM).abs() < 0.01
                    && (p[1].1 - 4.0 * PT_PER_MM).abs() < 0.01
            })
            .expect("the check ruler");
        let length = (ruler[1].0 - ruler[0].0).abs() / PT_PER_MM;
        assert!((length - 100.0).abs() < 0.5, "{length}");
        assert!((ruler[0].0 / PT_PER_MM - MARGIN_MM).abs() < 0.01);
    }
}

#[test]
fn deployment_strips_are_drawn_for_the_sides_that_deploy() {
    // Cameron: units deploy wholly within 120 mm of their edge (R146).
    let s = skirmish("cameron-1.ron");
    assert_eq!(s.setup.deploy_mm, Some(120));
    let sheet = plan_skirmish(&s, Paper::A4).expect("pages");
    let (_, d) = sheet.table_mm;
    for (side, from, to) in [(0usize, 0.0, 120.0), (1, d - 120.0, d)] {
        let name = &s.setup.sides[side].name;
        assert!(
            sheet.listing.iter().any(|l| l.contains(&format!(
                "{name} deploys from {from:.0} to {to:.0} mm from the near edge (R146)"
            ))),
            "{name}: {:?}",
            sheet.listing
        );
    }
    // Where every unit stands already, no strip.
    let s = skirmish("skirmish.ron");
    let sheet = plan_skirmish(&s, Paper::A4).expect("pages");
    assert!(!sheet.listing.iter().any(|l| l.contains("deploys from")));
}
