//! Files as Sandtable reads and writes them, for every crate that touches the
//! disk: only regular files are read, never more than a stated size; every
//! file is written to a fresh temporary file beside its target, flushed and
//! synced, then renamed into place, so that a crash leaves the old file or
//! the new one and never half of either; a file replaced can be kept as
//! numbered backups. What the files mean is left to the callers.

use std::borrow::Cow;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How many generations of backups a replaced file keeps at most:
/// `NAME.bak` is the newest, then `NAME.bak.2` up to `NAME.bak.5`.
pub const BACKUP_GENERATIONS: usize = 5;

/// Why a file could not be read.
#[derive(Debug)]
pub enum ReadFileError {
    /// It is a folder, a device, a pipe or a socket.
    NotAFile(&'static str),
    /// It holds more than the limit.
    TooLarge {
        /// The limit in bytes.
        limit: u64,
    },
    /// It is not text in UTF-8.
    NotText,
    /// It lies outside the folder it must be read from (by `..`, a root,
    /// or a link that leads out).
    Outside,
    /// The system refused.
    Io(io::Error),
}

impl fmt::Display for ReadFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadFileError::NotAFile(kind) => write!(f, "it is {kind}, not a file"),
            ReadFileError::Outside => write!(f, "it lies outside its folder"),
            ReadFileError::TooLarge { limit } => {
                write!(
                    f,
                    "it is larger than {limit} bytes, the most this file may hold"
                )
            }
            ReadFileError::NotText => f.write_str("it is not text (UTF-8)"),
            ReadFileError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ReadFileError {}

/// What kind of thing a path names, when it is not a regular file.
fn not_a_file(meta: &fs::Metadata) -> Option<&'static str> {
    let t = meta.file_type();
    if t.is_file() {
        return None;
    }
    if t.is_dir() {
        return Some("a folder");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return Some("a pipe");
        }
        if t.is_socket() {
            return Some("a socket");
        }
        if t.is_char_device() || t.is_block_device() {
            return Some("a device");
        }
    }
    Some("not a regular file")
}

/// Reads a regular file of at most `limit` bytes. Folders, devices (such as
/// `/dev/zero`) and pipes are refused before they are opened, so a read
/// never blocks or runs on without end; the limit holds on the bytes read,
/// whatever the file's size claims to be.
pub fn read_bytes(path: &Path, limit: u64) -> Result<Vec<u8>, ReadFileError> {
    let meta = fs::metadata(path).map_err(ReadFileError::Io)?;
    if let Some(kind) = not_a_file(&meta) {
        return Err(ReadFileError::NotAFile(kind));
    }
    if meta.len() > limit {
        return Err(ReadFileError::TooLarge { limit });
    }
    let file = File::open(path).map_err(ReadFileError::Io)?;
    // The file was checked above, but may have been swapped since: check
    // what was opened too.
    if let Some(kind) = file.metadata().ok().as_ref().and_then(not_a_file) {
        return Err(ReadFileError::NotAFile(kind));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    file.take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadFileError::Io)?;
    if bytes.len() as u64 > limit {
        return Err(ReadFileError::TooLarge { limit });
    }
    Ok(bytes)
}

/// As [`read_bytes`], for a text file.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadFileError> {
    String::from_utf8(read_bytes(path, limit)?).map_err(|_| ReadFileError::NotText)
}

/// Whether two paths name the same file (the same file on disk, however
/// the paths are written). A path that does not exist names no file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (fs::metadata(a), fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!((fs::canonicalize(a), fs::canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    }
}

/// Refuses to write `out` over any of `inputs`: `Err` names the input.
pub fn refuse_output_over_input<'a>(
    out: &Path,
    inputs: impl IntoIterator<Item = &'a Path>,
) -> Result<(), String> {
    for input in inputs {
        if same_file(out, input) {
            return Err(format!(
                "{}: not written: it is {}, an input of this command; choose another file",
                crate::text::path_shown(out),
                if out == input {
                    "the same file".to_owned()
                } else {
                    format!("the same file as {}", crate::text::path_shown(input))
                }
            ));
        }
    }
    Ok(())
}

/// The backup of `path` of generation `n` (1 the newest): `NAME.bak`,
/// `NAME.bak.2`, ...
pub fn backup_path(path: &Path, n: usize) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".bak");
    if n > 1 {
        name.push(format!(".{n}"));
    }
    path.with_file_name(name)
}

/// Whether a file replaced by a write is kept first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backups {
    /// The old file is simply replaced (it can be made again, like a PDF).
    None,
    /// The old file becomes `NAME.bak`, older backups move one generation
    /// down, and the oldest of [`BACKUP_GENERATIONS`] is dropped.
    Keep,
}

static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// The temporary files being written now, for [`remove_unfinished`].
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set once [`remove_unfinished`] has run: no temporary file is made after.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Removes the temporary files of writes still under way: for a program
/// stopped by a signal (Ctrl-C, SIGTERM) just before it exits, so that a
/// stopped write leaves nothing behind. The files they were to replace are
/// as they were.
pub fn remove_unfinished() {
    let mut unfinished = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
    // No write starts after this: the program is about to exit.
    STOPPING.store(true, Ordering::SeqCst);
    for temp in unfinished.drain(..) {
        let _ = fs::remove_file(temp);
    }
}

fn finished(temp: &Path) {
    let mut unfinished = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
    unfinished.retain(|t| t != temp);
}

/// Whether the process `pid` has ended, where the system can tell (Linux,
/// by `/proc`); elsewhere no process is taken for ended.
fn process_ended(pid: u32) -> bool {
    cfg!(target_os = "linux") && !Path::new("/proc").join(pid.to_string()).exists()
}

/// Removes the temporary files beside `path` that an earlier Sandtable
/// process left when it was killed: named as [`create_temp`] names them,
/// by a process that has ended.
fn clear_stale_temps(path: &Path, name: &str) {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(rest) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|r| r.strip_suffix(".tmp"))
        else {
            continue;
        };
        let stale = rest.split_once('.').is_some_and(|(pid, n)| {
            n.parse::<u64>().is_ok()
                && pid
                    .parse::<u32>()
                    .is_ok_and(|pid| pid != std::process::id() && process_ended(pid))
        });
        if stale && entry.file_type().is_ok_and(|t| t.is_file()) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// A temporary file beside `path`, created new (never an existing file),
/// and listed as [unfinished](remove_unfinished) until the write ends.
/// Stale temporary files of `path` from ended processes are removed first.
fn create_temp(path: &Path) -> io::Result<(PathBuf, File)> {
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
    if let Some(name) = name.to_str() {
        clear_stale_temps(path, name);
    }
    loop {
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let mut temp = std::ffi::OsString::from(".");
        temp.push(name);
        temp.push(format!(".{}.{n}.tmp", std::process::id()));
        let temp = path.with_file_name(temp);
        // Made and listed under the list's lock, so that a signal's
        // `remove_unfinished` on another thread never runs between the two
        // and leaves a file it did not know of; none is made once it has run.
        let mut unfinished = UNFINISHED.lock().unwrap_or_else(|e| e.into_inner());
        if STOPPING.load(Ordering::SeqCst) {
            return Err(io::Error::new(
                io::ErrorKind::Interrupted,
                "the program is stopping",
            ));
        }
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => {
                unfinished.push(temp.clone());
                return Ok((temp, file));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// Moves the backups of `path` one generation down and makes the file now at
/// `path` the newest; returns the newest backup's path.
fn keep_backup(path: &Path) -> io::Result<PathBuf> {
    for n in (1..BACKUP_GENERATIONS).rev() {
        let from = backup_path(path, n);
        if from.exists() {
            fs::rename(&from, backup_path(path, n + 1))?;
        }
    }
    let newest = backup_path(path, 1);
    // A second name for the old file, so that the rename below leaves it
    // whole; a copy where the file system has no hard links.
    if fs::hard_link(path, &newest).is_err() {
        fs::copy(path, &newest)?;
    }
    Ok(newest)
}

/// Writes a file crash-safely: `write` fills a new temporary file beside
/// `path`, which is flushed, synced and renamed over `path`, and the folder
/// synced. On any failure the temporary file is removed and `path` is as it
/// was. With [`Backups::Keep`] a file already at `path` is kept as
/// `NAME.bak` first. Returns the backup made, if any.
pub fn write_with(
    path: &Path,
    backups: Backups,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<Option<PathBuf>> {
    if fs::metadata(path).is_ok_and(|m| not_a_file(&m).is_some()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file",
        ));
    }
    let (temp, file) = create_temp(path)?;
    let result = (|| {
        let mut out = io::BufWriter::new(file);
        write(&mut out)?;
        let file = out.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        let backup = match backups {
            Backups::Keep if path.exists() => Some(keep_backup(path)?),
            _ => None,
        };
        fs::rename(&temp, path)?;
        sync_folder(path);
        Ok(backup)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&temp);
    }
    finished(&temp);
    result
}

/// As [`write_with`], for bytes already made.
pub fn write_atomically(
    path: &Path,
    bytes: &[u8],
    backups: Backups,
) -> io::Result<Option<PathBuf>> {
    write_with(path, backups, |out| out.write_all(bytes))
}

/// Syncs the folder holding `path`, so that a rename survives a crash. Not
/// every system can open a folder; where it cannot, the rename stands as the
/// system keeps it.
fn sync_folder(path: &Path) {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if let Ok(dir) = File::open(folder) {
        let _ = dir.sync_all();
    }
}

/// The first of `STEM.EXT`, `STEM-2.EXT`, `STEM-3.EXT` ... in `folder` that
/// names no file yet.
pub fn unused_path(folder: &Path, stem: &str, ext: &str) -> PathBuf {
    (1u64..)
        .map(|n| {
            let name = if n == 1 {
                format!("{stem}.{ext}")
            } else {
                format!("{stem}-{n}.{ext}")
            };
            folder.join(name)
        })
        .find(|p| fs::symlink_metadata(p).is_err())
        .expect("some name is free")
}

/// `to` as a path relative to the folder `from`, when both can be resolved
/// and share a folder below the root; otherwise `to` made absolute (a game
/// saved in a person's home of a scenario a package installed in
/// `/usr/share` names it `/usr/share/...`, not by climbing to the root).
/// Separators are `/`, so a record written on one system reads on another.
pub fn relative_path(from: &Path, to: &Path) -> String {
    let (Ok(from), Ok(to)) = (fs::canonicalize(from), fs::canonicalize(to)) else {
        return std::path::absolute(to)
            .unwrap_or_else(|_| to.to_path_buf())
            .display()
            .to_string();
    };
    let a: Vec<Component> = from.components().collect();
    let b: Vec<Component> = to.components().collect();
    let common = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    // Another drive, or only the root in common: the absolute path says
    // where it is.
    if !a[..common]
        .iter()
        .any(|c| matches!(c, Component::Normal(_)))
    {
        return to.display().to_string();
    }
    let mut parts: Vec<String> = vec!["..".to_owned(); a.len() - common];
    parts.extend(
        b[common..]
            .iter()
            .map(|c| c.as_os_str().to_string_lossy().into_owned()),
    );
    parts.join("/")
}

/// Whether a relative path stays inside its folder: no root, no drive, no
/// `..`.
pub fn stays_inside(path: &Path) -> bool {
    path.components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
}

/// Reads a file that must lie inside `folder`: `relative` may not leave it
/// by name (see [`stays_inside`]) nor by a link, and the file obeys
/// [`read_bytes`]'s rules.
pub fn read_inside(folder: &Path, relative: &Path, limit: u64) -> Result<Vec<u8>, ReadFileError> {
    if !stays_inside(relative) {
        return Err(ReadFileError::Outside);
    }
    let root = fs::canonicalize(folder).map_err(ReadFileError::Io)?;
    let path = fs::canonicalize(folder.join(relative)).map_err(ReadFileError::Io)?;
    if !path.starts_with(&root) {
        return Err(ReadFileError::Outside);
    }
    read_bytes(&path, limit)
}

/// Text safe to print on a terminal: control characters other than line
/// breaks and tabs (the escape that starts a terminal command among them)
/// and the bidirectional controls are written as `\u{1b}`, so that text
/// from a file can never drive the terminal it is printed on nor turn a
/// line around. Names, paths and arguments set inside a line are shown
/// with their line breaks too ([`crate::text::shown`]).
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| crate::text::is_hidden(c) && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if unsafe_char(c) {
            out.push_str(&crate::text::escaped(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sandtable-files-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("readable")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn devices_pipes_and_folders_are_refused_before_they_are_read() {
        #[cfg(unix)]
        {
            let err = read_bytes(Path::new("/dev/zero"), 1024).expect_err("a device");
            assert_eq!(err.to_string(), "it is a device, not a file");
            let dir = temp_dir("fifo");
            let fifo = dir.join("pipe");
            let made = std::process::Command::new("mkfifo").arg(&fifo).status();
            if made.is_ok_and(|s| s.success()) {
                // Opening a pipe with no writer would block: it must not be opened.
                let err = read_text(&fifo, 1024).expect_err("a pipe");
                assert_eq!(err.to_string(), "it is a pipe, not a file");
            }
        }
        let err = read_text(&std::env::temp_dir(), 1024).expect_err("a folder");
        assert_eq!(err.to_string(), "it is a folder, not a file");
    }

    #[test]
    fn the_size_limit_holds_on_the_bytes_and_its_edge_is_exact() {
        let dir = temp_dir("limit");
        let path = dir.join("f.txt");
        fs::write(&path, "x".repeat(100)).expect("written");
        assert_eq!(read_text(&path, 100).expect("at the limit").len(), 100);
        let err = read_text(&path, 99).expect_err("one past");
        assert!(
            matches!(err, ReadFileError::TooLarge { limit: 99 }),
            "{err}"
        );
        fs::write(&path, [0xff, 0xfe]).expect("written");
        assert!(matches!(read_text(&path, 10), Err(ReadFileError::NotText)));
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_keeps_five_generations_of_backups() {
        let dir = temp_dir("write");
        let path = dir.join("game.moves");
        assert_eq!(
            write_atomically(&path, b"one", Backups::Keep).expect("written"),
            None,
            "nothing to back up the first time"
        );
        for (k, text) in ["two", "three", "four", "five", "six", "seven"]
            .iter()
            .enumerate()
        {
            let backup = write_atomically(&path, text.as_bytes(), Backups::Keep).expect("written");
            assert_eq!(backup, Some(dir.join("game.moves.bak")), "write {k}");
        }
        assert_eq!(fs::read_to_string(&path).expect("read"), "seven");
        let kept: Vec<String> = (1..=BACKUP_GENERATIONS)
            .map(|n| fs::read_to_string(backup_path(&path, n)).expect("a backup"))
            .collect();
        assert_eq!(
            kept,
            ["six", "five", "four", "three", "two"],
            "newest first"
        );
        assert!(
            !backup_path(&path, BACKUP_GENERATIONS + 1).exists(),
            "the oldest is dropped"
        );
        assert_eq!(leftovers(&dir), Vec::<String>::new(), "no temporary files");
        // Without backups the old file is simply replaced.
        write_atomically(&path, b"eight", Backups::None).expect("written");
        assert_eq!(
            fs::read_to_string(backup_path(&path, 1)).expect("read"),
            "six"
        );
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary_file() {
        let dir = temp_dir("fail");
        let path = dir.join("layout.ron");
        fs::write(&path, "old").expect("written");
        let err = write_with(&path, Backups::Keep, |out| {
            out.write_all(b"half of it")?;
            Err(io::Error::other("the disk is full"))
        })
        .expect_err("the writer failed");
        assert_eq!(err.to_string(), "the disk is full");
        assert_eq!(fs::read_to_string(&path).expect("read"), "old", "untouched");
        assert!(
            !backup_path(&path, 1).exists(),
            "no backup of a file not replaced"
        );
        assert_eq!(
            leftovers(&dir),
            Vec::<String>::new(),
            "the temporary file is gone"
        );
        // A folder cannot be written over.
        let err = write_atomically(&dir, b"x", Backups::Keep).expect_err("a folder");
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }

    #[test]
    fn stale_temporary_files_of_ended_processes_are_cleared() {
        let dir = temp_dir("stale");
        let path = dir.join("sheet.pdf");
        // Left by a process that has ended (no process has this id on
        // Linux, whose ids stay below 2^22), by this one, and by hand.
        let ended = dir.join(".sheet.pdf.4294967295.0.tmp");
        let ours = dir.join(format!(".sheet.pdf.{}.999999.tmp", std::process::id()));
        let other = dir.join(".notes.txt.4294967295.0.tmp");
        let odd = dir.join(".sheet.pdf.draft.tmp");
        for f in [&ended, &ours, &other, &odd] {
            fs::write(f, "x").expect("written");
        }
        write_atomically(&path, b"%PDF-", Backups::None).expect("written");
        assert_eq!(
            !ended.exists(),
            cfg!(target_os = "linux"),
            "a temporary file of an ended process goes where the system tells who ended"
        );
        assert!(ours.exists(), "this process's own is not stale");
        assert!(other.exists(), "another file's is left to its own writes");
        assert!(odd.exists(), "a name not of Sandtable's making is left");
    }

    #[test]
    fn output_over_an_input_is_refused_however_the_path_is_written() {
        let dir = temp_dir("same");
        let input = dir.join("v.ron");
        fs::write(&input, "x").expect("written");
        let roundabout = dir.join(".").join("v.ron");
        let err = refuse_output_over_input(&roundabout, [input.as_path()]).expect_err("same file");
        assert!(err.contains("an input of this command"), "{err}");
        assert!(refuse_output_over_input(&dir.join("v.pdf"), [input.as_path()]).is_ok());
    }

    #[test]
    fn paths_relative_to_a_folder_and_unused_names() {
        let dir = temp_dir("relative");
        fs::create_dir_all(dir.join("games")).expect("folder");
        fs::create_dir_all(dir.join("scenarios")).expect("folder");
        fs::write(dir.join("scenarios/x.ron"), "x").expect("written");
        assert_eq!(
            relative_path(&dir.join("games"), &dir.join("scenarios/x.ron")),
            "../scenarios/x.ron"
        );
        assert_eq!(
            relative_path(&dir.join("scenarios"), &dir.join("scenarios/x.ron")),
            "x.ron"
        );
        // Only the root in common: named from the root, not by climbing.
        assert_eq!(relative_path(&dir.join("games"), Path::new("/")), "/");
        assert_eq!(
            relative_path(Path::new("/"), &dir),
            dir.canonicalize().expect("there").display().to_string()
        );
        assert_eq!(
            unused_path(&dir.join("scenarios"), "x", "ron"),
            dir.join("scenarios/x-2.ron")
        );
        assert_eq!(
            unused_path(&dir.join("scenarios"), "y", "moves"),
            dir.join("scenarios/y.moves")
        );
        assert!(stays_inside(Path::new("lists/stash.ron")));
        assert!(!stays_inside(Path::new("../stash.ron")));
        assert!(!stays_inside(Path::new("/etc/passwd")));
    }

    #[test]
    fn terminal_escapes_are_made_visible() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            printable("\u{1b}[2J\u{1b}]0;owned\u{7}x"),
            "\\u{1b}[2J\\u{1b}]0;owned\\u{7}x"
        );
        assert_eq!(printable("\u{9b}31m"), "\\u{9b}31m", "a C1 control too");
        assert_eq!(
            printable("Red: \u{202e}ko\u{202c}\n"),
            "Red: \\u{202e}ko\\u{202c}\n",
            "a bidirectional override cannot turn a line around"
        );
    }
}
