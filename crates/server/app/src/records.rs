//! Game records as SGF: a stored game written as a record ([`game_record`]), and an uploaded
//! record read with the same checks as `tengen sgf check` and GTP `loadsgf`, answered as JSON for
//! the browser (a review board, a game list: `POST /api/sgf/import`).
//!
//! Reading stores nothing. A record that cannot stand for a position (it does not parse, a value
//! cannot be read, a move cannot be played) is refused with a stable code and the same reason
//! `loadsgf` gives; what was read leniently comes back as warnings beside the game.

use serde::Serialize;
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
pub fn read(bytes: &[u8], preset: Option<Preset>) -> Result<ReadRecord, ApiError> {
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
    let mut problems: Vec<Problem> = c
        .warnings
        .iter()
        .map(|w| Problem {
            code: w.kind.code(),
            message: w.to_string(),
            severity: "warning".into(),
        })
        .collect();
    problems.extend(r.problems.iter().map(|p| Problem {
        code: p.kind.code(),
        message: p.to_string(),
        severity: p.severity().to_string(),
    }));
    let history = g
        .history()
        .into_iter()
        .map(|step| match step {
            Step::Move(c, m) => Played::Move {
                color: c.to_string(),
                at: match m {
                    Move::Play(p) => point(p),
                    Move::Pass => "pass".into(),
                },
            },
            Step::Setup { stones, to_move } => {
                let of = |want: Option<Color>| -> Vec<String> {
                    stones
                        .iter()
                        .filter(|(_, c)| *c == want)
                        .map(|&(p, _)| point(p))
                        .collect()
                };
                Played::Setup {
                    setup: Setup {
                        black: of(Some(Color::Black)),
                        empty: of(None),
                        white: of(Some(Color::White)),
                    },
                    to_move: to_move.to_string(),
                }
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
    let player = |name: &Option<String>, rank: &Option<String>| RecordPlayer {
        name: name.clone(),
        rank: rank.clone(),
    };
    Ok(ReadRecord {
        black: player(&r.info.black, &r.info.black_rank),
        end: Position {
            black: stones(g.board(), Color::Black),
            captures: Some(Captures {
                black: g.board().captures(Color::Black),
                white: g.board().captures(Color::White),
            }),
            to_move: g.to_move().to_string(),
            white: stones(g.board(), Color::White),
        },
        handicap: g.handicap_stones().iter().map(|&p| point(p)).collect(),
        history,
        komi: g.rules().komi.to_string(),
        problems,
        result: r.info.result_text.clone(),
        rules: r.preset.name(),
        size,
        start: Position {
            black: stones(start, Color::Black),
            captures: None,
            to_move: start_to_move.to_string(),
            white: stones(start, Color::White),
        },
        white: player(&r.info.white, &r.info.white_rank),
    })
}

// The answer's fields are in alphabetical order, as the `json!` object it replaces wrote
// them: the wire stays byte for byte the same.

/// An SGF record as read: its game, its position at the start and the end, each step between,
/// and the problems found on the way.
#[derive(Debug, Serialize)]
pub struct ReadRecord {
    /// Black's name and rank, as the record gives them.
    pub black: RecordPlayer,
    /// The position after the last step.
    #[serde(rename = "final")]
    pub end: Position,
    /// The handicap stones, as GTP points.
    pub handicap: Vec<String>,
    /// Each move or setup, in order.
    pub history: Vec<Played>,
    /// The komi, as text.
    pub komi: String,
    /// Warnings and faults that did not stop the reading.
    pub problems: Vec<Problem>,
    /// The record's result, if it gives one.
    pub result: Option<String>,
    /// The rule preset's name.
    pub rules: &'static str,
    /// The board's size.
    pub size: u8,
    /// The position before the first step.
    pub start: Position,
    /// White's name and rank.
    pub white: RecordPlayer,
}

/// A player as a record names them.
#[derive(Debug, Serialize)]
pub struct RecordPlayer {
    /// Their name.
    pub name: Option<String>,
    /// Their rank, as written.
    pub rank: Option<String>,
}

/// A position: the stones of each colour and who moves next.
#[derive(Debug, Serialize)]
pub struct Position {
    /// Black's stones.
    pub black: Vec<String>,
    /// Stones captured by each (the end position only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captures: Option<Captures>,
    /// `black` or `white`.
    pub to_move: String,
    /// White's stones.
    pub white: Vec<String>,
}

/// Stones captured by each colour.
#[derive(Debug, Serialize)]
pub struct Captures {
    /// By Black.
    pub black: u32,
    /// By White.
    pub white: u32,
}

/// One step of a record.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum Played {
    /// A move: `{"color", "move"}`.
    Move {
        /// Who played.
        color: String,
        /// Where, or `pass`.
        #[serde(rename = "move")]
        at: String,
    },
    /// Stones set on the board: `{"setup": {"black", "empty", "white"}, "to_move"}`.
    Setup {
        /// What is set.
        setup: Setup,
        /// Who moves next.
        to_move: String,
    },
}

/// Stones set, and points emptied.
#[derive(Debug, Serialize)]
pub struct Setup {
    /// Black stones.
    pub black: Vec<String>,
    /// Points emptied.
    pub empty: Vec<String>,
    /// White stones.
    pub white: Vec<String>,
}

/// A warning or fault found while reading a record.
#[derive(Debug, Serialize)]
pub struct Problem {
    /// A stable code.
    pub code: &'static str,
    /// In words.
    pub message: String,
    /// `warning`, `error`...
    pub severity: String,
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
