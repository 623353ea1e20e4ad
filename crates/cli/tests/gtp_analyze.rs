//! The network engine's `kata-analyze` and `lz-analyze` as KataGo prints them, read field by
//! field; its search on several threads; its resignation after hopeless moves in a row; and its
//! moves under a clock. The analyses are capped by `--visits` on one thread, so the last report
//! is the same on every run: the test reads until it, then ends the session (nothing sleeps).

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

/// Starts `tengen gtp ARGS`, sends `setup`, reads until a line `until` accepts, sends `quit`:
/// that line, and every line before it.
fn session(args: &[&str], setup: &str, until: impl Fn(&str) -> bool) -> (String, Vec<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(setup.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let mut lines = Vec::new();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let found = loop {
        let mut line = String::new();
        assert!(reader.read_line(&mut line).unwrap() > 0, "ended: {lines:?}");
        let line = line.trim_end().to_string();
        if until(&line) {
            break line;
        }
        lines.push(line);
    };
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    (found, lines)
}

/// Plain `tengen gtp ARGS` on `input`: its output.
fn gtp(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A GTP vertex of a 19x19 board as an index row by row from the top left (KataGo's order).
fn index19(v: &str) -> usize {
    let col = "ABCDEFGHJKLMNOPQRST".find(&v[..1]).unwrap();
    let row: usize = v[1..].parse().unwrap();
    (19 - row) * 19 + col
}

fn is_vertex(v: &str) -> bool {
    v == "pass"
        || (v.len() >= 2
            && "ABCDEFGHJKLMNOPQRST".contains(&v[..1])
            && v[1..].parse::<usize>().is_ok_and(|r| (1..=19).contains(&r)))
}

/// The parts of a report: each `info` entry's words, and the words after each other keyword.
struct Parsed {
    infos: Vec<Vec<String>>,
    root: Vec<String>,
    ownership: Vec<f64>,
    stdev: Vec<f64>,
}

fn parse(line: &str) -> Parsed {
    let mut p = Parsed {
        infos: Vec::new(),
        root: Vec::new(),
        ownership: Vec::new(),
        stdev: Vec::new(),
    };
    let mut part = "";
    for w in line.split(' ') {
        match w {
            "info" => {
                p.infos.push(Vec::new());
                part = "info";
            }
            "rootInfo" | "ownership" | "ownershipStdev" => part = w,
            _ => match part {
                "info" => p.infos.last_mut().unwrap().push(w.to_string()),
                "rootInfo" => p.root.push(w.to_string()),
                "ownership" => p.ownership.push(w.parse().unwrap()),
                "ownershipStdev" => p.stdev.push(w.parse().unwrap()),
                _ => panic!("a word outside any part: {w} in {line}"),
            },
        }
    }
    p
}

/// The value after `key` in an entry's words.
fn field<'a>(words: &'a [String], key: &str) -> &'a str {
    let i = words.iter().position(|w| w == key).unwrap();
    &words[i + 1]
}

const KATA_KEYS: [&str; 15] = [
    "move",
    "visits",
    "edgeVisits",
    "utility",
    "winrate",
    "scoreMean",
    "scoreStdev",
    "scoreLead",
    "scoreSelfplay",
    "prior",
    "lcb",
    "utilityLcb",
    "weight",
    "order",
    "pv",
];

#[test]
fn kata_analyze_prints_katagos_fields_in_katagos_order() {
    let args = ["--visits", "40", "--threads", "1", "--seed", "2"];
    let setup = "boardsize 19\nplay B Q16\n5 kata-analyze W 10 maxmoves 3 ownership true \
                 ownershipStdev true pvVisits true rootInfo true\n";
    let done = |l: &str| l.contains("rootInfo visits 40 ");
    let (line, before) = session(&args, setup, done);
    assert_eq!(&before[..5], &["=", "", "=", "", "=5"], "{before:?}");
    let p = parse(&line);
    assert!(!p.infos.is_empty() && p.infos.len() <= 3, "{line}");
    let mut last_visits = u32::MAX;
    for (order, info) in p.infos.iter().enumerate() {
        // The keys in KataGo's order, each followed by its value (pv by its moves).
        let keys: Vec<&str> = info
            .iter()
            .step_by(2)
            .take(KATA_KEYS.len())
            .map(String::as_str)
            .collect();
        assert_eq!(keys, KATA_KEYS, "{info:?}");
        assert_eq!(field(info, "order"), order.to_string());
        let mv = field(info, "move");
        assert!(is_vertex(mv) && mv != "Q16", "{mv}");
        let visits: u32 = field(info, "visits").parse().unwrap();
        assert!(visits > 0 && visits <= last_visits, "{info:?}");
        last_visits = visits;
        assert_eq!(field(info, "edgeVisits"), field(info, "visits"));
        assert_eq!(field(info, "scoreMean"), field(info, "scoreLead"));
        let num = |k: &str| field(info, k).parse::<f64>().unwrap();
        assert!((0.0..=1.0).contains(&num("winrate")) && (0.0..=1.0).contains(&num("prior")));
        assert!(num("lcb") <= num("winrate") && num("utilityLcb") <= num("utility"));
        assert!(num("scoreStdev") >= 0.0);
        // The line, then the visits along it: one a move, first the move's own, falling.
        let pv_at = info.iter().position(|w| w == "pv").unwrap();
        let pv_visits_at = info.iter().position(|w| w == "pvVisits").unwrap();
        let pv = &info[pv_at + 1..pv_visits_at];
        let pv_visits: Vec<u32> = info[pv_visits_at + 1..]
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(pv[0], mv);
        assert!(pv.iter().all(|v| is_vertex(v)), "{pv:?}");
        assert_eq!(pv.len(), pv_visits.len());
        assert_eq!(pv_visits[0], visits);
        assert!(pv_visits.windows(2).all(|w| w[0] >= w[1]), "{pv_visits:?}");
    }
    assert_eq!(p.root[..2], ["visits".to_string(), "40".to_string()]);
    // Ownership for every point, for White (to move here): the black stone is Black's.
    assert_eq!((p.ownership.len(), p.stdev.len()), (361, 361));
    assert!(p.ownership.iter().all(|o| (-1.0..=1.0).contains(o)));
    assert!(p.stdev.iter().all(|s| *s >= 0.0));
    assert!(
        p.ownership[index19("Q16")] < -0.5,
        "{}",
        p.ownership[index19("Q16")]
    );
    // One thread and a visit cap: the same last report on every run.
    let (again, _) = session(&args, setup, done);
    assert_eq!(line, again);
}

#[test]
fn lz_analyze_on_the_network_prints_leela_zeros_integers() {
    let args = ["--visits", "30", "--threads", "1"];
    let setup = "boardsize 9\nlz-analyze B 5 maxmoves 2\n";
    // Two moves shown: the last report has 30 visits in the root, not all of them shown.
    let (line, _) = session(&args, setup, |l| {
        l.starts_with("info") && l.contains("order 1")
    });
    let p = parse(&line);
    assert_eq!(p.infos.len(), 2, "{line}");
    for info in &p.infos {
        let keys: Vec<&str> = info.iter().step_by(2).take(6).map(String::as_str).collect();
        assert_eq!(keys, ["move", "visits", "winrate", "prior", "lcb", "order"]);
        for k in ["winrate", "prior"] {
            let v: i32 = field(info, k).parse().unwrap();
            assert!((0..=10000).contains(&v), "{info:?}");
        }
        field(info, "lcb").parse::<i32>().unwrap();
    }
    // KataGo's keys that Leela Zero's dialect does not have are refused.
    let out = gtp(
        &args,
        "boardsize 9\n1 lz-analyze ownership true\n2 kata-analyze b soon\n",
    );
    assert!(
        out.contains("?1 syntax error") && out.contains("?2 syntax error"),
        "{out}"
    );
}

#[test]
fn two_threads_play_a_legal_game_on_the_network() {
    let mut input = String::from("boardsize 9\nkomi 7\n");
    for _ in 0..6 {
        input.push_str("genmove b\ngenmove w\n");
    }
    let out = gtp(
        &["--visits", "24", "--threads", "2", "--batch", "2"],
        &input,
    );
    let moves: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("= ")).collect();
    assert_eq!(moves.len(), 12, "{out}");
    assert!(moves.iter().all(|m| *m != "resign"), "{out}");
    assert!(!out.contains('?'), "{out}");
}

/// Issue 40: `tengen gtp --level 1` and `--level 5` played on in a dead-lost 9x9 position where
/// the server's bots resigned. Every engine now follows one policy (`tengen_ai::manners`): a
/// game the estimator finds clearly lost is resigned before any search, at every level; with
/// `--no-resign` the engine plays on. (The search's own resignation, which needs three
/// hopeless moves in a row, is tested with the policy.)
#[test]
fn every_level_resigns_a_dead_lost_game_and_no_resign_plays_on() {
    // Black holds one column of a 9x9 board against White's two walls.
    let dir = std::env::temp_dir().join(format!("tengen-resign-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sgf = dir.join("hopeless.sgf");
    let col = |c: char| {
        (b'a'..=b'i')
            .map(|r| format!("[{c}{}]", r as char))
            .collect::<String>()
    };
    std::fs::write(
        &sgf,
        format!(
            "(;GM[1]FF[4]SZ[9]KM[7]RU[Chinese]AB{}AW{}{}PL[B])",
            col('b'),
            col('c'),
            col('g')
        ),
    )
    .unwrap();
    let input = format!("loadsgf {}\ngenmove b\n", sgf.display());
    for args in [
        &["--level", "1"][..],
        &["--level", "5"],
        &["--visits", "50", "--threads", "1"],
        &["--engine", "mcts", "--playouts", "500"],
    ] {
        let out = gtp(args, &input);
        let answers: Vec<&str> = out.lines().filter(|l| l.starts_with('=')).collect();
        assert_eq!(answers, ["=", "= resign"], "{args:?}: {out}");
    }
    let out = gtp(&["--level", "5", "--no-resign"], &input);
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with('=')).collect();
    assert_eq!(answers.len(), 2, "{out}");
    assert_ne!(answers[1], "= resign", "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_network_moves_under_every_clock() {
    for clock in [
        "time_settings 0 1 1",
        "kgs-time_settings byoyomi 0 0.3 3",
        "kgs-time_settings canadian 0 1 4",
        "kgs-time_settings absolute 5",
    ] {
        let input = format!("boardsize 9\n{clock}\ntime_left b 0.3 1\ngenmove b\ngenmove w\n");
        let out = gtp(&["--threads", "2"], &input);
        let moves: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("= ")).collect();
        assert_eq!(moves.len(), 2, "{clock}: {out}");
        assert!(!out.contains('?'), "{clock}: {out}");
    }
}

#[test]
fn kata_genmove_analyze_reports_then_plays_the_move_genmove_plays() {
    let args = ["--visits", "30", "--threads", "1", "--seed", "4"];
    let out = gtp(
        &args,
        "boardsize 9\n3 kata-genmove_analyze B 1 maxmoves 2 rootInfo true\nshowboard\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[..3], ["=", "", "=3"], "{out}");
    let play = lines.iter().position(|l| l.starts_with("play ")).unwrap();
    assert!(play > 3, "reports before the move: {out}");
    assert!(
        lines[3..play].iter().all(|l| l.starts_with("info move ")),
        "{out}"
    );
    // The last report is of the whole search.
    assert!(lines[play - 1].contains("rootInfo visits 30 "), "{out}");
    assert_eq!(lines[play + 1], "", "{out}");
    // The move is played, and it is the one plain genmove chooses (slices change nothing).
    let mv = lines[play].strip_prefix("play ").unwrap();
    assert!(lines[play + 2].starts_with("= "), "{out}");
    let plain = gtp(&args, "boardsize 9\ngenmove b\n");
    assert!(plain.contains(&format!("= {mv}\n")), "{mv}: {plain}");
}

/// `--visits` counts the root's visits as KataGo's `maxVisits` does: White's search goes on
/// from the subtree of Black's move (most of Black's 30 visits), and stops when the root holds
/// 30, not 30 more (before, it searched 30 more on top of the reused ones).
#[test]
fn visits_count_the_roots_visits_with_the_reused_ones() {
    let args = ["--visits", "30", "--threads", "1", "--seed", "4"];
    let out = gtp(
        &args,
        "boardsize 9\ngenmove b\n3 kata-genmove_analyze W 1 maxmoves 2 rootInfo true\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    let play = lines.iter().position(|l| l.starts_with("play ")).unwrap();
    assert!(lines[play - 1].contains("rootInfo visits 30 "), "{out}");
}
