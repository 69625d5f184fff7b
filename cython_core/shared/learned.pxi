# A learned position value, compiled: a model (linear, or one hidden layer) over a game's value features
# (int16 whole numbers computed in the core from what one seat may know: dice/value.pxi for the dice games,
# alhambra/value.pxi for the base game). The weights are fitted by `alhambra-ai train` on
# `alhambra-ai selfplay --encoding value` data and loaded by alhambra_ai/value_model.py; the searches
# evaluate them in C at their leaves (lv_eval on an LVNet, no Python call per leaf).
#
# The model is the same for every game; which features it reads is the game's: the class LearnedValue
# records the game and player count, takes its width from the game's feature names (registry.pxi's
# value_names: the one place that knows every game), and its margins(state) goes through the registry too.

cdef struct LVNet:
    int width                      # features per row
    int hidden                     # 0: linear
    double* w1                     # [width] (linear) or [width, hidden] row-major
    double* b1                     # [1] or [hidden]
    double* w2                     # [hidden] (unused when linear)
    double b2


cdef double lv_eval(LVNet* m, int16_t* x) noexcept nogil:
    """The model's output for one feature row x (m.width values): z = w1 . x + b1, or
    z = w2 . relu(x @ w1 + b1) + b2."""
    cdef int i, j, n = m.width, H = m.hidden
    cdef double z, h
    cdef double acc[256]
    if H == 0:
        z = m.b1[0]
        for i in range(n):
            z += m.w1[i] * x[i]
        return z
    for j in range(H if H < 256 else 256):
        acc[j] = m.b1[j]
    for i in range(n):
        if x[i] != 0:
            for j in range(H if H < 256 else 256):
                acc[j] += x[i] * m.w1[i * H + j]
    z = m.b2
    for j in range(H if H < 256 else 256):
        h = acc[j]
        if h > 0:
            z += h * m.w2[j]
    return z


cdef class LearnedValue:
    """A model over a game's value features: margin(seat), the seat's expected final score minus the best
    other's. Linear: ``z = w1 . x + b1``; with a hidden layer (``w2`` given): ``z = w2 . relu(x @ w1 + b1)
    + b2`` (``w1`` row-major [features, hidden], at most 256 hidden units). margins(state) gives every
    seat's (2 players: the antisymmetric mean, so the two sum to 0); the compiled searches (DiceMcts, Mcts)
    call it in C at their leaves."""
    cdef readonly str game
    cdef readonly int num_players, width, hidden
    cdef LVNet net

    def __cinit__(self):
        self.net.w1 = self.net.b1 = self.net.w2 = NULL

    def __init__(self, game, int num_players, w1, b1, w2=None, double b2=0.0):
        self.game, self.num_players = game, num_players
        self.width = len(value_names(game, num_players))
        a1, c1 = [float(x) for x in w1], [float(x) for x in b1]
        a2 = None if w2 is None else [float(x) for x in w2]
        self.hidden = 0 if a2 is None else len(a2)
        if self.hidden > 256:
            raise ValueError(f"a learned value has at most 256 hidden units, not {self.hidden}")
        units = max(self.hidden, 1)
        if len(a1) != self.width * units or len(c1) != units:
            raise ValueError(f"{game} with {num_players} players has {self.width} value features: the weights "
                             f"hold {len(a1)} and {len(c1)} numbers, not {self.width * units} and {units}")
        free(self.net.w1)
        free(self.net.b1)
        free(self.net.w2)
        self.net.w1 = <double*>malloc(len(a1) * sizeof(double))
        self.net.b1 = <double*>malloc(units * sizeof(double))
        self.net.w2 = <double*>malloc(units * sizeof(double))
        if self.net.w1 == NULL or self.net.b1 == NULL or self.net.w2 == NULL:
            raise MemoryError()
        for i in range(len(a1)):
            self.net.w1[i] = a1[i]
        for i in range(units):
            self.net.b1[i] = c1[i]
            self.net.w2[i] = a2[i] if a2 is not None else 0.0
        self.net.b2 = b2
        self.net.width = self.width
        self.net.hidden = self.hidden

    def __dealloc__(self):
        free(self.net.w1)
        free(self.net.b1)
        free(self.net.w2)

    def margins(self, state):
        """Every seat's expected final margin (points) by the model."""
        return value_margins(self, state)

    cdef int check(self, str game, int n) except -1:
        if game != self.game or n != self.num_players:
            raise ValueError(f"a value for {self.game} with {self.num_players} players cannot score "
                             f"{game} with {n}")
        return 0
