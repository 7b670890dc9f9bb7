//! A small PDF writer for the sheet: pages of rectangles, lines and text in
//! the built-in Helvetica, measured in millimetres, written to any `Write` a
//! page at a time, so that a document of many pages never sits in memory.
//! Page streams may be compressed (zlib, by miniz_oxide). What is drawn is
//! left to the sheet.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::Rgbf;

/// Points in a millimetre.
const PT_PER_MM: f64 = 72.0 / 25.4;

/// Writes a number as the file holds it: at most three decimals, no
/// trailing zeros. Made from integers, as pages of many squares write
/// millions of numbers.
fn put_num(out: &mut String, v: f64) {
    let m = (v * 1000.0).round() as i64;
    if m < 0 {
        out.push('-');
    }
    let m = m.unsigned_abs();
    let _ = write!(out, "{}", m / 1000);
    let mut frac = m % 1000;
    if frac != 0 {
        out.push('.');
        let mut digits = 3;
        while frac.is_multiple_of(10) {
            frac /= 10;
            digits -= 1;
        }
        let _ = write!(out, "{frac:0digits$}");
    }
}

fn num(v: f64) -> String {
    let mut s = String::new();
    put_num(&mut s, v);
    s
}

/// A length in points from millimetres.
fn pt(mm: f64) -> String {
    num(mm * PT_PER_MM)
}

/// The drawing of one page, as PDF operators. Colours and the line width
/// are written only when they change.
#[derive(Debug, Default)]
pub(crate) struct Page {
    ops: String,
    fill: Option<Rgbf>,
    stroke: Option<Rgbf>,
    width: Option<f64>,
}

impl Page {
    fn put(&mut self, values: &[f64], operator: &str) {
        for v in values {
            put_num(&mut self.ops, *v);
            self.ops.push(' ');
        }
        self.ops.push_str(operator);
        self.ops.push('\n');
    }

    /// The colour that fills rectangles and text from now on.
    pub(crate) fn fill(&mut self, c: Rgbf) {
        if self.fill != Some(c) {
            self.fill = Some(c);
            self.put(&[c[0].into(), c[1].into(), c[2].into()], "rg");
        }
    }

    /// The colour of lines and outlines from now on.
    pub(crate) fn stroke_colour(&mut self, c: Rgbf) {
        if self.stroke != Some(c) {
            self.stroke = Some(c);
            self.put(&[c[0].into(), c[1].into(), c[2].into()], "RG");
        }
    }

    /// The width of lines and outlines from now on, in mm.
    pub(crate) fn width(&mut self, mm: f64) {
        if self.width != Some(mm) {
            self.width = Some(mm);
            self.put(&[mm * PT_PER_MM], "w");
        }
    }

    /// A rectangle from its lower-left corner, in mm from the page's
    /// lower-left corner.
    pub(crate) fn rect(&mut self, x: f64, y: f64, w: f64, h: f64, filled: bool, outlined: bool) {
        let paint = match (filled, outlined) {
            (true, true) => "re B",
            (true, false) => "re f",
            (false, true) => "re S",
            (false, false) => return,
        };
        self.put(
            &[x * PT_PER_MM, y * PT_PER_MM, w * PT_PER_MM, h * PT_PER_MM],
            paint,
        );
    }

    /// A closed polygon through points in mm from the page's lower-left
    /// corner.
    pub(crate) fn polygon(&mut self, points: &[(f64, f64)], filled: bool, outlined: bool) {
        let paint = match (filled, outlined) {
            (true, true) => "h B",
            (true, false) => "h f",
            (false, true) => "h S",
            (false, false) => return,
        };
        let Some((first, rest)) = points.split_first() else {
            return;
        };
        self.put(&[first.0 * PT_PER_MM, first.1 * PT_PER_MM], "m");
        for p in rest {
            self.put(&[p.0 * PT_PER_MM, p.1 * PT_PER_MM], "l");
        }
        self.ops.push_str(paint);
        self.ops.push('\n');
    }

    /// A straight line of a width in mm.
    pub(crate) fn line(&mut self, from: (f64, f64), to: (f64, f64), width_mm: f64) {
        self.width(width_mm);
        self.put(&[from.0 * PT_PER_MM, from.1 * PT_PER_MM], "m");
        self.put(&[to.0 * PT_PER_MM, to.1 * PT_PER_MM], "l S");
    }

    /// Text of a size in points, left-aligned at its baseline.
    pub(crate) fn text(&mut self, x: f64, y: f64, size: f32, words: &str) {
        let _ = writeln!(
            self.ops,
            "BT /F1 {} Tf {} {} Td ({}) Tj ET",
            num(size.into()),
            pt(x),
            pt(y),
            escape(words)
        );
    }
}

/// Whether the sheet's font has every character of `text` (Latin-1).
pub(crate) fn in_font(text: &str) -> bool {
    text.chars()
        .all(|c| matches!(c, ' '..='~' | '\u{a0}'..='\u{ff}'))
}

/// A player's or a side's name as the sheet prints it: the name where the
/// font has its letters, else `"{whose} {mark}"`, the mark its pieces carry
/// on the map, so that no two names print alike as `??`.
pub(crate) fn sheet_name(name: &str, whose: &str, mark: char) -> String {
    if in_font(name) {
        name.to_owned()
    } else {
        format!("{whose} {mark}")
    }
}

/// Text as a PDF string in the font's WinAnsi encoding: the Latin-1 letters
/// as they are, anything else as `?`; parentheses and backslashes escaped.
fn escape(words: &str) -> String {
    let mut out = String::with_capacity(words.len());
    for c in words.chars() {
        match c {
            '(' | ')' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            '\u{a0}'..='\u{ff}' => {
                let _ = write!(out, "\\{:03o}", u32::from(c));
            }
            _ => out.push('?'),
        }
    }
    out
}

/// A document being written: the objects' offsets, and the pages so far.
pub(crate) struct Document<'a> {
    out: &'a mut dyn Write,
    at: u64,
    /// Byte offset of every object, by number from 1.
    offsets: Vec<u64>,
    pages: Vec<usize>,
    media_box: String,
    compress: bool,
}

/// Object numbers fixed before the pages: the catalogue, the page tree and
/// the font.
const CATALOG: usize = 1;
const PAGES: usize = 2;
const FONT: usize = 3;

impl<'a> Document<'a> {
    /// Starts a document of pages `page_mm` wide and high.
    pub(crate) fn start(
        out: &'a mut dyn Write,
        page_mm: (f64, f64),
        compress: bool,
    ) -> io::Result<Document<'a>> {
        let mut doc = Document {
            out,
            at: 0,
            offsets: vec![0; FONT],
            pages: Vec::new(),
            media_box: format!("[0 0 {} {}]", pt(page_mm.0), pt(page_mm.1)),
            compress,
        };
        doc.put(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")?;
        doc.object(
            FONT,
            b"<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>",
        )?;
        Ok(doc)
    }

    fn put(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.out.write_all(bytes)?;
        self.at += bytes.len() as u64;
        Ok(())
    }

    /// A new object number.
    fn reserve(&mut self) -> usize {
        self.offsets.push(0);
        self.offsets.len()
    }

    fn object(&mut self, number: usize, body: &[u8]) -> io::Result<()> {
        self.offsets[number - 1] = self.at;
        self.put(format!("{number} 0 obj\n").as_bytes())?;
        self.put(body)?;
        self.put(b"\nendobj\n")
    }

    /// Writes a page and its drawing.
    pub(crate) fn page(&mut self, page: &Page) -> io::Result<()> {
        let contents = self.reserve();
        let data = if self.compress {
            miniz_oxide::deflate::compress_to_vec_zlib(page.ops.as_bytes(), 6)
        } else {
            page.ops.as_bytes().to_vec()
        };
        let filter = if self.compress {
            "/Filter/FlateDecode"
        } else {
            ""
        };
        let mut body = format!("<</Length {}{filter}>>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(&data);
        body.extend_from_slice(b"\nendstream");
        self.object(contents, &body)?;
        let number = self.reserve();
        let dict = format!(
            "<</Type/Page/Parent {PAGES} 0 R/MediaBox{}/Resources<</Font<</F1 {FONT} 0 R>>>>/Contents {contents} 0 R>>",
            self.media_box
        );
        self.object(number, dict.as_bytes())?;
        self.pages.push(number);
        Ok(())
    }

    /// Writes the page tree, the catalogue, the cross-reference table and
    /// the trailer.
    pub(crate) fn finish(mut self, title: &str) -> io::Result<()> {
        let kids: Vec<String> = self.pages.iter().map(|n| format!("{n} 0 R")).collect();
        let tree = format!(
            "<</Type/Pages/Count {}/Kids[{}]>>",
            self.pages.len(),
            kids.join(" ")
        );
        self.object(PAGES, tree.as_bytes())?;
        self.object(
            CATALOG,
            format!("<</Type/Catalog/Pages {PAGES} 0 R>>").as_bytes(),
        )?;
        let info = self.reserve();
        self.object(
            info,
            format!("<</Title({})/Producer(Sandtable)>>", escape(title)).as_bytes(),
        )?;
        let xref = self.at;
        let mut table = format!("xref\n0 {}\n0000000000 65535 f \n", self.offsets.len() + 1);
        for offset in &self.offsets {
            let _ = writeln!(table, "{offset:010} 00000 n ");
        }
        let _ = write!(
            table,
            "trailer\n<</Size {}/Root {CATALOG} 0 R/Info {info} 0 R>>\nstartxref\n{xref}\n%%EOF\n",
            self.offsets.len() + 1
        );
        self.put(table.as_bytes())?;
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cross_reference_table_points_at_every_object() {
        let mut bytes = Vec::new();
        let mut doc = Document::start(&mut bytes, (210.0, 297.0), false).expect("memory");
        let mut page = Page::default();
        page.text(10.0, 10.0, 8.0, "Sergeant (Vance) \\ Ünïcode ♞");
        page.rect(10.0, 20.0, 30.0, 30.0, true, true);
        doc.page(&page).expect("memory");
        doc.page(&Page::default()).expect("memory");
        doc.finish("a (title)").expect("memory");
        let text = String::from_utf8_lossy(&bytes).into_owned();
        assert!(text.starts_with("%PDF-1.4"), "{text}");
        assert!(
            text.contains("(Sergeant \\(Vance\\) \\\\ \\334n\\357code ?) Tj"),
            "{text}"
        );
        assert!(text.contains("28.346 56.693 85.039 85.039 re B"), "{text}");
        assert_eq!(num(-0.0004), "0");
        assert_eq!(num(-1.5), "-1.5");
        assert_eq!(num(841.889_763), "841.89");
        assert_eq!(num(0.05), "0.05");
        assert!(text.contains("/Type/Pages/Count 2/"), "{text}");
        // Every object starts where the table says, counted in bytes (the
        // header's second line is binary).
        let at = |offset: usize, prefix: &str| bytes[offset..].starts_with(prefix.as_bytes());
        let start = text.rfind("startxref\n").expect("startxref") + "startxref\n".len();
        let xref: usize = text[start..]
            .lines()
            .next()
            .expect("offset")
            .parse()
            .expect("number");
        assert!(at(xref, "xref\n0 "), "the table is where startxref says");
        let table = String::from_utf8_lossy(&bytes[xref..]).into_owned();
        let entries: Vec<usize> = table
            .lines()
            .skip(3)
            .take_while(|l| l.ends_with(" n "))
            .map(|l| l[..10].parse().expect("offset"))
            .collect();
        assert_eq!(
            entries.len(),
            8,
            "font, two pages of two objects, tree, catalogue, info"
        );
        for (k, offset) in entries.iter().enumerate() {
            assert!(
                at(*offset, &format!("{} 0 obj\n", k + 1)),
                "object {} is at {offset}",
                k + 1
            );
        }
    }
}
