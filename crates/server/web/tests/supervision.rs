//! A bug is one failure, not the node's: a game's actor that panics is taken up again from its
//! log at once, the moves stored before it kept, and the game goes on (issue 38).

#![allow(clippy::unwrap_used)]

use tengen_core::game::Action;
use tengen_rules::coord::gtp::parse_point;

mod common;
use common::TestServer;

#[tokio::test]
async fn a_game_whose_actor_panics_comes_back_from_its_log_and_goes_on() {
    let server = TestServer::sqlite("supervision").await;
    let (ann, bob, id) = server.ann_and_bob_game().await;
    let games = &server.state.services.games;
    let h = games.get(id).await.unwrap().unwrap();
    // Bob guessed wrong: Ann is Black.
    h.act(
        ann.id(),
        "ann",
        Action::Move(parse_point(9, "E5").unwrap()),
        0,
    )
    .await
    .unwrap();
    h.crash().await;
    assert!(h.is_closed(), "the actor that panicked is gone");
    // Taken up again without a request: its clocks run on. Its log is read back on the
    // database's own thread, so the wait is bounded in time, not in turns of this runtime (a
    // thousand turns were too few on a loaded machine).
    let mut back = None;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while std::time::Instant::now() < deadline {
        back = games.local(id).await;
        if back.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
    }
    let back = back.expect("the game is taken up again by itself");
    back.act(
        bob.id(),
        "bob",
        Action::Move(parse_point(9, "C3").unwrap()),
        0,
    )
    .await
    .unwrap();
    let snap = serde_json::to_value(back.snapshot().await.unwrap()).unwrap();
    assert_eq!(snap["moves"].as_array().unwrap().len(), 2, "{snap}");
    // The node serves on, and says what happened.
    let (st, _) = server.get(&format!("/api/games/{id}")).await;
    assert!(st.is_success());
    let metrics = tengen_server::metrics::text(&server.state);
    assert!(
        metrics.contains("tengen_game_actor_panics_total 1"),
        "{metrics}"
    );
}
