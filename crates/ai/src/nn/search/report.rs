//! The search's figures as KataGo's `kata-analyze` reports them (`cpp/command/gtp.cpp`,
//! `cpp/search/searchresults.cpp`), every one for the player to move: each root move's
//! visits, utility, win rate, lead, self-play score and its spread, prior, the lower confidence
//! bounds of its utility and win rate, its line with the visits along it; the root's own; and
//! the ownership averaged over the positions the search evaluated, with its spread.

use tengen_rules::Move;

use super::{sign, Node, Puct, SCORE_UTILITY};

/// KataGo's `lcbStdevs`: how many standard errors below the mean the bound lies.
const LCB_STDEVS: f64 = 4.0;
/// Moves after the first in a reported line (KataGo's `analysisPVLen`).
const PV_LEN: usize = 15;

/// One root move, for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move.
    pub mv: Move,
    /// Visits through it.
    pub visits: u32,
    /// Its mean utility (win/loss and score together).
    pub utility: f64,
    /// Its win rate, 0 to 1.
    pub winrate: f64,
    /// The mean lead in points.
    pub lead: f64,
    /// The mean score self-play would end with.
    pub score_selfplay: f64,
    /// The spread of the final score (KataGo's `scoreStdev`).
    pub score_stdev: f64,
    /// The policy's prior.
    pub prior: f64,
    /// The win rate's lower confidence bound (KataGo's, scaled from the utility's).
    pub lcb: f64,
    /// The utility's lower confidence bound.
    pub utility_lcb: f64,
    /// The principal variation from this move, and the visits of each of its positions.
    pub pv: Vec<Move>,
    /// Visits of each position of `pv`.
    pub pv_visits: Vec<u32>,
}

/// The root position, for the player to move.
#[derive(Clone, Debug, PartialEq)]
pub struct RootReport {
    /// Visits of the root.
    pub visits: u32,
    /// Mean utility.
    pub utility: f64,
    /// Win rate.
    pub winrate: f64,
    /// Mean lead.
    pub lead: f64,
    /// Mean self-play score.
    pub score_selfplay: f64,
    /// Its spread.
    pub score_stdev: f64,
}

/// A whole report: the moves best first, the root, and ownership.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// Board side.
    pub size: usize,
    /// Root moves, most visited first (then by win rate, then prior), unvisited ones last.
    pub moves: Vec<MoveReport>,
    /// The root.
    pub root: RootReport,
    /// Ownership for the player to move, -1 to 1, row by row from the top left (A19 first on
    /// 19x19), averaged over the evaluations of this search; empty before the first.
    pub ownership: Vec<f64>,
    /// Its standard deviation over those evaluations.
    pub ownership_stdev: Vec<f64>,
}

/// Means of a node's sums for the player `s` (+1 White, -1 Black) to move at its parent.
struct Means {
    utility: f64,
    winrate: f64,
    lead: f64,
    score: f64,
    score_stdev: f64,
}

fn means(n: &Node, s: f64) -> Means {
    let v = n.visits.max(1) as f64;
    let score = n.sum.score / v;
    Means {
        utility: s * n.sum.utility / v,
        winrate: (s * n.sum.winloss / v + 1.0) / 2.0,
        lead: s * n.sum.lead / v,
        score: s * score,
        score_stdev: (n.sum.score_sq / v - score * score).max(0.0).sqrt(),
    }
}

/// The radius of a move not yet visited: twice the utility's whole range.
fn unvisited_radius() -> f64 {
    2.0 * (1.0 + SCORE_UTILITY) * LCB_STDEVS
}

/// KataGo's confidence radius of a mean utility over `visits` equally weighted visits: the
/// sample variance with a small prior that the variance is the largest the utility's range
/// allows, so that a few visits get a wide bound (`getSelfUtilityLCBAndRadius`).
fn radius(n: &Node) -> f64 {
    radius_at(n, LCB_STDEVS)
}

/// [`radius`] at `stdevs` standard errors.
pub(super) fn radius_at(n: &Node, stdevs: f64) -> f64 {
    let range = 1.0 + SCORE_UTILITY;
    if n.visits == 0 {
        return 2.0 * range * stdevs;
    }
    let w = n.visits as f64;
    let mean = n.sum.utility / w;
    let prior = 1.0 / (w * w);
    let sq = (n.utility_sq / w).max(mean * mean + 1e-8);
    let sq = (sq * w + (sq + range * range) * prior) / (w + prior);
    let ess = (w + prior) * (w + prior) / (w + prior * prior);
    ((sq - mean * mean).max(0.0) / ess).sqrt() * stdevs
}

impl Puct {
    /// The search's figures in KataGo's terms, for the player to move.
    pub fn report(&self) -> Report {
        let nodes = &self.tree.nodes;
        let s = sign(self.color);
        // Win rates are half the utility's range: the bound shrinks by the win/loss share.
        let wr_share = 0.5 / (1.0 + SCORE_UTILITY);
        let mut moves: Vec<MoveReport> = nodes[0]
            .edges
            .iter()
            .map(|e| {
                let child = e.child.map(|k| &nodes[k as usize]);
                let visits = child.map_or(0, |k| k.visits);
                let mv = super::to_move(e.mv);
                let (mut pv, mut pv_visits) = (vec![mv], vec![visits]);
                if let Some(k) = e.child.filter(|_| visits > 0) {
                    for (m, v) in self.pv(k as usize).into_iter().take(PV_LEN) {
                        pv.push(m);
                        pv_visits.push(v);
                    }
                }
                let r = child.map_or(unvisited_radius(), radius);
                let m = match child {
                    Some(k) if k.visits > 0 => means(k, s),
                    _ => Means {
                        utility: 0.0,
                        winrate: 0.0,
                        lead: 0.0,
                        score: 0.0,
                        score_stdev: 0.0,
                    },
                };
                MoveReport {
                    mv,
                    visits,
                    utility: m.utility,
                    winrate: m.winrate,
                    lead: m.lead,
                    score_selfplay: m.score,
                    score_stdev: m.score_stdev,
                    prior: e.prior as f64,
                    lcb: m.winrate - r * wr_share,
                    utility_lcb: m.utility - r,
                    pv,
                    pv_visits,
                }
            })
            .collect();
        moves.sort_by(|a, b| {
            b.visits
                .cmp(&a.visits)
                .then(b.winrate.total_cmp(&a.winrate))
                .then(b.prior.total_cmp(&a.prior))
        });
        // Order 0 is the move the engine would play, as in KataGo's reports.
        if let Some(play) = self.lcb_move() {
            if let Some(i) = moves.iter().position(|m| m.mv == play) {
                let chosen = moves.remove(i);
                moves.insert(0, chosen);
            }
        }
        let root = means(&nodes[0], s);
        let t = &self.tree;
        let owned = t.owned.max(1) as f64;
        let ownership: Vec<f64> = t.ownership.iter().map(|o| s * o / owned).collect();
        let ownership_stdev = t
            .ownership_sq
            .iter()
            .zip(&ownership)
            .map(|(sq, m)| (sq / owned - m * m).max(0.0).sqrt())
            .collect();
        Report {
            size: self.root.board.size() as usize,
            moves,
            root: RootReport {
                visits: nodes[0].visits,
                utility: root.utility,
                winrate: root.winrate,
                lead: root.lead,
                score_selfplay: root.score,
                score_stdev: root.score_stdev,
            },
            ownership,
            ownership_stdev,
        }
    }
}
