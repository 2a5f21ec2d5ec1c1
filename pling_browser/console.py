"""The operator console at /console (filled in by the console work; see issue 9)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import APIRouter

if TYPE_CHECKING:
    from .runtime import Runtime


def console_router(runtime: "Runtime") -> APIRouter:
    return APIRouter()
