//! One task per live game: it serialises the game's actions, writes each accepted action's
//! events to the database before anyone hears of them, then applies and broadcasts them.
//!
//! The actor also keeps the players' presence: when a player's last connection to the game
//! closes, a grace period starts; if no connection comes back in time, the player loses by
//! forfeit (a grace of zero gives seed 002's immediate loss); an untimed game against a bot waits
//! [`ABANDONED_AFTER`] and then ends with no result, and a correspondence game waits for its
//! clock. The opponent hears of it once it lasts ([`TELL_AWAY_AFTER`]):
//! a `disconnected` event with the deadline, and `reconnected` when the player is back (stored
//! like every event, so a watcher that reconnects with `since` gets them too). A player not
//! there when the game starts is told the same way (`arrived` false in the snapshot's
//! `presence`), so that no page shows someone who is on their way, or already there, as gone.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Duration;

use futures_util::FutureExt;

use tengen_rules::{Color, Game, GameResult, Phase};
use tokio::sync::{broadcast, mpsc, oneshot};
use tokio::time::Instant;

pub use super::types::{ActError, ActParts, Record, Watch};
use tengen_core::domain::clock::Clock;
use tengen_core::game::{Action, ActionError, Actor, Event, LiveGame, Proposal};
use tengen_core::player::Player;
use tengen_core::view::{self, ClocksView, PresenceView, Sides, Snapshot};
use tengen_store::commit::{Append, Finish};
use tengen_store::games::{now_ms, PromotionOutcome};
use tengen_store::ratings::{self, RatedGame};
use tengen_store::Store;

enum Cmd {
    Act {
        user: i64,
        username: String,
        action: Action,
        /// The acting connection's measured round trip, ms (see `lag`).
        rtt_ms: u64,
        reply: oneshot::Sender<Result<u64, ActError>>,
    },
    Watch {
        user: Option<i64>,
        since: Option<u64>,
        reply: oneshot::Sender<Watch>,
    },
    Gone {
        user: i64,
    },
    Snapshot {
        reply: oneshot::Sender<Snapshot>,
    },
    /// A player's connections on another node of the cluster (`count` now, refreshed).
    Presence {
        node: String,
        user: i64,
        count: u32,
    },
    /// Stop now (the node lost the game's lease, or hands it over).
    Stop,
    /// Panic: the supervision's tests only (feature `test-hooks`).
    #[cfg(feature = "test-hooks")]
    Crash,
}

/// A handle to a game's actor: in this process, or (cluster) on the node that owns the game.
#[derive(Clone)]
pub struct GameHandle {
    /// The game's id.
    pub id: i64,
    /// Board size, to read the points clients send.
    pub size: u8,
    to: To,
}

#[derive(Clone)]
enum To {
    Local(mpsc::Sender<Cmd>),
    Remote(Arc<super::remote::RemoteGame>),
}

impl GameHandle {
    /// `user` acts; the reply comes after the events are stored. Returns the last event's seq.
    /// `rtt_ms` is the acting connection's measured round trip (0 for in-process bots): a mover
    /// is credited for it within the lag quota.
    pub async fn act(
        &self,
        user: i64,
        username: &str,
        action: Action,
        rtt_ms: u64,
    ) -> Result<u64, ActError> {
        let tx = match &self.to {
            To::Local(tx) => tx,
            To::Remote(r) => {
                let parts = ActParts {
                    user,
                    username: username.to_string(),
                    action,
                    rtt_ms,
                };
                return r.act(parts).await;
            }
        };
        let (reply, rx) = oneshot::channel();
        let cmd = Cmd::Act {
            user,
            username: username.to_string(),
            action,
            rtt_ms,
            reply,
        };
        tx.send(cmd).await.map_err(|_| ActError::Gone)?;
        rx.await.map_err(|_| ActError::Gone)?
    }

    /// A handle to the game on another node.
    pub fn remote(id: i64, size: u8, remote: Arc<super::remote::RemoteGame>) -> GameHandle {
        GameHandle {
            id,
            size,
            to: To::Remote(remote),
        }
    }

    /// Whether this handle can no longer reach its game (the actor stopped, or the game moved).
    pub fn is_closed(&self) -> bool {
        match &self.to {
            To::Local(tx) => tx.is_closed(),
            To::Remote(r) => r.is_closed(),
        }
    }

    /// A handle to another node's game of which this is the only copy (the registry's): no
    /// connection here uses it, so the registry may drop it (it is made again when asked for).
    pub fn is_unused_remote(&self) -> bool {
        matches!(&self.to, To::Remote(r) if Arc::strong_count(r) <= 1)
    }

    /// Whether the game runs in this process.
    pub fn is_local(&self) -> bool {
        matches!(self.to, To::Local(_))
    }

    /// Another node's connections of `user` to this game (cluster; `count` now).
    pub async fn presence(&self, node: &str, user: i64, count: u32) {
        if let To::Local(tx) = &self.to {
            let _ = tx
                .send(Cmd::Presence {
                    node: node.to_string(),
                    user,
                    count,
                })
                .await;
        }
    }

    /// Stops a local actor (the node lost the game, or gives it up).
    pub async fn stop(&self) {
        if let To::Local(tx) = &self.to {
            let _ = tx.send(Cmd::Stop).await;
        }
    }

    /// Makes the actor panic, and waits until it has ended (tests of the supervision only).
    #[cfg(feature = "test-hooks")]
    pub async fn crash(&self) {
        if let To::Local(tx) = &self.to {
            let _ = tx.send(Cmd::Crash).await;
            tx.closed().await;
        }
    }

    /// Starts watching: a snapshot when `since` is `None`, else the events after `since`.
    /// A player who watches counts as present.
    pub async fn watch(&self, user: Option<i64>, since: Option<u64>) -> Option<Watch> {
        let tx = match &self.to {
            To::Local(tx) => tx,
            To::Remote(r) => return r.watch(user, since).await,
        };
        let (reply, rx) = oneshot::channel();
        tx.send(Cmd::Watch { user, since, reply }).await.ok()?;
        rx.await.ok()
    }

    /// One of `user`'s connections to this game closed.
    pub async fn gone(&self, user: i64) {
        match &self.to {
            To::Local(tx) => {
                let _ = tx.send(Cmd::Gone { user }).await;
            }
            To::Remote(r) => r.gone(user).await,
        }
    }

    /// The current state.
    pub async fn snapshot(&self) -> Option<Snapshot> {
        let tx = match &self.to {
            To::Local(tx) => tx,
            To::Remote(r) => return r.snapshot().await,
        };
        let (reply, rx) = oneshot::channel();
        tx.send(Cmd::Snapshot { reply }).await.ok()?;
        rx.await.ok()
    }
}

/// A cluster node's ownership of a game: its lease (every write is fenced by it) and the bus
/// its events are published on.
#[derive(Clone)]
pub struct Owner {
    /// The lease.
    pub lease: tengen_store::lease::Lease,
    /// NATS.
    pub bus: async_nats::Client,
}

/// How long another node's report of a player's connections holds without being refreshed.
pub const PRESENCE_TTL: Duration = Duration::from_secs(15);

/// How long a finished game's actor stays after its last command while no one watches it (for
/// the players' last words and a last look). Then it ends, giving back its memory and, in a
/// cluster, its lease: a server that has run for months holds its live games, not every game
/// it ever ran. A finished game asked for later is served from its log by a new actor.
pub const RETIRE_AFTER: Duration = Duration::from_secs(120);

struct GameActor {
    id: i64,
    store: Store,
    live: LiveGame,
    players: [Player; 2],
    log: Vec<Arc<Record>>,
    events: broadcast::Sender<Arc<Record>>,
    /// Open connections per player.
    present: [u32; 2],
    /// When a disconnected player loses.
    deadline: [Option<Instant>; 2],
    /// When each player's last connection closed, while they are away (never arriving is not
    /// a departure): told once they have been away [`TELL_AWAY_AFTER`].
    left_at: [Option<Instant>; 2],
    /// Whether each player has been here (watched or acted) since the actor started.
    arrived: [bool; 2],
    /// The deadline last told in a `disconnected` event, ms since the epoch, until the player
    /// is told back.
    told_away: [Option<i64>; 2],
    grace: Duration,
    /// When the player to move started thinking; `None` when no clock runs (untimed game,
    /// dead-stone phase, game over).
    turn_start: Option<Instant>,
    /// Each player's lag bank, ms (see `lag`).
    lag_bank: [u64; 2],
    /// Cluster: this node's lease of the game and the bus.
    owner: Option<Owner>,
    /// Cluster: players' connections on other nodes, by (node, user): count and when reported.
    remote_present: HashMap<(String, i64), (u32, Instant)>,
    /// Set when the game moved away: the actor ends.
    stopped: bool,
    /// When the actor last had a command (a finished game's actor retires some time after).
    last_command: Instant,
    /// While writes fail: no timer wakes the actor before this (commands still come), so that
    /// a full disk is not tried, and told, in a tight loop.
    retry_at: Option<Instant>,
    /// The pause before the next try, doubled at each failure up to [`STORE_RETRY_MAX`].
    retry_pause: Duration,
    /// Proposes the dead stones when the players ask to count.
    counter: Counter,
}

/// The first pause after a failed write, and the longest.
const STORE_RETRY_MIN: Duration = Duration::from_secs(1);
const STORE_RETRY_MAX: Duration = Duration::from_secs(30);

/// Lag compensation: a mover is credited with the measured round trip of the connection the
/// move came on (the server starts the clock when it sends the previous move; the mover loses
/// one trip hearing of it and another sending the reply), at most `PER_MOVE` per move, drawn
/// from a bank that starts at `BANK`, refills by `REFILL` per move and never exceeds `BANK`.
/// A steady 300 ms link (600 ms round trip) is covered for the whole game; a client that fakes
/// lag gains at most 2 s per move and 10 s in all before it refills.
pub mod lag {
    /// Most credit for one move, ms.
    pub const PER_MOVE: u64 = 2_000;
    /// The bank's size and starting value, ms.
    pub const BANK: u64 = 10_000;
    /// Refill per move, ms.
    pub const REFILL: u64 = 1_000;
}

/// How long the player of an untimed game against a bot may be away before the game ends: as
/// abandoned (`Void`, annulled) when casual, lost by forfeit when rated. It then leaves the
/// live games.
pub const ABANDONED_AFTER: Duration = Duration::from_secs(15 * 60);

/// How long a player is away before the opponent is told (`disconnected`): a client watching
/// again, or a page reloaded, is back within it.
pub const TELL_AWAY_AFTER: Duration = Duration::from_secs(2);

/// The least time a player has to connect to a game whose actor has just started (a new game,
/// or one restored after a restart), whatever the grace period.
pub const CONNECT_GRACE: Duration = Duration::from_secs(30);

/// Starts the actor for a game, with the events already in its log (after a restart).
pub fn spawn(
    id: i64,
    store: Store,
    live: LiveGame,
    players: [Player; 2],
    log: Vec<Record>,
    grace: Duration,
) -> GameHandle {
    spawn_owned(id, store, live, players, log, grace, None)
}

/// [`spawn`], for a cluster node that holds the game's lease (`owner`).
pub fn spawn_owned(
    id: i64,
    store: Store,
    live: LiveGame,
    players: [Player; 2],
    log: Vec<Record>,
    grace: Duration,
    owner: Option<Owner>,
) -> GameHandle {
    spawn_supervised(
        id,
        store,
        live,
        players,
        log,
        grace,
        owner,
        None,
        no_counter(),
    )
}

/// What to do when a game's actor panics: the registry takes the game up again from its log.
pub type OnCrash = Box<dyn FnOnce() + Send>;

/// Proposes the dead stones when the players ask to count: the engine's judgement, given by
/// whoever builds the registry (the server, through its engines), so that this crate needs no
/// engine. It may block for a second or so (the count's searches).
pub type Counter = Arc<dyn Fn(&Game) -> Proposal + Send + Sync>;

/// A counter that proposes nothing: every stone is left to the players.
pub fn no_counter() -> Counter {
    Arc::new(|_: &Game| Proposal::default())
}

/// [`spawn_owned`], calling `on_crash` if the actor panics. A panic ends only this game's
/// actor (its state in memory is not trusted after it; the log is); it is logged and counted,
/// and its handles close, so that the next request, or `on_crash` at once, loads it again.
#[allow(clippy::too_many_arguments)]
pub fn spawn_supervised(
    id: i64,
    store: Store,
    live: LiveGame,
    players: [Player; 2],
    log: Vec<Record>,
    grace: Duration,
    owner: Option<Owner>,
    on_crash: Option<OnCrash>,
    counter: Counter,
) -> GameHandle {
    let (tx, rx) = mpsc::channel(256);
    let (events, _) = broadcast::channel(1024);
    let size = live.game.size();
    let mut actor = GameActor {
        id,
        store,
        live,
        players,
        log: log.into_iter().map(Arc::new).collect(),
        events,
        present: [0; 2],
        deadline: [None; 2],
        left_at: [None; 2],
        arrived: [false; 2],
        told_away: [None; 2],
        grace,
        turn_start: None,
        lag_bank: [lag::BANK; 2],
        owner,
        remote_present: HashMap::new(),
        stopped: false,
        last_command: Instant::now(),
        retry_at: None,
        retry_pause: Duration::ZERO,
        counter,
    };
    // After a restart the mover's clock starts again where it stood at the last event: the
    // time the server was down is the server's fault, not the player's. A correspondence clock
    // runs on the calendar instead: it is charged the time since the last event.
    actor.restart_turn(Duration::ZERO);
    actor.charge_calendar_time(now_ms());
    // Every game ends: a player not connected when the actor starts (a game restored after a
    // restart, or one joined over HTTP whose players never open a socket) is absent from the
    // start, and the grace rule runs at once; at least `CONNECT_GRACE`, to come (back) in.
    if actor.live.game.phase() != Phase::Finished {
        for c in Color::ALL {
            if let (false, Some(away)) = (actor.players[c.index()].bot, actor.allowed_absence(c)) {
                actor.deadline[c.index()] = after(Instant::now(), away.max(CONNECT_GRACE));
                // Told like a departure once it lasts: a player who comes at once is no news,
                // one who does not is shown away to the other, and their arrival is told.
                actor.left_at[c.index()] = Some(Instant::now());
            }
        }
    }
    crate::metrics::ACTORS.inc();
    tokio::spawn(async move {
        let ran = std::panic::AssertUnwindSafe(actor.run(rx))
            .catch_unwind()
            .await;
        crate::metrics::ACTORS.dec();
        if let Err(payload) = ran {
            let what = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(game = id, panic = %what, "the game's actor panicked; taken up again from its log");
            crate::metrics::ACTOR_PANICS.inc();
            if let Some(f) = on_crash {
                f();
            }
        }
    });
    GameHandle {
        id,
        size,
        to: To::Local(tx),
    }
}

impl GameActor {
    /// The actor's life: one wake-up at a time (a timer or a command), until it is told to
    /// stop, the game moves to another node, the finished game retires or every handle is gone.
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>) {
        self.announce().await;
        loop {
            let next = self.next_wake();
            let cmd = match next {
                // Biased, deadline first: an action that arrives after a player's time is up
                // must not be accepted before the loss is.
                Some(at) => tokio::select! {
                    biased;
                    _ = tokio::time::sleep_until(at) => {
                        if self.on_wake().await.is_break() {
                            return;
                        }
                        self.tell_presence().await;
                        continue;
                    }
                    c = rx.recv() => c,
                },
                None => rx.recv().await,
            };
            let Some(cmd) = cmd else { return };
            self.last_command = Instant::now();
            if self.on_command(cmd).await.is_break() {
                return;
            }
            self.tell_presence().await;
        }
    }

    /// Tells the watchers of a departure (with its deadline) or a return since they last
    /// heard: a `disconnected` or `reconnected` event, stored like any other. A departure is
    /// told once the player has been away [`TELL_AWAY_AFTER`]: a client that watches again,
    /// or a quick reload, is no news. A game over tells nothing more.
    async fn tell_presence(&mut self) {
        if self.live.game.phase() == Phase::Finished || self.stopped {
            return;
        }
        let now = Instant::now();
        for c in Color::ALL {
            let i = c.index();
            if self.deadline[i].is_none() {
                self.left_at[i] = None;
            }
            let until = match (self.deadline[i], self.left_at[i]) {
                (Some(d), Some(t)) if t + TELL_AWAY_AFTER <= now => {
                    Some(now_ms() + d.saturating_duration_since(now).as_millis() as i64)
                }
                _ => None,
            };
            let event = match (until, self.told_away[i]) {
                (Some(until), None) => Event::Disconnected {
                    color: c.into(),
                    until,
                },
                (None, Some(_)) if self.deadline[i].is_none() => {
                    Event::Reconnected { color: c.into() }
                }
                _ => continue,
            };
            // A failed store leaves it untold; the next change tries again.
            if self.commit_with(vec![event], None).await.is_ok() {
                self.told_away[i] = until;
            }
        }
    }

    /// The earliest of the actor's timers: an absent player's deadline, the flag of the player
    /// to move, another node's report of connections running out, the end of a vacation, a
    /// finished game's retirement.
    fn next_wake(&self) -> Option<Instant> {
        self.deadline
            .iter()
            .flatten()
            .copied()
            .chain(self.flag_at())
            .chain(self.presence_expiry())
            .chain(self.vacation_end())
            .chain(self.retire_at())
            .chain(self.tell_away_at())
            .min()
            .map(|at| self.retry_at.map_or(at, |r| at.max(r)))
    }

    /// When a departure not yet told is due to be told. Never once the game is over: a game
    /// over tells nothing more, and a time already past would wake the actor again and again.
    fn tell_away_at(&self) -> Option<Instant> {
        if self.live.game.phase() == Phase::Finished || self.stopped {
            return None;
        }
        Color::ALL
            .iter()
            .filter(|c| self.deadline[c.index()].is_some() && self.told_away[c.index()].is_none())
            .filter_map(|c| self.left_at[c.index()])
            .map(|t| t + TELL_AWAY_AFTER)
            .min()
    }

    /// A timer is due. Stale reports of other nodes' connections go and a vacation that ended
    /// starts the clock before the deadlines are judged, since either may change them; then a
    /// finished game may retire. `Break` ends the actor.
    async fn on_wake(&mut self) -> ControlFlow<()> {
        self.expire_presence();
        self.resume_after_vacation();
        self.on_deadline().await;
        if self.stopped {
            return ControlFlow::Break(());
        }
        self.retire_if_due().await
    }

    /// Retires a finished game's actor whose time has come, unless someone still watches it.
    async fn retire_if_due(&mut self) -> ControlFlow<()> {
        if self.retire_at().is_some_and(|at| at <= Instant::now()) {
            if self.events.receiver_count() == 0 {
                self.retire().await;
                return ControlFlow::Break(());
            }
            // Someone still looks at the board: look again later.
            self.last_command = Instant::now();
        }
        ControlFlow::Continue(())
    }

    /// One command from a handle. `Break` ends the actor: it was told to stop, or an action
    /// found the game moved to another node.
    async fn on_command(&mut self, cmd: Cmd) -> ControlFlow<()> {
        match cmd {
            Cmd::Act {
                user,
                username,
                action,
                rtt_ms,
                reply,
            } => return self.on_act(user, &username, action, rtt_ms, reply).await,
            Cmd::Watch { user, since, reply } => self.on_watch(user, since, reply),
            Cmd::Gone { user } => self.on_gone(user).await,
            Cmd::Presence { node, user, count } => self.on_presence(node, user, count),
            Cmd::Stop => return ControlFlow::Break(()),
            #[cfg(feature = "test-hooks")]
            Cmd::Crash => panic!("asked to crash (test hook)"),
            Cmd::Snapshot { reply } => {
                let _ = reply.send(self.snapshot());
            }
        }
        ControlFlow::Continue(())
    }

    /// An action, answered once it is stored (or refused). `Break` when the game moved.
    async fn on_act(
        &mut self,
        user: i64,
        username: &str,
        action: Action,
        rtt_ms: u64,
        reply: oneshot::Sender<Result<u64, ActError>>,
    ) -> ControlFlow<()> {
        let r = self.act(user, username, action, rtt_ms).await;
        // A player who acts is there, socket or not (a bot's driver, a client
        // acting through the server's API).
        if let (Ok(_), Some(c)) = (&r, self.color_of(Some(user))) {
            self.arrived[c.index()] = true;
            if self.present_total(c) == 0 {
                self.deadline[c.index()] = None;
            }
        }
        let _ = reply.send(r);
        if self.stopped {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// A connection starts watching: a player's counts as present. It gets the snapshot, or
    /// what it missed since `since`, and the live events from here on.
    fn on_watch(&mut self, user: Option<i64>, since: Option<u64>, reply: oneshot::Sender<Watch>) {
        if let Some(c) = self.color_of(user) {
            self.present[c.index()] += 1;
            self.deadline[c.index()] = None;
            self.arrived[c.index()] = true;
        }
        let live = self.events.subscribe();
        let (snapshot, missed) = match since {
            None => (Some(self.snapshot()), Vec::new()),
            Some(s) => (
                None,
                self.log.iter().filter(|r| r.seq > s).cloned().collect(),
            ),
        };
        let _ = reply.send(Watch {
            snapshot,
            missed,
            live,
            seq: self.log.len() as u64,
        });
    }

    /// One of `user`'s connections here closed: a player with none left anywhere starts the
    /// grace period (a grace of zero loses at once).
    async fn on_gone(&mut self, user: i64) {
        if let Some(c) = self.color_of(Some(user)) {
            let allowed = self.allowed_absence(c);
            let n = &mut self.present[c.index()];
            *n = n.saturating_sub(1);
            let away = self.present_total(c) == 0 && self.live.game.phase() != Phase::Finished;
            if let (true, Some(allowed)) = (away, allowed) {
                self.deadline[c.index()] = after(Instant::now(), allowed);
                self.left_at[c.index()] = Some(Instant::now());
                if allowed.is_zero() {
                    self.on_deadline().await;
                }
            }
        }
    }

    /// Another node reports `user`'s connections there (`count` now; none drops the report).
    fn on_presence(&mut self, node: String, user: i64, count: u32) {
        if let Some(c) = self.color_of(Some(user)) {
            let before = self.present_total(c);
            if count == 0 {
                self.remote_present.remove(&(node, user));
            } else {
                self.remote_present
                    .insert((node, user), (count, Instant::now()));
            }
            self.presence_changed(c, before);
        }
    }

    /// A cluster owner that starts the game (a takeover) publishes its last stored event again.
    /// An owner that died between storing an event and publishing it left the other nodes'
    /// relays without it, and with no later event (the last move of a game, or a game whose
    /// players wait) nothing would ever show them the gap: their watchers would look at a
    /// frozen board. Hearing this, a relay that missed the event fills it from the database;
    /// one that had it skips it.
    async fn announce(&self) {
        let (Some(o), Some(last)) = (&self.owner, self.log.last()) else {
            return;
        };
        self.publish(o, last).await;
    }

    /// Publishes `record` on the game's subject, for the watchers on other nodes.
    async fn publish(&self, o: &Owner, record: &Record) {
        let subject = crate::subjects::events_subject(self.id);
        let bytes = record.wire.bytes().clone();
        let headers = crate::remote::protocol_headers(crate::remote::V1);
        if let Err(e) = o.bus.publish_with_headers(subject, headers, bytes).await {
            tracing::warn!(game = self.id, error = %e, "could not publish an event");
        }
    }

    /// Connections of the player of colour `c`: on this node and, fresh, on others.
    fn present_total(&self, c: Color) -> u32 {
        let user = self.players[c.index()].id;
        let remote: u32 = self
            .remote_present
            .iter()
            .filter(|((_, u), _)| *u == user)
            .map(|(_, (n, _))| *n)
            .sum();
        self.present[c.index()] + remote
    }

    /// After the connections of `c` changed from `before`: there now, no deadline; gone now,
    /// the grace period starts.
    fn presence_changed(&mut self, c: Color, before: u32) {
        let now_total = self.present_total(c);
        if now_total > 0 {
            self.deadline[c.index()] = None;
        } else if before > 0
            && self.live.game.phase() != Phase::Finished
            && self.deadline[c.index()].is_none()
        {
            let Some(allowed) = self.allowed_absence(c) else {
                return;
            };
            self.deadline[c.index()] = after(Instant::now(), allowed);
            self.left_at[c.index()] = Some(Instant::now());
        }
    }

    /// When a finished game's actor retires, unless someone watches then.
    fn retire_at(&self) -> Option<Instant> {
        (self.live.game.phase() == Phase::Finished).then_some(self.last_command + RETIRE_AFTER)
    }

    /// Ends a finished game's actor: in a cluster its lease is given up, so that the node no
    /// longer counts the game among its own.
    async fn retire(&mut self) {
        if let Some(o) = &self.owner {
            if let Err(e) = self.store.release(&o.lease).await {
                tracing::warn!(game = self.id, error = %e, "could not give up a finished game's lease");
            }
        }
        tracing::debug!(game = self.id, "finished game retired");
    }

    /// When the oldest report of another node's connections runs out.
    fn presence_expiry(&self) -> Option<Instant> {
        self.remote_present
            .values()
            .map(|(_, at)| *at + PRESENCE_TTL)
            .min()
    }

    /// Drops the reports of other nodes not refreshed in time (a node that died).
    fn expire_presence(&mut self) {
        let now = Instant::now();
        for c in Color::ALL {
            let before = self.present_total(c);
            let user = self.players[c.index()].id;
            self.remote_present
                .retain(|(_, u), (_, at)| *u != user || *at + PRESENCE_TTL > now);
            self.presence_changed(c, before);
        }
    }

    /// How long `c` may be away before the game ends: `None`, however long, in a
    /// correspondence game (its clock decides); [`ABANDONED_AFTER`] in an untimed game against a
    /// bot (unrated, keeping nobody waiting: the player may step away, but an abandoned game
    /// ends, annulled); the grace period in every other game.
    fn allowed_absence(&self, c: Color) -> Option<Duration> {
        let time = &self.live.terms.time;
        if time.is_correspondence() {
            None
        } else if self.untimed_against_bot(c) {
            Some(ABANDONED_AFTER)
        } else {
            Some(self.grace)
        }
    }

    /// Whether `c` plays an untimed game against a bot.
    fn untimed_against_bot(&self, c: Color) -> bool {
        self.players[c.opponent().index()].bot && self.live.terms.time.is_untimed()
    }

    fn color_of(&self, user: Option<i64>) -> Option<Color> {
        let user = user?;
        if user == self.players[0].id {
            Some(Color::Black)
        } else if user == self.players[1].id {
            Some(Color::White)
        } else {
            None
        }
    }

    fn snapshot(&self) -> Snapshot {
        let mut v = view::snapshot(self.id, &self.live, &self.players, self.log.len() as u64);
        v.clocks = self.clock_view();
        v.presence = Some(self.presence_view());
        v
    }

    /// Each player's connection to the game: `connected`, and, while they are away, `until`
    /// (ms since the epoch: when the grace period ends) and whether they ever `arrived`.
    fn presence_view(&self) -> Sides<PresenceView> {
        let one = |c: Color| {
            let i = c.index();
            // The deadline as told, so that the event and the snapshot say the same: an
            // absence not yet told (a reload, a player on their way) shows no countdown.
            let until = self.deadline[i].and(self.told_away[i]);
            PresenceView {
                connected: self.players[i].bot || self.present_total(c) > 0,
                until,
                arrived: self.arrived[i] || self.present_total(c) > 0 || self.players[i].bot,
            }
        };
        Sides {
            black: one(Color::Black),
            white: one(Color::White),
        }
    }

    /// Both clocks now, which one runs, and the server's time, for clients' ticking displays
    /// (none for an untimed game).
    fn clock_view(&self) -> Option<ClocksView> {
        if self.live.terms.time.is_untimed() {
            return None;
        }
        let c = self.clocks_now();
        let running = self.turn_start.map(|_| self.live.game.to_move().into());
        let now = now_ms();
        // Vacations still running (correspondence), ms since the epoch.
        let away = |c: Color| {
            let until = self.live.vacation[c.index()];
            (until > now).then_some(until)
        };
        Some(ClocksView {
            black: c[0],
            white: c[1],
            running,
            server_ms: now,
            correspondence: self.live.terms.time.is_correspondence(),
            vacation: Sides {
                black: away(Color::Black),
                white: away(Color::White),
            },
        })
    }

    async fn on_deadline(&mut self) {
        let now = Instant::now();
        if self.flag_at().is_some_and(|at| at <= now) {
            let c = self.live.game.to_move();
            let e = Event::Finished {
                result: GameResult::Time(c.opponent()).to_string(),
                reason: "time".into(),
            };
            let mut clocks = self.live.clocks;
            clocks[c.index()] = zeroed(clocks[c.index()]);
            if self.commit_with(vec![e], Some(clocks)).await.is_err() {
                // Stored nothing: try again in a second rather than spinning.
                self.turn_start = self.turn_start.map(|t| t + Duration::from_secs(1));
            }
            return;
        }
        for c in Color::ALL {
            if self.deadline[c.index()].is_some_and(|d| d <= now) {
                self.deadline[c.index()] = None;
                if self.live.game.phase() != Phase::Finished {
                    // An abandoned casual game that waited for its player ends with no
                    // result; any other (a rated bot game included: leaving it must not save
                    // a lost rating) is lost by the one who did not come back.
                    let e = if self.untimed_against_bot(c) && !self.is_rated() {
                        Event::Finished {
                            result: GameResult::NoResult.to_string(),
                            reason: "abandoned".into(),
                        }
                    } else {
                        Event::Finished {
                            result: GameResult::Forfeit(c.opponent()).to_string(),
                            reason: "disconnected".into(),
                        }
                    };
                    // If storing fails the player is not declared lost; the next disconnect
                    // check tries again.
                    if self.commit_with(vec![e], None).await.is_err() {
                        self.deadline[c.index()] = Some(now + Duration::from_secs(1));
                    }
                }
            }
        }
    }

    /// `user` (`username`) acts: the rules decide the action's events, a move stops the
    /// mover's clock, and the events are committed. Returns the last event's seq.
    async fn act(
        &mut self,
        user: i64,
        username: &str,
        action: Action,
        rtt_ms: u64,
    ) -> Result<u64, ActError> {
        let arrived = std::time::Instant::now();
        let who = match self.color_of(Some(user)) {
            Some(c) => Actor::Player(c),
            None => Actor::Other(username.to_string()),
        };
        let counter = self.counter.clone();
        let events = self
            .live
            .decide(&who, &action, &mut |g: &Game| counter(g))
            .map_err(ActError::Refused)?;
        let events = chat_by_name(events, username);
        // A move or pass by the player to move stops their clock.
        let mover = self.live.game.to_move();
        let moves = matches!(action, Action::Move(_) | Action::Pass) && who == Actor::Player(mover);
        let mut clocks = None;
        let mut credit = 0;
        if moves {
            (clocks, credit) = self.stop_clock_for_move(mover, rtt_ms).await?;
        }
        // A vacation of the player to move stops their clock: what they used so far is
        // stored with the event, and the clock starts again when the vacation ends.
        let vacation_of_mover =
            matches!(action, Action::Vacation { .. }) && who == Actor::Player(mover);
        if vacation_of_mover {
            clocks = self.stop_clock_for_vacation(mover).await?;
        }
        let seq = self.commit_with(events, clocks).await?;
        if vacation_of_mover {
            self.restart_turn(Duration::ZERO);
        }
        if moves {
            self.settle_lag(mover, credit);
            crate::metrics::MOVES.inc();
            crate::metrics::MOVE_TO_BROADCAST.observe_duration(arrived.elapsed());
        }
        Ok(seq)
    }

    /// Stops the clock of `mover`, who moved or passed: they are charged the time since their
    /// turn started, less the lag credit for the connection's round trip `rtt_ms`. Returns both
    /// clocks after the move (`None` when no clock runs) and the credit given.
    async fn stop_clock_for_move(
        &mut self,
        mover: Color,
        rtt_ms: u64,
    ) -> Result<(Option<[Clock; 2]>, u64), ActError> {
        let Some(start) = self.turn_start else {
            return Ok((None, 0));
        };
        let raw = Instant::now().saturating_duration_since(start).as_millis() as u64;
        let credit = rtt_ms
            .min(lag::PER_MOVE)
            .min(self.lag_bank[mover.index()])
            .min(raw);
        let t = self.live.terms.time;
        let clock = self.live.clocks[mover.index()];
        match t.spend(&clock, raw - credit) {
            Ok(spent) => {
                let mut c = self.live.clocks;
                c[mover.index()] = t.moved(&spent);
                Ok((Some(c), credit))
            }
            // Too late: the flag fell before the move arrived.
            Err(_) => Err(self.flag_fell().await),
        }
    }

    /// Stops the clock of `mover`, who goes on vacation, charging the time used so far.
    /// Returns both clocks (`None` when no clock runs).
    async fn stop_clock_for_vacation(
        &mut self,
        mover: Color,
    ) -> Result<Option<[Clock; 2]>, ActError> {
        let Some(start) = self.turn_start else {
            return Ok(None);
        };
        let raw = Instant::now().saturating_duration_since(start).as_millis() as u64;
        let t = self.live.terms.time;
        match t.spend(&self.live.clocks[mover.index()], raw) {
            Ok(spent) => {
                let mut c = self.live.clocks;
                c[mover.index()] = spent;
                Ok(Some(c))
            }
            Err(_) => Err(self.flag_fell().await),
        }
    }

    /// The flag of the player to move fell before their action arrived: the loss is recorded,
    /// and the action is refused as one after the end of the game.
    async fn flag_fell(&mut self) -> ActError {
        self.on_flag_now().await;
        ActError::Refused(ActionError::Rules(tengen_rules::GameError::GameOver))
    }

    /// After `mover`'s move: the lag `credit` they were given comes out of their bank, and the
    /// bank refills by `REFILL`, up to `BANK`.
    fn settle_lag(&mut self, mover: Color, credit: u64) {
        let bank = &mut self.lag_bank[mover.index()];
        // No underflow: the credit was at most the bank, which nothing spent since. With no
        // credit this is the plain refill.
        *bank = (*bank - credit + lag::REFILL).min(lag::BANK);
    }

    async fn on_flag_now(&mut self) {
        // Make the flag due now and let the deadline handler record the loss.
        if let (Some(_), Some(left)) = (self.turn_start, self.time_left()) {
            // `left` is at most the time already spent (the flag fell), so this is in the past
            // the process has seen; a clock that says otherwise leaves the turn as it is.
            let back = Duration::from_millis(left.saturating_add(lag::PER_MOVE));
            if let Some(start) = Instant::now().checked_sub(back) {
                self.turn_start = Some(start);
            }
        }
        self.on_deadline().await;
    }

    /// Time left to the player to move before the flag, ms, without lag credit.
    fn time_left(&self) -> Option<u64> {
        let c = self.live.game.to_move();
        self.live
            .terms
            .time
            .until_flag(&self.live.clocks[c.index()])
    }

    /// When the flag of the player to move falls, lag credit included.
    fn flag_at(&self) -> Option<Instant> {
        let start = self.turn_start?;
        let left = self.time_left()?;
        let c = self.live.game.to_move();
        let credit = lag::PER_MOVE.min(self.lag_bank[c.index()]);
        after(start, Duration::from_millis(left.saturating_add(credit)))
    }

    /// Starts the clock of the player to move, as if `already` had run.
    fn restart_turn(&mut self, already: Duration) {
        let timed = !self.live.terms.time.is_untimed();
        let mover = self.live.game.to_move();
        let away = self.live.vacation[mover.index()] > now_ms();
        self.turn_start = (timed && !away && self.live.game.phase() == Phase::Play).then(|| {
            Instant::now()
                .checked_sub(already)
                .unwrap_or_else(Instant::now)
        });
    }

    /// Correspondence, after a restart: charges the player to move with the calendar time
    /// since the last event (`now` ms since the epoch), less any of it spent on vacation. A
    /// flag that fell meanwhile falls now.
    fn charge_calendar_time(&mut self, now: i64) {
        let t = self.live.terms.time;
        let (Some(_), Some(last)) = (self.turn_start, self.log.last()) else {
            return;
        };
        if !t.is_correspondence() {
            return;
        }
        let mover = self.live.game.to_move().index();
        let from = last.at_ms.max(self.live.vacation[mover]);
        let charge = (now - from).max(0) as u64;
        self.live.clocks[mover] = t
            .spend(&self.live.clocks[mover], charge)
            .unwrap_or_else(|_| zeroed(self.live.clocks[mover]));
    }

    /// When the vacation of the player to move ends, if it stops their clock now.
    fn vacation_end(&self) -> Option<Instant> {
        if self.turn_start.is_some()
            || self.live.terms.time.is_untimed()
            || self.live.game.phase() != Phase::Play
        {
            return None;
        }
        let until = self.live.vacation[self.live.game.to_move().index()];
        let wait = Duration::from_millis(until.saturating_sub(now_ms()).max(0) as u64);
        (until > 0).then(|| after(Instant::now(), wait)).flatten()
    }

    /// Starts the clock of the player to move once their vacation is over.
    fn resume_after_vacation(&mut self) {
        let mover = self.live.game.to_move().index();
        if self.turn_start.is_none() && self.live.vacation[mover] > 0 {
            if self.live.vacation[mover] <= now_ms() {
                self.live.vacation[mover] = 0;
            }
            self.restart_turn(Duration::ZERO);
        }
    }

    /// Both clocks as of now: the mover's with the time it has been thinking taken off.
    pub fn clocks_now(&self) -> [Clock; 2] {
        let mut clocks = self.live.clocks;
        if let Some(start) = self.turn_start {
            let c = self.live.game.to_move();
            let elapsed = Instant::now().saturating_duration_since(start).as_millis() as u64;
            let t = self.live.terms.time;
            clocks[c.index()] = t
                .spend(&clocks[c.index()], elapsed)
                .unwrap_or_else(|_| zeroed(clocks[c.index()]));
        }
        clocks
    }

    /// Whether this game moves ratings.
    fn is_rated(&self) -> bool {
        let guest = [self.players[0].guest, self.players[1].guest];
        let bot = [self.players[0].bot, self.players[1].bot];
        tengen_core::rating::is_rated(&self.live.terms, guest, bot)
    }

    /// The rating update of this game ending with `result`, if it is rated.
    fn rated_game(&self, result: &str) -> Option<RatedGame> {
        if !self.is_rated() {
            return None;
        }
        Some(RatedGame {
            black_id: self.players[0].id,
            white_id: self.players[1].id,
            black_score: ratings::black_score(result)?,
            head_start: tengen_core::rating::head_start(&self.live.terms),
        })
    }

    /// Stores `events` (with the clocks after them, if they changed), then applies and
    /// broadcasts them.
    async fn commit_with(
        &mut self,
        events: Vec<Event>,
        clocks: Option<[Clock; 2]>,
    ) -> Result<u64, ActError> {
        let after = self.game_after(&events);
        // Events that end the game during a turn (a resignation, leaving, a forfeit, a ban)
        // stop the running clock where it stands: the last turn's time is spent, not given back.
        let ends = after.as_ref().is_some_and(|a| {
            a.game.phase() == Phase::Finished && self.live.game.phase() != Phase::Finished
        });
        let timed = !self.live.terms.time.is_untimed();
        // Clocks that changed (a move, a vacation, the end) are set, and start a turn; any
        // other event (a chat line, a presence notice) stores the clocks as they stood at the
        // turn's start and leaves the running turn alone: it must not forgive the mover's time.
        let changed = clocks.or((ends && timed).then(|| self.clocks_now()));
        let clocks = changed.or(timed.then_some(self.live.clocks));
        let at_ms = now_ms();
        let finish = self.finish(after.as_ref(), at_ms);
        let (records, append) = self.encode(events, clocks, at_ms, finish);
        // The database first: until the append succeeds nothing changes here and nobody hears
        // of the events (a failed one leaves the game as it was); then the game changes, and
        // only then do the watchers, here and on other nodes, hear of them.
        self.append(append).await?;
        self.apply(after, &records, changed);
        self.broadcast(records).await;
        Ok(self.log.len() as u64)
    }

    /// The game as it will be after `events`, to learn whether they end it; `None` when they
    /// cannot (a chat line, nearly every move).
    fn game_after(&self, events: &[Event]) -> Option<LiveGame> {
        // A move that cannot end the game (nearly every one) needs no copy: it is applied after
        // its commit.
        let quiet = match events {
            [Event::Move { point, .. }] => point
                .point(self.live.game.size())
                .is_some_and(|p| !self.live.game.play_may_end(tengen_rules::Move::Play(p))),
            [Event::Chat { .. }] => true,
            _ => false,
        };
        (!quiet).then(|| {
            let mut after = self.live.clone();
            for e in events {
                after.apply(e);
            }
            after
        })
    }

    /// What the append records when the events end the game (`after` is the game after them):
    /// the result, the players' promotion outcomes and the rating update; `None` otherwise.
    fn finish(&self, after: Option<&LiveGame>, at_ms: i64) -> Option<Finish> {
        let result = after
            .filter(|a| {
                self.live.game.phase() != Phase::Finished && a.game.phase() == Phase::Finished
            })
            .and_then(|a| a.game.result())?;
        // An annulled game (a no-show, too few moves) moves nobody's points or rating.
        let annulled = after.and_then(LiveGame::annulment);
        if let Some(why) = annulled {
            return Some(Finish {
                result: result.to_string(),
                outcomes: Vec::new(),
                at: at_ms / 1000,
                rated: None,
                annulled: Some(why.to_string()),
            });
        }
        Some(Finish {
            result: result.to_string(),
            outcomes: self.promotion_outcomes(result.winner()),
            at: at_ms / 1000,
            rated: self.rated_game(&result.to_string()),
            annulled: None,
        })
    }

    /// Each player's promotion outcome of a game won by `winner`; none for a draw.
    fn promotion_outcomes(&self, winner: Option<Color>) -> Vec<PromotionOutcome> {
        match winner {
            // Handicap games and games with a guest move no one's points (seed 002), nor do
            // unrated games (an unrated tournament's).
            Some(winner)
                if self.live.terms.game_type.counts_for_promotion()
                    && !self.live.terms.unrated
                    && !self.players.iter().any(|p| p.guest) =>
            {
                Color::ALL
                    .iter()
                    .map(|&c| PromotionOutcome {
                        user_id: self.players[c.index()].id,
                        won: c == winner,
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// The records of `events`, numbered on from the log, and the append that stores them
    /// (with `finish`, if they end the game). Each event is serialised once, for both.
    fn encode(
        &self,
        events: Vec<Event>,
        clocks: Option<[Clock; 2]>,
        at_ms: i64,
        finish: Option<Finish>,
    ) -> (Vec<Arc<Record>>, Append) {
        let json: Vec<String> = events
            .iter()
            .map(|e| serde_json::to_string(e).unwrap_or_default())
            .collect();
        let clocks_json = clocks.map(|c| serde_json::to_string(&c).unwrap_or_default());
        let first = self.log.len() as i64 + 1;
        let records: Vec<Arc<Record>> = events
            .into_iter()
            .zip(&json)
            .enumerate()
            .map(|(i, (event, e))| {
                let seq = (first + i as i64) as u64;
                Arc::new(Record::new(
                    self.id,
                    seq,
                    at_ms,
                    event,
                    clocks,
                    e,
                    clocks_json.as_deref(),
                ))
            })
            .collect();
        let append = Append {
            game_id: self.id,
            first_seq: first,
            events: json,
            clocks: clocks_json,
            at_ms,
            finish,
            fence: self.owner.as_ref().map(|o| o.lease.clone()),
        };
        (records, append)
    }

    /// Writes `append` to the database, fenced in a cluster by this node's lease. A fenced
    /// write means the game moved: the actor stops.
    async fn append(&mut self, append: Append) -> Result<(), ActError> {
        match self.store.append(append).await {
            Ok(()) => {
                self.retry_at = None;
                self.retry_pause = Duration::ZERO;
                self.store.health().succeeded();
                Ok(())
            }
            Err(tengen_store::StoreError::Fenced(_)) => {
                // Another node took the game over (this one was too slow to renew its lease):
                // stop, and let the clients find the new owner.
                tracing::warn!(game = self.id, "lease lost; the game moved to another node");
                self.stopped = true;
                Err(ActError::Moved)
            }
            Err(e) => {
                // Told by the store's health, a line an interval for all games together.
                self.store.health().failed("game events", &e);
                self.retry_pause = (self.retry_pause * 2).clamp(STORE_RETRY_MIN, STORE_RETRY_MAX);
                self.retry_at = Some(Instant::now() + self.retry_pause);
                Err(ActError::Storage)
            }
        }
    }

    /// Applies stored events to the game (`after`, when it was worked out to learn whether
    /// they end it; else `records`, one by one), sets the clocks, and restarts the mover's
    /// clock if the turn or the phase changed.
    fn apply(
        &mut self,
        after: Option<LiveGame>,
        records: &[Arc<Record>],
        clocks: Option<[Clock; 2]>,
    ) {
        let phase_before = self.live.game.phase();
        let mover_before = self.live.game.to_move();
        match after {
            Some(after) => self.live = after,
            None => {
                for record in records {
                    self.live.apply(&record.event);
                }
            }
        }
        if let Some(c) = clocks {
            self.live.clocks = c;
        }
        // A new turn (or the end of the dead-stone phase) starts the clock of the player to move;
        // the dead-stone phase and the end of the game stop it.
        if self.live.game.to_move() != mover_before
            || self.live.game.phase() != phase_before
            || clocks.is_some()
        {
            self.restart_turn(Duration::ZERO);
        }
    }

    /// Tells of stored records: other nodes' watchers over the bus, then the log and this
    /// node's watchers, record by record.
    async fn broadcast(&mut self, records: Vec<Arc<Record>>) {
        for record in records {
            if let Some(o) = &self.owner {
                // Watchers on other nodes hear of it through the bus (after the commit, as here).
                self.publish(o, &record).await;
            }
            if let Event::ChatHidden { seq } = record.event {
                self.redact(seq);
            }
            self.log.push(record.clone());
            // No watchers is fine.
            let _ = self.events.send(record);
        }
    }
}

impl GameActor {
    /// The chat line `seq` of the log, hidden by a moderator, keeps its author and loses its
    /// text, as the database's copy did before the hiding was acted: a watcher that asks for
    /// the log later never receives it.
    fn redact(&mut self, seq: u64) {
        let Some(i) = (seq as usize).checked_sub(1) else {
            return;
        };
        let Some(r) = self.log.get(i) else { return };
        let Event::Chat { user, .. } = &r.event else {
            return;
        };
        let event = Event::Chat {
            user: user.clone(),
            text: String::new(),
        };
        let json = serde_json::to_string(&event).unwrap_or_default();
        let clocks = r
            .clocks
            .map(|c| serde_json::to_string(&c).unwrap_or_default());
        let redacted = Record::new(
            self.id,
            seq,
            r.at_ms,
            event,
            r.clocks,
            &json,
            clocks.as_deref(),
        );
        self.log[i] = Arc::new(redacted);
    }
}

/// `events` with their chat lines signed by `username`.
fn chat_by_name(events: Vec<Event>, username: &str) -> Vec<Event> {
    // Chat lines name the user, not the colour.
    events
        .into_iter()
        .map(|e| match e {
            Event::Chat { text, .. } => Event::Chat {
                user: username.to_string(),
                text,
            },
            e => e,
        })
        .collect()
}

/// A clock with no time left (the flag fell).
fn zeroed(mut c: Clock) -> Clock {
    c.main_ms = 0;
    c.period_ms = 0;
    c.periods = c.periods.min(1);
    c
}

/// `at + wait`, or a time no game reaches (a century on) where that is past what an `Instant`
/// holds: a clock or a grace read from terms or settings can ask for any number of
/// milliseconds, and adding too many would panic the game's actor. `None` (no deadline, never
/// "now") where not even a day can be added.
fn after(at: Instant, wait: Duration) -> Option<Instant> {
    const CENTURY: Duration = Duration::from_secs(100 * 365 * 24 * 3600);
    at.checked_add(wait.min(CENTURY))
        .or_else(|| at.checked_add(Duration::from_secs(24 * 3600)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_past_what_an_instant_holds_is_far_off_never_now() {
        let now = Instant::now();
        assert_eq!(
            after(now, Duration::from_secs(5)),
            Some(now + Duration::from_secs(5))
        );
        let far = after(now, Duration::MAX).expect("a century fits in an Instant");
        assert!(far >= now + Duration::from_secs(99 * 365 * 24 * 3600));
    }
}
