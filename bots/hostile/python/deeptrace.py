"""Hostile (careless, really): in round 3 an error is raised deep inside a library - copy.deepcopy
recursing through 300 nested lists - so the traceback's last lines are all library frames."""
import copy

from arena_sdk import dynamite


class Poison:
    def __deepcopy__(self, memo):
        raise ValueError("cannot copy the poison pill")


def nested(depth):
    d = [Poison()]
    for _ in range(depth):
        d = [d]
    return d


class DeepTrace(dynamite.Bot):
    def move(self, state: dynamite.State) -> str:
        if state.round == 3:
            copy.deepcopy(nested(300))
        return "P"
