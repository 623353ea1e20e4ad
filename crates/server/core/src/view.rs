//! What clients see of a game: the snapshot sent to a new watcher and by `GET /api/games/{id}`.

use serde_json::{json, Value};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Move, Phase};

use crate::game::LiveGame;
use crate::player::Player;

fn side(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The whole state of a game at event `seq`.
pub fn snapshot(id: i64, live: &LiveGame, players: &[Player; 2], seq: u64) -> Value {
    let g = &live.game;
    let size = g.size();
    let b = g.board();
    let rows: Vec<String> = (0..size)
        .map(|r| {
            (0..size)
                .map(
                    |c| match tengen_rules::Point::new(size, c, r).and_then(|p| b.get(p)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    },
                )
                .collect()
        })
        .collect();
    let moves: Vec<Value> = g
        .moves()
        .map(|(c, m)| {
            json!({
                "color": side(c),
                "point": match m { Move::Play(p) => gtp::format_point(size, p), Move::Pass => "pass".into() },
            })
        })
        .collect();
    let phase = match g.phase() {
        Phase::Play => "play",
        Phase::Scoring => "scoring",
        Phase::Finished => "finished",
    };
    let dead: Vec<String> = g
        .dead_stones()
        .iter()
        .map(|p| gtp::format_point(size, p))
        .collect();
    let score = (g.phase() != Phase::Play).then(|| {
        let s = g.score();
        let count = |c: &tengen_rules::Count| {
            json!({
                "territory": c.territory, "stones": c.stones, "prisoners": c.prisoners,
                "komi": c.komi.to_string(), "handicap_bonus": c.handicap_bonus,
                "total": c.total_halves() as f64 / 2.0,
            })
        };
        let pts = |set: &tengen_rules::PointSet| -> Vec<String> {
            set.iter().map(|p| gtp::format_point(size, p)).collect()
        };
        json!({
            "black": count(&s.black), "white": count(&s.white), "result": s.result.to_string(),
            "black_territory": pts(&s.black_territory), "white_territory": pts(&s.white_territory),
            "dame": pts(&s.dame), "seki": pts(&s.seki),
        })
    });
    json!({
        "id": id,
        "seq": seq,
        "terms": live.terms,
        "black": players[0],
        "white": players[1],
        "phase": phase,
        "to_move": side(g.to_move()),
        "board": rows,
        "moves": moves,
        "handicap_stones": g.handicap_stones().iter().map(|&p| gtp::format_point(size, p)).collect::<Vec<_>>(),
        "captures": { "black": b.captures(Color::Black), "white": b.captures(Color::White) },
        "ko": b.ko_point().map(|p| gtp::format_point(size, p)),
        "takeback_requested_by": live.takeback.map(side),
        "scoring_requested": { "black": live.scoring_requests[0], "white": live.scoring_requests[1] },
        "accepted": { "black": live.accepted[0], "white": live.accepted[1] },
        "dead": dead,
        "unsure": if g.phase() == tengen_rules::Phase::Scoring { live.unsure.clone() } else { Vec::new() },
        // Whether the unsure stones decide the winner: the client then asks the players to
        // mark them rather than offering to accept (issue 29 item 3).
        "unsure_decides": g.phase() == Phase::Scoring && unsure_decides(g, &live.unsure),
        "score": score,
        "result": g.result().map(|r| r.to_string()),
        "end_reason": live.end_reason,
        // Why the result counts for nobody's points or rating (`null` when it counts).
        "annulled": live.annulment(),
    })
}

/// True when the stones the engine was unsure of, and their owner has not marked dead, decide
/// the winner: counted with every such Black stone dead and every such White stone alive, and
/// the other way round, the two counts name different winners (or one is a draw). A stone its
/// owner marked dead is settled (each player marks their own: the owner gave it up); the other
/// marks stay as the players have them; a stone's taking off only ever lowers its owner's
/// count, so these are Black's worst and best counts over the open stones.
pub fn unsure_decides(g: &tengen_rules::Game, unsure: &[String]) -> bool {
    let size = g.size();
    let unsure: Vec<_> = unsure
        .iter()
        .filter_map(|v| gtp::parse_point(size, v).ok())
        .filter(|&p| g.board().get(p).is_some() && !g.dead_stones().contains(p))
        .collect();
    if unsure.is_empty() {
        return false;
    }
    let winner_if_dead = |c: Color| {
        let mut dead = *g.dead_stones();
        for &p in &unsure {
            if g.board().get(p) == Some(c) {
                dead.insert(p);
            } else {
                dead.remove(p);
            }
        }
        let h = g.handicap_stones().len() as u32;
        tengen_rules::scoring::score(g.board(), &dead, g.rules(), h)
            .result
            .winner()
    };
    winner_if_dead(Color::Black) != winner_if_dead(Color::White)
}

#[cfg(test)]
mod tests {
    use super::unsure_decides;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Board, Color, Game, Preset};

    /// Black's wall on column D owns 27 points, White's on E the other 36; White stones at B5
    /// and B4 sit in Black's area.
    fn scoring(diagram_b: &str) -> Game {
        let rows = [
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            diagram_b,
            diagram_b,
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
        ];
        let b: Board = rows.join("\n").parse().unwrap();
        let mut g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
        g.start_scoring().unwrap();
        g
    }

    #[test]
    fn unsure_stones_decide_when_their_fate_flips_the_winner() {
        // White's two stones alive: the area behind Black's wall touches both colours and is
        // nobody's, White 36 + 6.5. Dead: Black 27 + 2 prisoners against 42.5. White wins
        // either way: they do not decide.
        let g = scoring(". O . X O . . . .");
        assert!(!unsure_decides(&g, &["B5".into(), "B4".into()]));
        // With the walls a column to the right, White has 27 + 6.5. Four White stones alive
        // leave Black nothing (W wins); dead, Black has 36 + 4 prisoners (B wins).
        let rows = [
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". O O . X O . . .",
            ". O O . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
        ];
        let b: Board = rows.join("\n").parse().unwrap();
        let mut g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
        g.start_scoring().unwrap();
        let unsure: Vec<String> = ["B5", "C5", "B4", "C4"].map(String::from).to_vec();
        assert!(unsure_decides(&g, &unsure));
        // White marks them dead: settled by their owner, they no longer decide.
        g.toggle_dead(gtp::parse_point(9, "B5").unwrap()).unwrap();
        assert!(g.dead_stones().contains(gtp::parse_point(9, "C4").unwrap()));
        assert!(!unsure_decides(&g, &unsure));
        // No unsure stones, nothing decides.
        assert!(!unsure_decides(&g, &[]));
    }
}
