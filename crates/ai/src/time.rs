//! How long to think: a plan per move from the game's clock, as GTP controllers announce it
//! (`time_settings`, `kgs-time_settings`, `time_left`) or as the server's clocks hold it.
//!
//! Main time (absolute, or before byo-yomi, or with a Fischer increment) is spread over the
//! moves likely to come (half the empty points, at least 20), with most of the overtime or
//! increment a move earns on top; a Japanese byo-yomi period is used almost whole, and a
//! Canadian period shared among its stones. A margin for the controller's and the network's lag
//! is kept back, so the engine never loses on time.
//!
//! Stopping early (once no other move can overtake the best) saves time only where the time
//! saved is banked: main time, Fischer, a Canadian period with stones still to play. In a
//! Japanese byo-yomi period, or a Canadian period's last stone, what is not used is lost, so the
//! search uses it (KataGo does the same: told to think a second, it thinks a second).

use std::time::Duration;

/// The clock as announced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// Main time in seconds.
    pub main: f64,
    /// Byo-yomi period (or Canadian period) in seconds; 0 for none.
    pub period: f64,
    /// Stones per Canadian period (0 for Japanese byo-yomi or none).
    pub stones: u32,
    /// Japanese byo-yomi periods.
    pub periods: u32,
    /// Fischer increment in seconds, added after each move; 0 for none.
    pub increment: f64,
}

/// What is left on the engine's clock (`time_left color seconds stones`): seconds, and the
/// stones still to play in the current Canadian period (0 while in main time; under Japanese
/// byo-yomi, as KGS sends it, the periods left).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Left {
    /// Seconds left (of main time, or of the current period).
    pub seconds: f64,
    /// Stones left in the period; 0 in main time.
    pub stones: u32,
}

/// How to spend a move's time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// The time to search.
    pub time: Duration,
    /// Whether to stop once the best move cannot be overtaken: only where the time saved is
    /// banked for later moves.
    pub stop_early: bool,
}

/// The most kept back for lag on a move.
pub const MARGIN: f64 = 0.25;

/// The least a move is given, however little is left.
const FLOOR: f64 = 0.05;

/// The most a move is given, seconds: a controller may announce any number (`time_settings
/// 1e300 0 0`), which a `Duration` cannot hold; no move needs more than a day.
const LONGEST: f64 = 86_400.0;

/// Seconds kept back from a move of `secs`: 8% of it (a tenth of a second of a one-second
/// period: a pipe's and a scheduler's lag are milliseconds; the search stops before starting a
/// batch it cannot finish), between [`FLOOR`] and [`MARGIN`].
pub fn margin(secs: f64) -> f64 {
    (0.08 * secs).clamp(FLOOR, MARGIN)
}

/// Where the clock stands for this move.
enum Stage {
    /// In main time with these seconds left (absolute time, Fischer, or before overtime).
    Main(f64),
    /// In a Japanese byo-yomi period.
    Byoyomi,
    /// In a Canadian period: these seconds for these stones.
    Canadian(f64, u32),
}

fn stage(clock: &Clock, left: Option<Left>) -> Stage {
    let japanese = clock.period > 0.0 && clock.stones == 0;
    match left {
        // In Japanese byo-yomi KGS sends the periods left where the stones go: the period's
        // seconds are this move's.
        Some(l) if l.stones > 0 && japanese => Stage::Byoyomi,
        Some(l) if l.stones > 0 => Stage::Canadian(l.seconds, l.stones),
        Some(l) if l.seconds <= 0.0 && japanese => Stage::Byoyomi,
        Some(l) if l.seconds <= 0.0 && clock.period > 0.0 => {
            Stage::Canadian(clock.period, clock.stones)
        }
        Some(l) => Stage::Main(l.seconds),
        None if clock.main > 0.0 || clock.period <= 0.0 => Stage::Main(clock.main),
        None if japanese => Stage::Byoyomi,
        None => Stage::Canadian(clock.period, clock.stones),
    }
}

/// The plan for a move with `empty` empty points on the board.
pub fn plan(clock: &Clock, left: Option<Left>, empty: usize) -> Plan {
    let moves_left = (empty / 2).max(20) as f64;
    let (secs, stop_early) = match stage(clock, left) {
        Stage::Byoyomi => (clock.period, false),
        Stage::Canadian(secs, stones) => (secs / f64::from(stones.max(1)), stones > 1),
        Stage::Main(secs) => {
            // What each move earns on top of main time: most of a byo-yomi period or a
            // Canadian period's share once main time is gone, or the increment.
            let overtime = match clock.stones {
                0 => clock.period,
                n => clock.period / f64::from(n),
            };
            let earned = 0.8 * overtime + 0.8 * clock.increment;
            // Never more of main time than is left (with Fischer the increment comes after
            // the move: it cannot be spent on this one).
            let cap = secs + if clock.period > 0.0 { overtime } else { 0.0 };
            ((secs / moves_left + earned).min(cap), true)
        }
    };
    Plan {
        time: Duration::from_secs_f64((secs - margin(secs)).clamp(FLOOR, LONGEST)),
        stop_early,
    }
}

/// The time to spend on a move ([`plan`]'s).
pub fn budget(clock: &Clock, left: Option<Left>, empty: usize) -> Duration {
    plan(clock, left, empty).time
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_a_period_uses_most_of_it() {
        // `time_settings 0 5 1`: five seconds a move.
        let c = Clock {
            main: 0.0,
            period: 5.0,
            stones: 1,
            periods: 0,
            increment: 0.0,
        };
        let b = budget(
            &c,
            Some(Left {
                seconds: 5.0,
                stones: 1,
            }),
            81,
        );
        assert_eq!(b, Duration::from_secs_f64(4.75));
        assert_eq!(budget(&c, None, 81), Duration::from_secs_f64(4.75));
    }

    #[test]
    fn main_time_is_spread_and_never_exhausted() {
        let c = Clock {
            main: 600.0,
            ..Clock::default()
        };
        let early = budget(
            &c,
            Some(Left {
                seconds: 600.0,
                stones: 0,
            }),
            361,
        );
        assert!(early < Duration::from_secs(4) && early > Duration::from_secs(2));
        let late = budget(
            &c,
            Some(Left {
                seconds: 1.0,
                stones: 0,
            }),
            100,
        );
        assert!(late <= Duration::from_millis(60));
    }

    #[test]
    fn byoyomi_after_main_time_uses_the_period() {
        let c = Clock {
            main: 60.0,
            period: 10.0,
            stones: 0,
            periods: 3,
            increment: 0.0,
        };
        let b = budget(
            &c,
            Some(Left {
                seconds: 0.0,
                stones: 0,
            }),
            200,
        );
        assert_eq!(b, Duration::from_secs_f64(9.75));
    }

    /// Regression: KGS sends the periods left in place of the stones under Japanese byo-yomi
    /// (`time_left b 30 5`: 30 s of a period, 5 periods); read as a Canadian period of five
    /// stones, each move got a fifth of its period.
    #[test]
    fn byoyomi_periods_left_are_not_stones() {
        let c = Clock {
            main: 600.0,
            period: 30.0,
            stones: 0,
            periods: 5,
            increment: 0.0,
        };
        let left = |seconds, stones| Some(Left { seconds, stones });
        assert_eq!(
            budget(&c, left(30.0, 5), 200),
            Duration::from_secs_f64(29.75)
        );
        assert_eq!(
            budget(&c, left(30.0, 1), 200),
            Duration::from_secs_f64(29.75)
        );
        // A Canadian period keeps its share a stone.
        let canadian = Clock {
            main: 600.0,
            period: 300.0,
            stones: 25,
            periods: 0,
            increment: 0.0,
        };
        assert_eq!(
            budget(&canadian, left(300.0, 25), 200),
            Duration::from_secs_f64(11.75)
        );
    }

    fn left(seconds: f64, stones: u32) -> Option<Left> {
        Some(Left { seconds, stones })
    }

    /// Issue 40: told `time_settings 0 1 1` (a second a move), the engine spent 0.43 s a move.
    /// A one-second period is used to 0.92 s, and nothing is saved by stopping early (a
    /// period's unused time is lost).
    #[test]
    fn a_one_second_period_is_used_whole() {
        let canadian = Clock {
            period: 1.0,
            stones: 1,
            ..Clock::default()
        };
        let japanese = Clock {
            period: 1.0,
            periods: 5,
            ..Clock::default()
        };
        let want = Plan {
            time: Duration::from_secs_f64(0.92),
            stop_early: false,
        };
        assert_eq!(plan(&canadian, left(1.0, 1), 81), want);
        assert_eq!(plan(&canadian, None, 81), want);
        assert_eq!(plan(&japanese, left(1.0, 5), 81), want);
        assert_eq!(plan(&japanese, left(0.0, 0), 81), want);
    }

    #[test]
    fn a_canadian_period_stops_early_only_with_stones_to_come() {
        let c = Clock {
            period: 60.0,
            stones: 10,
            ..Clock::default()
        };
        let p = plan(&c, left(60.0, 10), 100);
        assert!(p.stop_early);
        assert_eq!(p.time, Duration::from_secs_f64(5.75));
        // The last stone of the period: the rest of it, all of it used.
        let last = plan(&c, left(7.0, 1), 100);
        assert!(!last.stop_early);
        assert_eq!(last.time, Duration::from_secs_f64(6.75));
    }

    #[test]
    fn fischer_spends_a_share_of_main_time_and_most_of_the_increment() {
        let c = Clock {
            main: 60.0,
            increment: 5.0,
            ..Clock::default()
        };
        let p = plan(&c, left(60.0, 0), 81);
        assert!(p.stop_early);
        // 60 s over 40 moves, and 4 of the 5 s the move earns.
        assert_eq!(p.time, Duration::from_secs_f64(1.5 + 4.0 - 0.25));
        // The increment comes after the move: with 2 s left, 2 s at most.
        let short = plan(&c, left(2.0, 0), 81);
        assert_eq!(short.time, Duration::from_secs_f64(2.0 - 0.16));
    }

    /// Whatever the clock, a move never plans more than the time it has (its main time, its
    /// period or its share of one), so the engine does not lose on time by its own plan.
    #[test]
    fn no_plan_spends_more_than_is_left() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u32| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % u64::from(n)) as u32
        };
        for _ in 0..20_000 {
            let c = Clock {
                main: f64::from(next(4)) * f64::from(next(600)),
                period: f64::from(next(3)) * f64::from(next(60)),
                stones: next(3) * next(25),
                periods: next(10),
                increment: f64::from(next(2)) * f64::from(next(30)),
            };
            let l = match next(3) {
                0 => None,
                _ => left(f64::from(next(1000)) / 10.0, next(3) * next(25)),
            };
            let empty = next(362) as usize;
            let have = match stage(&c, l) {
                Stage::Byoyomi => c.period,
                Stage::Canadian(secs, stones) => secs / f64::from(stones.max(1)),
                Stage::Main(secs) if c.period > 0.0 => {
                    secs + if c.stones == 0 {
                        c.period
                    } else {
                        c.period / f64::from(c.stones)
                    }
                }
                Stage::Main(secs) => secs,
            };
            let p = plan(&c, l, empty).time.as_secs_f64();
            assert!(p <= have.max(FLOOR) + 1e-9, "{c:?} {l:?} {p} {have}");
            if have >= 0.5 {
                assert!(p <= have - 0.04, "{c:?} {l:?} {p} {have}");
            }
        }
    }
}
