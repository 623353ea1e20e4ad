//! `tengen loadtest`: many concurrent games over WebSockets against a running server.
//!
//! Each pair of guest players opens rooms and joins them over HTTP (one game, or several with
//! `--games-per-pair`, as a correspondence player has), then each player plays all the pair's
//! games over one WebSocket, alternately with a think time between moves. Black fills a row
//! near the top, White a row two lines below, so no move ever captures and every move is
//! legal. The latency of a move is the time from sending it to receiving its broadcast `event`
//! on the mover's own connection: storage, the actor and the fan-out included. Players stay
//! connected until every game is over (the server's CPU is read before they leave).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use clap::Args;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_rules::coord::gtp;
use tengen_rules::Point;
use tokio::sync::{mpsc, Mutex};
use tokio_tungstenite::tungstenite::Message;

use crate::client::{http, open, Ws};

/// Options of `tengen loadtest`.
#[derive(Args, Debug)]
pub struct LoadOpt {
    /// The server, e.g. 127.0.0.1:8080; several (repeated, or separated by commas) for the
    /// nodes of a cluster: game i is set up on node i, its Black player connects there and its
    /// White player to the next node, so that moves cross nodes.
    #[arg(long, default_value = "127.0.0.1:8080", value_delimiter = ',')]
    pub addr: Vec<SocketAddr>,
    /// Concurrent games.
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Games each pair of players plays at once, each player over one WebSocket: 10,000 games
    /// in pairs of 10 need 2,000 connections, not 20,000 (one process's open files are bounded).
    #[arg(long, default_value_t = 1)]
    pub games_per_pair: u32,
    /// Moves per game (at most 76 on 19x19); Black resigns after them.
    #[arg(long, default_value_t = 40)]
    pub moves: u32,
    /// Milliseconds each player thinks before a move (games start spread over one think time).
    #[arg(long, default_value_t = 1000)]
    pub think_ms: u64,
    /// The server's process id, when it runs on this machine: its own CPU time (from /proc)
    /// is reported per 1,000 moves, apart from the load generator's (several, repeated or
    /// separated by commas, for a cluster's nodes: their sum).
    #[arg(long, value_delimiter = ',')]
    pub server_pid: Vec<u32>,
    /// Writes every move's latency to this file, a line each: ms from the start of play when
    /// it was sent, its latency in microseconds, and the mover (0 Black, 1 White: in a
    /// cluster, White's moves are the ones forwarded to the game's owner). For finding where
    /// a tail comes from.
    #[arg(long)]
    pub latencies: Option<std::path::PathBuf>,
    /// Games against a server bot kept going while the games are played (the bot always
    /// thinking), to compare the players' move latency with and without engines at work.
    #[arg(long, default_value_t = 0)]
    pub bot_games: u32,
    /// The bot of `--bot-games`.
    #[arg(long, default_value = "tengen-9")]
    pub bot: String,
    /// Board size of the bot games.
    #[arg(long, default_value_t = 19)]
    pub bot_size: u8,
}

/// CPU seconds (user and system) process `pid` has used, from `/proc/PID/stat`.
fn cpu_seconds(pid: u32) -> anyhow::Result<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .with_context(|| format!("cannot read /proc/{pid}/stat"))?;
    // The fields after the command name (which may hold spaces) are space-separated: utime
    // and stime are the 14th and 15th of the line, the 12th and 13th after the name.
    let after = stat.rsplit_once(')').context("malformed stat")?.1;
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks: f64 =
        f.get(11).context("utime")?.parse::<f64>()? + f.get(12).context("stime")?.parse::<f64>()?;
    // Linux reports in clock ticks of USER_HZ, 100 a second on every common platform.
    Ok(ticks / 100.0)
}

/// The `i`-th move of a game on 19x19: Black fills row 19 then row 15, White rows 17 and 13.
pub(crate) fn point(i: u32) -> String {
    let n = i / 2;
    let (col, band) = ((n % 19) as u8, (n / 19) as u8);
    let row_from_top = if i % 2 == 0 { band * 4 } else { band * 4 + 2 };
    gtp::format_point(19, Point::new(19, col, row_from_top).expect("on the board"))
}

struct Stats {
    latencies_us: Vec<u64>,
    /// (ms from the start of play, latency in µs, mover), with `--latencies`.
    timeline: Vec<(u64, u64, u8)>,
    errors: u64,
}

/// A new 19x19 game between two new guests: its id and the players' tokens (Black, White).
pub(crate) async fn new_game(addr: SocketAddr) -> anyhow::Result<(i64, [String; 2])> {
    let owner = http(addr, "POST", "/api/accounts/guest", None, None).await?;
    let partner = http(addr, "POST", "/api/accounts/guest", None, None).await?;
    let token = |v: &Value| v["token"].as_str().map(str::to_string).context("token");
    let (ot, pt) = (token(&owner)?, token(&partner)?);
    let game = another_game(addr, &ot, &pt).await?;
    // Guests are both 18k: HO-SUN, and the partner's right guess gives them Black.
    Ok((game, [pt, ot]))
}

/// One player's connection, shared by the pair's games: a writer task sends what the games
/// hand it, a reader task hands each game the moves broadcast in it (and errors about it).
/// The reader also keeps the games watched as a client does: it watches each game (the
/// request's `id` names it), tells [`Line::watched`] when the first answer came, watches
/// again after a `game_unavailable` (a cluster moving the game, or an owner too busy to answer
/// in time) and after a `resync`, from the last event it saw.
struct Line {
    send: mpsc::UnboundedSender<Message>,
    /// One message per game once it is watched (or could not be: `Err`).
    watched: mpsc::UnboundedReceiver<Result<i64, String>>,
}

/// The moves (and errors) one game sees on one player's connection.
type Inbox = mpsc::UnboundedReceiver<Value>;

/// How often a watch is tried before the game counts as failed.
const WATCH_TRIES: u32 = 10;

fn watch_message(game: i64, since: Option<u64>) -> Message {
    let mut m = json!({"type": "watch", "game": game, "id": {"watch": game}});
    if let Some(s) = since {
        m["since"] = json!(s);
    }
    Message::Text(m.to_string().into())
}

/// Splits `ws` into a [`Line`] and an inbox per game of `games`, and watches the games.
fn line(ws: Ws, games: &[i64]) -> (Line, Vec<Inbox>) {
    let (mut sink, mut stream) = ws.split();
    let (send, mut outbox) = mpsc::unbounded_channel::<Message>();
    let (told, watched) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Some(m) = outbox.recv().await {
            if sink.send(m).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });
    /// A game as its reader sees it: its inbox, the last seq, whether its first watch was
    /// answered, the tries of the watch under way.
    struct Route {
        tx: mpsc::UnboundedSender<Value>,
        seq: Option<u64>,
        watched: bool,
        tries: u32,
    }
    let mut routes = std::collections::HashMap::new();
    let mut inboxes = Vec::new();
    for &g in games {
        let (tx, rx) = mpsc::unbounded_channel();
        let route = Route {
            tx,
            seq: None,
            watched: false,
            tries: 1,
        };
        routes.insert(g, route);
        inboxes.push(rx);
        let _ = send.send(watch_message(g, None));
    }
    let resend = send.clone();
    tokio::spawn(async move {
        while let Some(Ok(m)) = stream.next().await {
            let Message::Text(t) = m else { continue };
            let Ok(v) = serde_json::from_str::<Value>(t.as_str()) else {
                continue;
            };
            let kind = v["type"].as_str().unwrap_or_default();
            let game = v["game"]
                .as_i64()
                .or_else(|| v["ref"]["watch"].as_i64())
                .or_else(|| v["ref"]["move"].as_i64());
            let Some(route) = game.and_then(|g| routes.get_mut(&g)) else {
                if kind == "error" {
                    // An error that names no game stops them all.
                    routes.values().for_each(|r| {
                        let _ = r.tx.send(v.clone());
                    });
                }
                continue;
            };
            let g = game.unwrap_or_default();
            let first = !route.watched;
            match kind {
                "event" => {
                    route.seq = v["seq"].as_u64().or(route.seq);
                    if v["event"]["type"] == "move" {
                        let _ = route.tx.send(v);
                    }
                }
                "snapshot" | "ack" if v["ref"]["watch"].is_i64() => {
                    route.watched = true;
                    route.tries = 0;
                    if kind == "snapshot" {
                        route.seq = v["state"]["seq"].as_u64().or(route.seq);
                    }
                    if first {
                        let _ = told.send(Ok(g));
                    }
                }
                "resync" => {
                    route.tries = 1;
                    let _ = resend.send(watch_message(g, route.seq));
                }
                "error"
                    if v["ref"]["watch"].is_i64()
                        && v["code"] == "game_unavailable"
                        && route.tries < WATCH_TRIES =>
                {
                    route.tries += 1;
                    let (again, since) = (resend.clone(), route.seq);
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_millis(300)).await;
                        let _ = again.send(watch_message(g, since));
                    });
                }
                "error" => {
                    if first && v["ref"]["watch"].is_i64() {
                        let _ = told.send(Err(format!("game {g}: cannot watch it: {v}")));
                    }
                    let _ = route.tx.send(v);
                }
                _ => {}
            }
        }
        // Dropping the routes closes every inbox: the games see the socket closed.
    });
    (Line { send, watched }, inboxes)
}

impl Line {
    /// Waits until each of `n` games is watched: an error for the first that could not be.
    async fn all_watched(&mut self, n: usize) -> anyhow::Result<()> {
        for _ in 0..n {
            tokio::time::timeout(Duration::from_secs(60), self.watched.recv())
                .await
                .context("no answer to a watch within 60 s")?
                .context("socket closed")?
                .map_err(|e| anyhow::anyhow!(e))?;
        }
        Ok(())
    }
}

/// Reads `inbox` until the broadcast of the move on `point`.
async fn wait_move(inbox: &mut Inbox, point: &str) -> anyhow::Result<()> {
    loop {
        let v = tokio::time::timeout(Duration::from_secs(60), inbox.recv())
            .await
            .context("no message within 60 s")?
            .context("socket closed")?;
        if v["type"] == "error" {
            bail!("server error: {v}");
        }
        if v["event"]["point"] == point {
            return Ok(());
        }
    }
}

/// One game of a pair, with its inbox on each player's connection.
struct Table {
    game: i64,
    black: Inbox,
    white: Inbox,
}

/// A pair's games, set up and watched by both players.
struct Pair {
    black: Line,
    white: Line,
    tables: Vec<Table>,
}

/// Pair `i`'s `count` games between two new guests: set up on node `i`, Black connected there
/// and White to the next node.
async fn set_up(addrs: &[SocketAddr], i: usize, count: u32) -> anyhow::Result<Pair> {
    let addr = addrs[i % addrs.len()];
    let mut games = Vec::new();
    let (game, [bt, wt]) = new_game(addr).await?;
    games.push(game);
    for _ in 1..count {
        games.push(another_game(addr, &wt, &bt).await?);
    }
    let black = open(addr, &bt).await?;
    let white = open(addrs[(i + 1) % addrs.len()], &wt).await?;
    let (mut black, b_inboxes) = line(black, &games);
    let (mut white, w_inboxes) = line(white, &games);
    black.all_watched(games.len()).await?;
    white.all_watched(games.len()).await?;
    let tables = games
        .into_iter()
        .zip(b_inboxes.into_iter().zip(w_inboxes))
        .map(|(game, (black, white))| Table { game, black, white })
        .collect();
    Ok(Pair {
        black,
        white,
        tables,
    })
}

/// A game between two players: `owner` opens the room, `partner` joins it with the right
/// guess and so takes Black.
async fn another_game(addr: SocketAddr, owner: &str, partner: &str) -> anyhow::Result<i64> {
    let room = http(
        addr,
        "POST",
        "/api/rooms",
        Some(&json!({"size": 19, "rules": "chinese", "parity": "odd"})),
        Some(owner),
    )
    .await?;
    let joined = http(
        addr,
        "POST",
        &format!("/api/rooms/{}/join", room["id"]),
        Some(&json!({"guess": "odd"})),
        Some(partner),
    )
    .await?;
    joined["game_id"].as_i64().context("game id")
}

async fn play_game(
    opt: Arc<LoadOpt>,
    index: u32,
    lines: [mpsc::UnboundedSender<Message>; 2],
    table: Table,
    stats: Arc<Mutex<Stats>>,
    epoch: Instant,
) -> anyhow::Result<()> {
    let Table {
        game,
        mut black,
        mut white,
    } = table;
    // Spread the games' starts over one think time.
    tokio::time::sleep(Duration::from_millis(
        (index as u64 * 7919) % opt.think_ms.max(1),
    ))
    .await;
    let send = |side: usize, v: Value| {
        lines[side]
            .send(Message::Text(v.to_string().into()))
            .map_err(|_| anyhow::anyhow!("connection closed"))
    };
    for i in 0..opt.moves.min(76) {
        tokio::time::sleep(Duration::from_millis(opt.think_ms)).await;
        let p = point(i);
        let side = (i % 2) as usize;
        let (me, other) = if side == 0 {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        let sent = Instant::now();
        send(
            side,
            json!({"type": "move", "game": game, "point": p, "id": {"move": game}}),
        )?;
        let who = ["Black", "White"][side];
        wait_move(me, &p)
            .await
            .with_context(|| format!("move {} ({who} {p}), on the mover's connection", i + 1))?;
        let us = sent.elapsed().as_micros() as u64;
        let mut st = stats.lock().await;
        st.latencies_us.push(us);
        if opt.latencies.is_some() {
            let at = sent.duration_since(epoch).as_millis() as u64;
            st.timeline.push((at, us, side as u8));
        }
        drop(st);
        wait_move(other, &p)
            .await
            .with_context(|| format!("move {} ({who} {p}), on the other's connection", i + 1))?;
    }
    send(0, json!({"type": "resign", "game": game}))?;
    Ok(())
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i] as f64 / 1000.0
}

/// Runs the load and prints the figures.
pub fn run(opt: LoadOpt) -> anyhow::Result<()> {
    if opt.games == 0 || opt.moves == 0 {
        bail!("--games and --moves must be positive");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let opt = Arc::new(opt);
        let stats = Arc::new(Mutex::new(Stats {
            latencies_us: Vec::new(),
            timeline: Vec::new(),
            errors: 0,
        }));
        // Every game is set up before any is played, so that the server's CPU for the moves
        // is measured apart from the accounts, rooms and connections.
        let set_up_start = Instant::now();
        let cpu = |pids: &[u32]| -> anyhow::Result<Option<f64>> {
            if pids.is_empty() {
                return Ok(None);
            }
            pids.iter()
                .map(|&p| cpu_seconds(p))
                .sum::<anyhow::Result<f64>>()
                .map(Some)
        };
        let cpu_start = cpu(&opt.server_pid)?;
        let per_pair = opt.games_per_pair.max(1);
        let pairs = opt.games.div_ceil(per_pair);
        let (ready_tx, mut ready_rx) = mpsc::channel::<()>(pairs as usize);
        let (go_tx, go_rx) = tokio::sync::watch::channel::<Option<Instant>>(None);
        let mut tasks = Vec::new();
        for pair in 0..pairs {
            let (o, s) = (opt.clone(), stats.clone());
            let (ready, mut go) = (ready_tx.clone(), go_rx.clone());
            let count = per_pair.min(opt.games - pair * per_pair);
            tasks.push(tokio::spawn(async move {
                let set = set_up(&o.addr, pair as usize, count).await;
                let _ = ready.send(()).await;
                let epoch = match go.wait_for(|go| go.is_some()).await {
                    Ok(at) => at.unwrap_or_else(Instant::now),
                    Err(_) => return None,
                };
                let pair_games = match set {
                    Ok(p) => p,
                    Err(e) => {
                        let mut st = s.lock().await;
                        st.errors += count as u64;
                        if st.errors <= 5 {
                            eprintln!("pair {pair}: {:#}", e.context("set-up"));
                        }
                        return None;
                    }
                };
                let lines = [pair_games.black.send, pair_games.white.send];
                let games = pair_games.tables.into_iter().enumerate().map(|(k, t)| {
                    let index = pair * per_pair + k as u32;
                    let played = play_game(o.clone(), index, lines.clone(), t, s.clone(), epoch);
                    async move { (index, played.await) }
                });
                for (index, played) in futures_util::future::join_all(games).await {
                    if let Err(e) = played {
                        let mut st = s.lock().await;
                        st.errors += 1;
                        if st.errors <= 5 {
                            eprintln!("game {index}: {e:#}");
                        }
                    }
                }
                // The lines close when their last sender goes: both sockets then close. They
                // are handed back, to close once every game is over: the players stay, as
                // players do after a game, rather than thousands leaving in the same second
                // while the last games are played.
                Some(lines)
            }));
        }
        drop(ready_tx);
        for _ in 0..pairs {
            if ready_rx.recv().await.is_none() {
                break;
            }
        }
        let set_up_secs = set_up_start.elapsed().as_secs_f64();
        let cpu_before = cpu(&opt.server_pid)?;
        let (stop_bots, bots_stop) = tokio::sync::watch::channel(false);
        let bot_tasks: Vec<_> = (0..opt.bot_games)
            .map(|i| {
                let addr = opt.addr[i as usize % opt.addr.len()];
                let (bot, stop) = (opt.bot.clone(), bots_stop.clone());
                tokio::spawn(crate::loadtest_bots::keep_bot_thinking(
                    addr,
                    bot,
                    opt.bot_size,
                    stop,
                ))
            })
            .collect();
        let start = Instant::now();
        let _ = go_tx.send(Some(start));
        let mut connected = Vec::new();
        for t in tasks {
            if let Ok(Some(lines)) = t.await {
                connected.push(lines);
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let _ = stop_bots.send(true);
        if opt.bot_games > 0 {
            let mut bot_moves = 0;
            for t in bot_tasks {
                match t.await {
                    Ok(Ok(n)) => bot_moves += n,
                    Ok(Err(e)) => eprintln!("bot game: {e:#}"),
                    Err(e) => eprintln!("bot game: {e}"),
                }
            }
            println!(
                "{} games against {} ({}x{}) beside them: {bot_moves} bot moves",
                opt.bot_games, opt.bot, opt.bot_size, opt.bot_size
            );
        }
        let mut st = stats.lock().await;
        if let Some(path) = &opt.latencies {
            use std::fmt::Write as _;
            st.timeline.sort_unstable();
            let mut text = String::new();
            for (at, us, side) in &st.timeline {
                let _ = writeln!(text, "{at} {us} {side}");
            }
            std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
        }
        st.latencies_us.sort_unstable();
        let n = st.latencies_us.len();
        println!(
            "{} games ({} a pair of connections) set up in {set_up_secs:.1} s; {} moves in {secs:.1} s: {:.0} moves/s; move to broadcast p50 {:.2} ms, p90 {:.2} ms, p95 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} games failed",
            opt.games,
            per_pair,
            n,
            n as f64 / secs,
            percentile(&st.latencies_us, 0.50),
            percentile(&st.latencies_us, 0.90),
            percentile(&st.latencies_us, 0.95),
            percentile(&st.latencies_us, 0.99),
            percentile(&st.latencies_us, 1.0),
            st.errors
        );
        if let (Some(start), Some(before)) = (cpu_start, cpu_before) {
            let used = cpu(&opt.server_pid)?.unwrap_or(before) - before;
            let set_up = before - start;
            println!(
                "server CPU: {set_up:.2} s to set up {} games ({:.2} ms a game: a room and a join; a pair's two guests and two \
                 connections shared by its games); {used:.2} s for {n} moves and the resignations, \
                 {:.0} ms per 1,000 moves ({:.3} ms a move)",
                opt.games,
                set_up * 1000.0 / opt.games as f64,
                used * 1e6 / n.max(1) as f64,
                used * 1000.0 / n.max(1) as f64
            );
        }
        // Every player leaves now.
        drop(connected);
        if st.errors > 0 {
            bail!("{} games failed", st.errors);
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::point;

    #[test]
    fn the_move_pattern_never_touches_the_other_colour() {
        let pts: Vec<String> = (0..76).map(point).collect();
        let set: std::collections::HashSet<&String> = pts.iter().collect();
        assert_eq!(set.len(), 76, "no point twice");
        assert_eq!(pts[0], "A19");
        assert_eq!(pts[1], "A17");
        assert_eq!(pts[38], "A15");
    }
}
