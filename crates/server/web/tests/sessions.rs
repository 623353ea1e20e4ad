//! Sessions that end and credentials that do one thing (issue 38): a session lapses when idle or
//! old (its row goes), a new password ends every session and gives the caller a new one, a
//! player lists their sessions and ends any of them or all at once; a bot's credential plays
//! the bot's games and nothing else.

#![allow(clippy::unwrap_used)]

mod common;

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{body_json, err, ok, TestServer, PASSWORD};
use serde_json::{json, Value};
use sqlx::Row;
use tengen_store::Store;

/// One scenario as `NAME::on_sqlite`, and `NAME::on_postgres`, ignored unless asked for.
macro_rules! on_both_stores {
    ($name:ident, $scenario:ident, $tag:literal) => {
        mod $name {
            #[tokio::test]
            async fn on_sqlite() {
                super::$scenario(&super::common::sqlite_url(concat!("sessions-", $tag))).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
            async fn on_postgres() {
                if let Some(url) = super::common::postgres_url().await {
                    super::$scenario(&url).await;
                }
            }
        }
    };
}

on_both_stores!(
    an_idle_or_old_session_ends_and_its_row_goes,
    expiry,
    "expiry"
);
on_both_stores!(
    a_player_lists_their_sessions_and_ends_one_or_all,
    listing,
    "list"
);
on_both_stores!(
    a_bot_credential_plays_its_games_and_nothing_else,
    bot_credential,
    "bot"
);

/// 2001-09-09, long before any session could still be open.
const LONG_AGO: i64 = 1_000_000_000;

async fn session_rows(store: &Store) -> i64 {
    let row = sqlx::query("SELECT COUNT(*) AS n FROM sessions")
        .fetch_one(store.pool())
        .await
        .unwrap();
    row.try_get("n").unwrap()
}

/// Sets a column of every session of the account called `name`, as time would have.
async fn age_sessions(store: &Store, name: &str, column: &str, at: i64) {
    let sql = format!(
        "UPDATE sessions SET {column} = $1 WHERE user_id = (SELECT id FROM users WHERE username = $2)"
    );
    sqlx::query(&sql)
        .bind(at)
        .bind(name)
        .execute(store.pool())
        .await
        .unwrap();
}

fn code(v: &Value) -> Option<&str> {
    v["error"]["code"].as_str()
}

async fn expiry(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    assert_eq!(session_rows(server.store()).await, 2);
    // Unused since 2001: idle far past 30 days.
    age_sessions(server.store(), "ann", "last_seen", LONG_AGO).await;
    let (status, v) = ann.get("/api/me").await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, Some("unauthorized"))
    );
    assert_eq!(
        session_rows(server.store()).await,
        1,
        "the lapsed row is removed"
    );
    // Used a moment ago but opened in 2001: past the 90 days however busy.
    age_sessions(server.store(), "bob", "created_at", LONG_AGO).await;
    assert_eq!(bob.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(session_rows(server.store()).await, 0);
    // The sweep removes lapsed sessions nobody uses again.
    let cat = server.register("cat", "2d").await;
    server.register("dan", "2d").await;
    age_sessions(server.store(), "dan", "last_seen", LONG_AGO).await;
    let swept = tengen_app::sessions::sweep(server.store()).await.unwrap();
    assert_eq!(swept.len(), 1);
    assert_eq!(cat.get("/api/me").await.0, StatusCode::OK);
    assert_eq!(session_rows(server.store()).await, 1);
}

#[tokio::test]
async fn use_is_written_at_most_every_few_minutes() {
    let server = TestServer::sqlite("sessions-touch").await;
    let ann = server.register("ann", "2d").await;
    let seen = |store: Store| async move {
        let row = sqlx::query("SELECT last_seen FROM sessions")
            .fetch_one(store.pool())
            .await
            .unwrap();
        row.try_get::<i64, _>("last_seen").unwrap()
    };
    let now = tengen_app::sanctions::now();
    // A minute ago: not written again.
    age_sessions(server.store(), "ann", "last_seen", now - 60).await;
    assert_eq!(ann.get("/api/me").await.0, StatusCode::OK);
    assert_eq!(seen(server.store().clone()).await, now - 60);
    // A day ago: written.
    age_sessions(server.store(), "ann", "last_seen", now - 86_400).await;
    assert_eq!(ann.get("/api/me").await.0, StatusCode::OK);
    assert!(seen(server.store().clone()).await >= now);
}

#[tokio::test]
async fn a_new_password_ends_every_session_and_gives_the_caller_a_new_one() {
    let server = TestServer::sqlite("sessions-password").await;
    let ann = server.register("ann", "2d").await;
    let mut own_socket = ann.socket().await;
    let body = json!({"current": PASSWORD, "new": "better-secret"});
    let (status, v) = ann.post("/api/me/password", body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let token = v["token"].as_str().unwrap();
    assert_ne!(token, ann.token);
    // The token that made the change no longer opens anything; the new one does.
    let (status, v) = ann.get("/api/me").await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::UNAUTHORIZED, Some("unauthorized"))
    );
    assert_eq!(own_socket.close_code().await, Some(4001));
    let (status, me) = server.client(token).get("/api/me").await;
    assert_eq!(
        (status, me["username"].as_str()),
        (StatusCode::OK, Some("ann"))
    );
    assert_eq!(session_rows(server.store()).await, 1);
}

/// Logs `name` in with `agent` as its User-Agent: the login's answer.
async fn login_from(server: &TestServer, name: &str, agent: &str) -> Value {
    let req = Request::post("/api/accounts/login")
        .header("content-type", "application/json")
        .header("user-agent", agent)
        .body(Body::from(
            json!({"username": name, "password": PASSWORD}).to_string(),
        ))
        .unwrap();
    let resp = server.oneshot(req).await;
    assert_eq!(resp.status(), StatusCode::OK);
    body_json(resp).await
}

const ANDROID_FIREFOX: &str =
    "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0";

async fn listing(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let phone = server.signed_in(&login_from(&server, "ann", ANDROID_FIREFOX).await);
    let mut phone_socket = phone.socket().await;
    let bob = server.register("bob", "2d").await;
    let (status, v) = ann.get("/api/me/sessions").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let list = v["sessions"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{v}");
    let current: Vec<bool> = list.iter().map(|s| s["current"] == true).collect();
    assert_eq!(current.iter().filter(|c| **c).count(), 1);
    let on_phone = list.iter().find(|s| s["current"] == false).unwrap();
    assert_eq!(on_phone["device"], "Firefox on Android");
    assert!(on_phone["created_at"].as_i64().unwrap() > LONG_AGO);
    assert!(on_phone["last_seen"].as_i64().is_some());
    let id = on_phone["id"].as_str().unwrap();
    // Only one's own: bob cannot end ann's session.
    let (status, v) = bob.delete(&format!("/api/me/sessions/{id}")).await;
    assert_eq!(
        (status, code(&v)),
        (StatusCode::NOT_FOUND, Some("not_found"))
    );
    assert_eq!(phone.get("/api/me").await.0, StatusCode::OK);
    let (status, _) = ann.delete(&format!("/api/me/sessions/{id}")).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert_eq!(phone.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(phone_socket.close_code().await, Some(4001));
    // Log out everywhere: this session too, and the cookie is cleared.
    let again = server.signed_in(&login_from(&server, "ann", ANDROID_FIREFOX).await);
    let (status, cookie, _) = common::http(
        &server.app,
        "DELETE",
        "/api/me/sessions",
        None,
        Some(&ann.token),
    )
    .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    assert!(cookie.unwrap().contains("Max-Age=0"));
    assert_eq!(ann.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(again.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        bob.get("/api/me").await.0,
        StatusCode::OK,
        "others keep theirs"
    );
}

/// A remote bot's account with its password, as `tengen admin bot-password` makes it.
async fn remote_bot(server: &TestServer, name: &str) -> String {
    let store = server.store();
    tengen_app::accounts::ensure_bot(store, name, "5k".parse().unwrap(), "remote")
        .await
        .unwrap();
    let (_, password) = tengen_app::accounts::new_bot_password(store, name)
        .await
        .unwrap();
    password
}

async fn bot_credential(url: &str) {
    let robo_spec = tengen_app::bots::parse_spec("robo@5k=remote").unwrap();
    let server = TestServer::start_with(url, Duration::from_secs(30), vec![robo_spec]).await;
    let password = remote_bot(&server, "robo").await;
    let (status, signed) = server
        .post(
            "/api/accounts/login",
            json!({"username": "robo", "password": password}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{signed}");
    let robo = server.signed_in(&signed);
    // What its engine needs: who it is, its games, the socket.
    assert_eq!(robo.get("/api/me").await.0, StatusCode::OK);
    assert_eq!(robo.get("/api/users/robo/games").await.0, StatusCode::OK);
    let mut socket = robo.socket().await;
    // Player routes refuse it.
    let refused: [(&str, &str, Option<Value>); 9] = [
        (
            "POST",
            "/api/rooms",
            Some(json!({"size": 9, "rules": "japanese"})),
        ),
        (
            "POST",
            "/api/messages",
            Some(json!({"to": "ann", "text": "hi"})),
        ),
        (
            "POST",
            "/api/reports",
            Some(json!({"user": "ann", "reason": "x"})),
        ),
        (
            "POST",
            "/api/tournaments",
            Some(json!({"name": "Bot cup", "system": "swiss"})),
        ),
        (
            "POST",
            "/api/match",
            Some(json!({"speed": "blitz", "sizes": [9]})),
        ),
        ("POST", "/api/reviews", Some(json!({"title": "x"}))),
        ("POST", "/api/me/friends", Some(json!({"user": "ann"}))),
        ("POST", "/api/bots/tengen-bot/play", Some(json!({}))),
        ("GET", "/api/me/sessions", None),
    ];
    for (method, path, body) in refused {
        let (status, v) = robo.send(method, path, body).await;
        assert_eq!(
            (status, code(&v)),
            (StatusCode::FORBIDDEN, Some("bot_account")),
            "{method} {path}: {v}"
        );
    }
    err(
        &socket
            .call(json!({"type": "lobby_chat", "text": "hello"}))
            .await,
        "bot_account",
    );
    err(
        &socket
            .call(json!({"type": "match", "speed": "blitz", "sizes": [9]}))
            .await,
        "bot_account",
    );
    // Its own games it plays, and says its manners in them.
    let ann = server.register("ann", "2d").await;
    let (status, started) = ann
        .post("/api/bots/robo/play", json!({"size": 9, "color": "black"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    let own = started["game_id"].as_i64().unwrap();
    socket.watch(own).await;
    let mut ann_socket = ann.socket().await;
    ann_socket.watch(own).await;
    ok(&ann_socket.play(own, "C3").await);
    ok(&socket.play(own, "G7").await);
    ok(&socket.chat(own, "have a nice game").await);
    // In a game it does not play it says nothing.
    let bob = server.register("bob", "2d").await;
    let j = server
        .new_game(
            &ann,
            &bob,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let game = j["game_id"].as_i64().unwrap();
    socket.watch(game).await;
    err(&socket.chat(game, "gg").await, "bot_account");
    // The operator may let bots act as players.
    let mut state = server.state.clone();
    state.services.bots_as_players = true;
    let open = TestServer::serve(state).await;
    let (status, v) = open
        .client(&robo.token)
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
}
