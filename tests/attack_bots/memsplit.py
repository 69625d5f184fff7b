"""Attack bot: holds more memory than its cap (the tests give 256 MB) by splitting it over child
processes and threads, 40 MB each."""

import os
import threading

PART, PARTS = 40 << 20, 8


class Bot:
    def setup(self, config):
        held = self.in_children() + self.in_threads()
        if held > 256:
            raise RuntimeError(f"ESCAPED: held {held} MB at once")

    def in_children(self):
        read, write = os.pipe()
        hold, _ = os.pipe()
        pids = []
        for _ in range(PARTS):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                try:
                    block = bytearray(PART)  # noqa: F841 - held until killed
                    os.write(write, b"1")
                except MemoryError:
                    os.write(write, b"0")
                os.close(write)
                os.read(hold, 1)  # hold the memory until killed
                os._exit(0)
            pids.append(pid)
        os.close(write)
        held = sum(os.read(read, 1) == b"1" for _ in pids) * (PART >> 20)
        for pid in pids:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        return held

    def in_threads(self):
        blocks, lock = [], threading.Lock()

        def grab():
            try:
                block = bytearray(PART)
                with lock:
                    blocks.append(block)
            except MemoryError:
                pass

        threads = [threading.Thread(target=grab) for _ in range(PARTS)]
        for t in threads:
            try:
                t.start()
            except RuntimeError:  # no address space left for its stack
                break
        for t in threads:
            if t.ident is not None:
                t.join()
        return len(blocks) * (PART >> 20)

    def act(self, obs):
        return obs.legal_actions[0]
