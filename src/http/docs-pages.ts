import { createReadStream, existsSync } from 'node:fs';
import path from 'node:path';
import Router from '@koa/router';
import type { Context } from 'koa';
import { PROJECT_ROOT } from '../contract/paths.js';
import type { ApiVersion, VersionChange } from '../versions/change.js';
import { type ReleasedVersion, SUPPORTED_VERSIONS } from '../versions/registry.js';

/**
 * The docs beside each listener's reference (`/docs`) that the public listener serves: the changelog
 * (`/docs/changelog`) and the reference of every supported version (`/docs/v/<version>`), both written by
 * scripts/build-docs.mjs from the version registry. The page is rendered here so that the build and its
 * test share one renderer.
 */
const DOCS_DIR = path.join(PROJECT_ROOT, 'dist', 'docs');

/** Where the changelog is written (scripts/build-docs.mjs) and served from. */
export const changelogPath = (dir = DOCS_DIR): string => path.join(dir, 'changelog.html');

/** Where a version's reference is written (scripts/build-docs.mjs) and served from. */
export const versionReferencePath = (version: ApiVersion, dir = DOCS_DIR): string =>
  path.join(dir, 'v', `${version}.html`);

/** The changelog's link to a version's reference: relative, so that it holds behind any prefix. */
export const versionReferenceHref = (version: ApiVersion): string => `v/${version}`;
/** The link to a version's contract, as the public listener serves it. */
export const versionContractHref = (version: ApiVersion): string =>
  `/openapi.yaml?version=${encodeURIComponent(version)}`;

export interface ChangelogInput {
  readonly title: string;
  /** Every released version, oldest first (as VERSIONS). */
  readonly versions: readonly ReleasedVersion[];
  /** The changes, newest first (as VERSION_CHANGES). */
  readonly changes: readonly VersionChange[];
  /** How to name an operation for people: operationId to `GET /api/open/events`. */
  readonly operations: Readonly<Record<string, string>>;
}

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** A description as the registry writes it: paragraphs split by blank lines, `code` in backticks. */
function prose(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map(
      (paragraph) =>
        `<p>${escapeHtml(paragraph.replace(/\s+/g, ' ')).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`,
    )
    .join('\n');
}

function operationItem(operationId: string, operations: ChangelogInput['operations']): string {
  if (operationId === 'webhook') return '<li>webhook deliveries</li>';
  const route = operations[operationId];
  const name = `<code>${escapeHtml(operationId)}</code>`;
  return route ? `<li><code>${escapeHtml(route)}</code> (${name})</li>` : `<li>${name}</li>`;
}

const STYLE = `
  :root { color-scheme: light; }
  body { font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1f2933;
    margin: 0; background: #fafbfc; }
  main { max-width: 52rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; background: #fff; min-height: 100vh;
    box-shadow: 0 0 0 1px #e4e7eb; }
  h1 { font-size: 1.75rem; margin: 0 0 .25rem; }
  h2 { font-size: 1.3rem; margin: 2.25rem 0 .5rem; padding-bottom: .25rem; border-bottom: 1px solid #e4e7eb; }
  h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; }
  code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f0f2f5;
    padding: .05em .3em; border-radius: 3px; }
  a { color: #0b5cad; }
  table { border-collapse: collapse; width: 100%; margin: .75rem 0; }
  th, td { text-align: left; padding: .4rem .6rem; border-bottom: 1px solid #e4e7eb; vertical-align: top; }
  th { font-weight: 600; background: #f5f7fa; }
  .tag { display: inline-block; font-size: .75rem; font-weight: 600; padding: .05rem .45rem; border-radius: 9px;
    background: #e3f0ff; color: #0b5cad; margin-left: .4rem; vertical-align: .1em; }
  .tag.retired { background: #f0f2f5; color: #616e7c; }
  .change { border-left: 3px solid #0b5cad; padding: .1rem 0 .1rem 1rem; margin: 1rem 0; }
  .change ul { margin: .25rem 0; padding-left: 1.25rem; }
  .muted { color: #616e7c; }
`;

/**
 * The changelog: the versions (their references and contracts), then each version's changes, newest
 * first, with the description its version change gives and the operations it touches. Self-contained: no
 * script, font or style from elsewhere.
 */
export function changelogPage(input: ChangelogInput): string {
  const newest = input.versions.at(-1)?.version;
  const rows = [...input.versions].reverse().map(({ version, retired }) => {
    const tag = retired
      ? '<span class="tag retired">retired</span>'
      : version === newest
        ? '<span class="tag">newest</span>'
        : '';
    const links = retired
      ? '<td class="muted" colspan="2">no longer served: its requests are answered 400 <code>unsupported_version</code></td>'
      : `<td><a href="${versionReferenceHref(version)}">reference</a></td>` +
        `<td><a href="${escapeHtml(versionContractHref(version))}">openapi.yaml</a></td>`;
    return `<tr><td><a href="#${version}"><code>${version}</code></a>${tag}</td>${links}</tr>`;
  });
  const sections = [...input.versions].reverse().map(({ version, retired }) => {
    const changes = input.changes.filter((change) => change.version === version);
    const body =
      changes.length === 0
        ? '<p class="muted">The first dated version: the contract as it stood on that day.</p>'
        : changes
            .map(
              (change) =>
                `<div class="change">\n${prose(change.description)}\n<h3>Touches</h3>\n<ul>${change.operations
                  .map((id) => operationItem(id, input.operations))
                  .join('')}</ul>\n</div>`,
            )
            .join('\n');
    const tag = retired ? '<span class="tag retired">retired</span>' : '';
    return `<section id="${version}">\n<h2>${version}${tag}</h2>\n${body}\n</section>`;
  });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}: changelog</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(input.title)}: changelog</h1>
<p class="muted">Every backwards-incompatible change to <code>/api/open</code>, by the version that made it.</p>
<p>A version is a date. A request chooses its version with the <code>Open-Tenant-Version</code> header;
without it, it is answered at the version its tenant is pinned to. Every answer names the version it was
rendered at in the same header, and a version that is not supported is 400 <code>unsupported_version</code>
naming the supported ones. A webhook endpoint's deliveries are rendered at the version it was created with.
<code>GET /api/open/versions</code> lists the versions and the tenant's pinned one. Additive changes (a new
operation, an optional field, a new field in an answer) need no new version and are not listed here.</p>
<h2>Versions</h2>
<table>
<thead><tr><th>Version</th><th>Reference</th><th>Contract</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${sections.join('\n')}
<p class="muted" style="margin-top:3rem"><a href="/docs">The newest reference</a></p>
</main>
</body>
</html>
`;
}

function sendFile(ctx: Context, file: string): boolean {
  if (!existsSync(file)) return false;
  ctx.type = 'text/html';
  ctx.body = createReadStream(file);
  return true;
}

/**
 * The routes of the changelog and the versioned references (the public listener's, beside `/docs`). A
 * version that is not supported, or docs not built yet, fall through to the contract's 404.
 */
export function docsPages({
  dir = DOCS_DIR,
  supported = SUPPORTED_VERSIONS,
}: { dir?: string; supported?: readonly ApiVersion[] } = {}): Router {
  const router = new Router();
  router.get('/docs/changelog', (ctx, next) => (sendFile(ctx, changelogPath(dir)) ? undefined : next()));
  // only a supported version's name reaches the file system: nothing else can name a path
  router.get('/docs/v/:version', (ctx, next) => {
    const version = ctx.params.version ?? '';
    if (!supported.includes(version)) return next();
    return sendFile(ctx, versionReferencePath(version, dir)) ? undefined : next();
  });
  return router;
}
