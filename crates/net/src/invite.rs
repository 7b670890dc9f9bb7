//! Invitations: how a player reaches a server that holds a private key
//! (netcode's secure mode), checks it is the right one, and is let into
//! its seat.
//!
//! The server alone holds its key, and mints every connect token with it
//! ([`Minter`]). An invitation is one such token with the place it is
//! for (a seat, or a spectator's place), the code that claims that place
//! and the game's title. Netcode's token is 1,024 sealed bytes and two
//! 32-byte keys, so an invitation cannot be read aloud: it is a link of
//! about 1,600 characters (`sandtable://join/...`), pasted or kept in a
//! file ([`Invitation::file_text`]).
//!
//! What it proves: only the key's holder can open the token's sealed
//! part and learn the keys inside it, so a server that answers the
//! handshake is the one that minted it; and the server admits only
//! tokens it minted, each bound to the first address that uses it. A
//! token also names one client id, so a table that was connected gets
//! fresh tokens over the encrypted channel ([`crate::Renewal`]) for its
//! next connection, from whatever address it comes.

use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;

use bevy::prelude::*;
use renetcode::ConnectToken;

use crate::Claim;

/// How an invitation's link begins.
pub const LINK: &str = "sandtable://join/";

/// The version of an invitation's bytes.
const FORMAT: u8 = 1;

/// How long an invitation and a fresh token are valid: a day. The
/// server mints new invitations whenever it starts, resumed or not.
pub const INVITATION_LIFE: Duration = Duration::from_secs(24 * 60 * 60);

/// The most bytes of an invitation's title.
const MAX_TITLE_BYTES: usize = 200;

/// The place an invitation is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A seat, by index.
    Seat(u16),
    /// A spectator's place.
    Watch,
}

/// An invitation to a served game: a connect token minted by its server,
/// with the place it is for and the code that claims it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    /// The place.
    pub place: Place,
    /// The code that claims it: a seat's, or the spectator code.
    pub code: String,
    /// The game served, as the host calls it.
    pub title: String,
    /// The token: the server's addresses, its expiry, the keys.
    pub token: ConnectToken,
}

impl Invitation {
    /// The address the client tries first.
    pub fn server(&self) -> SocketAddr {
        self.token.server_addresses[0].unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 0)))
    }

    /// When it expires, in seconds since 1970.
    pub fn expires(&self) -> u64 {
        self.token.expire_timestamp
    }

    /// The claim a table makes with it once connected.
    pub fn claim(&self) -> Claim {
        match self.place {
            Place::Seat(seat) => Claim::Seat {
                seat,
                code: self.code.clone(),
            },
            Place::Watch => Claim::Watch {
                code: self.code.clone(),
            },
        }
    }

    /// Its bytes: the format, the place, the code, the title, the token.
    fn bytes(&self) -> Vec<u8> {
        let mut out = vec![FORMAT];
        let place = match self.place {
            Place::Seat(k) => k,
            Place::Watch => u16::MAX,
        };
        out.extend_from_slice(&place.to_le_bytes());
        for text in [&self.code, &self.title] {
            out.push(text.len() as u8);
            out.extend_from_slice(text.as_bytes());
        }
        token_bytes(&self.token, &mut out);
        out
    }

    /// Its link: [`LINK`] and its bytes in URL-safe base64.
    pub fn to_link(&self) -> String {
        format!("{LINK}{}", base64_encode(&self.bytes()))
    }

    /// What its file holds: a few lines for the person who opens it, and
    /// the link.
    pub fn file_text(&self) -> String {
        let place = match self.place {
            Place::Seat(k) => format!("seat {k}"),
            Place::Watch => "a spectator's place".to_owned(),
        };
        format!(
            "# A Sandtable invitation to {place} of {title}, served at {server},\n\
             # valid until {until}. Whoever holds it can take that place:\n\
             # give it to one person alone. Open it with: sandtable --join THIS-FILE\n\
             {link}\n",
            title = self.title,
            server = self.server(),
            until = utc_time(self.expires()),
            link = self.to_link()
        )
    }

    /// Reads an invitation from its link or its file's text: lines that
    /// begin with `#` are skipped, and whitespace in the link (a chat
    /// that wrapped it) is ignored. It must be of this build's protocol
    /// and name a server.
    pub fn from_text(text: &str) -> Result<Invitation, String> {
        let link: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
            .flat_map(|l| l.chars())
            .filter(|c| !c.is_whitespace())
            .collect();
        let Some(body) = link.strip_prefix(LINK) else {
            return Err(format!(
                "not an invitation: an invitation is a link that begins with {LINK}"
            ));
        };
        let cut = || {
            format!(
                "the invitation is cut short or changed: its {} characters do not read as one (copy the whole link)",
                body.len()
            )
        };
        let bytes = base64_decode(body)
            // A token alone is over a kilobyte.
            .filter(|b| b.len() > 1_000)
            .ok_or_else(cut)?;
        let (&format, mut rest) = bytes.split_first().ok_or_else(cut)?;
        if format != FORMAT {
            return Err(format!(
                "the invitation is of another version of Sandtable (format {format}, this one reads {FORMAT})"
            ));
        }
        let place = match take(&mut rest, 2).ok_or_else(cut)? {
            [0xff, 0xff] => Place::Watch,
            k => Place::Seat(u16::from_le_bytes([k[0], k[1]])),
        };
        let mut texts = Vec::new();
        for _ in 0..2 {
            let len = usize::from(
                *take(&mut rest, 1)
                    .ok_or_else(cut)?
                    .first()
                    .ok_or_else(cut)?,
            );
            let text = take(&mut rest, len).ok_or_else(cut)?;
            texts.push(String::from_utf8(text.to_vec()).map_err(|_| cut())?);
        }
        let title = texts.pop().unwrap_or_default();
        let code = texts.pop().unwrap_or_default();
        if code.len() > crate::MAX_CODE_BYTES || title.len() > MAX_TITLE_BYTES {
            return Err(cut());
        }
        let mut reader = rest;
        let token = ConnectToken::read(&mut reader).map_err(|_| cut())?;
        if !reader.is_empty() {
            return Err(cut());
        }
        if token.protocol_id != crate::protocol_id() {
            return Err(format!(
                "the invitation is to a server of another version of Sandtable than this one ({})",
                sandtable_core::record::ENGINE
            ));
        }
        if token.server_addresses[0].is_none() {
            return Err("the invitation names no server".to_owned());
        }
        Ok(Invitation {
            place,
            code,
            title,
            token,
        })
    }

    /// Reads the invitation in the file at `path`, or says where and why
    /// it is none.
    pub fn read(path: &Path) -> Result<Invitation, String> {
        let shown = sandtable_core::text::path_shown(path);
        let text = std::fs::read(path).map_err(|e| format!("{shown}: {e}"))?;
        if text.len() > 64 * 1024 {
            return Err(format!(
                "{shown}: not an invitation (an invitation is a few kilobytes)"
            ));
        }
        let text = String::from_utf8(text)
            .map_err(|_| format!("{shown}: not an invitation (not text)"))?;
        Invitation::from_text(&text).map_err(|why| format!("{shown}: {why}"))
    }

    /// Reads an invitation given as a link, or as the path of its file.
    pub fn from_link_or_file(given: &str) -> Result<Invitation, String> {
        let given = given.trim();
        if given.starts_with(LINK) || given.starts_with('#') {
            Invitation::from_text(given)
        } else {
            Invitation::read(Path::new(given))
        }
    }

    /// Why a table cannot use it at `now` (seconds since 1970): it has
    /// expired.
    pub fn check_time(&self, now: u64) -> Result<(), String> {
        if self.expires() <= now {
            return Err(format!(
                "the invitation expired on {}: ask the host for a new one",
                utc_time(self.expires())
            ));
        }
        Ok(())
    }
}

/// A token's bytes, as netcode writes them, appended to `out`.
pub fn token_bytes(token: &ConnectToken, out: &mut Vec<u8>) {
    // Writing to a vector does not fail.
    let _ = token.write(out);
}

/// A token from its bytes ([`token_bytes`]): `None` when they are not
/// one whole token of this build naming a server.
pub fn token_from_bytes(bytes: &[u8]) -> Option<ConnectToken> {
    let mut reader = bytes;
    let token = ConnectToken::read(&mut reader).ok()?;
    (reader.is_empty()
        && token.protocol_id == crate::protocol_id()
        && token.server_addresses[0].is_some())
    .then_some(token)
}

/// The first `n` bytes of `rest`, which moves past them.
fn take<'a>(rest: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
    if rest.len() < n {
        return None;
    }
    let (head, tail) = rest.split_at(n);
    *rest = tail;
    Some(head)
}

/// The server's private key and what it mints with it: tokens for the
/// addresses clients reach it at. Only the server holds it.
#[derive(Resource, Clone)]
pub struct Minter {
    key: [u8; 32],
    servers: Vec<SocketAddr>,
    title: String,
}

impl std::fmt::Debug for Minter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The key is never printed.
        f.debug_struct("Minter")
            .field("servers", &self.servers)
            .field("title", &self.title)
            .finish_non_exhaustive()
    }
}

impl Minter {
    /// A minter of tokens sealed with `key`, for a server reached at
    /// `servers` (the first tried first) serving `title`.
    pub fn new(key: [u8; 32], servers: Vec<SocketAddr>, title: &str) -> Minter {
        let mut title = title.to_owned();
        while title.len() > MAX_TITLE_BYTES {
            title.pop();
        }
        Minter {
            key,
            servers,
            title,
        }
    }

    /// The same minter, for clients that reach the server at `servers`
    /// (the host's own table, on loopback).
    pub fn reached_at(&self, servers: Vec<SocketAddr>) -> Minter {
        Minter {
            servers,
            ..self.clone()
        }
    }

    /// The key.
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// A fresh token carrying `code`, valid for [`INVITATION_LIFE`] from
    /// `now` (since 1970), for a new client id.
    pub fn token(&self, code: &str, now: Duration) -> Result<ConnectToken, String> {
        let client_id = u64::from_le_bytes(random_bytes()?);
        crate::door::mint_token(
            &self.key,
            crate::protocol_id(),
            self.servers.clone(),
            client_id,
            code,
            INVITATION_LIFE,
            now,
        )
    }

    /// An invitation to `place`, claimed with `code`.
    pub fn invite(&self, place: Place, code: &str, now: Duration) -> Result<Invitation, String> {
        Ok(Invitation {
            place,
            code: code.to_owned(),
            title: self.title.clone(),
            token: self.token(code, now)?,
        })
    }
}

/// `N` bytes from the operating system's randomness.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], String> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)
        .map_err(|e| format!("no randomness from the operating system: {e}"))?;
    Ok(bytes)
}

/// A new private key, from the operating system.
pub fn new_key() -> Result<[u8; 32], String> {
    random_bytes()
}

/// A key as 64 lowercase hex digits.
pub fn key_text(key: &[u8; 32]) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

/// A key from its 64 hex digits, or why it is none.
pub fn read_key(text: &str) -> Result<[u8; 32], String> {
    let text = text.trim();
    if text.len() != 64 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!(
            "a server's key is 64 hex digits, not {} characters",
            text.chars().count()
        ));
    }
    let mut key = [0u8; 32];
    for (k, byte) in key.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * k..2 * k + 2], 16).map_err(|e| e.to_string())?;
    }
    if key == [0; 32] {
        return Err("a server's key of zeros is netcode's unsecured mode".to_owned());
    }
    Ok(key)
}

/// A time in seconds since 1970 as `YYYY-MM-DD HH:MM UTC`.
pub fn utc_time(seconds: u64) -> String {
    let days = (seconds / 86_400) as i64;
    let (hour, minute) = ((seconds % 86_400) / 3_600, (seconds % 3_600) / 60);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {hour:02}:{minute:02} UTC")
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `bytes` in URL-safe base64, without padding.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 3);
    for chunk in bytes.chunks(3) {
        let word = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for k in 0..=chunk.len() {
            out.push(char::from(BASE64[((word >> (18 - 6 * k)) & 63) as usize]));
        }
    }
    out
}

/// The bytes of URL-safe base64 without padding: `None` for a letter
/// outside it or a length no bytes have.
fn base64_decode(text: &str) -> Option<Vec<u8>> {
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.as_bytes().chunks(4) {
        let mut word = 0u32;
        for (k, c) in chunk.iter().enumerate() {
            let value = BASE64.iter().position(|b| b == c)? as u32;
            word |= value << (18 - 6 * k);
        }
        let bytes = word.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minter() -> Minter {
        Minter::new(
            [7; 32],
            vec!["203.0.113.5:5000".parse().expect("an address")],
            "Frontiers: Confrontation",
        )
    }

    #[test]
    fn base64_round_trips_every_length() {
        for n in 0..40 {
            let bytes: Vec<u8> = (0..n).map(|k| (k * 37 + 11) as u8).collect();
            let text = base64_encode(&bytes);
            assert!(text.bytes().all(|b| BASE64.contains(&b)));
            assert_eq!(base64_decode(&text), Some(bytes), "{n} bytes");
        }
        assert_eq!(base64_decode("A"), None);
        assert_eq!(base64_decode("AB=C"), None);
    }

    #[test]
    fn an_invitation_reads_back_from_its_link_and_its_file() {
        let now = Duration::from_secs(2_000_000_000);
        let invitation = minter()
            .invite(Place::Seat(1), "abcde-fghjk", now)
            .expect("minted");
        let link = invitation.to_link();
        assert!(link.starts_with(LINK));
        assert!(link.len() < 2_000, "{} characters", link.len());
        assert_eq!(Invitation::from_text(&link), Ok(invitation.clone()));
        assert_eq!(
            Invitation::from_text(&invitation.file_text()),
            Ok(invitation.clone())
        );
        // A chat wrapped it.
        let (a, b) = link.split_at(700);
        assert_eq!(
            Invitation::from_text(&format!("  {a}\n {b}\n")),
            Ok(invitation.clone())
        );
        assert_eq!(invitation.server().port(), 5000);
        assert_eq!(
            invitation.expires(),
            now.as_secs() + INVITATION_LIFE.as_secs()
        );
        assert_eq!(
            invitation.claim(),
            Claim::Seat {
                seat: 1,
                code: "abcde-fghjk".into()
            }
        );
        let watch = minter()
            .invite(Place::Watch, "watch-code", now)
            .expect("minted");
        assert_eq!(
            Invitation::from_text(&watch.to_link()).map(|i| i.place),
            Ok(Place::Watch)
        );
    }

    #[test]
    fn a_link_cut_short_changed_or_of_another_kind_says_so() {
        let link = minter()
            .invite(
                Place::Seat(0),
                "abcde-fghjk",
                Duration::from_secs(2_000_000_000),
            )
            .expect("minted")
            .to_link();
        let why = |text: &str| Invitation::from_text(text).expect_err("refused");
        assert!(why("https://example.com").contains("not an invitation"));
        assert!(why(&link[..link.len() - 10]).contains("cut short or changed"));
        assert!(why(&format!("{link}AAAA")).contains("cut short or changed"));
        let mut bad = link.clone();
        bad.insert(40, '*');
        assert!(why(&bad).contains("cut short or changed"));
        // Another format.
        let mut bytes = base64_decode(&link[LINK.len()..]).expect("bytes");
        bytes[0] = 9;
        assert!(why(&format!("{LINK}{}", base64_encode(&bytes))).contains("another version"));
        // Another build's protocol.
        let other = crate::door::mint_token(
            &[7; 32],
            crate::protocol_id() ^ 1,
            vec!["203.0.113.5:5000".parse().expect("an address")],
            5,
            "x",
            INVITATION_LIFE,
            Duration::from_secs(2_000_000_000),
        )
        .expect("minted");
        let foreign = Invitation {
            place: Place::Watch,
            code: "x".into(),
            title: "t".into(),
            token: other,
        };
        assert!(why(&foreign.to_link()).contains("another version of Sandtable"));
    }

    #[test]
    fn an_expired_invitation_says_when_it_expired() {
        let invitation = minter()
            .invite(Place::Watch, "", Duration::from_secs(1_000_000))
            .expect("minted");
        assert_eq!(invitation.check_time(1_000_000), Ok(()));
        let why = invitation
            .check_time(1_000_000 + INVITATION_LIFE.as_secs())
            .expect_err("expired");
        assert!(why.contains("expired on 1970-01-13"), "{why}");
    }

    #[test]
    fn times_are_told_in_utc() {
        assert_eq!(utc_time(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_time(951_825_600), "2000-02-29 12:00 UTC");
        assert_eq!(utc_time(1_796_515_200), "2026-12-06 00:00 UTC");
    }

    #[test]
    fn keys_read_back_and_bad_ones_say_why() {
        let key = new_key().expect("randomness");
        assert_eq!(read_key(&key_text(&key)), Ok(key));
        assert!(
            read_key("abc")
                .expect_err("short")
                .contains("64 hex digits")
        );
        assert!(read_key(&"g".repeat(64)).is_err());
        assert!(
            read_key(&"0".repeat(64))
                .expect_err("zeros")
                .contains("unsecured")
        );
        assert!(
            !format!("{:?}", minter()).contains("7, 7"),
            "no key in Debug"
        );
    }
}
