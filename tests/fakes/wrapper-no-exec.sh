#!/bin/sh
# A launch script that starts the hostile engine as its child without `exec`, as some
# installers' wrappers do: ending this shell alone leaves the engine running.
sh "$(dirname "$0")/hostile-engine.sh"
