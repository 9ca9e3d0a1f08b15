/** A source of "now", so that rules about expiry and calendar days can be tested at chosen instants. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
