//! Accounts, games and moves written straight into a store.

use tengen_core::game::Terms;
use tengen_store::commit::Append;
use tengen_store::Store;

/// The accounts of ann and bob (3k, made as bots' accounts are: no password), their ids.
pub async fn ann_and_bob(store: &Store) -> [i64; 2] {
    let mut ids = [0; 2];
    for (id, name) in ids.iter_mut().zip(["ann", "bob"]) {
        *id = tengen_app::accounts::ensure_bot(store, name, "3k".parse().unwrap(), "test")
            .await
            .unwrap()
            .id;
    }
    ids
}

/// A new game between `ids` (Black first) on `terms`, stored but not started; its id.
pub async fn stored_game(store: &Store, ids: [i64; 2], terms: &Terms) -> i64 {
    store
        .start_game(0, ids[0], ids[1], &serde_json::to_string(terms).unwrap())
        .await
        .unwrap()
        .unwrap()
}

/// Two new guests' accounts, their ids.
pub async fn two_guests(store: &Store) -> [i64; 2] {
    let (ann, _) = tengen_app::accounts::guest(store, &Default::default())
        .await
        .unwrap();
    let (bob, _) = tengen_app::accounts::guest(store, &Default::default())
        .await
        .unwrap();
    [ann.id, bob.id]
}

/// A new game between `ids` on the plainest terms that read (9x9, untimed), for tests of the
/// store alone; its id. (Terms that do not read make a malformed row, which the store refuses.)
pub async fn bare_game(store: &Store, ids: [i64; 2]) -> i64 {
    let terms = r#"{"size":9,"rules":"japanese","komi":"6.5","handicap":0,"take_back":false,"game_type":"ho_sun"}"#;
    store
        .start_game(0, ids[0], ids[1], terms)
        .await
        .unwrap()
        .unwrap()
}

/// The append of one pass, numbered `seq` in its text too, at `at_ms`; unfenced, not ending the
/// game.
pub fn pass_append(game_id: i64, seq: i64, at_ms: i64) -> Append {
    Append {
        game_id,
        first_seq: seq,
        events: vec![format!(r#"{{"type":"pass","n":{seq}}}"#)],
        clocks: None,
        at_ms,
        finish: None,
        fence: None,
    }
}
