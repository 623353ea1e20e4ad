//! Arbitrary input never panics: every line gives a command, nothing, or a typed error.

use tengen_gtp::{args, response, Command};
use tengen_rules::playout::Rng;

#[test]
fn arbitrary_lines_give_a_value_or_a_typed_error() {
    let mut rng = Rng::new(0x67_74_70);
    const PIECES: [&str; 14] = [
        "play",
        " ",
        "b",
        "D4",
        "#",
        "\t",
        "\r",
        "\u{0}",
        "12",
        "é",
        "pass",
        "99999999999",
        "-1",
        "\n",
    ];
    for _ in 0..50_000 {
        let line: String = (0..rng.below(10))
            .map(|_| PIECES[rng.below(14) as usize])
            .collect();
        if let Ok(Some(c)) = Command::parse(&line) {
            assert!(!c.name.is_empty());
            let _ = args::color_and_move(19, &c.args);
            for a in &c.args {
                let _ = args::float(a);
            }
            // Displaying and re-parsing gives the same command.
            assert_eq!(Command::parse(&c.to_string()).unwrap().as_ref(), Some(&c));
        }
        let lines: Vec<String> = line.lines().map(str::to_string).collect();
        let _ = response::parse(&lines);
    }
    for _ in 0..20_000 {
        let bytes: Vec<u8> = (0..rng.below(24)).map(|_| rng.next_u64() as u8).collect();
        let line = String::from_utf8_lossy(&bytes);
        let _ = Command::parse(&line);
        let _ = args::vertex(25, &line);
    }
}
