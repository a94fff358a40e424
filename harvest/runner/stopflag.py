"""The fleet's stop flag: one shared byte that the supervisor sets and every child reads, no lock.

A ``multiprocessing.Event`` keeps its flag behind a lock (a POSIX semaphore) that every
``is_set()`` takes for a few microseconds. A child SIGKILLed inside that window (by an operator,
the OOM killer, or on a loaded machine where a preemption stretches the window) leaves the
lock taken for ever: the kernel does not give back a semaphore whose holder died. Every sibling
then blocks in its next heartbeat poll, its reactor with it, and so does every child started
later; they cannot even notice that their supervisor died, and the supervisor's own ``set()``
blocks when the fleet is asked to stop. The watchdog only restarts children into the same wait.

The stop flag needs no lock: it goes from 0 to 1 once and never back, the supervisor is its
only writer, and a one-byte load or store cannot tear, so a reader sees either value and a
process killed at any instant holds nothing (the same reasoning as
:mod:`harvest.runner.counter`).
"""

from __future__ import annotations

from typing import Any


class StopFlag:
    """Set once by the supervisor when the whole fleet must stop; read by each child's poll.

    It has the two methods of ``multiprocessing.Event`` that the fleet uses, so
    :class:`harvest.extensions.fleet.FleetChannel` carries either.
    """

    def __init__(self, ctx: Any) -> None:
        """Allocate the cleared flag from ``ctx`` (the fleet's spawn context)."""
        #: ``ctx.RawValue("b")``: shared with the children through spawn, like the counter's slots.
        self._value: Any = ctx.RawValue("b", 0)

    def set(self) -> None:
        """Tell every child to stop (never cleared: a fleet stops once)."""
        self._value.value = 1

    def is_set(self) -> bool:
        """Whether the fleet is stopping."""
        return bool(self._value.value)
