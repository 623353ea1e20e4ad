//! GTP: the engine side (`tengen gtp`, [`engine`]). The controller side, which drives other
//! engines for `tengen match` and the server's bots, is `tengen_server::bots::gtp`.

pub mod engine;

use std::io::{BufRead, Write};

use clap::Args;
use tengen_gtp::{Command, Response};
use tengen_rules::Preset;

/// Options of `tengen gtp`.
#[derive(Args, Debug)]
pub struct GtpOpt {
    /// Rule preset: wga, chinese, japanese, korean, igz, arena, aga, tromp-taylor, nz,
    /// first-capture. `tengen-rules NAME` switches it during a session.
    #[arg(long, default_value = "chinese")]
    pub rules: Preset,
    /// Board size until the controller sends `boardsize` (default: the preset's own, 9 for
    /// wga and 19 for the others).
    #[arg(long)]
    pub size: Option<u8>,
    /// Seed for the engine's random choices (the same seed plays the same moves).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Runs the engine on stdin and stdout until `quit` or the end of input.
pub fn run(opt: GtpOpt) -> anyhow::Result<()> {
    let mut engine = engine::Engine::new(opt.rules, opt.size, opt.seed)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().split(b'\n') {
        // Bytes that are not UTF-8 cannot form a valid command; keep what can be read.
        let line = String::from_utf8_lossy(&line?).into_owned();
        let (id, response) = match Command::parse(&line) {
            Ok(None) => continue,
            Ok(Some(cmd)) => (cmd.id, engine.handle(&cmd)),
            Err(_) => (Command::id_of(&line), Response::failure("syntax error")),
        };
        out.write_all(response.format(id).as_bytes())?;
        out.flush()?;
        if engine.quit() {
            break;
        }
    }
    Ok(())
}
