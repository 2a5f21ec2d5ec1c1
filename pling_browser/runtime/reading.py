"""Reading a page's model as an agent gets it: the page's own bridge answers its model; when the page
has child frames, each frame's declarations are read in that frame (core/frames.py) and joined in
Python (pling_browser/framing.py); ``page.adapter`` (and each frame's) names only adapters the operator
installed for that address (pling_browser/adapters.py, ``vouch``). A page without frames or adapters
costs nothing more: its model text is passed on as the bridge wrote it."""

from __future__ import annotations

import dataclasses
import json
from typing import TYPE_CHECKING, Any

from ..adapters import Adapter, vouch
from ..core.frames import Frames, read_models
from ..framing import merge

if TYPE_CHECKING:
    from ..core.egress import Policy
    from ..core.sessions import Session

ADAPTER_KEY = '"adapter":'


async def model_text(session: Session, window: dict[str, Any] | None, policy: Policy | None,
                     adapters: list[Adapter]) -> str:
    """The model of the session's page (this tab) with its frames', as JSON text."""
    text = await session.bridge.model(window)
    framed = Frames.of(session.bridge).any()
    if not framed and ADAPTER_KEY not in text:
        return text
    model = json.loads(text)
    if framed:
        read, skipped = await read_models(session.bridge, window, policy)
        model = merge(model, [(bridge.origin, part) for bridge, part in read],
                      [dataclasses.asdict(s) for s in skipped])
    return json.dumps(vouch(model, adapters), ensure_ascii=False)
