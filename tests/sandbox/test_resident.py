"""Every page a worker may read is kept in the page cache (resident.py), so that no bot has a page it could
bring in for another to notice."""

import os

from alhambra_ai.sandbox import launch as sandbox
from alhambra_ai.sandbox import resident


def test_the_read_set_holds_what_bots_import_and_not_the_rest():
    read = sandbox.read_set()
    files = read.files()
    assert any(f.endswith("/os.py") for f in files) and any("/numpy/" in f for f in files)
    assert any(f.endswith("/alhambra_ai/botapi.py") for f in files)
    assert not any("/site-packages/" in f and "/numpy" not in f for f in files)  # no other package
    stdlib = os.path.dirname(os.__file__)
    assert not any(f.startswith((f"{stdlib}/test/", f"{stdlib}/idlelib/")) for f in files)  # never imported
    assert not any(f.startswith((f"{stdlib}/lib2to3/", f"{stdlib}/distutils/", f"{stdlib}/ctypes/test/"))
                   or "/numpy/f2py/" in f or "/numpy/distutils/" in f for f in files)  # tools, tests


def test_an_evicted_page_is_read_back_at_the_next_check(monkeypatch):
    read = sandbox.read_set()
    path = next(f for f in read.files() if f.endswith("pydoc_data/topics.py"))
    resident.keep(read)
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # as a host under memory pressure would
    finally:
        os.close(fd)
    held, pages = resident.resident_pages(path)
    assert held < pages
    resident.keep(read)  # within RECHECK: nothing done
    assert resident.resident_pages(path)[0] == held
    monkeypatch.setattr(resident, "RECHECK", 0.0)
    resident.keep(read)
    assert resident.resident_pages(path) == (pages, pages)


def test_the_loaders_answer_is_kept_under_the_objects_identity(monkeypatch, tmp_path):
    """The shared libraries of the read set are asked of the dynamic loader once per set of objects; the
    answer comes back from the user's cache while every object, the loader and its cache are unchanged."""
    import shutil
    import sys

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    objects = [os.path.realpath(sys.executable)]
    fresh = sandbox._shared_libraries(objects)
    assert any("libc.so" in f for f in fresh) and list(tmp_path.glob("alhambra-ai/libraries-*.json"))
    asked = []
    monkeypatch.setattr(sandbox, "_ask_loader", lambda loader, objs: asked.append(objs) or {loader})
    assert sandbox._shared_libraries(objects) == fresh and asked == []
    copy = tmp_path / "python"
    shutil.copy2(objects[0], copy)  # another object: the loader is asked
    sandbox._shared_libraries([str(copy)])
    assert asked == [[str(copy)]]
