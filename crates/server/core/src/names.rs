//! Names that look alike are one name: `aIice` (capital i) cannot register beside `alice`,
//! nor `b0b` beside `bob` or `rnary` beside `mary`.
//!
//! [`name_key`] is Unicode's skeleton (UTS #39, its confusables table), folded to lower case and
//! skeletoned again, since folding can make new lookalikes (`RN` becomes `rn`, which looks like
//! `m`). The store keeps each account's key under a unique index; two names with one key
//! cannot both be taken. Case alone is told apart before, by the name's own unique index.

/// The key two names share when they look alike.
pub fn name_key(name: &str) -> String {
    // The skeleton before folding: `I` looks like `l`, but its lower case `i` does not.
    let folded: String = unicode_security::skeleton(name)
        .collect::<String>()
        .to_lowercase();
    unicode_security::skeleton(&folded).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lookalikes_share_a_key() {
        for (a, b) in [
            ("alice", "aIice"),
            ("alice", "a1ice"),
            ("bob", "b0b"),
            ("bob", "BOB"),
            ("mary", "rnary"),
            ("mary", "RNARY"),
            ("lan", "Ian"),
            // Cyrillic а and е, Greek ο.
            ("alice", "\u{430}lic\u{435}"),
            ("bob", "b\u{3bf}b"),
        ] {
            assert_eq!(name_key(a), name_key(b), "{a} {b}");
        }
    }

    #[test]
    fn different_names_keep_different_keys() {
        for (a, b) in [
            ("alice", "alicia"),
            ("bob", "rob"),
            ("ann", "anna"),
            ("ann", "arm"),
        ] {
            assert_ne!(name_key(a), name_key(b), "{a} {b}");
        }
    }
}
