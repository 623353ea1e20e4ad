//! A review board's chat: its owner and followers talk beside the board, as players do in a
//! game's chat. The last [`KEEP`] lines are stored with the review (each raising its version,
//! so that every follower's long poll answers with the line, on any node of a cluster) and
//! shown with it. A line is refused to guests (`guest`) and the muted (`muted`, the lobby's and
//! the games' moderation), past [`BURST`] lines in [`WINDOW`] from one player on one board
//! (`rate_limited`), and when empty or over [`MAX_CHARS`] (`bad_chat`).

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use super::{lock, refresh, Review, Reviews};
use crate::accounts::User;
use crate::error::ApiError;

/// Lines kept with a review.
pub const KEEP: usize = 100;
/// The longest line, in characters (as the lobby's and the games').
pub const MAX_CHARS: usize = 500;
/// Lines one player may write in [`WINDOW`] on one board.
pub const BURST: usize = 5;
/// The window of the rate limit.
pub const WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether `user_id` may write another line now on a board where `sent` holds the times of
/// their recent lines; counts this one when it may.
fn within_rate(sent: &mut std::collections::HashMap<i64, VecDeque<Instant>>, user_id: i64) -> bool {
    let now = Instant::now();
    let times = sent.entry(user_id).or_default();
    while times
        .front()
        .is_some_and(|t| now.duration_since(*t) >= WINDOW)
    {
        times.pop_front();
    }
    if times.len() >= BURST {
        return false;
    }
    times.push_back(now);
    true
}

impl Review {
    /// The chat with `line` added, the oldest lines dropped past [`KEEP`].
    fn chat_with(&self, line: ChatLine) -> Vec<ChatLine> {
        let mut chat = self.chat.clone();
        chat.push(line);
        let extra = chat.len().saturating_sub(KEEP);
        chat.drain(..extra);
        chat
    }
}

/// `POST /api/reviews/{id}/chat` `{"text"}`: `user` says `text` beside review `id`'s board;
/// stored, and seen by everyone following. Returns the line `{ "id", "from", "text", "at" }`.
pub async fn say(
    reviews: &Reviews,
    user: &User,
    id: i64,
    text: &str,
) -> Result<ChatLine, ApiError> {
    let text = crate::sanctions::check_chat_line(
        &reviews.store,
        (user.id, user.guest),
        text,
        MAX_CHARS,
        "on a review board",
    )
    .await?;
    let live = reviews.get(id).await?;
    if !within_rate(&mut lock(&live.chat_sent), user.id) {
        return Err(ApiError::Limited(
            "rate_limited",
            format!("at most {BURST} lines in {} s on a board", WINDOW.as_secs()),
        ));
    }
    let mut r = live.inner.lock().await;
    // Written over the stored version; another node's write meanwhile is read and the line
    // added to it (a few tries: chat lines are short writes).
    for _ in 0..3 {
        refresh(reviews, &live, &mut r).await?;
        let line = ChatLine {
            at: crate::sanctions::now(),
            from: user.username.clone(),
            id: r.chat.last().map_or(0, |l| l.id) + 1,
            text: text.to_string(),
        };
        let chat = r.chat_with(line.clone());
        let stored = serde_json::to_string(&chat).unwrap_or_default();
        if reviews
            .store
            .save_review_chat(id, r.stored, &stored)
            .await?
        {
            r.chat = chat;
            r.stored += 1;
            drop(r);
            live.version.send_modify(|v| *v += 1);
            return Ok(line);
        }
        *r = super::load(&reviews.store, id).await?;
        live.version.send_modify(|v| *v += 1);
    }
    Err(ApiError::Conflict(
        "review_changed",
        "the review changed meanwhile; look again and retry".into(),
    ))
}

/// A line of a review board's chat, as stored with the review and as followers see it (fields
/// in alphabetical order, as the `json!` object it replaces wrote them).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ChatLine {
    /// When it was said, seconds since 1970.
    pub at: i64,
    /// Its writer.
    pub from: String,
    /// Its number on the board.
    pub id: u64,
    /// What it says.
    pub text: String,
}
