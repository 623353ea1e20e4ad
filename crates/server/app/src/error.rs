//! The use cases' error type: each variant has a stable machine-readable code, shared by HTTP,
//! the WebSocket protocol and the cluster's forwarded requests (the web layer gives each its
//! HTTP status). Internal details are logged, never sent.

/// Everything a request can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// The body is not the JSON the endpoint expects.
    #[error("malformed request: {0}")]
    BadRequest(String),
    /// Usernames are 3 to 20 letters, digits, `_` or `-`, starting with a letter.
    #[error(
        "a username has 3 to 20 characters: letters (a-z, A-Z), digits, `_` and `-`, and starts \
         with a letter; names starting with \"guest\" are kept for guests, and \"tengen\" for the \
         built-in bots"
    )]
    InvalidUsername,
    /// Passwords have 6 to 200 characters and are not easy to guess (common passwords,
    /// keyboard runs, repeats, the name itself).
    #[error(
        "that password is too easy to guess: use 6 to 200 characters that are not a common \
         password, a word, a keyboard pattern or a repeat (a few unrelated words work well)"
    )]
    WeakPassword,
    /// Not a rank.
    #[error("{0}")]
    InvalidRank(String),
    /// Someone has that name.
    #[error("that username is taken")]
    UsernameTaken,
    /// The name looks like an existing account's (`aIice` beside `alice`, `b0b` beside `bob`).
    #[error("that username looks too much like an existing one")]
    ConfusableName,
    /// Wrong username or password.
    #[error("wrong username or password")]
    BadCredentials,
    /// No valid session.
    #[error("log in first")]
    Unauthorized,
    /// No such thing.
    #[error("not found")]
    NotFound,
    /// A request the rules of the server refuse, with its own code (400).
    #[error("{1}")]
    Rejected(&'static str, String),
    /// A request that conflicts with the current state, with its own code (409).
    #[error("{1}")]
    Conflict(&'static str, String),
    /// Not allowed for this account (403).
    #[error("{1}")]
    Forbidden(&'static str, String),
    /// Too many failed logins or new accounts: try again after this many seconds (429).
    #[error("too many attempts: try again in {0} s")]
    TooManyAttempts(u64),
    /// Past a per-account limit (open rooms, open WebSockets), with its own code (429).
    #[error("{1}")]
    Limited(&'static str, String),
    /// The request body is larger than the server accepts (413).
    #[error("the request body is larger than {0} bytes")]
    TooLarge(usize),
    /// The request body did not arrive within this many seconds (408).
    #[error("the request body did not arrive within {0} s")]
    TooSlow(u64),
    /// Not available for a moment (a cluster's game between owners), with its own code (503,
    /// `Retry-After: 1`).
    #[error("{1}")]
    Unavailable(&'static str, String),
    /// The storage fails (a full disk, an I/O error, the database unreachable): the request
    /// may succeed unchanged later (503 `storage_unavailable`, `Retry-After`). The detail is
    /// for the operator's log and `/readyz`, never sent.
    #[error("the server cannot store anything right now; try again in a moment")]
    Storage(String),
    /// Something broke on our side.
    #[error("internal error")]
    Internal(String),
}

impl ApiError {
    /// The stable code clients switch on.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::BadRequest(_) => "bad_request",
            ApiError::InvalidUsername => "invalid_username",
            ApiError::WeakPassword => "weak_password",
            ApiError::InvalidRank(_) => "invalid_rank",
            ApiError::UsernameTaken => "username_taken",
            ApiError::ConfusableName => "confusable_name",
            ApiError::BadCredentials => "bad_credentials",
            ApiError::Unauthorized => "unauthorized",
            ApiError::NotFound => "not_found",
            ApiError::Rejected(code, _)
            | ApiError::Conflict(code, _)
            | ApiError::Forbidden(code, _)
            | ApiError::Limited(code, _)
            | ApiError::Unavailable(code, _) => code,
            ApiError::TooLarge(_) => "payload_too_large",
            ApiError::TooSlow(_) => "body_timeout",
            ApiError::TooManyAttempts(_) => "too_many_attempts",
            ApiError::Storage(_) => "storage_unavailable",
            ApiError::Internal(_) => "internal",
        }
    }
}

impl From<tengen_live::LiveError> for ApiError {
    fn from(e: tengen_live::LiveError) -> ApiError {
        match e {
            tengen_live::LiveError::NotFound => ApiError::NotFound,
            tengen_live::LiveError::Store(e) => e.into(),
            e => ApiError::Internal(e.to_string()),
        }
    }
}

impl From<tengen_store::StoreError> for ApiError {
    fn from(e: tengen_store::StoreError) -> ApiError {
        if e.is_unavailable() {
            ApiError::Storage(e.to_string())
        } else {
            ApiError::Internal(e.to_string())
        }
    }
}
