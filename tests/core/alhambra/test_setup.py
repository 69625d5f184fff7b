"""rules.md §2 setup: deal to >= 20, start player, display, five piles, scoring cards, Dirk (§7)."""

from collections import Counter

import pytest

from alhambra_ai import new_game, parse_card

SEEDS = range(60)


def dealt(s):
    """Starting deals from the public history: seat -> cards in the order dealt."""
    out = {}
    for line in s.history:
        if " dealt: " in line:
            head, cards = line.split(": ")
            out[int(head.split()[1]) - 1] = cards.split()
    return out


def value(card):
    return int(card[1:])


def all_cards(s):
    """Every money card of the game, wherever it is (the draw pile includes s1/s2 markers)."""
    cards = [c for i in range(s.num_players) for c in s.hand(i)]
    cards += [c for c in s.display() if c] + s.discard() + s._draw_pile()
    return Counter(cards)


def all_tiles(s):
    tiles = [t for t in s.market() if t is not None] + s._bag() + s.dirk_tiles() + s.pending()
    for i in range(s.num_players):
        tiles += s.reserve(i) + [t for _, _, t, _ in s.city(i).cells() if t != 0]
    return tiles


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_deal_until_twenty(n):
    for seed in SEEDS:
        s = new_game(n, seed)
        deals = dealt(s)
        assert sorted(deals) == list(range(n))
        for seat, cards in deals.items():
            total = sum(value(c) for c in cards)
            assert total >= 20
            assert total - value(cards[-1]) < 20      # dealing stopped at the first card reaching 20
            assert sorted(cards, key=parse_card) == s.hand(seat)


def test_start_player():
    picks = Counter()      # index of the chosen seat within the tied group
    for n in (2, 3, 4, 5, 6):
        for seed in range(150):
            s = new_game(n, seed)
            key = [(s.hand_size(i), sum(s.currency_total(i, c) for c in range(4))) for i in range(n)]
            tied = [i for i in range(n) if key[i] == min(key)]
            assert s.current_player in tied
            assert s.start_player == s.current_player
            assert f"start: seat {s.current_player + 1}" in s.history
            if len(tied) > 1:
                picks[tied.index(s.current_player)] += 1
    # ties happen, and the RNG picks among the tied: not always the first (nor always the last) of them
    assert sum(picks.values()) >= 10
    assert picks[0] > 0 and sum(picks.values()) > picks[0]


@pytest.mark.parametrize("n, dirk", [(2, True), (2, False), (3, False), (4, False), (6, False)])
def test_components_and_piles(n, dirk):
    copies = 2 if dirk else 3
    for seed in SEEDS:
        s = new_game(n, seed, {"dirk": dirk})
        assert s.options == {"dirk": dirk}
        # every money card exactly `copies` times, plus the two scoring cards in the draw pile
        cards = all_cards(s)
        assert cards.pop("s1") == 1 and cards.pop("s2") == 1
        assert set(cards.values()) == {copies} and len(cards) == 36
        # 54 tiles, each once; market full; Dirk's 6 come after the market
        tiles = all_tiles(s)
        assert sorted(tiles) == list(range(1, 55))
        assert all(t is not None for t in s.market())
        assert len(s.dirk_tiles()) == (6 if dirk else 0)
        assert s.bag_size == 50 - (6 if dirk else 0)
        assert all(c is not None for c in s.display())
        # five piles as equal as possible, larger first; s1 somewhere in pile 2, s2 in pile 4
        rest = 36 * copies - sum(s.hand_size(i) for i in range(n)) - 4
        sizes = [rest // 5 + (1 if k < rest % 5 else 0) for k in range(5)]
        pile = s._draw_pile()
        assert len(pile) == rest + 2 == s.draw_pile_size
        p2 = sizes[0]
        p4 = sizes[0] + sizes[1] + 1 + sizes[2]
        assert p2 <= pile.index("s1") <= p2 + sizes[1]
        assert p4 <= pile.index("s2") <= p4 + sizes[3]
        assert s.scoring_card_range(1) == (p2, p2 + sizes[1])
        assert s.scoring_card_range(2) == (p4, p4 + sizes[3])


def test_scoring_card_positions_are_spread():
    """The scoring card goes to a uniformly random place in its pile: first and last places both occur."""
    firsts, lasts = 0, 0
    for seed in range(400):
        s = new_game(4, seed)
        lo, hi = s.scoring_card_range(1)
        pos = s._draw_pile().index("s1")
        firsts += pos == lo
        lasts += pos == hi
    assert firsts > 3 and lasts > 3


def test_setup_history_is_public_record():
    s = new_game(2, 3)
    h = s.history
    assert [line for line in h if line.startswith("market ")] == [f"market {k + 1}: {t}"
                                                                  for k, t in enumerate(s.market())]
    assert sorted(int(line.split()[1]) for line in h if line.startswith("dirk: ")) == s.dirk_tiles()
    assert [line.split()[1] for line in h if line.startswith("display: ")] == s.display()


def test_same_seed_same_setup_other_seed_other_setup():
    a, b, c = new_game(4, 11), new_game(4, 11), new_game(4, 12)
    assert a._fingerprint() == b._fingerprint() and a.history == b.history
    assert a._fingerprint() != c._fingerprint()


@pytest.mark.parametrize("bad", [1, 7, 0, "4", 4.0, True])
def test_bad_player_count(bad):
    with pytest.raises(ValueError, match="num_players"):
        new_game(bad, 1)


@pytest.mark.parametrize("bad", [-1, 2 ** 64, "x", 1.5])
def test_bad_seed(bad):
    with pytest.raises(ValueError, match="seed"):
        new_game(4, bad)


def test_options():
    assert new_game(2, 1).options == {"dirk": True}
    assert new_game(2, 1, {"dirk": False}).options == {"dirk": False}
    assert new_game(3, 1).options == {"dirk": False}
    with pytest.raises(ValueError, match="'dirk'"):
        new_game(4, 1, {"dirk": True})
    with pytest.raises(ValueError, match="'dirk'"):
        new_game(2, 1, {"dirk": "yes"})
    with pytest.raises(ValueError, match="'colour'"):
        new_game(4, 1, {"colour": 1})
    from alhambra_ai import _core

    for name in [m for m in _core.MODULE_OPTIONS if m not in _core.MODULES][:1]:
        with pytest.raises(ValueError, match=f"'{name}'.*not implemented"):
            new_game(4, 1, {name: True})
    assert new_game(4, 1, {"vizier": True}).options == {"dirk": False, "vizier": True}
    assert new_game(4, 1, {"camps": False}).options == {"dirk": False}
    with pytest.raises(ValueError, match="dict"):
        new_game(4, 1, ["dirk"])
