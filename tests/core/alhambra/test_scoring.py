"""rules.md §5 scoring: majorities (ties share, all three rounds), outer walls; Dirk (§7) majorities only."""

import random

from gamehelpers import play, setup

from alhambra_ai import new_game

# Cities built from tiles whose walls keep the rows open (checked valid by from_setup).
CITY_A = "1,0:50 2,0:51 3,0:52 4,0:53 -1,0:20 -2,0:22 -3,0:5"   # 4 towers, 2 arcades, 1 pavilion
CITY_B = "-1,0:49 1,0:54 0,1:47 -1,1:48 0,-1:23"                # 4 towers, 1 arcades
CITY_C = "1,0:18"                                                 # 1 arcades
USED = {50, 51, 52, 53, 20, 22, 5, 49, 54, 47, 48, 23, 18}
MARKET = [7, 14, 31, 41]


def three(**kw):
    return setup(3, cities=[CITY_A, CITY_B, CITY_C], market=MARKET, display=["y1", "g2", "b3", "o4"], **kw)


def majorities(s, r):
    return [seat["majorities"] for seat in s.score_breakdown()[r]["seats"]]


def test_round_1_ties_share_first_place():
    s = three(rest_to=2, draw_pile=["s1", "y5", "s2"])
    s.apply("take y1")
    bd = s.score_breakdown()
    assert [b["round"] for b in bd] == [1]
    # pavilion 1, seraglio 2, arcades 3, chambers 4, garden 5, tower 6; towers tied A/B: 6 // 2 = 3
    assert majorities(s, 0) == [[1, 0, 3, 0, 0, 3], [0, 0, 0, 0, 0, 3], [0, 0, 0, 0, 0, 0]]
    for i, seat in enumerate(bd[0]["seats"]):
        assert seat["wall"] == s.city(i).wall_score()
        assert seat["total"] == sum(seat["majorities"]) + seat["wall"]
        assert s.scores()[i] == seat["total"]
    assert bd[0]["dirk"] is None and s.dirk_score is None


def test_round_2_rulebook_example_and_shared_second_place():
    s = three(rest_to=2, draw_pile=["s2", "y5"], scoring_rounds_done=1, scores=[10, 20, 30])
    s.apply("take y1")
    bd = s.score_breakdown()
    assert [b["round"] for b in bd] == [2] and s.scoring_rounds_done == 2
    # towers: A and B share 13 + 6 = 19 -> 9 each, nobody is 2nd; arcades: A 10, B and C share 3 + 0 -> 1
    assert majorities(s, 0) == [[8, 0, 10, 0, 0, 9], [0, 0, 1, 0, 0, 9], [0, 0, 1, 0, 0, 0]]
    walls = [s.city(i).wall_score() for i in range(3)]
    assert s.scores() == [10 + 27 + walls[0], 20 + 10 + walls[1], 30 + 1 + walls[2]]


def end_tiles(extra_used=()):
    used = USED | set(MARKET) | set(extra_used)
    return [t for t in range(1, 55) if t not in used]


def test_round_3_at_the_end_shares_second_and_third():
    # bag empty: seat 0 buys tile 7, the market cannot be refilled, the game ends; nobody holds money
    # any more, so the leftover tiles stay (everyone ties with 0) and round 3 is scored at once
    s = three(hands=[["y9"], [], []], bag=[], reserves=[[], [], end_tiles()], scoring_rounds_done=2,
              draw_pile=[])
    play(s, "buy 1 y9", "place 7 reserve")
    assert s.is_terminal() and s.phase == "over" and s.current_player == -1
    assert [b["round"] for b in s.score_breakdown()] == [3]
    # towers: A and B share 21 + 13 -> 17; arcades: A 18, B and C share 10 + 3 -> 6; pavilion: A 16
    assert majorities(s, 0) == [[16, 0, 18, 0, 0, 17], [0, 0, 6, 0, 0, 17], [0, 0, 6, 0, 0, 0]]
    assert s.market() == [None, 14, 31, 41]
    assert s.ranking() == [1, 2, 3]
    assert s.legal_actions() == []


def test_round_3_three_way_tie_and_tie_for_third():
    # four seats: gardens 1/1/1/0 -> (20 + 12 + 5) // 3 = 12 each; towers 3/2/1/1 -> 21, 13, (6 + 0) // 2 = 3
    cities = ["1,0:39 2,0:50 3,0:51 4,0:52", "1,0:41 2,0:53 3,0:54", "1,0:42 -1,0:49", "0,1:44"]
    used = {39, 50, 51, 52, 41, 53, 44, 42, 49, 54}
    market = [7, 14, 31, 22]
    rest = [t for t in range(1, 55) if t not in used | set(market)]
    s = setup(4, cities=cities, market=market, hands=[["y9"], [], [], []], bag=[],
              display=["o1", "o2", "o3", "o4"], reserves=[[], [], [], rest], scoring_rounds_done=2,
              draw_pile=[])
    play(s, "buy 1 y9", "place 7 reserve")
    assert s.is_terminal()
    maj = majorities(s, 0)
    assert [m[4] for m in maj] == [12, 12, 12, 0]
    assert [m[5] for m in maj] == [21, 13, 3, 3]


def test_dirk_scores_majorities_only_and_is_not_ranked():
    # 2 players: Dirk 2 towers, seat 1 two towers, seat 0 one: round 1 Dirk and seat 1 share 6 -> 3 each
    s = setup(2, rest_to=1, cities=["1,0:50", "1,0:51 2,0:52", ], dirk_tiles=[53, 44, 5],
              market=[7, 14, 22, 31], display=["y1", "g2", "b3", "o4"], draw_pile=["s1", "y5", "s2"])
    s.apply("take y1")
    bd = s.score_breakdown()[0]
    assert bd["dirk"] == {"majorities": [1, 0, 0, 0, 0, 3], "total": 4}
    assert s.dirk_score == 4
    assert bd["seats"][0]["majorities"] == [0] * 6
    assert bd["seats"][1]["majorities"] == [0, 0, 0, 0, 0, 3]
    assert len(s.ranking()) == 2


def test_scores_never_decrease_and_breakdowns_add_up():
    for seed in range(6):
        for n in (2, 4, 5):
            s = new_game(n, seed)
            s.record_history = False
            rng = random.Random(seed)
            prev = s.scores()
            while not s.is_terminal():
                s.apply(rng.choice(s.legal_actions()))
                cur = s.scores()
                assert all(c >= p for c, p in zip(cur, prev, strict=True))
                prev = cur
            total = [sum(b["seats"][i]["total"] for b in s.score_breakdown()) for i in range(n)]
            assert total == s.scores()
            rounds = [b["round"] for b in s.score_breakdown()]
            assert rounds[-1] == 3 and rounds == sorted(rounds)
            if s.dirk_score is not None:
                assert s.dirk_score == sum(b["dirk"]["total"] for b in s.score_breakdown())
