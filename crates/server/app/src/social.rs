//! Players' own tools beside the board: private messages and friends.
//!
//! A message is stored, then told to every connection of the recipient's on any node (through
//! quick match's per-player channel, relayed across a cluster) as `{"type": "message", ...}`.
//! It is refused to guests (`guest`), to a muted player (`muted`), between two players when
//! either blocks the other (`blocked`), and past [`MESSAGES_PER_MINUTE`] a minute from one
//! sender (`rate_limited`, 429; counted in the store, so on every node at once).

use serde::Deserialize;
use serde_json::{json, Value};
use tengen_store::social::MessageRow;

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::Services;

/// Messages one player may send in a minute.
pub const MESSAGES_PER_MINUTE: i64 = 10;
/// The longest message, in characters.
pub const MAX_MESSAGE_CHARS: usize = 1000;
/// Messages of a thread, conversations of a player, shown at most.
const THREAD_LIMIT: i64 = 200;
const CONVERSATIONS_LIMIT: i64 = 100;

/// `POST /api/messages`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewMessage {
    /// The recipient's name.
    pub to: String,
    /// 1 to 1000 characters.
    pub text: String,
}

fn message_json(m: &MessageRow) -> Value {
    json!({
        "id": m.id,
        "from": m.sender,
        "to": m.recipient,
        "text": m.text,
        "at": m.at,
        "read": m.read_at.is_some(),
    })
}

/// `user` writes to `req.to`: stored, then told live to the recipient. Returns the message.
pub async fn send(services: &Services, user: &User, req: NewMessage) -> Result<Value, ApiError> {
    let store = &services.store;
    if user.guest {
        return Err(ApiError::Forbidden(
            "guest",
            "guests cannot send messages; register first".into(),
        ));
    }
    let text = req.text.trim();
    let chars = text.chars().count();
    if chars == 0 || chars > MAX_MESSAGE_CHARS || text.chars().any(|c| c.is_control() && c != '\n')
    {
        return Err(ApiError::Rejected(
            "bad_message",
            format!("a message has 1 to {MAX_MESSAGE_CHARS} characters"),
        ));
    }
    let to = accounts::named(store, &req.to).await?;
    if to.id == user.id {
        return Err(ApiError::Rejected(
            "message_self",
            "one cannot write to oneself".into(),
        ));
    }
    if to.guest || to.bot {
        return Err(ApiError::Rejected(
            "not_a_player",
            format!("{} cannot receive messages", to.username),
        ));
    }
    crate::sanctions::check_may_chat(store, user.id).await?;
    if store.blocked_by_any(user.id, &[to.id]).await?
        || store.blocked_by_any(to.id, &[user.id]).await?
    {
        return Err(ApiError::Forbidden(
            "blocked",
            "one of you has blocked the other".into(),
        ));
    }
    let now = crate::sanctions::now();
    if store.messages_sent_since(user.id, now - 60).await? >= MESSAGES_PER_MINUTE {
        return Err(ApiError::Limited(
            "rate_limited",
            format!("at most {MESSAGES_PER_MINUTE} messages a minute"),
        ));
    }
    let m = store.send_message(user.id, to.id, text, now).await?;
    let body = message_json(&m);
    let mut live = body.clone();
    live["type"] = json!("message");
    services.quick_match.say(to.id, live.to_string()).await;
    Ok(body)
}

/// `user`'s conversations, newest first: `{"conversations": [{with, last, unread}]}`.
pub async fn conversations(services: &Services, user: &User) -> Result<Value, ApiError> {
    let list = services
        .store
        .conversations(user.id, CONVERSATIONS_LIMIT)
        .await?;
    let list: Vec<Value> = list
        .iter()
        .map(|c| json!({ "with": c.with, "last": message_json(&c.last), "unread": c.unread }))
        .collect();
    Ok(json!({ "conversations": list }))
}

/// The thread between `user` and `name`, oldest first; the other's messages are marked read.
pub async fn thread(services: &Services, user: &User, name: &str) -> Result<Value, ApiError> {
    let store = &services.store;
    let other = accounts::named(store, name).await?;
    let messages = store.thread(user.id, other.id, THREAD_LIMIT).await?;
    store
        .mark_read(user.id, other.id, crate::sanctions::now())
        .await?;
    let messages: Vec<Value> = messages.iter().map(message_json).collect();
    Ok(json!({ "with": other.username, "messages": messages }))
}

/// `user` adds `name` to their friends.
pub async fn add_friend(services: &Services, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(&services.store, name).await?;
    if other.id == user.id {
        return Err(ApiError::Rejected(
            "friend_self",
            "one cannot befriend oneself".into(),
        ));
    }
    Ok(services
        .store
        .add_friend(user.id, other.id, crate::sanctions::now())
        .await?)
}

/// `user` drops `name` from their friends (`not_found` when not one).
pub async fn remove_friend(services: &Services, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(&services.store, name).await?;
    if services.store.remove_friend(user.id, other.id).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// `user`'s friends by name, each with whether they are online (on any node):
/// `{"friends": [{name, online}]}`.
pub async fn friends(services: &Services, user: &User) -> Result<Value, ApiError> {
    let list: Vec<Value> = services
        .store
        .friends(user.id)
        .await?
        .into_iter()
        .map(|(id, name)| json!({ "name": name, "online": services.online.connections(id) > 0 }))
        .collect();
    Ok(json!({ "friends": list }))
}
