//! Every preset starts in GTP: the board size comes from the preset unless one is asked for,
//! a size the preset forbids is a clear start-up error, and `boardsize` the preset forbids is
//! refused without ending the session. The same for `tengen match`. A `--model` that cannot be
//! read or used stops the engine at start with the reason.

#![allow(clippy::unwrap_used)]

mod common;
use common::tengen;

use std::io::Write;
use std::process::{Command, Stdio};

/// Feeds `input` to `tengen gtp ARGS...`: whether it exited well, stdout, stderr.
fn gtp(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The engine may exit before reading (a start-up error): a broken pipe is expected then.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn every_preset_starts_on_its_own_board() {
    for preset in [
        "wga",
        "chinese",
        "japanese",
        "korean",
        "igz",
        "arena",
        "aga",
        "tromp-taylor",
        "nz",
        "first-capture",
    ] {
        let (ok, out, err) = gtp(
            &["--rules", preset, "--playouts", "50"],
            "genmove b\nquit\n",
        );
        assert!(ok, "{preset}: {err}");
        assert!(out.starts_with("= "), "{preset}: {out}");
    }
    let (_, out, _) = gtp(&["--rules", "wga"], "showboard\nquit\n");
    assert!(out.contains(" 9 . . . . . . . . . 9"), "{out}");
    assert!(!out.contains("10"), "a 9x9 board: {out}");
}

#[test]
fn a_size_the_preset_forbids_is_a_clear_start_up_error() {
    let (ok, _, err) = gtp(&["--rules", "wga", "--size", "19"], "quit\n");
    assert!(!ok);
    assert_eq!(
        err.trim(),
        "tengen: board size 19 is not allowed by the wga rules (9x9 only)"
    );
    let (ok, _, err) = gtp(&["--rules", "first-capture", "--size", "4"], "quit\n");
    assert!(!ok);
    assert!(
        err.contains("not allowed by the first-capture rules (5 to 19 lines)"),
        "{err}"
    );
    let (ok, _, _) = gtp(&["--rules", "wga", "--size", "9"], "quit\n");
    assert!(ok);
}

#[test]
fn boardsize_the_preset_forbids_keeps_the_session() {
    let (ok, out, _) = gtp(
        &["--rules", "wga"],
        "1 boardsize 19\n2 boardsize 9\n3 play b e5\n4 tengen-rules chinese\n5 boardsize 19\n\
         6 tengen-rules wga\n7 query\n",
    );
    assert!(ok);
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert_eq!(answers[0], "?1 unacceptable size");
    assert_eq!(answers[1], "=2");
    assert_eq!(answers[2], "=3");
    assert_eq!(answers[3], "=4");
    assert_eq!(answers[4], "=5");
    // An empty 19x19 board under WGA becomes WGA's own 9x9 board.
    assert_eq!(answers[5], "=6");
    assert_eq!(answers[6], "?7 unknown command");
    // A game under way keeps its board and its rules.
    let (_, out, _) = gtp(&[], "1 play b d4\n2 tengen-rules wga\n3 showboard\n");
    assert!(
        out.starts_with("=1\n\n?2 the game is not possible under these rules"),
        "{out}"
    );
    assert!(out.contains("19 . ."), "{out}");
}

#[test]
fn match_takes_the_size_from_the_preset_and_engines_of_other_rules_join() {
    let dir = std::env::temp_dir().join(format!("tengen-match-startup-{}", std::process::id()));
    let bin = env!("CARGO_BIN_EXE_tengen");
    let (ok, out) = tengen(&[
        "match",
        "--black",
        &format!("{bin} gtp --rules wga"),
        "--white",
        &format!("{bin} gtp --rules wga"),
        "--rules",
        "wga",
        "--size",
        "19",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(!ok);
    assert!(
        out.contains("board size 19 is not allowed by the wga rules"),
        "{out}"
    );
    // Engines started under WGA (9x9) play a 13x13 Chinese game: told the rules first, they
    // accept the board.
    let (ok, out) = tengen(&[
        "match",
        "--black",
        &format!("{bin} gtp --rules wga --playouts 50 --threads 1"),
        "--white",
        &format!("{bin} gtp --rules first-capture --seed 2 --playouts 50 --threads 1"),
        "--rules",
        "chinese",
        "--size",
        "13",
        "--games",
        "1",
        "--max-moves",
        "20",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    assert!(!out.contains("forfeit") && !out.contains("+F"), "{out}");
    let sgf = std::fs::read_to_string(dir.join("game-001.sgf")).unwrap();
    assert!(sgf.contains("SZ[13]"), "{sgf}");
    assert!(
        sgf.matches(";B[").count() + sgf.matches(";W[").count() >= 20,
        "{sgf}"
    );
}

#[test]
fn lz_analyze_streams_until_the_next_command() {
    // The network's search (the default) and the Monte Carlo engine's.
    analysis_streams(&["--threads", "1"]);
    analysis_streams(&["--threads", "1", "--engine", "mcts"]);
}

fn analysis_streams(args: &[&str]) {
    // All input at once: the analysis reports after its first interval, finds the next command
    // waiting, ends with an empty line, and the next command is answered.
    let (ok, out, _) = gtp(
        args,
        "boardsize 9\n7 lz-analyze b 5\nname\n8 kata-analyze w 5\nquit\n",
    );
    assert!(ok);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..3], &["=", "", "=7"], "{out}");
    // One report or more (a loaded machine may report twice before it sees the next command),
    // then the empty line that ends the response.
    let end = 3 + lines[3..].iter().position(|l| l.is_empty()).unwrap();
    assert!(end > 3, "{out}");
    let info = lines[3];
    assert!(
        lines[3..end].iter().all(|l| l.starts_with("info move ")),
        "{out}"
    );
    for word in ["visits", "winrate", "prior", "lcb", "order 0", "pv"] {
        assert!(info.contains(word), "{word}: {info}");
    }
    // Leela Zero's win rates are in ten-thousandths.
    let wr: i32 = info
        .split(" winrate ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!((0..=10000).contains(&wr), "{info}");
    assert_eq!(lines[end + 1], "= Tengen", "{out}");
    assert_eq!(lines[end + 3], "=8", "{out}");
    let kata = lines[end + 4];
    assert!(
        kata.starts_with("info move ") && kata.contains(" winrate 0."),
        "{kata}"
    );
}

#[test]
fn a_model_that_cannot_be_used_is_a_clear_start_up_error() {
    let dir = std::env::temp_dir().join(format!("tengen-model-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("missing.bin.gz");
    let (ok, _, err) = gtp(&["--model", missing.to_str().unwrap()], "quit\n");
    assert!(!ok && err.contains("cannot read model"), "{err}");
    // Half of the built-in net: the gzip stream ends early.
    let net = include_bytes!("../../ai/nets/g170-b6c96-s175395328-d26788732.bin.gz");
    let cut = dir.join("cut.bin.gz");
    std::fs::write(&cut, &net[..net.len() / 2]).unwrap();
    let (ok, _, err) = gtp(&["--model", cut.to_str().unwrap()], "quit\n");
    assert!(!ok && err.contains("cannot use model"), "{err}");
    // The built-in net given as a file works like the built-in one.
    let whole = dir.join("b6.bin.gz");
    std::fs::write(&whole, net).unwrap();
    let (ok, out, _) = gtp(
        &["--model", whole.to_str().unwrap()],
        "boardsize 9\nkata-raw-nn 0\nquit\n",
    );
    assert!(ok && out.contains("whiteOwnership"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A human-style net: the GTP engine takes it with a profile and answers without one with a
/// clear error; the server and the whole-game analysis, which take no profile, refuse it at
/// start.
#[test]
fn a_human_style_net_is_taken_where_a_profile_can_be_given() {
    let net = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/katago-raw-nn-shapes/b2c16-mish-meta/model.bin.gz"
    );
    let (ok, out, _) = gtp(
        &["--model", net, "--visits", "8", "--threads", "1"],
        "boardsize 9\ngenmove b\nkata-set-param humanSLProfile rank_3k\ngenmove b\nquit\n",
    );
    assert!(ok, "{out}");
    let answers: Vec<&str> = out.split("\n\n").collect();
    assert!(
        answers[1].starts_with("? this human-style net needs a profile"),
        "{out}"
    );
    assert!(answers[3].starts_with("= "), "{out}");
    let (ok, _, _) = gtp(&["--model", net, "--human-profile", "preaz_2d"], "quit\n");
    assert!(ok);
    let record = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gtp/game.sgf");
    // Were the net taken, the server would stop at its database, a path that cannot be.
    let serve = [
        "serve",
        "--model",
        net,
        "--addr",
        "127.0.0.1:0",
        "--db",
        "/nonexistent/t.db",
    ];
    let analyze = ["analyze", "--model", net, "--visits", "1", record];
    for args in [&serve[..], &analyze[..]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_tengen"))
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && err.contains("human-style net"),
            "{args:?}: {err}"
        );
    }
}

/// The network's search plays by default: the same seed and visits give the same moves, and
/// first-capture (which the net does not play) falls back to the Monte Carlo engine.
#[test]
fn the_network_engine_plays_reproducibly_and_steps_aside_where_it_cannot() {
    let input = "boardsize 9\nclear_board\ngenmove b\ngenmove w\ngenmove b\nquit\n";
    let args = ["--visits", "16", "--seed", "3", "--threads", "1"];
    let (ok, first, err) = gtp(&args, input);
    assert!(ok, "{err}");
    let (_, again, _) = gtp(&args, input);
    assert_eq!(first, again);
    let moves = first.lines().filter(|l| l.starts_with("= ")).count();
    assert_eq!(moves, 3, "{first}");
    let (ok, out, err) = gtp(
        &[
            "--rules",
            "first-capture",
            "--engine",
            "nn",
            "--visits",
            "16",
        ],
        "boardsize 9\ngenmove b\nquit\n",
    );
    assert!(ok, "{err}");
    assert!(
        out.lines().any(|l| l.starts_with("= ")) && !out.contains('?'),
        "{out}"
    );
}

/// An engine that is gone after `kgs-game_over` (Pachi 12.90 sleeps 5 s there, and was killed
/// for it by the controller) is started again for the next game: each game is played to its
/// end, none forfeited by a dead engine at its set-up.
#[test]
fn match_restarts_an_engine_that_is_gone_after_a_game() {
    let dir = std::env::temp_dir().join(format!("tengen-match-restart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Resigns at once, and exits when told the game is over.
    let script = dir.join("resigner.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    \
         kgs-game_over) exit 0;;\n    genmove) printf '=%s resign\\n\\n' \"$id\";;\n    \
         name) printf '=%s resigner\\n\\n' \"$id\";;\n    *) printf '=%s\\n\\n' \"$id\";;\n  \
         esac\ndone\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_tengen");
    let (ok, out) = tengen(&[
        "match",
        "--black",
        &format!("{bin} gtp --engine mcts --playouts 20 --threads 1"),
        "--white",
        &format!("sh {}", script.display()),
        "--games",
        "4",
        "--out",
        dir.join("sgf").to_str().unwrap(),
    ]);
    assert!(ok, "{out}");
    // Tengen is Black in games 1 and 3, the resigner in 2 and 4: each game ends by a
    // resignation, none by forfeit.
    for (game, result) in [(1, "B+R"), (2, "W+R"), (3, "B+R"), (4, "W+R")] {
        assert!(out.contains(&format!("game {game}: ")), "{out}");
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("game {game}:")))
            .unwrap();
        assert!(line.contains(result), "{line}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A handicap match: engine A takes Black with the stones on the fixed points in every game,
/// komi 0.5, and an engine that places other stones plays no game (it forfeits).
#[test]
fn a_handicap_match_gives_engine_a_the_fixed_stones_in_every_game() {
    let dir = std::env::temp_dir().join(format!("tengen-match-handicap-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Resigns at once; places the stones `fixed_handicap` is answered with.
    let engine = |name: &str, stones: &str| {
        let script = dir.join(format!("{name}.sh"));
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\nwhile read -r id cmd rest; do\n  case \"$cmd\" in\n    \
                 fixed_handicap) printf '=%s {stones}\\n\\n' \"$id\";;\n    \
                 genmove) printf '=%s resign\\n\\n' \"$id\";;\n    \
                 name) printf '=%s {name}\\n\\n' \"$id\";;\n    *) printf '=%s\\n\\n' \"$id\";;\n  \
                 esac\ndone\n"
            ),
        )
        .unwrap();
        format!("sh {}", script.display())
    };
    let bin = env!("CARGO_BIN_EXE_tengen");
    let weaker = format!("{bin} gtp --engine mcts --playouts 20 --threads 1");
    let run = |white: &str, out: &str| {
        tengen(&[
            "match",
            "--black",
            &weaker,
            "--white",
            white,
            "--games",
            "2",
            "--size",
            "13",
            "--handicap",
            "4",
            "--out",
            out,
        ])
    };
    let good = dir.join("good");
    let (ok, out) = run(&engine("giver", "D4 K4 D10 K10"), good.to_str().unwrap());
    assert!(ok, "{out}");
    // White moves first and resigns: Black (engine A, both games) wins each.
    for game in [1, 2] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("game {game}:")))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(line.contains("Tengen (B) vs giver (W): B+R"), "{line}");
        let sgf = std::fs::read_to_string(good.join(format!("game-00{game}.sgf"))).unwrap();
        assert!(sgf.contains("HA[4]") && sgf.contains("KM[0.5]"), "{sgf}");
        for p in ["dd", "dj", "jd", "jj"] {
            assert!(sgf.contains(&format!("[{p}]")), "{p} in {sgf}");
        }
    }
    let bad = dir.join("bad");
    let (ok, out) = run(&engine("misplacer", "A1 B1 C1 D1"), bad.to_str().unwrap());
    assert!(ok, "{out}");
    let line = out.lines().find(|l| l.starts_with("game 1:")).unwrap();
    assert!(line.contains("B+F"), "{line}");
    assert!(tengen(&[
        "match",
        "--black",
        &weaker,
        "--white",
        &weaker,
        "--size",
        "9",
        "--handicap",
        "12"
    ])
    .1
    .contains("handicap"));
    let _ = std::fs::remove_dir_all(&dir);
}
