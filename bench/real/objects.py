#!/usr/bin/env python3
"""An object-heavy Python workload for make bench-real.

Run under PYTHONMALLOC=malloc so that every object goes through the
malloc being measured. Builds and tears down dicts, lists, tuples,
strings and small class instances in a deterministic pattern (a fixed
linear congruential generator, no hashing of str: PYTHONHASHSEED does
not matter for the output), and prints a digest of what it computed.
The argument scales the work (default 1: about a second here).
"""
import sys


class Node:
    __slots__ = ("key", "value", "children")

    def __init__(self, key, value):
        self.key = key
        self.value = value
        self.children = []


def lcg(seed):
    while True:
        seed = (seed * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        yield seed >> 33


def build_tree(rnd, n):
    nodes = [Node(i, "v%d" % next(rnd)) for i in range(n)]
    for i in range(1, n):
        nodes[next(rnd) % i].children.append(nodes[i])
    return nodes[0]


def tree_sum(root):
    total, stack = 0, [root]
    while stack:
        node = stack.pop()
        total += node.key + len(node.value)
        stack.extend(node.children)
    return total


def churn_dicts(rnd, rounds, size):
    digest = 0
    for r in range(rounds):
        d = {}
        for i in range(size):
            k = "k%d" % (next(rnd) % (size * 2))
            d[k] = [i, str(i), (i, r)]
        for k in sorted(d)[: size // 3]:
            del d[k]
        digest = (digest * 31 + len(d) + sum(v[0] for v in d.values())) % (1 << 61)
    return digest


def strings(rnd, n):
    parts = []
    for i in range(n):
        s = "".join(chr(97 + (next(rnd) % 26)) for _ in range(next(rnd) % 40))
        parts.append(s.upper() + s[::-1])
    text = " ".join(parts)
    words = text.split()
    return len(text), len(set(words)), sum(map(len, words))


def main():
    scale = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    rnd = lcg(42)
    out = []
    for _ in range(max(1, int(3 * scale))):
        out.append(tree_sum(build_tree(rnd, 40000)))
    out.append(churn_dicts(rnd, max(1, int(40 * scale)), 5000))
    out.append(strings(rnd, int(60000 * scale)))
    print(out)


if __name__ == "__main__":
    main()
