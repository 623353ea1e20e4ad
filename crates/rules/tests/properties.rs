//! Property tests with fixed seeds: random games on every board size, checking after each move
//! that the board's cached chains, liberties, neighbour counts and hash agree with values
//! recomputed from scratch, and that undo restores the exact position.

#![allow(clippy::unwrap_used)]

use tengen_rules::playout::Rng;
use tengen_rules::{Board, Color, Game, GameError, Handicap, Move, Phase, Point, Preset};

/// A random move for the player to move: usually a legal point, sometimes any point (to
/// exercise refusals), rarely a pass.
fn random_move(g: &Game, rng: &mut Rng) -> Move {
    let size = g.size();
    if rng.below(40) == 0 {
        return Move::Pass;
    }
    if rng.below(5) == 0 {
        let col = rng.below(size as u32) as u8;
        let row = rng.below(size as u32) as u8;
        return Move::Play(Point::new(size, col, row).expect("on board"));
    }
    let legal = g.legal_points();
    if legal.is_empty() {
        Move::Pass
    } else {
        Move::Play(legal[rng.below(legal.len() as u32) as usize])
    }
}

#[test]
fn board_bookkeeping_matches_a_flood_fill_after_every_move_and_undo() {
    let mut rng = Rng::new(0xB0A2D);
    for game_no in 0..180u32 {
        let size = [2u8, 3, 4, 5, 7, 9, 13, 19, 25][game_no as usize % 9];
        let mut b = Board::new(size);
        let mut to_move = Color::Black;
        for ply in 0..(size as u32 * size as u32 * 3) {
            let empties: Vec<Point> = b.points().filter(|&p| b.is_empty(p)).collect();
            if empties.is_empty() {
                break;
            }
            // Any empty point, suicide included: the board itself plays every rule set.
            let p = empties[rng.below(empties.len() as u32) as usize];
            if b.ko_point() == Some(p) {
                continue;
            }
            let before = b.clone();
            let expected_hash = b.hash_after(p, to_move);
            let record = b.play(p, to_move);
            if let Err(e) = b.check_invariants() {
                panic!("game {game_no} ply {ply} ({size}x{size}): {e}\n{before}");
            }
            assert_eq!(b.hash(), expected_hash, "hash_after predicts the hash");
            let after = b.clone();
            b.undo(&record);
            b.check_invariants().expect("after undo");
            assert_eq!(
                b, before,
                "undo restores the position (game {game_no}, ply {ply})"
            );
            // Play it again so the game moves on (and undo is tested from many positions).
            let again = b.play(p, to_move);
            assert_eq!(again, record);
            assert_eq!(b, after);
            to_move = to_move.opponent();
        }
    }
}

#[test]
fn refused_actions_change_nothing_and_game_undo_restores_every_position() {
    let mut rng = Rng::new(0x6A3E);
    for game_no in 0..120u32 {
        let preset = [
            Preset::Japanese,
            Preset::TrompTaylor,
            Preset::Nz,
            Preset::Chinese,
        ][game_no as usize % 4];
        let size = [5u8, 7, 9][game_no as usize % 3];
        let mut g = Game::new(size, preset.rules(size), Handicap::None).unwrap();
        let mut history: Vec<(Board, Color)> = vec![(g.board().clone(), g.to_move())];
        for _ in 0..(size as u32 * size as u32 * 2) {
            if g.phase() != Phase::Play {
                break;
            }
            let c = g.to_move();
            let m = random_move(&g, &mut rng);
            let before = g.board().clone();
            match g.play(c, m) {
                Ok(()) => history.push((g.board().clone(), g.to_move())),
                Err(e) => {
                    assert!(matches!(
                        e,
                        GameError::Occupied
                            | GameError::Suicide
                            | GameError::Ko
                            | GameError::Superko
                    ));
                    assert_eq!(g.board(), &before, "a refused move changes nothing");
                    assert_eq!(g.to_move(), c);
                }
            }
            // Out-of-turn play is always refused.
            let other = g.to_move().opponent();
            if g.phase() == Phase::Play {
                assert_eq!(g.play(other, Move::Pass), Err(GameError::NotYourTurn));
            }
        }
        if g.phase() == Phase::Finished {
            continue;
        }
        // Take every ply back, one or two at a time, checking each position on the way.
        while g.ply_count() > 0 {
            let n = if g.ply_count() >= 2 && rng.below(2) == 0 {
                2
            } else {
                1
            };
            g.undo(n).unwrap();
            for _ in 0..n {
                history.pop();
            }
            let (board, to_move) = history.last().unwrap();
            assert_eq!(g.board(), board);
            assert_eq!(g.to_move(), *to_move);
            g.board().check_invariants().unwrap();
        }
        assert_eq!(g.undo(1), Err(GameError::NothingToUndo));
    }
}

#[test]
fn superko_keys_survive_undo() {
    // After undoing a move, the position it created must no longer count as "seen".
    let rules = Preset::TrompTaylor.rules(5);
    let mut g = Game::new(5, rules, Handicap::None).unwrap();
    let a = Move::Play(Point::new(5, 0, 0).unwrap());
    g.play(Color::Black, a).unwrap();
    g.undo(1).unwrap();
    g.play(Color::Black, a).unwrap();
    assert_eq!(g.ply_count(), 1);
}

#[test]
fn playouts_are_deterministic_for_a_seed_and_end_in_a_consistent_position() {
    use tengen_rules::playout::{playout, playout_area_difference};
    for size in [5u8, 9, 19] {
        let run = |seed| {
            let mut b = Board::new(size);
            let plies = playout(&mut b, Color::Black, &mut Rng::new(seed));
            b.check_invariants().unwrap();
            (plies, b.hash(), playout_area_difference(&b))
        };
        assert_eq!(run(42), run(42));
        assert_ne!(run(42).1, run(43).1);
        let (_, _, diff) = run(7);
        assert!(diff.unsigned_abs() <= size as u32 * size as u32);
    }
}

#[test]
fn bounded_liberty_and_size_counts_agree_with_the_full_lists() {
    let mut rng = Rng::new(0x11B);
    for size in [5u8, 9, 13, 19] {
        let mut g = Game::new(size, Preset::Chinese.rules(size), Handicap::None).unwrap();
        let mut checked = 0;
        for _ in 0..(size as usize * size as usize) {
            let c = g.to_move();
            let m = random_move(&g, &mut rng);
            if g.play(c, m).is_err() {
                continue;
            }
            if g.phase() != Phase::Play {
                break;
            }
            checked += 1;
            let b = g.board();
            for p in b.points() {
                let libs = b.liberties(p);
                for cap in 0..5 {
                    let mut out = vec![p; cap];
                    let n = b.some_liberties(p, &mut out);
                    assert_eq!(n, libs.len().min(cap));
                    assert!(out[..n].iter().all(|l| libs.contains(l)));
                    let mut distinct = out[..n].to_vec();
                    distinct.sort_unstable();
                    distinct.dedup();
                    assert_eq!(distinct.len(), n);
                }
                let stones = b.chain_stones(p).len();
                for max in 1..5 {
                    assert_eq!(b.chain_size_up_to(p, max), stones.min(max));
                }
            }
        }
        assert!(checked > size as usize, "{size}: only {checked} positions");
    }
}

#[test]
fn a_move_that_ends_the_game_was_announced_by_play_may_end() {
    let mut rng = Rng::new(0xE17D);
    let mut ended = 0;
    let mut never = 0;
    for game_no in 0..400u32 {
        let preset = Preset::ALL[game_no as usize % Preset::ALL.len()];
        let size = [2u8, 3, 4, 5][game_no as usize % 4];
        let Ok(mut g) = Game::new(size, preset.rules(size), Handicap::None) else {
            continue;
        };
        for _ in 0..(size as u32 * size as u32 * 6) {
            if g.phase() != Phase::Play {
                break;
            }
            let c = g.to_move();
            let m = random_move(&g, &mut rng);
            let may = g.play_may_end(m);
            never += usize::from(!may);
            if g.play(c, m).is_ok() && g.phase() == Phase::Finished {
                assert!(
                    may,
                    "{preset:?} {size}x{size}: {m:?} ended the game unannounced"
                );
                ended += 1;
            }
        }
    }
    // Both answers were exercised: games did end on a move, and most moves could not end one.
    assert!(ended > 20, "only {ended} games ended on a move");
    assert!(never > 1000, "only {never} moves could not end the game");
}
