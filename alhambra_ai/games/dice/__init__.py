"""*Alhambra: The Dice Game* and its *Alcazaba* variant: their registry entries.

The two share every part (the core's ``DiceState`` plays both); the parts ask the state which one it is.
"""

from alhambra_ai.registry import Game

_HERE = "alhambra_ai.games.dice"
_HOOKS = {"search": f"{_HERE}.search", "session": f"{_HERE}.session:DiceTerminalGame",
          "spectator": f"{_HERE}.text:spectator", "spectate": f"{_HERE}.spectate",
          "score_table": f"{_HERE}.text:score_table",
          "viewer": f"{_HERE}.viewer:viewer_data",
          "viewer_page": f"{_HERE}.viewer:page",
          "random_games": f"{_HERE}.bench:random_games",
          "spaces": f"{_HERE}.spaces:spaces",
          "openspiel": f"{_HERE}.spaces:openspiel",
          "analysis": f"{_HERE}.analysis:analyse_decision"}

GAMES = (
    Game(name="dice", family="dice", title="Alhambra: The Dice Game", a_game="a dice game", players=(2, 6),
         takes_options=False, strongest="expectimax", hooks=_HOOKS),
    Game(name="alcazaba", family="dice", title="Alcazaba", a_game="an Alcazaba game", players=(2, 6),
         takes_options=False, strongest="expectimax", hooks=_HOOKS),
)
