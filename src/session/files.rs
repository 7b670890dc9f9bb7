//! Opening and saving files of any rule system, with no Bevy types: errors
//! are plain messages for the window and stderr.
//!
//! A game is saved only as a game record (`.moves`): to its own file, or a
//! new name beside its scenario, never over a scenario or any file that is
//! not a Sandtable game record, and over another game's record only when the
//! person says so; the file replaced is kept as a backup. A record names its
//! scenario relative to its own folder and pins the scenario's content and
//! the engine, so that it opens from any folder and says when either has
//! changed since.

use std::path::{Path, PathBuf};

use sandtable_core::dice;
use sandtable_core::record::header;
use sandtable_scenario::files::{self as disk, Backups};
use sandtable_scenario::records;

use super::ScenarioSource;

/// The `[Scenario]` header of games on the embedded default scenario.
pub const EMBEDDED: &str = records::EMBEDDED;

/// The header of the players' seats: `person` or `bot N`, in turn order.
pub const SEATS: &str = header::SEATS;

/// The extension of game records.
pub const RECORD_EXTENSION: &str = "moves";

/// Why a file could not be opened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenError {
    /// What went wrong, with the file and the line.
    pub message: String,
    /// For a saved game with a bad line: that line, so that the game can be
    /// opened up to the line before it.
    pub bad_line: Option<usize>,
}

impl OpenError {
    /// An error of the file as a whole.
    pub fn plain(message: impl Into<String>) -> OpenError {
        OpenError {
            message: message.into(),
            bad_line: None,
        }
    }

    /// A saved game's command that the rules refuse, at its line, with the
    /// notes on what changed since it was saved (which may be why).
    pub fn illegal(
        path: &Path,
        line: usize,
        command: &impl std::fmt::Display,
        why: &impl std::fmt::Display,
        notes: &[String],
    ) -> OpenError {
        let mut message = format!("{}:{line}: `{command}` is illegal: {why}", path.display());
        for note in notes {
            message.push_str(&format!("\n{note}"));
        }
        OpenError {
            message,
            bad_line: Some(line),
        }
    }
}

/// The rolls of real dice a saved game was played with (its `[Dice]`
/// header, R30), if it has them.
pub fn dice_header<C>(
    record: &sandtable_core::record::Record<C>,
    path: &Path,
) -> Result<Option<Vec<u8>>, OpenError> {
    record
        .header(header::DICE)
        .map(|text| {
            dice::parse_rolls(text).map_err(|e| {
                OpenError::plain(format!(
                    "{}: the [{}] header: {e}",
                    path.display(),
                    header::DICE
                ))
            })
        })
        .transpose()
}

/// Reads a saved game's record of any rule system, only up to the line
/// `last_line` when given; a bad line is named.
pub fn read_record<C>(
    path: &Path,
    last_line: Option<usize>,
) -> Result<sandtable_core::record::Record<C>, OpenError>
where
    C: Copy + std::str::FromStr,
    C::Err: std::fmt::Display,
{
    let mut text = records::read_text(path).map_err(|e| OpenError::plain(e.to_string()))?;
    if let Some(last) = last_line {
        text = text.lines().take(last).collect::<Vec<_>>().join("\n");
    }
    parse_record(&text, path)
}

/// A saved game's record of any rule system from its text, read from
/// `path`; a bad line is named.
pub fn parse_record<C>(
    text: &str,
    path: &Path,
) -> Result<sandtable_core::record::Record<C>, OpenError>
where
    C: Copy + std::str::FromStr,
    C::Err: std::fmt::Display,
{
    sandtable_core::record::Record::parse(text).map_err(|e| OpenError {
        message: format!("{}:{}: {}", path.display(), e.line, e.reason),
        bad_line: Some(e.line),
    })
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// Why a game was not saved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SaveError {
    /// Another game record is there: the person must say to replace it.
    AskToReplace(PathBuf),
    /// Not saved, and why.
    Refused(String),
}

impl std::fmt::Display for SaveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SaveError::AskToReplace(p) => {
                write!(f, "{} is another saved game: replace it?", p.display())
            }
            SaveError::Refused(why) => f.write_str(why),
        }
    }
}

/// The folder for what has no file of its own (a game of the built-in
/// table or of a layout saved nowhere, and their sheets): `SANDTABLE_DATA_DIR`
/// when set, else the platform's data folder for Sandtable
/// (`~/.local/share/sandtable` on Linux, `~/Library/Application
/// Support/Sandtable` on macOS, `%APPDATA%\Sandtable\data` on Windows),
/// else the folder Sandtable runs in. Made when a file is first written
/// there.
pub fn data_folder() -> PathBuf {
    data_folder_from(
        std::env::var_os("SANDTABLE_DATA_DIR"),
        directories::ProjectDirs::from("", "", "Sandtable").map(|d| d.data_dir().to_path_buf()),
    )
}

/// [`data_folder`] from the variable's value and the platform's folder.
pub fn data_folder_from(
    variable: Option<std::ffi::OsString>,
    platform: Option<PathBuf>,
) -> PathBuf {
    variable
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or(platform)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The [data folder](data_folder), made if it is missing (a failure to make
/// it is told when a file is written there).
fn data_folder_made() -> PathBuf {
    let folder = data_folder();
    let _ = std::fs::create_dir_all(&folder);
    folder
}

/// The folder a package installed Sandtable's files in, beside its
/// programs: `../share/sandtable` from the running executable
/// (`/usr/share/sandtable` for `/usr/bin/sandtable`), when it is there. It
/// holds the assets and the shipped scenarios, and Sandtable never writes
/// in it.
pub fn installed_folder() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let dir = exe.parent()?.parent()?.join("share").join("sandtable");
    dir.is_dir().then_some(dir)
}

/// Whether Sandtable may put a file of its own making (a saved game, a
/// sheet) in `folder`: never inside the folder a package installed its
/// files in ([`installed_folder`]),
/// nor in a folder that refuses a new file. A folder that is not there
/// refuses nothing: writing there says why it fails. Each folder is asked
/// once a run (the panels name where a sheet goes in every frame).
pub fn may_write_in(folder: &Path) -> bool {
    static KNOWN: std::sync::Mutex<std::collections::BTreeMap<PathBuf, bool>> =
        std::sync::Mutex::new(std::collections::BTreeMap::new());
    let mut known = KNOWN
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    *known
        .entry(folder.to_path_buf())
        .or_insert_with(|| may_write_in_from(folder, installed_folder().as_deref()))
}

/// [`may_write_in`], with the installed folder given.
fn may_write_in_from(folder: &Path, installed: Option<&Path>) -> bool {
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let whole = |p: &Path| {
        std::fs::canonicalize(p).unwrap_or_else(|_| std::path::absolute(p).unwrap_or(p.into()))
    };
    if let Some(installed) = installed
        && whole(folder).starts_with(whole(installed))
    {
        return false;
    }
    if !folder.exists() {
        return true;
    }
    let probe = folder.join(format!(".sandtable-{}.probe", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
            true
        }
        Err(_) => false,
    }
}

/// `folder` where Sandtable may write in it ([`may_write_in`]), else the
/// [data folder](data_folder).
fn writable_folder(folder: &Path) -> PathBuf {
    if may_write_in(folder) {
        folder.to_path_buf()
    } else {
        data_folder_made()
    }
}

/// `file` where Sandtable may write it ([`may_write_in`]), else a file of
/// the same name in the [data folder](data_folder).
fn writable(file: PathBuf) -> PathBuf {
    let folder = file.parent().unwrap_or(Path::new(""));
    if may_write_in(folder) {
        return file;
    }
    let name = file
        .file_name()
        .map_or_else(|| "game".into(), |n| n.to_os_string());
    data_folder_made().join(name)
}

/// Where a game with no file of its own is saved: a new name beside its
/// scenario, or in the [data folder](data_folder) for the built-in table,
/// a layout saved nowhere, or a scenario where Sandtable may not write
/// ([`may_write_in`]: the shipped scenarios of a package, never the folder
/// Sandtable happens to run in). The notice names the whole path.
pub fn new_record_path(source: &ScenarioSource) -> PathBuf {
    match source {
        ScenarioSource::File(p) => {
            let folder = p.parent().unwrap_or(Path::new(""));
            let stem = p.file_stem().map_or("game".into(), |s| s.to_string_lossy());
            disk::unused_path(&writable_folder(folder), &stem, RECORD_EXTENSION)
        }
        ScenarioSource::Embedded => {
            disk::unused_path(&data_folder_made(), "standard", RECORD_EXTENSION)
        }
        ScenarioSource::Unsaved => {
            disk::unused_path(&data_folder_made(), "layout", RECORD_EXTENSION)
        }
    }
}

/// Saves a game of any system: to `to`, else its own file, else a new
/// name beside its setup's file, as [`save_target`] allows; a setup never
/// saved is written first ([`scenario_header_for`], from `setup_ron`); the
/// record is the system's (`record`, given the `[Scenario]` header).
/// Returns where the game went, and marks it saved.
pub fn save_active<S, C>(
    active: &mut super::game::ActiveGame<S>,
    to: Option<&Path>,
    replace: bool,
    setup_ron: impl FnOnce(&S::Setup) -> String,
    record: impl FnOnce(&super::game::ActiveGame<S>, String) -> sandtable_core::record::Record<C>,
) -> Result<PathBuf, SaveError>
where
    S: super::game::TableSystem,
    C: std::fmt::Display,
{
    // A position in review: the game reviewed is saved, whole.
    if let Some(whole) = active.reviewing.as_deref_mut() {
        let target = save_active(whole, to, replace, setup_ron, record)?;
        active.source = whole.source.clone();
        return Ok(target);
    }
    let target = save_target(to, active.file.as_deref(), &active.source, replace)?;
    let scenario = scenario_header_for(&target, &mut active.source, || setup_ron(&active.setup))?;
    write_record(&target, &record(active, scenario))?;
    active.file = Some(target.clone());
    active.saved = active.record.clone();
    Ok(target)
}

/// A line of a game record of any rule system, read without its meaning:
/// enough to tell a game record from other files and to find its scenario.
#[derive(Debug, Clone, Copy)]
pub struct AnyLine;

impl std::str::FromStr for AnyLine {
    type Err = std::convert::Infallible;

    fn from_str(_: &str) -> Result<AnyLine, Self::Err> {
        Ok(AnyLine)
    }
}

/// Whether a file holds a Sandtable game record of any rule system: it
/// reads as a record and names its scenario.
fn is_game_record(path: &Path) -> bool {
    records::read::<AnyLine>(path).is_ok_and(|r| r.header(header::SCENARIO).is_some())
}

/// The scenario file a saved game names in its `[Scenario]` header, found
/// from the record's folder; `None` for a game on the embedded table or a
/// file that is not a game record.
pub fn record_scenario(path: &Path) -> Option<PathBuf> {
    let record = records::read::<AnyLine>(path).ok()?;
    match record.header(header::SCENARIO)? {
        EMBEDDED => None,
        name => Some(records::scenario_path(path, name)),
    }
}

/// Where a game is saved, of any rule system: `to`, else its own file,
/// else a new name beside its scenario. Refused when the target is not a
/// `.moves` file, is the scenario, or holds anything but a game record; a
/// game record other than the game's own is replaced only with `replace`.
pub fn save_target(
    to: Option<&Path>,
    own_file: Option<&Path>,
    source: &ScenarioSource,
    replace: bool,
) -> Result<PathBuf, SaveError> {
    let target = to
        .or(own_file)
        .map_or_else(|| new_record_path(source), Path::to_path_buf);
    let refused =
        |why: String| SaveError::Refused(format!("{}: not saved: {why}", target.display()));
    if target.extension().is_none_or(|e| e != RECORD_EXTENSION) {
        return Err(refused(format!(
            "a game is saved as a game record, a file ending in .{RECORD_EXTENSION}"
        )));
    }
    if let ScenarioSource::File(scenario) = source
        && disk::same_file(&target, scenario)
    {
        return Err(refused("it is the game's scenario".to_owned()));
    }
    if let Ok(meta) = std::fs::metadata(&target) {
        if !meta.is_file() || !is_game_record(&target) {
            return Err(refused(
                "the file there is not a Sandtable game record, and is left as it is".to_owned(),
            ));
        }
        let own = own_file.is_some_and(|f| disk::same_file(f, &target));
        if !own && !replace {
            return Err(SaveError::AskToReplace(target));
        }
    }
    Ok(target)
}

/// The `[Scenario]` header of a record saved at `target`: the scenario's
/// path from the record's folder. A game on a layout that was never saved
/// writes the layout (`layout_ron`) first, as a new scenario file beside the
/// record, and is a game of that file from then on.
pub fn scenario_header_for(
    target: &Path,
    source: &mut ScenarioSource,
    layout_ron: impl FnOnce() -> String,
) -> Result<String, SaveError> {
    let folder = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Ok(match &*source {
        ScenarioSource::File(p) => records::scenario_header(target, p),
        ScenarioSource::Embedded => EMBEDDED.to_owned(),
        ScenarioSource::Unsaved => {
            let layout = disk::unused_path(&folder, "layout", "ron");
            disk::write_atomically(&layout, layout_ron().as_bytes(), Backups::Keep).map_err(
                |e| {
                    SaveError::Refused(format!(
                        "{}: not saved: the layout cannot be written to {}: {e}",
                        target.display(),
                        layout.display()
                    ))
                },
            )?;
            let header = records::scenario_header(target, &layout);
            *source = ScenarioSource::File(layout);
            header
        }
    })
}

/// Writes a game record at `target`, crash-safe, the file it replaces kept
/// as a backup.
pub fn write_record<C: std::fmt::Display>(
    target: &Path,
    record: &sandtable_core::record::Record<C>,
) -> Result<(), SaveError> {
    let refused =
        |why: String| SaveError::Refused(format!("{}: not saved: {why}", target.display()));
    let text = records::text_to_write(record).map_err(refused)?;
    disk::write_atomically(target, text.as_bytes(), Backups::Keep)
        .map(|_| ())
        .map_err(|e| refused(e.to_string()))
}

/// The one rule for a setup sheet's name, for every system and mode: a PDF
/// beside `file`, of its name with `.pdf` for its extension (`y.ron` prints
/// `y.pdf`, never over `y.ron` itself), as a whole path (a file named
/// without a folder is the folder Sandtable runs in), so that the notice
/// that tells where it went says where that is.
pub fn sheet_beside(file: &Path) -> PathBuf {
    std::path::absolute(file)
        .unwrap_or_else(|_| file.to_path_buf())
        .with_extension("pdf")
}

/// The file a layout mode offers to save to and print beside until the
/// person names another: the one the layout was opened from or last saved
/// to (of the same name in the data folder where Sandtable may not write
/// there, as in a package's shipped scenarios), else `name` in the [data
/// folder](data_folder), where the tables' own sheets and saves of a layout
/// saved nowhere go (never the folder Sandtable happens to run in); as a
/// whole path.
pub fn layout_file(last: Option<&Path>, name: &str) -> String {
    last.map_or_else(
        || data_folder_made().join(name),
        |p| writable(p.to_path_buf()),
    )
    .display()
    .to_string()
}

/// Where the setup sheet of a game's scenario goes: beside the scenario, as
/// a PDF of the same name (in the [data folder](data_folder) for the
/// built-in table, a layout saved nowhere, or a scenario where Sandtable
/// may not write, [`may_write_in`]).
pub fn sheet_path(source: &ScenarioSource) -> PathBuf {
    match source {
        ScenarioSource::File(p) => writable(sheet_beside(p)),
        ScenarioSource::Embedded => data_folder_made().join("standard.pdf"),
        ScenarioSource::Unsaved => data_folder_made().join("layout.pdf"),
    }
}

pub fn write_sheet(
    planned: Result<sandtable_sheet::Sheet, sandtable_sheet::PlanSheetError>,
    out: &Path,
) -> Result<PathBuf, String> {
    let sheet = planned.map_err(|e| format!("no sheet printed: {e}"))?;
    sandtable_sheet::write_file(&sheet, out)?;
    Ok(out.to_path_buf())
}

/// A scenario's warnings as the notes told when it opens:
/// `name: warning: ...`, `name` the file's or the scenario's.
pub fn warning_notes(
    source: &ScenarioSource,
    scenario_name: &str,
    warnings: &[sandtable_scenario::Problem],
) -> Vec<String> {
    let name = match source {
        ScenarioSource::File(p) => p.display().to_string(),
        _ => scenario_name.to_owned(),
    };
    warnings
        .iter()
        .map(|w| {
            format!(
                "{name}: warning: {}",
                w.display_in("").to_string().trim_start_matches(": ")
            )
        })
        .collect()
}

/// A saved game's `[Seed]` and `[TurnLimit]`, where it gives them.
pub fn seed_and_turns<C>(
    record: &sandtable_core::record::Record<C>,
    path: &Path,
) -> Result<(Option<u64>, Option<u32>), OpenError> {
    let number_error = |e: String| OpenError::plain(format!("{}: {e}", path.display()));
    Ok((
        record
            .header_number::<u64>(header::SEED)
            .map_err(number_error)?,
        record
            .header_number::<u32>(header::TURN_LIMIT)
            .map_err(number_error)?,
    ))
}

/// A saved game's seats (`[Seats]`) for `count` players; all people
/// where it names none.
pub fn record_seats<C>(
    record: &sandtable_core::record::Record<C>,
    path: &Path,
    count: usize,
) -> Result<Vec<super::Seat>, OpenError> {
    use sandtable_core::record::{SeatPlayer, read_seats};
    let seats = match record.header(header::SEATS) {
        Some(text) => read_seats(text, count, sandtable_bots::MAX_STRENGTH).map_err(|e| {
            OpenError::plain(format!("{}: [{}]: {e}", path.display(), header::SEATS))
        })?,
        None => vec![SeatPlayer::Person; count],
    };
    Ok(seats.into_iter().map(super::Seat::from).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_has_no_file_of_its_own_goes_to_the_data_folder_not_where_sandtable_runs() {
        let platform = PathBuf::from("/home/someone/.local/share/sandtable");
        assert_eq!(
            data_folder_from(Some("/tmp/mine".into()), Some(platform.clone())),
            PathBuf::from("/tmp/mine"),
            "SANDTABLE_DATA_DIR first"
        );
        assert_eq!(
            data_folder_from(Some("".into()), Some(platform.clone())),
            platform,
            "an empty variable is no variable"
        );
        assert_eq!(data_folder_from(None, Some(platform.clone())), platform);
        assert_eq!(data_folder_from(None, None), PathBuf::from("."));
        // The built-in table's game and sheet, and a layout saved nowhere.
        let folder = data_folder();
        for (path, name) in [
            (new_record_path(&ScenarioSource::Embedded), "standard"),
            (new_record_path(&ScenarioSource::Unsaved), "layout"),
            (sheet_path(&ScenarioSource::Embedded), "standard"),
            (sheet_path(&ScenarioSource::Unsaved), "layout"),
        ] {
            assert_eq!(path.parent(), Some(folder.as_path()), "{}", path.display());
            assert!(
                path.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with(name),
                "{}",
                path.display()
            );
        }
        if std::env::var_os("SANDTABLE_DATA_DIR").is_none() && std::env::var_os("HOME").is_some() {
            assert!(
                folder.is_absolute(),
                "a full path to name: {}",
                folder.display()
            );
        }
        // A game of a scenario file is still saved beside it.
        let beside = new_record_path(&ScenarioSource::File(PathBuf::from("/x/duel.ron")));
        assert_eq!(beside, PathBuf::from("/x/duel.moves"));
    }

    #[test]
    fn nothing_is_written_in_the_folder_a_package_installed_or_one_that_refuses_files() {
        let base = std::env::temp_dir().join(format!("sandtable-may-write-{}", std::process::id()));
        let installed = base.join("share/sandtable");
        let shipped = installed.join("scenarios");
        std::fs::create_dir_all(&shipped).expect("a scratch folder");
        let mine = base.join("mine");
        std::fs::create_dir_all(&mine).expect("a scratch folder");
        // The package's folder and every folder in it: never, whoever runs.
        assert!(!may_write_in_from(&shipped, Some(&installed)));
        assert!(!may_write_in_from(&installed, Some(&installed)));
        // Also when named through `..`.
        assert!(!may_write_in_from(
            &mine.join("../share/sandtable/scenarios"),
            Some(&installed)
        ));
        // A folder of the person's: yes, and the probe leaves nothing.
        assert!(may_write_in_from(&mine, Some(&installed)));
        assert!(may_write_in_from(&mine, None));
        assert_eq!(std::fs::read_dir(&mine).expect("the folder").count(), 0);
        // A "folder" that is a file refuses a new file in it.
        let file = mine.join("a-file");
        std::fs::write(&file, "x").expect("a scratch file");
        assert!(!may_write_in_from(&file, None));
        // A folder that is not there refuses nothing: the write says why.
        assert!(may_write_in_from(&base.join("gone"), None));
        let _ = std::fs::remove_dir_all(&base);
    }

    #[test]
    fn a_layout_saved_nowhere_is_saved_and_printed_in_the_data_folder_and_the_whole_path_said() {
        // The layout modes' file field, for a layout opened from no file:
        // the data folder, as the tables' own sheets of one are.
        let offered = PathBuf::from(layout_file(None, "layout.ron"));
        assert_eq!(offered, data_folder().join("layout.ron"));
        assert_eq!(
            sheet_beside(&offered).parent(),
            sheet_path(&ScenarioSource::Unsaved).parent(),
            "one place for a layout's sheet"
        );
        // A layout with a file keeps it.
        assert_eq!(
            layout_file(Some(Path::new("/x/duel.ron")), "layout.ron"),
            "/x/duel.ron"
        );
        // A file named without a folder prints where it would be saved,
        // and the sheet's path is whole, so the notice says where.
        let bare = sheet_beside(Path::new("mine.ron"));
        assert!(bare.is_absolute(), "{}", bare.display());
        assert_eq!(
            bare,
            std::env::current_dir().expect("a folder").join("mine.pdf")
        );
    }
}
