"""`make bench` (``python -m bench``): Pling through its HTTP API against the bare-Playwright floor on the
same page, and optionally against Playwright MCP; stage timings, bytes, concurrency and memory.

    python -m bench                 the whole run (about 3 to 4 minutes on 2 cores)
    python -m bench --quick         fewer repetitions, to try a change
    python -m bench --no-mcp        skip the optional Playwright MCP comparison

Prints a table with the targets of issue 7 and writes bench/results/latest.json."""
