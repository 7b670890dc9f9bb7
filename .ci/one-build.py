#!/usr/bin/env python3
"""Checks that `cargo run` and `cargo test --workspace` share one build.

Reads the JSON messages (`--message-format=json-render-diagnostics`) of
`cargo build` and then of `cargo test --workspace --no-run`, and fails when
the test build holds a dependency unit (a third-party crate's library,
proc-macro or build script, or a build script's run) that the build did not
make: a crate built a second time because its features or its dependencies
came out differently, or a crate that only the tests or another member use.
A unit is known by the files it writes, whose names carry cargo's hash of
its features, profile and dependencies, so the check holds whether the
units were compiled now or found fresh in a kept target folder.

    one-build.py BUILD.json TEST.json        check, and say what each built
    one-build.py --app TEST.json             print the path of the app binary

Standard library only.
"""
import json
import sys


def messages(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line.startswith("{"):
                yield json.loads(line)


def units(path):
    """Every unit of a build: (is a workspace member's, identity, label, compiled now)."""
    found = []
    for m in messages(path):
        reason = m.get("reason")
        if reason == "compiler-artifact":
            identity = ("artifact", tuple(sorted(m["filenames"])))
            label = f'{m["package_id"].split("#")[-1]} {m["target"]["name"]} ({"+".join(m["target"]["kind"])})'
            fresh = m["fresh"]
        elif reason == "build-script-executed":
            identity = ("run", m["out_dir"])
            label = f'{m["package_id"].split("#")[-1]} build script run'
            fresh = None
        else:
            continue
        found.append((m["package_id"].startswith("path+"), identity, label, fresh))
    return found


def app(path):
    for m in messages(path):
        if (m.get("reason") == "compiler-artifact" and m["target"]["name"] == "sandtable"
                and "bin" in m["target"]["kind"] and not m["profile"]["test"]):
            return m["executable"]
    sys.exit("the sandtable binary was not found in the test build")


def check(build_path, test_path):
    build, test = units(build_path), units(test_path)
    made = {identity for _, identity, _, _ in build}
    for name, us in (("cargo build", build), ("cargo test --workspace --no-run", test)):
        deps = [u for u in us if not u[0]]
        compiled = sum(1 for u in us if u[3] is False)
        print(f"{name}: {len(us)} units ({len(deps)} of dependencies), {compiled} compiled now")
    again = [label for member, identity, label, _ in test if not member and identity not in made]
    if again:
        print(f"the test build holds {len(again)} dependency units that cargo build did not make:")
        for label in sorted(again):
            print(f"  {label}")
        print("name the crate that brings them in crates/workspace-hack/Cargo.toml, "
              "with the features its member asks for")
        sys.exit(1)
    print("the test build adds no dependency unit to the build: one build serves both")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--app":
        print(app(sys.argv[2]))
    elif len(sys.argv) == 3:
        check(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
