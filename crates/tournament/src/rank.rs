//! Ranks numbered as OpenGotha numbers them: 30k is -30, 1k is -1, 1d is 0, 9d is 8. Professional
//! ranks, which EGF files may carry, sit above: 1p is 7d's number, as the EGF rates them.

use std::fmt;
use std::str::FromStr;

/// A player's rank on the tournament scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(i32);

/// The weakest rank a tournament knows (30k).
pub const WEAKEST: Rank = Rank(-30);
/// The strongest amateur rank (9d).
pub const STRONGEST: Rank = Rank(8);

/// A rank that is not `NNk`, `Nd` or `Np`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not a rank: {0:?} (expected 30k to 1k, 1d to 9d, or 1p to 9p)")]
pub struct BadRank(pub String);

impl Rank {
    /// The rank with this number (30k = -30, 1d = 0).
    pub fn from_number(n: i32) -> Rank {
        Rank(n)
    }

    /// The number of the rank (30k = -30, 1d = 0).
    pub fn number(self) -> i32 {
        self.0
    }
}

impl FromStr for Rank {
    type Err = BadRank;

    fn from_str(text: &str) -> Result<Rank, BadRank> {
        let bad = || BadRank(text.to_string());
        let t = text.trim();
        let kind = t.chars().last().ok_or_else(bad)?;
        let digits = &t[..t.len() - kind.len_utf8()];
        if !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let n: i32 = digits.parse().map_err(|_| bad())?;
        let number = match kind {
            'k' | 'K' if (1..=30).contains(&n) => -n,
            'd' | 'D' if (1..=9).contains(&n) => n - 1,
            'p' | 'P' if (1..=9).contains(&n) => n + 5,
            _ => return Err(bad()),
        };
        Ok(Rank(number))
    }
}

impl fmt::Display for Rank {
    /// As h9 files write ranks: `5K`, `3D`; professional ranks as their dan equivalent where
    /// there is one (1p to 3p are 7d to 9d), and as `4P` to `9P` above, so that every rank
    /// reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            write!(f, "{}K", -self.0)
        } else if self.0 <= STRONGEST.0 {
            write!(f, "{}D", self.0 + 1)
        } else {
            write!(f, "{}P", self.0 - 5)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_numbered_as_opengotha_numbers_them() {
        let n = |s: &str| s.parse::<Rank>().map(Rank::number);
        assert_eq!(n("30k"), Ok(-30));
        assert_eq!(n("1K"), Ok(-1));
        assert_eq!(n("1d"), Ok(0));
        assert_eq!(n(" 9D"), Ok(8));
        assert_eq!(n("1p"), Ok(6));
        for bad in [
            "", "é", "3é", "+3k", "k", "0k", "31k", "10d", "3x", "-1k", "1.5d",
        ] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
        assert_eq!(Rank::from_number(-5).to_string(), "5K");
        assert_eq!(Rank::from_number(2).to_string(), "3D");
        // Every rank reads back from how it is written, professionals above 9d included.
        for n in -30..=14 {
            let r = Rank::from_number(n);
            assert_eq!(r.to_string().parse::<Rank>(), Ok(r), "{r}");
        }
    }
}
