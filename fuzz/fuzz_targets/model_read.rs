//! Any bytes as a KataGo model file (gzipped or not, binary or text weights): the reader
//! returns a model or a typed error, never panics; a model read runs one forward pass on a
//! 9x9 position (its shapes were checked, so the pass indexes nothing out of bounds).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tengen_ai::nn::forward::forward;
use tengen_ai::nn::model::{Model, META_INPUTS};

fuzz_target!(|data: &[u8]| {
    let Ok(model) = Model::read(data) else {
        return;
    };
    let area = 81;
    let mut spatial = vec![0.0f32; area * model.spatial_inputs];
    for (i, x) in spatial.iter_mut().enumerate() {
        // On-board everywhere, a few stones of each colour.
        *x = match i % model.spatial_inputs {
            0 => 1.0,
            1 | 2 => ((i / model.spatial_inputs) % 7 == 0) as u8 as f32,
            _ => 0.0,
        };
    }
    let globals = model.global_inputs + model.meta_encoder.as_ref().map_or(0, |_| META_INPUTS);
    let global = vec![0.5f32; globals];
    let out = forward(&model, 9, &spatial, &global);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].policy.len(), area);
});
