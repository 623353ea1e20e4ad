//! How long to think: a budget per move from the game's clock, as GTP controllers announce it
//! (`time_settings`, `kgs-time_settings`, `time_left`).
//!
//! Main time is spread over the moves likely to come (half the empty points, at least 20), and a
//! period of byo-yomi or a Canadian period is used to its safe part; a margin for the controller's
//! and the network's lag is kept back, so the engine never loses on time.

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

/// Seconds kept back for lag on every move.
pub const MARGIN: f64 = 0.25;

/// The time to spend on a move with `empty` empty points on the board.
pub fn budget(clock: &Clock, left: Option<Left>, empty: usize) -> Duration {
    let moves_left = (empty / 2).max(20) as f64;
    let period_share = if clock.stones > 0 {
        clock.period / clock.stones as f64
    } else {
        clock.period
    };
    let japanese = clock.period > 0.0 && clock.stones == 0 && clock.periods > 0;
    let secs = match left {
        // In Japanese byo-yomi KGS sends the periods left where the stones go: the period's
        // seconds are this move's.
        Some(l) if l.stones > 0 && japanese => l.seconds.min(clock.period),
        // In a Canadian period: its time over its stones.
        Some(l) if l.stones > 0 => l.seconds / l.stones as f64,
        // In main time (or with no overtime at all).
        Some(l) => {
            let main_share = l.seconds / moves_left;
            if clock.period > 0.0 && l.seconds <= 0.0 {
                period_share
            } else {
                main_share
                    + if clock.period > 0.0 {
                        0.8 * period_share
                    } else {
                        0.0
                    }
            }
        }
        None => clock.main / moves_left + period_share,
    };
    // Japanese byo-yomi: never more than the period itself.
    let secs = if clock.period > 0.0 && clock.stones == 0 && left.is_some_and(|l| l.seconds <= 0.0)
    {
        secs.min(clock.period)
    } else {
        secs
    };
    Duration::from_secs_f64((secs - MARGIN).max(0.05))
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
        };
        assert_eq!(
            budget(&canadian, left(300.0, 25), 200),
            Duration::from_secs_f64(11.75)
        );
    }
}
