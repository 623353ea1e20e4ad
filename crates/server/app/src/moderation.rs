//! Moderation's use cases: who may moderate, moderators' actions on players (warn, mute,
//! suspend, ban, unban), games (annul) and chat lines (hide), and the audit log.
//!
//! A ban is stored first (sanction, sessions ended, open rooms closed and its log entry in one
//! transaction; a suspension closes the rooms too); then the player's quick-match request is
//! withdrawn (a suspension's too), their live games resigned,
//! and every connection of theirs, on every node, is told and closed (through quick match's
//! per-player channel, which a cluster relays to every node).

use serde::{Deserialize, Serialize};
use tengen_core::game::Action;
use tengen_core::moderation::{ActionKind, Role};
use tengen_store::moderation::NewEntry;
use tengen_store::Store;

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::notices::Notices;
use crate::quick_match::QuickMatch;
use crate::sanctions::{now, sanctions};
use tengen_live::registry::Games;

/// The longest reason or note kept.
pub const MAX_REASON: usize = 1000;

/// Reads `until`: a number of seconds, or an RFC 3339 time as a string.
fn time<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Time {
        Secs(i64),
        Text(String),
    }
    match Option::<Time>::deserialize(d)? {
        None => Ok(None),
        Some(Time::Secs(s)) => Ok(Some(s)),
        Some(Time::Text(t)) => tengen_core::moderation::parse_time(&t)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(format!("`until`: not a time: {t:?} (seconds since 1970, or RFC 3339 such as 2026-12-01T18:00:00Z)"))),
    }
}

/// A moderator's action on a player (`POST /api/moderation/actions`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionRequest {
    /// The player's name.
    pub user: String,
    /// What to do.
    pub action: ActionKind,
    /// When a mute, suspension or ban ends: seconds since the epoch, or an RFC 3339 time (a
    /// mute or ban without it lasts for good; a suspension needs it).
    #[serde(default, deserialize_with = "time")]
    pub until: Option<i64>,
    /// Why: the player is told.
    pub reason: String,
}

/// Refuses anyone but moderators and admins (`not_moderator`, 403).
pub fn require_moderator(user: &User) -> Result<(), ApiError> {
    if user.role.moderates() {
        Ok(())
    } else {
        Err(ApiError::Forbidden(
            "not_moderator",
            "only moderators may do this".into(),
        ))
    }
}

/// A reason or note: 1 to [`MAX_REASON`] characters once trimmed.
pub fn checked_text<'a>(text: &'a str, what: &str) -> Result<&'a str, ApiError> {
    let t = text.trim();
    if t.is_empty() || t.chars().count() > MAX_REASON {
        return Err(ApiError::Rejected(
            "bad_reason",
            format!("the {what} has 1 to {MAX_REASON} characters"),
        ));
    }
    Ok(t)
}

/// Sets the role of the account called `name` (`tengen admin set-role`).
pub async fn set_role(store: &Store, name: &str, role: &str) -> Result<User, ApiError> {
    let role: Role = role
        .parse()
        .map_err(|e: tengen_core::moderation::UnknownRole| {
            ApiError::Rejected("invalid_role", e.to_string())
        })?;
    if !store.set_role(name, role).await? {
        return Err(ApiError::NotFound);
    }
    accounts::named(store, name).await
}

/// What a player is told of a moderator's action on them: `{"type": "moderation", "action",
/// "reason", "until"}`. Their connections close after a ban.
#[derive(Serialize)]
pub struct ModeratorsNotice {
    /// What was done.
    pub action: ActionKind,
    /// Why, as the moderator wrote it.
    pub reason: String,
    /// Until when, in seconds since 1970 (`null`: for good, or not timed).
    pub until: Option<i64>,
}

impl crate::notices::Notice for ModeratorsNotice {
    const KIND: &'static str = "moderation";

    fn ends_connections(&self) -> bool {
        self.action == ActionKind::Ban
    }
}

/// `moderator` acts on a player; the log entry's id. The player must rank below the moderator
/// (a moderator acts on players, an admin on moderators too).
pub async fn act(
    store: &Store,
    games: &Games,
    quick_match: &QuickMatch,
    notices: &Notices,
    moderator: &User,
    req: ActionRequest,
) -> Result<Acted, ApiError> {
    require_moderator(moderator)?;
    let reason = checked_text(&req.reason, "reason")?;
    let now = now();
    let until = req
        .action
        .until(req.until, now)
        .map_err(|e| ApiError::Rejected(e.code(), e.to_string()))?;
    let target = accounts::named(store, &req.user).await?;
    if target.id == moderator.id || rank_of(target.role) >= rank_of(moderator.role) {
        return Err(ApiError::Forbidden(
            "outranked",
            format!("{} is not a player you may act on", target.username),
        ));
    }
    let entry = NewEntry {
        moderator_id: moderator.id,
        action: req.action.as_str(),
        user_id: Some(target.id),
        game_id: None,
        until,
        reason,
        at: now,
    };
    let log_id = store.sanction(req.action, entry).await?;
    let notice = ModeratorsNotice {
        action: req.action,
        reason: reason.to_string(),
        until,
    };
    match req.action {
        ActionKind::Ban => end_play(store, games, quick_match, &target).await,
        ActionKind::Suspend => withdraw_request(quick_match, &target).await,
        _ => {}
    }
    // Told last: a banned player's sockets close on this message, after their games ended.
    notices.say(target.id, &notice).await;
    Ok(Acted {
        action: req.action,
        id: log_id,
        until,
        user: target.username,
    })
}

fn rank_of(role: Role) -> u8 {
    match role {
        Role::Player => 0,
        Role::Moderator => 1,
        Role::Admin => 2,
    }
}

/// A banned (or deleted) player's play ends: their quick-match request is withdrawn and their
/// live games resigned. Failures are logged: the ban stands (their sessions are gone) whatever
/// happens here.
pub(crate) async fn end_play(
    store: &Store,
    games: &Games,
    quick_match: &QuickMatch,
    player: &User,
) {
    withdraw_request(quick_match, player).await;
    let ids = match store.live_games_of(player.id).await {
        Ok(g) => g,
        Err(e) => {
            tracing::warn!(error = %e, user = %player.username, "could not list a banned player's games");
            return;
        }
    };
    for id in ids {
        let resigned = match games.get(id).await {
            Ok(Some(h)) => h
                .act(player.id, &player.username, Action::Resign, 0)
                .await
                .map(|_| ())
                .map_err(|e| format!("{e:?}")),
            Ok(None) => Ok(()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(e) = resigned {
            tracing::warn!(game = id, error = %e, "could not resign a banned player's game");
        }
    }
}

/// Withdraws the player's quick-match request, if one waits.
async fn withdraw_request(quick_match: &QuickMatch, player: &User) {
    if let Err(e) = quick_match.cancel(player.id).await {
        tracing::warn!(error = %e, user = %player.username, "could not withdraw a sanctioned player's request");
    }
}

/// `moderator` annuls the finished game `game_id`: it counts no more for ratings or promotion
/// points, recomputed as if it had not been played.
pub async fn annul(
    store: &Store,
    moderator: &User,
    game_id: i64,
    reason: &str,
) -> Result<Annulled, ApiError> {
    use tengen_store::moderation::AnnulError;
    require_moderator(moderator)?;
    let reason = checked_text(reason, "reason")?;
    let entry = NewEntry {
        moderator_id: moderator.id,
        action: "annul",
        user_id: None,
        game_id: Some(game_id),
        until: None,
        reason,
        at: now(),
    };
    match store.annul_game(game_id, entry).await {
        Ok(a) => Ok(Annulled {
            game: game_id,
            id: a.log_id,
            points_recomputed: a.points_recomputed,
        }),
        Err(AnnulError::NotFound) => Err(ApiError::NotFound),
        Err(AnnulError::NotFinished) => Err(ApiError::Conflict(
            "game_not_finished",
            "a game is annulled once it has ended".into(),
        )),
        Err(AnnulError::Already) => Err(ApiError::Conflict(
            "already_annulled",
            "the game is annulled already".into(),
        )),
        Err(AnnulError::Store(e)) => Err(e.into()),
    }
}

/// `moderator` hides the chat line `seq` of game `game_id`: its text leaves the stored log
/// first (with the log entry, in one transaction), then the game tells its watchers
/// (`chat_hidden`), and its own copy of the log loses the text too.
pub async fn hide_chat(
    store: &Store,
    games: &Games,
    moderator: &User,
    game_id: i64,
    seq: u64,
    reason: &str,
) -> Result<Hidden, ApiError> {
    use tengen_core::game::Event;
    require_moderator(moderator)?;
    let reason = checked_text(reason, "reason")?;
    let events = store.events(game_id).await?;
    if events.is_empty() {
        return Err(ApiError::NotFound);
    }
    let stored = events.iter().find(|e| e.seq == seq as i64);
    let said = stored.and_then(|e| serde_json::from_str::<Event>(&e.event).ok());
    let Some(Event::Chat { user, text }) = said else {
        return Err(ApiError::Rejected(
            "not_a_chat_line",
            format!("event {seq} of game {game_id} is no chat line"),
        ));
    };
    if text.is_empty() {
        return Err(ApiError::Conflict(
            "chat_hidden",
            "the chat line is hidden already".into(),
        ));
    }
    let author = accounts::by_name(store, &user).await?;
    let hidden = serde_json::to_string(&Event::Chat {
        user,
        text: String::new(),
    })
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let entry = NewEntry {
        moderator_id: moderator.id,
        action: "hide_chat",
        user_id: author.map(|a| a.id),
        game_id: Some(game_id),
        until: None,
        reason,
        at: now(),
    };
    store
        .rewrite_event(game_id, seq as i64, &hidden, entry)
        .await?;
    // Stored: whatever happens to the game's actor now, a watcher reading the log never gets
    // the text again.
    let told = match games.get(game_id).await {
        Ok(Some(h)) => h
            .act(moderator.id, &moderator.username, Action::HideChat(seq), 0)
            .await
            .is_ok(),
        _ => false,
    };
    if !told {
        tracing::warn!(
            game = game_id,
            seq,
            "a hidden chat line was not told to the watchers"
        );
    }
    Ok(Hidden {
        game: game_id,
        hidden: true,
        seq,
    })
}

/// The audit log, newest first (`limit` entries, at most 500).
pub async fn log(store: &Store, moderator: &User, limit: Option<i64>) -> Result<Log, ApiError> {
    require_moderator(moderator)?;
    let limit = limit.unwrap_or(100).clamp(1, 500);
    Ok(Log {
        entries: store.moderation_log(None, limit).await?,
    })
}

/// What the player `user` is told about themselves: the sanctions standing and the
/// moderators' actions on their account, newest first (without the moderators' names).
pub async fn mine(store: &Store, user: &User) -> Result<Mine, ApiError> {
    let standing = sanctions(store, user.id).await?;
    let actions = store
        .moderation_log(Some(user.id), 50)
        .await?
        .into_iter()
        .map(|e| OwnAction {
            action: e.action,
            at: e.at,
            reason: e.reason,
            until: e.until,
        })
        .collect();
    Ok(Mine {
        actions,
        sanctions: standing,
    })
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same.

/// A moderator's action on a player, as done.
#[derive(Debug, Serialize)]
pub struct Acted {
    /// What was done.
    pub action: ActionKind,
    /// The audit log entry's id.
    pub id: i64,
    /// Until when, if it lapses.
    pub until: Option<i64>,
    /// The player's name.
    pub user: String,
}

/// A game annulled.
#[derive(Debug, Serialize)]
pub struct Annulled {
    /// The game's id.
    pub game: i64,
    /// The audit log entry's id.
    pub id: i64,
    /// Whether the players' promotion points were recomputed (false when a later game of
    /// theirs made that unsafe).
    pub points_recomputed: bool,
}

/// A chat line hidden.
#[derive(Debug, Serialize)]
pub struct Hidden {
    /// The game's id.
    pub game: i64,
    /// Always true.
    pub hidden: bool,
    /// The line's event number.
    pub seq: u64,
}

/// The audit log, newest first.
#[derive(Debug, Serialize)]
pub struct Log {
    /// The entries.
    pub entries: Vec<tengen_store::moderation::LogEntry>,
}

/// What a player is told about the moderators' actions on their account.
#[derive(Debug, Serialize)]
pub struct Mine {
    /// The actions, newest first, without the moderators' names.
    pub actions: Vec<OwnAction>,
    /// The sanctions standing now.
    pub sanctions: tengen_core::moderation::Sanctions,
}

/// A moderator's action as its player sees it.
#[derive(Debug, Serialize)]
pub struct OwnAction {
    /// What was done.
    pub action: String,
    /// When, seconds since 1970.
    pub at: i64,
    /// Why.
    pub reason: String,
    /// Until when, if it lapses.
    pub until: Option<i64>,
}
