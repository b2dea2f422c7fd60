#!/bin/bash
# Memory of `pmref worker` over one pipeline run on the full simulated universe, then idle: peak RSS, RSS 5, 30 and
# 60 s after its "pipeline run N ok" line (sampled from /proc every 0.5 s), then SIGTERM (its exit status printed).
# The run replays the newest snapshot of a first start's simulated universe into a copy of that first start's store.
# Usage: bench/worker-rss.sh <repo> <first-start dir (bench/first-start.sh's scratch dir)> <scratch dir>   (issue 18)
REPO=$1; FS=$2; W=$3
rm -rf $W; mkdir -p $W/rep
NEWEST=$(ls $FS/data/sim/snapshots | sort | tail -1)
ln -s $FS/data/sim/snapshots/$NEWEST $W/rep/snapshot; ln -s $FS/data/sim/history $W/rep/history
cp $FS/data/pmref.sqlite $W/store.sqlite
cd $REPO
PMREF_DB_URL=sqlite:$W/store.sqlite PMREF_SOURCE=replay PMREF_REPLAY_DIR=$W/rep node bin/pmref.js worker 2>$W/log &
PID=$!; PEAK=0; T0=$(date +%s); DT=""; S5=""; S30=""
while kill -0 $PID 2>/dev/null; do
  R=$(awk '/VmRSS/{print $2}' /proc/$PID/status 2>/dev/null); R=${R:-0}; [ "$R" -gt "$PEAK" ] && PEAK=$R
  if [ -z "$DT" ] && grep -qE 'pipeline run [0-9]+ (ok|partial)' $W/log; then
    DT=$(date +%s); echo "run done after $((DT-T0)) s, peak so far $((PEAK/1024)) MB"
  fi
  if [ -n "$DT" ]; then
    E=$(( $(date +%s) - DT ))
    [ $E -ge 5 ] && [ -z "$S5" ] && S5=1 && echo "rss 5 s after the run $((R/1024)) MB"
    [ $E -ge 30 ] && [ -z "$S30" ] && S30=1 && echo "rss 30 s after the run $((R/1024)) MB"
    [ $E -ge 60 ] && echo "rss 60 s after the run $((R/1024)) MB" && break
  fi
  sleep 0.5
done
echo "peak-rss $((PEAK/1024)) MB; run $(grep -o '"cpu_ms":[0-9]*' $W/log | head -1)"
kill $PID; wait $PID; echo "worker exit $?"
