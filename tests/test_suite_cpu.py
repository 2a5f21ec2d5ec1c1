"""bench/suite_cpu.py, the plugin that says where the suite's CPU goes (docs/testing.md): a pytest of its
own runs a file whose test starts a Python process that burns a known amount of CPU, and the file's
record counts it under that process's kind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from bench.suite_cpu import table

ROOT = Path(__file__).resolve().parent.parent

INNER = '''
import subprocess, sys

BURN = "import sys, time\\nwhile time.process_time() < 0.5: pass\\nprint('burnt', flush=True)\\nsys.stdin.read()"


def test_a_child_burns_cpu(request):
    child = subprocess.Popen([sys.executable, "-c", BURN], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline() == "burnt\\n"
    request.config.pluginmanager.get_plugin("suite-cpu-files").tree.sample()  # read while it lives
    child.communicate("")


def test_nothing():
    pass
'''


def test_a_files_record_counts_the_cpu_of_the_processes_its_tests_start(tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(INNER, encoding="utf-8")
    out = tmp_path / "cpu"
    env = {**os.environ, "SUITE_CPU_OUT": str(out), "PYTHONPATH": str(ROOT)}
    plugins = ["-p", "bench.suite_cpu", "-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:schemathesis"]
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", *plugins, "test_inner.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    records = [json.loads(line) for path in tmp_path.glob("cpu.*") for line in path.read_text().splitlines()]
    assert [(r["file"], r["tests"]) for r in records] == [("test_inner.py", 2)], records
    kinds = records[0]["kinds"]
    assert kinds["python other"] >= 0.45, kinds     # the child's own 0.5 s of CPU (read in 10 ms ticks)
    assert records[0]["cpu"] >= kinds["python other"] + kinds.get("worker", 0), records[0]
    assert "test_inner.py" in table(str(out)) and "python other" in table(str(out))
