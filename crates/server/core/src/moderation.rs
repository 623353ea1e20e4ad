//! Moderation's rules, pure: who may moderate ([`Role`]), what a moderator may do to a player
//! ([`ActionKind`]), and what a player's standing sanctions forbid now ([`Sanctions`]). Times are
//! seconds since the epoch, given by the caller (nothing here reads a clock).

use std::fmt;
use std::str::FromStr;

/// What an account may do beyond playing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Everyone.
    #[default]
    Player,
    /// Acts on reports: warns, mutes, suspends, bans, annuls games.
    Moderator,
    /// A moderator whom the operator trusts with everything (`tengen admin set-role`).
    Admin,
}

impl Role {
    /// Every role, for parsers and tests.
    pub const ALL: [Role; 3] = [Role::Player, Role::Moderator, Role::Admin];

    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
            Role::Admin => "admin",
        }
    }

    /// Whether the moderation routes are open to this role.
    pub fn moderates(self) -> bool {
        matches!(self, Role::Moderator | Role::Admin)
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Not a role's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown role {0:?}: player, moderator or admin")]
pub struct UnknownRole(pub String);

impl FromStr for Role {
    type Err = UnknownRole;

    fn from_str(s: &str) -> Result<Role, UnknownRole> {
        Role::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRole(s.to_string()))
    }
}

/// What a moderator does to a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionKind {
    /// A warning: the player is told, nothing is forbidden.
    Warn,
    /// No chat until the time given (or for good).
    Mute,
    /// No new games until the time given (required).
    Suspend,
    /// No sessions at all until the time given (or for good): sessions end, games are resigned.
    Ban,
    /// Lifts every standing sanction.
    Unban,
}

impl ActionKind {
    /// The name stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Warn => "warn",
            ActionKind::Mute => "mute",
            ActionKind::Suspend => "suspend",
            ActionKind::Ban => "ban",
            ActionKind::Unban => "unban",
        }
    }

    /// Checks `until` (seconds since the epoch) against the action at `now`: a suspension needs
    /// one, a warning or unban takes none, and none may be in the past. The sanction's end as
    /// stored: `Some(FOREVER)` for a mute or ban without one.
    pub fn until(self, until: Option<i64>, now: i64) -> Result<Option<i64>, ActionError> {
        match (self, until) {
            (ActionKind::Warn | ActionKind::Unban, Some(_)) => Err(ActionError::UntilNotTaken),
            (ActionKind::Warn | ActionKind::Unban, None) => Ok(None),
            (ActionKind::Suspend, None) => Err(ActionError::UntilRequired),
            (_, Some(t)) if t <= now => Err(ActionError::UntilPast),
            (_, Some(t)) => Ok(Some(t)),
            (ActionKind::Mute | ActionKind::Ban, None) => Ok(Some(FOREVER)),
        }
    }
}

/// A time as the API takes it: seconds since the epoch, or an RFC 3339 time
/// (`2026-12-01T18:00:00Z`, `2026-12-01T19:00:00+01:00`); fractions of a second are dropped.
pub fn parse_time(text: &str) -> Option<i64> {
    if let Ok(secs) = text.parse::<i64>() {
        return Some(secs);
    }
    let b = text.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = text.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hour, minute, second) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if b[13] != b':' || b[16] != b':' || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    // Skip a fraction, then the offset: Z or ±HH:MM.
    let mut at = 19;
    if b[at] == b'.' {
        at += 1;
        while at < b.len() && b[at].is_ascii_digit() {
            at += 1;
        }
    }
    let offset = match text.get(at..)? {
        "Z" | "z" => 0,
        o if o.len() == 6 && o.as_bytes()[3] == b':' => {
            let sign = match o.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            sign * (num(at + 1..at + 3)? * 3600 + num(at + 4..at + 6)? * 60)
        }
        _ => return None,
    };
    let days = days_from_civil(year, month, day);
    Some(days * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A sanction "for good": the last second of the year 9999.
pub const FOREVER: i64 = 253_402_300_799;

/// An action's `until` that does not fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ActionError {
    /// A suspension ends at a time.
    #[error("a suspension needs `until`, the time it ends")]
    UntilRequired,
    /// A warning or an unban has no time.
    #[error("a warning or an unban takes no `until`")]
    UntilNotTaken,
    /// The end is already past.
    #[error("`until` is in the past")]
    UntilPast,
}

impl ActionError {
    /// The stable code.
    pub fn code(self) -> &'static str {
        match self {
            ActionError::UntilRequired => "until_required",
            ActionError::UntilNotTaken => "until_not_taken",
            ActionError::UntilPast => "until_past",
        }
    }
}

/// A player's standing sanctions: when each ends (seconds since the epoch; `None`: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Sanctions {
    // In alphabetical order, the order the API has always written them in.
    /// No sessions before this.
    pub banned_until: Option<i64>,
    /// No chat before this.
    pub muted_until: Option<i64>,
    /// No new games before this.
    pub suspended_until: Option<i64>,
}

impl Sanctions {
    /// Banned at `now`.
    pub fn banned(&self, now: i64) -> bool {
        self.banned_until.is_some_and(|t| t > now)
    }

    /// Muted at `now` (a ban mutes too).
    pub fn muted(&self, now: i64) -> bool {
        self.banned(now) || self.muted_until.is_some_and(|t| t > now)
    }

    /// Suspended from new games at `now` (a ban suspends too).
    pub fn suspended(&self, now: i64) -> bool {
        self.banned(now) || self.suspended_until.is_some_and(|t| t > now)
    }

    /// The sanctions still standing at `now` (those past are dropped).
    pub fn standing(self, now: i64) -> Sanctions {
        let keep = |t: Option<i64>| t.filter(|&t| t > now);
        Sanctions {
            muted_until: keep(self.muted_until),
            suspended_until: keep(self.suspended_until),
            banned_until: keep(self.banned_until),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_parse_and_only_moderators_and_admins_moderate() {
        for r in Role::ALL {
            assert_eq!(r.as_str().parse::<Role>(), Ok(r));
        }
        assert!("root".parse::<Role>().is_err());
        assert!(!Role::Player.moderates());
        assert!(Role::Moderator.moderates() && Role::Admin.moderates());
    }

    #[test]
    fn times_are_read_as_seconds_or_rfc_3339() {
        assert_eq!(parse_time("1790000000"), Some(1_790_000_000));
        assert_eq!(parse_time("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_time("2000-03-01T00:00:00Z"), Some(951_868_800));
        assert_eq!(parse_time("2026-12-01T18:00:00Z"), Some(1_796_148_000));
        assert_eq!(parse_time("2026-12-01T19:00:00+01:00"), Some(1_796_148_000));
        assert_eq!(parse_time("2026-12-01T18:00:00.250Z"), Some(1_796_148_000));
        assert_eq!(parse_time("9999-12-31T23:59:59Z"), Some(FOREVER));
        for bad in [
            "",
            "tomorrow",
            "2026-13-01T00:00:00Z",
            "2026-12-01",
            "2026-12-01T18:00:00",
            "2026-12-01T18:00:00+0100",
            "2026-12-01T25:00:00Z",
            "2026-12-01T18:00:00Zjunk",
            "２026-12-01T18:00:00Z",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
    }

    #[test]
    fn until_fits_each_action() {
        let now = 1_000;
        assert_eq!(
            ActionKind::Suspend.until(None, now),
            Err(ActionError::UntilRequired)
        );
        assert_eq!(ActionKind::Suspend.until(Some(2_000), now), Ok(Some(2_000)));
        assert_eq!(ActionKind::Ban.until(None, now), Ok(Some(FOREVER)));
        assert_eq!(
            ActionKind::Mute.until(Some(999), now),
            Err(ActionError::UntilPast)
        );
        assert_eq!(
            ActionKind::Warn.until(Some(2_000), now),
            Err(ActionError::UntilNotTaken)
        );
        assert_eq!(ActionKind::Unban.until(None, now), Ok(None));
    }

    #[test]
    fn a_ban_mutes_and_suspends_and_sanctions_lapse() {
        let s = Sanctions {
            banned_until: Some(2_000),
            ..Sanctions::default()
        };
        assert!(s.banned(1_000) && s.muted(1_000) && s.suspended(1_000));
        assert!(!s.banned(2_000) && !s.muted(2_000));
        assert_eq!(s.standing(2_000), Sanctions::default());
    }
}
