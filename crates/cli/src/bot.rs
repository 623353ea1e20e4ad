//! `tengen bot`: one of the built-in bots' levels on the network ([`tengen_ai::nn::levels`]),
//! speaking GTP on stdin and stdout, so that `tengen match` measures the very move choice the
//! server's bots make (BENCHMARKS.md, "The built-in bots' ranks"). With `--server URL --name
//! NAME` the same engine (or a GTP one) plays a server's bot account from this machine
//! ([`crate::bot_remote`]).

use anyhow::Context;
use clap::Args;
use tengen_ai::nn::levels::{self, Level};
use tengen_rules::Preset;

use crate::gtp::engine;

/// Options of `tengen bot`.
#[derive(Args, Debug)]
pub struct BotOpt {
    /// Strength 1 (a beginner: the policy sampled at temperature 4) to 10 (1,600 visits a move), the
    /// server's `builtin:LEVEL`; 11 to 16 are human-like beginners below level 1, 16 the weakest;
    /// 17 is between levels 1 and 2.
    #[arg(long, default_value_t = 5, conflicts_with = "visits")]
    pub level: u8,
    /// A fixed number of visits a move instead of a level (the most visited move is played).
    #[arg(long)]
    pub visits: Option<u32>,
    /// The temperature of the policy sample instead of the level's (0: the most visited move),
    /// on every board (a beginner's own sample on bigger boards is set aside), for measuring
    /// candidate levels.
    #[arg(long)]
    pub temperature: Option<f64>,
    /// The share of the best move's prior under which a move is never sampled, instead of the
    /// level's, on every board (as `--temperature`).
    #[arg(long)]
    pub floor: Option<f32>,
    /// A KataGo model (`.bin.gz`, `.txt.gz` or either unzipped) instead of the built-in net.
    #[arg(long)]
    pub model: Option<std::path::PathBuf>,
    /// Seed of the first move; each later move's is the next (the same seed, the same game).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play a server's bot account from here, e.g. `https://go.example` or
    /// `http://10.0.0.5:8080`: the bot must be declared there as remote (`serve --bot
    /// NAME@RANK=remote`).
    #[arg(long, value_name = "URL", requires = "name")]
    pub server: Option<String>,
    /// With an https:// server: a certificate authority to trust besides the system's (PEM),
    /// for a server whose certificate a private authority signed.
    #[arg(long, value_name = "FILE", requires = "server")]
    pub ca: Option<std::path::PathBuf>,
    /// The bot's account on the server.
    #[arg(long, requires = "server")]
    pub name: Option<String>,
    /// The bot's password (`tengen admin bot-password NAME` prints one); better in the
    /// environment than on the command line, where `ps` shows it.
    #[arg(
        long,
        env = "TENGEN_BOT_PASSWORD",
        hide_env_values = true,
        requires = "server"
    )]
    pub password: Option<String>,
    /// With --server: a GTP engine's command line to play with instead (GNU Go, KataGo,
    /// `tengen gtp ...`), started for each game.
    #[arg(long, value_name = "COMMAND", requires = "server", conflicts_with_all = ["visits", "model"])]
    pub gtp: Option<String>,
    /// With --server and --visits or --model: search threads a move (default 1).
    #[arg(long, requires = "server")]
    pub threads: Option<usize>,
}

/// Runs the bot on stdin and stdout until `quit` or the end of input, or with `--server` as a
/// server's bot until the process is stopped.
pub fn run(opt: BotOpt) -> anyhow::Result<()> {
    match (&opt.server, &opt.name) {
        (Some(url), Some(name)) => {
            let seat = crate::bot_remote::Seat {
                server: crate::client::Endpoint {
                    ca: opt.ca.clone(),
                    ..crate::client::Endpoint::parse(url)?
                },
                name: name.clone(),
                password: opt
                    .password
                    .clone()
                    .context("the bot's password: TENGEN_BOT_PASSWORD or --password")?,
            };
            let engine = remote_engine(&opt)?;
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?
                .block_on(crate::bot_remote::run(seat, engine))
        }
        _ => serve_gtp(opt),
    }
}

/// The engine a remote bot plays with: a GTP command as given; for `--visits` or `--model`,
/// this program's own network search over GTP (`tengen gtp --engine nn`); else the built-in
/// level, in this process, as the server's `builtin:LEVEL`.
fn remote_engine(opt: &BotOpt) -> anyhow::Result<tengen_app::bots::Engine> {
    use tengen_app::bots::Engine;
    if let Some(cmd) = &opt.gtp {
        return Ok(Engine::Gtp(cmd.clone()));
    }
    if opt.visits.is_none() && opt.model.is_none() {
        levels::level(opt.level)
            .context("--level takes 1 to 10, a beginner's 11 to 16, or 17 (between 1 and 2)")?;
        return Ok(Engine::Builtin(opt.level));
    }
    let exe = std::env::current_exe()?;
    let mut cmd = format!(
        "{} gtp --engine nn --threads {}",
        exe.display(),
        opt.threads.unwrap_or(1)
    );
    match opt.visits {
        Some(v) => cmd += &format!(" --visits {v}"),
        None => {
            let l = levels::level(opt.level)
                .context("--level takes 1 to 10, a beginner's 11 to 16, or 17 (between 1 and 2)")?;
            cmd += &format!(" --visits {}", l.visits.max(1));
        }
    }
    if let Some(m) = &opt.model {
        cmd += &format!(" --model {}", m.display());
    }
    Ok(Engine::Gtp(cmd))
}

/// `tengen bot` over GTP: `tengen gtp`'s engine (every command it answers: set-up stones,
/// handicaps, undo, rules, scoring, clocks) with the level's move choice, resignations and
/// passes ([`engine::Strength::level`]), on a 9x9 board under Chinese rules until told
/// otherwise.
fn serve_gtp(opt: BotOpt) -> anyhow::Result<()> {
    let level = match opt.visits {
        Some(v) => Level {
            visits: v.max(1),
            temperature: 0.0,
            floor: levels::ABSURD_SHARE,
            human: None,
            wider: &[],
        },
        None => levels::level(opt.level)
            .context("--level takes 1 to 10, a beginner's 11 to 16, or 17 (between 1 and 2)")?,
    };
    let level = match opt.temperature {
        Some(t) if t >= 0.0 => Level {
            temperature: t,
            ..level.on_every_board()
        },
        Some(_) => anyhow::bail!("--temperature takes 0 or more"),
        None => level,
    };
    let level = match opt.floor {
        Some(f) if (0.0..=1.0).contains(&f) => Level {
            floor: f,
            ..level.on_every_board()
        },
        Some(_) => anyhow::bail!("--floor takes a share from 0 to 1"),
        None => level,
    };
    let mut engine = engine::Engine::new(Preset::Chinese, Some(9), opt.seed)?;
    if let Some(path) = &opt.model {
        engine.set_model(path)?;
    }
    engine.set_strength(engine::Strength {
        level: Some(level),
        ..engine::Strength::default()
    });
    // The level in the name, so that a match's records tell the levels apart (`tengen rate`
    // reads them).
    engine.set_name(match opt.visits {
        Some(v) => format!("Tengen bot {v} visits"),
        None => format!("Tengen bot level {}", opt.level),
    });
    crate::gtp::serve(engine)
}
