//! Players' own tools beside the board: private messages and friends.
//!
//! A message is stored, then told to every connection of the recipient's on any node (through
//! quick match's per-player channel, relayed across a cluster) as `{"type": "message", ...}`.
//! It is refused to guests (`guest`), to a muted player (`muted`), between two players when
//! either blocks the other (`blocked`), and past [`MESSAGES_PER_MINUTE`] a minute from one
//! sender (`rate_limited`, 429; counted in the store, so on every node at once).

use serde::{Deserialize, Serialize};
use tengen_store::social::MessageRow;

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::notices::Notices;
use crate::online::Online;
use tengen_store::Store;

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

// The answers' fields are declared in alphabetical order: the order the `json!` objects they
// replace were written in, so that the wire stays byte for byte the same.

/// A private message as the API shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Message {
    /// When it was written, in seconds since 1970.
    pub at: i64,
    /// Who wrote it.
    pub from: String,
    /// Its id.
    pub id: i64,
    /// Whether the recipient has opened the thread since.
    pub read: bool,
    /// What it says.
    pub text: String,
    /// To whom.
    pub to: String,
}

/// A private message is told to its recipient as it is shown, with `"type": "message"`.
impl crate::notices::Notice for Message {
    const KIND: &'static str = "message";
}

impl Message {
    fn of(m: &MessageRow) -> Message {
        Message {
            at: m.at,
            from: m.sender.clone(),
            id: m.id,
            read: m.read_at.is_some(),
            text: m.text.clone(),
            to: m.recipient.clone(),
        }
    }
}

/// A player's conversations, newest first.
#[derive(Debug, Serialize)]
pub struct Conversations {
    /// One per other player.
    pub conversations: Vec<Conversation>,
}

/// One conversation: the other player, the last message, how many of theirs are unread.
#[derive(Debug, Serialize)]
pub struct Conversation {
    /// The newest message between the two.
    pub last: Message,
    /// The other's messages not read yet.
    pub unread: i64,
    /// The other player.
    pub with: String,
}

/// The messages between two players, oldest first.
#[derive(Debug, Serialize)]
pub struct Thread {
    /// The messages.
    pub messages: Vec<Message>,
    /// The other player.
    pub with: String,
}

/// A player's friends.
#[derive(Debug, Serialize)]
pub struct Friends {
    /// By name.
    pub friends: Vec<Friend>,
}

/// A friend and whether they are connected (on any node).
#[derive(Debug, Serialize)]
pub struct Friend {
    /// Their name.
    pub name: String,
    /// Whether they are connected now.
    pub online: bool,
}

/// `user` writes to `req.to`: stored, then told live to the recipient. Returns the message.
pub async fn send(
    store: &Store,
    notices: &Notices,
    user: &User,
    req: NewMessage,
) -> Result<Message, ApiError> {
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
    let body = Message::of(&m);
    notices.say(to.id, &body).await;
    Ok(body)
}

/// `user`'s conversations, newest first: `{"conversations": [{with, last, unread}]}`.
pub async fn conversations(store: &Store, user: &User) -> Result<Conversations, ApiError> {
    let list = store.conversations(user.id, CONVERSATIONS_LIMIT).await?;
    let conversations = list
        .iter()
        .map(|c| Conversation {
            last: Message::of(&c.last),
            unread: c.unread,
            with: c.with.clone(),
        })
        .collect();
    Ok(Conversations { conversations })
}

/// The thread between `user` and `name`, oldest first; the other's messages are marked read.
pub async fn thread(store: &Store, user: &User, name: &str) -> Result<Thread, ApiError> {
    let other = accounts::named(store, name).await?;
    let messages = store.thread(user.id, other.id, THREAD_LIMIT).await?;
    store
        .mark_read(user.id, other.id, crate::sanctions::now())
        .await?;
    Ok(Thread {
        messages: messages.iter().map(Message::of).collect(),
        with: other.username,
    })
}

/// `user` adds `name` to their friends.
pub async fn add_friend(store: &Store, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(store, name).await?;
    if other.id == user.id {
        return Err(ApiError::Rejected(
            "friend_self",
            "one cannot befriend oneself".into(),
        ));
    }
    Ok(store
        .add_friend(user.id, other.id, crate::sanctions::now())
        .await?)
}

/// `user` drops `name` from their friends (`not_found` when not one).
pub async fn remove_friend(store: &Store, user: &User, name: &str) -> Result<(), ApiError> {
    let other = accounts::named(store, name).await?;
    if store.remove_friend(user.id, other.id).await? {
        Ok(())
    } else {
        Err(ApiError::NotFound)
    }
}

/// `user`'s friends by name, each with whether they are online (on any node):
/// `{"friends": [{name, online}]}`.
pub async fn friends(store: &Store, online: &Online, user: &User) -> Result<Friends, ApiError> {
    let friends = store
        .friends(user.id)
        .await?
        .into_iter()
        .map(|(id, name)| Friend {
            name,
            online: online.connections(id) > 0,
        })
        .collect();
    Ok(Friends { friends })
}
