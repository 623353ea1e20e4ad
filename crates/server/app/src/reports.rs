//! Players' reports about a player, a game, a chat line or a private message, and the
//! moderators' queue: each report with its context (the chat lines, the message, the game, the
//! reported player's recent games, rating changes and earlier sanctions), resolved with a note.

use serde::{Deserialize, Serialize};
use tengen_core::game::Event;
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
pub async fn report(
    store: &Store,
    reporter: &User,
    req: ReportRequest,
) -> Result<Reported, ApiError> {
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
            let said = line.and_then(|e| serde_json::from_str::<Event>(&e.event).ok());
            let by_user =
                matches!(said, Some(Event::Chat { user: writer, .. }) if writer == user.username);
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
    Ok(Reported { id })
}

/// A report taken.
#[derive(Debug, Serialize)]
pub struct Reported {
    /// Its number.
    pub id: i64,
}

/// The queue for `moderator`: open reports oldest first (`all`: resolved ones too, newest
/// first), each with its context.
pub async fn queue(store: &Store, moderator: &User, all: bool) -> Result<Queue, ApiError> {
    require_moderator(moderator)?;
    let mut reports = Vec::new();
    for r in store.reports(!all, 200).await? {
        let context = context(store, &r).await?;
        reports.push(Queued::of(r, context));
    }
    Ok(Queue { reports })
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same.

/// The moderators' queue of reports.
#[derive(Debug, Serialize)]
pub struct Queue {
    /// The reports, each with its context.
    pub reports: Vec<Queued>,
}

/// A report in the queue: the report's own fields and what a moderator needs to judge it.
#[derive(Debug, Serialize)]
pub struct Queued {
    /// When it was made.
    pub at: i64,
    /// The chat line it is about.
    pub chat: Option<i64>,
    /// What a moderator needs to judge it.
    pub context: Context,
    /// The game it is about.
    pub game: Option<i64>,
    /// Its number.
    pub id: i64,
    /// The private message it is about.
    pub message: Option<i64>,
    /// The moderator's note.
    pub note: Option<String>,
    /// Why.
    pub reason: String,
    /// Who reported.
    pub reporter: String,
    /// When a moderator resolved it.
    pub resolved_at: Option<i64>,
    /// Who resolved it.
    pub resolved_by: Option<String>,
    /// Whom.
    pub user: String,
}

impl Queued {
    fn of(r: Report, context: Context) -> Queued {
        Queued {
            at: r.at,
            chat: r.chat,
            context,
            game: r.game,
            id: r.id,
            message: r.message,
            note: r.note,
            reason: r.reason,
            reporter: r.reporter,
            resolved_at: r.resolved_at,
            resolved_by: r.resolved_by,
            user: r.user,
        }
    }
}

/// What a moderator needs to judge a report.
#[derive(Debug, Serialize)]
pub struct Context {
    /// The reported game's chat, every line.
    pub chat: Vec<ChatLine>,
    /// The player's recent games lost by leaving or not coming back.
    pub escapes: u32,
    /// The reported game.
    pub game: Option<GameBrief>,
    /// The largest move of the rating in one game, up or down.
    pub largest_rating_jump: f64,
    /// The reported private message.
    pub message: Option<MessageBrief>,
    /// Earlier moderation of the player.
    pub moderation: Vec<tengen_store::moderation::LogEntry>,
    /// The player's last rating changes.
    pub ratings: Vec<tengen_store::ratings::RatingPoint>,
    /// The player's recent games.
    pub recent_games: Vec<GameBrief>,
}

/// A line of a game's chat.
#[derive(Debug, Serialize)]
pub struct ChatLine {
    /// Its writer.
    pub from: String,
    /// Its event number.
    pub seq: i64,
    /// What it says (empty once hidden).
    pub text: String,
}

/// A game in a report's context.
#[derive(Debug, Serialize)]
pub struct GameBrief {
    /// Whether a moderator annulled it.
    pub annulled: bool,
    /// Its id.
    pub id: i64,
    /// Its result, once over.
    pub result: Option<String>,
    /// `live`, `finished`...
    pub status: &'static str,
}

/// A private message in a report's context.
#[derive(Debug, Serialize)]
pub struct MessageBrief {
    /// When it was written.
    pub at: i64,
    /// Who wrote it.
    pub from: String,
    /// Its id.
    pub id: i64,
    /// What it says.
    pub text: String,
    /// To whom.
    pub to: String,
}

/// What a moderator needs to judge a report: the reported game's chat (every line, so that a
/// line is read in its conversation), the game, and the player's recent games (escapes among
/// them counted), rating changes (the largest jump picked out) and earlier moderation.
async fn context(store: &Store, r: &Report) -> Result<Context, ApiError> {
    let mut game = None;
    let mut chat = Vec::new();
    if let Some(g) = r.game {
        for e in store.events(g).await? {
            if let Ok(Event::Chat { user, text }) = serde_json::from_str(&e.event) {
                chat.push(ChatLine {
                    from: user,
                    seq: e.seq,
                    text,
                });
            }
        }
        if let Some(row) = store.game(g).await? {
            game = Some(GameBrief {
                annulled: store.annulled(g).await?.unwrap_or(false),
                id: row.id,
                result: row.result,
                status: row.status.as_str(),
            });
        }
    }
    let message = match r.message {
        Some(m) => store.message(m).await?.map(|m| MessageBrief {
            at: m.at,
            from: m.sender,
            id: m.id,
            text: m.text,
            to: m.recipient,
        }),
        None => None,
    };
    let mut recent_games = Vec::new();
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
        recent_games.push(GameBrief {
            annulled: store.annulled(g.id).await?.unwrap_or(false),
            id: g.id,
            result: g.result,
            status: g.status.as_str(),
        });
    }
    let ratings = store.rating_history(r.user_id, 10).await?;
    // The largest move of the rating in one game, up or down: a sandbagger's drop, a smurf's rise.
    let largest_rating_jump = ratings
        .windows(2)
        .map(|w| w[1].rating - w[0].rating)
        .fold(0.0_f64, |m, d| if d.abs() > m.abs() { d } else { m });
    let moderation = store.moderation_log(Some(r.user_id), 20).await?;
    Ok(Context {
        chat,
        escapes,
        game,
        largest_rating_jump,
        message,
        moderation,
        ratings,
        recent_games,
    })
}

/// `moderator` resolves the open report `id` with `note`.
pub async fn resolve(
    store: &Store,
    moderator: &User,
    id: i64,
    note: &str,
) -> Result<Resolved, ApiError> {
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
    Ok(Resolved { id, resolved: true })
}

/// A report resolved.
#[derive(Debug, Serialize)]
pub struct Resolved {
    /// Its number.
    pub id: i64,
    /// Always true.
    pub resolved: bool,
}
