//! Game leases and fencing (the cluster's ownership of games), on SQLite and PostgreSQL.

#![allow(clippy::unwrap_used)]

mod common;

use tengen_store::commit::Append;
use tengen_store::{Store, StoreError};

/// One pass numbered `seq` in `game_id`, at `seq` ms, written under `fence`.
fn append(game_id: i64, seq: i64, fence: Option<tengen_store::lease::Lease>) -> Append {
    Append {
        fence,
        ..common::pass_append(game_id, seq, seq)
    }
}

async fn leases_fence_old_owners(url: &str) {
    let store = Store::open(url).await.unwrap();
    let players = common::two_guests(&store).await;
    let game = common::bare_game(&store, players).await;
    let other = common::bare_game(&store, players).await;
    // A new game is left to the node starting it for its first seconds.
    assert!(store.orphaned_games().await.unwrap().is_empty());

    // Node a takes the game; node b cannot while a holds it. (Leases count while their node's
    // heartbeat does.)
    store.renew("a", 60_000).await.unwrap();
    store.renew("b", 60_000).await.unwrap();
    let a = store.claim(game, "a").await.unwrap().unwrap();
    assert_eq!(a.epoch, 1);
    assert_eq!(store.claim(game, "b").await.unwrap(), None);
    assert_eq!(store.owner(game).await.unwrap(), Some(a.clone()));
    assert!(store.orphaned_games().await.unwrap().is_empty());
    store
        .append(append(game, 1, Some(a.clone())))
        .await
        .unwrap();
    // Renewing keeps the epoch.
    assert_eq!(store.claim(game, "a").await.unwrap(), Some(a.clone()));
    store.renew("a", 60_000).await.unwrap();
    assert_eq!(store.owned("a").await.unwrap(), [game]);

    // a stops renewing (its lease lapses); b takes over with a new epoch.
    store.renew("a", -1).await.unwrap();
    assert!(store.owned("a").await.unwrap().is_empty());
    assert_eq!(store.owner(game).await.unwrap(), None);
    assert_eq!(store.orphaned_games().await.unwrap(), [game]);
    let b = store.claim(game, "b").await.unwrap().unwrap();
    assert_eq!(b.epoch, 2);

    // The old owner's write is refused, in a batch with others' writes or alone; the new
    // owner's goes through; what is stored is the new owner's alone.
    let (old, new, unfenced) = tokio::join!(
        store.append(append(game, 2, Some(a.clone()))),
        store.append(append(game, 2, Some(b.clone()))),
        store.append(append(other, 1, None)),
    );
    assert!(
        matches!(old, Err(StoreError::Fenced(g)) if g == game),
        "{old:?}"
    );
    new.unwrap();
    unfenced.unwrap();
    let seqs: Vec<(i64, i64)> = store
        .events(game)
        .await
        .unwrap()
        .iter()
        .map(|e| (e.seq, e.at_ms))
        .collect();
    assert_eq!(seqs, [(1, 1), (2, 2)]);
    // In one batch, a stale lease fails and a held one of another game goes through.
    let theirs = store.claim(other, "b").await.unwrap().unwrap();
    let (stale, held) = tokio::join!(
        store.append(append(game, 3, Some(a.clone()))),
        store.append(append(other, 2, Some(theirs))),
    );
    assert!(
        matches!(stale, Err(StoreError::Fenced(g)) if g == game),
        "{stale:?}"
    );
    held.unwrap();
    assert_eq!(store.events(other).await.unwrap().len(), 2);
    // A lease of another game is no fence for this one.
    let wrong = tengen_store::lease::Lease {
        game_id: other,
        ..b.clone()
    };
    assert!(store.append(append(game, 3, Some(wrong))).await.is_err());

    // Given up, the game is free at once.
    store.release(&b).await.unwrap();
    store.renew("a", 60_000).await.unwrap();
    assert_eq!(store.owner(game).await.unwrap(), None);
    let a2 = store.claim(game, "a").await.unwrap().unwrap();
    assert_eq!(a2.epoch, 3, "epochs only grow");
    assert!(store.append(append(game, 3, Some(b))).await.is_err());
    store.append(append(game, 3, Some(a2))).await.unwrap();
}

#[tokio::test]
async fn leases_fence_old_owners_on_sqlite() {
    leases_fence_old_owners(&common::sqlite_url("leases")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn leases_fence_old_owners_on_postgres() {
    if let Some(url) = common::postgres_url().await {
        leases_fence_old_owners(&url).await;
    }
}
