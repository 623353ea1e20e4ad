#!/usr/bin/env bash
# Installs gomill 0.8.3 from PyPI into a Python 3 virtual environment.
#
# gomill's last release is Python 2 code, and Debian no longer ships Python 2. Its GTP controller
# (gtp_controller) and board (boards) need only a mechanical port: lib2to3, no encoding of command
# words to bytes, and text-mode pipes to the engine. The SGF modules are not ported and not used.
# Usage: .ci/gomill-py3.sh VENV_DIR
set -euo pipefail
venv=${1:?usage: gomill-py3.sh VENV_DIR}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" download -q --no-deps --no-binary :all: -d "$work" gomill==0.8.3
tar xzf "$work"/gomill-0.8.3.tar.gz -C "$work"
src="$work/gomill-0.8.3"
python3 -W ignore -m lib2to3 -w -n "$src/gomill" >/dev/null 2>&1
ctl="$src/gomill/gtp_controller.py"
# Keep command words as str (Python 2 str was bytes).
sed -i 's/return argument.encode("utf-8")/return argument/' "$ctl"
# Talk to the engine in text mode.
sed -i 's/p = subprocess.Popen(/p = subprocess.Popen(universal_newlines=True, args=/' "$ctl"
"$venv/bin/pip" install -q "$src"
"$venv/bin/python" -c "from gomill import gtp_controller, boards"
echo "gomill installed in $venv"
