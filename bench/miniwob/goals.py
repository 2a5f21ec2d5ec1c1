"""What a task's utterance asks, read the same way by both policies (Pling's and Playwright MCP's):
plain regular expressions over the sentence MiniWoB++ shows. A sentence no rule reads is an error."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


class UnreadGoal(ValueError):
    pass


@dataclass
class Goal:
    kind: str                      # click | type | password | login | choose | tick | post | email
    target: str = ""               # a label, a name, a user
    text: str = ""                 # what to type
    secret: str = ""
    names: list[str] = field(default_factory=list)
    button: str = ""               # social media: the button's name as the task says it
    amount: int | None = None      # social media: how many posts (None: every post)


def _m(pattern: str, text: str) -> re.Match[str]:
    found = re.fullmatch(pattern, text)
    if not found:
        raise UnreadGoal(f"no rule reads {text!r}")
    return found


def read(task: str, u: str) -> Goal:
    if task == "click-button":
        return Goal("click", _m(r'Click on the "(.+)" button\.', u)[1])
    if task == "click-link":
        return Goal("click", _m(r'Click on the link "(.+)"\.', u)[1])
    if task == "click-dialog":
        return Goal("click", _m(r'Close the dialog box by clicking the "(.+)"\.', u)[1])
    if task == "click-dialog-2":
        return Goal("click", _m(r'Click the button in the dialog box labeled "(.+)"\.', u)[1])
    if task == "click-button-sequence":
        m = _m(r"Click button (\w+), then click button (\w+)\.", u)
        return Goal("click", names=[m[1], m[2]])
    if task == "click-tab":
        return Goal("click", _m(r"Click on (Tab #\d)\.", u)[1])
    if task == "click-collapsible":
        _m(r"Expand the section below and click submit\.", u)
        return Goal("expand")
    if task == "enter-text":
        return Goal("type", text=_m(r'Enter "(.+)" into the text field and press Submit\.', u)[1])
    if task == "enter-text-2":
        m = _m(r'Type "(.+)" in all (upper|lower) case letters in the text input and press Submit\.', u)
        return Goal("type", text=m[1].upper() if m[2] == "upper" else m[1].lower())
    if task == "enter-password":
        return Goal("password", secret=_m(r'Enter the password "(.+)" into both text fields and press submit\.', u)[1])
    if task in ("login-user", "login-user-popup"):
        m = _m(r'Enter the username "(.+)" and the password "(.+)" into the text fields and press login\.', u)
        return Goal("login", text=m[1], secret=m[2])
    if task == "choose-list":
        return Goal("choose", _m(r"Select (.+) from the list and click Submit\.", u)[1])
    if task == "click-option":
        return Goal("choose", _m(r"Select (.+) and click Submit\.", u)[1])
    if task.startswith("click-checkboxes"):
        listed = _m(r"Select (.*) and click Submit\.", u)[1]
        return Goal("tick", names=[] if listed == "nothing" else [n.strip() for n in listed.split(",") if n.strip()])
    if task == "social-media":
        m = _m(r'For the user (@\S+), click on the "(.+)" button\.', u)
        return Goal("post", m[1], button=m[2], amount=1)
    if task == "social-media-some":
        m = _m(r'Click the "(.+)" button on (\d+) posts? by (@\S+) and then click Submit\.', u)
        return Goal("post", m[3], button=m[1], amount=int(m[2]))
    if task == "social-media-all":
        m = _m(r'Click the "(.+)" button on all posts by (@\S+) and then click Submit\.', u)
        return Goal("post", m[2], button=m[1])
    if task.startswith("email-inbox"):
        m = re.fullmatch(r'Find the email by (.+?) and reply to them with the text "(.*)"\.', u)
        if m:
            return Goal("email", m[1], button="reply", text=m[2])
        m = re.fullmatch(r"Find the email by (.+?) and forward that email to (.+)\.", u)
        if m:
            return Goal("email", m[1], button="forward", text=m[2])
        m = _m(r"Find the email by (.+?) and click the (trash|star) icon to .*\.", u)
        return Goal("email", m[1], button="delete" if m[2] == "trash" else "star")
    raise UnreadGoal(f"no rules for the task {task!r}")


# The social-media buttons as the task names them, and the class of the page's element for each.
POST_BUTTONS = {"Reply": "reply", "Retweet": "retweet", "Like": "like", "Share": "share", "Share via DM": "share",
                "Copy link to Tweet": "copy", "Embed Tweet": "embed", "Mute": "mute", "Block": "block",
                "Report": "report"}
