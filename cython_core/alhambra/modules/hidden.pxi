# The Thief's and the Residents' information (rules.md §8, §9.6, §9.8) beyond their keys of the "modules"
# object (their JSON is their own: thief.pxi, residents.pxi, through their table lines' seen / put / canonical
# hooks): what a seat's history and events hide of the Residents' setup (included by observe.pxi); determinize samples
# what a seat cannot see through each module's resample hook (thief.pxi, residents.pxi), called in the
# table's order by module_resample (modules/dispatch.py).


cdef inline bint _is_figures(int code) noexcept:
    return code & 15 == A_EXT and (code >> 4) & 15 == SUB_FIGURES


cdef str secret_word(object code):
    """The verb of a ``secret`` event's payload (the kind bits of the hidden action): ``figures``."""
    if isinstance(code, int) and _is_figures(code):
        return "figures"
    raise ValueError(f"no secret action of kind {code!r}")


cdef tuple log_seen(State st, int seat):
    """``(history, events)`` as ``seat`` sees them: another seat's ``figures`` action (setup, Residents) is a
    ``secret`` event (payload: the action's kind bits, the types gone) with its line ``seat 2: figures
    (secret)``; ``seat`` -1: every seat's. Setup events come before the first turn's first action other than
    ``figures`` or ``disc``, where the scan stops."""
    h = st._hist[:st._hist_len]
    ev = st._ev[:st._hist_len]
    if not st.st.options & OPT_RESIDENTS:
        return h, ev
    for i, e in enumerate(ev):
        if e["kind"] != "action":
            continue
        code = e["payload"]
        if _is_figures(code):
            if e["seat"] != seat:
                secret = event(e["seat"], "secret", code & 0xFF)
                ev[i] = secret
                h[i] = _event_line(secret, None)
        elif not (code & 15 == A_EXT and (code >> 4) & 15 == SUB_DISC):
            break
    return h, ev
