//! Writing SGF text.

use std::fmt::Write;

use crate::tree::{Collection, GameTree, Node};

/// Writes a collection as SGF. Values are written as stored (raw, escapes included), and the
/// text is UTF-8 whatever charset it was read from, so a root's `CA` is written as `UTF-8`.
/// For collections whose roots declare no other charset, `parse(write(c)) == c`.
pub fn write(c: &Collection) -> String {
    let mut out = String::new();
    for g in &c.games {
        write_tree(&mut out, g);
        out.push('\n');
    }
    out
}

/// Writes one game tree (its first node is a root).
pub fn write_tree(out: &mut String, tree: &GameTree) {
    write_subtree(out, tree, true);
}

fn write_subtree(out: &mut String, tree: &GameTree, is_root: bool) {
    // An explicit stack: variations may nest as deep as the reader allows.
    enum Step<'a> {
        Open(&'a GameTree, bool),
        Close,
    }
    let mut stack = vec![Step::Open(tree, is_root)];
    while let Some(step) = stack.pop() {
        let Step::Open(tree, is_root) = step else {
            out.push(')');
            continue;
        };
        if !is_root {
            out.push('\n');
        }
        out.push('(');
        for (i, node) in tree.nodes.iter().enumerate() {
            if i > 0 && (node.has("B") || node.has("W")) && i % 8 == 0 {
                out.push('\n');
            }
            write_node(out, node, is_root && i == 0, i == 0 && tree.nodes.len() > 1);
        }
        stack.push(Step::Close);
        stack.extend(tree.variations.iter().rev().map(|v| Step::Open(v, false)));
    }
}

fn write_node(out: &mut String, node: &Node, root: bool, break_after: bool) {
    out.push(';');
    for p in &node.props {
        out.push_str(&p.id);
        if root && p.id == "CA" {
            out.push_str("[UTF-8]");
            continue;
        }
        for v in &p.values {
            let _ = write!(out, "[{v}]");
        }
    }
    if break_after {
        out.push('\n');
    }
}

impl std::fmt::Debug for GameTree {
    /// As SGF text (the writer is a loop too).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = String::new();
        write_tree(&mut s, self);
        write!(f, "GameTree({s})")
    }
}
