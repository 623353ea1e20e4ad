//! The checks of a player's standing sanctions that the rest of the server makes: may this
//! player log in, chat, start a game, take part in a tournament ([`check_may`]). Read afresh
//! from the store each time, so that a sanction set a moment ago (on any node) holds at once.

use tengen_core::moderation::Sanctions;
use tengen_store::Store;

use crate::error::ApiError;

/// Seconds since the epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The sanctions standing on the account `user_id` now (read afresh: one may have been set
/// since the caller's copy of the account).
pub async fn sanctions(store: &Store, user_id: i64) -> Result<Sanctions, ApiError> {
    let row = store.user_by_id(user_id).await?.ok_or(ApiError::NotFound)?;
    Ok(row.sanctions.standing(now()))
}

/// Refuses a banned player (`banned`, 403), as a login does.
pub fn check_not_banned(s: &Sanctions) -> Result<(), ApiError> {
    match s.banned_until {
        Some(t) if t > now() => Err(ApiError::Forbidden("banned", until_text("banned", t))),
        _ => Ok(()),
    }
}

/// What a player asks to do, as far as sanctions go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activity {
    /// Start a new game (rooms, quick match, bots, challenges).
    Play,
    /// Say something others read: lobby, game and review chats, private messages.
    Chat,
    /// Organise a tournament or register in one.
    Tournament,
}

/// The one check of a player's standing sanctions: a ban refuses everything (`banned`), a
/// suspension everything but playing out one's games (`suspended`), a mute chat (`muted`).
/// Read afresh, so that a sanction set a moment ago (on any node) holds at once.
pub async fn check_may(store: &Store, user_id: i64, activity: Activity) -> Result<(), ApiError> {
    let s = sanctions(store, user_id).await?;
    check_not_banned(&s)?;
    if let Some(t) = s.suspended_until {
        let what = match activity {
            Activity::Play => "suspended from new games",
            Activity::Chat => "suspended: no chat or messages",
            Activity::Tournament => "suspended from tournaments",
        };
        return Err(ApiError::Forbidden("suspended", until_text(what, t)));
    }
    match (activity, s.muted_until) {
        (Activity::Chat, Some(t)) => Err(ApiError::Forbidden("muted", until_text("muted", t))),
        _ => Ok(()),
    }
}

/// Refuses chat from a muted, suspended or banned player ([`check_may`]).
pub async fn check_may_chat(store: &Store, user_id: i64) -> Result<(), ApiError> {
    check_may(store, user_id, Activity::Chat).await
}

/// Refuses a new game to a suspended (or banned) player ([`check_may`]).
pub async fn check_may_play(store: &Store, user_id: i64) -> Result<(), ApiError> {
    check_may(store, user_id, Activity::Play).await
}

fn until_text(what: &str, until: i64) -> String {
    if until >= tengen_core::moderation::FOREVER {
        format!("you are {what} by a moderator")
    } else {
        format!("you are {what} by a moderator until {until} (seconds since 1970)")
    }
}

/// The checks every chat line passes, in the lobby and beside a review board alike: a
/// registered player (`user_id`, not a guest), 1 to `max` characters once trimmed, no mute. Returns the trimmed line;
/// `place` names where ("in the lobby") for the guest's message.
pub async fn check_chat_line<'a>(
    store: &Store,
    (user_id, guest): (i64, bool),
    text: &'a str,
    max: usize,
    place: &str,
) -> Result<&'a str, ApiError> {
    if guest {
        return Err(ApiError::Forbidden(
            "guest",
            format!("guests cannot chat {place}; register first"),
        ));
    }
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > max {
        return Err(ApiError::Rejected(
            "bad_chat",
            format!("chat lines have 1 to {max} characters"),
        ));
    }
    check_may_chat(store, user_id).await?;
    Ok(text)
}
