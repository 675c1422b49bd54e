#!/bin/sh
# A fake UCI engine for the runner's --uci tests. It knows one position
# (any FEN): the legal moves are a fixed list, and `go perft N` prints them
# with count 1 each and "Nodes searched: 3" at depth 1, 42 at depth 2.
# With FAKE_UCI_FAIRY=1 it offers UCI_Variant and numbers ranks 1-10,
# as Fairy-Stockfish does; otherwise ranks 0-9, as Pikafish does.
# `position ... moves x` with any move makes the next perft hang (a fault).
# With FAKE_UCI_SILENT=1 every perft hangs (an engine that answers nothing).
hang=0
while IFS= read -r line; do
  case "$line" in
    uci)
      if [ "$FAKE_UCI_FAIRY" = 1 ]; then
        echo "id name FakeFairy 1.0"
        echo "option name UCI_Variant type combo default chess var chess var xiangqi"
      else
        echo "id name FakePika 2.0"
      fi
      echo "uciok" ;;
    isready) echo "readyok" ;;
    "setoption name UCI_Variant value xiangqi") variant=1 ;;
    position*moves*) hang=1 ;;
    position*) hang=0 ;;
    "go perft "*)
      [ $hang = 1 ] || [ "$FAKE_UCI_SILENT" = 1 ] && exec sleep 30
      depth=${line#go perft }
      if [ "$FAKE_UCI_FAIRY" = 1 ]; then
        echo "a1a2: 1"; echo "e1e2: 1"; echo "i10i9: 1"
      else
        echo "a0a1: 1"; echo "e0e1: 1"; echo "i9i8: 1"
      fi
      echo ""
      if [ "$depth" = 1 ]; then echo "Nodes searched: 3"; else echo "Nodes searched: 42"; fi ;;
    quit) exit 0 ;;
  esac
done
