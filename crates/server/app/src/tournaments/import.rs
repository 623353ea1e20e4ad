//! Bringing an event in from an EGF h9 results file (as OpenGotha exports it), finished or
//! running, so that it goes on on the server: its players by name and rank, its rounds with
//! their boards, byes, absences and results. Each player becomes a new account without a
//! password (it cannot sign in), named after the file's name (`Nemo André` is `Nemo_Andre`, or
//! `Nemo_Andre_2` when that is taken: an account is never shared with someone else; a name
//! only the server's own accounts may start with, `Guest` or `Tengen`, as `p_Tengen_...`). The rounds are written as boards without games, each
//! result kept as the organiser's; a board whose result the file does not know is open for the
//! organiser's correction, and once every board of the last round has a result the server
//! pairs the next round as for its own events.

use serde::Serialize;
use serde_json::json;
use tengen_store::accounts::NewUser;
use tengen_store::tournaments::ImportedBoard;
use tengen_store::Store;
use tengen_tournament::h9::H9;
use tengen_tournament::standings::Outcome;
use tengen_tournament::Rank;

use super::EventTerms;
use crate::error::ApiError;

/// What the organiser gives beside the file.
#[derive(Debug, Clone)]
pub struct Import {
    /// The event's name on the server.
    pub name: String,
    /// The organiser's account name.
    pub organiser: String,
    /// McMahon bar and floor (the file's starting scores' span when absent).
    pub bar: Option<Rank>,
    /// See `bar`.
    pub floor: Option<Rank>,
    /// The rounds the event will have (at least the file's).
    pub rounds: Option<u32>,
}

/// Brings the event of `h9` in; its id and where it stands.
pub async fn import(store: &Store, h9: &H9, how: &Import) -> Result<Imported, ApiError> {
    let organiser = store.user_by_name(&how.organiser).await?.ok_or_else(|| {
        ApiError::Rejected(
            "unknown_organiser",
            format!("no account named {:?} to organise the event", how.organiser),
        )
    })?;
    let event = &h9.event;
    let rounds = how
        .rounds
        .unwrap_or(0)
        .max(u32::try_from(event.rounds).unwrap_or(u32::MAX));
    let terms = terms_of(h9, how, rounds)?;
    let json = serde_json::to_string(&terms).map_err(|e| ApiError::Internal(e.to_string()))?;
    let id = store
        .insert_tournament(organiser.id, &terms.name, &json, None)
        .await?;
    let mut ids = Vec::with_capacity(event.entrants.len());
    for entrant in &event.entrants {
        let rank = entrant.rank.to_string();
        let user = account(store, &entrant.name, &rank).await?;
        store.register_entrant(id, user, &rank).await?;
        ids.push(user);
    }
    for round in 0..event.rounds {
        let boards = boards_of(h9, round, &ids)?;
        store.import_round(id, round as i64 + 1, &boards).await?;
    }
    let complete = event.games.iter().all(|g| g.outcome != Outcome::Unknown);
    if complete && event.rounds == rounds as usize {
        store.finish_tournament(id).await?;
    }
    Ok(Imported {
        finished: complete && event.rounds == rounds as usize,
        id,
        of: rounds,
        players: ids.len(),
        rounds: event.rounds,
    })
}

/// An event brought in, and where it stands (fields in alphabetical order, as the `json!`
/// object it replaces wrote them).
#[derive(Debug, Serialize)]
pub struct Imported {
    /// Whether every round was played (the event is finished).
    pub finished: bool,
    /// Its id.
    pub id: i64,
    /// The rounds it will have.
    pub of: u32,
    /// Its entrants.
    pub players: usize,
    /// The rounds the file holds.
    pub rounds: usize,
}

/// The event's terms: the file's system (McMahon when its criteria include MMS), bar and floor,
/// handicap, 19x19 games.
fn terms_of(h9: &H9, how: &Import, rounds: u32) -> Result<EventTerms, ApiError> {
    let (bar, floor) = h9.bar_and_floor();
    let mut terms = json!({
        "name": how.name,
        "system": if h9.mcmahon() { "mcmahon" } else { "swiss" },
        "rounds": rounds,
        "size": 19,
        "max_players": super::MAX_PLAYERS.max(u32::try_from(h9.event.entrants.len()).unwrap_or(u32::MAX)),
    });
    if h9.mcmahon() {
        terms["bar"] = json!(how.bar.unwrap_or(bar).to_string());
        terms["floor"] = json!(how.floor.unwrap_or(floor).to_string());
        if let Some(policy) = h9.handicap() {
            terms["handicap_reduction"] = json!(policy.reduction);
        }
    }
    let terms: EventTerms = serde_json::from_value(terms)
        .map_err(|e| ApiError::Rejected("bad_terms", e.to_string()))?;
    terms.validate()?;
    Ok(terms)
}

/// A new account for a player named `name` in the file (`Family Given`), with the file's rank
/// and no password: the name as a username, numbered when taken.
async fn account(store: &Store, name: &str, rank: &str) -> Result<i64, ApiError> {
    let base = username_of(name);
    for n in 1..=1000 {
        let username = if n == 1 {
            base.clone()
        } else {
            let suffix = format!("_{n}");
            let room = 20 - suffix.len();
            format!("{}{suffix}", &base[..base.len().min(room)])
        };
        let new = NewUser {
            username: &username,
            password_hash: None,
            rank,
            points: 0,
            guest: false,
            bot: None,
            created_at: tengen_store::games::now(),
        };
        if store.name_key_taken(&username).await? || !store.insert_user(new).await? {
            continue;
        }
        let user = store
            .user_by_name(&username)
            .await?
            .ok_or_else(|| ApiError::Internal(format!("account {username} not found")))?;
        return Ok(user.id);
    }
    Err(ApiError::Conflict(
        "name_taken",
        format!("no free account name for {name}"),
    ))
}

/// A valid username for a file's name: `Nemo André` is `Nemo_Andre`.
pub fn username_of(name: &str) -> String {
    let plain: String = name
        .chars()
        .map(|c| match c {
            'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
            'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => 'A',
            'è'..='ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
            'È'..='Ë' | 'Ē' | 'Ė' | 'Ę' | 'Ě' => 'E',
            'ì'..='ï' => 'i',
            'Ì'..='Ï' => 'I',
            'ò'..='ö' | 'ø' | 'ő' => 'o',
            'Ò'..='Ö' | 'Ø' | 'Ő' => 'O',
            'ù'..='ü' | 'ů' | 'ű' => 'u',
            'Ù'..='Ü' | 'Ů' | 'Ű' => 'U',
            'ç' | 'č' | 'ć' => 'c',
            'Ç' | 'Č' | 'Ć' => 'C',
            'ñ' | 'ń' | 'ň' => 'n',
            'Ñ' | 'Ń' | 'Ň' => 'N',
            'š' | 'ś' => 's',
            'Š' | 'Ś' => 'S',
            'ž' | 'ź' | 'ż' => 'z',
            'Ž' | 'Ź' | 'Ż' => 'Z',
            'ł' => 'l',
            'Ł' => 'L',
            'ý' | 'ÿ' => 'y',
            'Ý' => 'Y',
            'ř' => 'r',
            'Ř' => 'R',
            ' ' => '_',
            c if c.is_ascii_alphanumeric() || c == '_' || c == '-' => c,
            _ => '\0',
        })
        .filter(|&c| c != '\0')
        .take(20)
        .collect();
    let plain = plain.trim_matches('_').to_string();
    // A name a player may not take (`Guest`, `Tengen ...`) is prefixed, as one that does not
    // start with a letter.
    let plain = match plain.chars().next() {
        Some(c) if c.is_ascii_alphabetic() && !crate::accounts::reserved(&plain) => plain,
        _ => format!("p_{plain}"),
    };
    // At least three characters, at most twenty (all ASCII by now).
    format!("{plain:_<3}").chars().take(20).collect()
}

/// Round `round`'s boards: its games (White first, the file's result) and its byes.
fn boards_of(h9: &H9, round: usize, ids: &[i64]) -> Result<Vec<ImportedBoard>, ApiError> {
    let event = &h9.event;
    let mut boards = Vec::new();
    for g in event.games.iter().filter(|g| g.round == round) {
        let win = |side: &str| {
            if g.by_default {
                format!("{side}+F")
            } else {
                format!("{side}+")
            }
        };
        let result = match g.outcome {
            Outcome::WhiteWins => Some(win("W")),
            Outcome::BlackWins => Some(win("B")),
            Outcome::Jigo => Some("0".to_string()),
            Outcome::BothLose => Some("Void".to_string()),
            Outcome::Unknown => None,
            Outcome::BothWin => {
                return Err(ApiError::Rejected(
                    "both_win",
                    format!(
                        "round {}: a game both players won cannot be kept",
                        round + 1
                    ),
                ))
            }
        };
        boards.push(ImportedBoard {
            white_id: ids[g.white],
            black_id: Some(ids[g.black]),
            handicap: i64::from(g.handicap),
            result,
        });
    }
    for &(p, r, rest) in &event.rests {
        if r == round && rest.nbw2 > 0 {
            boards.push(ImportedBoard {
                white_id: ids[p],
                black_id: None,
                handicap: 0,
                result: None,
            });
        }
    }
    Ok(boards)
}

#[cfg(test)]
mod tests {
    use super::username_of;

    #[test]
    fn names_become_usernames() {
        assert_eq!(username_of("Nemo André"), "Nemo_Andre");
        assert_eq!(username_of("Groot Aya_de"), "Groot_Aya_de");
        assert_eq!(username_of("Łukasz Żółw"), "Lukasz_Zolw");
        assert_eq!(username_of("Li Yu"), "Li_Yu");
        assert_eq!(username_of("?? ??"), "p__");
        assert_eq!(username_of("Ng A"), "Ng_A");
        assert_eq!(
            username_of("Wolfeschlegelsteinhausen Hubert"),
            "Wolfeschlegelsteinha"
        );
    }

    #[test]
    fn a_name_kept_for_the_servers_own_accounts_is_prefixed() {
        assert_eq!(username_of("Tengen Bot"), "p_Tengen_Bot");
        assert_eq!(username_of("Guest Anna"), "p_Guest_Anna");
        assert_eq!(username_of("deleted"), "p_deleted");
        assert_eq!(username_of("Tengenji Kaori"), "p_Tengenji_Kaori");
        assert!(!crate::accounts::reserved(&username_of("Tengen-2")));
    }
}
