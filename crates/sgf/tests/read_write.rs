//! Reading and writing: round trips on generated trees, arbitrary bytes, error positions,
//! charsets.

#![allow(clippy::unwrap_used)]

use tengen_rules::playout::Rng;
use tengen_sgf::{parse, parse_str, value, write, Collection, ErrorKind, GameTree, Node, Property};

fn random_text(rng: &mut Rng) -> String {
    const PIECES: [&str; 12] = [
        "a", "Go", "]", "\\", ":", "\n", " ", "é", "囲碁", "\r\n", "x y", "[(",
    ];
    (0..rng.below(6))
        .map(|_| PIECES[rng.below(12) as usize])
        .collect()
}

fn random_node(rng: &mut Rng) -> Node {
    const IDS: [&str; 8] = ["B", "W", "C", "AB", "LB", "GN", "KM", "TR"];
    let mut node = Node::default();
    for id in IDS {
        if rng.below(3) != 0 {
            continue;
        }
        let n = 1 + rng.below(3) as usize;
        let values = (0..n)
            .map(|_| match id {
                "B" | "W" | "AB" | "TR" => {
                    let c = (b'a' + rng.below(19) as u8) as char;
                    let r = (b'a' + rng.below(19) as u8) as char;
                    format!("{c}{r}")
                }
                "LB" => format!("cc:{}", value::encode_text(&random_text(rng))),
                _ => value::encode_text(&random_text(rng)),
            })
            .collect();
        node.props.push(Property {
            id: id.into(),
            values,
            place: None,
        });
    }
    node
}

fn random_tree(rng: &mut Rng, depth: u32) -> GameTree {
    let nodes = (0..1 + rng.below(4)).map(|_| random_node(rng)).collect();
    let variations = if depth < 4 && rng.below(2) == 0 {
        (0..1 + rng.below(3))
            .map(|_| random_tree(rng, depth + 1))
            .collect()
    } else {
        Vec::new()
    };
    GameTree { nodes, variations }
}

#[test]
fn parse_of_write_is_the_identity_on_generated_trees() {
    let mut rng = Rng::new(0x5EF);
    for _ in 0..500 {
        let c = Collection {
            games: (0..1 + rng.below(3))
                .map(|_| random_tree(&mut rng, 0))
                .collect(),
            warnings: Vec::new(),
        };
        let text = write(&c);
        let back = parse_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, c, "{text}");
    }
}

#[test]
fn arbitrary_bytes_give_a_value_or_a_typed_error() {
    let mut rng = Rng::new(0xB17E5);
    let seeds: Vec<Vec<u8>> = vec![
        b"(;FF[4]GM[1]SZ[9];B[ee];W[cc](;B[dd])(;B[ff]C[x\\]y]))".to_vec(),
        b"(;CA[ISO-8859-1]C[\xe9];B[aa])".to_vec(),
        Vec::new(),
    ];
    for i in 0..20_000 {
        let mut input = if i % 3 == 2 {
            (0..rng.below(64))
                .map(|_| b"();[]\\ABW:ab \n\xff"[rng.below(15) as usize])
                .collect()
        } else {
            seeds[i % 2].clone()
        };
        for _ in 0..rng.below(4) {
            if input.is_empty() {
                break;
            }
            let at = rng.below(input.len() as u32) as usize;
            match rng.below(3) {
                0 => input[at] = rng.next_u64() as u8,
                1 => {
                    input.remove(at);
                }
                _ => input.insert(at, b"([;])\\"[rng.below(6) as usize]),
            }
        }
        // Must not panic; either outcome is fine.
        if let Ok(c) = parse(&input) {
            let again = parse_str(&write(&c)).unwrap();
            assert_eq!(again.games.len(), c.games.len());
        }
    }
}

#[test]
fn hostile_nesting_is_an_error_not_a_stack_overflow() {
    let deep = "(;B[aa]".repeat(100_000);
    let e = parse_str(&deep).unwrap_err();
    assert_eq!(e.kind, ErrorKind::TooDeep);
    let ok = format!("{}{}", "(;B[aa]".repeat(500), ")".repeat(500));
    assert!(parse_str(&ok).is_ok());
}

/// Variations nested as deep as the reader accepts are read, written, cloned, compared and
/// dropped on a thread with a small stack: none of it is recursion (a server reads such
/// records from users, issue 38).
#[test]
fn the_deepest_nesting_read_is_handled_in_loops() {
    let levels = tengen_sgf::MAX_DEPTH - 1;
    let deep = format!(
        "(;SZ[19]{}{})",
        "(;C[leaf])(;C[branch]".repeat(levels),
        ")".repeat(levels)
    );
    std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(move || {
            let c = parse_str(&deep).unwrap();
            let written = tengen_sgf::write(&c);
            let again = parse_str(&written).unwrap();
            assert_eq!(again, c);
            let copy = c.games[0].clone();
            assert_eq!(copy, c.games[0]);
            assert!(format!("{copy:?}").contains("C[branch]"));
            drop((c, again, copy));
        })
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn errors_carry_line_and_column() {
    let e = parse_str("(;FF[4]\n  ;B[aa]%").unwrap_err();
    assert_eq!((e.line, e.column), (2, 9));
    assert_eq!(e.to_string(), "line 2, column 9: unexpected '%'");
    assert_eq!(
        parse_str("no tree here").unwrap_err().kind,
        ErrorKind::NoGameTree
    );
    assert_eq!(parse_str("(").unwrap_err().kind, ErrorKind::UnexpectedEnd);
    assert_eq!(
        parse_str("( (;B[aa]").unwrap_err().kind,
        ErrorKind::EmptySequence
    );
    assert_eq!(parse_str("()").unwrap_err().kind, ErrorKind::EmptySequence);
    assert_eq!(parse_str("(;B)").unwrap_err().kind, ErrorKind::MissingValue);
    assert_eq!(
        parse_str("(;b[aa])").unwrap_err().kind,
        ErrorKind::BadPropertyIdent
    );
}

#[test]
fn a_record_cut_off_at_the_end_is_read_with_a_warning() {
    // Missing closing parentheses only: everything is read.
    let c = parse_str("(;FF[4]SZ[9];B[ee];W[cc](;B[dd])(;B[ff];W[gg]").unwrap();
    assert_eq!(c.games.len(), 1);
    assert_eq!(c.games[0].node_count(), 6);
    assert_eq!(c.warnings.len(), 1);
    let w = &c.warnings[0];
    assert_eq!(w.kind.code(), "truncated");
    assert_eq!(
        w.to_string(),
        "line 1, column 46: the record is cut off: 2 closing parentheses ')' missing"
    );
    // A download cut inside a value: the half-read property is dropped, and so is the node
    // it leaves empty.
    let c = parse_str("(;FF[4]SZ[9]\n;B[ee]\n;W[cc]C[good move]\n;B[d").unwrap();
    let line = c.games[0].main_line();
    assert_eq!(line.len(), 3);
    assert_eq!(line[2].first("W"), Some("cc"));
    assert_eq!(line[2].text("C").as_deref(), Some("good move"));
    assert_eq!(
        c.warnings[0].to_string(),
        "line 4, column 5: the record is cut off: the value of B has no closing ']' and is \
         dropped; 1 closing parenthesis ')' missing"
    );
    // Cut after an identifier: the identifier is dropped.
    let c = parse_str("(;SZ[9];B[ee]W").unwrap();
    assert_eq!(c.games[0].main_line()[1].first("W"), None);
    assert!(c.warnings[0].to_string().contains("W has no value"));
    // A comment cut off takes the rest of the file with it.
    let c = parse_str("(;SZ[9];B[ee]C[fine;W[dd").unwrap();
    assert_eq!(c.games[0].node_count(), 2);
    assert!(!c.games[0].main_line()[1].has("C"));
    // A well-formed file has no warning; an empty variation at the cut is dropped.
    assert!(parse_str("(;SZ[9];B[ee])").unwrap().warnings.is_empty());
    let c = parse_str("(;SZ[9];B[ee](").unwrap();
    assert_eq!(c.games[0].node_count(), 2);
    assert!(c.games[0].variations.is_empty());
    // The second of two games cut off: both are read.
    let c = parse_str("(;SZ[9];B[ee])\n(;SZ[9];W[cc]").unwrap();
    assert_eq!(c.games.len(), 2);
    assert_eq!(c.warnings.len(), 1);
}

#[test]
fn properties_remember_where_they_were_read() {
    let c = parse_str("(;FF[4]\n  SZ[9]KM[abc]\n;B[ee])").unwrap();
    let root = c.games[0].root().unwrap();
    let at = |id| root.place(id).map(|p| (p.line, p.column));
    assert_eq!(at("FF"), Some((1, 3)));
    assert_eq!(at("SZ"), Some((2, 3)));
    assert_eq!(at("KM"), Some((2, 8)));
    assert_eq!(
        c.games[0].main_line()[1].place("B").unwrap().to_string(),
        "line 3, column 2"
    );
}

#[test]
fn ff3_identifiers_and_lenient_edges() {
    let c = parse_str("header text (;AddBlack[aa][bb]Comment[hi]) trailing").unwrap();
    let root = c.games[0].root().unwrap();
    assert_eq!(root.get("AB").unwrap().len(), 2);
    assert_eq!(root.text("C").as_deref(), Some("hi"));
}

#[test]
fn charsets() {
    let c = parse(b"(;CA[ISO-8859-1]PB[Jos\xe9])").unwrap();
    assert_eq!(
        c.games[0].root().unwrap().simple_text("PB").as_deref(),
        Some("José")
    );
    let c = parse("(;CA[UTF-8]PB[José])".as_bytes()).unwrap();
    assert_eq!(
        c.games[0].root().unwrap().simple_text("PB").as_deref(),
        Some("José")
    );
    // No CA and not UTF-8: read as Latin-1 rather than refused.
    let c = parse(b"(;PB[Jos\xe9])").unwrap();
    assert_eq!(
        c.games[0].root().unwrap().simple_text("PB").as_deref(),
        Some("José")
    );
    let e = parse(b"(;CA[GB2312]PB[x])").unwrap_err();
    assert_eq!(e.kind, ErrorKind::UnsupportedCharset("GB2312".into()));
    assert_eq!(e.column, 5, "the value of CA");
    let e = parse(b"(;CA[UTF-8]PB[\xff])").unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadEncoding);
    // Written back, the text is UTF-8 and says so.
    let c = parse(b"(;CA[latin1]PB[Jos\xe9])").unwrap();
    let text = write(&c);
    assert!(text.contains("CA[UTF-8]") && text.contains("José"));
    assert_eq!(
        parse_str(&text).unwrap().games[0]
            .root()
            .unwrap()
            .simple_text("PB")
            .as_deref(),
        Some("José")
    );
}
