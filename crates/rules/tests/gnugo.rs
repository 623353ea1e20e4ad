//! Differential test against GNU Go 3.8: random games played move by move through
//! `gnugo --mode gtp` and Tengen under the `japanese` preset. Both must agree on every legal and
//! illegal move (occupied points, suicide, ko) and on the board after each move.
//!
//! Needs GNU Go at `/usr/games/gnugo` (`apt-get install gnugo`); `.ci/run` installs it and runs
//! this with `--include-ignored`. Under `CI=true` a missing GNU Go fails the test. The number of
//! games defaults to 2,000 and can be set with `TENGEN_GNUGO_GAMES`.

#![allow(clippy::unwrap_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use tengen_rules::coord::gtp;
use tengen_rules::playout::Rng;
use tengen_rules::{Color, Game, GameError, Handicap, Move, Phase, Point, Preset};

const GNUGO: &str = "/usr/games/gnugo";

struct Engine {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Engine {
    fn start() -> Option<Engine> {
        if !std::path::Path::new(GNUGO).exists() {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("GNU Go is required in CI: apt-get install gnugo");
            }
            eprintln!("skipping: {GNUGO} is not installed");
            return None;
        }
        let mut child = Command::new(GNUGO)
            .args(["--mode", "gtp", "--level", "0"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start GNU Go");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Some(Engine {
            child,
            stdin,
            stdout,
        })
    }

    /// Sends one command; `Ok(body)` for `=`, `Err(body)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
        let mut response = String::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(n > 0, "GNU Go closed its output after {command:?}");
            if line.trim().is_empty() && !response.is_empty() {
                break;
            }
            response.push_str(&line);
        }
        let body = response[1..].trim().to_string();
        if response.starts_with('=') {
            Ok(body)
        } else {
            Err(body)
        }
    }

    fn stones(&mut self, size: u8, color: &str) -> Vec<Point> {
        let list = self.send(&format!("list_stones {color}")).unwrap();
        let mut pts: Vec<Point> = list
            .split_whitespace()
            .map(|v| gtp::parse_point(size, v).unwrap())
            .collect();
        pts.sort();
        pts
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn stones_of(g: &Game, c: Color) -> Vec<Point> {
    g.board()
        .points()
        .filter(|&p| g.board().get(p) == Some(c))
        .collect()
}

#[test]
#[ignore = "needs GNU Go (/usr/games/gnugo); run by .ci/run"]
fn tengen_and_gnu_go_agree_on_every_move() {
    let Some(mut gnugo) = Engine::start() else {
        return;
    };
    let games: u32 = std::env::var("TENGEN_GNUGO_GAMES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let mut rng = Rng::new(0x6E_75_67_6F);
    let (mut legal, mut illegal) = (0u64, [0u64; 4]);
    for game_no in 0..games {
        let size = [9u8, 9, 9, 5, 7, 13, 19][game_no as usize % 7];
        gnugo.send(&format!("boardsize {size}")).unwrap();
        gnugo.send("clear_board").unwrap();
        let mut game = Game::new(size, Preset::Japanese.rules(size), Handicap::None).unwrap();
        let plies = size as u32 * size as u32 * 2;
        for ply in 0..plies {
            if game.phase() == Phase::Scoring {
                game.resume().unwrap(); // GNU Go's board just goes on after two passes
            }
            if game.phase() == Phase::Finished {
                break; // a triple repetition ended the game under Japanese rules
            }
            let c = game.to_move();
            let mv = if rng.below(60) == 0 {
                Move::Pass
            } else {
                let empties: Vec<Point> = game
                    .board()
                    .points()
                    .filter(|&p| game.board().is_empty(p))
                    .collect();
                let pick_any = rng.below(7) == 0 || empties.is_empty();
                if pick_any {
                    let col = rng.below(size as u32) as u8;
                    let row = rng.below(size as u32) as u8;
                    Move::Play(Point::new(size, col, row).unwrap())
                } else {
                    Move::Play(empties[rng.below(empties.len() as u32) as usize])
                }
            };
            let vertex = gtp::format_move(size, mv);
            let ours = game.check(c, mv);
            let theirs = gnugo.send(&format!("play {} {vertex}", c.letter()));
            match (&ours, &theirs) {
                (Ok(()), Ok(_)) => {
                    game.play(c, mv).unwrap();
                    legal += 1;
                }
                (Err(e), Err(msg)) => {
                    assert!(msg.contains("illegal move"), "GNU Go said {msg:?}");
                    let slot = match e {
                        GameError::Occupied => 0,
                        GameError::Suicide => 1,
                        GameError::Ko => 2,
                        _ => 3,
                    };
                    illegal[slot] += 1;
                }
                _ => panic!(
                    "game {game_no} ply {ply} ({size}x{size}): {} {vertex}: Tengen {ours:?}, GNU Go {theirs:?}\n{}",
                    c.letter(),
                    game.board()
                ),
            }
            for (color, name) in [(Color::Black, "black"), (Color::White, "white")] {
                let want = gnugo.stones(size, name);
                let have = stones_of(&game, color);
                assert_eq!(
                    have,
                    want,
                    "game {game_no} ply {ply}: {name} stones differ\n{}",
                    game.board()
                );
            }
        }
    }
    eprintln!(
        "{games} games: {legal} legal moves; illegal: {} occupied, {} suicide, {} ko, {} other",
        illegal[0], illegal[1], illegal[2], illegal[3]
    );
    assert!(
        illegal[1] > 0 && illegal[2] > 0,
        "the random games must reach suicides and kos"
    );
    assert_eq!(illegal[3], 0);
}
