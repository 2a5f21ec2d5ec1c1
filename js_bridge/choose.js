// choose.js: the direct path of a select (issue 31). Playwright's select_option checks what reveal has
// just checked (the select visible and enabled, in this document), then sets the option in the page
// and dispatches `input` and `change` itself (untrusted events: a select's choice has no trusted input
// of its own there). `choose` does the same in one call on the select reveal marked: the first option
// whose value, else whose label (spaces normalized), is the value asked, as Playwright matches it; an
// option that is not there or not enabled, a multiple select, or anything but a <select> answers
// `why`, and Playwright's path runs (it waits for the option to appear).

import {
  G, ReflectApply, answerOf, elementMatches, elementTagName, eventTargetDispatch, getOwnDescriptor, getterOf,
  strToLowerCase, uncurry,
} from './prelude.js';
import { errorText } from './bound.js';
import { frameAfterAction } from './observe.js';
import { inFlight, releaseTarget } from './reveal.js';

const selectOptions = getterOf(HTMLSelectElement.prototype, 'options');
const selectMultiple = getterOf(HTMLSelectElement.prototype, 'multiple');
const optionValue = getterOf(HTMLOptionElement.prototype, 'value');
const optionLabel = getterOf(HTMLOptionElement.prototype, 'label');
const optionSelectedSetter = getOwnDescriptor(HTMLOptionElement.prototype, 'selected').set;
const selectValueSetter = getOwnDescriptor(HTMLSelectElement.prototype, 'value').set;
const EventCtor = G.Event;
const strReplace = uncurry(String.prototype.replace);
const strTrim = uncurry(String.prototype.trim);
const SPACES = /\s+/g;

function normalized(text) {
  return strTrim(strReplace(text, SPACES, ' '));
}

function matching(options, value) {
  const label = normalized(value);
  for (let i = 0; i < options.length; i++) if (optionValue(options[i]) === value) return options[i];
  for (let i = 0; i < options.length; i++) {
    const own = optionLabel(options[i]);
    if (own === value || normalized(own) === label) return options[i];
  }
  return null;
}

export function chooseOption(arg) {
  const el = inFlight.target;
  if (!el) return answerOf({ ok: true, chosen: false, why: 'the target is gone' });
  try {
    if (strToLowerCase(elementTagName(el)) !== 'select') return answerOf({ ok: true, chosen: false, why: 'the target is not a <select>' });
    if (selectMultiple(el)) return answerOf({ ok: true, chosen: false, why: 'a multiple select is chosen in by Playwright' });
    const option = typeof arg.value === 'string' ? matching(selectOptions(el), arg.value) : null;
    if (!option) return answerOf({ ok: true, chosen: false, why: 'no option has that value or label now' });
    if (elementMatches(option, ':disabled')) return answerOf({ ok: true, chosen: false, why: 'that option is disabled' });
    ReflectApply(selectValueSetter, el, [undefined]);
    ReflectApply(optionSelectedSetter, option, [true]);
    eventTargetDispatch(el, new EventCtor('input', { bubbles: true, composed: true }));
    eventTargetDispatch(el, new EventCtor('change', { bubbles: true }));
  } catch (e) {
    return answerOf({ ok: true, chosen: false, why: 'it could not be set: ' + errorText(e) });
  }
  frameAfterAction();  // observe.js: the frame that renders its effect
  releaseTarget();
  return answerOf({ ok: true, chosen: true });
}
