"""A session's tabs over the HTTP API (core/tabs.py keeps them): list, activate, close."""

from __future__ import annotations

from typing import Any

from ..core.sessions import Session
from ..errors import BadRequest

__all__ = ["listing", "activate", "close"]


def listing(session: Session) -> dict[str, Any]:
    session.follow_active()
    assert session.tabs is not None
    return {"tabs": session.tabs.listing(), "active": session.tabs.active.id}


async def activate(session: Session, tab: str) -> dict[str, Any]:
    async with session.lock:
        session.on_tab(tab)  # TabNotFound for an unknown id
        session.activate(tab)
        return listing(session)


async def close(session: Session, tab: str) -> dict[str, Any]:
    """Close a tab; closing the active one activates the one active before it, and says so."""
    async with session.lock:
        session.on_tab(tab)
        assert session.tabs is not None
        if len(session.tabs.tabs) == 1:
            raise BadRequest(f"{tab} is the session's last tab: close the session instead (DELETE /sessions/{session.id})")
        activated = await session.tabs.close(tab)
        session.follow_active()
        answer = listing(session)
        answer["closed"] = tab
        if activated is not None:
            answer["activated"] = activated.id
        return answer
