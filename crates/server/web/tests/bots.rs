//! Playing bots: one request starts the game; the bot moves, passes, and accepts the count.

#![allow(clippy::unwrap_used)]

use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{json, Value};
use tengen_app::bots::{parse_spec, Engine};

mod common;
use common::{Socket, TestServer};

/// A server over a fresh SQLite database named after `tag`, with `extra` bots beside the
/// built-in ones.
async fn serve(tag: &str, extra: Vec<tengen_app::bots::BotSpec>) -> TestServer {
    TestServer::start_with(&common::sqlite_url(tag), common::server::GRACE, extra).await
}

/// A WebSocket of `player`, watching `game`.
async fn watch(player: &common::Client, game: i64) -> Socket {
    let mut ws = player.socket().await;
    ws.send(json!({"type": "watch", "game": game})).await;
    ws
}

/// A guest plays `bot` on 9x9 as Black, passing whenever it is to move, and accepts the count.
/// Returns the result.
async fn play_against(
    bot: &str,
    extra: Vec<tengen_app::bots::BotSpec>,
    time: Option<Value>,
) -> String {
    let tag = if time.is_some() { "timed" } else { "untimed" };
    let server = serve(&format!("bots-{bot}-{tag}"), extra).await;

    let (_, bots) = server.get("/api/bots").await;
    assert!(
        bots["bots"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["name"] == bot),
        "{bots}"
    );
    let guest = server.guest().await;
    let (_, started) = guest
        .post(
            &format!("/api/bots/{bot}/play"),
            json!({"size": 9, "color": "black"}),
        )
        .await;
    let game = started["game_id"].as_i64().unwrap();
    assert_eq!(started["game"]["white"]["username"], bot);

    let mut ws = watch(&guest, game).await;
    let mut passes_sent = 0;
    loop {
        let v = ws.recv_within(Duration::from_secs(120)).await;
        // Black passes at the start and after each white move; White's pass after ours ends play.
        let pass_now = match v["type"].as_str() {
            Some("snapshot") => v["state"]["to_move"] == "black",
            Some("event") => match v["event"]["type"].as_str() {
                Some("move") => v["event"]["color"] == "white",
                Some("scoring_started") => {
                    ws.send(json!({"type": "accept_score", "game": game})).await;
                    false
                }
                Some("finished") => return v["event"]["result"].as_str().unwrap().to_string(),
                _ => false,
            },
            Some("error") => panic!("{v}"),
            _ => false,
        };
        if pass_now {
            ws.send(json!({"type": "pass", "game": game})).await;
            passes_sent += 1;
            assert!(passes_sent < 200, "the bot never stops");
        }
    }
}

#[tokio::test]
async fn a_guest_plays_the_built_in_bot_to_the_end() {
    let result = play_against("tengen-bot", Vec::new(), None).await;
    // Black only passed: White wins on the count.
    assert!(result.starts_with("W+"), "{result}");
}

#[tokio::test]
#[ignore = "needs GNU Go (/usr/games/gnugo); run by .ci/run"]
async fn a_guest_plays_gnu_go_as_a_gtp_bot() {
    if !std::path::Path::new("/usr/games/gnugo").exists() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "GNU Go is required in CI"
        );
        eprintln!("skipping: no GNU Go");
        return;
    }
    let spec = parse_spec("gnugo@10k=/usr/games/gnugo --mode gtp --level 1").unwrap();
    assert_eq!(
        spec.engine,
        Engine::Gtp("/usr/games/gnugo --mode gtp --level 1".into())
    );
    let result = play_against("gnugo", vec![spec], None).await;
    assert!(result.starts_with("W+"), "{result}");
}

/// A short Canadian time control: five stones a minute.
fn canadian() -> Value {
    json!({"system": "canadian", "main_ms": 0, "stones": 5, "period_ms": 60_000})
}

#[tokio::test]
async fn the_built_in_bot_never_loses_on_time() {
    let result = play_against("tengen-bot", Vec::new(), Some(canadian())).await;
    assert!(
        result.starts_with("W+") && !result.ends_with('T'),
        "{result}"
    );
}

#[tokio::test]
#[ignore = "needs GNU Go (/usr/games/gnugo); run by .ci/run"]
async fn gnu_go_over_gtp_never_loses_on_time() {
    if !std::path::Path::new("/usr/games/gnugo").exists() {
        assert!(
            std::env::var("CI").map_or(true, |v| v != "true"),
            "GNU Go is required in CI"
        );
        return;
    }
    // GNU Go at its default strength, told the time with time_settings and time_left.
    let spec = parse_spec("gnugo-timed@5k=/usr/games/gnugo --mode gtp").unwrap();
    let result = play_against("gnugo-timed", vec![spec], Some(canadian())).await;
    assert!(
        result.starts_with("W+") && !result.ends_with('T'),
        "{result}"
    );
}

#[test]
fn bot_specs() {
    assert_eq!(
        parse_spec("g@3d=gnugo --mode gtp")
            .unwrap()
            .rank
            .to_string(),
        "3d"
    );
    assert!(parse_spec("nothing").is_err());
    assert!(parse_spec("g@99k=x").is_err());
    assert!(parse_spec("g=").is_err());
    // Tengen's own engine at a level.
    assert_eq!(
        parse_spec("strong@1d=builtin:9").unwrap().engine,
        Engine::Builtin(9)
    );
    assert!(parse_spec("s=builtin:0").is_err());
    // The beginners below level 1 are levels 11 to 16, and 17 is between levels 1 and 2;
    // there is no 18.
    assert_eq!(
        parse_spec("novice@20k=builtin:15").unwrap().engine,
        Engine::Builtin(15)
    );
    assert_eq!(
        parse_spec("novice@25k=builtin:16").unwrap().engine,
        Engine::Builtin(16)
    );
    assert_eq!(
        parse_spec("improver@10k=builtin:17").unwrap().engine,
        Engine::Builtin(17)
    );
    assert!(parse_spec("s=builtin:18").is_err());
    assert!(parse_spec("s=builtin:x").is_err());
    assert_eq!(tengen_app::bots::level_playouts(1), 100);
    assert_eq!(tengen_app::bots::level_playouts(10), 51_200);
}

#[tokio::test]
async fn a_built_in_bot_at_another_level_plays_to_the_end() {
    let spec = parse_spec("tengen-3@20k=builtin:3").unwrap();
    let result = play_against("tengen-3", vec![spec], None).await;
    assert!(result.starts_with("W+"), "{result}");
}

/// A `search:VISITS` bot (the server's net searching a fixed count, as the bot a proven model
/// adds) plays a game to its end.
#[tokio::test]
async fn a_search_bot_on_the_servers_net_plays_to_the_end() {
    let spec = parse_spec("deep@3d=search:16").unwrap();
    let result = play_against("deep", vec![spec], None).await;
    assert!(result.starts_with("W+"), "{result}");
}

#[tokio::test]
async fn a_bot_game_with_a_handicap_and_take_backs() {
    let server = serve("bots-handicap", Vec::new()).await;
    let guest = server.guest().await;
    // A handicap makes the player Black; asking for White with one is refused.
    let (_, refused) = guest
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "handicap": 3, "color": "white"}),
        )
        .await;
    assert_eq!(refused["error"]["code"], "bad_color", "{refused}");
    let (_, started) = guest
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "handicap": 3, "rules": "japanese"}),
        )
        .await;
    let game = started["game_id"].as_i64().unwrap();
    assert_eq!(started["game"]["terms"]["handicap"], 3, "{started}");
    assert_eq!(started["game"]["terms"]["komi"], "0.5");
    assert_eq!(started["game"]["white"]["username"], "tengen-bot");

    let mut ws = watch(&guest, game).await;
    // White (the bot) moves first; Black answers; White replies; Black takes its move back.
    let mut white_moves = 0;
    let mut asked = false;
    loop {
        let v = ws.recv_within(Duration::from_secs(60)).await;
        if v["type"] == "error" {
            panic!("{v}");
        }
        if v["type"] != "event" {
            continue;
        }
        let e = &v["event"];
        match e["type"].as_str() {
            Some("move") if e["color"] == "white" => {
                white_moves += 1;
                if white_moves == 1 {
                    // A black stone on the first free point of the top row.
                    let point = ["A9", "B9", "C9", "D9"]
                        .into_iter()
                        .find(|p| Some(*p) != e["point"].as_str())
                        .unwrap();
                    ws.send(json!({"type": "move", "game": game, "point": point}))
                        .await;
                } else if !asked {
                    ws.send(json!({"type": "takeback", "game": game})).await;
                    asked = true;
                }
            }
            Some("takeback_answered") => {
                assert_eq!(e["accepted"], true, "{e}");
                assert_eq!(e["plies"], 2, "{e}");
                return;
            }
            _ => {}
        }
    }
}

/// Regression: a bot's account kept the rank it was created with, so a built-in bot whose
/// measured rank moved (or a `--bot NAME@RANK` given another rank) showed the old one forever.
#[tokio::test]
async fn a_bot_takes_its_configured_rank_when_the_server_starts_again() {
    let url = common::sqlite_url("bot-rank-moves");
    // The server started on the same database with the bot `helper` declared at `rank`: the
    // rank its account shows.
    let start = |rank: &'static str| {
        let url = url.clone();
        async move {
            let helper = parse_spec(&format!("helper@{rank}=builtin:2")).unwrap();
            let server = TestServer::start_with(&url, common::server::GRACE, vec![helper]).await;
            let (_, user) = server.get("/api/users/helper").await;
            (server, user["rank"].clone())
        }
    };
    let (first, rank) = start("12k").await;
    assert_eq!(rank, "12k");
    drop(first);
    let (server, rank) = start("3k").await;
    assert_eq!(rank, "3k");
    let (_, bots) = server.get("/api/bots").await;
    let listed = bots["bots"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|b| b["name"] == "helper" && b["rank"] == "3k"),
        "{bots}"
    );
    // The built-in bots are there beside it, weakest first.
    let names: Vec<&str> = listed.iter().filter_map(|b| b["name"].as_str()).collect();
    assert_eq!(
        &names[..11],
        [
            "tengen-newcomer",
            "tengen-beginner",
            "tengen-novice",
            "tengen-bot",
            "tengen-improver",
            "tengen-2",
            "tengen-3",
            "tengen-5",
            "tengen-7",
            "tengen-9",
            "tengen-10"
        ]
    );
    let ranks: Vec<&str> = listed.iter().filter_map(|b| b["rank"].as_str()).collect();
    assert_eq!(&ranks[..6], ["24k", "21k", "18k", "13k", "10k", "8k"]);
    // Each lists the boards where it plays at another rank (measured on 13x13 and 19x19):
    // tengen-2 plays 3k on 19x19 and its declared 8k on 9x9 and 13x13; the novice (18k on
    // 9x9) its 18k on 13x13 and 25k on 19x19, the beginner 26k, the newcomer 30k, the
    // scale's end.
    let two = &listed[5]["ranks_by_size"];
    assert_eq!(
        (two["19"].as_str(), two["17"].as_str()),
        (Some("3k"), Some("3k"))
    );
    assert!(two.get("13").is_none() && two.get("9").is_none(), "{two}");
    assert_eq!(listed[2]["ranks_by_size"]["19"], "25k");
    assert!(listed[2]["ranks_by_size"].get("13").is_none(), "{bots}");
    assert_eq!(listed[1]["ranks_by_size"]["19"], "26k");
    assert_eq!(listed[0]["ranks_by_size"]["19"], "30k");
}

// A game against a bot says the rank the bot plays at on its board, not its account's (its
// 9x9 rank): `tengen-2` (8k) plays 3k on 19x19. The rank is stored with the game, so the game
// page and its SGF record still say it after the server starts again.
#[tokio::test]
async fn a_bot_game_keeps_the_bots_rank_on_its_board_after_a_restart() {
    let url = common::sqlite_url("bot-rank-on-board");
    let server = TestServer::start_with(&url, common::server::GRACE, vec![]).await;
    let guest = server.guest().await;
    let (s, started) = guest
        .post(
            "/api/bots/tengen-2/play",
            json!({"size": 19, "color": "black"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{started}");
    let game = started["game_id"].as_i64().unwrap();
    assert_eq!(started["game"]["white"]["username"], "tengen-2");
    assert_eq!(started["game"]["white"]["rank"], "3k", "{started}");
    // On 9x9 it plays at its account's rank.
    let (_, nine) = guest
        .post(
            "/api/bots/tengen-2/play",
            json!({"size": 9, "color": "black"}),
        )
        .await;
    assert_eq!(nine["game"]["white"]["rank"], "8k", "{nine}");
    // A player's record keeps the rank of its day when their rank moves on.
    let black = started["game"]["black"].clone();
    let name = black["username"].as_str().unwrap();
    assert_ne!(black["rank"], "1d", "{black}");
    tengen_app::accounts::set_rank(server.store(), name, "1d")
        .await
        .unwrap();
    drop(guest);
    drop(server);

    let server = TestServer::start_with(&url, common::server::GRACE, vec![]).await;
    let (s, g) = server.get(&format!("/api/games/{game}")).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["white"]["rank"], "3k", "{g}");
    assert_eq!(g["black"]["rank"], black["rank"], "{g}");
    let (s, sgf) = server.get(&format!("/api/games/{game}/sgf")).await;
    assert_eq!(s, StatusCode::OK);
    let sgf = sgf.as_str().unwrap();
    assert!(
        sgf.contains("PW[tengen-2]") && sgf.contains("WR[3k]"),
        "{sgf}"
    );
}

// Regression (issue 29, item 4): the weakest bot, far ahead, went on throwing stones into its
// own settled area while the player passed again and again. It passes back once no move can
// change the winner (judged by the estimator, the same at every level and every time).
#[tokio::test]
async fn a_bot_passes_back_once_the_game_is_decided() {
    let server = serve("bots-pass-back", Vec::new()).await;
    let guest = server.guest().await;
    let (_, started) = guest
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "color": "black", "rules": "chinese"}),
        )
        .await;
    let game = started["game_id"].as_i64().unwrap();
    let mut ws = watch(&guest, game).await;
    let mut passes = 0;
    loop {
        let v = ws.recv_within(Duration::from_secs(120)).await;
        assert_ne!(v["type"], "error", "{v}");
        let e = &v["event"];
        let pass_now = match (v["type"].as_str(), e["type"].as_str()) {
            (Some("snapshot"), _) => v["state"]["to_move"] == "black",
            (Some("event"), Some("move")) => e["color"] == "white",
            (Some("event"), Some("scoring_started")) => break,
            _ => false,
        };
        if pass_now {
            ws.send(json!({"type": "pass", "game": game})).await;
            passes += 1;
            assert!(passes < 60, "the bot never passes back");
        }
    }
    let snap = server.game(game).await;
    let white: usize = snap["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().matches('O').count())
        .sum();
    // A bot that played on would fill its area but for two eyes (some 70 stones).
    assert!(white < 45, "{white} white stones: {snap}");
}

// A request to count in the opening is declined with a word; the game goes on, and the bot
// asks nothing twice for one request.
#[tokio::test]
async fn a_bot_declines_a_count_while_the_game_is_open() {
    let server = serve("bots-count", Vec::new()).await;
    let guest = server.guest().await;
    let (_, started) = guest
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "color": "black"}),
        )
        .await;
    let game = started["game_id"].as_i64().unwrap();
    let mut ws = watch(&guest, game).await;
    ws.next_of_type("snapshot").await;
    ws.send(json!({"type": "score_request", "game": game}))
        .await;
    let chat = ws.event(game, "chat").await;
    assert_eq!(chat["event"]["user"], "tengen-bot", "{chat}");
    assert!(
        chat["event"]["text"]
            .as_str()
            .unwrap()
            .starts_with("Not yet"),
        "{chat}"
    );
    let snap = server.game(game).await;
    assert_eq!(snap["phase"], "play");
    assert_eq!(snap["scoring_requested"]["white"], false);
    // The game goes on: Black plays, the bot answers with a move.
    ws.send(json!({"type": "move", "game": game, "point": "E5"}))
        .await;
    let reply = ws.event(game, "move").await;
    let reply = if reply["event"]["color"] == "black" {
        ws.event(game, "move").await
    } else {
        reply
    };
    assert_eq!(reply["event"]["color"], "white", "{reply}");
}

// Bot games may be timed and rated like any game: a rated one has no take-backs.
#[tokio::test]
async fn a_bot_game_can_be_timed_and_rated() {
    let server = serve("bots-rated", Vec::new()).await;
    let ann = server.register("ann", "10k").await;
    let (_, refused) = ann
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "rated": true, "take_back": true}),
        )
        .await;
    assert_eq!(refused["error"]["code"], "rated_takeback", "{refused}");
    let (_, started) = ann
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "rated": true, "time": canadian()}),
        )
        .await;
    let terms = &started["game"]["terms"];
    assert_eq!(terms["take_back"], false, "{started}");
    assert_eq!(terms["time"]["system"], "canadian", "{started}");
}

// Issue 39, list 4: in a correspondence game against a built-in bot the player never heard
// that it was their move: only a player's socket told the opponent, not a bot's driver.
#[tokio::test]
async fn a_correspondence_bot_tells_its_opponent_it_is_their_move() {
    let server = serve("bots-your-turn", Vec::new()).await;
    let ann = server.register("ann", "10k").await;
    let (_, started) = ann
        .post(
            "/api/bots/tengen-bot/play",
            json!({"size": 9, "color": "black",
                "time": {"system": "correspondence", "per_move_ms": 259_200_000}}),
        )
        .await;
    let game = started["game_id"].as_i64().unwrap();
    let mut tab = ann.socket().await;
    let mut board = watch(&ann, game).await;
    common::ok(&board.play(game, "E5").await);
    // The bot answers, and Ann's other tab hears that it is her move (within a minute, or the
    // test fails rather than waits).
    let told = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let v = tab.recv().await;
            if v["type"] == "your_turn" {
                break v;
            }
        }
    })
    .await
    .expect("no your_turn within a minute");
    assert_eq!(
        told,
        json!({"type": "your_turn", "game": game, "opponent": "tengen-bot"})
    );
}

// A player who holds a built-in bot's name (registered before a version that added the bot)
// keeps it, and the server still starts, without that bot; new players cannot take such names.
#[tokio::test]
async fn a_bot_name_a_player_holds_leaves_that_bot_out_and_the_server_starts() {
    let url = common::sqlite_url("bots-name-held");
    let store = tengen_store::Store::open(&url).await.unwrap();
    // One the exact name, one in another case.
    for name in ["tengen-5", "Tengen-2"] {
        let inserted = store
            .insert_user(tengen_store::accounts::NewUser {
                username: name,
                password_hash: Some("not a hash"),
                rank: "4k",
                points: 0,
                guest: false,
                bot: None,
                created_at: 0,
            })
            .await
            .unwrap();
        assert!(inserted, "{name}");
    }
    drop(store);
    let server = TestServer::start(&url).await;
    let (_, bots) = server.get("/api/bots").await;
    let names: Vec<&str> = bots["bots"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|b| b["name"].as_str())
        .collect();
    assert!(
        !names.contains(&"tengen-5") && !names.contains(&"tengen-2"),
        "{names:?}"
    );
    assert!(
        names.contains(&"tengen-3") && names.contains(&"tengen-7"),
        "{names:?}"
    );
    let (_, user) = server.get("/api/users/tengen-5").await;
    assert_eq!(user["bot"], false, "{user}");
    // An operator's bot under a name a player holds is still an error at start.
    let taken = parse_spec("Tengen-2@5k=builtin:5").unwrap();
    assert!(
        tengen_app::bots::Bots::register(server.store(), vec![taken])
            .await
            .is_err()
    );
    for name in ["tengen-11", "Tengen_fan"] {
        let body = json!({"username": name, "password": common::PASSWORD, "rank": "5k"});
        let (s, v) = server.post("/api/accounts/register", body).await;
        assert_eq!(
            (s, v["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("invalid_username")),
            "{name}"
        );
    }
}
