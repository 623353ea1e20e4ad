//! Glicko-2 ratings beside the seeds' promotion points, and the rank they show.
//!
//! The rating system is Mark Glickman's Glicko-2 ("Example of the Glicko-2 system", 2013), each
//! game its own rating period, as OGS rates (online-go.com, `goratings`). The rank a rating shows
//! follows OGS's published mapping `rank = 23.15 * ln(rating / 525)`, where rank 0 is 30 kyu,
//! 29 is 1 kyu and 30 is 1 dan (the same levels as [`Rank::level`]): 1500 is about 6 kyu, 2000
//! about 1 dan. A rating whose deviation is at least [`PROVISIONAL_DEVIATION`] shows its rank
//! as provisional (`3k?`).
//!
//! A handicap game is rated as an even game between adjusted players: Black's head start (the
//! handicap stones and the komi against a fair komi, in points) is turned into ranks, and each
//! player is rated against the other's rating moved by that many ranks (OGS's
//! `get_handicap_adjustment`, with its constants: fair komi 6 under territory scoring and 7
//! under area scoring, a free move worth 12 points, one rank per free move on 19x19 and six on
//! 9x9).

use std::f64::consts::PI;

use super::rank::Rank;

/// Glicko-2's scale factor between the rating scale and its internal one.
const SCALE: f64 = 173.7178;
/// The system constant: how much the volatility may change (Glickman suggests 0.3 to 1.2).
pub const TAU: f64 = 0.5;
/// Convergence of the volatility's iteration.
const EPSILON: f64 = 0.000_001;

/// A player's deviation when nothing is known yet (Glickman's default).
pub const START_DEVIATION: f64 = 350.0;
/// A new player's volatility (Glickman's default).
pub const START_VOLATILITY: f64 = 0.06;
/// At or above this deviation the rank is shown as provisional (OGS's threshold).
pub const PROVISIONAL_DEVIATION: f64 = 160.0;
/// The deviation never grows beyond the starting one.
const MAX_DEVIATION: f64 = START_DEVIATION;
/// Nor shrinks below this: a rating always keeps moving a little.
const MIN_DEVIATION: f64 = 30.0;

/// `A` and `C` of the mapping `rank = C * ln(rating / A)`.
const RANK_A: f64 = 525.0;
const RANK_C: f64 = 23.15;

/// A player's Glicko-2 rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating, 1500-centred.
    pub rating: f64,
    /// Its deviation (RD).
    pub deviation: f64,
    /// Its volatility (sigma).
    pub volatility: f64,
}

/// A game's result for one player: 1 a win, 0.5 a draw, 0 a loss.
pub type Score = f64;

/// The rating at a fractional rank level (0 = 30 kyu, 30 = 1 dan).
pub fn rating_of_level(level: f64) -> f64 {
    RANK_A * (level / RANK_C).exp()
}

/// The fractional rank level of a rating.
pub fn level_of_rating(rating: f64) -> f64 {
    RANK_C * (rating.max(1.0) / RANK_A).ln()
}

impl Rating {
    /// The first rating of a player who declared `rank`: the middle of that rank's band, with
    /// the starting deviation (so the first games move it a lot, and it shows as provisional).
    pub fn seeded(rank: Rank) -> Rating {
        Rating {
            rating: rating_of_level(rank.level() as f64 + 0.5),
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }

    /// The amateur rank this rating shows (30 kyu to 9 dan).
    pub fn rank(&self) -> Rank {
        let level = level_of_rating(self.rating).floor().clamp(0.0, 38.0) as i32;
        if level < 30 {
            Rank::Kyu((30 - level) as u8)
        } else {
            Rank::Dan((level - 29) as u8)
        }
    }

    /// Whether the deviation is still too high to trust the rank.
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    /// The rank as shown: `3k`, or `3k?` while provisional.
    pub fn shown_rank(&self) -> String {
        let q = if self.provisional() { "?" } else { "" };
        format!("{}{q}", self.rank())
    }

    /// The rating after one rating period against `games` (each an opponent's rating and this
    /// player's score), by Glicko-2's steps 2 to 8. Without games only the deviation grows.
    pub fn after(&self, games: &[(Rating, Score)]) -> Rating {
        let mu = (self.rating - 1500.0) / SCALE;
        let phi = self.deviation / SCALE;
        if games.is_empty() {
            let phi = (phi * phi + self.volatility * self.volatility).sqrt();
            return Rating {
                deviation: (phi * SCALE).min(MAX_DEVIATION),
                ..*self
            };
        }
        // Steps 3 and 4: the estimated variance and improvement.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for (o, s) in games {
            let mu_j = (o.rating - 1500.0) / SCALE;
            let g = g(o.deviation / SCALE);
            let e = expected(mu, mu_j, g);
            inv_v += g * g * e * (1.0 - e);
            sum += g * (s - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility.
        let sigma = volatility(phi, v, delta, self.volatility);
        // Steps 6 to 8.
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Rating {
            rating: 1500.0 + SCALE * mu_new,
            deviation: (SCALE * phi_new).clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: sigma,
        }
    }

    /// This rating moved by `ranks` rank levels (a handicap's head start); the deviation stays.
    pub fn moved_by_ranks(&self, ranks: f64) -> Rating {
        Rating {
            rating: rating_of_level(level_of_rating(self.rating) + ranks),
            ..*self
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, g: f64) -> f64 {
    1.0 / (1.0 + (-g * (mu - mu_j)).exp())
}

/// Step 5: the new volatility, by the Illinois algorithm as Glickman gives it.
fn volatility(phi: f64, v: f64, delta: f64, sigma: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let (d2, p2) = (delta * delta, phi * phi);
    let f = |x: f64| {
        let ex = x.exp();
        ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex).powi(2)) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if d2 > p2 + v {
        (d2 - p2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    // The iteration converges in a handful of steps; the bound only guards against NaN input.
    for _ in 0..100 {
        if (big_b - big_a).abs() <= EPSILON {
            break;
        }
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    (big_a / 2.0).exp()
}

/// What a game's set-up gives Black, for rating it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeadStart {
    /// Board size.
    pub size: u8,
    /// Handicap stones (0 or 1: none).
    pub handicap: u8,
    /// Komi, with any points White receives for the handicap stones under the rules.
    pub komi: f64,
    /// Whether stones count (area scoring): a stone's value includes its own point.
    pub area: bool,
}

impl HeadStart {
    /// Black's head start in rank levels (0 in an even game with fair komi; positive when Black
    /// is given more, negative when White is).
    pub fn ranks(&self) -> f64 {
        let area_bonus = if self.area { 1.0 } else { 0.0 };
        let fair_komi_territory = 6.0;
        let fair_komi = fair_komi_territory + area_bonus;
        let move_value_territory = 2.0 * fair_komi_territory;
        let move_value = move_value_territory + area_bonus;
        let extra_moves = self.handicap.saturating_sub(1) as f64;
        let points = fair_komi - self.komi + move_value * extra_moves;
        // One rank is a free move on 19x19; on smaller boards a move is worth more ranks.
        let ranks_per_move = match self.size {
            0..=9 => 6.0,
            10..=13 => 3.0,
            _ => 1.0,
        };
        points * ranks_per_move / move_value_territory
    }
}

/// Both players' ratings after a game: `black` and `white` before it, Black's `score` (1, 0.5
/// or 0), and Black's head start in rank levels.
pub fn rate_game(black: Rating, white: Rating, black_score: Score, head_start: f64) -> [Rating; 2] {
    // Each is rated against the other as the game made them: White against a Black moved up by
    // the head start, Black against a White moved down by it.
    let black_after = black.after(&[(white.moved_by_ranks(-head_start), black_score)]);
    let white_after = white.after(&[(black.moved_by_ranks(head_start), 1.0 - black_score)]);
    [black_after, white_after]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system"): a 1500 player (RD 200,
    /// sigma 0.06, tau 0.5) beats a 1400 (RD 30), loses to a 1550 (RD 100) and a 1700 (RD 300).
    #[test]
    fn glickmans_worked_example() {
        let player = r(1500.0, 200.0);
        let games = [
            (r(1400.0, 30.0), 1.0),
            (r(1550.0, 100.0), 0.0),
            (r(1700.0, 300.0), 0.0),
        ];
        let after = player.after(&games);
        let mu = (after.rating - 1500.0) / SCALE;
        let phi = after.deviation / SCALE;
        // The paper's figures: mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, r' = 1464.06,
        // RD' = 151.52 (the paper rounds mu' before scaling: 1464.05 unrounded).
        assert!((mu - -0.2069).abs() < 0.00005, "mu' {mu}");
        assert!((phi - 0.8722).abs() < 0.00005, "phi' {phi}");
        assert!(
            (after.volatility - 0.05999).abs() < 0.00005,
            "{}",
            after.volatility
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "r' {}", after.rating);
        assert!(
            (after.deviation - 151.52).abs() < 0.005,
            "RD' {}",
            after.deviation
        );
    }

    #[test]
    fn intermediate_quantities_of_the_example() {
        // v = 1.7785 and delta = -0.4834 in the paper, which computes them from g and E rounded
        // to four places; unrounded they are 1.7790 and -0.4840.
        let mu = 0.0;
        let opponents = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let (mut inv_v, mut sum) = (0.0, 0.0);
        for (rating, dev, s) in opponents {
            let gj = g(dev / SCALE);
            let e = expected(mu, (rating - 1500.0) / SCALE, gj);
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (s - e);
        }
        let v = 1.0 / inv_v;
        assert!((v - 1.7785).abs() < 0.001, "v {v}");
        assert!((v * sum - -0.4834).abs() < 0.001, "delta {}", v * sum);
    }

    #[test]
    fn ranks_follow_the_ogs_scale() {
        assert_eq!(r(1500.0, 50.0).rank(), Rank::Kyu(6));
        assert_eq!(r(1900.0, 50.0).rank(), Rank::Kyu(1));
        assert_eq!(r(2000.0, 50.0).rank(), Rank::Dan(1));
        assert_eq!(r(rating_of_level(30.0) + 0.01, 50.0).rank(), Rank::Dan(1));
        assert_eq!(r(100.0, 50.0).rank(), Rank::Kyu(30));
        assert_eq!(r(9000.0, 50.0).rank(), Rank::Dan(9));
        assert_eq!(r(1500.0, 200.0).shown_rank(), "6k?");
        assert_eq!(r(1500.0, 100.0).shown_rank(), "6k");
        // A declared rank seeds a rating inside that rank's band.
        for rank in [
            Rank::Kyu(30),
            Rank::Kyu(18),
            Rank::Kyu(1),
            Rank::Dan(1),
            Rank::Dan(9),
        ] {
            assert_eq!(Rating::seeded(rank).rank(), rank);
            assert!(Rating::seeded(rank).provisional());
        }
    }

    #[test]
    fn ranks_move_with_wins_and_losses() {
        let mut a = Rating::seeded(Rank::Kyu(10));
        let b = Rating::seeded(Rank::Kyu(10));
        let start = a.rating;
        for _ in 0..5 {
            a = rate_game(a, b, 1.0, 0.0)[0];
        }
        assert!(a.rating > start + 100.0, "{}", a.rating);
        assert!(a.rank().level() > Rank::Kyu(10).level());
        assert!(a.deviation < START_DEVIATION);
        let [w, l] = rate_game(b, b, 1.0, 0.0);
        assert!(w.rating > b.rating + 100.0 && l.rating < b.rating - 100.0);
        assert!(
            ((w.rating - b.rating) + (l.rating - b.rating)).abs() < 1e-9,
            "zero sum between equals"
        );
        let [d1, d2] = rate_game(b, b, 0.5, 0.0);
        assert!((d1.rating - b.rating).abs() < 1e-9 && (d2.rating - b.rating).abs() < 1e-9);
    }

    #[test]
    fn handicap_head_starts() {
        let even = |komi, area| {
            HeadStart {
                size: 19,
                handicap: 0,
                komi,
                area,
            }
            .ranks()
        };
        assert!(even(6.0, false).abs() < 1e-12);
        assert!(even(7.0, true).abs() < 1e-12);
        assert!(
            (even(0.5, false) - 5.5 / 12.0).abs() < 1e-12,
            "no komi: about half a rank"
        );
        let h = |stones, size| {
            HeadStart {
                size,
                handicap: stones,
                komi: 0.5,
                area: false,
            }
            .ranks()
        };
        // Each stone after the first is a rank on 19x19; 9x9 counts six times as much.
        assert!((h(4, 19) - h(3, 19) - 1.0).abs() < 1e-12);
        assert!((h(3, 9) - 6.0 * h(3, 19)).abs() < 1e-12);
        // White wins and loses rating as the head start says.
        let b = Rating::seeded(Rank::Kyu(5));
        let w = Rating::seeded(Rank::Kyu(2));
        let even_loss = rate_game(b, w, 1.0, 0.0)[1];
        let handicap_win = rate_game(b, w, 0.0, h(3, 19))[1];
        let handicap_loss = rate_game(b, w, 1.0, h(3, 19))[1];
        assert!(handicap_win.rating > w.rating);
        assert!(handicap_loss.rating < w.rating);
        // Losing while giving stones costs White less than losing an even game.
        assert!(w.rating - handicap_loss.rating < w.rating - even_loss.rating);
    }
}
