//! The area features of KataGo's inputs (features 18 and 19): Benson's pass-alive chains and
//! the regions they surround, then every other stone as its colour and every empty region
//! bordered by one colour only as that colour's (KataGo's `Board::calculateArea` with
//! `nonPassAliveStones`, `safeBigTerritories` and `unsafeBigTerritories` all on).
//!
//! Written after `calculateAreaForPla` in KataGo's `cpp/game/board.cpp`, which differs from
//! the textbook Benson's algorithm in two ways the net was trained with: a region is any
//! connected set of empty points and opponent stones, and (without multi-stone suicide) only
//! its empty points must touch a chain for the region to be vital to it.

use tengen_rules::{Board, Color, Point};

/// One region of empty points and `opp` stones.
struct Region {
    points: Vec<Point>,
    /// Heads of `pla` chains every (counted) point of the region touches.
    vital_for: Vec<Point>,
    /// Points of the region not next to any `pla` stone, counted up to two.
    internal: u8,
    contains_opp: bool,
    borders_dead: bool,
}

fn touches_chain(board: &Board, p: Point, head: Point) -> bool {
    board
        .neighbors(p)
        .any(|q| board.get(q).is_some() && board.chain_id(q) == head)
}

fn regions(board: &Board, pla: Color, suicide_legal: bool) -> (Vec<Region>, Vec<Option<usize>>) {
    let opp = pla.opponent();
    let mut region_of: Vec<Option<usize>> = vec![None; super::CELLS];
    let mut out = Vec::new();
    for start in board.points() {
        if region_of[start.index()].is_some() || board.get(start).is_some() {
            continue;
        }
        let idx = out.len();
        let mut vital: Vec<Point> = Vec::new();
        for q in board.neighbors(start) {
            if board.get(q) == Some(pla) && !vital.contains(&board.chain_id(q)) {
                vital.push(board.chain_id(q));
            }
        }
        let mut r = Region {
            points: vec![start],
            vital_for: vital,
            internal: 0,
            contains_opp: false,
            borders_dead: false,
        };
        region_of[start.index()] = Some(idx);
        let mut i = 0;
        while i < r.points.len() {
            let p = r.points[i];
            i += 1;
            if suicide_legal || board.get(p).is_none() {
                r.vital_for.retain(|&h| touches_chain(board, p, h));
            }
            if r.internal < 2 && !board.neighbors(p).any(|q| board.get(q) == Some(pla)) {
                r.internal += 1;
            }
            if board.get(p) == Some(opp) {
                r.contains_opp = true;
            }
            for q in board.neighbors(p) {
                let c = board.get(q);
                if (c.is_none() || c == Some(opp)) && region_of[q.index()].is_none() {
                    region_of[q.index()] = Some(idx);
                    r.points.push(q);
                }
            }
        }
        out.push(r);
    }
    (out, region_of)
}

/// Marks `pla`'s pass-alive chains and territory in `area` (indexed by point index).
fn area_for(board: &Board, pla: Color, suicide_legal: bool, area: &mut [Option<Color>]) {
    let opp = pla.opponent();
    let (mut regions, region_of) = regions(board, pla, suicide_legal);
    let mut heads: Vec<Point> = Vec::new();
    for p in board.points() {
        if board.get(p) == Some(pla) && board.chain_id(p) == p {
            heads.push(p);
        }
    }
    let at_least_one = !heads.is_empty();
    let mut vital_count = vec![0i32; super::CELLS];
    for r in &regions {
        for h in &r.vital_for {
            vital_count[h.index()] += 1;
        }
    }
    let mut killed = vec![false; heads.len()];
    loop {
        let mut any = false;
        for (i, &h) in heads.iter().enumerate() {
            if killed[i] || vital_count[h.index()] >= 2 {
                continue;
            }
            killed[i] = true;
            any = true;
            for s in board.chain(h) {
                for q in board.neighbors(s) {
                    let Some(ri) = region_of[q.index()] else {
                        continue;
                    };
                    let c = board.get(q);
                    if regions[ri].borders_dead || !(c.is_none() || c == Some(opp)) {
                        continue;
                    }
                    regions[ri].borders_dead = true;
                    for v in &regions[ri].vital_for {
                        vital_count[v.index()] -= 1;
                    }
                }
            }
        }
        if !any {
            break;
        }
    }
    for (i, &h) in heads.iter().enumerate() {
        if !killed[i] {
            for s in board.chain(h) {
                area[s.index()] = Some(pla);
            }
        }
    }
    for r in &regions {
        let safe = !r.borders_dead && at_least_one && (r.internal <= 1 || !r.contains_opp);
        if safe {
            for p in &r.points {
                area[p.index()] = Some(pla);
            }
        } else if !r.contains_opp && at_least_one {
            for p in &r.points {
                if area[p.index()].is_none() {
                    area[p.index()] = Some(pla);
                }
            }
        }
    }
}

/// KataGo's area map (indexed by [`Point::index`]): pass-alive chains and territory of both
/// colours, the other stones as their own colour, single-coloured empty regions.
pub fn area(board: &Board, suicide_legal: bool) -> Vec<Option<Color>> {
    let mut area = vec![None; super::CELLS];
    area_for(board, Color::Black, suicide_legal, &mut area);
    area_for(board, Color::White, suicide_legal, &mut area);
    for p in board.points() {
        if area[p.index()].is_none() {
            area[p.index()] = board.get(p);
        }
    }
    area
}

/// KataGo's area under a group tax (`calculateIndependentLifeArea` with `keepStones`, as the
/// features of area scoring with a tax use it): the [`area`] regions of one colour that touch
/// no dame and hold no stone of their owner in atari (independent life), plus every stone
/// standing in its own colour's area.
pub fn independent_life_area(board: &Board, suicide_legal: bool) -> Vec<Option<Color>> {
    let basic = area(board, suicide_legal);
    let dame = |q: Point| board.get(q).is_none() && basic[q.index()].is_none();
    let mut seki = vec![false; super::CELLS];
    for p in board.points() {
        let Some(owner) = basic[p.index()] else {
            continue;
        };
        if seki[p.index()] {
            continue;
        }
        let atari = board.get(p) == Some(owner) && board.liberty_count(p) == 1;
        if !(atari || board.neighbors(p).any(dame)) {
            continue;
        }
        seki[p.index()] = true;
        let mut queue = vec![p];
        while let Some(q) = queue.pop() {
            for r in board.neighbors(q) {
                if basic[r.index()] == Some(owner) && !seki[r.index()] {
                    seki[r.index()] = true;
                    queue.push(r);
                }
            }
        }
    }
    let mut out = vec![None; super::CELLS];
    for p in board.points() {
        let own = basic[p.index()];
        if own.is_some() && (!seki[p.index()] || own == board.get(p)) {
            out[p.index()] = own;
        }
    }
    out
}
