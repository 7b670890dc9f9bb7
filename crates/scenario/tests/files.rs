//! Files a scenario reads besides itself, and what pins a game to it: a
//! stash list is read only from the scenario's own folder (links that lead
//! out of it included) and only as a small regular file; the content hash
//! follows what the scenario holds, not its comments.

use std::path::PathBuf;

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "sandtable-scenario-files-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn snyder(stash_list: &str) -> String {
    format!(
        r#"(name: "stashes", rules: SnyderSkirmish, board: (columns: 8, rows: 8),
            players: [
                (name: "Red", factors: [(base: "B2", units: [(at: "C3", facing: N)])]),
                (name: "Blue", factors: [(base: "G7", units: [(at: "F6", facing: S)])]),
            ],
            stashes: ["D5"],
            stash_list: "{stash_list}")"#
    )
}

#[test]
fn a_stash_list_is_read_only_from_the_scenario_s_folder() {
    let dir = temp_dir("stash-list");
    std::fs::create_dir_all(dir.join("lists")).expect("folder");
    std::fs::write(
        dir.join("lists/table-c.ron"),
        sandtable_cache::DEFAULT_STASH_LIST,
    )
    .expect("written");
    let inside = dir.join("inside.ron");
    std::fs::write(&inside, snyder("lists/table-c.ron")).expect("written");
    sandtable_scenario::load(&inside).expect("a list below the scenario's folder is read");

    let outside = temp_dir("stash-list-outside").join("list.ron");
    std::fs::write(&outside, sandtable_cache::DEFAULT_STASH_LIST).expect("written");
    let mut names = vec![
        "../list.ron".to_owned(),
        outside.display().to_string(),
        "/dev/zero".to_owned(),
    ];
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&outside, dir.join("lists/link.ron")).expect("a link");
        names.push("lists/link.ron".to_owned());
    }
    for name in names {
        let path = dir.join("outside.ron");
        std::fs::write(&path, snyder(&name)).expect("written");
        let err = sandtable_scenario::load(&path).expect_err("refused");
        assert!(
            err.to_string().contains(&format!(
                "stash_list: `{name}` is outside the scenario's folder"
            )),
            "{name}: {err}"
        );
    }
    // A list too large to be one is not read whole.
    std::fs::write(
        dir.join("lists/huge.ron"),
        " ".repeat(sandtable_scenario::MAX_STASH_LIST_BYTES as usize + 1),
    )
    .expect("written");
    let path = dir.join("huge.ron");
    std::fs::write(&path, snyder("lists/huge.ron")).expect("written");
    let err = sandtable_scenario::load(&path).expect_err("refused");
    assert!(err.to_string().contains("larger than 65536 bytes"), "{err}");
}

#[test]
fn the_content_hash_follows_what_a_scenario_holds_not_its_comments() {
    let text = sandtable_scenario::STANDARD;
    let a = sandtable_scenario::parse(text, "a").expect("valid");
    let commented = format!("// my notes\n{text}\n// more notes\n");
    let b = sandtable_scenario::parse(&commented, "b").expect("valid");
    assert_eq!(
        a.content_hash(),
        b.content_hash(),
        "comments change nothing"
    );
    assert_eq!(a.content_hash().len(), 16, "16 hex digits");
    let renamed = sandtable_scenario::parse(&text.replacen("name: \"", "name: \"Renamed ", 1), "c")
        .expect("valid");
    assert_ne!(
        a.content_hash(),
        renamed.content_hash(),
        "content changes it"
    );
}

#[test]
fn read_inside_keeps_to_its_folder() {
    use sandtable_scenario::files::{ReadFileError, read_inside};
    use std::path::Path;
    let dir = temp_dir("inside");
    let folder = dir.join("folder");
    std::fs::create_dir_all(folder.join("sub")).expect("folders");
    std::fs::write(folder.join("sub/a.bin"), b"inside").expect("write");
    std::fs::write(dir.join("out.bin"), b"outside").expect("write");
    let read = |p: &str| read_inside(&folder, Path::new(p), 1024);
    assert_eq!(read("sub/a.bin").expect("inside"), b"inside");
    assert_eq!(read("./sub/a.bin").expect("inside"), b"inside");
    assert!(matches!(read("../out.bin"), Err(ReadFileError::Outside)));
    assert!(matches!(
        read("sub/../../out.bin"),
        Err(ReadFileError::Outside)
    ));
    let absolute = dir.join("out.bin");
    assert!(matches!(
        read_inside(&folder, &absolute, 1024),
        Err(ReadFileError::Outside)
    ));
    assert!(matches!(read("sub"), Err(ReadFileError::NotAFile(_))));
    std::fs::write(folder.join("big.bin"), vec![0u8; 2000]).expect("write");
    assert!(matches!(
        read("big.bin"),
        Err(ReadFileError::TooLarge { .. })
    ));
    #[cfg(unix)]
    {
        // A link that stays inside is followed; one that leads out is not.
        std::os::unix::fs::symlink(folder.join("sub/a.bin"), folder.join("in.bin")).expect("link");
        std::os::unix::fs::symlink(dir.join("out.bin"), folder.join("out.bin")).expect("link");
        assert_eq!(read("in.bin").expect("a link inside"), b"inside");
        assert!(matches!(read("out.bin"), Err(ReadFileError::Outside)));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
