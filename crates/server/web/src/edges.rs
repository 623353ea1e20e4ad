//! Trust at the edges: what the server checks of a request before any use case sees it.
//!
//! - A WebSocket upgrade from a browser page of another site is refused (`403 bad_origin`):
//!   its `Origin` must be this server's own (the request's `Host`) or one the operator allowed
//!   (`tengen serve --allowed-origin`). A request without `Origin` is no browser's, whose
//!   pages cannot leave it out (bots and the load generator send none), and passes.
//! - Open WebSockets per client address are capped on this node (`429
//!   too_many_connections_from_address`, `tengen serve --sockets-per-address`), so that one
//!   address cannot hold thousands of sockets and their memory.
//! - A request body must be whole within [`BODY_DEADLINE`] of the handler's start (`408
//!   body_timeout`, and the connection closes): the listener's idle timeout alone lets a body
//!   sent a byte every few seconds hold its connection for ever.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::{ApiError, HttpError};

/// Largest request body accepted.
pub const MAX_BODY: usize = 64 * 1024;

/// How long a request body may take to arrive, by default.
pub const BODY_DEADLINE: Duration = Duration::from_secs(20);
/// Open WebSockets a client address may hold on one node, by default (every tab and bot needs
/// one or two; a household or an office behind one address needs a few dozen at most).
pub const SOCKETS_PER_ADDRESS: usize = 20;

/// The edges' settings and the open sockets they count.
#[derive(Debug)]
pub struct Edges {
    /// Origins allowed beside the server's own, as `scheme://host[:port]`, lower case.
    allowed_origins: Vec<String>,
    /// Open WebSockets per client address; 0 for no limit (load tests).
    sockets_per_address: usize,
    /// How long a request body may take.
    body_deadline: Duration,
    sockets: Mutex<HashMap<IpAddr, usize>>,
}

impl Default for Edges {
    fn default() -> Edges {
        Edges::new(Vec::new(), SOCKETS_PER_ADDRESS, BODY_DEADLINE)
    }
}

impl Edges {
    /// Edges that allow pages from `allowed_origins` beside the server's own, hold
    /// `sockets_per_address` WebSockets an address (0: no limit) and wait `body_deadline` for a
    /// request body.
    pub fn new(
        allowed_origins: Vec<String>,
        sockets_per_address: usize,
        body_deadline: Duration,
    ) -> Edges {
        Edges {
            allowed_origins: allowed_origins.iter().map(|o| normalise(o)).collect(),
            sockets_per_address,
            body_deadline,
            sockets: Mutex::default(),
        }
    }

    /// Refuses a request whose `Origin` is neither absent, nor this server's (`Host`), nor
    /// allowed.
    pub fn check_origin(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let origin = normalise(origin.to_str().unwrap_or(""));
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .map(str::to_ascii_lowercase);
        // The scheme is the proxy's business (https outside, http behind it); the name and
        // port are what a foreign page cannot fake.
        let authority = origin.split_once("://").map(|(_, a)| a);
        if authority.is_some() && authority == host.as_deref() {
            return Ok(());
        }
        if self.allowed_origins.contains(&origin) {
            return Ok(());
        }
        Err(ApiError::Forbidden(
            "bad_origin",
            "this page's origin may not open a connection here (tengen serve --allowed-origin)"
                .into(),
        ))
    }

    /// A seat for one more WebSocket from `addr`, given back when dropped; refused past the
    /// limit. A request with no address (in process) is not counted.
    pub fn seat(self: &Arc<Edges>, addr: Option<IpAddr>) -> Result<Option<AddrSeat>, ApiError> {
        let Some(ip) = addr.filter(|_| self.sockets_per_address > 0) else {
            return Ok(None);
        };
        let mut open = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        let n = open.entry(ip).or_insert(0);
        if *n >= self.sockets_per_address {
            return Err(ApiError::Limited(
                "too_many_connections_from_address",
                format!(
                    "at most {} open connections from one address",
                    self.sockets_per_address
                ),
            ));
        }
        *n += 1;
        Ok(Some(AddrSeat {
            edges: self.clone(),
            ip,
        }))
    }

    /// Open WebSockets counted for `ip` now.
    pub fn sockets_of(&self, ip: IpAddr) -> usize {
        let open = self.sockets.lock().unwrap_or_else(|e| e.into_inner());
        open.get(&ip).copied().unwrap_or(0)
    }
}

/// `scheme://host[:port]` in lower case, without a trailing slash.
fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// One open WebSocket counted against its address until dropped.
#[derive(Debug)]
pub struct AddrSeat {
    edges: Arc<Edges>,
    ip: IpAddr,
}

impl Drop for AddrSeat {
    fn drop(&mut self) {
        let mut open = self.edges.sockets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = open.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                open.remove(&self.ip);
            }
        }
    }
}

/// Reads a request's body whole before the handler runs, within the deadline: a body that
/// does not arrive in time is answered `408 body_timeout` and its connection closed. Bodies
/// are small (at most [`MAX_BODY`]), so holding one in memory costs what the handler's
/// extractor would have.
pub async fn body_deadline(State(edges): State<Arc<Edges>>, req: Request, next: Next) -> Response {
    use axum::body::HttpBody;
    if req.body().is_end_stream() {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let deadline = edges.body_deadline;
    match tokio::time::timeout(deadline, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(e)) => {
            let too_large = e
                .into_inner()
                .downcast_ref::<http_body_util::LengthLimitError>()
                .is_some();
            let e = if too_large {
                ApiError::TooLarge(MAX_BODY)
            } else {
                ApiError::BadRequest("the request body could not be read".into())
            };
            closing(HttpError(e).into_response())
        }
        Err(_) => closing(HttpError(ApiError::TooSlow(deadline.as_secs().max(1))).into_response()),
    }
}

/// `r` with `Connection: close`: the rest of an unread body must not be taken for the next
/// request.
fn closing(mut r: Response) -> Response {
    r.headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, host.parse().unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, o.parse().unwrap());
        }
        h
    }

    #[test]
    fn origins_are_the_servers_own_allowed_or_absent() {
        let e = Edges::new(vec!["https://Go.Example.org/".into()], 1, BODY_DEADLINE);
        assert!(e.check_origin(&headers(None, "x:1")).is_ok());
        assert!(e
            .check_origin(&headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"))
            .is_ok());
        assert!(e
            .check_origin(&headers(Some("https://go.example.org"), "10.0.0.1:8080"))
            .is_ok());
        for foreign in ["https://evil.example", "null", "http://127.0.0.1:9999", ""] {
            assert!(
                e.check_origin(&headers(Some(foreign), "127.0.0.1:8080"))
                    .is_err(),
                "{foreign}"
            );
        }
    }

    #[test]
    fn seats_are_counted_per_address_and_given_back() {
        let e = Arc::new(Edges::new(Vec::new(), 2, BODY_DEADLINE));
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let a = e.seat(Some(ip)).unwrap();
        let _b = e.seat(Some(ip)).unwrap();
        assert!(e.seat(Some(ip)).is_err());
        assert!(e.seat(Some("10.0.0.2".parse().unwrap())).is_ok());
        assert!(e.seat(None).unwrap().is_none());
        drop(a);
        assert_eq!(e.sockets_of(ip), 1);
        assert!(e.seat(Some(ip)).is_ok());
    }
}
