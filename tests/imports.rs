//! The app's imports run one way (`src/lib.rs` draws the arrows): no
//! circle between the folders of `src/`, the shared table's folders name
//! no rule system, neither its folder in `src/` nor its rules crate, and
//! no folder names the registration. In the rules crates, no two files
//! import each other round a circle (following `use` paths through
//! re-exports and globs, which can hide one; a file's test modules apart).
//! No system's folder names another system, neither its folder nor its
//! rules crate, and no file's code before its tests is over 1,500 lines,
//! in any crate. Read from the source text, without building anything.

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

/// The first name of every `crate::` path in `code` (`x` of `crate::x::y`).
fn crate_names(code: &str) -> Vec<String> {
    code.split("crate::")
        .skip(1)
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// The top-level modules of `src/` that `code` names (`crate::x`), among
/// `modules`.
fn named(code: &str, modules: &BTreeSet<String>) -> BTreeSet<String> {
    crate_names(code)
        .into_iter()
        .filter(|name| modules.contains(name))
        .collect()
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
/// A file's path under `src` and the folder (or single file) of `src/`
/// holding it.
fn folder_of(path: &str, src: &Path) -> (PathBuf, String) {
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
    (rel, first)
}

fn system_names(texts: &[(String, String)], src: &Path) -> Vec<(String, &'static str)> {
    let mut out = Vec::new();
    for (path, text) in texts {
        let (_, first) = folder_of(path, src);
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
    texts
        .iter()
        .flat_map(|(path, text)| {
            crate_names(text)
                .into_iter()
                .filter(|name| !modules.contains(name))
                .map(move |name| (path.clone(), name))
        })
        .collect()
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

/// The rule systems' folders of `src/`.
const SYSTEM_FOLDERS: [&str; 3] = ["cache", "warpspawn", "frontiers"];

/// What each system's folder names of another system: its folder
/// (`crate::cache`) or its rules crate (`sandtable_cache`), file by file.
fn other_systems_named(texts: &[(String, String)], src: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, text) in texts {
        let (rel, first) = folder_of(path, src);
        if !SYSTEM_FOLDERS.contains(&first.as_str()) {
            continue;
        }
        for other in SYSTEM_FOLDERS.iter().filter(|o| **o != first) {
            for name in [format!("crate::{other}"), format!("sandtable_{other}")] {
                if text.contains(&name) {
                    out.push((rel.display().to_string(), name));
                }
            }
        }
    }
    out
}

#[test]
fn no_system_s_folder_imports_another_system_s_folder_or_rules_crate() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (edges, texts) = graph(&src);
    for from in SYSTEM_FOLDERS {
        for to in SYSTEM_FOLDERS {
            assert!(
                from == to || !edges.get(from).is_some_and(|e| e.contains(to)),
                "src/{from} imports src/{to}: what every system's table uses belongs to the shared table"
            );
        }
    }
    let found = other_systems_named(&texts, &src);
    assert!(
        found.is_empty(),
        "a system's folder names another system: {found:?}"
    );
    // The control: a Frontiers file naming Cache's rules crate or folder
    // is found; one naming its own crate is not.
    let planted = vec![
        (
            src.join("frontiers/dress.rs").display().to_string(),
            "use sandtable_frontiers::Game; use crate::table::x;".to_owned(),
        ),
        (
            src.join("frontiers/dress.rs").display().to_string(),
            "let o = Owner(sandtable_cache::PlayerId(0)); use crate::cache::models::Figure;"
                .to_owned(),
        ),
    ];
    assert_eq!(
        other_systems_named(&planted, &src),
        vec![
            ("frontiers/dress.rs".to_owned(), "crate::cache".to_owned()),
            (
                "frontiers/dress.rs".to_owned(),
                "sandtable_cache".to_owned()
            ),
        ]
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

/// A rules crate's files as modules: each file's module path (`game`,
/// `offboard::play`; the root is empty) and its code without comments.
fn crate_modules(src: &Path) -> BTreeMap<String, String> {
    sources(src)
        .into_iter()
        .filter_map(|path| {
            let rel = path.strip_prefix(src).ok()?.with_extension("");
            let mut parts: Vec<String> = rel
                .components()
                .filter_map(|c| c.as_os_str().to_str().map(str::to_owned))
                .collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            // Test modules in files of their own are the file's tests.
            let text = code(&std::fs::read_to_string(&path).ok()?);
            Some((parts.join("::"), text))
        })
        .collect()
}

/// A file's code without its test modules (each `#[cfg(test)]` item, to
/// its closing brace): its tests may import what they like.
fn before_tests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let Some(open) = after.find('{') else {
            return out;
        };
        let mut depth = 0;
        let mut end = after.len();
        for (i, c) in after[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Every path a file's code names, from the start of a path: each `use`
/// tree expanded (`a::{b, c::d}` gives `a::b` and `a::c::d`, a glob
/// `a::*`), and every `crate::`, `super::` and `self::` path in its code.
fn paths_named(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let code = before_tests(text);
    let code = code.as_str();
    // `use` trees, to their `;`.
    let mut rest = code;
    while let Some(at) = rest.find("use ") {
        let before = rest[..at].chars().last();
        rest = &rest[at + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let Some(end) = rest.find(';') else { break };
        let tree = use_tree(&rest[..end]);
        expand(&tree, "", &mut out);
        rest = &rest[end..];
    }
    // Paths in the code itself.
    for start in ["crate::", "super::", "self::"] {
        let mut rest = code;
        while let Some(at) = rest.find(start) {
            let before = rest[..at].chars().last();
            let path: String = rest[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            rest = &rest[at + start.len()..];
            // A path's middle, or a `use` tree's head (expanded above).
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                || path.len() == start.len()
            {
                continue;
            }
            out.push(path.trim_end_matches(':').to_owned());
        }
    }
    out
}

/// A `use` tree's text made plain for [`expand`]: each ` as ` (a
/// rename) marked by `@`, then every whitespace gone.
fn use_tree(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace(" as ", "@")
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// A `use` tree made plain ([`use_tree`]), expanded under `prefix`.
fn expand(tree: &str, prefix: &str, out: &mut Vec<String>) {
    let join = |p: &str, s: &str| {
        if p.is_empty() {
            s.to_owned()
        } else {
            format!("{p}::{s}")
        }
    };
    match tree.find('{') {
        None => {
            // `a::b as c` names `a::b` ([`use_tree`] marks ` as ` by `@`).
            let path = tree.split('@').next().unwrap_or(tree);
            out.push(join(prefix, path.trim_end_matches("::")));
        }
        Some(open) => {
            let head = tree[..open].trim_end_matches("::");
            let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
            let mut depth = 0;
            let mut from = 0;
            let base = join(prefix, head);
            for (i, c) in inner.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        let part = &inner[from..i];
                        if !part.is_empty() {
                            expand(part, &base, out);
                        }
                        from = i + 1;
                    }
                    _ => {}
                }
            }
            let part = &inner[from..];
            if !part.is_empty() {
                expand(part, &base, out);
            }
        }
    }
}

/// The module a path names from module `at`, among `modules`, followed
/// through re-exports (`pub use`) to where an item is defined, and for a
/// glob, to every module the glob reaches. `seen` stops a re-export that
/// names itself.
fn resolve(
    path: &str,
    at: &str,
    modules: &BTreeMap<String, String>,
    seen: &mut BTreeSet<String>,
) -> BTreeSet<String> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    // Where the path starts.
    let mut here: Vec<String> = match segments.first().copied() {
        Some("crate") => {
            segments.remove(0);
            Vec::new()
        }
        Some("self") => {
            segments.remove(0);
            at.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        }
        Some("super") => {
            let mut here: Vec<String> = at
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            while segments.first() == Some(&"super") {
                segments.remove(0);
                here.pop();
            }
            here
        }
        Some(first) => {
            // A child module of this one, else not of this crate.
            let child = join_path(at, first);
            if !modules.contains_key(&child) {
                return BTreeSet::new();
            }
            at.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect()
        }
        None => return BTreeSet::new(),
    };
    // Down the modules as far as the path goes.
    let mut rest = segments.into_iter().peekable();
    while let Some(next) = rest.peek() {
        let deeper = join_path(&here.join("::"), next);
        if modules.contains_key(&deeper) {
            here.push((*next).to_owned());
            rest.next();
        } else {
            break;
        }
    }
    let module = here.join("::");
    let mut out = BTreeSet::from([module.clone()]);
    // A path to a module itself names that module alone.
    let Some(item) = rest.next() else {
        return out;
    };
    // An item re-exported by the module: the module it comes from; a
    // glob: every module the module's own re-exports reach.
    let key = format!("{module}::{item}");
    if !seen.insert(key) {
        return out;
    }
    let Some(text) = modules.get(&module) else {
        return out;
    };
    let mut exported = Vec::new();
    let code = before_tests(text);
    let mut scan = code.as_str();
    while let Some(at) = scan.find("pub use ") {
        scan = &scan[at + "pub use ".len()..];
        let Some(end) = scan.find(';') else { break };
        let tree = use_tree(&scan[..end]);
        expand(&tree, "", &mut exported);
        scan = &scan[end..];
    }
    for path in exported {
        let last = path.rsplit("::").next().unwrap_or_default();
        if item == "*" || item == last || last == "*" {
            out.extend(resolve(&path, &module, modules, seen));
        }
    }
    out
}

fn join_path(at: &str, name: &str) -> String {
    if at.is_empty() {
        name.to_owned()
    } else {
        format!("{at}::{name}")
    }
}

/// Each import of the rules crate at `src` that names another of its
/// files: the importing file, the file imported and the path naming it,
/// followed through re-exports and globs. A file's own tests and the
/// modules holding it (their `mod` lines declare it) are not imports.
fn crate_imports(src: &Path) -> Vec<(String, String, String)> {
    let modules = crate_modules(src);
    let mut out = Vec::new();
    for (module, text) in &modules {
        for path in paths_named(text) {
            for to in resolve(&path, module, &modules, &mut BTreeSet::new()) {
                let holds = module.starts_with(to.as_str())
                    && (to.is_empty() || module[to.len()..].starts_with("::"));
                if &to != module && !holds {
                    out.push((module.clone(), to, path.clone()));
                }
            }
        }
    }
    out
}

/// Which files of the rules crate at `src` each file imports.
fn crate_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = crate_modules(src)
        .into_keys()
        .map(|m| (m, BTreeSet::new()))
        .collect();
    for (from, to, _) in crate_imports(src) {
        edges.entry(from).or_default().insert(to);
    }
    edges
}

/// The graph's loops: each set of two or more files that import each
/// other round a circle (its strongly connected components), sorted.
fn loops(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Which files each reaches.
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for n in edges.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    todo.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        edges.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for m in edges.keys() {
        let component: Vec<String> = edges
            .keys()
            .filter(|n| *n == m || (reaches[m].contains(*n) && reaches[n].contains(m)))
            .cloned()
            .collect();
        if component.len() > 1 && !out.contains(&component) {
            out.push(component);
        }
    }
    out.sort();
    out
}

/// For each loop, the paths by which one of its files names another:
/// what a failure shows, so that the import to move is plain.
fn loop_imports(src: &Path, found: &[Vec<String>]) -> Vec<String> {
    let mut out: Vec<String> = crate_imports(src)
        .into_iter()
        .filter(|(from, to, _)| found.iter().any(|c| c.contains(from) && c.contains(to)))
        .map(|(from, to, path)| format!("{from} -> {to}: {path}"))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The rules crates, each put in layers: plain data and its checks at the
/// bottom, the state and its queries above, the rules that change it above
/// that, the contract on top.
const RULES_CRATES: [&str; 4] = ["core", "cache", "warpspawn", "frontiers"];

#[test]
fn no_two_files_of_a_rules_crate_import_each_other_round_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates");
    for krate in RULES_CRATES {
        let src = root.join(krate).join("src");
        let found = loops(&crate_graph(&src));
        assert!(
            found.is_empty(),
            "crates/{krate}: files import each other round a circle: {found:?}; the imports inside each:\n{}",
            loop_imports(&src, &found).join("\n")
        );
    }
}

#[test]
fn the_crate_check_follows_re_exports_and_globs_to_a_circle() {
    // The control: `b` imports `a` only through the root's re-export,
    // and `c` through a glob of `b`'s; both loops are found.
    let mut modules = BTreeMap::new();
    modules.insert(
        String::new(),
        "mod a; mod b; mod c; pub use a::Thing;".to_owned(),
    );
    modules.insert(
        "a".to_owned(),
        "use crate::b::Other; pub struct Thing;".to_owned(),
    );
    modules.insert(
        "b".to_owned(),
        "use crate::Thing; pub struct Other;".to_owned(),
    );
    modules.insert("c".to_owned(), "use super::b::*; pub struct C;".to_owned());
    // A rename names what it renames; a name holding `as` is itself.
    let mut renamed = Vec::new();
    expand(&use_tree("crate::{b::Other as O, Base}"), "", &mut renamed);
    assert_eq!(renamed, ["crate::b::Other", "crate::Base"]);
    // A test module's imports are not the file's; its code after them is.
    modules.insert(
        "d".to_owned(),
        "#[cfg(test)]\nmod tests { use crate::a::Thing; fn f() { let _ = format!(\"{}\", 1); } }\npub fn g(_: crate::c::C) {}".to_owned(),
    );
    let mut edges = BTreeMap::new();
    for (module, text) in &modules {
        let mut to = BTreeSet::new();
        for path in paths_named(text) {
            to.extend(resolve(&path, module, &modules, &mut BTreeSet::new()));
        }
        to.remove(module);
        to.remove("");
        edges.insert(module.clone(), to);
    }
    assert_eq!(
        edges["b"],
        BTreeSet::from(["a".to_owned()]),
        "through the re-export"
    );
    assert_eq!(
        edges["c"],
        BTreeSet::from(["b".to_owned()]),
        "through the glob"
    );
    assert_eq!(
        edges["d"],
        BTreeSet::from(["c".to_owned()]),
        "its tests apart"
    );
    assert_eq!(loops(&edges), vec![vec!["a".to_owned(), "b".to_owned()]]);
    // Without the loop, nothing is found.
    modules.insert("a".to_owned(), "pub struct Thing;".to_owned());
    edges.insert("a".to_owned(), BTreeSet::new());
    assert!(loops(&edges).is_empty());
}

/// The files of the Warpspawn crate that join the battle to the
/// off-board grid round it: the root (its re-exports), the contract, the
/// summary, the text board and the sample battles. Every other file
/// outside `offboard` is the battle's, which asks for the grid through
/// `off_map` and `off_map_rules` and names none of its files.
const WARPSPAWN_TOP: [&str; 5] = ["", "contract", "summary", "text", "samples"];

/// Whether a module of the Warpspawn crate is the grid's.
fn in_grid(module: &str) -> bool {
    module == "offboard" || module.starts_with("offboard::")
}

/// The imports, of those given, by which a battle's file names a file of
/// the grid.
fn battle_imports_of_grid(imports: &[(String, String, String)]) -> Vec<String> {
    let mut out: Vec<String> = imports
        .iter()
        .filter(|(from, to, _)| {
            !in_grid(from) && !WARPSPAWN_TOP.contains(&from.as_str()) && in_grid(to)
        })
        .map(|(from, to, path)| format!("{from} -> {to}: {path}"))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_battle_s_files_do_not_import_the_off_board_grid_s() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/warpspawn/src");
    let imports = crate_imports(&src);
    // The grid plugs in: its plug names the battle's files.
    assert!(
        imports
            .iter()
            .any(|(from, to, _)| from == "offboard::plug" && to == "off_map_rules"),
        "the grid's plug implements the battle's hooks"
    );
    let found = battle_imports_of_grid(&imports);
    assert!(
        found.is_empty(),
        "crates/warpspawn: the battle's files import the grid's; move what they need into the battle's hooks (off_map, off_map_rules):\n{}",
        found.join("\n")
    );
    // The control: a battle's file naming the grid is found; the top's and
    // the grid's own imports are not.
    let import =
        |from: &str, to: &str, path: &str| (from.to_owned(), to.to_owned(), path.to_owned());
    let control = [
        import("check", "offboard::plug", "crate::offboard::plug::Game"),
        import("contract", "offboard::plug", "crate::offboard::plug::Game"),
        import("offboard::play", "game", "crate::game::Stack"),
        import("offboard::play", "offboard::plug", "super::plug::Game"),
    ];
    assert_eq!(
        battle_imports_of_grid(&control),
        ["check -> offboard::plug: crate::offboard::plug::Game"]
    );
}

/// The most lines a file's code before its tests may hold.
const MOST_LINES: usize = 1_500;

/// How many lines a file's code holds before its first `#[cfg(test)]`.
fn lines_before_tests(text: &str) -> usize {
    text.lines()
        .take_while(|l| !l.contains("#[cfg(test)]"))
        .count()
}

#[test]
fn no_file_s_code_before_its_tests_is_longer_than_1500_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = sources(&root.join("src"));
    for entry in std::fs::read_dir(root.join("crates")).expect("crates/") {
        let src = entry.expect("an entry").path().join("src");
        if src.is_dir() {
            files.extend(sources(&src));
        }
    }
    assert!(files.len() > 100, "every crate's files were read");
    let mut long: Vec<String> = files
        .iter()
        .filter(|p| lines_before_tests(&std::fs::read_to_string(p).expect("readable")) > MOST_LINES)
        .map(|p| {
            p.strip_prefix(root)
                .expect("under the root")
                .display()
                .to_string()
        })
        .collect();
    long.sort();
    assert!(
        long.is_empty(),
        "files whose code before their tests is over {MOST_LINES} lines: {long:?}; split each by what it decides"
    );
    // The control: a file of 1,501 lines before its tests is long.
    let text = "fn f() {}\n".repeat(MOST_LINES + 1) + "#[cfg(test)]\nmod tests {}\n";
    assert_eq!(lines_before_tests(&text), MOST_LINES + 1);
}
