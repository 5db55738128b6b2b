#!/usr/bin/env python3
"""A multi-threaded Python workload with cross-thread frees (make bench-real).

Run under PYTHONMALLOC=malloc: two producer threads build small dicts,
lists and strings and put them on a queue; two consumer threads take
them, read them and drop them, so nearly every object is freed by a
thread other than the one that allocated it (the case where malloc's
per-thread caches meet: SLAB's per-CPU arrays and node lists here).
The GIL runs one thread at a time, switching every few milliseconds,
so the threads hand memory to each other constantly. Prints a digest
that does not depend on the interleaving. The argument scales the work
(1: about a second here).
"""
import queue
import sys
import threading

PRODUCERS = 2
CONSUMERS = 2


def producer(q, first, count):
    for i in range(first, first + count):
        q.put({"id": i, "items": [i] * (i % 5), "name": "item-%d" % i})


def consumer(q, totals, slot):
    total = 0
    while True:
        item = q.get()
        if item is None:
            break
        total += item["id"] + len(item["items"]) + len(item["name"])
    totals[slot] = total


def main():
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    per_producer = int(100000 * scale)
    q = queue.Queue(maxsize=512)
    totals = [0] * CONSUMERS
    consumers = [threading.Thread(target=consumer, args=(q, totals, c))
                 for c in range(CONSUMERS)]
    producers = [threading.Thread(target=producer,
                                  args=(q, p * per_producer, per_producer))
                 for p in range(PRODUCERS)]
    for t in consumers + producers:
        t.start()
    for t in producers:
        t.join()
    for _ in consumers:
        q.put(None)
    for t in consumers:
        t.join()
    print(PRODUCERS * per_producer, sum(totals))


if __name__ == "__main__":
    main()
