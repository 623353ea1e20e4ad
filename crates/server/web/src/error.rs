//! The API's errors as HTTP responses: each [`ApiError`] (from the use cases, with its stable
//! code) gets its status and the JSON body `{"error": {"code", "message"}}`. Internal details
//! are logged, never sent.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
pub use tengen_app::error::ApiError;

/// An [`ApiError`] on its way out as a response: the use cases' error type knows no HTTP, and
/// the orphan rule keeps its `IntoResponse` here, beside axum. `?` turns an `ApiError` (or a
/// store's or live game's error) into one.
#[derive(Debug)]
pub struct HttpError(pub ApiError);

impl From<ApiError> for HttpError {
    fn from(e: ApiError) -> HttpError {
        HttpError(e)
    }
}

impl From<tengen_store::StoreError> for HttpError {
    fn from(e: tengen_store::StoreError) -> HttpError {
        HttpError(e.into())
    }
}

impl From<tengen_live::LiveError> for HttpError {
    fn from(e: tengen_live::LiveError) -> HttpError {
        HttpError(e.into())
    }
}

/// On a response whose request failed to write: why (for the storage-health layer).
#[derive(Clone, Debug)]
pub struct StorageFailed(pub String);

/// The HTTP status of an error.
pub fn status(e: &ApiError) -> StatusCode {
    match e {
        ApiError::BadRequest(_)
        | ApiError::InvalidUsername
        | ApiError::WeakPassword
        | ApiError::InvalidRank(_)
        | ApiError::Rejected(..) => StatusCode::BAD_REQUEST,
        ApiError::Conflict(..) => StatusCode::CONFLICT,
        ApiError::Forbidden(..) => StatusCode::FORBIDDEN,
        ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
        ApiError::TooManyAttempts(_) | ApiError::Limited(..) => StatusCode::TOO_MANY_REQUESTS,
        ApiError::UsernameTaken | ApiError::ConfusableName => StatusCode::CONFLICT,
        ApiError::TooSlow(_) => StatusCode::REQUEST_TIMEOUT,
        ApiError::BadCredentials | ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
        ApiError::NotFound => StatusCode::NOT_FOUND,
        ApiError::Unavailable(..) | ApiError::Storage(_) => StatusCode::SERVICE_UNAVAILABLE,
        ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl IntoResponse for HttpError {
    fn into_response(self) -> Response {
        let HttpError(e) = self;
        let message = match &e {
            ApiError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "internal error".to_string()
            }
            e => e.to_string(),
        };
        let body = json!({ "error": { "code": e.code(), "message": message } });
        let mut r = (status(&e), Json(body)).into_response();
        if let ApiError::Storage(detail) = &e {
            // Logged, at most a line an interval, by the storage-health layer (http/mod.rs).
            r.extensions_mut().insert(StorageFailed(detail.clone()));
        }
        if let ApiError::TooManyAttempts(secs) = e {
            r.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        if let ApiError::Unavailable(..) | ApiError::Storage(_) = e {
            r.headers_mut()
                .insert(axum::http::header::RETRY_AFTER, 1.into());
        }
        r
    }
}
