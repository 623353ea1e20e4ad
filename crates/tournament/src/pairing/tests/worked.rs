//! Small Swiss and McMahon rounds worked by hand, the reasoning in the comments.

use super::{entrant, event, game};
use crate::pairing::{mcmahon_start, pair, HandicapPolicy, Pair, System};
use crate::standings::BYE;
use crate::Rank;

fn even(white: usize, black: usize) -> Pair {
    Pair {
        white,
        black,
        handicap: 0,
    }
}

#[test]
fn swiss_round_zero_splits_the_list_and_slips_the_halves() {
    // One group of six by rank: the top half (A, B, C) meets the bottom half (D, E, F) in
    // order, 1 v 4, 2 v 5, 3 v 6; colours are the seed's toss.
    let ranks = ["3d", "2d", "1d", "1k", "2k", "3k"];
    let names = ["A", "B", "C", "D", "E", "F"];
    let e = event(
        names
            .iter()
            .zip(ranks)
            .map(|(n, r)| entrant(n, r, 0))
            .collect(),
        3,
    );
    let pairing = pair(&e, &System::Swiss, 0, &[true; 6], 7).expect("paired");
    let met: Vec<(usize, usize)> = pairing
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    assert_eq!(met, vec![(0, 3), (1, 4), (2, 5)]);
    assert_eq!(pairing.bye, None);
}

#[test]
fn swiss_never_repeats_a_game_to_pair_closer_in_score() {
    // Round 0: A beat B, C beat D. Round 1: A beat C, B beat D. Wins: A 2, B 1, C 1, D 0.
    // A has met B and C, D has met C and B: the only pairing without a repeat is A v D and
    // B v C, two groups apart where A v B and C v D would be one apart. Five hundred million
    // million for each game never played outweigh any score difference (OpenGotha's weights).
    let names = ["A", "B", "C", "D"];
    let ranks = ["3d", "2d", "1d", "1k"];
    let mut e = event(
        names
            .iter()
            .zip(ranks)
            .map(|(n, r)| entrant(n, r, 0))
            .collect(),
        3,
    );
    e.games = vec![
        game(0, 0, 1, 0, true),
        game(0, 2, 3, 0, true),
        game(1, 2, 0, 0, false),
        game(1, 1, 3, 0, true),
    ];
    let pairing = pair(&e, &System::Swiss, 2, &[true; 4], 7).expect("paired");
    let met: Vec<(usize, usize)> = pairing
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    assert_eq!(met, vec![(0, 3), (1, 2)]);
    // In each game White had no more extra Whites than Black.
    for g in &pairing.games {
        let balance = |p: usize| {
            e.games
                .iter()
                .map(|x| i32::from(x.white == p) - i32::from(x.black == p))
                .sum::<i32>()
        };
        assert!(balance(g.white) <= balance(g.black), "{g:?}");
    }
}

#[test]
fn mcmahon_rounds_by_hand() {
    // Bar 1d, floor 10k: A 3d and B 1d start at 30, C 2k at 28, D 4k at 26, E 12k at the
    // floor's 20. Five players: the bye goes to the lowest rank plus doubled score, E. A meets
    // B (their group); the McMahon difference of C and D is 2, less 1: D takes Black and one
    // stone.
    let (bar, floor) = (Rank::from_number(0), Rank::from_number(-10));
    let people = [
        ("A", "3d"),
        ("B", "1d"),
        ("C", "2k"),
        ("D", "4k"),
        ("E", "12k"),
    ];
    let entrants = people
        .iter()
        .map(|(n, r)| {
            let rank: Rank = r.parse().expect("rank");
            entrant(n, r, mcmahon_start(rank, bar, floor))
        })
        .collect::<Vec<_>>();
    assert_eq!(
        entrants.iter().map(|e| e.start).collect::<Vec<_>>(),
        [30, 30, 28, 26, 20]
    );
    let mut e = event(entrants, 3);
    let system = System::McMahon {
        bar,
        floor,
        handicap: Some(HandicapPolicy::default()),
    };
    let first = pair(&e, &system, 0, &[true; 5], 1).expect("paired");
    assert_eq!(first.bye, Some(4));
    assert_eq!(
        first.games[1],
        Pair {
            white: 2,
            black: 3,
            handicap: 1
        }
    );
    let ab = first.games[0];
    assert_eq!(
        (ab.white.min(ab.black), ab.white.max(ab.black), ab.handicap),
        (0, 1, 0)
    );

    // Round 0 as played: A(W) beat B, C(W) beat D with one stone, E had the bye. McMahon
    // scores: A 31, B 30, C 29, D 26, E 21. The bye goes to the lowest rank plus doubled score
    // without a bye: D (-4 + 52). A cannot meet B again. Score groups run from the floor's
    // 19 to the bar's 33 (15 groups): A v C and B v E are 2 and 9 groups apart, worth
    // (1 - 2/15)(1 + 1/15) + (1 - 9/15)(1 + 9/30) = 1.44; A v E and B v C, 10 and 1 apart,
    // are worth 1.41: A v C and B v E. A's 31 is held at the no-handicap rank's 30, so the
    // difference is 1, less 1: even; C has fewer extra Whites (a handicap game does not
    // count): C White. B meets E: the difference is 30 - 21 = 9, less 1: eight stones.
    e.games = vec![game(0, 0, 1, 0, true), game(0, 2, 3, 1, true)];
    e.rests = vec![(4, 0, BYE)];
    let second = pair(&e, &system, 1, &[true; 5], 1).expect("paired");
    assert_eq!(second.bye, Some(3));
    assert_eq!(
        second.games,
        vec![
            even(2, 0),
            Pair {
                white: 1,
                black: 4,
                handicap: 8
            }
        ]
    );
}

#[test]
fn swiss_score_groups_before_colours() {
    // Round 0: A(W) beat C, B(W) beat D. A and B have a win and an extra White; C and D no win
    // and an extra Black. Within the groups, A v B and C v D each put a player two Whites (or
    // two Blacks) up; A v D and B v C would balance colours but cross the groups. As in
    // OpenGotha, the score difference (10¹¹) outweighs colours (10⁶): A v B and C v D.
    let names = ["A", "B", "C", "D"];
    let ranks = ["3d", "2d", "1d", "1k"];
    let mut e = event(
        names
            .iter()
            .zip(ranks)
            .map(|(n, r)| entrant(n, r, 0))
            .collect(),
        3,
    );
    e.games = vec![game(0, 0, 2, 0, true), game(0, 1, 3, 0, true)];
    let pairing = pair(&e, &System::Swiss, 1, &[true; 4], 7).expect("paired");
    let met: Vec<(usize, usize)> = pairing
        .games
        .iter()
        .map(|g| (g.white.min(g.black), g.white.max(g.black)))
        .collect();
    assert_eq!(met, vec![(0, 1), (2, 3)]);
}
