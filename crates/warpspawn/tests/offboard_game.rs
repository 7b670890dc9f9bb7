//! The off-board grid played in the battle (R40-R57), on the shipped
//! flank march (`samples::flank_march`, `scenarios/warpspawn/flank-march.ron`)
//! and its shipped record (`crates/cli/tests/data/flank-march.moves`):
//! the record reaches every part of the grid; each kind of secret stays
//! out of the other side's views and log until a ruling reveals it; a
//! copy dealt again from a side's view looks the same to that side; and
//! random games end with compositions unchanged by the ring's fights.

use proptest::prelude::*;
use rand::{Rng as _, SeedableRng as _};
use rand_chacha::ChaCha8Rng;
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, Viewer, next_seat};
use sandtable_warpspawn::offboard::event::RingEvent;
use sandtable_warpspawn::{Command, Event, Game, samples};

/// The shipped record's commands, with their line numbers.
fn record() -> Vec<(usize, Command)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/data/flank-march.moves"
    );
    let text = std::fs::read_to_string(path).expect("the shipped record");
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#') && !l.starts_with('['))
        .map(|(i, l)| {
            (
                i + 1,
                l.parse().unwrap_or_else(|e| panic!("line {}: {e}", i + 1)),
            )
        })
        .collect()
}

fn start() -> Game {
    let setup = samples::flank_march();
    Game::new(&setup, Dice::seeded(setup.seed)).expect("the flank march starts")
}

/// What `viewer` sees of a game: its JSON view and its text board.
fn picture(game: &Game, viewer: Viewer) -> String {
    format!("{}\n{}", game.view_json(viewer), game.draw_text(viewer))
}

/// The game after each command of the record, with each viewer's log so
/// far: the command as the viewer may read it, and the events it may know.
struct Replay {
    games: Vec<Game>,
    logs: Vec<[String; 3]>,
    events: Vec<Event>,
}

const VIEWERS: [Viewer; 3] = [
    Viewer::Referee,
    Viewer::Player(Seat(0)),
    Viewer::Player(Seat(1)),
];

fn replay() -> Replay {
    let mut game = start();
    let mut games = vec![game.clone()];
    let mut log: [String; 3] = Default::default();
    let mut logs = vec![log.clone()];
    let mut all = Vec::new();
    for (line, command) in record() {
        let seat = next_seat(&game).expect("the record ends before the battle");
        let mut events = Vec::new();
        game.apply_into(seat, &command, &mut events)
            .unwrap_or_else(|e| panic!("line {line}: `{command}`: {e}"));
        for (v, viewer) in VIEWERS.iter().enumerate() {
            if let Some(text) = game.command_for(seat, &command, *viewer) {
                log[v].push_str(&text);
                log[v].push('\n');
            }
            for e in &events {
                if let Some(words) = game.describe_for(e, *viewer) {
                    log[v].push_str(&words);
                    log[v].push('\n');
                }
            }
        }
        all.extend(events);
        games.push(game.clone());
        logs.push(log.clone());
    }
    Replay {
        games,
        logs,
        events: all,
    }
}

#[test]
fn r47_r56_the_shipped_record_reaches_every_part_of_the_grid() {
    let r = replay();
    let ring: Vec<&RingEvent> = r
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Ring(ring) => Some(&**ring),
            _ => None,
        })
        .collect();
    let has = |f: &dyn Fn(&RingEvent) -> bool| ring.iter().any(|e| f(e));
    assert!(
        has(&|e| matches!(e, RingEvent::OrdersRevealed { .. })),
        "sealed orders"
    );
    assert!(
        has(&|e| matches!(e, RingEvent::MarchedOff { .. })),
        "a march off the map"
    );
    assert!(
        has(&|e| matches!(e, RingEvent::Entered { .. })),
        "an entry onto the map"
    );
    assert!(
        has(&|e| matches!(e, RingEvent::ShotAt { .. })),
        "fire at a counter"
    );
    assert!(
        has(
            &|e| matches!(e, RingEvent::ForcesRevealed { forces, .. } if forces.iter().any(|f| f.2))
        ),
        "a fight with forces committed and a scout"
    );
    assert!(has(&|e| matches!(e, RingEvent::Fought { .. })), "a fight");
    // The battle waits for Red's orders of game turn 3 at the end.
    let last = r.games.last().expect("games");
    assert_eq!(last.turn(), 3);
    assert_eq!(last.decider().map(|s| s.0), Some(0));
}

/// The index of the game after the command on `line` of the record.
fn after_line(line: usize) -> usize {
    record()
        .iter()
        .position(|(l, _)| *l == line)
        .unwrap_or_else(|| panic!("no command on line {line}"))
        + 1
}

/// Whether `needle` is in what `viewer` (0 referee, 1 Red, 2 Blue) sees
/// after the game at `at`: its picture or its log.
fn known(r: &Replay, at: usize, v: usize, needle: &str) -> bool {
    picture(&r.games[at], VIEWERS[v]).contains(needle) || r.logs[at][v].contains(needle)
}

/// A secret of `owner` (1 Red, 2 Blue) is absent from the other side's
/// views and log from `from` until `until` (the first game where a ruling
/// reveals it), present after; the referee knows it all along.
fn secret(r: &Replay, needle: &str, owner: usize, from: usize, until: usize) {
    let other = 3 - owner;
    for at in from..until {
        assert!(
            known(r, at, 0, needle),
            "the referee knows `{needle}` at {at}"
        );
        assert!(
            known(r, at, owner, needle),
            "its owner knows `{needle}` at {at}"
        );
        assert!(
            !known(r, at, other, needle),
            "`{needle}` leaks to the other side at {at}:\n{}",
            picture(&r.games[at], VIEWERS[other])
        );
    }
    assert!(
        known(r, until, other, needle),
        "`{needle}` is revealed at {until}"
    );
}

fn line_of(text: &str) -> usize {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/data/flank-march.moves"
    );
    let file = std::fs::read_to_string(path).expect("the shipped record");
    let mut lines = file.lines().enumerate().filter(|(_, l)| l.trim() == text);
    let (i, _) = lines
        .next()
        .unwrap_or_else(|| panic!("`{text}` is in the record"));
    i + 1
}

#[test]
fn r51_r57_a_composition_stays_its_owner_s_until_the_forces_are_revealed() {
    let r = replay();
    // Red 1 after its split holds 6 cavalry and an officer; Blue learns it
    // only when both sides' forces are revealed (R51).
    let split = after_line(line_of("split 1 cav 4"));
    let revealed = after_line(line_of("forces 2 all")) + 1;
    secret(&r, "6 cavalry, 1 officer", 1, split, revealed);
}

/// The counters of `side` in `viewer`'s JSON view, by number and square.
fn located(game: &Game, viewer: Viewer, side: &str) -> Vec<(u64, String)> {
    let view: serde_json::Value = serde_json::from_str(&game.view_json(viewer)).expect("JSON");
    view["offboard"]["counters"]
        .as_array()
        .expect("counters")
        .iter()
        .filter(|c| c["player"] == side)
        .map(|c| {
            (
                c["number"].as_u64().expect("a number"),
                c["square"].as_str().expect("a square").to_owned(),
            )
        })
        .collect()
}

#[test]
fn r46_a_counter_in_its_reserve_shows_only_that_it_exists() {
    let r = replay();
    // Red 1 and Red 3 stand in 1S, Red's reserve, until the ring moves.
    let split = after_line(line_of("split 1 cav 4"));
    let moved = after_line(line_of("order 1 15S 14S")) + 1;
    for game in &r.games[split..moved] {
        let blue = located(game, VIEWERS[2], "Red");
        assert!(
            blue.iter().all(|(_, sq)| sq != "1S"),
            "Blue locates nothing in 1S: {blue:?}"
        );
        // The control: the referee and Red do.
        for v in [VIEWERS[0], VIEWERS[1]] {
            assert!(located(game, v, "Red").contains(&(3, "1S".to_owned())));
        }
        let view: serde_json::Value =
            serde_json::from_str(&game.view_json(VIEWERS[2])).expect("JSON");
        // Red's split is its own until the orders are revealed: Blue
        // counts the two counters Red began the phase with (R45, R46).
        assert_eq!(
            view["offboard"]["reserve"]["Red"], 2,
            "Red reserve: 2 counters"
        );
    }
    // Out of its reserve in 3S, Red 3 shows Blue its number and square.
    assert!(located(&r.games[moved], VIEWERS[2], "Red").contains(&(3, "3S".to_owned())));
}

#[test]
fn r47_an_order_stays_sealed_until_both_sides_commit() {
    let r = replay();
    // Game turn 2: Red orders its horse from 3S, outside its reserve.
    let written = after_line(line_of("order 1 4S 5S"));
    let revealed = after_line(line_of("order 1 13S 12S")) + 1;
    secret(&r, "4S, 5S", 1, written, revealed);
}

#[test]
fn r51_forces_stay_sealed_until_both_sides_commit() {
    let r = replay();
    let picked = after_line(line_of("forces 3 all"));
    let revealed = after_line(line_of("forces 2 all")) + 1;
    for at in picked..revealed {
        for v in [0, 1] {
            assert!(known(&r, at, v, "Red 3 commits 4 cavalry"), "{v} at {at}");
        }
        assert!(!known(&r, at, 2, "Red 3 commits"), "Blue at {at}");
        assert!(!known(&r, at, 2, "Red 3: 4 cavalry"), "Blue at {at}");
        assert!(!r.logs[at][2].contains("forces 3"), "Blue's log at {at}");
    }
    // Revealed together with their points (R51), the scout's too (R54).
    assert!(known(&r, revealed, 2, "Red 3: 4 cavalry, scouting"));
}

#[test]
fn r57_a_copy_dealt_again_looks_the_same_to_its_side_and_no_other() {
    let r = replay();
    let mut changed = false;
    for (at, game) in r.games.iter().enumerate() {
        for seat in [Seat(0), Seat(1)] {
            for seed in 0..4u64 {
                let mut copy = game.clone();
                copy.redeal(seat, seed);
                let viewer = Viewer::Player(seat);
                assert_eq!(
                    picture(&copy, viewer),
                    picture(game, viewer),
                    "game {at}, seat {}, seed {seed}",
                    seat.0
                );
                let legal = |g: &Game| -> Vec<String> {
                    legal_of(g, seat)
                        .iter()
                        .map(|l| l.command.to_string())
                        .collect()
                };
                assert_eq!(legal(&copy), legal(game), "game {at}, seat {}", seat.0);
                // Refusals and odds read only the seat's view: commands
                // listed, changed, and aimed at what it may not see.
                let listed: Vec<Command> = legal_of(game, seat).iter().map(|l| l.command).collect();
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut tried = ring_candidates(game, &listed, &mut rng);
                tried.extend(listed.iter().copied());
                for text in [
                    "fire L2 5S 2",
                    "fire L2 1S 1",
                    "fire L11 16S 1",
                    "order 1 2S 3S",
                    "order 1 15S 14S",
                    "order 2 enter",
                    "forces 1 all",
                    "enter 2 L1",
                    "split 1 cav 4",
                ] {
                    tried.push(text.parse().expect("a command"));
                }
                for c in &tried {
                    let said = |g: &Game| g.check(seat, c).map_err(|e| e.to_string());
                    assert_eq!(said(&copy), said(game), "`{c}` at {at}, seat {}", seat.0);
                    assert_eq!(copy.odds(seat, c), game.odds(seat, c), "`{c}` at {at}");
                }
                changed |= picture(&copy, Viewer::Referee) != picture(game, Viewer::Referee);
            }
        }
    }
    // The control: some deals changed what the referee sees, so the checks
    // above could fail.
    assert!(changed, "no deal changed anything hidden");
}

/// The seat's legal list.
fn legal_of(game: &Game, seat: Seat) -> Vec<sandtable_core::game::Legal<Command>> {
    let mut out = Vec::new();
    game.legal_into(seat, &mut out);
    out
}

/// Each side's pieces on the ring, summed over its counters.
fn ring_totals(game: &Game) -> [(u32, u32, u32); 2] {
    let mut out = [(0, 0, 0); 2];
    for c in game.grid().expect("a grid").grid.counters.iter() {
        let t = &mut out[c.id.side];
        t.0 += u32::from(c.pieces.infantry);
        t.1 += u32::from(c.pieces.cavalry);
        t.2 += u32::from(c.pieces.officers);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random games of the flank march end; every listed command is
    /// accepted; the ring's movement and fights never change what a side
    /// holds on it (R50): only entering, marching off and fire do.
    #[test]
    fn r50_random_games_end_and_the_ring_keeps_every_composition(seed in any::<u64>()) {
        let setup = samples::flank_march();
        let mut game = Game::new(&setup, Dice::seeded(seed)).expect("starts");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut commands = 0;
        while let Some(seat) = next_seat(&game) {
            let legal = legal_of(&game, seat);
            prop_assert!(!legal.is_empty(), "a seat to act has a command");
            for l in legal.iter().take(40) {
                prop_assert!(game.check(seat, &l.command).is_ok(), "`{}` is listed", l.command);
            }
            let command = legal[rng.random_range(0..legal.len())].command;
            let before = ring_totals(&game);
            let mut events = Vec::new();
            game.apply_into(seat, &command, &mut events).expect("a listed command");
            let changes = matches!(
                command,
                Command::Enter { .. } | Command::MarchOff { .. } | Command::LoseInRing { .. }
                    | Command::FireAtCounter { .. }
            ) || events.iter().any(|e| matches!(e, Event::Ring(r) if matches!(**r, RingEvent::CounterLost { .. })));
            if !changes {
                prop_assert_eq!(ring_totals(&game), before, "`{}` changed the ring", command);
            }
            commands += 1;
            prop_assert!(commands < 20_000, "the game ends");
        }
    }
}

/// Plays `commands` on `game`, each as the seat that acts next.
fn play(game: &mut Game, commands: &[&str]) -> Vec<Event> {
    let mut events = Vec::new();
    for text in commands {
        let command: Command = text.parse().unwrap_or_else(|e| panic!("{e}"));
        let seat = next_seat(game).expect("a seat to act");
        game.apply_into(seat, &command, &mut events)
            .unwrap_or_else(|e| panic!("`{text}`: {e}"));
    }
    events
}

/// Why `text` is refused for the seat that acts next.
fn refused(game: &Game, text: &str) -> String {
    let command: Command = text.parse().unwrap_or_else(|e| panic!("{e}"));
    let seat = next_seat(game).expect("a seat to act");
    game.check(seat, &command).expect_err("refused").to_string()
}

#[test]
fn r48_a_counter_ordered_to_enter_comes_onto_a_hex_it_faces_in_the_march() {
    let mut game = start();
    play(&mut game, &["order 2 enter", "commit", "commit"]);
    // Not in the Cannonade.
    assert!(refused(&game, "enter 2 L1").contains("only in the march phase"));
    play(&mut game, &["end"]);
    assert_eq!(
        refused(&game, "enter 2 K1"),
        "counter 2 in 2N faces L1, not K1 (R48)"
    );
    assert_eq!(
        refused(&game, "enter 1 P1"),
        "counter 1 was not ordered to enter this game turn: only `order 1 enter`, written in the Orders phase, brings it on (R48)"
    );
    assert!(refused(&game, "enter 2 L1 inf 11").contains("does not hold all of that"));
    let events = play(&mut game, &["enter 2 L1 inf 6"]);
    assert!(events.iter().any(
        |e| matches!(e, Event::Ring(r) if matches!(**r, RingEvent::Entered { emptied: false, .. }))
    ));
    // What stays in the counter comes on too; the baggage with it.
    play(&mut game, &["enter 2 L1"]);
    let st = game
        .stack("L1".parse().expect("a hex"), sandtable_warpspawn::Side(0))
        .expect("on the map");
    assert_eq!((st.armed.men.inf, st.baggage), (10, true));
    assert!(
        game.grid()
            .expect("a grid")
            .entered
            .contains(&"L1".parse().expect("a hex")),
        "it may not attack this Melee phase (R48)"
    );
    assert!(
        game.grid()
            .expect("a grid")
            .grid
            .counters
            .iter()
            .all(|c| c.id.side != 0 || c.id.number != 2)
    );
}

/// The flank march with Red's 19 foot on P3, beside Blue's column in 5S.
fn beside_the_column(dice: Dice) -> Game {
    let mut setup = samples::flank_march();
    for p in &mut setup.pieces {
        if p.side == 0 && p.infantry == 19 {
            p.at = "P3".parse().expect("a hex");
        }
    }
    Game::new(&setup, dice).expect("the setup is valid")
}

#[test]
fn r48_a_formation_marching_off_into_enemy_counters_fights_them_at_once() {
    let mut game = beside_the_column(Dice::scripted(Vec::new()));
    let events = play(&mut game, &["commit", "commit", "end", "march P3 off"]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ring(r) if matches!(**r, RingEvent::MarchedOff { joined: false, .. })))
    );
    assert!(
        game.stack("P3".parse().expect("a hex"), sandtable_warpspawn::Side(0))
            .is_none()
    );
    let fight = game
        .grid()
        .expect("a grid")
        .fight
        .as_ref()
        .expect("a fight at once");
    assert_eq!(fight.contest.square.to_string(), "5S");
    // Both sides pick their forces, sealed (R51).
    assert!(matches!(
        game.decision(),
        sandtable_core::game::Decision::Sealed(_)
    ));
    // Red's 19 men roll 2 dice, Blue's 10 one: Red cancels Blue's and wins
    // without a roll (R52); the column falls back.
    play(
        &mut game,
        &[
            "forces 3 all",
            "commit",
            "forces 2 all",
            "commit",
            "cancel 1",
        ],
    );
    let g = game.grid().expect("a grid");
    let at = |side: usize, n: u16| {
        g.grid
            .counters
            .iter()
            .find(|c| c.id.side == side && c.id.number == n)
            .map(|c| c.at.to_string())
    };
    assert_eq!(at(0, 3), Some("5S".to_owned()));
    // Beaten, the column's owner picks where it falls back (R50).
    assert!(matches!(
        g.fight.as_ref().map(|f| &f.step),
        Some(sandtable_warpspawn::offboard::state::FightStep::Fallback { .. })
    ));
    play(&mut game, &["fallback 6S"]);
    let g = game.grid().expect("a grid");
    assert!(g.fight.is_none());
    assert!(
        g.grid
            .counters
            .iter()
            .any(|c| c.id.side == 1 && c.id.number == 2 && c.at.to_string() == "6S")
    );
}

#[test]
fn r48_r50_a_beaten_formation_that_marched_off_falls_back_on_the_ring_never_onto_the_map() {
    // Red throws 3 2, Blue 5: Blue, defending, wins the pair (R53).
    let mut game = beside_the_column(Dice::scripted(vec![3, 2, 5]));
    play(
        &mut game,
        &[
            "commit",
            "commit",
            "end",
            "march P3 off",
            "forces 3 all",
            "commit",
            "forces 2 all",
            "commit",
            "cancel 0",
        ],
    );
    // Red picks where its beaten counter goes: beside 5S, on the ring.
    let owed = game
        .grid()
        .expect("a grid")
        .fight
        .as_ref()
        .expect("owed")
        .step
        .clone();
    let sandtable_warpspawn::offboard::state::FightStep::Fallback { options, .. } = owed else {
        panic!("a fall-back is owed: {owed:?}");
    };
    let names: Vec<String> = options.iter().map(ToString::to_string).collect();
    assert_eq!(names, ["4S", "4T", "5T", "6S", "6T"]);
    assert!(refused(&game, "fallback 7S").contains("may fall back to 4S, 4T, 5T, 6S, 6T only"));
    play(&mut game, &["fallback 4T"]);
    assert!(game.grid().expect("a grid").fight.is_none());
    assert!(
        game.stack("P3".parse().expect("a hex"), sandtable_warpspawn::Side(0))
            .is_none()
    );
}

#[test]
fn r56_a_cannon_fires_only_at_a_counter_its_side_sees_within_range_less_one() {
    let mut game = start();
    play(&mut game, &["commit", "commit"]);
    // Blue's column in 5S is seen from N2 (R55); Blue's horse in 16S is not.
    assert_eq!(
        refused(&game, "fire L2 16S 1"),
        "your side sees no counter 1 of Blue in 16S (R56)"
    );
    assert_eq!(
        refused(&game, "fire L2 5S 1"),
        "your side sees no counter 1 of Blue in 5S (R56)",
        "the same words whether or not it stands there unseen (R57)"
    );
    // The shot's odds, before it is fired: a die's six rolls through R67's
    // table on the column's ten armed men, with the shot's modifiers.
    let shot: Command = "fire L2 5S 2".parse().expect("a command");
    let odds = GameState::odds(&game, Seat(0), &shot);
    assert_eq!(odds.len(), 1, "{odds:?}");
    assert!(
        odds[0].what.starts_with("the shot at counter 2 in 5S: 1d6"),
        "{}",
        odds[0].what
    );
    let sixths: u64 = odds[0]
        .outcomes
        .iter()
        .map(|(_, c)| c.num * 6 / c.den)
        .sum();
    assert_eq!(sixths, 6, "the six rolls: {odds:?}");
    let modifier: i8 = odds[0]
        .what
        .split("1d6 ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .and_then(|m| m.parse().ok())
        .expect("the modifier");
    for roll in 1..=6u8 {
        let n = sandtable_warpspawn::casualties(roll, modifier, 10);
        let words = format!("{n} {} killed", if n == 1 { "man" } else { "men" });
        assert!(
            odds[0].outcomes.iter().any(|(o, _)| *o == words),
            "roll {roll}: {words} in {odds:?}"
        );
    }
    let events = play(&mut game, &["fire L2 5S 2"]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Ring(r) if matches!(**r, RingEvent::ShotAt { .. })))
    );
    assert!(refused(&game, "fire L2 5S 2").contains("has fired this turn"));
}

/// Commands of the grid worth trying in a position: each listed one with
/// its counts, pieces, square or crew changed, legal or not.
fn ring_candidates(game: &Game, listed: &[Command], rng: &mut ChaCha8Rng) -> Vec<Command> {
    use sandtable_warpspawn::offboard::command::GridCommand;
    use sandtable_warpspawn::offboard::counter::Composition;
    let some = |rng: &mut ChaCha8Rng, most: u16| rng.random_range(0..=most);
    let pieces = |rng: &mut ChaCha8Rng| Composition {
        infantry: some(rng, 12),
        cavalry: some(rng, 6),
        officers: some(rng, 1),
        cannon: false,
        baggage: some(rng, 1) == 1,
        flag: false,
    };
    let mut out = Vec::new();
    for command in listed {
        match *command {
            Command::Grid(GridCommand::Split { counter, .. }) => {
                out.push(Command::Grid(GridCommand::Split {
                    counter,
                    pieces: pieces(rng),
                }))
            }
            Command::Grid(GridCommand::Forces { counter, .. }) => {
                out.push(Command::Grid(GridCommand::Forces {
                    counter,
                    pieces: Some(pieces(rng)),
                }))
            }
            Command::Grid(GridCommand::Cancel(n)) => {
                out.push(Command::Grid(GridCommand::Cancel(n + 1)))
            }
            Command::Enter { counter, hex, .. } => out.push(Command::Enter {
                counter,
                hex,
                pieces: Some(pieces(rng)),
            }),
            Command::MarchOff { from, .. } => {
                out.push(Command::MarchOff {
                    from,
                    square: None,
                    pick: None,
                });
                out.push(Command::MarchOff {
                    from,
                    square: None,
                    pick: Some(sandtable_warpspawn::Pick {
                        men: sandtable_warpspawn::Men::new(some(rng, 10), some(rng, 4)),
                        ..Default::default()
                    }),
                });
            }
            Command::FireAtCounter {
                cannon,
                square,
                counter,
                ..
            } => out.push(Command::FireAtCounter {
                cannon,
                square,
                counter,
                crew: Some(sandtable_warpspawn::Men::new(4, 0)),
            }),
            _ => {}
        }
    }
    let _ = game;
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    /// Every listed command is its own family's; every command of the grid
    /// the rules accept, among many tried, is of a listed command's family
    /// (`listed_as`).
    #[test]
    fn listed_families_cover_every_accepted_command_of_the_grid(seed in any::<u64>()) {
        let setup = samples::flank_march();
        let mut game = Game::new(&setup, Dice::seeded(seed)).expect("starts");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut steps = 0;
        while let Some(seat) = next_seat(&game) {
            let listed: Vec<Command> = legal_of(&game, seat).iter().map(|l| l.command).collect();
            for c in &listed {
                prop_assert_eq!(game.listed_as(c), *c, "`{}` is its own family's", c);
            }
            for c in ring_candidates(&game, &listed, &mut rng) {
                if game.check(seat, &c).is_ok() {
                    let family = game.listed_as(&c);
                    prop_assert!(listed.contains(&family), "`{}` (as `{}`) is not listed", c, family);
                }
            }
            let command = listed[rng.random_range(0..listed.len())];
            let mut events = Vec::new();
            game.apply_into(seat, &command, &mut events).expect("a listed command");
            steps += 1;
            if steps > 600 {
                break;
            }
        }
    }
}

#[test]
fn r46_r57_a_ring_square_s_label_says_what_the_viewer_may_know() {
    let game = start();
    let square = |name: &str| {
        name.parse::<sandtable_warpspawn::offboard::ring::Square>()
            .expect("a square")
            .spot()
    };
    let label = |name: &str, viewer: Viewer| game.describe_spot(square(name), viewer);
    // Red's horse in its reserve: the referee and Red know it, Blue not.
    assert_eq!(
        label("1S", Viewer::Referee).as_deref(),
        Some("1S: the second row (R41); Red's reserve (R42); Red 1: 10 cavalry, 1 officer")
    );
    assert_eq!(label("1S", VIEWERS[1]), label("1S", Viewer::Referee));
    // Nor where Red's reserve lies (R57).
    assert_eq!(
        label("1S", VIEWERS[2]).as_deref(),
        Some("1S: the second row (R41)")
    );
    // Blue's column out of its reserve: Red sees where, not what (R46).
    assert_eq!(
        label("5S", VIEWERS[1]).as_deref(),
        Some("5S: an edge square (R41); Blue 2")
    );
    // A hex is no square of the ring.
    assert!(label("2E", Viewer::Referee).is_some());
    assert_eq!(
        game.describe_spot(
            sandtable_core::game::Spot::Ring { col: 5, row: 5 },
            Viewer::Referee
        ),
        None,
        "5F lies under the map"
    );
    // Once the ring has moved, Red's formations see Blue's column (R55):
    // Blue's label says so, Red's shows its pieces.
    let mut game = game;
    play(&mut game, &["commit", "commit"]);
    let label = |name: &str, viewer: Viewer| game.describe_spot(square(name), viewer);
    assert_eq!(
        label("5S", VIEWERS[2]).as_deref(),
        Some(
            "5S: an edge square (R41); Blue 2: 10 infantry, baggage (seen by Red from the map, R55)"
        )
    );
    assert_eq!(
        label("5S", VIEWERS[1]).as_deref(),
        Some("5S: an edge square (R41); Blue 2: 10 infantry, baggage")
    );
}

#[test]
fn r42_r57_a_side_s_reserve_squares_are_its_own_to_know() {
    let game = start();
    // The lattice's rows of squares, without the counters' marks.
    let lattice = |viewer: Viewer| {
        let text = game.draw_text(viewer);
        let from = text.find("off-board grid").expect("the ring is drawn");
        text[from..]
            .lines()
            .skip(2)
            .take_while(|l| !l.starts_with("squares:"))
            .flat_map(|l| l.split_whitespace().skip(1).map(str::to_owned))
            .collect::<Vec<String>>()
    };
    let count = |cells: &[String], mark: &str| cells.iter().filter(|c| *c == mark).count();
    // The referee sees both reserves: the control that finds them.
    let referee = lattice(Viewer::Referee);
    assert!(
        count(&referee, "r") > 10 && count(&referee, "b") > 10,
        "{referee:?}"
    );
    // Each side its own, never the enemy's.
    let red = lattice(VIEWERS[1]);
    assert_eq!(count(&red, "r"), count(&referee, "r"));
    assert_eq!(count(&red, "b"), 0, "Red sees Blue's reserve: {red:?}");
    let blue = lattice(VIEWERS[2]);
    assert_eq!(count(&blue, "b"), count(&referee, "b"));
    assert_eq!(count(&blue, "r"), 0, "Blue sees Red's reserve: {blue:?}");
    assert!(!game.draw_text(VIEWERS[1]).contains("Blue's reserve"));
    assert!(game.draw_text(Viewer::Referee).contains("b Blue's"));
}

#[test]
fn r57_a_deal_reads_the_view_alone() {
    // Two flank marches that differ only in what Red's horse holds, which
    // Blue cannot see: Blue's copies dealt with the same seed are the same
    // game, so a bot on them learns nothing of Red's real forces.
    let other = {
        let mut setup = samples::flank_march();
        let horse = setup
            .offboard
            .as_mut()
            .expect("the grid")
            .counters
            .iter_mut()
            .find(|c| c.side == 0 && c.number == 1)
            .expect("Red's horse");
        horse.pieces.cavalry = 6;
        Game::new(&setup, Dice::seeded(setup.seed)).expect("starts")
    };
    let game = start();
    assert_ne!(
        picture(&game, Viewer::Referee),
        picture(&other, Viewer::Referee),
        "the control: the games differ"
    );
    assert_eq!(picture(&game, VIEWERS[2]), picture(&other, VIEWERS[2]));
    for seed in 0..8 {
        let (mut a, mut b) = (game.clone(), other.clone());
        a.redeal(Seat(1), seed);
        b.redeal(Seat(1), seed);
        assert_eq!(
            picture(&a, Viewer::Referee),
            picture(&b, Viewer::Referee),
            "seed {seed}"
        );
    }
}

#[test]
fn r57_a_seat_beyond_the_two_sides_sees_only_what_is_out_of_every_reserve() {
    let game = start();
    let onlooker = Viewer::Player(Seat(5));
    let view: serde_json::Value = serde_json::from_str(&game.view_json(onlooker)).expect("JSON");
    // Red's two counters and Blue's horse stand in their reserves; Blue's
    // column in 5S is out of Blue's, without its pieces (R46).
    assert_eq!(view["offboard"]["reserve"]["Red"], 2);
    assert_eq!(view["offboard"]["reserve"]["Blue"], 1);
    assert_eq!(located(&game, onlooker, "Blue"), [(2, "5S".to_owned())]);
    assert!(view["offboard"]["counters"][0]["pieces"].is_null());
    // The control: the referee sees all four, with their pieces.
    let referee: serde_json::Value =
        serde_json::from_str(&game.view_json(Viewer::Referee)).expect("JSON");
    assert_eq!(
        referee["offboard"]["counters"].as_array().map(Vec::len),
        Some(4)
    );
    // The text too: Red's horse in 1S is listed for the referee only.
    assert!(
        game.draw_text(Viewer::Referee)
            .contains("  1S   R1 (10 cavalry, 1 officer)")
    );
    assert!(!game.draw_text(onlooker).contains("1S   R1"));
}

#[test]
fn r57_the_public_sees_what_an_onlooker_sees_through_the_whole_march() {
    let onlooker = Viewer::Player(Seat(5));
    let mut game = start();
    let (mut differs_from_red, mut differs_from_blue) = (false, false);
    for (line, command) in record() {
        let seat = next_seat(&game).expect("the record ends before the battle");
        let mut events = Vec::new();
        game.apply_into(seat, &command, &mut events)
            .unwrap_or_else(|e| panic!("line {line}: `{command}`: {e}"));
        let public = picture(&game, Viewer::Public);
        assert_eq!(public, picture(&game, onlooker), "line {line}");
        assert_eq!(
            game.command_for(seat, &command, Viewer::Public),
            game.command_for(seat, &command, onlooker),
            "line {line}"
        );
        for e in &events {
            assert_eq!(
                game.describe_for(e, Viewer::Public),
                game.describe_for(e, onlooker),
                "line {line}"
            );
        }
        differs_from_red |= public != picture(&game, Viewer::Player(Seat(0)));
        differs_from_blue |= public != picture(&game, Viewer::Player(Seat(1)));
    }
    // The control: the public holds less than each side somewhere.
    assert!(differs_from_red && differs_from_blue);
}

#[test]
fn r47_a_side_with_no_counter_has_its_orders_sealed_and_an_empty_ring_goes_straight_to_the_table() {
    use sandtable_core::game::{Decision, Seats};
    let without = |sides: &[usize]| {
        let mut setup = samples::flank_march();
        setup
            .offboard
            .as_mut()
            .expect("the grid")
            .counters
            .retain(|c| !sides.contains(&c.side));
        Game::new(&setup, Dice::seeded(setup.seed)).expect("starts")
    };
    // Blue has none: only Red writes (R46: Blue knows Red sees it has none).
    let mut game = without(&[1]);
    assert_eq!(
        game.decision(),
        Decision::Sealed(Seats::default().with(Seat(0)))
    );
    let events = play(&mut game, &["order 1 hold", "commit"]);
    assert!(
        events.iter().any(
            |e| matches!(e, Event::Ring(r) if matches!(**r, RingEvent::OrdersRevealed { .. }))
        )
    );
    assert_eq!(game.decision(), Decision::One(Seat(0)), "Red's Cannonade");
    // Nobody has any: the game turn opens on the table.
    let game = without(&[0, 1]);
    assert_eq!(game.decision(), Decision::One(Seat(0)));
    assert_eq!(game.phase(), sandtable_warpspawn::Phase::Cannonade);
    // The control: with counters on both sides, both write.
    assert_eq!(
        start().decision(),
        Decision::Sealed(Seats::default().with(Seat(0)).with(Seat(1)))
    );
}

#[test]
fn r47_the_ring_s_status_names_every_side_that_owes_its_sealed_orders() {
    let mut game = start();
    // Both sides owe their orders at once: each viewer reads both names,
    // and the other side's words only as sealed.
    for viewer in [None, Some(0), Some(1)] {
        let status = game.ring_status(viewer).expect("the ring waits");
        assert!(
            status.contains("Red owes its orders") && status.contains("Blue owes its orders"),
            "{viewer:?}: {status}"
        );
        if let Some(v) = viewer {
            let other = ["Red", "Blue"][1 - v];
            assert!(
                status.contains(&format!(
                    "{other} owes its orders for the ring, sealed (R47)"
                )),
                "{viewer:?}: {status}"
            );
        }
    }
    // Red seals its orders: Blue alone owes them now.
    play(&mut game, &["commit"]);
    for viewer in [None, Some(0), Some(1)] {
        let status = game.ring_status(viewer).expect("the ring waits");
        assert!(
            status.contains("Red has committed") && status.contains("Blue owes its orders"),
            "{viewer:?}: {status}"
        );
        assert!(!status.contains("Red owes"), "{viewer:?}: {status}");
    }
}
