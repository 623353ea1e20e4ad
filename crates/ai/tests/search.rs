//! The search: reproducible, legal under every preset, tactically sound on the suite in
//! `tests/tactics/` (SGF positions with the expected move in the root comment), and sensible
//! about passing, resigning and First Capture Go.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use tengen_ai::search::{analyze, genmove, Budget, Decision, Style};
use tengen_rules::coord::gtp;
use tengen_rules::{Board, Color, Game, Handicap, Move, Phase, Preset};

/// Loads a tactics position: the game, who is to move, the acceptable moves (`expect:` in the
/// root comment; empty when only `avoid:` is given) and the moves that lose (`avoid:`).
fn position(name: &str) -> (Game, Color, Vec<Move>, Vec<Move>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/tactics")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let c = tengen_sgf::parse_str(&text).unwrap();
    let r = tengen_sgf::game::replay(&c.games[0], None).unwrap();
    assert!(r.first_fault().is_none(), "{name}: {:?}", r.problems);
    let comment = c.games[0].root().unwrap().text("C").unwrap();
    let size = r.game.size();
    let moves = |key: &str| -> Vec<Move> {
        comment
            .lines()
            .filter_map(|l| l.strip_prefix(key))
            .flat_map(|l| l.split_whitespace())
            .map(|v| gtp::parse_move(size, v).unwrap())
            .collect()
    };
    let (expect, avoid) = (moves("expect:"), moves("avoid:"));
    assert!(
        !expect.is_empty() || !avoid.is_empty(),
        "{name}: no 'expect:' or 'avoid:' line"
    );
    let color = r.game.to_move();
    (r.game, color, expect, avoid)
}

#[test]
fn the_tactical_suite_is_solved() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/tactics");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    names.sort();
    assert!(names.len() >= 9);
    let mut failures = Vec::new();
    let show = |size: u8, moves: &[Move]| -> Vec<String> {
        moves.iter().map(|&m| gtp::format_move(size, m)).collect()
    };
    for name in &names {
        let (game, color, expected, avoided) = position(name);
        let a = analyze(&game, color, &Budget::playouts(3000, 7));
        let best = a.best().unwrap().mv;
        let wrong = (!expected.is_empty() && !expected.contains(&best)) || avoided.contains(&best);
        if wrong {
            failures.push(format!(
                "{name}: played {}, expected {:?}, to avoid {:?}",
                gtp::format_move(game.size(), best),
                show(game.size(), &expected),
                show(game.size(), &avoided)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_fixed_seed_and_count_give_the_same_search() {
    let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
    g.play(Color::Black, Move::Play(gtp::parse_point(9, "E5").unwrap()))
        .unwrap();
    let budget = Budget::playouts(2000, 11);
    let a = analyze(&g, Color::White, &budget);
    let b = analyze(&g, Color::White, &budget);
    assert_eq!(a.playouts, b.playouts);
    assert_eq!(a.moves, b.moves);
    // Another seed searches differently.
    let c = analyze(&g, Color::White, &Budget::playouts(2000, 12));
    assert_ne!(a.moves, c.moves);
    // Two threads share one tree: the timing of the threads shapes it, but the count of
    // playouts is the one asked for, and every playout reached a root move.
    let two = Budget {
        threads: 2,
        ..budget
    };
    let d = analyze(&g, Color::White, &two);
    assert_eq!(d.playouts, 2000);
    assert_eq!(d.moves.iter().map(|m| m.visits).sum::<u32>(), 2000);
}

#[test]
fn the_search_never_plays_a_move_the_rules_forbid() {
    // Self-play on small boards, every preset: each chosen move must be accepted by the referee
    // (superko, suicide and ko included), and every game must end.
    for preset in Preset::ALL {
        let size = if preset == Preset::Wga { 9 } else { 5 };
        let mut g = Game::new(size, preset.rules(size), Handicap::None).unwrap();
        let style = Style { resign_below: None };
        let mut seed = 1;
        while g.phase() == Phase::Play && g.ply_count() < 4 * size as usize * size as usize {
            let color = g.to_move();
            seed += 1;
            let (d, _) = genmove(&g, color, &Budget::playouts(150, seed), &style);
            let Decision::Move(m) = d else {
                panic!("{preset}: resigned with resigning off");
            };
            g.play(color, m)
                .unwrap_or_else(|e| panic!("{preset}: {color} {m:?} refused: {e}"));
        }
        assert_ne!(g.phase(), Phase::Play, "{preset}: the game did not end");
    }
}

#[test]
fn the_simple_ko_point_is_never_chosen() {
    let b: Board = ". X O . .
                    X . X O .
                    . X O . .
                    . . . . .
                    . . . . ."
        .parse()
        .unwrap();
    let mut g = Game::from_board(b, Color::White, Preset::Japanese.rules(5)).unwrap();
    g.play(Color::White, Move::Play(gtp::parse_point(5, "B4").unwrap()))
        .unwrap();
    let a = analyze(&g, Color::Black, &Budget::playouts(500, 3));
    let ko = Move::Play(gtp::parse_point(5, "C4").unwrap());
    assert!(a.moves.iter().all(|m| m.mv != ko));
}

/// Black owns the left three columns, White the right two; komi 0.5: Black wins by 4.5.
fn settled_game() -> Game {
    let b: Board = ". . X O .
                    . . X O .
                    . . X O .
                    . . X O .
                    . . X O ."
        .parse()
        .unwrap();
    let mut rules = Preset::Chinese.rules(5);
    rules.komi = tengen_rules::Komi::from_halves(1);
    Game::from_board(b, Color::White, rules).unwrap()
}

#[test]
fn passes_back_when_passing_wins_and_plays_on_when_it_loses() {
    let style = Style::default();
    // White passes; Black, ahead, passes back.
    let mut g = settled_game();
    g.pass(Color::White).unwrap();
    let (d, _) = genmove(&g, Color::Black, &Budget::playouts(800, 1), &style);
    assert_eq!(d, Decision::Move(Move::Pass));
    // Black passes; White, behind, does not pass back.
    let mut g = settled_game();
    g.set_to_move(Color::Black);
    g.pass(Color::Black).unwrap();
    let style = Style { resign_below: None };
    let (d, _) = genmove(&g, Color::White, &Budget::playouts(800, 1), &style);
    assert!(matches!(d, Decision::Move(Move::Play(_))), "{d:?}");
}

#[test]
fn a_settled_position_is_told_from_an_open_one() {
    let g = settled_game();
    let a = analyze(&g, Color::Black, &Budget::playouts(800, 2));
    assert!(tengen_ai::search::is_settled(&g, Color::Black, &a));
    assert!(tengen_ai::search::margin_if_passed(&g, Color::Black, &a) > 0.0);
    let open = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
    let a = analyze(&open, Color::Black, &Budget::playouts(800, 2));
    assert!(!tengen_ai::search::is_settled(&open, Color::Black, &a));
}

#[test]
fn resigns_a_lost_game_unless_told_not_to() {
    // Two living groups fill the board: Black's area is twice White's. Hopeless for White.
    let b: Board = "X X X X X X O O O
                    X . X X . X O . O
                    X X X X X X O O O
                    X X X X X X O O O
                    X . X X . X O . O
                    X X X X X X O O O
                    X X X X X X O O O
                    X . X X . X O . O
                    X X X X X X O O O"
        .parse()
        .unwrap();
    let mut rules = Preset::Chinese.rules(9);
    rules.komi = tengen_rules::Komi::from_halves(1);
    let g = Game::from_board(b, Color::Black, rules).unwrap();
    let budget = Budget::playouts(2000, 5);
    let (d, a) = genmove(&g, Color::Black, &budget, &Style::default());
    assert!(matches!(d, Decision::Move(_)), "Black is winning: {d:?}");
    assert!(a.best().unwrap().winrate > 0.5);
    let (d, a) = genmove(&g, Color::White, &budget, &Style::default());
    assert_eq!(d, Decision::Resign, "{:?}", a.best());
    let (d, _) = genmove(&g, Color::White, &budget, &Style { resign_below: None });
    assert!(matches!(d, Decision::Move(_)));
}

#[test]
fn handicap_games_search_with_a_fading_komi() {
    let even = Game::new(19, Preset::Japanese.rules(19), Handicap::None).unwrap();
    assert_eq!(tengen_ai::search::dynamic_komi(&even), 0.0);
    let mut g = Game::new(19, Preset::Japanese.rules(19), Handicap::Fixed(4)).unwrap();
    assert_eq!(tengen_ai::search::dynamic_komi(&g), 28.0);
    // It fades as the game goes on, and is gone by move 200.
    let mut previous = 28.0;
    let mut seed = 0;
    while g.ply_count() < 200 {
        let c = g.to_move();
        seed += 1;
        let legal = g.legal_points();
        let p = legal[(seed * 7919) % legal.len()];
        if g.play(c, Move::Play(p)).is_err() {
            g.pass(c).unwrap();
        }
        let k = tengen_ai::search::dynamic_komi(&g);
        assert!(k <= previous);
        previous = k;
    }
    assert_eq!(previous, 0.0);
}

#[test]
fn the_tree_of_the_last_move_is_kept() {
    use tengen_ai::search::{decide, Search};
    let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
    let budget = Budget::playouts(3000, 9);
    let style = Style::default();
    let mut s = Search::new(&g, Color::Black, 1, 9);
    let (d, a) = decide(&g, Color::Black, &mut s, &budget, &style);
    let Decision::Move(mine) = d else { panic!() };
    // The opponent answers with the reply the search expected most.
    let reply = a.best().unwrap().pv.get(1).copied().unwrap();
    g.play(Color::Black, mine).unwrap();
    g.play(Color::White, reply).unwrap();
    let kept = Search::reuse(Some(s), &g, Color::Black, 1, 10);
    assert!(kept.reused() > 0, "the subtree after both moves is kept");
    // Its root moves are the game's legal moves now.
    let a = kept.analysis();
    let legal = g.legal_points();
    assert_eq!(a.moves.len(), legal.len());
    assert!(a
        .moves
        .iter()
        .all(|m| matches!(m.mv, Move::Play(p) if legal.contains(&p))));
    // The kept tree searches on and still plays a legal move.
    let mut kept = kept;
    let (d, _) = decide(&g, Color::Black, &mut kept, &budget, &style);
    let Decision::Move(m) = d else { panic!() };
    assert!(g.check(Color::Black, m).is_ok());
    // Other rules, a move the tree never searched, or an undone move: a fresh search.
    let mut other = g.clone();
    other.set_komi(tengen_rules::Komi::points(0));
    let fresh = Search::reuse(Some(kept), &other, Color::Black, 1, 11);
    assert_eq!(fresh.reused(), 0);
    drop(fresh);
    let mut searched = Search::new(&g, Color::Black, 1, 13);
    searched.run(Some(500), None);
    let mut back = g.clone();
    back.undo(1).unwrap();
    let fresh = Search::reuse(Some(searched), &back, Color::White, 1, 12);
    assert_eq!(fresh.reused(), 0);
}
