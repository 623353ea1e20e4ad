//! The live games of this server: one actor per game, found by id, restored on start.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::{mpsc, Mutex};

use super::actor::{self, GameHandle, Owner, Record, Watch};
use super::remote::{Peers, RemoteGame};
use crate::error::LiveError;
use tengen_core::game::{LiveGame, Terms};
use tengen_core::player::Player;
use tengen_store::games::{GameRow, GameStatus};
use tengen_store::lease::Lease;
use tengen_store::Store;

/// The registry of live games.
#[derive(Clone)]
pub struct Games {
    store: Store,
    grace: Duration,
    live: Arc<Mutex<HashMap<i64, GameHandle>>>,
    /// Cluster mode: this node among the others. A live game runs here only while this node
    /// holds its lease; other nodes' games are reached through it.
    peers: Option<Arc<Peers>>,
    /// Told of every game this node takes over from the log (see [`Games::taken`]).
    taken: Arc<OnceLock<mpsc::UnboundedSender<GameHandle>>>,
    /// When this node last renewed its heartbeat (its leases count only while it is fresh).
    last_beat: Arc<std::sync::Mutex<Option<tokio::time::Instant>>>,
    /// The size of the map at which the handles of ended actors (finished games retired, see
    /// [`actor::RETIRE_AFTER`]) are next swept out: twice what was kept at the last sweep.
    sweep_at: Arc<std::sync::atomic::AtomicUsize>,
    /// How many times each game's actor panicked and was taken up again ([`REVIVALS`]).
    revived: Arc<std::sync::Mutex<HashMap<i64, u32>>>,
    /// Proposes the dead stones when a game's players ask to count.
    counter: actor::Counter,
}

/// The least size of the map at which it is swept.
const SWEEP_AT_LEAST: usize = 1024;

pub use tengen_store::lease::LEASE_TTL_MS;
/// How often a node renews its leases and looks for games whose owner died.
pub const RENEW_EVERY: Duration = Duration::from_secs(1);

/// How long a game whose owner died is without one, at most: its lease lapses
/// ([`LEASE_TTL_MS`]) and a node's next upkeep takes it over ([`RENEW_EVERY`]), with a second
/// more for the takeover itself. A watch waits this long for the new owner.
pub const FAILOVER: Duration =
    Duration::from_millis(LEASE_TTL_MS as u64 + 2 * RENEW_EVERY.as_millis() as u64);

/// The pause between two tries of a watch whose game is between owners.
const WATCH_RETRY: Duration = Duration::from_millis(250);

impl Games {
    /// An empty registry; `grace` is how long a disconnected player has to come back.
    pub fn new(store: Store, grace: Duration) -> Games {
        Games {
            store,
            grace,
            live: Arc::new(Mutex::new(HashMap::new())),
            peers: None,
            taken: Arc::new(OnceLock::new()),
            last_beat: Arc::default(),
            sweep_at: Arc::new(std::sync::atomic::AtomicUsize::new(SWEEP_AT_LEAST)),
            revived: Arc::default(),
            counter: actor::no_counter(),
        }
    }

    /// The registry with `counter` proposing the dead stones in its games (the server gives
    /// its engines' count; without one, every stone is left to the players).
    pub fn with_counter(self, counter: actor::Counter) -> Games {
        Games { counter, ..self }
    }

    /// The registry of a cluster node.
    pub fn clustered(store: Store, grace: Duration, peers: Arc<Peers>) -> Games {
        Games {
            peers: Some(peers),
            ..Games::new(store, grace)
        }
    }

    /// The games this node takes over from here on, in cluster mode: at start-up, from a node
    /// that died or handed its games over, or because no one owned a game asked for. What runs
    /// beside a game on its owner (a bot's driver) starts again from this on the new owner.
    /// One receiver per registry: a second call gets `None`.
    pub fn taken(&self) -> Option<mpsc::UnboundedReceiver<GameHandle>> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.taken.set(tx).ok().map(|()| rx)
    }

    /// This node among the others, in cluster mode.
    pub fn peers(&self) -> Option<&Arc<Peers>> {
        self.peers.as_ref()
    }

    /// Games held in the registry: their actors running here, or handles to other nodes'
    /// (for monitoring and tests).
    pub async fn held(&self) -> usize {
        self.live.lock().await.len()
    }

    /// Puts `h` in the map, first sweeping out ended actors' handles when the map has grown
    /// to twice its size at the last sweep (amortised: a sweep per as many inserts as it keeps).
    fn insert(&self, map: &mut HashMap<i64, GameHandle>, id: i64, h: GameHandle) {
        self.sweep_if_grown(map);
        map.insert(id, h);
    }

    fn sweep_if_grown(&self, map: &mut HashMap<i64, GameHandle>) {
        use std::sync::atomic::Ordering;
        if map.len() >= self.sweep_at.load(Ordering::Relaxed) {
            map.retain(|_, h| !h.is_closed());
            let next = (map.len() * 2).max(SWEEP_AT_LEAST);
            self.sweep_at.store(next, Ordering::Relaxed);
        }
    }

    /// The handle of a game whose actor runs in this process, if any (no loading, no lease).
    pub async fn local(&self, id: i64) -> Option<GameHandle> {
        self.live
            .lock()
            .await
            .get(&id)
            .filter(|h| !h.is_closed())
            .cloned()
    }

    /// The handle of a live game, starting its actor from the log if needed (a game that
    /// finished since is served from its log too).
    pub async fn get(&self, id: i64) -> Result<Option<GameHandle>, LiveError> {
        if let Some(h) = self.live.lock().await.get(&id) {
            if !h.is_closed() {
                return Ok(Some(h.clone()));
            }
        }
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        if let (Some(peers), GameStatus::Live) = (&self.peers, row.status) {
            return self.get_clustered(peers, &row).await.map(Some);
        }
        let handle = self.load(&row, None).await?;
        let mut map = self.live.lock().await;
        self.sweep_if_grown(&mut map);
        // Another request may have loaded it meanwhile: keep the first actor.
        let kept = map.entry(id).or_insert(handle.clone());
        if kept.is_closed() {
            *kept = handle;
        }
        Ok(Some(kept.clone()))
    }

    /// Starts watching game `id` through `handle` (see [`GameHandle::watch`]); in a cluster,
    /// through a failover too. A game whose owner just died cannot be watched until its lease
    /// lapses and a node takes it over, seconds later: the watch is tried again, the game looked
    /// up afresh each time (this node may take it over itself), for up to [`FAILOVER`]. Giving
    /// up after the owner's first silence left a watcher that came during a failover with an
    /// error and no stream, however soon the game was back. Returns the handle that answered;
    /// `None` when the game could not be watched (a lone server shutting down, or a cluster
    /// game still without an owner after [`FAILOVER`]).
    pub async fn watch(
        &self,
        id: i64,
        mut handle: GameHandle,
        user: Option<i64>,
        since: Option<u64>,
    ) -> Option<(GameHandle, Watch)> {
        let deadline = tokio::time::Instant::now() + FAILOVER;
        loop {
            if let Some(w) = handle.watch(user, since).await {
                return Some((handle, w));
            }
            if self.peers.is_none() || tokio::time::Instant::now() >= deadline {
                return None;
            }
            tracing::debug!(game = id, "the game is between owners; watching again");
            tokio::time::sleep(WATCH_RETRY).await;
            // Boxed: the lookup (which may load the game) would otherwise sit inside every
            // connection's future, and overflow a worker's stack in a debug build.
            if let Ok(Some(h)) = Box::pin(self.get(id)).await {
                handle = h;
            }
        }
    }

    /// A live game in a cluster: its owner's, or this node's if no one owns it.
    async fn get_clustered(
        &self,
        peers: &Arc<Peers>,
        row: &GameRow,
    ) -> Result<GameHandle, LiveError> {
        let size = row.terms.size;
        for _ in 0..3 {
            match self.store.owner(row.id).await? {
                Some(l) if l.node != peers.node => {
                    let remote = RemoteGame::new(row.id, size, Arc::clone(peers));
                    return Ok(GameHandle::remote(row.id, size, Arc::new(remote)));
                }
                _ => {
                    if let Some(h) = self.take(row).await? {
                        return Ok(h);
                    }
                }
            }
        }
        Err(LiveError::Internal(format!("game {} has no owner", row.id)))
    }

    /// Claims the lease of a live game and runs it here; `None` if another node got it first.
    async fn take(&self, row: &GameRow) -> Result<Option<GameHandle>, LiveError> {
        let Some(peers) = &self.peers else {
            return Ok(None);
        };
        let mut map = self.live.lock().await;
        if let Some(h) = map.get(&row.id).filter(|h| !h.is_closed()) {
            return Ok(Some(h.clone()));
        }
        let Some(lease) = self.claim(peers, row.id).await? else {
            return Ok(None);
        };
        tracing::info!(game = row.id, epoch = lease.epoch, "took the game");
        let owner = Owner {
            lease,
            bus: peers.bus.clone(),
        };
        let h = self.load(row, Some(owner)).await?;
        self.insert(&mut map, row.id, h.clone());
        if let Some(tx) = self.taken.get() {
            let _ = tx.send(h.clone());
        }
        Ok(Some(h))
    }

    /// Renews every lease this node holds (every [`RENEW_EVERY`], on a task of its own so that
    /// nothing slow elsewhere can let them lapse).
    pub async fn renew(&self) -> Result<(), LiveError> {
        if let Some(peers) = &self.peers {
            self.beat(peers).await?;
        }
        Ok(())
    }

    /// Renews this node's heartbeat.
    async fn beat(&self, peers: &Peers) -> Result<(), LiveError> {
        let at = tokio::time::Instant::now();
        self.store.renew(&peers.node, LEASE_TTL_MS).await?;
        *self.beats() = Some(at);
        Ok(())
    }

    /// Claims `game`'s lease for this node, its heartbeat renewed first unless it was this
    /// second (a claim with a lapsed heartbeat would be a lease nobody sees).
    async fn claim(&self, peers: &Peers, game: i64) -> Result<Option<Lease>, LiveError> {
        let fresh = self.beats().is_some_and(|t| t.elapsed() < RENEW_EVERY);
        if !fresh {
            self.beat(peers).await?;
        }
        Ok(self.store.claim(game, &peers.node).await?)
    }

    fn beats(&self) -> std::sync::MutexGuard<'_, Option<tokio::time::Instant>> {
        self.last_beat.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Cluster upkeep, every [`RENEW_EVERY`]: stops the games whose lease this node lost, and
    /// takes over the live games whose owner's lease lapsed.
    pub async fn upkeep(&self) -> Result<(), LiveError> {
        let Some(peers) = &self.peers else {
            return Ok(());
        };
        // Games run here whose lease is no longer this node's: stop them. (One query for all
        // of them: a query or two a game each second was most of a cluster's database load.)
        let ours: std::collections::HashSet<i64> =
            self.store.owned(&peers.node).await?.into_iter().collect();
        let local: Vec<(i64, GameHandle)> = {
            let mut map = self.live.lock().await;
            // Retired finished games (their leases given up), games moved away, and other
            // nodes' games no connection here uses any more.
            map.retain(|_, h| !h.is_closed() && !h.is_unused_remote());
            map.iter()
                .filter(|(id, h)| h.is_local() && !ours.contains(id))
                .map(|(id, h)| (*id, h.clone()))
                .collect()
        };
        for (id, h) in local {
            let finished = self
                .store
                .game(id)
                .await?
                .is_none_or(|r| r.status != GameStatus::Live);
            if !finished {
                h.stop().await;
                self.live.lock().await.remove(&id);
            }
        }
        for id in self.store.orphaned_games().await? {
            if let Some(row) = self.store.game(id).await? {
                self.take(&row).await?;
            }
        }
        Ok(())
    }

    /// Hands every game of this node back (SIGTERM): the actors stop and the leases lapse at
    /// once, so that the other nodes take the games over at their next upkeep.
    pub async fn hand_over(&self) {
        let Some(peers) = &self.peers else {
            return;
        };
        let local: Vec<GameHandle> = self.live.lock().await.drain().map(|(_, h)| h).collect();
        for h in &local {
            h.stop().await;
        }
        *self.beats() = None;
        let _ = self.store.renew(&peers.node, -1).await;
    }

    /// Starts the actor of a new game.
    pub async fn start(
        &self,
        id: i64,
        terms: Terms,
        players: [Player; 2],
    ) -> Result<GameHandle, LiveError> {
        let live = LiveGame::new(terms).map_err(LiveError::Internal)?;
        let owner = match &self.peers {
            Some(peers) => match self.claim(peers, id).await? {
                Some(lease) => Some(Owner {
                    lease,
                    bus: peers.bus.clone(),
                }),
                // Another node's takeover saw the new game before this node claimed it: it
                // runs there (from its log, empty so far); reach it there.
                None => {
                    let row = self.store.game(id).await?.ok_or(LiveError::NotFound)?;
                    return self.get_clustered(peers, &row).await;
                }
            },
            None => None,
        };
        let h = actor::spawn_supervised(
            id,
            self.store.clone(),
            live,
            players,
            Vec::new(),
            self.grace,
            owner,
            Some(self.reviver(id)),
            self.counter.clone(),
        );
        self.insert(&mut *self.live.lock().await, id, h.clone());
        Ok(h)
    }

    /// Restores every live game from its log (on server start). Returns how many.
    /// In a cluster, only the games no live node owns, claimed one by one.
    pub async fn restore_all(&self) -> Result<usize, LiveError> {
        if self.peers.is_some() {
            let mut taken = 0;
            for id in self.store.orphaned_games().await? {
                if let Some(row) = self.store.game(id).await? {
                    taken += usize::from(self.take(&row).await?.is_some());
                }
            }
            return Ok(taken);
        }
        let rows = self
            .store
            .games_by_status(GameStatus::Live, 1_000_000)
            .await?;
        for row in &rows {
            let h = self.load(row, None).await?;
            self.insert(&mut *self.live.lock().await, row.id, h);
        }
        Ok(rows.len())
    }

    async fn load(&self, row: &GameRow, owner: Option<Owner>) -> Result<GameHandle, LiveError> {
        let (live, players, log) = replay(&self.store, row).await?;
        Ok(actor::spawn_supervised(
            row.id,
            self.store.clone(),
            live,
            players,
            log,
            self.grace,
            owner,
            Some(self.reviver(row.id)),
            self.counter.clone(),
        ))
    }

    /// Takes game `id` up again from its log when its actor panics: at once, so that its
    /// clocks and its bots go on without waiting for a request. At most [`REVIVALS`] times a
    /// game: a panic that the log itself brings back is left to the next request. The actor
    /// holds the registry weakly, so that a registry dropped (a server stopped) still ends
    /// every actor it held.
    fn reviver(&self, id: i64) -> actor::OnCrash {
        let weak = Arc::downgrade(&self.live);
        let parts = Games {
            live: Arc::default(),
            ..self.clone()
        };
        Box::new(move || {
            let Some(live) = weak.upgrade() else { return };
            let games = Games { live, ..parts };
            let times = {
                let mut revived = games.revived.lock().unwrap_or_else(|e| e.into_inner());
                let n = revived.entry(id).or_insert(0);
                *n += 1;
                *n
            };
            if times > REVIVALS {
                tracing::error!(
                    game = id,
                    "the game's actor panicked again; left to the next request"
                );
                return;
            }
            tokio::spawn(async move {
                if let Err(e) = games.get(id).await {
                    tracing::error!(game = id, error = %e, "could not take the game up again");
                }
            });
        })
    }
}

/// How many times a process takes a game whose actor panicked up again by itself.
const REVIVALS: u32 = 3;

/// Rebuilds a game from its row and log.
pub async fn replay(
    store: &Store,
    row: &GameRow,
) -> Result<(LiveGame, [Player; 2], Vec<Record>), LiveError> {
    let mut live = LiveGame::new(row.terms.clone()).map_err(LiveError::Internal)?;
    let mut log = Vec::new();
    for e in store.events(row.id).await? {
        let record =
            Record::from_row(row.id, &e).map_err(|e| LiveError::Internal(e.to_string()))?;
        live.apply(&record.event);
        if let Some(c) = record.clocks {
            live.clocks = c;
        }
        log.push(record);
    }
    let player = |id: i64, i: usize| async move {
        let u = store
            .user_by_id(id)
            .await?
            .ok_or(LiveError::Internal(format!("no user {id}")))?;
        // The rank the game was started at; the account's for a game that stored none (or, were
        // the stored one ever unreadable, rather than failing the game).
        let stored = row.ranks.as_ref().and_then(|r| r[i].parse().ok());
        let rank = stored.unwrap_or(u.rank);
        Ok::<Player, LiveError>(Player::of_account(u.id, &u.username, rank, u.guest, u.bot))
    };
    let players = [
        player(row.black_id, 0).await?,
        player(row.white_id, 1).await?,
    ];
    Ok((live, players, log))
}
