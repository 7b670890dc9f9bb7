//! Frontiers at the documented limits (`scenarios/tests/frontiers-*.ron`):
//! a turn played on the 200-polygon table, counted in commands rather than
//! timed (the benchmarks time it: `cargo bench -p sandtable-bots --bench
//! scale`), and the table's index checked against the brute force on it:
//! every polygon a line of sight between two units may meet is among those
//! it gives, and it gives few of the 200.

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, next_seat};
use sandtable_frontiers::Game;
use sandtable_frontiers::geometry::{Footprint, Shape, point_segment};
use sandtable_frontiers::index::{Grid, bounding_disc};

fn load(name: &str) -> sandtable_frontiers::Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../scenarios/tests")
        .join(name);
    let text = std::fs::read_to_string(&path).expect("the table");
    sandtable_scenario::skirmish::parse(&text, name)
        .unwrap_or_else(|e| panic!("{e}"))
        .setup
}

#[test]
fn a_turn_on_200_polygons_is_played_by_random_bots_to_its_end() {
    let setup = load("frontiers-200-polygons.ron");
    assert_eq!(setup.terrain.len(), 200);
    let mut game = Game::new(&setup, Dice::seeded(setup.seed)).expect("starts");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut events = Vec::new();
    let mut commands = 0;
    while let Some(seat) = next_seat(&game) {
        if game.turn_number() > 1 {
            break;
        }
        let c = game.random_command(seat, &mut rng).expect("a command");
        game.apply_into(seat, &c, &mut events).expect("legal");
        commands += 1;
        assert!(commands < 2_000, "a turn ends");
    }
    assert_eq!(game.turn_number(), 2, "the first turn ended");
    assert!(commands > 20, "{commands} commands");
}

#[test]
fn the_index_gives_every_polygon_a_line_may_meet_and_few_others() {
    for name in ["frontiers-200-polygons.ron", "frontiers-60-units.ron"] {
        let setup = load(name);
        let shapes: Vec<Shape> = setup
            .terrain
            .iter()
            .map(|t| Footprint::Polygon(t.corners.clone()).shape())
            .collect();
        let refs: Vec<&Shape> = shapes.iter().collect();
        let grid = Grid::new(setup.table, &refs);
        let (mut given, mut pairs) = (0usize, 0usize);
        for a in &setup.units {
            for b in &setup.units {
                if a.side == b.side {
                    continue;
                }
                // A line from one centre to the other, as the sight search
                // reaches round a 30 mm base.
                let (p, q) = (a.at.v(), b.at.v());
                let reach = 16.0;
                let mut near = Vec::new();
                grid.near_segment(p, q, reach, &mut near);
                Grid::finish(&mut near);
                for (k, s) in shapes.iter().enumerate() {
                    let (c, half) = bounding_disc(s);
                    if point_segment(c, p, q) <= half + reach {
                        assert!(near.contains(&(k as u32)), "{name}: polygon {k} left out");
                    }
                }
                given += near.len();
                pairs += 1;
            }
        }
        let mean = given as f64 / pairs as f64;
        eprintln!("{name}: {mean:.1} of {} polygons a line", shapes.len());
        assert!(
            mean < shapes.len() as f64 / 2.0,
            "{name}: {mean:.1} given a line"
        );
    }
}
