//! `tengen tournament standings` from the outside: an OpenGotha file printed back byte for byte
//! in its own encoding, a bar that changes the table, and a clear error for a bad file.

#![allow(clippy::unwrap_used)]

use std::process::Command;

fn data(name: &str) -> String {
    format!(
        "{}/../tournament/tests/data/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn standings(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["tournament", "standings"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn an_opengotha_file_is_printed_back_byte_for_byte() {
    let file = data("juvisy-2019.h9");
    let out = standings(&[&file, "--bar", "3d", "--floor", "20k"]);
    assert!(out.status.success());
    // ISO-8859-15 in, ISO-8859-15 out ("André" is one byte 0xE9 there).
    assert_eq!(out.stdout, std::fs::read(&file).unwrap());
}

#[test]
fn a_lower_bar_recounts_the_mcmahon_scores() {
    let out = standings(&[&data("juvisy-2019.h9"), "--bar", "1d"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    // Minieri (3D) now starts at 1D's 30 points: 34 after four wins.
    assert!(
        text.contains("   1 Minieri Davide                  3D FR 75Ju   34 "),
        "{text}"
    );
}

#[test]
fn a_bad_file_or_rank_is_refused_clearly() {
    let bad = std::env::temp_dir().join(format!("tengen-bad-{}.h9", std::process::id()));
    std::fs::write(&bad, "; Pl Name Rk Co Club NBW ZZZ\n").unwrap();
    let out = standings(&[bad.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("h9_unknown_criterion") && err.contains("ZZZ"),
        "{err}"
    );
    let out = standings(&[&data("juvisy-2019.h9"), "--bar", "11d"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a rank"));
}

fn pair(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["tournament", "pair"])
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_round_is_paired_again_from_the_rounds_before_it() {
    let out = pair(&[&data("juvisy-2019.h9"), "--round", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let boards: Vec<&str> = text.lines().filter(|l| !l.starts_with(';')).collect();
    // Round 2 of Juvisy: 18 of its 19 players played (Daguenet was absent), 9 boards.
    assert_eq!(boards.len(), 9, "{text}");
    assert!(
        !text.contains("Daguenet"),
        "an absent player is not paired: {text}"
    );
    for name in ["Minieri Davide", "Rebelo Manuela", "Vargas Olga"] {
        assert_eq!(text.matches(name).count(), 1, "{name} plays once: {text}");
    }
    // The leader, alone on 33, is drawn down to the next group rather than idle.
    assert!(text.contains("Minieri Davide 3D (33)"), "{text}");
    assert!(text.contains("; the file's own round 2 has "), "{text}");
}

#[test]
fn a_round_out_of_the_file_is_refused() {
    let out = pair(&[&data("juvisy-2019.h9"), "--round", "9"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("rounds 1 to 4"));
}
