//! `POST /api/sgf/import`: a record other programs wrote is read as `loadsgf` reads it, and a
//! record that cannot stand for a position is refused with a stable code and the reason.

#![allow(clippy::unwrap_used)]

use axum::http::StatusCode;
use serde_json::Value;

mod common;
use common::TestServer;

/// Posts `body` as an SGF file to `path` on a server of its own (named after `tag`).
async fn import(tag: &str, path: &str, body: &str) -> (StatusCode, Value) {
    let server = TestServer::sqlite(&format!("sgf-{tag}")).await;
    let req = axum::http::Request::builder()
        .method("POST")
        .uri(path)
        .header("content-type", "application/x-go-sgf")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    let resp = server.oneshot(req).await;
    (resp.status(), common::body_json(resp).await)
}

#[tokio::test]
async fn a_handicap_record_with_edits_is_read() {
    let (status, g) = import(
        "handicap",
        "/api/sgf/import",
        "(;GM[1]FF[4]SZ[9]HA[2]KM[0.5]RU[Chinese]PB[Ann]BR[3k]RE[W+R]AB[cc][gg]\
         ;W[ge];B[ec];W[ee];W[cg];AW[dd]PL[B];B[dg])",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["size"], 9);
    assert_eq!(g["rules"], "chinese");
    assert_eq!(g["komi"], "0.5");
    assert_eq!(g["handicap"], serde_json::json!(["C7", "G3"]));
    assert_eq!(g["black"]["name"], "Ann");
    assert_eq!(g["result"], "W+R");
    assert_eq!(g["start"]["to_move"], "white");
    let history = g["history"].as_array().unwrap();
    assert_eq!(history.len(), 6);
    assert_eq!(history[0]["move"], "G5");
    assert_eq!(history[4]["setup"]["white"], serde_json::json!(["D6"]));
    assert_eq!(history[4]["to_move"], "black");
    assert_eq!(history[5]["color"], "black");
    // W after W is replayed as recorded, with a warning.
    let problems = g["problems"].as_array().unwrap();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0]["severity"], "warning");
    assert_eq!(problems[0]["code"], "out_of_turn");
    assert_eq!(g["final"]["white"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn bad_records_are_refused_with_a_code_and_the_reason() {
    for (tag, body, code, message) in [
        (
            "komi",
            "(;SZ[9]KM[abc];B[ee])",
            "sgf_bad_value",
            "cannot load file: line 1, column 8: KM[abc]: komi must be a whole or half number",
        ),
        (
            "handicap",
            "(;SZ[9]HA[-3];B[ee])",
            "sgf_bad_value",
            "cannot load file: line 1, column 8: HA[-3]: a handicap cannot be negative",
        ),
        (
            "size0",
            "(;SZ[0])",
            "sgf_bad_board_size",
            "cannot load file: line 1, column 3: SZ[0]: unsupported board size",
        ),
        (
            "size302",
            "(;SZ[30:2])",
            "sgf_bad_board_size",
            "cannot load file: line 1, column 3: SZ[30:2]",
        ),
        (
            "offboard",
            "(;SZ[9];B[ee];W[zz])",
            "sgf_bad_value",
            "cannot load file: line 1, column 15: move 2: W[zz]: not a point of this 9x9 board",
        ),
        (
            "occupied",
            "(;SZ[9];B[ee];W[ee])",
            "sgf_illegal_move",
            "cannot load file: line 1, column 15: move 2: W[ee] the point is occupied",
        ),
        (
            "syntax",
            "(;SZ[9];B[ee]%)",
            "sgf_syntax",
            "cannot load file: line 1, column 14: unexpected '%'",
        ),
        (
            "empty",
            "",
            "sgf_syntax",
            "cannot load file: line 1, column 1: no game tree",
        ),
    ] {
        let (status, v) = import(tag, "/api/sgf/import", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{tag}: {v}");
        assert_eq!(v["error"]["code"], code, "{tag}: {v}");
        let shown = v["error"]["message"].as_str().unwrap();
        assert!(shown.starts_with(message), "{tag}: {shown}");
    }
    let (status, v) = import("rules", "/api/sgf/import?rules=go", "(;SZ[9])").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(v["error"]["code"], "bad_rules");
}

#[tokio::test]
async fn a_cut_off_record_loads_with_a_warning() {
    let (status, g) = import(
        "cut",
        "/api/sgf/import?rules=japanese",
        "(;SZ[9];B[ee];W[cc];B[d",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{g}");
    assert_eq!(g["rules"], "japanese");
    assert_eq!(g["history"].as_array().unwrap().len(), 2);
    assert_eq!(g["problems"][0]["code"], "truncated");
}
