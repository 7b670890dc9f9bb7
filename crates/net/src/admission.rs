//! Who may come in, and where each connection sits: a seat by its code,
//! a spectator's place by the spectator code (or none, where the host
//! allows open watching), or nowhere yet. A connection that claims no
//! place within [`CLAIM_WITHIN`] is dropped; at most
//! [`Limits::unclaimed`] may wait at once and [`Limits::spectators`]
//! watch; a seat's code always gets its seat.
//!
//! The codes come with the connection (its netcode user data, read by
//! the door, [`crate::door`]) or later in a [`crate::Claim`]. What a
//! place lets a client see is the views' ([`crate::SeatOnly`],
//! [`AdmittedOnly`]).

use std::time::Duration;

use bevy::prelude::*;
use bevy_replicon::prelude::*;
use bevy_replicon::shared::backend::connected_client::NetworkId;
use serde::{Deserialize, Serialize};

use crate::door::Door;

/// How long a connection may hold no place before it is dropped.
pub const CLAIM_WITHIN: Duration = Duration::from_secs(5);

/// Who a connection is, as its code says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// A seat's player: its code is the seat's.
    Seat(u16),
    /// A spectator: the spectator code, or none where watching is open.
    Spectator,
    /// Anyone else, until it claims a place.
    Stranger,
}

/// Who may watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Watching {
    /// Those with this code.
    Code(String),
    /// Anyone, without a code.
    Open,
}

/// How many connections may wait for a place, and watch, at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Connections holding no place yet.
    pub unclaimed: usize,
    /// Spectators.
    pub spectators: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            unclaimed: 4,
            spectators: 8,
        }
    }
}

/// The server's admission rules: the seats' codes, who may watch, and
/// the limits.
#[derive(Resource, Debug, Clone, PartialEq, Eq)]
pub struct Admission {
    codes: Vec<String>,
    /// Who may watch.
    pub watching: Watching,
    /// How many may wait and watch.
    pub limits: Limits,
}

impl Admission {
    /// One code a seat (`codes[k]` is seat `k`'s), with who may watch
    /// and the limits.
    pub fn new(codes: Vec<String>, watching: Watching, limits: Limits) -> Admission {
        Admission {
            codes,
            watching,
            limits,
        }
    }

    /// Who a connection carrying `code` is. Codes are compared in a time
    /// that does not depend on where they first differ.
    pub fn kind_of(&self, code: &str) -> Kind {
        if code.len() <= crate::MAX_CODE_BYTES
            && let Some(k) = self.codes.iter().position(|c| same_code(c, code))
        {
            return Kind::Seat(k as u16);
        }
        match &self.watching {
            Watching::Code(c) if same_code(c, code) => Kind::Spectator,
            Watching::Open if code.is_empty() => Kind::Spectator,
            _ => Kind::Stranger,
        }
    }

    /// Whether `code` is seat `seat`'s.
    pub fn is_seat_code(&self, seat: u16, code: &str) -> bool {
        code.len() <= crate::MAX_CODE_BYTES
            && self
                .codes
                .get(usize::from(seat))
                .is_some_and(|c| same_code(c, code))
    }

    /// The code that claims a place: the seat's, or the spectator code
    /// (empty where watching is open).
    pub fn code_of(&self, admitted: Admitted) -> &str {
        match (admitted, &self.watching) {
            (Admitted::Seat(k), _) => self.codes.get(usize::from(k)).map_or("", String::as_str),
            (Admitted::Watching, Watching::Code(code)) => code,
            (Admitted::Watching, Watching::Open) => "",
        }
    }

    /// Netcode slots the door needs: the seats twice over (a player back
    /// on a new connection before the old one timed out), the
    /// spectators and the unclaimed.
    pub fn slots(&self) -> usize {
        2 * self.codes.len() + self.limits.spectators + self.limits.unclaimed
    }
}

/// Whether two codes are the same, in a time that does not depend on
/// where they first differ.
pub(crate) fn same_code(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// On a client's entity on the server: the place it holds.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(immutable)]
pub enum Admitted {
    /// A seat, claimed with its code.
    Seat(u16),
    /// A spectator's place.
    Watching,
}

impl Admitted {
    /// The seat it holds, if it holds one.
    pub fn seat(&self) -> Option<u16> {
        match self {
            Admitted::Seat(k) => Some(*k),
            Admitted::Watching => None,
        }
    }
}

/// On a client's entity on the server: when it connected, or last lost
/// its place, on the real clock. It has [`CLAIM_WITHIN`] from then to
/// claim one.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Arrived(pub Duration);

/// The visibility filter of what every admitted client sees alike (the
/// public entity): seen by seats and spectators, not by a connection
/// that holds no place.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
#[component(immutable)]
pub struct AdmittedOnly;

impl VisibilityFilter for AdmittedOnly {
    type ClientComponent = Admitted;
    type Scope = Entity;

    fn is_visible(&self, _client: Entity, admitted: Option<&Admitted>) -> bool {
        admitted.is_some()
    }
}

/// On a client's entity on the server: who it came as, by the code of
/// its connection (the door read it; without a door, none). It takes
/// that place once replicon has checked its protocol.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Came {
    /// Who the code says it is.
    pub kind: Kind,
    /// It came with a code that is no seat's and not the spectator
    /// code: a mistyped one, most likely.
    pub wrong_code: bool,
}

/// Stamps each new connection with the time it came and who it came as.
pub(crate) fn stamp_arrivals(
    time: Res<Time<Real>>,
    admission: Res<Admission>,
    door: Option<Res<Door>>,
    arrivals: Query<(Entity, Option<&NetworkId>), Added<ConnectedClient>>,
    mut commands: Commands,
) {
    for (client, id) in &arrivals {
        let came = match (&door, id) {
            (Some(door), Some(id)) => Came {
                kind: door.kind(id.get()),
                wrong_code: door.came_with_a_wrong_code(id.get()),
            },
            _ => Came {
                kind: admission.kind_of(""),
                wrong_code: false,
            },
        };
        commands
            .entity(client)
            .insert((Arrived(time.elapsed()), came));
    }
}

/// A connection waiting for a place: when it came (or lost its place),
/// who it came as, and whether replicon has checked its protocol.
type Waiting = (
    Entity,
    &'static Arrived,
    &'static Came,
    Has<AuthorizedClient>,
);

/// Drops connections that hold no place [`CLAIM_WITHIN`] after they
/// came (or lost theirs), and the newest of them beyond
/// [`Limits::unclaimed`], each told why. A connection that came with a
/// seat's or the spectator code and waits for replicon's check of its
/// protocol does not count against the limit.
pub(crate) fn drop_unclaimed(
    time: Res<Time<Real>>,
    admission: Res<Admission>,
    waiting: Query<Waiting, (With<ConnectedClient>, Without<Admitted>)>,
    mut turned: MessageWriter<ToClients<crate::TurnedAway>>,
    mut disconnects: MessageWriter<DisconnectRequest>,
) {
    let now = time.elapsed();
    let mut waiting: Vec<(Duration, Entity, bool, bool)> = waiting
        .iter()
        .map(|(e, a, came, checked)| {
            (
                a.0,
                e,
                checked || came.kind == Kind::Stranger,
                came.wrong_code,
            )
        })
        .collect();
    waiting.sort_unstable();
    let mut counted = 0;
    for (since, client, counts, wrong_code) in waiting {
        let why = if now.saturating_sub(since) >= CLAIM_WITHIN {
            format!(
                "{}no seat or spectator's place claimed within {} s",
                if wrong_code {
                    "the code it came with is no seat's and not the spectator code; "
                } else {
                    ""
                },
                CLAIM_WITHIN.as_secs()
            )
        } else if counts && counted >= admission.limits.unclaimed {
            format!(
                "the server has {} connections waiting to claim a place already",
                admission.limits.unclaimed
            )
        } else {
            counted += usize::from(counts);
            continue;
        };
        turned.write(ToClients {
            targets: SendTargets::Single(ClientId::Client(client)),
            message: crate::TurnedAway { text: why },
        });
        disconnects.write(DisconnectRequest { client });
    }
}

/// Tells the door who each connection is now, after the claims of this
/// update: a connection whose protocol replicon has not checked yet is
/// still who it came as.
pub(crate) fn tell_door(
    door: Option<ResMut<Door>>,
    clients: Query<(&NetworkId, Option<&Admitted>), With<AuthorizedClient>>,
) {
    let Some(mut door) = door else {
        return;
    };
    for (id, admitted) in &clients {
        let kind = match admitted {
            Some(Admitted::Seat(k)) => Kind::Seat(*k),
            Some(Admitted::Watching) => Kind::Spectator,
            None => Kind::Stranger,
        };
        door.set_kind(id.get(), kind);
    }
}

/// Gives each client that took a place a fresh token of that place
/// ([`crate::Renewal`]), for its next connection: a server with a
/// private key alone ([`crate::invite::Minter`]).
pub(crate) fn renew(
    minter: Option<Res<crate::invite::Minter>>,
    admission: Res<Admission>,
    placed: Query<(Entity, &Admitted), Changed<Admitted>>,
    mut renewals: MessageWriter<ToClients<crate::Renewal>>,
) {
    let Some(minter) = minter else {
        return;
    };
    let now = crate::udp::since_epoch();
    for (client, admitted) in &placed {
        match minter.token(admission.code_of(*admitted), now) {
            Ok(token) => {
                let mut bytes = Vec::new();
                crate::invite::token_bytes(&token, &mut bytes);
                renewals.write(ToClients {
                    targets: SendTargets::Single(ClientId::Client(client)),
                    message: crate::Renewal { token: bytes },
                });
            }
            Err(why) => warn!("no fresh token for a client: {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_says_who_comes() {
        let codes = vec!["red-7f3a".to_owned(), "blue-91c2".to_owned()];
        let coded = Admission::new(
            codes.clone(),
            Watching::Code("look-2345".into()),
            Limits::default(),
        );
        assert_eq!(coded.kind_of("red-7f3a"), Kind::Seat(0));
        assert_eq!(coded.kind_of("blue-91c2"), Kind::Seat(1));
        assert_eq!(coded.kind_of("look-2345"), Kind::Spectator);
        assert_eq!(coded.kind_of(""), Kind::Stranger, "no code, no watching");
        assert_eq!(coded.kind_of("red-7f3b"), Kind::Stranger);
        let open = Admission::new(codes, Watching::Open, Limits::default());
        assert_eq!(open.kind_of(""), Kind::Spectator);
        assert_eq!(open.kind_of("guess"), Kind::Stranger);
        assert!(open.is_seat_code(1, "blue-91c2"));
        assert!(!open.is_seat_code(0, "blue-91c2"));
        assert!(!open.is_seat_code(2, "blue-91c2"));
        assert_eq!(open.slots(), 4 + 8 + 4);
    }

    #[test]
    fn codes_are_the_same_only_when_every_byte_is() {
        assert!(same_code("red-7f3a", "red-7f3a"));
        assert!(!same_code("red-7f3a", "red-7f3b"));
        assert!(!same_code("red-7f3a", "red-7f3"));
        assert!(!same_code("", "x"));
    }
}
