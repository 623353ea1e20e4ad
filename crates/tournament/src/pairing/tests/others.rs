//! Round robin, knockout, ladder, errors and the matching.

use super::property::brute_force;
use super::{entrant, event, game, Rng};
use crate::pairing::berger;
use crate::pairing::knockout::bracket;
use crate::pairing::matching::Matcher;
use crate::pairing::{pair, Ladder, Pairing, PairingError, System};
use crate::standings::{Event, Outcome, BYE};
use crate::Rank;

/// An event of `n` players ranked from strongest (P00, 1k) down a rank each, with `rounds`
/// rounds.
fn field(n: usize, rounds: usize) -> Event {
    let entrants = (0..n)
        .map(|i| {
            let mut e = entrant(&format!("P{i:02}"), "1k", 0);
            e.rank = Rank::from_number(-1 - i as i32);
            e
        })
        .collect();
    event(entrants, rounds)
}

fn pairs(p: &Pairing) -> Vec<(usize, usize)> {
    p.games.iter().map(|g| (g.white, g.black)).collect()
}

#[test]
fn berger_tables_are_fides() {
    // FIDE's table for six, numbered from 1: round 1 is 1-6, 2-5, 3-4; round 2 is 6-4, 5-3,
    // 1-2; round 5 is 3-6, 4-2, 5-1.
    let from_one = |r| -> Vec<(usize, usize)> {
        berger::table(6, r)
            .iter()
            .map(|&(w, b)| (w + 1, b + 1))
            .collect()
    };
    assert_eq!(from_one(0), vec![(1, 6), (2, 5), (3, 4)]);
    assert_eq!(from_one(1), vec![(6, 4), (5, 3), (1, 2)]);
    assert_eq!(from_one(4), vec![(3, 6), (4, 2), (5, 1)]);
}

#[test]
fn round_robin_meets_everyone_once_and_ends_with_colours_within_one() {
    for n in 2..=16 {
        let rounds = berger::rounds(n);
        let mut e = field(n, rounds);
        let mut met = vec![vec![0; n]; n];
        let (mut balance, mut byes) = (vec![0i32; n], vec![0; n]);
        for r in 0..rounds {
            let p = pair(&e, &System::RoundRobin, r, &vec![true; n], 0).expect("paired");
            for g in &p.games {
                met[g.white][g.black] += 1;
                met[g.black][g.white] += 1;
                balance[g.white] += 1;
                balance[g.black] -= 1;
                e.games.push(game(r, g.white, g.black, 0, true));
            }
            if let Some(b) = p.bye {
                byes[b] += 1;
            }
            assert_eq!(p.bye.is_some(), n % 2 == 1);
            // FIDE's tables let a difference reach two on the way (for four, 1 has White in
            // rounds 1 and 2) ...
            assert!(
                balance.iter().all(|b| b.abs() <= 2),
                "n {n} round {r}: {balance:?}"
            );
        }
        // ... and bring it back within one by the end.
        assert!(balance.iter().all(|b| b.abs() <= 1), "n {n}: {balance:?}");
        for (a, row) in met.iter().enumerate() {
            for (b, &times) in row.iter().enumerate() {
                assert_eq!(times, usize::from(a != b), "n {n}: {a} v {b}");
            }
        }
        assert!(byes.iter().all(|&b| b == n % 2));
        let past = pair(&e, &System::RoundRobin, rounds, &vec![true; n], 0);
        assert!(past.is_err());
    }
}

#[test]
fn round_robin_leaves_an_absents_opponent_idle() {
    let e = field(4, 3);
    let p = pair(&e, &System::RoundRobin, 0, &[true, true, false, true], 0).expect("paired");
    // Round 1 of four is 1-4, 2-3: 3 (index 2) is absent, so 2 (index 1) is idle.
    assert_eq!(pairs(&p), vec![(0, 3)]);
    assert_eq!(p.idle, vec![1]);
    assert_eq!(p.bye, None);
}

#[test]
fn brackets_keep_the_top_seeds_apart() {
    assert_eq!(bracket(2), vec![1, 2]);
    assert_eq!(bracket(4), vec![1, 4, 2, 3]);
    assert_eq!(bracket(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
}

fn unordered(p: &Pairing) -> Vec<(usize, usize)> {
    p.games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect()
}

/// Plays every game of a pairing, the better seed (lower index) winning.
fn play_seeds(e: &mut Event, round: usize, p: &Pairing) {
    for g in &p.games {
        e.games
            .push(game(round, g.white, g.black, 0, g.white < g.black));
    }
    for &t in &p.through {
        e.rests.push((t, round, BYE));
    }
}

#[test]
fn knockout_of_eight() {
    let system = System::Knockout { third_place: true };
    let mut e = field(8, 3);
    let all = [true; 8];
    let first = pair(&e, &system, 0, &all, 3).expect("round 0");
    assert_eq!(unordered(&first), vec![(0, 7), (3, 4), (1, 6), (2, 5)]);
    assert!(first.through.is_empty());
    play_seeds(&mut e, 0, &first);
    let second = pair(&e, &system, 1, &all, 3).expect("round 1");
    assert_eq!(unordered(&second), vec![(0, 3), (1, 2)]);
    // An upset: seed 3 (index 2) beats seed 2.
    for g in &second.games {
        let winner = if g.white + g.black == 3 { 2 } else { 0 };
        e.games
            .push(game(1, g.white, g.black, 0, g.white == winner));
    }
    let last = pair(&e, &system, 2, &all, 3).expect("final");
    // The final, then the third place between the semi-finals' losers.
    assert_eq!(unordered(&last), vec![(0, 2), (1, 3)]);
    assert!(pair(&e, &system, 3, &all, 3).is_err());
    let plain = pair(&e, &System::Knockout { third_place: false }, 2, &all, 3);
    assert_eq!(plain.map(|p| unordered(&p)), Ok(vec![(0, 2)]));
}

#[test]
fn knockout_of_six_gives_seeds_one_and_two_a_bye() {
    let system = System::Knockout { third_place: false };
    let mut e = field(6, 3);
    let all = [true; 6];
    let first = pair(&e, &system, 0, &all, 3).expect("round 0");
    assert_eq!(unordered(&first), vec![(3, 4), (2, 5)]);
    assert_eq!(first.through, vec![0, 1]);
    play_seeds(&mut e, 0, &first);
    let second = pair(&e, &system, 1, &all, 3).expect("round 1");
    assert_eq!(unordered(&second), vec![(0, 3), (1, 2)]);
    assert!(second.through.is_empty());
}

#[test]
fn knockout_stops_at_a_game_without_a_winner() {
    let system = System::Knockout { third_place: false };
    let mut e = field(4, 2);
    let first = pair(&e, &system, 0, &[true; 4], 0).expect("round 0");
    let not_played = pair(&e, &system, 1, &[true; 4], 0).map_err(|e| e.code());
    assert_eq!(not_played, Err("pairing_previous_round_missing"));
    play_seeds(&mut e, 0, &first);
    e.games[1].outcome = Outcome::Jigo;
    let jigo = pair(&e, &system, 1, &[true; 4], 0).map_err(|e| e.code());
    assert_eq!(jigo, Err("pairing_no_winner"));
    e.games[1].outcome = Outcome::Unknown;
    let unknown = pair(&e, &system, 1, &[true; 4], 0).map_err(|e| e.code());
    assert_eq!(unknown, Err("pairing_no_winner"));
}

#[test]
fn knockout_needs_every_game_of_the_round_before() {
    let system = System::Knockout { third_place: false };
    let mut e = field(8, 3);
    let first = pair(&e, &system, 0, &[true; 8], 0).expect("round 0");
    play_seeds(&mut e, 0, &first);
    let second = pair(&e, &system, 1, &[true; 8], 0).expect("round 1");
    let g = second.games[0];
    e.games.push(game(1, g.white, g.black, 0, true));
    let final_ = pair(&e, &system, 2, &[true; 8], 0).map_err(|e| e.code());
    assert_eq!(final_, Err("pairing_missing_game"));
}

#[test]
fn ladder_challenges_and_swaps() {
    let mut ladder = Ladder::from(vec![10, 11, 12, 13, 14]);
    assert!(ladder.can_challenge(14, 12, 2));
    assert!(!ladder.can_challenge(14, 11, 2));
    assert!(!ladder.can_challenge(12, 14, 5), "only upwards");
    assert!(!ladder.can_challenge(12, 12, 5));
    assert!(!ladder.can_challenge(99, 10, 5));
    ladder.record(14, 12, false).expect("recorded");
    assert_eq!(ladder.order(), [10, 11, 12, 13, 14]);
    ladder.record(14, 12, true).expect("recorded");
    assert_eq!(ladder.order(), [10, 11, 14, 12, 13]);
    ladder.record(11, 10, true).expect("recorded");
    assert_eq!(Vec::from(ladder.clone()), vec![11, 10, 14, 12, 13]);
    assert_eq!(
        ladder.record(10, 13, true).map_err(|e| e.code()),
        Err("ladder_cannot_challenge")
    );
    assert_eq!(
        ladder.record(99, 13, true).map_err(|e| e.code()),
        Err("ladder_not_on_ladder")
    );
    ladder.join(15);
    ladder.join(10);
    assert_eq!(ladder.to_vec(), vec![11, 10, 14, 12, 13, 15]);
    assert_eq!(Ladder::new(vec![1, 2, 1]).order(), [1, 2]);
}

#[test]
fn errors_are_typed() {
    let e = field(4, 2);
    let code = |r: Result<Pairing, PairingError>| r.map_err(|e| e.code());
    let swiss = System::Swiss;
    assert_eq!(
        code(pair(&e, &swiss, 2, &[true; 4], 0)),
        Err("pairing_round_out_of_range")
    );
    assert_eq!(
        code(pair(&e, &swiss, 0, &[true; 3], 0)),
        Err("pairing_presence_length")
    );
    let one = [true, false, false, false];
    assert_eq!(
        code(pair(&e, &swiss, 0, &one, 0)),
        Err("pairing_too_few_players")
    );
    let mut played = e.clone();
    played.games.push(game(0, 0, 1, 0, true));
    assert_eq!(
        code(pair(&played, &swiss, 0, &[true; 4], 0)),
        Err("pairing_already_paired")
    );
    let empty = Event::default();
    assert!(pair(&empty, &System::RoundRobin, 0, &[], 0).is_err());
}

#[test]
fn two_players_and_three() {
    let e = field(2, 1);
    for system in [
        System::Swiss,
        System::RoundRobin,
        System::Knockout { third_place: true },
    ] {
        let p = pair(&e, &system, 0, &[true; 2], 5).expect("paired");
        assert_eq!(unordered(&p), vec![(0, 1)], "{system:?}");
    }
    let e = field(3, 2);
    let p = pair(&e, &System::Swiss, 0, &[true; 3], 5).expect("paired");
    assert_eq!((unordered(&p), p.bye), (vec![(0, 1)], Some(2)));
}

#[test]
fn matching_agrees_with_brute_force() {
    let mut rng = Rng::new(42);
    for _ in 0..2000 {
        let n = 2 * (1 + rng.below(5) as usize);
        let density = 20 + rng.below(70);
        let mut met = vec![vec![false; n]; n];
        for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
            let m = rng.chance(density);
            met[a][b] = m;
            met[b][a] = m;
        }
        let allowed = (0..n)
            .map(|a| (0..n).map(|b| a != b && !met[a][b]).collect())
            .collect();
        let players: Vec<usize> = (0..n).collect();
        assert_eq!(
            Matcher::new(allowed).perfect(),
            brute_force(&met, &players),
            "{met:?}"
        );
    }
}

#[test]
fn matching_leaves_one_unmatched_exactly_when_some_player_can_sit_out() {
    let mut rng = Rng::new(43);
    for _ in 0..2000 {
        let n = 1 + 2 * rng.below(5) as usize;
        let density = 20 + rng.below(70);
        let mut met = vec![vec![false; n]; n];
        for (a, b) in (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b))) {
            let m = rng.chance(density);
            met[a][b] = m;
            met[b][a] = m;
        }
        let allowed: Vec<Vec<bool>> = (0..n)
            .map(|a| (0..n).map(|b| a != b && !met[a][b]).collect())
            .collect();
        let mut matcher = Matcher::new(allowed.clone());
        let unmatched = matcher.unmatched();
        let sitters: Vec<usize> = (0..n)
            .filter(|&out| {
                let rest: Vec<usize> = (0..n).filter(|&p| p != out).collect();
                brute_force(&met, &rest)
            })
            .collect();
        assert_eq!(unmatched == 1, !sitters.is_empty(), "{met:?}");
        for out in 0..n {
            let mut trial = matcher.clone();
            trial.remove(out);
            assert_eq!(
                trial.perfect(),
                sitters.contains(&out),
                "{met:?} less {out}"
            );
        }
        // The same players over a smaller graph keep only the pairs it allows.
        let fewer: Vec<Vec<bool>> = (0..n)
            .map(|a| (0..n).map(|b| allowed[a][b] && (a + b) % 3 != 0).collect())
            .collect();
        let mut narrowed = matcher.regraph(fewer.clone());
        let mut fresh = Matcher::new(fewer);
        assert_eq!(narrowed.unmatched(), fresh.unmatched(), "{met:?}");
    }
}

#[test]
fn knockouts_of_every_size_play_down_to_one_winner() {
    let mut rng = Rng::new(7);
    for n in 2..=64usize {
        let size = n.next_power_of_two();
        let levels = size.trailing_zeros() as usize;
        let system = System::Knockout { third_place: true };
        let mut e = field(n, levels);
        let mut alive: Vec<usize> = (0..n).collect();
        for r in 0..levels {
            let p = pair(&e, &system, r, &vec![true; n], r as u64).expect("paired");
            let third = usize::from(r + 1 == levels && n >= 4);
            assert_eq!(p.games.len(), (alive.len() - p.through.len()) / 2 + third);
            assert_eq!(p.through.len(), if r == 0 { size - n } else { 0 });
            // The top seeds have the byes.
            assert!(p.through.iter().all(|&t| t < size - n), "{:?}", p.through);
            let mut next = p.through.clone();
            for g in &p.games[..p.games.len() - third] {
                assert!(alive.contains(&g.white) && alive.contains(&g.black));
                let white_wins = rng.chance(50);
                e.games.push(game(r, g.white, g.black, 0, white_wins));
                next.push(if white_wins { g.white } else { g.black });
            }
            for &t in &p.through {
                e.rests.push((t, r, BYE));
            }
            next.sort_unstable();
            alive = next;
        }
        assert_eq!(alive.len(), 1, "n {n}");
    }
}

#[test]
fn round_robin_with_absences_pairs_only_those_present() {
    let mut rng = Rng::new(11);
    for _ in 0..200 {
        let n = 2 + rng.below(15) as usize;
        let e = field(n, berger::rounds(n));
        for r in 0..berger::rounds(n) {
            let present: Vec<bool> = (0..n).map(|_| !rng.chance(20)).collect();
            let Ok(p) = pair(&e, &System::RoundRobin, r, &present, 0) else {
                assert!(present.iter().filter(|&&x| x).count() < 2);
                continue;
            };
            let table = berger::table(n + n % 2, r);
            let mut seen = vec![0; n];
            for g in &p.games {
                assert!(table.contains(&(g.white, g.black)));
                seen[g.white] += 1;
                seen[g.black] += 1;
            }
            for &q in p.idle.iter().chain(&p.bye) {
                seen[q] += 1;
            }
            for (q, &here) in present.iter().enumerate() {
                assert_eq!(seen[q], usize::from(here), "n {n} round {r} player {q}");
            }
        }
    }
}
