//! Server-authoritative clocks under paused tokio time: a loss on time, a move at 0.05 s left in
//! the last period, lag compensation on a 300 ms link, and clocks surviving a restart.
//!
//! The clock is advanced by hand and real time resumed before the database is awaited (sqlx has
//! timers of its own that paused time would fire early); the few real milliseconds that pass are
//! within every tolerance below.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::Value;
use tengen_core::domain::clock::TimeControl;
use tengen_core::game::Action;
use tengen_live::actor::{lag, GameHandle};
use tengen_live::registry::Games;
use tengen_rules::coord::gtp;

mod common;
use common::{actor_game, think, ActorGame};

async fn timed(tag: &str, time: TimeControl) -> ActorGame {
    actor_game(
        &format!("clocks-{tag}"),
        19,
        time,
        Duration::from_secs(3600),
    )
    .await
}

fn mv(v: &str) -> Action {
    Action::Move(gtp::parse_point(19, v).unwrap())
}

async fn clocks(h: &GameHandle) -> Value {
    serde_json::to_value(h.snapshot().await.unwrap()).unwrap()["clocks"].clone()
}

const S: u64 = 1000;

#[tokio::test]
async fn a_game_is_lost_on_time() {
    let s = timed("flag", TimeControl::Absolute { main_ms: 60 * S }).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    // White thinks past the flag (and past the lag allowance the server waits for).
    think(Duration::from_millis(60 * S + lag::PER_MOVE + 10)).await;
    let snap = serde_json::to_value(s.handle.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["result"], "B+T");
    assert_eq!(snap["end_reason"], "time");
    assert_eq!(snap["clocks"]["white"]["main_ms"], 0);
    // A move that arrives now is refused: the game is over.
    assert_eq!(
        s.handle
            .act(s.white, "bob", mv("Q16"), 0)
            .await
            .unwrap_err()
            .code(),
        "game_over"
    );
}

#[tokio::test]
async fn a_move_at_0_05_s_left_in_the_last_period_keeps_it() {
    let s = timed(
        "last-period",
        TimeControl::Byoyomi {
            main_ms: 10 * S,
            periods: 1,
            period_ms: 30 * S,
        },
    )
    .await;
    think(Duration::from_millis(39_950)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    let c = clocks(&s.handle).await;
    assert_eq!(
        (
            c["black"]["main_ms"].as_u64(),
            c["black"]["periods"].as_u64()
        ),
        (Some(0), Some(1))
    );
    assert_eq!(
        c["black"]["period_ms"],
        30 * S,
        "the move re-armed the period"
    );
    assert_eq!(c["running"], "white");
    assert!(serde_json::to_value(s.handle.snapshot().await.unwrap()).unwrap()["result"].is_null());
}

#[tokio::test]
async fn a_300_ms_link_costs_no_time_within_the_quota() {
    let s = timed("lag", TimeControl::Absolute { main_ms: 300 * S }).await;
    let pairs = [
        ("D4", "Q16"),
        ("D16", "Q4"),
        ("C3", "R17"),
        ("C17", "R3"),
        ("E5", "O15"),
        ("E15", "O5"),
        ("F6", "N14"),
        ("F14", "N6"),
        ("G7", "M13"),
        ("G13", "M7"),
    ];
    for (b, w) in pairs {
        // Each player thinks 1 s; the move reaches the server 600 ms after the previous move left
        // it (300 ms each way), and the connection's measured round trip is 600 ms.
        think(Duration::from_millis(1600)).await;
        s.handle.act(s.black, "ann", mv(b), 600).await.unwrap();
        think(Duration::from_millis(1600)).await;
        s.handle.act(s.white, "bob", mv(w), 600).await.unwrap();
    }
    let c = clocks(&s.handle).await;
    // Ten moves of 1 s each: 290 s left, give or take the real milliseconds of the test.
    let black = c["black"]["main_ms"].as_u64().unwrap();
    assert!((289_900..=290_000).contains(&black), "black has {black} ms");
    // Without the round trip known, the same moves cost the network time too.
    let t = timed("nolag", TimeControl::Absolute { main_ms: 300 * S }).await;
    for (b, w) in pairs {
        think(Duration::from_millis(1600)).await;
        t.handle.act(t.black, "ann", mv(b), 0).await.unwrap();
        think(Duration::from_millis(1600)).await;
        t.handle.act(t.white, "bob", mv(w), 0).await.unwrap();
    }
    let black = clocks(&t.handle).await["black"]["main_ms"]
        .as_u64()
        .unwrap();
    assert!((283_900..=284_000).contains(&black), "black has {black} ms");
}

#[tokio::test]
async fn canadian_periods_and_the_dead_stone_phase_pause() {
    let s = timed(
        "canadian",
        TimeControl::Canadian {
            main_ms: 0,
            stones: 2,
            period_ms: 60 * S,
        },
    )
    .await;
    think(Duration::from_secs(20)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    assert_eq!(clocks(&s.handle).await["black"]["stones"], 1);
    s.handle.act(s.white, "bob", Action::Pass, 0).await.unwrap();
    think(Duration::from_secs(20)).await;
    s.handle.act(s.black, "ann", Action::Pass, 0).await.unwrap();
    let c = clocks(&s.handle).await;
    // Two stones in 40 s: a fresh period; and two passes stop the clocks.
    assert_eq!(
        (
            c["black"]["stones"].as_u64(),
            c["black"]["period_ms"].as_u64()
        ),
        (Some(2), Some(60 * S))
    );
    assert!(
        c["running"].is_null(),
        "no clock runs while dead stones are marked"
    );
    think(Duration::from_secs(3600)).await;
    assert!(serde_json::to_value(s.handle.snapshot().await.unwrap()).unwrap()["result"].is_null());
    s.handle
        .act(s.white, "bob", Action::Resume, 0)
        .await
        .unwrap();
    assert_eq!(clocks(&s.handle).await["running"], "white");
}

#[tokio::test]
async fn a_restart_restores_both_clocks() {
    let s = timed(
        "restart",
        TimeControl::Byoyomi {
            main_ms: 120 * S,
            periods: 3,
            period_ms: 30 * S,
        },
    )
    .await;
    think(Duration::from_secs(100)).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    think(Duration::from_secs(130)).await;
    s.handle.act(s.white, "bob", mv("Q16"), 0).await.unwrap();
    let before = clocks(&s.handle).await;
    assert_eq!(
        before["white"]["periods"], 3,
        "130 s: all main time and one period's part, re-armed"
    );
    // A new registry over the same database rebuilds the game from its log.
    let games = Games::new(s.store.clone(), Duration::from_secs(3600));
    let again = games.get(s.id).await.unwrap().unwrap();
    let after = clocks(&again).await;
    for side in ["black", "white"] {
        for field in ["periods", "stones"] {
            assert_eq!(before[side][field], after[side][field], "{side} {field}");
        }
        // The restart is not charged to the mover: the clocks stand where they stood.
        for field in ["main_ms", "period_ms"] {
            let (b, a) = (
                before[side][field].as_i64().unwrap(),
                after[side][field].as_i64().unwrap(),
            );
            assert!(
                (b - a).abs() <= 1000,
                "{side} {field}: {b} vs {a}, within one tick"
            );
        }
    }
    assert_eq!(after["running"], "black");
    let _ = s.white;
}

// Regression (issue 39, list 4): clocks jumped back to full time when a game ended; the player
// who resigned got back the time of their last turn.
#[tokio::test]
async fn a_resignation_keeps_the_time_its_turn_used() {
    let s = timed("resign", TimeControl::Absolute { main_ms: 600 * S }).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    think(Duration::from_secs(20)).await;
    s.handle
        .act(s.white, "bob", Action::Resign, 0)
        .await
        .unwrap();
    let c = clocks(&s.handle).await;
    let white = c["white"]["main_ms"].as_u64().unwrap();
    assert!(
        (579 * S..=581 * S).contains(&white),
        "White resigned after 20 s of thought: {c}"
    );
    assert_eq!(c["running"], Value::Null, "{c}");
    // And it stays so: time passing after the end takes nothing more.
    think(Duration::from_secs(30)).await;
    assert_eq!(
        clocks(&s.handle).await["white"]["main_ms"],
        c["white"]["main_ms"]
    );
}

// Regression (found with issue 39's presence notices): every stored event set the clocks and
// restarted the turn, so a chat line (or a notice that a player is away) forgave the mover the
// time spent so far: a player could keep their clock from running by chatting.
#[tokio::test]
async fn a_chat_line_does_not_stop_the_movers_clock() {
    let s = timed("chat", TimeControl::Absolute { main_ms: 600 * S }).await;
    s.handle.act(s.black, "ann", mv("D4"), 0).await.unwrap();
    think(Duration::from_secs(10)).await;
    for who in [(s.black, "ann"), (s.white, "bob")] {
        s.handle
            .act(who.0, who.1, Action::Chat("still thinking?".into()), 0)
            .await
            .unwrap();
    }
    think(Duration::from_secs(10)).await;
    s.handle.act(s.white, "bob", mv("Q16"), 0).await.unwrap();
    let white = clocks(&s.handle).await["white"]["main_ms"]
        .as_u64()
        .unwrap();
    assert!(
        (579 * S..=581 * S).contains(&white),
        "White thought 20 s, chat or not: {white} ms left"
    );
}
