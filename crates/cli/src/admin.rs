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
    /// Give a player a role: `moderator` (the moderation routes and the moderators' page),
    /// `admin` (a moderator who may act on moderators too) or `player` (none).
    SetRole {
        /// The player's name.
        name: String,
        /// `player`, `moderator` or `admin`.
        role: String,
        #[command(flatten)]
        database: Database,
    },
    /// Give a bot declared as remote (`serve --bot NAME@RANK=remote`) a new password and print
    /// it once: its engine signs in with it from any machine (`tengen bot --server URL --name
    /// NAME`, the password in TENGEN_BOT_PASSWORD). The old password stops working.
    BotPassword {
        /// The bot's name.
        name: String,
        #[command(flatten)]
        database: Database,
    },
    /// Copy the SQLite database to OUT, consistent while the server plays (SQLite's `VACUUM
    /// INTO`: the copy holds every move committed before it began). For PostgreSQL use
    /// pg_dump (docs/deploy.md).
    Backup {
        /// The new file (it must not exist).
        out: std::path::PathBuf,
        #[command(flatten)]
        database: Database,
    },
}

/// Runs an `admin` subcommand.
pub fn run(cmd: AdminCmd) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        match cmd {
            AdminCmd::SetRank {
                name,
                rank,
                database,
            } => {
                let store = database.open().await?;
                let user = tengen_app::accounts::set_rank(&store, &name, &rank)
                    .await
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                println!("{} is now {}", user.username, user.rank);
            }
            AdminCmd::SetRole {
                name,
                role,
                database,
            } => {
                let store = database.open().await?;
                let user = tengen_app::moderation::set_role(&store, &name, &role)
                    .await
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                println!("{} is now {}", user.username, user.role);
            }
            AdminCmd::BotPassword { name, database } => {
                let store = database.open().await?;
                let (user, password) = tengen_app::accounts::new_bot_password(&store, &name)
                    .await
                    .map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
                eprintln!("{}'s new password (shown once):", user.username);
                println!("{password}");
            }
            AdminCmd::Backup { out, database } => backup(&out, &database).await?,
        }
        Ok(())
    })
}

impl Database {
    /// The store, migrated.
    pub(crate) async fn open(&self) -> anyhow::Result<tengen_store::Store> {
        crate::serve::open_store(&self.db, self.database_url.as_deref()).await
    }
}

/// `admin backup`: the copy is written beside its destination and renamed into place once
/// whole, so that OUT is never a half-written database.
async fn backup(out: &std::path::Path, database: &Database) -> anyhow::Result<()> {
    use anyhow::Context;
    if database.database_url.is_some() {
        anyhow::bail!(
            "backup copies SQLite databases; back PostgreSQL up with pg_dump (docs/deploy.md)"
        );
    }
    if !database.db.exists() {
        anyhow::bail!("no database at {}", database.db.display());
    }
    if out.exists() {
        anyhow::bail!("{} exists; the backup goes to a new file", out.display());
    }
    let partial = out.with_extension("partial");
    let _ = std::fs::remove_file(&partial);
    // Opened without migrating: a newer binary backing up a running older server's database
    // must not change its schema underneath it.
    let url = format!("sqlite:{}", database.db.display());
    let store = tengen_store::Store::open_raw(&url)
        .await
        .with_context(|| format!("cannot open the database {url}"))?;
    store
        .backup_into(&partial)
        .await
        .with_context(|| format!("cannot back up to {}", partial.display()))?;
    std::fs::rename(&partial, out)
        .with_context(|| format!("cannot move the backup to {}", out.display()))?;
    println!("backed up {} to {}", database.db.display(), out.display());
    Ok(())
}
