#!/usr/bin/env python3
"""Exports a small KataGo net of a named shape with random weights, for parity tests.

Runs KataGo's own exporter (python/export_model_pytorch.py, KataGo's repository, MIT) with
`-export-random-initialized-model`, after two changes made here rather than in its code:
- every weight and norm statistic is perturbed (seeded), because a fresh net zeroes some final
  layers and leaves some norms at identity, which would hide a mistake in reading them;
- one shape not in KataGo's list is added: `tengen-b2c32h2kv1nbttflrs-fson-silu-rsnh`, the shape
  of KataGo's newest transformer nets (`b4c256h4nbttflrs-fson-silu-rsnh`) cut to 2 blocks of 32
  channels and 2 query heads sharing 1 key head, so that it fits in this repository.

Usage (PyTorch and numpy installed; KATAGO_PYTHON is KataGo's python/ directory):
    KATAGO_PYTHON=.../KataGo/python export_shape.py SHAPE OUTDIR
writes OUTDIR/model.bin (then gzip it as model.bin.gz).
"""
import os
import runpy
import sys

import torch

shape, outdir = sys.argv[1:3]
katago_python = os.environ["KATAGO_PYTHON"]
sys.path.insert(0, katago_python)

from katago.train import modelconfigs  # noqa: E402
from katago.train import model_pytorch  # noqa: E402

tiny = dict(modelconfigs.config_of_name["b4c256h4nbttflrs-fson-silu-rsnh"])
tiny.update({
    "block_kind": [["block1", "bottlenest2transformerropesg"], ["block2", "bottlenest2transformerropesg"]],
    "trunk_num_channels": 32, "mid_num_channels": 16, "g1_num_channels": 8, "gpool_num_channels": 8,
    "p1_num_channels": 8, "v1_num_channels": 8, "v2_size": 16, "sbv2_num_channels": 12,
    "transformer_ffn_channels": 48, "transformer_heads": 2, "transformer_kv_heads": 1,
})
modelconfigs.config_of_name["tengen-b2c32h2kv1nbttflrs-fson-silu-rsnh"] = tiny

fresh = model_pytorch.Model.initialize


def perturbed(model, *args, **kwargs):
    torch.manual_seed(1)
    fresh(model, *args, **kwargs)
    with torch.no_grad():
        for _, p in model.named_parameters():
            scale = max(float(p.detach().std()) if p.numel() > 1 else 0.0, 0.05)
            p.add_(0.5 * scale * torch.randn_like(p))
        for name, b in model.named_buffers():
            if b.dtype.is_floating_point and "running_mean" in name:
                b.copy_(0.1 * torch.randn_like(b))
            elif b.dtype.is_floating_point and "running_std" in name:
                b.copy_(1.0 + 0.3 * torch.rand_like(b))


model_pytorch.Model.initialize = perturbed
sys.argv = [
    "export_model_pytorch.py", "-export-random-initialized-model", shape, "-export-dir", outdir,
    "-model-name", shape, "-filename-prefix", "model", "-ignore-attn-logit-bound",
]
runpy.run_path(os.path.join(katago_python, "export_model_pytorch.py"), run_name="__main__")
