//! Running the `tengen` binary from the integration tests.

#![allow(dead_code, clippy::unwrap_used)]

use std::process::Command;

/// Runs `tengen ARGS...` to completion: whether it succeeded, and its stdout then stderr.
pub fn tengen(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(args)
        .output()
        .unwrap();
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}
