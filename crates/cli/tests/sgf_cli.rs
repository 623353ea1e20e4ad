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
    let values = temp_file("values.sgf", b"(;FF[4]SZ[9]\nKM[abc]HA[-3]\n;B[ee];W[zz])");
    let (ok, out) = tengen(&[
        "sgf",
        "check",
        good.to_str().unwrap(),
        bad.to_str().unwrap(),
        broken.to_str().unwrap(),
        values.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        out.contains(
            "bad.sgf: error: line 1, column 22: variation 0, move 3: B[cc] the point is \
             occupied (occupied), skipped"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "bad.sgf: error: line 1, column 36: variation 1, move 4: W[ff] the point is occupied"
        ),
        "{out}"
    );
    // A download cut off: read as far as it goes, with a warning naming what is missing.
    assert!(
        out.contains(
            "broken.sgf: warning: line 3, column 1: the record is cut off: the value of B has \
             no closing ']' and is dropped; 1 closing parenthesis ')' missing"
        ),
        "{out}"
    );
    // Each bad value with its property, value, line and column.
    for line in [
        "values.sgf: error: line 2, column 1: KM[abc]: komi must be a whole or half number",
        "values.sgf: error: line 2, column 8: HA[-3]: a handicap cannot be negative",
        "values.sgf: error: line 3, column 8: move 2: W[zz]: not a point of this 9x9 board",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(
        out.contains("4 files, 4 games, 6 problems (5 errors, 1 warnings)"),
        "{out}"
    );
    // Warnings alone do not fail the check.
    let (ok, out) = tengen(&["sgf", "check", broken.to_str().unwrap()]);
    assert!(ok, "{out}");
}

#[test]
fn check_warns_of_what_other_programs_write() {
    let f = temp_file(
        "lenient.sgf",
        b"(;SZ[9]HA[1];B[ee];W[cc];B[gc];B[gg];W[cg])",
    );
    let (ok, out) = tengen(&["sgf", "check", f.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(
        out.contains(
            "lenient.sgf: warning: line 1, column 8: HA[1]: one handicap stone is an even game"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "lenient.sgf: warning: line 1, column 32: move 4: B[gg] is a second black move in \
             a row; replayed as recorded"
        ),
        "{out}"
    );
    assert!(out.contains("(0 errors, 2 warnings)"), "{out}");
    for (name, text, why) in [
        (
            "size0.sgf",
            "(;SZ[0];B[aa])",
            "error: line 1, column 3: SZ[0]: unsupported board size",
        ),
        (
            "size302.sgf",
            "(;SZ[30:2])",
            "error: line 1, column 3: SZ[30:2]: unsupported board size",
        ),
    ] {
        let f = temp_file(name, text.as_bytes());
        let (ok, out) = tengen(&["sgf", "check", f.to_str().unwrap()]);
        assert!(!ok, "{out}");
        assert!(out.contains(why), "{out}");
    }
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
        out.contains("dead stones from Tengen's estimator: black [] white [B4]"),
        "{out}"
    );
    assert!(out.contains("count: B+4.5"), "{out}");
    // The estimator says how sure it is, and over what range the lead could move.
    assert!(out.contains("estimator: winner "), "{out}");
    assert!(out.contains("Black's lead "), "{out}");
    assert!(ok, "{out}");
}

#[test]
fn score_refuses_what_it_cannot_replay_and_goes_on() {
    let good = temp_file(
        "good-score.sgf",
        b"(;SZ[5]KM[0.5]RU[Chinese]RE[B+4.5]AB[ca][cb][cc][cd][ce]AW[da][db][dc][dd][de];B[];W[])",
    );
    let off = temp_file(
        "off-board.sgf",
        b"(;SZ[9]KM[6.5]RE[B+2.5];B[ee];W[zz];B[];W[])",
    );
    let illegal = temp_file(
        "illegal.sgf",
        b"(;SZ[9]KM[6.5]RE[W+0.5];B[ee];W[ee];B[];W[])",
    );
    let wrong = temp_file(
        "mismatch.sgf",
        b"(;SZ[5]KM[0.5]RU[Chinese]RE[W+3.5]AB[ca][cb][cc][cd][ce]AW[da][db][dc][dd][de];B[];W[])",
    );
    let (ok, out) = tengen(&[
        "sgf",
        "score",
        good.to_str().unwrap(),
        off.to_str().unwrap(),
        illegal.to_str().unwrap(),
        wrong.to_str().unwrap(),
    ]);
    assert!(!ok, "{out}");
    assert!(
        out.contains("off-board.sgf: not scorable: line 1, column 31: move 2: W[zz]: not a point of this 9x9 board"),
        "{out}"
    );
    assert!(
        out.contains(
            "illegal.sgf: not scorable: line 1, column 31: move 2: W[ee] the point is occupied"
        ),
        "{out}"
    );
    assert!(out.contains("agrees with RE[B+4.5]"), "{out}");
    assert!(
        out.contains("differs from RE[W+3.5]: the count is B+4.5"),
        "{out}"
    );
    assert!(
        out.contains("4 files: 2 scored, 2 not scorable, 1 mismatched"),
        "{out}"
    );
    let (ok, out) = tengen(&["sgf", "score", good.to_str().unwrap()]);
    assert!(ok, "{out}");
    assert!(
        out.contains("1 files: 1 scored, 0 not scorable, 0 mismatched"),
        "{out}"
    );
}

#[test]
fn score_under_tromp_taylor_counts_every_stone() {
    // The white stone at bb sits in Black's area: dead by agreement, alive under Tromp-Taylor.
    let body = "(;SZ[5]KM[0.5]RU[RULES]AB[ca][cb][cc][cd][ce]AW[da][db][dc][dd][de][bb];B[];W[])";
    let tt = temp_file("tt.sgf", body.replace("RULES", "Tromp-Taylor").as_bytes());
    let (_, out) = tengen(&["sgf", "score", tt.to_str().unwrap()]);
    assert!(
        out.contains(
            "dead stones from the rules (every stone on the board is alive): black [] white []"
        ),
        "{out}"
    );
    assert!(out.contains("white: territory 5 + stones 6"), "{out}");
    let cn = temp_file("cn.sgf", body.replace("RULES", "Chinese").as_bytes());
    let (_, out) = tengen(&["sgf", "score", cn.to_str().unwrap()]);
    assert!(out.contains("white [B4]"), "{out}");
}

/// Issue 40, item 5: `tengen analyze` prints a line a position (Black's win rate and lead, the
/// best moves) and writes the figures into the record: each node's comment, after the one it
/// had, and Sabaki's SBKV; a record it cannot replay is refused with the reason.
#[test]
fn analyze_prints_every_position_and_writes_them_into_the_record() {
    let rec = temp_file(
        "analyse.sgf",
        b"(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese];B[ee]C[A good start];W[cc];B[gc];W[cg])",
    );
    let out_file = rec.with_file_name("analysed.sgf");
    let (ok, out) = tengen(&[
        "analyze",
        rec.to_str().unwrap(),
        "--visits",
        "16",
        "--threads",
        "2",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    let lines: Vec<&str> = out.lines().filter(|l| l.contains(" best ")).collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[1].contains("B E5"), "{out}");
    assert!(lines[4].contains("W C3"), "{out}");
    assert!(lines.iter().all(|l| l.contains('%')), "{out}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written.matches("SBKV[").count(), 5, "{written}");
    let again = tengen_sgf::parse_str(&written).unwrap();
    let nodes = again.games[0].main_line();
    assert_eq!(nodes.len(), 5);
    let first_move = nodes[1].text("C").unwrap();
    assert!(
        first_move.starts_with("A good start\n\nTengen: Black "),
        "{first_move}"
    );

    let illegal = temp_file("analyze-illegal.sgf", b"(;SZ[9];B[ee];W[ee])");
    let (ok, out) = tengen(&["analyze", illegal.to_str().unwrap(), "--visits", "4"]);
    assert!(!ok);
    assert!(out.contains("cannot be replayed"), "{out}");
}

/// `tengen serve --model` reads the net before anything starts: a file that is not a KataGo
/// model stops the server with the reason, before it opens a database or a port.
#[test]
fn serve_refuses_a_model_it_cannot_use() {
    let bad = temp_file("not-a-net.bin.gz", b"not a network");
    let db = bad.with_file_name("never.db");
    let (ok, out) = tengen(&[
        "serve",
        "--model",
        bad.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(out.contains("cannot use model"), "{out}");
    assert!(!db.exists());
    let (ok, out) = tengen(&["serve", "--model", "/nonexistent/net.bin.gz"]);
    assert!(!ok);
    assert!(out.contains("cannot read model"), "{out}");
}
