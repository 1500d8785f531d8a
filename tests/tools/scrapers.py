#!/usr/bin/env python3
"""scrapers.py URL CAFILE USER PASSWORD THREADS SECONDS METRIC

THREADS scrapers at once, each scraping URL over TLS (CAFILE verifies
the server) with basic authentication, one request after another, for
SECONDS.  Each records every response: a status other than 200, a
connection error or a body without METRIC is a failure, and so is a
counter that goes down between two of one scraper's scrapes (the export
must never lose a count, whatever the load).  Prints one line:

    scrapes N failed F slowest S.s per-scraper-min M last V

and exits 1 if F > 0 or some scraper was never served.
"""
import base64
import http.client
import ssl
import sys
import threading
import time
import urllib.parse


def value_of(body, metric):
    for line in body.decode().splitlines():
        name, _, v = line.rpartition(" ")
        if name == metric:
            return float(v)
    return None


def main():
    url, cafile, user, pw, threads, seconds, metric = sys.argv[1:8]
    threads, seconds = int(threads), float(seconds)
    u = urllib.parse.urlsplit(url)
    ctx = ssl.create_default_context(cafile=cafile)
    auth = "Basic " + base64.b64encode(f"{user}:{pw}".encode()).decode()
    start = threading.Barrier(threads)
    lock = threading.Lock()
    served = [0] * threads
    failures = []
    slowest = [0.0]
    last = [None]

    def scraper(i):
        seen = -1.0
        start.wait()
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            t0 = time.monotonic()
            try:
                c = http.client.HTTPSConnection(u.hostname, u.port,
                                                context=ctx, timeout=60)
                c.request("GET", u.path, headers={"Authorization": auth})
                r = c.getresponse()
                body = r.read()
                c.close()
            except Exception as e:  # noqa: BLE001 -- every error counts
                with lock:
                    failures.append(f"scraper {i}: {e!r}")
                continue
            v = value_of(body, metric) if r.status == 200 else None
            with lock:
                slowest[0] = max(slowest[0], time.monotonic() - t0)
                if r.status != 200 or v is None or v < seen:
                    failures.append(f"scraper {i}: status {r.status}, "
                                    f"{metric} {v} after {seen}")
                    continue
                served[i] += 1
                last[0] = v
            seen = v

    ts = [threading.Thread(target=scraper, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    lastv = "none" if last[0] is None else f"{last[0]:.0f}"
    print(f"scrapes {sum(served)} failed {len(failures)} "
          f"slowest {slowest[0]:.1f}s per-scraper-min {min(served)} "
          f"last {lastv}")
    for f in failures[:5]:
        print(f)
    return 1 if failures or min(served) == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
