/** The store's guard: every repository method's engine failure becomes what the engine's translator says. */
import { describe, expect, it } from 'vitest';
import { guardRepo } from '../../src/store/guard.js';
import { StoreUnavailableError } from '../../src/store/types.js';

class Busy extends Error {}
const translate = (error: unknown) =>
  error instanceof Busy ? new StoreUnavailableError('the database is unavailable', error) : error;

class Repo {
  readonly label = 'repo';
  calls = 0;
  async read(id: string): Promise<string> {
    this.calls++;
    if (id === 'busy') throw new Busy('SQLITE_BUSY');
    if (id === 'bad') throw new TypeError('a bug, not the engine');
    return `row ${id}`;
  }
  write(id: string): number {
    if (id === 'busy') throw new Busy('SQLITE_BUSY');
    return this.calls;
  }
}

describe('the store guard', () => {
  it("guards a class's methods (async and not), keeps `this` and fields, and passes other errors through", async () => {
    const repo = new Repo();
    const guarded = guardRepo(repo, translate);
    expect(await guarded.read('1')).toBe('row 1');
    expect(guarded.write('1')).toBe(1);
    expect(guarded.label).toBe('repo');
    const failure = await guarded.read('busy').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect((failure as Error).cause).toBeInstanceOf(Busy);
    expect(() => guarded.write('busy')).toThrow(StoreUnavailableError);
    await expect(guarded.read('bad')).rejects.toThrow(TypeError);
    expect(repo.calls).toBe(3);
    expect(guarded.read).toBe(guarded.read);
  });
});
