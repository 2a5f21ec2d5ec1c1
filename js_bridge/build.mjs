// build.mjs: bundles the bridge's ES modules (entry.js and what it imports) into the one script the
// controller adds to every document and the service serves at /pling.js: js_bridge/dist/pling.js,
// committed, and compared with a fresh build by tests/test_bridge_build.py (`make js` writes it).
//
//   node js_bridge/build.mjs [--out DIR]    DIR: where js_bridge/dist/pling.js is written (default: the repository)
//
// The bundle is an IIFE inside a guard of our own: a second copy in the same document (an init script
// and a page's <script src="/pling.js">) finds `__plingBridge` and returns before any module runs, so
// nothing is wrapped twice. No syntax is lowered (`esnext`): what runs is what the modules say, and the
// bridge avoids syntax that consults patchable protocols (docs/bridge.md), which a transform could add.

import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : ROOT;
const outfile = join(OUT, 'js_bridge/dist/pling.js');

const banner = [
  "// Pling bridge: defines window.pling (see SPEC, 'The page side'). Loading it twice is harmless.",
  '// Built file: edit the modules of js_bridge/ and run `make js` (js_bridge/build.mjs).',
  '(function () {',
  "'use strict';",
  "if (Object.getOwnPropertyDescriptor(globalThis, '__plingBridge')) return;",
].join('\n');

mkdirSync(dirname(outfile), { recursive: true });
await esbuild.build({
  entryPoints: [join(ROOT, 'js_bridge/entry.js')],
  outfile,
  bundle: true,
  format: 'iife',
  target: 'esnext',
  charset: 'utf8',
  legalComments: 'none',
  logLevel: 'warning',
  absWorkingDir: ROOT, // the paths esbuild writes in comments are the same wherever the build starts
  banner: { js: banner },
  footer: { js: '})();' },
});
