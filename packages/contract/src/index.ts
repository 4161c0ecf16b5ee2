export * from './auth.js';
export * from './constants.js';
export * from './contact.js';
export * from './errors.js';
export * from './roles.js';
export * from './routes.js';
