import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  changelogPage,
  changelogPath,
  docsPages,
  versionContractHref,
  versionReferenceHref,
  versionReferencePath,
} from '../../src/http/docs-pages.js';
import { contractDocument } from '../../src/http/contract-document.js';
import type { VersionChange } from '../../src/versions/change.js';
import { SUPPORTED_VERSIONS, VERSION_CHANGES, VERSIONS } from '../../src/versions/registry.js';

/** operationId to `GET /api/open/events`, as scripts/build-docs.mjs names them. */
function operationNames(): Record<string, string> {
  const names: Record<string, string> = {};
  const paths = contractDocument().paths as Record<string, Record<string, { operationId?: string }>>;
  for (const [route, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (operation?.operationId) names[operation.operationId] = `${method.toUpperCase()} ${route}`;
    }
  }
  return names;
}

/** What a reader sees of a page: its text without tags, entities read, whitespace as single spaces. */
function visibleText(html: string): string {
  return (
    html
      .replace(/<style>[\s\S]*?<\/style>/g, '')
      // blocks and cells end a word; inline elements (code, a, span) do not
      .replace(/<\/?(?:p|h\d|li|ul|td|th|tr|table|thead|tbody|section|div|main|title)\b[^>]*>/g, ' ')
      .replace(/<[^>]+>/g, '')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ')
  );
}

/** A description as the page shows it: the backticks of `code` become the code element's text. */
const shown = (description: string): string => description.replace(/`/g, '').replace(/\s+/g, ' ').trim();

describe('the changelog page', () => {
  const operations = operationNames();
  const html = changelogPage({
    title: 'Open Tenant API',
    versions: VERSIONS,
    changes: VERSION_CHANGES,
    operations,
  });
  const text = visibleText(html);

  it('has a change to show: the registry is not empty', () => {
    expect(VERSION_CHANGES.length).toBeGreaterThan(0);
  });

  it('lists every change of VERSION_CHANGES under its version, with the operations it touches by route', () => {
    for (const change of VERSION_CHANGES) {
      const section = visibleText(html.slice(html.indexOf(`<section id="${change.version}">`)));
      expect(section.startsWith(` ${change.version}`) || section.startsWith(change.version)).toBe(true);
      expect(section).toContain(shown(change.description));
      for (const operation of change.operations) {
        if (operation === 'webhook') expect(section).toContain('webhook deliveries');
        else {
          // every operation a change names is one of the contract's, shown as its method and path
          expect(operations[operation], operation).toBeDefined();
          expect(section).toContain(`${operations[operation]} (${operation})`);
        }
      }
    }
  });

  it('links the reference and the contract of every supported version, newest first', () => {
    for (const version of SUPPORTED_VERSIONS) {
      expect(html).toContain(`href="${versionReferenceHref(version)}"`);
      expect(html).toContain(`href="${versionContractHref(version)}"`);
    }
    const headings = [...html.matchAll(/<h2>(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]);
    expect(headings).toEqual(VERSIONS.map((v) => v.version).reverse());
    expect(text).toContain(`${VERSIONS.at(-1)!.version}newest`);
  });

  it('is self-contained: no script, stylesheet, font or image from anywhere', () => {
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(/i);
    expect(html.startsWith('<!doctype html>')).toBe(true);
  });

  it('groups the changes of a version, marks a retired one without links, and escapes what it shows', () => {
    const change = (version: string, description: string, touches: string[]): VersionChange => ({
      version,
      description,
      operations: touches,
      downContract: () => undefined,
    });
    const page = changelogPage({
      title: 'T <&>',
      versions: [
        { version: '2025-01-01', retired: true },
        { version: '2025-06-01' },
        { version: '2026-01-01' },
      ],
      changes: [
        change('2026-01-01', 'Renamed `a` to `b` <b>.', ['getRun']),
        change('2026-01-01', 'Second change.', ['webhook']),
        change('2025-06-01', 'Older change.', ['unknownOperation']),
      ],
      operations: { getRun: 'GET /api/open/runs/{run_id}' },
    });
    const newest = page.slice(
      page.indexOf('<section id="2026-01-01">'),
      page.indexOf('<section id="2025-06-01">'),
    );
    expect(visibleText(newest)).toContain('Renamed a to b <b>.');
    expect(visibleText(newest)).toContain('Second change.');
    expect(visibleText(newest)).toContain('GET /api/open/runs/{run_id} (getRun)');
    expect(page).toContain('<code>a</code>');
    expect(page).not.toContain('<b>.');
    expect(page).toContain('T &lt;&amp;&gt;');
    expect(visibleText(page)).toContain('unknownOperation');
    expect(page).not.toContain(`href="${versionReferenceHref('2025-01-01')}"`);
    expect(visibleText(page)).toMatch(/2025-01-01retired no longer served/);
  });
});

describe('serving the changelog and the versioned references', () => {
  let dir = '';
  let server: ReturnType<Koa['listen']>;
  let url = '';

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'ota-docs-pages-'));
    mkdirSync(path.join(dir, 'v'));
    writeFileSync(changelogPath(dir), '<p>changelog</p>');
    for (const version of SUPPORTED_VERSIONS)
      writeFileSync(versionReferencePath(version, dir), `<p>${version}</p>`);
    writeFileSync(path.join(dir, 'v', 'secret.html'), 'not a version');
    const app = new Koa();
    app.use(docsPages({ dir }).routes());
    app.use((ctx) => {
      ctx.status = 404;
      ctx.body = 'fell through';
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  it('/docs/changelog and /docs/v/<version> for every supported version are the built pages', async () => {
    const changelog = await fetch(`${url}/docs/changelog`);
    expect(changelog.status).toBe(200);
    expect(changelog.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await changelog.text()).toBe('<p>changelog</p>');
    for (const version of SUPPORTED_VERSIONS) {
      const reference = await fetch(`${url}/docs/v/${version}`);
      expect(reference.status).toBe(200);
      expect(await reference.text()).toBe(`<p>${version}</p>`);
    }
  });

  it('anything that is not a supported version falls through (the contract 404s it): no file is named by the URL', async () => {
    for (const asked of ['2020-01-01', 'secret', '..%2Fchangelog', '%2E%2E%2Fchangelog']) {
      const answer = await fetch(`${url}/docs/v/${asked}`);
      expect(answer.status, asked).toBe(404);
      expect(await answer.text()).toBe('fell through');
    }
  });
});
