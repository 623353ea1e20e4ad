//! What clients see of a game: the snapshot sent to a new watcher and by `GET /api/games/{id}`.

use serde::{Deserialize, Serialize, Serializer};
use tengen_rules::coord::gtp;
use tengen_rules::{Color, Move, Phase};

use crate::domain::clock::Clock;
use crate::game::{LiveGame, Terms};
use crate::player::Player;

/// A colour as clients read it: `"black"` or `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::Black => Side::Black,
            Color::White => Side::White,
        }
    }
}

impl Side {
    /// `"black"` or `"white"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }
}

/// A game's phase as clients read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PhaseName {
    /// Stones are played.
    Play,
    /// Dead stones are marked.
    Scoring,
    /// Over.
    Finished,
}

impl PhaseName {
    /// `"play"`, `"scoring"` or `"finished"`.
    pub fn as_str(self) -> &'static str {
        match self {
            PhaseName::Play => "play",
            PhaseName::Scoring => "scoring",
            PhaseName::Finished => "finished",
        }
    }
}

impl From<Phase> for PhaseName {
    fn from(p: Phase) -> PhaseName {
        match p {
            Phase::Play => PhaseName::Play,
            Phase::Scoring => PhaseName::Scoring,
            Phase::Finished => PhaseName::Finished,
        }
    }
}

/// One value for each colour.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sides<T> {
    /// Black's.
    pub black: T,
    /// White's.
    pub white: T,
}

/// A move of the game's main line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveView {
    /// Who played it.
    pub color: Side,
    /// Its point in GTP spelling, or `pass`.
    pub point: String,
}

/// One side's count.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CountView {
    /// Stones given for the handicap (counted back under some rules).
    pub handicap_bonus: u32,
    /// Komi as written.
    pub komi: String,
    /// Stones captured.
    pub prisoners: u32,
    /// Stones on the board.
    pub stones: u32,
    /// Points of territory.
    pub territory: u32,
    /// The whole count.
    pub total: f64,
}

/// The count of a game in its scoring phase or over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreView {
    /// Black's count.
    pub black: CountView,
    /// Points Black owns.
    pub black_territory: Vec<String>,
    /// Points nobody owns.
    pub dame: Vec<String>,
    /// The SGF result.
    pub result: String,
    /// Points in seki.
    pub seki: Vec<String>,
    /// White's count.
    pub white: CountView,
    /// Points White owns.
    pub white_territory: Vec<String>,
}

/// Both clocks at a moment, for clients' ticking displays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClocksView {
    /// Black's clock.
    #[serde(serialize_with = "sorted")]
    pub black: Clock,
    /// A correspondence game's clock.
    pub correspondence: bool,
    /// Whose clock runs (none before the first move and once over).
    pub running: Option<Side>,
    /// The server's time, ms since the epoch, for the client's offset.
    pub server_ms: i64,
    /// Vacations still running, ms since the epoch.
    pub vacation: Sides<Option<i64>>,
    /// White's clock.
    #[serde(serialize_with = "sorted")]
    pub white: Clock,
}

/// One player's connection to a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PresenceView {
    /// Whether they ever came to the game.
    pub arrived: bool,
    /// Whether a connection of theirs watches it now.
    pub connected: bool,
    /// While they are away and were told so: when their grace period ends, ms since the epoch.
    pub until: Option<i64>,
}

/// The whole state of a game, as a new watcher and `GET /api/games/{id}` see it. Its fields
/// are in alphabetical order, and the types inside that are not written so ([`Terms`],
/// [`Player`], [`Clock`]) are written with their keys sorted: the bytes are those of the
/// `json!` object this replaced.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Who accepted the count.
    pub accepted: Sides<bool>,
    /// Why the result counts for nobody's points or rating (`null` when it counts).
    pub annulled: Option<String>,
    /// Black.
    #[serde(serialize_with = "sorted")]
    pub black: Player,
    /// The board, a row a string from the top: `X`, `O`, `.`.
    pub board: Vec<String>,
    /// Stones each side captured.
    pub captures: Sides<u32>,
    /// The clocks (`null` for an untimed game; set by the live actor, which runs them).
    pub clocks: Option<ClocksView>,
    /// Stones marked dead.
    pub dead: Vec<String>,
    /// How the game ended.
    pub end_reason: Option<String>,
    /// The handicap stones.
    pub handicap_stones: Vec<String>,
    /// The game's id.
    pub id: i64,
    /// The point ko forbids now.
    pub ko: Option<String>,
    /// The main line.
    pub moves: Vec<MoveView>,
    /// The phase.
    pub phase: PhaseName,
    /// The players' connections (set by the live actor).
    pub presence: Option<Sides<PresenceView>>,
    /// The SGF result, once over.
    pub result: Option<String>,
    /// The count, in the scoring phase and after.
    pub score: Option<ScoreView>,
    /// Who asked to go to the count.
    pub scoring_requested: Sides<bool>,
    /// The seq of the last event this state holds.
    pub seq: u64,
    /// Who asked to take a move back.
    pub takeback_requested_by: Option<Side>,
    /// The terms.
    #[serde(serialize_with = "sorted")]
    pub terms: Terms,
    /// Whose turn it is.
    pub to_move: Side,
    /// Stones the engine was unsure of at the count.
    pub unsure: Vec<String>,
    /// Whether the unsure stones decide the winner: the client then asks the players to mark
    /// them rather than offering to accept (issue 29 item 3).
    pub unsure_decides: bool,
    /// White.
    #[serde(serialize_with = "sorted")]
    pub white: Player,
}

/// Writes `v` with its keys (and those of everything inside) in alphabetical order, as
/// `serde_json`'s map (and so `json!`) writes them.
fn sorted<T: Serialize, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
    serde_json::to_value(v)
        .map_err(serde::ser::Error::custom)?
        .serialize(s)
}

/// The whole state of a game at event `seq`, without its clocks and presence (which the live
/// actor, running them, sets).
pub fn snapshot(id: i64, live: &LiveGame, players: &[Player; 2], seq: u64) -> Snapshot {
    let g = &live.game;
    let size = g.size();
    let b = g.board();
    let board: Vec<String> = (0..size)
        .map(|r| {
            (0..size)
                .map(
                    |c| match tengen_rules::Point::new(size, c, r).and_then(|p| b.get(p)) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None => '.',
                    },
                )
                .collect()
        })
        .collect();
    let moves = g
        .moves()
        .map(|(c, m)| MoveView {
            color: c.into(),
            point: match m {
                Move::Play(p) => gtp::format_point(size, p),
                Move::Pass => "pass".into(),
            },
        })
        .collect();
    let pts = |set: &tengen_rules::PointSet| -> Vec<String> {
        set.iter().map(|p| gtp::format_point(size, p)).collect()
    };
    let score = (g.phase() != Phase::Play).then(|| {
        let s = g.score();
        let count = |c: &tengen_rules::Count| CountView {
            territory: c.territory,
            stones: c.stones,
            prisoners: c.prisoners,
            komi: c.komi.to_string(),
            handicap_bonus: c.handicap_bonus,
            total: c.total_halves() as f64 / 2.0,
        };
        ScoreView {
            black: count(&s.black),
            white: count(&s.white),
            result: s.result.to_string(),
            black_territory: pts(&s.black_territory),
            white_territory: pts(&s.white_territory),
            dame: pts(&s.dame),
            seki: pts(&s.seki),
        }
    });
    let scoring = g.phase() == Phase::Scoring;
    Snapshot {
        id,
        seq,
        terms: live.terms.clone(),
        black: players[0].clone(),
        white: players[1].clone(),
        phase: g.phase().into(),
        to_move: g.to_move().into(),
        board,
        moves,
        handicap_stones: g
            .handicap_stones()
            .iter()
            .map(|&p| gtp::format_point(size, p))
            .collect(),
        captures: Sides {
            black: b.captures(Color::Black),
            white: b.captures(Color::White),
        },
        ko: b.ko_point().map(|p| gtp::format_point(size, p)),
        takeback_requested_by: live.takeback.map(Side::from),
        scoring_requested: Sides {
            black: live.scoring_requests[0],
            white: live.scoring_requests[1],
        },
        accepted: Sides {
            black: live.accepted[0],
            white: live.accepted[1],
        },
        dead: pts(g.dead_stones()),
        unsure: if scoring {
            live.unsure.clone()
        } else {
            Vec::new()
        },
        unsure_decides: scoring && unsure_decides(g, &live.unsure),
        score,
        result: g.result().map(|r| r.to_string()),
        end_reason: live.end_reason.clone(),
        annulled: live.annulment().map(str::to_string),
        clocks: None,
        presence: None,
    }
}

/// True when the stones the engine was unsure of, and their owner has not marked dead, decide
/// the winner: counted with every such Black stone dead and every such White stone alive, and
/// the other way round, the two counts name different winners (or one is a draw). A stone its
/// owner marked dead is settled (each player marks their own: the owner gave it up); the other
/// marks stay as the players have them; a stone's taking off only ever lowers its owner's
/// count, so these are Black's worst and best counts over the open stones.
pub fn unsure_decides(g: &tengen_rules::Game, unsure: &[String]) -> bool {
    let size = g.size();
    let unsure: Vec<_> = unsure
        .iter()
        .filter_map(|v| gtp::parse_point(size, v).ok())
        .filter(|&p| g.board().get(p).is_some() && !g.dead_stones().contains(p))
        .collect();
    if unsure.is_empty() {
        return false;
    }
    let winner_if_dead = |c: Color| {
        let mut dead = *g.dead_stones();
        for &p in &unsure {
            if g.board().get(p) == Some(c) {
                dead.insert(p);
            } else {
                dead.remove(p);
            }
        }
        let h = g.handicap_stones().len() as u32;
        tengen_rules::scoring::score(g.board(), &dead, g.rules(), h)
            .result
            .winner()
    };
    winner_if_dead(Color::Black) != winner_if_dead(Color::White)
}

#[cfg(test)]
mod tests {
    use super::unsure_decides;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Board, Color, Game, Preset};

    /// Black's wall on column D owns 27 points, White's on E the other 36; White stones at B5
    /// and B4 sit in Black's area.
    fn scoring(diagram_b: &str) -> Game {
        let rows = [
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
            diagram_b,
            diagram_b,
            ". . . X O . . . .",
            ". . . X O . . . .",
            ". . . X O . . . .",
        ];
        let b: Board = rows.join("\n").parse().unwrap();
        let mut g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
        g.start_scoring().unwrap();
        g
    }

    #[test]
    fn unsure_stones_decide_when_their_fate_flips_the_winner() {
        // White's two stones alive: the area behind Black's wall touches both colours and is
        // nobody's, White 36 + 6.5. Dead: Black 27 + 2 prisoners against 42.5. White wins
        // either way: they do not decide.
        let g = scoring(". O . X O . . . .");
        assert!(!unsure_decides(&g, &["B5".into(), "B4".into()]));
        // With the walls a column to the right, White has 27 + 6.5. Four White stones alive
        // leave Black nothing (W wins); dead, Black has 36 + 4 prisoners (B wins).
        let rows = [
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". O O . X O . . .",
            ". O O . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
            ". . . . X O . . .",
        ];
        let b: Board = rows.join("\n").parse().unwrap();
        let mut g = Game::from_board(b, Color::Black, Preset::Japanese.rules(9)).unwrap();
        g.start_scoring().unwrap();
        let unsure: Vec<String> = ["B5", "C5", "B4", "C4"].map(String::from).to_vec();
        assert!(unsure_decides(&g, &unsure));
        // White marks them dead: settled by their owner, they no longer decide.
        g.toggle_dead(gtp::parse_point(9, "B5").unwrap()).unwrap();
        assert!(g.dead_stones().contains(gtp::parse_point(9, "C4").unwrap()));
        assert!(!unsure_decides(&g, &unsure));
        // No unsure stones, nothing decides.
        assert!(!unsure_decides(&g, &[]));
    }
}
