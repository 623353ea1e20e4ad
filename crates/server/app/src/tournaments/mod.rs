//! Tournaments run by the server, from registration to the final standings: McMahon, Swiss,
//! round robin and knockout ([`tengen_tournament`] pairs and counts; this module stores, starts
//! the games and moves the rounds on).
//!
//! The life of an event: its organiser creates it with its terms; players register and
//! withdraw until it starts (at its start time, or when the organiser starts it); each round is
//! paired, in one transaction with its games, when the round before has ended; a player who
//! withdraws mid-event is absent from the next round on (half a McMahon point, as OpenGotha
//! counts an absence); the event finishes after its last round. [`tick`] does every step that
//! is due, and [`run`] calls it every few seconds: a restart, or another node, picks up where
//! the last left, and a round is never paired twice (the store's `pair_round` refuses).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tengen_core::domain::clock::TimeControl;
use tengen_core::domain::game_type::default_komi;
use tengen_core::domain::game_type::GameType;
use tengen_core::game::Terms;
use tengen_rules::{Komi, Preset};
use tengen_store::tournaments::{
    EntrantRow, NewBoard, PairingRow, TournamentRow, TournamentStatus,
};
use tengen_store::Store;
use tengen_tournament::pairing::{self, HandicapPolicy, System};
use tengen_tournament::standings::{Criterion, Entrant, Event, Game, Outcome, ABSENT, BYE};
use tengen_tournament::{h9, rank, Rank};

pub mod import;
mod ladder;

pub use ladder::{challenge, finish, Challenge, Challenged, Finished};

use tengen_core::moderation::Role;

use crate::accounts::{self, User};
use crate::error::ApiError;
use tengen_live::registry::Games;

/// Tells watchers of an event what it looks like now, when it changed: a round paired, a game
/// of it ended, a player registered, the event finished. Each node's [`tick`] notices changes in
/// the database, so watchers on every node of a cluster hear them.
#[derive(Clone)]
pub struct Hub {
    /// (event id, the event as `GET /api/tournaments/{id}` shows it, as JSON text).
    pub notify: tokio::sync::broadcast::Sender<(i64, Arc<str>)>,
    /// What each event looked like at the last tick.
    seen: Arc<Mutex<HashMap<i64, Arc<str>>>>,
    /// The operator's choice: only moderators and admins organise (`serve
    /// --tournament-organisers moderators`); any registered player when false.
    pub moderators_only: bool,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub {
            notify: tokio::sync::broadcast::channel(256).0,
            seen: Arc::default(),
            moderators_only: false,
        }
    }
}

impl Hub {
    /// Tells watchers of event `id` if it changed since the last time.
    async fn publish(&self, store: &Store, id: i64) -> Result<(), ApiError> {
        let text = serde_json::to_string(&get(store, id).await?)
            .map_err(|e| ApiError::Internal(e.to_string()))?;
        let text: Arc<str> = text.into();
        let changed = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            let changed = seen.get(&id) != Some(&text);
            seen.insert(id, Arc::clone(&text));
            changed
        };
        if changed {
            let _ = self.notify.send((id, text));
        }
        Ok(())
    }
}

/// How often [`run`] looks for due steps.
pub const TICK: Duration = Duration::from_secs(2);

/// The most players an event may take.
pub const MAX_PLAYERS: u32 = 2000;

/// An event's terms, as its organiser sends them and the store keeps them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EventTerms {
    /// Its name.
    pub name: String,
    /// `mcmahon`, `swiss`, `round_robin` or `knockout`.
    pub system: String,
    /// Rounds (McMahon and Swiss; round robin and knockout take as many as their players need).
    #[serde(default = "default_rounds")]
    pub rounds: u32,
    /// Board size: 9, 13 or 19.
    #[serde(default = "default_size")]
    pub size: u8,
    /// A rule preset name.
    #[serde(default = "default_rules")]
    pub rules: String,
    /// Komi for even games; the preset's default when absent.
    #[serde(default)]
    pub komi: Option<String>,
    /// Every game's clock; seed 002's default when absent.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Whether the games move ratings and promotion points (default: yes).
    #[serde(default = "yes")]
    pub rated: bool,
    /// McMahon bar (stronger players start level with it), e.g. `3d`.
    #[serde(default)]
    pub bar: Option<String>,
    /// McMahon floor, e.g. `20k`.
    #[serde(default)]
    pub floor: Option<String>,
    /// McMahon: handicap from the score difference, less this reduction (none when absent).
    #[serde(default)]
    pub handicap_reduction: Option<i32>,
    /// Weakest rank allowed to register.
    #[serde(default)]
    pub min_rank: Option<String>,
    /// Strongest rank allowed to register.
    #[serde(default)]
    pub max_rank: Option<String>,
    /// The most players.
    #[serde(default = "default_max_players")]
    pub max_players: u32,
    /// Knockout: a game for third place beside the final.
    #[serde(default)]
    pub third_place: bool,
    /// Ladder: how many places above oneself one may challenge.
    #[serde(default = "default_reach")]
    pub reach: u32,
    /// When the first round starts (seconds since the epoch); the organiser starts it when
    /// absent.
    #[serde(default)]
    pub starts_at: Option<i64>,
    /// When each round may start at the earliest (seconds since the epoch), round 1 first: a
    /// round starts at its time, or when the round before ends if that is later. Rounds
    /// without a time start when the round before ends.
    #[serde(default)]
    pub round_starts: Vec<i64>,
    /// The pairing's seed (the event's id when absent): the same results pair the same.
    #[serde(default)]
    pub seed: Option<u64>,
}

fn default_rounds() -> u32 {
    5
}
fn yes() -> bool {
    true
}
fn default_size() -> u8 {
    19
}
fn default_rules() -> String {
    "japanese".into()
}
fn default_max_players() -> u32 {
    128
}
fn default_reach() -> u32 {
    3
}

fn bad(why: impl Into<String>) -> ApiError {
    ApiError::BadRequest(why.into())
}

fn parse_rank(text: &str) -> Result<Rank, ApiError> {
    text.parse::<Rank>()
        .map_err(|e: rank::BadRank| bad(e.to_string()))
}

/// A user's rank on the tournament scale (`5d [P]` reads as 5d).
fn rank_of(text: &str) -> Rank {
    text.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(rank::WEAKEST)
}

impl EventTerms {
    /// Checks every field; the pairing system they name.
    pub fn system(&self) -> Result<System, ApiError> {
        let rank_or = |r: &Option<String>, d: Rank| r.as_deref().map_or(Ok(d), parse_rank);
        Ok(match self.system.as_str() {
            "mcmahon" => System::McMahon {
                bar: rank_or(&self.bar, Rank::from_number(2))?,
                floor: rank_or(&self.floor, Rank::from_number(-20))?,
                handicap: self.handicap_reduction.map(|reduction| HandicapPolicy {
                    reduction,
                    ..HandicapPolicy::default()
                }),
            },
            "swiss" => System::Swiss,
            "round_robin" => System::RoundRobin,
            "knockout" => System::Knockout {
                third_place: self.third_place,
            },
            "ladder" => return Err(bad("a ladder is not paired by rounds")),
            other => {
                return Err(bad(format!(
                    "unknown system {other:?}; known: mcmahon, swiss, round_robin, knockout, ladder"
                )))
            }
        })
    }

    /// Whether the event is a ladder (challenges, not rounds).
    pub fn is_ladder(&self) -> bool {
        self.system == "ladder"
    }

    /// Whether players may still enter once it runs: a ladder, and McMahon and Swiss, where a
    /// late entrant is absent from the rounds already paired (as OpenGotha counts a player
    /// added mid-event) and paired from the next. A round robin's table and a knockout's
    /// bracket are fixed at the start.
    pub fn late_entries(&self) -> bool {
        matches!(self.system.as_str(), "ladder" | "mcmahon" | "swiss")
    }

    fn validate(&self) -> Result<(), ApiError> {
        if !self.is_ladder() {
            self.system()?;
        }
        if self.round_starts.len() > 20 || self.round_starts.windows(2).any(|w| w[0] > w[1]) {
            return Err(bad("round_starts: at most 20 times, in order"));
        }
        if !(1..=20).contains(&self.reach) {
            return Err(bad("a ladder's reach is 1 to 20 places"));
        }
        if self.name.trim().is_empty() || self.name.chars().count() > 80 {
            return Err(bad("a name of 1 to 80 characters"));
        }
        if !(1..=20).contains(&self.rounds) {
            return Err(bad("1 to 20 rounds"));
        }
        if ![9, 13, 19].contains(&self.size) {
            return Err(bad("board size 9, 13 or 19"));
        }
        self.preset()?;
        self.komi()?;
        if !(2..=MAX_PLAYERS).contains(&self.max_players) {
            return Err(bad(format!("2 to {MAX_PLAYERS} players")));
        }
        for r in [&self.min_rank, &self.max_rank, &self.bar, &self.floor] {
            r.as_deref().map(parse_rank).transpose()?;
        }
        if let Some(r) = self.handicap_reduction.filter(|r| !(0..=9).contains(r)) {
            return Err(bad(format!("handicap reduction {r}: 0 to 9")));
        }
        // The round's games take this clock: the same bounds as a room's (an unchecked one
        // could ask for more milliseconds than a clock can hold).
        if let Some(time) = &self.time {
            time.validate()
                .map_err(|e| ApiError::Rejected("bad_time", e.to_string()))?;
        }
        Ok(())
    }

    fn preset(&self) -> Result<Preset, ApiError> {
        let preset: Preset = self
            .rules
            .parse()
            .map_err(|_| bad(format!("unknown rules {:?}", self.rules)))?;
        if preset == Preset::FirstCapture {
            return Err(bad("First Capture has no tournaments"));
        }
        Ok(preset)
    }

    fn komi(&self) -> Result<Option<Komi>, ApiError> {
        self.komi
            .as_deref()
            .map(|k| {
                k.parse::<Komi>()
                    .map_err(|_| bad(format!("bad komi {k:?}")))
            })
            .transpose()
    }

    /// The rounds the event plays with `players` players.
    pub fn total_rounds(&self, players: usize) -> usize {
        match self.system.as_str() {
            "round_robin" => players.max(2) - 1 + players % 2,
            "knockout" => players.max(2).next_power_of_two().trailing_zeros() as usize,
            "ladder" => 0,
            _ => self.rounds as usize,
        }
    }

    /// The terms of a game of the event: even with komi, or with `handicap` stones.
    pub(crate) fn game_terms(&self, handicap: i32) -> Result<Terms, ApiError> {
        let preset = self.preset()?;
        let (kind, stones) = match handicap {
            h if h <= 0 => (GameType::HoSun, 0),
            1 => (GameType::JungSun, 0),
            h => (GameType::Handicap, h.min(9) as u8),
        };
        let komi = match (kind, self.komi()?) {
            (GameType::HoSun, Some(k)) => k,
            _ => default_komi(kind, preset, self.size),
        };
        Ok(Terms {
            size: self.size,
            rules: preset,
            komi,
            handicap: stones,
            take_back: false,
            estimate: false,
            game_type: kind,
            time: self.time.unwrap_or_else(TimeControl::default_room),
            unrated: !self.rated,
            disputes: Default::default(),
        })
    }
}

/// The event as stored, read once.
pub(crate) struct Loaded {
    row: TournamentRow,
    terms: EventTerms,
    entrants: Vec<EntrantRow>,
    pairings: Vec<PairingRow>,
}

pub(crate) async fn load(store: &Store, id: i64) -> Result<Loaded, ApiError> {
    let row = store.tournament(id).await?.ok_or(ApiError::NotFound)?;
    let terms: EventTerms =
        serde_json::from_str(&row.terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    let entrants = store.entrants(id).await?;
    let pairings = store.pairings(id).await?;
    Ok(Loaded {
        row,
        terms,
        entrants,
        pairings,
    })
}

/// How a stored result counts: `B+…`/`W+…`, `0` a jigo, `Void` nobody; `+F` by default.
pub(crate) fn outcome(result: Option<&str>) -> (Outcome, bool) {
    match result {
        None => (Outcome::Unknown, false),
        Some("0") => (Outcome::Jigo, false),
        Some(r) if r.starts_with("B+") => (Outcome::BlackWins, r == "B+F"),
        Some(r) if r.starts_with("W+") => (Outcome::WhiteWins, r == "W+F"),
        Some(_) => (Outcome::BothLose, false),
    }
}

impl Loaded {
    fn index(&self) -> HashMap<i64, usize> {
        self.entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.user_id, i))
            .collect()
    }

    /// The event as the pairing and the standings see it.
    pub(crate) fn event(&self) -> Result<Event, ApiError> {
        let system = self.terms.system().ok();
        let start = |r: Rank| match &system {
            Some(System::McMahon { bar, floor, .. }) => pairing::mcmahon_start(r, *bar, *floor),
            _ => 0,
        };
        let entrants = self
            .entrants
            .iter()
            .map(|e| {
                let rank = rank_of(&e.rank);
                Entrant {
                    name: e.username.clone(),
                    rank,
                    start: start(rank),
                    category: 0,
                    rating: 0,
                }
            })
            .collect();
        let index = self.index();
        let mut event = Event {
            entrants,
            rounds: self
                .terms
                .total_rounds(self.entrants.len())
                .max(self.row.round as usize),
            games: Vec::new(),
            rests: Vec::new(),
            round_down: true,
            virtual_opponents: false,
        };
        let mut seated = vec![vec![false; event.rounds.max(self.row.round as usize)]; index.len()];
        for p in &self.pairings {
            let round = (p.round - 1) as usize;
            let Some(&white) = index.get(&p.white_id) else {
                continue;
            };
            seated[white][round] = true;
            let Some(black) = p.black_id.and_then(|b| index.get(&b).copied()) else {
                event.rests.push((white, round, BYE));
                continue;
            };
            seated[black][round] = true;
            let (outcome, by_default) = outcome(p.result.as_deref());
            event.games.push(Game {
                round,
                white,
                black,
                handicap: p.handicap as i32,
                outcome,
                by_default,
                colours_known: true,
            });
        }
        for (player, rounds) in seated.iter().enumerate() {
            for round in (0..self.row.round as usize).filter(|&r| !rounds[r]) {
                event.rests.push((player, round, ABSENT));
            }
        }
        Ok(event)
    }

    /// Who plays round `round` (from 1): everyone not withdrawn before it.
    fn present(&self, round: i64) -> Vec<bool> {
        self.entrants
            .iter()
            .map(|e| e.withdrawn_after.is_none_or(|w| w >= round))
            .collect()
    }

    /// The standings' criteria for the event's system.
    fn criteria(&self) -> Vec<Criterion> {
        use Criterion::*;
        match self.terms.system.as_str() {
            "mcmahon" => vec![Mms, Sosm, Sososm],
            "round_robin" => vec![Nbw, Sodosw, Sosw],
            _ => vec![Nbw, Sosw, Sososw],
        }
    }

    /// Whether every game of the current round has a result.
    fn round_over(&self) -> bool {
        self.pairings
            .iter()
            .filter(|p| p.round == self.row.round && p.black_id.is_some())
            .all(|p| p.result.is_some())
    }
}

/// `POST /api/tournaments`: a new event, organised by `user` (a moderator or admin, when the
/// operator says only they organise).
pub async fn create(
    store: &Store,
    hub: &Hub,
    user: &User,
    body: EventTerms,
) -> Result<Created, ApiError> {
    if user.guest {
        return Err(ApiError::Forbidden(
            "guests_cannot_organise",
            "guests cannot organise tournaments".into(),
        ));
    }
    if hub.moderators_only && user.role == Role::Player {
        return Err(ApiError::Forbidden(
            "moderators_organise",
            "on this server only moderators organise tournaments".into(),
        ));
    }
    crate::sanctions::check_may(store, user.id, crate::sanctions::Activity::Tournament).await?;
    body.validate()?;
    let json = serde_json::to_string(&body).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = store
        .insert_tournament(user.id, body.name.trim(), &json, body.starts_at)
        .await?;
    Ok(Created { id })
}

/// `GET /api/tournaments?status=`: events, newest first.
pub async fn list(store: &Store, status: Option<&str>) -> Result<Tournaments, ApiError> {
    let status = match status {
        None => None,
        Some(s) => Some(s.parse::<TournamentStatus>().map_err(|_| {
            bad(format!(
                "unknown status {s:?}; known: open, running, finished"
            ))
        })?),
    };
    let rows = store.tournaments(status, 200).await?;
    let tournaments = rows
        .into_iter()
        .map(|r| {
            // Terms this version cannot read list with their system and size unknown.
            let terms: Value = serde_json::from_str(&r.terms).unwrap_or(Value::Null);
            Listed {
                id: r.id,
                name: r.name,
                round: r.round,
                size: terms["size"].as_u64(),
                starts_at: r.starts_at,
                status: r.status,
                system: terms["system"].as_str().map(str::to_string),
            }
        })
        .collect();
    Ok(Tournaments { tournaments })
}

/// `GET /api/tournaments/{id}`: terms, players, every round's boards and the standings.
pub async fn get(store: &Store, id: i64) -> Result<Tournament, ApiError> {
    let t = load(store, id).await?;
    let owner = accounts::by_id(store, t.row.owner_id).await?;
    let name = |uid: i64| {
        t.entrants
            .iter()
            .find(|e| e.user_id == uid)
            .map(|e| e.username.clone())
    };
    let board = |p: &PairingRow| Board {
        black: p.black_id.and_then(name),
        board: p.board,
        board_result: p.board_result.clone(),
        bye: p.black_id.is_none(),
        correction: p.correction.as_ref().map(|c| BoardCorrection {
            board_result: c.over.clone(),
            // The organiser, who need not play in the event.
            by: c.by.and_then(|b| {
                owner
                    .as_ref()
                    .filter(|o| o.id == b)
                    .map(|o| o.username.clone())
                    .or_else(|| name(b))
            }),
            result: c.result.clone(),
        }),
        game_id: p.game_id,
        handicap: p.handicap,
        result: p.result.clone(),
        white: name(p.white_id),
    };
    let pairings = (1..=t.row.round)
        .map(|r| Round {
            boards: t
                .pairings
                .iter()
                .filter(|p| p.round == r)
                .map(board)
                .collect(),
            round: r,
        })
        .collect();
    let players = t
        .entrants
        .iter()
        .map(|e| Player {
            name: e.username.clone(),
            rank: e.rank.clone(),
            withdrawn_after: e.withdrawn_after,
        })
        .collect();
    let mut log = Vec::new();
    for (at, by, action, detail) in store.tournament_log(id).await? {
        let by = accounts::by_id(store, by).await?.map(|u| u.username);
        log.push(LogLine {
            action,
            at,
            by,
            detail,
        });
    }
    Ok(Tournament {
        id: t.row.id,
        log,
        name: t.row.name.clone(),
        organiser: owner.map(|u| u.username),
        pairings,
        players,
        round: t.row.round,
        rounds: t.terms.total_rounds(t.entrants.len()),
        standings: standings_of(&t)?,
        status: t.row.status,
        terms: t.terms.clone(),
    })
}

fn standings_of(t: &Loaded) -> Result<Standings, ApiError> {
    if t.terms.is_ladder() {
        return Ok(ladder::standings(t));
    }
    if t.row.round == 0 {
        return Ok(Standings {
            criteria: vec![],
            lines: vec![],
        });
    }
    let event = t.event()?;
    let criteria = t.criteria();
    let last = (t.row.round - 1) as usize;
    let lines = event
        .standings(&criteria, last)
        .iter()
        .map(|l| {
            let values = criteria
                .iter()
                .zip(&l.values)
                .map(|(c, v)| c.format(*v))
                .collect();
            let e = &t.entrants[l.player];
            StandingLine {
                name: e.username.clone(),
                place: l.place,
                rank: e.rank.clone(),
                tied: l.tied_above,
                values,
            }
        })
        .collect();
    let criteria = criteria.iter().map(|c| c.short_name()).collect();
    Ok(Standings { criteria, lines })
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire (and what the hub compares and tells) stays byte for byte the same.

/// A new event's id.
#[derive(Debug, Serialize)]
pub struct Created {
    /// Its id.
    pub id: i64,
}

/// Events, newest first.
#[derive(Debug, Serialize)]
pub struct Tournaments {
    /// The events.
    pub tournaments: Vec<Listed>,
}

/// An event as listed.
#[derive(Debug, Serialize)]
pub struct Listed {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The round being played (0 before the start).
    pub round: i64,
    /// The board's size.
    pub size: Option<u64>,
    /// When it starts, seconds since 1970.
    pub starts_at: Option<i64>,
    /// Open, running or finished (the column's word).
    pub status: TournamentStatus,
    /// The pairing system.
    pub system: Option<String>,
}

/// An event: terms, players, every round's boards and the standings.
#[derive(Debug, Serialize)]
pub struct Tournament {
    /// Its id.
    pub id: i64,
    /// What the organiser did, oldest first.
    pub log: Vec<LogLine>,
    /// Its name.
    pub name: String,
    /// Who organises it.
    pub organiser: Option<String>,
    /// Each round's boards.
    pub pairings: Vec<Round>,
    /// The entrants.
    pub players: Vec<Player>,
    /// The round being played.
    pub round: i64,
    /// How many rounds it has.
    pub rounds: usize,
    /// The standings after the last round played.
    pub standings: Standings,
    /// Open, running or finished (the column's word).
    pub status: TournamentStatus,
    /// Its terms.
    #[serde(serialize_with = "crate::wire::sorted")]
    pub terms: EventTerms,
}

/// A line of an event's log.
#[derive(Debug, Serialize)]
pub struct LogLine {
    /// What was done.
    pub action: String,
    /// When, seconds since 1970.
    pub at: i64,
    /// By whom.
    pub by: Option<String>,
    /// The details.
    pub detail: String,
}

/// One round's boards.
#[derive(Debug, Serialize)]
pub struct Round {
    /// Its boards.
    pub boards: Vec<Board>,
    /// Its number, from 1.
    pub round: i64,
}

/// A board of a round.
#[derive(Debug, Serialize)]
pub struct Board {
    /// Black's name (none for a bye).
    pub black: Option<String>,
    /// Its number.
    pub board: i64,
    /// The result the event counts.
    pub board_result: Option<String>,
    /// Whether White has a bye.
    pub bye: bool,
    /// The organiser's correction of the result, if any.
    pub correction: Option<BoardCorrection>,
    /// Its game.
    pub game_id: Option<i64>,
    /// Handicap stones.
    pub handicap: i64,
    /// The game's result.
    pub result: Option<String>,
    /// White's name.
    pub white: Option<String>,
}

/// An organiser's correction of a board's result.
#[derive(Debug, Serialize)]
pub struct BoardCorrection {
    /// The result the event counts now.
    pub board_result: Option<String>,
    /// Who corrected it.
    pub by: Option<String>,
    /// The result as corrected.
    pub result: String,
}

/// An entrant.
#[derive(Debug, Serialize)]
pub struct Player {
    /// Their name.
    pub name: String,
    /// Their rank.
    pub rank: String,
    /// The round after which they withdrew.
    pub withdrawn_after: Option<i64>,
}

/// An event's standings.
#[derive(Debug, Serialize)]
pub struct Standings {
    /// The criteria's short names.
    pub criteria: Vec<&'static str>,
    /// One line per player, best first.
    pub lines: Vec<StandingLine>,
}

/// A player's line in the standings.
#[derive(Debug, Serialize)]
pub struct StandingLine {
    /// Their name.
    pub name: String,
    /// Their place.
    pub place: usize,
    /// Their rank.
    pub rank: String,
    /// Whether they tie with the line above.
    pub tied: bool,
    /// Each criterion's value, formatted.
    pub values: Vec<String>,
}

/// A step done: `{"registered": true}` and the like.
#[derive(Debug, Serialize)]
pub struct Registered {
    /// Always true.
    pub registered: bool,
}

/// A registration withdrawn.
#[derive(Debug, Serialize)]
pub struct Withdrawn {
    /// Always true.
    pub withdrawn: bool,
}

/// A result corrected.
#[derive(Debug, Serialize)]
pub struct Corrected {
    /// Always true.
    pub corrected: bool,
}

/// `GET /api/tournaments/{id}/h9`: the event as an EGF h9 results file.
pub async fn h9_file(store: &Store, id: i64) -> Result<String, ApiError> {
    let t = load(store, id).await?;
    let event = t.event()?;
    let file = h9::H9 {
        origins: vec![("XX".into(), "xxxx".into()); event.entrants.len()],
        pins: vec![None; event.entrants.len()],
        criteria: t.criteria(),
        preamble: vec![
            "; CL[D]".into(),
            format!("; EV[{}]", t.row.name),
            format!("; KM[{}]", t.terms.komi.clone().unwrap_or_default()),
            "; Generated by Tengen".into(),
            ";".into(),
        ],
        short: false,
        event,
    };
    Ok(h9::write(&file))
}

/// `POST /api/tournaments/{id}/register`.
pub async fn register(store: &Store, user: &User, id: i64) -> Result<Registered, ApiError> {
    let t = load(store, id).await?;
    let open = t.row.status == TournamentStatus::Open
        || (t.terms.late_entries() && t.row.status == TournamentStatus::Running);
    if !open {
        return Err(ApiError::Conflict(
            "registration_closed",
            "the tournament has started".into(),
        ));
    }
    if user.guest {
        return Err(ApiError::Forbidden(
            "guests_cannot_register",
            "make an account to play in tournaments".into(),
        ));
    }
    crate::sanctions::check_may(store, user.id, crate::sanctions::Activity::Tournament).await?;
    let rank = rank_of(&user.rank.to_string());
    let limit = |r: &Option<String>| r.as_deref().map(parse_rank).transpose();
    if limit(&t.terms.min_rank)?.is_some_and(|min| rank < min)
        || limit(&t.terms.max_rank)?.is_some_and(|max| rank > max)
    {
        return Err(ApiError::Rejected(
            "rank_outside_limits",
            "your rank is outside the tournament's limits".into(),
        ));
    }
    if t.entrants.len() >= t.terms.max_players as usize {
        return Err(ApiError::Conflict(
            "tournament_full",
            "the tournament is full".into(),
        ));
    }
    if !store
        .register_entrant(id, user.id, &user.rank.to_string())
        .await?
    {
        return Err(ApiError::Conflict(
            "already_registered",
            "you are already registered".into(),
        ));
    }
    Ok(Registered { registered: true })
}

/// `POST /api/tournaments/{id}/withdraw`: before the start, the registration goes; after it,
/// the player is absent from the next round on.
pub async fn withdraw(store: &Store, user: &User, id: i64) -> Result<Withdrawn, ApiError> {
    let t = load(store, id).await?;
    let done = match t.row.status {
        TournamentStatus::Open => store.unregister_entrant(id, user.id).await?,
        TournamentStatus::Running => store.withdraw_entrant(id, user.id, t.row.round).await?,
        TournamentStatus::Finished => false,
    };
    if !done {
        return Err(ApiError::Conflict(
            "not_registered",
            "you are not playing in this tournament".into(),
        ));
    }
    Ok(Withdrawn { withdrawn: true })
}

/// `POST /api/tournaments/{id}/start`: the organiser starts the event now (round 1 is paired).
pub async fn start(
    store: &Store,
    games: &Games,
    user: &User,
    id: i64,
) -> Result<Tournament, ApiError> {
    let t = load(store, id).await?;
    organiser_only(&t, user)?;
    if t.row.status != TournamentStatus::Open {
        return Err(ApiError::Conflict(
            "already_started",
            "the tournament has started".into(),
        ));
    }
    if t.entrants.len() < 2 {
        return Err(ApiError::Rejected(
            "too_few_players",
            "a tournament needs two players".into(),
        ));
    }
    if t.terms.is_ladder() {
        store.open_ladder(id).await?;
        return get(store, id).await;
    }
    Box::pin(pair_next(store, games, &t)).await?;
    get(store, id).await
}

/// The body of a result correction.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Correction {
    /// The round, from 1.
    pub round: i64,
    /// The board, from 1.
    pub board: i64,
    /// `B+`, `W+`, `0` (jigo) or `Void`.
    pub result: String,
    /// Why (logged).
    pub reason: String,
}

/// `POST /api/tournaments/{id}/results`: the organiser corrects a board's result.
pub async fn correct(
    store: &Store,
    user: &User,
    id: i64,
    body: Correction,
) -> Result<Corrected, ApiError> {
    let t = load(store, id).await?;
    organiser_only(&t, user)?;
    let result = match body.result.as_str() {
        "B+" | "B+R" => "B+R",
        "W+" | "W+R" => "W+R",
        "B+F" => "B+F",
        "W+F" => "W+F",
        "0" => "0",
        "Void" => "Void",
        other => {
            return Err(bad(format!(
                "result {other:?}: B+, W+, B+F, W+F, 0 or Void"
            )))
        }
    };
    if body.reason.trim().is_empty() {
        return Err(bad("a reason is required"));
    }
    let board = t
        .pairings
        .iter()
        .find(|p| p.round == body.round && p.board == body.board && p.black_id.is_some())
        .ok_or(ApiError::NotFound)?;
    may_correct(board, user)?;
    if !store
        .correct_result(
            id,
            body.round,
            body.board,
            result,
            user.id,
            body.reason.trim(),
        )
        .await?
    {
        return Err(ApiError::NotFound);
    }
    Ok(Corrected { corrected: true })
}

/// No one overrules the board: a result is corrected only once its game is over (or for a
/// game never played), and never by one of its players, organiser or not.
fn may_correct(board: &PairingRow, user: &User) -> Result<(), ApiError> {
    if board.white_id == user.id || board.black_id == Some(user.id) {
        return Err(ApiError::Forbidden(
            "own_game",
            "an organiser cannot correct the result of a game they play".into(),
        ));
    }
    if board.playing {
        return Err(ApiError::Conflict(
            "game_in_progress",
            "the game is still being played: its result comes from the board".into(),
        ));
    }
    Ok(())
}

pub(crate) fn organiser_only(t: &Loaded, user: &User) -> Result<(), ApiError> {
    if t.row.owner_id != user.id {
        return Err(ApiError::Forbidden(
            "not_organiser",
            "only the organiser may do this".into(),
        ));
    }
    Ok(())
}

/// Pairs the event's next round and starts its games; finishes the event after its last.
async fn pair_next(store: &Store, games: &Games, t: &Loaded) -> Result<(), ApiError> {
    let next = t.row.round + 1;
    if next as usize > t.terms.total_rounds(t.entrants.len()) {
        store.finish_tournament(t.row.id).await?;
        return Ok(());
    }
    let event = t.event()?;
    let seed = t.terms.seed.unwrap_or(t.row.id as u64);
    let pairing = pairing::pair(
        &event,
        &t.terms.system()?,
        (next - 1) as usize,
        &t.present(next),
        seed,
    )
    .map_err(|e| ApiError::Rejected(e.code(), e.to_string()))?;
    let uid = |i: usize| t.entrants[i].user_id;
    let mut boards = Vec::new();
    let mut terms = Vec::new();
    for g in &pairing.games {
        let game_terms = t.terms.game_terms(g.handicap)?;
        boards.push(NewBoard {
            white_id: uid(g.white),
            black_id: Some(uid(g.black)),
            handicap: i64::from(game_terms.handicap),
            terms: serde_json::to_string(&game_terms)
                .map_err(|e| ApiError::Internal(e.to_string()))?,
        });
        terms.push(Some(game_terms));
    }
    // A bye, a seed through a knockout's first round, and a round robin player whose opponent
    // is absent each score a point without a game.
    let rests = pairing
        .bye
        .iter()
        .chain(&pairing.through)
        .chain(&pairing.idle);
    for &player in rests {
        boards.push(NewBoard {
            white_id: uid(player),
            black_id: None,
            handicap: 0,
            terms: String::new(),
        });
        terms.push(None);
    }
    let Some(ids) = store.pair_round(t.row.id, next, &boards).await? else {
        return Ok(()); // Paired already, elsewhere.
    };
    crate::metrics::ROUNDS_PAIRED.inc();
    for ((board, game_id), terms) in boards.iter().zip(ids).zip(terms) {
        let (Some(game_id), Some(terms), Some(black)) = (game_id, terms, board.black_id) else {
            continue;
        };
        start_game(store, games, game_id, terms, black, board.white_id).await?;
    }
    tracing::info!(tournament = t.row.id, round = next, "round paired");
    Ok(())
}

/// Hands a stored game to the live registry.
pub(crate) async fn start_game(
    store: &Store,
    games: &Games,
    game_id: i64,
    terms: Terms,
    black: i64,
    white: i64,
) -> Result<(), ApiError> {
    let user = |id| async move {
        accounts::by_id(store, id)
            .await?
            .ok_or(ApiError::Internal(format!("player {id} vanished")))
    };
    let (black, white) = (user(black).await?, user(white).await?);
    games
        .start(game_id, terms, [black.player(), white.player()])
        .await?;
    Ok(())
}

/// Does every step that is due: starts events whose start time has come, pairs the next round
/// of events whose round has ended, finishes events after their last round. Each step is safe
/// to repeat, here or on another node.
pub async fn tick(store: &Store, games: &Games, hub: &Hub) -> Result<(), ApiError> {
    let now = tengen_store::games::now();
    for status in [TournamentStatus::Open, TournamentStatus::Running] {
        let rows = store.tournaments(Some(status), 1000).await?;
        let gauge = match status {
            TournamentStatus::Open => &crate::metrics::TOURNAMENTS_OPEN,
            _ => &crate::metrics::TOURNAMENTS_RUNNING,
        };
        gauge.set(rows.len() as i64);
        for row in rows {
            let t = load(store, row.id).await?;
            // Round r's own time, if it has one, must have come too.
            let next_time = t.terms.round_starts.get(row.round as usize).copied();
            let time_come = next_time.is_none_or(|at| at <= now);
            // The event as loaded now, not as listed: another node may have paired its first
            // round in between, and the listing's "open" would pair the second at once (seen
            // under load by `a_round_is_paired_once_by_two_nodes`).
            let due = match t.row.status {
                _ if t.terms.is_ladder() => false,
                TournamentStatus::Open => {
                    let start = row.starts_at.or(next_time);
                    start.is_some_and(|s| s <= now) && time_come && t.entrants.len() >= 2
                }
                TournamentStatus::Running => t.round_over() && time_come,
                TournamentStatus::Finished => false,
            };
            if due {
                // Boxed: a round's start is a deep future, kept off the caller's stack.
                if let Err(e) = Box::pin(pair_next(store, games, &t)).await {
                    tracing::warn!(tournament = row.id, error = %e, "tournament step failed");
                }
            }
            hub.publish(store, row.id).await?;
        }
    }
    Ok(())
}

/// Runs [`tick`] every [`TICK`] for as long as the process lives.
pub fn run(store: Store, games: Games, hub: Hub) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(TICK);
        loop {
            every.tick().await;
            if let Err(e) = tick(&store, &games, &hub).await {
                tracing::warn!(error = %e, "tournaments tick failed");
            }
        }
    });
}
