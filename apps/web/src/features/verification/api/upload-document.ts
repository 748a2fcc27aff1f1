// POST /api/user/{username}/upload-document (multipart: type, then document).
import type { DocumentType, Documents, VerificationStatus } from '@karoo/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadForm } from '@/lib/api-files';
import { verificationStatusKey } from './get-verification-status';

export interface UploadDocumentResult {
  documents: Documents;
  verification_status: VerificationStatus;
}

export async function uploadDocument(username: string, type: DocumentType, file: File): Promise<UploadDocumentResult> {
  const form = new FormData();
  // The server reads the parts in order and needs to know the type before the file arrives.
  form.append('type', type);
  form.append('document', file);
  const result = await uploadForm<UploadDocumentResult>(`/user/${encodeURIComponent(username)}/upload-document`, form);
  return result.data;
}

export function useUploadDocument(username: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ type, file }: { type: DocumentType; file: File }) => uploadDocument(username, type, file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: verificationStatusKey(username) }),
  });
}
