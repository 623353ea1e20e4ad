//! A full disk (issue 38): games that cannot store logged "could not store events" in a tight
//! loop, writes answered 500 `internal` and `/readyz` kept answering ready. Now the failures
//! are counted and logged a line an interval, every write answers 503 `storage_unavailable`,
//! `/readyz` answers 503 with the reason, and once there is room again the node is ready and
//! writes succeed, without a restart. The disk is a small tmpfs filled by a file.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use axum::http::StatusCode;
use serde_json::json;
use tengen_core::game::Action;

mod common;
use common::TestServer;

/// Unmounts the tmpfs when the test ends, passed or not.
struct Mounted(PathBuf);

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// A 4 MB tmpfs at a fresh directory; `None` where this user cannot mount one.
fn small_disk() -> Option<Mounted> {
    let dir = std::env::temp_dir().join(format!("tengen-full-disk-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
        .arg(&dir)
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(Mounted(dir))
}

/// Writes `path` until the disk is full.
fn fill(path: &Path) {
    let mut f = std::fs::File::create(path).unwrap();
    let chunk = vec![0u8; 16 * 1024];
    while f.write_all(&chunk).is_ok() {}
    let _ = f.sync_all();
}

#[tokio::test]
#[ignore = "mounts a small tmpfs, which needs root; run by .ci/run"]
async fn a_full_disk_is_told_not_shouted_and_the_node_recovers_without_a_restart() {
    let Some(disk) = small_disk() else {
        assert!(
            std::env::var("CI").is_err(),
            "CI runs as root: mount must work"
        );
        eprintln!("skipped: this user cannot mount a tmpfs");
        return;
    };
    let url = format!("sqlite:{}", disk.0.join("tengen.db").display());
    let server = TestServer::start(&url).await;
    let (ann, _bob, id) = server.ann_and_bob_game().await;
    let h = server.state.services.games.get(id).await.unwrap().unwrap();
    let (st, _) = server.get("/readyz").await;
    assert_eq!(st, StatusCode::OK);

    fill(&disk.0.join("filler"));
    // The log's file may still have room in pages it holds: chat until a write fails.
    let line = "a long line to fill the log ".repeat(15);
    let mut failed = None;
    for _ in 0..20_000 {
        if let Err(e) = h.act(ann.id(), "ann", Action::Chat(line.clone()), 0).await {
            failed = Some(e);
            break;
        }
    }
    let failed = failed.expect("a chat line fails once the disk is full");
    assert_eq!(failed.code(), "storage_unavailable", "{failed}");

    // Told, not shouted: writes answer 503 storage_unavailable, never 500 (a review stores a
    // large row; some may still fit in pages the database holds).
    let record = format!("(;GM[1]FF[4]SZ[9]C[{}])", "a comment ".repeat(2_000));
    let mut refused = 0;
    for _ in 0..200 {
        let (st, e) = ann.post("/api/reviews", json!({"sgf": record})).await;
        match st {
            StatusCode::CREATED => assert_eq!(refused, 0, "a write fits after one failed"),
            StatusCode::SERVICE_UNAVAILABLE => {
                assert_eq!(e["error"]["code"], "storage_unavailable", "{e}");
                refused += 1;
                if refused == 30 {
                    break;
                }
            }
            _ => panic!("{st} {e}"),
        }
    }
    assert_eq!(refused, 30);
    let (st, e) = server.get("/readyz").await;
    assert_eq!(
        (st, e["error"]["code"].as_str()),
        (StatusCode::SERVICE_UNAVAILABLE, Some("storage_unavailable")),
        "{e}"
    );
    assert!(
        e["error"]["message"].as_str().unwrap().contains("full"),
        "{e}"
    );
    let health = server.store().health();
    assert!(health.failures() >= 31);
    assert!(
        health.log_lines() <= 3,
        "a line per kind (game events, request, readiness probe), not one a failure: {}",
        health.log_lines()
    );

    // Room again: ready, and writes succeed, with no restart.
    std::fs::remove_file(disk.0.join("filler")).unwrap();
    let (st, e) = server.get("/readyz").await;
    assert_eq!(st, StatusCode::OK, "{e}");
    assert_eq!(health.failing(), None);
    let (st, e) = ann.post("/api/reviews", json!({"sgf": record})).await;
    assert_eq!(st, StatusCode::CREATED, "{e}");
    h.act(ann.id(), "ann", Action::Chat("back".into()), 0)
        .await
        .unwrap();
}
