/**
 * Runs a bench's main and ends the process: 0 once it resolved, 1 with the error on stderr (the figures stay alone on
 * stdout). It exits either way, since a bench's servers, pools or child processes would otherwise keep it alive.
 */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
}
