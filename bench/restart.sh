#!/bin/bash
# Restarts `pmref start` on an existing store and pack (no first start before it) and times each restart: seconds to
# the first 200 on /v1/events (polled every 20 ms) and RSS 10 s later; each process is then stopped with SIGTERM.
# The pack is used only when it was written for the same origin, so use the port of the start that wrote it (a
# restart on another port rebuilds it once, and later restarts on that port use the new one).
# Usage: bench/restart.sh <repo> <data dir holding pmref.sqlite and its .pack> <port> [restarts, default 5]
REPO=$1; D=$2; PORT=$3; N=${4:-5}
cd $REPO
export PMREF_DB_URL=sqlite:$D/pmref.sqlite PMREF_SIM_DIR=$D/sim PMREF_SOURCE=auto PMREF_VENUE_A_URL=http://127.0.0.1:9/a PMREF_VENUE_B_URL=http://127.0.0.1:9/b PMREF_VENUE_B_CLOB_URL=http://127.0.0.1:9/c PMREF_SPOT_URL=http://127.0.0.1:9/s
for i in $(seq 1 $N); do
  T0=$(date +%s.%N)
  node bin/pmref.js start --port $PORT >$D/restart.stdout 2>$D/restart.log &
  PID=$!
  until curl -sf -o /dev/null localhost:$PORT/v1/events; do sleep 0.02; if ! kill -0 $PID 2>/dev/null; then echo "restart died: $D/restart.log"; exit 1; fi; done
  FIRST=$(echo "$(date +%s.%N) - $T0" | bc)
  sleep 10; S=$(awk '/VmRSS/{print $2}' /proc/$PID/status)
  echo "restart $i: first200 $FIRST s, rss-10s $((S/1024)) MB"
  kill $PID; wait $PID
done
