//! Group commit: appends of many games share transactions, each is answered only once it is
//! stored, and one game's failed write refuses nothing of another game's.

#![allow(clippy::unwrap_used)]

mod common;

use tengen_store::commit::{Append, Finish};
use tengen_store::games::{GameStatus, PromotionOutcome};
use tengen_store::ratings::RatedGame;
use tengen_store::Store;

/// One pass numbered `seq` in `game_id`, at 1 s + `seq` ms, ending the game with `finish`.
fn append(game_id: i64, seq: i64, finish: Option<Finish>) -> Append {
    Append {
        finish,
        ..common::pass_append(game_id, seq, 1_000 + seq)
    }
}

/// `n` new games between two guests; their ids, and the guests'.
async fn games(store: &Store, n: usize) -> (Vec<i64>, [i64; 2]) {
    let players = common::two_guests(store).await;
    let mut ids = Vec::new();
    for _ in 0..n {
        ids.push(common::bare_game(store, players).await);
    }
    (ids, players)
}

#[tokio::test]
async fn many_games_share_transactions_and_a_bad_write_fails_alone() {
    let store = Store::open(&common::sqlite_url("group-commit"))
        .await
        .unwrap();
    let (ids, [ann, bob]) = games(&store, 40).await;
    // Every game's first move, all at once.
    let mut tasks = Vec::new();
    for &id in &ids {
        let s = store.clone();
        tasks.push(tokio::spawn(
            async move { s.append(append(id, 1, None)).await },
        ));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let counts = store.commit_counts();
    assert_eq!(counts.appends(), 40);
    assert!(
        counts.transactions() < 40,
        "40 appends at once share transactions ({} used)",
        counts.transactions()
    );
    // The second moves, with game 0's first move once more (it breaks the primary key): that
    // one fails, no other.
    let mut tasks = Vec::new();
    for &id in &ids[1..] {
        let s = store.clone();
        tasks.push(tokio::spawn(
            async move { s.append(append(id, 2, None)).await },
        ));
    }
    let s = store.clone();
    let twice = ids[0];
    let bad = tokio::spawn(async move { s.append(append(twice, 1, None)).await });
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    assert!(bad.await.unwrap().is_err(), "a duplicate seq is refused");
    assert_eq!(counts.appends(), 79);
    for &id in &ids {
        let events = store.events(id).await.unwrap();
        assert_eq!(events[0].seq, 1);
        assert_eq!(events[0].at_ms, 1_001);
        assert_eq!(events.len(), if id == ids[0] { 1 } else { 2 }, "game {id}");
    }

    // A game's end in a batch with other games' moves: its result and points are stored.
    let mut tasks = Vec::new();
    for &id in &ids[1..] {
        let s = store.clone();
        tasks.push(tokio::spawn(
            async move { s.append(append(id, 3, None)).await },
        ));
    }
    let finish = Finish {
        result: "B+R".into(),
        outcomes: vec![
            PromotionOutcome {
                user_id: ann,
                won: true,
            },
            PromotionOutcome {
                user_id: bob,
                won: false,
            },
        ],
        at: 5,
        rated: Some(RatedGame {
            black_id: ann,
            white_id: bob,
            black_score: 1.0,
            head_start: 0.0,
        }),
        annulled: None,
    };
    store.append(append(ids[0], 2, Some(finish))).await.unwrap();
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    let row = store.game(ids[0]).await.unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result.as_deref(), Some("B+R"));
    assert_eq!(
        store.game(ids[1]).await.unwrap().unwrap().status,
        GameStatus::Live
    );
    // And both ratings moved, each with its history row.
    let seeded = tengen_store::ratings::seeded_from("18k").rating;
    let ann_history = store.rating_history(ann, 10).await.unwrap();
    let bob_history = store.rating_history(bob, 10).await.unwrap();
    assert_eq!(ann_history.len(), 1);
    assert_eq!(ann_history[0].game_id, ids[0]);
    assert!(ann_history[0].rating > seeded);
    assert!(bob_history[0].rating < seeded);
    let now = store.rating(ann).await.unwrap().unwrap().rating;
    assert_eq!(tengen_store::ratings::round2(now), ann_history[0].rating);
    for &id in &ids {
        let seqs: Vec<i64> = store
            .events(id)
            .await
            .unwrap()
            .iter()
            .map(|e| e.seq)
            .collect();
        let want: &[i64] = if id == ids[0] { &[1, 2] } else { &[1, 2, 3] };
        assert_eq!(seqs, want, "game {id}");
    }
}

#[tokio::test]
async fn moves_skip_sqlx_unless_another_writer_holds_the_file() {
    let store = Store::open(&common::sqlite_url("direct-writer"))
        .await
        .unwrap();
    let (ids, _) = games(&store, 1).await;
    let counts = store.commit_counts();
    store.append(append(ids[0], 1, None)).await.unwrap();
    assert_eq!(
        counts.direct(),
        1,
        "a move goes through the committer's own connection"
    );

    // A transaction of sqlx's connection holds the write lock: the next move must neither fail
    // nor jump the lock; it waits for that transaction and is written after it.
    let mut tx = store.pool().begin().await.unwrap();
    sqlx::query("UPDATE games SET status = status WHERE id = $1")
        .bind(ids[0])
        .execute(&mut *tx)
        .await
        .unwrap();
    let s = store.clone();
    let id = ids[0];
    let waiting = tokio::spawn(async move { s.append(append(id, 2, None)).await });
    for _ in 0..20 {
        tokio::task::yield_now().await;
    }
    assert!(
        !waiting.is_finished(),
        "the move waits for the open transaction"
    );
    tx.commit().await.unwrap();
    waiting.await.unwrap().unwrap();
    assert_eq!(
        counts.direct(),
        1,
        "written through sqlx, after its transaction"
    );
    assert_eq!(counts.transactions(), 2);
    let seqs: Vec<i64> = store
        .events(ids[0])
        .await
        .unwrap()
        .iter()
        .map(|e| e.seq)
        .collect();
    assert_eq!(seqs, [1, 2]);
    // And the next goes the direct way again.
    store.append(append(ids[0], 3, None)).await.unwrap();
    assert_eq!(counts.direct(), 2);
    assert_eq!(store.events(ids[0]).await.unwrap().len(), 3);
}

/// Games that end at once, in one transaction: each gets its own result.
async fn games_end_together(url: &str) {
    let store = Store::open(url).await.unwrap();
    let (ids, _) = games(&store, 12).await;
    let results = ["B+R", "W+R", "B+T", "W+3.5"];
    let mut tasks = Vec::new();
    for (i, &id) in ids.iter().enumerate() {
        let s = store.clone();
        let finish = (i < 8).then(|| Finish {
            result: results[i % 4].into(),
            outcomes: Vec::new(),
            at: 100 + i as i64,
            rated: None,
            annulled: None,
        });
        tasks.push(tokio::spawn(async move {
            s.append(append(id, 1, finish)).await
        }));
    }
    for t in tasks {
        t.await.unwrap().unwrap();
    }
    for (i, &id) in ids.iter().enumerate() {
        let row = store.game(id).await.unwrap().unwrap();
        if i < 8 {
            assert_eq!(row.status, GameStatus::Finished, "game {id}");
            assert_eq!(row.result.as_deref(), Some(results[i % 4]), "game {id}");
        } else {
            assert_eq!(row.status, GameStatus::Live, "game {id}");
            assert_eq!(row.result, None, "game {id}");
        }
    }
}

#[tokio::test]
async fn games_end_together_on_sqlite() {
    games_end_together(&common::sqlite_url("end-together")).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL on 127.0.0.1:5432 (database test); run by .ci/run"]
async fn games_end_together_on_postgres() {
    if let Some(url) = common::postgres_url().await {
        games_end_together(&url).await;
    }
}
