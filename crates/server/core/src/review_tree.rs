//! A review's game tree as nodes with children (SGF's sequences and variations unfolded), each
//! node addressed by its path: the child indices from the root. Pure: edits and conversions.
//!
//! The tree is an arena (a vector of nodes, children as indices), never nested values: a user
//! sends the tree, so nothing here walks it by recursion. A record's main line of thousands of
//! moves, or variations nested as deep as SGF's reader allows, is read, edited, written and
//! dropped in loops (issue 38: a 6,000-move line used to overflow the stack). Limits keep what
//! an owner builds edit by edit readable again: at most [`MAX_NODES`] nodes, and variations
//! nested at most [`MAX_NESTING`] deep (below the SGF reader's own limit).

use serde_json::{json, Map, Value};
use tengen_rules::coord::sgf as coord;
use tengen_rules::{Color, Game, Move};
use tengen_sgf::game::{replay, ProblemKind, Severity};
use tengen_sgf::tree::{GameTree, Node, Property};

/// SGF's markup properties, as the review board draws them.
pub const MARKS: [&str; 5] = ["LB", "TR", "SQ", "CR", "MA"];

/// The most nodes a review holds (an uploaded record's, or grown by edits).
pub const MAX_NODES: usize = 20_000;

/// The deepest nesting of variations a review holds: what SGF's reader accepts, less a margin,
/// so that the stored record always reads back.
pub const MAX_NESTING: usize = tengen_sgf::MAX_DEPTH - 10;

/// One node of the arena.
#[derive(Clone, Debug, Default)]
struct Slot {
    node: Node,
    children: Vec<usize>,
}

/// A review's tree: the root is node 0; the first child of a node is its main line.
#[derive(Clone, Debug)]
pub struct ReviewTree {
    slots: Vec<Slot>,
}

/// Two trees are equal when they hold the same nodes in the same shape, wherever the arena
/// keeps them (an edit appends its node; a tree read from SGF lists them parents first).
impl PartialEq for ReviewTree {
    fn eq(&self, other: &ReviewTree) -> bool {
        let mut stack = vec![(0, 0)];
        while let Some((a, b)) = stack.pop() {
            let (a, b) = (&self.slots[a], &other.slots[b]);
            if a.node != b.node || a.children.len() != b.children.len() {
                return false;
            }
            stack.extend(a.children.iter().copied().zip(b.children.iter().copied()));
        }
        true
    }
}

impl Default for ReviewTree {
    fn default() -> ReviewTree {
        ReviewTree {
            slots: vec![Slot::default()],
        }
    }
}

/// Why an edit is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The path leads nowhere.
    #[error("no node at that path")]
    NoNode,
    /// The move is not on the board, or the rules forbid it there.
    #[error("{0}")]
    Illegal(String),
    /// The root cannot be deleted.
    #[error("the root cannot be deleted")]
    Root,
    /// A mark that is not one of SGF's `LB`, `TR`, `SQ`, `CR`, `MA`, or a label that is not 1
    /// to 4 characters without `:`, `]` or `\\`.
    #[error("{0}")]
    BadMark(String),
    /// The tree would pass [`MAX_NODES`] nodes or [`MAX_NESTING`] nested variations.
    #[error("a review holds at most {MAX_NODES} nodes and variations nested {MAX_NESTING} deep")]
    TooLarge,
}

impl EditError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::NoNode => "no_node",
            EditError::Illegal(_) => "illegal_move",
            EditError::Root => "bad_path",
            EditError::BadMark(_) => "bad_mark",
            EditError::TooLarge => "review_too_large",
        }
    }
}

impl ReviewTree {
    /// The tree of an SGF game tree; [`EditError::TooLarge`] past the limits.
    pub fn from_sgf(t: &GameTree) -> Result<ReviewTree, EditError> {
        if t.nodes.is_empty() {
            return Ok(ReviewTree::default());
        }
        let mut tree = ReviewTree { slots: Vec::new() };
        // (a game tree, the node its first node follows). Variations go on the stack last
        // first, so that each is taken, with all it holds, before its next sibling.
        let mut stack: Vec<(&GameTree, Option<usize>)> = vec![(t, None)];
        while let Some((g, parent)) = stack.pop() {
            let mut at = parent;
            for n in &g.nodes {
                at = Some(tree.push(at, n.clone())?);
            }
            for v in g.variations.iter().rev().filter(|v| !v.nodes.is_empty()) {
                stack.push((v, at));
            }
        }
        if tree.nesting() > MAX_NESTING {
            return Err(EditError::TooLarge);
        }
        Ok(tree)
    }

    /// Adds `node` after `parent` (none: the root), within [`MAX_NODES`].
    fn push(&mut self, parent: Option<usize>, node: Node) -> Result<usize, EditError> {
        if self.slots.len() >= MAX_NODES {
            return Err(EditError::TooLarge);
        }
        let i = self.slots.len();
        self.slots.push(Slot {
            node,
            children: Vec::new(),
        });
        if let Some(p) = parent {
            self.slots[p].children.push(i);
        }
        Ok(i)
    }

    /// Every node, parents before children, each child's subtree whole before its next sibling.
    fn preorder(&self) -> Vec<usize> {
        let mut out = Vec::with_capacity(self.slots.len());
        let mut stack = vec![0];
        while let Some(i) = stack.pop() {
            out.push(i);
            stack.extend(self.slots[i].children.iter().rev());
        }
        out
    }

    /// How deep SGF nests the variations: 1 for a tree without any, one more at each node
    /// with several children on the way down.
    pub fn nesting(&self) -> usize {
        let mut deepest = 1;
        let mut stack = vec![(0, 1)];
        while let Some((i, depth)) = stack.pop() {
            deepest = deepest.max(depth);
            let children = &self.slots[i].children;
            let below = depth + usize::from(children.len() > 1);
            stack.extend(children.iter().map(|&c| (c, below)));
        }
        deepest
    }

    /// How many nodes the tree holds.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Never: the root is always there.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Back to SGF: a node with one child continues its sequence, more make variations.
    pub fn to_sgf(&self) -> GameTree {
        // Each sequence (the root's, and each child's of a node with several) becomes a game
        // tree, built from the last one in preorder back, so that every variation is complete
        // before the sequence that holds it takes it.
        let mut opens = vec![false; self.slots.len()];
        opens[0] = true;
        for s in self.slots.iter().filter(|s| s.children.len() > 1) {
            for &c in &s.children {
                opens[c] = true;
            }
        }
        let starts: Vec<usize> = self.preorder().into_iter().filter(|&i| opens[i]).collect();
        let mut built: Vec<Option<GameTree>> = (0..self.slots.len()).map(|_| None).collect();
        for &s in starts.iter().rev() {
            let mut t = GameTree::default();
            let mut i = s;
            loop {
                t.nodes.push(self.slots[i].node.clone());
                match self.slots[i].children.as_slice() {
                    [] => break,
                    [only] => i = *only,
                    many => {
                        t.variations = many
                            .iter()
                            .map(|&c| built[c].take().unwrap_or_default())
                            .collect();
                        break;
                    }
                }
            }
            built[s] = Some(t);
        }
        built[0].take().unwrap_or_default()
    }

    /// The index of the node at `path`.
    fn index(&self, path: &[usize]) -> Option<usize> {
        path.iter()
            .try_fold(0, |n, &i| self.slots[n].children.get(i).copied())
    }

    /// The SGF node at `path`.
    pub fn node(&self, path: &[usize]) -> Option<&Node> {
        self.index(path).map(|i| &self.slots[i].node)
    }

    /// How many moves are tried after the node at `path`.
    pub fn children(&self, path: &[usize]) -> Option<usize> {
        self.index(path).map(|i| self.slots[i].children.len())
    }

    /// The root node (game information).
    pub fn root(&self) -> &Node {
        &self.slots[0].node
    }

    /// The position after the nodes along `path` (the record's rules), with the moves played.
    pub fn position(&self, path: &[usize]) -> Result<Game, EditError> {
        let line = self.line(path)?;
        let r = replay(&line, None).map_err(|e| EditError::Illegal(e.to_string()))?;
        Ok(r.game)
    }

    /// The straight line from the root to `path`, as a game tree.
    fn line(&self, path: &[usize]) -> Result<GameTree, EditError> {
        let mut t = GameTree::default();
        let mut n = 0;
        t.nodes.push(self.slots[n].node.clone());
        for &i in path {
            n = *self.slots[n].children.get(i).ok_or(EditError::NoNode)?;
            t.nodes.push(self.slots[n].node.clone());
        }
        Ok(t)
    }

    /// Plays `mv` by `color` after the node at `path`: the child that already has that move,
    /// or a new one (a variation, after the main line). Returns the child's path.
    pub fn play(
        &mut self,
        path: &[usize],
        color: Color,
        mv: Move,
    ) -> Result<Vec<usize>, EditError> {
        let size = self.position(path)?.size();
        let value = coord::format_move(size, mv);
        let id = if color == Color::Black { "B" } else { "W" };
        let mut node = Node::default();
        node.props.push(Property {
            id: id.into(),
            values: vec![value.clone()],
            place: None,
        });
        self.check_move(path, &node, size, mv)?;
        let parent = self.index(path).ok_or(EditError::NoNode)?;
        let same = |&c: &usize| self.slots[c].node.get(id) == Some(&[value.clone()][..]);
        let i = match self.slots[parent].children.iter().position(same) {
            Some(i) => i,
            None => {
                self.push(Some(parent), node)?;
                if self.nesting() > MAX_NESTING {
                    self.slots[parent].children.pop();
                    self.slots.pop();
                    return Err(EditError::TooLarge);
                }
                self.slots[parent].children.len() - 1
            }
        };
        let mut out = path.to_vec();
        out.push(i);
        Ok(out)
    }

    /// The rules decide: the line to `path` with `node` after it must replay without a new error.
    fn check_move(&self, path: &[usize], node: &Node, size: u8, mv: Move) -> Result<(), EditError> {
        let mut line = self.line(path)?;
        let errors = |t: &GameTree| -> Result<Vec<_>, EditError> {
            let r = replay(t, None).map_err(|e| EditError::Illegal(e.to_string()))?;
            Ok(r.problems
                .into_iter()
                .filter(|p| p.severity() == Severity::Error)
                .collect())
        };
        let before = errors(&line)?.len();
        line.nodes.push(node.clone());
        let after = errors(&line)?;
        if let (true, Some(p)) = (after.len() > before, after.last()) {
            // Told in the board's coordinates (B E5), not the record's (B[ee]).
            let told = match &p.kind {
                ProblemKind::Move { error, .. } => format!(
                    "{} {}: {error}",
                    node.props[0].id,
                    tengen_rules::coord::gtp::format_move(size, mv)
                ),
                _ => p.to_string(),
            };
            return Err(EditError::Illegal(told));
        }
        Ok(())
    }

    /// Sets (or, empty, removes) the comment of the node at `path`.
    pub fn comment(&mut self, path: &[usize], text: &str) -> Result<(), EditError> {
        let i = self.index(path).ok_or(EditError::NoNode)?;
        let n = &mut self.slots[i].node;
        if text.is_empty() {
            n.remove("C");
        } else {
            n.set_text("C", text);
        }
        Ok(())
    }

    /// Marks `point` (a vertex such as `D4`) at the node at `path` with SGF's markup: a label
    /// (`LB`, with `label`), a triangle (`TR`), a square (`SQ`), a circle (`CR`) or a cross
    /// (`MA`). A point holds one mark: the same mark again removes it, another replaces it.
    pub fn mark(
        &mut self,
        path: &[usize],
        kind: &str,
        point: &str,
        label: Option<&str>,
    ) -> Result<(), EditError> {
        if !MARKS.contains(&kind) {
            return Err(EditError::BadMark(format!(
                "a mark is one of {}",
                MARKS.join(", ")
            )));
        }
        let label = match (kind, label) {
            ("LB", Some(l))
                if (1..=4).contains(&l.chars().count())
                    && !l.contains([':', ']', '\\'])
                    && !l.trim().is_empty() =>
            {
                Some(l)
            }
            ("LB", _) => {
                return Err(EditError::BadMark(
                    "a label has 1 to 4 characters, without ':', ']' or '\\'".into(),
                ))
            }
            _ => None,
        };
        let size = u8::try_from(self.root().number("SZ").unwrap_or(19)).unwrap_or(19);
        let p = tengen_rules::coord::gtp::parse_point(size, point)
            .map_err(|e| EditError::BadMark(e.to_string()))?;
        let at = coord::format_point(size, p);
        let i = self.index(path).ok_or(EditError::NoNode)?;
        let node = &mut self.slots[i].node;
        let here = |v: &String| v.split(':').next() == Some(at.as_str());
        let same = match label {
            Some(l) => format!("{at}:{l}"),
            None => at.clone(),
        };
        let had = node.get(kind).is_some_and(|vs| vs.contains(&same));
        for id in MARKS {
            let Some(vs) = node.get(id) else { continue };
            let kept: Vec<String> = vs.iter().filter(|v| !here(v)).cloned().collect();
            if kept.is_empty() {
                node.remove(id);
            } else {
                node.set_raw(id, kept);
            }
        }
        if !had {
            let mut vs = node.get(kind).map(<[String]>::to_vec).unwrap_or_default();
            vs.push(same);
            node.set_raw(kind, vs);
        }
        Ok(())
    }

    /// Removes the node at `path` and all that follows it.
    pub fn delete(&mut self, path: &[usize]) -> Result<(), EditError> {
        let (&last, parent) = path.split_last().ok_or(EditError::Root)?;
        let p = self.index(parent).ok_or(EditError::NoNode)?;
        if last >= self.slots[p].children.len() {
            return Err(EditError::NoNode);
        }
        let gone = self.slots[p].children.remove(last);
        // The arena is packed again without the subtree, in the same order, so that the
        // indices stay dense (and `to_json` can list them as they are).
        let mut dropped = vec![false; self.slots.len()];
        let mut stack = vec![gone];
        while let Some(i) = stack.pop() {
            dropped[i] = true;
            stack.extend(&self.slots[i].children);
        }
        let mut renumber = vec![usize::MAX; self.slots.len()];
        let mut next = 0;
        for (i, d) in dropped.iter().enumerate() {
            if !d {
                renumber[i] = next;
                next += 1;
            }
        }
        let slots = std::mem::take(&mut self.slots);
        self.slots = slots
            .into_iter()
            .zip(dropped)
            .filter(|(_, d)| !d)
            .map(|(mut s, _)| {
                s.children.iter_mut().for_each(|c| *c = renumber[*c]);
                s
            })
            .collect();
        Ok(())
    }

    /// How many nodes the main line has, the root included.
    pub fn main_line_len(&self) -> usize {
        let mut n = 0;
        let mut len = 1;
        while let Some(&c) = self.slots[n].children.first() {
            n = c;
            len += 1;
        }
        len
    }

    /// The positions along the main line, the root's first, each after its node is played (a
    /// replay of the line to it: the caller bounds the line's length).
    pub fn main_line_positions(&self) -> Result<Vec<Game>, EditError> {
        let mut line = GameTree::default();
        let mut n = 0;
        let mut out = Vec::with_capacity(self.main_line_len());
        loop {
            line.nodes.push(self.slots[n].node.clone());
            let r = replay(&line, None).map_err(|e| EditError::Illegal(e.to_string()))?;
            out.push(r.game);
            match self.slots[n].children.first() {
                Some(&c) => n = c,
                None => return Ok(out),
            }
        }
    }

    /// The tree as JSON for clients: a flat list of nodes, the root first, each with its
    /// properties (`{"B": ["dd"], "C": ["..."]}`, values as written) and its children's
    /// indices in the list. Flat, so that no client needs to nest as deep as the line is long.
    pub fn to_json(&self) -> Value {
        let nodes = self.slots.iter().map(|s| {
            let mut props = Map::new();
            for p in &s.node.props {
                props.insert(p.id.clone(), json!(p.values));
            }
            json!({ "props": props, "children": s.children })
        });
        Value::Array(nodes.collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::coord::gtp;

    fn tree(sgf: &str) -> ReviewTree {
        let c = tengen_sgf::parse_str(sgf).unwrap();
        ReviewTree::from_sgf(&c.games[0]).unwrap()
    }

    /// The SGF of a tree on one line.
    fn text(t: &ReviewTree) -> String {
        tengen_sgf::write_game(&t.to_sgf()).replace('\n', "")
    }

    fn pt(v: &str) -> Move {
        Move::Play(gtp::parse_point(9, v).unwrap())
    }

    #[test]
    fn variations_and_comments_round_trip_through_sgf() {
        let record = "(;GM[1]FF[4]SZ[9]KM[7];B[ee]C[center];W[cc](;B[gg];W[gc])(;B[cg]C[a try]))";
        let t = tree(record);
        assert_eq!(t.children(&[0, 0]), Some(2));
        assert_eq!(text(&t), record);
        assert_eq!(t.main_line_len(), 5);
        assert_eq!(t.nesting(), 2);
        let nested = "(;SZ[9](;B[aa](;W[bb])(;W[cc];B[dd](;W[ee])(;W[ff])))(;B[gg]))";
        assert_eq!(text(&tree(nested)), nested);
        assert_eq!(tree(nested).nesting(), 4);
    }

    #[test]
    fn a_tree_equals_its_record_read_back_whatever_order_the_edits_made() {
        let mut t = tree("(;SZ[9];B[ee](;W[cc];B[gg])(;W[gc]))");
        // A variation added after the main line's later nodes: the arena holds it last.
        t.play(&[0], Color::White, pt("C3")).unwrap();
        t.play(&[0, 0], Color::Black, pt("G3")).unwrap();
        let back = ReviewTree::from_sgf(&t.to_sgf()).unwrap();
        assert_eq!(back, t);
        t.comment(&[0, 2], "x").unwrap();
        assert_ne!(back, t);
    }

    #[test]
    fn the_json_is_flat_the_root_first() {
        let t = tree("(;SZ[9];B[ee](;W[cc])(;W[gg]))");
        let j = t.to_json();
        assert_eq!(j[0]["props"]["SZ"], json!(["9"]));
        assert_eq!(j[0]["children"], json!([1]));
        assert_eq!(j[1]["children"], json!([2, 3]));
        assert_eq!(j[3]["props"]["W"], json!(["gg"]));
    }

    #[test]
    fn play_comment_and_delete() {
        let mut t = tree("(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])");
        // A new move after B[ee] is a variation beside W[cc]; the same move again is reused.
        let p = t.play(&[0], Color::White, pt("G7")).unwrap();
        assert_eq!(p, [0, 1]);
        assert_eq!(t.play(&[0], Color::White, pt("G7")).unwrap(), [0, 1]);
        assert_eq!(
            t.play(&[0], Color::White, pt("C7")).unwrap(),
            [0, 0],
            "W[cc] is C7"
        );
        // Occupied: refused, nothing changes.
        let before = t.clone();
        let e = t.play(&[0, 1], Color::Black, pt("E5")).unwrap_err();
        assert_eq!(e.code(), "illegal_move");
        assert!(e.to_string().starts_with("B E5: "), "{e}");
        assert_eq!(t, before);
        assert_eq!(
            t.play(&[0, 9], Color::Black, pt("A1")).unwrap_err(),
            EditError::NoNode
        );
        t.comment(&[0, 1], "better, the 3-3").unwrap();
        t.play(&[0, 1], Color::Black, pt("C3")).unwrap();
        let sgf = text(&t);
        assert!(
            sgf.contains("(;W[cc])(;W[gc]C[better, the 3-3];B[cg])"),
            "{sgf}"
        );
        t.delete(&[0, 1]).unwrap();
        assert_eq!(text(&t), "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])");
        assert_eq!(t.len(), 3, "the deleted nodes leave the arena");
        assert_eq!(t.delete(&[]).unwrap_err(), EditError::Root);
        let g = t.position(&[0, 0]).unwrap();
        assert_eq!(g.moves().len(), 2);
        assert_eq!(t.main_line_positions().unwrap().len(), 3);
    }

    #[test]
    fn marks_are_sgf_markup_one_a_point_toggled() {
        let mut t = tree("(;GM[1]FF[4]SZ[9]KM[7];B[ee])");
        t.mark(&[0], "TR", "C7", None).unwrap();
        t.mark(&[0], "LB", "G3", Some("A")).unwrap();
        t.mark(&[0], "SQ", "E5", None).unwrap();
        assert_eq!(
            text(&t),
            "(;GM[1]FF[4]SZ[9]KM[7];B[ee]TR[cc]LB[gg:A]SQ[ee])"
        );
        // The same mark again takes it off; another mark replaces it.
        t.mark(&[0], "TR", "C7", None).unwrap();
        t.mark(&[0], "CR", "E5", None).unwrap();
        t.mark(&[0], "LB", "G3", Some("B")).unwrap();
        assert_eq!(text(&t), "(;GM[1]FF[4]SZ[9]KM[7];B[ee]CR[ee]LB[gg:B])");
        let bad = |e: EditError| e.code();
        assert_eq!(bad(t.mark(&[0], "XX", "C7", None).unwrap_err()), "bad_mark");
        assert_eq!(bad(t.mark(&[0], "LB", "C7", None).unwrap_err()), "bad_mark");
        assert_eq!(
            bad(t.mark(&[0], "LB", "C7", Some("a]b")).unwrap_err()),
            "bad_mark"
        );
        assert_eq!(
            bad(t.mark(&[0], "TR", "Z99", None).unwrap_err()),
            "bad_mark"
        );
        assert_eq!(bad(t.mark(&[3], "TR", "C7", None).unwrap_err()), "no_node");
    }

    /// A main line of `moves` passes on 19x19 (any length replays), as SGF text.
    fn long_line(moves: usize) -> String {
        let mut s = String::from("(;GM[1]FF[4]SZ[19]KM[6.5]");
        for i in 0..moves {
            s.push_str(if i % 2 == 0 { ";B[]" } else { ";W[]" });
        }
        s.push(')');
        s
    }

    /// Runs `f` on a thread with a small stack: a walk by recursion over thousands of nodes
    /// would overflow it (and abort the test process), loops do not.
    fn on_small_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn a_main_line_of_ten_thousand_moves_is_read_written_and_dropped_in_loops() {
        on_small_stack(|| {
            let c = tengen_sgf::parse_str(&long_line(10_000)).unwrap();
            let mut t = ReviewTree::from_sgf(&c.games[0]).unwrap();
            assert_eq!(t.main_line_len(), 10_001);
            let j = t.to_json().to_string();
            assert!(j.len() > 10_000);
            let back = ReviewTree::from_sgf(&t.to_sgf()).unwrap();
            assert_eq!(back, t);
            let path = vec![0; 5_000];
            t.comment(&path, "half way").unwrap();
            t.delete(&path).unwrap();
            assert_eq!(t.main_line_len(), 5_000);
            drop(back);
        });
    }

    #[test]
    fn trees_past_the_limits_are_refused_with_a_code() {
        let c = tengen_sgf::parse_str(&long_line(MAX_NODES)).unwrap();
        let e = ReviewTree::from_sgf(&c.games[0]).unwrap_err();
        assert_eq!(e.code(), "review_too_large");
        let c = tengen_sgf::parse_str(&long_line(MAX_NODES - 1)).unwrap();
        let mut t = ReviewTree::from_sgf(&c.games[0]).unwrap();
        let end = vec![0; MAX_NODES - 1];
        assert_eq!(
            t.play(&end, Color::Black, Move::Pass).unwrap_err(),
            EditError::TooLarge
        );
        assert_eq!(t.len(), MAX_NODES);
    }

    /// A tree whose variations nest `1 + levels` deep: at each level a leaf and a branch.
    fn nested(levels: usize) -> String {
        format!(
            "(;SZ[19]{}{})",
            "(;C[a])(;C[b]".repeat(levels),
            ")".repeat(levels)
        )
    }

    #[test]
    fn variations_nest_no_deeper_than_the_sgf_reader_reads() {
        let c = tengen_sgf::parse_str(&nested(MAX_NESTING)).unwrap();
        let e = ReviewTree::from_sgf(&c.games[0]).unwrap_err();
        assert_eq!(e, EditError::TooLarge);
        let c = tengen_sgf::parse_str(&nested(MAX_NESTING - 1)).unwrap();
        let mut t = ReviewTree::from_sgf(&c.games[0]).unwrap();
        assert_eq!(t.nesting(), MAX_NESTING);
        // At the deepest leaf one move is a sequence, a second would nest one more.
        let leaf = vec![1; MAX_NESTING - 1];
        t.play(&leaf, Color::Black, Move::Pass).unwrap();
        let before = t.clone();
        let a1 = Move::Play(gtp::parse_point(19, "A1").unwrap());
        let e = t.play(&leaf, Color::Black, a1).unwrap_err();
        assert_eq!(e, EditError::TooLarge);
        assert_eq!(t, before);
        // What it holds reads back whole.
        let sgf = tengen_sgf::write_game(&t.to_sgf());
        let read = tengen_sgf::parse_str(&sgf).unwrap();
        assert_eq!(ReviewTree::from_sgf(&read.games[0]).unwrap(), t);
    }
}
