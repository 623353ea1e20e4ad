//! Any bytes that parse as SGF: replaying and checking every variation under every preset
//! reports problems as values and never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_rules::Preset;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = tengen_sgf::parse(data) {
        for g in c.games.iter().take(2) {
            if g.node_count() > 2000 {
                continue;
            }
            for p in [None, Some(Preset::Japanese), Some(Preset::TrompTaylor), Some(Preset::FirstCapture)] {
                let _ = tengen_sgf::game::check(g, p);
                let _ = tengen_sgf::game::replay(g, p);
            }
        }
    }
});
