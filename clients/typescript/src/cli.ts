import path from 'node:path';
import { Command, Option } from 'commander';
import { addAdminCommands } from './admin-commands.js';
import { createAdminClient } from './admin-client.js';
import {
  type ApiVersions,
  createClient,
  type OpenTenantClient,
  type PreflightReport,
  type Profile,
  type Run,
  type SubscribedEventType,
  type UploadProgress,
  type WebhookEndpoint,
} from './client.js';
import { idArgument, positiveInt, PROCESS_IO, retryNotice, runProgram, UsageError } from './command-line.js';
import type { Event, EventType } from './event-stream.js';
import { OtaError } from './errors.js';
import { formatMoney } from './money.js';
import { ProgressLine, table } from './terminal.js';
import { API_VERSION, CLIENT_VERSION } from '../generated/version.js';

/**
 * `ota`: the Open Tenant API from a shell. Reads OTA_URL and OTA_TOKEN (or --url/--token); `ota admin`, the
 * platform's admin API, reads OTA_ADMIN_URL and OTA_ADMIN_TOKEN (or --admin-url/--admin-token). Human output
 * is aligned tables; --json prints exactly one JSON document on stdout. A failure prints the server's message
 * and request id on stderr and exits 1 (2 for a wrong command line, 3 for a profile whose verdict is fail).
 */
interface Global {
  url?: string;
  token?: string;
  apiVersion?: string;
  adminUrl?: string;
  adminToken?: string;
  json?: boolean;
}

/** A profile's verdict was `fail`: already printed; `ota` exits 3 so that a CI step fails on it. */
class VerdictFailed extends Error {}

/** A run `ota` waited for failed or was cancelled: printed already (with --json the run is the output); exit 1. */
class RunNotSucceeded extends Error {
  constructor(run: Run) {
    super(
      run.status === 'cancelled'
        ? `run ${run.id} was cancelled`
        : `run ${run.id} failed${run.error_code ? ` (${run.error_code})` : ''}${run.error ? `: ${run.error}` : ''}`,
    );
  }
}

/** Throws RunNotSucceeded for a run that finished other than `succeeded`. */
function mustHaveSucceeded(run: Run): void {
  if (run.status === 'failed' || run.status === 'cancelled') throw new RunNotSucceeded(run);
}

/**
 * The directory the user typed the command in. `npm run ota -- diagnose mine.pdf` runs the script in the
 * package's root, wherever the user was, and npm says where that was in INIT_CWD: the `ota` script passes the
 * user's arguments through, so their relative paths are the user's. Any other script (a project's own
 * `"report": "ota diagnose docs/a.pdf"`) wrote its paths for the root it runs in, as does a shell.
 */
function userDirectory(): string {
  const npmMovedUs = process.env.npm_lifecycle_event === 'ota' && process.env.INIT_CWD;
  return npmMovedUs ? process.env.INIT_CWD! : process.cwd();
}

/** A path the user gave, absolute: relative ones are the user's directory's. */
const userPath = (given: string): string => path.resolve(userDirectory(), given);

const runId = idArgument('a run id', 'ota runs list');
const endpointId = idArgument('a webhook endpoint id', 'ota webhooks list');
const uploadId = idArgument('an upload id', 'GET /api/open/uploads');

const TARGETS = ['pdf-preflight', 'pdf-text', 'pdf-print', 'pdf-archive', 'pdf-accessibility'] as const;
type Target = (typeof TARGETS)[number];

/** The version ota sends: --api-version, else OTA_API_VERSION, else the one it was generated from. */
const versionSent = (global: Global): string =>
  global.apiVersion ?? (process.env.OTA_API_VERSION || API_VERSION);

function clientOf(command: Command): { client: OpenTenantClient; json: boolean } {
  const global = command.optsWithGlobals<Global>();
  const url = global.url ?? process.env.OTA_URL;
  const token = global.token ?? process.env.OTA_TOKEN;
  if (!url) throw new UsageError('no server: set OTA_URL or pass --url');
  if (!token) throw new UsageError('no token: set OTA_TOKEN or pass --token');
  return {
    client: createClient({ baseUrl: url, token, apiVersion: versionSent(global), onRetry: sayRetry }),
    json: global.json === true,
  };
}

/** `ota admin`'s admin API: --admin-url and --admin-token, else OTA_ADMIN_URL and OTA_ADMIN_TOKEN. */
async function adminClientOf(command: Command) {
  const global = command.optsWithGlobals<Global>();
  const url = global.adminUrl ?? process.env.OTA_ADMIN_URL;
  const token = global.adminToken ?? process.env.OTA_ADMIN_TOKEN;
  if (!url) throw new UsageError('no admin server: set OTA_ADMIN_URL or pass --admin-url');
  if (!token) throw new UsageError('no admin token: set OTA_ADMIN_TOKEN or pass --admin-token');
  return createAdminClient({ baseUrl: url, token, onRetry: sayRetry });
}

const sayRetry = retryNotice(PROCESS_IO);

const out = (text: string): void => {
  process.stdout.write(`${text}\n`);
};
const printJson = (value: unknown): void => {
  out(JSON.stringify(value, null, 2));
};

function uploadBar(): (p: UploadProgress) => void {
  const line = new ProgressLine();
  return (p) => line.bytes('upload', p.sentBytes, p.totalBytes, `${p.partsDone}/${p.partCount} parts`);
}

function runBar(): (run: Run) => void {
  const line = new ProgressLine();
  return (run) =>
    line.count(
      `run ${run.status}`,
      run.completed_tasks + run.failed_tasks,
      run.total_tasks,
      `${run.failed_tasks} failed`,
    );
}

function runRows(runs: Run[]) {
  return table(
    runs.map((r) => ({
      id: r.id,
      status: r.status,
      target: r.target,
      progress: `${r.progress}%`,
      pages: `${r.completed_tasks}/${r.total_tasks}`,
      points: r.points_consumed,
      file: r.input_file_name,
      created: r.created_at,
    })),
    [
      ['id', 'RUN'],
      ['status', 'STATUS'],
      ['target', 'TARGET'],
      ['progress', 'PROGRESS'],
      ['pages', 'TASKS'],
      ['points', 'POINTS'],
      ['file', 'FILE'],
      ['created', 'CREATED'],
    ],
  );
}

/**
 * A run as lines. Its outputs are on the server until fetched: `saved` says that `ota diagnose` was not
 * told where to write them (`not saved`); otherwise the line says how to fetch them.
 */
function describeRun(run: Run, outputs: 'saved' | 'not saved' | 'on the server' = 'on the server'): string {
  const download = `ota runs download ${run.id} --out DIR`;
  const names = run.output_files.join(', ');
  const lines = [
    `run      ${run.id}`,
    `status   ${run.status}${run.error_code ? ` (${run.error_code})` : ''}${run.error ? `: ${run.error}` : ''}`,
    `target   ${run.target} (attempt ${run.attempt})`,
    `tasks    ${run.completed_tasks} done, ${run.failed_tasks} failed of ${run.total_tasks} (${run.progress}%)`,
    `points   ${run.points_consumed}`,
    `file     ${run.input_file_name} (${run.file_id})`,
    `outputs  ${
      !names
        ? '-'
        : outputs === 'saved'
          ? names
          : outputs === 'not saved'
            ? `${names} (not saved: ${download})`
            : `${names} (${download} saves them)`
    }`,
  ];
  if (Object.keys(run.options).length > 0) lines.splice(3, 0, `options  ${JSON.stringify(run.options)}`);
  return lines.join('\n');
}

/** "1-3, 5": pages as ranges, cut short past `width` characters. */
function pageRanges(pages: number[], width = 40): string {
  const ranges: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    const start = pages[i]!;
    while (i + 1 < pages.length && pages[i + 1] === pages[i]! + 1) i++;
    ranges.push(start === pages[i] ? String(start) : `${start}-${pages[i]}`);
  }
  const all = ranges.join(', ');
  if (all.length <= width) return all;
  return `${all.slice(0, all.lastIndexOf(', ', width))}, ...`;
}

/** The standard a check's clause is of: the part `pdf-archive` judged by (ISO 19005-1 for its part-1-only checks). */
function clauseStandard(profile: Profile, check: string): string {
  if (check === 'no_transparency_part1' || check === 'xmp_info_agreement') return 'ISO 19005-1';
  if (profile.judged_as) return profile.judged_as.standard;
  return profile.name === 'pdf-accessibility' ? 'ISO 14289-1' : '';
}

/** The verdict, then the failed checks with their clauses, errors first; true when the verdict is `fail`. */
function printProfile(profile: Profile): boolean {
  const failed = profile.checks
    .filter((c) => c.status === 'fail')
    .sort((a, b) => (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3));
  out(`\n${profile.verdict.toUpperCase()}  ${profile.title} (${profile.name})`);
  if (failed.length > 0)
    out(
      table(
        failed.map((c) => ({
          ...c,
          pages: pageRanges(c.pages) || 'document',
          // a check made of published rules names the rules that failed, as veraPDF numbers them
          // the Matterhorn conditions this check's failing rules break
          matterhorn: (profile.matterhorn ?? [])
            .flatMap((cp) => cp.conditions)
            .filter((m) => m.status === 'fail' && m.checks.includes(c.id))
            .map((m) => m.condition)
            .join(', '),
          clause: c.rules?.some((r) => r.status === 'fail')
            ? `${c.specification ?? clauseStandard(profile, c.id)} ${c.rules
                .filter((r) => r.status === 'fail')
                .map((r) => `${r.clause}-${r.test}`)
                .join(', ')}`
            : c.clause
              ? `${clauseStandard(profile, c.id)} ${c.clause}`.trim()
              : '',
        })),
        [
          ['severity', 'SEVERITY'],
          ['id', 'CHECK'],
          ...(failed.some((c) => c.clause)
            ? [[`clause`, failed.some((c) => c.rules) ? 'RULES' : 'CLAUSE'] as [string, string]]
            : []),
          ...(failed.some((c) => c.matterhorn) ? [['matterhorn', 'MATTERHORN'] as [string, string]] : []),
          ['pages', 'PAGES'],
          ['message', 'MESSAGE'],
        ],
      ),
    );
  if (profile.matterhorn) out(matterhornLines(profile.matterhorn));
  return profile.verdict === 'fail';
}

/**
 * The Matterhorn Protocol's view of the same checks: the checkpoints that failed with their conditions, and
 * how many conditions only a person can judge (report.html lists them).
 */
function matterhornLines(checkpoints: NonNullable<Profile['matterhorn']>): string {
  const failed = checkpoints.filter((cp) => cp.status === 'fail');
  const review = checkpoints.flatMap((cp) => cp.conditions.filter((c) => c.status === 'review'));
  const lines = [
    failed.length === 0
      ? '\nMatterhorn Protocol: no checkpoint failed'
      : `\nMatterhorn Protocol: ${plural(failed.length, 'checkpoint', 'checkpoints')} failed`,
    ...failed.map(
      (cp) =>
        `  ${cp.checkpoint} ${cp.title}: ${cp.conditions
          .filter((c) => c.status === 'fail')
          .map((c) => c.condition)
          .join(', ')}`,
    ),
    `  ${plural(review.length, 'condition', 'conditions')} to review by a person (see report.html)`,
  ];
  return lines.join('\n');
}

const SEVERITY_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What `ota --version` and `ota version` say: this ota, and the API version its requests are sent at. */
const VERSION_LINE = `ota ${CLIENT_VERSION} (API version ${API_VERSION})`;

function versionRows(versions: ApiVersions, speaks: string): string {
  return table(
    [...versions.versions].reverse().map((v) => ({
      version: v.version,
      status: v.status,
      // what a request gets: ota's own version (sent on every request), the tenant's pin without it
      notes: [v.version === speaks ? 'ota sends it' : '', v.version === versions.pinned ? 'pinned' : '']
        .filter(Boolean)
        .join(', '),
      changes: v.changes.length,
    })),
    [
      ['version', 'VERSION'],
      ['status', 'STATUS'],
      ['changes', 'CHANGES'],
      ['notes', ''],
    ],
  );
}

export function buildProgram(): Command {
  const program = new Command('ota')
    .description('The Open Tenant API from the command line')
    .option('--url <url>', 'the server (default: $OTA_URL)')
    .option('--token <token>', 'a tenant API token (default: $OTA_TOKEN)')
    .option(
      '--api-version <date>',
      `the API version to send as Open-Tenant-Version (default: $OTA_API_VERSION, else ${API_VERSION}, ` +
        'the one this ota was generated from)',
    )
    .option('--json', 'print exactly one JSON document on stdout')
    .version(VERSION_LINE, '-V, --version', "print ota's version and the API version it speaks")
    .exitOverride();

  program
    .command('version')
    .description("ota's version and the API version it sends (Open-Tenant-Version); asks no server")
    .action((_options: object, command: Command) => {
      const global = command.optsWithGlobals<Global>();
      const apiVersion = versionSent(global);
      if (global.json === true) {
        return printJson({
          client_version: CLIENT_VERSION,
          api_version: apiVersion,
          generated_from: API_VERSION,
        });
      }
      out(`ota ${CLIENT_VERSION}`);
      out(
        `API version ${apiVersion}${apiVersion === API_VERSION ? ' (the one this ota was generated from)' : ` (chosen; this ota was generated from ${API_VERSION})`}`,
      );
    });

  program
    .command('versions')
    .description("the server's API versions, the tenant's pinned one, and the one ota sends")
    .action(async (_options: object, command: Command) => {
      const { client, json } = clientOf(command);
      const versions = await client.versions();
      if (json) return printJson(versions);
      out(versionRows(versions, client.apiVersion));
      out(
        `\nota sends ${client.apiVersion}; the tenant is pinned to ${versions.pinned} (what a request without ` +
          `Open-Tenant-Version gets); the newest is ${versions.newest}`,
      );
      for (const v of [...versions.versions].reverse()) {
        for (const change of v.changes) out(`\n${v.version}: ${change}`);
      }
    });

  program
    .command('upload')
    .description('upload a PDF in parallel parts; prints its file id')
    .argument('<file>')
    .option('--concurrency <n>', 'parts sent at once', positiveInt, 4)
    .option('--resume <upload_id>', 'resume an interrupted upload', uploadId)
    .action(async (file: string, options: { concurrency: number; resume?: string }, command: Command) => {
      const { client, json } = clientOf(command);
      const done = await client.uploadFile(userPath(file), {
        concurrency: options.concurrency,
        resumeUploadId: options.resume,
        onProgress: uploadBar(),
      });
      if (json) printJson(done);
      else out(done.file_id);
    });

  program
    .command('diagnose')
    .description('upload a PDF, run a diagnosis, wait for it, download the outputs, summarise the findings')
    .argument('<file>')
    .addOption(new Option('--target <target>', 'what to run').choices(TARGETS).default('pdf-preflight'))
    .option(
      '--min-ppi <n>',
      "pdf-print: the resolution images must reach (default: the server's)",
      positiveInt,
    )
    .option('--cmyk', 'pdf-print: the job prints in CMYK (RGB images are then a warning)')
    .option('--out <dir>', 'write the outputs here (else: ota runs download RUN_ID --out DIR)')
    .addHelpText(
      'after',
      '\nWith a profile target (pdf-print, pdf-archive, pdf-accessibility) it prints the verdict and the failed\n' +
        'checks, and exits 3 when the verdict is fail: a CI step that runs it fails on a file that does not pass.',
    )
    .action(
      async (
        file: string,
        options: { target: Target; out?: string; minPpi?: number; cmyk?: boolean },
        command: Command,
      ) => {
        const { client, json } = clientOf(command);
        const runOptions = {
          ...(options.minPpi !== undefined ? { min_ppi: options.minPpi } : {}),
          ...(options.cmyk ? { cmyk: true } : {}),
        };
        const outDir = options.out === undefined ? undefined : userPath(options.out);
        const result = await client.diagnose(userPath(file), {
          target: options.target,
          runOptions: Object.keys(runOptions).length > 0 ? runOptions : undefined,
          outDir,
          onUploadProgress: uploadBar(),
          onRunProgress: runBar(),
        });
        const report = result.outputs['report.json'];
        const parsed = report ? (JSON.parse(report.toString()) as PreflightReport) : undefined;
        if (json) {
          printJson(result.run);
          mustHaveSucceeded(result.run);
          if (parsed?.profile?.verdict === 'fail') throw new VerdictFailed();
          return;
        }
        out(describeRun(result.run, outDir ? 'saved' : 'not saved'));
        mustHaveSucceeded(result.run);
        if (parsed) {
          const s = parsed.summary;
          out(
            `\n${plural(s.errors, 'error', 'errors')}, ${plural(s.warnings, 'warning', 'warnings')}, ${plural(s.infos, 'note', 'notes')}; ${s.pages_ok} pages read, ${s.pages_failed} failed`,
          );
          if (parsed.findings.length > 0) {
            out(
              table(
                parsed.findings
                  .slice(0, 20)
                  .map((f) => ({ ...f, pages: f.pages.length ? pageRanges(f.pages) : 'document' })),
                [
                  ['severity', 'SEVERITY'],
                  ['pages', 'PAGES'],
                  ['code', 'CODE'],
                  ['message', 'MESSAGE'],
                ],
              ),
            );
            if (parsed.findings.length > 20)
              out(`... and ${parsed.findings.length - 20} more in report.json`);
          }
        }
        if (outDir && result.run.output_files.length > 0) out(`\noutputs written to ${outDir}`);
        if (parsed?.profile && printProfile(parsed.profile)) throw new VerdictFailed();
      },
    );

  const runs = program.command('runs').description('diagnosis runs');
  runs
    .command('list')
    .addOption(
      new Option('--status <status>').choices(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
    )
    .addOption(new Option('--target <target>').choices(TARGETS))
    .option('--keyword <text>', 'part of the file name, or a run id')
    .option('--all', 'every page, not only the newest 20')
    .action(
      async (
        options: { status?: Run['status']; target?: Run['target']; keyword?: string; all?: boolean },
        command: Command,
      ) => {
        const { client, json } = clientOf(command);
        const query = { status: options.status, target: options.target, keyword: options.keyword };
        let list: Run[];
        let total: number;
        if (options.all) {
          list = [];
          for await (const run of client.runs(query)) list.push(run);
          total = list.length;
        } else {
          const page = await client.listRuns({ ...query, limit: 20 });
          list = page.data;
          total = page.total;
        }
        if (json) return printJson({ data: list, total });
        out(runRows(list));
        out(`${list.length} of ${total} runs`);
      },
    );
  for (const [name, description] of [
    ['get', 'one run'],
    ['rerun', 'run a finished run again'],
    ['cancel', 'cancel a queued or running run'],
  ] as const) {
    runs
      .command(name)
      .description(description)
      .argument('<run_id>', '', runId)
      .action(async (id: string, _options: object, command: Command) => {
        const { client, json } = clientOf(command);
        const run =
          name === 'get'
            ? await client.getRun(id)
            : name === 'rerun'
              ? await client.rerunRun(id)
              : await client.cancelRun(id);
        if (json) printJson(run);
        else out(describeRun(run));
      });
  }
  runs
    .command('watch')
    .description('follow a run until it has finished; exits 1 when it failed or was cancelled')
    .argument('<run_id>', '', runId)
    .action(async (id: string, _options: object, command: Command) => {
      const { client, json } = clientOf(command);
      const run = await client.waitForRun(id, { onProgress: runBar() });
      if (json) printJson(run);
      else out(describeRun(run));
      mustHaveSucceeded(run);
    });
  runs
    .command('download')
    .description("save a finished run's outputs (report.json, report.html, text.txt, ...) in a directory")
    .argument('<run_id>', '', runId)
    .option('--out <dir>', 'the directory, made when missing (default: the current one)')
    .action(async (id: string, options: { out?: string }, command: Command) => {
      const { client, json } = clientOf(command);
      const run = await client.getRun(id);
      if (run.output_files.length === 0) {
        const why =
          run.status === 'failed' || run.status === 'cancelled'
            ? new RunNotSucceeded(run).message.replace(`run ${run.id} `, 'it ')
            : run.status === 'succeeded'
              ? 'it made none'
              : `it is ${run.status}; ota runs watch ${run.id} waits for it`;
        throw new Error(`run ${run.id} has no outputs: ${why}`);
      }
      const dir = userPath(options.out ?? '.');
      const outputs = await client.downloadRunOutputs(run, dir);
      const files = Object.entries(outputs).map(([name, bytes]) => ({
        name,
        path: path.join(dir, name),
        size_bytes: bytes.length,
      }));
      if (json) return printJson({ run_id: run.id, files });
      for (const file of files) out(file.path);
    });

  const revenue = program.command('revenue').description('the revenue ledger');
  revenue.command('dashboard').action(async (_options: object, command: Command) => {
    const { client, json } = clientOf(command);
    const d = await client.dashboard();
    if (json) return printJson(d);
    const money = (n: number) => formatMoney(n, d.currency);
    out(
      table(
        [
          { period: 'today', ...d.today },
          { period: 'month to date', ...d.month_to_date },
          { period: 'previous month', ...d.previous_month },
          { period: 'all time', ...d.all_time },
        ].map((r) => ({
          period: r.period,
          total: money(r.total),
          tech: money(r.tech),
          ecosystem: money(r.ecosystem),
        })),
        [
          ['period', 'PERIOD'],
          ['total', 'TOTAL'],
          ['tech', 'TECH'],
          ['ecosystem', 'ECOSYSTEM'],
        ],
        ['total', 'tech', 'ecosystem'],
      ),
    );
    out(`${d.transaction_count} transactions; latest ${d.latest_transaction_at ?? '-'}`);
  });
  revenue
    .command('transactions')
    .addOption(new Option('--type <type>').choices(['all', 'tech', 'ecosystem']).default('all'))
    .option('--from <date>', 'first UTC day, YYYY-MM-DD')
    .option('--to <date>', 'last UTC day, YYYY-MM-DD')
    .option('--all', 'every page, not only the newest 20')
    .action(
      async (
        options: { type: 'all' | 'tech' | 'ecosystem'; from?: string; to?: string; all?: boolean },
        command: Command,
      ) => {
        const { client, json } = clientOf(command);
        const query = { transaction_type: options.type, start_date: options.from, end_date: options.to };
        const list = [];
        let total: number;
        if (options.all) {
          for await (const t of client.transactions(query)) list.push(t);
          total = list.length;
        } else {
          const page = await client.listTransactions({ ...query, page_size: 20 });
          list.push(...page.data);
          total = page.total;
        }
        if (json) return printJson({ data: list, total });
        out(
          table(
            list.map((t) => ({
              when: t.occurred_at,
              type: t.type,
              amount: formatMoney(t.amount, t.currency),
              what: t.description,
            })),
            [
              ['when', 'OCCURRED'],
              ['type', 'TYPE'],
              ['amount', 'AMOUNT'],
              ['what', 'DESCRIPTION'],
            ],
            ['amount'],
          ),
        );
        // a tenant's ledger has one currency; the sum is of integers, exact past 2^53 as a bigint
        const sum = list.reduce((n, t) => n + BigInt(t.amount), 0n);
        const currency = list[0]?.currency;
        out(
          `${list.length} of ${total} transactions${currency ? `; these sum to ${formatMoney(sum, currency)}` : ''}`,
        );
      },
    );
  const events = program.command('events').description('what happened to runs and uploads');
  events
    .command('listen')
    .description('print events as they happen (Ctrl-C stops); resumes by itself after a broken connection')
    .addOption(new Option('--type <type>', 'only this type').choices(EVENT_TYPES))
    .option('--after <event_id>', 'start with the retained events after this one')
    .action(async (options: { type?: EventType; after?: string }, command: Command) => {
      const { client, json } = clientOf(command);
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      try {
        for await (const event of client.eventStream({
          type: options.type,
          lastEventId: options.after,
          signal: stop.signal,
          onReconnect: ({ delayMs, reason }) =>
            process.stderr.write(
              `stream broken (${reason}), reconnecting in ${Math.ceil(delayMs / 1000)} s\n`,
            ),
        })) {
          if (json) out(JSON.stringify(event));
          else out(describeEvent(event));
        }
      } catch (error) {
        if (!stop.signal.aborted) throw error;
      }
    });
  events
    .command('list')
    .description('the newest events')
    .addOption(new Option('--type <type>', 'only this type').choices(EVENT_TYPES))
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .action(async (options: { type?: EventType; limit: number }, command: Command) => {
      const { client, json } = clientOf(command);
      const page = await client.listEvents({ type: options.type, limit: options.limit });
      if (json) return printJson(page.data);
      out(
        table(
          page.data.map((e) => ({
            id: e.id,
            type: e.type,
            at: e.created_at,
            object: 'upload_id' in e.data.object ? e.data.object.upload_id : e.data.object.id,
          })),
          [
            ['at', 'CREATED'],
            ['type', 'TYPE'],
            ['object', 'OBJECT'],
            ['id', 'EVENT'],
          ],
        ),
      );
    });

  const webhooks = program.command('webhooks').description('webhook endpoints');
  webhooks
    .command('add')
    .description('register an https URL that receives events as signed POSTs; prints its secret once')
    .argument('<url>')
    .option('--events <types>', `comma-separated: ${EVENT_TYPES.join(', ')} (default: every type)`)
    .option('--description <text>')
    .action(async (url: string, options: { events?: string; description?: string }, command: Command) => {
      const { client, json } = clientOf(command);
      const types = options.events?.split(',').map((t) => t.trim()) as SubscribedEventType[] | undefined;
      const endpoint = await client.webhooks.add(url, { events: types, description: options.description });
      if (json) return printJson(endpoint);
      out(endpointRows([endpoint]));
      out(`\nsigning secret (shown only now): ${endpoint.secret}`);
    });
  webhooks.command('list').action(async (_options: object, command: Command) => {
    const { client, json } = clientOf(command);
    const list = await client.webhooks.list();
    if (json) return printJson(list);
    out(endpointRows(list));
  });
  webhooks
    .command('delete')
    .argument('<endpoint_id>', '', endpointId)
    .action(async (id: string, _options: object, command: Command) => {
      const { client, json } = clientOf(command);
      await client.webhooks.delete(id);
      if (json) return printJson({ id, deleted: true });
      out(`deleted ${id}`);
    });
  webhooks
    .command('rotate')
    .description('give the endpoint a new secret; the old one keeps signing during the overlap')
    .argument('<endpoint_id>', '', endpointId)
    .action(async (id: string, _options: object, command: Command) => {
      const { client, json } = clientOf(command);
      const endpoint = await client.webhooks.rotate(id);
      if (json) return printJson(endpoint);
      out(`new signing secret (shown only now): ${endpoint.secret}`);
    });
  webhooks
    .command('enable')
    .argument('<endpoint_id>', '', endpointId)
    .action(async (id: string, _options: object, command: Command) => {
      const { client, json } = clientOf(command);
      const endpoint = await client.webhooks.enable(id);
      if (json) return printJson(endpoint);
      out(endpointRows([endpoint]));
    });
  webhooks
    .command('deliveries')
    .description('the latest delivery attempts of an endpoint')
    .argument('<endpoint_id>', '', endpointId)
    .option('--limit <n>', 'how many (at most 100)', positiveInt, 20)
    .action(async (id: string, options: { limit: number }, command: Command) => {
      const { client, json } = clientOf(command);
      const attempts = await client.webhooks.deliveries(id, options.limit);
      if (json) return printJson(attempts);
      out(
        table(
          attempts.map((a) => ({
            ...a,
            result: a.status_code ?? a.error,
            took: `${a.duration_ms} ms`,
          })),
          [
            ['attempted_at', 'WHEN'],
            ['event_id', 'EVENT'],
            ['attempt', 'ATTEMPT'],
            ['result', 'RESULT'],
            ['took', 'TOOK'],
          ],
          ['attempt', 'took'],
        ),
      );
    });
  const admin = program
    .command('admin')
    .description(
      "the platform's admin API: tenants (their exports and deletion), their tokens, ledgers and usage, the audit trail, admin tokens",
    )
    .option('--admin-url <url>', "the server's admin listener (default: $OTA_ADMIN_URL)")
    .option('--admin-token <token>', 'a platform admin token, ota_admin_... (default: $OTA_ADMIN_TOKEN)')
    .addHelpText(
      'after',
      "\nThe admin API is served on the server's admin listener (ADMIN_PORT), not on OTA_URL, and takes an admin\n" +
        "token, never a tenant's. On the server, `npm run admin -- ...` runs these same commands, with the same\n" +
        'arguments and output, on its own DATA_DIR without a listener or a token; it also issues the first admin\n' +
        'token (`npm run --silent admin -- admin-tokens issue --name NAME`).\n\n' +
        'Examples:\n' +
        '  export OTA_ADMIN_URL=http://127.0.0.1:8090 OTA_ADMIN_TOKEN=ota_admin_...\n' +
        '  ota admin tenants create --name acme --currency EUR --price-per-point 12\n' +
        '  ota admin tokens issue TENANT_ID --name ci --scope runs:read --scope runs:write\n' +
        '  ota admin audit --tenant TENANT_ID\n' +
        '  ota admin tenants export TENANT_ID --out tenant.tar   # waits, downloads, checks its SHA-256',
    );
  addAdminCommands(admin, adminClientOf, PROCESS_IO);
  return program;
}

// a record over the contract's type: a type added to openapi.yaml does not compile until it is here
const EVENT_TYPE_SET: Record<EventType, true> = {
  'run.created': true,
  'run.requeued': true,
  'run.started': true,
  'run.succeeded': true,
  'run.failed': true,
  'run.cancelled': true,
  'upload.completed': true,
};
const EVENT_TYPES = Object.keys(EVENT_TYPE_SET) as EventType[];

function describeEvent(event: Event): string {
  const data = event.data.object as {
    id?: string;
    status?: string;
    progress?: number;
    upload_id?: string;
    file_name?: string;
  };
  const object = event.type.startsWith('run.')
    ? `run ${data.id} ${data.status}`
    : `upload ${data.upload_id} (${data.file_name})`;
  return `${event.created_at}  ${event.type.padEnd(16)}  ${object}  [${event.id}]`;
}

function endpointRows(list: WebhookEndpoint[]): string {
  return table(
    list.map((e) => ({ ...e, events: e.events.join(',') })),
    [
      ['id', 'ENDPOINT'],
      ['status', 'STATUS'],
      ['url', 'URL'],
      ['events', 'EVENTS'],
      ['created_at', 'CREATED'],
    ],
  );
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  return runProgram(program, argv, PROCESS_IO, {
    own(error, json) {
      if (error instanceof VerdictFailed) return 3;
      // the run is printed already; with --json it is the one document on stdout
      if (error instanceof RunNotSucceeded) {
        if (!json) process.stderr.write(`error: ${error.message}\n`);
        return 1;
      }
      return undefined;
    },
    // a version this server does not serve: say which one ota sent and how to choose another
    hint(error: OtaError) {
      if (error.error !== 'unsupported_version') return undefined;
      const sent = versionSent(program.opts<Global>());
      const hint =
        `ota sent Open-Tenant-Version ${sent}; choose another with --api-version or OTA_API_VERSION ` +
        '(ota versions lists what the server supports), or use an ota generated from its contract';
      return { hint, fields: { api_version: sent, hint } };
    },
  });
}
