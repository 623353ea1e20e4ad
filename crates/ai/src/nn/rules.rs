//! The rules as KataGo's networks know them (`cpp/game/rules.h`), KataGo's rule names
//! (`Rules::parseRules`, what KaTrain sends with `kata-set-rules`), and the nearest KataGo rules
//! for each of Tengen's rule sets.

use tengen_rules::{DeadStones, GameEnd, HandicapBonus, KoRule, Rules, Scoring, SuicideRule};

/// KataGo's ko rules (its "spight" rule is not offered: no name selects it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KataKo {
    /// Only the immediate recapture is banned.
    Simple,
    /// Positional superko.
    Positional,
    /// Situational superko.
    Situational,
}

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KataScoring {
    /// Stones and surrounded points.
    Area,
    /// Surrounded points and prisoners.
    Territory,
}

/// KataGo's "tax": points a group pays for its eyes (seki: none in seki; all: two per group).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KataTax {
    /// No tax.
    None,
    /// Points in seki are not counted.
    Seki,
    /// Two points a living group, as in ancient stone scoring.
    All,
}

/// KataGo's rules apart from komi (komi is the game's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KataRules {
    /// Repetition rule.
    pub ko: KataKo,
    /// Counting.
    pub scoring: KataScoring,
    /// Tax.
    pub tax: KataTax,
    /// Whether a move may take off two or more of one's own stones.
    pub multi_stone_suicide: bool,
    /// The AGA button: the first to pass gets half a point.
    pub button: bool,
    /// Points White gets for handicap stones.
    pub handicap_bonus: HandicapBonus,
    /// Whether a pass that leaves dead stones on the board is harmless (every area rule set
    /// but Tromp-Taylor): the net then does not see the game end after one pass.
    pub friendly_pass_ok: bool,
}

/// A rule name KataGo's `kata-set-rules` does not know either.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown rules {0:?}; known: chinese, chinese-ogs, chinese-kgs, japanese, korean, tromp-taylor, aga, bga, french, aga-button, new-zealand, goe, stone-scoring, ancient-territory")]
pub struct UnknownKataRules(pub String);

impl KataRules {
    /// Parses one of KataGo's rule names (case and `-`/`_`/space spellings as KataGo takes
    /// them). JSON rule objects are not taken.
    pub fn parse(name: &str) -> Result<KataRules, UnknownKataRules> {
        let key: String = name
            .trim()
            .to_ascii_lowercase()
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .collect();
        let chinese = KataRules {
            ko: KataKo::Simple,
            scoring: KataScoring::Area,
            tax: KataTax::None,
            multi_stone_suicide: false,
            button: false,
            handicap_bonus: HandicapBonus::N,
            friendly_pass_ok: true,
        };
        let japanese = KataRules {
            scoring: KataScoring::Territory,
            tax: KataTax::Seki,
            handicap_bonus: HandicapBonus::Zero,
            friendly_pass_ok: false,
            ..chinese
        };
        let aga = KataRules {
            ko: KataKo::Situational,
            handicap_bonus: HandicapBonus::NMinusOne,
            ..chinese
        };
        Ok(match key.as_str() {
            "japanese" | "korean" => japanese,
            "chinese" => chinese,
            "chineseogs" | "chinesekgs" => KataRules {
                ko: KataKo::Positional,
                ..chinese
            },
            "ancientarea" | "stonescoring" => KataRules {
                tax: KataTax::All,
                handicap_bonus: HandicapBonus::Zero,
                ..chinese
            },
            "ancientterritory" => KataRules {
                tax: KataTax::All,
                ..japanese
            },
            "agabutton" => KataRules {
                button: true,
                ..aga
            },
            "aga" | "bga" | "french" => aga,
            "nz" | "newzealand" => KataRules {
                multi_stone_suicide: true,
                handicap_bonus: HandicapBonus::Zero,
                ..aga
            },
            "tromptaylor" => KataRules {
                ko: KataKo::Positional,
                multi_stone_suicide: true,
                handicap_bonus: HandicapBonus::Zero,
                friendly_pass_ok: false,
                ..chinese
            },
            "goe" | "ing" => KataRules {
                ko: KataKo::Positional,
                multi_stone_suicide: true,
                handicap_bonus: HandicapBonus::Zero,
                ..chinese
            },
            _ => return Err(UnknownKataRules(name.to_string())),
        })
    }

    /// The nearest KataGo rules to a Tengen rule set, or `None` where the net does not apply
    /// (First Capture Go). Area plus prisoners (the WGA count) is told as area: the net has no
    /// input for prisoners. docs/engine.md has the table for every preset.
    pub fn nearest(rules: &Rules) -> Option<KataRules> {
        if rules.end == GameEnd::FirstCapture || rules.suicide == SuicideRule::SelfCaptureLoses {
            return None;
        }
        let area = rules.scoring != Scoring::Territory;
        Some(KataRules {
            ko: match rules.ko {
                KoRule::Simple => KataKo::Simple,
                KoRule::PositionalSuperko => KataKo::Positional,
                KoRule::SituationalSuperko => KataKo::Situational,
            },
            scoring: if area {
                KataScoring::Area
            } else {
                KataScoring::Territory
            },
            tax: if area { KataTax::None } else { KataTax::Seki },
            multi_stone_suicide: rules.suicide == SuicideRule::MultiStoneLegal,
            button: false,
            handicap_bonus: rules.handicap_bonus,
            friendly_pass_ok: area && rules.dead_stones == DeadStones::Agreed,
        })
    }

    /// `base` (komi, sizes, handicap limits kept) with what these rules decide: ko, suicide,
    /// counting, handicap bonus, and whether dead stones are removed. The game then refers
    /// moves as KataGo would.
    pub fn apply_to(&self, base: &Rules) -> Rules {
        Rules {
            ko: match self.ko {
                KataKo::Simple => KoRule::Simple,
                KataKo::Positional => KoRule::PositionalSuperko,
                KataKo::Situational => KoRule::SituationalSuperko,
            },
            suicide: if self.multi_stone_suicide {
                SuicideRule::MultiStoneLegal
            } else {
                SuicideRule::Illegal
            },
            scoring: match self.scoring {
                KataScoring::Area => Scoring::Area,
                KataScoring::Territory => Scoring::Territory,
            },
            handicap_bonus: self.handicap_bonus,
            dead_stones: if self.scoring == KataScoring::Area && !self.friendly_pass_ok {
                DeadStones::NoneRemoved
            } else {
                DeadStones::Agreed
            },
            end: GameEnd::TwoPasses,
            ..*base
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tengen_rules::Preset;

    #[test]
    fn katago_names_parse_as_katago_does() {
        assert_eq!(KataRules::parse("Chinese").unwrap().ko, KataKo::Simple);
        assert_eq!(
            KataRules::parse("chinese-ogs").unwrap().ko,
            KataKo::Positional
        );
        assert!(
            KataRules::parse("tromp_taylor")
                .unwrap()
                .multi_stone_suicide
        );
        assert!(KataRules::parse("aga-button").unwrap().button);
        assert_eq!(KataRules::parse("korean"), KataRules::parse("japanese"));
        assert_eq!(KataRules::parse("bga"), KataRules::parse("aga"));
        assert!(KataRules::parse("first-capture").is_err());
    }

    #[test]
    fn presets_map_to_their_katago_namesakes() {
        for (preset, name) in [
            (Preset::Chinese, "chinese"),
            (Preset::Japanese, "japanese"),
            (Preset::Korean, "korean"),
            (Preset::Aga, "aga"),
            (Preset::TrompTaylor, "tromp-taylor"),
            (Preset::Nz, "new-zealand"),
        ] {
            let nearest = KataRules::nearest(&preset.rules(19)).unwrap();
            assert_eq!(nearest, KataRules::parse(name).unwrap(), "{preset}");
        }
        assert_eq!(KataRules::nearest(&Preset::FirstCapture.rules(9)), None);
    }
}
