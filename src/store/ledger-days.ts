/** A ledger filter's inclusive UTC days as the half-open range of `occurred_at` times, for every engine. */
export function dayStart(day: string): string {
  return `${day}T00:00:00.000Z`;
}

export function nextDayStart(day: string): string {
  const next = new Date(`${day}T00:00:00.000Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString();
}
