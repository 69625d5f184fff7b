"""Where the checkout and the tests' own files are, for test modules at any depth of tests/."""

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
