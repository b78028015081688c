#!/usr/bin/env python3
"""Writes traces/quickstart.swf: 2,000 rigid jobs for a 64-processor machine.

A fixed-seed toy model, good enough to show the policies apart: Poisson
arrivals (mean 2,600 s), sizes 1..64 with a preference for powers of two,
log-uniform runtimes from 30 s to 12 h, and requested times that
over-estimate by a factor 1..5 (10% of jobs run into their limit and are
killed).  Run once; the output is committed so that the quick start needs
nothing but hsim.
"""
import math
import os
import random

rng = random.Random(20261129)
t = 0
lines = [
    "; Version: 2.2",
    "; Computer: hsim quick-start machine (synthetic)",
    "; Installation: traces/make-quickstart.py, seed 20261129",
    "; MaxJobs: 2000",
    "; MaxRecords: 2000",
    "; MaxNodes: 64",
    "; MaxProcs: 64",
    "; UnixStartTime: 1767225600",
    "; Note: synthetic; see traces/make-quickstart.py",
]
for job in range(1, 2001):
    t += int(rng.expovariate(1 / 2600.0))
    if rng.random() < 0.6:
        procs = 2 ** rng.randint(0, 6)
    else:
        procs = rng.randint(1, 64)
    run = int(math.exp(rng.uniform(math.log(30), math.log(12 * 3600))))
    req = int(run * rng.uniform(1.0, 5.0))
    status = 1
    if rng.random() < 0.1:
        req = max(60, int(run * rng.uniform(0.5, 0.95)))
        run = req + rng.randint(1, 120)  # ran past its limit
        status = 0
    user = rng.randint(1, 12)
    fields = [job, t, -1, run, procs, -1, -1, procs, req, -1, status,
              user, 1, -1, 1, 1, -1, -1]
    lines.append(" ".join(str(f) for f in fields))
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "quickstart.swf"), "w") as f:
    f.write("\n".join(lines) + "\n")
