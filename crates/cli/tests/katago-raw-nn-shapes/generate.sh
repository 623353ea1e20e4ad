#!/bin/sh
# KataGo's own kata-raw-nn answers for each net here on a few positions of ../katago-raw-nn
# (for a human-style net, `*-meta`, each position under a profile of its own).
# Usage: generate.sh KATAGO CONFIG (KataGo's binary and a GTP config, e.g. its gtp_example.cfg).
set -e
KATAGO=$1 CONFIG=$2
cd "$(dirname "$0")"
for net in */model.bin.gz; do
  dir=$(dirname "$net")
  for pair in empty-9-chinese:rank_20k ko-9-chinese:rank_1k_3d two-passes-9-japanese:preaz_9d \
              button-13-aga-button:proyear_1850 ladder-13-japanese:proyear_2022 \
              fight-19-new-zealand:rank_5k; do
    pos=${pair%%:*} profile=${pair#*:}
    case "$dir" in
      *-meta) { echo "kata-set-param humanSLProfile $profile"; cat "../katago-raw-nn/$pos.gtp"; } > "$dir/$pos.gtp" ;;
      *) cp "../katago-raw-nn/$pos.gtp" "$dir/$pos.gtp" ;;
    esac
    { cat "$dir/$pos.gtp"; echo quit; } | "$KATAGO" gtp -model "$net" -config "$CONFIG" \
      > "$dir/$pos.out" 2>/dev/null
  done
  echo "$dir"
done
