"""Start-up without the cyclic garbage collector.

Starting builds ~130,000 objects that live as long as the process (modules, ~450 pydantic models, the command tree,
the books) and leaves almost no cyclic garbage (a few hundred objects). The collector's passes over that growing
heap were a fifth of the time to the console's first reply (issue 23), so ``python -m bot`` pauses it while it
starts; once started, what start-up built is frozen (``gc.freeze``: kept out of every later pass, as it lives until
exit anyway) and collection resumes for what play allocates, whose full passes are cheaper for it.
"""

from __future__ import annotations

import gc

_paused = False


def pause_collector() -> None:
    """Called first thing by ``python -m bot`` for the bot and the console, whose start-up :func:`started` ends."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def started() -> None:
    """Start-up is over: freeze what it built and collect again. Does nothing unless :func:`pause_collector` paused
    the collector (a test opening a console in its own process keeps its collector as it was)."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()
