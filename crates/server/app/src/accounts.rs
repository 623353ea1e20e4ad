//! Accounts: registration with a declared rank, passwords hashed with argon2id, sessions by
//! random token (sent as a cookie for browsers, or as a bearer token for scripts and bots), and
//! guests at 18 kyu (seed 002).
//!
//! Names are unique without regard to case (`ALICE` cannot register beside `alice`) and to
//! lookalike letters (`aIice` neither: `tengen_core::names`); passwords are judged by zxcvbn
//! (common ones, words and patterns refused: [`check_password`]); a
//! professional rank is given by the operator only (`tengen admin set-rank`); a login takes an
//! argon2 verification whether the name exists or not, so that timing does not tell which
//! names do; the database keeps only a SHA-256 digest of each session token.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::Argon2;

use crate::error::ApiError;
pub use crate::sessions::Device;
use crate::user::new_token;
pub use crate::user::{token_digest, User};
use tengen_core::domain::promotion::Standing;
use tengen_core::domain::rank::{Rank, GUEST_RANK};
use tengen_store::accounts::NewUser;
use tengen_store::Store;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn valid_username(name: &str) -> bool {
    (3..=20).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_alphabetic())
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// A hash to verify against when the name is unknown: a login then costs the same either way.
fn decoy_hash() -> &'static str {
    static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DECOY.get_or_init(|| {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(new_token().as_bytes(), &salt)
            .map(|h| h.to_string())
            .unwrap_or_default()
    })
}

/// Whether `username` begins as only the server's own accounts may: kept for guests, for
/// deleted accounts' games, and for the built-in bots (a later version may add one: a player
/// already holding its name would keep the bot out). Any case.
pub fn reserved(username: &str) -> bool {
    let folded = username.to_ascii_lowercase();
    ["guest", "deleted", "tengen"]
        .iter()
        .any(|k| folded.starts_with(k))
}

/// Registers `username` with `password` at the declared `rank`; returns the account and a
/// session token.
pub async fn register(
    store: &Store,
    username: &str,
    password: &str,
    rank: &str,
    device: &Device,
) -> Result<(User, String), ApiError> {
    if !valid_username(username) || reserved(username) {
        return Err(ApiError::InvalidUsername);
    }
    check_password(password, username)?;
    let rank: Rank = rank
        .parse()
        .map_err(|e: tengen_core::domain::rank::RankError| ApiError::InvalidRank(e.to_string()))?;
    if matches!(rank, Rank::Pro(_)) {
        return Err(ApiError::InvalidRank(
            "professional ranks are given by the server's operator (tengen admin set-rank); \
             register with an amateur rank"
                .into(),
        ));
    }
    let hash = hash_password(password).await?;
    let standing = Standing::new(rank);
    if store.username_taken(username).await? {
        return Err(ApiError::UsernameTaken);
    }
    if store.name_key_taken(username).await? {
        return Err(ApiError::ConfusableName);
    }
    let rank = rank.to_string();
    let inserted = store
        .insert_user(NewUser {
            username,
            password_hash: Some(&hash),
            rank: &rank,
            points: standing.points as i64,
            guest: false,
            bot: None,
            created_at: now(),
        })
        .await?;
    if !inserted {
        // Two registrations racing for one name (in any case): the unique indexes decided.
        return Err(ApiError::UsernameTaken);
    }
    let user = by_name(store, username)
        .await?
        .ok_or(ApiError::Internal("user vanished".into()))?;
    let token = crate::sessions::open(store, &user, device).await?;
    Ok((user, token))
}

/// The least zxcvbn score a chosen password needs: 2 is "somewhat guessable", safe behind
/// the login throttle and argon2id; 0 and 1 are the common passwords, words, keyboard runs and
/// repeats (`123456`, `password`, `qwerty123`, six spaces) that are tried first.
const MIN_PASSWORD_SCORE: zxcvbn::Score = zxcvbn::Score::Two;

/// Refuses a password a person chose (at registration, or changing it) that is too short, too
/// long, or easy to guess, the account's `name` counted as known to the guesser
/// (`weak_password`).
pub fn check_password(password: &str, name: &str) -> Result<(), ApiError> {
    if !(6..=200).contains(&password.chars().count()) {
        return Err(ApiError::WeakPassword);
    }
    // zxcvbn's time grows with the length; a long password is strong by its length alone.
    let judged: String = password.chars().take(64).collect();
    if zxcvbn::zxcvbn(&judged, &[name]).score() < MIN_PASSWORD_SCORE {
        return Err(ApiError::WeakPassword);
    }
    Ok(())
}

/// `password`'s argon2id hash, once it is long enough (`weak_password`).
pub async fn hash_password(password: &str) -> Result<String, ApiError> {
    if !(6..=200).contains(&password.chars().count()) {
        return Err(ApiError::WeakPassword);
    }
    let password = password.to_string();
    // argon2id takes tens of milliseconds on purpose: keep it off the async executor.
    tokio::task::spawn_blocking(move || {
        let salt = SaltString::generate(&mut OsRng);
        Argon2::default()
            .hash_password(password.as_bytes(), &salt)
            .map(|h| h.to_string())
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
    .map_err(|e| ApiError::Internal(e.to_string()))
}

/// A new password for the bot `name`, so that its engine can sign in from another machine
/// (`tengen bot --server`): 24 random bytes in hex, returned once and kept only as a hash. Any
/// session the bot had ends (an old password's holder is signed out).
pub async fn new_bot_password(store: &Store, name: &str) -> Result<(User, String), ApiError> {
    let user = named(store, name).await?;
    if !user.bot {
        return Err(ApiError::Rejected(
            "not_a_bot",
            format!("{name} is a player, not a bot"),
        ));
    }
    let mut bytes = [0u8; 24];
    OsRng.fill_bytes(&mut bytes);
    let password: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    let hash = hash_password(&password).await?;
    store.set_password(user.id, &hash, None).await?;
    Ok((user, password))
}

/// Whether `password` is `user`'s (never for guests and bots, who have none).
pub async fn password_is(store: &Store, user: &User, password: &str) -> Result<bool, ApiError> {
    let Some((_, Some(hash))) = store.password_of(&user.username).await? else {
        return Ok(false);
    };
    let password = password.to_string();
    tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash).is_ok_and(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))
}

/// Checks a password and opens a session.
pub async fn login(
    store: &Store,
    username: &str,
    password: &str,
    device: &Device,
) -> Result<(User, String), ApiError> {
    let account = match store.password_of(username).await? {
        Some((id, hash)) => hash.map(|h| (id, h)),
        None => None,
    };
    // An unknown name is verified against a decoy, so it takes as long as a wrong password.
    let (id, hash) = match account {
        Some((id, h)) => (Some(id), h),
        None => (None, decoy_hash().to_string()),
    };
    let password = password.to_string();
    let verified = tokio::task::spawn_blocking(move || {
        PasswordHash::new(&hash)
            .map(|h| {
                Argon2::default()
                    .verify_password(password.as_bytes(), &h)
                    .is_ok()
            })
            .unwrap_or(false)
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?;
    let (true, Some(id)) = (verified, id) else {
        return Err(ApiError::BadCredentials);
    };
    // Checked after the password, so that a ban tells nothing to whoever guesses names.
    let row = store
        .user_by_id(id)
        .await?
        .ok_or(ApiError::BadCredentials)?;
    crate::sanctions::check_not_banned(&row.sanctions)?;
    let user = User::from(row);
    // A bot's session may only play its games (`sessions::require_player`).
    let token = crate::sessions::open(store, &user, device).await?;
    Ok((user, token))
}

/// Creates a guest account at 18 kyu with a session.
pub async fn guest(store: &Store, device: &Device) -> Result<(User, String), ApiError> {
    for _ in 0..5 {
        let mut b = [0u8; 3];
        OsRng.fill_bytes(&mut b);
        let name = format!("guest-{:02x}{:02x}{:02x}", b[0], b[1], b[2]);
        let inserted = store
            .insert_user(NewUser {
                username: &name,
                password_hash: None,
                rank: &GUEST_RANK.to_string(),
                points: tengen_core::domain::promotion::START as i64,
                guest: true,
                bot: None,
                created_at: now(),
            })
            .await?;
        // A name another guest has: draw again.
        if inserted {
            let user = by_name(store, &name)
                .await?
                .ok_or(ApiError::Internal("guest vanished".into()))?;
            let token = crate::sessions::open(store, &user, device).await?;
            return Ok((user, token));
        }
    }
    Err(ApiError::Internal("could not pick a guest name".into()))
}

/// Ends a session.
pub async fn logout(store: &Store, token: &str) -> Result<(), ApiError> {
    Ok(store.delete_session(&token_digest(token)).await?)
}

/// Whether the session whose token has this digest is still open (not logged out).
pub async fn session_open(store: &Store, digest: &str) -> Result<bool, ApiError> {
    Ok(store.session_exists(digest).await?)
}

/// The account a session token belongs to, if the session is open (expiry:
/// [`crate::sessions`]).
pub async fn by_token(store: &Store, token: &str) -> Result<Option<User>, ApiError> {
    Ok(crate::sessions::by_token(store, token)
        .await?
        .map(|s| s.user))
}

/// Sets the rank of the account called `name` (any rank, professional ones included: this is
/// the operator's tool, `tengen admin set-rank`), with the points a new player of that rank
/// starts with. Returns the account as it now stands.
pub async fn set_rank(store: &Store, name: &str, rank: &str) -> Result<User, ApiError> {
    let rank: Rank = rank
        .parse()
        .map_err(|e: tengen_core::domain::rank::RankError| ApiError::InvalidRank(e.to_string()))?;
    let standing = Standing::new(rank);
    let found = store
        .set_rank(name, &rank.to_string(), standing.points as i64)
        .await?;
    if !found {
        return Err(ApiError::NotFound);
    }
    by_name(store, name).await?.ok_or(ApiError::NotFound)
}

/// The account with this name.
pub async fn by_name(store: &Store, name: &str) -> Result<Option<User>, ApiError> {
    Ok(store.user_by_name(name).await?.map(User::from))
}

/// The account with this name, or `not_found`.
pub async fn named(store: &Store, name: &str) -> Result<User, ApiError> {
    by_name(store, name).await?.ok_or(ApiError::NotFound)
}

/// The account with this id.
pub async fn by_id(store: &Store, id: i64) -> Result<Option<User>, ApiError> {
    Ok(store.user_by_id(id).await?.map(User::from))
}

/// Creates the account of a bot if it does not exist yet; returns it.
pub async fn ensure_bot(
    store: &Store,
    name: &str,
    rank: Rank,
    kind: &str,
) -> Result<User, ApiError> {
    if let Some(u) = by_name(store, name).await? {
        if !u.bot {
            return Err(ApiError::Conflict(
                "username_taken",
                format!("a player is already called {name}"),
            ));
        }
        if u.rank == rank {
            return Ok(u);
        }
        // The configured rank is the bot's declared one (the built-in bots' follow their
        // measured strength, which a new version may move).
        store.set_bot_rank(u.id, rank).await?;
        return Ok(User { rank, ..u });
    }
    let inserted = store
        .insert_user(NewUser {
            username: name,
            password_hash: None,
            rank: &rank.to_string(),
            points: tengen_core::domain::promotion::START as i64,
            guest: false,
            bot: Some(kind),
            created_at: now(),
        })
        .await;
    // Nodes of a cluster starting together: one of them creates it, the others find it.
    match (inserted, by_name(store, name).await?) {
        (_, Some(u)) if u.bot => Ok(u),
        (Err(e), _) => Err(e.into()),
        // Refused, and no bot of that name: a player holds it in another case, or a name
        // that reads the same (`name_key`).
        (Ok(false), _) => Err(ApiError::Conflict(
            "username_taken",
            format!("a player holds a name like {name}"),
        )),
        (Ok(true), _) => Err(ApiError::Internal("bot vanished".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::{check_password, valid_username};

    #[test]
    fn guessable_passwords_are_refused() {
        for weak in [
            "123456",
            "      ",
            "password",
            "qwerty123",
            "secret1",
            "aaaaaaaaaa",
            "alice2024",
            "12345",
        ] {
            assert!(check_password(weak, "alice").is_err(), "{weak:?}");
        }
        for strong in ["heron-violet-42", "correct horse battery", "tZ8#qv!2Lm"] {
            assert!(check_password(strong, "alice").is_ok(), "{strong:?}");
        }
    }

    #[test]
    fn usernames() {
        for ok in ["ann", "Bo_Go", "player-1", "a2345678901234567890"] {
            assert!(valid_username(ok), "{ok}");
        }
        for bad in [
            "",
            "ab",
            "1abc",
            "a b",
            "é_x",
            "a23456789012345678901",
            "x;drop",
        ] {
            assert!(!valid_username(bad), "{bad}");
        }
    }
}
