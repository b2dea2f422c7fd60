#!/bin/bash
# Measures a first start of `npm start` on a fresh store (simulated universe, venues unreachable), then a restart:
# first 200 on /v1/events, peak RSS (sampled from /proc every 0.3 s, each sample kept in rss.tsv), RSS 30 s and 60 s after the history catch-up
# published (third "pipeline run N ok" line), the store and pack sizes, restart to first 200 and its RSS.
# Usage: bench/first-start.sh <repo> <scratch dir> <port>   (issue 18; figures in bench/footprint.json)
REPO=$1; W=$2; PORT=$3
rm -rf $W; mkdir -p $W/data
cd $REPO
export PMREF_DB_URL=sqlite:$W/data/pmref.sqlite PMREF_SIM_DIR=$W/data/sim PMREF_SOURCE=auto PMREF_VENUE_A_URL=http://127.0.0.1:9/a PMREF_VENUE_B_URL=http://127.0.0.1:9/b PMREF_VENUE_B_CLOB_URL=http://127.0.0.1:9/c PMREF_SPOT_URL=http://127.0.0.1:9/s
T0=$(date +%s.%N)
node bin/pmref.js start --port $PORT >$W/stdout 2>$W/log &
PID=$!
PEAK=0; FIRST=""; DONE=""
while kill -0 $PID 2>/dev/null; do
  R=$(awk '/VmRSS/{print $2}' /proc/$PID/status 2>/dev/null); R=${R:-0}
  NOW=$(date +%s.%N)
  if [ "$R" -gt "$PEAK" ]; then PEAK=$R; PEAKT=$(echo "$NOW - $T0" | bc); fi
  echo "$(echo "$NOW - $T0" | bc) $((R/1024))" >> $W/rss.tsv
  if [ -z "$FIRST" ]; then
    if curl -sf -o /dev/null localhost:$PORT/v1/events; then FIRST=$(echo "$NOW - $T0" | bc); echo "first200 $FIRST s peak-so-far $((PEAK/1024)) MB"; fi
  elif [ -z "$DONE" ]; then
    N=$(grep -cE 'pipeline run [0-9]+ (ok|partial)' $W/log)
    if [ "$N" -ge 3 ]; then DONE=$(echo "$NOW - $T0" | bc); echo "catchup-done $DONE s peak-so-far $((PEAK/1024)) MB"; DT=$(date +%s); fi
  else
    E=$(( $(date +%s) - DT ))
    if [ $E -ge 60 ]; then echo "rss-60s-after-catchup $((R/1024)) MB"; break; fi
    if [ $E -ge 30 ] && [ -z "$S30" ]; then S30=1; echo "rss-30s-after-catchup $((R/1024)) MB"; fi
  fi
  sleep 0.3
done
echo "peak-rss $((PEAK/1024)) MB at $PEAKT s (every sample: $W/rss.tsv, seconds and MB)"
# The restart must find the pack of the catch-up's generation: wait (up to 10 min) until it is written.
for _ in $(seq 1 600); do
  [ -n "$DT" ] && [ -f $W/data/pmref.sqlite.pack ] && [ "$(stat -c %Y $W/data/pmref.sqlite.pack)" -ge "$DT" ] && break
  sleep 1
done
kill $PID; wait $PID
ls -la $W/data
T0=$(date +%s.%N)
node bin/pmref.js start --port $PORT >$W/stdout2 2>$W/log2 &
PID=$!
until curl -sf -o /dev/null localhost:$PORT/v1/events; do sleep 0.05; if ! kill -0 $PID 2>/dev/null; then echo "restart died"; break; fi; done
echo "restart-first200 $(echo "$(date +%s.%N) - $T0" | bc) s"
sleep 10; S=$(awk '/VmRSS/{print $2}' /proc/$PID/status); echo "restart-rss-10s $((S/1024)) MB"
kill $PID; wait $PID
