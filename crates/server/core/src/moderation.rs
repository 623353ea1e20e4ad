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
    /// No chat before this.
    pub muted_until: Option<i64>,
    /// No new games before this.
    pub suspended_until: Option<i64>,
    /// No sessions before this.
    pub banned_until: Option<i64>,
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
