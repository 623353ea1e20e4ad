//! Sessions that end: a session lapses after [`IDLE`] unused or [`LIFETIME`] after it was
//! opened, whichever comes first; a lapsed one answers `unauthorized` and its row goes (at its
//! next use, or at the periodic [`sweep`]). Its use is written at most every [`TOUCH_EVERY`], so
//! that a busy player costs one write in minutes, not one a request.
//!
//! A session has a kind: a bot account's (`tengen bot --server`) may only play its own games
//! ([`require_player`] refuses it everywhere else, unless the operator allows bots to act as
//! players). Players see their sessions (device, address, when) and end any of them.

use serde::Serialize;
use tengen_store::accounts::{NewSession, SessionKind, SessionRow};
use tengen_store::Store;

use crate::error::ApiError;
use crate::sanctions::now;
use crate::user::{token_digest, User};

/// A session unused this long (seconds) has ended: 30 days.
pub const IDLE: i64 = 30 * 24 * 3600;
/// A session this old (seconds) has ended however much it is used: 90 days.
pub const LIFETIME: i64 = 90 * 24 * 3600;
/// A session's use is written at most this often (seconds): 5 minutes.
pub const TOUCH_EVERY: i64 = 5 * 60;
/// The User-Agent is kept to this many characters: enough to name a device.
const AGENT_CHARS: usize = 200;

/// Where a session is opened from, as the web floor saw the request.
#[derive(Clone, Debug, Default)]
pub struct Device {
    /// The User-Agent header.
    pub user_agent: Option<String>,
    /// The client's address.
    pub address: Option<String>,
}

/// A session in use: its account, what it may do, and its token's digest.
#[derive(Clone, Debug)]
pub struct Session {
    /// The account.
    pub user: User,
    /// Player or bot.
    pub kind: SessionKind,
    /// The token's digest (what the logout channel carries).
    pub digest: String,
}

/// Opens a session for `user_id` from `device`; its token.
pub async fn open(store: &Store, user: &User, device: &Device) -> Result<String, ApiError> {
    let token = crate::user::new_token();
    let digest = token_digest(&token);
    store
        .insert_session(&new_row(&digest, user, device))
        .await?;
    Ok(token)
}

/// The row of a session to open under `digest` (a bot account's is a bot session).
pub(crate) fn new_row<'a>(digest: &'a str, user: &User, device: &'a Device) -> NewSession<'a> {
    NewSession {
        digest,
        user_id: user.id,
        kind: if user.bot {
            SessionKind::Bot
        } else {
            SessionKind::Player
        },
        at: now(),
        user_agent: device.user_agent.as_deref(),
        address: device.address.as_deref(),
    }
}

/// Cuts a User-Agent to what the list of sessions needs (on a character boundary).
pub fn short_agent(agent: &str) -> String {
    agent.trim().chars().take(AGENT_CHARS).collect()
}

/// Whether `row` has lapsed at `now`.
fn lapsed(row: &SessionRow, now: i64) -> bool {
    now - row.last_seen > IDLE || now - row.created_at > LIFETIME
}

/// The session a token opens, if it is open and has not lapsed (a lapsed one is ended here);
/// its use is written if the last was long enough ago.
pub async fn by_token(store: &Store, token: &str) -> Result<Option<Session>, ApiError> {
    let digest = token_digest(token);
    let Some(row) = store.session(&digest).await? else {
        return Ok(None);
    };
    let now = now();
    if lapsed(&row, now) {
        store.delete_session(&digest).await?;
        return Ok(None);
    }
    let Some(user) = store.user_by_id(row.user_id).await? else {
        return Ok(None);
    };
    // A ban ends the player's sessions; one opened in a race with it opens nothing either.
    if user.sanctions.banned(now) {
        return Ok(None);
    }
    if now - row.last_seen >= TOUCH_EVERY {
        store.touch_session(&digest, now).await?;
    }
    Ok(Some(Session {
        user: User::from(user),
        kind: row.kind,
        digest,
    }))
}

/// Refuses a bot's session (`bot_account`, 403) where only players go, unless the operator lets
/// bots act as players (`bots_as_players`).
pub fn require_player(session: &Session, bots_as_players: bool) -> Result<(), ApiError> {
    if session.kind == SessionKind::Bot && !bots_as_players {
        return Err(bot_refusal());
    }
    Ok(())
}

/// What a bot's session hears where only players go (`bot_account`, 403).
pub fn bot_refusal() -> ApiError {
    ApiError::Forbidden(
        "bot_account",
        "a bot's credential only plays the bot's own games".into(),
    )
}

/// Ends every lapsed session; their digests, whose sockets the caller closes.
pub async fn sweep(store: &Store) -> Result<Vec<String>, ApiError> {
    let now = now();
    Ok(store
        .delete_expired_sessions(now - IDLE, now - LIFETIME)
        .await?)
}

/// One of a player's sessions as their list shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Listed {
    // In alphabetical order, as the `json!` object that held the list wrote them.
    /// The client address it was opened from.
    pub address: Option<String>,
    /// Its browser or program ("Firefox"), for clients that word the device themselves.
    pub browser: Option<&'static str>,
    /// When it was opened and last used, seconds since the epoch.
    pub created_at: i64,
    /// Whether it is the one asking.
    pub current: bool,
    /// The device, in a few words ("Firefox on Android").
    pub device: String,
    /// Names the session in `DELETE /api/me/sessions/{id}`: the start of its token's digest.
    pub id: String,
    /// When it was last used.
    pub last_seen: i64,
    /// Its system ("Android").
    pub system: Option<&'static str>,
}

/// A player's open sessions.
#[derive(Clone, Debug, Serialize)]
pub struct Sessions {
    /// The sessions, the one asking marked `current`.
    pub sessions: Vec<Listed>,
}

/// How many hex digits of a digest name a session in the API: enough to tell one player's
/// sessions apart, never the whole digest.
const ID_DIGITS: usize = 16;

fn public_id(digest: &str) -> &str {
    &digest[..ID_DIGITS.min(digest.len())]
}

/// `GET /api/me/sessions`: `user`'s open sessions, the one asking (`current`) marked.
pub async fn list(store: &Store, user: &User, current: &str) -> Result<Sessions, ApiError> {
    let now = now();
    let sessions: Vec<Listed> = store
        .session_rows_of(user.id)
        .await?
        .into_iter()
        .filter(|r| !lapsed(r, now))
        .map(|r| {
            let agent = r.user_agent.as_deref().unwrap_or("");
            Listed {
                id: public_id(&r.digest).to_string(),
                device: device_name(agent),
                browser: browser_of(agent),
                system: system_of(agent),
                address: r.address,
                created_at: r.created_at,
                last_seen: r.last_seen,
                current: r.digest == current,
            }
        })
        .collect();
    Ok(Sessions { sessions })
}

/// `DELETE /api/me/sessions/{id}`: ends one of `user`'s own sessions (`not_found` for anyone
/// else's); its digest, whose sockets the caller closes.
pub async fn end(store: &Store, user: &User, id: &str) -> Result<String, ApiError> {
    let digest = store
        .sessions_of(user.id)
        .await?
        .into_iter()
        .find(|d| id.len() == ID_DIGITS && public_id(d) == id)
        .ok_or(ApiError::NotFound)?;
    store.delete_session(&digest).await?;
    Ok(digest)
}

/// `DELETE /api/me/sessions`: logs `user` out everywhere, this session included; the digests.
pub async fn end_all(store: &Store, user: &User) -> Result<Vec<String>, ApiError> {
    Ok(store.delete_sessions_of(user.id).await?)
}

/// A User-Agent in a few words: the browser (or program) and the system, as "Firefox on
/// Android"; "Unknown device" when it names neither.
pub fn device_name(agent: &str) -> String {
    let browser = browser_of(agent);
    match (browser, system_of(agent)) {
        (Some(b), Some(s)) => format!("{b} on {s}"),
        (Some(b), None) => b.to_string(),
        (None, Some(s)) => s.to_string(),
        (None, None) => "Unknown device".to_string(),
    }
}

/// The browser or program: the first of these a User-Agent names (order matters: Edge and
/// Opera say "Chrome" too, and Chrome says "Safari").
fn browser_of(agent: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 10] = [
        ("tengen", "Tengen"),
        ("Edg/", "Edge"),
        ("OPR/", "Opera"),
        ("SamsungBrowser", "Samsung Internet"),
        ("Firefox/", "Firefox"),
        ("FxiOS", "Firefox"),
        ("CriOS", "Chrome"),
        ("Chrome/", "Chrome"),
        ("Safari/", "Safari"),
        ("curl/", "curl"),
    ];
    NAMES
        .iter()
        .find(|(mark, _)| agent.contains(mark))
        .map(|&(_, name)| name)
}

/// The system (Android before Linux, iPhone and iPad before Mac OS: each says the other too).
fn system_of(agent: &str) -> Option<&'static str> {
    const NAMES: [(&str, &str); 8] = [
        ("Android", "Android"),
        ("iPhone", "iPhone"),
        ("iPad", "iPad"),
        ("CrOS", "ChromeOS"),
        ("Windows", "Windows"),
        ("Mac OS", "macOS"),
        ("Linux", "Linux"),
        ("FreeBSD", "FreeBSD"),
    ];
    NAMES
        .iter()
        .find(|(mark, _)| agent.contains(mark))
        .map(|&(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::device_name;

    #[test]
    fn devices_are_named_in_a_few_words() {
        for (agent, name) in [
            (
                "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0",
                "Firefox on Android",
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0",
                "Edge on Windows",
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
                "Safari on iPhone",
            ),
            (
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
                "Chrome on Linux",
            ),
            ("curl/8.5.0", "curl"),
            ("", "Unknown device"),
        ] {
            assert_eq!(device_name(agent), name, "{agent}");
        }
    }
}
