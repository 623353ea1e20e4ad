//! Correspondence games: the clock runs on the calendar across restarts (exact to the second),
//! nobody forfeits by leaving, and a vacation stops a player's clock.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::Value;
use tengen_core::domain::clock::{TimeControl, DAY};
use tengen_core::game::Action;
use tengen_live::actor::GameHandle;
use tengen_live::registry::Games;
use tengen_rules::coord::gtp;
use tengen_store::games::now_ms;

mod common;
use common::{actor_game, think, ActorGame, TestServer};

const HOUR: u64 = 3_600_000;
const THREE_DAYS: TimeControl = TimeControl::Correspondence {
    per_move_ms: 3 * DAY,
};

async fn game(tag: &str, time: TimeControl, grace: Duration) -> ActorGame {
    actor_game(&format!("corr-{tag}"), 19, time, grace).await
}

fn mv(v: &str) -> Action {
    Action::Move(gtp::parse_point(19, v).unwrap())
}

async fn clocks(h: &GameHandle) -> Value {
    serde_json::to_value(h.snapshot().await.unwrap()).unwrap()["clocks"].clone()
}

fn main_ms(c: &Value, side: &str) -> i64 {
    c[side]["main_ms"].as_i64().unwrap()
}

/// Moves every stored event of the game `by` ms into the past, as if the server had been down
/// that long since.
async fn age(s: &ActorGame, by: u64) {
    s.store
        .execute(&format!(
            "UPDATE game_events SET at_ms = at_ms - {by} WHERE game_id = {}",
            s.id
        ))
        .await
        .unwrap();
}

async fn restored(s: &ActorGame) -> GameHandle {
    let games = Games::new(s.store.clone(), Duration::from_secs(30));
    games.get(s.id).await.unwrap().unwrap()
}

#[tokio::test]
async fn a_restart_charges_the_calendar_time_exactly() {
    let s = game("restart", THREE_DAYS, Duration::from_secs(30)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    let c = clocks(&s.handle).await;
    assert_eq!(c["correspondence"], true);
    assert_eq!(c["running"], "white");
    assert_eq!(
        main_ms(&c, "black") as u64,
        3 * DAY,
        "a move restores the day count"
    );
    // The move was five hours ago: after a restart White has three days less five hours, to
    // the second.
    age(&s, 5 * HOUR).await;
    let again = restored(&s).await;
    let white = main_ms(&clocks(&again).await, "white");
    let want = (3 * DAY - 5 * HOUR) as i64;
    assert!(
        (want - 1000..=want).contains(&white),
        "white has {white} ms, want {want}"
    );
    // Four days: White's flag fell while the server was down; the game ends on restore.
    let t = game("restart-flag", THREE_DAYS, Duration::from_secs(30)).await;
    t.handle.act(t.black, "ann", mv("D4"), 0).await.unwrap();
    age(&t, 4 * DAY).await;
    let again = restored(&t).await;
    think(Duration::from_secs(3)).await;
    assert_eq!(
        serde_json::to_value(again.snapshot().await.unwrap()).unwrap()["result"],
        "B+T"
    );
}

#[tokio::test]
async fn leaving_a_correspondence_game_forfeits_nothing() {
    // A grace of zero: in a live game a closed socket loses at once.
    let s = game("leave", THREE_DAYS, Duration::ZERO).await;
    s.handle.watch(Some(s.white), None).await.unwrap();
    s.handle.gone(s.white).await;
    think(Duration::from_secs(3600)).await;
    let snap = serde_json::to_value(s.handle.snapshot().await.unwrap()).unwrap();
    assert!(snap["result"].is_null(), "{snap}");
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
}

#[tokio::test]
async fn a_vacation_stops_the_clock_until_it_ends() {
    let s = game("vacation", THREE_DAYS, Duration::from_secs(30)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    think(Duration::from_millis(HOUR)).await;
    let until = now_ms() + 7 * DAY as i64;
    s.handle
        .act(s.white, "bob", Action::Vacation { until_ms: until }, 0)
        .await
        .unwrap();
    let c = clocks(&s.handle).await;
    assert!(c["running"].is_null(), "{c}");
    assert_eq!(c["vacation"]["white"], until);
    let banked = main_ms(&c, "white");
    assert!((banked - (3 * DAY - HOUR) as i64).abs() < 1000, "{banked}");
    // A day away costs nothing.
    think(Duration::from_millis(DAY)).await;
    assert_eq!(main_ms(&clocks(&s.handle).await, "white"), banked);
    // Back early: the clock runs again from where it stopped.
    s.handle
        .act(s.white, "bob", Action::Vacation { until_ms: 0 }, 0)
        .await
        .unwrap();
    think(Duration::from_millis(HOUR)).await;
    let c = clocks(&s.handle).await;
    assert_eq!(c["running"], "white");
    let left = main_ms(&c, "white");
    assert!((left - (3 * DAY - 2 * HOUR) as i64).abs() < 1000, "{left}");
    // A vacation in a live game is refused.
    let live = game(
        "vacation-live",
        TimeControl::Absolute { main_ms: 600_000 },
        Duration::from_secs(30),
    )
    .await;
    let e = live
        .handle
        .act(live.black, "ann", Action::Vacation { until_ms: until }, 0)
        .await
        .unwrap_err();
    assert_eq!(e.code(), "not_correspondence");
}

#[tokio::test]
async fn a_vacation_that_ended_while_the_server_was_down_is_not_charged() {
    let s = game("vacation-restart", THREE_DAYS, Duration::from_secs(30)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    s.handle
        .act(
            s.white,
            "bob",
            Action::Vacation {
                until_ms: now_ms() + DAY as i64,
            },
            0,
        )
        .await
        .unwrap();
    // Seen from a restart five hours later: the vacation was taken five hours ago and ended
    // two hours ago, so White has used two hours.
    age(&s, 5 * HOUR).await;
    let until = now_ms() - 2 * HOUR as i64;
    s.store
        .execute(&format!(
            "UPDATE game_events SET event = '{{\"type\":\"vacation\",\"color\":\"white\",\"until\":{until}}}' \
             WHERE game_id = {} AND seq = 2",
            s.id
        ))
        .await
        .unwrap();
    let again = restored(&s).await;
    let c = clocks(&again).await;
    assert_eq!(c["running"], "white");
    let white = main_ms(&c, "white");
    let want = (3 * DAY - 2 * HOUR) as i64;
    assert!(
        (want - 1000..=want).contains(&white),
        "white has {white} ms, want {want}"
    );
}

#[test]
fn correspondence_settings_and_speeds() {
    use tengen_core::domain::clock::Speed;
    assert!(THREE_DAYS.validate().is_ok());
    assert_eq!(THREE_DAYS.speed(), Speed::Correspondence);
    let fischer = TimeControl::Fischer {
        main_ms: 3 * DAY,
        increment_ms: DAY,
        cap_ms: Some(14 * DAY),
    };
    assert!(fischer.validate().is_ok());
    assert!(fischer.is_correspondence());
    // The cap holds at that scale: a quick move banks a day, never beyond 14.
    let mut c = fischer.start();
    for _ in 0..20 {
        c = fischer.moved(&fischer.spend(&c, 60_000).unwrap());
    }
    assert_eq!(c.main_ms, 14 * DAY);
    for bad in [
        TimeControl::Correspondence {
            per_move_ms: 31 * DAY,
        },
        TimeControl::Correspondence {
            per_move_ms: 60_000,
        },
        TimeControl::Fischer {
            main_ms: 3 * DAY,
            increment_ms: DAY,
            cap_ms: Some(61 * DAY),
        },
        TimeControl::Fischer {
            main_ms: 3 * DAY,
            increment_ms: 60_000,
            cap_ms: None,
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?}");
    }
    assert_eq!(
        TimeControl::Absolute { main_ms: 300_000 }.speed(),
        Speed::Blitz
    );
    assert_eq!(
        TimeControl::Absolute { main_ms: 1_800_000 }.speed(),
        Speed::Live
    );
}

/// A room of three days a move, as seed 002 writes it.
fn correspondence_room() -> serde_json::Value {
    serde_json::json!({"size": 19, "rules": "japanese", "parity": "odd",
        "time": {"system": "correspondence", "per_move_ms": 259_200_000}})
}

#[tokio::test]
async fn a_room_in_days_the_your_move_list_and_a_vacation_over_http() {
    use axum::http::StatusCode;
    use serde_json::json;
    let server = TestServer::sqlite("corr-http").await;
    let ann = server.register("ann", "4k").await;
    let bob = server.register("bob", "4k").await;
    let j = server
        .new_game(&ann, &bob, correspondence_room(), json!({"guess": "odd"}))
        .await;
    let game = j["game_id"].as_i64().unwrap();
    // Bob guessed right: Black, to move.
    let (_, turns) = bob.get("/api/me/turns").await;
    assert_eq!(turns["games"][0]["game"], game, "{turns}");
    assert_eq!(turns["games"][0]["opponent"], "ann");
    assert_eq!(turns["games"][0]["correspondence"], true);
    let left = turns["games"][0]["time_left_ms"].as_u64().unwrap();
    assert!(left > 3 * DAY - 60_000 && left <= 3 * DAY, "{left}");
    let (_, turns) = ann.get("/api/me/turns").await;
    assert_eq!(turns["games"].as_array().unwrap().len(), 0, "{turns}");
    // Bob goes on vacation: his clock in that game stops.
    let (s, v) = bob.post("/api/me/vacation", json!({"days": 0})).await;
    assert_eq!(
        (s, v["error"]["code"].as_str()),
        (StatusCode::BAD_REQUEST, Some("bad_vacation"))
    );
    let (s, v) = bob.post("/api/me/vacation", json!({"days": 3})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["games"], json!([game]));
    let snap = server.game(game).await;
    assert!(snap["clocks"]["running"].is_null(), "{snap}");
    assert_eq!(snap["clocks"]["vacation"]["black"], v["until"]);
    let (s, _) = bob.delete("/api/me/vacation").await;
    assert_eq!(s, StatusCode::OK);
    let snap = server.game(game).await;
    assert_eq!(snap["clocks"]["running"], "black");
    // Without a session: refused.
    let (s, _) = server.get("/api/me/turns").await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn a_player_has_at_most_a_hundred_live_correspondence_games() {
    use axum::http::StatusCode;
    use serde_json::json;
    let server = TestServer::sqlite("corr-cap").await;
    let ann = server.register("ann", "4k").await;
    let bob = server.register("bob", "4k").await;
    let terms = common::terms(19, THREE_DAYS);
    for _ in 0..100 {
        common::stored_game(server.store(), [ann.id(), bob.id()], &terms).await;
    }
    let (_, r) = ann.post("/api/rooms", correspondence_room()).await;
    let (s, e) = bob
        .post(
            &format!("/api/rooms/{}/join", r["id"]),
            json!({"guess": "odd"}),
        )
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{e}");
    assert_eq!(e["error"]["code"], "too_many_games");
    // A live game is another matter.
    let room = json!({"size": 9, "rules": "japanese", "parity": "odd"});
    let (_, r) = ann.post("/api/rooms", room).await;
    let (s, _) = bob
        .post(
            &format!("/api/rooms/{}/join", r["id"]),
            json!({"guess": "odd"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
}
