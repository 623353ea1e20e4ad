//! The server's listener: TCP connections with time limits, so that a client that connects and
//! then sends nothing, or sends its request a byte at a time, cannot hold a connection (and
//! its memory) for ever.
//!
//! - Each request's header must be complete within [`HEADER_TIMEOUT`]: the first's from the
//!   moment the connection opens, a later one's (keep-alive) from its first byte. The end of
//!   the header, an empty line, must have been read by then. After a `101 Switching
//!   Protocols` (a WebSocket) there are no more headers to time.
//! - A connection on which nothing at all is read for [`IDLE_TIMEOUT`] is closed. WebSockets
//!   are not idle: the server pings every few seconds and clients answer.
//!
//! (Hyper's own header timeout needs a timer that `axum::serve` does not give it.)

use std::future::Future;
use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::{sleep, Instant, Sleep};

/// How long a new connection has to send its first request's whole header.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a connection may go without sending a byte.
pub const IDLE_TIMEOUT: Duration = Duration::from_secs(120);

/// The time limits of connections.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// For the first request's header.
    pub header: Duration,
    /// Without a byte read.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            header: HEADER_TIMEOUT,
            idle: IDLE_TIMEOUT,
        }
    }
}

/// A TCP listener whose connections are [`Guarded`].
pub struct GuardedListener {
    /// The socket.
    pub tcp: TcpListener,
    /// The limits of each connection.
    pub limits: Limits,
}

impl axum::serve::Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        let (io, addr) = axum::serve::Listener::accept(&mut self.tcp).await;
        // Small messages (a move, its broadcast) go out at once, not held back by Nagle's
        // algorithm until the client's delayed acknowledgement (40 ms) arrives.
        let _ = io.set_nodelay(true);
        (Guarded::new(io, self.limits), addr)
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.tcp.local_addr()
    }
}

/// A connection with a header deadline and an idle timeout.
pub struct Guarded {
    io: TcpStream,
    /// Until the current request's header has been read.
    header: Option<Pin<Box<Sleep>>>,
    header_for: Duration,
    /// A response has been written: the next byte read begins a new request's header.
    between_requests: bool,
    /// A `101` has been written: the connection speaks WebSocket now.
    upgraded: bool,
    /// The last bytes read, to find the header's end across reads.
    tail: [u8; 3],
    idle: Pin<Box<Sleep>>,
    idle_for: Duration,
}

impl Guarded {
    fn new(io: TcpStream, limits: Limits) -> Guarded {
        Guarded {
            io,
            header: Some(Box::pin(sleep(limits.header))),
            header_for: limits.header,
            between_requests: false,
            upgraded: false,
            tail: [0; 3],
            idle: Box::pin(sleep(limits.idle)),
            idle_for: limits.idle,
        }
    }

    /// Notes bytes read: the idle clock restarts, and the header deadline ends with the first
    /// empty line.
    fn saw(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let at = Instant::now() + self.idle_for;
        self.idle.as_mut().reset(at);
        if self.between_requests && !self.upgraded {
            // Without this, a second request's header sent a byte at a time would be bounded
            // by the idle timeout only, restarted by every byte.
            self.between_requests = false;
            self.header = Some(Box::pin(sleep(self.header_for)));
            self.tail = [0; 3];
        }
        if self.header.is_none() {
            return;
        }
        let mut window = self.tail.to_vec();
        window.extend_from_slice(bytes);
        if window.windows(4).any(|w| w == b"\r\n\r\n") {
            self.header = None;
        }
        let n = window.len();
        self.tail.copy_from_slice(&window[n - 3..]);
    }

    /// Notes bytes written: the head of a final response ends a request (the next bytes read
    /// begin another's header), and a `101` ends HTTP on this connection.
    fn wrote(&mut self, bytes: &[u8]) {
        if self.upgraded || !bytes.starts_with(b"HTTP/1.") || bytes.len() < 12 {
            return;
        }
        match &bytes[9..12] {
            b"101" => self.upgraded = true,
            // `100 Continue` comes before the body it asks for, not after the request.
            b"100" => {}
            _ => self.between_requests = true,
        }
    }
}

fn timed_out(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, what.to_string())
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.io).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let new = buf.filled()[before..].to_vec();
                self.saw(&new);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(e)) => Poll::Ready(Err(e)),
            Poll::Pending => {
                if let Some(h) = self.header.as_mut() {
                    if h.as_mut().poll(cx).is_ready() {
                        return Poll::Ready(Err(timed_out("request header too slow")));
                    }
                }
                if self.idle.as_mut().poll(cx).is_ready() {
                    return Poll::Ready(Err(timed_out("connection idle")));
                }
                Poll::Pending
            }
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if let Poll::Ready(Ok(n)) = r {
            self.wrote(&buf[..n]);
        }
        r
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if let (Poll::Ready(Ok(n)), Some(first)) = (&r, bufs.iter().find(|b| !b.is_empty())) {
            self.wrote(&first[..first.len().min(*n)]);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }
}
