//! Ranks (seed 002 "RANKING", seed 000's 30 kyu to 9 dan).
//!
//! Amateur ranks run from 30 kyu (weakest) to 1 kyu, then 1 dan to 9 dan; professional ranks from
//! 1 to 9 dan professional, shown with `[P]`. For choosing the game type a professional rank
//! counts as an amateur one: 1p-3p as 7 dan, 4p-6p as 8 dan, 7p-9p as 9 dan (professional ranks
//! are about a third of a stone apart, amateur ranks a full stone). Guests play at 18 kyu.

use std::fmt;
use std::str::FromStr;

/// A player's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// 30 kyu (weakest) to 1 kyu.
    Kyu(u8),
    /// 1 to 9 dan amateur.
    Dan(u8),
    /// 1 to 9 dan professional.
    Pro(u8),
}

/// The rank given to guests (seed 002: "For the guest player, the lowest rank, 18k, will be
/// given").
pub const GUEST_RANK: Rank = Rank::Kyu(18);

impl Rank {
    /// Strength in amateur ranks: 30k = 0, 1k = 29, 1d = 30, 9d = 38; professionals as above.
    pub fn level(self) -> i32 {
        match self {
            Rank::Kyu(k) => 30 - k as i32,
            Rank::Dan(d) => 29 + d as i32,
            Rank::Pro(p) => 29 + 7 + (p as i32 - 1) / 3,
        }
    }

    /// One rank up, or the same at the top of its scale (9d amateur, 9p).
    pub fn promoted(self) -> Rank {
        match self {
            Rank::Kyu(1) => Rank::Dan(1),
            Rank::Kyu(k) => Rank::Kyu(k - 1),
            Rank::Dan(d) => Rank::Dan((d + 1).min(9)),
            Rank::Pro(p) => Rank::Pro((p + 1).min(9)),
        }
    }

    /// One rank down, or the same at the bottom of its scale (30k, 1p).
    pub fn demoted(self) -> Rank {
        match self {
            Rank::Dan(1) => Rank::Kyu(1),
            Rank::Dan(d) => Rank::Dan(d - 1),
            Rank::Kyu(k) => Rank::Kyu((k + 1).min(30)),
            Rank::Pro(p) => Rank::Pro((p - 1).max(1)),
        }
    }
}

impl fmt::Display for Rank {
    /// `18k`, `3d`, `5d [P]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(k) => write!(f, "{k}k"),
            Rank::Dan(d) => write!(f, "{d}d"),
            Rank::Pro(p) => write!(f, "{p}d [P]"),
        }
    }
}

/// A rank that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid rank {0:?}: use 30k to 1k, 1d to 9d, or 1p to 9p")]
pub struct RankError(pub String);

impl FromStr for Rank {
    type Err = RankError;

    /// Reads `18k`, `18 kyu`, `3d`, `3 dan`, `5p`, `5d [P]`, `5d[P]` in any case.
    fn from_str(s: &str) -> Result<Rank, RankError> {
        let bad = || RankError(s.to_string());
        let t: String = s
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        let (t, pro) = match t.strip_suffix("[p]") {
            Some(rest) => (rest.to_string(), true),
            None => (t, false),
        };
        let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
        let n: u8 = digits.parse().map_err(|_| bad())?;
        let unit = &t[digits.len()..];
        let rank = match (unit, pro) {
            ("k" | "kyu" | "keup", false) if (1..=30).contains(&n) => Rank::Kyu(n),
            ("d" | "dan", false) if (1..=9).contains(&n) => Rank::Dan(n),
            ("p" | "pro", false) | ("d" | "dan" | "p", true) if (1..=9).contains(&n) => {
                Rank::Pro(n)
            }
            _ => return Err(bad()),
        };
        Ok(rank)
    }
}

/// Written as its text (`3k`, `5d [P]`), the string the `users.rank` column and every answer
/// held before ranks were typed, so the wire does not change.
impl serde::Serialize for Rank {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Read as [`FromStr`] reads it.
impl<'de> serde::Deserialize<'de> for Rank {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rank, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_display() {
        assert_eq!("18k".parse(), Ok(Rank::Kyu(18)));
        assert_eq!("3 Dan".parse(), Ok(Rank::Dan(3)));
        assert_eq!("5p".parse(), Ok(Rank::Pro(5)));
        assert_eq!("5d [P]".parse(), Ok(Rank::Pro(5)));
        assert_eq!(Rank::Pro(5).to_string(), "5d [P]");
        assert_eq!(Rank::Pro(5).to_string().parse(), Ok(Rank::Pro(5)));
        for bad in ["0k", "31k", "10d", "10p", "k", "3x", "", "-1k"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }

    #[test]
    fn serde_writes_and_reads_the_text() {
        for r in [Rank::Kyu(3), Rank::Dan(2), Rank::Pro(5)] {
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{r}\""));
            assert_eq!(serde_json::from_str::<Rank>(&json).unwrap(), r);
        }
        assert!(serde_json::from_str::<Rank>("\"31k\"").is_err());
    }

    #[test]
    fn levels_order_the_ranks() {
        assert!(Rank::Kyu(30).level() < Rank::Kyu(1).level());
        assert_eq!(Rank::Dan(1).level() - Rank::Kyu(1).level(), 1);
        assert_eq!(Rank::Pro(1).level(), Rank::Dan(7).level());
        assert_eq!(Rank::Pro(9).level(), Rank::Dan(9).level());
        assert_eq!(Rank::Kyu(1).promoted(), Rank::Dan(1));
        assert_eq!(Rank::Dan(1).demoted(), Rank::Kyu(1));
        assert_eq!(Rank::Kyu(30).demoted(), Rank::Kyu(30));
        assert_eq!(Rank::Dan(9).promoted(), Rank::Dan(9));
    }
}
