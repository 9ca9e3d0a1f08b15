/** UTC calendar arithmetic on YYYY-MM-DD strings. */

export function utcDay(date: Date): string {
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  return `${date.getUTCFullYear()}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
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
  const date = new Date(`${from}T00:00:00.000Z`);
  for (let day = from; day <= to; day = utcDay(date)) {
    days.push(day);
    date.setUTCDate(date.getUTCDate() + 1);
  }
  return days;
}
