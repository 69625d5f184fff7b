# What the games' Python faces refuse, alike in every game: the exceptions they raise and the checks of
# new_game's arguments.

class IllegalActionError(ValueError):
    """An action that is not legal in this state; the state is left unchanged. The message names the action
    and what is wrong, e.g. ``illegal action 'buy 2 g4': 4 dirham does not pay the cost 7 of tile 17``."""


class PositionError(ValueError):
    """A position or observation that is malformed or impossible; the message names the first problem,
    e.g. ``tile 17 is both in the reserve of seat 1 and in market slot 2``."""


def _check_num_players(num_players):
    if isinstance(num_players, bool) or not isinstance(num_players, int) or not 2 <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be an int from 2 to {MAX_PLAYERS}, not {num_players!r}")


def _check_seed(seed):
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 64:
        raise ValueError(f"seed must be an int from 0 to 2**64 - 1, not {seed!r}")
