// check.mjs: what keeps the bridge's modules honest, read with the TypeScript compiler's parser and
// checker (already the repository's toolchain) and esbuild's bundle. Prints one JSON object, every
// list empty when all is well; tests/test_bridge_build.py runs it.
//
//   node js_bridge/check.mjs [--dir DIR]    DIR: the modules to check (default: js_bridge/ itself)
//
//   long        functions over MAX_LINES lines (as in Python: two ideas, split them)
//   unresolved  names a module uses that are neither its own, nor imported, nor the browser's globals
//   early       values a module reads while it is evaluated from a module esbuild evaluates later. A
//               bundle turns top-level `const` into `var`, so such a read would be a silent `undefined`
//               rather than a ReferenceError; functions called during evaluation are followed
//   unbundled   modules of js_bridge/ the bundle leaves out (a module only run for its effect must be
//               imported for it)
//   table       the dispatch's handlers (entry.js) against operations.json, both ways
//   cycles      modules that import each other, in a circle (each circle once)

import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(import.meta.url)('typescript');
const dirFlag = process.argv.indexOf('--dir');
const DIR = dirFlag > 0 ? resolve(process.argv[dirFlag + 1]) : join(ROOT, 'js_bridge');
const MAX_LINES = 80;
const modules = readdirSync(DIR).filter((f) => f.endsWith('.js')).sort().map((f) => join(DIR, f));
const program = ts.createProgram(modules, {
  allowJs: true, checkJs: true, noEmit: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
  resolveJsonModule: true, target: ts.ScriptTarget.ES2022, lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'], types: [],
});
const checker = program.getTypeChecker();
const name = (file) => relative(DIR, file);
const sourceOf = (file) => program.getSourceFile(file);

function lineOf(sf, pos) { return sf.getLineAndCharacterOfPosition(pos).line + 1; }

function functionName(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  if (ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name)) return node.parent.name.text;
  return '(anonymous)';
}

function longFunctions() {
  const found = [];
  for (const file of modules) {
    const sf = sourceOf(file);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const lines = lineOf(sf, node.end) - lineOf(sf, node.getStart(sf)) + 1;
        if (lines > MAX_LINES) found.push(`${name(file)}:${lineOf(sf, node.getStart(sf))} ${functionName(node)} (${lines} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return found;
}

// 2304: cannot find name; 2552: cannot find name, did you mean; 2582/2593: a test runner's global.
const UNRESOLVED = new Set([2304, 2552, 2582, 2593]);

function unresolvedNames() {
  const found = [];
  for (const d of ts.getPreEmitDiagnostics(program)) {
    if (!d.file || !UNRESOLVED.has(d.code)) continue;
    found.push(`${name(d.file.fileName)}:${lineOf(d.file, d.start)} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
  }
  return found;
}

// ---- what runs while a module is evaluated -------------------------------------------------------

function declarationOf(identifier) {
  let symbol = checker.getSymbolAtLocation(identifier);
  if (ts.isShorthandPropertyAssignment(identifier.parent)) symbol = checker.getShorthandAssignmentValueSymbol(identifier.parent);
  if (symbol && symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
  const decl = symbol && symbol.declarations && symbol.declarations[0];
  return decl && modules.includes(decl.getSourceFile().fileName) ? decl : null;
}

function isTopLevel(decl) {
  if (ts.isFunctionDeclaration(decl) || ts.isClassDeclaration(decl)) return ts.isSourceFile(decl.parent);
  return ts.isVariableDeclaration(decl) && ts.isSourceFile(decl.parent.parent.parent);
}

const isFunctionNode = (node) => ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) || ts.isMethodDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node) ||
  ts.isConstructorDeclaration(node);

function invokedNow(fn) {  // (function () { … })() and (() => …)()
  let node = fn;
  while (ts.isParenthesizedExpression(node.parent)) node = node.parent;
  return ts.isCallExpression(node.parent) && node.parent.expression === node;
}

function calledHere(identifier) {
  const p = identifier.parent;
  return (ts.isCallExpression(p) || ts.isNewExpression(p)) && p.expression === identifier;
}

// The module-level values a module reads while it is evaluated, by module: its top-level code, the
// bodies of functions it calls then (its own or imported), and so on.
function evaluationReads(file) {
  const reads = [];
  const entered = new Set();
  const walk = (node, via) => {
    if ((isFunctionNode(node) && !invokedNow(node)) || ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isIdentifier(node)) {
      const decl = declarationOf(node);
      if (decl && isTopLevel(decl)) {
        const from = decl.getSourceFile().fileName;
        if (from !== file && !ts.isFunctionDeclaration(decl)) reads.push([from, node.text, via]);
        const body = ts.isFunctionDeclaration(decl) ? decl
          : ts.isVariableDeclaration(decl) && decl.initializer && isFunctionNode(decl.initializer) ? decl.initializer : null;
        if (body && calledHere(node) && !entered.has(body)) {
          entered.add(body);
          body.body && ts.forEachChild(body.body, (child) => walk(child, via || node.text));
        }
      }
    }
    ts.forEachChild(node, (child) => walk(child, via));
  };
  ts.forEachChild(sourceOf(file), (child) => walk(child, ''));
  return reads;
}

async function bundled() {
  const built = await esbuild.build({ entryPoints: [join(DIR, 'entry.js')], bundle: true, format: 'iife', target: 'esnext',
                                      write: false, metafile: true, absWorkingDir: dirname(DIR), logLevel: 'silent' });
  const text = built.outputFiles[0].text;
  const order = [];
  const folder = basename(DIR) + '/';
  for (const match of text.matchAll(/^ {2}\/\/ (\S+)$/gm)) if (match[1].startsWith(folder)) order.push(match[1].slice(folder.length));
  return { order, inputs: Object.keys(built.metafile.inputs).map((p) => relative(basename(DIR), p)) };
}

function earlyReads(order) {
  const found = [];
  for (const file of modules) {
    const at = order.indexOf(name(file));
    for (const [from, read, via] of evaluationReads(file)) {
      if (order.indexOf(name(from)) > at) found.push(`${name(file)} reads ${name(from)}'s ${read}${via ? ' (in ' + via + ')' : ''} before it is evaluated`);
    }
  }
  return [...new Set(found)];
}

function tableMismatches() {
  const table = JSON.parse(readFileSync(join(DIR, 'operations.json'), 'utf8')).operations;
  let handlers = null;
  const visit = (node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'handlers' &&
        node.initializer && ts.isObjectLiteralExpression(node.initializer)) {
      handlers = node.initializer.properties.map((p) => p.name.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceOf(join(DIR, 'entry.js')));
  if (!handlers) return ['entry.js has no `const handlers = {…}`'];
  return [...Object.keys(table).filter((op) => !handlers.includes(op)).map((op) => `${op}: in operations.json, no handler in entry.js`),
          ...handlers.filter((op) => !(op in table)).map((op) => `${op}: a handler in entry.js, not in operations.json`)];
}

function importCycles() {
  const graph = new Map();
  for (const file of modules) {
    const deps = [];
    for (const statement of sourceOf(file).statements) {
      if (ts.isImportDeclaration(statement) && statement.moduleSpecifier.text.endsWith('.js')) {
        deps.push(name(resolve(DIR, statement.moduleSpecifier.text)));
      }
    }
    graph.set(name(file), deps);
  }
  // Tarjan's strongly connected components: a component of more than one module is a circle.
  let index = 0;
  const stack = [], indexOf = new Map(), low = new Map(), onStack = new Set(), circles = [];
  const strong = (v) => {
    indexOf.set(v, index); low.set(v, index); index += 1; stack.push(v); onStack.add(v);
    for (const w of graph.get(v) || []) {
      if (!indexOf.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) strong(v);
  return circles;
}

const { order, inputs } = await bundled();
process.stdout.write(JSON.stringify({
  long: longFunctions(),
  unresolved: unresolvedNames(),
  early: earlyReads(order),
  unbundled: modules.map(name).filter((m) => !inputs.includes(m) && !['build.mjs', 'check.mjs'].includes(m)),
  table: tableMismatches(),
  cycles: importCycles(),
}, null, 1) + '\n');
