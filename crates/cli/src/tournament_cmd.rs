//! `tengen tournament`: tournament files. `standings FILE.h9` reads an EGF h9 results file (as
//! OpenGotha writes it), recomputes every criterion its header names and prints the table back
//! as h9, best first.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use tengen_tournament::h9::{self, Start};
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
}

fn parse_rank(text: &str) -> Result<Rank, String> {
    text.parse().map_err(|e: rank::BadRank| e.to_string())
}

/// Runs a tournament command.
pub fn run(cmd: TournamentCmd) -> anyhow::Result<()> {
    match cmd {
        TournamentCmd::Standings { file, bar, floor } => standings(&file, bar, floor),
    }
}

fn standings(file: &PathBuf, bar: Option<Rank>, floor: Option<Rank>) -> anyhow::Result<()> {
    let bytes = std::fs::read(file).with_context(|| format!("reading {}", file.display()))?;
    // OpenGotha writes ISO-8859-15; Latin-1 agrees with it on the letters of names but for
    // eight rare ones. The table is printed back in the file's own encoding.
    let (text, latin1) = match String::from_utf8(bytes) {
        Ok(text) => (text, false),
        Err(e) => (
            e.into_bytes().iter().map(|&b| char::from(b)).collect(),
            true,
        ),
    };
    let start = match (bar, floor) {
        (None, None) => Start::FromFile,
        (bar, floor) => Start::Bar {
            floor: floor.unwrap_or(rank::WEAKEST),
            bar: bar.unwrap_or(rank::STRONGEST),
        },
    };
    let read = h9::read(&text, start)
        .map_err(|e| anyhow::anyhow!("{} ({}): {e}", file.display(), e.code()))?;
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
