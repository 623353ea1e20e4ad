//! The OpenAPI 3 description of the HTTP API, served at `/api/openapi.json`. The WebSocket
//! protocol is in `docs/protocol.md`.

use serde_json::{json, Value};

fn error_ref() -> Value {
    json!({ "$ref": "#/components/schemas/Error" })
}

fn op(summary: &str, tag: &str, body: Option<&str>, ok: (&str, &str), errors: &[&str]) -> Value {
    let mut responses = serde_json::Map::new();
    responses.insert(ok.0.into(), json!({ "description": ok.1 }));
    // Any request may be malformed (a path, query or body that does not parse), and a body may
    // be too large: every operation can answer 400, and those with a body 413.
    let mut errors: Vec<&str> = errors.to_vec();
    errors.push("400");
    if body.is_some() {
        errors.push("413");
    }
    for e in errors {
        responses.insert((*e).into(), json!({ "description": "error", "content": { "application/json": { "schema": error_ref() } } }));
    }
    let mut o = json!({ "summary": summary, "tags": [tag], "responses": responses });
    if let Some(schema) = body {
        o["requestBody"] = json!({ "required": true, "content": { "application/json": { "schema": { "$ref": format!("#/components/schemas/{schema}") } } } });
    }
    o
}

fn id_param(name: &str) -> Value {
    json!([{ "name": name, "in": "path", "required": true, "schema": { "type": if name == "name" { "string" } else { "integer" } } }])
}

/// The document.
pub fn document() -> Value {
    let mut paths = serde_json::Map::new();
    paths.insert("/healthz".into(), json!({ "get": op("Liveness and database check", "server", None, ("200", "ok"), &["500"]) }));
    paths.insert("/livez".into(), json!({ "get": op("Liveness: the process serves HTTP", "server", None, ("200", "ok"), &[]) }));
    paths.insert("/readyz".into(), json!({ "get": op("Readiness: the database answers within 2 s (503 `database_unavailable` otherwise)", "server", None, ("200", "ready"), &["503"]) }));
    paths.insert("/metrics".into(), json!({ "get": op("Every metric of the process in Prometheus's text format 0.0.4 (docs/deploy.md lists them)", "server", None, ("200", "the metrics as text/plain"), &[]) }));
    paths.insert("/api/accounts/register".into(), json!({ "post": op("Register with a declared rank; sets the session cookie", "accounts", Some("Register"), ("201", "the account and a session token"), &["400", "409", "413", "429"]) }));
    paths.insert("/api/accounts/login".into(), json!({ "post": op("Log in; sets the session cookie. A bot account's session (`tengen admin bot-password`) plays only the bot's own games: player routes answer it 403 `bot_account` (unless the server runs with --bots-as-players)", "accounts", Some("Login"), ("200", "the account and a session token"), &["400", "401", "413", "429"]) }));
    paths.insert("/api/accounts/guest".into(), json!({ "post": op("Play as a guest at 18k", "accounts", None, ("201", "a guest account and a session token"), &["429", "500"]) }));
    paths.insert(
        "/api/accounts/logout".into(),
        json!({ "post": op("End the session", "accounts", None, ("204", "logged out"), &[]) }),
    );
    paths.insert("/api/session".into(), json!({ "get": op("Who is logged in: { user } (null when nobody is; never 401)", "accounts", None, ("200", "the account or null"), &[]) }));
    paths.insert("/api/me/moderation".into(), json!({ "get": op("What moderators did to the logged-in player's account: { sanctions: { muted_until, suspended_until, banned_until }, actions: [{ at, action, until, reason }] } (times in seconds since 1970)", "moderation", None, ("200", "the sanctions and actions"), &["401"]) }));
    paths.insert("/api/reports".into(), json!({ "post": op("Report a player, a game, a chat line (`chat`: its seq in the game's events) or a private message one received (`message`: its id) to the moderators", "moderation", Some("Report"), ("201", "{ id }"), &["401", "404", "429"]) }));
    paths.insert("/api/moderation/actions".into(), json!({ "post": op("Moderators: warn, mute, suspend, ban or unban a player (a ban ends their sessions and sockets, closes their rooms, withdraws their quick-match request and resigns their live games); 403 `not_moderator` for anyone else, `outranked` for a moderator or admin as target", "moderation", Some("ModerationAction"), ("201", "{ id, user, action, until }"), &["401", "403", "404"]) }));
    let mut annul = json!({ "post": op("Moderators: annul a finished game: ratings and promotion points recomputed as if it had not been played (409 `game_not_finished`, `already_annulled`)", "moderation", Some("Reason"), ("200", "{ id, game, points_recomputed }"), &["401", "403", "404", "409"]) });
    annul["parameters"] = id_param("id");
    paths.insert("/api/moderation/games/{id}/annul".into(), annul);
    let mut hide = json!({ "post": op("Moderators: hide a chat line (`seq`: its seq in the game's events): its text leaves the log, and watchers get a `chat_hidden` event (400 `not_a_chat_line`, 409 `chat_hidden`)", "moderation", Some("Reason"), ("200", "{ game, seq, hidden }"), &["401", "403", "404", "409"]) });
    hide["parameters"] = json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }, { "name": "seq", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 0 } }]);
    paths.insert("/api/moderation/games/{id}/chat/{seq}/hide".into(), hide);
    paths.insert("/api/moderation/log".into(), json!({ "get": op("Moderators: the audit log, newest first (`?limit=N`, at most 500): { entries: [{ id, at, moderator, action, user, game, until, reason }] }", "moderation", None, ("200", "the entries"), &["401", "403"]) }));
    paths.insert("/api/moderation/reports".into(), json!({ "get": op("Moderators: the open reports, oldest first (`?all=true`: resolved ones too, newest first), each with its context: the game, its chat, the player's recent games, ratings and earlier moderation", "moderation", None, ("200", "{ reports: [...] }"), &["401", "403"]) }));
    let mut resolve = json!({ "post": op("Moderators: resolve an open report with a note (409 `report_resolved`)", "moderation", Some("Note"), ("200", "{ id, resolved }"), &["401", "403", "404", "409"]) });
    resolve["parameters"] = id_param("id");
    paths.insert("/api/moderation/reports/{id}/resolve".into(), resolve);
    paths.insert("/api/me".into(), json!({
        "get": op("The logged-in account", "accounts", None, ("200", "the account"), &["401"]),
        "delete": op("Delete one's account (the password once more): live games resigned, sessions ended, the account renamed deleted-ID with its games kept; 403 `wrong_password`, `no_password` for guests", "accounts", Some("Confirm"), ("204", "deleted"), &["401", "403"]),
    }));
    paths.insert("/api/me/blocks".into(), json!({
        "get": op("The players one blocks: { blocks: [name] }", "accounts", None, ("200", "the names"), &["401"]),
        "post": op("Block a player: no room join or quick match between the two (403 `blocked`, either way round), no chat line of theirs in one's games (`blocked`); 400 `block_self`", "accounts", Some("Block"), ("204", "blocked"), &["401", "404"]),
    }));
    let mut unblock = json!({ "delete": op("Lift a block", "accounts", None, ("204", "lifted"), &["401", "404"]) });
    unblock["parameters"] = id_param("name");
    paths.insert("/api/me/blocks/{name}".into(), unblock);
    paths.insert("/api/me/friends".into(), json!({
        "get": op("One's friends by name, each with whether they are online (on any node): { friends: [{ name, online }] }", "social", None, ("200", "the friends"), &["401"]),
        "post": op("Add a player to one's friends (400 `friend_self`)", "social", Some("Friend"), ("204", "added"), &["401", "404"]),
    }));
    let mut unfriend = json!({ "delete": op("Drop a player from one's friends", "social", None, ("204", "dropped"), &["401", "404"]) });
    unfriend["parameters"] = id_param("name");
    paths.insert("/api/me/friends/{name}".into(), unfriend);
    paths.insert("/api/messages".into(), json!({
        "get": op("One's conversations, the newest first: { conversations: [{ with, last: message, unread }] }", "social", None, ("200", "the conversations"), &["401"]),
        "post": op("Send a private message (1 to 1000 characters), stored and told live to the recipient's sockets as `message`: 201 { id, from, to, text, at, read }; 403 `blocked` (either way round), `muted`, `guest`; 400 `bad_message`, `message_self`, `not_a_player`; 429 `rate_limited` past 10 a minute", "social", Some("Message"), ("201", "the message"), &["400", "401", "403", "404", "429"]),
    }));
    let mut thread = json!({ "get": op("The thread with one player, oldest first (the last 200), the other's messages marked read: { with, messages: [message] }", "social", None, ("200", "the thread"), &["401", "404"]) });
    thread["parameters"] = id_param("name");
    paths.insert("/api/messages/{name}".into(), thread);
    paths.insert("/api/me/password".into(), json!({ "post": op("Change one's password: every session ends, this one included, and its sockets close; the answer carries a new session for the caller (token and cookie) (403 `wrong_password`, `no_password`; 400 `weak_password`)", "accounts", Some("NewPassword"), ("200", "the account and the caller's new session token"), &["401", "403"]) }));
    paths.insert("/api/me/sessions".into(), json!({
        "get": op("One's open sessions, the most recently used first: { sessions: [{ id, device (\"Firefox on Android\"), address, created_at, last_seen, current }] } (times in seconds since 1970; a session ends after 30 days unused or 90 days after it was opened)", "accounts", None, ("200", "the sessions"), &["401", "403"]),
        "delete": op("Log out everywhere: every session ends, this one included, with their sockets; the cookie is cleared", "accounts", None, ("204", "logged out everywhere"), &["401", "403"]),
    }));
    let mut end_session = json!({ "delete": op("End one of one's sessions (its sockets close); 404 for an id that is not one's own", "accounts", None, ("204", "ended"), &["401", "403", "404"]) });
    end_session["parameters"] =
        json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }]);
    paths.insert("/api/me/sessions/{id}".into(), end_session);
    paths.insert("/api/me/export".into(), json!({ "get": op("Everything kept about the logged-in player, as JSON: { account, games, ratings, moderation }", "accounts", None, ("200", "the data"), &["401"]) }));
    let mut user = json!({ "get": op("An account's public profile: rank and promotion points", "users", None, ("200", "the account"), &["404"]) });
    user["parameters"] = id_param("name");
    paths.insert("/api/users/{name}".into(), user);
    paths.insert("/api/online".into(), json!({ "get": op("Players connected now (name and rank)", "users", None, ("200", "the players online"), &[]) }));
    let mut hist = json!({ "get": op("An account's games, newest first, with SGF links", "users", None, ("200", "the games"), &["404"]) });
    hist["parameters"] = id_param("name");
    paths.insert("/api/users/{name}/games".into(), hist);
    let mut ratings = json!({ "get": op("An account's Glicko-2 rating now and after each rated game, oldest first (`?limit=N`, at most 1000): { user, rating, deviation, rank, points, history: [{ game_id, at, rating, deviation }] }; `rank` and `points` are the seeds' rank and promotion points, the only rank shown: the rating is a number with its deviation, not a second rank", "users", None, ("200", "the rating history"), &["404"]) });
    ratings["parameters"] = id_param("name");
    paths.insert("/api/users/{name}/ratings".into(), ratings);
    let mut record = json!({ "get": op("An account's record: wins, losses and draws in all, by board size and by how games ended (count, resignation, time, forfeit, first_capture, draw)", "users", None, ("200", "the record"), &["404"]) });
    record["parameters"] = id_param("name");
    paths.insert("/api/users/{name}/record".into(), record);
    paths.insert("/api/me/turns".into(), json!({ "get": op("The logged-in player's live games waiting for their move (or their answer on dead stones), least time left first: { games: [{ game, opponent, color, size, phase, move_number, correspondence, time_left_ms }] }", "games", None, ("200", "the games"), &["401"]) }));
    paths.insert("/api/me/vacation".into(), json!({
        "post": op("Stop one's clock in every live correspondence game for 1 to 30 days: { until, games }", "games", Some("Vacation"), ("200", "the vacation's end and the games paused"), &["400", "401", "503"]),
        "delete": op("End one's vacation now: the clocks run again", "games", None, ("200", "the games resumed"), &["401", "503"]),
    }));
    paths.insert("/api/reviews".into(), json!({ "post": op("Open a review board: { game: ID } (a finished game) or { sgf: TEXT } (its first game); the creator leads it", "reviews", Some("NewReview"), ("201", "the review: { id, owner, game, version, cursor, nodes, main_line, analysis, sgf }"), &["400", "401", "404", "409", "413"]) }));
    let review = json!({ "get": {
        "summary": "A review: its tree as a flat list of nodes, the root first (each with its SGF properties and its children's indices), the owner's cursor (a path of child indices), and the analysis so far. With `after=VERSION`, waits up to 25 s for a newer version: followers long-poll it",
        "tags": ["reviews"],
        "parameters": [{ "name": "id", "in": "path", "required": true, "schema": { "type": "integer" } }, { "name": "after", "in": "query", "schema": { "type": "integer" } }],
        "responses": { "200": { "description": "the review" }, "400": { "description": "error (a path or query that does not parse)", "content": { "application/json": { "schema": error_ref() } } }, "404": { "description": "error", "content": { "application/json": { "schema": error_ref() } } }, "409": { "description": "error (review_too_large, review_unreadable: a stored record past the limits)", "content": { "application/json": { "schema": error_ref() } } } }
    } });
    paths.insert("/api/reviews/{id}".into(), review);
    let mut review_sgf = json!({ "get": op("A review as SGF, with its variations and comments", "reviews", None, ("200", "application/x-go-sgf"), &["404", "409"]) });
    review_sgf["parameters"] = id_param("id");
    paths.insert("/api/reviews/{id}/sgf".into(), review_sgf);
    let mut edits = json!({ "post": op("The owner's edit: { type: play, path, point } (the move of the player to move there; an existing child is reused, else a new variation), { type: comment, path, text }, { type: mark, path, kind: LB | TR | SQ | CR | MA, point, label } (SGF markup, one a point; the same mark again removes it), { type: navigate, path }, { type: delete, path }. Codes: illegal_move, no_node, bad_path, bad_comment, bad_mark, not_owner (403)", "reviews", Some("ReviewEdit"), ("200", "the review after it"), &["400", "401", "403", "404"]) });
    edits["parameters"] = id_param("id");
    paths.insert("/api/reviews/{id}/edits".into(), edits);
    let mut analysis = json!({ "post": op("Start the engine's analysis of the main line in the background ({ visits } a position, 1 to 5000, default 100; `playouts` is read as visits): the network's search (engine net; the Monte Carlo engine, mcts, for rules or sizes the net does not play). Progress and, per position, Black's win rate and score lead, the best moves with visits, win rate, lead and principal variation, and the ownership (a letter a point, a = White's to u = Black's) come with the review (analysis.state running | done). Codes: bad_visits, analysis_running (409)", "reviews", None, ("202", "started"), &["400", "401", "404", "409"]) });
    analysis["parameters"] = id_param("id");
    paths.insert("/api/reviews/{id}/analysis".into(), analysis);
    let mut review_chat = json!({ "post": op("A chat line beside the review board, stored with the review (its last 100 lines come as `chat`) and seen by everyone following: { id, from, text, at }. Codes: bad_chat (1 to 500 characters), guest (403), muted (403), rate_limited (429: 5 lines in 10 s a board)", "reviews", Some("ReviewChat"), ("200", "the line"), &["400", "401", "403", "404", "429"]) });
    review_chat["parameters"] = id_param("id");
    paths.insert("/api/reviews/{id}/chat".into(), review_chat);
    paths.insert("/api/match".into(), json!({
        "get": op("The logged-in player's quick-match request: { state: idle | waiting | matched | failed, ... }", "match", None, ("200", "the request's state"), &["401"]),
        "post": op("Ask for a quick match: paired at once with a waiting request that agrees (200, state matched, with the game; game type, colours and handicap from the ranks as in a room), else queued (202, state waiting) and, with bot_after_s, a game against the bot nearest one's rank after that many seconds. 409 already_playing while in a live game (correspondence requests excepted). Both players also hear a `matched` message on their WebSockets", "match", Some("MatchRequest"), ("202", "waiting (200 when matched at once)"), &["400", "401", "409"]),
        "delete": op("Withdraw one's waiting request (409 no_match_request if none)", "match", None, ("204", "withdrawn"), &["401", "409"]),
    }));
    paths.insert(
        "/api/rooms".into(),
        json!({
            "get": op("Open rooms (each owner with `here`: connected now; a room closes 30 s after its owner's last connection)", "rooms", None, ("200", "the rooms"), &[]),
            "post": op("Open a room", "rooms", Some("RoomTerms"), ("201", "the room (with the owner's secret parity)"), &["400", "401", "429"]),
        }),
    );
    let mut room = json!({
        "get": op("One room", "rooms", None, ("200", "the room"), &["404"]),
        "delete": op("Close one's own open room", "rooms", None, ("204", "closed"), &["401", "403", "404", "409"]),
    });
    room["parameters"] = id_param("id");
    paths.insert("/api/rooms/{id}".into(), room);
    let mut join = json!({ "post": op("Join a room: the game starts", "rooms", Some("JoinTerms"), ("200", "game id, type, the HO-SUN guess and the snapshot"), &["400", "401", "404", "409"]) });
    join["parameters"] = id_param("id");
    paths.insert("/api/rooms/{id}/join".into(), join);
    paths.insert(
        "/api/games".into(),
        json!({ "get": {
            "summary": "Live or finished games", "tags": ["games"],
            "parameters": [{ "name": "status", "in": "query", "schema": { "type": "string", "enum": ["live", "finished"] } }],
            "responses": { "200": { "description": "the games" }, "400": { "description": "error", "content": { "application/json": { "schema": error_ref() } } } }
        } }),
    );
    let mut game = json!({ "get": op("A game's snapshot (503 game_unavailable, with Retry-After, while a cluster moves the game to another node)", "games", None, ("200", "the snapshot (see docs/protocol.md)"), &["404", "503"]) });
    game["parameters"] = id_param("id");
    paths.insert("/api/games/{id}".into(), game);
    let mut sgf = json!({ "get": op("A game as SGF", "games", None, ("200", "application/x-go-sgf"), &["404"]) });
    sgf["parameters"] = id_param("id");
    paths.insert("/api/games/{id}/sgf".into(), sgf);
    let mut estimate = json!({ "get": op(
        "The score estimate of a game's current position: ownership of every point (rows from the top, -1 White to +1 Black), dead, unsure and seki stones, the estimated result, Black's lead and its range over the unsure stones, and whether the winner is sure. Spectators may always ask; the players of a game in progress only when its terms allow (`estimate`)",
        "games",
        None,
        ("200", "the estimate: { game, size, result, lead, lead_range, verdict (open before the middle game, clear or uncertain), winner_sure, black_winrate (the network search's, or null), ownership, dead, unsure, seki }"),
        &["403", "404"],
    ) });
    estimate["parameters"] = id_param("id");
    paths.insert("/api/games/{id}/estimate".into(), estimate);
    let mut hint = json!({ "get": op(
        "A hint in the learner's first game (lesson 11): the engine's move for the player to move, in a 9x9 game against tengen-bot, 3 a game. 403 `not_a_player`, `hint_not_allowed` (another bot, another board); 409 `not_your_turn`, `game_over`, `no_hints_left`; 503 `engine_busy`",
        "learn",
        None,
        ("200", "{ move (GTP, or pass), left (hints left in the game) }"),
        &["401", "403", "404", "409", "503"],
    ) });
    hint["parameters"] = id_param("id");
    paths.insert("/api/games/{id}/hint".into(), hint);
    paths.insert(
        "/api/sgf/import".into(),
        json!({ "post": {
            "summary": "Read an SGF record (its first game) with the checks of `tengen sgf check`; nothing is stored",
            "tags": ["games"],
            "parameters": [{ "name": "rules", "in": "query", "schema": { "type": "string" }, "description": "a preset to replay under instead of the record's RU" }],
            "requestBody": { "required": true, "content": { "application/x-go-sgf": { "schema": { "type": "string" } }, "text/plain": { "schema": { "type": "string" } } } },
            "responses": {
                "200": { "description": "size, rules, komi, handicap, players, result, start position, history (moves and set-up changes), final position, and problems (warnings, and moves the rules forbid that were played as recorded)" },
                "400": { "description": "the record cannot stand for a position; codes: sgf_syntax, sgf_empty, sgf_not_go, sgf_bad_board_size, sgf_rules_board, sgf_bad_value, sgf_bad_setup, sgf_illegal_move, bad_rules", "content": { "application/json": { "schema": error_ref() } } },
                "413": { "description": "a record over 64 KiB", "content": { "application/json": { "schema": error_ref() } } }
            }
        } }),
    );
    paths.insert(
        "/api/ws".into(),
        json!({ "get": op("Upgrade to the WebSocket protocol of docs/protocol.md", "games", None, ("101", "switching protocols"), &["401", "429"]) }),
    );
    paths.insert(
        "/api/bots".into(),
        json!({ "get": op("The bots one can play", "bots", None, ("200", "the bots"), &[]) }),
    );
    let mut bot = json!({ "post": op("Start a game against a bot in one request", "bots", Some("BotGame"), ("200", "game id and the snapshot"), &["400", "401", "404", "503"]) });
    bot["parameters"] = id_param("name");
    paths.insert("/api/bots/{name}/play".into(), bot);
    learn_paths(&mut paths);
    tournament_paths(&mut paths);
    paths.insert(
        "/api/openapi.json".into(),
        json!({ "get": op("This document", "server", None, ("200", "OpenAPI 3"), &[]) }),
    );
    let mut doc = json!({
        "openapi": "3.0.3",
        "info": { "title": "Tengen", "version": env!("CARGO_PKG_VERSION"), "description": "The Tengen Go server. Sessions: the tengen_session cookie or Authorization: Bearer TOKEN. Live games use the WebSocket protocol of docs/protocol.md." },
        "paths": paths,
        "components": {
            "securitySchemes": {
                "cookie": { "type": "apiKey", "in": "cookie", "name": "tengen_session" },
                "bearer": { "type": "http", "scheme": "bearer" }
            },
            "schemas": {
                "Error": { "type": "object", "required": ["error"], "properties": { "error": { "type": "object", "required": ["code", "message"], "properties": { "code": { "type": "string" }, "message": { "type": "string" } } } } },
                "Register": { "type": "object", "required": ["username", "password", "rank"], "properties": { "username": { "type": "string" }, "password": { "type": "string" }, "rank": { "type": "string", "example": "3k" } } },
                "Login": { "type": "object", "required": ["username", "password"], "properties": { "username": { "type": "string" }, "password": { "type": "string" } } },
                "RoomTerms": { "type": "object", "required": ["size", "rules"], "properties": {
                    "size": { "type": "integer", "enum": [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19] },
                    "rules": { "type": "string", "enum": ["wga", "chinese", "japanese", "korean", "igz", "arena", "aga", "tromp-taylor", "nz", "first-capture"] },
                    "komi": { "type": "string", "example": "6.5" },
                    "take_back": { "type": "boolean", "default": false },
                    "estimate": { "type": "boolean", "default": false, "description": "the players may ask for a score estimate during the game (spectators always may)" },
                    "handicap": { "type": "integer", "enum": [2, 3, 4, 5, 6, 7, 9, 13, 21, 25] },
                    "parity": { "type": "string", "enum": ["odd", "even"] },
                    "disputes": { "type": "string", "enum": ["play", "engine"], "default": "play", "description": "how a group disputed at the count is settled: by resuming play, the group's owner to move, or by the engine's count" },
                    "time": { "$ref": "#/components/schemas/TimeControl" } } },
                "TimeControl": { "type": "object", "required": ["system"], "properties": {
                    "system": { "type": "string", "enum": ["none", "absolute", "byoyomi", "canadian", "fischer", "correspondence"] },
                    "main_ms": { "type": "integer" }, "periods": { "type": "integer" }, "period_ms": { "type": "integer" },
                    "stones": { "type": "integer" }, "increment_ms": { "type": "integer", "description": "Fischer; an hour or more makes a correspondence clock (main time up to 30 days, increment up to 7, cap up to 60)" }, "cap_ms": { "type": "integer" },
                    "per_move_ms": { "type": "integer", "description": "correspondence: time for each move, 1 hour to 30 days", "example": 259200000 } } },
                "NewReview": { "type": "object", "properties": { "game": { "type": "integer" }, "sgf": { "type": "string" } } },
                "ReviewEdit": { "type": "object", "required": ["type", "path"], "properties": {
                    "type": { "type": "string", "enum": ["play", "comment", "mark", "navigate", "delete"] },
                    "kind": { "type": "string", "enum": ["LB", "TR", "SQ", "CR", "MA"] }, "label": { "type": "string", "maxLength": 4 },
                    "path": { "type": "array", "items": { "type": "integer" }, "description": "child indices from the root" },
                    "point": { "type": "string", "example": "D4" }, "text": { "type": "string" } } },
                "NewPassword": { "type": "object", "required": ["current", "new"], "properties": { "current": { "type": "string" }, "new": { "type": "string", "minLength": 6, "maxLength": 200 } } },
                "Block": { "type": "object", "required": ["user"], "properties": { "user": { "type": "string" } } },
                "Confirm": { "type": "object", "required": ["password"], "properties": { "password": { "type": "string" } } },
                "Report": { "type": "object", "required": ["user", "reason"], "properties": { "user": { "type": "string" }, "game": { "type": "integer" }, "chat": { "type": "integer", "description": "the chat line's seq in the game's events; needs game" }, "message": { "type": "integer", "description": "a private message the reported player sent the reporter" }, "reason": { "type": "string", "maxLength": 1000 } } },
                "ModerationAction": { "type": "object", "required": ["user", "action", "reason"], "properties": { "user": { "type": "string" }, "action": { "type": "string", "enum": ["warn", "mute", "suspend", "ban", "unban"] }, "until": { "oneOf": [{ "type": "integer" }, { "type": "string", "format": "date-time" }], "description": "when a mute, suspension or ban ends: seconds since 1970, or an RFC 3339 time such as 2026-12-01T18:00:00Z (a suspension needs it; a mute or ban without it lasts for good)" }, "reason": { "type": "string", "maxLength": 1000 } } },
                "Reason": { "type": "object", "required": ["reason"], "properties": { "reason": { "type": "string", "maxLength": 1000 } } },
                "Note": { "type": "object", "required": ["note"], "properties": { "note": { "type": "string", "maxLength": 1000 } } },
                "Vacation": { "type": "object", "required": ["days"], "properties": { "days": { "type": "integer", "minimum": 1, "maximum": 30 } } },
                "MatchRequest": { "type": "object", "required": ["sizes", "speed"], "properties": {
                    "sizes": { "type": "array", "items": { "type": "integer", "enum": [9, 13, 19] }, "description": "most wanted first" },
                    "speed": { "type": "string", "enum": ["blitz", "live", "correspondence"], "description": "blitz: Fischer 3 min + 5 s; live: 20 min and five 30 s periods; correspondence: 3 days a move" },
                    "rules": { "type": "string", "default": "japanese" },
                    "min_rank": { "type": "string", "example": "10k", "description": "the weakest opponent accepted" },
                    "max_rank": { "type": "string", "example": "1d", "description": "the strongest opponent accepted" },
                    "bot_after_s": { "type": "integer", "maximum": 600, "description": "seconds to wait for a person before playing a bot" },
                    "persist": { "type": "boolean", "default": false, "description": "keep a blitz or live request when the player's last WebSocket has been closed 10 s (else it is withdrawn; correspondence requests always stay)" } } },
                "EventTerms": event_terms(),
                "Challenge": { "type": "object", "required": ["opponent"], "properties": { "opponent": { "type": "string" } } },
                "Correction": { "type": "object", "required": ["round", "board", "result", "reason"], "properties": {
                    "round": { "type": "integer", "minimum": 1 }, "board": { "type": "integer", "minimum": 1 },
                    "result": { "type": "string", "enum": ["B+", "W+", "B+F", "W+F", "0", "Void"], "description": "0 is a jigo; F a result by default; Void counts for nobody" },
                    "reason": { "type": "string" } } },
                "JoinTerms": { "type": "object", "properties": { "guess": { "type": "string", "enum": ["odd", "even"] }, "handicap": { "type": "integer" } } },
                "BotGame": { "type": "object", "properties": { "size": { "type": "integer", "default": 9 }, "rules": { "type": "string", "default": "chinese" }, "komi": { "type": "string" }, "color": { "type": "string", "enum": ["black", "white"] }, "time": { "$ref": "#/components/schemas/TimeControl" }, "handicap": { "type": "integer", "description": "stones for the player, who then plays black (komi 0.5 unless given)" }, "take_back": { "type": "boolean", "default": true, "description": "the bot accepts every take-back request" }, "rated": { "type": "boolean", "default": false, "description": "a rated game: take-backs off (400 rated_takeback if asked for too)" } } }
            }
        }
    });
    // The social tools' bodies (the document's literal is at the macro's recursion limit).
    doc["components"]["schemas"]["BrowserLearning"] = json!({ "type": "object", "properties": { "lessons": { "type": "object", "properties": { "done": { "type": "object", "additionalProperties": { "type": "array", "items": { "type": "integer", "minimum": 0 } } }, "wins": { "type": "object", "additionalProperties": { "type": "integer", "minimum": 0 } } } }, "rating": { "type": "object" } } });
    doc["components"]["schemas"]["PuzzleTry"] = json!({ "type": "object", "properties": { "moves": { "type": "array", "items": { "type": "string" } }, "rating": { "type": "object", "required": ["rating", "deviation", "volatility"], "properties": { "rating": { "type": "number", "minimum": 1, "maximum": 5000 }, "deviation": { "type": "number", "minimum": 1, "maximum": 350 }, "volatility": { "type": "number", "minimum": 0, "maximum": 1 } } } } });
    doc["components"]["schemas"]["Try"] = json!({ "type": "object", "properties": { "moves": { "type": "array", "items": { "type": "string" } }, "count": { "type": "string" } } });
    doc["components"]["schemas"]["FirstCaptureTurn"] = json!({ "type": "object", "required": ["size", "moves"], "properties": { "size": { "type": "integer", "minimum": 5, "maximum": 9 }, "moves": { "type": "array", "items": { "type": "string" } }, "level": { "type": "integer", "minimum": 0, "maximum": 5 } } });
    doc["components"]["schemas"]["Friend"] = json!({ "type": "object", "required": ["name"], "properties": { "name": { "type": "string" } } });
    doc["components"]["schemas"]["ReviewChat"] = json!({ "type": "object", "required": ["text"], "properties": { "text": { "type": "string", "minLength": 1, "maxLength": 500 } } });
    doc["components"]["schemas"]["Message"] = json!({ "type": "object", "required": ["to", "text"], "properties": { "to": { "type": "string" }, "text": { "type": "string", "minLength": 1, "maxLength": 1000 } } });
    doc
}

/// Learning to play: no session needed (docs/lessons.md).
fn learn_paths(paths: &mut serde_json::Map<String, Value>) {
    paths.insert("/api/rules".into(), json!({ "get": op("The rule presets for the rules page: { presets: [{ name, seeds, size, sizes, komi, ko, repetition, suicide, scoring, end, dead_stones, handicap, handicap_placement }] }", "learn", None, ("200", "the presets"), &[]) }));
    paths.insert("/api/learn/lessons".into(), json!({ "get": op("The lessons in order: { lessons: [{ id, title: { en, ko, ja, zh }, steps }] }", "learn", None, ("200", "the lessons"), &[]) }));
    let mut lesson = json!({ "get": op("One lesson: { id, title, steps: [{ size, rules, goal, learner, prompt, board (rows from the top: X, O, .), last, marks, prisoners, komi }] } (not the answers: the server judges tries)", "learn", None, ("200", "the lesson"), &["404"]) });
    lesson["parameters"] =
        json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }]);
    paths.insert("/api/learn/lessons/{id}".into(), lesson);
    let mut attempt = json!({ "post": op("The teacher's verdict on a try in step N (from 0): body { moves: [GTP vertices made in the step so far, the last one judged] } or, in a counting step, { count: \"B+3\" }. Answer { outcome: solved|continue|wrong|illegal, miss: { code, liberties? }, refused (the rules' code), says, reply, next, board } or, counting, { right, result, black, white }. 400 `bad_try` for a path the step does not follow", "learn", Some("Try"), ("200", "the verdict"), &["400", "404"]) });
    attempt["parameters"] = json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }, { "name": "step", "in": "path", "required": true, "schema": { "type": "integer", "minimum": 0 } }]);
    paths.insert("/api/learn/lessons/{id}/steps/{step}/try".into(), attempt);
    puzzle_paths(paths);
    paths.insert("/api/learn/first-capture".into(), json!({ "post": op("First Capture Go against the lessons' bot: body { size: 5..9, moves: [every move from Black's first, the last Black's], level: 0..5 }; answer { reply (White's move, or null when the game ended), board, winner: black|white|null }. 400 `bad_size`, `bad_try`, `illegal_move`; 503 `engine_busy`", "learn", Some("FirstCaptureTurn"), ("200", "the bot's answer"), &["400", "503"]) }));
}

/// The puzzles (docs/lessons.md, "Puzzles").
fn puzzle_paths(paths: &mut serde_json::Map<String, Value>) {
    let view = "{ id, level (a rank: 25k), kind: life|race|tesuji, rating, step: { size, rules, goal, learner, prompt, board, last, marks, prisoners, komi } }";
    paths.insert("/api/learn/puzzles".into(), json!({ "get": op("How many puzzles: { count, kinds: [{ kind, count }], start (a new learner's rating: { rating, deviation, volatility }) }", "learn", None, ("200", "the counts"), &[]) }));
    let mut next = json!({ "get": op(&format!("A puzzle near the learner's rating, not one of `seen` while others are near: {view}. 400 `bad_rating`, `bad_kind`"), "learn", None, ("200", "a puzzle"), &["400"]) });
    next["parameters"] = json!([
        { "name": "rating", "in": "query", "schema": { "type": "number" } },
        { "name": "seen", "in": "query", "description": "ids seen lately, comma-separated", "schema": { "type": "string" } },
        { "name": "kind", "in": "query", "schema": { "type": "string", "enum": ["life", "race", "tesuji"] } },
        { "name": "turn", "in": "query", "description": "which of the five nearest (any number)", "schema": { "type": "integer", "minimum": 0 } }
    ]);
    paths.insert("/api/learn/puzzles/next".into(), next);
    paths.insert("/api/learn/puzzles/daily".into(), json!({ "get": op(&format!("The day's puzzle, the same for everyone on a UTC day: {view} with day (days since 1970-01-01)"), "learn", None, ("200", "the day's puzzle"), &[]) }));
    let id =
        json!([{ "name": "id", "in": "path", "required": true, "schema": { "type": "string" } }]);
    let mut one = json!({ "get": op(&format!("One puzzle: {view} (not its solution: the server judges tries)"), "learn", None, ("200", "the puzzle"), &["404"]) });
    one["parameters"] = id.clone();
    paths.insert("/api/learn/puzzles/{id}".into(), one);
    let mut attempt = json!({ "post": op("The verdict on a try: body { moves: [GTP vertices made so far, the last one judged], rating (the learner's, with an attempt's first try) }. Answer as a lesson's try (outcome, says, reply: the defence's answer or the refutation, board) with rating: the learner's rating after the attempt when it ended (solved or wrong) and a rating was sent, else null. With a session, the account's rating is used and the attempt recorded (the sent rating only marks the attempt as not yet rated). 400 `bad_try`, `bad_rating`", "learn", Some("PuzzleTry"), ("200", "the verdict"), &["400", "404"]) });
    attempt["parameters"] = id;
    paths.insert("/api/learn/puzzles/{id}/try".into(), attempt);
    paths.insert("/api/me/learning".into(), json!({
        "get": op("The learning kept on the account: { lessons: { done: { lesson: [steps] }, wins: { size: n } }, rating (the puzzle rating, or null), attempts, solved }", "learn", None, ("200", "the learning"), &["401"]),
        "post": op("Merges what the browser kept into the account (every step solved in either, the larger count of wins, the account's rating before the browser's): body { lessons, rating }; answer as GET. 400 `bad_progress`, `bad_rating`", "learn", Some("BrowserLearning"), ("200", "the merged learning"), &["400", "401"])
    }));
}

/// The tournaments' routes.
fn tournament_paths(paths: &mut serde_json::Map<String, Value>) {
    paths.insert("/api/tournaments".into(), json!({
        "get": {
            "summary": "Tournaments, newest first: { tournaments: [{ id, name, status, round, system, size, starts_at }] }", "tags": ["tournaments"],
            "parameters": [{ "name": "status", "in": "query", "schema": { "type": "string", "enum": ["open", "running", "finished"] } }],
            "responses": { "200": { "description": "the tournaments" }, "400": { "description": "error", "content": { "application/json": { "schema": error_ref() } } } }
        },
        "post": op("Organise a tournament (guests cannot: 403 guests_cannot_organise; nor a suspended player: 403 suspended; a clock outside a room's ranges: 400 bad_time): { id }", "tournaments", Some("EventTerms"), ("201", "the new tournament's id"), &["400", "401", "403"]),
    }));
    let with_id = |v: Value| {
        let mut v = v;
        for method in ["get", "post"] {
            if let Some(o) = v.get_mut(method) {
                o["parameters"] = id_param("id");
            }
        }
        v
    };
    paths.insert("/api/tournaments/{id}".into(), with_id(json!({ "get": op("A tournament: { id, name, status (open | running | finished), organiser, round (paired so far), rounds, terms, players: [{ name, rank, withdrawn_after }], pairings: [{ round, boards: [{ board, white, black, handicap, game_id, result (the organiser's correction if any, else the board's), board_result (the game's own), correction: { result, board_result (the board's when corrected), by } or null, bye }] }], standings: { criteria, lines: [{ place, tied, name, rank, values }] }, log: [{ at, by, action, detail }] (the organiser's corrections) }. Watchers over the WebSocket hear it change (watch_tournament)", "tournaments", None, ("200", "the tournament"), &["404"]) })));
    paths.insert("/api/tournaments/{id}/register".into(), with_id(json!({ "post": op("Register for an open tournament, or a running McMahon or Swiss one (absent from the rounds already paired). Codes: registration_closed (a started round robin or knockout), already_registered, tournament_full (409), rank_outside_limits (400), guests_cannot_register, suspended (403)", "tournaments", None, ("200", "registered"), &["401", "403", "404", "409"]) })));
    paths.insert("/api/tournaments/{id}/withdraw".into(), with_id(json!({ "post": op("Withdraw: before the start the registration goes; after it, one is absent (half a McMahon point) from the next round on. 409 not_registered", "tournaments", None, ("200", "withdrawn"), &["401", "404", "409"]) })));
    paths.insert("/api/tournaments/{id}/start".into(), with_id(json!({ "post": op("The organiser starts the tournament now: round 1 is paired and its games start. Codes: not_organiser (403), already_started (409), too_few_players (400)", "tournaments", None, ("200", "the tournament"), &["401", "403", "404", "409"]) })));
    paths.insert("/api/tournaments/{id}/results".into(), with_id(json!({ "post": op("The organiser corrects a board's result, with a reason (logged): only once its game is over, or for a game never played (409 game_in_progress), never in a game they play (403 own_game). The board's result is kept beside the correction; the standings follow, and only rounds not yet paired are paired on them", "tournaments", Some("Correction"), ("200", "corrected"), &["401", "403", "404", "413"]) })));
    paths.insert("/api/tournaments/{id}/challenge".into(), with_id(json!({ "post": op("Ladder: challenge a player up to `reach` places above; the game starts at once, the challenger Black: { challenge, game_id }. A win takes the defender's place. Codes: no_running_ladder, challenge_pending, try_again (409), not_on_ladder, cannot_challenge (400)", "tournaments", Some("Challenge"), ("201", "the challenge's game"), &["401", "404", "409"]) })));
    paths.insert("/api/tournaments/{id}/finish".into(), with_id(json!({ "post": op("The organiser closes a running ladder (other events finish after their last round): 409 not_a_running_ladder", "tournaments", None, ("200", "finished"), &["401", "403", "404", "409"]) })));
    paths.insert("/api/tournaments/{id}/h9".into(), with_id(json!({ "get": op("The tournament as an EGF h9 results file (text), best first", "tournaments", None, ("200", "text/plain h9"), &["404"]) })));
}

/// The terms an organiser sends.
fn event_terms() -> Value {
    json!({ "type": "object", "required": ["name", "system"], "additionalProperties": false, "properties": {
        "name": { "type": "string", "minLength": 1, "maxLength": 80 },
        "system": { "type": "string", "enum": ["mcmahon", "swiss", "round_robin", "knockout", "ladder"] },
        "reach": { "type": "integer", "minimum": 1, "maximum": 20, "default": 3, "description": "ladder: how many places above oneself one may challenge" },
        "rounds": { "type": "integer", "minimum": 1, "maximum": 20, "default": 5, "description": "McMahon and Swiss; a round robin plays n-1 rounds (n if odd), a knockout as many as its bracket needs" },
        "size": { "type": "integer", "enum": [9, 13, 19], "default": 19 },
        "rules": { "type": "string", "default": "japanese", "enum": ["wga", "chinese", "japanese", "korean", "igz", "arena", "aga", "tromp-taylor", "nz"] },
        "komi": { "type": "string", "example": "6.5", "description": "even games; handicap games take the preset's handicap komi" },
        "time": { "$ref": "#/components/schemas/TimeControl" },
        "rated": { "type": "boolean", "default": true, "description": "whether the games move ratings and promotion points" },
        "bar": { "type": "string", "example": "3d", "description": "McMahon bar (default 3d)" },
        "floor": { "type": "string", "example": "20k", "description": "McMahon floor (default 20k)" },
        "handicap_reduction": { "type": "integer", "minimum": 0, "maximum": 9, "description": "McMahon: handicap from the score difference less this many stones; even games when absent" },
        "min_rank": { "type": "string", "example": "10k" }, "max_rank": { "type": "string", "example": "1d" },
        "max_players": { "type": "integer", "minimum": 2, "maximum": 2000, "default": 128 },
        "third_place": { "type": "boolean", "default": false, "description": "knockout: a game for third place" },
        "starts_at": { "type": "integer", "description": "seconds since the epoch; the organiser starts it when absent" },
        "round_starts": { "type": "array", "items": { "type": "integer" }, "description": "the earliest start of each round (seconds since the epoch), round 1 first: a round starts at its time or when the round before ends, whichever is later" },
        "seed": { "type": "integer", "minimum": 0, "description": "the pairing's seed (the tournament's id when absent)" } } })
}
