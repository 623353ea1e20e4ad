//! `tengen sgf check` and `tengen sgf score` from the outside: exit codes and messages.

#![allow(clippy::unwrap_used)]

mod common;
use common::tengen;

fn temp_file(name: &str, body: &[u8]) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-sgf-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

#[test]
fn check_reports_illegal_moves_and_parse_errors() {
    let good = temp_file(
        "good.sgf",
        b"(;SZ[9]RU[Japanese];B[ee];W[cc](;B[dd])(;B[ff]))",
    );
    let (ok, out) = tengen(&["sgf", "check", good.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(out.contains("1 files, 1 games, 0 problems"));

    let bad = temp_file("bad.sgf", b"(;SZ[9];B[ee];W[cc](;B[cc])(;B[ff];W[ff]))");
    let broken = temp_file("broken.sgf", b"(;SZ[9]\n;B[ee\n");
    let (ok, out) = tengen(&[
        "sgf",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        broken.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        out.contains(
            "bad.sgf: variation 0, move 3: B[cc] the point is occupied (occupied), skipped"
        ),
        "{out}"
    );
    assert!(
        out.contains("bad.sgf: variation 1, move 4: W[ff] the point is occupied"),
        "{out}"
    );
    assert!(
        out.contains("broken.sgf: line 2, column 3: property value without closing ']'"),
        "{out}"
    );
    assert!(out.contains("3 files, 2 games, 3 problems"), "{out}");
}

#[test]
fn check_under_other_rules() {
    // Multi-stone suicide: legal under Tromp-Taylor, not under Japanese.
    let f = temp_file(
        "suicide.sgf",
        b"(;SZ[4]RU[Tromp-Taylor]AB[aa]AW[ca][ab][bb];B[ba])",
    );
    assert!(tengen(&["sgf", "check", f.to_str().unwrap()]).0);
    let (ok, out) = tengen(&["sgf", "check", "--rules", "japanese", f.to_str().unwrap()]);
    assert!(!ok);
    assert!(
        out.contains("move 1: B[ba] the move is suicide (suicide)"),
        "{out}"
    );
}

#[test]
fn score_uses_territory_markup_and_compares_with_the_result() {
    // Black owns the left, White the right; the white stone at bb is dead (inside TB).
    let rows = "(;SZ[5]KM[0.5]RU[Japanese]RE[B+5.5]AB[ca][cb][cc][cd][ce]AW[da][db][dc][dd][de][bb]
        ;B[];W[]TB[aa][ba][ab][bb][ac][bc][ad][bd][ae][be]TW[ea][eb][ec][ed][ee])";
    let f = temp_file("score.sgf", rows.as_bytes());
    let (ok, out) = tengen(&["sgf", "score", f.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(
        out.contains("dead stones from the record's territory markup: black [] white [B4]"),
        "{out}"
    );
    assert!(
        out.contains("count: B+5.5") && out.contains("agrees with RE[B+5.5]"),
        "{out}"
    );
    let wrong = temp_file(
        "wrong.sgf",
        rows.replace("RE[B+5.5]", "RE[W+2.5]").as_bytes(),
    );
    let (ok, out) = tengen(&["sgf", "score", wrong.to_str().unwrap()]);
    assert!(!ok);
    assert!(out.contains("differs from RE[W+2.5]"), "{out}");
}

#[test]
fn score_without_markup_uses_the_estimate() {
    let f = temp_file(
        "estimate.sgf",
        b"(;SZ[5]KM[0.5]RU[Chinese]RE[B+4.5]AB[ca][cb][cc][cd][ce]AW[da][db][dc][dd][de][bb];B[];W[])",
    );
    let (ok, out) = tengen(&["sgf", "score", f.to_str().unwrap()]);
    assert!(
        out.contains("dead stones from Tengen's estimate: black [] white [B4]"),
        "{out}"
    );
    assert!(out.contains("count: B+4.5"), "{out}");
    assert!(ok, "{out}");
}
