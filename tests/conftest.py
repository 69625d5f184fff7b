"""Test-session set-up shared by every test module."""

import os
import signal

# Bot files are run by the tests as strangers' files, never imported by the collector (--doctest-modules
# imports every module it finds; an attack bot attacks on import).
collect_ignore_glob = ["attack_bots/*", "hostile_bots/*", "tournament_bots/*"]

# A shell starts background jobs (`pytest ... &`, nohup) with SIGINT ignored, and an ignored signal stays
# ignored across exec: the Ctrl-C tests' child processes would then never see their SIGINT. Python's own
# handler is reset to the default on exec, so installing it here gives every child a normal Ctrl-C.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The terminal's size picks the text layout (text.screen_size): tests draw at the default 80 x 50 unless
# they ask for a width, whatever terminal or CI environment runs them.
os.environ.pop("COLUMNS", None)
os.environ.pop("LINES", None)
