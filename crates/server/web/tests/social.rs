//! Players' own tools: private messages (stored, told live to the recipient's sockets, refused
//! between players who block each other, to the muted and to guests, and past ten a minute) and
//! friends with whether they are online; the your-turn notice of correspondence games; the lobby's chat. Each scenario runs on SQLite, and on PostgreSQL where
//! it runs.

#![allow(clippy::unwrap_used)]

mod common;

use axum::http::StatusCode;
use common::TestServer;
use serde_json::json;

/// One scenario as `NAME::on_sqlite`, and `NAME::on_postgres`, ignored unless asked for.
macro_rules! on_both_stores {
    ($name:ident, $scenario:ident, $tag:literal) => {
        mod $name {
            #[tokio::test]
            async fn on_sqlite() {
                super::$scenario(&super::common::sqlite_url(concat!("social-", $tag))).await;
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

on_both_stores!(messages_are_stored_told_and_read, messages, "messages");
on_both_stores!(messages_are_refused_when_they_must_be, refusals, "refusals");
on_both_stores!(friends_show_who_is_online, friends, "friends");
on_both_stores!(a_correspondence_move_tells_the_opponent, your_turn, "turn");
on_both_stores!(
    the_lobby_chat_reaches_everyone_but_the_blocked,
    lobby_chat,
    "lobby"
);

async fn messages(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let carol = server.register("carol", "2d").await;
    let mut bob_socket = bob.socket().await;
    let mut bob_tab = bob.socket().await;

    let (status, m) = ann
        .post(
            "/api/messages",
            json!({"to": "bob", "text": "  good game? "}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{m}");
    assert_eq!(
        (m["from"].as_str(), m["to"].as_str()),
        (Some("ann"), Some("bob"))
    );
    assert_eq!(m["text"], "good game?", "trimmed");
    // Every connection of Bob's hears it.
    for s in [&mut bob_socket, &mut bob_tab] {
        let live = s.next_of_type("message").await;
        assert_eq!(
            (live["id"].clone(), live["from"].clone()),
            (m["id"].clone(), json!("ann"))
        );
        assert_eq!(live["text"], "good game?");
    }
    ann.post("/api/messages", json!({"to": "bob", "text": "again?"}))
        .await;
    carol
        .post("/api/messages", json!({"to": "bob", "text": "hi"}))
        .await;
    let (_, v) = bob
        .post("/api/messages", json!({"to": "ann", "text": "sure"}))
        .await;
    assert_eq!(v["from"], "bob", "{v}");

    // Bob's conversations: Ann's is the newest (his answer), Carol's next, unread counted.
    let (status, v) = bob.get("/api/messages").await;
    assert_eq!(status, StatusCode::OK);
    let list = v["conversations"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{v}");
    assert_eq!(list[0]["with"], "ann");
    assert_eq!(list[0]["last"]["text"], "sure");
    assert_eq!(list[0]["unread"], 2);
    assert_eq!(list[1]["with"], "carol");
    assert_eq!(list[1]["unread"], 1);
    // The thread, oldest first; opening it marks Ann's lines read.
    let (_, t) = bob.get("/api/messages/ann").await;
    let texts: Vec<&str> = t["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts, ["good game?", "again?", "sure"]);
    let (_, v) = bob.get("/api/messages").await;
    assert_eq!(v["conversations"][0]["unread"], 0);
    assert_eq!(v["conversations"][1]["unread"], 1, "Carol's still unread");
    // Ann sees hers read.
    let (_, t) = ann.get("/api/messages/bob").await;
    assert_eq!(t["messages"][0]["read"], true, "{t}");
    assert_eq!(
        ann.get("/api/messages/nobody").await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        server.get("/api/messages").await.0,
        StatusCode::UNAUTHORIZED
    );

    // Bob reports Ann's first message; a moderator reads it in the queue. A message one did
    // not receive, or that the named player did not send, cannot be reported.
    let id = m["id"].as_i64().unwrap();
    let report =
        |user: &str, message: i64| json!({"user": user, "message": message, "reason": "rude"});
    assert_eq!(
        carol.post("/api/reports", report("ann", id)).await.1["error"]["code"],
        "bad_report"
    );
    assert_eq!(
        bob.post("/api/reports", report("carol", id)).await.1["error"]["code"],
        "bad_report"
    );
    let (status, v) = bob.post("/api/reports", report("ann", id)).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let moderator = server.register("moder", "2d").await;
    tengen_app::moderation::set_role(server.store(), "moder", "moderator")
        .await
        .unwrap();
    let (_, q) = moderator.get("/api/moderation/reports").await;
    let r = &q["reports"][0];
    assert_eq!(
        (r["message"].as_i64(), r["user"].as_str()),
        (Some(id), Some("ann")),
        "{q}"
    );
    assert_eq!(r["context"]["message"]["text"], "good game?", "{q}");
}

async fn refusals(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    let carol = server.register("carol", "2d").await;
    let code = |v: &serde_json::Value| v["error"]["code"].as_str().unwrap_or("").to_string();
    let send = |c: &common::Client, to: &str, text: &str| {
        let c = c.clone();
        let body = json!({"to": to, "text": text});
        async move { c.post("/api/messages", body).await }
    };
    // Length, oneself, no such player.
    assert_eq!(code(&send(&ann, "bob", "   ").await.1), "bad_message");
    assert_eq!(
        code(&send(&ann, "bob", &"x".repeat(1001)).await.1),
        "bad_message"
    );
    assert_eq!(
        send(&ann, "bob", &"é".repeat(1000)).await.0,
        StatusCode::CREATED
    );
    assert_eq!(code(&send(&ann, "ann", "me").await.1), "message_self");
    assert_eq!(send(&ann, "nobody", "hi").await.0, StatusCode::NOT_FOUND);
    // Guests neither send nor receive.
    let guest = server.guest().await;
    let (status, v) = send(&guest, "bob", "hi").await;
    assert_eq!(
        (status, code(&v).as_str()),
        (StatusCode::FORBIDDEN, "guest")
    );
    // A block refuses messages either way round, until lifted.
    ann.post("/api/me/blocks", json!({"user": "bob"})).await;
    let (status, v) = send(&bob, "ann", "hey").await;
    assert_eq!(
        (status, code(&v).as_str()),
        (StatusCode::FORBIDDEN, "blocked")
    );
    assert_eq!(code(&send(&ann, "bob", "hey").await.1), "blocked");
    ann.delete("/api/me/blocks/bob").await;
    assert_eq!(send(&bob, "ann", "hey").await.0, StatusCode::CREATED);
    // A muted player sends none.
    let moder = server.register("moder", "2d").await;
    tengen_app::moderation::set_role(server.store(), "moder", "moderator")
        .await
        .unwrap();
    let (status, v) = moder
        .post(
            "/api/moderation/actions",
            json!({"user": "carol", "action": "mute", "reason": "insults"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let (status, v) = send(&carol, "ann", "hey").await;
    assert_eq!(
        (status, code(&v).as_str()),
        (StatusCode::FORBIDDEN, "muted")
    );
    // Ten a minute: Ann sent one, nine more pass, the next is refused.
    for i in 0..9 {
        assert_eq!(
            send(&ann, "bob", &format!("{i}")).await.0,
            StatusCode::CREATED
        );
    }
    let (status, v) = send(&ann, "bob", "one more").await;
    assert_eq!(
        (status, code(&v).as_str()),
        (StatusCode::TOO_MANY_REQUESTS, "rate_limited")
    );
}

async fn friends(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "2d").await;
    let bob = server.register("bob", "2d").await;
    server.register("carol", "2d").await;
    for name in ["carol", "bob", "bob"] {
        let (status, v) = ann.post("/api/me/friends", json!({"name": name})).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{v}");
    }
    let (_, v) = ann.post("/api/me/friends", json!({"name": "ann"})).await;
    assert_eq!(v["error"]["code"], "friend_self");
    assert_eq!(
        ann.post("/api/me/friends", json!({"name": "nobody"}))
            .await
            .0,
        StatusCode::NOT_FOUND
    );
    let (_, v) = ann.get("/api/me/friends").await;
    assert_eq!(
        v["friends"],
        json!([{"name": "bob", "online": false}, {"name": "carol", "online": false}])
    );
    // Bob connects: online while his socket is open.
    let socket = bob.socket().await;
    let (_, v) = ann.get("/api/me/friends").await;
    assert_eq!(v["friends"][0], json!({"name": "bob", "online": true}));
    drop(socket);
    // Dropped.
    assert_eq!(
        ann.delete("/api/me/friends/carol").await.0,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        ann.delete("/api/me/friends/carol").await.0,
        StatusCode::NOT_FOUND
    );
    let (_, v) = ann.get("/api/me/friends").await;
    assert_eq!(v["friends"].as_array().unwrap().len(), 1);
    assert_eq!(bob.get("/api/me/friends").await.1["friends"], json!([]));
}

/// A room of three days a move.
fn correspondence_room() -> serde_json::Value {
    json!({"size": 9, "rules": "japanese", "parity": "odd",
        "time": {"system": "correspondence", "per_move_ms": 259_200_000}})
}

/// The next `your_turn` or `message` on `socket`.
async fn next_notice(socket: &mut common::Socket) -> serde_json::Value {
    loop {
        let v = socket.recv().await;
        if v["type"] == "your_turn" || v["type"] == "message" {
            return v;
        }
    }
}

async fn your_turn(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "4k").await;
    let bob = server.register("bob", "4k").await;
    let j = server
        .new_game(&ann, &bob, correspondence_room(), json!({"guess": "odd"}))
        .await;
    let game = j["game_id"].as_i64().unwrap();
    // Bob guessed right: Black. His move tells Ann's every connection it is hers.
    let mut ann_socket = ann.socket().await;
    let mut ann_tab = ann.socket().await;
    let mut bob_socket = bob.socket().await;
    common::ok(&bob_socket.play(game, "E5").await);
    for s in [&mut ann_socket, &mut ann_tab] {
        let v = next_notice(s).await;
        assert_eq!(
            v,
            json!({"type": "your_turn", "game": game, "opponent": "bob"})
        );
    }
    common::ok(&ann_socket.pass(game).await);
    let v = next_notice(&mut bob_socket).await;
    assert_eq!(
        v,
        json!({"type": "your_turn", "game": game, "opponent": "ann"})
    );

    // A live game: no notice (the message sent after the move is the next thing Ann hears).
    let carol = server.register("carol", "4k").await;
    let j = server
        .new_game(
            &ann,
            &carol,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let live = j["game_id"].as_i64().unwrap();
    let mut carol_socket = carol.socket().await;
    common::ok(&carol_socket.play(live, "E5").await);
    carol
        .post("/api/messages", json!({"to": "ann", "text": "your move"}))
        .await;
    assert_eq!(next_notice(&mut ann_socket).await["type"], "message");
}

async fn lobby_chat(url: &str) {
    let server = TestServer::start(url).await;
    let ann = server.register("ann", "4k").await;
    let bob = server.register("bob", "4k").await;
    let carol = server.register("carol", "4k").await;
    let (mut a, mut b, mut c) = (ann.socket().await, bob.socket().await, carol.socket().await);
    let say = |text: &str| json!({"type": "lobby_chat", "text": text});
    common::ok(&a.call(say(" hello all ")).await);
    // (Ann's own copy may come before her ack, which `call` reads past.)
    for s in [&mut b, &mut c] {
        let line = s.next_of_type("lobby_chat").await;
        assert_eq!(
            (line["from"].clone(), line["text"].clone()),
            (json!("ann"), json!("hello all"))
        );
    }
    common::err(&a.call(say("  ")).await, "bad_chat");
    common::err(&a.call(say(&"x".repeat(501))).await, "bad_chat");
    // Carol blocks Ann: Ann's lines no longer reach her, in the history or live.
    carol.post("/api/me/blocks", json!({"user": "ann"})).await;
    let v = c.call(json!({"type": "lobby_join"})).await;
    assert_eq!(v["type"], "lobby", "{v}");
    assert_eq!(v["lines"], json!([]));
    let v = b.call(json!({"type": "lobby_join"})).await;
    assert_eq!(v["lines"].as_array().unwrap().len(), 1);
    common::ok(&a.call(say("anyone?")).await);
    common::ok(&b.call(say("me")).await);
    assert_eq!(
        c.next_of_type("lobby_chat").await["text"],
        "me",
        "Ann's line skipped"
    );
    // Five lines in ten seconds: Ann said two, three more pass, the next is refused.
    for i in 0..3 {
        common::ok(&a.call(say(&format!("{i}"))).await);
    }
    common::err(&a.call(say("too many")).await, "rate_limited");
    // Guests and the muted do not chat.
    let guest = server.guest().await;
    let mut g = guest.socket().await;
    common::err(&g.call(say("hi")).await, "guest");
    let moder = server.register("moder", "2d").await;
    tengen_app::moderation::set_role(server.store(), "moder", "moderator")
        .await
        .unwrap();
    let (status, v) = moder
        .post(
            "/api/moderation/actions",
            json!({"user": "bob", "action": "mute", "reason": "spam"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    common::err(&b.call(say("hi")).await, "muted");
}

/// More lobby lines than a connection's backlog, said between two reads of Ann's: the lines she
/// missed are not skipped silently; the lobby's last lines come afresh (a `lobby` message), the
/// one said before the flood among them.
#[tokio::test]
async fn a_lagging_socket_gets_the_lobby_afresh() {
    use std::sync::Arc;
    use tengen_app::lobby_chat::{Line, LobbyLine};
    let server = TestServer::start(&common::sqlite_url("lobby-lagging")).await;
    let ann = server.register("ann", "4k").await;
    let bob = server.register("bob", "4k").await;
    let mut a = ann.socket().await;
    let v = a.call(json!({"type": "lobby_join"})).await;
    assert_eq!(v["lines"], json!([]), "{v}");
    let line = |text: &str| LobbyLine {
        at: 1,
        from: "bob".into(),
        id: 1,
        text: text.into(),
        kind: "lobby_chat".into(),
    };
    // Sent without a pause, so Ann's connection reads none of them before the channel (256
    // deep) overflows; only the first is kept in the lobby's history.
    let lobby = &server.state.services.lobby_chat;
    lobby.heard(bob.id(), line("missed me?"));
    for i in 0..1_000 {
        let _ = lobby.lines.send(Arc::new(Line {
            from_id: bob.id(),
            msg: line(&format!("flood {i}")),
        }));
    }
    // (Bounded: without the resync nothing comes, and pings would keep the wait alive.)
    let wait = std::time::Duration::from_secs(20);
    let afresh = tokio::time::timeout(wait, a.next_of_type("lobby"))
        .await
        .expect("the lobby sent afresh");
    assert_eq!(afresh["ref"], serde_json::Value::Null, "{afresh}");
    assert_eq!(afresh["lines"][0]["text"], "missed me?", "{afresh}");
}
