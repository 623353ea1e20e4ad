//! How a game ended, in the form SGF's `RE` and GTP's `final_score` write it.

use crate::color::Color;
use std::fmt;
use std::str::FromStr;

/// The outcome of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Won on the count by `margin` half points (`B+3.5` is a margin of 7).
    Score {
        /// Who counted more.
        winner: Color,
        /// The difference, in half points; never zero.
        margin: u32,
    },
    /// Equal counts, or a draw by rule (the IGZ's three kos): `0`.
    Draw,
    /// The other player resigned: `W+R`.
    Resign(Color),
    /// The other player ran out of time: `B+T`.
    Time(Color),
    /// The other player forfeited (left the game, broke a rule of conduct): `B+F`.
    Forfeit(Color),
    /// First Capture Go: this player captured first, or the other self-captured: `B+`.
    FirstCapture(Color),
    /// No result (Japanese triple ko): `Void`.
    NoResult,
}

impl GameResult {
    /// The winner, if the game has one.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameResult::Score { winner, .. } => Some(winner),
            GameResult::Resign(c)
            | GameResult::Time(c)
            | GameResult::Forfeit(c)
            | GameResult::FirstCapture(c) => Some(c),
            GameResult::Draw | GameResult::NoResult => None,
        }
    }

    /// The result of a count where Black's total minus White's is `diff` half points.
    pub fn from_difference(diff: i32) -> GameResult {
        match diff {
            0 => GameResult::Draw,
            d if d > 0 => GameResult::Score {
                winner: Color::Black,
                margin: d as u32,
            },
            d => GameResult::Score {
                winner: Color::White,
                margin: d.unsigned_abs(),
            },
        }
    }
}

impl fmt::Display for GameResult {
    /// The SGF `RE` value: `B+3.5`, `W+R`, `B+T`, `W+F`, `B+`, `0`, `Void`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GameResult::Score { winner, margin } => {
                write!(f, "{}+", winner.letter())?;
                crate::rules::write_halves(f, margin as i32)
            }
            GameResult::Draw => f.write_str("0"),
            GameResult::Resign(c) => write!(f, "{}+R", c.letter()),
            GameResult::Time(c) => write!(f, "{}+T", c.letter()),
            GameResult::Forfeit(c) => write!(f, "{}+F", c.letter()),
            GameResult::FirstCapture(c) => write!(f, "{}+", c.letter()),
            GameResult::NoResult => f.write_str("Void"),
        }
    }
}

/// An `RE` value Tengen cannot read (including `?`, an unknown result).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unreadable game result {0:?}")]
pub struct ResultError(pub String);

impl FromStr for GameResult {
    type Err = ResultError;

    /// Reads an SGF `RE` value, accepting the long forms (`W+Resign`, `B+Time`, `Draw`, `Jigo`).
    fn from_str(s: &str) -> Result<GameResult, ResultError> {
        let bad = || ResultError(s.to_string());
        let t = s.trim();
        match t.to_ascii_lowercase().as_str() {
            "0" | "draw" | "jigo" | "d" => return Ok(GameResult::Draw),
            "void" => return Ok(GameResult::NoResult),
            _ => {}
        }
        let (who, rest) = t.split_once('+').ok_or_else(bad)?;
        let winner = Color::parse(who).ok_or_else(bad)?;
        Ok(match rest.to_ascii_lowercase().as_str() {
            "" => GameResult::FirstCapture(winner),
            "r" | "resign" => GameResult::Resign(winner),
            "t" | "time" => GameResult::Time(winner),
            "f" | "forfeit" => GameResult::Forfeit(winner),
            num => {
                let k: crate::Komi = num.parse().map_err(|_| bad())?;
                if k.halves() <= 0 {
                    return Err(bad());
                }
                GameResult::Score {
                    winner,
                    margin: k.halves() as u32,
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sgf_forms_round_trip() {
        for s in [
            "B+3.5", "W+0.5", "B+3", "W+R", "B+T", "W+F", "B+", "W+", "0", "Void",
        ] {
            let r: GameResult = s.parse().unwrap();
            assert_eq!(r.to_string(), s);
        }
        assert_eq!("W+Resign".parse(), Ok(GameResult::Resign(Color::White)));
        assert_eq!("Draw".parse(), Ok(GameResult::Draw));
        assert!("?".parse::<GameResult>().is_err());
        assert!("B+0".parse::<GameResult>().is_err());
        assert!("X+3".parse::<GameResult>().is_err());
    }

    #[test]
    fn difference_sign_gives_the_winner() {
        assert_eq!(GameResult::from_difference(6).to_string(), "B+3");
        assert_eq!(GameResult::from_difference(-1).to_string(), "W+0.5");
        assert_eq!(GameResult::from_difference(0), GameResult::Draw);
    }
}
