//! Maximum-weight matching in a general graph: Edmonds' blossom algorithm with dual variables,
//! O(n³), in the form of Galil's survey ("Efficient algorithms for finding maximum matching in
//! graphs", 1986) as Joris van Rantwijk laid it out (his `mwmatching.py`, public domain). This
//! is Tengen's own code after that description. The whole-round pairing asks it for the pairing
//! of greatest total weight, as OpenGotha asks its `WeightedMatchLong` (Gabow's O(n³) Edmonds).
//!
//! Nothing here recurses: nested blossoms are walked with explicit stacks, so the depth of the
//! nesting (at most half the players) never reaches the thread's stack.
//!
//! Weights are `i64`; they are doubled inside so that every dual variable stays an integer.
//! Edge weights must keep `4 * |w|` within `i64` (OpenGotha's largest weight is about 6e14).

/// "None" in the endpoint, edge and blossom arrays.
const NONE: usize = usize::MAX;

/// Labels: a top-level blossom is free (0), outer S (1) or inner T (2); 5 marks a blossom on
/// the path being traced in `scan_blossom`.
const FREE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;
const BREADCRUMB: u8 = 5;

/// The pairs of a maximum-weight matching of the graph on vertices `0..n` with `edges`
/// `(i, j, weight)`: `mate[v]` is v's partner. With `max_cardinality`, among the matchings of
/// the most pairs, the heaviest. Edges of weight 0 or less are never worth taking unless
/// `max_cardinality` needs them. Self-loops and vertices out of range are ignored.
pub fn max_weight_matching(
    n: usize,
    edges: &[(usize, usize, i64)],
    max_cardinality: bool,
) -> Vec<Option<usize>> {
    let edges: Vec<(usize, usize, i64)> = edges
        .iter()
        .filter(|&&(i, j, _)| i != j && i < n && j < n)
        .map(|&(i, j, w)| (i, j, 2 * w))
        .collect();
    if n == 0 || edges.is_empty() {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges, max_cardinality);
    m.solve();
    (0..n)
        .map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]]))
        .collect()
}

/// The algorithm's state. Edge k has endpoints `2k` and `2k + 1`; `endpoint[p]` is the vertex
/// at endpoint p, and `p ^ 1` is the other end. Blossoms are numbered `n..2n`.
struct Matcher {
    n: usize,
    edges: Vec<(usize, usize, i64)>,
    max_cardinality: bool,
    endpoint: Vec<usize>,
    /// For each vertex, the remote endpoints of its edges.
    neighbours: Vec<Vec<usize>>,
    /// For each vertex, the remote endpoint of its matched edge.
    mate: Vec<usize>,
    label: Vec<u8>,
    /// The endpoint through which a blossom (or vertex) got its label.
    label_end: Vec<usize>,
    /// The top-level blossom holding each vertex.
    in_blossom: Vec<usize>,
    parent: Vec<usize>,
    /// A blossom's sub-blossoms, from the base round the cycle, and the endpoints linking them.
    childs: Vec<Vec<usize>>,
    ends: Vec<Vec<usize>>,
    base: Vec<usize>,
    /// The least-slack edge to another S-blossom (or, for a free vertex, from an S-vertex).
    best_edge: Vec<usize>,
    /// For S-blossoms: the least-slack edges to each other S-blossom, when known.
    best_edges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<i64>,
    allowed: Vec<bool>,
    queue: Vec<usize>,
}

/// What the dual update found.
enum Delta {
    /// No further improvement: the stage ends.
    Done,
    /// An edge from an S-vertex to a free vertex becomes tight.
    ToFree(usize),
    /// An edge between two S-blossoms becomes tight.
    BetweenS(usize),
    /// A T-blossom's dual reaches zero: expand it.
    Expand(usize),
}

impl Matcher {
    fn new(n: usize, edges: Vec<(usize, usize, i64)>, max_cardinality: bool) -> Matcher {
        let max_weight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbours = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbours[i].push(2 * k + 1);
            neighbours[j].push(2 * k);
        }
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        let mut dual = vec![max_weight; n];
        dual.extend(std::iter::repeat_n(0, n));
        let count = edges.len();
        Matcher {
            n,
            edges,
            max_cardinality,
            endpoint,
            neighbours,
            mate: vec![NONE; n],
            label: vec![FREE; 2 * n],
            label_end: vec![NONE; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            ends: vec![Vec::new(); 2 * n],
            base,
            best_edge: vec![NONE; 2 * n],
            best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            dual,
            allowed: vec![false; count],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - 2 * w
    }

    /// The vertices inside blossom (or vertex) `b`.
    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(t) = stack.pop() {
            if t < self.n {
                out.push(t);
            } else {
                stack.extend(self.childs[t].iter().rev());
            }
        }
        out
    }

    /// Labels the top-level blossom of `w` with `t` through endpoint `p`; a T-blossom's mate
    /// becomes S in turn.
    fn assign_label(&mut self, mut w: usize, mut t: u8, mut p: usize) {
        loop {
            let b = self.in_blossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.label_end[w] = p;
            self.label_end[b] = p;
            self.best_edge[w] = NONE;
            self.best_edge[b] = NONE;
            if t == S {
                let leaves = self.leaves(b);
                self.queue.extend(leaves);
                return;
            }
            let base = self.base[b];
            let mate = self.mate[base];
            w = self.endpoint[mate];
            t = S;
            p = mate ^ 1;
        }
    }

    /// Traces back from `v` and `w` (both S) to a common base (a new blossom), or `NONE` when
    /// they lead to two exposed roots (an augmenting path).
    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            if v != NONE {
                let mut b = self.in_blossom[v];
                if self.label[b] & 4 != 0 {
                    base = self.base[b];
                    break;
                }
                path.push(b);
                self.label[b] = BREADCRUMB;
                if self.label_end[b] == NONE {
                    v = NONE;
                } else {
                    v = self.endpoint[self.label_end[b]];
                    b = self.in_blossom[v];
                    v = self.endpoint[self.label_end[b]];
                }
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    /// Makes a new blossom with `base` through the tight edge `k` between two S-blossoms.
    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.in_blossom[base];
        let mut bv = self.in_blossom[v];
        let mut bw = self.in_blossom[w];
        let Some(b) = self.unused.pop() else {
            return; // Not reached: a graph of n vertices never holds more than n blossoms.
        };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut ends = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            ends.push(self.label_end[bv]);
            v = self.endpoint[self.label_end[bv]];
            bv = self.in_blossom[v];
        }
        path.push(bb);
        path.reverse();
        ends.reverse();
        ends.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            ends.push(self.label_end[bw] ^ 1);
            w = self.endpoint[self.label_end[bw]];
            bw = self.in_blossom[w];
        }
        self.label[b] = S;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = 0;
        self.childs[b] = path.clone();
        self.ends[b] = ends;
        for leaf in self.leaves(b) {
            if self.label[self.in_blossom[leaf]] == T {
                // A T-vertex inside becomes S: scan it.
                self.queue.push(leaf);
            }
            self.in_blossom[leaf] = b;
        }
        self.merge_best_edges(b, &path);
    }

    /// The new blossom's least-slack edges to each other S-blossom, from its children's.
    fn merge_best_edges(&mut self, b: usize, path: &[usize]) {
        let mut best_to = vec![NONE; 2 * self.n];
        for &bv in path {
            let lists: Vec<Vec<usize>> = match self.best_edges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves(bv)
                    .into_iter()
                    .map(|v| self.neighbours[v].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for k in lists.into_iter().flatten() {
                let (i, j, _) = self.edges[k];
                let j = if self.in_blossom[j] == b { i } else { j };
                let bj = self.in_blossom[j];
                if bj != b
                    && self.label[bj] == S
                    && (best_to[bj] == NONE || self.slack(k) < self.slack(best_to[bj]))
                {
                    best_to[bj] = k;
                }
            }
            self.best_edge[bv] = NONE;
        }
        let list: Vec<usize> = best_to.into_iter().filter(|&k| k != NONE).collect();
        self.best_edge[b] = list
            .iter()
            .copied()
            .min_by_key(|&k| self.slack(k))
            .unwrap_or(NONE);
        self.best_edges[b] = Some(list);
    }

    /// Takes blossom `b` apart. Mid-stage (a T-blossom whose dual reached zero) its children
    /// are relabelled along the path; at the end of a stage, children with a zero dual are
    /// taken apart too.
    fn expand_blossom(&mut self, b: usize, end_stage: bool) {
        let mut stack = vec![b];
        while let Some(b) = stack.pop() {
            for s in self.childs[b].clone() {
                self.parent[s] = NONE;
                if s < self.n {
                    self.in_blossom[s] = s;
                } else if end_stage && self.dual[s] == 0 {
                    stack.push(s);
                } else {
                    for leaf in self.leaves(s) {
                        self.in_blossom[leaf] = s;
                    }
                }
            }
            if !end_stage && self.label[b] == T {
                self.relabel_expanded(b);
            }
            self.label[b] = FREE;
            self.label_end[b] = NONE;
            self.childs[b].clear();
            self.ends[b].clear();
            self.base[b] = NONE;
            self.best_edges[b] = None;
            self.best_edge[b] = NONE;
            self.unused.push(b);
        }
    }

    /// After a T-blossom is taken apart: the even path from its entry child to its base stays
    /// labelled (T, S, T ...); children off the path that hold a labelled vertex are relabelled.
    fn relabel_expanded(&mut self, b: usize) {
        let len = self.childs[b].len() as isize;
        let at = |j: isize| j.rem_euclid(len) as usize;
        let entry = self.in_blossom[self.endpoint[self.label_end[b] ^ 1]];
        let Some(index) = self.childs[b].iter().position(|&c| c == entry) else {
            return;
        };
        let mut j = index as isize;
        let (step, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let mut p = self.label_end[b];
        while j != 0 {
            let q = self.ends[b][at(j - trick as isize)];
            self.label[self.endpoint[p ^ 1]] = FREE;
            self.label[self.endpoint[q ^ trick ^ 1]] = FREE;
            self.assign_label(self.endpoint[p ^ 1], T, p);
            self.allowed[q / 2] = true;
            j += step;
            p = self.ends[b][at(j - trick as isize)] ^ trick;
            self.allowed[p / 2] = true;
            j += step;
        }
        let bv = self.childs[b][at(j)];
        let v = self.endpoint[p ^ 1];
        self.label[v] = T;
        self.label[bv] = T;
        self.label_end[v] = p;
        self.label_end[bv] = p;
        self.best_edge[bv] = NONE;
        j += step;
        while self.childs[b][at(j)] != entry {
            let bv = self.childs[b][at(j)];
            j += step;
            if self.label[bv] == S {
                continue;
            }
            let leaves = self.leaves(bv);
            if let Some(&v) = leaves.iter().find(|&&v| self.label[v] != FREE) {
                self.label[v] = FREE;
                let mate = self.mate[self.base[bv]];
                self.label[self.endpoint[mate]] = FREE;
                self.assign_label(v, T, self.label_end[v]);
            }
        }
    }

    /// Swaps matched and unmatched edges on the even path from vertex `v` to blossom `b`'s
    /// base inside `b`, and makes `v` the base; nested blossoms on the path likewise. The
    /// nested calls touch disjoint blossoms and pairs, so a work list replaces the recursion.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut work = vec![(b, v)];
        while let Some((b, v)) = work.pop() {
            let mut t = v;
            while self.parent[t] != b {
                t = self.parent[t];
            }
            if t >= self.n {
                work.push((t, v));
            }
            let len = self.childs[b].len() as isize;
            let at = |j: isize| j.rem_euclid(len) as usize;
            let Some(i) = self.childs[b].iter().position(|&c| c == t) else {
                continue;
            };
            let mut j = i as isize;
            let (step, trick): (isize, usize) = if j & 1 == 1 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            while j != 0 {
                j += step;
                let t = self.childs[b][at(j)];
                let p = self.ends[b][at(j - trick as isize)] ^ trick;
                if t >= self.n {
                    work.push((t, self.endpoint[p]));
                }
                j += step;
                let t = self.childs[b][at(j)];
                if t >= self.n {
                    work.push((t, self.endpoint[p ^ 1]));
                }
                self.mate[self.endpoint[p]] = p ^ 1;
                self.mate[self.endpoint[p ^ 1]] = p;
            }
            self.childs[b].rotate_left(i);
            self.ends[b].rotate_left(i);
            // The first child's own turn may still be on the work list: its base will be v.
            self.base[b] = v;
        }
    }

    /// Augments the matching along the path through tight edge `k` between two S-blossoms
    /// whose trees end at exposed vertices.
    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.label_end[bs] == NONE {
                    break; // The tree's root: the path ends.
                }
                let t = self.endpoint[self.label_end[bs]];
                let bt = self.in_blossom[t];
                s = self.endpoint[self.label_end[bt]];
                let j = self.endpoint[self.label_end[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.label_end[bt];
                p = self.label_end[bt] ^ 1;
            }
        }
    }

    fn solve(&mut self) {
        for _ in 0..self.n {
            self.start_stage();
            if !self.stage() {
                break;
            }
            // Blossoms whose dual reached zero are taken apart (their vertices matched inside).
            for b in self.n..2 * self.n {
                if self.parent[b] == NONE
                    && self.base[b] != NONE
                    && self.label[b] == S
                    && self.dual[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    fn start_stage(&mut self) {
        self.label.fill(FREE);
        self.best_edge.fill(NONE);
        for b in self.n..2 * self.n {
            self.best_edges[b] = None;
        }
        self.allowed.fill(false);
        self.queue.clear();
        for v in 0..self.n {
            if self.mate[v] == NONE && self.label[self.in_blossom[v]] == FREE {
                self.assign_label(v, S, NONE);
            }
        }
    }

    /// One stage: grows the trees until the matching is augmented (true) or the duals show
    /// it is the best (false).
    fn stage(&mut self) -> bool {
        loop {
            if self.scan_queue() {
                return true;
            }
            match self.delta() {
                Delta::Done => return false,
                Delta::ToFree(k) | Delta::BetweenS(k) => {
                    self.allowed[k] = true;
                    let (i, j, _) = self.edges[k];
                    let i = if self.label[self.in_blossom[i]] == FREE {
                        j
                    } else {
                        i
                    };
                    self.queue.push(i);
                }
                Delta::Expand(b) => self.expand_blossom(b, false),
            }
        }
    }

    /// Scans the S-vertices in the queue along tight edges; true once it augmented.
    fn scan_queue(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            for idx in 0..self.neighbours[v].len() {
                let p = self.neighbours[v][idx];
                let k = p / 2;
                let w = self.endpoint[p];
                if self.in_blossom[v] == self.in_blossom[w] {
                    continue;
                }
                let mut slack = 0;
                if !self.allowed[k] {
                    slack = self.slack(k);
                    if slack <= 0 {
                        self.allowed[k] = true;
                    }
                }
                let bw = self.in_blossom[w];
                if self.allowed[k] {
                    if self.label[bw] == FREE {
                        self.assign_label(w, T, p ^ 1);
                    } else if self.label[bw] == S {
                        let base = self.scan_blossom(v, w);
                        if base != NONE {
                            self.add_blossom(base, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == FREE {
                        self.label[w] = T;
                        self.label_end[w] = p ^ 1;
                    }
                } else if self.label[bw] == S {
                    let b = self.in_blossom[v];
                    if self.best_edge[b] == NONE || slack < self.slack(self.best_edge[b]) {
                        self.best_edge[b] = k;
                    }
                } else if self.label[w] == FREE
                    && (self.best_edge[w] == NONE || slack < self.slack(self.best_edge[w]))
                {
                    self.best_edge[w] = k;
                }
            }
        }
        false
    }

    /// The dual update: the least change that makes an edge tight or a blossom's dual zero,
    /// applied to every dual; what it found.
    fn delta(&mut self) -> Delta {
        let n = self.n;
        let mut found: Option<(i64, Delta)> = None;
        let consider = |d: i64, what: Delta, found: &mut Option<(i64, Delta)>| {
            if found.as_ref().is_none_or(|(best, _)| d < *best) {
                *found = Some((d, what));
            }
        };
        if !self.max_cardinality {
            let least = self.dual[..n].iter().copied().min().unwrap_or(0);
            consider(least, Delta::Done, &mut found);
        }
        for v in 0..n {
            if self.label[self.in_blossom[v]] == FREE && self.best_edge[v] != NONE {
                let k = self.best_edge[v];
                consider(self.slack(k), Delta::ToFree(k), &mut found);
            }
        }
        for b in 0..2 * n {
            if self.parent[b] == NONE && self.label[b] == S && self.best_edge[b] != NONE {
                let k = self.best_edge[b];
                // Both ends are S: the slack is even (weights and duals are kept even).
                consider(self.slack(k) / 2, Delta::BetweenS(k), &mut found);
            }
        }
        for b in n..2 * n {
            if self.base[b] != NONE && self.parent[b] == NONE && self.label[b] == T {
                consider(self.dual[b], Delta::Expand(b), &mut found);
            }
        }
        let (delta, what) = found.unwrap_or_else(|| {
            // Max cardinality with nothing left to grow: one last update, then stop.
            let least = self.dual[..n].iter().copied().min().unwrap_or(0);
            (least.max(0), Delta::Done)
        });
        for v in 0..n {
            match self.label[self.in_blossom[v]] {
                S => self.dual[v] -= delta,
                T => self.dual[v] += delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.base[b] != NONE && self.parent[b] == NONE {
                match self.label[b] {
                    S => self.dual[b] += delta,
                    T => self.dual[b] -= delta,
                    _ => {}
                }
            }
        }
        what
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)] // Adjacency matrices read best by index.
mod tests {
    use super::max_weight_matching;

    /// The heaviest matching's weight by trying every matching (small graphs only), and, with
    /// `cardinality`, among those with the most pairs.
    fn brute(n: usize, w: &[Vec<Option<i64>>], cardinality: bool) -> (usize, i64) {
        fn go(
            v: usize,
            n: usize,
            w: &[Vec<Option<i64>>],
            used: &mut Vec<bool>,
            acc: (usize, i64),
            best: &mut (usize, i64),
            cardinality: bool,
        ) {
            if v == n {
                let better = if cardinality {
                    acc > *best
                } else {
                    acc.1 > best.1
                };
                if better {
                    *best = acc;
                }
                return;
            }
            if used[v] {
                return go(v + 1, n, w, used, acc, best, cardinality);
            }
            go(v + 1, n, w, used, acc, best, cardinality);
            used[v] = true;
            for u in v + 1..n {
                if let (false, Some(x)) = (used[u], w[v][u]) {
                    used[u] = true;
                    go(v + 1, n, w, used, (acc.0 + 1, acc.1 + x), best, cardinality);
                    used[u] = false;
                }
            }
            used[v] = false;
        }
        let mut best = (0, 0);
        go(0, n, w, &mut vec![false; n], (0, 0), &mut best, cardinality);
        best
    }

    fn weight_of(mate: &[Option<usize>], w: &[Vec<Option<i64>>]) -> (usize, i64) {
        let mut pairs = 0;
        let mut total = 0;
        for (v, m) in mate.iter().enumerate() {
            if let Some(u) = *m {
                assert_eq!(mate[u], Some(v), "mates agree");
                if v < u {
                    pairs += 1;
                    total += w[v][u].expect("matched along an edge");
                }
            }
        }
        (pairs, total)
    }

    #[test]
    fn agrees_with_brute_force_on_random_graphs() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |m: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % m
        };
        for case in 0..3000 {
            let n = 1 + next(10) as usize;
            let density = 1 + next(10);
            let spread = [3, 10, 1000][case % 3];
            let mut w = vec![vec![None; n]; n];
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if next(10) < density {
                        let x = next(spread) as i64 - (spread as i64) / 5;
                        w[i][j] = Some(x);
                        w[j][i] = Some(x);
                        edges.push((i, j, x));
                    }
                }
            }
            for cardinality in [false, true] {
                let mate = max_weight_matching(n, &edges, cardinality);
                let got = weight_of(&mate, &w);
                let want = brute(n, &w, cardinality);
                if cardinality {
                    assert_eq!(got, want, "case {case}, max cardinality: {edges:?}");
                } else {
                    assert_eq!(got.1, want.1, "case {case}: {edges:?}");
                }
            }
        }
    }

    /// Checks a graph against brute force, with and without max cardinality.
    fn check(n: usize, edges: &[(usize, usize, i64)]) {
        let mut w = vec![vec![None; n]; n];
        for &(i, j, x) in edges {
            w[i][j] = Some(x);
            w[j][i] = Some(x);
        }
        for cardinality in [false, true] {
            let got = weight_of(&max_weight_matching(n, edges, cardinality), &w);
            let want = brute(n, &w, cardinality);
            assert_eq!(got.1, want.1, "{edges:?}, max cardinality {cardinality}");
        }
    }

    #[test]
    fn known_small_cases() {
        // A path where the heavy middle edge loses to the two ends.
        let m = max_weight_matching(4, &[(0, 1, 2), (1, 2, 3), (2, 3, 2)], false);
        assert_eq!(m, [Some(1), Some(0), Some(3), Some(2)]);
        // A negative edge is left out unless the most pairs need it.
        assert_eq!(max_weight_matching(2, &[(0, 1, -1)], false), [None, None]);
        assert_eq!(
            max_weight_matching(2, &[(0, 1, -1)], true),
            [Some(1), Some(0)]
        );
        assert_eq!(
            max_weight_matching(0, &[], true),
            Vec::<Option<usize>>::new()
        );
        // Self-loops and vertices out of range are ignored.
        assert_eq!(
            max_weight_matching(2, &[(0, 0, 5), (0, 7, 5)], true),
            [None, None]
        );
    }

    #[test]
    fn blossoms_nested_expanded_and_augmented() {
        // Van Rantwijk's test graphs (his mwmatching.py), 0-based: an S-blossom, an S-blossom
        // relabelled T, nested S-blossoms, a T-blossom expanded, and his "nasty" cases.
        check(4, &[(0, 1, 8), (0, 2, 9), (1, 2, 10), (2, 3, 7)]);
        check(
            6,
            &[
                (0, 1, 9),
                (0, 2, 8),
                (1, 2, 10),
                (0, 3, 5),
                (3, 4, 4),
                (0, 5, 3),
            ],
        );
        check(
            6,
            &[
                (0, 1, 9),
                (0, 2, 9),
                (1, 2, 10),
                (1, 3, 8),
                (2, 4, 8),
                (3, 4, 10),
                (4, 5, 6),
            ],
        );
        check(
            8,
            &[
                (0, 1, 10),
                (0, 6, 10),
                (1, 2, 12),
                (2, 3, 20),
                (2, 4, 20),
                (3, 4, 25),
                (4, 5, 10),
                (5, 6, 10),
                (6, 7, 8),
            ],
        );
        check(
            8,
            &[
                (0, 1, 8),
                (0, 2, 8),
                (1, 2, 10),
                (1, 3, 12),
                (2, 4, 12),
                (3, 4, 14),
                (3, 5, 12),
                (4, 6, 12),
                (5, 6, 14),
                (6, 7, 12),
            ],
        );
        check(
            10,
            &[
                (0, 1, 45),
                (0, 4, 45),
                (1, 2, 50),
                (2, 3, 45),
                (3, 4, 50),
                (0, 5, 30),
                (2, 8, 35),
                (3, 7, 35),
                (4, 6, 26),
                (8, 9, 5),
            ],
        );
        check(
            10,
            &[
                (0, 1, 45),
                (0, 4, 45),
                (1, 2, 50),
                (2, 3, 45),
                (3, 4, 50),
                (0, 5, 30),
                (2, 8, 35),
                (3, 7, 26),
                (4, 6, 40),
                (8, 9, 5),
            ],
        );
        check(
            10,
            &[
                (0, 1, 45),
                (0, 6, 45),
                (1, 2, 50),
                (2, 3, 45),
                (3, 4, 95),
                (3, 5, 94),
                (4, 5, 94),
                (5, 6, 50),
                (0, 7, 30),
                (2, 10 - 1, 35),
            ],
        );
        check(
            12,
            &[
                (0, 1, 40),
                (0, 2, 40),
                (1, 2, 60),
                (1, 3, 55),
                (2, 4, 55),
                (3, 4, 50),
                (0, 7, 15),
                (4, 6, 30),
                (6, 5, 10),
                (7, 9, 10),
                (3, 8, 30),
                (10, 11, 1),
            ],
        );
    }
}
