/** What a file breaks of one clause of ISO 14289-1 (PDF/UA-1), in a sentence. */
export interface UaFinding {
  clause: string;
  message: string;
}
