# SPDX-License-Identifier: BSD-2-Clause
"""Runs the module's tests and ends with the project's "N passed, N failed"
line (tests/ci/check.sh counts it).

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
    bad = len(result.failures) + len(result.errors)
    print(f"{result.testsRun - bad} passed, {bad} failed")
    return 1 if bad else 0


# Guarded: Dask's worker processes start by "spawn", which imports the
# main module again; unguarded, each worker would run the whole suite.
if __name__ == "__main__":
    sys.exit(main())
