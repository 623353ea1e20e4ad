//! `lz-analyze` and `kata-analyze`: their arguments as KataGo parses them and their reports in
//! its exact format (`cpp/command/gtp.cpp`, documented in KataGo's `docs/GTP_Extensions.md`),
//! so that Lizzie, Sabaki and KaTrain read Tengen as they read KataGo. Every figure is for the
//! player analysed; numbers are printed as C++ streams print them (six significant digits).
//!
//! The network's search reports all of KataGo's fields; the Monte Carlo engine, which has no
//! score, reports visits, win rate, prior, order and line (and ownership when asked).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tengen_ai::nn::search::{Limits, Puct, Report};
use tengen_ai::nn::{Evaluator, NnError};
use tengen_ai::search;
use tengen_gtp::args;
use tengen_rules::coord::gtp as coord;
use tengen_rules::{Color, Game, Move, Point};

/// The search behind an analysis: the Monte Carlo engine's, or the network's.
pub enum Searcher {
    /// Playouts.
    Mcts(Box<search::Search>),
    /// The network's PUCT search of `game`.
    Nn {
        /// The search.
        puct: Box<Puct>,
        /// The network.
        eval: Arc<Evaluator>,
        /// The position searched.
        game: Box<Game>,
    },
}

impl Searcher {
    /// Searches for `time` more, or `visits` more, whichever ends first.
    pub fn run(&mut self, time: Duration, visits: u32) -> Result<(), NnError> {
        match self {
            Searcher::Mcts(s) => {
                s.run(Some(visits), Some(time));
                Ok(())
            }
            Searcher::Nn { puct, eval, game } => puct.run(eval, game, Some(visits), Some(time)),
        }
    }

    /// What the search knows now.
    pub fn analysis(&self) -> search::Analysis {
        match self {
            Searcher::Mcts(s) => s.analysis(),
            Searcher::Nn { puct, .. } => puct.analysis(),
        }
    }

    /// Playouts or visits after which the analysis stops growing its tree unless told fewer
    /// (a GUI left open must not exhaust memory; the network's nodes are larger and slower to
    /// make).
    pub fn limit(&self) -> u32 {
        match self {
            Searcher::Mcts(_) => 2_000_000,
            Searcher::Nn { .. } => 100_000,
        }
    }
}

/// What an analysis command asked for (KataGo's `AnalyzeArgs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The player analysed; `None`: the player to move.
    pub color: Option<Color>,
    /// Time between reports.
    pub interval: Duration,
    /// KataGo's dialect (`kata-analyze`) rather than Leela Zero's.
    pub kata: bool,
    /// At least this many moves, unvisited ones included if need be.
    pub min_moves: usize,
    /// At most this many moves.
    pub max_moves: usize,
    /// `ownership true`, `ownershipStdev true`, `pvVisits true`, `pvEdgeVisits true`,
    /// `rootInfo true`.
    pub ownership: bool,
    pub ownership_stdev: bool,
    pub pv_visits: bool,
    pub pv_edge_visits: bool,
    pub root_info: bool,
}

/// Reads `[player] [interval] KEY VALUE ...` as KataGo does: the colour and the interval (in
/// centiseconds) first if present, then pairs; a key without a value, a key the dialect does
/// not know or a value that does not read is an error. `avoid`, `allow` and the per-move
/// ownership of KataGo are not supported (an error, not silently ignored).
pub fn parse(kata: bool, a: &[String]) -> Result<Options, ()> {
    let mut o = Options {
        color: None,
        interval: Duration::from_secs(1),
        kata,
        min_moves: 0,
        max_moves: usize::MAX,
        ownership: false,
        ownership_stdev: false,
        pv_visits: false,
        pv_edge_visits: false,
        root_info: false,
    };
    let mut rest = a;
    if let Some(c) = rest.first().and_then(|s| args::color(s).ok()) {
        o.color = Some(c);
        rest = &rest[1..];
    }
    if let Some(i) = rest.first().and_then(|s| centiseconds(s)) {
        o.interval = i;
        rest = &rest[1..];
    }
    for pair in rest.chunks(2) {
        let [key, value] = pair else { return Err(()) };
        let flag = || match value.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            _ => Err(()),
        };
        let count = || value.parse::<usize>().map_err(|_| ());
        match (key.as_str(), kata) {
            ("interval", _) => o.interval = centiseconds(value).ok_or(())?,
            ("minmoves", _) => o.min_moves = count()?,
            ("maxmoves", _) => o.max_moves = count()?,
            ("ownership", true) => o.ownership = flag()?,
            ("ownershipStdev", true) => o.ownership_stdev = flag()?,
            ("pvVisits", true) => o.pv_visits = flag()?,
            ("pvEdgeVisits", true) => o.pv_edge_visits = flag()?,
            ("rootInfo", true) => o.root_info = flag()?,
            _ => return Err(()),
        }
    }
    Ok(o)
}

/// An interval in centiseconds (a float, as KataGo reads it), at least one.
fn centiseconds(s: &str) -> Option<Duration> {
    let cs = s
        .parse::<f64>()
        .ok()
        .filter(|c| c.is_finite() && *c >= 0.0)?;
    Duration::try_from_secs_f64(cs.max(1.0) / 100.0).ok()
}

/// A running analysis: the search, how often to report, and what.
pub struct Analysis {
    /// The search, continued a slice at a time.
    pub search: Searcher,
    /// What was asked.
    pub options: Options,
    /// The player analysed.
    pub color: Color,
    /// Board side.
    pub size: u8,
    /// Playouts or visits at which the search stops and waits for the next command: the
    /// engine's `--playouts` or `--visits`, else [`Searcher::limit`].
    pub cap: u32,
}

impl Analysis {
    /// Searches one interval (or up to the cap); false once the cap is reached.
    pub fn step(&mut self) -> Result<bool, NnError> {
        let done = self.search.analysis().playouts;
        if done >= self.cap {
            return Ok(false);
        }
        self.search.run(self.options.interval, self.cap - done)?;
        Ok(true)
    }

    /// One report line, or `None` while no move has been visited (an empty line would end the
    /// response).
    pub fn report(&self) -> Option<String> {
        let p = Printer {
            options: &self.options,
            color: self.color,
            size: self.size,
        };
        let out = match &self.search {
            Searcher::Nn { puct, .. } => p.network(&puct.report()),
            Searcher::Mcts(s) => p.playouts(&s.analysis()),
        };
        (!out.is_empty()).then_some(out)
    }
}

/// A report's format: what was asked, for whom, on which board.
pub struct Printer<'a> {
    /// What was asked.
    pub options: &'a Options,
    /// The player analysed.
    pub color: Color,
    /// Board side.
    pub size: u8,
}

impl Printer<'_> {
    /// How many of `visits` (best first) to print: the visited ones or `min_moves`, at most
    /// `max_moves`.
    fn shown(&self, visits: impl Iterator<Item = u32>) -> usize {
        let o = &self.options;
        let visited = visits.take_while(|&v| v > 0).count();
        visited.max(o.min_moves).min(o.max_moves)
    }

    fn mv(&self, m: Move) -> String {
        coord::format_move(self.size, m)
    }

    fn line(&self, pv: &[Move]) -> String {
        let moves: Vec<String> = pv.iter().map(|&m| self.mv(m)).collect();
        moves.join(" ")
    }

    /// The network's report, in KataGo's fields and order ("" while no move is visited).
    pub fn network(&self, r: &Report) -> String {
        let o = &self.options;
        let n = self
            .shown(r.moves.iter().map(|m| m.visits))
            .min(r.moves.len());
        if n == 0 {
            return String::new();
        }
        let mut out = String::new();
        for (order, m) in r.moves[..n].iter().enumerate() {
            if order > 0 {
                out.push(' ');
            }
            let mv = self.mv(m.mv);
            let pv = self.line(&m.pv);
            let visits: Vec<String> = m.pv_visits.iter().map(u32::to_string).collect();
            if o.kata {
                let _ = write!(
                    out,
                    "info move {mv} visits {v} edgeVisits {v} utility {} winrate {} scoreMean {} \
                     scoreStdev {} scoreLead {} scoreSelfplay {} prior {} lcb {} utilityLcb {} \
                     weight {v} order {order} pv {pv}",
                    g(m.utility),
                    g(m.winrate),
                    g(m.lead),
                    g(m.score_stdev),
                    g(m.lead),
                    g(m.score_selfplay),
                    g(m.prior),
                    g(m.lcb),
                    g(m.utility_lcb),
                    v = m.visits,
                );
            } else {
                let _ = write!(
                    out,
                    "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                    m.visits,
                    (m.winrate * 10000.0).round(),
                    (m.prior * 10000.0).round(),
                    (m.lcb * 10000.0).round(),
                );
            }
            if o.pv_visits {
                let _ = write!(out, " pvVisits {}", visits.join(" "));
            }
            if o.pv_edge_visits {
                let _ = write!(out, " pvEdgeVisits {}", visits.join(" "));
            }
        }
        if o.root_info && o.kata {
            let t = &r.root;
            let _ = write!(
                out,
                " rootInfo visits {} utility {} winrate {} scoreMean {} scoreStdev {} \
                 scoreLead {} scoreSelfplay {} weight {}",
                t.visits,
                g(t.utility),
                g(t.winrate),
                g(t.lead),
                g(t.score_stdev),
                g(t.lead),
                g(t.score_selfplay),
                t.visits
            );
        }
        let area = r.size * r.size;
        if o.ownership && o.kata {
            write_grid(&mut out, "ownership", &r.ownership, area);
        }
        if o.ownership_stdev && o.kata {
            write_grid(&mut out, "ownershipStdev", &r.ownership_stdev, area);
        }
        out
    }

    /// The Monte Carlo engine's report (no score: the fields it has).
    fn playouts(&self, a: &search::Analysis) -> String {
        let o = &self.options;
        let n = self
            .shown(a.moves.iter().map(|m| m.visits))
            .min(a.moves.len());
        if n == 0 {
            return String::new();
        }
        let mut out = Vec::new();
        for (order, m) in a.moves[..n].iter().enumerate() {
            let (mv, pv) = (self.mv(m.mv), self.line(&m.pv));
            out.push(if o.kata {
                format!(
                    "info move {mv} visits {} winrate {} prior {} order {order} pv {pv}",
                    m.visits,
                    g(m.winrate as f64),
                    g(m.prior as f64),
                )
            } else {
                format!(
                    "info move {mv} visits {} winrate {} prior {} lcb {} order {order} pv {pv}",
                    m.visits,
                    (m.winrate * 10000.0).round() as i32,
                    (m.prior * 10000.0).round() as i32,
                    (lcb(m.winrate, m.visits) * 10000.0).round() as i32,
                )
            });
        }
        let mut out = out.join(" ");
        if o.ownership && o.kata {
            // The playouts' ownership is +1 Black by point index: to the player's, row-major.
            let s = if self.color == Color::Black {
                1.0
            } else {
                -1.0
            };
            let size = self.size;
            let grid: Vec<f64> = (0..size as usize * size as usize)
                .map(|i| {
                    let (x, y) = ((i % size as usize) as u8, (i / size as usize) as u8);
                    Point::new(size, x, y).map_or(0.0, |p| s * a.owner(p) as f64)
                })
                .collect();
            write_grid(&mut out, "ownership", &grid, grid.len());
        }
        out
    }
}

/// Searches `p` within `limits` as [`Puct::run_with`] does, but in slices of `every`, calling
/// `report` after each (`kata-genmove_analyze`); the early stop is checked between slices.
pub fn run_reporting(
    p: &mut Puct,
    eval: &Evaluator,
    game: &Game,
    limits: &Limits,
    every: Duration,
    report: &mut dyn FnMut(&Puct),
) -> Result<(), NnError> {
    let start = Instant::now();
    let before = p.root_visits();
    loop {
        let elapsed = start.elapsed();
        let done = p.root_visits() - before;
        let visits_left = limits.visits.map(|v| v.saturating_sub(done));
        let time_left = limits.time.map(|t| t.saturating_sub(elapsed));
        let evaluated = p.root_visits() > 0;
        if evaluated && (visits_left == Some(0) || time_left == Some(Duration::ZERO)) {
            return Ok(());
        }
        if let (true, Some(t)) = (limits.stop_early && done > 0, time_left) {
            let rate = done as f64 / elapsed.as_secs_f64().max(1e-6);
            let more = visits_left.map_or(f64::INFINITY, f64::from);
            if p.decided((rate * t.as_secs_f64()).min(more)) {
                return Ok(());
            }
        }
        let slice = time_left.map_or(every, |t| t.min(every));
        p.run(eval, game, visits_left, Some(slice))?;
        report(p);
    }
}

/// ` NAME v v v ...`, or zeros before the first evaluation.
fn write_grid(out: &mut String, name: &str, values: &[f64], area: usize) {
    let _ = write!(out, " {name}");
    for i in 0..area {
        let _ = write!(out, " {}", g(values.get(i).copied().unwrap_or(0.0)));
    }
}

/// A lower confidence bound of a win rate (about two standard errors), as Leela Zero reports.
fn lcb(winrate: f32, visits: u32) -> f32 {
    let n = visits.max(1) as f32;
    (winrate - 2.0 * (winrate * (1.0 - winrate) / n).sqrt()).max(0.0)
}

/// `x` as a C++ stream prints a double by default (`%g` with six significant digits): fixed
/// notation for exponents -4 to 5, else scientific with a two-digit exponent; no trailing
/// zeros.
pub fn g(x: f64) -> String {
    if x == 0.0 {
        return if x.is_sign_negative() { "-0" } else { "0" }.into();
    }
    if !x.is_finite() {
        return if x.is_nan() {
            "nan".into()
        } else if x > 0.0 {
            "inf".into()
        } else {
            "-inf".into()
        };
    }
    // The exponent after rounding to six digits (9.999999 prints as 10).
    let sci = format!("{x:.5e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        let fixed = format!("{x:.*}", (5 - exp) as usize);
        trim_zeros(&fixed).to_string()
    } else {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{}e{sign}{:02}", trim_zeros(mantissa), exp.abs())
    }
}

fn trim_zeros(s: &str) -> &str {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.')
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn numbers_print_as_cpp_streams_print_them() {
        for (x, want) in [
            (0.480018, "0.480018"),
            (-0.0408357123, "-0.0408357"),
            (24.70581, "24.7058"),
            (0.5, "0.5"),
            (1.0, "1"),
            (-1.0, "-1"),
            (123456.7, "123457"),
            (1234567.0, "1.23457e+06"),
            (0.0001234567, "0.000123457"),
            (0.00001234567, "1.23457e-05"),
            (9.9999999, "10"),
            (0.0, "0"),
            (-0.0, "-0"),
        ] {
            assert_eq!(g(x), want, "{x}");
        }
    }

    #[test]
    fn arguments_are_read_as_katago_reads_them() {
        let o = parse(true, &words("B 10 maxmoves 3 ownership true pvVisits 1")).unwrap();
        assert_eq!(o.color, Some(Color::Black));
        assert_eq!(o.interval, Duration::from_millis(100));
        assert_eq!(o.max_moves, 3);
        assert!(o.ownership && o.pv_visits && !o.ownership_stdev);
        let o = parse(true, &words("interval 50 minmoves 2 ownershipStdev TRUE")).unwrap();
        assert_eq!((o.color, o.interval), (None, Duration::from_millis(500)));
        assert!(o.ownership_stdev && o.min_moves == 2);
        // A key without a value, a key of the other dialect, a value that does not read.
        for bad in [
            "b soon",
            "purple",
            "w 10 ownership",
            "ownership maybe",
            "maxmoves -1",
            "avoid b D4 1",
        ] {
            assert!(parse(true, &words(bad)).is_err(), "{bad}");
        }
        assert!(parse(false, &words("ownership true")).is_err());
        assert!(parse(false, &words("w interval 5 maxmoves 2")).is_ok());
    }
}
