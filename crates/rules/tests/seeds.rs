//! The seed documents' worked examples, as tests. The seeds' diagrams were not preserved, so each
//! position here is one built to have exactly the counts the text gives.

#![allow(clippy::unwrap_used)]

use tengen_rules::coord::gtp;
use tengen_rules::scoring::score;
use tengen_rules::{
    handicap, Board, Color, Game, GameError, GameResult, Handicap, Komi, Move, Phase, PointSet,
    Preset,
};

fn board(s: &str) -> Board {
    s.parse().expect("test diagram")
}

/// Seed 000: "Black has the final score of 47 points, which equals the number of empty points
/// surrounded by black stones, called Black's territories (27), plus the number of white stones
/// captured (2), plus the number of black stones on the board (18). White has the final score of
/// 44 points, which equals the number of White's territories (22), plus the number of white
/// stones on the board (14), plus the number of black stones captured (1), plus komi (7). Thus,
/// the game result is Black wins by 3 points." (Paraphrased where the seed writes "+", which
/// rustdoc would read as list items.)
#[test]
fn wga_count_47_to_44() {
    let mut b = board(
        ". . . . X O . . .
         . X . . X O . O .
         . X . . X O . . .
         . . . . X O . . .
         X X X X X O O O O
         . . . . X O . . .
         . X X . X O . . .
         . . . . X O . O .
         X . . . X O . . .",
    );
    b.set_captures(2, 1);
    let rules = Preset::Wga.rules(9);
    assert_eq!(rules.komi, Komi::points(7));
    let s = score(&b, &PointSet::new(), &rules, 0);
    assert_eq!(
        (s.black.territory, s.black.prisoners, s.black.stones),
        (27, 2, 18)
    );
    assert_eq!(
        (s.white.territory, s.white.stones, s.white.prisoners),
        (22, 14, 1)
    );
    assert_eq!(s.black.total_halves(), 47 * 2);
    assert_eq!(s.white.total_halves(), 44 * 2);
    assert_eq!(s.result.to_string(), "B+3");
}

/// Seed 001's counting example: a 9x9 position where Black surrounds 15 points with 25 stones
/// and has taken one prisoner, and White surrounds 17 points with 24 stones.
fn arena_position() -> Board {
    let mut b = board(
        ". . . X X O . . .
         X X X X X O O O O
         . . . X X O . . .
         X X X X X O O O O
         . . . X O O . . .
         X X X X O . O O O
         . . . X O O . . .
         X X X X O . O O O
         . . . X O O . . .",
    );
    b.set_captures(1, 0);
    b
}

/// "Chinese count: Black has surrounded 15 points of territory and 25 men, totalling 40. White
/// has surrounded 17 points of territory and 24 men, totalling 41. Thus white wins with one
/// point." The example has no komi.
#[test]
fn arena_chinese_count_40_to_41() {
    let mut rules = Preset::Chinese.rules(9);
    rules.komi = Komi::points(0);
    let s = score(&arena_position(), &PointSet::new(), &rules, 0);
    assert_eq!((s.black.territory, s.black.stones), (15, 25));
    assert_eq!((s.white.territory, s.white.stones), (17, 24));
    assert_eq!(
        (s.black.total_halves() / 2, s.white.total_halves() / 2),
        (40, 41)
    );
    assert_eq!(s.result.to_string(), "W+1");
}

/// "Japanese count: Black has surrounded 15 points of territory ... White's territory is 17
/// points, but black will place his one prisoner inside it, reducing it to 16 points. Thus white
/// wins with one point." Filling the prisoner into White's area and adding it to Black's count
/// are the same difference: we count Black 15 + 1 against White 17.
#[test]
fn arena_japanese_count_15_to_16() {
    let mut rules = Preset::Arena.rules(9);
    rules.komi = Komi::points(0);
    let s = score(&arena_position(), &PointSet::new(), &rules, 0);
    assert_eq!(
        (s.black.territory, s.black.prisoners, s.black.stones),
        (15, 1, 0)
    );
    assert_eq!((s.white.territory, s.white.prisoners), (17, 0));
    assert_eq!(
        s.white.territory - s.black.prisoners,
        16,
        "White's 16 after the prisoner fill"
    );
    assert_eq!(s.result.to_string(), "W+1");
}

/// Seed 000: handicap of 2 to 5 stones on the star points, White then moves.
#[test]
fn wga_handicap_is_two_to_five_stones_on_the_star_points() {
    let rules = Preset::Wga.rules(9);
    let g = Game::new(9, rules, Handicap::Fixed(5)).unwrap();
    assert_eq!(g.to_move(), Color::White);
    let names: Vec<String> = g
        .handicap_stones()
        .iter()
        .map(|&p| gtp::format_point(9, p))
        .collect();
    assert_eq!(names, ["C7", "G7", "E5", "C3", "G3"]);
    assert!(Game::new(9, rules, Handicap::Fixed(6)).is_err());
    assert!(
        Game::new(13, rules, Handicap::None).is_err(),
        "WGA is a 9x9 rule set"
    );
}

/// Seed 001: "For handicaps of two or three stones ... the far left corner is left vacant."
#[test]
fn arena_handicap_leaves_one_corner_empty() {
    for size in [9u8, 13, 19] {
        for n in [2u8, 3] {
            let pts = handicap::fixed(size, n).unwrap();
            // The lower-right star point (as printed, "far left" from White's seat) stays empty.
            let edge = if size >= 12 { 3 } else { 2 };
            let lower_right =
                tengen_rules::Point::new(size, size - 1 - edge, size - 1 - edge).unwrap();
            assert!(!pts.contains(&lower_right), "{size}x{size} with {n}");
        }
    }
}

/// Seed 002: HANDICAP games may use 13, 21 or 25 stones; White moves first.
#[test]
fn korean_large_handicaps() {
    for n in [13u8, 21, 25] {
        let g = Game::new(19, Preset::Korean.rules(19), Handicap::Fixed(n)).unwrap();
        assert_eq!(g.board().stone_count(Color::Black), n as usize);
        assert_eq!(g.to_move(), Color::White);
    }
}

/// Seed 003: "The Chinese rules state that the handicap stones may be placed anywhere", while
/// Japanese rules put them on the fixed points.
#[test]
fn free_placement_only_where_the_rules_allow_it() {
    let pts = vec![
        gtp::parse_point(19, "A1").unwrap(),
        gtp::parse_point(19, "K10").unwrap(),
    ];
    let g = Game::new(19, Preset::Chinese.rules(19), Handicap::Free(pts.clone())).unwrap();
    assert_eq!(g.to_move(), Color::White);
    let err = Game::new(19, Preset::Japanese.rules(19), Handicap::Free(pts)).unwrap_err();
    assert_eq!(err.code(), "free_placement_not_allowed");
}

/// Seed 004: "The winner is the first player to capture one or more stones."
#[test]
fn first_capture_wins() {
    let b = board(
        ". . . . .
         . X . . .
         X O X . .
         . . . . .
         . . . . .",
    );
    let mut g = Game::from_board(b, Color::Black, Preset::FirstCapture.rules(5)).unwrap();
    g.play(Color::Black, Move::Play(gtp::parse_point(5, "B2").unwrap()))
        .unwrap();
    assert_eq!(g.phase(), Phase::Finished);
    assert_eq!(g.result(), Some(GameResult::FirstCapture(Color::Black)));
    assert_eq!(g.result().unwrap().to_string(), "B+");
    assert_eq!(
        g.play(Color::White, Move::Play(gtp::parse_point(5, "E5").unwrap())),
        Err(GameError::GameOver)
    );
}

/// Seed 004: "Such a play amounts to self-capture, and the stone or stones would be removed from
/// the board. White would win the game."
#[test]
fn first_capture_self_capture_loses() {
    let b = board(
        ". O . . .
         O . . . .
         . . . . .
         . . . . .
         . . . . .",
    );
    let mut g = Game::from_board(b, Color::Black, Preset::FirstCapture.rules(5)).unwrap();
    g.play(Color::Black, Move::Play(gtp::parse_point(5, "A5").unwrap()))
        .unwrap();
    assert_eq!(g.result(), Some(GameResult::FirstCapture(Color::White)));
    assert_eq!(
        g.board().stone_count(Color::Black),
        0,
        "the self-captured stone is removed"
    );
}

/// Seed 004: "it would not be self-capture, because ... the white stone or stones ... would be
/// captured and removed when Black plays."
#[test]
fn first_capture_a_capturing_move_is_never_self_capture() {
    let b = board(
        ". O X . .
         O X . . .
         X . . . .
         . . . . .
         . . . . .",
    );
    let mut g = Game::from_board(b, Color::Black, Preset::FirstCapture.rules(5)).unwrap();
    // Black on A5 has no liberty of its own but takes the two white stones' last liberties.
    g.play(Color::Black, Move::Play(gtp::parse_point(5, "A5").unwrap()))
        .unwrap();
    assert_eq!(g.result(), Some(GameResult::FirstCapture(Color::Black)));
    assert_eq!(g.board().stone_count(Color::White), 0);
}

/// Seed 004: "Any size between 5 X 5 lines and 19 X 19 lines will work".
#[test]
fn first_capture_board_sizes() {
    let rules = Preset::FirstCapture.rules(9);
    assert!(Game::new(4, rules, Handicap::None).is_err());
    assert!(Game::new(5, rules, Handicap::None).is_ok());
    assert!(Game::new(19, rules, Handicap::None).is_ok());
    assert_eq!(
        Game::new(20, rules, Handicap::None).unwrap_err().code(),
        "bad_board_size"
    );
}

/// Seed 001: "Suicide is illegal ... The only occasion on which a stone may be placed on a point
/// where it has no liberties, is if it effectuates a capture".
#[test]
fn arena_suicide_is_illegal_but_a_capture_is_not_suicide() {
    let b = board(
        ". X O .
         X O . .
         O . . .
         . . . .",
    );
    let mut g = Game::from_board(b, Color::White, Preset::Arena.rules(4)).unwrap();
    // White on A4 has no empty neighbour, but it takes the last liberty of the black stones on
    // B4 and A3, so it captures them and lives.
    let a4 = gtp::parse_point(4, "A4").unwrap();
    g.play(Color::White, Move::Play(a4)).unwrap();
    assert_eq!(g.board().captures(Color::White), 2);
    // Black may not play into a point with no liberties that captures nothing.
    let b = board(
        ". O . .
         O . . .
         . . . .
         . . . .",
    );
    let g = Game::from_board(b, Color::Black, Preset::Arena.rules(4)).unwrap();
    assert_eq!(
        g.check(Color::Black, Move::Play(a4)),
        Err(GameError::Suicide)
    );
}
