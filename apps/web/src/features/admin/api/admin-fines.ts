// Traffic fines and CPA s. 17 requests an administrator sees (issue 34; decisions 066, 067):
// GET /api/admin/fines lists every fine with its match and state; GET /api/admin/fee-waivers the
// requests waiting, PATCH /api/admin/fee-waivers/{id}/decide approves (the fee refunded through the
// ledger) or declines, with a reason (audited).
import type { FeeWaiver, TrafficFine } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile } from '@/lib/api-files';

const finesKey = ['admin', 'fines'] as const;
const waiversKey = ['admin', 'fee-waivers', 'requested'] as const;

export function useAdminFines() {
  return useQuery({ queryKey: finesKey, queryFn: async ({ signal }) => (await apiClient.get<TrafficFine[]>('/admin/fines', { signal })).data });
}

export function useWaiverRequests() {
  return useQuery({ queryKey: waiversKey, queryFn: async ({ signal }) => (await apiClient.get<FeeWaiver[]>('/admin/fee-waivers?status=requested', { signal })).data });
}

export function useDecideWaiver() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, decision, reason }: { id: string; decision: 'approve' | 'decline'; reason: string }) => (await apiClient.patch<FeeWaiver>(`/admin/fee-waivers/${encodeURIComponent(id)}/decide`, { decision, reason })).data,
    onSettled: () => queryClient.invalidateQueries({ queryKey: waiversKey }),
  });
}

export const openWaiverEvidence = (waiver: FeeWaiver) => downloadFile(waiver.evidence_url.replace(/^\/api/, ''), { mode: 'open' });
export const openFineNotice = (fine: TrafficFine) => downloadFile(fine.notice_url.replace(/^\/api/, ''), { mode: 'open' });
export const downloadFineNomination = (fine: TrafficFine) => downloadFile(fine.nomination_url!.replace(/^\/api/, ''), { filename: `aarto-07-${fine.notice_number}.pdf` });
