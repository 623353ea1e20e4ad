//! What the use cases share, built once at start-up and held by the web layer, which hands each
//! use case only the parts it takes. The top of this crate: it imports the domains, none of
//! them imports it.

use std::sync::Arc;
use std::time::Duration;

use tengen_live::registry::Games;
use tengen_live::remote::Peers;
use tengen_store::Store;

use crate::bots::{self, BotGames};
use crate::engines::Engines;
use crate::error::ApiError;
use crate::lobby_chat::LobbyChat;
use crate::notices::Notices;
use crate::online::Online;
use crate::quick_match::QuickMatch;
use crate::review::Reviews;
use crate::{estimate, rooms, tournaments};

/// What the use cases share.
#[derive(Clone)]
pub struct Services {
    /// The database.
    pub store: Store,
    /// The live games.
    pub games: Games,
    /// The bots one can play.
    pub bots: bots::Bots,
    /// Who is connected now.
    pub online: Online,
    /// The way to every connection of a player, on every node.
    pub notices: Notices,
    /// Quick match's queue.
    pub quick_match: QuickMatch,
    /// The review boards loaded on this node.
    pub reviews: Reviews,
    /// Who hears of changes to the tournaments.
    pub tournaments: tournaments::Hub,
    /// The lobby's chat (this node's).
    pub lobby_chat: LobbyChat,
    /// Whether open rooms' owners are here.
    pub room_attendance: rooms::Attendance,
    /// What the searches run on and with: the engine pool and the net (the process's:
    /// `serve --engine-threads`, `serve --model`).
    pub engines: Engines,
    /// Whether a bot account's session may do what players do (`serve --bots-as-players`);
    /// by default it only plays its own games ([`crate::sessions::require_player`]).
    pub bots_as_players: bool,
}

impl Services {
    /// The services over `store`, with `grace` for disconnected players, the built-in bots and
    /// `extra_bots`, as a node of a cluster when `peers` is given (then only the live games no
    /// node owns are restored here). Restores every live game and resumes the bots' games.
    pub async fn start(
        store: Store,
        grace: Duration,
        extra_bots: Vec<bots::BotSpec>,
        peers: Option<Arc<Peers>>,
    ) -> Result<Services, ApiError> {
        let engines = Engines::process();
        let model = engines.engine.net().map(|e| e.model().name.as_str());
        let mut specs = bots::builtins(model);
        specs.extend(extra_bots);
        let bots = bots::Bots::register(&store, specs).await?;
        let (notices, quick_match) = match &peers {
            Some(p) => {
                let notices = Notices::clustered(p.bus.clone());
                let queue = QuickMatch::clustered(store.clone(), notices.clone());
                (notices, queue)
            }
            None => {
                let notices = Notices::default();
                (notices.clone(), QuickMatch::new(notices))
            }
        };
        let clustered = peers.is_some();
        let games = match peers {
            Some(p) => Games::clustered(store.clone(), grace, p),
            None => Games::new(store.clone(), grace),
        }
        .with_counter(estimate::counter(engines.clone()));
        // Subscribed before the first takeover (restoring is one, in a cluster).
        let taken = games.taken();
        let restored = games.restore_all().await?;
        if restored > 0 {
            tracing::info!(restored, "live games restored from their logs");
        }
        let online = Online::default();
        let services = Services {
            reviews: Reviews::new(store.clone(), engines.clone(), clustered),
            room_attendance: rooms::Attendance::new(online.clone()),
            store,
            games,
            bots,
            online,
            notices,
            quick_match,
            tournaments: Default::default(),
            lobby_chat: Default::default(),
            engines,
            bots_as_players: false,
        };
        match taken.filter(|_| clustered) {
            Some(taken) => bots::drive_taken(services.bot_games(), taken),
            None => bots::resume_all(&services.bot_games()).await?,
        }
        let (store, games) = (services.store.clone(), services.games.clone());
        tournaments::run(store.clone(), games, services.tournaments.clone());
        rooms::keep_real(store, services.room_attendance.clone());
        Ok(services)
    }

    /// What starting and driving the bots' games (and quick match's games) needs.
    pub fn bot_games(&self) -> BotGames {
        BotGames {
            store: self.store.clone(),
            games: self.games.clone(),
            bots: self.bots.clone(),
            online: self.online.clone(),
            notices: self.notices.clone(),
            engines: self.engines.clone(),
        }
    }
}
