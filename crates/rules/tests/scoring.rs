//! Counting: seki under territory and area counting, dead-stone marking by region, pass-alive
//! chains, the scoring phase.

#![allow(clippy::unwrap_used)]

use tengen_rules::coord::gtp;
use tengen_rules::scoring::{score, seki_chains};
use tengen_rules::{
    Board, Color, Game, GameError, GameResult, Komi, Move, Phase, PointSet, Preset,
};

fn board(s: &str) -> Board {
    s.parse().expect("test diagram")
}

fn pt(size: u8, v: &str) -> tengen_rules::Point {
    gtp::parse_point(size, v).expect("vertex")
}

/// Black's chain (eye at A8) and White's inner chain (eye at E8) share the liberty C8. Whoever
/// fills C8 is captured next move, and neither can fill the other's eye: seki. White's outer
/// wall owns the rest of the board.
const SEKI: &str = ". X . O . O X O
                    X X X O O O X O
                    O O X X X X X O
                    . O O O O O O O
                    . . . . . . . .
                    . . . . . . . .
                    . . . . . . . .
                    . . . . . . . .";

#[test]
fn seki_is_detected() {
    let b = board(SEKI);
    let seki = seki_chains(&b);
    assert!(seki.contains(pt(8, "B8")), "black chain");
    assert!(seki.contains(pt(8, "D8")), "white inner chain");
    assert!(
        !seki.contains(pt(8, "H8")),
        "white outer wall is not in seki"
    );
    assert_eq!(seki.len(), 11 + 5);
}

#[test]
fn seki_eyes_count_for_nobody_under_territory_counting() {
    let b = board(SEKI);
    let mut rules = Preset::Japanese.rules(8);
    rules.komi = Komi::points(0);
    let s = score(&b, &PointSet::new(), &rules, 0);
    assert_eq!(s.black.territory, 0);
    assert_eq!(s.white.territory, 33, "A5 and the four bottom rows");
    assert_eq!(s.seki.len(), 2, "the eyes A8 and E8");
    assert!(s.dame.contains(pt(8, "C8")), "the shared liberty is dame");
    assert_eq!(s.result.to_string(), "W+33");
}

#[test]
fn seki_eyes_count_for_the_owner_under_area_counting() {
    let b = board(SEKI);
    let mut rules = Preset::Chinese.rules(8);
    rules.komi = Komi::points(0);
    let s = score(&b, &PointSet::new(), &rules, 0);
    assert_eq!((s.black.territory, s.black.stones), (1, 11));
    assert_eq!((s.white.territory, s.white.stones), (34, 17));
    assert!(s.seki.is_empty());
    assert_eq!(s.result, GameResult::from_difference(2 * (12 - 51)));
}

/// White's two stones inside Black's area are dead; Black's territory is the left side.
const DEAD: &str = ". . . X O . . . .
                    . O . X O . . . .
                    . . . X O . . . .
                    . . O X O . . . .
                    . . . X O . . . .
                    . . . X O . . . .
                    . . . X O . X . .
                    . . . X O . . . .
                    . . . X O . . . .";

fn scoring_game(diagram: &str, preset: Preset) -> Game {
    let b = board(diagram);
    let size = b.size();
    let mut g = Game::from_board(b, Color::Black, preset.rules(size)).unwrap();
    g.pass(Color::Black).unwrap();
    g.pass(Color::White).unwrap();
    assert_eq!(g.phase(), Phase::Scoring);
    g
}

#[test]
fn one_click_marks_every_dead_stone_of_that_colour_in_the_region() {
    let mut g = scoring_game(DEAD, Preset::Japanese);
    let changed = g.toggle_dead(pt(9, "B8")).unwrap();
    assert_eq!(changed.len(), 2, "B8 and C6 are in the same black area");
    assert!(g.dead_stones().contains(pt(9, "C6")));
    assert!(
        !g.dead_stones().contains(pt(9, "E9")),
        "the white wall is outside the region"
    );
    let s = g.score();
    assert_eq!(s.black.territory, 27);
    assert_eq!(s.black.prisoners, 2);
    // Marking again unmarks.
    let changed = g.toggle_dead(pt(9, "C6")).unwrap();
    assert_eq!(changed.len(), 2);
    assert!(g.dead_stones().is_empty());
}

#[test]
fn marking_requires_a_stone_and_the_scoring_phase() {
    let mut g = scoring_game(DEAD, Preset::Japanese);
    assert_eq!(g.toggle_dead(pt(9, "A1")), Err(GameError::NoStone));
    g.resume().unwrap();
    assert_eq!(g.toggle_dead(pt(9, "B8")), Err(GameError::NotScoring));
    assert_eq!(g.finish_scoring(), Err(GameError::NotScoring));
}

#[test]
fn dead_stones_count_under_area_and_territory() {
    let dead: PointSet = [pt(9, "B8"), pt(9, "C6"), pt(9, "G3")]
        .into_iter()
        .collect();
    let b = board(DEAD);
    let mut rules = Preset::Chinese.rules(9);
    rules.komi = Komi::points(0);
    let area = score(&b, &dead, &rules, 0);
    assert_eq!((area.black.territory, area.black.stones), (27, 9));
    assert_eq!((area.white.territory, area.white.stones), (36, 9));
    let mut rules = Preset::Japanese.rules(9);
    rules.komi = Komi::points(0);
    let terr = score(&b, &dead, &rules, 0);
    assert_eq!((terr.black.territory, terr.black.prisoners), (27, 2));
    assert_eq!((terr.white.territory, terr.white.prisoners), (36, 1));
}

#[test]
fn a_pass_alive_chain_cannot_be_marked_dead() {
    let mut g = scoring_game(
        ". X . X O . . . .
         X X X X O . . . .
         O O O O O . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .
         . . . . . . . . .",
        Preset::Japanese,
    );
    assert_eq!(g.toggle_dead(pt(9, "B9")), Err(GameError::PassAlive));
    assert_eq!(g.set_dead(&[pt(9, "B9")]), Err(GameError::PassAlive));
    assert!(g.dead_stones().is_empty());
}

#[test]
fn the_scoring_phase_ends_with_the_count_or_returns_to_play() {
    let mut g = scoring_game(DEAD, Preset::Japanese);
    g.toggle_dead(pt(9, "B8")).unwrap();
    g.resume().unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert!(g.dead_stones().is_empty(), "resuming drops the marking");
    // After resuming, one pass does not end play again.
    g.pass(g.to_move()).unwrap();
    assert_eq!(g.phase(), Phase::Play);
    g.pass(g.to_move()).unwrap();
    g.toggle_dead(pt(9, "B8")).unwrap();
    g.toggle_dead(pt(9, "G3")).unwrap();
    let r = g.finish_scoring().unwrap();
    // Black 27 + 2 prisoners, White 36 + 1 prisoner + 6.5.
    assert_eq!(r.to_string(), "W+14.5");
    assert_eq!(g.phase(), Phase::Finished);
    assert_eq!(g.result(), Some(r));
}

#[test]
fn handicap_compensation_under_area_rules() {
    let rules = Preset::Chinese.rules(19);
    let mut g = Game::new(19, rules, tengen_rules::Handicap::Fixed(4)).unwrap();
    g.pass(Color::White).unwrap();
    g.pass(Color::Black).unwrap();
    let s = g.score();
    assert_eq!(s.white.handicap_bonus, 4, "Chinese: N");
    let aga = Preset::Aga.rules(19);
    let mut g = Game::new(19, aga, tengen_rules::Handicap::Fixed(4)).unwrap();
    g.pass(Color::White).unwrap();
    g.pass(Color::Black).unwrap();
    assert_eq!(g.score().white.handicap_bonus, 3, "AGA: N-1");
    let _ = Move::Pass;
}

#[test]
fn integer_komi_can_draw() {
    let mut rules = Preset::Nz.rules(2);
    rules.komi = Komi::points(0);
    let mut g = Game::new(2, rules, tengen_rules::Handicap::None).unwrap();
    g.pass(Color::Black).unwrap();
    g.pass(Color::White).unwrap();
    assert_eq!(g.finish_scoring().unwrap(), GameResult::Draw);
}

#[test]
fn scoring_by_agreement_without_two_passes() {
    let b = board(DEAD);
    let mut g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
    g.start_scoring().unwrap();
    assert_eq!(g.phase(), Phase::Scoring);
    assert_eq!(g.start_scoring(), Err(GameError::InScoring));
    g.toggle_dead(pt(9, "B8")).unwrap();
    g.resume().unwrap();
    assert_eq!(g.phase(), Phase::Play);
    assert!(g.dead_stones().is_empty());
    g.resign(Color::White).unwrap();
    assert_eq!(g.start_scoring(), Err(GameError::GameOver));
}
