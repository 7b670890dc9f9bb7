//! The off-board grid on the table, headless (`MinimalPlugins` with
//! Sandtable's logic, no window, so no panel is drawn): the flank march
//! played by the requests the mouse and the panel's buttons make, through
//! an Orders phase written square by square, fire at a counter, an entry,
//! a fight with forces committed and a fall-back clicked, and a march off
//! dragged onto the ring. At every step, what the table holds for the
//! person at it (every entity of the ring and the map, the log as they
//! read it, the notice, the hover labels of squares and hexes, the ring's
//! status, the choices and the dice tray: what the panel and labels are
//! drawn from) is the same whatever the other side's secrets are (R46,
//! R51, R55, R57): the game is played
//! twice, once with Blue's horse and reserve as shipped and once with
//! another horse, another reserve and another path for it, and the two
//! tables are compared while Red looks. A control compares them as the
//! referee, who sees the difference.

mod common;

use bevy::prelude::*;
use sandtable::session::StartTurn;
use sandtable::warpspawn::play::{BattleChoices, BattleDrag, BattleInput};
use sandtable::warpspawn::ring::{
    CounterToken, ReserveTray, RingTile, TickInput, TickPace, TickShow,
};
use sandtable::warpspawn::ring_play::{RingInput, RingPick};
use sandtable::warpspawn::table::{BattlePiece, Formation};
use sandtable::warpspawn::{ActiveBattle, BattleLoaded};
use sandtable_core::game::{Seat, Viewer};
use sandtable_scenario::Loaded;
use sandtable_scenario::battle::Battle;
use sandtable_warpspawn::offboard::command::Order;
use sandtable_warpspawn::offboard::ring::Square;
use sandtable_warpspawn::{Command, Hex};

fn flank_march() -> Battle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn/flank-march.ron");
    let Ok(Loaded::Warpspawn(battle)) = sandtable_scenario::load_any(&path) else {
        panic!("the flank march is a battle");
    };
    battle
}

/// The flank march with Blue's secrets changed: its horse holds other
/// pieces, and its reserve has two more squares far from any counter.
fn other_secrets() -> Battle {
    let mut battle = flank_march();
    let offboard = battle.setup.offboard.as_mut().expect("a grid");
    let horse = offboard
        .counters
        .iter_mut()
        .find(|c| c.side == 1 && c.number == 1)
        .expect("Blue's horse");
    horse.pieces.cavalry = 7;
    horse.pieces.officers = 2;
    let ring = sandtable_warpspawn::offboard::ring::Ring::new(battle.setup.map, offboard.span)
        .expect("a ring");
    let mut blue: Vec<Square> = ring.default_reserve(battle.setup.sides[1].home);
    blue.extend(["8A", "9A"].map(sq));
    offboard.reserves = vec![None, Some(blue)];
    battle
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

fn hex(name: &str) -> Hex {
    name.parse().expect("a hex")
}

fn app_of(battle: Battle) -> App {
    app_with_pace(battle, 0.0)
}

/// A table of `battle` whose ring's moves are played out a tick each
/// `pace` seconds (0: at once, so that two tables agree frame by frame).
fn app_with_pace(battle: Battle, pace: f32) -> App {
    let mut app = App::new();
    // The table's clicks and drags, as the window's picking makes them.
    app.add_plugins(MinimalPlugins).add_plugins((
        sandtable::logic_plugin,
        sandtable::cache::picking::click_plugin,
    ));
    app.insert_resource(TickPace(pace));
    app.insert_resource(ActiveBattle::new(battle).expect("it starts"));
    app.world_mut().write_message(BattleLoaded);
    app.update();
    app
}

fn all<T: Component + Clone>(app: &mut App) -> Vec<T> {
    app.world_mut()
        .query::<&T>()
        .iter(app.world())
        .cloned()
        .collect()
}

/// Plays commands in the notation through the panel's requests, taking the
/// table for each person behind the curtain as it comes; a hand-over after
/// the last is left waiting.
fn play_texts(app: &mut App, texts: &[&str]) {
    for text in texts {
        take_if_handed(app);
        let command: Command = text.parse().expect("a command");
        app.world_mut().write_message(BattleInput::Command(command));
        app.update();
    }
}

/// The person the table is handed to takes it.
fn take_if_handed(app: &mut App) {
    if app.world().resource::<ActiveBattle>().curtain() {
        app.world_mut().write_message(StartTurn);
        app.update();
    }
}

/// Whether every token of Red's on the table shows no pieces.
fn red_pieces_hidden(app: &mut App) -> bool {
    all::<CounterToken>(app)
        .iter()
        .filter(|t| t.side == 0)
        .all(|t| t.pieces.is_none())
}

/// The last command of the record, in the notation.
fn last_played(app: &App) -> Option<String> {
    app.world()
        .resource::<ActiveBattle>()
        .record
        .last()
        .map(ToString::to_string)
}

/// Every entity's `T` in words, sorted.
fn described<T: Component + Clone + std::fmt::Debug>(app: &mut App) -> Vec<String> {
    let mut out: Vec<String> = all::<T>(app).iter().map(|t| format!("{t:?}")).collect();
    out.sort();
    out
}

/// Everything the table holds for the person at it, in words: every entity
/// of the ring and the map, the log as they read it, the notice, the label
/// of every square and hex, the ring's status, and, with no curtain up, the
/// choices listed and the dice tray.
fn screen(app: &mut App) -> String {
    let mut parts: Vec<String> = Vec::new();
    parts.extend(described::<RingTile>(app));
    parts.extend(described::<CounterToken>(app));
    parts.extend(described::<ReserveTray>(app));
    parts.extend(described::<Formation>(app));
    parts.extend(described::<BattlePiece>(app));
    let active = app.world().resource::<ActiveBattle>();
    let viewer = active.viewer;
    parts.extend(
        active
            .log
            .iter()
            .filter_map(|l| l.shown_to(viewer).map(str::to_owned)),
    );
    parts.push(common::notice(app));
    let game = &*active.game;
    parts.push(format!(
        "{:?}",
        game.ring_status(sandtable::warpspawn::ring::viewer_index(viewer))
    ));
    let g = game.grid().expect("a grid");
    for s in g.grid.ring.squares() {
        parts.push(format!("{:?}", active.describe(s.spot())));
    }
    for h in game.battle().map.hexes() {
        parts.push(format!("{:?}", active.describe(h.spot())));
    }
    if !active.curtain() {
        parts.push(format!("{:?}", active.extra.rolls));
        let choices = app.world().resource::<BattleChoices>();
        parts.push(format!(
            "{:?} {:?} {:?}",
            choices.side,
            choices.movers,
            choices
                .choices
                .iter()
                .map(|c| (c.command.to_string(), c.odds.clone(), c.refused.clone()))
                .collect::<Vec<_>>()
        ));
    }
    parts.join("\n")
}

/// The same requests sent to both tables, one frame each.
struct Two {
    shipped: App,
    other: App,
}

impl Two {
    fn new() -> Two {
        Two {
            shipped: app_of(flank_march()),
            other: app_of(other_secrets()),
        }
    }

    fn ring(&mut self, input: RingInput) {
        for app in [&mut self.shipped, &mut self.other] {
            app.world_mut().write_message(input);
            app.update();
        }
    }

    fn battle(&mut self, input: BattleInput) {
        for app in [&mut self.shipped, &mut self.other] {
            app.world_mut().write_message(input);
            app.update();
        }
    }

    fn command(&mut self, text: &str) {
        let command: Command = text.parse().expect("a command");
        self.battle(BattleInput::Command(command));
        for app in [&self.shipped, &self.other] {
            let last = app
                .world()
                .resource::<ActiveBattle>()
                .record
                .last()
                .copied();
            assert_eq!(last, Some(command), "`{text}`: {}", common::notice(app));
        }
    }

    fn take_table(&mut self) {
        for app in [&mut self.shipped, &mut self.other] {
            app.world_mut().write_message(StartTurn);
            app.update();
        }
    }

    /// A path written square by square by clicks, then given.
    fn path(&mut self, counter: u16, squares: &[&str], scout: bool) {
        self.ring(RingInput::Select(counter));
        if scout {
            self.ring(RingInput::Scout(true));
        }
        for s in squares {
            self.ring(RingInput::Square(sq(s)));
        }
        for app in [&self.shipped, &self.other] {
            let pick = app.world().resource::<RingPick>();
            assert_eq!(
                pick.path,
                squares.iter().map(|s| sq(s)).collect::<Vec<_>>(),
                "{}",
                common::notice(app)
            );
        }
        self.ring(RingInput::GivePath);
    }

    fn viewer(&self) -> Viewer {
        self.shipped.world().resource::<ActiveBattle>().viewer
    }

    /// While Red is at the table, it sees the same on both: Blue's secrets
    /// reach nothing on the screen. The referee, on copies, sees them.
    fn red_sees_no_difference(&mut self, when: &str) {
        assert_eq!(self.viewer(), Viewer::Player(Seat(0)), "{when}: Red looks");
        let (a, b) = (screen(&mut self.shipped), screen(&mut self.other));
        if a != b {
            let diff: Vec<(&str, &str)> = a
                .lines()
                .zip(b.lines())
                .filter(|(x, y)| x != y)
                .take(5)
                .collect();
            panic!("{when}: Blue's secrets reach Red's table: {diff:#?}");
        }
    }
}

/// The referee's view of a table, for the control.
fn as_referee(app: &mut App) -> String {
    app.world_mut().resource_mut::<ActiveBattle>().viewer = Viewer::Referee;
    app.world_mut()
        .resource_mut::<ActiveBattle>()
        .bypass_change_detection();
    // A new revision makes the ring follow the viewer.
    app.world_mut().resource_mut::<ActiveBattle>().revision += 1;
    app.update();
    screen(app)
}

#[test]
fn r46_r51_r55_r57_a_flank_march_played_by_the_mouse_shows_red_nothing_of_blue_s_secrets() {
    let mut two = Two::new();
    // The ring is laid: every square of the lattice's ring, one entity each
    // (R40), and the table frames it.
    {
        let app = &mut two.shipped;
        let game = app.world().resource::<ActiveBattle>().game.clone();
        let ring = game.grid().expect("a grid").grid.ring;
        let tiles: Vec<RingTile> = all(app);
        assert_eq!(tiles.len(), ring.squares().count());
        let extent = app
            .world()
            .resource::<sandtable::table::TableShown>()
            .extent
            .expect("framed");
        assert!(
            extent.y > 12.5 + 4.0,
            "the ring's rows are framed: {extent}"
        );
    }
    // The game opens behind the curtain, for Red (R47).
    assert!(two.shipped.world().resource::<ActiveBattle>().curtain());
    two.take_table();
    two.red_sees_no_difference("Red takes the table");
    {
        // Red sees its own reserve tinted, never Blue's (R42, R57); its own
        // counters with their pieces, Blue's column out of its reserve by
        // number and square only (R46), Blue's horse as a count.
        let app = &mut two.shipped;
        let tiles: Vec<RingTile> = all(app);
        assert!(tiles.iter().any(|t| t.reserve == Some(0)));
        assert!(tiles.iter().all(|t| t.reserve != Some(1)));
        let tokens: Vec<CounterToken> = all(app);
        let blue: Vec<&CounterToken> = tokens.iter().filter(|t| t.side == 1).collect();
        assert_eq!(blue.len(), 1, "{tokens:?}");
        assert_eq!(
            (blue[0].number, blue[0].square, blue[0].pieces),
            (2, sq("5S"), None)
        );
        assert!(
            tokens
                .iter()
                .filter(|t| t.side == 0)
                .all(|t| t.pieces.is_some())
        );
        let trays: Vec<ReserveTray> = all(app);
        assert!(
            trays.iter().any(|t| t.side == 1 && t.count == 1),
            "{trays:?}"
        );
    }
    // Red writes its orders by the mouse: a split from the panel, paths by
    // clicks, a scout, an entry.
    two.command("split 1 cav 4");
    two.path(1, &["2S", "3S"], false);
    two.path(3, &["2S", "3S"], true);
    // A square the path may not take is refused there, with its ruling,
    // and the path stays as it was.
    // Red's foot moves two squares behind its lines (R44): a third is
    // refused.
    two.ring(RingInput::Select(2));
    two.ring(RingInput::Square(sq("2M")));
    two.ring(RingInput::Square(sq("2L")));
    two.ring(RingInput::Square(sq("2K")));
    let refused = common::notice(&two.shipped);
    assert!(
        refused.starts_with("2K: ") && refused.contains("R44"),
        "{refused}"
    );
    // The square is shown refused on the mat.
    assert_eq!(
        two.shipped.world().resource::<RingPick>().refused,
        Some(sq("2K"))
    );
    assert_eq!(
        two.shipped.world().resource::<RingPick>().path,
        vec![sq("2M"), sq("2L")]
    );
    two.ring(RingInput::Give(Order::Enter));
    {
        let active = two.shipped.world().resource::<ActiveBattle>();
        let orders: Vec<String> = active.record.iter().map(ToString::to_string).collect();
        assert_eq!(
            orders,
            [
                "split 1 cav 4",
                "order 1 2S 3S",
                "order 3 2S 3S scout",
                "order 2 enter"
            ]
        );
    }
    two.red_sees_no_difference("Red has written its orders");
    two.command("commit");
    // The table goes to Blue behind the curtain; Red's screen still shows
    // Red's view until Blue takes it.
    assert!(two.shipped.world().resource::<ActiveBattle>().curtain());
    two.red_sees_no_difference("Red has committed");
    two.take_table();
    assert_eq!(two.viewer(), Viewer::Player(Seat(1)));
    {
        // Blue at the table sees none of Red's sealed orders: Red's
        // counters in its reserve are a count (R46, R47).
        assert!(red_pieces_hidden(&mut two.shipped));
        let log = screen(&mut two.shipped);
        assert!(!log.contains("order 1 2S 3S"), "Blue reads Red's order");
    }
    // Blue's horse takes another path on each table: the shipped one down
    // its flank, the other one round a square further in.
    two.ring(RingInput::Select(2));
    two.ring(RingInput::Give(Order::Hold));
    for (app, path) in [
        (&mut two.shipped, ["15S", "14S"]),
        (&mut two.other, ["15R", "14S"]),
    ] {
        app.world_mut().write_message(RingInput::Select(1));
        app.update();
        for s in path {
            app.world_mut().write_message(RingInput::Square(sq(s)));
            app.update();
        }
        app.world_mut().write_message(RingInput::GivePath);
        app.update();
    }
    two.command("commit");
    // The orders are revealed and the ring moves: the table is Red's again.
    two.take_table();
    two.red_sees_no_difference("the ring has moved");
    // The Cannonade: Red's cannon aims at Blue's column, seen from the map
    // (R55), and fires (R56).
    two.battle(BattleInput::Click(hex("L2")));
    two.ring(RingInput::Square(sq("5S")));
    assert_eq!(
        two.shipped.world().resource::<RingPick>().aim,
        Some(sq("5S"))
    );
    two.command("fire L2 5S 2");
    two.red_sees_no_difference("Red has fired at the column");
    two.command("end");
    // The March: Red's foot, ordered to enter, is picked by its token, then
    // comes on at L1 by a click (R48).
    two.ring(RingInput::Square(sq("2N")));
    assert!(two.shipped.world().resource::<RingPick>().entering);
    // The hexes its square faces are the targets lit (R48).
    let targets: Vec<Hex> = two
        .shipped
        .world()
        .resource::<BattleChoices>()
        .targets
        .iter()
        .map(|t| t.hex)
        .collect();
    assert_eq!(targets, vec![hex("L1")]);
    two.battle(BattleInput::Click(hex("L1")));
    assert!(
        all::<Formation>(&mut two.shipped)
            .iter()
            .any(|f| f.hex == hex("L1") && f.side.0 == 0),
        "{}",
        common::notice(&two.shipped)
    );
    for _ in 0..7 {
        two.command("end");
        if two.shipped.world().resource::<ActiveBattle>().curtain() {
            two.take_table();
        }
    }
    // Game turn 2: Red's horse and scout ride into the column's square.
    assert_eq!(two.viewer(), Viewer::Player(Seat(0)));
    two.red_sees_no_difference("game turn 2 opens");
    two.path(1, &["4S", "5S"], false);
    two.path(3, &["4S", "5S"], true);
    two.command("commit");
    two.take_table();
    two.path(1, &["13S", "12S"], false);
    two.ring(RingInput::Select(2));
    two.ring(RingInput::Give(Order::Hold));
    two.command("commit");
    // The fight: Red commits its forces by the panel's buttons, behind the
    // curtain; what Red set in the panel's forms goes with the hand-over.
    two.take_table();
    two.red_sees_no_difference("the fight begins");
    two.command("forces 1 all");
    two.command("forces 3 all");
    two.red_sees_no_difference("Red has picked its forces");
    two.shipped
        .world_mut()
        .resource_mut::<sandtable::warpspawn::ring_panel::RingForm>()
        .forces = vec![(1, Default::default())];
    two.command("commit");
    two.take_table();
    assert_eq!(
        *two.shipped
            .world()
            .resource::<sandtable::warpspawn::ring_panel::RingForm>(),
        Default::default(),
        "Blue's forms start empty"
    );
    {
        // Blue sees none of Red's forces before it commits its own (R51).
        assert!(red_pieces_hidden(&mut two.shipped));
        let text = screen(&mut two.shipped);
        assert!(!text.contains("forces 1 all"), "Blue reads Red's forces");
    }
    two.command("forces 2 all");
    two.command("commit");
    if two.shipped.world().resource::<ActiveBattle>().curtain() {
        two.take_table();
    }
    two.command("cancel 1");
    if two.shipped.world().resource::<ActiveBattle>().curtain() {
        two.take_table();
    }
    // Beaten, Blue's column falls back: Blue clicks the square (R50).
    assert_eq!(two.viewer(), Viewer::Player(Seat(1)));
    two.ring(RingInput::Square(sq("6S")));
    assert_eq!(last_played(&two.shipped).as_deref(), Some("fallback 6S"));
    if two.shipped.world().resource::<ActiveBattle>().curtain() {
        two.take_table();
    }
    two.red_sees_no_difference("the fight is over");
    two.command("end");
    // The foot that came on marches off again, dragged onto the edge square
    // it faces (R48).
    two.battle(BattleInput::Grab(hex("L1")));
    assert_eq!(
        two.shipped.world().resource::<BattleDrag>().from,
        Some(hex("L1"))
    );
    two.ring(RingInput::DropOn(sq("2N")));
    {
        assert_eq!(
            last_played(&two.shipped).as_deref(),
            Some("march L1 off 2N"),
            "{}",
            common::notice(&two.shipped)
        );
        let tokens: Vec<CounterToken> = all(&mut two.shipped);
        assert!(tokens.iter().any(|t| t.side == 0 && t.square == sq("2N")));
    }
    two.red_sees_no_difference("the foot has marched off");
    // The control: the referee sees Blue's secrets, so the two tables
    // differ for it, and the comparison above could fail.
    let (a, b) = (as_referee(&mut two.shipped), as_referee(&mut two.other));
    assert_ne!(a, b, "the referee sees Blue's horse and reserve");
}

#[test]
fn a_saved_grid_battle_not_over_opens_behind_the_curtain_never_as_the_referee_s() {
    let dir = common::temp_dir("offboard-table", "saved");
    let scenario = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/warpspawn/flank-march.ron");
    let file = dir.join("flank.moves");
    std::fs::write(
        &file,
        format!(
            "[Scenario \"{}\"]\nsplit 1 cav 4\norder 1 2S 3S\ncommit\n",
            scenario.display()
        ),
    )
    .expect("written");
    let opened = sandtable::warpspawn::files::open_battle(&file, None).expect("it opens");
    let active = &opened.active;
    // Not over: it opens behind the curtain for the side that decides
    // next, never as the referee's (R57).
    assert_ne!(active.viewer, Viewer::Referee);
    assert!(active.curtain());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn r49_the_ring_s_move_is_played_out_a_tick_at_a_time() {
    // A pace no test waits for: the show moves on only by its button.
    let mut app = app_with_pace(flank_march(), 1000.0);
    let red_horse = |app: &mut App| {
        all::<CounterToken>(app)
            .into_iter()
            .find(|t| t.side == 0 && t.number == 1)
            .map(|t| t.square)
    };
    play_texts(
        &mut app,
        &["order 1 2S 3S", "commit", "order 1 15S 14S", "commit"],
    );
    // Red takes the table: its own horse's steps are Red's to see (R57).
    take_if_handed(&mut app);
    let show = app.world().resource::<TickShow>().clone();
    assert!(
        show.running() && show.done == 0 && show.ticks == 2,
        "{show:?}"
    );
    // A bot's next command waits for the show's end.
    assert!(
        app.world()
            .resource::<sandtable::session::bots::BotsWait>()
            .0
    );
    // Before the first tick Red's horse stands where its orders found it.
    assert_eq!(red_horse(&mut app), Some(sq("1S")));
    app.world_mut().write_message(TickInput::Next);
    app.update();
    assert_eq!(red_horse(&mut app), Some(sq("2S")));
    app.world_mut().write_message(TickInput::Next);
    app.update();
    assert!(!app.world().resource::<TickShow>().running());
    assert_eq!(red_horse(&mut app), Some(sq("3S")), "where the move ends");
}

#[test]
fn r57_layout_mode_which_shows_both_sides_is_refused_at_the_players_table() {
    use sandtable::mode::{Mode, SetLayoutMode};
    let mut app = app_of(flank_march());
    app.world_mut().write_message(StartTurn);
    app.update();
    let command: Command = "order 1 hold".parse().expect("a command");
    app.world_mut().write_message(BattleInput::Command(command));
    app.update();
    app.world_mut().write_message(SetLayoutMode::ON);
    app.update();
    app.update();
    assert_eq!(*app.world().resource::<State<Mode>>().get(), Mode::Play);
    let notice = common::notice(&app);
    assert!(notice.contains("referee's (R57)"), "{notice}");
    // Not before the first command either: the players are at the table.
    let mut fresh = app_of(flank_march());
    fresh.world_mut().write_message(SetLayoutMode::ON);
    fresh.update();
    fresh.update();
    assert_eq!(*fresh.world().resource::<State<Mode>>().get(), Mode::Play);
    let notice = common::notice(&fresh);
    assert!(notice.contains("referee's (R57)"), "{notice}");
    // The table started in layout mode by its referee (`--layout`) opens
    // it, once: back in play, it is refused again.
    let mut referee = app_of(flank_march());
    referee.insert_resource(sandtable::mode::RefereeLayout);
    referee.world_mut().write_message(SetLayoutMode::ON);
    referee.update();
    referee.update();
    assert_eq!(
        *referee.world().resource::<State<Mode>>().get(),
        Mode::Layout
    );
    referee.world_mut().write_message(SetLayoutMode::OFF);
    referee.update();
    referee.update();
    assert_eq!(*referee.world().resource::<State<Mode>>().get(), Mode::Play);
    referee.world_mut().write_message(SetLayoutMode::ON);
    referee.update();
    referee.update();
    assert_eq!(*referee.world().resource::<State<Mode>>().get(), Mode::Play);
}

#[test]
fn r49_behind_the_curtain_the_ring_s_move_waits_for_the_person_it_is_for() {
    let mut app = app_with_pace(flank_march(), 0.01);
    play_texts(
        &mut app,
        &["order 1 2S 3S", "commit", "order 1 15S 14S", "commit"],
    );
    // Handed to Red: many paces pass, and the show has not begun.
    assert!(app.world().resource::<ActiveBattle>().curtain());
    for _ in 0..5 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        app.update();
    }
    let show = app.world().resource::<TickShow>().clone();
    assert!(show.running() && show.done == 0, "{show:?}");
    // Red takes the table, and the ticks go on by themselves.
    app.world_mut().write_message(StartTurn);
    app.update();
    for _ in 0..10 {
        std::thread::sleep(std::time::Duration::from_millis(20));
        app.update();
    }
    assert!(!app.world().resource::<TickShow>().running());
}

#[test]
fn r44_a_token_dragged_along_its_path_is_given_the_whole_path() {
    let mut app = app_of(flank_march());
    app.world_mut().write_message(StartTurn);
    app.update();
    let send = |app: &mut App, input: RingInput| {
        app.world_mut().write_message(input);
        app.update();
    };
    // Red's horse from 1S: grabbed, over 2S and 3S, let go on 3S.
    send(&mut app, RingInput::Grab(sq("1S")));
    send(&mut app, RingInput::Over(sq("2S")));
    send(&mut app, RingInput::Over(sq("3S")));
    send(&mut app, RingInput::DropOn(sq("3S")));
    send(&mut app, RingInput::Release);
    assert_eq!(
        last_played(&app).as_deref(),
        Some("order 1 2S 3S"),
        "{}",
        common::notice(&app)
    );
    // A drag let go on a square the path may not take gives nothing, and
    // the path written stays with its refusal.
    send(&mut app, RingInput::Grab(sq("2N")));
    send(&mut app, RingInput::Over(sq("2M")));
    send(&mut app, RingInput::Over(sq("2L")));
    send(&mut app, RingInput::DropOn(sq("2K")));
    let pick = app.world().resource::<RingPick>().clone();
    assert_eq!(pick.path, vec![sq("2M"), sq("2L")]);
    assert_eq!(pick.refused, Some(sq("2K")));
    assert_eq!(app.world().resource::<ActiveBattle>().record.len(), 1);
}

#[test]
fn r48_a_counter_picked_to_enter_lets_go_of_a_click_on_a_hex_it_may_not_enter() {
    let mut app = app_of(flank_march());
    play_texts(
        &mut app,
        &[
            "order 1 hold",
            "order 2 enter",
            "commit",
            "order 1 hold",
            "order 2 hold",
            "commit",
            "end",
        ],
    );
    take_if_handed(&mut app);
    // Red's March: its foot in 2N is picked to enter ...
    app.world_mut().write_message(RingInput::Square(sq("2N")));
    app.update();
    assert!(
        app.world().resource::<RingPick>().entering,
        "{}",
        common::notice(&app)
    );
    // ... and a click on a formation elsewhere selects that formation.
    app.world_mut().write_message(BattleInput::Click(hex("C2")));
    app.update();
    assert!(!app.world().resource::<RingPick>().entering);
    assert_eq!(
        app.world()
            .resource::<sandtable::warpspawn::play::BattlePick>()
            .from,
        Some(hex("C2"))
    );
    // Escape lets go of a pick on the ring too.
    app.world_mut().write_message(RingInput::Square(sq("2N")));
    app.update();
    app.world_mut().write_message(BattleInput::Cancel);
    app.update();
    assert_eq!(*app.world().resource::<RingPick>(), RingPick::default());
}

#[test]
fn a_click_on_a_ring_square_reaches_the_ring_and_one_on_a_hex_the_map() {
    use sandtable::picking::{ClickButton, TableClick};
    let mut app = app_of(flank_march());
    take_if_handed(&mut app);
    let click = |app: &mut App, spot| {
        app.world_mut().write_message(TableClick {
            spot,
            on_piece: false,
            button: ClickButton::Primary,
            point: None,
        });
        app.update();
    };
    // Red's horse's square picks the horse for its orders.
    click(&mut app, sq("1S").spot());
    assert_eq!(app.world().resource::<RingPick>().counter, Some(1));
    // A hex is the map's: in the Orders phase the rules say why nothing
    // acts there, and the ring's pick stays.
    click(&mut app, hex("C2").spot());
    let notice = common::notice(&app);
    assert!(notice.starts_with("C2: "), "{notice}");
    assert_eq!(app.world().resource::<RingPick>().counter, Some(1));
}

#[test]
fn r46_r55_r57_the_ring_the_table_draws_for_the_person_at_it_holds_nothing_its_side_may_not_know() {
    use rand::SeedableRng;
    use sandtable_core::game::GameState;
    use sandtable_secrets::Oracle;
    // Hot-seat, both sides people at the table: at every position the
    // table shows, its counters' tokens (side, number, square, pieces)
    // and its tiles' reserve tints, as the person behind the curtain sees
    // them, against the secrets oracle.
    let mut app = app_with_pace(flank_march(), 0.0);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(57);
    let names = ["Red", "Blue"];
    let mut shown = 0;
    for _ in 0..120 {
        take_if_handed(&mut app);
        let active = app.world().resource::<ActiveBattle>();
        let (viewer, game) = (active.viewer, active.game.game().clone());
        let tokens: Vec<CounterToken> = all(&mut app);
        let counters: Vec<serde_json::Value> = tokens
            .iter()
            .map(|t| {
                serde_json::json!({
                    "player": names[t.side],
                    "number": t.number,
                    "square": t.square.to_string(),
                    "pieces": t.pieces.map(|p| p.points()),
                })
            })
            .collect();
        let drawn = serde_json::json!({"offboard": {"counters": counters}});
        let leaks = game.leaks_in_json(viewer, &drawn);
        assert!(leaks.is_empty(), "{viewer:?} is drawn {leaks:?}");
        let own = match viewer {
            Viewer::Player(s) => Some(usize::from(s.0)),
            _ => None,
        };
        for tile in all::<RingTile>(&mut app) {
            assert!(
                tile.reserve.is_none() || tile.reserve == own,
                "{viewer:?} is drawn the enemy's reserve square {} (R42, R57)",
                tile.square
            );
        }
        shown += 1;
        let Some(seat) = sandtable_core::game::next_seat(&game) else {
            break;
        };
        let Some(command) = GameState::random_command(&game, seat, &mut rng) else {
            break;
        };
        app.world_mut().write_message(BattleInput::Command(command));
        app.update();
    }
    assert!(shown > 60, "{shown} positions");
}
