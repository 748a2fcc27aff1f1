// The profile page's data: the signed-in user, reloaded from GET /api/user/me when the page opens
// (through the auth provider, so the whole app sees the fresh user).
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@/lib/auth';

export function useProfile() {
  const { user, refreshUser } = useAuth();
  return useQuery({
    queryKey: ['profile', user?.username],
    queryFn: () => refreshUser(),
    enabled: !!user,
    staleTime: 0,
    refetchOnWindowFocus: false,
  });
}
