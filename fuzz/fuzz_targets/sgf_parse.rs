//! Any bytes: the SGF reader returns a collection or a typed error, never panics; what it
//! returns writes back to text that reads back to the same collection.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(c) = tengen_sgf::parse(data) {
        let text = tengen_sgf::write(&c);
        let again = tengen_sgf::parse_str(&text).expect("written SGF reads back");
        assert_eq!(again.games.len(), c.games.len());
    }
});
