//! Finished games give their memory back: an actor retires `RETIRE_AFTER` after its last
//! command once no one watches, the registry drops ended actors' handles, and a finished game
//! asked for later is served from its log. Under paused tokio time (resumed around the
//! database, whose pool has timers of its own).

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use tengen_core::domain::clock::TimeControl;
use tengen_core::game::Action;
use tengen_live::actor::RETIRE_AFTER;
use tengen_live::registry::Games;

mod common;

/// Lets the actor take in what was sent to it (it answers in order).
async fn settle(h: &tengen_live::actor::GameHandle) {
    let _ = h.snapshot().await;
}

#[tokio::test]
async fn a_finished_game_retires_once_no_one_watches_it() {
    let g = common::actor_game("retire", 9, TimeControl::None, Duration::from_secs(3600)).await;
    let h = &g.handle;
    let watcher = h.watch(Some(g.black), None).await.unwrap();
    h.act(g.black, "ann", Action::Resign, 0).await.unwrap();
    assert!(!serde_json::to_value(h.snapshot().await.unwrap()).unwrap()["result"].is_null());
    // Watched: it stays however long.
    common::think(RETIRE_AFTER + Duration::from_secs(1)).await;
    settle(h).await;
    assert!(!h.is_closed(), "a watched finished game stays");
    common::think(RETIRE_AFTER * 3).await;
    settle(h).await;
    assert!(!h.is_closed(), "a watched finished game stays");
    // No one watches: it goes after the delay, not before.
    drop(watcher);
    h.gone(g.black).await;
    settle(h).await;
    common::think(RETIRE_AFTER - Duration::from_secs(1)).await;
    settle(h).await;
    assert!(
        !h.is_closed(),
        "{RETIRE_AFTER:?} after its last command, not before"
    );
    common::think(RETIRE_AFTER + Duration::from_secs(1)).await;
    tokio::task::yield_now().await;
    assert!(h.is_closed(), "retired");
}

#[tokio::test]
async fn a_game_still_played_does_not_retire() {
    let g = common::actor_game("no-retire", 9, TimeControl::None, Duration::from_secs(3600)).await;
    common::think(RETIRE_AFTER * 3).await;
    settle(&g.handle).await;
    assert!(!g.handle.is_closed());
    let p = tengen_rules::coord::gtp::parse_point(9, "E5").unwrap();
    g.handle
        .act(g.black, "ann", Action::Move(p), 0)
        .await
        .unwrap();
}

#[tokio::test]
async fn the_registry_lets_retired_games_go_and_serves_them_from_their_log() {
    let store = tengen_store::Store::open(&common::sqlite_url("retire-registry"))
        .await
        .unwrap();
    let games = Games::new(store.clone(), Duration::from_secs(3600));
    let ids = common::ann_and_bob(&store).await;
    let terms = common::terms(9, TimeControl::None);
    let new_game = || async {
        let id = common::stored_game(&store, ids, &terms).await;
        let players = common::ann_and_bob_players(ids);
        (id, games.start(id, terms.clone(), players).await.unwrap())
    };
    // Many games, each resigned at once: their actors retire, and the registry, swept as it
    // grows, holds about the games still running rather than every game it ever ran.
    let mut handles = Vec::new();
    for _ in 0..1100 {
        let (id, h) = new_game().await;
        h.act(ids[0], "ann", Action::Resign, 0).await.unwrap();
        handles.push((id, h));
    }
    common::think(RETIRE_AFTER + Duration::from_secs(1)).await;
    for (_, h) in &handles {
        settle(h).await;
    }
    assert!(handles.iter().all(|(_, h)| h.is_closed()), "all retired");
    for _ in 0..1000 {
        new_game().await;
    }
    assert!(
        games.held().await <= 1000,
        "the retired games' handles were swept: {} held",
        games.held().await
    );
    // A retired game is still there to look at, from its log.
    let (old, _) = handles[0];
    let again = games.get(old).await.unwrap().unwrap();
    assert!(!again.is_closed());
    let snap = serde_json::to_value(again.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["result"], "W+R", "{snap}");
}
