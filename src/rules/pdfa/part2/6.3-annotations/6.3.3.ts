import type { AnnotationNode } from '../../../../pdf/model/interactive.js';
import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type ClauseTests } from '../../shared/numbering.js';

/** An appearance dictionary with keys other than N (the normal appearance). */
function onlyNormalFault(a: AnnotationNode): string | undefined {
  if (a.appearanceKeys === null) return undefined;
  if (a.appearanceKeys.length === 1 && a.appearanceKeys[0] === 'N') return undefined;
  return a.appearanceKeys.length === 0
    ? 'its appearance dictionary is empty'
    : `its appearance dictionary has /${a.appearanceKeys.join(', /')}`;
}

const isButtonWidget = (a: AnnotationNode) => a.subtype === 'Widget' && a.fieldType === 'Btn';

/** A button widget's normal appearance that is not a subdictionary of appearance streams. */
function buttonAppearanceFault(a: AnnotationNode): string | undefined {
  if (!isButtonWidget(a) || a.normalAppearance === null) return undefined;
  if (a.normalAppearance !== 'dictionary')
    return `its normal appearance is ${describe(a)}, not a subdictionary`;
  return a.normalAppearanceStates > 0
    ? undefined
    : 'its normal appearance subdictionary holds no appearance stream';
}

/** Any other annotation's normal appearance that is not a stream. */
function streamAppearanceFault(a: AnnotationNode): string | undefined {
  if (isButtonWidget(a) || a.normalAppearance === null || a.normalAppearance === 'stream') return undefined;
  return `its normal appearance is ${describe(a)}, not a stream`;
}

const describe = (a: AnnotationNode) =>
  a.normalAppearance === 'dictionary'
    ? 'a subdictionary'
    : a.normalAppearance === 'stream'
      ? 'a stream'
      : 'neither a stream nor a dictionary';

/** The rules of the appearance dictionary's keys and the normal appearance's form, numbered from `firstTest`. */
export const appearanceRules = (at: ClauseTests, firstTest: number): Rule[] => [
  rule({
    ...at(firstTest),
    object: 'annotation',
    check: 'annotation_appearances',
    says: 'An appearance dictionary contains only the N key',
    fault: onlyNormalFault,
    fix: 'keep only the normal appearance (/N) of the annotation: remove its rollover (/R) and down (/D) ones',
  }),
  rule({
    ...at(firstTest + 1),
    object: 'annotation',
    check: 'annotation_appearances',
    says: "A button widget's normal appearance is a subdictionary of appearance states",
    fault: buttonAppearanceFault,
    fix: 'give the button a normal appearance subdictionary with a stream per state (/AP << /N << /Off ... /On ... >> >>)',
  }),
  rule({
    ...at(firstTest + 2),
    object: 'annotation',
    check: 'annotation_appearances',
    says: "Any other annotation's normal appearance is an appearance stream",
    fault: streamAppearanceFault,
    fix: 'make the annotation’s normal appearance (/AP /N) one appearance stream',
  }),
];

/** ISO 19005-2 and -3, 6.3.3 Annotation appearances. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.3.3',
    test: 1,
    object: 'annotation',
    check: 'annotation_appearances',
    says: 'Every annotation has an appearance dictionary, but Popup and Link ones and those of a zero-size Rect',
    fault: (a) =>
      a.appearanceKeys !== null ||
      a.subtype === 'Popup' ||
      a.subtype === 'Link' ||
      (a.width === 0 && a.height === 0)
        ? undefined
        : 'it has no appearance dictionary (/AP)',
    fix: 'give the annotation an appearance stream (/AP /N), so that it looks the same everywhere',
  }),
  ...appearanceRules(clauseTests(['ISO 19005-2', 'ISO 19005-3'], '6.3.3'), 2),
];
export const reasons: Reason[] = [];
