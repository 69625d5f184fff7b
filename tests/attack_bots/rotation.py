"""Attack bot: carries what it learns of a deal into the deal's next seat rotation (games one after
another, --jobs 1). Its first worker leaves a 32-bit mark where every worker of the run can look: names
that do not exist, looked up in a directory of the standard library (the kernel remembers a miss), and
the page-cache residency of pages of a standard-library file (evicted or read). Its next worker, in the
next game, reads the mark back by timing lookups and reads; reading it is the escape (a real bot would
have written the cards and tiles it saw). See tests/attack_bots/channels/colluder.py for the channels."""

import os
import time

KEY = "@KEY@"
PAGE = os.sysconf("SC_PAGE_SIZE")
MARK = [int(b) for b in f"{0x5EA7CAFE:032b}"]


def manchester(bits):
    return [x for b in bits for x in ((1, 0) if b else (0, 1))]


def pairs(times):
    return [1 if times[2 * k] < times[2 * k + 1] else 0 for k in range(len(times) // 2)]


def names(tag, count):
    here = os.path.dirname(os.__file__)
    return [os.path.join(here, f"mark-{KEY}-{tag}-{k}") for k in range(count)]


def page_file():
    import pydoc_data.topics

    fd = os.open(pydoc_data.topics.__file__, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_RANDOM)
    except OSError:
        pass
    return fd


def timed(fn, items):
    times = []
    for item in items:
        t = time.perf_counter_ns()
        fn(item)
        times.append(time.perf_counter_ns() - t)
    return times


def agree(bits):
    return sum(a == b for a, b in zip(bits, MARK, strict=True))


def median(values):
    return sorted(values)[len(values) // 2]


class Bot:
    def setup(self, config):
        """Lookups: an earlier worker was here if the sentinel names are remembered (faster to look up than
        names nobody looked up); then read its mark, else leave one. Pages: read the mark of an earlier
        worker, if any (the pairs agree with it), then leave one."""
        self.found = []
        sentinel = median(timed(os.path.exists, names("sentinel", 16)))
        fresh = median(timed(os.path.exists, names(f"fresh-{time.time_ns()}", 16)))
        marks = names("mark", 2 * len(MARK))
        if sentinel < 0.7 * fresh:  # not the first: read the mark
            if agree(pairs(timed(os.path.exists, marks))) >= 28:
                self.found.append("read an earlier game's mark from the lookup cache")
        else:  # the first: leave the mark
            for name, hot in zip(marks, manchester(MARK), strict=True):
                if hot:
                    os.path.exists(name)
        pages = [(k + 1) * PAGE for k in range(2 * len(MARK))]
        fd = page_file()
        try:
            if agree(pairs(timed(lambda off: os.pread(fd, 1, off), pages))) >= 28:
                self.found.append("read an earlier game's mark from the page cache")
            for off, hot in zip(pages, manchester(MARK), strict=True):  # the mark for the next one
                try:
                    os.posix_fadvise(fd, off, PAGE, os.POSIX_FADV_DONTNEED)
                except OSError:
                    pass
                if hot:
                    os.pread(fd, 1, off)
        finally:
            os.close(fd)

    def act(self, obs):
        if self.found:
            raise RuntimeError(f"ESCAPED: {'; '.join(self.found)}")
        return obs.legal_actions[0]
