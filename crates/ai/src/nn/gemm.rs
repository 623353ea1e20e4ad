//! The one matrix product the network needs, over ndarray's `general_mat_mul` (matrixmultiply's
//! sgemm): its own module, since both the forward pass and the Winograd transforms use it.

use ndarray::linalg::general_mat_mul;
use ndarray::{ArrayView2, ArrayViewMut2};

/// `c[m,n] = a[m,k] * b[k,n]` (overwrites `c`).
pub(super) fn gemm(a: &[f32], b: &[f32], c: &mut [f32], m: usize, k: usize, n: usize) {
    let (Ok(a), Ok(b), Ok(mut c)) = (
        ArrayView2::from_shape((m, k), a),
        ArrayView2::from_shape((k, n), b),
        ArrayViewMut2::from_shape((m, n), c),
    ) else {
        // Shapes are checked when the model is read; a mismatch here is a bug in this file.
        unreachable!("gemm shapes {m}x{k} by {k}x{n}");
    };
    general_mat_mul(1.0, &a, &b, 0.0, &mut c);
}
