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
        "score": score,
        "result": g.result().map(|r| r.to_string()),
        "end_reason": live.end_reason,
        // Why the result counts for nobody's points or rating (`null` when it counts).
        "annulled": live.annulment(),
    })
}
