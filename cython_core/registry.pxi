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


def value_names(game, int num_players):
    """The value features' column names of a game and player count (docs/formats.md "Value features"):
    alhambra/value.pxi for the base game, dice/value.pxi for the dice games."""
    if game == "alhambra":
        return alhambra_value_names(num_players)
    return dice_value_names(game, num_players)


def value_margins(LearnedValue lv, state):
    """LearnedValue.margins: every seat's expected final margin by the model, for a state of its game."""
    if isinstance(state, State):
        return alhambra_value_margins(lv, state)
    if isinstance(state, DiceState):
        return dice_value_margins(lv, state)
    raise TypeError(f"a learned value scores a State or a DiceState, not {type(state).__name__}")


def value_features(state, int seat):
    """The value features (a list of ints) of a state as ``seat`` sees them: alhambra_value_features for the
    base game, dice_value_features for the dice games."""
    if isinstance(state, State):
        return alhambra_value_features(state, seat)
    return dice_value_features(state, seat)


def value_layout(game):
    """The name of a game's value-feature layout, carrying its version (a weights file records it; loading
    refuses another): ``alhambra_value_v1`` for the base game, ``value_v2`` for the dice games."""
    if game == "alhambra":
        return f"alhambra_value_v{ALHAMBRA_VALUE_VERSION}"
    if game not in GAME_NAMES:
        raise ValueError(f"no game {game!r}")
    return f"value_v{DICE_VALUE_VERSION}"
