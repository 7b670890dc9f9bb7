//! Every invalid scenario in `scenarios/tests/` is refused with exactly the
//! problems its `// expect:` lines name: each expected text appears in its own
//! reported problem, and nothing else is reported. The tables at the
//! documented limits beside them (`frontiers-*.ron`, made by
//! `scripts/frontiers-scale-tables.py`) are valid, and load.

use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/tests exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .filter(|p| !is_scale_table(p))
        .collect();
    files.sort();
    files
}

/// Whether `path` is one of the valid tables at the limits.
fn is_scale_table(path: &std::path::Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("frontiers-"))
}

#[test]
fn the_tables_at_the_limits_load() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/tests");
    let tables: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/tests exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| is_scale_table(p))
        .collect();
    assert_eq!(tables.len(), 2, "{tables:?}");
    for path in tables {
        match sandtable_scenario::load_any(&path) {
            Ok(sandtable_scenario::Loaded::Frontiers(s)) => {
                assert!(s.setup.terrain.len() == 200 || s.setup.units.len() == 120);
                assert!(s.setup.terrain.iter().all(|t| t.corners.len() == 64));
            }
            Ok(_) => panic!("{} is a Frontiers table", path.display()),
            Err(e) => panic!("{}: {e}", path.display()),
        }
    }
}

#[test]
fn every_invalid_fixture_gives_exactly_the_errors_it_names() {
    let files = fixtures();
    assert!(files.len() >= 15, "the fixtures are found: {files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let expected: Vec<&str> = text
            .lines()
            .filter_map(|l| l.strip_prefix("// expect: "))
            .collect();
        assert!(
            !expected.is_empty(),
            "{} names the error it must produce",
            path.display()
        );
        let err = match sandtable_scenario::load(&path) {
            Ok(_) => panic!("{} must be refused", path.display()),
            Err(e) => e,
        };
        let reported: Vec<String> = err.to_string().lines().map(str::to_owned).collect();
        assert_eq!(
            reported.len(),
            expected.len(),
            "{}: reported {reported:#?}, expected {expected:#?}",
            path.display()
        );
        for (got, want) in reported.iter().zip(&expected) {
            assert!(
                got.starts_with(&path.display().to_string()),
                "each problem names the file: {got}"
            );
            assert!(
                got.contains(want),
                "{}: `{got}` should contain `{want}`",
                path.display()
            );
        }
    }
}

#[test]
fn a_file_that_cannot_be_read_says_so() {
    let err = sandtable_scenario::load(std::path::Path::new("no/such/file.ron")).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("no/such/file.ron: cannot read the scenario:"),
        "{err}"
    );
}
