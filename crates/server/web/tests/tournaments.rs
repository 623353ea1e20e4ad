//! Tournaments through the HTTP API: an event from registration to the final standings, its
//! games ordinary games, its rounds paired once, its h9 file agreeing with its standings; and
//! every refusal with its code.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{HashMap, HashSet};

use axum::http::StatusCode;
use common::{ok, Client, Socket, TestServer};
use serde_json::{json, Value};
use tengen_app::tournaments;
use tengen_server::AppState;

/// Plays out round `round` of event `id`: in each game the player named `loser(board)` resigns.
async fn play_round(
    server: &TestServer,
    id: i64,
    round: usize,
    sockets: &mut HashMap<String, Socket>,
) -> Value {
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    let boards = t["pairings"][round - 1]["boards"]
        .as_array()
        .unwrap()
        .clone();
    for b in boards.iter().filter(|b| b["bye"] == false) {
        // Three moves each (a shorter game would be annulled for ratings and points), then the
        // player registered later (weaker, here) resigns: results are known in advance.
        let (white, black) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
        let game = b["game_id"].as_i64().unwrap();
        for (at_b, at_w) in [("C3", "G7"), ("C4", "G6"), ("C5", "G5")] {
            for (who, at) in [(black, at_b), (white, at_w)] {
                let reply = sockets.get_mut(who).unwrap().play(game, at).await;
                assert_eq!(reply["type"], "ack", "{reply}");
            }
        }
        let loser = white.max(black);
        let reply = sockets.get_mut(loser).unwrap().resign(game).await;
        assert_eq!(reply["type"], "ack", "{reply}");
    }
    tick(&server.state).await.unwrap();
    server.get(&format!("/api/tournaments/{id}")).await.1
}

/// `org` creates an event with `terms`: its id.
async fn organise(org: &Client, terms: Value) -> i64 {
    let (s, created) = org.post("/api/tournaments", terms).await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    created["id"].as_i64().unwrap()
}

/// Registers each (name, rank) as a player of event `id`: their clients, and their sockets by
/// name.
async fn enter(
    server: &TestServer,
    id: i64,
    field: &[(&str, &str)],
) -> (Vec<Client>, HashMap<String, Socket>) {
    let (mut clients, mut sockets) = (Vec::new(), HashMap::new());
    for (name, rank) in field {
        let c = server.register(name, rank).await;
        let (s, v) = c
            .post_empty(&format!("/api/tournaments/{id}/register"))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
        sockets.insert(name.to_string(), c.socket().await);
        clients.push(c);
    }
    (clients, sockets)
}

/// The scenario on SQLite, and on PostgreSQL where `.ci/run` provides it.
macro_rules! on_both_stores {
    ($name:ident, $scenario:ident, $tag:literal) => {
        mod $name {
            #[tokio::test]
            async fn on_sqlite() {
                super::$scenario(&crate::common::sqlite_url(concat!("tournament-", $tag))).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
            async fn on_postgres() {
                if let Some(url) = crate::common::postgres_url().await {
                    super::$scenario(&url).await;
                }
            }
        }
    };
}

on_both_stores!(
    a_swiss_event_from_registration_to_final_standings,
    swiss_event,
    "swiss"
);

async fn swiss_event(url: &str) {
    let server = TestServer::start(url).await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Club Swiss", "system": "swiss", "rounds": 3, "size": 9}),
    )
    .await;
    // Names in order of strength: the later name loses every game below.
    let field = [
        ("pla1", "3d"),
        ("pla2", "1d"),
        ("pla3", "2k"),
        ("pla4", "5k"),
        ("pla5", "10k"),
    ];
    let (clients, mut sockets) = enter(&server, id, &field).await;
    let (s, v) = clients[0]
        .post_empty(&format!("/api/tournaments/{id}/start"))
        .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("not_organiser"))
    );
    let (s, t) = org
        .post_empty(&format!("/api/tournaments/{id}/start"))
        .await;
    assert_eq!(s, StatusCode::OK, "{t}");
    assert_eq!(
        (t["status"].as_str(), t["round"].as_i64()),
        (Some("running"), Some(1))
    );
    // Each game keeps the ranks its players held as the round was paired.
    let rank_of = |uid: i64| {
        let i = clients.iter().position(|c| c.id() == uid).unwrap();
        field[i].1.to_string()
    };
    let pairings = server.store().pairings(id).await.unwrap();
    let played: Vec<_> = pairings.iter().filter(|p| p.game_id.is_some()).collect();
    assert_eq!(played.len(), 2, "{pairings:?}");
    for p in played {
        let row = server.store().game(p.game_id.unwrap()).await.unwrap();
        let ranks = row.unwrap().ranks.unwrap();
        assert_eq!(ranks, [rank_of(p.black_id.unwrap()), rank_of(p.white_id)]);
    }
    // Paired once: a second tick while the round is played pairs nothing.
    tick(&server.state).await.unwrap();
    assert_eq!(
        server.get(&format!("/api/tournaments/{id}")).await.1["round"],
        1
    );

    // A spectator follows the event over the WebSocket: its state now, then each change.
    let mut watcher = server.register("watcher", "5k").await.socket().await;
    let now = watcher
        .call(json!({"type": "watch_tournament", "tournament": id}))
        .await;
    assert_eq!(now["tournament"]["round"], 1, "{now}");
    let missing = watcher
        .call(json!({"type": "watch_tournament", "tournament": 999}))
        .await;
    assert_eq!(missing["code"], "not_found", "{missing}");

    let mut t = Value::Null;
    for round in 1..=3 {
        t = play_round(&server, id, round, &mut sockets).await;
        // The round's end reaches the watcher with the next round's pairings (or the end).
        loop {
            let m = watcher.next_of_type("tournament").await;
            let t = &m["tournament"];
            let next = t["round"] == (round + 1).min(3);
            let ranked = t["standings"]["lines"]
                .as_array()
                .is_some_and(|l| !l.is_empty());
            if next && ranked && (round < 3 || t["status"] == "finished") {
                break;
            }
        }
    }
    // The last round's end finishes the event; another tick changes nothing.
    assert_eq!(
        (t["round"].as_i64(), t["status"].as_str()),
        (Some(3), Some("finished"))
    );
    tick(&server.state).await.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(
        (t["round"].as_i64(), t["status"].as_str()),
        (Some(3), Some("finished"))
    );

    // Every player plays or has the bye each round; nobody has two byes; no pair meets twice.
    let mut byes = HashSet::new();
    let mut met = HashSet::new();
    for r in t["pairings"].as_array().unwrap() {
        let mut seen = HashSet::new();
        for b in r["boards"].as_array().unwrap() {
            let w = b["white"].as_str().unwrap().to_string();
            assert!(seen.insert(w.clone()));
            if b["bye"] == true {
                assert!(byes.insert(w), "a second bye: {r}");
                continue;
            }
            let bl = b["black"].as_str().unwrap().to_string();
            assert!(seen.insert(bl.clone()));
            assert!(b["result"].is_string(), "every game finished: {b}");
            let pair = if w < bl { (w, bl) } else { (bl, w) };
            assert!(met.insert(pair), "a repeated pairing: {r}");
        }
        assert_eq!(seen.len(), 5);
    }

    // The standings: pla1 won all three games; the table's values are the h9 file's values.
    let lines = t["standings"]["lines"].as_array().unwrap();
    assert_eq!(t["standings"]["criteria"], json!(["NBW", "SOS", "SOSOS"]));
    assert_eq!(lines[0]["name"], "pla1");
    assert_eq!(lines[0]["values"][0], "3");
    let (s, _) = server.get(&format!("/api/tournaments/{id}/h9")).await;
    assert_eq!(s, StatusCode::OK);
    let file = h9_text(&server, id).await;
    let read = tengen_tournament::h9::read(&file, tengen_tournament::h9::Start::FromFile).unwrap();
    assert_eq!(tengen_tournament::h9::write(&read), file);
    for (line, row) in lines
        .iter()
        .zip(file.lines().filter(|l| !l.starts_with(';')))
    {
        let name = line["name"].as_str().unwrap();
        assert!(row[5..35].trim_end().starts_with(name), "{row}");
        let values: Vec<&str> = row[48..].split_whitespace().take(3).collect();
        let api: Vec<&str> = line["values"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(values, api, "{row}");
    }
}

async fn h9_text(server: &TestServer, id: i64) -> String {
    use axum::body::Body;
    use http_body_util::BodyExt;
    let req = axum::http::Request::get(format!("/api/tournaments/{id}/h9"))
        .body(Body::empty())
        .unwrap();
    let resp = server.oneshot(req).await;
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// One tournaments tick of `state`'s node.
async fn tick(state: &AppState) -> Result<(), tengen_app::error::ApiError> {
    let s = &state.services;
    tournaments::tick(&s.store, &s.games, &s.tournaments).await
}

#[tokio::test]
async fn refusals_carry_codes_and_change_nothing() {
    let server = TestServer::sqlite("tournament-refusals").await;
    let org = server.register("Organiser", "1d").await;
    let bad_terms = [
        json!({"name": "X", "system": "lottery"}),
        json!({"name": "", "system": "swiss"}),
        json!({"name": "X", "system": "swiss", "rounds": 0}),
        json!({"name": "X", "system": "swiss", "size": 11}),
        json!({"name": "X", "system": "mcmahon", "bar": "12d"}),
        json!({"name": "X", "system": "swiss", "rules": "first_capture"}),
        json!({"name": "X", "system": "swiss", "color": "red"}),
        json!({"name": "X", "system": "swiss", "round_starts": [20, 10]}),
        json!({"name": "X", "system": "ladder", "reach": 0}),
    ];
    for body in bad_terms {
        let (s, v) = org.post("/api/tournaments", body.clone()).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_request")),
            "{body}"
        );
    }
    // A clock the games could not hold (milliseconds past u64) or a room would refuse.
    let bad_times = [
        json!({"system": "absolute", "main_ms": u64::MAX}),
        json!({"system": "byoyomi", "main_ms": 60_000, "periods": u32::MAX, "period_ms": u64::MAX}),
        json!({"system": "canadian", "main_ms": u64::MAX, "stones": 1, "period_ms": u64::MAX}),
        json!({"system": "fischer", "main_ms": 60_000, "increment_ms": u64::MAX}),
        json!({"system": "absolute", "main_ms": 1}),
    ];
    for time in bad_times {
        let body = json!({"name": "X", "system": "swiss", "time": time});
        let (s, v) = org.post("/api/tournaments", body.clone()).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_time")),
            "{body}"
        );
    }
    let (_, list) = server.get("/api/tournaments").await;
    assert_eq!(list["tournaments"], json!([]));

    let id = organise(
        &org,
        json!({"name": "Dan cup", "system": "mcmahon", "min_rank": "1d", "max_players": 2}),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let guest = server.guest().await;
    let (s, v) = guest.post_empty(&path("register")).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("guests_cannot_register"))
    );
    let kyu = server.register("kyu", "5k").await;
    let (s, v) = kyu.post_empty(&path("register")).await;
    assert_eq!(v["error"]["code"], "rank_outside_limits", "{s}");
    let (s, v) = org.post_empty(&path("start")).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("too_few_players")),
        "{v}"
    );
    let [a, b, c] = [
        server.register("ann", "1d").await,
        server.register("bob", "2d").await,
        server.register("cat", "3d").await,
    ];
    assert_eq!(a.post_empty(&path("register")).await.0, StatusCode::OK);
    assert_eq!(
        a.post_empty(&path("register")).await.1["error"]["code"],
        "already_registered"
    );
    assert_eq!(b.post_empty(&path("register")).await.0, StatusCode::OK);
    assert_eq!(
        c.post_empty(&path("register")).await.1["error"]["code"],
        "tournament_full"
    );
    assert_eq!(b.post_empty(&path("withdraw")).await.0, StatusCode::OK);
    assert_eq!(
        b.post_empty(&path("withdraw")).await.1["error"]["code"],
        "not_registered"
    );
    assert_eq!(c.post_empty(&path("register")).await.0, StatusCode::OK);
    assert_eq!(org.post_empty(&path("start")).await.0, StatusCode::OK);
    // A McMahon event takes late entries, up to its maximum.
    assert_eq!(
        b.post_empty(&path("register")).await.1["error"]["code"],
        "tournament_full"
    );
    assert_eq!(
        org.post_empty(&path("start")).await.1["error"]["code"],
        "already_started"
    );
    let (s, v) = server.get("/api/tournaments?status=lost").await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let (s, _) = server.get("/api/tournaments/999").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A correction needs the organiser, a known result and a reason; it is logged.
    let fix = json!({"round": 1, "board": 1, "result": "W+", "reason": "scoring error"});
    assert_eq!(
        a.post(&path("results"), fix.clone()).await.0,
        StatusCode::FORBIDDEN
    );
    let (s, v) = org
        .post(
            &path("results"),
            json!({"round": 1, "board": 1, "result": "X", "reason": "r"}),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    // Not while the game is played: the board decides it.
    let (s, v) = org.post(&path("results"), fix.clone()).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_in_progress")),
        "{v}"
    );
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    let game = t["pairings"][0]["boards"][0]["game_id"].as_i64().unwrap();
    let mut socket = a.socket().await;
    ok(&socket.resign(game).await);
    let (s, v) = org.post(&path("results"), fix).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["pairings"][0]["boards"][0]["result"], "W+R");
    assert_eq!(t["log"][0]["by"], "Organiser");
    assert_eq!(
        t["log"][0]["detail"],
        "round 1 board 1: W+R (scoring error)"
    );
}

on_both_stores!(a_round_is_paired_once_by_two_nodes, two_nodes, "two-nodes");

/// Two servers on one database (two nodes, or a node and its restarted self) tick at once at
/// every step: each round is paired exactly once, its games written once.
async fn two_nodes(url: &str) {
    let server = TestServer::start(url).await;
    let other = common::server::app_state(url, common::server::GRACE, Vec::new()).await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Twice", "system": "mcmahon", "rounds": 2, "size": 9, "bar": "1d"}),
    )
    .await;
    let field = [("ann", "2d"), ("bob", "1k"), ("cat", "3k"), ("dan", "6k")];
    let (_, mut sockets) = enter(&server, id, &field).await;
    // The start time has come: both nodes see it in the same instant.
    server
        .store()
        .execute(&format!(
            "UPDATE tournaments SET starts_at = 1 WHERE id = {id}"
        ))
        .await
        .unwrap();
    let (a, b) = tokio::join!(tick(&server.state), tick(&other));
    a.unwrap();
    b.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(
        (
            t["round"].as_i64(),
            t["pairings"][0]["boards"].as_array().map(Vec::len)
        ),
        (Some(1), Some(2)),
        "{t}"
    );
    // Round 1 ends; both nodes notice at once.
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    for b in t["pairings"][0]["boards"].as_array().unwrap() {
        let game = b["game_id"].as_i64().unwrap();
        // Games started on the other node are played there; here the loser resigns on this one.
        let loser = b["white"]
            .as_str()
            .unwrap()
            .max(b["black"].as_str().unwrap());
        let handle = match server.state.services.games.get(game).await.unwrap() {
            Some(_) => sockets.get_mut(loser).unwrap().resign(game).await,
            None => {
                // Started on the other node: resigned there.
                let h = other
                    .services
                    .games
                    .get(game)
                    .await
                    .unwrap()
                    .expect("started on one node");
                let user = tengen_app::accounts::named(&other.services.store, loser)
                    .await
                    .unwrap();
                h.act(user.id, loser, tengen_core::game::Action::Resign, 0)
                    .await
                    .unwrap();
                json!({"type": "ack"})
            }
        };
        assert_eq!(handle["type"], "ack", "{handle}");
    }
    let (a, b) = tokio::join!(tick(&server.state), tick(&other));
    a.unwrap();
    b.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["round"], 2, "{t}");
    let boards: Vec<usize> = t["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["boards"].as_array().unwrap().len())
        .collect();
    assert_eq!(boards, vec![2, 2], "{t}");
    let (games,): (i64,) = sqlx_count(server.store(), "SELECT COUNT(*) FROM games").await;
    assert_eq!(games, 4, "each round's games written once");
}

async fn sqlx_count(store: &tengen_store::Store, sql: &str) -> (i64,) {
    use sqlx::Row;
    let row = sqlx::query(sql).fetch_one(store.pool()).await.unwrap();
    (row.try_get::<i64, _>(0).unwrap(),)
}

#[tokio::test]
async fn a_64_player_mcmahon_event_played_by_bots_through_the_api() {
    // 64 players from 5d to 25k play a five-round McMahon event with handicaps, each a client
    // of the HTTP API and the WebSocket: the player with the lower McMahon score (the
    // weaker, in a handicap game the one who took Black) resigns after Black's first move.
    // 64 players' sockets, all from 127.0.0.1.
    let server = TestServer::start_uncapped(&common::sqlite_url("tournament-mcmahon-64")).await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Open", "system": "mcmahon", "rounds": 5, "size": 9,
                   "bar": "3d", "floor": "20k", "handicap_reduction": 2,
                   "time": {"system": "absolute", "main_ms": 600000}}),
    )
    .await;
    let ranks = [
        "5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k", "4k", "5k", "6k", "8k", "10k", "12k",
        "15k", "25k",
    ];
    let names: Vec<String> = (0..64).map(|i| format!("bot{i:02}")).collect();
    let field: Vec<(&str, &str)> = names
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), ranks[i % ranks.len()]))
        .collect();
    let rank_of: HashMap<String, tengen_tournament::Rank> = field
        .iter()
        .map(|(n, r)| (n.to_string(), r.parse().unwrap()))
        .collect();
    let (_, mut sockets) = enter(&server, id, &field).await;
    assert_eq!(
        org.post_empty(&format!("/api/tournaments/{id}/start"))
            .await
            .0,
        StatusCode::OK
    );
    let mut met = HashSet::new();
    for round in 1..=5 {
        let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
        let boards = t["pairings"][round - 1]["boards"]
            .as_array()
            .unwrap()
            .clone();
        assert_eq!(boards.len(), 32, "64 players, no bye: {t}");
        for b in &boards {
            let (w, bl) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
            assert!(
                met.insert(if w < bl {
                    (w.to_string(), bl.to_string())
                } else {
                    (bl.to_string(), w.to_string())
                }),
                "repeated: {w} {bl}"
            );
            // The handicap goes to the weaker player, who takes Black.
            if b["handicap"].as_i64().unwrap() >= 2 {
                assert!(rank_of[bl] < rank_of[w], "{b}");
            }
            let game = b["game_id"].as_i64().unwrap();
            let g = server.game(game).await;
            let first = if g["terms"]["handicap"].as_u64().unwrap() >= 2 {
                w
            } else {
                bl
            };
            let reply = sockets.get_mut(first).unwrap().play(game, "A1").await;
            assert_eq!(reply["type"], "ack", "{reply}");
            let loser = if rank_of[w] == rank_of[bl] {
                w.max(bl)
            } else if rank_of[w] < rank_of[bl] {
                w
            } else {
                bl
            };
            let reply = sockets.get_mut(loser).unwrap().resign(game).await;
            assert_eq!(reply["type"], "ack", "{reply}");
        }
        tick(&server.state).await.unwrap();
    }
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["status"], "finished", "{t}");
    // The standings the API shows are the ones its own h9 file recounts.
    let file = h9_text(&server, id).await;
    let read = tengen_tournament::h9::read(&file, tengen_tournament::h9::Start::FromFile).unwrap();
    assert_eq!(tengen_tournament::h9::write(&read), file);
    let lines = t["standings"]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 64);
    // A 5d who won everything leads with the bar's starting score (3d: 32) plus five wins.
    assert_eq!(lines[0]["values"][0], "37", "{}", lines[0]);
}

#[tokio::test]
async fn a_ladder_climbs_by_challenges() {
    let server = TestServer::sqlite("tournament-ladder").await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Club ladder", "system": "ladder", "reach": 2, "size": 9}),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    let mut players = HashMap::new();
    for name in ["ann", "bob", "cat", "dan"] {
        let c = server.register(name, "5k").await;
        assert_eq!(c.post_empty(&path("register")).await.0, StatusCode::OK);
        let socket = c.socket().await;
        players.insert(name, (c, socket));
    }
    let line = |t: &Value| -> Vec<String> {
        t["standings"]["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["name"].as_str().unwrap().to_string())
            .collect()
    };
    let code = |v: &Value| v["error"]["code"].as_str().map(str::to_string);
    // No challenges before the organiser opens it.
    let dan = players["dan"].0.clone();
    let (s, v) = dan
        .post(&path("challenge"), json!({"opponent": "bob"}))
        .await;
    assert_eq!(
        (s, code(&v).as_deref()),
        (StatusCode::CONFLICT, Some("no_running_ladder"))
    );
    assert_eq!(org.post_empty(&path("start")).await.0, StatusCode::OK);
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(line(&t), ["ann", "bob", "cat", "dan"]);
    // Dan (4th) may reach two places up: Bob, not Ann; nobody challenges downwards.
    let (s, v) = dan
        .post(&path("challenge"), json!({"opponent": "ann"}))
        .await;
    assert_eq!(
        (s, code(&v).as_deref()),
        (StatusCode::BAD_REQUEST, Some("cannot_challenge"))
    );
    let (s, v) = players["ann"]
        .0
        .post(&path("challenge"), json!({"opponent": "bob"}))
        .await;
    assert_eq!(code(&v).as_deref(), Some("cannot_challenge"), "{s}");
    let (s, v) = dan
        .post(&path("challenge"), json!({"opponent": "bob"}))
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let game = v["game_id"].as_i64().unwrap();
    // One game at a time: Cat cannot challenge Bob while he plays Dan.
    let (_, v) = players["cat"]
        .0
        .post(&path("challenge"), json!({"opponent": "bob"}))
        .await;
    assert_eq!(code(&v).as_deref(), Some("challenge_pending"));
    // Bob (White) resigns: Dan takes his place, Cat moves down one.
    let reply = players.get_mut("bob").unwrap().1.resign(game).await;
    assert_eq!(reply["type"], "ack", "{reply}");
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(line(&t), ["ann", "dan", "bob", "cat"]);
    // A defender who wins keeps the place.
    let (_, v) = players["cat"]
        .0
        .post(&path("challenge"), json!({"opponent": "dan"}))
        .await;
    let game = v["game_id"].as_i64().unwrap();
    players.get_mut("cat").unwrap().1.resign(game).await;
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(line(&t), ["ann", "dan", "bob", "cat"]);
    // Newcomers join at the bottom while it runs; the organiser closes it.
    let eve = server.register("eve", "1d").await;
    assert_eq!(eve.post_empty(&path("register")).await.0, StatusCode::OK);
    assert_eq!(
        dan.post_empty(&path("finish")).await.0,
        StatusCode::FORBIDDEN
    );
    assert_eq!(org.post_empty(&path("finish")).await.0, StatusCode::OK);
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(
        (t["status"].as_str(), line(&t).last().map(String::as_str)),
        (Some("finished"), Some("eve"))
    );
    let (_, v) = players["cat"]
        .0
        .post(&path("challenge"), json!({"opponent": "bob"}))
        .await;
    assert_eq!(code(&v).as_deref(), Some("no_running_ladder"));
}

#[tokio::test]
async fn a_round_waits_for_its_time() {
    let server = TestServer::sqlite("tournament-times").await;
    let org = server.register("Organiser", "1d").await;
    // Round 1 at a time past; round 2 far in the future.
    let id = organise(
        &org,
        json!({"name": "Timed", "system": "swiss", "rounds": 2, "size": 9,
                   "round_starts": [1, 4_000_000_000_i64]}),
    )
    .await;
    let (_, mut sockets) = enter(&server, id, &[("ann", "2d"), ("bob", "1k")]).await;
    tick(&server.state).await.unwrap();
    let t = play_round(&server, id, 1, &mut sockets).await;
    // Round 1 started at its time and ended; round 2 waits for its own.
    assert_eq!(
        (t["round"].as_i64(), t["status"].as_str()),
        (Some(1), Some("running")),
        "{t}"
    );
    server
        .store()
        .execute(&format!(
            "UPDATE tournaments SET terms = REPLACE(terms, '4000000000', '2') WHERE id = {id}"
        ))
        .await
        .unwrap();
    tick(&server.state).await.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["round"], 2, "{t}");
}

#[tokio::test]
async fn the_operator_may_leave_organising_to_moderators() {
    let mut state = common::server::app_state(
        &common::sqlite_url("tournament-organisers"),
        common::server::GRACE,
        Vec::new(),
    )
    .await;
    state.services.tournaments.moderators_only = true;
    let server = TestServer::serve(state).await;
    let ann = server.register("ann", "1d").await;
    let body = json!({"name": "Club cup", "system": "swiss"});
    let (s, v) = ann.post("/api/tournaments", body.clone()).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("moderators_organise"))
    );
    tengen_app::moderation::set_role(server.store(), "ann", "moderator")
        .await
        .unwrap();
    let (s, v) = ann.post("/api/tournaments", body).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
}

#[tokio::test]
async fn an_unrated_event_moves_neither_ratings_nor_points() {
    let server = TestServer::sqlite("tournament-unrated").await;
    let org = server.register("Organiser", "1d").await;
    for (rated, name) in [(false, "Friendly"), (true, "Serious")] {
        let id = organise(
            &org,
            json!({"name": name, "system": "swiss", "rounds": 1, "size": 9, "rated": rated}),
        )
        .await;
        let names = if rated {
            ["cid", "dee"]
        } else {
            ["ann", "bob"]
        };
        let (_, mut sockets) = enter(&server, id, &[(names[0], "5k"), (names[1], "5k")]).await;
        let before: Vec<Value> = profiles(&server, &names).await;
        assert_eq!(
            org.post_empty(&format!("/api/tournaments/{id}/start"))
                .await
                .0,
            StatusCode::OK
        );
        play_round(&server, id, 1, &mut sockets).await;
        let after: Vec<Value> = profiles(&server, &names).await;
        for (b, a) in before.iter().zip(&after) {
            let moved = b["points"] != a["points"] || b["rating"] != a["rating"];
            assert_eq!(moved, rated, "{name}: {b} then {a}");
        }
    }
}

async fn profiles(server: &TestServer, names: &[&str]) -> Vec<Value> {
    let mut out = Vec::new();
    for n in names {
        out.push(server.get(&format!("/api/users/{n}")).await.1);
    }
    out
}

#[tokio::test]
async fn a_restart_loses_no_round() {
    // The server stops with round 1's games in play; the restarted server restores them, their
    // results move the event on, and round 1 is not paired again.
    let url = common::sqlite_url("tournament-restart");
    let server = TestServer::start(&url).await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Night", "system": "swiss", "rounds": 2, "size": 9}),
    )
    .await;
    let field = [("ann", "2d"), ("bob", "1k"), ("cat", "3k"), ("dan", "6k")];
    let (clients, _) = enter(&server, id, &field).await;
    assert_eq!(
        org.post_empty(&format!("/api/tournaments/{id}/start"))
            .await
            .0,
        StatusCode::OK
    );
    let (_, before) = server.get(&format!("/api/tournaments/{id}")).await;
    server.stop().await;

    let server = TestServer::start(&url).await;
    let mut sockets = HashMap::new();
    for ((name, _), c) in field.iter().zip(&clients) {
        sockets.insert(name.to_string(), server.client(&c.token).socket().await);
    }
    let (_, after) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(after["pairings"], before["pairings"]);
    tick(&server.state).await.unwrap();
    let t = play_round(&server, id, 1, &mut sockets).await;
    assert_eq!(t["round"], 2, "{t}");
    // Round 1's boards are the games paired before the restart, now with their results.
    let games = |t: &Value| -> Vec<Value> {
        let boards = t["pairings"][0]["boards"].as_array().unwrap();
        boards.iter().map(|b| b["game_id"].clone()).collect()
    };
    assert_eq!(games(&t), games(&before));
    let boards = t["pairings"][0]["boards"].as_array().unwrap();
    assert!(boards.iter().all(|b| b["result"].is_string()), "{t}");
}

#[tokio::test]
async fn no_one_overrules_the_board() {
    let server = TestServer::sqlite("tournament-board").await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Board cup", "system": "swiss", "rounds": 2}),
    )
    .await;
    let path = |what: &str| format!("/api/tournaments/{id}/{what}");
    assert_eq!(org.post_empty(&path("register")).await.0, StatusCode::OK);
    let (_, mut sockets) = enter(&server, id, &[("ann", "1d"), ("bob", "1d"), ("cat", "1d")]).await;
    sockets.insert("Organiser".into(), org.socket().await);
    assert_eq!(org.post_empty(&path("start")).await.0, StatusCode::OK);
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    let boards = t["pairings"][0]["boards"].as_array().unwrap().clone();
    let plays = |b: &Value, name: &str| b["white"] == name || b["black"] == name;
    let own = boards
        .iter()
        .find(|b| plays(b, "Organiser"))
        .unwrap()
        .clone();
    let other = boards
        .iter()
        .find(|b| !plays(b, "Organiser"))
        .unwrap()
        .clone();
    let fix = |b: &Value| json!({"round": 1, "board": b["board"], "result": "W+", "reason": "r"});
    // A game still being played is the board's to decide: no correction, no next round.
    let (s, v) = org.post(&path("results"), fix(&other)).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_in_progress")),
        "{v}"
    );
    // Nor is an organiser's own game theirs to correct.
    let (s, v) = org.post(&path("results"), fix(&own)).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("own_game")),
        "{v}"
    );
    tick(&server.state).await.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["round"], 1, "round 2 is not paired on a correction");
    assert_eq!(
        t["pairings"][0]["boards"][other["board"].as_u64().unwrap() as usize - 1]["result"],
        Value::Null
    );
    // Once the game is over, the correction stands beside the board's own result.
    let game = other["game_id"].as_i64().unwrap();
    let black = other["black"].as_str().unwrap();
    ok(&sockets.get_mut(black).unwrap().resign(game).await);
    let body = json!({"round": 1, "board": other["board"], "result": "B+", "reason": "r"});
    let (s, v) = org.post(&path("results"), body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    let board = &t["pairings"][0]["boards"][other["board"].as_u64().unwrap() as usize - 1];
    assert_eq!(board["board_result"], "W+R");
    assert_eq!(board["result"], "B+R");
    assert_eq!(
        board["correction"],
        json!({"result": "B+R", "board_result": "W+R", "by": "Organiser"})
    );
    let (s, v) = org.post(&path("results"), fix(&own)).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::FORBIDDEN, Some("own_game"))
    );
}

#[tokio::test]
async fn a_late_entrant_is_absent_from_the_rounds_before_and_a_bracket_is_closed() {
    let server = TestServer::sqlite("tournament-late").await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Late", "system": "mcmahon", "rounds": 3, "size": 9,
               "bar": "1d", "floor": "20k"}),
    )
    .await;
    let (_, mut sockets) = enter(&server, id, &[("ann", "1d"), ("bob", "1d")]).await;
    assert_eq!(
        org.post_empty(&format!("/api/tournaments/{id}/start"))
            .await
            .0,
        StatusCode::OK
    );
    // Cid enters while round 1 is played: absent from it, paired from round 2.
    let (_, more) = enter(&server, id, &[("cid", "1d"), ("dan", "1d")]).await;
    sockets.extend(more);
    let t = play_round(&server, id, 1, &mut sockets).await;
    let round2 = t["pairings"][1]["boards"].as_array().unwrap();
    assert_eq!(round2.len(), 2, "four players in round 2: {t}");
    let lines = t["standings"]["lines"].as_array().unwrap();
    let mms = |name: &str| {
        lines
            .iter()
            .find(|l| l["name"] == name)
            .map(|l| l["values"][0].clone())
            .unwrap()
    };
    // Everyone starts at 1d's 30. Ann beat Bob (bob resigns: the later name loses); Cid and
    // Dan were absent: half a point, rounded down to none.
    assert_eq!(
        (mms("ann"), mms("bob"), mms("cid"), mms("dan")),
        (json!("31"), json!("30"), json!("30"), json!("30")),
        "{t}"
    );
    // The h9 file shows their absence in round 1 and recounts the same table.
    let file = h9_text(&server, id).await;
    let read = tengen_tournament::h9::read(&file, tengen_tournament::h9::Start::FromFile).unwrap();
    assert_eq!(tengen_tournament::h9::write(&read), file);
    assert!(file.contains("0="), "{file}");

    // A knockout's bracket is fixed at the start.
    let ko = organise(
        &org,
        json!({"name": "Cup", "system": "knockout", "size": 9}),
    )
    .await;
    enter(&server, ko, &[("eve", "1d"), ("fay", "1d")]).await;
    assert_eq!(
        org.post_empty(&format!("/api/tournaments/{ko}/start"))
            .await
            .0,
        StatusCode::OK
    );
    let gus = server.register("gus", "1d").await;
    let (s, v) = gus
        .post_empty(&format!("/api/tournaments/{ko}/register"))
        .await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("registration_closed"))
    );
}

/// Timings of a large event: one round's pairing (the tick that pairs it and starts its games)
/// and the standings (the event's page as the API gives it), for the record. Not asserted.
#[derive(Default)]
struct Timings {
    pairing: Vec<f64>,
    standings: Vec<f64>,
}

/// Ends every game of round `round` of event `id`: Black (or White, in a handicap game, who
/// moves first) plays one stone, then the weaker player (the later name between equals)
/// resigns. The games are acted on through the live registry, not 600 sockets.
async fn finish_round(server: &TestServer, id: i64, round: i64, ranks: &HashMap<i64, usize>) {
    use tengen_core::game::Action;
    let pairings = server.store().pairings(id).await.unwrap();
    for p in pairings.iter().filter(|p| p.round == round) {
        let (Some(black), Some(game)) = (p.black_id, p.game_id) else {
            continue;
        };
        let handle = server
            .state
            .services
            .games
            .get(game)
            .await
            .unwrap()
            .unwrap();
        let first = if p.handicap >= 2 { p.white_id } else { black };
        let point = tengen_rules::coord::gtp::parse_point(9, "E5").unwrap();
        handle.act(first, "", Action::Move(point), 0).await.unwrap();
        // Ranks are indexes into the field, strongest first: the larger index is weaker.
        let loser = if ranks[&p.white_id] > ranks[&black] {
            p.white_id
        } else {
            black
        };
        handle.act(loser, "", Action::Resign, 0).await.unwrap();
    }
}

#[tokio::test]
async fn a_600_player_mcmahon_event_with_absences_and_late_entries() {
    // 600 players from 7d to 25k, 10 McMahon rounds with handicaps; 1% withdraw after each
    // round (absent from then on), 30 more enter after round 3 (absent from rounds 1 to 3).
    let server = TestServer::start_uncapped(&common::sqlite_url("tournament-600")).await;
    let org = server.register("Organiser", "1d").await;
    let id = organise(
        &org,
        json!({"name": "Congress", "system": "mcmahon", "rounds": 10, "size": 9,
               "bar": "5d", "floor": "20k", "handicap_reduction": 3, "max_players": 700,
               "time": {"system": "absolute", "main_ms": 600000}}),
    )
    .await;
    let ranks = [
        "7d", "6d", "5d", "4d", "3d", "2d", "1d", "1k", "2k", "3k", "4k", "5k", "6k", "8k", "10k",
        "12k", "15k", "20k", "25k",
    ];
    let store = server.store();
    let mut strength: HashMap<i64, usize> = HashMap::new();
    let enter_many = |from: usize, to: usize| {
        let names: Vec<(String, usize)> = (from..to)
            .map(|i| (format!("p{i:03}"), i % ranks.len()))
            .collect();
        names
    };
    let add = async |names: Vec<(String, usize)>, strength: &mut HashMap<i64, usize>| {
        for (name, r) in names {
            let new = tengen_store::accounts::NewUser {
                username: &name,
                password_hash: None,
                rank: ranks[r],
                points: 0,
                guest: false,
                bot: None,
                created_at: 0,
            };
            assert!(store.insert_user(new).await.unwrap());
            let user = store.user_by_name(&name).await.unwrap().unwrap();
            assert!(store.register_entrant(id, user.id, ranks[r]).await.unwrap());
            strength.insert(user.id, r);
        }
    };
    add(enter_many(0, 600), &mut strength).await;
    let mut times = Timings::default();
    let started = std::time::Instant::now();
    assert_eq!(
        org.post_empty(&format!("/api/tournaments/{id}/start"))
            .await
            .0,
        StatusCode::OK
    );
    times.pairing.push(started.elapsed().as_secs_f64());
    let mut withdrawn = 0;
    for round in 1..=10 {
        // Withdrawals and late entries land while the round is played: once its last game
        // ends, the server's own tick (every two seconds) may pair the next round before this
        // test's tick does, and must find the field as the test means it.
        // 1% withdraw: absent from the next round on.
        let mut field: Vec<i64> = strength.keys().copied().collect();
        field.sort_unstable();
        for user in field.iter().filter(|u| *u % 100 == round).take(6) {
            if store.withdraw_entrant(id, *user, round).await.unwrap() {
                withdrawn += 1;
            }
        }
        if round == 3 {
            add(enter_many(600, 630), &mut strength).await;
        }
        finish_round(&server, id, round, &strength).await;
        let t0 = std::time::Instant::now();
        tick(&server.state).await.unwrap();
        times.pairing.push(t0.elapsed().as_secs_f64());
        let t0 = std::time::Instant::now();
        let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
        times.standings.push(t0.elapsed().as_secs_f64());
        if round < 10 {
            let boards = t["pairings"][round as usize]["boards"].as_array().unwrap();
            let entrants: usize = if round >= 3 { 630 } else { 600 };
            let present = entrants - withdrawn;
            assert_eq!(boards.len(), present.div_ceil(2), "round {}", round + 1);
        } else {
            assert_eq!(t["status"], "finished");
        }
    }
    // No two players met twice; the h9 file recounts the API's standings.
    let pairings = store.pairings(id).await.unwrap();
    let mut met = HashSet::new();
    for p in pairings.iter().filter(|p| p.black_id.is_some()) {
        let key = (
            p.white_id.min(p.black_id.unwrap()),
            p.white_id.max(p.black_id.unwrap()),
        );
        assert!(met.insert(key), "repeated {key:?}");
    }
    let file = h9_text(&server, id).await;
    let read = tengen_tournament::h9::read(&file, tengen_tournament::h9::Start::FromFile).unwrap();
    assert_eq!(read.event.entrants.len(), 630);
    assert_eq!(tengen_tournament::h9::write(&read), file);
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    println!(
        "600 players (630 with late entries), 10 McMahon rounds: pairing a round (the tick that \
         pairs it and starts its games) at most {:.2} s, standings (the event's page) at most {:.2} s",
        max(&times.pairing),
        max(&times.standings)
    );
}

/// Juvisy's h9 file (OpenGotha's export), read with its own starting scores.
fn juvisy() -> tengen_tournament::h9::H9 {
    let path = format!(
        "{}/../../tournament/tests/data/juvisy-2019.h9",
        env!("CARGO_MANIFEST_DIR")
    );
    let bytes = std::fs::read(path).unwrap();
    let text: String = bytes.iter().map(|&b| b as char).collect();
    tengen_tournament::h9::read(&text, tengen_tournament::h9::Start::FromFile).unwrap()
}

#[tokio::test]
async fn an_opengotha_event_is_imported_with_the_same_standings() {
    use tengen_app::tournaments::import::{import, Import};
    let server = TestServer::sqlite("tournament-import").await;
    server.register("Organiser", "1d").await;
    let h9 = juvisy();
    let how = Import {
        name: "Tournoi de Juvisy".into(),
        organiser: "Organiser".into(),
        bar: None,
        floor: None,
        rounds: None,
    };
    let done = import(server.store(), &h9, &how).await.unwrap();
    assert!(done.finished, "{done:?}");
    let id = done.id;
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["status"], "finished", "{t}");
    // Every player's MMS, SOS and SOSOS as OpenGotha printed them, the order the same: the
    // absent player (0=), the handicaps and the bar (3d, from the file's starts) all kept.
    let file = tengen_tournament::h9::write(&h9);
    let want: Vec<(String, Vec<String>)> = file
        .lines()
        .filter(|l| !l.starts_with(';'))
        .map(|l| {
            let chars: Vec<char> = l.chars().collect();
            let text = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
            let name = tengen_app::tournaments::import::username_of(text(5, 35).trim());
            let values = text(47, chars.len())
                .split_whitespace()
                .take(3)
                .map(str::to_string)
                .collect();
            (name, values)
        })
        .collect();
    let got: Vec<(String, Vec<String>)> = t["standings"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let values = l["values"].as_array().unwrap();
            let values = values
                .iter()
                .map(|v| v.as_str().unwrap().to_string())
                .collect();
            (l["name"].as_str().unwrap().to_string(), values)
        })
        .collect();
    assert_eq!(got, want);

    // The same file, its last two rounds not yet played, goes on on the server: its third
    // round is paired by the server's own pairing.
    let mut half = juvisy();
    half.event = half.event.before(2);
    half.event.rounds = 2;
    let how = Import {
        rounds: Some(4),
        ..how
    };
    let done = import(server.store(), &half, &how).await.unwrap();
    assert!(!done.finished, "{done:?}");
    let id = done.id;
    // Different accounts: a name is never shared.
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert!(
        t["standings"]["lines"][0]["name"]
            .as_str()
            .unwrap()
            .ends_with("_2"),
        "{t}"
    );
    tick(&server.state).await.unwrap();
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["round"], 3, "{t}");
    let boards = t["pairings"][2]["boards"].as_array().unwrap();
    // All 19 players: nine games and a bye.
    assert_eq!(boards.len(), 10, "{t}");
}

/// More changes of other events than a connection's backlog: the watcher's event is sent afresh
/// rather than its changes being skipped silently (they were, while a lagging receiver's
/// `Lagged` was ignored).
#[tokio::test]
async fn a_lagging_watcher_gets_its_tournament_afresh() {
    let server = TestServer::start(&common::sqlite_url("tournament-lagging")).await;
    let org = server.register("org", "1d").await;
    let id = organise(&org, json!({"name": "Club cup", "system": "swiss"})).await;
    let mut watcher = server.register("watcher", "5k").await.socket().await;
    let now = watcher
        .call(json!({"type": "watch_tournament", "tournament": id}))
        .await;
    assert_eq!(now["tournament"]["id"], id, "{now}");
    // Sent without a pause, so the watcher's connection reads none of them before the channel
    // (256 deep) overflows.
    let notify = &server.state.services.tournaments.notify;
    for _ in 0..1_000 {
        let _ = notify.send((id + 1, r#"{"id":0}"#.into()));
    }
    // (Bounded: without the resync nothing comes, and pings would keep the wait alive.)
    let wait = std::time::Duration::from_secs(20);
    let again = tokio::time::timeout(wait, watcher.next_of_type("tournament"))
        .await
        .expect("the event sent afresh");
    assert_eq!(again["tournament"]["id"], id, "{again}");
    assert_eq!(again["ref"], Value::Null, "{again}");
}
