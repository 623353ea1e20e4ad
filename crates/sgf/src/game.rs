//! Between SGF records and rules [`Game`]s.
//!
//! Reading: [`GameInfo`] gathers the root's game information; [`replay`] plays the main line into
//! a [`Game`] and [`check`] walks every variation. Records played under other rules replay in
//! tolerant mode: a move the chosen rules forbid is played anyway and reported as a [`Problem`].
//!
//! Writing: [`record`] turns a game and its information into a game tree.

use tengen_rules::coord::sgf as coord;
use tengen_rules::{
    Board, Color, Game, GameError, GameResult, Handicap, Komi, Move, Point, Preset, Rules,
};

use crate::tree::{GameTree, Node};
use crate::value;

/// Game information from a record's root node.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    /// Board size (`SZ`, default 19).
    pub size: u8,
    /// Komi (`KM`).
    pub komi: Option<Komi>,
    /// Handicap stones (`HA`).
    pub handicap: u8,
    /// The rules as written (`RU`).
    pub rules_text: Option<String>,
    /// The preset `RU` names, if Tengen knows it.
    pub preset: Option<Preset>,
    /// The result as written (`RE`).
    pub result_text: Option<String>,
    /// The result, when `RE` is readable.
    pub result: Option<GameResult>,
    /// Black's name (`PB`).
    pub black: Option<String>,
    /// White's name (`PW`).
    pub white: Option<String>,
    /// Black's rank (`BR`).
    pub black_rank: Option<String>,
    /// White's rank (`WR`).
    pub white_rank: Option<String>,
    /// Date (`DT`).
    pub date: Option<String>,
    /// Main time in seconds (`TM`).
    pub main_time: Option<f64>,
    /// Overtime description (`OT`).
    pub overtime: Option<String>,
    /// Game comment (`GC`) or root comment (`C`).
    pub comment: Option<String>,
}

/// Why a record cannot be read as a game at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// No nodes.
    #[error("the game tree is empty")]
    Empty,
    /// `GM` other than 1.
    #[error("not a game of Go (GM[{0}])")]
    NotGo(String),
    /// `SZ` outside 2..=25, or rectangular.
    #[error("unsupported board size {0:?} (square boards of 2 to 25 lines)")]
    BoardSize(String),
    /// The chosen rules do not allow this board.
    #[error("the rules {preset} do not allow a {size}x{size} board")]
    RulesBoard {
        /// The preset.
        preset: Preset,
        /// The size.
        size: u8,
    },
}

impl RecordError {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            RecordError::Empty => "empty_record",
            RecordError::NotGo(_) => "not_go",
            RecordError::BoardSize(_) => "bad_board_size",
            RecordError::RulesBoard { .. } => "rules_board",
        }
    }
}

/// Reads the game information of `tree`'s root.
pub fn info(tree: &GameTree) -> Result<GameInfo, RecordError> {
    let root = tree.root().ok_or(RecordError::Empty)?;
    if let Some(gm) = root.first("GM") {
        if gm.trim() != "1" {
            return Err(RecordError::NotGo(gm.to_string()));
        }
    }
    let size = match root.first("SZ") {
        None => 19,
        Some(s) => {
            let s = s.trim();
            let n = match s.split_once(':') {
                Some((a, b)) if a.trim() == b.trim() => a.trim(),
                Some(_) => return Err(RecordError::BoardSize(s.to_string())),
                None => s,
            };
            match n.parse::<u8>() {
                Ok(n) if (tengen_rules::MIN_SIZE..=tengen_rules::MAX_SIZE).contains(&n) => n,
                _ => return Err(RecordError::BoardSize(s.to_string())),
            }
        }
    };
    let rules_text = root.simple_text("RU");
    let result_text = root.simple_text("RE");
    Ok(GameInfo {
        size,
        komi: root.first("KM").and_then(|k| k.trim().parse().ok()),
        handicap: root
            .first("HA")
            .and_then(|h| h.trim().parse().ok())
            .unwrap_or(0),
        preset: rules_text.as_deref().and_then(|r| r.parse().ok()),
        rules_text,
        result: result_text.as_deref().and_then(|r| r.parse().ok()),
        result_text,
        black: root.simple_text("PB"),
        white: root.simple_text("PW"),
        black_rank: root.simple_text("BR"),
        white_rank: root.simple_text("WR"),
        date: root.simple_text("DT"),
        main_time: root.first("TM").and_then(|t| t.trim().parse().ok()),
        overtime: root.simple_text("OT"),
        comment: root.text("GC").or_else(|| root.text("C")),
    })
}

/// The rules a record is replayed under: `preset` if given, else the record's `RU`, else
/// Japanese (the most common in records), with the record's komi when it has one.
pub fn rules_for(info: &GameInfo, preset: Option<Preset>) -> (Preset, Rules) {
    let p = preset.or(info.preset).unwrap_or(Preset::Japanese);
    let mut rules = p.rules(info.size);
    if let Some(k) = info.komi {
        rules.komi = k;
    }
    (p, rules)
}

/// Something in a record that the rules forbid or that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The variation: indexes of the branches taken from the root, empty for the main line.
    pub variation: Vec<usize>,
    /// 1-based move number (passes count) at which it happened; 0 for the setup before play.
    pub move_number: usize,
    /// What happened.
    pub kind: ProblemKind,
}

/// The kinds of [`Problem`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// A move the rules forbid, played anyway (tolerant mode), or refused (occupied, off board,
    /// after the end).
    Move {
        /// Who played it.
        color: Color,
        /// The SGF value.
        value: String,
        /// Why it is illegal.
        error: GameError,
        /// False when the move could not be played at all and was skipped.
        played: bool,
    },
    /// A property value that is not a point of this board.
    BadValue {
        /// The property.
        property: String,
        /// The value.
        value: String,
    },
    /// Setup stones that leave a chain without liberties.
    BadSetup,
    /// Two moves in one node.
    TwoMoves,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if !self.variation.is_empty() {
            let path: Vec<String> = self.variation.iter().map(|i| i.to_string()).collect();
            write!(f, "variation {}, ", path.join("."))?;
        }
        write!(f, "move {}: ", self.move_number)?;
        match &self.kind {
            ProblemKind::Move {
                color,
                value,
                error,
                played,
            } => {
                write!(f, "{}[{value}] {error} ({})", color.letter(), error.code())?;
                if !played {
                    write!(f, ", skipped")?;
                }
                Ok(())
            }
            ProblemKind::BadValue { property, value } => {
                write!(f, "{property}[{value}] is not a point of this board")
            }
            ProblemKind::BadSetup => write!(f, "setup leaves a chain without liberties"),
            ProblemKind::TwoMoves => write!(f, "a node with both B and W"),
        }
    }
}

/// The state of a replay along one line of play.
#[derive(Clone)]
struct Line {
    game: Game,
    moves: usize,
    handicap: u8,
    /// Nodes without moves or setup since the last move (see the pass rule in `apply`).
    empty_nodes: usize,
}

/// A game replayed from a record.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The game after the main line.
    pub game: Game,
    /// The rules it was replayed under.
    pub preset: Preset,
    /// The game information.
    pub info: GameInfo,
    /// What the rules forbid along the main line.
    pub problems: Vec<Problem>,
}

fn start(tree: &GameTree, preset: Option<Preset>) -> Result<(GameInfo, Preset, Line), RecordError> {
    let info = info(tree)?;
    let (p, rules) = rules_for(&info, preset);
    let game = Game::new(info.size, rules, Handicap::None).or_else(|_| {
        // A record on a board its rules do not list (WGA is 9x9 only, First Capture 5 to 19):
        // replay it anyway with the board-size limits lifted, so that the moves can be checked.
        let mut relaxed = rules;
        relaxed.min_size = tengen_rules::MIN_SIZE;
        relaxed.max_size = tengen_rules::MAX_SIZE;
        Game::new(info.size, relaxed, Handicap::None).map_err(|_| RecordError::RulesBoard {
            preset: p,
            size: info.size,
        })
    })?;
    let line = Line {
        game,
        moves: 0,
        handicap: info.handicap,
        empty_nodes: 0,
    };
    Ok((info, p, line))
}

/// Replays the main line of `tree` under `preset` (or the record's own rules).
pub fn replay(tree: &GameTree, preset: Option<Preset>) -> Result<Replay, RecordError> {
    let (info, p, mut line) = start(tree, preset)?;
    let mut problems = Vec::new();
    for node in tree.main_line() {
        apply(&mut line, node, &[], &mut problems);
    }
    Ok(Replay {
        game: line.game,
        preset: p,
        info,
        problems,
    })
}

/// Replays every variation of `tree` and returns everything the rules forbid.
pub fn check(tree: &GameTree, preset: Option<Preset>) -> Result<Vec<Problem>, RecordError> {
    let (_, _, line) = start(tree, preset)?;
    let mut problems = Vec::new();
    // Depth-first over (subtree, state at its start, path), without recursion.
    let mut stack: Vec<(&GameTree, Line, Vec<usize>)> = vec![(tree, line, Vec::new())];
    while let Some((t, mut line, path)) = stack.pop() {
        for node in &t.nodes {
            apply(&mut line, node, &path, &mut problems);
        }
        for (i, v) in t.variations.iter().enumerate().rev() {
            let mut p = path.clone();
            if t.variations.len() > 1 {
                p.push(i);
            }
            stack.push((v, line.clone(), p));
        }
    }
    Ok(problems)
}

fn apply(line: &mut Line, node: &Node, path: &[usize], problems: &mut Vec<Problem>) {
    const PLAY: [&str; 5] = ["B", "W", "AB", "AW", "AE"];
    if !PLAY.iter().any(|id| node.has(id)) {
        // Comments and markup only; maybe a pass written as a node without a move (below).
        line.empty_nodes += 1;
        if !node.has("PL") {
            return;
        }
    }
    let size = line.game.size();
    let mut report = |kind: ProblemKind, moves: usize| {
        problems.push(Problem {
            variation: path.to_vec(),
            move_number: moves,
            kind,
        })
    };
    // Setup first (FF[4]: setup and move properties do not mix in one node, but old files do).
    let mut setup: Vec<(Point, Option<Color>)> = Vec::new();
    for (id, color) in [
        ("AE", None),
        ("AB", Some(Color::Black)),
        ("AW", Some(Color::White)),
    ] {
        if let Some(values) = node.get(id) {
            for v in values {
                match value::points(size, std::slice::from_ref(v)) {
                    Ok(pts) => setup.extend(pts.into_iter().map(|p| (p, color))),
                    Err(_) => report(
                        ProblemKind::BadValue {
                            property: id.to_string(),
                            value: v.clone(),
                        },
                        line.moves,
                    ),
                }
            }
        }
    }
    let mut to_move = line.game.to_move();
    if !setup.is_empty() {
        let mut board: Board = line.game.board().clone();
        if board.setup(&setup).is_err() {
            report(ProblemKind::BadSetup, line.moves);
        } else {
            // Handicap stones placed as setup before the first move: White moves next.
            if line.moves == 0 && line.handicap >= 2 && node.has("AB") {
                to_move = Color::White;
            }
            let rules = *line.game.rules();
            if let Ok(g) = Game::from_board(board, to_move, rules) {
                line.game = g;
            }
        }
    }
    let b = node.first("B");
    let w = node.first("W");
    let pl = node.first("PL").and_then(|v| Color::parse(v.trim()));
    // PL says who plays next. Alone it applies before any move; beside a move in the same node
    // (CGoban writes `;W[kq]PL[B]`) it can only mean after it.
    if let (Some(pl), None, None) = (pl, b, w) {
        line.game.set_to_move(pl);
    }
    if b.is_some() && w.is_some() {
        report(ProblemKind::TwoMoves, line.moves + 1);
    }
    for (color, v) in [(Color::Black, b), (Color::White, w)] {
        let Some(v) = v else { continue };
        line.moves += 1;
        let mv = match coord::parse_move(size, v.trim()) {
            Ok(m) => m,
            Err(_) => {
                report(
                    ProblemKind::BadValue {
                        property: color.letter().to_string(),
                        value: v.to_string(),
                    },
                    line.moves,
                );
                continue;
            }
        };
        // SGF does not say who moves first from a set-up position, and handicap stones can be
        // recorded as Black's first moves (seed 000): while every move so far on this line is by
        // one colour, a move out of the usual turn is no violation.
        if line.game.moves().all(|(c, _)| c == color) {
            line.game.set_to_move(color);
        } else if color != line.game.to_move() && line.empty_nodes > 0 {
            // Many Faces of Go writes a pass as a node without a move (`;W[be];;W[fb]`, or with
            // only a comment, `C[W pass (?)]`): such a node between two moves of one colour is
            // the other colour's pass.
            let other = line.game.to_move();
            if line.game.play_tolerant(other, Move::Pass).is_ok() {
                line.moves += 1;
            }
        }
        line.empty_nodes = 0;
        match line.game.play_tolerant(color, mv) {
            Ok(None) => {}
            Ok(Some(error)) => report(
                ProblemKind::Move {
                    color,
                    value: v.to_string(),
                    error,
                    played: true,
                },
                line.moves,
            ),
            Err(error) => report(
                ProblemKind::Move {
                    color,
                    value: v.to_string(),
                    error,
                    played: false,
                },
                line.moves,
            ),
        }
    }
    if let (Some(pl), true) = (pl, b.is_some() || w.is_some()) {
        line.game.set_to_move(pl);
    }
}

/// The `RU` value Tengen writes for a preset.
pub fn ru_value(p: Preset) -> &'static str {
    match p {
        Preset::Wga => "WGA",
        Preset::Chinese => "Chinese",
        Preset::Japanese => "Japanese",
        Preset::Korean => "Korean",
        Preset::Igz => "IGZ",
        Preset::Arena => "Arena",
        Preset::Aga => "AGA",
        Preset::TrompTaylor => "Tromp-Taylor",
        Preset::Nz => "NZ",
        Preset::FirstCapture => "First Capture",
    }
}

/// Writes `game` as a game tree: a root with the game information and the handicap stones, then
/// one node per move. `info.size` is taken from the game.
pub fn record(game: &Game, preset: Option<Preset>, info: &GameInfo) -> GameTree {
    let size = game.size();
    let mut root = Node::default();
    root.set_raw("FF", vec!["4".into()]);
    root.set_raw("GM", vec!["1".into()]);
    root.set_raw("CA", vec!["UTF-8".into()]);
    // AP is a compose value (name:version): the colon separates, so it is not escaped.
    root.set_raw(
        "AP",
        vec![format!(
            "Tengen:{}",
            value::encode_text(env!("CARGO_PKG_VERSION"))
        )],
    );
    root.set_raw("SZ", vec![size.to_string()]);
    root.set_raw("KM", vec![game.rules().komi.to_string()]);
    if let Some(p) = preset {
        root.set_raw("RU", vec![ru_value(p).to_string()]);
    }
    let hc = game.handicap_stones();
    if !hc.is_empty() {
        root.set_raw("HA", vec![hc.len().to_string()]);
        root.set_raw(
            "AB",
            hc.iter().map(|&p| coord::format_point(size, p)).collect(),
        );
    }
    let texts = [
        ("PB", &info.black),
        ("PW", &info.white),
        ("BR", &info.black_rank),
        ("WR", &info.white_rank),
        ("DT", &info.date),
        ("OT", &info.overtime),
        ("GC", &info.comment),
    ];
    for (id, v) in texts {
        if let Some(v) = v {
            root.set_text(id, v);
        }
    }
    if let Some(t) = info.main_time {
        root.set_raw("TM", vec![format!("{t}")]);
    }
    if let Some(r) = game.result().or(info.result) {
        root.set_raw("RE", vec![r.to_string()]);
    }
    let mut nodes = vec![root];
    for (color, mv) in game.moves() {
        let mut n = Node::default();
        let v = match mv {
            Move::Play(p) => coord::format_point(size, p),
            Move::Pass => String::new(),
        };
        n.set_raw(&color.letter().to_string(), vec![v]);
        nodes.push(n);
    }
    GameTree {
        nodes,
        variations: Vec::new(),
    }
}
