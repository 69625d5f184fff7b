# The games by name: the one place that knows every game of the core and sends a call to the game it is
# for. The families (alhambra/, dice/) know only themselves and shared/; a new game is a new line here.

def new_game(num_players, seed, options=None, game="alhambra"):
    """A new game after the setup of rules.md §2 (2 players: Dirk on unless ``options={"dirk": False}``).
    ``game="dice"`` / ``"alcazaba"``: Alhambra: The Dice Game / its Alcazaba variant (a DiceState, dice/).

    >>> s = new_game(4, seed=7)
    >>> len(s.market()), s.draw_pile_size > 0
    (4, True)
    """
    if game != "alhambra":
        return new_dice_game(num_players, seed, game, options)
    return new_alhambra_game(num_players, seed, options)


def determinize(obs, seed):
    """A full State consistent with the observation ``obs`` (a dict, or an object with ``to_dict``): the
    draw-pile order (each undrawn scoring card uniform over the free places of its range), the bag order, the
    RNG and any hand cards no public event revealed are sampled with ``seed``; everything the seat knows is
    kept. ``determinize(obs, seed).observation(obs["seat"])`` equals ``obs``. ``seed`` is any int (reduced
    modulo 2**64: -1 and 2**64 - 1 give the same sample); anything else is refused.

    The checked state built from ``obs`` is cached per observation object, so repeated calls on the same
    dict cost a clone and a shuffle (do not mutate the dict in between; copy it instead).

    >>> from alhambra_ai import new_game
    >>> s = new_game(3, seed=7)
    >>> d = determinize(s.observation(1), seed=1)
    >>> d.observation(1) == s.observation(1), d.hand(0) == s.hand(0)
    (True, True)
    """
    if not isinstance(obs, dict):
        if hasattr(obs, "to_dict"):
            obs = obs.to_dict()
        else:
            raise PositionError(f"an observation is a dict, not {type(obs).__name__}")
    if obs.get("game", "alhambra") != "alhambra":
        return dice_determinize(obs, seed)        # the dice games (dice/observe.pxi)
    return alhambra_determinize(obs, seed)
