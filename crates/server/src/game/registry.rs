//! The live games of this server: one actor per game, found by id, restored on start.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Mutex;

use super::actor::{self, GameHandle, Player, Record};
use super::state::{Event, LiveGame, Terms};
use crate::accounts;
use crate::error::ApiError;
use crate::store::games::GameRow;
use crate::store::Store;

/// The registry of live games.
#[derive(Clone)]
pub struct Games {
    store: Store,
    grace: Duration,
    live: Arc<Mutex<HashMap<i64, GameHandle>>>,
}

impl Games {
    /// An empty registry; `grace` is how long a disconnected player has to come back.
    pub fn new(store: Store, grace: Duration) -> Games {
        Games {
            store,
            grace,
            live: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// The handle of a live game, starting its actor from the log if needed (a game that
    /// finished since is served from its log too).
    pub async fn get(&self, id: i64) -> Result<Option<GameHandle>, ApiError> {
        if let Some(h) = self.live.lock().await.get(&id) {
            return Ok(Some(h.clone()));
        }
        let Some(row) = self.store.game(id).await? else {
            return Ok(None);
        };
        let handle = self.load(&row).await?;
        let mut map = self.live.lock().await;
        // Another request may have loaded it meanwhile: keep the first actor.
        Ok(Some(map.entry(id).or_insert(handle).clone()))
    }

    /// Starts the actor of a new game.
    pub async fn start(
        &self,
        id: i64,
        terms: Terms,
        players: [Player; 2],
    ) -> Result<GameHandle, ApiError> {
        let live = LiveGame::new(terms).map_err(ApiError::Internal)?;
        let h = actor::spawn(
            id,
            self.store.clone(),
            live,
            players,
            Vec::new(),
            self.grace,
        );
        self.live.lock().await.insert(id, h.clone());
        Ok(h)
    }

    /// Restores every live game from its log (on server start). Returns how many.
    pub async fn restore_all(&self) -> Result<usize, ApiError> {
        let rows = self.store.games_by_status("live", 1_000_000).await?;
        for row in &rows {
            let h = self.load(row).await?;
            self.live.lock().await.insert(row.id, h);
        }
        Ok(rows.len())
    }

    async fn load(&self, row: &GameRow) -> Result<GameHandle, ApiError> {
        let (live, players, log) = replay(&self.store, row).await?;
        Ok(actor::spawn(
            row.id,
            self.store.clone(),
            live,
            players,
            log,
            self.grace,
        ))
    }
}

/// Rebuilds a game from its row and log.
pub async fn replay(
    store: &Store,
    row: &GameRow,
) -> Result<(LiveGame, [Player; 2], Vec<Record>), ApiError> {
    let terms: Terms =
        serde_json::from_str(&row.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    let mut live = LiveGame::new(terms).map_err(ApiError::Internal)?;
    let mut log = Vec::new();
    for e in store.events(row.id).await? {
        let event: Event =
            serde_json::from_str(&e.event).map_err(|e| ApiError::Internal(e.to_string()))?;
        let clocks = e
            .clocks
            .as_deref()
            .and_then(|c| serde_json::from_str(c).ok());
        live.apply(&event);
        if let Some(c) = clocks {
            live.clocks = c;
        }
        log.push(Record::new(
            row.id,
            e.seq as u64,
            e.at_ms,
            event,
            clocks,
            &e.event,
            e.clocks.as_deref(),
        ));
    }
    let player = |id: i64| async move {
        let u = accounts::by_id(store, id)
            .await?
            .ok_or(ApiError::Internal(format!("no user {id}")))?;
        Ok::<Player, ApiError>(crate::rooms::player(&u))
    };
    let players = [player(row.black_id).await?, player(row.white_id).await?];
    Ok((live, players, log))
}
