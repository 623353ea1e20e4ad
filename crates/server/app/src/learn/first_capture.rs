//! First Capture Go (seed 004) against a bot at the learner's level, on the seed's small
//! boards: the learner takes Black and sends the whole game so far; the rules engine replays it
//! (the first capture wins, self-capture loses) and the engine answers with White's move. The
//! bot's level grows with the learner's wins: at the first two it plays as a beginner does
//! (captures what it can, then, at level 1, saves what is in atari, else a move at random),
//! above them it searches, four times the playouts a level. Its chances come from a seed drawn
//! from the moves, so a game replays the same every time.

use serde::{Deserialize, Serialize};
use tengen_ai::search::{genmove, Budget, Decision, Style};
use tengen_learn::check::rows;
use tengen_rules::coord::gtp;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, Game, GameResult, Handicap, Move, Point, Preset};

use crate::engines::Engines;
use crate::error::ApiError;

/// The highest level: a search of 4^4 = 256 playouts, strong enough at First Capture to make a
/// learner who beat it ready for regular Go.
pub const MAX_LEVEL: u8 = 5;

/// The learner's game so far.
#[derive(Debug, Deserialize)]
pub struct Turn {
    /// 5 to 9 (the seed's beginners' boards).
    pub size: u8,
    /// Every move from the start, Black first, as GTP vertices; the last is the learner's.
    pub moves: Vec<String>,
    /// The bot's level, 0 (a beginner) to [`MAX_LEVEL`].
    #[serde(default)]
    pub level: u8,
}

/// The game after the learner's move and the bot's answer (fields in alphabetical order, as
/// the `json!` object it replaces wrote them).
#[derive(Debug, Serialize)]
pub struct Answered {
    /// The board after both moves, rows from the top.
    pub board: Vec<String>,
    /// The bot's move (GTP), unless the learner's move ended the game.
    pub reply: Option<String>,
    /// `black` or `white` once a capture ended the game.
    pub winner: Option<&'static str>,
}

/// The game after the learner's move and, unless it ended, the bot's answer.
pub async fn turn(engines: &Engines, t: Turn) -> Result<Answered, ApiError> {
    let mut game = replay(&t)?;
    let mut reply = None;
    if game.result().is_none() {
        let (level, seed) = (t.level.min(MAX_LEVEL), seed(&t.moves));
        let position = game.clone();
        let m = engines
            .pool
            .try_run(move || bot_move(&position, level, seed))
            .await?;
        game.play(Color::White, m)
            .map_err(|e| ApiError::Internal(format!("the bot's move: {e}")))?;
        reply = Some(gtp::format_move(t.size, m));
    }
    Ok(Answered {
        board: rows(&game),
        reply,
        winner: winner(game.result()),
    })
}

/// The game the learner sent, refused if a move is illegal or the learner is not the one who
/// moved last.
fn replay(t: &Turn) -> Result<Game, ApiError> {
    if !(5..=9).contains(&t.size) {
        return Err(ApiError::Rejected(
            "bad_size",
            "First Capture lessons are 5x5 to 9x9".into(),
        ));
    }
    if t.moves.len() % 2 != 1 || t.moves.len() > 2 * usize::from(t.size).pow(2) {
        return Err(ApiError::Rejected(
            "bad_try",
            "send the game up to Black's move".into(),
        ));
    }
    let mut game = Game::new(t.size, Preset::FirstCapture.rules(t.size), Handicap::None)
        .map_err(|e| ApiError::Rejected("bad_size", e.to_string()))?;
    for (i, v) in t.moves.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let m = gtp::parse_move(t.size, v)
            .map_err(|e| ApiError::Rejected("bad_try", format!("{v}: {e}")))?;
        game.play(c, m).map_err(|e| {
            ApiError::Rejected(
                "illegal_move",
                format!("move {}: {e} ({})", i + 1, e.code()),
            )
        })?;
    }
    Ok(game)
}

/// White's move at `level`: the search's best, never a resignation (a learner is owed the end
/// of the game), a pass when nothing is searched.
pub fn bot_move(game: &Game, level: u8, seed: u64) -> Move {
    if level < 2 {
        return beginner_move(game, level == 1, seed);
    }
    let playouts = 1u32 << (2 * u32::from(level.min(MAX_LEVEL) - 1));
    let style = Style { resign_below: None };
    match genmove(
        game,
        Color::White,
        &Budget::playouts(playouts, seed),
        &style,
    )
    .0
    {
        Decision::Move(m) => m,
        Decision::Resign => Move::Pass,
    }
}

/// A beginner's move for White: a capture if there is one, else (when `saves`) a move that gets
/// a stone out of atari, else a random legal move that is not self-capture.
fn beginner_move(game: &Game, saves: bool, seed: u64) -> Move {
    let b = game.board();
    let legal = game.legal_points();
    let me = Color::White;
    if let Some(&p) = legal.iter().find(|&&p| b.would_capture(p, me)) {
        return Move::Play(p);
    }
    let out_of_atari = |p: Point| {
        let mut g = game.clone();
        g.play(me, Move::Play(p)).is_ok() && g.board().liberty_count(p) >= 2
    };
    let rescue = legal.iter().find(|&&p| {
        b.neighbors(p)
            .any(|n| b.get(n) == Some(me) && b.in_atari(n))
            && out_of_atari(p)
    });
    if let (true, Some(&p)) = (saves, rescue) {
        return Move::Play(p);
    }
    let fine: Vec<Point> = legal
        .into_iter()
        .filter(|&p| !b.is_suicide(p, me))
        .collect();
    if fine.is_empty() {
        return Move::Pass;
    }
    let i = Rng::new(seed).below(fine.len() as u32) as usize;
    Move::Play(fine[i])
}

/// A seed drawn from the moves (FNV-1a), so that the same game gets the same answers.
fn seed(moves: &[String]) -> u64 {
    moves
        .iter()
        .flat_map(|m| m.bytes().chain([b' ']))
        .fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
}

fn winner(r: Option<GameResult>) -> Option<&'static str> {
    match r? {
        GameResult::FirstCapture(Color::Black) => Some("black"),
        GameResult::FirstCapture(Color::White) => Some("white"),
        _ => Some("none"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A beginner's plan: capture what can be captured, save a stone in atari, put a stone in
    /// atari, else play next to the opponent without walking into atari.
    fn beginner(game: &Game) -> Move {
        let b = game.board();
        let legal = game.legal_points();
        let safe = |p| {
            let mut g = game.clone();
            g.play(Color::Black, Move::Play(p)).is_ok()
                && (g.result().is_some() || !g.board().in_atari(p))
        };
        let captures = legal.iter().find(|&&p| b.would_capture(p, Color::Black));
        let saves = legal.iter().find(|&&p| {
            b.neighbors(p)
                .any(|n| b.get(n) == Some(Color::Black) && b.in_atari(n))
                && safe(p)
        });
        let ataris = legal.iter().find(|&&p| {
            b.neighbors(p)
                .any(|n| b.get(n) == Some(Color::White) && b.liberty_count(n) == 2)
                && safe(p)
        });
        let near = legal
            .iter()
            .find(|&&p| b.has_neighbor_of(p, Color::White) && safe(p));
        let any = legal.iter().find(|&&p| safe(p)).or(legal.first());
        Move::Play(
            *captures
                .or(saves)
                .or(ataris)
                .or(near)
                .or(any)
                .expect("a legal point"),
        )
    }

    /// Plays the beginner against the bot at `level`; the winner.
    fn play_out(size: u8, level: u8, first: u8) -> Option<GameResult> {
        let mut game =
            Game::new(size, Preset::FirstCapture.rules(size), Handicap::None).expect("a game");
        let mut moves = Vec::new();
        while game.result().is_none() && moves.len() < 200 {
            let m = if moves.len() % 2 == 0 {
                if moves.is_empty() {
                    Move::Play(
                        game.board()
                            .point(first % size, first / size)
                            .expect("a point"),
                    )
                } else {
                    beginner(&game)
                }
            } else {
                bot_move(&game, level, seed(&moves))
            };
            let c = if moves.len() % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            game.play(c, m).expect("a legal move");
            moves.push(gtp::format_move(size, m));
        }
        game.result()
    }

    /// The bot plays at the learner's level: a beginner who captures first wins most games
    /// against level 0 on every board of the lessons, and fewer against the top level.
    #[test]
    fn a_beginner_who_captures_first_beats_level_0_more_often_than_the_top_level() {
        for size in [5u8, 7, 9] {
            let wins = |level| {
                (0..size * size)
                    .filter(|&f| {
                        play_out(size, level, f) == Some(GameResult::FirstCapture(Color::Black))
                    })
                    .count()
            };
            let (easy, hard) = (wins(0), wins(MAX_LEVEL));
            let games = usize::from(size) * usize::from(size);
            assert!(
                easy * 5 >= games * 4,
                "{size}x{size}: {easy} of {games} against level 0"
            );
            assert!(
                hard < easy,
                "{size}x{size}: {hard} against the top level, {easy} against level 0"
            );
        }
    }

    #[test]
    fn a_game_replays_with_the_same_answers() {
        let g = replay(&Turn {
            size: 7,
            moves: vec!["D4".into()],
            level: 0,
        })
        .expect("a game");
        let s = seed(&["D4".to_string()]);
        assert_eq!(bot_move(&g, 3, s), bot_move(&g, 3, s));
        assert_eq!(bot_move(&g, 0, s), bot_move(&g, 0, s));
    }

    #[test]
    fn an_illegal_game_is_refused() {
        let t = Turn {
            size: 7,
            moves: vec!["D4".into(), "D4".into(), "C3".into()],
            level: 0,
        };
        assert_eq!(replay(&t).map(|_| ()).unwrap_err().code(), "illegal_move");
        let t = Turn {
            size: 13,
            moves: vec!["D4".into()],
            level: 0,
        };
        assert_eq!(replay(&t).map(|_| ()).unwrap_err().code(), "bad_size");
    }
}
