"""How `make test` hands the suite to its workers (pytest-xdist `--dist loadfile`, docs/testing.md).

xdist's loadfile gives each worker a whole file at a time, files with the most tests first. The longest
files have few tests (a rerun of tests/lifecycle, drafts of real apps, the fuzzer), so they came last:
one worker ran a three-minute file while the other had nothing left. Here the files known to take
longest go first, longest first, and the rest follow as xdist orders them; the tests of a file of EACH_TEST_A_UNIT need
not run in one process, so each is a unit of its own that either worker may take. Nothing else changes:
the tests of every other file still run in order in one process, with its module fixtures set up once."""

from __future__ import annotations

from collections import OrderedDict

from xdist.scheduler import LoadFileScheduling

# The longest files, longest first: per-file wall of a whole run at -n 2 (2026-12-05 15:58-16:23 UTC, c8c3bab, 981
# tests, 1,511 s at load 5-26, mean 16; seconds there, about half of that on a quiet machine): imports 97, security 96,
# fuzz 94, the remote rerun 170 (three units, ranked by its longest part, 93), console 90, miniwob_unseen 86, hostile 85,
# router 81, pytest_plugin 77, cli 70, miniwob_unseen_edits 64, draft_django 63, bridge_contract 61, docs 59, crash 55,
# miniwob_unseen_order 54, declare_package 53, lifecycle/widget_gestures 52. A file not named here keeps xdist's order,
# after these.
LONGEST = (
    "tests/test_imports.py",
    "tests/test_security.py",
    "tests/test_fuzz.py",
    "tests/test_remote_lifecycle.py",
    "tests/test_console.py",
    "tests/test_miniwob_unseen.py",
    "tests/test_hostile.py",
    "tests/test_router.py",
    "tests/test_pytest_plugin.py",
    "tests/test_cli.py",
    "tests/test_miniwob_unseen_edits.py",
    "tests/test_draft_django.py",
    "tests/test_bridge_contract.py",
    "tests/test_docs.py",
    "tests/test_crash.py",
    "tests/test_miniwob_unseen_order.py",
    "tests/test_declare_package.py",
    "tests/lifecycle/test_widget_gestures.py",
)
# Files whose tests need not run in one process: each test is a unit of its own (a module fixture is set
# up again in each worker that takes one of them).
EACH_TEST_A_UNIT = ("tests/test_remote_lifecycle.py",)


def scope_of(nodeid: str) -> str:
    """The unit a test belongs to: its file, or the test itself in a file of EACH_TEST_A_UNIT."""
    file = nodeid.split("::", 1)[0]
    return nodeid if file in EACH_TEST_A_UNIT else file


def rank(scope: str) -> int:
    """Where a unit goes in the queue: its file's place in LONGEST, every other file after them."""
    file = scope.split("::", 1)[0]
    return LONGEST.index(file) if file in LONGEST else len(LONGEST)


class LongestFirst(LoadFileScheduling):
    """loadfile with the longest files handed out first (a stable sort: xdist's order otherwise)."""

    _ranked = False

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(nodeid)

    def _assign_work_unit(self, node) -> None:  # type: ignore[no-untyped-def]
        if not self._ranked:  # the queue is complete at the first assignment (schedule())
            self.workqueue = OrderedDict(sorted(self.workqueue.items(), key=lambda unit: rank(unit[0])))
            self._ranked = True
        super()._assign_work_unit(node)
