import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRelayDatabase, EventLog, GroupCommitter } from '../../../../../relay/store/sqlite/index.js';
import { CommitError, type ApplyOutcome, type CommitWaiter, type Delivery } from '../../../../../relay/store/index.js';

/** Promise form of `enqueue`, for the tests (the receiver is itself each delivery's waiter). */
function submit(committer: GroupCommitter, delivery: Delivery): Promise<ApplyOutcome> {
  return new Promise<ApplyOutcome>((resolve, reject) => {
    const waiter: CommitWaiter = { settle: (err, outcome) => (err ? reject(err) : resolve(outcome as ApplyOutcome)) };
    committer.enqueue(delivery, waiter);
  });
}

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fresh relay database in a temp folder (removed after the test), and its committer reporting to `onCommit`. */
function committerIn(onCommit: ConstructorParameters<typeof GroupCommitter>[0]['onCommit']): { dir: string; committer: GroupCommitter } {
  const dir = mkdtempSync(join(tmpdir(), 'relay-gc-'));
  dirs.push(dir);
  openRelayDatabase(dir).close();
  const committer = new GroupCommitter({ dataDir: dir, busyTimeoutMs: 1000, maxBatch: 512, windowMs: 0, log: () => {}, onCommit });
  return { dir, committer };
}

function delivery(reference: string): Delivery {
  return {
    reference,
    clientReference: null,
    environment: 'test',
    keyId: 'pk_test_Unit00001',
    receivedAt: '2026-11-21T10:00:00.000Z',
    webhookCreatedAt: '2026-11-21T10:00:00.000Z',
    transactionJson: JSON.stringify({ reference, status: 'SUCCESS' }),
    timestamp: 1,
    arrivedAt: 0,
  };
}

describe('group commit', () => {
  it('commits concurrent deliveries together, answers each only after the commit, keeps the sequence gap-free', async () => {
    const commits: number[] = [];
    const seenAtCommit: string[] = [];
    const { dir, committer } = committerIn((outcomes, size) => {
      if (size > 0) commits.push(size);
      for (const o of outcomes) seenAtCommit.push(o.delivery.reference);
    });

    const refs = Array.from({ length: 200 }, (_, i) => `G${i}`);
    const resolvedBeforeCommit: string[] = [];
    const outcomes = await Promise.all(
      [...refs, 'G5', 'G6'].map((r) =>
        submit(committer, delivery(r)).then((o: ApplyOutcome) => {
          if (!seenAtCommit.includes(r)) resolvedBeforeCommit.push(r);
          return o;
        }),
      ),
    );
    expect(resolvedBeforeCommit).toEqual([]);
    expect(commits.reduce((a, b) => a + b, 0)).toBe(202);
    expect(commits.length).toBeLessThan(10);
    const accepted = outcomes.filter((o) => o.kind === 'accepted');
    expect(accepted.map((o) => (o.kind === 'accepted' ? o.seq : 0)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 200 }, (_, i) => i + 1),
    );
    expect(outcomes.slice(200).map((o) => o.kind)).toEqual(['duplicate', 'duplicate']);
    await committer.close();

    // What was acknowledged is on disk, read by a fresh connection.
    const db = openRelayDatabase(dir);
    expect(new EventLog(db).lastSeq()).toBe(200);
    db.close();
    await expect(submit(committer, delivery('late'))).rejects.toThrow(/shutting down/);
  });

  it('a group that fails on one delivery is committed one by one: that one fails (its own row: not instance-wide, so 500), the rest are stored once, summary included', async () => {
    const commits: number[] = [];
    const { dir, committer } = committerIn((_outcomes, size) => commits.push(size));
    const sale = (reference: string): Delivery => ({
      ...delivery(reference),
      environment: 'live',
      transactionJson: JSON.stringify({ reference, status: 'SUCCESS', amount: '10.00', fee: '0.20', net: '9.80' }),
      receivedAt: '2026-11-21T10:00:00.000Z',
    });
    // An environment the table's CHECK refuses: the group's transaction rolls back as a whole.
    const broken = { ...sale('BAD'), environment: 'nope' } as unknown as Delivery;
    const settled = await Promise.allSettled(['S1', 'S2', 'BAD', 'S3'].map((r) => submit(committer, r === 'BAD' ? broken : sale(r))));
    await committer.close();

    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect((settled[2] as PromiseRejectedResult).reason).toBeInstanceOf(CommitError);
    expect(((settled[2] as PromiseRejectedResult).reason as CommitError).instanceWide).toBe(false);
    expect(settled.flatMap((s) => (s.status === 'fulfilled' && s.value.kind === 'accepted' ? [s.value.seq] : []))).toEqual([1, 2, 3]);
    // Committed one by one after the group rolled back, announced together before any is answered.
    expect(commits).toEqual([3]);
    const db = openRelayDatabase(dir);
    expect(db.prepare('SELECT count(*) AS n FROM events').get()).toEqual({ n: 3 });
    expect(db.prepare('SELECT succeeded, gross, fees, net FROM owner_hourly').all()).toEqual([
      { succeeded: 3, gross: 3000, fees: 60, net: 2940 },
    ]);
    db.close();
  });
});
