#!/usr/bin/env python3
"""Writes the two Frontiers tables that measure play at scale:

  scenarios/tests/frontiers-200-polygons.ron  200 terrain polygons of 64
                                              corners, 5 units a side
  scenarios/tests/frontiers-60-units.ron      20 such polygons, 60 units a side

Both are within the documented limits (docs/scenario-format.md). The files
are made by this script and committed; run it from the workspace's root to
make them again (the output is the same on every run).
"""

import math
import random

HEADER = """// {what}
// Made by scripts/frontiers-scale-tables.py: a table at the documented
// limits, for the scale test and the benchmarks (docs/frontiers.md).
"""

KINDS = ["Vegetation", "Hill", "LightStructure", "Crater"]


def blob(rng, cx, cy, r):
    """A simple polygon of 64 corners: a circle with a wobbling radius
    (star-shaped about its centre, so its sides never cross)."""
    phase = rng.uniform(0, math.tau)
    corners = []
    for k in range(64):
        a = math.tau * k / 64
        rr = r * (1 + 0.15 * math.sin(5 * a + phase))
        corners.append((round(cx + rr * math.cos(a)), round(cy + rr * math.sin(a))))
    return corners


def polygons(rng, n, cols, x0, x1, y0, y1, r):
    rows = (n + cols - 1) // cols
    out = []
    for k in range(n):
        c, w = k % cols, k // cols
        cx = x0 + (c + 0.5) * (x1 - x0) / cols + rng.uniform(-8, 8)
        cy = y0 + (w + 0.5) * (y1 - y0) / rows + rng.uniform(-8, 8)
        out.append((KINDS[k % len(KINDS)], blob(rng, cx, cy, r)))
    return out


def write(path, what, name, width, depth, terrain, units):
    lines = [HEADER.format(what=what), "(",
             f'    name: "{name}",',
             "    rules: Frontiers,",
             f"    table: (width_mm: {width}, depth_mm: {depth}),",
             "    turns: 6,",
             "    seed: 7,",
             "    sides: [",
             '        (name: "Legion", faction: Legion),',
             '        (name: "Zirl", faction: Zirl),',
             "    ],",
             "    terrain: ["]
    for kind, corners in terrain:
        pts = ", ".join(f"({x}, {y})" for x, y in corners)
        lines.append(f"        (kind: {kind}, corners: [{pts}]),")
    lines.append("    ],")
    lines.append("    units: [")
    for data, side, x, y in units:
        lines.append(f'        (data: "{data}", side: "{side}", at: ({x}, {y})),')
    lines.append("    ],")
    lines.append(")")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    rng = random.Random(2026)
    # 200 polygons in a 20 x 10 grid between the deployment strips.
    width, depth = 2400, 1200
    terrain = polygons(rng, 200, 20, 0, width, 120, depth - 120, 36)
    legion = ["lg_captain", "lg_trooper", "lg_trooper", "lg_sniper", "lg_gunner"]
    zirl = ["zr_processor", "zr_cluster", "zr_cluster", "zr_brute", "zr_stalker"]
    units = [(d, "Legion", 900 + 120 * k, 50) for k, d in enumerate(legion)]
    units += [(d, "Zirl", 900 + 120 * k, depth - 50) for k, d in enumerate(zirl)]
    write("scenarios/tests/frontiers-200-polygons.ron",
          "200 terrain polygons of 64 corners, 5 units a side.",
          "Two hundred polygons", width, depth, terrain, units)

    # 20 polygons, 60 units a side in three rows along each long edge.
    rng = random.Random(2027)
    width, depth = 2400, 1200
    terrain = polygons(rng, 20, 10, 0, width, 330, depth - 330, 40)
    legion = ["lg_captain", "lg_lieutenant", "lg_lieutenant", "lg_sniper", "lg_gunner",
              "lg_medic", "lg_engineer", "lg_mortar", "lg_commando", "lg_commando"]
    legion += ["lg_trooper"] * (60 - len(legion))
    zirl = ["zr_processor", "zr_memory", "zr_memory", "zr_memory", "zr_stalker",
            "zr_weaver", "zr_spitter", "zr_spitter", "zr_brute", "zr_brute"]
    zirl += ["zr_cluster"] * (60 - len(zirl))
    units = []
    for k, d in enumerate(legion):
        units.append((d, "Legion", 60 + 115 * (k % 20), 40 + 60 * (k // 20)))
    for k, d in enumerate(zirl):
        units.append((d, "Zirl", 60 + 115 * (k % 20), depth - 40 - 60 * (k // 20)))
    write("scenarios/tests/frontiers-60-units.ron",
          "20 terrain polygons of 64 corners, 60 units a side.",
          "Sixty a side", width, depth, terrain, units)


if __name__ == "__main__":
    main()
