import { readFileSync } from 'node:fs';

// The root package.json's version is the product version.
const rootPackage = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
export const APP_VERSION: string = rootPackage.version;
