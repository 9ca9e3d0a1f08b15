/** What a file breaks of one clause of a part of ISO 19005 (PDF/A), in a sentence. */
export interface ClauseFinding {
  /** The part of ISO 19005 whose clause this is: 1 for PDF/A-1, 2 for PDF/A-2 and -3. */
  part: 1 | 2;
  clause: string;
  message: string;
}

/** What a file breaks of one clause of ISO 14289-1 (PDF/UA-1), in a sentence. */
export interface UaFinding {
  clause: string;
  message: string;
}
