#!/usr/bin/python3
"""Draw build/bench.json (make bench) as a picture: build/bench.png.

Left panel: per workload, the median ns/op of every allocator as bars
side by side (log scale: the workloads span three orders of magnitude),
with cram's ratio to the best peer written at the right of each group
(green when cram is at least as fast, red when slower). Right panel:
the peak memory of the workloads that record one (MiB, over what the
program held at start). Bottom panel, when the scaling rows are there:
their efficiency on K > 1 threads, ops/s(tK) / (K x ops/s(t1)), as bars
per allocator, with the efficiency per CPU-second as a dot on each bar
(on a shared machine the bar also counts other work holding the CPUs;
the dot leaves that out). Needs matplotlib: Debian's python3-matplotlib,
which is why this runs under /usr/bin/python3 and not any other python.

    bench/plot.py [--json build/bench.json] [--out build/bench.png]
"""
import argparse
import json
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("bench/plot.py: matplotlib missing (make deps installs "
             "python3-matplotlib; run with /usr/bin/python3)")

COLORS = {"cram": "#d62728", "glibc": "#7f7f7f", "jemalloc": "#1f77b4",
          "mimalloc": "#2ca02c", "tcmalloc": "#9467bd"}


def plot_scaling(ax, table, impls, rows, threads):
    """Efficiency bars of the scale_*_tK rows (K > 1), CPU-time dots."""
    width = 0.8 / len(impls)
    for k, impl in enumerate(impls):
        for i, b in enumerate(rows):
            sc = table[b]["scaling"]
            eff = sc["efficiency"].get(impl)
            if eff is None:
                continue
            x = i - 0.4 + width * (k + 0.5)
            ax.bar(x, eff * 100, width=width, color=COLORS.get(impl, None))
            cpu_eff = sc.get("cpu_efficiency", {}).get(impl)
            if cpu_eff is not None:
                ax.plot(x, min(cpu_eff, 1.5) * 100, "o", color="black",
                        markersize=3)
    ax.axhline(100, color="#2ca02c", linewidth=0.8)
    ax.axhline(50, color="#7f7f7f", linewidth=0.8, linestyle="--")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels(rows, fontsize=8)
    ax.set_ylim(0, 150)
    ax.set_ylabel("scaling efficiency, %", fontsize=8)
    ax.set_title("ops/s(tK) / (K x ops/s(t1)): 100%% perfect, dashed: no gain "
                 "from the 2nd CPU; dot: per CPU-second (other work left out)"
                 "%s" % ("; %d CPUs, so tN = t%d" % (threads, threads)
                         if threads and threads <= 2 else ""), fontsize=8)
    ax.grid(axis="y", alpha=0.3)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", default="build/bench.json")
    ap.add_argument("--out", default="build/bench.png")
    ap.add_argument("--title", default="make bench: cram's kmalloc against "
                    "the malloc peers (median of the rounds; shared machine, noisy)")
    args = ap.parse_args()
    with open(args.json) as f:
        data = json.load(f)
    impls = data["impls"]
    table = data["table"]
    benches = list(table)
    peak_benches = [b for b in benches if table[b].get("peak_kib")]
    scale_rows = [b for b in benches
                  if table[b].get("scaling", {}).get("threads", 1) > 1]

    height_main = 0.42 * len(benches) + 1.8
    height_scale = 3.2 if scale_rows else 0
    fig = plt.figure(figsize=(13, height_main + height_scale))
    grid = fig.add_gridspec(2 if scale_rows else 1, 2,
                            width_ratios=[3, 1.3],
                            height_ratios=([height_main, height_scale]
                                           if scale_rows else [1]))
    ax = fig.add_subplot(grid[0, 0])
    axm = fig.add_subplot(grid[0, 1])
    n = len(impls)
    height = 0.8 / n
    for k, impl in enumerate(impls):
        ys, xs = [], []
        for i, b in enumerate(benches):
            r = table[b]["results"].get(impl)
            if r:
                ys.append(i - 0.4 + height * (k + 0.5))
                xs.append(r["median_ns"])
        ax.barh(ys, xs, height=height, color=COLORS.get(impl, None),
                label=impl)
    ax.set_xscale("log")
    xmax = max(r["median_ns"] for b in benches
               for r in table[b]["results"].values())
    ax.set_xlim(right=xmax * 6)
    for i, b in enumerate(benches):
        ratio = table[b].get("ratio")
        if ratio:
            ax.text(xmax * 1.4, i, "%.2fx %s" % (ratio, table[b]["best_peer"]),
                    va="center", fontsize=8,
                    color="#2ca02c" if ratio <= 1.0 else "#d62728")
    ax.set_yticks(range(len(benches)))
    ax.set_yticklabels(benches, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("ns per operation (log scale); text: cram / best peer")
    ax.grid(axis="x", which="major", alpha=0.3)
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", ncol=len(impls),
               fontsize=9, bbox_to_anchor=(0.5, 0.965), frameon=False)

    if peak_benches:
        for k, impl in enumerate(impls):
            ys, xs = [], []
            for i, b in enumerate(peak_benches):
                kib = table[b]["peak_kib"].get(impl)
                if kib:
                    ys.append(i - 0.4 + height * (k + 0.5))
                    xs.append(kib / 1024)
            axm.barh(ys, xs, height=height, color=COLORS.get(impl, None),
                     label=impl)
            for y, x in zip(ys, xs):
                axm.text(x, y, " %.0f" % x, va="center", fontsize=7)
        axm.set_yticks(range(len(peak_benches)))
        axm.set_yticklabels(peak_benches, fontsize=8)
        axm.invert_yaxis()
        axm.set_xlabel("peak memory, MiB (over the start)")
        axm.set_xlim(right=max(max((table[b]["peak_kib"].get(i) or 0)
                                   for i in impls) for b in peak_benches)
                     / 1024 * 1.2)
        axm.grid(axis="x", alpha=0.3)
    else:
        axm.set_axis_off()
    if scale_rows:
        plot_scaling(fig.add_subplot(grid[1, :]), table, impls, scale_rows,
                     data.get("scale_threads"))
    fig.suptitle(args.title, fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.5 / (height_main + height_scale)))
    fig.savefig(args.out, dpi=80)
    print("written: " + args.out)


if __name__ == "__main__":
    main()
