"""A whole position may carry the engine's interpreter stack, frames and question, which the loader trusts: forged,
they crashed the engine (KeyError in the task handlers, TypeError in the Automa) and both analysis endpoints answered
500 to anyone. Seeded and bounded: stacks and frames are forged at random (real stacks mutated, tasks made up) and
sent to /api/analysis/ and /api/analysis/engine/ anonymously; no answer may be a 5xx.

- Sealed the way anyone could before (an unkeyed hash of the public JSON): every forgery is refused, naming
  `position.engine.stack` (or the part of the engine's data whose shape is already wrong).
- Sealed with the site's own key (what an attacker cannot do any more, so the engine's own robustness is tested):
  each is a 200 or a 400 naming `position` (the engine's refusal, logged with the position's digest).
"""
import copy
import hashlib
import hmac
import json
import logging
import random

import pytest
from django.test import Client

from game.checker.services import current_cards
from game.engine.agents import RandomAgent
from game.engine.position import export_position
from game.engine.state import GameState
from game.engine.tasks import HANDLERS

CASES = 36  # forgeries per seal; each goes to /api/analysis/, every third also to /api/analysis/engine/
JUNK = [None, True, False, -1, 0, 1, 2, 7, 300, 10 ** 12, 2 ** 70, 1.5, "", "x", "turn", "crimson_cavern", "meat",
        [], [0], [1, 2], {}, {"t": "turn"}, {"p": 0}]


def inside_an_ability(cat, seed, players, automa=None):
    """A real position paused inside an ability (its export carries engine.stack), from a seeded random game."""
    st = GameState.new(cat, players=players, seed=seed, automa=automa)
    agent = RandomAgent(seed)
    while st.pending is not None:
        st.apply(agent.choose(st.pending.options))
        position = export_position(st)
        if "stack" in position["engine"] and st.turns >= 2:
            return position
    raise AssertionError(f"seed {seed}: no decision inside an ability")


def junk(rng, keys):
    value = rng.choice(JUNK + [rng.choice(keys)] if keys else JUNK)
    return copy.deepcopy(value)


def forge(rng, position, tasks, frames, keys):
    """The position with its interpreter part forged in one to three random ways."""
    engine = position["engine"]
    for _ in range(rng.randint(1, 3)):
        how = rng.randrange(10)
        stack = engine["stack"]
        if how == 0 and stack:  # a field of a task set to junk
            task = rng.choice(stack)
            task[rng.choice(sorted(task))] = junk(rng, keys)
        elif how == 1 and stack:  # a field of a task taken away
            task = rng.choice(stack)
            task.pop(rng.choice(sorted(task)), None)
        elif how == 2 and stack:  # a task of another kind
            rng.choice(stack)["t"] = rng.choice(sorted(HANDLERS))
        elif how == 3:  # a real task from another game, anywhere
            stack.insert(rng.randint(0, len(stack)), copy.deepcopy(rng.choice(tasks)))
        elif how == 4 and stack:  # a task dropped, doubled or moved
            task = stack.pop(rng.randrange(len(stack)))
            if rng.random() < 0.5:
                stack.insert(rng.randint(0, len(stack)), task)
            stack.insert(rng.randint(0, len(stack)), copy.deepcopy(task))
        elif how == 5:  # made-up tasks
            engine["stack"] = [{"t": rng.choice(sorted(HANDLERS)),
                                **{rng.choice(keys): junk(rng, keys) for _ in range(rng.randint(0, 4))}}
                               for _ in range(rng.randint(1, 4))]
        elif how == 6 and engine.get("frames"):  # a field of a frame set to junk
            frame = engine["frames"][rng.choice(sorted(engine["frames"]))]
            frame[rng.choice(["p", "src", "owner", "cave", "parent", "vars"])] = junk(rng, keys)
        elif how == 7 and engine.get("frames"):  # a frame's variable changed, or a frame gone
            name = rng.choice(sorted(engine["frames"]))
            frame = engine["frames"][name]
            if isinstance(frame.get("vars"), dict) and frame["vars"] and rng.random() < 0.6:
                frame["vars"][rng.choice(sorted(frame["vars"]))] = junk(rng, keys)
            else:
                del engine["frames"][name]
        elif how == 8:  # a frame from another game, under a number in use or not
            frame = copy.deepcopy(rng.choice(frames))
            engine.setdefault("frames", {})[str(rng.choice([0, 1, engine.get("next_frame", 0), 999]))] = frame
        elif engine.get("pending"):  # the question: who answers it, its kind, its options, its data
            pending = engine["pending"]
            field = rng.choice(["player", "kind", "options", "data", "prompt"])
            pending[field] = rng.randrange(len(position["players"])) if field == "player" else junk(rng, keys)
    return position


def attackers_seal(engine):
    """The seal as it was: an unkeyed hash of public JSON, which anyone can compute."""
    inner = {name: engine.get(name) for name in ("stack", "frames", "pending")}
    return hashlib.sha256(json.dumps(inner, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]


def sites_seal(engine):
    from game.analysis.board import seal_key  # the site's own key: only the server (and this test) holds it
    inner = {name: engine.get(name) for name in ("stack", "frames", "pending")}
    text = json.dumps(inner, sort_keys=True, separators=(",", ":"))
    return hmac.new(seal_key(), text.encode(), hashlib.sha256).hexdigest()


@pytest.fixture
def forgeries(catalogue):
    """(position, first option of its real question) pairs: CASES forgeries of real positions, seeded."""
    cat = current_cards().cat
    real = [inside_an_ability(cat, seed, players) for seed, players in ((3, 2), (4, 3), (5, 2), (6, 4))]
    real.append(inside_an_ability(cat, 7, 1, {"level": 2, "ravel": False}))
    tasks = [task for p in real for task in p["engine"]["stack"]]
    frames = [frame for p in real for frame in p["engine"].get("frames", {}).values()]
    keys = sorted({key for task in tasks for key in task} | {"p", "src", "owner", "cave", "parent", "vars", "f"})
    rng = random.Random(31)
    made = []
    for _ in range(CASES):
        base = rng.choice(real)
        option = base["engine"]["pending"]["options"][0] if base["engine"].get("pending", {}).get("options") else None
        made.append((forge(rng, copy.deepcopy(base), tasks, frames, keys), option))
    return made


def ask(client, url, body):
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code < 500, (url, response.status_code, response.content[:500], body)
    return response.status_code, response.json()


def requests(forgeries, seal):
    """Each forgery sealed with `seal`, asked with no decision or with its real question's first option, on both
    endpoints (the engine's search on every third: it is the slow one)."""
    rng = random.Random(32)
    for i, (position, option) in enumerate(forgeries):
        position["engine"]["seal"] = seal(position["engine"])
        decisions = [option] if option is not None and rng.random() < 0.5 else []
        body = {"position": position, "try": {}, "decisions": decisions}
        yield "/api/analysis/", body
        if i % 3 == 0:
            yield "/api/analysis/engine/", dict(body, budget=0.05)


def test_stacks_forged_under_a_seal_anyone_can_compute_are_refused_not_500(forgeries):
    client = Client(raise_request_exception=False)
    for url, body in requests(forgeries, attackers_seal):
        status, answer = ask(client, url, body)
        assert status == 400 and answer["field"].startswith("position.engine"), (url, answer)


def test_stacks_forged_under_the_sites_own_seal_are_played_or_refused_naming_the_position(forgeries, caplog):
    client = Client(raise_request_exception=False)
    answered = {200: 0, 400: 0}
    with caplog.at_level(logging.WARNING, logger="game.analysis.service"):
        for url, body in requests(forgeries, sites_seal):
            status, answer = ask(client, url, body)
            answered[status] += 1
            if status == 400:
                assert answer["field"].startswith(("position", "decisions", "try")), answer
    refusals = [r for r in caplog.records if r.name == "game.analysis.service"]
    assert answered[400] and refusals, answered  # the forgeries do reach the engine, and its failures are logged
    assert all("the engine failed on position" in r.getMessage() and r.exc_info for r in refusals)
    print(f"\nforged positions under the site's seal: {answered[200]} played, {answered[400]} refused, "
          f"{len(refusals)} of them engine failures turned into refusals")


def test_a_real_position_inside_an_ability_goes_and_comes_back(catalogue):
    """What the board answers inside an ability (sealed with the site's key) is accepted when sent back."""
    client = Client(raise_request_exception=False)
    cat = current_cards().cat
    position = inside_an_ability(cat, 3, 2)
    position["engine"]["seal"] = sites_seal(position["engine"])
    status, answer = ask(client, "/api/analysis/", {"position": position})
    assert status == 200, answer
    assert "stack" in answer["position"]["engine"]
    status, again = ask(client, "/api/analysis/", {"position": answer["position"]})
    assert status == 200, again
    assert (again["pending"]["kind"], again["pending"]["data"]) == (answer["pending"]["kind"], answer["pending"]["data"])
