//! Who plays each seat of the game in play: a person, or a bot of a
//! strength; how long a bot's command stays on the table; the requests for
//! a hint and for a new game of the same scenario.

use std::time::Duration;

use bevy::prelude::*;
use sandtable_bots::{BotConfig, MAX_STRENGTH};
use sandtable_core::record::SeatPlayer;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seat {
    /// A person at the table.
    #[default]
    Person,
    /// A bot of this strength, 1 (random) to [`MAX_STRENGTH`].
    Bot(u8),
}

/// A game record's `[Seats]` header names each seat's player.
impl From<Seat> for SeatPlayer {
    fn from(seat: Seat) -> SeatPlayer {
        match seat {
            Seat::Person => SeatPlayer::Person,
            Seat::Bot(level) => SeatPlayer::Bot(level),
        }
    }
}

impl From<SeatPlayer> for Seat {
    fn from(player: SeatPlayer) -> Seat {
        match player {
            SeatPlayer::Person => Seat::Person,
            SeatPlayer::Bot(level) => Seat::Bot(level),
        }
    }
}

impl Seat {
    /// Every choice of the players panel, weakest bot first.
    pub fn choices() -> impl Iterator<Item = Seat> {
        std::iter::once(Seat::Person).chain((1..=MAX_STRENGTH).map(Seat::Bot))
    }

    /// The seat as the panel names it.
    pub fn describe(self) -> String {
        match self {
            Seat::Person => "person".to_owned(),
            Seat::Bot(level) => {
                let config = BotConfig::strength(level, 0);
                match config.budget {
                    sandtable_bots::Budget::Within { iterations, time }
                        if config.kind == sandtable_bots::BotKind::Mcts =>
                    {
                        format!(
                            "bot {level}: mcts, {iterations} iterations within {} s",
                            time.as_secs()
                        )
                    }
                    _ => format!("bot {level}: {}", config.kind),
                }
            }
        }
    }
}

/// The seat of every player, in turn order.
#[derive(Resource, Debug, Clone, Default, PartialEq, Eq)]
pub struct Seats(pub Vec<Seat>);

impl Seats {
    /// The seat of the player at `index` in turn order (a person when the
    /// list is short).
    pub fn of(&self, index: usize) -> Seat {
        self.0.get(index).copied().unwrap_or_default()
    }
}

/// How long a bot's command stays on the table before its next one.
#[derive(Resource, Debug, Clone, Copy, PartialEq, Eq)]
pub struct BotPace(pub Duration);

impl Default for BotPace {
    fn default() -> Self {
        BotPace(Duration::from_millis(700))
    }
}

/// Whether the bots wait: a game between bots stopped to look at, until
/// it goes on ([`BotPace`] its pace then).
#[derive(Resource, Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct BotsPaused(pub bool);

/// The paces a person may watch bots at: a step a second, the table's own
/// (the default), as fast as the table draws.
pub const BOT_PACES: [(&str, Duration); 3] = [
    ("a step a second", Duration::from_secs(1)),
    ("the table's pace", Duration::from_millis(700)),
    ("as fast as the table draws", Duration::ZERO),
];

/// Ask for a hint for the person to move.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintRequest;

/// Start the scenario in play again from its setup, keeping the seats.
#[derive(Message, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NewGameRequest {
    /// The person said the game in play may go with its unsaved moves.
    pub discard_unsaved: bool,
}

/// The strength a hint thinks with.
pub const HINT_STRENGTH: u8 = 3;
