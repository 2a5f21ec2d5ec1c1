"""Page dialogs (alert, confirm, prompt, beforeunload). They would block the page's script, and with it
every bridge call, so each is dismissed at once, unless a person was asked for: while a WebMCP tool's
``requestUserInteraction`` callback runs (lifecycle/interaction.py), the page's dialogs go to that person
(``route``) and their answer is the person's."""

from __future__ import annotations

import contextlib
import logging
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.async_api import Dialog, Page

log = logging.getLogger("pling_browser.dialogs")

# (type, message, default value) → the person accepts (True) or dismisses (False).
AskPerson = Callable[[str, str, str], Awaitable[bool]]

_routes: weakref.WeakKeyDictionary[Page, AskPerson] = weakref.WeakKeyDictionary()


def route(page: Page, ask: AskPerson) -> None:
    """From now on the page's dialogs are asked of a person through ``ask``."""
    _routes[page] = ask


def unroute(page: Page) -> None:
    _routes.pop(page, None)


def routed(page: Page) -> bool:
    return page in _routes


async def on_dialog(dialog: Dialog) -> None:
    ask = _routes.get(dialog.page) if dialog.page is not None else None
    if ask is None:
        with contextlib.suppress(Exception):
            await dialog.dismiss()
        return
    try:
        accepted = await ask(dialog.type, dialog.message, dialog.default_value)
    except Exception:  # the person could not be asked: the dialog is dismissed, never accepted
        log.exception("a dialog could not be shown to the person; dismissed")
        accepted = False
    with contextlib.suppress(Exception):
        await (dialog.accept() if accepted else dialog.dismiss())
