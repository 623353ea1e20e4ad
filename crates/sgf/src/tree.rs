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
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
