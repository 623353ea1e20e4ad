//! The edge cases real records hit: moves of one colour in a row, set-up stones in later nodes,
//! `PL`, handicap records, and property values that cannot be read.

#![allow(clippy::unwrap_used)]

use tengen_rules::coord::sgf as coord;
use tengen_rules::{Color, Komi, Move, Point, Preset, Step};
use tengen_sgf::game::{check, record, replay, GameInfo, RecordError, Severity};
use tengen_sgf::{parse_str, write_game};

fn tree(s: &str) -> tengen_sgf::GameTree {
    parse_str(s).unwrap().games.remove(0)
}

fn pt(size: u8, v: &str) -> Point {
    coord::parse_point(size, v).unwrap()
}

#[test]
fn b_after_b_is_replayed_with_the_colour_of_the_property() {
    // An edited record: Black plays twice, then White answers.
    let r = replay(&tree("(;SZ[9];B[ee];W[cc];B[gc];B[gg];W[cg])"), None).unwrap();
    assert_eq!(r.game.ply_count(), 5);
    let colours: Vec<Color> = r.game.moves().map(|(c, _)| c).collect();
    use Color::{Black as B, White as W};
    assert_eq!(colours, vec![B, W, B, B, W]);
    assert_eq!(r.game.board().stone_count(Color::Black), 3);
    assert_eq!(r.problems.len(), 1);
    assert_eq!(r.problems[0].severity(), Severity::Warning);
    assert!(r.first_error().is_none());
    assert!(r.first_fault().is_none());
}

#[test]
fn setup_in_later_nodes_is_honoured_and_written_back() {
    // A teaching record: after two moves the teacher adds a white stone, removes Black's
    // first stone, and says Black is to play.
    let t = tree("(;SZ[9];B[ee];W[cc];AW[gg]AE[ee]PL[B];B[dd];W[ef])");
    let r = replay(&t, None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let b = r.game.board();
    assert_eq!(b.get(pt(9, "ee")), None, "AE removed the stone");
    assert_eq!(b.get(pt(9, "gg")), Some(Color::White));
    assert_eq!(b.get(pt(9, "dd")), Some(Color::Black));
    assert_eq!(r.game.ply_count(), 4);
    assert!(matches!(
        r.game.history()[2],
        Step::Setup {
            to_move: Color::Black,
            ..
        }
    ));
    // Written back as a setup node, and read again to the same position.
    let text = write_game(&record(&r.game, Some(r.preset), &GameInfo::default()));
    assert!(text.contains(";AE[ee]AW[gg]PL[B]"), "{text}");
    let again = replay(&tree(&text), None).unwrap();
    assert_eq!(again.game.board(), r.game.board());
    assert!(again.problems.is_empty(), "{:?}", again.problems);
}

#[test]
fn pl_at_the_root_says_who_starts() {
    let r = replay(&tree("(;SZ[9]AB[cc][dd]AW[ee]PL[W])"), None).unwrap();
    assert_eq!(r.game.to_move(), Color::White);
    let text = write_game(&record(&r.game, None, &GameInfo::default()));
    assert!(text.contains("PL[W]"), "{text}");
    assert!(
        text.contains("AB[cc][dd]") && text.contains("AW[ee]"),
        "{text}"
    );
    let r = replay(&tree("(;SZ[9]AB[cc]PL[B])"), None).unwrap();
    assert_eq!(r.game.to_move(), Color::Black);
}

#[test]
fn a_handicap_record_keeps_its_stones_through_komi_and_writing() {
    let t = tree("(;SZ[19]HA[4]KM[0.5]RU[Chinese]AB[dd][pd][dp][pp];W[qc];B[qd];W[pc])");
    let r = replay(&t, None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let mut g = r.game;
    assert_eq!(g.handicap_stones().len(), 4);
    assert_eq!(g.board().stone_count(Color::Black), 5);
    let board = g.board().clone();
    g.set_komi(Komi::points(0));
    assert_eq!(g.board(), &board);
    // Chinese counting compensates White for the four stones.
    g.pass(Color::Black).unwrap();
    g.pass(Color::White).unwrap();
    assert_eq!(g.score().white.handicap_bonus, 4);
    let text = write_game(&record(&g, Some(Preset::Chinese), &GameInfo::default()));
    assert!(
        text.contains("HA[4]") && text.contains("AB[dd][pd][dp][pp]"),
        "{text}"
    );
    assert!(text.contains(";W[qc];B[qd];W[pc]"), "{text}");
}

#[test]
fn a_handicap_recorded_as_black_moves_becomes_the_handicap() {
    let r = replay(
        &tree("(;SZ[19]HA[3]RU[Chinese];B[dp];B[pd];B[dd];W[pp];B[qj])"),
        None,
    )
    .unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(r.game.handicap_stones().len(), 3);
    assert_eq!(r.game.ply_count(), 2);
    assert_eq!(r.game.board().stone_count(Color::Black), 4);
    // Without HA the same moves stay moves.
    let r = replay(&tree("(;SZ[19];B[dp];B[pd];B[dd];W[pp])"), None).unwrap();
    assert!(r.game.handicap_stones().is_empty());
    assert_eq!(r.game.ply_count(), 4);
}

#[test]
fn bad_values_are_errors_with_their_place() {
    let r = replay(&tree("(;FF[4]SZ[9]\nKM[abc]HA[-3];B[ee];W[zz])"), None).unwrap();
    let errors: Vec<String> = r
        .problems
        .iter()
        .filter(|p| p.severity() == Severity::Error)
        .map(|p| p.to_string())
        .collect();
    assert_eq!(
        errors,
        vec![
            "line 2, column 1: KM[abc]: komi must be a whole or half number between \
             -1000 and 1000",
            "line 2, column 8: HA[-3]: a handicap cannot be negative",
            "line 2, column 21: move 2: W[zz]: not a point of this 9x9 board",
        ]
    );
    assert!(r.problems.iter().all(|p| p.prevents_loading()));
    assert_eq!(r.first_fault().unwrap().kind.code(), "bad_value");
    for (text, code, shown) in [
        (
            "(;SZ[0])",
            "bad_board_size",
            "line 1, column 3: SZ[0]: unsupported board size",
        ),
        (
            "(;SZ[30:2])",
            "bad_board_size",
            "line 1, column 3: SZ[30:2]: unsupported",
        ),
        ("(;SZ[ten])", "bad_board_size", "SZ[ten]"),
        (
            "(;FF[4]\n GM[6])",
            "not_go",
            "line 2, column 2: not a game of Go (GM[6])",
        ),
    ] {
        let e: RecordError = replay(&tree(text), None).unwrap_err();
        assert_eq!(e.code(), code, "{text}");
        assert!(e.to_string().contains(shown), "{text}: {e}");
        assert!(check(&tree(text), None).is_err());
    }
    // Off-board setup points, and a move value that is no point at all.
    let r = replay(&tree("(;SZ[9]AB[cc][zz];B[e])"), None).unwrap();
    let shown: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        shown,
        vec![
            "line 1, column 8: AB[zz]: not a point of this 9x9 board",
            "line 1, column 19: move 1: B[e]: not a point of this 9x9 board"
        ]
    );
}

#[test]
fn lenient_values_are_warnings() {
    let r = replay(&tree("(;SZ[9]HA[1]KM[];B[ee])"), None).unwrap();
    assert!(r.first_fault().is_none());
    assert!(r.first_error().is_none());
    let shown: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        shown,
        vec![
            "line 1, column 13: KM[]: no komi given; the rules' komi is used",
            "line 1, column 8: HA[1]: one handicap stone is an even game; read as no \
             handicap",
        ]
    );
    assert_eq!(r.info.handicap, 0);
    assert_eq!(r.game.rules().komi, Preset::Japanese.rules(9).komi);
    // HA[0] and a komi that is a number say nothing.
    assert!(replay(&tree("(;SZ[9]HA[0]KM[6.50])"), None)
        .unwrap()
        .problems
        .is_empty());
}

#[test]
fn a_truncated_record_replays_what_it_has() {
    let c = parse_str("(;SZ[9]KM[7];B[ee];W[cc];B[gg").unwrap();
    assert_eq!(c.warnings.len(), 1);
    let r = replay(&c.games[0], None).unwrap();
    assert!(r.problems.is_empty());
    assert_eq!(
        r.game.moves().collect::<Vec<_>>(),
        vec![
            (Color::Black, Move::Play(pt(9, "ee"))),
            (Color::White, Move::Play(pt(9, "cc"))),
        ]
    );
}
