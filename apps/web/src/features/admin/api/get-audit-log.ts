// GET /api/admin/audit: one page of the audit log, filtered on the server (newest first).
import type { AuditEntry, AuditListQuery } from '@karoo/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export type AuditFilters = Partial<Pick<AuditListQuery, 'action' | 'target_type' | 'admin' | 'target'>> & { page: number; limit: number };

export interface AuditPage {
  entries: AuditEntry[];
  total: number;
}

export async function getAuditLog(filters: AuditFilters, signal?: AbortSignal): Promise<AuditPage> {
  const result = await apiClient.get<AuditEntry[]>('/admin/audit', { query: filters, signal });
  return { entries: result.data, total: result.meta?.total ?? result.data.length };
}

export function useAuditLog(filters: AuditFilters) {
  return useQuery({
    queryKey: queryKeys.admin.audit(filters),
    queryFn: ({ signal }) => getAuditLog(filters, signal),
    placeholderData: keepPreviousData,
  });
}
