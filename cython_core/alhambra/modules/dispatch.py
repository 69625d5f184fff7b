"""Write dispatch.pxi: the modules' hooks of table.pxi as direct calls, at build time (setup.py runs this).

The table (table.pxi) is the one place that says which module declares which hook; the generic code calls
``module_<hook>`` functions. Calling the hooks through the table's function pointers cost 2.6 % of the
instructions of a random game with every module (callgrind: the loops over the modules, the calls the C
compiler cannot inline); the direct calls written here from the same table cost what the hand-written ones
did before the table. Only hooks with one shape of loop are written here (every module on, in the table's
order); the rest (text, parse, check, apply, points, census, prior, tile worth) are asked through the
table's pointers, where a code or a column names one module.

``python cython_core/alhambra/modules/dispatch.py`` writes the file; it is rewritten only when it changes (the
build then recompiles only when the table did). dispatch.pxi is a build output, not in git.
"""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE = HERE / "table.pxi"
OUT = HERE / "dispatch.pxi"

# hook: (signature of the generic function, the arguments each module's hook gets, the shape of the loop)
#   all   - every module on, in order
#   first - every module on, in order, until one answers 1 (the function answers 1 then, else 0)
#   sum   - the modules on whose phase it is (GEN_PHASES, table.pxi) add their actions to out
#   list  - every module on adds its actions to out, in the order of the lines' action_at (the action phase's
#           list is in that order, not the table's)
#   seats - the window: each of its lines' seats (0 while it is off) into seats[line], their union returned
#   asks  - the window, in the order of the lines' `window`: the first whose seats hold the seat and who says
#           it can act answers 1; one saying no drops the seat from its seats (left: their union again)
#   chain - every module on, in order, each getting the pile's end the one before it returned
#   +     - the i-th line's 16 bytes of scratch (saved) as the last argument
HOOKS = {
    "setup": ("void module_setup(GameState* s)", "s", "all"),
    "piles": ("int module_piles(GameState* s, int k, int start, int pos, uint8_t* scratch)",
              "s, k, start, pos, scratch + 16 * {i}", "chain"),
    "setup_end": ("void module_setup_end(GameState* s)", "s", "all"),
    "follows": ("bint module_follows(GameState* s, int follows, EventLog* log)", "s, follows, log", "first"),
    "turn_end": ("bint module_turn_end(GameState* s)", "s", "first"),
    "placed": ("bint module_placed(GameState* s, int seat, int x, int y, int t)",
               "s, seat, x, y, t", "first"),
    "removed": ("void module_removed(GameState* s, int seat, int x, int y, int t)",
                "s, seat, x, y, t", "all"),
    "log_before": ("void module_log_before(GameState* s, int seat, uint8_t* saved, EventLog* log)",
                   "s, seat, saved + 16 * {i}, log", "all"),
    "log_after": ("void module_log_after(GameState* s, int seat, uint8_t* saved, EventLog* log)",
                  "s, seat, saved + 16 * {i}, log", "all"),
    "window_seats": ("uint32_t module_window_seats(GameState* s, uint32_t* seats)", "s", "seats"),
    "window_asks": ("bint module_window_asks(GameState* s, int seat, uint32_t* seats, uint32_t* left)",
                    "s, seat", "asks"),
    "gen_action": ("int module_gen_action(GameState* s, int* out, int* counted_at, BuyMemo* memo, "
                   "GenCache* gc)",
                   "s, out + n, n, counted_at, memo, gc", "list"),
    "gen_phase": ("int module_gen_phase(GameState* s, int* out, BuyMemo* memo)", "s, out + n, memo", "sum"),
    "values": ("void module_values_of(GameState* s, int seat, int left, double p, double* out)",
               "s, seat, left, p, out", "all"),
    "resample": ("void module_resample(GameState* s, int seat, Rng* r)", "s, seat, r", "all"),
}


def table_lines(text: str) -> list[dict[str, str]]:
    """Each line of MODULES_TABLE as {field: its text} (hooks: a function name or NULL)."""
    start = text.index("MODULES_TABLE[:] = [")
    end = text.index("\n]", start)
    body = text[start + len("MODULES_TABLE[:] = "):end + 2]
    lines = []
    for call in ast.parse(body, mode="eval").body.elts:    # type: ignore[attr-defined]
        lines.append({kw.arg: ast.unparse(kw.value) for kw in call.keywords})
    return lines


def generate(text: str) -> str:
    lines = table_lines(text)
    out = ["# Written by dispatch.py from table.pxi at build time (a build output: not in git, do not edit).",
           "# The modules' hooks as direct calls, in the table's order (see dispatch.py).", ""]
    for hook, (signature, args, shape) in HOOKS.items():
        ret = signature.split()[0]
        out.append(f"cdef inline {signature} noexcept nogil:")
        if shape in ("sum", "list"):
            out.append("    cdef int n = 0")
        body = []
        order = list(enumerate(lines))
        if shape == "list":
            order.sort(key=lambda e: int(e[1]["action_at"]))
        if shape in ("seats", "asks"):
            order.sort(key=lambda e: int(e[1]["window"]))
        if shape == "seats":
            out += ["    cdef uint32_t every = 0"]
        for i, line in order:
            fn = line.get(hook, "NULL")
            if fn == "NULL":
                continue
            call = f"{fn}({args.format(i=i)})"
            bit = line["bit"]
            if shape == "all":
                body += [f"    if s.options & {bit}:", f"        {call}"]
            elif shape == "first":
                body += [f"    if s.options & {bit} and {call}:", "        return 1"]
            elif shape == "chain":
                body += [f"    if s.options & {bit}:", f"        pos = {call}"]
            elif shape == "sum":
                body += [f"    if s.options & {bit} and (GEN_PHASES[{i}] >> s.phase) & 1:",
                         f"        n += {call}"]
            elif shape == "list":
                body += [f"    if s.options & {bit}:", f"        n += {call}"]
            elif shape == "seats":
                body += [f"    seats[{i}] = {call} if s.options & {bit} else 0", f"    every |= seats[{i}]"]
            elif shape == "asks":
                body += [f"    if (seats[{i}] >> seat) & 1:", f"        if {call}:", "            return 1",
                         f"        seats[{i}] &= ~(<uint32_t>1 << seat)"]
        out += body
        if shape == "asks":
            used = [f"seats[{i}]" for i, line in order if line.get(hook, "NULL") != "NULL"]
            out += [f"    left[0] = {' | '.join(used) or '0'}", "    return 0"]
        if shape == "first":
            out.append("    return 0")
        elif shape == "seats":
            out.append("    return every")
        elif shape == "chain":
            out.append("    return pos")
        elif shape in ("sum", "list"):
            out.append("    return n")
        elif not body and ret == "void":
            out.append("    pass")
        out += ["", ""]
    return "\n".join(out).rstrip() + "\n"


def write(path: Path = OUT) -> bool:
    """Write dispatch.pxi if it changed; True when it did."""
    new = generate(TABLE.read_text())
    if path.exists() and path.read_text() == new:
        return False
    path.write_text(new)
    return True


if __name__ == "__main__":
    write()
