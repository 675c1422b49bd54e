#!/bin/sh
# A fake UCCI engine for the runner's --ucci tests, speaking as ElephantEye
# does: `ucci` ... `ucciok`, `banmoves`, `go depth 1` answered `bestmove M`
# or `nobestmove`. From any FEN the legal moves are a0a1, e0e1, i9i8; after
# `position ... moves ...` they are b9b8, c9c8 (so perft 2 is 6).
# `go` plays the first move of the list that is not banned, unless its
# opening book is on (the default, as ElephantEye's): a book move ignores
# banmoves. FAKE_UCCI_DEAF=1: it ignores banmoves even with the book off.
list="a0a1 e0e1 i9i8"
banned=""
book=1
while IFS= read -r line; do
  case "$line" in
    ucci)
      echo "id name FakeEye"
      echo "id version 3.3"
      echo "id author nobody"
      echo "option usebook type check default true"
      echo "ucciok" ;;
    "setoption usebook false") book=0 ;;
    isready) echo "readyok" ;;
    position*moves*) list="b9b8 c9c8"; banned="" ;;
    position*) list="a0a1 e0e1 i9i8"; banned="" ;;
    banmoves*) [ "$FAKE_UCCI_DEAF" = 1 ] || [ $book = 1 ] || banned="${line#banmoves }" ;;
    "go "*)
      best=""
      for m in $list; do
        case " $banned " in
          *" $m "*) ;;
          *) best=$m; break ;;
        esac
      done
      if [ -n "$best" ]; then echo "bestmove $best"; else echo "nobestmove"; fi ;;
    quit) echo "bye"; exit 0 ;;
  esac
done
