//! `GameState::masked` on every system, at positions of whole games: what
//! a network client of a viewer would hold. The copy looks the same to
//! its viewer as the game does, holds no dice, and reads the viewer's
//! view alone: a game whose hidden things were dealt again from that view
//! (`redeal`) gives the very same copy (R57, R149).

use std::path::Path;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Legal, Seat, Viewer, next_seat, no_dice};
use sandtable_scenario::{Loaded, load_any};

const VIEWERS: [Viewer; 4] = [
    Viewer::Referee,
    Viewer::Player(Seat(0)),
    Viewer::Player(Seat(1)),
    Viewer::Public,
];

fn load(path: &str) -> Loaded {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    load_any(&root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// What `viewer` sees of a game: its JSON view and its text board.
fn picture<G: GameState>(game: &G, viewer: Viewer) -> String {
    format!("{}\n{}", game.view_json(viewer), game.draw_text(viewer))
}

fn legal<G: GameState>(game: &G, seat: Seat) -> Vec<Legal<G::Command>> {
    let mut out = Vec::new();
    game.legal_into(seat, &mut out);
    out
}

/// The same game with everything `viewer` may not see dealt again from
/// its view with `seed`; the public's with both sides' secrets dealt
/// again. `None` for the referee, who sees everything.
fn dealt_again<G: GameState>(game: &G, viewer: Viewer, seed: u64) -> Option<G> {
    let mut copy = game.clone();
    match viewer {
        Viewer::Referee => return None,
        Viewer::Player(seat) => copy.redeal(seat, seed),
        Viewer::Public => {
            copy.redeal(Seat(0), seed);
            copy.redeal(Seat(1), seed ^ 0x5eed);
        }
    }
    Some(copy)
}

/// The referee's copy: the same position as the game (its state hash
/// once the dice are taken from both), and no dice.
fn referee_copy<G: GameState>(game: &G, at: &str) -> G {
    let copy = game.masked(Viewer::Referee);
    let mut nodice = game.clone();
    nodice.set_dice(no_dice());
    assert_eq!(
        copy.state_hash(),
        nodice.state_hash(),
        "{at}: the referee's copy is the game without its dice"
    );
    assert_eq!(copy.dice().left(), Some(0), "{at}: no dice");
    copy
}

/// Checks `masked` at `game` for every viewer; returns whether a deal
/// again changed the game for some viewer (that the check could fail).
fn check_at<G: GameState + PartialEq + std::fmt::Debug>(game: &G, at: &str) -> bool {
    let mut changed = false;
    let bare = referee_copy(game, at);
    for viewer in VIEWERS {
        let masked = game.masked(viewer);
        assert_eq!(
            picture(&masked, viewer),
            picture(game, viewer),
            "{at}: the copy looks the same to {viewer:?}"
        );
        assert_eq!(
            masked.dice().left(),
            Some(0),
            "{at}: no dice for {viewer:?}"
        );
        // A seat's own decisions are the same on its copy.
        if let Viewer::Player(seat) = viewer {
            assert_eq!(legal(&masked, seat), legal(game, seat), "{at}: {viewer:?}");
        }
        match viewer {
            // The referee's copy was checked by `referee_copy`.
            Viewer::Referee => {}
            _ => {
                for seed in 0..3 {
                    let again = dealt_again(game, viewer, seed).expect("a player or the public");
                    assert_eq!(
                        picture(&again, viewer),
                        picture(game, viewer),
                        "{at}: a deal again looks the same to {viewer:?}"
                    );
                    changed |= again.masked(Viewer::Referee) != bare;
                    assert!(
                        again.masked(viewer) == masked,
                        "{at}: {viewer:?}'s copy reads its view alone (seed {seed})"
                    );
                }
            }
        }
    }
    changed
}

/// Plays `game` with random commands from `seed`, checking every
/// `every`th position, for at most `most` commands.
fn play_and_check<G: GameState + PartialEq + std::fmt::Debug>(
    mut game: G,
    seed: u64,
    every: usize,
    most: usize,
    name: &str,
) -> bool {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut changed = false;
    for k in 0..most {
        if k % every == 0 {
            changed |= check_at(&game, &format!("{name}, command {k}"));
        }
        let Some(seat) = next_seat(&game) else { break };
        let command = game.random_command(seat, &mut rng).expect("a command");
        let mut events = Vec::new();
        GameState::apply_into(&mut game, seat, &command, &mut events)
            .expect("a drawn command is legal");
    }
    changed
}

#[test]
fn a_cache_game_hides_nothing_so_every_copy_is_the_game_without_its_dice() {
    let Loaded::Cache(scenario) = load("scenarios/standard.ron") else {
        panic!("a Cache scenario")
    };
    let mut game = scenario.game();
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for k in 0..40 {
        let bare = referee_copy(&game, &format!("command {k}"));
        for viewer in VIEWERS {
            assert!(game.masked(viewer) == bare, "command {k}, {viewer:?}");
        }
        let Some(seat) = next_seat(&game) else { break };
        let command = game.random_command(seat, &mut rng).expect("a command");
        GameState::apply_into(&mut game, seat, &command, &mut Vec::new()).expect("legal");
    }
}

#[test]
fn a_battle_without_the_grid_hides_nothing() {
    let Loaded::Warpspawn(battle) = load("scenarios/warpspawn/open-field.ron") else {
        panic!("a battle")
    };
    let game = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
        .expect("starts");
    let bare = referee_copy(&game, "the start");
    for viewer in VIEWERS {
        assert!(game.masked(viewer) == bare, "{viewer:?}");
    }
    // Played on: still no deal changes it.
    assert!(!play_and_check(game, 5, 7, 80, "open field"));
}

#[test]
fn r57_a_masked_battle_with_the_grid_reads_each_viewer_s_view_alone() {
    let Loaded::Warpspawn(battle) = load("scenarios/warpspawn/flank-march.ron") else {
        panic!("a battle")
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text =
        std::fs::read_to_string(root.join("tests/data/flank-march.moves")).expect("the record");
    let mut game = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
        .expect("starts");
    let mut changed = false;
    for (line, l) in text.lines().enumerate() {
        let l = l.trim();
        if l.is_empty() || l.starts_with('#') || l.starts_with('[') {
            continue;
        }
        changed |= check_at(&game, &format!("flank march, line {}", line + 1));
        let command: sandtable_warpspawn::Command = l.parse().expect("the notation");
        let seat = next_seat(&game).expect("the record ends before the battle");
        GameState::apply_into(&mut game, seat, &command, &mut Vec::new())
            .unwrap_or_else(|e| panic!("line {}: {e}", line + 1));
    }
    assert!(changed, "the control: some deal changed the game");
}

#[test]
fn r149_a_masked_skirmish_reads_each_viewer_s_view_alone() {
    let mut changed = false;
    for (path, seed) in [
        ("scenarios/frontiers/cameron-1.ron", 1),
        ("scenarios/frontiers/treasure-hunt.ron", 2),
        ("scenarios/frontiers/confrontation.ron", 3),
    ] {
        let Loaded::Frontiers(skirmish) = load(path) else {
            panic!("{path}: a skirmish")
        };
        let game =
            sandtable_frontiers::Game::new(&skirmish.setup, Dice::seeded(skirmish.setup.seed))
                .expect("starts");
        changed |= play_and_check(game, seed, 5, 200, path);
    }
    assert!(changed, "the control: some deal changed the game");
}

#[test]
fn r42_r57_a_masked_battle_holds_nothing_of_the_enemy_s_reserve_squares() {
    let Loaded::Warpspawn(battle) = load("scenarios/warpspawn/flank-march.ron") else {
        panic!("a battle")
    };
    let start = |setup: &sandtable_warpspawn::Setup| {
        sandtable_warpspawn::Game::new(setup, Dice::seeded(setup.seed)).expect("starts")
    };
    let game = start(&battle.setup);
    // Blue's reserve less one square where no counter stands: the same
    // game to Red, another to the referee.
    let grid = &game.grid().expect("the grid").grid;
    let reserve = &grid.reserves[1];
    let empty = *reserve
        .iter()
        .find(|sq| grid.counters.iter().all(|c| c.at != **sq))
        .expect("a reserve square with no counter");
    let mut setup = battle.setup.clone();
    let offboard = setup.offboard.as_mut().expect("the grid's setup");
    offboard.reserves.resize(2, None);
    offboard.reserves[1] = Some(reserve.iter().copied().filter(|sq| *sq != empty).collect());
    let other = start(&setup);
    assert_ne!(
        picture(&game, Viewer::Referee),
        picture(&other, Viewer::Referee),
        "the control: the referee tells them apart"
    );
    for viewer in [Viewer::Player(Seat(0)), Viewer::Public] {
        assert_eq!(
            picture(&game, viewer),
            picture(&other, viewer),
            "{viewer:?}"
        );
        assert!(game.masked(viewer) == other.masked(viewer), "{viewer:?}");
    }
    // Blue's own copy keeps its reserve.
    assert!(game.masked(Viewer::Player(Seat(1))) != other.masked(Viewer::Player(Seat(1))));
}

#[test]
fn r143_r149_a_masked_skirmish_holds_nothing_of_the_other_side_s_allotted_crates() {
    let Loaded::Frontiers(skirmish) = load("scenarios/frontiers/cameron-1.ron") else {
        panic!("a skirmish")
    };
    let start = |setup: &sandtable_frontiers::Setup| {
        sandtable_frontiers::Game::new(setup, Dice::seeded(setup.seed)).expect("starts")
    };
    // The Legion's allotment with two contents swapped between carriers.
    let mut setup = skirmish.setup.clone();
    let carriers: Vec<usize> = (0..setup.units.len())
        .filter(|k| setup.units[*k].gear.is_some())
        .collect();
    let (a, b) = (carriers[0], carriers[1]);
    let (ga, gb) = (setup.units[a].gear, setup.units[b].gear);
    setup.units[a].gear = gb;
    setup.units[b].gear = ga;
    let (game, other) = (start(&skirmish.setup), start(&setup));
    assert_ne!(
        picture(&game, Viewer::Referee),
        picture(&other, Viewer::Referee),
        "the control: the referee tells them apart"
    );
    for viewer in [Viewer::Player(Seat(1)), Viewer::Public] {
        assert_eq!(
            picture(&game, viewer),
            picture(&other, viewer),
            "{viewer:?}"
        );
        assert!(game.masked(viewer) == other.masked(viewer), "{viewer:?}");
    }
    // The Legion's own copy keeps what it allotted.
    assert!(game.masked(Viewer::Player(Seat(0))) != other.masked(Viewer::Player(Seat(0))));
}

/// Whether `needle` stands anywhere in `bytes`.
fn holds(bytes: &[u8], needle: &[u8]) -> bool {
    bytes.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn r30_no_masked_copy_holds_the_seed_its_dice_were_drawn_from() {
    use sandtable_core::wire::write;
    // A seed no short number could be taken for, as postcard writes it
    // and as its eight bytes.
    const SEED: u64 = 0x5eed_c0de_46a1_b2c3;
    let needles = [postcard_u64(SEED), SEED.to_le_bytes().to_vec()];
    let check = |bytes: Vec<u8>, what: &str| {
        for n in &needles {
            assert!(!holds(&bytes, n), "{what}: the seed is in the copy");
        }
    };
    let Loaded::Cache(scenario) = load("scenarios/standard.ron") else {
        panic!("a Cache scenario")
    };
    let cache = scenario.game_with_seed(SEED);
    let Loaded::Warpspawn(battle) = load("scenarios/warpspawn/flank-march.ron") else {
        panic!("a battle")
    };
    let mut setup = battle.setup.clone();
    setup.seed = SEED;
    let battle = sandtable_warpspawn::Game::new(&setup, Dice::seeded(SEED)).expect("starts");
    let Loaded::Frontiers(skirmish) = load("scenarios/frontiers/confrontation.ron") else {
        panic!("a skirmish")
    };
    let mut setup = skirmish.setup.clone();
    setup.seed = SEED;
    let skirmish = sandtable_frontiers::Game::new(&setup, Dice::seeded(SEED)).expect("starts");
    // The control: the game itself, encoded, holds it.
    assert!(needles.iter().any(|n| holds(&write(&battle), n)));
    for viewer in VIEWERS {
        check(write(&cache.masked(viewer)), &format!("Cache, {viewer:?}"));
        check(
            write(&battle.masked(viewer)),
            &format!("the flank march, {viewer:?}"),
        );
        check(
            write(&skirmish.masked(viewer)),
            &format!("Confrontation, {viewer:?}"),
        );
    }
}

/// `value` as postcard writes a u64: seven bits a byte, low first.
fn postcard_u64(mut value: u64) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let byte = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(byte);
            return out;
        }
        out.push(byte | 0x80);
    }
}

/// `game` after `lines` of the move notation, each played as the seat
/// that acts next; the log of what was played, a line a command or event
/// as `viewer` may read it.
fn played<G: GameState>(mut game: G, lines: &[&str], viewer: Viewer) -> (G, Vec<String>) {
    let mut log = Vec::new();
    for line in lines {
        let command: G::Command = line
            .parse()
            .unwrap_or_else(|_| panic!("`{line}` is in the notation"));
        let seat = next_seat(&game).expect("the game goes on");
        let mut events = Vec::new();
        GameState::apply_into(&mut game, seat, &command, &mut events)
            .unwrap_or_else(|e| panic!("`{line}`: {e}"));
        log.extend(game.command_for(seat, &command, viewer));
        log.extend(events.iter().filter_map(|e| game.describe_for(e, viewer)));
    }
    (game, log)
}

/// Everything `viewer` reads of `game`: its JSON view, its text board,
/// the same of its masked copy, and the log.
fn everything<G: GameState>(game: &G, viewer: Viewer, log: &[String]) -> String {
    let masked = game.masked(viewer);
    format!(
        "{}\n{}\n{}",
        picture(game, viewer),
        picture(&masked, viewer),
        log.join("\n")
    )
}

#[test]
fn r46_r57_an_order_through_its_own_reserve_reaches_no_enemy_view_in_either_direction() {
    let Loaded::Warpspawn(battle) = load("scenarios/warpspawn/flank-march.ron") else {
        panic!("a battle")
    };
    let start = sandtable_warpspawn::Game::new(&battle.setup, Dice::seeded(battle.setup.seed))
        .expect("starts");
    // Red's horse rides 1T 2S 2T, Blue's 16R 15S 15R: every square in
    // their own reserves, where the enemy locates nothing it has not seen.
    let record = [
        "order 1 1T 2S 2T",
        "order 2 hold",
        "commit",
        "order 2 hold",
        "order 1 16R 15S 15R",
        "commit",
    ];
    for (viewer, enemy, path) in [
        (Viewer::Player(Seat(1)), "Red", "1T 2S 2T"),
        (Viewer::Player(Seat(0)), "Blue", "16R 15S 15R"),
        (Viewer::Public, "Red", "1T 2S 2T"),
        (Viewer::Public, "Blue", "16R 15S 15R"),
    ] {
        let (game, log) = played(start.clone(), &record, viewer);
        let seen = everything(&game, viewer, &log);
        assert!(
            !seen.contains(path),
            "{viewer:?} reads {enemy}'s order {path}:\n{seen}"
        );
        assert!(
            log.iter()
                .any(|l| l.contains("order in the enemy's reserve")
                    || l.contains("orders in the enemy's reserve")),
            "{viewer:?}'s log counts it among the hidden: {log:?}"
        );
        // The control: the referee, and the order's own side, read it.
        let (game, log) = played(start.clone(), &record, Viewer::Referee);
        assert!(everything(&game, Viewer::Referee, &log).contains(path));
        let own = Viewer::Player(Seat(if enemy == "Red" { 0 } else { 1 }));
        let (game, log) = played(start.clone(), &record, own);
        assert!(
            everything(&game, own, &log).contains(path),
            "{enemy} reads its own"
        );
    }
}

#[test]
fn r107_the_side_that_places_second_sees_nothing_of_the_first_side_s_markers_until_it_has_placed() {
    let Loaded::Frontiers(skirmish) = load("scenarios/frontiers/skirmish.ron") else {
        panic!("a skirmish")
    };
    let start = sandtable_frontiers::Game::new(&skirmish.setup, Dice::seeded(skirmish.setup.seed))
        .expect("starts");
    let legion = ["discard", "discard", "orders T1:1 T2:2 CP:decoy S1:decoy"];
    for viewer in [Viewer::Player(Seat(1)), Viewer::Public] {
        let (game, log) = played(start.clone(), &legion, viewer);
        let seen = everything(&game, viewer, &log);
        assert!(
            !seen.contains("face-down marker") && !seen.contains("decoy"),
            "{viewer:?} sees where the Legion's markers lie before placing:\n{seen}"
        );
        let masked = game.masked(viewer);
        assert_ne!(
            masked.flow().placed[0],
            game.flow().placed[0],
            "{viewer:?}'s copy holds the Legion's places"
        );
    }
    // The Legion sees its own; and once the Zirl have placed too, both
    // see where every face-down marker lies (R107).
    let (game, log) = played(start.clone(), &legion, Viewer::Player(Seat(0)));
    assert!(everything(&game, Viewer::Player(Seat(0)), &log).contains("marker 1"));
    let mut both = legion.to_vec();
    both.push("orders K1:1 P1:decoy B1:decoy");
    let (game, log) = played(start, &both, Viewer::Player(Seat(1)));
    let seen = everything(&game, Viewer::Player(Seat(1)), &log);
    for unit in ["T1", "T2", "CP", "S1"] {
        assert!(
            seen.lines()
                .any(|l| l.starts_with(&format!("{unit} ")) && l.contains("marker")),
            "the Zirl see a marker on {unit} once both placed (step 1 turned T1's up):\n{seen}"
        );
    }
}

#[test]
fn r104_r149_the_other_side_s_cards_in_a_copy_are_dealt_from_every_card_it_could_hold() {
    use sandtable_frontiers::data::CARDS;
    let Loaded::Frontiers(skirmish) = load("scenarios/frontiers/skirmish.ron") else {
        panic!("a skirmish")
    };
    let mut setup = skirmish.setup.clone();
    // The Zirl's deck listed and played as listed: their hand is the same
    // whatever the seed. The Legion's is 25 of its 30 cards, the dice's
    // pick, shuffled by them.
    let list: Vec<String> = CARDS
        .iter()
        .flat_map(|c| std::iter::repeat_n(c.id.to_owned(), usize::from(c.limit)))
        .take(25)
        .collect();
    setup.sides[1].deck = Some(list);
    setup.sides[1].deck_order = true;
    let zirl = Viewer::Player(Seat(1));
    let mut copies = Vec::new();
    let mut real = Vec::new();
    for seed in 1..=4u64 {
        setup.seed = seed;
        let game = sandtable_frontiers::Game::new(&setup, Dice::seeded(seed)).expect("starts");
        let (game, _) = played(game, &["discard", "discard"], zirl);
        real.push(game.flow().cards[0].clone());
        copies.push(game.masked(zirl).flow().cards[0].clone());
    }
    // The control: the Legion's real cards differ from seed to seed.
    assert!(real.windows(2).any(|w| w[0] != w[1]));
    // What the Zirl know of them is the same each time (four in hand, 21
    // in the deck, nothing discarded), and so is their copy.
    for copy in &copies {
        assert_eq!(copy, &copies[0], "the copy reads the Zirl's view alone");
        assert_eq!((copy.hand.len(), copy.deck.len()), (4, 21));
    }
}
