//! Names of the cells of a grid, squares and hexes alike (R1, R60): column
//! letters from the left (`A` to `Z`, then `AA` to `ZZ`), then a row number
//! from the bottom, from 1. `C7` is column 2, row 6, counted from 0.
//!
//! The off-board grid's squares are named row number first (R40): `2E` is
//! column 4, row 1, so that a square never reads like a map cell.

use std::fmt;

/// The most columns or rows a grid may have: column names run from `A` to
/// `ZZ`.
pub const MAX_SIDE: u16 = 702;

/// Writes the name of the cell at 0-based `col` and `row`.
pub fn write_cell(f: &mut fmt::Formatter<'_>, col: u16, row: u16) -> fmt::Result {
    write_column(f, col)?;
    write!(f, "{}", u32::from(row) + 1)
}

/// Writes the name of the off-board grid's square at 0-based `col` and
/// `row`, row number first (R40): `2E`, `12AB`.
pub fn write_row_first(f: &mut fmt::Formatter<'_>, col: u16, row: u16) -> fmt::Result {
    write!(f, "{}", u32::from(row) + 1)?;
    write_column(f, col)
}

/// A column's letters: `A` to `Z`, then `AA` to `ZZ`.
fn write_column(f: &mut fmt::Formatter<'_>, col: u16) -> fmt::Result {
    let n = u32::from(col) + 1;
    if n > 26 {
        let high = (n - 1) / 26;
        let low = (n - 1) % 26;
        write!(f, "{}{}", letter(high - 1), letter(low))
    } else {
        write!(f, "{}", letter(n - 1))
    }
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

/// Reads an off-board square's name, row number first (`2E`, R40), into
/// its 0-based column and row, or says what is wrong with it, in words that
/// fit after "`X` is not a grid square's name: ".
pub fn parse_row_first(text: &str) -> Result<(u16, u16), &'static str> {
    let split = text
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(text.len());
    let (digits, letters) = text.split_at(split);
    if digits.is_empty() {
        return Err("it does not start with a row number");
    }
    if letters.is_empty() {
        return Err("it has no column letter");
    }
    if !letters.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err("the column must be letters");
    }
    // The same checks as a cell's, on the same parts swapped round.
    parse_cell(&format!("{letters}{digits}")).map_err(|why| match why {
        "it does not start with a column letter" => "the column must be letters",
        other => other,
    })
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

    struct Square(u16, u16);
    impl fmt::Display for Square {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write_row_first(f, self.0, self.1)
        }
    }

    #[test]
    fn every_grid_square_name_reads_back_row_first() {
        for col in [0, 4, 25, 26, 27, MAX_SIDE - 1] {
            for row in [0, 1, 11, MAX_SIDE - 1] {
                let name = Square(col, row).to_string();
                assert_eq!(parse_row_first(&name), Ok((col, row)), "{name}");
            }
        }
        // R40: square 2E is column 4, row 1; 12AB is column 27, row 11.
        assert_eq!(Square(4, 1).to_string(), "2E");
        assert_eq!(Square(27, 11).to_string(), "12AB");
        assert_eq!(parse_row_first("2e"), Ok((4, 1)));
    }

    #[test]
    fn bad_grid_square_names_say_what_is_wrong() {
        assert_eq!(
            parse_row_first("E2"),
            Err("it does not start with a row number")
        );
        assert_eq!(parse_row_first("12"), Err("it has no column letter"));
        assert_eq!(parse_row_first("2E5"), Err("the column must be letters"));
        assert_eq!(parse_row_first("0E"), Err("rows count from 1"));
        assert_eq!(
            parse_row_first("02E"),
            Err("the row number has a leading zero")
        );
        assert_eq!(
            parse_row_first("2AAA"),
            Err("columns run from A to ZZ (at most 702)")
        );
        assert_eq!(parse_row_first("703A"), Err("rows run from 1 to 702"));
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
