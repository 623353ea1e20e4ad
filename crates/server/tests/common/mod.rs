//! Set-up shared by the actor-level tests (clocks, grace): a fresh SQLite store, two 3k
//! accounts and a live game between them run by its own actor, with no server around it.

#![allow(dead_code, clippy::unwrap_used)]

use std::time::Duration;

use tengen_core::domain::clock::TimeControl;
use tengen_core::game::{LiveGame, Terms};
use tengen_core::player::Player;
use tengen_live::actor::{spawn, GameHandle};
use tengen_store::Store;

/// The URL of a fresh SQLite database in a directory of its own, named after `tag` (unique
/// among the tests of one run) and the process, emptied first.
pub fn sqlite_url(tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tengen-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite:{}", dir.join("t.db").display())
}

/// A fresh schema in the PostgreSQL at `TENGEN_TEST_POSTGRES` (default 127.0.0.1:5432, database
/// `test`), as a URL; `None` (the test skips) when there is none, except in CI, where that fails.
pub async fn postgres_url() -> Option<String> {
    let url = std::env::var("TENGEN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!("g{}_{nanos}", std::process::id());
    match Store::open_raw(&url).await {
        Ok(admin) => {
            admin
                .execute(&format!("CREATE SCHEMA {schema}"))
                .await
                .unwrap();
            let sep = if url.contains('?') { '&' } else { '?' };
            Some(format!("{url}{sep}options=-csearch_path%3D{schema}"))
        }
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("PostgreSQL is required in CI: {e}");
            }
            eprintln!("skipping: no PostgreSQL: {e}");
            None
        }
    }
}

/// HO-SUN terms on a board of side `size`: Japanese rules, komi 6.5, clock `time`.
pub fn terms(size: u8, time: TimeControl) -> Terms {
    Terms {
        size,
        rules: "japanese".into(),
        komi: "6.5".into(),
        handicap: 0,
        take_back: false,
        estimate: false,
        game_type: "ho_sun".into(),
        time,
    }
}

/// A 3k player of a game.
pub fn player(id: i64, name: &str, bot: bool) -> Player {
    Player {
        id,
        username: name.into(),
        rank: "3k".into(),
        guest: false,
        bot,
    }
}

/// A live game: ann (Black) against bob (White), HO-SUN, Japanese rules, komi 6.5.
pub struct ActorGame {
    pub handle: GameHandle,
    pub store: Store,
    pub black: i64,
    pub white: i64,
    pub id: i64,
}

/// Starts a game of side `size` with clock `time` and disconnection grace `grace`, in a
/// database of its own named after `tag` (unique per test).
pub async fn actor_game(tag: &str, size: u8, time: TimeControl, grace: Duration) -> ActorGame {
    actor_game_against(tag, size, time, grace, false).await
}

/// [`actor_game`] with White played by a bot when `white_bot`.
pub async fn actor_game_against(
    tag: &str,
    size: u8,
    time: TimeControl,
    grace: Duration,
    white_bot: bool,
) -> ActorGame {
    let store = Store::open(&sqlite_url(&format!("actor-{tag}")))
        .await
        .unwrap();
    let mut ids = Vec::new();
    for name in ["ann", "bob"] {
        let u = tengen_server::accounts::ensure_bot(&store, name, "3k", "test")
            .await
            .unwrap();
        ids.push(u.id);
    }
    let terms = terms(size, time);
    let id = store
        .start_game(0, ids[0], ids[1], &serde_json::to_string(&terms).unwrap())
        .await
        .unwrap()
        .unwrap();
    let player = |id: i64, name: &str| player(id, name, white_bot && name == "bob");
    let players = [player(ids[0], "ann"), player(ids[1], "bob")];
    let handle = spawn(
        id,
        store.clone(),
        LiveGame::new(terms).unwrap(),
        players,
        Vec::new(),
        grace,
    );
    ActorGame {
        handle,
        store,
        black: ids[0],
        white: ids[1],
        id,
    }
}

/// Lets `d` of paused time pass, then resumes real time (sqlx has timers of its own that paused
/// time would fire early, so the database is only ever awaited in real time).
pub async fn think(d: Duration) {
    tokio::time::pause();
    tokio::time::advance(d).await;
    tokio::time::resume();
}

/// One HTTP request straight into the router (no socket): the status, the `Set-Cookie` header
/// if any, and the body as JSON (or as a JSON string when it is not JSON).
pub async fn http(
    app: &axum::Router,
    method: &str,
    path: &str,
    body: Option<serde_json::Value>,
    token: Option<&str>,
) -> (axum::http::StatusCode, Option<String>, serde_json::Value) {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let mut req = axum::http::Request::builder().method(method).uri(path);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = match body {
        Some(b) => req
            .header("content-type", "application/json")
            .body(axum::body::Body::from(b.to_string())),
        None => req.body(axum::body::Body::empty()),
    }
    .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let cookie = resp
        .headers()
        .get("set-cookie")
        .map(|v| v.to_str().unwrap().to_string());
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let value = serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::String(
        String::from_utf8_lossy(&bytes).into(),
    ));
    (status, cookie, value)
}
