// Preloaded (--require) into a process by startup-modules.int.test.ts: when the process exits, one
// line on stdout names every CommonJS module it loaded (require.cache).
process.on('exit', () => {
  process.stdout.write(`\nREQUIRED ${JSON.stringify(Object.keys(require.cache))}\n`);
});
