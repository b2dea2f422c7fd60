# Extends a SQLite store (a COPY: this writes to it) with a week of hourly detail for the history route's figures
# (label `week-hourly` of bench/footprint.json; README "History and retention", How fast):
#
#   python3 bench/synthesize-hourly-week.py /tmp/week.sqlite [hours]    # hours added, default 165
#
# Start from a store after a few real hourly refreshes (`pmref ingest --source simulated --perturb 0.05 --runs 3`):
# each added hour is a published pipeline run (a copy of the newest one's record, one hour later, the next
# generation) and the newest hour's hourly rows given to as many other markets drawn at random, so the hourly grid
# has one point per hour and about 5% of markets change each hour, as in the measured refreshes.
import datetime
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
hours = int(sys.argv[2]) if len(sys.argv) > 2 else 165
run = db.execute('SELECT started_at, source, status, generation, summary, owner FROM pipeline_runs '
                 'WHERE generation > 0 ORDER BY generation DESC LIMIT 1').fetchone()
newest = db.execute('SELECT max(snapshot_hour) FROM hourly_marks').fetchone()[0]
if run is None or newest is None:
    sys.exit('no published run with hourly detail: run a few hourly refreshes first')
columns = [r[1] for r in db.execute('PRAGMA table_info(hourly_marks)')]
select = ','.join('m.market_id' if c == 'market_id' else ('?' if c == 'snapshot_hour' else f'h.{c}') for c in columns)
start = datetime.datetime.strptime(run[0][:13], '%Y-%m-%dT%H')
for h in range(1, hours + 1):
    at = start + datetime.timedelta(hours=h)
    iso = at.strftime('%Y-%m-%dT%H:00:00.000Z')
    db.execute('INSERT INTO pipeline_runs (started_at, finished_at, source, status, generation, summary, owner) '
               'VALUES (?, ?, ?, ?, ?, ?, ?)', (iso, iso, run[1], run[2], run[3] + h, run[4], run[5]))
    db.execute(f'''INSERT INTO hourly_marks ({','.join(columns)}) SELECT {select} FROM
      (SELECT market_id, row_number() OVER (ORDER BY random()) rn FROM markets) m JOIN
      (SELECT *, row_number() OVER () rn FROM hourly_marks WHERE snapshot_hour = ?) h ON m.rn = h.rn''',
               (at.strftime('%Y-%m-%dT%H'), newest))
    db.commit()
rows, distinct = db.execute('SELECT count(*), count(DISTINCT snapshot_hour) FROM hourly_marks').fetchone()
print(f'{rows} hourly rows over {distinct} hours', file=sys.stderr)
