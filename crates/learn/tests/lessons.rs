//! Every lesson replayed through the rules engine, so that no lesson can go stale: each step has
//! a move that does what it asks, each foreseen try is legal, each right one does what the step
//! asks (captures, saves, connects, lives) and each wrong one does not, each count the lesson's
//! words give is the engine's count, and every file on disk is one a learner gets.

use std::path::Path;

use tengen_learn::{lesson, library, Answer, Goal, Lesson, Outcome, Step, FILES};
use tengen_rules::{Game, Move, Preset};

/// What is wrong with a lesson, in words; empty when nothing is.
fn problems(lesson: &Lesson) -> Vec<String> {
    let mut out = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        let at = format!("{} step {}", lesson.id, i + 1);
        match step.goal {
            Goal::Count => match (
                &step.claimed,
                step.check_count(step.claimed.as_deref().unwrap_or("")),
            ) {
                (Some(_), Some(true)) => {}
                (claimed, _) => out.push(format!(
                    "{at}: says {claimed:?}, the engine counts {}",
                    step.count().result
                )),
            },
            Goal::Win | Goal::Play => {
                let size = step.start.size();
                if step.goal == Goal::Win
                    && (step.preset != Preset::FirstCapture || !(5..=9).contains(&size))
                {
                    out.push(format!(
                        "{at}: a First Capture game is first-capture on 5x5 to 9x9"
                    ));
                }
            }
            _ => {
                if !solvable(step) {
                    out.push(format!("{at}: no move does what the step asks"));
                }
                tries(
                    step,
                    &step.start,
                    &step.answers,
                    &mut Vec::new(),
                    &at,
                    &mut out,
                );
            }
        }
    }
    out
}

/// Whether some move solves the step.
fn solvable(step: &Step) -> bool {
    if step.answers.iter().any(|a| a.right) {
        return true;
    }
    step.start.legal_points().into_iter().any(|p| {
        step.check(&[Move::Play(p)])
            .is_ok_and(|v| v.outcome == Outcome::Solved)
    })
}

/// Walks the foreseen tries from `game`, reached by the learner's `path`.
fn tries(
    step: &Step,
    game: &Game,
    answers: &[Answer],
    path: &mut Vec<Move>,
    at: &str,
    out: &mut Vec<String>,
) {
    for a in answers {
        path.push(a.mv);
        let Ok(verdict) = step.check(path) else {
            out.push(format!("{at}: the path {path:?} is refused"));
            path.pop();
            continue;
        };
        let mut after = game.clone();
        if verdict.outcome == Outcome::Illegal || after.play(step.learner, a.mv).is_err() {
            out.push(format!(
                "{at}: {:?} is illegal ({:?})",
                a.mv, verdict.refused
            ));
            path.pop();
            continue;
        }
        let goal = step
            .goal
            .judge(game, &after, step.learner, a.mv, &step.targets);
        match (a.right, &a.reply) {
            (true, None) if step.goal != Goal::Listed && goal.is_err() => {
                out.push(format!(
                    "{at}: the right try {:?} does not do what the step asks: {goal:?}",
                    a.mv
                ));
            }
            (false, _) if step.goal != Goal::Listed && goal.is_ok() => {
                out.push(format!(
                    "{at}: the wrong try {:?} does what the step asks",
                    a.mv
                ));
            }
            (true, Some(reply)) => {
                if after.play(step.learner.opponent(), reply.mv).is_err() {
                    out.push(format!("{at}: the reply {:?} is illegal", reply.mv));
                } else {
                    tries(step, &after, &reply.next, path, at, out);
                }
                if reply.next.iter().all(|n| !n.right) {
                    out.push(format!("{at}: after {:?} nothing is right", a.mv));
                }
            }
            _ => {}
        }
        if a.reply
            .as_ref()
            .is_some_and(|r| !a.right && r.next.iter().any(|n| n.right))
        {
            out.push(format!("{at}: a wrong try goes on"));
        }
        path.pop();
    }
}

#[test]
fn every_lesson_reads_and_teaches_what_it_says() {
    let lessons = library().expect("every lesson reads");
    assert_eq!(lessons.lessons.len(), FILES.len());
    let found: Vec<String> = lessons.lessons.iter().flat_map(problems).collect();
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn every_lesson_file_on_disk_is_embedded() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../learn/lessons");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("learn/lessons")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    on_disk.sort();
    let mut embedded: Vec<String> = FILES.iter().map(|(id, _)| format!("{id}.sgf")).collect();
    embedded.sort();
    assert_eq!(on_disk, embedded);
    for (id, text) in FILES {
        let disk = std::fs::read_to_string(dir.join(format!("{id}.sgf"))).expect("a lesson file");
        assert_eq!(&disk, text, "{id} is embedded as it is on disk");
    }
}

/// A lesson whose right answer no longer captures: the check must notice (a test of the test).
#[test]
fn a_stale_lesson_is_found() {
    let stale = "(;SZ[5]AB[cb][bc][dc]AW[cc]GN[x]GNKO[x]GNJA[x]GNZH[x]GOAL[capture]TR[cc]\
                 C[x]CKO[x]CJA[x]CZH[x];B[aa]TE[1])";
    let lesson = lesson::read("stale", stale).expect("it reads");
    let found = problems(&lesson);
    assert!(
        found
            .iter()
            .any(|p| p.contains("does not do what the step asks")),
        "{found:?}"
    );
    let wrong_count =
        "(;SZ[5]AB[aa]GN[x]GNKO[x]GNJA[x]GNZH[x]GOAL[count]RE[W+3]C[x]CKO[x]CJA[x]CZH[x])";
    let found = problems(&lesson::read("count", wrong_count).expect("it reads"));
    assert!(
        found.iter().any(|p| p.contains("the engine counts")),
        "{found:?}"
    );
}

#[test]
fn a_translation_left_out_is_refused() {
    let half = "(;SZ[5]GN[x]GNKO[x]GNJA[x]GNZH[x]GOAL[legal]C[Play]CKO[두세요]CJA[打って])";
    let err = lesson::read("half", half).expect_err("Chinese is missing");
    assert!(err.to_string().contains("CZH"), "{err}");
}

/// The ladder lesson teaches what the engine's ladder reader sees: in its first step the
/// ladder works (the right atari catches the stone), in the net step it fails (every atari the
/// lesson calls wrong lets the stone run to the breaker), so the net is the way to capture.
#[test]
fn the_ladder_step_s_ladder_works_and_the_net_step_s_fails() {
    let lesson = library()
        .expect("lessons")
        .lesson("06-ladder")
        .expect("the ladder lesson");
    let caught = |step: &Step, a: &Answer| {
        let Move::Play(p) = a.mv else {
            panic!("an atari is a stone")
        };
        let target = step.targets[0];
        let mut board = step.start.board().clone();
        board.play(p, step.learner);
        let lib = board.atari_liberty(target).expect("the try is atari");
        tengen_ai::ladder::is_caught(&mut board, target, lib)
    };
    let ladder = &lesson.steps[0];
    let first = ladder
        .answers
        .iter()
        .find(|a| a.right)
        .expect("a right try");
    assert!(caught(ladder, first), "the ladder catches");
    let net = lesson
        .steps
        .iter()
        .find(|s| s.start.size() == 9)
        .expect("the net step");
    let ataris: Vec<&Answer> = net.answers.iter().filter(|a| !a.right).collect();
    assert_eq!(ataris.len(), 2, "both ataris are foreseen");
    for a in ataris {
        assert!(!caught(net, a), "{:?}: the ladder must fail", a.mv);
    }
}
