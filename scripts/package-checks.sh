# What scripts/check-package and scripts/check-package-fresh share; they
# source it after setting `repo` to the source tree.

step() { echo "== $*"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# Writes a saved game in progress of the installed standard table at $1:
# the first seven commands of tests/data/ended.moves (Red's first two
# activations begun), with its pins.
sample_game() {
    {
        echo '[Scenario "/usr/share/sandtable/scenarios/standard.ron"]'
        grep '^\[' "$repo/tests/data/ended.moves" | grep -v '^\[Scenario '
        grep -v '^\[' "$repo/tests/data/ended.moves" | head -7
    } > "$1"
}
