//! The EGF h9 results file, as OpenGotha writes it (`ExternalDocument.generateH9File`) and the
//! European Go Database takes it:
//!
//! ```text
//! ; EV[Tournoi de Juvisy]
//! ; Pl Name                            Rk Co Club  MMS  SOSSOSOS
//!    1 Minieri Davide                  3D FR 75Ju   36  128  503 0    2+/w0    3+/b0 ...
//! ```
//!
//! Each player line holds the place (blank when shared with the line above), the name, rank,
//! country and club, the value of each criterion the header names (padded with `0`s to four),
//! then one `OOOORTCH` per round: the opponent's line number (0 for no game), the result (`+`,
//! `-`, `=`, `?`), `/` or `!` (a result by default), the colour (`w`, `b`, `?`) and the
//! handicap. A round without a game prints the points it gave: `0+` a bye, `0=` an absence.
//!
//! [`read`] turns a file into an [`Event`]; [`write`] prints the event's standings back in the
//! same layout, best first, with the opponents renumbered.

use std::collections::HashMap;

use crate::pairing::whole::{self, Main, Seeding};
use crate::pairing::{HandicapPolicy, Pairing, PairingError};
use crate::standings::{Criterion, Entrant, Event, Game, Line, Outcome, Rest, ABSENT, BYE};
use crate::Rank;

/// Why an h9 file could not be read. Each names the line (from 1).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum H9Error {
    /// No `; Pl Name ...` header line naming the criteria.
    #[error("no column header line (\"; Pl Name ... Club ...\")")]
    NoHeader,
    /// A criterion the header names that Tengen does not know.
    #[error("line {line}: unknown criterion {name:?}")]
    UnknownCriterion {
        /// Line number.
        line: usize,
        /// The name.
        name: String,
    },
    /// A player line that does not hold a name, rank, country, club, criteria and rounds.
    #[error("line {line}: {why}")]
    BadLine {
        /// Line number.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// Two lines that disagree about the game between them.
    #[error("round {round}: {why}")]
    Inconsistent {
        /// Round, from 1.
        round: usize,
        /// What disagrees.
        why: String,
    },
}

impl H9Error {
    /// A stable code for programs.
    pub fn code(&self) -> &'static str {
        match self {
            H9Error::NoHeader => "h9_no_header",
            H9Error::UnknownCriterion { .. } => "h9_unknown_criterion",
            H9Error::BadLine { .. } => "h9_bad_line",
            H9Error::Inconsistent { .. } => "h9_inconsistent",
        }
    }
}

/// How the starting McMahon scores are found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// From each player's rank between a floor and a bar (30k scores 0), as OpenGotha does.
    Bar {
        /// Players weaker start at the floor's score.
        floor: Rank,
        /// Players stronger start at the bar's score.
        bar: Rank,
    },
    /// From the file: each player's MMS less the points of their rounds (which also keeps any
    /// correction the organiser gave a player).
    FromFile,
}

/// An h9 file read: the event, the criteria its header names, and what the writer needs to
/// print it back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct H9 {
    /// Players and results.
    pub event: Event,
    /// The criteria of the header, in order.
    pub criteria: Vec<Criterion>,
    /// The comment lines before the column header, printed back as they were.
    pub preamble: Vec<String>,
    /// Each player's country and club, by index.
    pub origins: Vec<(String, String)>,
    /// Each player's text after a `|` (an EGF PIN), printed back after the rounds.
    pub pins: Vec<Option<String>>,
    /// Whether rounds were written short (`2+`, no type, colour or handicap).
    pub short: bool,
}

/// One round's cell of a player line, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cell {
    opponent: usize,
    result: char,
    by_default: bool,
    colour: Option<char>,
    handicap: i32,
}

/// Reads an h9 file's text. `start` says how starting McMahon scores are found.
pub fn read(text: &str, start: Start) -> Result<H9, H9Error> {
    let mut preamble = Vec::new();
    let mut header = None;
    let mut rows = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        if let Some(comment) = line.trim_start().strip_prefix(';') {
            if header.is_none() && comment.trim_start().starts_with("Pl ") {
                header = Some(header_criteria(comment, i + 1)?);
            } else if header.is_none() {
                preamble.push(line.to_string());
            }
            continue;
        }
        rows.push((i + 1, line));
    }
    let criteria = header.ok_or(H9Error::NoHeader)?;
    let mut players = Vec::new();
    for (number, line) in rows {
        players.push(player_line(line, number, criteria.len())?);
    }
    let rounds = players.first().map_or(0, |p| p.cells.len());
    if let Some(p) = players.iter().find(|p| p.cells.len() != rounds) {
        return Err(H9Error::BadLine {
            line: p.line,
            why: format!(
                "{} rounds where the first player has {rounds}",
                p.cells.len()
            ),
        });
    }
    let short = players
        .iter()
        .flat_map(|p| &p.cells)
        .all(|c| c.opponent == 0 || c.colour.is_none());
    let event = event_with_rounding(&players, &criteria, rounds, start)?;
    let pins = players.iter().map(|p| p.pin.clone()).collect();
    let origins = players.into_iter().map(|p| (p.country, p.club)).collect();
    Ok(H9 {
        event,
        criteria,
        preamble,
        origins,
        pins,
        short,
    })
}

/// The criteria named after `Club` on the column header: five characters each, as OpenGotha
/// writes them (`  MMS  SOSSOSOS`), or separated by spaces.
fn header_criteria(comment: &str, line: usize) -> Result<Vec<Criterion>, H9Error> {
    let names = comment.split_once("Club").map_or("", |(_, rest)| rest);
    let chars: Vec<char> = names.trim_end().chars().collect();
    let chunks: Vec<String> = chars
        .rchunks(5)
        .rev()
        .map(|c| c.iter().collect::<String>().trim().to_string())
        .collect();
    let words: Vec<String> = names.split_whitespace().map(str::to_string).collect();
    let mcmahon = chunks.iter().chain(&words).any(|n| n == "MMS");
    let parse = |names: &[String]| -> Option<Vec<Criterion>> {
        names
            .iter()
            .filter(|n| !n.is_empty())
            .map(|n| Criterion::from_short_name(n, mcmahon))
            .collect()
    };
    // Fixed width first (names run together there), then words.
    let aligned = chars.len() % 5 == 0;
    if let Some(found) = aligned.then(|| parse(&chunks)).flatten() {
        return Ok(found);
    }
    parse(&words).ok_or_else(|| H9Error::UnknownCriterion {
        line,
        name: words
            .iter()
            .find(|n| Criterion::from_short_name(n, mcmahon).is_none())
            .cloned()
            .unwrap_or_default(),
    })
}

/// A player line, split.
#[derive(Debug)]
struct PlayerLine {
    line: usize,
    name: String,
    rank: Rank,
    country: String,
    club: String,
    values: Vec<i64>,
    cells: Vec<Cell>,
    pin: Option<String>,
}

fn player_line(text: &str, line: usize, criteria: usize) -> Result<PlayerLine, H9Error> {
    let bad = |why: String| H9Error::BadLine { line, why };
    let (text, pin) = match text.split_once('|') {
        Some((text, pin)) => (text, Some(pin.trim().to_string())),
        None => (text, None),
    };
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let mut cells = Vec::new();
    let mut end = tokens.len();
    while end > 0 {
        match cell(tokens[end - 1]) {
            Some(c) => cells.push(c),
            None => break,
        }
        end -= 1;
    }
    cells.reverse();
    let columns = criteria.max(4);
    // The place is a number at the front, absent when shared; the name runs up to the rank.
    let first = usize::from(tokens.first().is_some_and(|t| t.parse::<u32>().is_ok()));
    let rank_at = (first + 1..end)
        .find(|&i| tokens[i].parse::<Rank>().is_ok() && end - i > 1 + criteria)
        .ok_or_else(|| bad("no rank after the name".into()))?;
    // Country and club follow the rank; a file that left the country out (Pairgoth does when
    // it has none) has one column fewer.
    let after_rank = end - rank_at - 1;
    let (country, values_at) = if after_rank == criteria + 1 {
        (None, rank_at + 2)
    } else {
        (Some(tokens[rank_at + 1]), rank_at + 3)
    };
    let given = end - values_at;
    if given != columns && given != criteria {
        return Err(bad(format!(
            "{given} criteria values where the header names {criteria}"
        )));
    }
    let values = tokens[values_at..values_at + criteria]
        .iter()
        .map(|t| value(t).ok_or_else(|| bad(format!("not a criterion value: {t:?}"))))
        .collect::<Result<_, _>>()?;
    Ok(PlayerLine {
        line,
        name: tokens[first..rank_at].join(" "),
        rank: tokens[rank_at]
            .parse()
            .map_err(|_| bad("bad rank".into()))?,
        country: country.unwrap_or_default().to_string(),
        club: tokens[values_at - 1].to_string(),
        values,
        cells,
        pin,
    })
}

/// A round's cell: `12+/w0`, `3-!b2`, `0=`, `7?`.
fn cell(token: &str) -> Option<Cell> {
    let digits = token.find(|c: char| !c.is_ascii_digit())?;
    let opponent = token[..digits].parse().ok()?;
    let mut rest = token[digits..].chars();
    let result = rest.next().filter(|c| "+-=?".contains(*c))?;
    let tail: String = rest.collect();
    let (by_default, tail) = match tail.chars().next() {
        Some('/') => (false, &tail[1..]),
        Some('!') => (true, &tail[1..]),
        _ => (false, tail.as_str()),
    };
    let (colour, handicap) = match tail.chars().next() {
        Some(c @ ('w' | 'b' | '?')) => (Some(c), &tail[1..]),
        _ => (None, tail),
    };
    let handicap = if handicap.is_empty() {
        0
    } else {
        handicap.parse().ok().filter(|h| (0..=99).contains(h))?
    };
    Some(Cell {
        opponent,
        result,
        by_default,
        colour,
        handicap,
    })
}

/// A criterion value as printed: `36`, `128½` (or `128?`), `12¾`, `-3` (OpenGotha), or `12.5`, `3.25`
/// (Pairgoth); scaled by 4 here, then by the criterion's own scale by the caller. A value
/// beyond any event's (a billion) is refused, so that no sum of them can overflow.
fn value(token: &str) -> Option<i64> {
    const MOST: i64 = 1_000_000_000;
    if let Some((whole, part)) = token.split_once(['.', ',']) {
        let quarters = match part {
            "0" | "00" => 0,
            "25" => 1,
            "5" | "50" => 2,
            "75" => 3,
            _ => return None,
        };
        let sign = if whole.starts_with('-') { -1 } else { 1 };
        let whole: i64 = if whole.is_empty() || whole == "-" {
            0
        } else {
            whole.parse().ok().filter(|w: &i64| w.abs() <= MOST)?
        };
        return Some(whole * 4 + sign * quarters);
    }
    let (whole, quarters) = match token.char_indices().last()? {
        (i, '½') => (&token[..i], 2),
        (i, '¼') => (&token[..i], 1),
        (i, '¾') => (&token[..i], 3),
        // OpenGotha writes ½ in ISO-8859-15; a file passed through ASCII (as the EGC 2013
        // main event's was) shows it as `?`. Half-point criteria have no other fraction.
        (i, '?') => (&token[..i], 2),
        _ => (token, 0),
    };
    let whole: i64 = if whole.is_empty() || whole == "-" {
        0
    } else {
        whole.parse().ok().filter(|w: &i64| w.abs() <= MOST)?
    };
    let sign = if token.starts_with('-') { -1 } else { 1 };
    Some(whole * 4 + sign * quarters)
}

/// The event the lines describe, with rounds not played rounded down to whole points (as
/// OpenGotha does by default) unless the file's main score says they were not: the rounding
/// under which more players' wins (or McMahon scores) add up to the file's is taken, rounded
/// down on a tie. (A file whose organiser moved a player by hand still agrees on the rest.)
fn event_with_rounding(
    players: &[PlayerLine],
    criteria: &[Criterion],
    rounds: usize,
    start: Start,
) -> Result<Event, H9Error> {
    let rounded = event_of(players, criteria, rounds, start, true)?;
    let rounded_agree = agreeing(&rounded, players, criteria, start);
    if rounded_agree == players.len() {
        return Ok(rounded);
    }
    let exact = event_of(players, criteria, rounds, start, false)?;
    Ok(
        if agreeing(&exact, players, criteria, start) > rounded_agree {
            exact
        } else {
            rounded
        },
    )
}

/// How many players' main score in the event agrees with the file's column.
fn agreeing(event: &Event, players: &[PlayerLine], criteria: &[Criterion], start: Start) -> usize {
    let scores = event.scores(event.rounds.saturating_sub(1));
    let column = |c: Criterion| criteria.iter().position(|&x| x == c);
    let count = |c: Criterion, at: usize| {
        players
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                let file = p.values[at] * c.scale() / 4;
                let ours = scores.value(event, c, *i);
                // Starting scores read from the file make MMS agree by construction, up to a
                // half.
                match (c, start) {
                    (Criterion::Mms, Start::FromFile) => (file - ours).rem_euclid(2) == 0,
                    _ => file == ours,
                }
            })
            .count()
    };
    match (column(Criterion::Mms), column(Criterion::Nbw)) {
        (Some(at), _) => count(Criterion::Mms, at),
        (None, Some(at)) => count(Criterion::Nbw, at),
        (None, None) => players.len(),
    }
}

/// The event the lines describe, rounding rounds not played down to whole points or not.
fn event_of(
    players: &[PlayerLine],
    criteria: &[Criterion],
    rounds: usize,
    start: Start,
    round_down: bool,
) -> Result<Event, H9Error> {
    let mcmahon = criteria.contains(&Criterion::Mms);
    let given = |p: &PlayerLine, c: Criterion| {
        let at = criteria.iter().position(|&x| x == c)?;
        Some(p.values[at] * c.scale() / 4)
    };
    let entrants = players
        .iter()
        .map(|p| Entrant {
            name: p.name.clone(),
            rank: p.rank,
            start: 0,
            category: given(p, Criterion::Cat).map_or(0, |c| c - 1),
            rating: given(p, Criterion::Rating).unwrap_or(0),
        })
        .collect();
    let mut event = Event {
        entrants,
        rounds,
        games: Vec::new(),
        rests: Vec::new(),
        round_down,
        virtual_opponents: false,
    };
    for round in 0..rounds {
        round_of(players, round, mcmahon, &mut event)?;
    }
    // Points earned in the rounds, before any starting score.
    let scores = event.scores(rounds.saturating_sub(1));
    let earned: Vec<i64> = (0..players.len())
        .map(|i| scores.value(&event, Criterion::Mms, i))
        .collect();
    for (i, p) in players.iter().enumerate() {
        event.entrants[i].start = match start {
            Start::Bar { floor, bar } if mcmahon => {
                i64::from(p.rank.max(floor).min(bar).number() + 30)
            }
            Start::FromFile if mcmahon => {
                (given(p, Criterion::Mms).unwrap_or(0) - earned[i]).div_euclid(2)
            }
            _ => 0,
        };
    }
    Ok(event)
}

/// Adds one round's games and rests to the event, checking that both players of each game
/// name each other.
fn round_of(
    players: &[PlayerLine],
    round: usize,
    mcmahon: bool,
    event: &mut Event,
) -> Result<(), H9Error> {
    let inconsistent = |why: String| H9Error::Inconsistent {
        round: round + 1,
        why,
    };
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    for (i, p) in players.iter().enumerate() {
        let c = p.cells[round];
        if c.opponent == 0 {
            event.rests.push((i, round, rest(c.result, mcmahon)));
            continue;
        }
        let j = c.opponent - 1;
        let other = players.get(j).filter(|_| j != i).ok_or_else(|| {
            inconsistent(format!("line {} names opponent {}", p.line, c.opponent))
        })?;
        let back = other.cells[round];
        if back.opponent != i + 1 {
            return Err(inconsistent(format!(
                "{} names {} as opponent, who names {}",
                p.name, other.name, back.opponent
            )));
        }
        let key = (i.min(j), i.max(j));
        if seen.insert(key, event.games.len()).is_some() {
            continue;
        }
        event
            .games
            .push(game_of(round, (i, p, c), (j, other, back)));
    }
    Ok(())
}

/// The points a round without a game gave, from its result mark: the mark is the event's main
/// score (MMS or NBW); the other score follows OpenGotha's defaults.
fn rest(result: char, mcmahon: bool) -> Rest {
    match (result, mcmahon) {
        ('+', _) => BYE,
        ('=', true) => ABSENT,
        ('=', false) => Rest { nbw2: 1, mms2: 1 },
        (_, true) => Rest { nbw2: 0, mms2: 0 },
        (_, false) => Rest { nbw2: 0, mms2: 1 },
    }
}

/// The game two cells describe, from the first player's side.
fn game_of(
    round: usize,
    (i, p, c): (usize, &PlayerLine, Cell),
    (j, other, back): (usize, &PlayerLine, Cell),
) -> Game {
    let colours_known =
        matches!(c.colour, Some('w' | 'b')) || matches!(back.colour, Some('w' | 'b'));
    // With unknown colours, the weaker player took Black (and any handicap).
    let i_white = match (c.colour, back.colour) {
        (Some('w'), _) | (_, Some('b')) => true,
        (Some('b'), _) | (_, Some('w')) => false,
        _ => p.rank > other.rank || (p.rank == other.rank && i < j),
    };
    let (white, black) = if i_white { (i, j) } else { (j, i) };
    let (white_mark, black_mark) = if i_white {
        (c.result, back.result)
    } else {
        (back.result, c.result)
    };
    let outcome = match (white_mark, black_mark) {
        ('+', '+') => Outcome::BothWin,
        ('-', '-') => Outcome::BothLose,
        ('=', _) | (_, '=') => Outcome::Jigo,
        ('+', _) | (_, '-') => Outcome::WhiteWins,
        ('-', _) | (_, '+') => Outcome::BlackWins,
        _ => Outcome::Unknown,
    };
    Game {
        round,
        white,
        black,
        handicap: c.handicap.max(back.handicap),
        outcome,
        by_default: c.by_default || back.by_default,
        colours_known,
    }
}

/// Prints the standings of `h9`'s event as an h9 file, best first, in OpenGotha's layout.
pub fn write(h9: &H9) -> String {
    let event = &h9.event;
    let last = event.rounds.saturating_sub(1);
    let lines = event.standings(&h9.criteria, last);
    let mut out = String::new();
    for line in &h9.preamble {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str("; Pl Name                            Rk Co Club");
    for c in &h9.criteria {
        out.push_str(&format!("{:>5}", truncate(c.short_name(), 5)));
    }
    out.push('\n');
    let line_of: HashMap<usize, usize> = lines
        .iter()
        .enumerate()
        .map(|(k, l)| (l.player, k + 1))
        .collect();
    for line in &lines {
        out.push_str(&player_text(h9, line, &line_of));
        out.push('\n');
    }
    out
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// The last `n` characters of `s`, right-aligned in `n` columns.
fn right(s: &str, n: usize) -> String {
    let chars: Vec<char> = s.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(n)..].iter().collect();
    format!("{tail:>n$}")
}

fn player_text(h9: &H9, line: &Line, line_of: &HashMap<usize, usize>) -> String {
    let event = &h9.event;
    let entrant = &event.entrants[line.player];
    let place = if line.tied_above {
        String::new()
    } else {
        line.place.to_string()
    };
    let (country, club) = &h9.origins[line.player];
    let country = if country.trim().len() < 2 {
        "XX"
    } else {
        country.trim()
    };
    let club = if club.trim().is_empty() {
        "xxxx"
    } else {
        club.trim()
    };
    let name = format!("{:<30}", truncate(&entrant.name, 30));
    let mut text = format!(
        "{} {} {} {} {}",
        right(&place, 4),
        name,
        right(&entrant.rank.to_string(), 3),
        right(country, 2),
        right(club, 4)
    );
    for (c, v) in h9.criteria.iter().zip(&line.values) {
        text.push_str(&format!(" {:>4}", truncate(&c.format(*v), 4)));
    }
    for _ in h9.criteria.len()..4 {
        text.push_str(" 0");
    }
    for round in 0..event.rounds {
        text.push(' ');
        text.push_str(&right(&round_text(h9, line.player, round, line_of), 8));
    }
    if let Some(pin) = &h9.pins[line.player] {
        text.push_str(&format!(" |{pin}"));
    }
    text
}

/// A player's cell for a round: `   2+/w0`, or `   0=   ` for a round without a game.
fn round_text(h9: &H9, p: usize, round: usize, line_of: &HashMap<usize, usize>) -> String {
    let event = &h9.event;
    let mcmahon = h9.criteria.contains(&Criterion::Mms);
    let game = event
        .games
        .iter()
        .find(|g| g.round == round && (g.white == p || g.black == p));
    let Some(g) = game else {
        let rest = event
            .rests
            .iter()
            .find(|&&(q, r, _)| q == p && r == round)
            .map(|&(_, _, rest)| if mcmahon { rest.mms2 } else { rest.nbw2 });
        let mark = match rest {
            Some(2) => '+',
            Some(1) => '=',
            _ => '-',
        };
        return format!("   0{mark}   ");
    };
    let white = g.white == p;
    let mark = match (g.outcome, white) {
        (Outcome::BothWin, _) | (Outcome::WhiteWins, true) | (Outcome::BlackWins, false) => '+',
        (Outcome::BothLose, _) | (Outcome::WhiteWins, false) | (Outcome::BlackWins, true) => '-',
        (Outcome::Jigo, _) => '=',
        (Outcome::Unknown, _) => '?',
    };
    let opponent = line_of.get(&g.opponent(p)).copied().unwrap_or(0);
    if h9.short {
        return format!("{opponent:>4}{mark}");
    }
    let kind = if g.by_default && g.outcome != Outcome::Unknown {
        '!'
    } else {
        '/'
    };
    let colour = match (g.colours_known, white) {
        (false, _) => '?',
        (true, true) => 'w',
        (true, false) => 'b',
    };
    format!("{opponent:>4}{mark}{kind}{colour}{}", g.handicap)
}

impl H9 {
    /// Whether the event is McMahon (its criteria include MMS) or Swiss.
    pub fn mcmahon(&self) -> bool {
        self.criteria.contains(&Criterion::Mms)
    }

    /// The handicap the file's games show: none when every game was even; otherwise
    /// OpenGotha's policy with the stones taken off that the header's `HA[hN]` names.
    pub fn handicap(&self) -> Option<HandicapPolicy> {
        if self.event.games.iter().all(|g| g.handicap == 0) {
            return None;
        }
        let reduction = self
            .preamble
            .iter()
            .find_map(|l| l.split_once("HA[h"))
            .and_then(|(_, rest)| rest.split(']').next()?.parse().ok())
            // OpenGotha offers 0 to 9 stones off; a header outside that is not trusted (and
            // `hd - reduction` must not overflow).
            .filter(|r: &i32| (0..=9).contains(r))
            .unwrap_or(0);
        Some(HandicapPolicy {
            reduction,
            ..HandicapPolicy::default()
        })
    }

    /// The McMahon bar and floor the starting scores span (the strongest and weakest start).
    pub fn bar_and_floor(&self) -> (Rank, Rank) {
        let starts = self.event.entrants.iter().map(|e| e.start);
        let rank = |s: i64| Rank::from_number(i32::try_from(s - 30).unwrap_or(0));
        (
            rank(starts.clone().max().unwrap_or(30)),
            rank(starts.min().unwrap_or(30)),
        )
    }

    /// Pairs `round` (from 0) as a whole from the rounds before it, among the players who
    /// played in it (a game or the bye), as OpenGotha would.
    pub fn pair_round(
        &self,
        round: usize,
        main: Main,
        seeding: Seeding,
    ) -> Result<Pairing, PairingError> {
        let before = self.event.before(round);
        let present = self.event.present_in(round);
        crate::pairing::check(&before, round, &present)?;
        Ok(whole::pair(&whole::Round {
            event: &before,
            round,
            present: &present,
            main,
            handicap: self
                .handicap()
                .filter(|_| matches!(main, Main::McMahon { .. })),
            criteria: &self.criteria,
            origins: &self.origins,
            seeding,
        }))
    }

    /// How many boards of `pairing` the file's own `round` has (the same two players).
    pub fn same_boards(&self, round: usize, pairing: &Pairing) -> usize {
        let key = |a: usize, b: usize| (a.min(b), a.max(b));
        let file: std::collections::HashSet<(usize, usize)> = self
            .event
            .games
            .iter()
            .filter(|g| g.round == round)
            .map(|g| key(g.white, g.black))
            .collect();
        pairing
            .games
            .iter()
            .filter(|p| file.contains(&key(p.white, p.black)))
            .count()
    }
}
