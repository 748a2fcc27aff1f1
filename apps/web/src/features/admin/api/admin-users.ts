// The Users tab's calls (document 3, Users and documents): GET /api/user/getList, one page of one
// search and filter, polled every 30 seconds while the tab is on screen (only the page shown: its
// query is the only one observed); verify or reject, create, edit and delete; documents.
import {
  ADMIN_REFRESH_MS,
  type AdminUserCounts,
  type AdminUserListQuery,
  type CreateUserBody,
  type DocumentType,
  type UpdateUserBody,
  type User,
  type UserWithDocuments,
  type VerificationBody,
} from '@karoo/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '@/lib/api-client';
import { downloadFile } from '@/lib/api-files';
import { queryKeys } from '@/lib/query-keys';

export type AdminUserFilters = Partial<Pick<AdminUserListQuery, 'search' | 'status' | 'role'>> & { page: number; limit: number };

export interface AdminUsersPage {
  users: UserWithDocuments[];
  /** Users matching the filters. */
  total: number;
  /** The counter cards: the whole table. */
  counts: AdminUserCounts | null;
}

export async function getAdminUsers(filters: AdminUserFilters, signal?: AbortSignal): Promise<AdminUsersPage> {
  const result = await apiClient.get<UserWithDocuments[]>('/user/getList', { query: filters, signal });
  const meta = result.meta as (typeof result.meta & { counts?: AdminUserCounts }) | undefined;
  return { users: result.data, total: meta?.total ?? result.data.length, counts: meta?.counts ?? null };
}

export function useAdminUsers(filters: AdminUserFilters) {
  return useQuery({
    queryKey: queryKeys.admin.users(filters),
    queryFn: ({ signal }) => getAdminUsers(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: ADMIN_REFRESH_MS,
  });
}

/** After any change: the user list and the Dashboard's counters. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.usersAll() }),
      queryClient.invalidateQueries({ queryKey: queryKeys.admin.overview() }),
    ]);
}

export function useSetVerification() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ username, body }: { username: string; body: VerificationBody }) =>
      apiClient.put<User>(`/user/${encodeURIComponent(username)}/verification`, body),
    onSuccess: invalidate,
  });
}

export function useCreateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (body: CreateUserBody) => apiClient.post<User>('/user/create', body),
    onSuccess: invalidate,
  });
}

export function useUpdateUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: ({ username, body }: { username: string; body: UpdateUserBody }) =>
      apiClient.put<User>(`/user/update/${encodeURIComponent(username)}`, body),
    onSuccess: invalidate,
  });
}

export function useDeleteUser() {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: User) => apiClient.delete<null>(`/user/delete/${encodeURIComponent(user.id)}`),
    onSuccess: invalidate,
  });
}

const documentPath = (username: string, type: DocumentType) => `/user/${encodeURIComponent(username)}/documents/${type}`;

/** Opens a document in a new tab (call straight from the click: popup blockers). */
export function openUserDocument(username: string, type: DocumentType) {
  return downloadFile(`${documentPath(username, type)}?inline=1`, { mode: 'open' });
}

/** Saves a document as `{username}_{document}` (the server adds the extension). */
export function downloadUserDocument(username: string, type: DocumentType) {
  return downloadFile(documentPath(username, type), { mode: 'save' });
}
