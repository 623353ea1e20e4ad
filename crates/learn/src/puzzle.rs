//! Puzzles: one position and one problem each (kill, live, win a capturing race, capture),
//! written as a lesson's step (`docs/lessons.md`) with three more root properties: `ID` (the
//! puzzle's address), `LV` (its level as a rank, `25k` to `9d`) and `KIND` (`life`, `race` or
//! `tesuji`). Each game tree of a puzzle file is one puzzle. The tries are the whole solution
//! tree: the right move (`TE[1]`) with the defence's best answer and the next right move, and
//! every plausible wrong try (`BM[1]`) with the defence's refutation; a move the tree does not
//! list is wrong (no `GOAL`: only the listed right tries are right).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;
use tengen_sgf::Node;

use crate::goal::Goal;
use crate::lesson::{read_step, Step};
use crate::LessonError;

/// What a puzzle asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Make a group live, or kill one.
    Life,
    /// Win a capturing race (semeai): two groups, one of them dies.
    Race,
    /// Capture stones with a tactic (ladder, net, snapback, throw-in).
    Tesuji,
}

impl Kind {
    /// Every kind, in the order the client lists them.
    pub const ALL: [Kind; 3] = [Kind::Life, Kind::Race, Kind::Tesuji];

    /// The name in the files and on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Life => "life",
            Kind::Race => "race",
            Kind::Tesuji => "tesuji",
        }
    }
}

impl FromStr for Kind {
    type Err = ();
    fn from_str(s: &str) -> Result<Kind, ()> {
        Kind::ALL
            .into_iter()
            .find(|k| k.name() == s.trim())
            .ok_or(())
    }
}

/// A puzzle's level: a rank level as the server's ratings count them, 0 for 30 kyu, 29 for
/// 1 kyu, 30 for 1 dan, 38 for 9 dan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The strongest level (9 dan).
    pub const TOP: u8 = 38;

    /// The level `n` (0 = 30k), when it is a rank.
    pub fn new(n: u8) -> Option<Level> {
        (n <= Level::TOP).then_some(Level(n))
    }

    /// The rank level: 0 = 30k, 30 = 1d.
    pub fn number(self) -> u8 {
        self.0
    }
}

impl FromStr for Level {
    type Err = ();
    /// `25k`, `1k`, `1d`, `9d`.
    fn from_str(s: &str) -> Result<Level, ()> {
        let s = s.trim();
        // Split before the last character, not the last byte (`5é` is refused, not a panic).
        let (n, unit) = s.split_at(s.char_indices().last().ok_or(())?.0);
        let n: u8 = n.parse().map_err(|_| ())?;
        match unit {
            "k" | "K" if (1..=30).contains(&n) => Ok(Level(30 - n)),
            "d" | "D" if (1..=9).contains(&n) => Ok(Level(29 + n)),
            _ => Err(()),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 30 {
            write!(f, "{}k", 30 - self.0)
        } else {
            write!(f, "{}d", self.0 - 29)
        }
    }
}

impl Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// One puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// Its address (`ID`), unique among every file's puzzles.
    pub id: String,
    /// How strong a player it asks for (`LV`); the start of its rating.
    pub level: Level,
    /// What it asks (`KIND`).
    pub kind: Kind,
    /// The position, the question and the solution tree.
    pub step: Step,
}

/// Reads the puzzles of file `name` (each game tree one puzzle).
pub fn read(name: &str, sgf_text: &str) -> Result<Vec<Puzzle>, LessonError> {
    let collection =
        tengen_sgf::parse_str(sgf_text).map_err(|e| LessonError::Sgf(format!("{name}: {e}")))?;
    let mut out = Vec::with_capacity(collection.games.len());
    for (i, tree) in collection.games.iter().enumerate() {
        let place = format!("{name}, puzzle {}", i + 1);
        let root = tree
            .root()
            .ok_or_else(|| LessonError::Shape(format!("{place}: an empty game tree")))?;
        let id = root
            .simple_text("ID")
            .filter(|id| is_id(id))
            .ok_or_else(|| LessonError::Shape(format!("{place}: no ID (letters, digits, -)")))?;
        let place = format!("{name}, puzzle {id}");
        let level = property(root, "LV", &place)?;
        let kind = property(root, "KIND", &place)?;
        let step = read_step(tree, &place)?;
        if step.goal != Goal::Listed {
            return Err(LessonError::Shape(format!(
                "{place}: a puzzle has no GOAL (its tries say what is right)"
            )));
        }
        if !step.answers.iter().any(|a| a.right) {
            return Err(LessonError::Shape(format!("{place}: no right try")));
        }
        out.push(Puzzle {
            id,
            level,
            kind,
            step,
        });
    }
    Ok(out)
}

/// An id a URL carries as it is.
fn is_id(id: &str) -> bool {
    (1..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

fn property<T: FromStr>(node: &Node, id: &str, place: &str) -> Result<T, LessonError> {
    let v = node
        .simple_text(id)
        .ok_or_else(|| LessonError::Shape(format!("{place}: no {id}")))?;
    v.parse()
        .map_err(|_| LessonError::Shape(format!("{place}: {id}[{v}]")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_print_as_ranks() {
        for (text, n) in [("30k", 0), ("25k", 5), ("1k", 29), ("1d", 30), ("9d", 38)] {
            let level: Level = text.parse().expect("a rank");
            assert_eq!(level.number(), n);
            assert_eq!(level.to_string(), text);
        }
        for bad in ["", "k", "0k", "31k", "10d", "5p", "-1k", "1", "5é", "é"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_puzzle_without_an_id_or_a_right_try_is_refused() {
        let q = "C[x]CKO[x]CJA[x]CZH[x]";
        let no_id = format!("(;SZ[5]AB[cc]LV[20k]KIND[life]{q};B[aa]TE[1])");
        assert!(read("f", &no_id).is_err());
        let no_right = format!("(;SZ[5]AB[cc]ID[a]LV[20k]KIND[life]{q};B[aa]BM[1])");
        let err = read("f", &no_right).expect_err("nothing is right");
        assert!(err.to_string().contains("no right try"), "{err}");
        let ok = format!("(;SZ[5]AB[cc]ID[a-1]LV[20k]KIND[race]{q};B[aa]TE[1])");
        let p = read("f", &ok).expect("it reads");
        assert_eq!((p[0].id.as_str(), p[0].kind), ("a-1", Kind::Race));
    }
}
