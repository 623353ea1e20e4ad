//! Bots: accounts played by the built-in engine or by any GTP engine (`tengen serve --bot
//! name=COMMAND`). Starting a game against a bot is one request. A driver task per game follows
//! the events, and computes moves on the engine pool ([`crate::engines`]: low priority, bounded)
//! so that the server's other games never wait for an engine.

pub mod gtp;
pub mod manners;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::Deserialize;
use serde_json::{json, Value};
use tengen_ai::search;
use tengen_rules::coord::gtp as coord;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, Komi, Move, Phase, Preset};
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::Services;
use gtp::Controller;
use tengen_core::domain::clock::{Clock, TimeControl};
use tengen_core::domain::game_type::{default_komi, GameType};
use tengen_core::game::{Action, Event, LiveGame, Terms};
use tengen_live::actor::GameHandle;
use tengen_store::games::{GameRow, GameStatus};

/// What plays for a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Tengen's own engine at a strength level, 1 to 10: the network's levels
    /// ([`tengen_ai::nn::levels`]: 1-4 sample the policy at a temperature, 5 plays the policy's
    /// best move, 6-10 search 8 to 1,600 visits) where the net plays the rules and the board;
    /// elsewhere (First Capture, boards outside 7x7-19x19) the Monte Carlo engine at 100
    /// playouts (level 1) to 51,200 (level 10).
    Builtin(u8),
    /// A GTP engine started with this command line.
    Gtp(String),
}

/// A bot as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// Account name.
    pub name: String,
    /// Declared rank.
    pub rank: String,
    /// Its engine.
    pub engine: Engine,
}

/// Reads `NAME=COMMAND` or `NAME@RANK=COMMAND` (as `--bot` takes it); the command
/// `builtin:LEVEL` is Tengen's own engine at that level (1 to 10).
pub fn parse_spec(s: &str) -> Result<BotSpec, String> {
    let (head, command) = s
        .split_once('=')
        .ok_or("use NAME=COMMAND or NAME@RANK=COMMAND")?;
    let (name, rank) = match head.split_once('@') {
        Some((n, r)) => (n, r),
        None => (head, "10k"),
    };
    rank.parse::<tengen_core::domain::rank::Rank>()
        .map_err(|e| e.to_string())?;
    if command.trim().is_empty() || name.is_empty() {
        return Err("use NAME=COMMAND or NAME@RANK=COMMAND".into());
    }
    let engine = match command.trim().strip_prefix("builtin:") {
        Some(level) => match level.trim().parse::<u8>() {
            Ok(l) if (1..=10).contains(&l) => Engine::Builtin(l),
            _ => return Err("builtin:LEVEL takes a level from 1 to 10".into()),
        },
        None => Engine::Gtp(command.trim().to_string()),
    };
    Ok(BotSpec {
        name: name.to_string(),
        rank: rank.to_string(),
        engine,
    })
}

/// The built-in bots, always available: the engine at levels 1, 3, 5, 7 and 9, each declared
/// at the rank that its results against GNU Go give (`BENCHMARKS.md`, "The built-in bots'
/// ranks": the win rates measured, and the one convention, GNU Go 3.8 at level 10 taken as 8
/// kyu), or, where a level won every game, no higher than the lower end of its interval; level
/// 9 is not measured on the network and keeps the rank its weaker Monte Carlo engine measured. The declared rank sets the game type and handicap (seed 002) and seeds the bot's
/// rating, which its games then move.
pub fn builtins() -> Vec<BotSpec> {
    BUILTIN_RANKS
        .iter()
        .map(|&(name, level, rank)| BotSpec {
            name: name.into(),
            rank: rank.into(),
            engine: Engine::Builtin(level),
        })
        .collect()
}

/// Name, level and declared rank of each built-in bot.
const BUILTIN_RANKS: [(&str, u8, &str); 5] = [
    ("tengen-bot", 1, "7k"),
    ("tengen-3", 3, "6k"),
    ("tengen-5", 5, "6k"),
    ("tengen-7", 7, "6k"),
    ("tengen-9", 9, "5k"),
];

pub use tengen_ai::search::level_playouts;

/// The bots this server offers, with their accounts.
#[derive(Clone, Default)]
pub struct Bots {
    list: Arc<Vec<(BotSpec, User)>>,
}

impl Bots {
    /// Creates (or finds) each bot's account.
    pub async fn register(
        store: &tengen_store::Store,
        specs: Vec<BotSpec>,
    ) -> Result<Bots, ApiError> {
        let mut list = Vec::new();
        for spec in specs {
            let kind = match &spec.engine {
                Engine::Builtin(level) => format!("builtin:{level}"),
                Engine::Gtp(cmd) => format!("gtp:{cmd}"),
            };
            let user = accounts::ensure_bot(store, &spec.name, &spec.rank, &kind).await?;
            list.push((spec, user));
        }
        Ok(Bots {
            list: Arc::new(list),
        })
    }

    /// The bot called `name`.
    pub fn find(&self, name: &str) -> Option<&(BotSpec, User)> {
        self.list.iter().find(|(s, _)| s.name == name)
    }

    /// Every bot with its account.
    pub fn all(&self) -> impl Iterator<Item = &(BotSpec, User)> {
        self.list.iter()
    }

    /// The bot whose account is `user_id`.
    pub fn by_user(&self, user_id: i64) -> Option<&(BotSpec, User)> {
        self.list.iter().find(|(_, u)| u.id == user_id)
    }

    /// How many bots there are.
    pub fn count(&self) -> usize {
        self.list.len()
    }

    /// All bots, for `GET /api/bots`.
    pub fn describe(&self) -> Value {
        let bots: Vec<Value> = self
            .list
            .iter()
            .map(|(s, u)| json!({ "name": s.name, "rank": u.rank, "engine": match s.engine { Engine::Builtin(_) => "builtin", Engine::Gtp(_) => "gtp" } }))
            .collect();
        json!({ "bots": bots })
    }
}

/// What a player asks for when starting a bot game.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct BotGame {
    /// Board size (default 9).
    #[serde(default)]
    pub size: Option<u8>,
    /// Rule preset (default chinese).
    #[serde(default)]
    pub rules: Option<String>,
    /// Komi (default: the even-game komi for the size).
    #[serde(default)]
    pub komi: Option<String>,
    /// The player's colour, `black` or `white` (default: chosen at random).
    #[serde(default)]
    pub color: Option<String>,
    /// The clock (default: untimed).
    #[serde(default)]
    pub time: Option<tengen_core::domain::clock::TimeControl>,
    /// Handicap stones for the player, who then takes Black (2 to 9 on the fixed points; 13,
    /// 21 and 25 on 19x19 as seed 002 allows). Komi defaults to 0.5.
    #[serde(default)]
    pub handicap: Option<u8>,
    /// Whether the player may take moves back (the bot always agrees). Default: yes, unless
    /// the game is rated.
    #[serde(default)]
    pub take_back: Option<bool>,
    /// A rated game (both ratings move, as any game's): take-backs are then off, and asking
    /// for both is refused (`rated_takeback`). Default: no.
    #[serde(default)]
    pub rated: Option<bool>,
}

/// Starts a game between `user` and the bot `name`; returns the game id and its snapshot.
pub async fn start_game(
    state: &Services,
    user: &User,
    name: &str,
    req: BotGame,
) -> Result<Value, ApiError> {
    let (spec, bot) = state.bots.find(name).cloned().ok_or(ApiError::NotFound)?;
    crate::sanctions::check_may_play(&state.store, user.id).await?;
    let size = req.size.unwrap_or(9);
    let rules = req.rules.unwrap_or_else(|| "chinese".into());
    let handicap = req.handicap.filter(|&h| h >= 2);
    let take_back = match (req.rated.unwrap_or(false), req.take_back) {
        (true, Some(true)) => {
            return Err(ApiError::Rejected(
                "rated_takeback",
                "a rated game has no take-backs".into(),
            ))
        }
        (true, _) => false,
        (false, t) => t.unwrap_or(true),
    };
    let terms = crate::rooms::validate(crate::rooms::RoomTerms {
        size,
        rules,
        komi: req.komi.clone(),
        take_back,
        estimate: true,
        handicap,
        parity: None,
        time: Some(
            req.time
                .unwrap_or(tengen_core::domain::clock::TimeControl::None),
        ),
    })?;
    let preset: Preset = terms
        .rules
        .parse()
        .map_err(|_| ApiError::Internal("rules".into()))?;
    let user_color = match (req.color.as_deref(), handicap) {
        // The player who receives a handicap plays Black.
        (Some(c), Some(_)) if Color::parse(c) != Some(Color::Black) => {
            return Err(ApiError::Rejected(
                "bad_color",
                "the player who receives a handicap plays black".into(),
            ))
        }
        (_, Some(_)) => Color::Black,
        (Some(c), None) => Color::parse(c)
            .ok_or_else(|| ApiError::Rejected("bad_color", "choose black or white".into()))?,
        (None, None) if OsRng.next_u32() % 2 == 0 => Color::Black,
        (None, None) => Color::White,
    };
    let game_type = if handicap.is_some() {
        GameType::Handicap
    } else {
        GameType::HoSun
    };
    let terms = Terms {
        size,
        rules: preset,
        komi: match &req.komi {
            // Checked by `validate` above.
            Some(k) => k
                .parse::<Komi>()
                .map_err(|e| ApiError::Rejected("bad_komi", e.to_string()))?,
            None => default_komi(game_type, preset, size),
        },
        handicap: handicap.unwrap_or(0),
        take_back,
        // A casual game with a bot: the player may look at the estimate.
        estimate: true,
        game_type,
        time: terms
            .time
            .unwrap_or(tengen_core::domain::clock::TimeControl::None),
        unrated: false,
    };
    let (black, white) = match user_color {
        Color::Black => (user, &bot),
        Color::White => (&bot, user),
    };
    let started =
        crate::games::start(&state.store, &state.games, 0, black, white, terms.clone()).await?;
    let (game_id, handle) = (started.game_id, started.handle);
    // In a cluster another node may have taken the new game first: its driver runs there.
    if handle.is_local() {
        spawn_driver(
            handle.clone(),
            bot.clone(),
            user_color.opponent(),
            terms,
            spec.engine,
        );
    }
    let snapshot = crate::games::snapshot(&handle).await?;
    Ok(json!({ "game_id": game_id, "game": snapshot }))
}

/// Starts the drivers of bots in live games (after a restart). On one server only: in a
/// cluster the owner of a game drives its bots ([`drive_taken`]).
pub async fn resume_all(state: &Services) -> Result<(), ApiError> {
    for row in state
        .store
        .games_by_status(GameStatus::Live, 1_000_000)
        .await?
    {
        if let Some(handle) = state.games.get(row.id).await? {
            resume(state, &row, handle)?;
        }
    }
    Ok(())
}

/// In a cluster: starts the drivers of the bots in every game this node takes over, at
/// start-up or from a node that died. A driver runs where its game runs, so a game is driven
/// once, and again on its new owner when the old one dies (its driver dies with it, or stops
/// when its game moves away).
pub fn drive_taken(state: Services, mut taken: tokio::sync::mpsc::UnboundedReceiver<GameHandle>) {
    tokio::spawn(async move {
        while let Some(handle) = taken.recv().await {
            let row = match state.store.game(handle.id).await {
                Ok(Some(row)) => row,
                Ok(None) => continue,
                Err(e) => {
                    tracing::warn!(game = handle.id, error = %e, "bot drivers not resumed");
                    continue;
                }
            };
            if let Err(e) = resume(&state, &row, handle) {
                tracing::warn!(game = row.id, error = %e, "bot drivers not resumed");
            }
        }
    });
}

/// Starts a driver for each bot playing in `row`'s game.
fn resume(state: &Services, row: &GameRow, handle: GameHandle) -> Result<(), ApiError> {
    for (color, id) in [(Color::Black, row.black_id), (Color::White, row.white_id)] {
        if let Some((spec, bot)) = state.bots.by_user(id).cloned() {
            let terms: Terms =
                serde_json::from_str(&row.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
            spawn_driver(handle.clone(), bot, color, terms, spec.engine);
        }
    }
    Ok(())
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
        TimeControl::Absolute { main_ms } | TimeControl::Fischer { main_ms, .. } => (
            tengen_ai::time::Clock {
                main: secs(main_ms),
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

fn spawn_driver(handle: GameHandle, bot: User, color: Color, terms: Terms, engine: Engine) {
    tokio::spawn(async move {
        crate::metrics::BOT_GAMES.inc();
        let driven = drive(&handle, &bot, color, terms, engine).await;
        crate::metrics::BOT_GAMES.dec();
        if let Err(e) = driven {
            tracing::warn!(game = handle.id, bot = %bot.username, error = %e, "bot stopped");
            // A bot that cannot go on gives the game up rather than leaving it hanging.
            let _ = handle.act(bot.id, &bot.username, Action::Resign, 0).await;
        }
        handle.gone(bot.id).await;
    });
}

type SharedEngine = Arc<Mutex<Controller>>;

/// Runs a GTP command on the blocking pool.
async fn gtp_call(engine: &SharedEngine, line: String) -> Result<String, String> {
    let engine = engine.clone();
    tokio::task::spawn_blocking(move || {
        let mut c = engine
            .lock()
            .map_err(|_| "engine lock poisoned".to_string())?;
        match c.send(&line, GTP_TIMEOUT) {
            Ok(tengen_gtp::Response::Success(s)) => Ok(s),
            Ok(tengen_gtp::Response::Failure(m)) => Err(format!("{line:?}: {m}")),
            Err(e) => Err(e.to_string()),
        }
    })
    .await
    .map_err(|e| e.to_string())?
}

/// Tells a GTP engine the game's rules before the board is set up, in the first dialect it
/// knows: Tengen's `tengen-rules PRESET`, or KGS's `kgs-rules` for the four rule sets it names.
/// An engine started for other rules (`tengen gtp --rules wga` on a 9x9 board) is then on the
/// right rules before `boardsize`; one that knows neither plays as it was started.
async fn tell_rules(engine: &SharedEngine, rules: Preset) -> Result<(), String> {
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

/// Plays `bot`'s side (`color`) of the game behind `handle` until the game ends or closes:
/// catches up on the events it missed, then answers each new event with its own action.
async fn drive(
    handle: &GameHandle,
    bot: &User,
    color: Color,
    terms: Terms,
    engine: Engine,
) -> Result<(), String> {
    let watch = handle
        .watch(Some(bot.id), Some(0))
        .await
        .ok_or("game unavailable")?;
    let mut live = LiveGame::new(terms.clone())?;
    let gtp = match &engine {
        Engine::Builtin(_) => None,
        Engine::Gtp(cmd) => Some(start_gtp(cmd, &terms).await?),
    };
    for r in &watch.missed {
        live.apply(&r.event);
        if let Some(e) = &gtp {
            sync(e, &live, &r.event, None).await?;
        }
    }
    let mut rx = watch.live;
    let mut rng = Rng::new(0xB07 ^ handle.id as u64);
    // The move count at which the bot last declined a request to count (once a request).
    let mut declined = None;
    loop {
        if live.game.phase() == Phase::Finished {
            if let Some(e) = &gtp {
                let _ = gtp_call(e, "quit".into()).await;
            }
            return Ok(());
        }
        let action = match answer_count_request(&live, color, &mut declined).await? {
            Some(a) => Some(a),
            None => next_action(&live, color, &terms, &engine, gtp.as_ref(), &mut rng).await?,
        };
        if let Some(a) = action {
            act_or_pass(handle, bot, color, gtp.as_ref(), a).await?;
        }
        match rx.recv().await {
            Ok(r) => {
                let before = live.game.moves().count();
                live.apply(&r.event);
                if let Some(e) = &gtp {
                    sync(e, &live, &r.event, Some((color, before))).await?;
                }
            }
            Err(RecvError::Lagged(_)) => return Err("fell behind the game".into()),
            Err(RecvError::Closed) => return Ok(()),
        }
    }
}

/// Starts the GTP engine `cmd` on the blocking pool and sets it up for the game: rules, board
/// size, an empty board, komi and the clock.
async fn start_gtp(cmd: &str, terms: &Terms) -> Result<SharedEngine, String> {
    let cmd = cmd.to_string();
    let c = tokio::task::spawn_blocking(move || Controller::spawn(&cmd))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
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
async fn next_action(
    live: &LiveGame,
    color: Color,
    terms: &Terms,
    engine: &Engine,
    gtp: Option<&SharedEngine>,
    rng: &mut Rng,
) -> Result<Option<Action>, String> {
    Ok(match live.game.phase() {
        // A good opponent lets a player take a slip back (the room allows it, or the
        // request could not have been made).
        Phase::Play if live.takeback == Some(color.opponent()) => {
            Some(Action::AnswerTakeback(true))
        }
        Phase::Play if live.game.to_move() == color => {
            Some(match manners_move(live, color).await? {
                Some(a) => {
                    // A GTP engine's board follows the bot's own moves from `genmove`: a pass
                    // decided here is told to it.
                    if let (Action::Pass, Some(e)) = (&a, gtp) {
                        gtp_call(e, format!("play {} pass", color.letter())).await?;
                    }
                    a
                }
                None => engine_move(live, color, engine, gtp, terms, rng).await?,
            })
        }
        Phase::Scoring if !live.accepted[color.index()] => Some(Action::AcceptScore),
        _ => None,
    })
}

/// The partner asked to count during play: agreed to when the game is settled (the estimator
/// doubts nothing and no move can change the winner), else declined once, with a chat line.
async fn answer_count_request(
    live: &LiveGame,
    color: Color,
    declined: &mut Option<usize>,
) -> Result<Option<Action>, String> {
    let asked =
        live.scoring_requests[color.opponent().index()] && !live.scoring_requests[color.index()];
    let ply = live.game.moves().count();
    if live.game.phase() != Phase::Play || !asked || *declined == Some(ply) {
        return Ok(None);
    }
    let game = live.game.clone();
    let judged = crate::engines::pool()
        .run(move || manners::judge(&game, color))
        .await
        .map_err(|e| e.to_string())?;
    if judged.settled() {
        return Ok(Some(Action::RequestScoring));
    }
    *declined = Some(ply);
    Ok(Some(Action::Chat(manners::NOT_SETTLED.into())))
}

/// What manners decide before the engine is asked, at every level and for every engine:
/// resign a game clearly lost, pass back after the partner's pass when no move can change the
/// winner. `None`: the engine plays.
async fn manners_move(live: &LiveGame, color: Color) -> Result<Option<Action>, String> {
    let game = &live.game;
    let passed = manners::opponent_passed(game, color);
    if !manners::counted(game) || !(passed || manners::past_opening(game)) {
        return Ok(None);
    }
    let size = game.size();
    let game = game.clone();
    let judged = crate::engines::pool()
        .run(move || manners::judge(&game, color))
        .await
        .map_err(|e| e.to_string())?;
    Ok(if judged.hopeless(size) {
        Some(Action::Resign)
    } else if passed && judged.decided() {
        Some(Action::Pass)
    } else {
        None
    })
}

/// The engine's move: the built-in engine at its level, or the GTP engine's `genmove`, with
/// the time it took and the engines busy counted for the metrics.
async fn engine_move(
    live: &LiveGame,
    color: Color,
    engine: &Engine,
    gtp: Option<&SharedEngine>,
    terms: &Terms,
    rng: &mut Rng,
) -> Result<Action, String> {
    let started = std::time::Instant::now();
    crate::metrics::ENGINES_BUSY.inc();
    let a = match gtp {
        None => match *engine {
            Engine::Builtin(level) => builtin_move(live, color, level, terms, rng).await,
            _ => Err("no engine".into()),
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

/// The built-in engine's move at `level` for `color`, on the engine pool within the time its
/// clock allows: the network's level ([`tengen_ai::nn::levels`]) where the net plays the rules
/// and the board, else the Monte Carlo engine at the level's playouts (First Capture, boards
/// the net does not know). A request to count is agreed to once nothing is left to play.
async fn builtin_move(
    live: &LiveGame,
    color: Color,
    level: u8,
    terms: &Terms,
    rng: &mut Rng,
) -> Result<Action, String> {
    let game = live.game.clone();
    let time = builtin_time(&terms.time, &live.clocks[color.index()], &game);
    let seed = rng.next_u64();
    let asked_to_count = live.scoring_requests[color.opponent().index()];
    let (decision, settled) = crate::engines::pool()
        .run(move || {
            let (d, a) = match net_level(&game, level) {
                Some((eval, rules, l)) => {
                    tengen_ai::nn::levels::genmove(eval, &game, color, rules, l, seed, time)
                        .map_err(|e| e.to_string())?
                }
                None => {
                    let budget = search::Budget {
                        playouts: Some(level_playouts(level)),
                        time,
                        // One thread a bot game: the server's other games keep their cores.
                        threads: 1,
                        seed,
                    };
                    search::genmove(&game, color, &budget, &search::Style::default())
                }
            };
            Ok::<_, String>((d, search::is_settled(&game, color, &a)))
        })
        .await
        .map_err(|e| e.to_string())??;
    Ok(match decision {
        // The partner asked to count and nothing is left to play: agree.
        _ if asked_to_count && settled => Action::RequestScoring,
        search::Decision::Resign => Action::Resign,
        search::Decision::Move(Move::Play(p)) => Action::Move(p),
        search::Decision::Move(Move::Pass) => Action::Pass,
    })
}

/// The built-in net, read once for all bot games (its cache shared: positions repeat across
/// games' openings).
static NET: std::sync::OnceLock<Option<tengen_ai::nn::Evaluator>> = std::sync::OnceLock::new();

/// The net, the rules it is told and the level's settings, where the net plays `game`:
/// boards 7x7 to 19x19, every rule set with a KataGo equivalent (not First Capture).
fn net_level(
    game: &tengen_rules::Game,
    level: u8,
) -> Option<(
    &'static tengen_ai::nn::Evaluator,
    tengen_ai::nn::KataRules,
    tengen_ai::nn::levels::Level,
)> {
    if !(7..=19).contains(&game.size()) {
        return None;
    }
    let rules = tengen_ai::nn::KataRules::nearest(game.rules())?;
    let l = tengen_ai::nn::levels::level(level)?;
    let eval = NET
        .get_or_init(|| match tengen_ai::nn::Model::builtin() {
            Ok(m) => Some(tengen_ai::nn::Evaluator::new(m)),
            Err(e) => {
                tracing::error!(error = %e, "the built-in net did not load; bots play Monte Carlo");
                None
            }
        })
        .as_ref()?;
    Some((eval, rules, l))
}

/// A GTP engine's move for `color`: it is told the time left on the bot's clock, then asked
/// for `genmove`.
async fn gtp_move(
    engine: &SharedEngine,
    live: &LiveGame,
    color: Color,
    terms: &Terms,
) -> Result<Action, String> {
    let clock = live.clocks[color.index()];
    if let Some(cmd) = time_left_command(&terms.time, &clock, color) {
        // An engine that refuses time_left still plays.
        let _ = gtp_call(engine, cmd).await;
    }
    let answer = gtp_call(engine, format!("genmove {}", color.letter())).await?;
    Ok(match answer.trim().to_ascii_lowercase().as_str() {
        "resign" => Action::Resign,
        v => match coord::parse_move(terms.size, v).map_err(|e| e.to_string())? {
            Move::Play(p) => Action::Move(p),
            Move::Pass => Action::Pass,
        },
    })
}

/// Does `a` for the bot. A move the referee refuses is taken back on the GTP engine's board
/// and replaced by a pass; any other refused action is only logged.
async fn act_or_pass(
    handle: &GameHandle,
    bot: &User,
    color: Color,
    gtp: Option<&SharedEngine>,
    a: Action,
) -> Result<(), String> {
    if let Err(e) = handle.act(bot.id, &bot.username, a.clone(), 0).await {
        // An engine move the referee refuses: pass instead, which is always legal.
        tracing::warn!(game = handle.id, error = %e, ?a, "bot action refused");
        if matches!(a, Action::Move(_)) {
            if let Some(g) = gtp {
                let _ = gtp_call(g, "undo".into()).await;
            }
            handle
                .act(bot.id, &bot.username, Action::Pass, 0)
                .await
                .map_err(|e| e.to_string())?;
            if let Some(g) = gtp {
                gtp_call(g, format!("play {} pass", color.letter())).await?;
            }
        }
    }
    Ok(())
}

/// Tells a GTP engine what happened. `own` is the bot's colour in a live game (its own moves came
/// from `genmove` and are on the engine's board already); `None` while replaying the log.
async fn sync(
    engine: &SharedEngine,
    live: &LiveGame,
    event: &Event,
    own: Option<(Color, usize)>,
) -> Result<(), String> {
    match event {
        Event::Move { color, point } => {
            let c = Color::from(*color);
            if own.map(|(me, _)| me) != Some(c) {
                gtp_call(engine, format!("play {} {point}", c.letter())).await?;
            }
        }
        Event::Pass { color } => {
            let c = Color::from(*color);
            if own.map(|(me, _)| me) != Some(c) {
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
    let _ = live;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_core::domain::rank::Rank;

    /// A 9x9 Chinese game set up with `rows` (top row first; `X` black, `O` white), `to_move`
    /// to play.
    fn live_position(rows: [&str; 9], to_move: Color) -> (LiveGame, Terms) {
        let terms = Terms {
            size: 9,
            rules: Preset::Chinese,
            komi: Komi::from_halves(15),
            handicap: 0,
            take_back: false,
            estimate: false,
            game_type: GameType::HoSun,
            time: TimeControl::None,
            unrated: false,
        };
        let mut live = LiveGame::new(terms.clone()).expect("terms");
        let mut stones = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let v = format!("{}{}", "ABCDEFGHJ".as_bytes()[c] as char, 9 - r);
                let p = coord::parse_point(9, &v).expect("a point");
                match ch {
                    'X' => stones.push((p, Some(Color::Black))),
                    'O' => stones.push((p, Some(Color::White))),
                    _ => {}
                }
            }
        }
        live.game.edit(&stones, to_move).expect("set up");
        (live, terms)
    }

    /// Black walled in three rooms, White in two columns: Black far ahead, nothing open.
    const BLACK_FAR_AHEAD: [&str; 9] = ["..X...XO."; 9];

    async fn action(live: &LiveGame, color: Color, terms: &Terms, level: u8) -> Option<Action> {
        let mut rng = Rng::new(7);
        let engine = Engine::Builtin(level);
        next_action(live, color, terms, &engine, None, &mut rng)
            .await
            .expect("an action")
    }

    // Regression (issue 29, item 4): the weakest bot never searched the playouts its own
    // resignation needs, and played a lost game to the end.
    #[tokio::test]
    async fn a_bot_resigns_a_lost_game_at_every_level() {
        let (live, terms) = live_position(BLACK_FAR_AHEAD, Color::White);
        for level in [1, 3, 5, 7, 9, 10] {
            let a = action(&live, Color::White, &terms, level).await;
            assert_eq!(a, Some(Action::Resign), "level {level}");
        }
    }

    #[tokio::test]
    async fn a_bot_passes_back_when_no_move_changes_the_winner_at_every_level() {
        let (mut live, terms) = live_position(BLACK_FAR_AHEAD, Color::White);
        live.apply(&Event::Pass {
            color: Color::White.into(),
        });
        for level in [1, 3, 5, 7, 9, 10] {
            let a = action(&live, Color::Black, &terms, level).await;
            assert_eq!(a, Some(Action::Pass), "level {level}");
        }
    }

    #[tokio::test]
    async fn a_bot_agrees_to_count_a_settled_game_and_declines_an_open_one_once() {
        let (mut live, _) = live_position(BLACK_FAR_AHEAD, Color::White);
        live.apply(&Event::ScoringRequested {
            color: Color::White.into(),
        });
        let mut declined = None;
        let a = answer_count_request(&live, Color::Black, &mut declined).await;
        assert_eq!(a, Ok(Some(Action::RequestScoring)));
        let mut open = ["........."; 9];
        open[2] = "..X...O..";
        open[6] = "..O...X..";
        let (mut live, _) = live_position(open, Color::White);
        live.apply(&Event::ScoringRequested {
            color: Color::White.into(),
        });
        let a = answer_count_request(&live, Color::Black, &mut declined).await;
        assert_eq!(a, Ok(Some(Action::Chat(manners::NOT_SETTLED.into()))));
        // Declined once: the same request gets no second answer.
        let a = answer_count_request(&live, Color::Black, &mut declined).await;
        assert_eq!(a, Ok(None));
    }

    #[test]
    fn the_built_in_bots_are_ranked_by_their_level() {
        let bots = builtins();
        assert_eq!(
            bots[0].name, "tengen-bot",
            "the name existing games and links use"
        );
        let mut last = None;
        for b in &bots {
            let Engine::Builtin(level) = b.engine else {
                panic!("{b:?}")
            };
            let rank: Rank = b.rank.parse().expect("a rank");
            // Ranks never fall as the level rises; they may stay equal, where the matches that
            // set them (against GNU Go, BENCHMARKS.md) could not tell two levels apart.
            if let Some((l, r)) = last {
                assert!(level > l && rank.level() >= r, "{b:?} after level {l}");
            }
            last = Some((level, rank.level()));
            assert_eq!(
                parse_spec(&format!("{}@{}=builtin:{level}", b.name, b.rank)),
                Ok(b.clone())
            );
        }
    }
}
