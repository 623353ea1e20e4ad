//! Quick match: a player asks for a game by board sizes, speed and the ranks they accept; the
//! server pairs two compatible requests at once (the game type, colours, komi and handicap then
//! follow from the ranks, as seed 002 says for rooms), or, after the wait the player chose,
//! starts a game against the bot nearest their rank.
//!
//! A player has at most one request waiting (a new one replaces it), and one waiting for a
//! blitz or live game is refused while they play a live game: nobody is paired into two games
//! at once. Correspondence requests may stand beside other games, as games over days do.
//!
//! The queue lives in the node's memory; in a cluster it is a table that all nodes share
//! ([`shared`]), so that requests made on different nodes pair.

mod shared;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::{Deserialize, Serialize};

use crate::accounts::User;
use crate::bots::BotGames;
use crate::error::ApiError;
use crate::notices::Notices;
use crate::online::Online;
use crate::rooms::{JoinTerms, RoomTerms};
use tengen_core::domain::clock::{Speed, TimeControl, DAY};
use tengen_core::domain::rank::Rank;
use tengen_store::games::GameStatus;

/// The longest a player may wait before a bot is offered, seconds.
pub const MAX_BOT_WAIT_S: u64 = 600;

/// What a player asks for.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct MatchRequest {
    /// Board sizes the player accepts, most wanted first (9, 13, 19).
    pub sizes: Vec<u8>,
    /// `blitz`, `live` or `correspondence`.
    pub speed: Speed,
    /// Rule preset (default `japanese`).
    #[serde(default = "default_rules")]
    pub rules: String,
    /// The weakest opponent accepted (default: any).
    #[serde(default)]
    pub min_rank: Option<String>,
    /// The strongest opponent accepted (default: any).
    #[serde(default)]
    pub max_rank: Option<String>,
    /// Seconds to wait for a person before playing a bot; `null` never.
    #[serde(default)]
    pub bot_after_s: Option<u64>,
    /// Whether the request stays when the player's last connection closes (see
    /// [`UNATTENDED_AFTER`]); correspondence requests always stay.
    #[serde(default)]
    pub persist: bool,
}

impl MatchRequest {
    /// Whether the request outlives its player's connections.
    pub fn persists(&self) -> bool {
        self.persist || self.speed == Speed::Correspondence
    }
}

/// How long a blitz or live request waits after its player's last connection closed before it
/// is withdrawn (unless it persists): a closed tab must not pair its player into a game they
/// never see, while a reload or a short network drop keeps the place in the queue.
pub const UNATTENDED_AFTER: Duration = Duration::from_secs(10);

fn default_rules() -> String {
    "japanese".into()
}

/// The clock of a quick-match game of each speed: Fischer 3 minutes + 5 seconds (blitz),
/// 20 minutes and five 30-second periods (live, within seed 002's ranges), 3 days a move
/// (correspondence).
pub fn time_for(speed: Speed) -> TimeControl {
    match speed {
        Speed::Blitz => TimeControl::Fischer {
            main_ms: 180_000,
            increment_ms: 5_000,
            cap_ms: None,
        },
        Speed::Live => TimeControl::Byoyomi {
            main_ms: 20 * 60_000,
            periods: 5,
            period_ms: 30_000,
        },
        Speed::Correspondence => TimeControl::Correspondence {
            per_move_ms: 3 * DAY,
        },
    }
}

/// A request checked: its ranks read.
#[derive(Clone, Debug)]
struct Checked {
    req: MatchRequest,
    min: i32,
    max: i32,
}

fn check(req: MatchRequest) -> Result<Checked, ApiError> {
    let bad = |m: &str| ApiError::Rejected("bad_match", m.to_string());
    if req.sizes.is_empty() || req.sizes.len() > 3 {
        return Err(bad("ask for one to three board sizes"));
    }
    let rules: tengen_rules::Preset =
        req.rules
            .parse()
            .map_err(|e: tengen_rules::rules::UnknownPreset| {
                ApiError::Rejected("bad_rules", e.to_string())
            })?;
    for &size in &req.sizes {
        // The same checks as a room of these terms.
        crate::rooms::validate(terms(size, rules.name(), req.speed))?;
    }
    let level = |r: &Option<String>, default: i32| -> Result<i32, ApiError> {
        match r {
            None => Ok(default),
            Some(r) => r
                .parse::<Rank>()
                .map(|r| r.level())
                .map_err(|e| ApiError::InvalidRank(e.to_string())),
        }
    };
    let (min, max) = (
        level(&req.min_rank, i32::MIN)?,
        level(&req.max_rank, i32::MAX)?,
    );
    if min > max {
        return Err(bad("min_rank is stronger than max_rank"));
    }
    if req.bot_after_s.is_some_and(|s| s > MAX_BOT_WAIT_S) {
        return Err(bad("bot_after_s is at most 600"));
    }
    Ok(Checked {
        req: MatchRequest {
            rules: rules.name().to_string(),
            ..req
        },
        min,
        max,
    })
}

/// The room terms of a quick-match game.
fn terms(size: u8, rules: &str, speed: Speed) -> RoomTerms {
    RoomTerms {
        size,
        rules: rules.to_string(),
        komi: None,
        take_back: false,
        estimate: false,
        handicap: None,
        parity: None,
        time: Some(time_for(speed)),
        disputes: Default::default(),
    }
}

#[derive(Clone, Debug)]
struct Waiting {
    ticket: u64,
    user: User,
    level: i32,
    ask: Checked,
    since_ms: i64,
    /// The players this one has a block with, either way, as of the request: only the newer
    /// request of a pair is checked, with its list fresh (empty for a request read back from
    /// the cluster's queue, which is always the older).
    avoid: Vec<i64>,
}

/// The board size two requests agree on (the first of `a`'s that `b` accepts), if they are
/// compatible: other players, no block between them, the same speed and rules, and each one's
/// rank in the other's range. `b` is the newer request, whose blocks (either way) were read
/// just now; the older one's may have been lifted since.
fn agree(a: &Waiting, b: &Waiting) -> Option<u8> {
    if a.user.id == b.user.id
        || b.avoid.contains(&a.user.id)
        || a.ask.req.speed != b.ask.req.speed
        || a.ask.req.rules != b.ask.req.rules
        || !(a.ask.min..=a.ask.max).contains(&b.level)
        || !(b.ask.min..=b.ask.max).contains(&a.level)
    {
        return None;
    }
    a.ask
        .req
        .sizes
        .iter()
        .copied()
        .find(|s| b.ask.req.sizes.contains(s))
}

/// The queue and what it has done for each player.
#[derive(Clone)]
pub struct QuickMatch {
    inner: Arc<Mutex<Queue>>,
    /// In a cluster, the queue all nodes share (`inner` is then unused).
    shared: Option<Arc<shared::Shared>>,
    /// Where pairings go, to every connection of the players.
    notices: Notices,
}

#[derive(Default)]
struct Queue {
    next: u64,
    waiting: Vec<Waiting>,
    /// The last outcome per player (`matched` with the game, or `failed`), until they ask again.
    outcomes: HashMap<i64, MatchState>,
}

fn lock(m: &Mutex<Queue>) -> std::sync::MutexGuard<'_, Queue> {
    // A panic while holding the lock leaves a consistent queue (every change is one push or
    // remove): go on with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl QuickMatch {
    /// A queue on this node alone, its outcomes told through `notices`.
    pub fn new(notices: Notices) -> QuickMatch {
        QuickMatch {
            inner: Arc::default(),
            shared: None,
            notices,
        }
    }

    /// A cluster node's queue: the table in `store` that every node shares, outcomes told
    /// through `notices` (a cluster's, which every node hears).
    pub fn clustered(store: tengen_store::Store, notices: Notices) -> QuickMatch {
        QuickMatch {
            inner: Arc::default(),
            shared: Some(Arc::new(shared::Shared::new(store, notices.clone()))),
            notices,
        }
    }

    /// The player's request now: `waiting`, the last outcome, or `idle`.
    pub async fn status(&self, user_id: i64) -> Result<MatchState, ApiError> {
        if let Some(shared) = &self.shared {
            return shared.status(user_id).await;
        }
        let q = lock(&self.inner);
        if let Some(w) = q.waiting.iter().find(|w| w.user.id == user_id) {
            return Ok(MatchState::Waiting {
                request: Some(w.ask.req.clone()),
                since: Some(w.since_ms),
                ticket: Some(w.ticket),
            });
        }
        Ok(q.outcomes
            .get(&user_id)
            .cloned()
            .unwrap_or(MatchState::Idle))
    }

    /// Withdraws the player's request; false when none waited.
    pub async fn cancel(&self, user_id: i64) -> Result<bool, ApiError> {
        if let Some(shared) = &self.shared {
            return shared.cancel(user_id).await;
        }
        let mut q = lock(&self.inner);
        let before = q.waiting.len();
        q.waiting.retain(|w| w.user.id != user_id);
        Ok(before != q.waiting.len())
    }

    /// Withdraws the player's waiting request unless it persists; true when one was withdrawn.
    async fn withdraw_unattended(&self, user_id: i64) -> Result<bool, ApiError> {
        if let Some(shared) = &self.shared {
            return shared.withdraw_unattended(user_id).await;
        }
        let mut q = lock(&self.inner);
        let before = q.waiting.len();
        q.waiting
            .retain(|w| w.user.id != user_id || w.ask.req.persists());
        Ok(before != q.waiting.len())
    }

    async fn tell(&self, user_id: i64, outcome: MatchState) {
        if let Some(shared) = &self.shared {
            return shared.tell(user_id, outcome).await;
        }
        // Kept before it is told: a client told reads it back with `GET /api/match`.
        let told = outcome.clone();
        lock(&self.inner).outcomes.insert(user_id, outcome);
        self.notices.say(user_id, &Told { outcome: &told }).await;
    }
}

/// Whether `user` plays a live game now: one with a clock that is not a correspondence one, or
/// an untimed game against a person. An untimed game against a bot never blocks quick match:
/// it waits for its player, and ends by itself when abandoned.
async fn in_live_game(state: &BotGames, user: &User) -> Result<bool, ApiError> {
    for row in state.store.games_of(user.id, 50).await? {
        if row.status != GameStatus::Live {
            continue;
        }
        // (A game whose terms do not read is not in the list: the store leaves it out.)
        let terms = &row.terms;
        let opponent = if row.black_id == user.id {
            row.white_id
        } else {
            row.black_id
        };
        let against_bot = state.bots.by_user(opponent).is_some();
        if terms.time.is_correspondence() || (terms.time.is_untimed() && against_bot) {
            continue;
        }
        return Ok(true);
    }
    Ok(false)
}

/// Takes `user`'s request: pairs it with a waiting one at once if it can (the answer is then
/// `matched`, with the game), or queues it (`waiting`) and, if asked, starts a bot game after
/// the wait.
pub async fn request(
    state: &BotGames,
    qm: &QuickMatch,
    user: &User,
    req: MatchRequest,
) -> Result<MatchState, ApiError> {
    let ask = check(req)?;
    crate::sanctions::check_may_play(&state.store, user.id).await?;
    if ask.req.speed != Speed::Correspondence && in_live_game(state, user).await? {
        return Err(ApiError::Conflict(
            "already_playing",
            "finish your live game first (correspondence games may be asked for beside it)".into(),
        ));
    }
    let level = user.rank.level();
    let avoid = state.store.blocks_either_way(user.id).await?;
    let (me, partner) = if let Some(shared) = &qm.shared {
        let me = Waiting {
            // Unique in the cluster without a counter to share.
            ticket: OsRng.next_u64() >> 12,
            user: user.clone(),
            level,
            ask,
            since_ms: tengen_store::games::now_ms(),
            avoid: avoid.clone(),
        };
        let bot_at = me
            .ask
            .req
            .bot_after_s
            .map(|s| me.since_ms + s as i64 * 1000);
        let partner = shared.enqueue(&me, bot_at).await?;
        (me, partner)
    } else {
        let mut q = lock(&qm.inner);
        q.waiting.retain(|w| w.user.id != user.id);
        q.outcomes.remove(&user.id);
        q.next += 1;
        let me = Waiting {
            ticket: q.next,
            user: user.clone(),
            level,
            ask,
            since_ms: tengen_store::games::now_ms(),
            avoid: avoid.clone(),
        };
        // The longest waiting compatible request.
        let found = q.waiting.iter().position(|w| agree(w, &me).is_some());
        match found {
            Some(i) => {
                let partner = q.waiting.remove(i);
                (me, Some(partner))
            }
            None => {
                q.waiting.push(me.clone());
                (me, None)
            }
        }
    };
    let Some(partner) = partner else {
        if let Some(secs) = me.ask.req.bot_after_s {
            let (state, qm) = (state.clone(), qm.clone());
            let me = me.clone();
            // The wait counts from the request, not from when the task first runs.
            let at = tokio::time::Instant::now() + Duration::from_secs(secs);
            tokio::spawn(async move {
                tokio::time::sleep_until(at).await;
                bot_fallback(&state, &qm, me).await;
            });
        }
        return qm.status(user.id).await;
    };
    pair(state, qm, partner, me).await
}

/// Starts the game of two agreeing requests (`older` waited first: they own the "room").
async fn pair(
    state: &BotGames,
    qm: &QuickMatch,
    older: Waiting,
    newer: Waiting,
) -> Result<MatchState, ApiError> {
    let size = agree(&older, &newer).unwrap_or(older.ask.req.sizes[0]);
    let t = crate::rooms::validate(terms(size, &older.ask.req.rules, older.ask.req.speed))?;
    let guess = if OsRng.next_u32() % 2 == 0 {
        "odd"
    } else {
        "even"
    };
    // Boxed: the start (store, registry, actor) is a deep future, and inside a request's own
    // it overflowed a debug build's worker stack.
    let started = Box::pin(crate::rooms::start_paired(
        &state.store,
        &state.games,
        0,
        &older.user,
        &newer.user,
        &t,
        JoinTerms {
            guess: Some(guess.into()),
            handicap: None,
        },
    ))
    .await;
    match started {
        Ok(v) => {
            for (me, them) in [(&older, &newer), (&newer, &older)] {
                let opponent = Opponent {
                    bot: false,
                    rank: Some(them.user.rank),
                    username: them.user.username.clone(),
                };
                let game_type = Some(v.game_type.to_string());
                let outcome = MatchState::Matched {
                    game: v.game_id,
                    game_type,
                    opponent,
                    size,
                };
                qm.tell(me.user.id, outcome).await;
            }
            qm.status(newer.user.id).await
        }
        Err(e) => {
            tracing::error!(error = %e, "a quick match could not start its game");
            for w in [&older, &newer] {
                qm.tell(
                    w.user.id,
                    MatchState::failed("match_failed", "the game could not start; ask again"),
                )
                .await;
            }
            Err(e)
        }
    }
}

/// The bot nearest `level` (ties: the weaker) that can play now on a `size` board under
/// `preset`, by the rank it plays at there ([`crate::bots::plays_at`]), if the server has any.
fn nearest_bot(
    bots: &crate::bots::Bots,
    online: &crate::online::Online,
    level: i32,
    (size, preset): (u8, tengen_rules::Preset),
) -> Option<(String, i32)> {
    bots.all()
        .filter(|(spec, u)| crate::bots::available(spec, u, online))
        .map(|(spec, u)| {
            let rank = crate::bots::plays_at(spec, u.rank, size, preset);
            (spec.name.clone(), rank.level())
        })
        .min_by_key(|(_, l)| ((l - level).abs(), *l))
}

/// After the wait: if `me`'s request still waits, it leaves the queue for a game against a bot.
async fn bot_fallback(state: &BotGames, qm: &QuickMatch, me: Waiting) {
    let still_waiting = match &qm.shared {
        Some(shared) => match shared.take(me.ticket).await {
            Ok(taken) => taken,
            Err(e) => {
                tracing::warn!(error = %e, "could not take a quick-match request for its bot");
                false
            }
        },
        None => {
            let mut q = lock(&qm.inner);
            let found = q.waiting.iter().position(|w| w.ticket == me.ticket);
            found.map(|i| q.waiting.remove(i)).is_some()
        }
    };
    if !still_waiting {
        return;
    }
    // Stones for a player more than two ranks below the bot, as HANDICAP in a room (a bot does
    // not take stones: a stronger player plays it even).
    let size = me.ask.req.sizes[0];
    let preset: tengen_rules::Preset = match me.ask.req.rules.parse() {
        Ok(p) => p,
        Err(_) => return,
    };
    let Some((bot, bot_level)) = nearest_bot(&state.bots, &state.online, me.level, (size, preset))
    else {
        qm.tell(
            me.user.id,
            MatchState::failed(
                "no_opponent",
                "no opponent came, and this server has no bot",
            ),
        )
        .await;
        return;
    };
    let handicap = (bot_level - me.level > 2)
        .then(|| crate::rooms::default_handicap(preset, size, bot_level - me.level));
    let req = crate::bots::BotGame {
        size: Some(size),
        rules: Some(me.ask.req.rules.clone()),
        time: Some(time_for(me.ask.req.speed)),
        handicap,
        // A rated game: the bot does not grant take-backs.
        take_back: Some(false),
        ..Default::default()
    };
    match Box::pin(crate::bots::start_game(state, &me.user, &bot, req)).await {
        Ok(v) => {
            qm.tell(
                me.user.id,
                MatchState::Matched {
                    game: v.game_id,
                    game_type: Some(v.game.terms.game_type.name().to_string()),
                    opponent: Opponent {
                        bot: true,
                        rank: None,
                        username: bot,
                    },
                    size,
                },
            )
            .await
        }
        Err(e) => {
            tracing::error!(error = %e, "a quick match could not start its bot game");
            qm.tell(
                me.user.id,
                MatchState::failed("match_failed", "the bot game could not start; ask again"),
            )
            .await;
        }
    }
}

/// In a cluster: starts the bot games of requests whose node died before their wait was over
/// (each node runs this every second; the first to take a request starts its game).
pub async fn upkeep(state: &BotGames, qm: &QuickMatch) {
    let Some(shared) = &qm.shared else {
        return;
    };
    let before = tengen_store::games::now_ms() - shared::ORPHAN_AFTER_MS;
    match shared.overdue(before).await {
        Ok(orphans) => {
            for me in orphans {
                bot_fallback(state, qm, me).await;
            }
        }
        Err(e) => tracing::warn!(error = %e, "could not read quick match's queue"),
    }
}

/// `user`'s last connection on this node closed: after [`UNATTENDED_AFTER`], if they still
/// have no connection anywhere, their blitz or live request is withdrawn (a request that asked
/// to persist, and every correspondence request, stays), and they find `withdrawn` as its
/// outcome when they come back.
pub fn player_left(online: &Online, qm: &QuickMatch, user: &User) {
    let (online, qm) = (online.clone(), qm.clone());
    let user_id = user.id;
    let at = tokio::time::Instant::now() + UNATTENDED_AFTER;
    tokio::spawn(async move {
        tokio::time::sleep_until(at).await;
        if let Err(e) = withdraw_if_unattended(&online, &qm, user_id).await {
            tracing::warn!(error = %e, user_id, "could not withdraw a request");
        }
    });
}

/// If the player `user_id` has no connection on any node now, withdraws their blitz or live
/// request unless it persists, and keeps `withdrawn` as its outcome. True when one was
/// withdrawn. (What [`player_left`] does once the player has been gone [`UNATTENDED_AFTER`].)
pub async fn withdraw_if_unattended(
    online: &Online,
    qm: &QuickMatch,
    user_id: i64,
) -> Result<bool, ApiError> {
    if online.connections(user_id) > 0 {
        return Ok(false);
    }
    if !qm.withdraw_unattended(user_id).await? {
        return Ok(false);
    }
    let outcome = MatchState::Withdrawn {
        code: "match_withdrawn".into(),
        message: "your request was withdrawn when you left; ask again".into(),
    };
    qm.tell(user_id, outcome).await;
    Ok(true)
}

/// Withdraws `user`'s waiting request (`no_match_request` if none waits).
pub async fn cancel(qm: &QuickMatch, user: &User) -> Result<(), ApiError> {
    if qm.cancel(user.id).await? {
        Ok(())
    } else {
        Err(ApiError::Conflict(
            "no_match_request",
            "no quick-match request of yours is waiting".into(),
        ))
    }
}

/// Where a player's request stands: the answer to `GET /api/match` and to a request, the
/// outcome told to the player's connections (`{"type": "matched", "match": ...}`), and, in a
/// cluster, the outcome kept in the shared table (read back as it was written).
///
/// Written with its keys in alphabetical order, as the `json!` objects it replaces wrote them
/// (a derived tagged enum would write `state` first): `Serialize` is written by hand.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum MatchState {
    /// No request and no outcome to tell.
    Idle,
    /// The request waits in the queue.
    Waiting {
        /// What was asked (`null` for a row this version cannot read).
        request: Option<MatchRequest>,
        /// When it was queued, ms since 1970.
        since: Option<i64>,
        /// Its ticket.
        ticket: Option<u64>,
    },
    /// Paired: the game started.
    Matched {
        /// The game's id.
        game: i64,
        /// `even`, `handicap`, `ho_sun`...
        game_type: Option<String>,
        /// Whom against.
        opponent: Opponent,
        /// The board's size.
        size: u8,
    },
    /// The pairing or the bot game could not start.
    Failed {
        /// `match_failed`, `no_opponent`.
        code: String,
        /// In words.
        message: String,
    },
    /// Withdrawn when its player left.
    Withdrawn {
        /// `match_withdrawn`.
        code: String,
        /// In words.
        message: String,
    },
}

/// Whom a player was paired against.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
pub struct Opponent {
    /// True for a bot (absent for a person).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
    /// A person's rank (absent for a bot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<Rank>,
    /// The name.
    pub username: String,
}

impl MatchState {
    fn failed(code: &str, message: &str) -> MatchState {
        MatchState::Failed {
            code: code.into(),
            message: message.into(),
        }
    }

    /// The state's name.
    pub fn name(&self) -> &'static str {
        match self {
            MatchState::Idle => "idle",
            MatchState::Waiting { .. } => "waiting",
            MatchState::Matched { .. } => "matched",
            MatchState::Failed { .. } => "failed",
            MatchState::Withdrawn { .. } => "withdrawn",
        }
    }
}

/// A player's notice of their request's outcome: `{"type": "matched", "match": ...}`.
#[derive(Serialize)]
pub struct Told<'a> {
    /// The outcome.
    #[serde(rename = "match")]
    pub outcome: &'a MatchState,
}

impl crate::notices::Notice for Told<'_> {
    const KIND: &'static str = "matched";
}

impl Serialize for MatchState {
    /// `{"state": NAME, ...its fields}`, the keys in alphabetical order (`state` among them).
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        match self {
            MatchState::Idle => m.serialize_entry("state", self.name())?,
            MatchState::Waiting {
                request,
                since,
                ticket,
            } => {
                m.serialize_entry("request", request)?;
                m.serialize_entry("since", since)?;
                m.serialize_entry("state", self.name())?;
                m.serialize_entry("ticket", ticket)?;
            }
            MatchState::Matched {
                game,
                game_type,
                opponent,
                size,
            } => {
                m.serialize_entry("game", game)?;
                m.serialize_entry("game_type", game_type)?;
                m.serialize_entry("opponent", opponent)?;
                m.serialize_entry("size", size)?;
                m.serialize_entry("state", self.name())?;
            }
            MatchState::Failed { code, message } | MatchState::Withdrawn { code, message } => {
                m.serialize_entry("code", code)?;
                m.serialize_entry("message", message)?;
                m.serialize_entry("state", self.name())?;
            }
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn waiting(
        id: i64,
        rank: &str,
        sizes: &[u8],
        speed: Speed,
        range: (Option<&str>, Option<&str>),
    ) -> Waiting {
        let ask = check(MatchRequest {
            sizes: sizes.to_vec(),
            speed,
            rules: "japanese".into(),
            min_rank: range.0.map(String::from),
            max_rank: range.1.map(String::from),
            bot_after_s: None,
            persist: false,
        })
        .unwrap();
        Waiting {
            ticket: id as u64,
            user: User {
                id,
                username: format!("p{id}"),
                rank: rank.parse().unwrap(),
                points: 50,
                guest: false,
                bot: false,
                rating: 1500.0,
                deviation: 350.0,
                role: Default::default(),
            },
            level: rank.parse::<Rank>().unwrap().level(),
            ask,
            since_ms: 0,
            avoid: Vec::new(),
        }
    }

    #[test]
    fn requests_agree_on_size_speed_and_ranks() {
        let any = (None, None);
        let a = waiting(1, "5k", &[19, 13], Speed::Live, any);
        let b = waiting(2, "3k", &[9, 13], Speed::Live, any);
        assert_eq!(agree(&a, &b), Some(13));
        assert_eq!(
            agree(&a, &waiting(3, "5k", &[9], Speed::Live, any)),
            None,
            "no common size"
        );
        assert_eq!(
            agree(&a, &waiting(4, "5k", &[19], Speed::Blitz, any)),
            None,
            "speeds differ"
        );
        assert_eq!(
            agree(&a, &waiting(1, "5k", &[19], Speed::Live, any)),
            None,
            "oneself"
        );
        // Ranges both ways.
        let picky = waiting(5, "5k", &[19], Speed::Live, (Some("6k"), Some("4k")));
        assert_eq!(
            agree(&picky, &waiting(6, "4k", &[19], Speed::Live, any)),
            Some(19)
        );
        assert_eq!(
            agree(&picky, &waiting(7, "3k", &[19], Speed::Live, any)),
            None
        );
        let narrow = waiting(8, "1d", &[19], Speed::Live, (Some("1k"), None));
        assert_eq!(agree(&picky, &narrow), None, "the 1d does not take a 5k");
    }

    #[test]
    fn bad_requests_are_refused() {
        let req = |sizes: Vec<u8>, min: Option<&str>, max: Option<&str>, wait: Option<u64>| {
            MatchRequest {
                sizes,
                speed: Speed::Live,
                rules: "japanese".into(),
                min_rank: min.map(String::from),
                max_rank: max.map(String::from),
                bot_after_s: wait,
                persist: false,
            }
        };
        assert_eq!(
            check(req(vec![], None, None, None)).unwrap_err().code(),
            "bad_match"
        );
        assert_eq!(
            check(req(vec![11], None, None, None)).unwrap_err().code(),
            "bad_board_size"
        );
        assert_eq!(
            check(req(vec![19], Some("1d"), Some("5k"), None))
                .unwrap_err()
                .code(),
            "bad_match"
        );
        assert_eq!(
            check(req(vec![19], Some("x"), None, None))
                .unwrap_err()
                .code(),
            "invalid_rank"
        );
        assert_eq!(
            check(req(vec![19], None, None, Some(601)))
                .unwrap_err()
                .code(),
            "bad_match"
        );
        assert!(check(req(vec![9, 13, 19], Some("20k"), Some("1d"), Some(30))).is_ok());
        // Every speed's clock is one a room accepts.
        for speed in [Speed::Blitz, Speed::Live, Speed::Correspondence] {
            assert_eq!(time_for(speed).speed(), speed);
            assert!(time_for(speed).validate().is_ok());
        }
    }
}
