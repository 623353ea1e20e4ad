//! `tengen tournament`: tournament files. `standings FILE.h9` reads an EGF h9 results file (as
//! OpenGotha writes it), recomputes every criterion its header names and prints the table back
//! as h9, best first. `pair FILE.h9 --round R` pairs round R again from the rounds before it,
//! as a whole with OpenGotha's weights, and prints the boards beside the file's own.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tengen_tournament::h9::{self, Start, H9};
use tengen_tournament::pairing::whole::{Main, Seeding};
use tengen_tournament::standings::Criterion;
use tengen_tournament::{rank, Rank};

/// Tournament commands.
#[derive(Debug, Subcommand)]
pub enum TournamentCmd {
    /// Recompute an h9 results file's criteria (MMS, NBW, SOS, SOSOS, SODOS, SOS-1/-2, CUSS,
    /// EXT/EXR, SDC, DC) and print it back as h9, best first; ties share a place.
    Standings {
        /// The h9 file (UTF-8, or ISO-8859-1/15 as OpenGotha writes it).
        file: PathBuf,
        /// McMahon bar: stronger players start with this rank's score. Without --bar and
        /// --floor, each player's starting score is their MMS in the file less their points.
        #[arg(long, value_parser = parse_rank)]
        bar: Option<Rank>,
        /// McMahon floor: weaker players start with this rank's score.
        #[arg(long, value_parser = parse_rank)]
        floor: Option<Rank>,
    },
    /// Pair round R of an h9 file again from the rounds before it, among the players who
    /// played in it (a game or the bye), as a whole with OpenGotha's weights; print the boards
    /// and how many the file's own round shares.
    Pair {
        /// The h9 file.
        file: PathBuf,
        /// The round to pair, from 1.
        #[arg(long)]
        round: usize,
        /// McMahon or Swiss (default: McMahon when the file's criteria include MMS).
        #[arg(long, value_enum)]
        system: Option<SystemArg>,
        /// McMahon bar (default: the strongest starting score in the file).
        #[arg(long, value_parser = parse_rank)]
        bar: Option<Rank>,
        /// McMahon floor (default: the weakest starting score in the file).
        #[arg(long, value_parser = parse_rank)]
        floor: Option<Rank>,
        /// How a score group meets itself after the first rounds: slip (1-5, 2-6; OpenGotha
        /// 3.51's default) or fold (1-8, 2-7; earlier versions').
        #[arg(long, value_enum, default_value = "slip")]
        seeding: SeedingArg,
    },
    /// Bring an event in from an h9 file (finished or running) so that it goes on on the
    /// server: players (new accounts without passwords, by name and rank), rounds, byes,
    /// absences and results. McMahon when the file's criteria include MMS, Swiss otherwise.
    Import {
        /// The h9 file.
        file: PathBuf,
        /// The organiser's account name.
        #[arg(long)]
        organiser: String,
        /// The event's name (default: the file's EV[...]).
        #[arg(long)]
        name: Option<String>,
        /// The rounds the event will have (default: the file's).
        #[arg(long)]
        rounds: Option<u32>,
        /// McMahon bar (default: the strongest starting score in the file).
        #[arg(long, value_parser = parse_rank)]
        bar: Option<Rank>,
        /// McMahon floor (default: the weakest starting score in the file).
        #[arg(long, value_parser = parse_rank)]
        floor: Option<Rank>,
        #[command(flatten)]
        database: crate::admin::Database,
    },
}

/// `--system`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SystemArg {
    /// Score groups by McMahon score.
    Mcmahon,
    /// Score groups by wins.
    Swiss,
}

/// `--seeding`.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum SeedingArg {
    /// 1-5, 2-6, 3-7, 4-8.
    Slip,
    /// 1-8, 2-7, 3-6, 4-5.
    Fold,
}

fn parse_rank(text: &str) -> Result<Rank, String> {
    text.parse().map_err(|e: rank::BadRank| e.to_string())
}

/// Runs a tournament command.
pub fn run(cmd: TournamentCmd) -> anyhow::Result<()> {
    match cmd {
        TournamentCmd::Standings { file, bar, floor } => standings(&file, bar, floor),
        TournamentCmd::Pair {
            file,
            round,
            system,
            bar,
            floor,
            seeding,
        } => pair(&file, round, system, (bar, floor), seeding),
        TournamentCmd::Import {
            file,
            organiser,
            name,
            rounds,
            bar,
            floor,
            database,
        } => {
            let (h9, _) = read_h9(&file, Start::FromFile)?;
            let how = tengen_app::tournaments::import::Import {
                name: name.unwrap_or_else(|| event_name(&h9)),
                organiser,
                bar,
                floor,
                rounds,
            };
            import(&h9, &how, &database)
        }
    }
}

/// The file's `EV[...]`, or "Imported event".
fn event_name(h9: &H9) -> String {
    h9.preamble
        .iter()
        .find_map(|l| l.split_once("EV[")?.1.split(']').next().map(str::to_string))
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "Imported event".to_string())
}

fn import(
    h9: &H9,
    how: &tengen_app::tournaments::import::Import,
    database: &crate::admin::Database,
) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let store = database.open().await?;
        let done = tengen_app::tournaments::import::import(&store, h9, how)
            .await
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        println!(
            "imported as tournament {}: {} players, {} of {} rounds{}",
            done.id,
            done.players,
            done.rounds,
            done.of,
            if done.finished {
                ", finished"
            } else {
                ", running"
            }
        );
        Ok(())
    })
}

/// The file's text (UTF-8, or Latin-1 as OpenGotha writes ISO-8859-15) and whether it was
/// Latin-1.
fn read_text(file: &PathBuf) -> anyhow::Result<(String, bool)> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    Ok(match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(e) => (
            e.into_bytes().iter().map(|&b| char::from(b)).collect(),
            true,
        ),
    })
}

fn start_of(bar: Option<Rank>, floor: Option<Rank>) -> Start {
    match (bar, floor) {
        (None, None) => Start::FromFile,
        (bar, floor) => Start::Bar {
            floor: floor.unwrap_or(rank::WEAKEST),
            bar: bar.unwrap_or(rank::STRONGEST),
        },
    }
}

fn read_h9(file: &PathBuf, start: Start) -> anyhow::Result<(H9, bool)> {
    let (text, latin1) = read_text(file)?;
    let read = h9::read(&text, start)
        .map_err(|e| anyhow::anyhow!("{} ({}): {e}", file.display(), e.code()))?;
    Ok((read, latin1))
}

fn pair(
    file: &PathBuf,
    round: usize,
    system: Option<SystemArg>,
    (bar, floor): (Option<Rank>, Option<Rank>),
    seeding: SeedingArg,
) -> anyhow::Result<()> {
    let (h9, _) = read_h9(file, start_of(bar, floor))?;
    let rounds = h9.event.rounds;
    anyhow::ensure!(
        (1..=rounds).contains(&round),
        "--round {round}: the file has rounds 1 to {rounds}"
    );
    let mcmahon = match system {
        Some(SystemArg::Mcmahon) => true,
        Some(SystemArg::Swiss) => false,
        None => h9.mcmahon(),
    };
    let main = if mcmahon {
        let (file_bar, file_floor) = h9.bar_and_floor();
        Main::McMahon {
            bar: bar.unwrap_or(file_bar),
            floor: floor.unwrap_or(file_floor),
        }
    } else {
        Main::Swiss
    };
    let seeding = match seeding {
        SeedingArg::Slip => Seeding::SplitAndSlip,
        SeedingArg::Fold => Seeding::SplitAndFold,
    };
    let r = round - 1;
    let pairing = h9
        .pair_round(r, main, seeding)
        .map_err(|e| anyhow::anyhow!("round {round} ({}): {e}", e.code()))?;
    let scores = tengen_tournament::pairing::history::main_scores(&h9.event.before(r), r, mcmahon);
    let who = |p: usize| {
        let e = &h9.event.entrants[p];
        format!(
            "{} {} ({})",
            e.name,
            e.rank,
            Criterion::Mms.format(scores[p])
        )
    };
    let mut out = String::new();
    out.push_str(&format!(
        "; round {round}: {} boards\n",
        pairing.games.len()
    ));
    for (table, g) in pairing.games.iter().enumerate() {
        out.push_str(&format!(
            "{:>4} {:<40} {:<40} h{}\n",
            table + 1,
            who(g.white),
            who(g.black),
            g.handicap
        ));
    }
    if let Some(bye) = pairing.bye {
        out.push_str(&format!("     bye: {}\n", who(bye)));
    }
    out.push_str(&format!(
        "; the file's own round {round} has {} of these {} boards\n",
        h9.same_boards(r, &pairing),
        pairing.games.len()
    ));
    std::io::stdout().lock().write_all(out.as_bytes())?;
    Ok(())
}

fn standings(file: &PathBuf, bar: Option<Rank>, floor: Option<Rank>) -> anyhow::Result<()> {
    // OpenGotha writes ISO-8859-15; Latin-1 agrees with it on the letters of names but for
    // eight rare ones. The table is printed back in the file's own encoding.
    let (read, latin1) = read_h9(file, start_of(bar, floor))?;
    let table = h9::write(&read);
    let out: Vec<u8> = if latin1 {
        table
            .chars()
            .map(|c| u8::try_from(u32::from(c)).unwrap_or(b'?'))
            .collect()
    } else {
        table.into_bytes()
    };
    std::io::stdout().lock().write_all(&out)?;
    Ok(())
}
