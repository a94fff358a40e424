"""The fleet's item counter: one slot per running child in shared memory, no lock anywhere.

The supervisor gives each child process it starts a free slot of a shared array of 64-bit
integers; the child alone writes that slot (``slots[slot] += 1`` on every item written, see
:class:`harvest.extensions.fleet.FleetExtension`), and the supervisor sums the slots. Nothing
is ever locked, so a child killed at any instant (even mid-write) cannot block a sibling: its
slot simply keeps the last value it wrote.

A slot is reused only after its child has been reaped (it can write nothing more): the
supervisor first folds the slot's value into a base total, then zeroes it, so a restarted
spider does not lose what its previous process counted, and the total never goes down.

Aligned 64-bit loads and stores do not tear on the platforms this runs on, so the
supervisor's unlocked read sees either the old or the new value of a slot.
"""

from __future__ import annotations

import logging
from typing import Any

logger = logging.getLogger(__name__)


class SlotCounter:
    """Supervisor side: hands out slots, folds them back, and sums them."""

    def __init__(self, ctx: Any, n_slots: int) -> None:
        """Allocate ``n_slots`` zeroed slots (one per child that may run at once) from ``ctx``."""
        if n_slots < 1:
            raise ValueError(f"a counter needs at least one slot, got {n_slots}")
        #: ``ctx.Array("q", n, lock=False)``: shared with the children through spawn.
        self.slots: Any = ctx.Array("q", n_slots, lock=False)
        #: Items counted by children whose slots were folded back (reaped processes).
        self.base = 0
        self._free = list(range(n_slots - 1, -1, -1))  # pop() hands out slot 0 first

    def acquire(self) -> int:
        """A free slot for a child about to start; it holds 0."""
        if not self._free:
            raise RuntimeError(f"all {len(self.slots)} counter slots are in use")
        return self._free.pop()

    def release(self, slot: int) -> int:
        """Fold a reaped child's slot into the base total and free it; return what it counted.

        Call only once the child has exited: a live child would go on writing the slot.
        """
        counted = int(self.slots[slot])
        self.base += counted
        self.slots[slot] = 0
        self._free.append(slot)
        return counted

    def total(self) -> int:
        """Every item counted in this fleet run: folded slots plus the live ones."""
        return self.base + sum(self.slots)
