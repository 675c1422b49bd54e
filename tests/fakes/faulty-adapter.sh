#!/bin/sh
# A fake implementation for the runner's fault tests. It speaks protocol 1
# and answers every perft with {"nodes": 1}, except when the request id
# (case id @ edition) names a fault:
#   crash-*    exits with status 3 without answering
#   hang-*     never answers (sleeps)
#   garbage-*  prints a line that is not JSON
#   wrongid-*  answers with another id
#   reject-*   rejects with fen.syntax
#   unsup-*    answers unsupported
#   endless-*  prints one endless line (no line break)
#   flood-*    prints empty lines without end
#   limit-*    answers {"nodes": N}, N the runner's limits.timeout_ms from the hello
# Each start appends a line to $FAKE_STARTS when that variable is set; with
# FAKE_START_ONCE=1 every start after the first exits at once (a broken restart).
if [ -n "$FAKE_STARTS" ]; then
  if [ "$FAKE_START_ONCE" = 1 ] && [ -s "$FAKE_STARTS" ]; then
    echo "fake: refusing to start again" >&2; exit 4
  fi
  echo start >> "$FAKE_STARTS"
fi
while IFS= read -r line; do
  case "$line" in
    *'"type":"hello"'*)
      timeout_ms=$(printf '%s\n' "$line" | sed -n 's/.*"timeout_ms":\([0-9]*\).*/\1/p')
      printf '%s\n' '{"type":"hello","protocol":1,"implementation":{"name":"faulty","version":"0.0.1","language":"sh"},"editions":["cxa-2020"],"queries":["perft"]}'
      continue ;;
    *'"type":"stop"'*) exit 0 ;;
  esac
  id=$(printf '%s\n' "$line" | sed 's/.*"id":"\([^"]*\)".*/\1/')
  case "$id" in
    crash-*) echo "fake: crashing on $id" >&2; exit 3 ;;
    hang-*) exec sleep 30 ;;
    garbage-*) printf '%s\n' 'this is not JSON' ;;
    wrongid-*) printf '{"id":"%s-other","result":{"nodes":1}}\n' "$id" ;;
    reject-*) printf '{"id":"%s","reject":{"kind":"fen.syntax","message":"fake"}}\n' "$id" ;;
    unsup-*) printf '{"id":"%s","unsupported":{"reason":"fake skips it"}}\n' "$id" ;;
    endless-*) tr '\0' x < /dev/zero ;;
    flood-*) yes '' ;;
    limit-*) printf '{"id":"%s","result":{"nodes":%s}}\n' "$id" "${timeout_ms:-0}" ;;
    *) printf '{"id":"%s","result":{"nodes":1}}\n' "$id" ;;
  esac
done
