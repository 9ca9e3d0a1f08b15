import type { DeviceNNode } from '../../../../pdf/model/color.js';
import { rule, type Reason, type Rule } from '../../../rule.js';

/** The colorant names that are no spot colour: the process colorants, and `None`. */
const NOT_SPOT = new Set(['Cyan', 'Magenta', 'Yellow', 'Black', 'None']);

const spotsWithoutEntry = (space: DeviceNNode): string[] =>
  space.colorants.filter(
    (name) =>
      !NOT_SPOT.has(name) &&
      !space.processComponents.includes(name) &&
      !(space.colorantsEntries ?? []).includes(name),
  );

/** ISO 19005-2 and -3, 6.2.4.4 Separation and DeviceN colour spaces. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.4',
    test: 1,
    object: 'deviceN',
    check: 'spot_colors',
    says: "Every spot colour of a DeviceN or NChannel colour space has an entry in its attributes' /Colorants dictionary",
    fault: (space) => {
      const missing = spotsWithoutEntry(space);
      return missing.length > 0
        ? `the spot colour${missing.length > 1 ? 's' : ''} ${missing.slice(0, 4).join(', ')} without a /Colorants entry`
        : undefined;
    },
    fix: "add to the DeviceN colour space's attributes a /Colorants dictionary with a Separation colour space for each spot colour",
  }),
  rule({
    specifications: ['ISO 19005-2', 'ISO 19005-3'],
    clause: '6.2.4.4',
    test: 2,
    object: 'separation',
    check: 'spot_colors',
    says: 'All Separation colour spaces of the same colorant name have the same alternate space and tint transform',
    fault: (separation) =>
      separation.differsFrom !== undefined
        ? `a Separation /${separation.colorant} whose ${separation.differences.join(' and ')} ${separation.differences.length > 1 ? 'differ' : 'differs'} from the one at ${separation.differsFrom}`
        : undefined,
    fix: 'give every Separation colour space of one colorant name the same alternate space and tint transform',
  }),
];
export const reasons: Reason[] = [];
