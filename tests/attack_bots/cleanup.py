"""Attack bot: makes its private directory impossible to clean up, hoping the referee crashes (and the run
with it) or follows a link out: mode-000 directories, a deep tree, a FIFO, hard links, links to other
bots' files (@TARGETS@) and to their directory, names no terminal should print."""

import os

TARGETS = "@TARGETS@".split(os.pathsep)


class Bot:
    def setup(self, config):
        os.makedirs("locked/inner", exist_ok=True)
        with open("locked/inner/file", "w") as f:
            f.write("x")
        os.chmod("locked/inner", 0)
        os.chmod("locked", 0)
        path = "deep"
        os.mkdir(path)
        fd = os.open(path, os.O_RDONLY)
        for _ in range(2000):  # deeper than any path the kernel resolves in one go
            os.mkdir("d", dir_fd=fd)
            nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
        os.close(fd)
        os.mkfifo("fifo")
        with open("original", "w") as f:
            f.write("y")
        os.link("original", "hardlink")
        for k, target in enumerate(TARGETS):
            os.symlink(target, f"link{k}")
            os.symlink(os.path.dirname(target), f"dirlink{k}")
        with open("\x1b[2Jcleared", "w"):
            pass
        os.chmod(".", 0o500)

    def act(self, obs):
        return obs.legal_actions[0]
