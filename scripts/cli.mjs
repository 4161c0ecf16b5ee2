// `npm run cli -- <command>`: the admin CLI, built from source when needed.
import path from 'node:path';
import { ensureServerBuilt, root } from './build-state.mjs';

ensureServerBuilt();
await import(path.join(root, 'apps/server/dist/cli/main.js'));
