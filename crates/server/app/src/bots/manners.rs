//! A bot's manners at the table: when it resigns, when it passes back, and how it answers a
//! request to count. Each is judged from the estimator's count ([`tengen_ai::estimate`]: fixed
//! playouts and seed, one thread), not from the bot's own search, so a bot behaves the same at
//! every level (the weakest searches too few playouts for its own win rate to be trusted) and
//! the same every time.

use tengen_ai::estimate::{self, Estimate};
use tengen_rules::{Color, Game, Move};

/// The least the bot must trail by, at the best for it, to resign: a tenth of the board's
/// points and never less than 10 (10 on 9x9, 17 on 13x13, 36 on 19x19).
pub fn resign_margin(size: u8) -> f32 {
    (f32::from(size) * f32::from(size) / 10.0).max(10.0)
}

/// How confidently an empty point must belong to one side to count as settled.
const SETTLED_OWNERSHIP: f32 = 0.6;

/// What the estimator says of a position, seen from the bot's side.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The bot's lead (negative: behind) at the worst and at the best for it, over the chains
    /// whose life is unsure.
    pub lead: (f32, f32),
    /// Whether the estimator is unsure of some chain's life.
    pub unsure: bool,
    /// Empty points neither side surely owns (open borders, dame).
    pub open: usize,
    /// Whether the game is past its opening (a quarter of the board filled, or as many moves
    /// as the board has lines).
    pub late: bool,
}

/// Judges `game` for the bot playing `color`.
pub fn judge(game: &Game, color: Color) -> Judgement {
    let e = estimate::estimate(game);
    judgement(game, color, &e)
}

/// [`judge`] from an estimate already made.
pub fn judgement(game: &Game, color: Color, e: &Estimate) -> Judgement {
    let (lo, hi) = e.lead_range;
    let lead = match color {
        Color::Black => (lo, hi),
        Color::White => (-hi, -lo),
    };
    let board = game.board();
    let open = board
        .points()
        .filter(|&p| board.get(p).is_none() && e.owner(p).abs() < SETTLED_OWNERSHIP)
        .count();
    Judgement {
        lead,
        unsure: !e.unsure.is_empty(),
        open,
        late: past_opening(game),
    }
}

/// Whether `game` is past its opening: a quarter of the board filled, or as many moves played
/// as the board has lines. Before, no count is trusted enough to resign on.
pub fn past_opening(game: &Game) -> bool {
    let size = game.size() as usize;
    game.ply_count() >= size || game.board().empty_count() * 4 < size * size * 3
}

/// Whether manners apply to `game` at all: not in First Capture Go, where no count decides.
pub fn counted(game: &Game) -> bool {
    game.rules().end != tengen_rules::rules::GameEnd::FirstCapture
}

impl Judgement {
    /// Whether the game is clearly lost: past the opening, and behind by at least
    /// [`resign_margin`] even if every unsure chain goes the bot's way.
    pub fn hopeless(&self, size: u8) -> bool {
        self.late && self.lead.1 <= -resign_margin(size)
    }

    /// Whether no move can change who wins: no chain's life is in doubt, and the winner leads
    /// by more than the open points could swing (two points each at most).
    pub fn decided(&self) -> bool {
        let (lo, hi) = self.lead;
        let same_winner = (lo > 0.0 && hi > 0.0) || (lo < 0.0 && hi < 0.0);
        !self.unsure && same_winner && lo.abs().min(hi.abs()) > 2.0 * self.open as f32
    }

    /// Whether the game is settled enough to count now: nothing is in doubt and nothing is
    /// open (dame aside: the count gives them to nobody).
    pub fn settled(&self) -> bool {
        self.decided() || (!self.unsure && self.open == 0)
    }
}

/// Whether the opponent's last move was a pass (the bot is then asked to pass back).
pub fn opponent_passed(game: &Game, color: Color) -> bool {
    matches!(game.moves().last(), Some((c, Move::Pass)) if c != color)
}

/// What the bot says when it declines a request to count.
pub const NOT_SETTLED: &str =
    "Not yet, thank you: some stones or borders are still open. Let's play on, then count.";

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Handicap, Preset};

    /// A 9x9 Chinese game with `rows` (top row first; `X` black, `O` white) set up, `to_move`
    /// to play.
    fn position(rows: [&str; 9], to_move: Color) -> Game {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let mut stones = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let v = format!("{}{}", "ABCDEFGHJ".as_bytes()[c] as char, 9 - r);
                let p = gtp::parse_point(9, &v).unwrap();
                match ch {
                    'X' => stones.push((p, Some(Color::Black))),
                    'O' => stones.push((p, Some(Color::White))),
                    _ => {}
                }
            }
        }
        g.edit(&stones, to_move).unwrap();
        g
    }

    /// White owns two columns, Black the rest (walled in three rooms): Black far ahead,
    /// every border closed, past the opening.
    const BLACK_FAR_AHEAD: [&str; 9] = [
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
        "..X...XO.",
    ];

    #[test]
    fn a_bot_far_behind_resigns_and_one_far_ahead_does_not() {
        let g = position(BLACK_FAR_AHEAD, Color::White);
        let white = judge(&g, Color::White);
        assert!(white.hopeless(9), "{white:?}");
        let black = judge(&g, Color::Black);
        assert!(!black.hopeless(9), "{black:?}");
        assert!(
            black.decided() && white.decided(),
            "nothing is open: {black:?}"
        );
        assert!(black.settled());
    }

    #[test]
    fn an_open_board_is_neither_lost_nor_settled() {
        let mut rows = BLACK_FAR_AHEAD;
        // An opening: a few stones only; nothing is decided yet.
        rows = rows.map(|_| ".........");
        rows[2] = "..X...O..";
        rows[6] = "..O...X..";
        let g = position(rows, Color::Black);
        for c in [Color::Black, Color::White] {
            let j = judge(&g, c);
            assert!(!j.hopeless(9) && !j.decided() && !j.settled(), "{j:?}");
        }
    }

    #[test]
    fn the_margin_grows_with_the_board() {
        assert_eq!(resign_margin(9), 10.0);
        assert_eq!(resign_margin(13), 16.9);
        assert_eq!(resign_margin(19), 36.1);
    }
}
