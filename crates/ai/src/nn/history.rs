//! A game replayed as KataGo's `BoardHistory` sees it under [`KataRules`]: what the input
//! features need (recent moves and boards, superko bans, whether a pass would end the game,
//! the komi the player to move sees) and which moves the policy may give weight to.
//!
//! Written after `cpp/game/boardhistory.cpp`. Not modelled: the encore of KataGo's territory
//! rules, which KataGo's GTP engine does not enter either (after two passes play is "past the
//! normal phase end", as here), and the draw utility (komi is taken as it is, as KataGo does by
//! default).

use std::collections::HashSet;

use tengen_rules::{game::Step, Board, Color, Game, HandicapBonus, Point, PointSet};

use super::rules::{KataKo, KataRules, KataScoring};

/// KataGo's `BoardHistory`, reduced to what the network's inputs read.
#[derive(Clone)]
pub struct History {
    /// The rules the net is told.
    pub rules: KataRules,
    /// The position now.
    pub board: Board,
    /// The position before the first of `moves`.
    start: Board,
    /// Who moves next.
    pub to_move: Color,
    /// White's komi (the game's).
    pub komi: f32,
    /// Moves since the last set-up, in order (`None` is a pass).
    pub moves: Vec<(Color, Option<Point>)>,
    /// The boards before the last move and before the one before it.
    pub recent: [Option<Board>; 2],
    /// Points where a move would repeat a position under superko (not the simple-ko point).
    pub superko_banned: PointSet,
    /// Points that ever held a stone or a move: a move elsewhere cannot repeat a position.
    ever_occupied: PointSet,
    /// Positions (hash, player to move) since the ko history was last cleared.
    ko_hashes: HashSet<(u64, Color)>,
    /// Positions each colour passed from (for the "same situation passed twice" ending).
    passed_from: [Vec<(u64, Color)>; 2],
    /// Passes in a row that count towards ending the game.
    pub ending_passes: u32,
    /// Moves made in the current phase (capped when play goes on after the end).
    pub valid_turns: usize,
    /// White's points besides komi: one a move under territory scoring (KataGo's "chilling"),
    /// the button.
    white_bonus: f32,
    /// White's points for handicap stones.
    handicap_bonus: f32,
    /// The button is still to be taken.
    pub has_button: bool,
    /// Two passes ended the game (or, under territory scoring, the main phase).
    pub finished: bool,
}

fn ko_key(rules: &KataRules, hash: u64, to_move: Color) -> (u64, Color) {
    match rules.ko {
        // Positional superko ignores who is to move.
        KataKo::Positional => (hash, Color::Black),
        KataKo::Simple | KataKo::Situational => (hash, to_move),
    }
}

impl History {
    /// Replays `game` under `rules` (moves after the last set-up change; a set-up starts a
    /// fresh history, as KataGo's GTP does on a new position).
    pub fn new(game: &Game, rules: KataRules) -> History {
        let (start, to_move) = game.start();
        let komi = game.rules().komi.as_f64() as f32;
        let mut h = History::fresh(start.clone(), to_move, rules, komi);
        for step in game.history() {
            match step {
                Step::Move(c, m) => h.play(c, m.point()),
                Step::Setup { stones, to_move } => {
                    let mut b = h.board.clone();
                    // A set-up the game accepted applies here too; if not, keep the board.
                    let _ = b.setup(stones);
                    h = History::fresh(b, to_move, rules, komi);
                }
            }
        }
        h.to_move = game.to_move();
        // Only the final position's bans and bonus are read: computed once, here, as KataGo
        // leaves them after the last move (no bans before any move).
        if !h.moves.is_empty() {
            h.update_superko_bans();
        }
        h.handicap_bonus = h.compute_handicap_bonus();
        h
    }

    /// The history after `c` plays `p` (`None` passes): what [`History::new`] gives for the
    /// game one move longer, without replaying the game (the search extends its histories a
    /// move at a time). The move must be legal for `c` ([`History::is_legal`]).
    pub fn extend(&mut self, c: Color, p: Option<Point>) {
        self.play(c, p);
        self.update_superko_bans();
        self.handicap_bonus = self.compute_handicap_bonus();
    }

    fn fresh(board: Board, to_move: Color, rules: KataRules, komi: f32) -> History {
        let mut ever_occupied = PointSet::default();
        let mut white_bonus = 0.0;
        for p in board.points() {
            if let Some(c) = board.get(p) {
                ever_occupied.insert(p);
                if rules.scoring == KataScoring::Territory {
                    white_bonus += if c == Color::Black { 1.0 } else { -1.0 };
                }
            }
        }
        let mut h = History {
            rules,
            ko_hashes: HashSet::from([ko_key(&rules, board.hash(), to_move)]),
            start: board.clone(),
            board,
            to_move,
            komi,
            moves: Vec::new(),
            recent: [None, None],
            superko_banned: PointSet::default(),
            ever_occupied,
            passed_from: [Vec::new(), Vec::new()],
            ending_passes: 0,
            valid_turns: 0,
            white_bonus,
            handicap_bonus: 0.0,
            has_button: rules.button,
            finished: false,
        };
        h.handicap_bonus = h.compute_handicap_bonus();
        h
    }

    /// Whether a pass by the player to move would end the game (`passWouldEndPhase`): a
    /// second pass in a row, or under simple ko a pass from a situation the same player has
    /// passed from before.
    pub fn pass_would_end(&self) -> bool {
        self.ending_passes + 1 >= 2 || self.spight_ending(self.to_move)
    }

    /// A key for the evaluator's cache, from everything the features and the legal moves are
    /// made of, computed without them (features cost a ladder reading; a cache hit should
    /// not): the stones (Zobrist), the ko point and superko bans, the player to move, the rules
    /// and their komi as the player to move sees it, the last five moves and the two boards
    /// before (history and ladder planes), and the game's ending state. Positions with one
    /// key have the same features (tested on random games under every rule set).
    pub fn cache_key(&self, symmetry: u8) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut s = std::collections::hash_map::DefaultHasher::new();
        symmetry.hash(&mut s);
        self.board.size().hash(&mut s);
        self.board.hash().hash(&mut s);
        self.board.ko_point().map(|p| p.index()).hash(&mut s);
        for p in self.superko_banned.iter() {
            p.index().hash(&mut s);
        }
        (self.to_move as u8).hash(&mut s);
        self.rules.hash(&mut s);
        self.self_komi(self.to_move).to_bits().hash(&mut s);
        let recent = self.moves.len().saturating_sub(5);
        for (c, m) in &self.moves[recent..] {
            (*c as u8, m.map(|p| p.index())).hash(&mut s);
        }
        for b in &self.recent {
            b.as_ref().map(|b| b.hash()).hash(&mut s);
        }
        (
            self.valid_turns.min(5),
            self.ending_passes,
            self.finished,
            self.has_button,
            self.pass_would_end(),
            self.spight_ending(self.to_move),
        )
            .hash(&mut s);
        s.finish()
    }

    /// Whether a pass by `c` now would repeat a situation `c` passed from (simple ko only).
    pub fn spight_ending(&self, c: Color) -> bool {
        self.rules.ko == KataKo::Simple
            && self.passed_from[c.index()].contains(&(self.board.hash(), c))
    }

    /// Komi from `c`'s point of view, with White's bonuses (`currentSelfKomi`).
    pub fn self_komi(&self, c: Color) -> f32 {
        let white = self.white_bonus + self.handicap_bonus + self.komi;
        if c == Color::White {
            white
        } else {
            -white
        }
    }

    /// KataGo's `isLegal` for the player to move: pass, or an empty point that is not the ko
    /// point, not a forbidden suicide and not banned by superko.
    pub fn is_legal(&self, p: Point) -> bool {
        let b = &self.board;
        b.is_empty(p)
            && b.ko_point() != Some(p)
            && !self.illegal_suicide(p, self.to_move)
            && !self.superko_banned.contains(p)
    }

    /// KataGo's `isIllegalSuicide`: with multi-stone suicide allowed, only a lone stone may
    /// not take itself off.
    fn illegal_suicide(&self, p: Point, c: Color) -> bool {
        let b = &self.board;
        if !b.is_suicide(p, c) {
            return false;
        }
        !(self.rules.multi_stone_suicide && b.has_neighbor_of(p, c))
    }

    fn play(&mut self, c: Color, p: Option<Point>) {
        if self.finished {
            self.valid_turns = self.valid_turns.min(1);
            self.finished = false;
        }
        let before = self.board.clone();
        let mut spight = false;
        match p {
            Some(p) => {
                self.ending_passes = 0;
                if self.board.is_empty(p) {
                    self.board.play(p, c);
                }
                self.ever_occupied.insert(p);
            }
            None if self.has_button => {
                self.has_button = false;
                self.white_bonus += if c == Color::White { 0.5 } else { -0.5 };
                self.ending_passes = 0;
                self.passed_from = [Vec::new(), Vec::new()];
                self.ko_hashes.clear();
                self.board.pass();
            }
            None => {
                if self.rules.ko == KataKo::Simple {
                    self.ko_hashes.clear();
                }
                self.ending_passes += 1;
                spight = self.spight_ending(c);
                self.passed_from[c.index()].push((self.board.hash(), c));
                self.board.pass();
            }
        }
        self.recent = [Some(before), self.recent[0].take()];
        self.ko_hashes
            .insert(ko_key(&self.rules, self.board.hash(), c.opponent()));
        self.moves.push((c, p));
        self.valid_turns += 1;
        self.to_move = c.opponent();
        if self.rules.scoring == KataScoring::Territory && p.is_some() {
            self.white_bonus += if c == Color::Black { 1.0 } else { -1.0 };
        }
        // Area scoring ends the game; territory scoring would begin KataGo's encore, which its
        // GTP engine prevents (`preventCleanupPhase`, on by default): play is past its end.
        if self.ending_passes >= 2 || spight {
            self.finished = true;
        }
    }

    /// Marks the points where the player to move would repeat a position (superko rules).
    fn update_superko_bans(&mut self) {
        self.superko_banned = PointSet::default();
        if self.rules.ko == KataKo::Simple {
            return;
        }
        let c = self.to_move;
        let b = &self.board;
        for p in b.points() {
            if !b.is_empty(p)
                || (!self.ever_occupied.contains(p) && !b.is_suicide(p, c))
                || self.illegal_suicide(p, c)
                || b.ko_point() == Some(p)
            {
                continue;
            }
            let key = ko_key(&self.rules, b.hash_after(p, c), c.opponent());
            if self.ko_hashes.contains(&key) {
                self.superko_banned.insert(p);
            }
        }
    }

    /// KataGo's handicap bonus: Black's stones at the start (if White has none) plus Black's
    /// opening run of moves, when that is more than one.
    fn compute_handicap_bonus(&self) -> f32 {
        if self.rules.handicap_bonus == HandicapBonus::Zero {
            return 0.0;
        }
        let start = &self.start;
        if start.points().any(|p| start.get(p) == Some(Color::White)) {
            return 0.0;
        }
        let mut stones = start.points().filter(|&p| start.get(p).is_some()).count();
        for (i, &(c, m)) in self.moves.iter().enumerate() {
            if c == Color::White {
                if self
                    .moves
                    .get(i + 1)
                    .is_some_and(|&(n, _)| n != Color::Black)
                {
                    stones = start.points().filter(|&p| start.get(p).is_some()).count();
                    break;
                }
                if m.is_none() {
                    continue;
                }
                break;
            }
            if m.is_some() {
                stones += 1;
            }
        }
        if stones <= 1 {
            return 0.0;
        }
        self.rules.handicap_bonus.points(stones as u32) as f32
    }
}
