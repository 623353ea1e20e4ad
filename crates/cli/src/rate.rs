//! `tengen rate`: a Bradley-Terry fit over the games of `tengen match` directories, each
//! player's strength in log2 of the odds (one rank: odds of 2 to 1, the project's convention)
//! relative to one anchor, with 95% intervals from the Fisher information.
//!
//! The model: player `i` beats player `j` with probability `1 / (1 + 2^(s_j - s_i))`. The
//! strengths are fitted by Newton's method on the log-likelihood, the anchor held at 0. A
//! player who won (or lost) every game has no finite maximum-likelihood strength, so each
//! pairing that was played gets `prior` virtual wins each way (0.5 by default: the
//! `(won + 0.5) / (games + 1)` of BENCHMARKS.md's tables); such a player is flagged, and its
//! strength is best read as its interval's far end. Draws count half a win each.
//!
//! A handicap game (SGF `HA`, `tengen match --handicap`) gives Black one rank a stone, the EGF's
//! and the servers' convention (N stones with komi 0.5 between players N ranks apart): Black
//! wins it with probability `1 / (1 + 2^(s_white - s_black - stones))`. So a stronger player
//! that gives a weaker anchor stones is measured beyond where even games saturate.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tengen_rules::{Color, GameResult};

/// Options of `tengen rate`.
#[derive(Args, Debug)]
pub struct RateOpt {
    /// Folders of SGF records (`tengen match --out DIR`); players are the records' PB and PW.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// The player held at strength 0 (a name as in the records; default: the first by name).
    #[arg(long)]
    pub anchor: Option<String>,
    /// The anchor's rank (e.g. `8k` for GNU Go level 10), to print each player's rank.
    #[arg(long)]
    pub anchor_rank: Option<String>,
    /// Virtual wins each way for every pairing played (0: the plain maximum likelihood, which
    /// fails when a player won or lost every game).
    #[arg(long, default_value_t = 0.5)]
    pub prior: f64,
}

/// Games between players: `wins[i][j]` is how often `i` beat `j` (a draw: half to each).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Results {
    /// Names, in index order.
    pub players: Vec<String>,
    /// Wins of the row's player over the column's, in even games.
    pub wins: Vec<Vec<f64>>,
    /// Handicap games, one entry for each Black, White and stone count.
    pub handicap: Vec<Handicapped>,
}

/// Handicap games between two players at one stone count.
#[derive(Clone, Debug, PartialEq)]
pub struct Handicapped {
    /// Black's index.
    pub black: usize,
    /// White's index.
    pub white: usize,
    /// Black's stones (one rank each).
    pub stones: u8,
    /// Black's wins.
    pub black_won: f64,
    /// White's wins.
    pub white_won: f64,
}

/// Games between `i` and `j` with `i` given `offset` ranks: `(i, j, offset, i's wins, j's wins)`.
type Pairing = (usize, usize, f64, f64, f64);

impl Results {
    fn index(&mut self, name: &str) -> usize {
        if let Some(i) = self.players.iter().position(|p| p == name) {
            return i;
        }
        self.players.push(name.to_string());
        for row in &mut self.wins {
            row.push(0.0);
        }
        self.wins.push(vec![0.0; self.players.len()]);
        self.players.len() - 1
    }

    /// Records an even game between `black` and `white`; a game without a winner is ignored
    /// (returns false).
    #[cfg(test)]
    fn add(&mut self, black: &str, white: &str, result: GameResult) -> bool {
        self.add_handicap(black, white, 0, result)
    }

    /// Records a game in which `black` took `stones` (none, or one: an even game); a game
    /// without a winner is ignored (returns false).
    pub fn add_handicap(
        &mut self,
        black: &str,
        white: &str,
        stones: u8,
        result: GameResult,
    ) -> bool {
        // A game without a winner names no player: one who only has such games is not in the
        // fit (rather than a player linked to no one).
        let black_share = match result {
            GameResult::Draw => 0.5,
            r => match r.winner() {
                Some(Color::Black) => 1.0,
                Some(Color::White) => 0.0,
                None => return false,
            },
        };
        let (b, w) = (self.index(black), self.index(white));
        if stones < 2 {
            self.wins[b][w] += black_share;
            self.wins[w][b] += 1.0 - black_share;
            return true;
        }
        let at = self
            .handicap
            .iter()
            .position(|h| (h.black, h.white, h.stones) == (b, w, stones));
        let at = at.unwrap_or_else(|| {
            self.handicap.push(Handicapped {
                black: b,
                white: w,
                stones,
                black_won: 0.0,
                white_won: 0.0,
            });
            self.handicap.len() - 1
        });
        self.handicap[at].black_won += black_share;
        self.handicap[at].white_won += 1.0 - black_share;
        true
    }

    /// Every pairing played, even and at a handicap, each way's wins with `prior` added.
    fn pairings(&self, prior: f64) -> Vec<Pairing> {
        let n = self.players.len();
        let mut out = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (self.wins[i][j], self.wins[j][i]);
                if a + b > 0.0 {
                    out.push((i, j, 0.0, a + prior, b + prior));
                }
            }
        }
        for h in &self.handicap {
            let (a, b) = (h.black_won, h.white_won);
            out.push((h.black, h.white, f64::from(h.stones), a + prior, b + prior));
        }
        out
    }

    /// Games player `i` played, and its wins.
    pub fn record(&self, i: usize) -> (f64, f64) {
        let mut won: f64 = self.wins[i].iter().sum();
        let mut lost: f64 = self.wins.iter().map(|row| row[i]).sum();
        for h in &self.handicap {
            let (w, l) = match i {
                _ if i == h.black => (h.black_won, h.white_won),
                _ if i == h.white => (h.white_won, h.black_won),
                _ => (0.0, 0.0),
            };
            won += w;
            lost += l;
        }
        (won + lost, won)
    }
}

/// One player's fitted strength.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    /// log2 of the odds against the anchor.
    pub strength: f64,
    /// The 95% interval's lower end (the anchor's: 0).
    pub low: f64,
    /// The 95% interval's upper end.
    pub high: f64,
    /// Won every game (`Some(true)`) or lost every game (`Some(false)`): the fit rests on the
    /// prior, and the interval's inner end is the figure to use.
    pub perfect: Option<bool>,
}

/// Fits Bradley-Terry strengths with `anchor` at 0 and `prior` virtual wins each way for every
/// pairing played. Fails when a player is not linked to the anchor by games, or the fit does
/// not converge (a perfect record with `prior` 0).
pub fn fit(r: &Results, anchor: usize, prior: f64) -> anyhow::Result<Vec<Rating>> {
    let n = r.players.len();
    anyhow::ensure!(anchor < n, "no anchor among the players");
    let w = r.pairings(prior);
    let mut s = vec![0.0f64; n];
    for _ in 0..200 {
        let (grad, info) = derivatives(&w, &s, anchor);
        let step = solve(&info, &grad).context("the players are not all linked to the anchor")?;
        let mut biggest = 0.0f64;
        for (i, d) in free(n, anchor).zip(&step) {
            // A bounded step keeps Newton's method from overshooting far from the answer.
            let d = d.clamp(-3.0, 3.0);
            s[i] += d;
            biggest = biggest.max(d.abs());
        }
        anyhow::ensure!(
            s.iter().all(|v| v.abs() < 200.0),
            "no finite fit: a player won or lost every game (use --prior above 0)"
        );
        if biggest < 1e-10 {
            return Ok(ratings(r, &w, &s, anchor));
        }
    }
    anyhow::bail!("the fit did not converge")
}

/// Indices of the players other than the anchor: the fit's free parameters, in order.
fn free(n: usize, anchor: usize) -> impl Iterator<Item = usize> {
    (0..n).filter(move |&i| i != anchor)
}

/// The log-likelihood's gradient and its Fisher information (the negated Hessian) over the
/// free players, in natural-log units of strength (`s` is kept so inside the fit).
fn derivatives(w: &[Pairing], s: &[f64], anchor: usize) -> (Vec<f64>, Vec<Vec<f64>>) {
    let n = s.len();
    let idx: Vec<usize> = free(n, anchor).collect();
    let pos = |i: usize| idx.iter().position(|&k| k == i);
    let mut grad = vec![0.0; idx.len()];
    let mut info = vec![vec![0.0; idx.len()]; idx.len()];
    for &(i, j, offset, won, lost) in w {
        let games = won + lost;
        let edge = offset * std::f64::consts::LN_2;
        let p = 1.0 / (1.0 + (s[j] - s[i] - edge).exp());
        let (g, v) = (won - games * p, games * p * (1.0 - p));
        let (a, b) = (pos(i), pos(j));
        if let Some(a) = a {
            grad[a] += g;
            info[a][a] += v;
        }
        if let Some(b) = b {
            grad[b] -= g;
            info[b][b] += v;
        }
        if let (Some(a), Some(b)) = (a, b) {
            info[a][b] -= v;
            info[b][a] -= v;
        }
    }
    (grad, info)
}

/// `x` with `m x = b`, by Gaussian elimination with partial pivoting; `None` when `m` is
/// singular.
fn solve(m: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let n = b.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .zip(b)
        .map(|(row, &v)| row.iter().copied().chain([v]).collect())
        .collect();
    for c in 0..n {
        let p = (c..n).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs()))?;
        if a[p][c].abs() < 1e-12 {
            return None;
        }
        a.swap(c, p);
        let pivot = a[c].clone();
        for (r, row) in a.iter_mut().enumerate() {
            if r != c {
                let f = row[c] / pivot[c];
                for (v, pv) in row.iter_mut().zip(&pivot).skip(c) {
                    *v -= f * pv;
                }
            }
        }
    }
    Some((0..n).map(|r| a[r][n] / a[r][r]).collect())
}

/// The strengths in log2 units with 95% intervals from the inverse Fisher information.
fn ratings(r: &Results, w: &[Pairing], s: &[f64], anchor: usize) -> Vec<Rating> {
    let (_, info) = derivatives(w, s, anchor);
    let ln2 = std::f64::consts::LN_2;
    let mut out = Vec::new();
    let mut k = 0;
    for (i, &si) in s.iter().enumerate() {
        let (games, won) = r.record(i);
        let perfect = if won == games { Some(true) } else { None };
        let perfect = perfect.or((won == 0.0).then_some(false));
        let half = if i == anchor {
            0.0
        } else {
            let mut unit = vec![0.0; info.len()];
            unit[k] = 1.0;
            k += 1;
            // The variance: the diagonal of the information's inverse.
            let var = solve(&info, &unit).map_or(f64::INFINITY, |col| col[k - 1]);
            1.96 * var.max(0.0).sqrt() / ln2
        };
        let strength = si / ln2;
        out.push(Rating {
            strength,
            low: strength - half,
            high: strength + half,
            perfect,
        });
    }
    out
}

/// A kyu value for a rank: `8k` is 8, `1d` is 0, `3d` is -2 (so one rank is 1.0 throughout).
pub fn kyu_value(rank: &str) -> Option<f64> {
    let rank = rank.trim().to_ascii_lowercase();
    // The unit is the last character, which may be wider than a byte (`5é`): split there.
    let (num, unit) = rank.split_at(rank.char_indices().last()?.0);
    let v: f64 = num.parse().ok()?;
    match unit {
        "k" if v >= 1.0 => Some(v),
        "d" if v >= 1.0 => Some(1.0 - v),
        _ => None,
    }
}

/// The rank a kyu value gives, rounded to the weaker side (4.1 is 5k, -0.8 is 1d).
pub fn rank_name(kyu: f64) -> String {
    let k = kyu.ceil() as i64;
    if k >= 1 {
        format!("{k}k")
    } else {
        format!("{}d", 1 - k)
    }
}

/// Reads every `.sgf` in `dirs` into results; returns them and how many games had no winner.
fn read_dirs(dirs: &[PathBuf]) -> anyhow::Result<(Results, usize)> {
    let mut results = Results::default();
    let mut voids = 0;
    for dir in dirs {
        let entries = std::fs::read_dir(dir).with_context(|| format!("{}", dir.display()))?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
            .collect();
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).with_context(|| format!("{}", f.display()))?;
            let c = tengen_sgf::parse(&bytes).with_context(|| format!("{}", f.display()))?;
            for tree in &c.games {
                let info = tengen_sgf::game::info(tree)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", f.display()))?;
                let (b, w) = (
                    info.black.unwrap_or_default(),
                    info.white.unwrap_or_default(),
                );
                let result = info.result.unwrap_or(GameResult::NoResult);
                if !results.add_handicap(&b, &w, info.handicap, result) {
                    voids += 1;
                }
            }
        }
    }
    Ok((results, voids))
}

/// Runs the fit and prints a table.
pub fn run(opt: RateOpt) -> anyhow::Result<()> {
    anyhow::ensure!(
        opt.prior.is_finite() && opt.prior >= 0.0,
        "--prior takes 0 or more"
    );
    let (results, voids) = read_dirs(&opt.dirs)?;
    anyhow::ensure!(results.players.len() >= 2, "fewer than two players");
    let anchor = match &opt.anchor {
        Some(a) => results
            .players
            .iter()
            .position(|p| p == a)
            .with_context(|| format!("no player {a:?}: {:?}", results.players))?,
        None => (0..results.players.len())
            .min_by_key(|&i| &results.players[i])
            .unwrap_or(0),
    };
    let anchor_kyu = match &opt.anchor_rank {
        Some(r) => Some(kyu_value(r).with_context(|| format!("not a rank: {r}"))?),
        None => None,
    };
    let fit = fit(&results, anchor, opt.prior)?;
    print_table(&results, &fit, anchor_kyu);
    println!(
        "anchor: {}; prior {} virtual wins each way a pairing; {voids} games without a winner left out",
        results.players[anchor], opt.prior
    );
    Ok(())
}

fn print_table(results: &Results, fit: &[Rating], anchor_kyu: Option<f64>) {
    let mut order: Vec<usize> = (0..fit.len()).collect();
    order.sort_by(|&a, &b| fit[b].strength.total_cmp(&fit[a].strength));
    println!("| player | games | won | log2 odds vs anchor (95%) | rank (95%) | declared |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for i in order {
        let (games, won) = results.record(i);
        let f = &fit[i];
        let flag = match f.perfect {
            Some(true) => " (won every game)",
            Some(false) => " (lost every game)",
            None => "",
        };
        let ranks = anchor_kyu.map(|k| {
            let at = |s: f64| k - s;
            (
                format!(
                    "{:.1} ({:.1} to {:.1})",
                    at(f.strength),
                    at(f.high),
                    at(f.low)
                ),
                rank_name(at(f.strength)),
            )
        });
        let (r, d) = ranks.unwrap_or_default();
        println!(
            "| {} | {games} | {won} | {:+.2} ({:+.2} to {:+.2}){flag} | {r} | {d} |",
            results.players[i], f.strength, f.low, f.high
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(games: &[(&str, &str, u32)]) -> Results {
        let mut r = Results::default();
        for &(winner, loser, n) in games {
            // Players take their indices in the order the list names them.
            r.index(winner);
            r.index(loser);
            for _ in 0..n {
                let win = GameResult::Resign(Color::White);
                r.add(loser, winner, win);
            }
        }
        r
    }

    #[test]
    fn two_players_fit_the_log2_of_the_odds_and_its_interval() {
        let r = results(&[("a", "b", 3), ("b", "a", 1)]);
        let f = fit(&r, 1, 0.0).unwrap();
        assert!((f[0].strength - 3f64.log2()).abs() < 1e-9, "{f:?}");
        // Variance of the log odds (natural log): 1/3 + 1/1, by hand.
        let half = 1.96 * (1.0f64 / 3.0 + 1.0).sqrt() / std::f64::consts::LN_2;
        assert!((f[0].high - f[0].strength - half).abs() < 1e-6, "{f:?}");
        assert_eq!((f[1].strength, f[1].low, f[1].high), (0.0, 0.0, 0.0));
        // The prior adds half a win each way: odds 3.5 to 1.5.
        let f = fit(&r, 1, 0.5).unwrap();
        assert!((f[0].strength - (3.5f64 / 1.5).log2()).abs() < 1e-9);
    }

    #[test]
    fn a_chain_of_even_odds_adds_up() {
        // a beats b 2 to 1, b beats c 2 to 1, and no games between a and c: a is 2 above c.
        let r = results(&[
            ("a", "b", 20),
            ("b", "a", 10),
            ("b", "c", 20),
            ("c", "b", 10),
        ]);
        let f = fit(&r, 2, 0.0).unwrap();
        assert!((f[0].strength - 2.0).abs() < 1e-9, "{f:?}");
        assert!((f[1].strength - 1.0).abs() < 1e-9, "{f:?}");
        // Two links of uncertainty are wider than one.
        assert!(f[0].high - f[0].low > f[1].high - f[1].low);
    }

    #[test]
    fn a_player_who_won_every_game_is_flagged_with_a_finite_lower_end() {
        let r = results(&[("a", "b", 10)]);
        assert!(fit(&r, 1, 0.0).is_err(), "no finite maximum likelihood");
        let f = fit(&r, 1, 0.5).unwrap();
        assert_eq!(f[0].perfect, Some(true));
        assert_eq!(f[1].perfect, Some(false));
        assert!(f[0].low.is_finite() && f[0].low > 0.0 && f[0].low < f[0].strength);
    }

    #[test]
    fn players_without_a_game_linking_them_to_the_anchor_are_an_error() {
        let r = results(&[("a", "b", 2), ("b", "a", 1), ("c", "d", 2), ("d", "c", 1)]);
        assert!(fit(&r, 0, 0.5).is_err());
    }

    #[test]
    fn a_game_without_a_winner_adds_no_player_and_a_draw_is_half_each() {
        let mut r = Results::default();
        assert!(!r.add("a", "b", GameResult::NoResult));
        assert!(r.players.is_empty(), "{r:?}");
        assert!(r.add("a", "b", GameResult::Draw));
        assert_eq!(r.wins, vec![vec![0.0, 0.5], vec![0.5, 0.0]]);
        assert_eq!(r.record(0), (1.0, 0.5));
    }

    #[test]
    fn stones_count_a_rank_each_so_an_even_split_at_three_stones_is_three_ranks() {
        // a gives b three stones and wins half; b and c are even at 1 to 1.
        let mut r = Results::default();
        for k in 0..10 {
            let (winner, stones) = (if k % 2 == 0 { "b" } else { "a" }, 3);
            // `Resign(c)`: `c` won by resignation.
            let result = match winner {
                "b" => GameResult::Resign(Color::Black),
                _ => GameResult::Resign(Color::White),
            };
            assert!(r.add_handicap("b", "a", stones, result));
        }
        r.add("b", "c", GameResult::Resign(Color::White));
        r.add("c", "b", GameResult::Resign(Color::White));
        assert_eq!(r.handicap.len(), 1);
        assert_eq!(r.record(0), (12.0, 6.0), "b: ten at a handicap, two even");
        let f = fit(&r, 2, 0.0).unwrap();
        // Players in order of appearance: b, a, c (the anchor).
        assert!(f[0].strength.abs() < 1e-9, "{f:?}");
        assert!((f[1].strength - 3.0).abs() < 1e-9, "{f:?}");
        // One stone is an even game (komi aside): no offset.
        let mut even = Results::default();
        even.add_handicap("x", "y", 1, GameResult::Resign(Color::White));
        assert!(
            even.handicap.is_empty() && even.wins[1][0] == 1.0,
            "{even:?}"
        );
    }

    #[test]
    fn ranks_round_to_the_weaker_side() {
        assert_eq!(kyu_value("8k"), Some(8.0));
        assert_eq!(kyu_value("1d"), Some(0.0));
        assert_eq!(kyu_value("3d"), Some(-2.0));
        assert_eq!(kyu_value("0k"), None);
        assert_eq!(kyu_value("k"), None);
        assert_eq!(kyu_value("5é"), None);
        assert_eq!(kyu_value("é"), None);
        assert_eq!(kyu_value(""), None);
        assert_eq!(rank_name(4.1), "5k");
        assert_eq!(rank_name(13.0), "13k");
        assert_eq!(rank_name(-0.8), "1d");
        assert_eq!(rank_name(-1.5), "2d");
    }
}
