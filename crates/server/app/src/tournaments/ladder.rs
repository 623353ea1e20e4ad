//! Ladders: players stand in a line (in the order they joined); one may challenge a player up
//! to `reach` places above; a challenger who wins takes the defender's place, and those between
//! move down one. A ladder has no rounds: its challenges are numbered as rounds are, so that the
//! store's round compare-and-set makes each one once, and the line is the join order replayed
//! through the finished challenges in their order (nothing else is stored, so nothing can
//! disagree).

use serde::{Deserialize, Serialize};
use tengen_tournament::pairing::Ladder;
use tengen_tournament::standings::Outcome;

use super::{load, organiser_only, outcome, start_game, Loaded, StandingLine, Standings};
use crate::accounts::User;
use crate::error::ApiError;
use tengen_live::registry::Games;
use tengen_store::tournaments::{NewBoard, TournamentStatus};
use tengen_store::Store;

/// The body of a challenge.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// The player challenged.
    pub opponent: String,
}

/// The line now: players' indexes, best first (withdrawn players left out).
fn line(t: &Loaded) -> Ladder {
    let mut ladder = Ladder::new((0..t.entrants.len()).collect());
    let index = t.index();
    let mut finished: Vec<_> = t.pairings.iter().filter(|p| p.result.is_some()).collect();
    finished.sort_by_key(|p| p.round);
    for p in finished {
        let (Some(&defender), Some(challenger)) = (
            index.get(&p.white_id),
            p.black_id.and_then(|b| index.get(&b).copied()),
        ) else {
            continue;
        };
        let won = outcome(p.result.as_deref()).0 == Outcome::BlackWins;
        // A challenge made from a line that later results changed still counts when it can.
        let _ = ladder.record(challenger, defender, won);
    }
    let out: Vec<usize> = ladder
        .order()
        .iter()
        .copied()
        .filter(|&p| t.entrants[p].withdrawn_after.is_none())
        .collect();
    Ladder::new(out)
}

/// The ladder as standings: a place each, no criteria.
pub(super) fn standings(t: &Loaded) -> Standings {
    let lines = line(t)
        .order()
        .iter()
        .enumerate()
        .map(|(i, &p)| {
            let e = &t.entrants[p];
            StandingLine {
                name: e.username.clone(),
                place: i + 1,
                rank: e.rank.clone(),
                tied: false,
                values: vec![],
            }
        })
        .collect();
    Standings {
        criteria: vec![],
        lines,
    }
}

/// `POST /api/tournaments/{id}/challenge` `{"opponent": NAME}`: a ladder game, the challenger
/// Black, as soon as both are free.
pub async fn challenge(
    store: &Store,
    games: &Games,
    user: &User,
    id: i64,
    body: Challenge,
) -> Result<Challenged, ApiError> {
    let t = load(store, id).await?;
    if !t.terms.is_ladder() || t.row.status != TournamentStatus::Running {
        return Err(ApiError::Conflict(
            "no_running_ladder",
            "challenges are for a running ladder".into(),
        ));
    }
    let find = |name: &str| {
        t.entrants
            .iter()
            .position(|e| e.username.eq_ignore_ascii_case(name) && e.withdrawn_after.is_none())
    };
    let (Some(me), Some(them)) = (find(&user.username), find(&body.opponent)) else {
        return Err(ApiError::Rejected(
            "not_on_ladder",
            "both players must be on the ladder".into(),
        ));
    };
    if !line(&t).can_challenge(me, them, t.terms.reach as usize) {
        return Err(ApiError::Rejected(
            "cannot_challenge",
            format!("you may challenge up to {} places above you", t.terms.reach),
        ));
    }
    let busy = |uid: i64| {
        t.pairings
            .iter()
            .any(|p| p.result.is_none() && (p.white_id == uid || p.black_id == Some(uid)))
    };
    let (me_id, them_id) = (t.entrants[me].user_id, t.entrants[them].user_id);
    if busy(me_id) || busy(them_id) {
        return Err(ApiError::Conflict(
            "challenge_pending",
            "one of you is still playing a ladder game".into(),
        ));
    }
    let terms = t.terms.game_terms(0)?;
    let board = NewBoard {
        white_id: them_id,
        black_id: Some(me_id),
        handicap: 0,
        terms: serde_json::to_string(&terms).map_err(|e| ApiError::Internal(e.to_string()))?,
    };
    let number = t.row.round + 1;
    let Some(ids) = store.pair_round(id, number, &[board]).await? else {
        return Err(ApiError::Conflict(
            "try_again",
            "another challenge was made at the same moment; try again".into(),
        ));
    };
    let game_id = ids
        .first()
        .copied()
        .flatten()
        .ok_or(ApiError::Internal("no game".into()))?;
    crate::metrics::ROUNDS_PAIRED.inc();
    start_game(store, games, game_id, terms, me_id, them_id).await?;
    Ok(Challenged {
        challenge: number,
        game_id,
    })
}

/// `POST /api/tournaments/{id}/finish`: the organiser closes a ladder (its line stays).
pub async fn finish(store: &Store, user: &User, id: i64) -> Result<Finished, ApiError> {
    let t = load(store, id).await?;
    organiser_only(&t, user)?;
    if !t.terms.is_ladder() || !store.finish_tournament(id).await? {
        return Err(ApiError::Conflict(
            "not_a_running_ladder",
            "only a running ladder is finished by hand; other events finish after their last round"
                .into(),
        ));
    }
    Ok(Finished { finished: true })
}

/// A ladder game started by a challenge (fields in alphabetical order, as the `json!` object
/// it replaces wrote them).
#[derive(Debug, Serialize)]
pub struct Challenged {
    /// The challenge's number (the ladder's "round").
    pub challenge: i64,
    /// The game.
    pub game_id: i64,
}

/// A ladder closed.
#[derive(Debug, Serialize)]
pub struct Finished {
    /// Always true.
    pub finished: bool,
}
