// ==UserScript==
// @name         Datasette
// @description  Datasette 0.65 (pip install datasette): a database's tables, a table's rows with its filter and sort form, one row
// @match        http://127.0.0.1/*
// @match        http://localhost/*
// @run-at       document-end
// ==/UserScript==
//
// Datasette renders every page on the server; its pages are told apart by the class of <body>
// ("db", "table", "row"). Row ids are the table's primary key as Datasette shows it (the rowid when the
// table has none): the database's own identity, the same on every load and in every sort order.
// The @match lines cover apps on this machine (any port); anything that is not Datasette is left alone.

if (!document.querySelector('footer.ft a[href^="https://datasette.io"]')) return;

const text = (el) => (el?.textContent ?? '').replace(/\s+/g, ' ').trim();
const kind = ['db', 'table', 'row'].find((c) => document.body.classList.contains(c));
const tableName = [...document.body.classList].find((c) => c.startsWith('table-'))?.slice(6);
const dbName = [...document.body.classList].find((c) => c.startsWith('db-'))?.slice(3);
const columns = () => Array.from(document.querySelectorAll('table.rows-and-columns thead th[data-column]'))
  .map((th) => ({ name: th.dataset.column, pk: th.dataset.isPk === '1' }));
const cellsOf = (tr) => Array.from(tr.querySelectorAll('td'));
const rows = () => Array.from(document.querySelectorAll('table.rows-and-columns tbody tr'));
const pkOf = (tr) => text(tr.querySelector('td.type-pk'));
const rowFor = (id) => rows().find((tr) => pkOf(tr) === id);

if (kind === 'db') {
  pling.page({ id: 'datasette-db', name: `Database ${dbName}` });
  const links = () => Array.from(document.querySelectorAll('h3 > a[href]')).filter((a) => !a.closest('.hidden-tables'));
  pling.records({ type: 'table', list: links, id: (a) => text(a), label: (a) => text(a) });
  pling.action({ id: 'open', record: 'table', description: 'Open the table', risk: 'read',
                 target: (id) => links().find((a) => text(a) === id) });
}

if (kind === 'table' && tableName) {
  pling.page({ id: 'datasette-table', name: `Table ${tableName} of ${dbName}` });
  pling.region({ id: 'rows', name: `Rows of ${tableName}`, purpose: 'The rows the filters select, one page of them', role: 'table',
                 more: () => (document.querySelector('a[href*="_next="]') ? { count: null, hint: 'next_page' } : null) });
  pling.records({
    type: tableName, region: 'rows',
    list: () => rows().filter(pkOf),
    id: pkOf,
    label: (tr) => {
      const cols = columns();
      const i = cols.findIndex((c) => !c.pk);
      return i >= 0 ? text(cellsOf(tr)[i]) : pkOf(tr);
    },
    fields: (tr) => {
      const cells = cellsOf(tr);
      return Object.fromEntries(columns().map((c, i) => [c.name, text(cells[i])]).filter(([name], i) => !columns()[i].pk));
    },
    element: rowFor,
  });
  pling.state({ key: 'row_count', description: 'How many rows the filters select (Datasette\'s own count)',
                get: () => Number((text(document.querySelector('h3')).match(/^([\d,]+) rows?/) || [0, '0'])[1].replace(/,/g, '')) });
  pling.state({ key: 'filters', description: 'The filters and sort order in the address',
                get: () => Object.fromEntries(new URLSearchParams(location.search)) });

  const form = () => document.querySelector('form.filters');
  const set = (name, value) => {
    const field = form().elements.namedItem(name);
    if (!field) throw new Error(`the form has no ${name} field`);
    if (field.type === 'checkbox') field.checked = Boolean(value); else field.value = value;
  };
  const names = columns().map((c) => c.name);
  pling.action({
    id: 'filter', description: 'Show only the rows where a column matches a value (Datasette\'s filter form; opens the filtered page)',
    region: 'rows', risk: 'read',
    params: { type: 'object', required: ['column', 'value'], properties: {
      column: { enum: names },
      op: { enum: ['exact', 'not', 'contains', 'startswith', 'endswith', 'gt', 'gte', 'lt', 'lte'], default: 'exact' },
      value: { type: 'string', maxLength: 500 } } },
    run: ({ column, op, value }) => { set('_filter_column', column); set('_filter_op', op || 'exact'); set('_filter_value', value); form().requestSubmit(); },
  });
  pling.action({
    id: 'sort', description: 'Sort the rows by a column (opens the sorted page)', region: 'rows', risk: 'read',
    params: { type: 'object', required: ['column'], properties: { column: { enum: names }, descending: { type: 'boolean', default: false } } },
    run: ({ column, descending }) => { set('_sort', column); set('_sort_by_desc', descending); form().requestSubmit(); },
  });
  pling.action({ id: 'open', record: tableName, description: 'Open the row\'s own page', risk: 'read', region: 'rows',
                 target: (id) => rowFor(id)?.querySelector('td.type-pk a') });
  pling.action({ id: 'next_page', description: 'Show the next page of rows', risk: 'read', region: 'rows',
                 available: () => (document.querySelector('a[href*="_next="]') ? true : 'This is the last page'),
                 target: () => document.querySelector('a[href*="_next="]') });
}

if (kind === 'row' && tableName) {
  pling.page({ id: 'datasette-row', name: `A row of ${tableName}` });
  pling.state({ key: 'row', description: 'The row\'s columns and values',
                get: () => Object.fromEntries(columns().map((c, i) => [c.name, text(cellsOf(rows()[0] || document.body)[i])])) });
  pling.action({ id: 'back_to_table', description: `Back to the table ${tableName}`, risk: 'read',
                 target: () => Array.from(document.querySelectorAll('p.crumbs a')).find((a) => text(a) === tableName) });
}
