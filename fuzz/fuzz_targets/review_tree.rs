//! A review board's life on any input: an SGF record (the bytes before the first NUL) opened as
//! a review, then edits (the bytes after it, four a step: walk down or up, play, comment, mark,
//! delete) as an owner sends them. Nothing panics or overflows the stack (long lines and deep
//! variations walk in loops, issue 38); refusals are typed errors; the review written as SGF
//! reads back as the same tree, and its JSON is flat.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_core::review_tree::{ReviewTree, MARKS};
use tengen_rules::{Color, Move, Point};

fuzz_target!(|data: &[u8]| {
    let (record, edits) = match data.iter().position(|&b| b == 0) {
        Some(i) => (&data[..i], &data[i + 1..]),
        None => (data, &[][..]),
    };
    let Ok(c) = tengen_sgf::parse(record) else { return };
    let Some(first) = c.games.first() else { return };
    let Ok(mut tree) = ReviewTree::from_sgf(first) else { return };
    let size = u8::try_from(tree.root().number("SZ").unwrap_or(19)).unwrap_or(19);
    let mut path: Vec<usize> = Vec::new();
    for step in edits.chunks_exact(4).take(64) {
        let [op, a, b, c] = [step[0], step[1], step[2], step[3]];
        match op % 8 {
            0 => {
                let n = tree.children(&path).unwrap_or(0);
                if n > 0 {
                    path.push(usize::from(a) % n);
                }
            }
            1 => {
                path.pop();
            }
            2 => {
                let point = Point::new(size, a % size.max(1), b % size.max(1));
                let mv = match point {
                    Some(p) if c % 16 != 0 => Move::Play(p),
                    _ => Move::Pass,
                };
                let color = if c % 2 == 0 { Color::Black } else { Color::White };
                if let Ok(p) = tree.play(&path, color, mv) {
                    path = p;
                }
            }
            3 => {
                let text = String::from_utf8_lossy(&step[1..]).into_owned();
                tree.comment(&path, &text).expect("the cursor is on a node");
            }
            4 => {
                let vertex = format!("{}{}", char::from(b'A' + a % 20), b % 26);
                let label = (a % 3 == 0).then(|| "A".to_string());
                let _ = tree.mark(&path, MARKS[usize::from(c) % 5], &vertex, label.as_deref());
            }
            5 => {
                if tree.delete(&path).is_ok() {
                    path.pop();
                }
            }
            6 => {
                // Far down the main line at once: long lines are what overflowed.
                for _ in 0..usize::from(a) * 64 {
                    if tree.children(&path).unwrap_or(0) == 0 {
                        break;
                    }
                    path.push(0);
                }
            }
            _ => {
                let _ = tree.position(&path);
            }
        }
        assert!(tree.node(&path).is_some(), "the cursor stays on a node");
    }
    let json = tree.to_json();
    assert_eq!(json.as_array().map(Vec::len), Some(tree.len()));
    let text = tengen_sgf::write_game(&tree.to_sgf());
    let again = tengen_sgf::parse_str(&text).expect("a review's SGF reads back");
    let back = ReviewTree::from_sgf(&again.games[0]).expect("within the limits");
    assert_eq!(back, tree);
});
