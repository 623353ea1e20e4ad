//! Every puzzle replayed through the rules engine (each try and answer legal, each right line
//! solved, each wrong try judged wrong) and, in the ignored test, checked by the network: the
//! right move is the net's best and the marked stones change hands on every wrong try.

mod net;

use std::path::Path;

use tengen_ai::nn::{Evaluator, Model};
use tengen_learn::{puzzle, puzzles, Answer, Kind, Outcome, Puzzle, PUZZLE_FILES};
use tengen_rules::Move;

/// What is wrong with a puzzle by the rules, in words; empty when nothing is.
fn replay(p: &Puzzle) -> Vec<String> {
    let mut out = Vec::new();
    if p.step.targets.is_empty() {
        out.push(format!("{}: no marked stones", p.id));
    }
    if p.step.answers.iter().all(|a| a.right) {
        out.push(format!("{}: no wrong try to refute", p.id));
    }
    // Paths of right moves to walk, each with the tries it leads to.
    let mut todo: Vec<(Vec<Move>, &[Answer])> = vec![(Vec::new(), &p.step.answers)];
    while let Some((path, answers)) = todo.pop() {
        if answers.iter().filter(|a| a.right).count() != 1 {
            out.push(format!("{}: after {path:?}, not one right try", p.id));
        }
        for a in answers {
            let mut tried = path.clone();
            tried.push(a.mv);
            let Ok(v) = p.step.check(&tried) else {
                out.push(format!("{}: the path {tried:?} is refused", p.id));
                continue;
            };
            let expected = match (a.right, &a.reply) {
                (false, _) => Outcome::Wrong,
                (true, Some(_)) => Outcome::Continue,
                (true, None) => Outcome::Solved,
            };
            if v.outcome != expected {
                out.push(format!("{}: {tried:?} is {:?}", p.id, v.outcome));
            }
            if a.reply.is_some() && v.reply.is_none() {
                out.push(format!("{}: the answer to {tried:?} is illegal", p.id));
            }
            if !a.right && a.reply.is_none() {
                out.push(format!(
                    "{}: the wrong try {tried:?} has no refutation",
                    p.id
                ));
            }
            if let Some(r) = a.reply.as_ref().filter(|_| a.right) {
                todo.push((tried, &r.next));
            }
        }
    }
    out
}

#[test]
fn every_puzzle_reads_and_replays_by_the_rules() {
    let all = puzzles().expect("every puzzle reads");
    let found: Vec<String> = all.puzzles.iter().flat_map(replay).collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
    assert!(all.puzzles.len() >= 300, "{} puzzles", all.puzzles.len());
    for kind in Kind::ALL {
        assert!(
            all.puzzles.iter().any(|p| p.kind == kind),
            "no {kind:?} puzzle"
        );
    }
}

#[test]
fn every_puzzle_file_on_disk_is_embedded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../learn/puzzles");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("learn/puzzles")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = PUZZLE_FILES
        .iter()
        .map(|(id, _)| format!("{id}.sgf"))
        .collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
    for (id, text) in PUZZLE_FILES {
        let disk = std::fs::read_to_string(dir.join(format!("{id}.sgf"))).expect("a puzzle file");
        assert_eq!(&disk, text, "{id} is embedded as it is on disk");
    }
}

/// A puzzle whose wrong try is the right one: the rules replay cannot see that, the net
/// must (a test of the test), and a puzzle whose refutation is missing is found by the rules.
#[test]
fn a_puzzle_without_a_refutation_is_found() {
    let q = "C[x]CKO[x]CJA[x]CZH[x]";
    let text = format!(
        "(;SZ[5]ID[t]LV[20k]KIND[tesuji]AB[cb][bc][dc]AW[cc]TR[cc]{q}(;B[cd]TE[1])(;B[aa]BM[1]))"
    );
    let p = puzzle::read("t", &text).expect("it reads");
    let found = replay(&p[0]);
    assert!(
        found.iter().any(|f| f.contains("no refutation")),
        "{found:?}"
    );
}

/// Checks every puzzle with the built-in net (a few minutes in a debug build: CI runs it with
/// `--include-ignored`).
#[test]
#[ignore = "the network's check of every puzzle takes minutes; CI runs it"]
fn every_puzzle_is_the_networks_best_and_a_wrong_try_loses_the_stones() {
    let eval = Evaluator::new(Model::builtin().expect("the built-in net"));
    let failed: Vec<String> = puzzles()
        .expect("every puzzle reads")
        .puzzles
        .iter()
        .filter_map(|p| {
            net::verify(&eval, p)
                .err()
                .map(|e| format!("{}: {e}", p.id))
        })
        .collect();
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The net's check refuses a puzzle whose right answer is wrong.
#[test]
fn the_networks_check_refuses_a_wrong_answer() {
    let q = "C[x]CKO[x]CJA[x]CZH[x]";
    // White's stone at C3 has one liberty: C2 captures it; A1 does nothing.
    let text = format!(
        "(;SZ[7]KM[7.5]RU[chinese]ID[t]LV[20k]KIND[tesuji]AB[cb][bc][dc]AW[cc]TR[cc]{q}(;B[aa]TE[1])(;B[cd]BM[1];W[dd]))"
    );
    let p = puzzle::read("t", &text).expect("it reads");
    let eval = Evaluator::new(Model::builtin().expect("the built-in net"));
    assert!(net::verify(&eval, &p[0]).is_err());
}
