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
//!
//! The clocks are checked too (the games have the room default, 30 minutes main time): a
//! player's clock must have been charged no more than the time they could have been thinking as
//! the drivers saw it. For each move that is from the later of the previous move's sending and
//! the start of the server that received it (the server's down time is its own fault, not the
//! player's) to the move's acknowledgement. A server that charged its down time, or restored
//! a clock from the wrong place, fails this.

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
    /// When each run of the server was started.
    spawns: Arc<std::sync::Mutex<Vec<Instant>>>,
}

impl Server {
    fn start(&mut self) -> anyhow::Result<()> {
        let exe = std::env::current_exe()?;
        if let Ok(mut s) = self.spawns.lock() {
            s.push(Instant::now());
        }
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
    created: Instant,
}

async fn new_game(addr: SocketAddr) -> anyhow::Result<Game> {
    let created = Instant::now();
    let (id, tokens) = crate::loadtest::new_game(addr).await?;
    Ok(Game {
        id,
        tokens,
        created,
    })
}

/// The room default's main time, which the games are played with.
const MAIN_MS: u64 = 30 * 60 * 1000;

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
#[derive(Clone)]
struct Driven {
    /// Indices of the moves acknowledged.
    acked: Vec<u32>,
    /// Times the connection broke and was made again.
    reconnects: u32,
    /// When the game was asked for (its clocks start at most then).
    created: Instant,
    /// When each move was last sent.
    sent: Vec<Option<Instant>>,
    /// When each move was known to be stored (its acknowledgement, or a snapshot holding it).
    done: Vec<Option<Instant>>,
}

impl Driven {
    fn new(created: Instant, moves: u32) -> Driven {
        Driven {
            acked: Vec::new(),
            reconnects: 0,
            created,
            sent: vec![None; moves as usize],
            done: vec![None; moves as usize],
        }
    }

    /// The most the server may have charged `color` (0 Black, 1 White) for its moves, ms;
    /// `None` when a move's times are not all known.
    fn bound_ms(&self, color: usize, spawns: &[Instant]) -> Option<u64> {
        let mut total = Duration::ZERO;
        for i in (color..self.sent.len()).step_by(2) {
            let sent = self.sent[i]?;
            let done = self.done[i]?;
            let previous = if i == 0 {
                self.created
            } else {
                self.sent[i - 1]?
            };
            // The server that took this move started at the latest spawn before it was sent.
            let server = spawns
                .iter()
                .copied()
                .filter(|&t| t <= sent)
                .max()
                .unwrap_or(self.created);
            total += done.saturating_duration_since(previous.max(server));
        }
        // One ms a move for the server's rounding.
        Some(total.as_millis() as u64 + self.sent.len() as u64)
    }
}

/// Plays `g` to `moves` moves through any number of restarts, `think` between moves.
async fn drive(
    addr: SocketAddr,
    g: Game,
    moves: u32,
    think: Duration,
    stop: Arc<AtomicBool>,
) -> Driven {
    let mut out = Driven::new(g.created, moves);
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
        let seen = Instant::now();
        for d in out.done.iter_mut().take(stored.len()) {
            d.get_or_insert(seen);
        }
        let mut i = stored.len() as u32;
        while i < moves {
            tokio::time::sleep(think).await;
            let me = &mut socks[(i % 2) as usize];
            let id = next_id;
            next_id += 1;
            let msg = json!({"type": "move", "game": g.id, "point": point(i), "id": id});
            out.sent[i as usize] = Some(Instant::now());
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
                        out.done[i as usize] = Some(Instant::now());
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
    let spawns = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut server = Server {
        args,
        child: None,
        spawns: spawns.clone(),
    };
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
                .map(|id| {
                    let d = acked.get(&id).cloned();
                    (id, d.unwrap_or_else(|| Driven::new(Instant::now(), moves)))
                })
                .collect::<Vec<(i64, Driven)>>(),
            kills,
        ))
    })?;
    // What the database holds, read by a server that was not killed since.
    let mut lost = 0usize;
    let mut misplaced = 0usize;
    let mut total = 0usize;
    let spawns: Vec<Instant> = spawns.lock().map(|s| s.clone()).unwrap_or_default();
    // Clocks: players checked, over-charged, and the least slack found.
    let (mut clocks_checked, mut overcharged, mut least_slack) = (0usize, 0usize, i64::MAX);
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
            // The player not to move has a stopped clock: exactly what was charged.
            let running = snap["clocks"]["running"].as_str().unwrap_or("");
            for (c, name) in ["black", "white"].into_iter().enumerate() {
                let Some(left) = snap["clocks"][name]["main_ms"].as_u64() else {
                    continue;
                };
                if name == running {
                    continue;
                }
                let Some(bound) = driven.bound_ms(c, &spawns) else {
                    continue;
                };
                let charged = MAIN_MS.saturating_sub(left);
                clocks_checked += 1;
                least_slack = least_slack.min(bound as i64 - charged as i64);
                if charged > bound {
                    overcharged += 1;
                    println!(
                        "game {id}: {name} was charged {charged} ms, at most {bound} ms was theirs"
                    );
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
    println!(
        "clocks: {clocks_checked} players' stopped clocks checked, {overcharged} charged more \
         than their own time (least slack {least_slack} ms)"
    );
    if lost + misplaced > 0 {
        bail!("{lost} acknowledged moves lost, {misplaced} out of place");
    }
    if overcharged > 0 {
        bail!("{overcharged} players were charged for time that was not theirs");
    }
    if clocks_checked < acked.len() / 2 {
        bail!("only {clocks_checked} clocks could be checked: nothing was tested");
    }
    if total == 0 || (kills > 0 && reconnects == 0) {
        bail!("no move was played across a kill: nothing was tested");
    }
    Ok(())
}
