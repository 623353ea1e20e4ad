//! The estimator: certain stones, seki, doubt said out loud, every rule set, determinism; and
//! the OGS score-estimator positions of `../shared/data` (ignored: outside the project).

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use tengen_ai::estimate::{count_estimate, estimate, estimate_with, Settings, Status};
use tengen_rules::coord::gtp::parse_point;
use tengen_rules::{Board, Color, Game, Point, PointSet, Preset};

fn game(diagram: &str, to_move: Color, preset: Preset) -> Game {
    let b: Board = diagram.parse().unwrap();
    let size = b.size();
    Game::from_board(b, to_move, preset.rules(size)).unwrap()
}

fn pt(size: u8, s: &str) -> Point {
    parse_point(size, s).unwrap()
}

/// Black has the left, White the right; a lone White stone sits in Black's area.
const WALLS: &str = "
    . . . X O . . . .
    . O . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .";

#[test]
fn a_lone_stone_in_the_opponents_area_is_dead_and_the_winner_is_sure() {
    let g = game(WALLS, Color::Black, Preset::Japanese);
    let e = estimate(&g);
    let mut want = PointSet::new();
    want.insert(pt(9, "B8"));
    assert_eq!(e.dead, want);
    // In an area this open the playouts let a lone stone live now and then, so the estimator
    // may doubt the stone itself, but not the walls, and not the winner.
    assert!(e.group_at(pt(9, "D5")).unwrap().sure);
    assert!(e.group_at(pt(9, "E5")).unwrap().sure);
    assert!(e.sure_dead().iter().all(|p| e.dead.contains(p)));
    assert!(e.winner_sure());
    assert!(e.lead_range.0 <= e.lead && e.lead <= e.lead_range.1);
    // Japanese: Black 27 points of territory (B8 included); White 36, 1 prisoner and 6.5
    // komi.
    assert_eq!(e.score.black.territory, 27);
    assert_eq!(e.score.black.prisoners, 1);
    assert_eq!(e.score.white.territory, 36);
    assert_eq!(e.result().to_string(), "W+14.5");
    assert!(e.owner(pt(9, "A1")) > 0.5 && e.owner(pt(9, "J9")) < -0.5);
    assert!(
        e.owner(pt(9, "B8")) > 0.0,
        "a dead stone belongs to the area around it"
    );
}

#[test]
fn the_same_position_gives_the_same_estimate() {
    let g = game(
        "
        . X . X O . . O .
        X X X X O . O . O
        . . X O O O . O .
        X X X X O . O O O
        . O . X O . . . .
        . . . X O O . X .
        X X X X X O . . .
        . . . . X O O O O
        . . . . X O . . .",
        Color::White,
        Preset::Chinese,
    );
    let a = estimate(&g);
    let b = estimate(&g);
    assert_eq!(a.groups, b.groups);
    assert_eq!(a.lead, b.lead);
    assert_eq!(a.lead_range, b.lead_range);
    for p in g.board().points() {
        assert_eq!(a.owner(p), b.owner(p));
    }
}

#[test]
fn pass_alive_groups_are_certain_without_a_search() {
    // Both sides pass-alive: nothing is left to search, and the count is exact.
    let g = game(
        "
        . X . X O . O . O
        X X X X O O O O O
        . X . X O . O . O
        X X X X O O O O O
        . . . X O . . . .
        X X X X O O O O O
        . X . X O . O . O
        X X X X O O O O O
        . X . X O . O . O",
        Color::Black,
        Preset::Chinese,
    );
    let e = estimate_with(
        &g,
        &Settings {
            playouts: 1,
            seed: 9,
            network: true,
            visits: 0,
        },
    );
    assert!(e.groups.iter().all(|g| g.status == Status::Alive && g.sure));
    assert!(e.groups.iter().all(|g| g.confidence == 1.0));
    assert!(e.dead.is_empty());
    assert_eq!(e.owner(pt(9, "A1")), 1.0);
    assert_eq!(e.owner(pt(9, "J1")), -1.0);
    // Black's area is the four columns on the left, White's the five on the right.
    assert_eq!(e.score.black.stones + e.score.black.territory, 36);
    assert_eq!(e.result().to_string(), "W+16.5");
}

/// Black's chain (eye at A8) and White's inner chain (eye at E8) share the liberty C8: whoever
/// fills it is captured next move, and neither can fill the other's eye. Seki (GNU Go 3.8
/// agrees); White's outer wall owns the rest of the board. (The rules crate's seki diagram.)
const SEKI: &str = "
    . X . O . O X O
    X X X O O O X O
    O O X X X X X O
    . O O O O O O O
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .
    . . . . . . . .";

#[test]
fn seki_is_called_seki_and_its_points_count_for_nobody_under_japanese_rules() {
    let g = game(SEKI, Color::Black, Preset::Japanese);
    let e = estimate(&g);
    for stone in ["B8", "G6", "D8", "F7"] {
        let group = e.group_at(pt(8, stone)).unwrap();
        assert_eq!(group.status, Status::Seki, "{stone}: {group:?}");
        assert!(group.sure, "{stone}: {group:?}");
    }
    assert_eq!(e.group_at(pt(8, "H8")).unwrap().status, Status::Alive);
    assert!(e.dead.is_empty());
    assert_eq!(e.stones(Status::Seki).len(), 16);
    // White's territory: A5 and the four bottom rows; the eyes in seki and the shared point
    // count for nobody.
    assert_eq!(e.score.black.territory, 0);
    assert_eq!(e.score.white.territory, 33);
    assert_eq!(e.score.seki.len(), 2);
    assert_eq!(e.result().to_string(), "W+39.5");
    // Under area counting the stones in seki and their eyes count for their owners.
    let area = estimate(&game(SEKI, Color::Black, Preset::Chinese));
    assert_eq!(area.stones(Status::Seki).len(), 16);
    assert_eq!(
        (area.score.black.stones, area.score.black.territory),
        (11, 1)
    );
}

/// Black's four stones at the top left and White's six around them share B9 and B8, and
/// whoever fills either is captured, which looks like a seki. It is not: Black can fill B9
/// and let White capture five stones, and the eye space White gets is a dead shape with
/// Black's wall around it. White's six are dead (GNU Go 3.8 says so too: `final_status_list
/// dead`, B+74.5 under its Chinese count); the playouts, which never sacrifice, see a seki.
const FALSE_SEKI: &str = "
    X . O X . . . . .
    X . O X . . . . .
    X X O X . . . . .
    O O O X . . . . .
    X X X X . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

#[test]
fn a_false_seki_is_read_out() {
    let e = estimate(&game(FALSE_SEKI, Color::White, Preset::Japanese));
    let white = e.group_at(pt(9, "C9")).unwrap();
    assert_eq!(
        (white.status, white.sure),
        (Status::Dead, true),
        "{white:?}"
    );
    assert_eq!(e.dead.len(), 6);
    assert!(e.stones(Status::Seki).is_empty());
    assert!(e.winner_sure());
}

/// A Black stone at E5 in atari, whose only liberty E6 is walled in by Black: White taking it
/// would be a ko that Black retakes or closes by connecting. Counted alive, as players do.
const KO_CUT: &str = "
    . . . . X O . . .
    . . . . X O . . .
    . . . X . X O . .
    . . . X X O O . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .";

#[test]
fn a_stone_that_only_a_ko_can_take_is_alive() {
    let e = estimate(&game(KO_CUT, Color::White, Preset::Japanese));
    let cut = e.group_at(pt(9, "F7")).unwrap();
    assert_eq!(cut.status, Status::Alive, "{cut:?}");
    assert!(e.dead.is_empty(), "{:?}", e.dead);
}

#[test]
fn tromp_taylor_removes_nothing_and_is_sure() {
    let g = game(WALLS, Color::Black, Preset::TrompTaylor);
    let e = estimate(&g);
    assert!(e.dead.is_empty());
    assert!(e.unsure.is_empty());
    assert!(e.groups.iter().all(|g| g.status == Status::Alive && g.sure));
    assert_eq!(e.score.black.stones, 9);
    assert_eq!(e.score.white.stones, 10);
}

#[test]
fn a_group_that_lives_or_dies_by_who_plays_first_is_unsure() {
    // White's corner group at the top right has a straight three of eye space and nothing
    // else: whoever plays at H9 first decides it, so the estimator must not claim to know.
    let g = game(
        "
        . . . . X O . . .
        . . . . X O O O O
        . . . . X X X X X
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
        Color::Black,
        Preset::Japanese,
    );
    let e = estimate(&g);
    let white = e.group_at(pt(9, "F9")).unwrap();
    assert_eq!(white.color, Color::White);
    assert!(!white.sure, "{white:?}");
    assert!(e.unsure.contains(pt(9, "F9")));
    assert!(e.lead_range.0 < e.lead_range.1);
}

/// Issue 29 item 3's shape: a Black wall from edge to edge with the 27 points of three columns
/// behind it, White's wall facing it with the rest. Not pass-alive (its area is one region
/// most of whose points are not its liberties), so it is judged, and nobody would call it
/// anything but alive.
const WALL_27: &str = "
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .
    . . . X O . . . .";

#[test]
fn a_wall_with_27_points_behind_it_is_surely_alive() {
    for preset in [Preset::Japanese, Preset::Chinese, Preset::Korean] {
        let e = estimate(&game(WALL_27, Color::Black, preset));
        let wall = e.group_at(pt(9, "D5")).unwrap();
        assert_eq!((wall.status, wall.sure), (Status::Alive, true), "{wall:?}");
        assert!(e.unsure.is_empty(), "{preset:?}: {:?}", e.unsure);
        assert!(e.owner(pt(9, "A5")) > 0.5, "{}", e.owner(pt(9, "A5")));
        assert!(e.winner_sure());
    }
}

/// Two White stones inside the wall's 27 points, with no room to live: dead, and surely so.
#[test]
fn an_invasion_without_room_to_live_is_dead() {
    let g = game(
        "
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . O . X O . . . .
        . O . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .
        . . . X O . . . .",
        Color::Black,
        Preset::Japanese,
    );
    let e = estimate(&g);
    let invader = e.group_at(pt(9, "B5")).unwrap();
    assert_eq!(
        (invader.status, invader.sure),
        (Status::Dead, true),
        "{invader:?}"
    );
    assert_eq!(e.dead.len(), 2);
    // Japanese counting: the 27 points behind the wall (the dead stones' included) are Black's
    // territory, and the dead stones Black's prisoners.
    assert_eq!(e.score.black.territory, 27);
    assert_eq!(e.score.black.prisoners, 2);
}

/// One OGS score-estimator position: the board and the expected dead stones.
struct Position {
    game: Game,
    dead: PointSet,
}

fn read_position(path: &Path) -> Position {
    let text = std::fs::read_to_string(path).unwrap();
    let mut size = 0u8;
    let mut to_move = Color::Black;
    let mut rows: Vec<Vec<i8>> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if let Some(v) = line.strip_prefix("height ") {
            size = v.trim().parse().unwrap();
        } else if line.starts_with("width ") {
        } else if let Some(v) = line.strip_prefix("player_to_move ") {
            to_move = if v.trim() == "1" {
                Color::Black
            } else {
                Color::White
            };
        } else {
            rows.push(
                line.split_whitespace()
                    .map(|x| x.parse().unwrap())
                    .collect(),
            );
        }
    }
    let n = size as usize;
    assert_eq!(rows.len(), 2 * n, "{}", path.display());
    let mut board = Board::new(size);
    let mut stones = Vec::new();
    let mut dead = PointSet::new();
    for (r, row) in rows.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            // Both grids run from the top row down, as `Point::new` counts rows.
            let p = Point::new(size, c as u8, (r % n) as u8).unwrap();
            if r < n && v != 0 {
                let color = if v == 1 { Color::Black } else { Color::White };
                stones.push((p, Some(color)));
            } else if r >= n && v == 1 {
                dead.insert(p);
            }
        }
    }
    board.setup(&stones).unwrap();
    let game = Game::from_board(board, to_move, Preset::Japanese.rules(size)).unwrap();
    Position { game, dead }
}

fn position_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/score-estimator");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|x| x == "game") {
                    out.push(f);
                }
            }
        }
    }
    out.sort();
    out
}

/// Positions the estimator gets wrong without doubt, with the reason. Each is a known
/// weakness to fix, not an accepted answer: the test fails if another joins them.
const KNOWN_WRONG: &[(&str, &str)] = &[(
    "12257987.game",
    "a capturing race at the top: the playouts let Black capture White's four stones inside \
     and live, where White wins the race",
)];

#[test]
#[ignore = "reads ../shared/data/score-estimator, outside the project; run by .ci/run"]
fn every_wrong_call_on_the_ogs_positions_is_flagged_unsure() {
    let files = position_files();
    assert!(files.len() >= 50, "found {} positions", files.len());
    let (mut exact, mut flagged) = (0, 0);
    let mut silent = Vec::new();
    for f in &files {
        let pos = read_position(f);
        let e = estimate(&pos.game);
        let board = pos.game.board();
        let wrong: Vec<Point> = board
            .points()
            .filter(|&p| board.get(p).is_some() && e.dead.contains(p) != pos.dead.contains(p))
            .collect();
        if wrong.is_empty() {
            exact += 1;
        } else if wrong.iter().all(|&p| e.unsure.contains(p)) {
            flagged += 1;
            eprintln!("flagged unsure: {}", f.display());
        } else if !KNOWN_WRONG
            .iter()
            .any(|(name, _)| f.file_name().is_some_and(|n| n == *name))
        {
            silent.push(format!("{} ({} stones)", f.display(), wrong.len()));
        }
    }
    eprintln!(
        "{} positions: {exact} exact, {flagged} wrong but flagged unsure, {} wrong unflagged",
        files.len(),
        silent.len()
    );
    assert!(silent.is_empty(), "wrong and sure: {silent:#?}");
}

/// Issue 39's count: a 21-stone White block with no eye, sealed in Black's lower area with
/// only first-line liberties (D1 and K1; Black's E1-J1 shares them and lives by the wall).
const SEALED_BLOCK: &str = "
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    . . . . . . . . . . . . .
    O O O O O O O O O O O O O
    X X X X X X X X X X X X X
    . . . . . . . . . . . . .
    . . X X X X X X X X X . .
    . . X O O O O O O O X . .
    . . X O O O O O O O X . .
    . . X O O O O O O O X . .
    . . X . X X X X X . X . .";

/// The end of a 13x13 KGS game under Japanese rules (GNU Go's regression record
/// `kgs/GNU-tadf.sgf`, RE B+72.5): White's 25 stones in four groups are dead, the record's
/// territory markup says, among them a six-stone group (F6 to F3) that the network's single
/// evaluation left unsure, and counted White's way.
const KGS_TADF: &str = "
    . . . O O X X . . . . . .
    O O O . O O X O . O X X .
    X X O O O X X O . O X . X
    . . X O X . X O . X . X O
    . X . X . X . O X . X X O
    . . . . . . . O O X X O O
    . . X . X . X X X X O . O
    . . X . . O O X O O O O .
    X X O . O O X X O X O . O
    . X O O X O X O O X O O .
    X O O O X O X X X X X O .
    X O . O X X X . . X O O .
    O O O X . X . . X O O . .";

const KGS_TADF_DEAD: &str =
    "H12 K12 H11 K11 H10 H9 H8 J8 F6 G6 C5 E5 F5 C4 D4 F4 B3 C3 D3 F3 B2 D2 A1 B1 C1";

/// `diagram` turned by symmetry `s` (0 to 7: a transpose, then flips), its colours swapped when
/// `swap`; and where each point goes.
fn transformed(
    diagram: &str,
    s: u8,
    swap: bool,
) -> (String, impl Fn(usize, usize) -> (usize, usize)) {
    let rows: Vec<Vec<&str>> = diagram
        .trim()
        .lines()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let n = rows.len();
    let to = move |x: usize, y: usize| {
        let (mut x, mut y) = if s & 1 == 1 { (y, x) } else { (x, y) };
        if s & 2 == 2 {
            x = n - 1 - x;
        }
        if s & 4 == 4 {
            y = n - 1 - y;
        }
        (x, y)
    };
    let mut out = vec![vec!["."; n]; n];
    for (y, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let c = match (c, swap) {
                ("X", true) => "O",
                ("O", true) => "X",
                (c, _) => c,
            };
            let (tx, ty) = to(x, y);
            out[ty][tx] = c;
        }
    }
    let text = out
        .iter()
        .map(|r| r.join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    (text, to)
}

/// Checks that the count marks exactly `dead` (GTP vertices of `diagram`), surely, under each of
/// `symmetries` and with the colours swapped, under `preset`, and that Black (the swapped
/// position's White) wins.
fn count_marks_dead(diagram: &str, dead: &[&str], preset: Preset, symmetries: &[u8]) {
    let n = diagram.trim().lines().count() as u8;
    for &s in symmetries {
        for swap in [false, true] {
            let (text, to) = transformed(diagram, s, swap);
            let to_move = if swap { Color::White } else { Color::Black };
            let g = game(&text, to_move, preset);
            let want: PointSet = dead
                .iter()
                .map(|v| {
                    let p = pt(n, v);
                    let (x, y) = to(p.col(n) as usize, p.row(n) as usize);
                    Point::new(n, x as u8, y as u8).unwrap()
                })
                .collect();
            let e = count_estimate(&g);
            assert_eq!(
                e.dead, want,
                "{preset:?}, symmetry {s}, swapped {swap}:\n{text}"
            );
            let unsure_dead: Vec<Point> = want.iter().filter(|&p| e.unsure.contains(p)).collect();
            assert!(
                unsure_dead.is_empty(),
                "{preset:?}, symmetry {s}, swapped {swap}: unsure {unsure_dead:?}"
            );
            let winner = e.result().winner();
            let black_wins = winner == Some(Color::Black);
            assert_eq!(
                black_wins,
                !swap,
                "{preset:?}, symmetry {s}, swapped {swap}: {}",
                e.result()
            );
        }
    }
}

#[test]
fn a_big_dead_group_sealed_in_is_dead_whatever_the_turn_colours_or_counting() {
    let block: Vec<String> = ["D", "E", "F", "G", "H", "J", "K"]
        .iter()
        .flat_map(|c| (2..=4).map(move |r| format!("{c}{r}")))
        .collect();
    let block: Vec<&str> = block.iter().map(String::as_str).collect();
    count_marks_dead(
        SEALED_BLOCK,
        &block,
        Preset::Japanese,
        &[0, 1, 2, 3, 4, 5, 6, 7],
    );
    for preset in [
        Preset::Chinese,
        Preset::Korean,
        Preset::Aga,
        Preset::Nz,
        Preset::Igz,
    ] {
        count_marks_dead(SEALED_BLOCK, &block, preset, &[0, 5]);
    }
    // Japanese: Black's 56 points (the block's included) and 21 prisoners against 65 and 6.5.
    let e = count_estimate(&game(SEALED_BLOCK, Color::Black, Preset::Japanese));
    assert_eq!(e.result().to_string(), "B+5.5");
    assert!(e.winner_sure());
}

#[test]
fn a_real_games_dead_groups_are_the_records_whatever_the_symmetry() {
    let dead: Vec<&str> = KGS_TADF_DEAD.split_whitespace().collect();
    count_marks_dead(KGS_TADF, &dead, Preset::Japanese, &[0, 3, 6]);
}

/// Black's lower area holds a White group with one eye space of eight points (two rows of
/// four) and no other: alive by that one space, which no Black move can kill.
#[test]
fn a_group_alive_by_one_big_eye_space_is_alive() {
    let g = game(
        "
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        . . . . . . . . . . . . .
        O O O O O O O O O O O O O
        X X X X X X X X X X X X X
        . . . . . . . . . . . . .
        . . X X X X X X X . . . .
        . X O O O O O O O X . . .
        . X O . . . . O O X . . .
        . X O . . . . O O X . . .
        . X O O O O O O O X . . .",
        Color::Black,
        Preset::Japanese,
    );
    let e = count_estimate(&g);
    let group = e.group_at(pt(13, "C4")).unwrap();
    assert_eq!(
        (group.status, group.sure),
        (Status::Alive, true),
        "{group:?}"
    );
    assert!(e.dead.is_empty(), "{:?}", e.dead);
}
