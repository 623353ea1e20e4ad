//! The rules of the server itself, from seed 002 (the Black&White server): ranks, promotion
//! points, game types, colours, komi and handicap, and the time systems; beside them the Glicko-2
//! ratings players of other servers expect. Pure: no I/O, no clock.

pub mod clock;
pub mod game_type;
pub mod glicko;
pub mod promotion;
pub mod rank;
