import { seedPostgresRuns } from './seed-postgres.js';
const t = await seedPostgresRuns('postgres://postgres@127.0.0.1:55999/bench', 'big' + Date.now(), 500000);
console.log(t.tenantId, t.token);
