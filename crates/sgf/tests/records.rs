//! Records to games and back.

#![allow(clippy::unwrap_used)]

use tengen_rules::playout::Rng;
use tengen_rules::{Color, Game, GameError, Handicap, Move, Phase, Preset};
use tengen_sgf::game::{check, info, record, replay, GameInfo, ProblemKind, Severity};
use tengen_sgf::{parse_str, write_game};

fn tree(s: &str) -> tengen_sgf::GameTree {
    parse_str(s).unwrap().games.remove(0)
}

#[test]
fn game_information() {
    let t = tree("(;GM[1]FF[4]SZ[13]KM[6.5]HA[0]RU[Tromp/Taylor]RE[W+R]PB[Ann\\] B]BR[3d]DT[2024-01-01]TM[600]OT[5x30 byo-yomi])");
    let i = info(&t).unwrap();
    assert_eq!(i.size, 13);
    assert_eq!(i.komi.unwrap().to_string(), "6.5");
    assert_eq!(i.preset, Some(Preset::TrompTaylor));
    assert_eq!(i.result.unwrap().to_string(), "W+R");
    assert_eq!(i.black.as_deref(), Some("Ann] B"));
    assert_eq!(i.main_time, Some(600.0));
    assert_eq!(
        info(&tree("(;SZ[19:13])")).unwrap_err().code(),
        "bad_board_size"
    );
    assert_eq!(
        info(&tree("(;SZ[26])")).unwrap_err().code(),
        "bad_board_size"
    );
    assert_eq!(info(&tree("(;GM[2])")).unwrap_err().code(), "not_go");
}

#[test]
fn handicap_setup_then_white_moves() {
    let r = replay(
        &tree("(;SZ[9]HA[2]AB[gc][cg];W[ee];B[dd])"),
        Some(Preset::Japanese),
    )
    .unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(r.game.board().stone_count(Color::Black), 3);
    assert_eq!(r.game.to_move(), Color::White);
}

#[test]
fn passes_and_tt() {
    let r = replay(&tree("(;SZ[19];B[tt];W[])"), None).unwrap();
    assert_eq!(r.game.phase(), Phase::Scoring);
    let r = replay(&tree("(;SZ[21];B[tt])"), Some(Preset::Chinese)).unwrap();
    assert_eq!(
        r.game.board().stone_count(Color::Black),
        1,
        "tt is a point on 21x21"
    );
}

#[test]
fn illegal_moves_are_reported_with_their_number() {
    let r = replay(
        &tree("(;SZ[9];B[aa];W[aa];W[bb];B[zz])"),
        Some(Preset::Chinese),
    )
    .unwrap();
    let kinds: Vec<String> = r.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(kinds.len(), 2, "{kinds:?}");
    assert_eq!(
        kinds[0],
        "line 1, column 15: move 2: W[aa] the point is occupied (occupied), skipped"
    );
    assert_eq!(
        kinds[1],
        "line 1, column 27: move 4: B[zz]: not a point of this 9x9 board"
    );
    assert!(r.problems.iter().all(|p| p.severity() == Severity::Error));
    assert!(r.problems.iter().all(|p| p.prevents_loading()));
    // The skipped move left White to move, so W[bb] was in turn. Two white moves in a row are
    // played as recorded, with a warning.
    let r = replay(&tree("(;SZ[9];B[aa];W[bb];W[cc])"), Some(Preset::Chinese)).unwrap();
    assert_eq!(r.problems.len(), 1);
    assert_eq!(r.problems[0].severity(), Severity::Warning);
    assert_eq!(r.problems[0].kind.code(), "out_of_turn");
    assert_eq!(
        r.problems[0].to_string(),
        "line 1, column 21: move 3: W[cc] is a second white move in a row; replayed as recorded"
    );
    assert_eq!(r.game.board().stone_count(Color::White), 2);
    assert_eq!(r.game.to_move(), Color::Black);
}

#[test]
fn a_ko_violation_is_played_and_reported() {
    // Black takes the ko at cb, White retakes at bb, Black retakes at once: a ko violation.
    let t = tree("(;SZ[5]AB[ba][ab][bc]AW[ca][db][cc];B[cb];W[bb];B[cb])");
    let r = replay(&t, Some(Preset::Japanese)).unwrap();
    assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
    match &r.problems[0].kind {
        ProblemKind::Move { error, played, .. } => {
            assert_eq!(*error, GameError::Ko);
            assert!(*played, "tolerant replay plays it anyway");
        }
        k => panic!("{k:?}"),
    }
    assert_eq!(r.problems[0].move_number, 3);
}

#[test]
fn every_variation_is_checked() {
    let t = tree("(;SZ[9];B[ee](;W[ee])(;W[dd];B[dd]))");
    let problems = check(&t, None).unwrap();
    assert_eq!(problems.len(), 2);
    assert_eq!(problems[0].variation, vec![0]);
    assert_eq!(problems[1].variation, vec![1]);
    assert_eq!(problems[1].move_number, 3);
}

#[test]
fn a_random_game_survives_a_round_trip() {
    let mut rng = Rng::new(0x2EC02D);
    for size in [5u8, 9, 13, 19, 25] {
        let rules = Preset::Chinese.rules(size);
        let mut g = Game::new(size, rules, Handicap::None).unwrap();
        for _ in 0..(size as u32 * size as u32) {
            let legal = g.legal_points();
            let mv = if legal.is_empty() || rng.below(30) == 0 {
                Move::Pass
            } else {
                Move::Play(legal[rng.below(legal.len() as u32) as usize])
            };
            if g.play(g.to_move(), mv).is_err() || g.phase() != Phase::Play {
                break;
            }
        }
        let info = GameInfo {
            black: Some("Black [1]".into()),
            ..GameInfo::default()
        };
        let text = write_game(&record(&g, Some(Preset::Chinese), &info));
        let r = replay(&parse_str(&text).unwrap().games[0], None).unwrap();
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.preset, Preset::Chinese);
        assert_eq!(r.game.board(), g.board());
        assert_eq!(
            r.game.moves().collect::<Vec<_>>(),
            g.moves().collect::<Vec<_>>()
        );
        assert_eq!(r.info.black.as_deref(), Some("Black [1]"));
    }
}

#[test]
fn first_moves_of_one_colour_are_not_out_of_turn() {
    // A problem that starts with White, and handicap recorded as Black's first moves.
    let r = replay(&tree("(;SZ[9]AB[cc];W[ee];B[dd])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let r = replay(&tree("(;SZ[19];B[dp];B[pd];B[dd];W[pp];B[qj])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    // Later, the turn is checked.
    let r = replay(&tree("(;SZ[9];B[aa];W[bb];W[cc])"), None).unwrap();
    assert_eq!(r.problems.len(), 1);
    assert_eq!(r.problems[0].kind.code(), "out_of_turn");
}

#[test]
fn a_node_without_a_move_between_two_moves_of_one_colour_is_a_pass() {
    // Many Faces of Go: `;W[be];;W[fb]` and `;C[W pass (?)];B[id]`.
    let r = replay(&tree("(;SZ[9];B[aa];W[be];;W[fb])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    assert_eq!(r.game.moves().nth(2), Some((Color::Black, Move::Pass)));
    let r = replay(&tree("(;SZ[9];B[aa];W[be];B[cc];C[W pass];B[dd])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    // A comment node between alternating moves changes nothing.
    let r = replay(&tree("(;SZ[9];B[aa];C[nice];W[be])"), None).unwrap();
    assert_eq!(r.game.ply_count(), 2);
}

#[test]
fn pl_beside_a_move_applies_after_it() {
    // CGoban writes `;W[kq]PL[B]`.
    let r = replay(&tree("(;SZ[19];B[pd];W[kq]PL[B];B[fc])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
    let r = replay(&tree("(;SZ[9]AB[cc]PL[W];W[ee])"), None).unwrap();
    assert!(r.problems.is_empty(), "{:?}", r.problems);
}

#[test]
fn time_left_properties_on_move_nodes() {
    let t = tree("(;SZ[9]TM[600]OT[25/600 Canadian];B[ee]BL[587.5]OB[0];W[cc]WL[30]OW[25])");
    let line = t.main_line();
    assert_eq!(line[1].real("BL"), Some(587.5));
    assert_eq!(line[1].number("OB"), Some(0));
    assert_eq!(line[2].real("WL"), Some(30.0));
    assert_eq!(line[2].number("OW"), Some(25));
    assert_eq!(line[2].real("KM"), None);
    assert_eq!(
        info(&t).unwrap().overtime.as_deref(),
        Some("25/600 Canadian")
    );
}
