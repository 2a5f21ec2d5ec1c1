// What `pling-browser draft` reads in a page, run once in it (prelude.js's P is defined just above).
// It marks each element it reports with data-pling-survey=N so the controller can join them with the
// accessibility tree (core/accessibility.py), then answers plain data; `unmark` takes the marks off.
// Nothing here writes to the page but those marks.
(limits) => {
  const MARK = 'data-pling-survey';
  const marks = new Map();
  const mark = (el) => {
    if (!marks.has(el)) { marks.set(el, marks.size + 1); el.setAttribute(MARK, String(marks.size)); }
    return marks.get(el);
  };
  const cut = (s, n) => P.text(s).slice(0, n || 200);
  const GENERATED = /(\d{4,}|^(ember|ext-|yui_|gwt-|mui-|radix-|headlessui-|react-select-|downshift-|:r)|^[0-9a-f]{8}-)/i;
  const stableId = (id) => !!id && /^[A-Za-z][\w.:-]{0,80}$/.test(id) && !GENERATED.test(id);
  const only = (css) => { try { return document.querySelectorAll(css).length === 1; } catch (e) { return false; } };
  const esc = (v) => CSS.escape(v);
  const quoted = (v) => '"' + String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"') + '"';
  const STABLE_ATTRS = ['name', 'data-testid', 'data-test', 'data-cy', 'data-qa'];
  // A locator the draft can write down: a stable id or attribute, else role + name (unique now), else
  // role + name inside the nearest container with a stable id, else the element's place (a guess).
  const place = (el) => {
    const parts = [];
    for (let node = el; node && node !== document.body && node.parentElement; node = node.parentElement) {
      if (node !== el && stableId(node.id) && only('#' + esc(node.id))) { parts.unshift('#' + esc(node.id)); break; }
      const tag = node.tagName.toLowerCase();
      const same = Array.from(node.parentElement.children).filter((c) => c.tagName === node.tagName);
      parts.unshift(same.length > 1 ? tag + ':nth-of-type(' + (same.indexOf(node) + 1) + ')' : tag);
    }
    if (!parts.length || !parts[0].startsWith('#')) parts.unshift('body');
    return parts.join(' > ');
  };
  const locate = (el) => {
    const tag = el.tagName.toLowerCase();
    if (stableId(el.id) && only('#' + esc(el.id))) return { css: '#' + esc(el.id), how: 'its id attribute' };
    for (const attr of STABLE_ATTRS) {
      const value = el.getAttribute(attr);
      const css = tag + '[' + attr + '=' + quoted(value) + ']';
      if (value && value.length <= 80 && !GENERATED.test(value) && only(css)) return { css, how: 'its ' + attr + ' attribute' };
    }
    const role = P.roleOf(el);
    const name = P.nameOf(el);
    if (role && name && P.matches({ role, name }).length === 1) return { role, name, how: 'its role and name' };
    const near = !name && role && el.matches('input, select, textarea') ? P.beside(el) : '';
    if (near && P.matches({ role, beside: near }).length === 1) return { role, beside: near, how: 'its role and the text beside it' };
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (stableId(up.id) && only('#' + esc(up.id))) {
        const within = { css: '#' + esc(up.id) };
        if (role && name && P.matches({ role, name, within }).length === 1) return { role, name, within, how: 'its role and name inside #' + up.id };
        break;
      }
    }
    return { css: place(el), how: 'its place in the page', guess: true };
  };
  const attrsOf = (el) => {
    const out = {};
    for (const a of el.getAttributeNames()) {
      if (a === 'class' || a === 'style' || a === MARK || a.startsWith('data-pling') || a.startsWith('on')) continue;
      if (a === 'id' || a === 'name' || a === 'href' || a === 'value' || a === 'for' || a === 'title' || a.startsWith('data-') || a.startsWith('aria-'))
        out[a] = String(el.getAttribute(a)).slice(0, 200);
    }
    return out;
  };
  // A tab panel or an accordion section that is closed now is still what a person gets by opening it:
  // its content is read as if shown (the records list only what is shown when the model is read).
  // A submenu (a menu inside a menu) is closed until its item is pointed at: read as shown too.
  const subMenuOf = (el) => { const menu = el.closest('[role=menu]'); return menu && menu.parentElement && menu.parentElement.closest('[role=menu]') ? menu : null; };
  const panelOf = (el) => el.closest('[role=tabpanel], [role=region][aria-labelledby]') || subMenuOf(el);
  const inPanel = (el) => !!panelOf(el) && (panelOf(el) === el || getComputedStyle(el).display !== 'none') && !el.closest('[hidden]');
  const shown = (el) => P.visible(el) || inPanel(el);
  const skipped = (el) => {
    if (el.closest('script, style, template, noscript, head')) return true;
    const hidden = el.closest('[aria-hidden="true"]');
    return !!hidden && !(panelOf(el) && hidden.matches('[role=tabpanel], [role=region], [role=menu]'));
  };

  // ---- controls -------------------------------------------------------------------------------------
  const CONTROL_CSS = 'input:not([type=hidden]), select, textarea, button, a[href], summary, [contenteditable=""], ' +
    '[contenteditable=true], [role=button], [role=link], [role=checkbox], [role=radio], [role=switch], [role=combobox], ' +
    '[role=slider], [role=spinbutton], [role=tab], [role=treeitem], [role=menuitem], [role=menuitemcheckbox], ' +
    '[role=menuitemradio], [role=option], [role=textbox], [role=searchbox], [onclick]';
  const WIDGET_WORD = /(^|[-_])slider([-_]|$)/i;
  const DRAG_WORD = /(^|[-_])(sortable|draggable)([-_]|$)/i;
  const controls = [];
  const isControl = new Set();
  // A form's submit buttons (Save, Save and add another…): each is a way to submit that form, not a list.
  const submitter = (b) => !!b.form && (b.tagName === 'INPUT' ? /^(submit|image)$/.test(b.type) : b.tagName === 'BUTTON' && (!b.getAttribute('type') || b.type === 'submit'));
  // Whether a button sits beside a field (in its own container): a field with none beside it and no
  // form is committed by Enter.
  const buttonBeside = (el) => !!el.parentElement && Array.from(el.parentElement.querySelectorAll(CONTROL_CSS))
    .some((c) => c !== el && P.roleOf(c) === 'button');
  const consider = (el, clickable, guess) => {
    if (isControl.has(el) || skipped(el)) return;
    const own = clickable ? cut(el.innerText || el.textContent, 120) : '';
    if (el.parentElement && el.parentElement.closest('button, a[href], [role=button], [role=link], select, [role=option], [role=tab], [role=menuitem], [role=treeitem]') && !clickable) return;
    if (el.isContentEditable && el.parentElement && el.parentElement.isContentEditable) return;
    const seen = shown(el) || !!(guess && guess.css);   // an icon whose picture has not loaded yet
    const name = P.nameOf(el) || own;
    if (!seen && !name) return;
    isControl.add(el);
    const tag = el.tagName.toLowerCase();
    const control = {
      n: mark(el), tag, type: tag === 'input' ? (el.getAttribute('type') || 'text').toLowerCase() : '',
      role: guess ? guess.role : P.roleOf(el), name, visible: seen, clickable: !!clickable, guessed: guess ? guess.why : '',
      words: guess ? guess.words : '', css: guess && guess.css ? guess.css : '',
      disabled: !!(el.disabled || el.getAttribute('aria-disabled') === 'true'), readonly: !!el.readOnly,
      required: !!(el.required || el.getAttribute('aria-required') === 'true'), multiple: !!el.multiple,
      editable: !!el.isContentEditable, attrs: attrsOf(el), loc: locate(el),
      options: tag === 'select' ? Array.from(el.options).slice(0, limits.options).map((o) => ({ label: cut(o.textContent, 80), value: o.value })) : [],
      min: el.getAttribute('min') || el.getAttribute('aria-valuemin') || '', max: el.getAttribute('max') || el.getAttribute('aria-valuemax') || '',
      step: el.getAttribute('step') || '', pattern: el.getAttribute('pattern') || '', maxlength: el.maxLength > 0 ? el.maxLength : 0,
      placeholder: cut(el.getAttribute('placeholder'), 80), value: cut(P.valueOf(el), 200), states: P.states(el),
      form: el.form && P.visible(el.form) ? mark(el.form) : null, href: tag === 'a' ? el.href : '',
      autocomplete: el.getAttribute('aria-autocomplete') || (el.getAttribute('list') ? 'list' : ''),
      beside: !name && el.matches('input, select, textarea') || clickable ? P.beside(el) : '',
      alone: !el.form && !buttonBeside(el),
    };
    controls.push(control);
  };
  for (const el of document.querySelectorAll(CONTROL_CSS)) consider(el, false);
  // Elements a person would click because the pointer says so (a handler the accessibility tree does not
  // show): the outermost such element that holds no control, and has text or a size of its own.
  const area = document.body ? document.body.querySelectorAll('*') : [];
  const icons = new Set();
  let looked = 0;
  for (const el of area) {
    if (++looked > limits.elements) break;
    if (isControl.has(el) || skipped(el) || el.closest('a[href], button, select, label')) continue;
    const style = getComputedStyle(el);
    // An icon (a picture with no text, no children and a class: a row's trash can) inside something clickable
    // is a control of its own, named by its class: a guess the draft says. Its picture may not have loaded
    // yet (no size): it counts when it is not hidden.
    const named = Array.from(el.classList).filter((c) => /^[A-Za-z_][\w-]*$/.test(c) && !/^(ui-|is-|has-)/.test(c));
    const icon = !el.children.length && !P.text(el.textContent) && named.length > 0
      && (el.tagName === 'IMG' || /^url\(/.test(style.content) || style.backgroundImage !== 'none');
    const unloaded = icon && style.display !== 'none' && style.visibility !== 'hidden' && !!el.parentElement && shown(el.parentElement);
    if (style.cursor !== 'pointer' || !(shown(el) || unloaded)) continue;
    if (el.parentElement && getComputedStyle(el.parentElement).cursor === 'pointer' && !icon) continue;
    if (el.querySelector(CONTROL_CSS)) continue;
    if (icon) icons.add(el);
    consider(el, true, icon ? { role: '', why: 'its class “' + named[0] + '” (a picture with no name)', words: named[0],
                                css: el.tagName.toLowerCase() + '.' + esc(named[0]) } : undefined);
  }
  // Elements a person reaches with Tab that the accessibility tree gives no role, whose class or id (or
  // their container's) says the widget they are (jQuery UI's slider handle: <span class="ui-slider-handle"
  // tabindex="0"> in <div id="slider">): a slider, guessed from that word, named by the container's id.
  for (const el of document.querySelectorAll('[tabindex]')) {
    if (isControl.has(el) || el.tabIndex < 0 || el.getAttribute('role') || el.matches(CONTROL_CSS) || P.text(el.textContent) || !shown(el)) continue;
    const up = el.parentElement;
    const said = [el, up].filter(Boolean).flatMap((e) => [e.id, ...e.classList]).find((w) => WIDGET_WORD.test(w || ''));
    if (!said) continue;
    const named = [el, up].find((e) => e && stableId(e.id));
    consider(el, false, { role: 'slider', why: 'the word “' + said + '” in its class or id, or its container’s', words: named ? named.id : 'slider' });
  }

  // ---- forms ----------------------------------------------------------------------------------------
  const forms = [];
  for (const form of document.forms) {
    if (!P.visible(form) || skipped(form)) continue;
    const submits = Array.from(form.querySelectorAll('button, input[type=submit], input[type=image]')).filter(submitter).filter(P.visible);
    forms.push({ n: mark(form), loc: locate(form), name: P.nameOf(form), submit: submits.length ? mark(submits[0]) : null,
                 submits: submits.slice(0, 6).map(mark),
                 method: (form.getAttribute('method') || 'get').toLowerCase(),
                 // form.action is the field named "action" when there is one (Django's changelist): read the attribute.
                 action: new URL(form.getAttribute('action') || '', location.href).href });
  }

  // ---- repeated structures ----------------------------------------------------------------------------
  const STATE_CLASS = /(^|-)(active|selected|hover|focus|focused|open|opened|closed|current|disabled|checked|expanded|collapsed|highlight|highlighted|visible|hidden|even|odd|first|last)$|^ui-state-|^is-|^has-/;
  const classes = (el) => Array.from(el.classList).filter((c) => !STATE_CLASS.test(c) && /^[A-Za-z_][\w-]*$/.test(c));
  const signature = (el) => el.tagName + '|' + (el.getAttribute('role') || '');
  const shape = (el) => Array.from(el.children).map((c) => c.tagName).join(',');
  const ITEM_ROLES = /^(listitem|treeitem|tab|menuitem|menuitemcheckbox|menuitemradio|option|row|radio|checkbox|button|link|switch|article|gridcell)$/;
  const meaningful = (el) => P.text(el.textContent) !== '' || isControl.has(el) || el.querySelector(CONTROL_CSS) !== null;
  const labelledField = (el) => {
    const field = isControl.has(el) ? el : (el.querySelectorAll(CONTROL_CSS).length === 1 ? el.querySelector(CONTROL_CSS) : null);
    if (!field) return false;
    const role = P.roleOf(field);
    return /^(textbox|searchbox|spinbutton|combobox|slider|listbox)$/.test(role) && P.nameOf(field) !== '';
  };
  const groups = [];
  const grouped = new Set();
  const containers = document.body ? [document.body, ...document.body.querySelectorAll('*')] : [];
  for (const parent of containers) {
    if (skipped(parent) || !shown(parent) || parent.tagName === 'SELECT' || parent.tagName === 'TR' || parent.tagName === 'THEAD') continue;
    const buckets = new Map();
    for (const child of parent.children) {
      if (submitter(child)) continue;
      if (!shown(child) || !meaningful(child) || /^(TD|TH|BR|OPTION|SCRIPT|STYLE|LABEL)$/.test(child.tagName) && !child.querySelector('input[type=checkbox], input[type=radio]')) continue;
      const key = signature(child);
      if (!buckets.has(key)) buckets.set(key, []);
      buckets.get(key).push(child);
    }
    for (const [key, members] of buckets) {
      let list = members;
      // One item is a list too when it carries the app's id (<li data-order-id=…>): more will come.
      const keyed = list.length === 1 && /^(LI|TR)$/.test(list[0].tagName) && list[0].getAttributeNames().some((a) => a.startsWith('data-') && !a.startsWith('data-pling'));
      if (list.length < 2 && !keyed) continue;
      const role = P.roleOf(list[0]);
      // Boxes of one tag but different kinds (a header beside cards) split by class; list items stay a
      // list whatever their classes (a tree's items carry open/closed classes of their own).
      const sharedAll = classes(list[0]).filter((c) => list.every((el) => el.classList.contains(c)));
      if (!sharedAll.length && list.some((el) => classes(el).length) && !/^(LI|TR|OPTION)$/.test(list[0].tagName) && !ITEM_ROLES.test(role)) {
        const byClass = new Map();
        list.forEach((el) => { const k = classes(el).sort().join('.'); byClass.set(k, (byClass.get(k) || []).concat([el])); });
        list = Array.from(byClass.values()).sort((a, b) => b.length - a.length)[0];
        if (list.length < 2) continue;
      }
      if (list.length < 2 && !keyed) continue;
      if (!ITEM_ROLES.test(role) && !/^(LI|TR|LABEL|BUTTON|A)$/.test(list[0].tagName)) {
        // Generic boxes repeat a structure: keep the ones of the commonest inner shape.
        const counts = new Map();
        list.forEach((el) => counts.set(shape(el), (counts.get(shape(el)) || 0) + 1));
        const common = Array.from(counts.entries()).sort((a, b) => b[1] - a[1])[0][0];
        list = list.filter((el) => shape(el) === common);
        if (list.length < 2) continue;
      }
      if (list.every(labelledField)) continue;   // labelled form fields are actions of their own
      if (list.some((el) => grouped.has(el))) continue;
      const tag = list[0].tagName.toLowerCase();
      const shared = classes(list[0]).filter((c) => list.every((el) => el.classList.contains(c)));
      const css = tag + shared.map((c) => '.' + esc(c)).join('') + (list[0].getAttribute('role') ? '[role=' + quoted(list[0].getAttribute('role')) + ']' : '');
      list.forEach((el) => grouped.add(el));
      groups.push({ parent, key, css, items: list });
    }
  }
  // Nested repeats of one structure (a tree's items, a menu's submenus) are one record type: a group
  // whose container sits inside an item of another group with the same signature joins that group.
  const merged = [];
  for (const group of groups) {
    const outer = merged.find((o) => o.key === group.key && o.items.some((item) => item.contains(group.parent)));
    if (outer) { outer.items.push(...group.items); outer.nested = true; continue; }
    merged.push(group);
  }
  // One structure repeated in parallel containers (the links of each tab panel, the rows of each
  // section) is one record type too: its container is their common ancestor, its items found below it.
  const common = (a, b) => { let up = a; while (up && !up.contains(b)) up = up.parentElement; return up; };
  const joined = [];
  for (const group of merged) {
    const alike = (a, b) => a.tagName === b.tagName && classes(a).sort().join('.') === classes(b).sort().join('.');
    const twin = joined.find((o) => o.css === group.css && alike(o.parent, group.parent)
      && !o.items.some((i) => i.contains(group.parent) || group.parent.contains(i)));
    if (twin && !group.items[0].matches('tr')) {
      twin.items.push(...group.items);
      twin.parent = common(twin.parent, group.parent) || twin.parent;
      twin.spread = true;
      continue;
    }
    joined.push(group);
  }
  // A structure that goes on outside its container (links scattered over several paragraphs) is
  // widened to the nearest ancestor, a few levels up, below which more of it is found.
  for (const group of joined) {
    if (group.nested || group.items[0].matches('tr, li, option')) continue;
    let best = null;
    for (let up = group.parent.parentElement, level = 0; up && up !== document.body && level < 4; up = up.parentElement, level++) {
      const found = Array.from(up.querySelectorAll(group.css)).filter((el) => shown(el) && signature(el) === group.key);
      // Items never hold one another: boxes that wrap other boxes (a page's sections around the list) are
      // the page's layout, not more of the structure.
      if (found.some((el) => found.some((other) => other !== el && el.contains(other)))) break;
      // …and sit in boxes like the first one's (paragraphs of one text), not anywhere the tag occurs.
      const like = (box) => box.tagName === group.parent.tagName && classes(box).sort().join('.') === classes(group.parent).sort().join('.');
      if (!found.every((el) => like(el.parentElement))) break;
      if (found.length > (best ? best.items.length : group.items.length)) best = { parent: up, items: found };
    }
    if (best) { group.parent = best.parent; group.items = best.items; group.spread = true; }
  }
  const boxes = (inner) => inner.filter((c) => c.matches('input[type=checkbox], input[type=radio]'));
  const out = [];
  for (const group of joined.slice(0, limits.groups)) {
    const table = group.items[0].tagName === 'TR' ? group.parent.closest('table') : null;
    const container = table || group.parent;
    const headers = table ? Array.from(table.querySelectorAll(table.tHead ? 'thead th, thead td' : 'tr:first-child > th')).map((h) => cut(h.textContent, 60)) : [];
    // A header row is all <th> (or in <thead>); a row may start with a <th> that names it (Django's changelist).
    const header = (el) => !!el.closest('thead') || Array.from(el.children).every((c) => c.tagName === 'TH');
    const items = group.items.filter((el) => !table || !header(el)).slice(0, limits.items).map((el) => {
      // A nested item's controls are its own, not its parent item's (a submenu's items).
      const inner = Array.from(el.querySelectorAll(CONTROL_CSS + ', [' + MARK + ']')).filter((c) => isControl.has(c) && c !== el
        && (c.matches(CONTROL_CSS) || icons.has(c))
        && (!group.nested || c.closest(group.css) === el));
      return { n: mark(el), name: P.nameOf(el), text: cut(el.innerText !== undefined ? el.innerText : el.textContent, 200),
               attrs: attrsOf(el), role: P.roleOf(el), control: isControl.has(el) ? mark(el) : null,
               cells: table ? Array.from(el.children).map((c) => cut(c.textContent, 120)) : [],
               inner: inner.map((c) => mark(c)), states: P.states(el),
               // The attributes of its one control, or of its one checkbox (a row's selection box carries the row's key).
               inner_attrs: inner.length === 1 ? attrsOf(inner[0]) : boxes(inner).length === 1 ? attrsOf(boxes(inner)[0]) : {} };
    });
    if (items.length < 2 && !(items.length === 1 && Object.keys(items[0].attrs).some((a) => a.startsWith('data-')))) continue;
    // Items a person drags to reorder (draggable="true", or the word sortable or draggable in the list's or
    // every item's class or id: jQuery UI's ul.ui-sortable > li.ui-sortable-handle): a guess the draft says.
    const dragSaid = (el) => (el.getAttribute('draggable') === 'true' ? 'draggable="true"' : '') || [el.id, ...el.classList].find((w) => DRAG_WORD.test(w || '')) || '';
    out.push({ n: mark(container), loc: locate(container), name: P.nameOf(container) || cut(container.getAttribute('aria-label'), 80),
               caption: table && table.caption ? cut(table.caption.textContent, 80) : '', heading: headingOf(container),
               role: P.roleOf(container), tag: container.tagName.toLowerCase(), table: !!table, nested: !!group.nested, spread: !!group.spread,
               css: table ? ':scope > tbody > tr, :scope > tr' : (group.nested || group.spread ? group.css : ':scope > ' + group.css),
               item_css: group.css, headers, items, drags: dragSaid(container) || (group.items.every(dragSaid) ? dragSaid(group.items[0]) : '') });
  }
  function headingOf(el) {
    for (let node = el; node && node !== document.body; node = node.parentElement) {
      for (let prev = node.previousElementSibling; prev; prev = prev.previousElementSibling) {
        if (/^H[1-6]$/.test(prev.tagName)) return cut(prev.textContent, 80);
        const inner = prev.querySelector && prev.querySelector('h1,h2,h3,h4,h5,h6');
        if (inner) return cut(inner.textContent, 80);
      }
    }
    return '';
  }

  // ---- text a person reads: headings, instructions, live regions, dialogs -------------------------------
  const firstControl = controls.find((c) => c.visible);
  const firstEl = firstControl ? document.querySelector('[' + MARK + '="' + firstControl.n + '"]') : null;
  const texts = [];
  const seenBlocks = new Set();
  // A block whose every word is in a list's items (a list of tags) is the list, not a text; one with words of
  // its own around some items (an instruction with its values in bold) stays a text.
  // (only lists that become records: items with controls or keyed by an attribute of the app's, data-*)
  const recordLike = (g) => g.items.some((it) => it.inner.length || it.control !== null || Object.keys(it.attrs).some((a) => a.startsWith('data-')));
  const itemEls = out.filter(recordLike).flatMap((g) => g.items.map((it) => document.querySelector('[' + MARK + '="' + it.n + '"]')));
  const holdsItem = (el) => {
    if (!itemEls.some((it) => el.contains(it))) return false;
    const words = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let t = words.nextNode(); t; t = words.nextNode()) if (P.text(t.nodeValue) && !itemEls.some((it) => it.contains(t))) return false;
    return true;
  };
  const inItem = (el) => out.some((g) => g.items.some((it) => document.querySelector('[' + MARK + '="' + it.n + '"]').contains(el)));
  const ownBox = (el, outer) => {
    let box = null;
    for (let up = el; up && up !== outer && !up.querySelector(CONTROL_CSS) && !up.matches(CONTROL_CSS); up = up.parentElement) box = up;
    return box;
  };
  // A text block with no stable attribute of its own but the only one of its tag under an element that has
  // one (`#area > p`): that path names no position, so it is not a guess.
  const locateText = (el) => {
    const loc = locate(el);
    if (!loc.guess) return loc;
    const css = place(el);
    return css.startsWith('#') && !css.includes(':nth-of-type') && only(css) ? { css, how: 'its path under the id attribute ' + css.split(' ')[0] } : loc;
  };
  const withId = (el, outer) => {
    for (let up = el; up && up !== outer; up = up.parentElement) if (stableId(up.id) && only('#' + esc(up.id))) return up;
    return null;
  };
  // A message shown in a box that keeps its other messages hidden ("Waiting for your guess…" beside a hidden
  // "Correct!" and "The number is lower than …", shown one at a time): the box, found by its own id, is the
  // text, so what it reads is whichever message is shown.
  const messageBox = (el) => {
    const box = el.parentElement;
    if (!box || box === document.body || box.querySelector(CONTROL_CSS) || !stableId(box.id) || !only('#' + esc(box.id))) return null;
    const others = Array.from(box.children).filter((c) => c !== el);
    return others.length && others.every((c) => !c.matches(CONTROL_CSS) && !c.querySelector(CONTROL_CSS + ', div, p, ul, ol, table, section, form')) && others.some((c) => !P.visible(c) && P.text(c.textContent)) ? box : null;
  };
  const walker = document.body ? document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT) : null;
  for (let node = walker && walker.nextNode(); node && texts.length < limits.texts; node = walker.nextNode()) {
    if (!P.text(node.nodeValue)) continue;
    let block = node.parentElement;
    while (block && block !== document.body && getComputedStyle(block).display.startsWith('inline')) block = block.parentElement;
    // A text in a box that also holds a control ("3 + 4 =" in an inline-block beside its field): the
    // largest element around the text that holds no control is the block.
    if (block && block !== document.body && block.querySelector(CONTROL_CSS)) block = ownBox(node.parentElement, block);
    // A block found only by its place, around an element of the text's with an id of its own (an inline-block
    // #val beside a slider, in a box of no id): that element is the text, found by its id.
    if (block && block !== document.body && locateText(block).guess) block = withId(node.parentElement, block) || block;
    if (block && block !== document.body) block = messageBox(block) || block;
    if (!block || block === document.body || seenBlocks.has(block) || skipped(block) || !P.visible(block)) continue;
    seenBlocks.add(block);
    if (block.closest('label, button, a, select, option, textarea, [role=button], [role=option], [role=tab], [role=menuitem], [role=treeitem], [role=status], [role=alert], [role=log], [aria-live], output, table')) continue;
    if (block.querySelector(CONTROL_CSS) || inItem(block) || holdsItem(block)) continue;
    const heading = /^H[1-6]$/.test(block.tagName) || block.getAttribute('role') === 'heading';
    const before = firstEl ? !!(block.compareDocumentPosition(firstEl) & Node.DOCUMENT_POSITION_FOLLOWING) : true;
    texts.push({ n: mark(block), loc: locateText(block), text: cut(block.innerText, 300), heading, level: heading ? Number(block.tagName[1] || block.getAttribute('aria-level') || 2) : 0, before });
  }
  const live = [];
  for (const el of document.querySelectorAll('[role=status], [role=alert], [role=log], [aria-live]:not([aria-live=off]), output')) {
    if (skipped(el) || live.length >= 10) continue;
    live.push({ n: mark(el), loc: locate(el), role: el.getAttribute('role') || (el.tagName === 'OUTPUT' ? 'status' : 'live'), text: cut(el.innerText, 200) });
  }
  const dialogs = [];
  for (const el of document.querySelectorAll('dialog, [role=dialog], [role=alertdialog]')) {
    if (skipped(el) || dialogs.length >= 10) continue;
    dialogs.push({ n: mark(el), loc: locate(el), name: P.nameOf(el) || cut(el.querySelector('h1,h2,h3,.ui-dialog-title') && el.querySelector('h1,h2,h3,.ui-dialog-title').textContent, 80), visible: P.visible(el) });
  }
  const regionOf = (n) => {
    const el = document.querySelector('[' + MARK + '="' + n + '"]');
    const dialog = el && el.closest('dialog, [role=dialog], [role=alertdialog]');
    return dialog ? mark(dialog) : null;
  };
  controls.forEach((c) => { c.dialog = regionOf(c.n); });
  out.forEach((g) => { g.dialog = regionOf(g.n); });
  return { url: location.href, title: cut(document.title, 120), controls: controls.slice(0, limits.controls),
           forms, groups: out, texts, live, dialogs, counted: { controls: controls.length, groups: merged.length } };
}
