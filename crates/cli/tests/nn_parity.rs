//! Parity with KataGo on the same network: each `tests/katago-raw-nn/NAME.gtp` (a position set
//! up under KataGo's rules by name, then `kata-raw-nn`) is fed to `tengen gtp`, and every number
//! it prints is compared with what the real KataGo printed for the same commands
//! (`NAME.out`, made by `generate.py` there): policy, win/loss/no-result and ownership within
//! 2e-3, scores within 0.05; illegal points (`NAN`) and every label must agree.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// One labelled run of numbers in a `kata-raw-nn` answer (`policy` and its grid, ...); `None`
/// is KataGo's `NAN` (an illegal move).
type Field = (String, Vec<Option<f64>>);

fn fields(text: &str) -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for tok in text.split_whitespace() {
        if tok == "NAN" {
            if let Some(f) = out.last_mut() {
                f.1.push(None);
            }
        } else if let Ok(v) = tok.parse::<f64>() {
            if let Some(f) = out.last_mut() {
                f.1.push(Some(v));
            }
        } else {
            out.push((tok.to_string(), Vec::new()));
        }
    }
    out
}

fn tolerance(label: &str) -> f64 {
    match label {
        "whiteLead"
        | "whiteScoreSelfplay"
        | "varTimeLeft"
        | "shorttermWinlossError"
        | "shorttermScoreError" => 0.05,
        // The second moment of the score is in points squared: 0.05 on a score of 10.
        "whiteScoreSelfplaySq" => 1.0,
        _ => 2e-3,
    }
}

fn run_tengen(script: &[u8]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--threads", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(script).unwrap();
    // generate.py ends KataGo's runs with `quit`, whose `=` is in the golden output.
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// Compares one position; returns the largest difference per label.
fn compare(name: &str, got: &str, want: &str, worst: &mut Vec<(String, f64)>) -> Vec<String> {
    let (g, w) = (fields(got), fields(want));
    let mut errors = Vec::new();
    if g.len() != w.len() {
        return vec![format!(
            "{name}: {} fields, KataGo printed {}",
            g.len(),
            w.len()
        )];
    }
    for ((gl, gv), (wl, wv)) in g.iter().zip(&w) {
        if gl != wl || gv.len() != wv.len() {
            errors.push(format!(
                "{name}: {gl} ({}) where KataGo has {wl} ({})",
                gv.len(),
                wv.len()
            ));
            continue;
        }
        for (i, (a, b)) in gv.iter().zip(wv).enumerate() {
            match (a, b) {
                (Some(a), Some(b)) => {
                    let d = (a - b).abs();
                    match worst.iter_mut().find(|(l, _)| l == gl) {
                        Some(e) => e.1 = e.1.max(d),
                        None => worst.push((gl.clone(), d)),
                    }
                    if d > tolerance(gl) {
                        errors.push(format!("{name}: {gl}[{i}] = {a}, KataGo {b}"));
                    }
                }
                (None, None) => {}
                _ => errors.push(format!("{name}: {gl}[{i}] = {a:?}, KataGo {b:?}")),
            }
        }
    }
    errors
}

#[test]
fn kata_raw_nn_matches_katago() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/katago-raw-nn");
    let mut scripts: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "gtp"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 10);
    let mut errors = Vec::new();
    let mut worst = Vec::new();
    for script in &scripts {
        let name = script.file_stem().unwrap().to_string_lossy().to_string();
        let got = run_tengen(&std::fs::read(script).unwrap());
        let want = std::fs::read_to_string(script.with_extension("out")).unwrap();
        errors.extend(compare(&name, &got, &want, &mut worst));
    }
    eprintln!("largest differences from KataGo: {worst:?}");
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}
