import { useState } from 'react';
import { useWorkspace } from '../context';
import { Failure } from '../ui';

const KINDS = [
  { kind: 'payments', label: 'Export payments' },
  { kind: 'refunds', label: 'Export refunds' },
  { kind: 'invoices', label: 'Export invoices' },
] as const;

const today = (): string => new Date().toISOString().slice(0, 10);
const monthAgo = (): string => new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);

/** Saves the text as a file through a temporary link (the browser's own download). */
function save(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/** CSV files for the finance team: payments, refunds or invoices created between two days (both included). */
export function ExportPanel() {
  const { api, membership, environment } = useWorkspace();
  const [from, setFrom] = useState(monthAgo);
  const [to, setTo] = useState(today);
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<unknown>();
  const download = async (kind: (typeof KINDS)[number]['kind']) => {
    setBusy(kind);
    setError(undefined);
    try {
      const end = new Date(`${to}T00:00:00Z`);
      end.setUTCDate(end.getUTCDate() + 1);
      const query = { createdFrom: new Date(`${from}T00:00:00Z`).toISOString(), createdTo: end.toISOString() };
      const r = await api.GET('/v1/export/{kind}', { params: { path: { kind }, query }, parseAs: 'text' });
      if (r.error !== undefined || typeof r.data !== 'string') {
        const message = (r.error as { error?: { message?: string } } | undefined)?.error?.message;
        throw new Error(message ?? `The export failed (HTTP ${r.response.status})`);
      }
      save(`${membership.merchantCode}-${environment}-${kind}-${from}-${to}.csv`, r.data);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(undefined);
    }
  };
  return (
    <section aria-label="Export">
      <h2>Export as CSV</h2>
      <div className="filters">
        <label>
          Export from <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        </label>
        <label>
          Export to <input type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        </label>
        {KINDS.map(({ kind, label }) => (
          <button key={kind} type="button" disabled={Boolean(busy) || !from || !to} onClick={() => download(kind)}>
            {busy === kind ? 'Exporting…' : label}
          </button>
        ))}
      </div>
      {error !== undefined && <Failure error={error} />}
    </section>
  );
}
