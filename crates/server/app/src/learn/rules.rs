//! The rule presets as data for the rules page: each parameter as a word the client puts into
//! plain sentences, and the seeds each preset implements (docs/rules.md quotes the passages).

use serde::Serialize;
use tengen_rules::{
    DeadStones, GameEnd, HandicapPlacement, KoRule, Preset, Repetition, Scoring, SuicideRule,
};

/// The seed documents behind a preset (`../shared/seeds/NNN_*.txt`); none for the rule sets
/// from outside the seeds.
pub fn seeds(p: Preset) -> &'static [&'static str] {
    match p {
        Preset::Wga => &["000"],
        Preset::Chinese | Preset::Japanese => &["001", "003"],
        Preset::Korean => &["002"],
        Preset::Igz => &["003"],
        Preset::Arena => &["001"],
        Preset::Aga | Preset::FirstCapture => &["004"],
        Preset::TrompTaylor | Preset::Nz => &[],
    }
}

// The answers' fields are in alphabetical order, as the `json!` objects they replace wrote
// them: the wire stays byte for byte the same (see `crate::wire`).

/// Every preset, for the rules page.
#[derive(Debug, Serialize)]
pub struct Presets {
    /// In [`Preset::ALL`]'s order.
    pub presets: Vec<PresetView>,
}

/// One preset's parameters, each a word the client puts into sentences.
#[derive(Debug, Serialize)]
pub struct PresetView {
    /// `agreed` or `none_removed`.
    pub dead_stones: &'static str,
    /// The rules that need a picture, played on the board by this preset's rules.
    pub diagrams: Vec<super::diagrams::Diagram>,
    /// `first_capture` or `two_passes`.
    pub end: &'static str,
    /// The fewest and most handicap stones.
    pub handicap: (u8, u8),
    /// `free` or `fixed`.
    pub handicap_placement: &'static str,
    /// `simple`, `positional_superko` or `situational_superko`.
    pub ko: &'static str,
    /// At the default size, as the rules write it.
    pub komi: String,
    /// The preset's name (`japanese`).
    pub name: &'static str,
    /// `nothing`, `no_result` or `draw`.
    pub repetition: &'static str,
    /// `area`, `territory` or `area_plus_prisoners`.
    pub scoring: &'static str,
    /// The seed documents behind it.
    pub seeds: &'static [&'static str],
    /// The default board size.
    pub size: u8,
    /// The smallest and largest board.
    pub sizes: (u8, u8),
    /// `illegal`, `multi_stone_legal` or `self_capture_loses`.
    pub suicide: &'static str,
}

/// Every preset with its parameters at its default board size.
pub fn presets() -> Presets {
    Presets {
        presets: Preset::ALL.iter().map(|&p| preset(p)).collect(),
    }
}

fn preset(p: Preset) -> PresetView {
    let r = p.rules(p.default_size());
    let ko = match r.ko {
        KoRule::Simple => "simple",
        KoRule::PositionalSuperko => "positional_superko",
        KoRule::SituationalSuperko => "situational_superko",
    };
    let suicide = match r.suicide {
        SuicideRule::Illegal => "illegal",
        SuicideRule::MultiStoneLegal => "multi_stone_legal",
        SuicideRule::SelfCaptureLoses => "self_capture_loses",
    };
    let scoring = match r.scoring {
        Scoring::Area => "area",
        Scoring::Territory => "territory",
        Scoring::AreaPlusPrisoners => "area_plus_prisoners",
    };
    let repetition = match r.repetition {
        Repetition::Nothing => "nothing",
        Repetition::NoResult => "no_result",
        Repetition::Draw => "draw",
    };
    PresetView {
        dead_stones: if r.dead_stones == DeadStones::Agreed {
            "agreed"
        } else {
            "none_removed"
        },
        diagrams: super::diagrams::diagrams(p),
        end: if r.end == GameEnd::FirstCapture {
            "first_capture"
        } else {
            "two_passes"
        },
        handicap: (r.min_handicap, r.max_handicap),
        handicap_placement: if r.handicap_placement == HandicapPlacement::Free {
            "free"
        } else {
            "fixed"
        },
        ko,
        komi: r.komi.to_string(),
        name: p.name(),
        repetition,
        scoring,
        seeds: seeds(p),
        size: p.default_size(),
        sizes: (r.min_size, r.max_size),
        suicide,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_listed_with_its_seed_and_first_capture_ends_at_a_capture() {
        let list = presets().presets;
        assert_eq!(list.len(), Preset::ALL.len());
        let fc = list
            .iter()
            .find(|p| p.name == "first-capture")
            .expect("first capture");
        assert_eq!(fc.end, "first_capture");
        assert_eq!(fc.suicide, "self_capture_loses");
        assert_eq!(fc.seeds, ["004"]);
        let wga = list.iter().find(|p| p.name == "wga").expect("wga");
        assert_eq!(wga.scoring, "area_plus_prisoners");
        assert_eq!(wga.komi, "7");
    }
}
