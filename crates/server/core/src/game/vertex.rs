//! A point as the log and the wire write it: GTP's vertex (`D4`: a column letter without `I`,
//! the row counted from the bottom), read once into a column and a row. It needs no board size
//! to be read or written; [`Vertex::point`] places it on a board of a given size, which is where
//! a vertex off that board is found (shakmaty's `Uci`, checked in context after parsing).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use tengen_rules::Point;

const LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A vertex: a column (0 = `A`) and a row counted from the bottom (1 = the bottom row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Vertex {
    /// The column, 0 for `A` (`I` is skipped: `J` is 8).
    col: u8,
    /// The row, counted from 1 at the bottom.
    row: u8,
}

/// Text that is not a vertex.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a vertex: {0:?}")]
pub struct BadVertex(pub String);

impl Vertex {
    /// The vertex of `p` on a board of side `size`.
    pub fn of(size: u8, p: Point) -> Vertex {
        Vertex {
            col: p.col(size),
            row: size - p.row(size),
        }
    }

    /// The point on a board of side `size`, or `None` if the vertex lies off it.
    pub fn point(self, size: u8) -> Option<Point> {
        if self.row == 0 || self.row > size {
            return None;
        }
        Point::new(size, self.col, size - self.row)
    }
}

impl std::str::FromStr for Vertex {
    type Err = BadVertex;

    /// Reads `D4` or `q16` (any case); a size is not needed, only a column and a row of at
    /// most 25.
    fn from_str(s: &str) -> Result<Vertex, BadVertex> {
        let bad = || BadVertex(s.to_string());
        let mut chars = s.chars();
        let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
        let col = LETTERS
            .iter()
            .position(|&l| l as char == letter)
            .ok_or_else(bad)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let row: u8 = digits.parse().map_err(|_| bad())?;
        if row == 0 || row as usize > LETTERS.len() {
            return Err(bad());
        }
        Ok(Vertex {
            col: col as u8,
            row,
        })
    }
}

impl fmt::Display for Vertex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", LETTERS[self.col as usize] as char, self.row)
    }
}

impl Serialize for Vertex {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Vertex {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Vertex, D::Error> {
        let s = std::borrow::Cow::<str>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::coord::gtp;

    #[test]
    fn a_vertex_reads_and_writes_as_gtp_does_on_every_point() {
        for size in [5u8, 9, 13, 19, 25] {
            for v in ["A1", "J1", "T19", "Z25", "H8", "E5"] {
                let Ok(p) = gtp::parse_point(size, v) else {
                    let vertex: Vertex = v.parse().unwrap();
                    assert_eq!(vertex.point(size), None, "{v} off a {size} board");
                    continue;
                };
                let vertex = Vertex::of(size, p);
                assert_eq!(vertex.to_string(), v);
                assert_eq!(v.parse::<Vertex>(), Ok(vertex));
                assert_eq!(vertex.point(size), Some(p));
            }
        }
        assert_eq!("q16".parse::<Vertex>().unwrap().to_string(), "Q16");
        for bad in ["", "I5", "D0", "D26", "D", "4", "pass", "D4x", "D-1"] {
            assert!(bad.parse::<Vertex>().is_err(), "{bad:?}");
        }
    }
}
