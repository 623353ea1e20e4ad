//! Moderation: every moderation route refuses anyone but moderators and admins; bans, mutes and
//! suspensions take effect at once (sockets closed, sessions and logins refused, rooms closed,
//! games resigned, chat and new games refused) and are told to the player; annulled games count
//! no more for ratings and promotion points; reports reach the moderators' queue with their
//! context; every action is in the audit log. Each scenario runs on SQLite, and on PostgreSQL
//! where it runs.

#![allow(clippy::unwrap_used)]

mod common;

use axum::http::StatusCode;
use common::{err, ok, Client, TestServer, PASSWORD};
use serde_json::{json, Value};

/// One scenario as `NAME::on_sqlite`, and `NAME::on_postgres`, ignored unless asked for
/// (`.ci/run` runs it, and under `CI=true` a missing server fails it).
macro_rules! on_both_stores {
    ($name:ident, $scenario:ident, $tag:literal) => {
        mod $name {
            #[tokio::test]
            async fn on_sqlite() {
                super::$scenario(&super::common::sqlite_url(concat!("moderation-", $tag))).await;
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

on_both_stores!(routes_refuse_non_moderators, routes_and_roles, "routes");
on_both_stores!(a_ban_ends_everything_at_once, ban, "ban");
on_both_stores!(
    a_lagging_socket_still_gets_its_pairing_its_message_and_its_ban,
    lagging_socket,
    "lagging"
);
on_both_stores!(
    mutes_and_suspensions_refuse_chat_and_games,
    mute_and_suspend,
    "mute"
);
on_both_stores!(
    a_suspension_means_the_same_everywhere,
    suspension_everywhere,
    "suspend-everywhere"
);
on_both_stores!(annulled_games_count_no_more, annulment, "annul");
on_both_stores!(reports_reach_the_queue_with_context, reports, "reports");
on_both_stores!(hidden_chat_lines_go_for_every_watcher, hide_chat, "hide");

/// Registers `name` and gives them `role`.
async fn with_role(server: &TestServer, name: &str, role: &str) -> Client {
    let c = server.register(name, "2d").await;
    tengen_app::moderation::set_role(server.store(), name, role)
        .await
        .unwrap();
    c
}

/// A 9x9 game between `a` and `b`; its id and the players, Black first.
async fn game(server: &TestServer, a: &Client, b: &Client) -> (i64, [Client; 2]) {
    let j = server
        .new_game(
            a,
            b,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let id = j["game_id"].as_i64().unwrap();
    if j["game"]["black"]["username"] == a.user["username"] {
        (id, [a.clone(), b.clone()])
    } else {
        (id, [b.clone(), a.clone()])
    }
}

/// Every moderation route, with a body a moderator's request would carry.
fn routes() -> Vec<(&'static str, &'static str, Option<Value>)> {
    vec![
        (
            "POST",
            "/api/moderation/actions",
            Some(json!({"user": "target", "action": "warn", "reason": "be nice"})),
        ),
        (
            "POST",
            "/api/moderation/games/1/annul",
            Some(json!({"reason": "sandbagging"})),
        ),
        (
            "POST",
            "/api/moderation/games/1/chat/1/hide",
            Some(json!({"reason": "insult"})),
        ),
        ("GET", "/api/moderation/log", None),
        ("GET", "/api/moderation/reports", None),
        (
            "POST",
            "/api/moderation/reports/1/resolve",
            Some(json!({"note": "dealt with"})),
        ),
    ]
}

async fn routes_and_roles(url: &str) {
    let server = TestServer::start(url).await;
    let player = server.register("player", "2d").await;
    let guest = server.guest().await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let admin = with_role(&server, "admin", "admin").await;
    server.register("target", "2d").await;
    for (method, path, body) in routes() {
        let (status, _) = server.send(method, path, body.clone()).await;
        assert_eq!(
            status,
            StatusCode::UNAUTHORIZED,
            "{method} {path} anonymous"
        );
        for (who, c) in [("player", &player), ("guest", &guest)] {
            // A body that does not parse is refused as the player's, not as a bad request.
            for body in [body.clone(), body.as_ref().map(|_| json!({"junk": 1}))] {
                let (status, v) = c.send(method, path, body).await;
                assert_eq!(
                    status,
                    StatusCode::FORBIDDEN,
                    "{method} {path} as {who}: {v}"
                );
                assert_eq!(v["error"]["code"], "not_moderator", "{method} {path}");
            }
        }
        for (who, c) in [("moderator", &moderator), ("admin", &admin)] {
            let (status, v) = c.send(method, path, body.clone()).await;
            assert!(
                status != StatusCode::FORBIDDEN && status != StatusCode::UNAUTHORIZED,
                "{method} {path} as {who}: {status} {v}"
            );
        }
    }
    // Roles: a moderator may not act on a moderator or an admin, an admin may on a moderator.
    let warn = |user: &str| json!({"user": user, "action": "warn", "reason": "a word"});
    let (status, v) = moderator
        .post("/api/moderation/actions", warn("admin"))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("outranked"))
    );
    let (status, _) = admin.post("/api/moderation/actions", warn("moder")).await;
    assert_eq!(status, StatusCode::CREATED);
    // Bad actions are refused with their codes, and change nothing.
    for (body, code) in [
        (
            json!({"user": "target", "action": "suspend", "reason": "r"}),
            "until_required",
        ),
        (
            json!({"user": "target", "action": "ban", "until": 1, "reason": "r"}),
            "until_past",
        ),
        (
            json!({"user": "target", "action": "warn", "reason": "  "}),
            "bad_reason",
        ),
        (
            json!({"user": "target", "action": "smite", "reason": "r"}),
            "bad_request",
        ),
    ] {
        let (status, v) = moderator.post("/api/moderation/actions", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
        assert_eq!(v["error"]["code"], code);
    }
    let (status, _) = moderator
        .post("/api/moderation/actions", warn("nobody"))
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // The roles show on the accounts.
    assert_eq!(moderator.get("/api/me").await.1["role"], "moderator");
    assert_eq!(player.get("/api/me").await.1["role"], "player");
}

async fn ban(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let (id, _) = game(&server, &ann, &bob).await;
    let (status, room) = ann
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{room}");
    let mut socket = ann.socket().await;
    let (status, v) = moderator
        .post(
            "/api/moderation/actions",
            json!({"user": "ann", "action": "ban", "reason": "insults in chat"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    // Told, then the socket closes.
    let told = socket.next_of_type("moderation").await;
    assert_eq!(
        (told["action"].as_str(), told["reason"].as_str()),
        (Some("ban"), Some("insults in chat"))
    );
    assert_eq!(socket.close_code().await, Some(4003));
    // The game is resigned, the room closed, the token and the next login refused.
    let g = server.game(id).await;
    assert_eq!(
        (g["phase"].as_str(), g["end_reason"].as_str()),
        (Some("finished"), Some("resign")),
        "{g}"
    );
    assert_eq!(
        server.get(&format!("/api/rooms/{}", room["id"])).await.1["status"],
        "cancelled"
    );
    assert_eq!(ann.get("/api/me").await.0, StatusCode::UNAUTHORIZED);
    assert!(
        ann.try_connect().await.is_err(),
        "no socket for a banned player"
    );
    let login = json!({"username": "ann", "password": PASSWORD});
    let (status, v) = server.post("/api/accounts/login", login.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(v["error"]["code"], "banned");
    // Unbanned: she logs in again.
    let (status, _) = moderator
        .post(
            "/api/moderation/actions",
            json!({"user": "ann", "action": "unban", "reason": "appeal heard"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        server.post("/api/accounts/login", login).await.0,
        StatusCode::OK
    );
    // The audit log: who, what, whom, when, why, newest first.
    let (_, log) = moderator.get("/api/moderation/log").await;
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(entries[0]["action"], "unban");
    assert_eq!(entries[1]["action"], "ban");
    assert_eq!(entries[1]["moderator"], "moder");
    assert_eq!(entries[1]["user"], "ann");
    assert_eq!(entries[1]["reason"], "insults in chat");
    assert!(entries[1]["at"].as_i64().unwrap() > 0);
}

async fn mute_and_suspend(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let (id, _) = game(&server, &ann, &bob).await;
    let mut socket = bob.socket().await;
    socket.watch(id).await;
    ok(&socket.chat(id, "hello").await);
    let act = |action: &str, until: Option<i64>| {
        let mut b = json!({"user": "bob", "action": action, "reason": "calm down"});
        if let Some(t) = until {
            b["until"] = json!(t);
        }
        b
    };
    let later = tengen_app::sanctions::now() + 3600;
    let (status, _) = moderator
        .post("/api/moderation/actions", act("warn", None))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(socket.next_of_type("moderation").await["action"], "warn");
    let (status, _) = moderator
        .post("/api/moderation/actions", act("mute", Some(later)))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(socket.next_of_type("moderation").await["action"], "mute");
    err(&socket.chat(id, "still here").await, "muted");
    // Moves go on: a mute stops chat only.
    let (status, _) = moderator
        .post("/api/moderation/actions", act("suspend", Some(later)))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, v) = bob
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("suspended"))
    );
    let (status, v) = bob
        .post("/api/match", json!({"speed": "blitz", "sizes": [9]}))
        .await;
    assert_eq!(v["error"]["code"], "suspended", "{status} {v}");
    let (status, v) = bob.post("/api/bots/tengen-bot/play", json!({})).await;
    assert_eq!(v["error"]["code"], "suspended", "{status} {v}");
    let (_, room) = ann
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    let (status, v) = bob
        .post(&format!("/api/rooms/{}/join", room["id"]), json!({}))
        .await;
    assert_eq!(v["error"]["code"], "suspended", "{status} {v}");
    // The player reads what was done and why in their account.
    let (_, mine) = bob.get("/api/me/moderation").await;
    assert_eq!(mine["sanctions"]["muted_until"], later);
    assert_eq!(mine["sanctions"]["suspended_until"], later);
    let actions: Vec<&str> = mine["actions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["action"].as_str().unwrap())
        .collect();
    assert_eq!(actions, ["suspend", "mute", "warn"]);
    // Lifted: chat and games again.
    moderator
        .post("/api/moderation/actions", act("unban", None))
        .await;
    ok(&socket.chat(id, "sorry").await);
    let (status, _) = bob
        .post("/api/rooms", json!({"size": 9, "rules": "japanese"}))
        .await;
    assert_eq!(status, StatusCode::CREATED);
}

/// Plays `game` to its end: three moves each (fewer and fair play annuls the game by
/// itself), then `loser` resigns. `players` are Black and White.
async fn resign(id: i64, players: &[Client; 2], loser: &Client) {
    let (mut b, mut w) = (players[0].socket().await, players[1].socket().await);
    for (at_b, at_w) in [("C3", "G7"), ("C4", "G6"), ("C5", "G5")] {
        ok(&b.play(id, at_b).await);
        ok(&w.play(id, at_w).await);
    }
    let s = if loser.user["username"] == players[0].user["username"] {
        &mut b
    } else {
        &mut w
    };
    ok(&s.resign(id).await);
}

/// The account as `/api/users/NAME` shows it.
async fn account(server: &TestServer, name: &str) -> Value {
    server.get(&format!("/api/users/{name}")).await.1
}

async fn annulment(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    // Ann loses the first game and wins the second.
    let (first, first_players) = game(&server, &ann, &bob).await;
    resign(first, &first_players, &ann).await;
    let (second, [black, white]) = game(&server, &ann, &bob).await;
    resign(second, &[black.clone(), white.clone()], &bob).await;
    assert_eq!(account(&server, "ann").await["points"], 50);
    let (status, v) = moderator
        .post(
            &format!("/api/moderation/games/{first}/annul"),
            json!({"reason": "a sandbagger's game"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["points_recomputed"], true);
    // As if only the second game had been played: Ann one win up, Bob one loss down, and their
    // ratings those of a fresh pair after one game with the same colours and result.
    let (ann_now, bob_now) = (account(&server, "ann").await, account(&server, "bob").await);
    assert_eq!(
        (ann_now["points"].as_i64(), bob_now["points"].as_i64()),
        (Some(55), Some(45))
    );
    let fresh = TestServer::start(&common::sqlite_url(&format!("annul-fresh-{}", url.len()))).await;
    let a2 = fresh.register("ann", "2d").await;
    let b2 = fresh.register("bob", "2d").await;
    let (g, fresh_players) = game(&fresh, &a2, &b2).await;
    let fb = &fresh_players[0];
    assert_eq!(
        fb.user["username"], black.user["username"],
        "the same colours"
    );
    resign(g, &fresh_players, &b2).await;
    for name in ["ann", "bob"] {
        let (a, b) = (account(&server, name).await, account(&fresh, name).await);
        assert_eq!(
            (&a["rating"], &a["deviation"]),
            (&b["rating"], &b["deviation"]),
            "{name}"
        );
    }
    let (_, history) = server.get("/api/users/ann/ratings").await;
    assert_eq!(history["history"].as_array().unwrap().len(), 1, "{history}");
    assert_eq!(history["history"][0]["game_id"], second);
    // Once only; a live game is not annulled.
    let again = moderator
        .post(
            &format!("/api/moderation/games/{first}/annul"),
            json!({"reason": "twice"}),
        )
        .await;
    assert_eq!(again.1["error"]["code"], "already_annulled");
    let (live, _) = game(&server, &ann, &bob).await;
    let on_live = moderator
        .post(
            &format!("/api/moderation/games/{live}/annul"),
            json!({"reason": "early"}),
        )
        .await;
    assert_eq!(on_live.1["error"]["code"], "game_not_finished");
    // The record counts the games that count.
    let (_, record) = server.get("/api/users/ann/record").await;
    assert_eq!(record["record"]["total"]["wins"], 1, "{record}");
    assert_eq!(record["record"]["total"]["losses"], 0, "{record}");
    drop(white);
}

async fn reports(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let (id, _) = game(&server, &ann, &bob).await;
    let mut socket = ann.socket().await;
    socket.watch(id).await;
    let said = socket.chat(id, "you are terrible").await;
    let seq = said["seq"].as_i64().unwrap();
    let (status, v) = bob
        .post(
            "/api/reports",
            json!({"user": "ann", "game": id, "chat": seq, "reason": "insult"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let report = v["id"].as_i64().unwrap();
    // A report names someone else, and a chat line they wrote.
    let (status, v) = bob
        .post("/api/reports", json!({"user": "bob", "reason": "me"}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("report_self"))
    );
    let (_, v) = ann
        .post(
            "/api/reports",
            json!({"user": "bob", "game": id, "chat": seq, "reason": "x"}),
        )
        .await;
    assert_eq!(v["error"]["code"], "bad_report");
    // The queue, with the chat line in its conversation and the player's games.
    let (_, q) = moderator.get("/api/moderation/reports").await;
    let r = &q["reports"][0];
    assert_eq!(
        (r["id"].as_i64(), r["user"].as_str(), r["reporter"].as_str()),
        (Some(report), Some("ann"), Some("bob"))
    );
    assert_eq!(r["context"]["chat"][0]["text"], "you are terrible");
    assert_eq!(r["context"]["game"]["id"], id);
    assert_eq!(r["context"]["recent_games"][0]["id"], id);
    assert_eq!(r["context"]["escapes"], 0);
    let path = format!("/api/moderation/reports/{report}/resolve");
    let (status, _) = moderator.post(&path, json!({"note": "warned her"})).await;
    assert_eq!(status, StatusCode::OK);
    let (status, v) = moderator.post(&path, json!({"note": "again"})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("report_resolved"))
    );
    assert!(moderator.get("/api/moderation/reports").await.1["reports"]
        .as_array()
        .unwrap()
        .is_empty());
    let (_, all) = moderator.get("/api/moderation/reports?all=true").await;
    assert_eq!(all["reports"][0]["note"], "warned her");
    assert_eq!(all["reports"][0]["resolved_by"], "moder");
    let (_, log) = moderator.get("/api/moderation/log").await;
    assert_eq!(log["entries"][0]["action"], "resolve_report");
}

async fn hide_chat(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let (id, _) = game(&server, &ann, &bob).await;
    let mut socket = ann.socket().await;
    socket.watch(id).await;
    let seq = socket.chat(id, "you are terrible").await["seq"]
        .as_u64()
        .unwrap();
    ok(&socket.chat(id, "good game").await);
    let mut watcher = bob.socket().await;
    watcher.watch(id).await;
    let path = format!("/api/moderation/games/{id}/chat/{seq}/hide");
    let (status, v) = moderator.post(&path, json!({"reason": "insult"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The watchers see it go.
    let hidden = watcher.event(id, "chat_hidden").await;
    assert_eq!(hidden["event"]["seq"], seq);
    // A watcher from the start reads the line without its text, the other line as it was.
    let mut late = server.guest().await.socket().await;
    late.send(json!({"type": "watch", "game": id, "since": 0}))
        .await;
    let mut lines = Vec::new();
    while lines.len() < 2 {
        let m = late.next_of_type("event").await;
        if m["event"]["type"] == "chat" {
            lines.push(m["event"]["text"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(lines, ["", "good game"]);
    let stored = server.store().events(id).await.unwrap();
    assert!(
        !stored.iter().any(|e| e.event.contains("terrible")),
        "gone from the log"
    );
    // Once; only chat lines.
    let (status, v) = moderator.post(&path, json!({"reason": "again"})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("chat_hidden"))
    );
    let (_, v) = moderator
        .post(
            &format!("/api/moderation/games/{id}/chat/{}/hide", seq + 100),
            json!({"reason": "x"}),
        )
        .await;
    assert_eq!(v["error"]["code"], "not_a_chat_line");
    let (_, log) = moderator.get("/api/moderation/log").await;
    assert_eq!(log["entries"][0]["action"], "hide_chat");
    assert_eq!(log["entries"][0]["user"], "ann");
    assert_eq!(log["entries"][0]["game"], id);
}

#[tokio::test]
async fn until_is_seconds_or_an_rfc_3339_time() {
    let server = TestServer::sqlite("moderation-until").await;
    let moderator = with_role(&server, "moder", "moderator").await;
    server.register("bob", "2d").await;
    let mute =
        |until: Value| json!({"user": "bob", "action": "mute", "until": until, "reason": "calm"});
    let (status, v) = moderator
        .post(
            "/api/moderation/actions",
            mute(json!("2999-01-01T00:00:00Z")),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(v["until"], 32_472_144_000_i64);
    let (status, v) = moderator
        .post("/api/moderation/actions", mute(json!("soon")))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_request")),
        "{v}"
    );
}

/// A suspended player plays out their games and reads, but takes part in nothing new: no
/// tournament organised or entered, no private message, no line in any chat.
async fn suspension_everywhere(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let (game_id, players) = game(&server, &ann, &bob).await;
    let (_, cup) = ann
        .post(
            "/api/tournaments",
            json!({"name": "Cup", "system": "swiss"}),
        )
        .await;
    let (_, review) = ann
        .post("/api/reviews", json!({"sgf": "(;GM[1]FF[4]SZ[9];B[ee])"}))
        .await;
    let mut socket = bob.socket().await;
    socket.watch(game_id).await;
    let later = tengen_app::sanctions::now() + 3600;
    let body = json!({"user": "bob", "action": "suspend", "until": later, "reason": "r"});
    let (status, _) = moderator.post("/api/moderation/actions", body).await;
    assert_eq!(status, StatusCode::CREATED);
    let refused = [
        (
            "/api/tournaments".to_string(),
            json!({"name": "Mine", "system": "swiss"}),
        ),
        (
            format!("/api/tournaments/{}/register", cup["id"]),
            json!({}),
        ),
        (
            "/api/messages".to_string(),
            json!({"to": "ann", "text": "hi"}),
        ),
        (
            format!("/api/reviews/{}/chat", review["id"]),
            json!({"text": "hi"}),
        ),
    ];
    for (path, body) in refused {
        let (status, v) = bob.post(&path, body).await;
        assert_eq!(
            (status, v["error"]["code"].as_str()),
            (StatusCode::FORBIDDEN, Some("suspended")),
            "{path}: {v}"
        );
    }
    err(&socket.chat(game_id, "hello").await, "suspended");
    err(
        &socket
            .call(json!({"type": "lobby_chat", "text": "hello"}))
            .await,
        "suspended",
    );
    // Their game goes on.
    let mut ann_socket = ann.socket().await;
    for (player, at) in [(&players[0], "C3"), (&players[1], "G7")] {
        let s = if player.user["username"] == "bob" {
            &mut socket
        } else {
            &mut ann_socket
        };
        ok(&s.play(game_id, at).await);
    }
}

/// Other players' messages, more than a connection's backlog, between each of Ann's: with one
/// channel for every player they pushed hers out of a busy node's sockets; each connection's
/// own mailbox keeps them.
async fn lagging_socket(url: &str) {
    let server = TestServer::start(url).await;
    let moderator = with_role(&server, "moder", "moderator").await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let cyd = server.register("cyd", "2d").await;
    let _cyd_socket = cyd.socket().await;
    let mut socket = ann.socket().await;
    let flood = || {
        for i in 0..1_000 {
            let notice = json!({"type": "message", "text": format!("to cyd {i}")});
            let told = tengen_app::notices::Told {
                text: notice.to_string().into(),
                closes: false,
            };
            server.state.services.notices.relay(cyd.id(), told);
        }
    };
    let ask = json!({"sizes": [9], "speed": "live", "rules": "chinese"});
    assert_eq!(
        ann.post("/api/match", ask.clone()).await.0,
        StatusCode::ACCEPTED
    );
    assert_eq!(bob.post("/api/match", ask).await.0, StatusCode::OK);
    flood();
    let hi = json!({"to": "ann", "text": "good game"});
    assert_eq!(bob.post("/api/messages", hi).await.0, StatusCode::CREATED);
    flood();
    let ban = json!({"user": "ann", "action": "ban", "reason": "r"});
    let (status, v) = moderator.post("/api/moderation/actions", ban).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    flood();
    let matched = socket.next_of_type("matched").await;
    assert_eq!(matched["match"]["opponent"]["username"], "bob", "{matched}");
    assert_eq!(socket.next_of_type("message").await["text"], "good game");
    assert_eq!(socket.next_of_type("moderation").await["action"], "ban");
    assert_eq!(socket.close_code().await, Some(4003));
}
