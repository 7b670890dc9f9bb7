//! A write stopped midway by a signal: the handler's call to
//! `remove_unfinished` removes the temporary file and leaves the file it
//! was to replace. In a test binary of its own, as it removes the
//! temporary files of every write under way in the process.

use std::fs;
use std::io;

use sandtable_core::files::{Backups, remove_unfinished, write_atomically, write_with};

fn temporary_files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .expect("readable")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    names.sort();
    names
}

#[test]
fn a_stopped_write_leaves_no_temporary_file_and_the_old_file_whole() {
    let dir = std::env::temp_dir().join(format!("sandtable-stopped-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("sheet.pdf");
    write_atomically(&path, b"%PDF- old", Backups::None).expect("written");
    let mut seen = Vec::new();
    let result = write_with(&path, Backups::None, |out| {
        out.write_all(b"%PDF- half of a new one")?;
        out.flush()?;
        seen = temporary_files(&dir);
        // What a signal handler does before the process exits.
        remove_unfinished();
        Err(io::Error::other("stopped"))
    });
    assert!(result.is_err());
    assert_eq!(seen.len(), 1, "one temporary file while writing: {seen:?}");
    assert_eq!(
        temporary_files(&dir),
        Vec::<String>::new(),
        "removed by the stop"
    );
    assert_eq!(
        fs::read(&path).expect("read"),
        b"%PDF- old",
        "the old file stays"
    );
    // The program is stopping: a write that would start now is refused
    // and makes no temporary file the exit could leave behind.
    let late = write_atomically(&path, b"%PDF- new", Backups::None)
        .expect_err("no write starts after the stop");
    assert!(format!("{late}").contains("stopping"), "{late}");
    assert_eq!(temporary_files(&dir), Vec::<String>::new());
    assert_eq!(fs::read(&path).expect("read"), b"%PDF- old");
    let _ = fs::remove_dir_all(&dir);
}
