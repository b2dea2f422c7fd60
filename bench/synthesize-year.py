# Fills a SQLite store (a COPY: this writes to it) up to a year of daily marks, fast, for the footprint figures
# (bench/README.md, Footprint; label `year-365-b` of bench/footprint.json):
#
#   python3 bench/synthesize-year.py /tmp/year.sqlite [days]        # days: the total wanted, default 365
#
# The newest date's marks are copied back one day at a time before the oldest stored date, with the prices jittered
# by up to ±0.01 (clamped to 0.01–0.99) and every other column (sizes, volumes, provenance and raw payload ids) kept.
# One day per transaction, so a market's marks land on a different table page each day, as when history accrues one
# run a day. Unlike `pmref bench --history` (real-shaped random walks through the Store interface, about an hour for
# the full universe), this is SQL over the typed columns of migration 0006 and later: 350 days of the full
# simulated universe took 848 s on the 2-core bench machine.
import datetime
import sqlite3
import sys
import time

PRICES = ('yes_bid', 'yes_ask', 'no_bid', 'no_ask', 'yes_last_price', 'implied_probability', 'mid')

db = sqlite3.connect(sys.argv[1])
want = int(sys.argv[2]) if len(sys.argv) > 2 else 365
newest, oldest, have = db.execute('SELECT max(snapshot_date), min(snapshot_date), count(DISTINCT snapshot_date) FROM marks').fetchone()
if newest is None:
    sys.exit('no marks: fill the store first (npm start, or pmref ingest)')
columns = [r[1] for r in db.execute('PRAGMA table_info(marks)') if r[1] != 'mark_id']
day = datetime.date.fromisoformat(oldest)
started = time.time()
for i in range(max(0, want - have)):
    day -= datetime.timedelta(days=1)
    select = []
    for column in columns:
        if column == 'snapshot_date':
            select.append(f"'{day.isoformat()}'")
        elif column in PRICES:
            select.append(f'CASE WHEN {column} IS NULL THEN NULL ELSE '
                          f'min(0.99, max(0.01, round({column} + ((abs(random()) % 21) - 10) / 1000.0, 3))) END')
        else:
            select.append(column)
    db.execute(f"INSERT INTO marks ({','.join(columns)}) SELECT {','.join(select)} FROM marks WHERE snapshot_date = ?",
               (newest,))
    db.commit()
    if i % 25 == 0:
        print(f'{i + 1} days written, back to {day}, {time.time() - started:.0f} s', file=sys.stderr, flush=True)
print(f'done: {max(0, want - have)} days in {time.time() - started:.0f} s', file=sys.stderr)
