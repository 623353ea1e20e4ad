//! A live game as a state machine: [`LiveGame::decide`] turns a player's [`Action`] into the
//! [`Event`]s it causes, or refuses it with an [`ActionError`], without changing anything;
//! [`LiveGame::apply`] changes the state by one event and cannot fail for an event `decide`
//! produced. The actor persists events between the two, and a restart replays them through
//! `apply`, so the log is the game.

use serde::{Deserialize, Serialize};
use tengen_rules::coord::gtp;
use tengen_rules::{
    Color, Game, GameError, GameResult, Handicap, Komi, Move, Phase, Point, Preset,
};

use crate::domain::clock::{Clock, TimeControl};
use crate::domain::game_type::GameType;

mod dispute;
mod text;
mod vertex;

pub use dispute::DisputeRule;
pub use vertex::{BadVertex, Vertex};

/// Moves (passes included) each player must have made for a game that ends by resignation,
/// time, leaving or disconnection to count: fewer, and it is annulled (OGS annuls games of a
/// handful of moves the same way). A player who never came, or who left at once, costs the
/// opponent nothing and gains nothing; seed 002's runaway rule (leaving loses) decides every
/// game past the opening moves.
pub const MIN_MOVES_EACH: usize = 3;

/// The engine's proposal when the dead-stone phase begins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Proposal {
    /// Stones to mark dead: those the estimator is sure of.
    pub dead: Vec<Point>,
    /// Stones it is unsure of: highlighted, left to the players.
    pub unsure: Vec<Point>,
}

/// The agreed terms of a game. In JSON (the `games.terms` column, every game's log, what
/// clients are sent) the preset, komi and game type are the strings they always were:
/// `"rules": "japanese"`, `"komi": "6.5"`, `"game_type": "ho_sun"` (see the `text` module).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Terms {
    /// Board size.
    pub size: u8,
    /// The rule preset, by name.
    #[serde(with = "text::preset")]
    pub rules: Preset,
    /// Komi, as written (`6.5`).
    #[serde(with = "text::komi")]
    pub komi: Komi,
    /// Handicap stones (0 for none).
    pub handicap: u8,
    /// Whether take-backs may be requested.
    pub take_back: bool,
    /// Whether the players may ask for a score estimate while the game is played
    /// (spectators always may; false in logs written before the estimate existed).
    #[serde(default)]
    pub estimate: bool,
    /// `ho_sun`, `jung_sun` or `handicap`.
    #[serde(with = "text::game_type")]
    pub game_type: GameType,
    /// The clock (untimed in logs written before clocks existed).
    #[serde(default = "untimed")]
    pub time: TimeControl,
    /// A game that moves neither ratings nor promotion points (an unrated tournament's);
    /// written only when set, so every other game's terms read and write as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unrated: bool,
    /// How a group disputed in the dead-stone phase is settled; play (the default, written
    /// only when it is not) or the engine.
    #[serde(default, skip_serializing_if = "DisputeRule::is_play")]
    pub disputes: DisputeRule,
}

fn untimed() -> TimeControl {
    TimeControl::None
}

/// What a participant asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Put a stone on a point.
    Move(Point),
    /// Pass.
    Pass,
    /// Give up.
    Resign,
    /// Ask to take back one's own last move (and the partner's reply to it, if any).
    RequestTakeback,
    /// Answer the partner's take-back request.
    AnswerTakeback(bool),
    /// Ask to start removing dead stones; if the partner has asked too, it starts.
    RequestScoring,
    /// Mark or unmark one's own dead stones in a region.
    ToggleDead(Point),
    /// Accept the marking and the count.
    AcceptScore,
    /// Go back to play from the dead-stone phase.
    Resume,
    /// Dispute the partner's stones around a point, which the partner left alive.
    Dispute(Point),
    /// A chat line.
    Chat(String),
    /// A moderator hides the chat line with this seq (who may is decided above the game).
    HideChat(u64),
    /// Leave the game room: the game is lost.
    Leave,
    /// Correspondence: stop one's clock until `until_ms` (ms since the epoch); a time already
    /// past ends a vacation.
    Vacation {
        /// When the vacation ends.
        until_ms: i64,
    },
}

/// What happened, as persisted and broadcast. Points are GTP vertices; colours `black`/`white`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A stone was played.
    Move {
        /// Who played.
        color: Side,
        /// Where, written as GTP's vertex (`D4`).
        point: Vertex,
    },
    /// A pass.
    Pass {
        /// Who passed.
        color: Side,
    },
    /// A resignation; the game is over.
    Resign {
        /// Who resigned.
        color: Side,
    },
    /// A take-back request.
    TakebackRequested {
        /// Who asks.
        color: Side,
    },
    /// The answer; when accepted, `plies` plies were taken back.
    TakebackAnswered {
        /// Who answered.
        color: Side,
        /// Yes or no.
        accepted: bool,
        /// Plies taken back.
        plies: u8,
    },
    /// A request to start the dead-stone phase.
    ScoringRequested {
        /// Who asks.
        color: Side,
    },
    /// The dead-stone phase began, with the engine's proposal marked.
    ScoringStarted {
        /// Stones the engine proposes as dead: only those it is sure of.
        dead: Vec<String>,
        /// Stones the engine is unsure of, for the players to decide (absent in logs written
        /// before the estimator said so).
        #[serde(default)]
        unsure: Vec<String>,
    },
    /// A player marked or unmarked stones.
    DeadToggled {
        /// Who clicked.
        color: Side,
        /// Stones whose marking changed.
        points: Vec<String>,
    },
    /// A player accepted the count.
    ScoreAccepted {
        /// Who accepted.
        color: Side,
    },
    /// Back to play.
    Resumed {
        /// Who asked.
        color: Side,
    },
    /// A player disputed the partner's stones, and how it was settled: `dead` (the engine's
    /// verdict: marked dead for good), `alive` (the engine's: they stay) or `play` (play
    /// resumes, the stones' owner to move).
    Disputed {
        /// Who disputed.
        color: Side,
        /// The partner's stones disputed.
        points: Vec<String>,
        /// `dead`, `alive` or `play`.
        verdict: String,
    },
    /// The game ended by the count, a rule (first capture, repetition), time or forfeit.
    Finished {
        /// The SGF result (`B+3.5`, `W+R`, `B+T`, `0`, `Void`).
        result: String,
        /// Why: `count`, `rule`, `time`, `left`, `disconnected`, `resign`, `abandoned` (a
        /// game that waited for a player who did not come back: `Void`).
        reason: String,
    },
    /// A chat line.
    Chat {
        /// Who wrote it.
        user: String,
        /// The text.
        text: String,
    },
    /// A moderator hid the chat line `seq` (its text is gone from the log too).
    ChatHidden {
        /// The hidden line's seq.
        seq: u64,
    },
    /// A player's last connection closed: unless one comes back by `until` (ms since the
    /// epoch), they lose by forfeit (or, in a game that waits for them, the game is annulled).
    /// Nothing of the game changes; it tells the opponent at once.
    Disconnected {
        /// Who left.
        color: Side,
        /// When the grace period ends.
        until: i64,
    },
    /// A disconnected player is back within the grace period.
    Reconnected {
        /// Who came back.
        color: Side,
    },
    /// Correspondence: a player's clock stops until `until` (ms since the epoch); an `until`
    /// at or before the event's own time ends the vacation.
    Vacation {
        /// Whose clock.
        color: Side,
        /// When it starts again.
        until: i64,
    },
}

/// A colour as the protocol writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Hash)]
#[serde(rename_all = "snake_case")]
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

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::Black => Color::Black,
            Side::White => Color::White,
        }
    }
}

/// Why an action is refused. Each has a stable code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// The rules refuse it (occupied, suicide, ko, not your turn, game over...).
    #[error("{0}")]
    Rules(GameError),
    /// Only the two players may do that.
    #[error("only the players of this game may do that")]
    NotAPlayer,
    /// This room does not allow take-backs.
    #[error("take-backs are not allowed in this game")]
    TakebackNotAllowed,
    /// Nothing of the asker's to take back.
    #[error("you have no move to take back")]
    NothingToTakeBack,
    /// No take-back request is waiting for this player's answer.
    #[error("there is no take-back request to answer")]
    NoTakebackRequest,
    /// In the dead-stone phase each player marks their own stones.
    #[error("mark your own stones; your partner marks theirs")]
    NotYourStone,
    /// Empty or overlong chat.
    #[error("chat lines have 1 to 500 characters")]
    BadChat,
    /// A vacation in a game that is not a correspondence game.
    #[error("vacations stop the clocks of correspondence games only")]
    NotCorrespondence,
    /// A dispute of one's own stones.
    #[error("dispute your partner's stones; mark your own")]
    OwnStones,
    /// A dispute of stones already marked dead.
    #[error("these stones are marked dead already")]
    AlreadyDead,
    /// A dispute, or a marking, of stones the engine has judged.
    #[error("the engine has judged these stones")]
    AlreadyJudged,
}

impl ActionError {
    /// Stable snake_case id.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::Rules(e) => e.code(),
            ActionError::NotAPlayer => "not_a_player",
            ActionError::TakebackNotAllowed => "takeback_not_allowed",
            ActionError::NothingToTakeBack => "nothing_to_take_back",
            ActionError::NoTakebackRequest => "no_takeback_request",
            ActionError::NotYourStone => "not_your_stone",
            ActionError::BadChat => "bad_chat",
            ActionError::NotCorrespondence => "not_correspondence",
            ActionError::OwnStones => "own_stones",
            ActionError::AlreadyDead => "already_dead",
            ActionError::AlreadyJudged => "already_judged",
        }
    }
}

impl From<GameError> for ActionError {
    fn from(e: GameError) -> ActionError {
        ActionError::Rules(e)
    }
}

/// Who acts: one of the players, or someone else (a spectator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Actor {
    /// A player of this game.
    Player(Color),
    /// Anyone else, by username.
    Other(String),
}

/// The live state of a game.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// The terms.
    pub terms: Terms,
    /// The rules game.
    pub game: Game,
    /// A take-back request waiting for the other player.
    pub takeback: Option<Color>,
    /// Players who asked to start the dead-stone phase.
    pub scoring_requests: [bool; 2],
    /// Players who accepted the count.
    pub accepted: [bool; 2],
    /// Stones the engine was unsure of when the dead-stone phase began.
    pub unsure: Vec<String>,
    /// Stones the engine judged in a dispute: their marking stays as it said.
    pub judged: Vec<Point>,
    /// Why the game ended, once it has.
    pub end_reason: Option<String>,
    /// Both players' clocks as of the last event (Black, White).
    pub clocks: [Clock; 2],
    /// Correspondence: until when each player's clock is stopped for a vacation (ms since the
    /// epoch; 0: none).
    pub vacation: [i64; 2],
}

fn vertex(size: u8, p: Point) -> String {
    gtp::format_point(size, p)
}

impl LiveGame {
    /// A new game under `terms`. Fails when the terms are not playable.
    pub fn new(terms: Terms) -> Result<LiveGame, String> {
        let mut rules = terms.rules.rules(terms.size);
        rules.komi = terms.komi;
        let handicap = if terms.handicap >= 2 {
            Handicap::Fixed(terms.handicap)
        } else {
            Handicap::None
        };
        // Seed 002 allows 13, 21 and 25 stones whatever the preset's usual maximum.
        rules.max_handicap = rules.max_handicap.max(terms.handicap);
        let game = Game::new(terms.size, rules, handicap).map_err(|e| e.to_string())?;
        let clock = terms.time.start();
        Ok(LiveGame {
            terms,
            game,
            takeback: None,
            scoring_requests: [false; 2],
            accepted: [false; 2],
            unsure: Vec::new(),
            judged: Vec::new(),
            end_reason: None,
            clocks: [clock, clock],
            vacation: [0; 2],
        })
    }

    /// The events `action` by `actor` would cause, or why it is refused. `propose_dead` supplies
    /// the engine's dead-stone proposal when the action starts the dead-stone phase.
    pub fn decide(
        &self,
        actor: &Actor,
        action: &Action,
        propose_dead: &mut dyn FnMut(&Game) -> Proposal,
    ) -> Result<Vec<Event>, ActionError> {
        // Anyone in the room may chat, in any phase; everything else is the players' own.
        if let Action::Chat(text) = action {
            return decide_chat(actor, text);
        }
        if let Action::HideChat(seq) = action {
            return Ok(vec![Event::ChatHidden { seq: *seq }]);
        }
        let Actor::Player(me) = actor else {
            return Err(ActionError::NotAPlayer);
        };
        let me = *me;
        let side = Side::from(me);
        if self.game.phase() == Phase::Finished {
            return Err(GameError::GameOver.into());
        }
        match action {
            Action::Move(p) => self.decide_move(me, *p),
            Action::Pass => self.decide_pass(me, propose_dead),
            Action::Resign => Ok(vec![Event::Resign { color: side }]),
            Action::Vacation { until_ms } => self.decide_vacation(me, *until_ms),
            Action::Leave => Ok(vec![finished(GameResult::Forfeit(me.opponent()), "left")]),
            Action::RequestTakeback => self.decide_takeback_request(me),
            Action::AnswerTakeback(yes) => self.decide_takeback_answer(me, *yes),
            Action::RequestScoring => self.decide_scoring_request(me, propose_dead),
            Action::ToggleDead(p) => self.decide_toggle_dead(me, *p),
            Action::AcceptScore => self.decide_accept_score(me),
            Action::Resume => self.decide_resume(me),
            Action::Dispute(p) => self.decide_dispute(me, *p, propose_dead),
            Action::Chat(_) | Action::HideChat(_) => unreachable!("handled above"),
        }
    }

    /// `me` puts a stone on `p`: the move, and the end of the game if the move ends it.
    fn decide_move(&self, me: Color, p: Point) -> Result<Vec<Event>, ActionError> {
        let m = Move::Play(p);
        self.game.check(me, m)?;
        let mut events = vec![Event::Move {
            color: Side::from(me),
            point: Vertex::of(self.game.size(), p),
        }];
        // Only a move that may end the game is played on a copy to learn its result:
        // copying the game for every move was a measurable part of the server's CPU.
        if self.game.play_may_end(m) {
            let mut after = self.game.clone();
            after.play(me, m)?;
            if let Some(r) = after.result() {
                events.push(finished(r, "rule"));
            }
        }
        Ok(events)
    }

    /// `me` passes: the pass, then the dead-stone phase if the pass ends play, or the end of the
    /// game if the rules end it there.
    fn decide_pass(
        &self,
        me: Color,
        propose_dead: &mut dyn FnMut(&Game) -> Proposal,
    ) -> Result<Vec<Event>, ActionError> {
        self.game.check(me, Move::Pass)?;
        let mut after = self.game.clone();
        after.play(me, Move::Pass)?;
        let mut events = vec![Event::Pass {
            color: Side::from(me),
        }];
        match after.phase() {
            Phase::Scoring => events.push(scoring_started(&after, propose_dead)),
            Phase::Finished => {
                if let Some(r) = after.result() {
                    events.push(finished(r, "rule"));
                }
            }
            Phase::Play => {}
        }
        Ok(events)
    }

    /// `me` stops their clock until `until_ms`: correspondence games only.
    fn decide_vacation(&self, me: Color, until_ms: i64) -> Result<Vec<Event>, ActionError> {
        if !self.terms.time.is_correspondence() {
            return Err(ActionError::NotCorrespondence);
        }
        Ok(vec![Event::Vacation {
            color: Side::from(me),
            until: until_ms,
        }])
    }

    /// `me` asks to take back their last move: during play, in a room that allows it, and only
    /// if `me` has a move to take back.
    fn decide_takeback_request(&self, me: Color) -> Result<Vec<Event>, ActionError> {
        if !self.terms.take_back {
            return Err(ActionError::TakebackNotAllowed);
        }
        if self.game.phase() != Phase::Play {
            return Err(GameError::InScoring.into());
        }
        if self.takeback_plies(me) == 0 {
            return Err(ActionError::NothingToTakeBack);
        }
        Ok(vec![Event::TakebackRequested {
            color: Side::from(me),
        }])
    }

    /// `me` answers the partner's take-back request; a yes takes back the partner's last move
    /// (and `me`'s reply to it, if any).
    fn decide_takeback_answer(&self, me: Color, yes: bool) -> Result<Vec<Event>, ActionError> {
        if self.takeback != Some(me.opponent()) {
            return Err(ActionError::NoTakebackRequest);
        }
        let plies = if yes {
            self.takeback_plies(me.opponent())
        } else {
            0
        };
        Ok(vec![Event::TakebackAnswered {
            color: Side::from(me),
            accepted: yes,
            plies,
        }])
    }

    /// `me` asks to start removing dead stones; when the partner has asked too, the dead-stone
    /// phase starts with the engine's proposal.
    fn decide_scoring_request(
        &self,
        me: Color,
        propose_dead: &mut dyn FnMut(&Game) -> Proposal,
    ) -> Result<Vec<Event>, ActionError> {
        if self.game.phase() != Phase::Play {
            return Err(GameError::InScoring.into());
        }
        let mut events = vec![Event::ScoringRequested {
            color: Side::from(me),
        }];
        if self.scoring_requests[me.opponent().index()] {
            let mut after = self.game.clone();
            after.start_scoring()?;
            events.push(scoring_started(&after, propose_dead));
        }
        Ok(events)
    }

    /// `me` marks or unmarks their own dead stones around `p` in the dead-stone phase.
    fn decide_toggle_dead(&self, me: Color, p: Point) -> Result<Vec<Event>, ActionError> {
        if self.game.phase() != Phase::Scoring {
            return Err(GameError::NotScoring.into());
        }
        match self.game.board().get(p) {
            None if self.game.board().contains(p) => return Err(GameError::NoStone.into()),
            None => return Err(GameError::OffBoard.into()),
            Some(c) if c != me => return Err(ActionError::NotYourStone),
            Some(_) => {}
        }
        let mut after = self.game.clone();
        let changed = after.toggle_dead(p)?;
        if changed.iter().any(|s| self.judged.contains(s)) {
            return Err(ActionError::AlreadyJudged);
        }
        Ok(vec![Event::DeadToggled {
            color: Side::from(me),
            points: points(self.game.size(), &changed),
        }])
    }

    /// `me` accepts the count; when the partner has accepted too, the game ends by the count.
    fn decide_accept_score(&self, me: Color) -> Result<Vec<Event>, ActionError> {
        if self.game.phase() != Phase::Scoring {
            return Err(GameError::NotScoring.into());
        }
        let mut events = vec![Event::ScoreAccepted {
            color: Side::from(me),
        }];
        if self.accepted[me.opponent().index()] {
            let r = self.game.score().result;
            events.push(finished(r, "count"));
        }
        Ok(events)
    }

    /// `me` goes back to play from the dead-stone phase.
    fn decide_resume(&self, me: Color) -> Result<Vec<Event>, ActionError> {
        if self.game.phase() != Phase::Scoring {
            return Err(GameError::NotScoring.into());
        }
        Ok(vec![Event::Resumed {
            color: Side::from(me),
        }])
    }

    /// What going back to play forgets: the acceptances, the engine's doubts and verdicts.
    fn resume_play(&mut self) {
        self.accepted = [false; 2];
        self.unsure.clear();
        self.judged.clear();
    }

    /// Plies to take back so that `c`'s last move is undone: 1 if it was the last ply, 2 if the
    /// partner has replied, 0 if `c` has no move to take back.
    fn takeback_plies(&self, c: Color) -> u8 {
        let moves: Vec<(Color, Move)> = self.game.moves().collect();
        match moves.as_slice() {
            [.., (last, _)] if *last == c => 1,
            [.., (prev, _), _] if *prev == c => 2,
            _ => 0,
        }
    }

    /// Applies one event. Events come from `decide` (or from the log, which `decide` wrote), so
    /// they apply; an event that does not is logged and skipped rather than corrupting state.
    pub fn apply(&mut self, event: &Event) {
        let size = self.game.size();
        let pt = |v: &str| gtp::parse_point(size, v).ok();
        let outcome: Result<(), GameError> = match event {
            Event::Move { color, point } => match point.point(size) {
                Some(p) => {
                    self.clear_requests();
                    self.game.play((*color).into(), Move::Play(p))
                }
                None => Err(GameError::OffBoard),
            },
            Event::Pass { color } => {
                self.clear_requests();
                self.game.play((*color).into(), Move::Pass)
            }
            Event::Resign { color } => {
                self.end_reason = Some("resign".into());
                self.game.resign((*color).into())
            }
            Event::TakebackRequested { color } => {
                self.takeback = Some((*color).into());
                Ok(())
            }
            Event::TakebackAnswered {
                accepted, plies, ..
            } => {
                self.takeback = None;
                if *accepted && *plies > 0 {
                    self.game.undo(*plies as usize)
                } else {
                    Ok(())
                }
            }
            Event::ScoringRequested { color } => {
                self.scoring_requests[Color::from(*color).index()] = true;
                Ok(())
            }
            Event::ScoringStarted { dead, unsure } => {
                self.clear_requests();
                self.unsure = unsure.clone();
                let marked: Vec<Point> = dead.iter().filter_map(|v| pt(v)).collect();
                let started = match self.game.phase() {
                    Phase::Play => self.game.start_scoring(),
                    _ => Ok(()),
                };
                // A proposal the rules refuse (a pass-alive chain) is dropped, not fatal.
                started.and_then(|_| {
                    self.game
                        .set_dead(&marked)
                        .or_else(|_| self.game.set_dead(&[]))
                })
            }
            Event::DeadToggled { points, .. } => {
                self.accepted = [false; 2];
                let mut dead: Vec<Point> = self.game.dead_stones().iter().collect();
                for p in points.iter().filter_map(|v| pt(v)) {
                    match dead.iter().position(|&d| d == p) {
                        Some(i) => {
                            dead.swap_remove(i);
                        }
                        None => dead.push(p),
                    }
                }
                self.game.set_dead(&dead)
            }
            Event::ScoreAccepted { color } => {
                self.accepted[Color::from(*color).index()] = true;
                Ok(())
            }
            Event::Resumed { .. } => {
                self.resume_play();
                self.game.resume()
            }
            Event::Disputed {
                color,
                points,
                verdict,
            } => {
                let stones: Vec<Point> = points.iter().filter_map(|v| pt(v)).collect();
                self.apply_dispute((*color).into(), &stones, verdict)
            }
            Event::Finished { result, reason } => {
                self.end_reason = Some(reason.clone());
                if self.game.phase() == Phase::Finished {
                    Ok(())
                } else {
                    match result.parse::<GameResult>() {
                        Ok(GameResult::Forfeit(w)) => self.game.forfeit(w.opponent()),
                        Ok(GameResult::Time(w)) => self.game.timeout(w.opponent()),
                        Ok(GameResult::Resign(w)) => self.game.resign(w.opponent()),
                        Ok(GameResult::NoResult) => self.game.void(),
                        _ => self.game.finish_scoring().map(|_| ()),
                    }
                }
            }
            Event::Chat { .. }
            | Event::ChatHidden { .. }
            | Event::Disconnected { .. }
            | Event::Reconnected { .. } => Ok(()),
            Event::Vacation { color, until } => {
                self.vacation[Color::from(*color).index()] = *until;
                Ok(())
            }
        };
        if let Err(e) = outcome {
            tracing::error!(?event, error = %e, "an event from the log did not apply");
        }
    }

    /// Why this finished game counts for nobody's promotion points or rating, if it does not
    /// (see [`MIN_MOVES_EACH`]): `no_show` (a player lost by disconnection without a move),
    /// `too_few_moves` (it ended by resignation, time, leaving or disconnection before each
    /// player had made [`MIN_MOVES_EACH`] moves), `abandoned` (it waited for a player who did not
    /// come back). A game ended by the count or by a rule always counts.
    pub fn annulment(&self) -> Option<&'static str> {
        if self.game.phase() != Phase::Finished {
            return None;
        }
        let reason = self.end_reason.as_deref()?;
        if reason == "abandoned" {
            return Some("abandoned");
        }
        if !matches!(reason, "resign" | "time" | "left" | "disconnected") {
            return None;
        }
        let mut made = [0usize; 2];
        for (c, _) in self.game.moves() {
            made[c.index()] += 1;
        }
        let loser = self.game.result()?.winner()?.opponent();
        if reason == "disconnected" && made[loser.index()] == 0 {
            Some("no_show")
        } else if made.iter().any(|&n| n < MIN_MOVES_EACH) {
            Some("too_few_moves")
        } else {
            None
        }
    }

    fn clear_requests(&mut self) {
        self.takeback = None;
        self.scoring_requests = [false; 2];
        self.accepted = [false; 2];
    }
}

/// A chat line from `actor`: players are named by their colour, spectators by their username.
fn decide_chat(actor: &Actor, text: &str) -> Result<Vec<Event>, ActionError> {
    let n = text.chars().count();
    if n == 0 || n > 500 || text.trim().is_empty() {
        return Err(ActionError::BadChat);
    }
    let user = match actor {
        Actor::Player(c) => format!("{c}"),
        Actor::Other(name) => name.clone(),
    };
    Ok(vec![Event::Chat {
        user,
        text: text.to_string(),
    }])
}

/// The dead-stone phase begins on `after` (the game once it is in that phase), with the
/// engine's proposal marked.
fn scoring_started(after: &Game, propose_dead: &mut dyn FnMut(&Game) -> Proposal) -> Event {
    let size = after.size();
    let p = propose_dead(after);
    Event::ScoringStarted {
        dead: points(size, &p.dead),
        unsure: points(size, &p.unsure),
    }
}

fn finished(r: GameResult, reason: &str) -> Event {
    Event::Finished {
        result: r.to_string(),
        reason: reason.to_string(),
    }
}

fn points(size: u8, pts: &[Point]) -> Vec<String> {
    pts.iter().map(|&p| vertex(size, p)).collect()
}

#[cfg(test)]
mod tests;
