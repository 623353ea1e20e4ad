//! A lesson's words in the client's four languages. SGF has one comment property (`C`); the
//! lessons keep English there and the translations beside it in properties of their own
//! (`CKO`, `CJA`, `CZH`; likewise `GN` and `GNKO`, ...), so that one file holds one position
//! and every language's words about it.

use serde::Serialize;
use tengen_sgf::Node;

use crate::LessonError;

/// One text in every language (in alphabetical order, as the client reads them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Text {
    /// English, the reference.
    pub en: String,
    /// Japanese.
    pub ja: String,
    /// Korean.
    pub ko: String,
    /// Chinese (simplified).
    pub zh: String,
}

impl Text {
    /// The text of property `id` (and its translations) in `node`: `None` when the English is
    /// absent, an error when English is there and a translation is not (a lesson half
    /// translated would show English to a Korean learner without anyone noticing).
    pub fn read(node: &Node, id: &str, place: &str) -> Result<Option<Text>, LessonError> {
        let Some(en) = node.text(id) else {
            return Ok(None);
        };
        let other = |suffix: &str| {
            node.text(&format!("{id}{suffix}"))
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| LessonError::Untranslated(format!("{place}: {id}{suffix}")))
        };
        Ok(Some(Text {
            en: en.trim().to_string(),
            ko: other("KO")?.trim().to_string(),
            ja: other("JA")?.trim().to_string(),
            zh: other("ZH")?.trim().to_string(),
        }))
    }
}
