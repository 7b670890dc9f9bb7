//! The game contract end to end on Sealed Bids, a game that exists only in
//! the tests: sealed decisions revealed together, hidden hands, dice, an
//! answer owed by the player who did not move. The CLI's library replays
//! and plays its records with scripted dice (`--dice`, `[Dice]`) and prints
//! one player's view (`--as`); the contract's random bot and its search
//! play it; undo stops at its reveal.

mod sealed_bids;

use std::path::Path;

use sandtable_cli::{Bot, Seeing, apply_record, output, play_bots, record_of, show_text};
use sandtable_core::dice::Dice;
use sandtable_core::game::{Decision, Ending, GameState, Seat, Seats, Viewer, next_seat};
use sandtable_core::record::Record;
use sandtable_core::undo::Undoable;
use sealed_bids::{Cmd, SealedBids};

/// North is dealt 5 2 6 and South 3 2 4; then the rolls of the game below.
const ROLLS: &str = "5,2,6,3,2,4,4,6,5,3,2";

/// A whole game: North wins round 1 but South's challenge (a 6) takes the
/// prize of 4; round 2's equal bids go to South by the coin (a 5) and North
/// concedes 3; North wins round 3 and South concedes 2.
const GAME: &str = "\
bid 5
bid 3
challenge
bid 2
bid 2
concede
bid 6
bid 4
concede
";

fn seeing(dice: Option<&str>, player: Option<&str>) -> Seeing {
    Seeing {
        dice: dice.map(str::to_owned),
        as_player: player.map(str::to_owned),
    }
}

fn start(seeing: &Seeing, record: Option<&Record<Cmd>>) -> SealedBids {
    let dice = seeing
        .dice(7, record.map(|r| (r, Path::new("game.moves"))))
        .unwrap_or_else(|f| panic!("{}", f.message));
    SealedBids::new(dice).expect("enough dice to deal")
}

fn view(game: &SealedBids, viewer: Viewer) -> serde_json::Value {
    serde_json::from_str(&game.view_json(viewer)).expect("JSON")
}

fn replayed(record: &Record<Cmd>, dice: Option<&str>) -> (SealedBids, String) {
    let mut game = start(&seeing(dice, None), Some(record));
    let mut log = String::new();
    apply_record(
        &mut game,
        record,
        Path::new("game.moves"),
        Some((&mut log, Viewer::Referee)),
    )
    .unwrap_or_else(|f| panic!("{}", f.message));
    (game, log)
}

#[test]
fn a_whole_game_replays_with_scripted_dice_and_ends_with_the_scores() {
    let record = Record::<Cmd>::parse(GAME).expect("the notation reads");
    let (game, log) = replayed(&record, Some(ROLLS));
    assert_eq!(game.scores(), [2, 7]);
    assert_eq!(game.decision(), Decision::Over(Ending::Won(Seat(1))));
    assert_eq!(game.dice().left(), Some(0), "every roll used");
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(
        &lines[..7],
        [
            "   1  bid 5",
            "        North bids, sealed",
            "   2  bid 3",
            "        South bids, sealed",
            "        revealed: North 5, South 3",
            "        North wins the round and rolls 4 for the prize",
            "   3  challenge",
        ]
    );
    assert!(
        log.contains("equal bids: the coin shows 5, for South"),
        "{log}"
    );
    assert!(
        log.ends_with("        conceded: North scores 2\n        the game is over\n"),
        "{log}"
    );
    // The same rolls from a `[Dice]` header: the record written replays roll
    // for roll.
    let written = record_of(
        &game,
        vec![("Seed".into(), "7".into())],
        record.command_list(),
    );
    let text = written.to_string();
    assert!(
        text.starts_with("[Seed \"7\"]\n[Dice \"5 2 6 3 2 4 4 6 5 3 2\"]\nbid 5\n"),
        "{text}"
    );
    let back = Record::<Cmd>::parse(&text).expect("reads back");
    let (again, _) = replayed(&back, None);
    assert_eq!(again.state_hash(), game.state_hash());
    assert_eq!(
        output(&again, Viewer::Referee, true, ""),
        output(&game, Viewer::Referee, true, "")
    );
}

#[test]
fn a_command_after_the_end_is_refused_by_the_system_with_its_line() {
    let record = Record::<Cmd>::parse(&format!("{GAME}challenge\n")).expect("reads");
    let mut game = start(&seeing(Some(ROLLS), None), Some(&record));
    let err = apply_record(&mut game, &record, Path::new("game.moves"), None).unwrap_err();
    assert_eq!(
        err.message,
        "game.moves:10: `challenge` is illegal: the game is over (R904)"
    );
    assert_eq!(err.code, 2);
}

#[test]
fn sealed_bids_are_owed_together_and_a_players_view_lacks_the_others_secrets() {
    let mut game = start(&seeing(Some(ROLLS), None), None);
    let both = Seats::default().with(Seat(0)).with(Seat(1));
    assert_eq!(game.decision(), Decision::Sealed(both));
    game.apply_into(Seat(0), &Cmd::Bid(5), &mut Vec::new())
        .unwrap();
    assert_eq!(
        game.decision(),
        Decision::Sealed(Seats::default().with(Seat(1)))
    );
    let north = view(&game, Viewer::Player(Seat(0)));
    let south = view(&game, Viewer::Player(Seat(1)));
    let referee = view(&game, Viewer::Referee);
    assert_eq!(north["players"][0]["hand"], serde_json::json!([2, 6]));
    assert_eq!(north["players"][0]["bid"], 5);
    assert_eq!(
        north["players"][1].get("hand"),
        None,
        "North does not see South's hand"
    );
    assert_eq!(north["players"][1]["cards"], 3);
    assert_eq!(
        south["players"][0].get("bid"),
        None,
        "South does not see North's sealed bid"
    );
    assert_eq!(south["players"][0]["bid_in"], true, "only that it is in");
    assert_eq!(south["players"][0].get("hand"), None);
    assert_eq!(south["players"][1]["hand"], serde_json::json!([3, 2, 4]));
    assert_eq!(referee["players"][0]["bid"], 5);
    assert_eq!(referee["players"][1]["hand"], serde_json::json!([3, 2, 4]));
    // The text `show` and `play` print keeps the same secrets.
    assert_eq!(
        show_text("Sealed Bids", &game, Viewer::Player(Seat(1))),
        "Sealed Bids\n\n\
         North: score 0, 2 cards, a sealed bid\n\
         South: score 0, hand 3 2 4, no bid\n\
         sealed bids owed by South\n"
    );
    assert_eq!(
        output(&game, Viewer::Referee, false, "   1  bid 5\n"),
        "   1  bid 5\n\n\
         North: score 0, hand 2 6, bid 5\n\
         South: score 0, hand 3 2 4, no bid\n\
         sealed bids owed by South\n"
    );
    // A log line of the sealed bid: South may not read the card.
    let bid =
        |game: &SealedBids, seat, card, viewer| game.command_for(seat, &Cmd::Bid(card), viewer);
    assert_eq!(bid(&game, Seat(0), 5, Viewer::Player(Seat(1))), None);
    assert_eq!(
        bid(&game, Seat(0), 5, Viewer::Player(Seat(0))).as_deref(),
        Some("bid 5")
    );
    assert_eq!(
        bid(&game, Seat(0), 5, Viewer::Referee).as_deref(),
        Some("bid 5")
    );
    // Revealed together: then both see both bids.
    game.apply_into(Seat(1), &Cmd::Bid(3), &mut Vec::new())
        .unwrap();
    assert_eq!(
        bid(&game, Seat(1), 3, Viewer::Player(Seat(0))).as_deref(),
        Some("bid 3")
    );
    for seat in [Seat(0), Seat(1)] {
        assert_eq!(
            view(&game, Viewer::Player(seat))["revealed"],
            serde_json::json!([[5, 3]])
        );
    }
    // The CLI's --as names a player, and refuses a stranger.
    assert_eq!(
        seeing(None, Some("South")).viewer(&game).unwrap(),
        Viewer::Player(Seat(1))
    );
    let err = seeing(None, Some("East")).viewer(&game).unwrap_err();
    assert_eq!(
        err.message,
        "--as \"East\": no such player; the players are \"North\", \"South\", and `public` is every player's view"
    );
    assert_eq!(err.code, 1);
}

#[test]
fn the_loser_owes_the_answer_and_its_odds_match_every_roll() {
    let mut game = start(&seeing(Some(ROLLS), None), None);
    let mut events = Vec::new();
    game.apply_into(Seat(0), &Cmd::Bid(5), &mut events).unwrap();
    game.apply_into(Seat(1), &Cmd::Bid(3), &mut events).unwrap();
    // North won the round: South, who did not win, owes the answer.
    assert_eq!(game.decision(), Decision::One(Seat(1)));
    assert_eq!(next_seat(&game), Some(Seat(1)));
    let refused = game.check(Seat(0), &Cmd::Concede).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "North won the round: the loser answers (R903)"
    );
    let mut legal = Vec::new();
    game.legal_into(Seat(1), &mut legal);
    let listed: Vec<Cmd> = legal.iter().map(|l| l.command).collect();
    assert_eq!(listed, [Cmd::Concede, Cmd::Challenge]);
    // The odds of a challenge, against every roll of the die played out.
    let odds = game.odds(Seat(1), &Cmd::Challenge);
    assert_eq!(odds.len(), 1, "one die decides it");
    let odds = &odds[0];
    let mut challenger_wins = 0;
    for roll in 1..=6u8 {
        let mut rolls: Vec<u8> = ROLLS.split(',').map(|r| r.parse().unwrap()).collect();
        rolls[7] = roll;
        let mut forced = SealedBids::new(Dice::scripted(rolls)).unwrap();
        forced
            .apply_into(Seat(0), &Cmd::Bid(5), &mut events)
            .unwrap();
        forced
            .apply_into(Seat(1), &Cmd::Bid(3), &mut events)
            .unwrap();
        forced
            .apply_into(Seat(1), &Cmd::Challenge, &mut events)
            .unwrap();
        if forced.scores()[1] > 0 {
            challenger_wins += 1;
        }
    }
    assert_eq!(
        odds.outcomes[0].1.num * 6 / odds.outcomes[0].1.den,
        challenger_wins
    );
    assert_eq!(
        odds.outcomes[1].1.num * 6 / odds.outcomes[1].1.den,
        6 - challenger_wins
    );
    assert!(
        game.odds(Seat(1), &Cmd::Concede).is_empty(),
        "no dice decide a concession"
    );
}

#[test]
fn undo_takes_back_a_sealed_bid_but_never_goes_back_past_the_reveal() {
    let mut game = Undoable::new(start(&seeing(Some(ROLLS), None), None));
    let fresh = game.clone();
    game.apply(Seat(0), &Cmd::Bid(6)).unwrap();
    assert_eq!(game.undo(), Ok(Cmd::Bid(6)));
    assert_eq!(game, fresh, "undo restores the state exactly");
    game.apply(Seat(0), &Cmd::Bid(5)).unwrap();
    let applied = game
        .apply_into(Seat(1), &Cmd::Bid(3), &mut Vec::new())
        .unwrap();
    assert_eq!(applied.barrier, Some(sandtable_core::game::Barrier::Reveal));
    let before = game.clone();
    assert_eq!(
        game.undo(),
        Err("undo never goes back past a reveal or a roll (R31)".to_owned())
    );
    assert_eq!(game, before);
}

#[test]
fn scripted_dice_that_run_out_stop_the_record_with_its_line_and_change_nothing() {
    let record = Record::<Cmd>::parse(GAME).unwrap();
    // Enough to deal, not to reveal: the reveal's prize roll is missing.
    let mut game = start(&seeing(Some("5,2,6,3,2,4"), None), None);
    let err = apply_record(&mut game, &record, Path::new("game.moves"), None).unwrap_err();
    assert_eq!(err.code, 2);
    assert_eq!(
        err.message,
        "game.moves:2: `bid 3` cannot be played: the scripted dice have run out: 1 more roll is needed and none is left (R30); give more rolls with --dice"
    );
    // The game stands where line 1 left it: North's bid in, South's not.
    assert_eq!(
        game.decision(),
        Decision::Sealed(Seats::default().with(Seat(1)))
    );
    assert_eq!(
        view(&game, Viewer::Referee)["players"][1]["hand"],
        serde_json::json!([3, 2, 4])
    );
    // Too few to deal at all.
    assert_eq!(
        SealedBids::new(Dice::scripted(vec![1, 2])).unwrap_err(),
        "dealing the hands: the scripted dice have run out: 1 more roll is needed and none is left"
    );
    // A bad roll on the command line is refused before anything starts.
    let bad = seeing(Some("5,9"), None).dice::<Cmd>(7, None).unwrap_err();
    assert_eq!(
        (bad.code, bad.message.as_str()),
        (1, "--dice 5,9: roll 2 is \"9\": a die reads 1 to 6 (R30)")
    );
}

#[test]
fn bots_play_whole_games_and_their_records_replay() {
    for seed in 0..20 {
        let mut game = SealedBids::new(Dice::seeded(seed)).unwrap();
        let start_game = game.clone();
        let mut log = String::new();
        let bots = [Some(Bot::Random), Some(Bot::Mcts(60))];
        let mut played = Vec::new();
        play_bots(&mut game, &mut played, &bots, seed, &mut log)
            .unwrap_or_else(|f| panic!("seed {seed}: {}", f.message));
        assert!(
            matches!(game.decision(), Decision::Over(_)),
            "seed {seed}:\n{log}"
        );
        assert!(played.len() >= 9, "three rounds of two bids and an answer");
        let mut again = start_game.clone();
        let record = record_of(&again, Vec::new(), played.clone());
        apply_record(&mut again, &record, Path::new("bots.moves"), None)
            .unwrap_or_else(|f| panic!("{}", f.message));
        assert_eq!(again.state_hash(), game.state_hash(), "seed {seed}");
        // The same seeds play the same game.
        let mut twin = start_game;
        let mut twin_played = Vec::new();
        play_bots(&mut twin, &mut twin_played, &bots, seed, &mut String::new())
            .unwrap_or_else(|f| panic!("seed {seed}: {}", f.message));
        assert_eq!(twin_played, played, "seed {seed}");
    }
}

#[test]
fn the_search_never_peeks_at_the_hidden_hand() {
    // North sees the same in both games; only South's hidden cards differ.
    let a = SealedBids::new(Dice::scripted(vec![5, 2, 6, 3, 2, 4, 1, 1, 1, 1])).unwrap();
    let b = SealedBids::new(Dice::scripted(vec![5, 2, 6, 6, 6, 6, 1, 1, 1, 1])).unwrap();
    assert_eq!(
        view(&a, Viewer::Player(Seat(0))),
        view(&b, Viewer::Player(Seat(0)))
    );
    for seed in 0..5 {
        let pick = |g: &SealedBids| sandtable_bots::contract::mcts(g, Seat(0), 200, seed);
        assert_eq!(pick(&a), pick(&b), "seed {seed}");
        assert!(pick(&a).is_some());
    }
    // South answers a sealed bid it cannot see: North's 6 in one game, 2 in
    // the other. A search that peeked would bid low against the 6 and win
    // cheaply against the 2.
    let deal = vec![6, 2, 5, 3, 2, 4, 1, 1, 1, 1];
    let mut high = SealedBids::new(Dice::scripted(deal.clone())).unwrap();
    high.apply_into(Seat(0), &Cmd::Bid(6), &mut Vec::new())
        .unwrap();
    let mut low = SealedBids::new(Dice::scripted(deal)).unwrap();
    low.apply_into(Seat(0), &Cmd::Bid(2), &mut Vec::new())
        .unwrap();
    assert_eq!(
        view(&high, Viewer::Player(Seat(1))),
        view(&low, Viewer::Player(Seat(1)))
    );
    assert_ne!(view(&high, Viewer::Referee), view(&low, Viewer::Referee));
    for seed in 0..5 {
        let pick = |g: &SealedBids| sandtable_bots::contract::mcts(g, Seat(1), 300, seed);
        assert_eq!(pick(&high), pick(&low), "seed {seed}");
    }
    // A seat that owes nothing gets nothing; a finished game neither.
    let (over, _) = replayed(&Record::parse(GAME).unwrap(), Some(ROLLS));
    assert_eq!(sandtable_bots::contract::mcts(&over, Seat(0), 50, 1), None);
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(1);
    assert_eq!(
        sandtable_bots::contract::random(&over, Seat(1), &mut rng),
        None
    );
}

#[test]
fn the_search_takes_the_sure_round_when_it_can() {
    // North holds 6 6 6 against South's 1 1 1: every bid wins. Once North's
    // 6 has won and South must answer, challenging (2 in 6 for the prize)
    // beats conceding it outright; the search finds that.
    let mut game = SealedBids::new(Dice::scripted(vec![6, 6, 6, 1, 1, 1, 3, 3])).unwrap();
    game.apply_into(Seat(0), &Cmd::Bid(6), &mut Vec::new())
        .unwrap();
    game.apply_into(Seat(1), &Cmd::Bid(1), &mut Vec::new())
        .unwrap();
    assert_eq!(game.decision(), Decision::One(Seat(1)));
    let choice = sandtable_bots::contract::mcts(&game, Seat(1), 400, 3);
    assert_eq!(choice, Some(Cmd::Challenge));
}
