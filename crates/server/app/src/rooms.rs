//! Game rooms (seed 002): the owner opens a room with terms, a partner joins, and the game type,
//! colours, komi and handicap follow from their ranks.
//!
//! A room is real while its owner is on the site: once the owner has had no connection on any
//! node for [`OWNER_GRACE`] (a reload or a dropped line keeps it, a closed tab does not), the
//! room closes, as quick match's requests do, and no one joins it to wait for a player who is
//! gone. [`keep_real`] checks every few seconds; a join checks at once.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::{Deserialize, Serialize};
use tengen_rules::{Komi, Preset};

use crate::accounts::{self, User};
use crate::error::ApiError;
use crate::online::Online;
use tengen_core::domain::clock::TimeControl;
use tengen_core::domain::game_type::{
    black_player, check_handicap, default_komi, GameType, Parity, Side, HANDICAP_STONES,
};
use tengen_core::domain::rank::Rank;
use tengen_core::game::{DisputeRule, Terms};
use tengen_live::registry::Games;
use tengen_store::games::RoomStatus;
use tengen_store::Store;

pub use tengen_core::room::RoomTerms;

/// Rooms one player may have open at once.
pub const MAX_OPEN_PER_USER: i64 = 5;

/// How long an open room outlives its owner's last connection.
pub const OWNER_GRACE: Duration = Duration::from_secs(30);

/// How often the open rooms' owners are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// Whether open rooms' owners are here: who is connected, and when each open room's owner was
/// first seen gone, by room id (on this node; a room whose owner is here has no entry).
#[derive(Clone)]
pub struct Attendance {
    online: Online,
    away: Arc<Mutex<HashMap<i64, tokio::time::Instant>>>,
}

impl Attendance {
    /// No owner missed yet; `online` says who is connected.
    pub fn new(online: Online) -> Attendance {
        Attendance {
            online,
            away: Arc::default(),
        }
    }

    /// How long room `id`'s owner has been seen gone: zero (and forgotten) when `here`, zero
    /// too the first time they are missed, which starts their grace.
    fn away_for(&self, id: i64, here: bool) -> Duration {
        let now = tokio::time::Instant::now();
        let mut m = self.away.lock().unwrap_or_else(|e| e.into_inner());
        if here {
            m.remove(&id);
            return Duration::ZERO;
        }
        now - *m.entry(id).or_insert(now)
    }

    /// Forgets the rooms that are no longer open.
    fn keep_only(&self, open: &HashSet<i64>) {
        let mut m = self.away.lock().unwrap_or_else(|e| e.into_inner());
        m.retain(|id, _| open.contains(id));
    }
}

/// Closes, every few seconds, the open rooms whose owner has been gone [`OWNER_GRACE`].
pub fn keep_real(store: Store, attendance: Attendance) {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(SWEEP_EVERY).await;
            if let Err(e) = close_abandoned(&store, &attendance).await {
                tracing::warn!(error = %e, "could not check the open rooms' owners");
            }
        }
    });
}

/// Closes the open rooms whose owner has had no connection for [`OWNER_GRACE`]; returns how
/// many it closed.
pub async fn close_abandoned(store: &Store, attendance: &Attendance) -> Result<usize, ApiError> {
    let rooms = store.open_room_owners().await?;
    let open: HashSet<i64> = rooms.iter().map(|&(id, _)| id).collect();
    attendance.keep_only(&open);
    let mut closed = 0;
    for (id, owner) in rooms {
        if abandoned(attendance, id, owner) && store.cancel_room(id).await? {
            tracing::info!(room = id, owner, "room closed: its owner left");
            closed += 1;
        }
    }
    Ok(closed)
}

/// Whether room `id`'s owner has been gone for the grace.
fn abandoned(attendance: &Attendance, id: i64, owner: i64) -> bool {
    let here = attendance.online.connections(owner) > 0;
    attendance.away_for(id, here) >= OWNER_GRACE
}

/// The open rooms, newest first, each with whether its owner is connected now.
pub async fn list(store: &Store, online: &Online) -> Result<Rooms, ApiError> {
    let rooms = store.open_rooms().await?;
    // Two queries, not one a room: the rooms, then their owners together.
    let mut ids: Vec<i64> = rooms.iter().map(|r| r.owner_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let owners: HashMap<i64, User> = store
        .users_by_ids(&ids)
        .await?
        .into_iter()
        .map(|u| (u.id, User::from(u)))
        .collect();
    let mut out = Vec::with_capacity(rooms.len());
    for r in rooms {
        // A room whose owner's account is gone is not listed.
        let Some(owner) = owners.get(&r.owner_id) else {
            continue;
        };
        let mut room = public(r.id, owner, &r.terms, r.status, r.game_id);
        room.owner.here = Some(online.connections(owner.id) > 0);
        out.push(room);
    }
    Ok(Rooms { rooms: out })
}

/// Opens a room for `owner` with checked terms; what the owner sees of it (their own parity
/// included). A player has [`MAX_OPEN_PER_USER`] open at most, and a sanctioned one none.
pub async fn open(store: &Store, owner: &User, terms: RoomTerms) -> Result<Room, ApiError> {
    let t = validate(terms)?;
    // One player cannot fill the lobby.
    if store.open_rooms_of(owner.id).await? >= MAX_OPEN_PER_USER {
        return Err(ApiError::Limited(
            "too_many_rooms",
            format!("at most {MAX_OPEN_PER_USER} open rooms a player: close one first"),
        ));
    }
    crate::sanctions::check_may_play(store, owner.id).await?;
    let id = store.create_room(owner.id, &t).await?;
    let mut room = public(id, owner, &t, RoomStatus::Open, None);
    room.parity = Some(t.parity.clone());
    Ok(room)
}

/// Room `id` as anyone sees it (its owner's parity stays secret).
pub async fn get(store: &Store, id: i64) -> Result<Room, ApiError> {
    let r = store.room(id).await?.ok_or(ApiError::NotFound)?;
    let owner = accounts::by_id(store, r.owner_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(public(r.id, &owner, &r.terms, r.status, r.game_id))
}

/// `user` closes their open room `id`: `not_owner` for anyone else, `room_closed` when it is
/// no longer open.
pub async fn close(store: &Store, user: &User, id: i64) -> Result<(), ApiError> {
    let r = store.room(id).await?.ok_or(ApiError::NotFound)?;
    if r.owner_id != user.id {
        return Err(ApiError::Forbidden(
            "not_owner",
            "only the owner can close a room".into(),
        ));
    }
    if !store.cancel_room(id).await? {
        return Err(ApiError::Conflict(
            "room_closed",
            "this room is no longer open".into(),
        ));
    }
    Ok(())
}

/// What a partner sends to join.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct JoinTerms {
    /// The guess in HO-SUN, `odd` or `even`.
    #[serde(default)]
    pub guess: Option<String>,
    /// Handicap stones, when the room left them open.
    #[serde(default)]
    pub handicap: Option<u8>,
}

fn parse_parity(s: &str) -> Result<Parity, ApiError> {
    match s.to_ascii_lowercase().as_str() {
        "odd" => Ok(Parity::Odd),
        "even" => Ok(Parity::Even),
        _ => Err(ApiError::Rejected(
            "bad_parity",
            "choose odd or even".into(),
        )),
    }
}

/// Checks a room's terms and fills in the owner's parity.
pub fn validate(mut t: RoomTerms) -> Result<RoomTerms, ApiError> {
    let preset: Preset = t
        .rules
        .parse()
        .map_err(|e: tengen_rules::rules::UnknownPreset| {
            ApiError::Rejected("bad_rules", e.to_string())
        })?;
    let sizes_ok = match preset {
        Preset::FirstCapture => (5..=19).contains(&t.size),
        Preset::Wga => t.size == 9,
        _ => matches!(t.size, 9 | 13 | 19),
    };
    if !sizes_ok {
        return Err(ApiError::Rejected(
            "bad_board_size",
            format!("a {0}x{0} board is not offered with {preset} rules", t.size),
        ));
    }
    if let Some(k) = &t.komi {
        let komi = k
            .parse::<Komi>()
            .map_err(|e| ApiError::Rejected("bad_komi", e.to_string()))?;
        // Written as the game will write it (`6.50` is `6.5`), so the room and its game agree.
        t.komi = Some(komi.to_string());
    }
    if let Some(h) = t.handicap {
        check_handicap(GameType::Handicap, preset, t.size, h)
            .map_err(|e| ApiError::Rejected("bad_handicap", e.to_string()))?;
    }
    let time = t.time.unwrap_or_else(TimeControl::default_room);
    time.validate()
        .map_err(|e| ApiError::Rejected("bad_time", e.to_string()))?;
    t.time = Some(time);
    t.rules = preset.name().to_string();
    t.parity = Some(match &t.parity {
        Some(p) => match parse_parity(p)? {
            Parity::Odd => "odd".into(),
            Parity::Even => "even".into(),
        },
        None => if OsRng.next_u32() % 2 == 0 {
            "odd"
        } else {
            "even"
        }
        .into(),
    });
    Ok(t)
}

/// A room as listed: the owner's parity stays secret.
pub fn public(
    id: i64,
    owner: &User,
    t: &RoomTerms,
    status: RoomStatus,
    game_id: Option<i64>,
) -> Room {
    Room {
        disputes: t.disputes,
        estimate: t.estimate,
        game_id,
        handicap: t.handicap,
        id,
        komi: t.komi.clone(),
        owner: RoomOwner {
            here: None,
            rank: owner.rank,
            username: owner.username.clone(),
        },
        parity: None,
        rules: t.rules.clone(),
        size: t.size,
        status,
        take_back: t.take_back,
        time: t.time,
    }
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same (see `crate::wire`).

/// The open rooms.
#[derive(Debug, Serialize)]
pub struct Rooms {
    /// Newest first.
    pub rooms: Vec<Room>,
}

/// A room as the lobby shows it.
#[derive(Debug, Serialize)]
pub struct Room {
    /// How a disputed group is settled.
    pub disputes: DisputeRule,
    /// Whether the players may see the score estimate.
    pub estimate: bool,
    /// The game, once joined.
    pub game_id: Option<i64>,
    /// The handicap asked for.
    pub handicap: Option<u8>,
    /// Its id.
    pub id: i64,
    /// The komi asked for.
    pub komi: Option<String>,
    /// Who opened it.
    pub owner: RoomOwner,
    /// The owner's parity for HO-SUN: only in the owner's own answer ([`open`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parity: Option<Option<String>>,
    /// The rule preset.
    pub rules: String,
    /// The board's size.
    pub size: u8,
    /// Open, started or cancelled (the column's word).
    pub status: RoomStatus,
    /// Whether take-backs are allowed.
    pub take_back: bool,
    /// The clock.
    #[serde(serialize_with = "crate::wire::sorted")]
    pub time: Option<TimeControl>,
}

/// A room's owner.
#[derive(Debug, Serialize)]
pub struct RoomOwner {
    /// Whether they are connected now (in the list of rooms only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub here: Option<bool>,
    /// Their rank.
    pub rank: Rank,
    /// Their name.
    pub username: String,
}

/// The largest allowed handicap no greater than the rank difference.
pub(crate) fn default_handicap(preset: Preset, size: u8, diff: i32) -> u8 {
    let candidates: Vec<u8> = match preset {
        Preset::Wga => (2..=5).collect(),
        _ => HANDICAP_STONES.to_vec(),
    };
    candidates
        .into_iter()
        .filter(|&n| {
            n as i32 <= diff.max(2) && check_handicap(GameType::Handicap, preset, size, n).is_ok()
        })
        .max()
        .unwrap_or(2)
}

/// Joins room `id` as `partner` and starts the game. Returns the game's id, the snapshot, and
/// how the colours were decided.
pub async fn join(
    store: &Store,
    games: &Games,
    attendance: &Attendance,
    id: i64,
    partner: &User,
    j: JoinTerms,
) -> Result<Started, ApiError> {
    let room = store.room(id).await?.ok_or(ApiError::NotFound)?;
    if room.status != RoomStatus::Open {
        return Err(ApiError::Conflict(
            "room_closed",
            "this room is no longer open".into(),
        ));
    }
    if room.owner_id == partner.id {
        return Err(ApiError::Rejected(
            "own_room",
            "you cannot join your own room".into(),
        ));
    }
    if abandoned(attendance, id, room.owner_id) {
        store.cancel_room(id).await?;
        return Err(ApiError::Conflict(
            "room_closed",
            "this room's owner has left the site".into(),
        ));
    }
    crate::sanctions::check_may_play(store, partner.id).await?;
    let owner = accounts::by_id(store, room.owner_id)
        .await?
        .ok_or(ApiError::NotFound)?;
    // A room whose owner was suspended since it opened starts nothing.
    if crate::sanctions::check_may_play(store, owner.id)
        .await
        .is_err()
    {
        return Err(ApiError::Conflict(
            "room_closed",
            "this room's owner may not start games now".into(),
        ));
    }
    crate::blocks::check_may_meet(store, owner.id, partner.id).await?;
    start_paired(store, games, id, &owner, partner, &room.terms, j).await
}

/// Starts a game between `owner` (of room `room_id`, or 0 for none, as quick match pairs) and
/// `partner` under checked terms `t`: the game type, colours, komi and handicap from their
/// ranks as seed 002 says.
pub async fn start_paired(
    store: &Store,
    games: &Games,
    room_id: i64,
    owner: &User,
    partner: &User,
    t: &RoomTerms,
    j: JoinTerms,
) -> Result<Started, ApiError> {
    let id = room_id;
    let preset: Preset = t
        .rules
        .parse()
        .map_err(|_| ApiError::Internal("bad rules in a room".into()))?;
    let (or, pr): (Rank, Rank) = (owner.rank, partner.rank);
    let kind = GameType::for_ranks(or, pr);
    let owner_parity = parse_parity(t.parity.as_deref().unwrap_or("odd"))?;
    let guess = match (kind, &j.guess) {
        (GameType::HoSun, None) => {
            return Err(ApiError::Rejected(
                "guess_required",
                "HO-SUN: guess odd or even".into(),
            ))
        }
        (GameType::HoSun, Some(g)) => parse_parity(g)?,
        _ => owner_parity,
    };
    let handicap = match kind {
        GameType::Handicap => {
            let n = t.handicap.or(j.handicap).unwrap_or_else(|| {
                default_handicap(preset, t.size, (or.level() - pr.level()).abs())
            });
            check_handicap(kind, preset, t.size, n)
                .map_err(|e| ApiError::Rejected("bad_handicap", e.to_string()))?;
            n
        }
        _ => 0,
    };
    let komi = match &t.komi {
        Some(k) => k
            .parse::<Komi>()
            .map_err(|_| ApiError::Internal("bad komi in a room".into()))?,
        None => default_komi(kind, preset, t.size),
    };
    let black_side = black_player(kind, or, pr, owner_parity, guess);
    let (black, white) = match black_side {
        Side::Owner => (owner, partner),
        Side::Partner => (partner, owner),
    };
    let terms = Terms {
        size: t.size,
        rules: preset,
        komi,
        handicap,
        take_back: t.take_back,
        estimate: t.estimate,
        game_type: kind,
        time: t.time.unwrap_or_else(TimeControl::default_room),
        unrated: false,
        disputes: t.disputes,
    };
    let started = crate::games::start(store, games, id, black, white, terms).await?;
    let snapshot = crate::games::snapshot(&started.handle).await?;
    let game_id = started.game_id;
    let ho_sun = kind == GameType::HoSun;
    Ok(Started {
        game: snapshot,
        game_id,
        game_type: kind.name(),
        guess: j.guess.filter(|_| ho_sun),
        owner_parity: t.parity.clone().filter(|_| ho_sun),
    })
}

/// A game started from a room (or by quick match): its id, its snapshot, and how the colours
/// were decided.
#[derive(Debug, Serialize)]
pub struct Started {
    /// The game as a watcher's first snapshot shows it.
    pub game: tengen_core::view::Snapshot,
    /// Its id.
    pub game_id: i64,
    /// `even`, `handicap` or `ho_sun`.
    pub game_type: &'static str,
    /// The partner's guess (HO-SUN only).
    pub guess: Option<String>,
    /// The owner's parity (HO-SUN only).
    pub owner_parity: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(size: u8, rules: &str) -> RoomTerms {
        RoomTerms {
            size,
            rules: rules.into(),
            komi: None,
            take_back: false,
            estimate: false,
            handicap: None,
            parity: None,
            time: None,
            disputes: Default::default(),
        }
    }

    #[test]
    fn room_terms_are_checked() {
        assert!(validate(terms(19, "japanese")).is_ok());
        assert_eq!(
            validate(terms(11, "japanese")).unwrap_err().code(),
            "bad_board_size"
        );
        assert!(validate(terms(7, "first-capture")).is_ok());
        assert_eq!(
            validate(terms(13, "wga")).unwrap_err().code(),
            "bad_board_size"
        );
        assert_eq!(validate(terms(19, "go")).unwrap_err().code(), "bad_rules");
        let mut t = terms(19, "korean");
        t.komi = Some("6.25".into());
        assert_eq!(validate(t).unwrap_err().code(), "bad_komi");
        let mut t = terms(13, "korean");
        t.handicap = Some(13);
        assert_eq!(validate(t).unwrap_err().code(), "bad_handicap");
        let v = validate(terms(9, "chinese")).unwrap();
        assert!(matches!(v.parity.as_deref(), Some("odd" | "even")));
    }

    #[test]
    fn default_handicap_follows_the_rank_difference() {
        assert_eq!(default_handicap(Preset::Korean, 19, 3), 3);
        assert_eq!(default_handicap(Preset::Korean, 19, 8), 7);
        assert_eq!(default_handicap(Preset::Korean, 19, 15), 13);
        assert_eq!(default_handicap(Preset::Korean, 13, 15), 9);
        assert_eq!(default_handicap(Preset::Wga, 9, 12), 5);
    }
}
