"""Profiles: a session's sign-in saved under a name (by a person or the operator), listed, deleted; a
session opens with one through `POST /sessions {profile}` (routes/sessions.py). A profile's contents
never leave the service: these routes answer names and dates only."""

from __future__ import annotations

from fastapi import APIRouter, Path

from ...bodies import PROFILE_NAME, ProfileDeleted, ProfileInfo, ProfileList, SaveProfile
from ...errors import Forbidden
from ...runtime.profiles import save_session
from . import CallerDep, RuntimeDep

router = APIRouter(tags=["profiles"])


@router.post("/sessions/{sid}/profile", status_code=201, response_model=ProfileInfo)
async def save_profile(sid: str, body: SaveProfile, runtime: RuntimeDep, caller: CallerDep) -> ProfileInfo:
    """Save the session's sign-in (cookies, local and session storage, IndexedDB) as a named profile,
    encrypted with PLING_PROFILES_KEY; a person or the operator only. Saving again under a name
    replaces that profile."""
    if caller.role == "agent":  # AccessGuard refuses it first; kept here so no other way in can
        raise Forbidden(f"The caller {caller.name!r} has the agent role, which may not save a profile",
                        hint="A person or the operator saves profiles (PLING_TOKENS).")
    session = runtime.sessions.get(sid)
    return await save_session(runtime.profiles, session, body.name)


@router.get("/profiles", response_model=ProfileList)
async def list_profiles(runtime: RuntimeDep) -> ProfileList:
    """The saved profiles: names and when each was saved, never their contents."""
    return ProfileList(profiles=runtime.profiles.list())


@router.delete("/profiles/{name}", response_model=ProfileDeleted)
async def delete_profile(runtime: RuntimeDep, caller: CallerDep,
                         name: str = Path(pattern=PROFILE_NAME, description="The profile's name.")) -> ProfileDeleted:
    """Delete a saved profile (its file); a person or the operator only."""
    if caller.role == "agent":
        raise Forbidden(f"The caller {caller.name!r} has the agent role, which may not delete a profile",
                        hint="A person or the operator deletes profiles (PLING_TOKENS).")
    runtime.profiles.delete(name)
    return ProfileDeleted(deleted=name)
