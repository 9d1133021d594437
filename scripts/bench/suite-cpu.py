#!/usr/bin/env python3
"""Where a command's CPU time goes, by kind of process (docs/benchmarks.md, "The test suite's CPU").

    python3 scripts/bench/suite-cpu.py scripts/test          # or any command, e.g. scripts/test -- test/int/blog

Runs the command and samples every process of the machine started after it (/proc/<pid>/stat, user + system time)
every 2 seconds; at the end prints the CPU seconds of each kind (schemathesis, jest workers, the platform processes
the tests start, Temporal, PostgreSQL, Kafka, ffmpeg ...) beside the wall time. A process shorter than a sample, and
the last 2 seconds of each, are missed: the total is compared with the machine's busy time over the run.
"""

import os
import re
import subprocess
import sys
import time
from collections import Counter

KINDS = [
    ("schemathesis (the fuzzer)", r"schemathesis|hypothesis\.internal"),
    ("jest workers (in-process API, workers, tests)", r"jest-worker|processChild\.js"),
    (
        "platform processes started by tests",
        r"workers/(api|temporal-worker|relay|projector)\.ts",
    ),
    ("Temporal dev server", r"temporal server start-dev"),
    ("Temporal test server", r"temporal-test-server|LoopbackTestServer"),
    ("PostgreSQL", r"postgres"),
    ("Kafka", r"kafka\.Kafka"),
    ("LanguageTool", r"languagetool"),
    ("model server (llama-cpp-python)", r"llama_cpp\.server"),
    ("ffmpeg / ffprobe", r"ffmpeg|ffprobe"),
    ("espeak-ng", r"espeak"),
    ("tesseract", r"tesseract"),
    ("type check, lint, format", r"\btsc\b|eslint|prettier|redocly"),
    (
        "generated clients (mypy, openapi-python-client, openapi-typescript)",
        r"mypy|openapi-python-client|openapi-typescript",
    ),
    ("jest main", r"\.bin/jest"),
]


def kind_of(cmd: str) -> str:
    for name, pattern in KINDS:
        if re.search(pattern, cmd):
            return name
    return "other: " + " ".join(cmd.split()[:2])[:60]


def busy_ticks() -> int:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return sum(v) - v[3] - v[4]  # all but idle and iowait


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tck = os.sysconf("SC_CLK_TCK")
    with open("/proc/stat") as f:
        boot = int(next(line for line in f if line.startswith("btime")).split()[1])
    t0, busy0 = time.time(), busy_ticks()
    child = subprocess.Popen(sys.argv[1:])
    last: dict[tuple[str, str], tuple[str, float]] = {}
    while child.poll() is None:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/stat") as f:
                    st = f.read()
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    cmd = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            rest = st[st.rfind(")") + 2 :].split()
            # btime is whole seconds: a process started just after t0 can read up to a second before it.
            if boot + int(rest[19]) / tck < t0 - 2 or not cmd:
                continue  # started before the command, or a kernel thread / exited process
            last[(pid, rest[19])] = (cmd, (int(rest[11]) + int(rest[12])) / tck)
        time.sleep(2)
    wall, busy = time.time() - t0, (busy_ticks() - busy0) / tck
    by_kind: Counter = Counter()
    for cmd, cpu in last.values():
        by_kind[kind_of(cmd)] += cpu
    seen = sum(by_kind.values())
    print(
        f"\n{' '.join(sys.argv[1:])}: exit {child.returncode}, {wall:.0f} s wall, machine busy {busy:.0f} CPU s "
        f"({busy / wall:.2f} cores), {seen:.0f} CPU s seen in processes it started"
    )
    for name, cpu in by_kind.most_common(25):
        print(f"{cpu:8.0f} s {100 * cpu / max(seen, 1):5.1f} %  {name}")
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
