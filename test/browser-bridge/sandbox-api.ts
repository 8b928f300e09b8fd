/** The sandbox's own records, read through its dashboard JSON API (to check the till against). */
export type SandboxTransaction = {
  reference: string;
  clientReference: string | null;
  status: string;
  amount: string;
  fee: string;
  msisdn: string;
  network: string;
  environment: string;
};

export async function sandboxTransactions(baseUrl: string): Promise<SandboxTransaction[]> {
  const res = await fetch(new URL('/dashboard/api/transactions', baseUrl));
  if (!res.ok) throw new Error(`sandbox transactions: HTTP ${res.status}`);
  return ((await res.json()) as { data: SandboxTransaction[] }).data;
}

export async function revokeKey(baseUrl: string, publicKeyId: string): Promise<void> {
  const res = await fetch(new URL(`/dashboard/api/keys/${encodeURIComponent(publicKeyId)}/revoke`, baseUrl), {
    method: 'POST',
    headers: { 'x-sandbox-dashboard': '1' },
  });
  if (!res.ok) throw new Error(`sandbox revoke: HTTP ${res.status} ${await res.text()}`);
}
