//! A bot's side of one game: its engine (the built-in one at a level, or a GTP engine), and
//! its manners (resigning a lost game, passing back, counting, take-backs). The server drives
//! its own bots' players from the games' event streams ([`super::drive`]); `tengen bot
//! --server` drives one from a WebSocket, on another machine: the same decisions either way.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tengen_ai::nn::levels::Level;
use tengen_ai::search;
use tengen_core::domain::clock::{Clock, TimeControl};
use tengen_core::game::{Action, Event, LiveGame, Terms};
use tengen_rules::coord::gtp as coord;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, Move, Phase, Preset};

use super::gtp::Controller;
use super::BotError;
use super::{manners, Engine};
use crate::engines::Engines;

/// One bot's side of one game.
pub struct Player {
    /// What the built-in engine and the manners search with.
    engines: Engines,
    color: Color,
    terms: Terms,
    engine: Engine,
    /// The GTP engine's process, for [`Engine::Gtp`].
    gtp: Option<SharedEngine>,
    rng: Rng,
    /// The built-in engine's hopeless searches in a row ([`manners::Streak`]).
    streak: manners::Streak,
    /// The move count at which the bot last declined a request to count (once a request).
    declined: Option<usize>,
}

impl Player {
    /// The player of `color` in a game on `terms`, its GTP engine started and set up for the
    /// game (rules, board, komi, clock); `seed` seeds the built-in engine's choices.
    pub async fn start(
        engines: Engines,
        engine: Engine,
        terms: Terms,
        color: Color,
        seed: u64,
    ) -> Result<Player, BotError> {
        let gtp = match &engine {
            Engine::Gtp(cmd) => Some(start_gtp(cmd, &terms).await?),
            Engine::Builtin(_) | Engine::Search(_) => None,
            Engine::Remote => return Err(BotError::Remote),
        };
        Ok(Player {
            engines,
            color,
            terms,
            engine,
            gtp,
            rng: Rng::new(seed),
            streak: manners::Streak::default(),
            declined: None,
        })
    }

    /// An event of the game's past, replayed on the GTP engine's board.
    pub async fn replayed(&mut self, event: &Event) -> Result<(), BotError> {
        match &self.gtp {
            Some(e) => sync(e, event, None).await,
            None => Ok(()),
        }
    }

    /// An event as the game goes on: the GTP engine hears the opponent's moves (its own are
    /// on its board from `genmove`) and accepted take-backs.
    pub async fn followed(&mut self, event: &Event) -> Result<(), BotError> {
        match &self.gtp {
            Some(e) => sync(e, event, Some(self.color)).await,
            None => Ok(()),
        }
    }

    /// What the bot does now in `live`, if anything: answer a request to count, agree to a
    /// take-back, move on its turn, accept the count. `None` once the game is over.
    pub async fn decide(&mut self, live: &LiveGame) -> Result<Option<Action>, BotError> {
        if live.game.phase() == Phase::Finished {
            return Ok(None);
        }
        let engines = &self.engines;
        if let Some(a) = answer_count_request(engines, live, self.color, &mut self.declined).await?
        {
            return Ok(Some(a));
        }
        next_action(
            engines,
            live,
            self.color,
            &self.terms,
            &self.engine,
            self.gtp.as_ref(),
            (&mut self.rng, &mut self.streak),
        )
        .await
    }

    /// The referee refused the move this player proposed: it comes off the GTP engine's board.
    pub async fn move_refused(&mut self) {
        if let Some(g) = &self.gtp {
            let _ = gtp_call(g, "undo".into()).await;
        }
    }

    /// The player passed in place of a refused move: the GTP engine hears it.
    pub async fn passed_instead(&mut self) -> Result<(), BotError> {
        match &self.gtp {
            Some(g) => gtp_call(g, format!("play {} pass", self.color.letter()))
                .await
                .map(drop),
            None => Ok(()),
        }
    }

    /// The game is over: the GTP engine quits.
    pub async fn quit(&self) {
        if let Some(e) = &self.gtp {
            let _ = gtp_call(e, "quit".into()).await;
        }
    }
}

/// How long a GTP engine may take for one command.
const GTP_TIMEOUT: Duration = Duration::from_secs(60);

/// Time held back from what a GTP engine is told it has, for the bridge itself (process
/// I/O, the actor, the database): an engine that uses all it is told never flags for the bridge.
const BRIDGE_MARGIN_MS: u64 = 1_000;

/// Tells a GTP engine the game's time control: `kgs-time_settings` where the engine knows it
/// (it has Japanese byo-yomi), otherwise standard `time_settings` (Canadian; Japanese periods
/// become one stone per period, which is as strict).
async fn tell_time_settings(engine: &SharedEngine, time: &TimeControl) {
    let secs = |ms: u64| ms / 1000;
    let kgs = matches!(
        gtp_call(engine, "known_command kgs-time_settings".into())
            .await
            .as_deref(),
        Ok("true")
    );
    let cmd = match (*time, kgs) {
        // A bot plays correspondence games at its level's own pace, not days a move.
        (TimeControl::None | TimeControl::Correspondence { .. }, _) => return,
        _ if time.is_correspondence() => return,
        (TimeControl::Absolute { main_ms }, true)
        | (TimeControl::Fischer { main_ms, .. }, true) => {
            format!("kgs-time_settings absolute {}", secs(main_ms))
        }
        (
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            },
            true,
        ) => {
            format!(
                "kgs-time_settings byoyomi {} {} {}",
                secs(main_ms),
                secs(period_ms),
                periods
            )
        }
        (TimeControl::Absolute { main_ms }, false)
        | (TimeControl::Fischer { main_ms, .. }, false) => {
            format!("time_settings {} 0 0", secs(main_ms))
        }
        (
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            },
            false,
        ) => {
            let byo = if periods > 0 { secs(period_ms) } else { 0 };
            format!("time_settings {} {} {}", secs(main_ms), byo, periods.min(1))
        }
        (
            TimeControl::Canadian {
                main_ms,
                stones,
                period_ms,
            },
            _,
        ) => {
            format!(
                "time_settings {} {} {}",
                secs(main_ms),
                secs(period_ms),
                stones
            )
        }
    };
    let _ = gtp_call(engine, cmd).await;
}

/// `time_left COLOR SECONDS STONES` for the bot's clock, less the bridge's margin. In main time
/// the stones are 0; in a Canadian period, the stones still to play; in Japanese byo-yomi, the
/// periods left (as KGS does).
fn time_left_command(time: &TimeControl, c: &Clock, color: Color) -> Option<String> {
    let less = |ms: u64| ms.saturating_sub(BRIDGE_MARGIN_MS) / 1000;
    let (ms, stones) = match *time {
        TimeControl::None | TimeControl::Correspondence { .. } => return None,
        _ if time.is_correspondence() => return None,
        TimeControl::Absolute { .. } | TimeControl::Fischer { .. } => (c.main_ms, 0),
        TimeControl::Byoyomi { .. } if c.main_ms > 0 => (c.main_ms, 0),
        TimeControl::Byoyomi { .. } => (c.period_ms, c.periods),
        TimeControl::Canadian { .. } if c.main_ms > 0 => (c.main_ms, 0),
        TimeControl::Canadian { .. } => (c.period_ms, c.stones),
    };
    Some(format!(
        "time_left {} {} {}",
        color.letter(),
        less(ms),
        stones
    ))
}

/// The time the built-in bot may spend on a move under the game's clock, if it has one: the
/// engine's own time budget ([`tengen_ai::time::budget`]) from what is left on the clock.
fn builtin_time(time: &TimeControl, c: &Clock, game: &tengen_rules::Game) -> Option<Duration> {
    let secs = |ms: u64| ms as f64 / 1000.0;
    let (clock, left) = match *time {
        TimeControl::None | TimeControl::Correspondence { .. } => return None,
        _ if time.is_correspondence() => return None,
        TimeControl::Absolute { main_ms } => (
            tengen_ai::time::Clock {
                main: secs(main_ms),
                ..Default::default()
            },
            tengen_ai::time::Left {
                seconds: secs(c.main_ms),
                stones: 0,
            },
        ),
        TimeControl::Fischer {
            main_ms,
            increment_ms,
            ..
        } => (
            tengen_ai::time::Clock {
                main: secs(main_ms),
                increment: secs(increment_ms),
                ..Default::default()
            },
            tengen_ai::time::Left {
                seconds: secs(c.main_ms),
                stones: 0,
            },
        ),
        TimeControl::Byoyomi {
            main_ms,
            periods,
            period_ms,
        } => (
            tengen_ai::time::Clock {
                main: secs(main_ms),
                period: secs(period_ms),
                stones: 0,
                periods,
                increment: 0.0,
            },
            tengen_ai::time::Left {
                seconds: secs(if c.main_ms > 0 { c.main_ms } else { 0 }),
                stones: 0,
            },
        ),
        TimeControl::Canadian {
            main_ms,
            stones,
            period_ms,
        } => (
            tengen_ai::time::Clock {
                main: secs(main_ms),
                period: secs(period_ms),
                stones,
                periods: 0,
                increment: 0.0,
            },
            if c.main_ms > 0 {
                tengen_ai::time::Left {
                    seconds: secs(c.main_ms),
                    stones: 0,
                }
            } else {
                tengen_ai::time::Left {
                    seconds: secs(c.period_ms),
                    stones: c.stones,
                }
            },
        ),
    };
    Some(tengen_ai::time::budget(
        &clock,
        Some(left),
        game.board().empty_count(),
    ))
}

type SharedEngine = Arc<Mutex<Controller>>;

/// Runs a GTP command on the blocking pool.
async fn gtp_call(engine: &SharedEngine, line: String) -> Result<String, BotError> {
    let engine = engine.clone();
    tokio::task::spawn_blocking(move || {
        let mut c = engine
            .lock()
            .map_err(|_| BotError::Task("engine lock poisoned".into()))?;
        match c.send(&line, GTP_TIMEOUT)? {
            tengen_gtp::Response::Success(s) => Ok(s),
            tengen_gtp::Response::Failure(message) => Err(BotError::Refused {
                command: line,
                message,
            }),
        }
    })
    .await?
}

/// Tells a GTP engine the game's rules before the board is set up, in the first dialect it
/// knows: Tengen's `tengen-rules PRESET`, or KGS's `kgs-rules` for the four rule sets it names.
/// An engine started for other rules (`tengen gtp --rules wga` on a 9x9 board) is then on the
/// right rules before `boardsize`; one that knows neither plays as it was started.
async fn tell_rules(engine: &SharedEngine, rules: Preset) -> Result<(), BotError> {
    let knows = |name: &str| {
        let line = format!("known_command {name}");
        async move {
            gtp_call(engine, line)
                .await
                .is_ok_and(|s| s.trim() == "true")
        }
    };
    if knows("tengen-rules").await {
        gtp_call(engine, format!("tengen-rules {rules}")).await?;
    } else if knows("kgs-rules").await {
        let kgs = match rules {
            Preset::Japanese | Preset::Korean | Preset::Igz | Preset::Arena => "japanese",
            Preset::Aga => "aga",
            Preset::Nz | Preset::TrompTaylor => "new_zealand",
            Preset::Wga | Preset::Chinese | Preset::FirstCapture => "chinese",
        };
        // A refusal leaves the engine on its own rules; the referee is the server anyway.
        let _ = gtp_call(engine, format!("kgs-rules {kgs}")).await;
    }
    Ok(())
}

/// Starts the GTP engine `cmd` on the blocking pool and sets it up for the game: rules, board
/// size, an empty board, komi and the clock.
async fn start_gtp(cmd: &str, terms: &Terms) -> Result<SharedEngine, BotError> {
    let cmd = cmd.to_string();
    let c = tokio::task::spawn_blocking(move || Controller::spawn(&cmd)).await??;
    let shared: SharedEngine = Arc::new(Mutex::new(c));
    tell_rules(&shared, terms.rules).await?;
    gtp_call(&shared, format!("boardsize {}", terms.size)).await?;
    gtp_call(&shared, "clear_board".into()).await?;
    gtp_call(&shared, format!("komi {}", terms.komi)).await?;
    tell_time_settings(&shared, &terms.time).await;
    Ok(shared)
}

/// What the bot does now, if anything: agree to a take-back, play its move when it is its
/// turn (from the built-in engine, or `gtp` when it has one), or accept the count.
pub(super) async fn next_action(
    engines: &Engines,
    live: &LiveGame,
    color: Color,
    terms: &Terms,
    engine: &Engine,
    gtp: Option<&SharedEngine>,
    state: (&mut Rng, &mut manners::Streak),
) -> Result<Option<Action>, BotError> {
    Ok(match live.game.phase() {
        // A good opponent lets a player take a slip back (the room allows it, or the
        // request could not have been made).
        Phase::Play if live.takeback == Some(color.opponent()) => {
            Some(Action::AnswerTakeback(true))
        }
        Phase::Play if live.game.to_move() == color => {
            Some(match manners_move(engines, live, color).await? {
                Some(a) => {
                    // A GTP engine's board follows the bot's own moves from `genmove`: a pass
                    // decided here is told to it.
                    if let (Action::Pass, Some(e)) = (&a, gtp) {
                        gtp_call(e, format!("play {} pass", color.letter())).await?;
                    }
                    a
                }
                None => engine_move(engines, live, color, engine, gtp, terms, state).await?,
            })
        }
        Phase::Scoring if !live.accepted[color.index()] => Some(Action::AcceptScore),
        _ => None,
    })
}

/// The partner asked to count during play: agreed to when the game is settled (the estimator
/// doubts nothing and no move can change the winner), else declined once, with a chat line.
pub(super) async fn answer_count_request(
    engines: &Engines,
    live: &LiveGame,
    color: Color,
    declined: &mut Option<usize>,
) -> Result<Option<Action>, BotError> {
    let asked =
        live.scoring_requests[color.opponent().index()] && !live.scoring_requests[color.index()];
    let ply = live.game.moves().count();
    if live.game.phase() != Phase::Play || !asked || *declined == Some(ply) {
        return Ok(None);
    }
    let (game, engine) = (live.game.clone(), engines.engine.clone());
    let judged = engines
        .pool
        .run(move || engine.judge(&game, color))
        .await
        .map_err(BotError::Pool)?;
    if judged.settled() {
        return Ok(Some(Action::RequestScoring));
    }
    *declined = Some(ply);
    Ok(Some(Action::Chat(manners::NOT_SETTLED.into())))
}

/// What manners decide before the engine is asked, at every level and for every engine
/// ([`manners::before_search`], on the engine pool): resign a game clearly lost, pass back
/// after the partner's pass when no move can change the winner. `None`: the engine plays.
async fn manners_move(
    engines: &Engines,
    live: &LiveGame,
    color: Color,
) -> Result<Option<Action>, BotError> {
    let game = &live.game;
    let passed = manners::opponent_passed(game, color);
    if !manners::counted(game) || !(passed || manners::past_opening(game)) {
        return Ok(None);
    }
    let (game, engine) = (game.clone(), engines.engine.clone());
    let decided = engines
        .pool
        .run(move || engine.before_search(&game, color))
        .await
        .map_err(BotError::Pool)?;
    Ok(decided.map(|d| match d {
        search::Decision::Resign => Action::Resign,
        search::Decision::Move(Move::Play(p)) => Action::Move(p),
        search::Decision::Move(Move::Pass) => Action::Pass,
    }))
}

/// The engine's move: the built-in engine at its level, or the GTP engine's `genmove`, with
/// the time it took and the engines busy counted for the metrics.
async fn engine_move(
    engines: &Engines,
    live: &LiveGame,
    color: Color,
    engine: &Engine,
    gtp: Option<&SharedEngine>,
    terms: &Terms,
    state: (&mut Rng, &mut manners::Streak),
) -> Result<Action, BotError> {
    let started = std::time::Instant::now();
    crate::metrics::ENGINES_BUSY.inc();
    let a = match gtp {
        None => match *engine {
            Engine::Builtin(level) => {
                let play = Builtin::level(engines, level).ok_or(BotError::NoEngine)?;
                builtin_move(engines, live, color, play, terms, state).await
            }
            Engine::Search(visits) => {
                let play = Builtin::search(engines, visits);
                builtin_move(engines, live, color, play, terms, state).await
            }
            _ => Err(BotError::NoEngine),
        },
        Some(e) => gtp_move(e, live, color, terms).await,
    };
    crate::metrics::ENGINES_BUSY.dec();
    let thinking = match gtp {
        None => &crate::metrics::BUILTIN_THINKING,
        Some(_) => &crate::metrics::GTP_THINKING,
    };
    thinking.observe_duration(started.elapsed());
    a
}

/// How the built-in engine plays a bot's moves: on which net, how on it, and how where the
/// net does not play.
struct Builtin {
    /// The net's engine: the built-in net for the levels, the server's for a search.
    engine: tengen_ai::Engine,
    /// Visits and how the move is chosen from them.
    level: Level,
    /// The Monte Carlo engine's playouts where the net does not play.
    playouts: u32,
}

impl Builtin {
    /// Level `n` ([`tengen_ai::nn::levels`]) on the built-in net, whose ranks were measured on
    /// it.
    fn level(engines: &Engines, n: u8) -> Option<Builtin> {
        Some(Builtin {
            engine: engines.ladder.clone(),
            level: tengen_ai::nn::levels::level(n)?,
            playouts: search::level_playouts(n),
        })
    }

    /// A search of `visits` on the server's net, the search's own move played.
    fn search(engines: &Engines, visits: u32) -> Builtin {
        Builtin {
            engine: engines.engine.clone(),
            level: Level {
                visits,
                temperature: 0.0,
                floor: tengen_ai::nn::levels::ABSURD_SHARE,
                human: None,
                wider: &[],
            },
            playouts: search::level_playouts(10),
        }
    }
}

/// The built-in engine's move for `color`, on the engine pool within the time its clock
/// allows: the network's level ([`tengen_ai::nn::levels`]) or search where the net plays the
/// rules and the board, else the Monte Carlo engine at `play`'s playouts (First Capture, boards
/// the net does not know). A request to count is agreed to once nothing is left to play.
async fn builtin_move(
    engines: &Engines,
    live: &LiveGame,
    color: Color,
    play: Builtin,
    terms: &Terms,
    (rng, streak): (&mut Rng, &mut manners::Streak),
) -> Result<Action, BotError> {
    let game = live.game.clone();
    let ply = game.ply_count();
    let time = builtin_time(&terms.time, &live.clocks[color.index()], &game);
    let seed = rng.next_u64();
    let asked_to_count = live.scoring_requests[color.opponent().index()];
    let (decision, settled, instead) = engines
        .pool
        .run(move || {
            let (d, a) = match net_of(&play.engine, &game) {
                Some((eval, rules)) => tengen_ai::nn::levels::genmove(
                    eval, &game, color, rules, play.level, seed, time,
                )
                .map_err(|e| BotError::Net(e.to_string()))?,
                None => {
                    let budget = search::Budget {
                        playouts: Some(play.playouts),
                        time,
                        // One thread a bot game: the server's other games keep their cores.
                        threads: 1,
                        seed,
                    };
                    search::genmove(&game, color, &budget, &search::Style::default())
                }
            };
            // The move played: the level's sampled move is first.
            let instead = a.moves.first().map_or(Move::Pass, |m| m.mv);
            Ok::<_, BotError>((d, search::is_settled(&game, color, &a), instead))
        })
        .await
        .map_err(BotError::Pool)??;
    // The manners before the search ran in `manners_move`; the search's resignation stands on
    // the streak, as in every engine.
    let decision = streak.confirm(ply, color, decision, instead);
    Ok(match decision {
        // The partner asked to count and nothing is left to play: agree.
        _ if asked_to_count && settled => Action::RequestScoring,
        search::Decision::Resign => Action::Resign,
        search::Decision::Move(Move::Play(p)) => Action::Move(p),
        search::Decision::Move(Move::Pass) => Action::Pass,
    })
}

/// The net and the rules it is told, where `engine`'s net plays `game`
/// ([`tengen_ai::Engine::plays`]; one net for every game, its cache shared: positions repeat
/// across games' openings).
fn net_of<'e>(
    engine: &'e tengen_ai::Engine,
    game: &tengen_rules::Game,
) -> Option<(&'e tengen_ai::nn::Evaluator, tengen_ai::nn::KataRules)> {
    if engine.net().is_none() {
        tracing::error!("the server has no net; bots play Monte Carlo");
    }
    let (eval, rules) = engine.plays(game)?;
    Some((eval, rules))
}

/// A GTP engine's move for `color`: it is told the time left on the bot's clock, then asked
/// for `genmove`.
async fn gtp_move(
    engine: &SharedEngine,
    live: &LiveGame,
    color: Color,
    terms: &Terms,
) -> Result<Action, BotError> {
    let clock = live.clocks[color.index()];
    if let Some(cmd) = time_left_command(&terms.time, &clock, color) {
        // An engine that refuses time_left still plays.
        let _ = gtp_call(engine, cmd).await;
    }
    let answer = gtp_call(engine, format!("genmove {}", color.letter())).await?;
    Ok(match answer.trim().to_ascii_lowercase().as_str() {
        "resign" => Action::Resign,
        v => match coord::parse_move(terms.size, v).map_err(|_| BotError::BadMove(v.into()))? {
            Move::Play(p) => Action::Move(p),
            Move::Pass => Action::Pass,
        },
    })
}

/// Tells a GTP engine what happened. `own` is the bot's colour in a live game (its own moves came
/// from `genmove` and are on the engine's board already); `None` while replaying the log.
async fn sync(engine: &SharedEngine, event: &Event, own: Option<Color>) -> Result<(), BotError> {
    match event {
        Event::Move { color, point } => {
            let c = Color::from(*color);
            if own != Some(c) {
                gtp_call(engine, format!("play {} {point}", c.letter())).await?;
            }
        }
        Event::Pass { color } => {
            let c = Color::from(*color);
            if own != Some(c) {
                gtp_call(engine, format!("play {} pass", c.letter())).await?;
            }
        }
        Event::TakebackAnswered {
            accepted: true,
            plies,
            ..
        } => {
            for _ in 0..*plies {
                gtp_call(engine, "undo".into()).await?;
            }
        }
        _ => {}
    }
    Ok(())
}
