//! Brute-force protection for logins, registrations and guest accounts.
//!
//! Failed logins are counted per account name (case folded) and per client address. After a
//! few failures each further attempt must wait, twice as long after each failure (1 s after
//! the fourth, 2 s after the fifth, ... at most 5 minutes); after [`LOCK_AFTER`] failures
//! with no quiet [`WINDOW`] between them the key is locked for [`LOCK_FOR`]. A refused attempt is answered `429
//! too_many_attempts` with `Retry-After` before any password hash is computed. A successful
//! login clears its account's count. Registrations and guest accounts are limited per client
//! address to [`CREATE_PER_WINDOW`] in a window.
//!
//! The table is bounded ([`MAX_KEYS`]): when it is full, keys idle longer than the lock are
//! dropped, then the least recently seen.
//!
//! The client address is the connection's peer, or the first address of `X-Forwarded-For`
//! when the peer is one of the operator's trusted proxies (`tengen serve --trusted-proxy`),
//! never otherwise, since anyone can write that header.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use tokio::time::Instant;

use crate::error::{ApiError, HttpError};

/// Failures counted together.
pub const WINDOW: Duration = Duration::from_secs(60);
/// Failures in a window that lock the key.
pub const LOCK_AFTER: u32 = 10;
/// How long a lock lasts.
pub const LOCK_FOR: Duration = Duration::from_secs(15 * 60);
/// Failures allowed before attempts must wait.
const FREE_FAILURES: u32 = 3;
/// The longest wait between attempts short of a lock.
const MAX_DELAY: Duration = Duration::from_secs(5 * 60);
/// Registrations and guest accounts per client address in a window of [`CREATE_WINDOW`], by
/// default (`tengen serve --accounts-per-address`).
pub const CREATE_PER_WINDOW: u32 = 20;
const CREATE_WINDOW: Duration = Duration::from_secs(10 * 60);
/// Keys kept at most.
pub const MAX_KEYS: usize = 100_000;

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Failures (or creations) since `since`.
    count: u32,
    since: Instant,
    /// No attempt before this.
    wait_until: Instant,
    last: Instant,
}

/// The counts, shared by every request.
#[derive(Debug)]
pub struct Throttle {
    keys: Mutex<HashMap<String, Entry>>,
    trusted_proxies: Vec<IpAddr>,
    /// Accounts an address may create in a window; 0 for no limit.
    create_limit: u32,
}

impl Default for Throttle {
    fn default() -> Throttle {
        Throttle::new(Vec::new(), CREATE_PER_WINDOW)
    }
}

impl Throttle {
    /// A throttle that believes `X-Forwarded-For` from `trusted_proxies` only and lets an
    /// address create `create_limit` accounts in a window (0: no limit, for load tests).
    pub fn new(trusted_proxies: Vec<IpAddr>, create_limit: u32) -> Throttle {
        Throttle {
            keys: Mutex::default(),
            trusted_proxies,
            create_limit,
        }
    }

    /// Refuses with `too_many_attempts` if any of `keys` must still wait.
    pub fn check(&self, keys: &[String]) -> Result<(), ApiError> {
        let now = Instant::now();
        let table = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        let wait = keys
            .iter()
            .filter_map(|k| table.get(k))
            .map(|e| e.wait_until.saturating_duration_since(now))
            .max()
            .unwrap_or(Duration::ZERO);
        if wait > Duration::ZERO {
            return Err(ApiError::TooManyAttempts(wait.as_secs().max(1)));
        }
        Ok(())
    }

    /// Counts a failed login against each of `keys`.
    pub fn failed(&self, keys: &[String]) {
        let now = Instant::now();
        let mut table = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        make_room(&mut table, now, keys.len());
        for k in keys {
            let e = table.entry(k.clone()).or_insert(Entry {
                count: 0,
                since: now,
                wait_until: now,
                last: now,
            });
            // A quiet window since the last failure forgets the count; failures that keep
            // coming as fast as the waits allow add up to the lock.
            if now.duration_since(e.last) > WINDOW && e.wait_until <= now {
                e.count = 0;
                e.since = now;
            }
            e.count += 1;
            e.last = now;
            e.wait_until = if e.count >= LOCK_AFTER {
                now + LOCK_FOR
            } else if e.count > FREE_FAILURES {
                now + (Duration::from_secs(1) * 2u32.pow(e.count - FREE_FAILURES - 1))
                    .min(MAX_DELAY)
            } else {
                now
            };
        }
    }

    /// Forgets the failures of `key` (a successful login).
    pub fn succeeded(&self, key: &str) {
        self.keys
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }

    /// Counts the creation of an account from `key` (a client address), refusing it with
    /// `too_many_attempts` past the limit in a window.
    pub fn create(&self, key: &str) -> Result<(), ApiError> {
        if self.create_limit == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut table = self.keys.lock().unwrap_or_else(|e| e.into_inner());
        make_room(&mut table, now, 1);
        let e = table.entry(key.to_string()).or_insert(Entry {
            count: 0,
            since: now,
            wait_until: now,
            last: now,
        });
        if now.duration_since(e.since) > CREATE_WINDOW {
            e.count = 0;
            e.since = now;
        }
        e.last = now;
        if e.count >= self.create_limit {
            let wait = (e.since + CREATE_WINDOW).saturating_duration_since(now);
            return Err(ApiError::TooManyAttempts(wait.as_secs().max(1)));
        }
        e.count += 1;
        Ok(())
    }

    /// Keys held now (for tests and metrics).
    pub fn len(&self) -> usize {
        self.keys.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    /// True when no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Keeps the table under [`MAX_KEYS`] with `more` keys to come: drops idle keys, then the least
/// recently seen.
fn make_room(table: &mut HashMap<String, Entry>, now: Instant, more: usize) {
    if table.len() + more <= MAX_KEYS {
        return;
    }
    table.retain(|_, e| e.wait_until > now || now.duration_since(e.last) < LOCK_FOR);
    if table.len() + more > MAX_KEYS {
        let mut by_age: Vec<(Instant, String)> =
            table.iter().map(|(k, e)| (e.last, k.clone())).collect();
        by_age.sort();
        let excess = table.len() + more - MAX_KEYS;
        for (_, k) in by_age.into_iter().take(excess.max(MAX_KEYS / 10)) {
            table.remove(&k);
        }
    }
}

/// The key of an account name.
pub fn account_key(name: &str) -> String {
    format!("user:{}", name.to_lowercase())
}

/// What the log keeps of a name typed at login: a short digest of it (folded), enough to tell
/// that failures are against one name and to check a suspected name (`printf %s name |
/// sha256sum`), never the text itself, which may be a password typed in the wrong field.
pub fn log_name(name: &str) -> String {
    let digest = tengen_app::accounts::token_digest(&name.to_lowercase());
    format!("sha256:{}", &digest[..12])
}

/// The client's address, as the throttle sees it; `None` when the request came without one
/// (in process, through the router directly: nothing to count it against).
pub struct ClientAddr(pub Option<IpAddr>);

impl ClientAddr {
    /// The throttle's key of this address, if there is one.
    pub fn key(&self) -> Option<String> {
        self.0.map(|ip| format!("addr:{ip}"))
    }
}

/// The address as the log writes it: `127.0.0.1`, or `-` when there is none.
impl std::fmt::Display for ClientAddr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(ip) => write!(f, "{ip}"),
            None => f.write_str("-"),
        }
    }
}

impl<S> FromRequestParts<S> for ClientAddr
where
    S: Send + Sync,
    std::sync::Arc<Throttle>: FromRef<S>,
{
    type Rejection = HttpError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<ClientAddr, HttpError> {
        let throttle = std::sync::Arc::<Throttle>::from_ref(state);
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let forwarded = || {
            parts
                .headers
                .get("x-forwarded-for")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.split(',').next())
                .and_then(|v| v.trim().parse::<IpAddr>().ok())
        };
        let ip = match peer {
            Some(p) if throttle.trusted_proxies.contains(&p) => forwarded().or(Some(p)),
            other => other,
        };
        Ok(ClientAddr(ip))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn failures_slow_then_lock_and_time_unlocks() {
        let t = Throttle::default();
        let keys = [account_key("Ann")];
        for _ in 0..FREE_FAILURES {
            t.check(&keys).unwrap();
            t.failed(&keys);
        }
        t.check(&keys).unwrap();
        t.failed(&keys);
        // The fourth failure costs a second.
        assert!(matches!(t.check(&keys), Err(ApiError::TooManyAttempts(1))));
        tokio::time::advance(Duration::from_secs(1)).await;
        t.check(&keys).unwrap();
        // Case does not open a new count.
        assert!(t.check(&[account_key("ANN")]).is_ok());
        for _ in 0..LOCK_AFTER {
            t.failed(&keys);
        }
        let Err(ApiError::TooManyAttempts(wait)) = t.check(&keys) else {
            panic!("locked")
        };
        assert!(wait > 60 && wait <= LOCK_FOR.as_secs(), "{wait}");
        tokio::time::advance(LOCK_FOR).await;
        t.check(&keys).unwrap();
        t.succeeded(&keys[0]);
        assert!(t.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn an_attacker_who_waits_out_each_delay_is_still_locked() {
        let t = Throttle::default();
        let keys = [account_key("bob")];
        for _ in 0..LOCK_AFTER - 1 {
            // Wait exactly as long as asked, then fail again.
            if let Err(ApiError::TooManyAttempts(s)) = t.check(&keys) {
                tokio::time::advance(Duration::from_secs(s)).await;
            }
            t.check(&keys).unwrap();
            t.failed(&keys);
        }
        if let Err(ApiError::TooManyAttempts(s)) = t.check(&keys) {
            tokio::time::advance(Duration::from_secs(s)).await;
        }
        t.failed(&keys);
        let Err(ApiError::TooManyAttempts(wait)) = t.check(&keys) else {
            panic!("locked after {LOCK_AFTER} failures")
        };
        assert!(wait > 5 * 60, "the lock, not a delay: {wait} s");
        // A quiet spell after the lock forgets it all.
        tokio::time::advance(LOCK_FOR + WINDOW + Duration::from_secs(1)).await;
        t.check(&keys).unwrap();
        t.failed(&keys);
        t.check(&keys).unwrap();
    }

    #[tokio::test(start_paused = true)]
    async fn creations_are_limited_per_address() {
        let t = Throttle::default();
        for _ in 0..CREATE_PER_WINDOW {
            t.create("addr:10.0.0.1").unwrap();
        }
        assert!(t.create("addr:10.0.0.1").is_err());
        assert!(t.create("addr:10.0.0.2").is_ok());
        tokio::time::advance(CREATE_WINDOW + Duration::from_secs(1)).await;
        assert!(t.create("addr:10.0.0.1").is_ok());
    }

    #[tokio::test(start_paused = true)]
    async fn the_table_stays_bounded() {
        let t = Throttle::default();
        for i in 0..(MAX_KEYS + 500) {
            t.failed(&[format!("addr:{i}")]);
        }
        assert!(t.len() <= MAX_KEYS, "{}", t.len());
    }
}
