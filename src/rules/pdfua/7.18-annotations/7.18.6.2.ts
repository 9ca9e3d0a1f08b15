import { rule, type Reason, type Rule } from '../../rule.js';

/** ISO 14289-1, 7.18.6.2 Media clip data. */
export const rules: Rule[] = [
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.6.2',
    test: 1,
    object: 'media_clip',
    check: 'media_clips',
    says: 'A media clip data dictionary has /CT (its content type)',
    fault: (m) => (m.hasContentType ? undefined : 'it has no /CT'),
    fix: 'give the media clip its content type (/CT, a MIME type such as (video/mp4))',
  }),
  rule({
    specifications: ['ISO 14289-1'],
    clause: '7.18.6.2',
    test: 2,
    object: 'media_clip',
    check: 'media_clips',
    says: 'A media clip data dictionary has /Alt, pairs of a language and a text that is not empty',
    fault: (m) =>
      m.altIsLanguageTextPairs
        ? undefined
        : m.hasAlt
          ? 'its /Alt is not an array of language and text pairs, each text not empty'
          : 'it has no /Alt',
    fix: 'give the media clip an /Alt: an array of pairs, a language and a description of the clip, e.g. [(en-US) (A talk on ...)]',
  }),
];

export const reasons: Reason[] = [];
