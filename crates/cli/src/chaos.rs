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

use crate::client::{connect, http, Ws};
use crate::loadtest::point;

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
    /// Cluster: how many `tengen serve` nodes (each kill takes one down and starts it again);
    /// more than one needs --database-url (PostgreSQL) and --nats.
    #[arg(long, default_value_t = 1)]
    pub nodes: u32,
    /// Cluster: the NATS server the nodes share.
    #[arg(long)]
    pub nats: Option<String>,
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
        // The servers' logs (their standard output), for a failing run: TENGEN_CHAOS_LOGS=DIR
        // keeps them there.
        let log = match std::env::var_os("TENGEN_CHAOS_LOGS") {
            Some(dir) => {
                let name = self
                    .args
                    .get(2)
                    .cloned()
                    .unwrap_or_default()
                    .replace(':', "_");
                Some(
                    std::fs::OpenOptions::new()
                        .create(true)
                        .append(true)
                        .open(std::path::Path::new(&dir).join(format!("{name}.log")))?,
                )
            }
            None => None,
        };
        let mut child = Command::new(exe)
            .args(&self.args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start the server")?;
        let out = child.stdout.take().context("no stdout")?;
        let mut lines = BufReader::new(out).lines();
        // Until it says it serves (a cluster node logs each game it takes over first), or its
        // output ends (it died).
        let mut log = log;
        let started = lines.by_ref().map_while(Result::ok).any(|l| {
            if let Some(f) = &mut log {
                use std::io::Write;
                let _ = writeln!(f, "{l}");
            }
            l.contains("serving on")
        });
        if !started {
            let _ = child.kill();
            bail!("the server did not start");
        }
        // Keep reading its output, so that it never writes into a closed pipe.
        std::thread::spawn(move || {
            use std::io::Write;
            for line in lines.map_while(Result::ok) {
                if let Some(f) = &mut log {
                    let _ = writeln!(f, "{line}");
                }
            }
        });
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

async fn new_game_on(addr: SocketAddr) -> anyhow::Result<Game> {
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
    // One deadline for the answer (the server's pings must not keep a dead wait alive).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let m = tokio::time::timeout_at(deadline, ws.next())
            .await
            .context("no snapshot")?
            .context("closed")??;
        let Message::Text(t) = m else { continue };
        let v: Value = serde_json::from_str(t.as_str())?;
        if v["type"] == "error" {
            // The game is between owners (a node just died): watch again.
            bail!("watch refused: {v}");
        }
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
    addrs: Arc<Vec<SocketAddr>>,
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
        for (k, t) in g.tokens.iter().enumerate() {
            // Each player on a node of their own choosing (any node serves any game).
            let addr = addrs[(g.id as usize + k + out.reconnects as usize) % addrs.len()];
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
            let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
            loop {
                let m = match tokio::time::timeout_at(deadline, me.next()).await {
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

/// What a spectator saw of one game.
#[derive(Clone, Default)]
struct Spectated {
    /// The moves, in the order seen.
    points: Vec<String>,
    /// Events that came with a seq other than the next one (then it watched again).
    out_of_order: u32,
    /// Watches refused (`game_unavailable`), then made again.
    refused: u32,
}

/// Watches game `game` as a spectator to its end (`moves` moves) or `stop`, through the kills:
/// on each break it watches again from the last seq it saw, on another node.
async fn spectate(
    addrs: Arc<Vec<SocketAddr>>,
    token: String,
    game: i64,
    moves: u32,
    stop: Arc<AtomicBool>,
) -> Spectated {
    let mut seen = Spectated::default();
    let mut last: Option<u64> = None;
    let mut round = 0usize;
    while !stop.load(Ordering::Relaxed) && (seen.points.len() as u32) < moves {
        round += 1;
        let addr = addrs[(game as usize + 2 + round) % addrs.len()];
        let Ok(mut ws) = crate::client::open(addr, &token).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let watch = json!({"type": "watch", "game": game, "since": last});
        if ws
            .send(Message::Text(watch.to_string().into()))
            .await
            .is_err()
        {
            continue;
        }
        loop {
            if stop.load(Ordering::Relaxed) || (seen.points.len() as u32) >= moves {
                return seen;
            }
            let m = match tokio::time::timeout(Duration::from_secs(1), ws.next()).await {
                Ok(Some(Ok(m))) => m,
                Ok(_) => break,
                Err(_) => continue,
            };
            let Message::Text(t) = m else { continue };
            let Ok(v) = serde_json::from_str::<Value>(t.as_str()) else {
                continue;
            };
            match v["type"].as_str() {
                Some("snapshot") if last.is_none() => {
                    seen.points = v["state"]["moves"]
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .map(|m| m["point"].as_str().unwrap_or("").to_string())
                                .collect()
                        })
                        .unwrap_or_default();
                    last = v["state"]["seq"].as_u64();
                }
                Some("event") => {
                    let seq = v["seq"].as_u64().unwrap_or(0);
                    let next = last.map_or(1, |l| l + 1);
                    if seq < next {
                        continue;
                    }
                    if seq > next {
                        seen.out_of_order += 1;
                        break;
                    }
                    last = Some(seq);
                    if v["event"]["type"] == "move" {
                        seen.points
                            .push(v["event"]["point"].as_str().unwrap_or("").to_string());
                    }
                }
                Some("resync") => break,
                // The watch failed (the game is between owners for longer than the server
                // waits): as the protocol asks, watch again in a moment.
                Some("error") if v["game"] == json!(game) => {
                    seen.refused += 1;
                    tokio::time::sleep(Duration::from_millis(500)).await;
                    break;
                }
                _ => {}
            }
        }
    }
    seen
}

/// Runs the test and prints what it found; fails if a move was lost or misplaced.
pub fn run(opt: ChaosOpt) -> anyhow::Result<()> {
    let moves = opt.moves.clamp(1, 76);
    let nodes = opt.nodes.max(1);
    if nodes > 1 && (opt.nats.is_none() || opt.database_url.is_none()) {
        bail!("--nodes above 1 needs --nats and --database-url (PostgreSQL)");
    }
    let spawns = Arc::new(std::sync::Mutex::new(Vec::new()));
    let mut servers = Vec::new();
    let mut addrs = Vec::new();
    let dir = std::env::temp_dir().join(format!("tengen-chaos-{}", std::process::id()));
    for n in 0..nodes {
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
            // Every game's two players connect from 127.0.0.1.
            "--sockets-per-address".into(),
            "0".into(),
        ];
        match (&opt.database_url, &opt.db) {
            (Some(url), _) => args.extend(["--database-url".into(), url.clone()]),
            (None, Some(db)) => args.extend(["--db".into(), db.display().to_string()]),
            (None, None) => {
                std::fs::create_dir_all(&dir)?;
                args.extend(["--db".into(), dir.join("chaos.db").display().to_string()]);
            }
        }
        if let (Some(nats), true) = (&opt.nats, nodes > 1) {
            args.extend([
                "--nats".into(),
                nats.clone(),
                "--node".into(),
                format!("chaos{n}"),
            ]);
        }
        let mut server = Server {
            args,
            child: None,
            spawns: spawns.clone(),
        };
        server.start()?;
        servers.push(server);
        addrs.push(addr);
    }
    let addrs = Arc::new(addrs);
    let addr = addrs[0];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let started = Instant::now();
    let (acked, kills, spectated) = runtime.block_on(async {
        let mut games = Vec::new();
        let mut spectators = Vec::new();
        for k in 0..opt.games {
            // Games spread over the nodes (each is owned, at first, by the node it began on).
            let on = addrs[k as usize % addrs.len()];
            games.push(new_game_on(on).await?);
            let guest = http(on, "POST", "/api/accounts/guest", None, None).await?;
            spectators.push(guest["token"].as_str().context("token")?.to_string());
        }
        let ids: Vec<i64> = games.iter().map(|g| g.id).collect();
        let stop = Arc::new(AtomicBool::new(false));
        let acked = Arc::new(Mutex::new(HashMap::new()));
        let spectated = Arc::new(Mutex::new(HashMap::new()));
        let mut drivers = Vec::new();
        let mut watchers = Vec::new();
        let opt_think = opt.think_ms;
        for (g, token) in games.into_iter().zip(spectators) {
            let (stop, acked, addrs) = (stop.clone(), acked.clone(), addrs.clone());
            let id = g.id;
            {
                let (stop, spectated, addrs) = (stop.clone(), spectated.clone(), addrs.clone());
                watchers.push(tokio::spawn(async move {
                    let seen = spectate(addrs, token, id, moves, stop).await;
                    spectated.lock().await.insert(id, seen);
                }));
            }
            drivers.push(tokio::spawn(async move {
                let think = Duration::from_millis(opt_think);
                let a = drive(addrs, g, moves, think, stop).await;
                acked.lock().await.insert(id, a);
            }));
        }
        let mut rng = Rng::new(opt.seed);
        let mut kills = 0;
        // A lone server comes back at once; a cluster node's games wait for its leases to
        // lapse, so the kills come further apart.
        let (every, spread) = if nodes > 1 {
            (1_500, 2_500)
        } else {
            (200, 800)
        };
        while kills < opt.kills {
            tokio::time::sleep(Duration::from_millis(every + rng.below(spread) as u64)).await;
            let victim = &mut servers[rng.below(nodes) as usize];
            victim.kill();
            kills += 1;
            tokio::time::sleep(Duration::from_millis(rng.below(300) as u64)).await;
            victim.start()?;
        }
        // Let the games finish, then stop whatever is still stuck.
        let deadline = Instant::now() + Duration::from_secs(120);
        for d in drivers {
            let left = deadline.saturating_duration_since(Instant::now());
            if tokio::time::timeout(left, d).await.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        // Spectators catch up with what was played, or give up after a while.
        let deadline = Instant::now() + Duration::from_secs(30);
        for w in watchers {
            let left = deadline.saturating_duration_since(Instant::now());
            if tokio::time::timeout(left, w).await.is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        }
        let spectated = std::mem::take(&mut *spectated.lock().await);
        let acked = std::mem::take(&mut *acked.lock().await);
        anyhow::Ok((
            ids.into_iter()
                .map(|id| {
                    let d = acked.get(&id).cloned();
                    (id, d.unwrap_or_else(|| Driven::new(Instant::now(), moves)))
                })
                .collect::<Vec<(i64, Driven)>>(),
            kills,
            spectated,
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
    // Spectators: games whose spectator saw every stored move in order, and the longest wait
    // of a game between two acknowledged moves (a node's death included).
    let (mut spectators_whole, mut spectators_wrong) = (0usize, 0usize);
    let (mut out_of_order, mut refused) = (0u32, 0u32);
    let longest_wait = acked
        .iter()
        .flat_map(|(_, d)| {
            d.done
                .windows(2)
                .filter_map(|w| Some(w[1]?.saturating_duration_since(w[0]?)))
                .collect::<Vec<_>>()
        })
        .max()
        .unwrap_or_default();
    runtime.block_on(async {
        for (id, driven) in &acked {
            // A game whose node was just killed answers 503 until another node takes it.
            let mut tries = 0;
            let snap = loop {
                match http(addr, "GET", &format!("/api/games/{id}"), None, None).await {
                    Ok(v) => break v,
                    Err(e) if tries < 30 && e.to_string().contains(" 503 ") => {
                        tries += 1;
                        tokio::time::sleep(Duration::from_millis(500)).await;
                    }
                    Err(e) => return Err(e),
                }
            };
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
            if let Some(seen) = spectated.get(id) {
                out_of_order += seen.out_of_order;
                refused += seen.refused;
                if seen.points == stored {
                    spectators_whole += 1;
                } else if !stored.starts_with(&seen.points) {
                    spectators_wrong += 1;
                    println!("game {id}: the spectator saw moves that are not the game's");
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
    for s in &mut servers {
        s.kill();
    }
    println!(
        "spectators: {spectators_whole} of {} saw every move in order, {spectators_wrong} saw \
         something else ({out_of_order} gaps found and filled by watching again, {refused} \
         watches refused and made again); longest wait between two acknowledged moves of a game \
         {:.1} s",
        acked.len(),
        longest_wait.as_secs_f64()
    );
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
    // Every spectator, through every kill: one left behind is watching a frozen board.
    if spectators_wrong > 0 || spectators_whole < acked.len() {
        bail!(
            "spectators: {spectators_wrong} saw moves not in the game, only {spectators_whole} saw \
             them all"
        );
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
