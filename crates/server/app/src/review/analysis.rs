//! The engine's analysis of a review's main line, in the background: at each position Black's
//! win rate and the best moves, with progress as it goes.
//!
//! One analysis runs at a time on a thread of its own at the lowest scheduling priority
//! (`renice 19` on that thread, where the system allows it), so that live games, on the async
//! runtime's threads, keep the processor first. Its search is Tengen's engine at a fixed number
//! of playouts per position (one thread, a fixed seed: the same review gives the same figures).

use std::sync::{Arc, Mutex};

use serde_json::{json, Value};
use tengen_ai::search::{analyze, Budget};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Game, Move, Phase};

/// Playouts per position by default, and at most.
pub const DEFAULT_PLAYOUTS: u32 = 400;
/// The most playouts per position a request may ask for.
pub const MAX_PLAYOUTS: u32 = 5_000;

/// What an analysis has found so far.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Positions to analyse.
    pub total: usize,
    /// Positions done.
    pub done: usize,
    /// Per position of the main line (root first): `null` where the game was over, else
    /// `{ "black_winrate", "playouts", "best": [{ "move", "winrate", "visits" }] }`.
    pub positions: Vec<Value>,
    /// Playouts per position.
    pub playouts: u32,
    /// Finished (or stopped by an error).
    pub finished: bool,
}

impl Progress {
    /// As the API shows it.
    pub fn to_json(&self) -> Value {
        json!({
            "state": if self.finished { "done" } else { "running" },
            "done": self.done,
            "total": self.total,
            "playouts": self.playouts,
            "positions": self.positions,
        })
    }
}

/// The analysis of one position.
pub fn position(game: &Game, playouts: u32) -> Value {
    if game.phase() != Phase::Play {
        return Value::Null;
    }
    let color = game.to_move();
    let a = analyze(game, color, &Budget::playouts(playouts, 0x7e5e_1e57));
    let size = game.size();
    let for_black = |w: f32| if color == Color::Black { w } else { 1.0 - w };
    let best: Vec<Value> = a
        .moves
        .iter()
        .take(3)
        .map(|m| {
            json!({
                "move": match m.mv {
                    Move::Play(p) => gtp::format_point(size, p),
                    Move::Pass => "pass".into(),
                },
                "winrate": (m.winrate * 1000.0).round() / 1000.0,
                "visits": m.visits,
            })
        })
        .collect();
    let winrate = a.best().map_or(0.5, |m| for_black(m.winrate));
    json!({
        "to_move": if color == Color::Black { "black" } else { "white" },
        "black_winrate": (winrate * 1000.0).round() / 1000.0,
        "playouts": a.playouts,
        "best": best,
    })
}

/// Lowers the calling thread's scheduling priority as far as it goes (Linux: `renice` on the
/// thread's id, read from `/proc/thread-self`); does nothing where that is not possible.
fn lowest_priority() {
    let Ok(link) = std::fs::read_link("/proc/thread-self") else {
        return;
    };
    let Some(tid) = link.file_name().and_then(|t| t.to_str()).map(String::from) else {
        return;
    };
    let _ = std::process::Command::new("renice")
        .args(["-n", "19", "-p", &tid])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status();
}

/// Analyses `positions` on a background thread, writing into `progress` as it goes and calling
/// `step` after each position (to tell followers), then `done`.
pub fn spawn(
    positions: Vec<Game>,
    playouts: u32,
    progress: Arc<Mutex<Progress>>,
    step: impl Fn() + Send + 'static,
    done: impl FnOnce(Value) + Send + 'static,
) {
    {
        let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
        *p = Progress {
            total: positions.len(),
            playouts,
            ..Progress::default()
        };
    }
    let spawned = std::thread::Builder::new()
        .name("review-analysis".into())
        .spawn(move || {
            lowest_priority();
            for g in &positions {
                let v = position(g, playouts);
                let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
                p.positions.push(v);
                p.done += 1;
                drop(p);
                step();
            }
            let mut p = progress.lock().unwrap_or_else(|e| e.into_inner());
            p.finished = true;
            let json = p.to_json();
            drop(p);
            done(json);
        });
    if let Err(e) = spawned {
        tracing::error!(error = %e, "could not start a review analysis");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::{Handicap, Preset};

    #[test]
    fn a_position_has_a_win_rate_and_best_moves() {
        let mut g = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
        let v = position(&g, 200);
        assert_eq!(v["to_move"], "black");
        let w = v["black_winrate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!(!v["best"].as_array().unwrap().is_empty());
        // The same position and playouts give the same figures.
        assert_eq!(position(&g, 200), v);
        g.play(Color::Black, Move::Pass).unwrap();
        g.play(Color::White, Move::Pass).unwrap();
        assert!(
            position(&g, 200).is_null(),
            "nothing to analyse once the game is over"
        );
    }
}
