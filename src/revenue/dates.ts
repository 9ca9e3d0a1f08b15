/** UTC calendar arithmetic on YYYY-MM-DD strings. */

export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00.000Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return utcDay(date);
}

export function monthStart(day: string): string {
  return `${day.slice(0, 7)}-01`;
}

export function previousMonth(day: string): { first: string; last: string } {
  const first = new Date(`${monthStart(day)}T00:00:00.000Z`);
  const last = addDays(utcDay(first), -1);
  return { first: monthStart(last), last };
}

/** Every day from `from` to `to`, inclusive. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}
