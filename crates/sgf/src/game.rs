//! Between SGF records and rules [`Game`]s.
//!
//! Reading: [`GameInfo`] gathers the root's game information; [`replay`] plays the main line into
//! a [`Game`] and [`check`] walks every variation. Records played under other rules replay in
//! tolerant mode: a move the chosen rules forbid is played anyway and reported as a [`Problem`].
//!
//! Writing: [`record`] turns a game and its information into a game tree.

use tengen_rules::coord::sgf as coord;
use tengen_rules::{
    Board, Color, Game, GameError, GameResult, Handicap, Komi, Move, Phase, Point, Preset, Rules,
    Step,
};

use crate::tree::{GameTree, Node, Place};
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
    #[error("{}not a game of Go (GM[{value}])", at(place))]
    NotGo {
        /// The value.
        value: String,
        /// Where it was read.
        place: Option<Place>,
    },
    /// `SZ` outside 2..=25, rectangular, or not a number.
    #[error(
        "{}SZ[{value}]: unsupported board size (square boards of 2 to 25 lines)",
        at(place)
    )]
    BoardSize {
        /// The value.
        value: String,
        /// Where it was read.
        place: Option<Place>,
    },
    /// The chosen rules do not allow this board.
    #[error("the rules {preset} do not allow a {size}x{size} board")]
    RulesBoard {
        /// The preset.
        preset: Preset,
        /// The size.
        size: u8,
    },
    /// More nodes on the main line than the reader takes.
    #[error("the main line has {nodes} nodes; at most {limit} are read")]
    TooLong {
        /// Nodes on the main line.
        nodes: usize,
        /// The most read.
        limit: usize,
    },
}

/// `"line L, column C: "` for a known place, nothing otherwise.
fn at(place: &Option<Place>) -> String {
    place.map(|p| format!("{p}: ")).unwrap_or_default()
}

impl RecordError {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            RecordError::Empty => "empty_record",
            RecordError::NotGo { .. } => "not_go",
            RecordError::BoardSize { .. } => "bad_board_size",
            RecordError::RulesBoard { .. } => "rules_board",
            RecordError::TooLong { .. } => "record_too_long",
        }
    }
}

/// Reads the game information of `tree`'s root. Values that cannot be read are left out here;
/// [`replay`] and [`check`] report them.
pub fn info(tree: &GameTree) -> Result<GameInfo, RecordError> {
    read_info(tree).map(|(info, _)| info)
}

/// The game information and what is wrong with its values.
fn read_info(tree: &GameTree) -> Result<(GameInfo, Vec<Problem>), RecordError> {
    let root = tree.root().ok_or(RecordError::Empty)?;
    if let Some(gm) = root.first("GM") {
        if gm.trim() != "1" {
            return Err(RecordError::NotGo {
                value: gm.to_string(),
                place: root.place("GM"),
            });
        }
    }
    let size = match root.first("SZ") {
        None => 19,
        Some(s) => {
            let bad = || RecordError::BoardSize {
                value: s.to_string(),
                place: root.place("SZ"),
            };
            let t = s.trim();
            let n = match t.split_once(':') {
                Some((a, b)) if a.trim() == b.trim() => a.trim(),
                Some(_) => return Err(bad()),
                None => t,
            };
            match n.parse::<u8>() {
                Ok(n) if (tengen_rules::MIN_SIZE..=tengen_rules::MAX_SIZE).contains(&n) => n,
                _ => return Err(bad()),
            }
        }
    };
    let mut problems = Vec::new();
    let mut report = |id: &str, value: &str, reason: String, severity: Severity| {
        let kind = match severity {
            Severity::Error => ProblemKind::BadValue {
                property: id.to_string(),
                value: value.to_string(),
                reason,
            },
            Severity::Warning => ProblemKind::Ignored {
                property: id.to_string(),
                value: value.to_string(),
                reason,
            },
        };
        problems.push(Problem {
            variation: Vec::new(),
            move_number: 0,
            place: root.place(id),
            kind,
        });
    };
    let komi = match root.first("KM") {
        None => None,
        Some(k) if k.trim().is_empty() => {
            let why = "no komi given; the rules' komi is used";
            report("KM", k, why.into(), Severity::Warning);
            None
        }
        Some(k) => match k.trim().parse::<Komi>() {
            Ok(komi) => Some(komi),
            Err(_) => {
                let why = "komi must be a whole or half number between -1000 and 1000";
                report("KM", k, why.into(), Severity::Error);
                None
            }
        },
    };
    let cells = size as i64 * size as i64;
    let handicap = match root.first("HA") {
        None => 0,
        Some(h) => match h.trim().parse::<i64>() {
            Ok(1) => {
                let why = "one handicap stone is an even game; read as no handicap";
                report("HA", h, why.into(), Severity::Warning);
                0
            }
            Ok(n) if (0..cells).contains(&n) && n <= u8::MAX as i64 => n as u8,
            Ok(n) if n < 0 => {
                report(
                    "HA",
                    h,
                    "a handicap cannot be negative".into(),
                    Severity::Error,
                );
                0
            }
            Ok(_) => {
                let why = format!("more handicap stones than a {size}x{size} board holds");
                report("HA", h, why, Severity::Error);
                0
            }
            Err(_) => {
                let why = "the handicap must be a whole number of stones";
                report("HA", h, why.into(), Severity::Error);
                0
            }
        },
    };
    let rules_text = root.simple_text("RU");
    let result_text = root.simple_text("RE");
    let info = GameInfo {
        size,
        komi,
        handicap,
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
    };
    Ok((info, problems))
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

/// How much a [`Problem`] matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Severity {
    /// The record is read as other programs read it; worth knowing, not a fault.
    Warning,
    /// The record is wrong: a value that cannot be read, or a move that cannot be played or
    /// that the rules forbid.
    Error,
}

impl std::fmt::Display for Severity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// Something in a record that the rules forbid, that cannot be read, or that was read
/// leniently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The variation: indexes of the branches taken from the root, empty for the main line.
    pub variation: Vec<usize>,
    /// 1-based move number (passes count) at which it happened; 0 for the setup before play.
    pub move_number: usize,
    /// Where the property at fault was read, when the tree came from text.
    pub place: Option<Place>,
    /// What happened.
    pub kind: ProblemKind,
}

impl Problem {
    /// Warning or error.
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// True when the record cannot stand for a position: a value that cannot be read, a move
    /// that could not be played, a setup without liberties. A move the chosen rules forbid but
    /// that could be played (a record of other rules) is an error that still leaves a
    /// position, so it does not count here.
    pub fn prevents_loading(&self) -> bool {
        match &self.kind {
            ProblemKind::Move { played, .. } => !played,
            k => k.severity() == Severity::Error,
        }
    }
}

/// The kinds of [`Problem`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProblemKind {
    /// A move the rules forbid, played anyway (tolerant mode), or refused (occupied, after the
    /// end).
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
    /// A property value that cannot be read: a point off the board, a komi or handicap that
    /// is not a number.
    BadValue {
        /// The property.
        property: String,
        /// The value.
        value: String,
        /// Why it cannot be read.
        reason: String,
    },
    /// A property value read as something else, or left out (`HA[1]`, `KM[]`).
    Ignored {
        /// The property.
        property: String,
        /// The value.
        value: String,
        /// How it was read.
        reason: String,
    },
    /// Setup stones that leave a chain without liberties.
    BadSetup,
    /// Two moves in one node (both are played, Black's first).
    TwoMoves,
    /// A move by the player who moved last (FF[4] allows it: a handicap recorded without
    /// passes, an edited record), replayed as recorded.
    OutOfTurn {
        /// Who played it.
        color: Color,
        /// The SGF value.
        value: String,
    },
}

impl ProblemKind {
    /// Warning or error.
    pub fn severity(&self) -> Severity {
        match self {
            ProblemKind::Move { .. } | ProblemKind::BadValue { .. } | ProblemKind::BadSetup => {
                Severity::Error
            }
            ProblemKind::Ignored { .. } | ProblemKind::TwoMoves | ProblemKind::OutOfTurn { .. } => {
                Severity::Warning
            }
        }
    }

    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            ProblemKind::Move { error, .. } => error.code(),
            ProblemKind::BadValue { .. } => "bad_value",
            ProblemKind::Ignored { .. } => "value_ignored",
            ProblemKind::BadSetup => "setup_without_liberties",
            ProblemKind::TwoMoves => "two_moves_in_a_node",
            ProblemKind::OutOfTurn { .. } => "out_of_turn",
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(p) = self.place {
            write!(f, "{p}: ")?;
        }
        if !self.variation.is_empty() {
            let path: Vec<String> = self.variation.iter().map(|i| i.to_string()).collect();
            write!(f, "variation {}, ", path.join("."))?;
        }
        // Move 0 is the record's information and set-up before play: the place says enough.
        if self.move_number > 0 || self.place.is_none() {
            write!(f, "move {}: ", self.move_number)?;
        }
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
            ProblemKind::BadValue {
                property,
                value,
                reason,
            }
            | ProblemKind::Ignored {
                property,
                value,
                reason,
            } => write!(f, "{property}[{value}]: {reason}"),
            ProblemKind::BadSetup => write!(f, "setup leaves a chain without liberties"),
            ProblemKind::TwoMoves => write!(f, "a node with both B and W; both are played"),
            ProblemKind::OutOfTurn { color, value } => {
                let name = match color {
                    Color::Black => "black",
                    Color::White => "white",
                };
                write!(
                    f,
                    "{}[{value}] is a second {name} move in a row; replayed as recorded",
                    color.letter()
                )
            }
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
    /// What the rules forbid along the main line, what cannot be read, and what was read
    /// leniently, in order.
    pub problems: Vec<Problem>,
}

impl Replay {
    /// The first problem that keeps the record from standing for a position
    /// ([`Problem::prevents_loading`]).
    pub fn first_fault(&self) -> Option<&Problem> {
        self.problems.iter().find(|p| p.prevents_loading())
    }

    /// The first error: a fault, or a move the rules forbid.
    pub fn first_error(&self) -> Option<&Problem> {
        self.problems
            .iter()
            .find(|p| p.severity() == Severity::Error)
    }
}

fn start(
    tree: &GameTree,
    preset: Option<Preset>,
) -> Result<(GameInfo, Vec<Problem>, Preset, Line), RecordError> {
    let (info, problems) = read_info(tree)?;
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
    Ok((info, problems, p, line))
}

/// Replays the main line of `tree` under `preset` (or the record's own rules).
pub fn replay(tree: &GameTree, preset: Option<Preset>) -> Result<Replay, RecordError> {
    let (info, mut problems, p, mut line) = start(tree, preset)?;
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

/// Replays the main line of `tree` as [`replay`] does, and gives the game as it stood after
/// each of its nodes, the root's first (for an analysis of every position). At most `limit`
/// nodes are replayed: a record longer than that is [`RecordError::TooLong`].
pub fn replay_line(
    tree: &GameTree,
    preset: Option<Preset>,
    limit: usize,
) -> Result<(Replay, Vec<Game>), RecordError> {
    let nodes = tree.main_line();
    if nodes.len() > limit {
        return Err(RecordError::TooLong {
            nodes: nodes.len(),
            limit,
        });
    }
    let (info, mut problems, p, mut line) = start(tree, preset)?;
    let mut games = Vec::with_capacity(nodes.len());
    for node in nodes {
        apply(&mut line, node, &[], &mut problems);
        games.push(line.game.clone());
    }
    let replay = Replay {
        game: line.game,
        preset: p,
        info,
        problems,
    };
    Ok((replay, games))
}

/// Replays every variation of `tree` and returns everything the rules forbid, everything
/// that cannot be read and everything read leniently.
pub fn check(tree: &GameTree, preset: Option<Preset>) -> Result<Vec<Problem>, RecordError> {
    let (_, mut problems, _, line) = start(tree, preset)?;
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
    let mut report = |kind: ProblemKind, moves: usize, id: &str| {
        problems.push(Problem {
            variation: path.to_vec(),
            move_number: moves,
            place: node.place(id),
            kind,
        })
    };
    let pl = node.first("PL").and_then(|v| Color::parse(v.trim()));
    let b = node.first("B");
    let w = node.first("W");
    // Setup first (FF[4]: setup and move properties do not mix in one node, but old files do).
    let mut setup: Vec<(Point, Option<Color>)> = Vec::new();
    for (id, color) in [
        ("AE", None),
        ("AB", Some(Color::Black)),
        ("AW", Some(Color::White)),
    ] {
        for v in node.get(id).unwrap_or_default() {
            match value::points(size, std::slice::from_ref(v)) {
                Ok(pts) => setup.extend(pts.into_iter().map(|p| (p, color))),
                Err(_) => report(
                    ProblemKind::BadValue {
                        property: id.to_string(),
                        value: v.clone(),
                        reason: format!("not a point of this {size}x{size} board"),
                    },
                    line.moves,
                    id,
                ),
            }
        }
    }
    if !setup.is_empty() {
        // PL in a setup node says who moves after it; so does PL beside a move, after the move.
        let to_move = match (pl, b, w) {
            (Some(pl), None, None) => pl,
            _ => line.game.to_move(),
        };
        if let Err(kind) = set_up(line, node, &setup, to_move) {
            report(kind, line.moves, if node.has("AB") { "AB" } else { "AW" });
        }
    } else if let (Some(pl), None, None) = (pl, b, w) {
        // PL alone applies before any move; beside a move in the same node (CGoban writes
        // `;W[kq]PL[B]`) it can only mean after it.
        line.game.set_to_move(pl);
    }
    if b.is_some() && w.is_some() {
        report(ProblemKind::TwoMoves, line.moves + 1, "W");
    }
    for (color, v) in [(Color::Black, b), (Color::White, w)] {
        let Some(v) = v else { continue };
        let id = color.letter().to_string();
        line.moves += 1;
        let mv = match coord::parse_move(size, v.trim()) {
            Ok(m) => m,
            Err(_) => {
                report(
                    ProblemKind::BadValue {
                        property: id.clone(),
                        value: v.to_string(),
                        reason: format!("not a point of this {size}x{size} board"),
                    },
                    line.moves,
                    &id,
                );
                continue;
            }
        };
        if color == Color::White {
            handicap_from_moves(line);
        }
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
        } else if color != line.game.to_move() && line.game.phase() != Phase::Finished {
            // FF[4] lets a record hold B after B: replay it as recorded.
            report(
                ProblemKind::OutOfTurn {
                    color,
                    value: v.to_string(),
                },
                line.moves,
                &id,
            );
            line.game.set_to_move(color);
        }
        line.empty_nodes = 0;
        let kind = |error, played| ProblemKind::Move {
            color,
            value: v.to_string(),
            error,
            played,
        };
        match line.game.play_tolerant(color, mv) {
            Ok(None) => {}
            Ok(Some(error)) => report(kind(error, true), line.moves, &id),
            Err(error) => report(kind(error, false), line.moves, &id),
        }
    }
    if let (Some(pl), true) = (pl, b.is_some() || w.is_some()) {
        line.game.set_to_move(pl);
    }
}

/// Applies setup stones: before anything is played they make the start position (with the
/// record's handicap, when `HA` is 2 or more and the stones are Black's), later they are a
/// change the game's history keeps.
fn set_up(
    line: &mut Line,
    node: &Node,
    setup: &[(Point, Option<Color>)],
    to_move: Color,
) -> Result<(), ProblemKind> {
    if !line.game.is_at_start() {
        return line.game.edit(setup, to_move).map_err(|e| match e {
            GameError::SetupWithoutLiberties => ProblemKind::BadSetup,
            // Off-board points were reported and left out; the game cannot be over here
            // (moves after the end are refused before setup is reached), but say so if it is.
            error => ProblemKind::Move {
                color: to_move,
                value: String::new(),
                error,
                played: false,
            },
        });
    }
    let mut board: Board = line.game.board().clone();
    board.setup(setup).map_err(|_| ProblemKind::BadSetup)?;
    let rules = *line.game.rules();
    let handicap: Vec<Point> = if line.handicap >= 2 && node.has("AB") && !node.has("AW") {
        setup
            .iter()
            .filter(|(_, c)| *c == Some(Color::Black))
            .map(|&(p, _)| p)
            .collect()
    } else {
        Vec::new()
    };
    // Handicap stones placed as setup before the first move: White moves next.
    let to_move = if handicap.is_empty() || node.has("PL") {
        to_move
    } else {
        Color::White
    };
    let mut handicap = handicap;
    handicap.dedup();
    let game = Game::from_handicap_board(board.clone(), handicap, to_move, rules)
        .or_else(|_| Game::from_board(board, to_move, rules));
    if let Ok(g) = game {
        line.game = g;
    }
    Ok(())
}

/// A handicap recorded as Black's first moves (`HA[3];B[dp];B[pd];B[dd];W[..]`, seed 000's
/// "handicap stones are placed as Black's first moves"): when White first moves after exactly
/// `HA` black stones on an empty board, those stones become the handicap, as if set up, so
/// that the count compensates them.
fn handicap_from_moves(line: &mut Line) {
    let n = line.handicap as usize;
    let g = &line.game;
    if n < 2 || g.ply_count() != n || !g.handicap_stones().is_empty() {
        return;
    }
    let (start, _) = g.start();
    if start.empty_count() != start.points().count() || g.history().len() != n {
        return;
    }
    let mut stones = Vec::with_capacity(n);
    for (c, m) in g.moves() {
        match (c, m) {
            (Color::Black, Move::Play(p)) => stones.push(p),
            _ => return,
        }
    }
    let rules = *g.rules();
    if let Ok(game) = Game::from_handicap_board(g.board().clone(), stones, Color::White, rules) {
        line.game = game;
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

/// Writes `game` as a game tree: a root with the game information, the handicap stones (`HA`
/// and `AB`) and any set-up stones of the start position, then one node per move and one per
/// set-up change between moves (`AB`/`AW`/`AE` with `PL`). `info.size` is taken from the game.
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
    // The start position: handicap stones (with HA) and any other set-up stones.
    let (start, start_to_move) = game.start();
    let hc = game.handicap_stones();
    if !hc.is_empty() {
        root.set_raw("HA", vec![hc.len().to_string()]);
    }
    let stones = |c: Color| -> Vec<String> {
        start
            .points()
            .filter(|&p| start.get(p) == Some(c))
            .map(|p| coord::format_point(size, p))
            .collect()
    };
    for (id, c) in [("AB", Color::Black), ("AW", Color::White)] {
        let v = stones(c);
        if !v.is_empty() {
            root.set_raw(id, v);
        }
    }
    let usual_first = if hc.is_empty() {
        Color::Black
    } else {
        Color::White
    };
    if start_to_move != usual_first {
        root.set_raw("PL", vec![start_to_move.letter().to_string()]);
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
    for step in game.history() {
        let mut n = Node::default();
        match step {
            Step::Move(color, mv) => {
                let v = match mv {
                    Move::Play(p) => coord::format_point(size, p),
                    Move::Pass => String::new(),
                };
                n.set_raw(&color.letter().to_string(), vec![v]);
            }
            Step::Setup { stones, to_move } => {
                for (id, c) in [
                    ("AE", None),
                    ("AB", Some(Color::Black)),
                    ("AW", Some(Color::White)),
                ] {
                    let v: Vec<String> = stones
                        .iter()
                        .filter(|(_, s)| *s == c)
                        .map(|&(p, _)| coord::format_point(size, p))
                        .collect();
                    if !v.is_empty() {
                        n.set_raw(id, v);
                    }
                }
                n.set_raw("PL", vec![to_move.letter().to_string()]);
            }
        }
        nodes.push(n);
    }
    GameTree {
        nodes,
        variations: Vec::new(),
    }
}
