//! SGF value types: Text and SimpleText escaping, compose values, point lists.

use tengen_rules::coord::sgf as coord;
use tengen_rules::{coord::CoordError, Point};

/// Decodes a Text value: `\` escapes the next character, a `\` before a line break removes the
/// break (a soft line break), and white space other than line breaks becomes a space.
pub fn decode_text(raw: &str) -> String {
    decode(raw, false)
}

/// Decodes a SimpleText value: as Text, and line breaks become spaces too.
pub fn decode_simple_text(raw: &str) -> String {
    decode(raw, true)
}

fn decode(raw: &str, simple: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                // Soft line break: "\" then \n, \r, \r\n or \n\r.
                Some(n @ ('\n' | '\r')) => {
                    if let Some(&m) = chars.peek() {
                        if (m == '\n' || m == '\r') && m != n {
                            chars.next();
                        }
                    }
                }
                Some(n) => out.push(if n.is_whitespace() && n != '\n' {
                    ' '
                } else {
                    n
                }),
                None => {}
            },
            '\r' | '\n' => {
                // One line break, whichever of \n, \r\n, \n\r or \r was written.
                if let Some(&m) = chars.peek() {
                    if (m == '\n' || m == '\r') && m != c {
                        chars.next();
                    }
                }
                out.push(if simple { ' ' } else { '\n' });
            }
            c if c.is_whitespace() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for a value: `]`, `\` and `:` get a backslash (`:` so that the text is also safe
/// inside compose values).
pub fn encode_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, ']' | '\\' | ':') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Splits a compose value `a:b` at its first unescaped colon.
pub fn split_compose(raw: &str) -> Option<(&str, &str)> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

/// Expands a list of point values, each a point or a compressed rectangle `aa:cc`.
pub fn points(size: u8, values: &[String]) -> Result<Vec<Point>, CoordError> {
    let mut out = Vec::new();
    for v in values {
        match split_compose(v) {
            None => out.push(coord::parse_point(size, v)?),
            Some((a, b)) => {
                let (p, q) = (coord::parse_point(size, a)?, coord::parse_point(size, b)?);
                let (c0, c1) = (p.col(size).min(q.col(size)), p.col(size).max(q.col(size)));
                let (r0, r1) = (p.row(size).min(q.row(size)), p.row(size).max(q.row(size)));
                for r in r0..=r1 {
                    for c in c0..=c1 {
                        out.extend(Point::new(size, c, r));
                    }
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_escapes_and_soft_line_breaks() {
        assert_eq!(decode_text(r"a\]b\\c\:d"), "a]b\\c:d");
        assert_eq!(decode_text("one\\\ntwo"), "onetwo");
        assert_eq!(decode_text("one\r\ntwo\tthree"), "one\ntwo three");
        assert_eq!(decode_simple_text("one\ntwo"), "one two");
        for t in ["plain", "a]b", "back\\slash", "co:lon", "multi\nline", ""] {
            assert_eq!(decode_text(&encode_text(t)), t);
        }
    }

    #[test]
    fn compressed_point_lists() {
        let pts = points(19, &["aa:cc".into(), "ss".into()]).unwrap();
        assert_eq!(pts.len(), 10);
        let pts = points(19, &["cc:aa".into()]).unwrap();
        assert_eq!(pts.len(), 9, "corners may come in either order");
        assert!(points(9, &["zz".into()]).is_err());
        assert_eq!(split_compose(r"a\:b:c"), Some((r"a\:b", "c")));
    }
}
