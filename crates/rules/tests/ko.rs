//! Ko, superko and repetition, on ASCII boards.

#![allow(clippy::unwrap_used)]

use tengen_rules::coord::gtp;
use tengen_rules::{Board, Color, Game, GameError, GameResult, Move, Phase, Preset};

fn game(diagram: &str, to_move: Color, preset: Preset) -> Game {
    let b: Board = diagram.parse().expect("test diagram");
    let size = b.size();
    Game::from_board(b, to_move, preset.rules(size)).expect("setup")
}

fn mv(g: &Game, v: &str) -> Move {
    gtp::parse_move(g.size(), v).expect("vertex")
}

fn play(g: &mut Game, c: Color, v: &str) -> Result<(), GameError> {
    let m = mv(g, v);
    g.play(c, m)
}

const KO: &str = ". X O . .
                  X . X O .
                  . X O . .
                  . . . . .
                  . . . . .";

#[test]
fn simple_ko_forbids_only_the_immediate_recapture() {
    let mut g = game(KO, Color::White, Preset::Japanese);
    play(&mut g, Color::White, "B4").unwrap(); // takes the black stone on C4
    assert_eq!(g.board().captures(Color::White), 1);
    let before = g.board().clone();
    assert_eq!(play(&mut g, Color::Black, "C4"), Err(GameError::Ko));
    assert_eq!(g.board(), &before, "a refused move changes nothing");
    assert_eq!(g.to_move(), Color::Black);
    play(&mut g, Color::Black, "E1").unwrap(); // a ko threat elsewhere
    play(&mut g, Color::White, "E2").unwrap();
    play(&mut g, Color::Black, "C4").unwrap(); // now the recapture is legal
    assert_eq!(g.board().captures(Color::Black), 1);
}

#[test]
fn ko_applies_under_every_preset() {
    for preset in Preset::ALL {
        if preset == Preset::Wga || preset == Preset::FirstCapture {
            continue; // 9x9 only / ends at the first capture
        }
        let mut g = game(KO, Color::White, preset);
        play(&mut g, Color::White, "B4").unwrap();
        assert_eq!(
            play(&mut g, Color::Black, "C4"),
            Err(GameError::Ko),
            "{preset}"
        );
    }
}

#[test]
fn capturing_two_stones_is_not_ko() {
    // Seed 004: "Black can capture two stones, and if White recaptures the single capturing
    // stone the original position is not repeated. So, this is not ko".
    let mut g = game(
        ". X O O .
         X . X X O
         . X O O .
         . . . . .
         . . . . .",
        Color::White,
        Preset::Japanese,
    );
    play(&mut g, Color::White, "B4").unwrap();
    assert_eq!(g.board().captures(Color::White), 2);
    play(&mut g, Color::Black, "A1").unwrap();
    // Black's stones on B5 and B3 and A4 surround B4; White B4 has the liberties C4 and D4 now.
    assert!(g.check(Color::White, mv(&g, "C4")).is_ok());
}

/// "Sending two, returning one": Black throws in at B5 (two black stones in atari), White takes
/// both with D5, Black retakes the single white stone with C5. The board is the starting board
/// again, with White to move instead of Black.
const SENDING_TWO: &str = "O . X . X
                           O O O X X
                           . . . . .
                           . . . . .
                           . . . . .";

fn sending_two(preset: Preset) -> (Game, Result<(), GameError>) {
    let mut g = game(SENDING_TWO, Color::Black, preset);
    let start = g.board().clone();
    play(&mut g, Color::Black, "B5").unwrap();
    play(&mut g, Color::White, "D5").unwrap();
    assert_eq!(g.board().captures(Color::White), 2);
    let r = play(&mut g, Color::Black, "C5");
    if r.is_ok() {
        assert_eq!(
            g.board().hash(),
            start.hash(),
            "the cycle returns to the start position"
        );
        assert_eq!(g.to_move(), Color::White);
    }
    (g, r)
}

#[test]
fn positional_superko_forbids_returning_one() {
    let (_, r) = sending_two(Preset::TrompTaylor);
    assert_eq!(r, Err(GameError::Superko));
}

#[test]
fn situational_superko_allows_it_because_the_other_player_is_to_move() {
    for preset in [Preset::Nz, Preset::Aga, Preset::Arena] {
        let (_, r) = sending_two(preset);
        assert_eq!(r, Ok(()), "{preset}");
    }
}

#[test]
fn simple_ko_allows_it_and_counts_the_repetition() {
    // Japanese: a stone that makes the same position, with the same player to move, occur for
    // the third time ends the game without result.
    let (mut g, r) = sending_two(Preset::Japanese);
    r.unwrap(); // the start position with White to move: first time
    g.pass(Color::White).unwrap();
    play(&mut g, Color::Black, "B5").unwrap();
    play(&mut g, Color::White, "D5").unwrap();
    play(&mut g, Color::Black, "C5").unwrap(); // start position, White to move: second time
    assert_eq!(g.phase(), Phase::Play);
    g.pass(Color::White).unwrap();
    // Black's throw-in recreates, for the third time, the position after its first throw-in.
    play(&mut g, Color::Black, "B5").unwrap();
    assert_eq!(g.phase(), Phase::Finished);
    assert_eq!(g.result(), Some(GameResult::NoResult));
    assert_eq!(g.result().unwrap().to_string(), "Void");
}

#[test]
fn passes_alone_never_make_a_repetition() {
    let mut g = game(KO, Color::Black, Preset::Japanese);
    for _ in 0..3 {
        g.pass(Color::Black).unwrap();
        g.pass(Color::White).unwrap();
        assert_eq!(g.phase(), Phase::Scoring);
        g.resume().unwrap();
    }
    assert_eq!(g.result(), None);
}

/// Three kos on one board. Each player in turn takes a ko, so the whole board returns to its
/// starting position every six plies.
const TRIPLE_KO: &str = ". X O . . . X O .
                         X O . O . X . X O
                         . X O . . . X O .
                         . . . . . . . . .
                         . X O . . . . . .
                         X O . O . . . . .
                         . X O . . . . . .
                         . . . . . . . . .
                         . . . . . . . . .";

/// One six-ply cycle: Black takes ko 1, White ko 2, Black ko 3, White ko 1, Black ko 2, White ko 3.
const CYCLE: [(Color, &str); 6] = [
    (Color::Black, "C8"),
    (Color::White, "G8"),
    (Color::Black, "C4"),
    (Color::White, "B8"),
    (Color::Black, "H8"),
    (Color::White, "B4"),
];

fn run_cycles(g: &mut Game, cycles: usize) -> Result<(), GameError> {
    for _ in 0..cycles {
        for (c, v) in CYCLE {
            if g.phase() != Phase::Play {
                return Ok(());
            }
            play(g, c, v)?;
        }
    }
    Ok(())
}

#[test]
fn triple_ko_is_no_result_under_japanese_rules() {
    let mut g = game(TRIPLE_KO, Color::Black, Preset::Japanese);
    let start = g.board().hash();
    run_cycles(&mut g, 1).unwrap();
    assert_eq!(g.board().hash(), start);
    assert_eq!(g.phase(), Phase::Play, "twice is not yet a repetition");
    run_cycles(&mut g, 1).unwrap();
    assert_eq!(g.result(), Some(GameResult::NoResult));
    assert_eq!(g.ply_count(), 12);
}

#[test]
fn triple_ko_is_a_draw_at_the_internet_gaming_zone() {
    // Seed 003: "if there are three Ko situations on a board at any one time, the game is
    // declared a draw."
    let mut g = game(TRIPLE_KO, Color::Black, Preset::Igz);
    run_cycles(&mut g, 2).unwrap();
    assert_eq!(g.result(), Some(GameResult::Draw));
    assert_eq!(g.result().unwrap().to_string(), "0");
}

#[test]
fn triple_ko_goes_on_under_chinese_rules() {
    let mut g = game(TRIPLE_KO, Color::Black, Preset::Chinese);
    run_cycles(&mut g, 5).unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert_eq!(g.ply_count(), 30);
}

#[test]
fn superko_stops_the_triple_ko_cycle() {
    // Seed 001: "A player may not recreate a position that occurred previously with the same
    // player to move." White's sixth move would recreate the start with Black to move.
    let mut g = game(TRIPLE_KO, Color::Black, Preset::Arena);
    assert_eq!(run_cycles(&mut g, 1), Err(GameError::Superko));
    assert_eq!(g.ply_count(), 5);
}

const CORNER_SUICIDE: &str = "X . O .
                              O O . .
                              . . . .
                              . . . .";

#[test]
fn multi_stone_suicide_under_each_preset() {
    for preset in Preset::ALL {
        if preset == Preset::Wga || preset == Preset::FirstCapture {
            continue;
        }
        let mut g = game(CORNER_SUICIDE, Color::Black, preset);
        let r = play(&mut g, Color::Black, "B4");
        let legal = matches!(preset, Preset::TrompTaylor | Preset::Nz);
        if legal {
            assert_eq!(r, Ok(()), "{preset}");
            assert_eq!(
                g.board().stone_count(Color::Black),
                0,
                "{preset}: both stones removed"
            );
            assert_eq!(
                g.board().captures(Color::White),
                2,
                "{preset}: White gets them"
            );
        } else {
            assert_eq!(r, Err(GameError::Suicide), "{preset}");
        }
    }
    // First Capture Go: legal, and Black loses.
    let mut g = game(
        "X . O . .
         O O . . .
         . . . . .
         . . . . .
         . . . . .",
        Color::Black,
        Preset::FirstCapture,
    );
    play(&mut g, Color::Black, "B5").unwrap();
    assert_eq!(g.result(), Some(GameResult::FirstCapture(Color::White)));
}

#[test]
fn single_stone_suicide_is_illegal_even_where_multi_stone_suicide_is_legal() {
    for preset in [Preset::TrompTaylor, Preset::Nz] {
        let mut h = game(
            ". O . .
             O . . .
             . . . .
             . . . .",
            Color::Black,
            preset,
        );
        assert_eq!(
            play(&mut h, Color::Black, "A4"),
            Err(GameError::Suicide),
            "{preset}"
        );
    }
}

#[test]
fn errors_for_occupied_off_board_and_turn() {
    let mut g = game(KO, Color::White, Preset::Chinese);
    assert_eq!(play(&mut g, Color::White, "B5"), Err(GameError::Occupied));
    assert_eq!(
        play(&mut g, Color::Black, "E1"),
        Err(GameError::NotYourTurn)
    );
    let far = tengen_rules::Point::new(19, 18, 18).unwrap();
    assert!(!g.board().contains(far) || g.check(Color::White, Move::Play(far)).is_err());
    g.resign(Color::White).unwrap();
    assert_eq!(g.result().unwrap().to_string(), "B+R");
    assert_eq!(play(&mut g, Color::Black, "E1"), Err(GameError::GameOver));
    assert_eq!(g.resign(Color::Black), Err(GameError::GameOver));
    assert_eq!(GameError::NotYourTurn.code(), "not_your_turn");
}
