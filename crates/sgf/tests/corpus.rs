//! The GNU Go regression records (`../shared/data/sgf/gnugo-regression/`, GPL-3, read in place,
//! not copied): every file parses, and every game replays under its own rules without an illegal
//! move or a warning, except the files listed in `EXPECTED` with the first error or warning
//! found by reading each one.
//!
//! `#[ignore]`d because the folder is outside the project; `.ci/run` runs it. Under `CI=true` a
//! missing folder fails the test.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use tengen_sgf::game::check;

/// Files that do not replay cleanly, each with the reason checked by hand. The problem printed
/// for each file must start with the given text.
const EXPECTED: &[(&str, &str)] = &[
    // Problem files whose variations show tries rather than games.
    (
        // `(;W[aj]PL[W];B[di]PL[W]`: the PL values contradict the moves.
        "STS-RV/MiscProblems/_semeai_C9_007.sgf",
        "game 0: warning: line 27, column 14: variation 5, move 2: B[di] is a second black move",
    ),
    (
        // A variation with two white tries in a row after B[ab].
        "life_and_death/ld9_variations.sgf",
        "game 0: warning: line 37, column 3: variation 2.0, move 3: W[da] is a second white move",
    ),
    (
        // A review variation `(;B[ij](;B[hm])...`: two black moves in a row.
        "mertin13x13/katsunari-gnugo1.W+45.sgf",
        "game 0: warning: line 56, column 3: variation 1.1.1.0, move 56: B[hm] is a second black move",
    ),
    // Records with positions appended after the game for analysis.
    (
        // `;B[fd];B[dd]` at the end: two black moves in a row.
        "arb/game04.sgf",
        "game 0: warning: line 11, column 25: move 100: B[dd] is a second black move",
    ),
    (
        // Moves 288 on are a run of black moves (`;B[oj];B[la];B[sj];B[na]`).
        "incident42.sgf",
        "game 0: warning: line 32, column 50: move 289: B[la] is a second black move",
    ),
    (
        // `;W[hp];W[tt]`: Black's pass before White's final pass is missing.
        "TSa.sgf",
        "game 0: warning: line 36, column 25: move 311: W[tt] is a second white move",
    ),
    (
        // `;B[tt]W[tt]`: both final passes in one node, as the NNGS converter wrote them.
        "buzco1.sgf",
        "game 0: warning: line 42, column 48: move 266: a node with both B and W",
    ),
    // `HA[1]` for an even game, as some programs write it: read as no handicap.
    (
        "mertin13x13/goliath-gnugo1.B+11.sgf",
        "game 0: warning: line 4, column 1: HA[1]: one handicap stone is an even game",
    ),
    // Damaged files.
    (
        // Truncated: line 21 is cut off in the middle of the AW list and `)` is missing.
        "owl42.sgf",
        "parse: warning: line 24, column 1: the record is cut off: 1 closing parenthesis ')' missing",
    ),
    (
        // Zero bytes only.
        "pending/nightmare.sgf",
        "parse: line 1, column 1: no game tree",
    ),
];

fn corpus() -> Option<PathBuf> {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/sgf/gnugo-regression");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{} is missing", dir.display());
    }
    eprintln!("skipping: {} not found", dir.display());
    None
}

fn sgf_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            sgf_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "sgf") {
            out.push(p);
        }
    }
}

/// The first problem of a file, or `None` when it replays cleanly.
fn first_problem(path: &Path) -> Option<String> {
    let bytes = std::fs::read(path).unwrap();
    let c = match tengen_sgf::parse(&bytes) {
        Ok(c) => c,
        Err(e) => return Some(format!("parse: {e}")),
    };
    if let Some(w) = c.warnings.first() {
        return Some(format!("parse: warning: {w}"));
    }
    for (i, g) in c.games.iter().enumerate() {
        match check(g, None) {
            Err(e) => return Some(format!("game {i}: {e}")),
            Ok(problems) => {
                if let Some(p) = problems.first() {
                    return Some(format!("game {i}: {}: {p}", p.severity()));
                }
            }
        }
    }
    None
}

#[test]
#[ignore = "reads ../shared/data/sgf/gnugo-regression; run by .ci/run"]
fn gnu_go_regression_records_replay() {
    let Some(dir) = corpus() else { return };
    let mut files = Vec::new();
    sgf_files(&dir, &mut files);
    assert!(files.len() > 1500, "found only {} files", files.len());
    let mut unexpected = Vec::new();
    let mut seen_expected = 0;
    for f in &files {
        let name = f.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
        let problem = first_problem(f);
        match (EXPECTED.iter().find(|(n, _)| *n == name), problem) {
            (None, None) => {}
            (Some((_, why)), Some(p)) if p.starts_with(why) => seen_expected += 1,
            (Some((_, why)), p) => unexpected.push(format!("{name}: expected {why:?}, got {p:?}")),
            (None, Some(p)) => unexpected.push(format!("{name}: {p}")),
        }
    }
    eprintln!(
        "{} files, {} with known problems",
        files.len(),
        seen_expected
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}
