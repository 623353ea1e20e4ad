//! A live game run by its own actor, with no server around it.

use std::time::Duration;

use tengen_core::domain::clock::TimeControl;
use tengen_core::domain::game_type::GameType;
use tengen_core::game::{LiveGame, Terms};
use tengen_core::player::Player;

use tengen_live::actor::{spawn, GameHandle};
use tengen_rules::{Komi, Preset};
use tengen_store::Store;

/// HO-SUN terms on a board of side `size`: Japanese rules, komi 6.5, clock `time`.
pub fn terms(size: u8, time: TimeControl) -> Terms {
    Terms {
        size,
        rules: Preset::Japanese,
        komi: Komi::from_halves(13),
        handicap: 0,
        take_back: false,
        estimate: false,
        game_type: GameType::HoSun,
        time,
        unrated: false,
        disputes: Default::default(),
    }
}

/// A 3k player of a game.
pub fn player(id: i64, name: &str, bot: bool) -> Player {
    Player {
        id,
        username: name.into(),
        rank: "3k".into(),
        guest: false,
        bot,
    }
}

/// Ann and Bob as the players of a game (neither a bot).
pub fn ann_and_bob_players(ids: [i64; 2]) -> [Player; 2] {
    [player(ids[0], "ann", false), player(ids[1], "bob", false)]
}

/// A live game: ann (Black) against bob (White), HO-SUN, Japanese rules, komi 6.5.
pub struct ActorGame {
    pub handle: GameHandle,
    pub store: Store,
    pub black: i64,
    pub white: i64,
    pub id: i64,
}

/// Starts a game of side `size` with clock `time` and disconnection grace `grace`, in a
/// database of its own named after `tag` (unique per test).
pub async fn actor_game(tag: &str, size: u8, time: TimeControl, grace: Duration) -> ActorGame {
    actor_game_against(tag, size, time, grace, false).await
}

/// [`actor_game`] with White played by a bot when `white_bot`.
pub async fn actor_game_against(
    tag: &str,
    size: u8,
    time: TimeControl,
    grace: Duration,
    white_bot: bool,
) -> ActorGame {
    let store = Store::open(&super::sqlite_url(&format!("actor-{tag}")))
        .await
        .unwrap();
    let ids = super::ann_and_bob(&store).await;
    let terms = terms(size, time);
    let id = super::stored_game(&store, ids, &terms).await;
    let players = [
        player(ids[0], "ann", false),
        player(ids[1], "bob", white_bot),
    ];
    let handle = spawn(
        id,
        store.clone(),
        LiveGame::new(terms).unwrap(),
        players,
        Vec::new(),
        grace,
    );
    ActorGame {
        handle,
        store,
        black: ids[0],
        white: ids[1],
        id,
    }
}

/// Lets `d` of paused time pass, then resumes real time (sqlx has timers of its own that paused
/// time would fire early, so the database is only ever awaited in real time).
pub async fn think(d: Duration) {
    tokio::time::pause();
    tokio::time::advance(d).await;
    tokio::time::resume();
}
