// `npm run worker`: build the server if needed, then run background jobs only (no HTTP).
import path from 'node:path';
import { ensureServerBuilt, root } from './build-state.mjs';

ensureServerBuilt();
await import(path.join(root, 'apps/server/dist/worker.js'));
