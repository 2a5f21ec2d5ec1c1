// build.mjs: builds the declaration package and the example pages that use it (`make js`). Every file
// it writes is committed, and tests/test_declare_package.py builds again into a scratch folder and
// compares, so the files the service serves are the ones these sources make.
//
//   node js/build.mjs [--out DIR]    DIR: where the repository's paths are written (default: the repository)
//
// What it writes (paths from the repository):
//   js/dist/esm/*.js, *.d.ts           the package as ES modules, one per source file, with their types
//   js/dist/pling-declare.js           one classic script: `PlingDeclare` (the core and the dev check)
//   js/dist/pling-react.js             `PlingReact`: the core and the hooks; load React first (`React`)
//   js/dist/pling-vue.js               `PlingVue`: the core and the composables; load Vue first (`Vue`)
//   fixtures/pages/declare/*.js        the example pages' scripts, from fixtures/pages/declare/src/

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outFlag = process.argv.indexOf('--out');
const OUT = outFlag > 0 ? resolve(process.argv[outFlag + 1]) : ROOT;
const out = (path) => join(OUT, path);
const version = JSON.parse(readFileSync(join(ROOT, 'js/package.json'), 'utf8')).version;

// Frameworks are the page's own: a classic script finds them as globals of their UMD or global builds.
const GLOBALS = { react: 'React', 'react-dom': 'ReactDOM', 'react-dom/client': 'ReactDOM', vue: 'Vue',
                  'pling-declare': 'PlingDeclare', 'pling-declare/react': 'PlingReact', 'pling-declare/vue': 'PlingVue' };

function globalsPlugin(names) {
  const filter = new RegExp('^(' + names.map((n) => n.replace(/[/-]/g, '\\$&')).join('|') + ')$');
  return {
    name: 'globals',
    setup(build) {
      build.onResolve({ filter }, (args) => ({ path: args.path, namespace: 'global' }));
      build.onLoad({ filter: /.*/, namespace: 'global' }, (args) => ({
        contents: `module.exports = globalThis.${GLOBALS[args.path]};`, loader: 'js' }));
    },
  };
}

// absWorkingDir: the paths esbuild writes in comments are the same wherever the build is started from.
const common = { target: 'es2020', logLevel: 'warning', legalComments: 'none', charset: 'utf8', absWorkingDir: ROOT };
const banner = (what) => ({ js: `// ${what}: pling-declare ${version} (js/ in the Pling browser repository; MIT). Built file: edit js/src and run \`make js\`.` });

const sources = readdirSync(join(ROOT, 'js/src')).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, 'js/src', f));

rmSync(out('js/dist'), { recursive: true, force: true });
mkdirSync(out('js/dist/esm'), { recursive: true });

// The ES modules, one per source file (imports between them stay imports; frameworks stay bare imports).
await esbuild.build({ ...common, entryPoints: sources, outdir: out('js/dist/esm'), format: 'esm', bundle: false,
                      banner: banner('ES module') });

// Their types, from the TypeScript compiler itself.
execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(ROOT, 'js/tsconfig.build.json'),
  '--outDir', out('js/dist/esm')], { stdio: 'inherit' });

// The classic scripts the service serves at /js/.
const scripts = [
  ['js/src/index.ts', 'js/dist/pling-declare.js', 'PlingDeclare', []],
  ['js/src/react.ts', 'js/dist/pling-react.js', 'PlingReact', ['react']],
  ['js/src/vue.ts', 'js/dist/pling-vue.js', 'PlingVue', ['vue']],
];
for (const [entry, file, globalName, frameworks] of scripts) {
  await esbuild.build({ ...common, entryPoints: [join(ROOT, entry)], outfile: out(file), format: 'iife', bundle: true,
                        globalName, plugins: [globalsPlugin(frameworks)], banner: banner(`window.${globalName}`) });
}

// The example pages: their frameworks from fixtures/vendor/ (globals); the React page bundles the
// package's ES modules, the Vue page uses the served /js/pling-vue.js (the global PlingVue).
const examples = [
  ['react.tsx', ['react', 'react-dom', 'react-dom/client']],
  ['vue.ts', ['vue', 'pling-declare/vue']],
];
for (const [source, external] of examples) {
  await esbuild.build({ ...common, entryPoints: [join(ROOT, 'fixtures/pages/declare/src', source)],
                        outfile: out('fixtures/pages/declare/' + source.replace(/\.tsx?$/, '.js')), format: 'iife', bundle: true,
                        jsx: 'transform', plugins: [globalsPlugin(external)],
                        banner: { js: `// Built from fixtures/pages/declare/src/${source} by js/build.mjs (make js).` } });
}
