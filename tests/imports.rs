//! The app's imports run one way (`src/lib.rs` draws the arrows): no
//! circle between the folders of `src/`, and the shared table's folders
//! name no rule system, neither its folder in `src/` nor its rules crate.
//! Read from the source text, without building anything.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The folders (and single files) of `src/` every rule system shares.
const SHARED: [&str; 8] = [
    "camera", "hud", "mode", "options", "picking", "schedule", "session", "table",
];

/// What a shared folder may not name: the rule systems' folders and their
/// rules crates.
const SYSTEMS: [&str; 6] = [
    "crate::cache",
    "crate::warpspawn",
    "crate::frontiers",
    "sandtable_cache",
    "sandtable_warpspawn",
    "sandtable_frontiers",
];

/// Every `.rs` file under `dir`.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("a readable folder") {
        let path = entry.expect("an entry").path();
        if path.is_dir() {
            out.extend(sources(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A file's code without its comments (a path named in a doc comment is
/// not an import).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules of `src/` that `code` names (`crate::x`), among
/// `modules`.
fn named(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        rest = &rest[at + "crate::".len()..];
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if modules.contains(&name) {
            out.insert(name);
        }
    }
    out
}

/// A circle of the graph, if it has one, as the modules along it.
fn circle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|m| m == at) {
            let mut found = path[start..].to_vec();
            found.push(at.to_owned());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_owned());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(found) = visit(next, edges, path, done) {
                return Some(found);
            }
        }
        path.pop();
        done.insert(at.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut Vec::new(), &mut done))
}

/// The app's folders and which others each imports, from `src/`.
fn graph(src: &Path) -> (BTreeMap<String, BTreeSet<String>>, Vec<(String, String)>) {
    let module_of = |path: &Path| -> Option<String> {
        let rel = path.strip_prefix(src).ok()?;
        let first = rel.components().next()?.as_os_str().to_str()?;
        let name = first.trim_end_matches(".rs").to_owned();
        (name != "lib" && name != "main").then_some(name)
    };
    let files = sources(src);
    let modules: BTreeSet<String> = files.iter().filter_map(|p| module_of(p)).collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut texts = Vec::new();
    for path in &files {
        let Some(module) = module_of(path) else {
            continue;
        };
        let text = code(&std::fs::read_to_string(path).expect("a readable file"));
        let to = edges.entry(module.clone()).or_default();
        to.extend(named(&text, &modules).into_iter().filter(|m| *m != module));
        texts.push((path.display().to_string(), text));
    }
    (edges, texts)
}

/// Where a shared folder names a rule system: file and name.
fn system_names(texts: &[(String, String)], src: &Path) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (path, text) in texts {
        let rel = Path::new(path)
            .strip_prefix(src)
            .map(|p| p.to_path_buf())
            .unwrap_or_default();
        let first = rel
            .components()
            .next()
            .and_then(|c| c.as_os_str().to_str())
            .unwrap_or_default()
            .trim_end_matches(".rs")
            .to_owned();
        if !SHARED.contains(&first.as_str()) {
            continue;
        }
        for system in SYSTEMS {
            if text.contains(system) {
                out.push((path.clone(), system));
            }
        }
    }
    out
}

/// Where a file of `src/` names something of the registration
/// (`src/lib.rs`): a `crate::` path that is not one of `modules`, the
/// folders and files of `src/`. File and name.
fn registration_names(
    texts: &[(String, String)],
    modules: &BTreeSet<String>,
) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, text) in texts {
        let mut rest = text.as_str();
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !modules.contains(&name) {
                out.push((path.clone(), name));
            }
        }
    }
    out
}

/// The folders and files of `src/` but the registration and the binary.
fn modules_of(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src)
        .expect("src/")
        .filter_map(|e| {
            let name = e
                .ok()?
                .file_name()
                .to_str()?
                .trim_end_matches(".rs")
                .to_owned();
            (name != "lib" && name != "main").then_some(name)
        })
        .collect()
}

#[test]
fn no_folder_imports_the_registration() {
    // `src/lib.rs` registers the rule systems: it imports every folder,
    // and no folder names anything of it but another folder (the sets of
    // a frame are `schedule`'s).
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (_, texts) = graph(&src);
    let modules = modules_of(&src);
    assert!(modules.contains("schedule") && modules.contains("session"));
    let found = registration_names(&texts, &modules);
    assert!(
        found.is_empty(),
        "a folder names the registration: {found:?}"
    );
    // The control: a name of the registration is found.
    let planted = [(
        "/x/src/cache/play.rs".to_owned(),
        code("use crate::AppSystems;"),
    )];
    assert_eq!(
        registration_names(&planted, &modules),
        [("/x/src/cache/play.rs".to_owned(), "AppSystems".to_owned())]
    );
}

#[test]
fn no_circle_between_the_folders_of_src() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (edges, _) = graph(&src);
    assert!(edges.len() >= 8, "the app's folders: {edges:?}");
    if let Some(found) = circle(&edges) {
        panic!("an import circle in src/: {}", found.join(" -> "));
    }
}

#[test]
fn the_shared_table_names_no_rule_system() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (_, texts) = graph(&src);
    let shared = texts
        .iter()
        .filter(|(p, _)| SHARED.iter().any(|s| p.contains(&format!("src/{s}"))))
        .count();
    assert!(shared >= SHARED.len(), "every shared folder was read");
    let found = system_names(&texts, &src);
    assert!(
        found.is_empty(),
        "the shared table names a rule system: {found:?}"
    );
}

#[test]
fn the_checks_find_a_circle_and_a_rule_system_where_there_is_one() {
    // The control: a circle of three and a shared file naming a rules
    // crate are found, so the checks above can fail.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges.insert("a".into(), ["b".into()].into());
    edges.insert("b".into(), ["c".into()].into());
    edges.insert("c".into(), BTreeSet::new());
    assert_eq!(circle(&edges), None);
    edges.insert("c".into(), ["a".into()].into());
    assert_eq!(
        circle(&edges).expect("a circle"),
        ["a", "b", "c", "a"].map(String::from).to_vec()
    );
    let src = Path::new("/x/src");
    let texts = [
        (
            "/x/src/table/mod.rs".to_owned(),
            code("// sandtable_cache in a comment\nuse sandtable_warpspawn::Hex;"),
        ),
        (
            "/x/src/cache/mod.rs".to_owned(),
            "use sandtable_cache::Game;".to_owned(),
        ),
    ];
    assert_eq!(
        system_names(&texts, src),
        vec![("/x/src/table/mod.rs".to_owned(), "sandtable_warpspawn")]
    );
    let modules: BTreeSet<String> = ["table".to_owned(), "cache".to_owned()].into();
    assert_eq!(
        named(&code("use crate::cache::x; // crate::table"), &modules),
        ["cache".to_owned()].into()
    );
}
