//! The forward pass of a [`Model`] over a batch of positions of one board size, on the CPU.
//!
//! Activations are `[positions * points, channels]` row-major (NHWC), so a 1x1 convolution is
//! one matrix product and a kxk convolution is an im2col gather then one product (ndarray's
//! `general_mat_mul`, matrixmultiply's sgemm). The board is the whole input: KataGo pads
//! smaller boards into a 19x19 buffer and masks the padding to zero after every layer, which is
//! what zero padding at the edge of the real board computes, so no mask is needed here; the
//! pooled means divide by the board's area as KataGo's `maskSum` does, and attention runs over
//! the board's points only, as KataGo's softmax leaves out the masked ones (rotary angles count
//! from the top-left corner in both).

use super::gemm::{gemm, gemm_strided, Strided};
use super::model::{
    Activation, Attention, Block, Conv, Ffn, MatMul, Model, Norm, RmsNorm, Rope, TipNorm,
    META_INPUTS,
};

/// How far the policy leans to the optimistic policy (version 12 on): KataGo's
/// `rootPolicyOptimism` as its GTP engine sets it by default (`min(policyOptimism, 0.2)`),
/// which `kata-raw-nn` applies, and the search at its root. Below the root the search takes
/// the optimistic policy whole (KataGo's `policyOptimism`, 1.0 by default):
/// [`RawOutput::optimistic_policy`].
pub const POLICY_OPTIMISM: f32 = 0.2;

/// What the network says about one position, raw (before KataGo's post-processing), from the
/// point of view of the player to move.
#[derive(Clone, Debug, Default)]
pub struct RawOutput {
    /// Policy logits, one a point, row-major.
    pub policy: Vec<f32>,
    /// Pass logit.
    pub pass: f32,
    /// The optimistic policy's logits and its pass logit, where the model has one (KataGo's
    /// two policy channels, or four from version 16); empty otherwise.
    pub optimistic_policy: Vec<f32>,
    /// Its pass logit (0 where there is none).
    pub optimistic_pass: f32,
    /// Win, loss, no-result logits.
    pub value: [f32; 3],
    /// Score mean, its spread, lead, variance of time left, then (version 9 on) the two
    /// short-term errors; zeros where the model has no such output.
    pub score: [f32; 6],
    /// Ownership logits, one a point.
    pub ownership: Vec<f32>,
}

/// What runs a model's forward pass. The CPU's ([`Cpu`]) is the only one today; an
/// accelerator's would be another, behind the same [`super::Evaluator`] (its cache, batching
/// and post-processing unchanged).
pub trait Backend: Send + Sync {
    /// Runs `model` on `n` positions of side `size`: `spatial` is `[n * size * size, 22]`,
    /// `global` is `[n, 19]` (`[n, 19 + 192]` with a metadata encoder, as [`forward`]).
    fn forward(
        &self,
        model: &Model,
        size: usize,
        spatial: &[f32],
        global: &[f32],
    ) -> Vec<RawOutput>;
    /// Its name in reports (`cpu`).
    fn name(&self) -> &'static str;
}

/// The forward pass on the CPU's cores ([`forward`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Cpu;

impl Backend for Cpu {
    fn forward(
        &self,
        model: &Model,
        size: usize,
        spatial: &[f32],
        global: &[f32],
    ) -> Vec<RawOutput> {
        forward(model, size, spatial, global)
    }

    fn name(&self) -> &'static str {
        "cpu"
    }
}

/// Buffers a thread keeps between passes: the im2col and Winograd scratch, and layers'
/// outputs given back, so a pass does not allocate (and fault in) tens of megabytes of fresh
/// memory on a large net.
#[derive(Default)]
struct Scratch {
    cols: Vec<f32>,
    wino: super::winograd::Scratch,
    spare: Vec<Vec<f32>>,
}

/// The most layer buffers a thread keeps.
const SPARE: usize = 16;

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// A batch of positions on a `size`x`size` board, and the thread's scratch.
struct Pass {
    n: usize,
    size: usize,
    scratch: Scratch,
}

impl Pass {
    fn pixels(&self) -> usize {
        self.n * self.size * self.size
    }

    /// A zeroed buffer of `len`, a spare one where there is one.
    fn buffer(&mut self, len: usize) -> Vec<f32> {
        let mut v = self.scratch.spare.pop().unwrap_or_default();
        v.clear();
        v.resize(len, 0.0);
        v
    }

    /// Gives a layer's buffer back for the next.
    fn recycle(&mut self, v: Vec<f32>) {
        if self.scratch.spare.len() < SPARE {
            self.scratch.spare.push(v);
        }
    }

    /// `norm` applied to `x` (`[pixels, c]`) into a buffer of the pass.
    fn norm(&mut self, x: &[f32], n: &Norm) -> Vec<f32> {
        let mut out = self.buffer(0);
        out.extend_from_slice(x);
        apply_norm(&mut out, n);
        out
    }

    /// Convolution of `x` (`[pixels, conv.in_c]`) into a `[pixels, conv.out_c]` buffer.
    fn conv(&mut self, x: &[f32], conv: &Conv) -> Vec<f32> {
        let p = self.pixels();
        if !conv.winograd.is_empty() {
            let shape = (self.n, self.size);
            let channels = (conv.in_c, conv.out_c);
            let out = self.buffer(0);
            let wino = &mut self.scratch.wino;
            return super::winograd::conv3x3(x, shape, &conv.winograd, channels, wino, out);
        }
        let mut out = self.buffer(p * conv.out_c);
        if conv.ksize == 1 {
            gemm(x, &conv.w, &mut out, p, conv.in_c, conv.out_c);
            return out;
        }
        let k = conv.ksize;
        let row = k * k * conv.in_c;
        let cols = &mut self.scratch.cols;
        cols.clear();
        cols.resize(p * row, 0.0);
        let (s, r, ic) = (self.size as isize, (k / 2) as isize, conv.in_c);
        for b in 0..self.n {
            for y in 0..s {
                for x0 in 0..s {
                    let pix = b * (s * s) as usize + (y * s + x0) as usize;
                    let dst = &mut cols[pix * row..(pix + 1) * row];
                    for dy in 0..k as isize {
                        let yy = y + dy - r;
                        if yy < 0 || yy >= s {
                            continue;
                        }
                        for dx in 0..k as isize {
                            let xx = x0 + dx - r;
                            if xx < 0 || xx >= s {
                                continue;
                            }
                            let src = b * (s * s) as usize + (yy * s + xx) as usize;
                            let off = (dy as usize * k + dx as usize) * ic;
                            dst[off..off + ic].copy_from_slice(&x[src * ic..(src + 1) * ic]);
                        }
                    }
                }
            }
        }
        gemm(cols, &conv.w, &mut out, p, row, conv.out_c);
        out
    }
}

fn activate(v: f32, act: Activation) -> f32 {
    match act {
        Activation::Identity => v,
        Activation::Relu => v.max(0.0),
        Activation::Mish => mish(v),
        Activation::Silu => v / (1.0 + exp(-v)),
    }
}

/// `act` over `xs` in place. Each arm is a loop without branches or calls, which the compiler
/// vectorises: libm's `exp`, `log1p` and `tanh`, a value at a time, were most of the time of a
/// pass on a Mish net (KataGo's Eigen backend vectorises its own).
fn activate_all(xs: &mut [f32], act: Activation) {
    match act {
        Activation::Identity => {}
        Activation::Relu => xs.iter_mut().for_each(|v| *v = v.max(0.0)),
        Activation::Mish => xs.iter_mut().for_each(|v| *v = mish(*v)),
        Activation::Silu => xs.iter_mut().for_each(|v| *v /= 1.0 + exp(-*v)),
    }
}

/// `x tanh(ln(1 + eˣ))` with one exponential: with `e = eˣ`, `tanh(ln(1 + e)) = n / (n + 2)`
/// where `n = e (e + 2)`. Past 20 the fraction is 1 in f32, as KataGo's own cut-off at 20.
#[inline(always)]
fn mish(x: f32) -> f32 {
    let e = exp(x.min(20.0));
    let n = e * (e + 2.0);
    x * n / (n + 2.0)
}

/// `eˣ` to about one unit in the last place, without branches (Cephes' `expf`): `x = k ln 2 + r`
/// with `|r| <= ln 2 / 2`, a degree-7 polynomial for `eʳ`, and `2ᵏ` built in the exponent's bits.
/// Below -87 it is `e⁻⁸⁷` rather than a subnormal, which nothing downstream can tell from zero.
#[inline(always)]
fn exp(x: f32) -> f32 {
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23: adding it rounds to an integer
    let x = x.clamp(-87.0, 88.0);
    let rounded = x * std::f32::consts::LOG2_E + ROUND;
    let k = rounded - ROUND;
    // The integer k, read from the low bits of `rounded` (its exponent is that of 2^23 for
    // any |k| < 2^22): `k as i32` would check for NaN and overflow, a value at a time, and
    // keep the loop from being vectorised.
    let k_int = rounded.to_bits().wrapping_sub(ROUND.to_bits()) as i32;
    let r = x - k * 0.693_359_4 + k * 2.121_944_4e-4;
    let p = 1.987_569_2e-4;
    let p = p * r + 1.398_2e-3;
    let p = p * r + 8.333_452e-3;
    let p = p * r + 4.166_579_6e-2;
    let p = p * r + 1.666_666_5e-1;
    let p = p * r + 0.5;
    let y = p * r * r + r + 1.0;
    y * f32::from_bits((k_int.wrapping_add(127) as u32) << 23)
}

/// `norm` applied to `x` (`[pixels, c]`) in place.
fn apply_norm(x: &mut [f32], norm: &Norm) {
    let c = norm.scale.len();
    for row in x.chunks_exact_mut(c) {
        for ((v, s), b) in row.iter_mut().zip(&norm.scale).zip(&norm.bias) {
            *v = *v * s + b;
        }
    }
    activate_all(x, norm.act);
}

/// `norm` applied to `x` (`[pixels, c]`) into a new buffer.
fn norm(x: &[f32], norm: &Norm) -> Vec<f32> {
    let mut out = x.to_vec();
    apply_norm(&mut out, norm);
    out
}

/// RMS norm of `x` (`[n * area, c]`) into a new buffer: one mean square a point, or
/// (`spatial`) one a position.
fn rms_norm(x: &[f32], area: usize, r: &RmsNorm) -> Vec<f32> {
    let c = r.gamma.len();
    let mut out = x.to_vec();
    let group = if r.spatial { area * c } else { c };
    for g in out.chunks_exact_mut(group) {
        let sum: f32 = g.iter().map(|v| v * v).sum();
        let inv = 1.0 / (sum / group as f32 + r.eps).sqrt();
        for row in g.chunks_exact_mut(c) {
            for ((v, gamma), beta) in row.iter_mut().zip(&r.gamma).zip(&r.beta) {
                *v = *v * inv * gamma + beta;
            }
        }
        activate_all(g, r.act);
    }
    out
}

/// The `(cos, sin)` of each rotary angle for boards of side `size`, `[point][kv head][pair]`
/// (RoPE, as KataGo's `computeRopeCosSin`): fixed frequencies turn the first half of the
/// pairs with the row and the rest with the column; learned ones are `x * fx + y * fy` for
/// the key group. `None` without a position embedding.
fn rope_table(size: usize, a: &Attention) -> Option<std::borrow::Cow<'_, [(f32, f32)]>> {
    if matches!(a.rope, Rope::None) {
        return None;
    }
    Some(match a.rope_tables.0.get(size) {
        Some(cached) => cached
            .get_or_init(|| rope_angles(size, a))
            .as_slice()
            .into(),
        // A side beyond the tables (the net is never given one): made for the pass.
        None => rope_angles(size, a).into(),
    })
}

fn rope_angles(size: usize, a: &Attention) -> Vec<(f32, f32)> {
    let pairs = a.qk_dim / 2;
    let mut t = Vec::with_capacity(size * size * a.kv_heads * pairs);
    for pix in 0..size * size {
        let (py, px) = ((pix / size) as f32, (pix % size) as f32);
        for kvh in 0..a.kv_heads {
            for p in 0..pairs {
                let angle = match &a.rope {
                    Rope::None => 0.0,
                    Rope::Fixed(theta) => {
                        let half = pairs / 2;
                        let (q, pos) = if p < half { (p, py) } else { (p - half, px) };
                        pos * (1.0 / theta.powf((2 * q) as f32 / pairs as f32))
                    }
                    Rope::Learned(f) => {
                        let at = (kvh * pairs + p) * 2;
                        px * f[at] + py * f[at + 1]
                    }
                };
                let (sin, cos) = angle.sin_cos();
                t.push((cos, sin));
            }
        }
    }
    t
}

/// Turns each pair of channels `(2p, 2p+1)` of every head in `x` (`[n * area, heads * dim]`)
/// by its angle at the point, from `table` ([`rope_table`]); head `h` takes the angles of key
/// group `h * kv_heads / heads`.
fn rope(x: &mut [f32], table: &[(f32, f32)], heads: usize, dim: usize, kv_heads: usize) {
    let pairs = dim / 2;
    let area = table.len() / (kv_heads * pairs);
    for (pix, row) in x.chunks_exact_mut(heads * dim).enumerate() {
        let at = &table[(pix % area) * kv_heads * pairs..][..kv_heads * pairs];
        for (h, head) in row.chunks_exact_mut(dim).enumerate() {
            let angles = &at[(h * kv_heads / heads) * pairs..][..pairs];
            for (pair, &(cos, sin)) in head.chunks_exact_mut(2).zip(angles) {
                let (x0, x1) = (pair[0], pair[1]);
                pair[0] = x0 * cos - x1 * sin;
                pair[1] = x0 * sin + x1 * cos;
            }
        }
    }
}

/// Self-attention of one position's points (`[area, c]` after the norm): every query head
/// against its group's keys, softmax, the values, then the output projection.
fn attend(h: &[f32], area: usize, size: usize, a: &Attention) -> Vec<f32> {
    let mut q = matmul(h, area, &a.q);
    let mut k = matmul(h, area, &a.k);
    let v = matmul(h, area, &a.v);
    if let Some(table) = rope_table(size, a) {
        rope(&mut q, &table, a.heads, a.qk_dim, a.kv_heads);
        rope(&mut k, &table, a.kv_heads, a.qk_dim, a.kv_heads);
    }
    let scale = 1.0 / (a.qk_dim as f32).sqrt();
    let group = a.heads / a.kv_heads;
    let (qk, vd) = (a.qk_dim, a.v_dim);
    let mut joined = vec![0.0; area * a.heads * vd];
    let mut scores = vec![0.0; area * area];
    // Each head's columns are read where the projections left them, keys as their transpose,
    // and its output written into its columns of `joined`.
    let columns = |width: usize, cols: usize| Strided {
        rows: area,
        cols,
        row_stride: width,
        col_stride: 1,
    };
    let square = columns(area, area);
    for hq in 0..a.heads {
        let kvh = hq / group;
        let keys_t = Strided {
            rows: qk,
            cols: area,
            row_stride: 1,
            col_stride: a.kv_heads * qk,
        };
        gemm_strided(
            (&q[hq * qk..], columns(a.heads * qk, qk)),
            (&k[kvh * qk..], keys_t),
            (&mut scores, square),
        );
        for row in scores.chunks_exact_mut(area) {
            softmax(row, scale);
        }
        gemm_strided(
            (&scores, square),
            (&v[kvh * vd..], columns(a.kv_heads * vd, vd)),
            (&mut joined[hq * vd..], columns(a.heads * vd, vd)),
        );
    }
    matmul(&joined, area, &a.out)
}

/// `row` scaled by `scale`, then its softmax, in place: loops without calls that the
/// compiler vectorises (the branch-free [`exp`]; with libm's, a value at a time, the
/// b10c384h6 transformer net ran at 0.96x KataGo's speed, and 1.3x with this).
fn softmax(row: &mut [f32], scale: f32) {
    let max = lanes(row, f32::NEG_INFINITY, |m, s| if s > m { s } else { m });
    let max = max.into_iter().fold(f32::NEG_INFINITY, f32::max) * scale;
    row.iter_mut().for_each(|s| *s = exp(*s * scale - max));
    let inv = 1.0 / lanes(row, 0.0, |a, s| a + s).iter().sum::<f32>();
    row.iter_mut().for_each(|s| *s *= inv);
}

/// `f` folded over `xs` in eight lanes (element `i` into lane `i % 8`), which the compiler
/// keeps in vector registers; a plain fold over floats runs a value at a time, its order
/// being part of its result.
fn lanes(xs: &[f32], init: f32, f: impl Fn(f32, f32) -> f32) -> [f32; 8] {
    let mut acc = [init; 8];
    let chunks = xs.chunks_exact(8);
    for (i, &x) in chunks.remainder().iter().enumerate() {
        acc[i] = f(acc[i], x);
    }
    for c in chunks {
        for i in 0..8 {
            acc[i] = f(acc[i], c[i]);
        }
    }
    acc
}

/// A SwiGLU feed-forward layer on `[pixels, c]` (after the norm).
fn feed_forward(h: &[f32], pixels: usize, f: &Ffn) -> Vec<f32> {
    let mut up = matmul(h, pixels, &f.up);
    let gate = matmul(h, pixels, &f.gate);
    activate_all(&mut up, Activation::Silu);
    for (u, g) in up.iter_mut().zip(&gate) {
        *u *= g;
    }
    matmul(&up, pixels, &f.down)
}

/// Adds a per-position, per-channel bias (`[n, c]`) to `x` (`[n * area, c]`).
fn add_bias(x: &mut [f32], bias: &[f32], area: usize, c: usize) {
    for (pix, row) in x.chunks_exact_mut(c).enumerate() {
        let b = &bias[(pix / area) * c..(pix / area + 1) * c];
        for (v, bb) in row.iter_mut().zip(b) {
            *v += bb;
        }
    }
}

/// Adds the same `bias` to every row of `x`.
fn add_rows(x: &mut [f32], bias: &[f32]) {
    for row in x.chunks_exact_mut(bias.len()) {
        for (v, b) in row.iter_mut().zip(bias) {
            *v += b;
        }
    }
}

/// `[n, in]` times the layer's weights into `[n, out]`.
fn matmul(x: &[f32], n: usize, m: &MatMul) -> Vec<f32> {
    let mut out = vec![0.0; n * m.out_c];
    gemm(x, &m.w, &mut out, n, m.in_c, m.out_c);
    out
}

/// KataGo's global pooling of `x` (`[n * area, c]`): per channel the mean, the mean scaled by
/// `(sqrt(area) - 14) / 10`, and the max (`poolRowsGPool`).
fn gpool(x: &[f32], n: usize, area: usize, c: usize) -> Vec<f32> {
    let mut out = vec![0.0; n * 3 * c];
    let sq = (area as f32).sqrt();
    for b in 0..n {
        let o = &mut out[b * 3 * c..(b + 1) * 3 * c];
        for ch in 0..c {
            let mut s = 0.0f32;
            let mut m = -1.0f32;
            for p in 0..area {
                let v = x[(b * area + p) * c + ch];
                s += v;
                m = m.max(v);
            }
            let mean = s / area as f32;
            o[ch] = mean;
            o[c + ch] = mean * (sq - 14.0) * 0.1;
            o[2 * c + ch] = m;
        }
    }
    out
}

/// The value head's pooling: the mean and two scalings of it by the board's size
/// (`poolRowsValueHead`).
fn value_pool(x: &[f32], n: usize, area: usize, c: usize) -> Vec<f32> {
    let mut out = vec![0.0; n * 3 * c];
    let sq = (area as f32).sqrt();
    for b in 0..n {
        let o = &mut out[b * 3 * c..(b + 1) * 3 * c];
        for ch in 0..c {
            let s: f32 = (0..area).map(|p| x[(b * area + p) * c + ch]).sum();
            let mean = s / area as f32;
            o[ch] = mean;
            o[c + ch] = mean * (sq - 14.0) * 0.1;
            o[2 * c + ch] = mean * ((sq - 14.0) * (sq - 14.0) * 0.01 - 0.1);
        }
    }
    out
}

impl Pass {
    fn block(&mut self, x: &mut [f32], block: &Block) {
        let area = self.size * self.size;
        let delta = match block {
            Block::Ordinary {
                pre,
                conv1,
                mid,
                conv2,
            } => {
                let a = self.norm(x, pre);
                let mut h = self.conv(&a, conv1);
                self.recycle(a);
                apply_norm(&mut h, mid);
                let out = self.conv(&h, conv2);
                self.recycle(h);
                out
            }
            Block::GlobalPool {
                pre,
                conv1,
                gpool_conv,
                gpool_norm,
                gpool_to_bias,
                mid,
                conv2,
            } => {
                let a = self.norm(x, pre);
                let mut h = self.conv(&a, conv1);
                let mut g = self.conv(&a, gpool_conv);
                self.recycle(a);
                apply_norm(&mut g, gpool_norm);
                let pooled = gpool(&g, self.n, area, gpool_conv.out_c);
                self.recycle(g);
                let bias = matmul(&pooled, self.n, gpool_to_bias);
                add_bias(&mut h, &bias, area, conv1.out_c);
                apply_norm(&mut h, mid);
                let out = self.conv(&h, conv2);
                self.recycle(h);
                out
            }
            Block::Nested {
                pre,
                pre_conv,
                blocks,
                post,
                post_conv,
            } => {
                let a = self.norm(x, pre);
                let mut h = self.conv(&a, pre_conv);
                self.recycle(a);
                for b in blocks {
                    self.block(&mut h, b);
                }
                apply_norm(&mut h, post);
                let out = self.conv(&h, post_conv);
                self.recycle(h);
                out
            }
            Block::Attention(a) => {
                let h = rms_norm(x, area, &a.norm);
                let c = a.norm.gamma.len();
                let per = area * c;
                (0..self.n)
                    .flat_map(|b| attend(&h[b * per..(b + 1) * per], area, self.size, a))
                    .collect()
            }
            Block::Ffn(f) => {
                let h = rms_norm(x, area, &f.norm);
                feed_forward(&h, self.pixels(), f)
            }
        };
        for (v, d) in x.iter_mut().zip(&delta) {
            *v += d;
        }
        self.recycle(delta);
    }
}

/// Runs `model` on `n` positions of side `size`: `spatial` is `[n * size * size, 22]`,
/// `global` is `[n, 19]`, or `[n, 19 + 192]` for a model with a metadata encoder (each
/// position's globals, then its metadata row).
pub fn forward(model: &Model, size: usize, spatial: &[f32], global: &[f32]) -> Vec<RawOutput> {
    let area = size * size;
    let per = model.global_inputs + model.meta_encoder.as_ref().map_or(0, |_| META_INPUTS);
    let n = global.len() / per;
    // The thread's buffers, taken for the pass and put back after it.
    let scratch = SCRATCH.with(|s| std::mem::take(&mut *s.borrow_mut()));
    let mut pass = Pass { n, size, scratch };
    let mut trunk = pass.conv(spatial, &model.initial_conv);
    let gbias = trunk_bias(model, n, global);
    add_bias(&mut trunk, &gbias, area, model.trunk_c);
    for block in &model.blocks {
        pass.block(&mut trunk, block);
    }
    let trunk = match &model.tip {
        TipNorm::Batch(n) => norm(&trunk, n),
        TipNorm::Rms(r) => rms_norm(&trunk, area, r),
    };
    let (policy, pass_logits) = policy_head(&mut pass, model, &trunk);
    let (value, score, own) = value_head(&mut pass, model, &trunk);
    SCRATCH.with(|s| *s.borrow_mut() = pass.scratch);
    let pc = model.policy.channels;
    let sc = model.value.sv3.out_c;
    // Channel 1 (version 12 on) is the optimistic policy, mixed in as KataGo's backends do
    // (which read it with two channels, or four from version 16, else channel 0 alone).
    // KataGo applies no optimism with a metadata encoder (its human-style nets).
    let optimistic = model.meta_encoder.is_none() && (pc == 2 || (pc == 4 && model.version >= 16));
    let logit = |v: &[f32], at: usize| match optimistic {
        false => v[at],
        true => v[at] + (v[at + 1] - v[at]) * POLICY_OPTIMISM,
    };
    let optimistic_logits = |b: usize| match optimistic {
        false => (Vec::new(), 0.0),
        true => (
            (0..area).map(|p| policy[(b * area + p) * pc + 1]).collect(),
            pass_logits[b * pc + 1],
        ),
    };
    (0..n)
        .map(|b| {
            let mut s = [0.0; 6];
            s[..sc].copy_from_slice(&score[b * sc..(b + 1) * sc]);
            let (optimistic_policy, optimistic_pass) = optimistic_logits(b);
            RawOutput {
                optimistic_policy,
                optimistic_pass,
                policy: (0..area)
                    .map(|p| logit(&policy, (b * area + p) * pc))
                    .collect(),
                pass: logit(&pass_logits, b * pc),
                value: [value[b * 3], value[b * 3 + 1], value[b * 3 + 2]],
                score: s,
                ownership: own[b * area..(b + 1) * area].to_vec(),
            }
        })
        .collect()
}

/// The per-position bias on the trunk (`[n, trunk]`): the global inputs' dense layer, plus
/// KataGo's `SGFMetadataEncoder` on the metadata row where the model has one.
fn trunk_bias(model: &Model, n: usize, global: &[f32]) -> Vec<f32> {
    let Some(e) = &model.meta_encoder else {
        return matmul(global, n, &model.initial_matmul);
    };
    let per = model.global_inputs + META_INPUTS;
    let (globals, meta): (Vec<f32>, Vec<f32>) = {
        let mut g = Vec::with_capacity(n * model.global_inputs);
        let mut m = Vec::with_capacity(n * META_INPUTS);
        for row in global.chunks_exact(per) {
            g.extend_from_slice(&row[..model.global_inputs]);
            m.extend_from_slice(&row[model.global_inputs..]);
        }
        (g, m)
    };
    let mut bias = matmul(&globals, n, &model.initial_matmul);
    let mut h1 = matmul(&meta, n, &e.mul1);
    add_rows(&mut h1, &e.bias1);
    activate_all(&mut h1, e.act1);
    let mut h2 = matmul(&h1, n, &e.mul2);
    add_rows(&mut h2, &e.bias2);
    activate_all(&mut h2, e.act2);
    for (b, m) in bias.iter_mut().zip(matmul(&h2, n, &e.mul3)) {
        *b += m;
    }
    bias
}

/// Policy per point (`[n * area, channels]`) and pass (`[n, channels]`).
fn policy_head(pass: &mut Pass, model: &Model, trunk: &[f32]) -> (Vec<f32>, Vec<f32>) {
    let h = &model.policy;
    let area = pass.size * pass.size;
    let mut p1 = pass.conv(trunk, &h.p1_conv);
    let g1 = norm(&pass.conv(trunk, &h.g1_conv), &h.g1_norm);
    let pooled = gpool(&g1, pass.n, area, h.g1_conv.out_c);
    let bias = matmul(&pooled, pass.n, &h.gpool_to_bias);
    add_bias(&mut p1, &bias, area, h.p1_conv.out_c);
    let p1 = norm(&p1, &h.p1_norm);
    let policy = pass.conv(&p1, &h.p2_conv);
    let mut pass_out = matmul(&pooled, pass.n, &h.gpool_to_pass);
    if let Some((bias, act, mul2)) = &h.pass2 {
        for row in pass_out.chunks_exact_mut(bias.len()) {
            for (v, b) in row.iter_mut().zip(bias) {
                *v = activate(*v + b, *act);
            }
        }
        pass_out = matmul(&pass_out, pass.n, mul2);
    }
    (policy, pass_out)
}

/// Value logits (`[n, 3]`), score outputs (`[n, 4 or 6]`), ownership (`[n * area]`).
fn value_head(pass: &mut Pass, model: &Model, trunk: &[f32]) -> (Vec<f32>, Vec<f32>, Vec<f32>) {
    let h = &model.value;
    let area = pass.size * pass.size;
    let v1 = norm(&pass.conv(trunk, &h.v1_conv), &h.v1_norm);
    let pooled = value_pool(&v1, pass.n, area, h.v1_conv.out_c);
    let mut v2 = matmul(&pooled, pass.n, &h.v2);
    for row in v2.chunks_exact_mut(h.v2_bias.len()) {
        for (v, b) in row.iter_mut().zip(&h.v2_bias) {
            *v = activate(*v + b, h.v2_act);
        }
    }
    let mut value = matmul(&v2, pass.n, &h.v3);
    add_rows(&mut value, &h.v3_bias);
    let mut score = matmul(&v2, pass.n, &h.sv3);
    add_rows(&mut score, &h.sv3_bias);
    let own = pass.conv(&v1, &h.own_conv);
    (value, score, own)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rms(spatial: bool) -> RmsNorm {
        RmsNorm {
            eps: 1e-6,
            gamma: vec![1.0, 2.0],
            beta: vec![0.5, 0.0],
            spatial,
            act: Activation::Identity,
        }
    }

    /// Two points of two channels: per point the mean squares are 2.5 and 12.5; over the
    /// position (KataGo's spatial RMS norm, which no test net has) 7.5.
    #[test]
    fn rms_norm_divides_by_the_root_mean_square_of_a_point_or_a_position() {
        let x = [1.0, 2.0, 3.0, 4.0];
        let want = |inv: [f32; 2]| {
            [
                1.0 * inv[0] + 0.5,
                4.0 * inv[0],
                3.0 * inv[1] + 0.5,
                8.0 * inv[1],
            ]
        };
        let per_point = want([1.0 / 2.5f32.sqrt(), 1.0 / 12.5f32.sqrt()]);
        let whole = want([1.0 / 7.5f32.sqrt(); 2]);
        for (got, want) in [
            (rms_norm(&x, 2, &rms(false)), per_point),
            (rms_norm(&x, 2, &rms(true)), whole),
        ] {
            for (g, w) in got.iter().zip(want) {
                assert!((g - w).abs() < 1e-5, "{got:?} != {want:?}");
            }
        }
    }

    #[test]
    fn silu_is_x_times_its_sigmoid() {
        assert_eq!(activate(0.0, Activation::Silu), 0.0);
        let v = activate(2.0, Activation::Silu);
        assert!((v - 2.0 / (1.0 + (-2.0f32).exp())).abs() < 1e-6);
        assert!(activate(-30.0, Activation::Silu).abs() < 1e-9);
    }

    /// The branch-free exponential and Mish against libm's, over the range activations take.
    #[test]
    fn the_vectorised_exp_and_mish_agree_with_libm() {
        for i in -4000..=4000 {
            let x = i as f32 * 0.025;
            let want = x.clamp(-87.0, 88.0).exp();
            assert!(
                (exp(x) - want).abs() <= 2e-7 * want,
                "exp({x}) {} vs {want}",
                exp(x)
            );
            let sp = if x > 20.0 { x } else { x.exp().ln_1p() };
            let want = x * sp.tanh();
            let got = mish(x);
            assert!(
                (got - want).abs() <= 1e-6 * want.abs().max(1e-3),
                "mish({x}) {got} vs {want}"
            );
        }
        assert_eq!(exp(-200.0), (-87.0f32).exp());
        assert_eq!(mish(-200.0), -200.0 * (-87.0f32).exp() * 1.0);
    }
}
