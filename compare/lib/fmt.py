# SPDX-License-Identifier: GPL-2.0
"""The report's one number, table and plot format."""

import os


def fmt(x, nd=None):
    """x with thousands separators; nd digits (by default 0 from 100 up, 1 from 10, else 2)."""
    if x is None:
        return "-"
    if nd is None:
        nd = 0 if abs(x) >= 100 else 1 if abs(x) >= 10 else 2
    return f"{x:,.{nd}f}"


def pm(m, s, nd=None):
    """'m ± s'; m alone when s is None or rounds to 0 at the digits shown (an exact figure's
    runs that agree to them: a '± 0.00' would claim a precision the method does not give)."""
    if m is None:
        return "-"
    if not s or float(fmt(s, nd).replace(",", "")) == 0:
        return fmt(m, nd)
    return f"{fmt(m, nd)} ± {fmt(s, nd)}"


def runtime(rt, missing="-"):
    """A run's length as guest-run's --runtime gives it ("1", "500ms", "500ms,ladder=1") in
    words: "1 s", "0.5 s", "0.5 s (ladder 1 s)"; missing when there is none."""
    if rt in (None, ""):
        return missing
    first, *rest = str(rt).split(",")
    own = ", ".join(f"{w} {runtime(s)}" for w, _, s in (x.partition("=") for x in rest))
    if first.endswith("ms") and first[:-2].isdigit():
        first = f"{int(first[:-2]) / 1000:g}"
    return f"{first} s" + (f" ({own})" if own else "")


def signed(x, nd=None):
    return "-" if x is None else ("+" if x >= 0 else "−") + fmt(abs(x), nd)


def table(head, rows, align=""):
    """A markdown table (one string); align: a letter a column, r for right-aligned, l (the
    default for the columns it leaves out) for left; a None cell is blank."""
    sep = ["---:" if a == "r" else "---" for a in align.ljust(len(head), "l")]
    out = ["| " + " | ".join(str(h) for h in head) + " |", "|" + "|".join(sep) + "|"]
    out += ["|" + "|".join(" " if x is None else f" {x} " for x in r) + "|" for r in rows]
    return "\n".join(out)


md_table = table


def qline(q):
    """A queue read-back in one line."""
    if not q:
        return "-"
    return (f"{q.get('scheduler', '-')}, nr_req {q.get('nr_requests', '-')}, "
            f"rq_aff {q.get('rq_affinity', '-')}, add_rnd {q.get('add_random', '-')}, "
            f"nomerges {q.get('nomerges', '-')}, hwq {q.get('hw_queues', '-')}"
            f"×{q.get('hw_depth', '-')}"
            + (f", sdev depth {q['scsi_queue_depth']}"
               if q.get("scsi_queue_depth") not in (None, "-") else ""))


class Plots:
    """Where a report's PNGs go: out (a folder), prefix (their names' prefix in the links).
    plt is matplotlib.pyplot (Agg), None without matplotlib: then no section draws."""

    def __init__(self, out, prefix=""):
        self.out, self.prefix, self.made = out, prefix, []
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            plt.rcParams["svg.hashsalt"] = "ramlld"
            self.plt = plt
        except ImportError:
            self.plt = None

    # the smallest text a plot carries, in points: readable at 100 % in a browser at dpi 100
    MIN_FONT = 10

    def save(self, fig, name):
        """Write fig as name.png (no timestamp in it: the same folder makes the same bytes);
        returns the markdown image line. No text in it is smaller than MIN_FONT."""
        from matplotlib.text import Text
        for t in fig.findobj(Text):
            if t.get_fontsize() < self.MIN_FONT:
                t.set_fontsize(self.MIN_FONT)
        fig.tight_layout()
        fig.savefig(os.path.join(self.out, name), dpi=100, metadata={"Software": None})
        self.plt.close(fig)
        self.made.append(name)
        return f"![{name}]({self.prefix}{name})"
