//! `tengen chaos`: kill the server with SIGKILL again and again while games are played, restart
//! it on the same database each time, and check that no acknowledged move was lost.
//!
//! The games are `tengen loadtest`'s (two guests, Black and White filling their rows, so every
//! move is legal and move `i` of every game is known in advance). Each game's driver sends the
//! next move and waits for its `ack`; when the connection breaks it reconnects until the server
//! is back, reads the snapshot and goes on from the moves it holds. A killer kills the server at
//! random moments and restarts it. At the end every game's stored moves must be exactly moves
//! 0, 1, 2, ... in order (no gap, no duplicate, nothing else), and include every move that was
//! acknowledged: an acknowledged move is committed before anyone is told.

use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_rules::playout::Rng;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

use crate::loadtest::{connect, http, point, Ws};

/// Options of `tengen chaos`.
#[derive(Args, Debug)]
pub struct ChaosOpt {
    /// Concurrent games.
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// Moves each game plays (at most 76).
    #[arg(long, default_value_t = 60)]
    pub moves: u32,
    /// Milliseconds between a move's acknowledgement and the next move, so that the games are
    /// still being played while the kills come.
    #[arg(long, default_value_t = 150)]
    pub think_ms: u64,
    /// How many times the server is killed.
    #[arg(long, default_value_t = 20)]
    pub kills: u32,
    /// SQLite database file (a fresh one in the temporary folder by default).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// PostgreSQL instead of SQLite (use a fresh schema).
    #[arg(long)]
    pub database_url: Option<String>,
    /// Seed of the moments of the kills.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The server under test: the same binary's `serve`, on a fixed address and database.
struct Server {
    args: Vec<String>,
    child: Option<Child>,
}

impl Server {
    fn start(&mut self) -> anyhow::Result<()> {
        let exe = std::env::current_exe()?;
        let mut child = Command::new(exe)
            .args(&self.args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start the server")?;
        let out = child.stdout.take().context("no stdout")?;
        let mut lines = BufReader::new(out).lines();
        let started = lines
            .by_ref()
            .take(100)
            .map_while(Result::ok)
            .any(|l| l.contains("serving on"));
        if !started {
            let _ = child.kill();
            bail!("the server did not start");
        }
        // Keep reading its output, so that it never writes into a closed pipe.
        std::thread::spawn(move || lines.for_each(drop));
        self.child = Some(child);
        Ok(())
    }

    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            // SIGKILL: no shutdown, nothing flushed that was not already committed.
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// One game: its id and its players' tokens (Black, White).
struct Game {
    id: i64,
    tokens: [String; 2],
}

async fn new_game(addr: SocketAddr) -> anyhow::Result<Game> {
    let (id, tokens) = crate::loadtest::new_game(addr).await?;
    Ok(Game { id, tokens })
}

/// Moves stored in the game now, from a fresh watch's snapshot.
async fn stored_moves(ws: &mut Ws) -> anyhow::Result<Vec<String>> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .context("no snapshot")?
            .context("closed")??;
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(t.as_str())?;
        if v["type"] == "snapshot" {
            return Ok(v["state"]["moves"]
                .as_array()
                .context("moves")?
                .iter()
                .map(|m| m["point"].as_str().unwrap_or("").to_string())
                .collect());
        }
    }
}

/// What one game's driver saw.
#[derive(Clone, Default)]
struct Driven {
    /// Indices of the moves acknowledged.
    acked: Vec<u32>,
    /// Times the connection broke and was made again.
    reconnects: u32,
}

/// Plays `g` to `moves` moves through any number of restarts, `think` between moves.
async fn drive(
    addr: SocketAddr,
    g: Game,
    moves: u32,
    think: Duration,
    stop: Arc<AtomicBool>,
) -> Driven {
    let mut out = Driven::default();
    let mut next_id = 1u64;
    'connect: while !stop.load(Ordering::Relaxed) {
        // (Re)connect both players; the server may be down: retry.
        let mut socks = Vec::new();
        for t in &g.tokens {
            match connect(addr, t, g.id).await {
                Ok(ws) => socks.push(ws),
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue 'connect;
                }
            }
        }
        let Ok(stored) = stored_moves(&mut socks[0]).await else {
            out.reconnects += 1;
            continue;
        };
        let mut i = stored.len() as u32;
        while i < moves {
            tokio::time::sleep(think).await;
            let me = &mut socks[(i % 2) as usize];
            let id = next_id;
            next_id += 1;
            let msg = json!({"type": "move", "game": g.id, "point": point(i), "id": id});
            if me
                .send(Message::Text(msg.to_string().into()))
                .await
                .is_err()
            {
                out.reconnects += 1;
                continue 'connect;
            }
            // Wait for the answer to this move (broadcasts of it may come first).
            loop {
                let m = match tokio::time::timeout(Duration::from_secs(10), me.next()).await {
                    Ok(Some(Ok(m))) => m,
                    _ => {
                        out.reconnects += 1;
                        continue 'connect;
                    }
                };
                let Message::Text(t) = m else { continue };
                let Ok(v) = serde_json::from_str::<Value>(t.as_str()) else {
                    continue;
                };
                if v["ref"] == json!(id) {
                    if v["type"] == "ack" {
                        out.acked.push(i);
                        i += 1;
                    } else {
                        // Refused (stored before the kill, not acknowledged): read again.
                        out.reconnects += 1;
                        continue 'connect;
                    }
                    break;
                }
            }
        }
        return out;
    }
    out
}

/// Runs the test and prints what it found; fails if a move was lost or misplaced.
pub fn run(opt: ChaosOpt) -> anyhow::Result<()> {
    let moves = opt.moves.clamp(1, 76);
    let addr: SocketAddr = {
        let l = std::net::TcpListener::bind("127.0.0.1:0")?;
        l.local_addr()?
    };
    let mut args = vec![
        "serve".to_string(),
        "--addr".into(),
        addr.to_string(),
        "--grace".into(),
        "3600".into(),
        "--accounts-per-address".into(),
        "0".into(),
    ];
    match (&opt.database_url, &opt.db) {
        (Some(url), _) => args.extend(["--database-url".into(), url.clone()]),
        (None, Some(db)) => args.extend(["--db".into(), db.display().to_string()]),
        (None, None) => {
            let dir = std::env::temp_dir().join(format!("tengen-chaos-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            args.extend(["--db".into(), dir.join("chaos.db").display().to_string()]);
        }
    }
    let mut server = Server { args, child: None };
    server.start()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let started = Instant::now();
    let (acked, kills) = runtime.block_on(async {
        let mut games = Vec::new();
        for _ in 0..opt.games {
            games.push(new_game(addr).await?);
        }
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let acked = Arc::new(Mutex::new(HashMap::new()));
        let mut drivers = Vec::new();
        let opt_think = opt.think_ms;
        for g in games {
            let (stop, acked) = (stop.clone(), acked.clone());
            drivers.push(tokio::spawn(async move {
                let id = g.id;
                let think = Duration::from_millis(opt_think);
                let a = drive(addr, g, moves, think, stop).await;
                acked.lock().await.insert(id, a);
            }));
        }
        let mut rng = Rng::new(opt.seed);
        let mut kills = 0;
        while kills < opt.kills {
            tokio::time::sleep(Duration::from_millis(200 + rng.below(800) as u64)).await;
            server.kill();
            kills += 1;
            tokio::time::sleep(Duration::from_millis(rng.below(300) as u64)).await;
            server.start()?;
        }
        // Let the games finish, then stop whatever is still stuck.
        let deadline = Instant::now() + Duration::from_secs(120);
        for d in drivers {
            let left = deadline.saturating_duration_since(Instant::now());
            if tokio::time::timeout(left, d).await.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        let acked = std::mem::take(&mut *acked.lock().await);
        anyhow::Ok((
            ids.into_iter()
                .map(|id| (id, acked.get(&id).cloned().unwrap_or_default()))
                .collect::<Vec<(i64, Driven)>>(),
            kills,
        ))
    })?;
    // What the database holds, read by a server that was not killed since.
    let mut lost = 0usize;
    let mut misplaced = 0usize;
    let mut total = 0usize;
    let reconnects: u32 = acked.iter().map(|(_, d)| d.reconnects).sum();
    runtime.block_on(async {
        for (id, driven) in &acked {
            let snap = http(addr, "GET", &format!("/api/games/{id}"), None, None).await?;
            let stored: Vec<String> = snap["moves"]
                .as_array()
                .context("moves")?
                .iter()
                .map(|m| m["point"].as_str().unwrap_or("").to_string())
                .collect();
            for (k, p) in stored.iter().enumerate() {
                if *p != point(k as u32) {
                    misplaced += 1;
                    println!("game {id}: move {k} is {p}, expected {}", point(k as u32));
                }
            }
            for &i in &driven.acked {
                total += 1;
                if i as usize >= stored.len() {
                    lost += 1;
                    println!("game {id}: acknowledged move {i} is not stored");
                }
            }
        }
        anyhow::Ok(())
    })?;
    server.kill();
    println!(
        "{} games, {total} moves acknowledged, {kills} kills in {:.1} s ({reconnects} broken \
         connections taken up again): {lost} lost, {misplaced} out of place or duplicated",
        acked.len(),
        started.elapsed().as_secs_f64()
    );
    if lost + misplaced > 0 {
        bail!("{lost} acknowledged moves lost, {misplaced} out of place");
    }
    if total == 0 || (kills > 0 && reconnects == 0) {
        bail!("no move was played across a kill: nothing was tested");
    }
    Ok(())
}
