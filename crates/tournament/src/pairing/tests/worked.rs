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
fn swiss_round_one_by_hand() {
    // Round 0: A(W) beat D, B beat E(W), C(W) beat F. Whites less blacks: A +1, B -1, C +1,
    // D -1, E +1, F -1. Groups: {A, B, C} on one win, {D, E, F} on none.
    // A takes the slip place of a group of three (its second: B); B had fewer Whites: B White.
    // C is left alone in its group and drops to the top of the next: D (no repeat, no clash);
    // D had fewer Whites: D White. E and F have not met: F, with fewer Whites, is White.
    let names = ["A", "B", "C", "D", "E", "F"];
    let ranks = ["3d", "2d", "1d", "1k", "2k", "3k"];
    let mut e = event(
        names
            .iter()
            .zip(ranks)
            .map(|(n, r)| entrant(n, r, 0))
            .collect(),
        3,
    );
    e.games = vec![
        game(0, 0, 3, 0, true),
        game(0, 4, 1, 0, false),
        game(0, 2, 5, 0, true),
    ];
    let pairing = pair(&e, &System::Swiss, 1, &[true; 6], 7).expect("paired");
    assert_eq!(pairing.games, vec![even(1, 0), even(3, 2), even(5, 4)]);
}

#[test]
fn mcmahon_rounds_by_hand() {
    // Bar 1d, floor 10k: A 3d and B 1d start at 30, C 2k at 28, D 4k at 26, E 12k at the
    // floor's 20. Five players: the bye goes to the lowest, E. A meets B (their group); the
    // McMahon difference of C and D is 2, less 1: D takes Black and one stone.
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
    // scores: A 31, B 30, C 29, D 26, E 21. The bye goes to the lowest without one: D (A, B, C
    // and E can still be paired without a repeat or a colour clash: A v C and B v E, whose
    // largest difference, 9, is also the smallest such a pairing allows, A v E being 10).
    // A cannot meet B again: A meets C. A's 31
    // is held at the no-handicap rank's 30, so the difference is 1, less 1: even; C has fewer
    // extra Whites (a handicap game does not count): C White. B meets E: the difference is
    // 30 - 21 = 9, less 1: eight stones, E Black.
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
fn swiss_colours_before_score_groups_when_nothing_else_keeps_them_within_one() {
    // Round 0: A(W) beat C, B(W) beat D. A and B have a win and an extra White; C and D no win
    // and an extra Black. Within the groups, A v B and C v D would each put a player two
    // Whites (or two Blacks) up; A v C and B v D are repeats. The one pairing without a
    // repeat or a clash crosses the groups: A v D and B v C, the players with the extra Black
    // taking White.
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
    assert_eq!(pairing.games, vec![even(3, 0), even(2, 1)]);
}
