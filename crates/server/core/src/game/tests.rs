//! The live-game state machine, without I/O.

use tengen_rules::coord::gtp;
use tengen_rules::{Color, Komi, Phase, Point, Preset};

use super::{Action, ActionError, Actor, DisputeRule, Event, LiveGame, Proposal, Side, Terms};
use crate::domain::game_type::GameType;

fn terms(take_back: bool) -> Terms {
    Terms {
        size: 9,
        rules: Preset::Japanese,
        komi: Komi::from_halves(13),
        handicap: 0,
        take_back,
        estimate: false,
        game_type: GameType::HoSun,
        time: crate::domain::clock::TimeControl::None,
        unrated: false,
        disputes: Default::default(),
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
    t.game_type = GameType::Handicap;
    t.rules = Preset::Korean;
    t.komi = Komi::from_halves(1);
    let g = LiveGame::new(t).unwrap();
    assert_eq!(g.game.to_move(), Color::White);
    assert_eq!(g.game.board().stone_count(Color::Black), 25);

    let mut t = terms(false);
    t.rules = Preset::FirstCapture;
    t.size = 5;
    t.komi = Komi::points(0);
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

/// Terms as the server has always written them (to `games.terms`, every log's start, clients),
/// field by field in declaration order, with the preset, komi and game type as strings.
fn old_terms_json(rules: &str, komi: &str, handicap: u8, game_type: &str) -> String {
    format!(
        r#"{{"size":19,"rules":"{rules}","komi":"{komi}","handicap":{handicap},"take_back":false,"estimate":true,"game_type":"{game_type}","time":{{"system":"byoyomi","main_ms":1800000,"periods":5,"period_ms":30000}}}}"#
    )
}

#[test]
fn terms_json_reads_and_writes_back_byte_for_byte() {
    use crate::domain::game_type::default_komi;
    let kinds = [
        (GameType::HoSun, "ho_sun", 0),
        (GameType::JungSun, "jung_sun", 0),
        (GameType::Handicap, "handicap", 4),
    ];
    for preset in Preset::ALL {
        for (kind, kind_name, handicap) in kinds {
            // What the rooms, quick match and bots wrote: the preset's name, the default komi's
            // Display and the game type's name.
            let komi = default_komi(kind, preset, 19).to_string();
            let old = old_terms_json(preset.name(), &komi, handicap, kind_name);
            let t: Terms = serde_json::from_str(&old).unwrap();
            assert_eq!(t.rules, preset, "{old}");
            assert_eq!(t.game_type, kind, "{old}");
            assert_eq!(t.komi, default_komi(kind, preset, 19), "{old}");
            assert_eq!(serde_json::to_string(&t).unwrap(), old);
            // Through a Value too, as snapshots and the correspondence sweep read them.
            let v = serde_json::to_value(&t).unwrap();
            assert_eq!(v["rules"], preset.name());
            assert_eq!(v["komi"], komi.as_str());
            assert_eq!(v["game_type"], kind_name);
            assert_eq!(serde_json::from_value::<Terms>(v).unwrap(), t);
        }
    }
}

#[test]
fn terms_json_keeps_every_komi_the_server_writes() {
    for komi in [
        "6.5", "7", "0.5", "0", "-3.5", "5.5", "7.5", "-0.5", "-7", "1000",
    ] {
        let old = old_terms_json("japanese", komi, 0, "ho_sun");
        let t: Terms = serde_json::from_str(&old).unwrap();
        assert_eq!(t.komi.to_string(), komi);
        assert_eq!(serde_json::to_string(&t).unwrap(), old);
    }
}

#[test]
fn komi_display_reads_back_as_the_same_komi() {
    use crate::domain::game_type::default_komi;
    // Every komi there is (-1000 to 1000 by halves): its Display parses to itself and is what
    // the old `komi` string held for it.
    for halves in -2000..=2000 {
        let k = Komi::from_halves(halves);
        let s = k.to_string();
        assert_eq!(s.parse::<Komi>(), Ok(k), "{s}");
        assert_eq!(s.parse::<Komi>().unwrap().to_string(), s);
    }
    for preset in Preset::ALL {
        for kind in [GameType::HoSun, GameType::JungSun, GameType::Handicap] {
            for size in [5, 9, 13, 19] {
                let k = default_komi(kind, preset, size);
                assert_eq!(k.to_string().parse::<Komi>(), Ok(k));
            }
        }
    }
}

#[test]
fn terms_from_logs_before_the_estimate_and_the_clock() {
    let old = r#"{"size":9,"rules":"japanese","komi":"6.5","handicap":0,"take_back":true,"game_type":"ho_sun"}"#;
    let t: Terms = serde_json::from_str(old).unwrap();
    assert_eq!(t, terms(true));
}

#[test]
fn terms_with_an_unknown_preset_komi_or_game_type_are_refused_clearly() {
    let err = |rules: &str, komi: &str, kind: &str| {
        serde_json::from_str::<Terms>(&old_terms_json(rules, komi, 0, kind))
            .unwrap_err()
            .to_string()
    };
    let e = err("go", "6.5", "ho_sun");
    assert!(e.starts_with("terms rules: unknown rules \"go\""), "{e}");
    let e = err("japanese", "6.25", "ho_sun");
    assert!(e.starts_with("terms komi: komi must be"), "{e}");
    assert!(e.contains("\"6.25\""), "{e}");
    let e = err("japanese", "6.5", "even");
    assert!(
        e.starts_with("terms game_type: unknown game type \"even\""),
        "{e}"
    );
}

/// Plays `n` moves each, Black up the A column, White up the J column.
fn play_each(g: &mut LiveGame, log: &mut Vec<Event>, n: usize) {
    for i in 0..n {
        act(
            g,
            log,
            Color::Black,
            Action::Move(pt(&format!("A{}", i + 1))),
        )
        .unwrap();
        act(
            g,
            log,
            Color::White,
            Action::Move(pt(&format!("J{}", i + 1))),
        )
        .unwrap();
    }
}

#[test]
fn a_game_lost_before_each_side_made_three_moves_is_annulled() {
    let finished = |reason: &str, result: &str| Event::Finished {
        result: result.into(),
        reason: reason.into(),
    };
    // A no-show: White never came, and lost by disconnection.
    let mut g = LiveGame::new(terms(false)).unwrap();
    let mut log = Vec::new();
    act(&mut g, &mut log, Color::Black, Action::Move(pt("E5"))).unwrap();
    assert_eq!(g.annulment(), None, "not finished");
    g.apply(&finished("disconnected", "B+F"));
    assert_eq!(g.annulment(), Some("no_show"));
    // Resigned after two moves each: too few.
    let mut g = LiveGame::new(terms(false)).unwrap();
    play_each(&mut g, &mut log, 2);
    act(&mut g, &mut log, Color::Black, Action::Resign).unwrap();
    assert_eq!(g.annulment(), Some("too_few_moves"));
    // Left after three moves each: seed 002's runaway rule, the game counts.
    let mut g = LiveGame::new(terms(false)).unwrap();
    play_each(&mut g, &mut log, 3);
    act(&mut g, &mut log, Color::White, Action::Leave).unwrap();
    assert_eq!(
        g.game.result().map(|r| r.to_string()).as_deref(),
        Some("B+F")
    );
    assert_eq!(g.annulment(), None);
    // Disconnected after three moves each: counts too.
    let mut g = LiveGame::new(terms(false)).unwrap();
    play_each(&mut g, &mut log, 3);
    g.apply(&finished("disconnected", "W+F"));
    assert_eq!(g.annulment(), None);
    // A game that waited for a player who never came back: void, annulled however long.
    let mut g = LiveGame::new(terms(false)).unwrap();
    play_each(&mut g, &mut log, 4);
    g.apply(&finished("abandoned", "Void"));
    assert_eq!(g.game.phase(), Phase::Finished);
    assert_eq!(
        g.game.result().map(|r| r.to_string()).as_deref(),
        Some("Void")
    );
    assert_eq!(g.annulment(), Some("abandoned"));
    // Presence events change nothing of the game.
    let before = g.game.moves().count();
    g.apply(&Event::Disconnected {
        color: Side::Black,
        until: 5,
    });
    g.apply(&Event::Reconnected { color: Side::Black });
    assert_eq!(g.game.moves().count(), before);
}

/// Black walls off the left, White the right, and White's stone on B8 (dead in Black's area)
/// is left on the board by White: both passed, the dead-stone phase is on, with the terms'
/// dispute rule `disputes`.
fn left_on_the_board(disputes: DisputeRule) -> (LiveGame, Vec<Event>) {
    let mut g = LiveGame::new(Terms {
        disputes,
        ..terms(false)
    })
    .unwrap();
    let mut log = Vec::new();
    for row in 1..=9 {
        act(
            &mut g,
            &mut log,
            Color::Black,
            Action::Move(pt(&format!("D{row}"))),
        )
        .unwrap();
        act(
            &mut g,
            &mut log,
            Color::White,
            Action::Move(pt(&format!("E{row}"))),
        )
        .unwrap();
    }
    act(&mut g, &mut log, Color::Black, Action::Move(pt("A1"))).unwrap();
    act(&mut g, &mut log, Color::White, Action::Move(pt("B8"))).unwrap();
    act(&mut g, &mut log, Color::Black, Action::Pass).unwrap();
    act(&mut g, &mut log, Color::White, Action::Pass).unwrap();
    assert_eq!(g.game.phase(), Phase::Scoring);
    (g, log)
}

/// Decides and applies `action` by `who`, the engine proposing `engine` when asked.
fn act_judged(
    g: &mut LiveGame,
    who: Color,
    action: Action,
    engine: &Proposal,
) -> Result<Vec<Event>, ActionError> {
    let events = g.decide(&Actor::Player(who), &action, &mut |_| engine.clone())?;
    for e in &events {
        g.apply(e);
    }
    Ok(events)
}

#[test]
fn a_dispute_under_play_resumes_with_the_groups_owner_to_move() {
    let (mut g, _) = left_on_the_board(DisputeRule::Play);
    let none = Proposal::default();
    // One's own stones are marked, not disputed; empty points and dead stones are refused.
    for (who, v, code) in [
        (Color::Black, "D5", "own_stones"),
        (Color::Black, "C5", "no_stone"),
        (Color::White, "B8", "own_stones"),
    ] {
        let e = act_judged(&mut g, who, Action::Dispute(pt(v)), &none).unwrap_err();
        assert_eq!(e.code(), code, "{v}");
    }
    act_judged(&mut g, Color::Black, Action::AcceptScore, &none).unwrap();
    let ev = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &none).unwrap();
    assert_eq!(
        ev,
        [Event::Disputed {
            color: Side::Black,
            points: vec!["B8".into()],
            verdict: "play".into(),
        }]
    );
    // Play again, White (the stone's owner) first; Black's acceptance is gone.
    assert_eq!(g.game.phase(), Phase::Play);
    assert_eq!(g.game.to_move(), Color::White);
    assert_eq!(g.accepted, [false; 2]);
    // Black captures it in play: White passes, Black plays B9, A8 ... the rules decide.
    act_judged(&mut g, Color::White, Action::Pass, &none).unwrap();
    act_judged(&mut g, Color::Black, Action::Move(pt("B9")), &none).unwrap();
}

#[test]
fn a_dispute_under_the_engine_takes_its_verdict() {
    // The engine says dead: marked dead, and its owner cannot unmark it.
    let (mut g, log) = left_on_the_board(DisputeRule::Engine);
    let dead = Proposal {
        dead: vec![pt("B8")],
        unsure: Vec::new(),
    };
    let ev = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &dead).unwrap();
    assert!(matches!(&ev[..], [Event::Disputed { verdict, .. }] if verdict == "dead"));
    assert!(g.game.dead_stones().contains(pt("B8")));
    assert_eq!(g.game.phase(), Phase::Scoring);
    let e = act_judged(&mut g, Color::White, Action::ToggleDead(pt("B8")), &dead).unwrap_err();
    assert_eq!(e.code(), "already_judged");
    let e = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &dead).unwrap_err();
    assert_eq!(e.code(), "already_dead");
    // The log replays to the same marking, the verdict included.
    let mut again = LiveGame::new(g.terms.clone()).unwrap();
    for e in log.iter().chain(&ev) {
        again.apply(e);
    }
    assert_eq!(again.game.dead_stones(), g.game.dead_stones());
    assert_eq!(again.judged, g.judged);
    act_judged(&mut g, Color::Black, Action::AcceptScore, &dead).unwrap();
    let ev = act_judged(&mut g, Color::White, Action::AcceptScore, &dead).unwrap();
    assert!(matches!(ev.last(), Some(Event::Finished { reason, .. }) if reason == "count"));
    // Japanese: Black's 26 points (A1 is a stone) with B8's and its prisoner against White's
    // 36 and 6.5 komi.
    assert_eq!(g.game.result().unwrap().to_string(), "W+15.5");

    // The engine says alive: it stays, and cannot be disputed again.
    let (mut g, _) = left_on_the_board(DisputeRule::Engine);
    let alive = Proposal::default();
    let ev = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &alive).unwrap();
    assert!(matches!(&ev[..], [Event::Disputed { verdict, .. }] if verdict == "alive"));
    assert!(!g.game.dead_stones().contains(pt("B8")));
    let e = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &alive).unwrap_err();
    assert_eq!(e.code(), "already_judged");

    // The engine is unsure: play decides, the owner to move.
    let (mut g, _) = left_on_the_board(DisputeRule::Engine);
    let unsure = Proposal {
        dead: Vec::new(),
        unsure: vec![pt("B8")],
    };
    let ev = act_judged(&mut g, Color::Black, Action::Dispute(pt("B8")), &unsure).unwrap();
    assert!(matches!(&ev[..], [Event::Disputed { verdict, .. }] if verdict == "play"));
    assert_eq!(
        (g.game.phase(), g.game.to_move()),
        (Phase::Play, Color::White)
    );
}

#[test]
fn terms_write_the_dispute_rule_only_when_it_is_the_engine() {
    let play = serde_json::to_value(terms(false)).unwrap();
    assert!(play.get("disputes").is_none(), "{play}");
    let engine = serde_json::to_value(Terms {
        disputes: DisputeRule::Engine,
        ..terms(false)
    })
    .unwrap();
    assert_eq!(engine["disputes"], "engine");
    let back: Terms = serde_json::from_value(engine).unwrap();
    assert_eq!(back.disputes, DisputeRule::Engine);
}

/// A move stored as text before points were typed (`"point":"D4"`) reads into a vertex, writes
/// back byte for byte and replays; a stored point off the board is skipped by `apply`, and text
/// that is no vertex at all is an error of the reading, not a panic.
#[test]
fn a_stored_move_reads_back_as_a_vertex_and_replays() {
    let old = r#"{"type":"move","color":"black","point":"D4"}"#;
    let e: Event = serde_json::from_str(old).unwrap();
    assert_eq!(
        e,
        Event::Move {
            color: Side::Black,
            point: "D4".parse().unwrap(),
        }
    );
    assert_eq!(serde_json::to_string(&e).unwrap(), old);
    let mut g = LiveGame::new(terms(false)).unwrap();
    g.apply(&e);
    assert_eq!(g.game.board().get(pt("D4")), Some(Color::Black));
    // On a 9x9 board T19 is a vertex but no point: the event is skipped, the game unchanged.
    let off: Event =
        serde_json::from_str(r#"{"type":"move","color":"white","point":"T19"}"#).unwrap();
    g.apply(&off);
    assert_eq!(g.game.moves().count(), 1);
    let bad = serde_json::from_str::<Event>(r#"{"type":"move","color":"white","point":"I9"}"#);
    assert!(bad.is_err());
}
