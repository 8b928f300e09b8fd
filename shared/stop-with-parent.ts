/**
 * `npm run sandbox` / `npm run relay` run the server under `sh -c`; npm forwards SIGTERM to that shell,
 * which exits without passing it on, leaving the server orphaned and still holding its port and
 * database. A server started that way calls this: when its parent process goes away (the ppid
 * changes), it stops exactly as on SIGTERM. A server run directly by systemd/a container (ppid 1 from
 * the start) is unaffected.
 */
export function stopWithParent(stop: (reason: string) => void, intervalMs = 500): () => void {
  const parent = process.ppid;
  if (parent <= 1) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer);
      stop('parent-exited');
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
