//! `tengen bot` over GTP: the built-in bots' levels answer every command `tengen gtp` answers
//! (set-up stones played out of turn, handicaps, undo), resign a dead-lost game as the
//! server's bots do, and play the same game from the same seed.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Stdio};

/// The whole of `tengen bot ARGS`'s answers to `input` (then `quit`).
fn bot(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("bot")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn answers(out: &str) -> Vec<&str> {
    out.lines().filter(|l| !l.is_empty()).collect()
}

/// White's wall across the fourth and fifth lines owns six of a 9x9 board's nine rows,
/// Black's stones on the second line hold two: set up with `play` a colour at a time (GTP
/// allows a colour to play twice; controllers set positions up so).
fn lost_for_black() -> String {
    let mut s = String::from("boardsize 9\nclear_board\nkomi 7.5\n");
    for col in "ABCDEFGHJ".chars() {
        s += &format!("play W {col}4\n");
    }
    for (col, row) in "ABCDEFGHJ".chars().zip([3, 5].iter().cycle()) {
        s += &format!("play W {col}{row}\n");
    }
    for col in "ABCDEFGHJ".chars() {
        s += &format!("play B {col}2\n");
    }
    s
}

#[test]
fn every_level_takes_set_up_stones_and_resigns_a_dead_lost_game() {
    let input = lost_for_black() + "genmove b\n";
    for level in ["1", "5", "9", "13", "16"] {
        let out = bot(&["--level", level], &input);
        let a = answers(&out);
        assert!(
            a[..a.len() - 2].iter().all(|l| *l == "="),
            "level {level}: {out}"
        );
        assert_eq!(a[a.len() - 2], "= resign", "level {level}: {out}");
    }
}

#[test]
fn a_bot_answers_handicaps_undo_and_its_name() {
    let out = bot(
        &["--level", "3"],
        "name\nboardsize 9\nfixed_handicap 2\ngenmove w\nundo\ngenmove w\nshowboard\n",
    );
    let a = answers(&out);
    assert_eq!(a[0], "= Tengen bot level 3", "{out}");
    assert_eq!(a[1], "=", "{out}");
    assert!(a[2].starts_with("= ") && a[2].len() > 2, "{out}");
    assert!(!out.contains('?'), "{out}");
}

#[test]
fn the_same_seed_plays_the_same_game() {
    let input = "boardsize 9\ngenmove b\ngenmove w\ngenmove b\ngenmove w\n";
    let one = bot(&["--level", "2", "--seed", "7"], input);
    let two = bot(&["--level", "2", "--seed", "7"], input);
    assert_eq!(one, two);
    assert_eq!(answers(&one).len(), 6, "{one}");
}
