//! Property tests over 1,000 random Swiss and 1,000 random McMahon events: 2 to 64 players,
//! random ranks, 3 to 8 rounds, about one player in ten absent each round, results mostly to
//! the stronger, some jigos. Every round is checked:
//! - every present player plays exactly once or has the bye; no absent player is paired; a
//!   bye exactly when the count is odd;
//! - no repeated game when a pairing without one exists (found by brute force up to 12
//!   players, by the matching beyond), counting the bye rule;
//! - the bye goes to a player with the fewest byes among those present;
//! - no two games could exchange partners, without a repeat, to pair closer in score (the
//!   score difference outweighs every criterion after it, as in OpenGotha);
//! - in an even game White had no more extra Whites than Black before the round;
//! - a McMahon handicap goes to the player with the higher McMahon score, at most the ceiling;
//! - the same inputs give the same pairing.
//!
//! Each test prints its counts: unavoidable repeats, seats two colours apart, games across
//! score groups and the score differences summed.

use super::{entrant, event, Rng};
use crate::pairing::history::{main_scores, History};
use crate::pairing::matching::Matcher;
use crate::pairing::{mcmahon_start, pair, HandicapPolicy, Pairing, System};
use crate::standings::{Event, Game, Outcome, ABSENT, BYE};
use crate::Rank;

const EVENTS: u64 = 1000;

#[test]
fn swiss_events_keep_every_rule() {
    let mut stats = Stats::default();
    for k in 0..EVENTS {
        run_event(&mut Rng::new(k), false, &mut stats);
    }
    stats.report("swiss");
}

#[test]
fn mcmahon_events_keep_every_rule() {
    let mut stats = Stats::default();
    for k in 0..EVENTS {
        run_event(&mut Rng::new(1_000_000 + k), true, &mut stats);
    }
    stats.report("mcmahon");
}

/// Counts over all rounds, printed for the record.
#[derive(Default)]
struct Stats {
    rounds: usize,
    games: usize,
    repeats: usize,
    seats: usize,
    beyond_one: usize,
    /// Games between players of different main scores, and the score differences summed (in
    /// points).
    across: usize,
    gaps: i64,
}

impl Stats {
    fn report(&self, name: &str) {
        println!(
            "{name}: {} rounds, {} games, {} repeats (unavoidable), {} of {} colour balances \
             beyond one, {} games across score groups, score differences summing to {} points",
            self.rounds,
            self.games,
            self.repeats,
            self.beyond_one,
            self.seats,
            self.across,
            self.gaps
        );
    }
}

/// A random event, paired and played round by round, each round checked.
fn run_event(rng: &mut Rng, mcmahon: bool, stats: &mut Stats) {
    let n = 2 + rng.below(63) as usize;
    let rounds = 3 + rng.below(6) as usize;
    let (bar, floor) = (Rank::from_number(0), Rank::from_number(-20));
    let entrants = (0..n)
        .map(|i| {
            let rank = Rank::from_number(rng.below(39) as i32 - 30);
            let start = if mcmahon {
                mcmahon_start(rank, bar, floor)
            } else {
                0
            };
            entrant(&format!("P{i:02}"), &rank.to_string(), start)
        })
        .collect();
    let mut e = event(entrants, rounds);
    let system = if mcmahon {
        let handicap = rng.chance(50).then(HandicapPolicy::default);
        System::McMahon {
            bar,
            floor,
            handicap,
        }
    } else {
        System::Swiss
    };
    for round in 0..rounds {
        let present: Vec<bool> = (0..n).map(|_| !rng.chance(10)).collect();
        let seed = rng.next();
        match pair(&e, &system, round, &present, seed) {
            Ok(pairing) => {
                check_round(&e, &system, round, &present, &pairing, stats);
                assert_eq!(
                    pair(&e, &system, round, &present, seed),
                    Ok(pairing.clone())
                );
                play(rng, &mut e, round, &present, &pairing);
            }
            Err(err) => {
                assert_eq!(err.code(), "pairing_too_few_players");
                assert!(present.iter().filter(|&&p| p).count() < 2);
                play(rng, &mut e, round, &present, &Pairing::default());
            }
        }
    }
}

/// Records the round's results: the stronger (by rank, less the handicap) wins three times in
/// four, one game in fifty is a jigo; the bye and the absences as rests.
fn play(rng: &mut Rng, e: &mut Event, round: usize, present: &[bool], pairing: &Pairing) {
    for g in &pairing.games {
        let edge =
            e.entrants[g.white].rank.number() - e.entrants[g.black].rank.number() - g.handicap;
        let outcome = if rng.chance(2) {
            Outcome::Jigo
        } else if rng.chance(if edge >= 0 { 75 } else { 25 }) {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        };
        e.games.push(Game {
            round,
            white: g.white,
            black: g.black,
            handicap: g.handicap,
            outcome,
            by_default: false,
            colours_known: true,
        });
    }
    if let Some(b) = pairing.bye {
        e.rests.push((b, round, BYE));
    }
    for (p, _) in present.iter().enumerate().filter(|(_, &here)| !here) {
        e.rests.push((p, round, ABSENT));
    }
}

fn check_round(
    e: &Event,
    system: &System,
    round: usize,
    present: &[bool],
    pairing: &Pairing,
    stats: &mut Stats,
) {
    let history = History::before(e, round);
    let scores = main_scores(e, round, matches!(system, System::McMahon { .. }));
    check_seats(present, pairing);
    check_bye(&history, present, pairing);
    check_repeats(&history, present, pairing, stats);
    check_exchanges(system, round, &scores, &history, pairing);
    check_colours(system, &scores, &history, pairing, stats);
    stats.rounds += 1;
    stats.games += pairing.games.len();
    for g in &pairing.games {
        let gap = (scores[g.white] - scores[g.black]).abs();
        stats.across += usize::from(gap > 0);
        stats.gaps += gap / 2;
    }
}

/// Everyone present plays once or has the bye; nobody absent is paired.
fn check_seats(present: &[bool], pairing: &Pairing) {
    let mut seen = vec![0; present.len()];
    for g in &pairing.games {
        seen[g.white] += 1;
        seen[g.black] += 1;
    }
    if let Some(b) = pairing.bye {
        seen[b] += 1;
    }
    for (p, &here) in present.iter().enumerate() {
        assert_eq!(seen[p], usize::from(here), "player {p}: {pairing:?}");
    }
    let count = present.iter().filter(|&&p| p).count();
    assert_eq!(pairing.bye.is_some(), count % 2 == 1);
    assert!(pairing.through.is_empty() && pairing.idle.is_empty());
}

/// The bye goes to a player with the fewest byes among those present.
fn check_bye(history: &History, present: &[bool], pairing: &Pairing) {
    let Some(b) = pairing.bye else {
        return;
    };
    let fewest = (0..present.len())
        .filter(|&p| present[p])
        .map(|p| history.byes[p])
        .min();
    assert_eq!(
        Some(history.byes[b]),
        fewest,
        "a second bye while another has none"
    );
}

/// No repeat when a pairing without one exists, the bye rule kept.
fn check_repeats(history: &History, present: &[bool], pairing: &Pairing, stats: &mut Stats) {
    let repeats = pairing
        .games
        .iter()
        .filter(|g| history.met[g.white][g.black])
        .count();
    stats.repeats += repeats;
    if repeats > 0 {
        assert!(
            !pairable(history, present, &history.met),
            "an avoidable repeat: {pairing:?}"
        );
    }
}

/// Whether some pairing of the present players meets none of the `forbidden` pairs and gives
/// the bye (if any) to a player with the fewest byes.
fn pairable(history: &History, present: &[bool], forbidden: &[Vec<bool>]) -> bool {
    let players: Vec<usize> = (0..present.len()).filter(|&p| present[p]).collect();
    let fewest = players.iter().map(|&p| history.byes[p]).min().unwrap_or(0);
    let byes: Vec<Option<usize>> = if players.len() % 2 == 0 {
        vec![None]
    } else {
        players
            .iter()
            .filter(|&&p| history.byes[p] == fewest)
            .map(|&p| Some(p))
            .collect()
    };
    byes.into_iter().any(|bye| {
        let rest: Vec<usize> = players
            .iter()
            .copied()
            .filter(|&p| Some(p) != bye)
            .collect();
        perfect(forbidden, &rest)
    })
}

/// Whether `players` can all be paired with no pair `forbidden`: by brute force up to 12
/// players, by the matching beyond.
fn perfect(forbidden: &[Vec<bool>], players: &[usize]) -> bool {
    if players.len() <= 12 {
        brute_force(forbidden, players)
    } else {
        let allowed = players
            .iter()
            .map(|&a| {
                players
                    .iter()
                    .map(|&b| a != b && !forbidden[a][b])
                    .collect()
            })
            .collect();
        Matcher::new(allowed).perfect()
    }
}

/// Whether `players` can all be paired with no pair `met` (or otherwise forbidden), by trying
/// every partner of the first.
pub(super) fn brute_force(met: &[Vec<bool>], players: &[usize]) -> bool {
    let Some((&first, rest)) = players.split_first() else {
        return true;
    };
    rest.iter().enumerate().any(|(i, &other)| {
        let left: Vec<usize> = rest[..i].iter().chain(&rest[i + 1..]).copied().collect();
        !met[first][other] && brute_force(met, &left)
    })
}

/// Colours and handicaps.
fn check_colours(
    system: &System,
    scores: &[i64],
    history: &History,
    pairing: &Pairing,
    stats: &mut Stats,
) {
    for g in &pairing.games {
        let (w, b) = (g.white, g.black);
        if g.handicap == 0 {
            assert!(history.balance[w] <= history.balance[b], "{g:?}");
        } else {
            assert!(matches!(
                system,
                System::McMahon {
                    handicap: Some(_),
                    ..
                }
            ));
            assert!(scores[w] > scores[b] && g.handicap <= 9, "{g:?}");
        }
        for (p, d) in [
            (w, i32::from(g.handicap == 0)),
            (b, -i32::from(g.handicap == 0)),
        ] {
            stats.seats += 1;
            if (history.balance[p] + d).abs() > 1 {
                stats.beyond_one += 1;
            }
        }
    }
}

/// No two games could exchange partners, both new games fresh, to pair closer in score: the
/// score difference's cost (OpenGotha's (1 - x)(1 + x/2), x the groups between two players
/// over the groups there are) outweighs every criterion after it.
fn check_exchanges(
    system: &System,
    round: usize,
    scores: &[i64],
    history: &History,
    pairing: &Pairing,
) {
    let groups = match system {
        System::McMahon { bar, floor, .. } => {
            let low = i64::from(floor.number()) + 29;
            let high = i64::from(bar.number()) + 32 + round as i64;
            let seen = scores.iter().map(|s| s / 2);
            high.max(seen.clone().max().unwrap_or(high)) - low.min(seen.min().unwrap_or(low)) + 1
        }
        _ => round as i64 + 1,
    };
    let value = |(a, b): (usize, usize)| {
        let x = (scores[a] / 2 - scores[b] / 2).abs() as f64 / groups as f64;
        (1.0 - x) * (1.0 + 0.5 * x)
    };
    let fresh = |(a, b): (usize, usize)| !history.met[a][b];
    let games: Vec<(usize, usize)> = pairing.games.iter().map(|g| (g.white, g.black)).collect();
    for (i, &(a, b)) in games.iter().enumerate() {
        for &(c, d) in &games[i + 1..] {
            let now = value((a, b)) + value((c, d));
            for (p, q) in [((a, c), (b, d)), ((a, d), (b, c))] {
                let closer = value(p) + value(q) > now + 1e-9;
                assert!(
                    !(fresh(p) && fresh(q) && fresh((a, b)) && fresh((c, d)) && closer),
                    "{:?} {:?} could be {p:?} {q:?}",
                    (a, b),
                    (c, d)
                );
            }
        }
    }
}

/// 600 players over 10 McMahon rounds with handicaps, and over 10 Swiss rounds, timed (pairing
/// only). Run it in release:
/// `cargo test --release -p tengen-tournament large_mcmahon -- --ignored --nocapture`.
#[test]
#[ignore = "a timing, meaningful in release"]
fn large_mcmahon_event_is_quick() {
    let (bar, floor) = (Rank::from_number(0), Rank::from_number(-20));
    let mcmahon = System::McMahon {
        bar,
        floor,
        handicap: Some(HandicapPolicy::default()),
    };
    for (name, system) in [("McMahon", mcmahon), ("Swiss", System::Swiss)] {
        let mut rng = Rng::new(600);
        let n = 600;
        let entrants = (0..n)
            .map(|i| {
                let rank = Rank::from_number(rng.below(39) as i32 - 30);
                let start = match system {
                    System::McMahon { .. } => mcmahon_start(rank, bar, floor),
                    _ => 0,
                };
                entrant(&format!("P{i:03}"), &rank.to_string(), start)
            })
            .collect();
        let mut e = event(entrants, 10);
        let mut spent = std::time::Duration::ZERO;
        for round in 0..10 {
            let present: Vec<bool> = (0..n).map(|_| !rng.chance(5)).collect();
            let start = std::time::Instant::now();
            let pairing = pair(&e, &system, round, &present, round as u64).expect("paired");
            spent += start.elapsed();
            play(&mut rng, &mut e, round, &present, &pairing);
        }
        println!("600 players, 10 {name} rounds: {spent:?}");
    }
}
