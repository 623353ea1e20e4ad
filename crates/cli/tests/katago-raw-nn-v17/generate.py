#!/usr/bin/env python3
"""Makes the golden files of tests/nn_parity.rs for a later-version net (never checked in).

The positions are those of ../katago-raw-nn (made there by generate.py with the g170 net):
each NAME.gtp is copied into the current directory and KataGo's answer to it with MODEL is
written as NAME.out. Run elsewhere (with ../katago-raw-nn beside it) for a net not kept here,
then compare with nn_parity.rs's ignored test (TENGEN_PARITY_MODEL, TENGEN_PARITY_DIR).

Usage: generate.py KATAGO MODEL CONFIG NAME...
e.g.   generate.py /work/katago/katago ../nets/b7c96h3tfrs-test5-cnorm.bin.gz \\
           /work/katago/gtp.cfg empty-9-chinese ...
"""
import shutil
import subprocess
import sys

KATAGO, MODEL, CONFIG = sys.argv[1:4]

for name in sys.argv[4:]:
    shutil.copy(f"../katago-raw-nn/{name}.gtp", f"{name}.gtp")
    with open(f"{name}.gtp") as f:
        commands = f.read()
    p = subprocess.run([KATAGO, "gtp", "-model", MODEL, "-config", CONFIG],
                       input=commands + "quit\n", capture_output=True, text=True, check=True)
    with open(f"{name}.out", "w") as f:
        f.write(p.stdout)
    print(name)
