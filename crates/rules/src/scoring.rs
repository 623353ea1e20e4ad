//! Counting a finished position.
//!
//! Dead stones are taken off first. Each remaining empty region (a maximal connected set of
//! empty points) that touches stones of one colour only is that colour's territory; a region
//! that touches both, or none, is dame (neutral points, seed 002 rule 10).
//!
//! Seki: two living chains of opposite colours that share a liberty neither side can fill,
//! because filling it would put the filler in atari (or be suicide). Under territory counting
//! the points surrounded by chains in seki count for nobody (seed 001: "none of the points
//! inside a seki count as territory"; seed 003: "points in them are disregarded in scoring");
//! under area counting they count for the owner like any other enclosed point.

use crate::board::Board;
use crate::color::Color;
use crate::point::{Point, PointSet};
use crate::result::GameResult;
use crate::rules::{DeadStones, Komi, Rules, Scoring};

/// One player's side of the count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Count {
    /// Empty points (including the points of removed dead stones) surrounded by this player.
    pub territory: u32,
    /// This player's living stones on the board, when the rules count them.
    pub stones: u32,
    /// Stones this player captured during the game plus the opponent's dead stones, when the
    /// rules count prisoners.
    pub prisoners: u32,
    /// Komi (White only), in half points.
    pub komi: Komi,
    /// Handicap compensation (White only), in points.
    pub handicap_bonus: u32,
}

impl Count {
    /// The total, in half points.
    pub fn total_halves(&self) -> i32 {
        2 * (self.territory + self.stones + self.prisoners + self.handicap_bonus) as i32
            + self.komi.halves()
    }
}

/// A counted position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Score {
    /// Black's count.
    pub black: Count,
    /// White's count.
    pub white: Count,
    /// Black's territory points.
    pub black_territory: PointSet,
    /// White's territory points.
    pub white_territory: PointSet,
    /// Neutral points.
    pub dame: PointSet,
    /// Points enclosed by chains in seki, which count for nobody under territory counting
    /// (under area counting they are in the owner's territory instead and this set is empty).
    pub seki: PointSet,
    /// Stones of chains in seki.
    pub seki_stones: PointSet,
    /// The result the count gives.
    pub result: GameResult,
}

impl Score {
    /// The territory of `c`.
    pub fn territory(&self, c: Color) -> &PointSet {
        match c {
            Color::Black => &self.black_territory,
            Color::White => &self.white_territory,
        }
    }
}

/// Counts `board` under `rules` with `dead` stones removed. `handicap` is the number of
/// handicap stones Black received, for the compensation of area rules.
/// Under rules where every stone on the board is alive ([`DeadStones::NoneRemoved`],
/// Tromp-Taylor) `dead` is not taken off: the board is counted as it stands.
pub fn score(board: &Board, dead: &PointSet, rules: &Rules, handicap: u32) -> Score {
    let none = PointSet::new();
    let dead = match rules.dead_stones {
        DeadStones::Agreed => dead,
        DeadStones::NoneRemoved => &none,
    };
    let mut clean = board.clone();
    let removals: Vec<(Point, Option<Color>)> = dead
        .iter()
        .filter(|&p| board.contains(p) && board.get(p).is_some())
        .map(|p| (p, None))
        .collect();
    // Removing stones never leaves a chain without liberties, so this cannot fail.
    let _ = clean.setup(&removals);

    let seki_stones = if rules.scoring == Scoring::Territory {
        seki_chains(&clean)
    } else {
        PointSet::new()
    };

    let mut territory = [PointSet::new(), PointSet::new()];
    let mut dame = PointSet::new();
    let mut seki = PointSet::new();
    let mut seen = PointSet::new();
    for p in clean.points() {
        if clean.get(p).is_some() || seen.contains(p) {
            continue;
        }
        let mut region = vec![p];
        seen.insert(p);
        let (mut touches, mut in_seki) = ([false; 2], false);
        let mut i = 0;
        while i < region.len() {
            for n in clean.neighbors(region[i]) {
                match clean.get(n) {
                    Some(c) => {
                        touches[c.index()] = true;
                        in_seki |= seki_stones.contains(n);
                    }
                    None => {
                        if seen.insert(n) {
                            region.push(n);
                        }
                    }
                }
            }
            i += 1;
        }
        let target = match touches {
            [true, false] if !in_seki => &mut territory[0],
            [false, true] if !in_seki => &mut territory[1],
            [true, false] | [false, true] => &mut seki,
            _ => &mut dame,
        };
        for q in region {
            target.insert(q);
        }
    }

    let mut counts = [Count::default(), Count::default()];
    for c in Color::ALL {
        let me = &mut counts[c.index()];
        me.territory = territory[c.index()].len() as u32;
        if rules.scoring.counts_stones() {
            me.stones = clean.stone_count(c) as u32;
        }
        if rules.scoring.counts_prisoners() {
            let dead_of_opponent = dead
                .iter()
                .filter(|&p| board.contains(p) && board.get(p) == Some(c.opponent()))
                .count() as u32;
            me.prisoners = board.captures(c) + dead_of_opponent;
        }
    }
    counts[1].komi = rules.komi;
    counts[1].handicap_bonus = rules.handicap_bonus.points(handicap);
    let [black, white] = counts;
    let result = GameResult::from_difference(black.total_halves() - white.total_halves());
    let [black_territory, white_territory] = territory;
    Score {
        black,
        white,
        black_territory,
        white_territory,
        dame,
        seki,
        seki_stones,
        result,
    }
}

/// Stones of chains in seki on a board from which dead stones have been removed: chains that
/// share a liberty with an opposing chain where a stone of either colour would be in atari or
/// captured at once.
pub fn seki_chains(board: &Board) -> PointSet {
    let mut out = PointSet::new();
    for p in board.points() {
        if board.get(p).is_some() {
            continue;
        }
        let mut has = [false; 2];
        for n in board.neighbors(p) {
            if let Some(c) = board.get(n) {
                has[c.index()] = true;
            }
        }
        if has != [true, true] {
            continue;
        }
        if self_atari(board, p, Color::Black) && self_atari(board, p, Color::White) {
            for n in board.neighbors(p).collect::<Vec<_>>() {
                if board.get(n).is_some() && !out.contains(n) {
                    for s in board.chain_stones(n) {
                        out.insert(s);
                    }
                }
            }
        }
    }
    out
}

/// True when a stone of `c` on empty `p` would capture nothing and be left with at most one
/// liberty.
fn self_atari(board: &Board, p: Point, c: Color) -> bool {
    if board.is_suicide(p, c) {
        return true;
    }
    if board.would_capture(p, c) {
        return false;
    }
    let mut after = board.clone();
    after.play(p, c);
    after.liberty_count(p) <= 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Preset;

    #[test]
    fn an_empty_board_is_all_dame() {
        let b = Board::new(5);
        let s = score(&b, &PointSet::new(), &Preset::Japanese.rules(5), 0);
        assert_eq!(s.dame.len(), 25);
        assert_eq!(s.result.to_string(), "W+6.5");
    }
}
