//! Ratings: the migration that rates the games finished before ratings existed, in the order
//! they ended.

#![allow(clippy::unwrap_used)]

mod common;

use tengen_core::domain::clock::TimeControl;
use tengen_core::domain::glicko::rate_game;
use tengen_core::rating::head_start;
use tengen_store::commit::{Append, Finish};
use tengen_store::ratings::seeded_from;
use tengen_store::Store;

/// Finishes a new game between `black` and `white` with `result` at `at`, rating nothing (as
/// before ratings existed).
async fn old_game(
    store: &Store,
    black: i64,
    white: i64,
    terms: &str,
    result: &str,
    at: i64,
) -> i64 {
    let id = store
        .start_game(0, black, white, terms)
        .await
        .unwrap()
        .unwrap();
    store
        .append(Append {
            game_id: id,
            first_seq: 1,
            events: vec![r#"{"type":"resign","color":"black"}"#.into()],
            clocks: None,
            at_ms: at * 1000,
            finish: Some(Finish {
                result: result.into(),
                outcomes: Vec::new(),
                at,
                rated: None,
                annulled: None,
            }),
            fence: None,
        })
        .await
        .unwrap();
    id
}

#[tokio::test]
async fn the_migration_rates_finished_games_in_the_order_they_ended() {
    let url = common::sqlite_url("ratings-migration");
    let store = Store::open(&url).await.unwrap();
    let (ann, _) =
        tengen_app::accounts::register(&store, "ann", common::PASSWORD, "5k", &Default::default())
            .await
            .unwrap();
    let (bob, _) =
        tengen_app::accounts::register(&store, "bob", common::PASSWORD, "2k", &Default::default())
            .await
            .unwrap();
    let (guest, _) = tengen_app::accounts::guest(&store, &Default::default())
        .await
        .unwrap();
    let even = serde_json::to_string(&common::terms(19, TimeControl::None)).unwrap();
    let mut handicap = common::terms(19, TimeControl::None);
    handicap.handicap = 3;
    handicap.komi = tengen_rules::Komi::from_halves(1);
    handicap.game_type = tengen_core::domain::game_type::GameType::Handicap;
    let handicap_json = serde_json::to_string(&handicap).unwrap();
    // Started in one order, ended in another: Bob's handicap win ends first.
    let g1 = old_game(&store, ann.id, bob.id, &even, "B+R", 300).await;
    let g2 = old_game(&store, ann.id, bob.id, &handicap_json, "W+12.5", 100).await;
    let g3 = old_game(&store, ann.id, bob.id, &even, "0", 200).await;
    // Unrated: a guest played.
    old_game(&store, ann.id, guest.id, &even, "B+R", 400).await;
    // As a database from before ratings: no rating, no history, the data step not done (nor
    // the steps after it, undone here too: the reviews table, its version, quick match's
    // queue, the cluster's heartbeats and their index, the tournaments' four tables,
    // moderation's columns and tables, players' blocks, the games' annulment reason, messages
    // and friends, the reviews' chat, the readiness probe's table, the sessions' kind, last
    // use, device and address, the names' keys, the learners, their puzzle attempts and index,
    // the puzzles' ratings, the games' stored ranks; the pairings' board result and corrector
    // go with their table).
    // Each step appended to the migrations adds its undoing here (and in trust.rs's
    // migration to names' keys).
    for sql in [
        "ALTER TABLE games DROP COLUMN white_rank",
        "ALTER TABLE games DROP COLUMN black_rank",
        "DROP TABLE puzzle_ratings",
        "DROP INDEX puzzle_attempts_user",
        "DROP TABLE puzzle_attempts",
        "DROP TABLE learners",
        "DROP INDEX users_name_key",
        "ALTER TABLE users DROP COLUMN name_key",
        "DROP INDEX sessions_user",
        "ALTER TABLE sessions DROP COLUMN address",
        "ALTER TABLE sessions DROP COLUMN user_agent",
        "ALTER TABLE sessions DROP COLUMN last_seen",
        "ALTER TABLE sessions DROP COLUMN kind",
        "DROP TABLE health_probe",
        "UPDATE users SET rating = NULL, deviation = NULL, volatility = NULL",
        "DELETE FROM rating_history",
        "DROP TABLE reviews",
        "DROP TABLE match_requests",
        "DROP TABLE cluster_nodes",
        "DROP INDEX game_owners_node",
        "DROP TABLE tournament_log",
        "DROP TABLE tournament_pairings",
        "DROP TABLE tournament_players",
        "DROP TABLE tournaments",
        "DROP TABLE friends",
        "DROP TABLE messages",
        "ALTER TABLE games DROP COLUMN annul_reason",
        "DROP TABLE blocks",
        "DROP TABLE promotion_history",
        "ALTER TABLE games DROP COLUMN annulled",
        "DROP TABLE reports",
        "DROP TABLE moderation_log",
        "ALTER TABLE users DROP COLUMN banned_until",
        "ALTER TABLE users DROP COLUMN suspended_until",
        "ALTER TABLE users DROP COLUMN muted_until",
        "ALTER TABLE users DROP COLUMN role",
        "DELETE FROM schema_version WHERE version >= (SELECT MAX(version) - 43 FROM schema_version)",
    ] {
        store.execute(sql).await.unwrap();
    }
    drop(store);

    let store = Store::open(&url).await.unwrap();
    let history = store.rating_history(ann.id, 100).await.unwrap();
    let games: Vec<i64> = history.iter().map(|p| p.game_id).collect();
    assert_eq!(games, [g2, g3, g1], "in the order the games ended");
    // The same figures as rating them one by one.
    let (mut a, mut b) = (seeded_from("5k"), seeded_from("2k"));
    for (terms, score) in [
        (&handicap, 0.0),
        (&common::terms(19, TimeControl::None), 0.5),
        (&common::terms(19, TimeControl::None), 1.0),
    ] {
        [a, b] = rate_game(a, b, score, head_start(terms));
    }
    let now = store.rating(ann.id).await.unwrap().unwrap();
    assert!((now.rating - a.rating).abs() < 1e-9, "{now:?} {a:?}");
    assert!((history[2].rating - a.rating).abs() < 0.01);
    let bob_now = store.rating(bob.id).await.unwrap().unwrap();
    assert!((bob_now.rating - b.rating).abs() < 1e-9);
    assert!(store.rating_history(guest.id, 10).await.unwrap().is_empty());
    // Opening again rates nothing twice.
    drop(store);
    let store = Store::open(&url).await.unwrap();
    assert_eq!(store.rating_history(ann.id, 100).await.unwrap().len(), 3);
}

/// Finishes a new game between `black` and `white` as the server does: promotion points and
/// the rating both move.
async fn rated_game(store: &Store, black: i64, white: i64, black_wins: bool, at: i64) {
    let terms = serde_json::to_string(&common::terms(19, TimeControl::None)).unwrap();
    let id = store
        .start_game(0, black, white, &terms)
        .await
        .unwrap()
        .unwrap();
    let result = if black_wins { "B+R" } else { "W+R" };
    store
        .append(Append {
            game_id: id,
            first_seq: 1,
            events: vec![r#"{"type":"resign","color":"black"}"#.into()],
            clocks: None,
            at_ms: at * 1000,
            finish: Some(Finish {
                result: result.into(),
                outcomes: vec![
                    tengen_store::games::PromotionOutcome {
                        user_id: black,
                        won: black_wins,
                    },
                    tengen_store::games::PromotionOutcome {
                        user_id: white,
                        won: !black_wins,
                    },
                ],
                at,
                rated: Some(tengen_store::ratings::RatedGame {
                    black_id: black,
                    white_id: white,
                    black_score: if black_wins { 1.0 } else { 0.0 },
                    head_start: 0.0,
                }),
                annulled: None,
            }),
            fence: None,
        })
        .await
        .unwrap();
}

// Issue 29 item 7: a player who went 1-3 against stronger players saw their shown rank rise,
// because the page showed the rating's own rank ("9k?") beside the seeds' ("10k"). The seeds'
// rank, moved only by promotion points, is the one rank; the rating is a number.
#[tokio::test]
async fn the_only_rank_shown_is_the_seeds_rank_whatever_the_rating_does() {
    let store = Store::open(&common::sqlite_url("one-rank")).await.unwrap();
    let (ann, _) =
        tengen_app::accounts::register(&store, "ann", common::PASSWORD, "10k", &Default::default())
            .await
            .unwrap();
    let (bob, _) =
        tengen_app::accounts::register(&store, "bob", common::PASSWORD, "3k", &Default::default())
            .await
            .unwrap();
    // One win and three losses against a player seven ranks above: the rating rises.
    rated_game(&store, ann.id, bob.id, true, 100).await;
    for at in [200, 300, 400] {
        rated_game(&store, ann.id, bob.id, false, at).await;
    }
    let after = tengen_app::accounts::named(&store, "ann").await.unwrap();
    assert!(after.rating > seeded_from("10k").rating, "{after:?}");
    // Promotion points: 50 + 5 - 15; the rank has not moved.
    assert_eq!((after.rank.to_string().as_str(), after.points), ("10k", 40));
    let shown = serde_json::to_value(&after).unwrap();
    assert_eq!(shown["rank"], "10k");
    let ranks: Vec<&str> = shown
        .as_object()
        .unwrap()
        .keys()
        .filter(|k| k.contains("rank"))
        .map(String::as_str)
        .collect();
    assert_eq!(
        ranks,
        ["rank"],
        "no second rank beside the seeds' one: {shown}"
    );
    let page = tengen_app::profile::ratings(&store, "ann", None)
        .await
        .unwrap();
    let page = serde_json::to_value(page).unwrap();
    assert_eq!(
        (page["rank"].as_str(), page["points"].as_i64()),
        (Some("10k"), Some(40))
    );
    assert_eq!(page["history"].as_array().unwrap().len(), 4);
    assert!(page["history"][0].get("rank").is_none(), "{page}");
}
