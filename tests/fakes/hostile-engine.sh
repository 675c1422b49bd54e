#!/bin/sh
# Hostile UCI engines for tests/it/hostile_engines.rs, chosen by $HOSTILE:
#   endless    prints one endless line (no line break) after `go`
#   flood      prints lines without end during the handshake (after `uci`, before `uciok`)
#   die-on-go  exits with status 5 at every `go`
#   hang       answers the handshake, then sleeps through `go` (a process left running
#              unless its process group is ended)
# With $HOSTILE_PID set, it writes its process id to that file first; with $HOSTILE_STARTS,
# it appends a line to that file at every start.
[ -n "$HOSTILE_PID" ] && echo $$ > "$HOSTILE_PID"
[ -n "$HOSTILE_STARTS" ] && echo start >> "$HOSTILE_STARTS"
while IFS= read -r line; do
  case "$line" in
    uci)
      [ "$HOSTILE" = flood ] && yes 'info string flooding the handshake'
      echo "id name Hostile"
      echo "uciok" ;;
    isready) echo "readyok" ;;
    "go "*)
      case "$HOSTILE" in
        endless) tr '\0' x < /dev/zero ;;
        die-on-go) echo "hostile: dying on go" >&2; exit 5 ;;
        hang) exec sleep 60 ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
