//! KataGo's neural networks inside Tengen, on the CPU: read a model, compute KataGo's input
//! features for a game under KataGo's rules, run the network (batched, any of the 8
//! symmetries, cached), and post-process its outputs exactly as KataGo does, so that
//! `kata-raw-nn` prints KataGo's numbers for the same net, position and rules.
//!
//! ```
//! use tengen_ai::nn::{Evaluator, History, KataRules, Model};
//! use tengen_rules::{Game, Handicap, Preset};
//!
//! let eval = Evaluator::new(Model::builtin().unwrap());
//! let game = Game::new(9, Preset::Chinese.rules(9), Handicap::None).unwrap();
//! let history = History::new(&game, KataRules::parse("chinese").unwrap());
//! let e = eval.evaluate(&history, 0).unwrap();
//! assert!((e.white_win + e.white_loss + e.no_result - 1.0).abs() < 1e-6);
//! ```
//!
//! Layout:
//! - [`model`]: the `.bin.gz` format, versions 8 to 17, the built-in g170 b6c96 net.
//! - [`forward`]: the forward pass (im2col and sgemm; attention for transformer blocks),
//!   batches of one board size;
//!   [`winograd`]: its 3x3 convolutions by Winograd's F(2x2, 3x3).
//! - [`rules`]: KataGo's rules and names, and the nearest for each Tengen rule set.
//! - [`history`]: a game replayed as KataGo's `BoardHistory` (superko bans, passes, komi).
//! - [`features`]: the V7 input features; [`ladders`] and [`area`] compute two of them as
//!   KataGo does.
//! - [`eval`]: symmetries, post-processing, batches and the cache.
//! - [`search`]: the PUCT search; [`levels`]: the bots' strength levels on it.
//!
//! Sources: KataGo (github lightvector/KataGo, MIT), `cpp/neuralnet/desc.cpp`,
//! `nninputs.cpp`, `nneval.cpp`, `eigenbackend.cpp`, `cpp/game/rules.cpp`, `boardhistory.cpp`,
//! `board.cpp`; docs/engine.md says what is supported.

pub mod area;
pub mod eval;
pub mod features;
pub mod forward;
mod gemm;
pub mod history;
pub mod human;
pub mod ladders;
pub mod levels;
pub mod model;
pub mod rules;
pub mod search;
pub mod winograd;

use std::ops::RangeInclusive;
use std::sync::{Arc, OnceLock};

use tengen_rules::Game;

pub use eval::{Evaluation, Evaluator};
pub use history::History;
pub use model::Model;
pub use rules::{KataRules, UnknownKataRules};

/// Cells of a board's padded array ([`tengen_rules::Point::index`] is below this).
const CELLS: usize = 1024;

/// KataGo's g170 b6c96 network (model version 8; KataGo's licence is in
/// `crates/ai/nets/LICENSE-KataGo`), built into the binary.
pub const BUILTIN_NET: &[u8] = include_bytes!("../../nets/g170-b6c96-s175395328-d26788732.bin.gz");

/// Why a model could not be read or a position not evaluated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NnError {
    /// The file is not gzip, or its gzip stream is damaged.
    #[error("model is not a valid gzip file: {0}")]
    Gzip(String),
    /// The file ends in the middle of the model.
    #[error("model file is truncated (ends in {0})")]
    Truncated(String),
    /// The file is not a KataGo model, or is damaged.
    #[error("model file is corrupt: {0}")]
    Corrupt(String),
    /// A model version this reader does not support.
    #[error("model version {0} is not supported (supported: 8 to 17)")]
    UnsupportedVersion(i64),
    /// A kind of layer or option this reader does not support.
    #[error("model uses an unsupported layer or option: {0}")]
    UnsupportedLayer(String),
    /// Rules the features cannot be computed for.
    #[error("rules not supported by the network engine: {0}")]
    UnsupportedRules(String),
    /// A batch that mixes board sizes or names a symmetry above 7.
    #[error("a batch must hold one board size and symmetries 0 to 7")]
    BadBatch,
    /// A human-style net (with a metadata encoder) asked to evaluate with no profile set.
    #[error("this human-style net needs a profile (humanSLProfile, e.g. rank_5k) to evaluate")]
    NeedsProfile,
    /// A profile name KataGo does not know.
    #[error("unknown human profile {0:?} (rank_20k to rank_9d, preaz_..., proyear_1800 to proyear_2023)")]
    UnknownProfile(String),
}

impl Model {
    /// The built-in network ([`BUILTIN_NET`]), read afresh (most callers want the process's
    /// shared one: [`builtin`]).
    pub fn builtin() -> Result<Model, NnError> {
        Model::from_gz(BUILTIN_NET)
    }
}

/// The built-in network's evaluator, read on first use and shared by everything in the process
/// that evaluates with it (the GTP engine without `--model`, `tengen bot`, the server's bots,
/// its reviews, the estimator): one copy of the weights and one cache, so that the positions
/// one caller evaluated answer the others. `None` if it cannot be read (a test of this module
/// would fail first).
pub fn builtin() -> Option<Arc<Evaluator>> {
    SHARED
        .get_or_init(|| Model::builtin().ok().map(|m| Arc::new(Evaluator::new(m))))
        .clone()
}

/// The process's shared evaluator ([`builtin`]).
static SHARED: OnceLock<Option<Arc<Evaluator>>> = OnceLock::new();

/// The built-in net's own evaluator where another model was shared ([`ladder`]).
static LADDER: OnceLock<Option<Arc<Evaluator>>> = OnceLock::new();

/// Whether [`share`] replaced the built-in net.
static REPLACED: OnceLock<()> = OnceLock::new();

/// Makes `model` the process's shared net in place of the built-in one (`tengen serve
/// --model`): the server's reviews, estimator and strongest bots then evaluate with it. To be
/// called before anything evaluates; `false` (and nothing changed) once the shared net was
/// read.
pub fn share(model: Model) -> bool {
    // Marked first: a `ladder` between the two reads the built-in net afresh, never the model.
    let _ = REPLACED.set(());
    SHARED.set(Some(Arc::new(Evaluator::new(model)))).is_ok()
}

/// The built-in net's evaluator, whatever [`share`] made the shared one: the levels' net
/// ([`levels`]), whose ranks were measured on it. The shared evaluator itself (one cache)
/// unless another model replaced it.
pub fn ladder() -> Option<Arc<Evaluator>> {
    let shared = builtin();
    if REPLACED.get().is_none() {
        return shared;
    }
    LADDER
        .get_or_init(|| Model::builtin().ok().map(|m| Arc::new(Evaluator::new(m))))
        .clone()
}

/// Board sides the network plays (KataGo's nets are trained on 7x7 to 19x19).
pub const SIZES: RangeInclusive<u8> = 7..=19;

/// The rules the net is told for `game`, where it plays: a board of [`SIZES`], under rules with
/// a KataGo counterpart ([`KataRules::nearest`]; not First Capture Go). Every caller asks here:
/// GTP, the levels, the server's bots and its reviews.
pub fn plays(game: &Game) -> Option<KataRules> {
    if !SIZES.contains(&game.size()) {
        return None;
    }
    KataRules::nearest(game.rules())
}
