import { closeSync, openSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CosFile } from '../../src/pdf/cos/file.js';
import { judgeFile } from '../../src/rules/judge-file.js';
import { MODEL_FAMILIES } from '../../src/rules/families.js';
import { PDFA_RULES } from '../../src/rules/pdfa/index.js';
import type { Rule, RuleFailure } from '../../src/rules/rule.js';

/**
 * A rule's fixture pair, made from the rule's description: `pass(part)` keeps every rule of the part, `fail(part)`
 * breaks this one (other rules may break too, when breaking this one cannot be done alone; say so beside it).
 * `part` is the ISO 19005 part the pair is judged by: a rule 2 and 3 share is judged as both.
 */
export interface FixturePair {
  pass: (part: 1 | 2 | 3) => Uint8Array;
  fail: (part: 1 | 2 | 3) => Uint8Array;
}

/** A clause file's pairs, by test number. */
export type FixturePairs = Record<number, FixturePair>;

let written = 0;

/** The failures of `rules` over a file given as bytes, read from a temporary file as a run reads one. */
export function judgeBytes(bytes: Uint8Array, rules: readonly Rule[]): RuleFailure[] {
  const file = path.join(tmpdir(), `rule-fixture-${process.pid}-${written++}.pdf`);
  writeFileSync(file, bytes);
  const fd = openSync(file, 'r');
  try {
    // an embedded file is judged by every rule of the part it claims, whichever part the pair is of
    return judgeFile(new CosFile(fd, bytes.length), rules, MODEL_FAMILIES, { rules: PDFA_RULES });
  } finally {
    closeSync(fd);
  }
}
