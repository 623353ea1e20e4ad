//! Game types from the rank difference (seed 002 "GAME TYPES"), colours and komi.
//!
//! - Same rank: HO-SUN. The room owner picks odd or even, the partner guesses; a right guess gives
//!   the partner Black. Komi 6.5 on 19x19 and 0.5 on 13x13 and 9x9 unless the room says otherwise.
//! - One or two ranks apart: JUNG-SUN. The stronger player takes White; komi 0.5.
//! - More than two apart: HANDICAP. The stronger takes White, the players agree on 2, 3, 4, 5, 6,
//!   7, 9, 13, 21 or 25 stones placed before the start, White moves first, komi 0.5, and the
//!   result does not move promotion points.
//!
//! The WGA preset keeps its own komi 7 and 2 to 5 stones.

use std::str::FromStr;

use tengen_rules::{Color, Komi, Preset};

use super::rank::Rank;

/// The three game types of seed 002.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameType {
    /// Even game, colours by guessing.
    HoSun,
    /// The weaker player takes Black without handicap.
    JungSun,
    /// The weaker player takes Black with handicap stones.
    Handicap,
}

impl GameType {
    /// The type for two players' ranks.
    pub fn for_ranks(a: Rank, b: Rank) -> GameType {
        match (a.level() - b.level()).abs() {
            0 => GameType::HoSun,
            1 | 2 => GameType::JungSun,
            _ => GameType::Handicap,
        }
    }

    /// Whether a finished game of this type moves promotion points.
    pub fn counts_for_promotion(self) -> bool {
        self != GameType::Handicap
    }

    /// Stable name for the API.
    pub fn name(self) -> &'static str {
        match self {
            GameType::HoSun => "ho_sun",
            GameType::JungSun => "jung_sun",
            GameType::Handicap => "handicap",
        }
    }
}

/// A game type name other than `ho_sun`, `jung_sun` or `handicap`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown game type {0:?}; known: ho_sun, jung_sun, handicap")]
pub struct UnknownGameType(pub String);

impl FromStr for GameType {
    type Err = UnknownGameType;

    /// Reads a [`GameType::name`], exactly.
    fn from_str(s: &str) -> Result<GameType, UnknownGameType> {
        match s {
            "ho_sun" => Ok(GameType::HoSun),
            "jung_sun" => Ok(GameType::JungSun),
            "handicap" => Ok(GameType::Handicap),
            _ => Err(UnknownGameType(s.to_string())),
        }
    }
}

/// Handicap stone counts seed 002 lets players agree on.
pub const HANDICAP_STONES: [u8; 10] = [2, 3, 4, 5, 6, 7, 9, 13, 21, 25];

/// Why a handicap is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// Not one of the counts the preset allows.
    #[error("{stones} handicap stones are not allowed here")]
    Count {
        /// The count asked for.
        stones: u8,
    },
    /// Handicap stones in a game that is not a HANDICAP game.
    #[error("only HANDICAP games have handicap stones")]
    NotHandicapGame,
}

/// Checks the handicap for a game of `kind` under `preset` on `size`: WGA allows 2 to 5, the
/// others seed 002's list, and 13, 21 and 25 only on 19x19.
pub fn check_handicap(
    kind: GameType,
    preset: Preset,
    size: u8,
    stones: u8,
) -> Result<(), HandicapError> {
    if kind != GameType::Handicap {
        return if stones == 0 {
            Ok(())
        } else {
            Err(HandicapError::NotHandicapGame)
        };
    }
    let allowed = match preset {
        Preset::Wga => (2..=5).contains(&stones),
        _ => HANDICAP_STONES.contains(&stones) && (stones <= 9 || size == 19),
    };
    if allowed && tengen_rules::handicap::fixed(size, stones).is_some() {
        Ok(())
    } else {
        Err(HandicapError::Count { stones })
    }
}

/// Default komi for a game of `kind` under `preset` on `size` (a room may override it).
pub fn default_komi(kind: GameType, preset: Preset, size: u8) -> Komi {
    match (preset, kind) {
        (Preset::Wga, _) => Komi::points(7),
        (Preset::FirstCapture, _) => Komi::points(0),
        (_, GameType::HoSun) if size >= 19 => Komi::from_halves(13),
        _ => Komi::from_halves(1),
    }
}

/// The owner's secret choice in HO-SUN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Parity {
    /// An odd number of stones.
    Odd,
    /// An even number.
    Even,
}

/// Who takes Black. In HO-SUN the partner takes Black when the guess matches the owner's choice,
/// and the owner when it does not. In JUNG-SUN and HANDICAP games the weaker player takes Black.
pub fn black_player(
    kind: GameType,
    owner: Rank,
    partner: Rank,
    owner_choice: Parity,
    partner_guess: Parity,
) -> Side {
    match kind {
        GameType::HoSun => {
            if owner_choice == partner_guess {
                Side::Partner
            } else {
                Side::Owner
            }
        }
        _ => {
            if owner.level() < partner.level() {
                Side::Owner
            } else {
                Side::Partner
            }
        }
    }
}

/// One of the two players of a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Opened the room.
    Owner,
    /// Joined it.
    Partner,
}

/// Who moves first: Black, except after handicap stones, when White does.
pub fn first_to_move(handicap_stones: u8) -> Color {
    if handicap_stones >= 2 {
        Color::White
    } else {
        Color::Black
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_type_from_the_rank_difference() {
        assert_eq!(
            GameType::for_ranks(Rank::Kyu(5), Rank::Kyu(5)),
            GameType::HoSun
        );
        assert_eq!(
            GameType::for_ranks(Rank::Kyu(5), Rank::Kyu(3)),
            GameType::JungSun
        );
        assert_eq!(
            GameType::for_ranks(Rank::Kyu(1), Rank::Dan(1)),
            GameType::JungSun
        );
        assert_eq!(
            GameType::for_ranks(Rank::Kyu(5), Rank::Kyu(2)),
            GameType::Handicap
        );
        assert_eq!(
            GameType::for_ranks(Rank::Pro(1), Rank::Dan(7)),
            GameType::HoSun
        );
        assert!(!GameType::Handicap.counts_for_promotion());
    }

    #[test]
    fn game_type_names_read_back() {
        for t in [GameType::HoSun, GameType::JungSun, GameType::Handicap] {
            assert_eq!(t.name().parse::<GameType>(), Ok(t));
        }
        assert_eq!(
            "HoSun".parse::<GameType>(),
            Err(UnknownGameType("HoSun".into()))
        );
    }

    #[test]
    fn komi_and_handicap_defaults() {
        assert_eq!(
            default_komi(GameType::HoSun, Preset::Korean, 19),
            Komi::from_halves(13)
        );
        assert_eq!(
            default_komi(GameType::HoSun, Preset::Korean, 9),
            Komi::from_halves(1)
        );
        assert_eq!(
            default_komi(GameType::JungSun, Preset::Japanese, 19),
            Komi::from_halves(1)
        );
        assert_eq!(
            default_komi(GameType::Handicap, Preset::Wga, 9),
            Komi::points(7)
        );
        assert!(check_handicap(GameType::Handicap, Preset::Korean, 19, 25).is_ok());
        assert!(check_handicap(GameType::Handicap, Preset::Korean, 13, 13).is_err());
        assert!(
            check_handicap(GameType::Handicap, Preset::Korean, 19, 8).is_err(),
            "8 is not in the list"
        );
        assert!(check_handicap(GameType::Handicap, Preset::Wga, 9, 5).is_ok());
        assert!(check_handicap(GameType::Handicap, Preset::Wga, 9, 6).is_err());
        assert!(check_handicap(GameType::HoSun, Preset::Korean, 19, 2).is_err());
        assert_eq!(first_to_move(4), Color::White);
    }

    #[test]
    fn colours() {
        let (a, b) = (Rank::Kyu(3), Rank::Kyu(3));
        assert_eq!(
            black_player(GameType::HoSun, a, b, Parity::Odd, Parity::Odd),
            Side::Partner
        );
        assert_eq!(
            black_player(GameType::HoSun, a, b, Parity::Odd, Parity::Even),
            Side::Owner
        );
        let weak = Rank::Kyu(10);
        assert_eq!(
            black_player(GameType::Handicap, weak, a, Parity::Odd, Parity::Odd),
            Side::Owner
        );
        assert_eq!(
            black_player(GameType::JungSun, a, Rank::Kyu(4), Parity::Odd, Parity::Odd),
            Side::Partner
        );
    }
}
