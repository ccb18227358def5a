# SPDX-License-Identifier: GPL-2.0
"""The one reader of fio's JSON (--output-format=json, fio --client's too) and of
tools/percpu-load's --json, which a results folder keeps beside it (rN.dd.json).

read(path) / parse(text, name) -> the JSON object; run_metrics(d) -> one fio run's figures;
counts(d) -> (I/Os, IOPS) of any of them, job_counts(job) of one job; clients(d) -> fio
--client's servers' entries, client(d, name) -> its first server's figures.
A file that holds no whole JSON object raises BadJSON, its message naming the file.

As a program (compare/ledger-guest, in the guest): fio.py iops FILE DIRECTION prints a
run's IOPS in that direction (exit status fio's error when the job failed); fio.py window
FILE DIRECTION prints its I/O phase less half a second each end, "START,END" in s since the
epoch (perf report --time's form), nothing for a run of a second or less. fio.py split FILE DIR
REP (compare/guest/cells.sh): a run of several jobs as one file a job, DIR/JOB/rREP.json, each
the run with that job alone; FILE is removed."""

import json
import re
import os
import sys


class BadJSON(ValueError):
    """A file that holds no whole JSON object."""


def parse(text, name):
    """The JSON object in text, from its first '{' (fio prints its warnings and fio --client
    its progress lines before it; what follows the object is left). name: the file or command
    the text came from, for the error."""
    start = text.find("{")
    if start < 0:
        raise BadJSON(f"{name}: no JSON object in it (fio --output-format=json's expected)")
    try:
        return json.JSONDecoder().raw_decode(text, start)[0]
    except ValueError as e:
        raise BadJSON(f"{name}: not a whole JSON object ({e}): a run cut short?") from None


def read(path, name=None):
    """parse() of a file (name: what the error calls it, the path by default); OSError when it
    cannot be read."""
    name = name or path
    with open(path, "rb") as f:
        data = f.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise BadJSON(f"{name}: not UTF-8 text ({e})") from None
    return parse(text, name)


def run_metrics(d):
    """Metrics of one fio run (one section; group_reporting gives one job). Latency is the
    whole I/O's (fio's lat: submission + completion) of the direction with most I/O: with a RAM
    disk the I/O completes inside io_submit, and fio's clat is then only the reap. Percentiles
    where fio recorded them for lat (lat_percentiles=1); a job with gtod_reduce=1 measured no
    latency: None."""
    jobs = d["jobs"]
    ios = sum(j["read"]["total_ios"] + j["write"]["total_ios"] for j in jobs)
    m = {
        "ios": ios,
        "iops": sum(j["read"]["iops"] + j["write"]["iops"] for j in jobs),
        "mbps": sum(j["read"]["bw_bytes"] + j["write"]["bw_bytes"] for j in jobs) / 1e6,
    }
    best = max(((j[k]["total_ios"], j[k]) for j in jobs for k in ("read", "write")),
               key=lambda x: x[0])[1]
    lat = best.get("lat_ns", {})
    reduced = any(j.get("job options", {}).get("gtod_reduce") == "1" for j in jobs) or \
        d.get("global options", {}).get("gtod_reduce") == "1"
    m["lat_mean_us"] = (lat.get("mean", 0) / 1e3
                        if best["total_ios"] and not reduced and lat.get("N") else None)
    pct = lat.get("percentile", {}) or {}
    for key, p in (("lat_p50_us", "50.000000"), ("lat_p99_us", "99.000000"),
                   ("lat_p999_us", "99.900000")):
        m[key] = pct[p] / 1e3 if p in pct and not reduced else None
    cpu_s = sum((j["usr_cpu"] + j["sys_cpu"]) / 100.0 * j["job_runtime"] / 1e3 for j in jobs)
    m["cpu_us_per_io_fio"] = cpu_s * 1e6 / ios if ios else None
    m["runtime_s"] = max(j["job_runtime"] for j in jobs) / 1e3
    return m


def time_bound_s(d):
    """A time-based run's set runtime in seconds (fio's runtime=, time_based=1, in the job's or
    the global options), None for a run of fixed work."""
    opts = dict(d.get("global options", {}))
    jobs = d.get("jobs") or [{}]
    opts.update(jobs[0].get("job options", {}))
    if opts.get("time_based") not in ("1", "") or "runtime" not in opts:
        return None
    mo = re.fullmatch(r"(\d+(?:\.\d+)?)(us|ms|s|m)?", opts["runtime"].strip())
    if not mo:
        return None
    return float(mo.group(1)) * {"us": 1e-6, "ms": 1e-3, "s": 1, "m": 60, None: 1}[mo.group(2)]


def stalled(d, runtime_s):
    """Why a time-based run measured no rate, or None: fio ran more than twice its set runtime
    (plus 0.2 s) because it waited on I/Os that did not complete in time."""
    bound = time_bound_s(d)
    if bound is None or runtime_s is None or runtime_s <= 2 * bound + 0.2:
        return None
    return (f"fio ran {runtime_s:.1f} s of a {bound:g} s time-based run, waiting on its I/Os "
            "to complete")


def counts(d):
    """(I/Os, IOPS) of a run: reads + writes + trims of all of fio's jobs, or tools/percpu-load's
    total."""
    if "jobs" not in d:
        t = d.get("total") or {}
        return t.get("ios") or 0, t.get("iops") or 0.0
    dirs = [j[k] for j in d["jobs"] for k in ("read", "write", "trim") if k in j]
    return sum(x["total_ios"] for x in dirs), sum(x["iops"] for x in dirs)


def job_counts(job):
    """(I/Os, IOPS) of one job, or one server's entry of fio --client's client_stats: its
    reads + writes + trims."""
    dirs = [job[k] for k in ("read", "write", "trim") if k in job]
    return sum(x["total_ios"] for x in dirs), sum(x["iops"] for x in dirs)


def clients(d):
    """fio --client's JSON: each server's entry of client_stats (its hostname, error and a
    job's read, write and trim), in fio's order, without the "All clients" sum."""
    return [st for st in d.get("client_stats", []) if st.get("jobname") != "All clients"]


def client(d, name):
    """(server's hostname, I/Os, IOPS) of fio --client's JSON: its first server's figures."""
    for st in clients(d):
        ios = st["read"]["total_ios"] + st["write"]["total_ios"]
        return st.get("hostname", "?"), ios, st["read"]["iops"] + st["write"]["iops"]
    raise BadJSON(f"{name}: no client_stats entry (not fio --client's JSON?)")


def split(path, folder, rep):
    """split's files: each job of the run at path alone in folder/JOB/rREP.json."""
    d = read(path)
    for job in d["jobs"]:
        with open(os.path.join(folder, job["jobname"], f"r{rep}.json"), "w") as f:
            json.dump(dict(d, jobs=[job]), f, indent=1)
    os.unlink(path)


def main(argv):
    if len(argv) == 4 and argv[0] == "split":
        try:
            split(*argv[1:])
        except (OSError, ValueError, KeyError) as e:
            print(f"fio.py: {e}", file=sys.stderr)
            return 1
        return 0
    if len(argv) != 3 or argv[0] not in ("iops", "window") or argv[2] not in ("read", "write"):
        print("usage: fio.py iops|window FILE read|write | split FILE DIR REP", file=sys.stderr)
        return 2
    what, path, direction = argv
    try:
        d = read(path)
        job = d["jobs"][0]
        if what == "iops":
            if job["error"]:
                return job["error"]
            print(job[direction]["iops"])
            return 0
        end = d["timestamp_ms"] / 1000
        runtime = job[direction]["runtime"] / 1000
    except BadJSON as e:
        print(f"fio.py: {e}", file=sys.stderr)
        return 1
    except (OSError, KeyError, IndexError, TypeError) as e:
        print(f"fio.py: {path}: no {e} in it (not fio's JSON of a job?)",
              file=sys.stderr)
        return 1
    print(f"{end - runtime + 0.5:.3f},{end - 0.5:.3f}" if runtime > 1 else "")
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
