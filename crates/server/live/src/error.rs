//! Why the registry could not give a game: the use cases above turn this into the API's error.

use tengen_store::StoreError;

/// A failure of the live-game layer.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// No such game.
    #[error("not found")]
    NotFound,
    /// The database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game that cannot be read back, or a cluster state that should not be.
    #[error("{0}")]
    Internal(String),
}
