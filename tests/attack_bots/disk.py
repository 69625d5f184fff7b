"""Attack bot: fills the disk from its working directory (at most 200 MB, then it deletes what it wrote)."""

import os
import signal

LIMIT = 200


class Bot:
    def setup(self, config):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit then fails the write instead
        written, files, chunk = 0, [], b"x" * (1 << 20)
        try:
            while written < LIMIT:
                name = f"fill{len(files)}"
                files.append(name)
                with open(name, "wb") as f:
                    for _ in range(16):
                        f.write(chunk)
                        f.flush()
                        written += 1
        except OSError:
            pass
        for name in files:
            try:
                os.unlink(name)
            except OSError:
                pass
        if written >= LIMIT:
            raise RuntimeError(f"ESCAPED: wrote {written} MB")

    def act(self, obs):
        return obs.legal_actions[0]
