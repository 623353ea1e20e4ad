//! The GTP engine: one [`Engine`] answers one command at a time.
//!
//! `play` accepts either colour in any order, as the GTP specification says. After two passes
//! the game is being scored; a `play` or `genmove` then resumes it, as controllers expect for
//! clean-up play. A game decided outright (a first capture, a third repetition under simple ko)
//! refuses further moves.

use std::io::Write;
use std::time::Duration;

use tengen_ai::nn::levels::{self, Level};
use tengen_ai::nn::search::{Limits, Puct, WallClock};
use tengen_ai::nn::KataRules;
use tengen_ai::time::{self, Clock};
use tengen_ai::{estimate, manners, policy, search};
use tengen_gtp::args::{self, ArgError};
use tengen_gtp::{Command, Response};
use tengen_rules::coord::gtp as coord;
use tengen_rules::playout::Rng;
use tengen_rules::{
    handicap, Color, Game, Handicap, HandicapPlacement, Komi, Move, Phase, Point, Preset, Rules,
};
use tengen_sgf::game::{self as record, GameInfo};

use super::analyze::{self, Analysis, Searcher};

/// Every command the engine knows, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "loadsgf",
    "printsgf",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-genmove_cleanup",
    "kgs-game_over",
    "tengen-rules",
    "tengen-unsure",
    "lz-analyze",
    "kata-analyze",
    "lz-genmove_analyze",
    "kata-genmove_analyze",
    "kata-raw-nn",
    "kata-set-rules",
    "kata-set-param",
    "kata-get-param",
];

/// How strong and how fast the engine plays (`tengen gtp --playouts --time --threads --level
/// --no-resign`).
#[derive(Clone, Debug)]
pub struct Strength {
    /// Playouts a move (a fixed count, for reproducible tests and matches).
    pub playouts: Option<u32>,
    /// Seconds a move when the controller announces no time settings.
    pub move_time: Option<f64>,
    /// Search threads.
    pub threads: usize,
    /// Resign hopeless games.
    pub resign: bool,
    /// Which engine plays.
    pub engine: EngineKind,
    /// Visits a move for the network's search (a fixed count, as `playouts` for the other):
    /// the root's, reused ones included, as KataGo's `maxVisits`.
    pub visits: Option<u32>,
    /// Leaves each of the network search's threads evaluates in one forward pass.
    pub batch: usize,
    /// One of the built-in bots' levels chooses the moves where the net plays, as the
    /// server's `builtin:LEVEL` does (`tengen bot`); `None`: the engine's own search.
    pub level: Option<Level>,
}

/// The engine that chooses moves (`tengen gtp --engine`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EngineKind {
    /// The network's PUCT search where the net plays the rules and the board size, else the
    /// Monte Carlo engine.
    Nn,
    /// The Monte Carlo engine with playouts, always.
    Mcts,
}

impl Default for Strength {
    fn default() -> Strength {
        Strength {
            playouts: None,
            move_time: None,
            threads: 1,
            resign: true,
            engine: EngineKind::Nn,
            visits: None,
            batch: 1,
            level: None,
        }
    }
}

pub use tengen_ai::search::level_playouts;

/// Visits to add to a root that kept `reused` from the last move's tree, so that it holds
/// `visits` in all: `--visits` counts as KataGo's `maxVisits` does (the root's visits, the
/// reused ones included; `maxPlayouts` would count only the new), so that Tengen and KataGo at
/// the same number search trees of the same size, and a fresh tree (the server's bots) gets
/// the same. At least one, so that every move looks at its root.
fn root_visits_left(visits: u32, reused: u32) -> u32 {
    visits.saturating_sub(reused).max(1)
}

/// Seconds a move when nothing else is said.
const DEFAULT_MOVE_TIME: f64 = 1.0;

/// What the engine needs between commands.
pub struct Engine {
    preset: Preset,
    size: u8,
    /// Set by `komi`; kept across `boardsize` and `clear_board` as the specification says.
    komi: Option<Komi>,
    game: Game,
    rng: Rng,
    time: Option<Clock>,
    /// The search's budget and manners.
    strength: Strength,
    /// The last move's search, kept for the next (tree reuse).
    search: Option<search::Search>,
    /// The network search's last tree, kept for the next move.
    puct: Option<Puct>,
    /// The search's hopeless moves in a row per colour ([`manners::Streak`]).
    streak: manners::Streak,
    /// When the current `genmove` began: the manners' judgement comes out of its time.
    thinking_since: Option<std::time::Instant>,
    /// Seconds and stones left per colour, from `time_left`.
    time_left: [Option<(f64, u32)>; 2],
    /// The last estimate, with the position and rules it is of.
    estimate: Option<((u64, usize, Rules), estimate::Estimate)>,
    /// The network (`kata-raw-nn`).
    net: super::nn::Net,
    /// KataGo's rules set by `kata-set-rules`, told to the net as they are; `None` tells it
    /// the nearest to the preset. Cleared by `tengen-rules`.
    kata_rules: Option<KataRules>,
    /// The answer to `name`.
    name: String,
    /// The seed of a level's next move ([`Strength::level`]): the engine's seed, then one
    /// more each move, so that the same seed plays the same game.
    level_seed: u64,
    quit: bool,
}

/// Where a move's search reports, and how often (`kata-genmove_analyze`).
type Reporter<'a> = (Duration, &'a mut dyn FnMut(&Puct));

/// The answer to a command that failed, with the specification's wording where it has one.
fn fail(msg: &str) -> Response {
    Response::failure(msg)
}

fn syntax(_: ArgError) -> Response {
    fail("syntax error")
}

impl Engine {
    /// An engine with an empty board of `size` (the preset's own size when `None`: 9 for
    /// WGA, 19 otherwise) under `preset`; `seed` makes `genmove` reproducible. A size the
    /// preset forbids is an error that names the sizes it allows.
    pub fn new(preset: Preset, size: Option<u8>, seed: u64) -> anyhow::Result<Engine> {
        let size = size.unwrap_or(preset.default_size());
        let game = Game::new(size, preset.rules(size), Handicap::None).map_err(|_| {
            let r = preset.rules(size);
            let allowed = if r.min_size == r.max_size {
                format!("{0}x{0} only", r.min_size)
            } else {
                format!("{} to {} lines", r.min_size, r.max_size)
            };
            anyhow::anyhow!("board size {size} is not allowed by the {preset} rules ({allowed})")
        })?;
        Ok(Engine {
            preset,
            size,
            komi: None,
            game,
            rng: Rng::new(seed),
            time: None,
            time_left: [None, None],
            estimate: None,
            strength: Strength::default(),
            search: None,
            puct: None,
            streak: manners::Streak::default(),
            thinking_since: None,
            net: super::nn::Net::default(),
            kata_rules: None,
            name: "Tengen".into(),
            level_seed: seed,
            quit: false,
        })
    }

    /// Answers `name` with `name` (a bot's level, so that match records tell them apart).
    pub fn set_name(&mut self, name: String) {
        self.name = name;
    }

    /// Evaluates with the model at `path` instead of the built-in network.
    pub fn set_model(&mut self, path: &std::path::Path) -> anyhow::Result<()> {
        self.net = super::nn::Net::from_file(path)?;
        Ok(())
    }

    /// Sets a human-style net's profile by KataGo's name (`--human-profile`).
    pub fn set_human_profile(&mut self, name: &str) -> anyhow::Result<()> {
        match super::nn::set_param(&mut self.net, &["humanSLProfile".into(), name.into()]) {
            Response::Success(_) => Ok(()),
            Response::Failure(e) => anyhow::bail!("--human-profile: {e}"),
        }
    }

    /// The rules the network is told: those of `kata-set-rules`, else the nearest to the
    /// game's.
    fn net_rules(&self) -> Option<KataRules> {
        self.kata_rules
            .or_else(|| KataRules::nearest(self.game.rules()))
    }

    fn kata_set_rules(&mut self, a: &[String]) -> Response {
        match super::nn::set_rules(&self.game, a) {
            Ok((rules, game)) => {
                self.kata_rules = Some(rules);
                self.game = game;
                self.search = None;
                self.puct = None;
                Response::success("")
            }
            Err(r) => r,
        }
    }

    /// Starts `lz-analyze` or `kata-analyze` ([`analyze::parse`]: colour, interval in
    /// centiseconds, default 100, and KataGo's pairs). The network's search goes on from the
    /// last move's tree and is kept for the next ([`Engine::finish_analysis`]); `--visits`
    /// (`--playouts` for the Monte Carlo engine) caps it as it caps a move. Errors are the
    /// response.
    pub fn start_analysis(&mut self, cmd: &Command) -> Result<Analysis, Response> {
        let options = analyze::parse(cmd.name == "kata-analyze", &cmd.args)
            .map_err(|()| fail("syntax error"))?;
        let color = options.color.unwrap_or(self.game.to_move());
        if self.game.phase() == Phase::Finished {
            return Err(fail("game is over"));
        }
        let seed = self.rng.next_u64();
        let searcher = match self.net_rules().filter(|_| self.nn_plays()) {
            Some(rules) => {
                let mut game = self.game.clone();
                game.set_to_move(color);
                let mut puct = Puct::reuse(self.puct.take(), &game, color, rules, seed);
                puct.set_threads(self.strength.threads, self.strength.batch);
                Searcher::Nn {
                    puct: Box::new(puct),
                    eval: self.net.evaluator()?,
                    game: Box::new(game),
                }
            }
            None => Searcher::Mcts(Box::new(search::Search::new(
                &self.game,
                color,
                self.strength.threads,
                seed,
            ))),
        };
        let cap = match &searcher {
            Searcher::Nn { .. } => self.strength.visits,
            Searcher::Mcts(_) => self.strength.playouts,
        };
        Ok(Analysis {
            cap: cap.unwrap_or(searcher.limit()),
            search: searcher,
            options,
            color,
            size: self.size,
        })
    }

    /// Keeps an ended analysis's tree for the next move or analysis of the same game.
    pub fn finish_analysis(&mut self, a: Analysis) {
        if let Searcher::Nn { puct, .. } = a.search {
            self.puct = Some(*puct);
        }
    }

    /// Sets how strong and fast the engine plays.
    pub fn set_strength(&mut self, s: Strength) {
        self.strength = s;
    }

    /// True after `quit`.
    pub fn quit(&self) -> bool {
        self.quit
    }

    fn rules(&self, size: u8) -> Rules {
        let mut r = self.preset.rules(size);
        if let Some(k) = self.komi {
            r.komi = k;
        }
        match &self.kata_rules {
            Some(kata) => kata.apply_to(&r),
            None => r,
        }
    }

    fn fresh(&self, size: u8, handicap: Handicap) -> Result<Game, Response> {
        let mut rules = self.rules(size);
        // The controller decides where handicap stones go; GTP has no "fixed only" rule.
        if matches!(handicap, Handicap::Free(_)) {
            rules.handicap_placement = HandicapPlacement::Free;
            rules.max_handicap = rules
                .max_handicap
                .max((size as u16 * size as u16 - 1).min(255) as u8);
        }
        Game::new(size, rules, handicap).map_err(|_| fail("unacceptable size"))
    }

    /// Answers one command.
    pub fn handle(&mut self, cmd: &Command) -> Response {
        let a = &cmd.args;
        match cmd.name.as_str() {
            "protocol_version" => Response::success("2"),
            "name" => Response::success(&self.name),
            "version" => Response::success(env!("CARGO_PKG_VERSION")),
            "known_command" => match a.first() {
                Some(n) => Response::success(COMMANDS.contains(&n.as_str()).to_string()),
                None => fail("syntax error"),
            },
            "list_commands" => Response::success(COMMANDS.join("\n")),
            "quit" => {
                self.quit = true;
                Response::success("")
            }
            "boardsize" => self.boardsize(a),
            "clear_board" => match self.fresh(self.size, Handicap::None) {
                Ok(g) => {
                    self.game = g;
                    Response::success("")
                }
                Err(r) => r,
            },
            "komi" => self.komi(a),
            "play" => self.play(a),
            "genmove" => self.genmove(a, policy::Mode::Normal),
            "kgs-genmove_cleanup" => self.genmove(a, policy::Mode::Cleanup),
            "undo" => match self.game.undo(1) {
                Ok(()) => Response::success(""),
                Err(_) => fail("cannot undo"),
            },
            "showboard" => Response::success(format!("\n{}", showboard(&self.game))),
            "final_score" => self.final_score(),
            "final_status_list" => self.final_status_list(a),
            "tengen-unsure" => self.unsure(),
            "fixed_handicap" => self.fixed_handicap(a),
            "place_free_handicap" => self.place_free_handicap(a),
            "set_free_handicap" => self.set_free_handicap(a),
            "loadsgf" => self.loadsgf(a),
            "printsgf" => self.printsgf(a),
            "time_settings" => self.time_settings_cmd(a),
            "kgs-time_settings" => self.kgs_time_settings(a),
            "time_left" => self.time_left_cmd(a),
            "kgs-game_over" => Response::success(""),
            "tengen-rules" => self.switch_rules(a),
            "kata-set-rules" => self.kata_set_rules(a),
            "kata-set-param" => super::nn::set_param(&mut self.net, a),
            "kata-get-param" => super::nn::get_param(&self.net, a),
            "kata-raw-nn" => {
                let rules = self.net_rules();
                super::nn::raw_nn(&mut self.net, &self.game, rules, a)
            }
            _ => fail("unknown command"),
        }
    }

    fn boardsize(&mut self, a: &[String]) -> Response {
        if args::count(a, 1).is_err() {
            return fail("syntax error");
        }
        let Ok(n) = args::int(&a[0]) else {
            return fail("syntax error");
        };
        let Ok(size) = u8::try_from(n) else {
            return fail("unacceptable size");
        };
        match self.fresh(size, Handicap::None) {
            Ok(g) => {
                self.size = size;
                self.game = g;
                Response::success("")
            }
            Err(r) => r,
        }
    }

    fn komi(&mut self, a: &[String]) -> Response {
        if args::count(a, 1).is_err() {
            return fail("syntax error");
        }
        let Ok(k) = a[0].parse::<Komi>() else {
            return fail("syntax error");
        };
        self.komi = Some(k);
        // Komi changes the count, not the position, the set-up stones or the history.
        self.game.set_komi(k);
        Response::success("")
    }

    fn play(&mut self, a: &[String]) -> Response {
        let (color, mv) = match args::color_and_move(self.size, a) {
            Ok(x) => x,
            Err(ArgError::OffBoard(_)) => return fail("illegal move"),
            Err(e) => return syntax(e),
        };
        match self.game.phase() {
            Phase::Finished => return fail("illegal move"),
            Phase::Scoring => {
                let _ = self.game.resume();
            }
            Phase::Play => {}
        }
        let before = self.game.to_move();
        self.game.set_to_move(color);
        match self.game.play(color, mv) {
            Ok(()) => Response::success(""),
            Err(_) => {
                self.game.set_to_move(before);
                fail("illegal move")
            }
        }
    }

    fn genmove(&mut self, a: &[String], mode: policy::Mode) -> Response {
        if args::count(a, 1).is_err() {
            return fail("syntax error");
        }
        let Ok(color) = args::color(&a[0]) else {
            return fail("syntax error");
        };
        self.genmove_for(color, mode, None)
    }

    /// `lz-genmove_analyze` / `kata-genmove_analyze [player] [interval] KEY VALUE ...`:
    /// `genmove` that reports as the analysis does while the network searches (the Monte
    /// Carlo engine reports nothing), then answers `play MOVE` (KataGo's extension: `=` first,
    /// the reports, the move, an empty line).
    pub fn genmove_analyze(&mut self, cmd: &Command, out: &mut dyn Write) -> std::io::Result<()> {
        let kata = cmd.name == "kata-genmove_analyze";
        let Ok(options) = analyze::parse(kata, &cmd.args) else {
            return out.write_all(fail("syntax error").format(cmd.id).as_bytes());
        };
        if self.game.phase() == Phase::Finished {
            return out.write_all(fail("game is over").format(cmd.id).as_bytes());
        }
        let color = options.color.unwrap_or(self.game.to_move());
        writeln!(
            out,
            "={}",
            cmd.id.map(|i| i.to_string()).unwrap_or_default()
        )?;
        out.flush()?;
        let printer = analyze::Printer {
            options: &options,
            color,
            size: self.size,
        };
        let mut report = |p: &Puct| {
            let line = printer.network(&p.report());
            if !line.is_empty() {
                // A controller that has gone away ends the session at the next read.
                let _ = writeln!(out, "{line}").and_then(|()| out.flush());
            }
        };
        let response = self.genmove_for(
            color,
            policy::Mode::Normal,
            Some((options.interval, &mut report)),
        );
        match response {
            Response::Success(mv) => writeln!(out, "play {mv}\n")?,
            Response::Failure(why) => writeln!(out, "info error {why}\n")?,
        }
        out.flush()
    }

    /// `genmove` for `color`, the network's search reporting every interval to `reporter`.
    fn genmove_for(
        &mut self,
        color: Color,
        mode: policy::Mode,
        reporter: Option<Reporter>,
    ) -> Response {
        match self.game.phase() {
            Phase::Finished => return fail("game is over"),
            Phase::Scoring => {
                let _ = self.game.resume();
            }
            Phase::Play => {}
        }
        self.game.set_to_move(color);
        self.thinking_since = Some(std::time::Instant::now());
        let mv = match mode {
            // Clean-up play captures the dead stones the estimate finds before passing.
            policy::Mode::Cleanup => policy::choose(&self.game, color, &mut self.rng, mode),
            policy::Mode::Normal => {
                let game = self.game.clone();
                let mut streak = std::mem::take(&mut self.streak);
                // The manners judge with the net the engine plays with (`--model`'s).
                let net = self.net.evaluator().ok();
                let decided =
                    streak.decide(net.as_deref(), &game, color, self.strength.resign, || {
                        self.search_move(color, reporter)
                    });
                self.streak = streak;
                self.thinking_since = None;
                match decided {
                    Ok(search::Decision::Move(m)) => m,
                    // The game stays as it is; the controller ends it.
                    Ok(search::Decision::Resign) => return Response::success("resign"),
                    Err(r) => return r,
                }
            }
        };
        match self.game.play(color, mv) {
            Ok(()) => Response::success(coord::format_move(self.size, mv)),
            // The policy only proposes legal moves; if that ever fails, passing is always legal.
            Err(_) => match self.game.play(color, Move::Pass) {
                Ok(()) => Response::success("pass"),
                Err(_) => fail("cannot generate a move"),
            },
        }
    }

    /// Whether the network's search chooses the moves: asked for, and the net plays these
    /// rules (not First Capture) on this board.
    fn nn_plays(&self) -> bool {
        // Where the net plays ([`tengen_ai::nn::plays`]), or rules set by `kata-set-rules`.
        self.strength.engine == EngineKind::Nn
            && tengen_ai::nn::SIZES.contains(&self.size)
            && self.net_rules().is_some()
    }

    /// The search's decision for `color` and its move (played instead of a resignation the
    /// manners do not confirm): the network's where it plays, else the Monte Carlo engine's.
    fn search_move(
        &mut self,
        color: Color,
        reporter: Option<Reporter>,
    ) -> Result<(search::Decision, Move), Response> {
        let style = search::Style {
            resign_below: self.strength.resign.then_some(0.1),
        };
        let (d, a) = if let Some(level) = self.strength.level.filter(|_| self.nn_plays()) {
            self.level_move(color, level)?
        } else if self.nn_plays() {
            let a = self.nn_search(color, reporter)?;
            let d = search::judge_search(&self.game, color, &a, &style, manners::RESIGN_VISITS);
            (d, a)
        } else {
            let (budget, _) = self.budget(color);
            let mut s = search::Search::reuse(
                self.search.take(),
                &self.game,
                color,
                budget.threads,
                budget.seed,
            );
            let found = search::decide(&self.game, color, &mut s, &budget, &style);
            self.search = Some(s);
            found
        };
        Ok((d, a.best().map_or(Move::Pass, |m| m.mv)))
    }

    /// A built-in bot's level's move for `color` ([`levels::genmove`]: its visits, its
    /// sample, its passes), within the controller's clock where it announced one.
    fn level_move(
        &mut self,
        color: Color,
        level: Level,
    ) -> Result<(search::Decision, search::Analysis), Response> {
        let rules = self
            .net_rules()
            .ok_or_else(|| fail("the network does not play these rules"))?;
        let eval = self.net.evaluator()?;
        let time = match self.time {
            Some(_) => self.budget(color).0.time,
            None => None,
        };
        let seed = self.level_seed;
        self.level_seed = seed.wrapping_add(1);
        levels::genmove(&eval, &self.game, color, rules, level, seed, time)
            .map_err(|e| fail(&e.to_string()))
    }

    /// The network's search for `color`'s move (reusing the last move's tree, on the
    /// engine's threads), stopping early once the best move cannot be overtaken where the
    /// clock banks the time saved.
    fn nn_search(
        &mut self,
        color: Color,
        reporter: Option<Reporter>,
    ) -> Result<search::Analysis, Response> {
        let rules = self
            .net_rules()
            .ok_or_else(|| fail("the network does not play these rules"))?;
        let eval = self.net.evaluator()?;
        let (budget, stop_early) = self.budget(color);
        let mut p = Puct::reuse(self.puct.take(), &self.game, color, rules, budget.seed);
        p.set_threads(self.strength.threads, self.strength.batch);
        let limits = Limits {
            visits: self
                .strength
                .visits
                .map(|v| root_visits_left(v, p.reused()))
                .or(budget.playouts),
            time: budget.time,
            stop_early,
        };
        match reporter {
            None => p.run_with(&eval, &self.game, &limits, &WallClock::start()),
            Some((every, report)) => {
                analyze::run_reporting(&mut p, &eval, &self.game, &limits, every, report)
            }
        }
        .map_err(|e| fail(&e.to_string()))?;
        let a = p.analysis();
        self.puct = Some(p);
        Ok(a)
    }

    /// The search budget for `color`'s move: the fixed playout count if one was set, the time
    /// the clock allows if the controller announced one (both when both are set: whichever
    /// ends first), else `--time`, else one second. With it, whether the search may stop once
    /// its best move cannot be overtaken: only where the clock banks the time saved
    /// ([`time::plan`]); a fixed time a move is used whole, as KataGo's `maxTime`.
    fn budget(&mut self, color: Color) -> (search::Budget, bool) {
        let empty = self.game.board().empty_count();
        let plan = self.time.as_ref().map(|clock| {
            let left = self.time_left[color.index()]
                .map(|(seconds, stones)| time::Left { seconds, stones });
            time::plan(clock, left, empty)
        });
        let fixed = match self.nn_plays() {
            true => self.strength.visits.is_some(),
            false => self.strength.playouts.is_some(),
        };
        // The manners' judgement before the search came out of this move's time.
        let spent = self.thinking_since.map_or(Duration::ZERO, |t| t.elapsed());
        let plan = plan.map(|p| time::Plan {
            time: p.time.saturating_sub(spent).max(Duration::from_millis(50)),
            ..p
        });
        let time = plan.map(|p| p.time).or_else(|| {
            if fixed {
                None
            } else {
                Some(Duration::from_secs_f64(
                    self.strength.move_time.unwrap_or(DEFAULT_MOVE_TIME),
                ))
            }
        });
        let budget = search::Budget {
            playouts: self.strength.playouts,
            time,
            threads: self.strength.threads,
            seed: self.rng.next_u64(),
        };
        (budget, plan.is_some_and(|p| p.stop_early))
    }

    /// The estimator's view of the current position (deterministic, so it is kept until the
    /// position or the rules change: a GUI asks `final_status_list` three times in a row).
    fn estimated(&mut self) -> &estimate::Estimate {
        let key = (
            self.game.board().hash(),
            self.game.ply_count(),
            *self.game.rules(),
        );
        if self.estimate.as_ref().is_none_or(|(k, _)| *k != key) {
            self.estimate = Some((key, estimate::count_estimate(&self.game)));
        }
        &self.estimate.as_ref().expect("just set").1
    }

    fn final_score(&mut self) -> Response {
        if let Some(r) = self.game.result() {
            return Response::success(r.to_string());
        }
        let r = self.estimated().result();
        Response::success(r.to_string())
    }

    /// `final_status_list dead|alive|seki`: the estimator's statuses, unsure ones included
    /// (`tengen-unsure` lists those).
    fn final_status_list(&mut self, a: &[String]) -> Response {
        if args::count(a, 1).is_err() {
            return fail("syntax error");
        }
        let status = match a[0].to_ascii_lowercase().as_str() {
            "dead" => estimate::Status::Dead,
            "seki" => estimate::Status::Seki,
            "alive" => estimate::Status::Alive,
            _ => return fail("syntax error"),
        };
        let size = self.size;
        let set = self.estimated().stones(status);
        let pick: Vec<Point> = set.iter().collect();
        Response::success(args::format_points(size, &pick))
    }

    /// `tengen-unsure`: the stones whose status the estimator is unsure of, in the form of
    /// `final_status_list` (empty when it is sure of every stone).
    fn unsure(&mut self) -> Response {
        let size = self.size;
        let pick: Vec<Point> = self.estimated().unsure.iter().collect();
        Response::success(args::format_points(size, &pick))
    }

    fn board_is_empty(&self) -> bool {
        self.game.ply_count() == 0
            && self.game.board().empty_count() == self.size as usize * self.size as usize
    }

    /// The stone count of `fixed_handicap` and `place_free_handicap`, on an empty board.
    fn handicap_count(&self, a: &[String]) -> Result<u32, Response> {
        if args::count(a, 1).is_err() {
            return Err(fail("syntax error"));
        }
        let n = args::int(&a[0]).map_err(syntax)?;
        if !self.board_is_empty() {
            return Err(fail("board not empty"));
        }
        Ok(n)
    }

    fn fixed_handicap(&mut self, a: &[String]) -> Response {
        let n = match self.handicap_count(a) {
            Ok(n) => n,
            Err(r) => return r,
        };
        let Some(stones) = u8::try_from(n)
            .ok()
            .and_then(|n| handicap::fixed(self.size, n))
        else {
            return fail("invalid number of stones");
        };
        match self.fresh(self.size, Handicap::Free(stones.clone())) {
            Ok(g) => {
                self.game = g;
                Response::success(args::format_points(self.size, &stones))
            }
            Err(_) => fail("invalid number of stones"),
        }
    }

    fn place_free_handicap(&mut self, a: &[String]) -> Response {
        let n = match self.handicap_count(a) {
            Ok(n) => n,
            Err(r) => return r,
        };
        let cells = self.size as u32 * self.size as u32;
        if n < 2 || n >= cells {
            return fail("invalid number of stones");
        }
        // The fixed points where they exist (they are good points); otherwise star-like points
        // spread over the board, then any points.
        let stones = match handicap::fixed(self.size, n as u8) {
            Some(s) => s,
            None => {
                let mut pts: Vec<Point> = self.game.board().points().collect();
                let centre = (self.size as i32 - 1) / 2;
                pts.sort_by_key(|p| {
                    let (c, r) = (p.col(self.size) as i32, p.row(self.size) as i32);
                    let edge = c
                        .min(r)
                        .min(self.size as i32 - 1 - c)
                        .min(self.size as i32 - 1 - r);
                    ((edge - 3).abs(), (c - centre).abs() + (r - centre).abs())
                });
                pts.truncate(n as usize);
                pts
            }
        };
        match self.fresh(self.size, Handicap::Free(stones.clone())) {
            Ok(g) => {
                self.game = g;
                Response::success(args::format_points(self.size, &stones))
            }
            Err(_) => fail("invalid number of stones"),
        }
    }

    fn set_free_handicap(&mut self, a: &[String]) -> Response {
        if !self.board_is_empty() {
            return fail("board not empty");
        }
        let mut stones = Vec::new();
        for v in a {
            match args::point(self.size, v) {
                Ok(p) if !stones.contains(&p) => stones.push(p),
                _ => return fail("bad vertex list"),
            }
        }
        if stones.len() < 2 || stones.len() >= self.size as usize * self.size as usize {
            return fail("bad vertex list");
        }
        match self.fresh(self.size, Handicap::Free(stones)) {
            Ok(g) => {
                self.game = g;
                Response::success("")
            }
            Err(_) => fail("bad vertex list"),
        }
    }

    fn loadsgf(&mut self, a: &[String]) -> Response {
        if a.is_empty() || a.len() > 2 {
            return fail("syntax error");
        }
        let limit = match a.get(1).map(|s| args::int(s)) {
            None => None,
            Some(Ok(n)) => Some(n as usize),
            Some(Err(_)) => return fail("syntax error"),
        };
        // Nothing is half-loaded: every check comes before the engine's state changes.
        let cannot = |why: String| fail(&format!("cannot load file: {why}"));
        let bytes = match std::fs::read(&a[0]) {
            Ok(b) => b,
            Err(e) => return cannot(e.to_string()),
        };
        let c = match tengen_sgf::parse(&bytes) {
            Ok(c) => c,
            Err(e) => return cannot(e.to_string()),
        };
        let Some(tree) = c.games.first() else {
            return cannot("no game in the file".into());
        };
        // Replay up to the position before move `limit` (GTP: "up to move_number").
        let mut t = tree.clone();
        if let Some(n) = limit {
            truncate_main_line(&mut t, n.saturating_sub(1));
        }
        let replay = match record::replay(&t, None) {
            Ok(r) => r,
            Err(e) => return cannot(e.to_string()),
        };
        // A move the record's rules forbid but that can be played (a record of other rules)
        // is kept, as GTP controllers expect; what cannot be read or played is refused.
        if let Some(p) = replay.first_fault() {
            return cannot(p.to_string());
        }
        self.size = replay.game.size();
        self.preset = replay.preset;
        self.komi = Some(replay.game.rules().komi);
        self.game = replay.game;
        Response::success("")
    }

    fn printsgf(&mut self, a: &[String]) -> Response {
        let text = tengen_sgf::write_game(&record::record(
            &self.game,
            Some(self.preset),
            &GameInfo::default(),
        ));
        match a.first() {
            None => Response::success(text.trim_end()),
            Some(path) => match std::fs::write(path, text) {
                Ok(()) => Response::success(""),
                Err(_) => fail("cannot write file"),
            },
        }
    }

    fn time_settings_cmd(&mut self, a: &[String]) -> Response {
        if args::count(a, 3).is_err() {
            return fail("syntax error");
        }
        match (args::float(&a[0]), args::float(&a[1]), args::int(&a[2])) {
            (Ok(main), Ok(period), Ok(stones)) if main >= 0.0 && period >= 0.0 => {
                self.time = Some(Clock {
                    main,
                    period,
                    stones,
                    periods: 0,
                    increment: 0.0,
                });
                Response::success("")
            }
            _ => fail("syntax error"),
        }
    }

    fn kgs_time_settings(&mut self, a: &[String]) -> Response {
        let num = |i: usize| {
            a.get(i)
                .and_then(|s| args::float(s).ok())
                .filter(|f| *f >= 0.0)
        };
        let int = |i: usize| a.get(i).and_then(|s| args::int(s).ok());
        let t = match (a.first().map(|s| s.as_str()), a.len()) {
            (Some("none"), 1) => None,
            (Some("absolute"), 2) => num(1).map(|main| Clock {
                main,
                ..Clock::default()
            }),
            (Some("byoyomi"), 4) => match (num(1), num(2), int(3)) {
                (Some(main), Some(period), Some(periods)) => Some(Clock {
                    main,
                    period,
                    stones: 0,
                    periods,
                    increment: 0.0,
                }),
                _ => return fail("syntax error"),
            },
            (Some("canadian"), 4) => match (num(1), num(2), int(3)) {
                (Some(main), Some(period), Some(stones)) => Some(Clock {
                    main,
                    period,
                    stones,
                    periods: 0,
                    increment: 0.0,
                }),
                _ => return fail("syntax error"),
            },
            _ => return fail("syntax error"),
        };
        if a.first().map(String::as_str) != Some("none") && t.is_none() {
            return fail("syntax error");
        }
        self.time = t;
        Response::success("")
    }

    fn time_left_cmd(&mut self, a: &[String]) -> Response {
        if args::count(a, 3).is_err() {
            return fail("syntax error");
        }
        match (args::color(&a[0]), args::float(&a[1]), args::int(&a[2])) {
            (Ok(c), Ok(t), Ok(s)) => {
                self.time_left[c.index()] = Some((t, s));
                Response::success("")
            }
            _ => fail("syntax error"),
        }
    }

    fn switch_rules(&mut self, a: &[String]) -> Response {
        if args::count(a, 1).is_err() {
            return fail("syntax error");
        }
        let Ok(preset) = a[0].parse::<Preset>() else {
            return fail("unknown rules");
        };
        let old = self.preset;
        self.preset = preset;
        self.kata_rules = None;
        // An empty board of a size the new rules forbid takes their own size (`tengen-rules
        // wga` before `boardsize`); a game under way keeps its board or keeps its rules.
        if self.game.is_at_start()
            && self.game.board().empty_count() == self.size as usize * self.size as usize
            && !preset.allows_size(self.size)
        {
            let size = preset.default_size();
            return match self.fresh(size, Handicap::None) {
                Ok(g) => {
                    self.size = size;
                    self.game = g;
                    Response::success("")
                }
                Err(r) => {
                    self.preset = old;
                    r
                }
            };
        }
        // The same position, set-up stones and history, replayed under the new rules.
        match self.game.with_rules(self.rules(self.size)) {
            Ok(g) => {
                self.game = g;
                Response::success("")
            }
            Err(e) => {
                self.preset = old;
                fail(&format!("the game is not possible under these rules: {e}"))
            }
        }
    }
}

/// Cuts the main line of `t` after `moves` moves.
fn truncate_main_line(t: &mut tengen_sgf::GameTree, moves: usize) {
    let mut seen = 0;
    let mut cur = t;
    loop {
        let mut keep = cur.nodes.len();
        for (i, n) in cur.nodes.iter().enumerate() {
            if n.has("B") || n.has("W") {
                if seen == moves {
                    keep = i;
                    break;
                }
                seen += 1;
            }
        }
        if keep < cur.nodes.len() || cur.variations.is_empty() {
            cur.nodes.truncate(keep.max(1));
            cur.variations.clear();
            return;
        }
        cur.variations.truncate(1);
        cur = &mut cur.variations[0];
    }
}

/// The board as GNU Go's `showboard` draws it: coordinates on all sides and the captures.
pub fn showboard(game: &Game) -> String {
    let b = game.board();
    let size = b.size();
    let letters: String = (0..size)
        .map(|c| format!(" {}", coord::column_letter(c)))
        .collect();
    let mut out = format!("  {letters}\n");
    for row in 0..size {
        let n = size - row;
        out.push_str(&format!("{n:2}"));
        for col in 0..size {
            let p = Point::new(size, col, row).expect("on board");
            let ch = match b.get(p) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            out.push(' ');
            out.push(ch);
        }
        out.push_str(&format!(" {n}"));
        if row == 0 {
            out.push_str(&format!(
                "     WHITE (O) has captured {} stones",
                b.captures(Color::White)
            ));
        }
        if row == 1 {
            out.push_str(&format!(
                "     BLACK (X) has captured {} stones",
                b.captures(Color::Black)
            ));
        }
        out.push('\n');
    }
    out.push_str(&format!("  {letters}"));
    out
}
