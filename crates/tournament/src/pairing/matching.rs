//! Maximum cardinality matching in a general graph (Edmonds' blossom algorithm, in the
//! breadth-first form with blossom bases, O(n³)). The Swiss and McMahon pairing asks it one
//! question before the weighted matching ([`super::blossom`]) pairs the round: with this
//! player given the bye, can all the others be paired without a repeat?

use std::rc::Rc;

/// A graph over players `0..n` with a matching kept between questions, so that each question
/// only searches from the players it left unmatched.
#[derive(Debug, Clone)]
pub struct Matcher {
    // Shared, so that trying a step clones only the matching.
    allowed: Rc<Vec<Vec<bool>>>,
    alive: Vec<bool>,
    mate: Vec<Option<usize>>,
}

/// The search state of one augmenting-path search.
struct Search {
    parent: Vec<Option<usize>>,
    base: Vec<usize>,
    used: Vec<bool>,
    queue: Vec<usize>,
}

impl Matcher {
    /// A matcher over `allowed` (symmetric: whether two players may meet), every player alive.
    pub fn new(allowed: Vec<Vec<bool>>) -> Matcher {
        let n = allowed.len();
        Matcher {
            allowed: Rc::new(allowed),
            alive: vec![true; n],
            mate: vec![None; n],
        }
    }

    /// The same players over `allowed`, keeping the pairs of the matching it allows.
    pub fn regraph(&self, allowed: Vec<Vec<bool>>) -> Matcher {
        let mate = self
            .mate
            .iter()
            .enumerate()
            .map(|(v, m)| m.filter(|&m| allowed[v][m]))
            .collect();
        Matcher {
            allowed: Rc::new(allowed),
            alive: self.alive.clone(),
            mate,
        }
    }

    /// Takes a player out of the graph (paired, or given the bye), freeing their mate.
    pub fn remove(&mut self, v: usize) {
        self.alive[v] = false;
        if let Some(m) = self.mate[v].take() {
            self.mate[m] = None;
        }
    }

    /// Whether every alive player can be matched; keeps the largest matching found.
    pub fn perfect(&mut self) -> bool {
        self.unmatched() == 0
    }

    /// How many alive players a largest matching leaves unmatched; keeps that matching. (One
    /// pass suffices: a player from whom no augmenting path starts never gains one later.)
    pub fn unmatched(&mut self) -> usize {
        let n = self.alive.len();
        for v in 0..n {
            if self.alive[v] && self.mate[v].is_none() {
                self.augment_from(v);
            }
        }
        (0..n)
            .filter(|&v| self.alive[v] && self.mate[v].is_none())
            .count()
    }

    fn edge(&self, a: usize, b: usize) -> bool {
        self.alive[a] && self.alive[b] && self.allowed[a][b]
    }

    /// Looks for an augmenting path from the unmatched `root` and flips it if found.
    fn augment_from(&mut self, root: usize) {
        let Some((end, parent)) = self.find_path(root) else {
            return;
        };
        let mut v = Some(end);
        while let Some(x) = v {
            let Some(prev) = parent[x] else {
                return;
            };
            let next = self.mate[prev];
            self.mate[x] = Some(prev);
            self.mate[prev] = Some(x);
            v = next;
        }
    }

    /// Breadth-first search for an augmenting path from `root`, contracting blossoms by
    /// relabelling their bases. Returns the path's free end and the parents that trace it.
    fn find_path(&self, root: usize) -> Option<(usize, Vec<Option<usize>>)> {
        let n = self.alive.len();
        let mut s = Search {
            parent: vec![None; n],
            base: (0..n).collect(),
            used: vec![false; n],
            queue: vec![root],
        };
        s.used[root] = true;
        let mut head = 0;
        while head < s.queue.len() {
            let v = s.queue[head];
            head += 1;
            for to in 0..n {
                if !self.edge(v, to) || s.base[v] == s.base[to] || self.mate[v] == Some(to) {
                    continue;
                }
                let to_outer = self.mate[to].is_some_and(|m| s.parent[m].is_some());
                if to == root || to_outer {
                    self.contract(&mut s, v, to);
                } else if s.parent[to].is_none() {
                    s.parent[to] = Some(v);
                    match self.mate[to] {
                        None => return Some((to, s.parent)),
                        Some(m) => {
                            s.used[m] = true;
                            s.queue.push(m);
                        }
                    }
                }
            }
        }
        None
    }

    /// Contracts the blossom closed by the edge `v`–`to` onto its base.
    fn contract(&self, s: &mut Search, v: usize, to: usize) {
        let n = self.alive.len();
        let base = self.common_base(s, v, to);
        let mut in_blossom = vec![false; n];
        self.mark_path(s, &mut in_blossom, v, base, to);
        self.mark_path(s, &mut in_blossom, to, base, v);
        for i in 0..n {
            if in_blossom[s.base[i]] {
                s.base[i] = base;
                if !s.used[i] {
                    s.used[i] = true;
                    s.queue.push(i);
                }
            }
        }
    }

    /// The lowest common ancestor of `a` and `b` in the alternating tree, by bases.
    fn common_base(&self, s: &Search, a: usize, b: usize) -> usize {
        let mut seen = vec![false; self.alive.len()];
        let mut a = a;
        loop {
            a = s.base[a];
            seen[a] = true;
            match self.mate[a].and_then(|m| s.parent[m]) {
                Some(next) => a = next,
                None => break,
            }
        }
        let mut b = b;
        loop {
            b = s.base[b];
            if seen[b] {
                return b;
            }
            match self.mate[b].and_then(|m| s.parent[m]) {
                Some(next) => b = next,
                None => return b,
            }
        }
    }

    /// Marks the blossom's vertices on the path from `v` down to `base`, pointing the parents
    /// of the odd vertices across the closing edge (towards `child`).
    fn mark_path(
        &self,
        s: &mut Search,
        in_blossom: &mut [bool],
        mut v: usize,
        base: usize,
        mut child: usize,
    ) {
        while s.base[v] != base {
            let Some(m) = self.mate[v] else {
                return;
            };
            in_blossom[s.base[v]] = true;
            in_blossom[s.base[m]] = true;
            s.parent[v] = Some(child);
            child = m;
            match s.parent[m] {
                Some(next) => v = next,
                None => return,
            }
        }
    }
}
