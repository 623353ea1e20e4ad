//! The typed answers write the same bytes as the `json!` objects they replaced: the same
//! fields, the same nulls, and the keys in the order `json!` wrote them (alphabetical:
//! `serde_json`'s map is sorted). A field declared out of order, or a type inside declared out
//! of order, fails here.

#![allow(clippy::unwrap_used)]

use serde::Serialize;
use serde_json::json;

/// `v` as it goes on the wire, checked to be in `json!`'s key order.
fn wire(v: &impl Serialize) -> String {
    let text = serde_json::to_string(v).unwrap();
    let sorted = serde_json::to_value(v).unwrap().to_string();
    assert_eq!(text, sorted, "keys out of json!'s order");
    text
}

#[test]
fn a_private_message_and_the_lists_of_messages_read_as_before() {
    use tengen_app::social::{Conversation, Conversations, Friend, Friends, Message, Thread};
    let m = Message {
        at: 5,
        from: "ann".into(),
        id: 1,
        read: false,
        text: "hi".into(),
        to: "bob".into(),
    };
    let old = json!({"id": 1, "from": "ann", "to": "bob", "text": "hi", "at": 5, "read": false});
    assert_eq!(wire(&m), old.to_string());
    let c = Conversations {
        conversations: vec![Conversation {
            last: m.clone(),
            unread: 2,
            with: "bob".into(),
        }],
    };
    let old = json!({"conversations": [{"with": "bob", "last": old, "unread": 2}]});
    assert_eq!(wire(&c), old.to_string());
    let t = Thread {
        messages: vec![m],
        with: "bob".into(),
    };
    wire(&t);
    let f = Friends {
        friends: vec![Friend {
            name: "cy".into(),
            online: true,
        }],
    };
    assert_eq!(
        wire(&f),
        json!({"friends": [{"name": "cy", "online": true}]}).to_string()
    );
}

#[test]
fn turns_and_vacations_keep_their_nulls() {
    use tengen_app::correspondence::{Turn, Turns, Vacation};
    let t = Turns {
        games: vec![Turn {
            color: "black",
            correspondence: Some(true),
            game: 3,
            move_number: 10,
            opponent: Some("bob".into()),
            phase: Some("play".into()),
            size: Some(19),
            time_left_ms: None,
        }],
    };
    let old = json!({"games": [{
        "game": 3, "opponent": "bob", "color": "black", "size": 19, "phase": "play",
        "move_number": 10, "correspondence": true, "time_left_ms": null,
    }]});
    assert_eq!(wire(&t), old.to_string());
    let v = Vacation {
        games: vec![],
        until: None,
    };
    assert_eq!(wire(&v), json!({"until": null, "games": []}).to_string());
}

#[test]
fn moderation_answers_read_as_before() {
    use tengen_app::moderation::{Acted, Annulled, Hidden, Log, Mine, OwnAction};
    use tengen_core::moderation::{ActionKind, Sanctions};
    let a = Acted {
        action: ActionKind::Mute,
        id: 4,
        until: Some(9),
        user: "bob".into(),
    };
    let old = json!({"id": 4, "user": "bob", "action": ActionKind::Mute, "until": 9});
    assert_eq!(wire(&a), old.to_string());
    wire(&Annulled {
        game: 1,
        id: 2,
        points_recomputed: true,
    });
    wire(&Hidden {
        game: 1,
        hidden: true,
        seq: 3,
    });
    let entry = tengen_store::moderation::LogEntry {
        action: "mute".into(),
        at: 1,
        game: None,
        id: 2,
        moderator: "mo".into(),
        reason: "r".into(),
        until: None,
        user: Some("bob".into()),
    };
    wire(&Log {
        entries: vec![entry],
    });
    let mine = Mine {
        actions: vec![OwnAction {
            action: "mute".into(),
            at: 1,
            reason: "r".into(),
            until: None,
        }],
        sanctions: Sanctions::default(),
    };
    wire(&mine);
}

#[test]
fn a_record_read_from_sgf_reads_as_before() {
    let sgf = b"(;GM[1]FF[4]SZ[9]KM[6.5]PB[ann]BR[3k];B[ee];W[];AB[aa]PL[W])";
    let r = tengen_app::records::read(sgf, None).unwrap();
    let text = wire(&r);
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["black"], json!({"name": "ann", "rank": "3k"}));
    assert_eq!(v["white"], json!({"name": null, "rank": null}));
    assert_eq!(v["history"][0], json!({"color": "black", "move": "E5"}));
    assert!(v["start"].get("captures").is_none(), "{text}");
    assert!(v["final"]["captures"].is_object(), "{text}");
}

#[test]
fn the_other_answers_are_in_json_order() {
    use tengen_app::profile::{PlayerRecord, Ratings, Record};
    use tengen_app::reports::{Context, GameBrief, MessageBrief, Queue, Queued};
    wire(&Ratings {
        deviation: 1.0,
        history: vec![tengen_store::ratings::RatingPoint {
            at: 1,
            deviation: 2.0,
            game_id: 3,
            rating: 4.0,
        }],
        points: 0,
        rank: "3k".parse().unwrap(),
        rating: 1500.0,
        user: "ann".into(),
    });
    let mut record = Record::default();
    record.add(19, true, "B+R");
    wire(&PlayerRecord {
        record,
        user: "ann".into(),
    });
    let game = GameBrief {
        annulled: false,
        id: 1,
        result: None,
        status: "live",
    };
    wire(&Queue {
        reports: vec![Queued {
            at: 1,
            chat: None,
            context: Context {
                chat: vec![],
                escapes: 0,
                game: Some(game),
                largest_rating_jump: 0.0,
                message: Some(MessageBrief {
                    at: 1,
                    from: "a".into(),
                    id: 2,
                    text: "t".into(),
                    to: "b".into(),
                }),
                moderation: vec![],
                ratings: vec![],
                recent_games: vec![],
            },
            game: Some(1),
            id: 1,
            message: None,
            note: None,
            reason: "r".into(),
            reporter: "a".into(),
            resolved_at: None,
            resolved_by: None,
            user: "b".into(),
        }],
    });
    wire(&tengen_app::sessions::Sessions {
        sessions: vec![tengen_app::sessions::Listed {
            address: None,
            browser: Some("Firefox"),
            created_at: 1,
            current: true,
            device: "Firefox on Linux".into(),
            id: "ab".into(),
            last_seen: 2,
            system: Some("Linux"),
        }],
    });
    let line = tengen_app::lobby_chat::LobbyLine {
        at: 1,
        from: "ann".into(),
        id: 2,
        text: "hi".into(),
        kind: "lobby_chat".into(),
    };
    let old = json!({"type": "lobby_chat", "id": 2, "from": "ann", "text": "hi", "at": 1});
    assert_eq!(wire(&line), old.to_string());
}

fn old_matched() -> serde_json::Value {
    json!({
        "state": "matched", "game": 7,
        "opponent": {"username": "bob", "rank": "3k"}, "game_type": "even", "size": 19,
    })
}

#[test]
fn quick_match_states_read_and_write_as_before() {
    use tengen_app::quick_match::{MatchState, Opponent};
    let matched = MatchState::Matched {
        game: 7,
        game_type: Some("even".into()),
        opponent: Opponent {
            bot: false,
            rank: Some("3k".parse().unwrap()),
            username: "bob".into(),
        },
        size: 19,
    };
    let old = old_matched();
    assert_eq!(wire(&matched), old.to_string());
    // An outcome kept by an older node reads back.
    let read: MatchState = serde_json::from_value(old).unwrap();
    assert_eq!(read, matched);
    let bot = json!({
        "state": "matched", "game": 8,
        "opponent": {"username": "tengen-bot", "bot": true}, "game_type": "handicap", "size": 9,
    });
    let read: MatchState = serde_json::from_value(bot.clone()).unwrap();
    assert_eq!(wire(&read), bot.to_string());
    let failed = json!({"state": "failed", "code": "no_opponent", "message": "m"});
    let read: MatchState = serde_json::from_value(failed.clone()).unwrap();
    assert_eq!(wire(&read), failed.to_string());
    assert_eq!(
        wire(&MatchState::Idle),
        json!({"state": "idle"}).to_string()
    );
    let waiting = MatchState::Waiting {
        request: None,
        since: Some(5),
        ticket: Some(3),
    };
    assert_eq!(
        wire(&waiting),
        json!({"state": "waiting", "ticket": 3, "since": 5, "request": null}).to_string()
    );
    assert_eq!(
        &*tengen_app::notices::Told::of(&tengen_app::quick_match::Told { outcome: &matched }).text,
        json!({"type": "matched", "match": old_matched()}).to_string()
    );
}

#[test]
fn rooms_keep_their_absent_fields_absent() {
    use tengen_app::rooms::{Room, RoomOwner};
    use tengen_core::domain::clock::TimeControl;
    let room = Room {
        disputes: Default::default(),
        estimate: true,
        game_id: None,
        handicap: None,
        id: 3,
        komi: None,
        owner: RoomOwner {
            here: None,
            rank: "1d".parse().unwrap(),
            username: "ann".into(),
        },
        parity: None,
        rules: "japanese".into(),
        size: 19,
        status: tengen_store::games::RoomStatus::Open,
        take_back: false,
        time: Some(TimeControl::Byoyomi {
            main_ms: 1,
            periods: 2,
            period_ms: 3,
        }),
    };
    let text = wire(&room);
    assert!(!text.contains("parity") && !text.contains("here"), "{text}");
    let old = json!({
        "id": 3, "owner": {"username": "ann", "rank": "1d"}, "size": 19, "rules": "japanese",
        "komi": null, "take_back": false, "estimate": true, "handicap": null,
        "time": {"system": "byoyomi", "main_ms": 1, "periods": 2, "period_ms": 3},
        "disputes": "play", "status": "open", "game_id": null,
    });
    assert_eq!(text, old.to_string());
}

#[test]
fn a_review_analysis_and_its_chat_read_as_before() {
    use tengen_app::review::analysis::{Candidate, PositionAnalysis, ProgressView};
    use tengen_app::review::chat::ChatLine;
    let line = ChatLine {
        at: 1,
        from: "ann".into(),
        id: 2,
        text: "hi".into(),
    };
    let old = json!({"id": 2, "from": "ann", "text": "hi", "at": 1});
    assert_eq!(wire(&line), old.to_string());
    let position = PositionAnalysis {
        best: vec![Candidate {
            black_lead: None,
            black_winrate: 0.5,
            at: "D4".into(),
            pv: vec!["D4".into()],
            visits: 3,
            winrate: 0.5,
        }],
        black_lead: 1.5,
        black_winrate: 0.6,
        engine: "mcts",
        ownership: "abc".into(),
        playouts: 3,
        to_move: "black",
        visits: 3,
    };
    let old_position = json!({
        "to_move": "black", "engine": "mcts", "black_winrate": 0.6, "black_lead": 1.5,
        "visits": 3, "playouts": 3, "ownership": "abc",
        "best": [{"move": "D4", "visits": 3, "winrate": 0.5, "black_winrate": 0.5,
                  "black_lead": null, "pv": ["D4"]}],
    });
    assert_eq!(wire(&position), old_position.to_string());
    let progress = ProgressView {
        done: 1,
        engine: "mcts",
        playouts: 3,
        positions: vec![Some(position), None],
        state: "done",
        total: 2,
        visits: 3,
    };
    let old = json!({
        "state": "done", "done": 1, "total": 2, "engine": "mcts", "visits": 3, "playouts": 3,
        "positions": [old_position, null],
    });
    assert_eq!(wire(&progress), old.to_string());
}

#[test]
fn a_tournament_s_answers_are_in_json_order() {
    use tengen_app::tournaments::{
        Board, BoardCorrection, Listed, StandingLine, Standings, Tournaments,
    };
    let line = StandingLine {
        name: "ann".into(),
        place: 1,
        rank: "1d".into(),
        tied: false,
        values: vec!["2".into()],
    };
    let old = json!({"place": 1, "tied": false, "name": "ann", "rank": "1d", "values": ["2"]});
    assert_eq!(wire(&line), old.to_string());
    wire(&Standings {
        criteria: vec!["MMS"],
        lines: vec![line],
    });
    wire(&Board {
        black: None,
        board: 1,
        board_result: None,
        bye: true,
        correction: Some(BoardCorrection {
            board_result: None,
            by: Some("org".into()),
            result: "W+R".into(),
        }),
        game_id: None,
        handicap: 0,
        result: None,
        white: Some("ann".into()),
    });
    wire(&Tournaments {
        tournaments: vec![Listed {
            id: 1,
            name: "cup".into(),
            round: 0,
            size: None,
            starts_at: None,
            status: tengen_store::tournaments::TournamentStatus::Open,
            system: Some("swiss".into()),
        }],
    });
}

#[tokio::test]
async fn learning_answers_read_as_before() {
    use tengen_app::learn::{account, first_capture, lessons, puzzles, rules};
    // Every lesson and every step as it is shown, in json!'s order.
    let list = lessons::list().unwrap();
    let text = wire(&list);
    assert!(
        text.starts_with(r#"{"lessons":[{"id":"01-stones","steps":"#),
        "{text}"
    );
    for l in &list.lessons {
        wire(&lessons::lesson(l.id).unwrap());
    }
    // A move's verdict: the fields and nulls json! wrote, the miss with its code first.
    let t = |m: &str| lessons::Try {
        moves: vec![m.into()],
        count: None,
    };
    let wrong = lessons::check("02-capture", 0, &t("A1")).unwrap();
    let old = json!({
        "board": [".....", "..X..", ".XOX.", ".....", "X...."],
        "miss": {"code": "no_capture", "liberties": 1},
        "next": null, "outcome": "wrong", "refused": null, "reply": null, "says": null,
    });
    assert_eq!(wire(&wrong), old.to_string());
    let right = lessons::check("02-capture", 0, &t("C2")).unwrap();
    let text = wire(&right);
    assert!(
        text.contains(r#""says":{"en":"#) && text.contains(r#""ja":"#),
        "{text}"
    );
    // A count's verdict: each side's count with its total.
    let counting = lessons::lesson("10-counting").unwrap();
    let n = counting
        .steps
        .iter()
        .position(|s| s.goal == tengen_learn::Goal::Count)
        .unwrap();
    let answer = lessons::Try {
        moves: vec![],
        count: Some("B+1".into()),
    };
    let v: serde_json::Value =
        serde_json::from_str(&wire(&lessons::check("10-counting", n, &answer).unwrap())).unwrap();
    for side in ["black", "white"] {
        let keys: Vec<&String> = v[side].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["komi", "prisoners", "stones", "territory", "total"],
            "{v}"
        );
    }
    assert!(v["right"].is_boolean() && v["result"].is_string(), "{v}");
    // The puzzles: the summary, a puzzle, the day's (its day first), a try with its rating.
    let summary = wire(&puzzles::summary().unwrap());
    assert!(
        summary.contains(r#""start":{"deviation":350.0,"rating":"#),
        "{summary}"
    );
    let p = &tengen_learn::puzzles().unwrap().puzzles[0];
    let view = wire(&puzzles::puzzle(&p.id).unwrap());
    assert!(
        view.starts_with(&format!(r#"{{"id":"{}","kind":"#, p.id)),
        "{view}"
    );
    let daily = wire(&puzzles::daily(20_000).unwrap());
    assert!(daily.starts_with(r#"{"day":20000,"id":"#), "{daily}");
    wire(&puzzles::next(&puzzles::NextQuery::default()).unwrap());
    let size = p.step.start.size();
    for a in &p.step.answers {
        let moves = vec![tengen_rules::coord::gtp::format_move(size, a.mv)];
        for rating in [None, Some(puzzles::PlayerRating::start())] {
            let v = puzzles::check(
                &p.id,
                &puzzles::PuzzleTry {
                    moves: moves.clone(),
                    rating,
                },
            )
            .unwrap();
            let text = wire(&v);
            assert!(
                text.contains(r#""rating":"#),
                "the rating is always there: {text}"
            );
        }
    }
    // The account's learning, the bot's answer, the rule presets.
    let learning = account::Learning {
        attempts: 2,
        lessons: account::Lessons::default(),
        rating: None,
        solved: 1,
    };
    let old =
        json!({"lessons": {"done": {}, "wins": {}}, "rating": null, "attempts": 2, "solved": 1});
    assert_eq!(wire(&learning), old.to_string());
    let turn = first_capture::turn(
        &tengen_app::engines::Engines::process(),
        first_capture::Turn {
            size: 5,
            moves: vec!["C3".into()],
            level: 0,
        },
    )
    .await
    .unwrap();
    let text = wire(&turn);
    assert!(text.ends_with(r#""winner":null}"#), "{text}");
    let presets = wire(&rules::presets());
    let wga = json!({
        "name": "wga", "seeds": ["000"], "size": 9, "sizes": [9, 9], "komi": "7", "ko": "simple",
        "repetition": "nothing", "suicide": "illegal", "scoring": "area_plus_prisoners",
        "end": "two_passes", "dead_stones": "agreed", "handicap": [2, 5],
        "handicap_placement": "fixed",
    });
    // Each preset as before, and its diagrams (added since) in their place.
    let mut v: serde_json::Value = serde_json::from_str(&presets).unwrap();
    let first = v["presets"][0].as_object_mut().unwrap();
    assert!(first.remove("diagrams").is_some_and(|d| d.is_array()));
    assert_eq!(serde_json::Value::Object(first.clone()), wga);
}

/// The snapshot as `core::view::snapshot` built it with `json!`, before it was typed.
fn old_snapshot(
    id: i64,
    live: &tengen_core::game::LiveGame,
    players: &[tengen_core::player::Player; 2],
    seq: u64,
) -> serde_json::Value {
    use tengen_core::view::unsure_decides;
    use tengen_rules::coord::gtp;
    use tengen_rules::{Color, Move, Phase};
    fn side(c: Color) -> &'static str {
        match c {
            Color::Black => "black",
            Color::White => "white",
        }
    }
    let g = &live.game;
    let size = g.size();
    let b = g.board();
    let rows: Vec<String> = (0..size)
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
    let moves: Vec<serde_json::Value> = g
        .moves()
        .map(|(c, m)| {
            json!({
                "color": side(c),
                "point": match m { Move::Play(p) => gtp::format_point(size, p), Move::Pass => "pass".into() },
            })
        })
        .collect();
    let phase = match g.phase() {
        Phase::Play => "play",
        Phase::Scoring => "scoring",
        Phase::Finished => "finished",
    };
    let dead: Vec<String> = g
        .dead_stones()
        .iter()
        .map(|p| gtp::format_point(size, p))
        .collect();
    let score = (g.phase() != Phase::Play).then(|| {
        let s = g.score();
        let count = |c: &tengen_rules::Count| {
            json!({
                "territory": c.territory, "stones": c.stones, "prisoners": c.prisoners,
                "komi": c.komi.to_string(), "handicap_bonus": c.handicap_bonus,
                "total": c.total_halves() as f64 / 2.0,
            })
        };
        let pts = |set: &tengen_rules::PointSet| -> Vec<String> {
            set.iter().map(|p| gtp::format_point(size, p)).collect()
        };
        json!({
            "black": count(&s.black), "white": count(&s.white), "result": s.result.to_string(),
            "black_territory": pts(&s.black_territory), "white_territory": pts(&s.white_territory),
            "dame": pts(&s.dame), "seki": pts(&s.seki),
        })
    });
    json!({
        "id": id,
        "seq": seq,
        "terms": live.terms,
        "black": players[0],
        "white": players[1],
        "phase": phase,
        "to_move": side(g.to_move()),
        "board": rows,
        "moves": moves,
        "handicap_stones": g.handicap_stones().iter().map(|&p| gtp::format_point(size, p)).collect::<Vec<_>>(),
        "captures": { "black": b.captures(Color::Black), "white": b.captures(Color::White) },
        "ko": b.ko_point().map(|p| gtp::format_point(size, p)),
        "takeback_requested_by": live.takeback.map(side),
        "scoring_requested": { "black": live.scoring_requests[0], "white": live.scoring_requests[1] },
        "accepted": { "black": live.accepted[0], "white": live.accepted[1] },
        "dead": dead,
        "unsure": if g.phase() == tengen_rules::Phase::Scoring { live.unsure.clone() } else { Vec::new() },
        "unsure_decides": g.phase() == Phase::Scoring && unsure_decides(g, &live.unsure),
        "score": score,
        "result": g.result().map(|r| r.to_string()),
        "end_reason": live.end_reason,
        "annulled": live.annulment(),
    })
}

#[test]
fn a_game_s_snapshot_reads_as_before_in_play_at_the_count_and_with_its_clocks() {
    use tengen_core::domain::clock::{Clock, TimeControl};
    use tengen_core::game::{Action, Actor, LiveGame, Proposal, Terms};
    use tengen_core::player::Player;
    use tengen_core::view::{self, ClocksView, PresenceView, Side, Sides};
    use tengen_rules::coord::gtp;
    use tengen_rules::{Color, Komi, Preset};
    let terms = Terms {
        size: 9,
        rules: Preset::Japanese,
        komi: Komi::from_halves(13),
        handicap: 2,
        take_back: true,
        estimate: true,
        game_type: tengen_core::domain::game_type::GameType::Handicap,
        time: TimeControl::Byoyomi {
            main_ms: 60_000,
            periods: 3,
            period_ms: 10_000,
        },
        unrated: true,
        disputes: Default::default(),
    };
    let players = [
        Player::of_account(1, "ann", "3k".parse().unwrap(), false, false),
        Player::of_account(2, "gnugo", "5k".parse().unwrap(), false, true),
    ];
    let mut g = LiveGame::new(terms).unwrap();
    let act = |g: &mut LiveGame, who: Color, a: Action| {
        let events = g
            .decide(&Actor::Player(who), &a, &mut |_| Proposal::default())
            .unwrap();
        for e in &events {
            g.apply(e);
        }
    };
    let pt = |v: &str| gtp::parse_point(9, v).unwrap();
    act(&mut g, Color::White, Action::Move(pt("E5")));
    act(&mut g, Color::Black, Action::Move(pt("D5")));
    act(&mut g, Color::White, Action::RequestTakeback);
    // The live actor always sets the presence, and the clocks (null untimed).
    let here = PresenceView {
        arrived: true,
        connected: true,
        until: None,
    };
    let presence = Sides {
        black: here.clone(),
        white: PresenceView {
            connected: false,
            until: Some(12),
            ..here
        },
    };
    let old_presence = json!({
        "black": { "connected": true, "until": null, "arrived": true },
        "white": { "connected": false, "until": 12, "arrived": true },
    });
    let mut play = view::snapshot(7, &g, &players, 3);
    play.presence = Some(presence.clone());
    let mut old = old_snapshot(7, &g, &players, 3);
    old["clocks"] = serde_json::Value::Null;
    old["presence"] = old_presence.clone();
    assert_eq!(wire(&play), old.to_string(), "in play");
    act(&mut g, Color::Black, Action::AnswerTakeback(false));
    act(&mut g, Color::White, Action::Pass);
    act(&mut g, Color::Black, Action::Pass);
    let mut count = view::snapshot(7, &g, &players, 6);
    assert_eq!(count.phase, view::PhaseName::Scoring);
    let clock = Clock {
        main_ms: 5,
        periods: 3,
        period_ms: 10_000,
        stones: 0,
    };
    count.clocks = Some(ClocksView {
        black: clock,
        correspondence: false,
        running: Some(Side::White),
        server_ms: 99,
        vacation: Sides {
            black: None,
            white: Some(1000),
        },
        white: clock,
    });
    count.presence = Some(presence);
    let mut old = old_snapshot(7, &g, &players, 6);
    old["clocks"] = json!({
        "black": clock, "white": clock, "running": "white", "server_ms": 99,
        "correspondence": false, "vacation": { "black": null, "white": 1000 },
    });
    old["presence"] = old_presence;
    assert!(old["score"].is_object());
    assert_eq!(wire(&count), old.to_string(), "at the count, with clocks");
    // A cluster node reads a peer's snapshot back and relays the same bytes (a player's
    // `guest` is not on the wire, so the values themselves may differ there).
    let back: view::Snapshot = serde_json::from_str(&wire(&count)).unwrap();
    assert_eq!(wire(&back), wire(&count));
}
