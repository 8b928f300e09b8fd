/**
 * `npm run sandbox` / `npm run relay` run the server under `sh -c`; npm forwards SIGTERM to that shell,
 * which exits without passing it on, leaving the server orphaned and still holding its port and
 * database. A server started that way calls this: when its parent process goes away (the ppid
 * changes), it stops exactly as on SIGTERM. A server run directly by systemd/a container (ppid 1 from
 * the start) is unaffected.
 *
 * The parent is read when this module loads, before the server starts: a parent that dies during the
 * start-up (npm stopped right after the ready line, on a loaded machine) is noticed too, rather than
 * the orphan taking ppid 1 for "run by systemd".
 */
const PARENT_AT_START = process.ppid;

export function stopWithParent(stop: (reason: string) => void, intervalMs = 500): () => void {
  if (PARENT_AT_START <= 1) return () => undefined;
  let stopped = false;
  const check = () => {
    if (stopped || process.ppid === PARENT_AT_START) return;
    stopped = true;
    clearInterval(timer);
    stop('parent-exited');
  };
  const timer = setInterval(check, intervalMs);
  timer.unref();
  setImmediate(check); // already gone during the start-up
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
