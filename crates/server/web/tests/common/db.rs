//! The databases (and the NATS server) the tests run against.

use tengen_store::Store;

/// The URL of a fresh SQLite database in a directory of its own, named after `tag` (unique
/// among the tests of one run) and the process, emptied first.
pub fn sqlite_url(tag: &str) -> String {
    let dir = std::env::temp_dir().join(format!("tengen-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite:{}", dir.join("t.db").display())
}

/// A fresh schema in the PostgreSQL at `TENGEN_TEST_POSTGRES` (default 127.0.0.1:5432, database
/// `test`), as a URL; `None` (the test skips) when there is none, except in CI, where that fails.
pub async fn postgres_url() -> Option<String> {
    let url = std::env::var("TENGEN_TEST_POSTGRES")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    let schema = format!("g{}_{nanos}", std::process::id());
    match Store::open_raw(&url).await {
        Ok(admin) => {
            admin
                .execute(&format!("CREATE SCHEMA {schema}"))
                .await
                .unwrap();
            let sep = if url.contains('?') { '&' } else { '?' };
            Some(format!("{url}{sep}options=-csearch_path%3D{schema}"))
        }
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("PostgreSQL is required in CI: {e}");
            }
            eprintln!("skipping: no PostgreSQL: {e}");
            None
        }
    }
}

/// The NATS server at `TENGEN_TEST_NATS` (default 127.0.0.1:4222), as a URL; `None` (the test
/// skips) when there is none, except in CI, where that fails.
pub async fn nats_url() -> Option<String> {
    let url = std::env::var("TENGEN_TEST_NATS").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    match async_nats::connect(&url).await {
        Ok(_) => Some(url),
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("NATS is required in CI: {e}");
            }
            eprintln!("skipping: no NATS: {e}");
            None
        }
    }
}
