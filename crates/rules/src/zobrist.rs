//! Zobrist keys, computed at compile time so that no table needs initialising at run time.

use crate::point::MAX_CELLS;

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u64; MAX_CELLS]; 2] {
    let mut table = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut i = 0;
    while i < MAX_CELLS {
        let (s1, a) = splitmix(state);
        let (s2, b) = splitmix(s1);
        state = s2;
        table[0][i] = a;
        table[1][i] = b;
        i += 1;
    }
    table
}

/// One key per colour and cell.
static STONE: [[u64; MAX_CELLS]; 2] = build();

/// Mixed into a position key when White is to move, for situational superko.
pub(crate) const WHITE_TO_MOVE: u64 = 0x5BD1_E995_2C1B_3C6D;

/// The key of a stone of colour `c` on cell `p`. The index is masked into the table (every cell
/// index is below `MAX_CELLS`), which spares the playout loop a bounds check per stone.
#[inline(always)]
pub(crate) fn stone(c: crate::Color, p: u16) -> u64 {
    STONE[c.index()][p as usize & (MAX_CELLS - 1)]
}
