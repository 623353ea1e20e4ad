//! Bots: accounts played by the built-in engine or by any GTP engine (`tengen serve --bot
//! name=COMMAND`). Starting a game against a bot is one request. A driver task per game follows
//! the events, and computes moves on the engine pool ([`crate::engines`]: low priority, bounded)
//! so that the server's other games never wait for an engine.

mod error;
pub mod gtp;
/// The manners every engine of Tengen's follows ([`tengen_ai::manners`]).
pub use tengen_ai::manners;
mod player;

pub use error::BotError;
pub use player::Player;

use std::collections::BTreeMap;
use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::{Deserialize, Serialize};
use tengen_core::domain::rank::Rank;
use tengen_rules::{Color, Komi, Phase, Preset};
use tokio::sync::broadcast::error::RecvError;

use crate::accounts::{self, User};
use crate::correspondence::TurnNotices;
use crate::engines::Engines;
use crate::error::ApiError;
use crate::notices::Notices;
use crate::online::Online;
use tengen_core::domain::game_type::{default_komi, GameType};
use tengen_core::game::{Action, LiveGame, Terms};
use tengen_live::actor::GameHandle;
use tengen_live::registry::Games;
use tengen_store::games::{GameRow, GameStatus};
use tengen_store::Store;

/// What plays for a bot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Tengen's own engine at a strength level, 1 to 10: the network's levels
    /// ([`tengen_ai::nn::levels`]: 1-4 sample the policy at a temperature, 5 plays the policy's
    /// best move, 6-10 search 8 to 1,600 visits) where the net plays the rules and the board;
    /// elsewhere (First Capture, boards outside 7x7-19x19) the Monte Carlo engine at 100
    /// playouts (level 1) to 51,200 (level 10). Levels 11 to 16 are the human-like beginners
    /// below level 1 ([`tengen_ai::nn::levels::BEGINNERS`], 16 the weakest; Monte Carlo at
    /// level 1's playouts where the net does not play), and level 17 sits between levels 1 and
    /// 2 ([`tengen_ai::nn::levels::IMPROVER`]): new numbers, so that stored `builtin:N` keep
    /// their meaning. The levels play on the built-in net whatever the
    /// server's model: their ranks were measured on it.
    Builtin(u8),
    /// Tengen's own search on the server's net (`serve --model`, else the built-in one) at
    /// this many visits a move, the search's own move played (`search:VISITS`): a bot as
    /// strong as the operator's net; the Monte Carlo engine at level 10 where the net does not
    /// play.
    Search(u32),
    /// A GTP engine started with this command line.
    Gtp(String),
    /// An engine on another machine: `tengen bot --server URL --name NAME` signs in as the
    /// bot and plays its games over a WebSocket, as a player's browser does. Games start only
    /// while it is connected.
    Remote,
}

/// A bot as configured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotSpec {
    /// Account name.
    pub name: String,
    /// Declared rank.
    pub rank: Rank,
    /// Its engine.
    pub engine: Engine,
}

/// Reads `NAME=COMMAND` or `NAME@RANK=COMMAND` (as `--bot` takes it); the command
/// `builtin:LEVEL` is Tengen's own engine at that level (1 to 17), `search:VISITS` its search
/// on the server's net at that many visits a move (1 to [`MAX_VISITS`]), and `remote` a bot
/// whose engine connects from elsewhere (`tengen bot --server`).
pub fn parse_spec(s: &str) -> Result<BotSpec, BotError> {
    let usage = || BotError::Spec("use NAME=COMMAND or NAME@RANK=COMMAND".into());
    let (head, command) = s.split_once('=').ok_or_else(usage)?;
    let (name, rank) = match head.split_once('@') {
        Some((n, r)) => (n, r),
        None => (head, "10k"),
    };
    let rank = rank
        .parse::<Rank>()
        .map_err(|e| BotError::Spec(e.to_string()))?;
    if command.trim().is_empty() || name.is_empty() {
        return Err(usage());
    }
    let engine = match command.trim().strip_prefix("builtin:") {
        Some(level) => match level.trim().parse::<u8>() {
            Ok(l) if tengen_ai::nn::levels::level(l).is_some() => Engine::Builtin(l),
            _ => {
                return Err(BotError::Spec(
                    "builtin:LEVEL takes a level from 1 to 17".into(),
                ))
            }
        },
        None if command.trim() == "remote" => Engine::Remote,
        None => match command.trim().strip_prefix("search:") {
            Some(visits) => match visits.trim().parse::<u32>() {
                Ok(v) if (1..=MAX_VISITS).contains(&v) => Engine::Search(v),
                _ => {
                    return Err(BotError::Spec(format!(
                        "search:VISITS takes 1 to {MAX_VISITS} visits"
                    )))
                }
            },
            None => Engine::Gtp(command.trim().to_string()),
        },
    };
    Ok(BotSpec {
        name: name.to_string(),
        rank,
        engine,
    })
}

/// The most visits a move a `search:VISITS` bot may take (a game's moves must end).
pub const MAX_VISITS: u32 = 100_000;

/// The built-in bots, always available: the engine at levels 1, 17, 2, 3, 5, 7, 9 and 10, and
/// the human-like beginners of levels 16, 15 and 14 (a beginner's eye and flatter samples),
/// each declared at the rank its results give (a rank the log2 of the odds, and the one anchor,
/// GNU Go 3.8 at level 10 taken as 8 kyu). `BENCHMARKS.md`, "The whole ladder in one fit": one
/// Bradley-Terry fit of a round robin between neighbours, every level from 16 to 10 with GNU Go,
/// Pachi and KataGo at fixed visits among them; levels 17 (10k) and 2 (8k), which fill the
/// gap between 13k and 6k, are declared from it, on the weaker side of their fitted ranks.
/// The others keep the ranks their earlier, longer matches gave ("The built-in bots' ranks",
/// "Beginners below level 1", "The weakest beginner, level 16"), each inside its interval in
/// the one fit (level 9's 1d its weaker end), except level 10, whose 3d the fit's interval
/// left below: 4d, the weaker end of that interval (21 of 24 games won: as a level that won
/// every game, read from the end its record supports). Weakest first, as the lobby lists
/// them.
/// The declared rank sets the game type and handicap (seed 002) and seeds the bot's rating,
/// which its games then move.
///
/// Where the server's net (`serve --model`, named `model`) is one of [`PROVEN_NETS`], the
/// strongest bot searches on it too, declared at the rank KataGo's strength on that net gives
/// (Tengen matched KataGo there); on any other net no bot is declared above the levels' ranks
/// (an operator declares one with `--bot NAME@RANK=search:VISITS`).
pub fn builtins(model: Option<&str>) -> Vec<BotSpec> {
    let levels = BUILTIN_RANKS.iter().map(|&(name, level, rank)| BotSpec {
        name: name.into(),
        rank,
        engine: Engine::Builtin(level),
    });
    let proven = PROVEN_NETS
        .iter()
        .filter(|p| Some(p.model) == model)
        .map(|p| BotSpec {
            name: p.bot.into(),
            rank: p.rank,
            engine: Engine::Search(p.visits),
        });
    levels.chain(proven).collect()
}

/// The nets Tengen's search matched KataGo's on, at equal visits (BENCHMARKS.md, "Against
/// KataGo on its b18c384nbt net"): KataGo with this net at these visits plays beyond any
/// human, and Tengen at least nearly as well as it.
const PROVEN_NETS: [ProvenNet; 2] = [
    ProvenNet {
        model: "kata1-b18c384nbt-s6582191360-d3422816034",
        bot: "tengen-superhuman",
        visits: 100,
        rank: Rank::Pro(9),
    },
    // KaTrain 1.15.0 to 1.18.1's net ("The later b18c384nbt net at equal visits").
    ProvenNet {
        model: "kata1-b18c384nbt-s9996604416-d4316597426",
        bot: "tengen-superhuman",
        visits: 100,
        rank: Rank::Pro(9),
    },
];

/// A net on which Tengen's search matched KataGo's at equal visits.
struct ProvenNet {
    /// The model's name, as its file names it (`tengen_ai::nn::Model::name`).
    model: &'static str,
    /// The bot that searches on it.
    bot: &'static str,
    /// Visits a move.
    visits: u32,
    /// The rank declared.
    rank: Rank,
}

/// Whether `name` is one of the bots this version builds in (a level's, or a proven net's).
fn is_builtin_name(name: &str) -> bool {
    BUILTIN_RANKS.iter().any(|&(n, ..)| n == name) || PROVEN_NETS.iter().any(|p| p.bot == name)
}

/// The built-in levels' ranks on 19x19 (BENCHMARKS.md, "The ladder on 19x19": 257 games
/// against GNU Go 3.8 level 10 = 8k, even and at handicaps), where the declared ranks, measured
/// on 9x9, are several ranks off: the levels that play the policy are stronger on the big
/// board, the beginners far weaker. Levels 14 to 16 play their bigger boards' sample there
/// (`Level::on_board`), measured against level 13 (23k here) and each other ("The beginners on
/// bigger boards": level 14 24.5k, 16 33k, so it sits at 30k, the scale's end); level 15, on
/// its 19x19 sample, against level 14 ("The beginners on 19x19": 25.6k, 24.1k to 27.0k).
/// Level 9 won 15 of 16 against level 7 on 19x19 ("Level 9 on 19x19, a first look": about
/// 6.4d, 4.0d to 8.8d), so it plays at 4d there, its interval's weaker end (rounded to the
/// weaker side, as every level). Levels not listed keep their declared rank.
const RANKS_ON_19: [(u8, Rank); 10] = [
    (16, Rank::Kyu(30)),
    (15, Rank::Kyu(26)),
    (14, Rank::Kyu(25)),
    (1, Rank::Kyu(16)),
    (17, Rank::Kyu(10)),
    (2, Rank::Kyu(3)),
    (3, Rank::Kyu(1)),
    (5, Rank::Dan(1)),
    (7, Rank::Dan(3)),
    (9, Rank::Dan(4)),
];

/// The built-in levels' ranks on 13x13 where they are not the declared ones: none. The levels
/// from 17 up and level 1 play at their declared ranks there, within a rank (BENCHMARKS.md, "The
/// ladder on 13x13": 300 games, GNU Go 3.8 level 10 = 8k). So do the three flattest
/// beginners, levels 14 to 16, since they sample above a higher floor from 12 lines up
/// (`Level::on_board`; "The beginners on bigger boards": 18.0k, 21.6k and 24.0k against their
/// declared 18k, 21k and 24k); with their 9x9 sample they had fallen to 26k-30k.
const RANKS_ON_13: [(u8, Rank); 0] = [];

/// The boards on which the levels' ranks were measured, smallest first, each with the levels
/// whose rank there is not their declared one: 9x9, where the declared ranks were measured;
/// 13x13 ([`RANKS_ON_13`]); 19x19 ([`RANKS_ON_19`]). A board takes the ranks of the measured
/// board nearest its size, the smaller on a tie: 5x5 to 11x11 9x9's, 12x12 to 16x16 13x13's,
/// 17x17 up 19x19's.
const MEASURED_BOARDS: [(u8, &[(u8, Rank)]); 3] =
    [(9, &[]), (13, &RANKS_ON_13), (19, &RANKS_ON_19)];

/// The rank a bot plays at on a `size` board under `preset`: a built-in level's rank on the
/// measured board nearest `size` ([`MEASURED_BOARDS`]) where the net plays (not First
/// Capture), else `account`, the bot account's rank (measured on 9x9). Quick match pairs by
/// it, and the lobby suggests handicaps by it, so that a game against a bot is as even as the
/// ranks say on every board; the game itself names it as the bot's rank.
pub fn plays_at(spec: &BotSpec, account: Rank, size: u8, preset: Preset) -> Rank {
    let Engine::Builtin(level) = spec.engine else {
        return account;
    };
    if preset == Preset::FirstCapture {
        return account;
    }
    MEASURED_BOARDS
        .iter()
        .min_by_key(|&&(board, _)| board.abs_diff(size))
        .and_then(|(_, ranks)| ranks.iter().find(|&&(l, _)| l == level))
        .map_or(account, |&(_, r)| r)
}

/// A bot's ranks on the boards where it plays at another rank than its account's
/// ([`plays_at`], Go rules), by board size, for `GET /api/bots`.
fn ranks_by_size(spec: &BotSpec, account: Rank) -> BTreeMap<u8, Rank> {
    (tengen_rules::MIN_SIZE..=tengen_rules::MAX_SIZE)
        .map(|size| (size, plays_at(spec, account, size, Preset::Chinese)))
        .filter(|&(_, rank)| rank != account)
        .collect()
}

/// Name, level and declared rank of each built-in bot.
const BUILTIN_RANKS: [(&str, u8, Rank); 11] = [
    ("tengen-newcomer", 16, Rank::Kyu(24)),
    ("tengen-beginner", 15, Rank::Kyu(21)),
    ("tengen-novice", 14, Rank::Kyu(18)),
    ("tengen-bot", 1, Rank::Kyu(13)),
    ("tengen-improver", 17, Rank::Kyu(10)),
    ("tengen-2", 2, Rank::Kyu(8)),
    ("tengen-3", 3, Rank::Kyu(6)),
    ("tengen-5", 5, Rank::Kyu(5)),
    ("tengen-7", 7, Rank::Kyu(2)),
    ("tengen-9", 9, Rank::Dan(1)),
    ("tengen-10", 10, Rank::Dan(4)),
];

pub use tengen_ai::search::level_playouts;

/// The bots this server offers, with their accounts.
#[derive(Clone, Default)]
pub struct Bots {
    list: Arc<Vec<(BotSpec, User)>>,
}

impl Bots {
    /// Creates (or finds) each bot's account. A built-in bot whose name a player already holds
    /// (registered before a later version added that bot) is left out and logged: the server
    /// still starts, with the other bots. An operator's `--bot` name a player holds is an
    /// error, as it was: the operator chose it and can choose another.
    pub async fn register(
        store: &tengen_store::Store,
        specs: Vec<BotSpec>,
    ) -> Result<Bots, ApiError> {
        let mut list = Vec::new();
        for spec in specs {
            let kind = match &spec.engine {
                Engine::Builtin(level) => format!("builtin:{level}"),
                Engine::Search(visits) => format!("search:{visits}"),
                Engine::Gtp(cmd) => format!("gtp:{cmd}"),
                Engine::Remote => "remote".into(),
            };
            match accounts::ensure_bot(store, &spec.name, spec.rank, &kind).await {
                Ok(user) => list.push((spec, user)),
                Err(e @ ApiError::Conflict(..)) if is_builtin_name(&spec.name) => {
                    tracing::error!(bot = %spec.name, error = %e, "bot left out: its name is a player's");
                }
                Err(e) => return Err(e),
            }
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

    /// All bots, for `GET /api/bots`: each with its engine's kind and whether it can start a
    /// game now (a remote bot only while its engine is connected).
    pub fn describe(&self, online: &Online) -> BotList {
        let bots = self
            .list
            .iter()
            .map(|(s, u)| {
                let engine = match s.engine {
                    Engine::Builtin(_) | Engine::Search(_) => "builtin",
                    Engine::Gtp(_) => "gtp",
                    Engine::Remote => "remote",
                };
                BotListed {
                    available: available(s, u, online),
                    engine,
                    name: s.name.clone(),
                    rank: u.rank,
                    ranks_by_size: ranks_by_size(s, u.rank),
                }
            })
            .collect();
        BotList { bots }
    }
}

/// A remote bot's game offer: `{"type": "bot_game", "color", "game"}`, told to each of the
/// bot's engine connections.
#[derive(Serialize)]
pub struct GameOffer {
    /// The bot's colour: `black` or `white`.
    pub color: String,
    /// The game's id.
    pub game: i64,
}

impl crate::notices::Notice for GameOffer {
    const KIND: &'static str = "bot_game";
}

/// The bots one can play (fields in alphabetical order, as the `json!` object it replaces
/// wrote them).
#[derive(Debug, Serialize)]
pub struct BotList {
    /// Each bot.
    pub bots: Vec<BotListed>,
}

/// A bot as listed.
#[derive(Debug, Serialize)]
pub struct BotListed {
    /// Whether it can start a game now.
    pub available: bool,
    /// `builtin`, `gtp` or `remote`.
    pub engine: &'static str,
    /// Its name.
    pub name: String,
    /// Its rank (its account's, measured on 9x9).
    pub rank: Rank,
    /// The boards where it plays at another rank, by size, under Go's rules ([`plays_at`];
    /// BENCHMARKS.md, "The ladder on 13x13" and "on 19x19"): a 19x19 game against `tengen-2` is
    /// a 3k's game, not an 8k's.
    pub ranks_by_size: BTreeMap<u8, Rank>,
}

/// Whether the bot can start a game now: a remote bot's engine must be connected (on any node).
pub fn available(spec: &BotSpec, user: &User, online: &Online) -> bool {
    spec.engine != Engine::Remote || online.connections(user.id) > 0
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

/// What starting and driving the bots' games needs: the database, the live games, the bots,
/// who is online (a remote bot plays while its engine is connected) and the way to a player's
/// connections (a remote bot hears of its games, a correspondence player of the bot's moves).
#[derive(Clone)]
pub struct BotGames {
    /// The database.
    pub store: Store,
    /// The live games.
    pub games: Games,
    /// The bots one can play.
    pub bots: Bots,
    /// Who is connected now.
    pub online: Online,
    /// The way to a player's connections.
    pub notices: Notices,
    /// What the built-in bots search with.
    pub engines: Engines,
}

impl BotGames {
    fn turn_notices(&self) -> TurnNotices {
        TurnNotices::new(self.store.clone(), self.notices.clone())
    }
}

/// A game started against a bot: its id and its first snapshot.
#[derive(Debug, Serialize)]
pub struct BotGameStarted {
    /// The game as a watcher's first snapshot shows it.
    pub game: tengen_core::view::Snapshot,
    /// Its id.
    pub game_id: i64,
}

/// Starts a game between `user` and the bot `name`; returns the game id and its snapshot.
pub async fn start_game(
    state: &BotGames,
    user: &User,
    name: &str,
    req: BotGame,
) -> Result<BotGameStarted, ApiError> {
    let (spec, bot) = state.bots.find(name).cloned().ok_or(ApiError::NotFound)?;
    crate::sanctions::check_may_play(&state.store, user.id).await?;
    if !available(&spec, &bot, &state.online) {
        return Err(ApiError::Unavailable(
            "bot_offline",
            format!("{name}'s engine is not connected; try again later"),
        ));
    }
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
        disputes: Default::default(),
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
        disputes: Default::default(),
    };
    // The bot plays this game at its rank on this board, and the game says so.
    let bot_here = User {
        rank: plays_at(&spec, bot.rank, size, preset),
        ..bot.clone()
    };
    let (black, white) = match user_color {
        Color::Black => (user, &bot_here),
        Color::White => (&bot_here, user),
    };
    let started =
        crate::games::start(&state.store, &state.games, 0, black, white, terms.clone()).await?;
    let (game_id, handle) = (started.game_id, started.handle);
    if spec.engine == Engine::Remote {
        // The bot's engine hears of the game on each of its connections, on any node.
        let offer = GameOffer {
            color: user_color.opponent().to_string(),
            game: game_id,
        };
        state.notices.say(bot.id, &offer).await;
    } else if handle.is_local() {
        // In a cluster another node may have taken the new game first: its driver runs there.
        let player = (spec.engine, state.engines.clone());
        spawn_driver(
            handle.clone(),
            bot.clone(),
            user_color.opponent(),
            terms,
            player,
            state.turn_notices(),
        );
    }
    let snapshot = crate::games::snapshot(&handle).await?;
    Ok(BotGameStarted {
        game: snapshot,
        game_id,
    })
}

/// Starts the drivers of bots in live games (after a restart). On one server only: in a
/// cluster the owner of a game drives its bots ([`drive_taken`]).
pub async fn resume_all(state: &BotGames) -> Result<(), ApiError> {
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
pub fn drive_taken(state: BotGames, mut taken: tokio::sync::mpsc::UnboundedReceiver<GameHandle>) {
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
fn resume(state: &BotGames, row: &GameRow, handle: GameHandle) -> Result<(), ApiError> {
    for (color, id) in [(Color::Black, row.black_id), (Color::White, row.white_id)] {
        if let Some((spec, bot)) = state.bots.by_user(id).cloned() {
            if spec.engine == Engine::Remote {
                // Its own process comes back to it (`tengen bot --server` watches its games).
                continue;
            }
            let terms: Terms = row.terms.clone();
            let notices = state.turn_notices();
            let player = (spec.engine, state.engines.clone());
            spawn_driver(handle.clone(), bot, color, terms, player, notices);
        }
    }
    Ok(())
}

/// Starts the driver of `bot`'s side (`color`) of the game behind `handle`, played by
/// `player`: its engine, and the engines the built-in one searches with.
fn spawn_driver(
    handle: GameHandle,
    bot: User,
    color: Color,
    terms: Terms,
    player: (Engine, Engines),
    notices: TurnNotices,
) {
    tokio::spawn(async move {
        crate::metrics::BOT_GAMES.inc();
        let driven = drive(&handle, &bot, color, terms, player, notices).await;
        crate::metrics::BOT_GAMES.dec();
        if let Err(e) = driven {
            tracing::warn!(game = handle.id, bot = %bot.username, error = %e, "bot stopped");
            // A bot that cannot go on gives the game up rather than leaving it hanging.
            let _ = handle.act(bot.id, &bot.username, Action::Resign, 0).await;
        }
        handle.gone(bot.id).await;
    });
}

/// Plays `bot`'s side (`color`) of the game behind `handle` until the game ends or closes:
/// catches up on the events it missed, then answers each new event with its own action. In a
/// correspondence game the opponent hears of each of its moves as of a player's.
async fn drive(
    handle: &GameHandle,
    bot: &User,
    color: Color,
    terms: Terms,
    (engine, engines): (Engine, Engines),
    notices: TurnNotices,
) -> Result<(), BotError> {
    let tell = match terms.time.is_correspondence() {
        true => notices.opponent(handle.id, bot.id).await,
        false => None,
    };
    let watch = handle
        .watch(Some(bot.id), Some(0))
        .await
        .ok_or(BotError::GameUnavailable)?;
    let mut live = LiveGame::new(terms.clone()).map_err(BotError::Terms)?;
    let seed = 0xB07 ^ handle.id as u64;
    let mut player = Player::start(engines, engine, terms, color, seed).await?;
    for r in &watch.missed {
        live.apply(&r.event);
        player.replayed(&r.event).await?;
    }
    let mut rx = watch.live;
    loop {
        if live.game.phase() == Phase::Finished {
            player.quit().await;
            return Ok(());
        }
        if let Some(a) = player.decide(&live).await? {
            let turn = matches!(a, Action::Move(_) | Action::Pass);
            act_or_pass(handle, bot, &mut player, a).await?;
            if let (true, Some(opponent)) = (turn, tell) {
                notices.tell(handle.id, opponent, &bot.username);
            }
        }
        match rx.recv().await {
            Ok(r) => {
                live.apply(&r.event);
                player.followed(&r.event).await?;
            }
            Err(RecvError::Lagged(_)) => return Err(BotError::FellBehind),
            Err(RecvError::Closed) => return Ok(()),
        }
    }
}

/// Does `a` for the bot. A move the referee refuses is taken back on the GTP engine's board
/// and replaced by a pass; any other refused action is only logged.
async fn act_or_pass(
    handle: &GameHandle,
    bot: &User,
    player: &mut Player,
    a: Action,
) -> Result<(), BotError> {
    if let Err(e) = handle.act(bot.id, &bot.username, a.clone(), 0).await {
        tracing::warn!(game = handle.id, error = %e, ?a, "bot action refused");
        if matches!(a, Action::Move(_)) {
            player.move_refused().await;
            handle
                .act(bot.id, &bot.username, Action::Pass, 0)
                .await
                .map_err(|e| BotError::PassRefused(e.to_string()))?;
            player.passed_instead().await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::player::{answer_count_request, next_action};
    use super::*;
    use tengen_core::domain::clock::TimeControl;
    use tengen_core::game::Event;
    use tengen_rules::coord::gtp as coord;
    use tengen_rules::playout::Rng;

    #[test]
    fn a_built_in_level_plays_at_its_rank_on_the_measured_board_nearest_the_game_board() {
        let spec = |name: &str, engine| BotSpec {
            name: name.into(),
            rank: Rank::Kyu(8),
            engine,
        };
        let two = spec("tengen-2", Engine::Builtin(2));
        let declared = Rank::Kyu(8);
        assert_eq!(plays_at(&two, declared, 19, Preset::Chinese), Rank::Kyu(3));
        assert_eq!(plays_at(&two, declared, 9, Preset::Chinese), declared);
        assert_eq!(plays_at(&two, declared, 13, Preset::Japanese), declared);
        // A board takes the nearest measured board's rank, the smaller's on a tie (13x13's
        // are the declared ones).
        assert_eq!(plays_at(&two, declared, 17, Preset::Chinese), Rank::Kyu(3));
        assert_eq!(plays_at(&two, declared, 16, Preset::Chinese), declared);
        assert_eq!(plays_at(&two, declared, 11, Preset::Chinese), declared);
        assert_eq!(plays_at(&two, declared, 25, Preset::Chinese), Rank::Kyu(3));
        let listed = ranks_by_size(&two, declared);
        assert_eq!(
            listed.keys().copied().collect::<Vec<_>>(),
            (17..=25).collect::<Vec<u8>>()
        );
        assert!(listed.values().all(|&r| r == Rank::Kyu(3)));
        // First Capture is the Monte Carlo engine's: its rank is the account's.
        assert_eq!(plays_at(&two, declared, 19, Preset::FirstCapture), declared);
        let novice = spec("tengen-novice", Engine::Builtin(14));
        assert_eq!(
            plays_at(&novice, Rank::Kyu(18), 19, Preset::Korean),
            Rank::Kyu(25)
        );
        let beginner = spec("tengen-beginner", Engine::Builtin(15));
        assert_eq!(
            plays_at(&beginner, Rank::Kyu(21), 19, Preset::Chinese),
            Rank::Kyu(26)
        );
        // On 13x13 every level plays at its declared rank, the beginners too (on their wider
        // boards' sample).
        assert_eq!(
            plays_at(&novice, Rank::Kyu(18), 13, Preset::Japanese),
            Rank::Kyu(18)
        );
        assert_eq!(
            plays_at(&novice, Rank::Kyu(18), 9, Preset::Chinese),
            Rank::Kyu(18)
        );
        // Level 9 (1d on 9x9) measured about 6.4d on 19x19 (4.0d to 8.8d): 4d there.
        let nine = spec("tengen-9", Engine::Builtin(9));
        assert_eq!(
            plays_at(&nine, Rank::Dan(1), 19, Preset::Chinese),
            Rank::Dan(4)
        );
        assert_eq!(
            plays_at(&nine, Rank::Dan(1), 13, Preset::Chinese),
            Rank::Dan(1)
        );
        // A level without a 19x19 rank, and bots that are not levels, keep the account's.
        let ten = spec("tengen-10", Engine::Builtin(10));
        assert_eq!(
            plays_at(&ten, Rank::Dan(4), 19, Preset::Chinese),
            Rank::Dan(4)
        );
        let gtp = spec("gnugo", Engine::Gtp("gnugo --mode gtp".into()));
        assert_eq!(plays_at(&gtp, declared, 19, Preset::Chinese), declared);
        // On every measured board the built-in bots are in order of strength as their levels.
        for size in [9, 13, 19] {
            let mut by_level: Vec<(i16, i32)> = builtins(None)
                .iter()
                .filter_map(|b| match b.engine {
                    Engine::Builtin(l) => Some((
                        tengen_ai::nn::levels::strength_order(l)?,
                        plays_at(b, b.rank, size, Preset::Chinese).level(),
                    )),
                    _ => None,
                })
                .collect();
            by_level.sort();
            assert!(
                by_level.windows(2).all(|w| w[0].1 <= w[1].1),
                "{size}: {by_level:?}"
            );
        }
    }

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
            disputes: Default::default(),
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
        let mut streak = manners::Streak::default();
        next_action(
            &Engines::process(),
            live,
            color,
            terms,
            &engine,
            None,
            (&mut rng, &mut streak),
        )
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
        let a = answer_count_request(&Engines::process(), &live, Color::Black, &mut declined).await;
        assert_eq!(a.ok(), Some(Some(Action::RequestScoring)));
        let mut open = ["........."; 9];
        open[2] = "..X...O..";
        open[6] = "..O...X..";
        let (mut live, _) = live_position(open, Color::White);
        live.apply(&Event::ScoringRequested {
            color: Color::White.into(),
        });
        let a = answer_count_request(&Engines::process(), &live, Color::Black, &mut declined).await;
        assert_eq!(
            a.ok(),
            Some(Some(Action::Chat(manners::NOT_SETTLED.into())))
        );
        // Declined once: the same request gets no second answer.
        let a = answer_count_request(&Engines::process(), &live, Color::Black, &mut declined).await;
        assert_eq!(a.ok(), Some(None));
    }

    #[test]
    fn the_built_in_bots_are_ranked_by_their_level() {
        let bots = builtins(None);
        assert!(
            bots.iter()
                .any(|b| b.name == "tengen-bot" && b.engine == Engine::Builtin(1)),
            "the name existing games, links and the first game's hints use"
        );
        let mut last = None;
        for b in &bots {
            let Engine::Builtin(level) = b.engine else {
                panic!("{b:?}")
            };
            let rank = b.rank;
            // Ranks never fall as the level's strength rises (the beginners' 11-16 are below
            // level 1); they may stay equal, where the matches that set them (against GNU Go,
            // BENCHMARKS.md) could not tell two levels apart.
            let order = tengen_ai::nn::levels::strength_order(level).expect("a level");
            if let Some((o, r)) = last {
                assert!(order > o && rank.level() >= r, "{b:?} after {o}");
            }
            last = Some((order, rank.level()));
            assert_eq!(
                parse_spec(&format!("{}@{}=builtin:{level}", b.name, b.rank)).ok(),
                Some(b.clone())
            );
        }
    }

    #[test]
    fn a_proven_net_adds_its_bot_above_the_levels_and_no_other_net_does() {
        let levels = builtins(None);
        assert_eq!(builtins(Some("g170-b6c96-s175395328-d26788732")), levels);
        assert_eq!(builtins(Some("kata1-b18c384nbt-other")), levels);
        for proven in &PROVEN_NETS {
            let with = builtins(Some(proven.model));
            assert_eq!(with[..levels.len()], levels[..]);
            let top = &with[levels.len()];
            assert_eq!(top.engine, Engine::Search(proven.visits));
            assert!(top.rank.level() > levels.iter().map(|b| b.rank.level()).max().unwrap());
            assert_eq!(
                parse_spec(&format!(
                    "{}@{}=search:{}",
                    top.name, top.rank, proven.visits
                ))
                .ok()
                .as_ref(),
                Some(top)
            );
        }
    }

    #[test]
    fn a_search_bot_takes_a_count_of_visits() {
        assert_eq!(
            parse_spec("deep@3d=search:800").ok().map(|b| b.engine),
            Some(Engine::Search(800))
        );
        for bad in ["search:0", "search:", "search:many", "search:100001"] {
            assert!(
                matches!(parse_spec(&format!("x={bad}")), Err(BotError::Spec(_))),
                "{bad}"
            );
        }
    }
}
