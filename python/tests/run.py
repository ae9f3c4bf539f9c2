# SPDX-License-Identifier: BSD-2-Clause
"""Runs the module's tests and ends with the project's "N passed, N failed"
line, with ", N skipped" where a test could not run (each named above it,
with why): a skip is never a pass (tests/ci/check.sh counts each).

    WAI_LIBRARY=BUILD/libwai_python.so [WAI_TOOL=BUILD/tools/wai/wai] \\
        /usr/bin/python3 python/tests/run.py"""
import os
import sys
import unittest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    if "WAI_LIBRARY" in os.environ:
        # A build's library: the module from the repository, not an installed one.
        sys.path.insert(0, os.path.dirname(here))
    suite = unittest.defaultTestLoader.discover(here)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    bad = len(result.failures) + len(result.errors) + len(result.unexpectedSuccesses)
    # A skip is no pass: counted on its own, each named with its reason.
    skipped = len(result.skipped) + len(result.expectedFailures)
    for test, why in result.skipped:
        print(f"skipped: {test.id()}: {why}")
    # Each failure named again, with the last line of its traceback, beside
    # the count: a console that keeps a log's end alone still shows which.
    for test, trace in result.failures + result.errors:
        print(f"FAIL {test.id()}: {trace.strip().splitlines()[-1]}")
    line = f"{result.testsRun - bad - skipped} passed, {bad} failed"
    print(line + (f", {skipped} skipped" if skipped else ""))
    return 1 if bad else 0


# Guarded: Dask's worker processes start by "spawn", which imports the
# main module again; unguarded, each worker would run the whole suite.
if __name__ == "__main__":
    sys.exit(main())
