//! The SGF tree: collections, game trees, nodes and properties.
//!
//! Values are kept as written (escapes included, decoded to Unicode from the file's charset), so
//! writing a parsed tree reproduces its values exactly. Typed accessors decode them.

use std::fmt;

use crate::value;

/// A place in the text: 1-based line and column (columns counted in bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// One property: an identifier and one or more values, as written between brackets.
///
/// Equality compares identifiers and values only: where a property was read is not part of
/// what it says, so a tree read from text equals the same tree built in code.
#[derive(Clone, Debug, Eq)]
pub struct Property {
    /// Upper-case identifier such as `B`, `AB` or `KM`.
    pub id: String,
    /// Raw values (escapes intact).
    pub values: Vec<String>,
    /// Where the identifier was read; `None` for a property built in code.
    pub place: Option<Place>,
}

impl PartialEq for Property {
    fn eq(&self, other: &Property) -> bool {
        self.id == other.id && self.values == other.values
    }
}

/// A node: the properties between one `;` and the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Node {
    /// Properties in file order.
    pub props: Vec<Property>,
}

impl Node {
    /// The raw values of property `id`, if present.
    pub fn get(&self, id: &str) -> Option<&[String]> {
        self.props
            .iter()
            .find(|p| p.id == id)
            .map(|p| p.values.as_slice())
    }

    /// The first raw value of `id`.
    pub fn first(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|v| v.first()).map(String::as_str)
    }

    /// The first value of `id` decoded as SGF Text (escapes resolved, soft line breaks removed).
    pub fn text(&self, id: &str) -> Option<String> {
        self.first(id).map(value::decode_text)
    }

    /// The first value of `id` decoded as SGF SimpleText (line breaks become spaces).
    pub fn simple_text(&self, id: &str) -> Option<String> {
        self.first(id).map(value::decode_simple_text)
    }

    /// The first value of `id` as an SGF Number (`HA`, `OB`, `OW`, `MN`).
    pub fn number(&self, id: &str) -> Option<i64> {
        self.first(id).and_then(|v| v.trim().parse().ok())
    }

    /// The first value of `id` as an SGF Real (`KM`, `TM`, `BL`, `WL`).
    pub fn real(&self, id: &str) -> Option<f64> {
        self.first(id)
            .and_then(|v| v.trim().parse::<f64>().ok())
            .filter(|f| f.is_finite())
    }

    /// Where property `id` was read, if it was.
    pub fn place(&self, id: &str) -> Option<Place> {
        self.props.iter().find(|p| p.id == id).and_then(|p| p.place)
    }

    /// True when the node has property `id`.
    pub fn has(&self, id: &str) -> bool {
        self.props.iter().any(|p| p.id == id)
    }

    /// Sets `id` to raw `values`, replacing any earlier values.
    pub fn set_raw(&mut self, id: &str, values: Vec<String>) {
        match self.props.iter_mut().find(|p| p.id == id) {
            Some(p) => p.values = values,
            None => self.props.push(Property {
                id: id.to_string(),
                values,
                place: None,
            }),
        }
    }

    /// Sets `id` to one text value, escaping it.
    pub fn set_text(&mut self, id: &str, text: &str) {
        self.set_raw(id, vec![value::encode_text(text)]);
    }

    /// Removes property `id`.
    pub fn remove(&mut self, id: &str) {
        self.props.retain(|p| p.id != id);
    }
}

/// A game tree: a sequence of nodes and the variations that follow it.
///
/// Variations nest as deep as a record makes them (up to [`crate::MAX_DEPTH`]), so cloning,
/// comparing, printing (as SGF, `write.rs`) and dropping a tree are loops, never recursion: what a user sends
/// cannot exhaust the stack.
#[derive(Default)]
pub struct GameTree {
    /// The main sequence; never empty in a parsed tree.
    pub nodes: Vec<Node>,
    /// Variations after the last node; the first is the main line.
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The root node (game information lives here).
    pub fn root(&self) -> Option<&Node> {
        self.nodes.first()
    }

    /// The nodes of the main line: this sequence, then the first variation's, and so on.
    pub fn main_line(&self) -> Vec<&Node> {
        let mut out = Vec::new();
        let mut t = self;
        loop {
            out.extend(t.nodes.iter());
            match t.variations.first() {
                Some(v) => t = v,
                None => return out,
            }
        }
    }

    /// Number of nodes in the whole tree.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
            + self
                .variations
                .iter()
                .map(GameTree::node_count)
                .sum::<usize>()
    }
}

/// Everything in an SGF file: one or more game trees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Collection {
    /// The game trees in file order.
    pub games: Vec<GameTree>,
    /// What the reader forgave (a file cut off before its end); empty for a well-formed file.
    pub warnings: Vec<crate::ParseWarning>,
}

impl GameTree {
    /// Builds a tree from its game trees listed parents first (in breadth-first order, each
    /// with its parent's place in the list and no variations yet): from the last back, so that
    /// each variation is complete before its parent takes it.
    pub(crate) fn assemble(mut list: Vec<(GameTree, Option<usize>)>) -> GameTree {
        while list.len() > 1 {
            let Some((mut t, parent)) = list.pop() else {
                break;
            };
            // Siblings are taken last first: back in order once all of them are in.
            t.variations.reverse();
            if let Some((p, _)) = parent.and_then(|p| list.get_mut(p)) {
                p.variations.push(t);
            }
        }
        let mut root = list.pop().map(|(t, _)| t).unwrap_or_default();
        root.variations.reverse();
        root
    }
}

impl Clone for GameTree {
    fn clone(&self) -> GameTree {
        let mut order: Vec<(&GameTree, Option<usize>)> = vec![(self, None)];
        let mut i = 0;
        while let Some(&(t, _)) = order.get(i) {
            order.extend(t.variations.iter().map(|v| (v, Some(i))));
            i += 1;
        }
        let list = order
            .into_iter()
            .map(|(t, parent)| {
                let copy = GameTree {
                    nodes: t.nodes.clone(),
                    variations: Vec::with_capacity(t.variations.len()),
                };
                (copy, parent)
            })
            .collect();
        GameTree::assemble(list)
    }
}

impl PartialEq for GameTree {
    fn eq(&self, other: &GameTree) -> bool {
        let mut stack = vec![(self, other)];
        while let Some((a, b)) = stack.pop() {
            if a.nodes != b.nodes || a.variations.len() != b.variations.len() {
                return false;
            }
            stack.extend(a.variations.iter().zip(&b.variations));
        }
        true
    }
}

impl Eq for GameTree {}

impl Drop for GameTree {
    fn drop(&mut self) {
        // Each variation's own variations are moved to the list before it is dropped, so no
        // drop goes deeper than one level.
        let mut stack = std::mem::take(&mut self.variations);
        while let Some(mut t) = stack.pop() {
            stack.append(&mut t.variations);
        }
    }
}
