#!/bin/sh
# A fake engine whose search rules on repetitions, for the `ruling` query of --uci and
# --ucci: it speaks UCI (FAKE_DIALECT=uci, the default) or UCCI, names itself FAKE_NAME,
# appends every line it reads to FAKE_LOG, and answers `go depth 1` with
# `info depth 1 score FAKE_SCORE` and `bestmove` the move searched: UCI's `searchmoves`
# move, UCCI's FAKE_BEST (a0a1 when none is given, as for the runner's probe search).
# FAKE_NO_SEARCH=1: it quits at `go`, as Pikafish without its network file does.
dialect=${FAKE_DIALECT:-uci}
while IFS= read -r line; do
  [ -n "$FAKE_LOG" ] && printf '%s\n' "$line" >> "$FAKE_LOG"
  case "$line" in
    uci|ucci)
      echo "id name ${FAKE_NAME:-FakeSearcher 1.0}"
      echo "${line}ok" ;;
    isready) echo "readyok" ;;
    "go "*)
      [ "$FAKE_NO_SEARCH" = 1 ] && { echo "info string ERROR: no network"; exit 1; }
      best=a0a1
      case "$line" in
        *searchmoves*) best=${line##*searchmoves } ;;
        *) [ "$dialect" = ucci ] && [ -n "$FAKE_BEST" ] && best=$FAKE_BEST ;;
      esac
      echo "info depth 1 score ${FAKE_SCORE:-cp 12} nodes 1 pv $best"
      echo "bestmove $best" ;;
    quit) exit 0 ;;
  esac
done
