import type { ContractDocument, VersionChange } from '../change.js';

type Schemas = Record<string, Record<string, unknown>>;

/** The Event's `data` before 2026-12-01: the object itself (as contract/versions/2026-11-29.yaml has it). */
const OBJECT_AS_DATA = {
  description:
    'The run (for `run.*`) or the upload (for `upload.completed`) as `GET` returned it at that moment.',
  anyOf: [{ $ref: '#/components/schemas/Run' }, { $ref: '#/components/schemas/Upload' }],
};

/**
 * 2026-12-01: an event carries its object under `data.object`, as Stripe's events do. Before, `data` was
 * the run or the upload itself: a generic consumer had to know each type to find the object, and `data`
 * had no room for anything about the change beside it (what Stripe calls `previous_attributes`).
 */
export const eventDataObject: VersionChange = {
  version: '2026-12-01',
  description:
    'An event carries its object under `data.object` (`{id, type, created_at, data: {object: <Run|Upload>}}`) ' +
    "instead of as `data` itself, as Stripe's events do: a generic consumer finds the object in one place " +
    'whatever the event type, and `data` has room for what else is told about the change later (such as ' +
    "the fields it changed, `previous_attributes`). It touches the events list, the event stream's `data:` " +
    "lines and webhook deliveries (rendered at their endpoint's version).",
  operations: ['listEvents', 'streamEvents', 'webhook'],
  downEvent(event) {
    const data = event.data as { object?: unknown } | undefined;
    return { ...event, data: data?.object };
  },
  downResponse(data, operationId) {
    if (operationId !== 'listEvents' || !Array.isArray(data)) return data;
    return data.map((event: Record<string, unknown>) => this.downEvent!(event));
  },
  downContract(document: ContractDocument) {
    const schemas = (document.components as { schemas?: Schemas } | undefined)?.schemas;
    // a contract without events (the admin listener's) has nothing to take down
    const event = schemas?.Event as { properties: Record<string, unknown> } | undefined;
    if (!schemas || !event) return;
    event.properties.data = structuredClone(OBJECT_AS_DATA);
    delete schemas.EventData;
  },
};
