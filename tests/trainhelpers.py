"""Small self-play datasets made in the test's own process (no referee, no bot processes): random play
through the core, written in the selfplay format by selfplay's own row and shard code. A few hundred games
take seconds, where refereed games take minutes: the training tests check the pipeline, not strength."""

from __future__ import annotations

import random
from pathlib import Path

from alhambra_ai import new_game
from alhambra_ai.arena.store import write_json_atomic
from alhambra_ai.learn.selfplay import (
    FeatureEncoder,
    Settings,
    game_rows,
    make_manifest,
    shard_arrays,
    shard_path,
    write_npz,
)
from alhambra_ai.sandbox.process import BotSource


def make_dataset(out: Path, games: int, seed: int, game: str = "dice", players: int = 2,
                 options: tuple[str, ...] = (), shard_games: int = 16, encoding: str = "compact") -> Path:
    """A dataset of ``games`` random games in ``out``, as ``alhambra-ai selfplay random --games N --seed S``
    lays it out (its manifest, shards and rows; the moves are drawn here, not by random.py)."""
    s = Settings(("random",) * players, players, games, seed, game, tuple(options), encoding=encoding,
                 shard_games=shard_games)
    enc = FeatureEncoder(game, players, dict.fromkeys(options, True), encoding)
    sources = {name: BotSource.from_file(p) for name, p in s.match.paths(players).items()}
    manifest = make_manifest(s, enc, sources)
    out.mkdir(parents=True)
    write_json_atomic(out / "manifest.json", manifest)
    per = s.per_shard
    for k in range(-(-games // per)):
        first, stop = k * per, min((k + 1) * per, games)
        rows = []
        for g, spec in zip(range(first, stop), s.schedule(first, stop), strict=True):
            rng = random.Random(spec.seed)
            state = new_game(players, seed=spec.seed, game=game,
                             options=dict.fromkeys(options, True) if game == "alhambra" else list(options))
            actions = []
            while not state.is_terminal():
                a = rng.choice(state.legal_actions())
                actions.append(state.action_to_text(a))
                state.apply(a)
            scores = list(state.scores())
            ranks = [1 + sum(o > sc for o in scores) for sc in scores]
            result = {"num_players": players, "seed": spec.seed, "options": dict.fromkeys(options, True),
                      "bots": list(spec.bots), "scores": scores, "ranks": ranks, "forfeits": [],
                      "actions": actions, "game_type": game, "id": spec.id}
            rows.append(game_rows(result, enc, g, manifest["seat_names"]))
        meta = {"format": manifest["format"], "version": manifest["version"], "game": game,
                "options": list(options), "players": players, "encoding": encoding, "features": enc.size,
                "shard": k, "first_game": first, "games": stop - first}
        write_npz(shard_path(out, k), shard_arrays(rows, meta))
    return out
