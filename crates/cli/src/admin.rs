//! `tengen admin`: what only the server's operator may do, straight on the database.

use clap::{Args, Subcommand};

/// Which database.
#[derive(Args, Debug)]
pub struct Database {
    /// SQLite database file.
    #[arg(long, default_value = "tengen.db")]
    pub db: std::path::PathBuf,
    /// PostgreSQL instead of SQLite, e.g. postgres://user@127.0.0.1:5432/tengen.
    #[arg(long)]
    pub database_url: Option<String>,
}

/// Operator commands.
#[derive(Subcommand, Debug)]
pub enum AdminCmd {
    /// Set a player's rank, professional ranks included (`1p` to `9p`), which players cannot
    /// declare themselves.
    SetRank {
        /// The player's name.
        name: String,
        /// The rank: `18k` to `1k`, `1d` to `9d`, `1p` to `9p`.
        rank: String,
        #[command(flatten)]
        database: Database,
    },
}

/// Runs an `admin` subcommand.
pub fn run(cmd: AdminCmd) -> anyhow::Result<()> {
    let AdminCmd::SetRank {
        name,
        rank,
        database,
    } = cmd;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let store =
            crate::serve::open_store(&database.db, database.database_url.as_deref()).await?;
        let user = tengen_app::accounts::set_rank(&store, &name, &rank)
            .await
            .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
        println!("{} is now {}", user.username, user.rank);
        Ok(())
    })
}
