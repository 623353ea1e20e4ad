//! [`super::Terms`]' typed fields as the text they have always been in JSON (the `games.terms`
//! column, every game's log, what clients are sent): `#[serde(with = ...)]` modules that write
//! a field as the server wrote it when it was a string, and read it back with `FromStr`.
//!
//! - `rules`: the preset's [`Preset::name`] (`japanese`, `tromp-taylor`), read by
//!   [`Preset`]'s `FromStr`.
//! - `komi`: [`Komi`]'s `Display` (`6.5`, `7`, `0.5`, `-3.5`), read by its `FromStr`.
//! - `game_type`: [`GameType::name`] (`ho_sun`, `jung_sun`, `handicap`), read by its `FromStr`.

use std::fmt::Display;
use std::str::FromStr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use tengen_rules::{Komi, Preset};

use crate::domain::game_type::GameType;

/// Reads a string and parses it, failing with `what` and the parse error.
fn parse<'de, D, T>(d: D, what: &str) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: Display,
{
    let s = String::deserialize(d)?;
    s.parse()
        .map_err(|e| D::Error::custom(format_args!("terms {what}: {e}")))
}

/// `rules` as the preset's name.
pub(super) mod preset {
    use serde::{Deserializer, Serializer};

    use super::Preset;

    pub fn serialize<S: Serializer>(p: &Preset, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(p.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Preset, D::Error> {
        super::parse(d, "rules")
    }
}

/// `komi` as written (`6.5`).
pub(super) mod komi {
    use serde::{Deserializer, Serializer};

    use super::Komi;

    pub fn serialize<S: Serializer>(k: &Komi, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&k.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Komi, D::Error> {
        super::parse(d, "komi")
    }
}

/// `game_type` as its name (`ho_sun`).
pub(super) mod game_type {
    use serde::{Deserializer, Serializer};

    use super::GameType;

    pub fn serialize<S: Serializer>(t: &GameType, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(t.name())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<GameType, D::Error> {
        super::parse(d, "game_type")
    }
}
