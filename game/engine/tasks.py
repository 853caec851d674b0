"""The registry of task handlers: every kind of task on the state's stack names its handler here.

The game flow (flow.py), the interpreter and the words register their tasks with `@task("name")`; the state runs
them through `HANDLERS`. Nothing here imports anything, so every module can reach it without a circle.
"""
HANDLERS = {}


def task(name):
    """Register the handler of one kind of task: handler(state, task)."""
    def register(fn):
        if name in HANDLERS and HANDLERS[name] is not fn:
            raise ValueError(f"two handlers for the task {name!r}")
        HANDLERS[name] = fn
        return fn
    return register
