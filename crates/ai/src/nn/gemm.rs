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

/// A matrix read in place from a slice: `rows x cols`, element `(i, j)` at
/// `i * row_stride + j * col_stride` (an attention head's columns of a wider matrix, or its
/// transpose, without copying them out).
#[derive(Clone, Copy)]
pub(super) struct Strided {
    pub rows: usize,
    pub cols: usize,
    pub row_stride: usize,
    pub col_stride: usize,
}

impl Strided {
    fn shape(self) -> ndarray::StrideShape<ndarray::Ix2> {
        use ndarray::ShapeBuilder;
        (self.rows, self.cols).strides((self.row_stride, self.col_stride))
    }
}

/// `c = a * b` on strided matrices (overwrites `c`'s elements, and only them).
pub(super) fn gemm_strided(a: (&[f32], Strided), b: (&[f32], Strided), c: (&mut [f32], Strided)) {
    let (Ok(av), Ok(bv), Ok(mut cv)) = (
        ArrayView2::from_shape(a.1.shape(), a.0),
        ArrayView2::from_shape(b.1.shape(), b.0),
        ArrayViewMut2::from_shape(c.1.shape(), c.0),
    ) else {
        unreachable!("strided gemm views out of their slices");
    };
    general_mat_mul(1.0, &av, &bv, 0.0, &mut cv);
}
