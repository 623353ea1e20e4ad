#!/bin/sh
# KataGo's own kata-raw-nn answers for each net here on a few positions of ../katago-raw-nn.
# Usage: generate.sh KATAGO CONFIG (KataGo's binary and a GTP config, e.g. its gtp_example.cfg).
set -e
KATAGO=$1 CONFIG=$2
cd "$(dirname "$0")"
for net in */model.bin.gz; do
  dir=$(dirname "$net")
  for pos in empty-9-chinese ko-9-chinese two-passes-9-japanese button-13-aga-button \
             ladder-13-japanese fight-19-new-zealand; do
    cp "../katago-raw-nn/$pos.gtp" "$dir/$pos.gtp"
    { cat "$dir/$pos.gtp"; echo quit; } | "$KATAGO" gtp -model "$net" -config "$CONFIG" \
      > "$dir/$pos.out" 2>/dev/null
  done
  echo "$dir"
done
