# SPDX-License-Identifier: GPL-2.0
"""The one reader of the KEY=VALUE files the harness writes: a results folder's meta.env, a
breakdown's profile.env, a run's .queue read-back, compare/ab's ab.env and kernel.env, a
two-node run's two-node.env.

A key written twice keeps its FIRST value: these files are appended to as a run goes on
(compare/run, then guest-run, then compare/run again, compare/host/remote's failed= before its
teardown's), and the first line of a key is the one the run's start or its first failure wrote;
a later line does not replace it. Lines without '=' are left out."""

import os


def read_env(path):
    """key -> value of a KEY=VALUE file (the first line of a key wins); {} without the file."""
    d = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                k, sep, v = line.rstrip("\n").partition("=")
                if sep:
                    d.setdefault(k, v)
    except OSError:
        pass
    return d


def kernels_folder(root, each):
    """meta.env of a folder of compare/run --kernels, and its kernels: meta.env's kernels=, or
    (a folder without it) every subfolder holding the file EACH, in name order."""
    meta = read_env(os.path.join(root, "meta.env"))
    return meta, meta.get("kernels", "").split() or sorted(
        d for d in os.listdir(root) if os.path.isfile(os.path.join(root, d, each)))
