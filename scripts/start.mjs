// `npm start`: build what is missing, then run the server (API + SPA + workers, embedded PostgreSQL).
import path from 'node:path';
import { ensureServerBuilt, ensureWebBuilt, root } from './build-state.mjs';

ensureServerBuilt();
ensureWebBuilt();
await import(path.join(root, 'apps/server/dist/main.js'));
