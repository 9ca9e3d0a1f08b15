#!/usr/bin/env node
// Builds dist/ from the sources as tsc would emit them (same layout, source maps, and the data files beside
// them), by stripping types with esbuild: under a second where tsc takes ten, and `npm start` and every test
// run build first. The types are checked by `npm run typecheck` (CI's `npm run check`); verbatimModuleSyntax
// in tsconfig.json keeps every file transpilable on its own.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
// what tsconfig.build.json includes
// the client package's sources too: `npm run admin` runs the admin commands of `ota admin` (src/cli)
const entries = ['src', 'generated', 'clients/typescript/src', 'clients/typescript/generated'];

function sources(entry) {
  const full = path.join(root, entry);
  if (entry.endsWith('.ts')) return [full];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((file) => file.isFile() && file.name.endsWith('.ts') && !file.name.endsWith('.d.ts'))
    .map((file) => path.join(file.parentPath, file.name));
}

await build({
  absWorkingDir: root,
  entryPoints: entries.flatMap(sources),
  outdir: path.join(root, 'dist'),
  outbase: root,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  sourcemap: true,
  tsconfig: path.join(root, 'tsconfig.build.json'),
  logLevel: 'warning',
});

// data files the code reads beside itself (the published rule sets, the Matterhorn Protocol's conditions)
for (const file of readdirSync(path.join(root, 'src'), { recursive: true, withFileTypes: true }))
  if (file.isFile() && file.name.endsWith('.tsv')) {
    const from = path.join(file.parentPath, file.name);
    const to = path.join(root, 'dist', path.relative(root, from));
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
