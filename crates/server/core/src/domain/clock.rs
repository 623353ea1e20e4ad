//! Time systems as data, and clocks as pure functions of elapsed time (seed 002 "GAME TIME",
//! seed 000's loss on time).
//!
//! A [`TimeControl`] says how much time a player has; a [`Clock`] is one player's state under it.
//! [`TimeControl::spend`] runs a player's thinking time off their clock and says whether the flag
//! fell; [`TimeControl::moved`] applies what a move does (re-arming a byo-yomi period, counting a
//! Canadian stone, adding a Fischer increment). The server's actor feeds them its monotonic
//! clock; nothing here reads a clock.
//!
//! Boundary: a move made with exactly zero time left is late. A move at 0.05 s left is on time.

use serde::{Deserialize, Serialize};

/// How much time each player has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    None,
    /// Sudden death: main time only.
    Absolute {
        /// Main time, ms.
        main_ms: u64,
    },
    /// Main time, then `periods` extra timers of `period_ms` each (seed 002's "extra game
    /// timers", Japanese byo-yomi): a move made within a period re-arms it; a period that runs
    /// out is used up; running out of the last one loses.
    Byoyomi {
        /// Main time, ms.
        main_ms: u64,
        /// Number of extra timers.
        periods: u32,
        /// Each timer, ms.
        period_ms: u64,
    },
    /// Main time, then `stones` moves within `period_ms` (IGS / Canadian byo-yomi); after the
    /// `stones`-th move the period and the count start again.
    Canadian {
        /// Main time, ms.
        main_ms: u64,
        /// Stones per period.
        stones: u32,
        /// Period, ms.
        period_ms: u64,
    },
    /// Correspondence: each move within `per_move_ms` (days), the time restored in full after
    /// every move; nothing is banked.
    Correspondence {
        /// Time for each move, ms.
        per_move_ms: u64,
    },
    /// Main time plus an increment after each move, never above `cap_ms` if one is set.
    Fischer {
        /// Main time, ms.
        main_ms: u64,
        /// Increment per move, ms.
        increment_ms: u64,
        /// Most time a player may bank, ms.
        #[serde(default)]
        cap_ms: Option<u64>,
    },
}

/// One player's clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Main time left, ms (Fischer: the whole bank).
    pub main_ms: u64,
    /// Byo-yomi periods left (Japanese), counting the current one.
    pub periods: u32,
    /// Time left in the current period, ms (byo-yomi and Canadian).
    pub period_ms: u64,
    /// Stones still to play in the current Canadian period.
    pub stones: u32,
}

/// The flag fell: the player is out of time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged;

/// A time setting outside the server's ranges.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct TimeError(pub String);

const MINUTE: u64 = 60_000;
const HOUR: u64 = 60 * MINUTE;
/// A day, ms.
pub const DAY: u64 = 24 * HOUR;

/// How fast a game is played, for quick match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Speed {
    /// Under 10 seconds a move.
    Blitz,
    /// Played in one sitting.
    Live,
    /// Played over days.
    Correspondence,
}

impl TimeControl {
    /// The clock a player starts with.
    pub fn start(&self) -> Clock {
        match *self {
            TimeControl::None => Clock {
                main_ms: 0,
                periods: 0,
                period_ms: 0,
                stones: 0,
            },
            TimeControl::Absolute { main_ms } => Clock {
                main_ms,
                periods: 0,
                period_ms: 0,
                stones: 0,
            },
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            } => Clock {
                main_ms,
                periods,
                // Without extra timers there is no period to run.
                period_ms: if periods > 0 { period_ms } else { 0 },
                stones: 0,
            },
            TimeControl::Canadian {
                main_ms,
                stones,
                period_ms,
            } => Clock {
                main_ms,
                periods: 0,
                period_ms,
                stones,
            },
            TimeControl::Fischer { main_ms, .. }
            | TimeControl::Correspondence {
                per_move_ms: main_ms,
            } => Clock {
                main_ms,
                periods: 0,
                period_ms: 0,
                stones: 0,
            },
        }
    }

    /// Whether games under this clock are played over days (correspondence): a time per move,
    /// or a Fischer clock whose increment is an hour or more. They keep no one waiting: a player
    /// who leaves does not forfeit, the clock runs on the calendar, even across restarts, and a
    /// vacation stops it.
    pub fn is_correspondence(&self) -> bool {
        match *self {
            TimeControl::Correspondence { .. } => true,
            TimeControl::Fischer { increment_ms, .. } => increment_ms >= HOUR,
            _ => false,
        }
    }

    /// The speed class quick match pairs by, from the time a move may take on average (main
    /// time spread over 40 moves, plus what each move adds): `blitz` under 10 seconds a move,
    /// `correspondence` for games played over days, `live` between.
    pub fn speed(&self) -> Speed {
        if self.is_correspondence() {
            return Speed::Correspondence;
        }
        let per_move = match *self {
            TimeControl::None => return Speed::Live,
            TimeControl::Absolute { main_ms } => main_ms / 40,
            TimeControl::Byoyomi {
                main_ms, period_ms, ..
            } => (main_ms / 40).saturating_add(period_ms),
            TimeControl::Canadian {
                main_ms,
                stones,
                period_ms,
            } => (main_ms / 40).saturating_add(period_ms / stones.max(1) as u64),
            TimeControl::Fischer {
                main_ms,
                increment_ms,
                ..
            } => (main_ms / 40).saturating_add(increment_ms),
            TimeControl::Correspondence { per_move_ms } => per_move_ms,
        };
        if per_move < 10_000 {
            Speed::Blitz
        } else {
            Speed::Live
        }
    }

    /// True when there is no clock.
    pub fn is_untimed(&self) -> bool {
        matches!(self, TimeControl::None)
    }

    /// How long from this state until the flag falls if the player does not move (`None`:
    /// never).
    pub fn until_flag(&self, c: &Clock) -> Option<u64> {
        match *self {
            TimeControl::None => None,
            TimeControl::Absolute { .. }
            | TimeControl::Fischer { .. }
            | TimeControl::Correspondence { .. } => Some(c.main_ms),
            TimeControl::Byoyomi { period_ms, .. } => {
                // The current period holds `c.period_ms` (full while in main time), then every
                // further period a full one.
                let periods = if c.periods > 0 {
                    c.period_ms
                        .saturating_add(u64::from(c.periods - 1).saturating_mul(period_ms))
                } else {
                    0
                };
                Some(c.main_ms.saturating_add(periods))
            }
            TimeControl::Canadian { .. } => Some(c.main_ms.saturating_add(c.period_ms)),
        }
    }

    /// Runs `elapsed` ms of thinking off `c`. `Err(Flagged)` when the time is used up: `elapsed`
    /// reaching the time left exactly is out of time.
    pub fn spend(&self, c: &Clock, elapsed: u64) -> Result<Clock, Flagged> {
        if let Some(left) = self.until_flag(c) {
            if elapsed >= left {
                return Err(Flagged);
            }
        }
        let mut c = *c;
        match *self {
            TimeControl::None => {}
            TimeControl::Absolute { .. }
            | TimeControl::Fischer { .. }
            | TimeControl::Correspondence { .. } => c.main_ms -= elapsed,
            TimeControl::Byoyomi { period_ms, .. } => {
                let from_main = elapsed.min(c.main_ms);
                c.main_ms -= from_main;
                let mut rest = elapsed - from_main;
                // Whole periods used up, then part of the next. The flag check above keeps at
                // least one period.
                while rest > 0 && rest >= c.period_ms {
                    rest -= c.period_ms;
                    c.periods -= 1;
                    c.period_ms = period_ms;
                }
                c.period_ms -= rest;
            }
            TimeControl::Canadian { .. } => {
                let from_main = elapsed.min(c.main_ms);
                c.main_ms -= from_main;
                c.period_ms -= elapsed - from_main;
            }
        }
        Ok(c)
    }

    /// What a move does to a clock after `spend`: re-arms a byo-yomi period, counts a Canadian
    /// stone (and starts a new period after the last), adds a Fischer increment.
    pub fn moved(&self, c: &Clock) -> Clock {
        let mut c = *c;
        match *self {
            TimeControl::None | TimeControl::Absolute { .. } => {}
            TimeControl::Correspondence { per_move_ms } => c.main_ms = per_move_ms,
            TimeControl::Byoyomi { period_ms, .. } => {
                if c.main_ms == 0 {
                    c.period_ms = period_ms;
                }
            }
            TimeControl::Canadian {
                stones, period_ms, ..
            } => {
                if c.main_ms == 0 {
                    // A clock read back with no stones left starts a new period, not a wrap.
                    c.stones = c.stones.saturating_sub(1);
                    if c.stones == 0 {
                        c.stones = stones;
                        c.period_ms = period_ms;
                    }
                }
            }
            TimeControl::Fischer {
                increment_ms,
                cap_ms,
                ..
            } => {
                c.main_ms = c.main_ms.saturating_add(increment_ms);
                if let Some(cap) = cap_ms {
                    c.main_ms = c.main_ms.min(cap);
                }
            }
        }
        c
    }

    /// Checks a room's setting against the server's ranges (seed 002: main time 1 to 720
    /// minutes, 0 to 6 extra timers of 10 to 60 seconds; IGS byo-yomi with 1 to 100 stones).
    pub fn validate(&self) -> Result<(), TimeError> {
        let main_ok = |m: u64| (MINUTE..=720 * MINUTE).contains(&m);
        let main_err = || TimeError("main time must be 1 to 720 minutes".into());
        match *self {
            TimeControl::None => Ok(()),
            TimeControl::Absolute { main_ms } => {
                main_ok(main_ms).then_some(()).ok_or_else(main_err)
            }
            TimeControl::Byoyomi {
                main_ms,
                periods,
                period_ms,
            } => {
                if !main_ok(main_ms) {
                    return Err(main_err());
                }
                if periods > 6 {
                    return Err(TimeError("at most 6 extra timers".into()));
                }
                if periods > 0 && !(10_000..=60_000).contains(&period_ms) {
                    return Err(TimeError(
                        "each extra timer must be 10 to 60 seconds".into(),
                    ));
                }
                Ok(())
            }
            TimeControl::Canadian {
                main_ms,
                stones,
                period_ms,
            } => {
                if !(main_ms == 0 || main_ok(main_ms)) {
                    return Err(main_err());
                }
                if !(1..=100).contains(&stones) {
                    return Err(TimeError("byo-yomi stones must be 1 to 100".into()));
                }
                if !(MINUTE..=60 * MINUTE).contains(&period_ms) {
                    return Err(TimeError(
                        "the byo-yomi period must be 1 to 60 minutes".into(),
                    ));
                }
                Ok(())
            }
            TimeControl::Fischer {
                main_ms,
                increment_ms,
                cap_ms,
            } if increment_ms >= HOUR => {
                // Correspondence Fischer: days of main time, hours to days a move.
                if !(HOUR..=30 * DAY).contains(&main_ms) {
                    return Err(TimeError(
                        "correspondence main time must be 1 hour to 30 days".into(),
                    ));
                }
                if increment_ms > 7 * DAY {
                    return Err(TimeError("the increment must be at most 7 days".into()));
                }
                match cap_ms {
                    Some(c) if c < main_ms => {
                        Err(TimeError("the cap must be at least the main time".into()))
                    }
                    Some(c) if c > 60 * DAY => {
                        Err(TimeError("the cap must be at most 60 days".into()))
                    }
                    _ => Ok(()),
                }
            }
            TimeControl::Fischer {
                main_ms,
                increment_ms,
                cap_ms,
            } => {
                if !main_ok(main_ms) {
                    return Err(main_err());
                }
                if increment_ms > 10 * MINUTE {
                    return Err(TimeError(
                        "the increment must be at most 10 minutes (or, for correspondence, \
                         1 hour to 7 days)"
                            .into(),
                    ));
                }
                if cap_ms.is_some_and(|c| c < main_ms) {
                    return Err(TimeError("the cap must be at least the main time".into()));
                }
                Ok(())
            }
            TimeControl::Correspondence { per_move_ms } => {
                if (HOUR..=30 * DAY).contains(&per_move_ms) {
                    Ok(())
                } else {
                    Err(TimeError(
                        "correspondence time per move must be 1 hour to 30 days".into(),
                    ))
                }
            }
        }
    }

    /// Seed 002's default: 30 minutes, no extra timers.
    pub fn default_room() -> TimeControl {
        TimeControl::Byoyomi {
            main_ms: 30 * MINUTE,
            periods: 0,
            period_ms: 30_000,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    #[test]
    fn absolute_loses_exactly_at_the_boundary() {
        let t = TimeControl::Absolute { main_ms: 10 * S };
        let c = t.start();
        assert_eq!(
            t.spend(&c, 9_950).map(|c| c.main_ms),
            Ok(50),
            "a move at 0.05 s left is on time"
        );
        assert_eq!(
            t.spend(&c, 10 * S),
            Err(Flagged),
            "exactly zero left is out of time"
        );
        assert_eq!(t.until_flag(&c), Some(10 * S));
    }

    #[test]
    fn byoyomi_main_time_into_periods_and_re_arming() {
        let t = TimeControl::Byoyomi {
            main_ms: 10 * S,
            periods: 3,
            period_ms: 30 * S,
        };
        let c = t.start();
        assert_eq!(t.until_flag(&c), Some(100 * S));
        // Into the first period.
        let c = t.spend(&c, 35 * S).unwrap();
        assert_eq!((c.main_ms, c.periods, c.period_ms), (0, 3, 5 * S));
        // A move within the period re-arms it.
        let c = t.moved(&c);
        assert_eq!((c.periods, c.period_ms), (3, 30 * S));
        // A period that runs out is used up; the next one runs.
        let c = t.spend(&c, 45 * S).unwrap();
        assert_eq!((c.periods, c.period_ms), (2, 15 * S));
        let c = t.moved(&c);
        assert_eq!(c.period_ms, 30 * S);
        // The last period: 0.05 s left is on time, the end of it is not.
        let c = t.spend(&c, 30 * S).unwrap();
        assert_eq!(c.periods, 1);
        assert_eq!(t.spend(&c, 29_950).map(|c| c.period_ms), Ok(50));
        assert_eq!(t.spend(&c, 30 * S), Err(Flagged));
    }

    #[test]
    fn byoyomi_without_extra_timers_is_sudden_death() {
        let t = TimeControl::default_room();
        let c = t.start();
        assert_eq!(t.until_flag(&c), Some(30 * 60 * S));
        assert_eq!(t.spend(&c, 30 * 60 * S), Err(Flagged));
    }

    #[test]
    fn canadian_counts_stones_and_resets_the_period() {
        let t = TimeControl::Canadian {
            main_ms: 0,
            stones: 3,
            period_ms: 60 * S,
        };
        let mut c = t.start();
        for (i, think) in [10u64, 20, 25].iter().enumerate() {
            c = t.moved(&t.spend(&c, think * S).unwrap());
            if i < 2 {
                assert_eq!(c.stones, 2 - i as u32);
            }
        }
        // Three stones in 55 s: a new period, the count starts again.
        assert_eq!((c.stones, c.period_ms), (3, 60 * S));
        let c = t.moved(&t.spend(&c, 50 * S).unwrap());
        assert_eq!(
            (c.stones, c.period_ms),
            (2, 10 * S),
            "the period does not re-arm per move"
        );
        assert_eq!(t.spend(&c, 10 * S), Err(Flagged));
        // Main time first, then the period.
        let t = TimeControl::Canadian {
            main_ms: 5 * S,
            stones: 25,
            period_ms: 300 * S,
        };
        let c = t.spend(&t.start(), 8 * S).unwrap();
        assert_eq!((c.main_ms, c.period_ms), (0, 297 * S));
        let c = t.moved(&c);
        assert_eq!(c.stones, 24);
    }

    #[test]
    fn fischer_increment_and_cap() {
        let t = TimeControl::Fischer {
            main_ms: 60 * S,
            increment_ms: 10 * S,
            cap_ms: Some(65 * S),
        };
        let c = t.moved(&t.spend(&t.start(), 2 * S).unwrap());
        assert_eq!(c.main_ms, 65 * S, "58 + 10, capped at 65");
        let c = t.moved(&t.spend(&c, 30 * S).unwrap());
        assert_eq!(c.main_ms, 45 * S);
        let u = TimeControl::Fischer {
            main_ms: 60 * S,
            increment_ms: 10 * S,
            cap_ms: None,
        };
        assert_eq!(u.moved(&u.start()).main_ms, 70 * S);
    }

    #[test]
    fn clocks_past_what_a_u64_holds_saturate_rather_than_panic() {
        // Terms a room refuses (`validate`) but stored data could still hold.
        let huge = [
            TimeControl::Absolute { main_ms: u64::MAX },
            TimeControl::Byoyomi {
                main_ms: u64::MAX,
                periods: u32::MAX,
                period_ms: u64::MAX,
            },
            TimeControl::Canadian {
                main_ms: u64::MAX,
                stones: 1,
                period_ms: u64::MAX,
            },
            TimeControl::Fischer {
                main_ms: u64::MAX,
                increment_ms: u64::MAX,
                cap_ms: None,
            },
        ];
        for t in huge {
            assert!(t.validate().is_err(), "{t:?}");
            assert_eq!(t.until_flag(&t.start()), Some(u64::MAX), "{t:?}");
            let _ = t.speed();
            let c = t.moved(&t.spend(&t.start(), 5 * S).unwrap());
            assert!(t.until_flag(&c).is_some_and(|left| left > 5 * S), "{t:?}");
        }
    }

    #[test]
    fn untimed_never_flags() {
        let t = TimeControl::None;
        assert_eq!(t.until_flag(&t.start()), None);
        assert!(t.spend(&t.start(), u64::MAX).is_ok());
    }

    #[test]
    fn room_ranges() {
        let m = |min: u64| min * 60 * S;
        assert!(TimeControl::Byoyomi {
            main_ms: m(30),
            periods: 6,
            period_ms: 60 * S
        }
        .validate()
        .is_ok());
        assert!(TimeControl::Byoyomi {
            main_ms: m(721),
            periods: 0,
            period_ms: 30 * S
        }
        .validate()
        .is_err());
        assert!(TimeControl::Byoyomi {
            main_ms: 0,
            periods: 0,
            period_ms: 30 * S
        }
        .validate()
        .is_err());
        assert!(TimeControl::Byoyomi {
            main_ms: m(30),
            periods: 7,
            period_ms: 30 * S
        }
        .validate()
        .is_err());
        assert!(TimeControl::Byoyomi {
            main_ms: m(30),
            periods: 3,
            period_ms: 5 * S
        }
        .validate()
        .is_err());
        assert!(TimeControl::Canadian {
            main_ms: m(1),
            stones: 25,
            period_ms: m(10)
        }
        .validate()
        .is_ok());
        assert!(TimeControl::Canadian {
            main_ms: m(1),
            stones: 0,
            period_ms: m(10)
        }
        .validate()
        .is_err());
        assert!(TimeControl::Fischer {
            main_ms: m(10),
            increment_ms: 5 * S,
            cap_ms: Some(m(5))
        }
        .validate()
        .is_err());
        assert!(TimeControl::None.validate().is_ok());
        let json = serde_json::to_string(&TimeControl::Canadian {
            main_ms: 1,
            stones: 2,
            period_ms: 3,
        })
        .unwrap();
        assert_eq!(
            json,
            r#"{"system":"canadian","main_ms":1,"stones":2,"period_ms":3}"#
        );
    }

    #[test]
    fn spending_takes_exactly_the_elapsed_time_off_the_flag() {
        let mut rng = tengen_rules::playout::Rng::new(0xC10C);
        let systems = [
            TimeControl::Absolute { main_ms: 600 * S },
            TimeControl::Byoyomi {
                main_ms: 60 * S,
                periods: 5,
                period_ms: 10 * S,
            },
            TimeControl::Canadian {
                main_ms: 60 * S,
                stones: 5,
                period_ms: 120 * S,
            },
            TimeControl::Fischer {
                main_ms: 60 * S,
                increment_ms: 5 * S,
                cap_ms: Some(90 * S),
            },
        ];
        for t in systems {
            let mut c = t.start();
            for _ in 0..500 {
                let left = t.until_flag(&c).unwrap();
                let e = rng.below(30_000) as u64;
                match t.spend(&c, e) {
                    Ok(after) => {
                        assert_eq!(t.until_flag(&after), Some(left - e), "{t:?}");
                        c = t.moved(&after);
                    }
                    Err(Flagged) => {
                        assert!(e >= left);
                        c = t.start();
                    }
                }
            }
        }
    }
}
