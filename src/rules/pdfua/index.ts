import type { Reason, Rule } from '../rule.js';
import * as ua_5 from './5-identification/5.js';
import * as ua_6_1 from './6-conformance/6.1.js';
import * as ua_6_2 from './6-conformance/6.2.js';
import * as ua_7_1_content from './7.1-general/7.1-content.js';
import * as ua_7_1_document from './7.1-general/7.1-document.js';
import * as ua_7_1_structure from './7.1-general/7.1-structure.js';
import * as ua_7_2_language from './7.2-text/7.2-language.js';
import * as ua_7_2_lists from './7.2-text/7.2-lists.js';
import * as ua_7_2_tables from './7.2-text/7.2-tables.js';
import * as ua_7_3 from './7.3-graphics/7.3.js';
import * as ua_7_4_2 from './7.4-headings/7.4.2.js';
import * as ua_7_4_4 from './7.4-headings/7.4.4.js';
import * as ua_7_5 from './7.5-tables/7.5.js';
import * as ua_7_7 from './7.7-math/7.7.js';
import * as ua_7_9 from './7.9-notes/7.9.js';
import * as ua_7_10 from './7.10-optional-content/7.10.js';
import * as ua_7_11 from './7.11-embedded-files/7.11.js';
import * as ua_7_15 from './7.15-xfa/7.15.js';
import * as ua_7_16 from './7.16-security/7.16.js';
import * as ua_7_18_1 from './7.18-annotations/7.18.1.js';
import * as ua_7_18_2 from './7.18-annotations/7.18.2.js';
import * as ua_7_18_3 from './7.18-annotations/7.18.3.js';
import * as ua_7_18_4 from './7.18-annotations/7.18.4.js';
import * as ua_7_18_5 from './7.18-annotations/7.18.5.js';
import * as ua_7_18_6_2 from './7.18-annotations/7.18.6.2.js';
import * as ua_7_18_8 from './7.18-annotations/7.18.8.js';
import * as ua_7_20 from './7.20-xobjects/7.20.js';
import * as ua_7_21_3_1 from './7.21-fonts/7.21.3.1.js';
import * as ua_7_21_3_2 from './7.21-fonts/7.21.3.2.js';
import * as ua_7_21_3_3 from './7.21-fonts/7.21.3.3.js';
import * as ua_7_21_4_1 from './7.21-fonts/7.21.4.1.js';
import * as ua_7_21_4_2 from './7.21-fonts/7.21.4.2.js';
import * as ua_7_21_5 from './7.21-fonts/7.21.5.js';
import * as ua_7_21_6 from './7.21-fonts/7.21.6.js';
import * as ua_7_21_7 from './7.21-fonts/7.21.7.js';
import * as ua_7_21_8 from './7.21-fonts/7.21.8.js';

/**
 * Every rule of ISO 14289-1 (PDF/UA-1) written here, one file per clause (a clause of many topics, such as 7.1
 * and 7.2, has a file per topic, named clause-topic).
 */
export const PDFUA_RULES: readonly Rule[] = [
  ...ua_5.rules,
  ...ua_6_1.rules,
  ...ua_6_2.rules,
  ...ua_7_1_content.rules,
  ...ua_7_1_document.rules,
  ...ua_7_1_structure.rules,
  ...ua_7_2_language.rules,
  ...ua_7_2_lists.rules,
  ...ua_7_2_tables.rules,
  ...ua_7_3.rules,
  ...ua_7_4_2.rules,
  ...ua_7_4_4.rules,
  ...ua_7_5.rules,
  ...ua_7_7.rules,
  ...ua_7_9.rules,
  ...ua_7_10.rules,
  ...ua_7_11.rules,
  ...ua_7_15.rules,
  ...ua_7_16.rules,
  ...ua_7_18_1.rules,
  ...ua_7_18_2.rules,
  ...ua_7_18_3.rules,
  ...ua_7_18_4.rules,
  ...ua_7_18_5.rules,
  ...ua_7_18_6_2.rules,
  ...ua_7_18_8.rules,
  ...ua_7_20.rules,
  ...ua_7_21_3_1.rules,
  ...ua_7_21_3_2.rules,
  ...ua_7_21_3_3.rules,
  ...ua_7_21_4_1.rules,
  ...ua_7_21_4_2.rules,
  ...ua_7_21_5.rules,
  ...ua_7_21_6.rules,
  ...ua_7_21_7.rules,
  ...ua_7_21_8.rules,
];

/** The published rules no rule here implements, each with why none is needed. */
export const PDFUA_REASONS: readonly Reason[] = [
  ...ua_5.reasons,
  ...ua_6_1.reasons,
  ...ua_6_2.reasons,
  ...ua_7_1_content.reasons,
  ...ua_7_1_document.reasons,
  ...ua_7_1_structure.reasons,
  ...ua_7_2_language.reasons,
  ...ua_7_2_lists.reasons,
  ...ua_7_2_tables.reasons,
  ...ua_7_3.reasons,
  ...ua_7_4_2.reasons,
  ...ua_7_4_4.reasons,
  ...ua_7_5.reasons,
  ...ua_7_7.reasons,
  ...ua_7_9.reasons,
  ...ua_7_10.reasons,
  ...ua_7_11.reasons,
  ...ua_7_15.reasons,
  ...ua_7_16.reasons,
  ...ua_7_18_1.reasons,
  ...ua_7_18_2.reasons,
  ...ua_7_18_3.reasons,
  ...ua_7_18_4.reasons,
  ...ua_7_18_5.reasons,
  ...ua_7_18_6_2.reasons,
  ...ua_7_18_8.reasons,
  ...ua_7_20.reasons,
  ...ua_7_21_3_1.reasons,
  ...ua_7_21_3_2.reasons,
  ...ua_7_21_3_3.reasons,
  ...ua_7_21_4_1.reasons,
  ...ua_7_21_4_2.reasons,
  ...ua_7_21_5.reasons,
  ...ua_7_21_6.reasons,
  ...ua_7_21_7.reasons,
  ...ua_7_21_8.reasons,
];
