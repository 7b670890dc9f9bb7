//! The words commands are written in (docs/move-notation.md): a command's
//! words read one at a time, the pieces a hex or a counter holds as
//! commands name them, a counter's number, and a counter's pieces in
//! words. The battle's commands and the off-board grid's read with them.

use crate::hex::Hex;
use crate::men::{Men, Pick};

/// A command's words, read one at a time.
pub struct Words<'a> {
    words: Vec<&'a str>,
    at: usize,
}

impl<'a> Words<'a> {
    /// The words of `text`.
    pub(crate) fn new(text: &'a str) -> Words<'a> {
        Words {
            words: text.split_whitespace().collect(),
            at: 0,
        }
    }

    pub(crate) fn peek(&self) -> Option<&'a str> {
        self.words.get(self.at).copied()
    }

    pub(crate) fn next(&mut self) -> Option<&'a str> {
        let w = self.peek();
        self.at += usize::from(w.is_some());
        w
    }

    pub(crate) fn hex(&mut self, what: &str) -> Result<Hex, String> {
        let w = self.next().ok_or_else(|| format!("{what} is missing"))?;
        w.parse::<Hex>().map_err(|e| e.to_string())
    }

    pub(crate) fn is_hex(&self) -> bool {
        self.peek().is_some_and(|w| w.parse::<Hex>().is_ok())
    }

    pub(crate) fn count(&mut self, what: &str) -> Result<u16, String> {
        let w = self
            .next()
            .ok_or_else(|| format!("`{what}` needs a number after it"))?;
        w.parse::<u16>()
            .map_err(|_| format!("`{w}` after `{what}` is not a number of men"))
    }

    /// `inf N`, `cav N` (also `infantry`, `cavalry`), in any order, once each.
    pub(crate) fn men(&mut self) -> Result<Option<Men>, String> {
        let mut men = Men::NONE;
        let mut any = false;
        let (mut inf, mut cav) = (false, false);
        while let Some(w) = self.peek() {
            match w.to_ascii_lowercase().as_str() {
                "inf" | "infantry" if !inf => {
                    self.next();
                    men.inf = self.count(w)?;
                    inf = true;
                }
                "cav" | "cavalry" if !cav => {
                    self.next();
                    men.cav = self.count(w)?;
                    cav = true;
                }
                _ => break,
            }
            any = true;
        }
        Ok(any.then_some(men))
    }

    pub(crate) fn done(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(w) => Err(format!("`{w}` was not expected there")),
        }
    }
}

/// The names of what a hex or a counter holds, as commands spell them:
/// the last two (prisoners and unarmed men) march, never stand in a
/// counter.
pub(crate) const PIECE_NAMES: [&str; 8] = [
    "inf",
    "cav",
    "officer",
    "cannon",
    "baggage",
    "flag",
    "prisoners",
    "unarmed",
];

/// Reads pieces named by `names` (`inf 8 cav 2 officer 1 cannon ...`), in
/// any order, once each, to the end of the command; `unknown` says what a
/// word that names none of them is not, `empty` what is said when nothing
/// is named.
pub(crate) fn parse_pieces(
    w: &mut Words<'_>,
    names: &[&str],
    unknown: &str,
    empty: &str,
) -> Result<Pick, String> {
    let mut pick = Pick::default();
    let mut seen: Vec<&str> = Vec::new();
    while let Some(word) = w.next() {
        let key = word.to_ascii_lowercase();
        let spelled = match key.as_str() {
            "infantry" => "inf",
            "cavalry" => "cav",
            "officers" => "officer",
            "prisoner" => "prisoners",
            other => other,
        };
        let Some(name) = names.iter().copied().find(|n| *n == spelled) else {
            let (last, rest) = names.split_last().expect("names to read");
            return Err(format!("`{word}` {unknown}: {} or {last}", rest.join(", ")));
        };
        if seen.contains(&name) {
            return Err(format!("`{name}` is named twice"));
        }
        seen.push(name);
        match name {
            "inf" => pick.men.inf = w.count(word)?,
            "cav" => pick.men.cav = w.count(word)?,
            "officer" => pick.officers = w.count(word)?,
            "prisoners" => pick.prisoners = w.count(word)?,
            "unarmed" => pick.unarmed = w.count(word)?,
            "cannon" => pick.cannon = true,
            "baggage" => pick.baggage = true,
            _ => pick.flag = true,
        }
    }
    if pick.is_empty() {
        return Err(empty.into());
    }
    Ok(pick)
}

/// A counter's number after a verb.
pub(crate) fn number(w: &mut Words<'_>, verb: &str) -> Result<u16, String> {
    let word = w
        .next()
        .ok_or_else(|| format!("`{verb}` needs a counter's number: {verb} 5"))?;
    match word.parse::<u16>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("`{word}` is not a counter's number (1 or more)")),
    }
}
