"""A progress bar for long management commands, drawn on one line of the terminal."""
import time

WIDTH = 30


def bar(done, total, started, out, unit="games", note="", since=0):
    """Redraw the bar: `done` of `total` `unit`, the rate since `started` (a `time.perf_counter()`, when `since` were
    done), the time left at that rate, and a note."""
    filled = int(WIDTH * done / total) if total else WIDTH
    elapsed = max(time.perf_counter() - started, 1e-9)
    rate = (done - since) / elapsed
    left = (total - done) / rate if rate and done < total else 0
    out.write(f"\r[{'#' * filled}{'.' * (WIDTH - filled)}] {done}/{total} {unit}  {rate:.1f} {unit}/s"
              f"  {left / 60:.0f} min left{'  ' + note if note else ''}   ", ending="")
    out.flush()
