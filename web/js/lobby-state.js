// The lobby's state, pure: what its forms ask the server for, where a quick-match request
// stands, who may join a room and how, the handicap a bot gives. Plain data in and out (no DOM,
// no timers, no catalogue): lobby.js draws it and turns it into words. Tests:
// web/tests/lobby_state.test.mjs (`node --test`, no browser).

/** The rule sets the lobby offers, in the order its menus list them. */
export const RULES = ['japanese', 'korean', 'chinese', 'aga', 'wga', 'igz', 'arena', 'tromp-taylor', 'nz', 'first-capture'];

/** The ranks a quick-match request may bound its opponents by, weakest first. */
export const RANKS = [...Array.from({ length: 30 }, (_, i) => `${30 - i}k`), ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`)];

/** The lobby chat's lines kept on the page: the server sends no more when it opens. */
export const CHAT_LINES = 50;

/**
 * The quick-match request from its form's fields (`sizes` every board ticked, the others as
 * the form holds them, '' for "any"), or null when no board size is ticked.
 */
export function matchRequest(f) {
  const body = { sizes: f.sizes.map(Number), speed: f.speed, rules: f.rules };
  if (f.min_rank) body.min_rank = f.min_rank;
  if (f.max_rank) body.max_rank = f.max_rank;
  if (f.bot_after_s) body.bot_after_s = Number(f.bot_after_s);
  return body.sizes.length ? body : null;
}

/**
 * The quick-match panel after the server's word `m` on the request (`{ state, since, game,
 * opponent, code, message }`), from the panel `qm` (`{ since, paired }`: when the request
 * waiting was made, and the game the last pairing notice was for). The pairing arrives on the
 * socket, in the request's answer and in the status the page polls: `notice` is true for the
 * first of them only. `go` is the game to open, `status` what the panel says: 'looking',
 * 'outcome' (why a request ended without a game) or ''.
 */
export function matchStep(qm, m) {
  if (m.state === 'matched' && m.game) {
    return { ...qm, paired: m.game, notice: qm.paired !== m.game, go: m.game };
  }
  const waiting = m.state === 'waiting';
  const status = waiting ? 'looking' : m.state === 'failed' || m.state === 'withdrawn' ? 'outcome' : '';
  return { ...qm, since: waiting ? m.since : null, waiting, status, notice: false, go: null };
}

/** Whether a polled status is news to the panel: a request waiting (perhaps from another tab),
 * or the outcome of the one the panel waits for; an old outcome does not send the player back
 * to an old game. */
export function matchNews(qm, match) {
  return !!match && (match.state === 'waiting' || (!!qm.since && match.state !== 'idle'));
}

/** The clock of a new room from the form's fields (minutes, a count, seconds, days). */
export function roomClock(f) {
  const system = f.system;
  const main_ms = Number(f.main) * 60000;
  const count = Number(f.count);
  const secs = Number(f.seconds) * 1000;
  switch (system) {
    case 'none': return { system };
    case 'absolute': return { system, main_ms };
    case 'byoyomi': return { system, main_ms, periods: count, period_ms: secs };
    case 'canadian': return { system, main_ms, stones: count, period_ms: secs };
    case 'correspondence': return { system, per_move_ms: Number(f.days) * 86400000 };
    default: return { system, main_ms, increment_ms: secs };
  }
}

/** A new room's terms from the "open a room" form's fields (check boxes 'on' when ticked). */
export function roomTerms(f) {
  const terms = {
    size: Number(f.size),
    rules: f.rules,
    take_back: f.take_back === 'on',
    estimate: f.estimate === 'on',
    disputes: f.disputes === 'on' ? 'engine' : 'play',
    parity: f.parity,
    time: roomClock(f),
  };
  if (f.komi) terms.komi = f.komi;
  if (f.handicap) terms.handicap = Number(f.handicap);
  return terms;
}

/** A rank's place on one scale: 30k is -29, 1k 0, 1d 1, a professional above 9d. */
export function rankLevel(rank) {
  const m = /^(\d+)([kdp])/.exec(String(rank || ''));
  if (!m) return null;
  const n = Number(m[1]);
  return m[2] === 'k' ? 1 - n : m[2] === 'd' ? n : 9 + n;
}

/** The handicap a player of rank `mine` takes from a bot of rank `theirs`: the largest usual
 * number of stones no greater than the rank difference, when it is two or more; else none. */
export function suggestedHandicap(mine, theirs) {
  const a = rankLevel(mine);
  const b = rankLevel(theirs);
  if (a === null || b === null || b - a < 2) return 0;
  return [2, 3, 4, 5, 6, 7, 9].filter((n) => n <= b - a).pop();
}

/**
 * The rank `bot` plays at on a `size` board under `rules`: the server lists the boards where a
 * level was measured to play at another rank than its account's (`ranks_by_size`: `tengen-2`
 * is 8k on 9x9, 3k on 19x19); First Capture is another game, ranked by the account.
 */
export function botRank(bot, size, rules) {
  return (rules !== 'first-capture' && bot.ranks_by_size?.[size]) || bot.rank;
}

/**
 * The handicap a bot gives `user` on a `size` board under `rules` (seed 002: a stone a rank,
 * from two ranks apart, by the rank the bot plays at there); none for a guest, whose rank is
 * the server's guess, not theirs.
 */
export function botHandicap(user, bot, size, rules) {
  return user && !user.guest ? suggestedHandicap(user.rank, botRank(bot, size, rules)) : 0;
}

/** The request to play a bot from the bot form's fields: a handicap (the one chosen, else the
 * ranks' `stones`) means playing Black; else the colour chosen, if any. */
export function botRequest(f, stones) {
  const body = { size: Number(f.size), rules: f.rules };
  if (f.handicap || stones) body.handicap = Number(f.handicap || stones);
  else if (f.color) body.color = f.color;
  return body;
}

/** Whether a bot is away: a remote bot is online only while its engine is connected. */
export function botAway(users, name) {
  return !users.some((u) => u.username === name);
}

/**
 * What `user` may do with room `r`: close it (`mine`), or join it: with a guess of the owner's
 * parity when their ranks are the same (HO-SUN), not at all while its owner is away (the room
 * closes in a moment; joining would only wait for them). `joins`: one a button, with the
 * `data-join` id the page gives it.
 */
export function roomChoices(r, user) {
  const mine = !!user && r.owner.username === user.username;
  const same = !mine && !!user && user.rank === r.owner.rank;
  const away = r.owner.here === false;
  const joins = mine ? [] : (same ? ['odd', 'even'] : [null]).map((guess) => ({ guess, id: `${r.id}${guess ? `-${guess}` : ''}` }));
  return { mine, same, away, joins };
}

/** The colour a HO-SUN join gave `username`, as 'black' or 'white'. */
export function hoSunColor(res, username) {
  return res.game.black.username === username ? 'black' : 'white';
}

/** Whether `user` plays in live game `g` (its link says play, else watch). */
export function playsIn(g, user) {
  return !!user && (g.black === user.username || g.white === user.username);
}

/** Friends, online first (each group in the server's order). */
export function friendsInOrder(friends) {
  return [...friends].sort((a, b) => Number(b.online) - Number(a.online));
}
