//! Text that comes from files and command lines, as Sandtable shows it: the
//! limits of a name, and quoting that is bounded in length and shows the
//! characters a terminal would act on (control characters, and the
//! bidirectional controls that turn the text around them) instead of
//! passing them on. Printing whole outputs safely is [`crate::files::printable`].

use std::borrow::Cow;
use std::path::Path;

/// The most characters a name holds: a scenario's, a player's, a side's, a
/// unit's.
pub const MAX_NAME_CHARS: usize = 200;

/// The most characters of a text that a message quotes; the rest is left
/// out, and the quote says so.
pub const QUOTE_CHARS: usize = 60;

/// Whether a character would act on a terminal or on the text around it
/// instead of being shown: a control character (line breaks and tabs too)
/// or a bidirectional control (U+061C, U+200E, U+200F, U+202A to U+202E,
/// U+2066 to U+2069), which can make a line read other than it is.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The character as a message shows it: `\u{202e}`.
pub fn escaped(c: char) -> String {
    format!("\\u{{{:x}}}", u32::from(c))
}

/// The text with every [hidden](is_hidden) character written as `\u{..}`,
/// line breaks and tabs included: for a path, a name or an argument set in
/// a line of output.
pub fn shown(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&escaped(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A path as a message shows it: [shown](shown), so that a file named with a
/// line break cannot forge a line.
pub fn path_shown(path: impl AsRef<Path>) -> String {
    shown(&path.as_ref().display().to_string()).into_owned()
}

/// A text quoted in a message: in double quotes, [shown](shown), and at most
/// [`QUOTE_CHARS`] characters of it, with how many more were left out.
pub fn quoted(text: &str) -> String {
    let count = text.chars().count();
    if count <= QUOTE_CHARS {
        return format!("\"{}\"", shown(text));
    }
    let head: String = text.chars().take(QUOTE_CHARS).collect();
    format!(
        "\"{}...\" ({} characters more)",
        shown(&head),
        count - QUOTE_CHARS
    )
}

/// What is wrong with a name, if anything: more than [`MAX_NAME_CHARS`]
/// characters, or a [hidden](is_hidden) character, which would let a file
/// forge a line of output or turn it around.
pub fn name_problem(name: &str) -> Option<String> {
    let count = name.chars().count();
    if count > MAX_NAME_CHARS {
        return Some(format!(
            "{} is {count} characters long; a name holds at most {MAX_NAME_CHARS}",
            quoted(name)
        ));
    }
    let (at, c) = name.chars().enumerate().find(|(_, c)| is_hidden(*c))?;
    Some(format!(
        "{} holds {} at character {}: a name holds no control characters or bidirectional controls",
        quoted(name),
        escaped(c),
        at + 1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_bounded_and_show_what_a_terminal_would_act_on() {
        assert_eq!(quoted("Red"), "\"Red\"");
        assert_eq!(quoted("a\nb\u{202e}c"), "\"a\\u{a}b\\u{202e}c\"");
        let long = "x".repeat(3_000_000);
        let q = quoted(&long);
        assert_eq!(
            q,
            format!("\"{}...\" (2999940 characters more)", "x".repeat(60))
        );
        assert_eq!(shown("tab\there"), "tab\\u{9}here");
        assert!(
            matches!(shown("plain É"), Cow::Borrowed(_)),
            "nothing to show, nothing copied"
        );
    }

    #[test]
    fn names_are_bounded_and_plain() {
        assert_eq!(name_problem("Red"), None);
        assert_eq!(
            name_problem(&"é".repeat(MAX_NAME_CHARS)),
            None,
            "characters, not bytes"
        );
        let long = "y".repeat(MAX_NAME_CHARS + 1);
        let why = name_problem(&long).expect("too long");
        assert!(
            why.ends_with("is 201 characters long; a name holds at most 200"),
            "{why}"
        );
        assert!(why.len() < 160, "the message quotes a bounded part: {why}");
        assert_eq!(
            name_problem("Red: ok\nBlue").as_deref(),
            Some(
                "\"Red: ok\\u{a}Blue\" holds \\u{a} at character 8: a name holds no control characters or bidirectional controls"
            )
        );
        assert!(
            name_problem("abc\u{202e}def")
                .unwrap()
                .contains("\\u{202e} at character 4")
        );
        assert!(name_problem("a\u{2066}b").is_some());
        assert!(name_problem("a\u{200f}b").is_some());
    }
}
