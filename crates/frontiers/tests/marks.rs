//! The marks a table draws come from the rules: a shot's line carries the
//! modifiers the shot is rolled with, a refused line says where it is
//! blocked, a move its path, a template where it falls.

use sandtable_core::dice::Dice;
use sandtable_core::game::{DiscKind, GameState, Mark, Seat, Spot, Viewer};
use sandtable_frontiers::data::Faction;
use sandtable_frontiers::event::Event;
use sandtable_frontiers::geometry::Pt;
use sandtable_frontiers::setup::{SideSetup, Terrain, TerrainKind, UnitSetup};
use sandtable_frontiers::{Command, Game, Setup};

fn game(units: &[(&str, &str, u8, i32, i32)], terrain: Vec<Terrain>) -> Game {
    let setup = Setup {
        sides: vec![SideSetup::of(Faction::Legion), SideSetup::of(Faction::Zirl)],
        terrain,
        units: units
            .iter()
            .map(|(id, data, side, x, y)| UnitSetup {
                id: (*id).into(),
                data: (*data).into(),
                side: *side,
                at: Pt::new(*x, *y),
                facing: 0,
                back: false,
                deploy: false,
                gear: None,
            })
            .collect(),
        ..Setup::default()
    };
    Game::new(&setup, Dice::scripted(vec![6, 6, 6])).expect("valid")
}

fn at(x: i16, y: i16) -> Spot {
    Spot::Point { x_mm: x, y_mm: y }
}

fn cmd(text: &str) -> Command {
    text.parse().expect("notation")
}

#[test]
fn r122_a_shot_s_line_carries_the_modifiers_it_is_rolled_with() {
    let wall = Terrain {
        kind: TerrainKind::LightStructure,
        corners: vec![
            Pt::new(60, 200),
            Pt::new(140, 200),
            Pt::new(140, 210),
            Pt::new(60, 210),
        ],
    };
    let mut g = game(
        &[
            ("T1", "lg_trooper", 0, 100, 50),
            ("K1", "zr_cluster", 1, 100, 400),
        ],
        vec![wall],
    );
    let shot = cmd("shoot T1 K1");
    let marks = g.marks(Seat(0), &shot, Viewer::Player(Seat(0)));
    let [
        Mark::Sight {
            from,
            blocked_at: None,
            modifier,
            words,
            ..
        },
    ] = marks.as_slice()
    else {
        panic!("one clear line: {marks:?}");
    };
    assert_eq!(*from, at(100, 50));
    assert_eq!(*modifier, -2);
    let mut events = Vec::new();
    g.act(0, &shot, &mut events).expect("legal in space");
    let rolled: Vec<String> = events
        .iter()
        .find_map(|e| match e {
            Event::Sighted { modifiers, .. } => Some(
                modifiers
                    .iter()
                    .map(|(w, m)| format!("{m:+}: {w}"))
                    .collect(),
            ),
            _ => None,
        })
        .expect("sighted");
    assert_eq!(words, &rolled);
}

#[test]
fn r120_a_blocked_line_says_where_it_is_blocked() {
    let g = game(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("T2", "lg_trooper", 0, 100, 200),
            ("K1", "zr_cluster", 1, 100, 400),
        ],
        Vec::new(),
    );
    let marks = g.marks(Seat(0), &cmd("shoot T1 K1"), Viewer::Referee);
    assert_eq!(
        marks,
        [Mark::Sight {
            from: at(100, 100),
            to: at(100, 400),
            blocked_at: Some(at(100, 186)),
            modifier: 0,
            words: vec!["T1 has no line of sight to K1 (R120)".to_owned()],
        }]
    );
}

#[test]
fn r113_r126_a_move_s_path_and_reach_and_a_grenade_s_template() {
    let g = game(
        &[
            ("T1", "lg_trooper", 0, 100, 100),
            ("K1", "zr_cluster", 1, 100, 200),
        ],
        Vec::new(),
    );
    let marks = g.marks(Seat(0), &cmd("move T1 160,100 160,160"), Viewer::Referee);
    assert_eq!(
        marks,
        [
            Mark::Disc {
                centre: at(100, 100),
                diameter_mm: 240,
                kind: DiscKind::Reach
            },
            Mark::Path {
                points: vec![at(100, 100), at(160, 100), at(160, 160)]
            }
        ]
    );
    let marks = g.marks(Seat(0), &cmd("grenade T1 K1"), Viewer::Referee);
    assert!(marks.contains(&Mark::Disc {
        centre: at(100, 200),
        diameter_mm: 60,
        kind: DiscKind::Template
    }));
}

#[test]
fn r129_a_drop_shows_the_36_points_its_scatter_may_land_on() {
    use sandtable_frontiers::templates::{LARGE_MM, drop_landing};
    let g = game(
        &[
            ("M1", "lg_mortar", 0, 300, 100),
            ("K1", "zr_cluster", 1, 300, 450),
        ],
        // Woods between them: no line of sight, so the mortar drops its
        // round (R129).
        vec![Terrain {
            kind: TerrainKind::Vegetation,
            corners: [(200, 250), (400, 250), (400, 320), (200, 320)]
                .iter()
                .map(|(x, y)| Pt::new(*x, *y))
                .collect(),
        }],
    );
    let marks = g.marks(Seat(0), &cmd("shoot M1 K1"), Viewer::Referee);
    let landings: Vec<Spot> = marks
        .iter()
        .filter_map(|m| match m {
            Mark::Disc {
                centre,
                kind: DiscKind::Landing,
                ..
            } => Some(*centre),
            _ => None,
        })
        .collect();
    assert_eq!(landings.len(), 36, "one a roll of the two dice: {marks:?}");
    let mut k = 0;
    for direction in 1..=6 {
        for distance in 1..=6 {
            let p = drop_landing(Pt::new(300, 450), direction, distance, LARGE_MM, 1219, 610);
            assert_eq!(
                landings[k],
                at(p.x as i16, p.y as i16),
                "{direction}, {distance}"
            );
            k += 1;
        }
    }
    // A distance of 1 lands on the aim whatever the direction: 31 points.
    let mut distinct = landings.clone();
    distinct.sort_by_key(|s| format!("{s:?}"));
    distinct.dedup();
    assert_eq!(distinct.len(), 31);
    assert!(landings.contains(&at(300, 450)));
}
