"""tests/schedule.py, the order `make test` hands files to its workers in: xdist's loadfile scheduler driven
with stand-in workers (what it sends each, as xdist's own tests do), no test run."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from .schedule import EACH_TEST_A_UNIT, LONGEST, LongestFirst, scope_of

ROOT = Path(__file__).resolve().parent.parent


class Worker:
    """What the scheduler sees of a worker: the tests sent to it, by index in the collection."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.shutting_down = False
        self.gateway = SimpleNamespace(id=f"gw{id(self)}")

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def _scheduled(collection: list[str]) -> tuple[LongestFirst, list[Worker]]:
    config = SimpleNamespace(getvalue=lambda name: ["2*popen"] if name == "tx" else None,
                             option=SimpleNamespace(loadscopereorder=True))
    scheduler = LongestFirst(config)  # type: ignore[arg-type]
    workers = [Worker(), Worker()]
    for worker in workers:
        scheduler.add_node(worker)  # type: ignore[arg-type]
        scheduler.add_node_collection(worker, collection)  # type: ignore[arg-type]
    scheduler.schedule()
    return scheduler, workers


def _run_all(scheduler: LongestFirst, workers: list[Worker], collection: list[str]) -> list[str]:
    """Complete the tests in the order they were sent, one worker after the other; the files in the order
    the workers were given them."""
    done: set[tuple[int, int]] = set()
    while not scheduler.tests_finished:
        progressed = False
        for number, worker in enumerate(workers):
            for index in worker.sent:
                if (number, index) not in done:
                    done.add((number, index))
                    scheduler.mark_test_complete(worker, index)  # type: ignore[arg-type]
                    progressed = True
                    break
        assert progressed, "the scheduler left tests unsent"
    order: list[str] = []
    for worker in workers:
        for index in worker.sent:
            unit = scope_of(collection[index])
            if unit not in order:
                order.append(unit)
    return order


def test_the_longest_files_are_handed_out_first_and_the_rest_as_xdist_orders_them() -> None:
    many = [f"tests/test_many.py::test_{n}" for n in range(5)]
    few = [f"tests/test_few.py::test_{n}" for n in range(3)]
    collection = [*many, *few, "tests/test_fuzz.py::test_a", "tests/test_fuzz.py::test_b",
                  "tests/test_draft_django.py::test_django", "tests/test_imports.py::test_x"]
    scheduler, workers = _scheduled(collection)
    first = [scope_of(collection[worker.sent[0]]) for worker in workers]
    longest = sorted({scope_of(nodeid) for nodeid in collection} & set(LONGEST), key=LONGEST.index)
    assert len(longest) == 3 and first == longest[:2]  # in LONGEST's order, before any other
    handed = _run_all(scheduler, workers, collection)
    assert sorted(handed) == sorted({scope_of(nodeid) for nodeid in collection})
    assert all(not worker.sent.count(i) > 1 for worker in workers for i in worker.sent)
    sent = sorted(i for worker in workers for i in worker.sent)
    assert sent == list(range(len(collection)))  # each test once, on one worker


def test_a_file_of_each_test_a_unit_spreads_over_both_workers() -> None:
    spread = EACH_TEST_A_UNIT[0]
    collection = [f"{spread}::test_part[{n}]" for n in range(4)] + [f"tests/test_many.py::test_{n}" for n in range(6)]
    scheduler, workers = _scheduled(collection)
    assert scope_of(collection[0]) == collection[0] and scope_of(collection[5]) == "tests/test_many.py"
    _run_all(scheduler, workers, collection)
    on = [{collection[i] for i in worker.sent if collection[i].startswith(spread)} for worker in workers]
    assert on[0] and on[1] and not on[0] & on[1]  # both took parts, none twice
    many = [{i for i in worker.sent if collection[i].startswith("tests/test_many.py")} for worker in workers]
    assert sorted(map(len, many)) == [0, 6]  # an ordinary file stays on one worker


def test_the_files_named_exist() -> None:
    # A renamed file would fall back to xdist's order unnoticed.
    assert [name for name in (*LONGEST, *EACH_TEST_A_UNIT) if not (ROOT / name).is_file()] == []
