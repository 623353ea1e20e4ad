//! `tengen match`: referee games between two GTP engines.
//!
//! Engine A is `--black` and engine B `--white` in the first game; colours alternate after that.
//! With `--handicap N` engine A takes Black with N stones on the fixed points in every game
//! (komi 0.5 unless `--komi`), as a stronger player gives a weaker one stones; both engines are
//! told with `fixed_handicap` and must place the referee's stones.
//! Tengen referees every move with the chosen rules: a move the rules forbid, or an answer that
//! is not a move, loses by forfeit; no answer within the time loses on time; an engine that dies
//! loses by forfeit and is restarted for the next game. Two passes end the game and Tengen
//! counts it, removing the dead stones its estimate finds. Each game is written as SGF.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use clap::Args;
use tengen_ai::estimate;
use tengen_gtp::Response;
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, Game, GameResult, Handicap, Komi, Phase, Preset};
use tengen_sgf::game::{record, GameInfo};

use tengen_app::bots::gtp::{Controller, ControllerError};

/// Options of `tengen match`.
#[derive(Args, Debug)]
pub struct MatchOpt {
    /// Command line of engine A, Black in the first game (for example "tengen gtp").
    #[arg(long)]
    pub black: String,
    /// Command line of engine B, White in the first game (for example
    /// "/usr/games/gnugo --mode gtp --level 1").
    #[arg(long)]
    pub white: String,
    /// Number of games; colours alternate.
    #[arg(long, default_value_t = 10)]
    pub games: u32,
    /// Board size.
    #[arg(long, default_value_t = 9)]
    pub size: u8,
    /// Rule preset the referee applies.
    #[arg(long, default_value = "chinese")]
    pub rules: Preset,
    /// Komi (the preset's by default).
    #[arg(long)]
    pub komi: Option<Komi>,
    /// Seconds each engine may take per move; it is told with `time_settings 0 T 1`.
    #[arg(long, default_value_t = 10.0)]
    pub time: f64,
    /// Folder for the SGF records (created if missing).
    #[arg(long, default_value = "match-games")]
    pub out: PathBuf,
    /// Plies after which a game is stopped and counted (default: 4 times the board's area).
    #[arg(long)]
    pub max_moves: Option<u32>,
    /// Engine A (`--black`) takes Black with this many stones (2 to 9, on the fixed points) in
    /// every game, komi 0.5 unless `--komi` says otherwise; colours do not alternate.
    #[arg(long)]
    pub handicap: Option<u8>,
}

impl MatchOpt {
    /// Whether every game is a handicap game.
    fn handicapped(&self) -> bool {
        self.handicap.is_some_and(|n| n > 0)
    }

    /// The handicap of every game.
    fn stones(&self) -> Handicap {
        match self.handicap {
            Some(n) if n > 0 => Handicap::Fixed(n),
            _ => Handicap::None,
        }
    }
}

struct Player {
    ctl: Controller,
    name: String,
    /// Time its `genmove`s took, and how many (seconds a move used, beside the other's).
    thinking: Duration,
    moves: u32,
}

impl Player {
    fn start(command: &str) -> anyhow::Result<Player> {
        let mut ctl = Controller::spawn(command)?;
        let name = match ctl.send("name", Duration::from_secs(30)) {
            Ok(Response::Success(n)) if !n.trim().is_empty() => n.trim().to_string(),
            _ => command.to_string(),
        };
        Ok(Player {
            ctl,
            name,
            thinking: Duration::ZERO,
            moves: 0,
        })
    }
}

/// How one game ended, for the summary.
struct Outcome {
    result: GameResult,
    a_was_black: bool,
}

/// Runs the match and prints the results and the win rate.
pub fn run(opt: MatchOpt) -> anyhow::Result<()> {
    if !crate::seconds_ok(opt.time) {
        anyhow::bail!("--time must be a positive number of seconds, at most 86400");
    }
    let mut rules = opt.rules.rules(opt.size);
    if opt.handicapped() {
        // A handicap game's komi, as the servers give it: half a point to break ties.
        rules.komi = Komi::from_halves(1);
    }
    if let Some(k) = opt.komi {
        rules.komi = k;
    }
    if !opt.rules.allows_size(opt.size) {
        anyhow::bail!(
            "board size {} is not allowed by the {} rules (default size {})",
            opt.size,
            opt.rules,
            opt.rules.default_size()
        );
    }
    Game::new(opt.size, rules, opt.stones()).map_err(|e| anyhow::anyhow!("{e}"))?;
    std::fs::create_dir_all(&opt.out)
        .with_context(|| format!("cannot create {}", opt.out.display()))?;
    let mut a = Player::start(&opt.black)?;
    let mut b = Player::start(&opt.white)?;
    let mut outcomes = Vec::new();
    for i in 0..opt.games {
        let a_black = i % 2 == 0 || opt.handicapped();
        let (black, white) = if a_black {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let game = play_one(&opt, rules, black, white)?;
        let result = game.result().unwrap_or(GameResult::NoResult);
        let info = GameInfo {
            black: Some(black.name.clone()),
            white: Some(white.name.clone()),
            comment: Some(format!("Game {} of a match refereed by Tengen", i + 1)),
            ..GameInfo::default()
        };
        let path = opt.out.join(format!("game-{:03}.sgf", i + 1));
        std::fs::write(
            &path,
            tengen_sgf::write_game(&record(&game, Some(opt.rules), &info)),
        )
        .with_context(|| format!("cannot write {}", path.display()))?;
        println!(
            "game {}: {} (B) vs {} (W): {result}  [{}]",
            i + 1,
            black.name,
            white.name,
            path.display()
        );
        outcomes.push(Outcome {
            result,
            a_was_black: a_black,
        });
    }
    summary(&a.name, &b.name, &outcomes);
    for p in [&a, &b] {
        println!(
            "{} used {:.2} s a move ({} moves)",
            p.name,
            p.thinking.as_secs_f64() / f64::from(p.moves.max(1)),
            p.moves
        );
    }
    Ok(())
}

/// Sets an engine up for a game: the rules first (so that an engine started for other rules,
/// `tengen gtp --rules wga`, accepts the board), then the board, komi and time. An engine that
/// refuses the board cannot play this game; other refusals (time_settings, say) are forgiven.
fn setup(p: &mut Player, opt: &MatchOpt, game: &Game) -> Result<(), ControllerError> {
    let komi = game.rules().komi;
    let t = Duration::from_secs(30);
    if matches!(p.ctl.send("known_command tengen-rules", t)?, Response::Success(s) if s.trim() == "true")
    {
        p.ctl.send(&format!("tengen-rules {}", opt.rules), t)?;
    }
    for cmd in [
        format!("boardsize {}", opt.size),
        "clear_board".to_string(),
        format!("komi {komi}"),
        format!("time_settings 0 {} 1", opt.time.ceil() as u64),
    ] {
        let answer = p.ctl.send(&cmd, t)?;
        if let (Response::Failure(m), false) = (&answer, cmd.starts_with("time_settings")) {
            return Err(ControllerError::Refused(format!("{cmd}: {m}")));
        }
    }
    let stones = game.handicap_stones();
    if !stones.is_empty() {
        let cmd = format!("fixed_handicap {}", stones.len());
        let placed = match p.ctl.send(&cmd, t)? {
            Response::Success(v) => v,
            Response::Failure(m) => return Err(ControllerError::Refused(format!("{cmd}: {m}"))),
        };
        // An engine whose stones are not the referee's would play another game.
        let mut theirs: Vec<_> = placed
            .split_whitespace()
            .map(|v| coord::parse_point(opt.size, v).ok())
            .collect();
        let mut ours: Vec<_> = stones.iter().map(|&s| Some(s)).collect();
        theirs.sort();
        ours.sort();
        if theirs != ours {
            return Err(ControllerError::Refused(format!(
                "{cmd}: placed {placed}, not the fixed points"
            )));
        }
    }
    Ok(())
}

fn play_one(
    opt: &MatchOpt,
    rules: tengen_rules::Rules,
    black: &mut Player,
    white: &mut Player,
) -> anyhow::Result<Game> {
    let mut game = Game::new(opt.size, rules, opt.stones()).map_err(|e| anyhow::anyhow!("{e}"))?;
    for (c, p) in [(Color::Black, &mut *black), (Color::White, &mut *white)] {
        if setup(p, opt, &game).is_err() {
            let _ = p.ctl.restart();
            let _ = game.forfeit(c);
            return Ok(game);
        }
    }
    let max_plies = opt
        .max_moves
        .unwrap_or(4 * opt.size as u32 * opt.size as u32) as usize;
    // Some slack over the announced time for process scheduling.
    let timeout = Duration::from_secs_f64(opt.time * 1.5 + 2.0);
    while game.phase() == Phase::Play && game.ply_count() < max_plies {
        let c = game.to_move();
        let (mover, other) = if c == Color::Black {
            (&mut *black, &mut *white)
        } else {
            (&mut *white, &mut *black)
        };
        let asked = std::time::Instant::now();
        let answer = mover.ctl.send(&format!("genmove {}", c.letter()), timeout);
        mover.thinking += asked.elapsed();
        mover.moves += 1;
        let text = match answer {
            Ok(Response::Success(t)) => t.trim().to_ascii_lowercase(),
            Ok(Response::Failure(_)) | Err(ControllerError::Garbled(_)) => {
                game.forfeit(c).ok();
                break;
            }
            Err(ControllerError::Timeout(_)) => {
                let _ = mover.ctl.restart();
                game.timeout(c).ok();
                break;
            }
            Err(_) => {
                let _ = mover.ctl.restart();
                game.forfeit(c).ok();
                break;
            }
        };
        if text == "resign" {
            game.resign(c).ok();
            break;
        }
        let legal = coord::parse_move(opt.size, &text)
            .ok()
            .filter(|&m| game.play(c, m).is_ok());
        let Some(mv) = legal else {
            game.forfeit(c).ok();
            break;
        };
        let vertex = coord::format_move(opt.size, mv);
        match other
            .ctl
            .send(&format!("play {} {vertex}", c.letter()), timeout)
        {
            Ok(Response::Success(_)) => {}
            // The referee found the move legal; an engine that cannot follow cannot go on.
            _ => {
                let _ = other.ctl.restart();
                game.forfeit(c.opponent()).ok();
                break;
            }
        }
    }
    if game.phase() == Phase::Play {
        // Stopped at the move limit: pass out so that the game can be counted.
        let c = game.to_move();
        let _ = game.pass(c);
        let _ = game.pass(c.opponent());
    }
    if game.phase() == Phase::Scoring {
        // Two passes: count, with the dead stones Tengen's estimator finds.
        let stones: Vec<_> = estimate::count_estimate(&game).dead.iter().collect();
        if game.set_dead(&stones).is_err() {
            let _ = game.set_dead(&[]);
        }
        let _ = game.finish_scoring();
    }
    // Pachi sleeps 5 s before it answers `kgs-game_over` (so that KGS does not start its next
    // game at once). An engine that does not answer in time is killed by the controller, and
    // is started again here: without it, the next game would begin with a dead engine and
    // count as its forfeit.
    for p in [black, white] {
        if let Err(ControllerError::Timeout(_) | ControllerError::Died) =
            p.ctl.send("kgs-game_over", GAME_OVER_TIMEOUT)
        {
            let _ = p.ctl.restart();
        }
    }
    Ok(game)
}

/// How long an engine may take to answer `kgs-game_over` (Pachi 12.90 sleeps 5 s first).
const GAME_OVER_TIMEOUT: Duration = Duration::from_secs(15);

/// Wilson score interval for `wins` out of `n` at 95%.
pub fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96_f64;
    let p = wins / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn summary(a: &str, b: &str, outcomes: &[Outcome]) {
    let mut a_wins = 0.0;
    let (mut draws, mut voids) = (0, 0);
    for o in outcomes {
        let a_color = if o.a_was_black {
            Color::Black
        } else {
            Color::White
        };
        match o.result {
            GameResult::Draw => {
                draws += 1;
                a_wins += 0.5;
            }
            GameResult::NoResult => voids += 1,
            r => {
                if r.winner() == Some(a_color) {
                    a_wins += 1.0;
                }
            }
        }
    }
    let n = (outcomes.len() - voids) as f64;
    let (lo, hi) = wilson(a_wins, n);
    println!(
        "{a} won {a_wins} of {n} counted games against {b} ({draws} drawn, {voids} without result): \
         {:.1}% (95% CI {:.1}%-{:.1}%)",
        if n > 0.0 { 100.0 * a_wins / n } else { 0.0 },
        100.0 * lo,
        100.0 * hi
    );
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(50.0, 100.0);
        assert!((lo - 0.404).abs() < 0.001 && (hi - 0.596).abs() < 0.001);
        let (lo, hi) = wilson(0.0, 10.0);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.278).abs() < 0.001);
    }
}
