# The Thief's and the Residents' information (rules.md §8, §9.6, §9.8) beyond their keys of the "modules"
# object (their JSON is their own: thief.pxi, residents.pxi, through their table lines' seen / put / canonical
# hooks): what a seat's history hides of the Residents' setup (included by observe.pxi); determinize samples
# what a seat cannot see through each module's resample hook (thief.pxi, residents.pxi), called in the
# table's order by module_resample (modules/dispatch.py).


cdef list history_seen(State st, int seat):
    """The history as ``seat`` sees it: another seat's ``figures`` line (setup, Residents) without the types.
    Setup lines come before the first turn's first action, where the scan stops."""
    h = st.history
    if not st.st.options & OPT_RESIDENTS:
        return h
    mine = f"seat {seat + 1}: "
    out = None
    for i, line in enumerate(h):
        if line.startswith("seat ") and ": " in line and " dealt: " not in line:
            verb = line.partition(": ")[2].partition(" ")[0]
            if verb == "figures" and not line.startswith(mine):
                if out is None:
                    out = list(h)
                out[i] = line.partition(": ")[0] + ": figures (secret)"
            elif verb != "figures" and verb != "disc":
                break
    return h if out is None else out
