//! `tengen`: the command line of the Tengen Go server.
//!
//! Layout: `main.rs` parses options and dispatches; each subcommand lives in its own module
//! (`bench`).

mod bench;

use clap::{Parser, Subcommand};

/// Tengen: a Go (baduk, weiqi) server, engine and tools.
#[derive(Parser)]
#[command(name = "tengen", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Measure the speed of Tengen's parts.
    #[command(subcommand)]
    Bench(bench::Bench),
    /// List the rule presets and what each one means.
    Rules,
}

fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Bench(b) => bench::run(b),
        Command::Rules => {
            print_rules();
            Ok(())
        }
    };
    match outcome {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // One readable line; the chain of causes, never a backtrace.
            eprintln!("tengen: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

fn print_rules() {
    use tengen_rules::Preset;
    for p in Preset::ALL {
        let r = p.rules(19);
        println!(
            "{:<14} ko {:?}, suicide {:?}, scoring {:?}, komi {}, handicap bonus {:?}, repetition {:?}, end {:?}, handicap {:?} up to {}, boards {}-{}",
            p.name(),
            r.ko,
            r.suicide,
            r.scoring,
            r.komi,
            r.handicap_bonus,
            r.repetition,
            r.end,
            r.handicap_placement,
            r.max_handicap,
            r.min_size,
            r.max_size
        );
    }
}
