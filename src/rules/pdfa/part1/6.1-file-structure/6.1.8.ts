import { rule, type Reason, type Rule } from '../../../rule.js';
import { clauseTests, type Numbering } from '../../shared/numbering.js';
import type { IndirectObjectNode } from '../../../../pdf/model/file-structure.js';

const WHITE = /^[\0\t\n\f\r ]$/;

/** What is wrong with an indirect object's frame (ISO 19005-1 6.1.8, ISO 19005-2 6.1.9 ask the same). */
function frameFault(object: IndirectObjectNode): string | undefined {
  if (!WHITE.test(object.afterNumber))
    return `the object and generation numbers are separated by ${JSON.stringify(object.afterNumber)}`;
  if (!WHITE.test(object.afterGeneration))
    return `the generation number and obj are separated by ${JSON.stringify(object.afterGeneration)}`;
  if (!object.eolBeforeNumber) return 'the object number is not preceded by an end-of-line marker';
  if (!object.eolAfterObj) return 'the obj keyword is not followed by an end-of-line marker';
  if (object.eolBeforeEndobj === false) return 'the endobj keyword is not preceded by an end-of-line marker';
  if (object.eolAfterEndobj === false) return 'the endobj keyword is not followed by an end-of-line marker';
  return undefined;
}

/** The rule of an indirect object's frame, as each part numbers it. */
export const indirectObjectRule = (at: Numbering): Rule =>
  rule({
    ...at,
    object: 'indirect_object',
    check: 'object_syntax',
    says: 'An indirect object’s header has single white-space separators, and `N G obj` and `endobj` each stand on their own line',
    fault: frameFault,
    fix: 'save the file again with a PDF/A writer (it writes each object on lines of its own)',
  });

/** ISO 19005-1, 6.1.8 Indirect objects. */
export const rules: Rule[] = [indirectObjectRule(clauseTests(['ISO 19005-1'], '6.1.8')(1))];
export const reasons: Reason[] = [];
