//! The disconnect grace period, under paused tokio time: a player whose last connection closes
//! loses when the grace period ends, and not if a connection comes back before.
//!
//! The clock is advanced by hand and real time resumed before the database is awaited (sqlx has
//! timers of its own that paused time would fire early). Real time then runs on, so a check
//! that a deadline has not passed yet stops five seconds short of it: a loaded machine may take
//! a second to answer (one run in seven failed with a margin of a millisecond).

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use serde_json::json;

mod common;

async fn game(grace: Duration) -> (tengen_live::actor::GameHandle, i64, i64) {
    let g = common::actor_game(
        &format!("grace-{}", grace.as_secs()),
        9,
        tengen_core::domain::clock::TimeControl::None,
        grace,
    )
    .await;
    (g.handle, g.black, g.white)
}

async fn result(h: &tengen_live::actor::GameHandle) -> serde_json::Value {
    serde_json::to_value(h.snapshot().await.unwrap()).unwrap()["result"].clone()
}

/// Reports a closed connection and waits until the actor has taken it in (it handles messages
/// in order, so the snapshot's reply comes after).
async fn gone(h: &tengen_live::actor::GameHandle, user: i64) {
    h.gone(user).await;
    h.snapshot().await.unwrap();
}

#[tokio::test]
async fn a_player_who_does_not_come_back_loses_when_the_grace_period_ends() {
    let (h, black, white) = game(Duration::from_secs(30)).await;
    let _w = h.watch(Some(black), None).await.unwrap();
    let _other = h.watch(Some(white), None).await.unwrap();
    tokio::time::pause();
    gone(&h, black).await;
    // Real time runs again from here: the checks before the grace period's end leave five
    // seconds of it, so that a loaded machine does not reach the deadline while asking.
    tokio::time::advance(Duration::from_secs(25)).await;
    tokio::time::resume();
    assert!(
        result(&h).await.is_null(),
        "25 s after the drop the game goes on"
    );
    // The connection comes back: the countdown stops.
    let _again = h.watch(Some(black), None).await.unwrap();
    common::think(Duration::from_secs(60)).await;
    assert!(
        result(&h).await.is_null(),
        "a player who came back keeps the game"
    );
    // Dropped again, and this time for good.
    gone(&h, black).await;
    common::think(Duration::from_secs(25)).await;
    assert!(result(&h).await.is_null());
    common::think(Duration::from_millis(5_001)).await;
    let snap = serde_json::to_value(h.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["result"], "W+F");
    assert_eq!(snap["end_reason"], "disconnected");
}

#[tokio::test]
async fn one_of_two_connections_closing_is_not_a_disconnection() {
    let (h, black, white) = game(Duration::from_secs(5)).await;
    let _a = h.watch(Some(black), None).await.unwrap();
    let _other = h.watch(Some(white), None).await.unwrap();
    let _b = h.watch(Some(black), None).await.unwrap();
    gone(&h, black).await;
    common::think(Duration::from_secs(3600)).await;
    assert!(result(&h).await.is_null(), "a second tab is still open");
}

#[tokio::test]
async fn leaving_an_untimed_bot_game_keeps_it_waiting_a_while_and_a_timed_one_follows_the_grace_rule(
) {
    use tengen_core::domain::clock::TimeControl;
    let untimed = common::actor_game_against(
        "grace-bot-untimed",
        9,
        TimeControl::None,
        Duration::from_secs(30),
        true,
    )
    .await;
    let h = untimed.handle;
    let _w = h.watch(Some(untimed.black), None).await.unwrap();
    tokio::time::pause();
    gone(&h, untimed.black).await;
    tokio::time::advance(Duration::from_secs(14 * 60)).await;
    tokio::time::resume();
    assert!(result(&h).await.is_null(), "the game waits for its player");
    // Back 14 minutes later, the game goes on where it was.
    let again = h.watch(Some(untimed.black), None).await.unwrap();
    assert!(again.snapshot.is_some());
    // Gone again, for 15 minutes: abandoned, it ends (issue 29, item 5: an abandoned bot game
    // blocked its player's quick match and stayed among the live games for ever). This one is
    // rated (no take-backs): lost by forfeit, as leaving any rated game is, and annulled here
    // since no move was played. A casual one ends `Void` (tests/quick_match.rs).
    drop(again);
    gone(&h, untimed.black).await;
    common::think(Duration::from_secs(15 * 60 - 5)).await;
    assert!(result(&h).await.is_null());
    common::think(Duration::from_secs(6)).await;
    let snap = serde_json::to_value(h.snapshot().await.unwrap()).unwrap();
    assert_eq!(
        (&snap["result"], &snap["end_reason"], &snap["annulled"]),
        (&json!("W+F"), &json!("disconnected"), &json!("no_show")),
        "{snap}"
    );

    let timed = common::actor_game_against(
        "grace-bot-timed",
        9,
        TimeControl::Absolute { main_ms: 600_000 },
        Duration::from_secs(30),
        true,
    )
    .await;
    let h = timed.handle;
    let _w = h.watch(Some(timed.black), None).await.unwrap();
    tokio::time::pause();
    gone(&h, timed.black).await;
    tokio::time::advance(Duration::from_secs(31)).await;
    tokio::time::resume();
    let snap = serde_json::to_value(h.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["result"], "W+F", "{snap}");
}

#[tokio::test]
async fn a_player_who_never_connects_loses_when_the_grace_period_ends() {
    // Nobody opens a socket to this game (joined over HTTP and left, or restored after a
    // restart with nobody coming back): it must still end.
    let (h, black, _white) = game(Duration::from_secs(40)).await;
    let _b = h.watch(Some(black), None).await.unwrap();
    common::think(Duration::from_secs(35)).await;
    assert!(result(&h).await.is_null(), "the grace period runs");
    common::think(Duration::from_secs(6)).await;
    let snap = serde_json::to_value(h.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["result"], "B+F", "White never came");
    assert_eq!(snap["end_reason"], "disconnected");
}
