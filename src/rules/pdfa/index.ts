import type { Reason, Rule } from '../rule.js';
import * as part1_6_1_2 from './part1/6.1-file-structure/6.1.2.js';
import * as part1_6_1_3 from './part1/6.1-file-structure/6.1.3.js';
import * as part1_6_1_4 from './part1/6.1-file-structure/6.1.4.js';
import * as part1_6_1_6 from './part1/6.1-file-structure/6.1.6.js';
import * as part1_6_1_7 from './part1/6.1-file-structure/6.1.7.js';
import * as part1_6_1_8 from './part1/6.1-file-structure/6.1.8.js';
import * as part1_6_1_10 from './part1/6.1-file-structure/6.1.10.js';
import * as part1_6_1_11 from './part1/6.1-file-structure/6.1.11.js';
import * as part1_6_1_12 from './part1/6.1-file-structure/6.1.12.js';
import * as part1_6_1_12_9 from './part1/6.1-file-structure/6.1.12-9.js';
import * as part1_6_1_12_10 from './part1/6.1-file-structure/6.1.12-10.js';
import * as part1_6_1_13 from './part1/6.1-file-structure/6.1.13.js';
import * as part1_6_2_2 from './part1/6.2-graphics/6.2.2.js';
import * as part1_6_2_3_2 from './part1/6.2-graphics/6.2.3.2.js';
import * as part1_6_2_3_3 from './part1/6.2-graphics/6.2.3.3.js';
import * as part1_6_2_4 from './part1/6.2-graphics/6.2.4.js';
import * as part1_6_2_5 from './part1/6.2-graphics/6.2.5.js';
import * as part1_6_2_6 from './part1/6.2-graphics/6.2.6.js';
import * as part1_6_2_7 from './part1/6.2-graphics/6.2.7.js';
import * as part1_6_2_8 from './part1/6.2-graphics/6.2.8.js';
import * as part1_6_2_9 from './part1/6.2-graphics/6.2.9.js';
import * as part1_6_2_10 from './part1/6.2-graphics/6.2.10.js';
import * as part1_6_3_2 from './part1/6.3-fonts/6.3.2.js';
import * as part1_6_3_3_1 from './part1/6.3-fonts/6.3.3.1.js';
import * as part1_6_3_3_2 from './part1/6.3-fonts/6.3.3.2.js';
import * as part1_6_3_3_3 from './part1/6.3-fonts/6.3.3.3.js';
import * as part1_6_3_4 from './part1/6.3-fonts/6.3.4.js';
import * as part1_6_3_5 from './part1/6.3-fonts/6.3.5.js';
import * as part1_6_3_6 from './part1/6.3-fonts/6.3.6.js';
import * as part1_6_3_7 from './part1/6.3-fonts/6.3.7.js';
import * as part1_6_4 from './part1/6.4-transparency/6.4.js';
import * as part1_6_5_2 from './part1/6.5-annotations/6.5.2.js';
import * as part1_6_5_3 from './part1/6.5-annotations/6.5.3.js';
import * as part1_6_6_1 from './part1/6.6-actions/6.6.1.js';
import * as part1_6_6_2 from './part1/6.6-actions/6.6.2.js';
import * as part1_6_7_2 from './part1/6.7-metadata/6.7.2.js';
import * as part1_6_7_3 from './part1/6.7-metadata/6.7.3.js';
import * as part1_6_7_5 from './part1/6.7-metadata/6.7.5.js';
import * as part1_6_7_8 from './part1/6.7-metadata/6.7.8.js';
import * as part1_6_7_9 from './part1/6.7-metadata/6.7.9.js';
import * as part1_6_7_11 from './part1/6.7-metadata/6.7.11.js';
import * as part1_6_9 from './part1/6.9-forms/6.9.js';
import * as part2_6_1_2 from './part2/6.1-file-structure/6.1.2.js';
import * as part2_6_1_3 from './part2/6.1-file-structure/6.1.3.js';
import * as part2_6_1_4 from './part2/6.1-file-structure/6.1.4.js';
import * as part2_6_1_6 from './part2/6.1-file-structure/6.1.6.js';
import * as part2_6_1_7_1 from './part2/6.1-file-structure/6.1.7.1.js';
import * as part2_6_1_7_2 from './part2/6.1-file-structure/6.1.7.2.js';
import * as part2_6_1_8 from './part2/6.1-file-structure/6.1.8.js';
import * as part2_6_1_9 from './part2/6.1-file-structure/6.1.9.js';
import * as part2_6_1_10 from './part2/6.1-file-structure/6.1.10.js';
import * as part2_6_1_12 from './part2/6.1-file-structure/6.1.12.js';
import * as part2_6_1_13 from './part2/6.1-file-structure/6.1.13.js';
import * as part2_6_1_13_9 from './part2/6.1-file-structure/6.1.13-9.js';
import * as part2_6_1_13_10 from './part2/6.1-file-structure/6.1.13-10.js';
import * as part2_6_2_2 from './part2/6.2-graphics/6.2.2.js';
import * as part2_6_2_3 from './part2/6.2-graphics/6.2.3.js';
import * as part2_6_2_4_2 from './part2/6.2-graphics/6.2.4.2.js';
import * as part2_6_2_4_3 from './part2/6.2-graphics/6.2.4.3.js';
import * as part2_6_2_4_4 from './part2/6.2-graphics/6.2.4.4.js';
import * as part2_6_2_5 from './part2/6.2-graphics/6.2.5.js';
import * as part2_6_2_6 from './part2/6.2-graphics/6.2.6.js';
import * as part2_6_2_8 from './part2/6.2-graphics/6.2.8.js';
import * as part2_6_2_8_3 from './part2/6.2-graphics/6.2.8.3.js';
import * as part2_6_2_9 from './part2/6.2-graphics/6.2.9.js';
import * as part2_6_2_10 from './part2/6.2-graphics/6.2.10.js';
import * as part2_6_2_11_2 from './part2/6.2.11-fonts/6.2.11.2.js';
import * as part2_6_2_11_3_1 from './part2/6.2.11-fonts/6.2.11.3.1.js';
import * as part2_6_2_11_3_2 from './part2/6.2.11-fonts/6.2.11.3.2.js';
import * as part2_6_2_11_3_3 from './part2/6.2.11-fonts/6.2.11.3.3.js';
import * as part2_6_2_11_4_1 from './part2/6.2.11-fonts/6.2.11.4.1.js';
import * as part2_6_2_11_4_2 from './part2/6.2.11-fonts/6.2.11.4.2.js';
import * as part2_6_2_11_5 from './part2/6.2.11-fonts/6.2.11.5.js';
import * as part2_6_2_11_6 from './part2/6.2.11-fonts/6.2.11.6.js';
import * as part2_6_2_11_8 from './part2/6.2.11-fonts/6.2.11.8.js';
import * as part2_6_3_1 from './part2/6.3-annotations/6.3.1.js';
import * as part2_6_3_2 from './part2/6.3-annotations/6.3.2.js';
import * as part2_6_3_3 from './part2/6.3-annotations/6.3.3.js';
import * as part2_6_4_1 from './part2/6.4-forms/6.4.1.js';
import * as part2_6_4_2 from './part2/6.4-forms/6.4.2.js';
import * as part2_6_4_3 from './part2/6.4-forms/6.4.3.js';
import * as part2_6_5_1 from './part2/6.5-actions/6.5.1.js';
import * as part2_6_5_2 from './part2/6.5-actions/6.5.2.js';
import * as part2_6_6_2_1 from './part2/6.6-metadata/6.6.2.1.js';
import * as part2_6_6_2_3_1 from './part2/6.6-metadata/6.6.2.3.1.js';
import * as part2_6_6_2_3_2 from './part2/6.6-metadata/6.6.2.3.2.js';
import * as part2_6_6_2_3_3 from './part2/6.6-metadata/6.6.2.3.3.js';
import * as part2_6_6_4 from './part2/6.6-metadata/6.6.4.js';
import * as part2_6_8 from './part2/6.8-embedded-files/6.8.js';
import * as part2_6_9 from './part2/6.9-optional-content/6.9.js';
import * as part2_6_10 from './part2/6.10-alternate-presentations/6.10.js';
import * as part2_6_11 from './part2/6.11-document-requirements/6.11.js';
import * as part3_6_8 from './part3/6.8-embedded-files/6.8.js';

/**
 * Every rule of ISO 19005 written here, one file per clause (a rule that another family's model reads has a file
 * of its own, named by its id): `part1/` ISO 19005-1, `part2/` the rules ISO 19005-2 and -3 share, `part3/`
 * ISO 19005-3's own.
 */
export const PDFA_RULES: readonly Rule[] = [
  ...part1_6_1_2.rules,
  ...part1_6_1_3.rules,
  ...part1_6_1_4.rules,
  ...part1_6_1_6.rules,
  ...part1_6_1_7.rules,
  ...part1_6_1_8.rules,
  ...part1_6_1_10.rules,
  ...part1_6_1_11.rules,
  ...part1_6_1_12.rules,
  ...part1_6_1_12_9.rules,
  ...part1_6_1_12_10.rules,
  ...part1_6_1_13.rules,
  ...part1_6_2_2.rules,
  ...part1_6_2_3_2.rules,
  ...part1_6_2_3_3.rules,
  ...part1_6_2_4.rules,
  ...part1_6_2_5.rules,
  ...part1_6_2_6.rules,
  ...part1_6_2_7.rules,
  ...part1_6_2_8.rules,
  ...part1_6_2_9.rules,
  ...part1_6_2_10.rules,
  ...part1_6_3_2.rules,
  ...part1_6_3_3_1.rules,
  ...part1_6_3_3_2.rules,
  ...part1_6_3_3_3.rules,
  ...part1_6_3_4.rules,
  ...part1_6_3_5.rules,
  ...part1_6_3_6.rules,
  ...part1_6_3_7.rules,
  ...part1_6_4.rules,
  ...part1_6_5_2.rules,
  ...part1_6_5_3.rules,
  ...part1_6_6_1.rules,
  ...part1_6_6_2.rules,
  ...part1_6_7_2.rules,
  ...part1_6_7_3.rules,
  ...part1_6_7_5.rules,
  ...part1_6_7_8.rules,
  ...part1_6_7_9.rules,
  ...part1_6_7_11.rules,
  ...part1_6_9.rules,
  ...part2_6_1_2.rules,
  ...part2_6_1_3.rules,
  ...part2_6_1_4.rules,
  ...part2_6_1_6.rules,
  ...part2_6_1_7_1.rules,
  ...part2_6_1_7_2.rules,
  ...part2_6_1_8.rules,
  ...part2_6_1_9.rules,
  ...part2_6_1_10.rules,
  ...part2_6_1_12.rules,
  ...part2_6_1_13.rules,
  ...part2_6_1_13_9.rules,
  ...part2_6_1_13_10.rules,
  ...part2_6_2_2.rules,
  ...part2_6_2_3.rules,
  ...part2_6_2_4_2.rules,
  ...part2_6_2_4_3.rules,
  ...part2_6_2_4_4.rules,
  ...part2_6_2_5.rules,
  ...part2_6_2_6.rules,
  ...part2_6_2_8.rules,
  ...part2_6_2_8_3.rules,
  ...part2_6_2_9.rules,
  ...part2_6_2_10.rules,
  ...part2_6_2_11_2.rules,
  ...part2_6_2_11_3_1.rules,
  ...part2_6_2_11_3_2.rules,
  ...part2_6_2_11_3_3.rules,
  ...part2_6_2_11_4_1.rules,
  ...part2_6_2_11_4_2.rules,
  ...part2_6_2_11_5.rules,
  ...part2_6_2_11_6.rules,
  ...part2_6_2_11_8.rules,
  ...part2_6_3_1.rules,
  ...part2_6_3_2.rules,
  ...part2_6_3_3.rules,
  ...part2_6_4_1.rules,
  ...part2_6_4_2.rules,
  ...part2_6_4_3.rules,
  ...part2_6_5_1.rules,
  ...part2_6_5_2.rules,
  ...part2_6_6_2_1.rules,
  ...part2_6_6_2_3_1.rules,
  ...part2_6_6_2_3_2.rules,
  ...part2_6_6_2_3_3.rules,
  ...part2_6_6_4.rules,
  ...part2_6_8.rules,
  ...part2_6_9.rules,
  ...part2_6_10.rules,
  ...part2_6_11.rules,
  ...part3_6_8.rules,
];

/** The published rules no rule here implements, each with why none is needed. */
export const PDFA_REASONS: readonly Reason[] = [
  ...part1_6_1_2.reasons,
  ...part1_6_1_3.reasons,
  ...part1_6_1_4.reasons,
  ...part1_6_1_6.reasons,
  ...part1_6_1_7.reasons,
  ...part1_6_1_8.reasons,
  ...part1_6_1_10.reasons,
  ...part1_6_1_11.reasons,
  ...part1_6_1_12.reasons,
  ...part1_6_1_12_9.reasons,
  ...part1_6_1_12_10.reasons,
  ...part1_6_1_13.reasons,
  ...part1_6_2_2.reasons,
  ...part1_6_2_3_2.reasons,
  ...part1_6_2_3_3.reasons,
  ...part1_6_2_4.reasons,
  ...part1_6_2_5.reasons,
  ...part1_6_2_6.reasons,
  ...part1_6_2_7.reasons,
  ...part1_6_2_8.reasons,
  ...part1_6_2_9.reasons,
  ...part1_6_2_10.reasons,
  ...part1_6_3_2.reasons,
  ...part1_6_3_3_1.reasons,
  ...part1_6_3_3_2.reasons,
  ...part1_6_3_3_3.reasons,
  ...part1_6_3_4.reasons,
  ...part1_6_3_5.reasons,
  ...part1_6_3_6.reasons,
  ...part1_6_3_7.reasons,
  ...part1_6_4.reasons,
  ...part1_6_5_2.reasons,
  ...part1_6_5_3.reasons,
  ...part1_6_6_1.reasons,
  ...part1_6_6_2.reasons,
  ...part1_6_7_2.reasons,
  ...part1_6_7_3.reasons,
  ...part1_6_7_5.reasons,
  ...part1_6_7_8.reasons,
  ...part1_6_7_9.reasons,
  ...part1_6_7_11.reasons,
  ...part1_6_9.reasons,
  ...part2_6_1_2.reasons,
  ...part2_6_1_3.reasons,
  ...part2_6_1_4.reasons,
  ...part2_6_1_6.reasons,
  ...part2_6_1_7_1.reasons,
  ...part2_6_1_7_2.reasons,
  ...part2_6_1_8.reasons,
  ...part2_6_1_9.reasons,
  ...part2_6_1_10.reasons,
  ...part2_6_1_12.reasons,
  ...part2_6_1_13.reasons,
  ...part2_6_1_13_9.reasons,
  ...part2_6_1_13_10.reasons,
  ...part2_6_2_2.reasons,
  ...part2_6_2_3.reasons,
  ...part2_6_2_4_2.reasons,
  ...part2_6_2_4_3.reasons,
  ...part2_6_2_4_4.reasons,
  ...part2_6_2_5.reasons,
  ...part2_6_2_6.reasons,
  ...part2_6_2_8.reasons,
  ...part2_6_2_8_3.reasons,
  ...part2_6_2_9.reasons,
  ...part2_6_2_10.reasons,
  ...part2_6_2_11_2.reasons,
  ...part2_6_2_11_3_1.reasons,
  ...part2_6_2_11_3_2.reasons,
  ...part2_6_2_11_3_3.reasons,
  ...part2_6_2_11_4_1.reasons,
  ...part2_6_2_11_4_2.reasons,
  ...part2_6_2_11_5.reasons,
  ...part2_6_2_11_6.reasons,
  ...part2_6_2_11_8.reasons,
  ...part2_6_3_1.reasons,
  ...part2_6_3_2.reasons,
  ...part2_6_3_3.reasons,
  ...part2_6_4_1.reasons,
  ...part2_6_4_2.reasons,
  ...part2_6_4_3.reasons,
  ...part2_6_5_1.reasons,
  ...part2_6_5_2.reasons,
  ...part2_6_6_2_1.reasons,
  ...part2_6_6_2_3_1.reasons,
  ...part2_6_6_2_3_2.reasons,
  ...part2_6_6_2_3_3.reasons,
  ...part2_6_6_4.reasons,
  ...part2_6_8.reasons,
  ...part2_6_9.reasons,
  ...part2_6_10.reasons,
  ...part2_6_11.reasons,
  ...part3_6_8.reasons,
];
