//! `tengen bot --server URL --name NAME`: a bot's engine as its own process, on any machine,
//! connected to the server the way a player's browser is: it signs in as the bot, keeps one
//! WebSocket open, hears of each new game (`bot_game`) and plays its live games through the
//! same messages a player sends. Its decisions are the server's own bots' ([`Player`]: the
//! engine, and the manners: resigning lost games, passing back, counting, take-backs).
//!
//! When the connection drops (the server restarts, the network fails) it signs in again, with
//! a growing pause (1 s to 30 s), and takes up every live game from its first event: nothing
//! is lost, since the server keeps the games and the bot's state is only the game's own.

use std::collections::HashMap;
use std::time::Duration;

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tengen_app::bots::{Engine, Player};
use tengen_core::game::{Action, Event, LiveGame, Terms};
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, Phase};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::Message;

use crate::client::{AnyWs, Endpoint, HttpStatus};

/// Where the bot connects and as whom.
#[derive(Clone, Debug)]
pub struct Seat {
    /// The server.
    pub server: Endpoint,
    /// The bot's account.
    pub name: String,
    /// Its password (`tengen admin bot-password NAME`).
    pub password: String,
}

/// Plays as the bot until the process is stopped. Returns only on an error that trying again
/// cannot mend: a refused password.
pub async fn run(seat: Seat, engine: Engine) -> anyhow::Result<()> {
    let mut pause = Duration::from_secs(1);
    loop {
        let started = std::time::Instant::now();
        match session(&seat, &engine).await {
            Ok(()) => eprintln!("{}: the server closed the connection", seat.name),
            Err(e) if refused_sign_in(&e) => {
                return Err(e.context(format!("{} could not sign in", seat.name)))
            }
            Err(e) => eprintln!("{}: {e:#}", seat.name),
        }
        // A connection that lasted a while starts the pauses over.
        if started.elapsed() > Duration::from_secs(60) {
            pause = Duration::from_secs(1);
        }
        eprintln!("{}: connecting again in {} s", seat.name, pause.as_secs());
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(30));
    }
}

fn refused_sign_in(e: &anyhow::Error) -> bool {
    e.downcast_ref::<HttpStatus>()
        .is_some_and(|s| s.status == 401 || s.status == 403)
}

/// One connection: signs in, opens the socket, takes up the live games, then plays until the
/// socket closes. The games' tasks end with it.
async fn session(seat: &Seat, engine: &Engine) -> anyhow::Result<()> {
    let server = &seat.server;
    let body = json!({ "username": seat.name, "password": seat.password });
    let signed = server
        .http("POST", "/api/accounts/login", Some(&body), None)
        .await?;
    let token = signed["token"]
        .as_str()
        .context("the server's sign-in answer has no token")?
        .to_string();
    let ws: AnyWs = server.websocket(&token).await?;
    eprintln!("{}: connected to {}", seat.name, server.authority());
    let (mut sink, mut stream) = ws.split();
    let (out, mut out_rx) = mpsc::channel::<Message>(256);
    let writer = tokio::spawn(async move {
        while let Some(m) = out_rx.recv().await {
            if sink.send(m).await.is_err() {
                break;
            }
        }
    });
    let ctx = Table {
        server: server.clone(),
        name: seat.name.clone(),
        engine: engine.clone(),
        out,
    };
    let mut games: HashMap<i64, (mpsc::UnboundedSender<Value>, JoinHandle<()>)> = HashMap::new();
    let listed = format!("/api/users/{}/games", seat.name);
    for g in server.http("GET", &listed, None, Some(&token)).await?["games"]
        .as_array()
        .into_iter()
        .flatten()
    {
        if g["status"] == "live" {
            if let Some(id) = g["id"].as_i64() {
                take_up(&ctx, &mut games, id);
            }
        }
    }
    while let Some(msg) = stream.next().await {
        let text = match msg? {
            Message::Text(t) => t,
            Message::Close(_) => break,
            _ => continue,
        };
        let Ok(v) = serde_json::from_str::<Value>(&text) else {
            continue;
        };
        if v["type"] == "bot_game" {
            if let Some(id) = v["game"].as_i64() {
                take_up(&ctx, &mut games, id);
            }
            continue;
        }
        // A game's events and the answers to its actions (an error names its game in `ref`).
        let game = v["game"].as_i64().or_else(|| v["ref"][0].as_i64());
        if let Some((tx, _)) = game.and_then(|g| games.get(&g)) {
            let _ = tx.send(v);
        }
        games.retain(|_, (_, task)| !task.is_finished());
    }
    for (_, (_, task)) in games {
        task.abort();
    }
    writer.abort();
    Ok(())
}

/// What the games' tasks share: the server, the bot's name and engine, and the socket's writer.
#[derive(Clone)]
struct Table {
    server: Endpoint,
    name: String,
    engine: Engine,
    out: mpsc::Sender<Message>,
}

/// Starts playing game `id` unless this connection already does.
fn take_up(
    ctx: &Table,
    games: &mut HashMap<i64, (mpsc::UnboundedSender<Value>, JoinHandle<()>)>,
    id: i64,
) {
    if games.get(&id).is_some_and(|(_, t)| !t.is_finished()) {
        return;
    }
    let (tx, rx) = mpsc::unbounded_channel();
    let ctx = ctx.clone();
    let task = tokio::spawn(async move {
        let mut rx = rx;
        loop {
            let Err(e) = play_game(&ctx, id, &mut rx).await else {
                return;
            };
            eprintln!("{}: game {id}: {e:#}", ctx.name);
            if e.downcast_ref::<EngineFailed>().is_some() {
                // As the server's own bots do: an engine that cannot go on gives the game up
                // rather than leaving its opponent waiting.
                let msg = json!({ "type": "resign", "game": id });
                let _ = ctx.out.send(Message::Text(msg.to_string().into())).await;
                return;
            }
            // The network or the server: take the game up again in a moment, from its start.
            tokio::time::sleep(Duration::from_secs(5)).await;
            while rx.try_recv().is_ok() {}
        }
    });
    games.insert(id, (tx, task));
}

/// The bot's engine failed (it would not start, or died, or answered nonsense).
#[derive(Debug)]
struct EngineFailed(String);

impl std::fmt::Display for EngineFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the engine failed: {}", self.0)
    }
}

impl std::error::Error for EngineFailed {}

fn engine_failed(e: tengen_app::bots::BotError) -> anyhow::Error {
    EngineFailed(e.to_string()).into()
}

/// Plays the bot's side of game `id` from the messages routed to it, until the game ends.
async fn play_game(
    ctx: &Table,
    id: i64,
    inbox: &mut mpsc::UnboundedReceiver<Value>,
) -> anyhow::Result<()> {
    let path = format!("/api/games/{id}");
    let snapshot = ctx.server.http("GET", &path, None, None).await?;
    let color = if snapshot["black"]["username"] == ctx.name.as_str() {
        Color::Black
    } else if snapshot["white"]["username"] == ctx.name.as_str() {
        Color::White
    } else {
        bail!("{} does not play in it", ctx.name);
    };
    let terms: Terms = serde_json::from_value(snapshot["terms"].clone())?;
    let mut game = Game {
        id,
        live: LiveGame::new(terms.clone()).map_err(anyhow::Error::msg)?,
        player: Player::start(
            tengen_app::engines::Engines::process(),
            ctx.engine.clone(),
            terms,
            color,
            0xB07 ^ id as u64,
        )
        .await
        .map_err(engine_failed)?,
        seq: 0,
        // Events up to the snapshot's are the past: the engine replays them, and decides
        // nothing until it has them all.
        past: snapshot["seq"].as_u64().unwrap_or(0),
        pending: None,
        stored_at: None,
        sent: 0,
    };
    game.watch(ctx).await;
    while let Some(v) = inbox.recv().await {
        game.hear(ctx, v).await?;
        // Decides once it has read everything that arrived meanwhile.
        while let Ok(v) = inbox.try_recv() {
            game.hear(ctx, v).await?;
        }
        if game.live.game.phase() == Phase::Finished {
            game.player.quit().await;
            return Ok(());
        }
        game.act(ctx).await?;
    }
    Ok(())
}

/// One game as the bot follows it.
struct Game {
    id: i64,
    live: LiveGame,
    player: Player,
    /// The last event applied.
    seq: u64,
    /// The seq of the last event before this process took the game up.
    past: u64,
    /// The action sent and not yet answered.
    pending: Option<Action>,
    /// The seq at which the server stored the bot's last action: nothing is decided until
    /// that event has arrived.
    stored_at: Option<u64>,
    /// Actions sent so far (their ids).
    sent: u64,
}

/// Move codes that mean the engine's move is illegal (not merely late): the bot passes.
const ILLEGAL: &[&str] = &[
    "occupied",
    "suicide",
    "ko",
    "superko",
    "off_board",
    "bad_point",
];

impl Game {
    /// Asks for every event from the first, or from the last one applied after a gap.
    async fn watch(&mut self, ctx: &Table) {
        let msg = json!({ "type": "watch", "game": self.id, "since": self.seq });
        let _ = ctx.out.send(Message::Text(msg.to_string().into())).await;
    }

    /// A message for this game: an event, or the answer to the bot's last action.
    async fn hear(&mut self, ctx: &Table, v: Value) -> anyhow::Result<()> {
        match v["type"].as_str() {
            Some("event") => {
                let seq = v["seq"].as_u64().unwrap_or(0);
                if seq <= self.seq {
                    return Ok(());
                }
                if seq > self.seq + 1 {
                    // A gap: ask again from the last event applied.
                    self.watch(ctx).await;
                    return Ok(());
                }
                let event: Event = serde_json::from_value(v["event"].clone())?;
                self.live.apply(&event);
                let followed = if seq <= self.past {
                    self.player.replayed(&event).await
                } else {
                    self.player.followed(&event).await
                };
                followed.map_err(engine_failed)?;
                self.seq = seq;
            }
            Some("resync") => self.watch(ctx).await,
            Some("ack") if v["ref"][0].as_i64() == Some(self.id) => {
                self.stored_at = v["seq"].as_u64();
                self.pending = None;
            }
            Some("error") if v["ref"][0].as_i64() == Some(self.id) => {
                let refused = self.pending.take();
                let code = v["code"].as_str().unwrap_or("");
                if matches!(refused, Some(Action::Move(_))) && ILLEGAL.contains(&code) {
                    eprintln!(
                        "{}: game {}: move refused ({code}); passing",
                        ctx.name, self.id
                    );
                    self.player.move_refused().await;
                    self.send(ctx, Action::Pass).await?;
                    self.player.passed_instead().await.map_err(engine_failed)?;
                }
                // Otherwise the game moved on meanwhile: the next event brings a new decision.
            }
            Some("error") if v["code"] == "game_unavailable" => {
                // The game is moving between a cluster's nodes: ask again in a moment.
                tokio::time::sleep(Duration::from_secs(1)).await;
                self.watch(ctx).await;
            }
            _ => {}
        }
        Ok(())
    }

    /// Decides and sends the bot's next action, once it has the whole game and the server has
    /// stored its last one.
    async fn act(&mut self, ctx: &Table) -> anyhow::Result<()> {
        let stored = self.stored_at.is_none_or(|s| self.seq >= s);
        if self.pending.is_some() || !stored || self.seq < self.past {
            return Ok(());
        }
        if let Some(a) = self
            .player
            .decide(&self.live)
            .await
            .map_err(engine_failed)?
        {
            self.send(ctx, a).await?;
        }
        Ok(())
    }

    async fn send(&mut self, ctx: &Table, a: Action) -> anyhow::Result<()> {
        self.sent += 1;
        let mut msg = wire(self.id, self.live.terms.size, &a)?;
        msg["id"] = json!([self.id, self.sent]);
        self.pending = Some(a);
        ctx.out
            .send(Message::Text(msg.to_string().into()))
            .await
            .context("the connection closed")
    }
}

/// The client message for the bot's action `a` in game `id`.
fn wire(id: i64, size: u8, a: &Action) -> anyhow::Result<Value> {
    Ok(match a {
        Action::Move(p) => {
            json!({ "type": "move", "game": id, "point": coord::format_point(size, *p) })
        }
        Action::Pass => json!({ "type": "pass", "game": id }),
        Action::Resign => json!({ "type": "resign", "game": id }),
        Action::AnswerTakeback(accept) => {
            json!({ "type": "takeback_answer", "game": id, "accept": accept })
        }
        Action::RequestScoring => json!({ "type": "score_request", "game": id }),
        Action::AcceptScore => json!({ "type": "accept_score", "game": id }),
        Action::Chat(text) => json!({ "type": "chat", "game": id, "text": text }),
        other => bail!("a bot does not {other:?}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_a_bot_decides_has_its_message() {
        let p = coord::parse_point(9, "E5").unwrap();
        assert_eq!(
            wire(3, 9, &Action::Move(p)).unwrap(),
            json!({ "type": "move", "game": 3, "point": "E5" })
        );
        for a in [
            Action::Pass,
            Action::Resign,
            Action::AnswerTakeback(true),
            Action::RequestScoring,
            Action::AcceptScore,
            Action::Chat("hi".into()),
        ] {
            assert_eq!(wire(3, 9, &a).unwrap()["game"], 3, "{a:?}");
        }
    }
}
