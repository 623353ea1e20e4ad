//! The rule presets as data for the rules page: each parameter as a word the client puts into
//! plain sentences, and the seeds each preset implements (docs/rules.md quotes the passages).

use serde_json::{json, Value};
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

/// Every preset with its parameters at its default board size.
pub fn presets() -> Value {
    let list: Vec<Value> = Preset::ALL.iter().map(|&p| preset(p)).collect();
    json!({ "presets": list })
}

fn preset(p: Preset) -> Value {
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
    json!({
        "name": p.name(),
        "seeds": seeds(p),
        "size": p.default_size(),
        "sizes": [r.min_size, r.max_size],
        "komi": r.komi.to_string(),
        "ko": ko,
        "repetition": repetition,
        "suicide": suicide,
        "scoring": scoring,
        "end": if r.end == GameEnd::FirstCapture { "first_capture" } else { "two_passes" },
        "dead_stones": if r.dead_stones == DeadStones::Agreed { "agreed" } else { "none_removed" },
        "handicap": [r.min_handicap, r.max_handicap],
        "handicap_placement": if r.handicap_placement == HandicapPlacement::Free { "free" } else { "fixed" },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_listed_with_its_seed_and_first_capture_ends_at_a_capture() {
        let all = presets();
        let list = all["presets"].as_array().expect("a list");
        assert_eq!(list.len(), Preset::ALL.len());
        let fc = list
            .iter()
            .find(|p| p["name"] == "first-capture")
            .expect("first capture");
        assert_eq!(fc["end"], "first_capture");
        assert_eq!(fc["suicide"], "self_capture_loses");
        assert_eq!(fc["seeds"], json!(["004"]));
        let wga = list.iter().find(|p| p["name"] == "wga").expect("wga");
        assert_eq!(wga["scoring"], "area_plus_prisoners");
        assert_eq!(wga["komi"], "7");
    }
}
