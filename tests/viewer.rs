//! What each player sees at the table, headless: Sealed Bids, a game of
//! the tests that hides each hand and each bid until both are in, joins
//! the table as a system of its own through the contract, and the table's
//! log, its notices and its curtain show each person only their own view.

#[allow(dead_code)]
#[path = "../crates/cli/tests/sealed_bids/mod.rs"]
mod sealed_bids;

use bevy::prelude::*;
use rand::SeedableRng;
use sandtable::hud::HoverLabel;
use sandtable::picking::Hovered;
use sandtable::session::game::{ActiveGame, TableSystem, settle_handover, start_turn};
use sandtable::session::{Notice, ScenarioSource, Seat as TableSeat, Seats, StartTurn};
use sandtable_bots::{BotConfig, Decision, Plays};
use sandtable_core::dice::Dice;
use sandtable_core::game::{GameState, Seat, Spot, Viewer};
use sealed_bids::{Cmd, SealedBids};

/// North is dealt 5 2 6 and South 3 2 4; then the prize roll.
const ROLLS: &str = "5,2,6,3,2,4,4,6,5,3,2";
const NORTH: Seat = Seat(0);
const SOUTH: Seat = Seat(1);

/// Sealed Bids on the table: the contract and nothing of its own.
struct Bids;

/// A bot's bid, played through the table.
#[derive(Message, Debug, Clone, Copy)]
struct BidsBot(#[allow(dead_code)] Cmd);

impl Plays for SealedBids {
    fn decide(&self, seat: Seat, config: &BotConfig) -> Option<Decision<Cmd>> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(config.seed);
        sandtable_bots::contract::random(self, seat, &mut rng).map(|command| Decision {
            command,
            playouts: 0,
            value: None,
        })
    }
}

impl TableSystem for Bids {
    const KEY: &'static str = "sealed-bids";
    type Game = SealedBids;
    type Setup = ();
    type Extra = ();
    type BotRequest = BidsBot;

    fn bot_request(command: Cmd) -> BidsBot {
        BidsBot(command)
    }

    fn bot_seed(_: &ActiveGame<Self>) -> u64 {
        1
    }

    fn loaded(_: &mut World) {}

    /// Nothing of its own: a game that hides anything is handed over
    /// behind the curtain by the table itself.
    fn hand_over(_: &ActiveGame<Self>, _: Seat, _: &[sealed_bids::Happened]) -> Option<Seat> {
        None
    }
}

fn bids_app() -> App {
    let dice = Dice::scripted(sandtable_core::dice::parse_rolls(ROLLS).expect("rolls"));
    let game = SealedBids::new(dice).expect("a deal");
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .add_plugins(sandtable::logic_plugin)
        .add_systems(
            Update,
            (
                start_turn::<Bids>,
                settle_handover::<Bids>,
                sandtable::hud::describe_hovered::<Bids>,
            )
                .chain(),
        )
        .init_resource::<Hovered>()
        .init_resource::<HoverLabel>();
    app.insert_resource(Seats(vec![TableSeat::Person, TableSeat::Person]));
    app.insert_resource(ActiveGame::<Bids>::started(
        game,
        (),
        ScenarioSource::Embedded,
        (),
    ));
    app.update();
    app
}

fn active(app: &App) -> &ActiveGame<Bids> {
    app.world().resource::<ActiveGame<Bids>>()
}

fn play(app: &mut App, command: &str) {
    let command: Cmd = command.parse().expect("a command");
    app.world_mut()
        .resource_mut::<ActiveGame<Bids>>()
        .play(command)
        .expect("a legal command");
    app.update();
}

/// The person the table is handed to takes it.
fn take_table(app: &mut App) {
    app.world_mut().write_message(StartTurn);
    app.update();
}

/// The log as `viewer` reads it on the table (the lines the panel lists).
fn log_as(app: &App, viewer: Viewer) -> Vec<String> {
    let log = &active(app).log;
    let shown = sandtable::hud::shown_lines(log, viewer);
    let lines: Vec<usize> = shown.unwrap_or_else(|| (0..log.len()).collect());
    lines
        .into_iter()
        .filter_map(|i| log[i].shown_to(viewer).map(str::to_owned))
        .collect()
}

#[test]
fn a_sealed_bid_stays_its_bidder_s_until_both_are_in_and_the_curtain_is_up_between() {
    let mut app = bids_app();
    // The game starts behind the curtain, handed to North.
    assert!(active(&app).curtain());
    assert_eq!(active(&app).handover, Some(NORTH));
    take_table(&mut app);
    assert_eq!(
        active(&app).viewer,
        Viewer::Player(NORTH),
        "North sits first"
    );
    assert!(!active(&app).curtain());

    play(&mut app, "bid 5");
    // The control: the referee reads North's card, so the checks below can
    // fail.
    assert!(log_as(&app, Viewer::Referee).contains(&"bid 5".to_owned()));
    assert!(log_as(&app, Viewer::Player(NORTH)).contains(&"bid 5".to_owned()));
    // South reads that North bid, not the card.
    let south = log_as(&app, Viewer::Player(SOUTH));
    assert!(!south.iter().any(|l| l.contains("bid 5")), "{south:?}");
    assert!(
        south.iter().any(|l| l.contains("North bids, sealed")),
        "{south:?}"
    );
    // The table goes to South behind the curtain; until South takes it,
    // it is still North's view (and the screen shows nothing of the game).
    assert!(
        active(&app).curtain(),
        "the curtain is up between the two bids"
    );
    assert_eq!(active(&app).handover, Some(SOUTH));
    assert_eq!(active(&app).viewer, Viewer::Player(NORTH));

    take_table(&mut app);
    assert!(!active(&app).curtain());
    assert_eq!(
        active(&app).viewer,
        Viewer::Player(SOUTH),
        "South took the table"
    );
    let view = log_as(&app, active(&app).viewer);
    assert!(!view.iter().any(|l| l.contains("bid 5")), "{view:?}");

    // Both bids in: revealed together (S1), and the earlier line with them.
    play(&mut app, "bid 3");
    let south = log_as(&app, Viewer::Player(SOUTH));
    assert!(south.contains(&"bid 5".to_owned()), "{south:?}");
    assert!(
        south
            .iter()
            .any(|l| l.contains("revealed: North 5, South 3")),
        "{south:?}"
    );
    let north = log_as(&app, Viewer::Player(NORTH));
    assert!(north.contains(&"bid 3".to_owned()), "{north:?}");
}

#[test]
fn an_undone_sealed_bid_is_not_told_to_the_other_player() {
    let mut app = bids_app();
    take_table(&mut app);
    play(&mut app, "bid 6");
    // North takes the bid back before handing over (R31).
    let mut notice = Notice::default();
    assert!(
        app.world_mut()
            .resource_mut::<ActiveGame<Bids>>()
            .undo(&mut notice)
    );
    assert_eq!(
        notice.text.as_deref(),
        Some("undid `bid 6`"),
        "North reads its own card"
    );
    let south = log_as(&app, Viewer::Player(SOUTH));
    assert!(!south.iter().any(|l| l.contains('6')), "{south:?}");
    assert!(south.contains(&"undo".to_owned()), "{south:?}");
    assert!(log_as(&app, Viewer::Referee).contains(&"undo bid 6".to_owned()));
    // North's view again, and no curtain: the decision is North's own.
    assert!(!active(&app).curtain());
    // The next bid revealed does not tell the one undone.
    play(&mut app, "bid 2");
    take_table(&mut app);
    play(&mut app, "bid 4");
    let south = log_as(&app, Viewer::Player(SOUTH));
    assert!(south.contains(&"bid 2".to_owned()), "{south:?}");
    assert!(!south.iter().any(|l| l.contains('6')), "{south:?}");
}

#[test]
fn a_game_that_hides_nothing_is_shown_as_the_referee_sees_it() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/warpspawn/open-field.ron");
    let Ok(sandtable_scenario::Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path)
    else {
        panic!("a battle");
    };
    let mut battle = sandtable::warpspawn::ActiveBattle::new(battle).expect("it starts");
    assert_eq!(battle.viewer, Viewer::Referee);
    let game = battle.game.game().clone();
    let seat = sandtable_core::game::next_seat(&game).expect("a seat");
    let mut legal = Vec::new();
    game.legal_into(seat, &mut legal);
    battle.play(legal[0].command).expect("a legal command");
    assert!(!battle.curtain());
    assert!(battle.log.iter().all(|l| l.players.is_empty()));
}

/// The label under the pointer over `spot`, as the table writes it.
fn hover(app: &mut App, spot: Spot) -> String {
    app.insert_resource(Hovered(Some(spot)));
    app.update();
    app.world()
        .resource::<HoverLabel>()
        .0
        .clone()
        .expect("a place of the table")
}

#[test]
fn the_label_under_the_pointer_tells_only_what_its_viewer_may_know() {
    // North's place, on the left of the table.
    let north_s = Spot::Point {
        x_mm: 70,
        y_mm: 100,
    };
    let mut app = bids_app();
    take_table(&mut app);
    assert_eq!(
        hover(&mut app, north_s),
        "North: score 0, hand 5 2 6, no bid",
        "North reads its own hand"
    );
    play(&mut app, "bid 5");
    take_table(&mut app);
    assert_eq!(active(&app).viewer, Viewer::Player(SOUTH));
    let label = hover(&mut app, north_s);
    // The card bid has left North's hand; which card, South may not know.
    assert_eq!(
        label, "North: score 0, 2 cards, a sealed bid",
        "South's view"
    );
    // The control: the referee's view of the same place holds the card.
    let referee = active(&app)
        .game
        .game()
        .describe_spot(north_s, Viewer::Referee)
        .expect("a place");
    assert!(referee.contains("bid 5"), "{referee}");
    // Both bids in: the card is shown to both, and the hand stays North's.
    play(&mut app, "bid 3");
    let label = hover(&mut app, north_s);
    assert!(label.ends_with("bids shown 5"), "{label}");
    assert!(label.contains("2 cards"), "{label}");
    // Off the table, nothing is said.
    app.insert_resource(Hovered(Some(Spot::Point { x_mm: 900, y_mm: 0 })));
    app.update();
    assert_eq!(app.world().resource::<HoverLabel>().0, None);
}
