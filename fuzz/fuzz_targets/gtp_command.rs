//! Any line: the GTP codec returns a command, nothing, or a typed error; arguments parse or
//! fail with a typed error; a parsed command prints back to a line that parses the same.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_gtp::{args, response, Command};

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    if let Ok(Some(c)) = Command::parse(&line) {
        let _ = args::color_and_move(19, &c.args);
        for a in &c.args {
            let _ = args::float(a);
            let _ = args::int(a);
            let _ = args::vertex(25, a);
        }
        assert_eq!(Command::parse(&c.to_string()).ok().flatten().as_ref(), Some(&c));
    }
    let lines: Vec<String> = line.lines().map(str::to_string).collect();
    let _ = response::parse(&lines);
});
