//! Reading SGF text.
//!
//! The grammar's structure (`( ; ) [ ] \` and identifiers) is ASCII, which every supported
//! charset encodes the same way, so the input is parsed as bytes and each game tree's values are
//! then decoded by the charset its root declares (`CA`, default: UTF-8 if valid, else Latin-1).
//! The parser is iterative with a depth limit, so hostile input cannot exhaust the stack.
//!
//! A file cut off before its end (a download stopped early, a program that never wrote the
//! closing parentheses) is read as far as it goes, as other readers do: the open variations
//! are closed, a property whose value was cut is dropped, and a [`ParseWarning`] says what
//! was missing. Every other fault is an error.

use crate::error::{ErrorKind, ParseError, ParseWarning, WarningKind};
use crate::tree::{Collection, GameTree, Node, Place, Property};
use crate::MAX_DEPTH;

/// A property value as read: its offset (for errors) and its bytes.
type RawValue = (usize, Vec<u8>);
/// A node as read: identifiers with their offsets, and their values.
type RawNode = Vec<(String, usize, Vec<RawValue>)>;

/// A property cut off by the end of the input.
struct Cut {
    id: String,
    /// True when the value had begun (its `]` is missing), false when no value followed.
    in_value: bool,
}

/// A tree as read, before charset decoding.
struct RawTree {
    nodes: Vec<RawNode>,
    variations: Vec<RawTree>,
    start: usize,
}

impl Drop for RawTree {
    fn drop(&mut self) {
        // No recursion over what the input nests (see `GameTree`'s drop).
        let mut stack = std::mem::take(&mut self.variations);
        while let Some(mut t) = stack.pop() {
            stack.append(&mut t.variations);
        }
    }
}

/// Parses an SGF collection from bytes.
pub fn parse(input: &[u8]) -> Result<Collection, ParseError> {
    let err = |at: usize, kind| ParseError::at(input, at, kind);
    let mut pos = match input.iter().position(|&b| b == b'(') {
        Some(p) => p,
        None => return Err(err(input.len(), ErrorKind::NoGameTree)),
    };
    let mut games = Vec::new();
    let mut warnings = Vec::new();
    let lines = LineStarts::new(input);
    loop {
        let (tree, next, warning) = parse_tree(input, pos)?;
        games.push(decode_tree(input, &lines, tree)?);
        if let Some(w) = warning {
            warnings.push(w);
            break;
        }
        pos = skip_ws(input, next);
        match input.get(pos) {
            Some(b'(') => continue,
            // Trailing text after the last tree (signatures, Ctrl-Z) is ignored, as readers do.
            _ => break,
        }
    }
    Ok(Collection { games, warnings })
}

/// Offsets where lines start, to turn offsets into places without rescanning the input.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn new(input: &[u8]) -> LineStarts {
        let mut starts = vec![0];
        starts.extend(
            input
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineStarts(starts)
    }

    fn place(&self, offset: usize) -> Place {
        let line = self.0.partition_point(|&s| s <= offset);
        Place {
            line,
            column: offset - self.0[line - 1] + 1,
        }
    }
}

/// Parses one string: convenience for [`parse`] on UTF-8 text.
pub fn parse_str(input: &str) -> Result<Collection, ParseError> {
    parse(input.as_bytes())
}

fn skip_ws(input: &[u8], mut pos: usize) -> usize {
    while pos < input.len() && input[pos].is_ascii_whitespace() {
        pos += 1;
    }
    pos
}

/// Parses the game tree whose `(` is at `start`. Returns it and the offset after its `)`, or,
/// for a tree the input cuts off, what it could read and a warning.
fn parse_tree(
    input: &[u8],
    start: usize,
) -> Result<(RawTree, usize, Option<ParseWarning>), ParseError> {
    let err = |at: usize, kind| ParseError::at(input, at, kind);
    // Stack of open trees; the bottom one is the result.
    let mut stack: Vec<RawTree> = vec![RawTree {
        nodes: Vec::new(),
        variations: Vec::new(),
        start,
    }];
    let mut pos = start + 1;
    loop {
        pos = skip_ws(input, pos);
        let Some(&b) = input.get(pos) else {
            return close_cut_tree(input, stack, None);
        };
        let top = stack.len() - 1;
        match b {
            b';' => {
                if !stack[top].variations.is_empty() {
                    // Nodes after variations: not allowed by the grammar.
                    return Err(err(pos, ErrorKind::Unexpected(';')));
                }
                let (node, next, cut) = parse_node(input, pos + 1)?;
                if cut.is_none() || !node.is_empty() {
                    stack[top].nodes.push(node);
                }
                if cut.is_some() {
                    return close_cut_tree(input, stack, cut);
                }
                pos = next;
            }
            b'(' => {
                if stack[top].nodes.is_empty() {
                    return Err(err(stack[top].start, ErrorKind::EmptySequence));
                }
                if stack.len() >= MAX_DEPTH {
                    return Err(err(pos, ErrorKind::TooDeep));
                }
                stack.push(RawTree {
                    nodes: Vec::new(),
                    variations: Vec::new(),
                    start: pos,
                });
                pos += 1;
            }
            b')' => {
                let done = stack
                    .pop()
                    .ok_or_else(|| err(pos, ErrorKind::Unexpected(')')))?;
                if done.nodes.is_empty() {
                    return Err(err(done.start, ErrorKind::EmptySequence));
                }
                pos += 1;
                match stack.last_mut() {
                    Some(parent) => parent.variations.push(done),
                    None => return Ok((done, pos, None)),
                }
            }
            _ => return Err(err(pos, ErrorKind::Unexpected(char_at(input, pos)))),
        }
    }
}

/// Closes the trees still open when the input ends: variations without a node are dropped,
/// the rest kept, and the warning says what was missing. A game tree with no node at all is
/// still an error: there is nothing to read.
fn close_cut_tree(
    input: &[u8],
    mut stack: Vec<RawTree>,
    cut: Option<Cut>,
) -> Result<(RawTree, usize, Option<ParseWarning>), ParseError> {
    let missing_parens = stack.len();
    while let Some(done) = stack.pop() {
        let Some(parent) = stack.last_mut() else {
            if done.nodes.is_empty() {
                return Err(ParseError::at(input, input.len(), ErrorKind::UnexpectedEnd));
            }
            let warning = ParseWarning::at(
                input,
                input.len(),
                WarningKind::Truncated {
                    dropped: cut.map(|c| (c.id, c.in_value)),
                    missing_parens,
                },
            );
            return Ok((done, input.len(), Some(warning)));
        };
        if !done.nodes.is_empty() {
            parent.variations.push(done);
        }
    }
    Err(ParseError::at(input, input.len(), ErrorKind::UnexpectedEnd))
}

/// The character at `pos` for an error message (a byte of a multi-byte sequence shows as is).
fn char_at(input: &[u8], pos: usize) -> char {
    std::str::from_utf8(&input[pos..input.len().min(pos + 4)])
        .ok()
        .and_then(|s| s.chars().next())
        .unwrap_or(input[pos] as char)
}

/// Parses the properties of a node that starts after its `;`. When the input ends inside a
/// property, that property is left out and returned as the cut.
fn parse_node(input: &[u8], mut pos: usize) -> Result<(RawNode, usize, Option<Cut>), ParseError> {
    let err = |at: usize, kind| ParseError::at(input, at, kind);
    let mut props: RawNode = Vec::new();
    loop {
        pos = skip_ws(input, pos);
        match input.get(pos) {
            Some(b) if b.is_ascii_alphabetic() => {
                let id_start = pos;
                let mut id = String::new();
                while let Some(&c) = input.get(pos) {
                    if !c.is_ascii_alphabetic() {
                        break;
                    }
                    // FF[1-3] wrote identifiers like "AddBlack"; FF[4] readers keep the capitals.
                    if c.is_ascii_uppercase() {
                        id.push(c as char);
                    }
                    pos += 1;
                }
                if id.is_empty() {
                    return Err(err(id_start, ErrorKind::BadPropertyIdent));
                }
                let mut values = Vec::new();
                loop {
                    pos = skip_ws(input, pos);
                    if input.get(pos) != Some(&b'[') {
                        break;
                    }
                    let value_start = pos;
                    let mut raw = Vec::new();
                    pos += 1;
                    let cut = |id: String| {
                        Ok((props.clone(), input.len(), Some(Cut { id, in_value: true })))
                    };
                    loop {
                        match input.get(pos) {
                            None => return cut(id),
                            Some(b']') => break,
                            Some(b'\\') => {
                                raw.push(b'\\');
                                pos += 1;
                                match input.get(pos) {
                                    Some(&c) => raw.push(c),
                                    None => return cut(id),
                                }
                            }
                            Some(&c) => raw.push(c),
                        }
                        pos += 1;
                    }
                    pos += 1;
                    values.push((value_start, raw));
                }
                if values.is_empty() {
                    if pos >= input.len() {
                        let cut = Cut {
                            id,
                            in_value: false,
                        };
                        return Ok((props, pos, Some(cut)));
                    }
                    return Err(err(pos, ErrorKind::MissingValue));
                }
                match props.iter_mut().find(|(p, _, _)| *p == id) {
                    // A repeated identifier in one node: keep all values (lenient, as readers do).
                    Some((_, _, v)) => v.extend(values),
                    None => props.push((id, id_start, values)),
                }
            }
            _ => return Ok((props, pos, None)),
        }
    }
}

#[derive(Clone, Copy)]
enum Charset {
    Utf8,
    Latin1,
    /// No `CA`: UTF-8 when valid, Latin-1 otherwise.
    Guess,
}

fn charset_of(input: &[u8], tree: &RawTree) -> Result<Charset, ParseError> {
    let Some(root) = tree.nodes.first() else {
        return Ok(Charset::Guess);
    };
    let Some((_, _, values)) = root.iter().find(|(id, _, _)| id == "CA") else {
        return Ok(Charset::Guess);
    };
    let Some((at, raw)) = values.first() else {
        return Ok(Charset::Guess);
    };
    let name: String = String::from_utf8_lossy(raw)
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    match name.as_str() {
        "utf8" => Ok(Charset::Utf8),
        "iso88591" | "latin1" | "l1" | "ascii" | "usascii" | "iso8859" | "cp1252"
        | "windows1252" => Ok(Charset::Latin1),
        _ => Err(ParseError::at(
            input,
            *at,
            ErrorKind::UnsupportedCharset(String::from_utf8_lossy(raw).into_owned()),
        )),
    }
}

fn decode_tree(input: &[u8], lines: &LineStarts, tree: RawTree) -> Result<GameTree, ParseError> {
    let charset = charset_of(input, &tree)?;
    let charset = match charset {
        Charset::Guess => {
            if all_values_utf8(&tree) {
                Charset::Utf8
            } else {
                Charset::Latin1
            }
        }
        c => c,
    };
    // Iterative conversion keeps deep trees off the call stack.
    convert(input, lines, tree, charset)
}

fn all_values_utf8(tree: &RawTree) -> bool {
    let mut stack = vec![tree];
    while let Some(t) = stack.pop() {
        for node in &t.nodes {
            for (_, _, values) in node {
                if values.iter().any(|(_, v)| std::str::from_utf8(v).is_err()) {
                    return false;
                }
            }
        }
        stack.extend(t.variations.iter());
    }
    true
}

fn convert(
    input: &[u8],
    lines: &LineStarts,
    tree: RawTree,
    charset: Charset,
) -> Result<GameTree, ParseError> {
    let decode = |at: usize, raw: Vec<u8>| -> Result<String, ParseError> {
        match charset {
            Charset::Utf8 | Charset::Guess => String::from_utf8(raw)
                .map_err(|_| ParseError::at(input, at, ErrorKind::BadEncoding)),
            Charset::Latin1 => Ok(raw.into_iter().map(|b| b as char).collect()),
        }
    };
    // Breadth first, each tree with its parent's place; assembled from the leaves up.
    let mut list: Vec<(GameTree, Option<usize>)> = Vec::new();
    let mut queue = std::collections::VecDeque::from([(tree, None)]);
    while let Some((mut raw, parent)) = queue.pop_front() {
        let here = list.len();
        queue.extend(
            std::mem::take(&mut raw.variations)
                .into_iter()
                .map(|v| (v, Some(here))),
        );
        let mut nodes = Vec::with_capacity(raw.nodes.len());
        for raw_node in std::mem::take(&mut raw.nodes) {
            let mut props = Vec::with_capacity(raw_node.len());
            for (id, at, values) in raw_node {
                let values = values
                    .into_iter()
                    .map(|(at, v)| decode(at, v))
                    .collect::<Result<Vec<_>, _>>()?;
                props.push(Property {
                    id,
                    values,
                    place: Some(lines.place(at)),
                });
            }
            nodes.push(Node { props });
        }
        let t = GameTree {
            nodes,
            variations: Vec::new(),
        };
        list.push((t, parent));
    }
    Ok(GameTree::assemble(list))
}
