#!/bin/sh
# Start one tether hook: hooks/run.sh SCRIPT (e.g. user_prompt_submit), payload on stdin.
#
# The hook runs under the plugin venv's own python when it is known, straight, rather than the
# `python3` on PATH: a PATH shim (pyenv, asdf) costs more than the whole hook, and the venv's
# interpreter is the one the hook can run in without a second start. Everything else (is the venv
# ready, failing open) is hooks/launcher.py's job; this only picks the interpreter. Builtins only.
case $0 in */*) here=${0%/*} ;; *) here=. ;; esac  # not $(dirname): no fork on every prompt
py=
if [ -n "$TETHER_VENV" ]; then
    py="$TETHER_VENV/bin/python"
elif [ -n "$CLAUDE_PLUGIN_DATA" ] && [ -r "$CLAUDE_PLUGIN_DATA/venv.python" ]; then
    IFS= read -r py < "$CLAUDE_PLUGIN_DATA/venv.python"
fi
[ -n "$py" ] && [ -x "$py" ] || py=python3
exec "$py" -S "$here/$1.py"
