import { rule, type Reason, type Rule } from '../../../rule.js';

/** Annotation flags (ISO 32000-1, 12.5.3): bit 1 Invisible, 2 Hidden, 3 Print, 6 NoView, 9 ToggleNoView. */
export const FLAG_INVISIBLE = 1;
export const FLAG_HIDDEN = 2;
export const FLAG_PRINT = 4;
export const FLAG_NOVIEW = 32;
export const FLAG_TOGGLE_NOVIEW = 256;

/** What is wrong with an annotation's flags, among those `hiding` names: not printed, or hidden. */
export function flagsFault(flags: number, hiding: [number, string][]): string | undefined {
  if ((flags & FLAG_PRINT) === 0) return 'its Print flag is not set';
  const set = hiding.filter(([bit]) => (flags & bit) !== 0).map(([, name]) => name);
  return set.length > 0 ? `its ${set.join(', ')} flag${set.length > 1 ? 's are' : ' is'} set` : undefined;
}

/** ISO 19005-2 and -3, 6.3.2 Annotation dictionaries. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.3.2',
    test: 1,
    object: 'annotation',
    check: 'annotation_flags',
    says: 'Every annotation but a Popup has the F key',
    fault: (a) => (a.subtype === 'Popup' || a.flags !== null ? undefined : 'it has no flags (/F)'),
    fix: 'give the annotation flags (/F 4: printed, visible)',
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.3.2',
    test: 2,
    object: 'annotation',
    check: 'annotation_flags',
    says: 'An annotation with flags prints, and is not Hidden, Invisible, NoView or ToggleNoView',
    fault: (a) =>
      a.flags === null
        ? undefined
        : flagsFault(a.flags, [
            [FLAG_INVISIBLE, 'Invisible'],
            [FLAG_HIDDEN, 'Hidden'],
            [FLAG_NOVIEW, 'NoView'],
            [FLAG_TOGGLE_NOVIEW, 'ToggleNoView'],
          ]),
    fix: 'set the annotation’s Print flag and clear Hidden, Invisible, NoView and ToggleNoView',
  }),
];
export const reasons: Reason[] = [];
