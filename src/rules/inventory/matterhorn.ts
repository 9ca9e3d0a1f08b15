import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The Matterhorn Protocol 1.1 (PDF Association, CC BY 4.0; sources in README.md here): its failure conditions,
 * and which of them each veraPDF PDF/UA-1 rule id stands for. Users and other checkers speak of PDF/UA faults
 * by these condition ids, so the report carries them beside the ISO clause.
 */
export interface MatterhornCondition {
  /** e.g. `13-004`. */
  condition: string;
  /** `01`..`31`. */
  checkpoint: string;
  checkpointTitle: string;
  /** The ISO 14289-1 requirement the protocol cites, as it writes it: `UA1:7.3-3`. */
  section: string;
  /**
   * `human`: only a person can judge it (reading order, meaningful alt text), so a report lists it as to be
   * reviewed, never as passed. `none`: the protocol defines no test of its own (23-001, 27-001).
   */
  how: 'machine' | 'human' | 'none';
  /** The protocol's scope: `Doc`, `Page`, `Object`, `JS`, `All`, or `--` for the two without a test. */
  type: string;
  description: string;
}

function rows(file: string): string[][] {
  const text = readFileSync(path.join(import.meta.dirname, file), 'utf8');
  return text
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'));
}

const HOWS = new Set(['machine', 'human', 'none']);

export interface MatterhornMapRow {
  /** veraPDF's PDF/UA-1 rule id, clause-test: `7.18.1-2`. */
  rule: string;
  conditions: string[];
  /** `published` when read from a publication, `derived` when matched here by clause and requirement. */
  source: 'published' | 'derived';
}

let conditions: MatterhornCondition[] | undefined;
let map: MatterhornMapRow[] | undefined;
let byRule: Map<string, string[]> | undefined;

export function matterhornConditions(): MatterhornCondition[] {
  conditions ??= rows('matterhorn.tsv').map(
    ([condition, checkpoint, checkpointTitle, section, how, type, description]) => {
      if (!HOWS.has(how!)) throw new Error(`matterhorn.tsv: ${condition} has how "${how}"`);
      return {
        condition: condition!,
        checkpoint: checkpoint!,
        checkpointTitle: checkpointTitle!,
        section: section!,
        how: how as MatterhornCondition['how'],
        type: type!,
        description: description!,
      };
    },
  );
  return conditions;
}

export function matterhornMap(): MatterhornMapRow[] {
  map ??= rows('matterhorn-map.tsv').map(([rule, listed, source]) => {
    if (source !== 'published' && source !== 'derived') {
      throw new Error(`matterhorn-map.tsv: ${rule} has source "${source}"`);
    }
    return { rule: rule!, conditions: listed ? listed.split(',') : [], source };
  });
  return map;
}

/**
 * The conditions a veraPDF PDF/UA-1 rule id (`7.18.1-2`) stands for. Empty for a rule the protocol has no
 * condition for (6.1-1, 6.2-1, 7.1-11, 7.1-12) and for an id the map does not list.
 */
export function matterhornOf(ruleId: string): string[] {
  byRule ??= new Map(matterhornMap().map((row) => [row.rule, row.conditions]));
  return byRule.get(ruleId) ?? [];
}
