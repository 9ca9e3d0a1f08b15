/** Outputs of one execution live under its queue entry, so a rerun never overwrites what a reader streams. */
export function outputKey(tenantId: string, runId: string, queueMessageId: string, name: string): string {
  return `runs/${tenantId}/${runId}/${queueMessageId}/${name}`;
}
