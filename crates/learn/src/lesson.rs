//! A lesson file read into steps: each game tree of the SGF collection is one step (see
//! `docs/lessons.md` for the conventions a contributor writes in).
//!
//! A step's tree: the root sets the board up (`SZ`, `AB`, `AW`, `PL`, `RU`, `KM`, `CAPB`/`CAPW`);
//! nodes with moves before the first node that speaks (`C`) are moves already played (a ko
//! needs one); the node that speaks asks the question (`GOAL`, marks), and its children are
//! the learner's tries: `TE[1]` right, `BM[1]` wrong, each with what the teacher says (`C`), a
//! right one followed by the opponent's answer and the next question.

use std::str::FromStr;

use serde::Serialize;
use tengen_rules::coord::sgf;
use tengen_rules::{Board, Color, Game, Move, Point, PointSet, Preset};
use tengen_sgf::{GameTree, Node};

use crate::goal::Goal;
use crate::text::Text;
use crate::LessonError;

/// A lesson: a title and its steps, in order.
#[derive(Clone, Debug)]
pub struct Lesson {
    /// The file's name without `.sgf` (`03-atari`): the lesson's address.
    pub id: String,
    /// The title (`GN` of the first step).
    pub title: Text,
    /// The steps.
    pub steps: Vec<Step>,
}

/// One position and one question about it.
#[derive(Clone, Debug)]
pub struct Step {
    /// The rules the engine judges by.
    pub preset: Preset,
    /// The position the learner faces, with its history (a ko remembers the capture).
    pub start: Game,
    /// The colour the learner plays.
    pub learner: Color,
    /// The question.
    pub prompt: Text,
    /// What a move must do (or what kind of step this is).
    pub goal: Goal,
    /// Marks drawn on the board (`TR`, `SQ`, `CR`, `MA`, `LB`).
    pub marks: Vec<Mark>,
    /// The stones the goal is about: those marked with a triangle.
    pub targets: Vec<Point>,
    /// Stones counted as dead (a counting step's `MA`).
    pub dead: PointSet,
    /// The result the lesson's words give for a counting step (`RE`), checked by the tests
    /// against the engine's count.
    pub claimed: Option<String>,
    /// The tries the teacher answers.
    pub answers: Vec<Answer>,
}

/// A mark on the board (fields in alphabetical order, as the client reads them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    /// `TR`, `SQ`, `CR`, `MA` or `LB`.
    pub kind: &'static str,
    /// A label's text.
    pub label: String,
    /// The point, in GTP's spelling (`D4`).
    pub point: String,
}

/// A try the lesson foresaw.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The learner's move.
    pub mv: Move,
    /// Whether it is right (`TE`) or wrong (`BM`).
    pub right: bool,
    /// What the teacher says to it.
    pub says: Option<Text>,
    /// The opponent's answer: after a right try, and the next question; after a wrong try, the
    /// refutation shown before the learner tries again.
    pub reply: Option<Reply>,
}

/// The opponent's answer to a try.
#[derive(Clone, Debug)]
pub struct Reply {
    /// The move.
    pub mv: Move,
    /// The next question (after a right try).
    pub says: Option<Text>,
    /// The learner's next tries.
    pub next: Vec<Answer>,
}

/// A place in an SGF tree: a node of a game tree's sequence.
#[derive(Clone, Copy)]
struct At<'a> {
    tree: &'a GameTree,
    index: usize,
}

impl<'a> At<'a> {
    fn node(self) -> &'a Node {
        &self.tree.nodes[self.index]
    }

    /// The nodes that follow: the next in the sequence, or the first of each variation.
    fn children(self) -> Vec<At<'a>> {
        if self.index + 1 < self.tree.nodes.len() {
            vec![At {
                tree: self.tree,
                index: self.index + 1,
            }]
        } else {
            self.tree
                .variations
                .iter()
                .filter(|v| !v.nodes.is_empty())
                .map(|tree| At { tree, index: 0 })
                .collect()
        }
    }
}

/// Reads lesson `id` from its SGF text.
pub fn read(id: &str, sgf_text: &str) -> Result<Lesson, LessonError> {
    let collection =
        tengen_sgf::parse_str(sgf_text).map_err(|e| LessonError::Sgf(format!("{id}: {e}")))?;
    let mut steps = Vec::new();
    let mut title = None;
    for (i, tree) in collection.games.iter().enumerate() {
        let place = format!("{id}, step {}", i + 1);
        let root = tree
            .root()
            .ok_or_else(|| LessonError::Shape(format!("{place}: an empty game tree")))?;
        if i == 0 {
            title = Text::read(root, "GN", &place)?;
        }
        steps.push(read_step(tree, &place)?);
    }
    if steps.is_empty() {
        return Err(LessonError::Shape(format!("{id}: no steps")));
    }
    let title =
        title.ok_or_else(|| LessonError::Shape(format!("{id}: the first step has no GN")))?;
    Ok(Lesson {
        id: id.to_string(),
        title,
        steps,
    })
}

pub(crate) fn read_step(tree: &GameTree, place: &str) -> Result<Step, LessonError> {
    let root = At { tree, index: 0 };
    let node = root.node();
    let size = node.number("SZ").map_or(Ok(9), |n| {
        u8::try_from(n).map_err(|_| LessonError::Shape(format!("{place}: SZ[{n}]")))
    })?;
    let preset = match node.simple_text("RU") {
        Some(r) => Preset::from_str(&r).map_err(|e| LessonError::Shape(format!("{place}: {e}")))?,
        None => Preset::Japanese,
    };
    let learner = match node.first("PL") {
        Some(v) => {
            Color::parse(v).ok_or_else(|| LessonError::Shape(format!("{place}: PL[{v}]")))?
        }
        None => Color::Black,
    };
    let (question, played) = question_node(root, place)?;
    let start = position(node, size, preset, learner, &played, place)?;
    let q = question.node();
    let prompt = Text::read(q, "C", place)?
        .ok_or_else(|| LessonError::Shape(format!("{place}: no question")))?;
    let goal = match q.simple_text("GOAL") {
        Some(g) => {
            Goal::from_str(&g).map_err(|()| LessonError::Shape(format!("{place}: GOAL[{g}]")))?
        }
        None => Goal::Listed,
    };
    let marks = marks(q, size, place)?;
    let targets = points(q, "TR", size, place)?;
    let dead = points(q, "MA", size, place)?.into_iter().collect();
    let answers = answers(question, size, learner, place)?;
    Ok(Step {
        preset,
        start,
        learner,
        prompt,
        goal,
        marks,
        targets,
        dead,
        claimed: q.simple_text("RE"),
        answers,
    })
}

/// The node that asks the question (the first with a `C`) and the moves played before it.
fn question_node<'a>(
    root: At<'a>,
    place: &str,
) -> Result<(At<'a>, Vec<(Color, Move)>), LessonError> {
    let mut at = root;
    let mut played = Vec::new();
    loop {
        if at.node().has("C") {
            return Ok((at, played));
        }
        if let Some(m) = move_of(at.node(), root_size(root), place)? {
            played.push(m);
        }
        at = match at.children().as_slice() {
            [next] => *next,
            _ => {
                return Err(LessonError::Shape(format!(
                    "{place}: no question before the tree branches"
                )))
            }
        };
    }
}

fn root_size(root: At<'_>) -> u8 {
    root.node()
        .number("SZ")
        .and_then(|n| u8::try_from(n).ok())
        .unwrap_or(9)
}

/// The board set up by the root, with the moves before the question played on it.
fn position(
    root: &Node,
    size: u8,
    preset: Preset,
    learner: Color,
    played: &[(Color, Move)],
    place: &str,
) -> Result<Game, LessonError> {
    let mut board =
        Board::try_new(size).ok_or_else(|| LessonError::Shape(format!("{place}: SZ[{size}]")))?;
    let mut setup = Vec::new();
    for (id, c) in [("AB", Some(Color::Black)), ("AW", Some(Color::White))] {
        setup.extend(points(root, id, size, place)?.into_iter().map(|p| (p, c)));
    }
    board
        .setup(&setup)
        .map_err(|e| LessonError::Illegal(format!("{place}: set-up: {e}")))?;
    let prisoners = |id| {
        root.number(id)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(0)
    };
    board.set_captures(prisoners("CAPB"), prisoners("CAPW"));
    let first = played.first().map_or(learner, |&(c, _)| c);
    let mut game = Game::from_board(board, first, preset.rules(size))
        .map_err(|e| LessonError::Illegal(format!("{place}: {e}")))?;
    if let Some(km) = root.simple_text("KM") {
        let komi = km
            .parse()
            .map_err(|_| LessonError::Shape(format!("{place}: KM[{km}]")))?;
        game.set_komi(komi);
    }
    for &(c, m) in played {
        game.play(c, m).map_err(|e| {
            LessonError::Illegal(format!("{place}: a move before the question: {e}"))
        })?;
    }
    if game.to_move() != learner {
        return Err(LessonError::Shape(format!(
            "{place}: the learner is not to move at the question"
        )));
    }
    Ok(game)
}

/// The tries under `question` (its children), each with its reply and what follows.
fn answers(
    question: At<'_>,
    size: u8,
    learner: Color,
    place: &str,
) -> Result<Vec<Answer>, LessonError> {
    let mut out = Vec::new();
    for child in question.children() {
        let node = child.node();
        let (c, mv) = move_of(node, size, place)?
            .ok_or_else(|| LessonError::Shape(format!("{place}: a try without a move")))?;
        if c != learner {
            return Err(LessonError::Shape(format!(
                "{place}: a try by the wrong colour"
            )));
        }
        let right = match (node.has("TE"), node.has("BM")) {
            (true, false) => true,
            (false, true) => false,
            _ => {
                return Err(LessonError::Shape(format!(
                    "{place}: a try needs TE[1] or BM[1], not both"
                )))
            }
        };
        let reply = match child.children().first() {
            None => None,
            Some(&r) => Some(reply(r, size, learner, place)?),
        };
        out.push(Answer {
            mv,
            right,
            says: Text::read(node, "C", place)?,
            reply,
        });
    }
    Ok(out)
}

fn reply(at: At<'_>, size: u8, learner: Color, place: &str) -> Result<Reply, LessonError> {
    let (c, mv) = move_of(at.node(), size, place)?
        .ok_or_else(|| LessonError::Shape(format!("{place}: a reply without a move")))?;
    if c != learner.opponent() {
        return Err(LessonError::Shape(format!(
            "{place}: a reply by the learner's colour"
        )));
    }
    Ok(Reply {
        mv,
        says: Text::read(at.node(), "C", place)?,
        next: answers(at, size, learner, place)?,
    })
}

/// The node's move (`B` or `W`), if it has one.
fn move_of(node: &Node, size: u8, place: &str) -> Result<Option<(Color, Move)>, LessonError> {
    for (id, c) in [("B", Color::Black), ("W", Color::White)] {
        if let Some(v) = node.first(id) {
            let mv = sgf::parse_move(size, v)
                .map_err(|e| LessonError::Shape(format!("{place}: {id}[{v}]: {e}")))?;
            return Ok(Some((c, mv)));
        }
    }
    Ok(None)
}

fn points(node: &Node, id: &str, size: u8, place: &str) -> Result<Vec<Point>, LessonError> {
    match node.get(id) {
        None => Ok(Vec::new()),
        Some(values) => tengen_sgf::value::points(size, values)
            .map_err(|e| LessonError::Shape(format!("{place}: {id}: {e}"))),
    }
}

fn marks(node: &Node, size: u8, place: &str) -> Result<Vec<Mark>, LessonError> {
    let gtp = |p| tengen_rules::coord::gtp::format_point(size, p);
    let mut out = Vec::new();
    for kind in ["TR", "SQ", "CR", "MA"] {
        for p in points(node, kind, size, place)? {
            out.push(Mark {
                kind,
                point: gtp(p),
                label: String::new(),
            });
        }
    }
    for v in node.get("LB").unwrap_or_default() {
        let (at, label) = tengen_sgf::value::split_compose(v)
            .ok_or_else(|| LessonError::Shape(format!("{place}: LB[{v}]")))?;
        let p = sgf::parse_point(size, at)
            .map_err(|e| LessonError::Shape(format!("{place}: LB[{v}]: {e}")))?;
        out.push(Mark {
            kind: "LB",
            point: gtp(p),
            label: tengen_sgf::value::decode_simple_text(label),
        });
    }
    Ok(out)
}
