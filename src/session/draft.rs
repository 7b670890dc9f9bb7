//! A layout being edited, for any rule system: its setup, which may break
//! the setup rulings while a person works on it, undo and redo, runs of
//! one edit that undo as one, and the live check that runs the system's
//! own loader on the layout as it would be saved. A system says what its
//! layout is ([`Layout`]: its edits and how its loader reads it); its
//! editor adds what is its own (the piece at a square, the terrain of a
//! hex). No Bevy here.

use std::path::{Path, PathBuf};

use sandtable_scenario::Problem;

/// A system's layout: its edits, and how its loader reads it.
pub trait Layout: Clone + PartialEq {
    /// One change to the layout. Every edit can be undone.
    type Edit;
    /// Why an edit is refused.
    type Error;
    /// Where in the layout a problem lies: a piece, a hex.
    type At: Copy + PartialEq;

    /// Makes `edit`, or says why not; a refused edit may leave `self`
    /// half changed (the draft changes a copy).
    fn change(&mut self, edit: &Self::Edit) -> Result<(), Self::Error>;
    /// Whether a run of `edit`s of one kind undoes as one (a name typed, a
    /// length dragged).
    fn merges(edit: &Self::Edit) -> bool;
    /// The refusal of an undo or a redo with nothing to take back or make
    /// again (`what` is "undo" or "redo").
    fn no_history(what: &'static str) -> Self::Error;
    /// The layout as its file is written.
    fn text(&self) -> String;
    /// The layout's text as its file would load: the warnings, or the
    /// problems that stop it loading.
    fn load(text: &str) -> Result<Vec<Problem>, Vec<Problem>>;
    /// Where a problem lies in this layout, if it lies somewhere.
    fn at(&self, problem: &Problem) -> Option<Self::At>;
}

/// A problem of the layout, with where it lies when it lies somewhere.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding<A> {
    /// The piece or the hex at fault, when the problem belongs to one.
    pub at: Option<A>,
    /// The problem as the loader reports it.
    pub problem: Problem,
}

impl<A> Finding<A> {
    /// The finding as one line for the panel: field, message, ruling.
    pub fn line(&self) -> String {
        problem_line(&self.problem)
    }
}

/// A problem of a layout as one line for the panel: field, message,
/// ruling. Every problem is in the layout: only the field path is worth
/// saying.
pub fn problem_line(problem: &Problem) -> String {
    let text = problem.display_in("layout").to_string();
    match text.strip_prefix("layout: ") {
        Some(rest) => rest.to_owned(),
        None => text,
    }
}

/// The edits of a layout that can be undone and made again: the layouts
/// before each edit, and those undone.
#[derive(Debug, Clone)]
pub struct History<T> {
    undo: Vec<T>,
    redo: Vec<T>,
}

impl<T> Default for History<T> {
    fn default() -> Self {
        History {
            undo: Vec::new(),
            redo: Vec::new(),
        }
    }
}

impl<T> History<T> {
    /// Steps to undo, and to redo.
    pub fn counts(&self) -> (usize, usize) {
        (self.undo.len(), self.redo.len())
    }

    /// Whether nothing was undone since the last edit, so that an edit of
    /// the same field may merge into it.
    pub fn nothing_undone(&self) -> bool {
        self.redo.is_empty()
    }

    /// An edit was made to the layout that stood as `before`: a step to
    /// undo, unless the edit merges into the last step; what was undone is
    /// lost.
    pub fn record(&mut self, before: T, merge: bool) {
        if !merge {
            self.undo.push(before);
        }
        self.redo.clear();
    }

    /// Steps `now` back one edit; `false` when there is none.
    pub fn undo(&mut self, now: &mut T) -> bool {
        let Some(before) = self.undo.pop() else {
            return false;
        };
        self.redo.push(std::mem::replace(now, before));
        true
    }

    /// Makes the last undone edit of `now` again; `false` when there is none.
    pub fn redo(&mut self, now: &mut T) -> bool {
        let Some(after) = self.redo.pop() else {
            return false;
        };
        self.undo.push(std::mem::replace(now, after));
        true
    }
}

/// A layout being edited, with its history and its live check.
#[derive(Debug, Clone)]
pub struct Draft<L: Layout> {
    layout: L,
    /// The last edit made, so that a run of changes to one field undoes as
    /// one ([`Layout::merges`]).
    last: Option<std::mem::Discriminant<L::Edit>>,
    history: History<L>,
    errors: Vec<Finding<L::At>>,
    warnings: Vec<Finding<L::At>>,
    /// A stroke is under way (a drag of a brush): its edits undo as one.
    stroke: bool,
    /// The layout as editing began, which a revert goes back to.
    entered: L,
    /// Where the layout was last saved (or read from), and what it held then.
    saved: Option<(PathBuf, L)>,
}

impl<L: Layout> Draft<L> {
    /// Starts editing a layout saved nowhere.
    pub fn new(layout: L) -> Draft<L> {
        Draft::opened(layout, None)
    }

    /// Starts editing a layout read from `file`, if it came from one.
    pub fn opened(layout: L, file: Option<PathBuf>) -> Draft<L> {
        let mut draft = Draft {
            last: None,
            history: History::default(),
            errors: Vec::new(),
            warnings: Vec::new(),
            stroke: false,
            entered: layout.clone(),
            saved: file.map(|f| (f, layout.clone())),
            layout,
        };
        draft.check();
        draft
    }

    /// Whether the layout differs from the one editing began with.
    pub fn edited(&self) -> bool {
        self.layout != self.entered
    }

    /// The file the layout is saved in, if the layout is exactly what it
    /// holds.
    pub fn saved_file(&self) -> Option<&Path> {
        self.saved
            .as_ref()
            .filter(|(_, l)| *l == self.layout)
            .map(|(p, _)| p.as_path())
    }

    /// The file the layout was last saved to or read from, whatever it
    /// holds now.
    pub fn last_file(&self) -> Option<&Path> {
        self.saved.as_ref().map(|(p, _)| p.as_path())
    }

    /// How many problems stop the layout, and the first one's line.
    pub fn problems(&self) -> Option<(usize, String)> {
        self.errors
            .first()
            .map(|first| (self.errors.len(), first.line()))
    }

    /// The layout as it stands.
    pub fn layout(&self) -> &L {
        &self.layout
    }

    /// Problems that stop the layout from being played or saved.
    pub fn errors(&self) -> &[Finding<L::At>] {
        &self.errors
    }

    /// Things worth knowing that do not stop play.
    pub fn warnings(&self) -> &[Finding<L::At>] {
        &self.warnings
    }

    /// Whether there is an edit to undo, and one to redo.
    pub fn history(&self) -> (usize, usize) {
        self.history.counts()
    }

    /// Whether a stroke is under way ([`Draft::apply_in_stroke`]).
    pub fn stroke_going(&self) -> bool {
        self.stroke
    }

    /// Runs the loader on the layout as it would be saved, so what the
    /// editor reports is exactly what loading the file would report.
    fn check(&mut self) {
        let findings = |problems: Vec<Problem>| -> Vec<Finding<L::At>> {
            problems
                .into_iter()
                .map(|problem| Finding {
                    at: self.layout.at(&problem),
                    problem,
                })
                .collect()
        };
        let (errors, warnings) = match L::load(&self.layout.text()) {
            Ok(warnings) => (Vec::new(), findings(warnings)),
            Err(problems) => (findings(problems), Vec::new()),
        };
        self.errors = errors;
        self.warnings = warnings;
    }

    /// Makes an edit. A refused edit changes nothing, and an edit that
    /// changes nothing is no step to undo.
    pub fn apply(&mut self, edit: &L::Edit) -> Result<(), L::Error> {
        self.stroke = false;
        let mut next = self.layout.clone();
        next.change(edit)?;
        if next == self.layout {
            return Ok(());
        }
        let before = std::mem::replace(&mut self.layout, next);
        let kind = std::mem::discriminant(edit);
        let merges = L::merges(edit) && self.last == Some(kind) && self.history.nothing_undone();
        self.history.record(before, merges);
        self.last = Some(kind);
        self.check();
        Ok(())
    }

    /// Makes one more edit of a stroke (a brush dragged across the table):
    /// the first begins it, and every edit of it undoes as one, until
    /// [`Draft::end_stroke`]. An edit that changes nothing is no step.
    pub fn apply_in_stroke(&mut self, edit: &L::Edit) -> Result<(), L::Error> {
        let going = self.stroke;
        let mut next = self.layout.clone();
        next.change(edit)?;
        if next == self.layout {
            return Ok(());
        }
        self.stroke = true;
        let before = std::mem::replace(&mut self.layout, next);
        self.history.record(before, going);
        self.last = Some(std::mem::discriminant(edit));
        self.check();
        Ok(())
    }

    /// The stroke is over.
    pub fn end_stroke(&mut self) {
        self.stroke = false;
    }

    /// Steps back one edit.
    pub fn undo(&mut self) -> Result<(), L::Error> {
        self.stroke = false;
        if !self.history.undo(&mut self.layout) {
            return Err(L::no_history("undo"));
        }
        self.last = None;
        self.check();
        Ok(())
    }

    /// Makes the last undone edit again.
    pub fn redo(&mut self) -> Result<(), L::Error> {
        self.stroke = false;
        if !self.history.redo(&mut self.layout) {
            return Err(L::no_history("redo"));
        }
        self.last = None;
        self.check();
        Ok(())
    }

    /// Back to the layout as editing began, as one edit that can be undone.
    pub fn revert(&mut self) {
        self.revert_to(self.entered.clone());
    }

    /// Replaces the whole layout, as one edit that can be undone.
    pub fn revert_to(&mut self, layout: L) {
        self.stroke = false;
        let before = std::mem::replace(&mut self.layout, layout);
        self.history.record(before, false);
        self.last = None;
        self.check();
    }

    /// Writes the layout as its file (`.ron`), crash-safely. A layout with
    /// problems is not written: it would not load. The file is written in
    /// Sandtable's own form, so comments of a file saved over are not
    /// kept: the file it replaces is kept as `NAME.bak` (older backups move
    /// to `NAME.bak.2` and on), unless it holds what this draft itself last
    /// wrote there (so the backups keep the person's own file). Returns the
    /// backup's path when one was made.
    pub fn save(&mut self, path: &Path) -> Result<Option<PathBuf>, String> {
        let ours = self
            .saved
            .as_ref()
            .filter(|(p, _)| p == path)
            .map(|(_, l)| l.text());
        let backup = save_layout(
            path,
            &self.layout.text(),
            self.errors.len(),
            self.errors.first().map(Finding::line),
            ours.as_deref(),
        )?;
        self.saved = Some((path.to_path_buf(), self.layout.clone()));
        Ok(backup)
    }
}

/// Writes a layout's file (`ron`, the layout in Sandtable's own form) by
/// the rules every layout is saved by: refused while it has `problems`
/// (the `first` named), only as a `.ron` file, crash-safely, the file it
/// replaces kept as `NAME.bak` unless it holds `ours`, the text Sandtable
/// itself last wrote there. Returns the backup's path when one was made.
pub fn save_layout(
    path: &Path,
    ron: &str,
    problems: usize,
    first: Option<String>,
    ours: Option<&str>,
) -> Result<Option<PathBuf>, String> {
    if let Some(first) = first.filter(|_| problems > 0) {
        return Err(format!(
            "{}: not saved, the layout has {problems} problem{} that would stop it loading; first: {first}",
            path.display(),
            if problems == 1 { "" } else { "s" },
        ));
    }
    if path.extension().is_none_or(|e| e != "ron") {
        return Err(format!(
            "{}: not saved: a layout is saved as a scenario, a file ending in .ron",
            path.display()
        ));
    }
    use sandtable_scenario::files;
    let on_disk = files::read_text(path, sandtable_scenario::MAX_FILE_BYTES).ok();
    let backups = match (on_disk, ours) {
        (Some(text), Some(ours)) if text == ours => files::Backups::None,
        _ => files::Backups::Keep,
    };
    files::write_atomically(path, ron.as_bytes(), backups)
        .map_err(|e| format!("{}: cannot save: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use sandtable_scenario::Location;

    /// A layout of the tests: a name and a row of counters, at most three
    /// on a square (a ruling of its own), one square a counter.
    #[derive(Debug, Clone, PartialEq)]
    struct Row {
        name: String,
        counters: Vec<u8>,
    }

    #[derive(Debug)]
    enum RowEdit {
        Rename(String),
        Put { at: usize, count: u8 },
    }

    #[derive(Debug, PartialEq)]
    enum Refused {
        Off(usize),
        Nothing(&'static str),
    }

    impl Layout for Row {
        type Edit = RowEdit;
        type Error = Refused;
        type At = usize;

        fn change(&mut self, edit: &RowEdit) -> Result<(), Refused> {
            match edit {
                RowEdit::Rename(name) => self.name = name.clone(),
                RowEdit::Put { at, count } => {
                    *self.counters.get_mut(*at).ok_or(Refused::Off(*at))? = *count;
                }
            }
            Ok(())
        }

        fn merges(edit: &RowEdit) -> bool {
            matches!(edit, RowEdit::Rename(_))
        }

        fn no_history(what: &'static str) -> Refused {
            Refused::Nothing(what)
        }

        fn text(&self) -> String {
            let counts: Vec<String> = self.counters.iter().map(u8::to_string).collect();
            format!("{}:{}", self.name, counts.join(","))
        }

        /// The loader: more than three on a square stops the file loading;
        /// an empty name is worth a warning.
        fn load(text: &str) -> Result<Vec<Problem>, Vec<Problem>> {
            let (name, counts) = text.split_once(':').expect("the tests' own text");
            let problem = |path: String, message: &str| Problem {
                location: Location::Field(path),
                message: message.to_owned(),
                ruling: None,
            };
            let errors: Vec<Problem> = counts
                .split(',')
                .enumerate()
                .filter(|(_, c)| c.parse::<u8>().expect("a count") > 3)
                .map(|(i, _)| problem(format!("counters[{i}]"), "more than three"))
                .collect();
            if !errors.is_empty() {
                return Err(errors);
            }
            Ok(if name.is_empty() {
                vec![problem("name".to_owned(), "no name")]
            } else {
                Vec::new()
            })
        }

        fn at(&self, problem: &Problem) -> Option<usize> {
            let Location::Field(path) = &problem.location else {
                return None;
            };
            path.strip_prefix("counters[")?
                .strip_suffix(']')?
                .parse()
                .ok()
        }
    }

    fn row() -> Draft<Row> {
        Draft::new(Row {
            name: "row".to_owned(),
            counters: vec![0; 4],
        })
    }

    #[test]
    fn the_check_is_the_loader_s_and_names_where_each_problem_lies() {
        let mut draft = row();
        assert!(draft.errors().is_empty() && draft.warnings().is_empty());
        draft
            .apply(&RowEdit::Put { at: 2, count: 5 })
            .expect("an edit the layout may break a ruling with");
        assert_eq!(draft.errors().len(), 1);
        assert_eq!(draft.errors()[0].at, Some(2));
        assert_eq!(draft.errors()[0].line(), "counters[2]: more than three");
        // A layout with problems is not saved: it would not load.
        let path = std::env::temp_dir().join("sandtable-draft-test-never-written.ron");
        let refused = draft.save(&path).expect_err("not saved");
        assert!(refused.contains("1 problem"), "{refused}");
        assert!(!path.exists());
        draft
            .apply(&RowEdit::Rename(String::new()))
            .expect("a name");
        draft
            .apply(&RowEdit::Put { at: 2, count: 1 })
            .expect("a count");
        assert!(draft.errors().is_empty());
        assert_eq!(draft.warnings().len(), 1, "an empty name is a warning");
    }

    #[test]
    fn runs_of_one_field_and_strokes_undo_as_one_and_nothing_changed_is_no_step() {
        let mut draft = row();
        for name in ["r", "ro", "rov"] {
            draft
                .apply(&RowEdit::Rename(name.to_owned()))
                .expect("a name");
        }
        assert_eq!(draft.history(), (1, 0), "a name typed is one edit");
        draft
            .apply(&RowEdit::Put { at: 0, count: 0 })
            .expect("a count");
        assert_eq!(draft.history(), (1, 0), "an edit that changes nothing");
        assert_eq!(
            draft.apply(&RowEdit::Put { at: 9, count: 1 }),
            Err(Refused::Off(9))
        );
        assert_eq!(draft.history(), (1, 0), "a refused edit changes nothing");
        for at in 0..3 {
            draft
                .apply_in_stroke(&RowEdit::Put { at, count: 2 })
                .expect("a count");
        }
        draft.end_stroke();
        assert_eq!(draft.history(), (2, 0), "a stroke is one edit");
        draft
            .apply(&RowEdit::Put { at: 3, count: 1 })
            .expect("a count");
        draft.undo().expect("the last count");
        draft.undo().expect("the stroke");
        assert_eq!(draft.layout().counters, vec![0; 4]);
        assert_eq!(draft.layout().name, "rov");
        draft.redo().expect("the stroke again");
        assert_eq!(draft.layout().counters, vec![2, 2, 2, 0]);
        // A name typed after an undo is a step of its own.
        draft
            .apply(&RowEdit::Rename("x".to_owned()))
            .expect("a name");
        assert_eq!(draft.history(), (3, 0));
        draft.undo().expect("the name");
        assert_eq!(draft.layout().name, "rov");
        draft.undo().expect("the stroke");
        draft.undo().expect("the names");
        assert_eq!(draft.layout().name, "row");
        assert_eq!(draft.undo(), Err(Refused::Nothing("undo")));
    }
}
