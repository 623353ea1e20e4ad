//! `tengen serve`: run the server.

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::Context;
use clap::Args;
use tengen_server::AppState;
use tengen_store::Store;

/// Who may organise tournaments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Organisers {
    /// Any registered player.
    Players,
    /// Moderators and admins only.
    Moderators,
}

/// Options of `tengen serve`.
#[derive(Args, Debug)]
pub struct ServeOpt {
    /// Who may organise tournaments: any registered player, or only moderators and admins.
    #[arg(long, value_enum, default_value = "players")]
    pub tournament_organisers: Organisers,
    /// Let a bot account's credential (`tengen admin bot-password`) do what players do: rooms,
    /// messages, chat, tournaments, quick match. By default it only plays the bot's own games.
    #[arg(long)]
    pub bots_as_players: bool,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,
    /// SQLite database file (created and migrated on start).
    #[arg(long, default_value = "tengen.db")]
    pub db: PathBuf,
    /// PostgreSQL instead of SQLite, e.g. postgres://user@127.0.0.1:5432/tengen.
    #[arg(long)]
    pub database_url: Option<String>,
    /// Seconds a player whose connection dropped has to come back before losing the game
    /// (0: at once, as seed 002's "Runaway" rule).
    #[arg(long, default_value_t = 30)]
    pub grace: u64,
    /// A bot backed by a GTP engine, as NAME=COMMAND or NAME@RANK=COMMAND (repeatable), e.g.
    /// --bot "gnugo@10k=/usr/games/gnugo --mode gtp --level 1". The built-in bots (tengen-newcomer to tengen-10, `GET /api/bots`) are always there.
    #[arg(long = "bot", value_parser = parse_bot)]
    pub bots: Vec<tengen_app::bots::BotSpec>,
    /// A reverse proxy whose X-Forwarded-For is believed for the client's address (repeatable;
    /// the header is ignored from anyone else).
    #[arg(long = "trusted-proxy")]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Accounts (registrations and guests) one client address may create in ten minutes; 0 for
    /// no limit (`tengen loadtest` creates two guests a game from one address).
    #[arg(long, default_value_t = tengen_server::throttle::CREATE_PER_WINDOW)]
    pub accounts_per_address: u32,
    /// A site whose pages may open WebSockets here besides this server's own address, as
    /// scheme://host[:port], e.g. https://go.example.org (repeatable): needed when the server
    /// is reached under a name its proxy does not pass on as Host.
    #[arg(long = "allowed-origin")]
    pub allowed_origins: Vec<String>,
    /// Open WebSockets one client address may hold on this node; 0 for no limit (`tengen
    /// loadtest` opens two a game from one address).
    #[arg(long, default_value_t = tengen_server::edges::SOCKETS_PER_ADDRESS)]
    pub sockets_per_address: usize,
    /// Seconds a request's body may take to arrive before the request is answered 408 and
    /// its connection closed.
    #[arg(long, default_value_t = tengen_server::edges::BODY_DEADLINE.as_secs(), value_parser = clap::value_parser!(u64).range(1..))]
    pub body_timeout: u64,
    /// Cluster mode: the NATS server (with JetStream) the nodes share, e.g.
    /// nats://127.0.0.1:4222. Needs --database-url (PostgreSQL) and --node.
    #[arg(long, env = "TENGEN_NATS", requires = "node")]
    pub nats: Option<String>,
    /// Cluster mode: this node's name (letters, digits, '-' and '_'), unique in the cluster.
    #[arg(long, env = "TENGEN_NODE", requires = "nats")]
    pub node: Option<String>,
    /// Threads that run the games, connections and requests. One is enough for thousands of
    /// moves a second and spends the least CPU per move (threads that hand each move to one
    /// another pay for it in thread switches); engines, password hashing and analysis have
    /// threads of their own either way. More for a server that needs more than one core's worth.
    #[arg(long, env = "TENGEN_WORKERS", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub workers: u16,
    /// Threads of the engine pool, which runs the built-in bots' searches and the estimates at
    /// low priority (nice 10) behind a bounded queue (full: `engine_busy`). 0: the machine's
    /// cores less one, at least one; at most 1024.
    #[arg(long, env = "TENGEN_ENGINE_THREADS", default_value_t = 0,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(0..=1024))]
    pub engine_threads: usize,
    /// A KataGo network (`.bin.gz`, `.txt.gz` or either unzipped) for the server's reviews, dead-stone estimates and
    /// `search:VISITS` bots in place of the built-in one (docs/engine.md says where to get
    /// KataGo's nets). The built-in bots' levels keep the built-in net, on which their ranks
    /// were measured; a net on which Tengen matched KataGo (KataGo's b18c384nbt) adds the
    /// `tengen-superhuman` bot.
    #[arg(long, env = "TENGEN_MODEL")]
    pub model: Option<std::path::PathBuf>,
    /// How the log is written: `text` for people, `json` (one object a line) for a log
    /// collector.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// The log's format.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogFormat {
    /// Lines for people to read.
    Text,
    /// One JSON object a line: time, level, target, message and fields.
    Json,
}

/// Starts the log, filtered by `RUST_LOG` (default `info`), in `format`.
fn init_log(format: LogFormat) {
    let filter =
        tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into());
    let log = tracing_subscriber::fmt().with_env_filter(filter);
    match format {
        LogFormat::Text => log.init(),
        LogFormat::Json => log.json().flatten_event(true).init(),
    }
}

fn parse_bot(s: &str) -> Result<tengen_app::bots::BotSpec, String> {
    tengen_app::bots::parse_spec(s).map_err(|e| e.to_string())
}

/// Opens (and migrates) the database: PostgreSQL at `url` when given, else SQLite in `db`.
pub(crate) async fn open_store(db: &std::path::Path, url: Option<&str>) -> anyhow::Result<Store> {
    let url = match url {
        Some(u) => u.to_string(),
        None => format!("sqlite:{}", db.display()),
    };
    Store::open(&url)
        .await
        .with_context(|| format!("cannot open the database {url}"))
}

/// Serves until Ctrl-C or SIGTERM.
pub fn run(opt: ServeOpt) -> anyhow::Result<()> {
    init_log(opt.log_format);
    if let Some(path) = &opt.model {
        // Read before anything evaluates, so that a bad file stops the start with its reason.
        let bytes = std::fs::read(path)
            .map_err(|e| anyhow::anyhow!("cannot read model {}: {e}", path.display()))?;
        let model = tengen_ai::nn::Model::read(&bytes)
            .map_err(|e| anyhow::anyhow!("cannot use model {}: {e}", path.display()))?;
        if model.meta_encoder.is_some() {
            anyhow::bail!(
                "{} is a human-style net, which evaluates only for a profile; the server takes \
                 none (use it with tengen gtp --human-profile)",
                path.display()
            );
        }
        tengen_ai::nn::share(model);
    }
    tengen_app::engines::configure(opt.engine_threads, 0);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(usize::from(opt.workers))
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let store = open_store(&opt.db, opt.database_url.as_deref()).await?;
        let peers = match (&opt.nats, &opt.node) {
            (Some(url), Some(node)) => {
                if store.backend() != tengen_store::Backend::Postgres {
                    anyhow::bail!("cluster mode (--nats) needs PostgreSQL (--database-url)");
                }
                Some(
                    tengen_server::cluster::connect(url, node, store.clone())
                        .await
                        .map_err(|e| anyhow::anyhow!(e))?,
                )
            }
            _ => None,
        };
        let grace = std::time::Duration::from_secs(opt.grace);
        let mut state = AppState::clustered(store, grace, opt.bots, peers)
            .await
            .map_err(|e| anyhow::anyhow!("cannot restore live games: {e}"))?;
        tengen_server::cluster::start(&state)
            .await
            .map_err(|e| anyhow::anyhow!(e))?;
        state.services.tournaments.moderators_only =
            opt.tournament_organisers == Organisers::Moderators;
        state.services.bots_as_players = opt.bots_as_players;
        state.throttle = std::sync::Arc::new(tengen_server::throttle::Throttle::new(
            opt.trusted_proxies,
            opt.accounts_per_address,
        ));
        state.edges = std::sync::Arc::new(tengen_server::edges::Edges::new(
            opt.allowed_origins,
            opt.sockets_per_address,
            std::time::Duration::from_secs(opt.body_timeout),
        ));
        let listener = tokio::net::TcpListener::bind(opt.addr)
            .await
            .with_context(|| format!("cannot listen on {}", opt.addr))?;
        let addr = listener.local_addr()?;
        println!("Tengen is serving on http://{addr}/");
        let games = state.services.games.clone();
        tengen_server::run(listener, state, shutdown_signal()).await?;
        // A cluster node hands its games over before it goes (the others take them at once).
        games.hand_over().await;
        println!("Tengen stopped.");
        Ok(())
    })
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
