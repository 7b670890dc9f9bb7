//! Games as bytes, for the network and for files: serde in postcard's
//! compact encoding, a version first, so that bytes written by another
//! version of Sandtable are refused by name, never misread.
//!
//! A system's game encodes its setup and its state; decoding checks the
//! setup as a scenario's is checked and builds the game's fixed parts
//! again from it. What a client is sent is a masked copy
//! (`GameState::masked`), so the bytes hold only what its viewer may see.

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Mutex, PoisonError};

pub use serde::Serialize;
pub use serde::de::DeserializeOwned;

/// The version of the encoding: changed whenever a game's encoded form
/// changes.
pub const ENCODING: u16 = 1;

/// Why bytes are not a value of this version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WireError {
    /// Written by another version of the encoding.
    Version {
        /// The version the bytes name.
        found: u16,
    },
    /// Not a value of the type, or a value the rules refuse: why.
    Malformed(String),
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Version { found } => write!(
                f,
                "written by encoding version {found}; this Sandtable reads version {ENCODING}"
            ),
            WireError::Malformed(why) => write!(f, "not a game of this version: {why}"),
        }
    }
}

impl std::error::Error for WireError {}

/// `value` as bytes: the encoding's version, then the value.
pub fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_allocvec(&(ENCODING, value))
        .expect("a game encodes: no map keys or lengths it cannot write")
}

/// The value `bytes` hold, refused where they are of another version,
/// are not a value of the type, or have bytes left over.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    let (found, rest): (u16, &[u8]) =
        postcard::take_from_bytes(bytes).map_err(|e| WireError::Malformed(e.to_string()))?;
    if found != ENCODING {
        return Err(WireError::Version { found });
    }
    let (value, left): (T, &[u8]) =
        postcard::take_from_bytes(rest).map_err(|e| WireError::Malformed(e.to_string()))?;
    if !left.is_empty() {
        return Err(WireError::Malformed(format!(
            "{} bytes left over after the value",
            left.len()
        )));
    }
    Ok(value)
}

/// A value written through a plain form of itself and checked when it is
/// read back, so that a refusal says why: a game, whose form is its setup
/// and its state.
pub trait Wire: Sized {
    /// What is written.
    type Form: Serialize + DeserializeOwned;
    /// The value's form.
    fn to_form(&self) -> Self::Form;
    /// The value a form read back makes, or why it makes none (a setup the
    /// rules refuse, a state that does not fit its setup).
    fn from_form(form: Self::Form) -> Result<Self, String>;
}

/// `value` as bytes, through its form ([`encode`]).
pub fn write<T: Wire>(value: &T) -> Vec<u8> {
    encode(&value.to_form())
}

/// The value `bytes` hold, through its form: refused as [`decode`]
/// refuses, and where the form makes no value, with the reason.
pub fn read<T: Wire>(bytes: &[u8]) -> Result<T, WireError> {
    T::from_form(decode(bytes)?).map_err(WireError::Malformed)
}

/// The most distinct texts [`intern`] keeps: far more than the draw
/// reasons of every system.
const MOST_INTERNED: usize = 256;

/// A text read for a game that holds it as `&'static str` (a draw's
/// reason): each distinct text is kept once for the program's life, and
/// one that would make more than [`MOST_INTERNED`] is refused.
pub fn intern(text: String) -> Result<&'static str, String> {
    static KEPT: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(k) = kept.get(text.as_str()) {
        return Ok(k);
    }
    if kept.len() >= MOST_INTERNED {
        return Err(format!("more than {MOST_INTERNED} distinct reasons"));
    }
    let k: &'static str = Box::leak(text.into_boxed_str());
    kept.insert(k);
    Ok(k)
}

/// Arrays of any length as serde tuples (serde's own stop at 32):
/// `#[serde(with = "sandtable_core::wire::array")]`.
pub mod array {
    use std::fmt;
    use std::marker::PhantomData;

    use serde::de::{self, SeqAccess, Visitor};
    use serde::ser::SerializeTuple;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the array's items in order.
    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        items: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let mut t = s.serialize_tuple(N)?;
        for item in items {
            t.serialize_element(item)?;
        }
        t.end()
    }

    /// Reads exactly `N` items.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> Result<[T; N], D::Error> {
        struct Items<T, const N: usize>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>, const N: usize> Visitor<'de> for Items<T, N> {
            type Value = [T; N];
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{N} items")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<[T; N], A::Error> {
                let mut items = Vec::with_capacity(N);
                for k in 0..N {
                    items.push(
                        seq.next_element()?
                            .ok_or_else(|| de::Error::invalid_length(k, &self))?,
                    );
                }
                items
                    .try_into()
                    .map_err(|_| de::Error::invalid_length(N, &self))
            }
        }
        d.deserialize_tuple(N, Items::<T, N>(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::game::{Ending, Seat};

    #[test]
    fn values_round_trip_and_another_version_is_refused_by_name() {
        let ending = Ending::Draw("both sides reached it at once (R146)");
        let bytes = encode(&ending);
        assert_eq!(decode::<Ending>(&bytes), Ok(ending));
        assert_eq!(
            decode::<Ending>(&encode(&Ending::Won(Seat(1)))),
            Ok(Ending::Won(Seat(1)))
        );
        let mut dice = Dice::scripted(vec![3, 5, 1]);
        dice.d6().expect("a roll");
        assert_eq!(decode::<Dice>(&encode(&dice)), Ok(dice));
        // Another version.
        let other = postcard::to_allocvec(&(ENCODING + 1, &ending)).expect("encodes");
        assert_eq!(
            decode::<Ending>(&other),
            Err(WireError::Version {
                found: ENCODING + 1
            })
        );
        assert!(
            decode::<Ending>(&other)
                .unwrap_err()
                .to_string()
                .contains("this Sandtable reads version 1")
        );
        // Bytes left over, or cut short.
        let mut long = bytes.clone();
        long.push(0);
        assert!(matches!(
            decode::<Ending>(&long),
            Err(WireError::Malformed(_))
        ));
        assert!(matches!(
            decode::<Ending>(&bytes[..bytes.len() - 1]),
            Err(WireError::Malformed(_))
        ));
    }

    #[test]
    fn a_script_that_cannot_be_is_refused() {
        #[derive(Serialize)]
        struct Wire {
            rolls: Vec<u8>,
            next: usize,
        }
        let bad = |rolls: Vec<u8>, next: usize| {
            decode::<Dice>(
                &postcard::to_allocvec(&(ENCODING, 1u32, Wire { rolls, next })).expect("encodes"),
            )
        };
        // The control: a good script reads.
        assert!(bad(vec![1, 6], 1).is_ok());
        assert!(bad(vec![1, 7], 0).is_err(), "a 7");
        assert!(bad(vec![1, 2], 3).is_err(), "more used than there are");
    }
}
