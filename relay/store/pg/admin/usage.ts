/**
 * What the operator reads of a merchant's usage (`GET /admin/v1/merchants/<id>/usage`): per UTC day,
 * its deliveries, repeats, rejections by reason, tills connected and last delivery, as every
 * instance's UsageRecorder (usage-recorder.ts) wrote them.
 */
import type { UsageDay } from '../../index.js';
import type { Db } from '../transaction.js';

/** A merchant's usage per day, newest first, for the last `days` days (UTC). */
export async function merchantUsage(db: Db, merchantId: string, days = 30): Promise<UsageDay[]> {
  const { rows } = await db.query<{
    day: string;
    deliveries: string | null;
    duplicates: string | null;
    rejections: Record<string, number> | null;
    tills: string;
    last: Date | null;
  }>(
    `SELECT to_char(x.day, 'YYYY-MM-DD') AS day, d.deliveries, d.duplicates, d.rejections, d.last_delivery_at AS last,
       (SELECT count(*) FROM merchant_usage_tills t WHERE t.merchant_id = $1 AND t.day = x.day) AS tills
     FROM (SELECT day FROM merchant_usage_daily WHERE merchant_id = $1 UNION SELECT day FROM merchant_usage_tills WHERE merchant_id = $1) x
     LEFT JOIN merchant_usage_daily d ON d.merchant_id = $1 AND d.day = x.day
     WHERE x.day > (now() AT TIME ZONE 'UTC')::date - $2::int ORDER BY x.day DESC`,
    [merchantId, days],
  );
  return rows.map((r) => ({
    day: r.day,
    deliveries: Number(r.deliveries ?? 0),
    duplicates: Number(r.duplicates ?? 0),
    rejections: r.rejections ?? {},
    tillsConnected: Number(r.tills),
    lastDeliveryAt: r.last?.toISOString() ?? null,
  }));
}
