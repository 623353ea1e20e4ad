//! A minimal client of a running server, for the load generators (`tengen loadtest`, its bot
//! games, `tengen chaos`) and the remote bot (`tengen bot --server`): HTTP/1.1 for the set-up requests and the WebSocket as the browser
//! client opens it.

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context;
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio_rustls::rustls::ClientConfig;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Minimal HTTP/1.1 for the set-up requests (the server is on this machine).
pub(crate) async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> anyhow::Result<Value> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    http_over(stream, &addr.to_string(), method, path, body, token).await
}

/// One request over `stream` to `host` (the `Host` header), the connection closed after it:
/// the answer's JSON, or [`HttpStatus`] for a refusal.
async fn http_over(
    mut stream: impl AsyncRead + AsyncWrite + Unpin,
    host: &str,
    method: &str,
    path: &str,
    body: Option<&Value>,
    token: Option<&str>,
) -> anyhow::Result<Value> {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n{auth}Connection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await?;
    let mut resp = Vec::new();
    match stream.read_to_end(&mut resp).await {
        Ok(_) => {}
        // A TLS peer that closes without close_notify (many proxies do): the answer is whole
        // if its head said how long it is, which the parse below checks.
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof && !resp.is_empty() => {}
        Err(e) => return Err(e.into()),
    }
    let text = String::from_utf8_lossy(&resp);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .context("malformed HTTP response")?;
    let chunked = head
        .lines()
        .any(|l| l.to_ascii_lowercase().replace(' ', "") == "transfer-encoding:chunked");
    let body = if chunked {
        dechunk(body)?
    } else {
        body.to_string()
    };
    let status = head.split_whitespace().nth(1).unwrap_or("0");
    if !status.starts_with('2') {
        return Err(HttpStatus {
            status: status.parse().unwrap_or(0),
            what: format!("{method} {path}: {status} {body}"),
        }
        .into());
    }
    Ok(serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// A chunked body's content (a reverse proxy may re-send the server's answer chunked).
fn dechunk(mut rest: &str) -> anyhow::Result<String> {
    let mut out = String::new();
    loop {
        let (size, after) = rest.split_once("\r\n").context("malformed chunk")?;
        let size = usize::from_str_radix(size.split(';').next().unwrap_or("").trim(), 16)
            .context("malformed chunk size")?;
        if size == 0 {
            return Ok(out);
        }
        out.push_str(after.get(..size).context("short chunk")?);
        rest = after.get(size..).unwrap_or("").trim_start_matches("\r\n");
    }
}

/// A refusal from the server: its HTTP status, and the request and answer in words.
#[derive(Debug)]
pub(crate) struct HttpStatus {
    pub status: u16,
    pub what: String,
}

impl std::fmt::Display for HttpStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

impl std::error::Error for HttpStatus {}

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A WebSocket to the server as the holder of `token`.
pub(crate) async fn open(addr: SocketAddr, token: &str) -> anyhow::Result<Ws> {
    let mut req = format!("ws://{addr}/api/ws").into_client_request()?;
    req.headers_mut()
        .insert("authorization", format!("Bearer {token}").parse()?);
    // A small read buffer, as the server has: tungstenite zeroes the free part of its buffer
    // (128 KiB by default) before each read, which was a quarter of the load generator's CPU.
    let config =
        tokio_tungstenite::tungstenite::protocol::WebSocketConfig::default().read_buffer_size(4096);
    let (ws, _) = tokio_tungstenite::connect_async_with_config(req, Some(config), false).await?;
    Ok(ws)
}

pub(crate) async fn connect(addr: SocketAddr, token: &str, game: i64) -> anyhow::Result<Ws> {
    let mut ws = open(addr, token).await?;
    ws.send(Message::Text(
        json!({"type": "watch", "game": game}).to_string().into(),
    ))
    .await?;
    Ok(ws)
}

/// A byte stream to a server: plain TCP, or TLS over it.
pub(crate) trait Io: AsyncRead + AsyncWrite + Unpin + Send {}

impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// A WebSocket over either kind of stream.
pub(crate) type AnyWs = tokio_tungstenite::WebSocketStream<Box<dyn Io>>;

/// A server named by its URL, `http://HOST[:PORT]` or `https://HOST[:PORT]`, for a client on
/// another machine (`tengen bot --server`): TLS checked against the system's roots, as a
/// browser would.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Endpoint {
    pub host: String,
    pub port: u16,
    pub tls: bool,
    /// A certificate authority trusted besides the system's (PEM), for a private one.
    pub ca: Option<std::path::PathBuf>,
}

impl Endpoint {
    /// Reads the URL; a path after the host is refused (the API's paths are fixed).
    pub fn parse(url: &str) -> anyhow::Result<Endpoint> {
        let (tls, rest) = match url.split_once("://") {
            Some(("https", rest)) => (true, rest),
            Some(("http", rest)) => (false, rest),
            Some((scheme, _)) => anyhow::bail!("{url}: use http:// or https://, not {scheme}://"),
            None => (false, url),
        };
        let hostport = rest.trim_end_matches('/');
        if hostport.is_empty() || hostport.contains('/') {
            anyhow::bail!("{url}: give the server as http(s)://HOST[:PORT]");
        }
        let default = if tls { 443 } else { 80 };
        let number = |p: &str| -> anyhow::Result<u16> {
            p.parse()
                .with_context(|| format!("{url}: the port is a number"))
        };
        let (host, port) = match hostport.strip_prefix('[') {
            // An IPv6 address, bracketed.
            Some(v6) => match v6.split_once(']') {
                Some((h, "")) => (h, default),
                Some((h, p)) if p.starts_with(':') => (h, number(&p[1..])?),
                _ => anyhow::bail!("{url}: a malformed IPv6 address"),
            },
            None => match hostport.rsplit_once(':') {
                Some((h, p)) => (h, number(p)?),
                None => (hostport, default),
            },
        };
        Ok(Endpoint {
            host: host.into(),
            port,
            tls,
            ca: None,
        })
    }

    /// `host:port`, as the `Host` header and the messages name it.
    pub fn authority(&self) -> String {
        match self.host.contains(':') {
            true => format!("[{}]:{}", self.host, self.port),
            false => format!("{}:{}", self.host, self.port),
        }
    }

    /// A new connection, through TLS for https.
    async fn stream(&self) -> anyhow::Result<Box<dyn Io>> {
        let tcp = tokio::net::TcpStream::connect((self.host.as_str(), self.port))
            .await
            .with_context(|| format!("cannot connect to {}", self.authority()))?;
        if !self.tls {
            return Ok(Box::new(tcp));
        }
        let name = tokio_rustls::rustls::pki_types::ServerName::try_from(self.host.clone())
            .with_context(|| format!("{} is not a server name", self.host))?;
        let tls = tls_connector(self.ca.as_deref())?
            .connect(name, tcp)
            .await
            .with_context(|| format!("TLS with {}", self.authority()))?;
        Ok(Box::new(tls))
    }

    /// One HTTP request (see [`http`]).
    pub async fn http(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
        token: Option<&str>,
    ) -> anyhow::Result<Value> {
        let stream = self.stream().await?;
        http_over(stream, &self.authority(), method, path, body, token).await
    }

    /// The WebSocket (`/api/ws`) as the holder of `token`.
    pub async fn websocket(&self, token: &str) -> anyhow::Result<AnyWs> {
        let scheme = if self.tls { "wss" } else { "ws" };
        let mut req = format!("{scheme}://{}/api/ws", self.authority()).into_client_request()?;
        req.headers_mut()
            .insert("authorization", format!("Bearer {token}").parse()?);
        let stream = self.stream().await?;
        let (ws, _) = tokio_tungstenite::client_async(req, stream).await?;
        Ok(ws)
    }
}

/// A TLS client trusting the system's root certificates, and `ca` where given.
fn tls_connector(ca: Option<&std::path::Path>) -> anyhow::Result<tokio_rustls::TlsConnector> {
    use tokio_rustls::rustls::pki_types::{pem::PemObject, CertificateDer};
    let mut roots = tokio_rustls::rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        // A certificate the store cannot use is skipped, as browsers do.
        let _ = roots.add(cert);
    }
    if let Some(path) = ca {
        for cert in CertificateDer::pem_file_iter(path)
            .with_context(|| format!("cannot read {}", path.display()))?
        {
            roots
                .add(cert.with_context(|| format!("{}: not a PEM certificate", path.display()))?)
                .with_context(|| format!("{}: not a usable authority", path.display()))?;
        }
    }
    if roots.is_empty() {
        anyhow::bail!(
            "no root certificates on this system (install ca-certificates, or give --ca)"
        );
    }
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_is_read_from_its_url() {
        let e = |host: &str, port, tls| Endpoint {
            host: host.into(),
            port,
            tls,
            ca: None,
        };
        let parse = |u| Endpoint::parse(u).unwrap();
        assert_eq!(
            parse("http://go.example:8080/"),
            e("go.example", 8080, false)
        );
        assert_eq!(parse("https://go.example"), e("go.example", 443, true));
        assert_eq!(parse("http://go.example"), e("go.example", 80, false));
        assert_eq!(parse("127.0.0.1:9"), e("127.0.0.1", 9, false));
        assert_eq!(parse("https://[::1]:8443"), e("::1", 8443, true));
        assert_eq!(parse("https://[::1]:8443").authority(), "[::1]:8443");
        assert!(Endpoint::parse("http://go.example/play").is_err());
        assert!(Endpoint::parse("ftp://go.example").is_err());
        assert!(Endpoint::parse("http://go.example:port").is_err());
        assert_eq!(parse("https://[::1]"), e("::1", 443, true));
    }

    #[test]
    fn a_chunked_answer_is_put_together() {
        assert_eq!(
            dechunk("4\r\n{\"a\"\r\n3\r\n:1}\r\n0\r\n\r\n").unwrap(),
            "{\"a\":1}"
        );
        assert!(dechunk("zz\r\n").is_err());
    }
}
