//! What an operator relies on: `/metrics` in Prometheus's text format (checked by `promtool`
//! where it is installed), the liveness and readiness checks, and a backup taken while games
//! are played that holds every move acknowledged before it began.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{Client, TestServer};
use serde_json::json;

/// Black walls off column D and White column E of a 9x9 board: 18 moves, no captures.
fn wall_move(i: usize) -> String {
    let column = if i % 2 == 0 { 'D' } else { 'E' };
    format!("{column}{}", i / 2 + 1)
}

/// Moves in each game of [`play_games`].
const MOVES: usize = 18;

/// A 9x9 game between two new players; the game id and its players, Black first.
async fn game_between(server: &TestServer, a: &str, b: &str) -> (i64, [Client; 2]) {
    let ann = server.register(a, "2d").await;
    let bob = server.register(b, "2d").await;
    let j = server
        .new_game(
            &ann,
            &bob,
            json!({"size": 9, "rules": "japanese", "parity": "odd"}),
            json!({"guess": "odd"}),
        )
        .await;
    let id = j["game_id"].as_i64().unwrap();
    if j["game"]["black"]["username"] == a {
        (id, [ann, bob])
    } else {
        (id, [bob, ann])
    }
}

/// Plays [`MOVES`] moves in `game`, counting each acknowledged one in `acked` and telling
/// `progress`.
async fn play_out(
    game: i64,
    players: [Client; 2],
    acked: Arc<AtomicUsize>,
    progress: tokio::sync::mpsc::UnboundedSender<()>,
) {
    let mut sockets = [players[0].socket().await, players[1].socket().await];
    for i in 0..MOVES {
        let reply = sockets[i % 2].play(game, &wall_move(i)).await;
        common::ok(&reply);
        acked.fetch_add(1, Ordering::SeqCst);
        let _ = progress.send(());
    }
}

/// Starts `n` games, each played on its own task; their ids, acknowledged-move counters and a
/// channel told of each acknowledgement.
async fn play_games(
    server: &TestServer,
    n: usize,
) -> (
    Vec<(i64, Arc<AtomicUsize>)>,
    Vec<tokio::task::JoinHandle<()>>,
    tokio::sync::mpsc::UnboundedReceiver<()>,
) {
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut games = Vec::new();
    let mut tasks = Vec::new();
    for g in 0..n {
        let (id, players) = game_between(server, &format!("black{g}"), &format!("white{g}")).await;
        let acked = Arc::new(AtomicUsize::new(0));
        games.push((id, acked.clone()));
        tasks.push(tokio::spawn(play_out(id, players, acked, tx.clone())));
    }
    (games, tasks, rx)
}

/// `GET path` as text: the status, the content type and the body.
async fn get_text(server: &TestServer, path: &str) -> (StatusCode, String, String) {
    let resp = server
        .oneshot(Request::get(path).body(Body::empty()).unwrap())
        .await;
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = axum::body::to_bytes(resp.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, kind, String::from_utf8(body.to_vec()).unwrap())
}

/// The value of the sample `name` (with its labels as written) in an exposition.
fn sample(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no sample {name} in\n{text}"))
        .parse()
        .unwrap()
}

/// A server whose games have been played: its `/metrics` text.
async fn metrics_after_games(tag: &str) -> String {
    let server = TestServer::sqlite(tag).await;
    let (_, tasks, _) = play_games(&server, 2).await;
    for t in tasks {
        t.await.unwrap();
    }
    let (status, kind, text) = get_text(&server, "/metrics").await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/plain; version=0.0.4"), "{kind}");
    text
}

#[tokio::test]
async fn metrics_count_moves_connections_and_commits() {
    let text = metrics_after_games("metrics").await;
    // Other tests of this process play too: the counters are at least this test's.
    assert!(sample(&text, "tengen_moves_total") >= (2 * MOVES) as f64);
    assert!(sample(&text, "tengen_move_to_broadcast_seconds_count") >= (2 * MOVES) as f64);
    assert!(sample(&text, "tengen_commit_batch_appends_count") >= 1.0);
    assert!(sample(&text, "tengen_websockets_opened_total") >= 4.0);
    for family in [
        "tengen_game_actors",
        "tengen_websockets",
        "tengen_commit_duration_seconds",
        "tengen_db_pool_wait_seconds",
        "tengen_db_pool_connections",
        "tengen_cluster_forwarded_requests_total",
        "tengen_cluster_answered_requests_total",
        "tengen_bot_games",
        "tengen_bots",
        "tengen_engine_thinking_seconds_builtin",
        "tengen_players_online",
        "tengen_http_responses_total",
        "tengen_tournaments",
        "tengen_tournament_rounds_paired_total",
    ] {
        assert!(
            text.contains(&format!("# TYPE {family} ")),
            "no {family} in\n{text}"
        );
    }
}

/// `promtool check metrics` (Debian's `prometheus` package) accepts the exposition. Skipped
/// without promtool, except in CI, where that fails.
#[tokio::test]
#[ignore = "needs promtool (Debian package prometheus); run by .ci/run"]
async fn promtool_accepts_the_metrics() {
    let promtool = std::env::var("TENGEN_PROMTOOL").unwrap_or_else(|_| "promtool".into());
    let text = metrics_after_games("promtool").await;
    let child = std::process::Command::new(&promtool)
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            assert!(
                std::env::var("CI").map_or(true, |v| v != "true"),
                "promtool is required in CI: {e}"
            );
            eprintln!("skipping: no promtool: {e}");
            return;
        }
    };
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "promtool refused the metrics:\n{}{}\n{text}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test]
async fn readiness_fails_while_the_database_is_unreachable_and_liveness_does_not() {
    let server = TestServer::sqlite("readyz").await;
    assert_eq!(get_text(&server, "/readyz").await.0, StatusCode::OK);
    assert_eq!(get_text(&server, "/livez").await.0, StatusCode::OK);
    // The pool closed: no query reaches the database any more.
    server.store().pool().close().await;
    let (status, body) = server.get("/readyz").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert_eq!(body["error"]["code"], "database_unavailable");
    assert_eq!(get_text(&server, "/livez").await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_backup_taken_while_games_play_holds_every_acknowledged_move() {
    let server = TestServer::sqlite("backup").await;
    // Twelve games by default; TENGEN_BACKUP_GAMES=300 for the figure (slower: every
    // player's password is hashed).
    let games_wanted = std::env::var("TENGEN_BACKUP_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(12);
    let (games, tasks, mut progress) = play_games(&server, games_wanted).await;
    // Half the moves acknowledged, the other half still to come while the copy is made.
    for _ in 0..games_wanted * MOVES / 2 {
        progress.recv().await.unwrap();
    }
    let before: Vec<usize> = games
        .iter()
        .map(|(_, a)| a.load(Ordering::SeqCst))
        .collect();
    let dir = std::env::temp_dir().join(format!("tengen-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("copy.db");
    server.store().backup_into(&copy).await.unwrap();
    for t in tasks {
        t.await.unwrap();
    }
    assert!(
        server.store().backup_into(&copy).await.is_err(),
        "a backup never overwrites a file"
    );

    // Restored: a server started on the copy has every game with at least the moves
    // acknowledged before the backup, and they are the moves played.
    let restored = TestServer::start(&format!("sqlite:{}", copy.display())).await;
    for ((id, _), acked) in games.iter().zip(before) {
        let events = restored.store().events(*id).await.unwrap();
        let moves: Vec<String> = events
            .iter()
            .filter_map(|e| {
                let v: serde_json::Value = serde_json::from_str(&e.event).unwrap();
                (v["type"] == "move").then(|| v["point"].as_str().unwrap().to_string())
            })
            .collect();
        assert!(
            moves.len() >= acked,
            "game {id}: {} moves in the backup, {acked} acknowledged before it",
            moves.len()
        );
        let played: Vec<String> = (0..moves.len()).map(wall_move).collect();
        assert_eq!(moves, played, "game {id}");
    }
}
