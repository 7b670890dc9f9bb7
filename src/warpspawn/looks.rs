//! How the battle reads at a glance: each terrain's colour, height and
//! pattern (a pattern as well as a colour, so that terrain reads in black
//! and white on the printed sheet and for people who cannot tell the
//! colours apart), and where the figures of a body of men and its pieces
//! stand inside a hex.

use bevy::prelude::*;
use sandtable_warpspawn::{Men, Terrain};

use super::HEX;

/// A pattern drawn over a hex's colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// Nothing: open ground.
    Plain,
    /// A band across the hex: roads and bridges.
    Band,
    /// Dots: trees.
    Dots,
    /// Blocks: buildings.
    Blocks,
    /// A hedge line: bocage.
    Hedge,
    /// A wall line: low walls.
    Wall,
    /// Cross-hatching: forts.
    Crosshatch,
    /// A ditch line: trenches.
    Ditch,
    /// Waves: water and rivers.
    Waves,
    /// Peaks: mountains.
    Peaks,
}

/// The look of a terrain: colour (sRGB), how high its model stands above
/// the table (world units), and its pattern.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TerrainLook {
    /// The hex's colour.
    pub colour: [u8; 3],
    /// The height of what stands on it: 0 for flat ground.
    pub height: f32,
    /// The pattern over the colour.
    pub pattern: Pattern,
}

/// The look of each terrain of the seed (R60). Clear ground is flat and
/// light; covered ground stands a little; fortified ground is earthwork
/// brown and cross-hatched or ditched; impassable ground is blue water or
/// grey rock.
pub fn terrain_look(terrain: Terrain) -> TerrainLook {
    let (colour, height, pattern) = match terrain {
        Terrain::Fields => ([0x9A, 0xBF, 0x62], 0.0, Pattern::Plain),
        Terrain::Road => ([0xD8, 0xC3, 0x95], 0.0, Pattern::Band),
        Terrain::Bridge => ([0x9C, 0x6B, 0x3F], 0.06, Pattern::Band),
        Terrain::Trees => ([0x3F, 0x7D, 0x3A], 0.45, Pattern::Dots),
        Terrain::Buildings => ([0xB0, 0x9A, 0x86], 0.35, Pattern::Blocks),
        Terrain::Bocage => ([0x6E, 0x8F, 0x3C], 0.2, Pattern::Hedge),
        Terrain::LowWall => ([0xA8, 0xA3, 0x98], 0.12, Pattern::Wall),
        Terrain::Fort => ([0x8A, 0x6E, 0x4B], 0.25, Pattern::Crosshatch),
        Terrain::Trench => ([0x6B, 0x55, 0x3A], 0.04, Pattern::Ditch),
        Terrain::Water => ([0x4F, 0x8F, 0xC6], 0.0, Pattern::Waves),
        Terrain::River => ([0x3C, 0x78, 0xB4], 0.0, Pattern::Waves),
        Terrain::Mountain => ([0x8C, 0x8C, 0x8C], 0.6, Pattern::Peaks),
    };
    TerrainLook {
        colour,
        height,
        pattern,
    }
}

/// Where the figures of a body of men stand in their hex, relative to its
/// centre: one figure a man (a hex holds at most 20, R62), foot in ranks of
/// five nearest the side's own edge, mounted in ranks of four behind them,
/// the whole block centred on the hex. Each entry says whether the figure
/// is mounted.
pub fn figure_places(men: Men) -> Vec<(Vec3, bool)> {
    // Foot stand 0.1 of a hex apart; mounted, with their horses, 0.13.
    const FOOT: (u16, f32) = (5, 0.1);
    const HORSE: (u16, f32) = (4, 0.13);
    let foot_ranks = men.inf.div_ceil(FOOT.0);
    let horse_ranks = men.cav.div_ceil(HORSE.0);
    let depth = |ranks: u16, spacing: f32| f32::from(ranks) * spacing;
    let total = depth(foot_ranks, FOOT.1) + depth(horse_ranks, HORSE.1);
    let mut places = Vec::with_capacity(usize::from(men.inf + men.cav));
    // Ranks run from the near side (+Z) to the far side, half a rank in.
    let mut front = total / 2.0;
    for (count, (per_rank, spacing), mounted) in [(men.inf, FOOT, false), (men.cav, HORSE, true)] {
        let ranks = count.div_ceil(per_rank);
        for i in 0..count {
            let rank = i / per_rank;
            let in_rank = (count - rank * per_rank).min(per_rank);
            let file = i % per_rank;
            let x = (f32::from(file) - (f32::from(in_rank) - 1.0) / 2.0) * spacing;
            let z = front - (f32::from(rank) + 0.5) * spacing;
            places.push((Vec3::new(x * HEX, 0.0, z * HEX), mounted));
        }
        front -= depth(ranks, spacing);
    }
    places
}

/// The pieces a hex may hold beside its men, each in a place of its own
/// near the hex's rim, so that none hides another or the men.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// The cannon.
    Cannon,
    /// The officers.
    Officer,
    /// The baggage wagon.
    Baggage,
    /// The flag.
    Flag,
    /// The chit of routing men.
    Routers,
    /// The chit of prisoners held here.
    Prisoners,
    /// The chit of unarmed men.
    Unarmed,
}

impl Slot {
    /// Every slot.
    pub const ALL: [Slot; 7] = [
        Slot::Cannon,
        Slot::Officer,
        Slot::Baggage,
        Slot::Flag,
        Slot::Routers,
        Slot::Prisoners,
        Slot::Unarmed,
    ];

    /// The slot's place relative to the hex's centre: on a ring 0.4 of a
    /// hex out (beside the block of men, which keeps within 0.4), one slot
    /// every 360/7 degrees from the right.
    pub fn place(self) -> Vec3 {
        let i = Slot::ALL.iter().position(|s| *s == self).unwrap_or(0);
        let angle = std::f32::consts::TAU * i as f32 / Slot::ALL.len() as f32;
        Vec3::new(0.4 * angle.cos(), 0.0, -0.4 * angle.sin()) * HEX
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn every_terrain_reads_apart_by_colour_and_each_cover_by_pattern() {
        let looks: Vec<TerrainLook> = Terrain::ALL.iter().map(|t| terrain_look(*t)).collect();
        let colours: BTreeSet<[u8; 3]> = looks.iter().map(|l| l.colour).collect();
        assert_eq!(colours.len(), Terrain::ALL.len(), "twelve colours");
        // In black and white a pattern tells the cover (R60): no pattern of
        // one cover is used for another.
        let mut by_pattern = std::collections::BTreeMap::new();
        for t in Terrain::ALL {
            let key = format!("{:?}", terrain_look(t).pattern);
            let cover = format!("{:?}", t.cover());
            let seen = by_pattern
                .entry(key.clone())
                .or_insert_with(|| cover.clone());
            assert_eq!(*seen, cover, "{key} is used for {seen} and {cover} ({t:?})");
        }
        // Only clear ground is plain.
        for t in Terrain::ALL {
            assert_eq!(
                terrain_look(t).pattern == Pattern::Plain,
                t == Terrain::Fields,
                "{t:?}"
            );
        }
    }

    #[test]
    fn one_figure_a_man_all_inside_the_hex_and_none_on_another() {
        // The block keeps within 0.4 of a hex from the centre: inside the
        // flat sides (0.5), with the base of a figure to spare.
        let inner = 0.4 * HEX;
        for inf in 0..=20u16 {
            for cav in 0..=(20 - inf) {
                let places = figure_places(Men { inf, cav });
                assert_eq!(places.len(), usize::from(inf + cav));
                assert_eq!(
                    places.iter().filter(|(_, m)| *m).count(),
                    usize::from(cav),
                    "mounted figures for the cavalry"
                );
                for (i, (a, _)) in places.iter().enumerate() {
                    assert!(a.length() < inner, "{inf} foot {cav} horse: {a}");
                    for (b, _) in &places[i + 1..] {
                        assert!(
                            a.distance(*b) > 0.09,
                            "{inf} foot {cav} horse: figures apart"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_pieces_have_places_of_their_own_inside_the_hex() {
        let places: Vec<Vec3> = Slot::ALL.iter().map(|s| s.place()).collect();
        for (i, a) in places.iter().enumerate() {
            assert!(a.length() < HEX / 2.0 - 0.05, "inside the flat sides");
            for b in &places[i + 1..] {
                assert!(a.distance(*b) > 0.25, "apart");
            }
        }
    }
}
