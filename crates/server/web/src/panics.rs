//! A panic in a request is that request's failure, not the node's: it answers 500 with the
//! stable code `internal`, is logged with the route, and every other request goes on. (The
//! process is built with unwinding, so a panic ends only the future it happens in; without
//! this layer the client would see its connection dropped with no answer.)

use axum::extract::Request;
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::FutureExt;
use serde_json::json;

/// Runs the rest of the stack, turning a panic into a 500 `internal` answer.
pub async fn catch_panics(req: Request, next: Next) -> Response {
    let route = format!("{} {}", req.method(), req.uri().path());
    match std::panic::AssertUnwindSafe(next.run(req))
        .catch_unwind()
        .await
    {
        Ok(r) => r,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(%route, panic = %what, "a request panicked; answered 500");
            crate::metrics::REQUEST_PANICS.inc();
            let body = json!({ "error": { "code": "internal", "message": "internal error" } });
            (StatusCode::INTERNAL_SERVER_ERROR, Json(body)).into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    async fn boom() -> &'static str {
        panic!("a bug")
    }

    #[tokio::test]
    async fn a_panicking_handler_answers_500_internal_and_the_router_serves_on() {
        let app = Router::new()
            .route("/boom", get(boom))
            .route("/ok", get(|| async { "fine" }))
            .layer(axum::middleware::from_fn(catch_panics));
        let r = app
            .clone()
            .oneshot(Request::get("/boom").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::INTERNAL_SERVER_ERROR);
        let body = axum::body::to_bytes(r.into_body(), 1024).await.unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(v["error"]["code"], "internal");
        let r = app
            .oneshot(Request::get("/ok").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::OK);
    }
}
