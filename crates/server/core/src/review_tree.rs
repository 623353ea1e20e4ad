//! A review's game tree as nodes with children (SGF's sequences and variations unfolded), each
//! node addressed by its path: the child indices from the root. Pure: edits and conversions.

use serde_json::{json, Map, Value};
use tengen_rules::coord::sgf as coord;
use tengen_rules::{Color, Game, Move};
use tengen_sgf::game::{replay, ProblemKind, Severity};
use tengen_sgf::tree::{GameTree, Node, Property};

/// SGF's markup properties, as the review board draws them.
pub const MARKS: [&str; 5] = ["LB", "TR", "SQ", "CR", "MA"];

/// A node and what follows it; the first child is the main line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReviewNode {
    /// The SGF properties (moves, comments, set-up, game information at the root).
    pub node: Node,
    /// The moves tried after it.
    pub children: Vec<ReviewNode>,
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
}

impl EditError {
    /// Stable code.
    pub fn code(&self) -> &'static str {
        match self {
            EditError::NoNode => "no_node",
            EditError::Illegal(_) => "illegal_move",
            EditError::Root => "bad_path",
            EditError::BadMark(_) => "bad_mark",
        }
    }
}

impl ReviewNode {
    /// The tree of an SGF game tree.
    pub fn from_sgf(t: &GameTree) -> ReviewNode {
        fn seq(nodes: &[Node], variations: &[GameTree]) -> ReviewNode {
            let mut n = ReviewNode {
                node: nodes[0].clone(),
                children: Vec::new(),
            };
            if nodes.len() > 1 {
                n.children.push(seq(&nodes[1..], variations));
            } else {
                n.children = variations
                    .iter()
                    .filter(|v| !v.nodes.is_empty())
                    .map(|v| seq(&v.nodes, &v.variations))
                    .collect();
            }
            n
        }
        if t.nodes.is_empty() {
            return ReviewNode::default();
        }
        seq(&t.nodes, &t.variations)
    }

    /// Back to SGF: a node with one child continues its sequence, more make variations.
    pub fn to_sgf(&self) -> GameTree {
        let mut t = GameTree::default();
        let mut n = self;
        loop {
            t.nodes.push(n.node.clone());
            match n.children.len() {
                0 => return t,
                1 => n = &n.children[0],
                _ => {
                    t.variations = n.children.iter().map(ReviewNode::to_sgf).collect();
                    return t;
                }
            }
        }
    }

    /// The node at `path`.
    pub fn at(&self, path: &[usize]) -> Option<&ReviewNode> {
        path.iter().try_fold(self, |n, &i| n.children.get(i))
    }

    fn at_mut(&mut self, path: &[usize]) -> Option<&mut ReviewNode> {
        path.iter().try_fold(self, |n, &i| n.children.get_mut(i))
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
        let mut n = self;
        t.nodes.push(n.node.clone());
        for &i in path {
            n = n.children.get(i).ok_or(EditError::NoNode)?;
            t.nodes.push(n.node.clone());
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
        // The rules decide: the line with the new move must replay without a new error.
        let mut line = self.line(path)?;
        let before = replay(&line, None)
            .map_err(|e| EditError::Illegal(e.to_string()))?
            .problems
            .iter()
            .filter(|p| p.severity() == Severity::Error)
            .count();
        line.nodes.push(node.clone());
        let after = replay(&line, None).map_err(|e| EditError::Illegal(e.to_string()))?;
        let errors: Vec<_> = after
            .problems
            .iter()
            .filter(|p| p.severity() == Severity::Error)
            .collect();
        if let (true, Some(p)) = (errors.len() > before, errors.last()) {
            // Told in the board's coordinates (B E5), not the record's (B[ee]).
            let told = match &p.kind {
                ProblemKind::Move { error, .. } => format!(
                    "{id} {}: {error}",
                    tengen_rules::coord::gtp::format_move(size, mv)
                ),
                _ => p.to_string(),
            };
            return Err(EditError::Illegal(told));
        }
        let parent = self.at_mut(path).ok_or(EditError::NoNode)?;
        let i = match parent
            .children
            .iter()
            .position(|c| c.node.get(id) == Some(&[value.clone()][..]))
        {
            Some(i) => i,
            None => {
                parent.children.push(ReviewNode {
                    node,
                    children: Vec::new(),
                });
                parent.children.len() - 1
            }
        };
        let mut out = path.to_vec();
        out.push(i);
        Ok(out)
    }

    /// Sets (or, empty, removes) the comment of the node at `path`.
    pub fn comment(&mut self, path: &[usize], text: &str) -> Result<(), EditError> {
        let n = self.at_mut(path).ok_or(EditError::NoNode)?;
        if text.is_empty() {
            n.node.remove("C");
        } else {
            n.node.set_text("C", text);
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
        let size = u8::try_from(self.node.number("SZ").unwrap_or(19)).unwrap_or(19);
        let p = tengen_rules::coord::gtp::parse_point(size, point)
            .map_err(|e| EditError::BadMark(e.to_string()))?;
        let at = coord::format_point(size, p);
        let node = &mut self.at_mut(path).ok_or(EditError::NoNode)?.node;
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
        let p = self.at_mut(parent).ok_or(EditError::NoNode)?;
        if last >= p.children.len() {
            return Err(EditError::NoNode);
        }
        p.children.remove(last);
        Ok(())
    }

    /// The paths of the main line's nodes, root first.
    pub fn main_line(&self) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new()];
        let mut n = self;
        while let Some(c) = n.children.first() {
            let mut p = out[out.len() - 1].clone();
            p.push(0);
            out.push(p);
            n = c;
        }
        out
    }

    /// The tree as JSON for clients: each node's properties (`{"B": ["dd"], "C": ["..."]}`,
    /// values as written) and its children.
    pub fn to_json(&self) -> Value {
        let mut props = Map::new();
        for p in &self.node.props {
            props.insert(p.id.clone(), json!(p.values));
        }
        json!({
            "props": props,
            "children": self.children.iter().map(ReviewNode::to_json).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::coord::gtp;

    fn tree(sgf: &str) -> ReviewNode {
        let c = tengen_sgf::parse_str(sgf).unwrap();
        ReviewNode::from_sgf(&c.games[0])
    }

    /// The SGF of a tree on one line.
    fn text(t: &ReviewNode) -> String {
        tengen_sgf::write_game(&t.to_sgf()).replace('\n', "")
    }

    fn pt(v: &str) -> Move {
        Move::Play(gtp::parse_point(9, v).unwrap())
    }

    #[test]
    fn variations_and_comments_round_trip_through_sgf() {
        let record = "(;GM[1]FF[4]SZ[9]KM[7];B[ee]C[center];W[cc](;B[gg];W[gc])(;B[cg]C[a try]))";
        let t = tree(record);
        assert_eq!(t.at(&[0, 0]).unwrap().children.len(), 2);
        assert_eq!(text(&t), record);
        assert_eq!(t.main_line().len(), 5);
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
        let sgf = text(&t);
        assert!(sgf.contains("(;W[cc])(;W[gc]C[better, the 3-3])"), "{sgf}");
        t.delete(&[0, 1]).unwrap();
        assert_eq!(text(&t), "(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])");
        assert_eq!(t.delete(&[]).unwrap_err(), EditError::Root);
        let g = t.position(&[0, 0]).unwrap();
        assert_eq!(g.moves().len(), 2);
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
}
