/*
 * The admin CLI's process (`npm run cli -- <command> [flags]`): the command
 * line of run-cli.ts on this process's stdout and stderr, its exit code.
 */
import { runCli } from './run-cli.js';

runCli(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) }).then(
  (code) => process.exit(code),
  (err) => {
    console.error(`Error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  },
);
