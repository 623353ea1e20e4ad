//! Game records as SGF: a stored game written as a record ([`game_record`]), and an uploaded
//! record read with the same checks as `tengen sgf check` and GTP `loadsgf`, answered as JSON for
//! the browser (a review board, a game list: `POST /api/sgf/import`).
//!
//! Reading stores nothing. A record that cannot stand for a position (it does not parse, a value
//! cannot be read, a move cannot be played) is refused with a stable code and the same reason
//! `loadsgf` gives; what was read leniently comes back as warnings beside the game.

use serde_json::{json, Value};
use tengen_rules::coord::gtp;
use tengen_rules::{Board, Color, Move, Point, Preset, Step};
use tengen_sgf::game::{self as record, ProblemKind, RecordError};

use crate::error::ApiError;
use tengen_store::games::GameStatus;
use tengen_store::Store;

/// The stable code of a record that cannot be read as a game.
fn record_code(e: &RecordError) -> &'static str {
    match e {
        RecordError::Empty => "sgf_empty",
        RecordError::NotGo { .. } => "sgf_not_go",
        RecordError::BoardSize { .. } => "sgf_bad_board_size",
        RecordError::RulesBoard { .. } => "sgf_rules_board",
        // Only `replay_line` bounds the nodes; the server's own bound is the review's.
        RecordError::TooLong { .. } => "review_too_large",
    }
}

/// The stable code of a fault in a record.
fn fault_code(kind: &ProblemKind) -> &'static str {
    match kind {
        ProblemKind::BadValue { .. } => "sgf_bad_value",
        ProblemKind::BadSetup => "sgf_bad_setup",
        _ => "sgf_illegal_move",
    }
}

/// Reads `bytes` as an SGF record under `preset` (or its own rules).
pub fn read(bytes: &[u8], preset: Option<Preset>) -> Result<Value, ApiError> {
    let c = tengen_sgf::parse(bytes)
        .map_err(|e| ApiError::Rejected("sgf_syntax", format!("cannot load file: {e}")))?;
    let tree = c
        .games
        .first()
        .ok_or_else(|| ApiError::Rejected("sgf_empty", "cannot load file: no game".into()))?;
    let r = record::replay(tree, preset)
        .map_err(|e| ApiError::Rejected(record_code(&e), format!("cannot load file: {e}")))?;
    if let Some(p) = r.first_fault() {
        return Err(ApiError::Rejected(
            fault_code(&p.kind),
            format!("cannot load file: {p}"),
        ));
    }
    let g = &r.game;
    let size = g.size();
    let point = |p: Point| gtp::format_point(size, p);
    let mut problems: Vec<Value> = c
        .warnings
        .iter()
        .map(|w| json!({ "severity": "warning", "code": w.kind.code(), "message": w.to_string() }))
        .collect();
    problems.extend(r.problems.iter().map(|p| {
        json!({ "severity": p.severity().to_string(), "code": p.kind.code(), "message": p.to_string() })
    }));
    let history: Vec<Value> = g
        .history()
        .into_iter()
        .map(|step| match step {
            Step::Move(c, m) => json!({
                "color": c.to_string(),
                "move": match m {
                    Move::Play(p) => point(p),
                    Move::Pass => "pass".into(),
                },
            }),
            Step::Setup { stones, to_move } => {
                let of = |want: Option<Color>| -> Vec<String> {
                    stones
                        .iter()
                        .filter(|(_, c)| *c == want)
                        .map(|&(p, _)| point(p))
                        .collect()
                };
                json!({
                    "setup": {
                        "black": of(Some(Color::Black)),
                        "white": of(Some(Color::White)),
                        "empty": of(None),
                    },
                    "to_move": to_move.to_string(),
                })
            }
        })
        .collect();
    let (start, start_to_move) = g.start();
    let stones = |b: &Board, c: Color| -> Vec<String> {
        b.points()
            .filter(|&p| b.get(p) == Some(c))
            .map(point)
            .collect()
    };
    let player =
        |name: &Option<String>, rank: &Option<String>| json!({ "name": name, "rank": rank });
    Ok(json!({
        "size": size,
        "rules": r.preset.name(),
        "komi": g.rules().komi.to_string(),
        "handicap": g.handicap_stones().iter().map(|&p| point(p)).collect::<Vec<_>>(),
        "black": player(&r.info.black, &r.info.black_rank),
        "white": player(&r.info.white, &r.info.white_rank),
        "result": r.info.result_text,
        "start": {
            "black": stones(start, Color::Black),
            "white": stones(start, Color::White),
            "to_move": start_to_move.to_string(),
        },
        "history": history,
        "final": {
            "black": stones(g.board(), Color::Black),
            "white": stones(g.board(), Color::White),
            "to_move": g.to_move().to_string(),
            "captures": {
                "black": g.board().captures(Color::Black),
                "white": g.board().captures(Color::White),
            },
        },
        "problems": problems,
    }))
}

/// The record of game `id` as SGF text, and whether the game is over.
pub async fn game_record(store: &Store, id: i64) -> Result<(String, bool), ApiError> {
    let row = store.game(id).await?.ok_or(ApiError::NotFound)?;
    let (live, players, _) = tengen_live::registry::replay(store, &row).await?;
    let info = tengen_sgf::game::GameInfo {
        black: Some(players[0].username.clone()),
        white: Some(players[1].username.clone()),
        black_rank: Some(players[0].rank.clone()),
        white_rank: Some(players[1].rank.clone()),
        ..Default::default()
    };
    let text = tengen_sgf::write_game(&tengen_sgf::game::record(
        &live.game,
        Some(live.terms.rules),
        &info,
    ));
    Ok((text, row.status == GameStatus::Finished))
}
