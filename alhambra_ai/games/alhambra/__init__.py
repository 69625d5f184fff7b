"""The base game, *Alhambra*, with the rulebook's modules (``--options``): its registry entry.

The parts (search, terminal session, text, viewer, bench) are modules of this package, imported on first use.
"""

from alhambra_ai.registry import Game

_HERE = "alhambra_ai.games.alhambra"

GAMES = (
    Game(name="alhambra", family="alhambra", title="Alhambra", a_game="an Alhambra game", players=(2, 6),
         takes_options=True, strongest="mcts",
         hooks={"search": f"{_HERE}.search", "session": f"{_HERE}.session:AlhambraTerminalGame",
                "spectator": f"{_HERE}.text:spectator", "spectate": f"{_HERE}.spectate",
                "score_table": f"{_HERE}.text:score_table",
                "viewer": f"{_HERE}.viewer:viewer_data",
                "viewer_page": f"{_HERE}.viewer:page",
                "random_games": f"{_HERE}.bench:random_games",
                "spaces": f"{_HERE}.spaces:spaces",
                "openspiel": f"{_HERE}.spaces:openspiel",
                "analysis": f"{_HERE}.analysis:analyse_decision"}),
)
