//! `tengen sgf score --compare DIR`: the estimator measured against finished records.
//!
//! Every record under DIR whose `RE` is a count (`B+3.5`, `W+0.5`, `0`) is replayed under its
//! own rules, its final position estimated, and the estimate's result compared with `RE`:
//! the winner, the exact result, whether the estimate said it was unsure, and the time a game
//! took (reading and replaying the record included). With `--reference CMD` a GTP engine
//! (GNU Go: `gnugo --mode gtp`) scores the same records with `loadsgf` and `final_score`, side
//! by side in the same run, so the two are timed on the same machine at the same moment.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use tengen_ai::estimate;
use tengen_rules::coord::gtp as coord;
use tengen_rules::{scoring, Game, GameResult, PointSet};
use tengen_sgf::game::replay;

/// One scorer's tally.
#[derive(Default)]
struct Tally {
    games: usize,
    winner: usize,
    exact: usize,
    unsure: usize,
    /// Wrong winners the scorer did not flag as unsure.
    wrong_unflagged: usize,
    failed: usize,
    time: Duration,
}

impl Tally {
    fn add(&mut self, got: Option<(GameResult, bool)>, want: GameResult, time: Duration) {
        self.games += 1;
        self.time += time;
        let Some((got, sure)) = got else {
            self.failed += 1;
            return;
        };
        let right = got.winner() == want.winner();
        self.winner += right as usize;
        self.exact += (got == want) as usize;
        self.unsure += !sure as usize;
        self.wrong_unflagged += (!right && sure) as usize;
    }

    fn line(&self, name: &str) -> String {
        let pct = |n: usize| 100.0 * n as f64 / self.games.max(1) as f64;
        let mut s = format!(
            "{name}: winner {}/{} ({:.2}%), exact {}/{} ({:.1}%), unsure {}, wrong and not flagged \
             unsure {}, {:.3} s a game",
            self.winner,
            self.games,
            pct(self.winner),
            self.exact,
            self.games,
            pct(self.exact),
            self.unsure,
            self.wrong_unflagged,
            self.time.as_secs_f64() / self.games.max(1) as f64
        );
        if self.failed > 0 {
            s.push_str(&format!(", {} without an answer", self.failed));
        }
        s
    }
}

/// A GTP engine that scores records.
struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Reference {
    fn start(command: &str) -> anyhow::Result<Reference> {
        let words: Vec<&str> = command.split_whitespace().collect();
        let (prog, args) = words.split_first().context("--reference is empty")?;
        let mut child = Command::new(prog)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the reference `{command}`"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        Ok(Reference {
            child,
            stdin,
            stdout,
        })
    }

    /// Sends one command and returns its answer, or the engine's error.
    fn ask(&mut self, command: &str) -> anyhow::Result<String> {
        writeln!(self.stdin, "{command}")?;
        self.stdin.flush()?;
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the reference engine closed its output");
            }
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim();
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => bail!("{answer}"),
        }
    }

    /// The count of the record's final position with the engine's dead stones
    /// (`final_status_list dead`), under the record's rules: the same count as Tengen's, so
    /// that only the judgement of the stones differs.
    fn score(&mut self, file: &Path, game: &Game) -> anyhow::Result<GameResult> {
        let path = std::fs::canonicalize(file)?;
        self.ask(&format!("loadsgf {}", path.display()))?;
        let list = self.ask("final_status_list dead")?;
        let board = game.board();
        let mut dead = PointSet::new();
        for word in list.split_whitespace() {
            let p = coord::parse_point(board.size(), word)
                .map_err(|e| anyhow::anyhow!("final_status_list named {word:?}: {e}"))?;
            dead.insert(p);
        }
        let h = game.handicap_stones().len() as u32;
        Ok(scoring::score(board, &dead, game.rules(), h).result)
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The records under `dir`, in name order.
fn records(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).with_context(|| format!("cannot read {}", d.display()))? {
            let p = e?.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

/// The record's game and its counted result, or why it is left out.
fn counted(file: &Path) -> Result<(Game, GameResult), String> {
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let c = tengen_sgf::parse(&bytes).map_err(|e| e.to_string())?;
    let tree = c.games.first().ok_or("no game")?;
    let r = replay(tree, None).map_err(|e| e.to_string())?;
    if let Some(p) = r.first_error() {
        return Err(p.to_string());
    }
    match r.info.result {
        Some(res @ (GameResult::Score { .. } | GameResult::Draw)) => Ok((r.game, res)),
        _ => Err("RE is not a count".into()),
    }
}

/// Runs the comparison over `dir`, printing each record that either scorer does not count
/// exactly or that the estimate is unsure of, then the summary.
pub fn compare(dir: &Path, reference: Option<&str>) -> anyhow::Result<()> {
    let files = records(dir)?;
    let mut reference = reference
        .map(|cmd| Reference::start(cmd).map(|r| (cmd.to_string(), r)))
        .transpose()?;
    let (mut ours, mut theirs) = (Tally::default(), Tally::default());
    let mut skipped = 0;
    for f in &files {
        let start = Instant::now();
        let (game, want) = match counted(f) {
            Ok(x) => x,
            Err(_) => {
                skipped += 1;
                continue;
            }
        };
        let e = estimate::count_estimate(&game);
        let time = start.elapsed();
        let got = e.result();
        let sure = e.winner_sure();
        ours.add(Some((got, sure)), want, time);
        let mut line = String::new();
        if got != want || !sure {
            line = format!(
                "{}: RE {want}, tengen {got}{} (range {:+.1} to {:+.1})",
                f.display(),
                if sure { "" } else { " unsure" },
                e.lead_range.0,
                e.lead_range.1
            );
        }
        if let Some((name, r)) = reference.as_mut() {
            let start = Instant::now();
            let answer = r.score(f, &game);
            let time = start.elapsed();
            let got = answer.as_ref().ok().map(|&g| (g, true));
            theirs.add(got, want, time);
            let inexact = got.is_none_or(|(g, _)| g != want);
            if inexact || !line.is_empty() {
                if line.is_empty() {
                    line = format!("{}: RE {want}, tengen {}", f.display(), e.result());
                }
                match answer {
                    Ok(g) => line.push_str(&format!(", {name}: {g}")),
                    Err(why) => line.push_str(&format!(", {name}: no answer ({why})")),
                }
            }
        }
        if !line.is_empty() {
            println!("{line}");
        }
    }
    println!(
        "{} records, {} with a counted result ({skipped} left out: no counted RE, or a move \
         that cannot be replayed)",
        files.len(),
        ours.games
    );
    println!("{}", ours.line("tengen"));
    if let Some((name, _)) = &reference {
        println!("{}", theirs.line(name));
    }
    Ok(())
}
