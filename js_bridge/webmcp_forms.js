// webmcp_forms.js: declarative tools, <form toolname tooldescription>, in both WebMCPs.
// Read from the form's attributes before every bridge call (`syncDeclarativeTools`), in both browsers:
// the form's named fields become params (`toolparamdescription`, else the field's label, describes
// each), run() fills them as a person's typing would (input and change events) and, with
// `toolautosubmit`, submits the form; the submit event then has `agentInvoked` and `respondWith(p)`, whose
// promise becomes the data. Without `toolautosubmit` the form is left filled for a person to check and submit.

import {
  G, MathMin, ReflectApply, SetCtor, StringCtor, create, defineProperty, documentObject, elementGetAttribute,
  elementHasAttribute, elementTagName, eventTargetAddListener, eventTargetDispatch, getterOf, hasOwn, isArray,
  isFiniteNumber, jsonStringify, nodeIsConnected, push, setAdd, setHas, strIndexOf, uncurry,
} from './prelude.js';
import { cut } from './bound.js';
import { findAction } from './declarations.js';
import { declareAction } from './registry.js';
import { WEBMCP_DESCRIPTION_MAX } from './webmcp.js';

const formQuery = uncurry(Document.prototype.querySelectorAll);
const formElements = getterOf(HTMLFormElement.prototype, 'elements');
const formRequestSubmit = uncurry(HTMLFormElement.prototype.requestSubmit);
const formCheckValidity = uncurry(HTMLFormElement.prototype.checkValidity);
const setInputValue = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set);
const setTextAreaValue = uncurry(Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set);
const setSelectValue = uncurry(Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set);
const setChecked = uncurry(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'checked').set);
const getChecked = getterOf(HTMLInputElement.prototype, 'checked');
const inputType = getterOf(HTMLInputElement.prototype, 'type');
const controlName = (el) => { try { return elementGetAttribute(el, 'name'); } catch (e) { return null; } };
const declarativeForms = new G.Map();
const mapGet = uncurry(G.Map.prototype.get);
const mapSet = uncurry(G.Map.prototype.set);
const mapDelete = uncurry(G.Map.prototype.delete);
const mapForEach = uncurry(G.Map.prototype.forEach);
const EventCtorForForms = G.Event;

function fieldsOf(form) {
  const list = [];
  const elements = formElements(form);
  for (let i = 0; i < MathMin(elements.length, 200); i++) {
    const el = elements[i];
    const name = controlName(el);
    if (!name || elementHasAttribute(el, 'disabled')) continue;
    const tag = elementTagName(el);
    const type = tag === 'INPUT' ? inputType(el) : tag === 'SELECT' ? 'select' : tag === 'TEXTAREA' ? 'textarea' : null;
    if (!type || type === 'submit' || type === 'button' || type === 'reset' || type === 'image' || type === 'file' || type === 'hidden') continue;
    push(list, { el, name, type });
  }
  return list;
}

function labelOf(el) {
  const described = elementGetAttribute(el, 'toolparamdescription');
  if (described) return cut(described, 500);
  const labels = el.labels;
  const text = labels && labels.length ? StringCtor(labels[0].textContent || '').trim() : '';
  return text ? cut(text, 500) : null;
}

function schemaOf(form) {
  const properties = create(null);
  const required = [];
  const fields = fieldsOf(form);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    let prop = properties[f.name];
    if (f.type === 'radio') {
      if (!prop) { prop = properties[f.name] = { type: 'string', enum: [] }; }
      push(prop.enum, StringCtor(f.el.value));
    } else if (!prop) {
      if (f.type === 'checkbox') prop = { type: 'boolean' };
      else if (f.type === 'number' || f.type === 'range') {
        prop = { type: 'number' };
        const min = elementGetAttribute(f.el, 'min');
        const max = elementGetAttribute(f.el, 'max');
        if (min !== null && min !== '' && isFiniteNumber(+min)) prop.minimum = +min;
        if (max !== null && max !== '' && isFiniteNumber(+max)) prop.maximum = +max;
      } else if (f.type === 'select') {
        const values = [];
        const options = f.el.options;
        // A required select's empty option is its placeholder ("Select a reason"): never a valid answer.
        const placeholderOut = elementHasAttribute(f.el, 'required');
        for (let j = 0; j < MathMin(options.length, 200); j++) {
          const value = StringCtor(options[j].value);
          if (!(placeholderOut && value === '')) push(values, value);
        }
        prop = f.el.multiple ? { type: 'array', items: { type: 'string', enum: values } } : { type: 'string', enum: values };
      } else {
        prop = { type: 'string' };
        if (f.type === 'email') prop.format = 'email';
        const minLength = elementGetAttribute(f.el, 'minlength');
        const maxLength = elementGetAttribute(f.el, 'maxlength');
        if (minLength && isFiniteNumber(+minLength)) prop.minLength = +minLength;
        if (maxLength && isFiniteNumber(+maxLength)) prop.maxLength = +maxLength;
      }
      properties[f.name] = prop;
    }
    const description = labelOf(f.el);
    if (description && !prop.description) prop.description = description;
    if (elementHasAttribute(f.el, 'required') && strIndexOf('\u0000' + required.join('\u0000') + '\u0000', '\u0000' + f.name + '\u0000') < 0) push(required, f.name);
  }
  const schema = { type: 'object', properties };
  if (required.length) schema.required = required;
  return schema;
}

function fire(el, type) { eventTargetDispatch(el, new EventCtorForForms(type, { bubbles: true })); }

function fillForm(form, args) {
  const fields = fieldsOf(form);
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (!args || !hasOwn(args, f.name)) continue;
    const value = args[f.name];
    if (f.type === 'checkbox') setChecked(f.el, value === true);
    else if (f.type === 'radio') setChecked(f.el, StringCtor(f.el.value) === StringCtor(value));
    else if (f.type === 'select') {
      if (f.el.multiple && isArray(value)) {
        const options = f.el.options;
        for (let j = 0; j < options.length; j++) options[j].selected = strIndexOf('\u0000' + value.join('\u0000') + '\u0000', '\u0000' + options[j].value + '\u0000') >= 0;
      } else setSelectValue(f.el, StringCtor(value));
    } else if (f.type === 'textarea') setTextAreaValue(f.el, StringCtor(value));
    else setInputValue(f.el, StringCtor(value));
    if (f.type !== 'radio' || getChecked(f.el)) { fire(f.el, 'input'); fire(f.el, 'change'); }
  }
}

async function runForm(form, args) {
  if (!nodeIsConnected(form)) throw new TypeError('The form is gone');
  fillForm(form, args);
  if (!elementHasAttribute(form, 'toolautosubmit')) {
    return { submitted: false, note: 'The form is filled; it has no toolautosubmit, so a person checks it and submits it.' };
  }
  if (!formCheckValidity(form)) {
    const fields = fieldsOf(form);
    for (let i = 0; i < fields.length; i++) {
      if (fields[i].el.validationMessage) throw new TypeError(fields[i].name + ': ' + fields[i].el.validationMessage);
    }
    throw new TypeError('The form is not valid');
  }
  let response;
  const marker = (event) => {
    if (event.target !== form) return;
    try {
      defineProperty(event, 'agentInvoked', { value: true, configurable: true });
      defineProperty(event, 'respondWith', { value: (promise) => { response = promise; }, configurable: true });
    } catch (e) { /* the event could not be marked */ }
  };
  eventTargetAddListener(G, 'submit', marker, { capture: true, once: true });
  try {
    formRequestSubmit(form);
  } finally {
    ReflectApply(EventTarget.prototype.removeEventListener, G, ['submit', marker, { capture: true }]);
  }
  if (response !== undefined) return await response;
  return undefined;
}

export function syncDeclarativeTools() {
  if (!documentObject) return;
  const seen = new SetCtor();
  let forms;
  try { forms = formQuery(documentObject, 'form[toolname]'); } catch (e) { return; }
  for (let i = 0; i < MathMin(forms.length, 100); i++) {
    const form = forms[i];
    setAdd(seen, form);
    const name = elementGetAttribute(form, 'toolname');
    const description = elementGetAttribute(form, 'tooldescription');
    const known = mapGet(declarativeForms, form);
    if (!name || !description) { if (known) { known.remove(); mapDelete(declarativeForms, form); } continue; }
    const schema = schemaOf(form);
    const signature = name + '\u0000' + description + '\u0000' + jsonStringify(schema) + (elementHasAttribute(form, 'toolautosubmit') ? '1' : '0');
    if (known && known.signature === signature) continue;
    if (known) known.remove();
    const remove = declareAction({
      id: name,
      description: cut(description, WEBMCP_DESCRIPTION_MAX),
      params: schema,
      risk: 'write',
      run: (args) => runForm(form, args),
    });
    const entry = findAction(name);
    if (entry) { entry.description = cut(description, WEBMCP_DESCRIPTION_MAX); entry.webmcp = true; }
    mapSet(declarativeForms, form, { signature, remove });
  }
  const gone = [];
  mapForEach(declarativeForms, (value, form) => { if (!setHas(seen, form)) push(gone, form); });
  for (let i = 0; i < gone.length; i++) { mapGet(declarativeForms, gone[i]).remove(); mapDelete(declarativeForms, gone[i]); }
}
