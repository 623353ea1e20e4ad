//! Interoperability with other Go programs. `#[ignore]`d because they need GNU Go
//! (`/usr/games/gnugo`) and gomill (PyPI); `.ci/run` installs both and runs these. Under
//! `CI=true` a missing program fails the test instead of skipping it.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

const GNUGO: &str = "/usr/games/gnugo";

fn require(available: bool, what: &str) -> bool {
    if available {
        return true;
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what} is required in CI");
    }
    eprintln!("skipping: {what} is not available");
    false
}

mod common;
use common::tengen;

#[test]
#[ignore = "needs GNU Go; run by .ci/run"]
fn match_against_gnu_go_both_ways_and_the_records_check() {
    if !require(Path::new(GNUGO).exists(), "GNU Go") {
        return;
    }
    let out = std::env::temp_dir().join(format!("tengen-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    // A fixed, small search: the test checks the protocol and the referee, not strength.
    let me = format!(
        "{} gtp --playouts 300 --threads 1",
        env!("CARGO_BIN_EXE_tengen")
    );
    let gnugo = format!("{GNUGO} --mode gtp --level 1");
    let (ok, text) = tengen(&[
        "match",
        "--black",
        &me,
        "--white",
        &gnugo,
        "--games",
        "2",
        "--size",
        "9",
        "--time",
        "20",
        "--rules",
        "japanese",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{text}");
    // Game 1: Tengen Black; game 2: GNU Go Black.
    assert!(text.contains("game 1: Tengen (B) vs GNU Go (W)"), "{text}");
    assert!(text.contains("game 2: GNU Go (B) vs Tengen (W)"), "{text}");
    assert!(
        !text.contains("+F") && !text.contains("+T"),
        "no forfeit or time loss: {text}"
    );
    let files: Vec<String> = (1..=2)
        .map(|i| out.join(format!("game-{i:03}.sgf")).display().to_string())
        .collect();
    let mut args = vec!["sgf", "check"];
    args.extend(files.iter().map(String::as_str));
    let (ok, text) = tengen(&args);
    assert!(ok, "{text}");
    assert!(text.contains("2 files, 2 games, 0 problems"), "{text}");
    for f in &files {
        let sgf = std::fs::read_to_string(f).unwrap();
        assert!(
            sgf.contains("RE[") && sgf.matches(";B[").count() > 5,
            "{sgf}"
        );
    }
}

#[test]
#[ignore = "needs gomill (PyPI) and GNU Go; run by .ci/run"]
fn gomill_drives_a_full_game() {
    let python = std::env::var("TENGEN_GOMILL_PYTHON").unwrap_or_else(|_| "python3".into());
    let has_gomill = Command::new(&python)
        .args(["-c", "import gomill"])
        .status()
        .is_ok_and(|s| s.success());
    if !require(has_gomill, "gomill") {
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gomill_game.py");
    let mut cmd = Command::new(&python);
    cmd.arg(&script).arg(env!("CARGO_BIN_EXE_tengen"));
    if Path::new(GNUGO).exists() {
        cmd.args([GNUGO, "--mode", "gtp", "--level", "1"]);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("result:") && text.contains("moves:"),
        "{text}"
    );
}
