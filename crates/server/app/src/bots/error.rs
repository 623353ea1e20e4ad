//! What stops a bot: each failure a variant with a stable code, for the log and for whoever
//! reads a bot's spec.

use super::gtp::ControllerError;
use crate::error::ApiError;

/// Why a bot could not be declared, started, or play on.
#[derive(Debug, thiserror::Error)]
pub enum BotError {
    /// A `--bot` spec that cannot be read.
    #[error("{0}")]
    Spec(String),
    /// A remote bot's games are played by its own process, not by a driver here.
    #[error("a remote bot plays from its own process")]
    Remote,
    /// No engine to ask (a built-in bot without its level).
    #[error("no engine")]
    NoEngine,
    /// The GTP engine's process could not be started or talked to.
    #[error("engine: {0}")]
    Engine(#[from] ControllerError),
    /// The GTP engine answered a command with a failure.
    #[error("{command:?}: {message}")]
    Refused {
        /// The command.
        command: String,
        /// The engine's answer.
        message: String,
    },
    /// The GTP engine's move is not a move on this board.
    #[error("the engine's move {0:?} is not on the board")]
    BadMove(String),
    /// A task running the engine ended without an answer (it panicked, or the runtime is
    /// stopping), or the engine's lock was poisoned by such a task.
    #[error("the engine's task failed: {0}")]
    Task(String),
    /// The net's levels could not play the position.
    #[error("net: {0}")]
    Net(String),
    /// The engine pool refused or lost the work (see [`crate::engines`]).
    #[error("engine pool: {0}")]
    Pool(ApiError),
    /// The game is not available to the driver (moved to another node, or gone).
    #[error("game unavailable")]
    GameUnavailable,
    /// The game's terms cannot be played (a stored game this version cannot read).
    #[error("unplayable terms: {0}")]
    Terms(String),
    /// The driver fell behind the game's events.
    #[error("fell behind the game")]
    FellBehind,
    /// The referee refused even the pass that replaced a refused move.
    #[error("the pass was refused: {0}")]
    PassRefused(String),
}

impl BotError {
    /// The stable code.
    pub fn code(&self) -> &'static str {
        match self {
            BotError::Spec(_) => "bot_spec",
            BotError::Remote => "bot_remote",
            BotError::NoEngine => "bot_no_engine",
            BotError::Engine(_) => "bot_engine",
            BotError::Refused { .. } => "bot_engine_refused",
            BotError::BadMove(_) => "bot_bad_move",
            BotError::Task(_) => "bot_task",
            BotError::Net(_) => "bot_net",
            BotError::Pool(_) => "bot_pool",
            BotError::GameUnavailable => "game_unavailable",
            BotError::Terms(_) => "bot_terms",
            BotError::FellBehind => "bot_fell_behind",
            BotError::PassRefused(_) => "bot_pass_refused",
        }
    }
}

impl From<tokio::task::JoinError> for BotError {
    fn from(e: tokio::task::JoinError) -> BotError {
        BotError::Task(e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bot_error_has_its_own_code() {
        let all = [
            BotError::Spec("x".into()),
            BotError::Remote,
            BotError::NoEngine,
            BotError::Engine(ControllerError::EmptyCommand),
            BotError::Refused {
                command: "genmove b".into(),
                message: "no".into(),
            },
            BotError::BadMove("Z99".into()),
            BotError::Task("panicked".into()),
            BotError::Net("x".into()),
            BotError::Pool(ApiError::Internal("x".into())),
            BotError::GameUnavailable,
            BotError::Terms("x".into()),
            BotError::FellBehind,
            BotError::PassRefused("x".into()),
        ];
        let codes: std::collections::HashSet<_> = all.iter().map(BotError::code).collect();
        assert_eq!(codes.len(), all.len());
        assert_eq!(
            BotError::Refused {
                command: "genmove b".into(),
                message: "no".into(),
            }
            .to_string(),
            r#""genmove b": no"#
        );
    }
}
