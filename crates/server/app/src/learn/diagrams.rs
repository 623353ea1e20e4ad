//! The rules page's diagrams: for each preset, the rules that need a picture (capture, ko,
//! suicide, the count), each a small position with moves played on it by the preset's rules
//! in the rules engine, so the page shows what the engine does (a capture, a refusal and its
//! reason, a self-capture that loses, the count), never a hand-drawn outcome. Each diagram
//! cites the seed passage it illustrates, quoted as the seed words it (the test checks each
//! quote is in its seed).

use serde::Serialize;
use tengen_learn::check::rows;
use tengen_rules::coord::gtp;
use tengen_rules::{Board, Color, Game, GameEnd, Preset};

use super::lessons::CountSide;

/// The diagrams' board: small enough for a phone, large enough for each shape.
const SIZE: u8 = 5;

/// One rule shown on the board.
#[derive(Debug, Serialize)]
pub struct Diagram {
    /// The board after the moves, rows from the top (`X`, `O`, `.`).
    pub after: Vec<String>,
    /// The position before them.
    pub before: Vec<String>,
    /// The count of the position (the scoring diagram).
    pub count: Option<Counted>,
    /// The moves, each with what the rules made of it.
    pub moves: Vec<Played>,
    /// `capture`, `ko`, `suicide` or `scoring`.
    pub rule: &'static str,
    /// The seed passage it illustrates, where the preset has one.
    pub seed: Option<Citation>,
    /// The board size.
    pub size: u8,
}

/// A move of a diagram and the engine's verdict.
#[derive(Debug, Serialize)]
pub struct Played {
    /// Stones it took off the board (the opponent's; the player's own for a self-capture).
    pub captured: u32,
    /// `black` or `white`.
    pub color: &'static str,
    /// GTP vertex.
    #[serde(rename = "move")]
    pub mv: String,
    /// `played`, `captures`, `wins` (a capture ends First Capture Go), `self_capture` (the
    /// player's own stones removed), `loses` (a self-capture ends the game), or the code of the
    /// rules' refusal (`suicide`, `ko`, `superko`).
    pub outcome: &'static str,
}

/// A count: each side's, and the result.
#[derive(Debug, Serialize)]
pub struct Counted {
    /// Black's count.
    pub black: CountSide,
    /// The result (`W+11.5`).
    pub result: String,
    /// White's count.
    pub white: CountSide,
}

/// A passage of a seed document.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Citation {
    /// The passage, word for word.
    pub quote: &'static str,
    /// The seed's number (`001`).
    pub seed: &'static str,
}

/// A diagram's position and moves, as data.
struct Shape {
    rule: &'static str,
    rows: [&'static str; SIZE as usize],
    moves: &'static [(Color, &'static str)],
}

const CAPTURE: Shape = Shape {
    rule: "capture",
    rows: [".....", "..X..", ".XOX.", ".....", "....."],
    moves: &[(Color::Black, "C2")],
};

const KO: Shape = Shape {
    rule: "ko",
    rows: [".....", ".XO..", "XO.O.", ".XO..", "....."],
    moves: &[(Color::Black, "C3"), (Color::White, "B3")],
};

const SUICIDE: Shape = Shape {
    rule: "suicide",
    rows: ["XO...", ".O...", "O....", ".....", "....."],
    moves: &[(Color::Black, "A4")],
};

const SCORING: Shape = Shape {
    rule: "scoring",
    rows: [".XO..", ".XO..", ".XO..", "XXO..", "..O.."],
    moves: &[],
};

/// Where the seeds say what `rule` is under preset `p`.
pub fn citation(p: Preset, rule: &str) -> Option<Citation> {
    let c = |seed, quote| Some(Citation { quote, seed });
    match (p, rule) {
        (Preset::Wga, "capture") => c("000", "can be captured and removed from the board when all the intersections directly adjacent to it (liberties) are occupied by the enemy."),
        (Preset::Chinese | Preset::Japanese | Preset::Igz, "capture") => c("003", "Should all the intersections adjacent to one or mores stones be occupied by stones of the other color, the former stone or group of stones is captured and removed from the board."),
        (Preset::Korean, "capture") => c("002", "single stone could be surrounded and captured by the partner player's stones as a completely connected form."),
        (Preset::Arena, "capture") => c("001", "Once played, stones are not moved, but they may be captured."),
        (Preset::Aga, "capture") => c("004", "if, during play, a stone or group of stones is completely surrounded by stones of the other color, the stone or group is captured and removed from the board."),
        (Preset::FirstCapture, "capture") => c("004", "The winner is the first player to capture one or more stones."),
        (Preset::Wga, "ko") => c("000", "There is Ko situation, when Black or White are not allowed to capture the stone that has captured his or her stone in the previous turn."),
        (Preset::Chinese | Preset::Japanese | Preset::Igz, "ko") => c("003", "In Ko situations the second player may not recapture until he has made at least one move elsewhere on the board."),
        (Preset::Korean, "ko") => c("002", "any player is not allowed to move a stone which could produce 'Repeated Board Position' right after the partner's stone move."),
        (Preset::Arena, "ko") => c("001", "A player may not recreate a position that occurred previously with the same player to move."),
        (Preset::Aga, "ko") => c("004", "You cannot play in such a way as to repeat an identical situation on the board."),
        (Preset::Chinese | Preset::Japanese | Preset::Arena, "suicide") => c("001", "Suicide is illegal."),
        (Preset::Korean, "suicide") => c("002", "The Self-Capturing position is any point where it extends the connected forms and makes them to be surrounded by the opponent's stones completely."),
        (Preset::Aga, "suicide") => c("004", "the black stone or stones would be captured as soon as they are played because, after the play, the stones would not be connected to any empty intersections."),
        (Preset::FirstCapture, "suicide") => c("004", "Such a play amounts to self-capture, and the stone or stones would be removed from the board."),
        (Preset::Wga, "scoring") => c("000", "Black has the final score of 47 points, which equals the number of empty points surrounded by black stones, called Black's territories (27) + the number of white stones captured (2) + the number of black stones on the board (18)."),
        (Preset::Chinese, "scoring") => c("001", "The Chinese count both a player's stones and the vacant points of territory surrounded by him."),
        (Preset::Japanese | Preset::Arena, "scoring") => c("001", "The Japanese count the vacant points surrounded by a player plus the stones has captured."),
        (Preset::Igz, "scoring") => c("003", "In Japanese counting the number of points a player has is defined as the number of empty intersections he enclosed and the stones he captured during the game."),
        (Preset::Korean, "scoring") => c("002", "Korean Rule is quite similar to the Japanese Rule except the number of territory given to the white stone for compensation(Komi)."),
        _ => None,
    }
}

/// The diagrams of preset `p`: capture, ko and suicide, and the count where play ends by
/// passing (First Capture Go has no ko fight or count: the first capture ends it).
pub fn diagrams(p: Preset) -> Vec<Diagram> {
    let first_capture = p.rules(p.default_size()).end == GameEnd::FirstCapture;
    let shapes: &[Shape] = if first_capture {
        &[CAPTURE, SUICIDE]
    } else {
        &[CAPTURE, KO, SUICIDE, SCORING]
    };
    shapes.iter().filter_map(|s| diagram(p, s)).collect()
}

/// `shape` played by `p`'s rules on the diagrams' board (the preset's own limits on the board's
/// size aside: the WGA plays only 9x9, and its rules are the same on 5x5).
fn diagram(p: Preset, shape: &Shape) -> Option<Diagram> {
    let mut rules = p.rules(p.default_size());
    rules.min_size = rules.min_size.min(SIZE);
    let mut board = Board::new(SIZE);
    for (row, line) in shape.rows.iter().enumerate() {
        for (col, c) in line.bytes().enumerate() {
            let color = match c {
                b'X' => Color::Black,
                b'O' => Color::White,
                _ => continue,
            };
            let point = board.point(col as u8, row as u8)?;
            board.play(point, color);
        }
    }
    let first = shape.moves.first().map_or(Color::Black, |m| m.0);
    let mut game = Game::from_board(board, first, rules).ok()?;
    let before = rows(&game);
    let mut moves = Vec::new();
    for &(color, vertex) in shape.moves {
        let mv = gtp::parse_move(SIZE, vertex).ok()?;
        let mine = game.board().captures(color);
        let theirs = game.board().captures(color.opponent());
        let outcome = match game.play(color, mv) {
            Err(e) => e.code(),
            Ok(()) => {
                let took = game.board().captures(color) - mine;
                let lost = game.board().captures(color.opponent()) - theirs;
                let over = game.result().is_some();
                let (outcome, captured) = match (took, lost, over) {
                    (0, 0, _) => ("played", 0),
                    (n, _, true) if n > 0 => ("wins", n),
                    (n, _, false) if n > 0 => ("captures", n),
                    (_, n, true) => ("loses", n),
                    (_, n, false) => ("self_capture", n),
                };
                moves.push(Played {
                    captured,
                    color: colour(color),
                    mv: gtp::format_move(SIZE, mv),
                    outcome,
                });
                continue;
            }
        };
        moves.push(Played {
            captured: 0,
            color: colour(color),
            mv: vertex.to_string(),
            outcome,
        });
    }
    let count = (shape.rule == "scoring").then(|| {
        let score = game.score();
        let side = |c: &tengen_rules::Count| CountSide {
            komi: c.komi.to_string(),
            prisoners: c.prisoners,
            stones: c.stones,
            territory: c.territory,
            total: c.total_halves() as f64 / 2.0,
        };
        Counted {
            black: side(&score.black),
            result: score.result.to_string(),
            white: side(&score.white),
        }
    });
    Some(Diagram {
        after: rows(&game),
        before,
        count,
        moves,
        rule: shape.rule,
        seed: citation(p, shape.rule),
        size: SIZE,
    })
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(p: Preset, rule: &str) -> Diagram {
        diagrams(p)
            .into_iter()
            .find(|d| d.rule == rule)
            .unwrap_or_else(|| panic!("{p} has a {rule} diagram"))
    }

    /// Every preset's diagrams come out of the engine as the rules say: the capture takes the
    /// stone (and wins First Capture Go), the ko's retake is refused, the suicide is refused,
    /// legal with the stones removed, or a loss, as the preset has it.
    #[test]
    fn each_preset_s_diagrams_are_what_its_rules_do() {
        for p in Preset::ALL {
            let r = p.rules(p.default_size());
            let capture = find(p, "capture");
            let want = if r.end == GameEnd::FirstCapture {
                "wins"
            } else {
                "captures"
            };
            assert_eq!(
                (capture.moves[0].outcome, capture.moves[0].captured),
                (want, 1),
                "{p}"
            );
            assert_eq!(capture.after[2], ".X.X.", "{p}");
            let suicide = &find(p, "suicide").moves[0];
            let want = match r.suicide {
                tengen_rules::SuicideRule::Illegal => "suicide",
                tengen_rules::SuicideRule::MultiStoneLegal => "self_capture",
                tengen_rules::SuicideRule::SelfCaptureLoses => "loses",
            };
            assert_eq!(suicide.outcome, want, "{p}");
            if r.end == GameEnd::FirstCapture {
                assert_eq!(diagrams(p).len(), 2);
                continue;
            }
            let ko = find(p, "ko");
            assert_eq!(ko.moves[0].outcome, "captures", "{p}");
            assert!(
                matches!(ko.moves[1].outcome, "ko" | "superko"),
                "{p}: {}",
                ko.moves[1].outcome
            );
            let count = find(p, "scoring").count.expect("a count");
            assert!(count.result.starts_with("W+"), "{p}: {}", count.result);
            // Territory counts leave the stones out; area counts put them in.
            let stones = count.black.stones;
            match r.scoring {
                tengen_rules::Scoring::Territory => assert_eq!(stones, 0, "{p}"),
                _ => assert_eq!(stones, 5, "{p}"),
            }
        }
    }

    /// Each quote is word for word in its seed (`../shared/seeds/NNN_*.txt`, beside the
    /// repository, where the seeds are kept).
    #[test]
    fn every_quote_is_in_its_seed() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../../shared/seeds");
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("no seeds at {}: skipped", dir.display());
            return;
        };
        let texts: Vec<(String, String)> = entries
            .flatten()
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                (name, text.split_whitespace().collect::<Vec<_>>().join(" "))
            })
            .collect();
        let mut checked = 0;
        for p in Preset::ALL {
            for rule in ["capture", "ko", "suicide", "scoring"] {
                let Some(c) = citation(p, rule) else { continue };
                let (_, text) = texts
                    .iter()
                    .find(|(n, _)| n.starts_with(c.seed))
                    .unwrap_or_else(|| panic!("seed {}", c.seed));
                assert!(text.contains(c.quote), "{p} {rule}: {:?}", c.quote);
                assert!(
                    super::super::rules::seeds(p).contains(&c.seed),
                    "{p}: {}",
                    c.seed
                );
                checked += 1;
            }
        }
        assert!(checked > 20, "{checked}");
    }
}
