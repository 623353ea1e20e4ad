//! Tournaments for Tengen: pairing, standings and results files. Pure: no I/O, no clock, and no
//! randomness but the seed it is given.
//!
//! The reference for every number here is OpenGotha (github lucvannier/opengotha, GPL; its help
//! pages on placement and pairing, and `Tournament.fillBaseScoringInfoIfNecessary`): a criterion
//! computed by Tengen must print the same value OpenGotha prints for the same event.
//!
//! Layout:
//! - [`rank`]: ranks as tournaments number them (30k = -30 ... 1d = 0 ... 9d = 8).
//! - [`standings`]: an event's results, every placement criterion, the order and shared places.
//! - [`h9`]: the EGF h9 results file, read as OpenGotha writes it and written back.
//! - [`pairing`]: pairing a round (McMahon, Swiss, round robin, knockout) and the ladder.

pub mod h9;
pub mod pairing;
pub mod rank;
pub mod standings;

pub use rank::Rank;
