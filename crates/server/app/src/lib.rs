//! The Tengen server's use cases, by domain: accounts, rooms, quick match, bots, correspondence,
//! profiles, review boards, records and estimates. No HTTP here: the web layer above extracts
//! a request, calls one function of this crate and writes its answer; the errors carry stable
//! codes ([`error::ApiError`]) that the web layer maps to statuses.
//!
//! [`Services`] is what the use cases share (the store, the live games, the bots, who is online,
//! quick match's queue and the review boards); each function takes it, or only the part it
//! needs.
//!
//! - [`accounts`]: registration, login, guests; [`user`]: an account as the API shows it and the
//!   session tokens; [`sessions`]: sessions that end, their kinds
//!   and the player's list of them; [`online`]: who is connected;
//!   [`own_account`]: a player's password, data export and account deletion; [`blocks`]:
//!   players' blocks; [`social`]: private messages and friends; [`lobby_chat`]: the lobby's
//!   chat.
//! - [`games`]: the one way a game starts; [`game_chat`]: who may say a line in a game; [`rooms`]: rooms, joining, game type, colours,
//!   komi and handicap.
//! - [`quick_match`]: the queue of match requests (in memory, or shared by a cluster).
//! - [`bots`]: the built-in bots and GTP bots, and the driver that plays their moves.
//! - [`correspondence`]: the your-move list and vacations; [`profile`]: ratings and records.
//! - [`tournaments`]: events from registration to the final standings.
//! - [`review`]: review boards; [`records`]: games as SGF; [`estimate`]: the score estimate.
//! - [`metrics`]: bots and engines, and the process's whole exposition.
//! - [`moderation`]: roles, moderators' actions and the audit log; [`reports`]: players' reports and the moderators' queue; [`sanctions`]: the
//!   checks of a player's sanctions (log in, chat, new games).

pub mod accounts;
pub mod blocks;
pub mod bots;
pub mod correspondence;
pub mod engines;
pub mod error;
pub mod estimate;
pub mod game_chat;
pub mod games;
pub mod learn;
pub mod lobby_chat;
pub mod metrics;
pub mod moderation;
pub mod online;
pub mod own_account;
pub mod profile;
pub mod quick_match;
pub mod records;
pub mod reports;
pub mod review;
pub mod rooms;
pub mod sanctions;
pub mod sessions;
pub mod social;
pub mod tournaments;
pub mod user;

use std::sync::Arc;
use std::time::Duration;

use tengen_live::registry::Games;
use tengen_live::remote::Peers;
use tengen_store::Store;

use crate::error::ApiError;

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
    pub online: online::Online,
    /// Quick match's queue.
    pub quick_match: quick_match::QuickMatch,
    /// The review boards loaded on this node.
    pub reviews: review::Reviews,
    /// Who hears of changes to the tournaments.
    pub tournaments: tournaments::Hub,
    /// The lobby's chat (this node's).
    pub lobby_chat: lobby_chat::LobbyChat,
    /// Since when open rooms' owners have been gone.
    pub room_attendance: rooms::Attendance,
    /// Whether a bot account's session may do what players do (`serve --bots-as-players`);
    /// by default it only plays its own games ([`sessions::require_player`]).
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
        let mut specs = bots::builtins();
        specs.extend(extra_bots);
        let bots = bots::Bots::register(&store, specs).await?;
        let quick_match = match &peers {
            Some(p) => quick_match::QuickMatch::clustered(store.clone(), p.bus.clone()),
            None => quick_match::QuickMatch::default(),
        };
        let games = match peers {
            Some(p) => Games::clustered(store.clone(), grace, p),
            None => Games::new(store.clone(), grace),
        }
        .with_counter(Arc::new(estimate::propose_dead));
        // Subscribed before the first takeover (restoring is one, in a cluster).
        let taken = games.taken();
        let restored = games.restore_all().await?;
        if restored > 0 {
            tracing::info!(restored, "live games restored from their logs");
        }
        let services = Services {
            store,
            games,
            bots,
            online: online::Online::default(),
            quick_match,
            reviews: Default::default(),
            tournaments: Default::default(),
            lobby_chat: Default::default(),
            room_attendance: Default::default(),
            bots_as_players: false,
        };
        match taken.filter(|_| services.games.peers().is_some()) {
            Some(taken) => bots::drive_taken(services.clone(), taken),
            None => bots::resume_all(&services).await?,
        }
        tournaments::run(services.clone());
        rooms::keep_real(services.clone());
        Ok(services)
    }
}
