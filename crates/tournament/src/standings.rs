//! Standings as the federations count them: every placement criterion OpenGotha computes, the
//! order of the players and the places they share.
//!
//! Scores are kept doubled (`…2`), as OpenGotha keeps them, so that a jigo or a half point for an
//! absence stays an integer; SODOS is kept quadrupled. The rules, each from OpenGotha's
//! `Tournament.fillBaseScoringInfoIfNecessary` (3.51):
//! - A round without a game (a bye, an absence) is worth the points the event gives it; the sum
//!   of such points is rounded down to a whole point, round by round, when the event says so
//!   (OpenGotha's default).
//! - SOS counts, for a round not played, nothing in NBW and the player's own starting McMahon
//!   score in MMS. In MMS, the opponent's score is raised by the handicap the player gave (as
//!   White) and lowered by the handicap the player took.
//! - SOS-1 and SOS-2 drop the lowest one and two opponents' scores. (OpenGotha leaves SOSM-1
//!   and SOSM-2 at 0 after two rounds, where SOSW-1 keeps the better opponent: Tengen prints
//!   what OpenGotha prints.)
//! - SOSOS sums the opponents' SOS; a round not played adds nothing in NBW and the starting
//!   score times the number of rounds in MMS.
//! - CUSS sums the score after each round. EXT and EXR weigh each opponent's wins by the
//!   handicap the player gave up.

use std::cmp::Ordering;

use crate::Rank;

/// A placement criterion, as OpenGotha names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Criterion {
    /// The player's category (given, not computed).
    Cat,
    /// The player's rank.
    Rank,
    /// The player's rating (given, not computed).
    Rating,
    /// Number of wins.
    Nbw,
    /// McMahon score.
    Mms,
    /// Sum of opponents' wins.
    Sosw,
    /// SOSW without the lowest opponent.
    SoswMinus1,
    /// SOSW without the two lowest opponents.
    SoswMinus2,
    /// Sum of defeated opponents' wins.
    Sodosw,
    /// Sum of opponents' SOSW.
    Sososw,
    /// Cumulative sum of wins after each round.
    Cussw,
    /// Sum of opponents' McMahon scores.
    Sosm,
    /// SOSM without the lowest opponent.
    SosmMinus1,
    /// SOSM without the two lowest opponents.
    SosmMinus2,
    /// Sum of defeated opponents' McMahon scores.
    Sodosm,
    /// Sum of opponents' SOSM.
    Sososm,
    /// Cumulative sum of McMahon scores after each round.
    Cussm,
    /// Exploits tried: opponents' wins weighed by the handicap given up.
    Ext,
    /// Exploits achieved: EXT over the games won.
    Exr,
    /// Simplified direct confrontation among players tied on the criteria before it.
    Sdc,
    /// Direct confrontation among players tied on the criteria before it.
    Dc,
}

impl Criterion {
    /// The name an h9 file's header gives the criterion.
    pub fn short_name(self) -> &'static str {
        use Criterion::*;
        match self {
            Cat => "CAT",
            Rank => "Rank",
            Rating => "Rating",
            Nbw => "NBW",
            Mms => "MMS",
            Sosw | Sosm => "SOS",
            SoswMinus1 | SosmMinus1 => "SOS-1",
            SoswMinus2 | SosmMinus2 => "SOS-2",
            Sodosw | Sodosm => "SODOS",
            Sososw | Sososm => "SOSOS",
            Cussw | Cussm => "CUSS",
            Ext => "EXT",
            Exr => "EXR",
            Sdc => "SDC",
            Dc => "DC",
        }
    }

    /// The criterion an h9 header names, read in the McMahon family (SOS of McMahon scores)
    /// or in the wins family. OpenGotha's short names (`SOS`, `SOS-1`, `SODOS`, `SOSOS`,
    /// `CUSS`), their long forms (`SOSW`, `SOSMM1`, `SODOSM`...), and Pairgoth's spellings
    /// (`SOSM1`, `SDOS`, `SSOS`) are all read.
    pub fn from_short_name(name: &str, mcmahon: bool) -> Option<Criterion> {
        use Criterion::*;
        let pick = |w, m| Some(if mcmahon { m } else { w });
        match name.to_ascii_uppercase().as_str() {
            "CAT" | "CATEGORY" => Some(Cat),
            "RANK" => Some(Rank),
            "RATING" | "RATIN" => Some(Rating),
            "NBW" => Some(Nbw),
            "MMS" => Some(Mms),
            "SOS" => pick(Sosw, Sosm),
            "SOS-1" | "SOSM1" => pick(SoswMinus1, SosmMinus1),
            "SOS-2" | "SOSM2" => pick(SoswMinus2, SosmMinus2),
            "SODOS" | "SDOS" => pick(Sodosw, Sodosm),
            "SOSOS" | "SSOS" => pick(Sososw, Sososm),
            "CUSS" => pick(Cussw, Cussm),
            "SOSW" => Some(Sosw),
            "SOSWM1" | "SOSW-1" => Some(SoswMinus1),
            "SOSWM2" | "SOSW-2" => Some(SoswMinus2),
            "SODOSW" => Some(Sodosw),
            "SOSOSW" => Some(Sososw),
            "CUSSW" => Some(Cussw),
            "SOSM" => Some(Sosm),
            "SOSMM1" | "SOSM-1" => Some(SosmMinus1),
            "SOSMM2" | "SOSM-2" => Some(SosmMinus2),
            "SODOSM" => Some(Sodosm),
            "SOSOSM" => Some(Sososm),
            "CUSSM" => Some(Cussm),
            "EXT" => Some(Ext),
            "EXR" => Some(Exr),
            "SDC" => Some(Sdc),
            "DC" => Some(Dc),
            _ => None,
        }
    }

    /// What one unit of the criterion's value is worth: values are kept doubled (quadrupled for
    /// SODOS) so that halves stay integers.
    pub fn scale(self) -> i64 {
        use Criterion::*;
        match self {
            Cat | Rank | Rating | Sdc | Dc => 1,
            Sodosw | Sodosm => 4,
            _ => 2,
        }
    }

    /// The value as OpenGotha prints it: whole part, then ½, ¼ or ¾. A category prints from 1.
    pub fn format(self, value: i64) -> String {
        if self == Criterion::Cat {
            return (value + 1).to_string();
        }
        let scale = self.scale();
        let (whole, part) = (value / scale, value % scale);
        let fraction = match (scale, part) {
            (2, 1) | (4, 2) => "½",
            (4, 1) => "¼",
            (4, 3) => "¾",
            _ => "",
        };
        format!("{whole}{fraction}")
    }
}

/// How a finished (or unfinished) game counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Jigo: half a point each.
    Jigo,
    /// Both players lose (both absent, or both at fault).
    BothLose,
    /// Both players win.
    BothWin,
    /// Not known yet: nobody scores.
    Unknown,
}

/// A game of the event, between two players' indexes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    /// The round, from 0.
    pub round: usize,
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// Handicap stones Black received (0 for an even game).
    pub handicap: i32,
    /// How it ended.
    pub outcome: Outcome,
    /// Decided without play (a forfeit): scores the same.
    pub by_default: bool,
    /// Whether the colours are known (h9 files may write `?`).
    pub colours_known: bool,
}

impl Game {
    /// The doubled points the game gives `player` (0 if they did not play in it).
    pub fn points2(&self, player: usize) -> i64 {
        let white = player == self.white;
        if !white && player != self.black {
            return 0;
        }
        match self.outcome {
            Outcome::BothWin => 2,
            Outcome::Jigo => 1,
            Outcome::WhiteWins if white => 2,
            Outcome::BlackWins if !white => 2,
            _ => 0,
        }
    }

    /// The other player of the game.
    pub fn opponent(&self, player: usize) -> usize {
        if player == self.white {
            self.black
        } else {
            self.white
        }
    }
}

/// A round a player did not play (a bye or an absence), with the doubled points it gives in
/// each score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rest {
    /// Doubled points towards the number of wins.
    pub nbw2: i64,
    /// Doubled points towards the McMahon score.
    pub mms2: i64,
}

/// The bye as OpenGotha scores it by default: a win in both scores.
pub const BYE: Rest = Rest { nbw2: 2, mms2: 2 };
/// An absence as OpenGotha scores it by default: no win, half a McMahon point.
pub const ABSENT: Rest = Rest { nbw2: 0, mms2: 1 };

/// A player of the event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Family name, then given name, as `Name Given` (the tie order is by this name).
    pub name: String,
    /// Rank.
    pub rank: Rank,
    /// Starting McMahon score in whole points (0 in events without one).
    pub start: i64,
    /// Category, given by the organiser (0 is the first).
    pub category: i64,
    /// Rating, given by the organiser.
    pub rating: i64,
}

/// An event's players and results, enough to place everyone.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Event {
    /// The players, by index.
    pub entrants: Vec<Entrant>,
    /// The number of rounds.
    pub rounds: usize,
    /// The games of every round.
    pub games: Vec<Game>,
    /// The rounds each player did not play, by (player, round): points given for them.
    /// A player with neither a game nor a rest in a round was not paired and scores nothing.
    pub rests: Vec<(usize, usize, Rest)>,
    /// Whether the points for rounds not played are rounded down to whole points.
    pub round_down: bool,
    /// OpenGotha's "count not played games as half a point" for the SOS family: an opponent's
    /// score counts only the games they played (not results by default), and half a point for
    /// each round they did not play. Off by default, as in OpenGotha.
    pub virtual_opponents: bool,
}

/// What a player did in a round.
#[derive(Debug, Clone, Copy)]
enum Seat {
    Played(usize),
    Rested(Rest),
    Unpaired,
}

/// Every criterion of every player after the event's last round (or `after` rounds).
#[derive(Debug, Clone)]
pub struct Scores {
    seats: Vec<Vec<Seat>>,
    nbw2: Vec<Vec<i64>>,
    mms2: Vec<Vec<i64>>,
    /// The scores an opponent brings to SOS: the same, or the virtual ones.
    sos_nbw2: Vec<Vec<i64>>,
    sos_mms2: Vec<Vec<i64>>,
    last: usize,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The player's index in the event.
    pub player: usize,
    /// The place, from 1; players tied on every criterion share it.
    pub place: usize,
    /// Whether this line shares the place of the line above.
    pub tied_above: bool,
    /// The value of each criterion, scaled as [`Criterion::scale`] says.
    pub values: Vec<i64>,
}

impl Event {
    /// The event as it stood before `round` was paired: the games and rests of the rounds
    /// before it.
    pub fn before(&self, round: usize) -> Event {
        Event {
            games: self
                .games
                .iter()
                .filter(|g| g.round < round)
                .cloned()
                .collect(),
            rests: self
                .rests
                .iter()
                .filter(|&&(_, r, _)| r < round)
                .copied()
                .collect(),
            ..self.clone()
        }
    }

    /// Who took part in `round`: a game, or a rest that scored a win (the bye).
    pub fn present_in(&self, round: usize) -> Vec<bool> {
        let mut present = vec![false; self.entrants.len()];
        for g in self.games.iter().filter(|g| g.round == round) {
            for p in [g.white, g.black] {
                if let Some(seat) = present.get_mut(p) {
                    *seat = true;
                }
            }
        }
        for &(p, r, rest) in &self.rests {
            if r == round && rest.nbw2 > 0 {
                if let Some(seat) = present.get_mut(p) {
                    *seat = true;
                }
            }
        }
        present
    }

    /// The scores after round `last` (from 0).
    pub fn scores(&self, last: usize) -> Scores {
        let n = self.entrants.len();
        let rounds = self.rounds.max(last + 1);
        let mut seats = vec![vec![Seat::Unpaired; rounds]; n];
        for &(p, r, rest) in &self.rests {
            if p < n && r < rounds {
                seats[p][r] = Seat::Rested(rest);
            }
        }
        for (i, g) in self.games.iter().enumerate() {
            if g.round < rounds && g.white < n && g.black < n {
                seats[g.white][g.round] = Seat::Played(i);
                seats[g.black][g.round] = Seat::Played(i);
            }
        }
        let mut scores = Scores {
            seats,
            nbw2: vec![vec![0; rounds]; n],
            mms2: vec![vec![0; rounds]; n],
            sos_nbw2: Vec::new(),
            sos_mms2: Vec::new(),
            last,
        };
        for p in 0..n {
            scores.tally(self, p);
        }
        if self.virtual_opponents {
            (scores.sos_nbw2, scores.sos_mms2) =
                (0..n).map(|p| scores.tally_virtual(self, p)).unzip();
        } else {
            scores.sos_nbw2 = scores.nbw2.clone();
            scores.sos_mms2 = scores.mms2.clone();
        }
        scores
    }

    /// The standings after round `last`, ordered by `criteria`, best first; ties on every
    /// criterion share a place and keep the order of their names.
    pub fn standings(&self, criteria: &[Criterion], last: usize) -> Vec<Line> {
        let scores = self.scores(last);
        let primary_len = criteria
            .iter()
            .position(|c| matches!(c, Criterion::Dc | Criterion::Sdc))
            .unwrap_or(criteria.len());
        let mut lines: Vec<Line> = (0..self.entrants.len())
            .map(|p| Line {
                player: p,
                place: 0,
                tied_above: false,
                values: criteria.iter().map(|&c| scores.value(self, c, p)).collect(),
            })
            .collect();
        let by_name = |a: &Line, b: &Line| {
            tie_order(&self.entrants[a.player].name, &self.entrants[b.player].name)
        };
        let better = |a: &Line, b: &Line, k: usize| b.values[..k].cmp(&a.values[..k]);
        lines.sort_by(|a, b| better(a, b, primary_len).then_with(|| by_name(a, b)));
        if primary_len < criteria.len() {
            self.direct_confrontation(&mut lines, criteria, primary_len, last);
            lines.sort_by(|a, b| better(a, b, criteria.len()).then_with(|| by_name(a, b)));
        }
        for i in 0..lines.len() {
            let tied = i > 0 && lines[i].values == lines[i - 1].values;
            lines[i].tied_above = tied;
            lines[i].place = if tied { lines[i - 1].place } else { i + 1 };
        }
        lines
    }

    /// Fills the DC and SDC values of each group of players tied on the criteria before them.
    fn direct_confrontation(
        &self,
        lines: &mut [Line],
        criteria: &[Criterion],
        primary_len: usize,
        last: usize,
    ) {
        let mut start = 0;
        while start < lines.len() {
            let mut end = start + 1;
            while end < lines.len()
                && lines[end].values[..primary_len] == lines[start].values[..primary_len]
            {
                end += 1;
            }
            let group: Vec<usize> = lines[start..end].iter().map(|l| l.player).collect();
            // DC breaks its cycles by the criteria after it (OpenGotha's "secondary" ones).
            let after = criteria
                .iter()
                .position(|&c| c == Criterion::Dc)
                .map_or(criteria.len(), |d| d + 1);
            let later: Vec<&[i64]> = lines[start..end]
                .iter()
                .map(|l| &l.values[after..])
                .collect();
            let (sdc, dc) = self.confront(&group, &later, last);
            for (k, line) in lines[start..end].iter_mut().enumerate() {
                for (i, c) in criteria.iter().enumerate() {
                    match c {
                        Criterion::Sdc => line.values[i] = sdc[k],
                        Criterion::Dc => line.values[i] = dc[k],
                        _ => {}
                    }
                }
            }
            start = end;
        }
    }

    /// SDC and DC within a group of tied players (OpenGotha's `defineDirForExAequoGroup`).
    /// Only games played count (not results by default), each pair's results summed. SDC: when
    /// every two of them met, each counts the players they beat. DC: see [`direct_ranks`].
    fn confront(&self, group: &[usize], later: &[&[i64]], last: usize) -> (Vec<i64>, Vec<i64>) {
        let n = group.len();
        let mut balance = vec![vec![0i64; n]; n];
        for g in self
            .games
            .iter()
            .filter(|g| g.round <= last && !g.by_default)
        {
            let (Some(w), Some(b)) = (
                group.iter().position(|&p| p == g.white),
                group.iter().position(|&p| p == g.black),
            ) else {
                continue;
            };
            let delta = match g.outcome {
                Outcome::WhiteWins => 1,
                Outcome::BlackWins => -1,
                _ => 0,
            };
            balance[w][b] += delta;
            balance[b][w] -= delta;
        }
        let beat: Vec<Vec<bool>> = (0..n)
            .map(|i| (0..n).map(|j| i != j && balance[i][j] > 0).collect())
            .collect();
        let all_met = (0..n).all(|i| (0..n).all(|j| i == j || balance[i][j] != 0));
        let sdc = (0..n)
            .map(|i| {
                let wins = beat[i].iter().filter(|&&b| b).count() as i64;
                if all_met && n > 1 {
                    wins
                } else {
                    0
                }
            })
            .collect();
        // Places by the later criteria (ties share), as scores: better is higher.
        let sc: Vec<i64> = (0..n)
            .map(|i| n as i64 - later.iter().filter(|o| *o > &later[i]).count() as i64)
            .collect();
        (sdc, direct_ranks(&beat, &sc))
    }
}

/// DC as OpenGotha computes it (`mw.go.confrontation.Confrontation`, "up winners, preserving
/// transitivity"): players whose wins go round in a circle form one class, which takes every
/// win and loss of its members against the others; then, again and again, of the players who
/// beat no one left, those with the lowest later criteria (`sc`) take the lowest rank left.
/// The DC value is the highest rank less the player's: the best has the largest.
fn direct_ranks(beat: &[Vec<bool>], sc: &[i64]) -> Vec<i64> {
    let n = beat.len();
    let mut reach = beat.to_vec();
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                if reach[i][k] && reach[k][j] {
                    reach[i][j] = true;
                }
            }
        }
    }
    let same = |i: usize, j: usize| i == j || (reach[i][j] && reach[j][i]);
    // i beats j when some member of i's class beat some member of j's, across classes.
    let wins: Vec<Vec<bool>> = (0..n)
        .map(|i| {
            (0..n)
                .map(|j| {
                    !same(i, j)
                        && (0..n).any(|a| same(a, i) && (0..n).any(|b| same(b, j) && beat[a][b]))
                })
                .collect()
        })
        .collect();
    let mut left: Vec<usize> = (0..n).collect();
    let mut rank = vec![0i64; n];
    while !left.is_empty() {
        let bottom: Vec<usize> = left
            .iter()
            .copied()
            .filter(|&i| !left.iter().any(|&j| wins[i][j]))
            .collect();
        let Some(low) = bottom.iter().map(|&i| sc[i]).min() else {
            break; // Not reached: classes leave no circle.
        };
        let taken: Vec<usize> = bottom.into_iter().filter(|&i| sc[i] == low).collect();
        let place = 1 + left.len() as i64 - taken.len() as i64;
        for &i in &taken {
            rank[i] = place;
        }
        left.retain(|i| !taken.contains(i));
    }
    let top = rank.iter().copied().max().unwrap_or(0);
    rank.iter().map(|r| top - r).collect()
}

/// OpenGotha's order among players tied on every criterion: by family name, then given name.
/// Names as h9 files write them join the words of a name with `_` (`De_Vries Jan`); OpenGotha
/// compares the names with their spaces, and `_` sorts after capitals where a space sorts
/// before every letter, so the words are rejoined with spaces first. Compared by UTF-16 code
/// units, as Java compares strings.
fn tie_order(a: &str, b: &str) -> Ordering {
    let split = |s: &str| -> (Vec<u16>, Vec<u16>) {
        let mut parts = s.splitn(2, ' ');
        let words = |p: Option<&str>| p.unwrap_or("").replace('_', " ").encode_utf16().collect();
        let name = words(parts.next());
        (name, words(parts.next()))
    };
    split(a).cmp(&split(b))
}

impl Scores {
    /// Fills a player's doubled wins and McMahon score after each round.
    fn tally(&mut self, event: &Event, p: usize) {
        let start2 = 2 * event.entrants[p].start;
        let (mut nbw, mut mms) = (0, start2);
        let (mut rest_nbw, mut rest_mms) = (0, 0);
        for r in 0..self.seats[p].len() {
            match self.seats[p][r] {
                Seat::Played(g) => {
                    let points = event.games[g].points2(p);
                    nbw += points;
                    mms += points;
                }
                Seat::Rested(rest) => {
                    rest_nbw += rest.nbw2;
                    rest_mms += rest.mms2;
                }
                Seat::Unpaired => {}
            }
            let round = |x: i64| if event.round_down { x / 2 * 2 } else { x };
            self.nbw2[p][r] = nbw + round(rest_nbw);
            self.mms2[p][r] = mms + round(rest_mms);
        }
    }

    /// A player's doubled virtual wins and McMahon score after each round (OpenGotha's
    /// `NBWVirtualX2` and `MMSVirtualX2`): games played count as they ended; each round not
    /// played (a forfeit, an unknown result, a bye, an absence) counts half a point.
    fn tally_virtual(&self, event: &Event, p: usize) -> (Vec<i64>, Vec<i64>) {
        let start2 = 2 * event.entrants[p].start;
        let (mut won, mut idle) = (0, 0);
        let mut nbw = Vec::with_capacity(self.seats[p].len());
        let mut mms = Vec::with_capacity(self.seats[p].len());
        for seat in &self.seats[p] {
            match seat {
                Seat::Played(g)
                    if !event.games[*g].by_default
                        && event.games[*g].outcome != Outcome::Unknown =>
                {
                    won += event.games[*g].points2(p);
                }
                _ => idle += 1,
            }
            nbw.push(won + idle);
            mms.push(start2 + won + idle);
        }
        (nbw, mms)
    }

    /// The games a player played up to the last round, with the round.
    fn played<'e>(&self, event: &'e Event, p: usize) -> Vec<Option<&'e Game>> {
        (0..=self.last)
            .map(|r| match self.seats[p].get(r) {
                Some(Seat::Played(g)) => Some(&event.games[*g]),
                _ => None,
            })
            .collect()
    }

    /// Each round's opponent score for SOS in the wins family.
    fn opponents_wins(&self, event: &Event, p: usize) -> Vec<i64> {
        let r = self.last;
        self.played(event, p)
            .iter()
            .map(|g| g.map_or(0, |g| self.sos_nbw2[g.opponent(p)][r]))
            .collect()
    }

    /// Each round's opponent score for SOS in the McMahon family, corrected by the handicap.
    fn opponents_mms(&self, event: &Event, p: usize) -> Vec<i64> {
        let r = self.last;
        let own = 2 * event.entrants[p].start;
        self.played(event, p)
            .iter()
            .map(|g| match g {
                None => own,
                Some(g) if g.white == p => self.sos_mms2[g.black][r] + 2 * i64::from(g.handicap),
                Some(g) => self.sos_mms2[g.white][r] - 2 * i64::from(g.handicap),
            })
            .collect()
    }

    /// The value of `criterion` for player `p`, scaled as [`Criterion::scale`] says. DC and SDC
    /// are filled by the standings, which know the ties; here they are 0.
    pub fn value(&self, event: &Event, criterion: Criterion, p: usize) -> i64 {
        use Criterion::*;
        let r = self.last;
        let entrant = &event.entrants[p];
        match criterion {
            Cat => entrant.category,
            Rank => i64::from(entrant.rank.number()),
            Rating => entrant.rating,
            Nbw => self.nbw2[p][r],
            Mms => self.mms2[p][r],
            Cussw => self.nbw2[p][..=r].iter().sum(),
            Cussm => self.mms2[p][..=r].iter().sum(),
            Sosw => self.opponents_wins(event, p).iter().sum(),
            Sosm => self.opponents_mms(event, p).iter().sum(),
            SoswMinus1 | SoswMinus2 => minus_lowest(
                &self.opponents_wins(event, p),
                criterion == SoswMinus2,
                true,
            ),
            SosmMinus1 | SosmMinus2 => minus_lowest(
                &self.opponents_mms(event, p),
                criterion == SosmMinus2,
                false,
            ),
            Sodosw => self.defeated(event, p, &self.opponents_wins(event, p)),
            Sodosm => self.defeated(event, p, &self.opponents_mms(event, p)),
            Sososw => self.sosos(event, p, false),
            Sososm => self.sosos(event, p, true),
            Ext | Exr => self.exploits(event, p, criterion == Exr),
            Sdc | Dc => 0,
        }
    }

    /// SODOS: each opponent's score times the player's doubled result against them.
    fn defeated(&self, event: &Event, p: usize, opponents: &[i64]) -> i64 {
        self.played(event, p)
            .iter()
            .zip(opponents)
            .map(|(g, score)| g.map_or(0, |g| score * g.points2(p)))
            .sum()
    }

    /// SOSOS: the sum of the opponents' SOS.
    fn sosos(&self, event: &Event, p: usize, mcmahon: bool) -> i64 {
        let rounds = self.last as i64 + 1;
        self.played(event, p)
            .iter()
            .map(|g| match (g, mcmahon) {
                (None, false) => 0,
                (None, true) => 2 * event.entrants[p].start * rounds,
                (Some(g), false) => self.opponents_wins(event, g.opponent(p)).iter().sum(),
                (Some(g), true) => self.opponents_mms(event, g.opponent(p)).iter().sum(),
            })
            .sum()
    }

    /// EXT (every game) or EXR (games won): opponents' wins weighed by the handicap given up.
    fn exploits(&self, event: &Event, p: usize, won_only: bool) -> i64 {
        let r = self.last;
        let rank = |q: usize| i64::from(event.entrants[q].rank.number());
        self.played(event, p)
            .iter()
            .flatten()
            .map(|g| {
                let opponent = g.opponent(p);
                let given = if g.white == p { 1 } else { -1 } * i64::from(g.handicap);
                let weight = match given - (rank(p) - rank(opponent)) {
                    d if d < 0 => 0,
                    0 => 1,
                    1 => 2,
                    _ => 3,
                };
                let won = g.points2(p) == 2 && g.outcome != Outcome::Jigo;
                if won_only && !won {
                    0
                } else {
                    self.nbw2[opponent][r] * weight
                }
            })
            .sum()
    }
}

/// SOS without the lowest (and second lowest) opponent score, with OpenGotha's rule for two
/// rounds: the wins family keeps the better of the two, the McMahon family prints 0.
fn minus_lowest(scores: &[i64], two: bool, wins_family: bool) -> i64 {
    let total: i64 = scores.iter().sum();
    match scores.len() {
        0 | 1 => 0,
        2 if two || !wins_family => 0,
        2 => scores[0].max(scores[1]),
        _ => {
            let mut sorted = scores.to_vec();
            sorted.sort_unstable();
            total - sorted[0] - if two { sorted[1] } else { 0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::direct_ranks;

    #[test]
    fn direct_confrontation_ranks_circles_as_a_class() {
        // OpenGotha's own example (Confrontation.main): players 1-6 with later-criteria
        // scores 4, 3, 4, 4, 1, 2; 3 beat 1, 1 beat 2, 2 beat 3 (a circle), 1 and 3 beat 4,
        // 5 beat 2. Worked by hand: 6 and 4 (no wins) go to the bottom, 6 first (lower score);
        // then the circle, its weakest (2) first; 5, who beat the circle, is on top.
        let games = [(3, 1), (1, 2), (2, 3), (1, 4), (3, 4), (5, 2)];
        let mut beat = vec![vec![false; 6]; 6];
        for (w, l) in games {
            beat[w - 1][l - 1] = true;
        }
        let dc = direct_ranks(&beat, &[4, 3, 4, 4, 1, 2]);
        assert_eq!(dc, [4, 2, 4, 1, 5, 0]);
    }

    #[test]
    fn direct_confrontation_of_two_who_met() {
        let beat = vec![vec![false, false], vec![true, false]];
        assert_eq!(direct_ranks(&beat, &[2, 2]), [0, 1]);
        // Two who never met and are level on the later criteria stay level.
        let never = vec![vec![false; 2]; 2];
        assert_eq!(direct_ranks(&never, &[2, 2]), [0, 0]);
    }
}
