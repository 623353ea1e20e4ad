//! Whole-round pairing against OpenGotha's own files: each round of each file paired again
//! from the rounds before it, among the players who played in it, and compared board by board
//! with the pairing the file records (organisers may have changed some by hand), and by what
//! a pairing is judged on: repeated games and games across score groups.

use std::collections::HashSet;

use tengen_tournament::h9::{self, Start, H9};
use tengen_tournament::pairing::history::main_scores;
use tengen_tournament::pairing::whole::{Main, Seeding};

fn read(name: &str) -> H9 {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).expect("test file");
    let text = String::from_utf8(bytes.clone())
        .unwrap_or_else(|_| bytes.iter().map(|&b| b as char).collect());
    h9::read(&text, Start::FromFile).expect("reads")
}

/// Over every round: boards the same as the file's, boards, and for ours and the file's
/// pairing the repeated games and the games across score groups.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    same: usize,
    boards: usize,
    repeats: [usize; 2],
    across: [usize; 2],
}

fn reproduce(h9: &H9, seeding: Seeding) -> Tally {
    let main = if h9.mcmahon() {
        let (bar, floor) = h9.bar_and_floor();
        Main::McMahon { bar, floor }
    } else {
        Main::Swiss
    };
    let mut t = Tally::default();
    let key = |a: usize, b: usize| (a.min(b), a.max(b));
    for round in 0..h9.event.rounds {
        let present = h9.event.present_in(round);
        let count = present.iter().filter(|&&p| p).count();
        if count < 2 {
            continue;
        }
        let pairing = h9.pair_round(round, main, seeding).expect("pairs");
        let paired = pairing.games.len() * 2 + usize::from(pairing.bye.is_some());
        assert_eq!(
            paired, count,
            "round {round}: everyone present plays or has the bye"
        );
        let before = h9.event.before(round);
        let met: HashSet<(usize, usize)> =
            before.games.iter().map(|g| key(g.white, g.black)).collect();
        let score = main_scores(&before, round, h9.mcmahon());
        let ours: Vec<(usize, usize)> = pairing.games.iter().map(|g| (g.white, g.black)).collect();
        let file: Vec<(usize, usize)> = h9
            .event
            .games
            .iter()
            .filter(|g| g.round == round)
            .map(|g| (g.white, g.black))
            .collect();
        for (side, games) in [&ours, &file].into_iter().enumerate() {
            t.repeats[side] += games
                .iter()
                .filter(|&&(a, b)| met.contains(&key(a, b)))
                .count();
            t.across[side] += games
                .iter()
                .filter(|&&(a, b)| score[a] / 2 != score[b] / 2)
                .count();
        }
        t.same += h9.same_boards(round, &pairing);
        t.boards += pairing.games.len();
    }
    t
}

const FILES: [&str; 8] = [
    "juvisy-2019.h9",
    "istanbul-2020-02.h9",
    "tournoi-chinois.h9",
    "opengotha/Championnat_Levallois_2018_-_Resultats.h9",
    "opengotha/TestPartEtLic.h9",
    "opengotha/Veterans.h9",
    "opengotha/Essai.h9",
    "opengotha/Test31C.h9",
];

fn report(name: &str, h9: &H9) {
    for seeding in [Seeding::SplitAndSlip, Seeding::SplitAndFold] {
        let t = reproduce(h9, seeding);
        eprintln!(
            "{name} ({seeding:?}): {} of {} boards as the file; repeats {} (file {}); across score groups {} (file {})",
            t.same, t.boards, t.repeats[0], t.repeats[1], t.across[0], t.across[1]
        );
        // Never a repeat the file's own pairing avoided.
        assert!(t.repeats[0] <= t.repeats[1], "{name}: {t:?}");
    }
}

#[test]
fn opengotha_files_are_paired_again_round_by_round() {
    for name in FILES {
        report(name, &read(name));
    }
}

#[test]
#[ignore = "594 players, 10 rounds: run in release (cargo test --release -p tengen-tournament --test h9_pairing -- --ignored --nocapture)"]
fn the_european_go_congress_2013_is_paired_again() {
    let h9 = read("egc2013.h9");
    let start = std::time::Instant::now();
    report("egc2013.h9", &h9);
    eprintln!("{:.2} s for 20 rounds", start.elapsed().as_secs_f64());
}

#[test]
fn a_header_asking_for_absurd_handicap_reductions_is_not_trusted() {
    let path = format!("{}/tests/data/juvisy-2019.h9", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(path).expect("test file");
    let text: String = bytes.iter().map(|&b| b as char).collect();
    assert!(text.contains("HA[h1]"));
    let told = |ha: &str| {
        let h9 = h9::read(&text.replace("HA[h1]", ha), Start::FromFile).expect("reads");
        let policy = h9.handicap().expect("the file's games have handicaps");
        // Every round pairs (no overflow in the handicap's arithmetic).
        let (bar, floor) = h9.bar_and_floor();
        for round in 1..h9.event.rounds {
            h9.pair_round(round, Main::McMahon { bar, floor }, Seeding::SplitAndSlip)
                .expect("pairs");
        }
        policy.reduction
    };
    assert_eq!(told("HA[h2]"), 2);
    for absurd in ["HA[h-2147483648]", "HA[h2147483647]", "HA[h10]", "HA[h-1]"] {
        assert_eq!(told(absurd), 0, "{absurd}");
    }
}
