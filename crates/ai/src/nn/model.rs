//! KataGo's model format (`.bin.gz`): a gzip of whitespace-separated tokens (names, sizes,
//! flags) in which every block of weights is `@BIN@` followed by little-endian `f32`s. KataGo
//! reads the older text form too (`.txt.gz`, each weight a decimal token), and either uncompressed
//! (`.bin`, `.txt`); so does [`Model::read`].
//!
//! The layout follows KataGo's `cpp/neuralnet/desc.cpp`: a header (name, version, input
//! channels; from version 13 the post-processing multipliers; from 15 the metadata encoder and
//! options), then the trunk (initial convolution, the matrix for the global inputs, the blocks,
//! the tip's batch norm), the policy head and the value head. Batch norms are folded into a scale
//! and a bias per channel at load, as KataGo does (`mergedScale`, `mergedBias`).
//!
//! Supported: versions 8 to 17 with ordinary, global-pooling and nested-bottleneck residual
//! blocks, transformer blocks (attention with grouped keys and fixed or learned rotary
//! embeddings, SwiGLU feed-forward layers, as in KataGo's `eigenbackend.cpp`), ReLU, Mish, SiLU
//! and identity activations, batch norm, an RMS norm at the trunk's tip. Refused with a typed
//! error: older versions, newer ones, feed-forward layers without SwiGLU, grouped RMS norms,
//! SGF-metadata encoders, dilated convolutions, and any file that ends early or holds a
//! non-finite weight.

use std::io::Read;

use super::NnError;

/// Oldest model version read (the first with the V7 input features).
pub const MIN_VERSION: u32 = 8;
/// Newest model version read.
pub const MAX_VERSION: u32 = 17;

/// An activation function, as the model names it (always ReLU before version 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Activation {
    /// `x`.
    Identity,
    /// `max(x, 0)`.
    Relu,
    /// `x * tanh(softplus(x))`.
    Mish,
    /// `x * sigmoid(x)` (KataGo's `ACTIVATION_SILU`, in its transformer nets).
    Silu,
}

/// A convolution: weights laid out `[ky][kx][in][out]`, as the file stores them, which is the
/// row-major matrix an im2col product multiplies by.
#[derive(Clone, Debug)]
pub struct Conv {
    /// Kernel side (odd; KataGo's nets use 1, 3 and 5).
    pub ksize: usize,
    /// Input channels.
    pub in_c: usize,
    /// Output channels.
    pub out_c: usize,
    /// `ksize * ksize * in_c * out_c` weights.
    pub w: Vec<f32>,
    /// For 3x3 kernels, the Winograd-transformed weights ([`super::winograd`]); else empty.
    pub winograd: Vec<f32>,
}

/// A batch norm folded into `y = x * scale + bias`, then the activation.
#[derive(Clone, Debug)]
pub struct Norm {
    /// Per-channel factor.
    pub scale: Vec<f32>,
    /// Per-channel offset.
    pub bias: Vec<f32>,
    /// Applied after the affine map.
    pub act: Activation,
}

/// An RMS norm, `y = x / sqrt(mean(x^2) + eps) * gamma + beta`, then the activation: over the
/// channels of each point, or (`spatial`) over every channel and point of a position.
#[derive(Clone, Debug)]
pub struct RmsNorm {
    /// Added to the mean square.
    pub eps: f32,
    /// Per-channel factor.
    pub gamma: Vec<f32>,
    /// Per-channel offset (zeros inside transformer blocks).
    pub beta: Vec<f32>,
    /// One mean over the whole position rather than one a point.
    pub spatial: bool,
    /// Applied after the affine map.
    pub act: Activation,
}

/// The norm at the tip of the trunk (version 15 on may name RMS norm).
#[derive(Clone, Debug)]
pub enum TipNorm {
    /// A batch norm, folded.
    Batch(Norm),
    /// An RMS norm.
    Rms(RmsNorm),
}

/// Rotary position embedding of the queries and keys (RoPE) in an attention block.
#[derive(Clone, Debug)]
pub enum Rope {
    /// None.
    None,
    /// Fixed frequencies from `theta`: the first half of the pairs turn with the row, the
    /// second half with the column.
    Fixed(f32),
    /// Learned frequencies `[kv_heads][pairs][x, y]`.
    Learned(Vec<f32>),
}

/// Multi-head self-attention over the points of the board, with grouped keys and values.
#[derive(Clone, Debug)]
pub struct Attention {
    /// Before the projections.
    pub norm: RmsNorm,
    /// Query heads.
    pub heads: usize,
    /// Key and value heads (each serves `heads / kv_heads` query heads).
    pub kv_heads: usize,
    /// Width of a query and key head.
    pub qk_dim: usize,
    /// Width of a value head.
    pub v_dim: usize,
    /// Trunk to queries.
    pub q: MatMul,
    /// Trunk to keys.
    pub k: MatMul,
    /// Trunk to values.
    pub v: MatMul,
    /// Heads back to the trunk.
    pub out: MatMul,
    /// Position embedding.
    pub rope: Rope,
    /// The rotary angles' cosines and sines by board side, made on a side's first pass
    /// ([`RopeTables`]).
    pub rope_tables: RopeTables,
}

/// The `(cos, sin)` of every rotary angle of an attention block, `[point][kv head][pair]`,
/// one table a board side (2 to 25), each made once when a pass first needs it: the angles
/// depend only on the point, so a pass turns its queries and keys without a sine (KataGo
/// makes its tables once for its board, `computeRopeCosSin`).
#[derive(Clone, Debug, Default)]
pub struct RopeTables(pub [std::sync::OnceLock<Vec<(f32, f32)>>; 26]);

/// A transformer's feed-forward layer with a SwiGLU: `down(silu(up(x)) * gate(x))`.
#[derive(Clone, Debug)]
pub struct Ffn {
    /// Before the layers.
    pub norm: RmsNorm,
    /// Trunk to the hidden width.
    pub up: MatMul,
    /// Trunk to the gate.
    pub gate: MatMul,
    /// Hidden width back to the trunk.
    pub down: MatMul,
}

/// A dense layer, weights `[in][out]`.
#[derive(Clone, Debug)]
pub struct MatMul {
    /// Inputs.
    pub in_c: usize,
    /// Outputs.
    pub out_c: usize,
    /// `in_c * out_c` weights.
    pub w: Vec<f32>,
}

/// One block of the trunk (or of a nested bottleneck).
#[derive(Clone, Debug)]
pub enum Block {
    /// norm, conv, norm, conv, added to the input.
    Ordinary {
        /// Before the first convolution.
        pre: Norm,
        /// First convolution.
        conv1: Conv,
        /// Before the second convolution.
        mid: Norm,
        /// Second convolution.
        conv2: Conv,
    },
    /// An ordinary block whose middle gets a per-channel bias from a global pooling of a second
    /// convolution (KataGo's global pooling bias structure).
    GlobalPool {
        /// Before both convolutions.
        pre: Norm,
        /// The regular convolution.
        conv1: Conv,
        /// The convolution that is pooled.
        gpool_conv: Conv,
        /// Its norm before pooling.
        gpool_norm: Norm,
        /// Pooled features (mean, scaled mean, max) to the bias.
        gpool_to_bias: MatMul,
        /// Before the second convolution.
        mid: Norm,
        /// Second convolution.
        conv2: Conv,
    },
    /// norm, 1x1 down, inner blocks, norm, 1x1 up, added to the input.
    Nested {
        /// Before the first convolution.
        pre: Norm,
        /// Into the narrower inner channels.
        pre_conv: Conv,
        /// The inner blocks.
        blocks: Vec<Block>,
        /// Before the last convolution.
        post: Norm,
        /// Back to the trunk's channels.
        post_conv: Conv,
    },
    /// Attention over the board, added to the input.
    Attention(Box<Attention>),
    /// A feed-forward layer at each point, added to the input.
    Ffn(Box<Ffn>),
}

/// The policy head.
#[derive(Clone, Debug)]
pub struct PolicyHead {
    /// Trunk to the policy features.
    pub p1_conv: Conv,
    /// Trunk to the pooled features.
    pub g1_conv: Conv,
    /// Norm of the pooled features.
    pub g1_norm: Norm,
    /// Pooled features to a bias on the policy features.
    pub gpool_to_bias: MatMul,
    /// Norm of the policy features.
    pub p1_norm: Norm,
    /// Policy features to the policy channels (channel 0 is the policy).
    pub p2_conv: Conv,
    /// Pooled features to the pass logit (first layer from version 15).
    pub gpool_to_pass: MatMul,
    /// Version 15 on: bias, activation and second layer of the pass logit.
    pub pass2: Option<(Vec<f32>, Activation, MatMul)>,
    /// Channels of `p2_conv` (1, 2 or 4).
    pub channels: usize,
}

/// The value head: win/loss/no-result, the score outputs and ownership.
#[derive(Clone, Debug)]
pub struct ValueHead {
    /// Trunk to the value features.
    pub v1_conv: Conv,
    /// Their norm.
    pub v1_norm: Norm,
    /// Pooled value features to the hidden layer.
    pub v2: MatMul,
    /// Its bias.
    pub v2_bias: Vec<f32>,
    /// Its activation.
    pub v2_act: Activation,
    /// Hidden to win, loss, no result.
    pub v3: MatMul,
    /// Their bias.
    pub v3_bias: Vec<f32>,
    /// Hidden to the score outputs (score mean, its spread, lead, time left, errors).
    pub sv3: MatMul,
    /// Their bias.
    pub sv3_bias: Vec<f32>,
    /// Value features to ownership.
    pub own_conv: Conv,
}

/// Multipliers of the raw score outputs (read from the file from version 13; KataGo's
/// defaults before).
#[derive(Clone, Copy, Debug)]
pub struct PostProcess {
    /// Score mean.
    pub score_mean: f64,
    /// Score standard deviation.
    pub score_stdev: f64,
    /// Lead.
    pub lead: f64,
    /// Variance of time left.
    pub variance_time: f64,
    /// Short-term value error.
    pub shortterm_value_error: f64,
    /// Short-term score error.
    pub shortterm_score_error: f64,
}

impl Default for PostProcess {
    fn default() -> PostProcess {
        PostProcess {
            score_mean: 20.0,
            score_stdev: 20.0,
            lead: 20.0,
            variance_time: 40.0,
            shortterm_value_error: 0.25,
            shortterm_score_error: 30.0,
        }
    }
}

/// The SGF-metadata encoder of KataGo's human-style nets (version 15 on, `metaEncoderVersion`
/// 1): the 192 metadata inputs ([`super::human`]) through two dense layers to a bias on the
/// trunk, added to the global inputs' own.
#[derive(Clone, Debug)]
pub struct MetaEncoder {
    /// Metadata inputs to the first hidden layer.
    pub mul1: MatMul,
    /// Its bias.
    pub bias1: Vec<f32>,
    /// Its activation.
    pub act1: Activation,
    /// Second hidden layer.
    pub mul2: MatMul,
    /// Its bias.
    pub bias2: Vec<f32>,
    /// Its activation.
    pub act2: Activation,
    /// To the trunk's channels.
    pub mul3: MatMul,
}

/// The metadata inputs KataGo's human-style nets read (`SGFMetadata::METADATA_INPUT_NUM_CHANNELS`).
pub const META_INPUTS: usize = 192;

/// A whole network, ready to evaluate.
#[derive(Clone, Debug)]
pub struct Model {
    /// The name in the file.
    pub name: String,
    /// Model version.
    pub version: u32,
    /// Spatial input features (22 for V7).
    pub spatial_inputs: usize,
    /// Global input features (19 for V7).
    pub global_inputs: usize,
    /// Trunk channels.
    pub trunk_c: usize,
    /// Initial convolution.
    pub initial_conv: Conv,
    /// Global inputs to a bias on the trunk.
    pub initial_matmul: MatMul,
    /// The SGF-metadata encoder (human-style nets), which needs a profile to evaluate.
    pub meta_encoder: Option<MetaEncoder>,
    /// The residual blocks.
    pub blocks: Vec<Block>,
    /// Norm at the tip of the trunk.
    pub tip: TipNorm,
    /// Policy head.
    pub policy: PolicyHead,
    /// Value head.
    pub value: ValueHead,
    /// Score multipliers.
    pub post: PostProcess,
}

impl Model {
    /// Reads a gzipped model (`.bin.gz`).
    pub fn from_gz(bytes: &[u8]) -> Result<Model, NnError> {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_end(&mut raw)
            .map_err(|e| NnError::Gzip(e.to_string()))?;
        Model::from_bin(&raw)
    }

    /// Reads a model file as KataGo does: gzipped or not, its weights binary or text.
    pub fn read(bytes: &[u8]) -> Result<Model, NnError> {
        if bytes.starts_with(&[0x1f, 0x8b]) {
            Model::from_gz(bytes)
        } else {
            Model::from_bin(bytes)
        }
    }

    /// Reads an uncompressed model (its weights binary or text).
    pub fn from_bin(raw: &[u8]) -> Result<Model, NnError> {
        Reader::new(raw).model()
    }
}

/// A cursor over the decompressed file.
struct Reader<'a> {
    raw: &'a [u8],
    pos: usize,
    /// How many nested bottlenecks hold the block being read.
    nesting: usize,
    /// Where each `@BIN@` block began and how many weights it held (tests rewrite them as text).
    #[cfg(test)]
    binary_blocks: Vec<(usize, usize)>,
}

/// The deepest nesting of bottleneck blocks read (KataGo's nets nest one level): reading, and
/// the forward pass, go down a level by recursion, which a hostile file must not drive deep.
const MAX_NESTING: usize = 4;

impl<'a> Reader<'a> {
    fn new(raw: &'a [u8]) -> Reader<'a> {
        Reader {
            raw,
            pos: 0,
            nesting: 0,
            #[cfg(test)]
            binary_blocks: Vec::new(),
        }
    }

    fn token(&mut self, what: &str) -> Result<&str, NnError> {
        while self.pos < self.raw.len() && self.raw[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let start = self.pos;
        while self.pos < self.raw.len() && !self.raw[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(NnError::Truncated(what.to_string()));
        }
        std::str::from_utf8(&self.raw[start..self.pos])
            .map_err(|_| NnError::Corrupt(format!("{what}: not text")))
    }

    fn int(&mut self, what: &str) -> Result<i64, NnError> {
        let t = self.token(what)?;
        t.parse()
            .map_err(|_| NnError::Corrupt(format!("{what}: expected an integer, found {t:?}")))
    }

    fn count(&mut self, what: &str) -> Result<usize, NnError> {
        match self.int(what)? {
            n @ 1..=65536 => Ok(n as usize),
            n => Err(NnError::Corrupt(format!("{what}: size {n} out of range"))),
        }
    }

    fn float(&mut self, what: &str) -> Result<f64, NnError> {
        let t = self.token(what)?;
        t.parse()
            .map_err(|_| NnError::Corrupt(format!("{what}: expected a number, found {t:?}")))
    }

    /// `n` weights: after an `@BIN@` marker (KataGo allows some whitespace before it) as
    /// little-endian `f32`s, or else as `n` decimal tokens (the text form).
    fn floats(&mut self, n: usize, what: &str) -> Result<Vec<f32>, NnError> {
        let next = self.raw[self.pos.min(self.raw.len())..]
            .iter()
            .find(|b| !b.is_ascii_whitespace());
        if next.is_some_and(|&b| b != b'@') {
            return self.text_floats(n, what);
        }
        let mut skipped = 0;
        loop {
            let Some(&b) = self.raw.get(self.pos) else {
                return Err(NnError::Truncated(what.to_string()));
            };
            self.pos += 1;
            if b == b'@' {
                break;
            }
            skipped += 1;
            if skipped > 100 {
                return Err(NnError::Corrupt(format!("{what}: no @BIN@ weight block")));
            }
        }
        if self.raw.get(self.pos..self.pos + 4) != Some(b"BIN@".as_slice()) {
            return Err(NnError::Corrupt(format!("{what}: no @BIN@ weight block")));
        }
        self.pos += 4;
        #[cfg(test)]
        self.binary_blocks.push((self.pos - 5, n));
        let end = self.pos + n * 4;
        let bytes = self
            .raw
            .get(self.pos..end)
            .ok_or_else(|| NnError::Truncated(what.to_string()))?;
        self.pos = end;
        let out: Vec<f32> = bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if out.iter().any(|x| !x.is_finite()) {
            return Err(NnError::Corrupt(format!("{what}: non-finite weight")));
        }
        Ok(out)
    }

    /// `n` weights written as decimal tokens, read as KataGo's `strtof` reads them. Nothing is
    /// reserved up front: a size the file cannot hold ends at its last token.
    fn text_floats(&mut self, n: usize, what: &str) -> Result<Vec<f32>, NnError> {
        let mut out = Vec::new();
        for _ in 0..n {
            let t = self.token(what)?;
            let x: f32 = t
                .parse()
                .map_err(|_| NnError::Corrupt(format!("{what}: expected a weight, found {t:?}")))?;
            if !x.is_finite() {
                return Err(NnError::Corrupt(format!("{what}: non-finite weight")));
            }
            out.push(x);
        }
        Ok(out)
    }

    fn model(&mut self) -> Result<Model, NnError> {
        let name = self.token("model name")?.to_string();
        let version = self.int("model version")?;
        if !(MIN_VERSION as i64..=MAX_VERSION as i64).contains(&version) {
            return Err(NnError::UnsupportedVersion(version));
        }
        let version = version as u32;
        let spatial_inputs = self.count("input channels")?;
        let global_inputs = self.count("global input channels")?;
        if (spatial_inputs, global_inputs) != (22, 19) {
            return Err(NnError::Corrupt(format!(
                "{spatial_inputs} spatial and {global_inputs} global inputs; version {version} has 22 and 19"
            )));
        }
        let post = if version >= 13 {
            self.post_process()?
        } else {
            PostProcess::default()
        };
        let meta_version = if version >= 15 {
            self.v15_options()?
        } else {
            0
        };
        let trunk = self.token("trunk")?.to_string();
        let num_blocks = self.count("trunk blocks")?;
        let trunk_c = self.count("trunk channels")?;
        for what in [
            "mid channels",
            "regular channels",
            "dilated channels",
            "gpool channels",
        ] {
            self.int(what)?;
        }
        // KataGo's TRUNK_NORM_KIND_STANDARD (0, batch norm) or _RMSNORM (1), for the tip.
        let rms_tip = match version {
            15.. => match self.int("trunk norm kind")? {
                0 => false,
                1 => true,
                k => {
                    return Err(NnError::UnsupportedLayer(format!(
                        "{trunk}: trunk norm kind {k}"
                    )))
                }
            },
            _ => false,
        };
        if version >= 15 {
            self.zeros(5, "trunk options")?;
        }
        let initial_conv = self.conv()?;
        let initial_matmul = self.matmul()?;
        let meta_encoder = match meta_version {
            0 => None,
            _ => Some(self.meta_encoder(version)?),
        };
        let blocks = self.blocks(num_blocks, version, trunk_c)?;
        let tip = if rms_tip {
            let mut rms = self.rms_norm(true)?;
            rms.act = self.activation(version)?;
            TipNorm::Rms(rms)
        } else {
            TipNorm::Batch(self.norm(version)?)
        };
        let policy = self.policy_head(version)?;
        let value = self.value_head(version)?;
        let model = Model {
            name,
            version,
            spatial_inputs,
            global_inputs,
            trunk_c,
            initial_conv,
            initial_matmul,
            meta_encoder,
            blocks,
            tip,
            policy,
            value,
            post,
        };
        check_shapes(&model)?;
        Ok(model)
    }

    fn post_process(&mut self) -> Result<PostProcess, NnError> {
        let _td_score = self.float("tdScoreMultiplier")?;
        Ok(PostProcess {
            score_mean: self.float("scoreMeanMultiplier")?,
            score_stdev: self.float("scoreStdevMultiplier")?,
            lead: self.float("leadMultiplier")?,
            variance_time: self.float("varianceTimeMultiplier")?,
            shortterm_value_error: self.float("shorttermValueErrorMultiplier")?,
            shortterm_score_error: self.float("shorttermScoreErrorMultiplier")?,
        })
    }

    /// Version 15's header options: the metadata encoder's version (0: none; 1: KataGo's
    /// human-style nets), returned; pass-alive features under the game's own suicide rule.
    fn v15_options(&mut self) -> Result<i64, NnError> {
        let meta = self.int("metaEncoderVersion")?;
        if !(0..=1).contains(&meta) {
            return Err(NnError::UnsupportedLayer(format!(
                "SGF metadata encoder version {meta}"
            )));
        }
        if self.int("preferPassAliveUnderSuicideRules")? != 0 {
            return Err(NnError::UnsupportedLayer(
                "pass-alive features under suicide rules".into(),
            ));
        }
        self.zeros(6, "model options")?;
        Ok(meta)
    }

    /// KataGo's `SGFMetadataEncoderDesc`: its input count, then three dense layers.
    fn meta_encoder(&mut self, version: u32) -> Result<MetaEncoder, NnError> {
        let name = self.token("metadata encoder name")?.to_string();
        let inputs = self.count(&name)?;
        if inputs != META_INPUTS {
            return Err(NnError::Corrupt(format!(
                "{name}: {inputs} metadata inputs, KataGo's encoder reads {META_INPUTS}"
            )));
        }
        Ok(MetaEncoder {
            mul1: self.matmul()?,
            bias1: self.bias()?,
            act1: self.activation(version)?,
            mul2: self.matmul()?,
            bias2: self.bias()?,
            act2: self.activation(version)?,
            mul3: self.matmul()?,
        })
    }

    fn zeros(&mut self, n: usize, what: &str) -> Result<(), NnError> {
        for _ in 0..n {
            let v = self.int(what)?;
            if v != 0 {
                return Err(NnError::UnsupportedLayer(format!("{what}: {v}")));
            }
        }
        Ok(())
    }

    fn conv(&mut self) -> Result<Conv, NnError> {
        let name = self.token("conv name")?.to_string();
        let ky = self.count(&name)?;
        let kx = self.count(&name)?;
        let in_c = self.count(&name)?;
        let out_c = self.count(&name)?;
        let (dy, dx) = (self.int(&name)?, self.int(&name)?);
        if ky != kx || ky % 2 == 0 || ky > 9 {
            return Err(NnError::UnsupportedLayer(format!(
                "{name}: {ky}x{kx} kernel"
            )));
        }
        if (dy, dx) != (1, 1) {
            return Err(NnError::UnsupportedLayer(format!(
                "{name}: dilation {dy}x{dx}"
            )));
        }
        let w = self.floats(ky * kx * in_c * out_c, &name)?;
        let winograd = if ky == 3 {
            super::winograd::transform_weights(&w, in_c, out_c)
        } else {
            Vec::new()
        };
        Ok(Conv {
            ksize: ky,
            in_c,
            out_c,
            w,
            winograd,
        })
    }

    fn norm(&mut self, version: u32) -> Result<Norm, NnError> {
        let name = self.token("norm name")?.to_string();
        let c = self.count(&name)?;
        let eps = self.float(&name)? as f32;
        let has_scale = self.int(&name)? != 0;
        let has_bias = self.int(&name)? != 0;
        if !(eps > 0.0 && eps.is_finite()) {
            return Err(NnError::Corrupt(format!("{name}: epsilon {eps}")));
        }
        let mean = self.floats(c, &name)?;
        let var = self.floats(c, &name)?;
        let gamma = if has_scale {
            self.floats(c, &name)?
        } else {
            vec![1.0; c]
        };
        let beta = if has_bias {
            self.floats(c, &name)?
        } else {
            vec![0.0; c]
        };
        let scale: Vec<f32> = (0..c).map(|i| gamma[i] / (var[i] + eps).sqrt()).collect();
        let bias = (0..c).map(|i| beta[i] - scale[i] * mean[i]).collect();
        let act = self.activation(version)?;
        Ok(Norm { scale, bias, act })
    }

    fn activation(&mut self, version: u32) -> Result<Activation, NnError> {
        let name = self.token("activation name")?.to_string();
        if version < 11 {
            return Ok(Activation::Relu);
        }
        match self.token(&name)? {
            "ACTIVATION_IDENTITY" => Ok(Activation::Identity),
            "ACTIVATION_RELU" => Ok(Activation::Relu),
            "ACTIVATION_MISH" => Ok(Activation::Mish),
            "ACTIVATION_SILU" => Ok(Activation::Silu),
            other => Err(NnError::UnsupportedLayer(format!(
                "{name}: activation {other}"
            ))),
        }
    }

    fn matmul(&mut self) -> Result<MatMul, NnError> {
        let name = self.token("matmul name")?.to_string();
        let in_c = self.count(&name)?;
        let out_c = self.count(&name)?;
        let w = self.floats(in_c * out_c, &name)?;
        Ok(MatMul { in_c, out_c, w })
    }

    fn bias(&mut self) -> Result<Vec<f32>, NnError> {
        let name = self.token("bias name")?.to_string();
        let c = self.count(&name)?;
        self.floats(c, &name)
    }

    fn blocks(&mut self, n: usize, version: u32, trunk_c: usize) -> Result<Vec<Block>, NnError> {
        let mut blocks = Vec::with_capacity(n);
        for _ in 0..n {
            let kind = self.token("block kind")?.to_string();
            let name = self.token("block name")?.to_string();
            let block = match kind.as_str() {
                "ordinary_block" => Block::Ordinary {
                    pre: self.norm(version)?,
                    conv1: self.conv()?,
                    mid: self.norm(version)?,
                    conv2: self.conv()?,
                },
                "gpool_block" => Block::GlobalPool {
                    pre: self.norm(version)?,
                    conv1: self.conv()?,
                    gpool_conv: self.conv()?,
                    gpool_norm: self.norm(version)?,
                    gpool_to_bias: self.matmul()?,
                    mid: self.norm(version)?,
                    conv2: self.conv()?,
                },
                "nested_bottleneck_block" => self.nested(version)?,
                "transformer_attention_block" => Block::Attention(Box::new(self.attention(&name)?)),
                "transformer_ffn_block" => Block::Ffn(Box::new(self.ffn(&name)?)),
                other => {
                    return Err(NnError::UnsupportedLayer(format!(
                        "{name}: block kind {other}"
                    )))
                }
            };
            check_block(&block, trunk_c, &name)?;
            blocks.push(block);
        }
        Ok(blocks)
    }

    /// An RMS norm: the trunk tip's (`full`: gamma, beta, the spatial flag; the caller reads
    /// its activation) or a transformer block's (a weight only).
    fn rms_norm(&mut self, full: bool) -> Result<RmsNorm, NnError> {
        let name = self.token("rms norm name")?.to_string();
        let c = self.count(&name)?;
        let eps = self.float(&name)? as f32;
        if !(eps > 0.0 && eps <= 1.0) {
            return Err(NnError::Corrupt(format!("{name}: epsilon {eps}")));
        }
        if !full {
            let gamma = self.floats(c, &name)?;
            return Ok(RmsNorm {
                eps,
                gamma,
                beta: vec![0.0; c],
                spatial: false,
                act: Activation::Identity,
            });
        }
        let spatial = self.int(&name)? != 0;
        let group = self.int(&name)?;
        if group != 0 {
            return Err(NnError::UnsupportedLayer(format!(
                "{name}: grouped RMS norm ({group} channels a group)"
            )));
        }
        Ok(RmsNorm {
            eps,
            gamma: self.floats(c, &name)?,
            beta: self.floats(c, &name)?,
            spatial,
            act: Activation::Identity,
        })
    }

    /// A `transformer_attention_block` after its name (KataGo's `TransformerAttentionDesc`).
    fn attention(&mut self, name: &str) -> Result<Attention, NnError> {
        let heads = self.count(name)?;
        let kv_heads = self.count(name)?;
        let qk_dim = self.count(name)?;
        let v_dim = self.count(name)?;
        let use_rope = self.int(name)? != 0;
        let learned = self.int(name)? != 0;
        if heads % kv_heads != 0 || (use_rope && qk_dim % 2 != 0) {
            return Err(NnError::Corrupt(format!(
                "{name}: {heads} heads, {kv_heads} key heads of width {qk_dim}"
            )));
        }
        let norm = self.rms_norm(false)?;
        let (q, k, v, out) = (
            self.matmul()?,
            self.matmul()?,
            self.matmul()?,
            self.matmul()?,
        );
        let rope = match (use_rope, learned) {
            (false, _) => Rope::None,
            (true, true) => {
                let what = self.token(name)?.to_string();
                let dims = (self.count(&what)?, self.count(&what)?, self.count(&what)?);
                if dims != (kv_heads, qk_dim / 2, 2) {
                    return Err(NnError::Corrupt(format!("{what}: shape {dims:?}")));
                }
                Rope::Learned(self.floats(kv_heads * qk_dim, &what)?)
            }
            (true, false) => {
                let what = self.token(name)?.to_string();
                let theta = self.float(&what)? as f32;
                if !(theta > 0.0 && theta.is_finite()) {
                    return Err(NnError::Corrupt(format!("{what}: theta {theta}")));
                }
                Rope::Fixed(theta)
            }
        };
        Ok(Attention {
            norm,
            heads,
            kv_heads,
            qk_dim,
            v_dim,
            q,
            k,
            v,
            out,
            rope,
            rope_tables: RopeTables::default(),
        })
    }

    /// A `transformer_ffn_block` after its name; only the SwiGLU kind, the one KataGo's CPU
    /// backend runs.
    fn ffn(&mut self, name: &str) -> Result<Ffn, NnError> {
        let _channels = self.count(name)?;
        let _hidden = self.count(name)?;
        if self.int(name)? == 0 {
            return Err(NnError::UnsupportedLayer(format!(
                "{name}: transformer feed-forward layer without SwiGLU"
            )));
        }
        Ok(Ffn {
            norm: self.rms_norm(false)?,
            up: self.matmul()?,
            gate: self.matmul()?,
            down: self.matmul()?,
        })
    }

    fn nested(&mut self, version: u32) -> Result<Block, NnError> {
        if self.nesting >= MAX_NESTING {
            return Err(NnError::UnsupportedLayer(format!(
                "bottleneck blocks nested more than {MAX_NESTING} deep"
            )));
        }
        let n = self.count("nested blocks")?;
        let pre = self.norm(version)?;
        let pre_conv = self.conv()?;
        self.nesting += 1;
        let blocks = self.blocks(n, version, pre_conv.out_c);
        self.nesting -= 1;
        let blocks = blocks?;
        Ok(Block::Nested {
            pre,
            pre_conv,
            blocks,
            post: self.norm(version)?,
            post_conv: self.conv()?,
        })
    }

    fn policy_head(&mut self, version: u32) -> Result<PolicyHead, NnError> {
        self.token("policy head name")?;
        let channels = match version {
            17.. => {
                let c = self.count("policyOutChannels")?;
                self.zeros(3, "policy options")?;
                c
            }
            16 => 4,
            12..=15 => 2,
            _ => 1,
        };
        let p1_conv = self.conv()?;
        let g1_conv = self.conv()?;
        let g1_norm = self.norm(version)?;
        let gpool_to_bias = self.matmul()?;
        let p1_norm = self.norm(version)?;
        let p2_conv = self.conv()?;
        let gpool_to_pass = self.matmul()?;
        let pass2 = if version >= 15 {
            let bias = self.bias()?;
            let act = self.activation(version)?;
            Some((bias, act, self.matmul()?))
        } else {
            None
        };
        Ok(PolicyHead {
            p1_conv,
            g1_conv,
            g1_norm,
            gpool_to_bias,
            p1_norm,
            p2_conv,
            gpool_to_pass,
            pass2,
            channels,
        })
    }

    fn value_head(&mut self, version: u32) -> Result<ValueHead, NnError> {
        self.token("value head name")?;
        if version >= 17 {
            self.zeros(3, "value options")?;
        }
        let v1_conv = self.conv()?;
        let v1_norm = self.norm(version)?;
        let v2 = self.matmul()?;
        let v2_bias = self.bias()?;
        let v2_act = self.activation(version)?;
        Ok(ValueHead {
            v1_conv,
            v1_norm,
            v2,
            v2_bias,
            v2_act,
            v3: self.matmul()?,
            v3_bias: self.bias()?,
            sv3: self.matmul()?,
            sv3_bias: self.bias()?,
            own_conv: self.conv()?,
        })
    }
}

fn mismatch(what: &str, a: usize, b: usize) -> NnError {
    NnError::Corrupt(format!("{what}: {a} channels where {b} are expected"))
}

fn expect(what: &str, a: usize, b: usize) -> Result<(), NnError> {
    if a == b {
        Ok(())
    } else {
        Err(mismatch(what, a, b))
    }
}

/// Channel counts that must agree between layers, so the forward pass never indexes out of
/// bounds on a malformed file.
fn check_block(block: &Block, trunk_c: usize, name: &str) -> Result<(), NnError> {
    match block {
        Block::Ordinary {
            pre,
            conv1,
            mid,
            conv2,
        } => {
            expect(name, pre.scale.len(), trunk_c)?;
            expect(name, conv1.in_c, trunk_c)?;
            expect(name, mid.scale.len(), conv1.out_c)?;
            expect(name, conv2.in_c, conv1.out_c)?;
            expect(name, conv2.out_c, trunk_c)
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
            expect(name, pre.scale.len(), trunk_c)?;
            expect(name, conv1.in_c, trunk_c)?;
            expect(name, gpool_conv.in_c, trunk_c)?;
            expect(name, gpool_norm.scale.len(), gpool_conv.out_c)?;
            expect(name, gpool_to_bias.in_c, 3 * gpool_conv.out_c)?;
            expect(name, gpool_to_bias.out_c, conv1.out_c)?;
            expect(name, mid.scale.len(), conv1.out_c)?;
            expect(name, conv2.in_c, conv1.out_c)?;
            expect(name, conv2.out_c, trunk_c)
        }
        Block::Nested {
            pre,
            pre_conv,
            post,
            post_conv,
            ..
        } => {
            expect(name, pre.scale.len(), trunk_c)?;
            expect(name, pre_conv.in_c, trunk_c)?;
            expect(name, post.scale.len(), pre_conv.out_c)?;
            expect(name, post_conv.in_c, pre_conv.out_c)?;
            expect(name, post_conv.out_c, trunk_c)
        }
        Block::Attention(a) => {
            expect(name, a.norm.gamma.len(), trunk_c)?;
            for m in [&a.q, &a.k, &a.v] {
                expect(name, m.in_c, trunk_c)?;
            }
            expect(name, a.q.out_c, a.heads * a.qk_dim)?;
            expect(name, a.k.out_c, a.kv_heads * a.qk_dim)?;
            expect(name, a.v.out_c, a.kv_heads * a.v_dim)?;
            expect(name, a.out.in_c, a.heads * a.v_dim)?;
            expect(name, a.out.out_c, trunk_c)
        }
        Block::Ffn(f) => {
            expect(name, f.norm.gamma.len(), trunk_c)?;
            expect(name, f.up.in_c, trunk_c)?;
            expect(name, f.gate.in_c, trunk_c)?;
            expect(name, f.gate.out_c, f.up.out_c)?;
            expect(name, f.down.in_c, f.up.out_c)?;
            expect(name, f.down.out_c, trunk_c)
        }
    }
}

fn check_shapes(m: &Model) -> Result<(), NnError> {
    let t = m.trunk_c;
    expect("initial conv", m.initial_conv.in_c, m.spatial_inputs)?;
    expect("initial conv", m.initial_conv.out_c, t)?;
    expect("initial matmul", m.initial_matmul.in_c, m.global_inputs)?;
    expect("initial matmul", m.initial_matmul.out_c, t)?;
    if let Some(e) = &m.meta_encoder {
        expect("metadata encoder", e.mul1.in_c, META_INPUTS)?;
        expect("metadata encoder", e.bias1.len(), e.mul1.out_c)?;
        expect("metadata encoder", e.mul2.in_c, e.mul1.out_c)?;
        expect("metadata encoder", e.bias2.len(), e.mul2.out_c)?;
        expect("metadata encoder", e.mul3.in_c, e.mul2.out_c)?;
        expect("metadata encoder", e.mul3.out_c, t)?;
    }
    let tip_c = match &m.tip {
        TipNorm::Batch(n) => n.scale.len(),
        TipNorm::Rms(n) => n.gamma.len(),
    };
    expect("trunk tip", tip_c, t)?;
    let p = &m.policy;
    expect("policy p1", p.p1_conv.in_c, t)?;
    expect("policy g1", p.g1_conv.in_c, t)?;
    expect("policy g1 norm", p.g1_norm.scale.len(), p.g1_conv.out_c)?;
    expect("policy bias", p.gpool_to_bias.in_c, 3 * p.g1_conv.out_c)?;
    expect("policy bias", p.gpool_to_bias.out_c, p.p1_conv.out_c)?;
    expect("policy p1 norm", p.p1_norm.scale.len(), p.p1_conv.out_c)?;
    expect("policy p2", p.p2_conv.in_c, p.p1_conv.out_c)?;
    expect("policy p2", p.p2_conv.out_c, p.channels)?;
    expect("policy pass", p.gpool_to_pass.in_c, 3 * p.g1_conv.out_c)?;
    match &p.pass2 {
        Some((bias, _, mul2)) => {
            expect("policy pass bias", bias.len(), p.gpool_to_pass.out_c)?;
            expect("policy pass 2", mul2.in_c, p.gpool_to_pass.out_c)?;
            expect("policy pass 2", mul2.out_c, p.channels)?;
        }
        None => expect("policy pass", p.gpool_to_pass.out_c, p.channels)?,
    }
    let v = &m.value;
    let score_c = match m.version {
        9.. => 6,
        _ => 4,
    };
    expect("value v1", v.v1_conv.in_c, t)?;
    expect("value v1 norm", v.v1_norm.scale.len(), v.v1_conv.out_c)?;
    expect("value v2", v.v2.in_c, 3 * v.v1_conv.out_c)?;
    expect("value v2 bias", v.v2_bias.len(), v.v2.out_c)?;
    expect("value v3", v.v3.in_c, v.v2.out_c)?;
    expect("value v3", v.v3.out_c, 3)?;
    expect("value v3 bias", v.v3_bias.len(), 3)?;
    expect("score sv3", v.sv3.in_c, v.v2.out_c)?;
    expect("score sv3", v.sv3.out_c, score_c)?;
    expect("score sv3 bias", v.sv3_bias.len(), score_c)?;
    expect("ownership", v.own_conv.in_c, v.v1_conv.out_c)?;
    expect("ownership", v.own_conv.out_c, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn builtin_raw() -> Vec<u8> {
        let mut raw = Vec::new();
        flate2::read::GzDecoder::new(crate::nn::BUILTIN_NET)
            .read_to_end(&mut raw)
            .unwrap();
        raw
    }

    /// The raw file with the first `from` replaced by `to` (names and sizes are text).
    fn edited(from: &str, to: &str) -> Vec<u8> {
        let raw = builtin_raw();
        let at = raw
            .windows(from.len())
            .position(|w| w == from.as_bytes())
            .unwrap();
        [&raw[..at], to.as_bytes(), &raw[at + from.len()..]].concat()
    }

    #[test]
    fn the_builtin_net_is_g170_b6c96_version_8() {
        let m = Model::builtin().unwrap();
        assert_eq!(m.version, 8);
        assert_eq!((m.blocks.len(), m.trunk_c), (6, 96));
        assert_eq!(m.value.sv3.out_c, 4);
        let pools = m
            .blocks
            .iter()
            .filter(|b| matches!(b, Block::GlobalPool { .. }))
            .count();
        assert_eq!(pools, 2);
    }

    #[test]
    fn a_file_cut_short_is_truncated() {
        let raw = builtin_raw();
        for cut in [10, 1000, raw.len() / 2, raw.len() - 3] {
            let err = Model::from_bin(&raw[..cut]).unwrap_err();
            assert!(matches!(err, NnError::Truncated(_)), "cut at {cut}: {err}");
        }
    }

    /// The built-in net with every weight block written as text, as KataGo's `.txt` files are.
    fn builtin_as_text() -> Vec<u8> {
        let raw = builtin_raw();
        let mut reader = Reader::new(&raw);
        reader.model().unwrap();
        let (mut text, mut from) = (Vec::new(), 0);
        for &(at, n) in &reader.binary_blocks {
            text.extend_from_slice(&raw[from..at]);
            for c in raw[at + 5..at + 5 + 4 * n].chunks_exact(4) {
                let x = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                text.extend_from_slice(format!("{x:e} ").as_bytes());
            }
            from = at + 5 + 4 * n;
        }
        text.extend_from_slice(&raw[from..]);
        text
    }

    #[test]
    fn a_text_model_reads_as_its_binary_twin() {
        let text = builtin_as_text();
        assert!(!text.windows(5).any(|w| w == b"@BIN@"));
        let from_text = Model::read(&text).unwrap();
        let builtin = Model::builtin().unwrap();
        assert_eq!(format!("{from_text:?}"), format!("{builtin:?}"));
        // Gzipped text, as KataGo's `.txt.gz`; and the binary form read through `read`.
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, &text).unwrap();
        let from_gz = Model::read(&gz.finish().unwrap()).unwrap();
        assert_eq!(format!("{from_gz:?}"), format!("{builtin:?}"));
        let raw = Model::read(&builtin_raw()).unwrap();
        assert_eq!(format!("{raw:?}"), format!("{builtin:?}"));
    }

    #[test]
    fn a_text_model_with_a_bad_weight_is_corrupt_or_truncated() {
        let text = builtin_as_text();
        let first = text.windows(3).position(|w| w == b"e0 ").unwrap();
        let word = text[..first]
            .iter()
            .rposition(|b| b.is_ascii_whitespace())
            .unwrap()
            + 1;
        for bad in ["x1.5", "NaN", "inf"] {
            let m = [&text[..word], bad.as_bytes(), &text[first + 2..]].concat();
            assert!(matches!(Model::read(&m), Err(NnError::Corrupt(_))), "{bad}");
        }
        let cut = Model::read(&text[..text.len() / 2]).unwrap_err();
        assert!(matches!(cut, NnError::Truncated(_)), "{cut}");
    }

    #[test]
    fn bytes_that_are_not_gzip_are_refused() {
        let err = Model::from_gz(b"not a model at all").unwrap_err();
        assert!(matches!(err, NnError::Gzip(_)), "{err}");
    }

    #[test]
    fn versions_outside_8_to_17_are_named() {
        let m = edited("d26788732\n8\n", "d26788732\n7\n");
        assert_eq!(
            Model::from_bin(&m).unwrap_err(),
            NnError::UnsupportedVersion(7)
        );
        let m = edited("d26788732\n8\n", "d26788732\n18\n");
        assert_eq!(
            Model::from_bin(&m).unwrap_err(),
            NnError::UnsupportedVersion(18)
        );
    }

    #[test]
    fn an_unknown_block_kind_is_named() {
        let m = edited("ordinary_block", "transformer_moe_block");
        let err = Model::from_bin(&m).unwrap_err();
        assert!(err.to_string().contains("transformer_moe_block"), "{err}");
    }

    #[test]
    fn a_non_finite_weight_is_corrupt() {
        let mut raw = builtin_raw();
        let at = raw.windows(5).position(|w| w == b"@BIN@").unwrap() + 5;
        raw[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(Model::from_bin(&raw), Err(NnError::Corrupt(_))));
    }

    #[test]
    fn channel_counts_that_disagree_are_corrupt() {
        // The trunk says 97 channels; the initial convolution makes 96.
        let m = edited("trunk\n6\n96\n", "trunk\n6\n97\n");
        assert!(matches!(Model::from_bin(&m), Err(NnError::Corrupt(_))));
    }

    #[test]
    fn bottlenecks_nested_past_the_limit_are_refused_before_reading_on() {
        let mut r = Reader::new(b"2 whatever follows");
        r.nesting = MAX_NESTING;
        let err = r.nested(8).unwrap_err();
        assert!(err.to_string().contains("nested"), "{err}");
        assert_eq!(r.pos, 0);
    }
}
