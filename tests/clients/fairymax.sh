#!/usr/bin/env bash
# Starts the installed Fairy-Max (the opponent of tests/clients/run.sh) with address-space
# randomization off for it alone.  Fairy-Max 5.0b takes a command it does not know ('computer',
# 'name X', 'rating', 'ics', 'cores', 'draw', 'result') for a move and indexes its board with
# the letters; under a randomized layout that read lands outside its memory about half the
# time and it dies of SIGSEGV before its first move (measured: 'computer' right after 'new'
# killed 11 of 20 starts; 0 of 12 with randomization off).  Where setarch cannot do that
# (no util-linux, or a sandbox that forbids personality(2)), Fairy-Max runs as it is.
export PATH="$PATH:/usr/games:/usr/local/games"
if setarch "$(uname -m)" -R true 2>/dev/null; then
    exec setarch "$(uname -m)" -R fairymax "$@"
fi
exec fairymax "$@"
