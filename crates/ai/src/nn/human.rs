//! The profiles of KataGo's human-style nets (`humanSLProfile`): who is imagined to be playing,
//! as the SGF metadata those nets were trained on, and the 192 inputs made from it
//! (KataGo's `cpp/neuralnet/sgfmetadata.cpp`, `getProfile` and `fillMetadataRow`; the
//! numbers are KataGo's, the code Tengen's own).
//!
//! - `rank_5k`, `rank_3d` (20k to 9d): KGS players of that rank after AlphaZero (March 2020),
//!   byo-yomi 20 minutes and 5 x 30 s; `preaz_5k` the same in September 2016;
//!   `rank_1k_3d` Black 1k, White 3d.
//! - `proyear_1985` (1800 to 2023): professionals of that year (GoGoD to 2020, Go4Go after).

use tengen_rules::Color;

use super::model::META_INPUTS;
use super::NnError;

/// KataGo's `SGFMetadata`, the parts its profiles set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HumanProfile {
    /// KataGo's inverse ranks: 9d is 1, 1d 9, 1k 10, 20k 29.
    inverse_rank_black: u32,
    inverse_rank_white: u32,
    /// A KGS rank game (else a professional one of unknown time control and ratedness).
    kgs: bool,
    /// Days from 1970-01-01 to the imagined game.
    days: i64,
    /// KataGo's source: 2 KGS, 5 GoGoD, 6 Go4Go.
    source: usize,
}

impl HumanProfile {
    /// The profile KataGo names `name` (an unknown name is refused, as KataGo refuses it).
    pub fn parse(name: &str) -> Result<HumanProfile, NnError> {
        let unknown = || NnError::UnknownProfile(name.to_string());
        if let Some(year) = name.strip_prefix("proyear_") {
            let year: i64 = year.parse().map_err(|_| unknown())?;
            return match year {
                1800..=2023 => Ok(HumanProfile {
                    inverse_rank_black: 1,
                    inverse_rank_white: 1,
                    kgs: false,
                    days: days_from_1970(year, 6, 1),
                    source: if year <= 2020 { 5 } else { 6 },
                }),
                _ => Err(unknown()),
            };
        }
        let (ranks, date) = match (name.strip_prefix("rank_"), name.strip_prefix("preaz_")) {
            (Some(r), _) => (r, days_from_1970(2020, 3, 1)),
            (_, Some(r)) => (r, days_from_1970(2016, 9, 1)),
            _ => return Err(unknown()),
        };
        let (black, white) = match ranks.split_once('_') {
            None => (inverse_rank(ranks), inverse_rank(ranks)),
            Some((b, w)) => (inverse_rank(b), inverse_rank(w)),
        };
        match (black, white) {
            (Some(b), Some(w)) => Ok(HumanProfile {
                inverse_rank_black: b,
                inverse_rank_white: w,
                kgs: true,
                days: date,
                source: 2,
            }),
            _ => Err(unknown()),
        }
    }

    /// The metadata inputs for `to_move` on a board of `area` points (`fillMetadataRow`).
    pub fn row(&self, to_move: Color, area: usize) -> [f32; META_INPUTS] {
        let mut row = [0.0f32; META_INPUTS];
        // Both players human; ranked, rank known.
        row[0] = 1.0;
        row[1] = 1.0;
        let (pla, opp) = match to_move {
            Color::Black => (self.inverse_rank_black, self.inverse_rank_white),
            Color::White => (self.inverse_rank_white, self.inverse_rank_black),
        };
        for i in 0..pla.min(34) as usize {
            row[6 + i] = 1.0;
        }
        for i in 0..opp.min(34) as usize {
            row[40 + i] = 1.0;
        }
        let (main, period, periods) = if self.kgs {
            // Ratedness unknown (0.5); byo-yomi 1200 s and 5 periods of 30 s.
            row[74] = 0.5;
            row[79] = 1.0;
            (1200.0, 30.0, 5.0)
        } else {
            // Rated; time control unknown, no times.
            row[75] = 1.0;
            (0.0, 0.0, 0.0)
        };
        row[82] = (0.4 * ((main + 60.0f64).ln() - 6.5)) as f32;
        row[83] = (0.3 * ((period + 1.0f64).ln() - 3.0)) as f32;
        row[84] = (0.5 * ((periods + 2.0f64).ln() - 1.5)) as f32;
        row[85] = (0.25 * (2.0f64.ln() - 1.5)) as f32;
        row[86] = (0.5 * (area as f64 / 361.0).ln()) as f32;
        // The date as 32 clocks, a week's period growing to 80,000 times that.
        let factor = 80000f64.powf(1.0 / 31.0);
        let mut period = 7.0;
        for i in 0..32 {
            let turns = self.days as f64 / period;
            let angle = turns * std::f64::consts::TAU;
            row[87 + 2 * i] = angle.cos() as f32;
            row[88 + 2 * i] = angle.sin() as f32;
            period *= factor;
        }
        row[151 + self.source] = 1.0;
        row
    }
}

/// KataGo's inverse rank of `9d` to `20k` (any other text, none: the name comes over GTP).
fn inverse_rank(rank: &str) -> Option<u32> {
    let (digits, dan) = match (rank.strip_suffix('d'), rank.strip_suffix('k')) {
        (Some(n), _) => (n, true),
        (_, Some(n)) => (n, false),
        _ => return None,
    };
    let n: u32 = digits.parse().ok()?;
    // KataGo compares whole strings: no sign, no leading zero.
    if n.to_string() != digits {
        return None;
    }
    match dan {
        true if (1..=9).contains(&n) => Some(10 - n),
        false if (1..=20).contains(&n) => Some(9 + n),
        _ => None,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (KataGo's
/// `SimpleDate::numDaysAfter`).
fn days_from_1970(year: i64, month: i64, day: i64) -> i64 {
    // Howard Hinnant's days_from_civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_count_days_as_the_calendar_does() {
        assert_eq!(days_from_1970(1970, 1, 1), 0);
        assert_eq!(days_from_1970(2000, 3, 1), 11017);
        assert_eq!(days_from_1970(2020, 3, 1), 18322);
        assert_eq!(days_from_1970(1969, 12, 31), -1);
        assert_eq!(days_from_1970(1800, 6, 1), -61940);
    }

    #[test]
    fn ranks_run_from_9d_to_20k() {
        assert_eq!(inverse_rank("9d"), Some(1));
        assert_eq!(inverse_rank("1d"), Some(9));
        assert_eq!(inverse_rank("1k"), Some(10));
        assert_eq!(inverse_rank("20k"), Some(29));
        for bad in [
            "",
            "d",
            "0d",
            "10d",
            "21k",
            "5p",
            "-1k",
            "k5",
            "05k",
            "+5k",
            "5é",
            "é",
            "1k\u{301}",
        ] {
            assert_eq!(inverse_rank(bad), None, "{bad}");
        }
    }

    #[test]
    fn profiles_are_katagos_names() {
        let p = HumanProfile::parse("rank_1k_3d").unwrap();
        assert_eq!((p.inverse_rank_black, p.inverse_rank_white), (10, 7));
        assert!(HumanProfile::parse("preaz_20k").unwrap().kgs);
        assert_eq!(HumanProfile::parse("proyear_2021").unwrap().source, 6);
        for bad in [
            "",
            "rank_",
            "rank_25k",
            "proyear_2024",
            "proyear_x",
            "rank_1k_2k_3k",
            "5k",
            "rank_5é",
            "preaz_1k_é",
        ] {
            assert!(matches!(
                HumanProfile::parse(bad),
                Err(NnError::UnknownProfile(_))
            ));
        }
    }

    #[test]
    fn a_row_is_seen_from_the_player_to_move() {
        let p = HumanProfile::parse("rank_1k_3d").unwrap();
        let b = p.row(Color::Black, 81);
        let w = p.row(Color::White, 81);
        // Black (1k, inverse 10) to move: ten ones, then White's seven.
        assert_eq!(b[6..40].iter().sum::<f32>(), 10.0);
        assert_eq!(b[40..74].iter().sum::<f32>(), 7.0);
        assert_eq!(w[6..40].iter().sum::<f32>(), 7.0);
        assert_eq!((b[79], b[75], b[153]), (1.0, 0.0, 1.0));
        assert!((b[86] - (0.5 * (81.0f64 / 361.0).ln()) as f32).abs() < 1e-7);
    }
}
