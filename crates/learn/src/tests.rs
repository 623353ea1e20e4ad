//! The teacher's verdicts on the first lessons, as a learner meets them.

use tengen_rules::coord::gtp;
use tengen_rules::Move;

use crate::{library, Miss, Outcome};

fn at(size: u8, v: &str) -> Move {
    gtp::parse_move(size, v).expect("a vertex")
}

#[test]
fn a_capture_is_solved_and_a_move_elsewhere_says_how_many_liberties_are_left() {
    let step = &library()
        .expect("lessons")
        .lesson("02-capture")
        .expect("capture")
        .steps[0];
    let v = step.check(&[at(5, "C2")]).expect("a move step");
    assert_eq!(v.outcome, Outcome::Solved);
    assert!(v.says.is_some(), "the lesson's praise");
    assert_eq!(v.board[2], ".X.X.", "the captured stone is gone");
    let v = step.check(&[at(5, "A1")]).expect("a move step");
    assert_eq!(v.outcome, Outcome::Wrong);
    assert_eq!(v.miss, Some(Miss::NoCapture { liberties: 1 }));
}

#[test]
fn an_illegal_move_is_refused_with_the_engines_reason() {
    let step = &library()
        .expect("lessons")
        .lesson("02-capture")
        .expect("capture")
        .steps[0];
    let v = step.check(&[at(5, "C3")]).expect("a move step");
    assert_eq!(v.outcome, Outcome::Illegal);
    assert_eq!(v.refused, Some("occupied"));
}
