//! SGF records over HTTP: an upload read (`POST /api/sgf/import`), and a record as a download.

use axum::body::Bytes;
use axum::extract::Query;
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use tengen_rules::Preset;

use super::MAX_BODY;
use crate::error::{ApiError, HttpError};

/// An SGF record as a download called `name`.
pub(super) fn sgf_file(text: String, name: &str) -> Response {
    let mut r = text.into_response();
    r.headers_mut().insert(
        axum::http::header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-go-sgf"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        r.headers_mut()
            .insert(axum::http::header::CONTENT_DISPOSITION, v);
    }
    r
}

/// The query of `POST /api/sgf/import`: rules to replay under instead of the record's `RU`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ImportQuery {
    /// A preset name.
    #[serde(default)]
    rules: Option<String>,
}

/// `POST /api/sgf/import`: reads the record in the body (its first game); stores nothing.
pub(super) async fn import_sgf(
    Query(q): Query<ImportQuery>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Json<tengen_app::records::ReadRecord>, HttpError> {
    let body = body.map_err(|e| {
        if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(MAX_BODY)
        } else {
            ApiError::BadRequest(e.body_text())
        }
    })?;
    let preset = match q.rules.as_deref() {
        None => None,
        Some(r) => Some(
            r.parse::<Preset>()
                .map_err(|e| ApiError::Rejected("bad_rules", e.to_string()))?,
        ),
    };
    Ok(tengen_app::records::read(&body, preset).map(Json)?)
}
