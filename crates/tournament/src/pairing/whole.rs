//! Swiss and McMahon paired as a whole round, as OpenGotha pairs them: every pair of players
//! gets a weight from OpenGotha's criteria, and the round is the matching of greatest total
//! weight ([`super::blossom`]). The criteria and their weights are OpenGotha 3.51's defaults
//! (`Tournament.costValue`, `fillPairingInfo`, `gameBetween`, `chooseAByePlayer`,
//! `makeAutomaticPairing`; `PairingParameterSet.initForMM` and `initForSwiss`), in order of
//! weight:
//!
//! | criterion | weight | what it asks |
//! | --- | --- | --- |
//! | avoid duplicate games | 5·10¹⁴ | two players meet once |
//! | minimise the score difference | 10¹¹ · (1 − x)(1 + x/2) | x: the score groups between them over the groups there are |
//! | avoid the same country and club (McMahon) | up to 10¹¹ | rather a score difference than a compatriot |
//! | draw-ups and draw-downs | 2·10⁷ a step | a player drawn up before is drawn down next, from the middle of the groups |
//! | seeding | 5·10⁶ | within a group, split and random (first two rounds of McMahon), then split and slip |
//! | colour balance | 10⁶ | an even game between one with extra Whites and one with extra Blacks |
//!
//! The "random" parts are OpenGotha's deterministic ones (a sum over the two names), so the
//! same file pairs the same way in both programs. Groups of more than 600 players are paired in
//! slices of at least 200 by score, as OpenGotha does.

use std::cmp::Reverse;

use super::blossom::max_weight_matching;
use super::history::{main_scores, History};
use super::matching::Matcher;
use super::{HandicapPolicy, Pair, Pairing};
use crate::standings::{Criterion, Event};
use crate::Rank;

/// Weights (OpenGotha's `PairingParameterSet` defaults).
const AVOID_DUPLICATE: i64 = 500_000_000_000_000;
const SCORE_DIFFERENCE: i64 = 100_000_000_000;
const DUDD: i64 = SCORE_DIFFERENCE / 1000;
const SEEDING: i64 = SCORE_DIFFERENCE / 20_000;
const COLOUR_BALANCE: i64 = 1_000_000;
/// "Rather N×1 than 1×N": how the score-difference cost bends.
const NX1: f64 = 0.5;
/// OpenGotha splits a round of more players than this into slices of at least the minimum.
const SLICE_MAX: usize = 600;
const SLICE_MIN: usize = 200;

/// The main score and its range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Main {
    /// McMahon scores, between the floor's and the bar's starting scores.
    McMahon {
        /// The bar.
        bar: Rank,
        /// The floor.
        floor: Rank,
    },
    /// Number of wins.
    Swiss,
}

/// How players of one score group meet after the first two rounds of McMahon (and in every
/// round of Swiss): OpenGotha 3.51's default slips, earlier versions folded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Seeding {
    /// The top half meets the bottom half in order: 1-5, 2-6, 3-7, 4-8.
    #[default]
    SplitAndSlip,
    /// The top meets the bottom: 1-8, 2-7, 3-6, 4-5.
    SplitAndFold,
}

/// A round to pair, with what OpenGotha weighs.
#[derive(Debug, Clone, Copy)]
pub struct Round<'a> {
    /// The event, with the rounds before this one.
    pub event: &'a Event,
    /// The round to pair, from 0.
    pub round: usize,
    /// Who plays in it.
    pub present: &'a [bool],
    /// McMahon or Swiss.
    pub main: Main,
    /// Handicaps (McMahon), or even games.
    pub handicap: Option<HandicapPolicy>,
    /// The placement criteria, which order players within a score group.
    pub criteria: &'a [Criterion],
    /// Each entrant's country and club, or empty when unknown (then nobody is kept apart).
    pub origins: &'a [(String, String)],
    /// How a score group meets itself.
    pub seeding: Seeding,
}

/// What each player brings to the round, over every entrant (absent ones count in the score
/// groups' sizes and places, as in OpenGotha).
struct Seats {
    main2: Vec<i64>,
    mms2: Vec<i64>,
    group: Vec<i64>,
    group_size: Vec<i64>,
    inner: Vec<i64>,
    groups: i64,
    draw_ups: Vec<i64>,
    draw_downs: Vec<i64>,
    history: History,
}

/// Pairs the round (the checks every system shares are done).
pub fn pair(r: &Round) -> Pairing {
    let seats = Seats::new(r);
    let mut players: Vec<usize> = (0..r.present.len()).filter(|&p| r.present[p]).collect();
    let bye = (players.len() % 2 == 1).then(|| choose_bye(r, &seats, &players));
    players.retain(|&p| Some(p) != bye);
    let mut pairs = Vec::new();
    for slice in slices(&seats, players) {
        pairs.extend(match_slice(r, &seats, &slice));
    }
    let mut games: Vec<Pair> = pairs.iter().map(|&(a, b)| game(r, &seats, a, b)).collect();
    let best = |g: &Pair| {
        let (w, b) = (seats.main2[g.white], seats.main2[g.black]);
        (Reverse(w.max(b)), Reverse(w.min(b)), g.white.min(g.black))
    };
    games.sort_by_key(best);
    Pairing {
        games,
        bye,
        ..Pairing::default()
    }
}

impl Seats {
    fn new(r: &Round) -> Seats {
        let event = r.event;
        let n = event.entrants.len();
        let mcmahon = matches!(r.main, Main::McMahon { .. });
        let main2 = main_scores(event, r.round, mcmahon);
        let mms2 = main_scores(event, r.round, true);
        let (low, high) = score_range(r, &main2);
        let group: Vec<i64> = main2.iter().map(|s| high - s / 2).collect();
        let groups = high - low + 1;
        let mut group_size = vec![0; n];
        let mut inner = vec![0; n];
        let values = placement_values(r);
        let mut by_group: Vec<usize> = (0..n).collect();
        by_group.sort_by(|&a, &b| {
            group[a]
                .cmp(&group[b])
                .then_with(|| values[b].cmp(&values[a]))
                .then_with(|| event.entrants[b].rank.cmp(&event.entrants[a].rank))
                .then(a.cmp(&b))
        });
        for members in by_group.chunk_by(|&a, &b| group[a] == group[b]) {
            for (place, &p) in members.iter().enumerate() {
                group_size[p] = members.len() as i64;
                inner[p] = place as i64;
            }
        }
        let (draw_ups, draw_downs) = draws(event, r.round, mcmahon);
        Seats {
            main2,
            mms2,
            group,
            group_size,
            inner,
            groups,
            draw_ups,
            draw_downs,
            history: History::before(event, r.round),
        }
    }
}

/// The lowest and highest main score a player can have before the round (OpenGotha's
/// `mainScoreMin`/`mainScoreMax`), widened to every score there is (a start set by hand).
fn score_range(r: &Round, main2: &[i64]) -> (i64, i64) {
    let (low, high) = match r.main {
        Main::McMahon { bar, floor } => (
            i64::from(floor.number()) - 1 + 30,
            i64::from(bar.number()) + 2 + r.round as i64 + 30,
        ),
        Main::Swiss => (0, r.round as i64),
    };
    let seen_low = main2.iter().map(|s| s / 2).min().unwrap_or(low);
    let seen_high = main2.iter().map(|s| s / 2).max().unwrap_or(high);
    (low.min(seen_low), high.max(seen_high))
}

/// Each entrant's placement criteria before the round, then the rating in the rounds where
/// OpenGotha adds it (the first two of McMahon, every round of Swiss).
fn placement_values(r: &Round) -> Vec<Vec<i64>> {
    let event = r.event;
    let scores = r.round.checked_sub(1).map(|last| event.scores(last));
    let rating = r.round <= 1 || r.main == Main::Swiss;
    (0..event.entrants.len())
        .map(|p| {
            let entrant = &event.entrants[p];
            let mut v: Vec<i64> = r
                .criteria
                .iter()
                .map(|&c| match (&scores, c) {
                    (_, Criterion::Dc | Criterion::Sdc) => 0,
                    (Some(s), c) => s.value(event, c, p),
                    (None, Criterion::Mms) => 2 * entrant.start,
                    (None, Criterion::Rank) => i64::from(entrant.rank.number()),
                    (None, Criterion::Rating) => entrant.rating,
                    (None, Criterion::Cat) => entrant.category,
                    (None, _) => 0,
                })
                .collect();
            if rating {
                v.push(entrant.rating);
            }
            v
        })
        .collect()
}

/// Each entrant's draw-ups and draw-downs so far: games against a higher, or lower, main
/// score before that round.
fn draws(event: &Event, round: usize, mcmahon: bool) -> (Vec<i64>, Vec<i64>) {
    let n = event.entrants.len();
    let mut ups = vec![0; n];
    let mut downs = vec![0; n];
    for before in 0..round {
        let score = main_scores(event, before, mcmahon);
        for g in event.games.iter().filter(|g| g.round == before) {
            let (w, b) = (score[g.white] / 2, score[g.black] / 2);
            if w < b {
                ups[g.white] += 1;
                downs[g.black] += 1;
            } else if w > b {
                downs[g.white] += 1;
                ups[g.black] += 1;
            }
        }
    }
    (ups, downs)
}

/// The bye, among the players with the fewest byes: OpenGotha's choice (the lowest rank plus
/// doubled McMahon score; of equals, the last in the list), unless the others could then not
/// all be paired without a repeat while some other choice allows it: then the first such
/// choice in OpenGotha's order. (OpenGotha chooses the bye alone, and may force a repeat in a
/// small event.)
fn choose_bye(r: &Round, seats: &Seats, players: &[usize]) -> usize {
    let weight = |p: usize| {
        i64::from(r.event.entrants[p].rank.number())
            + seats.mms2[p]
            + 1000 * i64::from(seats.history.byes[p])
    };
    let fewest = players
        .iter()
        .map(|&p| seats.history.byes[p])
        .min()
        .unwrap_or(0);
    let mut candidates: Vec<(usize, usize)> = players
        .iter()
        .enumerate()
        .filter(|&(_, &p)| seats.history.byes[p] == fewest)
        .map(|(i, &p)| (i, p))
        .collect();
    // Lightest first; of equals, the last in the list first.
    candidates.sort_by_key(|&(i, p)| (weight(p), Reverse(i)));
    let fresh: Vec<Vec<bool>> = players
        .iter()
        .map(|&a| {
            players
                .iter()
                .map(|&b| a != b && !seats.history.met[a][b])
                .collect()
        })
        .collect();
    // One largest matching first: each choice then costs an augmenting path or two.
    let mut matcher = Matcher::new(fresh);
    matcher.unmatched();
    let leaves_fresh = |i: usize| {
        let mut m = matcher.clone();
        m.remove(i);
        m.perfect()
    };
    candidates
        .iter()
        .find(|&&(i, _)| leaves_fresh(i))
        .or(candidates.first())
        .map_or(players[players.len() - 1], |&(_, p)| p)
}

/// The players in slices of at most 600, from the top scores down (OpenGotha's
/// `makeAutomaticPairing`): a slice closes once it holds 200 or more, an even number, at the
/// end of a score.
fn slices(seats: &Seats, mut left: Vec<usize>) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let scores: Vec<i64> = {
        let mut s: Vec<i64> = left.iter().map(|&p| seats.main2[p] / 2).collect();
        s.sort_unstable_by(|a, b| b.cmp(a));
        s.dedup();
        s
    };
    while left.len() > SLICE_MAX {
        let mut slice = Vec::new();
        'scores: for &score in &scores {
            let mut i = 0;
            while i < left.len() {
                if seats.main2[left[i]] / 2 < score {
                    i += 1;
                    continue;
                }
                slice.push(left.remove(i));
                if slice.len() >= SLICE_MAX || left.len() <= SLICE_MIN {
                    break 'scores;
                }
            }
            if slice.len() >= SLICE_MIN && slice.len() % 2 == 0 {
                break;
            }
        }
        out.push(slice);
    }
    out.push(left);
    out
}

/// The heaviest pairing of a slice, every player paired.
fn match_slice(r: &Round, seats: &Seats, slice: &[usize]) -> Vec<(usize, usize)> {
    let mut edges = Vec::with_capacity(slice.len() * slice.len() / 2);
    for i in 0..slice.len() {
        for j in i + 1..slice.len() {
            edges.push((i, j, cost(r, seats, slice[i], slice[j])));
        }
    }
    let mate = max_weight_matching(slice.len(), &edges, true);
    (0..slice.len())
        .filter_map(|i| mate[i].filter(|&j| i < j).map(|j| (slice[i], slice[j])))
        .collect()
}

/// OpenGotha's weight of pairing `a` with `b` (`Tournament.costValue`, one category).
fn cost(r: &Round, s: &Seats, a: usize, b: usize) -> i64 {
    let mut cost = 1;
    if !s.history.met[a][b] {
        cost += AVOID_DUPLICATE;
    }
    cost += colour_cost(r, s, a, b);
    let x = (s.group[a] - s.group[b]).abs() as f64 / s.groups as f64;
    cost += (SCORE_DIFFERENCE as f64 * (1.0 - x) * (1.0 + NX1 * x)) as i64;
    cost += dudd_cost(s, a, b);
    cost += seeding_cost(r, s, a, b);
    if matches!(r.main, Main::McMahon { .. }) {
        cost += geo_cost(r, s, a, b);
    }
    cost
}

/// Colour balance: only for a game that would be even.
fn colour_cost(r: &Round, s: &Seats, a: usize, b: usize) -> i64 {
    if handicap_between(r, s, a, b) != 0 {
        return 0;
    }
    let (x, y) = (s.history.balance[a], s.history.balance[b]);
    if x * y < 0 {
        COLOUR_BALANCE
    } else if (x == 0 && y.abs() >= 2) || (y == 0 && x.abs() >= 2) {
        COLOUR_BALANCE / 2
    } else {
        0
    }
}

/// Draw-ups and draw-downs between neighbouring groups (fewer than four apart): a draw that
/// repeats an earlier one in the same sense costs, one that compensates it is preferred; the
/// players drawn are taken from the middle of their groups.
fn dudd_cost(s: &Seats, a: usize, b: usize) -> i64 {
    let gap = (s.group[a] - s.group[b]).abs();
    if gap == 0 || gap >= 4 {
        return 0;
    }
    // Group numbers grow downwards: the upper player has the smaller number.
    let (upper, lower) = if s.group[a] < s.group[b] {
        (a, b)
    } else {
        (b, a)
    };
    let mut scenario = 2;
    // The lower player is drawn up, the upper drawn down.
    if s.draw_ups[lower] > 0 {
        scenario -= 1;
    }
    if s.draw_downs[upper] > 0 {
        scenario -= 1;
    }
    if scenario != 0 && s.draw_downs[lower] > 0 && s.draw_ups[lower] < s.draw_downs[lower] {
        scenario += 1;
    }
    if scenario != 0 && s.draw_ups[upper] > 0 && s.draw_downs[upper] < s.draw_ups[upper] {
        scenario += 1;
    }
    let weight = DUDD / 5;
    let middle = |p: usize| {
        let (size, place) = (s.group_size[p], s.inner[p]);
        weight / 2 * (size - 1 - (2 * place - size + 1).abs()) / size
    };
    let steps = match scenario {
        0 => 0,
        1 => 1,
        2 => 2,
        3 => 3,
        _ => 4,
    };
    middle(upper) + middle(lower) + steps * weight
}

/// Seeding within a score group: split and random in the first two rounds of McMahon, split
/// and slip after (and always in Swiss).
fn seeding_cost(r: &Round, s: &Seats, a: usize, b: usize) -> i64 {
    if s.group[a] != s.group[b] {
        return 0;
    }
    let size = s.group_size[a];
    let (ca, cb) = (s.inner[a], s.inner[b]);
    let random = r.round <= 1 && matches!(r.main, Main::McMahon { .. });
    if random {
        let split = (2 * ca < size) != (2 * cb < size);
        if !split {
            return 0;
        }
        let range = (SEEDING as f64 * 0.2) as i64;
        return SEEDING - det_random(range, name_of(r, a), name_of(r, b));
    }
    match r.seeding {
        // 1-5, 2-6, 3-7, 4-8 in a group of eight.
        Seeding::SplitAndSlip => {
            let x = 2 * (ca - cb).abs() - size;
            SEEDING - (SEEDING * x / size * x / size)
        }
        // 1-8, 2-7, 3-6, 4-5.
        Seeding::SplitAndFold => {
            let x = ca + cb - (size - 1);
            let span = (size - 1).max(1);
            SEEDING - (SEEDING * x / span * x / span)
        }
    }
}

/// Country and club (McMahon): a pair from different countries or clubs weighs more, so that
/// compatriots meet only when the score difference would otherwise grow.
fn geo_cost(r: &Round, s: &Seats, a: usize, b: usize) -> i64 {
    let Some(((country_a, club_a), (country_b, club_b))) = r.origins.get(a).zip(r.origins.get(b))
    else {
        return 0;
    };
    let range = s.groups as f64;
    let country_ratio = if country_a.eq_ignore_ascii_case(country_b) {
        0.0
    } else {
        (1.0 / range).min(1.0)
    };
    let club_ratio = if club_a.eq_ignore_ascii_case(club_b) {
        0.0
    } else {
        (3.0 * 1.2 / range).min(1.0)
    };
    let mut ratio = country_ratio.max(club_ratio) + country_ratio.min(club_ratio) / 2.0;
    if ratio > 0.0 {
        ratio += 0.5 / range;
    }
    let max = SCORE_DIFFERENCE;
    let kept = (max as f64 * (1.0 - ratio) * (1.0 + NX1 * ratio)) as i64;
    (SCORE_DIFFERENCE - kept).min(max)
}

/// The handicap of a game between `a` and `b` as OpenGotha's `gameBetween` gives it: positive
/// when `a` is the stronger (White).
fn handicap_between(r: &Round, s: &Seats, a: usize, b: usize) -> i32 {
    let Some(policy) = r.handicap else {
        return 0;
    };
    let cap = policy.no_handicap_above.number();
    let pseudo = |p: usize| ((s.mms2[p] / 2) as i32 - 30).min(cap);
    let hd = pseudo(a) - pseudo(b);
    let hd = if hd > 0 {
        hd.saturating_sub(policy.reduction).max(0)
    } else {
        hd.saturating_add(policy.reduction).min(0)
    };
    hd.clamp(-policy.ceiling, policy.ceiling)
}

/// The game between `a` and `b`: the handicap to the weaker, or even with White to the one
/// with fewer extra Whites, ties by OpenGotha's name sum.
fn game(r: &Round, s: &Seats, a: usize, b: usize) -> Pair {
    let hd = handicap_between(r, s, a, b);
    let (white, black) = if hd > 0 {
        (a, b)
    } else if hd < 0 {
        (b, a)
    } else {
        let (x, y) = (s.history.balance[a], s.history.balance[b]);
        if x > y || (x == y && det_random(1, name_of(r, a), name_of(r, b)) != 0) {
            (b, a)
        } else {
            (a, b)
        }
    };
    Pair {
        white,
        black,
        handicap: hd.abs(),
    }
}

/// The family and given names run together, as OpenGotha's `detRandom` reads them: h9 files
/// write `Family Given`, spaces inside a name as `_`.
fn name_of(r: &Round, p: usize) -> String {
    r.event.entrants[p].name.replace(' ', "").replace('_', " ")
}

/// OpenGotha's deterministic "random" number in `0..=max` for two players
/// (`Pairing.detRandom`): a weighted sum of the UTF-16 units of both names, the lesser name
/// first, mirrored when the names come the other way round, so both orders agree.
fn det_random(max: i64, a: String, b: String) -> i64 {
    let (first, second, mirrored) = if a.encode_utf16().cmp(b.encode_utf16()).is_gt() {
        (b, a, true)
    } else {
        (a, b, false)
    };
    let sum: i64 = first
        .encode_utf16()
        .chain(second.encode_utf16())
        .enumerate()
        .map(|(i, c)| i64::from(c) * (i as i64 + 1))
        .sum();
    let n = (sum.wrapping_mul(1_234_567)).rem_euclid(max + 1);
    if mirrored {
        max - n
    } else {
        n
    }
}
