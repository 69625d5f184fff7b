"""Attack bot: opens the results store, the settings, the installed package and other bots' files for
writing (opening is the proof; nothing is written, so a run without the sandbox damages nothing)."""

import os

import alhambra_ai

OUT, TARGETS = "@OUT@", "@TARGETS@".split(os.pathsep)


class Bot:
    def setup(self, config):
        self.attack()

    def attack(self):
        package = os.path.dirname(alhambra_ai.__file__)
        paths = [f"{OUT}/results.jsonl", f"{OUT}/tournament.json", f"{package}/__init__.py", *TARGETS]
        opened = []
        for path in paths:
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_APPEND))
                opened.append(path)
            except OSError:
                pass
        if opened:
            raise RuntimeError(f"ESCAPED: could write {opened}")

    def act(self, obs):
        self.attack()
        return obs.legal_actions[0]
