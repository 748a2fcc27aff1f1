// Booking conversations (decision 041): the conversation of one booking and the unread counts, which
// My Bookings and the navigation bell share. Both are fetched again on the live stream's events
// (decision 083); while the stream is not open, the conversation is polled every MESSAGE_POLL_MS
// and the counts every UNREAD_POLL_MS (TanStack Query pauses polling while the tab is hidden).
import { MESSAGE_POLL_MS, UNREAD_POLL_MS, type BookingMessage, type Conversation, type MessageReport, type UnreadCounts } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { useFallbackPolling } from '../live/live-status';
import { queryKeys } from '../query-keys';

const conversationPath = (bookingId: string) => `/booking/${encodeURIComponent(bookingId)}/messages`;

/** A booking's conversation; an administrator who is not a participant passes the reason (audited on each reading). */
export function useConversation(bookingId: string, options: { enabled?: boolean; reason?: string } = {}) {
  const isAdminReading = options.reason !== undefined;
  const polling = useFallbackPolling(MESSAGE_POLL_MS);
  return useQuery({
    queryKey: queryKeys.messages.conversation(bookingId, options.reason),
    queryFn: async ({ signal }) =>
      (await apiClient.get<Conversation>(conversationPath(bookingId), { query: isAdminReading ? { reason: options.reason } : undefined, signal })).data,
    enabled: options.enabled ?? true,
    // An administrator's reading is audited each time: read once, never polled.
    refetchInterval: isAdminReading ? false : polling,
    staleTime: isAdminReading ? Infinity : 0,
  });
}

export function useUnreadMessages(enabled = true) {
  const refetchInterval = useFallbackPolling(UNREAD_POLL_MS);
  return useQuery({
    queryKey: queryKeys.messages.unread(),
    queryFn: async ({ signal }) => (await apiClient.get<UnreadCounts>('/messages/unread', { signal })).data,
    enabled,
    refetchInterval,
    staleTime: 10_000,
  });
}

export function useSendMessage(bookingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: string) => (await apiClient.post<BookingMessage>(conversationPath(bookingId), { body })).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.all }),
  });
}

export function useMarkConversationRead(bookingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiClient.post<null>(`${conversationPath(bookingId)}/read`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.messages.unread() }),
  });
}

export function useReportMessage() {
  return useMutation({
    mutationFn: async ({ messageId, reason }: { messageId: string; reason: string }) =>
      (await apiClient.post<MessageReport>(`/messages/${encodeURIComponent(messageId)}/report`, { reason })).data,
  });
}
