//! Tournaments through the HTTP API: an event from registration to the final standings, its
//! games ordinary games, its rounds paired once, its h9 file agreeing with its standings; and
//! every refusal with its code.

#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{HashMap, HashSet};

use axum::http::StatusCode;
use common::{Client, Socket, TestServer};
use serde_json::{json, Value};
use tengen_app::tournaments;

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
        // The player registered later (weaker, here) resigns: results are known in advance.
        let (white, black) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
        let loser = white.max(black);
        let reply = sockets
            .get_mut(loser)
            .unwrap()
            .resign(b["game_id"].as_i64().unwrap())
            .await;
        assert_eq!(reply["type"], "ack", "{reply}");
    }
    tournaments::tick(&server.state).await.unwrap();
    server.get(&format!("/api/tournaments/{id}")).await.1
}

async fn players(server: &TestServer, names: &[(&str, &str)]) -> Vec<Client> {
    let mut out = Vec::new();
    for (name, rank) in names {
        out.push(server.register(name, rank).await);
    }
    out
}

#[tokio::test]
async fn a_swiss_event_runs_from_registration_to_final_standings() {
    let server = TestServer::sqlite("tournament-swiss").await;
    let org = server.register("Organiser", "1d").await;
    let (s, created) = org
        .post(
            "/api/tournaments",
            json!({"name": "Club Swiss", "system": "swiss", "rounds": 3, "size": 9}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{created}");
    let id = created["id"].as_i64().unwrap();
    // Names in order of strength: the later name loses every game below.
    let field = [
        ("pla1", "3d"),
        ("pla2", "1d"),
        ("pla3", "2k"),
        ("pla4", "5k"),
        ("pla5", "10k"),
    ];
    let clients = players(&server, &field).await;
    for c in &clients {
        let (s, v) = c
            .post_empty(&format!("/api/tournaments/{id}/register"))
            .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let mut sockets = HashMap::new();
    for ((name, _), c) in field.iter().zip(&clients) {
        sockets.insert(name.to_string(), c.socket().await);
    }
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
    // Paired once: a second tick while the round is played pairs nothing.
    tournaments::tick(&server.state).await.unwrap();
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
            if m["tournament"]["round"] == (round + 1).min(3)
                && m["tournament"]["standings"]["lines"]
                    .as_array()
                    .is_some_and(|l| !l.is_empty())
            {
                if round < 3 || m["tournament"]["status"] == "finished" {
                    break;
                }
            }
        }
    }
    // The last round's end finishes the event; another tick changes nothing.
    assert_eq!(
        (t["round"].as_i64(), t["status"].as_str()),
        (Some(3), Some("finished"))
    );
    tournaments::tick(&server.state).await.unwrap();
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
    ];
    for body in bad_terms {
        let (s, v) = org.post("/api/tournaments", body.clone()).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("bad_request")),
            "{body}"
        );
    }
    let (_, list) = server.get("/api/tournaments").await;
    assert_eq!(list["tournaments"], json!([]));

    let (_, created) = org
        .post(
            "/api/tournaments",
            json!({"name": "Dan cup", "system": "mcmahon", "min_rank": "1d", "max_players": 2}),
        )
        .await;
    let id = created["id"].as_i64().unwrap();
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
    assert_eq!(
        b.post_empty(&path("register")).await.1["error"]["code"],
        "registration_closed"
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
    let (s, v) = org.post(&path("results"), fix).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (_, t) = server.get(&format!("/api/tournaments/{id}")).await;
    assert_eq!(t["pairings"][0]["boards"][0]["result"], "W+R");
}
