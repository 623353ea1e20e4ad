//! Players' reports about a player, a game, a chat line or a private message, and the
//! moderators' queue: each report with its context (the chat lines, the message, the game, the
//! reported player's recent games, rating changes and earlier sanctions), resolved with a note.

use serde::Deserialize;
use serde_json::{json, Value};
use tengen_store::moderation::{NewEntry, NewReport, Report};
use tengen_store::Store;

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::moderation::{checked_text, require_moderator};
use crate::sanctions::now;

/// A player's report (`POST /api/reports`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportRequest {
    /// The player reported.
    pub user: String,
    /// The game it is about.
    #[serde(default)]
    pub game: Option<i64>,
    /// The chat line it is about: its `seq` in the game's events (needs `game`).
    #[serde(default)]
    pub chat: Option<i64>,
    /// The private message it is about (one the reported player sent the reporter).
    #[serde(default)]
    pub message: Option<i64>,
    /// Why.
    pub reason: String,
}

/// Open reports one player may have waiting at once: more is a flood.
pub const MAX_OPEN_PER_REPORTER: i64 = 20;

/// Files `reporter`'s report; its id.
pub async fn report(store: &Store, reporter: &User, req: ReportRequest) -> Result<Value, ApiError> {
    let reason = checked_text(&req.reason, "reason")?;
    let user = accounts::named(store, &req.user).await?;
    if user.id == reporter.id {
        return Err(ApiError::Rejected(
            "report_self",
            "a report is about someone else".into(),
        ));
    }
    if req.chat.is_some() && req.game.is_none() {
        return Err(ApiError::Rejected(
            "bad_report",
            "a chat line is named by its game and its seq".into(),
        ));
    }
    if let Some(g) = req.game {
        let events = store.events(g).await?;
        if store.annulled(g).await?.is_none() {
            return Err(ApiError::Rejected("bad_report", format!("no game {g}")));
        }
        if let Some(seq) = req.chat {
            let line = events.iter().find(|e| e.seq == seq);
            let said = line.and_then(|e| serde_json::from_str::<Value>(&e.event).ok());
            let by_user = said.is_some_and(|v| v["type"] == "chat" && v["user"] == user.username);
            if !by_user {
                return Err(ApiError::Rejected(
                    "bad_report",
                    format!(
                        "event {seq} of game {g} is no chat line of {}'s",
                        user.username
                    ),
                ));
            }
        }
    }
    if let Some(m) = req.message {
        let sent = store.message(m).await?;
        let theirs =
            sent.is_some_and(|m| m.sender == user.username && m.recipient == reporter.username);
        if !theirs {
            return Err(ApiError::Rejected(
                "bad_report",
                format!("message {m} is no message of {}'s to you", user.username),
            ));
        }
    }
    if store.open_reports_by(reporter.id).await? >= MAX_OPEN_PER_REPORTER {
        return Err(ApiError::Limited(
            "too_many_reports",
            format!("at most {MAX_OPEN_PER_REPORTER} of your reports may wait at once"),
        ));
    }
    let id = store
        .insert_report(NewReport {
            reporter_id: reporter.id,
            user_id: user.id,
            game_id: req.game,
            chat_seq: req.chat,
            message_id: req.message,
            reason,
            at: now(),
        })
        .await?;
    Ok(json!({ "id": id }))
}

/// The queue for `moderator`: open reports oldest first (`all`: resolved ones too, newest
/// first), each with its context.
pub async fn queue(store: &Store, moderator: &User, all: bool) -> Result<Value, ApiError> {
    require_moderator(moderator)?;
    let mut out = Vec::new();
    for r in store.reports(!all, 200).await? {
        let context = context(store, &r).await?;
        let mut v = serde_json::to_value(&r).map_err(|e| ApiError::Internal(e.to_string()))?;
        v["context"] = context;
        out.push(v);
    }
    Ok(json!({ "reports": out }))
}

/// What a moderator needs to judge a report: the reported game's chat (every line, so that a
/// line is read in its conversation), the game, and the player's recent games (escapes among
/// them counted), rating changes (the largest jump picked out) and earlier moderation.
async fn context(store: &Store, r: &Report) -> Result<Value, ApiError> {
    let mut game = Value::Null;
    let mut chat = Vec::new();
    if let Some(g) = r.game {
        for e in store.events(g).await? {
            let v: Value = serde_json::from_str(&e.event).unwrap_or(Value::Null);
            if v["type"] == "chat" {
                chat.push(json!({ "seq": e.seq, "from": v["user"], "text": v["text"] }));
            }
        }
        if let Some(row) = store.game(g).await? {
            game = json!({
                "id": row.id, "status": row.status.as_str(), "result": row.result,
                "annulled": store.annulled(g).await?.unwrap_or(false),
            });
        }
    }
    let message = match r.message {
        Some(m) => store.message(m).await?.map_or(Value::Null, |m| {
            json!({ "id": m.id, "from": m.sender, "to": m.recipient, "text": m.text, "at": m.at })
        }),
        None => Value::Null,
    };
    let mut recent = Vec::new();
    let mut escapes = 0;
    for g in store.games_of(r.user_id, 10).await? {
        // An escape: a game the player lost by leaving or by not coming back (`+F`).
        let lost_by = |c: char| {
            g.result
                .as_deref()
                .is_some_and(|res| res.starts_with(c) && res.ends_with("+F"))
        };
        if (g.black_id == r.user_id && lost_by('W')) || (g.white_id == r.user_id && lost_by('B')) {
            escapes += 1;
        }
        recent.push(json!({
            "id": g.id, "status": g.status.as_str(), "result": g.result,
            "annulled": store.annulled(g.id).await?.unwrap_or(false),
        }));
    }
    let ratings = store.rating_history(r.user_id, 10).await?;
    // The largest move of the rating in one game, up or down: a sandbagger's drop, a smurf's rise.
    let largest_jump = ratings
        .windows(2)
        .map(|w| w[1].rating - w[0].rating)
        .fold(0.0_f64, |m, d| if d.abs() > m.abs() { d } else { m });
    let actions = store.moderation_log(Some(r.user_id), 20).await?;
    Ok(json!({
        "game": game,
        "chat": chat,
        "message": message,
        "recent_games": recent,
        "escapes": escapes,
        "ratings": ratings,
        "largest_rating_jump": largest_jump,
        "moderation": actions,
    }))
}

/// `moderator` resolves the open report `id` with `note`.
pub async fn resolve(
    store: &Store,
    moderator: &User,
    id: i64,
    note: &str,
) -> Result<Value, ApiError> {
    require_moderator(moderator)?;
    let note = checked_text(note, "note")?;
    let Some(r) = store.report(id).await? else {
        return Err(ApiError::NotFound);
    };
    let entry = NewEntry {
        moderator_id: moderator.id,
        action: "resolve_report",
        user_id: Some(r.user_id),
        game_id: r.game,
        until: None,
        reason: note,
        at: now(),
    };
    if !store.resolve_report(id, note, entry).await? {
        return Err(ApiError::Conflict(
            "report_resolved",
            "the report is resolved already".into(),
        ));
    }
    Ok(json!({ "id": id, "resolved": true }))
}
