// Booking conversations (decision 041): the conversation of one booking, polled every
// MESSAGE_POLL_MS while it is open, and the unread counts, polled every UNREAD_POLL_MS, which My
// Bookings and the navigation bell share. Polling needs nothing but the API, on any number of
// instances; TanStack Query pauses it while the tab is hidden.
import { MESSAGE_POLL_MS, UNREAD_POLL_MS, type BookingMessage, type Conversation, type MessageReport, type UnreadCounts } from '@karoo/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../api-client';
import { queryKeys } from '../query-keys';

const conversationPath = (bookingId: string) => `/booking/${encodeURIComponent(bookingId)}/messages`;

/** A booking's conversation; an administrator who is not a participant passes the reason (audited on each reading). */
export function useConversation(bookingId: string, options: { enabled?: boolean; reason?: string } = {}) {
  const isAdminReading = options.reason !== undefined;
  return useQuery({
    queryKey: queryKeys.messages.conversation(bookingId, options.reason),
    queryFn: async ({ signal }) =>
      (await apiClient.get<Conversation>(conversationPath(bookingId), { query: isAdminReading ? { reason: options.reason } : undefined, signal })).data,
    enabled: options.enabled ?? true,
    // An administrator's reading is audited each time: read once, never polled.
    refetchInterval: isAdminReading ? false : MESSAGE_POLL_MS,
    staleTime: isAdminReading ? Infinity : 0,
  });
}

export function useUnreadMessages(enabled = true) {
  return useQuery({
    queryKey: queryKeys.messages.unread(),
    queryFn: async ({ signal }) => (await apiClient.get<UnreadCounts>('/messages/unread', { signal })).data,
    enabled,
    refetchInterval: UNREAD_POLL_MS,
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
