//! `review`, a record looked back at: an estimate for every side after
//! every decision, from 0 to 1, two sides' summing to 1; a finished game
//! ending at its result; the same turning points under the same seed; the
//! SVG well formed, with one point a decision for each side.

use std::path::{Path, PathBuf};

use sandtable_cli::review::{Review, review, svg};
use sandtable_cli::{Front, Seeing, replay};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn reviewed<F: Front>(front: &F, record: &Path, iterations: u32, seed: u64) -> Review {
    let rec = replay::load_record(record, front).expect("the record");
    let (game, _) =
        replay::start(front, &rec, record, None, None, &Seeing::default()).expect("it starts");
    review(front, game, &rec, record, iterations, seed, false).expect("reviewed")
}

/// Checks that `text` is well-formed XML as far as an SVG needs: every
/// element closed in order, every attribute's value quoted, no bare `<`
/// or `&` in text; returns the elements' names in order.
fn elements(text: &str) -> Vec<String> {
    let mut open: Vec<String> = Vec::new();
    let mut names = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        if let Some(tag) = rest.strip_prefix('<') {
            let end = tag.find('>').expect("a tag is closed");
            let body = &tag[..end];
            rest = &tag[end + 1..];
            if let Some(name) = body.strip_prefix('/') {
                assert_eq!(open.pop().as_deref(), Some(name.trim()), "closed in order");
                continue;
            }
            let selfclosing = body.ends_with('/');
            let body = body.trim_end_matches('/');
            let name = body.split_whitespace().next().expect("a name").to_owned();
            // Attributes: name="value", the value free of quotes and `<`.
            let mut attrs = body[name.len()..].trim();
            while !attrs.is_empty() {
                let eq = attrs.find("=\"").expect("an attribute's value is quoted");
                let after = &attrs[eq + 2..];
                let close = after.find('"').expect("its quote is closed");
                assert!(!after[..close].contains('<'), "{body}");
                attrs = after[close + 1..].trim();
            }
            names.push(name.clone());
            if !selfclosing {
                open.push(name);
            }
        } else {
            let end = rest.find('<').unwrap_or(rest.len());
            let chars = &rest[..end];
            for (i, _) in chars.match_indices('&') {
                let entity = &chars[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;"]
                        .iter()
                        .any(|e| entity.starts_with(e)),
                    "a bare & in {chars:?}"
                );
            }
            rest = &rest[end..];
        }
    }
    assert!(open.is_empty(), "left open: {open:?}");
    names
}

#[test]
fn a_skirmish_reviewed_ends_at_its_result_with_an_estimate_after_every_decision() {
    let scenario = root().join("scenarios/frontiers/skirmish.ron");
    let record = root().join("crates/cli/tests/data/skirmish-person-wins-zirl.moves");
    let sandtable_scenario::Loaded::Frontiers(front) =
        replay::load_any(&scenario).expect("it loads")
    else {
        panic!("a skirmish")
    };
    let r = reviewed(&front, &record, 20, 7);
    let rec = replay::load_record(&record, &front).expect("the record");
    assert_eq!(r.steps.len(), rec.commands.len(), "one step a decision");
    for chances in std::iter::once(&r.start).chain(r.steps.iter().map(|s| &s.chances)) {
        let [a, b] = [chances[0], chances[1]].map(|c| c.expect("two sides weighed"));
        assert!(
            (0.0..=1.0).contains(&a) && (0.0..=1.0).contains(&b),
            "{chances:?}"
        );
        assert!((a + b - 1.0).abs() < 1e-5, "{chances:?}");
    }
    // A finished game: looked back at with the referee's knowledge.
    assert_eq!(r.sight, sandtable_bots::search::Sight::All);
    // The Zirl won (R145): the last estimate is the result.
    assert_eq!(
        r.steps.last().map(|s| s.chances.clone()),
        Some(vec![Some(0.0), Some(1.0)])
    );
    // The same seed, the same review; the turning points with it.
    let again = reviewed(&front, &record, 20, 7);
    assert_eq!(again, r);
    let turning = r.turning_points(3);
    assert_eq!(turning.len(), 3);
    assert_eq!(again.turning_points(3), turning);
    // Each turning point moved its side's chance at least as much as any
    // other decision.
    let least = turning
        .iter()
        .map(|k| r.swing(*k).expect("a swing").abs())
        .fold(f32::INFINITY, f32::min);
    for k in 0..r.steps.len() {
        // A forced decision (one legal command) turns nothing.
        if r.steps[k].instead.is_none() {
            assert!(!turning.contains(&k));
            continue;
        }
        if !turning.contains(&k) {
            assert!(r.swing(k).map_or(0.0, f32::abs) <= least, "decision {k}");
        }
    }
    // The SVG: well formed, a curve a side with one point a decision, and
    // a ring a turning point.
    let picture = svg(&r);
    let names = elements(&picture);
    assert_eq!(names.first().map(String::as_str), Some("svg"));
    let curves: Vec<&str> = picture
        .lines()
        .filter(|l| l.contains(r#"class="chance""#))
        .collect();
    assert_eq!(curves.len(), 2);
    for curve in curves {
        let points = curve
            .split("points=\"")
            .nth(1)
            .and_then(|p| p.split('"').next())
            .expect("its points");
        assert_eq!(
            points.split_whitespace().count(),
            r.steps.len(),
            "one point a decision"
        );
    }
    assert_eq!(picture.matches(r#"class="turning""#).count(), 3);
}

#[test]
fn the_command_writes_the_svg_and_says_where_a_bad_path_is() {
    let dir = std::env::temp_dir().join(format!("sandtable-review-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    let svg_path = dir.join("curve.svg");
    // `review` of the open field's record at 10 iterations, its SVG to `to`.
    let run = |to: &Path| {
        std::process::Command::new(env!("CARGO_BIN_EXE_sandtable-cli"))
            .current_dir(root())
            .args([
                "review",
                "crates/cli/tests/data/warpspawn-open-field.moves",
                "--mcts-iterations",
                "10",
                "--svg",
            ])
            .arg(to)
            .output()
            .expect("it runs")
    };
    let out = run(&svg_path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Turning points") || text.contains("No decision moved"),
        "{text}"
    );
    let picture = std::fs::read_to_string(&svg_path).expect("the SVG written");
    assert_eq!(elements(&picture).first().map(String::as_str), Some("svg"));
    // A folder that does not exist: refused, naming the file.
    let out = run(&dir.join("no-such-folder").join("curve.svg"));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no-such-folder"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every position of `record`, played from its start, against the kept
/// positions: the same position hash for hash, and the same events of its
/// last command.
fn positions_match<F: Front>(front: &F, record: &Path, every: usize) -> usize {
    use sandtable_core::game::{GameState, next_seat};
    use sandtable_core::replay::Positions;
    let rec = replay::load_record(record, front).expect("the record");
    let (start, _) =
        replay::start(front, &rec, record, None, None, &Seeing::default()).expect("it starts");
    let commands: Vec<_> = rec.commands.iter().map(|(_, c)| *c).collect();
    let positions = Positions::new(start.clone(), &commands, every).expect("the record plays");
    assert_eq!(positions.len(), commands.len());
    assert_eq!(positions.kept(), commands.len() / every + 1);
    let mut game = start;
    let mut events = Vec::new();
    assert_eq!(positions.at(0).0.state_hash(), game.state_hash());
    for (k, command) in commands.iter().enumerate() {
        let seat = next_seat(&game).expect("a seat decides");
        assert_eq!(positions.command(k), Some((seat, *command)));
        events.clear();
        game.apply_into(seat, command, &mut events).expect("legal");
        let (at, last) = positions.at(k + 1);
        assert_eq!(
            at.state_hash(),
            game.state_hash(),
            "{}: position {}",
            record.display(),
            k + 1
        );
        assert_eq!(
            format!("{last:?}"),
            format!("{events:?}"),
            "position {}",
            k + 1
        );
    }
    // Past the end: the last position.
    assert_eq!(
        positions.at(commands.len() + 5).0.state_hash(),
        game.state_hash()
    );
    commands.len()
}

#[test]
fn a_record_s_positions_kept_at_intervals_are_each_position_as_it_replays() {
    let data = root().join("crates/cli/tests/data");
    let load = |s: &str| replay::load_any(&root().join(s)).expect("it loads");
    let mut counted = 0;
    if let sandtable_scenario::Loaded::Cache(front) = load("scenarios/open-field.ron") {
        counted += positions_match(&front, &data.join("open-field-capture.moves"), 4);
    }
    if let sandtable_scenario::Loaded::Warpspawn(front) =
        load("scenarios/warpspawn/flank-march.ron")
    {
        counted += positions_match(&front, &data.join("flank-march.moves"), 5);
        // A game still going on: looked back at only as each side saw it.
        let r = reviewed(&front, &data.join("flank-march.moves"), 5, 1);
        assert_eq!(r.sight, sandtable_bots::search::Sight::Own);
    }
    if let sandtable_scenario::Loaded::Frontiers(front) =
        load("scenarios/frontiers/confrontation.ron")
    {
        counted += positions_match(&front, &data.join("frontiers-confrontation.moves"), 32);
    }
    // Every system's record was played through.
    assert_eq!(counted, 22 + 42 + 549);
}
