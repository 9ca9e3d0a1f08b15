import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project root (where package.json is), whether running from src/ under tsx or from dist/. */
function findRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above the source tree');
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findRoot();
export const CONTRACT_PATH = path.join(PROJECT_ROOT, 'openapi.yaml');
export const DOCS_PATH = path.join(PROJECT_ROOT, 'dist', 'docs', 'index.html');
/** The contract without the admin operations: what the public listener serves (scripts/build-docs.mjs). */
export const PUBLIC_CONTRACT_PATH = path.join(PROJECT_ROOT, 'dist', 'openapi.public.yaml');
/** The admin listener's contract: its operations and health, under its own title (scripts/build-docs.mjs). */
export const ADMIN_CONTRACT_PATH = path.join(PROJECT_ROOT, 'dist', 'openapi.admin.yaml');
/** The admin contract's reference, served on the admin listener. */
export const ADMIN_DOCS_PATH = path.join(PROJECT_ROOT, 'dist', 'docs', 'admin.html');
