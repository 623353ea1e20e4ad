//! Evaluating positions: features, the 8 symmetries, batches through the forward pass, and
//! KataGo's post-processing (`NNEvaluator` in `cpp/neuralnet/nneval.cpp`): the policy's softmax
//! over legal moves, the value's softmax, the score multipliers, ownership's tanh, everything
//! turned to White's point of view. A cache keyed by the features skips repeated positions.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tengen_rules::Color;

use super::features::{features, Features, GLOBAL, SPATIAL};
use super::forward::{Backend, Cpu, RawOutput};
use super::history::History;
use super::human::HumanProfile;
use super::model::{Model, META_INPUTS};
use super::rules::{KataKo, KataScoring};
use super::NnError;

/// One evaluation, post-processed as KataGo does, from White's point of view (the numbers
/// `kata-raw-nn` prints).
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluation {
    /// Board side.
    pub size: usize,
    /// White wins.
    pub white_win: f64,
    /// White loses.
    pub white_loss: f64,
    /// No result (repetition under Japanese-style rules).
    pub no_result: f64,
    /// White's expected lead in points.
    pub white_lead: f64,
    /// White's expected score as self-play ends it.
    pub white_score: f64,
    /// Its second moment.
    pub white_score_sq: f64,
    /// Variance of time left (-1 before model version 9).
    pub var_time_left: f64,
    /// Short-term error of the value (-1 before version 9).
    pub shortterm_winloss_error: f64,
    /// Short-term error of the score (-1 before version 9).
    pub shortterm_score_error: f64,
    /// Move probabilities, one a point row-major, -1 where the move is illegal.
    pub policy: Vec<f32>,
    /// Probability of passing.
    pub pass: f32,
    /// The optimistic policy's move probabilities (as `policy`) and its pass, which the search
    /// expands below its root with (KataGo's `policyOptimism` 1.0); empty where the model has
    /// no optimistic policy, whose search then uses `policy` everywhere.
    pub optimistic_policy: Vec<f32>,
    /// The optimistic policy's pass.
    pub optimistic_pass: f32,
    /// White's ownership, -1 (Black's) to 1 (White's), one a point.
    pub white_ownership: Vec<f32>,
}

/// Where point `(y, x)` of an `n`x`n` board goes under `symmetry` (KataGo's
/// `copyWithSymmetry`; `reverse` maps the net's outputs back).
fn sym_map(symmetry: u8, n: usize, y: usize, x: usize, reverse: bool) -> (usize, usize) {
    let transpose = symmetry & 4 != 0;
    let (mut fx, mut fy) = (symmetry & 2 != 0, symmetry & 1 != 0);
    if transpose && !reverse {
        std::mem::swap(&mut fx, &mut fy);
    }
    let (y1, x1) = if transpose { (x, y) } else { (y, x) };
    (
        if fy { n - 1 - y1 } else { y1 },
        if fx { n - 1 - x1 } else { x1 },
    )
}

fn transform_inputs(f: &Features, symmetry: u8, out: &mut Vec<f32>) {
    let n = f.size;
    let base = out.len();
    out.resize(base + n * n * SPATIAL, 0.0);
    for y in 0..n {
        for x in 0..n {
            let (y2, x2) = sym_map(symmetry, n, y, x, false);
            let src = (y * n + x) * SPATIAL;
            let dst = base + (y2 * n + x2) * SPATIAL;
            out[dst..dst + SPATIAL].copy_from_slice(&f.spatial[src..src + SPATIAL]);
        }
    }
}

fn untransform(v: &[f32], n: usize, symmetry: u8) -> Vec<f32> {
    let mut out = vec![0.0; n * n];
    for y in 0..n {
        for x in 0..n {
            let (y2, x2) = sym_map(symmetry, n, y, x, true);
            out[y2 * n + x2] = v[y * n + x];
        }
    }
    out
}

fn softplus(x: f64) -> f64 {
    (1.0 + x.exp()).ln()
}

/// KataGo's post-processing of one raw output.
fn postprocess(model: &Model, h: &History, raw: &RawOutput, symmetry: u8) -> Evaluation {
    let n = h.board.size() as usize;
    let policy_raw = untransform(&raw.policy, n, symmetry);
    let own_raw = untransform(&raw.ownership, n, symmetry);
    let (policy, pass) = policy_probs(h, &policy_raw, raw.pass);
    let (optimistic_policy, optimistic_pass) = match raw.optimistic_policy.is_empty() {
        true => (Vec::new(), 0.0),
        false => {
            let logits = untransform(&raw.optimistic_policy, n, symmetry);
            policy_probs(h, &logits, raw.optimistic_pass)
        }
    };
    let mut win = raw.value[0] as f64;
    let mut loss = raw.value[1] as f64;
    let mut nores = raw.value[2] as f64;
    let no_draws = h.rules.ko != KataKo::Simple && h.rules.scoring != KataScoring::Territory;
    if no_draws {
        nores -= 100000.0;
    }
    let max = win.max(loss).max(nores);
    win = (win - max).exp();
    loss = (loss - max).exp();
    nores = if no_draws { 0.0 } else { (nores - max).exp() };
    let sum = win + loss + nores;
    (win, loss, nores) = (win / sum, loss / sum, nores / sum);
    let pp = &model.post;
    let s = raw.score.map(f64::from);
    let stdev = softplus(s[1]) * pp.score_stdev;
    let mean = s[0] * pp.score_mean;
    let mean_sq = (mean * mean + stdev * stdev) * (1.0 - nores);
    let (mean, lead) = (mean * (1.0 - nores), s[2] * pp.lead * (1.0 - nores));
    let (var_time, st_wl, st_score) = match model.version {
        14.. => {
            let a = softplus(s[4] * 0.5);
            let b = softplus(s[5] * 0.5);
            let v = softplus(s[3]) * pp.variance_time;
            (
                v,
                (a * a * pp.shortterm_value_error).sqrt(),
                (b * b * pp.shortterm_score_error).sqrt(),
            )
        }
        10..=13 => (
            softplus(s[3]) * pp.variance_time,
            (softplus(s[4]) * pp.shortterm_value_error).sqrt(),
            (softplus(s[5]) * pp.shortterm_score_error).sqrt(),
        ),
        9 => (
            softplus(s[3]) * pp.variance_time,
            softplus(s[4]),
            softplus(s[5]) * 10.0,
        ),
        _ => (-1.0, -1.0, -1.0),
    };
    let white = h.to_move == Color::White;
    let sign = if white { 1.0 } else { -1.0 };
    Evaluation {
        size: n,
        white_win: if white { win } else { loss },
        white_loss: if white { loss } else { win },
        no_result: nores,
        white_lead: sign * lead,
        white_score: sign * mean,
        white_score_sq: mean_sq,
        var_time_left: var_time,
        shortterm_winloss_error: st_wl,
        shortterm_score_error: st_score,
        policy,
        pass,
        optimistic_policy,
        optimistic_pass,
        white_ownership: own_raw.iter().map(|&o| sign as f32 * o.tanh()).collect(),
    }
}

/// The policy's softmax over the legal moves and pass, -1 for illegal points.
fn policy_probs(h: &History, logits: &[f32], pass: f32) -> (Vec<f32>, f32) {
    let n = h.board.size() as usize;
    let legal: Vec<bool> = (0..n * n)
        .map(|i| {
            tengen_rules::Point::new(n as u8, (i % n) as u8, (i / n) as u8)
                .is_some_and(|p| h.is_legal(p))
        })
        .collect();
    let max = logits
        .iter()
        .zip(&legal)
        .filter(|(_, &l)| l)
        .map(|(&v, _)| v)
        .fold(pass, f32::max);
    let mut e: Vec<f32> = logits
        .iter()
        .zip(&legal)
        .map(|(&v, &l)| if l { (v - max).exp() } else { 0.0 })
        .collect();
    let pass_e = (pass - max).exp();
    let sum: f32 = e.iter().sum::<f32>() + pass_e;
    for (v, &l) in e.iter_mut().zip(&legal) {
        *v = if l { *v / sum } else { -1.0 };
    }
    (e, pass_e / sum)
}

/// Most evaluations kept; the cache is emptied when it fills (simple and bounded).
const CACHE_CAPACITY: usize = 1 << 16;

/// A network with its cache: share it (it is `Sync`) between the threads that evaluate.
pub struct Evaluator {
    model: Arc<Model>,
    /// What runs the forward pass ([`Cpu`] unless [`Evaluator::with_backend`] says).
    backend: Arc<dyn Backend>,
    /// Evaluations by [`History::cache_key`]; `None` evaluates every time (benchmarks).
    cache: Option<Mutex<HashMap<u64, Arc<Evaluation>>>>,
    /// Positions run through the net (cache misses): KataGo's nnEvals, for `tengen bench nn`.
    evaluated: AtomicU64,
    /// Who a human-style net imagines playing (KataGo's `humanSLProfile`); unused by others.
    human: Mutex<Option<HumanProfile>>,
}

impl Evaluator {
    /// An evaluator for `model`.
    pub fn new(model: Model) -> Evaluator {
        Evaluator::with_backend(model, Arc::new(Cpu))
    }

    /// An evaluator for `model` whose forward passes `backend` runs (the seam for an
    /// accelerator: the cache, batches and post-processing stay the evaluator's).
    pub fn with_backend(model: Model, backend: Arc<dyn Backend>) -> Evaluator {
        Evaluator {
            model: Arc::new(model),
            backend,
            cache: Some(Mutex::new(HashMap::new())),
            evaluated: AtomicU64::new(0),
            human: Mutex::new(None),
        }
    }

    /// An evaluator that runs the network for every position, even one seen before.
    pub fn without_cache(model: Model) -> Evaluator {
        Evaluator {
            model: Arc::new(model),
            backend: Arc::new(Cpu),
            cache: None,
            evaluated: AtomicU64::new(0),
            human: Mutex::new(None),
        }
    }

    /// The backend's name (`cpu`).
    pub fn backend_name(&self) -> &'static str {
        self.backend.name()
    }

    /// The model evaluated.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Sets the profile a human-style net evaluates for (KataGo's `humanSLProfile`), and
    /// forgets what was evaluated for another.
    pub fn set_human_profile(&self, profile: Option<HumanProfile>) {
        *self.human.lock().unwrap_or_else(|e| e.into_inner()) = profile;
        self.clear_cache();
    }

    /// The profile set, if any.
    pub fn human_profile(&self) -> Option<HumanProfile> {
        *self.human.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets every cached evaluation (a benchmark's searches must not answer each other).
    pub fn clear_cache(&self) {
        if let Some(c) = &self.cache {
            c.lock().unwrap_or_else(|e| e.into_inner()).clear();
        }
    }

    /// Positions run through the net so far (the cache's answers not counted).
    pub fn evaluated(&self) -> u64 {
        self.evaluated.load(Ordering::Relaxed)
    }

    /// Evaluates one position under one symmetry (0 to 7).
    pub fn evaluate(&self, h: &History, symmetry: u8) -> Result<Arc<Evaluation>, NnError> {
        let mut out = self.evaluate_batch(&[(h, symmetry)])?;
        out.pop().ok_or(NnError::Corrupt("empty batch".into()))
    }

    /// Evaluates positions of one board size in one forward pass (those in the cache are not
    /// computed again).
    pub fn evaluate_batch(
        &self,
        items: &[(&History, u8)],
    ) -> Result<Vec<Arc<Evaluation>>, NnError> {
        let Some(size) = items.first().map(|(h, _)| h.board.size() as usize) else {
            return Ok(Vec::new());
        };
        if items
            .iter()
            .any(|(h, s)| h.board.size() as usize != size || *s > 7)
        {
            return Err(NnError::BadBatch);
        }
        // Keyed by the position before its features are made: a hit costs a hash, not a
        // ladder reading.
        let keys: Vec<u64> = match &self.cache {
            Some(_) => items.iter().map(|(h, s)| h.cache_key(*s)).collect(),
            None => Vec::new(),
        };
        let mut found: Vec<Option<Arc<Evaluation>>> = match &self.cache {
            Some(c) => {
                let cache = c.lock().unwrap_or_else(|e| e.into_inner());
                keys.iter().map(|k| cache.get(k).cloned()).collect()
            }
            None => vec![None; items.len()],
        };
        let todo: Vec<usize> = (0..items.len()).filter(|&i| found[i].is_none()).collect();
        if !todo.is_empty() {
            // A human-style net reads its profile's metadata row after each position's globals.
            let human = match self.model.meta_encoder {
                Some(_) => Some(self.human_profile().ok_or(NnError::NeedsProfile)?),
                None => None,
            };
            let mut spatial = Vec::with_capacity(todo.len() * size * size * SPATIAL);
            let mut global = Vec::with_capacity(todo.len() * (GLOBAL + META_INPUTS));
            for &i in &todo {
                let f = features(items[i].0)?;
                transform_inputs(&f, items[i].1, &mut spatial);
                global.extend_from_slice(&f.global);
                if let Some(p) = &human {
                    global.extend_from_slice(&p.row(items[i].0.to_move, size * size));
                }
            }
            let raws = self.backend.forward(&self.model, size, &spatial, &global);
            self.evaluated
                .fetch_add(todo.len() as u64, Ordering::Relaxed);
            for (&i, raw) in todo.iter().zip(&raws) {
                let (h, s) = items[i];
                found[i] = Some(Arc::new(postprocess(&self.model, h, raw, s)));
            }
            if let Some(c) = &self.cache {
                let mut cache = c.lock().unwrap_or_else(|e| e.into_inner());
                if cache.len() + todo.len() > CACHE_CAPACITY {
                    cache.clear();
                }
                for &i in &todo {
                    if let Some(e) = &found[i] {
                        cache.insert(keys[i], e.clone());
                    }
                }
            }
        }
        Ok(found.into_iter().flatten().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::KataRules;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Game, Handicap, Move, Preset};

    fn history(moves: &[&str]) -> History {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        for m in moves {
            let c = g.to_move();
            g.play(c, Move::Play(gtp::parse_point(9, m).unwrap()))
                .unwrap();
        }
        History::new(&g, KataRules::parse("chinese").unwrap())
    }

    /// Plays `moves` (a point index in the board's points, or `None` for a pass) from the
    /// empty 9x9 board under `preset`; `None` if one is illegal.
    fn replay(preset: Preset, moves: &[Option<usize>]) -> Option<Game> {
        let mut g = Game::new(9, preset.rules(9), Handicap::None).unwrap();
        let points: Vec<_> = g.board().points().collect();
        for m in moves {
            let c = g.to_move();
            let mv = m.map_or(Move::Pass, |i| Move::Play(points[i]));
            g.play(c, mv).ok()?;
        }
        Some(g)
    }

    /// The cache is keyed by the position before its features are made
    /// ([`History::cache_key`]). Games that reach one position by two orders of their early
    /// moves (the last moves alike) share a key, and must then share the features; and keys
    /// differ where the features do.
    #[test]
    fn positions_with_one_cache_key_have_the_same_features() {
        let mut rng = tengen_rules::playout::Rng::new(17);
        let mut shared = 0;
        for (preset, rules) in [
            (Preset::Chinese, "chinese"),
            (Preset::Japanese, "japanese"),
            (Preset::Chinese, "tromp-taylor"),
            (Preset::Chinese, "aga-button"),
        ] {
            let kata = KataRules::parse(rules).unwrap();
            for _ in 0..60 {
                let len = 12 + rng.below(50) as usize;
                let mut moves: Vec<Option<usize>> = Vec::new();
                let mut g = Game::new(9, preset.rules(9), Handicap::None).unwrap();
                let points: Vec<_> = g.board().points().collect();
                // Passes now and then (never two in a row: the game would end).
                while moves.len() < len {
                    let pick = rng.below(90) as usize;
                    if pick >= 81 && moves.last() == Some(&None) {
                        continue;
                    }
                    let m = (pick < 81).then_some(pick);
                    let c = g.to_move();
                    if g.play(c, m.map_or(Move::Pass, |i| Move::Play(points[i])))
                        .is_ok()
                    {
                        moves.push(m);
                    }
                }
                // Swap two early moves of one colour: the same stones, unless a capture or a
                // ko got in the way (then the keys differ or the game is refused).
                let (i, j) = (rng.below(3) as usize * 2, 4 + rng.below(2) as usize * 2);
                let mut swapped = moves.clone();
                swapped.swap(i, j);
                let Some(other) = replay(preset, &swapped) else {
                    continue;
                };
                let (a, b) = (History::new(&g, kata), History::new(&other, kata));
                for sym in [0, 5] {
                    let (ka, kb) = (a.cache_key(sym), b.cache_key(sym));
                    let (fa, fb) = (features(&a).unwrap(), features(&b).unwrap());
                    if ka == kb {
                        shared += 1;
                        assert_eq!(fa.spatial, fb.spatial, "{rules} {moves:?}");
                        assert_eq!(fa.global, fb.global, "{rules} {moves:?}");
                    }
                }
                // A different symmetry, player to move or komi is a different key.
                assert_ne!(a.cache_key(0), a.cache_key(1));
                let mut turned = a.clone();
                turned.to_move = turned.to_move.opponent();
                assert_ne!(a.cache_key(0), turned.cache_key(0));
                let mut komi = a.clone();
                komi.komi += 1.0;
                assert_ne!(a.cache_key(0), komi.cache_key(0));
            }
        }
        // The test compared features: most swaps reach the same position.
        assert!(shared > 100, "{shared}");
    }

    /// The backend seam: an evaluator runs its forward passes on the backend it was given,
    /// and its cache still answers repeated positions without it.
    #[test]
    fn a_backend_runs_the_passes_and_the_cache_stays_the_evaluators() {
        struct Counting(std::sync::atomic::AtomicU32);
        impl Backend for Counting {
            fn forward(&self, m: &Model, size: usize, sp: &[f32], gl: &[f32]) -> Vec<RawOutput> {
                self.0.fetch_add(1, Ordering::Relaxed);
                Cpu.forward(m, size, sp, gl)
            }
            fn name(&self) -> &'static str {
                "counting"
            }
        }
        let backend = Arc::new(Counting(std::sync::atomic::AtomicU32::new(0)));
        let eval = Evaluator::with_backend(Model::builtin().unwrap(), backend.clone());
        let plain = Evaluator::without_cache(Model::builtin().unwrap());
        let h = history(&["E5", "C3"]);
        let a = eval.evaluate(&h, 2).unwrap();
        let b = eval.evaluate(&h, 2).unwrap();
        assert_eq!(backend.0.load(Ordering::Relaxed), 1);
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.white_win, plain.evaluate(&h, 2).unwrap().white_win);
        assert_eq!(eval.backend_name(), "counting");
    }

    #[test]
    fn a_batch_gives_each_position_what_it_gets_alone() {
        let a = history(&["E5", "C3", "G7"]);
        let b = history(&["D4", "F6"]);
        let alone = Evaluator::without_cache(Model::builtin().unwrap());
        let batch = alone.evaluate_batch(&[(&a, 0), (&b, 5), (&a, 3)]).unwrap();
        for (e, (h, s)) in batch.iter().zip([(&a, 0), (&b, 5), (&a, 3)]) {
            let one = alone.evaluate(h, s).unwrap();
            assert!((e.white_win - one.white_win).abs() < 1e-5);
            assert!((e.white_lead - one.white_lead).abs() < 1e-4);
            for (x, y) in e.policy.iter().zip(&one.policy) {
                assert!((x - y).abs() < 1e-5);
            }
        }
        // The two symmetries of one position agree about as closely as the net is symmetric.
        assert!((batch[0].white_win - batch[2].white_win).abs() < 0.05);
    }

    #[test]
    fn the_cache_answers_a_repeated_position_with_the_same_evaluation() {
        let eval = Evaluator::new(Model::builtin().unwrap());
        let h = history(&["E5"]);
        let first = eval.evaluate(&h, 2).unwrap();
        let again = eval.evaluate(&h, 2).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert!(!Arc::ptr_eq(&first, &eval.evaluate(&h, 1).unwrap()));
    }

    #[test]
    fn a_batch_of_two_board_sizes_is_refused() {
        let eval = Evaluator::new(Model::builtin().unwrap());
        let g13 = Game::new(13, Preset::Chinese.rules(13), Handicap::None).unwrap();
        let h13 = History::new(&g13, KataRules::parse("chinese").unwrap());
        let h9 = history(&[]);
        let err = eval.evaluate_batch(&[(&h9, 0), (&h13, 0)]).unwrap_err();
        assert_eq!(err, NnError::BadBatch);
    }

    #[test]
    fn every_symmetry_is_undone_by_its_reverse() {
        for s in 0..8 {
            for y in 0..5 {
                for x in 0..5 {
                    let (y2, x2) = sym_map(s, 5, y, x, false);
                    // Inputs go forward; the outputs at the moved point come back.
                    let (y3, x3) = sym_map(s, 5, y2, x2, true);
                    assert_eq!((y3, x3), (y, x), "symmetry {s}");
                }
            }
        }
    }
}
