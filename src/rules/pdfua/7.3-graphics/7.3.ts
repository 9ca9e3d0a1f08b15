import type { StructElementNode } from '../../../pdf/model/structure.js';
import { rule, type Reason, type Rule } from '../../rule.js';

/**
 * An element of standard type `type` with neither alternate text (/Alt, not empty) nor replacement text
 * (/ActualText, which may be empty: the element then stands for no text at all). ISO 32000-1 14.9.3, 14.9.4.
 */
export const undescribedFault =
  (type: string) =>
  (node: StructElementNode): string | undefined => {
    if (node.element.standardType !== type) return undefined;
    if (node.actualText !== undefined || (node.alt !== undefined && node.alt !== '')) return undefined;
    if (node.alt === '') return 'its /Alt is empty and it has no /ActualText';
    return node.element.dict.has('Alt')
      ? 'its /Alt is not a text string and it has no /ActualText'
      : 'it has neither /Alt nor /ActualText';
  };

/** ISO 14289-1, 7.3 Graphics. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.3',
    test: 1,
    object: 'struct_element',
    check: 'figures_alt_text',
    says: 'A Figure element has alternate text (/Alt) or replacement text (/ActualText)',
    fault: undescribedFault('Figure'),
    fix: 'give the Figure an /Alt that says what the picture shows or means (or /ActualText when it is a picture of text)',
  }),
];

export const reasons: Reason[] = [];
