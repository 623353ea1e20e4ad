//! The review board: any finished game (or an uploaded SGF) opened as a tree that its owner
//! explores (moves, variations, comments) while others follow live, with the engine's analysis
//! of the main line computed in the background. All of it over HTTP under `/api/reviews`:
//! followers long-poll `GET /api/reviews/{id}?after=VERSION`, which answers as soon as the
//! review changes.
//!
//! The tree is stored as SGF text (with its variations and comments) and the owner's cursor as
//! a path, after every edit; the analysis when it completes. Each stored change raises the
//! review's stored `version`: an edit is written only over the version it was made from, so
//! that in a cluster, where the owner and the followers may reach different nodes, a node
//! whose copy is behind reloads it (each request checks the stored version there) and two
//! edits never overwrite each other.

pub mod analysis;
pub mod chat;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Move};
use tengen_store::Store;
use tokio::sync::watch;

use crate::accounts;
use crate::accounts::User;
use crate::engines::Engines;
use crate::error::ApiError;
use tengen_core::review_tree::{EditError, ReviewTree};

// The views' fields are in alphabetical order, as the `json!` objects they replace wrote them:
// the wire stays byte for byte the same.

/// A review as its followers see it.
#[derive(Debug, Serialize)]
pub struct ReviewView {
    /// The analysis running, the one stored, or `{"state": "none"}`.
    pub analysis: AnalysisView,
    /// The chat's last lines.
    pub chat: Vec<chat::ChatLine>,
    /// The node shown, as a path of child indexes from the root.
    pub cursor: Vec<usize>,
    /// The finished game it reviews, if one.
    pub game: Option<i64>,
    /// Its id.
    pub id: i64,
    /// Positions on the main line.
    pub main_line: usize,
    /// The tree, as `ReviewTree::to_json` writes it.
    pub nodes: Value,
    /// Who leads it.
    pub owner: String,
    /// Where its record is.
    pub sgf: String,
    /// Its version, raised by each change.
    pub version: u64,
}

/// A review's analysis: as it runs, or as stored (an older version's stored analysis reads
/// back as it was written).
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum AnalysisView {
    /// Running now.
    Running(analysis::ProgressView),
    /// Stored once finished (or `{"state": "none"}`).
    Stored(Value),
}

/// How long a follower's request waits for a change.
const LONG_POLL: Duration = Duration::from_secs(25);
/// Largest uploaded record.
const MAX_SGF: usize = 60 * 1024;

/// A review in memory.
struct Live {
    inner: tokio::sync::Mutex<Review>,
    version: watch::Sender<u64>,
    progress: Arc<Mutex<analysis::Progress>>,
    /// When each player wrote their last chat lines here (the rate limit).
    chat_sent: Mutex<HashMap<i64, std::collections::VecDeque<tokio::time::Instant>>>,
}

struct Review {
    id: i64,
    owner_id: i64,
    owner: String,
    game_id: Option<i64>,
    tree: ReviewTree,
    cursor: Vec<usize>,
    /// The stored analysis, once one completed.
    analysis: Option<Value>,
    /// The chat's last lines (`chat::say`).
    chat: Vec<chat::ChatLine>,
    /// The stored version this copy was read at or written as.
    stored: i64,
}

/// The reviews this node has loaded, over the database that keeps them.
#[derive(Clone)]
pub struct Reviews {
    live: Arc<Mutex<HashMap<i64, Arc<Live>>>>,
    store: Store,
    /// What the analyses search with.
    engines: Engines,
    /// In a cluster another node may change a review: the stored version is read again.
    clustered: bool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Reviews {
    /// No review loaded yet, analysed with `engines`; `clustered` when other nodes share
    /// `store`.
    pub fn new(store: Store, engines: Engines, clustered: bool) -> Reviews {
        Reviews {
            live: Arc::default(),
            store,
            engines,
            clustered,
        }
    }

    async fn get(&self, id: i64) -> Result<Arc<Live>, ApiError> {
        if let Some(l) = lock(&self.live).get(&id) {
            return Ok(l.clone());
        }
        let review = load(&self.store, id).await?;
        let live = Arc::new(Live {
            inner: tokio::sync::Mutex::new(review),
            version: watch::channel(1).0,
            progress: Arc::default(),
            chat_sent: Mutex::default(),
        });
        // Two requests loading at once: the first one in wins, both use it.
        Ok(lock(&self.live).entry(id).or_insert(live).clone())
    }
}

/// Reads review `id` from the database.
async fn load(store: &Store, id: i64) -> Result<Review, ApiError> {
    let row = store.review(id).await?.ok_or(ApiError::NotFound)?;
    // A stored record that cannot be read, or that is past the tree's limits (stored before
    // they existed), opens as an error that names it, never as a crash.
    let tree = tengen_sgf::parse_str(&row.sgf)
        .ok()
        .and_then(|c| c.games.first().map(ReviewTree::from_sgf))
        .ok_or_else(|| {
            ApiError::Conflict(
                "review_unreadable",
                format!("review {id} has no readable record"),
            )
        })?
        .map_err(|e| ApiError::Conflict(e.code(), format!("review {id}: {e}")))?;
    let owner_id = row.owner_id;
    let owner = accounts::by_id(store, owner_id)
        .await?
        .map(|u| u.username)
        .unwrap_or_default();
    Ok(Review {
        id,
        owner_id,
        owner,
        game_id: row.game_id,
        tree,
        cursor: serde_json::from_str(&row.cursor).unwrap_or_default(),
        analysis: row.analysis.and_then(|a| serde_json::from_str(&a).ok()),
        chat: serde_json::from_str(&row.chat).unwrap_or_default(),
        stored: row.version,
    })
}

/// In a cluster, brings `live` up to the stored version if another node changed the review
/// (one small query); alone, this node's copy is always the latest.
async fn refresh(reviews: &Reviews, live: &Live, r: &mut Review) -> Result<(), ApiError> {
    if !reviews.clustered {
        return Ok(());
    }
    let stored = reviews.store.review_version(r.id).await?;
    if stored != r.stored {
        *r = load(&reviews.store, r.id).await?;
        live.version.send_modify(|v| *v += 1);
    }
    Ok(())
}

impl Review {
    fn view(&self, version: u64, progress: &analysis::Progress) -> ReviewView {
        let analysis = if progress.total > 0 && !progress.finished {
            AnalysisView::Running(progress.view())
        } else {
            AnalysisView::Stored(
                self.analysis
                    .clone()
                    .unwrap_or_else(|| json!({ "state": "none" })),
            )
        };
        ReviewView {
            analysis,
            chat: self.chat.clone(),
            cursor: self.cursor.clone(),
            game: self.game_id,
            id: self.id,
            main_line: self.tree.main_line_len(),
            nodes: self.tree.to_json(),
            owner: self.owner.clone(),
            sgf: format!("/api/reviews/{}/sgf", self.id),
            version,
        }
    }

    fn sgf(&self) -> String {
        tengen_sgf::write_game(&self.tree.to_sgf())
    }
}

/// Stores `r` over the version it was made from, raising it; `review_changed` when another
/// node stored a change meanwhile (the caller's copy is then reloaded).
async fn save(store: &Store, r: &mut Review) -> Result<(), ApiError> {
    let cursor = serde_json::to_string(&r.cursor).unwrap_or_default();
    let saved = store.save_review(r.id, r.stored, &r.sgf(), &cursor).await?;
    if !saved {
        return Err(ApiError::Conflict(
            "review_changed",
            "the review changed meanwhile; look again and retry".into(),
        ));
    }
    r.stored += 1;
    Ok(())
}

fn now() -> i64 {
    tengen_store::games::now()
}

/// What a review is made from: a finished game or an SGF record.
#[derive(Deserialize)]
pub struct CreateBody {
    /// A finished game's id.
    #[serde(default)]
    pub game: Option<i64>,
    /// An SGF record.
    #[serde(default)]
    pub sgf: Option<String>,
}

/// `POST /api/reviews` `{"game": ID}` or `{"sgf": TEXT}`: a new review, led by its creator.
pub async fn create(reviews: &Reviews, user: &User, b: CreateBody) -> Result<ReviewView, ApiError> {
    let (sgf, game_id) = match (b.game, b.sgf) {
        (Some(id), None) => {
            let (text, finished) = crate::records::game_record(&reviews.store, id).await?;
            if !finished {
                return Err(ApiError::Conflict(
                    "game_live",
                    "a game is reviewed once it is over".into(),
                ));
            }
            (text, Some(id))
        }
        (None, Some(text)) => {
            if text.len() > MAX_SGF {
                return Err(ApiError::TooLarge(MAX_SGF));
            }
            // The same reading as /api/sgf/import: a record that stands for a position.
            crate::records::read(text.as_bytes(), None)?;
            (text, None)
        }
        _ => {
            return Err(ApiError::Rejected(
                "bad_review",
                "give either a finished game's id or an SGF record".into(),
            ))
        }
    };
    // Stored as the tree reads it (the first game of a collection).
    let tree = tengen_sgf::parse_str(&sgf)
        .ok()
        .and_then(|c| c.games.first().map(ReviewTree::from_sgf))
        .ok_or_else(|| ApiError::Rejected("sgf_syntax", "the record cannot be read".into()))?
        .map_err(|e| ApiError::Rejected(e.code(), e.to_string()))?;
    let text = tengen_sgf::write_game(&tree.to_sgf());
    let id = reviews
        .store
        .insert_review(user.id, game_id, &text, now())
        .await?;
    let live = reviews.get(id).await?;
    let r = live.inner.lock().await;
    let body = r.view(*live.version.borrow(), &lock(&live.progress));
    Ok(body)
}

/// `GET /api/reviews/{id}` (`?after=VERSION` waits up to 25 s for a newer version).
pub async fn get(reviews: &Reviews, id: i64, after: Option<u64>) -> Result<ReviewView, ApiError> {
    let live = reviews.get(id).await?;
    refresh(reviews, &live, &mut *live.inner.lock().await).await?;
    if let Some(after) = after {
        let mut rx = live.version.subscribe();
        // A version this node never had (it restarted, or the client asked another node)
        // answers at once. In a cluster a change stored by another node is looked for every
        // second; alone, the change wakes the wait.
        let step = if reviews.clustered {
            Duration::from_secs(1)
        } else {
            LONG_POLL
        };
        let until = tokio::time::Instant::now() + LONG_POLL;
        while *rx.borrow_and_update() == after && tokio::time::Instant::now() < until {
            let _ = tokio::time::timeout(step, rx.changed()).await;
            refresh(reviews, &live, &mut *live.inner.lock().await).await?;
        }
    }
    let r = live.inner.lock().await;
    let version = *live.version.borrow();
    let body = r.view(version, &lock(&live.progress));
    Ok(body)
}

/// `GET /api/reviews/{id}/sgf`: the tree with its variations and comments.
pub async fn sgf(reviews: &Reviews, id: i64) -> Result<String, ApiError> {
    let live = reviews.get(id).await?;
    let mut r = live.inner.lock().await;
    refresh(reviews, &live, &mut r).await?;
    Ok(r.sgf())
}

/// An edit by the review's owner.
#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Edit {
    /// Play at `point` (GTP vertex or `pass`) after the node at `path`; the cursor goes there.
    Play {
        /// The node played after.
        path: Vec<usize>,
        /// The point, or `pass`.
        point: String,
    },
    /// Set the comment of the node at `path` (empty removes it).
    Comment {
        /// The node.
        path: Vec<usize>,
        /// Its comment.
        text: String,
    },
    /// Move the cursor that followers see.
    Navigate {
        /// The node the cursor goes to.
        path: Vec<usize>,
    },
    /// Mark `point` at the node at `path` with SGF markup (`LB` with `label`, `TR`, `SQ`,
    /// `CR`, `MA`): the same mark again removes it.
    Mark {
        /// The node.
        path: Vec<usize>,
        /// `LB`, `TR`, `SQ`, `CR` or `MA`.
        kind: String,
        /// The point, a vertex such as `D4`.
        point: String,
        /// A label's text (1 to 4 characters).
        #[serde(default)]
        label: Option<String>,
    },
    /// Remove the node at `path` and what follows it.
    Delete {
        /// The first node removed.
        path: Vec<usize>,
    },
}

/// `POST /api/reviews/{id}/edits`: the owner moves, comments, marks, navigates or deletes; everyone
/// following sees it at once. Others get 403 `not_owner`.
pub async fn edit(
    reviews: &Reviews,
    user: &User,
    id: i64,
    e: Edit,
) -> Result<ReviewView, ApiError> {
    let live = reviews.get(id).await?;
    let mut r = live.inner.lock().await;
    refresh(reviews, &live, &mut r).await?;
    if r.owner_id != user.id {
        return Err(ApiError::Forbidden(
            "not_owner",
            "only the review's owner leads it; follow along".into(),
        ));
    }
    let refused = |e: EditError| ApiError::Rejected(e.code(), e.to_string());
    let mut next = r.clone_tree();
    let cursor = match e {
        Edit::Play { path, point } => {
            let game = next.tree.position(&path).map_err(refused)?;
            let size = game.size();
            let mv = if point.eq_ignore_ascii_case("pass") {
                Move::Pass
            } else {
                Move::Play(
                    gtp::parse_point(size, &point)
                        .map_err(|e| ApiError::Rejected("illegal_move", e.to_string()))?,
                )
            };
            let color: Color = game.to_move();
            next.tree.play(&path, color, mv).map_err(refused)?
        }
        Edit::Comment { path, text } => {
            if text.chars().count() > 2_000 {
                return Err(ApiError::Rejected(
                    "bad_comment",
                    "a comment has at most 2,000 characters".into(),
                ));
            }
            next.tree.comment(&path, &text).map_err(refused)?;
            path
        }
        Edit::Navigate { path } => {
            next.tree
                .node(&path)
                .ok_or(ApiError::Rejected("no_node", "no node at that path".into()))?;
            path
        }
        Edit::Mark {
            path,
            kind,
            point,
            label,
        } => {
            next.tree
                .mark(&path, &kind.to_ascii_uppercase(), &point, label.as_deref())
                .map_err(refused)?;
            path
        }
        Edit::Delete { path } => {
            next.tree.delete(&path).map_err(refused)?;
            path[..path.len().saturating_sub(1)].to_vec()
        }
    };
    next.cursor = cursor;
    // Stored first; only then the change is made and told.
    if let Err(e) = save(&reviews.store, &mut next).await {
        if let Ok(fresh) = load(&reviews.store, id).await {
            *r = fresh;
            live.version.send_modify(|v| *v += 1);
        }
        return Err(e);
    }
    r.tree = next.tree;
    r.cursor = next.cursor;
    r.stored = next.stored;
    live.version.send_modify(|v| *v += 1);
    let body = r.view(*live.version.borrow(), &lock(&live.progress));
    Ok(body)
}

impl Review {
    fn clone_tree(&self) -> Review {
        Review {
            id: self.id,
            owner_id: self.owner_id,
            owner: self.owner.clone(),
            game_id: self.game_id,
            tree: self.tree.clone(),
            cursor: self.cursor.clone(),
            analysis: None,
            chat: self.chat.clone(),
            stored: self.stored,
        }
    }
}

/// An analysis request.
#[derive(Deserialize, Default)]
pub struct AnalysisBody {
    /// Visits a position (the net's; playouts for the Monte Carlo engine), 100 by default.
    #[serde(default, alias = "playouts")]
    pub visits: Option<u32>,
}

/// `POST /api/reviews/{id}/analysis`: starts the engine's analysis of the main line in the
/// background (202); progress and results come with the review. Anyone following may ask;
/// one runs at a time per review.
pub async fn analyse(
    reviews: &Reviews,
    id: i64,
    body: AnalysisBody,
) -> Result<ReviewView, ApiError> {
    let visits = body.visits.unwrap_or(analysis::DEFAULT_VISITS);
    if !(1..=analysis::MAX_VISITS).contains(&visits) {
        return Err(ApiError::Rejected(
            "bad_visits",
            format!("1 to {} visits a position", analysis::MAX_VISITS),
        ));
    }
    let live = reviews.get(id).await?;
    {
        let p = lock(&live.progress);
        if p.total > 0 && !p.finished {
            return Err(ApiError::Conflict(
                "analysis_running",
                "this review is being analysed".into(),
            ));
        }
    }
    let positions = {
        let mut r = live.inner.lock().await;
        refresh(reviews, &live, &mut r).await?;
        if r.tree.main_line_len() > analysis::MAX_POSITIONS {
            return Err(ApiError::Rejected(
                "line_too_long",
                format!(
                    "the analysis covers main lines of at most {} positions",
                    analysis::MAX_POSITIONS
                ),
            ));
        }
        r.tree
            .main_line_positions()
            .map_err(|e| ApiError::Rejected(e.code(), e.to_string()))?
    };
    let (told, stored) = (live.clone(), live.clone());
    let store = reviews.store.clone();
    let rt = tokio::runtime::Handle::current();
    analysis::spawn(
        &reviews.engines,
        positions,
        visits,
        live.progress.clone(),
        move || told.version.send_modify(|v| *v += 1),
        move |result| {
            rt.spawn(async move {
                let text = serde_json::to_string(&result).unwrap_or_default();
                let mut r = stored.inner.lock().await;
                let saved = store.save_review_analysis(id, &text).await;
                match saved {
                    // The analysis does not change the tree: this copy stays current unless
                    // another node wrote meanwhile (then the next request reloads it).
                    Ok(_) => r.stored += 1,
                    Err(e) => {
                        tracing::error!(review = id, error = %e, "could not store an analysis")
                    }
                }
                r.analysis = serde_json::from_str(&text).ok();
                drop(r);
                stored.version.send_modify(|v| *v += 1);
            });
        },
    );
    live.version.send_modify(|v| *v += 1);
    let r = live.inner.lock().await;
    let body = r.view(*live.version.borrow(), &lock(&live.progress));
    Ok(body)
}
