//! Every invalid scenario in `scenarios/tests/` is refused with exactly the
//! problems its `// expect:` lines name: each expected text appears in its own
//! reported problem, and nothing else is reported.

use std::path::PathBuf;

fn fixtures() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/tests");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("scenarios/tests exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "ron"))
        .collect();
    files.sort();
    files
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
