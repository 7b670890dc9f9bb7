//! Names of the cells of a grid, squares and hexes alike (R1, R60): column
//! letters from the left (`A` to `Z`, then `AA` to `ZZ`), then a row number
//! from the bottom, from 1. `C7` is column 2, row 6, counted from 0.

use std::fmt;

/// The most columns or rows a grid may have: column names run from `A` to
/// `ZZ`.
pub const MAX_SIDE: u16 = 702;

/// Writes the name of the cell at 0-based `col` and `row`.
pub fn write_cell(f: &mut fmt::Formatter<'_>, col: u16, row: u16) -> fmt::Result {
    let n = u32::from(col) + 1;
    if n > 26 {
        let high = (n - 1) / 26;
        let low = (n - 1) % 26;
        write!(f, "{}{}", letter(high - 1), letter(low))?;
    } else {
        write!(f, "{}", letter(n - 1))?;
    }
    write!(f, "{}", u32::from(row) + 1)
}

fn letter(i: u32) -> char {
    char::from(b'A' + u8::try_from(i).unwrap_or(25))
}

/// Reads a cell name into its 0-based column and row, or says what is wrong
/// with it, in words that fit after "`X` is not a square name: ".
pub fn parse_cell(text: &str) -> Result<(u16, u16), &'static str> {
    let split = text
        .find(|c: char| !c.is_ascii_alphabetic())
        .unwrap_or(text.len());
    let (letters, digits) = text.split_at(split);
    if letters.is_empty() {
        return Err("it does not start with a column letter");
    }
    if letters.len() > 2 {
        return Err("columns run from A to ZZ (at most 702)");
    }
    if digits.is_empty() {
        return Err("it has no row number");
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("the row must be a number");
    }
    let mut col: u32 = 0;
    for b in letters.bytes() {
        col = col * 26 + u32::from(b.to_ascii_uppercase() - b'A' + 1);
    }
    let row: u32 = match digits.parse() {
        Ok(r) if (1..=u32::from(MAX_SIDE)).contains(&r) => r,
        Ok(0) => return Err("rows count from 1"),
        _ => return Err("rows run from 1 to 702"),
    };
    if digits.starts_with('0') {
        return Err("the row number has a leading zero");
    }
    // Both are at most 702 here, so the casts cannot truncate.
    Ok(((col - 1) as u16, (row - 1) as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Cell(u16, u16);
    impl fmt::Display for Cell {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_cell(f, self.0, self.1)
        }
    }

    #[test]
    fn every_cell_name_reads_back_to_its_cell() {
        for col in 0..MAX_SIDE {
            for row in [0, 9, MAX_SIDE - 1] {
                let name = Cell(col, row).to_string();
                assert_eq!(parse_cell(&name), Ok((col, row)), "{name}");
            }
        }
        assert_eq!(Cell(26, 0).to_string(), "AA1");
        assert_eq!(Cell(701, 701).to_string(), "ZZ702");
    }

    #[test]
    fn bad_names_say_what_is_wrong() {
        assert_eq!(
            parse_cell("7C"),
            Err("it does not start with a column letter")
        );
        assert_eq!(
            parse_cell("AAA1"),
            Err("columns run from A to ZZ (at most 702)")
        );
        assert_eq!(parse_cell("C"), Err("it has no row number"));
        assert_eq!(parse_cell("C0"), Err("rows count from 1"));
        assert_eq!(parse_cell("C07"), Err("the row number has a leading zero"));
        assert_eq!(parse_cell("C703"), Err("rows run from 1 to 702"));
        assert_eq!(parse_cell("C7x"), Err("the row must be a number"));
    }
}
