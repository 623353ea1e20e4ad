//! Rounds without a game (byes, absences), results by default (forfeits) and OpenGotha's
//! parameters for them (rounding down, virtual opponents), in hand-worked tables.
//!
//! The event: four players, three rounds.
//! - Round 1: Ann (White) beats Bob; Cid beats Dan by default (a forfeit).
//! - Round 2: Ann beats Cid; Bob is absent; Dan has the bye.
//! - Round 3: Ann and Dan draw (jigo); Bob beats Cid.

#![allow(clippy::unwrap_used)]

use tengen_tournament::standings::{Criterion, Entrant, Event, Game, Outcome, ABSENT, BYE};
use tengen_tournament::Rank;

fn event(virtual_opponents: bool, round_down: bool) -> Event {
    let entrant = |name: &str| Entrant {
        name: name.to_string(),
        rank: "1k".parse::<Rank>().unwrap(),
        start: 20,
        category: 0,
        rating: 0,
    };
    let game = |round, white, black, outcome, by_default| Game {
        round,
        white,
        black,
        handicap: 0,
        outcome,
        by_default,
        colours_known: true,
    };
    Event {
        entrants: ["Ann A", "Bob B", "Cid C", "Dan D"].map(entrant).to_vec(),
        rounds: 3,
        games: vec![
            game(0, 0, 1, Outcome::WhiteWins, false),
            game(0, 2, 3, Outcome::WhiteWins, true),
            game(1, 0, 2, Outcome::WhiteWins, false),
            game(2, 0, 3, Outcome::Jigo, false),
            game(2, 1, 2, Outcome::WhiteWins, false),
        ],
        rests: vec![(1, 1, ABSENT), (3, 1, BYE)],
        round_down,
        virtual_opponents,
    }
}

/// Each player's value of each criterion after the last round, as OpenGotha prints it.
fn table(e: &Event, criteria: &[Criterion]) -> Vec<Vec<String>> {
    let scores = e.scores(2);
    (0..4)
        .map(|p| {
            criteria
                .iter()
                .map(|&c| c.format(scores.value(e, c, p)))
                .collect()
        })
        .collect()
}

#[test]
fn wins_family_with_a_bye_an_absence_and_a_forfeit() {
    use Criterion::*;
    // NBW: Ann 1 + 1 + ½; Bob 0, absent (0), 1; Cid 1 by default, 0, 0; Dan 0, bye (1), ½.
    // SOS: the opponents' NBW over the rounds with a game, a forfeit included; 0 for a round
    // without one. Ann: Bob 1 + Cid 1 + Dan 1½ = 3½; Bob: Ann 2½ + 0 + Cid 1 = 3½; Cid: Dan 1½
    // + Ann 2½ + Bob 1 = 5; Dan: Cid 1 + 0 + Ann 2½ = 3½.
    // SOSOS: Ann: 3½ + 5 + 3½ = 12; Bob: 3½ + 0 + 5 = 8½; Cid: 3½ + 3½ + 3½ = 10½;
    // Dan: 5 + 0 + 3½ = 8½.
    // SODOS: the NBW of the opponents beaten, half for a jigo (a win by default counts):
    // Ann: 1 + 1 + 1½/2 = 2¾; Bob: Cid 1; Cid: Dan 1½; Dan: Ann 2½/2 = 1¼.
    // CUSS: NBW after each round summed: Ann 1 + 2 + 2½ = 5½; Bob 0 + 0 + 1 = 1; Cid 1 + 1 + 1
    // = 3; Dan 0 + 1 + 1½ = 2½.
    let e = event(false, true);
    let t = table(&e, &[Nbw, Sosw, Sososw, Sodosw, Cussw]);
    assert_eq!(
        t,
        [
            ["2½", "3½", "12", "2¾", "5½"],
            ["1", "3½", "8½", "1", "1"],
            ["1", "5", "10½", "1½", "3"],
            ["1½", "3½", "8½", "1¼", "2½"],
        ]
    );
}

#[test]
fn virtual_opponents_count_only_games_played_and_half_a_point_for_each_other_round() {
    use Criterion::*;
    // Virtual NBW (what an opponent brings to SOS): Ann 2½ (every game played); Bob 0 + ½
    // (absent) + 1 = 1½; Cid ½ (the forfeit) + 0 + 0 = ½; Dan ½ (forfeit) + ½ (bye) + ½ = 1½.
    // SOS: Ann: Bob 1½ + Cid ½ + Dan 1½ = 3½; Bob: Ann 2½ + 0 + Cid ½ = 3; Cid: Dan 1½ + Ann 2½
    // + Bob 1½ = 5½; Dan: Cid ½ + 0 + Ann 2½ = 3. The players' own NBW do not change.
    let e = event(true, true);
    let t = table(&e, &[Nbw, Sosw]);
    assert_eq!(t, [["2½", "3½"], ["1", "3"], ["1", "5½"], ["1½", "3"]]);
}

#[test]
fn mcmahon_family_rounds_an_absence_down_unless_told_not_to() {
    use Criterion::*;
    // Everyone starts at 20. MMS: Ann 22½; Bob 20 + ½ (absent) + 1 = 21½, rounded down to 21;
    // Cid 21; Dan 20 + 1 (bye) + ½ = 21½ (a game's half is never rounded).
    // SOS (MMS): a round without a game counts the player's own start (20). Rounded: Ann: 21
    // + 21 + 21½ = 63½; Bob: 22½ + 20 + 21 = 63½; Cid: 21½ + 22½ + 21 = 65; Dan: 21 + 20 + 22½
    // = 63½. Unrounded, Bob's 21½ lifts Ann to 64 and Cid to 65½.
    let rounded = event(false, true);
    let exact = event(false, false);
    let mms = |e: &Event| table(e, &[Mms, Sosm]);
    assert_eq!(
        mms(&rounded),
        [["22½", "63½"], ["21", "63½"], ["21", "65"], ["21½", "63½"]]
    );
    assert_eq!(
        mms(&exact),
        [["22½", "64"], ["21½", "63½"], ["21", "65½"], ["21½", "63½"]]
    );
}
