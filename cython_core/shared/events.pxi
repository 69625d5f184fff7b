# Public events as data (docs/formats.md "Events"): every game's log is a list of events
# {"seat": int | None, "kind": str, "payload": ...}, and its history is one text line per event, rendered from
# it. Nothing reads the texts back: card counting, the hidden setups, records and the viewers read the events.

cdef bint _REWORD = False


def _reword_events(flag):
    """(test hook) While on, every history line is rendered reworded (``~`` and the line reversed), so a test
    can show that nothing but people reads the texts: searches, determinizations, records and encodings stay
    the same. Action texts (``action_to_text``, records' actions) are the action API's and stay as they are."""
    global _REWORD
    _REWORD = bool(flag)


cdef inline str said(str line):
    """A rendered history line as people read it (reworded under the test hook)."""
    return "~" + line[::-1] if _REWORD else line


cdef inline dict event(object seat, str kind, object payload):
    return {"seat": seat, "kind": kind, "payload": payload}


cdef list checked_events(object events, Py_ssize_t n, exc):
    """A position's or an observation's ``events``, checked for their shape: a list of ``n`` objects each with
    ``seat`` (int or null), ``kind`` (a text) and ``payload``; a copy (of the list, the events shared)."""
    cdef list evs
    cdef dict d
    if type(events) is not list or len(events) != n:
        raise exc(f"events must be a list of {n} events, one per history line")
    evs = events
    for e in evs:
        if type(e) is not dict:
            raise exc("events: each is an object {\"seat\": int | null, \"kind\": text, \"payload\": ...}")
        d = e
        seat = d.get("seat", 0.5)
        if type(d.get("kind")) is not str or "payload" not in d or not (seat is None or type(seat) is int):
            raise exc("events: each is an object {\"seat\": int | null, \"kind\": text, \"payload\": ...}")
    return evs[:]
