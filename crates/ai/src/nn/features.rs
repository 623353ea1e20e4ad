//! KataGo's input features, version 7 (`NNInputs::fillRowV7` in
//! `cpp/neuralnet/nninputs.cpp`), the inputs of model versions 8 to 17: 22 planes and 19
//! global values, from the point of view of the player to move.
//!
//! Planes: 0 on board; 1, 2 own and opponent stones; 3, 4, 5 chains with 1, 2, 3 liberties;
//! 6 ko and superko bans; 7, 8 encore ko marks (never set: no encore); 9 to 13 the last five
//! moves; 14 stones caught in a ladder, 15 and 16 the same one and two moves ago, 17 ataris
//! that catch a two-liberty opponent chain in a ladder; 18, 19 own and opponent area (area
//! scoring only); 20, 21 encore start stones (never set).
//!
//! Globals: 0 to 4 which of the last five moves were passes; 5 komi / 20; 6, 7 ko rule; 8
//! multi-stone suicide; 9 territory scoring; 10, 11 tax; 12, 13 encore phase; 14 a pass
//! would end the game; 15, 16 playout doubling (never set); 17 the button; 18 the komi's
//! parity wave (area scoring).

use tengen_rules::{Board, Color};

use super::area::{area, independent_life_area};
use super::history::History;
use super::ladders::for_each_laddered;
use super::rules::{KataKo, KataScoring, KataTax};

/// Spatial planes.
pub const SPATIAL: usize = 22;
/// Global values.
pub const GLOBAL: usize = 19;

/// KataGo's bound on komi: the board's area plus this.
const KOMI_CLIP_RADIUS: f32 = 20.0;

/// The features of one position: `spatial[point * SPATIAL + plane]` with points row-major,
/// `global[i]`.
#[derive(Clone, Debug)]
pub struct Features {
    /// Board side.
    pub size: usize,
    /// Planes, point-major.
    pub spatial: Vec<f32>,
    /// Global values.
    pub global: [f32; GLOBAL],
}

impl Features {
    fn set(&mut self, board: &Board, p: tengen_rules::Point, plane: usize) {
        let s = board.size();
        let i = p.row(s) as usize * self.size + p.col(s) as usize;
        self.spatial[i * SPATIAL + plane] = 1.0;
    }
}

/// The features of the position `h` describes, for the player to move.
pub fn features(h: &History) -> Result<Features, super::NnError> {
    let board = &h.board;
    let size = board.size() as usize;
    let mut f = Features {
        size,
        spatial: vec![0.0; size * size * SPATIAL],
        global: [0.0; GLOBAL],
    };
    let pla = h.to_move;
    stones(&mut f, board, pla);
    if let Some(ko) = board.ko_point() {
        f.set(board, ko, 6);
    }
    for p in h.superko_banned.iter() {
        f.set(board, p, 6);
    }
    area_planes(&mut f, h, pla);
    let turns = recent_moves(&mut f, h, pla);
    ladder_planes(&mut f, h, pla, turns);
    globals(&mut f, h, pla);
    Ok(f)
}

fn stones(f: &mut Features, board: &Board, pla: Color) {
    for p in board.points() {
        f.set(board, p, 0);
        let Some(c) = board.get(p) else { continue };
        f.set(board, p, if c == pla { 1 } else { 2 });
        match board.liberty_count(p) {
            1 => f.set(board, p, 3),
            2 => f.set(board, p, 4),
            3 => f.set(board, p, 5),
            _ => {}
        }
    }
}

/// Planes 18 and 19 under area scoring: KataGo's area, or under a group tax the
/// independently living part of it (territory scoring shows them only in the encore, which is
/// not modelled).
fn area_planes(f: &mut Features, h: &History, pla: Color) {
    if h.rules.scoring != KataScoring::Area {
        return;
    }
    let board = &h.board;
    let a = if h.rules.tax == KataTax::None {
        area(board, h.rules.multi_stone_suicide)
    } else {
        independent_life_area(board, h.rules.multi_stone_suicide)
    };
    for p in board.points() {
        if let Some(c) = a[p.index()] {
            f.set(board, p, if c == pla { 18 } else { 19 });
        }
    }
}

/// Planes 9 to 13 and globals 0 to 4; returns how many turns of history were shown.
fn recent_moves(f: &mut Features, h: &History, pla: Color) -> usize {
    let suppress = pass_suppressed(h);
    let mut max = if suppress {
        0
    } else if h.finished {
        1
    } else {
        5
    };
    max = max.min(h.valid_turns);
    let opp = pla.opponent();
    let mut shown = 0;
    for i in 0..max {
        let Some(&(c, m)) = h
            .moves
            .len()
            .checked_sub(i + 1)
            .and_then(|j| h.moves.get(j))
        else {
            break;
        };
        // The moves must alternate back from the opponent's last one.
        if c != if i % 2 == 0 { opp } else { pla } {
            break;
        }
        shown = i + 1;
        match m {
            None => f.global[i] = 1.0,
            Some(p) => f.set(&h.board, p, 9 + i),
        }
    }
    shown
}

/// KataGo hides the history, and says a pass would not end the game, when a pass would end it
/// but a friendly pass is assumed harmless (`shouldSuppressEndGameFromFriendlyPass`).
fn pass_suppressed(h: &History) -> bool {
    let ends_game = h.pass_would_end() && h.rules.scoring == KataScoring::Area;
    ends_game && h.rules.friendly_pass_ok && h.ending_passes == 1 && !h.spight_ending(h.to_move)
}

fn ladder_planes(f: &mut Features, h: &History, pla: Color, turns: usize) {
    let board = &h.board;
    let opp = pla.opponent();
    for_each_laddered(board, |p, working| {
        f.set(board, p, 14);
        if board.get(p) == Some(opp) && board.liberty_count(p) > 1 {
            for &w in working {
                f.set(board, w, 17);
            }
        }
    });
    let prev = if turns < 1 {
        board
    } else {
        h.recent[0].as_ref().unwrap_or(board)
    };
    for_each_laddered(prev, |p, _| f.set(board, p, 15));
    let prev2 = if turns < 2 {
        prev
    } else {
        h.recent[1].as_ref().unwrap_or(prev)
    };
    for_each_laddered(prev2, |p, _| f.set(board, p, 16));
}

fn globals(f: &mut Features, h: &History, pla: Color) {
    let size = f.size as f32;
    let area = size * size;
    let komi = h
        .self_komi(pla)
        .clamp(-area - KOMI_CLIP_RADIUS, area + KOMI_CLIP_RADIUS);
    let g = &mut f.global;
    g[5] = komi / 20.0;
    match h.rules.ko {
        KataKo::Simple => {}
        KataKo::Positional => {
            g[6] = 1.0;
            g[7] = 0.5;
        }
        KataKo::Situational => {
            g[6] = 1.0;
            g[7] = -0.5;
        }
    }
    if h.rules.multi_stone_suicide {
        g[8] = 1.0;
    }
    if h.rules.scoring == KataScoring::Territory {
        g[9] = 1.0;
    }
    match h.rules.tax {
        KataTax::None => {}
        KataTax::Seki => g[10] = 1.0,
        KataTax::All => {
            g[10] = 1.0;
            g[11] = 1.0;
        }
    }
    g[14] = if !pass_suppressed(h) && h.pass_would_end() {
        1.0
    } else {
        0.0
    };
    if h.has_button {
        g[17] = 1.0;
    }
    if h.rules.scoring == KataScoring::Area {
        g[18] = komi_wave(komi, (f.size * f.size) % 2 == 0);
    }
}

/// The triangle wave of the komi's distance to the komis that allow a draw (period 2).
fn komi_wave(self_komi: f32, area_even: bool) -> f32 {
    let floor = if area_even {
        (self_komi / 2.0).floor() * 2.0
    } else {
        ((self_komi - 1.0) / 2.0).floor() * 2.0 + 1.0
    };
    let delta = (self_komi - floor).clamp(0.0, 2.0);
    if delta < 0.5 {
        delta
    } else if delta < 1.5 {
        1.0 - delta
    } else {
        delta - 2.0
    }
}
