//! Golden GTP transcripts: each `tests/gtp/NAME.gtp` is fed to `tengen gtp --engine mcts --seed 1
//! --playouts 300 --threads 1` (a fixed search, so the moves are the same on every machine) and the
//! output must equal `tests/gtp/NAME.out` byte for byte. Set `TENGEN_BLESS=1` to rewrite the
//! expected files after a deliberate change (then read the diff).

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

fn run_transcript(dir: &Path, script: &Path) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args([
            "gtp",
            "--engine",
            "mcts",
            "--seed",
            "1",
            "--playouts",
            "300",
            "--threads",
            "1",
        ])
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = std::fs::read(script).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{} exited with {}",
        script.display(),
        out.status
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn golden_transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp");
    let bless = std::env::var("TENGEN_BLESS").is_ok_and(|v| v == "1");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 7);
    let mut failures = Vec::new();
    for script in &scripts {
        let got = run_transcript(&dir, script);
        let expected_path = script.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
        if got != want {
            failures.push(format!(
                "{}:\n--- expected\n{want}\n--- got\n{got}",
                script.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_command_appears_in_a_transcript() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/gtp");
    let mut all = String::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "gtp") {
            all.push_str(&std::fs::read_to_string(e.path()).unwrap());
        }
    }
    let listed = run_transcript(&dir, &dir.join("basics.gtp"));
    let commands: Vec<&str> = listed
        .split("\n\n")
        .find(|r| r.contains("protocol_version\nname"))
        .unwrap()
        .trim_start_matches("= ")
        .lines()
        .collect();
    assert!(commands.len() >= 26);
    for c in commands {
        let used = all.lines().any(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            words.first() == Some(&c)
                || (words.len() > 1 && words[1] == c && words[0].parse::<u32>().is_ok())
        });
        assert!(used, "no transcript sends {c}");
    }
}
