//! A game: its board, its history and the rules that referee it.
//!
//! `Game` owns its [`Board`]; ko and superko, passes, the end of play, dead-stone marking and
//! the result live here. Every action either succeeds or returns a [`GameError`] and leaves the
//! game exactly as it was.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::benson::unconditional_life;
use crate::board::{Board, Played};
use crate::color::Color;
use crate::handicap;
use crate::point::{Move, Point, PointSet};
use crate::result::GameResult;
use crate::rules::{
    DeadStones, GameEnd, HandicapPlacement, KoRule, Komi, Repetition, Rules, SuicideRule,
};
use crate::scoring::{self, Score};
use crate::zobrist;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Players move and pass.
    Play,
    /// Play has stopped (two passes); dead stones are being marked.
    Scoring,
    /// The game has a result.
    Finished,
}

/// Why an action was refused. Each has a stable snake_case [`code`](GameError::code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, thiserror::Error)]
pub enum GameError {
    /// The point already holds a stone.
    #[error("the point is occupied")]
    Occupied,
    /// The stone would have no liberties and capture nothing, and these rules forbid that.
    #[error("the move is suicide")]
    Suicide,
    /// The move retakes a ko immediately.
    #[error("the move retakes the ko immediately")]
    Ko,
    /// The move recreates an earlier position, which these rules forbid.
    #[error("the move repeats an earlier position (superko)")]
    Superko,
    /// The other player is to move.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The point is not on this board.
    #[error("the point is not on the board")]
    OffBoard,
    /// A scoring action outside the scoring phase.
    #[error("the game is not in the scoring phase")]
    NotScoring,
    /// A move while dead stones are being marked; resume play first.
    #[error("the game is being scored; resume play to move")]
    InScoring,
    /// Nothing (or not enough) to take back.
    #[error("there is no move to take back")]
    NothingToUndo,
    /// Take-back of other than one or two plies.
    #[error("only one or two plies can be taken back")]
    BadUndo,
    /// Marking an empty point dead.
    #[error("there is no stone on that point")]
    NoStone,
    /// Marking dead a chain that no sequence of opponent moves can capture.
    #[error("that chain is alive whatever the opponent does")]
    PassAlive,
    /// Marking stones dead under rules that count every stone on the board as alive.
    #[error("under these rules every stone on the board is alive")]
    AllStonesAlive,
    /// A setup (stones added or removed outside play) that leaves a chain without liberties.
    #[error("the setup leaves a chain without liberties")]
    SetupWithoutLiberties,
}

impl GameError {
    /// Stable machine-readable id, used by GTP, the server and the web client.
    pub const fn code(self) -> &'static str {
        match self {
            GameError::Occupied => "occupied",
            GameError::Suicide => "suicide",
            GameError::Ko => "ko",
            GameError::Superko => "superko",
            GameError::NotYourTurn => "not_your_turn",
            GameError::GameOver => "game_over",
            GameError::OffBoard => "off_board",
            GameError::NotScoring => "not_scoring",
            GameError::InScoring => "in_scoring",
            GameError::NothingToUndo => "nothing_to_undo",
            GameError::BadUndo => "bad_undo",
            GameError::NoStone => "no_stone",
            GameError::PassAlive => "pass_alive",
            GameError::AllStonesAlive => "all_stones_alive",
            GameError::SetupWithoutLiberties => "setup_without_liberties",
        }
    }
}

/// Why a game could not be set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rules do not allow this board size.
    #[error("board size {0} is not allowed by these rules")]
    BoardSize(u8),
    /// The rules do not allow this many handicap stones, or there is no fixed placement for it.
    #[error("a handicap of {0} stones is not allowed here")]
    Handicap(usize),
    /// Free placement under rules that place handicap stones on fixed points.
    #[error("these rules place handicap stones on fixed points")]
    FreePlacementNotAllowed,
    /// A handicap point off the board or given twice.
    #[error("handicap stones must be on distinct points of the board")]
    HandicapPoint,
}

impl SetupError {
    /// Stable machine-readable id.
    pub const fn code(self) -> &'static str {
        match self {
            SetupError::BoardSize(_) => "bad_board_size",
            SetupError::Handicap(_) => "bad_handicap",
            SetupError::FreePlacementNotAllowed => "free_placement_not_allowed",
            SetupError::HandicapPoint => "bad_handicap_point",
        }
    }
}

/// Handicap stones for [`Game::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Handicap {
    /// An even game.
    None,
    /// N stones on the fixed points.
    Fixed(u8),
    /// Stones on points Black chose.
    Free(Vec<Point>),
}

/// Stones added or removed outside play (SGF `AB`, `AW`, `AE` after the first move: an edited
/// record, a problem, a teaching game).
#[derive(Clone, Debug)]
struct Edit {
    /// Plies played before it.
    at: usize,
    /// Each point and what it holds afterwards.
    stones: Vec<(Point, Option<Color>)>,
    /// The position before, for undo (edits are rare; a copy is simplest).
    board_before: Board,
    to_move_before: Color,
    passes_before: u8,
    /// Who moves after it.
    to_move_after: Color,
    /// Position keys recorded after it, to forget on undo.
    situation: u64,
    position: u64,
}

/// One step of a game's history, in order: see [`Game::history`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step<'a> {
    /// A move or pass.
    Move(Color, Move),
    /// Stones added or removed outside play, then `to_move` to play.
    Setup {
        /// Each point and what it holds afterwards.
        stones: &'a [(Point, Option<Color>)],
        /// Who moves after the setup.
        to_move: Color,
    },
}

/// Why a game could not be carried over to other rules ([`Game::with_rules`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RulesChangeError {
    /// The new rules do not allow the board.
    #[error("{0}")]
    Setup(#[from] SetupError),
    /// A move of the history is illegal under the new rules.
    #[error("move {number} is illegal under these rules: {error}")]
    Move {
        /// 1-based move number (passes count).
        number: usize,
        /// Why.
        error: GameError,
    },
}

/// One ply of history.
#[derive(Clone, Debug)]
struct Ply {
    color: Color,
    mv: Move,
    /// The board's record of a stone, for undo.
    played: Option<Played>,
    /// The ko point a pass lifted, for undo.
    prev_ko: Option<Point>,
    /// Turn before this ply (out-of-turn plays in tolerant mode change it).
    to_move_before: Color,
    /// Passes in a row before this ply.
    passes_before: u8,
    /// Position keys recorded after this ply, to forget on undo.
    situation: u64,
    position: u64,
}

/// Position keys are Zobrist hashes already; hashing them again would only cost time, and the
/// standard hasher's random seed would break the crate's "no randomness it was not given".
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type Counts = HashMap<u64, u32, BuildHasherDefault<KeyHasher>>;

/// A game of Go under a rule set.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    board: Board,
    to_move: Color,
    phase: Phase,
    /// Black's handicap stones, placed before the first move.
    handicap: Vec<Point>,
    /// The position before the first move (set-up stones and handicap stones), and who moved
    /// first: with the plies and edits, the whole history.
    start: Board,
    start_to_move: Color,
    plies: Vec<Ply>,
    /// Set-up changes between moves, in order.
    edits: Vec<Edit>,
    /// Occurrences of (board, player to move), for situational superko and repetition.
    situations: Counts,
    /// Occurrences of board positions, for positional superko.
    positions: Counts,
    passes: u8,
    dead: PointSet,
    result: Option<GameResult>,
}

impl Game {
    /// A new game on a board of side `size`.
    pub fn new(size: u8, rules: Rules, handicap: Handicap) -> Result<Game, SetupError> {
        if size < rules.min_size || size > rules.max_size {
            return Err(SetupError::BoardSize(size));
        }
        let mut board = Board::try_new(size).ok_or(SetupError::BoardSize(size))?;
        let stones = match handicap {
            Handicap::None => Vec::new(),
            Handicap::Fixed(n) if n <= 1 => Vec::new(),
            Handicap::Fixed(n) => {
                if n < rules.min_handicap || n > rules.max_handicap {
                    return Err(SetupError::Handicap(n as usize));
                }
                handicap::fixed(size, n).ok_or(SetupError::Handicap(n as usize))?
            }
            Handicap::Free(points) => {
                if rules.handicap_placement != HandicapPlacement::Free {
                    return Err(SetupError::FreePlacementNotAllowed);
                }
                let n = points.len();
                if n < rules.min_handicap as usize || n > rules.max_handicap as usize {
                    return Err(SetupError::Handicap(n));
                }
                let distinct: PointSet = points.iter().copied().collect();
                if distinct.len() != n || points.iter().any(|&p| !board.contains(p)) {
                    return Err(SetupError::HandicapPoint);
                }
                points
            }
        };
        let setup: Vec<_> = stones.iter().map(|&p| (p, Some(Color::Black))).collect();
        // Free placement of up to max_handicap stones can fill the board on tiny sizes.
        board.setup(&setup).map_err(|_| SetupError::HandicapPoint)?;
        // White moves first after placed handicap stones.
        let to_move = if stones.is_empty() {
            Color::Black
        } else {
            Color::White
        };
        Game::from_handicap_board(board, stones, to_move, rules)
    }

    /// A game from a set-up position in which `handicap` are Black's handicap stones (a
    /// handicap record's `HA` and `AB`): they count for the area rules' compensation and are
    /// written back as the handicap. The stones must be Black's on `board`; no count or
    /// placement rule is checked, since a record says where they were.
    pub fn from_handicap_board(
        board: Board,
        handicap: Vec<Point>,
        to_move: Color,
        rules: Rules,
    ) -> Result<Game, SetupError> {
        if handicap
            .iter()
            .any(|&p| !board.contains(p) || board.get(p) != Some(Color::Black))
        {
            return Err(SetupError::HandicapPoint);
        }
        let mut game = Game::from_board(board, to_move, rules)?;
        game.handicap = handicap;
        Ok(game)
    }

    /// A game that starts from a set-up position (SGF `AB`/`AW`, a problem, a diagram) with
    /// `to_move` to play. The board's captures carry over; its ko point does not.
    pub fn from_board(board: Board, to_move: Color, rules: Rules) -> Result<Game, SetupError> {
        let size = board.size();
        if size < rules.min_size || size > rules.max_size {
            return Err(SetupError::BoardSize(size));
        }
        let mut board = board;
        board.undo_pass(None);
        let mut game = Game {
            rules,
            start: board.clone(),
            start_to_move: to_move,
            board,
            to_move,
            phase: Phase::Play,
            handicap: Vec::new(),
            plies: Vec::new(),
            edits: Vec::new(),
            situations: Counts::default(),
            positions: Counts::default(),
            passes: 0,
            dead: PointSet::new(),
            result: None,
        };
        let (s, p) = game.keys();
        game.situations.insert(s, 1);
        game.positions.insert(p, 1);
        Ok(game)
    }

    // ----- state -----

    /// The rules refereeing this game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// Who moves next.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Play, scoring or finished.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The result, once finished.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// Black's handicap stones.
    pub fn handicap_stones(&self) -> &[Point] {
        &self.handicap
    }

    /// The moves so far, in order, with who made them.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = (Color, Move)> + DoubleEndedIterator + '_ {
        self.plies.iter().map(|p| (p.color, p.mv))
    }

    /// The position before the first move (handicap and set-up stones) and who was to move.
    pub fn start(&self) -> (&Board, Color) {
        (&self.start, self.start_to_move)
    }

    /// Every step after the start, in order: moves and passes, and set-up changes between
    /// them. Replaying these from [`start`](Game::start) gives the current position.
    pub fn history(&self) -> Vec<Step<'_>> {
        let mut out = Vec::with_capacity(self.plies.len() + self.edits.len());
        let mut edits = self.edits.iter().peekable();
        for (i, ply) in self.plies.iter().enumerate() {
            while let Some(e) = edits.next_if(|e| e.at == i) {
                out.push(Step::Setup {
                    stones: &e.stones,
                    to_move: e.to_move_after,
                });
            }
            out.push(Step::Move(ply.color, ply.mv));
        }
        out.extend(edits.map(|e| Step::Setup {
            stones: &e.stones,
            to_move: e.to_move_after,
        }));
        out
    }

    /// True when nothing has happened since the start: no move, no pass, no set-up change.
    pub fn is_at_start(&self) -> bool {
        self.plies.is_empty() && self.edits.is_empty()
    }

    /// Number of plies (moves and passes) played.
    pub fn ply_count(&self) -> usize {
        self.plies.len()
    }

    /// Consecutive passes at the end of the history.
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// Stones currently marked dead (scoring phase).
    pub fn dead_stones(&self) -> &PointSet {
        &self.dead
    }

    /// Overrides who is to move (GTP lets either colour play in any order).
    pub fn set_to_move(&mut self, c: Color) {
        self.to_move = c;
    }

    /// Changes the komi. Komi decides the count only, so the position, the history and the
    /// phase stay as they are (GTP `komi` mid-game, a record's `KM` read late).
    pub fn set_komi(&mut self, komi: Komi) {
        self.rules.komi = komi;
    }

    /// The same game under other rules: the start position, every move and every set-up
    /// change replayed under `rules`, then the same phase. A resignation, time-out or
    /// forfeit carries over; dead-stone marks carry over where the new rules allow them.
    /// Fails, leaving `self` as it is, when the new rules forbid the board or a move.
    pub fn with_rules(&self, rules: Rules) -> Result<Game, RulesChangeError> {
        let mut g = Game::from_handicap_board(
            self.start.clone(),
            self.handicap.clone(),
            self.start_to_move,
            rules,
        )?;
        let mut number = 0;
        for step in self.history() {
            match step {
                Step::Move(c, m) => {
                    number += 1;
                    if g.phase == Phase::Scoring {
                        g.phase = Phase::Play;
                        g.passes = 0;
                    }
                    g.to_move = c;
                    g.play(c, m)
                        .map_err(|error| RulesChangeError::Move { number, error })?;
                }
                Step::Setup { stones, to_move } => {
                    g.edit(stones, to_move)
                        .map_err(|error| RulesChangeError::Move { number, error })?;
                }
            }
        }
        g.to_move = self.to_move;
        match (self.phase, self.result) {
            (
                Phase::Finished,
                Some(r @ (GameResult::Resign(_) | GameResult::Time(_) | GameResult::Forfeit(_))),
            ) => {
                g.finish(r);
            }
            (Phase::Scoring, _) if g.phase == Phase::Play => {
                g.phase = Phase::Scoring;
            }
            _ => {}
        }
        if g.phase == Phase::Scoring && self.phase == Phase::Scoring {
            let dead: Vec<Point> = self.dead.iter().collect();
            let _ = g.set_dead(&dead);
        }
        Ok(g)
    }

    fn keys(&self) -> (u64, u64) {
        let side = match self.to_move {
            Color::Black => 0,
            Color::White => zobrist::WHITE_TO_MOVE,
        };
        (self.board.hash() ^ side, self.board.hash())
    }

    // ----- legality -----

    /// Whether `c` may put a stone on `p` now, ignoring whose turn it is and the phase.
    pub fn check_point(&self, c: Color, p: Point) -> Result<(), GameError> {
        if !self.board.contains(p) {
            return Err(GameError::OffBoard);
        }
        if !self.board.is_empty(p) {
            return Err(GameError::Occupied);
        }
        if self.board.is_suicide(p, c) {
            let allowed = match self.rules.suicide {
                SuicideRule::Illegal => false,
                SuicideRule::MultiStoneLegal => self.board.has_neighbor_of(p, c),
                SuicideRule::SelfCaptureLoses => true,
            };
            if !allowed {
                return Err(GameError::Suicide);
            }
        }
        if self.board.ko_point() == Some(p) {
            return Err(GameError::Ko);
        }
        match self.rules.ko {
            KoRule::Simple => {}
            KoRule::PositionalSuperko => {
                if self.positions.contains_key(&self.board.hash_after(p, c)) {
                    return Err(GameError::Superko);
                }
            }
            KoRule::SituationalSuperko => {
                let side = match c.opponent() {
                    Color::Black => 0,
                    Color::White => zobrist::WHITE_TO_MOVE,
                };
                if self
                    .situations
                    .contains_key(&(self.board.hash_after(p, c) ^ side))
                {
                    return Err(GameError::Superko);
                }
            }
        }
        Ok(())
    }

    /// Whether playing `m` now could end the game: a capture or a suicide in First Capture Go,
    /// its second pass, or a stone that repeats a position under a simple-ko rule that voids
    /// or draws a cycle. When it is `false` the game is still on after `m`, so a caller can
    /// play `m` on the game itself rather than on a copy to learn the result. Mirrors the end
    /// checks of `apply`.
    pub fn play_may_end(&self, m: Move) -> bool {
        let repetition_ends =
            self.rules.ko == KoRule::Simple && self.rules.repetition != Repetition::Nothing;
        match m {
            Move::Pass => self.rules.end == GameEnd::FirstCapture && self.passes >= 1,
            Move::Play(_) => self.rules.end == GameEnd::FirstCapture || repetition_ends,
        }
    }

    /// Whether `c` may make move `m` now.
    pub fn check(&self, c: Color, m: Move) -> Result<(), GameError> {
        match self.phase {
            Phase::Finished => return Err(GameError::GameOver),
            Phase::Scoring => return Err(GameError::InScoring),
            Phase::Play => {}
        }
        if c != self.to_move {
            return Err(GameError::NotYourTurn);
        }
        match m {
            Move::Pass => Ok(()),
            Move::Play(p) => self.check_point(c, p),
        }
    }

    /// Every point where the player to move may play now.
    pub fn legal_points(&self) -> Vec<Point> {
        let c = self.to_move;
        self.board
            .points()
            .filter(|&p| self.check_point(c, p).is_ok())
            .collect()
    }

    // ----- actions -----

    /// `c` makes move `m`. Two passes in a row stop play and start the scoring phase (or, in
    /// First Capture Go where nobody captured, end the game drawn).
    pub fn play(&mut self, c: Color, m: Move) -> Result<(), GameError> {
        self.check(c, m)?;
        self.apply(c, m);
        Ok(())
    }

    /// Plays `m` for `c` as a record says it was played, under rules that may have differed:
    /// out-of-turn moves, suicide, ko and superko are played anyway and reported as the
    /// returned violation. A move onto an occupied or off-board point, or into a finished game,
    /// is still refused. A game in the scoring phase resumes play first.
    pub fn play_tolerant(&mut self, c: Color, m: Move) -> Result<Option<GameError>, GameError> {
        if self.phase == Phase::Finished {
            return Err(GameError::GameOver);
        }
        let mut violation = None;
        if let Move::Play(p) = m {
            match self.check_point(c, p) {
                Err(e @ (GameError::OffBoard | GameError::Occupied)) => return Err(e),
                Err(e) => violation = Some(e),
                Ok(()) => {}
            }
        }
        if self.phase == Phase::Scoring {
            self.resume()?;
        }
        if c != self.to_move && violation.is_none() {
            violation = Some(GameError::NotYourTurn);
        }
        self.apply(c, m);
        Ok(violation)
    }

    fn apply(&mut self, c: Color, m: Move) {
        let to_move_before = self.to_move;
        let passes_before = self.passes;
        let (played, prev_ko) = match m {
            Move::Pass => {
                self.passes += 1;
                (None, self.board.pass())
            }
            Move::Play(p) => {
                self.passes = 0;
                (Some(self.board.play(p, c)), None)
            }
        };
        self.to_move = c.opponent();
        let (situation, position) = self.keys();
        let seen = {
            let n = self.situations.entry(situation).or_insert(0);
            *n += 1;
            *n
        };
        *self.positions.entry(position).or_insert(0) += 1;
        self.plies.push(Ply {
            color: c,
            mv: m,
            played,
            prev_ko,
            to_move_before,
            passes_before,
            situation,
            position,
        });

        if self.rules.end == GameEnd::FirstCapture {
            if let Some(pl) = played {
                if pl.captured() > 0 {
                    return self.finish(GameResult::FirstCapture(c));
                }
                if pl.is_suicide() {
                    return self.finish(GameResult::FirstCapture(c.opponent()));
                }
            }
        }
        // Only a stone can close a cycle: two passes after a resumed scoring phase would
        // otherwise "repeat" the final position and void a finished game.
        if self.rules.ko == KoRule::Simple && played.is_some() && seen >= 3 {
            match self.rules.repetition {
                Repetition::Nothing => {}
                Repetition::NoResult => return self.finish(GameResult::NoResult),
                Repetition::Draw => return self.finish(GameResult::Draw),
            }
        }
        if self.passes >= 2 {
            match self.rules.end {
                GameEnd::TwoPasses => {
                    self.phase = Phase::Scoring;
                    self.dead.clear();
                }
                GameEnd::FirstCapture => self.finish(GameResult::Draw),
            }
        }
    }

    /// Adds or removes stones outside play (SGF `AB`, `AW`, `AE` after the first move), then
    /// `to_move` plays. The change is part of the history: [`undo`](Game::undo) takes it back
    /// with the ply before it, and [`with_rules`](Game::with_rules) replays it. A game being
    /// scored goes back to play. Refused, changing nothing, after the end, off the board, or
    /// when a chain would be left without liberties.
    pub fn edit(
        &mut self,
        stones: &[(Point, Option<Color>)],
        to_move: Color,
    ) -> Result<(), GameError> {
        if self.phase == Phase::Finished {
            return Err(GameError::GameOver);
        }
        let before = self.board.clone();
        self.board.setup(stones).map_err(|e| match e {
            crate::board::SetupError::OffBoard(_) => GameError::OffBoard,
            crate::board::SetupError::NoLiberties(_) => GameError::SetupWithoutLiberties,
        })?;
        let to_move_before = self.to_move;
        let passes_before = self.passes;
        self.phase = Phase::Play;
        self.passes = 0;
        self.dead.clear();
        self.to_move = to_move;
        let (situation, position) = self.keys();
        *self.situations.entry(situation).or_insert(0) += 1;
        *self.positions.entry(position).or_insert(0) += 1;
        self.edits.push(Edit {
            at: self.plies.len(),
            stones: stones.to_vec(),
            board_before: before,
            to_move_before,
            passes_before,
            to_move_after: to_move,
            situation,
            position,
        });
        Ok(())
    }

    fn finish(&mut self, result: GameResult) {
        self.phase = Phase::Finished;
        self.result = Some(result);
    }

    /// `c` passes.
    pub fn pass(&mut self, c: Color) -> Result<(), GameError> {
        self.play(c, Move::Pass)
    }

    /// `c` resigns; the opponent wins.
    pub fn resign(&mut self, c: Color) -> Result<(), GameError> {
        self.end_by(GameResult::Resign(c.opponent()))
    }

    /// `c` ran out of time; the opponent wins.
    pub fn timeout(&mut self, c: Color) -> Result<(), GameError> {
        self.end_by(GameResult::Time(c.opponent()))
    }

    /// `c` forfeits (left the game); the opponent wins.
    pub fn forfeit(&mut self, c: Color) -> Result<(), GameError> {
        self.end_by(GameResult::Forfeit(c.opponent()))
    }

    /// Ends the game with no result (`Void`): a game a server annuls, abandoned by its players.
    pub fn void(&mut self) -> Result<(), GameError> {
        self.end_by(GameResult::NoResult)
    }

    fn end_by(&mut self, result: GameResult) -> Result<(), GameError> {
        if self.phase == Phase::Finished {
            return Err(GameError::GameOver);
        }
        self.finish(result);
        Ok(())
    }

    /// Takes back the last one or two plies (a take-back of one's own move when the opponent
    /// has replied takes two). From the scoring phase this returns to play.
    pub fn undo(&mut self, plies: usize) -> Result<(), GameError> {
        if !(1..=2).contains(&plies) {
            return Err(GameError::BadUndo);
        }
        if self.phase == Phase::Finished {
            return Err(GameError::GameOver);
        }
        if self.plies.len() < plies {
            return Err(GameError::NothingToUndo);
        }
        for _ in 0..plies {
            // Set-up changes after the last ply go with it.
            while self.edits.last().is_some_and(|e| e.at == self.plies.len()) {
                let Some(e) = self.edits.pop() else { break };
                forget(&mut self.situations, e.situation);
                forget(&mut self.positions, e.position);
                self.board = e.board_before;
                self.to_move = e.to_move_before;
                self.passes = e.passes_before;
            }
            let Some(ply) = self.plies.pop() else {
                return Err(GameError::NothingToUndo);
            };
            forget(&mut self.situations, ply.situation);
            forget(&mut self.positions, ply.position);
            match ply.played {
                Some(pl) => self.board.undo(&pl),
                None => self.board.undo_pass(ply.prev_ko),
            }
            self.to_move = ply.to_move_before;
            self.passes = ply.passes_before;
        }
        self.phase = Phase::Play;
        self.dead.clear();
        Ok(())
    }

    /// Stops play and starts the scoring phase without two passes, when both players agree that
    /// the game is over (seed 002: a "Remove Dead Stone" request the partner accepts).
    pub fn start_scoring(&mut self) -> Result<(), GameError> {
        match self.phase {
            Phase::Play => {
                self.phase = Phase::Scoring;
                self.dead.clear();
                Ok(())
            }
            Phase::Scoring => Err(GameError::InScoring),
            Phase::Finished => Err(GameError::GameOver),
        }
    }

    /// Leaves the scoring phase and goes back to play; the player to move continues.
    pub fn resume(&mut self) -> Result<(), GameError> {
        if self.phase != Phase::Scoring {
            return Err(GameError::NotScoring);
        }
        self.phase = Phase::Play;
        self.passes = 0;
        self.dead.clear();
        Ok(())
    }

    // ----- scoring -----

    /// Marks dead, or if it is marked already unmarks, the stone on `p` together with every
    /// stone of its colour in the same region (the region of points that are empty or of that
    /// colour, bounded by the other colour): seed 002's "one single click on a dead stone will
    /// remove all dead stones in a partner's territory". Pass-alive chains are never marked.
    /// Returns the points whose marking changed.
    pub fn toggle_dead(&mut self, p: Point) -> Result<Vec<Point>, GameError> {
        if self.phase != Phase::Scoring {
            return Err(GameError::NotScoring);
        }
        if !self.board.contains(p) {
            return Err(GameError::OffBoard);
        }
        let c = self.board.get(p).ok_or(GameError::NoStone)?;
        if self.rules.dead_stones == DeadStones::NoneRemoved {
            return Err(GameError::AllStonesAlive);
        }
        let region = self.region_stones(p, c);
        let mut changed = Vec::new();
        if self.dead.contains(p) {
            for s in region {
                if self.dead.remove(s) {
                    changed.push(s);
                }
            }
        } else {
            let safe = self.pass_alive(c);
            if safe.contains(p) {
                return Err(GameError::PassAlive);
            }
            for s in region {
                if !safe.contains(s) && self.dead.insert(s) {
                    changed.push(s);
                }
            }
        }
        Ok(changed)
    }

    /// Replaces the dead-stone marking (an engine's proposal, or a restored session). Fails,
    /// changing nothing, on an empty point or a pass-alive stone.
    pub fn set_dead(&mut self, stones: &[Point]) -> Result<(), GameError> {
        if self.phase != Phase::Scoring {
            return Err(GameError::NotScoring);
        }
        if self.rules.dead_stones == DeadStones::NoneRemoved && !stones.is_empty() {
            return Err(GameError::AllStonesAlive);
        }
        let mut safe = [None, None];
        for &p in stones {
            if !self.board.contains(p) {
                return Err(GameError::OffBoard);
            }
            let c = self.board.get(p).ok_or(GameError::NoStone)?;
            let alive = safe[c.index()].get_or_insert_with(|| self.pass_alive(c));
            if alive.contains(p) {
                return Err(GameError::PassAlive);
            }
        }
        self.dead = stones.iter().copied().collect();
        Ok(())
    }

    fn pass_alive(&self, c: Color) -> PointSet {
        let suicide = self.rules.suicide != SuicideRule::Illegal;
        unconditional_life(&self.board, c, suicide).alive
    }

    /// The stones of colour `c` reachable from `p` through empty points and `c`'s stones.
    fn region_stones(&self, p: Point, c: Color) -> Vec<Point> {
        let mut seen = PointSet::new();
        seen.insert(p);
        let mut queue = vec![p];
        let mut i = 0;
        while i < queue.len() {
            for n in self.board.neighbors(queue[i]) {
                if self.board.get(n) != Some(c.opponent()) && seen.insert(n) {
                    queue.push(n);
                }
            }
            i += 1;
        }
        queue.retain(|&q| self.board.get(q) == Some(c));
        queue
    }

    /// The count of the current position with the current dead-stone marking.
    pub fn score(&self) -> Score {
        scoring::score(
            &self.board,
            &self.dead,
            &self.rules,
            self.handicap.len() as u32,
        )
    }

    /// Both players accepted the marking: the count becomes the result.
    pub fn finish_scoring(&mut self) -> Result<GameResult, GameError> {
        if self.phase != Phase::Scoring {
            return Err(GameError::NotScoring);
        }
        let result = self.score().result;
        self.finish(result);
        Ok(result)
    }
}

fn forget(counts: &mut Counts, key: u64) {
    if let Some(n) = counts.get_mut(&key) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&key);
        }
    }
}
