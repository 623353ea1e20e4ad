//! Any bytes that parse as SGF: replaying and checking every variation under every preset
//! reports problems as values and never panics; what was replayed writes back to SGF that
//! parses, and komi or rule changes keep the position.
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
                let Ok(r) = tengen_sgf::game::replay(g, p) else { continue };
                // What was replayed writes back and reads again (set-up changes included).
                let tree = tengen_sgf::game::record(&r.game, Some(r.preset), &r.info);
                let text = tengen_sgf::write_game(&tree);
                let again = tengen_sgf::parse_str(&text).expect("Tengen's own output parses");
                let _ = tengen_sgf::game::replay(&again.games[0], Some(r.preset));
                // Komi and rule changes keep the position.
                let mut game = r.game.clone();
                game.set_komi(tengen_rules::Komi::from_halves(1));
                assert_eq!(game.board(), r.game.board());
                if let Ok(other) = r.game.with_rules(Preset::Chinese.rules(r.game.size())) {
                    assert_eq!(other.board(), r.game.board());
                }
            }
        }
    }
});
