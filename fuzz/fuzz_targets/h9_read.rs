//! Any bytes as an h9 results file: the reader returns an event or a typed error, never
//! panics; an event read is printed back, and the print read again (when it reads: a name
//! made only of digits, say, is taken for the place) holds the same players and rounds; each
//! of its rounds (small events only: the whole-round pairing is O(n³)) is paired again.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_tournament::h9::{self, Start};
use tengen_tournament::pairing::whole::{Main, Seeding};

fuzz_target!(|data: &[u8]| {
    let text: String = data.iter().map(|&b| char::from(b)).collect();
    let Ok(read) = h9::read(&text, Start::FromFile) else {
        return;
    };
    let printed = h9::write(&read);
    if let Ok(again) = h9::read(&printed, Start::FromFile) {
        assert_eq!(again.event.entrants.len(), read.event.entrants.len());
        assert_eq!(again.event.rounds, read.event.rounds);
    }
    if read.event.entrants.len() <= 40 && read.event.rounds <= 6 {
        let main = if read.mcmahon() {
            let (bar, floor) = read.bar_and_floor();
            Main::McMahon { bar, floor }
        } else {
            Main::Swiss
        };
        for round in 0..read.event.rounds {
            let _ = read.pair_round(round, main, Seeding::SplitAndFold);
        }
    }
});
