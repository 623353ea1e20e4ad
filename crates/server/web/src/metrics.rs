//! `GET /metrics`: every metric of the process in Prometheus's text format (0.0.4), the web
//! floor's own beside the use cases', live games' and store's: WebSockets open, HTTP responses by
//! class, requests answered for other cluster nodes. Process-wide statics, as every scrape is of
//! the whole process.

use axum::extract::State;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use tengen_core::metrics::{Counter, Exposition, Gauge};

use crate::state::AppState;

/// WebSockets open.
pub(crate) static CONNECTIONS: Gauge = Gauge::new();
/// WebSockets opened since the start.
pub(crate) static CONNECTIONS_OPENED: Counter = Counter::new();
/// HTTP responses by class: 1xx-2xx-3xx, 4xx, 5xx.
static RESPONSES_OK: Counter = Counter::new();
static RESPONSES_CLIENT_ERROR: Counter = Counter::new();
static RESPONSES_SERVER_ERROR: Counter = Counter::new();
/// Requests answered for other nodes of a cluster.
pub(crate) static CLUSTER_ANSWERED: Counter = Counter::new();
/// Requests that panicked (answered 500 by [`crate::panics`]).
pub(crate) static REQUEST_PANICS: Counter = Counter::new();

/// The content type of the text format.
pub const CONTENT_TYPE_TEXT: &str = "text/plain; version=0.0.4; charset=utf-8";

/// The exposition of every metric of this process.
pub fn text(state: &AppState) -> String {
    let mut out = Exposition::default();
    let s = &state.services;
    let (bots, online) = (s.bots.count(), s.online.list().len());
    tengen_app::metrics::write_all(&s.store, bots, online, &mut out);
    out.gauge(
        "tengen_websockets",
        "WebSocket connections open.",
        CONNECTIONS.get() as f64,
    );
    out.counter(
        "tengen_websockets_opened_total",
        "WebSocket connections opened since the start.",
        CONNECTIONS_OPENED.get(),
    );
    out.counter(
        "tengen_http_request_panics_total",
        "Requests that panicked, each answered 500 internal (a bug to report).",
        REQUEST_PANICS.get(),
    );
    out.counter_family(
        "tengen_http_responses_total",
        "HTTP responses by status class.",
        &[
            (&[("class", "ok")], RESPONSES_OK.get()),
            (&[("class", "client_error")], RESPONSES_CLIENT_ERROR.get()),
            (&[("class", "server_error")], RESPONSES_SERVER_ERROR.get()),
        ],
    );
    out.counter(
        "tengen_cluster_answered_requests_total",
        "Requests about games run here that other cluster nodes forwarded, answered.",
        CLUSTER_ANSWERED.get(),
    );
    out.into_text()
}

/// `GET /metrics`.
pub async fn get(State(state): State<AppState>) -> Response {
    ([(CONTENT_TYPE, CONTENT_TYPE_TEXT)], text(&state)).into_response()
}

/// Counts each response by its status class (a layer over every route).
pub async fn count_responses(r: Response) -> Response {
    let s = r.status();
    if s.is_server_error() {
        RESPONSES_SERVER_ERROR.inc();
    } else if s.is_client_error() {
        RESPONSES_CLIENT_ERROR.inc();
    } else {
        RESPONSES_OK.inc();
    }
    r
}
