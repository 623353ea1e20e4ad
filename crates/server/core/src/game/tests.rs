//! The live-game state machine, without I/O.

use tengen_rules::coord::gtp;
use tengen_rules::{Color, Phase, Point};

use super::{Action, ActionError, Actor, Event, LiveGame, Proposal, Side, Terms};

fn terms(take_back: bool) -> Terms {
    Terms {
        size: 9,
        rules: "japanese".into(),
        komi: "6.5".into(),
        handicap: 0,
        take_back,
        estimate: false,
        game_type: "ho_sun".into(),
        time: crate::domain::clock::TimeControl::None,
    }
}

/// Applies `action` by `who` and returns its events, keeping a log of everything applied.
fn act(
    g: &mut LiveGame,
    log: &mut Vec<Event>,
    who: Color,
    action: Action,
) -> Result<Vec<Event>, ActionError> {
    let events = g.decide(&Actor::Player(who), &action, &mut |_| Proposal::default())?;
    for e in &events {
        g.apply(e);
        log.push(e.clone());
    }
    Ok(events)
}

fn pt(v: &str) -> Point {
    gtp::parse_point(9, v).unwrap()
}

#[test]
fn a_whole_game_to_the_count_and_its_replay() {
    let mut g = LiveGame::new(terms(false)).unwrap();
    let mut log = Vec::new();
    // Black walls off the left, White the right; a white stone dies in Black's area.
    let moves = [
        ("D9", Color::Black),
        ("E9", Color::White),
        ("D8", Color::Black),
        ("E8", Color::White),
        ("D7", Color::Black),
        ("E7", Color::White),
        ("D6", Color::Black),
        ("E6", Color::White),
        ("D5", Color::Black),
        ("E5", Color::White),
        ("D4", Color::Black),
        ("E4", Color::White),
        ("D3", Color::Black),
        ("E3", Color::White),
        ("D2", Color::Black),
        ("E2", Color::White),
        ("D1", Color::Black),
        ("E1", Color::White),
        ("A1", Color::Black),
        ("B8", Color::White),
    ];
    for (v, c) in moves {
        act(&mut g, &mut log, c, Action::Move(pt(v))).unwrap();
    }
    act(&mut g, &mut log, Color::Black, Action::Pass).unwrap();
    let events = act(&mut g, &mut log, Color::White, Action::Pass).unwrap();
    assert!(matches!(events.last(), Some(Event::ScoringStarted { .. })));
    assert_eq!(g.game.phase(), Phase::Scoring);
    // Each player marks only their own stones.
    assert_eq!(
        act(&mut g, &mut log, Color::Black, Action::ToggleDead(pt("B8"))),
        Err(ActionError::NotYourStone)
    );
    let ev = act(&mut g, &mut log, Color::White, Action::ToggleDead(pt("B8"))).unwrap();
    assert_eq!(
        ev,
        vec![Event::DeadToggled {
            color: Side::White,
            points: vec!["B8".into()]
        }]
    );
    act(&mut g, &mut log, Color::Black, Action::AcceptScore).unwrap();
    // A new marking withdraws the acceptances.
    act(&mut g, &mut log, Color::Black, Action::ToggleDead(pt("A1"))).unwrap();
    act(&mut g, &mut log, Color::Black, Action::ToggleDead(pt("A1"))).unwrap();
    assert_eq!(g.accepted, [false, false]);
    act(&mut g, &mut log, Color::Black, Action::AcceptScore).unwrap();
    let ev = act(&mut g, &mut log, Color::White, Action::AcceptScore).unwrap();
    // Black 26 (A1 holds a stone) + 1 prisoner, White 36 + 6.5: W+15.5.
    assert_eq!(
        ev.last(),
        Some(&Event::Finished {
            result: "W+15.5".into(),
            reason: "count".into()
        })
    );
    assert_eq!(g.game.phase(), Phase::Finished);
    assert!(matches!(
        act(&mut g, &mut log, Color::Black, Action::Pass),
        Err(ActionError::Rules(_))
    ));

    // The log is the game: replaying it gives the same state.
    let mut again = LiveGame::new(terms(false)).unwrap();
    for e in &log {
        again.apply(e);
    }
    assert_eq!(again.game.board(), g.game.board());
    assert_eq!(again.game.result(), g.game.result());
    // And it survives JSON.
    let json = serde_json::to_string(&log).unwrap();
    let back: Vec<Event> = serde_json::from_str(&json).unwrap();
    assert_eq!(back, log);
}

#[test]
fn refusals_change_nothing() {
    let mut g = LiveGame::new(terms(false)).unwrap();
    let mut log = Vec::new();
    act(&mut g, &mut log, Color::Black, Action::Move(pt("E5"))).unwrap();
    let before = g.game.board().clone();
    let cases = [
        (Color::Black, Action::Move(pt("D4")), "not_your_turn"),
        (Color::White, Action::Move(pt("E5")), "occupied"),
        (Color::White, Action::ToggleDead(pt("E5")), "not_scoring"),
        (Color::White, Action::AcceptScore, "not_scoring"),
        (
            Color::White,
            Action::RequestTakeback,
            "takeback_not_allowed",
        ),
        (
            Color::White,
            Action::AnswerTakeback(true),
            "no_takeback_request",
        ),
        (Color::White, Action::Chat("".into()), "bad_chat"),
    ];
    for (c, a, code) in cases {
        let e = act(&mut g, &mut log, c, a).unwrap_err();
        assert_eq!(e.code(), code);
    }
    assert_eq!(g.game.board(), &before);
    let spectator = Actor::Other("eve".into());
    assert_eq!(
        g.decide(&spectator, &Action::Pass, &mut |_| Proposal::default()),
        Err(ActionError::NotAPlayer)
    );
    assert!(g
        .decide(&spectator, &Action::Chat("hi".into()), &mut |_| {
            Proposal::default()
        })
        .is_ok());
}

#[test]
fn takebacks_granted_and_refused() {
    let mut g = LiveGame::new(terms(true)).unwrap();
    let mut log = Vec::new();
    assert_eq!(
        act(&mut g, &mut log, Color::Black, Action::RequestTakeback),
        Err(ActionError::NothingToTakeBack)
    );
    act(&mut g, &mut log, Color::Black, Action::Move(pt("E5"))).unwrap();
    act(&mut g, &mut log, Color::White, Action::Move(pt("C3"))).unwrap();
    // Black asks after White replied: two plies.
    act(&mut g, &mut log, Color::Black, Action::RequestTakeback).unwrap();
    assert_eq!(
        act(&mut g, &mut log, Color::Black, Action::AnswerTakeback(true)),
        Err(ActionError::NoTakebackRequest)
    );
    let ev = act(&mut g, &mut log, Color::White, Action::AnswerTakeback(true)).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakebackAnswered {
            color: Side::White,
            accepted: true,
            plies: 2
        }]
    );
    assert_eq!(g.game.ply_count(), 0);
    act(&mut g, &mut log, Color::Black, Action::Move(pt("D4"))).unwrap();
    act(&mut g, &mut log, Color::Black, Action::RequestTakeback).unwrap();
    act(
        &mut g,
        &mut log,
        Color::White,
        Action::AnswerTakeback(false),
    )
    .unwrap();
    assert_eq!(g.game.ply_count(), 1);
    // A move drops a waiting request.
    act(&mut g, &mut log, Color::White, Action::RequestTakeback).unwrap_err();
    act(&mut g, &mut log, Color::White, Action::Move(pt("F6"))).unwrap();
    act(&mut g, &mut log, Color::White, Action::RequestTakeback).unwrap();
    act(&mut g, &mut log, Color::Black, Action::Move(pt("G7"))).unwrap();
    assert_eq!(g.takeback, None);
}

#[test]
fn scoring_by_request_and_leaving() {
    let mut g = LiveGame::new(terms(false)).unwrap();
    let mut log = Vec::new();
    act(&mut g, &mut log, Color::Black, Action::Move(pt("E5"))).unwrap();
    let ev = act(&mut g, &mut log, Color::White, Action::RequestScoring).unwrap();
    assert_eq!(ev.len(), 1, "one request does not start the phase");
    let ev = act(&mut g, &mut log, Color::Black, Action::RequestScoring).unwrap();
    assert!(matches!(ev.last(), Some(Event::ScoringStarted { .. })));
    act(&mut g, &mut log, Color::White, Action::Resume).unwrap();
    assert_eq!(g.game.phase(), Phase::Play);
    let ev = act(&mut g, &mut log, Color::White, Action::Leave).unwrap();
    assert_eq!(
        ev,
        vec![Event::Finished {
            result: "B+F".into(),
            reason: "left".into()
        }]
    );
    assert_eq!(g.game.result().unwrap().to_string(), "B+F");
}

#[test]
fn handicap_and_first_capture_terms() {
    let mut t = terms(false);
    t.size = 19;
    t.handicap = 25;
    t.game_type = "handicap".into();
    t.rules = "korean".into();
    t.komi = "0.5".into();
    let g = LiveGame::new(t).unwrap();
    assert_eq!(g.game.to_move(), Color::White);
    assert_eq!(g.game.board().stone_count(Color::Black), 25);

    let mut t = terms(false);
    t.rules = "first-capture".into();
    t.size = 5;
    t.komi = "0".into();
    let mut g = LiveGame::new(t).unwrap();
    let mut log = Vec::new();
    let p = |v: &str| gtp::parse_point(5, v).unwrap();
    for (v, c) in [
        ("B2", Color::Black),
        ("A2", Color::White),
        ("A3", Color::Black),
        ("B3", Color::White),
    ] {
        act(&mut g, &mut log, c, Action::Move(p(v))).unwrap();
    }
    let ev = act(&mut g, &mut log, Color::Black, Action::Move(p("A1"))).unwrap();
    assert_eq!(
        ev.last(),
        Some(&Event::Finished {
            result: "B+".into(),
            reason: "rule".into()
        })
    );
}
