//! Rule sets as data, and the named presets of the seed documents.
//!
//! Every rule set is a [`Rules`] value; where rule sets really differ it is in one of its fields.
//! `docs/rules.md` cites, for each preset, the seed passage it implements.

use std::fmt;
use std::str::FromStr;

/// What stops a position from recurring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KoRule {
    /// Only the immediate recapture of a single stone is forbidden (the basic ko rule).
    Simple,
    /// No move may recreate an earlier board position.
    PositionalSuperko,
    /// No move may recreate an earlier board position with the same player to move.
    SituationalSuperko,
}

/// Whether a move may leave its own chain without liberties.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SuicideRule {
    /// Never.
    Illegal,
    /// A move that removes two or more of one's own stones is legal; a single stone is not.
    MultiStoneLegal,
    /// Any self-capture is legal, and it loses the game (First Capture Go).
    SelfCaptureLoses,
}

/// How the final position is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// Stones on the board plus surrounded empty points (Chinese counting).
    Area,
    /// Surrounded empty points plus prisoners (Japanese counting); points in seki count for
    /// nobody.
    Territory,
    /// Territory plus stones on the board plus prisoners (the WGA 9x9 count of seed 000).
    AreaPlusPrisoners,
}

impl Scoring {
    /// True when the count includes stones on the board.
    pub fn counts_stones(self) -> bool {
        matches!(self, Scoring::Area | Scoring::AreaPlusPrisoners)
    }

    /// True when the count includes prisoners.
    pub fn counts_prisoners(self) -> bool {
        matches!(self, Scoring::Territory | Scoring::AreaPlusPrisoners)
    }
}

/// Points White receives for Black's handicap stones (area counting gives Black a point for
/// each extra stone, so area rule sets compensate).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapBonus {
    /// Nothing.
    Zero,
    /// One point per handicap stone (Chinese).
    N,
    /// One point per handicap stone after the first (AGA).
    NMinusOne,
}

impl HandicapBonus {
    /// White's bonus, in points, for `stones` handicap stones.
    pub fn points(self, stones: u32) -> u32 {
        match self {
            HandicapBonus::Zero => 0,
            HandicapBonus::N => stones,
            HandicapBonus::NMinusOne => stones.saturating_sub(1),
        }
    }
}

/// What happens, under the simple ko rule, when a whole-board position occurs for the third time
/// with the same player to move (triple ko, eternal life, sending two returning one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// Play goes on.
    Nothing,
    /// The game ends without result (Japanese and Korean rules).
    NoResult,
    /// The game ends in a draw (the Internet Gaming Zone's "three kos").
    Draw,
}

/// How the game ends, apart from resignation, time and forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameEnd {
    /// Two consecutive passes end play; the position is then counted.
    TwoPasses,
    /// The first capture wins (First Capture Go).
    FirstCapture,
}

/// Where handicap stones go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HandicapPlacement {
    /// On the fixed points ([`crate::handicap::fixed`]).
    Fixed,
    /// Black chooses the points (fixed points are also accepted).
    Free,
}

/// Whether stones can be declared dead when play stops.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeadStones {
    /// The players mark dead stones after play stops and the count takes them off (every rule
    /// set of the seeds).
    Agreed,
    /// Every stone on the board when play stops is alive; a dead group must be captured before
    /// both players pass (Tromp-Taylor: "a point of P's color is counted as P's").
    NoneRemoved,
}

/// Komi in half points: integers and halves only, so that results are exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Komi(i32);

impl Komi {
    /// Komi of `halves` half points (13 is 6.5).
    pub const fn from_halves(halves: i32) -> Komi {
        Komi(halves)
    }

    /// A whole-number komi.
    pub const fn points(points: i32) -> Komi {
        Komi(points * 2)
    }

    /// In half points.
    pub const fn halves(self) -> i32 {
        self.0
    }

    /// True for an integer komi, with which a game can be drawn.
    pub const fn is_integer(self) -> bool {
        self.0 % 2 == 0
    }

    /// As a float, for GTP `komi` and displays.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_halves(f, self.0)
    }
}

/// Writes a number of half points as `7`, `6.5`, `-0.5`.
pub(crate) fn write_halves(f: &mut fmt::Formatter<'_>, halves: i32) -> fmt::Result {
    let sign = if halves < 0 { "-" } else { "" };
    let a = halves.unsigned_abs();
    if a % 2 == 0 {
        write!(f, "{sign}{}", a / 2)
    } else {
        write!(f, "{sign}{}.5", a / 2)
    }
}

/// A komi that is not an integer or a half, or is out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("komi must be a whole or half number between -1000 and 1000, not {0:?}")]
pub struct KomiError(pub String);

impl FromStr for Komi {
    type Err = KomiError;

    /// Reads `6.5`, `7`, `-3`, `0.50`, `7.0`.
    fn from_str(s: &str) -> Result<Komi, KomiError> {
        let bad = || KomiError(s.to_string());
        let t = s.trim();
        let (neg, body) = match t.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, t.strip_prefix('+').unwrap_or(t)),
        };
        let (int, frac) = body.split_once('.').unwrap_or((body, ""));
        if int.is_empty() || int.len() > 4 || !int.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        if !frac.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let int: i32 = int.parse().map_err(|_| bad())?;
        let frac = frac.trim_end_matches('0');
        let half = match frac {
            "" => 0,
            "5" => 1,
            _ => return Err(bad()),
        };
        let halves = int * 2 + half;
        if halves > 2000 {
            return Err(bad());
        }
        Ok(Komi(if neg { -halves } else { halves }))
    }
}

/// A complete rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Repetition rule for moves.
    pub ko: KoRule,
    /// Whether self-capture is allowed.
    pub suicide: SuicideRule,
    /// How the final position is counted.
    pub scoring: Scoring,
    /// Points White receives.
    pub komi: Komi,
    /// Points White receives per handicap stone.
    pub handicap_bonus: HandicapBonus,
    /// What a third occurrence of a position does under the simple ko rule.
    pub repetition: Repetition,
    /// Whether dead stones are taken off before counting.
    pub dead_stones: DeadStones,
    /// How play ends.
    pub end: GameEnd,
    /// Where handicap stones go.
    pub handicap_placement: HandicapPlacement,
    /// Fewest handicap stones (a handicap of one stone is an even game without komi).
    pub min_handicap: u8,
    /// Most handicap stones.
    pub max_handicap: u8,
    /// Smallest board side allowed.
    pub min_size: u8,
    /// Largest board side allowed.
    pub max_size: u8,
}

/// A named rule set: the names the CLI, GTP and the server accept.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// 9x9 under the WGA (seed 000).
    Wga,
    /// Chinese rules.
    Chinese,
    /// Japanese rules.
    Japanese,
    /// Korean rules, as the Black&White server plays them (seed 002).
    Korean,
    /// The Internet Gaming Zone (seed 003).
    Igz,
    /// The Arena (seed 001).
    Arena,
    /// American Go Association.
    Aga,
    /// Tromp-Taylor.
    TrompTaylor,
    /// New Zealand.
    Nz,
    /// First Capture Go (seed 004).
    FirstCapture,
}

impl Preset {
    /// Every preset, in documentation order.
    pub const ALL: [Preset; 10] = [
        Preset::Wga,
        Preset::Chinese,
        Preset::Japanese,
        Preset::Korean,
        Preset::Igz,
        Preset::Arena,
        Preset::Aga,
        Preset::TrompTaylor,
        Preset::Nz,
        Preset::FirstCapture,
    ];

    /// The name used on the command line, in GTP and in the server's API.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Wga => "wga",
            Preset::Chinese => "chinese",
            Preset::Japanese => "japanese",
            Preset::Korean => "korean",
            Preset::Igz => "igz",
            Preset::Arena => "arena",
            Preset::Aga => "aga",
            Preset::TrompTaylor => "tromp-taylor",
            Preset::Nz => "nz",
            Preset::FirstCapture => "first-capture",
        }
    }

    /// The board a game under this preset is played on unless a size is asked for: 9x9 for
    /// the WGA (seed 000 is a 9x9 rule set), 19x19 otherwise.
    pub const fn default_size(self) -> u8 {
        match self {
            Preset::Wga => 9,
            _ => 19,
        }
    }

    /// Whether this preset allows a board of side `size`.
    pub fn allows_size(self, size: u8) -> bool {
        let r = self.rules(size);
        (r.min_size..=r.max_size).contains(&size)
    }

    /// The rule set for a board of side `size` (Korean komi depends on the size).
    pub fn rules(self, size: u8) -> Rules {
        let japanese = Rules {
            ko: KoRule::Simple,
            suicide: SuicideRule::Illegal,
            scoring: Scoring::Territory,
            komi: Komi::from_halves(13),
            handicap_bonus: HandicapBonus::Zero,
            repetition: Repetition::NoResult,
            dead_stones: DeadStones::Agreed,
            end: GameEnd::TwoPasses,
            handicap_placement: HandicapPlacement::Fixed,
            min_handicap: 2,
            max_handicap: 9,
            min_size: 2,
            max_size: 25,
        };
        let area = Rules {
            scoring: Scoring::Area,
            komi: Komi::from_halves(15),
            repetition: Repetition::Nothing,
            handicap_placement: HandicapPlacement::Free,
            ..japanese
        };
        match self {
            Preset::Wga => Rules {
                scoring: Scoring::AreaPlusPrisoners,
                komi: Komi::points(7),
                handicap_bonus: HandicapBonus::Zero,
                handicap_placement: HandicapPlacement::Fixed,
                max_handicap: 5,
                min_size: 9,
                max_size: 9,
                ..area
            },
            Preset::Chinese => Rules {
                handicap_bonus: HandicapBonus::N,
                ..area
            },
            Preset::Japanese => japanese,
            Preset::Korean => Rules {
                komi: if size >= 19 {
                    Komi::from_halves(13)
                } else {
                    Komi::from_halves(1)
                },
                max_handicap: 25,
                ..japanese
            },
            Preset::Igz => Rules {
                repetition: Repetition::Draw,
                ..japanese
            },
            Preset::Arena => Rules {
                ko: KoRule::SituationalSuperko,
                repetition: Repetition::Nothing,
                ..japanese
            },
            Preset::Aga => Rules {
                ko: KoRule::SituationalSuperko,
                handicap_bonus: HandicapBonus::NMinusOne,
                handicap_placement: HandicapPlacement::Fixed,
                ..area
            },
            Preset::TrompTaylor => Rules {
                ko: KoRule::PositionalSuperko,
                suicide: SuicideRule::MultiStoneLegal,
                dead_stones: DeadStones::NoneRemoved,
                ..area
            },
            Preset::Nz => Rules {
                ko: KoRule::SituationalSuperko,
                suicide: SuicideRule::MultiStoneLegal,
                komi: Komi::points(7),
                ..area
            },
            Preset::FirstCapture => Rules {
                suicide: SuicideRule::SelfCaptureLoses,
                scoring: Scoring::Area,
                komi: Komi::points(0),
                repetition: Repetition::Nothing,
                end: GameEnd::FirstCapture,
                min_handicap: 2,
                max_handicap: 0,
                min_size: 5,
                max_size: 19,
                ..japanese
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set name Tengen does not know.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}; known: wga, chinese, japanese, korean, igz, arena, aga, tromp-taylor, nz, first-capture")]
pub struct UnknownPreset(pub String);

impl FromStr for Preset {
    type Err = UnknownPreset;

    /// Reads a preset name, case-insensitively, with the spellings SGF `RU` and GTP
    /// controllers use (`Japanese`, `AGA`, `NZ`, `New Zealand`, `Tromp-Taylor`, `TT`, ...).
    fn from_str(s: &str) -> Result<Preset, UnknownPreset> {
        let key: String = s
            .trim()
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        Ok(match key.as_str() {
            "wga" | "wga9x9" => Preset::Wga,
            "chinese" | "cn" | "chn" => Preset::Chinese,
            "japanese" | "jp" | "jap" => Preset::Japanese,
            "korean" | "kr" | "kor" => Preset::Korean,
            "igz" | "internetgamingzone" | "zone" => Preset::Igz,
            "arena" => Preset::Arena,
            "aga" | "american" | "bga" => Preset::Aga,
            "tromptaylor" | "tt" => Preset::TrompTaylor,
            "nz" | "newzealand" => Preset::Nz,
            "firstcapture" | "firstcapturego" | "atarigo" => Preset::FirstCapture,
            _ => return Err(UnknownPreset(s.to_string())),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn komi_reads_integers_and_halves_only() {
        assert_eq!("6.5".parse(), Ok(Komi::from_halves(13)));
        assert_eq!("7".parse(), Ok(Komi::points(7)));
        assert_eq!("7.0".parse(), Ok(Komi::points(7)));
        assert_eq!("-0.5".parse(), Ok(Komi::from_halves(-1)));
        assert_eq!("0.50".parse(), Ok(Komi::from_halves(1)));
        for bad in ["", "6.25", "abc", "1e3", "--1", ".5", "99999", "6.5.5"] {
            assert!(bad.parse::<Komi>().is_err(), "{bad}");
        }
        assert_eq!(Komi::from_halves(-13).to_string(), "-6.5");
        assert_eq!(Komi::points(7).to_string(), "7");
    }

    #[test]
    fn every_preset_name_round_trips() {
        for p in Preset::ALL {
            assert_eq!(p.name().parse::<Preset>(), Ok(p));
        }
        assert_eq!("New Zealand".parse::<Preset>(), Ok(Preset::Nz));
        assert_eq!("Tromp-Taylor".parse::<Preset>(), Ok(Preset::TrompTaylor));
        assert!("go".parse::<Preset>().is_err());
    }

    #[test]
    fn every_default_size_is_allowed() {
        for p in Preset::ALL {
            assert!(p.allows_size(p.default_size()), "{p}");
        }
        assert_eq!(Preset::Wga.default_size(), 9);
        assert!(!Preset::Wga.allows_size(19));
        assert!(!Preset::FirstCapture.allows_size(4));
    }

    #[test]
    fn only_tromp_taylor_counts_every_stone_alive() {
        for p in Preset::ALL {
            let none = p.rules(9).dead_stones == DeadStones::NoneRemoved;
            assert_eq!(none, p == Preset::TrompTaylor, "{p}");
        }
    }

    #[test]
    fn korean_komi_depends_on_the_board() {
        assert_eq!(Preset::Korean.rules(19).komi, Komi::from_halves(13));
        assert_eq!(Preset::Korean.rules(13).komi, Komi::from_halves(1));
        assert_eq!(Preset::Korean.rules(9).komi, Komi::from_halves(1));
    }

    #[test]
    fn single_stone_suicide_is_illegal_everywhere_but_first_capture() {
        for p in Preset::ALL {
            let allowed = p.rules(9).suicide == SuicideRule::SelfCaptureLoses;
            assert_eq!(allowed, p == Preset::FirstCapture, "{p}");
        }
    }
}
