//! A game's history beyond its moves: set-up positions, handicap stones kept as such, set-up
//! changes between moves, komi and rules changed mid-game, and Tromp-Taylor's "every stone on
//! the board is alive".

#![allow(clippy::unwrap_used)]

use tengen_rules::coord::gtp;
use tengen_rules::{
    Board, Color, Game, GameError, Handicap, Komi, Move, Phase, Point, Preset, Step,
};

fn pt(size: u8, v: &str) -> Point {
    gtp::parse_point(size, v).expect("vertex")
}

fn play(g: &mut Game, c: Color, v: &str) {
    let size = g.size();
    g.play(c, Move::Play(pt(size, v))).unwrap();
}

/// A 19x19 four-stone handicap game set up as a record does it (stones on the board, then
/// White first), with a few moves.
fn handicap_game() -> Game {
    let stones: Vec<Point> = ["D4", "Q16", "D16", "Q4"]
        .iter()
        .map(|v| pt(19, v))
        .collect();
    let mut board = Board::new(19);
    let setup: Vec<_> = stones.iter().map(|&p| (p, Some(Color::Black))).collect();
    board.setup(&setup).unwrap();
    let mut g =
        Game::from_handicap_board(board, stones, Color::White, Preset::Chinese.rules(19)).unwrap();
    play(&mut g, Color::White, "C3");
    play(&mut g, Color::Black, "D3");
    g
}

#[test]
fn komi_changes_the_count_and_nothing_else() {
    let mut g = handicap_game();
    let board = g.board().clone();
    g.set_komi(Komi::from_halves(1));
    assert_eq!(g.rules().komi, Komi::from_halves(1));
    assert_eq!(g.board(), &board, "the position stands");
    assert_eq!(g.handicap_stones().len(), 4, "the handicap stands");
    assert_eq!(g.ply_count(), 2, "the history stands");
    assert_eq!(g.to_move(), Color::White);
}

#[test]
fn other_rules_keep_the_handicap_stones_and_the_moves() {
    let g = handicap_game();
    for p in Preset::ALL {
        if !p.allows_size(19) {
            assert!(g.with_rules(p.rules(19)).is_err(), "{p}");
            continue;
        }
        let h = g.with_rules(p.rules(19)).unwrap();
        assert_eq!(h.board(), g.board(), "{p}");
        assert_eq!(h.handicap_stones(), g.handicap_stones(), "{p}");
        assert_eq!(h.moves().collect::<Vec<_>>(), g.moves().collect::<Vec<_>>());
        assert_eq!(h.rules(), &p.rules(19));
    }
    // The area count compensates the four handicap stones under Chinese rules.
    let mut g = g;
    g.pass(Color::White).unwrap();
    g.pass(Color::Black).unwrap();
    assert_eq!(g.score().white.handicap_bonus, 4);
}

#[test]
fn a_move_the_new_rules_forbid_refuses_the_change() {
    // Multi-stone suicide: legal under Tromp-Taylor, not under Japanese rules.
    let b: Board = "X O . .
                    . O . .
                    O . . .
                    . . . ."
        .parse()
        .unwrap();
    let mut g = Game::from_board(b, Color::Black, Preset::TrompTaylor.rules(4)).unwrap();
    play(&mut g, Color::Black, "A3");
    let err = g.with_rules(Preset::Japanese.rules(4)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "move 1 is illegal under these rules: the move is suicide"
    );
    assert!(g.with_rules(Preset::Nz.rules(4)).is_ok());
}

#[test]
fn setup_between_moves_is_history() {
    let mut g = Game::new(9, Preset::Japanese.rules(9), Handicap::None).unwrap();
    play(&mut g, Color::Black, "E5");
    let c3 = pt(9, "C3");
    let e5 = pt(9, "E5");
    g.edit(&[(c3, Some(Color::White)), (e5, None)], Color::Black)
        .unwrap();
    assert_eq!(g.board().get(c3), Some(Color::White));
    assert_eq!(g.board().get(e5), None);
    assert_eq!(g.to_move(), Color::Black);
    play(&mut g, Color::Black, "D4");
    assert_eq!(
        g.history(),
        vec![
            Step::Move(Color::Black, Move::Play(e5)),
            Step::Setup {
                stones: &[(c3, Some(Color::White)), (e5, None)],
                to_move: Color::Black
            },
            Step::Move(Color::Black, Move::Play(pt(9, "D4"))),
        ]
    );
    // Other rules replay the edit too.
    let h = g.with_rules(Preset::Chinese.rules(9)).unwrap();
    assert_eq!(h.board(), g.board());
    // Undo takes back the last move, then the edit with the move before it.
    g.undo(1).unwrap();
    assert_eq!(g.board().get(c3), Some(Color::White));
    g.undo(1).unwrap();
    assert_eq!(g.board().get(c3), None);
    assert_eq!(g.board().get(e5), None);
    assert!(g.is_at_start());
}

#[test]
fn a_bad_edit_changes_nothing() {
    let mut g = Game::new(5, Preset::Japanese.rules(5), Handicap::None).unwrap();
    play(&mut g, Color::Black, "A1");
    let before = g.board().clone();
    // White stones on B1 and A2 leave the black stone on A1 without liberties.
    let err = g
        .edit(
            &[
                (pt(5, "B1"), Some(Color::White)),
                (pt(5, "A2"), Some(Color::White)),
            ],
            Color::White,
        )
        .unwrap_err();
    assert_eq!(err, GameError::SetupWithoutLiberties);
    assert_eq!(g.board(), &before);
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.history().len(), 1);
}

#[test]
fn tromp_taylor_counts_every_stone_on_the_board() {
    // A lone black stone in White's area: dead under agreement, alive under Tromp-Taylor.
    let b: Board = ". O
                    X O"
    .parse()
    .unwrap();
    for (preset, alive) in [(Preset::TrompTaylor, true), (Preset::Chinese, false)] {
        let mut g = Game::from_board(b.clone(), Color::Black, preset.rules(2)).unwrap();
        g.pass(Color::Black).unwrap();
        g.pass(Color::White).unwrap();
        assert_eq!(g.phase(), Phase::Scoring);
        let marked = g.toggle_dead(pt(2, "A1"));
        if alive {
            assert_eq!(marked, Err(GameError::AllStonesAlive), "{preset}");
            assert_eq!(g.set_dead(&[pt(2, "A1")]), Err(GameError::AllStonesAlive));
            assert_eq!(g.set_dead(&[]), Ok(()));
            // Even a dead set handed to the count directly is not taken off.
            let s = tengen_rules::scoring::score(
                g.board(),
                &[pt(2, "A1")].into_iter().collect(),
                g.rules(),
                0,
            );
            assert_eq!(s.black.stones, 1);
            assert_eq!(s.white.stones, 2);
            assert_eq!(s.black.territory + s.white.territory, 0, "A2 touches both");
        } else {
            assert!(marked.is_ok(), "{preset}");
            assert_eq!(g.score().white.territory, 2);
        }
    }
}
